//! Each search of the Klondike solver alone on seeded deals (what the solver, which runs
//! them side by side, pays for each): `cargo run --release -p patience-core --example
//! klondike_components -- DRAW FIRST COUNT SECONDS`. Prints a line a seed: for each part,
//! its verdict (`won`, `lost`, `unk`), nodes and seconds. The search for wins gets at most
//! 3 seconds (it never ends on a lost deal).
use patience_core::klondike::sets::{self, Part};
use patience_core::klondike::Klondike;
use patience_core::search::{Budget, Outcome, Pruning};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize| args.get(i).expect("DRAW FIRST COUNT SECONDS");
    let draw: u8 = arg(0).parse().expect("DRAW");
    let first: u64 = arg(1).parse().expect("FIRST");
    let count: u64 = arg(2).parse().expect("COUNT");
    let seconds: f64 = arg(3).parse().expect("SECONDS");
    let budget = Budget {
        max_nodes: 500_000_000,
        max_seconds: seconds,
        max_states: 50_000_000,
    };
    let parts: &[(Part, &str)] = match draw {
        3 => &[
            (Part::Complete, "complete"),
            (Part::Finder, "finder"),
            (Part::Relaxed, "relaxed"),
        ],
        _ => &[(Part::Complete, "complete"), (Part::Finder, "finder")],
    };
    for seed in first..first + count {
        let start = Klondike::from_seed(seed, draw).expect("a deal");
        let mut line = format!("{seed}");
        for &(part, name) in parts {
            let budget = match part {
                Part::Finder => Budget {
                    max_seconds: seconds.min(3.0),
                    ..budget.clone()
                },
                _ => budget.clone(),
            };
            let report = sets::solve_parts(&start, &budget, Pruning::Full, &[part], &mut || false)
                .expect("a dealt position");
            let verdict = match report.outcome {
                Outcome::Solved(_) => "won",
                Outcome::Unsolvable => "lost",
                Outcome::Unknown(_) => "unk",
            };
            line += &format!(" {name} {verdict} {} {:.4}", report.nodes, report.seconds);
        }
        println!("{line}");
    }
}
