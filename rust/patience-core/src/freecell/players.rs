//! FreeCell's reference players: `greedy`, `lookahead` and `solver`, weakest first.
//!
//! Every card is face up, so there is nothing to hide: a player's observation is the
//! position itself, and strength is how far a player looks ahead.
//!
//! - `greedy` looks one move ahead: it plays the move after which the table looks best
//!   ([`evaluate`]: cards home, empty columns and free cells, few breaks in the columns,
//!   few cards on the next cards wanted home), a random one among equals.
//! - `lookahead` looks further: from each table it asks the solver, on a budget of
//!   [`LOOKAHEAD_NODES`] positions, for a win, and follows the one it finds; `greedy`'s move
//!   while it finds none.
//! - `solver` does the same with [`SOLVER_NODES`] positions a table.
//!
//! Like a person, none goes back to a table it has seen (it gives up when no other move is
//! left), so every game ends.

use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};

use super::solver::distance_of as distance;
use super::{FreeCell, FreeCellMove};
use crate::players::Players;
use crate::search::{Budget, Outcome};
use crate::shuffle::SplitMix64;

/// Positions the `solver` player's search may expand from each table it asks about.
pub const SOLVER_NODES: u64 = 20_000;

/// Positions the `lookahead` player's search may expand from each table: a short look.
pub const LOOKAHEAD_NODES: u64 = 300;

/// What a FreeCell player remembers: the tables it has seen, and the rest of a win the
/// solver found.
#[derive(Clone, Debug, Default)]
pub struct FreeCellMemory {
    visited: HashSet<u64>,
    plan: Vec<FreeCellMove>,
}

fn fingerprint(table: &FreeCell) -> u64 {
    let mut hasher = DefaultHasher::new();
    table.hash(&mut hasher);
    hasher.finish()
}

/// How good a table looks to a person (higher is better): the solver's distance to a
/// solved table (the solver's heuristic), less, with a bonus for each empty column.
pub fn evaluate(table: &FreeCell) -> i64 {
    3 * table.empty_columns() as i64 - i64::from(distance(table))
}

impl Players for FreeCell {
    /// Everything: no card of FreeCell is ever face down.
    type Observation = FreeCell;
    type Memory = FreeCellMemory;
    const PLAYERS: &'static [&'static str] = &["greedy", "lookahead", "solver"];

    fn observe(&self) -> FreeCell {
        self.clone()
    }

    fn choose(
        table: &FreeCell,
        memory: &mut FreeCellMemory,
        player: usize,
        rng: &mut SplitMix64,
    ) -> Option<FreeCellMove> {
        memory.visited.insert(fingerprint(table));
        let fresh: Vec<(FreeCellMove, FreeCell)> = table
            .legal_moves()
            .into_iter()
            .filter_map(|mv| {
                let mut after = table.clone();
                after.apply(mv);
                (!memory.visited.contains(&fingerprint(&after))).then_some((mv, after))
            })
            .collect();
        match player {
            0 => best(&fresh, rng),
            1 => solver(table, memory, &fresh, rng, LOOKAHEAD_NODES),
            2 => solver(table, memory, &fresh, rng, SOLVER_NODES),
            _ => panic!("no FreeCell player {player}"),
        }
    }
}

/// The move of `moves` whose table [`evaluate`] rates highest, a random one among equals.
fn best(moves: &[(FreeCellMove, FreeCell)], rng: &mut SplitMix64) -> Option<FreeCellMove> {
    let values: Vec<i64> = moves.iter().map(|(_, after)| evaluate(after)).collect();
    let top = *values.iter().max()?;
    let equals: Vec<FreeCellMove> = moves
        .iter()
        .zip(&values)
        .filter(|(_, &v)| v == top)
        .map(|((mv, _), _)| *mv)
        .collect();
    Some(equals[rng.below(equals.len() as u64) as usize])
}

/// `lookahead`'s and `solver`'s move: the next of the win they found, or a new search of
/// `nodes` positions, or `greedy`'s.
fn solver(
    table: &FreeCell,
    memory: &mut FreeCellMemory,
    fresh: &[(FreeCellMove, FreeCell)],
    rng: &mut SplitMix64,
    nodes: u64,
) -> Option<FreeCellMove> {
    if let Some(&next) = memory.plan.last() {
        if fresh.iter().any(|(mv, _)| *mv == next) {
            memory.plan.pop();
            return Some(next);
        }
        memory.plan.clear();
    }
    let budget = Budget {
        max_nodes: nodes,
        max_seconds: f64::INFINITY,
        max_states: 4 * nodes as usize,
    };
    if let Outcome::Solved(moves) = super::solve(table, &budget, &mut || false).outcome {
        if let Some((&first, rest)) = moves.split_first() {
            if fresh.iter().any(|(mv, _)| *mv == first) {
                memory.plan = rest.iter().rev().copied().collect();
                return Some(first);
            }
        }
    }
    best(fresh, rng)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::playout;

    /// Every game ends by itself (a player never goes back to a table it has seen), if
    /// not always within the 500 moves of a rating's playout: `greedy` can wander for
    /// hundreds of moves.
    #[test]
    fn every_chosen_move_is_legal_and_games_end() {
        for seed in 0..8 {
            let deal = FreeCell::from_seed(seed).unwrap();
            for player in 0..FreeCell::PLAYERS.len() {
                let game = playout(&deal, player, seed, 20_000);
                let mut replay = deal.clone();
                for &mv in &game.moves {
                    assert!(replay.legal_moves().contains(&mv));
                    replay.apply(mv);
                }
                assert_eq!(replay.is_solved(), game.won);
                assert!(game.moves.len() < 20_000 || game.won);
            }
        }
    }

    #[test]
    fn the_ladder_is_ordered() {
        let deals: Vec<FreeCell> = (0..30)
            .map(|seed| FreeCell::from_seed(seed).unwrap())
            .collect();
        let wins: Vec<usize> = (0..FreeCell::PLAYERS.len())
            .map(|player| {
                deals
                    .iter()
                    .enumerate()
                    .filter(|(i, deal)| playout(*deal, player, *i as u64, 500).won)
                    .count()
            })
            .collect();
        assert!(
            wins[0] < wins[1] && wins[1] < wins[2],
            "wins by player: {wins:?}"
        );
    }

    #[test]
    fn a_player_is_deterministic_given_a_seed() {
        let deal = FreeCell::from_seed(3).unwrap();
        for player in 0..FreeCell::PLAYERS.len() {
            assert_eq!(
                playout(&deal, player, 9, 500),
                playout(&deal, player, 9, 500)
            );
        }
    }
}
