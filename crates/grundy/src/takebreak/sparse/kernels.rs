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
//! the same source, so they cannot disagree. The witness lookup of games with values up to 511
//! ([`take_in_bits`], Officers' innermost loop) also has an AVX-512 copy, written with
//! intrinsics and checked against the others and a plain loop in the tests; for values up to
//! 1023 (0.437, 0.414) it has the AVX-512 copy (the set in two registers) and the scalar one.
//!
//! Every kernel is generic over how the values are stored ([`Value`]: `u8` while every value
//! is below 256, `u16` beyond; see [`crate::takebreak::values`]). The plain loops read
//! `get()`, which the compiler widens as part of the vector loop; the intrinsic copies load
//! through `load8`, `load16` and `load32`, which widen bytes to 16-bit lanes
//! (`vpmovzxbw`) and read `u16` as before, so everything after the load is one code for both.

use crate::takebreak::values::Value;

/// `G(i)`: from the store `g`, or from `head` below its end when the store keeps only the low
/// bytes of its values ([`crate::takebreak::values::Odd8`]: there the bytes of the head's
/// heaps need not decode to their values). For the other stores `head` is not read.
#[inline(always)]
pub fn at<V: Value>(g: &[V], head: &[u16], i: usize) -> u16 {
    if V::ODD_MASK != 0 && i < head.len() {
        head[i]
    } else {
        g[i].get()
    }
}

/// `dst[j] = G` of `src[j]` for every `j` (the shorter length): the values of a stretch in
/// `u16`, 32 at a time through [`load32`] where the processor has AVX-512.
pub fn decode_into<V: Value>(src: &[V], dst: &mut [u16]) {
    let len = src.len().min(dst.len());
    let (src, dst) = (&src[..len], &mut dst[..len]);
    #[cfg(target_arch = "x86_64")]
    {
        if super::far::available() {
            decode_512(src, dst);
            return;
        }
    }
    for (d, s) in dst.iter_mut().zip(src) {
        *d = s.get();
    }
}

/// [`decode_into`] with AVX-512 (callers check [`super::far::available`]).
#[cfg(target_arch = "x86_64")]
#[rustversion::since(1.89)]
#[allow(clippy::incompatible_msrv)] // compiled by Rust >= 1.89 only
fn decode_512<V: Value>(src: &[V], dst: &mut [u16]) {
    assert!(super::far::available() && src.len() == dst.len());
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn body<V: Value>(src: &[V], dst: &mut [u16]) {
        use std::arch::x86_64::*;
        let full = src.len() / 32 * 32;
        for j in (0..full).step_by(32) {
            // SAFETY: 32 values from j < full <= len, on both sides.
            unsafe {
                let v = load32(src.as_ptr().add(j));
                _mm512_storeu_si512(dst.as_mut_ptr().add(j) as *mut __m512i, v);
            }
        }
        for (d, s) in dst[full..].iter_mut().zip(&src[full..]) {
            *d = s.get();
        }
    }
    // SAFETY: AVX-512 F and BW are supported (asserted above).
    unsafe { body(src, dst) }
}

/// Older compilers: never called ([`super::far::available`] is false).
#[cfg(target_arch = "x86_64")]
#[rustversion::before(1.89)]
fn decode_512<V: Value>(_src: &[V], _dst: &mut [u16]) {
    unreachable!("no AVX-512 intrinsics before Rust 1.89")
}

/// The parity of each nibble `0..16` (`odd`: its complement), one byte each: with one of each
/// looked up by the low and the high nibble of a byte, their xor is `1 ^ parity(byte)`, bit 8
/// of an [`crate::takebreak::values::Odd8`] value.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn nibble_parity(odd: bool) -> std::arch::x86_64::__m128i {
    use std::arch::x86_64::*;
    let p = 0x6996u16; // bit i: parity of i
    let mut bytes = [0i8; 16];
    for (i, b) in bytes.iter_mut().enumerate() {
        *b = ((p >> i) & 1) as i8 ^ odd as i8;
    }
    _mm_loadu_si128(bytes.as_ptr() as *const __m128i)
}

/// Eight values from `p` as the eight 16-bit lanes of a vector (bytes are widened: one
/// `vpmovzxbw` more per load, half the memory read).
///
/// # Safety
/// The processor supports AVX2; `p` points to eight readable values.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn load8<V: Value>(p: *const V) -> std::arch::x86_64::__m128i {
    use std::arch::x86_64::*;
    if V::BYTES == 1 {
        let w = _mm_cvtepu8_epi16(_mm_loadl_epi64(p as *const __m128i));
        if V::ODD_MASK != 0 {
            // bit 8 = 1 ^ parity(low byte & mask), from two nibble lookups
            let t = _mm_and_si128(w, _mm_set1_epi16((V::ODD_MASK & 0xFF) as i16));
            let low = _mm_shuffle_epi8(nibble_parity(false), _mm_and_si128(t, _mm_set1_epi16(15)));
            let high = _mm_shuffle_epi8(nibble_parity(true), _mm_srli_epi16(t, 4));
            return _mm_or_si128(w, _mm_slli_epi16(_mm_xor_si128(low, high), 8));
        }
        w
    } else {
        _mm_loadu_si128(p as *const __m128i)
    }
}

/// Sixteen values from `p` as the sixteen 16-bit lanes of a vector (as [`load8`]).
///
/// # Safety
/// The processor supports AVX2; `p` points to sixteen readable values.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn load16<V: Value>(p: *const V) -> std::arch::x86_64::__m256i {
    use std::arch::x86_64::*;
    if V::BYTES == 1 {
        let w = _mm256_cvtepu8_epi16(_mm_loadu_si128(p as *const __m128i));
        if V::ODD_MASK != 0 {
            // as in `load8`
            let t = _mm256_and_si256(w, _mm256_set1_epi16((V::ODD_MASK & 0xFF) as i16));
            let table = |odd| _mm256_broadcastsi128_si256(nibble_parity(odd));
            let low = _mm256_shuffle_epi8(table(false), _mm256_and_si256(t, _mm256_set1_epi16(15)));
            let high = _mm256_shuffle_epi8(table(true), _mm256_srli_epi16(t, 4));
            return _mm256_or_si256(w, _mm256_slli_epi16(_mm256_xor_si256(low, high), 8));
        }
        w
    } else {
        _mm256_loadu_si256(p as *const __m256i)
    }
}

/// Thirty-two values from `p` as the thirty-two 16-bit lanes of a vector (as [`load8`]).
///
/// # Safety
/// The processor supports AVX-512 BW; `p` points to thirty-two readable values.
#[cfg(target_arch = "x86_64")]
#[rustversion::since(1.89)]
#[allow(clippy::incompatible_msrv)] // compiled by Rust >= 1.89 only (see `take_in_bits_512`)
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
pub(super) unsafe fn load32<V: Value>(p: *const V) -> std::arch::x86_64::__m512i {
    use std::arch::x86_64::*;
    if V::BYTES == 1 {
        let w = _mm512_cvtepu8_epi16(_mm256_loadu_si256(p as *const __m256i));
        if V::ODD_MASK != 0 {
            // as in `load8`
            let t = _mm512_and_si512(w, _mm512_set1_epi16((V::ODD_MASK & 0xFF) as i16));
            let table = |odd| _mm512_broadcast_i32x4(nibble_parity(odd));
            let low = _mm512_shuffle_epi8(table(false), _mm512_and_si512(t, _mm512_set1_epi16(15)));
            let high = _mm512_shuffle_epi8(table(true), _mm512_srli_epi16(t, 4));
            return _mm512_or_si512(w, _mm512_slli_epi16(_mm512_xor_si512(low, high), 8));
        }
        w
    } else {
        _mm512_loadu_si512(p as *const __m512i)
    }
}

/// Bit `j` of the result is set when `targets[j]` equals `G(i) ^ G(m - i)` for some `i` in
/// `lo..hi`. Needs `1 <= lo`, `hi <= m / 2 + 1` and `m <= g.len()` (a split never reads `G(m)`).
#[inline]
pub fn targets_hit<V: Value>(g: &[V], m: usize, lo: usize, hi: usize, targets: [u16; 4]) -> u8 {
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
unsafe fn targets_hit_avx2<V: Value>(low: &[V], high: &[V], targets: [u16; 4]) -> u8 {
    targets_hit_body(low, high, targets)
}

fn targets_hit_portable<V: Value>(low: &[V], high: &[V], targets: [u16; 4]) -> u8 {
    targets_hit_body(low, high, targets)
}

#[inline(always)]
fn targets_hit_body<V: Value>(low: &[V], high: &[V], targets: [u16; 4]) -> u8 {
    let [t0, t1, t2, t3] = targets;
    let (mut h0, mut h1, mut h2, mut h3) = (0u16, 0u16, 0u16, 0u16);
    for (&a, &b) in low.iter().zip(high.iter().rev()) {
        let x = a.get() ^ b.get();
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
pub fn xor_mask<V: Value>(g: &[V], m: usize, lo: usize, hi: usize) -> u64 {
    if lo >= hi {
        return 0;
    }
    debug_assert!(lo >= 1 && hi <= m / 2 + 1 && m <= g.len());
    let low = &g[lo..hi];
    let high = &g[m + 1 - hi..=m - lo];
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            if V::BYTES == 1 && V::ODD_MASK == 0 && low.len() >= BYTE_MASK_FROM {
                // SAFETY: a one-byte `Value` is `u8` (the trait is sealed); the processor
                // supports AVX2 (checked just above).
                return unsafe {
                    let bytes =
                        |s: &[V]| std::slice::from_raw_parts(s.as_ptr() as *const u8, s.len());
                    xor_mask_bytes_avx2(bytes(low), bytes(high))
                };
            }
            // SAFETY: the processor supports AVX2 (checked just above).
            return unsafe { xor_mask_avx2(low, high) };
        }
    }
    xor_mask_portable(low, high)
}

/// Ranges of bytes at least this long take [`xor_mask_bytes_avx2`] (shorter ones the plain
/// loop: the byte copy's eight accumulators cost more to fold than a short range saves; 0.167,
/// whose witness searches scan stretches from 32 splits on, lost 4% with every range there).
const BYTE_MASK_FROM: usize = 256;

/// [`xor_mask`] on bytes, 32 splits per step: the vectorised loop of the `u16` copy on bytes
/// widens every value twice (to 16 bits, then to 32 for the shift) and took 15% more time
/// (0.07, whose dense mode is this loop). Here the xors stay bytes: each marks bit `x % 8` of
/// byte `x / 8` of the set (a byte table lookup for the bit, a compare per byte of the set),
/// in accumulators of 32 bytes or-ed together at the end: four while every xor is below 32,
/// eight from the first step that meets a larger one on. Every value below 64.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn xor_mask_bytes_avx2(low: &[u8], high: &[u8]) -> u64 {
    use std::arch::x86_64::*;
    let len = low.len().min(high.len());
    // reverses the 16 bytes of each 128-bit lane (then the lanes are swapped)
    let reverse = _mm256_setr_epi8(
        15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6,
        5, 4, 3, 2, 1, 0,
    );
    // 1 << (x % 8) for x % 8 in each lane
    let bit_of = _mm256_setr_epi8(
        1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, -128, 0, 0,
        0, 0, 0, 0, 0, 0,
    );
    let (seven, sixty_three) = (_mm256_set1_epi8(7), _mm256_set1_epi8(63));
    // the xors of the 32 splits from `j`, each as (bit within its byte, byte of the set)
    let step = |j: usize| {
        // SAFETY: the callers have j + 32 <= len, so low[j..j + 32] and
        // high[len - j - 32..len - j] are in bounds.
        let a = _mm256_loadu_si256(low.as_ptr().add(j) as *const __m256i);
        let b = _mm256_loadu_si256(high.as_ptr().add(len - j - 32) as *const __m256i);
        let b = _mm256_permute4x64_epi64::<0b01_00_11_10>(_mm256_shuffle_epi8(b, reverse));
        let x = _mm256_and_si256(_mm256_xor_si256(a, b), sixty_three);
        let bit = _mm256_shuffle_epi8(bit_of, _mm256_and_si256(x, seven));
        // x / 8 per byte (a 16-bit shift, the bits from the next byte masked off)
        let word = _mm256_and_si256(_mm256_srli_epi16::<3>(x), seven);
        (bit, word)
    };
    let mark = |acc: &mut [__m256i], (bit, word): (__m256i, __m256i)| {
        for (k, acc) in acc.iter_mut().enumerate() {
            let here = _mm256_cmpeq_epi8(word, _mm256_set1_epi8(k as i8));
            *acc = _mm256_or_si256(*acc, _mm256_and_si256(here, bit));
        }
    };
    let mut acc = [_mm256_setzero_si256(); 8];
    let mut wide = false;
    let mut j = 0;
    while j + 32 <= len {
        let s = step(j);
        // bytes of the set from 4 on (xors of 32 or more): from here on, all eight
        if _mm256_movemask_epi8(_mm256_cmpgt_epi8(s.1, _mm256_set1_epi8(3))) != 0 {
            wide = true;
            break;
        }
        mark(&mut acc[..4], s);
        j += 32;
    }
    while wide && j + 32 <= len {
        mark(&mut acc, step(j));
        j += 32;
    }
    let mut mask = 0u64;
    for (k, acc) in acc.iter().enumerate().take(if wide { 8 } else { 4 }) {
        mask |= (or_bytes(*acc) as u64) << (8 * k);
    }
    for k in j..len {
        mask |= 1u64 << ((low[k] ^ high[len - 1 - k]) & 63);
    }
    mask
}

/// The or of the 32 bytes of `v`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn or_bytes(v: std::arch::x86_64::__m256i) -> u8 {
    use std::arch::x86_64::*;
    let mut lanes = [0u64; 4];
    _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, v);
    let mut w = lanes[0] | lanes[1] | lanes[2] | lanes[3];
    w |= w >> 32;
    w |= w >> 16;
    w |= w >> 8;
    w as u8
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn xor_mask_avx2<V: Value>(low: &[V], high: &[V]) -> u64 {
    xor_mask_body(low, high)
}

fn xor_mask_portable<V: Value>(low: &[V], high: &[V]) -> u64 {
    xor_mask_body(low, high)
}

#[inline(always)]
fn xor_mask_body<V: Value>(low: &[V], high: &[V]) -> u64 {
    // Values below 32 use 32-bit lanes (twice as many per instruction); the caller guarantees
    // values below 64, so split on the largest xor actually present.
    let mut small = 0u32;
    let mut large = 0u64;
    let mut any_large = 0u16;
    for (&a, &b) in low.iter().zip(high.iter().rev()) {
        let x = a.xor(b);
        any_large |= x & 32;
        small |= 1u32 << (x & 31);
    }
    if any_large != 0 {
        // some xor is in 32..64: redo with 64-bit lanes (rare: the dense mode picks this path
        // only for games whose values reach 32)
        for (&a, &b) in low.iter().zip(high.iter().rev()) {
            large |= 1u64 << (a.xor(b) & 63);
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
pub fn far_masks<V: Value>(
    g: &[V],
    positions: &[u32],
    m0: usize,
    narrow: bool,
    masks: &mut [u64; BLOCK],
) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor supports AVX2 (checked just above).
            unsafe {
                if narrow {
                    far_masks_avx2::<V, u32>(g, positions, m0, masks)
                } else {
                    far_masks_avx2::<V, u64>(g, positions, m0, masks)
                }
            }
            return;
        }
    }
    if narrow {
        far_masks_body::<V, u32>(g, positions, m0, masks)
    } else {
        far_masks_body::<V, u64>(g, positions, m0, masks)
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
unsafe fn far_masks_avx2<V: Value, L: Lane>(
    g: &[V],
    positions: &[u32],
    m0: usize,
    masks: &mut [u64; BLOCK],
) {
    far_masks_body::<V, L>(g, positions, m0, masks)
}

#[inline(always)]
fn far_masks_body<V: Value, L: Lane>(
    g: &[V],
    positions: &[u32],
    m0: usize,
    masks: &mut [u64; BLOCK],
) {
    let mut acc = [L::default(); BLOCK];
    for &r in positions {
        let r = r as usize;
        let v = g[r].get();
        let partners: &[V; BLOCK] = g[m0 - r..m0 - r + BLOCK].try_into().expect("BLOCK values");
        for j in 0..BLOCK {
            acc[j] |= L::bit(v ^ partners[j].get());
        }
    }
    for j in 0..BLOCK {
        masks[j] |= acc[j].widen();
    }
}

/// Heaps handled together by [`far_maps`] (twice [`BLOCK`]: byte maps are marked one store
/// per option, so the shared work per rare position is spread over more heaps).
pub const MAP_BLOCK: usize = 16;

/// As [`far_masks`] for values of any size and [`MAP_BLOCK`] heaps: mark `G(r) ^ G(m0 + j - r)`
/// in the byte map `maps[j * stride ..][.. stride]` of heap `m0 + j`. `span` must be a power of
/// two above every value, and `stride` at least `span`.
///
/// The stride should not be a power of two of 4096 bytes or more: the maps would then start at
/// the same offset of a page, a byte of one map would share its L1 cache set with the same byte
/// of the fifteen others, and the stores would miss the cache. 0.146 (values below 2048, about
/// 11,000 rare options per heap) to 2^19 took 10.6 s of user CPU with a stride of 4096 and
/// 6.0 s with `span + 64`, everything else equal (a loaded machine; `docs/performance.md`).
#[inline]
pub fn far_maps<V: Value>(
    g: &[V],
    head: &[u16],
    positions: &[u32],
    m0: usize,
    maps: &mut [u8],
    stride: usize,
    span: usize,
) {
    assert!(span.is_power_of_two() && stride >= span && maps.len() >= MAP_BLOCK * stride);
    let maps = &mut maps[..MAP_BLOCK * stride];
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor supports AVX2 (checked just above).
            unsafe {
                if stride == span + 64 && far_positions_fit(g, positions, m0) {
                    if positions.len() >= FILTER_FROM
                        && filter_pays()
                        && far_maps_filtered_512(g, positions, m0, maps, span)
                    {
                        return;
                    }
                    match span {
                        128 => {
                            return far_maps_packed::<V, 128, { 128 + 64 }>(
                                g, head, positions, m0, maps,
                            )
                        }
                        256 => {
                            return far_maps_packed::<V, 256, { 256 + 64 }>(
                                g, head, positions, m0, maps,
                            )
                        }
                        512 => {
                            return far_maps_packed::<V, 512, { 512 + 64 }>(
                                g, head, positions, m0, maps,
                            )
                        }
                        1024 => {
                            return far_maps_packed::<V, 1024, { 1024 + 64 }>(
                                g, head, positions, m0, maps,
                            )
                        }
                        2048 => {
                            return far_maps_packed::<V, 2048, { 2048 + 64 }>(
                                g, head, positions, m0, maps,
                            )
                        }
                        4096 => {
                            return far_maps_packed::<V, 4096, { 4096 + 64 }>(
                                g, head, positions, m0, maps,
                            )
                        }
                        _ => {}
                    }
                }
                match span {
                    128 => far_maps_avx2::<V, 128>(g, head, positions, m0, maps, stride),
                    256 => far_maps_avx2::<V, 256>(g, head, positions, m0, maps, stride),
                    512 => far_maps_avx2::<V, 512>(g, head, positions, m0, maps, stride),
                    1024 => far_maps_avx2::<V, 1024>(g, head, positions, m0, maps, stride),
                    2048 => far_maps_avx2::<V, 2048>(g, head, positions, m0, maps, stride),
                    4096 => far_maps_avx2::<V, 4096>(g, head, positions, m0, maps, stride),
                    8192 => far_maps_avx2::<V, 8192>(g, head, positions, m0, maps, stride),
                    _ => far_maps_any(g, head, positions, m0, maps, stride, span),
                }
            }
            return;
        }
    }
    far_maps_any(g, head, positions, m0, maps, stride, span)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn far_maps_avx2<V: Value, const S: usize>(
    g: &[V],
    head: &[u16],
    positions: &[u32],
    m0: usize,
    maps: &mut [u8],
    stride: usize,
) {
    use std::arch::x86_64::*;
    // fixed-size maps: every index below is provably in bounds, so the stores are bare
    let mut chunks = maps
        .chunks_exact_mut(stride)
        .map(|c| <&mut [u8; S]>::try_from(&mut c[..S]).expect("S bytes"));
    let mut maps: [&mut [u8; S]; MAP_BLOCK] =
        std::array::from_fn(|_| chunks.next().expect("MAP_BLOCK maps"));
    let mask = _mm256_set1_epi16((S - 1) as i16);
    let mut xors = [0u16; MAP_BLOCK];
    for &r in positions {
        let r = r as usize;
        let v = at(g, head, r);
        let partners: &[V; MAP_BLOCK] = g[m0 - r..m0 - r + MAP_BLOCK]
            .try_into()
            .expect("MAP_BLOCK values");
        // the sixteen xors in one vector operation, then sixteen plain stores
        // SAFETY: `partners` and `xors` are 16 u16 = 32 bytes each.
        let p = load16(partners.as_ptr());
        let x = _mm256_and_si256(_mm256_xor_si256(p, _mm256_set1_epi16(v as i16)), mask);
        _mm256_storeu_si256(xors.as_mut_ptr() as *mut __m256i, x);
        for (map, &x) in maps.iter_mut().zip(&xors) {
            map[x as usize & (S - 1)] = 1;
        }
    }
}

/// Whether every partner run `g[m0 - r .. m0 - r + MAP_BLOCK]` of `positions` lies inside `g`
/// (checked once per call, so that [`far_maps_packed`] reads them without a check per option).
fn far_positions_fit<V>(g: &[V], positions: &[u32], m0: usize) -> bool {
    let (mut least, mut most) = (u32::MAX, 0u32);
    for &r in positions {
        least = least.min(r);
        most = most.max(r);
    }
    positions.is_empty()
        || ((most as usize) <= m0
            && (most as usize) < g.len()
            && m0 - least as usize + MAP_BLOCK <= g.len())
}

/// [`far_maps_avx2`] for maps `T = S + 64` bytes apart (the stride `build_map_block` uses), with
/// the sixteen marks of a rare position taken out of the vector four at a time through 64-bit
/// moves and shifts instead of one `vpextrw` each: `vpextrw` is two micro-ops, one of them on the
/// port every shuffle needs, so sixteen of them per rare position were the loop's bound (a `perf`
/// annotation of 0.146 to 2^20 showed the cycles spread over the extractions and the load),
/// while shifts run on any integer port. With the stride a constant, each store's address is
/// the map's base, the value and a constant displacement: no map pointer per heap is held in a
/// register (the old loop reloaded them from the stack).
///
/// The positions go in chunks of [`CHUNK`]: the loads and xors of a whole chunk first (into a
/// small buffer), then its stores. One position at a time, each load was issued among the
/// sixteen stores of the positions before it and waited for them (`perf annotate` on an AMD
/// EPYC put 18% of the kernel on the instruction after the load); in chunks, 0.206 to 2^20
/// ran in 6.0 s against 6.7 s (0.146: 5.8 against 6.0 s), the same values.
///
/// # Safety
/// The processor supports AVX2; `maps.len() >= MAP_BLOCK * T`; `far_positions_fit(g,
/// positions, m0)`; `S` is a power of two.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn far_maps_packed<V: Value, const S: usize, const T: usize>(
    g: &[V],
    head: &[u16],
    positions: &[u32],
    m0: usize,
    maps: &mut [u8],
) {
    use std::arch::x86_64::*;
    const { assert!(S.is_power_of_two() && T >= S) };
    debug_assert!(maps.len() >= MAP_BLOCK * T && far_positions_fit(g, positions, m0));
    let base = maps.as_mut_ptr();
    let values = g.as_ptr();
    let mask = _mm256_set1_epi16((S - 1) as i16);
    // one map's sixteen marks: lane `l` of the quarter `q` is heap 4 q + l
    #[inline(always)]
    unsafe fn mark4<const T: usize>(base: *mut u8, q: usize, bits: u64) {
        for l in 0..4 {
            let x = (bits >> (16 * l)) as u16 as usize;
            // SAFETY: x < S <= T (masked), 4 q + l < MAP_BLOCK: inside `maps`.
            unsafe { *base.add((4 * q + l) * T + x) = 1 };
        }
    }
    // in chunks: first every load and xor of the chunk, then every store (a load issued among
    // the stores of earlier positions waited for them)
    let mut xs = [[0u64; 4]; CHUNK];
    for chunk in positions.chunks(CHUNK) {
        for (x4, &r) in xs.iter_mut().zip(chunk) {
            let r = r as usize;
            // SAFETY: r < g.len() and m0 - r + MAP_BLOCK <= g.len() (far_positions_fit).
            let v = if V::ODD_MASK != 0 && r < head.len() {
                head[r]
            } else {
                unsafe { (*values.add(r)).get() }
            };
            let p = unsafe { load16(values.add(m0 - r)) };
            let x = _mm256_and_si256(_mm256_xor_si256(p, _mm256_set1_epi16(v as i16)), mask);
            // SAFETY: 32 bytes into [u64; 4]
            unsafe { _mm256_storeu_si256(x4.as_mut_ptr() as *mut __m256i, x) };
        }
        for x4 in &xs[..chunk.len()] {
            // SAFETY: every value is masked below S, every heap below MAP_BLOCK.
            unsafe {
                mark4::<T>(base, 0, x4[0]);
                mark4::<T>(base, 1, x4[1]);
                mark4::<T>(base, 2, x4[2]);
                mark4::<T>(base, 3, x4[3]);
            }
        }
    }
}

/// Rare positions [`far_maps_packed`] loads before it stores their marks.
const CHUNK: usize = 32;

/// Fewest positions for which [`far_maps`] takes [`far_maps_filtered_avx512`] (the maps fill
/// up over the first few hundred positions: before that nearly every option is stored).
const FILTER_FROM: usize = 1024;

/// Rare positions per chunk of [`far_maps_filtered_avx512`] (read, then stored): 32 and 512
/// were no faster on 0.206.
const FILTER_CHUNK: usize = 128;

/// [`far_maps_filtered_avx512`] where it applies: values in one or two bytes (not the store
/// with a head), a span of 128 to 2048, maps `span + 64` bytes apart, AVX-512 BW and VBMI2,
/// and this compiler's intrinsics. Returns whether it marked the options (else nothing is
/// marked).
#[cfg(target_arch = "x86_64")]
#[rustversion::since(1.89)]
#[allow(clippy::incompatible_msrv)] // compiled by Rust >= 1.89 only (see `take_in_bits_512`)
fn far_maps_filtered_512<V: Value>(
    g: &[V],
    positions: &[u32],
    m0: usize,
    maps: &mut [u8],
    span: usize,
) -> bool {
    if V::ODD_MASK != 0
        || !std::arch::is_x86_feature_detected!("avx512bw")
        || !std::arch::is_x86_feature_detected!("avx512vbmi2")
        || !std::arch::is_x86_feature_detected!("popcnt")
    {
        return false;
    }
    // SAFETY (each arm): AVX-512 BW, VBMI2 and POPCNT are supported (checked above); the caller
    // checked `far_positions_fit` and that `maps` holds MAP_BLOCK maps `span + 64` apart.
    unsafe {
        match span {
            128 => far_maps_filtered_avx512::<V, 128, { 128 + 64 }>(g, positions, m0, maps),
            256 => far_maps_filtered_avx512::<V, 256, { 256 + 64 }>(g, positions, m0, maps),
            512 => far_maps_filtered_avx512::<V, 512, { 512 + 64 }>(g, positions, m0, maps),
            1024 => far_maps_filtered_avx512::<V, 1024, { 1024 + 64 }>(g, positions, m0, maps),
            2048 => far_maps_filtered_avx512::<V, 2048, { 2048 + 64 }>(g, positions, m0, maps),
            _ => return false,
        }
    }
    true
}

/// Whether [`far_maps_filtered_avx512`] is faster than [`far_maps_packed`] on this processor:
/// measured once per process, on a block like 0.206's, rather than assumed. The filtered copy
/// reads each option's byte with a gather, and gathers cost very different amounts on
/// different cores: on the Sapphire Rapids-class Xeon of sessions 25–32 it made 0.206 about a
/// tenth faster, on an Ice Lake Xeon (session 33) half again as slow (`sparse_profile 0.206
/// 1048576 1`: 11.3–13.5 s against 7.7–8.1 s without it), the profile's samples piled on the
/// instructions waiting for the two gathers. The block: 16 maps `1024 + 64` bytes apart,
/// 8,192 rare positions with values below 32 and partners below 640 (so that, as in 0.206,
/// fewer than one option in ten is a value its map lacks); each copy marks it seven times in
/// turn on cleared maps, and the filtered copy is used only if its fastest time is the lower.
/// About a millisecond, the first time a block could take it.
#[cfg(target_arch = "x86_64")]
fn filter_pays() -> bool {
    static PAYS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *PAYS.get_or_init(|| {
        const SPAN: usize = 1024;
        const STRIDE: usize = SPAN + 64;
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |below: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % below
        };
        let positions: Vec<u32> = (0..8192).map(|_| next(2048) as u32).collect();
        let m0 = 6144;
        // rare values (at the positions, below 2048) below 32, partners (above 4096) below 640
        let g: Vec<u16> = (0..m0 + MAP_BLOCK)
            .map(|i| next(if i < 2048 { 32 } else { 640 }) as u16)
            .collect();
        if !far_positions_fit(&g, &positions, m0) {
            return false;
        }
        let mut maps = vec![0u8; MAP_BLOCK * STRIDE];
        let (mut filtered, mut packed) = (u128::MAX, u128::MAX);
        for _ in 0..7 {
            maps.fill(0);
            let start = std::time::Instant::now();
            if !far_maps_filtered_512(&g, &positions, m0, &mut maps, SPAN) {
                return false;
            }
            filtered = filtered.min(start.elapsed().as_nanos());
            maps.fill(0);
            let start = std::time::Instant::now();
            // SAFETY: `far_maps` calls this only where AVX2 is supported, and the filtered copy
            // (which needs AVX-512 BW) ran; the positions fit (checked above); the maps are
            // MAP_BLOCK maps STRIDE = SPAN + 64 bytes apart.
            unsafe { far_maps_packed::<u16, SPAN, STRIDE>(&g, &[], &positions, m0, &mut maps) };
            packed = packed.min(start.elapsed().as_nanos());
        }
        filtered < packed
    })
}

/// Older compilers: no AVX-512 copy.
#[cfg(target_arch = "x86_64")]
#[rustversion::before(1.89)]
fn far_maps_filtered_512<V: Value>(
    _g: &[V],
    _positions: &[u32],
    _m0: usize,
    _maps: &mut [u8],
    _span: usize,
) -> bool {
    false
}

/// [`far_maps_packed`] with most stores left out, the same maps at the end: an option whose
/// byte its heap's map already holds needs no store. A heap's far options repeat a few hundred
/// values over and over (0.206: about 10,000 options per heap, values below 1024), so most of
/// the sixteen stores per rare position write a 1 where there is one, and a store costs a
/// cycle where loads go two or three a cycle. So each option's byte is read first — the
/// sixteen of a rare position with one gather (`vpgatherdd`, offsets `j T + x` from the first
/// map) — and only the options whose byte is still 0 are stored. Their offsets (below 2^16) are
/// compressed into a buffer, and the stores of a chunk of [`FILTER_CHUNK`] positions go after
/// its loads, in one loop with no branch per position; a byte read before a store of the same
/// chunk set it may be stored twice, never missed.
///
/// Measured (`sparse_profile 0.206 1048576 1`, alternating with the build before it, three
/// rounds): 6.95, 7.01, 7.68 s against 7.86, 7.97, 8.12 s, the same values. Looking the
/// options up in a set of the values that some map of the block lacks (two registers, read
/// from the maps every chunk) instead of in the maps themselves left out only 52.5% of the
/// stores (each map lacks different values), and gained nothing (8.12 and 8.73 s against
/// 8.40 and 7.98 s): its look-ups cost what the stores saved.
///
/// # Safety
/// The processor supports AVX-512 F, BW and VBMI2 and POPCNT; `maps.len() >= MAP_BLOCK * T`;
/// `far_positions_fit(g, positions, m0)`; `S` is a power of two, at least 64, with `T >= S + 4`
/// and `(MAP_BLOCK - 1) T + S <= 2^16`.
#[cfg(target_arch = "x86_64")]
#[rustversion::since(1.89)]
#[allow(clippy::incompatible_msrv)] // compiled by Rust >= 1.89 only (see `take_in_bits_512`)
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,popcnt")]
unsafe fn far_maps_filtered_avx512<V: Value, const S: usize, const T: usize>(
    g: &[V],
    positions: &[u32],
    m0: usize,
    maps: &mut [u8],
) {
    use std::arch::x86_64::*;
    const { assert!(S.is_power_of_two() && S >= 64 && T >= S + 4) };
    // a map's bytes are addressed in 16 bits: the last byte of the last map is below 2^16
    const { assert!((MAP_BLOCK - 1) * T + S <= 1 << 16) };
    debug_assert!(maps.len() >= MAP_BLOCK * T && far_positions_fit(g, positions, m0));
    let base = maps.as_mut_ptr();
    let values = g.as_ptr();
    let mask = _mm512_set1_epi16((S - 1) as i16);
    // lane l of each half: the map of heap l, T bytes apart
    let mut lanes = [0u16; 32];
    for (l, o) in lanes.iter_mut().enumerate() {
        *o = ((l % MAP_BLOCK) * T) as u16;
    }
    let offsets = _mm512_loadu_si512(lanes.as_ptr() as *const __m512i);
    let offsets32 = _mm512_cvtepu16_epi32(_mm512_castsi512_si256(offsets));
    let mut buffer = [0u16; FILTER_CHUNK * MAP_BLOCK + 32];
    let out = buffer.as_mut_ptr();
    let low_byte = _mm512_set1_epi32(0xFF);
    for chunk in positions.chunks(FILTER_CHUNK) {
        let mut count = 0usize;
        for pair in chunk.chunks(2) {
            let (r0, r1) = (pair[0] as usize, *pair.last().expect("a pair") as usize);
            // SAFETY: r < g.len() and m0 - r + MAP_BLOCK <= g.len() (far_positions_fit)
            let p = _mm512_inserti64x4::<1>(
                _mm512_castsi256_si512(load16(values.add(m0 - r0))),
                load16(values.add(m0 - r1)),
            );
            let v = _mm512_mask_set1_epi16(
                _mm512_set1_epi16((*values.add(r0)).get() as i16),
                0xFFFF_0000,
                (*values.add(r1)).get() as i16,
            );
            let x = _mm512_and_si512(_mm512_xor_si512(p, v), mask);
            // each option's byte in its map as it stands (the 32 bits read from it end below
            // the map's end: x + 4 <= S + 4 <= T)
            let at0 = _mm512_add_epi32(_mm512_cvtepu16_epi32(_mm512_castsi512_si256(x)), offsets32);
            let at1 = _mm512_add_epi32(
                _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64::<1>(x)),
                offsets32,
            );
            let b0 = _mm512_i32gather_epi32::<1>(at0, base as *const _);
            let b1 = _mm512_i32gather_epi32::<1>(at1, base as *const _);
            let h0 = _mm512_testn_epi32_mask(b0, low_byte) as u32;
            let h1 = _mm512_testn_epi32_mask(b1, low_byte) as u32;
            let mut hit = h0 | h1 << 16;
            if pair.len() == 1 {
                hit &= 0xFFFF; // the second half repeats the first position
            }
            // SAFETY: count <= 16 * (positions so far) and the buffer has 32 spare slots
            _mm512_storeu_si512(
                out.add(count) as *mut __m512i,
                _mm512_maskz_compress_epi16(hit, _mm512_add_epi16(x, offsets)),
            );
            count += hit.count_ones() as usize;
        }
        for at in &buffer[..count] {
            // read through a volatile load: the vectoriser would otherwise widen the offsets
            // and extract them lane by lane (as in `mark_values`)
            // SAFETY: `at` is a valid reference; at = j T + x with j < MAP_BLOCK and
            // x < S <= T: inside `maps`
            *base.add(std::ptr::read_volatile(at) as usize) = 1;
        }
    }
}

fn far_maps_any<V: Value>(
    g: &[V],
    head: &[u16],
    positions: &[u32],
    m0: usize,
    maps: &mut [u8],
    stride: usize,
    span: usize,
) {
    for &r in positions {
        let r = r as usize;
        let v = at(g, head, r);
        let partners = &g[m0 - r..m0 - r + MAP_BLOCK];
        for (j, &p) in partners.iter().enumerate() {
            maps[j * stride + ((v ^ p.get()) as usize & (span - 1))] = 1;
        }
    }
}

/// Mark `G(i) ^ G(m - i)` for every `i` in `lo..hi` in the byte map `seen` (of `S` bytes, a
/// power of two above every value). Range conditions as in [`targets_hit`].
///
/// This is the first round of Officers' witness search (a few hundred splits per heap whose
/// values are nearly all new): the xors are taken 16 at a time in one AVX2 register and then
/// stored one byte each, so a split costs about two instructions instead of seven.
#[inline]
pub fn mark_xors<V: Value, const S: usize>(
    g: &[V],
    m: usize,
    lo: usize,
    hi: usize,
    seen: &mut [u8; S],
) {
    const { assert!(S.is_power_of_two()) };
    if lo >= hi {
        return;
    }
    debug_assert!(lo >= 1 && hi <= m / 2 + 1 && m <= g.len());
    let low = &g[lo..hi];
    let high = &g[m + 1 - hi..=m - lo];
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor supports AVX2 (checked just above).
            return unsafe { mark_xors_avx2(low, high, seen) };
        }
    }
    mark_xors_from(low, high, 0, seen)
}

/// The plain [`mark_xors`] from offset `from` of `low` (and the mirrored end of `high`).
#[inline(always)]
fn mark_xors_from<V: Value, const S: usize>(
    low: &[V],
    high: &[V],
    from: usize,
    seen: &mut [u8; S],
) {
    let len = low.len().min(high.len());
    let (low, high) = (&low[from..len], &high[..len - from]);
    for (&a, &b) in low.iter().zip(high.iter().rev()) {
        seen[(a.get() ^ b.get()) as usize & (S - 1)] = 1;
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn mark_xors_avx2<V: Value, const S: usize>(low: &[V], high: &[V], seen: &mut [u8; S]) {
    use std::arch::x86_64::*;
    let len = low.len().min(high.len());
    // reverses the eight 16-bit words of each 128-bit lane (then the lanes are swapped)
    let reverse = _mm256_setr_epi8(
        14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1, 14, 15, 12, 13, 10, 11, 8, 9, 6, 7,
        4, 5, 2, 3, 0, 1,
    );
    let mask = _mm256_set1_epi16((S - 1) as i16);
    let mut xors = [0u16; 16];
    let mut j = 0;
    while j + 16 <= len {
        // SAFETY: j + 16 <= len, so low[j..j + 16] and high[len - j - 16..len - j] are in
        // bounds; `xors` is 16 u16 = 32 bytes.
        let a = load16(low.as_ptr().add(j));
        let b = load16(high.as_ptr().add(len - j - 16));
        let b = _mm256_permute4x64_epi64::<0b01_00_11_10>(_mm256_shuffle_epi8(b, reverse));
        let x = _mm256_and_si256(_mm256_xor_si256(a, b), mask);
        _mm256_storeu_si256(xors.as_mut_ptr() as *mut __m256i, x);
        for &x in &xors {
            seen[x as usize & (S - 1)] = 1;
        }
        j += 16;
    }
    mark_xors_from(low, high, j, seen)
}

/// Pack a byte map of 0s and 1s into bit-set words: bit `j` of `found[w]` is byte `64 w + j` of
/// `seen` (as many words as `seen` has whole 64-byte chunks, at most `found.len()`). Called
/// twice per value of Officers (its option map and its witness search's first round): with
/// AVX2 a 64-byte chunk is two shifts and two byte-sign masks instead of eight multiplies.
#[inline]
pub fn pack_bytes(seen: &[u8], found: &mut [u64]) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor supports AVX2 (checked just above).
            return unsafe { pack_bytes_avx2(seen, found) };
        }
    }
    pack_bytes_portable(seen, found)
}

fn pack_bytes_portable(seen: &[u8], found: &mut [u64]) {
    for (word, bytes) in found.iter_mut().zip(seen.chunks_exact(64)) {
        let mut bits = 0u64;
        for (j, eight) in bytes.chunks_exact(8).enumerate() {
            let x = u64::from_le_bytes(eight.try_into().expect("8 bytes"));
            // each byte is 0 or 1: the product gathers byte j's bit into bit 56 + j
            bits |= (x.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * j);
        }
        *word = bits;
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn pack_bytes_avx2(seen: &[u8], found: &mut [u64]) {
    use std::arch::x86_64::*;
    for (word, bytes) in found.iter_mut().zip(seen.chunks_exact(64)) {
        // SAFETY: `bytes` is 64 bytes: two 32-byte loads. Shifting each 16-bit lane left by 7
        // moves bit 0 of both its bytes to their sign bits, which the mask gathers.
        let lo = _mm256_loadu_si256(bytes.as_ptr() as *const __m256i);
        let hi = _mm256_loadu_si256(bytes.as_ptr().add(32) as *const __m256i);
        let lo = _mm256_movemask_epi8(_mm256_slli_epi16::<7>(lo)) as u32 as u64;
        let hi = _mm256_movemask_epi8(_mm256_slli_epi16::<7>(hi)) as u32 as u64;
        *word = lo | hi << 32;
    }
}

/// Values below this have their "wanted" set held in two AVX2 registers by [`find_in_bits`].
pub const SMALL_SET: usize = 512;

/// Values below this have their "wanted" set held in two AVX-512 registers by [`take_in_bits`]
/// (games whose values pass 512, such as 0.437).
pub const WIDE_SET: usize = 1024;

/// Values below this have their "wanted" set held in eight AVX-512 registers by
/// [`take_in_bits`] (four below 2048): games whose values pass 1024, such as 0.146 (values past
/// 1,500 by 2^20), whose witness searches would otherwise look up a byte map one split at a
/// time.
pub const HUGE_SET: usize = 4096;

/// The sizes of the wanted sets that [`take_in_bits`] and [`collect_wanted_xors`] take (`32 W`
/// values for `W` words of 32 bits), smallest first: the smallest that holds every value of a
/// game is the cheapest lookup.
pub const SET_WIDTHS: [usize; 4] = [SMALL_SET, WIDE_SET, 2048, HUGE_SET];

/// The first `i` in `lo..hi` such that `G(i) ^ G(m - i)` is in `bits` (a bit set of values
/// below [`SMALL_SET`], bit `v % 32` of word `v / 32`). Every value of `g` must be below
/// [`SMALL_SET`]; range conditions as in [`targets_hit`].
///
/// This is the witness search of games without local structure (0.6), which look for dozens of
/// values at once: the set is looked up for 8 splits per step with in-register table lookups.
#[inline]
pub fn find_in_bits<V: Value>(
    g: &[V],
    m: usize,
    lo: usize,
    hi: usize,
    bits: &[u32; SMALL_SET / 32],
) -> Option<usize> {
    if lo >= hi {
        return None;
    }
    debug_assert!(lo >= 1 && hi <= m / 2 + 1 && m <= g.len());
    let low = &g[lo..hi];
    let high = &g[m + 1 - hi..=m - lo];
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor supports AVX2 (checked just above).
            return unsafe { find_in_bits_avx2(low, high, bits) }.map(|j| lo + j);
        }
    }
    find_in_bits_scalar(low, high, 0, bits).map(|j| lo + j)
}

/// Scan the splits `lo..hi` of a heap of `m` for the values of `bits` (as [`find_in_bits`],
/// for a set of `32 * W` values: `W` is 16 for values below [`SMALL_SET`], 32 for values below
/// [`WIDE_SET`], 64 or 128 for values below 2048 or [`HUGE_SET`]), taking each value out of `bits` at its first split and pushing `(i, value)` to
/// `taken`; stop early when `bits` is empty. Returns the split where it emptied, if it did.
/// Every value of `g` must be below `32 * W`. `left` is the number of values in `bits`, kept
/// up to date (the caller tracks it: counting the bits here costs more than a short scan
/// where the processor's popcount is not assumed).
pub fn take_in_bits<V: Value, const W: usize>(
    g: &[V],
    m: usize,
    lo: usize,
    hi: usize,
    bits: &mut [u32; W],
    left: &mut u32,
    taken: &mut Vec<(usize, u16)>,
) -> Option<usize> {
    const { assert!(W == 16 || W == 32 || W == 64 || W == 128) };
    debug_assert_eq!(*left, bits.iter().map(|w| w.count_ones()).sum::<u32>());
    if lo >= hi || *left == 0 {
        return None;
    }
    debug_assert!(lo >= 1 && hi <= m / 2 + 1 && m <= g.len());
    let low = &g[lo..hi];
    let high = &g[m + 1 - hi..=m - lo];
    #[cfg(target_arch = "x86_64")]
    {
        if let Some(end) = take_in_bits_512(low, high, lo, bits, left, taken) {
            return end;
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            // (the AVX2 copy holds 512 values; wider sets take the scalar copy)
            if let Ok(bits) = <&mut [u32; SMALL_SET / 32]>::try_from(&mut bits[..]) {
                // SAFETY: the processor supports AVX2 (checked just above).
                return unsafe { take_in_bits_avx2(low, high, lo, bits, left, taken) };
            }
        }
    }
    take_in_bits_from(low, high, lo, 0, bits, left, taken)
}

/// [`take_in_bits_avx512`] when the processor has AVX-512 BW and this compiler its intrinsics
/// (Rust 1.89; the crate's minimum is older, so the copy is compiled only where it can be).
#[cfg(target_arch = "x86_64")]
#[rustversion::since(1.89)]
#[allow(clippy::incompatible_msrv)] // compiled by Rust >= 1.89 only (see above)
fn take_in_bits_512<V: Value, const W: usize>(
    low: &[V],
    high: &[V],
    lo: usize,
    bits: &mut [u32; W],
    left: &mut u32,
    taken: &mut Vec<(usize, u16)>,
) -> Option<Option<usize>> {
    if std::arch::is_x86_feature_detected!("avx512bw") {
        // SAFETY: the processor supports AVX-512 BW (checked just above).
        Some(unsafe { take_in_bits_avx512(low, high, lo, bits, left, taken) })
    } else {
        None
    }
}

/// Older compilers: no AVX-512 copy.
#[cfg(target_arch = "x86_64")]
#[rustversion::before(1.89)]
fn take_in_bits_512<V: Value, const W: usize>(
    _low: &[V],
    _high: &[V],
    _lo: usize,
    _bits: &mut [u32; W],
    _left: &mut u32,
    _taken: &mut Vec<(usize, u16)>,
) -> Option<Option<usize>> {
    None
}

/// [`take_in_bits`] with AVX-512: 32 splits per step. The whole wanted set (512 bits) is one
/// register, read as 32 words of 16 bits, so a lookup is one in-register permute (`vpermw`
/// picks word `x / 16` for each lane) and one variable shift (bit `x % 16`) — about ten
/// instructions per 32 splits, against about fourteen per 8 for the AVX2 copy. This is the
/// innermost loop of Officers (0.6): every heap needs a witness for each rare value below its
/// candidate mex, and those come from a scan over the common-common splits.
#[cfg(target_arch = "x86_64")]
#[rustversion::since(1.89)]
#[allow(clippy::incompatible_msrv)] // compiled by Rust >= 1.89 only (see `take_in_bits_512`)
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn take_in_bits_avx512<V: Value, const W: usize>(
    low: &[V],
    high: &[V],
    lo: usize,
    bits: &mut [u32; W],
    left: &mut u32,
    taken: &mut Vec<(usize, u16)>,
) -> Option<usize> {
    use std::arch::x86_64::__m512i;
    let len = low.len().min(high.len());
    let mut table = wanted_table_512(bits);
    // the lookup of the 32 splits from `j`: bit `i` set when split `j + i` is wanted
    let lookup = |j: usize, table: &[__m512i; 8]| {
        // SAFETY: the caller has j + 32 <= len.
        wanted_lanes_512::<W>(split_xors_512::<V, V, W>(low, high, j), table)
    };
    let mut j = 0;
    // 64 splits per step: one branch per 64 (hits are dense at first, so fewer steps means
    // fewer mispredicted branches)
    while j + 64 <= len {
        let hits = lookup(j, &table) as u64 | (lookup(j + 32, &table) as u64) << 32;
        if hits != 0 {
            if let Some(end) = take_hits(hits, j, low, high, lo, bits, left, taken) {
                return Some(end);
            }
            table = wanted_table_512(bits);
        }
        j += 64;
    }
    if j < len && len >= 32 {
        // the rest (fewer than 64 splits) in at most two lookups of 32, the last one ending at
        // `len` and overlapping splits already looked at, whose hits are masked off
        if j + 32 < len {
            let hits = lookup(j, &table) as u64;
            if hits != 0 {
                if let Some(end) = take_hits(hits, j, low, high, lo, bits, left, taken) {
                    return Some(end);
                }
                table = wanted_table_512(bits);
            }
            j += 32;
        }
        let base = len - 32;
        let hits = (lookup(base, &table) as u64) >> (j - base) << (j - base);
        return take_hits(hits, base, low, high, lo, bits, left, taken);
    }
    take_in_bits_from(low, high, lo, j, bits, left, taken)
}

/// The wanted set of [`take_in_bits`] in registers: register `k` holds words `32 k .. 32 k + 32`
/// of 16 bits, for the first `W / 16` registers (the rest are zero and never read).
#[cfg(target_arch = "x86_64")]
#[rustversion::since(1.89)]
#[allow(clippy::incompatible_msrv)] // compiled by Rust >= 1.89 only (see `take_in_bits_512`)
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
unsafe fn wanted_table_512<const W: usize>(bits: &[u32; W]) -> [std::arch::x86_64::__m512i; 8] {
    use std::arch::x86_64::*;
    let mut table = [_mm512_setzero_si512(); 8];
    for (k, register) in table.iter_mut().enumerate().take(W / 16) {
        // SAFETY: k < W / 16, so the 16 words from 16 k are inside `bits` (W u32).
        *register = _mm512_loadu_si512(bits.as_ptr().add(16 * k) as *const __m512i);
    }
    table
}

/// `G(i) ^ G(m - i)` for the 32 splits from offset `j` of `low` (and the mirrored end of
/// `high`), below `32 * W`. Needs `j + 32 <= min(low.len(), high.len())`.
#[cfg(target_arch = "x86_64")]
#[rustversion::since(1.89)]
#[allow(clippy::incompatible_msrv)] // compiled by Rust >= 1.89 only (see `take_in_bits_512`)
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
unsafe fn split_xors_512<A: Value, B: Value, const W: usize>(
    low: &[A],
    high: &[B],
    j: usize,
) -> std::arch::x86_64::__m512i {
    use std::arch::x86_64::*;
    let len = low.len().min(high.len());
    debug_assert!(j + 32 <= len);
    // lane i takes lane 31 - i: reverses the 32 16-bit lanes
    let reverse = _mm512_set_epi16(
        0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
        25, 26, 27, 28, 29, 30, 31,
    );
    // SAFETY: j + 32 <= len, so low[j..j + 32] and high[len - j - 32..len - j] are in bounds.
    let a = load32(low.as_ptr().add(j));
    let b = load32(high.as_ptr().add(len - j - 32));
    let b = _mm512_permutexvar_epi16(reverse, b);
    _mm512_and_si512(
        _mm512_xor_si512(a, b),
        _mm512_set1_epi16((32 * W - 1) as i16),
    )
}

/// Which of the 32 values `x` are in the wanted set `table` (see [`wanted_table_512`]): an
/// in-register permute picks word `x / 16` for each lane (one for 512 values, a two-register
/// permute for 1024; for 2048 and 4096 two or four of those, blended on bits 10 and 11 of `x`),
/// one variable shift bit `x % 16`.
#[cfg(target_arch = "x86_64")]
#[rustversion::since(1.89)]
#[allow(clippy::incompatible_msrv)] // compiled by Rust >= 1.89 only (see `take_in_bits_512`)
#[target_feature(enable = "avx512f,avx512bw")]
#[inline]
unsafe fn wanted_lanes_512<const W: usize>(
    x: std::arch::x86_64::__m512i,
    table: &[std::arch::x86_64::__m512i; 8],
) -> u32 {
    use std::arch::x86_64::*;
    let index = _mm512_srli_epi16::<4>(x);
    // 64 words in two registers: bit 5 of the index picks the register
    let pair = |k: usize| _mm512_permutex2var_epi16(table[k], index, table[k + 1]);
    let word = match W {
        16 => _mm512_permutexvar_epi16(index, table[0]),
        32 => pair(0),
        64 => {
            let upper = _mm512_test_epi16_mask(x, _mm512_set1_epi16(1 << 10));
            _mm512_mask_blend_epi16(upper, pair(0), pair(2))
        }
        _ => {
            let bit10 = _mm512_test_epi16_mask(x, _mm512_set1_epi16(1 << 10));
            let bit11 = _mm512_test_epi16_mask(x, _mm512_set1_epi16(1 << 11));
            let below = _mm512_mask_blend_epi16(bit10, pair(0), pair(2));
            let above = _mm512_mask_blend_epi16(bit10, pair(4), pair(6));
            _mm512_mask_blend_epi16(bit11, below, above)
        }
    };
    let bit = _mm512_srlv_epi16(word, _mm512_and_si512(x, _mm512_set1_epi16(15)));
    _mm512_test_epi16_mask(bit, _mm512_set1_epi16(1))
}

/// Append to `out` every `G(i) ^ G(m - i)` (`lo <= i < hi`) that is in the wanted set `bits`
/// (as in [`take_in_bits`]: `32 * W` values, every value of `g` below that), in split order,
/// with repeats. Returns `false`, having appended nothing, where there is no AVX-512 VBMI2 copy
/// (the caller then marks every xor of the range with [`mark_xors`]). Range conditions as in
/// [`targets_hit`].
///
/// The first round of Officers' witness search: of its 512 splits per heap only about one in
/// five produces a value still wanted, so the 32 xors of a step are looked up in the wanted set
/// (as in [`take_in_bits`]) and the wanted ones packed together with one compress: the caller
/// then marks about 110 values per heap ([`mark_values`]) instead of 512.
#[inline]
pub fn collect_wanted_xors<V: Value, const W: usize>(
    g: &[V],
    m: usize,
    lo: usize,
    hi: usize,
    bits: &[u32; W],
    out: &mut Vec<u16>,
) -> bool {
    const { assert!(W == 16 || W == 32 || W == 64 || W == 128) };
    #[cfg(target_arch = "x86_64")]
    {
        if lo >= hi {
            return true;
        }
        debug_assert!(lo >= 1 && hi <= m / 2 + 1 && m <= g.len());
        collect_wanted_xors_512(&g[lo..hi], &g[m + 1 - hi..=m - lo], bits, out)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (g, m, lo, hi, bits, out);
        false
    }
}

/// [`collect_wanted_xors`] on two stretches held apart, perhaps in two stores: the splits pair
/// `low[k]` with `high[high.len() - 1 - k]` for `k < low.len()` (`high` at least as long). The
/// witness search below a head of `u16` values (`wide`'s `head_chunk`): the head's values against
/// their partners in bytes, read where they are instead of copied together first. Returns
/// `false`, having appended nothing, where there is no AVX-512 copy.
#[inline]
pub fn collect_wanted_pairs<A: Value, B: Value, const W: usize>(
    low: &[A],
    high: &[B],
    bits: &[u32; W],
    out: &mut Vec<u16>,
) -> bool {
    const { assert!(W == 16 || W == 32 || W == 64 || W == 128) };
    assert!(high.len() >= low.len());
    #[cfg(target_arch = "x86_64")]
    {
        let high = &high[high.len() - low.len()..];
        collect_wanted_xors_512(low, high, bits, out)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (low, high, bits, out);
        false
    }
}

/// Append to `out` every `G(p) ^ G(m - p)` of the listed positions (`positions`, with
/// `values[k] = G(positions[k])`, every position in `1..m`) that is in the wanted set `bits`
/// (as in [`take_in_bits`]), in list order, with repeats. Returns `false`, having appended
/// nothing, where there is no AVX-512 copy, the store is bytes, or `m` is not below `g.len()`
/// (the gathers read the value after `G(m - p)`).
///
/// The gathers take signed 32-bit offsets. Below heap 2^31 they are counted from `G(0)`; from
/// 2^31 on, each group of 32 positions is counted from its own partner nearest `G(0)`,
/// `G(m - max p)` (offsets `max p - p`), and a group whose positions spread over 2^31 or more is
/// done one position at a time.
///
/// The witness search's scan of an index ([`super::wide`]'s `BitIndex`): the positions are far
/// apart, so the partners `G(m - p)` are gathered, 16 per instruction; the values `G(p)` are
/// read from the list. Measured (`replay_tests::replay_costs`, 0.206's values): about 0.3 ns
/// per listed position against 0.11 to 0.13 ns per split of [`collect_wanted_xors`].
#[inline]
pub fn collect_listed_xors<V: Value, const W: usize>(
    g: &[V],
    m: usize,
    positions: &[u32],
    values: &[u16],
    bits: &[u32; W],
    out: &mut Vec<u16>,
) -> bool {
    const { assert!(W == 16 || W == 32 || W == 64 || W == 128) };
    #[cfg(target_arch = "x86_64")]
    {
        if V::BYTES != 2 || m >= g.len() {
            return false;
        }
        debug_assert!(positions.iter().all(|&p| p >= 1 && (p as usize) < m));
        debug_assert_eq!(positions.len(), values.len());
        collect_listed_xors_512(g, m, positions, values, bits, out)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (g, m, positions, values, bits, out);
        false
    }
}

#[cfg(target_arch = "x86_64")]
#[rustversion::since(1.89)]
#[allow(clippy::incompatible_msrv)] // compiled by Rust >= 1.89 only (see `take_in_bits_512`)
fn collect_listed_xors_512<V: Value, const W: usize>(
    g: &[V],
    m: usize,
    positions: &[u32],
    values: &[u16],
    bits: &[u32; W],
    out: &mut Vec<u16>,
) -> bool {
    if std::arch::is_x86_feature_detected!("avx512bw")
        && std::arch::is_x86_feature_detected!("avx512vbmi2")
        && std::arch::is_x86_feature_detected!("popcnt")
    {
        // SAFETY: the processor supports these features (checked just above); the caller
        // checked that `g` holds 16-bit values and `m < g.len()`.
        unsafe { collect_listed_xors_avx512(g, m, positions, values, bits, out) };
        true
    } else {
        false
    }
}

/// Older compilers: no AVX-512 copy.
#[cfg(target_arch = "x86_64")]
#[rustversion::before(1.89)]
fn collect_listed_xors_512<V: Value, const W: usize>(
    _g: &[V],
    _m: usize,
    _positions: &[u32],
    _values: &[u16],
    _bits: &[u32; W],
    _out: &mut Vec<u16>,
) -> bool {
    false
}

/// Safety: `V` is `u16`, `m < g.len()` and every position is in `1..m`.
#[cfg(target_arch = "x86_64")]
#[rustversion::since(1.89)]
#[allow(clippy::incompatible_msrv)] // compiled by Rust >= 1.89 only (see `take_in_bits_512`)
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,popcnt")]
unsafe fn collect_listed_xors_avx512<V: Value, const W: usize>(
    g: &[V],
    m: usize,
    positions: &[u32],
    values: &[u16],
    bits: &[u32; W],
    out: &mut Vec<u16>,
) {
    use std::arch::x86_64::*;
    let len = positions.len().min(values.len());
    let table = wanted_table_512(bits);
    out.reserve(len + 32);
    let start = out.len();
    let base = out.as_mut_ptr().add(start);
    let mut count = 0;
    let bytes = g.as_ptr() as *const u8;
    // offsets counted from G(0) while every m - p fits 31 bits, else from each group's own base
    let far = m >= 1 << 31;
    let mv = _mm512_set1_epi32(m as i32);
    let below = _mm512_set1_epi16((32 * W - 1) as i16);
    let mut j = 0;
    while j + 32 <= len {
        let p0 = _mm512_loadu_si512(positions.as_ptr().add(j) as *const __m512i);
        let p1 = _mm512_loadu_si512(positions.as_ptr().add(j + 16) as *const __m512i);
        let (from, top) = if far {
            let most = _mm512_reduce_max_epu32(_mm512_max_epu32(p0, p1));
            let least = _mm512_reduce_min_epu32(_mm512_min_epu32(p0, p1));
            if most - least >= 1 << 31 {
                // too far apart for one base: these 32 one at a time (no reallocation:
                // count + 32 <= len fits the room reserved above, so `base` stays valid)
                out.set_len(start + count);
                for k in j..j + 32 {
                    let x =
                        (values[k] ^ g[m - positions[k] as usize].get()) as usize & (32 * W - 1);
                    if bits[x >> 5] >> (x & 31) & 1 == 1 {
                        out.push(x as u16);
                    }
                }
                count = out.len() - start;
                j += 32;
                continue;
            }
            // SAFETY: most < m, so m - most is an index of `g`
            (
                bytes.add(2 * (m - most as usize)),
                _mm512_set1_epi32(most as i32),
            )
        } else {
            (bytes, mv)
        };
        // SAFETY: 1 <= p < m, so m - p is in 1..m and the 32 bits read at value m - p are
        // that value and the next one, both below m + 1 <= g.len() (u16 values: 2 bytes each);
        // `from` is G(m - top) and each offset top - p is m - p counted from it, in 0..2^31
        let h0 = _mm512_i32gather_epi32::<2>(_mm512_sub_epi32(top, p0), from as *const _);
        let h1 = _mm512_i32gather_epi32::<2>(_mm512_sub_epi32(top, p1), from as *const _);
        // the low 16 bits of each lane: the partner's value
        let h = _mm512_inserti64x4::<1>(
            _mm512_castsi256_si512(_mm512_cvtepi32_epi16(h0)),
            _mm512_cvtepi32_epi16(h1),
        );
        let v = _mm512_loadu_si512(values.as_ptr().add(j) as *const __m512i);
        let x = _mm512_and_si512(_mm512_xor_si512(v, h), below);
        let hits = wanted_lanes_512::<W>(x, &table);
        // SAFETY: count <= j, so count + 32 <= len + 32 fits the reserved room
        _mm512_storeu_si512(
            base.add(count) as *mut __m512i,
            _mm512_maskz_compress_epi16(hits, x),
        );
        count += hits.count_ones() as usize;
        j += 32;
    }
    // SAFETY: the first `count` values from `start` were written above.
    out.set_len(start + count);
    for k in j..len {
        let p = positions[k] as usize;
        let x = (values[k] ^ g[m - p].get()) as usize & (32 * W - 1);
        if bits[x >> 5] >> (x & 31) & 1 == 1 {
            out.push(x as u16);
        }
    }
}

/// Mark every value of `xs` in `seen` (masked to `S`, a power of two): one load and one store
/// each.
#[inline]
pub fn mark_values<const S: usize>(xs: &[u16], seen: &mut [u8; S]) {
    const { assert!(S.is_power_of_two()) };
    for x in xs {
        // read through a volatile load: the vectoriser would otherwise widen the values and
        // extract them lane by lane, two shuffle uops per mark
        // SAFETY: `x` is a valid, aligned reference.
        let x = unsafe { std::ptr::read_volatile(x) };
        seen[x as usize & (S - 1)] = 1;
    }
}

/// [`collect_wanted_xors_avx512`] when the processor has AVX-512 BW and VBMI2 and this
/// compiler the intrinsics.
#[cfg(target_arch = "x86_64")]
#[rustversion::since(1.89)]
#[allow(clippy::incompatible_msrv)] // compiled by Rust >= 1.89 only (see `take_in_bits_512`)
fn collect_wanted_xors_512<A: Value, B: Value, const W: usize>(
    low: &[A],
    high: &[B],
    bits: &[u32; W],
    out: &mut Vec<u16>,
) -> bool {
    if std::arch::is_x86_feature_detected!("avx512bw")
        && std::arch::is_x86_feature_detected!("avx512vbmi2")
        && std::arch::is_x86_feature_detected!("popcnt")
    {
        if (A::ODD_MASK != 0 || B::ODD_MASK != 0) && gfni_available() {
            // SAFETY: the processor supports these features (checked just above).
            unsafe { collect_wanted_xors_gfni(low, high, bits, out) };
            return true;
        }
        // SAFETY: the processor supports these features (checked just above).
        unsafe { collect_wanted_xors_avx512(low, high, bits, out) };
        true
    } else {
        false
    }
}

/// Older compilers: no AVX-512 copy.
#[cfg(target_arch = "x86_64")]
#[rustversion::before(1.89)]
fn collect_wanted_xors_512<A: Value, B: Value, const W: usize>(
    _low: &[A],
    _high: &[B],
    _bits: &[u32; W],
    _out: &mut Vec<u16>,
) -> bool {
    false
}

/// The body of [`collect_wanted_xors_avx512`] and [`collect_wanted_xors_gfni`], given how the
/// 32 xors of a step are read (`$xors(j)`); a macro so that each copy is compiled with its own
/// target features.
#[cfg(target_arch = "x86_64")]
macro_rules! collect_wanted_body {
    ($low:expr, $high:expr, $bits:expr, $out:expr, $xors:expr) => {{
        use std::arch::x86_64::*;
        let (low, high, bits, out) = ($low, $high, $bits, $out);
        let xors = $xors;
        let len = low.len().min(high.len());
        let table = wanted_table_512(bits);
        // every step stores 32 lanes at the end of what is kept: room for all splits plus 32
        out.reserve(len + 32);
        let start = out.len();
        let base = out.as_mut_ptr().add(start);
        let mut count = 0;
        let mut keep = |hits: u32, x: __m512i| {
            // SAFETY: count <= the splits looked at before this step, so count + 32 <= len + 32
            // fits the reserved room.
            _mm512_storeu_si512(
                base.add(count) as *mut __m512i,
                _mm512_maskz_compress_epi16(hits, x),
            );
            count += hits.count_ones() as usize;
        };
        let mut j = 0;
        while j + 32 <= len {
            let x = xors(j);
            keep(wanted_lanes_512::<W>(x, &table), x);
            j += 32;
        }
        if j < len && len >= 32 {
            // the last splits: the 32 ending at `len`, those looked at already masked off
            let last = len - 32;
            let x = xors(last);
            keep(
                wanted_lanes_512::<W>(x, &table) >> (j - last) << (j - last),
                x,
            );
            j = len;
        }
        // SAFETY: the first `count` values from `start` were written above.
        out.set_len(start + count);
        for k in j..len {
            let x = (low[k].get() ^ high[len - 1 - k].get()) as usize & (32 * W - 1);
            if bits[x >> 5] >> (x & 31) & 1 == 1 {
                out.push(x as u16);
            }
        }
    }};
}

#[cfg(target_arch = "x86_64")]
#[rustversion::since(1.89)]
#[allow(clippy::incompatible_msrv)] // compiled by Rust >= 1.89 only (see `take_in_bits_512`)
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi2,popcnt")]
unsafe fn collect_wanted_xors_avx512<A: Value, B: Value, const W: usize>(
    low: &[A],
    high: &[B],
    bits: &[u32; W],
    out: &mut Vec<u16>,
) {
    collect_wanted_body!(low, high, bits, out, |j| split_xors_512::<A, B, W>(
        low, high, j
    ))
}

/// [`collect_wanted_xors_avx512`] where one side or both are bytes of
/// [`crate::takebreak::values::Odd8`] values, with GFNI and VBMI: bit 8 comes from one affine
/// map of the bytes (`vgf2p8affineqb`: it is a parity of the others) and one byte permute that
/// lays bytes and bits out as 16-bit lanes ([`split_xors_gfni`]), instead of two nibble lookups
/// and five more steps per load.
///
/// # Safety
/// The processor has the features below.
#[cfg(target_arch = "x86_64")]
#[rustversion::since(1.89)]
#[allow(clippy::incompatible_msrv)] // compiled by Rust >= 1.89 only (see `take_in_bits_512`)
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,avx512vbmi2,popcnt,gfni")]
unsafe fn collect_wanted_xors_gfni<A: Value, B: Value, const W: usize>(
    low: &[A],
    high: &[B],
    bits: &[u32; W],
    out: &mut Vec<u16>,
) {
    collect_wanted_body!(low, high, bits, out, |j| split_xors_gfni::<A, B, W>(
        low, high, j
    ))
}

/// Whether this processor runs [`collect_wanted_xors_gfni`] (asked once: the six questions
/// took about 1% of Officers' time on a store of bytes when asked at every call).
#[cfg(target_arch = "x86_64")]
pub(super) fn gfni_available() -> bool {
    static AVAILABLE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *AVAILABLE.get_or_init(|| {
        std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512vl")
            && std::arch::is_x86_feature_detected!("avx512vbmi")
            && std::arch::is_x86_feature_detected!("avx512vbmi2")
            && std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("gfni")
    })
}

/// The matrix of `vgf2p8affineqb` (row `k`, the bits whose parity is output bit `k`, in byte
/// `7 - k`) whose output bit 0 is the parity of the byte under `mask`'s low 8 bits, the other
/// bits 0: with the constant 1, bit 8 of an [`crate::takebreak::values::Odd8`] value from its
/// byte; with 0, bit 8 of the xor of two such values from the xor of their bytes.
#[cfg(target_arch = "x86_64")]
const fn parity_matrix(mask: u16) -> i64 {
    (((mask & 0xFF) as u64) << 56) as i64
}

/// The 64 byte indices of `vpermt2b` that lay 32 bytes of the first operand and 32 of the
/// second out as 32 16-bit lanes: lane `k` is byte `k` of the first, then byte `k` of the
/// second.
#[cfg(target_arch = "x86_64")]
const INTERLEAVE: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut k = 0;
    while k < 32 {
        t[2 * k] = k as u8;
        t[2 * k + 1] = 64 + k as u8;
        k += 1;
    }
    t
};

/// [`INTERLEAVE`] with the lanes in reverse order: lane `k` is byte `31 - k` of each.
#[cfg(target_arch = "x86_64")]
const INTERLEAVE_REVERSED: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut k = 0;
    while k < 32 {
        t[2 * k] = 31 - k as u8;
        t[2 * k + 1] = 64 + 31 - k as u8;
        k += 1;
    }
    t
};

/// [`load32`] with GFNI and VBMI, the 32 lanes in reverse order when `REVERSED`: the bytes of
/// an [`crate::takebreak::values::Odd8`] store take bit 8 from one affine map and are laid out
/// as 16-bit lanes (reversed for free) by one permute.
///
/// # Safety
/// As [`load32`]; the processor has the features below.
#[cfg(target_arch = "x86_64")]
#[rustversion::since(1.89)]
#[allow(clippy::incompatible_msrv)] // compiled by Rust >= 1.89 only
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
#[inline]
unsafe fn load32_gfni<V: Value, const REVERSED: bool>(p: *const V) -> std::arch::x86_64::__m512i {
    use std::arch::x86_64::*;
    if V::ODD_MASK == 0 {
        let v = load32(p);
        if !REVERSED {
            return v;
        }
        // lane i takes lane 31 - i
        let reverse = _mm512_set_epi16(
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23,
            24, 25, 26, 27, 28, 29, 30, 31,
        );
        return _mm512_permutexvar_epi16(reverse, v);
    }
    let y = _mm256_loadu_si256(p as *const __m256i);
    let bit8 =
        _mm256_gf2p8affine_epi64_epi8::<1>(y, _mm256_set1_epi64x(parity_matrix(V::ODD_MASK)));
    let index = if REVERSED {
        &INTERLEAVE_REVERSED
    } else {
        &INTERLEAVE
    };
    let index = _mm512_loadu_si512(index.as_ptr() as *const __m512i);
    _mm512_permutex2var_epi8(
        _mm512_castsi256_si512(y),
        index,
        _mm512_castsi256_si512(bit8),
    )
}

/// [`split_xors_512`] with GFNI and VBMI ([`collect_wanted_xors_gfni`]). When both sides are
/// bytes of [`crate::takebreak::values::Odd8`] values the bytes are xored first: bit 8 of the
/// xor is the parity of the xored bytes under the mask (both values' parities are odd), so it
/// is rebuilt once per step instead of once per side.
///
/// # Safety
/// As [`split_xors_512`]; the processor has the features below.
#[cfg(target_arch = "x86_64")]
#[rustversion::since(1.89)]
#[allow(clippy::incompatible_msrv)] // compiled by Rust >= 1.89 only
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512vbmi,gfni")]
#[inline]
unsafe fn split_xors_gfni<A: Value, B: Value, const W: usize>(
    low: &[A],
    high: &[B],
    j: usize,
) -> std::arch::x86_64::__m512i {
    use std::arch::x86_64::*;
    let len = low.len().min(high.len());
    debug_assert!(j + 32 <= len);
    let set = _mm512_set1_epi16((32 * W - 1) as i16);
    if A::ODD_MASK != 0 && A::ODD_MASK == B::ODD_MASK {
        // lane i takes lane 31 - i: reverses 32 bytes
        let reverse = _mm256_set_epi8(
            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23,
            24, 25, 26, 27, 28, 29, 30, 31,
        );
        // SAFETY: j + 32 <= len, so low[j..j + 32] and high[len - j - 32..len - j] are in
        // bounds (one byte each).
        let a = _mm256_loadu_si256(low.as_ptr().add(j) as *const __m256i);
        let b = _mm256_loadu_si256(high.as_ptr().add(len - j - 32) as *const __m256i);
        let x = _mm256_xor_si256(a, _mm256_permutexvar_epi8(reverse, b));
        let bit8 =
            _mm256_gf2p8affine_epi64_epi8::<0>(x, _mm256_set1_epi64x(parity_matrix(A::ODD_MASK)));
        let index = _mm512_loadu_si512(INTERLEAVE.as_ptr() as *const __m512i);
        let x = _mm512_permutex2var_epi8(
            _mm512_castsi256_si512(x),
            index,
            _mm512_castsi256_si512(bit8),
        );
        return _mm512_and_si512(x, set);
    }
    // SAFETY: as above.
    let a = load32_gfni::<A, false>(low.as_ptr().add(j));
    let b = load32_gfni::<B, true>(high.as_ptr().add(len - j - 32));
    _mm512_and_si512(_mm512_xor_si512(a, b), set)
}

/// The scalar [`take_in_bits`] from offset `from`.
fn take_in_bits_from<V: Value, const W: usize>(
    low: &[V],
    high: &[V],
    lo: usize,
    from: usize,
    bits: &mut [u32; W],
    left: &mut u32,
    taken: &mut Vec<(usize, u16)>,
) -> Option<usize> {
    let len = low.len().min(high.len());
    let mut j = from;
    while let Some(k) = find_in_bits_scalar(low, high, j, bits) {
        let x = low[k].get() ^ high[len - 1 - k].get();
        if take_bit(bits, x, lo + k, left, taken) {
            return Some(lo + k);
        }
        j = k + 1;
    }
    None
}

/// Take the values of the splits `j + i` for the bits `i` of `hits` (in order) out of `bits`, as
/// [`take_bit`]; the split where `bits` emptied, if it did.
#[allow(clippy::too_many_arguments)] // the state of `take_in_bits`, passed through
#[inline(always)]
fn take_hits<V: Value, const W: usize>(
    mut hits: u64,
    j: usize,
    low: &[V],
    high: &[V],
    lo: usize,
    bits: &mut [u32; W],
    left: &mut u32,
    taken: &mut Vec<(usize, u16)>,
) -> Option<usize> {
    let len = low.len().min(high.len());
    while hits != 0 {
        let k = j + hits.trailing_zeros() as usize;
        hits &= hits - 1;
        if take_bit(
            bits,
            low[k].get() ^ high[len - 1 - k].get(),
            lo + k,
            left,
            taken,
        ) {
            return Some(lo + k);
        }
    }
    None
}

/// Take `x` out of `bits` (if still there) and note it; whether `bits` is now empty.
#[inline(always)]
fn take_bit<const W: usize>(
    bits: &mut [u32; W],
    x: u16,
    i: usize,
    left: &mut u32,
    taken: &mut Vec<(usize, u16)>,
) -> bool {
    let x = x as usize & (32 * W - 1);
    let word = &mut bits[x >> 5];
    if *word >> (x & 31) & 1 == 1 {
        *word &= !(1 << (x & 31));
        taken.push((i, x as u16));
        *left -= 1;
        return *left == 0;
    }
    false
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn take_in_bits_avx2<V: Value>(
    low: &[V],
    high: &[V],
    lo: usize,
    bits: &mut [u32; SMALL_SET / 32],
    left: &mut u32,
    taken: &mut Vec<(usize, u16)>,
) -> Option<usize> {
    use std::arch::x86_64::*;
    let len = low.len().min(high.len());
    let mut table_lo = _mm256_loadu_si256(bits.as_ptr() as *const __m256i);
    let mut table_hi = _mm256_loadu_si256(bits.as_ptr().add(8) as *const __m256i);
    let reverse = _mm_set_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
    let low_bits = _mm256_set1_epi32(31);
    let mut j = 0;
    while j + 8 <= len {
        // SAFETY: j + 8 <= len, so low[j..j + 8] and high[len - j - 8..len - j] are in bounds.
        let a = _mm256_cvtepu16_epi32(load8(low.as_ptr().add(j)));
        let b = load8(high.as_ptr().add(len - j - 8));
        let b = _mm256_cvtepu16_epi32(_mm_shuffle_epi8(b, reverse));
        let x = _mm256_xor_si256(a, b);
        let word = _mm256_srli_epi32::<5>(x);
        let from_lo = _mm256_permutevar8x32_epi32(table_lo, word);
        let from_hi = _mm256_permutevar8x32_epi32(table_hi, word);
        let pick = _mm256_castsi256_ps(_mm256_slli_epi32::<28>(word));
        let w = _mm256_castps_si256(_mm256_blendv_ps(
            _mm256_castsi256_ps(from_lo),
            _mm256_castsi256_ps(from_hi),
            pick,
        ));
        let bit = _mm256_srlv_epi32(w, _mm256_and_si256(x, low_bits));
        let hits = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_slli_epi32::<31>(bit)));
        if hits != 0 {
            if let Some(end) = take_hits(hits as u8 as u64, j, low, high, lo, bits, left, taken) {
                return Some(end);
            }
            table_lo = _mm256_loadu_si256(bits.as_ptr() as *const __m256i);
            table_hi = _mm256_loadu_si256(bits.as_ptr().add(8) as *const __m256i);
        }
        j += 8;
    }
    take_in_bits_from(low, high, lo, j, bits, left, taken)
}

/// The first `j >= from` with `low[j] ^ high[len - 1 - j]` in `bits`.
fn find_in_bits_scalar<V: Value, const W: usize>(
    low: &[V],
    high: &[V],
    from: usize,
    bits: &[u32; W],
) -> Option<usize> {
    let len = low.len().min(high.len());
    (from..len).find(|&j| {
        let x = ((low[j].get() ^ high[len - 1 - j].get()) as usize) & (32 * W - 1);
        bits[x >> 5] >> (x & 31) & 1 == 1
    })
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn find_in_bits_avx2<V: Value>(
    low: &[V],
    high: &[V],
    bits: &[u32; SMALL_SET / 32],
) -> Option<usize> {
    use std::arch::x86_64::*;
    let len = low.len().min(high.len());
    let table_lo = _mm256_loadu_si256(bits.as_ptr() as *const __m256i);
    let table_hi = _mm256_loadu_si256(bits.as_ptr().add(8) as *const __m256i);
    // reverses the eight 16-bit lanes of a 128-bit vector
    let reverse = _mm_set_epi8(1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14);
    let low_bits = _mm256_set1_epi32(31);
    let mut j = 0;
    while j + 8 <= len {
        // SAFETY: j + 8 <= len, so low[j..j + 8] and high[len - j - 8..len - j] are in bounds.
        let a = _mm256_cvtepu16_epi32(load8(low.as_ptr().add(j)));
        let b = load8(high.as_ptr().add(len - j - 8));
        let b = _mm256_cvtepu16_epi32(_mm_shuffle_epi8(b, reverse));
        let x = _mm256_xor_si256(a, b);
        let word = _mm256_srli_epi32::<5>(x);
        let from_lo = _mm256_permutevar8x32_epi32(table_lo, word);
        let from_hi = _mm256_permutevar8x32_epi32(table_hi, word);
        // bit 3 of the word index picks the table (moved to the sign bit for the blend)
        let pick = _mm256_castsi256_ps(_mm256_slli_epi32::<28>(word));
        let w = _mm256_castps_si256(_mm256_blendv_ps(
            _mm256_castsi256_ps(from_lo),
            _mm256_castsi256_ps(from_hi),
            pick,
        ));
        let bit = _mm256_srlv_epi32(w, _mm256_and_si256(x, low_bits));
        let hits = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_slli_epi32::<31>(bit)));
        if hits != 0 {
            return Some(j + hits.trailing_zeros() as usize);
        }
        j += 8;
    }
    find_in_bits_scalar(low, high, j, bits)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(g: &[u16], m: usize, lo: usize, hi: usize) -> Vec<u16> {
        (lo..hi).map(|i| g[i] ^ g[m - i]).collect()
    }

    /// The bit set (`W` words of 32 bits) of the `wanted` values.
    fn wanted_bits<const W: usize>(wanted: &[u16]) -> [u32; W] {
        let mut bits = [0u32; W];
        for &w in wanted {
            bits[w as usize / 32] |= 1 << (w % 32);
        }
        bits
    }

    /// The plain loop the `take_in_bits` copies must agree with: each wanted value at its
    /// first split of heap `m` in `lo..hi`, in order, and the split where none is left.
    fn first_splits(
        g: &[u16],
        m: usize,
        lo: usize,
        hi: usize,
        wanted: &[u16],
    ) -> (Vec<(usize, u16)>, Option<usize>) {
        let mut expect = Vec::new();
        let mut left = wanted.to_vec();
        for i in lo..hi {
            let x = g[i] ^ g[m - i];
            if let Some(p) = left.iter().position(|&w| w == x) {
                left.remove(p);
                expect.push((i, x));
                if left.is_empty() {
                    return (expect, Some(i));
                }
            }
        }
        (expect, None)
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
                far_masks_body::<u16, u32>(&g, &positions, m0, &mut portable);
            } else {
                far_masks_body::<u16, u64>(&g, &positions, m0, &mut portable);
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
    fn mark_xors_marks_exactly_the_xors_of_a_range() {
        let g = random_values(11, 3000, 512);
        for (m, lo, hi) in [
            (2999, 1, 1500),
            (2000, 3, 40),
            (1500, 700, 751),
            (100, 1, 2),
        ] {
            for hi in [hi, lo + 15, lo + 16, lo + 17] {
                let hi = hi.min(m / 2 + 1);
                let mut seen = [0u8; 512];
                mark_xors(&g, m, lo, hi, &mut seen);
                let mut want = [0u8; 512];
                for x in pairs(&g, m, lo, hi) {
                    want[x as usize] = 1;
                }
                assert_eq!(seen, want, "m {m} lo {lo} hi {hi}");
            }
        }
        // a narrower map keeps the low bits (the caller's values fit it)
        let g = random_values(12, 600, 128);
        let mut seen = [0u8; 128];
        mark_xors(&g, 599, 1, 300, &mut seen);
        let mut want = [0u8; 128];
        pairs(&g, 599, 1, 300)
            .into_iter()
            .for_each(|x| want[x as usize] = 1);
        assert_eq!(seen, want);
    }

    #[test]
    fn far_maps_mark_every_block_option() {
        // strides of span + 64 take the packed copy (`far_maps_packed`), the others the
        // general one; values below 200, and values up to the top of a span of 2048
        let small: Vec<u16> = (0..500u32)
            .map(|i| ((i * 37 + i / 7) % 200) as u16)
            .collect();
        let wide: Vec<u16> = (0..500u32)
            .map(|i| (i.wrapping_mul(2654435761u32) >> 21) as u16)
            .collect();
        assert!(wide.iter().any(|&v| v >= 2000));
        // a few positions, and more than two of the packed copy's chunks of loads (the last
        // one partial)
        let few: Vec<u32> = vec![16, 17, 25, 40, 41, 100, 200, 284];
        let many: Vec<u32> = (0..90).map(|i| 16 + 3 * i).collect();
        assert!(many.len() > 2 * CHUNK && many.len() % CHUNK != 0);
        let m0 = 300;
        for ((g, stride, span), positions) in [
            (&small, 256, 256),
            (&small, 4096, 4096),
            (&small, 320, 256),
            (&small, 4160, 4096),
            (&small, 300, 256),
            (&wide, 2112, 2048),
            (&wide, 4160, 4096),
            (&wide, 2048, 2048),
        ]
        .into_iter()
        .flat_map(|case| [(case, &few), (case, &many)])
        {
            let mut maps = vec![0u8; MAP_BLOCK * stride];
            far_maps(g, &[], positions, m0, &mut maps, stride, span);
            for j in 0..MAP_BLOCK {
                let mut expect = vec![0u8; stride];
                for &r in positions {
                    expect[(g[r as usize] ^ g[m0 + j - r as usize]) as usize] = 1;
                }
                assert_eq!(&maps[j * stride..(j + 1) * stride], &expect[..], "heap {j}");
            }
        }
    }

    /// Enough positions for the filtered copy (`far_maps_filtered_avx512`, from
    /// [`FILTER_FROM`] positions with values in one or two bytes and maps `span + 64` apart):
    /// the same maps as the plain loop, whether the values repeat a lot (most stores left out)
    /// or hardly (most made), with an odd number of positions and a last chunk part full.
    #[test]
    fn filtered_far_maps_mark_every_block_option() {
        let positions: Vec<u32> = (0..FILTER_FROM as u32 + 3 * FILTER_CHUNK as u32 + 7)
            .map(|i| 16 + 2 * i + i % 3)
            .collect();
        assert!(positions.len() % 2 == 1 && positions.len() % FILTER_CHUNK != 0);
        let m0 = *positions.last().unwrap() as usize + 40;
        for span in [128usize, 512, 1024, 2048] {
            // few values (the maps fill early), then values over the whole span
            let few: Vec<u16> = random_values(31, m0 + MAP_BLOCK, 24)
                .into_iter()
                .map(|v| v * 5 % span as u16)
                .collect();
            let many = random_values(32, m0 + MAP_BLOCK, span as u64);
            for g in [&few, &many] {
                let stride = span + 64;
                let mut maps = vec![0u8; MAP_BLOCK * stride];
                // a map with marks already in it: they stay
                maps[3 * stride + 5] = 1;
                let mut expect = maps.clone();
                let mut chosen = maps.clone();
                // the filtered copy itself (where this processor runs it), whether or not
                // `far_maps` would choose it here (`filter_pays`)
                #[cfg(target_arch = "x86_64")]
                let ran = far_maps_filtered_512(g, &positions, m0, &mut maps, span);
                #[cfg(not(target_arch = "x86_64"))]
                let ran = false;
                if !ran {
                    far_maps(g, &[], &positions, m0, &mut maps, stride, span);
                }
                far_maps(g, &[], &positions, m0, &mut chosen, stride, span);
                far_maps_any(g, &[], &positions, m0, &mut expect, stride, span);
                assert_eq!(chosen, expect, "span {span}, the chosen copy");
                for j in 0..MAP_BLOCK {
                    let (a, b) = (
                        &maps[j * stride..][..stride],
                        &expect[j * stride..][..stride],
                    );
                    assert_eq!(a, b, "span {span}, heap {j}");
                }
                if span <= 256 {
                    // the same values in bytes
                    let bytes: Vec<u8> = g.iter().map(|&v| v as u8).collect();
                    let mut maps = vec![0u8; MAP_BLOCK * stride];
                    maps[3 * stride + 5] = 1;
                    #[cfg(target_arch = "x86_64")]
                    let ran = far_maps_filtered_512(&bytes, &positions, m0, &mut maps, span);
                    #[cfg(not(target_arch = "x86_64"))]
                    let ran = false;
                    if !ran {
                        far_maps(&bytes, &[], &positions, m0, &mut maps, stride, span);
                    }
                    assert_eq!(maps, expect, "span {span}, bytes");
                }
            }
        }
    }

    #[test]
    fn packed_bytes_agree_with_the_byte_map() {
        let mut state = 5u64;
        for len in [0usize, 64, 128, 576, 1024, 1000] {
            let seen: Vec<u8> = (0..len)
                .map(|_| {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (state >> 61 == 0) as u8
                })
                .collect();
            let words = len / 64;
            let mut want = vec![0u64; words + 1];
            for (i, &b) in seen[..64 * words].iter().enumerate() {
                want[i / 64] |= (b as u64) << (i % 64);
            }
            let (mut fast, mut portable) = (vec![!0u64; words + 1], vec![!0u64; words + 1]);
            pack_bytes(&seen, &mut fast);
            pack_bytes_portable(&seen, &mut portable);
            // a word past the whole chunks is left alone
            want[words] = !0;
            assert_eq!(fast, want, "len {len}");
            assert_eq!(portable, want, "len {len}");
        }
    }

    #[test]
    fn collected_xors_are_the_wanted_xors_of_the_range_in_order() {
        fn check<const W: usize>(g: &[u16], wanted: &[u16]) {
            let bits = wanted_bits::<W>(wanted);
            for (m, lo, hi) in [
                (2999, 1, 1500),
                (2000, 3, 40),
                (1500, 700, 751),
                (100, 1, 2),
            ] {
                for hi in [hi, lo + 31, lo + 32, lo + 33, lo + 128, lo + 200] {
                    let hi = hi.min(m / 2 + 1);
                    let want: Vec<u16> = pairs(g, m, lo, hi)
                        .into_iter()
                        .filter(|x| wanted.contains(x))
                        .collect();
                    let mut out = vec![7u16];
                    if collect_wanted_xors(g, m, lo, hi, &bits, &mut out) {
                        assert_eq!(out[0], 7, "what was there stays");
                        assert_eq!(&out[1..], &want[..], "m {m} lo {lo} hi {hi}");
                    } else {
                        assert_eq!(out, [7], "nothing appended when there is no copy");
                    }
                    let mut seen = [0u8; HUGE_SET];
                    mark_values(&want, &mut seen);
                    for x in 0..HUGE_SET as u16 {
                        assert_eq!(seen[x as usize] == 1, want.contains(&x), "{x}");
                    }
                }
            }
        }
        let g = random_values(13, 3000, 512);
        let wanted: Vec<u16> = (0..512).filter(|x| x % 5 == 1 || x % 7 == 3).collect();
        check::<16>(&g, &wanted);
        check::<16>(&g, &[]);
        let g = random_values(14, 3000, 1024);
        let wanted: Vec<u16> = (0..1024).filter(|x| x % 3 == 2).collect();
        check::<32>(&g, &wanted);
        // values past 1024 (as 0.146's): sets of 2048 and 4096 values, four and eight registers
        let g = random_values(15, 3000, 1600);
        let wanted: Vec<u16> = (0..2048).filter(|x| x % 3 == 1 || *x >= 1500).collect();
        check::<64>(&g, &wanted);
        let g = random_values(16, 3000, 4000);
        let wanted: Vec<u16> = (0..4096).filter(|x| x % 5 != 2).collect();
        check::<128>(&g, &wanted);
        check::<128>(&g, &[4095, 0, 1024, 2048, 3072]);
    }

    /// What [`collect_listed_xors`] must append: the `G(p) ^ G(m - p)` of the listed positions,
    /// masked to the set's `width` values, that are wanted, in list order.
    fn listed_xors(
        g: &[u16],
        m: usize,
        positions: &[u32],
        wanted: &[u16],
        width: usize,
    ) -> Vec<u16> {
        positions
            .iter()
            .map(|&p| (g[p as usize] ^ g[m - p as usize]) & (width as u16 - 1))
            .filter(|x| wanted.contains(x))
            .collect()
    }

    /// Checks one call; returns whether the kernel ran (rather than declined).
    fn check_listed<const W: usize>(
        g: &[u16],
        m: usize,
        positions: &[u32],
        wanted: &[u16],
    ) -> bool {
        let bits = wanted_bits::<W>(wanted);
        let values: Vec<u16> = positions.iter().map(|&p| g[p as usize]).collect();
        let mut out = vec![7u16];
        if collect_listed_xors(g, m, positions, &values, &bits, &mut out) {
            assert_eq!(out[0], 7, "what was there stays");
            let want = listed_xors(g, m, positions, wanted, 32 * W);
            assert_eq!(&out[1..], &want[..], "m {m}, {} positions", positions.len());
            true
        } else {
            assert_eq!(out, [7], "nothing appended when there is no copy");
            false
        }
    }

    #[test]
    fn listed_xors_are_the_wanted_xors_of_the_list_in_order() {
        let g = random_values(21, 3000, 1024);
        let wanted: Vec<u16> = (0..1024).filter(|x| x % 3 == 2 || x % 7 == 0).collect();
        let every: Vec<u32> = (1..2999).collect();
        let odd: Vec<u32> = (1..2999).filter(|p| p % 13 == 5).collect();
        for m in [2999, 2000, 40] {
            for list in [&every, &odd] {
                let below: Vec<u32> = list.iter().copied().filter(|&p| (p as usize) < m).collect();
                for len in [0, 1, 31, 32, 33, 64, 95, below.len()] {
                    let part = &below[..len.min(below.len())];
                    check_listed::<32>(&g, m, part, &wanted);
                    check_listed::<16>(&g, m, part, &wanted[..wanted.len() / 2]);
                }
            }
        }
    }

    /// Heaps from 2^31 on: the gathers' offsets are counted from each group's own base, and a
    /// group spread over 2^31 positions or more is done one at a time. The values live at the
    /// two ends of a zeroed store of 2^31 + 2^17 values (4 GiB of address space, a few pages of
    /// memory).
    #[test]
    fn listed_xors_past_heap_two_to_the_31() {
        let m = (1usize << 31) + (1 << 17);
        let mut g = vec![0u16; m + 1];
        let ends = random_values(22, 1 << 17, 1024);
        g[..1 << 16].copy_from_slice(&ends[..1 << 16]);
        g[m + 1 - (1 << 16)..].copy_from_slice(&ends[1 << 16..]);
        let wanted: Vec<u16> = (0..1024).filter(|x| x % 3 != 1).collect();
        // near the start (partners near m), near m (partners near the start), and both ends at
        // once (32 positions spread over more than 2^31)
        let low: Vec<u32> = (1..1 << 16).filter(|p| p % 7 != 3).collect();
        let high: Vec<u32> = (m - (1 << 16) + 1..m)
            .filter(|p| p % 5 != 0)
            .map(|p| p as u32)
            .collect();
        let ran = check_listed::<32>(&g, m, &low, &wanted);
        // the kernel runs here wherever it runs below 2^31 (it declined past 2^31 before)
        assert_eq!(
            ran,
            check_listed::<32>(&g[..3000], 2999, &[1, 2, 3], &wanted)
        );
        check_listed::<32>(&g, m, &high, &wanted);
        let mut both: Vec<u32> = low[low.len() - 40..].to_vec();
        both.extend_from_slice(&high[..70]);
        check_listed::<32>(&g, m, &both, &wanted);
        for skip in [0, 5, 17, 31] {
            check_listed::<16>(&g, m, &both[skip..], &wanted[..wanted.len() / 2]);
        }
        // m itself past 2^32 is not built here (8 GiB of address space); the offsets are the
        // same arithmetic
    }

    #[test]
    fn find_in_bits_finds_the_first_wanted_split() {
        let mut state = 99u64;
        let g: Vec<u16> = (0..4000)
            .map(|_| {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
                ((state >> 33) % 320) as u16
            })
            .collect();
        for wanted in [
            vec![0u16],
            vec![5, 300, 17],
            vec![511],
            vec![1, 2, 3, 4, 5, 6, 7, 8, 9],
        ] {
            let bits = wanted_bits::<{ SMALL_SET / 32 }>(&wanted);
            for &(m, lo) in &[(3999usize, 1usize), (2000, 7), (17, 1), (100, 40)] {
                let hi = m / 2 + 1;
                let expect = (lo..hi).find(|&i| wanted.contains(&(g[i] ^ g[m - i])));
                assert_eq!(
                    find_in_bits(&g, m, lo, hi, &bits),
                    expect,
                    "m {m} lo {lo} {wanted:?}"
                );
                let (low, high) = (&g[lo..hi], &g[m + 1 - hi..=m - lo]);
                assert_eq!(
                    find_in_bits_scalar(low, high, 0, &bits).map(|j| lo + j),
                    expect
                );
            }
        }
    }

    #[test]
    fn take_in_bits_takes_each_value_at_its_first_split() {
        let g: Vec<u16> = (0..3000u32)
            .map(|i| ((i * 7919 + i / 5) % 400) as u16)
            .collect();
        for wanted in [vec![0u16, 3, 399], vec![7], (0..60).collect::<Vec<u16>>()] {
            for &(m, lo) in &[(2999usize, 1usize), (1500, 9), (30, 2)] {
                let hi = m / 2 + 1;
                let mut bits = wanted_bits::<{ SMALL_SET / 32 }>(&wanted);
                let mut taken = Vec::new();
                let mut left = wanted.len() as u32;
                let end = take_in_bits(&g, m, lo, hi, &mut bits, &mut left, &mut taken);
                assert_eq!(left as usize, wanted.len() - taken.len());
                let (expect, expect_end) = first_splits(&g, m, lo, hi, &wanted);
                assert_eq!(taken, expect, "m {m} lo {lo}");
                assert_eq!(end, expect_end);
                let low = &g[lo..hi];
                let high = &g[m + 1 - hi..=m - lo];
                let mut bits2 = wanted_bits::<{ SMALL_SET / 32 }>(&wanted);
                let mut taken2 = Vec::new();
                let mut left = wanted.len() as u32;
                assert_eq!(
                    take_in_bits_from(low, high, lo, 0, &mut bits2, &mut left, &mut taken2),
                    expect_end
                );
                assert_eq!(taken2, expect);
            }
        }
    }

    /// A pseudo-random sequence of `len` values below `below`.
    /// A store of low bytes (`Odd8`): the wanted xors of its splits, and of a head in `u16`
    /// against its bytes, are those of the values, from the dispatching entry points and from
    /// each AVX-512 copy this processor runs (the nibble rebuild and the GFNI one).
    #[test]
    fn odd8_bytes_collect_the_wanted_xors_of_their_values() {
        use crate::takebreak::values::Odd8;
        let fitting: Vec<u16> = (0..512)
            .filter(|&v| Odd8::fits(v))
            .map(|v| v as u16)
            .collect();
        let picks = random_values(21, 3000, fitting.len() as u64);
        let wide: Vec<u16> = picks.iter().map(|&k| fitting[k as usize]).collect();
        let bytes: Vec<Odd8> = wide
            .iter()
            .map(|&v| Odd8::fit(v as usize).unwrap())
            .collect();
        // a head of any values below 512 (Officers' rare values have even parity)
        let head = random_values(22, 1600, 512);
        for wanted in [
            (0..512)
                .filter(|x| x % 5 == 1 || x % 7 == 3)
                .collect::<Vec<u16>>(),
            (0..512).filter(|&x| !Odd8::fits(x as usize)).collect(), // the xors' class
            (0..512).collect(),
            vec![],
        ] {
            let bits = wanted_bits::<16>(&wanted);
            for (m, lo, hi) in [
                (2999, 1, 1500),
                (2000, 3, 40),
                (1500, 700, 751),
                (100, 1, 2),
            ] {
                for hi in [hi, lo + 31, lo + 32, lo + 33, lo + 128, lo + 200] {
                    let hi = hi.min(m / 2 + 1);
                    let want: Vec<u16> = pairs(&wide, m, lo, hi)
                        .into_iter()
                        .filter(|x| wanted.contains(x))
                        .collect();
                    let mut out = vec![7u16];
                    if collect_wanted_xors(&bytes, m, lo, hi, &bits, &mut out) {
                        assert_eq!(&out[1..], &want[..], "m {m} lo {lo} hi {hi}");
                    }
                    let (low, high) = (&bytes[lo..hi], &bytes[m + 1 - hi..=m - lo]);
                    for (copy, got) in each_collect_512(low, high, &bits) {
                        assert_eq!(got, want, "{copy}: m {m} lo {lo} hi {hi}");
                    }
                    // the head's values (low) against the bytes (high, the longer)
                    let (low, high) = (&head[lo..hi], &bytes[m + 1 - hi - 5..=m - lo]);
                    let want: Vec<u16> = (0..low.len())
                        .map(|k| low[k] ^ wide[m - lo - k])
                        .filter(|x| wanted.contains(x))
                        .collect();
                    let mut out = vec![7u16];
                    if collect_wanted_pairs(low, high, &bits, &mut out) {
                        assert_eq!(&out[1..], &want[..], "pairs: m {m} lo {lo} hi {hi}");
                    }
                    let high = &high[high.len() - low.len()..];
                    for (copy, got) in each_collect_512(low, high, &bits) {
                        assert_eq!(got, want, "pairs, {copy}: m {m} lo {lo} hi {hi}");
                    }
                }
            }
        }
    }

    /// What each AVX-512 copy of [`collect_wanted_xors`] this processor runs collects.
    #[cfg(target_arch = "x86_64")]
    #[rustversion::since(1.89)]
    fn each_collect_512<A: Value, B: Value>(
        low: &[A],
        high: &[B],
        bits: &[u32; 16],
    ) -> Vec<(&'static str, Vec<u16>)> {
        let mut outs = Vec::new();
        let plain = std::arch::is_x86_feature_detected!("avx512bw")
            && std::arch::is_x86_feature_detected!("avx512vbmi2")
            && std::arch::is_x86_feature_detected!("popcnt");
        if plain {
            let mut out = Vec::new();
            // SAFETY: the processor has the features (checked just above).
            unsafe { collect_wanted_xors_avx512(low, high, bits, &mut out) };
            outs.push(("AVX-512", out));
        }
        if gfni_available() {
            let mut out = Vec::new();
            // SAFETY: the processor has the features (checked by `gfni_available`).
            unsafe { collect_wanted_xors_gfni(low, high, bits, &mut out) };
            outs.push(("GFNI", out));
        }
        outs
    }

    /// Older compilers and other processors: no AVX-512 copy.
    #[cfg(not(target_arch = "x86_64"))]
    fn each_collect_512<A: Value, B: Value>(
        _low: &[A],
        _high: &[B],
        _bits: &[u32; 16],
    ) -> Vec<(&'static str, Vec<u16>)> {
        Vec::new()
    }

    #[cfg(target_arch = "x86_64")]
    #[rustversion::before(1.89)]
    fn each_collect_512<A: Value, B: Value>(
        _low: &[A],
        _high: &[B],
        _bits: &[u32; 16],
    ) -> Vec<(&'static str, Vec<u16>)> {
        Vec::new()
    }

    fn random_values(seed: u64, len: usize, below: u64) -> Vec<u16> {
        let mut state = seed;
        (0..len)
            .map(|_| {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(3);
                ((state >> 33) % below) as u16
            })
            .collect()
    }

    /// Every copy of [`take_in_bits`] for sets of `32 * W` values that the processor may pick
    /// (AVX-512, AVX2 for 512 values, scalar), against a plain loop over the splits.
    fn every_copy_agrees<const W: usize>(g: &[u16], sets: &[Vec<u16>]) {
        for wanted in sets {
            for &(m, lo) in &[
                (g.len() - 1, 1usize),
                (5000, 63),
                (130, 1),
                (100, 35),
                (70, 3),
                // tails of 36 and 1 splits after the 64-split steps
                (200, 1),
                (260, 2),
            ] {
                let hi = m / 2 + 1;
                let fresh = || wanted_bits::<W>(wanted);
                let (expect, expect_end) = first_splits(g, m, lo, hi, wanted);
                let (low, high) = (&g[lo..hi], &g[m + 1 - hi..=m - lo]);
                // (copy, where it emptied, what it took)
                type Outcome = (&'static str, Option<usize>, Vec<(usize, u16)>);
                let mut copies: Vec<Outcome> = Vec::new();
                let (mut bits, mut taken) = (fresh(), Vec::new());
                let mut n_left = wanted.len() as u32;
                let end = take_in_bits(g, m, lo, hi, &mut bits, &mut n_left, &mut taken);
                assert_eq!(n_left as usize, wanted.len() - taken.len());
                copies.push(("dispatched", end, taken));
                let (mut bits, mut taken) = (fresh(), Vec::new());
                let mut n_left = wanted.len() as u32;
                let end = take_in_bits_from(low, high, lo, 0, &mut bits, &mut n_left, &mut taken);
                copies.push(("scalar", end, taken));
                #[cfg(target_arch = "x86_64")]
                {
                    let mut bits = fresh();
                    let narrow = <&mut [u32; SMALL_SET / 32]>::try_from(&mut bits[..]);
                    if let (Ok(bits), true) = (narrow, std::arch::is_x86_feature_detected!("avx2"))
                    {
                        let mut taken = Vec::new();
                        let mut n_left = wanted.len() as u32;
                        // SAFETY: the processor supports AVX2 (checked just above).
                        let end = unsafe {
                            take_in_bits_avx2(low, high, lo, bits, &mut n_left, &mut taken)
                        };
                        copies.push(("avx2", end, taken));
                    }
                    let (mut bits, mut taken) = (fresh(), Vec::new());
                    let mut n_left = wanted.len() as u32;
                    if let Some(end) =
                        take_in_bits_512(low, high, lo, &mut bits, &mut n_left, &mut taken)
                    {
                        copies.push(("avx512", end, taken));
                    }
                }
                for (name, end, taken) in copies {
                    assert_eq!(
                        taken,
                        expect,
                        "{name} ({W} words): m {m} lo {lo} {} wanted",
                        wanted.len()
                    );
                    assert_eq!(end, expect_end, "{name} ({W} words): m {m} lo {lo}");
                }
            }
        }
    }

    #[test]
    fn every_copy_of_take_in_bits_agrees_with_a_plain_loop() {
        // ranges long and short, with wanted sets from one value to every value below 512
        // (dense hits, then none)
        let g = random_values(7, 20_000, 300);
        every_copy_agrees::<16>(
            &g,
            &[
                vec![17],
                vec![0, 299, 511],
                (0..120).map(|v| 2 * v + 1).collect(),
                (0..300).collect(),
                (300..512).collect(), // never produced: the whole range is scanned
            ],
        );
    }

    #[test]
    fn every_copy_of_the_wide_take_in_bits_agrees_with_a_plain_loop() {
        // values up to 799 (as 0.437's, which pass 512): sets of 1024 values, with wanted
        // values on both sides of 512 (the two AVX-512 registers of the set)
        let g = random_values(11, 20_000, 800);
        every_copy_agrees::<32>(
            &g,
            &[
                vec![600],
                vec![0, 511, 512, 799, 1023],
                (0..300).map(|v| 2 * v + 1).collect(),
                (0..800).collect(),
                (800..1024).collect(), // never produced: the whole range is scanned
                (490..540).collect(),
            ],
        );
    }

    #[test]
    fn every_copy_of_the_huge_take_in_bits_agrees_with_a_plain_loop() {
        // values past 1024 (0.146's pass 1,500): sets of 2048 and 4096 values, with wanted
        // values in each of their registers and on both sides of bits 10 and 11
        let g = random_values(21, 20_000, 1600);
        every_copy_agrees::<64>(
            &g,
            &[
                vec![1500],
                vec![0, 511, 512, 1023, 1024, 1535, 1599, 2047],
                (0..800).map(|v| 2 * v + 1).collect(),
                (0..1600).collect(),
                (1600..2048).collect(), // never produced: the whole range is scanned
                (1000..1100).collect(),
            ],
        );
        let g = random_values(22, 20_000, 4000);
        every_copy_agrees::<128>(
            &g,
            &[
                vec![3000],
                vec![0, 1023, 1024, 2047, 2048, 3071, 3072, 3999, 4095],
                (0..2000).map(|v| 2 * v).collect(),
                (0..4000).collect(),
                (4000..4096).collect(), // never produced: the whole range is scanned
                (2000..2100).collect(),
            ],
        );
    }

    /// Every kernel on values stored as bytes against the same values stored as `u16` (and,
    /// through the other tests, against plain loops): the byte copies widen their loads.
    #[test]
    fn every_kernel_on_bytes_agrees_with_the_kernel_on_u16() {
        for below in [32u64, 64, 200, 256] {
            let wide = random_values(40 + below, 6000, below);
            let bytes: Vec<u8> = wide.iter().map(|&v| v as u8).collect();
            let ranges = [
                (5999usize, 1usize, 3000usize),
                (4000, 3, 40),
                (3001, 700, 751),
                (100, 1, 2),
                (257, 1, 129),
                (6000 - 1, 1500, 1533),
            ];
            for (m, lo, hi) in ranges {
                let hi = hi.min(m / 2 + 1);
                if below <= 64 {
                    assert_eq!(xor_mask(&bytes, m, lo, hi), xor_mask(&wide, m, lo, hi));
                }
                for t in [[0, 1, 2, 3], [39, 50, 7, 255], [63, 62, 61, 60]] {
                    assert_eq!(
                        targets_hit(&bytes, m, lo, hi, t),
                        targets_hit(&wide, m, lo, hi, t)
                    );
                }
                let (mut s8, mut s16) = ([0u8; 256], [0u8; 256]);
                mark_xors(&bytes, m, lo, hi, &mut s8);
                mark_xors(&wide, m, lo, hi, &mut s16);
                assert_eq!(s8, s16, "mark_xors m {m} lo {lo} hi {hi}");
                for wanted in [
                    vec![17u16],
                    (0..120).map(|v| 2 * v + 1).collect::<Vec<u16>>(),
                    (0..256).collect(),
                    (256..512).collect(), // never produced
                ] {
                    let bits = wanted_bits::<{ SMALL_SET / 32 }>(&wanted);
                    assert_eq!(
                        find_in_bits(&bytes, m, lo, hi, &bits),
                        find_in_bits(&wide, m, lo, hi, &bits)
                    );
                    let take = |g8: bool| {
                        let mut bits = bits;
                        let (mut left, mut taken) = (wanted.len() as u32, Vec::new());
                        let end = if g8 {
                            take_in_bits(&bytes, m, lo, hi, &mut bits, &mut left, &mut taken)
                        } else {
                            take_in_bits(&wide, m, lo, hi, &mut bits, &mut left, &mut taken)
                        };
                        (end, taken, left)
                    };
                    assert_eq!(take(true), take(false), "take_in_bits m {m} lo {lo}");
                    let expect = first_splits(&wide, m, lo, hi, &wanted);
                    assert_eq!((take(true).1, take(true).0), expect);
                    let (low8, high8) = (&bytes[lo..hi], &bytes[m + 1 - hi..=m - lo]);
                    let mut bits8 = bits;
                    let (mut left, mut taken) = (wanted.len() as u32, Vec::new());
                    let end =
                        take_in_bits_from(low8, high8, lo, 0, &mut bits8, &mut left, &mut taken);
                    assert_eq!((taken, end), expect, "scalar copy on bytes");
                    #[cfg(target_arch = "x86_64")]
                    if std::arch::is_x86_feature_detected!("avx2") {
                        let mut bits8 = bits;
                        let (mut left, mut taken) = (wanted.len() as u32, Vec::new());
                        // SAFETY: the processor supports AVX2 (checked just above).
                        let end = unsafe {
                            take_in_bits_avx2(low8, high8, lo, &mut bits8, &mut left, &mut taken)
                        };
                        assert_eq!((taken, end), expect, "AVX2 copy on bytes");
                    }
                    let (mut out8, mut out16) = (Vec::new(), Vec::new());
                    let a = collect_wanted_xors(&bytes, m, lo, hi, &bits, &mut out8);
                    let b = collect_wanted_xors(&wide, m, lo, hi, &bits, &mut out16);
                    assert_eq!((a, &out8), (b, &out16), "collect m {m} lo {lo} hi {hi}");
                }
            }
            let positions: Vec<u32> = vec![16, 17, 25, 40, 41, 100, 200, 284, 1000, 2999];
            let m0 = 3000;
            if below <= 64 {
                for narrow in [false, true] {
                    let (b8, b16): (Vec<u8>, Vec<u16>) = if narrow {
                        (
                            bytes.iter().map(|v| v % 32).collect(),
                            wide.iter().map(|v| v % 32).collect(),
                        )
                    } else {
                        (bytes.clone(), wide.clone())
                    };
                    let (mut k8, mut k16) = ([0u64; BLOCK], [0u64; BLOCK]);
                    far_masks(&b8, &positions, m0, narrow, &mut k8);
                    far_masks(&b16, &positions, m0, narrow, &mut k16);
                    assert_eq!(k8, k16);
                }
            }
            for (stride, span) in [(256 + 64, 256), (256, 256), (4096, 4096), (300, 256)] {
                let (mut m8, mut m16) =
                    (vec![0u8; MAP_BLOCK * stride], vec![0u8; MAP_BLOCK * stride]);
                far_maps(&bytes, &[], &positions, m0, &mut m8, stride, span);
                far_maps(&wide, &[], &positions, m0, &mut m16, stride, span);
                assert_eq!(m8, m16, "far_maps stride {stride}");
                let marked = m8.iter().filter(|&&b| b == 1).count();
                assert!(marked >= MAP_BLOCK, "far_maps marked {marked}");
            }
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
