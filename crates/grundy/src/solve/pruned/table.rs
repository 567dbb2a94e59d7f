//! A compact transposition table with a memory budget.
//!
//! Open addressing in one flat array of `(position, knowledge)` slots, in buckets of one cache
//! line: no per-entry allocation when positions are plain integers (a Cram or Chomp position is
//! one `u64`, a slot 16 bytes), and a look-up reads at most two adjacent lines. The array grows
//! with the exact values it holds, within the budget; partial knowledge fills the room left
//! and is replaced first. Once the table cannot grow, a new exact value *replaces* an old one
//! instead of being refused. Losing an entry costs time, never correctness: the search
//! recomputes it.

use rustc_hash::FxHasher;
use std::hash::{Hash, Hasher};

/// What the search knows about one position's Grundy value, packed in 64 bits: either the exact
/// value, or the set of values below 63 that it is known *not* to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Knowledge(u64);

const EXACT: u64 = 1 << 63;

impl Knowledge {
    /// Nothing known.
    pub const NONE: Knowledge = Knowledge(0);

    /// The value is exactly `v`.
    pub fn exact(v: u64) -> Self {
        Knowledge(EXACT | v.min(EXACT - 1))
    }

    /// The exact value, if known.
    pub fn value(self) -> Option<u64> {
        (self.0 & EXACT != 0).then_some(self.0 & !EXACT)
    }

    /// Whether the value is known to differ from `v`.
    pub fn excludes(self, v: u64) -> bool {
        match self.value() {
            Some(x) => x != v,
            None => v < 63 && self.0 & (1 << v) != 0,
        }
    }

    /// The values below 63 known to be excluded, as bits (0 when the value is known).
    pub fn excluded_bits(self) -> u64 {
        if self.value().is_some() {
            0
        } else {
            self.0
        }
    }

    /// This knowledge plus "the value is none of the bits of `mask`" (bits below 63).
    pub fn exclude_all(self, mask: u64) -> Self {
        if self.value().is_some() {
            self
        } else {
            Knowledge(self.0 | (mask & !EXACT))
        }
    }

    /// The 64 bits this knowledge is packed in (what a saved table stores).
    pub fn to_bits(self) -> u64 {
        self.0
    }

    /// The knowledge packed in `bits` by [`to_bits`](Self::to_bits).
    pub fn from_bits(bits: u64) -> Self {
        Knowledge(bits)
    }

    /// What is known from `self` and `other` together (two true statements about one
    /// position): an exact value wins over exclusions, and exclusions add up.
    pub fn merge(self, other: Knowledge) -> Self {
        match (self.value(), other.value()) {
            (_, Some(_)) => other,
            (Some(_), None) => self,
            (None, None) => Knowledge(self.0 | other.0),
        }
    }

    /// This knowledge plus "the value is not `v`".
    pub fn exclude(self, v: u64) -> Self {
        if self.value().is_some() || v >= 63 {
            self
        } else {
            Knowledge(self.0 | (1 << v))
        }
    }
}

/// The transposition table: positions to [`Knowledge`], within a memory budget.
///
/// Slots are bare `(position, knowledge)` pairs, 16 bytes for a `u64` position, grouped in
/// buckets of 4 (`WAYS`) that start on a cache line when the slot size allows; a position
/// lives in its home bucket or the one beside it, so a look-up reads at most two adjacent
/// lines. A slot is empty when its knowledge is [`Knowledge::NONE`] (never stored), and empty
/// slots hold a copy of the first position stored as filler, so no `Option` or `Default` is
/// needed.
///
/// Exact values decide the size: the array doubles (within the budget) when they fill half the
/// slots. Partial knowledge only fills what room there is: it is the first to be replaced.
///
/// # Memory: the budget is the peak
///
/// The array doubles *in place*: the vector is extended (a `realloc`, which for large blocks
/// the system allocator does by remapping pages, without a second copy) and the entries are
/// moved to their new buckets from the last pair of old buckets down, each pair's entries into
/// the four new buckets only they can reach. So the table never holds an old and a new array
/// at once, and its peak is its final size, at most the budget. (A copy of the old array
/// during growth made `chomp 10x30 --memory 512M` peak at 791 MB.)
pub struct Table<P> {
    /// The slots: bucket `b` is `slots[off + WAYS * b..][..WAYS]`, then `WAYS` spare slots
    /// that let `off` move the buckets onto cache-line boundaries.
    slots: Vec<(P, Knowledge)>,
    off: usize,
    /// Buckets (0 before the first entry, then a power of two).
    nb: usize,
    len: usize,
    exact: usize,
    max_buckets: usize,
    /// The budget asked for, in bytes.
    budget: usize,
    replaced: u64,
    /// Whether partial knowledge counts towards growing (see
    /// [`growing_with_partial`](Table::growing_with_partial)).
    partial_grows: bool,
}

/// Slots per bucket.
const WAYS: usize = 4;
/// Bytes of a cache line.
const LINE: usize = 64;

impl<P: Eq + Hash + Clone> Table<P> {
    /// An empty table that will use at most about `budget_bytes` of memory.
    pub fn with_budget(budget_bytes: usize) -> Self {
        let bucket = WAYS * std::mem::size_of::<(P, Knowledge)>();
        let max_buckets = (budget_bytes / bucket).max(4);
        // Largest power of two within the budget (the index is a mask).
        let max_buckets = 1usize << (usize::BITS - 1 - max_buckets.leading_zeros());
        Table {
            slots: Vec::new(),
            off: 0,
            nb: 0,
            len: 0,
            exact: 0,
            max_buckets,
            budget: budget_bytes,
            replaced: 0,
            partial_grows: false,
        }
    }

    /// This table, growing (within its budget) with every entry rather than with the exact
    /// values only: for a search that keeps its exact values elsewhere (the dense array of
    /// [`super::Dense`]), so that this table holds mostly partial knowledge.
    pub fn growing_with_partial(mut self) -> Self {
        self.partial_grows = true;
        self
    }

    /// The memory budget given at creation, in bytes.
    pub fn budget(&self) -> usize {
        self.budget
    }

    /// Entries stored.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Exact values overwritten for lack of room since the table was made (partial knowledge
    /// gives way without being counted).
    pub fn replaced(&self) -> u64 {
        self.replaced
    }

    /// Bytes the slot array occupies now.
    pub fn bytes(&self) -> usize {
        self.nb * WAYS * std::mem::size_of::<(P, Knowledge)>()
    }

    /// The slots in use (every bucket, in order).
    fn used(&self) -> &[(P, Knowledge)] {
        &self.slots[self.off..self.off + self.nb * WAYS]
    }

    /// Every stored entry, in slot order (what a saved table writes).
    pub fn entries(&self) -> impl Iterator<Item = (&P, Knowledge)> + '_ {
        self.used()
            .iter()
            .filter(|(_, k)| *k != Knowledge::NONE)
            .map(|(p, k)| (p, *k))
    }

    /// The index in `slots` of slot `i` of bucket `b`.
    fn at(&self, b: usize, i: usize) -> usize {
        self.off + b * WAYS + i
    }

    /// The first slot offset (below `WAYS`) at which buckets start on a cache line, or 0.
    fn aligned_offset(slots: &[(P, Knowledge)]) -> usize {
        let size = std::mem::size_of::<(P, Knowledge)>();
        let base = slots.as_ptr() as usize;
        (0..WAYS)
            .find(|k| (base + k * size) % LINE == 0)
            .unwrap_or(0)
    }

    /// The home bucket of `p` in an array of `n` buckets (a power of two).
    fn home(p: &P, n: usize) -> usize {
        let mut h = FxHasher::default();
        p.hash(&mut h);
        // Fx's low bits are weak for integers, and a product's high bits depend on every bit
        // of the key: index by the top bits of a second multiplication.
        let x = h.finish().wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let bits = n.trailing_zeros();
        if bits == 0 {
            0
        } else {
            (x >> (64 - bits)) as usize
        }
    }

    /// What is known about `p`.
    pub fn get(&self, p: &P) -> Knowledge {
        if self.nb == 0 {
            return Knowledge::NONE;
        }
        let home = Self::home(p, self.nb);
        for b in [home, home ^ 1] {
            let start = self.at(b, 0);
            for (q, k) in &self.slots[start..start + WAYS] {
                if *k == Knowledge::NONE {
                    // The second bucket is used only once the first is full.
                    return Knowledge::NONE;
                }
                if q == p {
                    return *k;
                }
            }
        }
        Knowledge::NONE
    }

    /// Add `k` to what is known about `p` ([`Knowledge::merge`]): exclusions add up, and
    /// partial knowledge never replaces an exact value of the same position. So a search may
    /// store "not these values" without reading the entry first, and a store that interleaves
    /// with another search's exact value (threads sharing one table) cannot undo it.
    pub fn put(&mut self, p: &P, k: Knowledge) {
        if k == Knowledge::NONE {
            return; // nothing to remember (and NONE marks an empty slot)
        }
        if self.nb == 0 {
            self.nb = 256.min(self.max_buckets);
            self.slots = vec![(p.clone(), Knowledge::NONE); (self.nb + 1) * WAYS];
            self.off = Self::aligned_offset(&self.slots);
        }
        let is_exact = k.value().is_some();
        let counted = if self.partial_grows {
            self.len
        } else if is_exact {
            self.exact
        } else {
            0
        };
        if counted * 2 >= self.nb * WAYS {
            self.grow();
        }
        let home = Self::home(p, self.nb);
        let mut victim: Option<usize> = None;
        for b in [home, home ^ 1] {
            for i in 0..WAYS {
                let at = self.at(b, i);
                let (q, old) = &self.slots[at];
                if *old == Knowledge::NONE {
                    self.slots[at] = (p.clone(), k);
                    self.len += 1;
                    self.exact += usize::from(is_exact);
                    return;
                }
                if q == p {
                    let merged = old.merge(k);
                    self.exact += usize::from(is_exact && old.value().is_none());
                    self.slots[at].1 = merged;
                    return;
                }
                if victim.is_none() && old.value().is_none() {
                    victim = Some(at);
                }
            }
        }
        let at = match victim {
            Some(at) => at,
            // Nothing partial to give up: partial knowledge is not worth an exact value;
            // an exact value replaces one of the two buckets' exact values, in turn.
            None if !is_exact => return,
            None => self.at(
                [home, home ^ 1][(self.replaced & 1) as usize],
                (self.replaced >> 1) as usize % WAYS,
            ),
        };
        let old = self.slots[at].1;
        let lost_exact = old.value().is_some();
        self.exact = self.exact + usize::from(is_exact) - usize::from(lost_exact);
        self.slots[at] = (p.clone(), k);
        self.replaced += u64::from(lost_exact);
    }

    /// Make room for `exact` exact values at once (within the budget), as the array would have
    /// grown had they come one by one in the search's order. Entries inserted in the order of
    /// another table's slots (a saved table) are sorted by hash and would otherwise replace
    /// each other in the first buckets before the array grows. No effect on an empty table.
    pub fn reserve(&mut self, exact: usize) {
        while self.nb != 0 && self.nb < self.max_buckets && exact * 2 >= self.nb * WAYS {
            self.grow();
        }
    }

    /// Double the array in place (see "Memory" above); nothing is lost.
    fn grow(&mut self) {
        if self.nb >= self.max_buckets {
            return;
        }
        let (old_nb, new_nb) = (self.nb, self.nb * 2);
        let filler = self.slots[self.off].0.clone();
        let want = (new_nb + 1) * WAYS;
        self.slots.reserve_exact(want - self.slots.len());
        self.slots.resize(want, (filler.clone(), Knowledge::NONE));
        // The block may have moved: put the buckets back on cache lines (a rotation by fewer
        // than WAYS slots, in place).
        let off = Self::aligned_offset(&self.slots);
        if off != self.off {
            let (lo, hi) = (off.min(self.off), off.max(self.off));
            let block = &mut self.slots[lo..hi + old_nb * WAYS];
            if off > self.off {
                block.rotate_right(hi - lo);
            } else {
                block.rotate_left(hi - lo);
            }
            self.off = off;
        }
        self.nb = new_nb;
        // An entry of old bucket b has its home in b's pair {2q, 2q + 1}, and its new home in
        // {4q, ..., 4q + 3}: buckets that belonged to old pairs above q (already moved, from
        // the last down) or to the new half. Eight entries always fit in those 16 slots.
        let mut moving: Vec<(P, Knowledge)> = Vec::with_capacity(2 * WAYS);
        for q in (0..old_nb / 2).rev() {
            for i in 0..2 * WAYS {
                let at = self.at(2 * q, i);
                if self.slots[at].1 != Knowledge::NONE {
                    moving.push(std::mem::replace(
                        &mut self.slots[at],
                        (filler.clone(), Knowledge::NONE),
                    ));
                }
            }
            for (p, k) in moving.drain(..) {
                let home = Self::home(&p, new_nb);
                let at = [home, home ^ 1]
                    .into_iter()
                    .flat_map(|b| (0..WAYS).map(move |i| (b, i)))
                    .map(|(b, i)| self.at(b, i))
                    .find(|&at| self.slots[at].1 == Knowledge::NONE)
                    .expect("four new buckets hold the entries of their old pair");
                self.slots[at] = (p, k);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knowledge_packs_exact_values_and_exclusions() {
        let k = Knowledge::NONE.exclude(0).exclude(5);
        assert!(k.excludes(0) && k.excludes(5) && !k.excludes(1) && !k.excludes(100));
        assert_eq!(k.value(), None);
        let e = Knowledge::exact(7);
        assert_eq!(e.value(), Some(7));
        assert!(e.excludes(6) && !e.excludes(7));
        assert_eq!(e.exclude(3), e);
    }

    #[test]
    fn put_merges_and_never_replaces_an_exact_value_with_partial_knowledge() {
        let mut t: Table<u64> = Table::with_budget(1 << 16);
        t.put(&1, Knowledge::NONE.exclude(0));
        t.put(&1, Knowledge::NONE.exclude(2));
        assert_eq!(t.get(&1), Knowledge::NONE.exclude(0).exclude(2));
        t.put(&1, Knowledge::exact(1));
        assert_eq!(t.get(&1), Knowledge::exact(1));
        // What a search that read the entry before the exact value came would write.
        t.put(&1, Knowledge::NONE.exclude(0).exclude(2).exclude(3));
        assert_eq!(t.get(&1), Knowledge::exact(1));
        assert_eq!((t.len(), t.exact), (1, 1));
        // Exact over partial counts once; every other key is untouched.
        t.put(&2, Knowledge::NONE.exclude(4));
        t.put(&2, Knowledge::exact(0));
        assert_eq!((t.len(), t.exact), (2, 2));
        assert_eq!(t.get(&3), Knowledge::NONE);
        // merge is symmetric in what it keeps.
        let (e, x) = (Knowledge::exact(5), Knowledge::NONE.exclude(1));
        assert_eq!((e.merge(x), x.merge(e)), (e, e));
    }

    #[test]
    fn a_full_table_replaces_instead_of_refusing() {
        let mut t: Table<u64> = Table::with_budget(1 << 12);
        for p in 0..10_000u64 {
            t.put(&p, Knowledge::exact(p % 5));
        }
        assert!(t.bytes() <= 1 << 12);
        assert!(t.replaced() > 0);
        // Whatever survived is right.
        for p in 0..10_000u64 {
            if let Some(v) = t.get(&p).value() {
                assert_eq!(v, p % 5);
            }
        }
        // Recent entries survive.
        assert_eq!(t.get(&9_999).value(), Some(4));
    }

    #[test]
    fn a_roomy_table_keeps_every_exact_value_and_partial_knowledge_fills_the_rest() {
        let mut t: Table<u64> = Table::with_budget(1 << 24);
        for p in 0..50_000u64 {
            t.put(&p, Knowledge::NONE.exclude(p % 3));
        }
        // Partial knowledge alone does not grow the table: it keeps what fits.
        let small = t.bytes();
        assert!(small < 1 << 16, "{small}");
        assert!((0..50_000u64).all(|p| t.get(&p).excluded_bits() & !(1 << (p % 3)) == 0));
        assert!((0..50_000u64).any(|p| t.get(&p).excludes(p % 3)));
        for p in 0..50_000u64 {
            t.put(&p, Knowledge::exact(p % 7));
        }
        assert_eq!(t.replaced(), 0);
        assert!((0..50_000u64).all(|p| t.get(&p).value() == Some(p % 7)));
        assert!(t.bytes() <= 4 * 50_000 * 16, "{}", t.bytes());
    }

    /// Growth in place keeps every entry (the old pair's entries always fit their four new
    /// buckets), for positions of several sizes.
    #[test]
    fn growing_in_place_loses_nothing() {
        // Keys spread like positions (a xorshift sequence).
        let mut x = 0x1234_5678_9abc_def1u64;
        let keys: Vec<u64> = (0..200_000)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x
            })
            .collect();
        let mut t: Table<u64> = Table::with_budget(1 << 26);
        for (i, p) in keys.iter().enumerate() {
            t.put(p, Knowledge::exact(i as u64 % 13));
            if i % 7 == 0 {
                t.put(&(p ^ 1), Knowledge::NONE.exclude(i as u64 % 5));
            }
        }
        // At most half full before each doubling: a full pair of buckets is rare (about 1% of
        // the values, all lost to replacement, none to growth).
        assert!(t.replaced() < keys.len() as u64 / 50, "{}", t.replaced());
        let kept = (0..keys.len())
            .filter(|&i| t.get(&keys[i]).value() == Some(i as u64 % 13))
            .count();
        assert!(kept as u64 + t.replaced() >= keys.len() as u64, "{kept}");
        let mut wide: Table<u128> = Table::with_budget(1 << 24);
        for p in 0..20_000u128 {
            wide.put(&(p << 70 | p), Knowledge::exact((p % 3) as u64));
        }
        let right = (0..20_000u128)
            .filter(|&p| wide.get(&(p << 70 | p)).value() == Some((p % 3) as u64))
            .count();
        assert!(right as u64 + wide.replaced() >= 20_000, "{right}");
        // Buckets sit on cache lines.
        let at = t.used().as_ptr() as usize;
        assert_eq!(at % LINE, 0);
    }

    #[test]
    fn a_table_growing_with_partial_knowledge_keeps_all_of_it() {
        let mut t: Table<u64> = Table::with_budget(1 << 24).growing_with_partial();
        for p in 0..50_000u64 {
            t.put(&p, Knowledge::NONE.exclude(p % 3));
        }
        assert_eq!(t.len(), 50_000);
        assert!((0..50_000u64).all(|p| t.get(&p) == Knowledge::NONE.exclude(p % 3)));
        assert!(t.bytes() <= 4 * 50_000 * 16, "{}", t.bytes());
        // Within its budget it still gives way instead of growing.
        let mut small: Table<u64> = Table::with_budget(1 << 12).growing_with_partial();
        for p in 0..10_000u64 {
            small.put(&p, Knowledge::NONE.exclude(1));
        }
        assert!(small.bytes() <= 1 << 12 && small.len() <= 256);
    }
}
