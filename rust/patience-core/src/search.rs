//! What every solver of the crate shares: its budget, the shape of its answer, and the
//! set of positions seen.

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// Limits on one search. Any limit reached makes the answer [`Outcome::Unknown`].
#[derive(Clone, Debug)]
pub struct Budget {
    /// Positions expanded, at most.
    pub max_nodes: u64,
    /// Seconds of search, at most.
    pub max_seconds: f64,
    /// Positions remembered in the transposition table, at most (tens of bytes each, as
    /// the tables grow by doubling).
    pub max_states: usize,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_nodes: 50_000_000,
            max_seconds: 10.0,
            max_states: 8_000_000,
        }
    }
}

/// Which of a solver's pruning rules a search uses; each solver's `solve_with` says what
/// its rules are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pruning {
    /// Every rule: the solver as it is used.
    Full,
    /// Only what can never change a verdict by construction (at least the transposition
    /// table): a much slower search that exists to check the rules.
    None,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome<M> {
    /// A winning line in the moves of the engine of record.
    Solved(Vec<M>),
    /// The whole search space was exhausted: no line wins.
    Unsolvable,
    /// A budget ran out first; the reason says which.
    Unknown(String),
}

/// What a solver's search learned, by the way, of one first move of the position it
/// searched: what a search of the position after that move, by the same solver alone,
/// would answer, so that a caller who wants that answer need not search again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FirstMove {
    /// Every line after the move was searched out without a win: the position after it is
    /// lost (a search of it answers [`Outcome::Unsolvable`], or runs out of budget first).
    Lost,
    /// A search of the position after the move wins at its `n`-th node, the same search
    /// node for node: within a budget of at least `n` nodes it is [`Outcome::Solved`],
    /// within fewer it runs out.
    WonAt(u64),
}

/// First moves with what a search learned of each ([`FirstMove`]).
pub type FirstMoves<M> = Vec<(M, FirstMove)>;

/// The outcome with the evidence of the work done.
#[derive(Clone, Debug)]
pub struct Report<M> {
    /// The answer.
    pub outcome: Outcome<M>,
    /// Positions expanded.
    pub nodes: u64,
    /// Seconds taken.
    pub seconds: f64,
}

/// A hasher for keys that are hashes already.
#[derive(Default)]
pub(crate) struct IdentityHasher(u64);

impl Hasher for IdentityHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, _: &[u8]) {
        unreachable!("keys are hashed already")
    }
    fn write_u64(&mut self, value: u64) {
        self.0 = value;
    }
}

/// A set of position keys (hashes already).
pub(crate) type Seen = HashSet<u64, BuildHasherDefault<IdentityHasher>>;

/// A hasher for small keys of bytes (Kansas's arrangements of columns in
/// `kansas::arrangements`): a multiply a word, mixed at the end. Far cheaper than the
/// standard library's SipHash, which is built to resist chosen keys, something a search's
/// own positions need not fear; a set still compares whole keys, so a poor hash costs only
/// time.
#[derive(Default)]
pub(crate) struct BytesHasher(u64);

impl Hasher for BytesHasher {
    fn finish(&self) -> u64 {
        mix(self.0)
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0 ^ u64::from_le_bytes(word))
                .wrapping_mul(0x9e37_79b9_7f4a_7c15)
                .rotate_left(29);
        }
    }
}

/// The `i`th term (from 1) of the Luby sequence, the node limits (in some unit) of the
/// solvers' restarts in random orders: mostly short runs, now and then a long one, which
/// suits searches whose time to a win varies widely from one order of moves to another.
///
/// ```text
/// 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, ...
/// ```
pub(crate) fn luby(mut i: u64) -> u64 {
    loop {
        // the smallest k with i <= 2^k - 1
        let k = u64::BITS - i.leading_zeros();
        if i == (1 << k) - 1 {
            return 1 << (k - 1);
        }
        i -= (1 << (k - 1)) - 1;
    }
}

/// A 64-bit mixing function (SplitMix64's finaliser).
#[inline]
pub(crate) fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Counts a search's nodes against its budget: [`Meter::tick`] once per node says when to
/// stop (the node limit, the time limit checked every 4,096 nodes, the caller's `stop`
/// asked every 65,536), and [`Meter::report`] dresses an outcome with the work done.
pub(crate) struct Meter<'a> {
    started: std::time::Instant,
    budget: &'a Budget,
    stop: &'a mut dyn FnMut() -> bool,
    /// Nodes counted so far.
    pub(crate) nodes: u64,
}

impl<'a> Meter<'a> {
    pub(crate) fn new(budget: &'a Budget, stop: &'a mut dyn FnMut() -> bool) -> Self {
        Meter {
            started: std::time::Instant::now(),
            budget,
            stop,
            nodes: 0,
        }
    }

    /// Counts one node; `Err(reason)` once the search must stop. `node_limit` lets a
    /// phase stop before the budget's own limit.
    #[inline]
    pub(crate) fn tick(&mut self, node_limit: u64) -> Result<(), String> {
        self.nodes += 1;
        if self.nodes % 4096 != 0 && self.nodes <= node_limit.min(self.budget.max_nodes) {
            return Ok(());
        }
        self.tick_slowly(node_limit)
    }

    /// The count at which [`Meter::tick`] without a phase limit next looks at more than
    /// the count (the clock, the caller's `stop`, the node limit): every tick before it
    /// only counts, so a search may count those nodes itself and tick there.
    pub(crate) fn next_check(&self) -> u64 {
        ((self.nodes / 4096 + 1) * 4096).min(self.budget.max_nodes.saturating_add(1))
    }

    /// [`Meter::tick`] once in 4,096 nodes, or at the node limit.
    #[cold]
    fn tick_slowly(&mut self, node_limit: u64) -> Result<(), String> {
        if self.nodes > node_limit.min(self.budget.max_nodes) {
            return Err(NODE_LIMIT.into());
        }
        if self.nodes % 4096 == 0 {
            if self.started.elapsed().as_secs_f64() > self.budget.max_seconds {
                return Err("time limit".into());
            }
            if self.nodes % 65536 == 0 && (self.stop)() {
                return Err("interrupted".into());
            }
        }
        Ok(())
    }

    /// `outcome` with the nodes counted and the seconds since the meter started.
    pub(crate) fn report<M>(&self, outcome: Outcome<M>) -> Report<M> {
        Report {
            outcome,
            nodes: self.nodes,
            seconds: self.started.elapsed().as_secs_f64(),
        }
    }
}

/// The positions a best-first pass keeps, in one arena: for each, the position it came
/// from, the moves from there and its packed form (the game's own few bytes), each kept
/// right after the previous position's. A vector or two a position had cost an allocation
/// each and tens of bytes more.
pub(crate) struct Kept<M> {
    parents: Vec<u32>,
    /// Where each position's moves end in `moves` (they begin where the previous one's end).
    moves_end: Vec<usize>,
    moves: Vec<M>,
    /// Where each position's bytes end in `bytes`.
    bytes_end: Vec<usize>,
    bytes: Vec<u8>,
}

impl<M> Default for Kept<M> {
    fn default() -> Self {
        Kept {
            parents: Vec::new(),
            moves_end: Vec::new(),
            moves: Vec::new(),
            bytes_end: Vec::new(),
            bytes: Vec::new(),
        }
    }
}

/// Room made in [`Kept`]'s bytes before a position is packed into them: more than the
/// largest packed position of any game (Solitaire Expert's 104 cards and its piles'
/// lengths).
const PACKED_ROOM: usize = 256;

impl<M: Copy> Kept<M> {
    /// Keeps a position reached from position `parent` (`u32::MAX` for the start) by
    /// `moves`, `pack` appending its bytes; returns its index, or `None`, keeping nothing,
    /// when the process is refused the memory to keep it. A solver process runs within a
    /// limit on its memory (the server's pool sets one with the kernel), and an arena that
    /// doubles past it must end the search undecided, as a full table does, not abort the
    /// process.
    pub(crate) fn push(
        &mut self,
        parent: u32,
        moves: &[M],
        pack: impl FnOnce(&mut Vec<u8>),
    ) -> Option<u32> {
        self.parents.try_reserve(1).ok()?;
        self.moves_end.try_reserve(1).ok()?;
        self.bytes_end.try_reserve(1).ok()?;
        self.moves.try_reserve(moves.len()).ok()?;
        self.bytes.try_reserve(PACKED_ROOM).ok()?;
        let index = self.parents.len() as u32;
        self.parents.push(parent);
        self.moves.extend_from_slice(moves);
        self.moves_end.push(self.moves.len());
        pack(&mut self.bytes);
        self.bytes_end.push(self.bytes.len());
        Some(index)
    }

    fn span(ends: &[usize], at: usize) -> std::ops::Range<usize> {
        (if at == 0 { 0 } else { ends[at - 1] })..ends[at]
    }

    /// The packed form of position `at`.
    pub(crate) fn packed(&self, at: u32) -> &[u8] {
        &self.bytes[Kept::<M>::span(&self.bytes_end, at as usize)]
    }

    /// The moves from the start to position `at`, then `last`.
    pub(crate) fn line(&self, mut at: u32, last: &[M]) -> Vec<M> {
        let mut parts = vec![last];
        while at != u32::MAX {
            let i = at as usize;
            parts.push(&self.moves[Kept::<M>::span(&self.moves_end, i)]);
            at = self.parents[i];
        }
        parts.into_iter().rev().flatten().copied().collect()
    }
}

/// Seven keys and the mark of each: one cache line, so that finding a key and reading its
/// mark cost one miss of the cache (with keys and marks in two arrays a lookup in a table
/// far larger than the cache missed it twice).
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Block {
    keys: [u64; BLOCK_KEYS],
    marks: [u8; 8],
}

/// Keys in a [`Block`].
const BLOCK_KEYS: usize = 7;

const EMPTY_BLOCK: Block = Block {
    keys: [0; BLOCK_KEYS],
    marks: [0; 8],
};

/// A set of position keys (hashes already) by open addressing over blocks of a cache line,
/// holding at most `limit` keys: faster than [`Seen`] for the searches that insert at every
/// node. The key value 0 marks a free slot, so the key 0 is kept aside. A key goes in the
/// first free slot of its block or of the blocks after it; keys are never removed, so a
/// free slot ends the search for a key. The table doubles when three quarters of its
/// slots are taken (between 12 and 24 bytes a key).
pub(crate) struct KeySet {
    blocks: Vec<Block>,
    /// The mark of the key 0, when it is held.
    zero_mark: u8,
    len: usize,
    /// The table doubles once `len` is above this: three quarters of its slots.
    grow_at: usize,
    limit: usize,
    has_zero: bool,
}

impl KeySet {
    pub(crate) fn new(limit: usize) -> KeySet {
        KeySet {
            // small to start with (it doubles as it fills): most Klondike deals are
            // decided in a few hundred positions, and a larger first table cost a good
            // part of their time in allocating and clearing it
            blocks: vec![EMPTY_BLOCK; 1 << 4],
            zero_mark: 0,
            len: 0,
            grow_at: KeySet::three_quarters(1 << 4),
            limit,
            has_zero: false,
        }
    }

    /// Three quarters of the slots of `blocks` blocks (rounded down): the most keys a
    /// table of that size holds before it doubles.
    fn three_quarters(blocks: usize) -> usize {
        blocks * BLOCK_KEYS * 3 / 4
    }

    /// Keys held.
    pub(crate) fn len(&self) -> usize {
        self.len + self.has_zero as usize
    }

    /// The block and slot holding `key` (not 0) and whether it is there, or else the free
    /// slot where it would go.
    #[inline(always)]
    fn find(&self, key: u64) -> (usize, usize, bool) {
        let mask = self.blocks.len() - 1;
        let mut b = key as usize & mask;
        loop {
            let block = &self.blocks[b];
            for (j, &slot) in block.keys.iter().enumerate() {
                if slot == key {
                    return (b, j, true);
                }
                if slot == 0 {
                    return (b, j, false);
                }
            }
            b = (b + 1) & mask;
        }
    }

    /// The first free slot from `key`'s block on: where `key`, not held, goes (what
    /// [`KeySet::find`] answers for it, without comparing the keys held with it).
    #[inline(always)]
    fn free_slot(&self, key: u64) -> (usize, usize) {
        let mask = self.blocks.len() - 1;
        let mut b = key as usize & mask;
        loop {
            if let Some(j) = self.blocks[b].keys.iter().position(|&slot| slot == 0) {
                return (b, j);
            }
            b = (b + 1) & mask;
        }
    }

    /// For searches whose positions may be searched in full (mark 0) or restricted in a
    /// way the mark names: `Some(true)` if `key` must be searched under `mark` (it is new,
    /// or was searched only under another restriction; it now holds `mark`), `Some(false)`
    /// if it was searched in full or under the same mark, `None` if it is new but the set
    /// is full. With mark 0 throughout it is a plain set: `Some(true)` when `key` is new.
    // always inlined: a call's saving and restoring of registers had cost about a sixth
    // of a visit, which the Klondike search makes at every node
    #[inline(always)]
    pub(crate) fn visit(&mut self, key: u64, mark: u8) -> Option<bool> {
        if key == 0 {
            return match self.has_zero {
                true if self.zero_mark == 0 || self.zero_mark == mark => Some(false),
                true => {
                    self.zero_mark = mark;
                    Some(true)
                }
                false => {
                    self.has_zero = true;
                    self.zero_mark = mark;
                    Some(true)
                }
            };
        }
        let (b, j, held) = self.find(key);
        if held {
            let slot = &mut self.blocks[b].marks[j];
            if *slot == 0 || *slot == mark {
                return Some(false);
            }
            *slot = mark;
            return Some(true);
        }
        if self.len() >= self.limit {
            return None;
        }
        let block = &mut self.blocks[b];
        block.keys[j] = key;
        block.marks[j] = mark;
        self.len += 1;
        if self.len > self.grow_at {
            self.grow();
        }
        Some(true)
    }

    /// Doubles the table; when the process is refused the memory (a solver process runs
    /// within a limit), the set keeps what it holds and is full from now on, so that the
    /// search ends undecided instead of aborting the process.
    #[cold]
    #[inline(never)]
    fn grow(&mut self) {
        let size = self.blocks.len() * 2;
        let mut blocks = Vec::new();
        if blocks.try_reserve_exact(size).is_err() {
            self.limit = self.len();
            return;
        }
        blocks.resize(size, EMPTY_BLOCK);
        self.grow_at = KeySet::three_quarters(size);
        let old = std::mem::replace(&mut self.blocks, blocks);
        for block in &old {
            for (&key, &mark) in block.keys.iter().zip(&block.marks) {
                if key != 0 {
                    // each key once: the first free slot is where `find` would put it
                    let (b, j) = self.free_slot(key);
                    self.blocks[b].keys[j] = key;
                    self.blocks[b].marks[j] = mark;
                }
            }
        }
    }
}

/// A position that a depth-first search plays moves on and takes them back, with the rules
/// of one search: which moves it tries, which it plays without branching, when it has won.
pub(crate) trait DepthFirst {
    /// A move.
    type Move: Copy;
    /// What taking a move back needs.
    type Undo: Copy;
    /// Plays `mv` (one the search chose) and returns how to take it back.
    fn play(&mut self, mv: Self::Move) -> Self::Undo;
    /// Takes back the last move played.
    fn unplay(&mut self, undo: Self::Undo);
    /// The move an undo record takes back.
    fn move_of(undo: &Self::Undo) -> Self::Move;
    /// A move to play without branching now, if the search's rules have one.
    fn next_safe(&self) -> Option<Self::Move>;
    /// Whether the position is won.
    fn is_won(&self) -> bool;
    /// The position's key for the table of positions searched.
    fn key(&self) -> u64;
    /// Puts the moves to try from here in `moves` (given empty, its room reused from one
    /// position to the next), in order; `last` is the move that led here when no move
    /// without branching followed it.
    fn moves(&mut self, last: Option<&Self::Undo>, moves: &mut Vec<Self::Move>);
    /// Which moves [`DepthFirst::moves`] tries after `last` (as there): 0 for every move
    /// it would try with no `last`, another number for each restriction that a search may
    /// place on a position by the move that led to it. A position searched under one
    /// restriction is searched again when reached under another or none
    /// ([`KeySet::visit`]).
    fn restriction(&self, _last: Option<&Self::Undo>) -> u8 {
        0
    }
}

/// The reason a search gives when it has counted the nodes it may ([`Meter::tick`]).
pub(crate) const NODE_LIMIT: &str = "node limit";

/// The reason a search gives when its table of positions is full.
pub(crate) const TABLE_FULL: &str = "transposition table full";

/// How a depth-first search ended.
pub(crate) enum Ended<M> {
    /// The moves of a win, from the start.
    Won(Vec<M>),
    /// Every position reachable with the moves tried was searched.
    Exhausted,
    /// A limit was reached first; the reason says which.
    Stopped(String),
}

/// A position on [`depth_first`]'s stack.
struct Frame<M> {
    /// Its moves, in the order they are tried.
    moves: Vec<M>,
    next: usize,
    /// Moves in the log before the move that led here (the ones played without branching
    /// follow it).
    logged: usize,
}

/// A depth-first search from `position` (its moves without branching played first) that
/// plays and takes back moves on that one position and searches each position at most once
/// (a table of at most `max_states` keys), until `node_limit` nodes are counted in all.
/// `position` is left as it was given, unless the search won.
pub(crate) fn depth_first<P: DepthFirst>(
    position: &mut P,
    meter: &mut Meter<'_>,
    node_limit: u64,
    max_states: usize,
) -> Ended<P::Move> {
    let mut log: Vec<P::Undo> = Vec::new();
    while let Some(safe) = position.next_safe() {
        log.push(position.play(safe));
    }
    if position.is_won() {
        return won::<P>(&log);
    }
    let mut seen = KeySet::new(max_states);
    seen.visit(position.key(), 0);
    depth_first_in(position, meter, node_limit, &mut seen, log)
}

/// The depth-first search of [`depth_first`] from `position`, reached by the moves `log`
/// (taken back when the search stops), whose key `seen` holds already, searched in full,
/// as do the keys of positions another search searched or will search: those are not
/// searched again. `position` must have no move to play without branching, and is left as
/// it was given unless the search won (the win's moves start with `log`'s).
pub(crate) fn depth_first_in<P: DepthFirst>(
    position: &mut P,
    meter: &mut Meter<'_>,
    node_limit: u64,
    seen: &mut KeySet,
    mut log: Vec<P::Undo>,
) -> Ended<P::Move> {
    let take_back = |position: &mut P, log: &mut Vec<P::Undo>, to: usize| {
        while log.len() > to {
            position.unplay(log.pop().expect("longer than to"));
        }
    };
    let mut overflow = false;
    // the lists of moves of the positions left, for the next positions' moves
    let mut spare: Vec<Vec<P::Move>> = Vec::new();
    let listed = |position: &mut P, last: Option<&P::Undo>, spare: &mut Vec<Vec<P::Move>>| {
        let mut moves = spare.pop().unwrap_or_default();
        moves.clear();
        position.moves(last, &mut moves);
        moves
    };
    let mut stack = vec![Frame {
        moves: listed(position, None, &mut spare),
        next: 0,
        logged: 0,
    }];
    while let Some(frame) = stack.last_mut() {
        if frame.next == frame.moves.len() {
            let logged = frame.logged;
            spare.extend(stack.pop().map(|frame| frame.moves));
            take_back(position, &mut log, logged);
            continue;
        }
        let mv = frame.moves[frame.next];
        frame.next += 1;
        if let Err(reason) = meter.tick(node_limit) {
            take_back(position, &mut log, 0);
            return Ended::Stopped(reason);
        }
        let logged = log.len();
        log.push(position.play(mv));
        while let Some(safe) = position.next_safe() {
            log.push(position.play(safe));
        }
        if position.is_won() {
            return won::<P>(&log);
        }
        let last = (log.len() == logged + 1).then(|| log[logged]);
        match seen.visit(position.key(), position.restriction(last.as_ref())) {
            Some(true) => {
                stack.push(Frame {
                    moves: listed(position, last.as_ref(), &mut spare),
                    next: 0,
                    logged,
                });
            }
            Some(false) => take_back(position, &mut log, logged),
            None => {
                overflow = true;
                take_back(position, &mut log, logged);
            }
        }
    }
    if overflow {
        Ended::Stopped(TABLE_FULL.into())
    } else {
        Ended::Exhausted
    }
}

/// The win the moves of `log` make.
fn won<P: DepthFirst>(log: &[P::Undo]) -> Ended<P::Move> {
    Ended::Won(log.iter().map(P::move_of).collect())
}

/// For the games' tests of certificates: plays `moves` from `start`, each checked to be
/// among `legal_moves` first, and returns the position they lead to.
#[cfg(test)]
pub(crate) fn replay<S: Clone, M: Copy + PartialEq + std::fmt::Display, R>(
    start: &S,
    moves: &[M],
    legal_moves: impl Fn(&S) -> Vec<M>,
    apply: impl Fn(&mut S, M) -> R,
) -> S {
    let mut state = start.clone();
    for (index, &mv) in moves.iter().enumerate() {
        assert!(
            legal_moves(&state).contains(&mv),
            "move {index}, {mv}, is not legal"
        );
        apply(&mut state, mv);
    }
    state
}

/// For the games' tests of `play` and `unplay`: plays up to `count` random legal moves on
/// each start, checking that `play` leaves what `apply` does, then takes them all back,
/// checking that each position comes back. Counts in `kinds` the moves of each `kind`.
#[cfg(test)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn check_play_and_unplay<S, M, U>(
    starts: impl Iterator<Item = S>,
    count: usize,
    rng: &mut crate::shuffle::SplitMix64,
    legal_moves: impl Fn(&S) -> Vec<M>,
    apply: impl Fn(&mut S, M),
    play: impl Fn(&mut S, M) -> U,
    unplay: impl Fn(&mut S, U),
    kind: impl Fn(M) -> usize,
    kinds: &mut [u32],
) where
    S: Clone + PartialEq + std::fmt::Debug,
    M: Copy + std::fmt::Display,
{
    for (index, mut state) in starts.enumerate() {
        let mut played = Vec::new();
        for _ in 0..count {
            let legal = legal_moves(&state);
            if legal.is_empty() {
                break;
            }
            let mv = legal[rng.below(legal.len() as u64) as usize];
            kinds[kind(mv)] += 1;
            let before = state.clone();
            let undo = play(&mut state, mv);
            let mut applied = before.clone();
            apply(&mut applied, mv);
            assert_eq!(state, applied, "start {index}: {mv}");
            played.push((before, mv, undo));
        }
        while let Some((before, mv, undo)) = played.pop() {
            unplay(&mut state, undo);
            assert_eq!(state, before, "start {index}: {mv} taken back");
        }
    }
    assert!(
        kinds.iter().all(|&k| k > 0),
        "every kind of move played: {kinds:?}"
    );
}

#[cfg(test)]
mod tests {
    use super::{luby, KeySet};
    use crate::shuffle::SplitMix64;
    use std::collections::HashMap;

    /// The table answers as a map from key to mark does, through several doublings, with
    /// keys that share their low bits (so that blocks fill and spill into the next) and
    /// the key 0; once full it turns new keys away and still answers for the ones it holds.
    #[test]
    fn the_luby_sequence() {
        let terms: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(terms, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
    }

    #[test]
    fn the_table_of_keys_answers_as_a_map_does() {
        let mut rng = SplitMix64::new(7);
        let limit = 40_000;
        let mut table = KeySet::new(limit);
        let mut map: HashMap<u64, u8> = HashMap::new();
        let mut refused = 0;
        for step in 0..200_000u64 {
            let key = match rng.below(4) {
                0 => 0,
                1 => rng.below(50) << 40, // low bits all zero: one crowded block
                _ => rng.below(80_000).wrapping_mul(0x9e37_79b9_7f4a_7c15),
            };
            let mark = rng.below(3) as u8;
            let expected = match map.get(&key).copied() {
                Some(held) if held == 0 || held == mark => Some(false),
                Some(_) => Some(true),
                None if map.len() >= limit => None,
                None => Some(true),
            };
            assert_eq!(
                table.visit(key, mark),
                expected,
                "step {step}, key {key:#x}"
            );
            if expected == Some(true) {
                map.insert(key, mark);
            } else if expected.is_none() {
                refused += 1;
            }
            assert_eq!(table.len(), map.len());
        }
        assert_eq!(table.len(), limit, "the table filled");
        assert!(refused > 0, "new keys were turned away once it was full");
    }
}
