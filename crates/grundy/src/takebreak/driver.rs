//! The driver: run any [`SequenceEngine`] up to a heap size, feeding the period detector, and
//! summarise the sequence.
//!
//! One loop for every engine, so that "compute exactly G(0..=n)", "stop as soon as a period is
//! certified", progress reporting and the summary (largest value, how often each value occurs)
//! mean the same thing whichever engine produced the values. Resuming from values computed
//! earlier (a checkpoint) is [`extend`].
//!
//! # Extension by the certified period
//! Once the octal periodicity theorem certifies `(preperiod, period)` (splitting paper; README
//! §3; see [`super::period`]), `G(n + period) = G(n)` is *proved* for every `n >= preperiod`, so
//! by default ([`Finish::Extend`]) the engine stops there and every later value is read from
//! the period: a run to 10^9 of a game certified at n = 175 computes 176 values and stores
//! nothing more. [`Computation`] answers [`value`](Computation::value) for every n up to its
//! end either way, and its counts cover the whole range. [`Finish::ComputeAll`] computes every
//! value with the engine (the reference the tests compare the extension with).

use super::engine::SequenceEngine;
use super::period::Seq;
use super::period::{Candidate, Period, PeriodDetector};
use super::rules::Rules;
use super::values::{ValueCounter, Values, ValuesRef};
use crate::Error;
use serde::Serialize;

/// How often (in heap sizes) the progress callback is called (at most; an engine that
/// batches is handed longer chunks, see [`BATCH_TIME`]).
pub const PROGRESS_EVERY: usize = 1 << 12;

/// An engine that batches ([`SequenceEngine::batches`]: the rare/common engine, on any number
/// of threads) is handed chunks of [`PROGRESS_EVERY`] values at first, twice as many after each
/// chunk that took less than this (up to [`MAX_BATCH`]), half as many after one that took more
/// than four times this: each chunk starts and drains its threads' pipeline, which costs tens of
/// microseconds, while the callback still comes several times a second.
pub const BATCH_TIME: std::time::Duration = std::time::Duration::from_millis(25);

/// The longest chunk an engine that batches is handed.
pub const MAX_BATCH: usize = 1 << 18;

/// The next chunk of an engine that batches, from `from` values on, with chunks of `batch` (a
/// power of two) wanted: up to the next multiple of `batch`, or of the largest power of two
/// at most `from` if that is smaller (so that a chunk never passes over a power of two beyond
/// [`PROGRESS_EVERY`]: those are the callback's points of `--results`).
pub fn batch_chunk(from: usize, batch: usize) -> usize {
    let below = if from == 0 {
        PROGRESS_EVERY
    } else {
        1 << (usize::BITS - 1 - from.leading_zeros())
    };
    let step = batch.min(below).max(PROGRESS_EVERY);
    step - from % step
}

/// When a run to `n` ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Finish {
    /// As soon as a period is certified (then fewer values: up to the certificate's last
    /// index), else at `n`.
    AtCertificate,
    /// At `n`; once a period is certified the values beyond the certificate follow from it
    /// and are not computed (nor stored).
    #[default]
    Extend,
    /// At `n`, every value computed by the engine, certificate or not.
    ComputeAll,
}

/// A computed Grundy sequence and its summary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Computation {
    /// The values the engine computed: G(0), G(1), ..., G(k - 1), in one byte each when every
    /// value is below 256 and the engine reads bytes, else two ([`Values`]). Beyond them (up
    /// to [`n`](Self::n)) the sequence is extended by the certified period.
    pub values: Values,
    /// The last heap size covered.
    last: usize,
    /// The least period found (certified or observed), if any.
    pub period: Option<Period>,
    /// The largest value.
    pub max_value: u16,
    /// `value_counts[v]` = how many of G(0..=n) equal `v` (length `max_value + 1`).
    pub value_counts: Vec<u64>,
    /// While no period is certified: the period search's best candidate at the end.
    pub candidate: Option<Candidate>,
}

impl Computation {
    /// The last heap size covered: G(0..=n) are known (computed or extended).
    pub fn n(&self) -> usize {
        self.last
    }

    /// How many values the engine computed (the rest follow from the certified period).
    pub fn computed(&self) -> usize {
        self.values.len()
    }

    /// Whether values beyond the computed ones were read from the certified period.
    pub fn is_extended(&self) -> bool {
        self.last + 1 > self.values.len()
    }

    /// G(i) for `i <= n`: computed, or read from the certified period.
    ///
    /// # Panics
    /// If `i > n`.
    pub fn value(&self, i: usize) -> u16 {
        assert!(i <= self.last, "G({i}) is beyond G(0..={})", self.last);
        if i < self.values.len() {
            return self.values.get(i);
        }
        let p = self
            .period
            .expect("an extended sequence has a certified period");
        self.values.get(p.preperiod + (i - p.preperiod) % p.period)
    }

    /// Bytes per stored value: 1 while every value is below 256 (and the engine reads bytes),
    /// else 2.
    pub fn value_bytes(&self) -> usize {
        self.values.value_bytes()
    }

    /// G(0), ..., G(n) in order, without storing the extended part.
    pub fn iter(&self) -> impl Iterator<Item = u16> + '_ {
        let extra = self.last + 1 - self.values.len();
        let cycle = self.period.filter(|_| extra > 0).map(|p| {
            // the period continues from the phase where the computed values end
            let mut phase = (self.values.len() - p.preperiod) % p.period;
            (0..extra).map(move |_| {
                let v = self.values.get(p.preperiod + phase);
                phase += 1;
                if phase == p.period {
                    phase = 0;
                }
                v
            })
        });
        self.values.iter().chain(cycle.into_iter().flatten())
    }

    /// G(0..=n) as one vector (allocates `n + 1` values).
    pub fn to_vec(&self) -> Vec<u16> {
        self.iter().collect()
    }
}

/// Compute G(0..=n) for `rules` with `engine`, ending as `finish` says.
/// `progress(k)` is called every [`PROGRESS_EVERY`] values with the number computed so far.
pub fn compute(
    rules: &Rules,
    n: usize,
    finish: Finish,
    engine: &mut dyn SequenceEngine,
    progress: Option<&dyn Fn(usize)>,
) -> Result<Computation, Error> {
    extend(rules, Vec::new(), n, finish, engine, progress)
}

/// Like [`compute`], starting from `values` = G(0..k) already known (e.g. from a checkpoint).
/// `engine` must be able to continue from there (an engine that keeps auxiliary state must
/// have been brought up to `k`, e.g. by replaying the values through it).
pub fn extend(
    rules: &Rules,
    values: Vec<u16>,
    n: usize,
    finish: Finish,
    engine: &mut dyn SequenceEngine,
    progress: Option<&dyn Fn(usize)>,
) -> Result<Computation, Error> {
    let plan = Plan::new(n, finish);
    let finished = drive(rules, values, plan, engine, |values, _| {
        if let Some(p) = progress {
            p(values.len());
        }
        Ok(Step::Continue)
    })?;
    let Ended::Finished(computation) = finished else {
        unreachable!("a hook that never stops and no value budget let the run finish")
    };
    if let Some(p) = progress {
        p(computation.values.len());
    }
    Ok(computation)
}

/// Run as `plan` says (no checkpoints): `Ok(Ok(computation))`, or `Ok(Err(k))` when the plan's
/// value budget ran out after `k` values without a certified period.
pub fn compute_planned(
    rules: &Rules,
    plan: Plan,
    engine: &mut dyn SequenceEngine,
) -> Result<Result<Computation, usize>, Error> {
    match drive(rules, Vec::new(), plan, engine, |_, _| Ok(Step::Continue))? {
        Ended::Finished(c) => Ok(Ok(c)),
        Ended::OverBudget(values) => Ok(Err(values.len())),
        Ended::Stopped(_) => unreachable!("the hook never stops"),
    }
}

/// What the hook of [`drive`] asks for.
pub(crate) enum Step {
    /// Go on computing.
    Continue,
    /// End the run now (the values so far are returned).
    Stop,
}

/// What a run is asked to do: reach G(`n`), end as `finish` says, and hold at most
/// `max_values` computed values in two bytes each, or `max_compact_values` in one (a memory
/// budget, [`super::budget`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plan {
    /// The last heap size wanted.
    pub n: usize,
    /// When the run ends.
    pub finish: Finish,
    /// The most values the run may compute and keep in a `u16` store (beyond it the run ends
    /// with `Ended::OverBudget`); a store of bytes may move to `u16` (or back) only up to
    /// [`super::budget::resize_within`] of it.
    pub max_values: usize,
    /// The most values the run may keep in a store of bytes (a store with a head in `u16`
    /// counts its head twice); at least `max_values`.
    pub max_compact_values: usize,
}

impl Plan {
    /// Reach `n`, ending as `finish` says, with no budget.
    pub fn new(n: usize, finish: Finish) -> Self {
        Plan {
            n,
            finish,
            max_values: usize::MAX,
            max_compact_values: usize::MAX,
        }
    }

    /// How many values the run can hold at most: G(0..=n), or fewer when its budget stops it
    /// first (what its progress counts towards and what its checkpoint may grow to). Counted
    /// in bytes where the budget holds more values that way: a run whose values need two bytes
    /// stops sooner.
    pub fn reach(&self) -> usize {
        self.n.saturating_add(1).min(self.limit(1))
    }

    /// The most values the run may keep in `value_bytes` bytes each (1 or 2).
    pub fn limit(&self, value_bytes: usize) -> usize {
        match value_bytes {
            1 => self.max_compact_values.max(self.max_values),
            _ => self.max_values,
        }
    }

    /// Whether G(0..=n) fits the budget only in one byte a value.
    pub fn needs_one_byte(&self) -> bool {
        self.n >= self.max_values && self.n < self.max_compact_values
    }

    /// The most values a store like `values` may hold (its own width's limit, less a head
    /// kept in `u16`).
    fn limit_for(&self, values: &Values) -> usize {
        self.limit(values.value_bytes())
            .saturating_sub(values.head_len())
    }
}

/// How [`drive`] ended.
#[derive(Debug)]
pub(crate) enum Ended {
    /// The plan is done.
    Finished(Computation),
    /// The hook stopped the run: the values computed so far.
    Stopped(Values),
    /// The value budget ran out before the plan was done: the values computed so far.
    OverBudget(Values),
}

/// The one loop behind [`compute`], [`extend`] and the checkpointed run: replay `values`
/// through a fresh period detector (stopping there if a period is already certified), then
/// compute up to G(n), ending as the plan says. Every [`PROGRESS_EVERY`] values `hook` sees the
/// values so far and the detector (to report progress, save them, or stop).
///
/// The values are kept in one byte each while they are below 256 when the engine reads bytes
/// ([`SequenceEngine::compact`]; the engine moves the store to `u16` at the first value past
/// 255), else in `u16`.
pub(crate) fn drive(
    rules: &Rules,
    values: Vec<u16>,
    plan: Plan,
    engine: &mut dyn SequenceEngine,
    hook: impl FnMut(ValuesRef<'_>, &PeriodDetector) -> Result<Step, Error>,
) -> Result<Ended, Error> {
    let values = Values::from_u16(values, engine.compact());
    drive_values(rules, values, plan, engine, hook)
}

/// [`drive`] on a store given as it is (a tiered run's mapped file, [`super::tiered`]): the
/// engine appends to it, and a mapped store is given room (its file grown) before each call
/// of the engine, so that a full disk is an error here rather than inside an engine.
pub(crate) fn drive_values(
    rules: &Rules,
    mut values: Values,
    plan: Plan,
    engine: &mut dyn SequenceEngine,
    mut hook: impl FnMut(ValuesRef<'_>, &PeriodDetector) -> Result<Step, Error>,
) -> Result<Ended, Error> {
    let n = plan.n;
    let target = n
        .checked_add(1)
        .ok_or_else(|| Error::TooLarge(format!("heap size {n} is too large for this machine")))?;
    let stop_at_certificate = plan.finish != Finish::ComputeAll;
    let mut detector = PeriodDetector::for_rules(rules);
    let known = values.len().min(target);
    // a block at a time, giving a mapped store's pages back as it goes (see `summarise`)
    let mut certified = None;
    const BLOCK: usize = 1 << 20;
    for start in (0..known).step_by(BLOCK) {
        let end = (start + BLOCK).min(known);
        certified = feed(
            &mut detector,
            values.as_ref(),
            start,
            end,
            stop_at_certificate,
        );
        if certified.is_some() {
            break;
        }
        values.release(start, end);
    }
    if let Some(k) = certified {
        values.truncate(k + 1);
        return Ok(Ended::Finished(summarise(
            values,
            n,
            plan.finish,
            &detector,
        )));
    }
    values.truncate(target);
    if plan.finish == Finish::ComputeAll && target <= plan.limit_for(&values) && !values.is_mapped()
    {
        values.reserve_exact(target - values.len());
    }
    let mut batch = PROGRESS_EVERY;
    // (a store moves between widths only while both copies fit the budget: the engine stops
    // short of a chunk rather than pass it)
    engine.set_resize_limit(super::budget::resize_within(plan.max_values));
    'run: while values.len() < target {
        let limit = plan.limit_for(&values);
        if values.len() >= limit {
            return Ok(Ended::OverBudget(values));
        }
        // an engine that batches computes up to the next multiple of its chunk (a multiple of
        // PROGRESS_EVERY: the hook's points), the target or the budget in one call; the
        // detector sees the values one by one
        let from = values.len();
        let batches = engine.batches();
        let chunk = if batches { batch_chunk(from, batch) } else { 1 };
        let count = chunk.min(target - from).min(limit - from);
        let started = batches.then(std::time::Instant::now);
        values.try_reserve_room(count)?;
        engine.next_values(&mut values, count)?;
        if let Some(started) = started {
            let took = started.elapsed();
            if took < BATCH_TIME && count == chunk {
                batch = (2 * batch).min(MAX_BATCH);
            } else if took > 4 * BATCH_TIME {
                batch = (batch / 2).max(PROGRESS_EVERY);
            }
        }
        let to = values.len();
        if let Some(k) = feed(
            &mut detector,
            values.as_ref(),
            from,
            to,
            stop_at_certificate,
        ) {
            // values past the certificate (computed in the same chunk) are dropped, as if
            // never computed
            values.truncate(k + 1);
            break 'run;
        }
        // short only where the store would have had to change width past the resize limit
        // (see `SequenceEngine::set_resize_limit`)
        if to < from + count {
            return Ok(Ended::OverBudget(values));
        }
        if values.len() % PROGRESS_EVERY == 0 {
            if let Step::Stop = hook(values.as_ref(), &detector)? {
                return Ok(Ended::Stopped(values));
            }
        }
    }
    Ok(Ended::Finished(summarise(
        values,
        n,
        plan.finish,
        &detector,
    )))
}

/// Feed G(from..to) to `detector` (which has seen G(0..from)); with `stop`, stop at the first
/// `k` at which a period is certified and return it.
fn feed(
    detector: &mut PeriodDetector,
    values: ValuesRef<'_>,
    from: usize,
    to: usize,
    stop: bool,
) -> Option<usize> {
    fn each<S: Seq>(
        detector: &mut PeriodDetector,
        g: S,
        prefix: impl Fn(S, usize) -> S,
        from: usize,
        to: usize,
        stop: bool,
    ) -> Option<usize> {
        let mut k = from;
        while k < to {
            if !stop && detector.is_certified() {
                detector.skip_certified(to);
                return None;
            }
            // as many values as provably change nothing but the runs, then one at a time
            let quiet = detector.push_quiet_from(prefix(g, to));
            if quiet > 0 {
                k += quiet;
                continue;
            }
            detector.push_from(prefix(g, k + 1));
            if stop && detector.is_certified() {
                return Some(k);
            }
            k += 1;
        }
        None
    }
    match values {
        ValuesRef::U8(g) => each(detector, g, |g, len| &g[..len], from, to, stop),
        ValuesRef::U16(g) => each(detector, g, |g, len| &g[..len], from, to, stop),
        ValuesRef::Split(g) => each(detector, g, |g, len| g.slice(0, len), from, to, stop),
    }
}

/// The [`Computation`] for a finished run: values, its end (`n`, or the certificate's last index
/// with [`Finish::AtCertificate`]), period status, maximum, counts over the whole range.
pub(crate) fn summarise(
    values: Values,
    n: usize,
    finish: Finish,
    detector: &PeriodDetector,
) -> Computation {
    let period = detector.status();
    let last = match finish {
        Finish::Extend if period.is_some_and(|p| p.certified) => n,
        _ => values.len() - 1,
    };
    // one pass, a block at a time: a mapped store (tiered) gives each block's pages back as
    // it goes, so that the pass does not map the whole file into the process
    let mut counter = ValueCounter::new();
    const BLOCK: usize = 1 << 20;
    for start in (0..values.len()).step_by(BLOCK) {
        let end = (start + BLOCK).min(values.len());
        counter.add_ref(values.as_ref().slice(start..end));
        values.release(start, end);
    }
    let mut value_counts = counter.counts();
    if value_counts.is_empty() {
        value_counts.push(0);
    }
    let max_value = (value_counts.len() - 1) as u16;
    let extra = (last + 1 - values.len()) as u64;
    if let (Some(p), true) = (period, extra > 0) {
        // `extra` values continue the period from the phase where the computed ones end
        let one = |k: usize| values.get(p.preperiod + k) as usize;
        let start = (values.len() - p.preperiod) % p.period;
        let (cycles, rest) = (extra / p.period as u64, (extra % p.period as u64) as usize);
        for k in 0..p.period {
            value_counts[one(k)] += cycles;
        }
        for k in 0..rest {
            value_counts[one((start + k) % p.period)] += 1;
        }
    }
    Computation {
        candidate: detector.candidate().filter(|_| !detector.is_certified()),
        period,
        values,
        last,
        max_value,
        value_counts,
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::takebreak::naive::{sequence_of, Naive};

    #[test]
    fn batch_chunks_end_at_the_callback_points_and_pass_over_no_power_of_two() {
        for batch in [PROGRESS_EVERY, 1 << 14, 1 << 16, MAX_BATCH] {
            for from in (0..(1 << 21))
                .step_by(1021)
                .chain([0, 4096, 65536, 65537, 1 << 20])
            {
                let chunk = batch_chunk(from, batch);
                let end = from + chunk;
                assert!(
                    chunk >= 1 && chunk <= batch.max(PROGRESS_EVERY),
                    "{from} {batch}"
                );
                assert_eq!(end % PROGRESS_EVERY, 0, "{from} {batch}: ends at {end}");
                // no power of two of PROGRESS_EVERY or more strictly inside (from, end)
                let mut p = PROGRESS_EVERY;
                while p < end {
                    assert!(p <= from, "{from} {batch}: passes over {p}");
                    p *= 2;
                }
            }
        }
        // the chunk grows with the run: the next multiple of the batch once past it
        assert_eq!(batch_chunk(1 << 20, 1 << 16), 1 << 16);
        assert_eq!(batch_chunk(5000, 1 << 16), 8192 - 5000);
    }

    #[test]
    fn computes_exactly_n_plus_one_values_and_summarises() {
        let rules = Rules::parse("0.07").unwrap();
        let c = compute(
            &rules,
            20,
            Finish::ComputeAll,
            &mut Naive::new(rules.clone()),
            None,
        )
        .unwrap();
        assert_eq!(c.values, sequence_of(&rules, 20).unwrap());
        assert_eq!(c.n(), 20);
        assert_eq!(c.max_value as usize + 1, c.value_counts.len());
        assert_eq!(c.value_counts.iter().sum::<u64>(), 21);
        assert_eq!(c.period, None);
    }

    #[test]
    fn until_period_stops_at_the_certificate() {
        let rules = Rules::parse("dawsons-kayles").unwrap();
        let calls = std::cell::Cell::new(0);
        let progress = |_k: usize| calls.set(calls.get() + 1);
        let c = compute(
            &rules,
            100_000,
            Finish::AtCertificate,
            &mut Naive::new(rules.clone()),
            Some(&progress),
        )
        .unwrap();
        let p = c.period.unwrap();
        assert_eq!((p.preperiod, p.period, p.certified), (53, 34, true));
        assert_eq!(Some(c.n()), p.certified_at);
        assert!(calls.get() >= 1);
    }

    #[test]
    fn extend_resumes_from_known_values() {
        let rules = Rules::parse("0.77").unwrap();
        let all = sequence_of(&rules, 300).unwrap();
        // An engine that has replayed the first 100 values.
        let mut engine = Naive::new(rules.clone());
        for k in 0..100 {
            assert_eq!(engine.next_value(&all[..k]).unwrap(), all[k]);
        }
        let c = extend(
            &rules,
            all[..100].to_vec(),
            300,
            Finish::ComputeAll,
            &mut engine,
            None,
        )
        .unwrap();
        assert_eq!(c.values, all);
        assert_eq!(c.period.map(|p| (p.preperiod, p.period)), Some((71, 12)));
        // Already certified inside the given values: until_period truncates there.
        let mut engine = Naive::new(rules.clone());
        let c = extend(
            &rules,
            all.clone(),
            300,
            Finish::AtCertificate,
            &mut engine,
            None,
        )
        .unwrap();
        assert_eq!(Some(c.n()), c.period.unwrap().certified_at);
    }

    /// Every view of an extended computation against the same run computed value by value.
    fn check_extension(rules: &Rules, n: usize) -> bool {
        use crate::takebreak::sparse::RareCommon;
        let all = compute(
            rules,
            n,
            Finish::ComputeAll,
            &mut RareCommon::for_rules(rules).unwrap(),
            None,
        )
        .unwrap();
        let ext = compute(
            rules,
            n,
            Finish::Extend,
            &mut RareCommon::for_rules(rules).unwrap(),
            None,
        )
        .unwrap();
        assert_eq!(all.n(), n);
        assert_eq!(ext.n(), n, "{rules}");
        assert_eq!(all.values, ext.to_vec(), "{rules}");
        assert_eq!(ext.iter().count(), n + 1);
        for i in (0..=n).step_by(97).chain([n]) {
            assert_eq!(ext.value(i), all.values.get(i), "{rules} G({i})");
        }
        assert_eq!(ext.max_value, all.max_value, "{rules}");
        assert_eq!(ext.value_counts, all.value_counts, "{rules}");
        assert_eq!(ext.period, all.period, "{rules}");
        if let Some(at) = ext.period.and_then(|p| p.certified_at) {
            assert_eq!(
                ext.computed(),
                at + 1,
                "{rules}: stops computing at the certificate"
            );
            assert_eq!(ext.is_extended(), at < n);
        } else {
            assert_eq!(ext.values, all.values);
            assert!(!ext.is_extended());
        }
        ext.is_extended()
    }

    #[test]
    fn extension_by_the_certified_period_equals_computed_values() {
        // every 0.?? and 4.?? code to 20000, every 0.??? code to 2500
        let mut extended = 0;
        for d0 in [0u128, 4] {
            for code in 0..64u128 {
                let digits = vec![d0, code / 8, code % 8];
                let c = crate::takebreak::Code::from_digits(digits).unwrap();
                extended += usize::from(check_extension(&Rules::Code(c), 20_000));
            }
        }
        for code in 0..512u128 {
            let digits = vec![0, code / 64, code / 8 % 8, code % 8];
            let c = crate::takebreak::Code::from_digits(digits).unwrap();
            extended += usize::from(check_extension(&Rules::Code(c), 2_500));
        }
        assert!(extended > 300, "only {extended} codes were extended");
    }

    #[test]
    fn extension_needs_no_memory_for_values_it_does_not_compute() {
        let rules = Rules::parse("0.07").unwrap();
        let n = 1_000_000_000_000;
        let c = compute(
            &rules,
            n,
            Finish::Extend,
            &mut Naive::new(rules.clone()),
            None,
        )
        .unwrap();
        assert_eq!(c.computed(), 176);
        assert_eq!(c.n(), n);
        assert_eq!(c.value_counts.iter().sum::<u64>(), n as u64 + 1);
        // G(53 + 34 k + r) = G(53 + r)
        assert_eq!(c.value(n), c.values.get(53 + (n - 53) % 34));
        // an uncertified run is not extended
        let c = compute(
            &rules,
            100,
            Finish::Extend,
            &mut Naive::new(rules.clone()),
            None,
        )
        .unwrap();
        assert_eq!((c.computed(), c.n(), c.is_extended()), (101, 100, false));
    }

    /// A run whose budget holds G(0..=n) only in one byte a value: Officers (values past 255
    /// from heap 10,344, narrowed to bytes with a head) finishes in bytes; 0.206 (whose
    /// values need two bytes from heap 9,813) stops where two bytes a value reach the budget;
    /// and a store of bytes that would have to widen past the resize limit stops at the value
    /// that does not fit, every value before it kept — with the naive engine too.
    #[test]
    fn a_budget_in_bytes_holds_what_fits_a_byte_and_stops_where_two_are_needed() {
        use crate::takebreak::sparse::RareCommon;
        // (the engine on u16, itself checked against the naive engine in its own tests)
        let plain = |code: &str, n: usize| {
            let rules = Rules::parse(code).unwrap();
            let mut e = RareCommon::for_rules(&rules).unwrap();
            compute(&rules, n, Finish::ComputeAll, &mut e, None)
                .unwrap()
                .values
                .to_vec()
        };
        let run = |code: &str, plan: Plan, engine: &mut dyn SequenceEngine| {
            let rules = Rules::parse(code).unwrap();
            let mut ticks = 0;
            let ended = drive(&rules, Vec::new(), plan, engine, |_, _| {
                ticks += 1;
                Ok(Step::Continue)
            })
            .unwrap();
            assert!(ticks > 0);
            ended
        };
        let plan = Plan {
            n: 300_000,
            finish: Finish::ComputeAll,
            max_values: 200_000,
            max_compact_values: 400_000,
        };
        assert!(plan.needs_one_byte());
        assert_eq!(plan.reach(), 300_001);
        // Officers, with compact values: in bytes to the end (on one thread and on two)
        let officers = plain("0.6", 300_000);
        for threads in [1, 2] {
            let mut e = RareCommon::for_rules(&Rules::parse("0.6").unwrap()).unwrap();
            e.set_compact_values(true);
            e.set_threads(threads);
            let Ended::Finished(c) = run("0.6", plan, &mut e) else {
                panic!("Officers stopped short of its plan")
            };
            assert_eq!(c.values.value_bytes(), 1);
            assert!(c.values.head_len() > 0 && c.values.head_len() < 50_000);
            assert_eq!(c.values, officers);
        }
        // without them the values stay in two bytes and the run stops at the two-byte limit
        let mut e = RareCommon::for_rules(&Rules::parse("0.6").unwrap()).unwrap();
        let Ended::OverBudget(v) = run("0.6", plan, &mut e) else {
            panic!("Officers in two bytes passed the budget")
        };
        assert_eq!((v.len(), v.value_bytes()), (200_000, 2));
        assert_eq!(v, officers[..200_000]);
        // 0.206: two bytes from heap 9,813 on, so stopped at the two-byte limit
        let g206 = plain("0.206", 200_000);
        let mut e = RareCommon::for_rules(&Rules::parse("0.206").unwrap()).unwrap();
        e.set_compact_values(true);
        let Ended::OverBudget(v) = run("0.206", plan, &mut e) else {
            panic!("0.206 passed the budget")
        };
        assert_eq!((v.len(), v.value_bytes()), (200_000, 2));
        assert_eq!(v, g206[..200_000]);
        // a budget of 12,000 values in two bytes: widening at heap 9,813 would hold both
        // copies past it (the resize limit is about 8,160), so the run stops there in bytes
        let tight = Plan {
            n: 20_000,
            finish: Finish::ComputeAll,
            max_values: 12_000,
            max_compact_values: 30_000,
        };
        assert!(crate::takebreak::budget::resize_within(12_000) < 9_813);
        let mut sparse = RareCommon::for_rules(&Rules::parse("0.206").unwrap()).unwrap();
        let mut two = RareCommon::for_rules(&Rules::parse("0.206").unwrap()).unwrap();
        two.set_threads(2);
        let mut naive = Naive::new(Rules::parse("0.206").unwrap());
        for engine in [&mut sparse as &mut dyn SequenceEngine, &mut two, &mut naive] {
            let Ended::OverBudget(v) = run("0.206", tight, engine) else {
                panic!("0.206 widened past the resize limit")
            };
            assert_eq!((v.len(), v.value_bytes()), (9_813, 1));
            assert_eq!(v, g206[..9_813]);
        }
        // with a budget that holds the move, the same run widens and goes on
        let roomy = Plan {
            max_values: 20_001,
            ..tight
        };
        let mut e = RareCommon::for_rules(&Rules::parse("0.206").unwrap()).unwrap();
        let Ended::Finished(c) = run("0.206", roomy, &mut e) else {
            panic!("0.206 stopped within its budget")
        };
        assert_eq!(c.values, g206[..20_001]);
    }
}
