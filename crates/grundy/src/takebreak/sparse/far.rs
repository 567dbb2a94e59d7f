//! The far rare options of a block of heaps, marked in registers (AVX-512) when the split is a
//! parity mask.
//!
//! Setting. For Officers and games like it the common values are those with an odd number of
//! bits in `v & M` for a fixed mask `M` (Officers: `M = 0b1_1110_1110`, the rare values of
//! Grossman, "Searching for periodicity in Officers", Games of No Chance 5, 2019), the rare
//! positions all lie near the start, and for a heap `n` far beyond them every option
//! `G(r) ^ G(m - r)` with a rare `r` and the split move's heap `m = n - k` has a rare value
//! xor a common one: a common value. The wide path marks these ~1,600 options per heap one byte
//! store each ([`super::kernels::far_maps`]); this module marks them without any store.
//!
//! Compression. On the values with odd `M`-parity (the set `S`) the map `D` that drops bit `b`
//! (the lowest bit of `M`) is one to one — the dropped bit is the parity of the others — and
//! increasing (two such values that first differ at bit `b` would agree on every other bit of
//! `M`, so their parities would differ). It is linear, so `D(G(r) ^ G(p)) = D(G(r) ^ G(p))` can
//! be taken on the xor: about half as many bits to keep per heap as raw values.
//!
//! Transposed marking. For [`FAR_BLOCK`] = 32 consecutive heaps `m0 + j` and one far rare `r`,
//! the partners `G(m0 + j - r)` are 32 *consecutive* values: one vector load. Lane `j` of
//! register `W_t` holds bits `16 t .. 16 t + 16` of heap `j`'s set of compressed values; one
//! option vector updates it with a subtract, a variable shift (counts of 16 or more shift the
//! bit out, which is how the lanes outside the word are ignored) and an or. Only the first
//! [`TRACKED_WORDS`] words are kept; a heap whose candidate lies beyond them marks its far
//! options the old way (`fallbacks`).
//!
//! What must hold, checked as the values come (not assumed from the split): every far rare
//! position has even `M`-parity, and every partner position has odd `M`-parity (the last
//! position with even parity lies below the block's lowest partner). Then every far option is in
//! `S`, and the compressed set is exact. Anything else — no such mask, a partner that is rare
//! (heaps near the start), a processor without AVX-512 — keeps the byte-map path.

use crate::takebreak::values::Value;

/// Heaps per block (16-bit lanes of one AVX-512 register).
pub const FAR_BLOCK: usize = 32;

/// 16-bit words of compressed values kept per heap: compressed values below 160, raw values
/// below 320 for Officers (its candidates go up to 263 by n = 2^22; values up to 319).
pub const TRACKED_WORDS: usize = 9;

/// Raw bit-set words that the compressed words expand to (64 raw values hold 32 of `S`).
pub const RAW_WORDS: usize = (TRACKED_WORDS * 16).div_ceil(32);

/// Compressed values of one heap: bit `d % 64` of word `d / 64`, `d < 16 * TRACKED_WORDS`.
pub type Compressed = [u64; TRACKED_WORDS.div_ceil(4)];

/// The compression of values of odd `M`-parity: drop bit `b`, the lowest bit of `M`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Compression {
    mask: u16,
    b: u32,
}

impl Compression {
    /// The compression for parity mask `mask`; `None` when the mask is zero or its lowest bit
    /// is 6 or more (the expansion below works word by word on 64 raw values).
    pub fn new(mask: u16) -> Option<Self> {
        let b = mask.trailing_zeros();
        (mask != 0 && b < 6).then_some(Compression { mask, b })
    }

    /// Whether `v` has odd `M`-parity (is in `S`).
    #[inline]
    pub fn odd(&self, v: u16) -> bool {
        (v & self.mask).count_ones() % 2 == 1
    }

    /// `D(x)`: `x` without bit `b` (the kernel computes it in registers).
    #[cfg(test)]
    pub fn compress(&self, x: u16) -> u16 {
        let low = (1u16 << self.b) - 1;
        (x & low) | ((x >> 1) & !low)
    }

    /// The value of `S` whose compression is `d`.
    pub fn expand(&self, d: u32) -> u32 {
        let low = (1u32 << self.b) - 1;
        let spread = (d & low) | ((d & !low) << 1);
        let parity = (spread & self.mask as u32).count_ones() % 2;
        spread | (parity ^ 1) << self.b
    }

    /// The raw values of raw word `w` (bit `x % 64` for value `x`) that are in `S`.
    fn pattern(&self, w: usize) -> u64 {
        let base = ((64 * w) as u32 & self.mask as u32).count_ones() % 2;
        (0..64u32)
            .filter(|&t| ((t & self.mask as u32).count_ones() + base) % 2 == 1)
            .fold(0, |acc, t| acc | 1 << t)
    }

    /// Expand compressed bit-set words (bit `d % 64` of word `d / 64`) into raw ones: raw word
    /// `w` holds the values of `S` in `64 w .. 64 w + 64`, whose compressions are
    /// `32 w .. 32 w + 32` in the same order.
    pub fn expand_words(
        &self,
        compressed: &Compressed,
        patterns: &[u64; RAW_WORDS],
        raw: &mut [u64; RAW_WORDS],
    ) {
        for (w, out) in raw.iter_mut().enumerate() {
            let half = (compressed[w / 2] >> (32 * (w % 2))) as u32;
            *out = deposit(half as u64, patterns[w]);
        }
    }

    /// [`Self::pattern`] for every raw word.
    pub fn patterns(&self) -> [u64; RAW_WORDS] {
        std::array::from_fn(|w| self.pattern(w))
    }

    /// The smallest value of `S` that the tracked words cannot hold: every raw value below it
    /// is exact.
    pub fn limit(&self) -> usize {
        self.expand((16 * TRACKED_WORDS) as u32) as usize
    }
}

/// Parallel bit deposit: the low bits of `x` into the set bits of `mask`, in order.
#[inline]
fn deposit(x: u64, mask: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("bmi2") {
            // SAFETY: the processor supports BMI2 (checked just above).
            return unsafe { deposit_bmi2(x, mask) };
        }
    }
    let (mut x, mut mask, mut out) = (x, mask, 0u64);
    while mask != 0 {
        let bit = mask & mask.wrapping_neg();
        if x & 1 != 0 {
            out |= bit;
        }
        x >>= 1;
        mask &= mask - 1;
    }
    out
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "bmi2")]
unsafe fn deposit_bmi2(x: u64, mask: u64) -> u64 {
    std::arch::x86_64::_pdep_u64(x, mask)
}

/// Whether this processor (and this compiler: the AVX-512 intrinsics need Rust 1.89, newer than
/// the crate's minimum) runs [`far_words`] in registers.
pub fn available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        compiled_512()
            && std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512bw")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

#[cfg(target_arch = "x86_64")]
#[rustversion::since(1.89)]
fn compiled_512() -> bool {
    true
}

#[cfg(target_arch = "x86_64")]
#[rustversion::before(1.89)]
fn compiled_512() -> bool {
    false
}

/// Per heap `m0 + j` (`j < FAR_BLOCK`), the compressed values `D(G(r) ^ G(m0 + j - r))` below
/// `16 * TRACKED_WORDS` for every `r` in `far`, or-ed into `sets[j]` (bit `d % 64` of word
/// `d / 64`). Every `r` must satisfy `r <= m0` and `m0 - r + FAR_BLOCK <= g.len()`
/// (checked: a panic otherwise, never a read outside `g`). Returns
/// `false` (and does nothing) when the processor lacks AVX-512 (see [`available`]).
pub fn far_words<V: Value>(
    g: &[V],
    head: &[u16],
    far: &[u32],
    m0: usize,
    compression: &Compression,
    sets: &mut [Compressed; FAR_BLOCK],
) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        if available() {
            let mut words = [[0u16; FAR_BLOCK]; TRACKED_WORDS];
            far_words_512(g, head, far, m0, compression.b, &mut words);
            for (j, set) in sets.iter_mut().enumerate() {
                for (t, word) in words.iter().enumerate() {
                    set[t / 4] |= (word[j] as u64) << (16 * (t % 4));
                }
            }
            return true;
        }
    }
    let _ = (g, head, far, m0, compression, sets);
    false
}

/// [`far_words_avx512`] where this compiler has the intrinsics; callers check [`available`].
/// A store of low bytes ([`crate::takebreak::values::Odd8`]) takes [`far_words_gfni`] where the
/// processor has GFNI ([`super::kernels::gfni_available`]).
#[cfg(target_arch = "x86_64")]
#[rustversion::since(1.89)]
#[allow(clippy::incompatible_msrv)] // compiled by Rust >= 1.89 only
fn far_words_512<V: Value>(
    g: &[V],
    head: &[u16],
    far: &[u32],
    m0: usize,
    b: u32,
    out: &mut [[u16; FAR_BLOCK]; TRACKED_WORDS],
) {
    assert!(available());
    // (the lookups' test, asked once: every AVX-512 processor with GFNI has VBMI too)
    if V::ODD_MASK != 0 && super::kernels::gfni_available() {
        // SAFETY: AVX-512 F and BW (asserted just above) and GFNI are supported.
        return unsafe { far_words_gfni(g, head, far, m0, b, out) };
    }
    // SAFETY: AVX-512 F and BW are supported (asserted just above).
    unsafe { far_words_avx512(g, head, far, m0, b, out) }
}

/// Older compilers: never called ([`available`] is false).
#[cfg(target_arch = "x86_64")]
#[rustversion::before(1.89)]
fn far_words_512<V: Value>(
    _g: &[V],
    _head: &[u16],
    _far: &[u32],
    _m0: usize,
    _b: u32,
    _out: &mut [[u16; FAR_BLOCK]; TRACKED_WORDS],
) {
    unreachable!("no AVX-512 intrinsics before Rust 1.89")
}

/// The transposed marking of [`far_words`] given `D` of each far option (`compressed(r)`: the
/// 32 lanes `D(G(r) ^ G(m0 + j - r))`), one register per tracked word (a macro so that both
/// kernels below have it compiled with their own target features).
#[cfg(target_arch = "x86_64")]
macro_rules! mark_far_words {
    ($far:expr, $out:expr, $compressed:expr) => {{
        use std::arch::x86_64::*;
        let one = _mm512_set1_epi16(1);
        let mut words = [_mm512_setzero_si512(); TRACKED_WORDS];
        let compressed = $compressed;
        for &r in $far {
            let d = compressed(r as usize);
            for (t, word) in words.iter_mut().enumerate() {
                // counts of 16 or more (and "negative" ones, which wrap to large) shift the bit
                // out
                let count = _mm512_sub_epi16(d, _mm512_set1_epi16(16 * t as i16));
                *word = _mm512_or_si512(*word, _mm512_sllv_epi16(one, count));
            }
        }
        for (t, word) in words.iter().enumerate() {
            _mm512_storeu_si512($out[t].as_mut_ptr() as *mut __m512i, *word);
        }
    }};
}

#[cfg(target_arch = "x86_64")]
#[rustversion::since(1.89)]
#[allow(clippy::incompatible_msrv)] // compiled by Rust >= 1.89 only
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn far_words_avx512<V: Value>(
    g: &[V],
    head: &[u16],
    far: &[u32],
    m0: usize,
    b: u32,
    out: &mut [[u16; FAR_BLOCK]; TRACKED_WORDS],
) {
    use std::arch::x86_64::*;
    let low = _mm512_set1_epi16(((1u32 << b) - 1) as i16);
    mark_far_words!(far, out, |r: usize| {
        let window: &[V; FAR_BLOCK] = g[m0 - r..][..FAR_BLOCK].try_into().expect("32 values");
        // SAFETY: `window` is 32 values.
        let partners = super::kernels::load32(window.as_ptr());
        let v = super::kernels::at(g, head, r);
        let x = _mm512_xor_si512(partners, _mm512_set1_epi16(v as i16));
        // D(x) = low ? x : x >> 1 (bitwise select)
        _mm512_ternarylogic_epi32::<0xCA>(low, x, _mm512_srli_epi16::<1>(x))
    })
}

/// The matrix of the affine map (over GF(2), as `vgf2p8affineqb` takes it: row `k`, the bits
/// that output bit `k` is the parity of, is byte `7 - k`) that takes the byte `y` of an
/// [`crate::takebreak::values::Odd8`] value `v` to `D(v)`, the value without bit `b`; with the
/// constant `0x80`. Output bit `k` is bit `k` of `v` below `b`, bit `k + 1` from `b` on; bit
/// 8 of `v` (output bit 7, as `b < 6`) is `1 ^ parity(y & M)`, an affine function of `y`.
#[cfg(target_arch = "x86_64")]
fn odd8_compression_matrix(mask: u16, b: u32) -> u64 {
    debug_assert!(b < 6);
    let mut matrix = 0u64;
    for k in 0..8u32 {
        let source = if k < b { k } else { k + 1 };
        let row = if source < 8 {
            1u64 << source
        } else {
            (mask & 0xFF) as u64
        };
        matrix |= row << (8 * (7 - k));
    }
    matrix
}

/// [`far_words_avx512`] on a store of low bytes ([`crate::takebreak::values::Odd8`]): `D` of a
/// partner is an affine function of its byte (bit 8 is a parity of the others, and `D` drops a
/// bit), so one `vgf2p8affineqb` takes 32 bytes to their `D`, widened and xored with `D(G(r))`
/// (`D` is linear): no bit 8 is rebuilt and nothing is compressed after the load (the rebuild
/// cost the byte store a third more time in this kernel than `u16`).
///
/// # Safety
/// The processor supports AVX-512 F and BW and GFNI; `V` is a one-byte value type.
#[cfg(target_arch = "x86_64")]
#[rustversion::since(1.89)]
#[allow(clippy::incompatible_msrv)] // compiled by Rust >= 1.89 only
#[target_feature(enable = "avx512f,avx512bw,gfni")]
unsafe fn far_words_gfni<V: Value>(
    g: &[V],
    head: &[u16],
    far: &[u32],
    m0: usize,
    b: u32,
    out: &mut [[u16; FAR_BLOCK]; TRACKED_WORDS],
) {
    use std::arch::x86_64::*;
    assert!(V::BYTES == 1);
    let matrix = _mm256_set1_epi64x(odd8_compression_matrix(V::ODD_MASK, b) as i64);
    let low = (1u32 << b) - 1;
    mark_far_words!(far, out, |r: usize| {
        let window: &[V; FAR_BLOCK] = g[m0 - r..][..FAR_BLOCK].try_into().expect("32 values");
        // SAFETY: `window` is 32 values of one byte each.
        let bytes = _mm256_loadu_si256(window.as_ptr() as *const __m256i);
        let partners = _mm512_cvtepu8_epi16(_mm256_gf2p8affine_epi64_epi8::<0x80>(bytes, matrix));
        let v = super::kernels::at(g, head, r) as u32;
        let dv = (v & low) | ((v >> 1) & !low);
        _mm512_xor_si512(partners, _mm512_set1_epi16(dv as i16))
    })
}

/// The state of the register path: the mask, what has been checked, the current block.
#[derive(Clone, Debug)]
pub(super) struct FarState {
    /// Off in tests that compare with the byte-map path.
    pub(super) enabled: bool,
    /// Tests lower it to send more heaps beyond the tracked words.
    pub(super) limit_cap: usize,
    /// The `rare_epoch` the mask was chosen at (0 = never).
    epoch: u64,
    compression: Option<Compression>,
    /// The engine's `span` when the mask was chosen.
    span: usize,
    patterns: [u64; RAW_WORDS],
    limit: usize,
    /// Positions below this have been checked against the mask.
    scanned: usize,
    /// The last position `>= 1` below `scanned` with even `M`-parity (0 = none).
    last_even: usize,
    /// `rare[..rare_checked]` have been checked; the first with odd parity, if any.
    rare_checked: usize,
    odd_rare: usize,
    /// The block: heaps `start .. start + FAR_BLOCK`, built for `block_epoch`.
    start: usize,
    block_epoch: u64,
    valid: bool,
    near_end: usize,
    far_end: Vec<usize>,
    raw: Vec<[u64; RAW_WORDS]>,
    /// Heaps whose candidate came from this path, and those of them that marked their far
    /// options one by one (candidate beyond the tracked words).
    pub(super) heaps: u64,
    pub(super) fallbacks: u64,
    /// The same since the last look at the rate of fallbacks; blocks left to the byte maps
    /// (many fallbacks: the registers would be work thrown away), and the next such pause.
    window_heaps: u64,
    window_fallbacks: u64,
    paused: u32,
    pause: u32,
    /// Bit-set words of the far options of a heap that falls back.
    scratch: Vec<u64>,
}

impl FarState {
    /// Forget what was derived from the values at positions `f..` (the two-thread pipeline
    /// discarded them): the block's marks, and the mask check from `f` on — from the start
    /// when the last position of even parity it remembers is one of the discarded values.
    pub(super) fn forget_from(&mut self, f: usize) {
        self.block_epoch = 0;
        self.scanned = self.scanned.min(f.max(1));
        if self.last_even >= f {
            self.epoch = 0;
        }
    }
}

/// Heaps between looks at the rate of fallbacks.
const WINDOW: u64 = 1024;
/// The register path pauses when more than one heap in this many falls back.
const FALLBACK_RATIO: u64 = 16;
/// First and longest pause, in blocks.
const PAUSE: u32 = 32;
const PAUSE_MAX: u32 = 1 << 12;

impl Default for FarState {
    fn default() -> Self {
        FarState {
            enabled: true,
            limit_cap: usize::MAX,
            epoch: 0,
            compression: None,
            span: 0,
            patterns: [0; RAW_WORDS],
            limit: 0,
            scanned: 1,
            last_even: 0,
            rare_checked: 0,
            odd_rare: usize::MAX,
            start: 0,
            block_epoch: 0,
            valid: false,
            near_end: 0,
            far_end: Vec::new(),
            raw: vec![[0; RAW_WORDS]; FAR_BLOCK],
            heaps: 0,
            fallbacks: 0,
            window_heaps: 0,
            window_fallbacks: 0,
            paused: 0,
            pause: PAUSE,
            scratch: Vec::new(),
        }
    }
}

/// A mask `M` with odd `M`-parity exactly on the keys `(v, q)` in `common` among those in
/// `keys` (Gaussian elimination over GF(2)); `None` when no mask does.
fn solve_mask(keys: impl Iterator<Item = (u16, bool)>) -> Option<u16> {
    // rows by their highest bit: (row, right-hand side)
    let mut rows: [Option<(u16, bool)>; 16] = [None; 16];
    for (v, common) in keys {
        let (mut x, mut y) = (v, common);
        loop {
            if x == 0 {
                if y {
                    return None; // 0 = 1: no mask
                }
                break;
            }
            let p = 15 - x.leading_zeros() as usize;
            match rows[p] {
                Some((rx, ry)) => {
                    x ^= rx;
                    y ^= ry;
                }
                None => {
                    rows[p] = Some((x, y));
                    break;
                }
            }
        }
    }
    // bits without a row are 0; each row fixes its highest bit from the lower ones
    let mut mask = 0u16;
    for (p, row) in rows.iter().enumerate() {
        if let Some((x, y)) = *row {
            let rest = ((x & !(1 << p)) & mask).count_ones() % 2 == 1;
            if y ^ rest {
                mask |= 1 << p;
            }
        }
    }
    Some(mask)
}

impl super::RareCommon {
    /// The parity mask that matches the current split on every key seen so far, if any.
    fn derive_far_mask(&self) -> Option<Compression> {
        let keys = self
            .counts
            .iter()
            .enumerate()
            .filter(|(_, &c)| c > 0)
            .map(|(key, _)| {
                let (v, q) = ((key / 2) as u16, key % 2);
                (v, self.split.is_common(v, q))
            });
        solve_mask(keys).and_then(Compression::new)
    }

    /// Choose the mask again and check every position from the start.
    fn reset_far_mask(&mut self) {
        let compression = self.derive_far_mask();
        let far = &mut self.wide.far;
        far.span = self.span;
        far.compression = compression;
        if let Some(c) = compression {
            far.patterns = c.patterns();
            far.limit = c.limit().min(far.limit_cap);
        }
        far.scanned = 1;
        far.last_even = 0;
        far.rare_checked = 0;
        far.odd_rare = usize::MAX;
    }

    /// Check positions `scanned .. g.len()` against the mask (re-choosing it if a position
    /// disagrees with the split), and the rare positions not checked yet.
    fn scan_far_mask<V: Value>(&mut self, g: &[V]) {
        if self.wide.far.epoch != self.rare_epoch {
            self.wide.far.epoch = self.rare_epoch;
            self.reset_far_mask();
        }
        let mut rechosen = false;
        loop {
            let Some(c) = self.wide.far.compression else {
                return;
            };
            let far = &mut self.wide.far;
            let mut disagrees = false;
            for i in far.scanned..g.len() {
                let v = super::kernels::at(g, &self.head, i);
                let odd = c.odd(v);
                if !odd {
                    far.last_even = i;
                }
                disagrees |= odd != self.split.is_common(v, i & 1);
            }
            far.scanned = far.scanned.max(g.len());
            if !disagrees || rechosen {
                break;
            }
            // a value past every earlier one (a new bit): a mask chosen now may fit; if it is
            // the same mask, or no new bit came, what was checked stands
            rechosen = true;
            if self.span == self.wide.far.span {
                break;
            }
            if self.derive_far_mask() == Some(c) {
                self.wide.far.span = self.span;
                break;
            }
            self.reset_far_mask();
        }
        let far = &mut self.wide.far;
        if let Some(c) = far.compression {
            for (k, &r) in self.rare.iter().enumerate().skip(far.rare_checked) {
                if !c.odd(super::kernels::at(g, &self.head, r as usize)) {
                    continue;
                }
                far.odd_rare = far.odd_rare.min(k);
            }
            far.rare_checked = self.rare.len();
        }
    }

    /// Mark the far rare options of heaps `g.len() ..` in registers, if the conditions hold.
    fn build_far_block<V: Value>(&mut self, g: &[V]) {
        let n = g.len();
        self.scan_far_mask(g);
        let rare = &self.rare;
        let far = &mut self.wide.far;
        far.start = n;
        far.block_epoch = self.rare_epoch;
        far.valid = false;
        let Some(c) = far.compression else {
            return;
        };
        if far.window_heaps >= WINDOW {
            // games whose candidates often lie beyond the tracked words (0.437) leave the
            // registers alone for a while, twice as long after each such look
            if far.window_fallbacks * FALLBACK_RATIO > far.window_heaps {
                far.paused = far.pause;
                far.pause = (2 * far.pause).min(PAUSE_MAX);
            } else {
                far.pause = PAUSE;
            }
            far.window_heaps = 0;
            far.window_fallbacks = 0;
        }
        if far.paused > 0 {
            far.paused -= 1;
            return;
        }
        far.near_end = rare.partition_point(|&r| (r as usize) < FAR_BLOCK);
        far.far_end.clear();
        let mut sets = [[0u64; TRACKED_WORDS.div_ceil(4)]; FAR_BLOCK];
        for m0 in self.moves.split_heaps(n) {
            let far_end = if m0 >= 2 {
                rare.partition_point(|&r| (r as usize) < super::wide::far_below(m0, &self.head))
                    .max(far.near_end)
            } else {
                far.near_end
            };
            far.far_end.push(far_end);
            let positions = &rare[far.near_end..far_end];
            let Some(&r_max) = positions.last() else {
                continue;
            };
            // every far rare position of even parity, every partner of odd parity
            if far_end > far.odd_rare || m0 - r_max as usize <= far.last_even {
                return;
            }
            if !far_words(g, &self.head, positions, m0, &c, &mut sets) {
                return;
            }
            self.stats.rare_options += (positions.len() * FAR_BLOCK) as u64;
        }
        for (raw, set) in far.raw.iter_mut().zip(&sets) {
            c.expand_words(set, &far.patterns, raw);
        }
        far.valid = true;
    }

    /// The candidate of heap `n = g.len()` (the first value neither found nor blocked, with the
    /// options found in `self.wide.found[..words]`), from the register path; `None` where it
    /// does not apply (then the byte-map path computes it).
    pub(super) fn far_candidate<V: Value>(&mut self, g: &[V], words: usize) -> Option<usize> {
        let n = g.len();
        if !self.wide.far.enabled {
            return None;
        }
        let far = &self.wide.far;
        if far.block_epoch != self.rare_epoch || n < far.start || n >= far.start + FAR_BLOCK {
            if !available() {
                self.wide.far.enabled = false;
                return None;
            }
            self.build_far_block(g);
        }
        let state = &mut self.wide;
        let far = &mut state.far;
        if !far.valid {
            return None;
        }
        // the few options left (no heap, one heap, rare positions near the start or above the
        // block's split heaps) straight into the bit set: a read-modify-write each
        let found = &mut state.found[..words];
        found.fill(0);
        found[..RAW_WORDS.min(words)]
            .copy_from_slice(&far.raw[n - far.start][..RAW_WORDS.min(words)]);
        let set = |found: &mut [u64], x: u16| found[x as usize / 64] |= 1 << (x % 64);
        if self.moves.whole.contains(&n) {
            set(found, 0);
        }
        for &k in &self.moves.take {
            if k < n {
                set(found, super::kernels::at(g, &self.head, n - k));
            }
        }
        let head = &self.head;
        let mark = |found: &mut [u64], positions: &[u32], m: usize| {
            for &r in positions {
                let r = r as usize;
                if r < m {
                    set(
                        found,
                        super::kernels::at(g, head, r) ^ super::kernels::at(g, head, m - r),
                    );
                }
            }
        };
        for (s, m) in self.moves.split_heaps(n).enumerate() {
            if m >= 2 {
                mark(found, &self.rare[..far.near_end], m);
                mark(found, &self.rare[far.far_end[s]..], m);
            }
        }
        let blocked = &self.split.blocked_words(n & 1)[..words];
        let mut free = super::wide::first_free(found, blocked);
        far.heaps += 1;
        far.window_heaps += 1;
        if free >= far.limit {
            // beyond the tracked words: every far option one by one, one byte store each (as
            // the byte-map path: a read-modify-write per bit would chain on the same words)
            far.fallbacks += 1;
            far.window_fallbacks += 1;
            let seen = &mut state.seen[..words * 64];
            seen.fill(0);
            for (s, m) in self.moves.split_heaps(n).enumerate() {
                if m >= 2 {
                    for &r in &self.rare[far.near_end..far.far_end[s]] {
                        let r = r as usize;
                        seen[(super::kernels::at(g, &self.head, r) ^ g[m - r].get()) as usize] = 1;
                    }
                }
            }
            far.scratch.resize(words, 0);
            super::kernels::pack_bytes(seen, &mut far.scratch);
            for (f, x) in found.iter_mut().zip(&far.scratch) {
                *f |= x;
            }
            free = super::wide::first_free(found, blocked);
        }
        Some(free)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::takebreak::values::Odd8;

    /// A deterministic stream of pseudo-random numbers (xorshift).
    fn stream(seed: u64) -> impl FnMut() -> u64 {
        let mut s = seed | 1;
        move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        }
    }

    #[test]
    fn the_mask_is_found_from_the_keys_or_refused() {
        let officers = 0b1_1110_1110u16;
        let keys = (0..320u16).map(|v| (v, (v & officers).count_ones() % 2 == 1));
        assert_eq!(solve_mask(keys), Some(officers));
        // bits no value uses are left out of the mask
        let keys = (0..64u16).map(|v| (v, (v & 0b10_0110).count_ones() % 2 == 1));
        assert_eq!(solve_mask(keys), Some(0b10_0110));
        // 1 and 2 common, 3 = 1 ^ 2 common too: no parity mask
        assert_eq!(
            solve_mask([(1, true), (2, true), (3, true)].into_iter()),
            None
        );
        // 0 can never be common
        assert_eq!(solve_mask([(0, true)].into_iter()), None);
    }

    #[test]
    fn compression_is_one_to_one_increasing_and_linear_on_odd_values() {
        for mask in [
            0b1_1110_1110u16,
            0b1_0000_0001,
            0b10_0110_0100,
            0b111,
            0b10_0000,
        ] {
            let c = Compression::new(mask).unwrap();
            let odd: Vec<u16> = (0..2048u16).filter(|&v| c.odd(v)).collect();
            for pair in odd.windows(2) {
                assert!(c.compress(pair[0]) < c.compress(pair[1]), "mask {mask:#b}");
            }
            for &v in &odd {
                assert_eq!(c.expand(c.compress(v) as u32), v as u32, "mask {mask:#b}");
            }
            for (x, y) in [(3u16, 700u16), (255, 256), (1000, 31)] {
                assert_eq!(c.compress(x ^ y), c.compress(x) ^ c.compress(y));
            }
            // the compressions are 0, 1, 2, ... in order
            for (d, &v) in odd.iter().enumerate().take(500) {
                assert_eq!(c.compress(v) as usize, d, "mask {mask:#b}");
            }
        }
        assert_eq!(Compression::new(0), None);
        assert_eq!(Compression::new(0b100_0000), None);
    }

    #[test]
    fn expanded_words_hold_exactly_the_values_of_the_compressed_ones() {
        let mut next = stream(7);
        for mask in [0b1_1110_1110u16, 0b11, 0b10_1010_1000, 0b1_0000_0001] {
            let c = Compression::new(mask).unwrap();
            let patterns = c.patterns();
            for _ in 0..50 {
                let compressed: Compressed = std::array::from_fn(|_| next());
                let mut raw = [0u64; RAW_WORDS];
                c.expand_words(&compressed, &patterns, &mut raw);
                for x in 0..64 * RAW_WORDS as u32 {
                    let raw_bit = raw[x as usize / 64] >> (x % 64) & 1 == 1;
                    let expect = c.odd(x as u16) && {
                        let d = c.compress(x as u16) as usize;
                        d < 64 * compressed.len() && compressed[d / 64] >> (d % 64) & 1 == 1
                    };
                    assert_eq!(raw_bit, expect, "mask {mask:#b} value {x}");
                }
            }
            // every raw value below the limit is within the tracked words
            let limit = c.limit();
            assert!((0..limit as u16)
                .filter(|&v| c.odd(v))
                .all(|v| (c.compress(v) as usize) < 16 * TRACKED_WORDS));
            assert!(c.odd(limit as u16) && c.compress(limit as u16) as usize == 16 * TRACKED_WORDS);
        }
    }

    /// The plain loop the kernel must agree with.
    fn plain(g: &[u16], far: &[u32], m0: usize, c: &Compression) -> [Compressed; FAR_BLOCK] {
        let mut sets = [[0u64; TRACKED_WORDS.div_ceil(4)]; FAR_BLOCK];
        for &r in far {
            let r = r as usize;
            for (j, set) in sets.iter_mut().enumerate() {
                let d = c.compress(g[r] ^ g[m0 + j - r]) as usize;
                if d < 16 * TRACKED_WORDS {
                    set[d / 64] |= 1 << (d % 64);
                }
            }
        }
        sets
    }

    #[test]
    fn the_kernel_matches_a_plain_loop() {
        if !available() {
            eprintln!("no AVX-512 here: the kernel is not used, nothing to compare");
            return;
        }
        let mut next = stream(11);
        for mask in [0b1_1110_1110u16, 0b110, 0b1_0000_0001, 0b10_0000_0000_0010] {
            let c = Compression::new(mask).unwrap();
            for round in 0..40 {
                let len = 200 + (next() % 3000) as usize;
                // values of every size, many of them above the tracked range
                let top = [512u64, 1024, 65536][round % 3];
                let g: Vec<u16> = (0..len).map(|_| (next() % top) as u16).collect();
                // m0 anywhere from the smallest allowed to the last allowed
                let m0 = FAR_BLOCK + (next() as usize % (len - 2 * FAR_BLOCK));
                let m0 = if round == 0 { len - FAR_BLOCK } else { m0 };
                // a random sorted list of positions in FAR_BLOCK..=m0, both ends included at times
                let mut far: Vec<u32> = (FAR_BLOCK..=m0)
                    .filter(|_| next() % 4 == 0)
                    .map(|r| r as u32)
                    .collect();
                if round % 5 == 0 {
                    far.insert(0, FAR_BLOCK as u32);
                    far.push(m0 as u32);
                    far.dedup();
                }
                let mut sets = [[0u64; TRACKED_WORDS.div_ceil(4)]; FAR_BLOCK];
                // what is already in the sets stays
                sets[3][0] = 1 << 5;
                let mut expect = plain(&g, &far, m0, &c);
                expect[3][0] |= 1 << 5;
                assert!(far_words(&g, &[], &far, m0, &c, &mut sets));
                assert_eq!(sets, expect, "mask {mask:#b} round {round} m0 {m0}");
                // the same values below 256 stored as bytes
                let low: Vec<u16> = g.iter().map(|&v| v % 256).collect();
                let bytes: Vec<u8> = low.iter().map(|&v| v as u8).collect();
                let mut sets = [[0u64; TRACKED_WORDS.div_ceil(4)]; FAR_BLOCK];
                assert!(far_words(&bytes, &[], &far, m0, &c, &mut sets));
                assert_eq!(sets, plain(&low, &far, m0, &c), "bytes, round {round}");
            }
            // values of a store of low bytes with a head (`Odd8`): every far partner lies past
            // the head, the positions' values may be anything (read from the head)
            for round in 0..20 {
                let len = 400 + (next() % 3000) as usize;
                let h = 64 * (1 + (next() % 4) as usize);
                let fitting: Vec<u16> = (0..512)
                    .filter(|&v| Odd8::fits(v))
                    .map(|v| v as u16)
                    .collect();
                let g: Vec<u16> = (0..len)
                    .map(|i| match i < h {
                        true => (next() % 65536) as u16,
                        false => fitting[(next() % fitting.len() as u64) as usize],
                    })
                    .collect();
                let head = &g[..h];
                let bytes: Vec<Odd8> = g
                    .iter()
                    .map(|&v| Odd8::fit(v as usize).unwrap_or(Odd8(0xA5)))
                    .collect();
                let m0 = h + FAR_BLOCK + (next() as usize % (len - h - 2 * FAR_BLOCK));
                let m0 = if round == 0 { len - FAR_BLOCK } else { m0 };
                let far: Vec<u32> = (1..=m0 - h)
                    .filter(|_| next() % 3 == 0)
                    .map(|r| r as u32)
                    .collect();
                let mut sets = [[0u64; TRACKED_WORDS.div_ceil(4)]; FAR_BLOCK];
                assert!(far_words(&bytes, head, &far, m0, &c, &mut sets));
                assert_eq!(
                    sets,
                    plain(&g, &far, m0, &c),
                    "odd8, mask {mask:#b} round {round}"
                );
            }
            // no positions: nothing changes
            let g = vec![1u16; 100];
            let mut sets = [[0u64; TRACKED_WORDS.div_ceil(4)]; FAR_BLOCK];
            assert!(far_words(&g, &[], &[], 60, &c, &mut sets));
            assert_eq!(sets, [[0u64; TRACKED_WORDS.div_ceil(4)]; FAR_BLOCK]);
        }
    }
}
