//! `--misere` of `grundy takebreak` and `grundy subtraction`: misère Grundy values and Conway's
//! genus of single heaps (the library's `solve::misere_genus`).

use crate::common::{emit, CliError, CliResult};
use grundy::solve::misere_genus::GenusReport;
use grundy::solve::misere_quotient::HeapGame;

/// Default last heap for --misere.
pub const DEFAULT_N: u64 = 30;
/// Positions (sums of smaller heaps) the genus may evaluate.
pub const MAX_POSITIONS: usize = 3_000_000;

/// Compute and print the genera of heaps `0..=n`.
pub fn run(game: &dyn HeapGame, n: Option<&str>, print: bool, json: bool) -> CliResult {
    let n = match n {
        // as takebreak's -n reads it (a power: 2^5), though genera stop far below
        Some(t) => grundy::text::parse_u64_power("-n", t, u64::MAX, "2^64 - 1")?,
        None => DEFAULT_N,
    };
    if n > 100_000 {
        return Err(CliError::input(format!(
            "-n {n} is too large for misère genera: they need every sum of smaller heaps (try at most a few dozen)"
        )));
    }
    let n32 = u32::try_from(n).expect("n is at most 100000");
    let report = GenusReport::compute(game, n32, MAX_POSITIONS).map_err(|e| {
        CliError::input(format!(
            "{e}: misère genera of heaps up to {n} are out of reach; try a smaller -n, or \
             'grundy misere-quotient' for outcomes of positions"
        ))
    })?;
    emit(json, &report, || report.text(print))
}
