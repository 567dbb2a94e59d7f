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
//! magic "GRUNDYCK" | format u32 | engine version u32 | engine name (u16 length, bytes)
//! | code (u32 length, bytes) | count u64 | count × u16 values | CRC-32 of everything before
//! ```
//! A file is refused — never silently used — when the magic, format, length or checksum is
//! wrong (corrupt or not a checkpoint), or when its code or engine (name and version) differ
//! from the run's (a checkpoint of another computation).
//!
//! # Atomicity
//! [`save`] writes `FILE.tmp`, flushes it to disk (`fsync`), renames it over `FILE` and syncs
//! the directory. A rename is atomic, so whenever the process dies — SIGKILL included — `FILE`
//! is either the previous checkpoint or the new one, complete.
//!
//! Values stream through a fixed buffer in both directions, so saving or loading 10^8 values
//! needs no second copy of them (the memory bound of a run stays 2 bytes per heap size).

use super::driver::{drive, Computation, Ended, Plan, Step};
use super::engine::SequenceEngine;
use super::period::PeriodDetector;
use super::rules::Rules;
use crate::Error;
use std::fs::{File, OpenOptions};
use std::io::{BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The first bytes of every checkpoint file.
pub const MAGIC: &[u8; 8] = b"GRUNDYCK";
/// Version of the file layout.
pub const FORMAT: u32 = 1;
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

fn io_error(path: &Path, e: impl std::fmt::Display) -> CheckpointError {
    CheckpointError::Io {
        path: path.display().to_string(),
        message: e.to_string(),
    }
}

/// The temporary file [`save`] writes before renaming it over `path`.
pub fn temp_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".tmp");
    path.with_file_name(name)
}

fn header(identity: &Identity, count: usize) -> Vec<u8> {
    let mut h = Vec::with_capacity(64 + identity.code.len());
    h.extend_from_slice(MAGIC);
    h.extend_from_slice(&FORMAT.to_le_bytes());
    h.extend_from_slice(&identity.engine_version.to_le_bytes());
    h.extend_from_slice(&(identity.engine.len() as u16).to_le_bytes());
    h.extend_from_slice(identity.engine.as_bytes());
    h.extend_from_slice(&(identity.code.len() as u32).to_le_bytes());
    h.extend_from_slice(identity.code.as_bytes());
    h.extend_from_slice(&(count as u64).to_le_bytes());
    h
}

/// Save `values` as the checkpoint of `identity`, atomically (see the module docs).
pub fn save(path: &Path, identity: &Identity, values: &[u16]) -> Result<(), CheckpointError> {
    let tmp = temp_path(path);
    let write = || -> std::io::Result<()> {
        let mut file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(&tmp)?;
        let mut crc = crc32fast::Hasher::new();
        let head = header(identity, values.len());
        crc.update(&head);
        file.write_all(&head)?;
        let mut buf = Vec::with_capacity(2 * CHUNK);
        for chunk in values.chunks(CHUNK) {
            buf.clear();
            for &v in chunk {
                buf.extend_from_slice(&v.to_le_bytes());
            }
            crc.update(&buf);
            file.write_all(&buf)?;
        }
        file.write_all(&crc.finalize().to_le_bytes())?;
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
    write().map_err(|e| io_error(path, format!("cannot save: {e}")))
}

/// A loaded checkpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checkpoint {
    pub identity: Identity,
    pub values: Vec<u16>,
}

/// Read and verify a checkpoint (magic, format, length, checksum). At most `keep` values are
/// kept in memory (all are checked); `Ok(None)` when the file does not exist.
pub fn load(path: &Path, keep: usize) -> Result<Option<Checkpoint>, CheckpointError> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_error(path, format!("cannot open: {e}"))),
    };
    let size = file.metadata().map_err(|e| io_error(path, e))?.len();
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
    if format != FORMAT {
        return Err(corrupt(&format!(
            "file format {format}, this program reads format {FORMAT}"
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
    let count = u64::from_le_bytes(read(8, &mut crc)?.try_into().expect("8 bytes"));
    let head_len = 8 + 4 + 4 + 2 + engine_len as u64 + 4 + code_len + 8;
    if count
        .checked_mul(2)
        .and_then(|b| b.checked_add(head_len + 4))
        != Some(size)
    {
        return Err(corrupt(&format!(
            "its length does not match the {count} values it announces"
        )));
    }
    let count = count as usize;
    let mut values = Vec::with_capacity(count.min(keep));
    let mut left = count;
    while left > 0 {
        let take = left.min(CHUNK);
        let bytes = read(2 * take, &mut crc)?;
        let room = keep.saturating_sub(values.len()).min(take);
        values.extend(
            bytes[..2 * room]
                .chunks_exact(2)
                .map(|b| u16::from_le_bytes([b[0], b[1]])),
        );
        left -= take;
    }
    let expected = crc.finalize();
    let mut tail = [0u8; 4];
    reader
        .read_exact(&mut tail)
        .map_err(|_| corrupt("truncated"))?;
    if u32::from_le_bytes(tail) != expected {
        return Err(corrupt("checksum mismatch"));
    }
    Ok(Some(Checkpoint {
        identity: Identity {
            code,
            engine,
            engine_version,
        },
        values,
    }))
}

/// [`load`], refusing a checkpoint of another computation than `identity`.
pub fn load_for(
    path: &Path,
    identity: &Identity,
    keep: usize,
) -> Result<Option<Vec<u16>>, CheckpointError> {
    let Some(c) = load(path, keep)? else {
        return Ok(None);
    };
    let mismatch = |reason: String| CheckpointError::Mismatch {
        path: path.display().to_string(),
        reason,
    };
    if c.identity.code != identity.code {
        return Err(mismatch(format!(
            "it is for code {}, this run computes {}",
            c.identity.code, identity.code
        )));
    }
    if c.identity.engine != identity.engine || c.identity.engine_version != identity.engine_version
    {
        return Err(mismatch(format!(
            "it was written by engine {} version {}, this run uses {} version {}",
            c.identity.engine, c.identity.engine_version, identity.engine, identity.engine_version
        )));
    }
    Ok(Some(c.values))
}

/// How a resumable run saves and stops.
pub struct Control<'a> {
    /// Time between two saves.
    pub every: Duration,
    /// Save the values computed so far.
    pub save: &'a mut dyn FnMut(&[u16]) -> Result<(), Error>,
    /// Set (e.g. by a Ctrl-C handler) to save and stop.
    pub stop: &'a AtomicBool,
    /// Called now and then with the number of values computed.
    pub progress: Option<&'a dyn Fn(usize)>,
    /// Called with the progress: the period search so far.
    pub search: Option<&'a dyn Fn(&PeriodDetector)>,
}

/// How a resumable run ended.
#[derive(Debug)]
pub enum Outcome {
    /// Reached `n` (or a certified period with [`crate::takebreak::Finish::AtCertificate`]).
    Finished(Computation),
    /// Stopped on request after saving this many values.
    Interrupted(usize),
    /// The plan's value budget ran out (no certified period yet) after saving this many values.
    OverBudget(usize),
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
    let mut last_save = Instant::now();
    let ended = drive(rules, values, plan, engine, |values, detector| {
        if let Some(s) = control.search {
            s(detector);
        }
        if let Some(p) = control.progress {
            p(values.len());
        }
        if control.stop.load(Ordering::Relaxed) {
            (control.save)(values)?;
            return Ok(Step::Stop);
        }
        if last_save.elapsed() >= control.every {
            (control.save)(values)?;
            last_save = Instant::now();
        }
        Ok(Step::Continue)
    })?;
    match ended {
        Ended::Finished(computation) => {
            if let Some(p) = control.progress {
                p(computation.values.len());
            }
            Ok(Outcome::Finished(computation))
        }
        Ended::Stopped(values) => Ok(Outcome::Interrupted(values.len())),
        Ended::OverBudget(values) => {
            if !values.is_empty() {
                (control.save)(&values)?;
            }
            Ok(Outcome::OverBudget(values.len()))
        }
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
        assert!(!temp_path(&path).exists());
        let c = load(&path, usize::MAX).unwrap().unwrap();
        assert_eq!(c.identity, identity());
        assert_eq!(c.values, values);
        assert_eq!(load(&path, 10).unwrap().unwrap().values, values[..10]);
        assert_eq!(
            load_for(&path, &identity(), usize::MAX).unwrap().unwrap(),
            values
        );
        assert_eq!(load(&dir.join("missing"), 5).unwrap(), None);
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
        let mut save = |v: &[u16]| {
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
        let mut ignore = |_: &[u16]| Ok(());
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
            once.values[..200_000].to_vec(),
            Plan::new(1_000_000, Finish::AtCertificate),
            &mut engine,
            Control {
                every: Duration::from_secs(3600),
                save: &mut ignore,
                stop: &stop,
                progress: None,
                search: None,
            },
        )
        .unwrap();
        let Outcome::Finished(c) = resumed else {
            panic!("not stopped")
        };
        assert_eq!(c, once);
    }
}
