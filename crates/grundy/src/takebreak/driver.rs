//! The driver: run any [`SequenceEngine`] up to a heap size, feeding the period detector, and
//! summarise the sequence.
//!
//! One loop for every engine, so that "compute exactly G(0..=n)", "stop as soon as a period is
//! certified", progress reporting and the summary (largest value, how often each value occurs)
//! mean the same thing whichever engine produced the values. Resuming from values computed
//! earlier (a checkpoint) is [`extend`].

use super::engine::SequenceEngine;
use super::period::{Period, PeriodDetector};
use super::rules::Rules;
use crate::Error;
use serde::Serialize;

/// How often (in heap sizes) the progress callback is called.
pub const PROGRESS_EVERY: usize = 1 << 12;

/// A computed Grundy sequence and its summary.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Computation {
    /// G(0), G(1), ..., G(n) (`n + 1` values).
    pub values: Vec<u16>,
    /// The least period found (certified or observed), if any.
    pub period: Option<Period>,
    /// The largest value.
    pub max_value: u16,
    /// `value_counts[v]` = how many of the values equal `v` (length `max_value + 1`).
    pub value_counts: Vec<u64>,
}

impl Computation {
    /// The last heap size computed (`values.len() - 1`).
    pub fn n(&self) -> usize {
        self.values.len() - 1
    }
}

/// Compute G(0..=n) for `rules` with `engine`. With `until_period`, stop as soon as a period
/// is certified (then fewer values are returned: up to the certificate's last index).
/// `progress(k)` is called every [`PROGRESS_EVERY`] values with the number computed so far.
pub fn compute(
    rules: &Rules,
    n: usize,
    until_period: bool,
    engine: &mut dyn SequenceEngine,
    progress: Option<&dyn Fn(usize)>,
) -> Result<Computation, Error> {
    extend(rules, Vec::new(), n, until_period, engine, progress)
}

/// Like [`compute`], starting from `values` = G(0..k) already known (e.g. from a checkpoint).
/// `engine` must be able to continue from there (an engine that keeps auxiliary state must
/// have been brought up to `k`, e.g. by replaying the values through it).
pub fn extend(
    rules: &Rules,
    values: Vec<u16>,
    n: usize,
    until_period: bool,
    engine: &mut dyn SequenceEngine,
    progress: Option<&dyn Fn(usize)>,
) -> Result<Computation, Error> {
    let finished = drive(rules, values, n, until_period, engine, |values| {
        if let Some(p) = progress {
            p(values.len());
        }
        Ok(Step::Continue)
    })?;
    let computation = finished.expect("a hook that never stops lets the run finish");
    if let Some(p) = progress {
        p(computation.values.len());
    }
    Ok(computation)
}

/// What the hook of [`drive`] asks for.
pub(crate) enum Step {
    /// Go on computing.
    Continue,
    /// End the run now (the values so far are returned).
    Stop,
}

/// The one loop behind [`compute`], [`extend`] and the checkpointed run: replay `values`
/// through a fresh period detector (stopping there if a period is already certified), then
/// compute up to G(n) or a certified period. Every [`PROGRESS_EVERY`] values `hook` sees the
/// values so far (to report progress, save them, or stop). Returns the finished computation, or
/// the values computed when the hook stopped the run.
pub(crate) fn drive(
    rules: &Rules,
    mut values: Vec<u16>,
    n: usize,
    until_period: bool,
    engine: &mut dyn SequenceEngine,
    mut hook: impl FnMut(&[u16]) -> Result<Step, Error>,
) -> Result<Result<Computation, Vec<u16>>, Error> {
    let target = n
        .checked_add(1)
        .ok_or_else(|| Error::TooLarge(format!("heap size {n}")))?;
    let mut detector = PeriodDetector::for_rules(rules);
    for k in 0..values.len().min(target) {
        detector.push_from(&values[..=k]);
        if until_period && detector.is_certified() {
            values.truncate(k + 1);
            return Ok(Ok(summarise(values, &detector)));
        }
    }
    values.truncate(target);
    if !until_period {
        values.reserve_exact(target - values.len());
    }
    while values.len() < target {
        let v = engine.next_value(&values)?;
        values.push(v);
        detector.push_from(&values);
        if until_period && detector.is_certified() {
            break;
        }
        if values.len() % PROGRESS_EVERY == 0 {
            if let Step::Stop = hook(&values)? {
                return Ok(Err(values));
            }
        }
    }
    Ok(Ok(summarise(values, &detector)))
}

/// The [`Computation`] for a finished sequence: values, period status, maximum, counts.
pub(crate) fn summarise(values: Vec<u16>, detector: &PeriodDetector) -> Computation {
    let max_value = values.iter().copied().max().unwrap_or(0);
    let mut value_counts = vec![0u64; max_value as usize + 1];
    for &v in &values {
        value_counts[v as usize] += 1;
    }
    Computation {
        period: detector.status(),
        values,
        max_value,
        value_counts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::takebreak::naive::{sequence_of, Naive};

    #[test]
    fn computes_exactly_n_plus_one_values_and_summarises() {
        let rules = Rules::parse("0.07").unwrap();
        let c = compute(&rules, 20, false, &mut Naive::new(rules.clone()), None).unwrap();
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
            true,
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
        let c = extend(&rules, all[..100].to_vec(), 300, false, &mut engine, None).unwrap();
        assert_eq!(c.values, all);
        assert_eq!(c.period.map(|p| (p.preperiod, p.period)), Some((71, 12)));
        // Already certified inside the given values: until_period truncates there.
        let mut engine = Naive::new(rules.clone());
        let c = extend(&rules, all.clone(), 300, true, &mut engine, None).unwrap();
        assert_eq!(Some(c.n()), c.period.unwrap().certified_at);
    }
}
