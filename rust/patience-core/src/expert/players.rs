//! Solitaire Expert's reference players: `greedy`, `lookahead` and `solver`, weakest first.
//!
//! Every card is face up, so there is nothing to hide: a player's observation is the
//! position itself, and strength is how far a player looks.
//!
//! - `greedy` plays the move after which the table looks best ([`evaluate`]: cards home,
//!   columns that are one string, empty columns, a free hand, few cards buried above a
//!   column's string), a random one among equals.
//! - `lookahead` looks a short way ahead: from each table it asks the solver, on a budget of
//!   [`LOOKAHEAD_NODES`] positions, for a win, and follows the one it finds; `greedy`'s move
//!   while it finds none. (Looking two moves deep by [`evaluate`] alone won none of 200
//!   deals, like `greedy`: the table's look says little about a two-deck game's way out.)
//! - `solver` does the same with [`SOLVER_NODES`] positions a table.
//!
//! Like a person, none goes back to a table it has seen (it gives up when no other move is
//! left), so every game ends.

use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};

use super::{string_start, Expert, ExpertMove};
use crate::players::Players;
use crate::search::{Budget, Outcome};
use crate::shuffle::SplitMix64;

/// Positions the `solver` player's search may expand from each table it asks about.
pub const SOLVER_NODES: u64 = 20_000;

/// Positions the `lookahead` player's search may expand from each table: a short look.
pub const LOOKAHEAD_NODES: u64 = 1_000;

/// What an Expert player remembers: the tables it has seen, and the rest of a win the
/// solver found.
#[derive(Clone, Debug, Default)]
pub struct ExpertMemory {
    visited: HashSet<u64>,
    plan: Vec<ExpertMove>,
}

fn fingerprint(table: &Expert) -> u64 {
    let mut hasher = DefaultHasher::new();
    table.hash(&mut hasher);
    hasher.finish()
}

/// How good a table looks to a person (higher is better).
pub fn evaluate(table: &Expert) -> i64 {
    let home = table.home() as i64;
    let strings = table
        .columns
        .iter()
        .filter(|c| string_start(c) == 0)
        .count() as i64;
    let empty = table.columns.iter().filter(|c| c.is_empty()).count() as i64;
    let buried: i64 = table.columns.iter().map(|c| string_start(c) as i64).sum();
    10 * home + 4 * strings + 3 * empty - 2 * table.hand.len() as i64 - buried
}

impl Players for Expert {
    /// Everything: no card of Solitaire Expert is ever face down.
    type Observation = Expert;
    type Memory = ExpertMemory;
    const PLAYERS: &'static [&'static str] = &["greedy", "lookahead", "solver"];

    fn observe(&self) -> Expert {
        self.clone()
    }

    fn choose(
        table: &Expert,
        memory: &mut ExpertMemory,
        player: usize,
        rng: &mut SplitMix64,
    ) -> Option<ExpertMove> {
        memory.visited.insert(fingerprint(table));
        let fresh: Vec<(ExpertMove, Expert)> = table
            .legal_moves()
            .into_iter()
            .filter_map(|mv| {
                let mut after = table.clone();
                after.apply(mv);
                (!memory.visited.contains(&fingerprint(&after))).then_some((mv, after))
            })
            .collect();
        match player {
            0 => best(&fresh, evaluate, rng),
            1 => solver(table, memory, &fresh, rng, LOOKAHEAD_NODES),
            2 => solver(table, memory, &fresh, rng, SOLVER_NODES),
            _ => panic!("no Solitaire Expert player {player}"),
        }
    }
}

/// The move of `moves` whose table `value` rates highest, a random one among equals.
fn best(
    moves: &[(ExpertMove, Expert)],
    value: impl Fn(&Expert) -> i64,
    rng: &mut SplitMix64,
) -> Option<ExpertMove> {
    let values: Vec<i64> = moves.iter().map(|(_, after)| value(after)).collect();
    let top = *values.iter().max()?;
    let equals: Vec<ExpertMove> = moves
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
    table: &Expert,
    memory: &mut ExpertMemory,
    fresh: &[(ExpertMove, Expert)],
    rng: &mut SplitMix64,
    nodes: u64,
) -> Option<ExpertMove> {
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
    best(fresh, evaluate, rng)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::playout;

    #[test]
    fn every_chosen_move_is_legal_and_games_end() {
        for seed in 0..8 {
            let deal = Expert::from_seed(seed).unwrap();
            for player in 0..Expert::PLAYERS.len() {
                let game = playout(&deal, player, seed, 500);
                let mut replay = deal.clone();
                for &mv in &game.moves {
                    assert!(replay.legal_moves().contains(&mv));
                    replay.apply(mv);
                }
                assert_eq!(replay.is_solved(), game.won);
                assert!(game.moves.len() < 500 || game.won);
            }
        }
    }

    #[test]
    fn the_ladder_is_ordered() {
        let deals: Vec<Expert> = (0..30)
            .map(|seed| Expert::from_seed(seed).unwrap())
            .collect();
        let wins: Vec<usize> = (0..Expert::PLAYERS.len())
            .map(|player| {
                deals
                    .iter()
                    .enumerate()
                    .filter(|(i, deal)| playout(*deal, player, *i as u64, 500).won)
                    .count()
            })
            .collect();
        assert!(
            wins[0] <= wins[1] && wins[1] < wins[2],
            "wins by player: {wins:?}"
        );
    }

    #[test]
    fn a_player_is_deterministic_given_a_seed() {
        let deal = Expert::from_seed(3).unwrap();
        for player in 0..Expert::PLAYERS.len() {
            assert_eq!(
                playout(&deal, player, 9, 500),
                playout(&deal, player, 9, 500)
            );
        }
    }
}
