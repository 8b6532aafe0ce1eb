//! The search core of `patience`, in plain Rust (no Python here).
//!
//! Cards are small integers ([`cards::Card`]); deals come from the versioned seeded shuffle
//! ([`shuffle`]), which must deal exactly the same cards as the Python engine of record
//! (`patience.cards.shuffled_deck`). Solvers for each game will live beside these modules.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod cards;
pub mod expert;
pub mod golf;
pub mod kansas;
pub mod klondike;
pub mod klondike_sets;
pub mod klondike_solver;
pub mod search;
pub mod shuffle;
