//! Small fixed-width bitsets of Grundy values, stored as `u64` words inside flat arrays.
//!
//! A set of values below `64 * words` is `words` consecutive `u64`s. Because `64 * words` is a
//! power of two, the nim-sum of two values in range stays in range, so "translate a set by
//! xor x" ([`xor_translate`]) is a permutation of bits: whole words swap according to the high
//! bits of `x`, and bits inside a word swap in blocks of 1, 2, 4, ..., 32 according to its low
//! six bits. This is what makes the "nim-sums of j heaps" dynamic programme cheap.

/// Masks selecting the lower block of every pair of blocks of size 1, 2, 4, 8, 16, 32.
const BLOCK_MASKS: [u64; 6] = [
    0x5555_5555_5555_5555,
    0x3333_3333_3333_3333,
    0x0F0F_0F0F_0F0F_0F0F,
    0x00FF_00FF_00FF_00FF,
    0x0000_FFFF_0000_FFFF,
    0x0000_0000_FFFF_FFFF,
];

/// Swap the bits of `w` so that bit `i` moves to bit `i ^ low` (`low < 64`).
#[inline]
fn xor_bits_in_word(mut w: u64, low: u32) -> u64 {
    for (b, &m) in BLOCK_MASKS.iter().enumerate() {
        if low >> b & 1 == 1 {
            let s = 1u32 << b;
            w = ((w & m) << s) | ((w >> s) & m);
        }
    }
    w
}

/// `out |= { v ^ x : v in set }`. `set` and `out` have the same power-of-two number of words
/// and `x < 64 * set.len()`.
#[inline]
pub fn or_xor_translated(out: &mut [u64], set: &[u64], x: u32) {
    debug_assert_eq!(out.len(), set.len());
    debug_assert!((x as usize) < 64 * set.len());
    let high = (x >> 6) as usize;
    let low = x & 63;
    for (i, &w) in set.iter().enumerate() {
        if w != 0 {
            out[i ^ high] |= xor_bits_in_word(w, low);
        }
    }
}

/// `{ v ^ x : v in set }` as a new vector (tests and one-off uses).
#[cfg(test)]
pub fn xor_translate(set: &[u64], x: u32) -> Vec<u64> {
    let mut out = vec![0; set.len()];
    or_xor_translated(&mut out, set, x);
    out
}

/// Insert `v` into the set.
#[inline]
pub fn insert(set: &mut [u64], v: u32) {
    set[(v >> 6) as usize] |= 1u64 << (v & 63);
}

/// Whether `v` is in the set (false beyond its width).
#[inline]
pub fn contains(set: &[u64], v: u32) -> bool {
    set.get((v >> 6) as usize)
        .is_some_and(|w| w >> (v & 63) & 1 == 1)
}

/// `out |= set`.
#[inline]
pub fn or_into(out: &mut [u64], set: &[u64]) {
    for (o, &s) in out.iter_mut().zip(set) {
        *o |= s;
    }
}

/// The least value not in the set: `64 * set.len()` when every bit is set.
#[inline]
pub fn mex(set: &[u64]) -> usize {
    for (i, &w) in set.iter().enumerate() {
        if w != u64::MAX {
            return 64 * i + (!w).trailing_zeros() as usize;
        }
    }
    64 * set.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set_of(words: usize, values: &[u32]) -> Vec<u64> {
        let mut s = vec![0; words];
        for &v in values {
            insert(&mut s, v);
        }
        s
    }

    #[test]
    fn xor_translate_matches_definition_for_every_shift() {
        let values = [0u32, 1, 5, 63, 64, 100, 127, 200, 255];
        let s = set_of(4, &values);
        for x in 0..256u32 {
            let t = xor_translate(&s, x);
            for v in 0..256u32 {
                assert_eq!(contains(&t, v), values.contains(&(v ^ x)), "x={x} v={v}");
            }
        }
    }

    #[test]
    fn mex_and_contains() {
        assert_eq!(mex(&set_of(1, &[])), 0);
        assert_eq!(mex(&set_of(1, &[0, 1, 2, 4])), 3);
        let full: Vec<u32> = (0..64).collect();
        assert_eq!(mex(&set_of(1, &full)), 64);
        let mut s = set_of(2, &full);
        assert_eq!(mex(&s), 64);
        insert(&mut s, 64);
        assert_eq!(mex(&s), 65);
        assert!(contains(&s, 64) && !contains(&s, 65) && !contains(&s, 1000));
    }
}
