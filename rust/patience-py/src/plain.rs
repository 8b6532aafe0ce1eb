//! A game's position between Python and the core: the core's plain parts
//! ([`patience_core::game::Plain`]) to and from Python objects, once for every game. A
//! position is the tuple of its parts: a flag is a `bool`, a number an `int`, a number
//! or nothing an `int` or `None`, a list of numbers a `list` of `int` (or `bytes`, for a
//! game whose lists the core gives out as `bytes`, [`Shape::Bytes`]), a list of parts a
//! `list`. Reading accepts `bytes`, a `list` or a `tuple` for any list of numbers, and a
//! `list` or a `tuple` for any list; a position malformed in its shape is refused with a
//! `ValueError` naming the part and why, and one malformed in its cards by the game's own
//! check, with its reason.

use patience_core::game::{NativeGame, Part, Shape};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyList, PyString, PyTuple};
use std::sync::{Arc, Mutex, PoisonError};

/// The position of game `G` from the tuple its Python module gives (`native_position()`),
/// checked by the game.
pub fn position_from<G: NativeGame>(position: &Bound<'_, PyAny>) -> PyResult<G> {
    let wanted = G::PARTS;
    let refuse = |why: String| PyValueError::new_err(format!("a {} position {why}", G::NAME));
    let described = || {
        let names: Vec<&str> = wanted.iter().map(|(name, _)| *name).collect();
        format!("a tuple of {} parts ({})", wanted.len(), names.join(", "))
    };
    let mut parts = Vec::with_capacity(wanted.len());
    let mut read = |index: usize, item: &Bound<'_, PyAny>| -> PyResult<()> {
        let (name, shape) = &wanted[index];
        let part =
            part_from(item, shape).map_err(|why| refuse(format!("has a bad {name}: {why}")))?;
        parts.push(part);
        Ok(())
    };
    if let Ok(tuple) = position.cast::<PyTuple>() {
        if tuple.len() != wanted.len() {
            return Err(refuse(format!("is {}, not {}", described(), tuple.len())));
        }
        for index in 0..wanted.len() {
            read(index, &*tuple.get_borrowed_item(index)?)?;
        }
    } else if let Ok(list) = position.cast::<PyList>() {
        if list.len() != wanted.len() {
            return Err(refuse(format!("is {}, not {}", described(), list.len())));
        }
        for (index, item) in list.iter().enumerate() {
            read(index, &item)?;
        }
    } else {
        return Err(refuse(format!(
            "is {}, not {}",
            described(),
            shown(position)
        )));
    }
    G::from_parts(parts).map_err(|error| PyValueError::new_err(error.to_string()))
}

/// A position of game `G` as the tuple its Python module gives.
pub fn position_to_py<G: NativeGame>(py: Python<'_>, state: &G) -> PyResult<Py<PyAny>> {
    let parts = state.to_parts();
    if parts.len() != G::PARTS.len() {
        return Err(misshapen::<G>());
    }
    let items = parts
        .iter()
        .zip(G::PARTS)
        .map(|(part, (_, shape))| part_to_py::<G>(py, part, shape))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(PyTuple::new(py, items)?.into_any().unbind())
}

/// A value for a refusal: its `repr`, cut short.
fn shown(value: &Bound<'_, PyAny>) -> String {
    let text = value
        .repr()
        .map(|text| text.to_string())
        .unwrap_or_else(|_| "a value".to_string());
    if text.chars().count() > 40 {
        format!("{}...", text.chars().take(37).collect::<String>())
    } else {
        text
    }
}

fn number_from(value: &Bound<'_, PyAny>) -> Result<u8, String> {
    if value.is_instance_of::<PyBool>() {
        return Err(format!("{} is not a number", shown(value)));
    }
    match value.extract::<i64>() {
        Ok(number) => u8::try_from(number).map_err(|_| format!("{number} is out of range (0-255)")),
        Err(_) => Err(format!("{} is not a number", shown(value))),
    }
}

/// A list of numbers read straight from `bytes` or a Python list (converting through a
/// `Vec` of wider ints had cost more than solving an easy deal), or from a tuple.
fn numbers_from(value: &Bound<'_, PyAny>) -> Result<Vec<u8>, String> {
    if let Ok(bytes) = value.cast::<PyBytes>() {
        return Ok(bytes.as_bytes().to_vec());
    }
    let item = |(index, item): (usize, Bound<'_, PyAny>)| {
        number_from(&item).map_err(|why| format!("item {index}: {why}"))
    };
    if let Ok(list) = value.cast::<PyList>() {
        return list.iter().enumerate().map(item).collect();
    }
    if let Ok(tuple) = value.cast::<PyTuple>() {
        return tuple.iter().enumerate().map(item).collect();
    }
    Err(format!("{} is not a list of numbers", shown(value)))
}

fn part_from(value: &Bound<'_, PyAny>, shape: &Shape) -> Result<Part, String> {
    match shape {
        Shape::Flag => value
            .cast::<PyBool>()
            .map(|flag| Part::Flag(flag.is_true()))
            .map_err(|_| format!("{} is not True or False", shown(value))),
        Shape::Number => number_from(value).map(Part::Number),
        Shape::Maybe if value.is_none() => Ok(Part::Maybe(None)),
        Shape::Maybe => number_from(value).map(|number| Part::Maybe(Some(number))),
        Shape::Numbers | Shape::Bytes => numbers_from(value).map(Part::Numbers),
        Shape::ListOf(inner) => {
            let item = |(index, item): (usize, Bound<'_, PyAny>)| {
                part_from(&item, inner).map_err(|why| format!("item {index}: {why}"))
            };
            let items: Result<Vec<Part>, String> = if let Ok(list) = value.cast::<PyList>() {
                list.iter().enumerate().map(item).collect()
            } else if let Ok(tuple) = value.cast::<PyTuple>() {
                tuple.iter().enumerate().map(item).collect()
            } else {
                return Err(format!("{} is not {}", shown(value), shape.describe()));
            };
            items.map(Part::List)
        }
    }
}

/// A game whose parts are not of its own shapes: a bug in the core.
fn misshapen<G: NativeGame>() -> PyErr {
    PyRuntimeError::new_err(format!(
        "the core's {} position does not have the parts it declares",
        G::NAME
    ))
}

fn part_to_py<'py, G: NativeGame>(
    py: Python<'py>,
    part: &Part,
    shape: &Shape,
) -> PyResult<Bound<'py, PyAny>> {
    Ok(match (part, shape) {
        (Part::Flag(flag), Shape::Flag) => PyBool::new(py, *flag).to_owned().into_any(),
        (Part::Number(number), Shape::Number) | (Part::Maybe(Some(number)), Shape::Maybe) => {
            number.into_pyobject(py)?.into_any()
        }
        (Part::Maybe(None), Shape::Maybe) => py.None().into_bound(py),
        (Part::Numbers(numbers), Shape::Bytes) => PyBytes::new(py, numbers).into_any(),
        (Part::Numbers(numbers), Shape::Numbers) => PyList::new(py, numbers)?.into_any(),
        (Part::List(items), Shape::ListOf(inner)) => {
            let items = items
                .iter()
                .map(|item| part_to_py::<G>(py, item, inner))
                .collect::<PyResult<Vec<_>>>()?;
            PyList::new(py, items)?.into_any()
        }
        _ => return Err(misshapen::<G>()),
    })
}

/// Each game's move names ([`NativeGame::named_moves`]) as Python strings, made once a
/// process, by the game's name.
type NameTables = Vec<(&'static str, Arc<Vec<Py<PyString>>>)>;
static MOVE_NAMES: Mutex<NameTables> = Mutex::new(Vec::new());

/// The names of `moves` as Python strings made once a process, for a game that names its
/// moves ([`NativeGame::named_moves`]); `None` for one that does not.
pub fn names_of<G: NativeGame>(py: Python<'_>, moves: &[G::Move]) -> Option<Vec<Py<PyString>>> {
    let known = MOVE_NAMES
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .iter()
        .find(|(name, _)| *name == G::NAME)
        .map(|(_, names)| Arc::clone(names));
    let names = match known {
        Some(names) => names,
        None => {
            // made outside the lock (making Python strings holds no lock of ours)
            let names: Arc<Vec<Py<PyString>>> = Arc::new(
                G::named_moves()
                    .iter()
                    .map(|mv| PyString::new(py, &mv.to_string()).unbind())
                    .collect(),
            );
            let mut tables = MOVE_NAMES.lock().unwrap_or_else(PoisonError::into_inner);
            if !tables.iter().any(|(name, _)| *name == G::NAME) {
                tables.push((G::NAME, Arc::clone(&names)));
            }
            names
        }
    };
    if names.is_empty() {
        return None;
    }
    // a loop into a list of the right size: collecting into an `Option<Vec>` cannot know
    // the length and grew the list by reallocating, six times on an easy deal's line
    let mut listed = Vec::with_capacity(moves.len());
    for mv in moves {
        let name = G::name_index(mv).and_then(|index| names.get(index))?;
        listed.push(name.clone_ref(py));
    }
    Some(listed)
}
