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
//! each column and of the stock are fixed by the deal. Its moves are plays, each after as
//! few draws as it needs, and it remembers, for every column heights and top rank, the
//! fewest cards drawn it has searched them with (see `solve_with`). Nothing is forgotten,
//! so the search is exact: with a large enough budget every deal is decided.

use std::fmt;

use crate::klondike::InvalidPosition;
use crate::search::{Budget, Meter, Outcome, Report};

pub use crate::search::Pruning;

mod native;
pub mod players;
pub use players::GolfView;

/// Columns in the tableau.
pub const COLUMNS: usize = 7;
/// Cards dealt to each column.
pub const ROWS: usize = 5;

/// A Golf move in the notation of docs/rules.md.
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
    /// The position dealt from `deal` (52 card indices, first-dealt first) as docs/rules.md lays
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
        let cards = crate::shuffle::seeded_indices("golf", seed, 1, 1)?;
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
    /// The rank of the waste's top card.
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

/// For every number of cards drawn and every rank (index rank - 1), the fewest cards drawn
/// after which a card of that rank can go on the waste's top: that draw's stock card is a
/// neighbour. `None` when no card left in the stock is.
fn next_draws(draws: &[u8], wrap: bool) -> Vec<[Option<u8>; 13]> {
    let mut table = vec![[None; 13]; draws.len() + 1];
    for drawn in (0..draws.len()).rev() {
        table[drawn] = table[drawn + 1];
        for r in 1..=13u8 {
            if neighbours(r, rank(draws[drawn]), wrap) {
                table[drawn][usize::from(r - 1)] = Some(drawn as u8 + 1);
            }
        }
    }
    table
}

/// Whether the position is lost because
///
/// - the column cards cannot each have a card of their own to go on (see
///   [`predecessors_suffice`]; this covers black-hole-solver's "rank reachability": a
///   column card with no card of a neighbouring rank left to go on), or
/// - without wrap, more Kings are left in the columns than runs of plays to end: nothing
///   plays on a King, so every King but the last card played is followed by a draw (and a
///   King on the waste needs one first).
///
/// `stock_left` counts the stock's cards by rank, `stock` is their number.
fn is_lost(node: &Node, stock_left: &[u8; 13], stock: u8, wrap: bool) -> bool {
    if !wrap && node.left[12] > stock + u8::from(node.top != 13) {
        return true;
    }
    !predecessors_suffice(node, stock_left, wrap)
}

/// Whether every column card can have a card of its own to go on: each card played from
/// the columns lands on exactly one card (the waste's top now, a stock card, or a column
/// card played before it), and each of those takes at most one, of a neighbouring rank.
/// So there must be a matching of column cards to such cards; by ranks it is a flow along
/// a path of ranks (a cycle with wrap), checked greedily.
fn predecessors_suffice(node: &Node, stock_left: &[u8; 13], wrap: bool) -> bool {
    let mut supply: [u8; 13] = std::array::from_fn(|r| node.left[r] + stock_left[r]);
    supply[usize::from(node.top - 1)] += 1;
    let d = &node.left;
    let s = &supply;
    if !wrap {
        // Nothing goes on a King (s[12] unused). Odd ranks go on even ones along
        // D1 S2 D3 ... S12 D13, even ones on odd along S1 D2 S3 ... D12 S13.
        return chain(
            0,
            &[d[0], d[2], d[4], d[6], d[8], d[10], d[12]],
            &[s[1], s[3], s[5], s[7], s[9], s[11], 0],
        ) && chain(
            s[0],
            &[d[1], d[3], d[5], d[7], d[9], d[11]],
            &[s[2], s[4], s[6], s[8], s[10], 0],
        );
    }
    // One cycle D1 S2 D3 ... D13 S1 D2 ... D12 S13 (then D1 again): each rank once as a
    // demand, once as a supply. Cut at the edge S13-D1, it is a path, for each flow
    // over that edge.
    let demands = [
        d[0], d[2], d[4], d[6], d[8], d[10], d[12], d[1], d[3], d[5], d[7], d[9], d[11],
    ];
    let supplies = [
        s[1], s[3], s[5], s[7], s[9], s[11], s[0], s[2], s[4], s[6], s[8], s[10], s[12],
    ];
    (0..=d[0].min(s[12])).any(|f| {
        let (mut demands, mut supplies) = (demands, supplies);
        demands[0] -= f;
        supplies[12] -= f;
        chain(0, &demands, &supplies)
    })
}

/// Whether the demands along a path `supply0 D0 S0 D1 S1 ...` can all be met, each demand
/// from the supplies beside it: left to right, a demand takes first from the supply
/// before it (which nothing later can use), then from the one after it.
#[inline]
fn chain(supply0: u8, demands: &[u8], supplies: &[u8]) -> bool {
    let mut before = supply0;
    for (&demand, &after) in demands.iter().zip(supplies) {
        let rest = demand - demand.min(before);
        if rest > after {
            return false;
        }
        before = after - rest;
    }
    true
}

impl Node {
    /// The position's place in the table of seen positions: column heights in base 6, then
    /// the top card's rank (the cards drawn are what the table holds).
    fn index(&self) -> usize {
        let mut index = 0usize;
        for &h in &self.heights {
            index = index * (ROWS + 1) + h as usize;
        }
        index * 13 + self.top as usize - 1
    }
}

/// For every column heights and top rank, the fewest cards drawn it was searched with, plus
/// one (0: never). Fewer cards drawn is never worse: from `k` drawn, drawing on to any
/// `k' > k` gives every waste top that `k'` drawn could give. It has a place for every
/// position (3.6 MB), so nothing is forgotten and no budget of states applies. Each thread
/// keeps one and reuses it, clearing only the places the last search wrote: a new table
/// costs a page fault for every page a search touches, as much as a short search itself.
struct Table {
    slots: Vec<u8>,
    touched: Vec<u32>,
}

thread_local! {
    static TABLE: std::cell::RefCell<Table> = const {
        std::cell::RefCell::new(Table { slots: Vec::new(), touched: Vec::new() })
    };
}

impl Table {
    /// Runs `search` with this thread's table, emptied first.
    fn with<T>(search: impl FnOnce(&mut Table) -> T) -> T {
        TABLE.with(|cell| {
            let mut table = cell.borrow_mut();
            table.clear();
            search(&mut table)
        })
    }

    fn clear(&mut self) {
        let size = (ROWS + 1).pow(COLUMNS as u32) * 13;
        if self.slots.len() != size || self.touched.len() > size / 16 {
            self.slots = vec![0; size];
        } else {
            for &index in &self.touched {
                self.slots[index as usize] = 0;
            }
        }
        self.touched.clear();
    }

    /// Records a position; whether it is to be searched: never seen with as few cards drawn.
    fn visit(&mut self, index: usize, drawn: u8) -> bool {
        let slot = &mut self.slots[index];
        if *slot == 0 {
            self.touched.push(index as u32);
        } else if *slot <= drawn + 1 {
            return false;
        }
        *slot = drawn + 1;
        true
    }
}

/// A move of the search: draw until `drawn` cards are drawn (none if already), then play
/// `column`'s exposed card.
#[derive(Clone, Copy, Default)]
struct Step {
    column: u8,
    drawn: u8,
}

struct Frame {
    node: Node,
    steps: [Step; COLUMNS],
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
/// The search's moves are "draw as many cards as it takes (perhaps none), then play a
/// column's card": only a play changes the columns, and between plays the only choice is
/// how far to draw. For each column the search draws as few cards as the play needs,
/// since fewer cards drawn is never worse (see `Table`). So every move empties a place in
/// the columns, a line is at most 35 moves, and a position is searched again only when
/// reached with fewer cards drawn.
///
/// With [`Pruning::None`] positions that `is_lost` would stop at are searched on too (for
/// checking that test).
pub fn solve_with(
    start: &Golf,
    budget: &Budget,
    pruning: Pruning,
    stop: &mut dyn FnMut() -> bool,
) -> Report<GolfMove> {
    let mut meter = Meter::new(budget, stop);
    if start.is_won() {
        return meter.report(Outcome::Solved(Vec::new()));
    }
    let (columns, wrap) = (&start.columns, start.wrap);
    let draws: Vec<u8> = start.stock.iter().rev().copied().collect();
    let next_draws = next_draws(&draws, wrap);
    let expand = |node: &Node| -> Frame {
        let mut frame = Frame {
            node: *node,
            steps: [Step::default(); COLUMNS],
            count: 0,
            next: 0,
        };
        for (i, &h) in node.heights.iter().enumerate() {
            if h == 0 {
                continue;
            }
            let card = rank(columns[i][h as usize - 1]);
            let drawn = if neighbours(card, node.top, wrap) {
                node.drawn
            } else if let Some(drawn) = next_draws[usize::from(node.drawn)][usize::from(card - 1)] {
                drawn
            } else {
                continue;
            };
            // Kept in order of cards drawn, fewest first (plays that need no draw are tried
            // first), then tallest column first: on seeds 0-1,999 that cut the median nodes
            // of a wrap deal from 3,658 to 1,353 and without wrap from 7,139 to 6,273; the
            // other way round was worse in both.
            let order = |step: &Step| {
                let height = node.heights[usize::from(step.column)];
                (step.drawn, std::cmp::Reverse(height))
            };
            let this = (drawn, std::cmp::Reverse(h));
            let mut j = frame.count;
            while j > 0 && order(&frame.steps[j - 1]) > this {
                frame.steps[j] = frame.steps[j - 1];
                j -= 1;
            }
            frame.steps[j] = Step {
                column: i as u8,
                drawn,
            };
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
        top: rank(start.waste_top),
        left,
    };
    let stock_left = stock_ranks(&draws);
    if pruning == Pruning::Full && is_lost(&root, &stock_left[0], draws.len() as u8, wrap) {
        return meter.report(Outcome::Unsolvable);
    }
    let outcome = Table::with(|seen| {
        seen.visit(root.index(), 0);
        let mut stack = vec![expand(&root)];
        while let Some(frame) = stack.last_mut() {
            if frame.next == frame.count {
                stack.pop();
                continue;
            }
            let step = frame.steps[frame.next];
            frame.next += 1;
            if let Err(reason) = meter.tick(u64::MAX) {
                return Outcome::Unknown(reason);
            }
            let mut node = frame.node;
            let i = usize::from(step.column);
            node.heights[i] -= 1;
            node.top = rank(columns[i][usize::from(node.heights[i])]);
            node.left[usize::from(node.top - 1)] -= 1;
            node.drawn = step.drawn;
            if node.heights.iter().all(|&h| h == 0) {
                // each frame's current step, the last of them `step`
                let mut path = Vec::new();
                for frame in &stack {
                    let step = frame.steps[frame.next - 1];
                    path.extend((frame.node.drawn..step.drawn).map(|_| GolfMove::Draw));
                    path.push(GolfMove::Play(step.column));
                }
                return Outcome::Solved(path);
            }
            if !seen.visit(node.index(), node.drawn) {
                continue;
            }
            if pruning == Pruning::Full
                && is_lost(
                    &node,
                    &stock_left[usize::from(node.drawn)],
                    draws.len() as u8 - node.drawn,
                    wrap,
                )
            {
                continue;
            }
            stack.push(expand(&node));
        }
        Outcome::Unsolvable
    });
    meter.report(outcome)
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
                        let state =
                            crate::search::replay(&start, &moves, Golf::legal_moves, Golf::apply);
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
    fn chain_meets_demands_from_either_side() {
        assert!(chain(0, &[1, 1], &[2, 0]));
        assert!(!chain(0, &[2, 1], &[2, 0]));
        assert!(chain(1, &[2], &[1]));
        // the first demand must leave the supply between them to the second
        assert!(chain(1, &[1, 1], &[1, 0]));
        assert!(!chain(1, &[1, 1], &[0, 0]));
        assert!(chain(0, &[], &[]) && chain(3, &[], &[]) && !chain(0, &[1], &[0]));
    }

    #[test]
    fn too_few_cards_to_go_on_is_lost_at_once() {
        // Four Sixes in the columns with only Fives and Sevens to go on: one Seven on the
        // waste, one Five in the stock. Every card has a neighbour somewhere, but four
        // Sixes need four cards under them.
        let (six, five, seven) = (5, 4, 6);
        let start = Golf {
            wrap: false,
            columns: [
                vec![six],
                vec![six + 13],
                vec![six + 26],
                vec![six + 39],
                vec![],
                vec![],
                vec![],
            ],
            stock: vec![five],
            waste_top: seven,
        };
        let report = solve(&start, &Budget::default(), &mut || false);
        assert_eq!(report.outcome, Outcome::Unsolvable);
        assert_eq!(report.nodes, 0, "lost before any move is searched");
        let none = solve_with(&start, &Budget::default(), Pruning::None, &mut || false);
        assert_eq!(none.outcome, Outcome::Unsolvable);
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
