//! Tiered storage (issue 25): a run whose values live in a file mapped into memory, with the
//! process's RAM bounded, and the file itself as the checkpoint.
//!
//! # Why this design
//! The engines read the values only through one contiguous slice `g: &[V]`, and a heap `n`
//! reads `G(i)` near `n`, at the rare positions, and (in the witness search) in stretches all
//! over `1..n`. Rather than teach every engine a second, chunked path with its own "is this in
//! RAM?" check, the slice *is* a shared mapping of the values file
//! ([`super::mapped::MappedVec`]): a read of a value that is not in RAM is a page fault that
//! the kernel serves from the page cache or from the disk. Every read is therefore correct —
//! the slow path is the kernel's and it is taken whenever it is needed, including the full
//! scans that prove a rare value far past the first and last `M` values. Nothing assumes that
//! the middle is not read.
//!
//! # The RAM bound
//! A thread of the store (the *tender*) looks at the process's resident set every
//! [`TierPolicy::period`] (a quarter of it once the set is past three quarters of the limit;
//! each look is one `pread` of `/proc/self/statm`, [`mapped::ResidentProbe`]) and, when it is
//! above [`TierPolicy::resident_limit`], drops the
//! process's mapping of the middle — every page of `G(keep..len - keep)` — with
//! `madvise(MADV_DONTNEED)`. On a shared file mapping this loses nothing (a written page goes
//! to the page cache as dirty, and to the file), so the first and the last `keep` values stay
//! resident and the middle is read again, when it is, from the page cache or the disk. The
//! resident set can pass the limit between two looks by what the run maps in that time (a full
//! scan maps pages as fast as it reads them); the benchmark measures the peak
//! (`docs/performance.md`, "Tiered storage"). Work that reads the whole sequence for every
//! value is therefore avoided where there is a choice: the run tells its engine how many
//! values are resident at each end ([`SequenceEngine::keep_reads_near`]), and the automatic
//! engine stops trying the naive engine past twice that. How often the middle was read is reported, not
//! assumed: the process's page faults during the run (minor: from the page cache; major: from
//! the disk) and the number of releases ([`TieredStats`]).
//!
//! # The checkpoint is the file
//! The values file is written in place as the run goes; at each checkpoint tick the values
//! appended since the last one are written to disk (`msync`, then `fdatasync`) and a small
//! state file is written atomically beside it: the identity (code, engine, version), the width
//! (1 or 2 bytes per value), how many values are on disk, and a CRC-32 per chunk of
//! [`CRC_CHUNK`] values (of the values as little-endian `u16`, so that widening the file
//! changes none), the whole state under a CRC of its own. A run killed at any moment (SIGKILL
//! included) leaves a state that describes values that are on disk, so it loses at most the
//! values since the last tick; resuming maps the file and continues — no rewrite.
//!
//! Resuming trusts the file only as far as it can prove: the state must be intact and of the
//! same computation (else the run is refused in one line); the chunks are read back and
//! checked against their CRCs, and the values are trusted up to the first chunk that fails
//! (said in a note); then the checks of a loaded checkpoint apply
//! ([`super::checkpoint::check_values_of`]: the first 8,192 values recomputed, every value at
//! most what the values before it allow, the last 64 and a random sample checked as the mex of
//! their options), and values that fail them refuse the run.
//!
//! The one-time move to two bytes per value (0.146 at heap 5,305) writes `values.u16` beside
//! `values.u8`; the byte file is removed once a state naming the new one is on disk.

use super::checkpoint::{
    check_split_values, check_values_releasing, write_atomically, CheckpointError, Identity, Lock,
};
use super::checkpoint::{Control, Notice, Outcome, Ticks};
use super::driver::{drive_values, Ended, Plan};
use super::engine::SequenceEngine;
use super::mapped::{self, values_path, MappedVec, SharedView};
use super::rules::Rules;
use super::values::{Buf, Values, ValuesRef};
use crate::Error;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Values per CRC of the state file.
pub const CRC_CHUNK: usize = 1 << 20;
/// The state file's name in the store directory.
pub const STATE_FILE: &str = "state";
/// Version of the state file's layout.
pub const STATE_FORMAT: u32 = 1;
/// The first line of a state file.
const STATE_MAGIC: &str = "grundy tiered store";

/// Memory a tiered run needs besides the values it keeps resident: the program, the engine's
/// state, the period detector (a fixed allowance).
pub const ALLOWANCE_BYTES: u64 = 16 << 20;
/// The least number of bytes kept resident at each end of the values.
pub const MIN_KEEP_BYTES: u64 = 2 << 20;

/// How the store keeps the process's RAM bounded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TierPolicy {
    /// Values kept resident at each end: G(0..keep) and the last `keep`.
    pub keep: usize,
    /// Release the middle when the resident set is above this many bytes (`None`: at every
    /// look, whatever it is — tests, to make sure the middle is read back).
    pub resident_limit: Option<u64>,
    /// Time between two looks at the resident set.
    pub period: Duration,
}

impl TierPolicy {
    /// The policy for a run allowed `memory` bytes of RAM with values of `value_bytes` bytes
    /// (2 is the safe choice: a byte store keeps twice as many values). Of what is left after
    /// [`ALLOWANCE_BYTES`], a quarter is kept resident at the two ends (`M` = an eighth at
    /// each), a quarter is the middle's working set, and half is headroom: the middle is
    /// released when the resident set passes the allowance plus half of the rest, and the
    /// headroom absorbs what a fast scan of the whole sequence (a rare value's proof, a
    /// rebuild of the rare positions) maps before the tender's next look — about 25 MB in 2 ms
    /// measured on 0.16 (see `docs/performance.md`). Refused when `memory` leaves less than
    /// [`MIN_KEEP_BYTES`] for each end.
    pub fn for_memory(memory: u64, value_bytes: usize) -> Result<TierPolicy, Error> {
        let least = ALLOWANCE_BYTES + 8 * MIN_KEEP_BYTES;
        if memory < least {
            return Err(Error::Invalid(format!(
                "--max-memory {} is too small for a tiered run: at least {} MB (a fixed {} MB \
                 for the program and the engine, {} MB for each end of the values and as much \
                 again for the middle's reads and headroom)",
                super::budget::size_words(memory),
                least >> 20,
                ALLOWANCE_BYTES >> 20,
                MIN_KEEP_BYTES >> 20,
            )));
        }
        let rest = memory - ALLOWANCE_BYTES;
        Ok(TierPolicy {
            keep: (rest / 8 / value_bytes.max(1) as u64) as usize,
            resident_limit: Some(ALLOWANCE_BYTES + rest / 2),
            period: Duration::from_millis(2),
        })
    }
}

/// What a tiered run did with its memory (see the module docs).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct TieredStats {
    /// Values kept resident at each end.
    pub keep: usize,
    /// Times the middle was released.
    pub releases: u64,
    /// Bytes released, summed over the releases.
    pub released_bytes: u64,
    /// Page faults of the process during the run served from the page cache (a read of a
    /// released page, or of a page never mapped before).
    pub minor_faults: u64,
    /// Page faults of the process during the run that read the disk.
    pub major_faults: u64,
    /// The process's peak resident set so far (bytes), where the system says.
    pub peak_resident_bytes: Option<u64>,
    /// Values taken from the store when the run started (0: a new store).
    pub resumed_from: usize,
}

/// The thread that keeps the resident set bounded (see the module docs).
#[derive(Debug)]
struct Tender {
    stop: Arc<AtomicBool>,
    releases: Arc<AtomicU64>,
    released: Arc<AtomicU64>,
    handle: Option<std::thread::JoinHandle<()>>,
}

impl Tender {
    fn start(view: SharedView, policy: &TierPolicy) -> Tender {
        let stop = Arc::new(AtomicBool::new(false));
        let releases = Arc::new(AtomicU64::new(0));
        let released = Arc::new(AtomicU64::new(0));
        let (s, r, b) = (stop.clone(), releases.clone(), released.clone());
        let (keep, limit, period) = (policy.keep, policy.resident_limit, policy.period);
        let handle = std::thread::Builder::new()
            .name("grundy-tender".into())
            .spawn(move || {
                let mut probe = mapped::ResidentProbe::open();
                let mut near = false;
                while !s.load(Ordering::Relaxed) {
                    // a quarter of the period once past three quarters of the limit: a fast
                    // scan maps pages at ~10 MB per ms, and the limit's headroom is finite
                    std::thread::sleep(if near { period / 4 } else { period });
                    let rss = probe.as_mut().and_then(|p| p.bytes());
                    let over = match limit {
                        None => true,
                        Some(l) => {
                            near = rss.is_some_and(|rss| rss > l - l / 4);
                            rss.is_some_and(|rss| rss > l)
                        }
                    };
                    if over {
                        let v = view.lock().unwrap_or_else(|e| e.into_inner());
                        let bytes = v.release(keep, v.len.saturating_sub(keep));
                        if bytes > 0 {
                            r.fetch_add(1, Ordering::Relaxed);
                            b.fetch_add(bytes, Ordering::Relaxed);
                        }
                    }
                }
            })
            .ok();
        Tender {
            stop,
            releases,
            released,
            handle,
        }
    }
}

impl Drop for Tender {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

/// The state file's contents.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct State {
    format: u32,
    code: String,
    engine: String,
    engine_version: u32,
    value_bytes: usize,
    count: usize,
    crc_chunk: usize,
    /// CRC-32 of each chunk of `crc_chunk` values as little-endian u16 (the last one partial).
    crcs: Vec<u32>,
}

impl State {
    fn text(&self) -> String {
        let body = serde_json::to_string(self).expect("a state serialises");
        let crc = crc32fast::hash(body.as_bytes());
        format!("{STATE_MAGIC}\n{body}\ncrc32 {crc:08x}\n")
    }

    fn parse(text: &str) -> Result<State, String> {
        let mut lines = text.lines();
        if lines.next() != Some(STATE_MAGIC) {
            return Err("not a grundy tiered store's state file".into());
        }
        let body = lines.next().ok_or("truncated")?;
        let crc = lines
            .next()
            .and_then(|l| l.strip_prefix("crc32 "))
            .and_then(|h| u32::from_str_radix(h, 16).ok())
            .ok_or("truncated")?;
        if crc32fast::hash(body.as_bytes()) != crc {
            return Err("checksum mismatch".into());
        }
        let state: State = serde_json::from_str(body).map_err(|e| format!("unreadable: {e}"))?;
        if state.format != STATE_FORMAT {
            return Err(format!(
                "state format {}, this program reads format {STATE_FORMAT}",
                state.format
            ));
        }
        if !(state.value_bytes == 1 || state.value_bytes == 2)
            || state.crc_chunk == 0
            || state.crcs.len() != state.count.div_ceil(state.crc_chunk)
        {
            return Err("inconsistent".into());
        }
        Ok(state)
    }
}

/// The CRC-32 of `values` as little-endian u16.
fn crc_of(values: ValuesRef<'_>) -> u32 {
    let mut h = crc32fast::Hasher::new();
    let mut buf = Vec::with_capacity(2 * 4096);
    for start in (0..values.len()).step_by(4096) {
        buf.clear();
        for v in values.slice(start..(start + 4096).min(values.len())).iter() {
            buf.extend_from_slice(&v.to_le_bytes());
        }
        h.update(&buf);
    }
    h.finalize()
}

/// The most disk a tiered run to `n` takes: two bytes per value, one more per value for the
/// byte file while a byte store is widened (both files exist until the next save), the room
/// the file grows by ahead of the values (an eighth, at least [`mapped::GROW_BYTES`]; given
/// back when the run ends), and the state (a few bytes per [`CRC_CHUNK`] values).
pub fn disk_bound(n: usize, compact: bool) -> u64 {
    let values = n as u64 + 1;
    let bytes = if compact { 3 } else { 2 };
    let ahead = (2 * values / 8).max(mapped::GROW_BYTES) + mapped::GROW_BYTES;
    values.saturating_mul(bytes) + ahead + 4096 + 12 * (values / CRC_CHUNK as u64 + 1)
}

/// A tiered run's store: a directory holding the values file (`values.u8` or `values.u16`)
/// and its state (`state`), locked by this process.
#[derive(Debug)]
pub struct TieredStore {
    dir: PathBuf,
    identity: Identity,
    policy: TierPolicy,
    _lock: Lock,
    view: SharedView,
    tender: Option<Tender>,
    /// The state on disk.
    state: State,
    faults_at_start: (u64, u64),
    resumed_from: usize,
}

fn refuse(dir: &Path, reason: impl std::fmt::Display) -> Error {
    CheckpointError::Corrupt {
        path: dir.join(STATE_FILE).display().to_string(),
        reason: reason.to_string(),
    }
    .into()
}

fn read_values_at(
    file: &std::fs::File,
    width: usize,
    from: usize,
    to: usize,
    buf: &mut Vec<u8>,
) -> std::io::Result<Vec<u16>> {
    use std::os::unix::fs::FileExt;
    buf.resize((to - from) * width, 0);
    file.read_exact_at(buf, (from * width) as u64)?;
    Ok(if width == 1 {
        buf.iter().map(|&b| u16::from(b)).collect()
    } else {
        buf.chunks_exact(2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
            .collect()
    })
}

impl TieredStore {
    /// Open the store in `dir` (which must exist) for the computation `identity` of `rules`:
    /// resume from its values as far as they are proved (see the module docs), or start an
    /// empty one (in bytes when `compact`). The values come back as a mapped store for
    /// [`run`]; the notes say what was trusted.
    pub fn open(
        dir: &Path,
        identity: Identity,
        rules: &Rules,
        compact: bool,
        policy: TierPolicy,
    ) -> Result<(TieredStore, Values, Vec<Notice>), Error> {
        let meta = std::fs::metadata(dir).map_err(|e| {
            Error::Invalid(format!(
                "tiered store '{}': {}",
                dir.display(),
                if e.kind() == std::io::ErrorKind::NotFound {
                    "no such directory (create it first)".to_string()
                } else {
                    e.to_string()
                }
            ))
        })?;
        if !meta.is_dir() {
            return Err(Error::Invalid(format!(
                "tiered store '{}' is not a directory",
                dir.display()
            )));
        }
        let state_path = dir.join(STATE_FILE);
        let lock = Lock::try_acquire(&state_path)?.ok_or_else(|| {
            Error::Invalid(format!(
                "tiered store '{}' is in use by another run",
                dir.display()
            ))
        })?;
        let mut notices = Vec::new();
        let faults_at_start = mapped::page_faults();
        let view: SharedView = Default::default();
        let saved = match std::fs::read(&state_path) {
            Ok(bytes) => {
                let text = String::from_utf8(bytes).map_err(|_| refuse(dir, "not text"))?;
                Some(State::parse(&text).map_err(|r| refuse(dir, r))?)
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(refuse(dir, e)),
        };
        let empty_state = |value_bytes: usize| State {
            format: STATE_FORMAT,
            code: identity.code.clone(),
            engine: identity.engine.clone(),
            engine_version: identity.engine_version,
            value_bytes,
            count: 0,
            crc_chunk: CRC_CHUNK,
            crcs: Vec::new(),
        };
        let mut store = TieredStore {
            dir: dir.to_path_buf(),
            identity: identity.clone(),
            policy,
            _lock: lock,
            view,
            tender: None,
            state: empty_state(if compact { 1 } else { 2 }),
            faults_at_start,
            resumed_from: 0,
        };
        let Some(state) = saved else {
            if values_path::<u8>(dir).exists() || values_path::<u16>(dir).exists() {
                notices.push(Notice::Note(format!(
                    "tiered store '{}': values without a state (a run stopped before its first \
                     save) are not trusted; starting over",
                    dir.display()
                )));
            }
            let _ = std::fs::remove_file(values_path::<u8>(dir));
            let _ = std::fs::remove_file(values_path::<u16>(dir));
            let values = store.fresh(compact)?;
            store.save_state()?;
            return Ok((store, values, notices));
        };
        let theirs = Identity {
            code: state.code.clone(),
            engine: state.engine.clone(),
            engine_version: state.engine_version,
        };
        if theirs != identity {
            return Err(CheckpointError::Mismatch {
                path: state_path.display().to_string(),
                reason: format!(
                    "it holds {} with engine {} v{}, this run is {} with engine {} v{}",
                    theirs.code,
                    theirs.engine,
                    theirs.engine_version,
                    identity.code,
                    identity.engine,
                    identity.engine_version
                ),
            }
            .into());
        }
        // The values on disk, as far as their CRCs prove them.
        let width = state.value_bytes;
        let path = if width == 1 {
            values_path::<u8>(dir)
        } else {
            values_path::<u16>(dir)
        };
        let file = std::fs::File::open(&path).map_err(|e| {
            refuse(
                dir,
                format!("its values file '{}' cannot be read: {e}", path.display()),
            )
        })?;
        let on_disk = file.metadata().map(|m| m.len()).unwrap_or(0) as usize / width;
        let mut trusted = 0;
        let mut buf = Vec::new();
        for (i, &crc) in state.crcs.iter().enumerate() {
            let from = i * state.crc_chunk;
            let to = ((i + 1) * state.crc_chunk).min(state.count);
            if to > on_disk {
                break;
            }
            let values = read_values_at(&file, width, from, to, &mut buf)
                .map_err(|e| refuse(dir, format!("cannot read '{}': {e}", path.display())))?;
            if crc_of(ValuesRef::U16(&values)) != crc {
                break;
            }
            trusted = to;
        }
        drop(file);
        if trusted < state.count {
            notices.push(Notice::Note(format!(
                "tiered store '{}': the values file holds G(0..{}) intact of the {} its state \
                 records (damaged or cut short); the rest is computed again",
                dir.display(),
                trusted,
                state.count
            )));
        }
        store.state = state;
        let mut values = if width == 1 {
            let mut m = MappedVec::<u8>::open(dir, trusted)?;
            m.tend(store.view.clone());
            Values::U8(Buf::Mapped(m))
        } else {
            let mut m = MappedVec::<u16>::open(dir, trusted)?;
            m.tend(store.view.clone());
            Values::U16(Buf::Mapped(m))
        };
        store.publish(trusted);
        store.start_tender();
        // the checks read the whole file: its middle is given back as they go
        let (view, keep) = (store.view.clone(), store.policy.keep);
        let release = move |from: usize, to: usize| {
            let v = view.lock().unwrap_or_else(|e| e.into_inner());
            v.release(from.max(keep), to.min(trusted.saturating_sub(keep)));
        };
        let checked = match values.as_ref() {
            ValuesRef::U8(g) => check_values_releasing(rules, g, &release),
            ValuesRef::U16(g) => check_values_releasing(rules, g, &release),
            // (a values file is mapped as bytes or u16, never as this store)
            // (never a tiered store's own; read where it is, as a resume does)
            ValuesRef::Split(split) => check_split_values(rules, split),
        };
        if let Err(reason) = checked {
            return Err(CheckpointError::Untrue {
                path: path.display().to_string(),
                reason,
            }
            .into());
        }
        if trusted < store.state.count {
            values.truncate(trusted);
            store.save(values.as_ref())?;
        }
        store.resumed_from = trusted;
        if trusted > 0 {
            notices.push(Notice::Note(format!(
                "resuming from tiered store '{}' (G(0..{}) already computed)",
                dir.display(),
                trusted - 1
            )));
        }
        Ok((store, values, notices))
    }

    fn fresh(&mut self, compact: bool) -> Result<Values, Error> {
        let values = if compact {
            let mut m = MappedVec::<u8>::create(&self.dir, 1)?;
            m.tend(self.view.clone());
            Values::U8(Buf::Mapped(m))
        } else {
            let mut m = MappedVec::<u16>::create(&self.dir, 1)?;
            m.tend(self.view.clone());
            Values::U16(Buf::Mapped(m))
        };
        self.start_tender();
        Ok(values)
    }

    fn start_tender(&mut self) {
        if self.tender.is_none() {
            self.tender = Some(Tender::start(self.view.clone(), &self.policy));
        }
    }

    /// Tell the tender how many values are written (it releases only below the last `keep`).
    fn publish(&self, len: usize) {
        self.view.lock().unwrap_or_else(|e| e.into_inner()).len = len;
    }

    /// The store's directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// How many values the state on disk vouches for.
    pub fn on_file(&self) -> usize {
        self.state.count
    }

    /// The policy.
    pub fn policy(&self) -> &TierPolicy {
        &self.policy
    }

    /// What the run did with its memory so far.
    pub fn stats(&self) -> TieredStats {
        let (minor, major) = mapped::page_faults();
        let (releases, released_bytes) = self.tender.as_ref().map_or((0, 0), |t| {
            (
                t.releases.load(Ordering::Relaxed),
                t.released.load(Ordering::Relaxed),
            )
        });
        TieredStats {
            keep: self.policy.keep,
            releases,
            released_bytes,
            minor_faults: minor - self.faults_at_start.0,
            major_faults: major - self.faults_at_start.1,
            peak_resident_bytes: mapped::peak_resident_bytes(),
            resumed_from: self.resumed_from,
        }
    }

    fn save_state(&self) -> Result<(), Error> {
        let text = self.state.text();
        let path = self.dir.join(STATE_FILE);
        write_atomically(&path, |f| std::io::Write::write_all(f, text.as_bytes())).map_err(|e| {
            Error::Invalid(format!(
                "tiered store '{}': cannot save the state: {e}",
                self.dir.display()
            ))
        })
    }

    /// Make `values` (the store's own, G(0..len)) durable: write the values appended since
    /// the last save to disk, then the state naming them (atomically). A byte file left by the
    /// move to two bytes per value is removed once the state names the new one.
    pub fn save(&mut self, values: ValuesRef<'_>) -> Result<(), Error> {
        self.publish(values.len());
        let width = match values {
            ValuesRef::U8(_) => 1,
            ValuesRef::U16(_) => 2,
            ValuesRef::Split(_) => {
                return Err(Error::Invalid(
                    "a tiered run keeps its values in a file of bytes or u16 values, \
                     not in bytes with a head"
                        .into(),
                ))
            }
        };
        let len = values.len();
        let path = if width == 1 {
            values_path::<u8>(&self.dir)
        } else {
            values_path::<u16>(&self.dir)
        };
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .map_err(|e| Error::Invalid(format!("'{}': {e}", path.display())))?;
        // The mapping's written pages are the page cache's (a shared mapping marks a page dirty
        // at its first write after each writeback): the file's data sync writes them.
        file.sync_data().map_err(|e| {
            Error::Invalid(format!(
                "'{}': cannot write it to disk: {e}",
                path.display()
            ))
        })?;
        // CRCs: the chunks that changed since the last state (the last one, partial, and any
        // completed since)
        let chunk = CRC_CHUNK;
        let kept = (self.state.count.min(len) / chunk).min(self.state.crcs.len());
        let mut crcs = self.state.crcs[..kept].to_vec();
        let keep = self.policy.keep;
        for start in (kept * chunk..len).step_by(chunk) {
            let end = (start + chunk).min(len);
            crcs.push(crc_of(values.slice(start..end)));
            // the chunks hashed give their pages back (not the ends kept resident)
            let view = self.view.lock().unwrap_or_else(|e| e.into_inner());
            view.release(start.max(keep), end.min(len.saturating_sub(keep)));
        }
        let old_width = self.state.value_bytes;
        self.state = State {
            format: STATE_FORMAT,
            code: self.identity.code.clone(),
            engine: self.identity.engine.clone(),
            engine_version: self.identity.engine_version,
            value_bytes: width,
            count: len,
            crc_chunk: chunk,
            crcs,
        };
        self.save_state()?;
        if old_width == 1 && width == 2 {
            let _ = std::fs::remove_file(values_path::<u8>(&self.dir));
        }
        Ok(())
    }
}

/// [`super::checkpoint::run`] on a tiered store: continue from `values` (the store's, from
/// [`TieredStore::open`]) as `plan` says, saving the store every `control.every` and when
/// `control.stop` is set (`control.save` is not used: the store saves itself), and at the end.
/// The values, the period and the summary are exactly those of [`crate::takebreak::compute`].
pub fn run(
    rules: &Rules,
    store: &mut TieredStore,
    values: Values,
    plan: Plan,
    engine: &mut dyn SequenceEngine,
    control: Control<'_>,
) -> Result<Outcome, Error> {
    // `control.save` is not used: the store saves itself
    let (mut ticks, _) = Ticks::of(control);
    engine.keep_reads_near(store.policy().keep);
    let ended = drive_values(rules, values, plan, engine, |values, detector| {
        store.publish(values.len());
        ticks.tick(values, detector, &mut |v| store.save(v))
    })?;
    match ended {
        Ended::Finished(mut computation) => {
            store.save(computation.values.as_ref())?;
            match &mut computation.values {
                Values::U8(Buf::Mapped(m)) => m.trim()?,
                Values::U16(Buf::Mapped(m)) => m.trim()?,
                _ => {}
            }
            ticks.end(computation.values.as_ref())?;
            Ok(Outcome::Finished(computation))
        }
        Ended::Stopped(values) => Ok(Outcome::Interrupted(values.len())),
        Ended::OverBudget(values) => {
            store.save(values.as_ref())?;
            Ok(Outcome::OverBudget(values.len(), values.value_bytes()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::takebreak::sparse::RareCommon;
    use crate::takebreak::{compute, Finish};

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("grundy-tiered-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn identity(code: &str) -> Identity {
        Identity {
            code: Rules::parse(code).unwrap().to_string(),
            engine: "sparse".into(),
            engine_version: crate::takebreak::sparse::ENGINE_VERSION,
        }
    }

    /// Keep 4,096 values at each end and release the middle every millisecond, whatever the
    /// resident set: the engines' reads of the middle come back through page faults.
    fn tiny() -> TierPolicy {
        TierPolicy {
            keep: 4096,
            resident_limit: None,
            period: Duration::from_millis(1),
        }
    }

    fn engine(code: &str, threads: usize) -> RareCommon {
        let mut e = RareCommon::for_rules(&Rules::parse(code).unwrap()).unwrap();
        e.set_threads(threads);
        e
    }

    fn control<'a>(
        stop: &'a AtomicBool,
        save: &'a mut dyn FnMut(ValuesRef<'_>) -> Result<(), Error>,
        progress: Option<&'a dyn Fn(usize)>,
    ) -> Control<'a> {
        Control {
            every: Duration::from_millis(20),
            save,
            stop,
            progress,
            search: None,
            values: None,
        }
    }

    fn in_memory(code: &str, n: usize) -> Vec<u16> {
        let rules = Rules::parse(code).unwrap();
        compute(&rules, n, Finish::ComputeAll, &mut engine(code, 1), None)
            .unwrap()
            .values
            .to_vec()
    }

    fn tiered(d: &Path, code: &str, n: usize, threads: usize) -> (Vec<u16>, TieredStats) {
        let rules = Rules::parse(code).unwrap();
        let (mut store, values, _) =
            TieredStore::open(d, identity(code), &rules, true, tiny()).unwrap();
        let stop = AtomicBool::new(false);
        let mut save = |_: ValuesRef<'_>| Ok(());
        let out = run(
            &rules,
            &mut store,
            values,
            Plan::new(n, Finish::ComputeAll),
            &mut engine(code, threads),
            control(&stop, &mut save, None),
        )
        .unwrap();
        let Outcome::Finished(c) = out else {
            panic!("the run ends")
        };
        assert!(c.values.is_mapped());
        (c.values.to_vec(), store.stats())
    }

    #[test]
    fn tiered_runs_equal_in_memory_runs_value_by_value() {
        for (code, n) in [
            ("0.146", 40_000),
            ("0.6", 60_000),
            ("0.16", 60_000),
            ("0.143", 40_000),
        ] {
            let want = in_memory(code, n);
            for threads in [1, 2] {
                let d = dir(&format!("equal-{code}-{threads}"));
                let (got, stats) = tiered(&d, code, n, threads);
                assert_eq!(got.len(), want.len(), "{code} on {threads} threads");
                if let Some(i) = (0..want.len()).find(|&i| got[i] != want[i]) {
                    panic!(
                        "{code} on {threads} threads: G({i}) = {} not {}",
                        got[i], want[i]
                    );
                }
                assert!(stats.releases > 0, "{code}: the middle was never released");
                let _ = std::fs::remove_dir_all(&d);
            }
        }
    }

    #[test]
    fn an_interrupted_run_resumes_from_its_store_and_equals_one_run() {
        let (code, n) = ("0.146", 30_000);
        let want = in_memory(code, n);
        let rules = Rules::parse(code).unwrap();
        let d = dir("resume");
        let (mut store, values, _) =
            TieredStore::open(&d, identity(code), &rules, true, tiny()).unwrap();
        let stop = AtomicBool::new(false);
        let ask = |k: usize| {
            if k >= 12_000 {
                stop.store(true, Ordering::Relaxed)
            }
        };
        let mut save = |_: ValuesRef<'_>| Ok(());
        let out = run(
            &rules,
            &mut store,
            values,
            Plan::new(n, Finish::ComputeAll),
            &mut engine(code, 1),
            control(&stop, &mut save, Some(&ask)),
        )
        .unwrap();
        let Outcome::Interrupted(done) = out else {
            panic!("stopped")
        };
        assert!((12_000..n).contains(&done));
        assert_eq!(store.on_file(), done);
        drop(store);
        let (got, stats) = tiered(&d, code, n, 2);
        assert_eq!(stats.resumed_from, done);
        assert_eq!(got, want);
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_damaged_store_is_trusted_only_as_far_as_it_proves_or_refused() {
        let code = "0.16";
        let n = CRC_CHUNK + 5_000;
        let rules = Rules::parse(code).unwrap();
        let want = in_memory(code, n);
        let d = dir("damaged");
        let (got, _) = tiered(&d, code, n, 1);
        assert_eq!(got, want);
        let file = values_path::<u8>(&d);
        // a byte changed in the second chunk: the first chunk is trusted, the rest recomputed
        let mut bytes = std::fs::read(&file).unwrap();
        bytes[CRC_CHUNK + 10] ^= 1;
        std::fs::write(&file, &bytes).unwrap();
        let (_, values, notes) =
            TieredStore::open(&d, identity(code), &rules, true, tiny()).unwrap();
        assert_eq!(values.len(), CRC_CHUNK);
        assert!(format!("{notes:?}").contains("intact"), "{notes:?}");
        drop(values);
        let (got, stats) = tiered(&d, code, n, 1);
        assert_eq!(stats.resumed_from, CRC_CHUNK);
        assert_eq!(got, want);
        // cut short: trusted to the last whole chunk in the file
        std::fs::OpenOptions::new()
            .write(true)
            .open(&file)
            .unwrap()
            .set_len(CRC_CHUNK as u64 + 100)
            .unwrap();
        let (_, values, _) = TieredStore::open(&d, identity(code), &rules, true, tiny()).unwrap();
        assert_eq!(values.len(), CRC_CHUNK);
        drop(values);
        // another computation's store, and a damaged state: refused in one line
        let e = TieredStore::open(&d, identity("0.6"), &rules, true, tiny()).unwrap_err();
        assert!(e.to_string().contains("belongs to another run"), "{e}");
        let state = d.join(STATE_FILE);
        let text = std::fs::read_to_string(&state).unwrap();
        std::fs::write(&state, text.replacen("\"count\":", "\"count\": ", 1)).unwrap();
        let e = TieredStore::open(&d, identity(code), &rules, true, tiny()).unwrap_err();
        assert!(e.to_string().contains("checksum mismatch"), "{e}");
        assert!(!e.to_string().contains('\n'));
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn values_that_cannot_be_true_are_refused_even_with_good_checksums() {
        let code = "0.16";
        let rules = Rules::parse(code).unwrap();
        let d = dir("forged");
        let _ = tiered(&d, code, 20_000, 1);
        let (mut store, mut values, _) =
            TieredStore::open(&d, identity(code), &rules, true, tiny()).unwrap();
        if let Values::U8(Buf::Mapped(m)) = &mut values {
            m[100] ^= 1;
        } else {
            panic!("a byte store")
        }
        store.save(values.as_ref()).unwrap();
        drop((store, values));
        let e = TieredStore::open(&d, identity(code), &rules, true, tiny()).unwrap_err();
        assert!(e.to_string().contains("cannot be true"), "{e}");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_missing_directory_and_a_small_memory_are_refused() {
        let rules = Rules::parse("0.16").unwrap();
        let e = TieredStore::open(
            Path::new("/nonexistent/grundy-tiered"),
            identity("0.16"),
            &rules,
            true,
            tiny(),
        )
        .unwrap_err();
        assert!(e.to_string().contains("no such directory"), "{e}");
        assert!(TierPolicy::for_memory(10 << 20, 2).is_err());
        let p = TierPolicy::for_memory(1 << 30, 2).unwrap();
        assert_eq!(p.keep as u64, ((1u64 << 30) - ALLOWANCE_BYTES) / 16);
        assert!(TierPolicy::for_memory(31 << 20, 2).is_err());
        assert!(TierPolicy::for_memory(32 << 20, 2).is_ok());
    }
}
