//! Golf's reference players: `random`, `greedy` and `hindsight`, weakest first.
//!
//! In Golf every column card is face up; what a person does not see is the stock's order.
//! They have seen every card on the waste, so they know which cards the stock holds, not in
//! which order: [`GolfView`] keeps exactly that.
//!
//! - `random` plays a legal move chosen uniformly.
//! - `greedy` plays as casual players do: a column card whenever one fits, the one after
//!   which another column card fits first, then the one from the tallest column; draws only
//!   when no card fits.
//! - `hindsight` (hindsight optimisation): deals the unseen cards into the stock in
//!   [`SAMPLES`] random orders, and for each legal move solves every sample after that move
//!   with the exact solver on a small budget; plays the move that wins the most samples
//!   (`greedy`'s move among equals, then the first in the engine's order, and `greedy`'s
//!   move when none wins).

pub use super::MoveList;
use super::{neighbours, rank, table_moves, Golf, GolfMove, COLUMNS, ROWS};
use crate::players::Players;
use crate::search::{Budget, Outcome};
use crate::shuffle::{fisher_yates, SplitMix64};

/// Stock orders `hindsight` samples for each decision.
pub const SAMPLES: usize = 10;

/// Positions the solver may expand for one sample (Golf's solver decides most positions
/// of a game in progress in a few hundred).
pub const SAMPLE_NODES: u64 = 20_000;

/// What a person sees of a Golf position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GolfView {
    /// Whether Ace and King are neighbours.
    pub wrap: bool,
    /// The columns' cards, each first-dealt first: column `i` holds
    /// `cards[i][..heights[i]]` (all face up), the places above them 0. Fixed arrays, not a
    /// vector a column: a playout observes its position at every move.
    pub cards: [[u8; ROWS]; COLUMNS],
    /// Cards in each column.
    pub heights: [u8; COLUMNS],
    /// The waste's top card.
    pub waste_top: u8,
    /// Cards seen on the waste, one bit a card index, the top card included.
    pub seen: u64,
    /// Cards left in the stock.
    pub stock: usize,
}

const ALL_CARDS: u64 = (1 << 52) - 1;

impl GolfView {
    /// Column `i`'s cards, its exposed card last.
    pub fn column(&self, i: usize) -> &[u8] {
        &self.cards[i][..usize::from(self.heights[i])]
    }

    /// Column `i`'s exposed card, if it has one.
    #[inline]
    fn exposed(&self, i: usize) -> Option<u8> {
        let height = usize::from(self.heights[i]);
        (height > 0).then(|| self.cards[i][height - 1])
    }

    /// The cards neither in a column nor seen: the stock's, in an order nobody knows.
    pub fn unseen(&self) -> Vec<u8> {
        let unseen = self.unseen_bits();
        (0..52).filter(|&card| unseen >> card & 1 == 1).collect()
    }

    /// [`GolfView::unseen`], one bit a card index.
    fn unseen_bits(&self) -> u64 {
        let columns = (0..COLUMNS)
            .flat_map(|i| self.column(i))
            .fold(0u64, |bits, &card| bits | 1 << card);
        ALL_CARDS & !self.seen & !columns
    }

    /// A position this view could be of: the unseen cards in the stock, shuffled by `rng`,
    /// or in ascending order without one.
    pub fn sample(&self, rng: Option<&mut SplitMix64>) -> Golf {
        let mut stock = self.unseen();
        if let Some(rng) = rng {
            fisher_yates(&mut stock, rng);
        }
        Golf {
            wrap: self.wrap,
            columns: std::array::from_fn(|i| self.column(i).to_vec()),
            stock,
            waste_top: self.waste_top,
        }
    }

    /// The legal moves, which the stock's order never changes: those of any
    /// [`GolfView::sample`] (read from the view, without making one).
    pub fn moves(&self) -> MoveList {
        // the unseen cards are the stock's
        table_moves(
            (0..COLUMNS).map(|i| self.exposed(i)),
            self.waste_top,
            self.wrap,
            self.stock != 0,
        )
    }
}

impl Players for Golf {
    type Observation = GolfView;
    /// Nothing: every card a person has seen is on the waste, which the view lists.
    type Memory = ();
    const PLAYERS: &'static [&'static str] = &["random", "greedy", "hindsight"];

    fn observe(&self) -> GolfView {
        // the cards in play (the columns' and the stock's) gathered as they are copied: a
        // playout observes its position at every move
        let mut in_play = 0u64;
        let mut cards = [[0u8; ROWS]; COLUMNS];
        let mut heights = [0u8; COLUMNS];
        for ((slots, height), column) in cards.iter_mut().zip(&mut heights).zip(&self.columns) {
            // by length (a copy of the slice is a call of memcpy)
            *slots = match *column.as_slice() {
                [] => [0; ROWS],
                [a] => [a, 0, 0, 0, 0],
                [a, b] => [a, b, 0, 0, 0],
                [a, b, c] => [a, b, c, 0, 0],
                [a, b, c, d] => [a, b, c, d, 0],
                [a, b, c, d, e] => [a, b, c, d, e],
                _ => panic!("a column of more than {ROWS} cards"),
            };
            for &card in column {
                in_play |= 1 << card;
            }
            *height = column.len() as u8;
        }
        for &card in &self.stock {
            in_play |= 1 << card;
        }
        GolfView {
            wrap: self.wrap,
            cards,
            heights,
            waste_top: self.waste_top,
            seen: ALL_CARDS & !in_play,
            stock: self.stock.len(),
        }
    }

    fn choose(
        view: &GolfView,
        _: &mut (),
        player: usize,
        rng: &mut SplitMix64,
    ) -> Option<GolfMove> {
        let moves = view.moves();
        match player {
            0 => (!moves.is_empty()).then(|| moves[rng.below(moves.len() as u64) as usize]),
            1 => greedy(view, &moves),
            2 => hindsight(view, &moves, rng),
            _ => panic!("no Golf player {player}"),
        }
    }
}

/// `greedy`'s move among `moves`.
fn greedy(view: &GolfView, moves: &[GolfMove]) -> Option<GolfMove> {
    // whether a column card plays on the card of `column` once it is played: the card
    // exposed then in `column`, or another column's exposed card
    let followed = |column: usize| {
        let played = rank(view.exposed(column).expect("a play has a card"));
        (0..COLUMNS).any(|other| {
            let height = usize::from(view.heights[other]);
            let depth = if other == column { 2 } else { 1 };
            height >= depth
                && neighbours(rank(view.cards[other][height - depth]), played, view.wrap)
        })
    };
    let best = moves
        .iter()
        .filter_map(|&mv| match mv {
            GolfMove::Play(column) => Some(column as usize),
            GolfMove::Draw => None,
        })
        .max_by_key(|&column| {
            (
                followed(column),
                view.heights[column],
                std::cmp::Reverse(column),
            )
        });
    match best {
        Some(column) => Some(GolfMove::Play(column as u8)),
        None => moves.first().copied(),
    }
}

/// `hindsight`'s move among `moves`.
fn hindsight(view: &GolfView, moves: &[GolfMove], rng: &mut SplitMix64) -> Option<GolfMove> {
    if moves.len() <= 1 {
        return moves.first().copied();
    }
    let samples: Vec<Golf> = (0..SAMPLES).map(|_| view.sample(Some(rng))).collect();
    let budget = Budget {
        max_nodes: SAMPLE_NODES,
        max_seconds: f64::INFINITY,
        max_states: 0,
    };
    // greedy's move first: among moves that win as many samples, the one a person would
    // play anyway
    let preferred = greedy(view, moves);
    let candidates = preferred
        .into_iter()
        .chain(moves.iter().copied().filter(|&mv| Some(mv) != preferred));
    let mut best: Option<(usize, GolfMove)> = None;
    for mv in candidates {
        let wins = samples
            .iter()
            .filter(|sample| {
                let mut after = (*sample).clone();
                after.apply(mv);
                after.is_won()
                    || matches!(
                        super::solve(&after, &budget, &mut || false).outcome,
                        Outcome::Solved(_)
                    )
            })
            .count();
        if best.is_none_or(|(most, _)| wins > most) {
            best = Some((wins, mv));
        }
        if wins == SAMPLES {
            break;
        }
    }
    match best {
        Some((0, _)) | None => greedy(view, moves),
        Some((_, mv)) => Some(mv),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::players::{playout, Players};

    /// Random positions reached from seeded deals by random play.
    fn positions(count: usize, wrap: bool) -> Vec<Golf> {
        let mut rng = SplitMix64::new(7);
        let mut found = Vec::new();
        let mut seed = 0;
        while found.len() < count {
            let mut golf = Golf::from_seed(seed, wrap).unwrap();
            seed += 1;
            loop {
                found.push(golf.clone());
                let moves = golf.legal_moves();
                if moves.is_empty() || found.len() >= count {
                    break;
                }
                golf.apply(moves[rng.below(moves.len() as u64) as usize]);
            }
        }
        found
    }

    #[test]
    fn no_player_peeks_at_the_stock_order() {
        let mut rng = SplitMix64::new(11);
        for (i, golf) in positions(3000, true).into_iter().enumerate() {
            let mut other = golf.clone();
            fisher_yates(&mut other.stock, &mut rng);
            assert_eq!(golf.observe(), other.observe());
            // The strong player is slow: every tenth position is enough for it here.
            let players = if i % 10 == 0 { 3 } else { 2 };
            for player in 0..players {
                let seed = i as u64 * 31 + player as u64;
                let chosen =
                    Golf::choose(&golf.observe(), &mut (), player, &mut SplitMix64::new(seed));
                let again = Golf::choose(
                    &other.observe(),
                    &mut (),
                    player,
                    &mut SplitMix64::new(seed),
                );
                assert_eq!(chosen, again, "player {player} at {golf:?}");
            }
        }
    }

    #[test]
    fn every_chosen_move_is_legal_and_games_end() {
        for wrap in [false, true] {
            for seed in 0..30 {
                let golf = Golf::from_seed(seed, wrap).unwrap();
                for player in 0..Golf::PLAYERS.len() {
                    let game = playout(&golf, player, seed, 200);
                    assert!(game.moves.len() <= 35 + 16);
                    let mut replay = golf.clone();
                    for &mv in &game.moves {
                        assert!(replay.legal_moves().contains(&mv));
                        replay.apply(mv);
                    }
                    assert_eq!(replay.is_won(), game.won);
                    assert!(game.won || replay.legal_moves().is_empty());
                }
            }
        }
    }

    #[test]
    fn the_ladder_is_ordered_on_winnable_deals() {
        // On 60 deals the solver wins, the stronger players win at least as many.
        let budget = Budget::default();
        let deals: Vec<Golf> = (0..400)
            .map(|seed| Golf::from_seed(seed, true).unwrap())
            .filter(|golf| {
                matches!(
                    super::super::solve(golf, &budget, &mut || false).outcome,
                    Outcome::Solved(_)
                )
            })
            .take(60)
            .collect();
        let wins: Vec<usize> = (0..Golf::PLAYERS.len())
            .map(|player| {
                deals
                    .iter()
                    .enumerate()
                    .filter(|(i, golf)| playout(*golf, player, *i as u64, 200).won)
                    .count()
            })
            .collect();
        assert!(
            wins[0] < wins[1] && wins[1] < wins[2],
            "wins by player: {wins:?}"
        );
    }

    #[test]
    fn a_view_lists_the_moves_of_its_positions() {
        // read from the view, they are a sample's (as they were once found) and the
        // position's, ends of games (no moves, an empty stock) included
        let mut ends = 0;
        for wrap in [false, true] {
            for golf in positions(5000, wrap) {
                let view = golf.observe();
                assert_eq!(*view.moves(), view.sample(None).legal_moves(), "{golf:?}");
                assert_eq!(*view.moves(), golf.legal_moves(), "{golf:?}");
                ends += usize::from(golf.legal_moves().is_empty());
            }
        }
        assert!(ends > 50, "{ends}");
    }

    #[test]
    fn a_view_holds_the_unseen_cards_as_many_as_the_stock() {
        let golf = Golf::from_seed(3, false).unwrap();
        let view = golf.observe();
        assert_eq!(view.unseen().len(), golf.stock.len());
        let mut sorted = golf.stock.clone();
        sorted.sort_unstable();
        assert_eq!(view.unseen(), sorted);
        assert_eq!(view.sample(None).observe(), view);
    }
}
