//! Censuses and the results catalogue, through the CLI's code ([`grundy_runs`]): `census`
//! computes every code of a pattern on every core and records them; `catalogue` lists what
//! the CLI (or Python) recorded. Results are dicts with the keys of `grundy census --json` and
//! `grundy catalogue --json`.

use crate::{guarded, to_py, value_error};
use grundy_runs::catalogue::{self, Query};
use grundy_runs::census::{census, CensusHooks, CensusOptions};
use grundy_runs::{EngineChoice, Message};
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(census_run, m)?)?;
    m.add_function(wrap_pyfunction!(catalogue_list, m)?)?;
    Ok(())
}

/// Show a run's message on Python's `sys.stderr` (a notebook shows it under the cell), in the
/// CLI's words: `grundy: ...`, `grundy: note: ...`, `grundy: warning: ...`.
pub(crate) fn tell(message: Message) {
    let line = match message {
        Message::Info(m) => format!("grundy: {m}\n"),
        Message::Note(m) => format!("grundy: note: {m}\n"),
        Message::Warning(m) => format!("grundy: warning: {m}\n"),
    };
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

    /// The exception that stopped the run, if any.
    pub(crate) fn raised(self) -> Option<PyErr> {
        self.raised.into_inner().ok().flatten()
    }
}

/// Every code matching `pattern`, computed to `n` (or its certified period unless `full`) on
/// `jobs` threads and recorded in the catalogue when `record` (`db` the file, else the CLI's
/// default). `progress(done, total)` is called after each code and every 100 ms; a
/// `KeyboardInterrupt` stops the census (finished codes stay recorded) and reaches the caller.
#[pyfunction]
#[pyo3(signature = (pattern, n=None, full=false, engine="auto", jobs=None, record=false, db=None,
                    progress=None))]
#[allow(clippy::too_many_arguments)]
fn census_run(
    py: Python<'_>,
    pattern: &str,
    n: Option<u64>,
    full: bool,
    engine: &str,
    jobs: Option<u64>,
    record: bool,
    db: Option<PathBuf>,
    progress: Option<PyObject>,
) -> PyResult<PyObject> {
    guarded(|| {
        let options = CensusOptions {
            pattern: pattern.to_owned(),
            n,
            full,
            engine: EngineChoice::parse(engine).map_err(value_error)?,
            jobs,
            no_record: !record,
            db,
        };
        let stop = AtomicBool::new(false);
        let (result, raised) = py.allow_threads(|| {
            let poll = Poll::new(&stop, progress.as_ref());
            let watch = |done: usize, total: usize| poll.call(done, total);
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
            (Ok(done), None) => to_py(py, &done.report),
        }
    })
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
