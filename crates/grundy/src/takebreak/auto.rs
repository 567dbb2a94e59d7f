//! The default engine for octal codes: whichever of the naive and the rare/common engine
//! measures faster on the game at hand, re-checked as the sequence grows.
//!
//! Why: neither engine wins everywhere. The rare/common engine ([`super::sparse`]) is far ahead
//! on games with a sparse space (0.16, Officers), but on games whose values are large and whose
//! "rare" positions are half of all positions (0.346, 0.414) enumerating them one by one costs
//! more than the naive engine's vectorised mex over every split ([`super::naive`]). Which one
//! wins depends on the game, on n and on the machine, so it is measured rather than predicted.
//!
//! How: the run starts with the rare/common engine. At review points (n = 12288, then at each
//! later number of the form 3·2^k, 5·2^k or 7·2^k: every 1.17 to 1.43 times n, so a change of the
//! faster engine is noticed before the slower one has cost much, and at least n/7 away from the
//! rare/common engine's own reviews at powers of two so a rebuild of its state does not land in
//! a measurement) the *other* engine computes the next values
//! for a short trial (at least 5 values, then up to 256 values or 1/32 of the time since the
//! previous review — 1/512 when the other engine was at least 4 times slower at the previous
//! review); then the current engine computes as many values, timed the same way. The
//! other engine takes over when its median time per value is below 90% of the current one's
//! (medians, so that a value descheduled mid-computation on a shared machine decides nothing). Both engines compute the same G(n) (each proves every value), so the values do not
//! depend on the choice; the hand-over costs little: the naive engine's tables keep a window
//! of the last heap sizes ([`Naive::catch_up`]), the rare/common engine absorbs the values it
//! has not seen ([`RareCommon::catch_up`]). The state that is brought up to date before a
//! trial is not timed.

use super::engine::{next_values_of, CompactEngine};
use super::naive::Naive;
use super::sparse::{self, RareCommon};
use super::values::{Value, Values};
use super::{Rules, SequenceEngine};
use crate::Error;
use std::time::{Duration, Instant};

/// The engine's name in checkpoints (a checkpoint of `auto` resumes under `auto`).
pub const ENGINE_NAME: &str = "auto";
/// Version of the choice procedure, recorded in checkpoints.
pub const ENGINE_VERSION: u32 = 1;
/// The first review point.
pub const FIRST_REVIEW: usize = 3 << 12;
/// Most values in one trial of the other engine.
const TRIAL_VALUES: usize = 256;
/// Fewest values in one trial.
const TRIAL_MIN: usize = 5;
/// A trial of the other engine may take this fraction (1/x) of the time since the last review.
const TRIAL_SHARE: u32 = 32;
/// The other engine takes over when its time per value is below this share of the current one.
const MARGIN: f64 = 0.9;
/// When the other engine measured at least this many times slower at the last review, the
/// next trial gets only 1/[`FAR_TRIAL_SHARE`] of the time (still [`TRIAL_MIN`] values): a
/// gap that wide does not close in the 1.2–1.4 times n between two reviews, and a full trial
/// cost about 3% of Officers' run (the naive engine is hundreds of times slower there).
const FAR_BEHIND: f64 = 4.0;
/// See [`FAR_BEHIND`].
const FAR_TRIAL_SHARE: u32 = 512;
/// When the other engine measured at least this many times slower at the last review, its
/// next trial is a single value. Past a few hundred thousand heaps even [`TRIAL_MIN`] values of
/// the naive engine cost more than the 1/[`FAR_TRIAL_SHARE`] of the time they are allowed (each
/// reads every value below n): on 0.16 to 2^24 the trials were 4.5% of a one-thread run and 8%
/// of the lead thread's time on two. One value decides nothing wrongly in this direction: the
/// other engine's time can only be inflated (by a deschedule), which keeps the current engine,
/// and the current engine still computes at least [`TRIAL_MIN`] values, whose median does not
/// move for one value descheduled. The next review is then the first past twice the heap size
/// (one per doubling of n instead of about three): the untimed catch-up before a naive trial
/// costs as much again as its values (a scan of the values computed since the last trial, and
/// one pair pass per split move but one: [`Naive::catch_up`]; until session 18 one per slot
/// of its window, four passes for 0.206), so fewer trials is what saves most. A gap this wide does
/// not close within a doubling of n (the naive engine's time per value doubles with n); when it
/// narrows below this, trials are of [`TRIAL_MIN`] values at every review point again.
const VERY_FAR_BEHIND: f64 = 32.0;

/// The review point after heap size `n`: the least number above `n` of the form 3·2^k, 5·2^k
/// or 7·2^k (so 12288, 14336, 20480, 24576, 28672, 40960, ...). Each trial costs at most 1/32 of the
/// time since the previous review, so reviewing more often than at doublings costs no more in
/// total; the closer reviews bound the stretch run on the slower engine after the two engines'
/// speeds cross (on 0.764 to 10^5, reviews at doublings switched to the naive engine only at
/// n = 52,736, 18% slower than the naive engine alone).
fn review_after(n: usize) -> usize {
    [3usize, 5, 7]
        .into_iter()
        .map(|m| {
            let mut c = m;
            while c <= n {
                c = c.saturating_mul(2);
                if c == usize::MAX {
                    break;
                }
            }
            c
        })
        .min()
        .unwrap_or(usize::MAX)
}

/// One of the two engines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Which {
    /// The rare/common engine.
    Sparse,
    /// The naive engine.
    Naive,
}

impl Which {
    /// The engine's own name ("sparse", "naive").
    pub fn name(self) -> &'static str {
        match self {
            Which::Sparse => sparse::ENGINE_NAME,
            Which::Naive => "naive",
        }
    }

    fn other(self) -> Which {
        match self {
            Which::Sparse => Which::Naive,
            Which::Naive => Which::Sparse,
        }
    }
}

/// Where a review stands.
#[derive(Debug, Clone)]
enum Trial {
    /// The other engine computes values (at least [`TRIAL_MIN`], then until `budget` of time
    /// or [`TRIAL_VALUES`] values): the time of each.
    Other {
        times: Vec<Duration>,
        budget: Duration,
    },
    /// The current engine computes as many values: the time of each, and the other's.
    Current {
        times: Vec<Duration>,
        other: Vec<Duration>,
    },
}

/// The median of some durations, in seconds: a value that was descheduled in the middle of
/// its computation (the machine is shared) does not decide the choice.
fn median(times: &mut [Duration]) -> f64 {
    times.sort_unstable();
    times[times.len() / 2].as_secs_f64()
}

/// The automatic engine (octal codes only).
pub struct AutoEngine {
    sparse: RareCommon,
    naive: Naive,
    current: Which,
    /// `(n, engine)`: from heap size `n` on, `engine` computed the values (trials aside).
    switches: Vec<(usize, Which)>,
    next_review: usize,
    stretch_start: Instant,
    trial: Option<Trial>,
    /// At the last review, the other engine's median time per value over the current one's.
    other_over_current: f64,
    /// No trial of the naive engine from this heap size on (see [`Self::keep_reads_near`]).
    naive_trials_until: usize,
    /// The heap sizes where trials started, with the engine tried.
    trials: Vec<(usize, Which)>,
    /// The trial in progress is of a single value of the other engine: the first review of a
    /// run handed values it did not compute (see [`Self::value_of`]).
    single_value_trial: bool,
}

impl std::fmt::Debug for AutoEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AutoEngine")
            .field("current", &self.current)
            .field("switches", &self.switches)
            .finish()
    }
}

impl AutoEngine {
    /// The engine for `rules`, which must be an octal code.
    pub fn for_rules(rules: &Rules) -> Result<Self, Error> {
        Ok(AutoEngine {
            sparse: RareCommon::for_rules(rules)?,
            naive: Naive::new(rules.clone()),
            current: Which::Sparse,
            switches: vec![(0, Which::Sparse)],
            next_review: FIRST_REVIEW,
            stretch_start: Instant::now(),
            trial: None,
            other_over_current: 1.0,
            naive_trials_until: usize::MAX,
            trials: Vec::new(),
            single_value_trial: false,
        })
    }

    /// Review from `first` on, then at the points of `review_after` (tests use small values).
    pub fn with_first_review(mut self, first: usize) -> Self {
        self.next_review = first.max(1);
        self
    }

    /// Let the rare/common engine use `threads` threads ([`RareCommon::set_threads`]); the
    /// naive engine and the trials run on one.
    pub fn set_threads(&mut self, threads: usize) {
        self.sparse.set_threads(threads);
    }

    /// See [`RareCommon::set_compact_values`].
    pub fn set_compact_values(&mut self, on: bool) {
        self.sparse.set_compact_values(on);
    }

    /// Whether [`Self::set_compact_values`] is on.
    pub fn compact_values(&self) -> bool {
        self.sparse.compact_values()
    }

    /// The engine computing values now (the last one chosen).
    pub fn current(&self) -> Which {
        self.current
    }

    /// Every choice made: `(n, engine)` means `engine` computed from heap size `n` on (except
    /// the values of short trials). The first entry is `(0, Sparse)`.
    pub fn switches(&self) -> &[(usize, Which)] {
        &self.switches
    }

    /// The heap sizes where the trials of the other engine started, with the engine tried.
    pub fn trials(&self) -> &[(usize, Which)] {
        &self.trials
    }

    /// The rare/common engine (its counters describe the values it has seen).
    pub fn sparse(&self) -> &RareCommon {
        &self.sparse
    }

    /// The choices in words: "sparse", or "sparse, naive from 12288", ...
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        for &(n, which) in &self.switches {
            if n == 0 {
                parts.push(which.name().to_string());
            } else {
                parts.push(format!("{} from n = {n}", which.name()));
            }
        }
        parts.join(", then ")
    }

    /// The share (1/x) of the time since the last review that the next trial may take.
    fn trial_share(&self) -> u32 {
        if self.other_over_current >= FAR_BEHIND {
            FAR_TRIAL_SHARE
        } else {
            TRIAL_SHARE
        }
    }

    /// The review after one that ended at heap size `n` (see [`VERY_FAR_BEHIND`]).
    fn review_after_trial(&self, n: usize) -> usize {
        if self.other_over_current >= VERY_FAR_BEHIND {
            review_after(n.saturating_mul(2))
        } else {
            review_after(n)
        }
    }

    /// The fewest values the other engine computes in the next trial.
    fn trial_min(&self) -> usize {
        if self.other_over_current >= VERY_FAR_BEHIND || self.single_value_trial {
            1
        } else {
            TRIAL_MIN
        }
    }

    fn compute<V: Value>(&mut self, which: Which, g: &[V]) -> Result<u16, Error> {
        match which {
            Which::Sparse => self.sparse.next_value(g),
            Which::Naive => self.naive.value_of(g),
        }
    }

    fn catch_up<V: Value>(&mut self, which: Which, g: &[V]) -> Result<(), Error> {
        match which {
            Which::Sparse => {
                self.sparse.catch_up(g);
                Ok(())
            }
            Which::Naive => self.naive.catch_up(g),
        }
    }

    /// Compute G(n) with `which`, timed apart from bringing its state up to date.
    fn timed<V: Value>(&mut self, which: Which, g: &[V]) -> Result<(u16, Duration), Error> {
        self.catch_up(which, g)?;
        let start = Instant::now();
        let v = self.compute(which, g)?;
        Ok((v, start.elapsed()))
    }
}

impl SequenceEngine for AutoEngine {
    fn name(&self) -> &'static str {
        ENGINE_NAME
    }

    fn next_value(&mut self, g: &[u16]) -> Result<u16, Error> {
        self.value_of(g)
    }

    /// A store of bytes with a head (see the rare/common engine's "Officers in one byte") is
    /// read by the rare/common engine alone: the naive engine would read the head's heaps
    /// through their bytes. So the store is narrowed only while the rare/common engine is the
    /// current one and no trial is under way, and from then on no naive value is computed (as
    /// in a tiered run: at 2^16 values and more a naive value reads every one of them).
    fn next_values(&mut self, values: &mut Values, count: usize) -> Result<(), Error> {
        if let Values::Odd8(_) = values {
            return self.sparse.next_values(values, count);
        }
        next_values_of(self, values, count)?;
        let n = values.len();
        if self.current == Which::Sparse && self.trial.is_none() && n < self.next_review {
            self.sparse.narrow_store(values);
            if let Values::Odd8(_) = values {
                self.naive_trials_until = self.naive_trials_until.min(n);
            }
        }
        Ok(())
    }

    fn compact(&self) -> bool {
        true
    }

    fn set_resize_limit(&mut self, values: usize) {
        self.sparse.set_resize_limit(values);
        self.naive.set_resize_limit(values);
    }

    fn batches(&self) -> bool {
        self.sparse.batches()
    }

    /// No trial of the naive engine past heap `2 * resident`: a naive value at heap n reads
    /// every value below n, so a trial there maps the whole of a tiered run's values file in a
    /// few milliseconds (the run's RAM bound was passed by 3.6 times on 0.16 to 2^28 with
    /// `--memory 64M`). The naive engine is not the faster one there on any game a tiered run
    /// can reach: its time per value grows with n, and past a few million values it is hundreds
    /// of times slower than the rare/common engine even where that one is at its worst. Past that
    /// heap the naive engine computes nothing: a trial in progress is dropped, and if the naive
    /// engine is the current one the rare/common engine takes over there for good (before
    /// session 14 it stayed, reading the whole file at every heap: the bound held only for
    /// games the rare/common engine was winning).
    fn keep_reads_near(&mut self, resident: usize) {
        self.naive_trials_until = resident.saturating_mul(2);
    }
}

impl AutoEngine {
    /// G(n) for `n = g.len()` (values in bytes or `u16`).
    fn value_of<V: Value>(&mut self, g: &[V]) -> Result<u16, Error> {
        let n = g.len();
        if n >= self.naive_trials_until && (self.current == Which::Naive || self.trial.is_some()) {
            // a tiered run's bound (see `keep_reads_near`): no naive value from here on
            self.trial = None;
            if self.current == Which::Naive {
                self.current = Which::Sparse;
                self.switches.push((n, Which::Sparse));
                self.other_over_current = 1.0;
            }
            self.next_review = review_after(n);
            self.stretch_start = Instant::now();
        }
        let trial = match self.trial.take() {
            None if n >= self.next_review
                && self.current == Which::Sparse
                && n >= self.naive_trials_until =>
            {
                self.next_review = review_after(n);
                None
            }
            None if n >= self.next_review => {
                // Past the review point without having computed up to it: this engine was
                // handed values (a resumed run) and has measured nothing yet. The trial is then
                // a single value of the other engine, as after a very wide gap, for the same
                // reason (one value can only keep the current engine wrongly when it was
                // descheduled, never switch wrongly): a resumed 0.206 at 2^31 spent about 11 s
                // on the five naive values of a full trial (each reads every value below n).
                self.single_value_trial = n > self.next_review;
                self.trials.push((n, self.current.other()));
                Some(Trial::Other {
                    times: Vec::new(),
                    budget: self.stretch_start.elapsed() / self.trial_share(),
                })
            }
            t => t,
        };
        let Some(trial) = trial else {
            return self.compute(self.current, g);
        };
        let other = self.current.other();
        match trial {
            Trial::Other { mut times, budget } => {
                let (v, t) = self.timed(other, g)?;
                times.push(t);
                let spent: Duration = times.iter().sum();
                let done = times.len() >= TRIAL_VALUES
                    || (times.len() >= self.trial_min() && spent >= budget);
                self.trial = Some(if done {
                    Trial::Current {
                        times: Vec::with_capacity(times.len()),
                        other: times,
                    }
                } else {
                    Trial::Other { times, budget }
                });
                Ok(v)
            }
            Trial::Current {
                mut times,
                other: mut other_times,
            } => {
                let (v, t) = self.timed(self.current, g)?;
                times.push(t);
                if times.len() < other_times.len().max(TRIAL_MIN) {
                    self.trial = Some(Trial::Current {
                        times,
                        other: other_times,
                    });
                } else {
                    let (theirs, ours) = (median(&mut other_times), median(&mut times));
                    self.other_over_current = if ours > 0.0 { theirs / ours } else { 1.0 };
                    if theirs < MARGIN * ours {
                        self.current = other;
                        self.switches.push((n + 1, other));
                        self.other_over_current = 1.0;
                    }
                    self.next_review = self.review_after_trial(n + 1);
                    self.stretch_start = Instant::now();
                }
                Ok(v)
            }
        }
    }
}

impl CompactEngine for AutoEngine {
    fn resize_limit(&self) -> usize {
        self.sparse.resize_limit()
    }

    /// Between reviews the current engine computes alone: the rare/common engine takes the
    /// stretch up to the next review in one call (its two-thread pipeline, if it has threads);
    /// trials go value by value as in [`Self::next_value`].
    fn next_values_in<V: Value>(
        &mut self,
        values: &mut crate::takebreak::values::Buf<V>,
        count: usize,
    ) -> Result<Option<u16>, Error> {
        let end = values.len() + count;
        while values.len() < end {
            let n = values.len();
            if self.trial.is_none() && n < self.next_review && self.current == Which::Sparse {
                let stretch = (end - n).min(self.next_review - n);
                if let Some(v) = self.sparse.next_values_in(values, stretch)? {
                    return Ok(Some(v));
                }
            } else {
                let v = self.value_of(values)?;
                match V::fit(v as usize) {
                    Some(x) => values.push(x),
                    None => return Ok(Some(v)),
                }
            }
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::takebreak::naive::sequence_of;
    use crate::takebreak::{compute, extend, Finish};

    fn auto_sequence(rules: &Rules, n: usize, first: usize) -> (Vec<u16>, AutoEngine) {
        let mut engine = AutoEngine::for_rules(rules)
            .unwrap()
            .with_first_review(first);
        let c = compute(rules, n, Finish::ComputeAll, &mut engine, None).unwrap();
        (c.values.to_vec(), engine)
    }

    #[test]
    fn two_threads_give_the_same_values_and_choices_keep_working() {
        // reviews from n = 64 on, trials value by value between the pipeline's stretches
        for code in ["0.6", "0.437", "0.346", "0.16"] {
            let rules = Rules::parse(code).unwrap();
            let n = 20_000;
            let mut engine = AutoEngine::for_rules(&rules).unwrap().with_first_review(64);
            engine.set_threads(2);
            assert!(engine.batches());
            let c = compute(&rules, n, Finish::ComputeAll, &mut engine, None).unwrap();
            assert_eq!(c.values, sequence_of(&rules, n).unwrap(), "{code}");
            if code == "0.6" {
                // (how many depends on the machine's load: see Tuning::pipeline_backoff)
                assert!(engine.sparse().stats().pipelined > 0, "{engine:?}");
            }
        }
    }

    #[test]
    fn values_equal_the_naive_engine_whatever_is_chosen() {
        // reviews from n = 64 on, so that trials and hand-overs happen on short sequences
        for code in [
            "0.07", "0.16", "0.6", "0.346", "0.414", "0.437", "0.137", "0.766", "4.7", "0.31",
            "0.1777", "0.04", "0.53",
        ] {
            let rules = Rules::parse(code).unwrap();
            let n = 6000;
            let (values, engine) = auto_sequence(&rules, n, 64);
            assert_eq!(
                values,
                sequence_of(&rules, n).unwrap(),
                "{code}: {engine:?}"
            );
        }
    }

    #[test]
    fn a_tiered_run_tries_the_naive_engine_only_while_the_values_fit_its_ends() {
        let rules = Rules::parse("0.16").unwrap();
        let n = 20_000;
        let (_, free) = auto_sequence(&rules, n, 64);
        assert!(
            free.trials().iter().any(|&(at, _)| at >= 1000),
            "{:?}",
            free.trials()
        );
        let mut engine = AutoEngine::for_rules(&rules).unwrap().with_first_review(64);
        engine.keep_reads_near(500);
        let c = compute(&rules, n, Finish::ComputeAll, &mut engine, None).unwrap();
        assert_eq!(c.values, sequence_of(&rules, n).unwrap());
        assert!(!engine.trials().is_empty());
        // no trial of the naive engine past 2 * 500 (a trial of the sparse one may come later,
        // when the naive engine won the last trial before the bound: which wins is a timing)
        assert!(
            engine
                .trials()
                .iter()
                .all(|&(at, which)| at < 1000 || which != Which::Naive),
            "{:?}",
            engine.trials()
        );
        assert!(engine
            .switches()
            .iter()
            .all(|&(at, which)| at < 1000 || which == Which::Sparse));
        assert_eq!(engine.current(), Which::Sparse);
    }

    #[test]
    fn past_a_tiered_bound_the_naive_engine_hands_over_for_good() {
        // the naive engine current (as on a game where it wins) when the bound is reached: the
        // rare/common engine takes over at the bound and keeps the values the definition's
        let rules = Rules::parse("0.346").unwrap();
        let n = 6000;
        let mut engine = AutoEngine::for_rules(&rules)
            .unwrap()
            .with_first_review(5000);
        engine.current = Which::Naive;
        engine.switches = vec![(0, Which::Naive)];
        engine.keep_reads_near(1500);
        let c = compute(&rules, n, Finish::ComputeAll, &mut engine, None).unwrap();
        assert_eq!(c.values, sequence_of(&rules, n).unwrap());
        assert_eq!(
            engine.switches(),
            [(0, Which::Naive), (3000, Which::Sparse)]
        );
        assert_eq!(engine.current(), Which::Sparse);
        // (reviews from 5000 on, past the bound, try nothing)
        assert!(engine.trials().is_empty(), "{:?}", engine.trials());
    }

    #[test]
    fn a_sparse_space_stays_with_the_sparse_engine() {
        // 0.16 (53 rare positions) is hundreds of times faster with the rare/common engine at
        // these sizes; which engine wins on close games is for scripts/bench-auto.sh, not a
        // timed test.
        let rules = Rules::parse("0.16").unwrap();
        let (_, engine) = auto_sequence(&rules, 200_000, FIRST_REVIEW);
        assert_eq!(engine.current(), Which::Sparse, "{}", engine.describe());
    }

    #[test]
    fn a_far_slower_engine_gets_shorter_trials() {
        let rules = Rules::parse("0.6").unwrap();
        let mut engine = AutoEngine::for_rules(&rules).unwrap();
        assert_eq!(engine.trial_share(), TRIAL_SHARE);
        engine.other_over_current = FAR_BEHIND;
        assert_eq!(engine.trial_share(), FAR_TRIAL_SHARE);
        engine.other_over_current = FAR_BEHIND * 0.99;
        assert_eq!(engine.trial_share(), TRIAL_SHARE);
        // starting from a far-behind verdict, reviews still run and the values are still the
        // definition's (which engine wins at these sizes is for scripts/bench-auto.sh)
        let mut engine = engine.with_first_review(2000);
        engine.other_over_current = 2.0 * FAR_BEHIND;
        let c = compute(&rules, 6000, Finish::ComputeAll, &mut engine, None).unwrap();
        assert_eq!(c.values, sequence_of(&rules, 6000).unwrap());
        assert!(engine.next_review > 6000 / 2, "{:?}", engine.next_review);
    }

    #[test]
    fn a_very_far_slower_engine_gets_one_value_and_the_current_one_five() {
        let rules = Rules::parse("0.6").unwrap();
        let mut engine = AutoEngine::for_rules(&rules).unwrap();
        assert_eq!(engine.trial_min(), TRIAL_MIN);
        engine.other_over_current = VERY_FAR_BEHIND * 0.99;
        assert_eq!(engine.trial_min(), TRIAL_MIN);
        engine.other_over_current = VERY_FAR_BEHIND;
        assert_eq!(engine.trial_min(), 1);
        // a review at 3000 whose time budget is spent from the start (a budget is a share of
        // the time since the last review: not something a test can fix): the naive engine
        // computes one value, the rare/common engine five, and the review ends with the values
        // still the definition's
        let mut engine = engine.with_first_review(3000);
        let g = sequence_of(&rules, 3005).unwrap();
        let mut values = Values::from_u16(g[..3000].to_vec(), true);
        engine.trial = Some(Trial::Other {
            times: Vec::new(),
            budget: Duration::ZERO,
        });
        engine.next_values(&mut values, 1).unwrap();
        assert!(matches!(&engine.trial, Some(Trial::Current { other, .. }) if other.len() == 1));
        engine.next_values(&mut values, 4).unwrap();
        assert!(matches!(&engine.trial, Some(Trial::Current { times, .. }) if times.len() == 4));
        engine.next_values(&mut values, 1).unwrap();
        assert!(
            engine.trial.is_none(),
            "the review ends after five values of the current engine"
        );
        assert!(
            engine.next_review >= review_after(3005),
            "{}",
            engine.next_review
        );
        assert_eq!(values.to_vec(), g);
    }

    #[test]
    fn a_very_far_slower_engine_is_reviewed_once_per_doubling() {
        let rules = Rules::parse("0.6").unwrap();
        let mut engine = AutoEngine::for_rules(&rules).unwrap();
        engine.other_over_current = VERY_FAR_BEHIND * 0.99;
        assert_eq!(engine.review_after_trial(20480), 24576);
        engine.other_over_current = VERY_FAR_BEHIND;
        assert_eq!(engine.review_after_trial(20480), 49152);
        assert_eq!(engine.review_after_trial(usize::MAX / 2 + 7), usize::MAX);
    }

    #[test]
    fn review_points_are_three_five_or_seven_times_a_power_of_two() {
        assert_eq!(review_after(FIRST_REVIEW), 14336);
        let mut n = FIRST_REVIEW;
        let mut points = vec![n];
        while n < 100_000 {
            n = review_after(n);
            points.push(n);
        }
        assert_eq!(
            points,
            [12288, 14336, 20480, 24576, 28672, 40960, 49152, 57344, 81920, 98304, 114688]
        );
        for &p in &points {
            let odd = p >> p.trailing_zeros();
            assert!([3, 5, 7].contains(&odd), "{p}");
        }
        assert_eq!(review_after(usize::MAX - 1), usize::MAX);
        assert_eq!(review_after(0), 3);
    }

    #[test]
    fn reviews_run_trials_of_both_engines() {
        // reviews from n = 64 on: every review ends (the next one is past its end), and
        // describe() lists the choices in order
        let rules = Rules::parse("0.346").unwrap();
        let (_, engine) = auto_sequence(&rules, 20_000, 64);
        assert!(engine.next_review > 20_000 / 2, "{:?}", engine.next_review);
        assert!(engine.trial.is_none() || engine.next_review > 20_000);
        let text = engine.describe();
        assert!(text.starts_with("sparse"), "{text}");
        assert_eq!(text.matches(", then ").count(), engine.switches().len() - 1);
    }

    #[test]
    fn every_hand_over_keeps_the_values() {
        // switch at every review: each engine is handed values it did not compute, both ways
        let rules = Rules::parse("0.346").unwrap();
        let n = 5000;
        let reference = sequence_of(&rules, n).unwrap();
        let mut engine = AutoEngine::for_rules(&rules).unwrap();
        let mut g = Vec::new();
        for k in 0..=n {
            let which = if (k / 97) % 2 == 0 {
                Which::Sparse
            } else {
                Which::Naive
            };
            g.push(engine.compute(which, &g).unwrap());
            assert_eq!(g[k], reference[k], "G({k}) by {which:?}");
        }
    }

    #[test]
    fn resumes_from_values_it_did_not_compute() {
        // a checkpoint: a fresh engine continues from saved values
        for code in ["0.346", "0.16", "0.07"] {
            let rules = Rules::parse(code).unwrap();
            let all = sequence_of(&rules, 4000).unwrap();
            let mut engine = AutoEngine::for_rules(&rules)
                .unwrap()
                .with_first_review(100);
            let c = extend(
                &rules,
                all[..2500].to_vec(),
                4000,
                Finish::ComputeAll,
                &mut engine,
                None,
            )
            .unwrap();
            assert_eq!(c.values, all, "{code}");
            // its first review is where it resumed (a trial of a single value)
            assert_eq!(engine.trials().first().map(|t| t.0), Some(2500), "{code}");
            // the same through a fresh naive engine
            let mut naive = Naive::new(rules.clone());
            let c = extend(
                &rules,
                all[..2500].to_vec(),
                4000,
                Finish::ComputeAll,
                &mut naive,
                None,
            )
            .unwrap();
            assert_eq!(c.values, all, "{code} (naive)");
        }
    }
}
