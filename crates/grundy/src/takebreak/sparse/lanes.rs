//! The witness search's last values, for a block of up to 32 consecutive heaps at once.
//!
//! Why: at a frontier (0.206 past 6·10^8) a heap's witness search finds all but its last few
//! wanted values in about 5,300 splits, and then needs some 26,000 more for the last ones: they
//! are the rarest, and each has a rare bit (the [`super::wide::BitIndex`]'s bit `j`: every
//! split producing such a value has one part whose value has bit `j`). Looking those parts up
//! in a list of the positions with bit `j` is a gather per listed position, one heap at a time
//! (about 0.8 ns each against 0.11 ns a contiguous split): slower than the contiguous scan
//! there (`docs/performance.md`, "The witness index at the frontier"). But the partners of one
//! listed position `p` in 32 consecutive heaps `m0 .. m0 + 32` are 32 consecutive values
//! `G(m0 - p .. m0 - p + 32)`: one load, one xor with `G(p)` and a compare with each lane's
//! wanted values give the 32 heaps' options through `p` at once. So a verifier of the pipeline
//! stops a heap's search once every value it still wants has bit `j` (at most [`SLOTS`] of
//! them), and looks for the deferred heaps' values here, in lanes, at the end of its batch.
//!
//! Why it stays exact: a value found here is `G(p) ^ G(m - p)` for a split `(p, m - p)` of the
//! heap's split move leaving `m`, with `1 <= p < m`: an option of the heap. The list holds
//! every position `p >= 1` below the block's largest `m` whose value has bit `j`, so a wanted
//! value with bit `j` that is an option has a witness with a listed part, and the scan (every
//! listed `p < m`, per split move) meets it; a value left over after the whole list has no
//! witness. The verifier does not rely on that last step: it runs a heap with a value left
//! over through the ordinary search again, from its job's options, which proves its value
//! either way. The list is a verifier's own, built from the values it reads (so it is in step
//! with them), and cut back where a rollback rewrites values.

use super::{OctalMoves, SparseStats};

/// Heaps per block: the lanes of one AVX-512 register of `u16`s.
pub(super) const LANES: usize = 32;

/// Wanted values per heap at most (the search defers only as few).
pub(super) const SLOTS: usize = 16;

/// Listed positions between a partners' prefetch and their load.
const AHEAD: usize = 32;

/// A lane with no value there (never an option: the search defers only below 4096).
const EMPTY: u16 = u16::MAX;

/// The positions `1..covered` whose value has bit `bit`, with their values (ascending).
#[derive(Clone, Debug, Default)]
pub(super) struct TailList {
    bit: Option<u32>,
    positions: Vec<u32>,
    values: Vec<u16>,
    covered: usize,
}

impl TailList {
    /// Forget the positions from `len` on (their values may be rewritten).
    pub(super) fn keep_below(&mut self, len: usize) {
        let keep = self.positions.partition_point(|&p| (p as usize) < len);
        self.positions.truncate(keep);
        self.values.truncate(keep);
        self.covered = self.covered.min(len);
    }

    /// List bit `bit`'s positions below `upto` (`g` holds them); another bit starts over.
    fn extend(&mut self, bit: u32, g: &[u16], upto: usize) {
        if self.bit != Some(bit) {
            *self = TailList {
                bit: Some(bit),
                ..TailList::default()
            };
        }
        let from = self.covered.max(1);
        // (positions in 32 bits: the pipeline defers no search past them)
        let upto = upto.min(u32::MAX as usize);
        if upto <= from {
            return;
        }
        for (i, &v) in g[from..upto].iter().enumerate() {
            if v >> bit & 1 == 1 {
                self.positions.push((from + i) as u32);
                self.values.push(v);
            }
        }
        self.covered = upto;
    }
}

/// A heap whose search stopped with `targets` still wanted (each with the list's bit); after
/// [`resolve`], the ones not found (none: the heap's candidate is proved).
#[derive(Clone, Debug)]
pub(super) struct Deferred {
    pub(super) n: usize,
    pub(super) targets: [u16; SLOTS],
    pub(super) count: usize,
    /// Where the caller finds the heap's job again.
    pub(super) job: usize,
    pub(super) words_at: usize,
}

impl Deferred {
    pub(super) fn new(n: usize, wanted: &[u16], job: usize, words_at: usize) -> Self {
        assert!(wanted.len() <= SLOTS, "at most {SLOTS} deferred values");
        let mut targets = [EMPTY; SLOTS];
        targets[..wanted.len()].copy_from_slice(wanted);
        Deferred {
            n,
            targets,
            count: wanted.len(),
            job,
            words_at,
        }
    }
}

/// The wanted values of one block, lane `j` being heap `base + j`: lane `j`'s values in
/// `slots[0..count[j]][j]` (a value found is replaced by the lane's last).
struct Block {
    slots: [[u16; LANES]; SLOTS],
    count: [usize; LANES],
}

impl Default for Block {
    fn default() -> Self {
        Block {
            slots: [[EMPTY; LANES]; SLOTS],
            count: [0; LANES],
        }
    }
}

impl Block {
    fn lanes(&self) -> u32 {
        (0..LANES)
            .filter(|&j| self.count[j] > 0)
            .fold(0, |m, j| m | 1 << j)
    }

    fn fullest(&self) -> usize {
        self.count.iter().copied().max().unwrap_or(0)
    }

    /// Lane `j` has the option `x`: take it out if it is wanted.
    #[inline]
    fn take(&mut self, j: usize, x: u16) {
        if let Some(t) = (0..self.count[j]).find(|&t| self.slots[t][j] == x) {
            self.count[j] -= 1;
            let last = self.count[j];
            self.slots[t][j] = self.slots[last][j];
            self.slots[last][j] = EMPTY;
        }
    }
}

/// Whether the lanes' kernel runs on this processor (the search defers only then).
pub(super) fn available() -> bool {
    scan_fast(&mut Block::default(), &[], 0, &[], &[]).is_some()
}

/// Look for the deferred heaps' values (ascending heaps, each above every split move's tokens
/// plus 64; every value wanted has bit `bit`) in the list of bit `bit`, extended over `g`,
/// which holds `G(0..n)` for every deferred heap `n`. Afterwards each heap's `count` is the
/// number of its values not found.
pub(super) fn resolve(
    list: &mut TailList,
    bit: u32,
    g: &[u16],
    moves: &OctalMoves,
    heaps: &mut [Deferred],
    stats: &mut SparseStats,
) {
    let Some(last) = heaps.last() else { return };
    let k_min = moves.split.iter().copied().min().unwrap_or(0);
    list.extend(bit, g, last.n - k_min);
    let mut i = 0;
    while i < heaps.len() {
        let base = heaps[i].n;
        let end = i + heaps[i..].partition_point(|d| d.n < base + LANES);
        let block = &mut heaps[i..end];
        let mut lanes = Block::default();
        for d in block.iter() {
            let j = d.n - base;
            for t in 0..d.count {
                lanes.slots[t][j] = d.targets[t];
            }
            lanes.count[j] = d.count;
        }
        stats.tail_blocks += 1;
        stats.tail_positions += scan_block(list, g, moves, base, &mut lanes) as u64;
        for d in block.iter_mut() {
            let j = d.n - base;
            d.count = lanes.count[j];
            for t in 0..d.count {
                d.targets[t] = lanes.slots[t][j];
            }
        }
        i = end;
    }
}

/// One block's scan: for each split move, the listed positions where not every lane has its
/// split (one by one), then the rest in four stretches taken in turn in doubling chunks (as
/// the contiguous search, see `wide`), until every lane's values are found or the list ends.
/// Returns the listed positions looked at.
fn scan_block(
    list: &TailList,
    g: &[u16],
    moves: &OctalMoves,
    base: usize,
    lanes: &mut Block,
) -> usize {
    let mut looked = 0;
    let mut spans = Vec::with_capacity(4 * moves.split.len());
    for &k in &moves.split {
        let m0 = base - k;
        // positions p in m0 .. m0 + 31: lane j has the split (p, m0 + j - p) when p < m0 + j
        let lo = list.positions.partition_point(|&p| (p as usize) < m0);
        let hi = list
            .positions
            .partition_point(|&p| (p as usize) < m0 + LANES - 1);
        for (&p, &v) in list.positions[lo..hi].iter().zip(&list.values[lo..hi]) {
            looked += 1;
            for j in (p as usize - m0 + 1)..LANES {
                if lanes.count[j] > 0 {
                    lanes.take(j, v ^ g[m0 + j - p as usize]);
                }
            }
        }
        for s in 0..4 {
            spans.push((m0, s * lo / 4, (s + 1) * lo / 4));
        }
    }
    let mut step = 128;
    loop {
        let mut moved = false;
        for span in spans.iter_mut() {
            if lanes.fullest() == 0 {
                return looked;
            }
            let (m0, from, end) = *span;
            if from >= end {
                continue;
            }
            let to = (from + step).min(end);
            span.1 = to;
            moved = true;
            looked += scan(
                lanes,
                g,
                m0,
                &list.positions[from..to],
                &list.values[from..to],
            );
        }
        if !moved {
            return looked;
        }
        step = (step * 2).min(1 << 14);
    }
}

/// The lanes' scan of some listed positions `p < m0` (with their values): lane `j` takes the
/// option `G(p) ^ G(m0 + j - p)`. Returns the positions looked at (it stops once every lane's
/// values are found).
fn scan(lanes: &mut Block, g: &[u16], m0: usize, positions: &[u32], values: &[u16]) -> usize {
    scan_fast(lanes, g, m0, positions, values)
        .unwrap_or_else(|| scan_scalar(lanes, g, m0, positions, values))
}

/// [`scan_avx512`] where the processor (and the compiler: Rust 1.89 on) has it.
#[cfg(target_arch = "x86_64")]
#[rustversion::since(1.89)]
fn scan_fast(
    lanes: &mut Block,
    g: &[u16],
    m0: usize,
    positions: &[u32],
    values: &[u16],
) -> Option<usize> {
    // SAFETY: AVX-512 BW is there; each lane with values reads G(m0 + j - p) for p >= 1,
    // below m0 + j <= heap n - 1 < g.len() (the caller's heaps and list), and the other
    // lanes are masked off.
    std::arch::is_x86_feature_detected!("avx512bw")
        .then(|| unsafe { scan_avx512(lanes, g, m0, positions, values) })
}

#[cfg(not(target_arch = "x86_64"))]
fn scan_fast(_: &mut Block, _: &[u16], _: usize, _: &[u32], _: &[u16]) -> Option<usize> {
    None
}

#[cfg(target_arch = "x86_64")]
#[rustversion::before(1.89)]
fn scan_fast(_: &mut Block, _: &[u16], _: usize, _: &[u32], _: &[u16]) -> Option<usize> {
    None
}

/// [`scan`] one lane at a time (processors without AVX-512 BW, and the tests' reference).
fn scan_scalar(
    lanes: &mut Block,
    g: &[u16],
    m0: usize,
    positions: &[u32],
    values: &[u16],
) -> usize {
    for (k, (&p, &v)) in positions.iter().zip(values).enumerate() {
        for j in 0..LANES {
            if lanes.count[j] > 0 {
                lanes.take(j, v ^ g[m0 + j - p as usize]);
            }
        }
        if lanes.fullest() == 0 {
            return k + 1;
        }
    }
    positions.len()
}

/// [`scan`] with the 32 lanes in one register: per listed position one masked load of the
/// partners, one xor and a compare per slot still used by the fullest lane.
///
/// # Safety
/// AVX-512 BW; `g[m0 + j - p]` in bounds for every lane `j` with values and every `p` given,
/// `p < m0 + j`.
#[cfg(target_arch = "x86_64")]
#[rustversion::since(1.89)]
#[allow(clippy::incompatible_msrv)] // compiled by Rust >= 1.89 only
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn scan_avx512(
    lanes: &mut Block,
    g: &[u16],
    m0: usize,
    positions: &[u32],
    values: &[u16],
) -> usize {
    use std::arch::x86_64::*;
    let mut mask = lanes.lanes();
    let mut active = lanes.fullest();
    if active == 0 {
        return 0;
    }
    let load = |lanes: &Block, t: usize| _mm512_loadu_si512(lanes.slots[t].as_ptr().cast());
    let mut regs: [__m512i; SLOTS] = std::array::from_fn(|t| load(lanes, t));
    for (k, (&p, &v)) in positions.iter().zip(values).enumerate() {
        // lanes off the mask are not read (their heaps' values may not be written yet)
        let at = g.as_ptr().add(m0 - p as usize);
        if let Some(&q) = positions.get(k + AHEAD) {
            let ahead = g.as_ptr().wrapping_add(m0.wrapping_sub(q as usize));
            _mm_prefetch::<_MM_HINT_T0>(ahead.cast());
            _mm_prefetch::<_MM_HINT_T0>(ahead.wrapping_add(LANES - 1).cast());
        }
        // the next block's partners of this position: the line after these (the next block
        // most likely looks at this position too, and the lines are scattered over all values)
        _mm_prefetch::<_MM_HINT_T1>(at.wrapping_add(2 * LANES - 1).cast());
        let partners = _mm512_maskz_loadu_epi16(mask, at.cast());
        let x = _mm512_xor_si512(partners, _mm512_set1_epi16(v as i16));
        let mut hit = 0u32;
        for reg in &regs[..active] {
            hit |= _mm512_mask_cmpeq_epi16_mask(mask, x, *reg);
        }
        if hit == 0 {
            continue;
        }
        let mut xs = [0u16; LANES];
        _mm512_storeu_si512(xs.as_mut_ptr().cast(), x);
        while hit != 0 {
            let j = hit.trailing_zeros() as usize;
            hit &= hit - 1;
            lanes.take(j, xs[j]);
        }
        mask = lanes.lanes();
        active = lanes.fullest();
        if active == 0 {
            return k + 1;
        }
        for (t, reg) in regs.iter_mut().enumerate().take(active) {
            *reg = load(lanes, t);
        }
    }
    positions.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rng(state: &mut u64) -> u64 {
        *state ^= *state << 13;
        *state ^= *state >> 7;
        *state ^= *state << 17;
        *state
    }

    /// Random values below 4096 (so that most values have at most one witness), a list of bit
    /// 6, and a block whose lanes want values of that bit, some of them options only through a
    /// listed position where not every lane has its split: the lanes' scan (AVX-512 where
    /// there is one) takes out exactly what a plain loop over every lane's splits finds, and
    /// the scalar scan the same.
    #[test]
    fn a_block_takes_out_exactly_the_options_with_a_listed_part() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        for round in 0..40 {
            let len = 3000 + (rng(&mut state) % 2000) as usize;
            // bit 6 at about one position in 8
            let g: Vec<u16> = (0..len)
                .map(|_| {
                    let v = (rng(&mut state) % 4096) as u16;
                    if rng(&mut state) % 8 == 0 {
                        v | 64
                    } else {
                        v & !64
                    }
                })
                .collect();
            let split = [1 + (round % 3)];
            let moves = OctalMoves {
                whole: Vec::new(),
                take: Vec::new(),
                split: split.to_vec(),
            };
            let base = len - LANES - (rng(&mut state) % 500) as usize;
            let mut heaps = Vec::new();
            for j in 0..LANES {
                if rng(&mut state) % 4 == 0 {
                    continue; // a heap not deferred
                }
                let count = 1 + (rng(&mut state) % SLOTS as u64) as usize;
                let mut wanted: Vec<u16> = Vec::new();
                // the options through listed positions at the block's edge (p >= m0)
                let (k, n) = (split[0], base + j);
                for p in base - k..n - k {
                    let x = g[p] ^ g[n - k - p];
                    if g[p] >> 6 & 1 == 1 && x >> 6 & 1 == 1 && wanted.len() < count / 2 {
                        wanted.push(x);
                    }
                }
                while wanted.len() < count {
                    let w = (rng(&mut state) % 4096) as u16 | 64;
                    if !wanted.contains(&w) {
                        wanted.push(w);
                    }
                }
                heaps.push(Deferred::new(base + j, &wanted, j, 0));
            }
            let expected: Vec<Vec<u16>> = heaps
                .iter()
                .map(|d| {
                    let mut left = d.targets[..d.count].to_vec();
                    for &k in &split {
                        let m = d.n - k;
                        for a in 1..m {
                            let x = g[a] ^ g[m - a];
                            left.retain(|&w| w != x);
                        }
                    }
                    left.sort_unstable();
                    left
                })
                .collect();
            let mut list = TailList::default();
            let mut stats = SparseStats::default();
            let mut got = heaps.clone();
            resolve(
                &mut list,
                6,
                &g[..base + LANES],
                &moves,
                &mut got,
                &mut stats,
            );
            for (d, want) in got.iter().zip(&expected) {
                let mut left = d.targets[..d.count].to_vec();
                left.sort_unstable();
                assert_eq!(&left, want, "round {round}, heap {}", d.n);
            }
            // the scalar scan, block by block, the same
            let mut scalar = heaps.clone();
            let mut lanes = Block::default();
            for d in &scalar {
                for t in 0..d.count {
                    lanes.slots[t][d.n - base] = d.targets[t];
                }
                lanes.count[d.n - base] = d.count;
            }
            for &k in &split {
                let m0 = base - k;
                let cut = list.positions.partition_point(|&p| (p as usize) < m0);
                scan_scalar(
                    &mut lanes,
                    &g,
                    m0,
                    &list.positions[..cut],
                    &list.values[..cut],
                );
                let hi = list
                    .positions
                    .partition_point(|&p| (p as usize) < m0 + LANES - 1);
                for i in cut..hi {
                    let p = list.positions[i] as usize;
                    for j in p - m0 + 1..LANES {
                        if lanes.count[j] > 0 {
                            lanes.take(j, list.values[i] ^ g[m0 + j - p]);
                        }
                    }
                }
            }
            for d in scalar.iter_mut() {
                let mut left: Vec<u16> = (0..lanes.count[d.n - base])
                    .map(|t| lanes.slots[t][d.n - base])
                    .collect();
                left.sort_unstable();
                d.count = left.len();
                let i = heaps.iter().position(|h| h.n == d.n).unwrap();
                assert_eq!(left, expected[i], "scalar, round {round}, heap {}", d.n);
            }
            assert!(stats.tail_positions > 0 && stats.tail_blocks == 1);
        }
    }

    /// The list follows the values it is extended over, starts over for another bit, and
    /// forgets what is cut back.
    #[test]
    fn the_list_is_cut_back_and_extended_in_step_with_the_values() {
        let g: Vec<u16> = (0..100u16).map(|i| i * 7 % 50).collect();
        let listed = |bit: u32, upto: usize| -> Vec<u32> {
            (1..upto as u32)
                .filter(|&p| g[p as usize] >> bit & 1 == 1)
                .collect()
        };
        let mut list = TailList::default();
        list.extend(3, &g, 60);
        assert_eq!(list.positions, listed(3, 60));
        list.keep_below(40);
        assert_eq!(list.positions, listed(3, 40));
        let mut other = g.clone();
        other[45] ^= 8; // a rewritten value past the cut
        list.extend(3, &other, 100);
        let mut want = listed(3, 100);
        want.retain(|&p| p != 45);
        if other[45] >> 3 & 1 == 1 {
            want.push(45);
            want.sort_unstable();
        }
        assert_eq!(list.positions, want);
        assert!(list.values.iter().all(|v| v >> 3 & 1 == 1));
        list.extend(2, &g, 80);
        assert_eq!(list.positions, listed(2, 80));
    }
}
