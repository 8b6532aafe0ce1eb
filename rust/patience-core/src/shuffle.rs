//! The versioned seeded shuffle (version 1), documented in `docs/shuffle.md`.
//!
//! A `(key, seed)` pair, where the key is the game's name, turns into a deck order:
//!
//! 1. `state = fnv1a64("patience:" + key) XOR seed`;
//! 2. SplitMix64 from that state produces 64-bit outputs;
//! 3. an unbiased Fisher-Yates shuffle of the canonical ordered deck (see
//!    [`crate::cards::ordered_deck`]): for `i` from `n - 1` down to `1`, swap position `i`
//!    with position `j`, `j` uniform in `0..=i` by rejection sampling.
//!
//! The Python engine of record implements the same steps; test vectors on both sides pin
//! them. Changing any step means a new version number, never a silent change.

use crate::cards::{ordered_deck, Card};

/// The shuffle versions this build can deal.
pub const SUPPORTED_VERSIONS: [u32; 1] = [1];

/// FNV-1a, 64-bit: the hash that turns a game's name into part of the seed.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// SplitMix64 (Steele, Lea and Flood, 2014): a 64-bit state advanced by a constant and
/// scrambled on output.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator starting from `state`.
    pub fn new(state: u64) -> Self {
        SplitMix64 { state }
    }

    /// The next 64-bit output.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform integer in `0..bound` (`bound > 0`), by rejecting the outputs at or above
    /// the largest multiple of `bound` that fits in 2^64, so that no value is favoured.
    pub fn below(&mut self, bound: u64) -> u64 {
        assert!(bound > 0, "bound must be positive");
        // 2^64 mod bound, computed without 128-bit arithmetic.
        let excess = (u64::MAX % bound + 1) % bound;
        let limit = u64::MAX - excess; // outputs <= limit are accepted
        loop {
            let x = self.next_u64();
            if x <= limit {
                return x % bound;
            }
        }
    }
}

/// The starting state for `(key, seed)`.
pub fn initial_state(key: &str, seed: u64) -> u64 {
    let mut bytes = b"patience:".to_vec();
    bytes.extend_from_slice(key.as_bytes());
    fnv1a64(&bytes) ^ seed
}

/// Shuffles `cards` in place with Fisher-Yates driven by `rng`.
pub fn fisher_yates<T>(cards: &mut [T], rng: &mut SplitMix64) {
    for i in (1..cards.len()).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        cards.swap(i, j);
    }
}

/// Error for a shuffle version this build does not know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownVersion(pub u32);

impl std::fmt::Display for UnknownVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unknown shuffle version {} (known: 1)", self.0)
    }
}

impl std::error::Error for UnknownVersion {}

/// The deal for `(key, seed)`: `decks` shuffled decks, first-dealt card first.
pub fn seeded_deck(
    key: &str,
    seed: u64,
    decks: usize,
    version: u32,
) -> Result<Vec<Card>, UnknownVersion> {
    if !SUPPORTED_VERSIONS.contains(&version) {
        return Err(UnknownVersion(version));
    }
    let mut cards = ordered_deck(decks);
    let mut rng = SplitMix64::new(initial_state(key, seed));
    fisher_yates(&mut cards, &mut rng);
    Ok(cards)
}

/// [`seeded_deck`] as card indices (`suit * 13 + rank - 1`), the form the games take.
pub fn seeded_indices(
    key: &str,
    seed: u64,
    decks: usize,
    version: u32,
) -> Result<Vec<u8>, UnknownVersion> {
    Ok(seeded_deck(key, seed, decks, version)?
        .iter()
        .map(|card| card.index())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_reference_values() {
        // Reference values of FNV-1a 64 from its specification's test suite.
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn splitmix_reference_values() {
        // SplitMix64 seeded with 0: first outputs as published with the algorithm.
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(rng.next_u64(), 0x6e78_9e6a_a1b9_65f4);
        assert_eq!(rng.next_u64(), 0x06c4_5d18_8009_454f);
    }

    #[test]
    fn below_stays_in_range() {
        let mut rng = SplitMix64::new(7);
        for bound in 1..200u64 {
            for _ in 0..50 {
                assert!(rng.below(bound) < bound);
            }
        }
    }

    #[test]
    fn deal_is_a_permutation() {
        for seed in 0..100 {
            let mut deal = seeded_deck("klondike", seed, 1, 1).unwrap();
            deal.sort();
            assert_eq!(deal, ordered_deck(1));
            let mut two = seeded_deck("expert", seed, 2, 1).unwrap();
            two.sort();
            let mut expected = ordered_deck(2);
            expected.sort();
            assert_eq!(two, expected);
        }
    }

    #[test]
    fn unknown_version_is_refused() {
        assert_eq!(seeded_deck("golf", 1, 1, 2), Err(UnknownVersion(2)));
    }
}
