//! Censuses: compute every code that matches a pattern (`0.??`, `4.???`), on every core, and
//! record each result in the catalogue as it arrives.
//!
//! Codes are independent, so the census is where several cores pay best: a pool of workers
//! takes codes one at a time (work stealing keeps them busy when some codes are much slower than
//! others) and sends each result to the calling thread, which records it at once — an
//! interrupted census keeps everything finished so far.

use crate::catalogue::{open_for_recording, record_of, RunRecord};
use crate::engine::{Engine, EngineChoice};
use crate::sequence::MAX_N_NAIVE;
use crate::{Error, Result, Tell};
use grundy::takebreak::{compute, Code, Finish, Rules};
use rayon::prelude::*;
use serde::Serialize;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Largest number of codes one census may cover.
pub const MAX_CODES: usize = 1 << 15;
/// Largest heap size of a census.
pub const MAX_CENSUS_N: u64 = 10_000_000;
/// Default heap size of a census.
pub const DEFAULT_CENSUS_N: u64 = 100_000;
/// Most worker threads.
pub const MAX_JOBS: u64 = 256;
/// Longest wait between two calls of [`CensusHooks::progress`] (so that a front end can notice
/// an interruption while every worker is busy with a slow code).
const POLL: Duration = Duration::from_millis(100);

/// Every code matching `pattern`, in order (digit by digit, smallest first): `?` stands for
/// any octal digit (0-7) after the point, or for d0 in {0, 4} before it.
pub fn expand_pattern(pattern: &str) -> Result<Vec<Code>> {
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
                return Err(Error::input(format!(
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
            Error::input(format!(
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
        let code =
            Code::parse(&candidate).map_err(|e| Error::input(format!("pattern '{text}': {e}")))?;
        codes.push(code);
    }
    Ok(codes)
}

/// What a census computes and where it records.
#[derive(Debug, Clone, Default)]
pub struct CensusOptions {
    /// The pattern, e.g. `0.??`.
    pub pattern: String,
    /// Compute each code up to this heap size (default [`DEFAULT_CENSUS_N`]).
    pub n: Option<u64>,
    /// Compute every value up to n, even after a period is certified.
    pub full: bool,
    /// The engine of every code.
    pub engine: EngineChoice,
    /// Worker threads (default: one per core).
    pub jobs: Option<u64>,
    /// Do not record the results.
    pub no_record: bool,
    /// The catalogue file (else `$GRUNDY_DB`, else the default place).
    pub db: Option<PathBuf>,
}

/// The result of a census (the keys of `grundy census --json`).
#[derive(Serialize, Debug, Clone)]
pub struct CensusReport {
    pub pattern: String,
    pub n: u64,
    pub until_period: bool,
    pub codes: usize,
    pub certified: usize,
    pub seconds: f64,
    pub results: Vec<RunRecord>,
}

/// A finished census.
pub struct Census {
    pub report: CensusReport,
    /// The catalogue every result was recorded in (`None` when not recorded, or when some
    /// record could not be written).
    pub recorded_in: Option<PathBuf>,
}

/// How a front end takes part in a census.
pub struct CensusHooks<'a> {
    /// Receives notes and warnings.
    pub tell: Tell<'a>,
    /// Set to stop: codes not yet started are skipped, and the census ends with
    /// [`Error::Interrupted`] (the finished ones are recorded).
    pub stop: &'a AtomicBool,
    /// Called with (codes done, codes in all) at the start, after each code, and at least every
    /// 100 ms, always on the calling thread.
    pub progress: Option<&'a dyn Fn(usize, usize)>,
}

fn jobs(requested: Option<u64>) -> Result<usize> {
    match requested {
        None => Ok(std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)),
        Some(j) if j == 0 || j > MAX_JOBS => Err(Error::input(format!(
            "--jobs {j} is out of range: between 1 and {MAX_JOBS}"
        ))),
        Some(j) => Ok(j as usize),
    }
}

/// Compute every code matching `options.pattern` and record the results.
pub fn census(options: &CensusOptions, hooks: CensusHooks<'_>) -> Result<Census> {
    let codes = expand_pattern(&options.pattern)?;
    let n = options.n.unwrap_or(DEFAULT_CENSUS_N);
    if n > MAX_CENSUS_N {
        return Err(Error::input(format!(
            "heap size {n} is too large for a census: at most {MAX_CENSUS_N}"
        )));
    }
    let jobs = jobs(options.jobs)?;
    let until_period = !options.full;
    let finish = if options.full {
        Finish::ComputeAll
    } else {
        Finish::AtCertificate
    };
    let rules: Vec<Rules> = codes.into_iter().map(Rules::Code).collect();
    // every engine is checked before the work starts: a bad choice fails at once
    for r in &rules {
        let sparse = Engine::check(options.engine, r)?;
        if !sparse && n > MAX_N_NAIVE {
            return Err(Error::input(format!(
                "heap size {n} is too large for the naive engine (needed for {r}): at most \
                 {MAX_N_NAIVE}"
            )));
        }
    }
    let catalogue = open_for_recording(options.no_record, options.db.as_deref(), hooks.tell)?;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| Error::input(format!("cannot start {jobs} worker threads: {e}")))?;
    let total = rules.len();
    let progress = |done: usize| {
        if let Some(p) = hooks.progress {
            p(done, total)
        }
    };
    progress(0);
    let start = Instant::now();
    let (tx, rx) = std::sync::mpsc::channel();
    let mut results: Vec<Option<RunRecord>> = vec![None; total];
    let mut first_error: Option<Error> = None;
    let mut done = 0;
    let stop = hooks.stop;
    std::thread::scope(|scope| {
        let rules = &rules;
        let engine_choice = options.engine;
        scope.spawn(move || {
            pool.install(|| {
                (0..rules.len()).into_par_iter().for_each_with(tx, |tx, i| {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let r = &rules[i];
                    let outcome = Engine::choose(engine_choice, r).and_then(|mut engine| {
                        let t = Instant::now();
                        let c = compute(r, n as usize, finish, engine.as_dyn(), None)?;
                        let seconds = t.elapsed().as_secs_f64();
                        Ok(record_of(r, &c, &engine, seconds, finish))
                    });
                    // the receiver only goes away if the calling thread failed
                    let _ = tx.send((i, outcome));
                });
            });
        });
        loop {
            match rx.recv_timeout(POLL) {
                Ok((i, outcome)) => {
                    match outcome {
                        Ok(mut record) => {
                            if let Some(id) = catalogue
                                .as_ref()
                                .and_then(|c| c.record_or_warn(&record, hooks.tell))
                            {
                                record.id = id;
                            }
                            results[i] = Some(record);
                        }
                        Err(e) => {
                            first_error.get_or_insert(e);
                        }
                    }
                    done += 1;
                    progress(done);
                }
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => progress(done),
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
    });
    if let Some(e) = first_error {
        return Err(e);
    }
    let recorded_in = catalogue
        .as_ref()
        .filter(|c| c.all_recorded())
        .map(|c| c.path().to_path_buf());
    if done < total {
        return Err(Error::Interrupted(format!(
            "interrupted: {done} of {total} codes computed{}",
            match &recorded_in {
                Some(p) => format!(" and recorded in '{}'", p.display()),
                None => String::new(),
            }
        )));
    }
    let results: Vec<RunRecord> = results.into_iter().flatten().collect();
    Ok(Census {
        report: CensusReport {
            pattern: options.pattern.trim().to_string(),
            n,
            until_period,
            codes: results.len(),
            certified: results.iter().filter(|r| r.certified).count(),
            seconds: start.elapsed().as_secs_f64(),
            results,
        },
        recorded_in,
    })
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

    #[test]
    fn a_census_agrees_with_single_runs_and_records_every_code() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("c.sqlite3");
        let stop = AtomicBool::new(false);
        let options = CensusOptions {
            pattern: "0.?7".into(),
            n: Some(2000),
            db: Some(db.clone()),
            jobs: Some(2),
            ..CensusOptions::default()
        };
        let c = census(
            &options,
            CensusHooks {
                tell: &|m| panic!("unexpected message {m:?}"),
                stop: &stop,
                progress: None,
            },
        )
        .unwrap();
        assert_eq!(c.report.codes, 8);
        assert_eq!(c.recorded_in.as_deref(), Some(db.as_path()));
        // each code as one naive run to its certificate gives the same period
        for r in &c.report.results {
            let rules = Rules::parse(&r.code).unwrap();
            let mut naive = grundy::takebreak::Naive::new(rules.clone());
            let one = compute(&rules, 2000, Finish::AtCertificate, &mut naive, None).unwrap();
            assert_eq!(r.period, one.period.map(|p| p.period as u64), "{}", r.code);
            assert_eq!(r.n, one.n() as u64, "{}", r.code);
        }
        let listed = crate::catalogue::list(&crate::catalogue::Query {
            pattern: Some("0.?7".into()),
            db: Some(db),
            ..Default::default()
        })
        .unwrap();
        assert_eq!(listed.count, 8);
        // a stop request before the start computes nothing and says so
        stop.store(true, Ordering::SeqCst);
        let e = census(
            &CensusOptions {
                no_record: true,
                db: None,
                ..options
            },
            CensusHooks {
                tell: &|_| {},
                stop: &stop,
                progress: None,
            },
        )
        .err()
        .unwrap();
        assert_eq!(
            e,
            Error::Interrupted("interrupted: 0 of 8 codes computed".into())
        );
    }
}
