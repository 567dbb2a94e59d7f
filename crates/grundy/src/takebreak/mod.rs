//! Take-and-break ("splitting") games: codes, Grundy sequences, periods, transforms
//! (splitting paper, `splitting-nim-transforms.ja.txt`; README §3).
//!
//! A family of its own because of scale: sequences G(0..n) run to millions of heap sizes, so
//! they are computed over compact arrays by dedicated engines rather than by the generic
//! evaluator (which still runs the same rules in tests, as the reference).

pub mod code;
pub mod sparse;

pub use code::Code;
