//! The interface every Grundy-sequence engine implements.
//!
//! Engines differ in *how* they find G(n) (the naive engine takes the mex over all options; a
//! rare/common engine skips most of them), never in *what* they compute, so the driver, the
//! period detector, checkpoints and catalogues see one trait. The sequence itself lives with
//! the caller as a compact [`Values`] store (1 byte per heap size while every value is below
//! 256, 2 beyond: [`super::values`]); an engine keeps only its own auxiliary state.

use super::values::{Value, Values};
use crate::Error;

/// A Grundy-sequence engine for one rule set.
pub trait SequenceEngine {
    /// A short name for reports ("naive", ...).
    fn name(&self) -> &'static str;

    /// G(n) for n = g.len(), given g = G(0..n); called for n = 0, 1, 2, ... in order.
    ///
    /// A value that does not fit in `u16` is an [`Error::TooLarge`], never a wrapped value.
    fn next_value(&mut self, g: &[u16]) -> Result<u16, crate::Error>;

    /// Append the next `count` values to `values` (which holds G(0..n)): G(n), ...,
    /// G(n + count - 1). The driver calls this with one value at a time, or, for an engine that
    /// [batches](Self::batches), in chunks of [`super::driver::PROGRESS_EVERY`] values or more
    /// (see [`super::driver::BATCH_TIME`]), so an engine that computes several values at once
    /// (the rare/common engine, [`super::sparse`]) can, while the driver still sees every value
    /// in order for the period detector, progress and checkpoints. On an error the values
    /// appended so far are all correct (fewer than `count`). A value that does not fit a
    /// one-byte store moves it to `u16` (once), unless the store holds more values than
    /// [`Self::set_resize_limit`] allows: the call then returns short, before that value (the
    /// only way it appends fewer than `count` without an error).
    /// The default computes them one by one with [`Self::next_value`], on a `u16` store (a
    /// byte store is widened first: an engine that reads bytes says so with
    /// [`Self::compact`]).
    fn next_values(&mut self, values: &mut Values, count: usize) -> Result<(), crate::Error> {
        let values = values.try_widen()?;
        for _ in 0..count {
            let v = self.next_value(values)?;
            values.push(v);
        }
        Ok(())
    }

    /// Whether [`Self::next_values`] reads and writes a one-byte store ([`Values::U8`]) as it
    /// is: the driver then keeps the values in bytes while they are below 256.
    fn compact(&self) -> bool {
        false
    }

    /// Whether [`Self::next_values`] gains from long chunks. The driver otherwise asks for one
    /// value at a time, so that a run stopping at a certified period computes nothing past it
    /// (an engine that batches computes up to one chunk past it, dropped).
    fn batches(&self) -> bool {
        false
    }

    /// A tiered run ([`super::tiered`]) keeps only the first and the last `resident` values in
    /// RAM: an engine that has a choice avoids work whose every value reads the whole sequence
    /// once the sequence is longer than both ends (the automatic engine stops trying the naive
    /// engine, [`super::auto`]). The values never depend on it.
    fn keep_reads_near(&mut self, resident: usize) {
        let _ = resident;
    }

    /// A store of values may move between one byte and two a value (one pass that holds both)
    /// only while it holds at most `values` values: past that, [`Self::next_values`] appends
    /// the values that fit the store as it is and returns short of `count` at the first that
    /// does not (the driver then ends the run with its budget spent,
    /// [`super::budget::resize_within`]). Engines that keep their values in `u16` from the
    /// start ignore it.
    fn set_resize_limit(&mut self, values: usize) {
        let _ = values;
    }
}

/// The error an engine reports when G(n) would exceed `u16::MAX`.
pub fn value_too_large(n: usize) -> Error {
    Error::TooLarge(format!(
        "value too large: G({n}) exceeds {}, the largest value the compact sequence stores",
        u16::MAX
    ))
}

/// An engine whose values come from code generic over the store's element type (the engines
/// with [`SequenceEngine::compact`]).
pub(crate) trait CompactEngine {
    /// What [`SequenceEngine::set_resize_limit`] set ([`usize::MAX`] if nothing did).
    fn resize_limit(&self) -> usize;

    /// Append up to `count` values to `values` (G(0..n)); stop early, returning `Some(v)`,
    /// when the next value `v` does not fit `V` (it is not appended, and every value before it
    /// is). A value past `u16` is an error, as for [`SequenceEngine::next_value`].
    fn next_values_in<V: Value>(
        &mut self,
        values: &mut crate::takebreak::values::Buf<V>,
        count: usize,
    ) -> Result<Option<u16>, Error>;
}

/// [`SequenceEngine::next_values`] for a [`CompactEngine`]: on the store as it is, moved to
/// `u16` (one pass) at the first value past 255.
pub(crate) fn next_values_of<E: CompactEngine>(
    engine: &mut E,
    values: &mut Values,
    count: usize,
) -> Result<(), Error> {
    let end = values.len() + count;
    if let Values::U8(bytes) = values {
        match engine.next_values_in(bytes, count)? {
            None => return Ok(()),
            // (both copies at once would pass the budget: short of the chunk)
            Some(_) if values.len() > engine.resize_limit() => return Ok(()),
            Some(v) => values.try_widen()?.push(v),
        }
        // a widened mapped store has room for that value only: room for the rest of the chunk
        // is asked for here, so that a full disk is an error rather than a panic in a push
        values.try_reserve_room(end - values.len())?;
    }
    let wide = values.try_widen()?;
    if wide.len() < end {
        let left = end - wide.len();
        if let Some(v) = engine.next_values_in(wide, left)? {
            unreachable!("every u16 value {v} fits a u16 store");
        }
    }
    Ok(())
}
