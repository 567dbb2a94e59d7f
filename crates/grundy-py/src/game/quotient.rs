//! Misère quotients of the user's own game (`grundy.misere_quotient(game, positions=...)`,
//! Plambeck–Siegel): the components reachable from the start positions are enumerated with
//! the GIL held (the callbacks need it), then the quotient is computed without it on their
//! numbers, by the library's one engine ([`grundy::solve::misere_quotient::components`]).

use super::position::PyPos;
use super::{GameEngine, Rules};
use crate::misere::{run_options, timeout_of, without_gil};
use crate::{guarded, to_py, value_error};
use grundy::solve::misere_quotient::components::{Components, GameQuotient};
use grundy::solve::misere_quotient::compute_with;
use grundy::{Error, Outcome};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::path::PathBuf;
use std::time::Instant;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(misere_quotient_game, m)?)?;
    m.add_class::<GameQuotientInner>()
}

/// The rules of `engine`'s game, for one call.
fn rules(py: Python<'_>, engine: &Py<GameEngine>) -> PyResult<Rules> {
    let e = engine.try_borrow(py).map_err(|_| {
        value_error("the game is busy (a query on it is running): try again after it")
    })?;
    Ok(Rules::new(py, &e))
}

/// A library error as Python's: a callback's exception (or Ctrl-C) unchanged, else
/// `ValueError` with the library's line.
fn raise(rules: &Rules, e: Error) -> PyErr {
    rules.take_error().unwrap_or_else(|| value_error(e))
}

/// The quotient of every sum of the components reachable from `start`: at most
/// `max_components` of them; `timeout`, `memory` and `checkpoint` as for codes.
#[pyfunction]
#[pyo3(signature = (engine, start, name, max_components, timeout=None, memory=None,
                    checkpoint=None))]
#[allow(clippy::too_many_arguments)]
fn misere_quotient_game(
    py: Python<'_>,
    engine: Py<GameEngine>,
    start: Vec<Bound<'_, PyAny>>,
    name: String,
    max_components: usize,
    timeout: Option<f64>,
    memory: Option<&str>,
    checkpoint: Option<PathBuf>,
) -> PyResult<GameQuotientInner> {
    guarded(|| {
        let timeout = timeout_of(timeout)?;
        let run = run_options(memory, checkpoint)?;
        let began = Instant::now();
        let game = rules(py, &engine)?;
        let mut positions = Vec::with_capacity(start.len());
        for p in start {
            positions.push(game.position(p)?);
        }
        let past = || timeout.is_some_and(|t| began.elapsed() >= t);
        let components = Components::enumerate(&game, &positions, max_components, &past).map_err(
            |e| match e {
                _ if past() => value_error(
                    "the timeout was reached while enumerating the components (raise timeout)",
                ),
                e => raise(&game, e),
            },
        )?;
        let heaps = components.rules(&name);
        let last = components.len() as u32 - 1;
        let left = timeout.map(|t| t.saturating_sub(began.elapsed()));
        let result = without_gil(py, left, |stop| {
            compute_with(Box::new(heaps), last, false, stop, &mut |_, _| {}, &run)
        })?;
        let quotient = result.map_err(value_error)?;
        Ok(GameQuotientInner {
            q: GameQuotient::new(components, quotient),
            engine,
        })
    })
}

/// A computed quotient of a game's components: answers outcomes and winning moves of sums.
#[pyclass(module = "grundy._grundy", frozen)]
pub struct GameQuotientInner {
    q: GameQuotient<PyPos>,
    engine: Py<GameEngine>,
}

#[pymethods]
impl GameQuotientInner {
    /// The report (the CLI's `--json` keys; a heap is a component's number).
    fn report(&self, py: Python<'_>) -> PyResult<PyObject> {
        guarded(|| to_py(py, &crate::misere::python_report(self.q.report())))
    }

    /// The components by number: `[None, component 1, component 2, ...]` (0 is the empty sum).
    fn components<'py>(&self, py: Python<'py>) -> Vec<Option<Bound<'py, PyAny>>> {
        let c = self.q.components();
        (0..c.len() as u32)
            .map(|k| c.position(k).map(|p| p.bind(py)))
            .collect()
    }

    /// The word of the element `position` (a sum of components) maps to.
    fn word(&self, position: &Bound<'_, PyAny>) -> PyResult<String> {
        guarded(|| {
            let game = rules(position.py(), &self.engine)?;
            let p = game.position(position.clone())?;
            let x = self.q.element(&game, &p).map_err(|e| raise(&game, e))?;
            Ok(self.q.word(x))
        })
    }

    /// The genus of `position` when the quotient is tame, else None.
    fn genus(&self, position: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        guarded(|| {
            let game = rules(position.py(), &self.engine)?;
            let p = game.position(position.clone())?;
            let g = self.q.genus(&game, &p).map_err(|e| raise(&game, e))?;
            Ok(g.map(|g| g.symbol()))
        })
    }

    /// "P" or "N".
    fn outcome(&self, position: &Bound<'_, PyAny>) -> PyResult<&'static str> {
        guarded(|| {
            let game = rules(position.py(), &self.engine)?;
            let p = game.position(position.clone())?;
            match self.q.outcome(&game, &p).map_err(|e| raise(&game, e))? {
                Outcome::P => Ok("P"),
                _ => Ok("N"),
            }
        })
    }

    /// A winning move `{"index", "from", "to"}` (a move in component `index` of the position,
    /// from `from` to its option `to`), or None.
    fn winning_move<'py>(
        &self,
        position: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        guarded(|| {
            let py = position.py();
            let game = rules(py, &self.engine)?;
            let p = game.position(position.clone())?;
            let Some(m) = self
                .q
                .winning_move(&game, &p)
                .map_err(|e| raise(&game, e))?
            else {
                return Ok(None);
            };
            let d = PyDict::new(py);
            d.set_item("index", m.index)?;
            d.set_item("from", m.from.bind(py))?;
            d.set_item("to", m.to.bind(py))?;
            Ok(Some(d))
        })
    }
}
