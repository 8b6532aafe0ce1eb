//! Solves seeded Klondike deals and prints one line each: `cargo run --release --example
//! klondike_seeds -- DRAW FIRST COUNT [SECONDS]`.

use patience_core::klondike::Klondike;
use patience_core::klondike_solver::{solve, Budget, Outcome};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let draw: u8 = args.first().map_or(3, |a| a.parse().expect("DRAW"));
    let first: u64 = args.get(1).map_or(0, |a| a.parse().expect("FIRST"));
    let count: u64 = args.get(2).map_or(20, |a| a.parse().expect("COUNT"));
    let seconds: f64 = args.get(3).map_or(10.0, |a| a.parse().expect("SECONDS"));
    let budget = Budget {
        max_seconds: seconds,
        ..Budget::default()
    };
    let (mut won, mut lost, mut unknown) = (0, 0, 0);
    for seed in first..first + count {
        let start = Klondike::from_seed(seed, draw).expect("a seeded deal");
        let report = solve(&start, &budget, &mut || false);
        let verdict = match &report.outcome {
            Outcome::Solved(moves) => {
                won += 1;
                format!("solved in {} moves", moves.len())
            }
            Outcome::Unsolvable => {
                lost += 1;
                "unsolvable".to_string()
            }
            Outcome::Unknown(reason) => {
                unknown += 1;
                format!("unknown ({reason})")
            }
        };
        println!(
            "{seed}\t{verdict}\t{} nodes\t{:.4} s",
            report.nodes, report.seconds
        );
    }
    println!("won {won}, unsolvable {lost}, unknown {unknown}");
}
