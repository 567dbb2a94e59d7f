//! Python bindings of the `grundy` library: the extension module `grundy._grundy`, wrapped by the
//! pure-Python package `grundy` (crates/grundy-py/python/grundy).
//!
//! This crate only converts: Python values in, library calls, Python values out. Results are
//! dicts with the keys and meanings of the CLI's `--json` reports (`grundy_value`, `outcome`,
//! `winning_moves`, `preperiod`, `period`, `certified`, ...). Checking the types and signs of
//! Python arguments happens in the wrapper package, which raises `TypeError`/`ValueError`.
//!
//! Errors: a library error becomes `ValueError` with the library's one-line message (the text
//! the CLI prints after `grundy: `); a panic becomes `RuntimeError` ("internal error"), never a
//! `PanicException`. Long computations release the GIL.
//!
//! Modules (private: the Python package is the interface):
//! - `families`: Nim, subtraction games, Wythoff, common-divisor Nim, Welter.
//! - `multiplayer`: m players with preference orders; Li's Nim; Propp's classes.
//! - `takebreak`: sequences (with the CLI's engine choice), periods, positions, transforms.
//! - `young`: Young diagrams and the hook-removal game.
//! - `graph`: explicit game graphs.
//! - `runs`: censuses and the results catalogue (the CLI's code, crate `grundy-runs`).
//! - `verify`: the papers' exhaustive checks, as `grundy verify`.
//! - `search`: Cram and Chomp by the pruned search, as `grundy cram` and `grundy chomp`.
//! - `game`: the user's own game, rules as Python callbacks, on the library's evaluators.
//! - `play`: the move model of `grundy play` and the web page: a position's report.
//! - `misere`: genera of heaps and misère quotients (Plambeck–Siegel), as `misere-quotient`.

mod families;
mod game;
mod graph;
mod misere;
mod multiplayer;
mod play;
mod search;
mod takebreak;
mod young;
// long runs: censuses and the catalogue (grundy-runs), and the papers' exhaustive checks
mod runs;
mod verify;

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Turn a library error into the `ValueError` a Python caller sees.
pub(crate) fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// Run `f`, turning a panic into `RuntimeError` (a bug to report) rather than a
/// `PanicException`, and library errors into `ValueError`.
pub(crate) fn guarded<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(result) => result,
        Err(payload) => {
            let msg = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            Err(PyRuntimeError::new_err(format!(
                "internal error (please report): {msg}"
            )))
        }
    }
}

/// A serializable library value as Python objects (dicts, lists, ints, strings).
pub(crate) fn to_py<T: serde::Serialize>(py: Python<'_>, value: &T) -> PyResult<PyObject> {
    Ok(pythonize::pythonize(py, value)
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))?
        .unbind())
}

/// Panics on purpose inside [`guarded`], so that the tests can check that a panic reaches
/// Python as `RuntimeError` and leaves the interpreter working.
#[pyfunction]
fn _check_panic_guard() -> PyResult<()> {
    guarded(|| panic!("a deliberate panic (test of the guard)"))
}

#[pymodule]
fn _grundy(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(_check_panic_guard, m)?)?;
    families::register(m)?;
    takebreak::register(m)?;
    young::register(m)?;
    graph::register(m)?;
    multiplayer::register(m)?;
    runs::register(m)?;
    verify::register(m)?;
    game::register(m)?;
    search::register(m)?;
    play::register(m)?;
    misere::register(m)?;
    Ok(())
}
