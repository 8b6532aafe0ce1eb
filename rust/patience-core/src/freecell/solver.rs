//! FreeCell's solver: a best-first search that finds most wins in a few hundred positions,
//! then a depth-first search that visits every position once, so that running it dry
//! proves a deal lost.
//!
//! # Pruning, and why each rule keeps every verdict
//!
//! With [`Pruning::Full`] the searches use four rules; [`Pruning::None`] uses none of them
//! (only the table of positions searched), for checking them.
//!
//! 1. **Safe moves home are made without branching.** A card of rank `r` that can go home
//!    goes there at once when both foundations of the other colour hold at least `r - 1`
//!    cards (`is_safe_home`; an Ace always). The only cards that could ever lie on it in
//!    a column are those two cards of rank `r - 1`, which are home and never leave, so the
//!    card serves only as an obstacle where it lies. Take any win from the position before
//!    the move and replay it with the card home: drop the moves of the card alone, and move
//!    every run it ended without it (nothing lies on it, so it can only end a run). Every
//!    replayed move stays legal, since the card's absence leaves as many free cells and
//!    empty columns or more, a shorter run needs no more room, and the card being home
//!    early only lets its successor go home: a win again. So the position with the card
//!    home is won whenever the one before it is.
//! 2. **Positions are compared up to the order of the columns and of the cells** (the
//!    key): two positions that differ only in which column or cell holds what
//!    have the same futures, move for move.
//! 3. **Among equivalent moves only one is tried**: a card goes only to the first empty
//!    cell, and a card or run only into the first empty column (the others give positions
//!    equal under rule 2).
//! 4. **A whole column never moves into an empty column**: the result is the position
//!    itself under rule 2.
//!
//! Rules 2 to 4 only skip positions that rule 2's table would skip anyway; rule 1 is the
//! dominance argument above. `tests::unsolvable_verdicts_hold_without_the_pruning` checks
//! the rules on the lost deal 11,982, and `tests::the_pruned_search_wins_what_the_full_one_wins`
//! on some 750 won and a few lost positions from the middle and the end of games: the
//! verdict is the same with the rules and without them.

use super::{in_sequence, is_red, rank, run_start, FreeCell, FreeCellMove, Undo, CELLS, COLUMNS};
use crate::search::{
    self, mix, Budget, DepthFirst, Ended, Kept, KeySet, Meter, Outcome, Pruning, Report,
};

/// Whether `card` (which can go home) goes there without loss: an Ace, or a card whose
/// two possible successors in a column (the other colour's cards one rank lower) are home
/// (see the module's rule 1).
pub(crate) fn is_safe_home(state: &FreeCell, card: u8) -> bool {
    let r = rank(card);
    let red = is_red(card);
    (0..4u8)
        .filter(|&s| matches!(s, 1 | 2) != red)
        .all(|s| state.foundation[usize::from(s)] + 1 >= r)
}

/// A safe move home, from the columns first, then the cells, if any.
pub(crate) fn next_safe(state: &FreeCell) -> Option<FreeCellMove> {
    let safe = |card: u8| state.goes_home(card) && is_safe_home(state, card);
    if let Some(i) = (0..COLUMNS).find(|&i| state.columns[i].last().is_some_and(|&c| safe(c))) {
        return Some(FreeCellMove::ColumnHome(i as u8));
    }
    (0..CELLS)
        .find(|&k| state.cells[k].is_some_and(safe))
        .map(|k| FreeCellMove::CellHome(k as u8))
}

/// The unmixed hash of an empty column.
const EMPTY_COLUMN_HASH: u64 = 0x3c;

/// The unmixed hash of a column that is one with unmixed hash `h` and `card` on it.
#[inline]
fn hash_with(h: u64, card: u8) -> u64 {
    h.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ (u64::from(card) + 1)
}

/// A column's part of [`key`]: one multiply a card, mixed at the end.
fn column_hash(column: &[u8]) -> u64 {
    mix(column
        .iter()
        .fold(EMPTY_COLUMN_HASH, |h, &c| hash_with(h, c)))
}

/// The position's key: the columns and the cells as multisets (rule 2), with the
/// foundations (which the cards in play imply, but cost nothing).
#[cfg(test)]
pub(crate) fn key(state: &FreeCell) -> u64 {
    key_of_columns(
        state,
        &std::array::from_fn(|i| column_hash(&state.columns[i])),
    )
}

/// [`key`] from the columns' hashes ([`column_hash`]).
fn key_of_columns(state: &FreeCell, hashes: &[u64; COLUMNS]) -> u64 {
    // the columns as a multiset: the sum of their mixed hashes needs no sorting
    let columns = hashes.iter().fold(0u64, |sum, &h| sum.wrapping_add(h));
    key_of(&state.cells, &state.foundation, columns)
}

/// The key of the position with these cells and foundations whose columns' hashes sum to
/// `columns`.
#[inline]
fn key_of(cells: &[Option<u8>; CELLS], foundation: &[u8; 4], columns: u64) -> u64 {
    let mut cells = cells.map(|c| c.unwrap_or(u8::MAX));
    cells.sort_unstable();
    let f = foundation;
    let word = u64::from_le_bytes([
        cells[0], cells[1], cells[2], cells[3], f[0], f[1], f[2], f[3],
    ]);
    mix(mix(word) ^ columns)
}

/// What the heuristic knows of a column's first `n` cards, kept for each prefix of each
/// column so that a move, which only takes cards off a column's end or puts cards on it,
/// costs the cards it moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Prefix {
    /// The unmixed hash ([`column_hash`] before mixing).
    hash: u64,
    /// Cards not in sequence on the card under them.
    breaks: u8,
    /// Cards lying above a card of lower rank (each must move before that card goes home).
    blockers: u8,
    /// The lowest rank among the cards (14 while there are none).
    lowest: u8,
    /// Where the run ending at the last card begins.
    run_from: u8,
}

const EMPTY_PREFIX: Prefix = Prefix {
    hash: EMPTY_COLUMN_HASH,
    breaks: 0,
    blockers: 0,
    lowest: 14,
    run_from: 0,
};

impl Prefix {
    /// The prefix with `card` added, `under` the card it lies on (if any) and `n` the
    /// cards before it.
    #[inline]
    fn with(self, card: u8, under: Option<u8>, n: usize) -> Prefix {
        let broken = under.is_some_and(|u| !in_sequence(card, u));
        Prefix {
            hash: hash_with(self.hash, card),
            breaks: self.breaks + u8::from(broken),
            blockers: self.blockers + u8::from(rank(card) > self.lowest),
            lowest: self.lowest.min(rank(card)),
            run_from: if broken { n as u8 } else { self.run_from },
        }
    }
}

/// The heuristic's weights ([`Tracked::distance`]), chosen on Microsoft's deals 1 to
/// 1,000 and checked on 5,001 to 6,000 by the positions the solver counts to win them
/// (2.5 and 2.3 million in all, against 3.3 and 3.4 million with every weight 1 but 2 for
/// blockers and cells; see docs/freecell.md).
const W_HOME: u32 = 2;
const W_BREAK: u32 = 1;
const W_BLOCKER: u32 = 4;
const W_BURIED: u32 = 1;
const W_CELL: u32 = 4;

/// Where a card is: `column * 32 + position` while it lies in a column, else this.
const NOWHERE: u8 = u8::MAX;

/// A position as the searches play on it: each column's prefixes ([`Prefix`]) and where
/// each card lies kept up to date as moves are played and taken back, so that the key and
/// the distance cost the cards a move changes, not the whole table.
pub(crate) struct Tracked {
    pub(crate) state: FreeCell,
    prefixes: [Vec<Prefix>; COLUMNS],
    pub(crate) hashes: [u64; COLUMNS],
    places: [u8; 52],
    pruning: Pruning,
    /// Whether only the moves that keep every run whole are tried (the best-first pass):
    /// no part of a run moves off the card it builds on, onto a column or to a cell; only
    /// a run's last card alone may leave it, into an empty column.
    whole: bool,
}

impl Tracked {
    pub(crate) fn new(state: FreeCell, pruning: Pruning) -> Tracked {
        let mut tracked = Tracked {
            state,
            prefixes: std::array::from_fn(|_| {
                let mut prefix = Vec::with_capacity(24);
                prefix.push(EMPTY_PREFIX);
                prefix
            }),
            hashes: [0; COLUMNS],
            places: [NOWHERE; 52],
            pruning,
            whole: false,
        };
        tracked.reset();
        tracked
    }

    /// Counts everything afresh, after the position was replaced.
    fn reset(&mut self) {
        self.places = [NOWHERE; 52];
        for i in 0..COLUMNS {
            self.prefixes[i].truncate(1);
            self.refresh_column(i);
        }
    }

    /// Makes this the position [`FreeCell::pack_into`] wrote, counting each column afresh
    /// only from its first card that differs: the best-first pass goes from one kept
    /// position to another that shares most of its columns' cards.
    fn load(&mut self, bytes: &[u8]) {
        let mut at = 0;
        for i in 0..COLUMNS {
            let len = usize::from(bytes[at]);
            let cards = &bytes[at + 1..at + 1 + len];
            let column = &mut self.state.columns[i];
            let same = column.iter().zip(cards).take_while(|(a, b)| a == b).count();
            if same < column.len() || same < len {
                column.truncate(same);
                column.extend_from_slice(&cards[same..]);
                self.prefixes[i].truncate(same + 1);
                self.refresh_column(i);
            }
            at += 1 + len;
        }
        let state = &mut self.state;
        state.cells = std::array::from_fn(|k| (bytes[at + k] != u8::MAX).then_some(bytes[at + k]));
        state.foundation = std::array::from_fn(|s| bytes[at + CELLS + s]);
    }

    /// Brings column `i`'s prefixes, hash and card places up to date after cards were
    /// taken off its end or put on it.
    fn refresh_column(&mut self, i: usize) {
        let column = &self.state.columns[i];
        let prefix = &mut self.prefixes[i];
        prefix.truncate(column.len() + 1);
        while prefix.len() <= column.len() {
            let n = prefix.len() - 1; // column[n] is the card to add
            let under = n.checked_sub(1).map(|k| column[k]);
            prefix.push(prefix[n].with(column[n], under, n));
            self.places[usize::from(column[n])] = (i * 32 + n) as u8;
        }
        self.hashes[i] = mix(prefix[column.len()].hash);
        debug_assert_eq!(self.hashes[i], column_hash(column));
        debug_assert_eq!(
            usize::from(prefix[column.len()].run_from),
            run_start(column)
        );
    }

    fn refresh(&mut self, mv: FreeCellMove) {
        match mv {
            FreeCellMove::ColumnHome(i)
            | FreeCellMove::ColumnToCell(i, _)
            | FreeCellMove::CellTo(_, i) => self.refresh_column(usize::from(i)),
            FreeCellMove::ColumnTo { from, to, .. } => {
                self.refresh_column(usize::from(from));
                self.refresh_column(usize::from(to));
            }
            FreeCellMove::CellHome(_) => {}
        }
    }

    pub(crate) fn play(&mut self, mv: FreeCellMove) -> Undo {
        let undo = self.state.play(mv);
        self.refresh(mv);
        undo
    }

    pub(crate) fn unplay(&mut self, undo: Undo) {
        self.state.unplay(undo);
        self.refresh(undo.mv);
    }

    pub(crate) fn key(&self) -> u64 {
        key_of_columns(&self.state, &self.hashes)
    }

    /// Where `card` lies in a column, if it does: its last recorded place, if the card is
    /// still there (a card that left a column keeps its old place, which another card may
    /// hold since).
    #[inline]
    fn in_column(&self, card: u8) -> Option<(usize, usize)> {
        let place = self.places[usize::from(card)];
        if place == NOWHERE {
            return None;
        }
        let (i, k) = (usize::from(place / 32), usize::from(place % 32));
        (self.state.columns[i].get(k) == Some(&card)).then_some((i, k))
    }

    /// How far the position looks from solved, lower is better, a weighted sum of: the
    /// cards not home (`W_HOME`); in the columns, each break (a card not in sequence on the
    /// one under it, `W_BREAK`), each card lying above a card of lower rank (which must
    /// move before that card goes home, `W_BLOCKER`), and the cards lying on each suit's
    /// next card wanted home (`W_BURIED`); each card in a free cell (`W_CELL`).
    pub(crate) fn distance(&self) -> u32 {
        let mut total = W_HOME * (52 - self.state.home()) as u32
            + W_CELL * (CELLS - self.state.free_cells()) as u32;
        for (i, prefix) in self.prefixes.iter().enumerate() {
            let stats = prefix[self.state.columns[i].len()];
            total += W_BREAK * u32::from(stats.breaks) + W_BLOCKER * u32::from(stats.blockers);
        }
        for s in 0..4u8 {
            let next = self.state.foundation[usize::from(s)];
            if next < 13 {
                let card = s * 13 + next;
                if let Some((i, k)) = self.in_column(card) {
                    total += W_BURIED * (self.state.columns[i].len() - 1 - k) as u32;
                }
            }
        }
        total
    }
}

impl Tracked {
    /// Column `i`'s [`Prefix`] as a whole.
    #[inline]
    fn stats(&self, i: usize) -> Prefix {
        self.prefixes[i][self.state.columns[i].len()]
    }

    /// Where the run ending at column `i`'s exposed card begins.
    #[inline]
    pub(crate) fn run_from(&self, i: usize) -> usize {
        usize::from(self.stats(i).run_from)
    }

    /// For each suit, where its next card wanted home lies, if in a column.
    pub(crate) fn next_places(&self) -> [Option<(usize, usize)>; 4] {
        std::array::from_fn(|s| {
            let next = self.state.foundation[s];
            (next < 13)
                .then(|| self.in_column(s as u8 * 13 + next))
                .flatten()
        })
    }

    /// The cards lying on `card`, if it lies in a column, once column `changed` (if any)
    /// holds `changed_len` cards.
    fn buried(&self, card: u8, changed: usize, changed_len: usize) -> u32 {
        match self.in_column(card) {
            Some((i, k)) => {
                let len = if i == changed {
                    changed_len
                } else {
                    self.state.columns[i].len()
                };
                (len - 1 - k) as u32
            }
            None => 0,
        }
    }

    /// [`Tracked::distance`] of the position that legal move `mv` leads to, without playing
    /// it, given this position's distance `base` and [`Tracked::next_places`] `next`: the
    /// move changes the columns it takes cards from or puts cards on, a card's place, and
    /// for a move home the suit's next card.
    pub(crate) fn distance_after(
        &self,
        base: u32,
        next: &[Option<(usize, usize)>; 4],
        mv: FreeCellMove,
    ) -> u32 {
        let columns = &self.state.columns;
        // the part of the distance a column's stats make
        let part = |p: Prefix| W_BREAK * u32::from(p.breaks) + W_BLOCKER * u32::from(p.blockers);
        // the buried cards under the next cards that lie in column `c` below position `below`
        let under_in = |c: usize, below: usize| {
            next.iter()
                .flatten()
                .filter(|&&(i, k)| i == c && k < below)
                .count() as u32
        };
        // a column after its top card leaves it
        let lose_top = |a: usize| {
            let len = columns[a].len();
            let gone = part(self.stats(a)) - part(self.prefixes[a][len - 1]);
            (gone, W_BURIED * under_in(a, len - 1))
        };
        // the blockers a run of `k` cards headed by rank `r0` adds to column `b`
        let added_blockers = |b: usize, r0: u8, k: usize| {
            let lowest = self.stats(b).lowest;
            let k = k as u8;
            u32::from(if lowest >= r0 {
                0
            } else if lowest + k <= r0 {
                k
            } else {
                r0 - lowest
            })
        };
        // the distance the next card of `card`'s suit adds once `card` is home
        let successor = |card: u8, changed: usize, changed_len: usize| {
            if rank(card) == 13 {
                0
            } else {
                W_BURIED * self.buried(card + 1, changed, changed_len)
            }
        };
        match mv {
            FreeCellMove::ColumnTo {
                from, to, start, ..
            } => {
                let (a, b, start) = (usize::from(from), usize::from(to), usize::from(start));
                let k = columns[a].len() - start;
                let r0 = rank(columns[a][start]);
                let from_gain = part(self.stats(a)) - part(self.prefixes[a][start]);
                let to_gain = W_BLOCKER * added_blockers(b, r0, k);
                let buried_down = W_BURIED * k as u32 * under_in(a, start);
                let buried_up = W_BURIED * k as u32 * under_in(b, usize::MAX);
                base + to_gain + buried_up - from_gain - buried_down
            }
            FreeCellMove::ColumnToCell(i, _) => {
                let (gone, unburied) = lose_top(usize::from(i));
                base + W_CELL - gone - unburied
            }
            FreeCellMove::ColumnHome(i) => {
                let a = usize::from(i);
                let card = *columns[a].last().expect("legal");
                let (gone, unburied) = lose_top(a);
                base + successor(card, a, columns[a].len() - 1) - W_HOME - gone - unburied
            }
            FreeCellMove::CellHome(k) => {
                let card = self.state.cells[usize::from(k)].expect("legal");
                base + successor(card, usize::MAX, 0) - W_HOME - W_CELL
            }
            FreeCellMove::CellTo(k, j) => {
                let card = self.state.cells[usize::from(k)].expect("legal");
                let b = usize::from(j);
                let added = W_BLOCKER * added_blockers(b, rank(card), 1);
                base + added + W_BURIED * under_in(b, usize::MAX) - W_CELL
            }
        }
    }

    /// [`Tracked::key`] of the position that legal move `mv` leads to, without playing it,
    /// given the sum `sum` of the columns' hashes: the hashes of the columns it changes,
    /// from their prefixes and the cards they gain, and the cells and foundations.
    pub(crate) fn key_after(&self, sum: u64, mv: FreeCellMove) -> u64 {
        let columns = &self.state.columns;
        let mut cells = self.state.cells;
        let mut foundation = self.state.foundation;
        let top_of = |i: usize| -> u64 { mix(self.prefixes[i][columns[i].len() - 1].hash) };
        let sum = match mv {
            FreeCellMove::ColumnTo {
                from, to, start, ..
            } => {
                let (a, b, start) = (usize::from(from), usize::from(to), usize::from(start));
                let grown = columns[a][start..]
                    .iter()
                    .fold(self.prefixes[b][columns[b].len()].hash, |h, &c| {
                        hash_with(h, c)
                    });
                sum.wrapping_sub(self.hashes[a])
                    .wrapping_sub(self.hashes[b])
                    .wrapping_add(mix(self.prefixes[a][start].hash))
                    .wrapping_add(mix(grown))
            }
            FreeCellMove::ColumnToCell(i, k) => {
                let a = usize::from(i);
                cells[usize::from(k)] = columns[a].last().copied();
                sum.wrapping_sub(self.hashes[a]).wrapping_add(top_of(a))
            }
            FreeCellMove::ColumnHome(i) => {
                let a = usize::from(i);
                let card = *columns[a].last().expect("legal");
                foundation[usize::from(card / 13)] += 1;
                sum.wrapping_sub(self.hashes[a]).wrapping_add(top_of(a))
            }
            FreeCellMove::CellHome(k) => {
                let card = cells[usize::from(k)].take().expect("legal");
                foundation[usize::from(card / 13)] += 1;
                sum
            }
            FreeCellMove::CellTo(k, j) => {
                let b = usize::from(j);
                let card = cells[usize::from(k)].take().expect("legal");
                let grown = hash_with(self.prefixes[b][columns[b].len()].hash, card);
                sum.wrapping_sub(self.hashes[b]).wrapping_add(mix(grown))
            }
        };
        key_of(&cells, &foundation, sum)
    }

    /// The moves `search_moves` lists, each with the distance of its result, the nearest
    /// first.
    pub(crate) fn scored_moves(
        &self,
        moves: &mut Vec<FreeCellMove>,
        scored: &mut Vec<(u32, FreeCellMove)>,
    ) {
        moves.clear();
        search_moves(self, moves);
        let base = self.distance();
        let next = self.next_places();
        scored.clear();
        scored.extend(
            moves
                .iter()
                .map(|&mv| (self.distance_after(base, &next, mv), mv)),
        );
        scored.sort_by_key(|&(d, _)| d);
    }
}

/// [`Tracked::distance`] of a position, computed from scratch.
pub(crate) fn distance_of(state: &FreeCell) -> u32 {
    Tracked::new(state.clone(), Pruning::Full).distance()
}

/// The moves a search tries from `position`: every legal move with [`Pruning::None`];
/// with [`Pruning::Full`] only one of each set of equivalent moves (rules 3 and 4), in the
/// order of [`FreeCell::legal_moves`]. Safe moves home are made before this is asked.
pub(crate) fn search_moves(position: &Tracked, moves: &mut Vec<FreeCellMove>) {
    let state = &position.state;
    if position.pruning == Pruning::None {
        moves.extend(state.legal_moves());
        return;
    }
    let whole = position.whole;
    let tops: [Option<u8>; COLUMNS] = std::array::from_fn(|i| state.columns[i].last().copied());
    for (i, top) in tops.iter().enumerate() {
        if top.is_some_and(|c| state.goes_home(c)) {
            moves.push(FreeCellMove::ColumnHome(i as u8));
        }
    }
    for (k, cell) in state.cells.iter().enumerate() {
        if cell.is_some_and(|c| state.goes_home(c)) {
            moves.push(FreeCellMove::CellHome(k as u8));
        }
    }
    let empty = tops.iter().position(Option::is_none);
    let free = state.cells.iter().filter(|c| c.is_none()).count();
    let empties = tops.iter().filter(|t| t.is_none()).count();
    let (to_filled, to_empty) = (
        super::supermove_limit(free, empties, false),
        super::supermove_limit(free, empties, true),
    );
    // the runs that go onto a card: for each exposed card, the two cards that build on it
    // are found by their places (not by trying every pair of columns), and the part of a
    // run from one of them moves if it is short enough (in the first pass, if it is the
    // whole run); `onto[i]` holds, for each source column i, where each such move's run
    // starts, by destination column
    let mut onto = [[u8::MAX; COLUMNS]; COLUMNS];
    for (j, &target) in tops.iter().enumerate() {
        let Some(t) = target else { continue };
        for card in builders(t) {
            let Some((i, start)) = position.in_column(card) else {
                continue;
            };
            let first = position.run_from(i);
            let len = state.columns[i].len();
            if i != j && start >= first && len - start <= to_filled && !(whole && start > first) {
                onto[i][j] = start as u8;
            }
        }
    }
    for (i, (column, onto)) in state.columns.iter().zip(&onto).enumerate() {
        if column.is_empty() {
            continue;
        }
        let first = position.run_from(i);
        for (j, &target) in tops.iter().enumerate() {
            match target {
                Some(_) => {
                    let start = onto[j];
                    if start != u8::MAX {
                        moves.push(FreeCellMove::ColumnTo {
                            from: i as u8,
                            to: j as u8,
                            start,
                            head: None,
                        });
                    }
                }
                None if Some(j) == empty => {
                    let starts = state.starts_run_into_empty(i, first, to_empty);
                    let count = starts.len();
                    let splits = |start: usize| start > first && start + 1 < column.len();
                    for start in starts.filter(|&start| start > 0 && !(whole && splits(start))) {
                        moves.push(state.run_into_empty(i, j, start, count));
                    }
                }
                _ => {}
            }
        }
    }
    for (k, cell) in state.cells.iter().enumerate() {
        if let Some(card) = *cell {
            for (j, &target) in tops.iter().enumerate() {
                let fits = match target {
                    Some(t) => in_sequence(card, t),
                    None => Some(j) == empty,
                };
                if fits {
                    moves.push(FreeCellMove::CellTo(k as u8, j as u8));
                }
            }
        }
    }
    if let Some(k) = state.cells.iter().position(Option::is_none) {
        for (i, top) in tops.iter().enumerate() {
            // a run's last card stays on the card it builds on, in the first pass
            if top.is_some() && !(whole && position.run_from(i) + 1 < state.columns[i].len()) {
                moves.push(FreeCellMove::ColumnToCell(i as u8, k as u8));
            }
        }
    }
}

/// The two cards that build on `card` in a column (one rank lower, the other colour);
/// none on an Ace.
#[inline]
fn builders(card: u8) -> impl Iterator<Item = u8> {
    let r = rank(card);
    let suits: [u8; 2] = if is_red(card) { [0, 3] } else { [1, 2] };
    suits
        .into_iter()
        .filter(move |_| r > 1)
        .map(move |s| s * 13 + r - 2)
}

/// Plays every safe move home, recording each in `path`.
fn play_safe(state: &mut FreeCell, path: &mut Vec<FreeCellMove>) {
    while let Some(mv) = next_safe(state) {
        state.apply(mv);
        path.push(mv);
    }
}

/// Solves `start` within `budget` with every rule of the solver; see [`solve_with`].
pub fn solve(
    start: &FreeCell,
    budget: &Budget,
    stop: &mut dyn FnMut() -> bool,
) -> Report<FreeCellMove> {
    solve_with(start, budget, Pruning::Full, stop)
}

/// Positions a budget-second for the best-first pass (the depth-first pass gets the rest).
const BEST_FIRST_RATE: f64 = 1_000_000.0;

/// Solves `start` within `budget`: [`Outcome::Solved`] with the moves that reach a solved
/// position (every column one run), [`Outcome::Unsolvable`] when every reachable position
/// was searched, or [`Outcome::Unknown`] when a budget ran out. `stop` is asked now and
/// then whether to give up (for Ctrl-C).
///
/// With [`Pruning::Full`] (the rules of the module's documentation) a best-first search
/// runs first, always expanding the position that looks nearest to solved
/// (the heuristic `Tracked::distance`, and the moves it took), for `BEST_FIRST_RATE`
/// positions a budget-second and at most half of them; it keeps every position it
/// expands, so it stops there, and a depth-first search over the same moves, which keeps
/// only the positions' keys, goes on with the rest of the budget. Either search running
/// dry proves the deal lost. With [`Pruning::None`] only the depth-first search runs, over
/// every legal move, with no move made without branching.
pub fn solve_with(
    start: &FreeCell,
    budget: &Budget,
    pruning: Pruning,
    stop: &mut dyn FnMut() -> bool,
) -> Report<FreeCellMove> {
    let mut meter = Meter::new(budget, stop);
    let mut root = start.clone();
    let mut path = Vec::new();
    if pruning == Pruning::Full {
        play_safe(&mut root, &mut path);
    }
    if root.is_solved() {
        return meter.report(Outcome::Solved(path));
    }
    if pruning == Pruning::Full {
        let share = ((budget.max_seconds * BEST_FIRST_RATE) as u64).min(budget.max_nodes / 2);
        for whole in [true, false] {
            let outcome = best_first(&root, &path, budget, share, whole, &mut meter);
            match &outcome {
                // the space of whole runs ran dry, which proves nothing
                Outcome::Unsolvable if whole => {}
                // out of its share
                Outcome::Unknown(reason)
                    if reason == search::NODE_LIMIT && meter.nodes < budget.max_nodes => {}
                _ => return meter.report(outcome),
            }
        }
    }
    let mut position = Tracked::new(root, pruning);
    let outcome = match search::depth_first(&mut position, &mut meter, u64::MAX, budget.max_states)
    {
        Ended::Won(moves) => Outcome::Solved(path.into_iter().chain(moves).collect()),
        Ended::Exhausted => Outcome::Unsolvable,
        Ended::Stopped(reason) => Outcome::Unknown(reason),
    };
    meter.report(outcome)
}

impl FreeCell {
    /// Appends the position in a few bytes to `bytes`: each column's length and cards, the
    /// cells (255 for an empty one), the foundations.
    fn pack_into(&self, bytes: &mut Vec<u8>) {
        for column in &self.columns {
            bytes.push(column.len() as u8);
            bytes.extend_from_slice(column);
        }
        bytes.extend(self.cells.iter().map(|c| c.unwrap_or(u8::MAX)));
        bytes.extend_from_slice(&self.foundation);
    }
}

/// The weight of the distance against the moves taken in the best-first pass's priority
/// (`DISTANCE_WEIGHT * distance + moves`): counting the moves taken keeps it from
/// wandering on plateaus of equal distance (with weights of 3 and 1000, the greedier
/// searches, it counted 1.2 to 1.6 times the positions on deals 1 to 1,000).
const DISTANCE_WEIGHT: u32 = 1;

/// A move the best-first pass may expand: from the position kept at `parent`, `mv`, whose
/// result scores `priority` (lower first; the later of equals first).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Candidate {
    priority: std::cmp::Reverse<u32>,
    order: u32,
    parent: u32,
    depth: u16,
    mv: Packed,
}

/// A move in four bytes, for the best-first pass's queue.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Packed([u8; 4]);

impl Packed {
    fn of(mv: FreeCellMove) -> Packed {
        Packed(match mv {
            FreeCellMove::ColumnHome(i) => [0, i, 0, 0],
            FreeCellMove::CellHome(k) => [1, k, 0, 0],
            FreeCellMove::ColumnTo {
                from,
                to,
                start,
                head,
            } => [2 + u8::from(head.is_some()), from, to, start],
            FreeCellMove::CellTo(k, j) => [4, k, j, 0],
            FreeCellMove::ColumnToCell(i, k) => [5, i, k, 0],
        })
    }

    /// The move, read against the position it is played from (for a long form's card).
    fn get(self, state: &FreeCell) -> FreeCellMove {
        let [kind, a, b, c] = self.0;
        match kind {
            0 => FreeCellMove::ColumnHome(a),
            1 => FreeCellMove::CellHome(a),
            2 | 3 => FreeCellMove::ColumnTo {
                from: a,
                to: b,
                start: c,
                head: (kind == 3).then(|| state.columns[usize::from(a)][usize::from(c)]),
            },
            4 => FreeCellMove::CellTo(a, b),
            _ => FreeCellMove::ColumnToCell(a, b),
        }
    }
}

/// The best-first pass from `root` (reached by `path`) until `node_limit` positions are
/// counted in all: solved, unsolvable (every position reachable was expanded), or unknown.
///
/// Each position a move leads to is scored and its key looked up without playing the move
/// ([`Tracked::distance_after`], [`Tracked::key_after`]); a new one is queued as its parent
/// and the move, and played only when it comes out of the queue (most never do). The
/// table holds the positions queued and the ones expanded (a position reached by a move
/// and then by safe moves home is expanded once whichever way it was reached); the
/// positions expanded are kept, to play the queued moves from and for the win's line.
fn best_first(
    root: &FreeCell,
    path: &[FreeCellMove],
    budget: &Budget,
    node_limit: u64,
    whole: bool,
    meter: &mut Meter<'_>,
) -> Outcome<FreeCellMove> {
    use std::collections::BinaryHeap;

    let mut seen = KeySet::new(budget.max_states);
    let mut kept: Kept<FreeCellMove> = Kept::default();
    let mut queue: BinaryHeap<Candidate> = BinaryHeap::new();
    let mut position = Tracked::new(root.clone(), Pruning::Full);
    position.whole = whole;
    let (mut moves, mut scored, mut line, mut undos) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut overflow = false;
    let mut order = 0u32;
    seen.visit(position.key(), 0);
    // no memory to keep even the start: undecided, as a full table leaves it
    let Some(mut parent) = kept.push(u32::MAX, path, |bytes| root.pack_into(bytes)) else {
        return Outcome::Unknown(search::TABLE_FULL.into());
    };
    let mut depth = 0;
    // `position` holds the position kept at `at`
    let mut at = parent;
    loop {
        // expand the position at `parent`, which `position` holds
        position.scored_moves(&mut moves, &mut scored);
        let sum = position
            .hashes
            .iter()
            .fold(0u64, |sum, &h| sum.wrapping_add(h));
        for &(distance, mv) in &scored {
            if let Err(reason) = meter.tick(node_limit) {
                return Outcome::Unknown(reason);
            }
            match seen.visit(position.key_after(sum, mv), 0) {
                Some(true) => {}
                Some(false) => continue,
                None => {
                    overflow = true;
                    continue;
                }
            }
            order += 1;
            queue.push(Candidate {
                priority: std::cmp::Reverse(DISTANCE_WEIGHT * distance + u32::from(depth) + 1),
                order,
                parent,
                depth: depth + 1,
                mv: Packed::of(mv),
            });
        }
        // the next position to expand: the best one queued that is new once its safe moves
        // home are made
        loop {
            let Some(candidate) = queue.pop() else {
                return if overflow {
                    Outcome::Unknown(search::TABLE_FULL.into())
                } else {
                    Outcome::Unsolvable
                };
            };
            if candidate.parent != at {
                position.load(kept.packed(candidate.parent));
                at = candidate.parent;
            }
            line.clear();
            undos.clear();
            let mv = candidate.mv.get(&position.state);
            undos.push(position.play(mv));
            line.push(mv);
            while let Some(safe) = next_safe(&position.state) {
                undos.push(position.play(safe));
                line.push(safe);
            }
            if position.state.is_solved() {
                return Outcome::Solved(kept.line(candidate.parent, &line));
            }
            if line.len() == 1 || seen.visit(position.key(), 0) == Some(true) {
                match kept.push(candidate.parent, &line, |bytes| {
                    position.state.pack_into(bytes)
                }) {
                    Some(child) => {
                        parent = child;
                        at = parent;
                        depth = candidate.depth;
                        break;
                    }
                    // no memory to keep it: the pass can no longer be exhaustive
                    None => overflow = true,
                }
            }
            while let Some(undo) = undos.pop() {
                position.unplay(undo);
            }
        }
    }
}

impl DepthFirst for Tracked {
    type Move = FreeCellMove;
    type Undo = Undo;

    fn play(&mut self, mv: FreeCellMove) -> Undo {
        Tracked::play(self, mv)
    }

    fn unplay(&mut self, undo: Undo) {
        Tracked::unplay(self, undo);
    }

    fn move_of(undo: &Undo) -> FreeCellMove {
        undo.mv
    }

    fn next_safe(&self) -> Option<FreeCellMove> {
        match self.pruning {
            Pruning::Full => next_safe(&self.state),
            Pruning::None => None,
        }
    }

    fn is_won(&self) -> bool {
        self.prefixes
            .iter()
            .zip(&self.state.columns)
            .all(|(prefix, column)| prefix[column.len()].run_from == 0)
    }

    fn key(&self) -> u64 {
        Tracked::key(self)
    }

    /// The moves, the ones whose result looks nearest to solved first.
    fn moves(&mut self, _last: Option<&Undo>, moves: &mut Vec<FreeCellMove>) {
        let mut scored = Vec::with_capacity(48);
        self.scored_moves(moves, &mut scored);
        scored.sort_by_key(|&(d, _)| d);
        #[cfg(debug_assertions)]
        for &(distance, mv) in &scored {
            let undo = Tracked::play(self, mv);
            debug_assert_eq!(distance, self.distance(), "{mv}");
            Tracked::unplay(self, undo);
        }
        moves.clear();
        moves.extend(scored.into_iter().map(|(_, mv)| mv));
    }
}
