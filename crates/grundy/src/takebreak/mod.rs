//! Take-and-break ("splitting") games: codes, Grundy sequences, periods, transforms
//! (splitting paper; `docs/theory.md` §3).
//!
//! A family of its own because of scale: sequences G(0..n) run to millions of heap sizes, so
//! they are computed over compact arrays (a byte or a `u16` per heap size) by dedicated engines rather
//! than by the generic evaluator (which still runs the same rules in tests, as the reference).
//!
//! | module | what |
//! |---|---|
//! | [`code`] | the code notation `d0.d1d2...`, named games |
//! | [`rules`] | a code or Grundy's game |
//! | [`engine`] | the [`SequenceEngine`] interface |
//! | [`general`] | every code in CGSuite's notation (`0.[3]`, `{2+}.0`, `4?.0`): mex over the listed options |
//! | [`naive`] | the engine for any rules: mex over all options, bitset DP for j >= 3 heaps |
//! | [`sparse`] | the rare/common ("sparse space") engine for octal codes |
//! | [`auto`] | octal codes: whichever of the two engines measures faster, re-checked as n doubles |
//! | [`checkpoint`] | resumable runs: atomic checkpoints, verified on load |
//! | [`budget`] | how many values a run may hold (memory, not a fixed ceiling) |
//! | [`period`] | online least period, certified by the periodicity theorem |
//! | [`driver`] | run an engine to n (or until certified), summarise |
//! | [`values`] | the value store: one byte per heap size while values are below 256, else two |
//! | [`position`] | several heaps: value, outcome, every winning move |
//! | [`transform`] | Theorems 6.5 (m-fold) and 6.6 (cousin), with their checks |
//! | [`game`] | the rules as a plain [`Game`](crate::Game): the reference for tests |

pub mod auto;
mod bitset;
pub mod budget;
pub mod checkpoint;
pub mod code;
pub mod driver;
pub mod engine;
pub mod game;
pub mod general;
#[cfg(unix)]
pub mod mapped;
pub mod naive;
pub mod notation;
pub mod period;
pub mod position;
pub mod powers;
pub mod rules;
pub mod sparse;
#[cfg(unix)]
pub mod tiered;
pub mod transform;
pub mod values;

pub use auto::AutoEngine;
pub use code::Code;
pub use driver::{compute, compute_planned, extend, Computation, Finish, Plan};
pub use engine::SequenceEngine;
pub use game::TakeBreakGame;
pub use naive::Naive;
pub use period::{Candidate, Period, PeriodDetector};
pub use position::{analyse, analyse_with, max_moves_limit, PositionAnalysis, TakeBreakMove};
pub use rules::Rules;
pub use values::{Values, ValuesRef};
