//! The interface every Grundy-sequence engine implements.
//!
//! Engines differ in *how* they find G(n) (the naive engine takes the mex over all options; a
//! rare/common engine skips most of them), never in *what* they compute, so the driver, the
//! period detector, checkpoints and catalogues see one trait. The sequence itself lives with
//! the caller as a compact `&[u16]` (2 bytes per heap size); an engine keeps only its own
//! auxiliary state.

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
    /// G(n + count - 1). The driver calls this in chunks of at most
    /// [`super::driver::PROGRESS_EVERY`] values, so an engine that computes several values at
    /// once (the rare/common engine's two-thread pipeline, [`super::sparse`]) can, while the
    /// driver still sees every value in order for the period detector, progress and
    /// checkpoints. On an error the values appended so far are all correct (fewer than
    /// `count`). The default computes them one by one with [`Self::next_value`].
    fn next_values(&mut self, values: &mut Vec<u16>, count: usize) -> Result<(), crate::Error> {
        for _ in 0..count {
            let v = self.next_value(values)?;
            values.push(v);
        }
        Ok(())
    }

    /// Whether [`Self::next_values`] gains from long chunks. The driver otherwise asks for one
    /// value at a time, so that a run stopping at a certified period computes nothing past it.
    fn batches(&self) -> bool {
        false
    }
}

/// The error an engine reports when G(n) would exceed `u16::MAX`.
pub fn value_too_large(n: usize) -> Error {
    Error::TooLarge(format!(
        "value too large: G({n}) exceeds {}, the largest value the compact sequence stores",
        u16::MAX
    ))
}
