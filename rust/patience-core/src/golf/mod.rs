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
use crate::search::{Budget, FirstMove, FirstMoves, Meter, Outcome, Report};

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
    RANKS[usize::from(card)]
}

/// `card % 13 + 1` for every byte: [`rank`] read from a table (a playout asks at every
/// move, for every column).
const RANKS: [u8; 256] = {
    let mut ranks = [0u8; 256];
    let mut card = 0;
    while card < 256 {
        ranks[card] = (card % 13 + 1) as u8;
        card += 1;
    }
    ranks
};

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

/// Legal moves, at most one a column and `draw`, kept on the stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveList {
    moves: [GolfMove; COLUMNS + 1],
    len: u8,
}

impl MoveList {
    fn new() -> MoveList {
        MoveList {
            moves: [GolfMove::Draw; COLUMNS + 1],
            len: 0,
        }
    }

    fn push(&mut self, mv: GolfMove) {
        self.moves[usize::from(self.len)] = mv;
        self.len += 1;
    }
}

impl std::ops::Deref for MoveList {
    type Target = [GolfMove];

    fn deref(&self) -> &[GolfMove] {
        &self.moves[..usize::from(self.len)]
    }
}

/// The legal moves, in the engine of record's order (playable columns, then `draw`), of a
/// table whose columns' exposed cards are `exposed` (None: an empty column), `waste_top`
/// on the waste and cards in the stock when `stock`: none once every column is empty (the
/// game is won), for a position ([`Golf::legal_moves`]) and a player's view of one
/// ([`GolfView::moves`]) alike.
pub(crate) fn table_moves(
    exposed: impl IntoIterator<Item = Option<u8>>,
    waste_top: u8,
    wrap: bool,
    stock: bool,
) -> MoveList {
    let mut moves = MoveList::new();
    let top = rank(waste_top);
    let mut cards = false;
    for (i, card) in exposed.into_iter().enumerate() {
        if let Some(card) = card {
            cards = true;
            if neighbours(rank(card), top, wrap) {
                moves.push(GolfMove::Play(i as u8));
            }
        }
    }
    if cards && stock {
        moves.push(GolfMove::Draw);
    }
    moves
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
        let exposed = self.columns.iter().map(|column| column.last().copied());
        table_moves(exposed, self.waste_top, self.wrap, !self.stock.is_empty()).to_vec()
    }

    /// Whether [`Golf::legal_moves`] lists `mv` (without listing them).
    pub fn allows(&self, mv: GolfMove) -> bool {
        let has_cards = || self.columns.iter().any(|column| !column.is_empty());
        match mv {
            GolfMove::Play(i) => self.columns.get(usize::from(i)).is_some_and(|column| {
                column
                    .last()
                    .is_some_and(|&card| neighbours(rank(card), rank(self.waste_top), self.wrap))
            }),
            GolfMove::Draw => !self.stock.is_empty() && has_cards(),
        }
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
    /// Cards still in the columns (the sum of `heights`: none left is a win).
    cards: u8,
    /// Cards of each rank still in the columns.
    left: Counts,
    /// The rank of each column's exposed card (0 for an empty column), kept as the
    /// heights change.
    ranks: [u8; COLUMNS],
    /// The column heights' part of the position's place in `Table` (see `Node::index`),
    /// kept as the heights change.
    heights_index: u32,
}

/// Cards of each rank still in the stock after `drawn` draws, for every `drawn`.
fn stock_ranks(draws: &[u8]) -> Vec<Counts> {
    let mut table = vec![Counts::default(); draws.len() + 1];
    for drawn in (0..draws.len()).rev() {
        table[drawn] = table[drawn + 1];
        table[drawn].0[Counts::slot(rank(draws[drawn]))] += 1;
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

/// Cards counted by rank, a byte a rank, the ranks in the order `predecessors_suffice`
/// meets them as demands: Ace, Three, Five, ..., King, then Two,
/// Four, ..., Queen. In that order each rank's supply, the rank above it, is seven places
/// on (see [`Counts::supplies`]), so one rotation lines every demand up with its supply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Counts([u8; 16]);

/// For each rank (1 to 13; 0 unused), where [`Counts`] counts it (read from a table: the
/// search counts at every node).
const SLOTS: [u8; 14] = {
    let mut slots = [0u8; 14];
    let mut rank = 1;
    while rank <= 13 {
        slots[rank] = Counts::place(rank - 1) as u8;
        rank += 1;
    }
    slots
};

impl Counts {
    /// Where rank index `r` (rank - 1) is counted, in bytes.
    const fn place(r: usize) -> usize {
        if r % 2 == 0 {
            r / 2
        } else {
            7 + r / 2
        }
    }

    /// Where a card of rank `rank` (1 to 13) is counted.
    #[inline]
    fn slot(rank: u8) -> usize {
        usize::from(SLOTS[usize::from(rank)])
    }

    /// The counts of the ranks one above each (King above Queen, Ace above King), in the
    /// same places: the supply beside each demand.
    #[inline]
    fn supplies(self) -> [u8; 16] {
        std::array::from_fn(|k| self.0[(k + 7) % 13])
    }

    /// The counts of `self` and `other` added place by place.
    #[inline]
    fn plus(self, other: Counts) -> Counts {
        Counts(std::array::from_fn(|k| self.0[k] + other.0[k]))
    }
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
#[inline]
fn is_lost(node: &Node, stock_left: Counts, stock: u8, wrap: bool) -> bool {
    if !wrap && node.left.of_kings() > stock + u8::from(node.top != 13) {
        return true;
    }
    !predecessors_suffice(node, stock_left, wrap)
}

impl Counts {
    /// The Kings counted.
    #[inline]
    fn of_kings(self) -> u8 {
        self.0[Counts::place(12)]
    }
}

/// Whether every column card can have a card of its own to go on: each card played from
/// the columns lands on exactly one card (the waste's top now, a stock card, or a column
/// card played before it), and each of those takes at most one, of a neighbouring rank.
/// So there must be a matching of column cards to such cards; by ranks it is a flow along
/// a path of ranks (a cycle with wrap), checked greedily: left to right, a demand takes
/// first from the supply before it (which nothing later can use), then from the one after
/// it.
///
/// Without wrap nothing goes on a King (its supply is unused): odd ranks go on even ones
/// along D1 S2 D3 ... S12 D13, even ones on odd along S1 D2 S3 ... D12 S13. With wrap it
/// is one cycle D1 S2 D3 ... D13 S1 D2 ... D12 S13 (then D1 again), each rank once as a
/// demand, once as a supply; cut at the edge S13-D1 it is a path, for each flow `f` over
/// that edge (which meets `f` of D1's demand before the path starts and takes `f` of S13's
/// supply at its end). A larger `f` only helps the path's earlier demands and never the
/// last: each card more at the start meets at most one card more of the last demand, and
/// takes one from its supply. So the first `f` that meets the earlier demands decides.
#[inline]
fn predecessors_suffice(node: &Node, stock_left: Counts, wrap: bool) -> bool {
    let demands = node.left.0;
    let mut supply = node.left.plus(stock_left);
    supply.0[Counts::slot(node.top)] += 1;
    let supplies = supply.supplies();
    if !wrap {
        let (met, before) = walk(0, &demands, &supplies, 0..6);
        if !met || demands[6] > before {
            return false;
        }
        let (met, before) = walk(supplies[6], &demands, &supplies, 7..12);
        return met && demands[12] <= before;
    }
    cycle_suffices(&demands, &supplies)
}

/// The wrap case of [`predecessors_suffice`] in one pass instead of a walk for each flow `f`
/// over the cut edge in turn: the same answer (see `packed_is_lost_agrees_with_the_first_one`).
///
/// The walk from `f` leaves `b(k + 1) = min(s(k), b(k) + e(k))` of supply `k` after demand
/// `k` (`e(k) = s(k) - d(k)`), and fails at demand `k` when `b(k) + e(k) < 0`. Unrolled,
/// `b(k) = min(f + Q(k), R(k))`, `Q(k)` the sum of `e` before `k` and `R(k + 1) = min(s(k),
/// R(k) + e(k))` (`R(0)` infinite): so the walk fails at `k` for every `f` when `R(k) + e(k)
/// < 0`, and else only for `f < -Q(k + 1)`. The first `f` that meets every demand before
/// the last is thus `f* = max(0, -min Q)` (never more than `d(0)`: at `f = d(0)` the walk
/// is the one from the supply after the first demand, which `R` already follows), found
/// when `f* <= s(12)`, and the last demand is met when `d(12) <= b(12) + s(12) - f*`.
#[inline]
fn cycle_suffices(demands: &[u8; 16], supplies: &[u8; 16]) -> bool {
    let mut sum = 0i32; // Q
    let mut least = 0i32; // min(0, Q so far)
    let mut cap = i32::from(u8::MAX); // R
    for k in 0..12 {
        let (d, s) = (i32::from(demands[k]), i32::from(supplies[k]));
        let rest = cap + s - d;
        if rest < 0 {
            return false;
        }
        cap = s.min(rest);
        sum += s - d;
        least = least.min(sum);
    }
    let (f, last) = (-least, i32::from(supplies[12]));
    f <= last && i32::from(demands[12]) <= (f + sum).min(cap) + last - f
}

/// The greedy walk of [`predecessors_suffice`] over the places `places` of the demands and
/// supplies, `before` the supply before the first: whether each demand was met (from the
/// supply before it, then the one after it), and what is left of the last supply.
#[inline]
fn walk(
    before: u8,
    demands: &[u8; 16],
    supplies: &[u8; 16],
    places: std::ops::Range<usize>,
) -> (bool, u8) {
    let mut before = before;
    for k in places {
        let rest = demands[k] - demands[k].min(before);
        if rest > supplies[k] {
            return (false, 0);
        }
        before = supplies[k] - rest;
    }
    (true, before)
}

/// What the place of a position in `Table` gains for each card of a column: column heights
/// in base 6 (the first column most significant), then the top card's rank.
const HEIGHT_WEIGHTS: [u32; COLUMNS] = {
    let mut weights = [0u32; COLUMNS];
    let mut i = COLUMNS;
    let mut weight = 13u32;
    while i > 0 {
        i -= 1;
        weights[i] = weight;
        weight *= (ROWS + 1) as u32;
    }
    weights
};

impl Node {
    /// The position's place in the table of seen positions: column heights in base 6, then
    /// the top card's rank (the cards drawn are what the table holds).
    #[inline]
    fn index(&self) -> usize {
        self.heights_index as usize + usize::from(self.top) - 1
    }
}

/// For every column heights and top rank, the fewest cards drawn it was searched with, plus
/// one (0: never), and whether it was searched on ([`SEARCHED_ON`]). Fewer cards drawn is never worse: from `k` drawn, drawing on to any
/// `k' > k` gives every waste top that `k'` drawn could give. It has a place for every
/// position (3.6 MB), so nothing is forgotten and no budget of states applies. Each thread
/// keeps one and reuses it, clearing only the places the last search wrote: a new table
/// costs a page fault for every page a search touches, as much as a short search itself.
struct Table {
    slots: Vec<u8>,
    touched: Vec<u32>,
}

/// A thread's table and its search's stack of frames (kept, like the table, from one
/// search to the next).
struct Kept {
    table: Table,
    stack: Vec<Frame>,
}

thread_local! {
    static KEPT: std::cell::RefCell<Kept> = const {
        std::cell::RefCell::new(Kept {
            table: Table { slots: Vec::new(), touched: Vec::new() },
            stack: Vec::new(),
        })
    };
}

impl Table {
    /// Runs `search` with this thread's table, emptied first unless `fresh` is false (then
    /// as the last search left it), and an empty stack.
    fn with<T>(fresh: bool, search: impl FnOnce(&mut Table, &mut Vec<Frame>) -> T) -> T {
        KEPT.with(|cell| {
            let kept = &mut *cell.borrow_mut();
            if fresh || kept.table.slots.is_empty() {
                kept.table.clear();
            }
            kept.stack.clear();
            search(&mut kept.table, &mut kept.stack)
        })
    }

    /// Forgets the position at `index`: as if never seen.
    #[inline]
    fn forget(&mut self, index: usize) {
        self.slots[index] = 0;
    }

    /// Notes that the position at `index` is won with `drawn` cards drawn (so with as few
    /// or fewer too).
    #[inline]
    fn won(&mut self, index: usize, drawn: u8) {
        self.slots[index] = (drawn + 1) | WON;
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

    /// Records a position; whether it is to be searched (never seen with as few cards
    /// drawn), and whether it was searched on before, with more cards drawn. For a table
    /// that holds no position known won ([`WON`]): a fresh one.
    #[inline]
    fn visit(&mut self, index: usize, drawn: u8) -> Visit {
        let slot = &mut self.slots[index];
        if *slot == 0 {
            self.touched.push(index as u32);
        } else if *slot & !SEARCHED_ON <= drawn + 1 {
            return Visit::Seen;
        }
        let before = *slot & SEARCHED_ON;
        *slot = (drawn + 1) | before;
        if before == 0 {
            Visit::New
        } else {
            Visit::SearchedOn
        }
    }

    /// [`Table::visit`] for a table kept from an earlier search, which may hold positions
    /// known won: [`Visit::Won`] for one won with as many cards drawn or more.
    #[inline]
    fn visit_kept(&mut self, index: usize, drawn: u8) -> Visit {
        let slot = &mut self.slots[index];
        if *slot == 0 {
            self.touched.push(index as u32);
        } else if *slot & !SEARCHED_ON <= drawn + 1 {
            return Visit::Seen;
        } else if *slot & WON != 0 {
            if drawn < *slot & !WON {
                return Visit::Won;
            }
            *slot = drawn + 1; // won with fewer cards drawn only: to be searched
            return Visit::New;
        }
        let before = *slot & SEARCHED_ON;
        *slot = (drawn + 1) | before;
        if before == 0 {
            Visit::New
        } else {
            Visit::SearchedOn
        }
    }

    /// Notes that the position at `index`, just visited, is searched on: `is_lost` did
    /// not stop at it.
    #[inline]
    fn searched_on(&mut self, index: usize) {
        self.slots[index] |= SEARCHED_ON;
    }
}

/// A slot's flag in `Table`: the position was searched on (`is_lost` did not stop at it)
/// with the cards drawn it held then, or more. Then it is not lost with fewer either:
/// fewer cards drawn leave the same columns and top card and more in the stock, which only
/// adds supply to `predecessors_suffice` (each demand's walk only gains) and stock to the
/// Kings' count; so `is_lost` is not asked again.
const SEARCHED_ON: u8 = 0x80;

/// A slot's flag in `Table`: the position is won with the cards drawn the slot holds, or
/// fewer (it was on the line of a search that won; see [`solve_sharing_first_moves`]).
/// Only a table kept from one search to the next holds it.
const WON: u8 = 0x40;

/// What [`Table::visit`] found.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Visit {
    /// Seen with as few cards drawn: not to be searched.
    Seen,
    /// To be searched, never searched on with more cards drawn.
    New,
    /// To be searched, and searched on before with more cards drawn: not lost.
    SearchedOn,
    /// Won with as many cards drawn or more (only in a table kept from an earlier search).
    Won,
}

/// A move of the search: draw until `drawn` cards are drawn (none if already), then play
/// `column`'s exposed card.
#[derive(Clone, Copy)]
struct Step {
    column: u8,
    drawn: u8,
}

struct Frame {
    node: Node,
    /// The steps in the order of search (see `Layout::expand`), each as its key there:
    /// cards drawn, then rows not dealt to the column, then the column (see `Frame::step`).
    keys: [u16; COLUMNS],
    count: u8,
    next: u8,
}

impl Frame {
    /// Step `j` of the frame.
    #[inline]
    fn step(&self, j: u8) -> Step {
        let key = self.keys[usize::from(j)];
        Step {
            column: (key & 7) as u8,
            drawn: (key >> 6) as u8,
        }
    }
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
    search(start, budget, pruning, stop, None).0
}

/// [`solve`], with what the search learned of the start's first moves by the way, for a
/// deal it wins (nothing otherwise): the same report, node for node.
///
/// - A play the search tried before the one it won by was searched out: lost
///   ([`FirstMove::Lost`]). Its position (one card fewer in its column, nothing drawn) is
///   reached from the start only by that play, and every position the search passed over
///   was searched out before (the columns only shrink along a line, so none is on the
///   line being searched), or lost by `is_lost`, or searched already with as few cards
///   drawn.
/// - The play it won by, when it was the first move tried: a search from after it is this
///   search's, node for node, less the play's own node ([`FirstMove::WonAt`]): its table
///   held only the start, whose column heights no later position has.
/// - `draw`, when no column plays on the waste at the start (`draw` is the only move):
///   a search from after it has the same moves in the same order (a column that plays on
///   the card drawn is played after one draw from the start too) and is this search, node
///   for node, its cards drawn counted from one.
pub fn solve_noting_first_moves(
    start: &Golf,
    budget: &Budget,
    stop: &mut dyn FnMut() -> bool,
) -> (Report<GolfMove>, FirstMoves<GolfMove>) {
    search(start, budget, Pruning::Full, stop, None)
}

/// A first move's search by [`solve_sharing_first_moves`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FirstMoveSearch {
    /// The move.
    pub mv: GolfMove,
    /// Whether a win was found within the budget (or the move wins the game at once).
    pub won: bool,
    /// Whether its search ran out of budget first (neither won nor lost within it).
    pub undecided: bool,
    /// The nodes its own search took (0 when the certifying search's notes answered it).
    pub nodes: u64,
}

/// Certifies `start` within `budget` as [`solve_noting_first_moves`] does (the same report,
/// node for node) and, for a deal it wins, searches each legal first move (in the order of
/// [`Golf::legal_moves`]) within `first_moves`, each search keeping the table the searches
/// before it left: a position one of them searched out (lost, with as few cards drawn) is
/// not searched again, and one on the line of a win (won, with as many cards drawn or
/// more) ends the search in a win at once. The positions on the line of a search that ran
/// out of budget are forgotten (not known). So a search decides its move as a search alone
/// would (the same verdict, won or lost, when both decide it), in as many nodes or fewer;
/// a move whose search alone would run out of budget may be decided within it. A first
/// move the certifying search answers (see [`solve_noting_first_moves`]) is judged by that
/// answer and not searched: lost, or won (its position is on the certifying win's line).
pub fn solve_sharing_first_moves(
    start: &Golf,
    budget: &Budget,
    first_moves: &Budget,
    stop: &mut dyn FnMut() -> bool,
) -> (Report<GolfMove>, Vec<FirstMoveSearch>) {
    let (report, known) = search(start, budget, Pruning::Full, stop, None);
    if !matches!(report.outcome, Outcome::Solved(_)) {
        return (report, Vec::new());
    }
    let searched = start
        .legal_moves()
        .into_iter()
        .map(|mv| {
            let mut after = start.clone();
            after.apply(mv);
            let (won, undecided, nodes) = if after.is_won() {
                (true, false, 0)
            } else {
                match known.iter().find(|(first, _)| *first == mv) {
                    Some((_, FirstMove::Lost)) => (false, false, 0),
                    Some((_, FirstMove::WonAt(_))) => (true, false, 0),
                    None => {
                        let drawn = u8::from(mv == GolfMove::Draw);
                        let (alone, _) =
                            search(&after, first_moves, Pruning::Full, stop, Some(drawn));
                        let won = matches!(alone.outcome, Outcome::Solved(_));
                        let undecided = matches!(alone.outcome, Outcome::Unknown(_));
                        (won, undecided, alone.nodes)
                    }
                }
            };
            FirstMoveSearch {
                mv,
                won,
                undecided,
                nodes,
            }
        })
        .collect();
    (report, searched)
}

/// [`solve_with`] and what [`solve_noting_first_moves`] notes. With `shared` (`Some(d)`)
/// the search keeps the table the last search on this thread left (a search of the same
/// deal, `start` being `d` cards further drawn than its start) instead of emptying it;
/// without, a fresh table. Either way, on the way out, the positions on its line are noted
/// won when it won (its path then ends at the first position known won, in a kept table)
/// and forgotten when it ran out (see [`solve_sharing_first_moves`]).
fn search(
    start: &Golf,
    budget: &Budget,
    pruning: Pruning,
    stop: &mut dyn FnMut() -> bool,
    shared: Option<u8>,
) -> (Report<GolfMove>, FirstMoves<GolfMove>) {
    let offset = shared.unwrap_or(0);
    let mut meter = Meter::new(budget, stop);
    if start.is_won() {
        return (meter.report(Outcome::Solved(Vec::new())), Vec::new());
    }
    let wrap = start.wrap;
    let draws: Vec<u8> = start.stock.iter().rev().copied().collect();
    let layout = Layout::new(start, &draws);
    let mut left = Counts::default();
    for &card in start.columns.iter().flatten() {
        left.0[Counts::slot(rank(card))] += 1;
    }
    let heights: [u8; COLUMNS] = std::array::from_fn(|i| start.columns[i].len() as u8);
    let root = Node {
        heights,
        drawn: 0,
        top: rank(start.waste_top),
        cards: heights.iter().sum(),
        left,
        ranks: std::array::from_fn(|i| layout.exposed[i][usize::from(heights[i])]),
        heights_index: heights
            .iter()
            .zip(HEIGHT_WEIGHTS)
            .map(|(&h, weight)| u32::from(h) * weight)
            .sum(),
    };
    let stock_left = stock_ranks(&draws);
    if pruning == Pruning::Full && is_lost(&root, stock_left[0], draws.len() as u8, wrap) {
        return (meter.report(Outcome::Unsolvable), Vec::new());
    }
    let mut noted = Vec::new();
    let outcome = Table::with(shared.is_none(), |seen, stack| {
        match seen.visit_kept(root.index(), offset) {
            Visit::Seen => return Outcome::Unsolvable, // searched out by an earlier search
            Visit::Won => return Outcome::Solved(Vec::new()), // on an earlier search's win
            Visit::New | Visit::SearchedOn => {}
        }
        layout.expand(&root, stack);
        let walk = if shared.is_some() {
            search_loop::<true>
        } else {
            search_loop::<false>
        };
        let outcome = walk(
            &layout,
            seen,
            stack,
            &mut meter,
            pruning,
            offset,
            wrap,
            &draws,
            &stock_left,
            &mut noted,
        );
        // the positions on the line are won, or not known: not to be taken for lost
        for frame in stack.iter() {
            if matches!(outcome, Outcome::Solved(_)) {
                seen.won(frame.node.index(), frame.node.drawn + offset);
            } else {
                seen.forget(frame.node.index());
            }
        }
        outcome
    });
    (meter.report(outcome), noted)
}

/// The loop of [`search`]; `KEPT` when its table is kept from an earlier search (then its
/// cards drawn are counted from `offset` and it may meet positions known won).
#[allow(clippy::too_many_arguments)]
fn search_loop<const KEPT: bool>(
    layout: &Layout,
    seen: &mut Table,
    stack: &mut Vec<Frame>,
    meter: &mut Meter<'_>,
    pruning: Pruning,
    offset: u8,
    wrap: bool,
    draws: &[u8],
    stock_left: &[Counts],
    noted: &mut FirstMoves<GolfMove>,
) -> Outcome<GolfMove> {
    // the nodes are counted here, and the meter asked only at the count where it looks at
    // more than the count (`Meter::next_check`): the same answers, at the same nodes
    let mut nodes = meter.nodes;
    let mut check_at = meter.next_check();
    let outcome = search_steps::<KEPT>(
        layout,
        seen,
        stack,
        pruning,
        offset,
        wrap,
        draws,
        stock_left,
        noted,
        &mut || {
            nodes += 1;
            if nodes >= check_at {
                meter.nodes = nodes - 1;
                meter.tick(u64::MAX)?;
                check_at = meter.next_check();
            }
            Ok(nodes)
        },
    );
    meter.nodes = nodes;
    outcome
}

/// [`search_loop`]'s steps, `tick` counting each node (the count, or why to stop).
#[allow(clippy::too_many_arguments)]
#[inline]
fn search_steps<const KEPT: bool>(
    layout: &Layout,
    seen: &mut Table,
    stack: &mut Vec<Frame>,
    pruning: Pruning,
    offset: u8,
    wrap: bool,
    draws: &[u8],
    stock_left: &[Counts],
    noted: &mut FirstMoves<GolfMove>,
    tick: &mut impl FnMut() -> Result<u64, String>,
) -> Outcome<GolfMove> {
    while let Some(frame) = stack.last_mut() {
        if frame.next == frame.count {
            stack.pop();
            continue;
        }
        let step = frame.step(frame.next);
        frame.next += 1;
        let nodes = match tick() {
            Ok(nodes) => nodes,
            Err(reason) => return Outcome::Unknown(reason),
        };
        // the child's place in the table first: most children were seen already (with as
        // few cards drawn), and are left without being made
        let i = usize::from(step.column);
        let top = frame.node.ranks[i];
        if frame.node.cards == 1 {
            *noted = first_moves(&stack[0], nodes);
            return Outcome::Solved(line(stack));
        }
        let index = (frame.node.heights_index - HEIGHT_WEIGHTS[i]) as usize + usize::from(top) - 1;
        let visit = if KEPT {
            seen.visit_kept(index, step.drawn + offset)
        } else {
            seen.visit(index, step.drawn)
        };
        if visit == Visit::Seen {
            continue;
        }
        let mut node = frame.node;
        node.heights[i] -= 1;
        node.heights_index -= HEIGHT_WEIGHTS[i];
        node.cards -= 1;
        node.top = top;
        node.ranks[i] = layout.exposed[i][usize::from(node.heights[i] & 7)];
        node.left.0[Counts::slot(top)] -= 1;
        node.drawn = step.drawn;
        debug_assert_eq!(node.index(), index);
        match visit {
            Visit::Seen => continue,
            Visit::Won => return Outcome::Solved(line(stack)),
            Visit::New if pruning == Pruning::Full => {
                if is_lost(
                    &node,
                    stock_left[usize::from(node.drawn)],
                    draws.len() as u8 - node.drawn,
                    wrap,
                ) {
                    continue;
                }
                seen.searched_on(index);
            }
            Visit::New | Visit::SearchedOn => {}
        }
        layout.expand(&node, stack);
    }
    Outcome::Unsolvable
}

/// The moves of the line the search is on: each frame's current step, the last of them
/// the step just taken.
fn line(stack: &[Frame]) -> Vec<GolfMove> {
    let mut path = Vec::new();
    for frame in stack {
        let step = frame.step(frame.next - 1);
        path.extend((frame.node.drawn..step.drawn).map(|_| GolfMove::Draw));
        path.push(GolfMove::Play(step.column));
    }
    path
}

/// What [`solve_noting_first_moves`] notes of the first moves from the start's frame
/// `root`, its current step the one won by at node `nodes` (see there).
fn first_moves(root: &Frame, nodes: u64) -> FirstMoves<GolfMove> {
    let won = usize::from(root.next) - 1;
    let steps: Vec<Step> = (0..root.count).map(|j| root.step(j)).collect();
    let mut noted: FirstMoves<GolfMove> = steps[..won]
        .iter()
        .filter(|step| step.drawn == 0)
        .map(|step| (GolfMove::Play(step.column), FirstMove::Lost))
        .collect();
    if won == 0 && steps[0].drawn == 0 {
        noted.push((GolfMove::Play(steps[0].column), FirstMove::WonAt(nodes - 1)));
    }
    if steps.iter().all(|step| step.drawn > 0) {
        noted.push((GolfMove::Draw, FirstMove::WonAt(nodes)));
    }
    noted
}

/// What the search reads of the start, laid out for it: each column's ranks, and for each
/// cards drawn and top rank, how many cards a play of each rank needs drawn. Rank 0 stands
/// for no card (an empty column's), which goes on nothing, so that the search needs no test
/// for it.
struct Layout {
    /// For each column and height (0 to 7), the rank of the card exposed at that height
    /// (0 at height 0, and above the column's cards).
    exposed: [[u8; 8]; COLUMNS],
    /// For every number of cards drawn and top rank (1 to 13; 0 unused), the cards drawn
    /// after which a card of each rank (index rank) plays on the waste: as many as now when
    /// it goes on the top, else `next_draws`'s, [`NEVER`] when no card left in the stock
    /// takes it (or for no card).
    drawn_to_play: Vec<[[u8; 16]; 14]>,
}

/// In [`Layout::drawn_to_play`]: no card drawn from here on lets the card play.
const NEVER: u8 = u8::MAX;

impl Layout {
    fn new(start: &Golf, draws: &[u8]) -> Layout {
        let mut exposed = [[0u8; 8]; COLUMNS];
        for (column, cards) in exposed.iter_mut().zip(&start.columns) {
            for (slot, &card) in column[1..].iter_mut().zip(cards) {
                *slot = rank(card);
            }
        }
        // the ranks that go on each top rank
        let on: [Vec<usize>; 14] = std::array::from_fn(|top| {
            (1..=13u8)
                .filter(|&r| top > 0 && neighbours(r, top as u8, start.wrap))
                .map(usize::from)
                .collect()
        });
        let drawn_to_play = next_draws(draws, start.wrap)
            .iter()
            .enumerate()
            .map(|(drawn, row)| {
                let mut later = [NEVER; 16];
                for (slot, next) in later[1..].iter_mut().zip(row) {
                    *slot = next.unwrap_or(NEVER);
                }
                std::array::from_fn(|top| {
                    let mut by_rank = later;
                    for &r in &on[top] {
                        by_rank[r] = drawn as u8;
                    }
                    by_rank
                })
            })
            .collect();
        Layout {
            exposed,
            drawn_to_play,
        }
    }

    /// Pushes the frame of `node` on `stack`: its moves, each column's play after as few
    /// draws as it needs, in the order they are searched.
    #[inline]
    fn expand(&self, node: &Node, stack: &mut Vec<Frame>) {
        let drawn_to_play = &self.drawn_to_play[usize::from(node.drawn)][usize::from(node.top)];
        // Kept in order of cards drawn, fewest first (plays that need no draw are tried
        // first), then tallest column first, then by column: on seeds 0-1,999 that cut the
        // median nodes of a wrap deal from 3,658 to 1,353 and without wrap from 7,139 to
        // 6,273; the other way round was worse in both. As one number: cards drawn, then
        // rows not dealt to the column, then the column. A column that cannot play
        // ([`NEVER`]) has a key above every play's, so it sorts after them, past `count`.
        // Every column's key is made and the seven sorted without a branch on them: the
        // branches of an insertion of the plays alone were mispredicted about six times a
        // frame.
        let mut keys: [u16; COLUMNS] = std::array::from_fn(|i| {
            let drawn = drawn_to_play[usize::from(node.ranks[i] & 15)];
            u16::from(drawn) << 6 | u16::from(ROWS as u8 - node.heights[i]) << 3 | i as u16
        });
        let count = node
            .ranks
            .iter()
            .map(|&card| u8::from(drawn_to_play[usize::from(card & 15)] != NEVER))
            .sum();
        sort_seven(&mut keys);
        stack.push(Frame {
            node: *node,
            keys,
            count,
            next: 0,
        });
    }
}

/// Sorts seven keys, smallest first, by a sorting network of 16 comparisons (each a
/// minimum and a maximum, without a branch).
#[inline]
fn sort_seven(keys: &mut [u16; COLUMNS]) {
    const NETWORK: [(usize, usize); 16] = [
        (0, 6),
        (2, 3),
        (4, 5),
        (0, 2),
        (1, 4),
        (3, 6),
        (0, 1),
        (2, 5),
        (3, 4),
        (1, 2),
        (4, 6),
        (2, 3),
        (4, 5),
        (1, 2),
        (3, 4),
        (5, 6),
    ];
    for (a, b) in NETWORK {
        let (low, high) = (keys[a].min(keys[b]), keys[a].max(keys[b]));
        keys[a] = low;
        keys[b] = high;
    }
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
    fn first_moves_noted_are_answered_as_their_own_searches_answer() {
        let budget = Budget {
            max_nodes: 2_000_000, // a catalog's certifying search
            ..Budget::default()
        };
        let mut kinds = [0u32; 3]; // lost, play won at, draw won at
        for seed in 0..500 {
            for wrap in [false, true] {
                let start = deal(seed, wrap);
                let plain = solve(&start, &budget, &mut || false);
                let (report, noted) = solve_noting_first_moves(&start, &budget, &mut || false);
                assert_eq!(
                    (&report.outcome, report.nodes),
                    (&plain.outcome, plain.nodes)
                );
                if !matches!(report.outcome, Outcome::Solved(_)) {
                    assert!(noted.is_empty());
                }
                for &(mv, first) in &noted {
                    assert!(start.legal_moves().contains(&mv), "seed {seed}: {mv}");
                    let mut after = start.clone();
                    after.apply(mv);
                    let alone = solve(&after, &budget, &mut || false);
                    match first {
                        FirstMove::Lost => {
                            // lost, or beyond the budget
                            let lost = matches!(alone.outcome, Outcome::Unsolvable);
                            assert!(lost || alone.nodes > budget.max_nodes, "seed {seed}: {mv}");
                            kinds[0] += 1;
                        }
                        FirstMove::WonAt(nodes) => {
                            assert!(matches!(alone.outcome, Outcome::Solved(_)));
                            assert_eq!(alone.nodes, nodes, "seed {seed}: {mv}");
                            if nodes > 0 {
                                // one node fewer and the search runs out
                                let short = Budget {
                                    max_nodes: nodes - 1,
                                    ..budget.clone()
                                };
                                let cut = solve(&after, &short, &mut || false).outcome;
                                assert!(matches!(cut, Outcome::Unknown(_)), "seed {seed}: {mv}");
                            }
                            kinds[1 + usize::from(mv == GolfMove::Draw)] += 1;
                        }
                    }
                }
            }
        }
        assert!(kinds.iter().all(|&n| n > 10), "{kinds:?}");
    }

    #[test]
    fn a_first_move_noted_is_never_searched_again_and_the_count_is_unchanged() {
        let budget = Budget::default();
        let mut skipped = 0;
        for seed in 0..150 {
            for wrap in [false, true] {
                let start = deal(seed, wrap);
                let (report, noted) = solve_noting_first_moves(&start, &budget, &mut || false);
                if !matches!(report.outcome, Outcome::Solved(_)) {
                    continue;
                }
                // budgets about which the searches after first moves are won or run out
                for max_nodes in [0, 30, 300, 3_000, 200_000] {
                    let first_moves = Budget {
                        max_nodes,
                        ..budget.clone()
                    };
                    let mut search = |after: &Golf| {
                        let outcome = solve(after, &first_moves, &mut || false).outcome;
                        matches!(outcome, Outcome::Solved(_))
                    };
                    let every =
                        crate::game::winning_first_moves(&start, &[], max_nodes, &mut search);
                    let mut searched = Vec::new();
                    let fewer =
                        crate::game::winning_first_moves(&start, &noted, max_nodes, |after| {
                            searched.push(after.clone());
                            search(after)
                        });
                    assert_eq!(fewer, every, "seed {seed}, wrap {wrap}, {max_nodes} nodes");
                    for &(mv, _) in &noted {
                        let mut after = start.clone();
                        after.apply(mv);
                        assert!(!searched.contains(&after), "seed {seed}: {mv} searched");
                    }
                    assert_eq!(searched.len() + noted.len(), start.legal_moves().len());
                    skipped += noted.len();
                }
            }
        }
        assert!(skipped > 500, "{skipped}");
    }

    #[test]
    fn first_moves_searched_sharing_a_table_keep_their_verdicts_for_fewer_nodes() {
        let budget = Budget {
            max_nodes: 2_000_000, // a catalog's certifying search
            ..Budget::default()
        };
        let exact = Budget {
            max_nodes: 5_000_000,
            ..Budget::default()
        };
        let (mut decided_more, mut cheaper, mut won_at_once) = (0, 0, 0);
        for seed in 0..120 {
            for wrap in [false, true] {
                let start = deal(seed, wrap);
                let plain = solve(&start, &budget, &mut || false);
                for max_nodes in [300, 5_000, 200_000] {
                    let first_moves = Budget {
                        max_nodes,
                        ..Budget::default()
                    };
                    let (report, searched) =
                        solve_sharing_first_moves(&start, &budget, &first_moves, &mut || false);
                    // the certifying search is the plain one, node for node
                    assert_eq!(
                        (&report.outcome, report.nodes),
                        (&plain.outcome, plain.nodes)
                    );
                    if !matches!(report.outcome, Outcome::Solved(_)) {
                        assert!(searched.is_empty());
                        continue;
                    }
                    let legal = start.legal_moves();
                    assert_eq!(searched.iter().map(|s| s.mv).collect::<Vec<_>>(), legal);
                    for first in &searched {
                        let mut after = start.clone();
                        after.apply(first.mv);
                        let what = format!("seed {seed}, wrap {wrap}, {max_nodes}: {}", first.mv);
                        assert!(!(first.won && first.undecided), "{what}");
                        assert!(first.nodes <= max_nodes + 1, "{what}");
                        // a verdict it reaches is the exact one
                        let truth = solve(&after, &exact, &mut || false).outcome;
                        if first.won {
                            assert!(matches!(truth, Outcome::Solved(_)), "{what}");
                        } else if !first.undecided {
                            assert!(matches!(truth, Outcome::Unsolvable), "{what}");
                        }
                        // a move its own search decides within the budget is decided alike,
                        // in as many nodes or fewer
                        let alone = solve(&after, &first_moves, &mut || false);
                        match alone.outcome {
                            Outcome::Unknown(_) => decided_more += usize::from(!first.undecided),
                            Outcome::Solved(_) => {
                                assert!(first.won, "{what}");
                                assert!(first.nodes <= alone.nodes, "{what}");
                                cheaper += usize::from(first.nodes < alone.nodes);
                                won_at_once += usize::from(first.nodes == 0);
                            }
                            Outcome::Unsolvable => {
                                assert!(!first.won && !first.undecided, "{what}");
                                assert!(first.nodes <= alone.nodes, "{what}");
                                cheaper += usize::from(first.nodes < alone.nodes);
                            }
                        }
                    }
                }
            }
        }
        // the table pays: searches cut short, moves decided only with it, wins found at once
        let counts = format!("{cheaper} cheaper, {decided_more} decided, {won_at_once} at once");
        assert!(
            cheaper > 100 && decided_more > 5 && won_at_once > 10,
            "{counts}"
        );
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

    /// `is_lost` as it was first written, rank by rank (index rank - 1), for checking the
    /// packed one against: the flow over the cycle's cut edge tried for every value.
    mod reference {
        pub fn is_lost(
            left: &[u8; 13],
            top: u8,
            stock_left: &[u8; 13],
            stock: u8,
            wrap: bool,
        ) -> bool {
            if !wrap && left[12] > stock + u8::from(top != 13) {
                return true;
            }
            let mut supply: [u8; 13] = std::array::from_fn(|r| left[r] + stock_left[r]);
            supply[usize::from(top - 1)] += 1;
            let (d, s) = (left, &supply);
            if !wrap {
                return !(chain(
                    0,
                    &[d[0], d[2], d[4], d[6], d[8], d[10], d[12]],
                    &[s[1], s[3], s[5], s[7], s[9], s[11], 0],
                ) && chain(
                    s[0],
                    &[d[1], d[3], d[5], d[7], d[9], d[11]],
                    &[s[2], s[4], s[6], s[8], s[10], 0],
                ));
            }
            let demands = [
                d[0], d[2], d[4], d[6], d[8], d[10], d[12], d[1], d[3], d[5], d[7], d[9], d[11],
            ];
            let supplies = [
                s[1], s[3], s[5], s[7], s[9], s[11], s[0], s[2], s[4], s[6], s[8], s[10], s[12],
            ];
            !(0..=d[0].min(s[12])).any(|f| {
                let (mut demands, mut supplies) = (demands, supplies);
                demands[0] -= f;
                supplies[12] -= f;
                chain(0, &demands, &supplies)
            })
        }

        /// Whether the demands along a path `supply0 D0 S0 D1 S1 ...` can all be met, each
        /// demand from the supplies beside it, greedily.
        pub fn chain(supply0: u8, demands: &[u8], supplies: &[u8]) -> bool {
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
    }

    #[test]
    fn chain_meets_demands_from_either_side() {
        use reference::chain;
        assert!(chain(0, &[1, 1], &[2, 0]));
        assert!(!chain(0, &[2, 1], &[2, 0]));
        assert!(chain(1, &[2], &[1]));
        // the first demand must leave the supply between them to the second
        assert!(chain(1, &[1, 1], &[1, 0]));
        assert!(!chain(1, &[1, 1], &[0, 0]));
        assert!(chain(0, &[], &[]) && chain(3, &[], &[]) && !chain(0, &[1], &[0]));
    }

    #[test]
    fn packed_is_lost_agrees_with_the_first_one() {
        // Every card of every rank dealt at random to the columns, the stock, the waste's
        // top (one card) or elsewhere (played), a million times a variant: the packed test,
        // which stops at the first flow over the cut edge that meets the earlier demands,
        // says what trying every flow says.
        let mut rng = crate::shuffle::SplitMix64::new(7);
        let mut lost = [0u32; 2];
        for case in 0..2_000_000u32 {
            let wrap = case % 2 == 0;
            let top = (rng.next_u64() % 13) as u8 + 1;
            let (mut left, mut stock_left) = ([0u8; 13], [0u8; 13]);
            // skew towards few cards elsewhere, where the tests are close
            let elsewhere = rng.next_u64() % 4;
            for r in 0..13 {
                for card in 0..4 {
                    if r == usize::from(top - 1) && card == 0 {
                        continue; // the waste's top
                    }
                    match rng.next_u64() % (3 + elsewhere) {
                        0 => left[r] += 1,
                        1 => stock_left[r] += 1,
                        2 if wrap || r != 12 => left[r] += 1,
                        _ => {}
                    }
                }
            }
            let stock = stock_left.iter().sum();
            let mut node = Node {
                heights: [0; COLUMNS],
                drawn: 0,
                top,
                cards: left.iter().sum(),
                left: Counts::default(),
                ranks: [0; COLUMNS],
                heights_index: 0,
            };
            let mut packed_stock = Counts::default();
            for r in 0..13 {
                node.left.0[Counts::place(r)] = left[r];
                packed_stock.0[Counts::place(r)] = stock_left[r];
            }

            let expected = reference::is_lost(&left, top, &stock_left, stock, wrap);
            assert_eq!(
                is_lost(&node, packed_stock, stock, wrap),
                expected,
                "left {left:?}, stock {stock_left:?}, top {top}, wrap {wrap}"
            );
            lost[usize::from(wrap)] += u32::from(expected);
        }
        // both answers, often, in both variants
        assert!(lost.iter().all(|&n| n > 100_000 && n < 900_000), "{lost:?}");
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
    fn allows_answers_as_the_legal_moves_list() {
        // every move a Golf position could be asked about, along random lines of play
        let mut rng = crate::shuffle::SplitMix64::new(3);
        let (mut allowed, mut refused) = (0, 0);
        for seed in 0..60 {
            for wrap in [false, true] {
                let mut state = deal(seed, wrap);
                loop {
                    let legal = state.legal_moves();
                    for mv in (0..9).map(GolfMove::Play).chain([GolfMove::Draw]) {
                        assert_eq!(state.allows(mv), legal.contains(&mv), "seed {seed}: {mv}");
                        allowed += usize::from(legal.contains(&mv));
                        refused += usize::from(!legal.contains(&mv));
                    }
                    if legal.is_empty() {
                        break;
                    }
                    state.apply(legal[rng.below(legal.len() as u64) as usize]);
                }
            }
        }
        assert!(allowed > 1000 && refused > 1000, "{allowed} {refused}");
    }

    #[test]
    fn sort_seven_sorts_every_order() {
        // by the 0-1 principle a network that sorts every sequence of 0s and 1s sorts all
        for bits in 0..1u16 << COLUMNS {
            let mut keys: [u16; COLUMNS] = std::array::from_fn(|i| bits >> i & 1);
            sort_seven(&mut keys);
            assert!(keys.windows(2).all(|w| w[0] <= w[1]), "{bits:b}: {keys:?}");
        }
        let mut rng = crate::shuffle::SplitMix64::new(11);
        for _ in 0..1000 {
            let mut keys: [u16; COLUMNS] = std::array::from_fn(|_| rng.below(2000) as u16);
            let mut sorted = keys;
            sorted.sort_unstable();
            sort_seven(&mut keys);
            assert_eq!(keys, sorted);
        }
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
