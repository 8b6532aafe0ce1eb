//! PyO3 glue: exposes `patience-core` to Python as `patience._core`. No algorithms here.

use patience_core::expert::{self, Expert};
use patience_core::golf::{self, Golf};
use patience_core::kansas::{self, Kansas};
use patience_core::klondike::{Klondike, COLUMNS};
use patience_core::klondike_solver;
use patience_core::search::{Budget, Outcome, Report};
use patience_core::shuffle;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The deal for `(key, seed)` as card indices (`suit * 13 + rank - 1`), first-dealt first.
#[pyfunction]
#[pyo3(signature = (key, seed, *, decks = 1, version = 1))]
fn seeded_deck(key: &str, seed: u64, decks: usize, version: u32) -> PyResult<Vec<u16>> {
    if decks == 0 || decks > 8 {
        return Err(PyValueError::new_err(format!(
            "decks must be 1 to 8, not {decks}"
        )));
    }
    shuffle::seeded_indices(key, seed, decks, version)
        .map(|cards| wide(&cards))
        .map_err(|error| PyValueError::new_err(error.to_string()))
}

/// A Klondike position as Python passes it: `(draw, columns, hidden, stock, waste,
/// foundation)`, card indices, the stock and waste top card last.
/// (Lists of `u16`, not `u8`: PyO3 would hand a `Vec<u8>` to Python as `bytes`.)
type Position = (u8, Vec<Vec<u16>>, Vec<u16>, Vec<u16>, Vec<u16>, Vec<u16>);

fn small(values: &[u16]) -> PyResult<Vec<u8>> {
    values
        .iter()
        .map(|&v| {
            u8::try_from(v).map_err(|_| PyValueError::new_err(format!("{v} is out of range")))
        })
        .collect()
}

fn wide(values: &[u8]) -> Vec<u16> {
    values.iter().map(|&v| u16::from(v)).collect()
}

fn klondike_from(position: Position) -> PyResult<Klondike> {
    let (draw, columns, hidden, stock, waste, foundation) = position;
    if columns.len() != COLUMNS || hidden.len() != COLUMNS || foundation.len() != 4 {
        return Err(PyValueError::new_err(
            "a Klondike position has 7 columns and 4 foundations",
        ));
    }
    let mut narrow_columns: [Vec<u8>; COLUMNS] = Default::default();
    for (i, column) in columns.iter().enumerate() {
        narrow_columns[i] = small(column)?;
    }
    let hidden = small(&hidden)?;
    let foundation = small(&foundation)?;
    let state = Klondike {
        draw,
        columns: narrow_columns,
        hidden: std::array::from_fn(|i| hidden[i]),
        stock: small(&stock)?,
        waste: small(&waste)?,
        foundation: std::array::from_fn(|i| foundation[i]),
    };
    state
        .check()
        .map_err(|error| PyValueError::new_err(error.to_string()))?;
    Ok(state)
}

fn position_of(state: &Klondike) -> Position {
    (
        state.draw,
        state.columns.iter().map(|column| wide(column)).collect(),
        wide(&state.hidden),
        wide(&state.stock),
        wide(&state.waste),
        wide(&state.foundation),
    )
}

/// `(outcome, moves, nodes, seconds, reason)` as `klondike_solve` returns it.
type SolveAnswer = (String, Vec<String>, u64, f64, Option<String>);

/// Every legal move of a Klondike position, in notation, each with the position it leads
/// to (for the differential tests against the engine of record).
#[pyfunction]
fn klondike_successors(position: Position) -> PyResult<Vec<(String, Position)>> {
    let state = klondike_from(position)?;
    Ok(successors(
        &state,
        state.legal_moves(),
        |next, mv| {
            next.apply(mv);
        },
        position_of,
    ))
}

/// Each move in notation with the position it leads to from `state`.
fn successors<S: Clone, M: Copy + ToString, P>(
    state: &S,
    moves: Vec<M>,
    apply: impl Fn(&mut S, M),
    position_of: impl Fn(&S) -> P,
) -> Vec<(String, P)> {
    moves
        .into_iter()
        .map(|mv| {
            let mut next = state.clone();
            apply(&mut next, mv);
            (mv.to_string(), position_of(&next))
        })
        .collect()
}

/// Solves a Klondike position with every card known. Returns `(outcome, moves, nodes,
/// seconds, reason)`, outcome one of `solved`, `unsolvable`, `unknown`. The GIL is released
/// while searching; Ctrl-C stops the search cleanly (outcome `unknown`, reason
/// `interrupted`).
#[pyfunction]
#[pyo3(signature = (position, *, max_nodes, max_seconds, max_states))]
fn klondike_solve(
    py: Python<'_>,
    position: Position,
    max_nodes: u64,
    max_seconds: f64,
    max_states: usize,
) -> PyResult<SolveAnswer> {
    let state = klondike_from(position)?;
    let budget = Budget {
        max_nodes,
        max_seconds,
        max_states,
    };
    Ok(run_solver(py, &state, &budget, klondike_solver::solve))
}

/// The signature every solver of the core has.
type Solver<S, M> = fn(&S, &Budget, &mut dyn FnMut() -> bool) -> Report<M>;

/// Runs `solver` with the GIL released, stopping cleanly on Ctrl-C; the answer for Python.
fn run_solver<S: Sync, M: ToString + Send>(
    py: Python<'_>,
    state: &S,
    budget: &Budget,
    solver: Solver<S, M>,
) -> SolveAnswer {
    let report = py.detach(|| {
        let mut interrupted = || Python::attach(|py| py.check_signals().is_err());
        solver(state, budget, &mut interrupted)
    });
    answer(report)
}

fn answer<M: ToString>(report: Report<M>) -> SolveAnswer {
    let (outcome, moves, reason) = match report.outcome {
        Outcome::Solved(moves) => (
            "solved",
            moves.iter().map(ToString::to_string).collect(),
            None,
        ),
        Outcome::Unsolvable => ("unsolvable", Vec::new(), None),
        Outcome::Unknown(reason) => ("unknown", Vec::new(), Some(reason)),
    };
    (
        outcome.to_string(),
        moves,
        report.nodes,
        report.seconds,
        reason,
    )
}

/// A Golf position as Python passes it: `(wrap, columns, stock, waste_top)`, card indices,
/// each column's exposed card and the stock's next card last.
type GolfPosition = (bool, Vec<Vec<u16>>, Vec<u16>, u16);

fn golf_from(position: GolfPosition) -> PyResult<Golf> {
    let (wrap, columns, stock, waste_top) = position;
    if columns.len() != golf::COLUMNS {
        return Err(PyValueError::new_err("a Golf position has 7 columns"));
    }
    let mut narrow: [Vec<u8>; golf::COLUMNS] = Default::default();
    for (i, column) in columns.iter().enumerate() {
        narrow[i] = small(column)?;
    }
    let state = Golf {
        wrap,
        columns: narrow,
        stock: small(&stock)?,
        waste_top: small(&[waste_top])?[0],
    };
    state
        .check()
        .map_err(|error| PyValueError::new_err(error.to_string()))?;
    Ok(state)
}

fn golf_position_of(state: &Golf) -> GolfPosition {
    (
        state.wrap,
        state.columns.iter().map(|column| wide(column)).collect(),
        wide(&state.stock),
        u16::from(state.waste_top),
    )
}

/// Every legal move of a Golf position, in notation, each with the position it leads to.
#[pyfunction]
fn golf_successors(position: GolfPosition) -> PyResult<Vec<(String, GolfPosition)>> {
    let state = golf_from(position)?;
    Ok(successors(
        &state,
        state.legal_moves(),
        Golf::apply,
        golf_position_of,
    ))
}

/// Solves a Golf position exactly; the answer and its handling as for `klondike_solve`
/// (`max_states` is accepted for the same signature; Golf's table needs no such limit).
#[pyfunction]
#[pyo3(signature = (position, *, max_nodes, max_seconds, max_states))]
fn golf_solve(
    py: Python<'_>,
    position: GolfPosition,
    max_nodes: u64,
    max_seconds: f64,
    max_states: usize,
) -> PyResult<SolveAnswer> {
    let state = golf_from(position)?;
    let budget = Budget {
        max_nodes,
        max_seconds,
        max_states,
    };
    Ok(run_solver(py, &state, &budget, golf::solve))
}

/// A Kansas position as Python passes it: `(base, reserve, columns, stock, waste,
/// foundation)`: the base rank (1-13), card indices with each pile's top (or next) card
/// last, and the cards on each suit's foundation.
type KansasPosition = (u8, Vec<u16>, Vec<Vec<u16>>, Vec<u16>, Vec<u16>, Vec<u16>);

fn kansas_from(position: KansasPosition) -> PyResult<Kansas> {
    let (base, reserve, columns, stock, waste, counts) = position;
    if columns.len() != kansas::COLUMNS || counts.len() != 4 {
        return Err(PyValueError::new_err(
            "a Kansas position has 3 columns and 4 foundations",
        ));
    }
    let mut narrow: [Vec<u8>; kansas::COLUMNS] = Default::default();
    for (i, column) in columns.iter().enumerate() {
        narrow[i] = small(column)?;
    }
    let counts = small(&counts)?;
    let state = Kansas {
        base,
        reserve: small(&reserve)?,
        columns: narrow,
        stock: small(&stock)?,
        waste: small(&waste)?,
        counts: std::array::from_fn(|i| counts[i]),
    };
    state
        .check()
        .map_err(|error| PyValueError::new_err(error.to_string()))?;
    Ok(state)
}

fn kansas_position_of(state: &Kansas) -> KansasPosition {
    (
        state.base,
        wide(&state.reserve),
        state.columns.iter().map(|column| wide(column)).collect(),
        wide(&state.stock),
        wide(&state.waste),
        wide(&state.counts),
    )
}

/// Every legal move of a Kansas position, in notation, each with the position it leads to.
#[pyfunction]
fn kansas_successors(position: KansasPosition) -> PyResult<Vec<(String, KansasPosition)>> {
    let state = kansas_from(position)?;
    Ok(successors(
        &state,
        state.legal_moves(),
        Kansas::apply,
        kansas_position_of,
    ))
}

/// Solves a Kansas position with every card known; the answer and its handling as for
/// `klondike_solve`. With `wins_only`, the search looks for a win only
/// (`kansas::solve_for_win`).
#[pyfunction]
#[pyo3(signature = (position, *, max_nodes, max_seconds, max_states, wins_only = false))]
fn kansas_solve(
    py: Python<'_>,
    position: KansasPosition,
    max_nodes: u64,
    max_seconds: f64,
    max_states: usize,
    wins_only: bool,
) -> PyResult<SolveAnswer> {
    let state = kansas_from(position)?;
    let budget = Budget {
        max_nodes,
        max_seconds,
        max_states,
    };
    let solver = if wins_only {
        kansas::solve_for_win
    } else {
        kansas::solve
    };
    Ok(run_solver(py, &state, &budget, solver))
}

/// A Solitaire Expert position as Python passes it: `(columns, hand, pile_suits,
/// pile_counts)`: card indices (the two copies of a card share one), each column's exposed
/// card last, each pile's suit (0-3, or None while empty) and height in the engine's order.
type ExpertPosition = (Vec<Vec<u16>>, Vec<u16>, Vec<Option<u16>>, Vec<u16>);

fn expert_from(position: ExpertPosition) -> PyResult<Expert> {
    let (columns, hand, suits, counts) = position;
    if columns.len() != expert::COLUMNS
        || suits.len() != expert::PILES
        || counts.len() != expert::PILES
    {
        return Err(PyValueError::new_err(
            "a Solitaire Expert position has 10 columns and 8 piles",
        ));
    }
    let mut narrow: [Vec<u8>; expert::COLUMNS] = Default::default();
    for (i, column) in columns.iter().enumerate() {
        narrow[i] = small(column)?;
    }
    let counts = small(&counts)?;
    let mut pile_suits = [None; expert::PILES];
    for (slot, suit) in pile_suits.iter_mut().zip(&suits) {
        *slot = suit.map(|s| small(&[s])).transpose()?.map(|s| s[0]);
    }
    let state = Expert {
        columns: narrow,
        hand: small(&hand)?,
        pile_suits,
        pile_counts: std::array::from_fn(|i| counts[i]),
    };
    state
        .check()
        .map_err(|error| PyValueError::new_err(error.to_string()))?;
    Ok(state)
}

fn expert_position_of(state: &Expert) -> ExpertPosition {
    (
        state.columns.iter().map(|column| wide(column)).collect(),
        wide(&state.hand),
        state.pile_suits.iter().map(|s| s.map(u16::from)).collect(),
        wide(&state.pile_counts),
    )
}

/// Every legal move of a Solitaire Expert position, in notation, each with the position it
/// leads to.
#[pyfunction]
fn expert_successors(position: ExpertPosition) -> PyResult<Vec<(String, ExpertPosition)>> {
    let state = expert_from(position)?;
    Ok(successors(
        &state,
        state.legal_moves(),
        Expert::apply,
        expert_position_of,
    ))
}

/// Solves a Solitaire Expert position (to one where every column is a single string, from
/// which the engine plays out by itself); the answer as for `klondike_solve`.
#[pyfunction]
#[pyo3(signature = (position, *, max_nodes, max_seconds, max_states))]
fn expert_solve(
    py: Python<'_>,
    position: ExpertPosition,
    max_nodes: u64,
    max_seconds: f64,
    max_states: usize,
) -> PyResult<SolveAnswer> {
    let state = expert_from(position)?;
    let budget = Budget {
        max_nodes,
        max_seconds,
        max_states,
    };
    Ok(run_solver(py, &state, &budget, expert::solve))
}

/// The native core of `patience`.
#[pymodule]
fn _core(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(seeded_deck, module)?)?;
    module.add_function(wrap_pyfunction!(klondike_successors, module)?)?;
    module.add_function(wrap_pyfunction!(klondike_solve, module)?)?;
    module.add_function(wrap_pyfunction!(golf_successors, module)?)?;
    module.add_function(wrap_pyfunction!(golf_solve, module)?)?;
    module.add_function(wrap_pyfunction!(kansas_successors, module)?)?;
    module.add_function(wrap_pyfunction!(kansas_solve, module)?)?;
    module.add_function(wrap_pyfunction!(expert_successors, module)?)?;
    module.add_function(wrap_pyfunction!(expert_solve, module)?)?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
