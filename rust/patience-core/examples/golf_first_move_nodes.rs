//! Where a cheap Golf deal's solver nodes go, and what cheaper first-move searches would
//! leave: `golf_first_move_nodes WRAP FIRST COUNT NODES SHARED` certifies the deals of seeds
//! `FIRST .. FIRST + COUNT` (2,000,000 nodes, as a catalog job) and, for each it wins,
//! searches every legal first move within `NODES` nodes: each with a table of its own
//! (`SHARED` 0, as `_core.evidence` does today) or keeping the positions the searches
//! before it searched out (`SHARED` 1, `golf::solve_sharing_first_moves`). A first move
//! the certifying search answers is not searched either way. It prints, a deal a line,
//! the seed, `solved` (or `not-won` and the nodes), the certifying nodes, the first moves'
//! nodes, the first moves won within `NODES` of those legal, and each first move's verdict
//! (`+` won, `?` undecided within `NODES`, `-` lost) and nodes.

use patience_core::golf::{solve, solve_noting_first_moves, solve_sharing_first_moves, Golf};
use patience_core::search::{Budget, FirstMove, Outcome};

/// A first move's verdict as printed: `+` won, `?` undecided within the budget, `-` lost.
fn verdict(won: bool, undecided: bool) -> char {
    if won {
        '+'
    } else if undecided {
        '?'
    } else {
        '-'
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: u64| {
        args.get(i)
            .map_or(default, |a| a.parse().expect("a whole number"))
    };
    let wrap = arg(0, 1) == 1;
    let first = arg(1, 0);
    let count = arg(2, 200);
    let nodes = arg(3, 200_000);
    let shared = arg(4, 0) == 1;
    let certify = Budget {
        max_nodes: 2_000_000,
        max_seconds: 1e9,
        max_states: 8_000_000,
    };
    let first_moves = Budget {
        max_nodes: nodes,
        max_seconds: 1e9,
        max_states: 4 * nodes as usize,
    };
    for seed in first..first + count {
        let deal = Golf::from_seed(seed, wrap).expect("a deal");
        let legal = deal.legal_moves().len();
        let (certified, each): (u64, Vec<(char, u64)>) = if shared {
            let (report, searched) =
                solve_sharing_first_moves(&deal, &certify, &first_moves, &mut || false);
            if !matches!(report.outcome, Outcome::Solved(_)) {
                println!("{seed} not-won {}", report.nodes);
                continue;
            }
            let each = searched
                .iter()
                .map(|s| (verdict(s.won, s.undecided), s.nodes))
                .collect();
            (report.nodes, each)
        } else {
            let (report, known) = solve_noting_first_moves(&deal, &certify, &mut || false);
            if !matches!(report.outcome, Outcome::Solved(_)) {
                println!("{seed} not-won {}", report.nodes);
                continue;
            }
            // as `game::winning_first_moves` judges them, each search's nodes counted
            let each = deal
                .legal_moves()
                .into_iter()
                .map(|mv| {
                    let mut after = deal.clone();
                    after.apply(mv);
                    if after.is_won() {
                        return ('+', 0);
                    }
                    match known.iter().find(|(first, _)| *first == mv) {
                        Some((_, FirstMove::Lost)) => ('-', 0),
                        Some(&(_, FirstMove::WonAt(n))) => (
                            verdict(n <= first_moves.max_nodes, n > first_moves.max_nodes),
                            0,
                        ),
                        None => {
                            let alone = solve(&after, &first_moves, &mut || false);
                            let won = matches!(alone.outcome, Outcome::Solved(_));
                            let undecided = matches!(alone.outcome, Outcome::Unknown(_));
                            (verdict(won, undecided), alone.nodes)
                        }
                    }
                })
                .collect();
            (report.nodes, each)
        };
        let spent: u64 = each.iter().map(|&(_, n)| n).sum();
        let won = each.iter().filter(|&&(v, _)| v == '+').count();
        let list: Vec<String> = each.iter().map(|&(v, n)| format!("{v}{n}")).collect();
        println!(
            "{seed} solved {certified} {spent} {won}/{legal} {}",
            list.join(",")
        );
    }
}
