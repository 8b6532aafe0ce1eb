//! Kansas's reference players, weakest first: `random`, `greedy`, `rollout` and
//! `lookahead`. A deal is rated with `random`, `greedy` and `lookahead` (the rating's
//! version 2); version 1 rated with `rollout` in place of `lookahead` (see docs/rating.md).
//!
//! A person playing Kansas sees the columns (all face up), the foundations, the reserve's
//! top card and the waste (they turned every card of it), and how many cards the reserve
//! and the stock still hold; what they do not see is the order of the reserve below its top
//! and of the stock. Which cards those are follows from what is in view: [`KansasView`]
//! keeps exactly that, so a player needs no memory of its own.
//!
//! - `random` plays a legal move chosen uniformly.
//! - `greedy` plays as casual players do: a card home whenever one goes, then the
//!   reserve's top onto a column, a group that empties its column while the reserve can
//!   refill it, the waste's top onto a column, a group whose move lets a card go home or
//!   the reserve's or the waste's top follow, and `draw` only when none of these is left.
//! - `rollout` (Monte-Carlo rollouts): deals the unseen cards into the reserve below its top
//!   and into the stock in [`SAMPLES`] random orders, and for each legal move lets `greedy`
//!   play every sample out after it; plays the move whose playouts send the most cards home
//!   (`greedy`'s among equals).
//! - `lookahead` looks one move ahead through what is in view: of the moves that show
//!   nothing new (a card home from a column or the waste, the waste's top onto a column, a
//!   group between columns; not the reserve's top, whose move turns the next, nor `draw`),
//!   it plays the one after which the table looks best (its `looks`: cards home first, then
//!   how many of the cards it could meet next would go somewhere at once) when that is
//!   better than now, and `greedy`'s move otherwise; right after `greedy`'s own group
//!   move it plays `greedy`'s next move too (`greedy` moves a group only to play what that
//!   opens). It sends clearly more cards home than `greedy` at about the same cost, and no
//!   more than `rollout` within the intervals.
//!
//! Kansas is seldom won by a player who cannot see the stock (one pass, one card at a
//! time): on 30 deals the solver wins, `greedy` and `rollout` won one each. So a playout's
//! result is also measured by [`Players::progress`], the share of cards home, Kansas's own
//! score (random 0.09, greedy 0.32, rollout 0.33 on those deals). Hindsight optimisation
//! was tried and left out: its samples are almost never won on a budget that keeps it
//! affordable, so it falls back on `greedy` and did worse (0 of 30, 0.29 of the cards home
//! at 8 samples of 1,000 nodes; one of 30 at 4 of 100,000, 9 s a game).

use super::{builds_on, Kansas, KansasMove, COLUMNS};
use crate::players::{playout_with, Players, Playout};
use crate::shuffle::{fisher_yates, SplitMix64};

/// Hidden orders `rollout` samples for each decision.
pub const SAMPLES: usize = 16;

/// Moves a rollout plays at most (`greedy` stops long before: it never moves a group for
/// nothing).
const ROLLOUT_MOVES: usize = 300;

/// What a person sees of a Kansas position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KansasView {
    /// The rank every foundation starts from.
    pub base: u8,
    /// Cards on each suit's foundation (clubs, diamonds, hearts, spades).
    pub counts: [u8; 4],
    /// The columns, each exposed card last (all face up).
    pub columns: [Vec<u8>; COLUMNS],
    /// The waste, its top card last (the player turned each of its cards).
    pub waste: Vec<u8>,
    /// The reserve's top card, the only one face up.
    pub reserve_top: Option<u8>,
    /// Cards in the reserve, its top included.
    pub reserve: usize,
    /// Cards left in the stock.
    pub stock: usize,
}

impl KansasView {
    /// The cards in view: on the foundations, in the columns, on the waste and the
    /// reserve's top, one bit a card index.
    fn in_view(&self) -> u64 {
        let mut bits = self
            .columns
            .iter()
            .flatten()
            .chain(&self.waste)
            .chain(&self.reserve_top)
            .fold(0u64, |bits, &card| bits | 1 << card);
        for (suit, &count) in self.counts.iter().enumerate() {
            for height in 0..count {
                let rank = (self.base - 1 + height) % 13; // 0-based
                bits |= 1 << (suit as u8 * 13 + rank);
            }
        }
        bits
    }

    /// The cards out of view: the reserve's below its top, and the stock's, in an order
    /// nobody knows (ascending here).
    pub fn unseen(&self) -> Vec<u8> {
        let out = !self.in_view();
        (0..52).filter(|&card| out >> card & 1 == 1).collect()
    }

    /// A position this view could be of: the unseen cards shuffled by `rng` (in ascending
    /// order without one), the first into the reserve below its top, the rest into the
    /// stock.
    pub fn sample(&self, rng: Option<&mut SplitMix64>) -> Kansas {
        let mut unseen = self.unseen();
        if let Some(rng) = rng {
            fisher_yates(&mut unseen, rng);
        }
        let below_top = self.reserve.saturating_sub(1);
        let stock = unseen.split_off(below_top);
        let mut reserve = unseen;
        reserve.extend(self.reserve_top);
        Kansas {
            base: self.base,
            reserve,
            columns: self.columns.clone(),
            stock,
            waste: self.waste.clone(),
            counts: self.counts,
        }
    }

    /// The legal moves, which the hidden cards' order never changes.
    pub fn moves(&self) -> Vec<KansasMove> {
        self.sample(None).legal_moves()
    }
}

impl Players for Kansas {
    type Observation = KansasView;
    /// Every card a person has seen is in view, or home; `lookahead` remembers only
    /// whether its last move was `greedy`'s group move.
    type Memory = KansasMemory;
    const PLAYERS: &'static [&'static str] = &["random", "greedy", "rollout", "lookahead"];

    fn observe(&self) -> KansasView {
        KansasView {
            base: self.base,
            counts: self.counts,
            columns: self.columns.clone(),
            waste: self.waste.clone(),
            reserve_top: self.reserve.last().copied(),
            reserve: self.reserve.len(),
            stock: self.stock.len(),
        }
    }

    /// The share of the 52 cards on the foundations: Kansas's own score.
    fn progress(&self) -> f64 {
        f64::from(self.counts.iter().sum::<u8>()) / 52.0
    }

    fn choose(
        view: &KansasView,
        memory: &mut KansasMemory,
        player: usize,
        rng: &mut SplitMix64,
    ) -> Option<KansasMove> {
        let moves = view.moves();
        match player {
            0 => (!moves.is_empty()).then(|| moves[rng.below(moves.len() as u64) as usize]),
            1 => greedy(view, &moves),
            2 => rollout(view, &moves, rng, SAMPLES),
            3 => lookahead(view, &moves, memory),
            _ => panic!("no Kansas player {player}"),
        }
    }
}

/// What `lookahead` remembers between its moves (the other players remember nothing).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KansasMemory {
    /// Whether its last move was a group `greedy` moved to open the way for a move.
    opened: bool,
}

/// How good `position` looks to a person who knows that `unseen` are the cards out of
/// view: 100 a card home, plus one for each card it could meet next (one of `unseen`, or
/// the reserve's or waste's top) that would go somewhere at once: home, onto a column's
/// exposed card, or anywhere while a column is empty.
fn looks(position: &Kansas, unseen: &[u8]) -> u32 {
    let free = position.columns.iter().any(Vec::is_empty);
    let mobile = unseen
        .iter()
        .chain(&position.reserve.last().copied())
        .chain(&position.waste.last().copied())
        .filter(|&&card| {
            free || position.takes(card)
                || position
                    .columns
                    .iter()
                    .filter_map(|column| column.last())
                    .any(|&top| builds_on(card, top))
        })
        .count() as u32;
    100 * u32::from(position.counts.iter().sum::<u8>()) + mobile
}

/// `lookahead`'s move among `moves` (see the module's notes).
fn lookahead(
    view: &KansasView,
    moves: &[KansasMove],
    memory: &mut KansasMemory,
) -> Option<KansasMove> {
    let preferred = greedy(view, moves);
    if !memory.opened {
        let position = view.sample(None);
        let unseen = view.unseen();
        let now = looks(&position, &unseen);
        let mut best: Option<(u32, KansasMove)> = None;
        for &mv in moves {
            let mut after = position.clone();
            after.apply(mv);
            // a move that shows nothing new leaves the reserve and the stock as they were
            if after.reserve.len() != position.reserve.len()
                || after.stock.len() != position.stock.len()
            {
                continue;
            }
            let score = looks(&after, &unseen);
            if score > now && best.is_none_or(|(most, _)| score > most) {
                best = Some((score, mv));
            }
        }
        if let Some((_, mv)) = best {
            return Some(mv);
        }
    }
    memory.opened = matches!(preferred, Some(KansasMove::ColumnTo { .. }));
    preferred
}

/// Kinds of move a player of the ladder makes, in `greedy`'s order of preference.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    /// A card home.
    Home,
    /// The reserve's top onto a column.
    FromReserve,
    /// A whole column onto another while the reserve can refill it.
    Refill,
    /// The waste's top onto a column.
    FromWaste,
    /// A group whose move lets a card go home or the reserve's or the waste's top follow.
    Opening,
    /// `draw`.
    Draw,
}

impl Kind {
    /// Whether the move is progress: it sends a card home, empties some of the reserve or
    /// the waste, or turns a card of the stock. There are at most 52 + 12 + 36 + 36 of
    /// them in a game, and an opening move always makes one possible.
    fn progress(self) -> bool {
        self != Kind::Opening
    }
}

/// The moves among `moves` a player of the ladder makes, each with its kind: every move
/// but a group moved for nothing (which could go back and forth for ever).
fn kinds(view: &KansasView, moves: &[KansasMove]) -> Vec<(Kind, KansasMove)> {
    let position = view.sample(None);
    // whether moving the group of column `from` that starts at `start` lets a card go home
    // or the reserve's or the waste's top follow
    let opens = |from: u8, start: u8| {
        let column = &view.columns[usize::from(from)];
        let Some(&exposed) = usize::from(start)
            .checked_sub(1)
            .and_then(|below| column.get(below))
        else {
            // the column empties: the reserve refills it
            return view.reserve > 0;
        };
        position.takes(exposed)
            || [view.reserve_top, view.waste.last().copied()]
                .into_iter()
                .flatten()
                .any(|card| builds_on(card, exposed))
    };
    let kind = |mv: KansasMove| -> Option<Kind> {
        match mv {
            KansasMove::WasteHome | KansasMove::ReserveHome | KansasMove::ColumnHome(_) => {
                Some(Kind::Home)
            }
            KansasMove::ReserveTo(_) => Some(Kind::FromReserve),
            KansasMove::ColumnTo { start: 0, .. } if view.reserve > 0 => Some(Kind::Refill),
            KansasMove::WasteTo(_) => Some(Kind::FromWaste),
            KansasMove::ColumnTo { from, start, .. } if opens(from, start) => Some(Kind::Opening),
            KansasMove::Draw => Some(Kind::Draw),
            KansasMove::ColumnTo { .. } => None,
        }
    };
    moves
        .iter()
        .filter_map(|&mv| kind(mv).map(|k| (k, mv)))
        .collect()
}

/// `greedy`'s move among `moves`: the first of the most preferred [`Kind`]. Every opening
/// move it makes is followed by the progress it opened, so its games end.
fn greedy(view: &KansasView, moves: &[KansasMove]) -> Option<KansasMove> {
    kinds(view, moves)
        .into_iter()
        .min_by_key(|&(kind, _)| kind)
        .map(|(_, mv)| mv)
}

/// `rollout`'s move among `moves`: for each candidate and each of `samples` samples of the
/// hidden cards, `greedy` plays the sample out after the move; the candidate whose
/// playouts send the most cards home in all wins (`greedy`'s move among equals). The
/// candidates are the progress moves ([`Kind::progress`]) when there are any, else the
/// opening moves and `draw`: so every opening move is followed by progress, and its games
/// end.
fn rollout(
    view: &KansasView,
    moves: &[KansasMove],
    rng: &mut SplitMix64,
    samples: usize,
) -> Option<KansasMove> {
    let kinds = kinds(view, moves);
    let progress = kinds
        .iter()
        .any(|&(kind, _)| kind.progress() && kind != Kind::Draw);
    let preferred = greedy(view, moves);
    let candidates: Vec<KansasMove> = preferred
        .into_iter()
        .chain(
            kinds
                .iter()
                .filter(|&&(kind, mv)| {
                    Some(mv) != preferred && (kind.progress() == progress || kind == Kind::Draw)
                })
                .map(|&(_, mv)| mv),
        )
        .collect();
    if candidates.len() <= 1 {
        return preferred;
    }
    let samples: Vec<Kansas> = (0..samples).map(|_| view.sample(Some(rng))).collect();
    let mut best: Option<(u32, KansasMove)> = None;
    for mv in candidates {
        let home: u32 = samples
            .iter()
            .map(|sample| {
                let mut after = sample.clone();
                after.apply(mv);
                for _ in 0..ROLLOUT_MOVES {
                    let view = after.observe();
                    let Some(next) = greedy(&view, &view.moves()) else {
                        break;
                    };
                    after.apply(next);
                }
                after.counts.iter().map(|&c| u32::from(c)).sum::<u32>()
            })
            .sum();
        if best.is_none_or(|(most, _)| home > most) {
            best = Some((home, mv));
        }
    }
    best.map(|(_, mv)| mv)
}

/// `start` played by the rollout player at `samples` samples (the ladder's is [`SAMPLES`])
/// with seed `seed`: for measuring other budgets.
pub fn rollout_playout(
    start: &Kansas,
    seed: u64,
    samples: usize,
    max_moves: usize,
) -> Playout<KansasMove> {
    playout_with(start, seed, max_moves, |view, _, rng| {
        rollout(view, &view.moves(), rng, samples)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::{playout, Players};
    use crate::search::{Budget, Outcome};

    /// Positions reached from seeded deals by random play, each with its hidden cards
    /// dealt again in another order (the same view).
    fn positions(count: usize) -> Vec<(Kansas, Kansas)> {
        let mut rng = SplitMix64::new(7);
        let mut found = Vec::new();
        let mut seed = 0;
        while found.len() < count {
            let mut kansas = Kansas::from_seed(seed).unwrap();
            seed += 1;
            for _ in 0..120 {
                let mut other = kansas.clone();
                let below_top = other.reserve.len().saturating_sub(1);
                let mut hidden: Vec<u8> = other.reserve[..below_top]
                    .iter()
                    .chain(&other.stock)
                    .copied()
                    .collect();
                fisher_yates(&mut hidden, &mut rng);
                other.stock = hidden.split_off(below_top);
                other.reserve.splice(..below_top, hidden);
                other.check().unwrap();
                found.push((kansas.clone(), other));
                let moves = kansas.legal_moves();
                if moves.is_empty() || found.len() >= count {
                    break;
                }
                kansas.apply(moves[rng.below(moves.len() as u64) as usize]);
            }
        }
        found
    }

    #[test]
    fn no_player_peeks_at_the_hidden_cards() {
        for (i, (kansas, other)) in positions(3000).into_iter().enumerate() {
            assert_eq!(kansas.observe(), other.observe());
            // `rollout` is slow: every tenth position is enough for it here.
            let players: &[usize] = if i % 10 == 0 {
                &[0, 1, 2, 3]
            } else {
                &[0, 1, 3]
            };
            for &player in players {
                for opened in [false, true] {
                    let seed = i as u64 * 31 + player as u64;
                    let mut memory = KansasMemory { opened };
                    let chosen = Kansas::choose(
                        &kansas.observe(),
                        &mut memory,
                        player,
                        &mut SplitMix64::new(seed),
                    );
                    let mut again_memory = KansasMemory { opened };
                    let again = Kansas::choose(
                        &other.observe(),
                        &mut again_memory,
                        player,
                        &mut SplitMix64::new(seed),
                    );
                    assert_eq!(chosen, again, "player {player} at {kansas:?}");
                    assert_eq!(memory, again_memory, "player {player} at {kansas:?}");
                }
            }
        }
    }

    #[test]
    fn a_view_holds_the_hidden_cards_and_samples_to_itself() {
        let kansas = Kansas::from_seed(3).unwrap();
        let view = kansas.observe();
        let mut hidden: Vec<u8> = kansas.reserve[..kansas.reserve.len() - 1]
            .iter()
            .chain(&kansas.stock)
            .copied()
            .collect();
        hidden.sort_unstable();
        assert_eq!(view.unseen(), hidden);
        let sample = view.sample(Some(&mut SplitMix64::new(1)));
        sample.check().unwrap();
        assert_eq!(sample.observe(), view);
        assert_eq!(view.moves(), kansas.legal_moves());
    }

    #[test]
    fn every_chosen_move_is_legal_and_games_end() {
        for seed in 0..20 {
            let kansas = Kansas::from_seed(seed).unwrap();
            for player in 0..Kansas::PLAYERS.len() {
                let game = playout(&kansas, player, seed, 500);
                let mut replay = kansas.clone();
                for &mv in &game.moves {
                    assert!(replay.legal_moves().contains(&mv));
                    replay.apply(mv);
                }
                assert_eq!(replay.is_won(), game.won);
                if player > 0 {
                    // greedy, rollout and lookahead stop: greedy never moves a group for
                    // nothing, and lookahead moves one only when the table looks better
                    assert!(game.moves.len() < 500, "player {player} on seed {seed}");
                }
            }
        }
    }

    #[test]
    fn the_ladder_is_ordered_on_winnable_deals() {
        // On 40 deals the solver wins, the stronger players send more cards home (wins
        // are too rare in Kansas to order the ladder on 40 deals).
        let budget = Budget {
            max_nodes: 200_000,
            max_seconds: f64::INFINITY,
            max_states: 800_000,
        };
        let deals: Vec<Kansas> = (0..400)
            .map(|seed| Kansas::from_seed(seed).unwrap())
            .filter(|kansas| {
                matches!(
                    super::super::solve_for_win(kansas, &budget, &mut || false).outcome,
                    Outcome::Solved(_)
                )
            })
            .take(40)
            .collect();
        assert_eq!(deals.len(), 40);
        let home: Vec<f64> = (0..Kansas::PLAYERS.len())
            .map(|player| {
                deals
                    .iter()
                    .enumerate()
                    .map(|(i, kansas)| playout(kansas, player, i as u64, 500).progress)
                    .sum::<f64>()
                    / 40.0
            })
            .collect();
        assert!(
            home[0] < home[1] && home[1] < home[2] && home[1] < home[3],
            "cards home by player: {home:?}"
        );
    }
}
