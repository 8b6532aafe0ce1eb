//! Solitaire Expert in the core's registry of games: [`crate::game::NativeGame`] and its
//! position as plain parts ([`Plain`]).

use super::{solve, Expert, ExpertMove, InvalidPosition};
use crate::game::{exactly, maybes_part, native_game, piles_part, Part, Parts, Plain, Shape};

native_game!(Expert, ExpertMove, "expert", is_solved, solve);

/// `(columns, hand, pile_suits, pile_counts)`: card indices (the two copies of a card share
/// one), each column's exposed card last, each pile's suit (0-3, or None while empty) and
/// height in the engine's order.
impl Plain for Expert {
    const PARTS: &'static [(&'static str, Shape)] = &[
        ("columns", Shape::ListOf(&Shape::Numbers)),
        ("hand", Shape::Numbers),
        ("pile suits", Shape::ListOf(&Shape::Maybe)),
        ("pile heights", Shape::Numbers),
    ];

    fn from_parts(parts: Vec<Part>) -> Result<Self, InvalidPosition> {
        let mut parts = Parts::new("Solitaire Expert", parts);
        let reason = "a Solitaire Expert position has 10 columns and 8 piles";
        let state = Expert {
            columns: exactly(parts.piles()?, reason)?,
            hand: parts.numbers()?,
            pile_suits: exactly(parts.maybes()?, reason)?,
            pile_counts: exactly(parts.numbers()?, reason)?,
        };
        parts.end()?;
        state.check()?;
        Ok(state)
    }

    fn to_parts(&self) -> Vec<Part> {
        vec![
            piles_part(&self.columns),
            Part::Numbers(self.hand.clone()),
            maybes_part(&self.pile_suits),
            Part::Numbers(self.pile_counts.to_vec()),
        ]
    }
}
