//! Misère play: genera of single heaps and misère quotients (Plambeck–Siegel), as
//! `grundy takebreak --misere` and `grundy misere-quotient`.
//!
//! A quotient is computed without the GIL; every 50 ms the stop hook takes the GIL back to ask
//! whether a signal is pending, so Ctrl-C stops the computation and raises `KeyboardInterrupt`.

use crate::{guarded, to_py, value_error};
use grundy::games::subtraction::SubtractionSet;
use grundy::solve::misere_genus::GenusReport;
use grundy::solve::misere_quotient::{compute_with, HeapGame, MisereQuotient, RunOptions};
use grundy::takebreak::Rules;
use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use std::cell::Cell;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Largest `max_heap` (as the CLI).
const MAX_HEAP: u64 = 100_000;
/// Positions a genus computation may evaluate (as the CLI).
const MAX_POSITIONS: usize = 3_000_000;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(misere_genus, m)?)?;
    m.add_function(wrap_pyfunction!(misere_quotient_compute, m)?)?;
    m.add_function(wrap_pyfunction!(misere_census_run, m)?)?;
    m.add_function(wrap_pyfunction!(misere_catalogue_list, m)?)?;
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

/// The report with the limit that stopped the run (if any) in Python's words (`memory`, not
/// `--memory`).
pub(crate) fn python_report(
    mut r: grundy::solve::misere_quotient::Report,
) -> grundy::solve::misere_quotient::Report {
    r.limit = r.limit.map(|l| crate::python_words(&l));
    r
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
        guarded(|| to_py(py, &python_report(self.q.report())))
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

    /// The genus of the position when the quotient is tame, else None.
    fn genus(&self, heaps: Vec<u64>) -> PyResult<Option<String>> {
        guarded(|| {
            let g = self.q.genus(&heaps).map_err(value_error)?;
            Ok(g.map(|g| g.symbol()))
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

/// The run options of `memory` and `checkpoint`, checked as the CLI checks `--memory` and
/// `--checkpoint` (the messages name the keywords).
pub(crate) fn run_options(
    memory: Option<&str>,
    checkpoint: Option<PathBuf>,
) -> PyResult<RunOptions> {
    let mut run = RunOptions::default();
    if let Some(m) = memory {
        run.memory = grundy::text::parse_memory(m).map_err(value_error)?;
    }
    run.checkpoint = checkpoint;
    Ok(run)
}

/// A positive number of seconds, or None.
pub(crate) fn timeout_of(timeout: Option<f64>) -> PyResult<Option<Duration>> {
    match timeout {
        Some(t) if !(t.is_finite() && t > 0.0) => Err(value_error(format!(
            "timeout {t} is not a positive number of seconds"
        ))),
        Some(t) => Ok(Some(Duration::from_secs_f64(t.min(1e9)))),
        None => Ok(None),
    }
}

/// Run `f(stop)` without the GIL; `stop()` is true past the timeout or once Ctrl-C is seen
/// (every 50 ms the GIL is taken back to ask), and then `KeyboardInterrupt` is raised.
pub(crate) fn without_gil<T: Send>(
    py: Python<'_>,
    timeout: Option<Duration>,
    f: impl FnOnce(&dyn Fn() -> bool) -> T + Send,
) -> PyResult<T> {
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
        f(&stop)
    });
    if interrupted.load(std::sync::atomic::Ordering::Relaxed) {
        return Err(PyKeyboardInterrupt::new_err("misère quotient interrupted"));
    }
    Ok(result)
}

/// Compute the quotient of heaps up to `max_heap` (stopping at a certificate unless
/// `keep_going`), within `timeout` seconds: of a take-and-break `code`, or of the subtraction
/// game `set` or `all_but` (exactly one of the three). `memory` and `checkpoint` as the CLI's
/// `--memory` and `--checkpoint`.
#[pyfunction]
#[pyo3(signature = (code, max_heap, timeout, keep_going, set=None, all_but=None, memory=None,
                    checkpoint=None))]
#[allow(clippy::too_many_arguments)]
fn misere_quotient_compute(
    py: Python<'_>,
    code: Option<&str>,
    max_heap: u64,
    timeout: Option<f64>,
    keep_going: bool,
    set: Option<Vec<u64>>,
    all_but: Option<Vec<u64>>,
    memory: Option<&str>,
    checkpoint: Option<PathBuf>,
) -> PyResult<Quotient> {
    guarded(|| {
        let game: Box<dyn HeapGame + Send + Sync> = match (code, set, all_but) {
            (Some(c), None, None) => Box::new(rules_of(c)?),
            (None, Some(s), None) => Box::new(SubtractionSet::finite(s).map_err(value_error)?),
            (None, None, Some(e)) => Box::new(SubtractionSet::all_but(e).map_err(value_error)?),
            _ => {
                return Err(value_error(
                    "give one game: a code, a grundy.Game, set= or all_but=",
                ))
            }
        };
        if max_heap > MAX_HEAP {
            return Err(value_error(format!(
                "max_heap {max_heap} is too large: at most {MAX_HEAP} (every heap's options are kept)"
            )));
        }
        let timeout = timeout_of(timeout)?;
        let run = run_options(memory, checkpoint)?;
        let result = without_gil(py, timeout, |stop| {
            compute_with(
                game,
                max_heap as u32,
                !keep_going,
                stop,
                &mut |_, _| {},
                &run,
            )
        })?;
        Ok(Quotient {
            q: result.map_err(value_error)?,
        })
    })
}

/// A census of misère quotients (`grundy census PATTERN --misere-quotients --json`): every
/// code of `patterns` within `timeout` seconds each, recorded in the catalogue when `record`
/// (`db`, else `$GRUNDY_DB` or the default). Ctrl-C stops it, keeping every finished code, and
/// raises `KeyboardInterrupt`.
#[pyfunction]
#[pyo3(signature = (patterns, max_heap, timeout, memory, jobs, record, db, recompute))]
#[allow(clippy::too_many_arguments)]
fn misere_census_run(
    py: Python<'_>,
    patterns: Vec<String>,
    max_heap: u64,
    timeout: Option<f64>,
    memory: Option<&str>,
    jobs: u64,
    record: bool,
    db: Option<PathBuf>,
    recompute: bool,
) -> PyResult<PyObject> {
    use grundy_runs::misere_census::{misere_census, MisereCensusOptions};
    use grundy_runs::Message;
    use std::sync::atomic::{AtomicBool, Ordering};
    guarded(|| {
        let options = MisereCensusOptions {
            patterns,
            max_heap,
            timeout,
            memory: run_options(memory, None)?.memory,
            jobs,
            no_record: !record,
            db,
            recompute,
        };
        let tell = |m: Message| match m {
            Message::Info(m) => eprintln!("grundy: {m}"),
            Message::Note(m) => eprintln!("grundy: note: {m}"),
            Message::Warning(m) => eprintln!("grundy: warning: {m}"),
        };
        let stop = AtomicBool::new(false);
        let mut interrupted = None;
        let result = py.allow_threads(|| {
            std::thread::scope(|s| {
                let worker = s.spawn(|| misere_census(&options, &tell, &stop));
                while !worker.is_finished() {
                    std::thread::sleep(Duration::from_millis(50));
                    if interrupted.is_none() {
                        if let Err(e) = Python::with_gil(|py| py.check_signals()) {
                            interrupted = Some(e);
                            stop.store(true, Ordering::SeqCst);
                        }
                    }
                }
                worker.join().expect("the census thread does not panic")
            })
        });
        if let Some(e) = interrupted {
            return Err(e);
        }
        to_py(py, &result.map_err(value_error)?)
    })
}

/// The misère quotients recorded in the catalogue (`grundy catalogue --misere --json`).
#[pyfunction]
#[pyo3(signature = (pattern=None, db=None))]
fn misere_catalogue_list(
    py: Python<'_>,
    pattern: Option<String>,
    db: Option<PathBuf>,
) -> PyResult<PyObject> {
    guarded(|| {
        let (db, rows) =
            grundy_runs::misere_census::list_quotients(db.as_deref(), pattern.as_deref())
                .map_err(value_error)?;
        let d = pyo3::types::PyDict::new(py);
        d.set_item("db", db)?;
        d.set_item("count", rows.len())?;
        d.set_item("quotients", to_py(py, &rows)?)?;
        Ok(d.into_any().unbind())
    })
}
