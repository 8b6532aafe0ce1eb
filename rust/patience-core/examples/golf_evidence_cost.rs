//! The solver's share of a Golf deal's cheap evidence, for `perf stat` and
//! `valgrind --tool=callgrind`: `golf_evidence_cost WRAP FIRST COUNT` certifies the deals of
//! seeds `FIRST .. FIRST + COUNT` (2,000,000 nodes, as a catalog job) and, for each it wins,
//! searches every legal first move again within 200,000 nodes, as `_core.evidence` does
//! (but those the certifying search already answers: `solve_noting_first_moves`);
//! it prints each deal's verdict, nodes, and first moves that still win, of those legal.

use patience_core::game::winning_first_moves;
use patience_core::golf::{solve, solve_noting_first_moves, Golf};
use patience_core::search::{Budget, Outcome};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: u64| {
        args.get(i)
            .map_or(default, |a| a.parse().expect("a whole number"))
    };
    let wrap = arg(0, 1) == 1;
    let first = arg(1, 0);
    let count = arg(2, 200);
    let certify = Budget {
        max_nodes: 2_000_000,
        max_seconds: 1e9,
        max_states: 8_000_000,
    };
    let first_moves = Budget {
        max_nodes: 200_000,
        max_seconds: 1e9,
        max_states: 800_000,
    };
    for seed in first..first + count {
        let deal = Golf::from_seed(seed, wrap).expect("a deal");
        let (report, known) = solve_noting_first_moves(&deal, &certify, &mut || false);
        let Outcome::Solved(moves) = report.outcome else {
            println!("{seed} not-won {}", report.nodes);
            continue;
        };
        let legal = deal.legal_moves();
        let winning = winning_first_moves(&deal, &known, first_moves.max_nodes, |after| {
            matches!(
                solve(after, &first_moves, &mut || false).outcome,
                Outcome::Solved(_)
            )
        });
        println!(
            "{seed} solved {} {} {winning}/{}",
            report.nodes,
            moves.len(),
            legal.len()
        );
    }
}
