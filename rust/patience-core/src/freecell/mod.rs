//! FreeCell for the solver: the position, move generation equal to the Python engine of
//! record's (`patience.games.freecell`), Microsoft's numbered deals, and a solver
//! ([`solve`]).
//!
//! Eight columns, four free cells, four foundations built up by suit from the Ace; every
//! card face up. Columns build down in alternating colours. A run (cards descending one rank
//! a card in alternating colours, ending at a column's exposed card) moves as one move as
//! far as the free cells and empty columns would let it move a card at a time:
//! `(free cells + 1) * 2^(empty columns)` cards, half that into an empty column. Any card
//! or run fills an empty column. The game is won once every column is empty or one run (the
//! engine of record then plays the rest out by itself).

use std::fmt;

use crate::cards::{shift_run, Card};
use crate::klondike::InvalidPosition;

pub use crate::search::Pruning;

mod native;
pub mod players;
pub mod solver;

pub use solver::{solve, solve_with};

/// Columns in the tableau.
pub const COLUMNS: usize = 8;
/// Free cells.
pub const CELLS: usize = 4;
/// Cards in the game.
const CARDS: usize = 52;

/// The highest of Microsoft's deal numbers: its generator's state has 31 bits that matter,
/// so a number from 2^31 on would repeat a deal below it.
pub const MICROSOFT_LAST: u32 = (1 << 31) - 1;

/// A FreeCell move in the notation of docs/rules.md. Columns and cells are indexed from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FreeCellMove {
    /// `tN>f`
    ColumnHome(u8),
    /// `cK>f`
    CellHome(u8),
    /// `tN>tM`, or `tN:Xx>tM` when more than one run of the column could go there (into an
    /// empty column): the cards of column `from` from `start` on.
    ColumnTo {
        /// Source column.
        from: u8,
        /// Destination column.
        to: u8,
        /// Position in the source column of the first card moved.
        start: u8,
        /// The first card moved, when the move names it (the long form).
        head: Option<u8>,
    },
    /// `cK>tN`
    CellTo(u8, u8),
    /// `tN>cK`
    ColumnToCell(u8, u8),
}

fn card_name(card: u8) -> Card {
    Card::from_index(card).expect("a valid card")
}

impl fmt::Display for FreeCellMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            FreeCellMove::ColumnHome(i) => write!(f, "t{}>f", i + 1),
            FreeCellMove::CellHome(k) => write!(f, "c{}>f", k + 1),
            FreeCellMove::ColumnTo {
                from,
                to,
                head: None,
                ..
            } => write!(f, "t{}>t{}", from + 1, to + 1),
            FreeCellMove::ColumnTo {
                from,
                to,
                head: Some(card),
                ..
            } => write!(f, "t{}:{}>t{}", from + 1, card_name(card), to + 1),
            FreeCellMove::CellTo(k, j) => write!(f, "c{}>t{}", k + 1, j + 1),
            FreeCellMove::ColumnToCell(i, k) => write!(f, "t{}>c{}", i + 1, k + 1),
        }
    }
}

#[inline]
pub(crate) fn rank(card: u8) -> u8 {
    card % 13 + 1
}

#[inline]
pub(crate) fn suit(card: u8) -> u8 {
    card / 13
}

#[inline]
pub(crate) fn is_red(card: u8) -> bool {
    matches!(suit(card), 1 | 2)
}

/// For each card, the cards it lies on in a run (one rank higher, the other colour), as
/// the bits `1 << card`: a run's test in one load (the searches make it at every card).
const PARENTS: [u64; 52] = {
    let mut parents = [0u64; 52];
    let mut card = 0;
    while card < 52 {
        let (rank, red) = (card % 13, matches!(card / 13, 1 | 2));
        if rank < 12 {
            let mut suit = 0;
            while suit < 4 {
                if matches!(suit, 1 | 2) != red {
                    parents[card] |= 1 << (suit * 13 + rank + 1);
                }
                suit += 1;
            }
        }
        card += 1;
    }
    parents
};

/// Whether `card` lies on `under` as part of a run: one rank lower, the other colour.
#[inline]
pub fn in_sequence(card: u8, under: u8) -> bool {
    PARENTS[usize::from(card)] >> under & 1 != 0
}

/// Whether `card` (heading a run) goes on a column whose exposed card is `target`; any card
/// fills an empty column.
#[inline]
pub fn builds_on(card: u8, target: Option<u8>) -> bool {
    target.is_none_or(|t| in_sequence(card, t))
}

/// Where the run ending at the column's exposed card begins (0 for an empty column).
pub fn run_start(column: &[u8]) -> usize {
    let mut start = column.len().saturating_sub(1);
    while start > 0 && in_sequence(column[start], column[start - 1]) {
        start -= 1;
    }
    start
}

/// The longest run one move may carry: `(free_cells + 1) * 2^(empty_columns)`, the
/// destination not counted among the empty columns when it is one of them.
pub fn supermove_limit(free_cells: usize, empty_columns: usize, to_empty: bool) -> usize {
    let empty = if to_empty {
        empty_columns.saturating_sub(1)
    } else {
        empty_columns
    };
    (free_cells + 1) << empty
}

/// The deal Microsoft FreeCell numbers `number` (1 to [`MICROSOFT_LAST`]), as card indices,
/// first-dealt first: the generator of Microsoft's C library (`state = (214013 * state +
/// 2531011) mod 2^31`, each draw `state >> 16`), seeded with the number, picks each card in
/// turn from a deck ordered by rank then suit (Ace of clubs, Ace of diamonds, Ace of hearts,
/// Ace of spades, 2 of clubs, ...): the draw modulo the cards left picks one, which is
/// dealt, and the deck's last card takes its place. Identical to
/// `patience.games.freecell.microsoft_deal`.
pub fn microsoft_deal(number: u32) -> Result<Vec<u8>, InvalidPosition> {
    if !(1..=MICROSOFT_LAST).contains(&number) {
        return Err(InvalidPosition(format!(
            "Microsoft's deal numbers run from 1 to {MICROSOFT_LAST}, not {number}"
        )));
    }
    // rank-major order: index r * 4 + s is the card of rank r + 1 and suit s
    let mut deck: Vec<u8> = (0..CARDS as u8).map(|i| (i % 4) * 13 + i / 4).collect();
    let mut state = number;
    let mut dealt = Vec::with_capacity(CARDS);
    for left in (1..=CARDS).rev() {
        state = state.wrapping_mul(214_013).wrapping_add(2_531_011) & MICROSOFT_LAST;
        let pick = (state >> 16) as usize % left;
        dealt.push(deck[pick]);
        deck[pick] = deck[left - 1];
    }
    Ok(dealt)
}

/// A FreeCell position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FreeCell {
    /// The columns, first card first (the exposed card last).
    pub columns: [Vec<u8>; COLUMNS],
    /// The free cells, each a card or empty.
    pub cells: [Option<u8>; CELLS],
    /// Cards on each suit's foundation (clubs, diamonds, hearts, spades).
    pub foundation: [u8; 4],
}

/// What [`FreeCell::unplay`] needs to take a move back.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Undo {
    pub(crate) mv: FreeCellMove,
    /// The suit of the card a move home sent, or the cards a move between columns moved.
    aux: u8,
}

impl FreeCell {
    /// The position dealt from `deal` (52 card indices, first-dealt first) as
    /// docs/freecell.md lays it out: row by row across the eight columns.
    pub fn deal(deal: &[u8]) -> Result<Self, InvalidPosition> {
        if deal.len() != CARDS {
            return Err(InvalidPosition(format!(
                "a deal has 52 cards, not {}",
                deal.len()
            )));
        }
        let state = FreeCell {
            columns: std::array::from_fn(|c| {
                deal.iter().skip(c).step_by(COLUMNS).copied().collect()
            }),
            cells: [None; CELLS],
            foundation: [0; 4],
        };
        state.check()?;
        Ok(state)
    }

    /// The deal of `seed` (the seeded shuffle, version 1), as `FreeCell.from_seed` deals it
    /// in Python.
    pub fn from_seed(seed: u64) -> Result<Self, InvalidPosition> {
        FreeCell::deal(&crate::shuffle::seeded_indices("freecell", seed, 1, 1)?)
    }

    /// Microsoft's deal `number` ([`microsoft_deal`]).
    pub fn from_microsoft(number: u32) -> Result<Self, InvalidPosition> {
        FreeCell::deal(&microsoft_deal(number)?)
    }

    /// Checks that every card is in exactly one place (the foundations holding their
    /// suits' cards from the Ace).
    pub fn check(&self) -> Result<(), InvalidPosition> {
        let mut seen = [0u8; CARDS];
        let cards = self
            .columns
            .iter()
            .flatten()
            .chain(self.cells.iter().flatten());
        for &card in cards {
            if usize::from(card) >= CARDS {
                return Err(InvalidPosition(format!("card index {card} is invalid")));
            }
            seen[usize::from(card)] += 1;
        }
        for (s, &count) in self.foundation.iter().enumerate() {
            if count > 13 {
                return Err(InvalidPosition(format!(
                    "a foundation holds {count} cards (at most 13)"
                )));
            }
            for r in 0..count {
                seen[s * 13 + usize::from(r)] += 1;
            }
        }
        if let Some(card) = seen.iter().position(|&n| n != 1) {
            return Err(InvalidPosition(format!(
                "{} is in {} places, not exactly one",
                card_name(card as u8),
                seen[card]
            )));
        }
        if self.columns.iter().any(|column| column.len() > 52) {
            return Err(InvalidPosition("a column is too long".into()));
        }
        Ok(())
    }

    /// Cards on the foundations.
    pub fn home(&self) -> usize {
        self.foundation.iter().map(|&c| usize::from(c)).sum()
    }

    /// Every column empty or one run: the engine plays the rest out by itself.
    pub fn is_solved(&self) -> bool {
        self.columns.iter().all(|column| run_start(column) == 0)
    }

    /// Empty free cells.
    pub fn free_cells(&self) -> usize {
        self.cells.iter().filter(|c| c.is_none()).count()
    }

    /// Empty columns.
    pub fn empty_columns(&self) -> usize {
        self.columns.iter().filter(|c| c.is_empty()).count()
    }

    /// The longest run one move may carry now, into an empty column or onto a card.
    pub fn limit(&self, to_empty: bool) -> usize {
        supermove_limit(self.free_cells(), self.empty_columns(), to_empty)
    }

    /// Whether `card` goes home now.
    #[inline]
    pub fn goes_home(&self, card: u8) -> bool {
        self.foundation[usize::from(suit(card))] + 1 == rank(card)
    }

    /// Where the part of column `i`'s run (which begins at `first`) that goes on `target`
    /// begins, if a part does: the run descends one rank a card, so one card at most fits.
    pub(crate) fn fitting_start(&self, i: usize, first: usize, target: u8) -> Option<usize> {
        let column = &self.columns[i];
        let start = (first + usize::from(rank(column[first])))
            .checked_sub(usize::from(rank(target)) - 1)?;
        (start >= first && start < column.len() && in_sequence(column[start], target))
            .then_some(start)
    }

    /// The first card each run that may move into an empty column starts at, longest run
    /// first: from `first` (where column `i`'s run begins) or as far down as `limit`
    /// allows, to the exposed card.
    pub(crate) fn starts_run_into_empty(
        &self,
        i: usize,
        first: usize,
        limit: usize,
    ) -> std::ops::Range<usize> {
        let len = self.columns[i].len();
        first.max(len.saturating_sub(limit))..len
    }

    /// The move of the run of column `i` from `start` into the empty column `j`, of the
    /// runs `starts` that could go there (named by its first card if there are several).
    pub(crate) fn run_into_empty(
        &self,
        i: usize,
        j: usize,
        start: usize,
        starts: usize,
    ) -> FreeCellMove {
        FreeCellMove::ColumnTo {
            from: i as u8,
            to: j as u8,
            start: start as u8,
            head: (starts > 1).then(|| self.columns[i][start]),
        }
    }

    /// Every legal move, in the engine of record's order: home (columns, then cells),
    /// column to column, cell to column, then column to cell.
    pub fn legal_moves(&self) -> Vec<FreeCellMove> {
        let mut moves = Vec::with_capacity(48);
        if self.home() == CARDS {
            return moves;
        }
        let tops: [Option<u8>; COLUMNS] = std::array::from_fn(|i| self.columns[i].last().copied());
        for (i, top) in tops.iter().enumerate() {
            if top.is_some_and(|c| self.goes_home(c)) {
                moves.push(FreeCellMove::ColumnHome(i as u8));
            }
        }
        for (k, cell) in self.cells.iter().enumerate() {
            if cell.is_some_and(|c| self.goes_home(c)) {
                moves.push(FreeCellMove::CellHome(k as u8));
            }
        }
        let (to_filled, to_empty) = (self.limit(false), self.limit(true));
        for i in 0..COLUMNS {
            if self.columns[i].is_empty() {
                continue;
            }
            let first = run_start(&self.columns[i]);
            for (j, &target) in tops.iter().enumerate() {
                if i == j {
                    continue;
                }
                match target {
                    None => {
                        let starts = self.starts_run_into_empty(i, first, to_empty);
                        let count = starts.len();
                        for start in starts {
                            moves.push(self.run_into_empty(i, j, start, count));
                        }
                    }
                    Some(t) => {
                        if let Some(start) = self.fitting_start(i, first, t) {
                            if self.columns[i].len() - start <= to_filled {
                                moves.push(FreeCellMove::ColumnTo {
                                    from: i as u8,
                                    to: j as u8,
                                    start: start as u8,
                                    head: None,
                                });
                            }
                        }
                    }
                }
            }
        }
        for (k, cell) in self.cells.iter().enumerate() {
            if let Some(card) = *cell {
                for (j, &target) in tops.iter().enumerate() {
                    if builds_on(card, target) {
                        moves.push(FreeCellMove::CellTo(k as u8, j as u8));
                    }
                }
            }
        }
        for (i, top) in tops.iter().enumerate() {
            if top.is_some() {
                for (k, cell) in self.cells.iter().enumerate() {
                    if cell.is_none() {
                        moves.push(FreeCellMove::ColumnToCell(i as u8, k as u8));
                    }
                }
            }
        }
        moves
    }

    /// Plays a move that [`FreeCell::legal_moves`] listed.
    pub fn apply(&mut self, mv: FreeCellMove) {
        self.play(mv);
    }

    /// Plays a legal move and returns what [`FreeCell::unplay`] needs to take it back.
    pub(crate) fn play(&mut self, mv: FreeCellMove) -> Undo {
        let aux = match mv {
            FreeCellMove::ColumnHome(i) => {
                let card = self.columns[usize::from(i)].pop().expect("legal");
                self.foundation[usize::from(suit(card))] += 1;
                suit(card)
            }
            FreeCellMove::CellHome(k) => {
                let card = self.cells[usize::from(k)].take().expect("legal");
                self.foundation[usize::from(suit(card))] += 1;
                suit(card)
            }
            FreeCellMove::ColumnTo {
                from, to, start, ..
            } => {
                let moved = self.columns[usize::from(from)].len() - usize::from(start);
                shift_run(
                    &mut self.columns,
                    usize::from(from),
                    usize::from(to),
                    usize::from(start),
                );
                moved as u8
            }
            FreeCellMove::CellTo(k, j) => {
                let card = self.cells[usize::from(k)].take().expect("legal");
                self.columns[usize::from(j)].push(card);
                0
            }
            FreeCellMove::ColumnToCell(i, k) => {
                let card = self.columns[usize::from(i)].pop().expect("legal");
                self.cells[usize::from(k)] = Some(card);
                0
            }
        };
        Undo { mv, aux }
    }

    /// Takes back the move [`FreeCell::play`] made, the last one played.
    pub(crate) fn unplay(&mut self, undo: Undo) {
        let mut unhome = |s: u8| {
            self.foundation[usize::from(s)] -= 1;
            s * 13 + self.foundation[usize::from(s)]
        };
        match undo.mv {
            FreeCellMove::ColumnHome(i) => {
                let card = unhome(undo.aux);
                self.columns[usize::from(i)].push(card);
            }
            FreeCellMove::CellHome(k) => {
                let card = unhome(undo.aux);
                self.cells[usize::from(k)] = Some(card);
            }
            FreeCellMove::ColumnTo { from, to, .. } => {
                let to = usize::from(to);
                let start = self.columns[to].len() - usize::from(undo.aux);
                shift_run(&mut self.columns, to, usize::from(from), start);
            }
            FreeCellMove::CellTo(k, j) => {
                let card = self.columns[usize::from(j)]
                    .pop()
                    .expect("the card went there");
                self.cells[usize::from(k)] = Some(card);
            }
            FreeCellMove::ColumnToCell(i, k) => {
                let card = self.cells[usize::from(k)]
                    .take()
                    .expect("the card went there");
                self.columns[usize::from(i)].push(card);
            }
        }
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod sequence_tests {
    use super::*;

    #[test]
    fn the_table_of_parents_says_what_ranks_and_colours_say() {
        for card in 0..52u8 {
            for under in 0..52u8 {
                let expected = rank(card) + 1 == rank(under) && is_red(card) != is_red(under);
                assert_eq!(in_sequence(card, under), expected, "{card} on {under}");
            }
        }
    }
}
