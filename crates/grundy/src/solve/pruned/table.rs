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
/// buckets of 4 (`WAYS`) aligned to a cache line; a position lives in its home bucket or the one
/// beside it, so a look-up reads at most two adjacent lines. A slot is empty when its knowledge
/// is [`Knowledge::NONE`] (never stored), and empty slots hold a copy of the first position
/// stored as filler, so no `Option` or `Default` is needed.
///
/// Exact values decide the size: the array doubles (within the budget) when they fill half the
/// slots. Partial knowledge only fills what room there is: it is the first to be replaced.
pub struct Table<P> {
    buckets: Vec<Bucket<P>>,
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

#[derive(Clone)]
#[repr(align(64))]
struct Bucket<P>([(P, Knowledge); WAYS]);

impl<P: Eq + Hash + Clone> Table<P> {
    /// An empty table that will use at most about `budget_bytes` of memory.
    pub fn with_budget(budget_bytes: usize) -> Self {
        let bucket = std::mem::size_of::<Bucket<P>>();
        let max_buckets = (budget_bytes / bucket).max(4);
        // Largest power of two within the budget (the index is a mask).
        let max_buckets = 1usize << (usize::BITS - 1 - max_buckets.leading_zeros());
        Table {
            buckets: Vec::new(),
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
        self.buckets.len() * std::mem::size_of::<Bucket<P>>()
    }

    /// Every stored entry, in slot order (what a saved table writes).
    pub fn entries(&self) -> impl Iterator<Item = (&P, Knowledge)> + '_ {
        self.buckets
            .iter()
            .flat_map(|b| b.0.iter())
            .filter(|(_, k)| *k != Knowledge::NONE)
            .map(|(p, k)| (p, *k))
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
        if self.buckets.is_empty() {
            return Knowledge::NONE;
        }
        let home = Self::home(p, self.buckets.len());
        for b in [home, home ^ 1] {
            for (q, k) in &self.buckets[b].0 {
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
        if self.buckets.is_empty() {
            let empty = Bucket(std::array::from_fn(|_| (p.clone(), Knowledge::NONE)));
            self.buckets = vec![empty; 256.min(self.max_buckets)];
        }
        let is_exact = k.value().is_some();
        let counted = if self.partial_grows {
            self.len
        } else if is_exact {
            self.exact
        } else {
            0
        };
        if counted * 2 >= self.buckets.len() * WAYS {
            self.grow();
        }
        let home = Self::home(p, self.buckets.len());
        let mut victim: Option<(usize, usize)> = None;
        for b in [home, home ^ 1] {
            for i in 0..WAYS {
                let (q, old) = &self.buckets[b].0[i];
                if *old == Knowledge::NONE {
                    self.buckets[b].0[i] = (p.clone(), k);
                    self.len += 1;
                    self.exact += usize::from(is_exact);
                    return;
                }
                if q == p {
                    let merged = old.merge(k);
                    self.exact += usize::from(is_exact && old.value().is_none());
                    self.buckets[b].0[i].1 = merged;
                    return;
                }
                if victim.is_none() && old.value().is_none() {
                    victim = Some((b, i));
                }
            }
        }
        let (b, i) = match victim {
            Some(at) => at,
            // Nothing partial to give up: partial knowledge is not worth an exact value;
            // an exact value replaces one of the two buckets' exact values, in turn.
            None if !is_exact => return,
            None => (
                [home, home ^ 1][(self.replaced & 1) as usize],
                (self.replaced >> 1) as usize % WAYS,
            ),
        };
        let old = self.buckets[b].0[i].1;
        let lost_exact = old.value().is_some();
        self.exact = self.exact + usize::from(is_exact) - usize::from(lost_exact);
        self.buckets[b].0[i] = (p.clone(), k);
        self.replaced += u64::from(lost_exact);
    }

    /// Make room for `exact` exact values at once (within the budget), as the array would have
    /// grown had they come one by one in the search's order. Entries inserted in the order of
    /// another table's slots (a saved table) are sorted by hash and would otherwise replace
    /// each other in the first buckets before the array grows. No effect on an empty table.
    pub fn reserve(&mut self, exact: usize) {
        while !self.buckets.is_empty()
            && self.buckets.len() < self.max_buckets
            && exact * 2 >= self.buckets.len() * WAYS
        {
            self.grow();
        }
    }

    fn grow(&mut self) {
        if self.buckets.len() >= self.max_buckets {
            return;
        }
        let new_len = self.buckets.len() * 2;
        let old = std::mem::take(&mut self.buckets);
        let filler = old[0].0[0].0.clone();
        let empty = Bucket(std::array::from_fn(|_| (filler.clone(), Knowledge::NONE)));
        self.buckets = vec![empty; new_len];
        self.len = 0;
        self.exact = 0;
        // Exact values first, so that partial knowledge is what a full pair of buckets drops.
        for pass_exact in [true, false] {
            for (p, k) in old.iter().flat_map(|b| b.0.iter()) {
                if *k == Knowledge::NONE || k.value().is_some() != pass_exact {
                    continue;
                }
                let home = Self::home(p, new_len);
                let free = [home, home ^ 1]
                    .into_iter()
                    .flat_map(|b| (0..WAYS).map(move |i| (b, i)))
                    .find(|&(b, i)| self.buckets[b].0[i].1 == Knowledge::NONE);
                if let Some((b, i)) = free {
                    self.buckets[b].0[i] = (p.clone(), *k);
                    self.len += 1;
                    self.exact += usize::from(pass_exact);
                }
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
