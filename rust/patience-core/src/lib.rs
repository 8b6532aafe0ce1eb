//! The search core of `patience`, in plain Rust (no Python here).
//!
//! Cards are small integers ([`cards::Card`]); deals come from the versioned seeded shuffle
//! ([`shuffle`]), which must deal exactly the same cards as the Python engine of record
//! (`patience.cards.shuffled_deck`). Every game implements [`game::NativeGame`] (its moves
//! and its solver) and, with reference players, [`players::Players`].
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod cards;
pub mod expert;
pub mod freecell;
pub mod game;
pub mod golf;
pub mod kansas;
pub mod klondike;
pub mod players;
pub mod search;
pub mod shuffle;
