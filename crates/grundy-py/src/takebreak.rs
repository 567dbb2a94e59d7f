//! Take-and-break games (splitting paper): Grundy sequences with the engine the CLI chooses
//! (rare/common for octal codes, naive otherwise), periods certified by the periodicity
//! theorem, positions of several heaps, and the m-fold (Thm 6.5) and cousin (Thm 6.6)
//! transforms.
//!
//! A sequence runs without the GIL through the library's resumable driver
//! ([`grundy::takebreak::checkpoint::run`]), whose stop flag is the library's interruption hook:
//! every few thousand values (at most every 50 ms) the run takes the GIL back to ask Python
//! whether a signal is pending, and a `KeyboardInterrupt` stops it and reaches the caller.

use crate::{guarded, to_py, value_error};
use grundy::takebreak::checkpoint::{self, Control};
use grundy::takebreak::sparse::{self, RareCommon};
use grundy::takebreak::{analyse, transform, Code, Finish, Naive, Plan, Rules, SequenceEngine};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::cell::{Cell, RefCell};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Largest heap size of a sequence (the CLI's limits: values are kept in memory; the naive
/// engine's time grows like n², and its nim-sum tables with n when moves leave 3+ heaps).
const MAX_N: u64 = 100_000_000;
const MAX_N_NAIVE: u64 = 2_000_000;
const MAX_N_NAIVE_MANY_HEAPS: u64 = 200_000;
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
    guarded(|| Ok(rules_of(code)?.to_string()))
}

/// Whether `engine` ("auto", "sparse", "naive") gives the rare/common engine for `rules`.
fn use_sparse(engine: &str, rules: &Rules) -> PyResult<bool> {
    let octal = rules.periodicity_theorem_applies();
    match engine {
        "auto" => Ok(octal),
        "naive" => Ok(false),
        "sparse" if octal => Ok(true),
        "sparse" => Err(value_error(format!(
            "the rare/common engine handles octal codes only (every digit below 8); \
             {rules} is not one: use engine='naive'"
        ))),
        other => Err(value_error(format!(
            "engine '{other}' is not one of auto, sparse, naive"
        ))),
    }
}

/// G(0..=n) (or until a certified period): a dict with the CLI's sequence report keys (`code`,
/// `n`, `engine`, `period`, `max_value`, `value_counts`) and `values` as native-endian u16
/// bytes (the wrapper turns them into a list or a numpy array without a per-value loop).
#[pyfunction]
#[pyo3(signature = (code, n=None, until_period=false, engine="auto"))]
fn takebreak_sequence(
    py: Python<'_>,
    code: &str,
    n: Option<u64>,
    until_period: bool,
    engine: &str,
) -> PyResult<PyObject> {
    guarded(|| {
        let rules = rules_of(code)?;
        let sparse = use_sparse(engine, &rules)?;
        let limit = if sparse {
            MAX_N
        } else if rules.max_heaps_left() <= 2 {
            MAX_N_NAIVE
        } else {
            MAX_N_NAIVE_MANY_HEAPS
        };
        let n = n.unwrap_or(if until_period {
            limit.min(1_000_000)
        } else {
            1000
        });
        if n > MAX_N {
            return Err(value_error(format!(
                "heap size {n} is too large: at most {MAX_N} (the sequence is kept in memory)"
            )));
        }
        if n > limit {
            return Err(value_error(format!(
                "heap size {n} is too large for the naive engine on these rules (its time grows \
                 like n^2): at most {limit}"
            )));
        }
        let mut engine: Box<dyn SequenceEngine + Send> = if sparse {
            Box::new(RareCommon::for_rules(&rules).map_err(value_error)?)
        } else {
            Box::new(Naive::new(rules.clone()))
        };
        let engine_name = if sparse { sparse::ENGINE_NAME } else { "naive" };
        let stop = AtomicBool::new(false);
        let ended = py.allow_threads(|| {
            let interrupt: RefCell<Option<PyErr>> = RefCell::new(None);
            let last_check = Cell::new(Instant::now());
            let progress = |_: usize| {
                if last_check.get().elapsed() < SIGNAL_CHECK {
                    return;
                }
                last_check.set(Instant::now());
                if let Err(e) = Python::with_gil(|py| py.check_signals()) {
                    *interrupt.borrow_mut() = Some(e);
                    stop.store(true, Ordering::Relaxed);
                }
            };
            let control = Control {
                every: Duration::MAX,
                save: &mut |_| Ok(()),
                stop: &stop,
                progress: Some(&progress),
                search: None,
            };
            // Python hands every value back, so an extended sequence is materialised below;
            // the values past a certificate are still copied from the period, not computed.
            let finish = if until_period {
                Finish::AtCertificate
            } else {
                Finish::Extend
            };
            let outcome = checkpoint::run(
                &rules,
                Vec::new(),
                Plan::new(n as usize, finish),
                engine.as_mut(),
                control,
            );
            (outcome, interrupt.into_inner())
        });
        let computation = match ended {
            (_, Some(interrupt)) => return Err(interrupt),
            (Err(e), None) => return Err(value_error(e)),
            (Ok(checkpoint::Outcome::Finished(c)), None) => c,
            (Ok(checkpoint::Outcome::Interrupted(_)), None) => {
                return Err(value_error("the computation was interrupted"))
            }
            (Ok(checkpoint::Outcome::OverBudget(_)), None) => {
                return Err(value_error("the computation ran out of its memory budget"))
            }
        };
        let d = PyDict::new(py);
        d.set_item("code", rules.to_string())?;
        d.set_item("n", computation.n())?;
        d.set_item("engine", engine_name)?;
        d.set_item("period", to_py(py, &computation.period)?)?;
        d.set_item("max_value", computation.max_value)?;
        d.set_item("value_counts", &computation.value_counts)?;
        if computation.is_extended() {
            // as the CLI: the values past this index follow from the certified period
            d.set_item("computed_up_to", computation.computed() - 1)?;
        }
        // Straight into the bytes object: no second copy of a long sequence.
        let values = computation.to_vec();
        let bytes = PyBytes::new_with(py, values.len() * 2, |buf| {
            for (cell, v) in buf.chunks_exact_mut(2).zip(&values) {
                cell.copy_from_slice(&v.to_ne_bytes());
            }
            Ok(())
        })?;
        drop(values);
        d.set_item("values", bytes)?;
        Ok(d.into_any().unbind())
    })
}

/// A position of several heaps: heap values, value, outcome, up to `max_moves` winning moves.
#[pyfunction]
#[pyo3(signature = (code, heaps, max_moves=1000))]
fn takebreak_position(
    py: Python<'_>,
    code: &str,
    heaps: Vec<u64>,
    max_moves: usize,
) -> PyResult<PyObject> {
    guarded(|| {
        let rules = rules_of(code)?;
        if heaps.is_empty() {
            return Err(value_error(
                "heaps needs at least one heap (e.g. [5, 7, 9])",
            ));
        }
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
