//! Take-and-break games (splitting paper): Grundy sequences with the engine the CLI chooses
//! (for octal codes the faster of rare/common and naive, naive otherwise; the general engine
//! for forms the octal engines cannot represent), periods certified by the periodicity
//! theorem, positions of several heaps, and the m-fold (Thm 6.5) and cousin (Thm 6.6)
//! transforms.
//!
//! A sequence runs without the GIL through the CLI's run code ([`grundy_runs::run`]): the same
//! engines, limits, checkpoints and catalogue. Its stop flag is the interruption hook: every few
//! thousand values (at most every 50 ms) the run takes the GIL back to ask Python whether a
//! signal is pending (and to call the progress callback); a `KeyboardInterrupt` saves the
//! checkpoint, stops the run and reaches the caller.

use crate::runs::{tell, Poll};
use crate::{guarded, to_py, value_error};
use grundy::takebreak::notation::Notation;
use grundy::takebreak::{analyse, general, max_moves_limit, transform, Code, Rules};
use grundy_runs::run::{self, CheckpointPlace};
use grundy_runs::sequence::{self, CodeRules};
use grundy_runs::{Engine, EngineChoice, Message};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Largest heap size of a sequence handed to Python: every value is kept in memory and copied
/// into Python (the CLI extends a certified sequence by its period without storing it). The
/// engines' own limits are the CLI's ([`grundy_runs::sequence`]).
const MAX_N: u64 = 100_000_000;
/// Largest heap of a position and bound of a transform check (computed naively).
const MAX_HEAP: u64 = 200_000;
/// How often a running sequence asks Python about pending signals.
const SIGNAL_CHECK: Duration = Duration::from_millis(50);

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(takebreak_sequence, m)?)?;
    m.add_function(wrap_pyfunction!(takebreak_position, m)?)?;
    m.add_function(wrap_pyfunction!(takebreak_fold, m)?)?;
    m.add_function(wrap_pyfunction!(takebreak_cousin, m)?)?;
    m.add_function(wrap_pyfunction!(takebreak_code, m)?)?;
    m.add_class::<Values>()?;
    Ok(())
}

fn rules_of(code: &str) -> PyResult<Rules> {
    Rules::parse(code).map_err(value_error)
}

fn code_of<'a>(rules: &'a Rules, what: &str) -> PyResult<&'a Code> {
    rules.code().ok_or_else(|| {
        value_error(format!(
            "{what} needs a take-and-break code, and {rules} is not one"
        ))
    })
}

/// The canonical text of a code or named game (e.g. "kayles" -> "0.77").
#[pyfunction]
fn takebreak_code(code: &str) -> PyResult<String> {
    // Every code the CLI reads, also those only the general engine runs (`{2+}.0`, `80.0`),
    // printed as the CLI's `code` field prints it (found by the property tests).
    guarded(|| {
        Ok(match sequence::parse_code(code).map_err(value_error)? {
            CodeRules::Engines(rules) => rules.to_string(),
            CodeRules::General(notation) => notation.to_string(),
        })
    })
}

/// G(0..=n) (or until a certified period) through the CLI's run code
/// ([`grundy_runs::run::run`]): the same engine choice and limits, a checkpoint (`checkpoint`
/// a file, or `default_checkpoint` the CLI's default place) that resumes and is saved every
/// `checkpoint_every` seconds and on `KeyboardInterrupt`, and a record in the catalogue when
/// `record` (`db` the file, else the CLI's default). `progress(done, total)` is called about
/// every 50 ms while the run lasts. `compact_values` is the CLI's `--compact-values`. A dict with the CLI's sequence report keys (`code`, `n`,
/// `engine`, `period`, `max_value`, `value_counts`, `computed_up_to`) and `values` as
/// native-endian u16 bytes (the wrapper turns them into a list or a numpy array without a
/// per-value loop).
#[pyfunction]
#[pyo3(signature = (code, n=None, until_period=false, engine="auto", checkpoint=None,
                    default_checkpoint=false, checkpoint_every=None, record=false, db=None,
                    progress=None, threads=1, results=None, compact_values=false))]
#[allow(clippy::too_many_arguments)]
fn takebreak_sequence(
    py: Python<'_>,
    code: &str,
    n: Option<u64>,
    until_period: bool,
    engine: &str,
    checkpoint: Option<PathBuf>,
    default_checkpoint: bool,
    checkpoint_every: Option<f64>,
    record: bool,
    db: Option<PathBuf>,
    progress: Option<PyObject>,
    threads: usize,
    results: Option<PathBuf>,
    compact_values: bool,
) -> PyResult<PyObject> {
    guarded(|| {
        Engine::check_threads(threads, "threads").map_err(value_error)?;
        let rules = match sequence::parse_code(code).map_err(value_error)? {
            CodeRules::Engines(rules) => rules,
            CodeRules::General(notation) => {
                // as the CLI: forms the octal engines cannot represent go to the general engine
                let refused = [
                    (
                        until_period,
                        "until_period (no periodicity theorem covers it)",
                    ),
                    (engine != "auto", "engine (only the general engine runs it)"),
                    (
                        checkpoint.is_some() || default_checkpoint,
                        "checkpoints (its runs are bounded to a few seconds)",
                    ),
                    (record, "record (its runs are bounded to a few seconds)"),
                    (
                        results.is_some(),
                        "results (its runs are bounded to a few seconds)",
                    ),
                ];
                if let Some((_, what)) = refused.iter().find(|(set, _)| *set) {
                    return Err(value_error(sequence::general_refusal(&notation, what)));
                }
                return general_sequence(py, &notation, n.unwrap_or(1000));
            }
        };
        let choice = EngineChoice::parse(engine).map_err(value_error)?;
        Engine::check(choice, &rules).map_err(|e| {
            // the CLI's message names its flag; Python's names the argument
            value_error(e.to_string().replace("--engine naive", "engine='naive'"))
        })?;
        let mut chosen = Engine::choose(choice, &rules).map_err(value_error)?;
        chosen.set_threads(threads);
        chosen.set_compact_values(compact_values);
        let limit = sequence::engine_limit(&chosen, &rules);
        if let Some(n) = n.filter(|&n| n > MAX_N) {
            return Err(value_error(format!(
                "heap size {n} is too large: at most {MAX_N} (the sequence is kept in memory)"
            )));
        }
        let given = n.is_some();
        let (default_limit, mut reason) = sequence::until_period_default(&chosen, &rules, None);
        if default_limit > MAX_N {
            reason = format!(
                "the default limit of a search for a period in Python: {MAX_N} values (every \
                 value is kept in memory; the CLI's --until-period goes further)"
            );
        }
        let n = sequence::heap_size(n, until_period, limit, default_limit.min(MAX_N))
            .map_err(value_error)?;
        if given {
            reason = format!("n={n}");
        }
        let request = sequence::Request {
            until_period,
            // every value is handed back to Python
            keep_all: true,
            ..sequence::Request::default()
        };
        let plan = sequence::plan(&request, &rules, n, chosen.is_sparse()).map_err(value_error)?;
        let every = match checkpoint_every {
            None => Duration::from_secs_f64(run::DEFAULT_CHECKPOINT_EVERY),
            Some(s) => run::checkpoint_every(&s.to_string()).map_err(|e| {
                value_error(
                    e.to_string()
                        .replace("--checkpoint-every", "checkpoint_every"),
                )
            })?,
        };
        let options = run::RunOptions {
            checkpoint: match (checkpoint, default_checkpoint) {
                (Some(path), _) => CheckpointPlace::At(path),
                (None, true) => CheckpointPlace::Default,
                (None, false) => CheckpointPlace::Off,
            },
            every,
            no_record: !record,
            record_after: None,
            db,
            results,
            tiered: None,
        };
        let total = n + 1;
        let stop = AtomicBool::new(false);
        let started = Instant::now();
        let ended = py.allow_threads(|| {
            let poll = Poll::new(&stop, progress.as_ref());
            let last_check = Mutex::new(Instant::now());
            let watch = |done: usize| {
                let Ok(mut last) = last_check.lock() else {
                    return;
                };
                if last.elapsed() >= SIGNAL_CHECK {
                    *last = Instant::now();
                    poll.call(done, total);
                }
            };
            let result = run::run(
                &rules,
                plan,
                &options,
                chosen,
                run::Hooks {
                    tell: &tell,
                    stop: &stop,
                    checkpointing: None,
                    progress: Some(&watch),
                    search: None,
                    standing: None,
                },
            );
            (result, poll.raised())
        });
        let finished = match ended {
            (Err(grundy_runs::Error::Interrupted(saved)), Some(interrupt)) => {
                // say what was saved, then let the KeyboardInterrupt (or the progress
                // callback's exception) reach the caller unchanged
                tell(Message::Info(saved));
                return Err(interrupt);
            }
            (_, Some(raised)) => return Err(raised),
            (Err(e), None) => return Err(value_error(e)),
            (Ok(f), None) => f,
        };
        if let Some(f) = &progress {
            f.call1(py, (total, total))?;
        }
        let computation = finished.computation;
        let limit = if until_period {
            sequence::limit_report(
                &rules,
                &computation,
                started.elapsed().as_secs_f64(),
                given,
                &reason,
                sequence::Front::Python { code },
            )
        } else {
            None
        };
        if let Some(l) = &limit {
            tell(Message::Note(l.words()));
        }
        let d = PyDict::new(py);
        d.set_item("code", rules.to_string())?;
        d.set_item("n", computation.n())?;
        d.set_item("engine", finished.engine.name())?;
        d.set_item("threads", finished.engine.threads_used())?;
        // as the CLI: bytes per stored value (1 while every value is below 256)
        d.set_item("value_bytes", computation.value_bytes())?;
        d.set_item("period", to_py(py, &computation.period)?)?;
        d.set_item("max_value", computation.max_value)?;
        d.set_item("value_counts", &computation.value_counts)?;
        if let Some(l) = &limit {
            d.set_item("until_period_limit", to_py(py, l)?)?;
        }
        if computation.is_extended() {
            // as the CLI: the values past this index follow from the certified period
            d.set_item("computed_up_to", computation.computed() - 1)?;
        }
        // Not materialised: a long sequence extended by its period stays as computed.
        d.set_item("values", Values { computation })?;
        Ok(d.into_any().unbind())
    })
}

/// Values as native-endian u16 bytes, straight into the bytes object: no second copy of a long
/// sequence.
fn u16_bytes(py: Python<'_>, values: Vec<u16>) -> PyResult<Bound<'_, PyBytes>> {
    PyBytes::new_with(py, values.len() * 2, |buf| {
        for (cell, v) in buf.chunks_exact_mut(2).zip(&values) {
            cell.copy_from_slice(&v.to_ne_bytes());
        }
        Ok(())
    })
}

/// G(0..=n) of a sequence run, as the engine left it: the computed values and the certified
/// period that extends them. `grundy.Sequence` reads single values from it and asks for the
/// whole buffer ([`Values::to_bytes`]) only when a list, an array or a slice is wanted, so
/// that `takebreak("0.16", n=10**7)` costs what the CLI's run costs.
#[pyclass(module = "grundy._grundy", frozen)]
pub struct Values {
    computation: grundy::takebreak::Computation,
}

#[pymethods]
impl Values {
    fn __len__(&self) -> usize {
        self.computation.n() + 1
    }

    /// G(i), for 0 <= i <= n (the wrapper checks the range).
    fn get(&self, i: usize) -> PyResult<u16> {
        if i > self.computation.n() {
            return Err(pyo3::exceptions::PyIndexError::new_err(
                "sequence index out of range",
            ));
        }
        Ok(self.computation.value(i))
    }

    /// G(start), G(start + step), ... (`count` values; the wrapper gives the indices of a
    /// slice, all within 0..=n).
    fn take(&self, start: isize, step: isize, count: usize) -> PyResult<Vec<u16>> {
        (0..count as isize)
            .map(|k| self.get(usize::try_from(start + k * step).unwrap_or(usize::MAX)))
            .collect()
    }

    /// G(0..=n) as native-endian u16 bytes.
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        computation_bytes(py, &self.computation)
    }
}

/// G(0..=n) of a computation as native-endian u16 bytes, written straight into the bytes
/// object: the computed values, then (for a sequence extended by its certified period) copies
/// of the period, doubling the block copied each time. No `n + 1` vector in between.
fn computation_bytes<'py>(
    py: Python<'py>,
    computation: &grundy::takebreak::Computation,
) -> PyResult<Bound<'py, PyBytes>> {
    let computed = computation.computed();
    PyBytes::new_with(py, (computation.n() + 1) * 2, |buf| {
        for (cell, v) in buf.chunks_exact_mut(2).zip(computation.values.iter()) {
            cell.copy_from_slice(&v.to_ne_bytes());
        }
        if let Some(p) = computation.period.filter(|_| computation.is_extended()) {
            // G(i) = G(i - k * period) for every i - k * period >= preperiod (certified)
            let (start, step) = (p.preperiod * 2, p.period * 2);
            let mut at = computed * 2;
            while at < buf.len() {
                let shift = (at - start) / step * step;
                let take = shift.min(buf.len() - at);
                buf.copy_within(at - shift..at - shift + take, at);
                at += take;
            }
        }
        Ok(())
    })
}

/// G(0..=n) of a code only the general engine runs, with the keys of the CLI's report.
fn general_sequence(py: Python<'_>, notation: &Notation, n: u64) -> PyResult<PyObject> {
    let s = py
        .allow_threads(|| general::sequence(notation, n))
        .map_err(value_error)?;
    let d = PyDict::new(py);
    d.set_item("code", notation.to_string())?;
    d.set_item("n", s.values.len() - 1)?;
    d.set_item("engine", "general")?;
    // as the CLI: the general engine computes on one thread
    d.set_item("threads", 1)?;
    d.set_item("value_bytes", 2)?;
    d.set_item("period", to_py(py, &s.period)?)?;
    d.set_item("max_value", s.max_value)?;
    d.set_item("value_counts", &s.value_counts)?;
    d.set_item("values", u16_bytes(py, s.values)?)?;
    Ok(d.into_any().unbind())
}

/// A position of several heaps: heap values, value, outcome, up to `max_moves` winning moves.
#[pyfunction]
#[pyo3(signature = (code, heaps, max_moves=1000))]
fn takebreak_position(
    py: Python<'_>,
    code: &str,
    heaps: Vec<u64>,
    max_moves: u64,
) -> PyResult<PyObject> {
    guarded(|| {
        let parsed = sequence::parse_code(code).map_err(value_error)?;
        let max_moves = max_moves_limit(max_moves).map_err(value_error)?;
        if heaps.is_empty() {
            return Err(value_error(
                "heaps needs at least one heap (e.g. [5, 7, 9])",
            ));
        }
        let rules = match parsed {
            CodeRules::Engines(rules) => rules,
            CodeRules::General(notation) => {
                // as the CLI: the general engine analyses forms the octal engines cannot run
                let heaps = heaps
                    .into_iter()
                    .map(|h| {
                        u32::try_from(h).map_err(|_| {
                            value_error(format!("heap {h} is too large: at most {}", u32::MAX))
                        })
                    })
                    .collect::<PyResult<Vec<u32>>>()?;
                let a = py
                    .allow_threads(|| general::analyse(&notation, &heaps, max_moves))
                    .map_err(value_error)?;
                let d = to_py(py, &a)?;
                d.bind(py).set_item("code", notation.to_string())?;
                return Ok(d);
            }
        };
        if let Some(&h) = heaps.iter().find(|&&h| h > MAX_HEAP) {
            return Err(value_error(format!(
                "heap {h} is too large: at most {MAX_HEAP} (its Grundy sequence is computed naively)"
            )));
        }
        let heaps: Vec<u32> = heaps.into_iter().map(|h| h as u32).collect();
        let a = py
            .allow_threads(|| analyse(&rules, &heaps, max_moves))
            .map_err(value_error)?;
        let d = to_py(py, &a)?;
        d.bind(py).set_item("code", rules.to_string())?;
        Ok(d)
    })
}

fn check_bound(up_to: u64) -> PyResult<usize> {
    if up_to > MAX_HEAP {
        return Err(value_error(format!(
            "check_up_to {up_to} is too large: at most {MAX_HEAP} (both sequences are computed naively)"
        )));
    }
    Ok(up_to as usize)
}

fn transform_report(
    py: Python<'_>,
    check: &transform::TransformCheck,
    name: &str,
    m: Option<usize>,
    identity: String,
) -> PyResult<PyObject> {
    let d = to_py(py, check)?;
    let b = d.bind(py);
    b.set_item("transform", name)?;
    if let Some(m) = m {
        b.set_item("m", m)?;
    }
    b.set_item("identity", identity)?;
    Ok(d)
}

/// The m-fold game B of Theorem 6.5 and a check of g_B(n) = g_A(floor(n/m)) for n <= check_up_to.
#[pyfunction]
#[pyo3(signature = (code, m, check_up_to=10_000))]
fn takebreak_fold(py: Python<'_>, code: &str, m: u64, check_up_to: u64) -> PyResult<PyObject> {
    guarded(|| {
        let rules = rules_of(code)?;
        let a = code_of(&rules, "fold")?;
        if m == 0 || m > 1000 {
            return Err(value_error(format!(
                "fold {m} is out of range: m must be between 1 and 1000"
            )));
        }
        let up_to = check_bound(check_up_to)?;
        let c = py
            .allow_threads(|| transform::check_fold(a, m as usize, up_to))
            .map_err(value_error)?;
        transform_report(
            py,
            &c,
            "fold",
            Some(m as usize),
            format!("g_B(n) = g_A(floor(n/{m}))"),
        )
    })
}

/// The cousin B of Theorem 6.6 and a check of g_B(n) = g_A(n+1) for n <= check_up_to.
#[pyfunction]
#[pyo3(signature = (code, check_up_to=10_000))]
fn takebreak_cousin(py: Python<'_>, code: &str, check_up_to: u64) -> PyResult<PyObject> {
    guarded(|| {
        let rules = rules_of(code)?;
        let a = code_of(&rules, "cousin")?;
        let up_to = check_bound(check_up_to)?;
        let c = py
            .allow_threads(|| transform::check_cousin(a, up_to))
            .map_err(value_error)?;
        transform_report(py, &c, "cousin", None, "g_B(n) = g_A(n+1)".into())
    })
}
