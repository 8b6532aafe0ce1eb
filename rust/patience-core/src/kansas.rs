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
//! The solver is a depth-first search with a transposition table over canonical keys (the
//! three columns in sorted order) and one pruning rule: a card goes home without branching
//! when no card could ever be built on it again ([`Kansas::is_safe_home`]). The search
//! without that rule ([`Pruning::None`]) exists to check it.

use std::fmt;

use crate::cards::Card;
use crate::klondike::InvalidPosition;
use crate::search::{mix, Budget, Meter, Outcome, Report, Seen};

pub use crate::search::Pruning;

/// Columns in the tableau.
pub const COLUMNS: usize = 3;
/// Cards dealt to the reserve.
pub const RESERVE: usize = 12;

/// A Kansas move in RULES.md notation. Columns are indexed from 0.
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
    /// The position dealt from `deal` (52 card indices, first-dealt first) as RULES.md lays
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
        let cards = crate::shuffle::seeded_indices("kansas", seed, 1, 1)
            .map_err(|error| InvalidPosition(error.to_string()))?;
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

    /// Whether sending `card` home (a foundation takes it) loses nothing: every card that
    /// could ever be built on it (one rank lower, any suit) is home already, so it is no
    /// longer needed as a target. A base-rank card never is (the cards built on it go home
    /// last).
    pub fn is_safe_home(&self, card: u8) -> bool {
        let height = (rank(card) + 13 - self.base) % 13; // cards of its suit home below it
        height > 0 && self.counts.iter().all(|&c| c >= height)
    }

    /// The canonical key of the position: the columns in sorted order (which column is
    /// which never matters to the play), the reserve and stock by how much is left, the
    /// waste in full. The foundations follow from the rest.
    fn key(&self) -> u64 {
        let sequence = |cards: &[u8], seed: u64| {
            cards
                .iter()
                .fold(seed, |h, &c| mix(h.rotate_left(9) ^ (u64::from(c) + 1)))
        };
        let mut columns: [u64; COLUMNS] = std::array::from_fn(|i| sequence(&self.columns[i], 0x51));
        columns.sort_unstable();
        let mut key = sequence(&self.waste, 0x77);
        for h in columns {
            key = mix(key ^ h);
        }
        mix(key ^ ((self.reserve.len() as u64) << 8 | self.stock.len() as u64))
    }
}

struct Frame {
    state: Kansas,
    moves: Vec<KansasMove>,
    next: usize,
    /// The moves that led here from the parent frame: the chosen one, then the safe ones.
    path: Vec<KansasMove>,
}

/// Whether a move between columns does something at once: empties its column (which the
/// reserve refills) or uncovers a card that goes home or takes the reserve's or the
/// waste's top card.
fn is_direct(state: &Kansas, mv: KansasMove) -> bool {
    let KansasMove::ColumnTo { from, start, .. } = mv else {
        return true;
    };
    if start == 0 {
        return true;
    }
    let uncovered = state.columns[usize::from(from)][usize::from(start) - 1];
    state.takes(uncovered)
        || state
            .reserve
            .last()
            .is_some_and(|&c| builds_on(c, uncovered))
        || state.waste.last().is_some_and(|&c| builds_on(c, uncovered))
}

/// The moves the search tries, best first: home, then onto columns from the reserve (each
/// turns up a reserve card), then between columns, from the waste, and `draw` last. The
/// restricted phase leaves out the moves between columns that do nothing at once.
fn ordered_moves(state: &Kansas, complete: bool) -> Vec<KansasMove> {
    let mut moves = state.legal_moves();
    if !complete {
        moves.retain(|&mv| is_direct(state, mv));
    }
    moves.sort_by_key(|mv| match mv {
        KansasMove::WasteHome | KansasMove::ReserveHome | KansasMove::ColumnHome(_) => 0,
        KansasMove::ReserveTo(_) => 1,
        KansasMove::ColumnTo { .. } => 2,
        KansasMove::WasteTo(_) => 3,
        KansasMove::Draw => 4,
    });
    moves
}

/// Plays every safe move home, recording each in `path`.
fn play_safe(state: &mut Kansas, path: &mut Vec<KansasMove>) {
    loop {
        let safe =
            |card: Option<&u8>| card.is_some_and(|&c| state.takes(c) && state.is_safe_home(c));
        let mv = if safe(state.waste.last()) {
            KansasMove::WasteHome
        } else if safe(state.reserve.last()) {
            KansasMove::ReserveHome
        } else if let Some(i) = (0..COLUMNS).find(|&i| safe(state.columns[i].last())) {
            KansasMove::ColumnHome(i as u8)
        } else {
            return;
        };
        state.apply(mv);
        path.push(mv);
    }
}

/// Solves `start` within `budget` with every rule of the solver; see [`solve_with`].
pub fn solve(
    start: &Kansas,
    budget: &Budget,
    stop: &mut dyn FnMut() -> bool,
) -> Report<KansasMove> {
    solve_with(start, budget, Pruning::Full, stop)
}

/// Solves `start` within `budget`: [`Outcome::Solved`] with the moves of a win,
/// [`Outcome::Unsolvable`] when every reachable position was searched, or
/// [`Outcome::Unknown`] when the node, time or state budget ran out. `stop` is asked now
/// and then whether to give up (for Ctrl-C).
///
/// With [`Pruning::None`] every legal move is searched and only the transposition table
/// prunes: it exists to check that the safe moves home never change a verdict.
pub fn solve_with(
    start: &Kansas,
    budget: &Budget,
    pruning: Pruning,
    stop: &mut dyn FnMut() -> bool,
) -> Report<KansasMove> {
    let mut search = Search {
        meter: Meter::new(budget, stop),
        budget,
        pruning,
    };
    let quick = (budget.max_nodes / 10).min(2_000_000);
    let outcome = match search.run(start, false, quick) {
        Phase::Solved(moves) => Outcome::Solved(moves),
        Phase::Stopped(reason) if reason != "node limit" => Outcome::Unknown(reason),
        _ => match search.run(start, true, budget.max_nodes) {
            Phase::Solved(moves) => Outcome::Solved(moves),
            Phase::Exhausted => Outcome::Unsolvable,
            Phase::Stopped(reason) => Outcome::Unknown(reason),
        },
    };
    search.meter.report(outcome)
}

enum Phase {
    Solved(Vec<KansasMove>),
    Exhausted,
    Stopped(String),
}

struct Search<'a> {
    meter: Meter<'a>,
    budget: &'a Budget,
    pruning: Pruning,
}

impl Search<'_> {
    /// One depth-first search from `start`, over every move (`complete`) or the restricted
    /// set, until `node_limit` nodes in all.
    fn run(&mut self, start: &Kansas, complete: bool, node_limit: u64) -> Phase {
        let mut root = start.clone();
        let mut path = Vec::new();
        if self.pruning == Pruning::Full {
            play_safe(&mut root, &mut path);
        }
        if root.is_won() {
            return Phase::Solved(path);
        }
        let mut seen = Seen::default();
        seen.insert(root.key());
        let mut overflow = false;
        let mut stack = vec![Frame {
            moves: ordered_moves(&root, complete),
            state: root,
            next: 0,
            path,
        }];
        while let Some(frame) = stack.last_mut() {
            if frame.next == frame.moves.len() {
                stack.pop();
                continue;
            }
            let mv = frame.moves[frame.next];
            frame.next += 1;
            if let Err(reason) = self.meter.tick(node_limit) {
                return Phase::Stopped(reason);
            }
            let mut state = frame.state.clone();
            state.apply(mv);
            let mut path = vec![mv];
            if self.pruning == Pruning::Full {
                play_safe(&mut state, &mut path);
            }
            if state.is_won() {
                let mut moves: Vec<KansasMove> =
                    stack.iter().flat_map(|f| f.path.iter().copied()).collect();
                moves.extend(path);
                return Phase::Solved(moves);
            }
            let key = state.key();
            if seen.contains(&key) {
                continue;
            }
            if seen.len() < self.budget.max_states {
                seen.insert(key);
            } else {
                overflow = true;
            }
            stack.push(Frame {
                moves: ordered_moves(&state, complete),
                state,
                next: 0,
                path,
            });
        }
        if overflow {
            Phase::Stopped("transposition table full".into())
        } else if complete {
            Phase::Exhausted
        } else {
            Phase::Stopped("node limit".into()) // the restricted phase proves nothing
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn replay(start: &Kansas, moves: &[KansasMove]) -> Kansas {
        let mut state = start.clone();
        for &mv in moves {
            assert!(state.legal_moves().contains(&mv), "{mv} is not legal");
            state.apply(mv);
        }
        state
    }

    #[test]
    fn the_deal_follows_the_rules_layout() {
        let state = Kansas::from_seed(2026).unwrap();
        assert_eq!(state.reserve.len(), 12);
        assert_eq!(state.stock.len(), 36);
        assert_eq!(state.counts.iter().sum::<u8>(), 1);
        // RULES.md and the Python doctest: the base is a Queen, the reserve's top the 7d
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

    /// Positions known to be winnable (along the certificate of a winnable deal, from
    /// halfway on) and, for each, a neighbour one random move off that line.
    fn test_positions() -> Vec<Kansas> {
        let start = Kansas::from_seed(27).unwrap(); // winnable (see solve_seeds)
        let Outcome::Solved(moves) = solve(&start, &Budget::default(), &mut || false).outcome
        else {
            panic!("seed 27 is winnable");
        };
        let mut rng = crate::shuffle::SplitMix64::new(5);
        let mut positions = Vec::new();
        let mut state = start;
        for (index, &mv) in moves.iter().enumerate() {
            if index >= moves.len() / 2 && index % 4 == 0 {
                positions.push(state.clone());
                let legal = state.legal_moves();
                let mut off = state.clone();
                off.apply(legal[rng.below(legal.len() as u64) as usize]);
                positions.push(off);
            }
            state.apply(mv);
        }
        positions
    }

    #[test]
    fn certificates_replay_and_safe_moves_never_change_a_verdict() {
        let budget = Budget {
            max_seconds: 2.0,
            ..Budget::default()
        };
        let mut decided = [0, 0];
        for (index, state) in test_positions().iter().enumerate() {
            let full = solve_with(state, &budget, Pruning::Full, &mut || false).outcome;
            let none = solve_with(state, &budget, Pruning::None, &mut || false).outcome;
            for outcome in [&full, &none] {
                if let Outcome::Solved(moves) = outcome {
                    assert!(replay(state, moves).is_won(), "position {index}");
                }
            }
            if matches!(full, Outcome::Unknown(_)) || matches!(none, Outcome::Unknown(_)) {
                continue;
            }
            let won = matches!(full, Outcome::Solved(_));
            assert_eq!(won, matches!(none, Outcome::Solved(_)), "position {index}");
            decided[usize::from(won)] += 1;
        }
        assert!(
            decided[0] >= 1 && decided[1] >= 10,
            "decided by both: {decided:?}"
        );
    }
}
