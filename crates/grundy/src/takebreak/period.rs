//! Periods of Grundy sequences, found online and certified by the periodicity theorem.
//!
//! Conventions (`docs/theory.md` §3): "preperiod" is the first index of the periodic part and
//! "period" its length, so `G(n + p) = G(n)` for every `n >= preperiod`. For a code whose moves
//! leave at most two heaps (every octal code, with or without `d0`), the octal periodicity theorem
//! says: if `G(n + p) = G(n)` for `pre <= n < 2·pre + p + t` (`t` = the most tokens a move
//! removes, the index of the last non-zero digit), then it holds for all `n >= pre`. For
//! other rules the same amount of repetition is reported as *observed*, never as certified.
//!
//! **Preperiod 0.** The theorem's proof moves the larger part `b` of a split to `b - p`, which
//! must stay a non-empty heap; that needs `pre >= 1`. With `pre = 0` the statement is false:
//! 0.4 has G = 0, 0, 0, 1, ..., so G(n+1) = G(n) for 0 <= n < 2 (= 2·0 + 1 + 1), yet G(3) = 1.
//! We therefore certify `(pre, p)` with the theorem at `n0 = max(pre, 1)` — the range
//! `max(pre, 1) <= n < 2·max(pre, 1) + p + t` — which for `pre >= 1` is the theorem's own condition
//! and for `pre = 0` asks for `p` more values (G(p) = G(0) is part of the run).
//!
//! # The condition, restated as a run
//! With `N` values known, let `run_p` be the number of trailing positions `y` (counting down
//! from `N - 1`) with `G(y) = G(y - p)`. The smallest preperiod the data allow for period `p`
//! is `N - p - run_p`, and that pair is certified by the first `N` values exactly when
//! `p < s(N) = ⌊(N - t)/2⌋` and `run_p >= r(N) = N - s(N)` (i.e. `max(pre, 1) + p <= s(N)`).
//! Call such a `p` *supported*.
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
//!   pass, in which most runs follow in O(1) from a base period `w` whose run is long: two
//!   w-periodic stretches mismatch where the shorter one ends, unless both end at the same
//!   place (see `for_each_run`). After a rescan at `N`, every unwatched run is far below the
//!   threshold, so the next rescan comes only after a constant factor more values: amortised
//!   O(1) per value.
//! - Once certified, nothing more is done. An observed (uncertified) period is held in O(1)
//!   per value, together with the runs of its divisors (the only periods that can replace
//!   it); if it breaks, one rescan starts the search again.
//!
//! Memory: the values themselves (kept by the caller with [`PeriodDetector::push_from`], or
//! a copy with [`PeriodDetector::push`]) plus, during a rescan, one `u32` per residue of the
//! base period (at most 2^22 of them).

use super::rules::Rules;
use serde::Serialize;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// What the detector reads of a sequence: its length and which of its values are equal. A
/// slice is one; so is a store whose first values live apart from the rest
/// ([`crate::takebreak::values::ValuesRef::Split`]).
pub trait Seq: Copy {
    /// What is compared.
    type Item: Copy + Eq;
    /// How many values.
    fn len(self) -> usize;
    /// Whether there are none.
    fn is_empty(self) -> bool {
        self.len() == 0
    }
    /// Value `i`.
    fn at(self, i: usize) -> Self::Item;
    /// Whether values `a..a + k` equal values `b..b + k`.
    fn same(self, a: usize, b: usize, k: usize) -> bool {
        (0..k).all(|j| self.at(a + j) == self.at(b + j))
    }
    /// `out[j] = 1` where value `from + j` equals `v`, else 0 (for `j < out.len()`).
    fn equal_to(self, from: usize, v: Self::Item, out: &mut [u8]) {
        for (j, e) in out.iter_mut().enumerate() {
            *e = u8::from(self.at(from + j) == v);
        }
    }
}

impl<V: Copy + Eq> Seq for &[V] {
    type Item = V;
    #[inline(always)]
    fn len(self) -> usize {
        <[V]>::len(self)
    }
    #[inline(always)]
    fn at(self, i: usize) -> V {
        self[i]
    }
    #[inline]
    fn same(self, a: usize, b: usize, k: usize) -> bool {
        self[a..a + k] == self[b..b + k]
    }
    #[inline]
    fn equal_to(self, from: usize, v: V, out: &mut [u8]) {
        let len = out.len();
        for (e, &x) in out.iter_mut().zip(&self[from..from + len]) {
            *e = u8::from(x == v);
        }
    }
}

/// A vector as its slice (so that `push_from(&values)` reads as before).
impl<V: Copy + Eq> Seq for &Vec<V> {
    type Item = V;
    #[inline(always)]
    fn len(self) -> usize {
        self.as_slice().len()
    }
    #[inline(always)]
    fn at(self, i: usize) -> V {
        self[i]
    }
}

/// A period of a Grundy sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Period {
    /// First index of the periodic part.
    pub preperiod: usize,
    /// Length of the period.
    pub period: usize,
    /// Whether the periodicity theorem proves it for every n (otherwise: observed so far).
    pub certified: bool,
    /// The index of the last value the certificate needed:
    /// `2·max(preperiod, 1) + 2·period + t - 1`.
    pub certified_at: Option<usize>,
}

/// A candidate period during the search (see [`PeriodDetector::candidate`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Candidate {
    /// The candidate period.
    pub period: usize,
    /// The preperiod its run implies so far.
    pub preperiod: usize,
    /// The index of the last value its certificate needs, if it keeps holding:
    /// `2·max(preperiod, 1) + 2·period + t - 1`.
    pub certificate_at: usize,
}

/// The index of the last value the periodicity theorem needs to certify `preperiod` and
/// `period` for rules that remove at most `max_removed` tokens per move:
/// `2·max(preperiod, 1) + 2·period + t - 1` (the octal periodicity theorem of Guy and Smith,
/// *The G-values of various games*, 1956; see `docs/theory.md`).
pub fn certificate_index(preperiod: usize, period: usize, max_removed: usize) -> usize {
    2 * preperiod.max(1) + 2 * period + max_removed - 1
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

    /// The period search so far: the candidate period whose current run implies the smallest
    /// preperiod (the best hope of a certificate), and where its certificate would complete
    /// if the run continues. `None` before any candidate repeats, and for rules without the
    /// periodicity theorem (no certificate to wait for).
    pub fn candidate(&self) -> Option<Candidate> {
        if !self.theorem {
            return None;
        }
        let n = self.n;
        let (period, preperiod) = match &self.mode {
            Mode::Certified(p) => (p.period, p.preperiod),
            Mode::Holding {
                period, preperiod, ..
            } => (*period, *preperiod),
            Mode::Searching { watch, .. } => watch
                .iter()
                .filter(|&&(_, run)| run > 0)
                .map(|&(p, run)| (p, n - p - run))
                .min_by_key(|&(p, pre)| (pre + p, p))?,
        };
        Some(Candidate {
            period,
            preperiod,
            certificate_at: certificate_index(preperiod, period, self.t),
        })
    }

    /// Feed the next value, keeping a copy of the sequence inside the detector.
    pub fn push(&mut self, value: u16) {
        let mut values = std::mem::take(&mut self.values);
        values.push(value);
        self.push_from(&values[..]);
        self.values = values;
    }

    /// Once a period is certified, count the values up to `len` without looking at them: a
    /// certified period holds for every heap size (it is a theorem), so pushing them one by
    /// one changes nothing but the length (the driver's runs past the certificate, on 0.16:
    /// 2.7% of the lead thread's time). Does nothing before a period is certified. For the
    /// callers of [`push_from`](Self::push_from) only.
    pub fn skip_certified(&mut self, len: usize) {
        if self.is_certified() && len > self.n {
            self.n = len;
        }
    }

    /// Feed the next value without copying: `g` is the whole sequence so far, G(0..=n), whose
    /// last element is the new value. Do not mix with [`push`](Self::push).
    pub fn push_from<S: Seq>(&mut self, g: S) {
        assert_eq!(
            g.len(),
            self.n + 1,
            "push_from needs the whole sequence with exactly one new value"
        );
        self.n = g.len();
        let n = self.n;
        let y = n - 1;
        let v = g.at(y);
        let (max_p, r) = self.thresholds(n);
        match &mut self.mode {
            Mode::Certified(_) => {}
            Mode::Holding {
                period,
                preperiod,
                divisors,
            } => {
                if g.at(y - *period) != v {
                    // Every supported period is a multiple of this one: all broke together.
                    self.rescan(g);
                    return;
                }
                for (d, run) in divisors.iter_mut() {
                    *run = if g.at(y - *d) == v { *run + 1 } else { 0 };
                }
                let smaller = divisors
                    .iter()
                    .filter(|&&(d, run)| d <= max_p && run >= r)
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
                    if y >= *p && g.at(y - *p) == v {
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
                    .filter(|&&(p, run)| p <= max_p && run >= r)
                    .min()
                    .copied();
                if let Some((p, run)) = least {
                    self.found(g, p, n - p - run);
                }
            }
        }
    }

    /// Feed G(self.len()..g.len()) at once, as far as nothing can happen on the way, and
    /// return how many values were taken (possibly 0; the caller pushes the next one with
    /// [`push_from`](Self::push_from) and tries again). The state is then exactly the one that
    /// pushing them one by one would leave.
    ///
    /// Why it is exact: while searching, pushing a value adds one to `bound` and to the run of
    /// every watched period that still matches (one that does not is dropped), and something
    /// happens only when `bound` or a watched run reaches `r(N)`. `r` grows by at most one per
    /// value, so with `M` the largest of `bound` and the watched runs, if `M + k < r(N + k)`
    /// then no step up to `N + k` reaches it, and the only change is `bound += k` and, for each
    /// watched period, `run += k` if the `k` new values all match the ones a period before
    /// them (one slice comparison), or its removal. Held and certified periods, and the last
    /// steps before a rescan, go value by value.
    ///
    /// Why: a resumed run replays its checkpoint through a fresh detector; value by value, with
    /// its rescans, that was 47% of a resume of 0.206 at 2^31 before it computed anything.
    pub fn push_quiet_from<S: Seq>(&mut self, g: S) -> usize {
        let n = self.n;
        let avail = g.len().saturating_sub(n);
        let Mode::Searching { watch, bound } = &mut self.mode else {
            return 0;
        };
        let top = watch.iter().map(|&(_, run)| run).fold(*bound, usize::max);
        let t = self.t;
        let r = |len: usize| len - len.saturating_sub(t) / 2;
        // M + k < r(n + k): r(n + k) >= r(n) + floor(k / 2), so k = 2 (r(n) - M) - 2 steps
        // are quiet (the loop below only guards that argument)
        let mut k = avail.min((2 * r(n).saturating_sub(top)).saturating_sub(2));
        while k > 0 && top + k >= r(n + k) {
            k -= 1;
        }
        if k == 0 {
            return 0;
        }
        watch.retain_mut(|(p, run)| {
            if *p <= n && g.same(n - *p, n, k) {
                *run += k;
                true
            } else {
                false
            }
        });
        *bound += k;
        self.n = n + k;
        k
    }

    /// `(s(N) - 1, r(N))`: a supported period is below `s(N)` and has a run of at least `r`.
    fn thresholds(&self, n: usize) -> (usize, usize) {
        let s = n.saturating_sub(self.t) / 2;
        (s.saturating_sub(1), n - s)
    }

    /// `p` (with preperiod `pre`) is the least supported period at the current length.
    fn found<S: Seq>(&mut self, g: S, p: usize, pre: usize) {
        if self.theorem {
            let certified_at = certificate_index(pre, p, self.t);
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
    fn rescan<S: Seq>(&mut self, g: S) {
        self.rescans += 1;
        let n = g.len();
        let (max_p, r) = self.thresholds(n);
        let mut best: BinaryHeap<Reverse<(usize, Reverse<usize>)>> = BinaryHeap::new();
        let mut bound = 0;
        let mut found: Option<(usize, usize)> = None;
        for_each_run(g, |p, run| {
            if p <= max_p && run >= r {
                if found.map_or(true, |(q, _)| p < q) {
                    found = Some((p, n - p - run));
                }
            } else if run > 0 {
                let entry = Reverse((run, Reverse(p)));
                // a full heap whose least entry outranks this one would push it and pop it
                // again: only the bound changes (most runs are short, and the heap's push and
                // pop were a third of a rescan of 0.206 at 2^31)
                if best.len() == WATCHED && best.peek().is_some_and(|least| *least < entry) {
                    bound = bound.max(run);
                    return;
                }
                best.push(entry);
                if best.len() > WATCHED {
                    let Reverse((dropped, _)) = best.pop().expect("non-empty");
                    bound = bound.max(dropped);
                }
            }
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
fn run_of<S: Seq>(g: S, p: usize, known: usize) -> usize {
    let n = g.len();
    let mut run = known;
    while run + p < n && g.at(n - 1 - run) == g.at(n - 1 - run - p) {
        run += 1;
    }
    run
}

/// Call `visit(p, run_p)` once for every p in 1..g.len() whose run is not 0 (in increasing
/// p up to the base period, then decreasing), in O(g.len()) amortised time.
///
/// Small p are compared directly until a *base* period `w` appears (the first p whose run is
/// at least `max(p, 16)`): the tail `g[n - R - w..]` (`R = run_w`) is then w-periodic. For
/// every other p, with `x = n - 1 - p` the text position facing the last value:
/// - the last `w` positions match iff the block of `w` values ending at `x` equals the last
///   block (its *phase match*, the number of leading agreements, is inherited from the block
///   ending at `x - w` whenever the text is w-periodic across both);
/// - after that, the run continues exactly while the text stays w-periodic (`E(x)`
///   consecutive positions with `g[z] = g[z - w]` going down from `x`) and the tail does
///   (`R` positions): where exactly one of the two stops first, the values differ, so
///   `run_p = w + min(E(x), R)`; only when both stop together do we compare further.
///
/// `E(x)` grows by one per step of x, so p runs downwards from `n - 1`.
fn for_each_run<S: Seq>(g: S, mut visit: impl FnMut(usize, usize)) {
    let n = g.len();
    if n == 0 {
        return;
    }
    let last = g.at(n - 1);
    let mut base = None;
    // A run is not 0 only where G(n - 1 - p) is the last value: a block of p at a time, the
    // positions they face are compared with it into a bit mask and only the p facing an equal
    // value are looked at (a game with no period never finds a base, and p by p this loop was
    // most of a rescan: 2.5 ns per p on 0.206, whose last value recurs once in about 35).
    const BLOCK: usize = 64;
    let mut p = 1;
    'blocks: while p < n {
        let len = BLOCK.min(n - p);
        // p..p + len face positions n - p - len ..= n - 1 - p; bit i is position
        // n - p - len + i, that is p + len - 1 - i (a comparison per value, vectorised)
        let mut equal = [0u8; BLOCK];
        g.equal_to(n - p - len, last, &mut equal[..len]);
        // eight 0/1 bytes to eight bits: the product gathers byte j's bit at bit 56 + j
        let mut mask = 0u64;
        for (j, bytes) in equal.chunks_exact(8).enumerate() {
            let x = u64::from_le_bytes(bytes.try_into().expect("8 bytes"));
            mask |= (x.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * j);
        }
        while mask != 0 {
            let i = 63 - mask.leading_zeros() as usize;
            mask &= !(1u64 << i);
            let q = p + len - 1 - i;
            let run = run_of(g, q, 0);
            debug_assert!(run > 0);
            visit(q, run);
            if run >= q.max(16) && q <= MAX_BASE {
                base = Some((q, run));
                break 'blocks;
            }
        }
        p += len;
    }
    let Some((w, tail_run)) = base else {
        return;
    };
    // phase[x % w]: phase match of the block ending at x (valid for the last x of that class).
    let mut phase = vec![0u32; w];
    let mut periodic = 0usize; // E(x)
    for x in 0..n - 1 - w {
        let p = n - 1 - x;
        periodic = if x >= w && g.at(x) == g.at(x - w) {
            periodic + 1
        } else {
            0
        };
        let matched = if periodic >= w {
            phase[x % w] as usize
        } else {
            let mut k = 0;
            while k < w && k <= x && g.at(x - k) == g.at(n - 1 - k) {
                k += 1;
            }
            k
        };
        phase[x % w] = matched as u32;
        let run = if matched < w {
            matched
        } else if periodic != tail_run {
            w + periodic.min(tail_run)
        } else {
            run_of(g, p, w + periodic)
        };
        if run > 0 {
            visit(p, run);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::takebreak::naive::sequence_of;

    #[test]
    fn skipping_past_the_certificate_is_pushing_one_by_one() {
        let rules = Rules::parse("0.07").unwrap();
        let g = sequence_of(&rules, 3000).unwrap();
        let mut one = PeriodDetector::for_rules(&rules);
        for k in 0..g.len() {
            one.push_from(&g[..=k]);
        }
        let mut skip = PeriodDetector::for_rules(&rules);
        let mut k = 0;
        while !skip.is_certified() {
            skip.push_from(&g[..=k]);
            k += 1;
        }
        assert!(k < 1000, "Dawson's Kayles is certified early ({k})");
        skip.skip_certified(g.len());
        assert_eq!(skip.len(), one.len());
        assert_eq!(skip.status(), one.status());
        // before a certificate it does nothing
        let mut early = PeriodDetector::for_rules(&rules);
        early.push_from(&g[..1]);
        early.skip_certified(100);
        assert_eq!((early.len(), early.is_certified()), (1, false));
    }

    /// The definition, by brute force: least supported p and its preperiod.
    fn reference(g: &[u16], t: usize) -> Option<(usize, usize)> {
        let n = g.len();
        (1..n).find_map(|p| {
            let pre = n - p - run_of(g, p, 0);
            (n >= 2 * pre.max(1) + 2 * p + t).then_some((pre, p))
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

    /// Feeds `g` through [`PeriodDetector::push_quiet_from`] (handed at most `block` values
    /// past the detector at a time) and [`PeriodDetector::push_from`] when it takes none;
    /// after every call the state must be the one-by-one detector's at the same length, to the
    /// last watched run. Returns how many values went through quietly.
    fn check_quiet(g: &[u16], theorem: bool, t: usize, block: usize) -> usize {
        let mut one = PeriodDetector::new(theorem, t);
        let mut states = vec![format!("{one:?}")];
        for i in 0..g.len() {
            one.push_from(&g[..=i]);
            states.push(format!("{one:?}"));
        }
        let mut d = PeriodDetector::new(theorem, t);
        let mut quiet = 0;
        while d.len() < g.len() && !d.is_certified() {
            let to = (d.len() + block).min(g.len());
            let k = d.push_quiet_from(&g[..to]);
            if k == 0 {
                d.push_from(&g[..=d.len()]);
            }
            quiet += k;
            assert_eq!(
                format!("{d:?}"),
                states[d.len()],
                "after {} values",
                d.len()
            );
        }
        quiet
    }

    #[test]
    fn quiet_steps_leave_the_state_of_one_by_one_pushes() {
        // games with no period in reach (0.206, 0.6), two certified early (0.07 at 175,
        // 0.137 at 174), and synthetic periods that break
        for (code, n) in [
            ("0.206", 20000),
            ("0.6", 5000),
            ("0.07", 2000),
            ("0.137", 3000),
        ] {
            let rules = Rules::parse(code).unwrap();
            let g = sequence_of(&rules, n).unwrap();
            for block in [1, 7, 1000, usize::MAX / 2] {
                let quiet = check_quiet(&g, true, rules.max_removed(), block);
                if code == "0.206" && block > 7 {
                    assert!(quiet > n / 2, "{code}: only {quiet} quiet values");
                }
            }
        }
        let mut g: Vec<u16> = (0..1200).map(|i| (i % 4) as u16).collect();
        g.extend((0..1500).map(|i| (i % 6) as u16));
        g.extend((0..1000).map(|i| ((i * 5) % 9) as u16));
        for t in [0, 1, 3] {
            for theorem in [false, true] {
                check_quiet(&g, theorem, t, 500);
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
            (0..500)
                .map(|i| u16::from((i as f64).sqrt().fract() < 1e-9))
                .collect(),
            (0..500)
                .map(|i| {
                    if i % 97 < 60 {
                        (i % 3) as u16
                    } else {
                        (i % 5) as u16
                    }
                })
                .collect(),
            (0..600)
                .map(|i| {
                    if (i / 50) % 2 == 0 {
                        0
                    } else {
                        (i % 20 / 10) as u16
                    }
                })
                .collect(),
            (0..400)
                .map(|i| u16::from(i % 23 == 0 || i % 31 == 0))
                .collect(),
        ];
        for g in &seqs {
            let mut seen = Vec::new();
            for_each_run(g, |p, run| seen.push((p, run)));
            seen.sort_unstable();
            let want: Vec<_> = (1..g.len())
                .map(|p| (p, run_of(g, p, 0)))
                .filter(|&(_, run)| run > 0)
                .collect();
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
    fn preperiod_zero_needs_the_theorem_at_n0_1() {
        // 0.4: G = 0 0 0 1 ... — "period 1 from 0" would pass the unguarded check at n = 2.
        let rules = Rules::parse("0.4").unwrap();
        let g = sequence_of(&rules, 200).unwrap();
        assert_eq!(&g[..4], &[0, 0, 0, 1]);
        let mut d = PeriodDetector::for_rules(&rules);
        for &v in &g[..3] {
            d.push(v);
        }
        assert_eq!(d.status(), None);
        // 0.3 (remove one token) is 0 1 0 1 ...: period 2 from 0, certified with n0 = 1.
        let rules = Rules::parse("0.3").unwrap();
        let g = sequence_of(&rules, 20).unwrap();
        let mut d = PeriodDetector::for_rules(&rules);
        for &v in &g {
            d.push(v);
        }
        let p = d.status().unwrap();
        assert_eq!((p.preperiod, p.period), (0, 2));
        assert_eq!(p.certified_at, Some(2 + 4 + 1 - 1));
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
        g.extend(std::iter::repeat(3).take(60));
        for t in [0, 1, 3] {
            check_online(&g, false, t);
            check_online(&g, true, t);
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(96))]
        /// The theorem as applied here is sound: a period certified early holds on every
        /// value computed afterwards, for random octal codes with and without d0.
        #[test]
        fn certified_periods_of_random_octal_codes_hold_later(
            d0 in proptest::sample::select(vec![0u128, 4]),
            digits in proptest::collection::vec(0u128..8, 1..5),
        ) {
            let code = crate::takebreak::Code::from_digits(
                std::iter::once(d0).chain(digits).collect(),
            ).unwrap();
            let rules = Rules::Code(code);
            let g = sequence_of(&rules, 700).unwrap();
            let mut d = PeriodDetector::for_rules(&rules);
            for i in 0..g.len() {
                d.push_from(&g[..=i]);
                if d.is_certified() {
                    let p = d.status().unwrap();
                    proptest::prop_assert_eq!(p.certified_at, Some(i));
                    for n in p.preperiod..g.len() - p.period {
                        proptest::prop_assert_eq!(g[n + p.period], g[n], "{} {:?}", rules, p);
                    }
                    break;
                }
            }
        }
    }

    /// `prefix`, then `block` `reps` times, then `tail`: a period that holds for a while.
    fn repeating(mut g: Vec<u16>, block: &[u16], reps: usize, tail: Vec<u16>) -> Vec<u16> {
        for _ in 0..reps {
            g.extend_from_slice(block);
        }
        g.extend(tail);
        g
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
            check_online(&repeating(prefix, &block, reps, tail), theorem, t);
        }

        #[test]
        fn quiet_steps_match_one_by_one_pushes(
            prefix in proptest::collection::vec(0u16..4, 0..200),
            block in proptest::collection::vec(0u16..3, 1..9),
            reps in 1usize..40,
            tail in proptest::collection::vec(0u16..3, 0..300),
            t in 0usize..4,
            theorem: bool,
            feed in 1usize..64,
        ) {
            check_quiet(&repeating(prefix, &block, reps, tail), theorem, t, feed);
        }
    }
}
