//! Checks that the solver's pruning never changes a verdict: random positions from the
//! middle of seeded games are solved with every pruning rule and with none, and the verdicts
//! compared wherever both searches decided. `cargo run --release --example
//! klondike_pruning_check -- COUNT [RANDOM_MOVES] [NODE_LIMIT]`.

use patience_core::klondike::solver::{solve_with, Budget, Outcome, Pruning};
use patience_core::klondike::{Klondike, Move};
use patience_core::shuffle::SplitMix64;

/// A random index below `n`.
fn pick(rng: &mut SplitMix64, n: usize) -> usize {
    rng.below(n as u64) as usize
}

/// A position reached by `moves` random legal moves (foundation moves twice as likely as
/// others, so that games progress) from the deal of `seed`.
fn random_position(seed: u64, draw: u8, moves: usize, rng: &mut SplitMix64) -> Klondike {
    let mut state = Klondike::from_seed(seed, draw).expect("a seeded deal");
    for _ in 0..moves {
        let legal = state.legal_moves();
        if legal.is_empty() {
            break;
        }
        let home: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| matches!(m, Move::ColumnToFoundation(_) | Move::WasteToFoundation))
            .collect();
        let mv = if !home.is_empty() && pick(rng, 2) == 0 {
            home[pick(rng, home.len())]
        } else {
            legal[pick(rng, legal.len())]
        };
        state.apply(mv);
    }
    state
}

fn verdict(outcome: &Outcome) -> Option<bool> {
    match outcome {
        Outcome::Solved(_) => Some(true),
        Outcome::Unsolvable => Some(false),
        Outcome::Unknown(_) => None,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let count: u64 = args.first().map_or(200, |a| a.parse().expect("COUNT"));
    let moves: usize = args.get(1).map_or(60, |a| a.parse().expect("RANDOM_MOVES"));
    let nodes: u64 = args
        .get(2)
        .map_or(3_000_000, |a| a.parse().expect("NODE_LIMIT"));
    let budget = Budget {
        max_nodes: nodes,
        max_seconds: 60.0,
        ..Budget::default()
    };
    let mut rng = SplitMix64::new(2026);
    let (mut compared, mut winnable, mut undecided) = (0, 0, 0);
    for seed in 0..count {
        for draw in [1, 3] {
            let start = random_position(seed, draw, moves, &mut rng);
            let pruned = solve_with(&start, &budget, Pruning::Full, &mut || false);
            let plain = solve_with(&start, &budget, Pruning::None, &mut || false);
            match (verdict(&pruned.outcome), verdict(&plain.outcome)) {
                (Some(a), Some(b)) if a != b => {
                    println!("DISAGREE seed {seed} draw {draw}: pruned {a}, plain {b}");
                    std::process::exit(1);
                }
                (Some(a), Some(_)) => {
                    compared += 1;
                    winnable += a as u32;
                }
                _ => undecided += 1,
            }
        }
    }
    println!(
        "{compared} positions agree ({winnable} winnable), {undecided} undecided by one search"
    );
}
