//! Misère play: genera of single heaps and misère quotients (Plambeck–Siegel), as
//! `grundy takebreak --misere` and `grundy misere-quotient`.
//!
//! A quotient is computed without the GIL; every 50 ms the stop hook takes the GIL back to ask
//! whether a signal is pending, so Ctrl-C stops the computation and raises `KeyboardInterrupt`.

use crate::{guarded, to_py, value_error};
use grundy::solve::misere_genus::GenusReport;
use grundy::solve::misere_quotient::{compute, MisereQuotient};
use grundy::takebreak::Rules;
use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use std::cell::Cell;
use std::time::{Duration, Instant};

/// Largest `max_heap` (as the CLI).
const MAX_HEAP: u64 = 100_000;
/// Positions a genus computation may evaluate (as the CLI).
const MAX_POSITIONS: usize = 3_000_000;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(misere_genus, m)?)?;
    m.add_function(wrap_pyfunction!(misere_quotient_compute, m)?)?;
    m.add_class::<Quotient>()?;
    Ok(())
}

fn rules_of(code: &str) -> PyResult<Rules> {
    Rules::parse(code).map_err(value_error)
}

/// Misère Grundy values and genera of heaps 0..=n: the keys of `takebreak --misere --json`.
#[pyfunction]
fn misere_genus(py: Python<'_>, code: &str, n: u64) -> PyResult<PyObject> {
    guarded(|| {
        let rules = rules_of(code)?;
        if n > MAX_HEAP {
            return Err(value_error(format!(
                "n {n} is too large for misère genera: they need every sum of smaller heaps"
            )));
        }
        let report = py
            .allow_threads(|| GenusReport::compute(&rules, n as u32, MAX_POSITIONS))
            .map_err(value_error)?;
        to_py(py, &report)
    })
}

/// A computed misère quotient: answers outcomes and winning moves.
#[pyclass(module = "grundy._grundy", frozen)]
pub struct Quotient {
    q: MisereQuotient,
}

#[pymethods]
impl Quotient {
    /// The report (the CLI's `--json` keys).
    fn report(&self, py: Python<'_>) -> PyResult<PyObject> {
        guarded(|| to_py(py, &self.q.report()))
    }

    /// "P" or "N".
    fn outcome(&self, heaps: Vec<u64>) -> PyResult<String> {
        guarded(|| {
            Ok(match self.q.outcome(&heaps).map_err(value_error)? {
                grundy::Outcome::P => "P".into(),
                _ => "N".into(),
            })
        })
    }

    /// A winning move (`index`, `from`, `to`) or None.
    fn winning_move(&self, py: Python<'_>, heaps: Vec<u64>) -> PyResult<PyObject> {
        guarded(|| {
            let m = self.q.winning_move(&heaps).map_err(value_error)?;
            to_py(py, &m)
        })
    }
}

/// Compute the quotient of heaps up to `max_heap` (stopping at a certificate unless
/// `keep_going`), within `timeout` seconds.
#[pyfunction]
#[pyo3(signature = (code, max_heap, timeout, keep_going))]
fn misere_quotient_compute(
    py: Python<'_>,
    code: &str,
    max_heap: u64,
    timeout: Option<f64>,
    keep_going: bool,
) -> PyResult<Quotient> {
    guarded(|| {
        let rules = rules_of(code)?;
        if max_heap > MAX_HEAP {
            return Err(value_error(format!(
                "max_heap {max_heap} is too large: at most {MAX_HEAP} (every heap's options are kept)"
            )));
        }
        let timeout = match timeout {
            Some(t) if !(t.is_finite() && t > 0.0) => {
                return Err(value_error(format!(
                    "timeout {t} is not a positive number of seconds"
                )))
            }
            Some(t) => Some(Duration::from_secs_f64(t.min(1e9))),
            None => None,
        };
        let start = Instant::now();
        let interrupted = std::sync::atomic::AtomicBool::new(false);
        let result = py.allow_threads(|| {
            let last = Cell::new(Instant::now());
            let stop = || {
                if interrupted.load(std::sync::atomic::Ordering::Relaxed) {
                    return true;
                }
                if timeout.is_some_and(|t| start.elapsed() >= t) {
                    return true;
                }
                if last.get().elapsed() >= Duration::from_millis(50) {
                    last.set(Instant::now());
                    if Python::with_gil(|py| py.check_signals().is_err()) {
                        interrupted.store(true, std::sync::atomic::Ordering::Relaxed);
                        return true;
                    }
                }
                false
            };
            compute(
                Box::new(rules),
                max_heap as u32,
                !keep_going,
                &stop,
                &mut |_, _| {},
            )
        });
        if interrupted.load(std::sync::atomic::Ordering::Relaxed) {
            return Err(PyKeyboardInterrupt::new_err("misère quotient interrupted"));
        }
        Ok(Quotient {
            q: result.map_err(value_error)?,
        })
    })
}
