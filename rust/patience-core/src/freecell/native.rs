//! FreeCell in the core's registry of games: [`crate::game::NativeGame`] and its position
//! as plain parts ([`Plain`]).

use super::{solve, FreeCell, FreeCellMove, InvalidPosition};
use crate::game::{exactly, maybes_part, native_game, piles_part, Part, Parts, Plain, Shape};

native_game!(FreeCell, FreeCellMove, "freecell", is_solved, solve);

/// `(columns, cells, foundation)`: card indices, each column's exposed card last, each
/// cell's card or None, each suit's foundation height.
impl Plain for FreeCell {
    const PARTS: &'static [(&'static str, Shape)] = &[
        ("columns", Shape::ListOf(&Shape::Numbers)),
        ("cells", Shape::ListOf(&Shape::Maybe)),
        ("foundation", Shape::Numbers),
    ];

    fn from_parts(parts: Vec<Part>) -> Result<Self, InvalidPosition> {
        let mut parts = Parts::new("FreeCell", parts);
        let reason = "a FreeCell position has 8 columns, 4 cells and 4 foundations";
        let state = FreeCell {
            columns: exactly(parts.piles()?, reason)?,
            cells: exactly(parts.maybes()?, reason)?,
            foundation: exactly(parts.numbers()?, reason)?,
        };
        parts.end()?;
        state.check()?;
        Ok(state)
    }

    fn to_parts(&self) -> Vec<Part> {
        vec![
            piles_part(&self.columns),
            maybes_part(&self.cells),
            Part::Numbers(self.foundation.to_vec()),
        ]
    }
}
