//! Censuses of misère quotients: the quotient (Plambeck–Siegel) of every code that matches a
//! pattern, each within a timeout, recorded in the catalogue's `misere_quotients` table.
//!
//! Kept apart from the sequence census ([`crate::census`]), whose work per code is a Grundy
//! sequence with checkpoints and engines: here a code's work is one call of the library's
//! [`grundy::solve::misere_quotient::compute_with`], and what is kept is its report.
//!
//! - **One writer**: worker threads compute, the calling thread records each result as it
//!   arrives (one row per code, replaced unless the row there is better: certified, or
//!   further), so an interrupted
//!   census keeps every finished code.
//! - **Resumable**: a code whose row is certified, reaches the requested heap, or was stopped
//!   by a timeout at least as long as this census's, is skipped (`recompute` computes it
//!   again).
//! - **Honest partial rows**: a code stopped by its timeout (or by the memory limit) is
//!   recorded with the heap its partial quotient reached, `certified = false`, and `finish`
//!   saying why (`stopped`, `limit`; `max_heap` when the heap was reached uncertified).
//!
//! The table is created on the first record, so a catalogue that never held a quotient keeps
//! the layout older programs read.

use crate::catalogue::{open_for_recording, Catalogue};
use crate::census::expand_pattern;
use crate::{Error, Message, Result, Tell};
use grundy::solve::misere_quotient::{compute_with, Finish, RunOptions};
use grundy::takebreak::Rules;
use rusqlite::{params, OptionalExtension};
use serde::Serialize;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The table's name.
pub const TABLE: &str = "misere_quotients";
/// Largest heap of a quotient census (as `misere-quotient --max-heap`).
pub const MAX_HEAP: u64 = 100_000;
/// Most worker threads.
pub const MAX_JOBS: u64 = 256;

/// One recorded quotient (a row of the table).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct QuotientRecord {
    /// The code in canonical form.
    pub code: String,
    /// The last heap of the (partial) quotient.
    pub computed_to_heap: u64,
    /// Whether the periodicity certificate fixes it for every heap size.
    pub certified: bool,
    /// How the run ended: `certified`, `max_heap`, `stopped` (timeout), `limit` (memory).
    pub finish: String,
    /// `|Q|`.
    pub order: u64,
    pub p_portion_size: u64,
    pub period: Option<u64>,
    pub preperiod: Option<u64>,
    pub presentation: String,
    /// The heap the census asked for.
    pub max_heap: u64,
    /// The timeout of the run, in seconds (None: none).
    pub timeout: Option<f64>,
    /// Seconds the run took.
    pub seconds: f64,
    /// When it was recorded (UTC, `YYYY-MM-DD HH:MM:SS`).
    pub recorded_at: String,
}

/// What a quotient census does.
#[derive(Debug, Clone)]
pub struct MisereCensusOptions {
    /// Patterns or codes (`0.??`, `4.???`, `0.137`).
    pub patterns: Vec<String>,
    /// Compute each code's quotient up to this heap (fewer when certified first).
    pub max_heap: u64,
    /// Seconds per code (None: no timeout).
    pub timeout: Option<f64>,
    /// Memory per code (bytes).
    pub memory: usize,
    /// Worker threads (each computes one code at a time).
    pub jobs: u64,
    /// Do not record.
    pub no_record: bool,
    /// The catalogue file (else `$GRUNDY_DB` or the default).
    pub db: Option<std::path::PathBuf>,
    /// Compute the codes the catalogue already has.
    pub recompute: bool,
}

/// The census's report: a row per code (recorded now or taken from the catalogue).
#[derive(Debug, Clone, Serialize)]
pub struct MisereCensusReport {
    pub pattern: String,
    pub max_heap: u64,
    pub timeout: Option<f64>,
    pub codes: usize,
    pub certified: usize,
    /// Codes taken from the catalogue without computing.
    pub skipped: usize,
    pub interrupted: bool,
    pub seconds: f64,
    pub db: Option<String>,
    pub rows: Vec<QuotientRecord>,
}

/// The table, created if needed.
fn create(c: &Catalogue) -> Result {
    c.connection()
        .execute_batch(&format!(
            "CREATE TABLE IF NOT EXISTS {TABLE} (
                 code TEXT PRIMARY KEY,
                 computed_to_heap INTEGER NOT NULL,
                 certified INTEGER NOT NULL,
                 finish TEXT NOT NULL,
                 quotient_order INTEGER NOT NULL,
                 p_portion_size INTEGER NOT NULL,
                 period INTEGER,
                 preperiod INTEGER,
                 presentation TEXT NOT NULL,
                 max_heap INTEGER NOT NULL,
                 timeout REAL,
                 seconds REAL NOT NULL,
                 recorded_at TEXT NOT NULL DEFAULT (datetime('now'))
             );"
        ))
        .map_err(|e| c.error(e))
}

const COLUMNS: &str = "code, computed_to_heap, certified, finish, quotient_order, \
                       p_portion_size, period, preperiod, presentation, max_heap, timeout, \
                       seconds, recorded_at";

fn row(r: &rusqlite::Row<'_>) -> rusqlite::Result<QuotientRecord> {
    Ok(QuotientRecord {
        code: r.get(0)?,
        computed_to_heap: r.get::<_, i64>(1)? as u64,
        certified: r.get(2)?,
        finish: r.get(3)?,
        order: r.get::<_, i64>(4)? as u64,
        p_portion_size: r.get::<_, i64>(5)? as u64,
        period: r.get::<_, Option<i64>>(6)?.map(|v| v as u64),
        preperiod: r.get::<_, Option<i64>>(7)?.map(|v| v as u64),
        presentation: r.get(8)?,
        max_heap: r.get::<_, i64>(9)? as u64,
        timeout: r.get(10)?,
        seconds: r.get(11)?,
        recorded_at: r.get(12)?,
    })
}

/// Every recorded quotient, by code (none when the table does not exist yet).
pub fn all_quotients(c: &Catalogue) -> Result<Vec<QuotientRecord>> {
    if !c.has_table(TABLE)? {
        return Ok(Vec::new());
    }
    let mut stmt = c
        .connection()
        .prepare(&format!("SELECT {COLUMNS} FROM {TABLE} ORDER BY code"))
        .map_err(|e| c.error(e))?;
    let rows = stmt
        .query_map([], row)
        .and_then(|rows| rows.collect::<rusqlite::Result<Vec<_>>>())
        .map_err(|e| c.error(e));
    rows
}

/// The recorded quotients of the codes `pattern` stands for (all without one), from the
/// catalogue `db` (else `$GRUNDY_DB` or the default), read-only; with the file read.
pub fn list_quotients(
    db: Option<&std::path::Path>,
    pattern: Option<&str>,
) -> Result<(String, Vec<QuotientRecord>)> {
    crate::catalogue::list_side_table(
        db,
        pattern,
        "quotients are recorded there by census --misere-quotients",
        all_quotients,
        |r| &r.code,
    )
}

/// Record `r` as the code's row (one row per code), unless the row there is better (certified
/// when `r` is not, or further); returns the code's row as it now is.
pub fn record_quotient(c: &Catalogue, r: &QuotientRecord) -> Result<QuotientRecord> {
    create(c)?;
    let conn = c.connection();
    let get = || {
        conn.query_row(
            &format!("SELECT {COLUMNS} FROM {TABLE} WHERE code = ?1"),
            [&r.code],
            row,
        )
    };
    if let Some(old) = get().optional().map_err(|e| c.error(e))? {
        if !r.certified && (old.certified || old.computed_to_heap > r.computed_to_heap) {
            return Ok(old);
        }
    }
    conn.execute(
        &format!(
            "INSERT OR REPLACE INTO {TABLE} (code, computed_to_heap, certified, finish, \
             quotient_order, p_portion_size, period, preperiod, presentation, max_heap, \
             timeout, seconds) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)"
        ),
        params![
            r.code,
            r.computed_to_heap as i64,
            r.certified,
            r.finish,
            r.order as i64,
            r.p_portion_size as i64,
            r.period.map(|v| v as i64),
            r.preperiod.map(|v| v as i64),
            r.presentation,
            r.max_heap as i64,
            r.timeout,
            r.seconds,
        ],
    )
    .map_err(|e| c.error(e))?;
    get().map_err(|e| c.error(e))
}

/// Whether a recorded row already answers a census asking for `max_heap` within `timeout`.
fn enough(r: &QuotientRecord, max_heap: u64, timeout: Option<f64>) -> bool {
    r.certified
        || r.computed_to_heap >= max_heap
        || (r.finish == "stopped"
            && match (r.timeout, timeout) {
                (Some(had), Some(now)) => had >= now,
                _ => false,
            })
}

/// Compute one code's quotient (the timeout and memory of the census).
fn compute_one(
    rules: Rules,
    o: &MisereCensusOptions,
    stop: &AtomicBool,
) -> Result<QuotientRecord, String> {
    let start = Instant::now();
    let timeout = o.timeout.map(Duration::from_secs_f64);
    let stop_now = || stop.load(Ordering::Relaxed) || timeout.is_some_and(|t| start.elapsed() >= t);
    let run = RunOptions {
        memory: o.memory,
        ..RunOptions::default()
    };
    let code = rules.to_string();
    let q = compute_with(
        Box::new(rules),
        o.max_heap as u32,
        true,
        &stop_now,
        &mut |_, _| {},
        &run,
    )
    .map_err(|e| format!("{code}: {e}"))?;
    let r = q.report();
    Ok(QuotientRecord {
        code,
        computed_to_heap: r.computed_to_heap as u64,
        certified: r.certified,
        finish: match r.finish {
            Finish::Certified => "certified",
            Finish::MaxHeap => "max_heap",
            Finish::Stopped => "stopped",
            Finish::Limit => "limit",
            Finish::Complete => "complete",
        }
        .to_string(),
        order: r.order as u64,
        p_portion_size: r.p_portion_size as u64,
        period: r.period.map(u64::from),
        preperiod: r.preperiod.map(u64::from),
        presentation: r.presentation,
        max_heap: o.max_heap,
        timeout: o.timeout,
        seconds: start.elapsed().as_secs_f64(),
        recorded_at: String::new(),
    })
}

/// Run a quotient census: `stop` (Ctrl-C) ends it, keeping every finished code; the running
/// ones are recorded with the partial quotient they reached.
pub fn misere_census(
    o: &MisereCensusOptions,
    tell: Tell<'_>,
    stop: &AtomicBool,
) -> Result<MisereCensusReport> {
    if o.max_heap > MAX_HEAP {
        return Err(Error::input(format!(
            "--max-heap {} is too large: at most {MAX_HEAP} (every heap's options are kept)",
            o.max_heap
        )));
    }
    if let Some(t) = o.timeout {
        if !(t.is_finite() && t > 0.0) {
            return Err(Error::input(format!(
                "--timeout {t} is not a positive number of seconds"
            )));
        }
    }
    if o.jobs == 0 || o.jobs > MAX_JOBS {
        return Err(Error::input(format!(
            "--jobs {} is out of range: between 1 and {MAX_JOBS}",
            o.jobs
        )));
    }
    let mut codes: Vec<String> = Vec::new();
    for p in &o.patterns {
        for c in expand_pattern(p)? {
            let c = c.to_string();
            if !codes.contains(&c) {
                codes.push(c);
            }
        }
    }
    let started = Instant::now();
    let catalogue = open_for_recording(o.no_record, o.db.as_deref(), tell)?;
    let recorded: Vec<QuotientRecord> = match &catalogue {
        Some(c) => all_quotients(c)?,
        None => Vec::new(),
    };
    let mut rows: Vec<Option<QuotientRecord>> = vec![None; codes.len()];
    let mut todo = Vec::new();
    for (i, code) in codes.iter().enumerate() {
        match recorded.iter().find(|r| &r.code == code) {
            Some(r) if !o.recompute && enough(r, o.max_heap, o.timeout) => {
                rows[i] = Some(r.clone())
            }
            _ => todo.push(i),
        }
    }
    let skipped = codes.len() - todo.len();
    let next = AtomicUsize::new(0);
    let (send, receive) = std::sync::mpsc::channel();
    let mut failures = Vec::new();
    std::thread::scope(|s| {
        for _ in 0..o.jobs.min(todo.len().max(1) as u64) {
            let send = send.clone();
            let (next, todo, codes) = (&next, &todo, &codes);
            s.spawn(move || loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                if k >= todo.len() || stop.load(Ordering::Relaxed) {
                    break;
                }
                let i = todo[k];
                let rules = Rules::parse(&codes[i]).map_err(|e| e.to_string());
                let r = rules.and_then(|rules| compute_one(rules, o, stop));
                if send.send((i, r)).is_err() {
                    break;
                }
            });
        }
        drop(send);
        // One writer: this thread records each result as it arrives.
        for (i, r) in receive {
            match r {
                Ok(mut r) => {
                    if let Some(c) = &catalogue {
                        match record_quotient(c, &r) {
                            Ok(stamped) => r = stamped,
                            Err(e) => tell(Message::Warning(format!("not recorded: {e}"))),
                        }
                    }
                    rows[i] = Some(r);
                }
                Err(e) => failures.push(e),
            }
        }
    });
    for e in &failures {
        tell(Message::Warning(e.clone()));
    }
    let rows: Vec<QuotientRecord> = rows.into_iter().flatten().collect();
    Ok(MisereCensusReport {
        pattern: o.patterns.join(" "),
        max_heap: o.max_heap,
        timeout: o.timeout,
        codes: codes.len(),
        certified: rows.iter().filter(|r| r.certified).count(),
        skipped,
        interrupted: stop.load(Ordering::Relaxed),
        seconds: started.elapsed().as_secs_f64(),
        db: catalogue.map(|c| c.path().display().to_string()),
        rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A census of 0.5? and 0.75 (nine codes) records a row per code; a second census skips them all
    /// and reports the same rows; a code stopped by its timeout is recorded as not certified
    /// with the heap it reached, and computed again by a census with a longer timeout.
    #[test]
    fn records_skips_and_keeps_partial_rows_honest() {
        let dir = std::env::temp_dir().join(format!("grundy-mq-census-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let db = dir.join("c.sqlite3");
        let _ = std::fs::remove_file(&db);
        let stop = AtomicBool::new(false);
        let tell = |_: Message| {};
        let mut o = MisereCensusOptions {
            patterns: vec!["0.5?".into(), "0.75".into()],
            max_heap: 30,
            timeout: Some(30.0),
            memory: 1 << 30,
            jobs: 2,
            no_record: false,
            db: Some(db.clone()),
            recompute: false,
        };
        let first = misere_census(&o, &tell, &stop).unwrap();
        assert_eq!((first.codes, first.skipped, first.rows.len()), (9, 0, 9));
        let r75 = first.rows.iter().find(|r| r.code == "0.75").unwrap();
        assert!(r75.certified && r75.order == 8 && r75.p_portion_size == 2);
        assert_eq!(r75.presentation, "<a,b,c | a2=1, b3=b, bc=ab, c2=b2>");
        let second = misere_census(&o, &tell, &stop).unwrap();
        assert_eq!(second.skipped, 9);
        assert_eq!(second.rows, first.rows);
        // Kayles needs heap 167 for its certificate: not within a millisecond. A partial,
        // honest row (a code not in the catalogue yet).
        o.patterns = vec!["0.77".into()];
        o.max_heap = 200;
        o.timeout = Some(0.001);
        let partial = misere_census(&o, &tell, &stop).unwrap();
        let r = &partial.rows[0];
        assert!(
            !r.certified && r.finish == "stopped" && r.computed_to_heap < 167,
            "{r:?}"
        );
        assert_eq!(r.timeout, Some(0.001));
        let c = Catalogue::open(&db).unwrap();
        let all = all_quotients(&c).unwrap();
        assert_eq!(all.len(), 10);
        assert!(all.contains(r));
        // The same timeout again: skipped; a longer one: computed, and the row replaced.
        assert_eq!(misere_census(&o, &tell, &stop).unwrap().skipped, 1);
        o.timeout = Some(120.0);
        let done = misere_census(&o, &tell, &stop).unwrap();
        assert_eq!(done.skipped, 0);
        let r = &done.rows[0];
        assert!(
            r.certified && r.finish == "certified" && r.order == 40,
            "{r:?}"
        );
        assert_eq!(all_quotients(&c).unwrap().len(), 10);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
