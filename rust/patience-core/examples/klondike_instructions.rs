//! Each deal's cost alone, for `valgrind --tool=callgrind`:
//! `klondike_instructions DRAW FIRST COUNT [NODES [STATES]]` solves the deals of seeds
//! `FIRST .. FIRST + COUNT`, each in a call of [`one_deal`] (at most `NODES` nodes a deal,
//! 20,000 by default, so that the runs repeat, and a table of at most `STATES` positions,
//! 8,000,000 by default), and prints each deal's verdict, nodes and (for a win) the certificate's length and a
//! hash of its moves' names: two builds' outputs compare verdicts and certificates.
//!
//! Under `valgrind --tool=callgrind --collect-atstart=no
//! --toggle-collect=klondike_instructions::one_deal --dump-after=klondike_instructions::one_deal` each dump holds one deal's solve and nothing else
//! (`benchmarks/klondike_instructions.py` runs it and prints the median and p90).

use patience_core::klondike::solver;
use patience_core::klondike::Klondike;
use patience_core::search::{Budget, Outcome};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: u64| {
        args.get(i)
            .map_or(default, |a| a.parse().expect("a whole number"))
    };
    let draw = arg(0, 3) as u8;
    let first = arg(1, 5000);
    let count = arg(2, 200);
    let budget = Budget {
        max_nodes: arg(3, 20_000),
        max_seconds: 1e9,
        max_states: arg(4, 8_000_000) as usize,
    };
    let deals: Vec<Klondike> = (first..first + count)
        .map(|seed| Klondike::from_seed(seed, draw).expect("a deal"))
        .collect();
    for (seed, deal) in (first..).zip(&deals) {
        let report = one_deal(deal, &budget);
        let verdict = match report.outcome {
            Outcome::Solved(moves) => {
                // FNV-1a over the moves' names: the certificate, to compare runs
                let mut hash = 0xcbf2_9ce4_8422_2325u64;
                for mv in &moves {
                    for byte in mv.to_string().bytes().chain([b' ']) {
                        hash = (hash ^ u64::from(byte)).wrapping_mul(0x100_0000_01b3);
                    }
                }
                format!("solved {} {hash:016x}", moves.len())
            }
            Outcome::Unsolvable => "unsolvable".to_string(),
            Outcome::Unknown(_) => "unknown".to_string(),
        };
        println!("{seed} {verdict} {}", report.nodes);
    }
}

/// One deal's solve, in a function of its own (for the profiler).
#[inline(never)]
fn one_deal(deal: &Klondike, budget: &Budget) -> solver::Report {
    // through black_box, so that the call is not a tail call (callgrind sees it return)
    std::hint::black_box(solver::solve(deal, budget, &mut || false))
}
