//! The user's own game: [`grundy::Game`] implemented for rules written in Python, so that the
//! library's evaluators ([`grundy::NormalPlay`], misère play, the multiplayer reading of the
//! multiplayer paper, Def. 4.1) run on any hashable Python positions.
//!
//! - A position is a table key ([`PyPos`], module [`position`]): an int in Rust, any other
//!   object with its hash, computed once; equality is Python's.
//! - The rules ([`Rules`]) call the user's `options`, `components` and `canonical` callbacks.
//!   The trait's methods cannot fail, so a callback's exception (or a Ctrl-C seen by
//!   `check_signals`) is stored, the rules answer "no options" from then on, and
//!   [`Game::interrupted`] makes the shared traversal stop at once, keeping only the values it
//!   had finished. The wrapper then raises the stored exception itself, unchanged (its type
//!   and its traceback through the user's frame).
//! - Everything runs with the GIL held: the callbacks need it, and the engine is iterative
//!   (explicit stack), so a million-deep chain needs neither Python's recursion limit nor a
//!   deep C stack.
//! - The memo tables live in the [`GameEngine`] object: a second query on the same game
//!   reuses everything the first one found.

mod position;
mod progress;
mod quotient;

use crate::{guarded, multiplayer::profile, value_error};
use grundy::games::multiplayer::{LastMover, Preferences};
use grundy::solve::{Misere, Normal, Solver};
use grundy::takebreak::period::PeriodDetector;
use grundy::{Error, Game, Nimber, Outcome};
use position::{eq_failed, gil_held, shown, small_int, take_eq_error, PyPos};
use progress::Reporter;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How many callback calls pass between two checks for Ctrl-C (`PyErr_CheckSignals`) and for a
/// progress report that is due.
const SIGNAL_EVERY: usize = 256;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    quotient::register(m)?;
    m.add_class::<GameEngine>()
}

/// `f(arg)`, through `PyObject_CallFunctionObjArgs`: CPython passes the argument on the C
/// stack (vectorcall) instead of building an argument tuple as `call1` does, which a game's
/// millions of callback calls feel.
fn call_one<'py>(f: &Bound<'py, PyAny>, arg: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    // SAFETY: `f` and `arg` are live objects and the GIL is held (both are `Bound`); the null
    // pointer ends the argument list; the result is a new reference, or null with an
    // exception set, which `from_owned_ptr_or_err` turns into the `PyErr`.
    unsafe {
        let result = pyo3::ffi::PyObject_CallFunctionObjArgs(
            f.as_ptr(),
            arg.as_ptr(),
            std::ptr::null_mut::<pyo3::ffi::PyObject>(),
        );
        Bound::from_owned_ptr_or_err(f.py(), result)
    }
}

/// The user's callbacks as [`Game`] rules, with the slot for an exception they raised.
pub struct Rules {
    options: Py<PyAny>,
    components: Split,
    canonical: Option<Py<PyAny>>,
    error: Mutex<Option<PyErr>>,
    failed: AtomicBool,
    /// Callback calls so far. Read and written with plain loads and stores (no atomic
    /// read-modify-write on every call): the GIL serialises every use of the rules.
    calls: AtomicUsize,
    reporter: Arc<Reporter>,
}

impl Rules {
    fn new(py: Python<'_>, engine: &GameEngine) -> Self {
        Rules {
            options: engine.options.clone_ref(py),
            components: engine.components.clone_ref(py),
            canonical: engine.canonical.as_ref().map(|c| c.clone_ref(py)),
            error: Mutex::new(None),
            failed: AtomicBool::new(false),
            calls: AtomicUsize::new(0),
            reporter: engine.reporter.clone(),
        }
    }

    /// A position as the tables hold it: its canonical representative, hashed.
    fn position(&self, obj: Bound<'_, PyAny>) -> PyResult<PyPos> {
        match &self.canonical {
            None => PyPos::new(obj),
            Some(c) => PyPos::new(call_one(c.bind(obj.py()), &obj)?),
        }
    }

    /// Call `callback(position)`; every [`SIGNAL_EVERY`] calls, first check for Ctrl-C and let
    /// the progress reporter report if a report is due.
    fn call<'py>(
        &self,
        callback: &Py<PyAny>,
        position: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = position.py();
        let calls = self.calls.load(Ordering::Relaxed);
        self.calls.store(calls.wrapping_add(1), Ordering::Relaxed);
        if calls % SIGNAL_EVERY == 0 {
            py.check_signals()?;
            self.reporter.tick(py)?;
        }
        call_one(callback.bind(py), position)
    }

    /// The user's options of `position`, as the callback returned them (not canonicalised).
    fn raw_options<'py>(&self, position: &Bound<'py, PyAny>) -> PyResult<Vec<Bound<'py, PyAny>>> {
        let mut out = Vec::new();
        self.each_option(position, |o| {
            out.push(o);
            Ok(())
        })?;
        Ok(out)
    }

    /// Call the options callback on `position` and `f` on each option it returns.
    fn each_option<'py>(
        &self,
        position: &Bound<'py, PyAny>,
        f: impl FnMut(Bound<'py, PyAny>) -> PyResult<()>,
    ) -> PyResult<()> {
        let result = self.call(&self.options, position)?;
        for_each_item(&result, f, || {
            format!(
                "options({}) must return a list (or any iterable) of positions, not {}",
                shown(position),
                type_name(&result)
            )
        })
    }

    fn try_options(&self, py: Python<'_>, position: &PyPos, out: &mut Vec<PyPos>) -> PyResult<()> {
        self.reporter.explored_one();
        self.each_option(&position.bind(py), |o| {
            out.push(self.position(o)?);
            Ok(())
        })
    }

    fn try_components(&self, py: Python<'_>, position: &PyPos) -> PyResult<Option<Vec<PyPos>>> {
        let callback = match &self.components {
            Split::Never => return Ok(None),
            Split::Tuples => return self.tuple_parts(py, position),
            Split::Callback(callback) => callback,
        };
        let pos = &position.bind(py);
        let result = self.call(callback, pos)?;
        if result.is_none() {
            return Ok(None);
        }
        let mut parts = Vec::new();
        let add = |p| {
            parts.push(self.position(p)?);
            Ok(())
        };
        for_each_item(&result, add, || {
            format!(
                "components({}) must return None or a list of parts, not {}",
                shown(pos),
                type_name(&result)
            )
        })?;
        Ok(Some(parts))
    }

    /// The split of `grundy.tuple_components`, without calling Python: an exact tuple is the
    /// sum of its items, anything else does not split.
    fn tuple_parts(&self, py: Python<'_>, position: &PyPos) -> PyResult<Option<Vec<PyPos>>> {
        let PyPos::Obj { obj, .. } = position else {
            return Ok(None);
        };
        let Ok(tuple) = obj.bind(py).downcast_exact::<PyTuple>() else {
            return Ok(None);
        };
        let mut parts = Vec::with_capacity(tuple.len());
        for i in 0..tuple.len() {
            // borrowed: no reference count taken for a part that is an int
            let part = tuple.get_borrowed_item(i)?;
            parts.push(match small_int(&part) {
                Some(v) if self.canonical.is_none() => PyPos::Int(v),
                _ => self.position(part.to_owned())?,
            });
        }
        Ok(Some(parts))
    }

    fn fail(&self, e: PyErr) {
        let mut slot = self.error.lock().unwrap_or_else(|p| p.into_inner());
        slot.get_or_insert(e);
        self.failed.store(true, Ordering::Relaxed);
    }

    /// The exception that stopped the engine, if any (and forget it: the rules work again).
    fn take_error(&self) -> Option<PyErr> {
        if let Some(e) = take_eq_error() {
            self.fail(e);
        }
        self.failed.store(false, Ordering::Relaxed);
        self.error.lock().unwrap_or_else(|p| p.into_inner()).take()
    }
}

/// How positions split into sums ([`Game::components`]).
pub enum Split {
    /// No `components`: no position splits.
    Never,
    /// `components=grundy.tuple_components`: an exact tuple is the sum of its items, read in
    /// Rust (the function's own Python body says the same).
    Tuples,
    /// The user's `components` callback.
    Callback(Py<PyAny>),
}

impl Split {
    fn clone_ref(&self, py: Python<'_>) -> Self {
        match self {
            Split::Never => Split::Never,
            Split::Tuples => Split::Tuples,
            Split::Callback(c) => Split::Callback(c.clone_ref(py)),
        }
    }
}

/// Call `f` on each item of a list, tuple or any iterable (not a string), or raise a
/// `TypeError` with `message()`.
fn for_each_item<'py>(
    value: &Bound<'py, PyAny>,
    mut f: impl FnMut(Bound<'py, PyAny>) -> PyResult<()>,
    message: impl FnOnce() -> String,
) -> PyResult<()> {
    if let Ok(list) = value.downcast::<PyList>() {
        return list.iter().try_for_each(f);
    }
    if let Ok(tuple) = value.downcast::<PyTuple>() {
        return tuple.iter().try_for_each(f);
    }
    if value.is_instance_of::<pyo3::types::PyString>() {
        return Err(PyTypeError::new_err(message()));
    }
    match value.try_iter() {
        Ok(iter) => iter.into_iter().try_for_each(|item| f(item?)),
        Err(_) => Err(PyTypeError::new_err(message())),
    }
}

pub(super) fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "?".into(), |n| n.to_string())
}

impl Game for Rules {
    type Position = PyPos;

    fn options(&self, position: &PyPos, out: &mut Vec<PyPos>) {
        if self.failed.load(Ordering::Relaxed) {
            return;
        }
        if let Err(e) = self.try_options(gil_held(), position, out) {
            out.clear();
            self.fail(e);
        }
    }

    fn components(&self, position: &PyPos) -> Option<Vec<PyPos>> {
        if matches!(self.components, Split::Never) || self.failed.load(Ordering::Relaxed) {
            return None;
        }
        self.try_components(gil_held(), position)
            .unwrap_or_else(|e| {
                self.fail(e);
                None
            })
    }

    fn interrupted(&self) -> Option<Error> {
        (self.failed.load(Ordering::Relaxed) || eq_failed())
            .then(|| Error::Invalid("stopped by an exception in the game's callback".into()))
    }
}

/// The engine behind `grundy.Game`: the user's callbacks and one memo table per reading
/// (normal play, misère play, each multiplayer preference profile), kept between calls.
#[pyclass(module = "grundy._grundy")]
pub struct GameEngine {
    options: Py<PyAny>,
    components: Split,
    canonical: Option<Py<PyAny>>,
    normal: Option<Solver<Rules, Normal>>,
    misere: Option<Solver<Rules, Misere>>,
    multiplayer: Vec<(Preferences, Solver<Rules, LastMover>)>,
    /// The most positions one table may hold (`TooLarge` past it), or no limit.
    max_positions: Option<usize>,
    reporter: Arc<Reporter>,
}

impl GameEngine {
    /// Run one query `f` (with the panic guard), timed and reported by the progress reporter.
    fn query<T>(
        &mut self,
        py: Python<'_>,
        f: impl FnOnce(&mut Self) -> PyResult<T>,
    ) -> PyResult<T> {
        let reporter = Arc::clone(&self.reporter);
        reporter.begin();
        let result = guarded(|| f(self));
        let ended = reporter.end(py, result.is_ok());
        result.and_then(|v| ended.map(|()| v))
    }

    fn limited<R: grundy::solve::Reading<PyPos>>(&self, s: Solver<Rules, R>) -> Solver<Rules, R> {
        match self.max_positions {
            Some(limit) => s.with_limit(limit),
            None => s,
        }
    }

    fn normal(&mut self, py: Python<'_>) -> &mut Solver<Rules, Normal> {
        if self.normal.is_none() {
            self.normal = Some(self.limited(Solver::new(Rules::new(py, self), Normal::default())));
        }
        self.normal.as_mut().expect("just made")
    }

    fn misere(&mut self, py: Python<'_>) -> &mut Solver<Rules, Misere> {
        if self.misere.is_none() {
            self.misere = Some(self.limited(Solver::misere(Rules::new(py, self))));
        }
        self.misere.as_mut().expect("just made")
    }

    fn multiplayer(&mut self, py: Python<'_>, prefs: Preferences) -> &mut Solver<Rules, LastMover> {
        let i = match self.multiplayer.iter().position(|(p, _)| *p == prefs) {
            Some(i) => i,
            None => {
                let solver = self.limited(Solver::multiplayer(Rules::new(py, self), prefs.clone()));
                self.multiplayer.push((prefs, solver));
                self.multiplayer.len() - 1
            }
        };
        &mut self.multiplayer[i].1
    }

    /// The normal-play value of a position given as a Python object.
    fn value_of(&mut self, position: &Bound<'_, PyAny>) -> PyResult<Nimber> {
        let solver = self.normal(position.py());
        let key = solver.game().position(position.clone())?;
        evaluate(solver, |s| s.value(&key))
    }

    /// `(option, value)` for every option of `position`, in the callback's order, each
    /// option as the callback gave it (values through its canonical form).
    fn option_values<'py, V: Clone, R: grundy::solve::Reading<PyPos, Value = V>>(
        solver: &mut Solver<Rules, R>,
        position: &Bound<'py, PyAny>,
    ) -> PyResult<Vec<(Bound<'py, PyAny>, V)>> {
        let options = solver.game().raw_options(position)?;
        let mut out = Vec::with_capacity(options.len());
        for o in options {
            let key = solver.game().position(o.clone())?;
            let v = evaluate(solver, |s| s.value(&key))?;
            out.push((o, v));
        }
        Ok(out)
    }
}

/// Run `f` on `solver`, then raise a callback's stored exception unchanged (its type, its
/// traceback), or turn a library error (a loop, a broken `components()`) into `ValueError`
/// with the library's one-line message.
fn evaluate<R: grundy::solve::Reading<PyPos>, T>(
    solver: &mut Solver<Rules, R>,
    f: impl FnOnce(&mut Solver<Rules, R>) -> Result<T, Error>,
) -> PyResult<T> {
    let result = f(solver);
    match (solver.game().take_error(), result) {
        (Some(e), _) => Err(e),
        (None, Ok(v)) => Ok(v),
        (None, Err(e)) => Err(value_error(e)),
    }
}

#[pymethods]
impl GameEngine {
    /// `tuple_sums`: split exact tuples into their items in Rust (the wrapper's
    /// `components=grundy.tuple_components`); `components` is then ignored. `progress(done,
    /// total)`: called during a query that has lasted `progress_delay` seconds (see
    /// [`progress`]).
    #[new]
    #[pyo3(signature = (options, components=None, canonical=None, max_positions=None,
                        tuple_sums=false, progress=None, progress_delay=0.0))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        options: Py<PyAny>,
        components: Option<Py<PyAny>>,
        canonical: Option<Py<PyAny>>,
        max_positions: Option<usize>,
        tuple_sums: bool,
        progress: Option<Py<PyAny>>,
        progress_delay: f64,
    ) -> Self {
        GameEngine {
            options,
            components: match components {
                _ if tuple_sums => Split::Tuples,
                Some(c) => Split::Callback(c),
                None => Split::Never,
            },
            canonical,
            normal: None,
            misere: None,
            multiplayer: Vec::new(),
            max_positions,
            reporter: Arc::new(Reporter::new(
                progress,
                Duration::try_from_secs_f64(progress_delay).unwrap_or_default(),
            )),
        }
    }

    /// The Sprague-Grundy value of `position` (normal play).
    fn grundy_value(&mut self, position: &Bound<'_, PyAny>) -> PyResult<Nimber> {
        self.query(position.py(), |e| e.value_of(position))
    }

    /// Every option with its value: `[(option, value), ...]` in the callback's order.
    fn options_with_values<'py>(
        &mut self,
        position: &Bound<'py, PyAny>,
    ) -> PyResult<Vec<(Bound<'py, PyAny>, Nimber)>> {
        self.query(position.py(), |e| {
            Self::option_values(e.normal(position.py()), position)
        })
    }

    /// The misère outcome ("P" or "N") of `position`.
    fn misere_outcome(&mut self, position: &Bound<'_, PyAny>) -> PyResult<&'static str> {
        self.query(position.py(), |e| {
            let solver = e.misere(position.py());
            let key = solver.game().position(position.clone())?;
            Ok(evaluate(solver, |s| s.value(&key))?.as_str())
        })
    }

    /// The misère winning moves: options that are misère P-positions.
    fn misere_winning_moves<'py>(
        &mut self,
        position: &Bound<'py, PyAny>,
    ) -> PyResult<Vec<Bound<'py, PyAny>>> {
        self.query(position.py(), |e| {
            let pairs = Self::option_values(e.misere(position.py()), position)?;
            Ok(pairs
                .into_iter()
                .filter(|(_, v)| *v == Outcome::P)
                .map(|(o, _)| o)
                .collect())
        })
    }

    /// m players with preference orders, player 0 to move: `last_mover`, `position_offset`
    /// and the principal `line` (each step `player` and `position`).
    #[pyo3(signature = (position, players=None, order=None, prefs=None))]
    fn multiplayer_play<'py>(
        &mut self,
        position: &Bound<'py, PyAny>,
        players: Option<usize>,
        order: Option<Vec<usize>>,
        prefs: Option<Vec<Vec<usize>>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        self.query(position.py(), |e| {
            let py = position.py();
            let prefs = profile(players, order, prefs)?;
            let solver = e.multiplayer(py, prefs);
            let key = solver.game().position(position.clone())?;
            let play = evaluate(solver, |s| s.play(&key, 0))?;
            let out = PyDict::new(py);
            out.set_item("players", solver.players())?;
            out.set_item("preferences", solver.reading().preferences().to_string())?;
            out.set_item("orders", solver.reading().preferences().orders().to_vec())?;
            out.set_item("last_mover", play.last_mover)?;
            out.set_item("position_offset", play.position_offset)?;
            let line = PyList::empty(py);
            for step in &play.line {
                let d = PyDict::new(py);
                d.set_item("player", step.player)?;
                d.set_item("position", step.position.bind(py))?;
                line.append(d)?;
            }
            out.set_item("line", line)?;
            Ok(out)
        })
    }

    /// G(position(0)), ..., G(position(n)) (a heap of k when `position` is None) and the
    /// period they show, if any (observed, not certified): `{"n", "values", "period"}`.
    /// Evaluated bottom-up, k = 0, 1, ..., so that each value finds its options' values known.
    #[pyo3(signature = (n, position=None))]
    fn sequence<'py>(
        &mut self,
        py: Python<'py>,
        n: usize,
        position: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        self.query(py, |e| {
            let mut values = Vec::with_capacity(n.min(1 << 20) + 1);
            for k in 0..=n {
                e.reporter.step(k, n + 1);
                let p = match &position {
                    Some(f) => f.call1((k,))?,
                    None => k.into_pyobject(py)?.into_any(),
                };
                values.push(e.value_of(&p)?);
            }
            e.reporter.step(n + 1, n + 1);
            let out = PyDict::new(py);
            out.set_item("n", n)?;
            out.set_item("period", observed_period(py, &values)?)?;
            out.set_item("values", values)?;
            Ok(out)
        })
    }

    /// Number of positions whose normal-play value is stored.
    fn positions_evaluated(&self) -> usize {
        self.normal.as_ref().map_or(0, Solver::positions_evaluated)
    }
}

/// The least period the values show, by the library's detector
/// ([`PeriodDetector`], without the periodicity theorem: observed, never certified), as the
/// dict `{"preperiod", "period", "certified": False}`, or None.
fn observed_period<'py>(
    py: Python<'py>,
    values: &[Nimber],
) -> PyResult<Option<Bound<'py, PyDict>>> {
    let mut small = Vec::with_capacity(values.len());
    for &v in values {
        match u16::try_from(v) {
            Ok(v) => small.push(v),
            Err(_) => return Ok(None), // beyond the detector's values: no period reported
        }
    }
    let mut detector = PeriodDetector::new(false, 0);
    for k in 0..small.len() {
        detector.push_from(&small[..=k]);
    }
    let Some(p) = detector.status() else {
        return Ok(None);
    };
    let d = PyDict::new(py);
    d.set_item("preperiod", p.preperiod)?;
    d.set_item("period", p.period)?;
    d.set_item("certified", false)?;
    Ok(Some(d))
}
