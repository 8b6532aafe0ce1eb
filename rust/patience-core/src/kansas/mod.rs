//! Kansas for the solver: the position, move generation equal to the Python engine of
//! record's (`patience.games.kansas`), and a solver.
//!
//! A reserve of twelve cards (its top card playable), a base rank set by the card dealt to
//! the first foundation, three columns, and a stock turned one card at a time with no
//! redeal. Foundations build up by suit from the base rank, King followed by Ace; columns
//! build down regardless of suit, Ace followed by King, and any group of a column's cards
//! down to its exposed card moves when its first card fits. An emptied column is refilled at
//! once from the reserve; once the reserve is empty, only the waste's top card fills it.
//!
//! Its parts: this module holds the position and its moves; [`solve`] and its kin are the
//! solver (`solver.rs`); [`KansasView`] and the reference players are in `players.rs`.

use std::fmt;

use crate::cards::Card;
use crate::klondike::InvalidPosition;

pub use crate::search::Pruning;

/// Columns in the tableau.
pub const COLUMNS: usize = 3;
/// Cards dealt to the reserve.
pub const RESERVE: usize = 12;

/// A Kansas move in the notation of docs/rules.md. Columns are indexed from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KansasMove {
    /// `w>f`
    WasteHome,
    /// `r>f`
    ReserveHome,
    /// `tN>f`
    ColumnHome(u8),
    /// `w>tN`
    WasteTo(u8),
    /// `r>tN`
    ReserveTo(u8),
    /// `tN>tM`, or `tN:Xx>tM` naming the group's first card `card` when more than one card
    /// of column N fits on column M.
    ColumnTo {
        /// Source column.
        from: u8,
        /// Destination column.
        to: u8,
        /// Position in the source column of the group's first card.
        start: u8,
        /// The group's first card (a card index).
        card: u8,
        /// Whether the notation names the card.
        named: bool,
    },
    /// `draw`
    Draw,
}

impl fmt::Display for KansasMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            KansasMove::WasteHome => f.write_str("w>f"),
            KansasMove::ReserveHome => f.write_str("r>f"),
            KansasMove::ColumnHome(i) => write!(f, "t{}>f", i + 1),
            KansasMove::WasteTo(j) => write!(f, "w>t{}", j + 1),
            KansasMove::ReserveTo(j) => write!(f, "r>t{}", j + 1),
            KansasMove::ColumnTo {
                from,
                to,
                card,
                named,
                ..
            } => {
                if named {
                    let card = Card::from_index(card).expect("a valid card");
                    write!(f, "t{}:{card}>t{}", from + 1, to + 1)
                } else {
                    write!(f, "t{}>t{}", from + 1, to + 1)
                }
            }
            KansasMove::Draw => f.write_str("draw"),
        }
    }
}

/// What [`Kansas::unplay`] needs to take a move back.
#[derive(Clone, Copy, Debug)]
struct Undo {
    mv: KansasMove,
    /// The card that went home (moves home).
    card: u8,
    /// Cards moved (between columns).
    moved: u8,
    /// Whether the reserve refilled the column the move emptied.
    refilled: bool,
}

#[inline]
fn rank(card: u8) -> u8 {
    card % 13 + 1
}

#[inline]
fn suit(card: u8) -> usize {
    usize::from(card / 13)
}

/// Whether `card` goes on a column whose exposed card is `target`: one rank lower, any
/// suit, a King on an Ace.
#[inline]
pub fn builds_on(card: u8, target: u8) -> bool {
    if rank(target) == 1 {
        rank(card) == 13
    } else {
        rank(card) + 1 == rank(target)
    }
}

/// A Kansas position with every card known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kansas {
    /// The rank every foundation starts from, 1 (Ace) to 13 (King).
    pub base: u8,
    /// The reserve, its top card last.
    pub reserve: Vec<u8>,
    /// The columns, first card first (the exposed card last).
    pub columns: [Vec<u8>; COLUMNS],
    /// The stock, its next card last.
    pub stock: Vec<u8>,
    /// The waste, its top card last.
    pub waste: Vec<u8>,
    /// Cards on each suit's foundation (clubs, diamonds, hearts, spades).
    pub counts: [u8; 4],
}

impl Kansas {
    /// The position dealt from `deal` (52 card indices, first-dealt first) as docs/rules.md lays
    /// it out: twelve to the reserve (the 12th on top), the 13th to the foundations, one to
    /// each column, the rest to the stock with the first of them on top.
    pub fn deal(deal: &[u8]) -> Result<Self, InvalidPosition> {
        if deal.len() != 52 {
            return Err(InvalidPosition(format!(
                "a deal has 52 cards, not {}",
                deal.len()
            )));
        }
        let base_card = deal[RESERVE];
        let mut counts = [0; 4];
        counts[suit(base_card)] = 1;
        let kansas = Kansas {
            base: rank(base_card),
            reserve: deal[..RESERVE].to_vec(),
            columns: std::array::from_fn(|c| vec![deal[RESERVE + 1 + c]]),
            stock: deal[RESERVE + 1 + COLUMNS..]
                .iter()
                .rev()
                .copied()
                .collect(),
            waste: Vec::new(),
            counts,
        };
        kansas.check()?;
        Ok(kansas)
    }

    /// The deal of `seed` (the seeded shuffle, version 1), as `Kansas.from_seed` deals it
    /// in Python.
    pub fn from_seed(seed: u64) -> Result<Self, InvalidPosition> {
        let cards = crate::shuffle::seeded_indices("kansas", seed, 1, 1)?;
        Kansas::deal(&cards)
    }

    /// The rank a suit's foundation takes next (the base rank when it is empty).
    #[inline]
    fn wanted_rank(&self, suit: usize) -> u8 {
        (self.base - 1 + self.counts[suit]) % 13 + 1
    }

    /// Whether a foundation takes `card` now.
    #[inline]
    pub fn takes(&self, card: u8) -> bool {
        let s = suit(card);
        self.counts[s] < 13 && rank(card) == self.wanted_rank(s)
    }

    /// Checks that every card is in exactly one place (the foundations hold, for each suit,
    /// its first `counts` ranks from the base), and that the base is a rank.
    pub fn check(&self) -> Result<(), InvalidPosition> {
        if !(1..=13).contains(&self.base) {
            return Err(InvalidPosition(format!("{} is not a rank", self.base)));
        }
        if let Some(&count) = self.counts.iter().find(|&&c| c > 13) {
            return Err(InvalidPosition(format!(
                "a foundation holds {count} cards (at most 13)"
            )));
        }
        let mut seen = [false; 52];
        let home = (0..4u8).flat_map(|s| (0..self.counts[usize::from(s)]).map(move |k| (s, k)));
        let home: Vec<u8> = home
            .map(|(s, k)| s * 13 + (self.base - 1 + k) % 13)
            .collect();
        let all = self
            .reserve
            .iter()
            .chain(self.columns.iter().flatten())
            .chain(self.stock.iter())
            .chain(self.waste.iter())
            .chain(home.iter());
        let mut total = 0;
        for &card in all {
            if card >= 52 || seen[usize::from(card)] {
                return Err(InvalidPosition(format!(
                    "card index {card} is invalid or in more than one place"
                )));
            }
            seen[usize::from(card)] = true;
            total += 1;
        }
        if total != 52 {
            return Err(InvalidPosition(format!(
                "the position holds {total} cards, not 52"
            )));
        }
        if self
            .columns
            .iter()
            .any(|column| column.windows(2).any(|pair| !builds_on(pair[1], pair[0])))
        {
            return Err(InvalidPosition(
                "a column is not a run descending one rank a card".into(),
            ));
        }
        if self.waste.len() + self.stock.len() > 39 {
            return Err(InvalidPosition(format!(
                "the waste and stock hold {} cards (at most 39)",
                self.waste.len() + self.stock.len()
            )));
        }
        if !self.reserve.is_empty() && self.columns.iter().any(Vec::is_empty) {
            return Err(InvalidPosition(
                "a column is empty while the reserve still has cards".into(),
            ));
        }
        Ok(())
    }

    /// Whether all 52 cards are home.
    pub fn is_won(&self) -> bool {
        self.counts.iter().all(|&c| c == 13)
    }

    /// Every legal move, in the engine of record's order: to the foundations (waste,
    /// reserve, columns), onto columns (waste, reserve, column to column), then `draw`.
    pub fn legal_moves(&self) -> Vec<KansasMove> {
        let mut moves = Vec::with_capacity(16);
        if self.is_won() {
            return moves;
        }
        let waste = self.waste.last().copied();
        let reserve = self.reserve.last().copied();
        let tops: [Option<u8>; COLUMNS] = std::array::from_fn(|i| self.columns[i].last().copied());
        if waste.is_some_and(|c| self.takes(c)) {
            moves.push(KansasMove::WasteHome);
        }
        if reserve.is_some_and(|c| self.takes(c)) {
            moves.push(KansasMove::ReserveHome);
        }
        for (i, top) in tops.iter().enumerate() {
            if top.is_some_and(|c| self.takes(c)) {
                moves.push(KansasMove::ColumnHome(i as u8));
            }
        }
        if let Some(card) = waste {
            for (j, top) in tops.iter().enumerate() {
                let fits = match top {
                    None => self.reserve.is_empty(),
                    Some(target) => builds_on(card, *target),
                };
                if fits {
                    moves.push(KansasMove::WasteTo(j as u8));
                }
            }
        }
        if let Some(card) = reserve {
            for (j, top) in tops.iter().enumerate() {
                if top.is_some_and(|target| builds_on(card, target)) {
                    moves.push(KansasMove::ReserveTo(j as u8));
                }
            }
        }
        self.column_moves(&tops, &mut moves);
        if !self.stock.is_empty() {
            moves.push(KansasMove::Draw);
        }
        moves
    }

    fn column_moves(&self, tops: &[Option<u8>; COLUMNS], moves: &mut Vec<KansasMove>) {
        for (i, column) in self.columns.iter().enumerate() {
            for (j, top) in tops.iter().enumerate() {
                let Some(target) = *top else { continue };
                if i == j {
                    continue;
                }
                let first = moves.len();
                for (k, &card) in column.iter().enumerate() {
                    if builds_on(card, target) {
                        moves.push(KansasMove::ColumnTo {
                            from: i as u8,
                            to: j as u8,
                            start: k as u8,
                            card,
                            named: false,
                        });
                    }
                }
                if moves.len() - first > 1 {
                    for mv in &mut moves[first..] {
                        if let KansasMove::ColumnTo { named, .. } = mv {
                            *named = true;
                        }
                    }
                }
            }
        }
    }

    /// Plays a move that [`Kansas::legal_moves`] listed, with the refill of an emptied
    /// column from the reserve.
    pub fn apply(&mut self, mv: KansasMove) {
        match mv {
            KansasMove::WasteHome => {
                let card = self.waste.pop().expect("the move was legal");
                self.counts[suit(card)] += 1;
            }
            KansasMove::ReserveHome => {
                let card = self.reserve.pop().expect("the move was legal");
                self.counts[suit(card)] += 1;
            }
            KansasMove::ColumnHome(i) => {
                let card = self.columns[usize::from(i)]
                    .pop()
                    .expect("the move was legal");
                self.counts[suit(card)] += 1;
                self.refill(usize::from(i));
            }
            KansasMove::WasteTo(j) => {
                let card = self.waste.pop().expect("the move was legal");
                self.columns[usize::from(j)].push(card);
            }
            KansasMove::ReserveTo(j) => {
                let card = self.reserve.pop().expect("the move was legal");
                self.columns[usize::from(j)].push(card);
            }
            KansasMove::ColumnTo {
                from, to, start, ..
            } => {
                let (from, to) = (usize::from(from), usize::from(to));
                let moved = self.columns[from].split_off(usize::from(start));
                self.columns[to].extend_from_slice(&moved);
                self.refill(from);
            }
            KansasMove::Draw => {
                let card = self.stock.pop().expect("the move was legal");
                self.waste.push(card);
            }
        }
    }

    fn refill(&mut self, column: usize) {
        if self.columns[column].is_empty() {
            if let Some(card) = self.reserve.pop() {
                self.columns[column].push(card);
            }
        }
    }

    /// Plays a legal move as [`Kansas::apply`] does (the refill included) and returns what
    /// [`Kansas::unplay`] needs to take it back.
    fn play(&mut self, mv: KansasMove) -> Undo {
        let mut undo = Undo {
            mv,
            card: 0,
            moved: 0,
            refilled: false,
        };
        let emptied = match mv {
            KansasMove::WasteHome => {
                undo.card = *self.waste.last().expect("legal");
                None
            }
            KansasMove::ReserveHome => {
                undo.card = *self.reserve.last().expect("legal");
                None
            }
            KansasMove::ColumnHome(i) => {
                let column = &self.columns[usize::from(i)];
                undo.card = *column.last().expect("legal");
                Some(usize::from(i)).filter(|_| column.len() == 1)
            }
            KansasMove::ColumnTo { from, start, .. } => {
                undo.moved = (self.columns[usize::from(from)].len() - usize::from(start)) as u8;
                Some(usize::from(from)).filter(|_| start == 0)
            }
            _ => None,
        };
        undo.refilled = emptied.is_some() && !self.reserve.is_empty();
        self.apply(mv);
        undo
    }

    /// Takes back the move [`Kansas::play`] made, the last one played.
    fn unplay(&mut self, undo: Undo) {
        let unrefill = |state: &mut Kansas, column: usize| {
            if undo.refilled {
                let card = state.columns[column].pop().expect("the refill");
                state.reserve.push(card);
            }
        };
        match undo.mv {
            KansasMove::WasteHome => {
                self.counts[suit(undo.card)] -= 1;
                self.waste.push(undo.card);
            }
            KansasMove::ReserveHome => {
                self.counts[suit(undo.card)] -= 1;
                self.reserve.push(undo.card);
            }
            KansasMove::ColumnHome(i) => {
                self.counts[suit(undo.card)] -= 1;
                unrefill(self, usize::from(i));
                self.columns[usize::from(i)].push(undo.card);
            }
            KansasMove::WasteTo(j) => {
                let card = self.columns[usize::from(j)].pop().expect("played");
                self.waste.push(card);
            }
            KansasMove::ReserveTo(j) => {
                let card = self.columns[usize::from(j)].pop().expect("played");
                self.reserve.push(card);
            }
            KansasMove::ColumnTo { from, to, .. } => {
                let from = usize::from(from);
                unrefill(self, from);
                let to = &mut self.columns[usize::from(to)];
                let moved = to.split_off(to.len() - usize::from(undo.moved));
                self.columns[from].extend_from_slice(&moved);
            }
            KansasMove::Draw => {
                let card = self.waste.pop().expect("drawn");
                self.stock.push(card);
            }
        }
    }

    /// Whether sending `card` home (a foundation takes it) loses nothing: every card that
    /// could ever be built on it (one rank lower, any suit) is home already, so it is no
    /// longer needed as a target. A base-rank card never is (the cards built on it go home
    /// last).
    pub fn is_safe_home(&self, card: u8) -> bool {
        let height = (rank(card) + 13 - self.base) % 13; // cards of its suit home below it
        height > 0 && self.counts.iter().all(|&c| c >= height)
    }
}

mod native;
pub mod players;
mod solver;

pub use players::KansasView;
pub use solver::{solve, solve_concrete, solve_for_win, solve_with};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deal_follows_the_rules_layout() {
        let state = Kansas::from_seed(2026).unwrap();
        assert_eq!(state.reserve.len(), 12);
        assert_eq!(state.stock.len(), 36);
        assert_eq!(state.counts.iter().sum::<u8>(), 1);
        // docs/rules.md and the Python doctest: the base is a Queen, the reserve's top the 7d
        assert_eq!(state.base, 12);
        assert_eq!(
            Card::from_index(*state.reserve.last().unwrap())
                .unwrap()
                .to_string(),
            "7d"
        );
        let moves: Vec<String> = state
            .legal_moves()
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(moves, ["t1>t3", "t3>t2", "draw"]);
    }

    #[test]
    fn unplay_takes_back_every_kind_of_move() {
        let mut kinds = [0; 7];
        crate::search::check_play_and_unplay(
            (0..200).map(|seed| Kansas::from_seed(seed).unwrap()),
            80,
            &mut crate::shuffle::SplitMix64::new(3),
            Kansas::legal_moves,
            Kansas::apply,
            Kansas::play,
            Kansas::unplay,
            |mv| match mv {
                KansasMove::WasteHome => 0,
                KansasMove::ReserveHome => 1,
                KansasMove::ColumnHome(_) => 2,
                KansasMove::WasteTo(_) => 3,
                KansasMove::ReserveTo(_) => 4,
                KansasMove::ColumnTo { .. } => 5,
                KansasMove::Draw => 6,
            },
            &mut kinds,
        );
    }

    #[test]
    fn a_column_out_of_sequence_is_refused() {
        let mut state = Kansas::from_seed(2026).unwrap();
        let top = *state.columns[0].last().unwrap();
        let at = state
            .stock
            .iter()
            .position(|&c| !builds_on(c, top))
            .unwrap();
        let card = state.stock.remove(at);
        state.columns[0].push(card);
        let error = state.check().unwrap_err();
        assert!(error.to_string().contains("not a run"), "{error}");
    }
}
