//! Exhaustive class tables of m-player Nim under symmetric orders `GAMES(k1, ..., km)`: for
//! every Nim position of a domain (at most `K` heaps, each at most `N`, optionally a total of
//! at most `S`), the `i` that makes it an i-position (Def. 4.3).
//!
//! This is the evaluator of [`reading`](super::reading) specialised to Nim and to symmetric
//! profiles, made fast enough to tabulate millions of positions for every order at once:
//!
//! - **Positions are sorted multisets.** Heaps of size 0 change nothing, so "at most `K` heaps"
//!   is "exactly `K` heaps, zeros allowed", and the order of the heaps does not matter: a
//!   position is a non-decreasing tuple `a_0 <= ... <= a_{K-1}` in `0..=N`. Its **rank** is
//!   its place in colexicographic order, `sum_j C(a_j + j, j + 1)` (the combinatorial number
//!   system applied to `a_j + j`); the `C(N + K, K)` ranks index flat arrays.
//! - **Options come first.** Lowering one heap gives a colex-smaller multiset, so filling the
//!   ranks in increasing order meets every option before the position.
//! - **One byte per line instead of one look per option.** With a symmetric profile the class
//!   of a position depends only on the SET of its options' classes: the mover, offered option
//!   classes `o'`, gets offset `o' + 1`, and takes the first offset of its order
//!   `k1, k2, ...` on offer; a terminal position has class `m - 1` (Def. 4.1, rule 1). The
//!   options lowering a heap of size `h` to `0..h` form a *line*: the rest `R` (the other
//!   `K - 1` heaps) plus one heap of each size below `h`. For every rest and every `h` we keep
//!   the bit set of classes on the line below `h` (`cum[R][h]`), extended by one bit when
//!   `R + {h}` is computed. A position then costs one OR per distinct heap size instead of one
//!   lookup per option (up to `K * N`).
//! - **All orders share the enumeration.** The ranks, the rests and their indices are
//!   computed once per position and serve every order of the batch (the bit sets of the
//!   orders of a batch sit side by side in memory).
//!
//! The tests compare these tables with the general evaluator; `tests/multiplayer_tables.rs`
//! compares them with a literal recursion of Def. 4.1 on every position of total at most 12.
//!
//! # The table file (format `GRMPTAB1`)
//!
//! One file per order, little-endian:
//!
//! | bytes | content |
//! |---|---|
//! | 8 | magic `GRMPTAB1` |
//! | 1 | players `m` |
//! | 1 | heaps `K` |
//! | 2 | largest heap `N` |
//! | 4 | largest total `S`, or `0xFFFF_FFFF` for none |
//! | `m` | the order `k1..km` |
//! | 8 | number of entries `C(N + K, K)` |
//! | `ceil(entries / 2)` | classes, two per byte: entry `2r` in the low nibble, `2r + 1` in the high one; `0xF` = outside the domain (total above `S`) |
//! | 4 | CRC-32 of every byte before it |
//!
//! Entry `r` is the class of the position of rank `r` ([`Domain::position`]).

use super::prefs::Preferences;
use crate::Error;
use std::sync::atomic::{AtomicBool, Ordering};

/// Most players a table handles (the class bit sets are one byte).
pub const MAX_TABLE_PLAYERS: usize = 8;
/// Most heaps a table handles.
pub const MAX_TABLE_HEAPS: usize = 16;
/// Largest heap a table handles.
pub const MAX_TABLE_HEAP: u64 = 4096;
/// Most entries one table may have (one byte each in memory).
pub const MAX_TABLE_ENTRIES: u64 = 400_000_000;
/// Memory for the line bit sets of one batch of orders; more orders run in several batches.
pub const LINE_MEMORY: u64 = 600_000_000;
/// The class stored for a position outside the domain (total above the cap).
pub const OUTSIDE: u8 = 0xF;

const MAGIC: &[u8; 8] = b"GRMPTAB1";

/// The positions of a table: `heaps` heaps (zeros allowed), each at most `max_heap`, and if
/// `max_total` is set a total of at most that.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Domain {
    players: usize,
    heaps: usize,
    max_heap: u64,
    max_total: Option<u64>,
    /// `binom[n * (heaps + 1) + r] = C(n, r)` for `n <= max_heap + heaps`, `r <= heaps`.
    binom: Vec<u64>,
    len: u64,
}

/// `C(n, r)`, or `None` when a step of the product passes `u128` (only for counts far above
/// any table's size: 16 heaps of at most 4096 make about 3·10^44 positions).
fn binomial(n: u64, r: u64) -> Option<u128> {
    if r > n {
        return Some(0);
    }
    // C(n, j) · (n - j) / (j + 1) = C(n, j + 1), exactly
    (0..r).try_fold(1u128, |acc, j| {
        acc.checked_mul((n - j) as u128)
            .map(|x| x / (j + 1) as u128)
    })
}

/// `C(n, r)` where it is known to fit (below a domain's size, checked by [`Domain::new`]).
fn binomial_within(n: u64, r: u64) -> u64 {
    binomial(n, r)
        .and_then(|c| u64::try_from(c).ok())
        .expect("within a domain checked by Domain::new")
}

impl Domain {
    /// The domain for `players` players of up to `heaps` heaps each at most `max_heap`, with
    /// an optional cap on the total.
    pub fn new(
        players: usize,
        heaps: usize,
        max_heap: u64,
        max_total: Option<u64>,
    ) -> Result<Self, Error> {
        if !(2..=MAX_TABLE_PLAYERS).contains(&players) {
            return Err(Error::Invalid(format!(
                "tables are made for 2 to {MAX_TABLE_PLAYERS} players (got {players})"
            )));
        }
        if !(1..=MAX_TABLE_HEAPS).contains(&heaps) {
            return Err(Error::Invalid(format!(
                "the number of heaps must be between 1 and {MAX_TABLE_HEAPS} (got {heaps})"
            )));
        }
        if !(1..=MAX_TABLE_HEAP).contains(&max_heap) {
            return Err(Error::Invalid(format!(
                "the largest heap must be between 1 and {MAX_TABLE_HEAP} (got {max_heap})"
            )));
        }
        let too_many = |count: String| {
            Err(Error::Invalid(format!(
                "{heaps} heaps of at most {max_heap} make {count} positions, more than the {MAX_TABLE_ENTRIES} a table may hold; choose fewer heaps or a smaller largest heap"
            )))
        };
        let len = match binomial(max_heap + heaps as u64, heaps as u64) {
            Some(len) if len <= MAX_TABLE_ENTRIES as u128 => len,
            Some(len) => return too_many(len.to_string()),
            None => return too_many("more than 10^38".into()),
        };
        let width = heaps + 1;
        let top = max_heap as usize + heaps;
        let mut binom = vec![0u64; (top + 1) * width];
        for n in 0..=top {
            for r in 0..width {
                binom[n * width + r] = binomial_within(n as u64, r as u64);
            }
        }
        Ok(Domain {
            players,
            heaps,
            max_heap,
            max_total,
            binom,
            len: len as u64,
        })
    }

    /// The number of players.
    pub fn players(&self) -> usize {
        self.players
    }
    /// The number of heaps `K` (positions with fewer have zeros).
    pub fn heaps(&self) -> usize {
        self.heaps
    }
    /// The largest heap `N`.
    pub fn max_heap(&self) -> u64 {
        self.max_heap
    }
    /// The cap on the total, if any.
    pub fn max_total(&self) -> Option<u64> {
        self.max_total
    }
    /// The number of entries `C(N + K, K)` (positions above the total cap included).
    pub fn len(&self) -> u64 {
        self.len
    }
    /// Whether the domain is empty (never: the terminal position is in every domain).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// A short description, e.g. `"at most 6 heaps of at most 15"`.
    pub fn describe(&self) -> String {
        let mut s = format!(
            "at most {} heap{} of at most {}",
            self.heaps,
            if self.heaps == 1 { "" } else { "s" },
            self.max_heap
        );
        if let Some(t) = self.max_total {
            s.push_str(&format!(", total at most {t}"));
        }
        s
    }

    #[inline]
    fn c(&self, n: usize, r: usize) -> u64 {
        self.binom[n * (self.heaps + 1) + r]
    }

    /// The rank of a non-decreasing tuple of exactly `heaps` values in `0..=max_heap`.
    #[inline]
    fn rank_sorted(&self, a: &[u64]) -> u64 {
        a.iter()
            .enumerate()
            .map(|(j, &x)| self.c(x as usize + j, j + 1))
            .sum()
    }

    /// The rank of a Nim position (heaps in any order, zeros allowed), or `None` when it is
    /// not in the domain (too many non-zero heaps, a heap or the total too large).
    pub fn rank(&self, heaps: &[u64]) -> Option<u64> {
        let mut a: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
        if a.len() > self.heaps || a.iter().any(|&h| h > self.max_heap) {
            return None;
        }
        let total: u64 = a.iter().sum();
        if self.max_total.is_some_and(|t| total > t) {
            return None;
        }
        a.resize(self.heaps, 0);
        a.sort_unstable();
        Some(self.rank_sorted(&a))
    }

    /// The position of rank `rank` as a non-decreasing tuple of `heaps` values (zeros first).
    pub fn position(&self, rank: u64) -> Vec<u64> {
        let mut r = rank;
        let mut a = vec![0u64; self.heaps];
        for j in (0..self.heaps).rev() {
            // the largest b with C(b, j + 1) <= r
            let mut b = j;
            while b < self.max_heap as usize + self.heaps && self.c(b + 1, j + 1) <= r {
                b += 1;
            }
            r -= self.c(b, j + 1);
            a[j] = (b - j) as u64;
        }
        a
    }

    /// Whether the position of these sorted heaps is within the total cap.
    fn within_total(&self, total: u64) -> bool {
        self.max_total.map_or(true, |t| total <= t)
    }
}

/// The class of a position from the bit set of its options' classes under `GAMES(order)`:
/// the first offset `k` of the order with `k - 1` on offer; `m - 1` when there is no option.
pub fn class_from_options(order: &[usize], option_classes: u32) -> usize {
    let m = order.len();
    if option_classes == 0 {
        return m - 1;
    }
    order
        .iter()
        .copied()
        .find(|&k| option_classes >> ((k + m - 1) % m) & 1 == 1)
        .expect("a non-empty set of classes below m meets every order")
}

/// Every permutation of `0..m` in lexicographic order: the orders `GAMES(k1..km)`.
pub fn all_orders(m: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut cur: Vec<usize> = (0..m).collect();
    loop {
        out.push(cur.clone());
        // next permutation
        let Some(i) = (0..m.saturating_sub(1))
            .rev()
            .find(|&i| cur[i] < cur[i + 1])
        else {
            break;
        };
        let j = (i + 1..m).rev().find(|&j| cur[j] > cur[i]).expect("exists");
        cur.swap(i, j);
        cur[i + 1..].reverse();
    }
    out
}

/// Check that `order` is a permutation of `0..domain.players()`.
fn check_order(domain: &Domain, order: &[usize]) -> Result<(), Error> {
    if order.len() != domain.players {
        return Err(Error::Invalid(format!(
            "the order has {} entries but the table is for {} players",
            order.len(),
            domain.players
        )));
    }
    Preferences::games(order).map(|_| ())
}

/// The class table of one order over a domain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    domain: Domain,
    order: Vec<usize>,
    /// `classes[rank]`; [`OUTSIDE`] above the total cap.
    classes: Vec<u8>,
}

/// Progress of a computation: (positions done, positions in all), over every batch.
pub type TableProgress<'a> = Option<&'a (dyn Fn(u64, u64) + Sync)>;

impl Table {
    /// The domain.
    pub fn domain(&self) -> &Domain {
        &self.domain
    }
    /// The order `k1..km`.
    pub fn order(&self) -> &[usize] {
        &self.order
    }
    /// Every entry, by rank ([`OUTSIDE`] above the total cap).
    pub fn classes(&self) -> &[u8] {
        &self.classes
    }

    /// The class of a Nim position, `None` when it is outside the domain.
    pub fn class_of(&self, heaps: &[u64]) -> Option<usize> {
        let r = self.domain.rank(heaps)?;
        Some(self.classes[r as usize] as usize)
    }

    /// The class of the position of rank `rank`, `None` above the total cap.
    pub fn class_at(&self, rank: u64) -> Option<usize> {
        let c = *self.classes.get(rank as usize)?;
        (c != OUTSIDE).then_some(c as usize)
    }

    /// The tables of `orders` over `domain`, every order sharing one enumeration (in batches
    /// whose line bit sets fit [`LINE_MEMORY`]). Returns `Ok(None)` when `stop` was set.
    pub fn compute_all(
        domain: &Domain,
        orders: &[Vec<usize>],
        progress: TableProgress<'_>,
        stop: Option<&AtomicBool>,
    ) -> Result<Option<Vec<Table>>, Error> {
        for order in orders {
            check_order(domain, order)?;
        }
        let rest_len = if domain.heaps == 1 {
            1
        } else {
            binomial_within(
                domain.max_heap + domain.heaps as u64 - 1,
                domain.heaps as u64 - 1,
            )
        };
        let stride = domain.max_heap + 1;
        let per_order = (rest_len * stride).max(1);
        let batch = if domain.max_total.is_some() {
            orders.len().max(1)
        } else {
            ((LINE_MEMORY / per_order) as usize).clamp(1, orders.len().max(1))
        };
        let total_work = domain.len * orders.len() as u64;
        let mut out = Vec::with_capacity(orders.len());
        for (b, chunk) in orders.chunks(batch).enumerate() {
            let done_before = domain.len * (b * batch) as u64;
            let report = |done: u64| {
                if let Some(p) = progress {
                    p(done_before + done * chunk.len() as u64, total_work);
                }
            };
            match compute_batch(domain, chunk, rest_len, &report, stop) {
                Some(tables) => out.extend(tables),
                None => return Ok(None),
            }
        }
        if let Some(p) = progress {
            p(total_work, total_work);
        }
        Ok(Some(out))
    }

    /// The table of one order.
    pub fn compute(domain: &Domain, order: &[usize]) -> Result<Table, Error> {
        let tables = Self::compute_all(domain, &[order.to_vec()], None, None)?;
        Ok(tables
            .expect("no stop flag")
            .pop()
            .expect("one table per order"))
    }

    /// The file form (format `GRMPTAB1`, see the module documentation).
    pub fn to_bytes(&self) -> Vec<u8> {
        let d = &self.domain;
        let mut v = Vec::with_capacity(self.classes.len() / 2 + 64);
        v.extend_from_slice(MAGIC);
        v.push(d.players as u8);
        v.push(d.heaps as u8);
        v.extend_from_slice(&(d.max_heap as u16).to_le_bytes());
        let total = d
            .max_total
            .map_or(u32::MAX, |t| t.min(u32::MAX as u64 - 1) as u32);
        v.extend_from_slice(&total.to_le_bytes());
        v.extend(self.order.iter().map(|&k| k as u8));
        v.extend_from_slice(&d.len.to_le_bytes());
        for pair in self.classes.chunks(2) {
            let hi = pair.get(1).copied().unwrap_or(0);
            v.push(pair[0] | hi << 4);
        }
        let crc = crc32fast::hash(&v);
        v.extend_from_slice(&crc.to_le_bytes());
        v
    }

    /// Read a file written by [`Table::to_bytes`] for exactly this domain and order. What it
    /// can prove is checked: the header, the length, the CRC, every class below `m` (or
    /// [`OUTSIDE`] exactly above the total cap), and the terminal position's class `m - 1`.
    /// `what` names the file in messages.
    pub fn from_bytes(
        domain: &Domain,
        order: &[usize],
        bytes: &[u8],
        what: &str,
    ) -> Result<Table, Error> {
        let bad = |why: &str| Error::Invalid(format!("{what}: not a usable table file ({why})"));
        let m = domain.players;
        let head = 8 + 1 + 1 + 2 + 4 + m + 8;
        let body = domain.len.div_ceil(2) as usize;
        if bytes.len() != head + body + 4 {
            return Err(bad("wrong length"));
        }
        let (data, crc) = bytes.split_at(head + body);
        if crc32fast::hash(data).to_le_bytes() != crc {
            return Err(bad("checksum mismatch"));
        }
        let expected = Table {
            domain: domain.clone(),
            order: order.to_vec(),
            classes: Vec::new(),
        }
        .to_bytes();
        if data[..head] != expected[..head] {
            return Err(bad("made for another domain or order"));
        }
        let mut classes = Vec::with_capacity(domain.len as usize);
        for &byte in &data[head..] {
            classes.push(byte & 0xF);
            classes.push(byte >> 4);
        }
        classes.truncate(domain.len as usize);
        let mut a = vec![0u64; domain.heaps];
        let mut total = 0u64;
        for (r, &c) in classes.iter().enumerate() {
            let inside = domain.within_total(total);
            if inside != ((c as usize) < m) || (!inside && c != OUTSIDE) {
                return Err(bad(&format!("entry {r} holds {c}")));
            }
            if r + 1 < classes.len() {
                total = next_tuple(&mut a, domain.max_heap, total);
            }
        }
        if classes[0] as usize != m - 1 {
            return Err(bad("the terminal position is not an (m-1)-position"));
        }
        Ok(Table {
            domain: domain.clone(),
            order: order.to_vec(),
            classes,
        })
    }
}

/// Advance a non-decreasing tuple to its colex successor; returns the new total. The caller
/// stops at the last tuple.
#[inline]
fn next_tuple(a: &mut [u64], max: u64, total: u64) -> u64 {
    let k = a.len();
    let mut total = total;
    for i in 0..k {
        let limit = if i + 1 < k { a[i + 1] } else { max };
        if a[i] < limit {
            a[i] += 1;
            total += 1;
            for x in a.iter_mut().take(i) {
                total -= *x;
                *x = 0;
            }
            return total;
        }
    }
    total
}

/// The rank of `a` without its element at index `skip` (a tuple of `a.len() - 1` values).
#[inline]
fn rest_rank(domain: &Domain, a: &[u64], skip: usize) -> u64 {
    let mut r = 0;
    for (j, &x) in a.iter().enumerate() {
        if j < skip {
            r += domain.c(x as usize + j, j + 1);
        } else if j > skip {
            r += domain.c(x as usize + j - 1, j);
        }
    }
    r
}

/// The line bit sets of a batch: one row of `stride * orders` bytes per rest. Dense (one
/// flat array) for a full domain; a map of the rows met for a domain with a total cap, whose
/// rests are a sliver of the rank space.
enum Lines {
    Dense(Vec<u8>, usize),
    Sparse(rustc_hash::FxHashMap<usize, Box<[u8]>>, usize),
}

impl Lines {
    fn new(sparse: bool, rests: usize, row: usize) -> Self {
        if sparse {
            Lines::Sparse(Default::default(), row)
        } else {
            Lines::Dense(vec![0u8; rests * row], row)
        }
    }

    #[inline]
    fn row(&self, rest: usize) -> Option<&[u8]> {
        match self {
            Lines::Dense(v, w) => Some(&v[rest * w..rest * w + w]),
            Lines::Sparse(map, _) => map.get(&rest).map(|b| &b[..]),
        }
    }

    #[inline]
    fn row_mut(&mut self, rest: usize) -> &mut [u8] {
        match self {
            Lines::Dense(v, w) => &mut v[rest * *w..rest * *w + *w],
            Lines::Sparse(map, w) => map
                .entry(rest)
                .or_insert_with(|| vec![0u8; *w].into_boxed_slice()),
        }
    }
}

fn compute_batch(
    domain: &Domain,
    orders: &[Vec<usize>],
    rest_len: u64,
    report: &dyn Fn(u64),
    stop: Option<&AtomicBool>,
) -> Option<Vec<Table>> {
    let m = domain.players;
    let n = orders.len();
    let k = domain.heaps;
    let stride = domain.max_heap as usize + 1;
    // class of a position from its options' class set, per order
    let lookup: Vec<[u8; 256]> = orders
        .iter()
        .map(|order| {
            let mut t = [0u8; 256];
            for (mask, slot) in t.iter_mut().enumerate().take(1 << m) {
                *slot = class_from_options(order, mask as u32) as u8;
            }
            t
        })
        .collect();
    // cum[rest][h * n + o]: classes on the line below h, order o
    let mut cum = Lines::new(domain.max_total.is_some(), rest_len as usize, stride * n);
    let mut classes: Vec<Vec<u8>> = vec![vec![OUTSIDE; domain.len as usize]; n];
    let mut a = vec![0u64; k];
    let mut total = 0u64;
    let mut masks = vec![0u8; n];
    let mut found = vec![0u8; n];
    // (value, rest index) of each distinct heap size of the current position
    let mut lines: Vec<(usize, usize)> = Vec::with_capacity(k);
    let len = domain.len;
    for rank in 0..len {
        if rank & 0xFFFF == 0 {
            if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                return None;
            }
            if rank > 0 {
                report(rank);
            }
        }
        if domain.within_total(total) {
            lines.clear();
            for i in 0..k {
                // the last copy of each value stands for the line of that value
                if i + 1 == k || a[i + 1] != a[i] {
                    lines.push((a[i] as usize, rest_rank(domain, a.as_slice(), i) as usize));
                }
            }
            masks.iter_mut().for_each(|x| *x = 0);
            for &(h, rest) in &lines {
                if h > 0 {
                    if let Some(row) = cum.row(rest) {
                        for (x, &c) in masks.iter_mut().zip(&row[h * n..h * n + n]) {
                            *x |= c;
                        }
                    }
                }
            }
            for o in 0..n {
                let c = lookup[o][masks[o] as usize];
                found[o] = c;
                classes[o][rank as usize] = c;
            }
            for &(h, rest) in &lines {
                if h + 1 < stride {
                    let (below, above) = cum.row_mut(rest).split_at_mut(h * n + n);
                    for o in 0..n {
                        above[o] = below[h * n + o] | 1 << found[o];
                    }
                }
            }
        }
        if rank + 1 < len {
            total = next_tuple(&mut a, domain.max_heap, total);
        }
    }
    Some(
        orders
            .iter()
            .zip(classes)
            .map(|(order, classes)| Table {
                domain: domain.clone(),
                order: order.clone(),
                classes,
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::nim::nim;
    use crate::solve::Solver;

    #[test]
    fn ranks_and_positions_agree_in_colex_order() {
        let d = Domain::new(3, 3, 5, None).unwrap();
        assert_eq!(d.len(), 56);
        let mut a = vec![0u64; 3];
        let mut total = 0;
        for r in 0..d.len() {
            assert_eq!(d.position(r), a);
            assert_eq!(d.rank(&a), Some(r));
            assert_eq!(total, a.iter().sum::<u64>());
            if r + 1 < d.len() {
                total = next_tuple(&mut a, 5, total);
            }
        }
        assert_eq!(a, vec![5, 5, 5]);
        assert_eq!(d.rank(&[4, 0, 1]), d.rank(&[1, 4]));
        assert_eq!(d.rank(&[1, 1, 1, 1]), None);
        assert_eq!(d.rank(&[6]), None);
    }

    #[test]
    fn options_come_before_their_position() {
        let d = Domain::new(3, 4, 4, None).unwrap();
        for r in 0..d.len() {
            let p = d.position(r);
            for (i, &h) in p.iter().enumerate() {
                for v in 0..h {
                    let mut q = p.clone();
                    q[i] = v;
                    assert!(d.rank(&q).unwrap() < r, "{q:?} after {p:?}");
                }
            }
        }
    }

    #[test]
    fn tables_agree_with_the_general_evaluator() {
        for m in 2..=4 {
            let d = Domain::new(m, 4, 6, None).unwrap();
            let orders = all_orders(m);
            let tables = Table::compute_all(&d, &orders, None, None)
                .unwrap()
                .unwrap();
            for t in &tables {
                let mut solver = Solver::multiplayer(nim(), Preferences::games(t.order()).unwrap());
                for r in 0..d.len() {
                    let p = d.position(r);
                    assert_eq!(
                        t.class_at(r),
                        Some(solver.position_offset(&p, 0).unwrap()),
                        "{:?} {p:?}",
                        t.order()
                    );
                }
            }
        }
    }

    #[test]
    fn a_total_cap_leaves_the_rest_outside() {
        let full = Domain::new(4, 5, 6, None).unwrap();
        let capped = Domain::new(4, 5, 6, Some(9)).unwrap();
        let order = [2, 0, 3, 1];
        let a = Table::compute(&full, &order).unwrap();
        let b = Table::compute(&capped, &order).unwrap();
        for r in 0..full.len() {
            let p = full.position(r);
            if p.iter().sum::<u64>() <= 9 {
                assert_eq!(a.class_at(r), b.class_at(r));
            } else {
                assert_eq!(b.class_at(r), None);
                assert_eq!(b.class_of(&p), None);
            }
        }
    }

    #[test]
    fn batches_give_the_same_tables() {
        let d = Domain::new(3, 3, 9, None).unwrap();
        let orders = all_orders(3);
        let together = Table::compute_all(&d, &orders, None, None)
            .unwrap()
            .unwrap();
        for t in together {
            assert_eq!(Table::compute(&d, t.order()).unwrap(), t);
        }
    }

    #[test]
    fn files_round_trip_and_damage_is_refused() {
        let d = Domain::new(5, 3, 7, Some(15)).unwrap();
        let t = Table::compute(&d, &[3, 1, 4, 0, 2]).unwrap();
        let bytes = t.to_bytes();
        assert_eq!(Table::from_bytes(&d, t.order(), &bytes, "f").unwrap(), t);
        let mut broken = bytes.clone();
        broken[40] ^= 1;
        let e = Table::from_bytes(&d, t.order(), &broken, "f").unwrap_err();
        assert!(e.to_string().contains("checksum"), "{e}");
        let e = Table::from_bytes(&d, &[3, 1, 4, 2, 0], &bytes, "f").unwrap_err();
        assert!(e.to_string().contains("another domain or order"), "{e}");
        let e = Table::from_bytes(&d, t.order(), &bytes[..20], "f").unwrap_err();
        assert!(e.to_string().contains("wrong length"), "{e}");
        // a well-formed file whose entries are impossible is refused too
        let mut forged = t.clone();
        forged.classes[1] = 7;
        let e = Table::from_bytes(&d, t.order(), &forged.to_bytes(), "f").unwrap_err();
        assert!(e.to_string().contains("entry 1 holds 7"), "{e}");
    }

    #[test]
    fn orders_are_every_permutation() {
        assert_eq!(all_orders(3).len(), 6);
        assert_eq!(all_orders(4).len(), 24);
        assert_eq!(all_orders(5).len(), 120);
        assert_eq!(all_orders(3)[1], vec![0, 2, 1]);
        assert_eq!(class_from_options(&[0, 1, 2], 0), 2);
        // options of classes {2}: offset 0 on offer -> class 0 under Li's order
        assert_eq!(class_from_options(&[0, 1, 2], 0b100), 0);
    }

    #[test]
    fn bad_domains_are_refused() {
        assert!(Domain::new(9, 3, 3, None).is_err());
        assert!(Domain::new(3, 0, 3, None).is_err());
        assert!(Domain::new(3, 3, 0, None).is_err());
        // past u128: refused with no overflow (a debug build panicked, a release build printed
        // a wrapped count)
        let e = Domain::new(4, 16, 4096, None).unwrap_err().to_string();
        assert!(e.contains("make more than 10^38 positions"), "{e}");
        let e = Domain::new(4, 16, 64, None).unwrap_err().to_string();
        assert!(e.contains("make 26958221130508525 positions"), "{e}");
        assert_eq!(binomial(64, 32), Some(1832624140942590534));
        assert_eq!(binomial(5, 7), Some(0));
    }
}
