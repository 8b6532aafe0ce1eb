//! Golf in the core's registry of games: [`crate::game::NativeGame`] and its position as
//! plain parts ([`Plain`]).

use super::{
    solve, solve_noting_first_moves, solve_sharing_first_moves, Golf, GolfMove, InvalidPosition,
};
use crate::game::{exactly, native_game, piles_part, Part, Parts, Plain, Shape};

native_game!(
    Golf,
    GolfMove,
    "golf",
    is_won,
    solve,
    solve_noting_first_moves,
    solve_sharing_first_moves,
    fn allows(&self, mv: &GolfMove) -> bool {
        self.allows(*mv)
    }
);

/// `(wrap, columns, stock, waste_top)`: card indices, each column's exposed card and the
/// stock's next card last.
impl Plain for Golf {
    const PARTS: &'static [(&'static str, Shape)] = &[
        ("wrap", Shape::Flag),
        ("columns", Shape::ListOf(&Shape::Numbers)),
        ("stock", Shape::Numbers),
        ("waste top", Shape::Number),
    ];

    fn from_parts(parts: Vec<Part>) -> Result<Self, InvalidPosition> {
        let mut parts = Parts::new("Golf", parts);
        let state = Golf {
            wrap: parts.flag()?,
            columns: exactly(parts.piles()?, "a Golf position has 7 columns")?,
            stock: parts.numbers()?,
            waste_top: parts.number()?,
        };
        parts.end()?;
        state.check()?;
        Ok(state)
    }

    fn to_parts(&self) -> Vec<Part> {
        vec![
            Part::Flag(self.wrap),
            piles_part(&self.columns),
            Part::Numbers(self.stock.clone()),
            Part::Number(self.waste_top),
        ]
    }
}
