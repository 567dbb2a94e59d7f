//! Resumable long runs: compute G(0..=n) (or until a certified period) with an [`Engine`],
//! resuming from a checkpoint when there is one, saving it every so often and when asked to
//! stop, and recording the result in the catalogue.
//!
//! Nothing is lost: the checkpoint rules (lock, never shrink, degrade to a warning) are the
//! library's [`Store`]'s, a stop request saves before the run ends, and a run whose record
//! cannot be written still returns its results (with a warning).
//!
//! The front end owns the process: it sets [`Hooks::stop`] (the CLI from its Ctrl-C/SIGTERM
//! handler, Python when a `KeyboardInterrupt` is pending) and draws progress from
//! [`Hooks::progress`] and [`Hooks::search`].

use crate::catalogue::{open_for_recording, record_of, resolve_path, Source};
use crate::engine::Engine;
use crate::{Error, Message, Result, Tell};
use grundy::takebreak::checkpoint::{self, Control, Identity, Load, Outcome, Store};
use grundy::takebreak::{Computation, Finish, PeriodDetector, Plan, Rules, Values, ValuesRef};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Default time between two checkpoints, in seconds.
pub const DEFAULT_CHECKPOINT_EVERY: f64 = 60.0;
/// The CLI records a run in the default catalogue by itself only when its computation took at
/// least this long (seconds): a result worth keeping, where a look-up such as
/// `takebreak kayles -n 20` is not. A catalogue chosen with `--db` or `GRUNDY_DB`, and
/// `--record`, record every run.
pub const RECORD_AFTER_SECONDS: f64 = 10.0;

/// Where a run keeps its checkpoint.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum CheckpointPlace {
    /// A file per code and engine under the user data directory, removed when the run
    /// completes ([`default_checkpoint`]).
    #[default]
    Default,
    /// A file the user chose (its directory must exist); kept when the run completes.
    At(PathBuf),
    /// Neither save nor resume.
    Off,
    /// A file per code and engine in this directory (the census's `--checkpoint-dir`, which
    /// workers of a cluster may share), removed when the run completes as the default one is.
    DefaultIn(PathBuf),
}

/// How a long run saves and records.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Where the checkpoint goes.
    pub checkpoint: CheckpointPlace,
    /// Time between two checkpoints.
    pub every: Duration,
    /// Do not record the run in the catalogue.
    pub no_record: bool,
    /// Record in the default catalogue only a run whose computation lasted at least this long
    /// (`None`: every run). A chosen catalogue (`db`, `$GRUNDY_DB`) records every run.
    pub record_after: Option<Duration>,
    /// The catalogue file (else `$GRUNDY_DB`, else the default place).
    pub db: Option<PathBuf>,
    /// Write a summary of the values at every power of two from [`RESULTS_FROM`] on, as the
    /// run passes it, into `DIR/CODE/N.txt` ([`grundy::takebreak::powers`]).
    pub results: Option<PathBuf>,
    /// Tiered storage: the values in a file in this directory, the process's RAM bounded
    /// ([`grundy::takebreak::tiered`]); the store is the checkpoint (`checkpoint` is not used).
    pub tiered: Option<Tiered>,
}

/// Where a tiered run keeps its values, and the RAM it may use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tiered {
    /// The store's directory (must exist).
    pub dir: PathBuf,
    /// The RAM bound in bytes.
    pub memory: u64,
}

/// The least power of two a run with `results` summarises.
pub const RESULTS_FROM: usize = 1 << 10;

/// Writes the summaries at powers of two of one run, each when the run reaches its power and
/// atomically (a temporary file of this process, renamed), so that a run killed at any moment
/// leaves only whole files. A file already in the folder is never taken on trust: a resumed run
/// writes again the powers before its resume point, from the values it loaded and checked.
///
/// The summaries written are also kept for the catalogue ([`crate::power_table`]) until
/// [`PowerWriter::record`] hands them over, and the last one's rare count goes into the log
/// line ([`Standing::rare`]).
struct PowerWriter<'a> {
    rules: &'a Rules,
    dir: PathBuf,
    done: usize,
    /// Whether the summaries are kept for a catalogue (not with `--no-record`).
    keep: bool,
    pending: Vec<grundy::takebreak::powers::PowerSummary>,
    last: Option<(usize, Option<u64>)>,
}

/// The summary of `prefix = G(0..=p)` and its text file, whatever the store's width.
fn summarise(
    rules: &Rules,
    prefix: ValuesRef<'_>,
) -> std::result::Result<(grundy::takebreak::powers::PowerSummary, String), grundy::Error> {
    let s = grundy::takebreak::powers::summary(rules, prefix)?;
    let text = s.text(prefix);
    Ok((s, text))
}

impl<'a> PowerWriter<'a> {
    fn new(rules: &'a Rules, base: &std::path::Path, keep: bool) -> Result<Self> {
        let dir = base.join(file_safe(&rules.to_string()));
        std::fs::create_dir_all(&dir).map_err(|e| {
            Error::input(format!(
                "--results: cannot create the folder '{}': {e}",
                dir.display()
            ))
        })?;
        Ok(PowerWriter {
            rules,
            dir,
            done: 0,
            keep,
            pending: Vec::new(),
            last: None,
        })
    }

    /// Record the summaries written since the last call in `catalogue` (a failure is one
    /// warning, as for the run's own record: the files are written either way).
    fn record(&mut self, catalogue: &crate::catalogue::Catalogue, tell: Tell<'_>) {
        for s in self.pending.drain(..) {
            if let Err(e) = crate::power_table::record(catalogue, &s) {
                tell(Message::Warning(format!(
                    "the summary at n = {} was not recorded: {e}",
                    s.n
                )));
                break;
            }
        }
    }

    fn see(&mut self, values: ValuesRef<'_>) -> std::result::Result<(), grundy::Error> {
        for p in grundy::takebreak::powers::powers_ready(RESULTS_FROM, values.len(), self.done) {
            let path = self.dir.join(format!("{p}.txt"));
            let (summary, text) = summarise(self.rules, values.slice(..=p))?;
            let tmp = self
                .dir
                .join(format!(".{p}.txt.{}.tmp", std::process::id()));
            std::fs::write(&tmp, text)
                .and_then(|()| std::fs::rename(&tmp, &path))
                .map_err(|e| {
                    let _ = std::fs::remove_file(&tmp);
                    grundy::Error::Invalid(format!(
                        "--results: cannot write '{}': {e}",
                        path.display()
                    ))
                })?;
            self.done = p;
            self.last = Some((p, summary.rare_count));
            if self.keep {
                self.pending.push(summary);
            }
        }
        Ok(())
    }
}

/// The most disk a checkpoint of `values` values takes: the header (a few dozen bytes, the
/// code and two records) and two bytes per value, plus `beside` (the bytes of an existing file
/// that the run's first save rewrites whole beside it, [`checkpoint::rewritten_beside`]: a file
/// of format 1; a run appends to a format-2 file, [`grundy::takebreak::checkpoint`]).
pub fn checkpoint_disk_bound(values: u64, beside: u64) -> u64 {
    (values.saturating_mul(2) + 4096).saturating_add(beside)
}

/// Bytes free for an unprivileged writer in the file system of `dir` (`None` where it cannot
/// be asked).
fn free_bytes(dir: &std::path::Path) -> Option<u64> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let c = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
        let mut st = std::mem::MaybeUninit::<libc::statvfs>::uninit();
        // SAFETY: `c` is a NUL-terminated path and `st` a buffer statvfs fills on success.
        let status = unsafe { libc::statvfs(c.as_ptr(), st.as_mut_ptr()) };
        if status != 0 {
            return None;
        }
        // SAFETY: statvfs returned 0, so it filled the buffer.
        let st = unsafe { st.assume_init() };
        // The field types differ between platforms (u32 on some 32-bit ones).
        #[allow(clippy::useless_conversion)]
        Some(u64::from(st.f_bavail).saturating_mul(u64::from(st.f_frsize)))
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        None
    }
}

/// Runs whose checkpoint may grow past this many bytes say so before they start.
const DISK_NOTICE_BYTES: u64 = 256 << 20;

/// Say up front how much disk a run's checkpoint may take, and warn when the file system that
/// holds it has less free (the run still goes on: a save that fails is a warning and the values
/// are kept in memory, as [`Store`] does).
fn state_disk_use(path: &std::path::Path, values: u64, tell: Tell<'_>) {
    let beside = checkpoint::rewritten_beside(path);
    let need = checkpoint_disk_bound(values, beside);
    let why = if beside > 0 {
        ", and the file there now until the first save has rewritten it"
    } else {
        ""
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    let free = free_bytes(dir);
    // the file there already holds its share of what is needed (the free space excludes it)
    let held = std::fs::metadata(path).map_or(0, |m| m.len());
    let mb = |b: u64| b as f64 / 1e6;
    // (a small checkpoint on a full file system: "202 bytes", not "0 MB")
    let size = |b: u64| match b {
        0..1_000_000 => format!("{b} bytes"),
        _ => format!("{:.0} MB", mb(b)),
    };
    let held_words = if held > 0 {
        format!(", {} of it held by the file there now", size(held))
    } else {
        String::new()
    };
    match free {
        Some(free) if free < need.saturating_sub(held) => tell(Message::Warning(format!(
            "the checkpoint '{}' may need {} of disk ({} values{why}){held_words}, but only {} \
             {} free there: give --checkpoint a place with more room, a smaller -n, or \
             --no-checkpoint",
            path.display(),
            size(need),
            values,
            size(free),
            if free == 1 { "is" } else { "are" }
        ))),
        Some(free) if need >= DISK_NOTICE_BYTES => tell(Message::Info(format!(
            "the checkpoint '{}' may take up to {:.0} MB of disk (two bytes a value{why}); \
             {:.0} MB are free there",
            path.display(),
            mb(need),
            mb(free)
        ))),
        _ => {}
    }
}

/// A code as a file name: characters other than letters, digits and `._-[]` become `_`.
fn file_safe(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-[]".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect()
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            checkpoint: CheckpointPlace::Default,
            every: Duration::from_secs_f64(DEFAULT_CHECKPOINT_EVERY),
            no_record: false,
            record_after: None,
            db: None,
            results: None,
            tiered: None,
        }
    }
}

/// The shortest time between two checkpoints, in seconds (`--checkpoint-every 1e-9` was
/// accepted). Besides, a run waits at least four times as long as its last save took before
/// the next one ([`grundy::takebreak::checkpoint::run`]), so that saving never takes more than
/// a fifth of the run (saving at every chance made runs 3.5 to 5.5 times slower).
pub const MIN_CHECKPOINT_EVERY: f64 = 0.001;

/// The time between two checkpoints from its text (`--checkpoint-every SECONDS`): a number of
/// seconds from [`MIN_CHECKPOINT_EVERY`] to 10^9.
pub fn checkpoint_every(text: &str) -> Result<Duration> {
    let s: f64 = text.trim().parse().map_err(|_| {
        Error::input(format!(
            "--checkpoint-every '{text}' is not a number of seconds"
        ))
    })?;
    if !(s > 0.0 && s <= 1e9) {
        return Err(Error::input(format!(
            "--checkpoint-every {text} is out of range: give a positive number of seconds"
        )));
    }
    if s < MIN_CHECKPOINT_EVERY {
        return Err(Error::input(format!(
            "--checkpoint-every {text} is too often: at least {MIN_CHECKPOINT_EVERY} seconds \
             between two saves"
        )));
    }
    Ok(Duration::from_secs_f64(s))
}

/// How a front end takes part in a run.
pub struct Hooks<'a> {
    /// Receives what the run has to say (notes, warnings, "resuming from ...").
    pub tell: Tell<'a>,
    /// Set to save the checkpoint and stop: the run then ends with [`Error::Interrupted`].
    pub stop: &'a AtomicBool,
    /// Called once the checkpoint is loaded, when the run keeps one: from then on a stop request
    /// saves the work (the CLI installs its Ctrl-C handler here).
    pub checkpointing: Option<&'a dyn Fn()>,
    /// Called now and then with the number of values computed.
    pub progress: Option<&'a dyn Fn(usize)>,
    /// Called with the progress: the period search so far.
    pub search: Option<&'a dyn Fn(&PeriodDetector)>,
    /// Called with the progress: the largest value so far and the disk the run uses (for the
    /// log line of a run left in the background).
    pub standing: Option<&'a dyn Fn(&Standing)>,
}

/// Where a run stands, besides how far it has got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Standing {
    /// The largest of G(1..) so far and the first heap size where it occurs.
    pub largest: u16,
    pub largest_at: usize,
    /// Bytes of the checkpoint file, when the run keeps one.
    pub checkpoint_bytes: Option<u64>,
    /// With `--results`: the last power of two summarised and how many heaps up to it are
    /// rare (the rare/common engine's split; `None` for a code that engine does not run).
    pub rare: Option<(usize, Option<u64>)>,
    /// How many values the run can compute, G(0..reach): `n + 1`, or where its memory budget
    /// stops it in the width its values are in now (one byte a value holds more of them than
    /// two), for a progress bar and its ETA.
    pub reach: usize,
}

impl Standing {
    /// `largest value 1092 (heap 55986), 5816 rare heaps to 2^20, checkpoint 2.1 MB`.
    pub fn words(&self) -> String {
        let mut s = format!("largest value {} (heap {})", self.largest, self.largest_at);
        if let Some((n, Some(rare))) = self.rare {
            s.push_str(&format!(
                ", {rare} rare heap{} to 2^{}",
                if rare == 1 { "" } else { "s" },
                n.trailing_zeros()
            ));
        }
        if let Some(b) = self.checkpoint_bytes {
            s.push_str(&format!(", checkpoint {:.1} MB", b as f64 / 1e6));
        }
        s
    }
}

/// The default checkpoint of a code and engine: `<user data dir>/grundy/checkpoints/CODE.ENGINE.ckpt`
/// (characters other than letters, digits and `._-[]` in the code become `_`).
pub fn default_checkpoint(rules: &Rules, engine: &Engine) -> Option<PathBuf> {
    dirs::data_dir().map(|d| {
        d.join("grundy")
            .join("checkpoints")
            .join(checkpoint_file_name(rules, engine))
    })
}

/// The name of the checkpoint file of a code and engine in a checkpoint directory:
/// `CODE.ENGINE.ckpt` (see [`default_checkpoint`]).
pub fn checkpoint_file_name(rules: &Rules, engine: &Engine) -> String {
    let code = file_safe(&rules.to_string());
    format!("{code}.{}.ckpt", engine.checkpoint_name())
}

/// A finished run.
pub struct Finished {
    pub computation: Computation,
    pub engine: Engine,
    /// The catalogue row, when the run was recorded.
    pub record_id: Option<i64>,
    /// A tiered run: what it did with its memory.
    pub tiered: Option<grundy::takebreak::tiered::TieredStats>,
    /// How many of the values the run started from (a checkpoint's or a tiered store's); the
    /// engine computed the rest.
    pub resumed: usize,
}

/// How many values a run computes (or half its budget, if less) before it is told that its
/// budget stops it short of `n` ([`crate::sequence::budget_note`]).
const BUDGET_NOTE_AFTER: usize = 1 << 20;

/// Compute G(0..=n) (or until a certified period) as `plan` says: resume from the checkpoint
/// if there is one, save it every `options.every` and when `hooks.stop` is set, report
/// progress, and record the result in the catalogue.
///
/// A checkpoint of another computation or a corrupt one, and a catalogue that cannot be
/// opened, are refused before any work is done.
pub fn run(
    rules: &Rules,
    plan: Plan,
    options: &RunOptions,
    mut engine: Engine,
    hooks: Hooks<'_>,
) -> Result<Finished> {
    let n = plan.n;
    let tell = hooks.tell;
    let tell_all = |notices: Vec<checkpoint::Notice>| {
        for notice in notices {
            tell(notice.into());
        }
    };
    let identity = Identity {
        code: rules.to_string(),
        engine: engine.checkpoint_name().to_string(),
        engine_version: engine.version(),
    };
    // whether the engine reads values in bytes (where they allow): the store a tiered run
    // opens, or a checkpoint is loaded into, is kept that way from the start
    let compact = engine.as_dyn().compact();
    #[cfg(unix)]
    let mut tiered = match &options.tiered {
        Some(t) => Some(open_tiered(
            rules,
            &plan,
            t,
            identity.clone(),
            compact,
            tell,
        )?),
        None => None,
    };
    #[cfg(not(unix))]
    if options.tiered.is_some() {
        return Err(Error::input(
            "tiered storage needs a Unix system (memory-mapped files)",
        ));
    }
    let mut store = match &options.checkpoint {
        _ if options.tiered.is_some() => None,
        CheckpointPlace::Off => None,
        CheckpointPlace::At(p) => Some(Store::chosen(p, identity)?),
        CheckpointPlace::Default => {
            default_checkpoint(rules, &engine).map(|p| Store::default_place(&p, identity))
        }
        CheckpointPlace::DefaultIn(dir) => Some(Store::default_place(
            &dir.join(checkpoint_file_name(rules, &engine)),
            identity,
        )),
    };
    // A run that stops at its first certified period (`--until-period`) has a limit, not a
    // length: most stop within a few thousand values, so only runs to a chosen n are told.
    if let (Some(store), false) = (&store, plan.finish == Finish::AtCertificate) {
        // (what the run can reach: a budget that stops it short of n bounds its file too)
        state_disk_use(store.path(), plan.reach() as u64, tell);
    }
    // told once the run is past the first million values (or half its budget) without a
    // certified period: most periodic games never get there, and need not hear of a limit they
    // will not meet
    let mut budget_note_due = true;
    let sparse = engine.is_sparse();
    // G(0..=n) fits the budget only in one byte a value: the engine keeps them so where the
    // game allows (an Officers-like game too), and says so once the checkpoint and the
    // catalogue are accepted (a refused run says only why)
    let one_byte = plan.needs_one_byte() && options.tiered.is_none();
    if one_byte {
        engine.set_compact_values(true);
    }
    // loaded straight into the store the engine reads: a u16 copy first would take twice a
    // byte store's memory again
    let mut values = Values::new(compact);
    if let Some(store) = &mut store {
        // (with --compact-values, into bytes with a head where the values allow: read into
        // u16 and narrowed, a resume took three bytes a value at its peak)
        let kind = match (engine.compact_values(), compact) {
            (true, _) => Load::Odd8,
            (false, true) => Load::Bytes,
            (false, false) => Load::Wide,
        };
        let (saved, notices) = store.resume_values(n.saturating_add(1), kind)?;
        tell_all(notices);
        if !saved.is_empty() {
            tell(Message::Info(format!(
                "resuming from checkpoint '{}' (G(0..{}) already computed)",
                store.path().display(),
                saved.len() - 1
            )));
        }
        values = saved;
        if let Some(armed) = hooks.checkpointing {
            armed();
        }
    }
    #[cfg(unix)]
    if tiered.is_some() {
        if let Some(armed) = hooks.checkpointing {
            armed();
        }
    }
    // Open the catalogue before the work (a bad --db fails before a long run, not after), and
    // after the checks of the checkpoint (a refused run creates no catalogue).
    // A short run in the default catalogue is recorded only if it turns out long enough: the
    // catalogue is then opened after the work.
    let deferred = options.record_after.is_some()
        && !options.no_record
        && resolve_path(options.db.as_deref()).is_ok_and(|(_, source)| source == Source::Default);
    let catalogue = if deferred {
        None
    } else {
        open_for_recording(options.no_record, options.db.as_deref(), tell)?
    };
    if one_byte {
        tell(Message::Note(crate::sequence::one_byte_note(
            &plan,
            store.is_some(),
        )));
    }
    let checkpoint_path = store.as_ref().map(|s| s.path().to_path_buf());
    let mut save = |v: ValuesRef<'_>| -> Result<(), grundy::Error> {
        if let Some(store) = &mut store {
            tell_all(store.save(v));
        }
        Ok(())
    };
    let mut writer = match &options.results {
        Some(dir) => Some(PowerWriter::new(rules, dir, !options.no_record)?),
        None => None,
    };
    let mut standing = Standing {
        largest: 0,
        largest_at: 0,
        checkpoint_bytes: None,
        rare: None,
        reach: plan.reach(),
    };
    let mut seen = 1; // heap 0 takes part in no standing

    // The budget note is told at a progress tick (where the period search is shown first, and
    // says whether it has certified a period), never at the run's end: a run that finished, or
    // certified its period while replaying a checkpoint, has nothing to be warned of.
    let uncertified_tick = std::cell::Cell::new(false);
    let search = |d: &PeriodDetector| {
        uncertified_tick.set(!d.is_certified());
        if let Some(f) = hooks.search {
            f(d);
        }
    };
    let mut see = |v: ValuesRef<'_>| {
        if uncertified_tick.replace(false)
            && v.len() >= BUDGET_NOTE_AFTER.min(plan.max_values / 2)
            && std::mem::take(&mut budget_note_due)
        {
            // (in the width the values are in now: one byte a value holds more of them)
            if let Some(note) = crate::sequence::budget_note(&plan, sparse, v.value_bytes()) {
                tell(Message::Info(note));
            }
        }
        if let Some(w) = &mut writer {
            w.see(v)?;
            standing.rare = w.last;
            if let Some(cat) = &catalogue {
                w.record(cat, tell);
            }
        }
        if let Some(f) = hooks.standing {
            // a block's largest value (a vectorised pass) first, its position only when it is
            // a new largest: the first tick of a resumed run reads every value it loaded (2^31
            // of them took 1.5 s one by one)
            for from in (seen..v.len()).step_by(1 << 12) {
                let block = v.slice(from..(from + (1 << 12)).min(v.len()));
                let top = match block {
                    ValuesRef::U8(b) => b.iter().copied().max().map(u16::from),
                    ValuesRef::U16(b) => b.iter().copied().max(),
                    ValuesRef::Split(_) => block.iter().max(),
                };
                if top.is_some_and(|top| top > standing.largest) {
                    for (i, g) in block.iter().enumerate() {
                        if g > standing.largest {
                            (standing.largest, standing.largest_at) = (g, from + i);
                        }
                    }
                }
            }
            seen = seen.max(v.len());
            standing.reach = plan.n.saturating_add(1).min(plan.limit(v.value_bytes()));
            standing.checkpoint_bytes = checkpoint_path
                .as_ref()
                .and_then(|p| std::fs::metadata(p).ok())
                .map(|m| m.len());
            f(&standing);
        }
        Ok(())
    };
    let start = Instant::now();
    let control = Control {
        every: options.every,
        save: &mut save,
        stop: hooks.stop,
        progress: hooks.progress,
        search: Some(&search),
        values: Some(&mut see),
    };
    // values the run starts from (a checkpoint's or a tiered store's), not computed by it
    #[cfg(unix)]
    let resumed = match &tiered {
        Some((_, stored)) => stored.len(),
        None => values.len(),
    };
    #[cfg(not(unix))]
    let resumed = values.len();
    let outcome = match () {
        #[cfg(unix)]
        () if tiered.is_some() => {
            let (store, stored) = tiered.as_mut().expect("a tiered run");
            let stored = std::mem::take(stored);
            grundy::takebreak::tiered::run(rules, store, stored, plan, engine.as_dyn(), control)
        }
        () => checkpoint::run_values(rules, values, plan, engine.as_dyn(), control),
    };
    let seconds = start.elapsed().as_secs_f64();
    #[cfg(unix)]
    let tiered_place = tiered
        .as_ref()
        .map(|(s, _)| (s.dir().to_path_buf(), s.on_file()));
    #[cfg(not(unix))]
    let tiered_place: Option<(PathBuf, usize)> = None;
    let computation = match outcome? {
        Outcome::Interrupted(done) => {
            return Err(Error::Interrupted(match (&store, &tiered_place) {
                (Some(s), _) if s.on_file() >= done => format!(
                    "interrupted: G(0..{}) saved to '{}'; run the same command again to resume",
                    done - 1,
                    s.path().display()
                ),
                (_, Some((dir, on_file))) if *on_file >= done && done > 0 => format!(
                    "interrupted: G(0..{}) saved in the tiered store '{}'; run the same command \
                     again to resume",
                    done - 1,
                    dir.display()
                ),
                _ => "interrupted (nothing saved)".into(),
            }));
        }
        Outcome::OverBudget(done, value_bytes) => {
            return Err(Error::input(format!(
                "{}G(0..={n}) needs more memory than allowed ({} values, about {} MB in {}; \
                 see --max-memory, or --tiered DIR){}",
                if plan.finish == Finish::ComputeAll {
                    format!("stopped after G(0..{}): ", done.saturating_sub(1))
                } else {
                    format!("no period certified among the first {done} values, and ")
                },
                n as u128 + 1,
                grundy::takebreak::budget::bytes_in(n.saturating_add(1), value_bytes) >> 20,
                if value_bytes == 1 {
                    "one byte a value"
                } else {
                    "two bytes a value, as its values need"
                },
                match &store {
                    Some(s) if done > 0 && s.on_file() >= done =>
                        format!("; they are saved to '{}'", s.path().display()),
                    _ => String::new(),
                }
            )))
        }
        Outcome::Finished(c) => c,
    };
    if let Some(store) = &mut store {
        tell_all(store.finish(&computation.values));
    }
    if let Some(choices) = engine.choices() {
        tell(Message::Note(format!("engine auto: {choices}")));
    }
    let catalogue = match (catalogue, options.record_after) {
        (None, Some(after)) if deferred && seconds >= after.as_secs_f64() => {
            open_for_recording(false, options.db.as_deref(), tell)?
        }
        (c, _) => c,
    };
    if let (Some(w), Some(cat)) = (&mut writer, &catalogue) {
        w.record(cat, tell);
    }
    let record_id = catalogue.as_ref().and_then(|cat| {
        cat.record_or_warn(
            &record_of(rules, &computation, &engine, seconds, plan.finish),
            tell,
        )
    });
    #[cfg(unix)]
    let tiered = tiered.map(|(s, _)| s.stats());
    #[cfg(not(unix))]
    let tiered = None;
    Ok(Finished {
        computation,
        engine,
        record_id,
        tiered,
        resumed,
    })
}

/// Open the tiered store of a run: the RAM bound's policy, the disk it may take (said up front,
/// and refused when the file system has less free), and the values it already holds.
#[cfg(unix)]
fn open_tiered(
    rules: &Rules,
    plan: &Plan,
    t: &Tiered,
    identity: Identity,
    compact: bool,
    tell: Tell<'_>,
) -> Result<(
    grundy::takebreak::tiered::TieredStore,
    grundy::takebreak::Values,
)> {
    use grundy::takebreak::tiered::{disk_bound, TierPolicy, TieredStore};
    let policy = TierPolicy::for_memory(t.memory, 2).map_err(|e| Error::input(e.to_string()))?;
    if !t.dir.is_dir() {
        return Err(Error::input(format!(
            "--tiered '{}': no such directory (create it first)",
            t.dir.display()
        )));
    }
    let need = disk_bound(plan.n, compact);
    let mb = |b: u64| b as f64 / 1e6;
    let said = match free_bytes(&t.dir) {
        Some(free) if free < need => {
            return Err(Error::input(format!(
                "--tiered '{}': the run to n = {} may need {:.0} MB of disk, but only {:.0} MB \
                 are free there",
                t.dir.display(),
                plan.n,
                mb(need),
                mb(free)
            )))
        }
        free => format!(
            "tiered store '{}': up to {:.0} MB of disk for G(0..={}){}; {:.0} MB of RAM \
             ({} values kept at each end)",
            t.dir.display(),
            mb(need),
            plan.n,
            free.map_or(String::new(), |f| format!(" ({:.0} MB free)", mb(f))),
            mb(t.memory),
            policy.keep
        ),
    };
    // said once the store is open: a refused store is one line
    let (store, values, notices) = TieredStore::open(&t.dir, identity, rules, compact, policy)?;
    tell(Message::Info(said));
    for notice in notices {
        tell(notice.into());
    }
    Ok((store, values))
}

/// The period search in a few words: the best candidate and how far its certificate has got,
/// or the certified period (a run that computes every value goes on past its certificate: 0.16
/// with `--no-extend` used to show its period as a candidate "210076.5% there").
pub fn search_words(detector: &PeriodDetector) -> String {
    match detector.candidate() {
        None => "period search: no candidate".into(),
        Some(c) if detector.is_certified() => format!(
            "period {} from {}, certified at n = {}",
            c.period, c.preperiod, c.certificate_at
        ),
        Some(c) => format!(
            "period search: candidate period {} from {}, certificate at n = {} ({:.1}% there)",
            c.period,
            c.preperiod,
            c.certificate_at,
            100.0 * detector.len() as f64 / (c.certificate_at + 1) as f64
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_period_search_is_said_as_it_stands() {
        let rules = Rules::parse("0.07").unwrap();
        let g = grundy::takebreak::naive::sequence_of(&rules, 400).unwrap();
        let mut d = PeriodDetector::for_rules(&rules);
        assert_eq!(search_words(&d), "period search: no candidate");
        let mut k = 0;
        while !d.is_certified() {
            d.push_from(&g[..=k]);
            k += 1;
            if k == 120 {
                let words = search_words(&d);
                assert!(
                    words.starts_with("period search: candidate period 34 from "),
                    "{words}"
                );
            }
        }
        assert_eq!(search_words(&d), "period 34 from 53, certified at n = 175");
    }

    /// Regression (issue 27): `--checkpoint-every 1e-9` was accepted (and, saving at every
    /// chance, slowed runs 3.5 to 5.5 times; the cost of saves is now bounded by the run).
    #[test]
    fn checkpoints_have_a_least_interval() {
        let e = checkpoint_every("1e-9").unwrap_err().to_string();
        assert!(
            e.contains("too often") && e.contains("at least 0.001 seconds"),
            "{e}"
        );
        assert!(checkpoint_every("0").is_err());
        assert!(checkpoint_every("nan").is_err());
        assert_eq!(checkpoint_every("1").unwrap(), Duration::from_secs(1));
        assert_eq!(
            checkpoint_every("2.5").unwrap(),
            Duration::from_millis(2500)
        );
    }

    /// The disk a checkpoint may take is said up front for long runs, and a file system with
    /// less room than that gets a warning naming the ways out.
    #[test]
    fn checkpoint_disk_use_is_stated_and_checked_against_free_space() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.ckpt");
        let said = std::sync::Mutex::new(Vec::new());
        let tell = |m: Message| said.lock().unwrap().push(m);
        state_disk_use(&path, 1000, &tell);
        assert!(said.lock().unwrap().is_empty(), "a small run says nothing");
        state_disk_use(&path, 1 << 60, &tell);
        match said.lock().unwrap().pop() {
            Some(Message::Warning(w)) => {
                assert!(
                    w.contains("MB are free there") && w.contains("--no-checkpoint"),
                    "{w}"
                )
            }
            other => panic!("{other:?}"),
        }
        // a file already there holds part of what is needed, and the warning says how much
        std::fs::write(&path, vec![7u8; 2_000_000]).unwrap();
        state_disk_use(&path, 1 << 60, &tell);
        match said.lock().unwrap().pop() {
            Some(Message::Warning(w)) => {
                assert!(w.contains("2 MB of it held by the file there now"), "{w}")
            }
            other => panic!("{other:?}"),
        }
        std::fs::remove_file(&path).unwrap();
        // a file system with no room at all (Linux's /proc): sizes below a MB in bytes
        #[cfg(target_os = "linux")]
        if free_bytes(std::path::Path::new("/proc")) == Some(0) {
            state_disk_use(std::path::Path::new("/proc/x.ckpt"), 100, &tell);
            match said.lock().unwrap().pop() {
                Some(Message::Warning(w)) => assert!(
                    w.contains(&format!("may need {} bytes", checkpoint_disk_bound(100, 0)))
                        && w.contains("only 0 bytes are free there"),
                    "{w}"
                ),
                other => panic!("{other:?}"),
            }
        }
        let free = free_bytes(dir.path()).unwrap();
        if free > checkpoint_disk_bound(200_000_000, 0) + (1 << 20) {
            state_disk_use(&path, 200_000_000, &tell);
            match said.lock().unwrap().pop() {
                Some(Message::Info(i)) => assert!(
                    i.contains("may take up to 400 MB of disk (two bytes a value)"),
                    "{i}"
                ),
                other => panic!("{other:?}"),
            }
            // a file of format 1 there is rewritten whole beside itself once
            std::fs::write(&path, vec![7u8; 1 << 20]).unwrap();
            state_disk_use(&path, 200_000_000, &tell);
            match said.lock().unwrap().pop() {
                Some(Message::Info(i)) => assert!(
                    i.contains("may take up to 401 MB") && i.contains("until the first save"),
                    "{i}"
                ),
                other => panic!("{other:?}"),
            }
            std::fs::remove_file(&path).unwrap();
        }
    }

    /// `--results DIR` with a catalogue: every summary written is also a row of the
    /// catalogue's `power_summaries`, equal to the library's summary of the values, and the log
    /// line reports the rare heaps at the last power passed.
    #[test]
    fn results_go_into_the_catalogue_and_the_log_line() {
        use crate::EngineChoice;
        use grundy::takebreak::{powers, Finish};
        let base = tempfile::tempdir().unwrap();
        let db = base.path().join("cat.sqlite3");
        let rules: Rules = "0.146".parse::<grundy::takebreak::Code>().unwrap().into();
        let options = RunOptions {
            checkpoint: CheckpointPlace::Off,
            db: Some(db.clone()),
            results: Some(base.path().join("res")),
            ..RunOptions::default()
        };
        let stop = AtomicBool::new(false);
        let quiet = |_m: Message| {};
        let words = std::cell::RefCell::new(String::new());
        let standing = |s: &Standing| *words.borrow_mut() = s.words();
        let hooks = Hooks {
            tell: &quiet,
            stop: &stop,
            checkpointing: None,
            progress: None,
            search: None,
            standing: Some(&standing),
        };
        let engine = Engine::choose(EngineChoice::Sparse, &rules).unwrap();
        let done = run(
            &rules,
            Plan::new(20_000, Finish::ComputeAll),
            &options,
            engine,
            hooks,
        )
        .unwrap();
        let values = done.computation.values.to_vec();
        let (_, rows) = crate::power_table::list(Some(&db), Some("0.146")).unwrap();
        let ns: Vec<u64> = rows.iter().map(|r| r.n).collect();
        assert_eq!(ns, [1024, 2048, 4096, 8192, 16384]);
        for r in &rows {
            let s = powers::summary(&rules, &values[..=r.n as usize]).unwrap();
            assert_eq!(
                *r,
                crate::power_table::PowerRecord {
                    recorded_at: r.recorded_at.clone(),
                    ..crate::power_table::PowerRecord::of(&s)
                }
            );
        }
        let last = rows.last().unwrap().rare_count.unwrap();
        assert!(last > 0);
        let w = words.borrow().clone();
        assert!(w.contains(&format!("{last} rare heaps to 2^14")), "{w}");
    }

    /// `--results DIR`: a file for every power of two from 1024 that the run passes, each the
    /// library's summary of the values up to it; a run stopped and resumed writes the same files.
    #[test]
    fn results_are_written_at_every_power_of_two_and_survive_a_resume() {
        use crate::EngineChoice;
        use grundy::takebreak::{powers, Finish};
        use std::sync::atomic::Ordering;
        let base = std::env::temp_dir().join(format!("grundy-results-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&base);
        let rules: Rules = "0.146".parse::<grundy::takebreak::Code>().unwrap().into();
        let n = 40_000;
        let run_to = |dir: &str, stop_first: bool| {
            let options = RunOptions {
                checkpoint: CheckpointPlace::At(base.join(format!("{dir}.ckpt"))),
                no_record: true,
                results: Some(base.join(dir)),
                ..RunOptions::default()
            };
            let stop = AtomicBool::new(stop_first);
            let quiet = |_m: Message| {};
            let engine = Engine::choose(EngineChoice::Sparse, &rules).unwrap();
            let hooks = Hooks {
                tell: &quiet,
                stop: &stop,
                checkpointing: None,
                progress: None,
                search: None,
                standing: None,
            };
            let r = run(
                &rules,
                Plan::new(n, Finish::ComputeAll),
                &options,
                engine,
                hooks,
            );
            stop.store(false, Ordering::SeqCst);
            r
        };
        std::fs::create_dir_all(&base).unwrap();
        let one = run_to("one", false).unwrap();
        // stopped at the first chance (after 4096 values), then resumed
        assert!(matches!(run_to("two", true), Err(Error::Interrupted(_))));
        // a file someone left in the folder is not taken on trust: the resumed run rewrites it
        std::fs::write(
            base.join("two").join("0.146").join("1024.txt"),
            "# forged\n0 1024\n",
        )
        .unwrap();
        run_to("two", false).unwrap();
        let values = &one.computation.values.to_vec();
        let mut names: Vec<String> = std::fs::read_dir(base.join("one").join("0.146"))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort_by_key(|s| s.trim_end_matches(".txt").parse::<usize>().unwrap());
        assert_eq!(
            names,
            [
                "1024.txt",
                "2048.txt",
                "4096.txt",
                "8192.txt",
                "16384.txt",
                "32768.txt"
            ]
        );
        for name in &names {
            let p: usize = name.trim_end_matches(".txt").parse().unwrap();
            let prefix = ValuesRef::from(&values[..=p]);
            let want = powers::summary(&rules, prefix).unwrap().text(prefix);
            let got = std::fs::read_to_string(base.join("one").join("0.146").join(name)).unwrap();
            assert_eq!(got, want, "{name}");
            let resumed =
                std::fs::read_to_string(base.join("two").join("0.146").join(name)).unwrap();
            assert_eq!(resumed, want, "{name} after a resume");
        }
        let _ = std::fs::remove_dir_all(&base);
    }
}
