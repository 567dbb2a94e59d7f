//! One value while every value so far is below 64: an option set is one `u64`, kept in a
//! register from the first option to the mex.
//!
//! Steps (the same as in [`super::wide`]): options that leave no heap or one heap; in the dense
//! mode every split (vectorised); in the sparse mode the splits with a rare part (those far
//! from both ends precomputed for a block of heaps at once), then — if the candidate mex is
//! blocked — a witness search around past witnesses, then from the middle of each heap outwards.

use super::kernels::{self, BLOCK};
use super::{record_hint, HintControl, Hints, Mode, OctalMoves, RareCommon, SparseStats};
use super::{HINT_DEPTH, HINT_REACH};
use crate::takebreak::values::Value;

/// State of the one-word path.
#[derive(Debug, Clone, Default)]
pub(super) struct WordState {
    block: RareBlock,
    /// The witness search's state (the pipeline hands it to its first verifier).
    pub(super) search: WordSearch,
    /// The pipeline: the lead's witness search state while the first verifier has `search`.
    pub(super) spare: Option<WordSearch>,
    /// The pipeline: the second and later verifiers' states.
    pub(super) extra: Vec<WordSearch>,
}

/// The one-word witness search's own state: nothing in it is read by the candidate stage, so
/// that the pipeline ([`super::pipeline`]) can run searches on other threads, each with its
/// own. It only makes searches faster: the value a search returns does not depend on it.
#[derive(Debug, Clone, Default)]
pub(super) struct WordSearch {
    /// Per split move and value: past witnesses.
    hints: Vec<[Hints; 64]>,
    hint_control: HintControl,
    cursors: Vec<usize>,
}

/// The candidate stage's result for one heap on the one-word path.
pub(super) enum WordCandidate {
    /// The value, proved without a search.
    Proved(usize),
    /// Options `found` so far; the value is the first value that is neither found nor
    /// `blocked` (producible by two common positions) once every missing value below it has a
    /// witness ([`WordSearch::search`]), else the smallest one without.
    Open { found: u64, blocked: u64 },
}

impl WordCandidate {
    /// The value a successful witness search proves: the first value neither found nor
    /// blocked (64 when there is none below 64).
    pub(super) fn free(found: u64, blocked: u64) -> usize {
        (!found & !blocked).trailing_zeros() as usize
    }
}

/// The options of the next [`BLOCK`] heaps that involve a rare position far from both ends,
/// computed together when the first of them is asked for (the partners of those positions are
/// all known by then, and consecutive heaps have consecutive partners).
#[derive(Debug, Clone, Default)]
struct RareBlock {
    start: usize,
    /// The `rare_epoch` it was built from (0 = never built).
    epoch: u64,
    masks: [u64; BLOCK],
    /// `rare[..near_end]` are below `BLOCK`: their partners may lie inside the block.
    near_end: usize,
    /// Per split move, `rare[near_end..far_end[s]]` went into `masks`; the later ones (near the
    /// top, including those that appear while the block runs) are handled heap by heap.
    far_end: Vec<usize>,
}

/// The smallest value missing from a one-word option set (64 when all of `0..64` occur).
#[inline]
fn mex(found: u64) -> usize {
    (!found).trailing_zeros() as usize
}

/// The missing values that a witness search still has to find: those below the first missing
/// value that no skipped option can produce (which is then the mex).
#[inline]
fn pending(found: u64, blocked: u64) -> u64 {
    let missing = !found;
    let free = missing & !blocked;
    let below = if free == 0 {
        u64::MAX
    } else {
        (free & free.wrapping_neg()) - 1
    };
    missing & below
}

impl RareCommon {
    /// `G(n)` for `n = g.len()` on the one-word path.
    pub(super) fn next_word<V: Value>(&mut self, g: &[V]) -> usize {
        match self.candidate_word(g) {
            WordCandidate::Proved(v) => v,
            WordCandidate::Open { found, blocked } => {
                self.word
                    .search
                    .search(&self.moves, g, found, blocked, &mut self.stats)
            }
        }
    }

    /// The candidate stage of the one-word path for `n = g.len()`: the options that leave no
    /// heap, one heap or a rare position, and whether they prove the value.
    #[inline]
    pub(super) fn candidate_word<V: Value>(&mut self, g: &[V]) -> WordCandidate {
        let n = g.len();
        let mut found = 0u64;
        if self.moves.whole.contains(&n) {
            found |= 1;
        }
        for &k in &self.moves.take {
            if k < n {
                found |= 1 << (g[n - k].get() & 63);
            }
        }
        if self.mode == Mode::Dense {
            self.stats.dense_values += 1;
            for m in self.moves.split_heaps(n) {
                if m >= 2 {
                    self.stats.scanned_options += (m / 2) as u64;
                    found |= kernels::xor_mask(g, m, 1, m / 2 + 1);
                }
            }
            return WordCandidate::Proved(mex(found));
        }
        found |= self.rare_options_word(g);
        let blocked = self.split.blocked_low(n & 1);
        if pending(found, blocked) == 0 {
            self.stats.proved_directly += 1;
            return WordCandidate::Proved(mex(found));
        }
        WordCandidate::Open { found, blocked }
    }

    /// Forget the prepared block of rare options (its heaps' values were rolled back).
    pub(super) fn drop_word_block(&mut self) {
        self.word.block.epoch = 0;
    }

    /// The options with a rare part.
    fn rare_options_word<V: Value>(&mut self, g: &[V]) -> u64 {
        let n = g.len();
        let block = &self.word.block;
        if block.epoch != self.rare_epoch || n < block.start || n >= block.start + BLOCK {
            self.build_block(g);
        }
        let block = &self.word.block;
        let mut found = block.masks[n - block.start];
        for (s, m) in self.moves.split_heaps(n).enumerate() {
            if m < 2 {
                continue;
            }
            let near = &self.rare[..block.near_end];
            let top = &self.rare[block.far_end[s]..];
            for &r in near.iter().chain(top) {
                let r = r as usize;
                if r < m {
                    found |= 1 << ((g[r].get() ^ g[m - r].get()) & 63);
                }
            }
        }
        found
    }

    /// Precompute the far rare options of the block of heaps starting at `g.len()`.
    fn build_block<V: Value>(&mut self, g: &[V]) {
        let n = g.len();
        let rare = &self.rare;
        let block = &mut self.word.block;
        block.start = n;
        block.epoch = self.rare_epoch;
        block.masks = [0; BLOCK];
        block.near_end = rare.partition_point(|&r| (r as usize) < BLOCK);
        block.far_end.clear();
        for m0 in self.moves.split_heaps(n) {
            let far_end = if m0 >= 2 {
                // partners of r >= BLOCK for the heaps m0 .. m0 + BLOCK are below n
                let end = rare
                    .partition_point(|&r| (r as usize) < m0)
                    .max(block.near_end);
                let far = &rare[block.near_end..end];
                self.stats.rare_options += (far.len() * BLOCK) as u64;
                kernels::far_masks(g, far, m0, self.span <= 32, &mut block.masks);
                end
            } else {
                block.near_end
            };
            block.far_end.push(far_end);
        }
    }
}

impl WordSearch {
    /// The value of a [`WordCandidate::Open`] heap `n = g.len()`: around past witnesses
    /// first, then from the middle of each heap outwards. Exact whatever the state holds.
    pub(super) fn search<V: Value>(
        &mut self,
        moves: &OctalMoves,
        g: &[V],
        mut found: u64,
        blocked: u64,
        stats: &mut SparseStats,
    ) -> usize {
        if self.hints.len() < moves.split.len() {
            self.hints.resize(moves.split.len(), [[0; HINT_DEPTH]; 64]);
        }
        if self.hint_control.should_try() {
            let (after, done) = self.hinted(moves, g, found, blocked, stats);
            self.hint_control.report(done);
            if done {
                stats.hinted += 1;
                return mex(after);
            }
            found = after;
        }
        self.middle_out(moves, g, found, blocked, stats)
    }

    /// Look right around the witnesses found for the last few heaps, for each value still
    /// missing. Returns the options found and whether the mex is proved.
    fn hinted<V: Value>(
        &mut self,
        moves: &OctalMoves,
        g: &[V],
        mut found: u64,
        blocked: u64,
        stats: &mut SparseStats,
    ) -> (u64, bool) {
        let n = g.len();
        let mut want_all = pending(found, blocked);
        for (s, m) in moves.split_heaps(n).enumerate() {
            if m < 2 {
                continue;
            }
            let hints = &mut self.hints[s];
            let mut want = want_all;
            while want != 0 {
                let t = want.trailing_zeros() as usize;
                want &= want - 1;
                for back in 0..HINT_DEPTH {
                    if want_all >> t & 1 == 0 {
                        break;
                    }
                    let h = hints[t][back] as usize;
                    if h == 0 {
                        continue;
                    }
                    let lo = h.saturating_sub(HINT_REACH).max(1);
                    let hi = (h + HINT_REACH + 1).min(m / 2 + 1);
                    if lo >= hi {
                        continue;
                    }
                    stats.scanned_options += (hi - lo) as u64;
                    let len = hi - lo;
                    let (low, high) = (&g[lo..hi], &g[m + 1 - hi..=m - lo]);
                    let (low, high) = (&low[..len], &high[..len]);
                    let mut mask = 0u64;
                    for j in 0..len {
                        mask |= 1 << ((low[j].get() ^ high[len - 1 - j].get()) & 63);
                    }
                    found |= mask;
                    if mask >> t & 1 == 1 {
                        // usually the witness is the hint itself: no need to look for it
                        if (g[h].get() ^ g[m - h].get()) as usize == t {
                            record_hint(&mut hints[t], h);
                        } else if let Some(j) = (0..len)
                            .find(|&j| (low[j].get() ^ high[len - 1 - j].get()) as usize == t)
                        {
                            record_hint(&mut hints[t], lo + j);
                        }
                    }
                    want_all = pending(found, blocked);
                }
                if want_all == 0 {
                    return (found, true);
                }
            }
        }
        (found, false)
    }

    /// Scan the splits of every heap from the middle outwards in growing chunks until the mex is
    /// proved (positions near the middle have settled into the common values, which is where
    /// witnesses are), remembering where the values still missing turned up.
    fn middle_out<V: Value>(
        &mut self,
        moves: &OctalMoves,
        g: &[V],
        mut found: u64,
        blocked: u64,
        stats: &mut SparseStats,
    ) -> usize {
        let n = g.len();
        let cursors = &mut self.cursors;
        cursors.clear();
        cursors.extend(
            moves
                .split_heaps(n)
                .map(|m| if m >= 2 { m / 2 + 1 } else { 1 }),
        );
        let mut want = pending(found, blocked);
        let mut chunk = 32usize;
        loop {
            let mut progressed = false;
            for (s, m) in moves.split_heaps(n).enumerate() {
                let hi = cursors[s];
                if hi <= 1 {
                    continue;
                }
                let lo = hi.saturating_sub(chunk).max(1);
                cursors[s] = lo;
                progressed = true;
                stats.scanned_options += (hi - lo) as u64;
                let mask = kernels::xor_mask(g, m, lo, hi);
                note_witnesses(&mut self.hints[s], g, m, lo, hi, mask & want);
                found |= mask;
                want = pending(found, blocked);
                if want == 0 {
                    return mex(found);
                }
            }
            if !progressed {
                stats.exhaustive_scans += 1;
                return mex(found);
            }
            chunk = (chunk * 2).min(1 << 14);
        }
    }
}

/// Remember where the values of `newly` (just found among the splits `lo..hi` of a heap of `m`)
/// were witnessed.
fn note_witnesses<V: Value>(
    hints: &mut [Hints; 64],
    g: &[V],
    m: usize,
    lo: usize,
    hi: usize,
    newly: u64,
) {
    let mut newly = newly;
    while newly != 0 {
        let t = newly.trailing_zeros() as u16;
        newly &= newly - 1;
        if let Some(i) = (lo..hi).find(|&i| g[i].get() ^ g[m - i].get() == t) {
            record_hint(&mut hints[t as usize], i);
        }
    }
}
