//! The summaries at powers of two in the catalogue: the `power_summaries` table.
//!
//! A long run with `--results DIR` writes, as it passes each power of two `n`, the summary of
//! `G(0..=n)` ([`grundy::takebreak::powers`]: the histogram of values, the largest value and
//! where it first occurs, the rare heaps, the SHA-256 of the values) as a text file; a run that
//! records in a catalogue also keeps that summary here, one row per (code, n, SHA-256), so that
//! `grundy catalogue --powers` and Python's `grundy.power_summaries()` answer "how far has this
//! game been computed, and what did each doubling show" without the files.
//!
//! Rows are written as each power passes (a run killed later keeps them), or at the end for a
//! run that is recorded only once it turns out long enough. Two runs that agree write one row;
//! two that disagree at the same `n` (different values, which no run of grundy should produce)
//! keep a row each, so the disagreement shows in the listing rather than being overwritten.

use crate::catalogue::Catalogue;
use crate::Result;
use grundy::takebreak::powers::PowerSummary;
use serde::{Deserialize, Serialize};

/// The table's name.
pub const TABLE: &str = "power_summaries";

/// One recorded summary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PowerRecord {
    /// The code in canonical form.
    pub code: String,
    /// The power of two: the summary is of heaps `1..=n`.
    pub n: u64,
    /// SHA-256 of G(0..=n), each value as two little-endian bytes.
    pub sha256: String,
    /// The largest of G(1..=n) and the first heap where it occurs.
    pub max_value: u64,
    pub max_first_at: u64,
    /// Heaps of `1..=n` in a rare class of the rare/common engine's split (`None`: not a code
    /// that engine runs).
    pub rare_count: Option<u64>,
    /// The last rare heap, when every rare heap is listed.
    pub last_rare: Option<u64>,
    /// `(value, count)` for every value that occurs among G(1..=n).
    pub histogram: Vec<(u64, u64)>,
    /// The rare heaps (the first [`grundy::takebreak::powers::RARE_LISTED`]).
    pub rare_heaps: Vec<u64>,
    /// When it was recorded (UTC).
    pub recorded_at: String,
}

impl PowerRecord {
    /// The record of a summary.
    pub fn of(s: &PowerSummary) -> PowerRecord {
        let complete = s.rare_count == Some(s.rare_heaps.len() as u64);
        PowerRecord {
            code: s.code.clone(),
            n: s.n as u64,
            sha256: s.sha256.clone(),
            max_value: s.max_value as u64,
            max_first_at: s.max_first_at as u64,
            rare_count: s.rare_count,
            last_rare: s.rare_heaps.last().filter(|_| complete).map(|&h| h as u64),
            histogram: s.histogram.iter().map(|&(v, c)| (v as u64, c)).collect(),
            rare_heaps: s.rare_heaps.iter().map(|&h| h as u64).collect(),
            recorded_at: String::new(),
        }
    }
}

/// The table, created if needed.
fn create(c: &Catalogue) -> Result {
    c.connection()
        .execute_batch(&format!(
            "CREATE TABLE IF NOT EXISTS {TABLE} (
                 code TEXT NOT NULL,
                 n INTEGER NOT NULL,
                 sha256 TEXT NOT NULL,
                 max_value INTEGER NOT NULL,
                 max_first_at INTEGER NOT NULL,
                 rare_count INTEGER,
                 last_rare INTEGER,
                 histogram TEXT NOT NULL,
                 rare_heaps TEXT NOT NULL,
                 recorded_at TEXT NOT NULL DEFAULT (datetime('now')),
                 PRIMARY KEY (code, n, sha256)
             );"
        ))
        .map_err(|e| c.error(e))
}

/// Record a summary (nothing new when the same code, n and values are there already).
pub fn record(c: &Catalogue, s: &PowerSummary) -> Result {
    create(c)?;
    let r = PowerRecord::of(s);
    c.connection()
        .execute(
            &format!(
                "INSERT OR IGNORE INTO {TABLE} (code, n, sha256, max_value, max_first_at, \
                 rare_count, last_rare, histogram, rare_heaps) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)"
            ),
            rusqlite::params![
                r.code,
                r.n as i64,
                r.sha256,
                r.max_value as i64,
                r.max_first_at as i64,
                r.rare_count.map(|c| c as i64),
                r.last_rare.map(|h| h as i64),
                serde_json::to_string(&r.histogram).expect("numbers serialise"),
                serde_json::to_string(&r.rare_heaps).expect("numbers serialise"),
            ],
        )
        .map_err(|e| c.error(e))?;
    Ok(())
}

/// Every recorded summary, by code, then n.
fn all(c: &Catalogue) -> Result<Vec<PowerRecord>> {
    if !c.has_table(TABLE)? {
        return Ok(Vec::new());
    }
    let mut stmt = c
        .connection()
        .prepare(&format!(
            "SELECT code, n, sha256, max_value, max_first_at, rare_count, last_rare, histogram, \
             rare_heaps, recorded_at FROM {TABLE} ORDER BY code, n, recorded_at"
        ))
        .map_err(|e| c.error(e))?;
    let rows = stmt
        .query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, i64>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, i64>(3)?,
                r.get::<_, i64>(4)?,
                r.get::<_, Option<i64>>(5)?,
                r.get::<_, Option<i64>>(6)?,
                r.get::<_, String>(7)?,
                r.get::<_, String>(8)?,
                r.get::<_, String>(9)?,
            ))
        })
        .map_err(|e| c.error(e))?
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(|e| c.error(e))?;
    // A file is trusted only for what it proves: a row whose numbers or JSON do not read back
    // is reported, not listed as if it were whole.
    let bad = |code: &str, n: i64, what: &str| {
        c.error(format!(
            "the summary of {code} at n = {n} is damaged ({what})"
        ))
    };
    rows.into_iter()
        .map(|(code, n, sha, max, at, rare, last, hist, heaps, when)| {
            let unsigned =
                |x: i64| u64::try_from(x).map_err(|_| bad(&code, n, "a negative number"));
            Ok(PowerRecord {
                n: unsigned(n)?,
                max_value: unsigned(max)?,
                max_first_at: unsigned(at)?,
                rare_count: rare.map(unsigned).transpose()?,
                last_rare: last.map(unsigned).transpose()?,
                histogram: serde_json::from_str(&hist)
                    .map_err(|_| bad(&code, n, "its histogram"))?,
                rare_heaps: serde_json::from_str(&heaps)
                    .map_err(|_| bad(&code, n, "its rare heaps"))?,
                sha256: sha,
                recorded_at: when,
                code,
            })
        })
        .collect()
}

/// The recorded summaries of the codes `pattern` stands for (a code, or a census pattern such
/// as `0.1??`; all codes without one), from the catalogue `db` (else `$GRUNDY_DB`, else the
/// default one), with the catalogue's path.
pub fn list(
    db: Option<&std::path::Path>,
    pattern: Option<&str>,
) -> Result<(String, Vec<PowerRecord>)> {
    crate::catalogue::list_side_table(
        db,
        pattern,
        "summaries are recorded there by takebreak --results with --db",
        all,
        |r| &r.code,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use grundy::takebreak::powers::summary;

    fn temp_db(name: &str) -> std::path::PathBuf {
        let dir =
            std::env::temp_dir().join(format!("grundy-power-table-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("cat.sqlite3");
        let _ = std::fs::remove_file(&p);
        p
    }

    /// A summary goes in and comes back as it was; the same summary twice is one row; a
    /// different one at the same n is a second row (a disagreement stays visible).
    #[test]
    fn summaries_are_kept_once_and_disagreements_stay_visible() {
        let path = temp_db("roundtrip");
        let rules = grundy::takebreak::Rules::parse("0.16").unwrap();
        let mut naive = grundy::takebreak::Naive::new(rules.clone());
        let values = grundy::takebreak::compute(
            &rules,
            4096,
            grundy::takebreak::Finish::ComputeAll,
            &mut naive,
            None,
        )
        .unwrap()
        .values
        .to_vec();
        let s = summary(&rules, &values[..=2048]).unwrap();
        let c = Catalogue::open(&path).unwrap();
        record(&c, &s).unwrap();
        record(&c, &s).unwrap();
        let (_, rows) = list(Some(&path), Some("0.16")).unwrap();
        assert_eq!(rows.len(), 1);
        let r = &rows[0];
        assert_eq!(
            (r.code.as_str(), r.n, r.sha256.as_str()),
            ("0.16", 2048, s.sha256.as_str())
        );
        assert_eq!(r.histogram.iter().map(|&(_, c)| c).sum::<u64>(), 2048);
        assert_eq!(r.rare_count, s.rare_count);
        assert_eq!(r.rare_heaps.len() as u64, s.rare_count.unwrap());
        let mut forged = s.clone();
        forged.sha256 = "0".repeat(64);
        record(&c, &forged).unwrap();
        let (_, rows) = list(Some(&path), Some("0.1?")).unwrap();
        assert_eq!(rows.len(), 2);
        let (_, none) = list(Some(&path), Some("0.6")).unwrap();
        assert!(none.is_empty());
        // A damaged row is refused in one line, not listed.
        c.connection()
            .execute(&format!("UPDATE {TABLE} SET histogram = 'x'"), [])
            .unwrap();
        let e = list(Some(&path), None).unwrap_err().to_string();
        assert!(e.contains("damaged (its histogram)"), "{e}");
    }
}
