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
}

/// The error an engine reports when G(n) would exceed `u16::MAX`.
pub fn value_too_large(n: usize) -> Error {
    Error::TooLarge(format!(
        "G({n}) exceeds {}, the largest value the compact sequence stores",
        u16::MAX
    ))
}
