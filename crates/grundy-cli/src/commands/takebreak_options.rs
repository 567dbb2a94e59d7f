//! `grundy takebreak CODE --options N`: every option of a heap of N, as a multiset of heaps,
//! for any code in CGSuite's notation (the library's plain enumeration,
//! [`grundy::takebreak::notation::Notation::options`]), so the move sets behind a code can be
//! compared with an external table.

use crate::common::{emit, parse_u64, CliError, CliResult};
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
    let n = parse_u64("heap size", heap)?;
    if n > MAX_OPTIONS_HEAP {
        return Err(CliError::input(format!(
            "--options {n}: at most {MAX_OPTIONS_HEAP} (options are enumerated one by one)"
        )));
    }
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
