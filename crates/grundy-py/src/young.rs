//! Young diagrams as positions of the hook-removal game, which is the Sato–Welter game on their
//! beta-numbers (hook paper §2–§5): hook lengths, the value by Welter's formula and by the hook
//! formula, winning moves as hooks to remove, r-cores, r-quotients and the quotient theorem
//! (Theorem 4).

use crate::{guarded, to_py, value_error};
use grundy::graph::explore;
use grundy::young::{self, HookRemoval, Partition};
use grundy::Outcome;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

/// Hook lengths (and the hook formula) are listed up to this many boxes (the CLI's limit).
const MAX_HOOK_BOXES: u64 = 1_000_000;
/// Winning moves carry their resulting diagram while rows × moves stays below this.
const MAX_RESULT_CELLS: u64 = 10_000_000;
/// Positions `young_graph` may explore.
const MAX_GRAPH_NODES: usize = 200_000;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(young_partition, m)?)?;
    m.add_function(wrap_pyfunction!(young_graph, m)?)?;
    m.add_function(wrap_pyfunction!(young_picture, m)?)?;
    m.add("MAX_PICTURE_SIDE", young::MAX_PICTURE_SIDE)?;
    Ok(())
}

fn partition_of(numbers: Vec<u64>, from_beta: bool) -> PyResult<Partition> {
    if from_beta {
        Partition::from_beta_numbers(&numbers)
    } else {
        Partition::new(numbers)
    }
    .map_err(value_error)
}

/// The winning moves of `p` as hooks (the library's), each with the diagram it leaves while
/// rows × moves stays small.
fn hook_moves<'py>(py: Python<'py>, p: &Partition) -> PyResult<Bound<'py, PyList>> {
    let moves = young::winning_hook_moves(p);
    let with_result = (p.len() as u64).saturating_mul(moves.len() as u64) <= MAX_RESULT_CELLS;
    let out = PyList::empty(py);
    for m in moves {
        let d = to_py(py, &m)?;
        if with_result {
            let q = p.remove_hook(m.row, m.column).map_err(value_error)?;
            d.bind(py).set_item("result", q.parts().to_vec())?;
        }
        out.append(d)?;
    }
    Ok(out)
}

/// A Young diagram (parts, or beta-numbers with `from_beta`): the keys of `grundy young --json`.
#[pyfunction]
#[pyo3(signature = (numbers, from_beta=false, beads=None, core=None, quotient=None, remove_hook=None))]
fn young_partition(
    py: Python<'_>,
    numbers: Vec<u64>,
    from_beta: bool,
    beads: Option<usize>,
    core: Option<u64>,
    quotient: Option<u64>,
    remove_hook: Option<(usize, u64)>,
) -> PyResult<PyObject> {
    guarded(|| {
        let p = partition_of(numbers, from_beta)?;
        let beta = match beads {
            Some(n) => p.beta_numbers_with(n).map_err(value_error)?,
            None => p.beta_numbers(),
        };
        let check_r = |name: &str, r: u64| {
            if r == 0 {
                Err(value_error(format!("{name} must be at least 1")))
            } else {
                Ok(r)
            }
        };
        let d = PyDict::new(py);
        d.set_item("partition", p.parts().to_vec())?;
        d.set_item("boxes", p.boxes())?;
        d.set_item("beta", beta)?;
        let grundy_value = young::grundy_value(&p);
        let small = p.boxes() <= MAX_HOOK_BOXES;
        d.set_item("hooks", small.then(|| p.hook_lengths()))?;
        d.set_item("grundy_value", grundy_value)?;
        d.set_item(
            "grundy_value_by_hooks",
            small.then(|| young::grundy_value_by_hooks(&p)),
        )?;
        d.set_item("outcome", Outcome::from_value(grundy_value).as_str())?;
        d.set_item("winning_moves", hook_moves(py, &p)?)?;
        if let Some(r) = core {
            let c = young::core(&p, check_r("core", r)?).map_err(value_error)?;
            d.set_item("core", c.parts().to_vec())?;
        }
        if let Some(r) = quotient {
            let q = young::quotient(&p, check_r("quotient", r)?).map_err(value_error)?;
            d.set_item("quotient", to_py(py, &q)?)?;
        }
        let theorem = young::quotient_theorem(&p).map_err(value_error)?;
        // JSON arrays are lists in Python (pythonize would make the fixed-size pairs tuples).
        let t = to_py(py, &theorem)?;
        let t = t.bind(py);
        t.set_item("halves", to_py(py, &theorem.halves.to_vec())?)?;
        t.set_item("half_values", theorem.half_values.to_vec())?;
        d.set_item("quotient_theorem", t)?;
        if let Some((row, column)) = remove_hook {
            let hook_length = p.hook_length(row, column).ok_or_else(|| {
                value_error(format!("box ({row}, {column}) is not in the diagram {p}"))
            })?;
            let result = p.remove_hook(row, column).map_err(value_error)?;
            let h = PyDict::new(py);
            h.set_item("row", row)?;
            h.set_item("column", column)?;
            h.set_item("hook_length", hook_length)?;
            h.set_item("result", result.parts().to_vec())?;
            h.set_item("result_grundy_value", young::grundy_value(&result))?;
            d.set_item("removed_hook", h)?;
        }
        Ok(d.into_any().unbind())
    })
}

/// The boxes of the picture of the diagram with these parts, as the library's
/// `young::picture` gives them to every front end (`row`, `column`, `hook_length`, `even_hook`,
/// `winning`); refused beyond `MAX_PICTURE_SIDE` rows or columns.
#[pyfunction]
fn young_picture(py: Python<'_>, parts: Vec<u64>) -> PyResult<PyObject> {
    guarded(|| {
        let p = partition_of(parts, false)?;
        let boxes = young::picture_boxes(&p).map_err(value_error)?;
        to_py(py, &boxes)
    })
}

/// The game graph of every diagram reachable from `numbers` by removing hooks, in the JSON
/// format of `grundy graph` (node ids are the diagrams, e.g. "[2, 1]").
#[pyfunction]
#[pyo3(signature = (numbers, from_beta=false))]
fn young_graph(py: Python<'_>, numbers: Vec<u64>, from_beta: bool) -> PyResult<PyObject> {
    guarded(|| {
        let p = partition_of(numbers, from_beta)?;
        let graph = py
            .allow_threads(|| explore(&HookRemoval::any_hook(), &p, MAX_GRAPH_NODES))
            .map_err(value_error)?;
        to_py(py, &graph.to_spec())
    })
}
