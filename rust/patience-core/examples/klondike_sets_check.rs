//! Compares the abstract Klondike search with the search over real positions on seeded
//! deals: `cargo run --release -p patience-core --example klondike_sets_check -- DRAW FIRST
//! COUNT SECONDS`. Prints each deal where the verdicts differ and a summary.
//! `AGAINST=plain` compares with the abstract search without the rules on the last move
//! instead; `PASS=complete` runs the abstract search's complete phase alone (no quick
//! phases first), so that the wins it finds under the rules are compared too.

use patience_core::klondike::sets as klondike_sets;
use patience_core::klondike::solver as klondike_solver;
use patience_core::klondike::Klondike;
use patience_core::search::{Budget, Outcome, Pruning};

fn verdict<M>(outcome: &Outcome<M>) -> &'static str {
    match outcome {
        Outcome::Solved(_) => "solved",
        Outcome::Unsolvable => "unsolvable",
        Outcome::Unknown(_) => "unknown",
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let draw: u8 = args.first().map_or(3, |a| a.parse().expect("DRAW"));
    let first: u64 = args.get(1).map_or(0, |a| a.parse().expect("FIRST"));
    let count: u64 = args.get(2).map_or(100, |a| a.parse().expect("COUNT"));
    let seconds: f64 = args.get(3).map_or(1.0, |a| a.parse().expect("SECONDS"));
    let budget = Budget {
        max_seconds: seconds,
        ..Budget::default()
    };
    let (mut agree, mut differ, mut sets_only, mut old_only, mut neither) = (0, 0, 0, 0, 0);
    let mut times = Vec::new();
    let mut sets_counts = [0u32; 3];
    for seed in first..first + count {
        let deal = Klondike::from_seed(seed, draw).expect("a deal");
        let sets = if std::env::var("PASS").as_deref() == Ok("complete") {
            klondike_sets::solve_complete(&deal, &budget, Pruning::Full, &mut || false)
        } else {
            klondike_sets::solve(&deal, &budget, &mut || false)
        }
        .expect("a dealt position");
        let old = if std::env::var("AGAINST").as_deref() == Ok("plain") {
            klondike_sets::solve_with(&deal, &budget, Pruning::None, &mut || false)
                .expect("a dealt position")
        } else {
            klondike_solver::solve_concrete(&deal, &budget, &mut || false)
        };
        let (a, b) = (verdict(&sets.outcome), verdict(&old.outcome));
        sets_counts[match a {
            "solved" => 0,
            "unsolvable" => 1,
            _ => 2,
        }] += 1;
        times.push(sets.seconds);
        println!(
            "{seed}\tsets {a} {} nodes {:.2} ms\tconcrete {b} {:.2} ms",
            sets.nodes,
            sets.seconds * 1e3,
            old.seconds * 1e3
        );
        match (a, b) {
            ("unknown", "unknown") => neither += 1,
            ("unknown", _) => old_only += 1,
            (_, "unknown") => sets_only += 1,
            _ if a == b => agree += 1,
            _ => {
                differ += 1;
                println!("DIFFER {seed}");
            }
        }
    }
    times.sort_by(f64::total_cmp);
    println!(
        "draw {draw}: sets solved {} unsolvable {} unknown {}; median {:.3} ms, p90 {:.3} ms, max {:.3} ms",
        sets_counts[0],
        sets_counts[1],
        sets_counts[2],
        times[times.len() / 2] * 1e3,
        times[times.len() * 9 / 10] * 1e3,
        times[times.len() - 1] * 1e3
    );
    println!(
        "both decided and agree {agree}, differ {differ}; only sets decided {sets_only}, only concrete {old_only}, neither {neither}"
    );
}
