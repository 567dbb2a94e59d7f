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

/// Turn a library error into the `ValueError` a Python caller sees, the CLI's flags in it
/// written as the keywords a Python caller gives ([`python_words`]).
pub(crate) fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(python_words(&e.to_string()))
}

/// Phrases of library messages built on a CLI flag that Python has no keyword for, and what
/// a Python caller reads instead (replaced before the flags of [`PYTHON_FLAGS`]).
const PYTHON_PHRASES: &[(&str, &str)] = &[
    // Python has no memory option for sequences: it runs within 90% of the available memory.
    (
        "see --max-memory",
        "Python runs within 90% of the available memory",
    ),
    ("are allowed by --max-memory", "are allowed"),
    ("the memory --max-memory allows", "the memory allowed"),
    // Python lists no options of a heap: the hint is the CLI's alone.
    (" (its options can be listed with --options N)", ""),
];

/// The CLI's flags that library messages name, and how a Python caller says the same: the
/// keyword as the user writes it. Longer flags first, so that `--checkpoint-every` is never
/// read as `--checkpoint`.
const PYTHON_FLAGS: &[(&str, &str)] = &[
    ("--engine naive", "engine='naive'"),
    ("--until-period", "until_period=True"),
    ("--checkpoint-every", "checkpoint_every"),
    ("--checkpoint-dir", "checkpoint"),
    ("--no-checkpoint", "checkpoint=None"),
    ("--checkpoint", "checkpoint"),
    ("--no-record", "record=False"),
    ("--remove-hook", "remove_hook"),
    ("--check-up-to", "check_up_to"),
    ("--outcome-only", "outcome_only"),
    ("--no-moves", "moves=False"),
    ("--max-moves", "max_moves"),
    ("--max-heap", "max_heap"),
    ("--max-boxes", "max_boxes"),
    ("--max-square", "max_square"),
    ("--all-but", "all_but"),
    ("--min-n", "min_n"),
    ("--loopy", "loopy=True"),
    ("--misere", "misere=True"),
    ("--memory", "memory"),
    ("--threads", "threads"),
    ("--timeout", "timeout"),
    ("--heaps", "heaps"),
    ("--players", "players"),
    ("--features", "features"),
    ("--sums", "sums"),
    ("--total", "total"),
    ("--bound", "bound"),
    ("--order", "order"),
    ("--dir", "dir"),
    ("--jobs", "jobs"),
    ("--db", "db"),
    ("--set", "set"),
    ("--game", "game"),
    ("--shape", "shape"),
    ("--board", "board"),
    ("--engine", "engine"),
    ("--target", "target"),
    ("--coins", "coins"),
    ("--fold", "fold"),
];

/// `text` with the phrases of [`PYTHON_PHRASES`] replaced, then every CLI flag of
/// [`PYTHON_FLAGS`] (followed by a character that cannot continue a flag's name) written as
/// Python's keyword.
pub(crate) fn python_words(text: &str) -> String {
    let text = PYTHON_PHRASES
        .iter()
        .fold(text.to_owned(), |t, (phrase, words)| {
            t.replace(phrase, words)
        });
    let mut out = String::with_capacity(text.len());
    let mut rest = text.as_str();
    'scan: while let Some(at) = rest.find("--") {
        out.push_str(&rest[..at]);
        let here = &rest[at..];
        for (flag, words) in PYTHON_FLAGS {
            if let Some(after) = here.strip_prefix(flag) {
                let ends = after.chars().next().map_or(true, |c| {
                    !(c.is_ascii_alphanumeric() || c == '-' || c == '_')
                });
                if ends {
                    out.push_str(words);
                    rest = after;
                    continue 'scan;
                }
            }
        }
        out.push_str("--");
        rest = &here[2..];
    }
    out.push_str(rest);
    out
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
