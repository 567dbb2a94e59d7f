//! Progress of a long query on a Python game: a Python callable `progress(done, total)`,
//! called from inside the engine's callbacks at most every [`EVERY`], once the query has lasted
//! the reporter's delay, and once more at its end with the final numbers (then its `close()`,
//! if it has one, so that a tqdm bar ends its line).
//!
//! `done` counts the positions whose options were asked for during the query (its `total` is
//! None: a single position's game tree is not known in advance), or, during
//! `Game.sequence(n)`, the values finished (`total` = n + 1).

use pyo3::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The least time between two reports.
const EVERY: Duration = Duration::from_millis(100);

/// The reporter of one `grundy.Game`, shared by its tables (normal, misère, multiplayer).
pub struct Reporter {
    /// `progress(done, total)`, or none: nothing is timed or reported.
    callback: Option<Py<PyAny>>,
    /// How long a query runs before its first report.
    delay: Duration,
    /// Positions whose options were asked for, over the game's life. Plain loads and stores:
    /// the GIL serialises the callbacks that count.
    explored: AtomicUsize,
    query: Mutex<Query>,
}

#[derive(Default)]
struct Query {
    started: Option<Instant>,
    last: Option<Instant>,
    /// `explored` when the query began.
    base: usize,
    /// During a sequence: (values done, values asked for).
    step: Option<(usize, usize)>,
    /// Whether the callback was called during this query.
    shown: bool,
}

impl Reporter {
    pub fn new(callback: Option<Py<PyAny>>, delay: Duration) -> Self {
        Reporter {
            callback,
            delay,
            explored: AtomicUsize::new(0),
            query: Mutex::new(Query::default()),
        }
    }

    fn query(&self) -> std::sync::MutexGuard<'_, Query> {
        self.query.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// One more position whose options were asked for.
    pub fn explored_one(&self) {
        let n = self.explored.load(Ordering::Relaxed);
        self.explored.store(n.wrapping_add(1), Ordering::Relaxed);
    }

    /// A query begins (its clock starts).
    pub fn begin(&self) {
        if self.callback.is_some() {
            *self.query() = Query {
                started: Some(Instant::now()),
                base: self.explored.load(Ordering::Relaxed),
                ..Query::default()
            };
        }
    }

    /// During a sequence: `done` of `total` values are finished.
    pub fn step(&self, done: usize, total: usize) {
        if self.callback.is_some() {
            self.query().step = Some((done, total));
        }
    }

    /// `(done, total)` now.
    fn numbers(&self, q: &Query) -> (usize, Option<usize>) {
        match q.step {
            Some((done, total)) => (done, Some(total)),
            None => (self.explored.load(Ordering::Relaxed) - q.base, None),
        }
    }

    /// Report if the query has run past the delay and the last report is [`EVERY`] old.
    pub fn tick(&self, py: Python<'_>) -> PyResult<()> {
        let Some(callback) = &self.callback else {
            return Ok(());
        };
        let (done, total) = {
            let mut q = self.query();
            let Some(started) = q.started else {
                return Ok(());
            };
            let now = Instant::now();
            let due = match q.last {
                None => now - started >= self.delay,
                Some(last) => now - last >= EVERY,
            };
            if !due {
                return Ok(());
            }
            q.last = Some(now);
            q.shown = true;
            self.numbers(&q)
        };
        callback.call1(py, (done, total)).map(drop)
    }

    /// The query ended: if it was reported, a last report with the final numbers (when it
    /// `finished`) and the callback's `close()`, if any.
    pub fn end(&self, py: Python<'_>, finished: bool) -> PyResult<()> {
        let Some(callback) = &self.callback else {
            return Ok(());
        };
        let (shown, (done, total)) = {
            let mut q = self.query();
            let numbers = self.numbers(&q);
            let shown = q.shown;
            *q = Query::default();
            (shown, numbers)
        };
        if !shown {
            return Ok(());
        }
        if finished {
            callback.call1(py, (done, total))?;
        }
        match callback.bind(py).getattr("close") {
            Ok(close) => close.call0().map(drop),
            Err(_) => Ok(()),
        }
    }
}
