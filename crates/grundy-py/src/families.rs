//! Families with closed forms: Nim (nim-sum; misère, multiplayer paper Thm 2.3), subtraction
//! games, Wythoff's game (golden-ratio formula), common-divisor Nim (paper Thm 2.4), the
//! Sato–Welter game (hook paper Thm 2).

use crate::{guarded, to_py, value_error};
use grundy::games::cdnim::{self, Invariants};
use grundy::games::subtraction::{self, SubtractionSet};
use grundy::games::welter::Coins;
use grundy::games::wythoff;
use grundy::games::{nim, HeapMove};
use grundy::Outcome;
use num_bigint::BigUint;
use num_traits::Zero;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// Largest heap (and sequence length) of a subtraction game: the values are kept in memory
/// (the CLI's limit).
const MAX_SUBTRACTION_HEAP: u64 = 100_000_000;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(nim_position, m)?)?;
    m.add_function(wrap_pyfunction!(subtraction_sequence, m)?)?;
    m.add_function(wrap_pyfunction!(subtraction_position, m)?)?;
    m.add_function(wrap_pyfunction!(wythoff_position, m)?)?;
    m.add_function(wrap_pyfunction!(cdnim_position, m)?)?;
    m.add_function(wrap_pyfunction!(welter_position, m)?)?;
    Ok(())
}

fn big_moves<'py>(py: Python<'py>, list: Vec<HeapMove<BigUint>>) -> PyResult<Bound<'py, PyList>> {
    let out = PyList::empty(py);
    for m in list {
        let d = PyDict::new(py);
        d.set_item("heap", m.heap)?;
        d.set_item("from", m.from)?;
        d.set_item("to", m.to)?;
        out.append(d)?;
    }
    Ok(out)
}

/// Nim: value (nim-sum), outcome, and the winning moves, the moves to `target`, or the misère
/// outcome and misère winning moves.
#[pyfunction]
#[pyo3(signature = (heaps, target=None, misere=false))]
fn nim_position(
    py: Python<'_>,
    heaps: Vec<BigUint>,
    target: Option<BigUint>,
    misere: bool,
) -> PyResult<PyObject> {
    guarded(|| {
        let value = nim::nim_value(&heaps);
        let d = PyDict::new(py);
        d.set_item("heaps", heaps.clone())?;
        d.set_item("grundy_value", value.clone())?;
        d.set_item(
            "outcome",
            Outcome::as_str(if value.is_zero() {
                Outcome::P
            } else {
                Outcome::N
            }),
        )?;
        if misere {
            d.set_item(
                "misere_outcome",
                Outcome::as_str(nim::misere_outcome(&heaps)),
            )?;
            d.set_item(
                "misere_winning_moves",
                big_moves(py, nim::misere_winning_moves(&heaps))?,
            )?;
        } else if let Some(t) = target {
            let list = nim::moves_to(&heaps, &t);
            if list.is_empty() {
                let reason = if t == value {
                    format!("no move keeps the value: every option differs from {value} (definition of mex)")
                } else {
                    format!("no heap can be changed to reach value {t} (only values below {value} are guaranteed to be reachable)")
                };
                d.set_item("reason", reason)?;
            }
            d.set_item("target", t)?;
            d.set_item("moves", big_moves(py, list)?)?;
        } else {
            d.set_item("winning_moves", big_moves(py, nim::winning_moves(&heaps))?)?;
        }
        Ok(d.into_any().unbind())
    })
}

fn subtraction_set(
    finite: Option<Vec<u64>>,
    all_but: Option<Vec<u64>>,
) -> PyResult<SubtractionSet> {
    match (finite, all_but) {
        (Some(s), None) => SubtractionSet::finite(s).map_err(value_error),
        (None, Some(e)) => SubtractionSet::all_but(e).map_err(value_error),
        _ => Err(value_error("give exactly one of set and all_but")),
    }
}

fn check_subtraction_size(what: &str, n: u64) -> PyResult<()> {
    if n > MAX_SUBTRACTION_HEAP {
        return Err(value_error(format!(
            "{what} {n} is too large: at most {MAX_SUBTRACTION_HEAP} (the sequence is kept in memory)"
        )));
    }
    Ok(())
}

/// G(0..=n) of one heap of a subtraction game: `{"set": ..., "values": [...]}`.
#[pyfunction]
#[pyo3(signature = (n, set=None, all_but=None))]
fn subtraction_sequence(
    py: Python<'_>,
    n: u64,
    set: Option<Vec<u64>>,
    all_but: Option<Vec<u64>>,
) -> PyResult<PyObject> {
    guarded(|| {
        let set = subtraction_set(set, all_but)?;
        check_subtraction_size("sequence length", n)?;
        let values = py
            .allow_threads(|| subtraction::sequence(&set, n))
            .map_err(value_error)?;
        let d = PyDict::new(py);
        d.set_item("set", set.to_string())?;
        d.set_item("values", values)?;
        Ok(d.into_any().unbind())
    })
}

/// A position of several heaps of a subtraction game: value, outcome, winning moves (or the
/// moves to `target`).
#[pyfunction]
#[pyo3(signature = (heaps, set=None, all_but=None, target=None))]
fn subtraction_position(
    py: Python<'_>,
    heaps: Vec<u64>,
    set: Option<Vec<u64>>,
    all_but: Option<Vec<u64>>,
    target: Option<u64>,
) -> PyResult<PyObject> {
    guarded(|| {
        let set = subtraction_set(set, all_but)?;
        if heaps.is_empty() {
            return Err(value_error("no heaps given"));
        }
        check_subtraction_size("heap", heaps.iter().copied().max().unwrap_or(0))?;
        if let SubtractionSet::AllBut(_) = set {
            let total = heaps.iter().fold(0u64, |a, &h| a.saturating_add(h));
            if total > MAX_SUBTRACTION_HEAP {
                return Err(value_error(format!(
                    "with an all-but set every smaller heap is a move: the heaps may add up to at most {MAX_SUBTRACTION_HEAP} (they add up to {total})"
                )));
            }
        }
        let (value, moves) = py
            .allow_threads(|| subtraction::moves_to(&set, &heaps, target.unwrap_or(0)))
            .map_err(value_error)?;
        let d = PyDict::new(py);
        d.set_item("set", set.to_string())?;
        d.set_item("heaps", heaps)?;
        d.set_item("grundy_value", value)?;
        d.set_item("outcome", Outcome::as_str(Outcome::from_value(value)))?;
        match target {
            Some(t) => {
                d.set_item("target", t)?;
                d.set_item("moves", to_py(py, &moves)?)?;
            }
            None => d.set_item("winning_moves", to_py(py, &moves)?)?,
        }
        Ok(d.into_any().unbind())
    })
}

/// Wythoff's game: outcome and winning moves by the golden-ratio formula (any size), the
/// Grundy value by a table of smaller positions when (a+1)(b+1) is small (else None, with a
/// note).
#[pyfunction]
fn wythoff_position(py: Python<'_>, a: BigUint, b: BigUint) -> PyResult<PyObject> {
    guarded(|| {
        let outcome = wythoff::outcome(&a, &b);
        let d = PyDict::new(py);
        d.set_item("heaps", vec![a.clone(), b.clone()])?;
        let value = py.allow_threads(|| wythoff::grundy_value_if_small(&a, &b));
        d.set_item("grundy_value", value)?;
        let note = value.is_none().then(wythoff::too_large_note);
        d.set_item("outcome", Outcome::as_str(outcome))?;
        let moves = PyList::empty(py);
        for (x, y) in wythoff::winning_moves(&a, &b) {
            let m = PyDict::new(py);
            m.set_item("to", vec![x, y])?;
            moves.append(m)?;
        }
        d.set_item("winning_moves", moves)?;
        if let Some(n) = note {
            d.set_item("note", n)?;
        }
        Ok(d.into_any().unbind())
    })
}

/// Common-divisor Nim by Theorem 2.4: value, outcome, lambda, iota, gcd and up to
/// `max_moves` winning moves (with whether the list is complete and how many there are).
#[pyfunction]
#[pyo3(signature = (heaps, max_moves=100_000))]
fn cdnim_position(py: Python<'_>, heaps: Vec<BigUint>, max_moves: usize) -> PyResult<PyObject> {
    guarded(|| {
        if heaps.is_empty() {
            return Err(value_error("no heaps given"));
        }
        if max_moves == 0 {
            return Err(value_error(
                "max_moves must be at least 1 (one winning move always exists at an N-position)",
            ));
        }
        let (invariants, moves) = py.allow_threads(|| {
            (
                Invariants::of(&heaps),
                cdnim::winning_moves(&heaps, max_moves),
            )
        });
        let value = invariants.grundy_value();
        let d = PyDict::new(py);
        d.set_item("heaps", heaps.clone())?;
        d.set_item("grundy_value", value)?;
        d.set_item("outcome", Outcome::as_str(Outcome::from_value(value)))?;
        d.set_item("lambda", invariants.lambda)?;
        d.set_item("iota", invariants.iota)?;
        d.set_item("gcd", moves.gcd.clone())?;
        let list = PyList::empty(py);
        for m in &moves.moves {
            let e = PyDict::new(py);
            e.set_item("heap", m.heap)?;
            e.set_item("divisor", m.divisor.clone())?;
            e.set_item("to", m.to.clone())?;
            list.append(e)?;
        }
        d.set_item("winning_moves", list)?;
        d.set_item("winning_moves_complete", moves.complete)?;
        d.set_item("winning_move_count", moves.count.clone())?;
        Ok(d.into_any().unbind())
    })
}

/// The Sato–Welter game (coins on distinct squares): value by Welter's formula, outcome, and
/// the winning moves or the moves to `target` (or neither with `value_only`).
#[pyfunction]
#[pyo3(signature = (squares, target=None, value_only=false))]
fn welter_position(
    py: Python<'_>,
    squares: Vec<u64>,
    target: Option<u64>,
    value_only: bool,
) -> PyResult<PyObject> {
    guarded(|| {
        if squares.is_empty() {
            return Err(value_error("no squares given"));
        }
        let coins = Coins::new(squares).map_err(value_error)?;
        let analysis = coins.analyse();
        let value = analysis.grundy_value();
        let d = PyDict::new(py);
        d.set_item("coins", coins.len())?;
        d.set_item("grundy_value", value)?;
        d.set_item("outcome", Outcome::as_str(Outcome::from_value(value)))?;
        match target {
            _ if value_only => {}
            Some(t) => {
                d.set_item("target", t)?;
                d.set_item("moves", to_py(py, &analysis.moves_to(t))?)?;
            }
            None => d.set_item("winning_moves", to_py(py, &analysis.moves_to(0))?)?,
        }
        Ok(d.into_any().unbind())
    })
}
