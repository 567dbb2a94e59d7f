//! Saved tables: the pruned search's transposition table written to a file now and then (and
//! when the search is interrupted or finishes), and loaded again by the next run on the same
//! game, so that a killed search continues with what it knew.
//!
//! # Why any saved knowledge is safe
//!
//! Every entry of the table ([`Knowledge`]) is a true statement about one position of the game:
//! "its value is `v`", or "its value is none of these". The search writes an entry only when it
//! has proved it (`learn_exact` / `learn_not_in` in [`super::PrunedSolver`]), and a position's
//! value does not depend on which position was asked about, which question, the value method
//! or the memory budget. The search is already correct with *any* subset of its own entries —
//! the table drops entries whenever it is full ([`Table`]), and what is missing is recomputed —
//! so it stays correct when it starts from any set of true entries. A file of another run of
//! the same game (same position encoding) holds only such entries. What has to match is
//! therefore exactly the meaning of a stored position: the game, its board (for Cram: the grid
//! the cells are numbered in) and the encoding of positions as bits, which the header records
//! ([`TableIdentity`]) and which is checked before anything is loaded; the checksum rules out a
//! damaged file.
//!
//! # What a resumed answer is worth
//!
//! A file that passes the checks above is still only *probably* true: it could have been
//! edited, or written by another program, with a valid checksum. So what the file says is
//! checked against the rules before the search starts ([`check_meaning`]), and the answer
//! depends on the file as little as it can:
//!
//! - the header's counts must match the entries (no empty entry, exact values first, as many
//!   as announced: the count sizes the table, so a false one cannot claim memory);
//! - every entry must be a position of the game's board;
//! - the position asked about is never read from the file: its value is derived from its
//!   options every time;
//! - each component of each of its options, and about [`SAMPLE`] other entries at random,
//!   must agree with their own options as far as the table knows them (an exact value at most
//!   the number of options, none equal to an option's value, the mex when every option's
//!   value is known; exclusions that leave a possible value).
//!
//! So an answer from a file grundy wrote is exactly right (every entry is proved, as above);
//! a forged file is refused in one line when any checked entry contradicts the rules; a
//! forgery consistent with everything checked — false values deep in the table whose options
//! the table does not hold, missed by the sample — can still change an answer. Delete a
//! table you did not make yourself, or run without `--table`, for an answer that depends on
//! nothing but the rules.
//!
//! # File format (little-endian)
//! ```text
//! magic "GRUNDYTT" | format u32 | game, board, encoding (each u16 length, UTF-8 bytes)
//! | key bytes u16 | count u64 | exact values among them u64
//! | count × (position: key bytes, knowledge u64)
//! | CRC-32 of everything before
//! ```
//! Exact values come first, so that a run with a smaller memory budget keeps them and drops
//! partial knowledge.
//!
//! # Two runs on one file
//!
//! The conventions of the take-and-break checkpoints ([`crate::takebreak::checkpoint`]): a save
//! writes a temporary file of its own and renames it over the file (atomic, so the file is
//! always a complete table, whenever a process dies), and only the run holding the exclusive
//! lock on `FILE.lock` writes. A second run on the same file loads it, says it will not save,
//! and goes on; nothing is merged, and nothing is ever corrupted.

use super::answer::{ask, solver, Answer, Question, INTERRUPTED};
use super::{Knowledge, ProgressFn, Table};
use crate::games::chomp::Chomp;
use crate::games::cram::Cram;
use crate::takebreak::checkpoint::{
    io_error, not_a_file, write_atomically, CheckpointError, Lock, Notice,
};
use crate::{Error, Game, LabelledMoves};
use std::fs::File;
use std::hash::Hash;
use std::io::{BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The first bytes of every saved table.
pub const MAGIC: &[u8; 8] = b"GRUNDYTT";
/// Version of the file layout.
pub const FORMAT: u32 = 1;
/// Default time between two saves.
pub const DEFAULT_SAVE_EVERY: Duration = Duration::from_secs(30);
/// Bytes per read/write chunk.
const CHUNK: usize = 1 << 20;

/// A position type a table file can hold: a fixed number of bytes each.
pub trait TableKey: Clone + Eq + Hash {
    /// Bytes per position in the file.
    const BYTES: usize;
    /// Append the position's [`BYTES`](Self::BYTES) bytes to `out`.
    fn write_key(&self, out: &mut Vec<u8>);
    /// The position from [`BYTES`](Self::BYTES) bytes written by [`write_key`](Self::write_key).
    fn read_key(bytes: &[u8]) -> Self;
}

macro_rules! table_key_for_integers {
    ($($t:ty),*) => {$(
        impl TableKey for $t {
            const BYTES: usize = std::mem::size_of::<$t>();
            fn write_key(&self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn read_key(bytes: &[u8]) -> Self {
                <$t>::from_le_bytes(bytes.try_into().expect("BYTES bytes"))
            }
        }
    )*};
}
table_key_for_integers!(u32, u64, u128);

/// What the positions of a table file mean: a file is loaded only into a search whose identity
/// is equal (see the module docs for why that is all that must match).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableIdentity {
    /// The game, e.g. `cram`.
    pub game: String,
    /// What positions are positions *of*, e.g. `5x8 grid` (a Cram board's cells are numbered
    /// in its grid), or `any diagram` when the encoding alone fixes it.
    pub board: String,
    /// How a position is encoded as bits, derived from the game's own encoding functions, so
    /// that a change of encoding in a later version refuses old files instead of misreading
    /// them.
    pub encoding: String,
}

/// A game whose search tables can be saved: it says what its positions mean.
pub trait SavedTable: Game {
    /// The identity written in the header of this game's table files.
    fn table_identity(&self) -> TableIdentity;

    /// Whether `position` can be a position of this game at all (a file's entry that is not
    /// one is refused: the file was not written for this board).
    fn is_position(&self, position: &Self::Position) -> bool;
}

impl SavedTable for Cram {
    /// Positions are sets of empty cells of the board's grid; the table is the same for every
    /// board drawn in a grid of that size (blocked cells are simply never empty).
    fn table_identity(&self) -> TableIdentity {
        let g = self.grid();
        let bits: Vec<u32> = (0..g.height())
            .flat_map(|r| (0..g.width()).map(move |c| g.bit(r, c).trailing_zeros()))
            .collect();
        let encoding = if bits.iter().zip(0..).all(|(&b, i)| b == i) {
            format!("u64 set of empty cells, cell (r,c) is bit {}r+c", g.width())
        } else {
            let list: Vec<String> = bits.iter().map(u32::to_string).collect();
            format!("u64 set of empty cells, cell bits {}", list.join(","))
        };
        TableIdentity {
            game: "cram".into(),
            board: format!("{}x{} grid", g.height(), g.width()),
            encoding,
        }
    }

    /// A set of empty cells of the grid.
    fn is_position(&self, empty: &u64) -> bool {
        empty & !self.grid().full() == 0
    }
}

impl SavedTable for Chomp {
    /// Positions are Young diagrams, whatever the shape first asked about: one table serves
    /// every Chomp search.
    fn table_identity(&self) -> TableIdentity {
        let probe = |rows: &[u32]| Chomp::shape(rows).expect("a small diagram");
        TableIdentity {
            game: "chomp".into(),
            board: "any diagram".into(),
            encoding: format!(
                "u64 boundary path (3,1 is {:#x}, 2,2 is {:#x})",
                probe(&[3, 1]),
                probe(&[2, 2])
            ),
        }
    }

    /// A boundary path with at least one row, the top row at least one square long.
    fn is_position(&self, code: &u64) -> bool {
        *code != 0 && code & 1 == 0
    }
}

fn header(identity: &TableIdentity, key_bytes: usize, count: u64, exact: u64) -> Vec<u8> {
    let mut h = Vec::with_capacity(64);
    h.extend_from_slice(MAGIC);
    h.extend_from_slice(&FORMAT.to_le_bytes());
    for text in [&identity.game, &identity.board, &identity.encoding] {
        // Identities are short: made by this program, never by a user.
        let bytes = &text.as_bytes()[..text.len().min(u16::MAX as usize)];
        h.extend_from_slice(&(bytes.len() as u16).to_le_bytes());
        h.extend_from_slice(bytes);
    }
    h.extend_from_slice(&(key_bytes as u16).to_le_bytes());
    h.extend_from_slice(&count.to_le_bytes());
    h.extend_from_slice(&exact.to_le_bytes());
    h
}

/// Save every entry of `table` to `path` atomically, exact values first; returns how many.
pub fn save_table<P: TableKey>(
    path: &Path,
    identity: &TableIdentity,
    table: &Table<P>,
) -> Result<u64, CheckpointError> {
    let (mut count, mut exact) = (0, 0);
    for (_, k) in table.entries() {
        count += 1;
        exact += u64::from(k.value().is_some());
    }
    write_atomically(path, |file| {
        let mut crc = crc32fast::Hasher::new();
        let mut buf = header(identity, P::BYTES, count, exact);
        for exact in [true, false] {
            for (p, k) in table.entries() {
                if k.value().is_some() != exact {
                    continue;
                }
                p.write_key(&mut buf);
                buf.extend_from_slice(&k.to_bits().to_le_bytes());
                if buf.len() >= CHUNK {
                    crc.update(&buf);
                    file.write_all(&buf)?;
                    buf.clear();
                }
            }
        }
        crc.update(&buf);
        file.write_all(&buf)?;
        file.write_all(&crc.finalize().to_le_bytes())
    })
    .map_err(|e| io_error(path, format!("cannot save: {e}")))?;
    Ok(count)
}

/// Reads a table file's fields, keeping the checksum of everything read.
struct Reader<'a> {
    inner: BufReader<File>,
    crc: crc32fast::Hasher,
    path: &'a Path,
}

impl Reader<'_> {
    fn corrupt(&self, reason: &str) -> CheckpointError {
        CheckpointError::Corrupt {
            path: self.path.display().to_string(),
            reason: reason.to_string(),
        }
    }

    fn bytes(&mut self, buf: &mut [u8]) -> Result<(), CheckpointError> {
        self.inner
            .read_exact(buf)
            .map_err(|_| self.corrupt("truncated"))?;
        self.crc.update(buf);
        Ok(())
    }

    fn u16(&mut self) -> Result<u16, CheckpointError> {
        let mut b = [0; 2];
        self.bytes(&mut b)?;
        Ok(u16::from_le_bytes(b))
    }

    fn text(&mut self) -> Result<String, CheckpointError> {
        let mut b = vec![0; self.u16()? as usize];
        self.bytes(&mut b)?;
        String::from_utf8(b).map_err(|_| self.corrupt("its header is not UTF-8"))
    }
}

/// Load the table file `path` into `table`: `Ok(None)` when there is no file, else how many
/// entries it held. The whole file is checked (format, length, checksum, counts, then the
/// identity; errors are [`CheckpointError`]s, as for the take-and-break checkpoints) before
/// one entry is added, so a refused file leaves `table` as it was. What the entries *mean* is
/// checked by [`check_meaning`], which needs the game.
pub fn load_table<P: TableKey>(
    path: &Path,
    identity: &TableIdentity,
    table: &mut Table<P>,
) -> Result<Option<u64>, CheckpointError> {
    load_table_except(path, identity, table, &|_| false)
}

/// [`load_table`], leaving out the entries of positions `skip` says (the position a search
/// asks about: its value is derived again from its options, never read from the file).
pub fn load_table_except<P: TableKey>(
    path: &Path,
    identity: &TableIdentity,
    table: &mut Table<P>,
    skip: &dyn Fn(&P) -> bool,
) -> Result<Option<u64>, CheckpointError> {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_error(path, format!("cannot open: {e}"))),
    };
    let meta = file.metadata().map_err(|e| io_error(path, e))?;
    if let Some(what) = not_a_file(&meta) {
        // a directory, a device (/dev/null): not a table, and nothing to delete
        return Err(io_error(path, what));
    }
    let size = meta.len();
    let mut r = Reader {
        inner: BufReader::with_capacity(CHUNK, file),
        crc: crc32fast::Hasher::new(),
        path,
    };
    let mut magic = [0; 8];
    r.bytes(&mut magic)
        .map_err(|_| r.corrupt("not a grundy table file"))?;
    if &magic != MAGIC {
        return Err(r.corrupt("not a grundy table file"));
    }
    let mut format = [0; 4];
    r.bytes(&mut format)?;
    let format = u32::from_le_bytes(format);
    if format != FORMAT {
        return Err(r.corrupt(&format!(
            "file format {format}, this program reads format {FORMAT}"
        )));
    }
    let found = TableIdentity {
        game: r.text()?,
        board: r.text()?,
        encoding: r.text()?,
    };
    let key_bytes = r.u16()? as u64;
    let mut count_bytes = [0; 8];
    r.bytes(&mut count_bytes)?;
    let count = u64::from_le_bytes(count_bytes);
    r.bytes(&mut count_bytes)?;
    let exact = u64::from_le_bytes(count_bytes);
    let head_len = r.inner.stream_position().map_err(|e| io_error(path, e))?;
    let entry = key_bytes + 8;
    if count
        .checked_mul(entry)
        .and_then(|b| b.checked_add(head_len + 4))
        != Some(size)
    {
        return Err(r.corrupt(&format!(
            "its length does not match the {count} entries it announces"
        )));
    }
    if exact > count {
        return Err(r.corrupt(&format!(
            "it announces {exact} exact values among {count} entries"
        )));
    }
    if key_bytes == 0 {
        return Err(r.corrupt("its positions have 0 bytes"));
    }
    // First pass: the checksum of the entries, and what they are: no empty entry, the exact
    // values first and as many as the header says (the header's count sizes the table).
    let mut buf = vec![0u8; CHUNK];
    let per_chunk = (CHUNK as u64 / entry).max(1);
    let (mut left, mut seen_exact, mut seen_partial) = (count, 0u64, false);
    while left > 0 {
        let n = left.min(per_chunk);
        let bytes = &mut buf[..(n * entry) as usize];
        r.bytes(bytes)?;
        for e in bytes.chunks_exact(entry as usize) {
            let bits = u64::from_le_bytes(e[key_bytes as usize..].try_into().expect("8 bytes"));
            let k = Knowledge::from_bits(bits);
            if k == Knowledge::NONE {
                return Err(r.corrupt("it holds an empty entry"));
            }
            if k.value().is_some() {
                if seen_partial {
                    return Err(r.corrupt("an exact value follows partial knowledge"));
                }
                seen_exact += 1;
            } else {
                seen_partial = true;
            }
        }
        left -= n;
    }
    if seen_exact != exact {
        return Err(r.corrupt(&format!(
            "it announces {exact} exact values and holds {seen_exact}"
        )));
    }
    let expected = r.crc.clone().finalize();
    let mut tail = [0; 4];
    r.inner
        .read_exact(&mut tail)
        .map_err(|_| r.corrupt("truncated"))?;
    if u32::from_le_bytes(tail) != expected {
        return Err(r.corrupt("checksum mismatch"));
    }
    let mismatch = |what: &str, file: &str, run: &str| CheckpointError::Mismatch {
        path: path.display().to_string(),
        reason: format!("its {what} is '{file}', this search's is '{run}'"),
    };
    for (what, file, run) in [
        ("game", &found.game, &identity.game),
        ("board", &found.board, &identity.board),
        ("encoding", &found.encoding, &identity.encoding),
    ] {
        if file != run {
            return Err(mismatch(what, file, run));
        }
    }
    if key_bytes != P::BYTES as u64 {
        return Err(mismatch(
            "position size",
            &format!("{key_bytes} bytes"),
            &format!("{} bytes", P::BYTES),
        ));
    }
    // Second pass: the entries.
    r.inner
        .seek(SeekFrom::Start(head_len))
        .map_err(|e| io_error(path, e))?;
    let mut left = count;
    let mut first = true;
    while left > 0 {
        let n = left.min(per_chunk) as usize;
        let bytes = &mut buf[..n * entry as usize];
        r.inner.read_exact(bytes).map_err(|e| io_error(path, e))?;
        for e in bytes.chunks_exact(entry as usize) {
            let (key, bits) = e.split_at(key_bytes as usize);
            let bits = u64::from_le_bytes(bits.try_into().expect("8 bytes"));
            let key = P::read_key(key);
            if skip(&key) {
                continue;
            }
            table.put(&key, Knowledge::from_bits(bits));
            if first {
                // The array exists now: size it for every exact value at once.
                table.reserve(usize::try_from(exact).unwrap_or(usize::MAX));
                first = false;
            }
        }
        left -= n as u64;
    }
    Ok(Some(count))
}

/// Entries whose options are checked against the table, besides the options of the position
/// asked about ([`check_meaning`]).
pub const SAMPLE: usize = 20_000;

/// The single canonical components of `p`, as the search splits it (at most a million splits:
/// a game whose splitting does not end is left to the search to refuse).
fn flatten<G: Game>(game: &G, p: &G::Position) -> Vec<G::Position> {
    let (mut work, mut out) = (vec![p.clone()], Vec::new());
    let mut splits = 0usize;
    while let Some(x) = work.pop() {
        match game.components(&x) {
            Some(parts) if splits < 1_000_000 && !parts.contains(&x) => {
                splits += 1;
                work.extend(parts);
            }
            _ => out.push(game.canonical(&x)),
        }
    }
    out
}

/// Check what a loaded table says against the rules of the game, refusing it (the reason, in
/// a few words) when it cannot be true:
///
/// - every entry is a position of the game ([`SavedTable::is_position`]);
/// - for the components of every option of the position asked about (`start`, already split
///   by [`flatten`]), and for about `sample` other entries spread over the table (from a
///   random offset): an exact value is at most the number of options (a mex of `n` values is
///   at most `n`) and differs from every option whose value the table gives; when the table
///   gives every option's value, an exact value is their mex and exclusions leave the mex
///   out; exclusions never cover every value `0..=n`.
///
/// What passes is not proved true (an entry may be wrong where its options are unknown to the
/// table); what fails is certainly false.
pub fn check_meaning<G>(
    game: &G,
    start: &[G::Position],
    table: &Table<G::Position>,
    sample: usize,
) -> Result<(), String>
where
    G: SavedTable,
    G::Position: TableKey + std::fmt::Debug,
{
    let mut buf = Vec::new();
    let mut deep: Vec<(G::Position, Knowledge)> = Vec::new();
    for s in start {
        buf.clear();
        game.options(s, &mut buf);
        for o in &buf {
            for c in flatten(game, o) {
                let k = table.get(&c);
                if k != Knowledge::NONE {
                    deep.push((c, k));
                }
            }
        }
    }
    let len = table.len().max(1);
    let stride = len.div_ceil(sample.max(1)).max(1);
    let offset = (std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos() as usize))
        % stride;
    for (i, (p, k)) in table.entries().enumerate() {
        if !game.is_position(p) {
            return Err(format!("its entry {p:?} is not a position of this game"));
        }
        if i % stride == offset {
            deep.push((p.clone(), k));
        }
    }
    for (p, k) in deep {
        check_entry(game, table, &p, k)?;
    }
    Ok(())
}

/// One entry against its options (see [`check_meaning`]).
fn check_entry<G>(
    game: &G,
    table: &Table<G::Position>,
    p: &G::Position,
    k: Knowledge,
) -> Result<(), String>
where
    G: Game,
    G::Position: TableKey + std::fmt::Debug,
{
    let mut options = Vec::new();
    game.options(p, &mut options);
    let n = options.len() as u64;
    let mut present = vec![false; options.len() + 1];
    let mut all_known = true;
    for o in &options {
        let mut x = Some(0u64);
        for c in flatten(game, o) {
            let v = game.known_value(&c).or_else(|| table.get(&c).value());
            x = x.zip(v).map(|(a, b)| a ^ b);
        }
        match x {
            Some(x) => {
                if k.value() == Some(x) {
                    return Err(format!(
                        "position {p:?} is given value {x}, which one of its options has"
                    ));
                }
                if x <= n {
                    present[x as usize] = true;
                }
            }
            None => all_known = false,
        }
    }
    let mex = present.iter().position(|&b| !b).unwrap_or(0) as u64;
    match k.value() {
        Some(v) if v > n => {
            return Err(format!(
                "position {p:?} is given value {v}, more than its {n} options allow"
            ))
        }
        Some(v) if all_known && v != mex => {
            return Err(format!(
                "position {p:?} is given value {v}, its options' values give {mex}"
            ))
        }
        Some(_) => {}
        None => {
            if n < 63 && (0..=n).all(|v| k.excludes(v)) {
                return Err(format!(
                    "position {p:?} is said to have none of the values 0..={n} its {n} options allow"
                ));
            }
            if all_known && k.excludes(mex) {
                return Err(format!(
                    "position {p:?} is said not to have value {mex}, its options' values give it"
                ));
            }
        }
    }
    Ok(())
}

/// Where a search keeps its table, and how often it saves it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Saving {
    /// The table file; its directory must exist.
    pub path: PathBuf,
    /// Time between two saves (the table is also saved when the search ends or is stopped).
    pub every: Duration,
}

/// One search's hold on its table file: whether it writes (holds the lock), and why not.
struct Store {
    path: PathBuf,
    identity: TableIdentity,
    lock: Option<Lock>,
    /// Why this run does not write (told once).
    read_only: Option<String>,
    notices: Vec<Notice>,
    saved: u64,
}

impl Store {
    fn give_up(&mut self, reason: String) {
        self.lock = None;
        if self.read_only.is_none() {
            let message = format!(
                "{reason}; this search goes on without saving its table to '{}'",
                self.path.display()
            );
            self.read_only = Some(message.clone());
            self.notices.push(Notice::Warning(message));
        }
    }

    fn save<P: TableKey>(&mut self, table: &Table<P>) {
        if self.read_only.is_some() {
            return;
        }
        match save_table(&self.path, &self.identity, table) {
            Ok(n) => self.saved = n,
            Err(e) => self.give_up(e.to_string()),
        }
    }
}

/// [`super::answer()`] with a saved table: an existing table file of the same game is loaded
/// first (a corrupt or foreign one is refused with an error), the table is saved every
/// `saving.every` while the search runs and once more when it ends — finished, interrupted by
/// `progress`, or stopped by an error. `tell` hears where it resumed from and any warning
/// (another run holds the file; a save failed: the search goes on without saving).
pub fn answer_saved<G>(
    game: G,
    position: &G::Position,
    question: &Question,
    progress: Option<ProgressFn>,
    saving: &Saving,
    tell: &dyn Fn(Notice),
) -> Result<Answer<G::Move>, Error>
where
    G: LabelledMoves + SavedTable,
    G::Position: TableKey,
{
    let path = &saving.path;
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        if !dir.is_dir() {
            return Err(io_error(
                path,
                format!("directory '{}' does not exist", dir.display()),
            )
            .into());
        }
    }
    let mut store = Store {
        path: path.clone(),
        identity: game.table_identity(),
        lock: None,
        read_only: None,
        notices: Vec::new(),
        saved: 0,
    };
    // The position asked about is never read from the file: its value is derived again from
    // its options (see "What a resumed answer is worth" in the module docs).
    let start_parts = flatten(&game, position);
    // The dense array is not saved: every exact value stays in the saved table.
    let mut solver = solver(game, question, progress).without_dense();
    let skip = |p: &G::Position| start_parts.contains(p);
    if let Some(n) = load_table_except(path, &store.identity, solver.table_mut(), &skip)? {
        check_meaning(solver.game(), &start_parts, solver.table(), SAMPLE).map_err(|reason| {
            CheckpointError::Untrue {
                path: path.display().to_string(),
                reason,
            }
        })?;
        let kept = solver.table().len();
        let note = if kept as u64 == n {
            format!(
                "resuming from table '{}' ({n} positions known)",
                path.display()
            )
        } else if kept as u64 + start_parts.len() as u64 >= n {
            // only the asked position's own entries were left out
            format!(
                "resuming from table '{}' ({n} positions known; the position asked about is \
                 derived again from its options)",
                path.display()
            )
        } else {
            format!(
                "resuming from table '{}' ({n} positions known, {kept} kept within the memory budget)",
                path.display()
            )
        };
        tell(Notice::Note(note));
    }
    // Locked after loading, so that a refused file leaves no lock file beside it. (A file
    // saved by another search in between is complete too: it was renamed into place.)
    match Lock::try_acquire(path) {
        Ok(Some(lock)) => store.lock = Some(lock),
        Ok(None) => store.give_up("another search is using this table file".into()),
        Err(e) => store.give_up(e.to_string()),
    }
    for n in store.notices.drain(..) {
        tell(n);
    }
    let store = Arc::new(Mutex::new(store));
    {
        let (store, every) = (Arc::clone(&store), saving.every);
        let mut last = Instant::now();
        solver.on_snapshot(Box::new(move |table| {
            if last.elapsed() >= every {
                store.lock().unwrap_or_else(|e| e.into_inner()).save(table);
                last = Instant::now();
            }
        }));
    }
    let result = ask(&mut solver, position, question);
    let mut store = store.lock().unwrap_or_else(|e| e.into_inner());
    store.save(solver.table());
    for n in store.notices.drain(..) {
        tell(n);
    }
    match result {
        Err(Error::Invalid(m)) if m == INTERRUPTED => Err(Error::Invalid(match store.read_only {
            None => format!(
                "interrupted: {} positions saved to '{}'; run the same command again to resume",
                store.saved,
                path.display()
            ),
            Some(_) => format!("{INTERRUPTED} (its table was not saved)"),
        })),
        r => r,
    }
}

#[cfg(test)]
pub(super) mod tests;
