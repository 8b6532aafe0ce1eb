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
    /// Positions remembered in the transposition table, at most (about 10 bytes each).
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

/// A 64-bit mixing function (SplitMix64's finaliser).
#[inline]
pub(crate) fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}
