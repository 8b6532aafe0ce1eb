//! Klondike's `hindsight` player at other budgets than the ladder's, on seeded deals:
//! `cargo run --release -p patience-core --example hindsight_budget -- DRAW FIRST COUNT
//! SAMPLES NODES` prints the deals won and the seconds a deal (benchmarks/players.py plays
//! the ladder's own).

use patience_core::klondike::players::hindsight_playout;
use patience_core::klondike::Klondike;

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("numbers"))
        .collect();
    let [draw, first, count, samples, nodes] = args[..] else {
        panic!("DRAW FIRST COUNT SAMPLES NODES");
    };
    let started = std::time::Instant::now();
    let mut won = 0;
    for seed in first..first + count {
        let deal = Klondike::from_seed(seed, draw as u8).expect("a deal");
        won += u64::from(hindsight_playout(&deal, seed, samples as usize, nodes, 500));
    }
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "draw {draw}, seeds {first}..{}, {samples} samples x {nodes} nodes: {won}/{count} won ({:.1}%), {:.3} s a deal",
        first + count,
        100.0 * won as f64 / count as f64,
        seconds / count as f64
    );
}
