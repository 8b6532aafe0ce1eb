//! The one trait every game of the core implements, so that each capability (legal moves,
//! solving, reference players) is written once and dispatched by game.
//!
//! A fifth game implements [`NativeGame`] (and [`crate::players::Players`] once it has
//! reference players) and is named in the glue's registry; nothing else changes.

use std::fmt;

use crate::expert::{self, Expert, ExpertMove};
use crate::freecell::{self, FreeCell, FreeCellMove};
use crate::golf::{self, Golf, GolfMove};
use crate::kansas::{self, Kansas, KansasMove};
use crate::klondike::solver;
use crate::klondike::{Klondike, Move};
use crate::search::{Budget, Report};

/// What a caller may ask of a solver beyond its budget.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolveOptions {
    /// Look for a win only (certifying deals): a game whose solver proves losses by a
    /// different search than it finds wins (Kansas) spends the whole budget on wins.
    /// Solvers that find wins first anyway ignore it.
    pub wins_only: bool,
}

/// A game's position with every card known, its moves in the notation of docs/rules.md, and its
/// solver.
pub trait NativeGame: Clone + Send + Sync + 'static {
    /// A move; its `Display` is the notation of docs/rules.md, as the engine of record parses it.
    type Move: Copy + Eq + std::hash::Hash + fmt::Debug + fmt::Display + Send;

    /// The game's name in the registry (`patience.games`).
    const NAME: &'static str;

    /// Every legal move, in the engine of record's order.
    fn moves(&self) -> Vec<Self::Move>;

    /// Plays a move that [`NativeGame::moves`] listed.
    fn play(&mut self, mv: Self::Move);

    /// Whether the game is won as the solver counts it (for Klondike and Solitaire
    /// Expert: solved, the engine plays out the rest by itself).
    fn won(&self) -> bool;

    /// Solves the position within `budget`; `stop` is asked now and then whether to give
    /// up (for Ctrl-C).
    fn solve(
        &self,
        budget: &Budget,
        options: SolveOptions,
        stop: &mut dyn FnMut() -> bool,
    ) -> Report<Self::Move>;
}

/// [`NativeGame`] for a game whose position has `legal_moves` and `apply`, whose win is
/// `$won` and whose solver is `$solve` (it takes no options).
macro_rules! native_game {
    ($game:ty, $move:ty, $name:literal, $won:ident, $solve:path) => {
        impl NativeGame for $game {
            type Move = $move;
            const NAME: &'static str = $name;

            fn moves(&self) -> Vec<$move> {
                self.legal_moves()
            }

            fn play(&mut self, mv: $move) {
                self.apply(mv);
            }

            fn won(&self) -> bool {
                self.$won()
            }

            fn solve(
                &self,
                budget: &Budget,
                _options: SolveOptions,
                stop: &mut dyn FnMut() -> bool,
            ) -> Report<$move> {
                $solve(self, budget, stop)
            }
        }
    };
}

native_game!(Klondike, Move, "klondike", is_solved, solver::solve);
native_game!(Golf, GolfMove, "golf", is_won, golf::solve);
native_game!(Expert, ExpertMove, "expert", is_solved, expert::solve);
native_game!(
    FreeCell,
    FreeCellMove,
    "freecell",
    is_solved,
    freecell::solve
);

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
            kansas::solve_for_win(self, budget, stop)
        } else {
            kansas::solve(self, budget, stop)
        }
    }
}
