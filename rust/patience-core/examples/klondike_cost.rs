//! The Klondike solver's cost per deal without Python:
//! `cargo run --release -p patience-core --example klondike_cost -- DRAW FIRST COUNT [REPEATS [SECONDS [EASY_NODES]]]`.
//!
//! Solves the deals of seeds `FIRST .. FIRST + COUNT` once each and prints the median, p90
//! and total time a deal (the deal's construction not counted); then solves the easier half
//! of them (those at or under the median) `REPEATS` times more and prints their mean time
//! a deal: the fixed cost, steady enough to profile (`perf record`) and to compare.
//! With `EASY_NODES`, the first pass gets that many nodes a deal and the deals it decides
//! are the ones repeated: a short run, for `valgrind --tool=callgrind`, whose instruction
//! counts a busy machine does not disturb.

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
    let easy_nodes = arg(5, 0.0) as u64;
    let budget = Budget {
        max_nodes: if easy_nodes > 0 {
            easy_nodes
        } else {
            50_000_000
        },
        max_seconds: arg(4, 10.0),
        max_states: 8_000_000,
    };
    let deals: Vec<Klondike> = (first..first + count)
        .map(|seed| Klondike::from_seed(seed, draw).expect("a deal"))
        .collect();
    let mut timed: Vec<(f64, &Klondike, bool)> = Vec::new();
    let (mut won, mut lost, mut unknown) = (0, 0, 0);
    let mut nodes: Vec<u64> = Vec::new();
    for deal in &deals {
        let started = Instant::now();
        let report = solver::solve(deal, &budget, &mut || false);
        let decided = !matches!(report.outcome, Outcome::Unknown(_));
        nodes.push(report.nodes);
        timed.push((started.elapsed().as_secs_f64(), deal, decided));
        match report.outcome {
            Outcome::Solved(_) => won += 1,
            Outcome::Unsolvable => lost += 1,
            Outcome::Unknown(_) => unknown += 1,
        }
    }
    let mut times: Vec<f64> = timed.iter().map(|(t, _, _)| *t).collect();
    times.sort_by(f64::total_cmp);
    let median = times[times.len() / 2];
    nodes.sort_unstable();
    println!(
        "draw {draw}, seeds {first}..{}: won {won}, unsolvable {lost}, unknown {unknown}; \
         median {:.4} ms, p90 {:.4} ms, total {:.3} s; nodes: median {}, p90 {}, total {}",
        first + count,
        median * 1e3,
        times[(times.len() - 1) * 9 / 10] * 1e3,
        times.iter().sum::<f64>(),
        nodes[nodes.len() / 2],
        nodes[(nodes.len() - 1) * 9 / 10],
        nodes.iter().sum::<u64>()
    );
    let easy: Vec<&Klondike> = timed
        .iter()
        .filter(|(t, _, decided)| match easy_nodes {
            0 => *t <= median,
            _ => *decided,
        })
        .map(|(_, deal, _)| *deal)
        .collect();
    let started = Instant::now();
    let full = Budget {
        max_nodes: 50_000_000,
        ..budget
    };
    repeat(&easy, repeats, &full);
    println!(
        "the {} deals {}, {repeats} times each: {:.4} ms a deal",
        easy.len(),
        match easy_nodes {
            0 => "at or under the median".to_string(),
            _ => format!("decided within {easy_nodes} nodes"),
        },
        started.elapsed().as_secs_f64() * 1e3 / (repeats * easy.len()).max(1) as f64
    );
}

/// Solves each of `deals` `repeats` times (a function of its own, for profilers).
#[inline(never)]
fn repeat(deals: &[&Klondike], repeats: usize, budget: &Budget) {
    for _ in 0..repeats {
        for deal in deals {
            std::hint::black_box(solver::solve(deal, budget, &mut || false));
        }
    }
}
