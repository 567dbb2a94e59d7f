//! Explicit finite game graphs (nodes and their options), as in `grundy graph`: Grundy values
//! of every node by the shared normal-play reading, misère outcomes, winning moves.

use crate::{guarded, to_py, value_error};
use grundy::graph::loopy::to_dot_loopy;
use grundy::graph::{to_dot, GameGraph, GraphSpec, LoopyGraph};
use grundy::Outcome;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(graph_evaluate, m)?)?;
    m.add_function(wrap_pyfunction!(loopy_graph_evaluate, m)?)?;
    Ok(())
}

/// The graph spec given as JSON text or as the same structure of dicts and lists.
fn spec_of(spec: &Bound<'_, PyAny>) -> PyResult<GraphSpec> {
    if let Ok(text) = spec.extract::<String>() {
        GraphSpec::from_json(&text).map_err(value_error)
    } else {
        pythonize::depythonize(spec).map_err(|e| value_error(format!("not a game graph: {e}")))
    }
}

/// A graph that may have cycles (`grundy graph --loopy`): the library's loopy report (`root`,
/// `has_cycle`, `grundy_value` — a number or `{"infinite": True, "k": [...]}` —, `outcome`
/// P/N/D, `winning_moves` with `wins_within`, `drawing_moves`, `nodes` with `all`), plus
/// `dot` (Graphviz text, draws marked) with `dot`.
#[pyfunction]
#[pyo3(signature = (spec, root=None, all=false, dot=false))]
fn loopy_graph_evaluate(
    py: Python<'_>,
    spec: &Bound<'_, PyAny>,
    root: Option<String>,
    all: bool,
    dot: bool,
) -> PyResult<PyObject> {
    guarded(|| {
        let spec = spec_of(spec)?;
        let mut graph = LoopyGraph::from_spec(&spec).map_err(value_error)?;
        if let Some(r) = &root {
            let i = graph
                .index_of(r)
                .ok_or_else(|| value_error(format!("root '{r}' is not a node of the graph")))?;
            graph = graph.with_root(i).map_err(value_error)?;
        }
        let (report, dot_text) = py.allow_threads(|| {
            let a = graph.analyse();
            (
                graph.report_with(&a, all),
                dot.then(|| to_dot_loopy(&graph, &a)),
            )
        });
        let d = to_py(py, &report)?;
        if let Some(text) = dot_text {
            d.bind(py).set_item("dot", text)?;
        }
        Ok(d)
    })
}

/// Evaluate a graph given as its JSON text (a str) or as the same structure of dicts and
/// lists: `{"root": id, "nodes": [{"id": ..., "options": [...]}, ...]}`. The keys of
/// `grundy graph --json` (`nodes` with `all`, `misere_outcome` with `misere`), plus `dot`
/// (the Graphviz text) with `dot`.
#[pyfunction]
#[pyo3(signature = (spec, root=None, all=false, misere=false, dot=false))]
fn graph_evaluate(
    py: Python<'_>,
    spec: &Bound<'_, PyAny>,
    root: Option<String>,
    all: bool,
    misere: bool,
    dot: bool,
) -> PyResult<PyObject> {
    guarded(|| {
        let mut graph = GameGraph::from_spec(&spec_of(spec)?).map_err(|e| match e {
            grundy::Error::Loop(_) => {
                value_error(format!("{e}; loopy=True evaluates graphs with cycles"))
            }
            e => value_error(e),
        })?;
        if let Some(r) = &root {
            let i = graph
                .index_of(r)
                .ok_or_else(|| value_error(format!("root '{r}' is not a node of the graph")))?;
            graph = graph.with_root(i).map_err(value_error)?;
        }
        let values = graph.grundy_values();
        let misere = misere.then(|| graph.misere_outcomes());
        let r = graph.root();
        let d = PyDict::new(py);
        d.set_item("root", graph.name(r))?;
        d.set_item("grundy_value", values[r])?;
        d.set_item("outcome", Outcome::as_str(Outcome::from_value(values[r])))?;
        let winning: Vec<&str> = graph
            .options_of(r)
            .iter()
            .filter(|&&j| values[j] == 0)
            .map(|&j| graph.name(j))
            .collect();
        d.set_item("winning_moves", winning)?;
        if let Some(m) = &misere {
            d.set_item("misere_outcome", Outcome::as_str(m[r]))?;
        }
        if all {
            let nodes = PyList::empty(py);
            for i in 0..graph.len() {
                let n = PyDict::new(py);
                n.set_item("id", graph.name(i))?;
                n.set_item("grundy_value", values[i])?;
                if let Some(m) = &misere {
                    n.set_item("misere_outcome", Outcome::as_str(m[i]))?;
                }
                nodes.append(n)?;
            }
            d.set_item("nodes", nodes)?;
        }
        if dot {
            d.set_item("dot", to_dot(&graph))?;
        }
        Ok(d.into_any().unbind())
    })
}
