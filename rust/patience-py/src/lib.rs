//! PyO3 glue: exposes `patience-core` to Python as `patience._core`. No algorithms here.
//!
//! Each capability is one function taking the game's name: `successors`, `solve`,
//! `players`, `choose`, `playout`, `results` and `evidence`. The name picks the game's type in the
//! registry macro `by_game!`, and the capability is written once, generic over the core's
//! [`NativeGame`] and [`Players`] traits (every game implements both); `Bridge` turns each
//! game's position tuple (as the game's Python module gives it, `native_position()`) into
//! the core's position and back. A fifth game adds its `Bridge` and a line to the registry.

use patience_core::expert::{self, Expert};
use patience_core::freecell::{self, FreeCell};
use patience_core::game::{NativeGame, SolveOptions};
use patience_core::golf::{self, Golf};
use patience_core::kansas::{self, Kansas};
use patience_core::klondike::{Klondike, Move, COLUMNS};
use patience_core::players::{player_index, playout_as as play_game, Information, Players};
use patience_core::search::{Budget, Outcome, Report};
use patience_core::shuffle;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyList, PyString, PyTuple};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

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

/// A list of card indices (or counts) as bytes, each checked like [`small`]'s, read straight
/// from a Python list (converting through `Vec<u16>` cost more than solving an easy
/// Klondike deal); any other sequence goes through that conversion.
fn bytes_from(value: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    if let Ok(bytes) = value.cast::<PyBytes>() {
        // as `native_position()` gives them: read at once (the position's check that
        // follows refuses a card or count out of range)
        return Ok(bytes.as_bytes().to_vec());
    }
    match value.cast::<PyList>() {
        Ok(list) => list
            .iter()
            .map(|item| {
                let v = item.extract::<u16>()?;
                u8::try_from(v).map_err(|_| PyValueError::new_err(format!("{v} is out of range")))
            })
            .collect(),
        Err(_) => small(&value.extract::<Vec<u16>>()?),
    }
}

fn wide(values: &[u8]) -> Vec<u16> {
    values.iter().map(|&v| u16::from(v)).collect()
}

/// [`klondike_from`] reading the Python tuple directly (see [`bytes_from`]).
fn klondike_from_py(position: &Bound<'_, PyAny>) -> PyResult<Klondike> {
    let Ok(parts) = position.cast::<PyTuple>() else {
        return klondike_from(position.extract::<Position>()?);
    };
    if parts.len() != 6 {
        return klondike_from(position.extract::<Position>()?);
    }
    let columns = parts.get_item(1)?;
    let column_count = columns.len()?;
    let hidden = bytes_from(&parts.get_item(2)?)?;
    let foundation = bytes_from(&parts.get_item(5)?)?;
    if column_count != COLUMNS || hidden.len() != COLUMNS || foundation.len() != 4 {
        return Err(PyValueError::new_err(
            "a Klondike position has 7 columns and 4 foundations",
        ));
    }
    let mut narrow_columns: [Vec<u8>; COLUMNS] = Default::default();
    for (i, column) in columns.try_iter()?.enumerate() {
        narrow_columns[i] = bytes_from(&column?)?;
    }
    let state = Klondike {
        draw: parts.get_item(0)?.extract()?,
        columns: narrow_columns,
        hidden: std::array::from_fn(|i| hidden[i]),
        stock: bytes_from(&parts.get_item(3)?)?,
        waste: bytes_from(&parts.get_item(4)?)?,
        foundation: std::array::from_fn(|i| foundation[i]),
    };
    state
        .check()
        .map_err(|error| PyValueError::new_err(error.to_string()))?;
    Ok(state)
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

/// A Klondike position as `native_position()` gives it: [`Position`] with `bytes` for
/// its lists (a `Vec<u8>` reaches Python as `bytes`), which are read at once.
type PositionBytes = (u8, Vec<Vec<u8>>, Vec<u8>, Vec<u8>, Vec<u8>, Vec<u8>);

fn position_of(state: &Klondike) -> PositionBytes {
    (
        state.draw,
        state.columns.to_vec(),
        state.hidden.to_vec(),
        state.stock.clone(),
        state.waste.clone(),
        state.foundation.to_vec(),
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

/// A FreeCell position as Python passes it: `(columns, cells, foundation)`: card indices,
/// each column's exposed card last, each cell's card or None, each suit's foundation height.
type FreeCellPosition = (Vec<Vec<u16>>, Vec<Option<u16>>, Vec<u16>);

fn freecell_from(position: FreeCellPosition) -> PyResult<FreeCell> {
    let (columns, cells, foundation) = position;
    if columns.len() != freecell::COLUMNS || cells.len() != freecell::CELLS || foundation.len() != 4
    {
        return Err(PyValueError::new_err(
            "a FreeCell position has 8 columns, 4 cells and 4 foundations",
        ));
    }
    let mut narrow: [Vec<u8>; freecell::COLUMNS] = Default::default();
    for (i, column) in columns.iter().enumerate() {
        narrow[i] = small(column)?;
    }
    let mut narrow_cells = [None; freecell::CELLS];
    for (slot, cell) in narrow_cells.iter_mut().zip(&cells) {
        *slot = cell.map(|c| small(&[c])).transpose()?.map(|c| c[0]);
    }
    let foundation = small(&foundation)?;
    let state = FreeCell {
        columns: narrow,
        cells: narrow_cells,
        foundation: std::array::from_fn(|i| foundation[i]),
    };
    state
        .check()
        .map_err(|error| PyValueError::new_err(error.to_string()))?;
    Ok(state)
}

fn freecell_position_of(state: &FreeCell) -> FreeCellPosition {
    (
        state.columns.iter().map(|column| wide(column)).collect(),
        state.cells.iter().map(|c| c.map(u16::from)).collect(),
        wide(&state.foundation),
    )
}

/// A game's position as it crosses between Python and the core.
trait Bridge: NativeGame {
    /// The position from the tuple the game's Python module gives (`native_position()`),
    /// checked; a malformed one is a `ValueError`.
    fn from_py(position: &Bound<'_, PyAny>) -> PyResult<Self>;
    /// The position as that tuple.
    fn to_py(&self, py: Python<'_>) -> PyResult<Py<PyAny>>;
    /// For a game whose moves have few names: the Python string of `mv`'s name, made once
    /// a process. `None` (the default) has [`answer`] write each name.
    fn name_of(_py: Python<'_>, _mv: &Self::Move) -> Option<Py<PyString>> {
        None
    }
    /// The names of `moves` by [`Bridge::name_of`], if it names them.
    fn names_of(py: Python<'_>, moves: &[Self::Move]) -> Option<Vec<Py<PyString>>> {
        moves.iter().map(|mv| Self::name_of(py, mv)).collect()
    }
}

/// Klondike's move names, by [`klondike_name_index`].
static KLONDIKE_NAMES: PyOnceLock<Vec<Py<PyString>>> = PyOnceLock::new();

/// Klondike's moves by name: 94 names (a column-to-column move's start is not in its
/// name), numbered in the order of [`Move`]'s kinds.
fn klondike_name_index(mv: &Move) -> usize {
    let c = |i: u8| usize::from(i);
    match *mv {
        Move::Draw => 0,
        Move::Recycle => 1,
        Move::WasteToFoundation => 2,
        Move::WasteToColumn(to) => 3 + c(to),
        Move::ColumnToFoundation(from) => 10 + c(from),
        Move::ColumnToColumn { from, to, .. } => 17 + c(from) * COLUMNS + c(to),
        Move::FoundationToColumn { suit, to } => 66 + c(suit) * COLUMNS + c(to),
    }
}

/// The move of each name of [`klondike_name_index`].
fn klondike_named(index: usize) -> Move {
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

/// [`Bridge`] for a game from its tuple type and its two conversions.
macro_rules! bridge {
    ($game:ty, $position:ty, $from:ident, $to:ident) => {
        impl Bridge for $game {
            fn from_py(position: &Bound<'_, PyAny>) -> PyResult<Self> {
                $from(position.extract::<$position>()?)
            }
            fn to_py(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
                Ok($to(self).into_pyobject(py)?.into_any().unbind())
            }
        }
    };
}

impl Bridge for Klondike {
    fn from_py(position: &Bound<'_, PyAny>) -> PyResult<Self> {
        klondike_from_py(position)
    }
    fn to_py(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        Ok(position_of(self).into_pyobject(py)?.into_any().unbind())
    }
    fn name_of(py: Python<'_>, mv: &Move) -> Option<Py<PyString>> {
        let names = KLONDIKE_NAMES.get_or_init(py, || {
            (0..94)
                .map(|index| PyString::new(py, &klondike_named(index).to_string()).unbind())
                .collect()
        });
        Some(names[klondike_name_index(mv)].clone_ref(py))
    }
    fn names_of(py: Python<'_>, moves: &[Move]) -> Option<Vec<Py<PyString>>> {
        let names = KLONDIKE_NAMES.get_or_init(py, || {
            (0..94)
                .map(|index| PyString::new(py, &klondike_named(index).to_string()).unbind())
                .collect()
        });
        Some(
            moves
                .iter()
                .map(|mv| names[klondike_name_index(mv)].clone_ref(py))
                .collect(),
        )
    }
}
bridge!(Golf, GolfPosition, golf_from, golf_position_of);
bridge!(Kansas, KansasPosition, kansas_from, kansas_position_of);
bridge!(Expert, ExpertPosition, expert_from, expert_position_of);
bridge!(
    FreeCell,
    FreeCellPosition,
    freecell_from,
    freecell_position_of
);

/// The registry of games: runs `$body` with `$G` the type of the game named `$name`.
macro_rules! by_game {
    ($name:expr, $G:ident => $body:expr) => {
        match $name {
            name if name == Klondike::NAME => {
                type $G = Klondike;
                $body
            }
            name if name == Golf::NAME => {
                type $G = Golf;
                $body
            }
            name if name == Kansas::NAME => {
                type $G = Kansas;
                $body
            }
            name if name == Expert::NAME => {
                type $G = Expert;
                $body
            }
            name if name == FreeCell::NAME => {
                type $G = FreeCell;
                $body
            }
            other => Err(PyValueError::new_err(format!(
                "no native game {other:?} (games: klondike, golf, kansas, expert, freecell)"
            ))),
        }
    };
}

/// `(outcome, moves, nodes, seconds, reason)` as `solve` returns it.
type SolveAnswer = (String, Vec<Py<PyString>>, u64, f64, Option<String>);

/// A hasher for the few bytes of a move, for [`answer`]'s table of names (the standard
/// hasher cost more than the formatting it saves).
#[derive(Default)]
struct MoveHasher(u64);

impl Hasher for MoveHasher {
    fn finish(&self) -> u64 {
        self.0.wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(byte);
        }
    }
}

/// Every legal move of a position of game `game`, in notation, each with the position it
/// leads to (for the differential tests against the engine of record).
#[pyfunction]
fn successors(
    py: Python<'_>,
    game: &str,
    position: &Bound<'_, PyAny>,
) -> PyResult<Vec<(String, Py<PyAny>)>> {
    fn each<G: Bridge>(
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<(String, Py<PyAny>)>> {
        let state = G::from_py(position)?;
        state
            .moves()
            .into_iter()
            .map(|mv| {
                let mut next = state.clone();
                next.play(mv);
                Ok((mv.to_string(), next.to_py(py)?))
            })
            .collect()
    }
    by_game!(game, G => each::<G>(py, position))
}

/// Solves a position of game `game` with every card known. Returns `(outcome, moves,
/// nodes, seconds, reason)`, outcome one of `solved`, `unsolvable`, `unknown`. With
/// `wins_only` the search looks for a win only (Kansas; the other solvers find wins first
/// anyway). The GIL is released while searching; Ctrl-C stops the search cleanly (outcome
/// `unknown`, reason `interrupted`).
#[pyfunction]
#[pyo3(signature = (game, position, *, max_nodes, max_seconds, max_states, wins_only = false))]
fn solve(
    py: Python<'_>,
    game: &str,
    position: &Bound<'_, PyAny>,
    max_nodes: u64,
    max_seconds: f64,
    max_states: usize,
    wins_only: bool,
) -> PyResult<SolveAnswer> {
    let budget = Budget {
        max_nodes,
        max_seconds,
        max_states,
    };
    let options = SolveOptions { wins_only };
    fn each<G: Bridge>(
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        budget: &Budget,
        options: SolveOptions,
    ) -> PyResult<SolveAnswer> {
        let state = G::from_py(position)?;
        let report = py.detach(|| {
            let mut interrupted = || Python::attach(|py| py.check_signals().is_err());
            state.solve(budget, options, &mut interrupted)
        });
        Ok(answer::<G>(py, report))
    }
    by_game!(game, G => each::<G>(py, position, &budget, options))
}

/// The report as Python gets it. Each move's notation is written and made a Python string
/// once a solve (a win's moves repeat: half a draw-1 line is `draw`): writing one for each
/// move had cost more than the search of an easy deal.
fn answer<G: Bridge>(py: Python<'_>, report: Report<G::Move>) -> SolveAnswer {
    let (outcome, moves, reason) = match report.outcome {
        Outcome::Solved(moves) => {
            if !moves.is_empty() {
                if let Some(moves) = G::names_of(py, &moves) {
                    return (
                        "solved".to_string(),
                        moves,
                        report.nodes,
                        report.seconds,
                        None,
                    );
                }
            }
            let mut names: HashMap<&G::Move, Py<PyString>, BuildHasherDefault<MoveHasher>> =
                HashMap::with_capacity_and_hasher(64, Default::default());
            let mut last: Option<(&G::Move, Py<PyString>)> = None;
            let mut listed = Vec::with_capacity(moves.len());
            for mv in &moves {
                // a move like the one before (a run of draws) needs no look-up
                let name = match &last {
                    Some((previous, name)) if *previous == mv => name.clone_ref(py),
                    _ => names
                        .entry(mv)
                        .or_insert_with(|| PyString::new(py, &mv.to_string()).unbind())
                        .clone_ref(py),
                };
                listed.push(name.clone_ref(py));
                last = Some((mv, name));
            }
            let moves = listed;
            ("solved", moves, None)
        }
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

/// The reference players of game `game`, weakest first.
#[pyfunction]
fn players(game: &str) -> PyResult<Vec<&'static str>> {
    by_game!(game, G => Ok(G::PLAYERS.to_vec()))
}

/// The model of information called `name`, one `G`'s players play under, or a
/// `ValueError` naming those.
fn information_of<G: Players>(name: &str) -> PyResult<Information> {
    Information::named(name)
        .filter(|model| G::INFORMATION.contains(model))
        .ok_or_else(|| {
            let known: Vec<&str> = G::INFORMATION.iter().map(|model| model.name()).collect();
            PyValueError::new_err(format!(
                "no {} model of information {name:?} (models: {})",
                G::NAME,
                known.join(", ")
            ))
        })
}

/// The index of player `name` of game `G`, or a `ValueError` naming the ladder.
fn player_of<G: Players>(name: &str) -> PyResult<usize> {
    player_index::<G>(name).ok_or_else(|| {
        PyValueError::new_err(format!(
            "no {} player {name:?} (players: {})",
            G::NAME,
            G::PLAYERS.join(", ")
        ))
    })
}

/// The move reference player `player` makes in a position of game `game` (seeing only
/// what the model of information `information` shows of it, a person's by default, and
/// remembering nothing of earlier positions), with the player's randomness seeded by
/// `seed`; `None` when it has none.
#[pyfunction]
#[pyo3(signature = (game, position, player, seed, information = "person"))]
fn choose(
    py: Python<'_>,
    game: &str,
    position: &Bound<'_, PyAny>,
    player: &str,
    seed: u64,
    information: &str,
) -> PyResult<Option<String>> {
    fn each<G: Bridge + Players>(
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        player: &str,
        seed: u64,
        information: &str,
    ) -> PyResult<Option<String>> {
        let index = player_of::<G>(player)?;
        let information = information_of::<G>(information)?;
        let view = G::from_py(position)?.observe_as(information);
        let mut rng = shuffle::SplitMix64::new(seed);
        Ok(py
            .detach(|| G::choose(&view, &mut G::Memory::default(), index, &mut rng))
            .map(|mv| mv.to_string()))
    }
    by_game!(game, G => each::<G>(py, position, player, seed, information))
}

/// A game played from a position of game `game` by reference player `player` with seed
/// `seed`, at most `max_moves` moves, the player seeing what `information` shows (a
/// person's view by default): `(won, moves)`. The GIL is released while playing.
#[pyfunction]
#[pyo3(signature = (game, position, player, seed, max_moves, information = "person"))]
fn playout(
    py: Python<'_>,
    game: &str,
    position: &Bound<'_, PyAny>,
    player: &str,
    seed: u64,
    max_moves: usize,
    information: &str,
) -> PyResult<(bool, Vec<String>)> {
    fn each<G: Bridge + Players>(
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        player: &str,
        seed: u64,
        max_moves: usize,
        information: &str,
    ) -> PyResult<(bool, Vec<String>)> {
        let index = player_of::<G>(player)?;
        let information = information_of::<G>(information)?;
        let start = G::from_py(position)?;
        let game = py.detach(|| play_game(&start, index, seed, max_moves, information));
        Ok((
            game.won,
            game.moves.iter().map(ToString::to_string).collect(),
        ))
    }
    by_game!(game, G => each::<G>(py, position, player, seed, max_moves, information))
}

/// How far reference player `player` gets from a position of game `game` in each of the
/// playouts seeded by `seeds` (at most `max_moves` moves each): the progress of the
/// position each ended in, 1.0 exactly for a win (the core's `Players::progress`: won or
/// lost, but Kansas's share of cards home). The GIL is released while playing.
#[pyfunction]
#[pyo3(signature = (game, position, player, seeds, max_moves, information = "person"))]
fn results(
    py: Python<'_>,
    game: &str,
    position: &Bound<'_, PyAny>,
    player: &str,
    seeds: Vec<u64>,
    max_moves: usize,
    information: &str,
) -> PyResult<Vec<f64>> {
    fn each<G: Bridge + Players>(
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        player: &str,
        seeds: &[u64],
        max_moves: usize,
        information: &str,
    ) -> PyResult<Vec<f64>> {
        let index = player_of::<G>(player)?;
        let information = information_of::<G>(information)?;
        let start = G::from_py(position)?;
        Ok(py.detach(|| {
            seeds
                .iter()
                .map(|&seed| play_game(&start, index, seed, max_moves, information).progress)
                .collect()
        }))
    }
    by_game!(game, G => each::<G>(py, position, player, &seeds, max_moves, information))
}

/// One deal's cheap evidence as [`evidence`] returns it: `(outcome, certificate, nodes,
/// first moves that still win, legal first moves, playouts)`, the playouts by player in
/// the order asked, each `(won, counted moves, moves)`.
type DealEvidence = (
    String,
    Vec<String>,
    u64,
    u32,
    u32,
    Vec<Vec<(bool, u32, u32)>>,
);

/// What a cheap rating needs to know of a move's name: whether it is counted.
struct Counted {
    prefixes: Vec<String>,
    suffixes: Vec<String>,
}

impl Counted {
    fn counts(&self, name: &str) -> bool {
        self.prefixes
            .iter()
            .any(|prefix| name.starts_with(prefix.as_str()))
            || self
                .suffixes
                .iter()
                .any(|suffix| name.ends_with(suffix.as_str()))
    }
}

/// The cheap evidence of each of `positions` of game `game`, in one call (a catalog job's
/// chunk of deals, the GIL released throughout): the solver looks for a win within
/// `max_nodes` nodes and `max_states` positions (`max_seconds` only guards against a
/// runaway), and its certificate is replayed move by move in the core's engine, each move
/// checked legal, to a win (a certificate that does not replay is a `RuntimeError`: a bug
/// in the solver), and returned up to the position the game counts as won, as the engine
/// of record keeps it. For a deal it wins, every legal first move is played and the position
/// after it solved again within `first_move_nodes` nodes (and four times as many
/// positions; a won position counts as winning, an undecided one as not), and each
/// `(player, seeds)` of `players` plays a playout a seed of at most `max_moves` moves, the
/// player seeing what a person sees; a playout's counted moves are those whose name starts
/// with one of `prefixes` or ends with one of `suffixes` (the cards it cleared, as the
/// game's Python class declares). A deal not won has only its outcome and nodes.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (
    game, positions, *, max_nodes, max_seconds, max_states, first_move_nodes, players,
    max_moves, prefixes, suffixes
))]
fn evidence(
    py: Python<'_>,
    game: &str,
    positions: Vec<Bound<'_, PyAny>>,
    max_nodes: u64,
    max_seconds: f64,
    max_states: usize,
    first_move_nodes: u64,
    players: Vec<(String, Vec<u64>)>,
    max_moves: usize,
    prefixes: Vec<String>,
    suffixes: Vec<String>,
) -> PyResult<Vec<DealEvidence>> {
    #[allow(clippy::too_many_arguments)]
    fn each<G: Bridge + Players>(
        py: Python<'_>,
        positions: &[Bound<'_, PyAny>],
        budget: &Budget,
        first_moves: &Budget,
        players: &[(String, Vec<u64>)],
        max_moves: usize,
        counted: &Counted,
    ) -> PyResult<Vec<DealEvidence>> {
        let states: Vec<G> = positions.iter().map(G::from_py).collect::<PyResult<_>>()?;
        let ladder: Vec<(usize, &[u64])> = players
            .iter()
            .map(|(name, seeds)| Ok((player_of::<G>(name)?, seeds.as_slice())))
            .collect::<PyResult<_>>()?;
        let options = SolveOptions { wins_only: true };
        py.detach(|| {
            let mut interrupted = || Python::attach(|py| py.check_signals().is_err());
            states
                .iter()
                .map(|state| {
                    let report = state.solve(budget, options, &mut interrupted);
                    let Outcome::Solved(certificate) = report.outcome else {
                        let outcome = match report.outcome {
                            Outcome::Unsolvable => "unsolvable",
                            _ => "unknown",
                        };
                        return Ok((outcome.to_string(), Vec::new(), report.nodes, 0, 0, vec![]));
                    };
                    // The certificate as the engine of record keeps it: up to the position
                    // the game counts as won (Klondike's and Solitaire Expert's engines play
                    // out a solved position by themselves).
                    let mut replay = state.clone();
                    let mut kept = certificate.len();
                    for (index, mv) in certificate.iter().enumerate() {
                        if replay.won() {
                            kept = index;
                            break;
                        }
                        if !replay.moves().contains(mv) {
                            return Err(pyo3::exceptions::PyRuntimeError::new_err(format!(
                                "the {} solver's certificate does not replay: move {index} \
                                 ({mv}) is not legal",
                                G::NAME
                            )));
                        }
                        replay.play(*mv);
                    }
                    if !replay.won() {
                        return Err(pyo3::exceptions::PyRuntimeError::new_err(format!(
                            "the {} solver's certificate does not end in a win",
                            G::NAME
                        )));
                    }
                    let legal = state.moves();
                    let mut winning = 0u32;
                    for &mv in &legal {
                        let mut after = state.clone();
                        after.play(mv);
                        let won = after.won()
                            || matches!(
                                after.solve(first_moves, options, &mut interrupted).outcome,
                                Outcome::Solved(_)
                            );
                        winning += u32::from(won);
                    }
                    let playouts = ladder
                        .iter()
                        .map(|&(index, seeds)| {
                            seeds
                                .iter()
                                .map(|&seed| {
                                    let game = play_game(
                                        state,
                                        index,
                                        seed,
                                        max_moves,
                                        Information::Person,
                                    );
                                    let cleared = game
                                        .moves
                                        .iter()
                                        .filter(|mv| counted.counts(&mv.to_string()))
                                        .count();
                                    (game.won, cleared as u32, game.moves.len() as u32)
                                })
                                .collect()
                        })
                        .collect();
                    Ok((
                        "solved".to_string(),
                        certificate[..kept]
                            .iter()
                            .map(ToString::to_string)
                            .collect(),
                        report.nodes,
                        winning,
                        legal.len() as u32,
                        playouts,
                    ))
                })
                .collect()
        })
    }
    let budget = Budget {
        max_nodes,
        max_seconds,
        max_states,
    };
    let first_moves = Budget {
        max_nodes: first_move_nodes,
        max_seconds,
        max_states: 4 * first_move_nodes as usize,
    };
    let counted = Counted { prefixes, suffixes };
    by_game!(game, G => each::<G>(py, &positions, &budget, &first_moves, &players, max_moves, &counted))
}

/// The native core of `patience`.
#[pymodule]
fn _core(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(seeded_deck, module)?)?;
    module.add_function(wrap_pyfunction!(successors, module)?)?;
    module.add_function(wrap_pyfunction!(solve, module)?)?;
    module.add_function(wrap_pyfunction!(players, module)?)?;
    module.add_function(wrap_pyfunction!(choose, module)?)?;
    module.add_function(wrap_pyfunction!(playout, module)?)?;
    module.add_function(wrap_pyfunction!(results, module)?)?;
    module.add_function(wrap_pyfunction!(evidence, module)?)?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
