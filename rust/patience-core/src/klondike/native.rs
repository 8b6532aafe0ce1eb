//! Klondike in the core's registry of games: [`NativeGame`] (with its 94 move names, made
//! once a process by a host) and its position as plain parts ([`Plain`]).
//!
//! Its lists cross as bytes ([`Shape::Bytes`]): a Klondike deal often solves in less time
//! than converting a position through lists of ints took.

use super::{solver, InvalidPosition, Klondike, Move, COLUMNS};
use crate::game::{exactly, piles_part, NativeGame, Part, Parts, Plain, Shape, SolveOptions};
use crate::search::{Budget, Report};

impl NativeGame for Klondike {
    type Move = Move;
    const NAME: &'static str = "klondike";

    fn moves(&self) -> Vec<Move> {
        self.legal_moves()
    }

    fn play(&mut self, mv: Move) {
        self.apply(mv);
    }

    fn won(&self) -> bool {
        self.is_solved()
    }

    fn solve(
        &self,
        budget: &Budget,
        _options: SolveOptions,
        stop: &mut dyn FnMut() -> bool,
    ) -> Report<Move> {
        solver::solve(self, budget, stop)
    }

    /// 94 names (a column-to-column move's start is not in its name), in the order of
    /// [`Move`]'s kinds: writing each move's name had cost more than solving an easy deal.
    fn named_moves() -> Vec<Move> {
        (0..NAMES).map(named).collect()
    }

    fn name_index(mv: &Move) -> Option<usize> {
        let c = |i: u8| usize::from(i);
        Some(match *mv {
            Move::Draw => 0,
            Move::Recycle => 1,
            Move::WasteToFoundation => 2,
            Move::WasteToColumn(to) => 3 + c(to),
            Move::ColumnToFoundation(from) => 10 + c(from),
            Move::ColumnToColumn { from, to, .. } => 17 + c(from) * COLUMNS + c(to),
            Move::FoundationToColumn { suit, to } => 66 + c(suit) * COLUMNS + c(to),
        })
    }
}

/// Distinct move names.
const NAMES: usize = 94;

/// The move of each name of [`NativeGame::name_index`].
fn named(index: usize) -> Move {
    let n = |i: usize| i as u8;
    match index {
        0 => Move::Draw,
        1 => Move::Recycle,
        2 => Move::WasteToFoundation,
        3..=9 => Move::WasteToColumn(n(index - 3)),
        10..=16 => Move::ColumnToFoundation(n(index - 10)),
        17..=65 => Move::ColumnToColumn {
            from: n((index - 17) / COLUMNS),
            to: n((index - 17) % COLUMNS),
            start: 0,
        },
        _ => Move::FoundationToColumn {
            suit: n((index - 66) / COLUMNS),
            to: n((index - 66) % COLUMNS),
        },
    }
}

/// `(draw, columns, hidden, stock, waste, foundation)`: card indices, each column's exposed
/// card, the stock's next card and the waste's top card last; how many of each column's
/// cards are face down; each suit's foundation height.
impl Plain for Klondike {
    const PARTS: &'static [(&'static str, Shape)] = &[
        ("draw", Shape::Number),
        ("columns", Shape::ListOf(&Shape::Bytes)),
        ("hidden", Shape::Bytes),
        ("stock", Shape::Bytes),
        ("waste", Shape::Bytes),
        ("foundation", Shape::Bytes),
    ];

    fn from_parts(parts: Vec<Part>) -> Result<Self, InvalidPosition> {
        let mut parts = Parts::new("Klondike", parts);
        let reason = "a Klondike position has 7 columns and 4 foundations";
        let state = Klondike {
            draw: parts.number()?,
            columns: exactly(parts.piles()?, reason)?,
            hidden: exactly(parts.numbers()?, reason)?,
            stock: parts.numbers()?,
            waste: parts.numbers()?,
            foundation: exactly(parts.numbers()?, reason)?,
        };
        parts.end()?;
        state.check()?;
        Ok(state)
    }

    fn to_parts(&self) -> Vec<Part> {
        vec![
            Part::Number(self.draw),
            piles_part(&self.columns),
            Part::Numbers(self.hidden.to_vec()),
            Part::Numbers(self.stock.clone()),
            Part::Numbers(self.waste.clone()),
            Part::Numbers(self.foundation.to_vec()),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_move_name_has_its_index() {
        let moves = Klondike::named_moves();
        assert_eq!(moves.len(), NAMES);
        for (index, mv) in moves.iter().enumerate() {
            assert_eq!(Klondike::name_index(mv), Some(index), "{mv}");
        }
        let names: std::collections::HashSet<String> =
            moves.iter().map(ToString::to_string).collect();
        assert_eq!(names.len(), NAMES, "the names are distinct");
    }

    #[test]
    fn a_position_crosses_as_parts_and_back() {
        let dealt = Klondike::from_seed(11, 3).unwrap();
        assert_eq!(Klondike::from_parts(dealt.to_parts()).unwrap(), dealt);
        let mut parts = dealt.to_parts();
        parts[1] = Part::List(vec![Part::Numbers(vec![0]); 6]);
        let refused = Klondike::from_parts(parts).unwrap_err();
        assert!(refused.0.contains("7 columns"), "{refused}");
    }
}
