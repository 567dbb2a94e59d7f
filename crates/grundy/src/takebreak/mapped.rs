//! A growable array of values kept in a file mapped into memory: the store of tiered runs
//! (issue 25, "tiered storage"; see [`super::tiered`]).
//!
//! Why a mapping: the engines read the values through one contiguous slice `g: &[V]`, at any
//! index (the witness search's stretches lie all over `1..n`). A file mapped shared
//! (`MAP_SHARED`) *is* such a slice, and a read of any part of it is correct whatever is in
//! RAM: a page that is not mapped is a page fault, served by the kernel from the page cache or
//! from the disk. So the slow path of a read from the middle is the kernel's, and it is always
//! taken when needed — no engine decides that the middle will not be read.
//!
//! RAM is bounded from outside the engines: [`MappedVec::release`] drops the process's
//! mapping of a range of pages (`madvise(MADV_DONTNEED)`; on a shared file mapping this keeps
//! the data: a page written through the mapping is marked dirty in the page cache as its entry
//! is dropped, and the kernel writes it to the file), so the process's resident set no longer
//! counts them and the kernel may evict them. A later read faults them back in.
//!
//! The file grows in steps of at least [`GROW_BYTES`], reserved on disk with
//! `posix_fallocate` (so a full disk is an error when the file grows, never a `SIGBUS` when a
//! value is written), and the mapping reserves more address space than the file holds (at
//! least [`MIN_MAP_BYTES`], twice what is needed when it grows), so that it moves rarely.

use super::values::Value;
use crate::Error;
use std::fs::{File, OpenOptions};
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};

/// The least step by which the values file grows.
pub const GROW_BYTES: u64 = 64 << 20;
/// The least address space a mapping reserves.
pub const MIN_MAP_BYTES: usize = 1 << 30;

/// The size of a page of memory.
pub fn page_size() -> usize {
    // SAFETY: sysconf has no preconditions.
    let p = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if p > 0 {
        p as usize
    } else {
        4096
    }
}

/// The process's resident set in bytes (`/proc/self/statm`), `None` where it cannot be read.
pub fn resident_bytes() -> Option<u64> {
    ResidentProbe::open()?.bytes()
}

/// `/proc/self/statm` kept open, so that a look at the resident set is one `pread` (the
/// tender looks every few hundred microseconds near its limit).
#[derive(Debug)]
pub struct ResidentProbe {
    file: std::fs::File,
    page: u64,
}

impl ResidentProbe {
    /// `None` where the file cannot be opened (not Linux).
    pub fn open() -> Option<ResidentProbe> {
        let file = std::fs::File::open("/proc/self/statm").ok()?;
        Some(ResidentProbe {
            file,
            page: page_size() as u64,
        })
    }

    /// The resident set now, in bytes.
    pub fn bytes(&mut self) -> Option<u64> {
        use std::os::unix::fs::FileExt;
        let mut buf = [0u8; 128];
        let len = self.file.read_at(&mut buf, 0).ok()?;
        let text = std::str::from_utf8(&buf[..len]).ok()?;
        let pages: u64 = text.split_whitespace().nth(1)?.parse().ok()?;
        Some(pages * self.page)
    }
}

/// The process's peak resident set in bytes (`VmHWM` of `/proc/self/status`).
pub fn peak_resident_bytes() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Page faults of the process so far: (minor, major). A minor fault maps a page that was in
/// the page cache; a major one read it from the disk.
pub fn page_faults() -> (u64, u64) {
    let mut u = std::mem::MaybeUninit::<libc::rusage>::uninit();
    // SAFETY: getrusage fills the buffer on success.
    if unsafe { libc::getrusage(libc::RUSAGE_SELF, u.as_mut_ptr()) } != 0 {
        return (0, 0);
    }
    // SAFETY: it returned 0.
    let u = unsafe { u.assume_init() };
    (u.ru_minflt as u64, u.ru_majflt as u64)
}

fn io(path: &Path, what: &str, e: impl std::fmt::Display) -> Error {
    Error::Invalid(format!("values file '{}': {what}: {e}", path.display()))
}

/// The values file of width `V` in `dir`: `values.u8` or `values.u16`.
pub fn values_path<V: Value>(dir: &Path) -> PathBuf {
    dir.join(if V::BYTES == 1 {
        "values.u8"
    } else {
        "values.u16"
    })
}

/// Where a mapping is, for a thread that releases its pages while an engine reads it
/// ([`super::tiered`]'s tender). A mapping that moves or goes away updates it under its lock
/// before the old address is unmapped, so the releasing thread never touches an address that
/// is not the values file's.
#[derive(Debug, Default)]
pub struct View {
    /// The mapping's address (0: none).
    pub ptr: usize,
    /// Its length in bytes.
    pub bytes: usize,
    /// Bytes per value.
    pub value_bytes: usize,
    /// How many values are known to be written (published by the driver's hook).
    pub len: usize,
}

impl View {
    /// Drop the process's mapping of the whole pages of values `from..to` (see
    /// [`MappedVec::release`]); returns the bytes released.
    pub fn release(&self, from: usize, to: usize) -> u64 {
        if self.ptr == 0 || to <= from {
            return 0;
        }
        let page = page_size();
        let start = (from * self.value_bytes).div_ceil(page) * page;
        let end = ((to.min(self.len) * self.value_bytes).min(self.bytes)) / page * page;
        if end <= start {
            return 0;
        }
        // SAFETY: a range of the values file's mapping, which cannot be unmapped while the
        // caller holds the view's lock; MADV_DONTNEED on a shared file mapping keeps the data.
        let status = unsafe {
            libc::madvise(
                (self.ptr + start) as *mut libc::c_void,
                end - start,
                libc::MADV_DONTNEED,
            )
        };
        if status == 0 {
            (end - start) as u64
        } else {
            0
        }
    }
}

/// A [`View`] shared between a store and the thread that tends it.
pub type SharedView = std::sync::Arc<std::sync::Mutex<View>>;

/// G(0..len) in a file mapped into memory (see the module docs).
#[derive(Debug)]
pub struct MappedVec<V: Value> {
    file: File,
    path: PathBuf,
    ptr: *mut V,
    map_bytes: usize,
    file_bytes: u64,
    len: usize,
    view: Option<SharedView>,
}

// SAFETY: the mapping is owned as a Vec's buffer is: shared references read it, a mutable one
// writes it.
unsafe impl<V: Value> Send for MappedVec<V> {}
// SAFETY: as above.
unsafe impl<V: Value> Sync for MappedVec<V> {}

impl<V: Value> MappedVec<V> {
    /// A new, empty values file in `dir` (an older one of the same width is replaced), with
    /// room for `capacity` values.
    pub fn create(dir: &Path, capacity: usize) -> Result<Self, Error> {
        let path = values_path::<V>(dir);
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&path)
            .map_err(|e| io(&path, "cannot create it", e))?;
        let mut m = MappedVec {
            file,
            path,
            ptr: std::ptr::null_mut(),
            map_bytes: 0,
            file_bytes: 0,
            len: 0,
            view: None,
        };
        m.try_reserve(capacity.max(1))?;
        Ok(m)
    }

    /// The values file of `dir`, of which the first `len` values are taken (the file must hold
    /// them).
    pub fn open(dir: &Path, len: usize) -> Result<Self, Error> {
        let path = values_path::<V>(dir);
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .map_err(|e| io(&path, "cannot open it", e))?;
        let file_bytes = file
            .metadata()
            .map_err(|e| io(&path, "cannot read its size", e))?
            .len();
        if (len as u64).saturating_mul(V::BYTES as u64) > file_bytes {
            return Err(io(
                &path,
                "too short",
                format!("{file_bytes} bytes cannot hold {len} values"),
            ));
        }
        let mut m = MappedVec {
            file,
            path,
            ptr: std::ptr::null_mut(),
            map_bytes: 0,
            file_bytes,
            len: 0,
            view: None,
        };
        m.try_reserve(len.max(1))?;
        m.len = len;
        Ok(m)
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The open file (to read it without the mapping).
    pub fn file(&self) -> &File {
        &self.file
    }

    /// How many values.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes the file takes.
    pub fn file_bytes(&self) -> u64 {
        self.file_bytes
    }

    /// Map `bytes` of the file's address space (the old mapping, if any, is dropped: its
    /// written pages are in the page cache).
    fn map(&mut self, bytes: usize) -> Result<(), Error> {
        // SAFETY: a fresh shared mapping of our file, at an address the kernel chooses.
        let p = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                bytes,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_SHARED,
                self.file.as_raw_fd(),
                0,
            )
        };
        if p == libc::MAP_FAILED {
            return Err(io(
                &self.path,
                "cannot map it into memory",
                std::io::Error::last_os_error(),
            ));
        }
        let view = self.view.clone();
        let mut guard = view
            .as_ref()
            .map(|v| v.lock().unwrap_or_else(|e| e.into_inner()));
        if let Some(g) = guard.as_mut() {
            g.ptr = p as usize;
            g.bytes = bytes;
            g.value_bytes = V::BYTES;
        }
        self.unmap_now();
        self.ptr = p.cast();
        self.map_bytes = bytes;
        Ok(())
    }

    /// Let `view` follow this mapping (from now on, and at once).
    pub fn tend(&mut self, view: SharedView) {
        {
            let mut g = view.lock().unwrap_or_else(|e| e.into_inner());
            g.ptr = self.ptr as usize;
            g.bytes = self.map_bytes;
            g.value_bytes = V::BYTES;
            g.len = g.len.min(self.len);
        }
        self.view = Some(view);
    }

    /// Unmap (the caller holds the view's lock, if any, or has none).
    fn unmap_now(&mut self) {
        if !self.ptr.is_null() {
            // SAFETY: ptr and map_bytes are a mapping of ours, no longer borrowed (&mut self).
            unsafe { libc::munmap(self.ptr.cast(), self.map_bytes) };
            self.ptr = std::ptr::null_mut();
            self.map_bytes = 0;
        }
    }

    fn unmap(&mut self) {
        let view = self.view.clone();
        let mut guard = view
            .as_ref()
            .map(|v| v.lock().unwrap_or_else(|e| e.into_inner()));
        if let Some(g) = guard.as_mut() {
            if g.ptr == self.ptr as usize {
                **g = View::default();
            }
        }
        self.unmap_now();
    }

    /// Room for `more` values beyond `len()`: the file grows (reserved on disk) and the
    /// mapping with it, or the reason it cannot.
    pub fn try_reserve(&mut self, more: usize) -> Result<(), Error> {
        let need = self
            .len
            .checked_add(more)
            .and_then(|n| n.checked_mul(V::BYTES))
            .ok_or_else(|| Error::TooLarge("too many values for this machine".into()))?;
        if need as u64 > self.file_bytes {
            let want = (need as u64)
                .max(self.file_bytes + self.file_bytes / 8)
                .div_ceil(GROW_BYTES)
                * GROW_BYTES;
            let fd = self.file.as_raw_fd();
            let (from, extra) = (
                self.file_bytes as libc::off_t,
                (want - self.file_bytes) as _,
            );
            // SAFETY: a plain system call on our file.
            let status = unsafe { libc::posix_fallocate(fd, from, extra) };
            if status == libc::EOPNOTSUPP || status == libc::EINVAL {
                // a file system that cannot reserve: a sparse file
                self.file
                    .set_len(want)
                    .map_err(|e| io(&self.path, "cannot grow it", e))?;
            } else if status != 0 {
                return Err(io(
                    &self.path,
                    &format!("cannot grow it to {want} bytes"),
                    std::io::Error::from_raw_os_error(status),
                ));
            }
            self.file_bytes = want;
        }
        if need > self.map_bytes || self.ptr.is_null() {
            let page = page_size();
            let bytes = (2 * need).max(MIN_MAP_BYTES).div_ceil(page) * page;
            self.map(bytes)?;
        }
        Ok(())
    }

    /// As [`Self::try_reserve`].
    ///
    /// # Panics
    /// If the file cannot grow (the driver reserves room for every call of an engine first,
    /// so an engine never gets here).
    pub fn reserve(&mut self, more: usize) {
        if let Err(e) = self.try_reserve(more) {
            panic!("{e}");
        }
    }

    /// Append `value`.
    #[inline]
    pub fn push(&mut self, value: V) {
        if (self.len + 1) * V::BYTES > self.map_bytes.min(self.file_bytes as usize) {
            self.reserve(1);
        }
        // SAFETY: the file and the mapping hold len + 1 values (just checked).
        unsafe { self.ptr.add(self.len).write(value) };
        self.len += 1;
    }

    /// Keep the first `len` values (the file keeps its size).
    pub fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    /// Cut the file to the values it holds (the room reserved beyond them is given back to the
    /// disk; the mapping stays, and grows the file again if pushed to).
    pub fn trim(&mut self) -> Result<(), Error> {
        let bytes = (self.len * V::BYTES) as u64;
        self.file
            .set_len(bytes)
            .map_err(|e| io(&self.path, "cannot cut it to its values", e))?;
        self.file_bytes = bytes;
        Ok(())
    }

    /// The first value's address.
    pub fn as_mut_ptr(&mut self) -> *mut V {
        self.ptr
    }

    /// Set the length.
    ///
    /// # Safety
    /// `len` values must be reserved and written.
    pub unsafe fn set_len(&mut self, len: usize) {
        debug_assert!(len * V::BYTES <= self.map_bytes.min(self.file_bytes as usize));
        self.len = len;
    }

    /// The page-aligned byte range inside values `from..to` (empty when none).
    fn inner_pages(&self, from: usize, to: usize) -> (usize, usize) {
        let page = page_size();
        let start = (from * V::BYTES).div_ceil(page) * page;
        let end = (to.min(self.len) * V::BYTES) / page * page;
        (start, end.max(start))
    }

    /// Drop the process's mapping of the whole pages inside values `from..to`: the data stays
    /// in the page cache and the file, and a later read maps it again. Returns the bytes
    /// released.
    pub fn release(&self, from: usize, to: usize) -> u64 {
        let (start, end) = self.inner_pages(from, to);
        if end <= start {
            return 0;
        }
        // SAFETY: a range of our mapping; MADV_DONTNEED on a shared file mapping keeps the
        // data (see the module docs), so no value is lost.
        let status = unsafe {
            libc::madvise(
                self.ptr.cast::<u8>().add(start).cast(),
                end - start,
                libc::MADV_DONTNEED,
            )
        };
        if status == 0 {
            (end - start) as u64
        } else {
            0
        }
    }

    /// Write values `from..len()` to the disk (msync of their pages, then the file's data).
    pub fn sync(&self, from: usize) -> Result<(), Error> {
        let page = page_size();
        let start = (from * V::BYTES) / page * page;
        let end = self.len * V::BYTES;
        if end > start {
            // SAFETY: a range of our mapping.
            let status = unsafe {
                libc::msync(
                    self.ptr.cast::<u8>().add(start).cast(),
                    end - start,
                    libc::MS_SYNC,
                )
            };
            if status != 0 {
                return Err(io(
                    &self.path,
                    "cannot write it to disk",
                    std::io::Error::last_os_error(),
                ));
            }
        }
        self.file
            .sync_data()
            .map_err(|e| io(&self.path, "cannot write it to disk", e))
    }
}

impl MappedVec<u8> {
    /// The same values in a new file of two bytes each (`values.u16` beside this one, synced
    /// to disk), with room for as many values as this one has. This file is left as it is:
    /// the tiered store removes it once its state names the new one.
    pub fn widen(&mut self) -> Result<MappedVec<u16>, Error> {
        use std::os::unix::fs::FileExt;
        let dir = self.path.parent().unwrap_or(Path::new("."));
        let room = self.len + 1;
        let mut wide = MappedVec::<u16>::create(dir, room)?;
        let view = self.view.clone();
        const BLOCK: usize = 1 << 20;
        let mut bytes = vec![0u8; BLOCK];
        let mut out = Vec::with_capacity(2 * BLOCK);
        let mut at = 0;
        while at < self.len {
            let k = BLOCK.min(self.len - at);
            self.file
                .read_exact_at(&mut bytes[..k], at as u64)
                .map_err(|e| io(&self.path, "cannot read it", e))?;
            out.clear();
            for &b in &bytes[..k] {
                out.extend_from_slice(&u16::from(b).to_le_bytes());
            }
            wide.file
                .write_all_at(&out, 2 * at as u64)
                .map_err(|e| io(&wide.path, "cannot write it", e))?;
            at += k;
        }
        wide.len = self.len;
        wide.file
            .sync_data()
            .map_err(|e| io(&wide.path, "cannot write it to disk", e))?;
        // the old file's pages are no longer needed in this process
        self.release(0, self.len);
        if let Some(v) = view {
            wide.tend(v);
        }
        Ok(wide)
    }
}

impl<V: Value> Drop for MappedVec<V> {
    fn drop(&mut self) {
        self.unmap();
    }
}

impl<V: Value> std::ops::Deref for MappedVec<V> {
    type Target = [V];
    #[inline]
    fn deref(&self) -> &[V] {
        // SAFETY: the mapping holds len values (a mapping is never null once made).
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

impl<V: Value> std::ops::DerefMut for MappedVec<V> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [V] {
        // SAFETY: as above, borrowed mutably.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.len) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("grundy-mapped-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn the_probe_kept_open_sees_the_resident_set_change() {
        // a second read of the same open file must be a new look, not the first one's text:
        // after 256 MB more are touched, the probe agrees with a fresh read of the file (other
        // tests of this process run meanwhile, so both are read at once and compared)
        let mut probe = ResidentProbe::open().expect("/proc/self/statm");
        let before = probe.bytes().unwrap();
        let mut block = vec![0u8; 256 << 20];
        for i in (0..block.len()).step_by(4096) {
            block[i] = 1;
        }
        let (during, fresh) = (probe.bytes().unwrap(), resident_bytes().unwrap());
        assert!(
            during.abs_diff(fresh) < 64 << 20,
            "the probe says {during}, a fresh read {fresh} (first look {before})"
        );
        assert!(during > 256 << 20, "{during} with 256 MB touched");
        assert_eq!(std::hint::black_box(&block)[4096], 1);
    }

    #[test]
    fn values_written_released_and_reopened_read_back_the_same() {
        let d = dir("roundtrip");
        let n = 3 << 20;
        let mut m = MappedVec::<u16>::create(&d, 10).unwrap();
        for i in 0..n {
            m.push((i * 7919 % 65521) as u16);
        }
        // drop every page from the process: reads come back from the page cache
        assert!(m.release(0, n) > 0);
        assert!(m
            .iter()
            .enumerate()
            .all(|(i, &v)| v == (i * 7919 % 65521) as u16));
        m.sync(0).unwrap();
        drop(m);
        let r = MappedVec::<u16>::open(&d, n).unwrap();
        assert_eq!(r.len(), n);
        assert!(r
            .iter()
            .enumerate()
            .all(|(i, &v)| v == (i * 7919 % 65521) as u16));
        assert!(MappedVec::<u16>::open(&d, r.file_bytes() as usize).is_err());
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_byte_file_widens_into_a_second_file() {
        let d = dir("widen");
        let mut m = MappedVec::<u8>::create(&d, 1).unwrap();
        for i in 0..100_000usize {
            m.push((i % 251) as u8);
        }
        let mut w = m.widen().unwrap();
        w.push(300);
        assert_eq!(w.len(), 100_001);
        assert!(w[..100_000]
            .iter()
            .enumerate()
            .all(|(i, &v)| v == (i % 251) as u16));
        assert_eq!(w[100_000], 300);
        assert!(values_path::<u8>(&d).exists() && values_path::<u16>(&d).exists());
        let _ = std::fs::remove_dir_all(&d);
    }
}
