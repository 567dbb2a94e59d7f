//! The positions of a Python game as the engine's keys ([`PyPos`]): an int hashed and compared
//! in Rust, any other hashable object with its Python hash and Python's `==`, and the slot
//! where an exception raised by `==` inside a table lookup waits for the engine to stop.

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyInt;
use std::cell::RefCell;
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicUsize, Ordering};

use super::type_name;

thread_local! {
    /// An exception raised by a position's `==` inside a table lookup, where it cannot be
    /// returned; [`super::Rules`]'s `interrupted` picks it up.
    static EQ_ERROR: RefCell<Option<PyErr>> = const { RefCell::new(None) };
}

/// How many threads hold an exception in [`EQ_ERROR`]: while none does (always, but for a
/// broken `__eq__`), [`super::Rules`]'s `interrupted`, asked after every callback, reads this
/// counter instead of the thread-local slot.
static EQ_ERRORS: AtomicUsize = AtomicUsize::new(0);

/// Keep the exception `e` raised by `==` for [`super::Rules`]'s `interrupted` (the first one only).
fn keep_eq_error(e: PyErr) {
    EQ_ERROR.with(|slot| {
        let mut slot = slot.borrow_mut();
        if slot.is_none() {
            *slot = Some(e);
            EQ_ERRORS.fetch_add(1, Ordering::Relaxed);
        }
    });
}

/// Whether this thread holds an exception raised by `==`.
pub(super) fn eq_failed() -> bool {
    EQ_ERRORS.load(Ordering::Relaxed) > 0 && EQ_ERROR.with(|slot| slot.borrow().is_some())
}

/// The exception raised by `==` on this thread, if any (and forget it).
pub(super) fn take_eq_error() -> Option<PyErr> {
    if EQ_ERRORS.load(Ordering::Relaxed) == 0 {
        return None;
    }
    let e = EQ_ERROR.with(|slot| slot.borrow_mut().take());
    if e.is_some() {
        EQ_ERRORS.fetch_sub(1, Ordering::Relaxed);
    }
    e
}

/// A Python position as the engine's key, hashed once.
///
/// An exact `int` that fits in 64 bits (a heap, the commonest position) is kept as the number
/// itself: hashed and compared in Rust, with no Python call and no object kept. Every other
/// position is the object with its Python hash, compared by identity, then Python `==`. The two
/// kinds still compare as Python does (`1 == 1.0 == True`): an [`PyPos::Int`] hashes to the
/// value of Python's `hash()` of that int (the rule of CPython's `long_hash`, checked against
/// `hash()` by the tests), and meeting an object of the same hash it asks Python's `==`.
pub enum PyPos {
    Int(i64),
    Obj { hash: isize, obj: Py<PyAny> },
}

/// CPython's modulus for hashing numbers: `sys.hash_info.modulus` on 64-bit builds.
const HASH_MODULUS: u64 = (1 << 61) - 1;

/// Python's `hash(v)` of an int `v` (64-bit CPython: `v mod 2^61-1` keeping the sign, and
/// -2 for -1, which CPython reserves for errors).
fn int_hash(v: i64) -> isize {
    let h = (v.unsigned_abs() % HASH_MODULUS) as isize;
    match if v < 0 { -h } else { h } {
        -1 => -2,
        h => h,
    }
}

impl PyPos {
    pub(super) fn new(obj: Bound<'_, PyAny>) -> PyResult<Self> {
        if let Some(v) = small_int(&obj) {
            return Ok(PyPos::Int(v));
        }
        let hash = obj.hash().map_err(|e| {
            if !e.is_instance_of::<PyTypeError>(obj.py()) {
                return e; // the position's own __hash__ failed: its exception, unchanged
            }
            PyTypeError::new_err(format!(
                "positions must be hashable, but the game gave {} (a {}): use a tuple or \
                 frozenset instead of a list or set",
                shown(&obj),
                type_name(&obj)
            ))
        })?;
        Ok(PyPos::Obj {
            hash,
            obj: obj.unbind(),
        })
    }

    fn hash_value(&self) -> isize {
        match self {
            PyPos::Int(v) => int_hash(*v),
            PyPos::Obj { hash, .. } => *hash,
        }
    }

    /// The position as a Python object (a new int for [`PyPos::Int`]).
    pub(super) fn bind<'py>(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        match self {
            PyPos::Int(v) => v.into_pyobject(py).expect("an int converts").into_any(),
            PyPos::Obj { obj, .. } => obj.bind(py).clone(),
        }
    }
}

/// The value of an exact `int` (not a subclass such as `bool`) that fits in 64 bits.
pub(super) fn small_int(obj: &Bound<'_, PyAny>) -> Option<i64> {
    if !obj.is_exact_instance_of::<PyInt>() {
        return None;
    }
    let mut overflow = 0;
    // SAFETY: `obj` is a live int (checked above); the GIL is held (we hold a `Bound`).
    let v = unsafe { pyo3::ffi::PyLong_AsLongLongAndOverflow(obj.as_ptr(), &mut overflow) };
    // overflow != 0: too large for 64 bits (no exception is set then); -1 with an exception
    // cannot happen for an exact int, but is read as "not small" all the same
    (overflow == 0 && !(v == -1 && PyErr::occurred(obj.py()))).then_some(v)
}

/// The GIL, which every use of a [`PyPos`] or of the [`Rules`] by the engine holds.
///
/// SAFETY (of the callers): positions are cloned and compared, and the rules called, only by
/// the library's evaluators, and those run only inside the methods of [`GameEngine`], which
/// Python calls with the GIL held and which never release it themselves (the interpreter may
/// switch threads while a callback runs Python code, but it holds the GIL again whenever the
/// callback returns to the engine). (Dropping a position needs no GIL: pyo3 defers the
/// decref.) `Python::with_gil` would check the same thing through thread-local storage on every
/// comparison, which the table lookups of a large game feel.
pub(super) fn gil_held<'py>() -> Python<'py> {
    unsafe { Python::assume_gil_acquired() }
}

impl Clone for PyPos {
    fn clone(&self) -> Self {
        match self {
            PyPos::Int(v) => PyPos::Int(*v),
            PyPos::Obj { hash, obj } => PyPos::Obj {
                hash: *hash,
                obj: obj.clone_ref(gil_held()),
            },
        }
    }
}

impl Hash for PyPos {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_isize(self.hash_value());
    }
}

impl PartialEq for PyPos {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (PyPos::Int(a), PyPos::Int(b)) => a == b,
            (PyPos::Obj { obj: a, .. }, PyPos::Obj { obj: b, .. }) if a.is(b) => true,
            _ if self.hash_value() != other.hash_value() => false,
            _ => {
                let py = gil_held();
                python_eq(&self.bind(py), &other.bind(py))
            }
        }
    }
}

/// Python's `a == b`; an exception raised by `==` is kept for [`super::Rules`]'s `interrupted`
/// and the answer is "not equal".
fn python_eq(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> bool {
    // SAFETY: both pointers are live objects (held by `a` and `b`); the GIL is held.
    match unsafe { pyo3::ffi::PyObject_RichCompareBool(a.as_ptr(), b.as_ptr(), pyo3::ffi::Py_EQ) } {
        1 => true,
        0 => false,
        _ => {
            keep_eq_error(PyErr::fetch(a.py()));
            false
        }
    }
}

impl Eq for PyPos {}

impl std::fmt::Debug for PyPos {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        Python::with_gil(|py| f.write_str(&shown(&self.bind(py))))
    }
}

/// `repr(obj)` for a message, cut to 80 characters.
pub(super) fn shown(obj: &Bound<'_, PyAny>) -> String {
    let text = obj
        .repr()
        .map_or_else(|_| "<a position without repr>".into(), |r| r.to_string());
    if text.chars().count() > 80 {
        format!("{}...", text.chars().take(77).collect::<String>())
    } else {
        text
    }
}
