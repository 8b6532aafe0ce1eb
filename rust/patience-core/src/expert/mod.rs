//! Solitaire Expert for the solver: the position, move generation equal to the Python engine
//! of record's (`patience.games.expert`), and a solver.
//!
//! Two decks, every card face up: ten columns and a hand of at most four cards. A string (a
//! run descending one rank a card in alternating colours, ending at a column's exposed card)
//! moves, whole or in part, onto a card one rank above its first card and of the other
//! colour; only a King, or a string headed by one, fills an empty column. Eight piles build
//! up by suit from the Ace. The game is won once every column is empty or one string (the
//! rest then plays out by itself).
//!
//! Cards are indices 0..52 as everywhere in the crate: the two copies of a card are the same
//! index, so positions that differ only by which copy lies where are one position to the
//! search. Its key also sorts the columns, the hand, and the two piles of each suit.

use std::fmt;

use crate::cards::{shift_run, Card};
use crate::klondike::InvalidPosition;
use crate::search::{
    self, luby, mix, Budget, DepthFirst, Ended, Kept, KeySet, Meter, Outcome, Report,
};
use crate::shuffle::SplitMix64;

pub use crate::search::Pruning;

mod native;
pub mod players;

/// Columns in the tableau.
pub const COLUMNS: usize = 10;
/// Cards dealt to each column.
pub const ROWS: usize = 10;
/// Cards the hand holds at most.
pub const HAND_LIMIT: usize = 4;
/// Piles on the foundation.
pub const PILES: usize = 8;

/// A Solitaire Expert move in the notation of docs/rules.md. Columns are indexed from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExpertMove {
    /// `tN>f`
    ColumnHome(u8),
    /// `h:Xx>f` (the card index)
    HandHome(u8),
    /// `tN>tM`: the part of column N's string that fits on column M, from `start`.
    ColumnTo {
        /// Source column.
        from: u8,
        /// Destination column.
        to: u8,
        /// Position in the source column of the first card moved.
        start: u8,
    },
    /// `h:Xx>tN`
    HandTo(u8, u8),
    /// `tN>h`
    ColumnToHand(u8),
}

fn card_name(card: u8) -> Card {
    Card::from_index(card).expect("a valid card")
}

/// What [`Expert::unplay`] needs to take a move back.
#[derive(Clone, Copy, Debug)]
struct Undo {
    mv: ExpertMove,
    /// The pile a card went to (moves home).
    pile: u8,
    /// Where the card was in the hand (moves from the hand), or how many cards moved
    /// (between columns).
    at: u8,
}

impl fmt::Display for ExpertMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ExpertMove::ColumnHome(i) => write!(f, "t{}>f", i + 1),
            ExpertMove::HandHome(card) => write!(f, "h:{}>f", card_name(card)),
            ExpertMove::ColumnTo { from, to, .. } => write!(f, "t{}>t{}", from + 1, to + 1),
            ExpertMove::HandTo(card, j) => write!(f, "h:{}>t{}", card_name(card), j + 1),
            ExpertMove::ColumnToHand(i) => write!(f, "t{}>h", i + 1),
        }
    }
}

#[inline]
fn rank(card: u8) -> u8 {
    card % 13 + 1
}

#[inline]
fn suit(card: u8) -> u8 {
    card / 13
}

#[inline]
fn is_red(card: u8) -> bool {
    matches!(suit(card), 1 | 2)
}

/// Whether `card` (heading a string) goes on a column whose exposed card is `target`: one
/// rank lower and of the other colour; only a King fills an empty column.
#[inline]
pub fn builds_on(card: u8, target: Option<u8>) -> bool {
    match target {
        None => rank(card) == 13,
        Some(t) => rank(card) + 1 == rank(t) && is_red(card) != is_red(t),
    }
}

/// Where the string ending at the column's exposed card begins (0 for an empty column).
pub fn string_start(column: &[u8]) -> usize {
    let mut start = column.len().saturating_sub(1);
    while start > 0 && builds_on(column[start], Some(column[start - 1])) {
        start -= 1;
    }
    start
}

/// The unmixed hash of an empty column ([`column_hash`]).
const EMPTY_COLUMN_HASH: u64 = 0x3c;

/// The unmixed hash of a column that is `column` with `card` on it, given the unmixed
/// hash `h` of `column`.
fn hash_with(h: u64, card: u8) -> u64 {
    h.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (u64::from(card) + 1)
}

/// A column's part of [`Expert::key`]: one multiply a card, mixed at the end.
fn column_hash(column: &[u8]) -> u64 {
    mix(column
        .iter()
        .fold(EMPTY_COLUMN_HASH, |h, &c| hash_with(h, c)))
}

/// Cards in a column that do not build on the card before them.
fn column_breaks(column: &[u8]) -> u32 {
    column
        .windows(2)
        .filter(|w| !builds_on(w[1], Some(w[0])))
        .count() as u32
}

/// A Solitaire Expert position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Expert {
    /// The columns, first card first (the exposed card last).
    pub columns: [Vec<u8>; COLUMNS],
    /// The hand, in the order its cards came.
    pub hand: Vec<u8>,
    /// Each pile's suit (0-3), or `None` while it is empty; piles in the engine's order.
    pub pile_suits: [Option<u8>; PILES],
    /// Cards on each pile.
    pub pile_counts: [u8; PILES],
}

impl Expert {
    /// The position dealt from `deal` (104 card indices, first-dealt first) as docs/rules.md lays
    /// it out: ten rows of ten, left to right, then four cards to the hand.
    pub fn deal(deal: &[u8]) -> Result<Self, InvalidPosition> {
        if deal.len() != 104 {
            return Err(InvalidPosition(format!(
                "a deal has 104 cards, not {}",
                deal.len()
            )));
        }
        let expert = Expert {
            columns: std::array::from_fn(|c| (0..ROWS).map(|r| deal[r * COLUMNS + c]).collect()),
            hand: deal[COLUMNS * ROWS..].to_vec(),
            pile_suits: [None; PILES],
            pile_counts: [0; PILES],
        };
        expert.check()?;
        Ok(expert)
    }

    /// The deal of `seed` (the seeded shuffle, version 1, two decks), as `Expert.from_seed`
    /// deals it in Python.
    pub fn from_seed(seed: u64) -> Result<Self, InvalidPosition> {
        let cards = crate::shuffle::seeded_indices("expert", seed, 2, 1)?;
        Expert::deal(&cards)
    }

    /// Checks that the position holds two of each card in all (the piles holding their
    /// suits' cards from the Ace), a hand of at most four, and piles that make sense.
    pub fn check(&self) -> Result<(), InvalidPosition> {
        let mut copies = [0u8; 52];
        for &card in self.columns.iter().flatten().chain(self.hand.iter()) {
            if card >= 52 {
                return Err(InvalidPosition(format!("card index {card} is invalid")));
            }
            copies[usize::from(card)] += 1;
        }
        for (pile, (&suit, &count)) in self.pile_suits.iter().zip(&self.pile_counts).enumerate() {
            match suit {
                None if count > 0 => {
                    return Err(InvalidPosition(format!(
                        "pile {} has cards but no suit",
                        pile + 1
                    )))
                }
                Some(s) if s >= 4 || count == 0 || count > 13 => {
                    return Err(InvalidPosition(format!("pile {} is malformed", pile + 1)))
                }
                Some(s) => {
                    for r in 0..count {
                        copies[usize::from(s * 13 + r)] += 1;
                    }
                }
                None => {}
            }
        }
        if let Some(card) = copies.iter().position(|&n| n != 2) {
            return Err(InvalidPosition(format!(
                "{} appears {} times (two decks: twice)",
                card_name(card as u8),
                copies[card]
            )));
        }
        if self.hand.len() > HAND_LIMIT {
            return Err(InvalidPosition(format!(
                "the hand holds {} cards (at most {HAND_LIMIT})",
                self.hand.len()
            )));
        }
        Ok(())
    }

    /// Cards on the piles.
    pub fn home(&self) -> usize {
        self.pile_counts.iter().map(|&c| usize::from(c)).sum()
    }

    /// Every column empty or a single string: the engine plays the rest out by itself.
    pub fn is_solved(&self) -> bool {
        self.columns.iter().all(|column| string_start(column) == 0)
    }

    /// The pile that takes `card` now, if one does (the first, when two could).
    pub fn pile_for(&self, card: u8) -> Option<usize> {
        (0..PILES).find(|&p| match self.pile_suits[p] {
            None => rank(card) == 1,
            Some(s) => s == suit(card) && self.pile_counts[p] + 1 == rank(card),
        })
    }

    /// The cards some pile takes now, as the bits `1 << card`: one test a card instead of
    /// [`Expert::pile_for`]'s scan of the piles.
    fn homeable(&self) -> u64 {
        const ACES: u64 = 1 | 1 << 13 | 1 << 26 | 1 << 39;
        let mut mask = 0;
        for (suit, &count) in self.pile_suits.iter().zip(&self.pile_counts) {
            match suit {
                None => mask |= ACES,
                Some(s) if count < 13 => mask |= 1 << (13 * u32::from(*s) + u32::from(count)),
                Some(_) => {}
            }
        }
        mask
    }

    /// Where the part of column `i`'s string that fits on `target` begins, if any part fits.
    fn fitting_start(&self, i: usize, first: usize, target: Option<u8>) -> Option<usize> {
        let column = &self.columns[i];
        match target {
            None => (rank(column[first]) == 13).then_some(first),
            Some(t) => {
                // the string descends one rank a card, so only one of its cards can fit
                let start = (first + usize::from(rank(column[first])))
                    .checked_sub(usize::from(rank(t)) - 1)?;
                (start >= first && start < column.len() && builds_on(column[start], Some(t)))
                    .then_some(start)
            }
        }
    }

    /// Each distinct hand card once, in the hand's order.
    fn distinct_hand(&self) -> impl Iterator<Item = u8> + '_ {
        self.hand
            .iter()
            .enumerate()
            .filter(|&(k, card)| !self.hand[..k].contains(card))
            .map(|(_, &card)| card)
    }

    /// Every legal move, in the engine of record's order: to the piles (columns, then the
    /// hand), column to column, hand to column, then column to hand.
    pub fn legal_moves(&self) -> Vec<ExpertMove> {
        let mut moves = Vec::with_capacity(32);
        if self.home() == 104 {
            return moves;
        }
        let tops: [Option<u8>; COLUMNS] = std::array::from_fn(|i| self.columns[i].last().copied());
        let homeable = self.homeable();
        let goes_home = |card: u8| homeable >> card & 1 != 0;
        for (i, top) in tops.iter().enumerate() {
            if top.is_some_and(goes_home) {
                moves.push(ExpertMove::ColumnHome(i as u8));
            }
        }
        for card in self.distinct_hand() {
            if goes_home(card) {
                moves.push(ExpertMove::HandHome(card));
            }
        }
        for i in 0..COLUMNS {
            if self.columns[i].is_empty() {
                continue;
            }
            let first = string_start(&self.columns[i]);
            for (j, &target) in tops.iter().enumerate() {
                if i == j {
                    continue;
                }
                if let Some(start) = self.fitting_start(i, first, target) {
                    moves.push(ExpertMove::ColumnTo {
                        from: i as u8,
                        to: j as u8,
                        start: start as u8,
                    });
                }
            }
        }
        for card in self.distinct_hand() {
            for (j, &target) in tops.iter().enumerate() {
                if builds_on(card, target) {
                    moves.push(ExpertMove::HandTo(card, j as u8));
                }
            }
        }
        if self.hand.len() < HAND_LIMIT {
            for (i, top) in tops.iter().enumerate() {
                if top.is_some() {
                    moves.push(ExpertMove::ColumnToHand(i as u8));
                }
            }
        }
        moves
    }

    fn send_home(&mut self, card: u8) {
        let pile = self.pile_for(card).expect("the move was legal");
        self.pile_suits[pile] = Some(suit(card));
        self.pile_counts[pile] += 1;
    }

    fn take_from_hand(&mut self, card: u8) {
        let at = self
            .hand
            .iter()
            .position(|&c| c == card)
            .expect("in the hand");
        self.hand.remove(at);
    }

    /// Plays a move that [`Expert::legal_moves`] listed.
    pub fn apply(&mut self, mv: ExpertMove) {
        match mv {
            ExpertMove::ColumnHome(i) => {
                let card = self.columns[usize::from(i)].pop().expect("legal");
                self.send_home(card);
            }
            ExpertMove::HandHome(card) => {
                self.take_from_hand(card);
                self.send_home(card);
            }
            ExpertMove::ColumnTo { from, to, start } => {
                shift_run(
                    &mut self.columns,
                    usize::from(from),
                    usize::from(to),
                    usize::from(start),
                );
            }
            ExpertMove::HandTo(card, j) => {
                self.take_from_hand(card);
                self.columns[usize::from(j)].push(card);
            }
            ExpertMove::ColumnToHand(i) => {
                let card = self.columns[usize::from(i)].pop().expect("legal");
                self.hand.push(card);
            }
        }
    }

    /// Plays a legal move as [`Expert::apply`] does and returns what [`Expert::unplay`]
    /// needs to take it back.
    fn play(&mut self, mv: ExpertMove) -> Undo {
        let mut undo = Undo {
            mv,
            pile: u8::MAX,
            at: u8::MAX,
        };
        match mv {
            ExpertMove::ColumnHome(i) => {
                let card = *self.columns[usize::from(i)].last().expect("legal");
                undo.pile = self.pile_for(card).expect("legal") as u8;
            }
            ExpertMove::HandHome(card) => {
                undo.pile = self.pile_for(card).expect("legal") as u8;
                undo.at = self
                    .hand
                    .iter()
                    .position(|&c| c == card)
                    .expect("in the hand") as u8;
            }
            ExpertMove::HandTo(card, _) => {
                undo.at = self
                    .hand
                    .iter()
                    .position(|&c| c == card)
                    .expect("in the hand") as u8;
            }
            ExpertMove::ColumnTo { from, start, .. } => {
                undo.at = (self.columns[usize::from(from)].len() - usize::from(start)) as u8;
            }
            ExpertMove::ColumnToHand(_) => {}
        }
        self.apply(mv);
        undo
    }

    /// Takes back the move [`Expert::play`] made, the last one played.
    fn unplay(&mut self, undo: Undo) {
        let mut unhome = || {
            let pile = usize::from(undo.pile);
            let suit = self.pile_suits[pile].expect("a card went there");
            let card = suit * 13 + self.pile_counts[pile] - 1;
            self.pile_counts[pile] -= 1;
            if self.pile_counts[pile] == 0 {
                self.pile_suits[pile] = None;
            }
            card
        };
        match undo.mv {
            ExpertMove::ColumnHome(i) => {
                let card = unhome();
                self.columns[usize::from(i)].push(card);
            }
            ExpertMove::HandHome(card) => {
                unhome();
                self.hand.insert(usize::from(undo.at), card);
            }
            ExpertMove::ColumnTo { from, to, .. } => {
                let to = usize::from(to);
                let start = self.columns[to].len() - usize::from(undo.at);
                shift_run(&mut self.columns, to, usize::from(from), start);
            }
            ExpertMove::HandTo(card, j) => {
                self.columns[usize::from(j)].pop();
                self.hand.insert(usize::from(undo.at), card);
            }
            ExpertMove::ColumnToHand(i) => {
                let card = self.hand.pop().expect("the card went to the hand");
                self.columns[usize::from(i)].push(card);
            }
        }
    }

    /// Whether `card` can go home without loss: every card that could be built on it (one
    /// rank lower, the other colour, both copies) is home already, and its other copy is
    /// home too or can follow it (both piles of the suit take the rank). Without the last
    /// condition the search proved seed 1,217 lost, which fc-solve wins: with its two 2s of
    /// diamonds exposed and one pile of diamonds begun, sending one home blocks the other
    /// until the second Ace comes out, and the win needed the other one home first.
    fn is_safe_home(&self, card: u8) -> bool {
        let r = rank(card);
        if r == 1 {
            return true; // an Ace has an empty pile of its own
        }
        let (high, low) = self.pile_heights(suit(card));
        if high < r && low < r - 1 {
            return false; // only one pile takes it, and its other copy is still out
        }
        let red = is_red(card);
        r == 2
            || (0..4u8)
                .filter(|&s| matches!(s, 1 | 2) != red)
                .all(|s| self.pile_heights(s).1 >= r - 1)
    }

    /// The heights of suit `s`'s two piles, the higher first (0 for a pile not begun).
    fn pile_heights(&self, s: u8) -> (u8, u8) {
        let mut heights = self
            .pile_suits
            .iter()
            .zip(&self.pile_counts)
            .filter(|(suit, _)| **suit == Some(s))
            .map(|(_, &count)| count);
        let (a, b) = (heights.next().unwrap_or(0), heights.next().unwrap_or(0));
        (a.max(b), a.min(b))
    }

    /// The canonical key: the columns and the hand as multisets, each suit's two piles as
    /// a pair of heights in order.
    fn key(&self) -> u64 {
        self.key_of_columns(std::array::from_fn(|i| column_hash(&self.columns[i])))
    }

    /// [`Expert::key`] from the columns' hashes ([`column_hash`]).
    fn key_of_columns(&self, columns: [u64; COLUMNS]) -> u64 {
        let mut hand = [0u8; HAND_LIMIT];
        hand[..self.hand.len()].copy_from_slice(&self.hand);
        hand.sort_unstable();
        let mut heights = [[0u8; 2]; 4];
        for (suit, &count) in self.pile_suits.iter().zip(&self.pile_counts) {
            if let Some(s) = suit {
                let pair = &mut heights[usize::from(*s)];
                if pair[0] == 0 {
                    pair[0] = count;
                } else {
                    pair[1] = count;
                }
            }
        }
        for pair in &mut heights {
            pair.sort_unstable();
        }
        let mut key = mix(u64::from_le_bytes([
            hand[0],
            hand[1],
            hand[2],
            hand[3],
            heights[0][0],
            heights[0][1],
            heights[1][0],
            heights[1][1],
        ]));
        key = mix(key
            ^ u64::from_le_bytes([
                heights[2][0],
                heights[2][1],
                heights[3][0],
                heights[3][1],
                self.hand.len() as u8,
                0,
                0,
                0,
            ]));
        // the columns as a multiset: the sum of their (mixed) hashes needs no sorting
        let columns = columns.iter().fold(0u64, |sum, &h| sum.wrapping_add(h));
        mix(key ^ columns)
    }
}

/// How promising a move is, lower first: home, then moves that empty a column or put a
/// hand card down, then other column moves, then into the hand.
fn order(state: &Expert, mv: ExpertMove) -> u8 {
    match mv {
        ExpertMove::ColumnHome(_) | ExpertMove::HandHome(_) => 0,
        ExpertMove::HandTo(..) => 1,
        ExpertMove::ColumnTo { from, start, .. } => {
            let column = &state.columns[usize::from(from)];
            // emptying its column, or leaving it one string, beats other column moves
            if start == 0 || string_start(&column[..usize::from(start)]) == 0 {
                2
            } else {
                3
            }
        }
        ExpertMove::ColumnToHand(_) => 4,
    }
}

/// Which moves a pass of the search tries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Moves {
    /// Every legal move ([`Pruning::None`]).
    All,
    /// Every legal move but a King-headed column moved whole to an empty column, which
    /// changes nothing: the complete search of [`Pruning::Full`].
    Complete,
    /// Those of [`Moves::Complete`] that leave every string whole: no part of a string
    /// moves off the card it builds on, and no card that builds on the card under it goes
    /// to the hand. A far smaller space, where most winnable deals are won; it proves
    /// nothing when it runs dry.
    Whole,
    /// Those of [`Moves::Complete`] that split no string between columns (a string's last
    /// card may go to the hand): the depth-first middle pass. Proves nothing either.
    Unsplit,
}

/// Whether `mv` takes a card off the card it builds on (the card stays in a string
/// otherwise): part of a string moving to another column, or a string's last card going
/// to the hand.
fn splits_a_string(state: &Expert, mv: ExpertMove) -> bool {
    match mv {
        ExpertMove::ColumnTo { .. } => splits_between_columns(state, mv),
        ExpertMove::ColumnToHand(i) => {
            let column = &state.columns[usize::from(i)];
            column.len() >= 2 && builds_on(column[column.len() - 1], Some(column[column.len() - 2]))
        }
        _ => false,
    }
}

/// Whether `mv` moves part of a string, not all of it, to another column.
fn splits_between_columns(state: &Expert, mv: ExpertMove) -> bool {
    match mv {
        ExpertMove::ColumnTo { from, start, .. } => {
            usize::from(start) != string_start(&state.columns[usize::from(from)])
        }
        _ => false,
    }
}

fn ordered_moves(state: &Expert, tried: Moves) -> Vec<ExpertMove> {
    let mut moves = state.legal_moves();
    if tried != Moves::All {
        // a whole column headed by a King moved to an empty column changes nothing
        moves.retain(|&mv| match mv {
            ExpertMove::ColumnTo { from, to, start } => {
                !(start == 0 && state.columns[usize::from(to)].is_empty())
                    || state.columns[usize::from(from)].is_empty()
            }
            _ => true,
        });
    }
    match tried {
        Moves::Whole => moves.retain(|&mv| !splits_a_string(state, mv)),
        Moves::Unsplit => moves.retain(|&mv| !splits_between_columns(state, mv)),
        Moves::All | Moves::Complete => {}
    }
    moves.sort_by_key(|&mv| order(state, mv));
    moves
}

/// What `ordered_moves(state, tried)` returns for [`Moves::Whole`], [`Moves::Unsplit`] or
/// [`Moves::Complete`], in the same order, listed directly instead of filtered and sorted
/// out of every legal move: the passes' hot path (listing and dropping moves had taken
/// three tenths of the first pass's time, a fifth of a lost deal's complete pass).
fn listed_moves(state: &Expert, tried: Moves) -> Vec<ExpertMove> {
    debug_assert!(tried != Moves::All);
    let mut moves = Vec::with_capacity(32);
    if state.home() == 104 {
        return moves;
    }
    let tops: [Option<u8>; COLUMNS] = std::array::from_fn(|i| state.columns[i].last().copied());
    let homeable = state.homeable();
    let goes_home = |card: u8| homeable >> card & 1 != 0;
    for (i, top) in tops.iter().enumerate() {
        if top.is_some_and(goes_home) {
            moves.push(ExpertMove::ColumnHome(i as u8));
        }
    }
    moves.extend(
        state
            .distinct_hand()
            .filter(|&card| goes_home(card))
            .map(ExpertMove::HandHome),
    );
    for card in state.distinct_hand() {
        for (j, &target) in tops.iter().enumerate() {
            if builds_on(card, target) {
                moves.push(ExpertMove::HandTo(card, j as u8));
            }
        }
    }
    // moves between columns that empty their column or leave it one string first
    let mut later = Vec::new();
    for (i, column) in state.columns.iter().enumerate() {
        if column.is_empty() {
            continue;
        }
        let first = string_start(column);
        // what is left when the whole string goes: nothing, or one string
        let whole_leaves_one = first == 0 || string_start(&column[..first]) == 0;
        for (j, &target) in tops.iter().enumerate() {
            if i == j {
                continue;
            }
            let Some(start) = state.fitting_start(i, first, target) else {
                continue;
            };
            // a whole column never moves to an empty one; only the complete pass splits
            // a string between columns
            if (start == 0 && target.is_none()) || (tried != Moves::Complete && start != first) {
                continue;
            }
            let mv = ExpertMove::ColumnTo {
                from: i as u8,
                to: j as u8,
                start: start as u8,
            };
            // part of the string leaves the rest of it, one string only if it began the column
            let leaves_one = if start == first {
                whole_leaves_one
            } else {
                first == 0
            };
            if leaves_one {
                moves.push(mv);
            } else {
                later.push(mv);
            }
        }
    }
    moves.append(&mut later);
    if state.hand.len() < HAND_LIMIT {
        for (i, column) in state.columns.iter().enumerate() {
            // in the first pass a string's last card stays on the card it builds on
            if !column.is_empty()
                && (tried != Moves::Whole || string_start(column) + 1 == column.len())
            {
                moves.push(ExpertMove::ColumnToHand(i as u8));
            }
        }
    }
    moves
}

/// A safe move home (see [`Expert::is_safe_home`]), from the columns first, if any.
fn next_safe(state: &Expert) -> Option<ExpertMove> {
    let homeable = state.homeable();
    let safe = |card: u8| homeable >> card & 1 != 0 && state.is_safe_home(card);
    if let Some(i) = (0..COLUMNS).find(|&i| state.columns[i].last().is_some_and(|&c| safe(c))) {
        return Some(ExpertMove::ColumnHome(i as u8));
    }
    state
        .hand
        .iter()
        .find(|&&card| safe(card))
        .map(|&card| ExpertMove::HandHome(card))
}

/// Plays every safe move home, recording each in `path`.
fn play_safe(state: &mut Expert, path: &mut Vec<ExpertMove>) {
    while let Some(mv) = next_safe(state) {
        state.apply(mv);
        path.push(mv);
    }
}

/// Solves `start` within `budget` with every rule of the solver; see [`solve_with`].
pub fn solve(
    start: &Expert,
    budget: &Budget,
    stop: &mut dyn FnMut() -> bool,
) -> Report<ExpertMove> {
    solve_with(start, budget, Pruning::Full, stop)
}

impl Expert {
    /// Appends the position in a few bytes to `bytes`: each column's length and cards, the
    /// hand's, the piles.
    fn pack_into(&self, bytes: &mut Vec<u8>) {
        for column in &self.columns {
            bytes.push(column.len() as u8);
            bytes.extend_from_slice(column);
        }
        bytes.push(self.hand.len() as u8);
        bytes.extend_from_slice(&self.hand);
        bytes.extend(self.pile_suits.iter().map(|s| s.unwrap_or(u8::MAX)));
        bytes.extend_from_slice(&self.pile_counts);
    }

    /// Makes this the position [`Expert::pack_into`] wrote, reusing its vectors.
    fn unpack_from(&mut self, bytes: &[u8]) {
        let mut at = 0;
        let mut take = |n: usize| {
            let slice = &bytes[at..at + n];
            at += n;
            slice
        };
        for column in &mut self.columns {
            let len = usize::from(take(1)[0]);
            column.clear();
            column.extend_from_slice(take(len));
        }
        let hand_len = usize::from(take(1)[0]);
        self.hand.clear();
        self.hand.extend_from_slice(take(hand_len));
        let suits = take(PILES);
        self.pile_suits = std::array::from_fn(|p| (suits[p] != u8::MAX).then_some(suits[p]));
        let counts = take(PILES);
        self.pile_counts = std::array::from_fn(|p| counts[p]);
    }

    /// How far the position looks from solved, lower is better: each break in a column
    /// (a card that does not build on the one before it) counts two, each hand card one,
    /// each card not yet home one. (Weights chosen on seeds 0-19 at 2 s: breaks alone or
    /// the number of cards above each column's last string decided fewer deals.)
    fn distance(&self) -> u32 {
        let breaks: u32 = self.columns.iter().map(|c| column_breaks(c)).sum();
        self.distance_with(breaks)
    }

    /// [`Expert::distance`] of the position legal move `mv` leads to, given this one's
    /// breaks in all columns, without playing it: a move home or to the hand takes off at
    /// most the break under the card it takes, a move between columns the break under the
    /// first card it moves, and a card or string put on a column builds on it (or heads an
    /// empty one), so it adds none.
    fn distance_after(&self, breaks: u32, mv: ExpertMove) -> u32 {
        // 1 if the card at `k` of column `i` does not build on the one under it
        let break_at = |i: u8, k: usize| {
            let column = &self.columns[usize::from(i)];
            u32::from(k >= 1 && !builds_on(column[k], Some(column[k - 1])))
        };
        let top = |i: u8| self.columns[usize::from(i)].len() - 1;
        let (hand, not_home) = (self.hand.len() as u32, 104 - self.home() as u32);
        match mv {
            ExpertMove::ColumnHome(i) => 2 * (breaks - break_at(i, top(i))) + hand + not_home - 1,
            ExpertMove::ColumnToHand(i) => 2 * (breaks - break_at(i, top(i))) + hand + 1 + not_home,
            ExpertMove::HandHome(_) => 2 * breaks + hand - 1 + not_home - 1,
            ExpertMove::HandTo(..) => 2 * breaks + hand - 1 + not_home,
            ExpertMove::ColumnTo { from, start, .. } => {
                2 * (breaks - break_at(from, usize::from(start))) + hand + not_home
            }
        }
    }

    /// [`Expert::distance`] given the breaks in all columns.
    fn distance_with(&self, breaks: u32) -> u32 {
        2 * breaks + (self.hand.len() + 104 - self.home()) as u32
    }
}

/// Solves `start` within `budget`: [`Outcome::Solved`] with the moves that reach a solved
/// position (every column one string), [`Outcome::Unsolvable`] when every reachable
/// position was searched, or [`Outcome::Unknown`] when a budget ran out. `stop` is asked
/// now and then whether to give up (for Ctrl-C).
///
/// With [`Pruning::Full`], safe moves home are made without branching, no King-headed
/// column moves to an empty one, and three passes run: a best-first search over the moves
/// that keep every string whole (`Moves::Whole`; `WHOLE_RATE` nodes a budget-second, and
/// where most winnable deals are won), the middle pass over the moves that split no string
/// between columns (`Moves::Unsplit`: a depth-first search, `UNSPLIT_RATE`, then restarts
/// in random orders, `SHUFFLED_RATE`; see `middle_pass`), then a depth-first
/// search over every move, which visits each position at most once, so when it runs dry the
/// whole reachable space has been searched. With [`Pruning::None`] only the depth-first
/// search runs, over every legal move, and only the transposition table prunes (for
/// checking).
pub fn solve_with(
    start: &Expert,
    budget: &Budget,
    pruning: Pruning,
    stop: &mut dyn FnMut() -> bool,
) -> Report<ExpertMove> {
    let mut meter = Meter::new(budget, stop);
    let mut root = start.clone();
    let mut path = Vec::new();
    if pruning == Pruning::Full {
        play_safe(&mut root, &mut path);
    }
    if root.is_solved() {
        return meter.report(Outcome::Solved(path));
    }
    // The restricted passes get WHOLE_RATE and UNSPLIT_RATE + SHUFFLED_RATE nodes a
    // budget-second in turn, and at most half the nodes; the complete pass whatever is
    // left.
    let share = |rate: f64| ((budget.max_seconds * rate) as u64).min(budget.max_nodes / 2);
    let passes: &[(Moves, u64)] = match pruning {
        Pruning::Full => &[
            (Moves::Whole, share(WHOLE_RATE)),
            (
                Moves::Unsplit,
                share(WHOLE_RATE + UNSPLIT_RATE + SHUFFLED_RATE),
            ),
            (Moves::Complete, u64::MAX),
        ],
        Pruning::None => &[(Moves::All, u64::MAX)],
    };
    let mut outcome = Outcome::Unknown("no pass ran".into());
    for &(tried, node_limit) in passes {
        outcome = match tried {
            Moves::Whole => best_first(&root, &path, budget, node_limit, &mut meter),
            Moves::Unsplit => middle_pass(&root, &path, budget, node_limit, &mut meter),
            Moves::All | Moves::Complete => {
                depth_first(&root, &path, budget, tried, node_limit, None, &mut meter)
            }
        };
        match &outcome {
            // a restricted pass that runs dry or out of its own nodes proves nothing
            Outcome::Unsolvable => {}
            Outcome::Unknown(reason)
                if reason == search::NODE_LIMIT && meter.nodes < budget.max_nodes => {}
            _ => break,
        }
    }
    meter.report(outcome)
}

/// Nodes a budget-second for the first pass, best-first over [`Moves::Whole`] (about two
/// thirds of the time; on the 43 deals of seeds 0-1,999 left undecided at 10 s with
/// 300,000, 400,000 won 3, 500,000 won 5 and 600,000 won 8, see docs/solvers.md).
const WHOLE_RATE: f64 = 600_000.0;

/// Nodes a budget-second for the middle pass's first search, depth-first over
/// [`Moves::Unsplit`] in the usual order.
const UNSPLIT_RATE: f64 = 300_000.0;

/// Nodes a budget-second for the middle pass's restarts in random orders (on the 19 deals
/// of seeds 0-1,999 left undecided at 10 s without them, they won 6, each within 1.8
/// million nodes; see docs/solvers.md).
const SHUFFLED_RATE: f64 = 300_000.0;

/// The node limit of the middle pass's restarts is this many times a term of the Luby
/// sequence ([`luby`]).
const RESTART_NODES: u64 = 20_000;

/// The first pass: a best-first search from `root` (reached by `path`) over the moves of
/// [`Moves::Whole`], always expanding the position that looks nearest to solved
/// ([`Expert::distance`]), until `node_limit` nodes are counted in all: solved, unsolvable
/// (the space of those moves ran dry, which proves nothing), or unknown.
fn best_first(
    root: &Expert,
    path: &[ExpertMove],
    budget: &Budget,
    node_limit: u64,
    meter: &mut Meter<'_>,
) -> Outcome<ExpertMove> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    let mut seen = KeySet::new(budget.max_states);
    seen.visit(root.key(), 0);
    let mut kept: Kept<ExpertMove> = Kept::default();
    if kept
        .push(u32::MAX, path, |bytes| root.pack_into(bytes))
        .is_none()
    {
        return Outcome::Unknown(search::TABLE_FULL.into());
    }
    let mut queue = BinaryHeap::new();
    queue.push((Reverse(root.distance()), Reverse(0u32)));
    let mut overflow = false;
    // each child is played on its parent and taken back, not cloned from it, and only the
    // cards the moves touch are hashed again
    let mut position = Tracked::new(root.clone(), Moves::Whole);
    let mut undos = Vec::new();
    let mut path = Vec::new();
    while let Some((_, Reverse(index))) = queue.pop() {
        position.state.unpack_from(kept.packed(index));
        position.reset();
        for mv in listed_moves(&position.state, Moves::Whole) {
            if let Err(reason) = meter.tick(node_limit) {
                return Outcome::Unknown(reason);
            }
            path.clear();
            path.push(mv);
            undos.push(position.play(mv));
            while let Some(safe) = next_safe(&position.state) {
                undos.push(position.play(safe));
                path.push(safe);
            }
            if position.state.is_solved() {
                return Outcome::Solved(kept.line(index, &path));
            }
            match seen.visit(position.key(), 0) {
                Some(true) => {
                    let distance = position.state.distance_with(position.breaks.iter().sum());
                    match kept.push(index, &path, |bytes| position.state.pack_into(bytes)) {
                        Some(child) => queue.push((Reverse(distance), Reverse(child))),
                        // no memory for it: the pass can no longer be exhaustive
                        None => overflow = true,
                    }
                }
                Some(false) => {}
                None => overflow = true,
            }
            while let Some(undo) = undos.pop() {
                position.unplay(undo);
            }
        }
    }
    if overflow {
        return Outcome::Unknown(search::TABLE_FULL.into());
    }
    Outcome::Unsolvable
}

/// The depth-first passes' position: each column's hash and breaks kept up to date as moves
/// are played and taken back, so that the key and the distance cost the cards a move
/// changes, not ten columns; and the moves the pass tries.
struct Tracked {
    state: Expert,
    hashes: [u64; COLUMNS],
    breaks: [u32; COLUMNS],
    /// For each column, the unmixed hash ([`column_hash`]) and the breaks of each of its
    /// prefixes, the empty one first: a move only takes cards off a column's end or puts
    /// cards on it, so the column's new hash and breaks follow from the prefix it keeps
    /// and the cards it gains (before 2026-11-24 both were counted over the whole column
    /// at every move, a quarter of the complete pass's time).
    prefixes: [Vec<(u64, u32)>; COLUMNS],
    tried: Moves,
    /// When set, the moves are tried in a random order drawn from it (the middle pass's
    /// restarts) instead of the nearest result first.
    shuffle: Option<SplitMix64>,
}

impl Tracked {
    fn new(state: Expert, tried: Moves) -> Tracked {
        let mut tracked = Tracked {
            tried,
            shuffle: None,
            hashes: [0; COLUMNS],
            breaks: [0; COLUMNS],
            prefixes: std::array::from_fn(|_| {
                let mut prefix = Vec::with_capacity(32);
                prefix.push((EMPTY_COLUMN_HASH, 0));
                prefix
            }),
            state,
        };
        tracked.reset();
        tracked
    }

    /// Counts every column's prefixes afresh, after the position was replaced.
    fn reset(&mut self) {
        for i in 0..COLUMNS {
            self.prefixes[i].truncate(1);
            self.refresh_column(i);
        }
    }

    /// Brings column `i`'s prefixes, hash and breaks up to date after cards were taken off
    /// its end or put on it (never both at once).
    fn refresh_column(&mut self, i: usize) {
        let column = &self.state.columns[i];
        let prefix = &mut self.prefixes[i];
        prefix.truncate(column.len() + 1);
        while prefix.len() <= column.len() {
            let k = prefix.len(); // column[k - 1] is the card to add
            let (h, b) = prefix[k - 1];
            let card = column[k - 1];
            let breaks = b + u32::from(k >= 2 && !builds_on(card, Some(column[k - 2])));
            prefix.push((hash_with(h, card), breaks));
        }
        let (h, b) = prefix[column.len()];
        self.hashes[i] = mix(h);
        self.breaks[i] = b;
        debug_assert_eq!(self.hashes[i], column_hash(column));
        debug_assert_eq!(self.breaks[i], column_breaks(column));
    }

    /// The columns a move changes.
    fn touched(mv: ExpertMove) -> [Option<u8>; 2] {
        match mv {
            ExpertMove::ColumnHome(i) | ExpertMove::ColumnToHand(i) | ExpertMove::HandTo(_, i) => {
                [Some(i), None]
            }
            ExpertMove::ColumnTo { from, to, .. } => [Some(from), Some(to)],
            ExpertMove::HandHome(_) => [None, None],
        }
    }

    fn refresh(&mut self, mv: ExpertMove) {
        for i in Tracked::touched(mv).into_iter().flatten() {
            self.refresh_column(usize::from(i));
        }
    }
}

impl DepthFirst for Tracked {
    type Move = ExpertMove;
    type Undo = Undo;

    fn play(&mut self, mv: ExpertMove) -> Undo {
        let undo = self.state.play(mv);
        self.refresh(mv);
        undo
    }

    fn unplay(&mut self, undo: Undo) {
        self.state.unplay(undo);
        self.refresh(undo.mv);
    }

    fn move_of(undo: &Undo) -> ExpertMove {
        undo.mv
    }

    fn next_safe(&self) -> Option<ExpertMove> {
        next_safe(&self.state).filter(|_| self.tried != Moves::All)
    }

    /// Every column one string (or empty): solved.
    fn is_won(&self) -> bool {
        self.breaks.iter().all(|&b| b == 0)
    }

    fn key(&self) -> u64 {
        self.state.key_of_columns(self.hashes)
    }

    fn moves(&mut self, _last: Option<&Undo>, moves: &mut Vec<ExpertMove>) {
        moves.extend(children(self, self.tried));
    }
}

/// `state`'s moves among `tried`, the ones whose result looks nearest to solved first
/// (ties in [`order`]'s order), or in a random order when the position has a shuffle.
fn children(state: &mut Tracked, tried: Moves) -> Vec<ExpertMove> {
    let mut moves = match tried {
        Moves::All => ordered_moves(&state.state, tried),
        _ => listed_moves(&state.state, tried),
    };
    if let Some(rng) = &mut state.shuffle {
        for i in (1..moves.len()).rev() {
            moves.swap(i, rng.below(i as u64 + 1) as usize);
        }
        return moves;
    }
    let breaks: u32 = state.breaks.iter().sum();
    let mut scored: Vec<(u32, ExpertMove)> = moves
        .into_iter()
        .map(|mv| (state.state.distance_after(breaks, mv), mv))
        .collect();
    #[cfg(debug_assertions)]
    for &(distance, mv) in &scored {
        let undo = state.play(mv);
        debug_assert_eq!(
            distance,
            state.state.distance_with(state.breaks.iter().sum())
        );
        state.unplay(undo);
    }
    scored.sort_by_key(|&(distance, _)| distance);
    scored.into_iter().map(|(_, mv)| mv).collect()
}

/// The nodes of the middle pass's restarts: [`SHUFFLED_RATE`] a budget-second, at most a
/// quarter of the budget's nodes.
fn shuffled_share(budget: &Budget) -> u64 {
    ((budget.max_seconds * SHUFFLED_RATE) as u64).min(budget.max_nodes / 4)
}

/// The middle pass, over [`Moves::Unsplit`]: a depth-first search in the usual order until
/// `node_limit` nodes less [`shuffled_share`] are counted in all, then, unless it
/// won or ran the space dry, searches of the same space from the start with the moves in
/// random orders (restart `r` draws from `SplitMix64::new(r)`, so a run is repeatable)
/// and node limits [`RESTART_NODES`] times the Luby sequence, until `node_limit`. On seeds
/// 260, 614, 865, 1,394, 1,531 and 1,608 the usual order is lost for 3 million nodes and
/// the restarts win within 1.8 million (wins of about 300 moves); a single search in
/// [`order`]'s order alone wins four of them.
fn middle_pass(
    root: &Expert,
    path: &[ExpertMove],
    budget: &Budget,
    node_limit: u64,
    meter: &mut Meter<'_>,
) -> Outcome<ExpertMove> {
    let first_limit = node_limit.saturating_sub(shuffled_share(budget));
    let mut outcome = depth_first(root, path, budget, Moves::Unsplit, first_limit, None, meter);
    for r in 1.. {
        match &outcome {
            Outcome::Unknown(reason)
                if reason == search::NODE_LIMIT && meter.nodes < node_limit => {}
            // won, the space ran dry (the same in any order), or out of time
            _ => break,
        }
        let limit = node_limit.min(meter.nodes + RESTART_NODES * luby(r));
        let shuffle = Some(SplitMix64::new(r));
        outcome = depth_first(root, path, budget, Moves::Unsplit, limit, shuffle, meter);
    }
    outcome
}

/// The complete pass: a depth-first search from `root` (reached by `path`) over the moves
/// `tried` (in random orders drawn from `shuffle` if given) that plays and takes back moves
/// on one position, every position at most once, until `node_limit` nodes are counted in
/// all. Faster a node than the best-first search, so it runs the spaces of lost deals dry
/// sooner.
fn depth_first(
    root: &Expert,
    path: &[ExpertMove],
    budget: &Budget,
    tried: Moves,
    node_limit: u64,
    shuffle: Option<SplitMix64>,
    meter: &mut Meter<'_>,
) -> Outcome<ExpertMove> {
    let mut position = Tracked::new(root.clone(), tried);
    position.shuffle = shuffle;
    match search::depth_first(&mut position, meter, node_limit, budget.max_states) {
        Ended::Won(moves) => Outcome::Solved(path.iter().copied().chain(moves).collect()),
        Ended::Exhausted => Outcome::Unsolvable,
        Ended::Stopped(reason) => Outcome::Unknown(reason),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_deal_matches_the_engine_of_record() {
        // the Python doctest: seed 7's hand and legal moves
        let state = Expert::from_seed(7).unwrap();
        let hand: Vec<String> = state
            .hand
            .iter()
            .map(|&c| card_name(c).to_string())
            .collect();
        assert_eq!(hand, ["Kd", "6s", "3c", "6d"]);
        let moves: Vec<String> = state
            .legal_moves()
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(moves, ["t6>f", "t2>t7", "t4>t9", "t5>t4", "t8>t7"]);
    }

    #[test]
    fn the_cards_that_go_home_are_those_a_pile_takes() {
        let mut rng = crate::shuffle::SplitMix64::new(5);
        let (mut checked, mut most_home) = (0, 0);
        for seed in 0..40 {
            let mut state = Expert::from_seed(seed).unwrap();
            for _ in 0..200 {
                let homeable = state.homeable();
                for card in 0..52u8 {
                    let bit = homeable >> card & 1 != 0;
                    assert_eq!(
                        bit,
                        state.pile_for(card).is_some(),
                        "seed {seed} card {card}"
                    );
                }
                checked += 1;
                // home moves first, so that the piles fill
                let legal = state.legal_moves();
                let Some(&mv) = legal
                    .iter()
                    .find(|mv| matches!(mv, ExpertMove::ColumnHome(_) | ExpertMove::HandHome(_)))
                    .or_else(|| legal.get(rng.below(legal.len().max(1) as u64) as usize))
                else {
                    break;
                };
                state.apply(mv);
            }
            most_home = most_home.max(state.home());
        }
        assert!(
            checked > 1000 && most_home >= 8,
            "{checked} positions, {most_home} home"
        );
    }

    /// The first pass's own listing of its moves is the complete pass's filtered and
    /// sorted, on positions of random play of 40 deals.
    #[test]
    fn the_passes_list_their_moves_as_the_filtered_list_has_them() {
        let mut rng = crate::shuffle::SplitMix64::new(11);
        let (mut checked, mut empty_columns, mut kinds) = (0, 0, [0u32; 5]);
        let mut partial = 0; // moves of part of a string between columns
        for seed in 0..40 {
            let mut state = Expert::from_seed(seed).unwrap();
            for _ in 0..300 {
                for tried in [Moves::Whole, Moves::Unsplit, Moves::Complete] {
                    let listed = listed_moves(&state, tried);
                    assert_eq!(
                        listed,
                        ordered_moves(&state, tried),
                        "seed {seed}, {tried:?}"
                    );
                }
                partial += ordered_moves(&state, Moves::Complete)
                    .iter()
                    .filter(|&&mv| splits_between_columns(&state, mv))
                    .count();
                for mv in &ordered_moves(&state, Moves::Complete) {
                    kinds[match mv {
                        ExpertMove::ColumnHome(_) | ExpertMove::HandHome(_) => 0,
                        ExpertMove::HandTo(..) => 1,
                        ExpertMove::ColumnTo { start: 0, .. } => 2,
                        ExpertMove::ColumnTo { .. } => 3,
                        ExpertMove::ColumnToHand(_) => 4,
                    }] += 1;
                }
                checked += 1;
                empty_columns += state.columns.iter().filter(|c| c.is_empty()).count();
                // moves home and moves that empty a column first, most of the time, so
                // that columns empty and Kings meet them
                let legal = state.legal_moves();
                let emptying = legal.iter().find(|&&mv| match mv {
                    ExpertMove::ColumnHome(i) | ExpertMove::ColumnToHand(i) => {
                        state.columns[usize::from(i)].len() == 1
                    }
                    ExpertMove::ColumnTo { start, .. } => start == 0,
                    ExpertMove::HandHome(_) => true,
                    ExpertMove::HandTo(..) => false,
                });
                let mv = match emptying {
                    Some(&mv) if rng.below(4) > 0 => mv,
                    _ if legal.is_empty() => break,
                    _ => legal[rng.below(legal.len() as u64) as usize],
                };
                state.apply(mv);
            }
        }
        assert!(
            checked > 5000 && empty_columns > 100 && partial > 100 && kinds.iter().all(|&k| k > 0),
            "{checked} positions, {empty_columns} empty columns, {partial} partial moves, \
             moves of each kind {kinds:?}"
        );
    }

    #[test]
    fn unplay_takes_back_every_kind_of_move() {
        let mut kinds = [0; 5];
        crate::search::check_play_and_unplay(
            (0..40).map(|seed| Expert::from_seed(seed).unwrap()),
            60,
            &mut crate::shuffle::SplitMix64::new(11),
            Expert::legal_moves,
            Expert::apply,
            Expert::play,
            Expert::unplay,
            |mv| match mv {
                ExpertMove::ColumnHome(_) => 0,
                ExpertMove::HandHome(_) => 1,
                ExpertMove::ColumnTo { .. } => 2,
                ExpertMove::HandTo(..) => 3,
                ExpertMove::ColumnToHand(_) => 4,
            },
            &mut kinds,
        );
    }

    // Seeds decided within 0.2 s (`solve_seeds -- expert 0 60 0.5`).
    const WON: [u64; 5] = [5, 11, 19, 28, 54];
    const LOST: [u64; 7] = [2, 10, 13, 23, 27, 41, 51];

    /// Seed 1,217 after its first two moves home: both 2s of diamonds lie exposed and one
    /// pile of diamonds is begun. Sending either home at once, as a safe move, blocked the
    /// other until the second Ace of diamonds came out, and the search proved the deal lost;
    /// fc-solve wins it (benchmarks/expert_solver.py), by sending the other one home first.
    #[test]
    fn a_copy_goes_home_without_branching_only_if_the_other_can_follow() {
        let two = crate::cards::Card::new(2, 1).unwrap().index();
        let mut state = Expert::from_seed(1217).unwrap();
        state.apply(ExpertMove::ColumnHome(2));
        state.apply(ExpertMove::ColumnHome(1));
        assert_eq!(
            [state.columns[1].last(), state.columns[2].last()],
            [Some(&two); 2]
        );
        assert!(!state.is_safe_home(two));
        assert_eq!(next_safe(&state), None);
        let budget = Budget {
            max_seconds: 5.0,
            ..Budget::default()
        };
        assert!(matches!(
            solve(&state, &budget, &mut || false).outcome,
            Outcome::Solved(_)
        ));
        // with a second pile of diamonds begun (the piles alone decide), either may go
        let pile = state.pile_suits.iter().position(Option::is_none).unwrap();
        state.pile_suits[pile] = Some(1);
        state.pile_counts[pile] = 1;
        assert!(state.is_safe_home(two));
    }

    /// Seed 1,942: the first pass does not win it within a million nodes; the middle pass,
    /// depth-first with a string's last card allowed to the hand, wins it in tens of
    /// thousands (its win puts such cards in the hand, as fc-solve's does).
    #[test]
    fn the_middle_pass_wins_where_strings_kept_whole_do_not() {
        let budget = Budget {
            max_seconds: 60.0,
            ..Budget::default()
        };
        let mut root = Expert::from_seed(1942).unwrap();
        let mut path = Vec::new();
        play_safe(&mut root, &mut path);
        let mut never = || false;
        let mut meter = Meter::new(&budget, &mut never);
        let first = best_first(&root, &path, &budget, 1_000_000, &mut meter);
        assert!(matches!(first, Outcome::Unknown(_)), "{first:?}");
        let mut meter = Meter::new(&budget, &mut never);
        let Outcome::Solved(moves) = depth_first(
            &root,
            &path,
            &budget,
            Moves::Unsplit,
            100_000,
            None,
            &mut meter,
        ) else {
            panic!("the middle pass wins seed 1942");
        };
        let start = Expert::from_seed(1942).unwrap();
        assert!(search::replay(&start, &moves, Expert::legal_moves, Expert::apply).is_solved());
    }

    /// Seed 260: the middle pass's search in the usual order is lost for 3,000,000 nodes,
    /// and so is one in [`order`]'s order alone; its restarts in random orders win within
    /// 600,000.
    #[test]
    fn the_restarts_win_where_the_usual_order_does_not() {
        let budget = Budget::default();
        let mut root = Expert::from_seed(260).unwrap();
        let mut path = Vec::new();
        play_safe(&mut root, &mut path);
        let mut never = || false;
        let mut meter = Meter::new(&budget, &mut never);
        let usual = depth_first(
            &root,
            &path,
            &budget,
            Moves::Unsplit,
            3_000_000,
            None,
            &mut meter,
        );
        assert!(matches!(usual, Outcome::Unknown(_)), "{usual:?}");
        // 1,000 nodes in the usual order, then the restarts
        let limit = shuffled_share(&budget) + 1_000;
        let mut meter = Meter::new(&budget, &mut never);
        let Outcome::Solved(moves) = middle_pass(&root, &path, &budget, limit, &mut meter) else {
            panic!("the restarts win seed 260");
        };
        assert!(meter.nodes < 600_000, "{} nodes", meter.nodes);
        let start = Expert::from_seed(260).unwrap();
        assert!(search::replay(&start, &moves, Expert::legal_moves, Expert::apply).is_solved());
    }

    #[test]
    fn certificates_reach_a_solved_position() {
        let budget = Budget {
            max_seconds: 5.0,
            ..Budget::default()
        };
        for seed in WON {
            let start = Expert::from_seed(seed).unwrap();
            let Outcome::Solved(moves) = solve(&start, &budget, &mut || false).outcome else {
                panic!("seed {seed} is winnable");
            };
            let state = search::replay(&start, &moves, Expert::legal_moves, Expert::apply);
            assert!(state.is_solved(), "seed {seed}");
        }
    }

    #[test]
    fn unsolvable_verdicts_hold_without_the_pruning() {
        let budget = Budget {
            max_seconds: 5.0,
            ..Budget::default()
        };
        for seed in LOST {
            let start = Expert::from_seed(seed).unwrap();
            for pruning in [Pruning::Full, Pruning::None] {
                let outcome = solve_with(&start, &budget, pruning, &mut || false).outcome;
                assert_eq!(outcome, Outcome::Unsolvable, "seed {seed}, {pruning:?}");
            }
        }
    }
}
