//! Kansas in the core's registry of games: [`NativeGame`] (its solver proves losses by
//! another search than it finds wins) and its position as plain parts ([`Plain`]).

use super::{solve, solve_for_win, InvalidPosition, Kansas, KansasMove};
use crate::game::{exactly, piles_part, NativeGame, Part, Parts, Plain, Shape, SolveOptions};
use crate::search::{Budget, Report};

impl NativeGame for Kansas {
    type Move = KansasMove;
    const NAME: &'static str = "kansas";

    fn moves(&self) -> Vec<KansasMove> {
        self.legal_moves()
    }

    fn play(&mut self, mv: KansasMove) {
        self.apply(mv);
    }

    fn won(&self) -> bool {
        self.is_won()
    }

    fn solve(
        &self,
        budget: &Budget,
        options: SolveOptions,
        stop: &mut dyn FnMut() -> bool,
    ) -> Report<KansasMove> {
        if options.wins_only {
            solve_for_win(self, budget, stop)
        } else {
            solve(self, budget, stop)
        }
    }
}

/// `(base, reserve, columns, stock, waste, foundation)`: the base rank (1-13), card indices
/// with each pile's top (or next) card last, and the cards on each suit's foundation.
impl Plain for Kansas {
    const PARTS: &'static [(&'static str, Shape)] = &[
        ("base", Shape::Number),
        ("reserve", Shape::Numbers),
        ("columns", Shape::ListOf(&Shape::Numbers)),
        ("stock", Shape::Numbers),
        ("waste", Shape::Numbers),
        ("foundation", Shape::Numbers),
    ];

    fn from_parts(parts: Vec<Part>) -> Result<Self, InvalidPosition> {
        let mut parts = Parts::new("Kansas", parts);
        let reason = "a Kansas position has 3 columns and 4 foundations";
        let state = Kansas {
            base: parts.number()?,
            reserve: parts.numbers()?,
            columns: exactly(parts.piles()?, reason)?,
            stock: parts.numbers()?,
            waste: parts.numbers()?,
            counts: exactly(parts.numbers()?, reason)?,
        };
        parts.end()?;
        state.check()?;
        Ok(state)
    }

    fn to_parts(&self) -> Vec<Part> {
        vec![
            Part::Number(self.base),
            Part::Numbers(self.reserve.clone()),
            piles_part(&self.columns),
            Part::Numbers(self.stock.clone()),
            Part::Numbers(self.waste.clone()),
            Part::Numbers(self.counts.to_vec()),
        ]
    }
}
