//! Periods of Grundy sequences, found online and certified by the periodicity theorem.
//!
//! Conventions (README §3): "preperiod" is the first index of the periodic part and "period"
//! its length, so `G(n + p) = G(n)` for every `n >= preperiod`. For a code whose moves leave
//! at most two heaps (every octal code, with or without `d0`), the octal periodicity theorem
//! says: if `G(n + p) = G(n)` for `pre <= n < 2·pre + p + t` (`t` = the most tokens a move
//! removes, the index of the last non-zero digit), then it holds for all `n >= pre`. For
//! other rules the same amount of repetition is reported as *observed*, never as certified.
//!
//! # The condition, restated as a run
//! With `N` values known, let `run_p` be the number of trailing positions `y` (counting down
//! from `N - 1`) with `G(y) = G(y - p)`. The smallest preperiod the data allow for period `p`
//! is `N - p - run_p`, and that pair is certified by the first `N` values exactly when
//! `p <= s(N) = ⌊(N - t)/2⌋` and `run_p >= r(N) = N - s(N)`. Call such a `p` *supported*.
//! We report the smallest supported `p` (and its preperiod); for a certified pair this is the
//! true least period and preperiod, since every certified pair is a true one.
//!
//! # Why it is cheap (the fast engine pushes 10^8 values through it)
//! - Two supported periods have supported gcd (Fine and Wilf: both are periods of a suffix
//!   longer than their sum), so the least supported period divides all others, and when it
//!   breaks, all of them break at the same step.
//! - A period can only become supported once its run reaches about `N/2`, and a run grows by
//!   at most one per value. So we *watch* a few periods with the longest runs (exact runs,
//!   updated in O(1) each per value) and keep one number, `bound`, above every other run.
//!   Only when `bound` could reach the threshold do we *rescan*: recompute every run in one
//!   pass, in which the run of `q + w` follows in O(1) from the runs of `q` and of a base
//!   period `w` (two periodic stretches mismatch where the shorter one ends, unless both end
//!   at the same place). A rescan at `N` leaves `bound` near the median run, so the next one
//!   comes after a constant factor more values: amortised O(1) per value.
//! - Once certified, nothing more is done. An observed (uncertified) period is held in O(1)
//!   per value, together with the runs of its divisors (the only periods that can replace
//!   it); if it breaks, one rescan starts the search again.
//!
//! Memory: the values themselves (kept by the caller with [`PeriodDetector::push_from`], or
//! a copy with [`PeriodDetector::push`]) plus, during a rescan, one `u32` per heap size up to
//! the base period (at most 2^22 of them).

use super::rules::Rules;
use serde::Serialize;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A period of a Grundy sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Period {
    /// First index of the periodic part.
    pub preperiod: usize,
    /// Length of the period.
    pub period: usize,
    /// Whether the periodicity theorem proves it for every n (otherwise: observed so far).
    pub certified: bool,
    /// The index of the last value the certificate needed: `2·preperiod + 2·period + t - 1`.
    pub certified_at: Option<usize>,
}

/// How many periods with long runs are watched between rescans.
const WATCHED: usize = 32;
/// The largest base period the rescan keeps runs for (one `u32` each).
const MAX_BASE: usize = 1 << 22;

#[derive(Debug, Clone)]
enum Mode {
    /// No period supported. `watch` holds exact runs; every other run is at most `bound`.
    Searching {
        watch: Vec<(usize, usize)>,
        bound: usize,
    },
    /// `period` is the least supported period (rules without the theorem); `divisors` holds
    /// the exact runs of its proper divisors.
    Holding {
        period: usize,
        preperiod: usize,
        divisors: Vec<(usize, usize)>,
    },
    /// Certified: final.
    Certified(Period),
}

/// Online period finder: feed G(0), G(1), ... one at a time; ask [`status`](Self::status).
#[derive(Debug, Clone)]
pub struct PeriodDetector {
    theorem: bool,
    t: usize,
    n: usize,
    values: Vec<u16>,
    mode: Mode,
    rescans: usize,
}

impl PeriodDetector {
    /// A detector for rules where the periodicity theorem applies (`theorem`) or not, and
    /// that remove at most `max_removed` tokens per move (`t`).
    pub fn new(theorem: bool, max_removed: usize) -> Self {
        PeriodDetector {
            theorem,
            t: max_removed,
            n: 0,
            values: Vec::new(),
            mode: Mode::Searching {
                watch: Vec::new(),
                bound: 0,
            },
            rescans: 0,
        }
    }

    /// A detector for `rules` (certifying exactly when the theorem applies).
    pub fn for_rules(rules: &Rules) -> Self {
        PeriodDetector::new(rules.periodicity_theorem_applies(), rules.max_removed())
    }

    /// Number of values seen.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Whether no value has been seen.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// Whether the period is certified (then it never changes again).
    pub fn is_certified(&self) -> bool {
        matches!(self.mode, Mode::Certified(_))
    }

    /// How many full rescans were needed so far (a measure of the work done).
    pub fn rescans(&self) -> usize {
        self.rescans
    }

    /// The least period the values so far support, with its preperiod, or `None`.
    pub fn status(&self) -> Option<Period> {
        match &self.mode {
            Mode::Searching { .. } => None,
            Mode::Holding {
                period, preperiod, ..
            } => Some(Period {
                preperiod: *preperiod,
                period: *period,
                certified: false,
                certified_at: None,
            }),
            Mode::Certified(p) => Some(*p),
        }
    }

    /// Feed the next value, keeping a copy of the sequence inside the detector.
    pub fn push(&mut self, value: u16) {
        let mut values = std::mem::take(&mut self.values);
        values.push(value);
        self.push_from(&values);
        self.values = values;
    }

    /// Feed the next value without copying: `g` is the whole sequence so far, G(0..=n), whose
    /// last element is the new value. Do not mix with [`push`](Self::push).
    pub fn push_from(&mut self, g: &[u16]) {
        assert_eq!(
            g.len(),
            self.n + 1,
            "push_from needs the whole sequence with exactly one new value"
        );
        self.n = g.len();
        let n = self.n;
        let y = n - 1;
        let v = g[y];
        let (s, r) = self.thresholds(n);
        match &mut self.mode {
            Mode::Certified(_) => {}
            Mode::Holding {
                period,
                preperiod,
                divisors,
            } => {
                if g[y - *period] != v {
                    // Every supported period is a multiple of this one: all broke together.
                    self.rescan(g);
                    return;
                }
                for (d, run) in divisors.iter_mut() {
                    *run = if g[y - *d] == v { *run + 1 } else { 0 };
                }
                let smaller = divisors
                    .iter()
                    .filter(|&&(d, run)| d <= s && run >= r)
                    .min()
                    .copied();
                if let Some((d, run)) = smaller {
                    *period = d;
                    *preperiod = n - d - run;
                    divisors.retain(|&(e, _)| e < d && d % e == 0);
                }
            }
            Mode::Searching { watch, bound } => {
                watch.retain_mut(|(p, run)| {
                    if y >= *p && g[y - *p] == v {
                        *run += 1;
                        true
                    } else {
                        false
                    }
                });
                *bound += 1;
                if *bound >= r {
                    self.rescan(g);
                    return;
                }
                let least = watch
                    .iter()
                    .filter(|&&(p, run)| p <= s && run >= r)
                    .min()
                    .copied();
                if let Some((p, run)) = least {
                    self.found(g, p, n - p - run);
                }
            }
        }
    }

    /// `(s(N), r(N))`: a supported period is at most `s` and has a run of at least `r`.
    fn thresholds(&self, n: usize) -> (usize, usize) {
        let s = n.saturating_sub(self.t) / 2;
        (s, n - s)
    }

    /// `p` (with preperiod `pre`) is the least supported period at the current length.
    fn found(&mut self, g: &[u16], p: usize, pre: usize) {
        if self.theorem {
            let certified_at = 2 * pre + 2 * p + self.t - 1;
            debug_assert_eq!(certified_at, self.n - 1, "detection is exact");
            self.mode = Mode::Certified(Period {
                preperiod: pre,
                period: p,
                certified: true,
                certified_at: Some(certified_at),
            });
        } else {
            let divisors = (1..p)
                .filter(|d| p % d == 0)
                .map(|d| (d, run_of(g, d, 0)))
                .collect();
            self.mode = Mode::Holding {
                period: p,
                preperiod: pre,
                divisors,
            };
        }
    }

    /// Recompute every run; pick the least supported period or the periods to watch.
    fn rescan(&mut self, g: &[u16]) {
        self.rescans += 1;
        let n = g.len();
        let (s, r) = self.thresholds(n);
        let mut best: BinaryHeap<Reverse<(usize, Reverse<usize>)>> = BinaryHeap::new();
        let mut bound = 0;
        let mut found = None;
        for_each_run(g, |p, run| {
            if p <= s && run >= r {
                found = Some((p, n - p - run));
                return false;
            }
            if run > 0 {
                best.push(Reverse((run, Reverse(p))));
                if best.len() > WATCHED {
                    let Reverse((dropped, _)) = best.pop().expect("non-empty");
                    bound = bound.max(dropped);
                }
            }
            true
        });
        if let Some((p, pre)) = found {
            self.found(g, p, pre);
            return;
        }
        let watch = best
            .into_iter()
            .map(|Reverse((run, Reverse(p)))| (p, run))
            .collect();
        self.mode = Mode::Searching { watch, bound };
    }
}

/// The run of `p` at the end of `g` (positions `y` counting down from the end with
/// `g[y] = g[y - p]`), given that the last `known` positions are already known to match.
fn run_of(g: &[u16], p: usize, known: usize) -> usize {
    let n = g.len();
    let mut run = known;
    while run + p < n && g[n - 1 - run] == g[n - 1 - run - p] {
        run += 1;
    }
    run
}

/// Call `visit(p, run_p)` for p = 1, 2, ..., g.len() - 1 in order, until it returns false.
///
/// Runs of `q + w` come from those of `q` and of a base period `w` (the first `p` whose run
/// is at least `max(p, 16)`): if `a = run_q` and `b = run_w - q > 0`, positions where both
/// stretches hold match for `q + w`; where exactly one of them ends first, `q + w` mismatches
/// (the other still holds there), so `run_{q+w} = min(a, b)` unless `a = b`, when we extend
/// by direct comparison.
fn for_each_run(g: &[u16], mut visit: impl FnMut(usize, usize) -> bool) {
    let n = g.len();
    // Runs of every p so far, until a base is chosen (then a ring of the last w runs).
    let mut history: Vec<u32> = vec![0];
    let mut base: Option<(usize, usize)> = None;
    let mut ring: Vec<u32> = Vec::new();
    for p in 1..n {
        let run = match base {
            Some((w, run_w)) if p > w => {
                let q = p - w;
                let a = ring[q % w] as usize;
                if run_w > q {
                    let b = run_w - q;
                    if a != b {
                        a.min(b)
                    } else {
                        run_of(g, p, a.min(n - p))
                    }
                } else {
                    run_of(g, p, 0)
                }
            }
            _ => run_of(g, p, 0),
        };
        match base {
            Some((w, _)) => ring[p % w] = run as u32,
            None if p <= MAX_BASE && n <= u32::MAX as usize => {
                history.push(run as u32);
                if run >= p.max(16) {
                    base = Some((p, run));
                    ring = vec![0; p];
                    for (q, &rq) in history.iter().enumerate().skip(1) {
                        ring[q % p] = rq;
                    }
                    history = Vec::new();
                }
            }
            None => history = Vec::new(),
        }
        if !visit(p, run) {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::takebreak::naive::sequence_of;

    /// The definition, by brute force: least supported p and its preperiod.
    fn reference(g: &[u16], t: usize) -> Option<(usize, usize)> {
        let n = g.len();
        let s = n.saturating_sub(t) / 2;
        (1..=s).find_map(|p| {
            let run = run_of(g, p, 0);
            (run >= n - s).then_some((n - p - run, p))
        })
    }

    fn check_online(g: &[u16], theorem: bool, t: usize) {
        let mut d = PeriodDetector::new(theorem, t);
        let mut certified: Option<Period> = None;
        for i in 0..g.len() {
            d.push_from(&g[..=i]);
            let got = d.status();
            if let Some(c) = certified {
                assert_eq!(got, Some(c), "a certified period is final");
                continue;
            }
            let want = reference(&g[..=i], t);
            assert_eq!(
                got.map(|p| (p.preperiod, p.period)),
                want,
                "after {} values of {g:?}",
                i + 1
            );
            if let Some(p) = got {
                assert_eq!(p.certified, theorem);
                if theorem {
                    assert_eq!(p.certified_at, Some(i));
                    certified = Some(p);
                }
            }
        }
    }

    #[test]
    fn for_each_run_matches_direct_comparison() {
        let seqs: Vec<Vec<u16>> = vec![
            (0..300).map(|i| (i % 7) as u16).collect(),
            (0..300)
                .map(|i| {
                    if i < 40 {
                        (i * 7 % 11) as u16
                    } else {
                        (i % 5) as u16
                    }
                })
                .collect(),
            (0..300).map(|i| ((i * i) % 13 % 3) as u16).collect(),
            vec![0; 200],
            (0..400)
                .map(|i| u16::from(i % 23 == 0 || i % 31 == 0))
                .collect(),
        ];
        for g in &seqs {
            let mut seen = Vec::new();
            for_each_run(g, |p, run| {
                seen.push((p, run));
                true
            });
            let want: Vec<_> = (1..g.len()).map(|p| (p, run_of(g, p, 0))).collect();
            assert_eq!(seen, want);
        }
    }

    #[test]
    fn kayles_and_dawsons_kayles_certify_with_published_periods() {
        let kayles = sequence_of(&Rules::parse("0.77").unwrap(), 400).unwrap();
        let mut d = PeriodDetector::for_rules(&Rules::parse("0.77").unwrap());
        let mut at = None;
        for i in 0..kayles.len() {
            d.push_from(&kayles[..=i]);
            if at.is_none() && d.is_certified() {
                at = Some(i);
            }
        }
        let p = d.status().unwrap();
        assert_eq!((p.preperiod, p.period), (71, 12));
        assert_eq!(p.certified_at, Some(2 * 71 + 2 * 12 + 2 - 1));
        assert_eq!(at, p.certified_at);

        let dawson = sequence_of(&Rules::parse("0.07").unwrap(), 300).unwrap();
        let mut d = PeriodDetector::for_rules(&Rules::parse("0.07").unwrap());
        for &v in &dawson {
            d.push(v);
        }
        let p = d.status().unwrap();
        assert_eq!((p.preperiod, p.period, p.certified), (53, 34, true));
        assert!(p.certified_at.unwrap() < 300);
    }

    #[test]
    fn online_detector_matches_the_definition_on_game_sequences() {
        for code in [
            "0.77", "0.07", "0.137", "0.6", "0.51", "0.14", "4.07", "0.3",
        ] {
            let rules = Rules::parse(code).unwrap();
            let g = sequence_of(&rules, 400).unwrap();
            check_online(&g, true, rules.max_removed());
        }
        for code in ["0.F", "0.B7", "grundys-game"] {
            let rules = Rules::parse(code).unwrap();
            let g = sequence_of(&rules, 300).unwrap();
            check_online(&g, false, rules.max_removed());
        }
    }

    #[test]
    fn observed_periods_come_and_go_exactly() {
        // Periodic stretches that break: an observed period must follow the definition.
        let mut g: Vec<u16> = (0..120).map(|i| (i % 4) as u16).collect();
        g.extend((0..150).map(|i| (i % 6) as u16));
        g.extend((0..100).map(|i| ((i * 5) % 9) as u16));
        g.extend(std::iter::repeat_n(3, 60));
        for t in [0, 1, 3] {
            check_online(&g, false, t);
            check_online(&g, true, t);
        }
    }

    proptest::proptest! {
        #[test]
        fn online_detector_matches_the_definition(
            prefix in proptest::collection::vec(0u16..4, 0..40),
            block in proptest::collection::vec(0u16..3, 1..9),
            reps in 1usize..12,
            tail in proptest::collection::vec(0u16..3, 0..30),
            t in 0usize..4,
            theorem: bool,
        ) {
            let mut g = prefix;
            for _ in 0..reps {
                g.extend_from_slice(&block);
            }
            g.extend(tail);
            check_online(&g, theorem, t);
        }
    }
}
