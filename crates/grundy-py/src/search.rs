//! Cram and Chomp by the library's pruned search ([`grundy::solve::pruned::search`], the code of
//! `grundy cram` and `grundy chomp`, with the same saved tables and threads): results are dicts
//! with the keys of their `--json` reports. The search runs without the GIL; every few thousand
//! nodes it takes the GIL to let Python handle Ctrl-C (`KeyboardInterrupt` stops the search —
//! after saving a saved table — and reaches the caller) and to call the progress callback
//! `progress(nodes, None)` at most every 100 ms.

use crate::runs::tell;
use crate::{guarded, to_py, value_error};
use grundy::games::chomp::{parse_shape, Chomp, ChompReport};
use grundy::games::cram::{Cram, CramReport};
use grundy::solve::pruned::persist::{SavedTable, Saving, TableKey, DEFAULT_SAVE_EVERY};
use grundy::solve::pruned::ValueMethod;
use grundy::solve::pruned::{search, Answer, ProgressFn, Question, SearchOptions, Stats};
use grundy::text::{parse_memory, parse_size};
use grundy::LabelledMoves;
use grundy_runs::Message;
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The least time between two calls of the progress callback.
const EVERY: Duration = Duration::from_millis(100);

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(cram_position, m)?)?;
    m.add_function(wrap_pyfunction!(chomp_position, m)?)?;
    Ok(())
}

/// What the search's progress hook shares with the caller: the first Python exception
/// (Ctrl-C's `KeyboardInterrupt`, or one raised by the callback) and whether the callback was
/// called.
#[derive(Default)]
struct Raised {
    error: Option<PyErr>,
    shown: bool,
}

/// Answer as `options` say without the GIL, polling Python for signals and progress.
fn run<G>(
    py: Python<'_>,
    game: G,
    position: &G::Position,
    options: &SearchOptions,
    progress: Option<PyObject>,
) -> PyResult<Answer<G::Move>>
where
    G: LabelledMoves + SavedTable + Clone + Send + Sync,
    G::Position: TableKey + Send + Sync + 'static,
    G::Move: Send + Sync,
{
    let shared = Arc::new(Mutex::new(Raised::default()));
    let progress = progress.map(Arc::new);
    let hook: ProgressFn = {
        let (shared, progress) = (Arc::clone(&shared), progress.clone());
        let mut last: Option<Instant> = None;
        Box::new(move |s: &Stats| {
            Python::with_gil(|py| {
                let due = last.map_or(true, |t| t.elapsed() >= EVERY);
                let result = py.check_signals().and_then(|()| match &progress {
                    Some(f) if due => {
                        last = Some(Instant::now());
                        f.call1(py, (s.nodes, py.None())).map(drop)
                    }
                    _ => Ok(()),
                });
                let mut slot = shared.lock().unwrap_or_else(|p| p.into_inner());
                slot.shown |= due && progress.is_some();
                match result {
                    Ok(()) => true,
                    Err(e) => {
                        slot.error.get_or_insert(e);
                        false
                    }
                }
            })
        })
    };
    let notice = |n| tell(Message::from(n));
    let result = py.allow_threads(|| search(game, position, options, Some(hook), &notice));
    let raised = std::mem::take(&mut *shared.lock().unwrap_or_else(|p| p.into_inner()));
    if let (Some(f), true) = (&progress, raised.shown) {
        // a last report with the final count, then close() (a tqdm bar ends its line)
        if let Ok(a) = &result {
            f.call1(py, (a.search.nodes, py.None()))?;
        }
        if let Ok(close) = f.bind(py).getattr("close") {
            close.call0()?;
        }
    }
    match (result, raised.error) {
        (Err(e), Some(interrupt)) if options.saving.is_some() => {
            // say what was saved, then let the KeyboardInterrupt (or the callback's
            // exception) reach the caller unchanged
            tell(Message::Info(e.to_string()));
            Err(interrupt)
        }
        (_, Some(e)) => Err(e),
        (Err(e), None) => Err(value_error(e)),
        (Ok(a), None) => Ok(a),
    }
}

/// The flags' words in Python's: `--checkpoint-every` is `checkpoint_every=` and so on.
fn python_words(e: impl std::fmt::Display) -> PyErr {
    let text = e.to_string();
    value_error(
        text.replace("--checkpoint-every", "checkpoint_every")
            .replace("--checkpoint", "checkpoint")
            .replace("--threads", "threads")
            .replace("--memory", "memory"),
    )
}

/// What `cram_position` and `chomp_position` take besides the board and the progress, as a
/// dict with these keys (the wrapper's keyword arguments): read into the library's
/// [`SearchOptions`], checked as the CLI checks its flags.
#[derive(FromPyObject)]
#[pyo3(from_item_all)]
struct Flags {
    memory: String,
    outcome_only: bool,
    moves: bool,
    checkpoint: Option<PathBuf>,
    checkpoint_every: Option<f64>,
    threads: usize,
}

impl Flags {
    fn options(&self, method: ValueMethod) -> PyResult<SearchOptions> {
        let saving = match &self.checkpoint {
            None => None,
            Some(path) => Some(Saving {
                path: path.clone(),
                every: match self.checkpoint_every {
                    None => DEFAULT_SAVE_EVERY,
                    // the CLI's check of the same number (Rust shows 5.0 as "5")
                    Some(s) => {
                        grundy_runs::run::checkpoint_every(&s.to_string()).map_err(python_words)?
                    }
                },
            }),
        };
        let options = SearchOptions {
            question: Question {
                memory: parse_memory(&self.memory).map_err(python_words)?,
                method,
                outcome_only: self.outcome_only,
                moves: self.moves,
            },
            threads: self.threads,
            saving,
        };
        options.thread_count().map_err(python_words)?;
        Ok(options)
    }
}

/// Cram on a `size` ("RxC") board or a `board` drawn as text (`.` empty, `#` blocked), asked
/// as `flags` say ([`Flags`]): the keys of `grundy cram --json`.
#[pyfunction]
#[pyo3(signature = (size, board, flags, progress))]
fn cram_position(
    py: Python<'_>,
    size: Option<&str>,
    board: Option<&str>,
    flags: Flags,
    progress: Option<PyObject>,
) -> PyResult<PyObject> {
    guarded(|| {
        let (cram, empty) = match (size, board) {
            (Some(size), None) => {
                let (r, c) = parse_size("board", size).map_err(value_error)?;
                let cram = Cram::new(r, c).map_err(value_error)?;
                (cram, cram.start())
            }
            (None, Some(text)) => Cram::from_text(text).map_err(value_error)?,
            _ => return Err(value_error("give a board size (e.g. 3x4) or a board")),
        };
        let options = flags.options(ValueMethod::Queries)?;
        let answer = run(py, cram, &empty, &options, progress)?;
        let report = CramReport::new(&cram, empty, answer);
        to_py(py, &report)
    })
}

/// Chomp on a `size` ("RxC") bar or a `shape` of row lengths ("5,3,3,1", the poisoned row
/// first), asked as `flags` say ([`Flags`]): the keys of `grundy chomp --json`.
#[pyfunction]
#[pyo3(signature = (size, shape, flags, progress))]
fn chomp_position(
    py: Python<'_>,
    size: Option<&str>,
    shape: Option<&str>,
    flags: Flags,
    progress: Option<PyObject>,
) -> PyResult<PyObject> {
    guarded(|| {
        let position = match (size, shape) {
            (Some(size), None) => {
                let (r, c) = parse_size("bar", size).map_err(value_error)?;
                Chomp::rectangle(r, c).map_err(value_error)?
            }
            (None, Some(shape)) => parse_shape(shape).map_err(value_error)?,
            _ => {
                return Err(value_error(
                    "give a size (e.g. 4x5) or a shape (e.g. 5,3,3,1)",
                ))
            }
        };
        // as the CLI: Chomp's values are large, so full values are the mex of full values
        let options = flags.options(ValueMethod::Mex)?;
        let answer = run(py, Chomp, &position, &options, progress)?;
        let report = ChompReport::new(position, answer);
        to_py(py, &report)
    })
}
