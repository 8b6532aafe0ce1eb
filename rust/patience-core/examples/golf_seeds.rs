//! Solves seeded Golf deals and prints a summary: `cargo run --release --example golf_seeds
//! -- WRAP(0|1) FIRST COUNT`.

use patience_core::golf::{solve, Golf};
use patience_core::search::{Budget, Outcome};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let wrap = args.first().is_some_and(|a| a == "1");
    let first: u64 = args.get(1).map_or(0, |a| a.parse().expect("FIRST"));
    let count: u64 = args.get(2).map_or(100, |a| a.parse().expect("COUNT"));
    let budget = Budget::default();
    let (mut won, mut lost, mut unknown) = (0, 0, 0);
    let mut times = Vec::new();
    for seed in first..first + count {
        let start = Golf::from_seed(seed, wrap).expect("a seeded deal");
        let report = solve(&start, &budget, &mut || false);
        match report.outcome {
            Outcome::Solved(_) => won += 1,
            Outcome::Unsolvable => lost += 1,
            Outcome::Unknown(_) => unknown += 1,
        }
        times.push(report.seconds);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "wrap {wrap}: won {won}, unsolvable {lost}, unknown {unknown}; median {:.3} ms, max {:.3} ms",
        times[times.len() / 2] * 1e3,
        times[times.len() - 1] * 1e3
    );
}
