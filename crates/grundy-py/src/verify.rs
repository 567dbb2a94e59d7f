//! Exhaustive checks of the papers' closed forms ([`grundy::verify`]), as `grundy verify`
//! runs them: a dict with the keys of `grundy verify ... --json` (`check`, `scope`,
//! `positions_checked`, `holds`, `counterexample`; for `multiplayer` both checks under
//! `checks`). The checks run in parallel without the GIL; their ranges are bounded so that
//! each finishes in seconds.

use crate::{guarded, to_py, value_error};
use grundy::verify;
use pyo3::prelude::*;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(verify_check, m)?)?;
    Ok(())
}

/// Run the check `target` (`nim`, `multiplayer`, `cdnim`, `welter`, `quotient-theorem`) with
/// its parameters; a parameter a check does not take must be `None`.
#[pyfunction]
#[pyo3(signature = (target, heaps=None, max_heap=None, players=None, coins=None,
                    max_square=None, max_boxes=None))]
#[allow(clippy::too_many_arguments)]
fn verify_check(
    py: Python<'_>,
    target: &str,
    heaps: Option<u64>,
    max_heap: Option<u64>,
    players: Option<u64>,
    coins: Option<u64>,
    max_square: Option<u64>,
    max_boxes: Option<u64>,
) -> PyResult<PyObject> {
    guarded(|| {
        let given = [
            ("heaps", heaps.is_some()),
            ("max_heap", max_heap.is_some()),
            ("players", players.is_some()),
            ("coins", coins.is_some()),
            ("max_square", max_square.is_some()),
            ("max_boxes", max_boxes.is_some()),
        ];
        let takes: &[&str] = match target {
            "nim" | "cdnim" => &["heaps", "max_heap"],
            "multiplayer" => &["players", "heaps", "max_heap"],
            "welter" => &["coins", "max_square"],
            "quotient-theorem" => &["max_boxes"],
            other => {
                return Err(value_error(format!(
                    "unknown check '{other}': nim, multiplayer, cdnim, welter or quotient-theorem"
                )))
            }
        };
        if let Some((name, _)) = given.iter().find(|(n, set)| *set && !takes.contains(n)) {
            return Err(value_error(format!(
                "the {target} check takes no {name} (it takes {})",
                takes.join(", ")
            )));
        }
        // The CLI's defaults.
        let usize_of = |v: u64| usize::try_from(v).unwrap_or(usize::MAX);
        let target = target.to_owned();
        py.allow_threads(move || -> PyResult<PyObject> {
            let report = match target.as_str() {
                "nim" => verify::nim::check_all(
                    usize_of(heaps.unwrap_or(3)),
                    max_heap.unwrap_or(12),
                    None,
                )
                .map(Report::One),
                "cdnim" => verify::cdnim::check_all(
                    usize_of(heaps.unwrap_or(3)),
                    max_heap.unwrap_or(16),
                    None,
                )
                .map(Report::One),
                "welter" => verify::welter::check_all(
                    usize_of(coins.unwrap_or(4)),
                    max_square.unwrap_or(14),
                    None,
                )
                .map(Report::One),
                "quotient-theorem" => {
                    verify::quotient_theorem::check_all(max_boxes.unwrap_or(12), None)
                        .map(Report::One)
                }
                _ => verify::multiplayer::check_all(
                    players.unwrap_or(3),
                    heaps.unwrap_or(3),
                    max_heap.unwrap_or(8),
                    None,
                )
                .map(Report::Multiplayer),
            }
            .map_err(value_error)?;
            Python::with_gil(|py| match &report {
                Report::One(r) => to_py(py, r),
                Report::Multiplayer(r) => to_py(py, r),
            })
        })
    })
}

enum Report {
    One(verify::CheckReport),
    Multiplayer(verify::multiplayer::Report),
}
