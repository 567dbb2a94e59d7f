//! Censuses and the results catalogue, through the CLI's code ([`grundy_runs`]): `census`
//! computes every code of a pattern on every core and records them; `catalogue` lists what
//! the CLI (or Python) recorded. Results are dicts with the keys of `grundy census --json` and
//! `grundy catalogue --json`.

use crate::{guarded, to_py, value_error};
use grundy_runs::catalogue::{self, Query};
use grundy_runs::census::{census, CensusHooks, CensusOptions, CensusProgress, Claim, Session};
use grundy_runs::census_task::{compute_code, CheckpointDir, CodeResult, CodeTask};
use grundy_runs::{EngineChoice, Message};
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Duration;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(census_run, m)?)?;
    m.add_function(wrap_pyfunction!(catalogue_list, m)?)?;
    m.add_function(wrap_pyfunction!(power_summaries_list, m)?)?;
    m.add_function(wrap_pyfunction!(census_code, m)?)?;
    m.add_class::<CensusSession>()?;
    Ok(())
}

/// A run's message as a line: `grundy: ...`, `grundy: note: ...`, `grundy: warning: ...`, the
/// CLI's flags it names written as the keywords a Python caller gives ([`crate::python_words`]:
/// "--no-checkpoint turns them off" is "checkpoint=None turns them off").
fn message_line(message: Message) -> String {
    let (kind, m) = match message {
        Message::Info(m) => ("", m),
        Message::Note(m) => ("note: ", m),
        Message::Warning(m) => ("warning: ", m),
    };
    format!("grundy: {kind}{}\n", crate::python_words(&m))
}

/// Show a run's message on Python's `sys.stderr` (a notebook shows it under the cell), in the
/// CLI's form ([`message_line`]).
pub(crate) fn tell(message: Message) {
    let line = message_line(message);
    Python::with_gil(|py| {
        let written = py
            .import("sys")
            .and_then(|sys| sys.getattr("stderr"))
            .and_then(|err| err.call_method1("write", (line.as_str(),)));
        if written.is_err() {
            eprint!("{line}");
        }
    });
}

/// The link between a run without the GIL and Python: each [`Poll::call`] takes the GIL, lets
/// Python handle pending signals (Ctrl-C raises `KeyboardInterrupt` here) and calls the
/// progress callback; the first exception is kept and the run is asked to stop, so that it
/// saves what it has and the exception reaches the caller unchanged.
pub(crate) struct Poll<'a> {
    stop: &'a AtomicBool,
    progress: Option<&'a PyObject>,
    raised: Mutex<Option<PyErr>>,
}

impl<'a> Poll<'a> {
    pub(crate) fn new(stop: &'a AtomicBool, progress: Option<&'a PyObject>) -> Self {
        Poll {
            stop,
            progress,
            raised: Mutex::new(None),
        }
    }

    pub(crate) fn call(&self, done: usize, total: usize) {
        Python::with_gil(|py| {
            let result = py.check_signals().and_then(|()| match self.progress {
                Some(f) => f.call1(py, (done, total)).map(drop),
                None => Ok(()),
            });
            if let Err(e) = result {
                if let Ok(mut slot) = self.raised.lock() {
                    slot.get_or_insert(e);
                }
                self.stop.store(true, Ordering::Relaxed);
            }
        });
    }

    /// [`Poll::call`] for a census: the callback gets (done, total, running, left).
    pub(crate) fn call_census(&self, p: &CensusProgress) {
        Python::with_gil(|py| {
            let result = py.check_signals().and_then(|()| match self.progress {
                Some(f) => f.call1(py, (p.done, p.total, p.running, p.left)).map(drop),
                None => Ok(()),
            });
            if let Err(e) = result {
                if let Ok(mut slot) = self.raised.lock() {
                    slot.get_or_insert(e);
                }
                self.stop.store(true, Ordering::Relaxed);
            }
        });
    }

    /// The exception that stopped the run, if any.
    pub(crate) fn raised(self) -> Option<PyErr> {
        self.raised.into_inner().ok().flatten()
    }
}

/// Where a census's tasks keep their checkpoints: `"default"`, `"off"` or a directory.
fn checkpoint_dir(place: &str) -> CheckpointDir {
    match place {
        "default" => CheckpointDir::Default,
        "off" => CheckpointDir::Off,
        dir => CheckpointDir::At(PathBuf::from(dir)),
    }
}

/// The time between two checkpoints (`checkpoint_every` seconds).
fn every(seconds: Option<f64>) -> PyResult<Option<Duration>> {
    seconds
        .map(|s| {
            if s > 0.0 && s <= 1e9 {
                Ok(Duration::from_secs_f64(s))
            } else {
                Err(value_error(format!(
                    "checkpoint_every {s} is out of range: give a positive number of seconds"
                )))
            }
        })
        .transpose()
}

#[allow(clippy::too_many_arguments)]
fn options(
    patterns: Vec<String>,
    n: Option<u64>,
    full: bool,
    engine: &str,
    jobs: Option<u64>,
    record: bool,
    db: Option<PathBuf>,
    recompute: bool,
    checkpoint: &str,
    checkpoint_every: Option<f64>,
    lock_dir: Option<PathBuf>,
) -> PyResult<CensusOptions> {
    Ok(CensusOptions {
        patterns,
        n,
        full,
        engine: EngineChoice::parse(engine).map_err(value_error)?,
        jobs,
        no_record: !record,
        db,
        recompute,
        checkpoint: checkpoint_dir(checkpoint),
        checkpoint_every: every(checkpoint_every)?,
        lock_dir,
    })
}

/// Every code matching `patterns`, computed to `n` (or its certified period unless `full`) on
/// `jobs` threads and recorded in the catalogue when `record` (`db` the file, else the CLI's
/// default). `progress(done, total, running, left)` is called after each code and every
/// 100 ms; a `KeyboardInterrupt` stops the census (finished codes stay recorded, running ones
/// save their checkpoints) and reaches the caller.
#[pyfunction]
#[pyo3(signature = (patterns, n=None, full=false, engine="auto", jobs=None, record=false, db=None,
                    progress=None, recompute=false, checkpoint="default", checkpoint_every=None,
                    lock_dir=None))]
#[allow(clippy::too_many_arguments)]
fn census_run(
    py: Python<'_>,
    patterns: Vec<String>,
    n: Option<u64>,
    full: bool,
    engine: &str,
    jobs: Option<u64>,
    record: bool,
    db: Option<PathBuf>,
    progress: Option<PyObject>,
    recompute: bool,
    checkpoint: &str,
    checkpoint_every: Option<f64>,
    lock_dir: Option<PathBuf>,
) -> PyResult<PyObject> {
    guarded(|| {
        let options = options(
            patterns,
            n,
            full,
            engine,
            jobs,
            record,
            db,
            recompute,
            checkpoint,
            checkpoint_every,
            lock_dir,
        )?;
        let stop = AtomicBool::new(false);
        let (result, raised) = py.allow_threads(|| {
            let poll = Poll::new(&stop, progress.as_ref());
            let watch = |p: &CensusProgress| poll.call_census(p);
            let result = census(
                &options,
                CensusHooks {
                    tell: &tell,
                    stop: &stop,
                    progress: Some(&watch),
                },
            );
            (result, poll.raised())
        });
        match (result, raised) {
            (Err(grundy_runs::Error::Interrupted(what)), Some(e)) => {
                tell(Message::Info(what));
                Err(e)
            }
            (_, Some(e)) => Err(e),
            (Err(e), None) => Err(value_error(e)),
            (Ok(done), None) => match done.nothing_recorded() {
                Some(message) => Err(value_error(message)),
                None => to_py(py, &done.report),
            },
        }
    })
}

/// One code of a census, as a worker computes it (a process of a pool, a Dask worker): the
/// library's resumable run, recording nothing. Returns `{"record": {...}, "resumed_from": k}`.
#[pyfunction]
#[pyo3(signature = (code, n, until_period=true, engine="auto", checkpoint="default",
                    checkpoint_every=None))]
fn census_code(
    py: Python<'_>,
    code: String,
    n: u64,
    until_period: bool,
    engine: &str,
    checkpoint: &str,
    checkpoint_every: Option<f64>,
) -> PyResult<PyObject> {
    guarded(|| {
        let task = CodeTask {
            code,
            n,
            until_period,
            engine: EngineChoice::parse(engine).map_err(value_error)?,
            checkpoint: checkpoint_dir(checkpoint),
            every: every(checkpoint_every)?.unwrap_or(Duration::from_secs_f64(
                grundy_runs::run::DEFAULT_CHECKPOINT_EVERY,
            )),
        };
        // a worker's messages go to its own stderr (a Dask worker's log)
        let tell = |m: Message| eprint!("{}", message_line(m));
        let stop = AtomicBool::new(false);
        let result = py
            .allow_threads(|| compute_code(&task, &stop, &tell))
            .map_err(value_error)?;
        to_py(py, &result)
    })
}

/// A census whose tasks a Python executor runs: the library's [`Session`] (skip what the
/// catalogue has, per-code locks, one writer). Not shared between threads.
#[pyclass(unsendable, module = "grundy._grundy")]
pub struct CensusSession {
    session: Option<Session>,
}

impl CensusSession {
    fn get(&mut self) -> PyResult<&mut Session> {
        self.session
            .as_mut()
            .ok_or_else(|| value_error("this census is finished"))
    }
}

#[pymethods]
impl CensusSession {
    #[new]
    #[pyo3(signature = (patterns, n=None, full=false, engine="auto", record=false, db=None,
                        recompute=false, checkpoint="default", checkpoint_every=None,
                        lock_dir=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        patterns: Vec<String>,
        n: Option<u64>,
        full: bool,
        engine: &str,
        record: bool,
        db: Option<PathBuf>,
        recompute: bool,
        checkpoint: &str,
        checkpoint_every: Option<f64>,
        lock_dir: Option<PathBuf>,
    ) -> PyResult<Self> {
        guarded(|| {
            let options = options(
                patterns,
                n,
                full,
                engine,
                None,
                record,
                db,
                recompute,
                checkpoint,
                checkpoint_every,
                lock_dir,
            )?;
            let session = Session::open(&options, &tell).map_err(value_error)?;
            Ok(CensusSession {
                session: Some(session),
            })
        })
    }

    /// The indices of the codes still to do, costliest first (the library's estimate from a
    /// short pilot run of each code): submit them in this order.
    fn pending(&mut self) -> PyResult<Vec<usize>> {
        Ok(self.get()?.pending())
    }

    /// The code of index `i` (canonical form).
    fn code(&mut self, i: usize) -> PyResult<String> {
        self.get()?
            .codes()
            .get(i)
            .cloned()
            .ok_or_else(|| value_error(format!("no code of index {i}")))
    }

    /// Claim code `i`: `("mine", task)` (compute it: the task's keys are `census_code`'s
    /// arguments), `("busy", None)` (another census has it: ask again later) or
    /// `("done", None)` (the catalogue has it).
    fn claim(&mut self, py: Python<'_>, i: usize) -> PyResult<(String, PyObject)> {
        let session = self.get()?;
        if i >= session.codes().len() {
            return Err(value_error(format!("no code of index {i}")));
        }
        match session.claim(i).map_err(value_error)? {
            Claim::Mine(task) => {
                let checkpoint = match &task.checkpoint {
                    CheckpointDir::Default => "default".to_string(),
                    CheckpointDir::Off => "off".to_string(),
                    CheckpointDir::At(d) => d.display().to_string(),
                };
                let dict = pyo3::types::PyDict::new(py);
                dict.set_item("code", &task.code)?;
                dict.set_item("n", task.n)?;
                dict.set_item("until_period", task.until_period)?;
                dict.set_item(
                    "engine",
                    match task.engine {
                        EngineChoice::Auto => "auto",
                        EngineChoice::Sparse => "sparse",
                        EngineChoice::Naive => "naive",
                    },
                )?;
                dict.set_item("checkpoint", checkpoint)?;
                dict.set_item("checkpoint_every", task.every.as_secs_f64())?;
                Ok(("mine".into(), dict.into_any().unbind()))
            }
            Claim::Busy => Ok(("busy".into(), py.None())),
            Claim::Done => Ok(("done".into(), py.None())),
        }
    }

    /// Code `i` came back with `result` (what `census_code` returned): record it.
    fn complete(&mut self, i: usize, result: Bound<'_, PyAny>) -> PyResult<()> {
        let result: CodeResult = pythonize::depythonize(&result)
            .map_err(|e| value_error(format!("not a census result: {e}")))?;
        let session = self.get()?;
        if i >= session.codes().len() || session.codes()[i] != result.record.code {
            return Err(value_error(format!(
                "the result of {} is not the one of code index {i}",
                result.record.code
            )));
        }
        session.complete(i, result);
        Ok(())
    }

    /// Code `i` did not come back: release it.
    fn abandon(&mut self, i: usize) -> PyResult<()> {
        let session = self.get()?;
        if i < session.codes().len() {
            session.abandon(i);
        }
        Ok(())
    }

    /// `{"done", "running", "left", "total", "skipped"}` with `running` codes at work.
    fn progress(&mut self, py: Python<'_>, running: usize) -> PyResult<PyObject> {
        let p = self.get()?.progress(running);
        to_py(py, &p)
    }

    /// The report (the keys of `grundy census --json`) once every code is done; `ValueError`
    /// when some are not, or when nothing computed could be recorded.
    fn finish(&mut self, py: Python<'_>) -> PyResult<PyObject> {
        let session = self
            .session
            .take()
            .ok_or_else(|| value_error("this census is finished"))?;
        let done = session.finish(&tell).map_err(value_error)?;
        match done.nothing_recorded() {
            Some(message) => Err(value_error(message)),
            None => to_py(py, &done.report),
        }
    }
}

/// The recorded runs a query selects (the filters of `grundy catalogue`).
#[pyfunction]
#[pyo3(signature = (pattern=None, engine=None, certified=None, min_n=None, latest=false,
                    limit=None, db=None))]
#[allow(clippy::too_many_arguments)]
fn catalogue_list(
    py: Python<'_>,
    pattern: Option<String>,
    engine: Option<String>,
    certified: Option<bool>,
    min_n: Option<u64>,
    latest: bool,
    limit: Option<u64>,
    db: Option<PathBuf>,
) -> PyResult<PyObject> {
    guarded(|| {
        let query = Query {
            pattern,
            engine,
            certified,
            min_n,
            latest,
            limit,
            db,
        };
        let listing = py
            .allow_threads(|| catalogue::list(&query))
            .map_err(value_error)?;
        to_py(py, &listing)
    })
}

/// The summaries at powers of two recorded in the catalogue (`grundy catalogue --powers
/// --json`).
#[pyfunction]
#[pyo3(signature = (pattern=None, db=None))]
fn power_summaries_list(
    py: Python<'_>,
    pattern: Option<String>,
    db: Option<PathBuf>,
) -> PyResult<PyObject> {
    guarded(|| {
        let (db, rows) = grundy_runs::power_table::list(db.as_deref(), pattern.as_deref())
            .map_err(value_error)?;
        let d = pyo3::types::PyDict::new(py);
        d.set_item("db", db)?;
        d.set_item("count", rows.len())?;
        d.set_item("summaries", to_py(py, &rows)?)?;
        Ok(d.into_any().unbind())
    })
}
