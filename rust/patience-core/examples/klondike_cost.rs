//! The Klondike solver's cost per deal without Python:
//! `cargo run --release -p patience-core --example klondike_cost -- DRAW FIRST COUNT [REPEATS [SECONDS]]`.
//!
//! Solves the deals of seeds `FIRST .. FIRST + COUNT` once each and prints the median, p90
//! and total time a deal (the deal's construction not counted); then solves the easier half
//! of them (those at or under the median) `REPEATS` times more and prints their mean time
//! a deal: the fixed cost, steady enough to profile (`perf record`) and to compare.

use std::time::Instant;

use patience_core::klondike::solver;
use patience_core::klondike::Klondike;
use patience_core::search::{Budget, Outcome};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: f64| {
        args.get(i)
            .map_or(default, |a| a.parse().expect("a number"))
    };
    let draw = arg(0, 3.0) as u8;
    let first = arg(1, 5000.0) as u64;
    let count = arg(2, 200.0) as u64;
    let repeats = arg(3, 200.0) as usize;
    let budget = Budget {
        max_nodes: 50_000_000,
        max_seconds: arg(4, 10.0),
        max_states: 8_000_000,
    };
    let deals: Vec<Klondike> = (first..first + count)
        .map(|seed| Klondike::from_seed(seed, draw).expect("a deal"))
        .collect();
    let mut timed: Vec<(f64, &Klondike)> = Vec::new();
    let (mut won, mut lost, mut unknown) = (0, 0, 0);
    for deal in &deals {
        let started = Instant::now();
        let report = solver::solve(deal, &budget, &mut || false);
        timed.push((started.elapsed().as_secs_f64(), deal));
        match report.outcome {
            Outcome::Solved(_) => won += 1,
            Outcome::Unsolvable => lost += 1,
            Outcome::Unknown(_) => unknown += 1,
        }
    }
    let mut times: Vec<f64> = timed.iter().map(|(t, _)| *t).collect();
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    println!(
        "draw {draw}, seeds {first}..{}: won {won}, unsolvable {lost}, unknown {unknown}; \
         median {:.4} ms, p90 {:.4} ms, total {:.3} s",
        first + count,
        median * 1e3,
        times[(times.len() - 1) * 9 / 10] * 1e3,
        times.iter().sum::<f64>()
    );
    let easy: Vec<&Klondike> = timed
        .iter()
        .filter(|(t, _)| *t <= median)
        .map(|(_, deal)| *deal)
        .collect();
    let started = Instant::now();
    for _ in 0..repeats {
        for deal in &easy {
            std::hint::black_box(solver::solve(deal, &budget, &mut || false));
        }
    }
    println!(
        "the {} deals at or under the median, {repeats} times each: {:.4} ms a deal",
        easy.len(),
        started.elapsed().as_secs_f64() * 1e3 / (repeats * easy.len()).max(1) as f64
    );
}
