//! Klondike's `hindsight` at a small budget, as cheap evidence for a rating model might play
//! it (docs/rating.md, "Ratings at catalog scale"): on the deal of each seed given on
//! standard input, one a line, plays `PLAYOUTS` games of `hindsight` with `SAMPLES` samples
//! of `NODES` nodes, and prints `seed wins seconds`:
//! `cargo run --release -p patience-core --example hindsight_lite -- SAMPLES NODES PLAYOUTS
//! DRAW < seeds.txt`.

use patience_core::klondike::players::hindsight_playout;
use patience_core::klondike::Klondike;
use std::io::BufRead;

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("numbers"))
        .collect();
    let [samples, nodes, playouts, draw] = args[..] else {
        panic!("SAMPLES NODES PLAYOUTS DRAW");
    };
    for line in std::io::stdin().lock().lines() {
        let seed: u64 = line.expect("a line").trim().parse().expect("a seed");
        let deal = Klondike::from_seed(seed, draw as u8).expect("a deal");
        let started = std::time::Instant::now();
        let wins: u64 = (0..playouts)
            .map(|k| {
                u64::from(hindsight_playout(
                    &deal,
                    77 + k,
                    samples as usize,
                    nodes,
                    500,
                ))
            })
            .sum();
        println!("{seed} {wins} {:.6}", started.elapsed().as_secs_f64());
    }
}
