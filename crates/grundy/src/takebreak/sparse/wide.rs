//! One value when values reach 64 or more: option sets are byte maps (marking an option is a
//! plain store, with no read-modify-write chain between options), packed into bit-set words
//! once the cheap options are in.
//!
//! Steps as in [`super::word`]. The witness search exploits one fact: while it runs, the first
//! missing value that no skipped option can produce stays put (the options it looks at were
//! either seen already or are common-common ones, which cannot produce it). So the values to
//! find are fixed at the start; the search marks them in a byte map and counts them down,
//! stopping at the very split that finds the last one.

use super::kernels::{self, HUGE_SET, MAP_BLOCK, SET_WIDTHS};
use super::split::VALUES;
use super::{
    record_hint, HintControl, Hints, Mode, OctalMoves, RareCommon, SparseStats, HINT_DEPTH,
    HINT_REACH,
};
use crate::takebreak::bitset::mex;
use crate::takebreak::values::Value;

/// Stretches of a heap's splits that the witness search takes in turn.
const SEGMENTS: usize = 4;
/// Splits per stretch and turn at first (doubling every round).
const SEGMENT_CHUNK: usize = 128;

/// Splits per look once at most four values are still wanted.
const TAIL_CHUNK: usize = 256;

/// With a [`Carry`], the later split moves' stretches take this share (1/x) of the first
/// move's chunk: what the first move finds is carried to the next heap, what the others find
/// is not (0.146 to 2^19: 14,224 splits per heap with equal chunks, 13,858 with a quarter).
const LATER_SHARE: usize = 4;

/// Splits per batch of the search's later rounds (where hints are not being recorded): the
/// wanted values met in a batch are collected without a branch per witness and taken out of the
/// wanted set at its end, so the search may look at up to this many splits past the one that
/// finds its last value. Taking each value at its split cost a mispredicted branch and a reload
/// of the wanted set's registers from the words just written (a store-forwarding stall) per
/// witness: about a hundred per heap of 0.146, whose wanted sets hold some 200 values.
const BATCH: usize = 512;

/// How many split moves keep hints on this path.
const HINTED_MOVES: usize = 2;

/// The wanted set as a bit set (bit `v % 32` of word `v / 32`) when every value is below
/// [`HUGE_SET`]; only the first `width / 32` words are used (and cleared: the words live in
/// the [`Witness`] state, so that a search for 512 values does not clear 4096 bits).
struct WantedBits<'a> {
    bits: &'a mut [u32; HUGE_SET / 32],
    /// How many values `bits` holds.
    left: u32,
    /// One of [`SET_WIDTHS`]: every value of the game is below it.
    width: usize,
}

/// `bits` as the first `W` words (`W` is at most `HUGE_SET / 32`).
#[inline(always)]
fn words<const W: usize>(bits: &mut [u32; HUGE_SET / 32]) -> &mut [u32; W] {
    (&mut bits[..W]).try_into().expect("W words")
}

impl WantedBits<'_> {
    /// The vectorised lookup of [`kernels::take_in_bits`] for this width.
    #[inline(always)]
    fn take<V: Value>(
        &mut self,
        g: &[V],
        m: usize,
        lo: usize,
        hi: usize,
        taken: &mut Vec<(usize, u16)>,
    ) -> Option<usize> {
        let (bits, left) = (&mut *self.bits, &mut self.left);
        match self.width {
            512 => kernels::take_in_bits(g, m, lo, hi, words::<16>(bits), left, taken),
            1024 => kernels::take_in_bits(g, m, lo, hi, words::<32>(bits), left, taken),
            2048 => kernels::take_in_bits(g, m, lo, hi, words::<64>(bits), left, taken),
            _ => kernels::take_in_bits(g, m, lo, hi, words::<128>(bits), left, taken),
        }
    }
}

/// State of the bit-set path: the candidate stage's (byte maps, packed options) and the
/// witness search's ([`Witness`], which the two-thread pipeline hands to its second thread).
#[derive(Clone)]
pub(super) struct WideState {
    /// `seen[x] != 0` when `x` is an option of the heap being computed.
    pub(super) seen: Box<[u8]>,
    /// `seen` packed (bit `x`).
    pub(super) found: Vec<u64>,
    block: MapBlock,
    /// The far rare options marked in registers (see [`super::far`]).
    pub(super) far: super::far::FarState,
    pub(super) witness: Witness,
    /// The second witness state of the pipeline (made on first use).
    pub(super) spare: Option<Witness>,
    /// The witness states of the pipeline's third and later threads.
    pub(super) extra: Vec<Witness>,
    /// During a pipeline call: the far options its verifiers prepare (see [`super::ahead`]).
    pub(super) ahead: Option<std::sync::Arc<super::ahead::Ahead>>,
}

/// The witness search's own state: nothing in it is read by the candidate stage.
#[derive(Clone)]
pub(super) struct Witness {
    /// `wanted[x] != 0` while the witness search still looks for `x` (all zero in between).
    wanted: Box<[u8]>,
    /// Per value, for the first split moves: past witnesses.
    hints: Vec<[Hints; HINTED_MOVES]>,
    hint_control: HintControl,
    targets: Vec<u16>,
    /// Witnesses found by the vectorised lookup: (split, value).
    taken: Vec<(usize, u16)>,
    /// Witness search: per split move and stretch, the next split and the end.
    cursors: Vec<usize>,
    ends: Vec<usize>,
    /// Per split move, the next split below the floor to look at (see [`Open::head`]).
    head_cursors: Vec<usize>,
    /// [`head_chunk`]'s copy of the values it looks at.
    mirror: Vec<u16>,
    /// The witness search's first round: the wanted values it met.
    collected: Vec<u16>,
    /// The first round's wanted values met below the head (see [`first_head_chunks`]).
    head_collected: Vec<u16>,
    /// The words of [`WantedBits`].
    bits: Box<[u32; HUGE_SET / 32]>,
    /// The first round's packed values.
    round: Box<[u64; HUGE_SET / 64]>,
    /// The values this state's last search found under the first split move (see [`Carry`]).
    carry: Carry,
    /// The carry of the search under way.
    next_carry: Carry,
    /// The values a deferred search still wanted (see [`Open::defer`]).
    pub(super) deferred: Vec<u16>,
    /// A verifier's list of its deferring bit's positions (see [`super::lanes`]).
    pub(super) tail: super::lanes::TailList,
}

/// The wanted values that one heap's witness search found under its first split move `k0`,
/// which leaves heap `m`: each is `G(i) ^ G(m - i)` for some split of `m`. Heap `n + 1`'s move
/// `k0 + 1` (0.146: moves 2 and 3) leaves the same heap `m`, so the same splits witness the same
/// values there: the next heap's search starts with them found, and looks only for the rest.
///
/// Why it stays exact: a carry is used only by the next heap (`n + 1`) searched by the same
/// state, and it was computed from `G(0..m)` with `m < n`; the next heap's values `G(0..m)` are
/// the same unless a rollback of the two-thread pipeline rewrote some of them in between. A
/// rollback at `f` rewrites values from `f` on and forgets the carry of the lead's state
/// ([`RareCommon::drop_map_block`]); a verifier's state is not reachable there (with three
/// threads or more a verifier may have searched a batch after the failed one, against values
/// the rollback rewrites), so each verifier forgets its carry when its next batch is of a new
/// epoch: a carry is never used across a rewrite. The pipeline tests compare the values with
/// the serial engine's on codes whose speculation fails often, on 2 to 8 threads.
#[derive(Clone)]
struct Carry {
    /// The heap whose search found them (0 = none).
    heap: usize,
    /// The heap `m` its first split move left.
    m: usize,
    /// The values found (bit `v % 32` of word `v / 32`), below `width`.
    bits: Box<[u32; HUGE_SET / 32]>,
    /// One of [`SET_WIDTHS`].
    width: usize,
}

impl Default for Carry {
    fn default() -> Self {
        Carry {
            heap: 0,
            m: 0,
            bits: Box::new([0; HUGE_SET / 32]),
            width: 0,
        }
    }
}

impl Default for Witness {
    fn default() -> Self {
        Witness {
            wanted: vec![0u8; VALUES].into_boxed_slice(),
            hints: Vec::new(),
            hint_control: HintControl::default(),
            targets: Vec::new(),
            taken: Vec::new(),
            cursors: Vec::new(),
            head_cursors: Vec::new(),
            mirror: Vec::new(),
            head_collected: Vec::new(),
            ends: Vec::new(),
            collected: Vec::new(),
            bits: Box::new([0; HUGE_SET / 32]),
            round: Box::new([0; HUGE_SET / 64]),
            carry: Carry::default(),
            next_carry: Carry::default(),
            deferred: Vec::new(),
            tail: super::lanes::TailList::default(),
        }
    }
}

/// A list of the positions whose value has bit `bit` set, chosen when few positions have it
/// (at most one in [`INDEX_SHARE`]), with their values: the witness search's last values.
///
/// Why: a split `(a, m - a)` produces `w` only if exactly one of `G(a)`, `G(m - a)` has each
/// bit of `w`, so every witness of a wanted value with bit `bit` has one part in this list.
/// When the coupon collector's last values (see the module docs of `sparse`) have that bit,
/// scanning the list finds them in far fewer positions than the contiguous scan needs splits
/// (0.206: bit 4, set at 2% of the positions to 2^20 and 0.7% to 2^22, is the least frequent
/// bit of its last value in 179 of 201 heaps; `replay_tests`). A listed position costs about
/// 2.5 splits (a gather of its partner), so the list is kept only for a rare bit and scanned
/// only for the last few values. It is only a faster place to look: a value found there is a
/// real option, and a value it does not find is left to the contiguous scan, which proves it
/// as before. So positions past `u32::MAX` are simply not listed (the list holds 32 bits a
/// position, and one cut to 32 bits would name another heap).
///
/// Kept in step with the values the engine has absorbed (positions `1..seen`, ascending):
/// appended to by `absorb`, rebuilt when a review chooses another bit, cut back by a rollback
/// of the pipeline; used by the lead's and the serial searches only.
#[derive(Clone, Debug, Default)]
pub(super) struct BitIndex {
    bit: Option<u32>,
    positions: Vec<u32>,
    values: Vec<u16>,
}

/// A bit is indexed when at most one position in this many has it: the list then costs at most
/// 6 bytes per 32 positions (0.19 bytes per value), as the rare positions' own bound.
const INDEX_SHARE: u64 = 32;

/// The contiguous scan hands the values with the index's bit to the index once at most this
/// many values are still wanted (0.206 to 2^20, replayed: 16 values left after about 4,900
/// splits per heap, found in about 2,800 listed positions, against about 26,000 splits for
/// the whole contiguous search).
const INDEX_TAIL: usize = 16;
const _: () = assert!(
    INDEX_TAIL <= super::lanes::SLOTS,
    "a deferred search fits a block"
);

impl BitIndex {
    /// The least frequent bit of the values counted in `counts` (per key `2 v + parity`), if at
    /// most one position of `len` in [`INDEX_SHARE`] has it.
    pub(super) fn choose(counts: &[u64], len: usize) -> Option<u32> {
        let mut per_bit = [0u64; 16];
        for (key, &c) in counts.iter().enumerate() {
            let v = key / 2;
            for (j, b) in per_bit.iter_mut().enumerate() {
                *b += c * (v >> j & 1) as u64;
            }
        }
        let top = (counts.len() / 2)
            .max(1)
            .next_power_of_two()
            .trailing_zeros() as usize;
        (0..top.min(16))
            .filter(|&j| per_bit[j] > 0)
            .min_by_key(|&j| per_bit[j])
            .filter(|&j| per_bit[j] * INDEX_SHARE <= len as u64)
            .map(|j| j as u32)
    }

    /// Index bit `bit` (none: no index) over the positions `1..g.len()`.
    pub(super) fn set_bit<V: Value>(&mut self, bit: Option<u32>, g: &[V]) {
        if bit == self.bit {
            return;
        }
        self.bit = bit;
        self.positions = Vec::new();
        self.values = Vec::new();
        if bit.is_some() {
            for (i, v) in g.iter().enumerate().skip(1) {
                self.absorb(i, v.get());
            }
        }
    }

    /// Position `i` (the next one) has the value `v`.
    #[inline]
    pub(super) fn absorb(&mut self, i: usize, v: u16) {
        if let Some(j) = self.bit {
            if v >> j & 1 == 1 {
                if let Ok(p) = u32::try_from(i) {
                    self.positions.push(p);
                    self.values.push(v);
                }
            }
        }
    }

    /// The bit and the number of positions listed.
    pub(super) fn summary(&self) -> (Option<u32>, usize) {
        (self.bit, self.positions.len())
    }

    /// Forget the positions from `f` on (their values are being rewritten).
    pub(super) fn truncate(&mut self, f: usize) {
        let keep = self.positions.partition_point(|&p| (p as usize) < f);
        self.positions.truncate(keep);
        self.values.truncate(keep);
    }
}

/// How many values of the wanted set `bits` (`width / 32` words) have bit `j`.
fn wanted_with_bit(bits: &[u32], j: u32) -> u32 {
    if j >= 5 {
        bits.iter()
            .enumerate()
            .filter(|(w, _)| (w << 5) >> j & 1 == 1)
            .map(|(_, b)| b.count_ones())
            .sum()
    } else {
        let mask = (0..32u32)
            .filter(|v| v >> j & 1 == 1)
            .fold(0u32, |m, v| m | 1 << v);
        bits.iter().map(|b| (b & mask).count_ones()).sum()
    }
}

/// [`kernels::collect_listed_xors`] for a wanted set of `width` values (one of [`SET_WIDTHS`]).
#[inline(always)]
fn collect_listed_any<V: Value>(
    width: usize,
    bits: &[u32; HUGE_SET / 32],
    g: &[V],
    m: usize,
    positions: &[u32],
    values: &[u16],
    out: &mut Vec<u16>,
) -> bool {
    match width {
        512 => kernels::collect_listed_xors(g, m, positions, values, words_of::<16>(bits), out),
        1024 => kernels::collect_listed_xors(g, m, positions, values, words_of::<32>(bits), out),
        2048 => kernels::collect_listed_xors(g, m, positions, values, words_of::<64>(bits), out),
        _ => kernels::collect_listed_xors(g, m, positions, values, words_of::<128>(bits), out),
    }
}

/// The witness search's last values with the index's bit `j`, from its list (see
/// [`BitIndex`]): four stretches per split move in growing chunks, as the contiguous scan,
/// until every wanted value with bit `j` is found or the list ends. Takes what it finds out of
/// `set` (and, with a `carry`, puts what the first split move finds in it); returns how many.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn index_tail<V: Value>(
    list: &BitIndex,
    j: u32,
    set: &mut WantedBits<'_>,
    g: &[V],
    moves: &OctalMoves,
    n: usize,
    collected: &mut Vec<u16>,
    mut carry: Option<&mut [u32; HUGE_SET / 32]>,
    stats: &mut SparseStats,
) -> usize {
    let mut with_bit = wanted_with_bit(&set.bits[..set.width / 32], j);
    let mut taken = 0usize;
    let mut spans: Vec<(usize, usize, usize, usize)> = Vec::new();
    for (s, m) in moves.split_heaps(n).enumerate() {
        if m < 2 {
            continue;
        }
        let len = list.positions.partition_point(|&p| (p as usize) < m);
        for k in 0..SEGMENTS {
            spans.push((s, m, k * len / SEGMENTS, (k + 1) * len / SEGMENTS));
        }
    }
    let mut step = SEGMENT_CHUNK;
    loop {
        let mut moved = false;
        for span in spans.iter_mut() {
            let (s, m, lo, end) = *span;
            if lo >= end {
                continue;
            }
            let hi = (lo + step).min(end);
            span.2 = hi;
            moved = true;
            collected.clear();
            if !collect_listed_any(
                set.width,
                set.bits,
                g,
                m,
                &list.positions[lo..hi],
                &list.values[lo..hi],
                collected,
            ) {
                return taken; // no such kernel here: the contiguous scan does it all
            }
            stats.indexed_positions += (hi - lo) as u64;
            let mut removed = 0u32;
            for &x in collected.iter() {
                let (w, bit) = (x as usize >> 5, 1u32 << (x & 31));
                let word = set.bits[w];
                let hit = (word & bit != 0) as u32;
                removed += hit;
                with_bit -= hit * (x as u32 >> j & 1);
                if let (Some(carry), 0) = (carry.as_mut(), s) {
                    carry[w] |= word & bit;
                }
                set.bits[w] = word & !bit;
            }
            set.left -= removed;
            taken += removed as usize;
            if with_bit == 0 || set.left == 0 {
                return taken;
            }
        }
        if !moved {
            return taken;
        }
        step = (step * 2).min(1 << 14);
    }
}

/// What the witness search of one heap starts from: the options found so far (`found`, bit
/// `x`), the candidate `free` and the largest value below it that still needs a witness.
#[derive(Clone, Copy)]
pub(super) struct Open<'a> {
    pub(super) found: &'a [u64],
    pub(super) free: usize,
    pub(super) last: usize,
    /// The positions of a rare bit, where the search looks for its last values (none: the
    /// contiguous scan only).
    pub(super) index: Option<&'a BitIndex>,
    /// A verifier's bit (see [`super::lanes`]): the search stops, returning [`DEFERRED`], once
    /// at most [`INDEX_TAIL`] values are still wanted and every one of them has this bit; they
    /// are then in [`Witness::deferred`].
    pub(super) defer: Option<u32>,
    /// The engine's head (see [`kernels::at`]; empty but for a store of low bytes): the
    /// stretches start at its end, and the splits below it are a stretch of their own, looked
    /// at first in each round with the head's values ([`head_chunk`]).
    pub(super) head: &'a [u16],
}

/// What [`Witness::search`] returns for a search it deferred (see [`Open::defer`]).
pub(super) const DEFERRED: usize = usize::MAX;

/// The candidate stage's result for one heap.
pub(super) enum Candidate {
    /// The value, proved without a search.
    Proved(usize),
    /// The candidate mex `free`, proved once every missing value below it (the largest is
    /// `last`) has a witness; the options found are the engine's `found` words.
    Open { free: usize, last: usize },
}

/// The byte maps of the next [`MAP_BLOCK`] heaps with their far rare options already marked (as
/// the one-word path's block, see `word.rs`).
#[derive(Clone, Default)]
struct MapBlock {
    start: usize,
    /// The `rare_epoch` it was built from (0 = never built).
    epoch: u64,
    /// Bytes per map (`64 * words` when built).
    stride: usize,
    maps: Vec<u8>,
    /// The maps with the far options of the first split move only (see
    /// [`RareCommon::build_map_block`]).
    first: Vec<u8>,
    near_end: usize,
    far_end: Vec<usize>,
}

impl Default for WideState {
    fn default() -> Self {
        WideState {
            seen: vec![0u8; VALUES + 64].into_boxed_slice(),
            found: vec![0; VALUES / 64 + 1],
            block: MapBlock::default(),
            far: super::far::FarState::default(),
            witness: Witness::default(),
            spare: None,
            extra: Vec::new(),
            ahead: None,
        }
    }
}

impl std::fmt::Debug for WideState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WideState").finish_non_exhaustive()
    }
}

/// Mark every `G(i) ^ G(m - i)` for `lo <= i < hi` in a byte map (16 xors per vector step,
/// see [`kernels::mark_xors`]).
#[inline]
fn mark_range<V: Value>(g: &[V], m: usize, lo: usize, hi: usize, seen: &mut [u8]) {
    let seen: &mut [u8; VALUES] = (&mut seen[..VALUES]).try_into().expect("VALUES bytes");
    kernels::mark_xors(g, m, lo, hi, seen);
}

/// Pack a byte map of 0s and 1s into bit-set words (bit `j` of word `w` = byte `64 w + j`).
#[inline]
fn pack(seen: &[u8], found: &mut [u64]) {
    kernels::pack_bytes(seen, found);
}

/// The first value that is neither found nor blocked: the mex once every missing value below
/// it has a witness.
pub(super) fn first_free(found: &[u64], blocked: &[u64]) -> usize {
    for (w, (&f, &b)) in found.iter().zip(blocked).enumerate() {
        let free = !f & !b;
        if free != 0 {
            return w * 64 + free.trailing_zeros() as usize;
        }
    }
    found.len() * 64
}

/// The missing values below `limit` as bit-set words (bit `v % 64` of word `v / 64`), word
/// `w` of them; `found` holds every value below `limit`'s word.
#[inline]
fn missing_word(found: &[u64], limit: usize, w: usize) -> u64 {
    let below = if w < limit / 64 {
        u64::MAX
    } else if w == limit / 64 {
        (1u64 << (limit % 64)) - 1
    } else {
        0
    };
    found.get(w).map_or(0, |&f| !f & below)
}

/// The largest missing value below `limit`, if any.
fn last_missing_below(found: &[u64], limit: usize) -> Option<usize> {
    (0..=(limit / 64).min(found.len().saturating_sub(1)))
        .rev()
        .find_map(|w| {
            let m = missing_word(found, limit, w);
            (m != 0).then(|| 64 * w + 63 - m.leading_zeros() as usize)
        })
}

/// The missing values below `limit` (all blocked: each needs a witness), ascending.
fn missing_below(found: &[u64], limit: usize, out: &mut Vec<u16>) {
    for (w, &f) in found.iter().enumerate() {
        let mut want = !f;
        while want != 0 {
            let v = w * 64 + want.trailing_zeros() as usize;
            if v >= limit {
                return;
            }
            out.push(v as u16);
            want &= want - 1;
        }
    }
}

/// The first `i` in `lo..hi` (after `G(i) ^ G(m - i)` was taken from `wanted`) for which
/// `visit` returns `true`, visiting every split that produces a wanted value.
#[inline(always)]
fn scan_wanted<V: Value>(
    g: &[V],
    m: usize,
    range: std::ops::Range<usize>,
    wanted: &mut [u8; VALUES],
    small: &mut Option<WantedBits<'_>>,
    taken: &mut Vec<(usize, u16)>,
    mut visit: impl FnMut(usize, u16) -> bool,
) -> Option<usize> {
    let (lo, hi) = (range.start, range.end);
    if let Some(bits) = small {
        // values below 512, 1024, 2048 or 4096: the vectorised lookup takes every wanted value it meets
        taken.clear();
        bits.take(g, m, lo, hi, taken);
        for &(i, x) in taken.iter() {
            if visit(i, x) {
                return Some(i);
            }
        }
        return None;
    }
    let mut at = lo;
    while at < hi {
        let i = find_wanted(g, m, at, hi, wanted)?;
        let x = g[i].get() ^ g[m - i].get();
        wanted[x as usize] = 0;
        if visit(i, x) {
            return Some(i);
        }
        at = i + 1;
    }
    None
}

/// The first `i` in `lo..hi` whose split produces a wanted value. Kept out of line and free of
/// bounds checks so that the loop stays in registers: it is the innermost loop of games
/// without structure (0.6), a handful of instructions per split.
#[inline(never)]
fn find_wanted<V: Value>(
    g: &[V],
    m: usize,
    lo: usize,
    hi: usize,
    wanted: &[u8; VALUES],
) -> Option<usize> {
    if lo >= hi {
        return None;
    }
    let len = hi - lo;
    let low = &g[lo..hi];
    let high = &g[m + 1 - hi..=m - lo];
    let (low, high) = (&low[..len], &high[..len]);
    for j in 0..len {
        if wanted[(low[j].get() ^ high[len - 1 - j].get()) as usize] != 0 {
            return Some(lo + j);
        }
    }
    None
}

/// The witness search's first round: every wanted value (of `bits`, a set of `32 * W` values
/// as in [`WantedBits`], above every value of the game; `S = 32 * W`) among the first `chunk`
/// splits of each stretch (heap `m` of `heaps` for stretch `c`, from `cursors[c]` to at most
/// `ends[c]`), packed into bit-set words `found` (`W / 2` of them; other values of those splits
/// may be in them too); the cursors move on. `collected` is scratch room; the values of `met`
/// (wanted values met below a head, see [`first_head_chunks`]) are marked with the others.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn first_round<V: Value, const W: usize, const S: usize>(
    bits: &[u32; W],
    g: &[V],
    heaps: impl Iterator<Item = usize>,
    cursors: &mut [usize],
    ends: &[usize],
    chunk: usize,
    scanned: &mut u64,
    (collected, met): (&mut Vec<u16>, &[u16]),
    found: &mut [u64],
) {
    const { assert!(S == 32 * W) };
    let mut seen = [0u8; S];
    collected.clear();
    for (c, m) in heaps.enumerate() {
        let lo = cursors[c];
        let hi = (lo + chunk).min(ends[c]);
        if lo < hi {
            // the wanted xors of every stretch are collected first and marked at the end, so
            // that they are not read back right after their vector stores
            if !kernels::collect_wanted_xors(g, m, lo, hi, bits, collected) {
                kernels::mark_xors(g, m, lo, hi, &mut seen);
            }
            *scanned += (hi - lo) as u64;
            cursors[c] = hi;
        }
    }
    kernels::mark_values(collected, &mut seen);
    kernels::mark_values(met, &mut seen);
    pack(&seen, &mut found[..W / 2]);
}

/// [`first_round`] for a wanted set of `width` values (one of [`SET_WIDTHS`]).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn first_round_any<V: Value>(
    width: usize,
    bits: &[u32; HUGE_SET / 32],
    g: &[V],
    heaps: impl Iterator<Item = usize>,
    cursors: &mut [usize],
    ends: &[usize],
    chunk: usize,
    scanned: &mut u64,
    (collected, met): (&mut Vec<u16>, &[u16]),
    found: &mut [u64],
) {
    let (c, e) = (cursors, ends);
    match width {
        512 => first_round::<V, 16, 512>(
            words_of(bits),
            g,
            heaps,
            c,
            e,
            chunk,
            scanned,
            (collected, met),
            found,
        ),
        1024 => first_round::<V, 32, 1024>(
            words_of(bits),
            g,
            heaps,
            c,
            e,
            chunk,
            scanned,
            (collected, met),
            found,
        ),
        2048 => first_round::<V, 64, 2048>(
            words_of(bits),
            g,
            heaps,
            c,
            e,
            chunk,
            scanned,
            (collected, met),
            found,
        ),
        _ => first_round::<V, 128, 4096>(
            words_of(bits),
            g,
            heaps,
            c,
            e,
            chunk,
            scanned,
            (collected, met),
            found,
        ),
    }
}

/// [`kernels::collect_wanted_xors`] for a wanted set of `width` values (one of [`SET_WIDTHS`]).
#[inline(always)]
fn collect_any<V: Value>(
    width: usize,
    bits: &[u32; HUGE_SET / 32],
    g: &[V],
    m: usize,
    lo: usize,
    hi: usize,
    out: &mut Vec<u16>,
) -> bool {
    match width {
        512 => kernels::collect_wanted_xors(g, m, lo, hi, words_of::<16>(bits), out),
        1024 => kernels::collect_wanted_xors(g, m, lo, hi, words_of::<32>(bits), out),
        2048 => kernels::collect_wanted_xors(g, m, lo, hi, words_of::<64>(bits), out),
        _ => kernels::collect_wanted_xors(g, m, lo, hi, words_of::<128>(bits), out),
    }
}

/// The first round's share below a head (see [`Open::head`]): for each split move `(s, m)` of
/// `heaps`, the wanted values among the `chunk` splits from `head_cursors[s]` (below `floor`, the
/// head's end) are appended to `collected` and the cursor moves on, where every partner lies
/// past the head (else the stretch is left to [`head_chunk`]). Returns the splits looked at.
/// Out of line: inlined, it slowed the search of the other stores by 7% (Officers, `u16`).
#[inline(never)]
fn first_head_chunks<V: Value>(
    set: &WantedBits<'_>,
    g: &[V],
    (head, floor): (&[u16], usize),
    heaps: impl Iterator<Item = (usize, usize)>,
    head_cursors: &mut [usize],
    chunk: usize,
    collected: &mut Vec<u16>,
) -> u64 {
    let mut scanned = 0;
    for (s, m) in heaps {
        let lo = head_cursors[s];
        let hi = (lo + chunk).min(floor.min(m / 2 + 1));
        if lo >= hi {
            continue;
        }
        let from = m + 1 - hi;
        let pairs = (&head[lo..hi], &g[from..=m - lo]);
        if from >= head.len() && collect_pairs_any(set.width, set.bits, pairs, collected) {
            head_cursors[s] = hi;
            scanned += (hi - lo) as u64;
        }
    }
    scanned
}

/// [`kernels::collect_wanted_pairs`] for a wanted set of `width` values (one of
/// [`SET_WIDTHS`]): `low[k]` against `high[high.len() - 1 - k]`.
fn collect_pairs_any<A: Value, B: Value>(
    width: usize,
    bits: &[u32; HUGE_SET / 32],
    (low, high): (&[A], &[B]),
    out: &mut Vec<u16>,
) -> bool {
    match width {
        512 => kernels::collect_wanted_pairs(low, high, words_of::<16>(bits), out),
        1024 => kernels::collect_wanted_pairs(low, high, words_of::<32>(bits), out),
        2048 => kernels::collect_wanted_pairs(low, high, words_of::<64>(bits), out),
        _ => kernels::collect_wanted_pairs(low, high, words_of::<128>(bits), out),
    }
}

/// The first `W` words of `bits`.
#[inline(always)]
fn words_of<const W: usize>(bits: &[u32; HUGE_SET / 32]) -> &[u32; W] {
    (&bits[..W]).try_into().expect("W words")
}

/// The witness search below the floor (see [`Open::head`]): the splits `(i, m - i)` for `i` in
/// `lo..hi` (below the head's end). Where the partners `G(m + 1 - hi..=m - lo)` are all past the
/// head, the head's values are looked up against their bytes in place
/// ([`kernels::collect_wanted_pairs`]; a copy of both into `u16` first took about half of this
/// stretch's time). Otherwise through a copy of their values in `u16` laid out as the kernels
/// read a heap: `tmp[1..=s]` holds `G(lo..hi)` from the head and `tmp[s + 1..=2 s]` the
/// partners, so that split `j` of the heap `2 s + 1` of `tmp` is split `lo + j - 1` of `m`. Every wanted value met is taken out of the set (and, with a carry,
/// marked in it). Returns how many were taken.
#[allow(clippy::too_many_arguments)] // the search's state, borrowed apart
#[inline(never)]
fn head_chunk<V: Value>(
    g: &[V],
    head: &[u16],
    m: usize,
    (lo, hi): (usize, usize),
    small: &mut Option<WantedBits<'_>>,
    wanted: &mut [u8; VALUES],
    tmp: &mut Vec<u16>,
    collected: &mut Vec<u16>,
    carry: Option<&mut [u32]>,
) -> usize {
    let s = hi - lo;
    let from = m + 1 - hi;
    collected.clear();
    // the partners all past the head (every heap but the smallest): read in place
    let direct = from >= head.len()
        && match small.as_ref() {
            Some(set) => {
                let pairs = (&head[lo..hi], &g[from..=m - lo]);
                collect_pairs_any(set.width, set.bits, pairs, collected)
            }
            None => false,
        };
    if !direct {
        if tmp.len() < 2 * s + 1 {
            tmp.resize(2 * s + 1, 0);
        }
        let tmp = &mut tmp[..2 * s + 1];
        tmp[1..=s].copy_from_slice(&head[lo..hi]);
        if from >= head.len() {
            kernels::decode_into(&g[from..=m - lo], &mut tmp[s + 1..]);
        } else {
            for (j, t) in tmp[s + 1..].iter_mut().enumerate() {
                *t = kernels::at(g, head, from + j);
            }
        }
        let vectorised = match small.as_ref() {
            Some(set) => collect_any(set.width, set.bits, tmp, 2 * s + 1, 1, s + 1, collected),
            None => false,
        };
        if !vectorised {
            // one by one (no vectorised lookup on this processor, or values past every set);
            // values past the wanted set are never wanted
            let width = small.as_ref().map_or(usize::MAX, |set| set.width);
            let xors = (1..=s).map(|j| tmp[j] ^ tmp[2 * s + 1 - j]);
            collected.extend(xors.filter(|&x| (x as usize) < width));
        }
    }
    let mut carry = carry;
    let Some(set) = small.as_mut() else {
        let mut taken = 0;
        for &x in collected.iter() {
            if std::mem::take(&mut wanted[x as usize]) != 0 {
                taken += 1;
                if let Some(carry) = carry.as_deref_mut() {
                    carry[x as usize >> 5] |= 1 << (x & 31);
                }
            }
        }
        return taken;
    };
    // one by one: after the first round (which takes the head's first chunks with the rest)
    // few values are met per stretch, and a bit set of them cost more to clear and pack
    let mut taken = 0;
    for &x in collected.iter() {
        let (w, bit) = (x as usize >> 5, 1u32 << (x & 31));
        if set.bits[w] & bit != 0 {
            set.bits[w] &= !bit;
            set.left -= 1;
            taken += 1;
            if let Some(carry) = carry.as_deref_mut() {
                carry[w] |= bit;
            }
        }
    }
    taken
}

/// Whether `t` still needs a witness.
#[inline]
fn still_wanted(small: &Option<WantedBits<'_>>, wanted: &[u8; VALUES], t: usize) -> bool {
    match small {
        Some(set) => set.bits[t >> 5] >> (t & 31) & 1 == 1,
        None => wanted[t] != 0,
    }
}

impl RareCommon {
    /// `G(n)` for `n = g.len()` on the bit-set path: the candidate, then its witness search.
    pub(super) fn next_wide<V: Value>(&mut self, g: &[V]) -> usize {
        match self.candidate_wide(g) {
            Candidate::Proved(v) => v,
            Candidate::Open { free, last } => self.search_wide(g, free, last),
        }
    }

    /// The witness search of a [`Candidate::Open`] heap, on this thread.
    pub(super) fn search_wide<V: Value>(&mut self, g: &[V], free: usize, last: usize) -> usize {
        let words = self.span / 64 + 1;
        let open = Open {
            found: &self.wide.found[..words],
            free,
            last,
            index: self.use_index.then_some(&self.index),
            defer: None,
            head: &self.head,
        };
        self.wide
            .witness
            .search(&self.moves, self.span, &mut self.stats, g, open)
    }

    /// The packed options of the last [`Candidate::Open`] heap (`span / 64 + 1` words).
    pub(super) fn found_words(&self) -> &[u64] {
        &self.wide.found[..self.span / 64 + 1]
    }

    /// Forget the prepared byte maps and register marks, and what the register path checked of
    /// the values at `f..` (they were rolled back).
    pub(super) fn drop_map_block(&mut self, f: usize) {
        self.wide.block.epoch = 0;
        self.wide.witness.forget_carry();
        self.wide.far.forget_from(f);
    }

    /// The candidate stage of the bit-set path for `n = g.len()`: every option that leaves no
    /// heap, one heap or a rare position, and the first value that is neither one of them nor
    /// producible by two common positions.
    pub(super) fn candidate_wide<V: Value>(&mut self, g: &[V]) -> Candidate {
        let n = g.len();
        let words = self.span / 64 + 1;
        if self.mode == Mode::Dense {
            self.stats.dense_values += 1;
            let seen = &mut self.wide.seen[..];
            seen[..words * 64].fill(0);
            Self::mark_moves(&self.moves, g, &self.head, seen);
            for m in self.moves.split_heaps(n) {
                if m >= 2 {
                    self.stats.scanned_options += (m / 2) as u64;
                    // below the head's end with its values (see `kernels::at`)
                    let floor = if V::ODD_MASK != 0 {
                        self.head.len().clamp(1, m / 2 + 1)
                    } else {
                        1
                    };
                    for i in 1..floor {
                        let x = kernels::at(g, &self.head, i) ^ kernels::at(g, &self.head, m - i);
                        seen[x as usize] = 1;
                    }
                    mark_range(g, m, floor, m / 2 + 1, seen);
                }
            }
            pack(seen, &mut self.wide.found[..words]);
            return Candidate::Proved(mex(&self.wide.found[..words]));
        }
        let free = match self.far_candidate(g, words) {
            Some(free) => free,
            None => self.map_candidate(g, words),
        };
        let found = &self.wide.found[..words];
        match last_missing_below(found, free) {
            None => {
                self.stats.proved_directly += 1;
                Candidate::Proved(free)
            }
            Some(last) => Candidate::Open { free, last },
        }
    }

    /// The candidate of heap `g.len()` from the block's byte maps (see [`Self::far_candidate`]).
    fn map_candidate<V: Value>(&mut self, g: &[V], words: usize) -> usize {
        let n = g.len();
        let block = &self.wide.block;
        if block.epoch != self.rare_epoch
            || block.stride < words * 64
            || n < block.start
            || n >= block.start + MAP_BLOCK
        {
            self.build_map_block(g, words);
        }
        let state = &mut self.wide;
        let block = &mut state.block;
        let stride = block.stride;
        let at = (n - block.start) * stride;
        let seen = &mut block.maps[at..at + stride];
        Self::mark_moves(&self.moves, g, &self.head, seen);
        for (s, m) in self.moves.split_heaps(n).enumerate() {
            if m < 2 {
                continue;
            }
            let near = &self.rare[..block.near_end];
            let top = &self.rare[block.far_end[s]..];
            for &r in near.iter().chain(top) {
                let r = r as usize;
                if r < m {
                    seen[(kernels::at(g, &self.head, r) ^ kernels::at(g, &self.head, m - r))
                        as usize] = 1;
                }
            }
        }
        let found = &mut state.found[..words];
        pack(seen, found);
        let blocked = &self.split.blocked_words(n & 1)[..words];
        first_free(found, blocked)
    }

    /// Mark the options that leave no heap or one heap.
    fn mark_moves<V: Value>(moves: &super::OctalMoves, g: &[V], head: &[u16], seen: &mut [u8]) {
        let n = g.len();
        if moves.whole.contains(&n) {
            seen[0] = 1;
        }
        for &k in &moves.take {
            if k < n {
                seen[kernels::at(g, head, n - k) as usize] = 1;
            }
        }
    }

    /// Start the block of byte maps that holds heap `g.len()`, with the far rare options
    /// marked. Blocks start at multiples of [`MAP_BLOCK`], so that the verifying threads of the
    /// pipeline can prepare the far options of later blocks by number ([`super::ahead`]).
    fn build_map_block<V: Value>(&mut self, g: &[V], words: usize) {
        let n = g.len();
        let start = n - n % MAP_BLOCK;
        let rare = &self.rare;
        let block = &mut self.wide.block;
        block.start = start;
        block.epoch = self.rare_epoch;
        // not a power of two: see `kernels::far_maps` (maps 4096 bytes apart miss the cache)
        block.stride = words * 64;
        if block.maps.len() < MAP_BLOCK * block.stride {
            block.maps.resize(MAP_BLOCK * block.stride, 0);
        }
        // only the part of each map that can hold a value needs clearing
        for map in block.maps.chunks_exact_mut(block.stride).take(MAP_BLOCK) {
            map[..words * 64].fill(0);
        }
        block.near_end = rare.partition_point(|&r| (r as usize) < MAP_BLOCK);
        block.far_end.clear();
        for m0 in self.moves.split_heaps(start) {
            let far_end = if m0 >= 2 {
                rare.partition_point(|&r| (r as usize) < far_below(m0, &self.head))
                    .max(block.near_end)
            } else {
                block.near_end
            };
            block.far_end.push(far_end);
        }
        let layout = FarLayout {
            stride: block.stride,
            words,
            span: self.span,
        };
        // the far options of the positions at or above `ahead.from`, prepared by a verifier
        let prepared = match &self.wide.ahead {
            Some(ahead) if ahead.fits(self.rare_epoch, rare.len(), layout) => {
                let (maps, waited) = ahead.take(start / MAP_BLOCK);
                self.stats.far_ahead_wait_nanos += waited.as_nanos() as u64;
                maps.map(|maps| (ahead.clone(), maps))
            }
            _ => None,
        };
        let far = &rare[block.near_end..];
        match prepared {
            Some((ahead, maps)) => {
                let low = &far[..far.partition_point(|&r| (r as usize) < ahead.from())];
                self.stats.rare_options += mark_far(
                    g,
                    &self.head,
                    low,
                    self.moves.split_heaps(start),
                    &mut block.maps,
                    &mut block.first,
                    layout,
                );
                let bytes = words * 64;
                for (to, from) in block
                    .maps
                    .chunks_exact_mut(block.stride)
                    .zip(maps.chunks_exact(block.stride))
                    .take(MAP_BLOCK)
                {
                    for (t, &f) in to[..bytes].iter_mut().zip(&from[..bytes]) {
                        *t |= f;
                    }
                }
                self.stats.rare_options += ahead.options(start);
                self.stats.far_blocks_ahead += 1;
                ahead.give_back(start / MAP_BLOCK, maps);
            }
            None => {
                self.stats.rare_options += mark_far(
                    g,
                    &self.head,
                    far,
                    self.moves.split_heaps(start),
                    &mut block.maps,
                    &mut block.first,
                    layout,
                );
            }
        }
    }
}

/// The rare positions `r` whose far options for the split heap `m0` a block marks in bulk are
/// those below this: `r < m0`, and with a head (see [`kernels::at`]) also `m0 - r` past the
/// head's end, so that every partner `G(m0 + j - r)` read in bulk is a byte that decodes to its
/// value. The others are marked one by one with [`kernels::at`] (the candidate stage's "top").
#[inline]
pub(super) fn far_below(m0: usize, head: &[u16]) -> usize {
    m0.saturating_sub(head.len())
}

/// The shape of a block's byte maps: bytes per map, the bit-set words a map packs into
/// (`stride = 64 * words`) and the span (a power of two above every value).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct FarLayout {
    pub(super) stride: usize,
    pub(super) words: usize,
    pub(super) span: usize,
}

/// Mark in `maps` ([`MAP_BLOCK`] cleared maps of `layout.stride` bytes, those of the heaps
/// `start..start + MAP_BLOCK`) the options `G(r) ^ G(m0 + j - r)` of every split move, where
/// `m0 = start - k` runs over `heaps` (the split moves' `split_heaps(start)`), for the rare
/// positions of `far` (ascending, each at least [`MAP_BLOCK`]) below `m0`. Reads `G(i)` for
/// `i < start - far[0] + MAP_BLOCK` only. Returns the number of options marked.
pub(super) fn mark_far<V: Value>(
    g: &[V],
    head: &[u16],
    far: &[u32],
    heaps: impl Iterator<Item = usize>,
    maps: &mut [u8],
    first_maps: &mut Vec<u8>,
    layout: FarLayout,
) -> u64 {
    let FarLayout {
        stride,
        words,
        span,
    } = layout;
    let mut options = 0;
    // The far options of a later split move need no stores of their own: removing `k + d`
    // from heap `n + d` leaves the same heap `m` as removing `k` from `n`, so heap
    // `n + d`'s far options under the later move are heap `n`'s under the first (the same
    // splits `(r, m - r)`, every `r` of the first move's far set below `m`). The first
    // move's maps are kept apart and or-ed in `d` maps further on; only the first `d` maps
    // of the block take the later move's stores (0.146: moves 2 and 3, half the stores).
    let mut first: Option<(usize, usize)> = None; // (m0, far end) of the first move
    let mut kept = false; // whether `first_maps` holds the first move's maps
    for m0 in heaps {
        if m0 < 2 {
            continue;
        }
        let end = far.partition_point(|&r| (r as usize) < far_below(m0, head));
        let far = &far[..end];
        options += (far.len() * MAP_BLOCK) as u64;
        match first {
            None => {
                kernels::far_maps(g, head, far, m0, maps, stride, span);
                first = Some((m0, end));
            }
            Some((m1, end1)) if m1 - m0 < MAP_BLOCK && end <= end1 => {
                let d = m1 - m0;
                if first_maps.len() < MAP_BLOCK * stride {
                    first_maps.resize(MAP_BLOCK * stride, 0);
                }
                if !kept {
                    // the first move's maps alone, before any later move adds to them
                    first_maps[..MAP_BLOCK * stride].copy_from_slice(&maps[..MAP_BLOCK * stride]);
                    kept = true;
                }
                for j in d..MAP_BLOCK {
                    let from = &first_maps[(j - d) * stride..][..words * 64];
                    let to = &mut maps[j * stride..][..words * 64];
                    for (t, &f) in to.iter_mut().zip(from) {
                        *t |= f;
                    }
                }
                for j in 0..d {
                    let map = &mut maps[j * stride..][..stride];
                    for &r in far {
                        let r = r as usize;
                        map[(kernels::at(g, head, r) ^ g[m0 + j - r].get()) as usize] = 1;
                    }
                }
            }
            Some(_) => kernels::far_maps(g, head, far, m0, maps, stride, span),
        }
    }
    options
}

impl Witness {
    /// Forget the values carried from the last search (see [`Carry`]).
    pub(super) fn forget_carry(&mut self) {
        self.carry.heap = 0;
    }

    /// Find a witness for every value missing below `free` (the largest of them is `last`):
    /// around past witnesses first, then over stretches of each heap's splits; the mex is
    /// `free` if all are found, else the smallest one that no split produces.
    pub(super) fn search<V: Value>(
        &mut self,
        moves: &OctalMoves,
        span: usize,
        stats: &mut SparseStats,
        g: &[V],
        open: Open<'_>,
    ) -> usize {
        let n = g.len();
        let Open {
            found,
            free,
            last,
            index,
            defer,
            head,
        } = open;
        // the first split the stretches and hints look at (see `Open::head`)
        let floor = if V::ODD_MASK != 0 {
            head.len().max(1)
        } else {
            1
        };
        let mut deferred = false;
        // the index, if it has a bit
        let index = index.and_then(|x| x.bit.map(|j| (x, j)));
        let mut index_done = false;
        let state = self;
        if state.hints.len() < free {
            state.hints.resize(free, [[0; HINT_DEPTH]; HINTED_MOVES]);
        }
        // The wanted set: a bit set of values below 512, 1024, 2048 or 4096 (looked up 32 splits
        // at a time in registers) when every value fits, else a byte map. The bit set is the missing
        // words themselves; the list of targets is only needed by the hints and the byte map.
        let width = SET_WIDTHS.into_iter().find(|&w| span <= w && last < w);
        let mut small = width.map(|width| {
            let bits = &mut *state.bits;
            for w in 0..width / 64 {
                let missing = missing_word(found, free, w);
                bits[2 * w] = missing as u32;
                bits[2 * w + 1] = (missing >> 32) as u32;
            }
            let left = bits[..width / 32].iter().map(|b| b.count_ones()).sum();
            WantedBits { bits, left, width }
        });
        // The values the previous heap found under its first split move, if this heap has a
        // move that leaves the same heap (see [`Carry`]): found already.
        let m0 = moves.split_heaps(n).next().unwrap_or(0);
        let carries = small.is_some()
            && m0 >= 2
            && moves.split.len() >= 2
            && moves.split.contains(&(moves.split[0] + 1));
        if let Some(set) = small.as_mut() {
            let carry = &state.carry;
            if carry.heap != 0
                && carry.heap + 1 == n
                && moves.split_heaps(n).skip(1).any(|m| m == carry.m)
            {
                for w in 0..set.width.min(carry.width) / 32 {
                    let newly = set.bits[w] & carry.bits[w];
                    set.bits[w] &= !newly;
                    set.left -= newly.count_ones();
                }
            }
        }
        if let (true, Some(width)) = (carries, width) {
            let next = &mut state.next_carry;
            next.bits[..width / 32].fill(0);
            next.width = width;
            next.m = m0;
            next.heap = n;
        }
        let later_share = if carries { LATER_SHARE } else { 1 };
        let try_hints = state.hint_control.should_try();
        state.targets.clear();
        if width.is_none() || try_hints {
            missing_below(found, free, &mut state.targets);
        }
        if width.is_none() {
            for &t in &state.targets {
                state.wanted[t as usize] = 1;
            }
        }
        let record = state.hint_control.recording();
        let mut remaining = match &small {
            Some(set) => set.left as usize,
            None => state.targets.len(),
        };
        let wanted: &mut [u8; VALUES] = (&mut state.wanted[..]).try_into().expect("VALUES");
        let mut scanned = 0u64;
        'search: {
            if remaining == 0 {
                break 'search;
            }
            if try_hints {
                for (s, m) in moves.split_heaps(n).enumerate().take(HINTED_MOVES) {
                    if m < 2 {
                        continue;
                    }
                    for j in 0..state.targets.len() {
                        let t = state.targets[j] as usize;
                        for back in 0..HINT_DEPTH {
                            let h = state.hints[t][s][back] as usize;
                            if h == 0 || !still_wanted(&small, wanted, t) {
                                continue;
                            }
                            let lo = h.saturating_sub(HINT_REACH).max(floor);
                            let hi = (h + HINT_REACH + 1).min(m / 2 + 1);
                            if hi <= lo {
                                continue;
                            }
                            scanned += hi.saturating_sub(lo) as u64;
                            let hints = &mut state.hints;
                            let carry = &mut state.next_carry.bits;
                            let last = scan_wanted(
                                g,
                                m,
                                lo..hi,
                                wanted,
                                &mut small,
                                &mut state.taken,
                                |i, x| {
                                    record_hint(&mut hints[x as usize][s], i);
                                    if carries && s == 0 {
                                        carry[x as usize >> 5] |= 1 << (x & 31);
                                    }
                                    remaining -= 1;
                                    remaining == 0
                                },
                            );
                            if last.is_some() {
                                state.hint_control.report(true);
                                stats.hinted += 1;
                                break 'search;
                            }
                        }
                    }
                }
                state.hint_control.report(false);
            }
            // Each heap's splits in SEGMENTS equal stretches, scanned in turn a chunk at a time
            // (and the split moves taking turns): the witnesses of a game without local
            // structure are spread at random, and sampling the whole range early finds the
            // last of them sooner than a scan from the bottom (scripts/officers-witnesses.py).
            state.cursors.clear();
            state.ends.clear();
            state.head_cursors.clear();
            state.head_cursors.extend(moves.split_heaps(n).map(|_| 1));
            for m in moves.split_heaps(n) {
                // the splits floor..=m/2
                let half = if m >= 2 {
                    (m / 2 + 1).saturating_sub(floor)
                } else {
                    0
                };
                for k in 0..SEGMENTS {
                    state.cursors.push(floor + k * half / SEGMENTS);
                    state.ends.push(floor + (k + 1) * half / SEGMENTS);
                }
            }
            let mut chunk = SEGMENT_CHUNK;
            let mut batched = small.is_some() && !record;
            if let (Some(set), false) = (small.as_mut(), record) {
                // First round without a branch per witness: every value of the first chunk of
                // each stretch marked in a byte map, then all wanted ones taken at once (most
                // wanted values turn up in this round; looking them up one by one would
                // mispredict a branch at nearly every one).
                // (with a carry, the first move's stretches apart: what they find is carried)
                let parts: &[(usize, usize)] = if carries {
                    &[(0, 1), (1, usize::MAX)]
                } else {
                    &[(0, usize::MAX)]
                };
                for &(first, moves_taken) in parts {
                    state.head_collected.clear();
                    if V::ODD_MASK != 0 {
                        // the first chunk below the head's end too, as the stretch from 1 is
                        // part of the first round with a store that needs no head (one mark
                        // and pack for all instead of one per stretch)
                        let heaps = moves
                            .split_heaps(n)
                            .enumerate()
                            .skip(first)
                            .take(moves_taken);
                        let share = if first == 0 { 1 } else { later_share };
                        scanned += first_head_chunks(
                            set,
                            g,
                            (head, floor),
                            heaps,
                            &mut state.head_cursors,
                            (chunk / share).max(1),
                            &mut state.head_collected,
                        );
                    }
                    let heaps = moves
                        .split_heaps(n)
                        .skip(first)
                        .take(moves_taken)
                        .flat_map(|m| std::iter::repeat(m).take(SEGMENTS));
                    let cursors = &mut state.cursors[first * SEGMENTS..];
                    let ends = &state.ends[first * SEGMENTS..];
                    let found = &mut *state.round;
                    first_round_any(
                        set.width,
                        set.bits,
                        g,
                        heaps,
                        cursors,
                        ends,
                        if first == 0 {
                            chunk
                        } else {
                            (chunk / later_share).max(1)
                        },
                        &mut scanned,
                        (&mut state.collected, &state.head_collected),
                        found,
                    );
                    for (w, &f) in found[..set.width / 64].iter().enumerate() {
                        for half in 0..2 {
                            let word = &mut set.bits[2 * w + half];
                            let newly = (f >> (32 * half)) as u32 & *word;
                            *word &= !newly;
                            remaining -= newly.count_ones() as usize;
                            set.left -= newly.count_ones();
                            if carries && first == 0 {
                                state.next_carry.bits[2 * w + half] |= newly;
                            }
                        }
                    }
                }
                if remaining == 0 {
                    break 'search;
                }
            }
            loop {
                let mut progressed = false;
                // the stretch below the floor of each split move first, as the stretch from 1
                // comes first with a store that needs no head (see `head_chunk`)
                for (s, m) in moves.split_heaps(n).enumerate() {
                    let lo = state.head_cursors[s];
                    let end = floor.min(m / 2 + 1);
                    if lo >= end {
                        continue;
                    }
                    let share = if carries && s > 0 { later_share } else { 1 };
                    let hi = (lo + (chunk / share).max(1)).min(end);
                    state.head_cursors[s] = hi;
                    progressed = true;
                    scanned += (hi - lo) as u64;
                    let carry = (carries && s == 0).then_some(&mut state.next_carry.bits[..]);
                    remaining -= head_chunk(
                        g,
                        head,
                        m,
                        (lo, hi),
                        &mut small,
                        wanted,
                        &mut state.mirror,
                        &mut state.collected,
                        carry,
                    );
                    if remaining == 0 {
                        break 'search;
                    }
                }
                for (c, m) in moves
                    .split_heaps(n)
                    .flat_map(|m| std::iter::repeat(m).take(SEGMENTS))
                    .enumerate()
                {
                    let s = c / SEGMENTS;
                    let lo = state.cursors[c];
                    if lo >= state.ends[c] {
                        continue;
                    }
                    if let (Some(j), Some(set), true, true) =
                        (defer, small.as_ref(), batched, remaining <= INDEX_TAIL)
                    {
                        if wanted_with_bit(&set.bits[..set.width / 32], j) as usize == remaining {
                            deferred = true;
                            break 'search;
                        }
                    }
                    if let (Some((list, j)), Some(set), true, false, true) = (
                        index,
                        small.as_mut(),
                        batched,
                        index_done,
                        remaining <= INDEX_TAIL,
                    ) {
                        // once: the wanted set only shrinks, so with no value of bit `j`
                        // now there is none later (0.146's tail rarely has its bit 10)
                        index_done = true;
                        if wanted_with_bit(&set.bits[..set.width / 32], j) > 0 {
                            // (out of line: the hot loop below stays as it was for the games
                            // without an index)
                            remaining -= index_tail(
                                list,
                                j,
                                set,
                                g,
                                moves,
                                n,
                                &mut state.collected,
                                carries.then_some(&mut *state.next_carry.bits),
                                stats,
                            );
                            if remaining == 0 {
                                break 'search;
                            }
                        }
                    }
                    let share = if carries && s > 0 { later_share } else { 1 };
                    let hi = (lo + (chunk / share).max(1)).min(state.ends[c]);
                    state.cursors[c] = hi;
                    progressed = true;
                    // the first split of this chunk not looked at yet
                    let mut at = lo;
                    if let (Some(set), true) = (small.as_mut(), batched) {
                        // Batches of splits with no branch per witness (see BATCH): the
                        // wanted values met are packed by the vectorised lookup, then taken
                        // out of the set all at once.
                        while at < hi {
                            let end = (at + BATCH).min(hi);
                            state.collected.clear();
                            if !collect_any(
                                set.width,
                                set.bits,
                                g,
                                m,
                                at,
                                end,
                                &mut state.collected,
                            ) {
                                // no such lookup on this processor: split by split, below
                                batched = false;
                                break;
                            }
                            scanned += (end - at) as u64;
                            let carry = &mut state.next_carry.bits;
                            let mut removed = 0u32;
                            for &x in &state.collected {
                                let (w, bit) = (x as usize >> 5, 1u32 << (x & 31));
                                let word = set.bits[w];
                                removed += (word & bit != 0) as u32;
                                if carries && s == 0 {
                                    carry[w] |= word & bit;
                                }
                                set.bits[w] = word & !bit;
                            }
                            set.left -= removed;
                            remaining -= removed as usize;
                            if remaining == 0 {
                                break 'search;
                            }
                            at = end;
                        }
                    }
                    // the rest split by split (all of it where the batches do not apply)
                    let (lo, mut at) = (at, at);
                    while at < hi {
                        let end = if small.is_some() {
                            hi
                        } else {
                            (at + TAIL_CHUNK).min(hi)
                        };
                        if remaining <= 4 && small.is_none() {
                            // Few values left: compare 16 splits per instruction with each of
                            // them, and look closer only at a chunk that holds one.
                            let mut left = [0u16; 4];
                            let mut count = 0;
                            for &t in &state.targets {
                                if wanted[t as usize] != 0 && count < 4 {
                                    left[count] = t;
                                    count += 1;
                                }
                            }
                            for j in count..4 {
                                left[j] = left[0];
                            }
                            if kernels::targets_hit(g, m, at, end, left) == 0 {
                                at = end;
                                continue;
                            }
                        }
                        let hints = &mut state.hints;
                        let carry = &mut state.next_carry.bits;
                        let last = scan_wanted(
                            g,
                            m,
                            at..end,
                            wanted,
                            &mut small,
                            &mut state.taken,
                            |i, x| {
                                if s < HINTED_MOVES && record {
                                    record_hint(&mut hints[x as usize][s], i);
                                }
                                if carries && s == 0 {
                                    carry[x as usize >> 5] |= 1 << (x & 31);
                                }
                                remaining -= 1;
                                remaining == 0
                            },
                        );
                        if let Some(i) = last {
                            scanned += (i + 1 - lo) as u64;
                            break 'search;
                        }
                        at = end;
                    }
                    scanned += (hi - lo) as u64;
                }
                if !progressed {
                    stats.exhaustive_scans += 1;
                    break 'search;
                }
                chunk = (chunk * 2).min(1 << 14);
            }
        }
        stats.scanned_options += scanned;
        if carries {
            std::mem::swap(&mut state.carry, &mut state.next_carry);
        } else {
            state.carry.heap = 0;
        }
        // the mex: the smallest value never found, else `free`; leave `wanted` all zero (the
        // bit set path never set it)
        if let (true, Some(set)) = (deferred, &small) {
            state.deferred.clear();
            for (w, &b) in set.bits[..set.width / 32].iter().enumerate() {
                let mut b = b;
                while b != 0 {
                    state
                        .deferred
                        .push((32 * w) as u16 + b.trailing_zeros() as u16);
                    b &= b - 1;
                }
            }
            return DEFERRED;
        }
        if let Some(set) = &small {
            return set.bits[..set.width / 32]
                .iter()
                .enumerate()
                .find(|(_, &b)| b != 0)
                .map_or(free, |(w, b)| 32 * w + b.trailing_zeros() as usize);
        }
        let mut result = free;
        for &t in &state.targets {
            if still_wanted(&small, wanted, t as usize) {
                result = result.min(t as usize);
            }
            wanted[t as usize] = 0;
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Positions past `u32::MAX` are left out of the bit index (never cut to 32 bits): what
    /// it lists stays real and ascending.
    #[test]
    fn the_bit_index_lists_no_position_past_32_bits() {
        let g: Vec<u16> = (0..100u16).collect();
        let mut index = BitIndex::default();
        index.set_bit(Some(2), &g);
        let listed = index.summary().1;
        assert_eq!(listed, (1..100).filter(|v| v >> 2 & 1 == 1).count());
        index.absorb(u32::MAX as usize, 4);
        assert_eq!(index.summary().1, listed + 1);
        index.absorb(1 << 32, 4);
        index.absorb((1 << 33) + 7, 0b111);
        assert_eq!(index.summary().1, listed + 1);
        assert_eq!(index.positions.last(), Some(&u32::MAX));
        assert!(index.positions.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn missing_words_agree_with_the_list_of_missing_values() {
        let found = [0xffff_fffb_ffff_ff7f_u64, u64::MAX, 0x0f0f_0f0f_0f0f_0f0f];
        for limit in [0, 5, 7, 8, 64, 65, 130, 191, 192] {
            let mut list = Vec::new();
            missing_below(&found, limit, &mut list);
            let mut from_words = Vec::new();
            for w in 0..4 {
                let mut m = missing_word(&found, limit, w);
                while m != 0 {
                    from_words.push((64 * w + m.trailing_zeros() as usize) as u16);
                    m &= m - 1;
                }
            }
            assert_eq!(from_words, list, "limit {limit}");
            let last = last_missing_below(&found, limit);
            assert_eq!(last, list.last().map(|&v| v as usize), "limit {limit}");
        }
    }

    /// The witness search against its definition: the mex is the smallest value below `free`
    /// that is neither found already nor produced by a split of a split move's heap, else
    /// `free`. Random values (so many searches end with values never produced, and scan every
    /// split), runs of consecutive heaps searched by one state (0.146's moves 2 and 3: the
    /// witnesses of one heap's first move are carried to the next), with hints recorded (the
    /// search taking each value at its split) and not (the batches of `BATCH` splits), and with
    /// a bit index (its last values looked up among the positions of bit 3 or 6).
    #[test]
    fn searches_find_the_mex_of_every_split() {
        let code: crate::takebreak::Code = "0.146".parse().unwrap();
        let moves = OctalMoves::new(&code).unwrap();
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut outcomes = [0usize; 2];
        for span in [512usize, 2048] {
            let g: Vec<u16> = (0..9000).map(|_| (next() % span as u64) as u16).collect();
            for (recording, bit) in [
                (true, None),
                (false, None),
                (false, Some(3)),
                (false, Some(6)),
            ] {
                // an index over every position of the values (the search reads below `m`)
                let mut index = BitIndex::default();
                index.set_bit(bit, &g);
                let mut witness = Witness::default();
                let mut stats = SparseStats::default();
                for start in [2000usize, 4100, 8000] {
                    for n in start..start + 6 {
                        let mut produced = vec![false; span];
                        for m in moves.split_heaps(n) {
                            for a in 1..=m / 2 {
                                produced[(g[a] ^ g[m - a]) as usize] = true;
                            }
                        }
                        // found: about seven values in eight; free below a quarter of the span
                        let words = span / 64 + 1;
                        let mut found = vec![0u64; words];
                        for (w, word) in found.iter_mut().enumerate() {
                            *word = next() | next() | next();
                            if w == words - 1 {
                                *word = 0;
                            }
                        }
                        let free = 64 + (next() % (span as u64 / 4)) as usize;
                        let is_found = |v: usize| found[v / 64] >> (v % 64) & 1 == 1;
                        let Some(last) = (0..free).rev().find(|&v| !is_found(v)) else {
                            continue;
                        };
                        let expect = (0..free)
                            .find(|&v| !is_found(v) && !produced[v])
                            .unwrap_or(free);
                        if !recording {
                            witness.hint_control.skip = 1 << 20;
                        }
                        let open = Open {
                            found: &found,
                            free,
                            last,
                            index: Some(&index),
                            defer: None,
                            head: &[],
                        };
                        let got = witness.search(&moves, span, &mut stats, &g[..n], open);
                        assert_eq!(
                            got, expect,
                            "span {span}, heap {n}, recording {recording}, index {bit:?}"
                        );
                        outcomes[(expect < free) as usize] += 1;
                    }
                }
                // the index was looked at whenever there was one
                assert_eq!(
                    stats.indexed_positions > 0,
                    bit.is_some(),
                    "span {span}, index {bit:?}"
                );
            }
        }
        // both outcomes occur: every wanted value witnessed, and a value no split produces
        assert!(
            outcomes[0] >= 8 && outcomes[1] >= 8,
            "outcomes {outcomes:?}"
        );
    }

    #[test]
    fn pack_matches_bytes() {
        let mut seen = vec![0u8; 256];
        for (i, s) in seen.iter_mut().enumerate() {
            *s = ((i * 7 + i / 3) % 5 == 0) as u8;
        }
        let mut found = vec![0u64; 4];
        pack(&seen, &mut found);
        for (i, &s) in seen.iter().enumerate() {
            assert_eq!(found[i / 64] >> (i % 64) & 1, s as u64, "byte {i}");
        }
    }
}
