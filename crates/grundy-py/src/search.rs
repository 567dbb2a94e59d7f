//! Cram and Chomp by the library's pruned search ([`grundy::solve::pruned::answer`], the code of
//! `grundy cram` and `grundy chomp`): results are dicts with the keys of their `--json`
//! reports. The search runs without the GIL; every few thousand nodes it takes the GIL to let
//! Python handle Ctrl-C (`KeyboardInterrupt` stops the search and reaches the caller) and to
//! call the progress callback `progress(nodes, None)` at most every 100 ms.

use crate::{guarded, to_py, value_error};
use grundy::games::chomp::{parse_shape, Chomp, ChompReport};
use grundy::games::cram::{Cram, CramReport};
use grundy::solve::pruned::{answer, Answer, ProgressFn, Question, Stats, ValueMethod};
use grundy::text::{parse_memory, parse_size};
use grundy::LabelledMoves;
use pyo3::prelude::*;
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

/// Answer `question` without the GIL, polling Python for signals and progress.
fn run<G: LabelledMoves + Send>(
    py: Python<'_>,
    game: G,
    position: &G::Position,
    question: &Question,
    progress: Option<PyObject>,
) -> PyResult<Answer<G::Move>>
where
    G::Position: Sync,
    G::Move: Send,
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
    let result = py.allow_threads(|| answer(game, position, question, Some(hook)));
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
        (_, Some(e)) => Err(e),
        (Err(e), None) => Err(value_error(e)),
        (Ok(a), None) => Ok(a),
    }
}

fn question(
    memory: &str,
    method: ValueMethod,
    outcome_only: bool,
    moves: bool,
) -> PyResult<Question> {
    Ok(Question {
        memory: parse_memory(memory).map_err(value_error)?,
        method,
        outcome_only,
        moves,
    })
}

/// Cram on a `size` ("RxC") board or a `board` drawn as text (`.` empty, `#` blocked): the
/// keys of `grundy cram --json`.
#[pyfunction]
#[pyo3(signature = (size=None, board=None, memory="512M", outcome_only=false, moves=true,
                    progress=None))]
fn cram_position(
    py: Python<'_>,
    size: Option<&str>,
    board: Option<&str>,
    memory: &str,
    outcome_only: bool,
    moves: bool,
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
        let q = question(memory, ValueMethod::Queries, outcome_only, moves)?;
        let answer = run(py, cram, &empty, &q, progress)?;
        let report = CramReport::new(&cram, empty, answer);
        to_py(py, &report)
    })
}

/// Chomp on a `size` ("RxC") bar or a `shape` of row lengths ("5,3,3,1", the poisoned row
/// first): the keys of `grundy chomp --json`.
#[pyfunction]
#[pyo3(signature = (size=None, shape=None, memory="512M", outcome_only=false, moves=true,
                    progress=None))]
fn chomp_position(
    py: Python<'_>,
    size: Option<&str>,
    shape: Option<&str>,
    memory: &str,
    outcome_only: bool,
    moves: bool,
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
        let q = question(memory, ValueMethod::Mex, outcome_only, moves)?;
        let answer = run(py, Chomp, &position, &q, progress)?;
        let report = ChompReport::new(position, answer);
        to_py(py, &report)
    })
}
