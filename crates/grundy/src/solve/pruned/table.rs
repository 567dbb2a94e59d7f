//! A compact transposition table with a memory budget.
//!
//! Open addressing in one flat array of `(position, knowledge)` slots: no per-entry allocation
//! when positions are plain integers (a Cram or Chomp position is one `u64`, a slot 24 bytes).
//! The array doubles while it fits in the budget; once it cannot grow, a new entry *replaces*
//! an old one in its probe window (preferring partial knowledge over exact values) instead of
//! refusing. Losing an entry costs time, never correctness: the search recomputes it.

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
/// A slot is a bare `(position, knowledge)`, 16 bytes for a `u64` position: a slot is empty
/// when its knowledge is [`Knowledge::NONE`] (never stored), and empty slots hold a copy of the
/// first position stored as filler, so no `Option` or `Default` is needed.
pub struct Table<P> {
    slots: Vec<(P, Knowledge)>,
    len: usize,
    max_slots: usize,
    replaced: u64,
}

/// Slots looked at for one position; also the replacement window.
const WINDOW: usize = 32;

impl<P: Eq + Hash + Clone> Table<P> {
    /// An empty table that will use at most about `budget_bytes` of memory.
    pub fn with_budget(budget_bytes: usize) -> Self {
        let slot = std::mem::size_of::<(P, Knowledge)>().max(1);
        let max_slots = (budget_bytes / slot).max(WINDOW * 2);
        // Largest power of two within the budget (the index is a mask).
        let max_slots = 1usize << (usize::BITS - 1 - max_slots.leading_zeros());
        Table {
            slots: Vec::new(),
            len: 0,
            max_slots,
            replaced: 0,
        }
    }

    /// Entries stored.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Entries overwritten for lack of room since the table was made.
    pub fn replaced(&self) -> u64 {
        self.replaced
    }

    /// Bytes the slot array occupies now.
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<(P, Knowledge)>()
    }

    fn home(&self, p: &P) -> usize {
        let mut h = FxHasher::default();
        p.hash(&mut h);
        // Fx's low bits are weak for integers, and a product's high bits depend on every bit
        // of the key: index by the top bits of a second multiplication.
        let x = h.finish().wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let bits = self.slots.len().trailing_zeros();
        if bits == 0 {
            0
        } else {
            (x >> (64 - bits)) as usize
        }
    }

    /// What is known about `p`.
    pub fn get(&self, p: &P) -> Knowledge {
        if self.slots.is_empty() {
            return Knowledge::NONE;
        }
        let mask = self.slots.len() - 1;
        let home = self.home(p);
        for i in 0..WINDOW {
            let (q, k) = &self.slots[(home + i) & mask];
            if *k == Knowledge::NONE {
                break;
            }
            if q == p {
                return *k;
            }
        }
        Knowledge::NONE
    }

    /// Record `k` (which includes whatever was known before) for `p`.
    pub fn put(&mut self, p: &P, k: Knowledge) {
        if k == Knowledge::NONE {
            return; // nothing to remember (and NONE marks an empty slot)
        }
        if self.slots.is_empty() {
            self.slots = vec![(p.clone(), Knowledge::NONE); 1024.min(self.max_slots)];
        }
        if self.len * 4 >= self.slots.len() * 3 && self.slots.len() < self.max_slots {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let home = self.home(p);
        let mut victim = None;
        for i in 0..WINDOW {
            let at = (home + i) & mask;
            let (q, old) = &self.slots[at];
            if *old == Knowledge::NONE {
                self.slots[at] = (p.clone(), k);
                self.len += 1;
                return;
            }
            if q == p {
                self.slots[at].1 = k;
                return;
            }
            // Prefer to overwrite partial knowledge; among equals, the later slot.
            if victim.is_none() || old.value().is_none() {
                victim = Some(at);
            }
        }
        if self.slots.len() < self.max_slots {
            self.grow();
            return self.put(p, k);
        }
        let at = victim.expect("the window is full");
        self.slots[at] = (p.clone(), k);
        self.replaced += 1;
    }

    fn grow(&mut self) {
        let mut new_len = (self.slots.len() * 2).min(self.max_slots);
        let old = std::mem::take(&mut self.slots);
        let filler = old[0].0.clone();
        loop {
            self.slots = vec![(filler.clone(), Knowledge::NONE); new_len];
            self.len = 0;
            let mask = new_len - 1;
            let mut dropped = false;
            for (p, k) in old.iter().filter(|(_, k)| *k != Knowledge::NONE) {
                let home = self.home(p);
                match (0..WINDOW)
                    .map(|i| (home + i) & mask)
                    .find(|&at| self.slots[at].1 == Knowledge::NONE)
                {
                    Some(at) => {
                        self.slots[at] = (p.clone(), *k);
                        self.len += 1;
                    }
                    None => dropped = true,
                }
            }
            // A full window on rehash: grow again while allowed, else drop (it is a cache).
            if !dropped || new_len >= self.max_slots {
                return;
            }
            new_len = (new_len * 2).min(self.max_slots);
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
    fn a_roomy_table_keeps_everything() {
        let mut t: Table<u64> = Table::with_budget(1 << 24);
        for p in 0..50_000u64 {
            t.put(&p, Knowledge::NONE.exclude(p % 3));
        }
        assert_eq!(t.len(), 50_000);
        assert_eq!(t.replaced(), 0);
        assert!((0..50_000u64).all(|p| t.get(&p).excludes(p % 3)));
    }
}
