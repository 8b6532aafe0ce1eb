//! Reference players: for each game a ladder of policies, weakest first, that see only
//! what a person sees.
//!
//! A player is handed the game's [`Players::Observation`] (what is face up now, and how
//! many cards are face down or in the stock) and its own [`Players::Memory`], which it
//! builds from the observations it was shown (a person remembers the order of a stock
//! they have turned through), never the position itself: [`Players::choose`] takes no
//! position, so a player cannot peek at a face-down card or the stock's order by
//! construction. The playout loop ([`playout`]) is the only code that holds the position,
//! and it hands the player [`Players::observe`]'s answer and plays the move chosen. Given
//! a seed every player is deterministic.

use crate::game::NativeGame;
use crate::shuffle::SplitMix64;

/// What a player may know of the cards a person at the table cannot see: the model of
/// information it plays under. Every player sees at least what a person sees.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Information {
    /// A person's: face-down cards, and the order of a stock not yet turned through, are
    /// unknown (a person learns the stock's order by watching it go by).
    #[default]
    Person,
    /// The stock's order is known from the start; only the face-down tableau cards are
    /// hidden. The setting of the published Klondike players (lonelybot's, and Bjarnason,
    /// Fern and Tadepalli's), kept so that our players can be measured against them.
    KnownStock,
}

impl Information {
    /// Every model, by name.
    pub const ALL: [(&'static str, Information); 2] = [
        ("person", Information::Person),
        ("known-stock", Information::KnownStock),
    ];

    /// The model called `name`.
    pub fn named(name: &str) -> Option<Information> {
        Information::ALL
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, model)| model)
    }

    /// The model's name.
    pub fn name(self) -> &'static str {
        Information::ALL
            .iter()
            .find(|(_, model)| *model == self)
            .map(|(n, _)| *n)
            .expect("every model is named")
    }
}

/// A game with reference players.
pub trait Players: NativeGame {
    /// What a person sees of a position and remembers of the game so far.
    type Observation: Clone + PartialEq + std::fmt::Debug + Send + Sync;

    /// What a player remembers between moves, built only from the observations it was
    /// shown (and the moves it chose).
    type Memory: Clone + Default + Send;

    /// The ladder's names, weakest first.
    const PLAYERS: &'static [&'static str];

    /// What a person sees of this position. Two positions that differ only in where the
    /// cards the player cannot see lie have the same observation.
    fn observe(&self) -> Self::Observation;

    /// The models of information this game's players can play under (see
    /// [`Players::observe_as`]); [`Information::Person`] first, and by default alone.
    const INFORMATION: &'static [Information] = &[Information::Person];

    /// What a player sees of this position under `information`, one of
    /// [`Players::INFORMATION`]: [`Players::observe`] for a person. Two positions that
    /// differ only in where the cards the model hides lie have the same observation.
    fn observe_as(&self, information: Information) -> Self::Observation {
        let _ = information;
        self.observe()
    }

    /// How far a game in this position has come towards a win, from 0 to 1, and 1 exactly
    /// when it is won: what a playout's result is measured by. By default a game is won or
    /// lost; a game whose own score counts progress (Kansas: the cards home) says so.
    fn progress(&self) -> f64 {
        if self.won() {
            1.0
        } else {
            0.0
        }
    }

    /// The move player `player` (an index into [`Players::PLAYERS`]) makes, or `None`
    /// when it has none or gives up. It updates `memory` from `observation`. Randomness
    /// comes from `rng` only.
    fn choose(
        observation: &Self::Observation,
        memory: &mut Self::Memory,
        player: usize,
        rng: &mut SplitMix64,
    ) -> Option<Self::Move>;
}

/// One game played by a reference player.
#[derive(Clone, Debug, PartialEq)]
pub struct Playout<M> {
    /// Whether the game was won (as [`NativeGame::won`] counts it).
    pub won: bool,
    /// [`Players::progress`] of the position the game ended in.
    pub progress: f64,
    /// The moves played, in order.
    pub moves: Vec<M>,
}

/// Plays `start` with player `player` and seed `seed` until it is won, the player has no
/// move, or `max_moves` moves were played.
///
/// # Panics
/// When `player` is not an index into [`Players::PLAYERS`], or a player picks a move the
/// position does not allow (a bug in the player).
pub fn playout<G: Players>(
    start: &G,
    player: usize,
    seed: u64,
    max_moves: usize,
) -> Playout<G::Move> {
    playout_as(start, player, seed, max_moves, Information::Person)
}

/// [`playout`] with the player seeing what `information` (one of
/// [`Players::INFORMATION`]) shows.
///
/// # Panics
/// As [`playout`], and when the game's players do not play under `information`.
pub fn playout_as<G: Players>(
    start: &G,
    player: usize,
    seed: u64,
    max_moves: usize,
    information: Information,
) -> Playout<G::Move> {
    assert!(player < G::PLAYERS.len(), "no player {player}");
    playout_with_as(start, seed, max_moves, information, |view, memory, rng| {
        G::choose(view, memory, player, rng)
    })
}

/// [`playout`] with a policy of the caller's instead of a player of the ladder (for
/// measuring a player at other settings than the ladder's): `choose` is handed what
/// [`Players::choose`] is, and nothing else.
///
/// # Panics
/// When `choose` picks a move the position does not allow.
pub fn playout_with<G: Players>(
    start: &G,
    seed: u64,
    max_moves: usize,
    choose: impl FnMut(&G::Observation, &mut G::Memory, &mut SplitMix64) -> Option<G::Move>,
) -> Playout<G::Move> {
    playout_with_as(start, seed, max_moves, Information::Person, choose)
}

/// [`playout_with`] under the model of information `information`.
///
/// # Panics
/// As [`playout_with`], and when the game's players do not play under `information`.
pub fn playout_with_as<G: Players>(
    start: &G,
    seed: u64,
    max_moves: usize,
    information: Information,
    mut choose: impl FnMut(&G::Observation, &mut G::Memory, &mut SplitMix64) -> Option<G::Move>,
) -> Playout<G::Move> {
    assert!(
        G::INFORMATION.contains(&information),
        "{} players do not play under {information:?}",
        G::NAME
    );
    let mut rng = SplitMix64::new(seed);
    let mut state = start.clone();
    let mut memory = G::Memory::default();
    let mut moves = Vec::new();
    while !state.won() && moves.len() < max_moves {
        let Some(mv) = choose(&state.observe_as(information), &mut memory, &mut rng) else {
            break;
        };
        assert!(
            state.allows(&mv),
            "a {} player chose the illegal move {mv}",
            G::NAME
        );
        state.play(mv);
        moves.push(mv);
    }
    Playout {
        won: state.won(),
        progress: state.progress(),
        moves,
    }
}

/// The index of player `name` in `G`'s ladder.
pub fn player_index<G: Players>(name: &str) -> Option<usize> {
    G::PLAYERS.iter().position(|&p| p == name)
}

/// How many of the moves `moves`, played in order from `start` (a position the solver
/// wins: a certified deal), were played before the table was lost: the largest `k` for
/// which the position after the first `k` moves is still won, each position judged by the
/// solver within `budget` (a position it does not win within the budget counts as lost,
/// as [`Outcome::Unknown`](crate::search::Outcome::Unknown) does everywhere a budget
/// decides). `moves.len()` when the last position is still won (or won).
///
/// A cheap rating's measure of how forgiving a deal is (`patience.ratings.evidence`): the
/// moves a reference player can make before its play has lost a deal it could have won.
/// A position after a lost one is lost too (a move cannot make a lost table winnable), so
/// the won positions are a prefix of the game and bisection finds where it ends: at most
/// about `log2(moves.len()) + 1` searches, not one a move. A budget can break that order
/// (a won position the search does not win within it, before one it does); the answer is
/// then the bisection's, still a pure function of the position, the moves and the budget,
/// so the same on every machine.
///
/// `stop` is asked now and then whether to give up (for Ctrl-C), as by
/// [`NativeGame::solve`].
///
/// # Panics
/// When a move of `moves` is not legal where it is played.
pub fn moves_still_won<G: NativeGame>(
    start: &G,
    moves: &[G::Move],
    budget: &crate::search::Budget,
    stop: &mut dyn FnMut() -> bool,
) -> usize {
    let mut positions = Vec::with_capacity(moves.len() + 1);
    let mut state = start.clone();
    positions.push(state.clone());
    for &mv in moves {
        assert!(
            state.allows(&mv),
            "the {} move {mv} is not legal here",
            G::NAME
        );
        state.play(mv);
        positions.push(state.clone());
    }
    let options = crate::game::SolveOptions { wins_only: true };
    let mut won = |position: &G| {
        position.won()
            || matches!(
                position.solve(budget, options, stop).outcome,
                crate::search::Outcome::Solved(_)
            )
    };
    let (mut lo, mut hi) = (0, moves.len());
    if won(&positions[hi]) {
        return hi;
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if won(&positions[mid]) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Budget, Outcome};

    fn budget(max_nodes: u64) -> Budget {
        Budget {
            max_nodes,
            max_seconds: 60.0,
            max_states: 4 * max_nodes as usize,
        }
    }

    fn won<G: NativeGame>(position: &G, nodes: u64) -> bool {
        position.won()
            || matches!(
                position
                    .solve(
                        &budget(nodes),
                        crate::game::SolveOptions { wins_only: true },
                        &mut || false
                    )
                    .outcome,
                Outcome::Solved(_)
            )
    }

    /// Against the plain definition, a search after every move: the bisection's answer
    /// is a won position followed by a lost one (or the game's end), and where the won
    /// positions are a prefix (as they are without a budget's accidents) it is the first
    /// loss exactly.
    fn check<G: Players>(deals: impl Iterator<Item = G>, nodes: u64) -> usize {
        let mut checked = 0;
        for deal in deals {
            if !won(&deal, 200_000) {
                continue;
            }
            for player in 0..G::PLAYERS.len().min(2) {
                let game = playout(&deal, player, 7, 500);
                let k = moves_still_won(&deal, &game.moves, &budget(nodes), &mut || false);
                assert!(k <= game.moves.len());
                let mut states = vec![deal.clone()];
                for &mv in &game.moves {
                    let mut next = states.last().expect("one").clone();
                    next.play(mv);
                    states.push(next);
                }
                // the deal is won (certified above), whatever the smaller budget says
                let verdicts: Vec<bool> = (0..states.len())
                    .map(|i| i == 0 || won(&states[i], nodes))
                    .collect();
                assert!(verdicts[k], "position {k} is judged won");
                if k < game.moves.len() {
                    assert!(!verdicts[k + 1], "the position after the answer is lost");
                }
                if let Some(first_loss) = verdicts.iter().position(|&v| !v) {
                    if verdicts[first_loss..].iter().all(|&v| !v) {
                        assert_eq!(k + 1, first_loss);
                    }
                } else {
                    assert_eq!(k, game.moves.len());
                }
                checked += 1;
            }
        }
        checked
    }

    #[test]
    fn the_bisection_finds_where_a_klondike_game_was_lost() {
        let deals =
            (0..12).map(|seed| crate::klondike::Klondike::from_seed(seed, 3).expect("a deal"));
        assert!(check(deals, 1_000) >= 10);
    }

    #[test]
    fn the_bisection_finds_where_a_golf_game_was_lost() {
        let deals = (0..12).map(|seed| crate::golf::Golf::from_seed(seed, true).expect("a deal"));
        assert!(check(deals, 5_000) >= 8);
    }
}
