//! `grundy takebreak CODE --options N`: every option of a heap of N, as a multiset of heaps,
//! for any code in CGSuite's notation (the library's plain enumeration,
//! [`grundy::takebreak::notation::Notation::options`]), so the move sets behind a code can be
//! compared with an external table.

use crate::common::{emit, CliResult};
use grundy::takebreak::notation::Notation;
use serde::Serialize;

/// The largest heap `--options` takes.
pub const MAX_OPTIONS_HEAP: u64 = 1_000_000;
/// The most options `--options` lists.
pub const MAX_OPTIONS: usize = 100_000;

#[derive(Serialize)]
struct OptionsReport {
    code: String,
    heap: u64,
    option_count: usize,
    options: Vec<Vec<u64>>,
}

fn option_text(parts: &[u64]) -> String {
    if parts.is_empty() {
        "(no heaps: the heap is taken whole)".into()
    } else {
        parts
            .iter()
            .map(u64::to_string)
            .collect::<Vec<_>>()
            .join(" + ")
    }
}

pub fn run(code: &str, heap: &str, json: bool) -> CliResult {
    let notation = Notation::parse(code)?;
    // The cap named even past 2^64 (the message used to give 2^64 - 1).
    let n = grundy::text::parse_u64_capped(
        "--options heap size",
        heap,
        MAX_OPTIONS_HEAP,
        "options are enumerated one by one",
    )?;
    let options = notation.options(n, MAX_OPTIONS)?;
    let report = OptionsReport {
        code: notation.to_string(),
        heap: n,
        option_count: options.len(),
        options,
    };
    emit(json, &report, || {
        let mut s = format!(
            "code: {}\noptions of a heap of {} ({}; tokens removed, then number of heaps):\n",
            report.code, report.heap, report.option_count
        );
        for o in &report.options {
            s.push_str(&format!("  {}\n", option_text(o)));
        }
        s
    })
}
