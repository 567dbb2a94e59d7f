//! The results catalogue: every sequence run, recorded in an embedded SQLite database.
//!
//! Why a database: runs of octal games are expensive and their results (how far a code was
//! computed, its period and whether it is certified, how sparse it is) are worth keeping and
//! querying across sessions — `grundy catalogue` lists them, `grundy census` fills them in
//! bulk. SQLite is bundled into the binary (no server, one file).
//!
//! Where: `--db PATH` if given, else the `GRUNDY_DB` environment variable, else
//! `<user data dir>/grundy/catalogue.sqlite3` (e.g. `~/.local/share/grundy/` on Linux).
//!
//! Nothing is lost or written behind the user's back:
//! - a path the user chose (`--db` or `GRUNDY_DB`, alike) is never created with its missing
//!   directories, and a file holding another program's tables is refused, never written into;
//! - listing opens the file read-only and never creates or changes anything;
//! - the default catalogue is created on first use with a note on stderr saying where it is
//!   and how to turn recording off;
//! - a run whose record cannot be written (read-only file or place) still prints its results,
//!   with a one-line warning.

use crate::engine::Engine;
use crate::{Error, Message, Result, Tell};
use grundy::takebreak::period::certificate_index;
use grundy::takebreak::{Computation, Finish, Rules};
use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Version of the table layout, kept in the `meta` table. Version 2 added `certified_at`; a
/// version 1 catalogue is migrated when opened for recording (the column is filled in for its
/// certified runs from their code, preperiod and period) and listed as it is when read-only.
pub const SCHEMA_VERSION: i64 = 2;

/// The oldest layout this program still reads (and migrates).
const OLDEST_VERSION: i64 = 1;

/// The environment variable naming the database file.
pub const DB_ENV: &str = "GRUNDY_DB";

/// One recorded run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunRecord {
    /// Row id (0 before recording).
    pub id: i64,
    /// The code in canonical form.
    pub code: String,
    /// The last heap size computed.
    pub n: u64,
    pub preperiod: Option<u64>,
    pub period: Option<u64>,
    /// Whether the period is certified by the periodicity theorem.
    pub certified: bool,
    /// Where it was certified: the index of the last value the certificate needed
    /// (`2·max(preperiod, 1) + 2·period + t - 1`); `None` when not certified.
    pub certified_at: Option<u64>,
    pub max_value: u64,
    /// Distinct values at rare positions (rare/common engine only).
    pub rare_values: Option<u64>,
    /// Rare positions (rare/common engine only).
    pub rare_positions: Option<u64>,
    pub engine: String,
    pub engine_version: u32,
    /// Wall-clock seconds of the computation in this run.
    pub seconds: f64,
    /// Whether the run stopped at the first certified period.
    pub until_period: bool,
    /// When it was recorded (UTC, `YYYY-MM-DD HH:MM:SS`).
    pub recorded_at: String,
}

/// An open catalogue.
pub struct Catalogue {
    conn: Connection,
    path: PathBuf,
    /// The layout version of the file (older ones are read as they are when read-only).
    version: std::cell::Cell<i64>,
    /// Whether a failed record was already reported (one warning per process is enough).
    warned: std::cell::Cell<bool>,
}

/// Who chose the catalogue file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// `--db PATH` or `GRUNDY_DB`: used as given, never created with its directories.
    Chosen,
    /// The default place under the user data directory.
    Default,
}

fn db_error(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::input(format!("catalogue '{}': {e}", path.display()))
}

/// The database file: `explicit`, else `$GRUNDY_DB`, else the default under the data dir.
pub fn resolve_path(explicit: Option<&Path>) -> Result<(PathBuf, Source)> {
    if let Some(p) = explicit {
        return Ok((p.to_path_buf(), Source::Chosen));
    }
    if let Some(p) = std::env::var_os(DB_ENV).filter(|p| !p.is_empty()) {
        return Ok((PathBuf::from(p), Source::Chosen));
    }
    let base = dirs::data_dir().ok_or_else(|| {
        Error::input(format!(
            "no user data directory is known here: pass --db PATH or set {DB_ENV}"
        ))
    })?;
    Ok((
        base.join("grundy").join("catalogue.sqlite3"),
        Source::Default,
    ))
}

/// The catalogue a run records in: `None` with `--no-record`. A chosen file that cannot be
/// opened is an error (before any work is done); a default one that cannot be is a note on
/// stderr and the run is not recorded. Creating the default catalogue says so, once.
pub fn open_for_recording(
    no_record: bool,
    explicit: Option<&Path>,
    tell: Tell<'_>,
) -> Result<Option<Catalogue>> {
    if no_record {
        return Ok(None);
    }
    let (path, source) = resolve_path(explicit)?;
    if source == Source::Chosen {
        return Catalogue::open(&path).map(Some);
    }
    let new = !path.exists();
    let opened = path
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .map_err(|e| db_error(&path, e))
        .and_then(|()| Catalogue::open(&path));
    match opened {
        Ok(c) => {
            if new {
                tell(Message::Note(format!(
                    "runs are recorded in '{}' (list them with `grundy catalogue`; \
                     --no-record turns recording off, --db or {DB_ENV} chooses another file)",
                    path.display()
                )));
            }
            Ok(Some(c))
        }
        Err(e) => {
            tell(Message::Note(format!("this run will not be recorded: {e}")));
            Ok(None)
        }
    }
}

impl Catalogue {
    /// Open the catalogue at `path` for recording, creating the file (not its directory) and
    /// the tables if needed. A file with other tables than a catalogue's is refused.
    pub fn open(path: &Path) -> Result<Self> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            if !dir.is_dir() {
                return Err(db_error(
                    path,
                    format!("directory '{}' does not exist", dir.display()),
                ));
            }
        }
        let conn = Connection::open(path).map_err(|e| db_error(path, e))?;
        let catalogue = Self::with(conn, path)?;
        catalogue.migrate()?;
        Ok(catalogue)
    }

    /// Open an existing catalogue read-only (listing): nothing is created or written, and a
    /// file that is not a catalogue (empty, or another program's database) is refused.
    pub fn open_read_only(path: &Path) -> Result<Self> {
        let conn = Connection::open_with_flags(
            path,
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(|e| db_error(path, e))?;
        let catalogue = Self::with(conn, path)?;
        if catalogue.tables()?.is_empty() {
            return Err(db_error(path, "not a grundy catalogue (it has no tables)"));
        }
        catalogue.check_version()?;
        Ok(catalogue)
    }

    fn with(conn: Connection, path: &Path) -> Result<Self> {
        conn.busy_timeout(std::time::Duration::from_secs(10))
            .map_err(|e| db_error(path, e))?;
        Ok(Catalogue {
            conn,
            path: path.to_path_buf(),
            version: std::cell::Cell::new(SCHEMA_VERSION),
            warned: std::cell::Cell::new(false),
        })
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// An error about this catalogue, in one line naming its file.
    pub(crate) fn error(&self, e: impl std::fmt::Display) -> Error {
        db_error(&self.path, e)
    }

    /// Whether the file has the table `name` (the side tables are created on first use).
    pub(crate) fn has_table(&self, name: &str) -> Result<bool> {
        self.conn
            .query_row(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1",
                [name],
                |_| Ok(()),
            )
            .optional()
            .map(|o| o.is_some())
            .map_err(|e| self.error(e))
    }

    /// The connection, for the tables kept beside the runs ([`crate::misere_census`]).
    pub(crate) fn connection(&self) -> &Connection {
        &self.conn
    }

    /// The names of the tables in the file (none in a new or empty file); an error if it is
    /// not SQLite or holds tables of another program.
    fn tables(&self) -> Result<Vec<String>> {
        let err = |e| {
            db_error(
                &self.path,
                format!("cannot read it ({e}); is it a grundy catalogue?"),
            )
        };
        let mut stmt = self
            .conn
            .prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
            .map_err(err)?;
        let names = stmt
            .query_map([], |r| r.get::<_, String>(0))
            .map_err(err)?
            .collect::<Result<Vec<_>, _>>()
            .map_err(err)?;
        // `misere_quotients` is created by the first quotient census (crate::misere_census),
        // `power_summaries` by the first run with --results that records (crate::power_table).
        let known = |n: &String| {
            [
                "meta",
                "runs",
                crate::misere_census::TABLE,
                crate::power_table::TABLE,
            ]
            .contains(&n.as_str())
        };
        let catalogue = names.iter().all(known) && names.iter().any(|n| n == "runs");
        if !names.is_empty() && !catalogue {
            return Err(db_error(
                &self.path,
                format!(
                    "not a grundy catalogue (it holds the tables {}); choose another file",
                    names.join(", ")
                ),
            ));
        }
        Ok(names)
    }

    /// Refuse a catalogue of a layout version this program does not know; note the version.
    fn check_version(&self) -> Result {
        let version: Option<String> = self
            .conn
            .query_row(
                "SELECT value FROM meta WHERE key = 'schema_version'",
                [],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| db_error(&self.path, e))?;
        match version {
            Some(v)
                if v.parse()
                    .is_ok_and(|v| (OLDEST_VERSION..=SCHEMA_VERSION).contains(&v)) =>
            {
                self.version.set(v.parse().expect("checked"));
                Ok(())
            }
            Some(v) => Err(db_error(
                &self.path,
                format!("schema version {v}, this program knows version {SCHEMA_VERSION}"),
            )),
            None => Err(db_error(
                &self.path,
                "not a grundy catalogue (no schema version)",
            )),
        }
    }

    /// Create the tables in a new (empty) database; check the version of an existing one and
    /// bring an older layout up to date. A read-only catalogue still opens (its migration is
    /// left for a later opening, and a run that cannot record still prints its results).
    fn migrate(&self) -> Result {
        if !self.tables()?.is_empty() {
            self.check_version()?;
            if self.version.get() < SCHEMA_VERSION {
                match self.add_certified_at() {
                    Ok(()) => self.version.set(SCHEMA_VERSION),
                    // read-only, or another process migrated it first: read what is there now
                    Err(_) => self.check_version()?,
                }
            }
            return Ok(());
        }
        self.conn
            .execute_batch(&format!(
                "BEGIN IMMEDIATE;
                 CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                 CREATE TABLE IF NOT EXISTS runs (
                     id INTEGER PRIMARY KEY,
                     code TEXT NOT NULL,
                     n INTEGER NOT NULL,
                     preperiod INTEGER,
                     period INTEGER,
                     certified INTEGER NOT NULL,
                     max_value INTEGER NOT NULL,
                     rare_values INTEGER,
                     rare_positions INTEGER,
                     engine TEXT NOT NULL,
                     engine_version INTEGER NOT NULL,
                     seconds REAL NOT NULL,
                     until_period INTEGER NOT NULL,
                     recorded_at TEXT NOT NULL DEFAULT (datetime('now')),
                     certified_at INTEGER
                 );
                 CREATE INDEX IF NOT EXISTS runs_code ON runs (code);
                 INSERT OR IGNORE INTO meta (key, value) VALUES ('schema_version', '{SCHEMA_VERSION}');
                 COMMIT;"
            ))
            .map_err(|e| {
                db_error(
                    &self.path,
                    format!("cannot set up the tables ({e}); is it a grundy catalogue?"),
                )
            })?;
        self.check_version()
    }

    /// Version 1 to 2: add `certified_at`, filled in for the certified runs (all in one
    /// transaction: a catalogue is either migrated whole or left as it was).
    fn add_certified_at(&self) -> rusqlite::Result<()> {
        let tx = rusqlite::Transaction::new_unchecked(
            &self.conn,
            rusqlite::TransactionBehavior::Immediate,
        )?;
        tx.execute_batch("ALTER TABLE runs ADD COLUMN certified_at INTEGER;")?;
        let certified: Vec<(i64, String, Option<i64>, Option<i64>)> = tx
            .prepare("SELECT id, code, preperiod, period FROM runs WHERE certified")?
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
            .collect::<rusqlite::Result<_>>()?;
        for (id, code, preperiod, period) in certified {
            let at = certificate_of(&code, preperiod.map(|v| v as u64), period.map(|v| v as u64));
            tx.execute(
                "UPDATE runs SET certified_at = ?1 WHERE id = ?2",
                params![at.map(|v| v as i64), id],
            )?;
        }
        tx.execute(
            "UPDATE meta SET value = ?1 WHERE key = 'schema_version'",
            params![SCHEMA_VERSION.to_string()],
        )?;
        tx.commit()
    }

    /// Record a run; returns its row id.
    pub fn record(&self, r: &RunRecord) -> Result<i64> {
        if self.version.get() < SCHEMA_VERSION {
            // an old catalogue that could not be migrated (read-only): say why, write nothing
            return Err(db_error(
                &self.path,
                format!(
                    "schema version {} could not be brought up to version {SCHEMA_VERSION} \
                     (is the file writable?)",
                    self.version.get()
                ),
            ));
        }
        self.conn
            .execute(
                "INSERT INTO runs (code, n, preperiod, period, certified, max_value, rare_values,
                                   rare_positions, engine, engine_version, seconds, until_period,
                                   certified_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
                params![
                    r.code,
                    r.n as i64,
                    r.preperiod.map(|v| v as i64),
                    r.period.map(|v| v as i64),
                    r.certified,
                    r.max_value as i64,
                    r.rare_values.map(|v| v as i64),
                    r.rare_positions.map(|v| v as i64),
                    r.engine,
                    r.engine_version,
                    r.seconds,
                    r.until_period,
                    r.certified_at.map(|v| v as i64),
                ],
            )
            .map_err(|e| db_error(&self.path, e))?;
        Ok(self.conn.last_insert_rowid())
    }

    /// When the run of row `id` was recorded (UTC, `YYYY-MM-DD HH:MM:SS`).
    pub fn recorded_at(&self, id: i64) -> Result<String> {
        self.conn
            .query_row("SELECT recorded_at FROM runs WHERE id = ?1", [id], |r| {
                r.get(0)
            })
            .map_err(|e| db_error(&self.path, e))
    }

    /// Record a run, or say on stderr (once) why it could not be: a run's results are printed
    /// whether or not the catalogue can take them. Returns the row id when recorded.
    pub fn record_or_warn(&self, r: &RunRecord, tell: Tell<'_>) -> Option<i64> {
        match self.record(r) {
            Ok(id) => Some(id),
            Err(e) => {
                if !self.warned.replace(true) {
                    tell(Message::Warning(format!("not recorded: {e}")));
                }
                None
            }
        }
    }

    /// Whether every record asked for so far was written.
    pub fn all_recorded(&self) -> bool {
        !self.warned.get()
    }

    /// Every run, oldest first.
    pub fn all(&self) -> Result<Vec<RunRecord>> {
        self.select(None)
    }

    /// Every run of one code (canonical form), oldest first.
    pub fn runs_of(&self, code: &str) -> Result<Vec<RunRecord>> {
        self.select(Some(code))
    }

    fn select(&self, code: Option<&str>) -> Result<Vec<RunRecord>> {
        let err = |e| db_error(&self.path, e);
        // a version 1 catalogue (opened read-only, so not migrated) has no certified_at
        let certified_at = if self.version.get() >= 2 {
            "certified_at"
        } else {
            "NULL"
        };
        let mut stmt = self
            .conn
            .prepare(&format!(
                "SELECT id, code, n, preperiod, period, certified, max_value, rare_values,
                        rare_positions, engine, engine_version, seconds, until_period, recorded_at,
                        {certified_at}
                 FROM runs {} ORDER BY id",
                if code.is_some() {
                    "WHERE code = ?1"
                } else {
                    ""
                }
            ))
            .map_err(err)?;
        let params: Vec<&dyn rusqlite::ToSql> = match &code {
            Some(c) => vec![c as &dyn rusqlite::ToSql],
            None => Vec::new(),
        };
        let rows = stmt
            .query_map(params.as_slice(), |row| {
                let opt = |i: usize| -> rusqlite::Result<Option<u64>> {
                    Ok(row.get::<_, Option<i64>>(i)?.map(|v| v as u64))
                };
                Ok(RunRecord {
                    id: row.get(0)?,
                    code: row.get(1)?,
                    n: row.get::<_, i64>(2)? as u64,
                    preperiod: opt(3)?,
                    period: opt(4)?,
                    certified: row.get(5)?,
                    certified_at: opt(14)?,
                    max_value: row.get::<_, i64>(6)? as u64,
                    rare_values: opt(7)?,
                    rare_positions: opt(8)?,
                    engine: row.get(9)?,
                    engine_version: row.get(10)?,
                    seconds: row.get(11)?,
                    until_period: row.get(12)?,
                    recorded_at: row.get(13)?,
                })
            })
            .map_err(err)?;
        let mut runs = rows.collect::<Result<Vec<_>, _>>().map_err(err)?;
        if self.version.get() < 2 {
            for r in runs.iter_mut().filter(|r| r.certified) {
                r.certified_at = certificate_of(&r.code, r.preperiod, r.period);
            }
        }
        Ok(runs)
    }
}

/// Where a certified run of `code` with this preperiod and period was certified (for runs
/// recorded before `certified_at` was), as the periodicity theorem places it.
fn certificate_of(code: &str, preperiod: Option<u64>, period: Option<u64>) -> Option<u64> {
    let rules = Rules::parse(code).ok()?;
    let (pre, p) = (
        usize::try_from(preperiod?).ok()?,
        usize::try_from(period?).ok()?,
    );
    Some(certificate_index(pre, p, rules.max_removed()) as u64)
}

/// The catalogue record of a finished computation.
pub fn record_of(
    rules: &Rules,
    c: &Computation,
    engine: &Engine,
    seconds: f64,
    finish: Finish,
) -> RunRecord {
    let (rare_values, rare_positions) = engine.rare();
    RunRecord {
        id: 0,
        code: rules.to_string(),
        n: c.n() as u64,
        preperiod: c.period.map(|p| p.preperiod as u64),
        period: c.period.map(|p| p.period as u64),
        certified: c.period.is_some_and(|p| p.certified),
        certified_at: c
            .period
            .filter(|p| p.certified)
            .and_then(|p| p.certified_at)
            .map(|at| at as u64),
        max_value: c.max_value as u64,
        rare_values,
        rare_positions,
        engine: engine.name().to_string(),
        engine_version: engine.computed_version(),
        seconds,
        until_period: finish == Finish::AtCertificate,
        recorded_at: String::new(),
    }
}

/// Which recorded runs to list (`grundy catalogue`, `grundy.catalogue()`); every filter is
/// optional.
#[derive(Debug, Clone, Default)]
pub struct Query {
    /// Only this code, or the codes matching a census pattern such as `0.??`.
    pub pattern: Option<String>,
    /// Only runs of this engine (`sparse`, `naive`).
    pub engine: Option<String>,
    /// Only runs with (`Some(true)`) or without (`Some(false)`) a certified period.
    pub certified: Option<bool>,
    /// Only runs that reached at least this heap size.
    pub min_n: Option<u64>,
    /// Only the latest run of each code.
    pub latest: bool,
    /// At most this many runs (the most recent ones).
    pub limit: Option<u64>,
    /// The catalogue file (else `$GRUNDY_DB`, else the default place).
    pub db: Option<PathBuf>,
}

/// The runs a [`Query`] selects (the keys of `grundy catalogue --json`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Listing {
    /// The catalogue file read.
    pub db: String,
    /// How many runs are listed.
    pub count: usize,
    /// The runs, oldest first.
    pub runs: Vec<RunRecord>,
}

/// The canonical codes a pattern (or a single code or name) stands for.
fn matching_codes(pattern: &str) -> Result<HashSet<String>> {
    if !pattern.contains('?') {
        return Ok(HashSet::from([Rules::parse(pattern)?.to_string()]));
    }
    Ok(crate::census::expand_pattern(pattern)?
        .into_iter()
        .map(|c| c.to_string())
        .collect())
}

/// List the recorded runs `query` selects. Listing never creates or writes anything: a missing
/// default catalogue lists nothing, a missing file the user chose is an error.
pub fn list(query: &Query) -> Result<Listing> {
    let codes = query.pattern.as_deref().map(matching_codes).transpose()?;
    if let Some(e) = &query.engine {
        if !["sparse", "naive"].contains(&e.as_str()) {
            return Err(Error::input(format!(
                "unknown engine '{e}': sparse or naive"
            )));
        }
    }
    let (path, source) = resolve_path(query.db.as_deref())?;
    let all = if path.exists() {
        Catalogue::open_read_only(&path)?.all()?
    } else if source == Source::Chosen {
        // A path the user chose (--db or GRUNDY_DB) that does not exist is a mistake, not an
        // empty catalogue.
        return Err(Error::input(format!(
            "no catalogue at '{}' (runs are recorded there by takebreak and census)",
            path.display()
        )));
    } else {
        Vec::new()
    };
    let mut runs: Vec<RunRecord> = all
        .into_iter()
        .filter(|r| codes.as_ref().map_or(true, |c| c.contains(&r.code)))
        .filter(|r| query.engine.as_ref().map_or(true, |e| &r.engine == e))
        .filter(|r| query.certified.map_or(true, |c| r.certified == c))
        .filter(|r| query.min_n.map_or(true, |m| r.n >= m))
        .collect();
    if query.latest {
        let mut seen = HashSet::new();
        // newest first, keep the first of each code, then back to oldest first
        runs.reverse();
        runs.retain(|r| seen.insert(r.code.clone()));
        runs.reverse();
    }
    if let Some(k) = query.limit {
        let k = k.min(runs.len() as u64) as usize;
        runs.drain(..runs.len() - k);
    }
    Ok(Listing {
        db: path.display().to_string(),
        count: runs.len(),
        runs,
    })
}

/// The rows of a side table of the catalogue (misère quotients, power summaries) for a
/// listing: the codes `pattern` stands for (a code or a census pattern; all without one), read
/// with `read` from the catalogue `db` (else `$GRUNDY_DB`, else the default one) opened
/// read-only, with the catalogue's path. A chosen file that does not exist is an error that
/// says what records such rows (`recorded_by`); a missing default catalogue lists nothing.
pub(crate) fn list_side_table<R>(
    db: Option<&Path>,
    pattern: Option<&str>,
    recorded_by: &str,
    read: impl FnOnce(&Catalogue) -> Result<Vec<R>>,
    code_of: impl Fn(&R) -> &str,
) -> Result<(String, Vec<R>)> {
    let codes: Option<Vec<String>> = match pattern {
        Some(p) if p.contains('?') => Some(
            crate::census::expand_pattern(p)?
                .iter()
                .map(|c| c.to_string())
                .collect(),
        ),
        Some(p) => Some(vec![Rules::parse(p)?.to_string()]),
        None => None,
    };
    let (path, source) = resolve_path(db)?;
    let rows = if path.exists() {
        read(&Catalogue::open_read_only(&path)?)?
    } else if source == Source::Chosen {
        return Err(Error::input(format!(
            "no catalogue at '{}' ({recorded_by})",
            path.display()
        )));
    } else {
        Vec::new()
    };
    let rows = rows
        .into_iter()
        .filter(|r| {
            codes
                .as_ref()
                .map_or(true, |c| c.iter().any(|c| c == code_of(r)))
        })
        .collect();
    Ok((path.display().to_string(), rows))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(code: &str) -> RunRecord {
        RunRecord {
            id: 0,
            code: code.into(),
            n: 1000,
            preperiod: Some(53),
            period: Some(34),
            certified: true,
            certified_at: Some(2 * 53 + 2 * 34 + 1 - 1),
            max_value: 9,
            rare_values: Some(3),
            rare_positions: None,
            engine: "sparse".into(),
            engine_version: 1,
            seconds: 0.25,
            until_period: false,
            recorded_at: String::new(),
        }
    }

    #[test]
    fn records_and_reads_back_runs() {
        let dir = tempfile::tempdir().unwrap();
        // a missing directory is never created
        let lost = dir.path().join("sub").join("c.sqlite3");
        let e = Catalogue::open(&lost).err().expect("refused").to_string();
        assert!(e.contains("does not exist"), "{e}");
        assert!(!dir.path().join("sub").exists());
        let path = dir.path().join("c.sqlite3");
        let cat = Catalogue::open(&path).unwrap();
        let id = cat.record(&record("0.07")).unwrap();
        cat.record(&record("0.16")).unwrap();
        drop(cat);
        // reopening keeps the rows and the schema
        let cat = Catalogue::open(&path).unwrap();
        let all = cat.all().unwrap();
        assert_eq!(all.len(), 2);
        assert_eq!(all[0].id, id);
        assert_eq!(all[0].code, "0.07");
        assert_eq!(all[0].preperiod, Some(53));
        assert_eq!(all[0].rare_positions, None);
        assert_eq!(all[0].rare_values, Some(3));
        assert_eq!(all[0].certified_at, Some(2 * 53 + 2 * 34 + 1 - 1));
        assert!(!all[0].recorded_at.is_empty());
        drop(cat);
        // and a read-only opening lists the same runs
        assert_eq!(
            Catalogue::open_read_only(&path).unwrap().all().unwrap(),
            all
        );
    }

    /// A catalogue as version 1 of the layout wrote it (no `certified_at`), with a run of
    /// Kayles certified at its periodicity certificate and an uncertified run.
    fn version_1_catalogue(path: &Path) {
        Connection::open(path)
            .unwrap()
            .execute_batch(
                "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                 CREATE TABLE runs (
                     id INTEGER PRIMARY KEY, code TEXT NOT NULL, n INTEGER NOT NULL,
                     preperiod INTEGER, period INTEGER, certified INTEGER NOT NULL,
                     max_value INTEGER NOT NULL, rare_values INTEGER, rare_positions INTEGER,
                     engine TEXT NOT NULL, engine_version INTEGER NOT NULL,
                     seconds REAL NOT NULL, until_period INTEGER NOT NULL,
                     recorded_at TEXT NOT NULL DEFAULT (datetime('now')));
                 CREATE INDEX runs_code ON runs (code);
                 INSERT INTO meta VALUES ('schema_version', '1');
                 INSERT INTO runs (code, n, preperiod, period, certified, max_value, engine,
                                   engine_version, seconds, until_period)
                     VALUES ('0.77', 167, 71, 12, 1, 9, 'sparse', 1, 0.001, 1),
                            ('0.6', 1000, NULL, NULL, 0, 40, 'sparse', 1, 0.01, 0);",
            )
            .unwrap();
    }

    #[test]
    fn a_version_1_catalogue_is_listed_read_only_and_migrated_when_recording() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.sqlite3");
        version_1_catalogue(&path);
        let before = std::fs::read(&path).unwrap();
        // listing reads it as it is: where Kayles was certified comes from the theorem
        // (2·71 + 2·12 + 2 - 1 = 167, the n of that --until-period run)
        let listed = Catalogue::open_read_only(&path).unwrap().all().unwrap();
        assert_eq!(listed[0].certified_at, Some(167));
        assert_eq!(listed[0].certified_at, Some(listed[0].n));
        assert_eq!(listed[1].certified_at, None);
        assert_eq!(
            std::fs::read(&path).unwrap(),
            before,
            "listing wrote nothing"
        );
        // opening it to record migrates it, filling the column in the same way
        let cat = Catalogue::open(&path).unwrap();
        assert_eq!(cat.all().unwrap(), listed);
        cat.record(&record("0.16")).unwrap();
        drop(cat);
        let conn = Connection::open(&path).unwrap();
        let version: String = conn
            .query_row(
                "SELECT value FROM meta WHERE key = 'schema_version'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(version, SCHEMA_VERSION.to_string());
        let stored: Vec<Option<i64>> = conn
            .prepare("SELECT certified_at FROM runs ORDER BY id")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        assert_eq!(stored, [Some(167), None, Some(2 * 53 + 2 * 34 + 1 - 1)]);
    }

    #[test]
    fn a_read_only_version_1_catalogue_opens_but_records_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("old.sqlite3");
        version_1_catalogue(&path);
        let before = std::fs::read(&path).unwrap();
        // a connection that cannot write (as a read-only file gives, even to root)
        let conn =
            Connection::open_with_flags(&path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY).unwrap();
        let cat = Catalogue::with(conn, &path).unwrap();
        cat.migrate().unwrap();
        assert_eq!(cat.all().unwrap()[0].certified_at, Some(167));
        let e = cat
            .record(&record("0.16"))
            .expect_err("refused")
            .to_string();
        assert!(e.contains("schema version 1"), "{e}");
        drop(cat);
        assert_eq!(std::fs::read(&path).unwrap(), before);
    }

    #[test]
    fn never_writes_into_an_empty_or_foreign_file_when_listing() {
        let dir = tempfile::tempdir().unwrap();
        let empty = dir.path().join("empty.db");
        std::fs::write(&empty, b"").unwrap();
        let e = Catalogue::open_read_only(&empty)
            .err()
            .expect("refused")
            .to_string();
        assert!(e.contains("not a grundy catalogue"), "{e}");
        assert_eq!(std::fs::metadata(&empty).unwrap().len(), 0);
        let foreign = dir.path().join("foreign.db");
        Connection::open(&foreign)
            .unwrap()
            .execute_batch("CREATE TABLE notes (t TEXT);")
            .unwrap();
        for e in [
            Catalogue::open_read_only(&foreign).err(),
            Catalogue::open(&foreign).err(),
        ] {
            let e = e.expect("refused").to_string();
            assert!(e.contains("holds the tables notes"), "{e}");
        }
    }

    #[test]
    fn refuses_a_file_that_is_not_a_catalogue() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.sqlite3");
        std::fs::write(
            &path,
            b"definitely not sqlite, just some text of a certain length",
        )
        .unwrap();
        let e = Catalogue::open(&path).err().expect("refused").to_string();
        assert!(e.contains("x.sqlite3"), "{e}");
    }
}
