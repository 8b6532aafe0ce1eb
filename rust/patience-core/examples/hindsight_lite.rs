//! Experiment: Klondike's `hindsight` at a small budget on the deals of the seeds given on
//! standard input: `SAMPLES NODES PLAYOUTS DRAW`; prints `seed wins seconds` a line.

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
