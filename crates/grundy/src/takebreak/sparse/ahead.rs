//! The far rare options of later heaps, marked ahead of the lead by the verifying threads
//! (issue 25: the candidate stage spread over threads).
//!
//! On the wide path the lead's candidate stage marks, for each block of [`MAP_BLOCK`] heaps,
//! the options `(r, m - r)` of every rare position `r` far below the block (`wide`'s
//! `build_map_block`): on 0.206 and 0.146 that is most of the lead's time (a `perf` profile of
//! 0.206 at 3.2·10^8 on two threads: 47% of both threads' samples in `far_maps`, all of them on
//! the lead), so two threads were limited by the lead, not by the searches.
//!
//! Those options read only `G(m0 + j - r)` with `m0 <= start` of the block: for a rare position
//! `r >= D`, values at least `D - MAP_BLOCK` heaps behind the block. So a verifier, when it
//! has no search to run, prepares the maps of a later block for the rare positions at or above
//! `D` ([`Tuning::ahead_from`](super::Tuning)), reading only values that are already
//! *confirmed* — every heap below the verifiers' confirmed count is proved, and a rollback
//! rewrites only values at or above it — and the lead, reaching the block, marks the rare
//! positions below `D` itself and ors the prepared maps into its own. The values are the same
//! whoever marks an option: the union of the two parts is exactly the options the lead would
//! mark alone (`wide::mark_far` over the rare positions below and from `D`, each part with the
//! later split moves' reuse of the first move's maps, which holds for any subset of the rare
//! positions).
//!
//! What makes a prepared block valid, and how each is checked:
//! - *the values it read*: all below the confirmed count, less one, when the verifier started,
//!   which no rollback rewrites (a failure is always at or above the count); read through the
//!   pipeline's shared values after an acquire of that count, which the verifiers publish under
//!   the report's lock after confirming. Less one because the last confirmed heap's value may
//!   not be written yet (see [`Ahead::confirm`]; found by an independent review: the read of
//!   it needs a split move that takes nothing, a rare position at exactly `D` and a block
//!   in the ring, so with `D = 1024` it could not happen, but the slice covered it);
//! - *the rare positions*: a copy taken when the pipeline call starts, with the engine's
//!   `rare_epoch` and the number of rare positions; the lead uses a prepared block only while
//!   both are unchanged (a new split changes the epoch, a new rare position is appended to
//!   the list: from then on, to the call's end, the lead marks everything itself, and the
//!   verifiers stop preparing);
//! - *the layout*: the maps' stride and the span (a new largest value widens both), checked
//!   the same way.
//!
//! Each block has a slot in a ring of [`RING`] slots (block `b` in slot `b % RING`) with a
//! state; a verifier claims a block before it marks, so no two threads mark one block, and the
//! lead claims the block it needs when no verifier has: it then marks it all itself (it never
//! waits for a verifier that has not started). A verifier claims the nearest unclaimed block
//! at least [`GAP`] after the lead's, so that its marks are done before the lead gets there; a
//! block a verifier is still marking when the lead reaches it is waited for (nearly done, as
//! a rule) for at most [`WAIT`], then marked by the lead.
//! The ring and the copy of the rare positions live only as long as one pipeline call.

use super::kernels::MAP_BLOCK;
use super::wide::far_below;
use super::wide::{mark_far, FarLayout};
use super::OctalMoves;
use crate::takebreak::values::Value;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Blocks prepared at most ahead of the lead's (with 0.206's span of 1024, 16 blocks of maps
/// are 278 KB: they stay in the second-level cache of the thread that marks them).
pub(super) const RING: usize = 16;

/// The nearest block a verifier prepares is this many after the lead's. A block takes a
/// verifier about as long to mark as the lead takes over a whole block, so a verifier that
/// claimed the next block (a gap of 1) was still marking it when the lead got there, and the
/// lead waited: 0.206 from 2^28 on two threads, 1.1–1.3 s of the lead's ~8 s per 1.5·10^6
/// values spent waiting in [`Ahead::take`] with a gap of 1, 0.08–0.18 s with 2, at most 0.03 s
/// with 3 (`sparse_profile`'s "for blocks being marked ahead"; docs/performance.md).
const GAP: usize = 3;

/// `Ahead::lead_block` before the lead has taken a block.
const NO_BLOCK: usize = usize::MAX;

/// The longest the lead waits for a block a verifier is marking.
const WAIT: Duration = Duration::from_micros(200);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Nothing for this slot's block yet.
    Free,
    /// A verifier is marking it.
    Marking,
    /// Marked: the lead may take it.
    Ready,
    /// The lead has taken it or marks it itself: no verifier may claim it.
    Taken,
}

struct Slot {
    /// The block (heaps `MAP_BLOCK * block ..`) the state is about.
    block: usize,
    state: State,
    maps: Vec<u8>,
}

/// The prepared far options of one pipeline call (shared by the lead and the verifiers).
pub(super) struct Ahead {
    /// `D`: the rare positions at or above it are marked here.
    from: usize,
    /// The rare positions at or above `from` when the call started, ascending.
    far: Vec<u32>,
    /// The engine's head (see [`super::kernels::at`]): the values of the rare positions of a
    /// store of low bytes.
    head: Vec<u16>,
    /// The engine's `rare_epoch` and number of rare positions then.
    epoch: u64,
    rare_len: usize,
    layout: FarLayout,
    moves: OctalMoves,
    slots: Vec<Mutex<Slot>>,
    /// The block the lead is on ([`NO_BLOCK`] until it first takes one: a lead on the
    /// one-word path or marking its far options in registers never does, and then nothing is
    /// prepared).
    lead_block: AtomicUsize,
    /// Every heap below it is proved and its value written (published by the verifiers, see
    /// [`Ahead::confirm`]).
    confirmed: AtomicUsize,
    /// Set by the lead once its state no longer matches (the verifiers stop preparing).
    stale: AtomicBool,
}

impl Ahead {
    /// The ring of one pipeline call: the rare positions of `rare` at or above `from`, as of
    /// `epoch`, in maps of `layout`; `confirmed` heaps are proved.
    pub(super) fn new(
        from: usize,
        rare: &[u32],
        epoch: u64,
        layout: FarLayout,
        moves: &OctalMoves,
        confirmed: usize,
        head: &[u16],
    ) -> Self {
        let from = from.max(MAP_BLOCK);
        let at = rare.partition_point(|&r| (r as usize) < from);
        Ahead {
            from,
            far: rare[at..].to_vec(),
            head: head.to_vec(),
            epoch,
            rare_len: rare.len(),
            layout,
            moves: moves.clone(),
            slots: (0..RING)
                .map(|_| {
                    Mutex::new(Slot {
                        block: usize::MAX,
                        state: State::Free,
                        maps: Vec::new(),
                    })
                })
                .collect(),
            lead_block: AtomicUsize::new(NO_BLOCK),
            confirmed: AtomicUsize::new(confirmed),
            stale: AtomicBool::new(false),
        }
    }

    /// `D`.
    pub(super) fn from(&self) -> usize {
        self.from
    }

    fn slot(&self, block: usize) -> std::sync::MutexGuard<'_, Slot> {
        self.slots[block % RING]
            .lock()
            .expect("no thread panics holding a slot")
    }

    /// Whether the prepared blocks fit the lead's state — its rare positions (`rare_epoch` and
    /// how many: a new rare position is appended without a new epoch) and its maps' layout —
    /// else it stops using them, for good.
    pub(super) fn fits(&self, epoch: u64, rare_len: usize, layout: FarLayout) -> bool {
        if self.stale.load(Ordering::Relaxed) {
            return false;
        }
        let fits = epoch == self.epoch && rare_len == self.rare_len && layout == self.layout;
        if !fits {
            self.stale.store(true, Ordering::Relaxed);
        }
        fits
    }

    /// The lead: block `block`'s prepared maps, if a verifier has marked them (waiting for
    /// one that is marking them, at most [`WAIT`]); `None` if the lead must mark them itself.
    /// Moves the lead to `block` either way. Also returns how long the lead waited.
    pub(super) fn take(&self, block: usize) -> (Option<Vec<u8>>, Duration) {
        self.lead_block.store(block, Ordering::Relaxed);
        let mut waited: Option<Instant> = None;
        let waited_for = |w: Option<Instant>| w.map_or(Duration::ZERO, |t| t.elapsed());
        loop {
            let mut slot = self.slot(block);
            if slot.block != block {
                // nobody has it: the lead marks it (and no verifier will)
                slot.block = block;
                slot.state = State::Taken;
                return (None, waited_for(waited));
            }
            match slot.state {
                State::Ready => {
                    slot.state = State::Taken;
                    return (Some(std::mem::take(&mut slot.maps)), waited_for(waited));
                }
                State::Marking if waited.map_or(true, |t| t.elapsed() < WAIT) => {
                    drop(slot);
                    waited.get_or_insert_with(Instant::now);
                    for _ in 0..32 {
                        std::hint::spin_loop();
                    }
                }
                _ => {
                    // taken before (a rollback brought the lead back), or too slow
                    slot.state = State::Taken;
                    return (None, waited_for(waited));
                }
            }
        }
    }

    /// The lead: the buffer of a taken block back, for a later block's marks.
    pub(super) fn give_back(&self, block: usize, maps: Vec<u8>) {
        let mut slot = self.slot(block);
        if slot.block == block && slot.maps.is_empty() {
            slot.maps = maps;
        }
    }

    /// The options of block `start / MAP_BLOCK` that a prepared block holds (for the counts).
    pub(super) fn options(&self, start: usize) -> u64 {
        self.moves
            .split_heaps(start)
            .filter(|&m0| m0 >= 2)
            .map(|m0| {
                let end = self
                    .far
                    .partition_point(|&r| (r as usize) < far_below(m0, &self.head));
                (end * MAP_BLOCK) as u64
            })
            .sum()
    }

    /// A verifier: every heap below `confirmed` is proved (called under the report's lock).
    ///
    /// Published is one less: the values below `confirmed - 1` were written before the batches
    /// that confirm them were sent, but `G(confirmed - 1)` may not be — a lead that waits for a
    /// heap to be proved before it takes a value (`settle(n + 1)`) sends a batch covering heap
    /// `n` and writes `G(n)` only after the wait (and not at all when it does not fit the
    /// store). Every batch covers at most one heap past the values written, so every value
    /// below `confirmed - 1` is written.
    pub(super) fn confirm(&self, confirmed: usize) {
        self.confirmed
            .fetch_max(confirmed.saturating_sub(1), Ordering::Release);
    }

    /// A verifier with nothing to search: prepare the next block that can be, if any.
    /// Returns whether it marked one.
    ///
    /// # Safety
    /// `prefix(len)` must return `G(0..len)` for any `len` up to the published confirmed
    /// count, values that are not written while the slice lives (the pipeline's shared values:
    /// no value below the confirmed count is ever rewritten).
    pub(super) unsafe fn prepare<'a, V: Value + 'a>(
        &self,
        prefix: impl Fn(usize) -> &'a [V],
    ) -> bool {
        if self.stale.load(Ordering::Relaxed) || self.far.is_empty() {
            return false;
        }
        let lead = self.lead_block.load(Ordering::Relaxed);
        if lead == NO_BLOCK {
            return false;
        }
        let confirmed = self.confirmed.load(Ordering::Acquire);
        for block in lead + GAP..lead + RING {
            let start = block * MAP_BLOCK;
            // the marks read G(i) for i < start - from + MAP_BLOCK
            if start + MAP_BLOCK > confirmed + self.from {
                return false;
            }
            let mut maps = {
                let mut slot = self.slot(block);
                if slot.block == block {
                    continue; // claimed, marked or taken
                }
                slot.block = block;
                slot.state = State::Marking;
                std::mem::take(&mut slot.maps)
            };
            let FarLayout { stride, words, .. } = self.layout;
            if maps.len() < MAP_BLOCK * stride {
                maps.resize(MAP_BLOCK * stride, 0);
            }
            for map in maps.chunks_exact_mut(stride).take(MAP_BLOCK) {
                map[..words * 64].fill(0);
            }
            let g = prefix(confirmed);
            let mut first = Vec::new();
            mark_far(
                g,
                &self.head,
                &self.far,
                self.moves.split_heaps(start),
                &mut maps,
                &mut first,
                self.layout,
            );
            let mut slot = self.slot(block);
            if slot.block == block && slot.state == State::Marking {
                slot.maps = maps;
                slot.state = State::Ready;
            }
            return true;
        }
        false
    }
}
