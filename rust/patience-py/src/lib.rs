//! PyO3 glue: exposes `patience-core` to Python as `patience._core`. No algorithms here.

use patience_core::shuffle;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The deal for `(key, seed)` as card indices (`suit * 13 + rank - 1`), first-dealt first.
#[pyfunction]
#[pyo3(signature = (key, seed, *, decks = 1, version = 1))]
fn seeded_deck(key: &str, seed: u64, decks: usize, version: u32) -> PyResult<Vec<u8>> {
    if decks == 0 || decks > 8 {
        return Err(PyValueError::new_err(format!(
            "decks must be 1 to 8, not {decks}"
        )));
    }
    shuffle::seeded_deck(key, seed, decks, version)
        .map(|cards| cards.into_iter().map(|card| card.index()).collect())
        .map_err(|error| PyValueError::new_err(error.to_string()))
}

/// The native core of `patience`.
#[pymodule]
fn _core(module: &Bound<'_, PyModule>) -> PyResult<()> {
    module.add_function(wrap_pyfunction!(seeded_deck, module)?)?;
    module.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
