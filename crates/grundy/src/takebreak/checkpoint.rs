//! Resumable long runs: checkpoints of G(0..k) saved atomically, and a run loop that saves them
//! every so often and on request (Ctrl-C).
//!
//! Why: a run to 10^8 takes minutes, on a shared machine it may be killed at any moment, and a
//! resumed run must give *bit-identical* values. Every engine computes the same sequence, and
//! an engine brings its own state up to date from the values it is handed (see
//! [`crate::takebreak::sparse`]), so the values are all a checkpoint needs.
//!
//! # File format (little-endian)
//! ```text
//! magic "GRUNDYCK" | format u32 (2) | engine version u32 | engine name (u16 length, bytes)
//! | code (u32 length, bytes) | record 0 | record 1 | values, u16 each, from the first on
//! record (32 bytes): generation u64 | count u64 | CRC-32 of the head (magic to code) and of
//!                    the first count values | CRC-32 of the 20 bytes before | 8 zero bytes
//! ```
//! The newer record (larger generation) that is intact (its own CRC) says how many values the
//! file holds; bytes past them are ignored. A file is refused — never silently used — when the
//! magic or format is wrong, no record is intact and within the file, or the values fail the
//! checksum of every intact record (corrupt or not a checkpoint), or when its code or engine
//! (name and version) differ from the run's (a checkpoint of another computation). A
//! checksum that fails the newer record but holds for the older one means the file is used as
//! the older record says (what the checksums prove), as after a save cut short.
//!
//! Format 1 (versions before this layout) is still read: the same head, then a count u64, the
//! values, and a CRC-32 of everything before; its length must match the count exactly.
//!
//! # What a resumed run is worth
//! A checksum proves that a file is what some program wrote, not that its values are right:
//! a file may be edited, or handed over. So before a run continues from a checkpoint its
//! values are checked against the rules ([`check_values`]): each is at most what the values
//! before it allow, the first [`VERIFIED_PREFIX`] are recomputed, and (for codes whose moves
//! leave at most two heaps, and Grundy's game) the last 64 and a random sample of the others
//! must be the mex of their options. A file that fails is refused in one line.
//!
//! So a resumed result is exactly the one-run result whenever the checkpoint was written by
//! grundy for this code and engine (the engines compute the same sequence). A forged file is
//! refused whenever it differs from the true sequence in the first [`VERIFIED_PREFIX`]
//! values, in its last 64, or at a sampled heap size; if a fraction `f` of its later values
//! is wrong, the sample of `s` heap sizes misses all of them with probability about
//! `(1 - f)^s`. Periods certified at small heap sizes (nearly all known ones) lie inside the
//! recomputed prefix, so their certificates rest on recomputed values only.
//!
//! # Atomicity, and saves that cost what is new
//! A run's first save (and any save to a file it did not write or read in format 2) writes the
//! whole file: [`save`] writes a temporary file of its own beside `FILE` (a name no other save
//! uses, even in another process), flushes it to disk (`fsync`), renames it over `FILE` and
//! syncs the directory. A rename is atomic, so whenever the process dies — SIGKILL included —
//! `FILE` is either the previous checkpoint or the new one, complete; and two processes saving
//! the same file at once never write into each other's temporary file.
//!
//! Every later save of the run ([`Store::save`]) appends: it checks that the file's head and
//! newer record are still the ones it wrote or read (else it writes the file whole, as
//! above), writes the values computed since after the ones on file, syncs them
//! (`fdatasync`), then overwrites the *older* record with one that covers them all and syncs
//! again. Whenever the process dies, the newer record on disk describes values that are on
//! disk: before the second sync the old record still stands (the new values past it are
//! ignored, and overwritten by the next save); a record written in part fails its own CRC and
//! the other one stands. The values a record covers are never written again. So a save costs
//! the values since the last one, not the whole file: at 2^31 values a whole file is 4 GiB
//! (seconds to write and sync), the values of a minute a few tens of MB.
//!
//! # Locking
//! [`Lock::try_acquire`] takes an exclusive advisory lock on `FILE.lock`, so that one run at a
//! time writes (and finally removes) a checkpoint; the operating system releases it when the
//! process ends, however it ends, so a killed run never leaves a stale lock behind.
//!
//! Values stream through a fixed buffer in both directions, so saving or loading 10^8 values
//! needs no second copy of them (the memory bound of a run stays 2 bytes per heap size); a
//! run keeps one CRC state, after the values on file, to extend at its next save.

use super::driver::{drive_values, Computation, Ended, Plan, Step};
use super::engine::SequenceEngine;
use super::period::PeriodDetector;
use super::rules::Rules;
use super::values::{Buf, Odd8Store, SplitRef, Value, Values, ValuesRef};
use crate::Error;
use std::fs::{File, OpenOptions};
use std::io::{BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The first bytes of every checkpoint file.
pub const MAGIC: &[u8; 8] = b"GRUNDYCK";
/// Version of the file layout written: 2, two records and values appended in place (format 1,
/// one count and a CRC at the end, rewritten whole at every save, is still read).
pub const FORMAT: u32 = 2;
/// The first layout (files of earlier versions).
const FORMAT_1: u32 = 1;
/// Values per read/write chunk.
const CHUNK: usize = 1 << 19;

/// What a checkpoint is a checkpoint *of*: it may only resume the same computation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    /// The code, in canonical form.
    pub code: String,
    /// The engine's name.
    pub engine: String,
    /// The engine's version.
    pub engine_version: u32,
}

/// Why a checkpoint file was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CheckpointError {
    /// The file could not be read or written.
    #[error("checkpoint '{path}': {message}")]
    Io { path: String, message: String },
    /// Not a checkpoint, truncated, or damaged.
    #[error("checkpoint '{path}' is corrupt ({reason}); delete it to start over")]
    Corrupt { path: String, reason: String },
    /// Intact, but what it says cannot be true (checked against the rules).
    #[error("'{path}' holds values that cannot be true ({reason}); delete it to start over")]
    Untrue { path: String, reason: String },
    /// A valid checkpoint of a different computation.
    #[error(
        "checkpoint '{path}' belongs to another run ({reason}); delete it, or choose another \
         file with --checkpoint"
    )]
    Mismatch { path: String, reason: String },
}

impl From<CheckpointError> for Error {
    fn from(e: CheckpointError) -> Self {
        Error::Invalid(e.to_string())
    }
}

pub(crate) fn io_error(path: &Path, e: impl std::fmt::Display) -> CheckpointError {
    CheckpointError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    }
}

/// A temporary file name beside `path` that no other save uses: process id and a per-process
/// counter (the file is also created with `create_new`, so a clash is an error, never a
/// shared file).
fn temp_path(path: &Path) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut name = std::ffi::OsString::from(".");
    name.push(path.file_name().unwrap_or_default());
    name.push(format!(
        ".{}.{}.tmp",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    path.with_file_name(name)
}

/// The lock file of the checkpoint `path`.
pub fn lock_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".lock");
    path.with_file_name(name)
}

/// An exclusive lock on a checkpoint (see the module docs), held until dropped.
#[derive(Debug)]
pub struct Lock {
    _file: File,
}

impl Lock {
    /// Lock the checkpoint `path` for this process: `Ok(None)` when another process holds it.
    /// The lock file is created if needed (its directory must exist).
    pub fn try_acquire(path: &Path) -> Result<Option<Lock>, CheckpointError> {
        let lock = lock_path(path);
        let file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(&lock)
            .map_err(|e| io_error(path, format!("cannot create the lock file: {e}")))?;
        // flock on Unix, LockFileEx on Windows (the fs4 crate; std has it from Rust 1.89 only)
        #[cfg(not(target_family = "wasm"))]
        match fs4::fs_std::FileExt::try_lock_exclusive(&file) {
            Ok(true) => Ok(Some(Lock { _file: file })),
            Ok(false) => Ok(None),
            Err(e) => Err(io_error(path, format!("cannot lock: {e}"))),
        }
        // WebAssembly has no other process to exclude (and fs4 does not build there)
        #[cfg(target_family = "wasm")]
        Ok(Some(Lock { _file: file }))
    }
}

/// The identity part of a file's head: magic, format, engine version, engine name, code. In
/// format 2 the records follow it; in format 1 the count did.
fn identity_head(identity: &Identity, format: u32) -> Vec<u8> {
    let mut h = Vec::with_capacity(64 + identity.code.len());
    h.extend_from_slice(MAGIC);
    h.extend_from_slice(&format.to_le_bytes());
    h.extend_from_slice(&identity.engine_version.to_le_bytes());
    h.extend_from_slice(&(identity.engine.len() as u16).to_le_bytes());
    h.extend_from_slice(identity.engine.as_bytes());
    h.extend_from_slice(&(identity.code.len() as u32).to_le_bytes());
    h.extend_from_slice(identity.code.as_bytes());
    h
}

/// Bytes of one record of a format-2 file.
const RECORD_BYTES: usize = 32;

/// One record of a format-2 file: the first `count` values, whose CRC-32 (with the identity
/// head before them) is `crc`, are on disk; the record of the larger `generation` is the newer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Record {
    generation: u64,
    count: u64,
    crc: u32,
}

impl Record {
    /// generation u64 | count u64 | crc u32 | CRC-32 of the 20 bytes before | 8 zero bytes
    fn bytes(&self) -> [u8; RECORD_BYTES] {
        let mut b = [0u8; RECORD_BYTES];
        b[..8].copy_from_slice(&self.generation.to_le_bytes());
        b[8..16].copy_from_slice(&self.count.to_le_bytes());
        b[16..20].copy_from_slice(&self.crc.to_le_bytes());
        let own = crc32fast::hash(&b[..20]);
        b[20..24].copy_from_slice(&own.to_le_bytes());
        b
    }

    /// The record in `b`, if it is one: intact (its own CRC) and written (generation > 0).
    fn parse(b: &[u8]) -> Option<Record> {
        let b: &[u8; RECORD_BYTES] = b.try_into().ok()?;
        let u64_at = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().expect("8 bytes"));
        let u32_at = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().expect("4 bytes"));
        if crc32fast::hash(&b[..20]) != u32_at(20) {
            return None;
        }
        let record = Record {
            generation: u64_at(0),
            count: u64_at(8),
            crc: u32_at(16),
        };
        (record.generation > 0).then_some(record)
    }
}

/// What a run needs to append to a format-2 file it wrote or read: which record is the newer
/// (the other is overwritten by the next save), what it says, and the CRC state after the
/// values it covers.
#[derive(Clone)]
struct Appender {
    newest: usize,
    record: Record,
    crc: crc32fast::Hasher,
}

impl std::fmt::Debug for Appender {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Appender")
            .field("newest", &self.newest)
            .field("record", &self.record)
            .finish()
    }
}

/// Append the little-endian bytes of `values` to `file` a chunk at a time, and to `crc`.
fn write_values(
    file: &mut File,
    values: ValuesRef<'_>,
    crc: &mut crc32fast::Hasher,
) -> std::io::Result<()> {
    let mut buf = Vec::with_capacity(2 * CHUNK);
    for start in (0..values.len()).step_by(CHUNK) {
        buf.clear();
        for v in values
            .slice(start..(start + CHUNK).min(values.len()))
            .iter()
        {
            buf.extend_from_slice(&v.to_le_bytes());
        }
        crc.update(&buf);
        file.write_all(&buf)?;
    }
    Ok(())
}

/// Write `path` atomically (see the module docs): `write` fills a temporary file of this save's
/// own beside it, which is synced, renamed over `path`, and the directory synced. On any error
/// the temporary file is removed and `path` is untouched. Also used by the pruned search's
/// saved tables ([`crate::solve::pruned::persist`]).
pub(crate) fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut File) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let tmp = temp_path(path);
    let run = || -> std::io::Result<()> {
        let mut file = OpenOptions::new().write(true).create_new(true).open(&tmp)?;
        write(&mut file)?;
        file.sync_all()?;
        drop(file);
        std::fs::rename(&tmp, path)?;
        // make the rename itself durable
        if let Some(dir) = path.parent() {
            let dir = if dir.as_os_str().is_empty() {
                Path::new(".")
            } else {
                dir
            };
            if let Ok(d) = File::open(dir) {
                let _ = d.sync_all();
            }
        }
        Ok(())
    };
    run().inspect_err(|_| {
        // never leave a partial temporary file behind
        let _ = std::fs::remove_file(&tmp);
    })
}

/// A whole new format-2 file of `values`, written atomically, with its first record.
fn write_whole(
    path: &Path,
    identity: &Identity,
    values: ValuesRef<'_>,
) -> std::io::Result<Appender> {
    let head = identity_head(identity, FORMAT);
    let mut crc = crc32fast::Hasher::new();
    crc.update(&head);
    let mut record = None;
    write_atomically(path, |file| {
        file.write_all(&head)?;
        file.write_all(&[0u8; 2 * RECORD_BYTES])?;
        write_values(file, values, &mut crc)?;
        let first = Record {
            generation: 1,
            count: values.len() as u64,
            crc: crc.clone().finalize(),
        };
        file.seek(SeekFrom::Start(head.len() as u64))?;
        file.write_all(&first.bytes())?;
        record = Some(first);
        Ok(())
    })?;
    Ok(Appender {
        newest: 0,
        record: record.expect("written"),
        crc,
    })
}

/// Append `values[from..]` to the format-2 file `path` that holds `values[..from]` as
/// `appender` says: the new values are written after the old and synced, then the older
/// record is overwritten by one covering them all and synced (see the module docs). `Ok(false)`
/// when the file is not as this run left it (replaced, or another record written): the caller
/// then writes it whole.
fn append(
    path: &Path,
    identity: &Identity,
    appender: &mut Appender,
    values: ValuesRef<'_>,
    from: usize,
) -> std::io::Result<bool> {
    let head = identity_head(identity, FORMAT);
    // a file removed since (by hand, or by another run's finish) is written whole again
    let mut file = match OpenOptions::new().read(true).write(true).open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(e),
    };
    let mut start = vec![0u8; head.len() + 2 * RECORD_BYTES];
    if file.read_exact(&mut start).is_err() || start[..head.len()] != head[..] {
        return Ok(false);
    }
    let record_at = |slot: usize| {
        let at = head.len() + slot * RECORD_BYTES;
        Record::parse(&start[at..at + RECORD_BYTES])
    };
    // the file as this run left it: its record the newer one, and the values it counts there
    let ours = record_at(appender.newest) == Some(appender.record)
        && record_at(1 - appender.newest)
            .map_or(true, |other| other.generation < appender.record.generation)
        && appender.record.count == from as u64
        && file.metadata()?.len() >= (start.len() + 2 * from) as u64;
    // (a record at the last generation: the file is written whole, starting again at 1)
    let (true, Some(generation)) = (ours, appender.record.generation.checked_add(1)) else {
        return Ok(false);
    };
    let mut crc = appender.crc.clone();
    file.seek(SeekFrom::Start((start.len() + 2 * from) as u64))?;
    write_values(&mut file, values.slice(from..values.len()), &mut crc)?;
    file.sync_data()?;
    let record = Record {
        generation,
        count: values.len() as u64,
        crc: crc.clone().finalize(),
    };
    let slot = 1 - appender.newest;
    file.seek(SeekFrom::Start((head.len() + slot * RECORD_BYTES) as u64))?;
    file.write_all(&record.bytes())?;
    file.sync_data()?;
    *appender = Appender {
        newest: slot,
        record,
        crc,
    };
    Ok(true)
}

/// Save `values` as the checkpoint of `identity`, atomically, as a whole new file (see the
/// module docs). The file holds two bytes per value whatever the store (a one-byte store is
/// widened chunk by chunk).
pub fn save<'a>(
    path: &Path,
    identity: &Identity,
    values: impl Into<ValuesRef<'a>>,
) -> Result<(), CheckpointError> {
    write_whole(path, identity, values.into())
        .map(|_| ())
        .map_err(|e| io_error(path, format!("cannot save: {e}")))
}

/// How many bytes of an existing file at `path` a run's first save writes beside it (a whole
/// new file while the old one still stands): the file's size unless it is a format-2
/// checkpoint, which a run appends to; 0 when there is none.
pub fn rewritten_beside(path: &Path) -> u64 {
    let Ok(mut file) = File::open(path) else {
        return 0;
    };
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    let mut head = [0u8; 12];
    match file.read_exact(&mut head) {
        Ok(()) if head[..8] == MAGIC[..] && head[8..12] == FORMAT.to_le_bytes() => 0,
        _ => size,
    }
}

/// A loaded checkpoint: its values as `u16` ([`load`]) or in the run's store ([`load_values`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checkpoint<T = Vec<u16>> {
    pub identity: Identity,
    /// The first values of the file (at most the `keep` asked for).
    pub values: T,
    /// How many values the file holds (at least `values.len()`).
    pub count: usize,
}

/// Read and verify a checkpoint (magic, format, length, checksum). At most `keep` values are
/// kept in memory (all are checked); `Ok(None)` when the file does not exist.
pub fn load(path: &Path, keep: usize) -> Result<Option<Checkpoint>, CheckpointError> {
    Ok(load_values(path, keep, false)?.map(|c| Checkpoint {
        identity: c.identity,
        // a u16 store in memory: the vector itself, not a copy
        values: c.values.into_u16(),
        count: c.count,
    }))
}

/// [`load`] into a store of values: in bytes when `compact` and every value kept is below
/// 256 (moved to `u16` at the first that is not), as a run keeps them. The file's two bytes
/// per value are converted a chunk at a time, so a resumed run needs no more memory than the
/// store itself (a `u16` copy of the values first took twice a byte store's memory again: 3 GB
/// at the peak of a resume of 0.16 at 2^30 instead of 1 GB).
pub fn load_values(
    path: &Path,
    keep: usize,
    compact: bool,
) -> Result<Option<Checkpoint<Values>>, CheckpointError> {
    let kind = if compact { Load::Bytes } else { Load::Wide };
    Ok(load_appendable(path, keep, kind)?.map(|(c, _)| c))
}

/// The store a checkpoint is read into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Load {
    /// `u16`.
    Wide,
    /// Bytes while every value is below 256, then `u16` ([`load_values`]).
    Bytes,
    /// As [`Load::Bytes`], but at the first value past 255, bytes of Officers-like values with
    /// a head in `u16` ([`Odd8Store`], `--compact-values`) when at least [`ODD8_FROM`] values
    /// are kept and the head holds at most a quarter of them, else `u16`: read a chunk at a
    /// time as the others, so that a resumed run needs no more memory than that store (read
    /// into `u16` first and narrowed by the engine, it took three bytes a value at the peak).
    Odd8,
}

/// The fewest values kept that [`Load::Odd8`] reads into bytes with a head (as the rare/common
/// engine narrows a store from 2^16 values on).
pub const ODD8_FROM: usize = 1 << 16;

/// A loaded checkpoint, with what a run needs to append to its file (format 2).
type Appendable = (Checkpoint<Values>, Option<Appender>);
/// What [`load_into`] finds: the identity, the count of values on file, and the appender.
type Loaded = (Identity, usize, Option<Appender>);

/// [`load_values`], with what a run needs to append to the file (format 2).
fn load_appendable(
    path: &Path,
    keep: usize,
    kind: Load,
) -> Result<Option<Appendable>, CheckpointError> {
    let mut values = Values::new(kind != Load::Wide);
    let Some((identity, count, appender)) = load_into(path, keep, &mut |room, bytes| {
        if values.is_empty() {
            values.reserve_exact(room);
        }
        if let Values::U8(Buf::Heap(v)) = &mut values {
            if bytes.chunks_exact(2).all(|b| b[1] == 0) {
                v.extend(bytes.chunks_exact(2).map(|b| b[0]));
                return;
            }
            if kind == Load::Odd8 && room >= ODD8_FROM {
                // the bytes so far as they are (a value below 256 is its own byte), with a head
                match Odd8Store::from_bytes(std::mem::take(v), room / 4) {
                    Ok(store) => values = Values::Odd8(store),
                    Err(back) => *v = back,
                }
            }
            if let Values::U8(_) = values {
                // keeps the room reserved: no second copy of the values as the store grows
                values.widen();
            }
        }
        let mut bytes = bytes;
        if let Values::Odd8(store) = &mut values {
            let taken = store.extend_growing(bytes, room / 4);
            if taken == bytes.len() {
                return;
            }
            // a head past a quarter of the values: the rest in u16 (the room reserved is kept)
            values.widen();
            bytes = &bytes[taken..];
        }
        if let Values::U16(Buf::Heap(v)) = &mut values {
            v.extend(
                bytes
                    .chunks_exact(2)
                    .map(|b| u16::from_le_bytes([b[0], b[1]])),
            );
        }
    })?
    else {
        return Ok(None);
    };
    if values.len() > count.min(keep) {
        // A format-2 file whose newer record failed its checksum was read past the older one's
        // count: read again up to it, so that the bytes past it neither widen a byte store nor
        // leave room reserved for them (a damaged file only).
        return load_appendable(path, count.min(keep), kind);
    }
    if let Values::Odd8(store) = &mut values {
        store.round_head();
    }
    Ok(Some((
        Checkpoint {
            identity,
            values,
            count,
        },
        appender,
    )))
}

/// Read and verify a checkpoint, handing the little-endian bytes of the values kept (at most
/// `keep`) to `take` a chunk at a time, with the number of values that will be kept in all
/// (for one reservation). Returns the identity, the number of values on file (the caller keeps
/// at most that many: a format-2 file may have been read past them) and, for format 2, what a
/// run needs to append; `Ok(None)` when the file does not exist.
fn load_into(
    path: &Path,
    keep: usize,
    take: &mut dyn FnMut(usize, &[u8]),
) -> Result<Option<Loaded>, CheckpointError> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_error(path, format!("cannot open: {e}"))),
    };
    let meta = file.metadata().map_err(|e| io_error(path, e))?;
    if let Some(what) = not_a_file(&meta) {
        return Err(io_error(path, what));
    }
    let size = meta.len();
    // (the same file, to measure again once its records are read)
    let probe = file.try_clone().map_err(|e| io_error(path, e))?;
    let corrupt = |reason: &str| CheckpointError::Corrupt {
        path: path.display().to_string(),
        reason: reason.to_string(),
    };
    let mut reader = BufReader::new(file);
    let mut crc = crc32fast::Hasher::new();
    let mut read = |n: usize, crc: &mut crc32fast::Hasher| -> Result<Vec<u8>, CheckpointError> {
        let mut buf = vec![0u8; n];
        reader
            .read_exact(&mut buf)
            .map_err(|_| corrupt("truncated"))?;
        crc.update(&buf);
        Ok(buf)
    };
    let magic = read(8, &mut crc)?;
    if magic != MAGIC {
        return Err(corrupt("not a grundy checkpoint file"));
    }
    let u32_of = |b: &[u8]| u32::from_le_bytes(b.try_into().expect("4 bytes"));
    let format = u32_of(&read(4, &mut crc)?);
    if format != FORMAT && format != FORMAT_1 {
        return Err(corrupt(&format!(
            "file format {format}, this program reads formats {FORMAT_1} and {FORMAT}"
        )));
    }
    let engine_version = u32_of(&read(4, &mut crc)?);
    let engine_len = u16::from_le_bytes(read(2, &mut crc)?.try_into().expect("2 bytes")) as usize;
    let engine = String::from_utf8(read(engine_len, &mut crc)?)
        .map_err(|_| corrupt("engine name is not UTF-8"))?;
    let code_len = u32_of(&read(4, &mut crc)?) as u64;
    if code_len > size {
        return Err(corrupt("truncated"));
    }
    let code = String::from_utf8(read(code_len as usize, &mut crc)?)
        .map_err(|_| corrupt("code is not UTF-8"))?;
    let identity_len = 8 + 4 + 4 + 2 + engine_len as u64 + 4 + code_len;
    // The counts the file may hold, each with the CRC it must have: format 1 has one (and its
    // CRC at the end), format 2 a record or two (the newer first).
    let mut records: Vec<(Record, usize)> = Vec::with_capacity(2);
    if format == FORMAT_1 {
        let count = u64::from_le_bytes(read(8, &mut crc)?.try_into().expect("8 bytes"));
        if count
            .checked_mul(2)
            .and_then(|b| b.checked_add(identity_len + 8 + 4))
            != Some(size)
        {
            return Err(corrupt(&format!(
                "its length does not match the {count} values it announces"
            )));
        }
        // (its CRC is the file's last four bytes, checked below)
        records.push((
            Record {
                generation: 1,
                count,
                crc: 0,
            },
            0,
        ));
    } else {
        let slots = read(2 * RECORD_BYTES, &mut crc32fast::Hasher::new())?;
        let start = identity_len + 2 * RECORD_BYTES as u64;
        // a run appending to the file while it is read writes values before the record that
        // counts them: measured after the records, the file holds what they count
        let size = probe.metadata().map_or(size, |m| m.len().max(size));
        records = (0..2)
            .filter_map(|s| {
                Record::parse(&slots[s * RECORD_BYTES..(s + 1) * RECORD_BYTES]).map(|r| (r, s))
            })
            // a record of values past the end of the file is not one this program finished
            .filter(|(r, _)| {
                r.count
                    .checked_mul(2)
                    .and_then(|b| b.checked_add(start))
                    .is_some_and(|end| end <= size)
            })
            .collect();
        records.sort_by_key(|(r, _)| std::cmp::Reverse(r.generation));
        if records.is_empty() {
            return Err(corrupt("truncated, or no record of its values is intact"));
        }
    }
    let count = records
        .iter()
        .map(|(r, _)| r.count)
        .max()
        .expect("a record") as usize;
    let kept = count.min(keep);
    // the CRC after each record's count, read in one pass up to the largest
    let mut at_count: Vec<(u64, crc32fast::Hasher)> = Vec::with_capacity(2);
    let mut bounds: Vec<u64> = records.iter().map(|(r, _)| r.count).collect();
    bounds.sort_unstable();
    bounds.dedup();
    let mut done = 0u64;
    let mut given = 0;
    for bound in bounds {
        while done < bound {
            let chunk = (bound - done).min(CHUNK as u64) as usize;
            let bytes = read(2 * chunk, &mut crc)?;
            let room = (kept - given).min(chunk);
            if room > 0 {
                take(kept, &bytes[..2 * room]);
                given += room;
            }
            done += chunk as u64;
        }
        at_count.push((bound, crc.clone()));
    }
    let crc_at = |count: u64| {
        at_count
            .iter()
            .find(|(c, _)| *c == count)
            .map(|(_, h)| h.clone())
            .expect("a bound of every record")
    };
    let identity = Identity {
        code,
        engine,
        engine_version,
    };
    if format == FORMAT_1 {
        let mut tail = [0u8; 4];
        reader
            .read_exact(&mut tail)
            .map_err(|_| corrupt("truncated"))?;
        let count = records[0].0.count;
        if u32::from_le_bytes(tail) != crc_at(count).finalize() {
            return Err(corrupt("checksum mismatch"));
        }
        return Ok(Some((identity, count as usize, None)));
    }
    // the newest record whose values are what it says
    for (record, slot) in records {
        let crc = crc_at(record.count);
        if crc.clone().finalize() == record.crc {
            let appender = Appender {
                newest: slot,
                record,
                crc,
            };
            return Ok(Some((identity, record.count as usize, Some(appender))));
        }
    }
    Err(corrupt("checksum mismatch"))
}

/// Why a path that exists cannot be a checkpoint (or a saved table): it is a directory or a
/// device (`/dev/null`), not a file — said as such, rather than "corrupt, delete it".
pub(crate) fn not_a_file(meta: &std::fs::Metadata) -> Option<String> {
    if meta.is_file() {
        None
    } else if meta.is_dir() {
        Some("is a directory, not a file: give a file name".into())
    } else {
        Some("is not a regular file (a device or a pipe): give a file name".into())
    }
}

/// [`load`], refusing a checkpoint of another computation than `identity`.
pub fn load_for(
    path: &Path,
    identity: &Identity,
    keep: usize,
) -> Result<Option<Checkpoint>, CheckpointError> {
    let Some(c) = load(path, keep)? else {
        return Ok(None);
    };
    same_identity(path, &c.identity, identity)?;
    Ok(Some(c))
}

/// Refuse a checkpoint of `path` whose identity `found` is not the run's `identity`.
fn same_identity(
    path: &Path,
    found: &Identity,
    identity: &Identity,
) -> Result<(), CheckpointError> {
    let c = found;
    let mismatch = |reason: String| CheckpointError::Mismatch {
        path: path.display().to_string(),
        reason,
    };
    if c.code != identity.code {
        return Err(mismatch(format!(
            "it is for code {}, this run computes {}",
            c.code, identity.code
        )));
    }
    if c.engine != identity.engine || c.engine_version != identity.engine_version {
        return Err(mismatch(format!(
            "it was written by engine {} version {}, this run uses {} version {}",
            c.engine, c.engine_version, identity.engine, identity.engine_version
        )));
    }
    Ok(())
}

/// Values at the start of a checkpoint that are recomputed from the rules when it is loaded
/// ([`check_values`]).
pub const VERIFIED_PREFIX: usize = 1 << 13;
/// Values beyond the prefix checked against their options when a checkpoint is loaded (the
/// last ones, then random ones; fewer when each costs much).
pub const SAMPLED: usize = 512;
/// Work allowed to the sample (pairs of heaps looked at), about a tenth of a second.
const SAMPLE_WORK: u64 = 1 << 27;

/// Check values loaded from a checkpoint against the rules (see "What a resumed run is worth"
/// in [`crate::takebreak`]'s checkpoint docs), returning the reason when they cannot be
/// G(0), G(1), ...:
///
/// - every value is at most `2^b`, `b` the bit length of the largest value before it (an
///   option's value is a nim-sum of earlier values, below `2^b`, and a mex of such values is
///   at most `2^b`) — so a jump to 65535 is refused before any engine sees it;
/// - the first [`VERIFIED_PREFIX`] values are recomputed with the naive engine and must be
///   equal;
/// - for rules whose moves leave at most two heaps, the last values and a random sample of
///   the others (at most [`SAMPLED`]) must each be the mex of their options' values as the
///   checkpoint gives them.
pub fn check_values(rules: &Rules, values: &[u16]) -> Result<(), String> {
    check_values_of(rules, values)
}

/// [`check_values`] on a store of either width (a tiered run's mapped file,
/// [`super::tiered`]).
pub fn check_values_of<V: Value>(rules: &Rules, values: &[V]) -> Result<(), String> {
    check_values_releasing(rules, values, &|_, _| {})
}

/// Values read a stretch at a time by the checks, between two calls of `release`.
const RELEASE_EVERY: usize = 1 << 20;

/// [`check_values_of`], calling `release(from, to)` after reading each stretch of about
/// [`RELEASE_EVERY`] values `from..to` in a pass over many values: a tiered run gives the
/// pages of its values file back as the checks go, rather than map the whole file faster than
/// its tender looks (a resume of 0.16 at 2^30 with `--memory 256M` peaked at 380 MB without).
pub fn check_values_releasing<V: Value>(
    rules: &Rules,
    values: &[V],
    release: &dyn Fn(usize, usize),
) -> Result<(), String> {
    check_source(rules, values, release)
}

/// [`check_values_of`] on a store of bytes with a head ([`super::values::Odd8Store`]), read
/// where it is (a copy in `u16` would take twice the store's memory at a resume).
pub fn check_split_values(rules: &Rules, values: SplitRef<'_>) -> Result<(), String> {
    check_source(rules, values, &|_, _| {})
}

/// What the checks read: a slice of values of either width, or a store of bytes with a head.
trait Source: Copy {
    fn len(self) -> usize;
    /// G(i).
    fn at(self, i: usize) -> u16;
    /// The largest of G(from..to).
    fn max_of(self, from: usize, to: usize) -> u16 {
        (from..to).map(|i| self.at(i)).max().unwrap_or(0)
    }
    /// `mark(G(a) ⊕ G(r - a))` for every `a` in `from..to` (`to <= r / 2 + 1`).
    fn mark_pairs(self, r: usize, from: usize, to: usize, mark: &mut impl FnMut(u16)) {
        for a in from..to {
            mark(self.at(a) ^ self.at(r - a));
        }
    }
}

impl<V: Value> Source for &[V] {
    fn len(self) -> usize {
        <[V]>::len(self)
    }
    #[inline(always)]
    fn at(self, i: usize) -> u16 {
        self[i].get()
    }
    fn max_of(self, from: usize, to: usize) -> u16 {
        self[from..to].iter().map(|v| v.get()).max().unwrap_or(0)
    }
    fn mark_pairs(self, r: usize, from: usize, to: usize, mark: &mut impl FnMut(u16)) {
        mark_pairs(self, r, from, to, mark)
    }
}

impl Source for SplitRef<'_> {
    fn len(self) -> usize {
        SplitRef::len(&self)
    }
    #[inline(always)]
    fn at(self, i: usize) -> u16 {
        self.get(i)
    }
    // past the head, the bytes as a slice (the loops of `&[V]`)
    fn max_of(self, from: usize, to: usize) -> u16 {
        let h = self.head.len().saturating_sub(self.from).clamp(from, to);
        let head = (from..h).map(|i| self.at(i)).max().unwrap_or(0);
        let bytes = &self.bytes[self.from..];
        head.max(bytes.max_of(h, to))
    }
    fn mark_pairs(self, r: usize, from: usize, to: usize, mark: &mut impl FnMut(u16)) {
        let h = self.head.len().saturating_sub(self.from).clamp(from, to);
        for a in from..h {
            mark(self.at(a) ^ self.at(r - a));
        }
        // (a >= h and r - a >= a: both past the head)
        mark_pairs(&self.bytes[self.from..], r, h, to, mark);
    }
}

/// [`check_values_releasing`] on any [`Source`].
fn check_source<S: Source>(
    rules: &Rules,
    values: S,
    release: &dyn Fn(usize, usize),
) -> Result<(), String> {
    // Every value is at most 2^b, b the bit length of the largest value before it. A block
    // whose own largest value is within the bound of the values before the block passes as a
    // whole (the bound only grows within it); any other block is checked value by value.
    let mut max = 0u16;
    for b in 0..values.len().div_ceil(4096) {
        if b % (RELEASE_EVERY / 4096) == 0 && b > 0 {
            release((b - RELEASE_EVERY / 4096) * 4096, b * 4096);
        }
        let block = b * 4096..(b * 4096 + 4096).min(values.len());
        let top = values.max_of(block.start, block.end);
        if u32::from(top) <= 1u32 << (16 - max.leading_zeros()) {
            max = max.max(top);
            continue;
        }
        for (i, v) in block.map(|i| values.at(i)).enumerate() {
            let bound = 1u32 << (16 - max.leading_zeros());
            if u32::from(v) > bound {
                let n = b * 4096 + i;
                return Err(format!(
                    "G({n}) = {v}, but the values before it are at most {max}, so it is at most {bound}"
                ));
            }
            max = max.max(v);
        }
    }
    let prefix = values.len().min(VERIFIED_PREFIX);
    let mut naive = super::Naive::new(rules.clone());
    let mut g = Vec::with_capacity(prefix);
    for (n, v) in (0..prefix).map(|i| values.at(i)).enumerate() {
        // An engine that cannot go on (a value past u16) checks nothing further.
        let Ok(want) = naive.next_value(&g) else {
            break;
        };
        if want != v {
            return Err(format!("G({n}) is {want}, not {v}"));
        }
        g.push(want);
    }
    if values.len() <= prefix || rules.max_heaps_left() > 2 {
        return Ok(());
    }
    // Heap sizes to check: the last 64, then random ones beyond the prefix.
    let len = values.len();
    let pair_digits = match rules {
        Rules::Code(c) => (0..c.digits().len()).filter(|&k| c.allows(k, 2)).count() as u64,
        Rules::GrundysGame => 1,
    };
    let per_value = (len as u64 / 2).max(1) * pair_digits.max(1) + 64;
    let count = (SAMPLE_WORK / per_value).clamp(4, SAMPLED as u64) as usize;
    let mut seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
        | 1;
    let span = (len - prefix) as u64;
    let tail = count.min(64).min(len - prefix);
    let picks = (len - tail..len).chain((0..count - tail).map(|_| {
        // xorshift64
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        prefix + (seed % span) as usize
    }));
    // Option values are below 2^b, b the bit length of the largest value.
    let mut seen = vec![false; (1usize << (16 - max.leading_zeros())) + 1];
    for n in picks {
        let want = mex_from(rules, values, n, &mut seen, release);
        if u32::from(values.at(n)) != want {
            return Err(format!(
                "G({n}) is {}, but its options' values in the file give {want}",
                values.at(n)
            ));
        }
    }
    Ok(())
}

/// G(n) as the mex of its options' values read from `g` below `n` (rules whose moves leave
/// at most two heaps), `seen` one flag per value, wide enough for every nim-sum of two
/// values of `g`, plus one. (A flag per byte, not a bit set: marking is then a store with no
/// read, where setting bits of one word serialised every split of a game with small values.)
/// `release` as in [`check_values_releasing`].
fn mex_from<S: Source>(
    rules: &Rules,
    g: S,
    n: usize,
    seen: &mut [bool],
    release: &dyn Fn(usize, usize),
) -> u32 {
    seen.fill(false);
    let mut mark = |v: u16| seen[usize::from(v)] = true;
    match rules {
        Rules::Code(c) => {
            for (k, _) in c.digits().iter().enumerate() {
                if k > n {
                    break;
                }
                if c.allows(k, 0) && k == n {
                    mark(0);
                }
                if c.allows(k, 1) && k < n {
                    mark(g.at(n - k));
                }
                if c.allows(k, 2) && n >= k + 2 {
                    // heaps a and r - a, a stretch of a at a time (and its mirror)
                    let r = n - k;
                    let mut from = 1;
                    while from <= r / 2 {
                        let to = (from + RELEASE_EVERY).min(r / 2 + 1);
                        g.mark_pairs(r, from, to, &mut mark);
                        release(from, to);
                        release(r + 1 - to, r + 1 - from);
                        from = to;
                    }
                }
            }
        }
        Rules::GrundysGame => {
            g.mark_pairs(n, 1, n.div_ceil(2), &mut mark);
        }
    }
    seen.iter().position(|&s| !s).unwrap_or(seen.len()) as u32
}

/// `mark(G(a) ⊕ G(r - a))` for every `a` in `from..to` (`to <= r / 2 + 1`). The nim-sums are
/// taken a block at a time into a buffer (a loop the compiler vectorises, the mirrored block
/// read backwards) and marked from there: the checks of the last values of a checkpoint at
/// 2^31 read 2^30 pairs each, and one pair at a time the loop took 1.9 ns a pair.
fn mark_pairs<V: Value>(g: &[V], r: usize, from: usize, to: usize, mark: &mut impl FnMut(u16)) {
    const BLOCK: usize = 64;
    let mut sums = [0u16; BLOCK];
    let mut a = from;
    while a + BLOCK <= to {
        let low = &g[a..a + BLOCK];
        let high = &g[r + 1 - a - BLOCK..r + 1 - a];
        for (i, s) in sums.iter_mut().enumerate() {
            *s = low[i].xor(high[BLOCK - 1 - i]);
        }
        sums.iter().for_each(|&s| mark(s));
        a += BLOCK;
    }
    for a in a..to {
        mark(g[a].xor(g[r - a]));
    }
}

/// Something a [`Store`] has to tell the user (the front end prints it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Notice {
    /// For information (e.g. where checkpoints are kept, said when the place is created).
    Note(String),
    /// Checkpointing stopped for this run; the run itself goes on.
    Warning(String),
}

/// Where one run keeps its checkpoint, and the rules that keep checkpoints from being lost:
///
/// - only the run holding the [`Lock`] writes or removes the file; a second run of the same
///   computation resumes from it read-only and goes on without saving (never dies);
/// - the file never shrinks: a run saves only when it holds more values than the file, and
///   never removes a file longer than its own result;
/// - a place where nothing can be written (read-only, missing, locked) turns checkpointing off
///   with one [`Notice::Warning`]: the run goes on and prints its results.
#[derive(Debug)]
pub struct Store {
    path: PathBuf,
    identity: Identity,
    /// The default place: its directory is created at the first save, and the file is removed
    /// when the run completes.
    default_place: bool,
    lock: Option<Lock>,
    /// Why this run no longer writes (set once).
    read_only: Option<String>,
    /// Values the file holds (as loaded, or as this run last saved).
    on_file: usize,
    /// How to append to the file, when it is a format-2 file this run wrote or read.
    append: Option<Appender>,
}

impl Store {
    /// A checkpoint file the user chose: its directory must exist (it is never created), the
    /// file is kept when the run completes.
    pub fn chosen(path: &Path, identity: Identity) -> Result<Store, CheckpointError> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            if !dir.is_dir() {
                return Err(io_error(
                    path,
                    format!("directory '{}' does not exist", dir.display()),
                ));
            }
        }
        // Before any lock file is made beside it.
        if let Some(what) = std::fs::metadata(path).ok().as_ref().and_then(not_a_file) {
            return Err(io_error(path, what));
        }
        Ok(Self::new(path, identity, false))
    }

    /// The default checkpoint of a computation: the directory is created at the first save, and
    /// the file is removed when the run completes.
    pub fn default_place(path: &Path, identity: Identity) -> Store {
        Self::new(path, identity, true)
    }

    fn new(path: &Path, identity: Identity, default_place: bool) -> Store {
        Store {
            path: path.to_path_buf(),
            identity,
            default_place,
            lock: None,
            read_only: None,
            on_file: 0,
            append: None,
        }
    }

    /// The checkpoint file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// How many values the file holds for sure (0 if this run has not seen or written it).
    pub fn on_file(&self) -> usize {
        self.on_file
    }

    /// Stop writing, and say why (only the first reason is told).
    fn give_up(&mut self, reason: String) -> Option<Notice> {
        self.lock = None;
        if self.read_only.is_some() {
            return None;
        }
        let message = format!(
            "{reason}; this run goes on without saving checkpoints to '{}'",
            self.path.display()
        );
        self.read_only = Some(message.clone());
        Some(Notice::Warning(message))
    }

    /// Take the lock if this run does not hold it yet; `false` (with a notice) if it cannot.
    fn acquire(&mut self, notices: &mut Vec<Notice>) -> bool {
        if self.lock.is_some() {
            return true;
        }
        if self.read_only.is_some() {
            return false;
        }
        match Lock::try_acquire(&self.path) {
            Ok(Some(lock)) => {
                self.lock = Some(lock);
                true
            }
            Ok(None) => {
                notices.extend(self.give_up("another run is using this checkpoint".into()));
                false
            }
            Err(e) => {
                notices.extend(self.give_up(e.to_string()));
                false
            }
        }
    }

    /// The first `keep` values of the checkpoint, if there is one (a corrupt or foreign file is
    /// an error). When another run holds the lock the values are still read — a checkpoint is
    /// always complete — but this run will not write.
    pub fn resume(&mut self, keep: usize) -> Result<(Vec<u16>, Vec<Notice>), CheckpointError> {
        let (values, notices) = self.resume_values(keep, Load::Wide)?;
        Ok((values.into_u16(), notices))
    }

    /// [`Self::resume`] into the store `kind` says ([`Load`]): what a run of an engine that
    /// reads bytes (or bytes with a head) resumes from.
    pub fn resume_values(
        &mut self,
        keep: usize,
        kind: Load,
    ) -> Result<(Values, Vec<Notice>), CheckpointError> {
        let mut notices = Vec::new();
        let empty = || Values::new(kind != Load::Wide);
        if !self.path.exists() {
            return Ok((empty(), notices));
        }
        self.acquire(&mut notices);
        let Some((c, append)) = load_appendable(&self.path, keep, kind)? else {
            return Ok((empty(), notices));
        };
        same_identity(&self.path, &c.identity, &self.identity)?;
        // What the file says is checked against the rules before a run builds on it.
        let rules = Rules::parse(&self.identity.code).map_err(|e| CheckpointError::Mismatch {
            path: self.path.display().to_string(),
            reason: format!("its code cannot be read: {e}"),
        })?;
        let checked = match c.values.as_ref() {
            ValuesRef::U8(g) => check_values_of(&rules, g),
            ValuesRef::U16(g) => check_values_of(&rules, g),
            ValuesRef::Split(split) => check_split_values(&rules, split),
        };
        checked.map_err(|reason| CheckpointError::Untrue {
            path: self.path.display().to_string(),
            reason,
        })?;
        self.on_file = c.count;
        self.append = append;
        Ok((c.values, notices))
    }

    /// Save `values` unless the file already holds as many, or this run does not write.
    pub fn save<'a>(&mut self, values: impl Into<ValuesRef<'a>>) -> Vec<Notice> {
        let values: ValuesRef<'a> = values.into();
        let mut notices = Vec::new();
        if self.read_only.is_some() || values.len() <= self.on_file {
            return notices;
        }
        if self.lock.is_none() && self.default_place {
            if let Some(dir) = self.path.parent().filter(|d| !d.is_dir()) {
                if let Err(e) = std::fs::create_dir_all(dir) {
                    let reason = format!("cannot create directory '{}': {e}", dir.display());
                    notices.extend(self.give_up(reason));
                    return notices;
                }
                notices.push(Notice::Note(format!(
                    "checkpoints of long runs are kept in '{}' until the run completes \
                     (--no-checkpoint turns them off)",
                    dir.display()
                )));
            }
        }
        if !self.acquire(&mut notices) {
            return notices;
        }
        // the values past the file's, appended; or the whole file anew when it is not one this
        // run can append to (format 1, or not as this run left it)
        let appended = match self.append.as_mut() {
            Some(a) => append(&self.path, &self.identity, a, values, self.on_file),
            None => Ok(false),
        };
        let saved = match appended {
            Ok(true) => Ok(()),
            Ok(false) => write_whole(&self.path, &self.identity, values).map(|a| {
                self.append = Some(a);
            }),
            Err(e) => Err(e),
        };
        match saved {
            Ok(()) => self.on_file = values.len(),
            Err(e) => {
                self.append = None;
                let e = io_error(&self.path, format!("cannot save: {e}"));
                notices.extend(self.give_up(e.to_string()))
            }
        }
        notices
    }

    /// The run completed with `values`: a chosen file is brought up to them (it then holds the
    /// whole result); the default file is removed — unless it holds more than `values`.
    pub fn finish<'a>(&mut self, values: impl Into<ValuesRef<'a>>) -> Vec<Notice> {
        let values: ValuesRef<'a> = values.into();
        if !self.default_place {
            return self.save(values);
        }
        if self.lock.is_some() && self.on_file <= values.len() {
            let _ = std::fs::remove_file(&self.path);
            // The lock file goes too. A run that opened it just before may then lock the
            // removed file while a later one locks a new one, and both write the checkpoint:
            // each writes it whole through a temporary file of its own, or appends only to a
            // file whose newer record is the one it left (else it writes it whole), and both
            // write the same values (the sequence is the same), syncing them before a record
            // counts them; so the file is always one of their saves, and nothing is lost.
            let _ = std::fs::remove_file(lock_path(&self.path));
        }
        self.lock = None;
        Vec::new()
    }
}

/// How a run saves the values computed so far ([`Control::save`]).
pub type Save<'a> = &'a mut dyn FnMut(ValuesRef<'_>) -> Result<(), Error>;
/// What sees the values of a run as it goes ([`Control::values`]).
pub type SeeValues<'a> = &'a mut dyn FnMut(ValuesRef<'_>) -> Result<(), Error>;

/// How a resumable run saves and stops.
pub struct Control<'a> {
    /// Time between two saves.
    pub every: Duration,
    /// Save the values computed so far.
    pub save: Save<'a>,
    /// Set (e.g. by a Ctrl-C handler) to save and stop.
    pub stop: &'a AtomicBool,
    /// Called now and then with the number of values computed.
    pub progress: Option<&'a dyn Fn(usize)>,
    /// Called with the progress: the period search so far.
    pub search: Option<&'a dyn Fn(&PeriodDetector)>,
    /// Called with the values so far at every progress point and when the run ends (e.g. to
    /// write summaries at powers of two, [`crate::takebreak::powers`]).
    pub values: Option<SeeValues<'a>>,
}

/// How a resumable run ended.
#[derive(Debug)]
pub enum Outcome {
    /// Reached `n` (or a certified period with [`crate::takebreak::Finish::AtCertificate`]).
    Finished(Computation),
    /// Stopped on request after saving this many values.
    Interrupted(usize),
    /// The plan's value budget ran out (no certified period yet) after saving this many values,
    /// kept in this many bytes each (1 or 2) when it did.
    OverBudget(usize, usize),
}

/// [`crate::takebreak::extend`] with checkpoints: continue from `values` (e.g. loaded from a
/// checkpoint) as `plan` says, saving every `control.every` and when `control.stop` is set.
/// The values, the period and the summary are exactly those of
/// [`crate::takebreak::compute`]. `control.search` (if any) sees the period detector with the
/// progress.
pub fn run(
    rules: &Rules,
    values: Vec<u16>,
    plan: Plan,
    engine: &mut dyn SequenceEngine,
    control: Control<'_>,
) -> Result<Outcome, Error> {
    let values = Values::from_u16(values, engine.compact());
    run_values(rules, values, plan, engine, control)
}

/// [`run`] from values already in a store (e.g. [`Store::resume_values`]'s).
pub fn run_values(
    rules: &Rules,
    values: Values,
    plan: Plan,
    engine: &mut dyn SequenceEngine,
    control: Control<'_>,
) -> Result<Outcome, Error> {
    let (mut ticks, save) = Ticks::of(control);
    let ended = drive_values(rules, values, plan, engine, |values, detector| {
        ticks.tick(values, detector, &mut *save)
    })?;
    match ended {
        Ended::Finished(computation) => {
            ticks.end(computation.values.as_ref())?;
            Ok(Outcome::Finished(computation))
        }
        Ended::Stopped(values) => Ok(Outcome::Interrupted(values.len())),
        Ended::OverBudget(values) => {
            if !values.is_empty() {
                save(values.as_ref())?;
            }
            Ok(Outcome::OverBudget(values.len(), values.value_bytes()))
        }
    }
}

/// What a resumable run does at each tick of the driver, shared by [`run`] and the tiered run
/// ([`super::tiered::run`]), which differ only in how they save: show the tick to the
/// [`Control`]'s hooks, then save and stop when asked to stop, or save when a save is due.
pub(crate) struct Ticks<'a> {
    every: Duration,
    stop: &'a AtomicBool,
    progress: Option<&'a dyn Fn(usize)>,
    search: Option<&'a dyn Fn(&PeriodDetector)>,
    see: Option<SeeValues<'a>>,
    last_save: Instant,
    /// What the last save took: the next one waits at least four times as long, so that saving
    /// never takes more than a fifth of a run, however short `every` is.
    last_cost: Duration,
}

impl<'a> Ticks<'a> {
    /// The ticks of `control`, and its save.
    pub(crate) fn of(control: Control<'a>) -> (Ticks<'a>, Save<'a>) {
        let Control {
            every,
            save,
            stop,
            progress,
            search,
            values,
        } = control;
        let ticks = Ticks {
            every,
            stop,
            progress,
            search,
            see: values,
            last_save: Instant::now(),
            last_cost: Duration::ZERO,
        };
        (ticks, save)
    }

    /// One tick with `values` computed so far, saved with `save` when due.
    pub(crate) fn tick(
        &mut self,
        values: ValuesRef<'_>,
        detector: &PeriodDetector,
        save: &mut dyn FnMut(ValuesRef<'_>) -> Result<(), Error>,
    ) -> Result<Step, Error> {
        if let Some(s) = self.search {
            s(detector);
        }
        if let Some(f) = self.see.as_mut() {
            f(values)?;
        }
        if let Some(p) = self.progress {
            p(values.len());
        }
        if self.stop.load(Ordering::Relaxed) {
            save(values)?;
            return Ok(Step::Stop);
        }
        if self.last_save.elapsed() >= self.every.max(self.last_cost * 4) {
            let started = Instant::now();
            save(values)?;
            self.last_cost = started.elapsed();
            self.last_save = Instant::now();
        }
        Ok(Step::Continue)
    }

    /// The end of a finished run: the last progress and the last look at the values.
    pub(crate) fn end(&mut self, values: ValuesRef<'_>) -> Result<(), Error> {
        if let Some(p) = self.progress {
            p(values.len());
        }
        if let Some(f) = self.see.as_mut() {
            f(values)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::takebreak::sparse::RareCommon;
    use crate::takebreak::{compute, Finish, Naive};

    fn identity() -> Identity {
        Identity {
            code: "0.16".into(),
            engine: "sparse".into(),
            engine_version: 1,
        }
    }

    fn temp_dir() -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "grundy-checkpoint-test-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn saves_and_loads_bit_identical_values() {
        let dir = temp_dir();
        let path = dir.join("a.ckpt");
        let values: Vec<u16> = (0..(3 * CHUNK as u64 + 17))
            .map(|i| (i * 7919 % 65536) as u16)
            .collect();
        save(&path, &identity(), &values).unwrap();
        // only the checkpoint is left: no temporary file
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["a.ckpt"]);
        let c = load(&path, usize::MAX).unwrap().unwrap();
        assert_eq!(c.identity, identity());
        assert_eq!(c.values, values);
        assert_eq!(c.count, values.len());
        let head = load(&path, 10).unwrap().unwrap();
        assert_eq!(
            (head.values.as_slice(), head.count),
            (&values[..10], values.len())
        );
        assert_eq!(
            load_for(&path, &identity(), usize::MAX)
                .unwrap()
                .unwrap()
                .values,
            values
        );
        assert_eq!(load(&dir.join("missing"), 5).unwrap(), None);
        std::fs::remove_dir_all(dir).unwrap();
    }

    /// `Load::Odd8` (a resumed `--compact-values` run): bytes while every value is below 256,
    /// then bytes with a head in `u16` when the head is at most a quarter of what is kept (and
    /// at least `ODD8_FROM` values are), else `u16`; the values always those of the file.
    #[test]
    fn values_load_into_bytes_with_a_head_where_they_fit() {
        use crate::takebreak::values::Odd8;
        let dir = temp_dir();
        let path = dir.join("o.ckpt");
        let len = 3 * ODD8_FROM + 17;
        let fitting: Vec<u16> = (0..512)
            .filter(|&v| Odd8::fits(v))
            .map(|v| v as u16)
            .collect();
        let mut state = 7u64;
        let mut next = move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as usize
        };
        let fit: Vec<u16> = (0..len).map(|_| fitting[next() % fitting.len()]).collect();
        // values that do not fit up to `last`, then values that do (past 255 too)
        let with_head = |last: usize, below: usize| -> Vec<u16> {
            let mut v = fit.clone();
            for (i, x) in v.iter_mut().enumerate().take(last + 1) {
                *x = (i * 7919 % below) as u16;
            }
            v[last] = 0; // (0 does not fit)
            v
        };
        let small: Vec<u16> = (0..len).map(|i| (i * 7919 % 251) as u16).collect();
        // (values, keep, the store expected: 1 bytes, 3 bytes with a head of that many, 2 u16)
        let cases: [(Vec<u16>, usize, (u8, usize)); 6] = [
            (small.clone(), usize::MAX, (1, 0)),
            (with_head(1000, 600), usize::MAX, (3, 1024)),
            // a head reached through bytes first (values below 256 up to it, then past)
            (with_head(20_000, 256), usize::MAX, (3, 20_032)),
            // a head of more than a quarter of the values kept
            (with_head(len / 4 + 100, 600), usize::MAX, (2, 0)),
            (with_head(1000, 600), ODD8_FROM + 3000, (3, 1024)),
            // too few values kept: as `Load::Bytes`
            (with_head(1000, 600), ODD8_FROM - 1, (2, 0)),
        ];
        for (values, keep, (store, head)) in cases {
            save(&path, &identity(), &values).unwrap();
            let (c, _) = load_appendable(&path, keep, Load::Odd8).unwrap().unwrap();
            let kept = keep.min(values.len());
            assert_eq!(c.values.to_vec(), &values[..kept], "keep {keep}");
            match (&c.values, store) {
                (Values::U8(_), 1) | (Values::U16(_), 2) => {}
                (Values::Odd8(s), 3) => {
                    assert_eq!(s.head.len(), head, "keep {keep}");
                    assert!(values[head..kept].iter().all(|&v| Odd8::fits(v as usize)));
                }
                (other, _) => panic!(
                    "keep {keep}: {} bytes, head {}",
                    other.value_bytes(),
                    other.head_len()
                ),
            }
        }
        std::fs::remove_dir_all(dir).unwrap();
    }

    /// The checks of a resumed run read a store of bytes with a head where it is, and find
    /// what they find in `u16`: Officers' true values pass, a changed one does not.
    #[test]
    fn officers_in_bytes_are_checked_as_in_u16() {
        use crate::takebreak::values::Odd8Store;
        let rules = Rules::parse("0.6").unwrap();
        let mut engine = RareCommon::new(&"0.6".parse().unwrap()).unwrap();
        let mut g = Vec::new();
        while g.len() < 90_000 {
            let v = engine.next_value(&g).unwrap();
            g.push(v);
        }
        let store = Odd8Store::from_u16(&g, g.len() / 4).expect("a head of 20,672 values");
        assert_eq!(store.head.len(), 20_672);
        assert_eq!(check_split_values(&rules, store.as_ref()), Ok(()));
        // a value past the head changed to another that fits (in the sampled tail), and one in
        // the head: each refused, with the message of the u16 check
        for (at, to) in [(89_990, g[89_990] ^ 1), (5_000, g[5_000] ^ 1)] {
            let mut bad = g.clone();
            bad[at] = to;
            let store = Odd8Store::from_u16(&bad, bad.len() / 4).unwrap();
            let want = check_values(&rules, &bad);
            assert!(want.is_err(), "G({at}) = {to}");
            assert_eq!(
                check_split_values(&rules, store.as_ref()),
                want,
                "G({at}) = {to}"
            );
        }
    }

    #[test]
    fn values_load_into_bytes_until_one_does_not_fit_and_equal_the_u16_load() {
        let dir = temp_dir();
        let path = dir.join("b.ckpt");
        let len = 3 * CHUNK + 17;
        let small: Vec<u16> = (0..len as u64).map(|i| (i * 7919 % 251) as u16).collect();
        // the first value past 255 in the middle of the third chunk, none after it
        let mut wide = small.clone();
        wide[2 * CHUNK + 1000] = 300;
        for (values, bytes) in [(&small, 1), (&wide, 2)] {
            save(&path, &identity(), values).unwrap();
            for keep in [usize::MAX, 2 * CHUNK + 5, 10] {
                let u16s = load(&path, keep).unwrap().unwrap();
                let c = load_values(&path, keep, true).unwrap().unwrap();
                assert_eq!((c.count, &c.identity), (len, &identity()));
                assert_eq!(c.values.to_vec(), u16s.values, "keep {keep}");
                // bytes while every value kept fits one
                let fits = u16s.values.iter().all(|&v| v < 256);
                assert_eq!(c.values.value_bytes(), if fits { 1 } else { bytes });
                // no room beyond the values kept: one reservation, never a doubling
                match &c.values {
                    Values::U8(Buf::Heap(v)) => assert_eq!(v.capacity(), v.len()),
                    Values::U16(Buf::Heap(v)) => assert_eq!(v.capacity(), v.len()),
                    _ => unreachable!("a store in memory"),
                }
                let plain = load_values(&path, keep, false).unwrap().unwrap();
                assert_eq!(
                    (plain.values.value_bytes(), plain.values.to_vec()),
                    (2, u16s.values)
                );
            }
        }
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn temporary_names_are_unique_and_the_lock_is_exclusive() {
        let dir = temp_dir();
        let path = dir.join("c.ckpt");
        assert_ne!(temp_path(&path), temp_path(&path));
        let first = Lock::try_acquire(&path).unwrap();
        assert!(first.is_some());
        // a second handle (as another process would open) cannot take it while it is held
        assert!(Lock::try_acquire(&path).unwrap().is_none());
        drop(first);
        assert!(Lock::try_acquire(&path).unwrap().is_some());
        // a save into a directory that does not exist fails cleanly
        let e = save(
            &dir.join("none").join("x.ckpt"),
            &identity(),
            &[1u16, 2][..],
        )
        .unwrap_err();
        assert!(e.to_string().contains("cannot save"), "{e}");
        std::fs::remove_dir_all(dir).unwrap();
    }

    /// A format-1 file of `values`, as earlier versions wrote it: the identity, a count, the
    /// values and a CRC of everything before.
    fn format_1(identity: &Identity, values: &[u16]) -> Vec<u8> {
        let mut b = identity_head(identity, FORMAT_1);
        b.extend_from_slice(&(values.len() as u64).to_le_bytes());
        for v in values {
            b.extend_from_slice(&v.to_le_bytes());
        }
        let crc = crc32fast::hash(&b);
        b.extend_from_slice(&crc.to_le_bytes());
        b
    }

    #[cfg(unix)]
    fn inode(path: &Path) -> u64 {
        use std::os::unix::fs::MetadataExt;
        std::fs::metadata(path).unwrap().ino()
    }

    /// Where the values of a format-2 file of `identity()` start, and its records' offsets.
    fn layout() -> (usize, [usize; 2]) {
        let head = identity_head(&identity(), FORMAT).len();
        (head + 2 * RECORD_BYTES, [head, head + RECORD_BYTES])
    }

    /// A fresh directory, a checkpoint path `name` in it, and G(0..n) of 0.16.
    fn fixture(name: &str, n: usize) -> (PathBuf, PathBuf, Vec<u16>) {
        let dir = temp_dir();
        let path = dir.join(name);
        let g = crate::takebreak::naive::sequence_of(&Rules::parse("0.16").unwrap(), n).unwrap();
        (dir, path, g)
    }

    /// The newer intact record of the format-2 file `b`, and its slot.
    fn newest(b: &[u8]) -> (Record, usize) {
        let (_, slots) = layout();
        (0..2)
            .filter_map(|i| Record::parse(&b[slots[i]..slots[i] + RECORD_BYTES]).map(|r| (r, i)))
            .max_by_key(|(r, _)| r.generation)
            .expect("an intact record")
    }

    #[test]
    #[cfg(unix)]
    fn a_store_appends_to_its_file_and_a_save_cut_short_leaves_the_one_before() {
        let (dir, path, g) = fixture("e.ckpt", 40_000);
        let (start, slots) = layout();
        let mut a = Store::chosen(&path, identity()).unwrap();
        assert!(a.save(&g[..10_000]).is_empty());
        let first = inode(&path);
        // later saves append in place: the same file, no temporary one, two bytes a value more
        for k in [10_001, 25_000, 30_000] {
            assert!(a.save(&g[..k]).is_empty());
            assert_eq!(inode(&path), first, "appended, not rewritten");
            assert_eq!(
                std::fs::metadata(&path).unwrap().len(),
                (start + 2 * k) as u64
            );
            assert_eq!(load(&path, usize::MAX).unwrap().unwrap().values, g[..k]);
        }
        assert_eq!(
            std::fs::read_dir(&dir).unwrap().count(),
            2,
            "the file and its lock"
        );
        drop(a);
        let good = std::fs::read(&path).unwrap();
        // killed after writing values but before the record that covers them: the file is read
        // as the last record says, and the next run appends over the unclaimed bytes
        let mut cut = good.clone();
        cut.extend_from_slice(&[0xAB; 999]);
        std::fs::write(&path, &cut).unwrap();
        let mut b = Store::chosen(&path, identity()).unwrap();
        let (values, notices) = b.resume(usize::MAX).unwrap();
        assert_eq!((values.as_slice(), notices.len()), (&g[..30_000], 0));
        assert!(b.save(&g[..35_000]).is_empty());
        assert_eq!(
            load(&path, usize::MAX).unwrap().unwrap().values,
            g[..35_000]
        );
        drop(b);
        // a torn newest record (killed while it was written): the older one is used, and a
        // run resuming from it appends after it
        let mut torn = good.clone();
        torn[slots[newest(&good).1] + 3] ^= 0x10;
        std::fs::write(&path, &torn).unwrap();
        let c = load(&path, usize::MAX).unwrap().unwrap();
        assert_eq!((c.values.as_slice(), c.count), (&g[..25_000], 25_000));
        let mut d = Store::chosen(&path, identity()).unwrap();
        assert_eq!(d.resume(usize::MAX).unwrap().0, g[..25_000]);
        assert!(d.save(&g[..40_001]).is_empty());
        assert_eq!(
            load(&path, usize::MAX).unwrap().unwrap().values,
            g[..=40_000]
        );
        drop(d);
        // a value damaged past the older record's values: the newer record fails its checksum
        // and the older one holds; damaged before: neither does, and the file is refused
        let mut late = good.clone();
        late[start + 2 * 27_000] ^= 1;
        std::fs::write(&path, &late).unwrap();
        assert_eq!(load(&path, usize::MAX).unwrap().unwrap().count, 25_000);
        let mut early = good.clone();
        early[start + 2 * 100] ^= 1;
        std::fs::write(&path, &early).unwrap();
        let e = load(&path, usize::MAX).unwrap_err().to_string();
        assert!(e.contains("checksum"), "{e}");
        // both records torn: refused
        let mut none = good.clone();
        none[slots[0]] ^= 1;
        none[slots[1]] ^= 1;
        std::fs::write(&path, &none).unwrap();
        let e = load(&path, usize::MAX).unwrap_err().to_string();
        assert!(e.contains("corrupt") && e.contains("record"), "{e}");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    #[cfg(unix)]
    fn a_kill_inside_a_save_and_files_changed_behind_a_run_lose_nothing() {
        let (dir, path, g) = fixture("g.ckpt", 30_000);
        let (start, slots) = layout();
        let mut a = Store::chosen(&path, identity()).unwrap();
        a.save(&g[..10_000]);
        a.save(&g[..20_000]);
        let good = std::fs::read(&path).unwrap();
        let (record, slot) = newest(&good);
        assert_eq!(record.count, 20_000);
        // what a kill inside the next save leaves: its values written past the file's, and the
        // record it was writing (the older one) torn; the newer record stands
        let mut killed = good.clone();
        for v in &g[20_000..25_000] {
            killed.extend_from_slice(&v.to_le_bytes());
        }
        let older = slots[1 - slot];
        killed[older..older + 12].copy_from_slice(&[0x5A; 12]);
        std::fs::write(&path, &killed).unwrap();
        let c = load(&path, usize::MAX).unwrap().unwrap();
        assert_eq!((c.values.as_slice(), c.count), (&g[..20_000], 20_000));
        drop(a);
        let mut b = Store::chosen(&path, identity()).unwrap();
        b.resume(usize::MAX).unwrap();
        let ino = inode(&path);
        assert!(b.save(&g[..26_000]).is_empty());
        assert_eq!(inode(&path), ino, "appended over the torn record");
        assert_eq!(
            load(&path, usize::MAX).unwrap().unwrap().values,
            g[..26_000]
        );
        // the file removed during the run: the next save writes it whole, saving goes on
        std::fs::remove_file(&path).unwrap();
        assert!(b.save(&g[..27_000]).is_empty());
        assert_eq!(
            load(&path, usize::MAX).unwrap().unwrap().values,
            g[..27_000]
        );
        // a record of another writer, newer than this run's: written whole, not appended to
        let mut other = std::fs::read(&path).unwrap();
        let (mine, slot) = newest(&other);
        let theirs = Record {
            generation: mine.generation + 5,
            ..mine
        };
        let at = slots[1 - slot];
        other[at..at + RECORD_BYTES].copy_from_slice(&theirs.bytes());
        std::fs::write(&path, &other).unwrap();
        let ino = inode(&path);
        assert!(b.save(&g[..28_000]).is_empty());
        assert_ne!(inode(&path), ino, "written whole");
        assert_eq!(
            load(&path, usize::MAX).unwrap().unwrap().values,
            g[..28_000]
        );
        drop(b);
        // a record at the last generation there is: the next save starts the file again
        let mut last = std::fs::read(&path).unwrap();
        let (mine, slot) = newest(&last);
        let at = slots[slot];
        last[at..at + RECORD_BYTES].copy_from_slice(
            &Record {
                generation: u64::MAX,
                ..mine
            }
            .bytes(),
        );
        std::fs::write(&path, &last).unwrap();
        let mut d = Store::chosen(&path, identity()).unwrap();
        assert_eq!(d.resume(usize::MAX).unwrap().0, g[..28_000]);
        assert!(d.save(&g[..29_000]).is_empty());
        let (record, _) = newest(&std::fs::read(&path).unwrap());
        assert_eq!((record.generation, record.count), (1, 29_000));
        drop(d);
        // a damaged value past the older record's count, too large for a byte: the file is
        // read as the older record says, into bytes (the bytes past it are not kept)
        let mut a = Store::chosen(&path, identity()).unwrap();
        a.resume(usize::MAX).unwrap();
        a.save(&g[..29_500]);
        drop(a);
        let mut damaged = std::fs::read(&path).unwrap();
        damaged[start + 2 * 29_200 + 1] = 0x7F;
        std::fs::write(&path, &damaged).unwrap();
        let c = load_values(&path, usize::MAX, true).unwrap().unwrap();
        assert_eq!(
            (c.values.len(), c.count, c.values.value_bytes()),
            (29_000, 29_000, 1)
        );
        assert_eq!(c.values.to_vec(), g[..29_000]);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    #[cfg(unix)]
    fn format_1_files_are_read_and_a_file_changed_behind_a_run_is_written_whole() {
        let (dir, path, g) = fixture("f.ckpt", 20_000);
        std::fs::write(&path, format_1(&identity(), &g[..5_000])).unwrap();
        let c = load(&path, usize::MAX).unwrap().unwrap();
        assert_eq!((c.values.as_slice(), c.count), (&g[..5_000], 5_000));
        // a damaged format-1 file is still refused
        let mut bad = format_1(&identity(), &g[..5_000]);
        let at = bad.len() - 100;
        bad[at] ^= 2;
        std::fs::write(dir.join("bad"), &bad).unwrap();
        let e = load(&dir.join("bad"), usize::MAX).unwrap_err().to_string();
        assert!(e.contains("checksum"), "{e}");
        // a run resuming from it writes format 2 once, then appends
        let mut a = Store::chosen(&path, identity()).unwrap();
        a.resume(usize::MAX).unwrap();
        let before = inode(&path);
        assert!(a.save(&g[..6_000]).is_empty());
        let after = inode(&path);
        assert_ne!(before, after, "written whole");
        assert_eq!(std::fs::read(&path).unwrap()[8..12], FORMAT.to_le_bytes());
        assert!(a.save(&g[..7_000]).is_empty());
        assert_eq!(inode(&path), after, "appended");
        // the file replaced behind the run (here by another whole file of the same values):
        // the run does not append to what it did not write, it writes the file whole
        save(&path, &identity(), &g[..7_000]).unwrap();
        let replaced = inode(&path);
        assert!(a.save(&g[..9_000]).is_empty());
        assert_ne!(inode(&path), replaced, "written whole");
        assert_eq!(load(&path, usize::MAX).unwrap().unwrap().values, g[..9_000]);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_store_never_shrinks_and_shares_nothing_with_a_second_run() {
        let dir = temp_dir();
        let path = dir.join("d").join("0.16.sparse.ckpt");
        // True values: a store checks what it resumes from against the rules.
        let rules = Rules::parse("0.16").unwrap();
        let longer = crate::takebreak::naive::sequence_of(&rules, 5999).unwrap();
        let long = longer[..5000].to_vec();
        // the default place is created at the first save, with a note saying where
        let mut a = Store::default_place(&path, identity());
        let notices = a.save(&long);
        assert!(
            matches!(notices.as_slice(), [Notice::Note(_)]),
            "{notices:?}"
        );
        assert_eq!(a.on_file(), 5000);
        // a second run of the same computation reads it but does not write it
        let mut b = Store::default_place(&path, identity());
        let (values, notices) = b.resume(100).unwrap();
        assert_eq!(values, long[..100]);
        assert!(matches!(notices.as_slice(), [Notice::Warning(w)] if w.contains("another run")));
        assert!(b.save(&long[..200]).is_empty());
        assert!(b.finish(&long[..100]).is_empty());
        assert_eq!(load(&path, 0).unwrap().unwrap().count, 5000);
        drop(a);
        // alone now: a shorter run neither shrinks nor removes it
        let mut c = Store::default_place(&path, identity());
        let (values, notices) = c.resume(100).unwrap();
        assert_eq!((values.len(), notices.len(), c.on_file()), (100, 0, 5000));
        assert!(c.save(&long[..100]).is_empty());
        c.finish(&long[..100]);
        assert_eq!(load(&path, 0).unwrap().unwrap().count, 5000);
        // a run that completes past it removes it (and its lock file)
        let mut d = Store::default_place(&path, identity());
        d.resume(usize::MAX).unwrap();
        d.finish(&longer);
        assert!(!path.exists() && !lock_path(&path).exists());
        // a chosen file in a missing directory is refused before any work
        let e = Store::chosen(&dir.join("none").join("x"), identity()).unwrap_err();
        assert!(e.to_string().contains("does not exist"), "{e}");
        // Regression (issue 27): /dev/null or a directory was "corrupt; delete it".
        let e = Store::chosen(Path::new("/dev/null"), identity()).unwrap_err();
        assert!(e.to_string().contains("not a regular file"), "{e}");
        let e = Store::chosen(&dir, identity()).unwrap_err();
        assert!(e.to_string().contains("is a directory"), "{e}");
        let e = load(&dir, 1).unwrap_err();
        assert!(e.to_string().contains("is a directory"), "{e}");
        assert!(!lock_path(&dir).exists());
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn refuses_corrupt_truncated_and_foreign_checkpoints() {
        let dir = temp_dir();
        let path = dir.join("b.ckpt");
        let values: Vec<u16> = (0..1000).map(|i| i as u16).collect();
        save(&path, &identity(), &values).unwrap();
        let good = std::fs::read(&path).unwrap();
        // one flipped bit in the values
        let mut bad = good.clone();
        bad[100] ^= 4;
        std::fs::write(&path, &bad).unwrap();
        let e = load(&path, usize::MAX).unwrap_err().to_string();
        assert!(e.contains("checksum"), "{e}");
        // truncated
        std::fs::write(&path, &good[..good.len() - 3]).unwrap();
        let e = load(&path, usize::MAX).unwrap_err().to_string();
        assert!(e.contains("corrupt"), "{e}");
        // not a checkpoint
        std::fs::write(&path, b"hello world, this is not it").unwrap();
        let e = load(&path, usize::MAX).unwrap_err().to_string();
        assert!(e.contains("not a grundy checkpoint"), "{e}");
        // another code, another engine version
        std::fs::write(&path, &good).unwrap();
        let other = Identity {
            code: "0.6".into(),
            ..identity()
        };
        let e = load_for(&path, &other, 10).unwrap_err().to_string();
        assert!(e.contains("code 0.16") && e.contains("0.6"), "{e}");
        let newer = Identity {
            engine_version: 2,
            ..identity()
        };
        let e = load_for(&path, &newer, 10).unwrap_err().to_string();
        assert!(e.contains("version 1") && e.contains("version 2"), "{e}");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn pairs_marked_a_block_at_a_time_are_the_pairs_one_at_a_time() {
        let g16: Vec<u16> = (0..700u32)
            .map(|i| (i.wrapping_mul(2654435761) >> 7) as u16 % 1000)
            .collect();
        let g8: Vec<u8> = g16.iter().map(|&v| v as u8).collect();
        for r in [1, 2, 63, 64, 65, 128, 129, 300, 699] {
            for from in [1, 2, 30, 64] {
                let to = r / 2 + 1;
                if from > to {
                    continue;
                }
                let mut got = Vec::new();
                mark_pairs(&g16, r, from, to, &mut |v| got.push(v));
                let want: Vec<u16> = (from..to).map(|a| g16[a] ^ g16[r - a]).collect();
                assert_eq!(got, want, "r {r} from {from}");
                let mut got = Vec::new();
                mark_pairs(&g8, r, from, to, &mut |v| got.push(v));
                let want: Vec<u16> = (from..to).map(|a| u16::from(g8[a] ^ g8[r - a])).collect();
                assert_eq!(got, want, "bytes: r {r} from {from}");
            }
        }
    }

    /// Regression (issue 27): a checkpoint with a valid checksum was trusted for its values —
    /// all zeros gave 0.6 a "certified" period 1, a value 65535 panicked an engine.
    #[test]
    fn values_that_cannot_be_true_are_refused_with_a_valid_checksum() {
        let dir = temp_dir();
        let path = dir.join("0.6.ckpt");
        let rules = Rules::parse("0.6").unwrap();
        let id = Identity {
            code: rules.to_string(),
            engine: "sparse".into(),
            engine_version: 1,
        };
        let truth = crate::takebreak::naive::sequence_of(&rules, 40_000).unwrap();
        let refused = |values: &[u16]| -> String {
            save(&path, &id, values).unwrap();
            let mut store = Store::chosen(&path, id.clone()).unwrap();
            let e = store.resume(usize::MAX).unwrap_err().to_string();
            assert!(!e.contains('\n'), "{e}");
            e
        };
        let e = refused(&[0; 5000]);
        assert!(
            e.contains("cannot be true") && e.contains("G(2) is 1, not 0"),
            "{e}"
        );
        let mut jump = truth[..100].to_vec();
        jump[50] = 65535;
        let e = refused(&jump);
        assert!(e.contains("G(50) = 65535"), "{e}");
        // the same past the first block of the bound's pass, at a block's first and last value
        for at in [12_288, 12_345, 16_383] {
            let mut far = truth.clone();
            far[at] = 65000;
            assert_eq!(
                check_values(&rules, &far).map_err(|e| e.starts_with(&format!("G({at}) = 65000"))),
                Err(true)
            );
        }
        // Past the recomputed prefix: the last values are always checked ...
        let mut late = truth.clone();
        *late.last_mut().unwrap() ^= 1;
        let e = refused(&late);
        assert!(e.contains("options' values in the file"), "{e}");
        // ... and a wrong stretch is found by the sample.
        let mut stretch = truth.clone();
        for v in &mut stretch[20_000..30_000] {
            *v ^= 1;
        }
        assert!(refused(&stretch).contains("cannot be true"));
        // The truth, and any prefix of it, is resumed.
        save(&path, &id, &truth).unwrap();
        let mut store = Store::chosen(&path, id.clone()).unwrap();
        assert_eq!(store.resume(usize::MAX).unwrap().0, truth);
        assert_eq!(check_values(&rules, &truth[..9000]), Ok(()));
        // Grundy's game too: the sample reads its splits.
        let grundy = Rules::GrundysGame;
        let g = crate::takebreak::naive::sequence_of(&grundy, 12_000).unwrap();
        assert_eq!(check_values(&grundy, &g), Ok(()));
        let mut bad = g.clone();
        bad[11_000] ^= 2;
        bad[11_999] ^= 2;
        assert!(check_values(&grundy, &bad).is_err());
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn interrupted_and_resumed_runs_equal_one_run() {
        let rules = Rules::parse("0.16").unwrap();
        let whole = compute(
            &rules,
            20_000,
            Finish::ComputeAll,
            &mut Naive::new(rules.clone()),
            None,
        )
        .unwrap();
        let stop = AtomicBool::new(true);
        let mut saved = Vec::new();
        let mut save = |v: ValuesRef<'_>| {
            saved = v.to_vec();
            Ok(())
        };
        let mut engine = RareCommon::for_rules(&rules).unwrap();
        let first = run(
            &rules,
            Vec::new(),
            Plan::new(20_000, Finish::ComputeAll),
            &mut engine,
            Control {
                every: Duration::from_secs(3600),
                save: &mut save,
                stop: &stop,
                progress: None,
                search: None,
                values: None,
            },
        )
        .unwrap();
        let Outcome::Interrupted(done) = first else {
            panic!("the stop flag was set")
        };
        assert_eq!(done, crate::takebreak::driver::PROGRESS_EVERY);
        assert_eq!(saved.len(), crate::takebreak::driver::PROGRESS_EVERY);
        // a fresh engine resumes from the saved values
        let stop = AtomicBool::new(false);
        let mut engine = RareCommon::for_rules(&rules).unwrap();
        let mut ignore = |_: ValuesRef<'_>| Ok(());
        let second = run(
            &rules,
            saved.clone(),
            Plan::new(20_000, Finish::ComputeAll),
            &mut engine,
            Control {
                every: Duration::ZERO,
                save: &mut ignore,
                stop: &stop,
                progress: None,
                search: None,
                values: None,
            },
        )
        .unwrap();
        let Outcome::Finished(c) = second else {
            panic!("not stopped")
        };
        assert_eq!(c, whole);
        // with --until-period the resumed run stops at the certificate like one run does
        let mut engine = RareCommon::for_rules(&rules).unwrap();
        let once = compute(&rules, 1_000_000, Finish::AtCertificate, &mut engine, None).unwrap();
        let mut engine = RareCommon::for_rules(&rules).unwrap();
        let resumed = run(
            &rules,
            once.values.to_vec()[..200_000].to_vec(),
            Plan::new(1_000_000, Finish::AtCertificate),
            &mut engine,
            Control {
                every: Duration::from_secs(3600),
                save: &mut ignore,
                stop: &stop,
                progress: None,
                search: None,
                values: None,
            },
        )
        .unwrap();
        let Outcome::Finished(c) = resumed else {
            panic!("not stopped")
        };
        assert_eq!(c, once);
    }
}
