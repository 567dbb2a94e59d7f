//! The rare/common split: which positions are "common", and which values a common-common
//! split can produce.
//!
//! A position `i >= 1` has the *key* `(G(i), i mod 2)`, stored as `2 G(i) + (i mod 2)`. The split
//! is a set `C` of common keys; every other position is rare. When a heap of `m` tokens is split
//! into `a + b = m` with both positions common, the result `G(a) ^ G(b)` lies in
//!
//! ```text
//! F_s = { g1 ^ g2 : (g1, p1), (g2, p2) in C, p1 ^ p2 = s },   s = m mod 2
//! ```
//!
//! (the parities of `a` and `b` add up to the parity of `m`). So when the engine has looked at
//! every option that involves a rare position, a candidate value outside `F_s` for every split
//! move cannot be produced by the options it skipped: the mex is proved without looking at them.
//! That argument holds for **any** set `C`; the choice of `C` only decides speed. Positions
//! with a key outside `C` must be enumerated one by one (few is fast), and a frequent value that
//! lies in `blocked` forces a search for a witness at every occurrence (rarely is fast). The
//! frequency-driven choice ([`Split::by_frequency`]) adds keys to `C` from the most frequent
//! down, keeping every key of `C` provable ("self-provable": no key of `C` is blocked at its
//! own parity), which is the "sparse space" idea of Gangolli–Plambeck and Flammenkamp in the
//! form Beling's `ogs` made dynamic; pairing values with position parities (as ogs's "RC2"
//! does with a second split) is folded into the key here, so one split serves both kinds of game.
//! A mask split ([`Split::by_mask`]: the common values are those with an odd number of bits in
//! `v & mask`) is the classical linear choice.

/// Number of distinct values (`u16`).
pub const VALUES: usize = 1 << 16;
const VALUE_WORDS: usize = VALUES / 64;
const KEY_WORDS: usize = 2 * VALUE_WORDS;

/// A fixed-size bit set over `0..64 * W`.
#[derive(Clone)]
pub struct Bits<const W: usize>(Box<[u64; W]>);

impl<const W: usize> Default for Bits<W> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const W: usize> Bits<W> {
    pub fn new() -> Self {
        Bits(Box::new([0; W]))
    }
    #[inline]
    pub fn contains(&self, x: usize) -> bool {
        self.0[x >> 6] >> (x & 63) & 1 == 1
    }
    #[inline]
    pub fn insert(&mut self, x: usize) {
        self.0[x >> 6] |= 1 << (x & 63);
    }
    pub fn clear(&mut self) {
        self.0.fill(0);
    }
}

/// A value set over all `u16`.
pub type ValueSet = Bits<VALUE_WORDS>;
/// A key set over all `(u16, parity)` keys.
pub type KeySet = Bits<KEY_WORDS>;

/// Largest number of common keys a split keeps: `F` costs the square of it to build.
const MAX_COMMON_KEYS: usize = 4096;

/// The parity classes `s = (n - k) mod 2` that split moves reach from a heap of parity `q`.
#[derive(Clone, Copy, Debug)]
pub struct SplitParities {
    /// `reach[q]` has bit `s` set when some split move `k` has `(q ^ k) & 1 == s`.
    reach: [u8; 2],
}

impl SplitParities {
    pub fn new(split_moves: &[usize]) -> Self {
        let mut reach = [0u8; 2];
        for (q, r) in reach.iter_mut().enumerate() {
            for &k in split_moves {
                *r |= 1 << ((q ^ k) & 1);
            }
        }
        SplitParities { reach }
    }
    #[inline]
    fn reaches(&self, q: usize, s: usize) -> bool {
        self.reach[q] >> s & 1 == 1
    }
}

/// A rare/common split with its derived "blocked" sets.
#[derive(Clone)]
pub struct Split {
    common: KeySet,
    common_keys: Vec<u32>,
    /// `blocked[q]` = union of the `F_s` reached from a heap of parity `q`: the values that a
    /// common-common split might produce, so that a candidate there needs a witness search.
    blocked: [ValueSet; 2],
    parities: SplitParities,
    /// Whether the split was chosen by frequency (and may be re-chosen as counts change).
    adaptive: bool,
}

impl Split {
    /// The empty split: every position is rare, nothing is blocked.
    pub fn empty(parities: SplitParities, adaptive: bool) -> Self {
        Split {
            common: KeySet::new(),
            common_keys: Vec::new(),
            blocked: [ValueSet::new(), ValueSet::new()],
            parities,
            adaptive,
        }
    }

    /// Whether the split may be re-chosen from frequencies.
    pub fn is_adaptive(&self) -> bool {
        self.adaptive
    }

    /// Whether a position of value `v` and parity `q` is common.
    #[inline]
    pub fn is_common(&self, v: u16, q: usize) -> bool {
        self.common.contains(2 * v as usize + q)
    }

    /// Whether a candidate `v` for a heap of parity `q` might be produced by a common-common
    /// split (so it needs a witness search or an exhaustive scan).
    #[inline]
    pub fn is_blocked(&self, v: u16, q: usize) -> bool {
        self.blocked[q].contains(v as usize)
    }

    /// The blocked values below 64 for heaps of parity `q`, as a bit mask.
    #[inline]
    pub fn blocked_low(&self, q: usize) -> u64 {
        self.blocked[q].0[0]
    }

    /// The blocked values for heaps of parity `q`, as bit-set words.
    #[inline]
    pub fn blocked_words(&self, q: usize) -> &[u64] {
        &self.blocked[q].0[..]
    }

    /// The number of common keys.
    pub fn common_len(&self) -> usize {
        self.common_keys.len()
    }

    /// The common keys, as `2 v + parity`.
    pub fn common_keys(&self) -> &[u32] {
        &self.common_keys
    }

    /// The new `F` entries `(value, s)` that adding `key` would create.
    fn new_products(&self, key: u32) -> impl Iterator<Item = (usize, usize)> + '_ {
        let (v, p) = ((key >> 1) as usize, (key & 1) as usize);
        std::iter::once((0usize, 0usize)).chain(
            self.common_keys
                .iter()
                .map(move |&c| (v ^ (c >> 1) as usize, p ^ (c & 1) as usize)),
        )
    }

    /// Whether adding all of `keys` keeps every common key provable (see the module docs).
    /// Streams over the new products `(x, s)` (each new key with itself, with the other new
    /// keys and with every current key) without building them.
    fn can_add(&self, keys: &[u32]) -> bool {
        let split = |k: u32| ((k >> 1) as usize, (k & 1) as usize);
        let common = |x: usize, q: usize| self.common.contains(2 * x + q);
        for &a in keys {
            let (va, pa) = split(a);
            // a new key must be provable: not blocked now ...
            if self.blocked[pa].contains(va) {
                return false;
            }
            for &b in keys {
                let (vb, pb) = split(b);
                // ... nor by a product of b with a current key c (value vb ^ va)
                for cp in 0..2 {
                    if self.parities.reaches(pa, pb ^ cp) && common(vb ^ va, cp) {
                        return false;
                    }
                }
                // ... nor by a product of b with a new key d (value vb ^ va)
                for &d in keys {
                    let (vd, pd) = split(d);
                    if vb ^ vd == va && self.parities.reaches(pa, pb ^ pd) {
                        return false;
                    }
                }
                // a product of two new keys must not block a current key
                let (x, s) = (va ^ vb, pa ^ pb);
                if (0..2).any(|q| self.parities.reaches(q, s) && common(x, q)) {
                    return false;
                }
            }
            // a product of a new key with a current key must not block a current key
            for &c in &self.common_keys {
                let (vc, pc) = split(c);
                let (x, s) = (va ^ vc, pa ^ pc);
                if (0..2).any(|q| self.parities.reaches(q, s) && common(x, q)) {
                    return false;
                }
            }
        }
        true
    }

    /// Add `key` to `C` (whether or not that keeps `C` self-provable: correctness never
    /// depends on it).
    pub fn add(&mut self, key: u32) {
        if self.common.contains(key as usize) {
            return;
        }
        let products: Vec<(usize, usize)> = self.new_products(key).collect();
        for (x, s) in products {
            for q in 0..2 {
                if self.parities.reaches(q, s) {
                    self.blocked[q].insert(x);
                }
            }
        }
        self.common.insert(key as usize);
        self.common_keys.push(key);
    }

    /// Add `keys` if that keeps `C` self-provable; report whether they were added.
    pub fn try_add(&mut self, keys: &[u32]) -> bool {
        if self.common_keys.len() + keys.len() > MAX_COMMON_KEYS || !self.can_add(keys) {
            return false;
        }
        for &k in keys {
            self.add(k);
        }
        true
    }

    /// The split chosen greedily by frequency: keys (or, with `by_value`, both parities of a
    /// value together) from the most frequent down, each added when `C` stays self-provable.
    /// `counts[key]` counts positions `i >= 1` with that key.
    pub fn by_frequency(parities: SplitParities, counts: &[u64], by_value: bool) -> Self {
        let mut split = Split::empty(parities, true);
        if by_value {
            let mut values: Vec<(u64, u32)> = counts
                .chunks(2)
                .enumerate()
                .filter(|(_, c)| c[0] + c[1] > 0)
                .map(|(v, c)| (c[0] + c[1], v as u32))
                .collect();
            values.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            for (_, v) in values {
                split.try_add(&[2 * v, 2 * v + 1]);
            }
        } else {
            let mut keys: Vec<(u64, u32)> = counts
                .iter()
                .enumerate()
                .filter(|(_, &c)| c > 0)
                .map(|(k, &c)| (c, k as u32))
                .collect();
            keys.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
            for (_, k) in keys {
                split.try_add(&[k]);
            }
        }
        split
    }

    /// The engine's choice from frequencies: the better of [`Self::by_frequency`] by value and
    /// by key (fewer rare positions; by value on a tie), and whether it is the one by value.
    /// The engine's review adopts it ([`super::RareCommon`]), and
    /// [`super::classes::rare_common_split`] reports it.
    pub fn chosen(parities: SplitParities, counts: &[u64]) -> (Self, bool) {
        let by_key = Split::by_frequency(parities, counts, false);
        let by_value = Split::by_frequency(parities, counts, true);
        if by_value.rare_count(counts) <= by_key.rare_count(counts) {
            (by_value, true)
        } else {
            (by_key, false)
        }
    }

    /// The mask split: `v` is common (at both parities) when `v & mask` has an odd number of
    /// bits. Common xor common then has an even number, so every value with an even number is
    /// (conservatively) blocked and no common value ever is. Built in closed form: `F` is never
    /// enumerated, so a mask split costs the same whatever the values.
    pub fn by_mask(parities: SplitParities, mask: u16) -> Self {
        let mut split = Split::empty(parities, false);
        for v in 0..VALUES {
            if (v as u16 & mask).count_ones() % 2 == 1 {
                split.common.insert(2 * v);
                split.common.insert(2 * v + 1);
            } else {
                for q in 0..2 {
                    split.blocked[q].insert(v);
                }
            }
        }
        split
    }

    /// A split with exactly the given common values (at both parities). Any set is allowed.
    pub fn by_values(parities: SplitParities, values: &[u16]) -> Self {
        let mut split = Split::empty(parities, false);
        let mut keys: Vec<u32> = values
            .iter()
            .flat_map(|&v| [2 * v as u32, 2 * v as u32 + 1])
            .collect();
        keys.sort_unstable();
        keys.dedup();
        keys.truncate(MAX_COMMON_KEYS);
        for k in keys {
            split.add(k);
        }
        split
    }

    /// Number of positions counted in `counts` whose key is rare under this split.
    pub fn rare_count(&self, counts: &[u64]) -> u64 {
        counts
            .iter()
            .enumerate()
            .filter(|(k, &c)| c > 0 && !self.common.contains(*k))
            .map(|(_, &c)| c)
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocked_sets_are_the_common_common_products() {
        // split moves of both parities: every product blocks both heap parities
        let par = SplitParities::new(&[1, 2]);
        let split = Split::by_values(par, &[2, 3]);
        for q in 0..2 {
            assert!(split.is_blocked(0, q) && split.is_blocked(1, q));
            assert!(!split.is_blocked(2, q) && !split.is_blocked(3, q));
        }
        // only odd split moves (Officers): a key pair (g1,p1),(g2,p2) blocks the heap parity
        // q with p1 ^ p2 = q ^ 1
        let par = SplitParities::new(&[1]);
        let mut split = Split::empty(par, true);
        split.add(2 * 5); // value 5 at even positions
        split.add(2 * 6 + 1); // value 6 at odd positions
                              // 5 ^ 5 = 0 with parity sum 0: blocks odd heaps (n - 1 even)
        assert!(split.is_blocked(0, 1) && !split.is_blocked(0, 0));
        // 5 ^ 6 = 3 with parity sum 1: blocks even heaps
        assert!(split.is_blocked(3, 0) && !split.is_blocked(3, 1));
    }

    #[test]
    fn frequency_split_is_self_provable() {
        let par = SplitParities::new(&[2]);
        let mut counts = vec![0u64; 64];
        for (v, c) in [(2u32, 100u64), (3, 90), (4, 80), (5, 70), (1, 10), (0, 3)] {
            counts[2 * v as usize] = c / 2;
            counts[2 * v as usize + 1] = c - c / 2;
        }
        for by_value in [false, true] {
            let split = Split::by_frequency(par, &counts, by_value);
            assert!(split.common_len() > 0);
            for &k in split.common_keys() {
                assert!(!split.is_blocked((k >> 1) as u16, (k & 1) as usize));
            }
            assert!(!split.is_common(0, 0) && !split.is_common(0, 1));
        }
        let mask = Split::by_mask(par, 0b110);
        for v in 0..8u16 {
            let common = (v & 6).count_ones() % 2 == 1;
            assert_eq!(mask.is_common(v, 0), common);
            if common {
                assert!(!mask.is_blocked(v, 0) && !mask.is_blocked(v, 1));
            }
        }
    }
}
