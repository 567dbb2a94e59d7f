//! `--misere` of `grundy takebreak` and `grundy subtraction`: misère Grundy values and Conway's
//! genus of single heaps (the library's `solve::misere_genus`).

use crate::common::{emit, parse_u64, CliError, CliResult};
use grundy::solve::misere_genus::{heap_genera, Genus};
use grundy::solve::misere_quotient::HeapGame;
use serde::Serialize;

/// Default last heap for --misere.
pub const DEFAULT_N: u64 = 30;
/// Positions (sums of smaller heaps) the genus may evaluate.
pub const MAX_POSITIONS: usize = 3_000_000;

/// JSON keys: `game` (code or set), `n`, `misere_values` (G⁻ = γ₀ per heap), `normal_values`
/// (G⁺), `genus` (symbols such as `4^146`), `gamma` (the digits γ₀γ₁... per heap, up to where
/// the last two repeat).
#[derive(Serialize)]
struct GenusReport {
    game: String,
    n: u64,
    misere_values: Vec<u32>,
    normal_values: Vec<u32>,
    genus: Vec<String>,
    gamma: Vec<Vec<u32>>,
}

/// Compute and print the genera of heaps `0..=n`.
pub fn run(game: &dyn HeapGame, n: Option<&str>, print: bool, json: bool) -> CliResult {
    let n = match n {
        Some(t) => parse_u64("-n", t)?,
        None => DEFAULT_N,
    };
    if n > 100_000 {
        return Err(CliError::input(format!(
            "-n {n} is too large for misère genera: they need every sum of smaller heaps (try at most a few dozen)"
        )));
    }
    let genera: Vec<Genus> = heap_genera(game, n as u32, MAX_POSITIONS).map_err(|e| {
        CliError::input(format!(
            "{e}: misère genera of heaps up to {n} are out of reach; try a smaller -n, or \
             'grundy misere-quotient' for outcomes of positions"
        ))
    })?;
    let report = GenusReport {
        game: game.name(),
        n,
        misere_values: genera.iter().map(Genus::misere_value).collect(),
        normal_values: genera.iter().map(|g| g.normal).collect(),
        genus: genera.iter().map(Genus::symbol).collect(),
        gamma: genera.iter().map(|g| g.gamma.clone()).collect(),
    };
    emit(json, &report, || {
        let mut s = format!("{} in misère play, heaps 0..={n}\n", report.game);
        let vals: Vec<String> = report.misere_values.iter().map(u32::to_string).collect();
        s.push_str(&format!(
            "misère Grundy values G-(0..={n}): {}\n",
            vals.join(", ")
        ));
        if print {
            s.push_str("heap  genus\n");
            for (h, g) in report.genus.iter().enumerate() {
                s.push_str(&format!("{h:>4}  {g}\n"));
            }
        } else {
            let g: Vec<&str> = report.genus.iter().map(String::as_str).collect();
            s.push_str(&format!("genus: {}\n", g.join(" ")));
        }
        s
    })
}
