//! `grundy census PATTERN`: compute every code that matches a pattern (`0.??`, `4.???`), on
//! every core, record each result in the catalogue and print the table.
//!
//! Codes are independent, so the census is where both cores pay best: a pool of workers takes
//! codes one at a time (work stealing keeps them busy when some codes are much slower than
//! others) and sends each result to the main thread, which records it at once — an interrupted
//! census keeps everything finished so far.

use super::runs::{record_of, Engine, EngineChoice};
use crate::catalogue::{Catalogue, RunRecord};
use crate::common::{emit, parse_u64, CliError, CliResult};
use grundy::takebreak::{compute, Code, Finish, Rules};
use rayon::prelude::*;
use serde::Serialize;
use std::path::PathBuf;
use std::time::Instant;

/// Largest number of codes one census may cover.
pub const MAX_CODES: usize = 1 << 15;
/// Largest heap size of a census.
pub const MAX_CENSUS_N: u64 = 10_000_000;
/// Default heap size of a census.
pub const DEFAULT_CENSUS_N: u64 = 100_000;

/// Compute every code matching a pattern and record the results.
///
/// PATTERN is a code in which `?` stands for any octal digit (0-7) after the point, or for
/// d0 in {0, 4} before it: `0.??` (64 codes), `4.???` (512 codes), `0.?7`.
///
/// Examples: `grundy census 0.?? -n 10000`, `grundy census 4.??? --json`.
#[derive(clap::Args, Debug, Clone)]
pub struct CensusArgs {
    /// The pattern, e.g. 0.?? or 4.???
    #[arg(value_name = "PATTERN")]
    pub pattern: String,
    /// Compute each code up to N [default: 100000]
    #[arg(short = 'n', long = "n", value_name = "N", allow_hyphen_values = true)]
    pub n: Option<String>,
    /// Compute every value up to N even after a period is certified (by default a code stops
    /// at its certificate, which proves every later value)
    #[arg(long)]
    pub full: bool,
    /// Engine: auto (rare/common for octal codes, naive otherwise), sparse or naive
    #[arg(long, value_enum, default_value_t = EngineChoice::Auto)]
    pub engine: EngineChoice,
    /// Worker threads [default: one per core]
    #[arg(long, value_name = "J", allow_hyphen_values = true)]
    pub jobs: Option<String>,
    /// Results catalogue (SQLite) [default: $GRUNDY_DB, else <user data dir>/grundy/catalogue.sqlite3]
    #[arg(long, value_name = "PATH")]
    pub db: Option<PathBuf>,
    /// Do not record the results
    #[arg(long, conflicts_with = "db")]
    pub no_record: bool,
}

/// The JSON report (keys are a contract).
#[derive(Serialize, Debug)]
pub struct CensusReport {
    pub pattern: String,
    pub n: u64,
    pub until_period: bool,
    pub codes: usize,
    pub certified: usize,
    pub seconds: f64,
    pub results: Vec<RunRecord>,
}

/// Every code matching `pattern`, in order (digit by digit, smallest first).
pub fn expand_pattern(pattern: &str) -> CliResult<Vec<Code>> {
    let text = pattern.trim();
    let Some(point) = text.find('.') else {
        // no wildcard possible without a point: let the code parser explain
        return Ok(vec![Code::parse(text)?]);
    };
    let mut inside_brackets = false;
    let mut slots = Vec::new();
    for (i, c) in text.char_indices() {
        match c {
            '[' => inside_brackets = true,
            ']' => inside_brackets = false,
            '?' if inside_brackets => {
                return Err(CliError::input(format!(
                    "pattern '{text}': '?' stands for a whole digit, not inside [ ]"
                )))
            }
            '?' => slots.push(i),
            _ => {}
        }
    }
    let choices: Vec<&[char]> = slots
        .iter()
        .map(|&i| -> &[char] {
            if i < point {
                &['0', '4']
            } else {
                &['0', '1', '2', '3', '4', '5', '6', '7']
            }
        })
        .collect();
    let count = choices
        .iter()
        .try_fold(1usize, |acc, c| acc.checked_mul(c.len()))
        .filter(|&c| c <= MAX_CODES)
        .ok_or_else(|| {
            CliError::input(format!(
                "pattern '{text}' matches too many codes: at most {MAX_CODES} (five '?' after the point)"
            ))
        })?;
    let mut codes = Vec::with_capacity(count);
    let mut chars: Vec<char> = text.chars().collect();
    // char positions of the slots (the text may hold non-ASCII characters: let the parser
    // complain about those)
    let char_slots: Vec<usize> = slots.iter().map(|&b| text[..b].chars().count()).collect();
    for index in 0..count {
        let mut rest = index;
        for (slot, options) in char_slots.iter().zip(&choices).rev() {
            chars[*slot] = options[rest % options.len()];
            rest /= options.len();
        }
        let candidate: String = chars.iter().collect();
        let code = Code::parse(&candidate)
            .map_err(|e| CliError::input(format!("pattern '{text}': {e}")))?;
        codes.push(code);
    }
    Ok(codes)
}

fn parse_jobs(text: &Option<String>) -> CliResult<usize> {
    match text {
        None => Ok(std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)),
        Some(w) => {
            let j = parse_u64("--jobs", w)?;
            if j == 0 || j > 256 {
                return Err(CliError::input(format!(
                    "--jobs {j} is out of range: between 1 and 256"
                )));
            }
            Ok(j as usize)
        }
    }
}

pub fn run(args: CensusArgs, json: bool) -> CliResult {
    let codes = expand_pattern(&args.pattern)?;
    let n = match &args.n {
        Some(w) => parse_u64("heap size", w)?,
        None => DEFAULT_CENSUS_N,
    };
    if n > MAX_CENSUS_N {
        return Err(CliError::input(format!(
            "heap size {n} is too large for a census: at most {MAX_CENSUS_N}"
        )));
    }
    let jobs = parse_jobs(&args.jobs)?;
    let until_period = !args.full;
    let finish = if args.full {
        Finish::ComputeAll
    } else {
        Finish::AtCertificate
    };
    let rules: Vec<Rules> = codes.into_iter().map(Rules::Code).collect();
    // every engine is built before the work starts: a bad choice fails at once
    for r in &rules {
        let sparse = Engine::check(args.engine, r)?;
        if !sparse && n > super::takebreak::MAX_N_NAIVE {
            return Err(CliError::input(format!(
                "heap size {n} is too large for the naive engine (needed for {r}): at most {}",
                super::takebreak::MAX_N_NAIVE
            )));
        }
    }
    let catalogue = crate::catalogue::open_for_recording(args.no_record, args.db.as_deref())?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| CliError::input(format!("cannot start {jobs} worker threads: {e}")))?;
    let bar = crate::common::progress_bar(rules.len() as u64, "codes");
    let start = Instant::now();
    let (tx, rx) = std::sync::mpsc::channel();
    let mut results: Vec<Option<RunRecord>> = vec![None; rules.len()];
    let mut first_error: Option<CliError> = None;
    std::thread::scope(|scope| {
        let rules = &rules;
        let engine_choice = args.engine;
        scope.spawn(move || {
            pool.install(|| {
                (0..rules.len()).into_par_iter().for_each_with(tx, |tx, i| {
                    let r = &rules[i];
                    let outcome = Engine::choose(engine_choice, r).and_then(|mut engine| {
                        let t = Instant::now();
                        let c = compute(r, n as usize, finish, engine.as_dyn(), None)?;
                        let seconds = t.elapsed().as_secs_f64();
                        Ok(record_of(r, &c, &engine, seconds, finish))
                    });
                    // the receiver only goes away if the main thread failed
                    let _ = tx.send((i, outcome));
                });
            });
        });
        for (i, outcome) in rx {
            match outcome {
                Ok(mut record) => {
                    if let Some(id) = catalogue.as_ref().and_then(|c| c.record_or_warn(&record)) {
                        record.id = id;
                    }
                    results[i] = Some(record);
                }
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
            bar.inc(1);
        }
    });
    bar.finish_and_clear();
    if let Some(e) = first_error {
        return Err(e);
    }
    let results: Vec<RunRecord> = results.into_iter().flatten().collect();
    let report = CensusReport {
        pattern: args.pattern.trim().to_string(),
        n,
        until_period,
        codes: results.len(),
        certified: results.iter().filter(|r| r.certified).count(),
        seconds: start.elapsed().as_secs_f64(),
        results,
    };
    emit(json, &report, || human(&report, catalogue.as_ref()))
}

fn human(r: &CensusReport, catalogue: Option<&Catalogue>) -> String {
    let mut s = format!(
        "census of {} up to n = {} ({} codes{}): {} certified, {} not certified, {:.1} s\n",
        r.pattern,
        r.n,
        r.codes,
        if r.until_period {
            ", each stopping at its certified period"
        } else {
            ", every value computed"
        },
        r.certified,
        r.codes - r.certified,
        r.seconds
    );
    s.push_str(&super::catalogue::table(&r.results, false));
    if let Some(cat) = catalogue.filter(|c| c.all_recorded()) {
        s.push_str(&format!("recorded in {}\n", cat.path().display()));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expands_patterns_in_digit_order() {
        let codes = expand_pattern("0.??").unwrap();
        assert_eq!(codes.len(), 64);
        assert_eq!(codes[0].to_string(), "0.0");
        assert_eq!(codes[1].to_string(), "0.01");
        assert_eq!(codes[8].to_string(), "0.1");
        assert_eq!(codes[63].to_string(), "0.77");
        assert_eq!(expand_pattern("4.???").unwrap().len(), 512);
        let d0 = expand_pattern("?.7").unwrap();
        assert_eq!(
            d0.iter().map(|c| c.to_string()).collect::<Vec<_>>(),
            ["0.7", "4.7"]
        );
        assert_eq!(expand_pattern("0.?7").unwrap()[3].to_string(), "0.37");
        assert_eq!(expand_pattern("kayles").unwrap()[0].to_string(), "0.77");
        assert!(expand_pattern("0.??????").is_err());
        assert!(expand_pattern("0.[?]").is_err());
        assert!(expand_pattern("0.?#").is_err());
    }
}
