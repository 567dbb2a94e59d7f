//! Per-code locks: two censuses on one machine (over overlapping patterns, from the CLI or
//! Python, with the same catalogue or not) never compute a code at the same time. The census
//! that holds a code's lock computes it; another one that wants it goes on with its other codes,
//! comes back to it later, and takes the first census's result from the catalogue when it is
//! there.
//!
//! A lock is an exclusive advisory lock on a small file (the checkpoints' [`Lock`]: `flock` on
//! Unix), which the operating system releases when the process ends however it ends — a
//! census killed with SIGKILL leaves no stale lock behind.

use crate::{Error, Result};
use grundy::takebreak::checkpoint::Lock;
use std::path::{Path, PathBuf};

/// The environment variable that chooses the directory of the lock files.
pub const LOCK_DIR_ENV: &str = "GRUNDY_LOCK_DIR";

/// The directory of the per-code lock files: `$GRUNDY_LOCK_DIR`, else
/// `<user data dir>/grundy/census-locks`, else `<temp dir>/grundy-census-locks`.
pub fn lock_dir() -> PathBuf {
    if let Some(p) = std::env::var_os(LOCK_DIR_ENV).filter(|p| !p.is_empty()) {
        return PathBuf::from(p);
    }
    match dirs::data_dir() {
        Some(d) => d.join("grundy").join("census-locks"),
        None => std::env::temp_dir().join("grundy-census-locks"),
    }
}

/// The lock of one code, held until dropped.
#[derive(Debug)]
pub struct CodeLock {
    _lock: Lock,
}

/// The file name of a code's lock (characters other than letters, digits and `._-[]`
/// become `_`).
fn file_of(dir: &Path, code: &str) -> PathBuf {
    let name: String = code
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "._-[]".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    dir.join(format!("{name}.census"))
}

/// Lock `code` (canonical form) for this census: `Ok(None)` when another process holds it.
/// The directory is created if needed.
pub fn try_lock(dir: &Path, code: &str) -> Result<Option<CodeLock>> {
    std::fs::create_dir_all(dir).map_err(|e| {
        Error::input(format!(
            "cannot create the census lock directory '{}': {e} (set {LOCK_DIR_ENV} to choose \
             another)",
            dir.display()
        ))
    })?;
    Ok(Lock::try_acquire(&file_of(dir, code))?.map(|l| CodeLock { _lock: l }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_is_locked_once_and_released_when_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let first = try_lock(dir.path(), "0.07").unwrap().expect("free");
        // flock locks belong to the open file: a second opening, even in this process, waits
        assert!(try_lock(dir.path(), "0.07").unwrap().is_none());
        let other = try_lock(dir.path(), "0.137").unwrap();
        assert!(other.is_some());
        drop(first);
        assert!(try_lock(dir.path(), "0.07").unwrap().is_some());
    }
}
