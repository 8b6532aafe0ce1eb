//! Solves seeded deals of one game and prints one line each and a summary:
//! `cargo run --release -p patience-core --example solve_seeds -- GAME FIRST COUNT [SECONDS [MAX_STATES [MAX_NODES]]]`,
//! GAME one of `klondike1`, `klondike3`, `golf`, `golf-wrap`, `kansas`,
//! `kansas-win` (looking for a win only), `kansas-concrete` (the search over positions as
//! they are, the reference), `expert`.

use std::fmt::Display;

use patience_core::expert::{self, Expert};
use patience_core::golf::{self, Golf};
use patience_core::kansas::{self, Kansas};
use patience_core::klondike::solver as klondike_solver;
use patience_core::klondike::Klondike;
use patience_core::search::{Budget, Outcome, Report};

/// Solves the deal of each seed and prints what was found.
fn run<S, M: Display>(
    seeds: std::ops::Range<u64>,
    budget: &Budget,
    deal: impl Fn(u64) -> S,
    solve: impl Fn(&S, &Budget) -> Report<M>,
) {
    let (mut won, mut lost, mut unknown) = (0, 0, 0);
    let mut times = Vec::new();
    for seed in seeds {
        let report = solve(&deal(seed), budget);
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
        times.push(report.seconds);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "won {won}, unsolvable {lost}, unknown {unknown}; median {:.3} ms, max {:.3} ms",
        times[times.len() / 2] * 1e3,
        times[times.len() - 1] * 1e3
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let game = args.first().map_or("klondike3", String::as_str);
    let first: u64 = args.get(1).map_or(0, |a| a.parse().expect("FIRST"));
    let count: u64 = args.get(2).map_or(20, |a| a.parse().expect("COUNT"));
    let seconds: f64 = args.get(3).map_or(10.0, |a| a.parse().expect("SECONDS"));
    let max_states: usize = args.get(4).map_or(Budget::default().max_states, |a| {
        a.parse().expect("MAX_STATES")
    });
    let max_nodes: u64 = args.get(5).map_or(Budget::default().max_nodes, |a| {
        a.parse().expect("MAX_NODES")
    });
    let budget = Budget {
        max_seconds: seconds,
        max_states,
        max_nodes,
    };
    let seeds = first..first + count;
    match game {
        "klondike1" | "klondike3" => {
            let draw = if game == "klondike1" { 1 } else { 3 };
            run(
                seeds,
                &budget,
                |s| Klondike::from_seed(s, draw).expect("a deal"),
                |s, b| klondike_solver::solve(s, b, &mut || false),
            );
        }
        "golf" | "golf-wrap" => {
            let wrap = game == "golf-wrap";
            run(
                seeds,
                &budget,
                |s| Golf::from_seed(s, wrap).expect("a deal"),
                |s, b| golf::solve(s, b, &mut || false),
            );
        }
        "kansas" => run(
            seeds,
            &budget,
            |s| Kansas::from_seed(s).expect("a deal"),
            |s, b| kansas::solve(s, b, &mut || false),
        ),
        "kansas-win" => run(
            seeds,
            &budget,
            |s| Kansas::from_seed(s).expect("a deal"),
            |s, b| kansas::solve_for_win(s, b, &mut || false),
        ),
        "kansas-concrete" => run(
            seeds,
            &budget,
            |s| Kansas::from_seed(s).expect("a deal"),
            |s, b| kansas::solve_concrete(s, b, kansas::Pruning::Full, &mut || false),
        ),
        "expert" => run(
            seeds,
            &budget,
            |s| Expert::from_seed(s).expect("a deal"),
            |s, b| expert::solve(s, b, &mut || false),
        ),
        other => panic!("unknown game {other:?}"),
    }
}
