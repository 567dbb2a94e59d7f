//! `grundy catalogue`: list and filter the recorded runs ([`grundy_runs::catalogue::list`]),
//! as a table for people or as JSON.

use crate::common::{emit, parse_u64, CliResult};
use grundy_runs::catalogue::{list, Query, RunRecord};
use grundy_runs::catalogue_table;
use std::path::PathBuf;

/// List the runs recorded in the results catalogue.
///
/// Every code of a `grundy census` is recorded, and a `grundy takebreak` run when its
/// computation took 10 s or more, with --record, or in a catalogue named by --db or
/// $GRUNDY_DB (every run there); each record holds the code, n reached, preperiod and period
/// (whether certified, and at which n), largest value, rare values and rare positions
/// (rare/common engine), engine and time taken. To clear the catalogue, delete its file (the
/// list ends with its path).
///
/// Examples: `grundy catalogue`, `grundy catalogue 0.?? --latest`,
/// `grundy catalogue --uncertified --min-n 100000 --json`.
#[derive(clap::Args, Debug, Clone)]
pub struct CatalogueArgs {
    /// Only this code, or the codes matching a census pattern such as 0.?? or 4.???
    #[arg(value_name = "PATTERN", allow_hyphen_values = true)]
    pub pattern: Option<String>,
    /// Only runs of this engine (sparse, naive)
    #[arg(long, value_name = "ENGINE")]
    pub engine: Option<String>,
    /// Only runs with a certified period
    #[arg(long, conflicts_with = "uncertified")]
    pub certified: bool,
    /// Only runs without a certified period
    #[arg(long)]
    pub uncertified: bool,
    /// Only runs that reached at least heap size N
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub min_n: Option<String>,
    /// Only the latest run of each code
    #[arg(long)]
    pub latest: bool,
    /// At most K runs (the most recent ones)
    #[arg(long, value_name = "K", allow_hyphen_values = true)]
    pub limit: Option<String>,
    /// The catalogue file [default: $GRUNDY_DB, else <user data dir>/grundy/catalogue.sqlite3]
    #[arg(long, value_name = "PATH")]
    pub db: Option<PathBuf>,
    /// One row per code, as the field's tables: periodic (preperiod, period, last exception,
    /// largest value, rare values, certificate) or not yet periodic (n reached); codes that
    /// are one game up to a shift are grouped (see --format; with --json the table as JSON)
    #[arg(long)]
    pub table: bool,
    /// The misère quotients recorded by `census --misere-quotients` instead of the runs (code,
    /// heap reached, certified, how the run ended, |Q|, |P|, period, preperiod, presentation)
    #[arg(long, conflicts_with_all = ["engine", "certified", "uncertified", "min_n", "latest", "limit", "table"])]
    pub misere: bool,
    /// The summaries at powers of two recorded by `takebreak --results DIR` runs that record in
    /// the catalogue, instead of the runs: per code and power of two n, the SHA-256 of
    /// G(0..=n), the largest value and where it first occurs, the rare heaps (how many, the
    /// last); with --json also the histogram of values and the rare heaps themselves
    #[arg(long, conflicts_with_all = ["engine", "certified", "uncertified", "min_n", "latest", "limit", "table", "misere"])]
    pub powers: bool,
    /// The format of --table
    #[arg(long, value_enum, default_value_t = TableFormat::Markdown, requires = "table")]
    pub format: TableFormat,
}

/// How `--table` prints.
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableFormat {
    Markdown,
    Csv,
}

pub fn run(args: CatalogueArgs, json: bool) -> CliResult {
    if args.powers {
        let (db, rows) =
            grundy_runs::power_table::list(args.db.as_deref(), args.pattern.as_deref())?;
        #[derive(serde::Serialize)]
        struct Powers {
            db: String,
            count: usize,
            summaries: Vec<grundy_runs::power_table::PowerRecord>,
        }
        let out = Powers {
            db,
            count: rows.len(),
            summaries: rows,
        };
        return emit(json, &out, || {
            let mut s = String::from(
                "code      n         largest  first at      rare heaps  last rare     sha256\n",
            );
            for r in &out.summaries {
                let opt = |x: Option<u64>| x.map_or("-".to_string(), |x| x.to_string());
                s.push_str(&format!(
                    "{:<9} {:<9} {:<8} {:<13} {:<11} {:<13} {}\n",
                    r.code,
                    format!("2^{}", r.n.trailing_zeros()),
                    r.max_value,
                    r.max_first_at,
                    opt(r.rare_count),
                    opt(r.last_rare),
                    &r.sha256[..16.min(r.sha256.len())]
                ));
            }
            s.push_str(&format!(
                "{} summar{} in {}\n",
                out.count,
                if out.count == 1 { "y" } else { "ies" },
                out.db
            ));
            s
        });
    }
    if args.misere {
        let (db, rows) = grundy_runs::misere_census::list_quotients(
            args.db.as_deref(),
            args.pattern.as_deref(),
        )?;
        #[derive(serde::Serialize)]
        struct Quotients {
            db: String,
            count: usize,
            quotients: Vec<grundy_runs::misere_census::QuotientRecord>,
        }
        let out = Quotients {
            db,
            count: rows.len(),
            quotients: rows,
        };
        return emit(json, &out, || {
            format!(
                "{}{} quotient{} in {}\n",
                super::misere_census::table(&out.quotients),
                out.count,
                if out.count == 1 { "" } else { "s" },
                out.db
            )
        });
    }
    let min_n = args
        .min_n
        .as_deref()
        .map(|w| parse_u64("--min-n", w))
        .transpose()?;
    let limit = args
        .limit
        .as_deref()
        .map(|w| parse_u64("--limit", w))
        .transpose()?;
    let query = Query {
        pattern: args.pattern,
        engine: args.engine,
        certified: match (args.certified, args.uncertified) {
            (true, _) => Some(true),
            (_, true) => Some(false),
            _ => None,
        },
        min_n,
        latest: args.latest,
        limit,
        db: args.db,
    };
    if args.table {
        let t = catalogue_table::table(&query)?;
        return emit(json, &t, || match args.format {
            TableFormat::Markdown => catalogue_table::markdown(&t),
            TableFormat::Csv => catalogue_table::csv(&t),
        });
    }
    let report = list(&query)?;
    emit(json, &report, || {
        if report.runs.is_empty() {
            format!("no matching runs in {}\n", report.db)
        } else {
            format!(
                "{}{} run{} in {}\n",
                table(&report.runs, true),
                report.count,
                if report.count == 1 { "" } else { "s" },
                report.db
            )
        }
    })
}

/// A table of runs for people.
pub fn table(runs: &[RunRecord], with_dates: bool) -> String {
    let opt = |v: Option<u64>| v.map(|v| v.to_string()).unwrap_or_else(|| "-".into());
    let mut rows: Vec<Vec<String>> = vec![[
        "code",
        "n",
        "preperiod",
        "period",
        "certified",
        "certified at",
        "max",
        "rare values",
        "rare positions",
        "engine",
        "seconds",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()];
    if with_dates {
        rows[0].push("recorded (UTC)".into());
    }
    for r in runs {
        let mut row = vec![
            r.code.clone(),
            r.n.to_string(),
            opt(r.preperiod),
            opt(r.period),
            if r.certified { "yes" } else { "no" }.into(),
            opt(r.certified_at),
            r.max_value.to_string(),
            opt(r.rare_values),
            opt(r.rare_positions),
            r.engine.clone(),
            format!("{:.3}", r.seconds),
        ];
        if with_dates {
            row.push(r.recorded_at.clone());
        }
        rows.push(row);
    }
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let mut s = String::new();
    for row in &rows {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(c, (cell, &w))| {
                if c == 0 || c == 9 || c == 11 {
                    format!("{cell:<w$}")
                } else {
                    format!("{cell:>w$}")
                }
            })
            .collect();
        s.push_str(cells.join("  ").trim_end());
        s.push('\n');
    }
    s
}
