//! PyO3 glue: exposes `patience-core` to Python as `patience._core`. No algorithms here, and
//! no game: a game is named only in the registry macro `by_game!`, one line each.
//!
//! Each capability is one function taking the game's name: `successors`, `solve`,
//! `players`, `choose`, `playout`, `results` and `evidence`. The name picks the game's type in
//! `by_game!`, and the capability is written once, generic over the core's [`NativeGame`] and
//! [`Players`] traits. A position crosses as the core's plain parts
//! ([`patience_core::game::Plain`]), which `plain.rs` turns into Python objects and back for
//! every game. A new game implements those traits in its own folder of the core
//! (`rust/patience-core/src/<game>/`) and adds its line to `by_game!`; nothing else here
//! changes (tests/test_game_declarations.py checks that this crate names no other game).

mod plain;

use patience_core::game::{winning_first_moves, NativeGame, SolveOptions};
use patience_core::players::{
    moves_still_won, player_index, playout_as as play_game, Information, Players,
};
use patience_core::search::{Budget, Outcome, Report};
use patience_core::shuffle;
use plain::{names_of, position_from, position_to_py};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyString;
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

fn wide(values: &[u8]) -> Vec<u16> {
    values.iter().map(|&v| u16::from(v)).collect()
}

/// The registry of games: runs `$body` with `$G` the type of the game named `$name` (its
/// [`NativeGame::NAME`]). One line a game, and the only place this crate names one.
macro_rules! by_game {
    ($name:expr, $G:ident => $body:expr) => {
        by_game!(@registry $name, $G => $body;
            // registry: begin
            patience_core::klondike::Klondike,
            patience_core::golf::Golf,
            patience_core::kansas::Kansas,
            patience_core::expert::Expert,
            patience_core::freecell::FreeCell,
            // registry: end
        )
    };
    (@registry $name:expr, $G:ident => $body:expr; $($game:ty,)+) => {{
        let name: &str = $name;
        $(
            if name == <$game as NativeGame>::NAME {
                type $G = $game;
                $body
            } else
        )+
        {
            let known: Vec<&str> = vec![$(<$game as NativeGame>::NAME),+];
            Err(PyValueError::new_err(format!(
                "no native game {name:?} (games: {})",
                known.join(", ")
            )))
        }
    }};
}

/// `(outcome, moves, nodes, seconds, reason)` as `solve` returns it.
type SolveAnswer = (String, Vec<Py<PyString>>, u64, f64, Option<String>);

/// A hasher for the few bytes of a move, for [`answer`]'s table of names (the standard
/// hasher cost more than the formatting it saves) and [`evidence`]'s of the moves that
/// clear a card (asked at every move of every playout).
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
    fn each<G: NativeGame>(
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
    ) -> PyResult<Vec<(String, Py<PyAny>)>> {
        let state = position_from::<G>(position)?;
        state
            .moves()
            .into_iter()
            .map(|mv| {
                let mut next = state.clone();
                next.play(mv);
                Ok((mv.to_string(), position_to_py(py, &next)?))
            })
            .collect()
    }
    by_game!(game, G => each::<G>(py, position))
}

/// Solves a position of game `game` with every card known. Returns `(outcome, moves,
/// nodes, seconds, reason)`, outcome one of `solved`, `unsolvable`, `unknown`. With
/// `wins_only` the search looks for a win only (for a solver that proves losses by another
/// search; the others find wins first anyway). The GIL is released while searching; Ctrl-C stops the search cleanly (outcome
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
    fn each<G: NativeGame>(
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        budget: &Budget,
        options: SolveOptions,
    ) -> PyResult<SolveAnswer> {
        let state = position_from::<G>(position)?;
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
fn answer<G: NativeGame>(py: Python<'_>, report: Report<G::Move>) -> SolveAnswer {
    let (outcome, moves, reason) = match report.outcome {
        Outcome::Solved(moves) => {
            if !moves.is_empty() {
                if let Some(moves) = names_of::<G>(py, &moves) {
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
    fn each<G: Players>(
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        player: &str,
        seed: u64,
        information: &str,
    ) -> PyResult<Option<String>> {
        let index = player_of::<G>(player)?;
        let information = information_of::<G>(information)?;
        let view = position_from::<G>(position)?.observe_as(information);
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
    fn each<G: Players>(
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        player: &str,
        seed: u64,
        max_moves: usize,
        information: &str,
    ) -> PyResult<(bool, Vec<String>)> {
        let index = player_of::<G>(player)?;
        let information = information_of::<G>(information)?;
        let start = position_from::<G>(position)?;
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
/// lost, but the share of cards home in a game rated by progress). The GIL is released while playing.
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
    fn each<G: Players>(
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        player: &str,
        seeds: &[u64],
        max_moves: usize,
        information: &str,
    ) -> PyResult<Vec<f64>> {
        let index = player_of::<G>(player)?;
        let information = information_of::<G>(information)?;
        let start = position_from::<G>(position)?;
        Ok(py.detach(|| {
            seeds
                .iter()
                .map(|&seed| play_game(&start, index, seed, max_moves, information).progress)
                .collect()
        }))
    }
    by_game!(game, G => each::<G>(py, position, player, &seeds, max_moves, information))
}

/// For each of the playouts seeded by `seeds` of reference player `player` from a position
/// of game `game` that the solver wins (a certified deal), at most `max_moves` moves each,
/// the player seeing what a person sees: how many of its moves were played before the
/// table was lost, each position after a move judged by the solver within `max_nodes`
/// nodes (the core's `moves_still_won`), and the playout's length: `(still won, moves)`.
/// The GIL is released while playing and searching.
#[pyfunction]
#[pyo3(signature = (game, position, player, seeds, *, max_moves, max_nodes))]
fn still_won(
    py: Python<'_>,
    game: &str,
    position: &Bound<'_, PyAny>,
    player: &str,
    seeds: Vec<u64>,
    max_moves: usize,
    max_nodes: u64,
) -> PyResult<Vec<(u32, u32)>> {
    fn each<G: Players>(
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        player: &str,
        seeds: &[u64],
        max_moves: usize,
        budget: &Budget,
    ) -> PyResult<Vec<(u32, u32)>> {
        let index = player_of::<G>(player)?;
        let start = position_from::<G>(position)?;
        Ok(py.detach(|| {
            let mut interrupted = || Python::attach(|py| py.check_signals().is_err());
            seeds
                .iter()
                .map(|&seed| {
                    let game = play_game(&start, index, seed, max_moves, Information::Person);
                    let kept = moves_still_won(&start, &game.moves, budget, &mut interrupted);
                    (kept as u32, game.moves.len() as u32)
                })
                .collect()
        }))
    }
    let budget = still_won_budget(max_nodes);
    by_game!(game, G => each::<G>(py, position, player, &seeds, max_moves, &budget))
}

/// The budget of [`still_won`]'s searches (and [`evidence`]'s): `max_nodes` nodes, four
/// times as many positions, and a minute only against a runaway.
fn still_won_budget(max_nodes: u64) -> Budget {
    Budget {
        max_nodes,
        max_seconds: 60.0,
        max_states: 4 * max_nodes as usize,
    }
}

/// One deal's cheap evidence as [`evidence`] returns it: `(outcome, certificate, nodes,
/// first moves that still win, legal first moves, playouts)`, the playouts by player in
/// the order asked, each `(won, counted moves, moves, moves still won)` (the last None
/// for a playout not followed to its loss).
type DealEvidence = (
    String,
    Vec<String>,
    u64,
    u32,
    u32,
    Vec<Vec<PlayoutEvidence>>,
);

/// One playout of [`evidence`]: `(won, counted moves, moves, moves still won)`.
type PlayoutEvidence = (bool, u32, u32, Option<u32>);

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
/// positions; a won position counts as winning, an undecided one as not; a first move whose
/// search the certifying one already answers, [`NativeGame::solve_noting_first_moves`], is
/// judged by that answer, not searched again; with `share_first_moves`, the searches keep
/// one table of what the certifying search and those before them learnt,
/// [`NativeGame::solve_sharing_first_moves`], for a game whose solver has it, a
/// `ValueError` for another; with `undecided_first_moves_win`, a move whose search runs out
/// of budget counts as winning, as one not shown lost), and each
/// `(player, seeds)` of `players` plays a playout a seed of at most `max_moves` moves, the
/// player seeing what a person sees; a playout's counted moves are those whose name starts
/// with one of `prefixes` or ends with one of `suffixes` (the cards it cleared, as the
/// game's Python class declares). The first `still_won[i]` playouts of the `i`-th player
/// (none when `still_won` is shorter) are also followed to where the table was lost, as
/// [`still_won`] does, each position judged within `still_won_nodes` nodes. A deal not won
/// has only its outcome and nodes.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
#[pyo3(signature = (
    game, positions, *, max_nodes, max_seconds, max_states, first_move_nodes, players,
    max_moves, prefixes, suffixes, still_won = Vec::new(), still_won_nodes = 0,
    share_first_moves = false, undecided_first_moves_win = false
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
    still_won: Vec<u32>,
    still_won_nodes: u64,
    share_first_moves: bool,
    undecided_first_moves_win: bool,
) -> PyResult<Vec<DealEvidence>> {
    #[allow(clippy::too_many_arguments)]
    fn each<G: Players>(
        py: Python<'_>,
        positions: &[Bound<'_, PyAny>],
        budget: &Budget,
        first_moves: &Budget,
        players: &[(String, Vec<u64>)],
        max_moves: usize,
        counted: &Counted,
        followed: &[u32],
        still_won: &Budget,
        share: bool,
        undecided_win: bool,
    ) -> PyResult<Vec<DealEvidence>> {
        let states: Vec<G> = positions
            .iter()
            .map(position_from::<G>)
            .collect::<PyResult<_>>()?;
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
                    let (report, known, shared) = if share {
                        let Some((report, won, undecided)) = state.solve_sharing_first_moves(
                            budget,
                            first_moves,
                            options,
                            &mut interrupted,
                        ) else {
                            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                                "the {} solver has no search of the first moves that \
                                 shares its table",
                                G::NAME
                            )));
                        };
                        let counted = won + if undecided_win { undecided } else { 0 };
                        (report, Vec::new(), Some(counted))
                    } else {
                        let (report, known) =
                            state.solve_noting_first_moves(budget, options, &mut interrupted);
                        (report, known, None)
                    };
                    let Outcome::Solved(certificate) = report.outcome else {
                        let outcome = match report.outcome {
                            Outcome::Unsolvable => "unsolvable",
                            _ => "unknown",
                        };
                        return Ok((outcome.to_string(), Vec::new(), report.nodes, 0, 0, vec![]));
                    };
                    // The certificate as the engine of record keeps it: up to the position
                    // the game counts as won (some engines play out a solved position by
                    // themselves, `NativeGame::won`).
                    let mut replay = state.clone();
                    let mut kept = certificate.len();
                    for (index, mv) in certificate.iter().enumerate() {
                        if replay.won() {
                            kept = index;
                            break;
                        }
                        if !replay.allows(mv) {
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
                    // a first move the certifying search already judged is not searched again
                    let winning = shared.unwrap_or_else(|| {
                        let limit = if undecided_win {
                            u64::MAX // a win noted after the budget is undecided within it
                        } else {
                            first_moves.max_nodes
                        };
                        winning_first_moves(state, &known, limit, |after| {
                            match after.solve(first_moves, options, &mut interrupted).outcome {
                                Outcome::Solved(_) => true,
                                Outcome::Unsolvable => false,
                                Outcome::Unknown(_) => undecided_win,
                            }
                        })
                    });
                    // whether a move counts, by move: its name written once, not at every move
                    let mut counts: HashMap<G::Move, bool, BuildHasherDefault<MoveHasher>> =
                        HashMap::default();
                    let playouts = ladder
                        .iter()
                        .enumerate()
                        .map(|(rung, &(index, seeds))| {
                            let follow = followed.get(rung).copied().unwrap_or(0) as usize;
                            seeds
                                .iter()
                                .enumerate()
                                .map(|(k, &seed)| {
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
                                        .filter(|&&mv| {
                                            *counts
                                                .entry(mv)
                                                .or_insert_with(|| counted.counts(&mv.to_string()))
                                        })
                                        .count();
                                    let kept = (k < follow).then(|| {
                                        moves_still_won(
                                            state,
                                            &game.moves,
                                            still_won,
                                            &mut interrupted,
                                        ) as u32
                                    });
                                    (game.won, cleared as u32, game.moves.len() as u32, kept)
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
    let followed = still_won_budget(still_won_nodes);
    by_game!(game, G => each::<G>(
        py, &positions, &budget, &first_moves, &players, max_moves, &counted, &still_won, &followed,
        share_first_moves, undecided_first_moves_win
    ))
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
    module.add_function(wrap_pyfunction!(still_won, module)?)?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
