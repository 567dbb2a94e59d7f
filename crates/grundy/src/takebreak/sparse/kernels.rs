//! The two inner loops of the rare/common engine, written so the compiler vectorises them.
//!
//! Both walk the splits `(i, m - i)` of a heap of `m` tokens into two non-empty heaps, for `i`
//! in a range `lo..hi` with `hi <= m/2 + 1`, and look at `G(i) ^ G(m - i)`:
//! - [`targets_hit`] answers "which of these (at most four) values occur?" — the witness search
//!   for candidate values that the rare/common split cannot rule out;
//! - [`xor_mask`] collects *every* value that occurs (as a bit mask) when all values are below
//!   64 — the exhaustive scan of the dense mode.
//!
//! Why this shape: one side is read forwards and the other backwards from two contiguous slices,
//! with no bounds checks inside the loop, so LLVM turns each into wide SIMD (16 pairs per AVX2
//! instruction). On x86-64 an AVX2 copy of each loop is selected at run time when the processor
//! has it; elsewhere the portable copy (SSE2 on x86-64, NEON on aarch64) runs. Both copies are
//! the same source, so they cannot disagree.

/// Bit `j` of the result is set when `targets[j]` equals `G(i) ^ G(m - i)` for some `i` in
/// `lo..hi`. Needs `1 <= lo`, `hi <= m / 2 + 1` and `m <= g.len()` (a split never reads `G(m)`).
#[inline]
pub fn targets_hit(g: &[u16], m: usize, lo: usize, hi: usize, targets: [u16; 4]) -> u8 {
    if lo >= hi {
        return 0;
    }
    debug_assert!(lo >= 1 && hi <= m / 2 + 1 && m <= g.len());
    let low = &g[lo..hi];
    // pairs (i, m - i): the partner of lo is m - lo, of hi - 1 is m - hi + 1
    let high = &g[m + 1 - hi..=m - lo];
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor supports AVX2 (checked just above).
            return unsafe { targets_hit_avx2(low, high, targets) };
        }
    }
    targets_hit_portable(low, high, targets)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn targets_hit_avx2(low: &[u16], high: &[u16], targets: [u16; 4]) -> u8 {
    targets_hit_body(low, high, targets)
}

fn targets_hit_portable(low: &[u16], high: &[u16], targets: [u16; 4]) -> u8 {
    targets_hit_body(low, high, targets)
}

#[inline(always)]
fn targets_hit_body(low: &[u16], high: &[u16], targets: [u16; 4]) -> u8 {
    let [t0, t1, t2, t3] = targets;
    let (mut h0, mut h1, mut h2, mut h3) = (0u16, 0u16, 0u16, 0u16);
    for (&a, &b) in low.iter().zip(high.iter().rev()) {
        let x = a ^ b;
        h0 |= (x == t0) as u16;
        h1 |= (x == t1) as u16;
        h2 |= (x == t2) as u16;
        h3 |= (x == t3) as u16;
    }
    (h0 | h1 << 1 | h2 << 2 | h3 << 3) as u8
}

/// The set `{ G(i) ^ G(m - i) : lo <= i < hi }` as a bit mask. Every value of `g` must be below
/// 64 (so every xor is too). Same range conditions as [`targets_hit`].
#[inline]
pub fn xor_mask(g: &[u16], m: usize, lo: usize, hi: usize) -> u64 {
    if lo >= hi {
        return 0;
    }
    debug_assert!(lo >= 1 && hi <= m / 2 + 1 && m <= g.len());
    let low = &g[lo..hi];
    let high = &g[m + 1 - hi..=m - lo];
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor supports AVX2 (checked just above).
            return unsafe { xor_mask_avx2(low, high) };
        }
    }
    xor_mask_portable(low, high)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn xor_mask_avx2(low: &[u16], high: &[u16]) -> u64 {
    xor_mask_body(low, high)
}

fn xor_mask_portable(low: &[u16], high: &[u16]) -> u64 {
    xor_mask_body(low, high)
}

#[inline(always)]
fn xor_mask_body(low: &[u16], high: &[u16]) -> u64 {
    // Values below 32 use 32-bit lanes (twice as many per instruction); the caller guarantees
    // values below 64, so split on the largest xor actually present.
    let mut small = 0u32;
    let mut large = 0u64;
    let mut any_large = 0u16;
    for (&a, &b) in low.iter().zip(high.iter().rev()) {
        let x = a ^ b;
        any_large |= x & 32;
        small |= 1u32 << (x & 31);
    }
    if any_large != 0 {
        // some xor is in 32..64: redo with 64-bit lanes (rare: the dense mode picks this path
        // only for games whose values reach 32)
        for (&a, &b) in low.iter().zip(high.iter().rev()) {
            large |= 1u64 << ((a ^ b) & 63);
        }
        return large;
    }
    small as u64
}

/// Heaps handled together by [`far_masks`].
pub const BLOCK: usize = 8;

/// For the `BLOCK` heaps `m0 + j` (`j < BLOCK`) and each position `r` of `positions`, mark
/// `G(r) ^ G(m0 + j - r)` in `masks[j]`: the options of a block of heaps that involve the given
/// (rare) positions, computed side by side (the partners `G(m0 - r .. m0 - r + BLOCK)` are
/// contiguous). Every value must be below 64 (below 32 when `narrow`, which halves the work);
/// needs `r < m0` for every `r` and `m0 + BLOCK <= g.len() + r`.
#[inline]
pub fn far_masks(g: &[u16], positions: &[u32], m0: usize, narrow: bool, masks: &mut [u64; BLOCK]) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor supports AVX2 (checked just above).
            unsafe {
                if narrow {
                    far_masks_avx2::<u32>(g, positions, m0, masks)
                } else {
                    far_masks_avx2::<u64>(g, positions, m0, masks)
                }
            }
            return;
        }
    }
    if narrow {
        far_masks_body::<u32>(g, positions, m0, masks)
    } else {
        far_masks_body::<u64>(g, positions, m0, masks)
    }
}

/// A lane type for [`far_masks`]: a bit mask of values.
pub trait Lane: Copy + Default + std::ops::BitOrAssign {
    fn bit(x: u16) -> Self;
    fn widen(self) -> u64;
}

impl Lane for u32 {
    #[inline(always)]
    fn bit(x: u16) -> Self {
        1u32 << (x & 31)
    }
    #[inline(always)]
    fn widen(self) -> u64 {
        self as u64
    }
}

impl Lane for u64 {
    #[inline(always)]
    fn bit(x: u16) -> Self {
        1u64 << (x & 63)
    }
    #[inline(always)]
    fn widen(self) -> u64 {
        self
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn far_masks_avx2<L: Lane>(
    g: &[u16],
    positions: &[u32],
    m0: usize,
    masks: &mut [u64; BLOCK],
) {
    far_masks_body::<L>(g, positions, m0, masks)
}

#[inline(always)]
fn far_masks_body<L: Lane>(g: &[u16], positions: &[u32], m0: usize, masks: &mut [u64; BLOCK]) {
    let mut acc = [L::default(); BLOCK];
    for &r in positions {
        let r = r as usize;
        let v = g[r];
        let partners: &[u16; BLOCK] = g[m0 - r..m0 - r + BLOCK].try_into().expect("BLOCK values");
        for j in 0..BLOCK {
            acc[j] |= L::bit(v ^ partners[j]);
        }
    }
    for j in 0..BLOCK {
        masks[j] |= acc[j].widen();
    }
}

/// As [`far_masks`] for values of any size: mark `G(r) ^ G(m0 + j - r)` in the byte map
/// `maps[j * stride ..][.. stride]` of heap `m0 + j`. Every xor must be below `stride`.
#[inline]
pub fn far_maps(g: &[u16], positions: &[u32], m0: usize, maps: &mut [u8], stride: usize) {
    assert!(maps.len() >= BLOCK * stride);
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor supports AVX2 (checked just above).
            unsafe { far_maps_avx2(g, positions, m0, maps, stride) };
            return;
        }
    }
    far_maps_body(g, positions, m0, maps, stride)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn far_maps_avx2(g: &[u16], positions: &[u32], m0: usize, maps: &mut [u8], stride: usize) {
    far_maps_body(g, positions, m0, maps, stride)
}

#[inline(always)]
fn far_maps_body(g: &[u16], positions: &[u32], m0: usize, maps: &mut [u8], stride: usize) {
    let maps = &mut maps[..BLOCK * stride];
    for &r in positions {
        let r = r as usize;
        let v = g[r];
        let partners: &[u16; BLOCK] = g[m0 - r..m0 - r + BLOCK].try_into().expect("BLOCK values");
        let mut xors = [0u16; BLOCK];
        for j in 0..BLOCK {
            xors[j] = v ^ partners[j];
        }
        for (j, &x) in xors.iter().enumerate() {
            maps[j * stride + x as usize] = 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(g: &[u16], m: usize, lo: usize, hi: usize) -> Vec<u16> {
        (lo..hi).map(|i| g[i] ^ g[m - i]).collect()
    }

    #[test]
    fn kernels_agree_with_a_plain_loop() {
        // a pseudo-random sequence of small values
        let mut state = 12345u64;
        let g: Vec<u16> = (0..5000)
            .map(|_| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                ((state >> 33) % 40) as u16
            })
            .collect();
        for &m in &[2usize, 3, 4, 17, 64, 65, 1000, 4999] {
            for &(lo, hi) in &[(1, m / 2 + 1), (1, 2), (3, m / 2 + 1), (2, m / 4 + 2)] {
                let hi = hi.min(m / 2 + 1);
                let values = pairs(&g, m, lo, hi);
                let mask = values.iter().fold(0u64, |acc, &x| acc | 1u64 << x);
                assert_eq!(xor_mask(&g, m, lo, hi), mask, "m {m} lo {lo} hi {hi}");
                for t in [[0, 1, 2, 3], [39, 50, 7, 7], [63, 62, 61, 60]] {
                    let expect = t
                        .iter()
                        .enumerate()
                        .filter(|(_, v)| values.contains(v))
                        .fold(0u8, |acc, (j, _)| acc | 1 << j);
                    assert_eq!(targets_hit(&g, m, lo, hi, t), expect);
                }
            }
        }
    }

    #[test]
    fn far_masks_mark_every_block_option() {
        let g: Vec<u16> = (0..500u32)
            .map(|i| ((i * 37 + i / 7) % 64) as u16)
            .collect();
        let positions: Vec<u32> = vec![8, 9, 15, 40, 41, 100, 200];
        let m0 = 300;
        for narrow in [false, true] {
            let g: Vec<u16> = g.iter().map(|&v| if narrow { v % 32 } else { v }).collect();
            let mut masks = [0u64; BLOCK];
            far_masks(&g, &positions, m0, narrow, &mut masks);
            let mut portable = [0u64; BLOCK];
            if narrow {
                far_masks_body::<u32>(&g, &positions, m0, &mut portable);
            } else {
                far_masks_body::<u64>(&g, &positions, m0, &mut portable);
            }
            for j in 0..BLOCK {
                let expect = positions.iter().fold(0u64, |acc, &r| {
                    acc | 1u64 << (g[r as usize] ^ g[m0 + j - r as usize])
                });
                assert_eq!(masks[j], expect, "heap {j}");
                assert_eq!(portable[j], expect, "heap {j}");
            }
        }
    }

    #[test]
    fn far_maps_mark_every_block_option() {
        let g: Vec<u16> = (0..500u32)
            .map(|i| ((i * 37 + i / 7) % 200) as u16)
            .collect();
        let positions: Vec<u32> = vec![8, 9, 15, 40, 41, 100, 200];
        let m0 = 300;
        let stride = 256;
        let mut maps = vec![0u8; BLOCK * stride];
        far_maps(&g, &positions, m0, &mut maps, stride);
        for j in 0..BLOCK {
            let mut expect = vec![0u8; stride];
            for &r in &positions {
                expect[(g[r as usize] ^ g[m0 + j - r as usize]) as usize] = 1;
            }
            assert_eq!(&maps[j * stride..(j + 1) * stride], &expect[..], "heap {j}");
        }
    }

    #[test]
    fn portable_and_dispatched_copies_agree() {
        let g: Vec<u16> = (0..3000u32).map(|i| ((i * 7919) % 61) as u16).collect();
        let low = &g[1..1000];
        let high = &g[1000..1999];
        assert_eq!(
            targets_hit_portable(low, high, [0, 5, 9, 60]),
            targets_hit(&g, 1999, 1, 1000, [0, 5, 9, 60])
        );
        assert_eq!(xor_mask_portable(low, high), xor_mask(&g, 1999, 1, 1000));
    }
}
