//! The sparse mode on two or more threads: a speculative pipeline of the two stages of a heap.
//!
//! A heap's value in the sparse mode is found in two stages, on either path (the one-word path
//! of [`super::word`] while every value is below 64, the wide path of [`super::wide`] beyond):
//! the *candidate* (every option with a rare position marked, the first value neither marked
//! nor producible by two common positions) and the *witness search*, which proves the
//! candidate by finding, for every value below it that is still missing, a split of two common
//! positions producing it. The search almost always succeeds (Officers: all but about 0.08% of
//! the heaps), and when it does the value *is* the candidate. So the lead thread (the caller's)
//! computes candidates heap after heap and writes `G(n) = candidate` at once, and the other
//! threads run the witness search of each heap behind it, against the values exactly as the
//! lead used them. The two paths differ only in what a job carries (the wide path's packed
//! options and span, the one-word path's option word and blocked values: [`Work`]) and in the
//! search state each verifier keeps ([`Searcher`]); a search's value never depends on that
//! state (hints, cursors and carries only make it faster), so which thread searches a heap
//! does not change its value. A batch may hold jobs of both paths (a value of 64 changes the
//! span, which the lead takes only once every earlier heap is confirmed, see below).
//!
//! Every value stays proved. When the second thread finds a heap `f` whose witnesses are not
//! all there, its search has computed the true `G(f)` (the smallest value without a witness,
//! which is the mex, given that every value below `f` is right): everything the lead did after
//! `f` is discarded, `G(f)` gets the proved value and the pipeline restarts after it (after two
//! failures close together the lead runs the searches itself for a while). Any event
//! that changes the engine's state beyond a count (a value that would be a rare position, a
//! key seen for the first time, a value at or above the span, a review of the split) is taken
//! only once every earlier heap is confirmed: the lead waits for the second thread there, so
//! that the state it rolls back is only the counts of values it speculated. When the second
//! thread falls behind (its queue is full), the lead runs the searches of the next heaps itself
//! rather than wait, against the same values, so the two threads share the searches. When the
//! two threads did not overlap in a batch (the lead waited for more than an eighth of it, or
//! ran more searches than the second thread: the machine's other cores are busy), the next
//! batches run on one thread, twice as many after each such batch ([`Backoff`]).
//! The values are therefore exactly the serial engine's; the tests compare the two on every
//! two-digit code, a sample of three-digit ones, Officers, 0.16, and codes with poor splits
//! where the speculation fails often (on both paths).
//!
//! The one-word path needs nothing more: its search ([`WordSearch::search`]) stops before the
//! last split only when every missing value below the candidate has a witness (its value is
//! then the candidate), and otherwise has looked at every split, so that its value is the mex
//! itself; what the lead prepared from speculated values (the word path's block of far rare
//! options, the wide path's maps and register marks) is dropped at a rollback.
//!
//! # More threads: several verifiers
//! With `t` threads there are `t - 1` verifiers, each with its own witness state and queue; the
//! lead numbers its batches in each epoch (`seq` = 0, 1, 2, ...) and sends batch `seq` to
//! verifier `seq mod (t - 1)`. The verifiers work on different batches at once, so batches
//! complete out of order; the confirmed prefix moves only over the batches completed in order
//! (`Report::done`, `next_seq`). The speculative-rollback argument carries over with one
//! change, *which* failure is acted on and *when*:
//! - a verifier that finds a wrong candidate at heap `f` of batch `s` has searched the jobs of
//!   `s` before `f` in order and found them right; it records `(s, f, G(f))` unless a failure
//!   of an earlier batch is recorded (an earlier batch means earlier heaps: batches are
//!   consecutive ranges);
//! - `G(f)` computed by that search is the true value only if every value below `f` is right,
//!   which is known only once every batch before `s` is confirmed: the lead acts on the failure
//!   (rolls back at `f`) only when `next_seq >= s`. Until then an earlier batch may still fail,
//!   and its failure replaces this one (`Report::ready_failure`);
//! - batches after `s` are of no use once `s` failed: a verifier skips them, and one that is
//!   searching such a batch stops at its next job (`failed_seq`). Each verifier marks the batch
//!   whose values it is reading (`Report::busy`, under the lock), and the lead rewrites values
//!   from `f` on only once no verifier is reading a batch after `s` (batches before `s` are all
//!   complete by then, and read only values below `f`);
//! - after the rollback the epoch changes under the lock; a verifier checks a batch's epoch
//!   under the same lock before it marks the batch as read, so no batch of the old epoch is
//!   read after the rewrite.
//!
//! # What synchronisation costs, and how it is kept small
//! Per batch (16 heaps on the wide path, about 10 µs of Officers' searches; 256 on the
//! one-word path, whose searches take some 50 ns): one message on a bounded channel, two
//! uncontended locks of the report by the verifier, and nothing else: no allocation, as a
//! verifier hands the emptied batch back under its second lock and the lead fills it again
//! ([`Report::spare`]). While the lead holds a batch that found its queue full (it searches
//! the next heaps itself meanwhile), it looks at every heap whether the queue has room by two
//! counts, the batches it sent and the batches the verifier has taken ([`Shared::taken`], one
//! atomic load), and offers the batch again only then: offering it at every heap (a
//! `try_send` that moves the batch in and out) took about 4% of 0.16's CPU on two threads.
//! A verifier wakes the lead (`Condvar::notify_all`, a system call each time) only when the
//! lead has said under the lock that it waits (`Report::lead_waits`); the lead polls for about
//! 20 µs before it sleeps, since most waits are for the last batches in the queue. The flags
//! read at every heap or job (`failed`, `failed_seq`) sit on cache lines of their own
//! ([`Flag`]), away from the mutex the verifiers write. Each call of
//! [`RareCommon::pipeline`] starts and joins its threads and ends with the queues drained, so
//! the driver hands an engine that batches chunks that grow while they take under 25 ms
//! (`driver::BATCH_TIME`): a few dozen calls per second, not one per 4,096 values.
//!
//! # What more threads buy, on paper
//! The lead does, per heap, everything but the witness search: the candidate stage, the
//! bookkeeping of the speculation, and between calls the driver (its period detector). The
//! verifiers share the searches, and the lead takes searches itself whenever the verifiers'
//! queues are full, so on `t` threads a run takes about `max(L, (L + S + O) / t)`, where `L` is
//! the lead's own share of one thread's time, `S` the searches' and `O` the pipeline's
//! overhead. Measured shares on one thread (`perf record -e cpu-clock` of `sparse_profile`,
//! to 2^22, issue 25's third pass; see docs/performance.md): Officers, searches about 61%
//! (`take_in_bits` 31%, the rest of `Witness::search` 22%, `collect_wanted_xors` 7%), the
//! candidate stage about 32% (`far_words_avx512` 24%, `candidate_wide` 7%, packing 2%), the
//! rest (bookkeeping, the driver) about 7%; 0.16, searches about 50% (`WordSearch::search`
//! 46%, `xor_mask` 4%), the candidate stage about 24% (`candidate_word` 16%, `far_masks` 7%),
//! the serial engine's bookkeeping (`sync`, `next_value`: a count in the pipeline) about 10%,
//! the driver about 9%. So `L` is about 0.39 for Officers and about 0.35 for 0.16: two threads
//! can reach 2x only with the lead taking some searches (it does: the queues fill), and the
//! bound `1 / L` is about 2.6x for Officers and 2.9x for 0.16, reached with three threads.
//! Eight or 64 cores buy nothing more: the extra verifiers wait. (0.146: the far maps about
//! 35%, the candidate stage's rest about 6%, searches about 47%: `1 / L` about 2.2x.)
//!
//! Going past `1 / L` needs the candidate stage spread too, and the rare options are where it
//! can be: heap `n + d`'s options with a rare position `r >= d` read only `G(m - r)` with
//! `m - r <= n`. This is built ([`super::ahead`], Rogalski's organisation of striping the rare
//! list, turned around: stripes of heaps): a verifier with no search to run marks the far
//! options of a later block of byte maps for the rare positions at or above `D = 1024`,
//! reading only confirmed values, and the lead ors them in and marks the rest. On the wide
//! path of 0.206 at its frontier (`sparse_profile` from G(0..6.4·10^8), one thread, `perf`)
//! the far options are about 39% of the work (of the samples outside the resume), the rest of
//! the candidate stage about 8% and the bookkeeping a few per cent, so `L` was about 0.5 — two threads were the most this engine could use on 0.206, whatever the
//! machine. With the far options of the positions from 1024 on prepared ahead (96% of 0.206's
//! 10,338 rare positions) the lead keeps the candidate's rest and 4% of the far options: `L`
//! about 0.13, so about 7 threads before the lead limits again (on paper: this machine has 2
//! cores). On 2 cores it depends on which thread is the slower: where the verifier searches
//! nearly all the time (0.206 at 6.4·10^8 on the AMD machine: 88%) each block it marks is a
//! search the lead then runs, and nothing is gained (`docs/performance.md`, "Two threads at
//! the frontier"); where the lead is the slower (0.206 at 2^28 on the Ice Lake machine) the
//! blocks a verifier marks in its idle time are the lead's gain, once the lead no longer
//! waits for them ([`super::ahead`]'s gap; "The lead waiting for its own next block").
//! On 64 cores the serial part (the lead's per-heap mex and bookkeeping, about 0.1 µs per
//! heap) bounds Officers near 10 million values/s whatever is spread; a run would need the
//! driver's detector off the lead as well.

//! # The searches' last values in blocks
//! With the blocks on ([`lanes`]; `Tuning::block_tail`, AVX-512 BW, two-byte values) a
//! verifier's wide-path search may stop with at most 16 values still wanted, all with the
//! index's bit; the verifier keeps the heap aside and goes on with the batch's next job. At the
//! end of the batch (or at its first failing job, or not at all when the batch is cut) it looks
//! for the kept heaps' values in its own list of that bit's positions, 32 heaps at once, and
//! searches any heap with a value left over again, from its job's options, as a heap of
//! its own: its value is proved as any other's. The first of those to fail is the batch's
//! failure, ahead of a failing job after it (the kept heaps all come before the job the batch
//! stopped at), so the failure reported is still the first heap of the batch whose candidate is
//! wrong. The list holds values the verifier has read, so the same rules cover it: it is cut
//! back to the call's first heap when a call starts, and to the failed heap after a rollback
//! (`Report::stale`, taken under the lock with the next batch) before it is read again.
//!
//! # Sharing the values without a data race
//! The values live in the caller's `Vec<u16>`, with room reserved for the whole batch up front
//! (so the buffer never moves); during the batch neither thread touches the `Vec` itself, only
//! a raw pointer to its buffer ([`SharedValues`]), and the length is set once at the end, to
//! the confirmed values only. Index `i` is written only by the lead, and only when no slice
//! covering `i` can be alive in the other thread:
//! - the lead writes `G(n)` for its next heap `n` while the second thread reads prefixes
//!   `G(0..m)` of heaps `m <= n` it was sent (disjoint);
//! - the second thread reads `G(0..m)` only after receiving heap `m`'s job over a channel,
//!   which the lead sends after writing those values (the channel orders the writes before the
//!   reads);
//! - a rollback at `f` rewrites indices `>= f`, but only after the second thread has reported
//!   the failure (through a mutex, which orders its reads before the rewrite) and stopped
//!   reading: it ignores every job of the failed epoch after `f`, and reads again only for
//!   jobs of the next epoch, sent after the rewrite.

use super::ahead::Ahead;
use super::lanes::{self, Deferred};
use super::wide::{Candidate, FarLayout, Open, Witness, DEFERRED};
use super::word::{WordCandidate, WordSearch};
use super::{Mode, OctalMoves, RareCommon, SparseStats};
use crate::takebreak::engine::value_too_large;
use crate::takebreak::values::Value;
use crate::Error;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TryRecvError, TrySendError};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Heaps whose witness searches are sent to a verifier in one message (the wide path) ...
const JOB_BATCH: usize = 16;
/// ... or 32 when the verifiers finish their searches' last values in blocks of up to 32
/// heaps ([`lanes`]): a batch is one block.
const TAIL_JOB_BATCH: usize = 32;
/// ... and on the one-word path, whose searches are some ten times shorter.
const WORD_BATCH: usize = 256;
/// A verifier keeps its own list of the index's positions for the blocks only while the list
/// holds at most one position in this many (or at most [`TAIL_LIST_MIN`]): 6 bytes a listed
/// position, so at most 0.006 bytes a value per verifier (0.206 past 6·10^8: one in 4,800;
/// a bit at the index's own limit, one in 32, would cost each verifier 0.19 bytes a value).
const TAIL_SHARE: usize = 1024;
const TAIL_LIST_MIN: usize = 1 << 16;
/// Messages that may wait for the second thread (bounds how far the lead runs ahead).
const QUEUE: usize = 4;
/// Most finished batches kept for the lead to fill again ([`Report::spare`]).
const SPARE_BATCHES: usize = 32;
/// Two rollbacks closer than this many heaps make the lead search every heap itself ...
const CLOSE_FAILURES: usize = 256;
/// ... for this many heaps.
const CAUTIOUS_HEAPS: usize = 256;

/// A batch of the pipeline in which the lead waited more than this share (1/x) of the time, or
/// ran more searches itself than the second thread did, did not overlap the two threads (on a
/// machine whose other cores are busy, the second thread waits for a core)...
const POOR_SHARE: u32 = 8;
/// ... and the next batches (twice as many after each poor one, up to this many) run on one
/// thread; a good batch resets the count.
const MAX_PAUSE: u32 = 64;

/// How the pipeline backs off when the two threads do not overlap.
#[derive(Debug, Clone, Default)]
pub(super) struct Backoff {
    /// Batches still to run on one thread.
    skip: u32,
    /// The pause after the next poor batch.
    pause: u32,
}

impl Backoff {
    /// Whether this batch may use the pipeline (counts a skipped one).
    pub(super) fn ready(&mut self) -> bool {
        if self.skip > 0 {
            self.skip -= 1;
            false
        } else {
            true
        }
    }

    fn report(&mut self, poor: bool) {
        if poor {
            self.pause = (2 * self.pause).clamp(1, MAX_PAUSE);
            self.skip = self.pause;
        } else {
            self.pause = 0;
        }
    }
}

/// The values buffer shared by the two threads (see the module documentation for why the
/// accesses below never overlap a write).
struct SharedValues<V> {
    ptr: *mut V,
}

impl<V> Clone for SharedValues<V> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<V> Copy for SharedValues<V> {}

// SAFETY: the pointer is used only as the module documentation describes: disjoint writes by
// the lead, reads of prefixes ordered after their writes by the channel and the mutex.
unsafe impl<V: Send> Send for SharedValues<V> {}
unsafe impl<V: Sync> Sync for SharedValues<V> {}

impl<V: Value> SharedValues<V> {
    /// `G(0..len)`.
    ///
    /// # Safety
    /// The first `len` values are initialised and none is written while the slice lives.
    unsafe fn prefix<'a>(self, len: usize) -> &'a [V] {
        std::slice::from_raw_parts(self.ptr, len)
    }

    /// Set `G(i) = v`.
    ///
    /// # Safety
    /// `i` is within the reserved room and no slice covering `i` is alive in either thread.
    unsafe fn write(self, i: usize, v: V) {
        self.ptr.add(i).write(v);
    }
}

/// One heap's witness search, as the lead left it: the heap, its candidate (its value if the
/// search succeeds) and what the search starts from ([`Job::work`]), with what is the same
/// for every job of its batch (the span, the blocked values) in the [`Batch`].
///
/// Packed into 16 bytes: the lead writes one per open heap into memory a verifier reads next
/// (and the lead writes again once the batch comes back), so each byte is a share of a cache
/// line moved from one core to the other and back; on the one-word path that traffic cost
/// the lead more than its own work when the two cores were far apart (48-byte jobs). The heap
/// is kept as its low 32 bits: every job of a batch lies below the batch's `upto` and less
/// than 2^32 heaps below it (a batch holds the jobs of one call of the pipeline, at most a
/// chunk of heaps), which gives the rest ([`Job::n`]). Values and counts of words are below
/// `2^17`.
struct Job {
    /// `n mod 2^32`.
    n: u32,
    /// The wide path's candidate, or [`Job::WORD`] (the one-word path's candidate is the first
    /// value neither found nor blocked).
    free: u32,
    /// Wide: the largest missing value below the candidate and the count of packed option
    /// words (32 bits each); one-word: the options found.
    a: u64,
}

const _: () = assert!(std::mem::size_of::<Job>() == 16);

/// What a witness search starts from (a [`Job`] unpacked).
enum Work {
    /// The wide path ([`Witness::search`]): the span, the largest missing value below the
    /// candidate, and `words` packed options (the next ones of the batch's `found`).
    Wide {
        span: usize,
        last: usize,
        words: usize,
    },
    /// The one-word path ([`WordSearch::search`]): the options found and the blocked values.
    Word { found: u64, blocked: u64 },
}

impl Job {
    const WORD: u32 = u32::MAX;

    fn word(n: usize, found: u64) -> Self {
        Job {
            n: n as u32,
            free: Job::WORD,
            a: found,
        }
    }

    fn wide(n: usize, free: usize, last: usize, words: usize) -> Self {
        debug_assert!(free < Job::WORD as usize && last < free && words <= u32::MAX as usize);
        Job {
            n: n as u32,
            free: free as u32,
            a: last as u64 | (words as u64) << 32,
        }
    }

    /// The heap, given that it lies below `upto` and less than 2^32 heaps below it (the
    /// batch's [`Batch::upto`] once it is sent).
    fn n(&self, upto: usize) -> usize {
        let n = upto - (upto as u32).wrapping_sub(self.n) as usize;
        debug_assert!(n < upto && n as u32 == self.n);
        n
    }

    /// The search's starting point and the value it proves if it succeeds.
    fn work(&self, batch: &Batch) -> (Work, usize) {
        if self.free == Job::WORD {
            // (the parity of a heap is that of its low bits)
            let (found, blocked) = (self.a, batch.blocked[self.n as usize & 1]);
            (
                Work::Word { found, blocked },
                WordCandidate::free(found, blocked),
            )
        } else {
            let work = Work::Wide {
                span: batch.span,
                last: self.a as u32 as usize,
                words: (self.a >> 32) as usize,
            };
            (work, self.free as usize)
        }
    }
}

/// A verifier's search states, one per path (each verifier has its own).
pub(super) struct Searcher {
    witness: Witness,
    word: WordSearch,
    /// The heaps of the batch under way whose searches were deferred ([`lanes`]).
    deferred: Vec<Deferred>,
    /// The bit of the deferred values (none: no search is deferred), for this call.
    tail_bit: Option<u32>,
}

/// Jobs of one epoch (the epoch changes at every rollback); `upto`: every heap below it has
/// been sent (heaps with no job were proved by the lead).
struct Batch {
    epoch: u64,
    /// Its place among the batches of its epoch (0, 1, 2, ...): batch `seq` goes to verifier
    /// `seq % verifiers`, and is confirmed once every batch before it is.
    seq: u64,
    jobs: Vec<Job>,
    found: Vec<u64>,
    upto: usize,
    /// The engine's span and blocked values (per parity) when its jobs were made: the same
    /// for all of them, as both change only with the engine's state, after a flush
    /// ([`Lead::push`] checks).
    span: usize,
    blocked: [u64; 2],
}

impl Batch {
    fn new(epoch: u64) -> Self {
        Batch {
            epoch,
            seq: 0,
            jobs: Vec::with_capacity(WORD_BATCH.max(TAIL_JOB_BATCH)),
            found: Vec::with_capacity(TAIL_JOB_BATCH * 16),
            upto: 0,
            span: 0,
            blocked: [0; 2],
        }
    }
}

/// What the verifiers tell the lead (and each other), for the current epoch.
#[derive(Default)]
struct Report {
    /// The epoch (set by the lead at every rollback).
    epoch: u64,
    /// Every heap below it is proved (in `epoch`).
    confirmed: usize,
    /// The batch whose completion moves `confirmed` next.
    next_seq: u64,
    /// Batches completed out of order: `seq` -> `upto`.
    done: BTreeMap<u64, usize>,
    /// `(seq, heap, value)`: the first heap whose candidate was wrong (of the earliest batch
    /// that had one), and its value. The lead acts on it once `next_seq` reaches `seq`: every
    /// earlier heap is then proved (the heaps of batch `seq` before it by the verifier that
    /// failed, which searches its jobs in order).
    failure: Option<(u64, usize, usize)>,
    /// Per verifier: the batch (`seq`) it is reading values for, if any.
    busy: Vec<Option<u64>>,
    /// Per verifier: the first value rewritten by a rollback since it last looked (its list of
    /// [`lanes`] forgets the positions from there on), `usize::MAX` if none.
    stale: Vec<usize>,
    /// Whether the lead waits on `Shared::changed` (verifiers notify it only then).
    lead_waits: bool,
    /// Batches the verifiers have finished with, emptied, for the lead to fill again: a new
    /// batch is two allocations (0.16 on two threads, when its jobs still grew from 16 to
    /// 128 by reallocations: 9% of the lead's time, and the lead is the slower of the two
    /// threads there). Kept across epochs (an empty batch has none).
    spare: Vec<Batch>,
}

impl Report {
    /// The failure, once every heap below it is proved.
    fn ready_failure(&self) -> Option<(usize, usize)> {
        match self.failure {
            Some((seq, f, v)) if self.next_seq >= seq => Some((f, v)),
            _ => None,
        }
    }
}

struct Shared {
    report: Mutex<Report>,
    changed: Condvar,
    /// Set with `report.failure` (read without the lock at every heap).
    failed: Flag<AtomicBool>,
    /// `report.failure`'s batch (`u64::MAX`: none): verifiers stop reading later batches.
    failed_seq: Flag<AtomicU64>,
    /// Per verifier, the batches it has taken from its queue: with the lead's count of those
    /// it sent, the room left in the queue, read at every open heap while a batch is held
    /// instead of offering the batch again (a `try_send` per heap cost the one-word path, whose
    /// searches take some 50 ns, about 4% of its CPU).
    taken: Vec<Flag<AtomicU64>>,
}

/// A flag read at every heap or job and written only at failures, on a cache line of its own:
/// beside the mutex (which a verifier writes twice per batch) every read would miss.
#[repr(align(128))]
struct Flag<T>(T);

impl<T> std::ops::Deref for Flag<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// The calling thread's CPU time and time spent waiting for a core so far, in nanoseconds
/// (Linux's scheduler statistics, updated at scheduler ticks; `(0, 0)` where there are none):
/// what the pipeline's threads did, apart from what the machine's other jobs took from them.
fn thread_times() -> (u64, u64) {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
    let mut fields = text
        .split_whitespace()
        .map(|x| x.parse::<u64>().unwrap_or(0));
    (fields.next().unwrap_or(0), fields.next().unwrap_or(0))
}

/// `thread_times()` since `before`.
fn thread_times_since(before: (u64, u64)) -> (u64, u64) {
    let now = thread_times();
    (
        now.0.saturating_sub(before.0),
        now.1.saturating_sub(before.1),
    )
}

/// How long the second thread polls for the next batch before it sleeps: batches come every
/// few microseconds, and waking a sleeping thread costs the lead a system call per batch.
const POLL: Duration = Duration::from_micros(50);

/// How long the lead polls for the verifiers' reports before it sleeps.
const SPIN: Duration = Duration::from_micros(20);

/// The next batch (`None` once the lead has dropped its sender), doing `spare` work (which
/// says whether there was any) while none is there.
fn next_batch(jobs: &Receiver<Batch>, mut spare: impl FnMut() -> bool) -> Option<Batch> {
    let mut start = Instant::now();
    loop {
        match jobs.try_recv() {
            Ok(batch) => return Some(batch),
            Err(TryRecvError::Disconnected) => return None,
            Err(TryRecvError::Empty) => {}
        }
        if spare() {
            start = Instant::now();
            continue;
        }
        for _ in 0..64 {
            match jobs.try_recv() {
                Ok(batch) => return Some(batch),
                Err(TryRecvError::Disconnected) => return None,
                Err(TryRecvError::Empty) => std::hint::spin_loop(),
            }
        }
        if start.elapsed() >= POLL {
            return jobs.recv().ok();
        }
    }
}

/// A verifier (one of the threads beside the lead): run the witness search of every job of
/// its batches, in order, and report.
#[allow(clippy::too_many_arguments)] // the call's shared parts, borrowed apart
fn verify<V: Value>(
    me: usize,
    values: SharedValues<V>,
    jobs: Receiver<Batch>,
    shared: &Shared,
    searcher: &mut Searcher,
    moves: &OctalMoves,
    ahead: Option<&Ahead>,
    head: &[u16],
) -> SparseStats {
    let tail_bit = searcher.tail_bit;
    let mut stats = SparseStats::default();
    // heaps this small are left to the search (a block's splits must all exist)
    let defer_from = moves.split.iter().max().map_or(usize::MAX, |&k| k + 64);
    let mut busy = Duration::ZERO;
    let mut idle = Duration::ZERO;
    let times = thread_times();
    let mut last_epoch = None;
    let lock = || shared.report.lock().expect("no thread panics holding it");
    loop {
        let waiting = Instant::now();
        let mut prepared = 0;
        let next = next_batch(&jobs, || {
            // SAFETY: `Ahead::prepare` asks only for values below the confirmed count less one,
            // which were written before it was published and are never rewritten (a rollback
            // rewrites values at or above the failed heap, which is not confirmed).
            let marked =
                ahead.is_some_and(|ahead| unsafe { ahead.prepare(|len| values.prefix(len)) });
            prepared += u64::from(marked);
            marked
        });
        stats.far_blocks_prepared += prepared;
        idle += waiting.elapsed();
        let Some(mut batch) = next else { break };
        // (its slot in the queue is free again: the lead may send the batch it holds)
        shared.taken[me].fetch_add(1, Ordering::Release);
        {
            let mut report = lock();
            // a batch of a rolled-back epoch, or after a known failure: not needed
            if batch.epoch != report.epoch || report.failure.is_some_and(|(s, _, _)| batch.seq > s)
            {
                continue;
            }
            // the lead rewrites no value this batch reads until the entry is cleared
            report.busy[me] = Some(batch.seq);
            let stale = std::mem::replace(&mut report.stale[me], usize::MAX);
            searcher.witness.tail.keep_below(stale);
        }
        if last_epoch != Some(batch.epoch) {
            // this state's last search may have read values a rollback has rewritten since
            // (a batch after the failed one, on this thread): its carry is not valid here
            searcher.witness.forget_carry();
            last_epoch = Some(batch.epoch);
        }
        let start = Instant::now();
        let mut failure = None;
        let mut cut = false;
        let mut words = batch.found.as_slice();
        searcher.deferred.clear();
        for (i, job) in batch.jobs.iter().enumerate() {
            if batch.seq > shared.failed_seq.load(Ordering::Acquire) {
                cut = true; // an earlier batch failed: the lead will discard this one
                break;
            }
            // SAFETY: G(0..job.n) were written before this job was sent, and are not written
            // again until this thread has cleared its `busy` entry (see `roll_back`).
            let n = job.n(batch.upto);
            let g = unsafe { values.prefix(n) };
            let (work, free) = job.work(&batch);
            let v = match work {
                Work::Wide {
                    span,
                    last,
                    words: count,
                } => {
                    let at = batch.found.len() - words.len();
                    let found;
                    (found, words) = words.split_at(count);
                    // (the bit index is the lead's: a verifier scans contiguously, and defers
                    // the last values with the bit of its own list)
                    let open = Open {
                        found,
                        free,
                        last,
                        index: None,
                        defer: tail_bit.filter(|_| n >= defer_from),
                        head,
                    };
                    let v = searcher.witness.search(moves, span, &mut stats, g, open);
                    if v == DEFERRED {
                        let wanted = &searcher.witness.deferred;
                        searcher.deferred.push(Deferred::new(n, wanted, i, at));
                        stats.second_searches += 1;
                        continue;
                    }
                    v
                }
                Work::Word { found, blocked } => {
                    searcher.word.search(moves, g, found, blocked, &mut stats)
                }
            };
            stats.second_searches += 1;
            if v != free {
                failure = Some((batch.seq, n, v));
                break;
            }
        }
        if let (false, Some(bit), Some(last)) = (cut, tail_bit, searcher.deferred.last()) {
            // the deferred heaps come before any failure above: the first of them to fail
            // replaces it
            // SAFETY: as for the searches (the largest deferred heap's prefix).
            let g = unsafe { values.prefix(last.n) };
            let g = V::as_u16s(g).expect("a tail bit only with two-byte values");
            let deferred = &mut searcher.deferred;
            let timer = Instant::now();
            lanes::resolve(
                &mut searcher.witness.tail,
                bit,
                g,
                moves,
                deferred,
                &mut stats,
            );
            stats.tail_nanos += timer.elapsed().as_nanos() as u64;
            stats.tail_deferred += deferred.len() as u64;
            for d in deferred.iter() {
                if d.count == 0 {
                    continue;
                }
                // a value the block did not find: the ordinary search, from the job's options
                stats.tail_resumed += 1;
                let (Work::Wide { span, last, words }, free) = batch.jobs[d.job].work(&batch)
                else {
                    unreachable!("deferred searches are the wide path's")
                };
                let open = Open {
                    found: &batch.found[d.words_at..d.words_at + words],
                    free,
                    last,
                    index: None,
                    defer: None,
                    head,
                };
                // SAFETY: as above.
                let g = unsafe { values.prefix(d.n) };
                searcher.witness.forget_carry();
                let v = searcher.witness.search(moves, span, &mut stats, g, open);
                if v != free {
                    failure = Some((batch.seq, d.n, v));
                    break;
                }
            }
        }
        busy += start.elapsed();
        let mut report = lock();
        report.busy[me] = None;
        if let Some((seq, _, _)) = failure {
            if report.failure.map_or(true, |(s, _, _)| seq < s) {
                report.failure = failure;
                shared.failed_seq.store(seq, Ordering::Release);
                shared.failed.store(true, Ordering::Release);
            }
        } else if !cut {
            if batch.seq == report.next_seq {
                // in order (always, with one verifier): no need to go through `done`
                report.confirmed = report.confirmed.max(batch.upto);
                report.next_seq += 1;
            } else {
                report.done.insert(batch.seq, batch.upto);
            }
            while let Some(upto) = {
                let next = report.next_seq;
                report.done.remove(&next)
            } {
                report.confirmed = report.confirmed.max(upto);
                report.next_seq += 1;
            }
            if let Some(ahead) = ahead {
                ahead.confirm(report.confirmed);
            }
        }
        if report.spare.len() < SPARE_BATCHES {
            // (emptying a batch frees nothing: a job owns no memory)
            batch.jobs.clear();
            batch.found.clear();
            report.spare.push(batch);
        }
        // a notification is a system call: only when the lead waits for one (it sets
        // `lead_waits` under the lock before it waits, so none is missed)
        let wake = report.lead_waits;
        drop(report);
        if wake {
            shared.changed.notify_all();
        }
    }
    stats.verify_nanos += busy.as_nanos() as u64;
    stats.verifier_idle_nanos += idle.as_nanos() as u64;
    (stats.verifier_cpu_nanos, stats.verifier_runqueue_nanos) = thread_times_since(times);
    stats
}

/// The lead's side of the pipeline.
struct Lead<'a, V> {
    values: SharedValues<V>,
    shared: &'a Shared,
    /// One queue per verifier.
    jobs: Vec<SyncSender<Batch>>,
    /// Per verifier, the batches sent to its queue (see [`Shared::taken`]).
    sent: Vec<u64>,
    /// The next batch's `seq`.
    seq: u64,
    pending: Batch,
    /// Empty batches to fill (taken from [`Report::spare`]).
    spare: Vec<Batch>,
    /// A full batch the queue had no room for (sent before any later one).
    held: Option<Batch>,
    epoch: u64,
    /// The lead's next heap: `G(0..next)` are written (and absorbed by the engine).
    next: usize,
    /// Every heap below it is proved.
    confirmed: usize,
    last_failure: Option<usize>,
    cautious: usize,
    waited: Duration,
    /// The value of heap `next` when it does not fit the store (the pipeline then ends there,
    /// and the caller moves the store to `u16`).
    overflow: Option<u16>,
    /// Jobs per batch on the wide path.
    job_batch: usize,
}

impl<V: Value> Lead<'_, V> {
    fn batch(&mut self, upto: usize) -> Batch {
        let fresh = self.fresh();
        let batch = std::mem::replace(&mut self.pending, fresh);
        let seq = self.seq;
        self.seq += 1;
        Batch { upto, seq, ..batch }
    }

    /// An empty batch of the current epoch: one the verifiers gave back if there is one (the
    /// lead takes all they have under one lock when its own stock is empty), else a new one.
    fn fresh(&mut self) -> Batch {
        if self.spare.is_empty() {
            let mut report = self
                .shared
                .report
                .lock()
                .expect("no thread panics holding it");
            std::mem::swap(&mut self.spare, &mut report.spare);
        }
        match self.spare.pop() {
            Some(mut batch) => {
                batch.jobs.clear();
                batch.found.clear();
                batch.epoch = self.epoch;
                batch.seq = 0;
                batch.upto = 0;
                batch
            }
            None => Batch::new(self.epoch),
        }
    }

    /// Add a job for heap `n` (with its packed option words, on the wide path) made with this
    /// span and these blocked values to the pending batch (after sending the batch if its jobs
    /// were made with others: they change only after a flush, so this is a safeguard).
    #[inline]
    fn push(&mut self, n: usize, job: Job, words: &[u64], span: usize, blocked: [u64; 2]) {
        let pending = &self.pending;
        if !pending.jobs.is_empty() && (pending.span != span || pending.blocked != blocked) {
            self.flush(n);
        }
        let pending = &mut self.pending;
        if pending.jobs.is_empty() {
            (pending.span, pending.blocked) = (span, blocked);
        }
        pending.jobs.push(job);
        // in copies of four words that the compiler writes out, not a call of `memcpy` per job
        // (Officers: nine words a job, the call about 1.7% of its two-thread CPU; the one-word
        // path's jobs have none)
        let found = &mut pending.found;
        found.reserve(words.len());
        let mut fours = words.chunks_exact(4);
        for four in &mut fours {
            let four: &[u64; 4] = four.try_into().expect("chunks of four");
            found.extend_from_slice(four);
        }
        for &word in fours.remainder() {
            found.push(word);
        }
    }

    /// The verifier (and queue) of batch `seq`.
    #[inline]
    fn queue_of(&self, seq: u64) -> usize {
        match self.jobs.len() {
            // (asked at every open heap while a batch is held: no division for one verifier)
            1 => 0,
            len => (seq % len as u64) as usize,
        }
    }

    /// Send the held batch and the pending jobs, waiting for room; every heap below `upto`
    /// has been sent.
    fn flush(&mut self, upto: usize) {
        let start = Instant::now();
        // (the second thread only ends when the sender is dropped: sending cannot fail)
        if let Some(held) = self.held.take() {
            self.send(held);
        }
        let batch = self.batch(upto);
        self.send(batch);
        self.waited += start.elapsed();
    }

    /// Send a batch, waiting for room.
    fn send(&mut self, batch: Batch) {
        let q = self.queue_of(batch.seq);
        self.sent[q] += 1;
        let _ = self.jobs[q].send(batch);
    }

    /// Send a batch if its queue has room, else give it back.
    fn try_send(&mut self, batch: Batch) -> Option<Batch> {
        let q = self.queue_of(batch.seq);
        match self.jobs[q].try_send(batch) {
            Err(TrySendError::Full(batch)) => Some(batch),
            _ => {
                self.sent[q] += 1;
                None
            }
        }
    }

    /// Whether the queue of batch `seq` is full by the counts: the verifier has taken all but
    /// [`QUEUE`] of the batches sent to it (a stale count only delays the next offer).
    #[inline]
    fn full(&self, seq: u64) -> bool {
        let q = self.queue_of(seq);
        self.sent[q] - self.shared.taken[q].load(Ordering::Acquire) >= QUEUE as u64
    }

    /// Send the pending jobs if there is room, else hold them (every heap below `upto` has
    /// been sent).
    fn offer(&mut self, upto: usize) {
        let batch = self.batch(upto);
        self.held = self.try_send(batch);
    }

    /// Whether the second thread is behind: a batch is held (sent now if there is room).
    #[inline]
    fn behind(&mut self) -> bool {
        // (called for every open heap: nothing held is the common case)
        let Some(seq) = self.held.as_ref().map(|held| held.seq) else {
            return false;
        };
        if self.full(seq) {
            return true;
        }
        let held = self.held.take().expect("a batch is held");
        self.held = self.try_send(held);
        self.held.is_some()
    }

    /// Wait until every heap below `upto` is proved (`None`) or a failure is reported.
    fn settle(&mut self, upto: usize, alive: &dyn Fn() -> bool) -> Option<(usize, usize)> {
        if self.confirmed >= upto && !self.shared.failed.load(Ordering::Acquire) {
            return None;
        }
        self.flush(upto);
        let start = Instant::now();
        let mut report = self
            .shared
            .report
            .lock()
            .expect("the verifier never panics holding it");
        let result = loop {
            debug_assert_eq!(report.epoch, self.epoch);
            if let Some(failure) = report.ready_failure() {
                break Some(failure);
            }
            if report.confirmed >= upto {
                self.confirmed = report.confirmed;
                break None;
            }
            if !alive() {
                panic!("a verifying thread of the pipeline stopped");
            }
            if start.elapsed() < SPIN {
                // most waits are short (the verifiers' last batches): poll before sleeping,
                // whose wake-up costs the lead more than the wait
                drop(report);
                for _ in 0..64 {
                    std::hint::spin_loop();
                }
                report = self
                    .shared
                    .report
                    .lock()
                    .expect("no thread panics holding it");
                continue;
            }
            report.lead_waits = true;
            report = self
                .shared
                .changed
                .wait_timeout(report, Duration::from_millis(100))
                .expect("the verifier never panics holding it")
                .0;
            report.lead_waits = false;
        };
        self.waited += start.elapsed();
        result
    }

    /// A failure reported by a verifier, once every heap below it is proved (no wait).
    fn failure(&self) -> Option<(usize, usize)> {
        if !self.shared.failed.load(Ordering::Acquire) {
            return None;
        }
        let report = self
            .shared
            .report
            .lock()
            .expect("the verifier never panics holding it");
        report.ready_failure()
    }
}

impl RareCommon {
    /// Whether the pipeline can compute heap `n` (the state is in step with `G(0..n)`): the
    /// sparse mode, on either path, once the split has been reviewed (before that nearly
    /// every value is a new key, which the lead may take only once confirmed), and not once a
    /// rare position could not be listed (the serial engine then stops with an error).
    pub(super) fn pipelines(&self, n: usize) -> bool {
        self.mode == Mode::Sparse && n >= self.tuning.first_review && self.rare.unlisted().is_none()
    }

    /// Whether heap `n`'s value is computed on the one-word path.
    fn narrow(&self) -> bool {
        self.span <= 64 && !self.tuning.force_wide && self.head.is_empty()
    }

    /// Whether taking `G(n) = v` changes nothing in the engine's state but one count, so that
    /// it can be taken back by decrementing that count.
    fn quiet(&self, n: usize, v: usize) -> bool {
        let q = n & 1;
        n >= 1
            && v < self.span
            && self.counts[2 * v + q] > 0
            && self.split.is_common(v as u16, q)
            && n + 1 < self.next_review
            && self.rare_count <= self.rare_trigger
    }

    /// Compute `G(n)` for `n` from `values.len()` up to `end` (or until the pipeline no longer
    /// applies) on two threads, appending them to `values`. The state must be in step with
    /// `values` and [`Self::pipelines`] true.
    ///
    /// Returns `Some(v)` when the next value `v` does not fit the store `V` (the pipeline ends
    /// there, every value before it proved and appended).
    pub(super) fn pipeline<V: Value>(
        &mut self,
        values: &mut crate::takebreak::values::Buf<V>,
        end: usize,
    ) -> Result<Option<u16>, Error> {
        let base = values.len();
        values.reserve(end - base);
        let shared_values = SharedValues {
            ptr: values.as_mut_ptr(),
        };
        // the first verifier takes the search states, the others extra ones; the lead searches
        // with the spare ones
        let verifiers = self.threads.max(2) - 1;
        let spare = self.wide.spare.take().unwrap_or_default();
        let mut witnesses = vec![std::mem::replace(&mut self.wide.witness, spare)];
        witnesses.append(&mut self.wide.extra);
        witnesses.resize_with(verifiers.max(witnesses.len()), Witness::default);
        let spare = self.word.spare.take().unwrap_or_default();
        let mut words = vec![std::mem::replace(&mut self.word.search, spare)];
        words.append(&mut self.word.extra);
        words.resize_with(witnesses.len(), WordSearch::default);
        // the verifiers' bit for the searches' last values (see `lanes`): the index's, while
        // each verifier's copy of its list stays small
        let (bit, listed) = self.index.summary();
        let tail_bit = bit.filter(|_| {
            self.tuning.block_tail
                && V::as_u16s(&[]).is_some()
                && !self.moves.split.is_empty()
                && listed <= (base / TAIL_SHARE).max(TAIL_LIST_MIN)
                && lanes::available()
                // (a verifier's list holds positions below `end` in 32 bits)
                && end <= u32::MAX as usize
        });
        let mut states: Vec<Searcher> = witnesses
            .into_iter()
            .zip(words)
            .map(|(mut witness, word)| {
                if tail_bit.is_some() {
                    // values from `base` on are this call's (earlier calls' may have been
                    // dropped)
                    witness.tail.keep_below(base);
                } else {
                    witness.tail = lanes::TailList::default();
                }
                Searcher {
                    witness,
                    word,
                    deferred: Vec::new(),
                    tail_bit,
                }
            })
            .collect();
        let moves = self.moves.clone();
        let shared = Shared {
            report: Mutex::new(Report {
                confirmed: base,
                busy: vec![None; verifiers],
                stale: vec![usize::MAX; verifiers],
                ..Report::default()
            }),
            changed: Condvar::new(),
            failed: Flag(AtomicBool::new(false)),
            failed_seq: Flag(AtomicU64::new(u64::MAX)),
            taken: (0..verifiers).map(|_| Flag(AtomicU64::new(0))).collect(),
        };
        let (senders, receivers): (Vec<_>, Vec<_>) =
            (0..verifiers).map(|_| sync_channel::<Batch>(QUEUE)).unzip();
        // the far options of the wide path's byte maps, marked ahead by the verifiers when
        // they have no search to run (see `ahead`)
        let words = self.span / 64 + 1;
        let ahead = (self.tuning.ahead_from > 0 && !self.narrow()).then(|| {
            let layout = FarLayout {
                stride: words * 64,
                words,
                span: self.span,
            };
            let (from, epoch) = (self.tuning.ahead_from, self.rare_epoch);
            Arc::new(Ahead::new(
                from,
                &self.rare,
                epoch,
                layout,
                &self.moves,
                base,
                &self.head,
            ))
        });
        self.wide.ahead = ahead.clone();
        let (start, lead_before) = (Instant::now(), self.stats.lead_searches);
        let times = thread_times();
        // the verifiers' copy of the head (see `kernels::at`; empty but for a store of low bytes)
        let head = self.head.clone();
        let (result, confirmed, mut stats) = std::thread::scope(|scope| {
            let (shared, moves, ahead, head) = (&shared, &moves, ahead.as_deref(), &head[..]);
            let handles: Vec<_> = receivers
                .into_iter()
                .zip(states.iter_mut())
                .enumerate()
                .map(|(me, (receiver, searcher))| {
                    scope.spawn(move || {
                        verify(
                            me,
                            shared_values,
                            receiver,
                            shared,
                            searcher,
                            moves,
                            ahead,
                            head,
                        )
                    })
                })
                .collect();
            let mut lead = Lead {
                values: shared_values,
                shared,
                sent: vec![0; senders.len()],
                jobs: senders,
                seq: 0,
                pending: Batch::new(0),
                spare: Vec::new(),
                held: None,
                epoch: 0,
                next: base,
                confirmed: base,
                last_failure: None,
                cautious: 0,
                waited: Duration::ZERO,
                overflow: None,
                job_batch: if tail_bit.is_some() {
                    TAIL_JOB_BATCH
                } else {
                    JOB_BATCH
                },
            };
            let alive = || handles.iter().all(|h| !h.is_finished());
            let spawned = start.elapsed();
            let result = self.lead(&mut lead, end, &alive);
            let (confirmed, waited, overflow) = (lead.confirmed, lead.waited, lead.overflow);
            let joining = Instant::now();
            drop(lead); // closes the channels: the verifiers end
            let mut stats = SparseStats::default();
            for handle in handles {
                let theirs = handle
                    .join()
                    .unwrap_or_else(|e| std::panic::resume_unwind(e));
                stats.add(&theirs);
            }
            stats.lead_wait_nanos += waited.as_nanos() as u64;
            stats.setup_nanos += (spawned + joining.elapsed()).as_nanos() as u64;
            (result.map(|()| overflow), confirmed, stats)
        });
        self.wide.ahead = None;
        stats.pipeline_nanos += start.elapsed().as_nanos() as u64;
        (stats.lead_cpu_nanos, stats.lead_runqueue_nanos) = thread_times_since(times);
        let (witnesses, words): (Vec<_>, Vec<_>) =
            states.into_iter().map(|s| (s.witness, s.word)).unzip();
        let mut witnesses = witnesses.into_iter();
        let first = witnesses.next().expect("one verifier at least");
        self.wide.spare = Some(std::mem::replace(&mut self.wide.witness, first));
        self.wide.extra = witnesses.collect();
        let mut words = words.into_iter();
        let first = words.next().expect("one verifier at least");
        self.word.spare = Some(std::mem::replace(&mut self.word.search, first));
        self.word.extra = words.collect();
        let waited = Duration::from_nanos(stats.lead_wait_nanos);
        let lead_searches = self.stats.lead_searches - lead_before;
        self.backoff
            .report(waited > start.elapsed() / POOR_SHARE || lead_searches > stats.second_searches);
        self.stats.add(&stats);
        self.stats.pipelined += (confirmed - base) as u64;
        // SAFETY: G(0..confirmed) are written and proved; the verifiers have ended.
        unsafe { values.set_len(confirmed) };
        if confirmed < self.seen {
            // an error left speculative values absorbed: start the state over from the values
            self.reset();
        }
        result
    }

    /// The lead thread's loop (see the module documentation).
    fn lead<V: Value>(
        &mut self,
        lead: &mut Lead<V>,
        end: usize,
        alive: &dyn Fn() -> bool,
    ) -> Result<(), Error> {
        loop {
            if lead.overflow.is_some() {
                // every heap before it is proved (`take` is only called then)
                return Ok(());
            }
            if let Some((f, v)) = lead.failure() {
                self.roll_back(lead, f, v)?;
                continue;
            }
            let n = lead.next;
            if n == end || !self.pipelines(n) {
                match lead.settle(n, alive) {
                    Some((f, v)) => self.roll_back(lead, f, v)?,
                    None => return Ok(()),
                }
                continue;
            }
            // SAFETY: the lead wrote G(0..n) and writes nothing while `g` lives.
            let g = unsafe { lead.values.prefix(n) };
            let narrow = self.narrow();
            let value = if narrow {
                match self.candidate_word(g) {
                    WordCandidate::Proved(v) => v,
                    WordCandidate::Open { found, blocked }
                        if lead.cautious > 0 || lead.behind() =>
                    {
                        self.stats.lead_searches += 1;
                        self.word
                            .search
                            .search(&self.moves, g, found, blocked, &mut self.stats)
                    }
                    WordCandidate::Open { found, blocked } => {
                        let free = WordCandidate::free(found, blocked);
                        let both = [self.split.blocked_low(0), self.split.blocked_low(1)];
                        debug_assert_eq!(both[n & 1], blocked);
                        lead.push(n, Job::word(n, found), &[], self.span, both);
                        free
                    }
                }
            } else {
                match self.candidate_wide(g) {
                    Candidate::Proved(v) => v,
                    // after failures close together, or while the second thread is behind: search
                    // here (against the same values)
                    Candidate::Open { free, last } if lead.cautious > 0 || lead.behind() => {
                        self.stats.lead_searches += 1;
                        self.search_wide(g, free, last)
                    }
                    Candidate::Open { free, last } => {
                        let words = self.found_words();
                        let both = [self.split.blocked_low(0), self.split.blocked_low(1)];
                        lead.push(
                            n,
                            Job::wide(n, free, last, words.len()),
                            words,
                            self.span,
                            both,
                        );
                        free
                    }
                }
            };
            lead.cautious = lead.cautious.saturating_sub(1);
            if self.quiet(n, value) && V::fit(value).is_some() {
                // speculate: G(n) = the candidate, only its count taken
                // SAFETY: index n is the lead's own (see the module documentation).
                // (a value seen before: it fits the store)
                let stored = V::fit(value).expect("a value seen before fits the store");
                unsafe { lead.values.write(n, stored) };
                self.counts[2 * value + (n & 1)] += 1;
                self.seen = n + 1;
                lead.next = n + 1;
                if lead.pending.jobs.len() >= if narrow { WORD_BATCH } else { lead.job_batch } {
                    lead.offer(n + 1);
                }
                continue;
            }
            // a value that changes the state: only once it and every heap before it is proved
            if let Some((f, v)) = lead.settle(n + 1, alive) {
                self.roll_back(lead, f, v)?;
                continue;
            }
            self.take(lead, n, value)?;
        }
    }

    /// `G(n) = v`, proved, with every earlier value proved: write it and absorb it fully.
    fn take<V: Value>(&mut self, lead: &mut Lead<V>, n: usize, v: usize) -> Result<(), Error> {
        let wide = u16::try_from(v).map_err(|_| value_too_large(n))?;
        let Some(v) = V::fit(v) else {
            // the store is too narrow: end here, heap n not written (G(0..n) are proved, and
            // the engine has absorbed exactly them)
            debug_assert!(lead.confirmed >= n && self.seen == n);
            lead.next = n;
            lead.confirmed = n;
            lead.overflow = Some(wide);
            return Ok(());
        };
        // SAFETY: every heap up to n is proved, so the second thread reads below n only.
        unsafe { lead.values.write(n, v) };
        lead.next = n + 1;
        lead.confirmed = n + 1;
        // SAFETY: as above; the lead writes nothing while the slice lives.
        self.sync(unsafe { lead.values.prefix(n + 1) });
        Ok(())
    }

    /// Heap `f`'s candidate was wrong and its value is `v`: take back every value speculated
    /// from `f` on and restart after `f`.
    fn roll_back<V: Value>(&mut self, lead: &mut Lead<V>, f: usize, v: usize) -> Result<(), Error> {
        debug_assert!(f < lead.next || (f == lead.next && self.seen == f));
        // No verifier may be reading values from `f` on while they are rewritten: the ones
        // reading later batches than the failed one stop at their next job (`failed_seq`);
        // wait until none is left (their entries are cleared under the lock).
        {
            let start = Instant::now();
            let shared = lead.shared;
            let mut report = shared.report.lock().expect("no thread panics holding it");
            let failed_seq = report.failure.map_or(u64::MAX, |(seq, _, _)| seq);
            while report
                .busy
                .iter()
                .any(|b| b.is_some_and(|seq| seq > failed_seq))
            {
                report.lead_waits = true;
                report = shared
                    .changed
                    .wait_timeout(report, Duration::from_millis(10))
                    .expect("no thread panics holding it")
                    .0;
                report.lead_waits = false;
            }
            lead.waited += start.elapsed();
        }
        for k in f..lead.next {
            // SAFETY: the lead's own values; the second thread reads below f only.
            let old = unsafe { lead.values.prefix(k + 1) }[k].get() as usize;
            self.counts[2 * old + (k & 1)] -= 1;
        }
        self.stats.rollbacks += 1;
        self.stats.discarded += (lead.next.max(f + 1) - f - 1) as u64;
        self.seen = f;
        self.index.truncate(f);
        // the maps prepared for later heaps hold options of the discarded values
        self.drop_map_block(f);
        self.drop_word_block();
        lead.epoch += 1;
        lead.seq = 0;
        lead.pending = lead.fresh();
        lead.held = None;
        {
            let mut report = lead
                .shared
                .report
                .lock()
                .expect("the verifier never panics holding it");
            let busy = std::mem::take(&mut report.busy);
            let spare = std::mem::take(&mut report.spare);
            let mut stale = std::mem::take(&mut report.stale);
            for s in stale.iter_mut() {
                *s = (*s).min(f);
            }
            *report = Report {
                epoch: lead.epoch,
                confirmed: f,
                busy,
                spare,
                stale,
                ..Report::default()
            };
            lead.shared.failed_seq.store(u64::MAX, Ordering::Release);
            lead.shared.failed.store(false, Ordering::Release);
        }
        if lead.last_failure.is_some_and(|at| f < at + CLOSE_FAILURES) {
            lead.cautious = CAUTIOUS_HEAPS;
        }
        lead.last_failure = Some(f);
        lead.confirmed = f;
        self.take(lead, f, v)
    }
}

#[cfg(test)]
#[path = "pipeline_tests.rs"]
mod tests;
