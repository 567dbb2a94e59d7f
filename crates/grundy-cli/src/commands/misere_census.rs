//! `grundy census PATTERN --misere-quotients`: the misère quotient of every code that matches
//! a pattern, each within `--timeout`, recorded in the catalogue's quotient table. The work is
//! [`grundy_runs::misere_census`]'s; this module reads the flags and prints the table.

use super::census::CensusArgs;
use crate::common::{emit, parse_u64, tell, CliError, CliResult};
use grundy_runs::misere_census::{misere_census, MisereCensusOptions, QuotientRecord};
use std::sync::atomic::{AtomicBool, Ordering};

/// Default last heap of a quotient census (as `misere-quotient`).
const DEFAULT_MAX_HEAP: u64 = 100;

pub fn run(args: CensusArgs, json: bool, stop: &'static AtomicBool) -> CliResult {
    let max_heap = match &args.max_heap {
        Some(t) => grundy::text::parse_u64_capped(
            "--max-heap",
            t,
            grundy_runs::misere_census::MAX_HEAP,
            "every heap's options are kept",
        )?,
        None => DEFAULT_MAX_HEAP,
    };
    let timeout = match &args.timeout {
        Some(t) => Some(
            t.trim()
                .parse::<f64>()
                .ok()
                .filter(|s| s.is_finite() && *s > 0.0)
                .ok_or_else(|| {
                    CliError::input(format!(
                        "--timeout '{t}' is not a positive number of seconds"
                    ))
                })?,
        ),
        None => None,
    };
    let memory = match &args.memory {
        Some(m) => grundy::text::parse_memory(m)?,
        None => grundy::solve::misere_quotient::engine::DEFAULT_MEMORY,
    };
    // One code at a time unless asked: each quotient may use --memory.
    let jobs = match args
        .jobs
        .as_deref()
        .map(|w| parse_u64("--jobs", w))
        .transpose()?
    {
        Some(0) => std::thread::available_parallelism().map_or(1, |n| n.get() as u64),
        Some(j) => j,
        None => 1,
    };
    let options = MisereCensusOptions {
        patterns: args.patterns,
        max_heap,
        timeout,
        memory,
        jobs,
        no_record: args.no_record,
        db: args.db,
        recompute: args.recompute,
    };
    let _ = ctrlc::set_handler(move || stop.store(true, Ordering::SeqCst));
    let report = misere_census(&options, &tell, stop)?;
    emit(json, &report, || {
        let mut s = format!(
            "misère quotients of {} up to heap {}{} ({} code{}): {} certified, {} not \
             certified, {:.1} s{}\n",
            report.pattern,
            report.max_heap,
            report
                .timeout
                .map_or(String::new(), |t| format!(", at most {t} s each")),
            report.codes,
            if report.codes == 1 { "" } else { "s" },
            report.certified,
            report.rows.len() - report.certified,
            report.seconds,
            if report.skipped > 0 {
                format!(" ({} already in the catalogue)", report.skipped)
            } else {
                String::new()
            }
        );
        s.push_str(&table(&report.rows));
        if report.interrupted {
            s.push_str("interrupted: the codes above are kept; run again to go on\n");
        }
        if let Some(db) = &report.db {
            s.push_str(&format!("recorded in {db}\n"));
        }
        s
    })?;
    if stop.load(Ordering::Relaxed) {
        return Err(CliError {
            message: "interrupted".into(),
            code: 130,
        });
    }
    Ok(())
}

/// The quotient rows as a table (also `grundy catalogue --misere`).
pub fn table(rows: &[QuotientRecord]) -> String {
    let mut s = String::from(
        "code      heap  certified  finish     |Q|    |P|  period  preperiod  presentation\n",
    );
    for r in rows {
        let opt = |v: Option<u64>| v.map_or("-".to_string(), |v| v.to_string());
        s.push_str(&format!(
            "{:<8} {:>5}  {:<9}  {:<9} {:>5} {:>6}  {:>6}  {:>9}  {}\n",
            r.code,
            r.computed_to_heap,
            if r.certified { "yes" } else { "no" },
            r.finish,
            r.order,
            r.p_portion_size,
            opt(r.period),
            opt(r.preperiod),
            r.presentation
        ));
    }
    s
}
