//! Golf for the solver: the position, move generation equal to the Python engine of record's
//! (`patience.games.golf`), and an exact solver.
//!
//! Seven columns of at most five cards, all face up; a column's exposed card goes to the
//! waste when its rank is one above or below the waste's top card (with `wrap`, Ace and King
//! are neighbours both ways; without it nothing plays on a King). `draw` turns the stock's
//! next card onto the waste. The game is won when the tableau is empty.
//!
//! The solver is a depth-first search over positions `(column heights, cards drawn, rank of
//! the waste's top card)`: the suit of the top card never matters again, and the cards of
//! each column and of the stock are fixed by the deal. Every position is remembered, so the
//! search is exact: with a large enough budget every deal is decided.

use std::fmt;

use crate::klondike::InvalidPosition;
use crate::search::{Budget, Meter, Outcome, Report};

pub use crate::search::Pruning;

/// Columns in the tableau.
pub const COLUMNS: usize = 7;
/// Cards dealt to each column.
pub const ROWS: usize = 5;

/// A Golf move in RULES.md notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GolfMove {
    /// `tN`: column `N`'s exposed card to the waste (index from 0).
    Play(u8),
    /// `draw`: the stock's next card onto the waste.
    Draw,
}

impl fmt::Display for GolfMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            GolfMove::Play(column) => write!(f, "t{}", column + 1),
            GolfMove::Draw => f.write_str("draw"),
        }
    }
}

/// The rank of a card index, 1 (Ace) to 13 (King).
#[inline]
fn rank(card: u8) -> u8 {
    card % 13 + 1
}

/// Whether a card of rank `card` may go onto a waste whose top card has rank `top`.
#[inline]
pub fn neighbours(card: u8, top: u8, wrap: bool) -> bool {
    if top == 13 && !wrap {
        return false;
    }
    let gap = card.abs_diff(top);
    gap == 1 || (wrap && gap == 12)
}

/// A Golf position with every card known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Golf {
    /// Whether Ace and King are neighbours.
    pub wrap: bool,
    /// The columns, first-dealt card first (the exposed card last).
    pub columns: [Vec<u8>; COLUMNS],
    /// The stock, its next card last.
    pub stock: Vec<u8>,
    /// The waste's top card.
    pub waste_top: u8,
}

impl Golf {
    /// The position dealt from `deal` (52 card indices, first-dealt first) as RULES.md lays
    /// it out: five rows of seven, the 36th card to the waste, the rest to the stock with
    /// the first of them on top.
    pub fn deal(deal: &[u8], wrap: bool) -> Result<Self, InvalidPosition> {
        if deal.len() != 52 {
            return Err(InvalidPosition(format!(
                "a deal has 52 cards, not {}",
                deal.len()
            )));
        }
        let columns = std::array::from_fn(|c| (0..ROWS).map(|r| deal[r * COLUMNS + c]).collect());
        let golf = Golf {
            wrap,
            columns,
            stock: deal[COLUMNS * ROWS + 1..].iter().rev().copied().collect(),
            waste_top: deal[COLUMNS * ROWS],
        };
        golf.check()?;
        Ok(golf)
    }

    /// The deal of `seed` (the seeded shuffle, version 1), as `Golf.from_seed` deals it in
    /// Python.
    pub fn from_seed(seed: u64, wrap: bool) -> Result<Self, InvalidPosition> {
        let cards = crate::shuffle::seeded_indices("golf", seed, 1, 1)
            .map_err(|error| InvalidPosition(error.to_string()))?;
        Golf::deal(&cards, wrap)
    }

    /// Checks that the position holds valid cards, each at most once, columns of at most
    /// five cards.
    pub fn check(&self) -> Result<(), InvalidPosition> {
        let mut seen = [false; 52];
        let all = self
            .columns
            .iter()
            .flatten()
            .chain(self.stock.iter())
            .chain(std::iter::once(&self.waste_top));
        for &card in all {
            if card >= 52 || seen[card as usize] {
                return Err(InvalidPosition(format!(
                    "card index {card} is invalid or repeated"
                )));
            }
            seen[card as usize] = true;
        }
        if let Some(i) = self.columns.iter().position(|c| c.len() > ROWS) {
            return Err(InvalidPosition(format!(
                "column {} holds more than {ROWS} cards",
                i + 1
            )));
        }
        Ok(())
    }

    /// Whether the tableau is empty.
    pub fn is_won(&self) -> bool {
        self.columns.iter().all(Vec::is_empty)
    }

    /// Every legal move, in the engine of record's order: playable columns, then `draw`.
    pub fn legal_moves(&self) -> Vec<GolfMove> {
        let mut moves = Vec::with_capacity(COLUMNS + 1);
        if self.is_won() {
            return moves;
        }
        let top = rank(self.waste_top);
        for (i, column) in self.columns.iter().enumerate() {
            if let Some(&card) = column.last() {
                if neighbours(rank(card), top, self.wrap) {
                    moves.push(GolfMove::Play(i as u8));
                }
            }
        }
        if !self.stock.is_empty() {
            moves.push(GolfMove::Draw);
        }
        moves
    }

    /// Plays a move that [`Golf::legal_moves`] listed.
    pub fn apply(&mut self, mv: GolfMove) {
        self.waste_top = match mv {
            GolfMove::Play(i) => self.columns[i as usize].pop(),
            GolfMove::Draw => self.stock.pop(),
        }
        .expect("the move was legal");
    }
}

/// The search's own form of a position: everything else is fixed by the start.
#[derive(Clone, Copy)]
struct Node {
    heights: [u8; COLUMNS],
    drawn: u8,
    top: u8,
    /// Cards of each rank (index rank - 1) still in the columns.
    left: [u8; 13],
}

/// Cards of each rank still in the stock after `drawn` draws, for every `drawn`.
fn stock_ranks(draws: &[u8]) -> Vec<[u8; 13]> {
    let mut table = vec![[0u8; 13]; draws.len() + 1];
    for drawn in (0..draws.len()).rev() {
        table[drawn] = table[drawn + 1];
        table[drawn][usize::from(rank(draws[drawn]) - 1)] += 1;
    }
    table
}

/// For each rank (index rank - 1), the ranks (bit rank - 1) of the waste cards it may
/// go on.
fn goes_on(wrap: bool) -> [u16; 13] {
    std::array::from_fn(|r| {
        (1..=13u8)
            .filter(|&s| neighbours(r as u8 + 1, s, wrap))
            .fold(0, |bits, s| bits | 1 << (s - 1))
    })
}

/// Whether some column card can never be played again: no card that it could go on is on
/// the waste now or left anywhere (columns or stock) to get there. Such a position is
/// lost, so the search need not go on from it (black-hole-solver's "rank reachability"
/// idea; the check is ours).
fn is_dead(node: &Node, stock_left: &[u8; 13], goes_on: &[u16; 13]) -> bool {
    let mut reachable = 1u16 << (rank(node.top) - 1);
    let mut waiting = 0u16;
    for (r, (&in_columns, &in_stock)) in node.left.iter().zip(stock_left).enumerate() {
        if in_columns > 0 {
            waiting |= 1 << r;
        }
        if in_columns + in_stock > 0 {
            reachable |= 1 << r;
        }
    }
    (0..13).any(|r| waiting & (1 << r) != 0 && goes_on[r] & reachable == 0)
}

impl Node {
    /// The position's index in the table of seen positions: column heights in base 6, then
    /// cards drawn, then the top card's rank.
    fn index(&self, stock: usize) -> usize {
        let mut index = 0usize;
        for &h in &self.heights {
            index = index * (ROWS + 1) + h as usize;
        }
        (index * (stock + 1) + self.drawn as usize) * 13 + rank(self.top) as usize - 1
    }
}

/// Positions seen, one bit each: every position of a search has a place (a few megabytes),
/// so nothing is ever forgotten and no budget of states applies.
struct Table(Vec<u64>);

impl Table {
    fn new(stock: usize) -> Self {
        let positions = (ROWS + 1).pow(COLUMNS as u32) * (stock + 1) * 13;
        Table(vec![0; positions.div_ceil(64)])
    }

    /// Marks a position seen; returns whether it was new.
    fn insert(&mut self, index: usize) -> bool {
        let (word, bit) = (index / 64, 1u64 << (index % 64));
        let new = self.0[word] & bit == 0;
        self.0[word] |= bit;
        new
    }
}

struct Frame {
    node: Node,
    moves: [GolfMove; COLUMNS + 1],
    count: usize,
    next: usize,
}

/// Solves `start` within `budget`: [`Outcome::Solved`] with the moves of a win,
/// [`Outcome::Unsolvable`] when every reachable position was searched, or
/// [`Outcome::Unknown`] when the node or time budget ran out (`max_states` does not apply:
/// see `Table`). `stop` is asked now and then whether to give
/// up (for Ctrl-C).
pub fn solve(start: &Golf, budget: &Budget, stop: &mut dyn FnMut() -> bool) -> Report<GolfMove> {
    solve_with(start, budget, Pruning::Full, stop)
}

/// [`solve`] with a choice of pruning.
///
/// With [`Pruning::None`] positions where a column card can never be played are searched
/// on too (for checking the dead-position rule).
pub fn solve_with(
    start: &Golf,
    budget: &Budget,
    pruning: Pruning,
    stop: &mut dyn FnMut() -> bool,
) -> Report<GolfMove> {
    let mut meter = Meter::new(budget, stop);
    let columns = &start.columns;
    let draws: Vec<u8> = start.stock.iter().rev().copied().collect();
    let expand = |node: &Node| -> Frame {
        let mut frame = Frame {
            node: *node,
            moves: [GolfMove::Draw; COLUMNS + 1],
            count: 0,
            next: 0,
        };
        let top = rank(node.top);
        for (i, &h) in node.heights.iter().enumerate() {
            if h > 0 && neighbours(rank(columns[i][h as usize - 1]), top, start.wrap) {
                frame.moves[frame.count] = GolfMove::Play(i as u8);
                frame.count += 1;
            }
        }
        if (node.drawn as usize) < draws.len() {
            frame.moves[frame.count] = GolfMove::Draw;
            frame.count += 1;
        }
        frame
    };
    let mut left = [0u8; 13];
    for &card in columns.iter().flatten() {
        left[usize::from(rank(card) - 1)] += 1;
    }
    let root = Node {
        heights: std::array::from_fn(|i| columns[i].len() as u8),
        drawn: 0,
        top: start.waste_top,
        left,
    };
    let stock_left = stock_ranks(&draws);
    let goes_on = goes_on(start.wrap);
    if start.is_won() {
        return meter.report(Outcome::Solved(Vec::new()));
    }
    let mut seen = Table::new(draws.len());
    seen.insert(root.index(draws.len()));
    let mut stack = vec![expand(&root)];
    while let Some(frame) = stack.last_mut() {
        if frame.next == frame.count {
            stack.pop();
            continue;
        }
        let mv = frame.moves[frame.next];
        frame.next += 1;
        if let Err(reason) = meter.tick(u64::MAX) {
            return meter.report(Outcome::Unknown(reason));
        }
        let mut node = frame.node;
        match mv {
            GolfMove::Play(i) => {
                node.heights[i as usize] -= 1;
                node.top = columns[i as usize][node.heights[i as usize] as usize];
                node.left[usize::from(rank(node.top) - 1)] -= 1;
            }
            GolfMove::Draw => {
                node.top = draws[node.drawn as usize];
                node.drawn += 1;
            }
        }
        if node.heights.iter().all(|&h| h == 0) {
            // each frame's current move, the last of them `mv`
            let path = stack.iter().map(|f| f.moves[f.next - 1]).collect();
            return meter.report(Outcome::Solved(path));
        }
        if !seen.insert(node.index(draws.len())) {
            continue;
        }
        if pruning == Pruning::Full
            && is_dead(&node, &stock_left[usize::from(node.drawn)], &goes_on)
        {
            continue;
        }
        stack.push(expand(&node));
    }
    meter.report(Outcome::Unsolvable)
}
#[cfg(test)]
mod tests {
    use super::*;

    fn deal(seed: u64, wrap: bool) -> Golf {
        Golf::from_seed(seed, wrap).unwrap()
    }

    /// Every position reachable from `start`, by brute force (for small positions only).
    fn winnable_by_brute_force(start: &Golf) -> bool {
        start.is_won()
            || start.legal_moves().into_iter().any(|mv| {
                let mut next = start.clone();
                next.apply(mv);
                winnable_by_brute_force(&next)
            })
    }

    #[test]
    fn certificates_replay_to_a_win_and_verdicts_are_exact() {
        let budget = Budget::default();
        let (mut won, mut lost) = (0, 0);
        for seed in 0..40 {
            for wrap in [false, true] {
                let start = deal(seed, wrap);
                match solve(&start, &budget, &mut || false).outcome {
                    Outcome::Solved(moves) => {
                        let mut state = start.clone();
                        for mv in moves {
                            assert!(state.legal_moves().contains(&mv), "{mv} is not legal");
                            state.apply(mv);
                        }
                        assert!(state.is_won());
                        won += 1;
                    }
                    Outcome::Unsolvable => lost += 1,
                    Outcome::Unknown(reason) => panic!("seed {seed}: unknown ({reason})"),
                }
            }
        }
        assert!(won > 0 && lost > 0, "won {won}, lost {lost}");
    }

    #[test]
    fn small_positions_agree_with_brute_force() {
        // Cut each column to its bottom two cards and the stock to six: small enough to
        // search every line of play.
        let budget = Budget::default();
        let mut agreed = [0, 0];
        for seed in 0..60 {
            let mut start = deal(seed, seed % 2 == 0);
            for column in start.columns.iter_mut() {
                column.truncate(2);
            }
            start.stock.drain(..start.stock.len() - 6);
            let exact = winnable_by_brute_force(&start);
            let outcome = solve(&start, &budget, &mut || false).outcome;
            assert_eq!(
                matches!(outcome, Outcome::Solved(_)),
                exact,
                "seed {seed}: {outcome:?}"
            );
            agreed[exact as usize] += 1;
        }
        assert!(agreed[0] > 0 && agreed[1] > 0, "{agreed:?}");
    }

    #[test]
    fn dead_positions_never_change_a_verdict() {
        let budget = Budget::default();
        let mut lost = 0;
        for seed in 0..60 {
            for wrap in [false, true] {
                let start = deal(seed, wrap);
                let full = solve_with(&start, &budget, Pruning::Full, &mut || false).outcome;
                let none = solve_with(&start, &budget, Pruning::None, &mut || false).outcome;
                assert_eq!(
                    matches!(full, Outcome::Solved(_)),
                    matches!(none, Outcome::Solved(_)),
                    "seed {seed}, wrap {wrap}"
                );
                lost += usize::from(full == Outcome::Unsolvable);
            }
        }
        assert!(lost > 20, "{lost}");
    }

    #[test]
    fn neighbours_follow_the_variant() {
        assert!(neighbours(13, 12, false) && neighbours(2, 1, false));
        assert!(!neighbours(12, 13, false), "nothing plays on a King");
        assert!(!neighbours(1, 13, false) && !neighbours(13, 1, false));
        assert!(neighbours(1, 13, true) && neighbours(13, 1, true));
        assert!(!neighbours(5, 5, true));
    }
}
