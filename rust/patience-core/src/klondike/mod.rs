//! Klondike ("Solitaire Rush") for the solver: a compact state with make/undo in place,
//! move generation equal to the Python engine of record's (`patience.games.klondike`), and
//! the notation of docs/rules.md.
//!
//! Cards are indices `suit * 13 + rank - 1` (suits c, d, h, s). Columns list their cards
//! first-dealt first, so a column's exposed card is its last; `hidden[i]` cards at the
//! bottom of column `i` are face down. The stock (the hand) keeps its top card last, and so
//! does the waste.

use std::fmt;

mod native;
pub mod players;
pub mod sets;
pub mod solver;

pub use players::KlondikeView;

/// Columns in the tableau.
pub const COLUMNS: usize = 7;

/// The rank of a card, 1 (Ace) to 13 (King).
#[inline]
pub fn rank(card: u8) -> u8 {
    card % 13 + 1
}

/// The suit of a card, 0..4 for c, d, h, s.
#[inline]
pub fn suit(card: u8) -> u8 {
    card / 13
}

/// Whether a card is red (diamonds or hearts).
#[inline]
pub fn is_red(card: u8) -> bool {
    matches!(suit(card), 1 | 2)
}

/// Whether `card` may be placed on a column whose exposed card is `target` (`None`: the
/// column is empty, and only a King fills it).
#[inline]
pub fn fits_on(card: u8, target: Option<u8>) -> bool {
    match target {
        None => rank(card) == 13,
        Some(target) => rank(card) + 1 == rank(target) && is_red(card) != is_red(target),
    }
}

const SUIT_LETTERS: [char; 4] = ['c', 'd', 'h', 's'];

/// One move of the engine of record, as docs/rules.md writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// `draw`: turn 1 or 3 cards from the hand onto the waste.
    Draw,
    /// `recycle`: turn the waste back into the hand (only when the hand is empty).
    Recycle,
    /// `w>f`
    WasteToFoundation,
    /// `w>tN` (column index from 0)
    WasteToColumn(u8),
    /// `tN>f`
    ColumnToFoundation(u8),
    /// `tN>tM`: the run starting at position `start` of column `from` moves onto `to`.
    ColumnToColumn {
        /// Source column.
        from: u8,
        /// Destination column.
        to: u8,
        /// Index in the source column of the first card moved.
        start: u8,
    },
    /// `f:s>tN`: the top card of suit `suit`'s foundation back onto a column.
    FoundationToColumn {
        /// Suit 0..4.
        suit: u8,
        /// Destination column.
        to: u8,
    },
}

impl fmt::Display for Move {
    /// Written piece by piece (columns are single digits): `write!` with its arguments cost
    /// ten times as much, and a certificate has hundreds of moves.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let column = |i: u8| char::from(b'1' + i);
        let mut name = [0u8; 6];
        let mut put = |at: usize, c: char| name[at] = c as u8;
        let len = match *self {
            Move::Draw => return f.write_str("draw"),
            Move::Recycle => return f.write_str("recycle"),
            Move::WasteToFoundation => return f.write_str("w>f"),
            Move::WasteToColumn(to) => {
                "w>t".chars().enumerate().for_each(|(k, c)| put(k, c));
                put(3, column(to));
                4
            }
            Move::ColumnToFoundation(from) => {
                put(0, 't');
                put(1, column(from));
                put(2, '>');
                put(3, 'f');
                4
            }
            Move::ColumnToColumn { from, to, .. } => {
                put(0, 't');
                put(1, column(from));
                put(2, '>');
                put(3, 't');
                put(4, column(to));
                5
            }
            Move::FoundationToColumn { suit, to } => {
                put(0, 'f');
                put(1, ':');
                put(2, SUIT_LETTERS[suit as usize]);
                put(3, '>');
                put(4, 't');
                put(5, column(to));
                6
            }
        };
        f.write_str(std::str::from_utf8(&name[..len]).expect("ASCII"))
    }
}

/// What [`Klondike::undo`] needs to take a move back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Undo {
    flipped: bool,
    moved: u8,
    card: u8,
}

/// Why a position cannot be built (the core's, for every game).
pub use crate::game::InvalidPosition;

/// A Klondike position with every card known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Klondike {
    /// Cards turned by one draw: 1 or 3.
    pub draw: u8,
    /// The columns, first-dealt card first.
    pub columns: [Vec<u8>; COLUMNS],
    /// Face-down cards at the bottom of each column.
    pub hidden: [u8; COLUMNS],
    /// The hand, top card last.
    pub stock: Vec<u8>,
    /// The waste, top card last.
    pub waste: Vec<u8>,
    /// Cards on each suit's foundation.
    pub foundation: [u8; 4],
}

impl Klondike {
    /// The position dealt from `deal` (52 card indices, first-dealt first) as docs/rules.md
    /// lays it out: row by row onto columns `r..7`, the rest to the hand, first on top.
    pub fn deal(deal: &[u8], draw: u8) -> Result<Self, InvalidPosition> {
        if deal.len() != 52 {
            return Err(InvalidPosition(format!(
                "a deal has 52 cards, not {}",
                deal.len()
            )));
        }
        let mut seen = [false; 52];
        for &card in deal {
            if card >= 52 || seen[card as usize] {
                return Err(InvalidPosition(format!(
                    "card index {card} is invalid or repeated"
                )));
            }
            seen[card as usize] = true;
        }
        if draw != 1 && draw != 3 {
            return Err(InvalidPosition(format!("draw is 1 or 3, not {draw}")));
        }
        let mut columns: [Vec<u8>; COLUMNS] = Default::default();
        let mut next = 0;
        for row in 0..COLUMNS {
            for column in columns.iter_mut().skip(row) {
                column.push(deal[next]);
                next += 1;
            }
        }
        let mut hidden = [0u8; COLUMNS];
        for (i, column) in columns.iter().enumerate() {
            hidden[i] = column.len() as u8 - 1;
        }
        let stock = deal[next..].iter().rev().copied().collect();
        Ok(Klondike {
            draw,
            columns,
            hidden,
            stock,
            waste: Vec::new(),
            foundation: [0; 4],
        })
    }

    /// The deal of `seed` (the seeded shuffle, version 1), as `Klondike.from_seed` deals
    /// it in Python.
    pub fn from_seed(seed: u64, draw: u8) -> Result<Self, InvalidPosition> {
        let cards = crate::shuffle::seeded_indices("klondike", seed, 1, 1)?;
        Klondike::deal(&cards, draw)
    }

    /// Checks that a position assembled from parts holds each card once, in legal places.
    pub fn check(&self) -> Result<(), InvalidPosition> {
        if self.draw != 1 && self.draw != 3 {
            return Err(InvalidPosition(format!(
                "draw is 1 or 3, not {}",
                self.draw
            )));
        }
        let mut count = [0u8; 52];
        let mut mark = |card: u8| -> Result<(), InvalidPosition> {
            if card >= 52 {
                return Err(InvalidPosition(format!(
                    "card index {card} is out of range"
                )));
            }
            count[card as usize] += 1;
            Ok(())
        };
        for (i, column) in self.columns.iter().enumerate() {
            if self.hidden[i] as usize > column.len().saturating_sub(1) && !column.is_empty()
                || (column.is_empty() && self.hidden[i] != 0)
            {
                return Err(InvalidPosition(format!(
                    "column {} hides too many cards",
                    i + 1
                )));
            }
            for &card in column {
                mark(card)?;
            }
        }
        for &card in self.stock.iter().chain(self.waste.iter()) {
            mark(card)?;
        }
        for (s, &height) in self.foundation.iter().enumerate() {
            if height > 13 {
                return Err(InvalidPosition(
                    "a foundation holds at most 13 cards".into(),
                ));
            }
            for r in 0..height {
                mark(s as u8 * 13 + r)?;
            }
        }
        if count.iter().any(|&c| c != 1) {
            return Err(InvalidPosition(
                "every card must be in exactly one place".into(),
            ));
        }
        Ok(())
    }

    /// The exposed card of column `i`.
    #[inline]
    pub fn exposed(&self, i: usize) -> Option<u8> {
        self.columns[i].last().copied()
    }

    #[inline]
    fn goes_home(&self, card: u8) -> bool {
        self.foundation[suit(card) as usize] + 1 == rank(card)
    }

    /// Solved as docs/rules.md defines it: hand empty, at most one waste card, nothing face
    /// down. From here every card plays out.
    pub fn is_solved(&self) -> bool {
        self.stock.is_empty() && self.waste.len() <= 1 && self.hidden.iter().all(|&h| h == 0)
    }

    /// Cards on the foundations.
    pub fn cards_home(&self) -> u32 {
        self.foundation.iter().map(|&h| h as u32).sum()
    }

    /// Where the run of column `i` that fits on `target` starts, if one does.
    #[inline]
    fn fitting_start(&self, i: usize, target: Option<u8>) -> Option<usize> {
        let column = &self.columns[i];
        let first = self.hidden[i] as usize;
        if column.len() <= first {
            return None;
        }
        let head = column[first];
        let start = match target {
            None => {
                if rank(head) == 13 {
                    first
                } else {
                    return None;
                }
            }
            Some(target) => {
                // the face-up run descends one rank a card: only one of its cards can fit
                let offset = rank(head) as isize - (rank(target) as isize - 1);
                let start = first as isize + offset;
                if start < first as isize || start >= column.len() as isize {
                    return None;
                }
                start as usize
            }
        };
        fits_on(column[start], target).then_some(start)
    }

    /// Every legal move, in the order of the engine of record: to the foundation (waste,
    /// then columns), waste to columns, column to column, foundation to columns, then
    /// `draw` or `recycle`.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(32);
        if self.cards_home() == 52 {
            return moves;
        }
        let waste = self.waste.last().copied();
        if let Some(card) = waste {
            if self.goes_home(card) {
                moves.push(Move::WasteToFoundation);
            }
        }
        for i in 0..COLUMNS {
            if let Some(card) = self.exposed(i) {
                if self.goes_home(card) {
                    moves.push(Move::ColumnToFoundation(i as u8));
                }
            }
        }
        if let Some(card) = waste {
            for j in 0..COLUMNS {
                if fits_on(card, self.exposed(j)) {
                    moves.push(Move::WasteToColumn(j as u8));
                }
            }
        }
        for i in 0..COLUMNS {
            for j in 0..COLUMNS {
                if i != j {
                    if let Some(start) = self.fitting_start(i, self.exposed(j)) {
                        moves.push(Move::ColumnToColumn {
                            from: i as u8,
                            to: j as u8,
                            start: start as u8,
                        });
                    }
                }
            }
        }
        for s in 0..4u8 {
            let height = self.foundation[s as usize];
            if height > 0 {
                let card = s * 13 + height - 1;
                for j in 0..COLUMNS {
                    if fits_on(card, self.exposed(j)) {
                        moves.push(Move::FoundationToColumn {
                            suit: s,
                            to: j as u8,
                        });
                    }
                }
            }
        }
        if !self.stock.is_empty() {
            moves.push(Move::Draw);
        } else if !self.waste.is_empty() {
            moves.push(Move::Recycle);
        }
        moves
    }

    /// Whether [`Klondike::legal_moves`] lists `mv`, without listing them all (the check
    /// that each move of a certificate is legal, where listing them cost half the time of
    /// an easy deal's solve).
    pub fn is_legal(&self, mv: Move) -> bool {
        if self.cards_home() == 52 {
            return false;
        }
        let column = |i: u8| (i as usize) < COLUMNS;
        let waste = self.waste.last().copied();
        match mv {
            Move::Draw => !self.stock.is_empty(),
            Move::Recycle => self.stock.is_empty() && !self.waste.is_empty(),
            Move::WasteToFoundation => waste.is_some_and(|card| self.goes_home(card)),
            Move::WasteToColumn(to) => {
                column(to) && waste.is_some_and(|card| fits_on(card, self.exposed(to as usize)))
            }
            Move::ColumnToFoundation(from) => {
                column(from)
                    && self
                        .exposed(from as usize)
                        .is_some_and(|card| self.goes_home(card))
            }
            Move::ColumnToColumn { from, to, start } => {
                column(from)
                    && column(to)
                    && from != to
                    && self.fitting_start(from as usize, self.exposed(to as usize))
                        == Some(start as usize)
            }
            Move::FoundationToColumn { suit, to } => {
                suit < 4 && column(to) && {
                    let height = self.foundation[suit as usize];
                    height > 0 && fits_on(suit * 13 + height - 1, self.exposed(to as usize))
                }
            }
        }
    }

    fn flip(&mut self, i: usize) -> bool {
        let column_len = self.columns[i].len() as u8;
        if column_len > 0 && self.hidden[i] == column_len {
            self.hidden[i] -= 1;
            true
        } else {
            false
        }
    }

    /// Plays a move that [`Klondike::legal_moves`] listed (not checked here: the solver's
    /// fast path). Returns what [`Klondike::undo`] needs.
    pub fn apply(&mut self, mv: Move) -> Undo {
        let mut undo = Undo::default();
        match mv {
            Move::Draw => {
                let n = (self.draw as usize).min(self.stock.len());
                for _ in 0..n {
                    let card = self.stock.pop().expect("stock holds the cards drawn");
                    self.waste.push(card);
                }
                undo.moved = n as u8;
            }
            Move::Recycle => {
                self.stock.extend(self.waste.drain(..).rev());
            }
            Move::WasteToFoundation => {
                let card = self.waste.pop().expect("waste has a card");
                self.foundation[suit(card) as usize] += 1;
                undo.card = card;
            }
            Move::WasteToColumn(to) => {
                let card = self.waste.pop().expect("waste has a card");
                self.columns[to as usize].push(card);
            }
            Move::ColumnToFoundation(from) => {
                let card = self.columns[from as usize]
                    .pop()
                    .expect("column has a card");
                self.foundation[suit(card) as usize] += 1;
                undo.card = card;
                undo.flipped = self.flip(from as usize);
            }
            Move::ColumnToColumn { from, to, start } => {
                let (from, to) = (from as usize, to as usize);
                undo.moved = self.shift_run(from, start as usize, to) as u8;
                undo.flipped = self.flip(from);
            }
            Move::FoundationToColumn { suit, to } => {
                let height = &mut self.foundation[suit as usize];
                let card = suit * 13 + *height - 1;
                *height -= 1;
                self.columns[to as usize].push(card);
            }
        }
        undo
    }

    /// Moves the cards of column `from` from position `start` on to the end of column `to`
    /// (without a heap allocation: this is the solver's hottest move); returns how many.
    fn shift_run(&mut self, from: usize, start: usize, to: usize) -> usize {
        let mut run = [0u8; 52];
        let count = self.columns[from].len() - start;
        run[..count].copy_from_slice(&self.columns[from][start..]);
        self.columns[from].truncate(start);
        self.columns[to].extend_from_slice(&run[..count]);
        count
    }

    /// Takes back `mv`, which was the last move applied, with the [`Undo`] it returned.
    pub fn undo(&mut self, mv: Move, undo: Undo) {
        match mv {
            Move::Draw => {
                for _ in 0..undo.moved {
                    let card = self.waste.pop().expect("waste holds the cards drawn");
                    self.stock.push(card);
                }
            }
            Move::Recycle => {
                self.waste.extend(self.stock.drain(..).rev());
            }
            Move::WasteToFoundation => {
                self.foundation[suit(undo.card) as usize] -= 1;
                self.waste.push(undo.card);
            }
            Move::WasteToColumn(to) => {
                let card = self.columns[to as usize]
                    .pop()
                    .expect("column has the card");
                self.waste.push(card);
            }
            Move::ColumnToFoundation(from) => {
                if undo.flipped {
                    self.hidden[from as usize] += 1;
                }
                self.foundation[suit(undo.card) as usize] -= 1;
                self.columns[from as usize].push(undo.card);
            }
            Move::ColumnToColumn { from, to, .. } => {
                let (from, to) = (from as usize, to as usize);
                if undo.flipped {
                    self.hidden[from] += 1;
                }
                let at = self.columns[to].len() - undo.moved as usize;
                self.shift_run(to, at, from);
            }
            Move::FoundationToColumn { suit, to } => {
                self.columns[to as usize]
                    .pop()
                    .expect("column has the card");
                self.foundation[suit as usize] += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every move a position could name: each kind with every column, suit and start.
    fn every_move() -> Vec<Move> {
        let mut moves = vec![Move::Draw, Move::Recycle, Move::WasteToFoundation];
        for i in 0..COLUMNS as u8 {
            moves.push(Move::WasteToColumn(i));
            moves.push(Move::ColumnToFoundation(i));
            for j in 0..COLUMNS as u8 {
                for start in 0..20 {
                    moves.push(Move::ColumnToColumn {
                        from: i,
                        to: j,
                        start,
                    });
                }
            }
            for suit in 0..4 {
                moves.push(Move::FoundationToColumn { suit, to: i });
            }
        }
        moves
    }

    #[test]
    fn is_legal_agrees_with_legal_moves() {
        let candidates = every_move();
        let mut checked = 0;
        for seed in 0..40u64 {
            for draw in [1, 3] {
                let mut state = Klondike::from_seed(seed, draw).unwrap();
                // a walk of moves picked by a simple generator, so that foundations fill
                // and empty columns appear
                let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
                for _ in 0..150 {
                    let legal = state.legal_moves();
                    for &mv in &candidates {
                        assert_eq!(
                            state.is_legal(mv),
                            legal.contains(&mv),
                            "{mv:?} in {state:?}"
                        );
                    }
                    checked += 1;
                    if legal.is_empty() {
                        break;
                    }
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    // moves home first when there are any, to reach late positions
                    let pick = if matches!(
                        legal[0],
                        Move::WasteToFoundation | Move::ColumnToFoundation(_)
                    ) && x % 3 != 0
                    {
                        legal[0]
                    } else {
                        legal[(x % legal.len() as u64) as usize]
                    };
                    state.apply(pick);
                }
            }
        }
        assert!(checked > 4000, "only {checked} positions");
    }
}
