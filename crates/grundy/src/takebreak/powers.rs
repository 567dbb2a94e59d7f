//! Summaries of a sequence at powers of two: the form in which long octal runs are published.
//!
//! Researchers who run an octal game for days (Rogalski's runs to 2^37–2^41, Grossman's
//! Officers) publish, at each power of two `n = 2^k`, how often each value occurs among
//! `G(1..=n)`, where the rare values lie and the largest value so far. A reader can then check
//! a claimed frontier against their own run power by power, without the values themselves.
//! [`summary`] computes that for `G(0..=n)`; [`PowerSummary::text`] is the plain-text file a
//! long run writes for each power (`grundy takebreak CODE -n N --results DIR`), and the
//! SHA-256 of the values makes the values themselves checkable by anyone who recomputes them.
//!
//! Conventions: heap 0 is not counted (its value is 0 in every game, and published histograms
//! start at heap 1); "rare" is the rare/common engine's own split into classes
//! `(value, parity of the heap)` ([`super::sparse::classes`]), so a rare heap is one the engine
//! enumerates one by one. Codes the rare/common engine does not run (a digit of 8 or more)
//! have a histogram and no rare heaps.

use super::sparse::classes;
use super::values::{Value, ValueCounter, ValuesRef};
use super::Rules;
use crate::Error;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::fmt::Write as _;

/// The most rare heaps a summary lists (their count is always exact).
pub const RARE_LISTED: usize = 100_000;

/// The summary of `G(0..=n)`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PowerSummary {
    /// The code, as the run names it.
    pub code: String,
    /// The last heap size: the histogram counts heaps `1..=n`.
    pub n: usize,
    /// `(value, how many of G(1..=n) equal it)`, ascending by value, values that occur only.
    pub histogram: Vec<(u16, u64)>,
    /// The largest of G(1..=n) and the first heap size where it occurs.
    pub max_value: u16,
    pub max_first_at: usize,
    /// How many heaps of `1..=n` are in a rare class (`None`: the code is not one the
    /// rare/common engine runs).
    pub rare_count: Option<u64>,
    /// The rare heaps, ascending (the first [`RARE_LISTED`]).
    pub rare_heaps: Vec<usize>,
    /// SHA-256 of G(0..=n), each value as two bytes, little-endian, hex.
    pub sha256: String,
}

/// The SHA-256 of `values`, each as two little-endian bytes, in hex.
pub fn values_sha256<'a>(values: impl Into<ValuesRef<'a>>) -> String {
    let values = values.into();
    fn update<V: Value>(hasher: &mut Sha256, values: &[V]) {
        for chunk in values.chunks(1 << 16) {
            let bytes: Vec<u8> = chunk.iter().flat_map(|v| v.get().to_le_bytes()).collect();
            hasher.update(&bytes);
        }
    }
    let mut hasher = Sha256::new();
    match values {
        ValuesRef::U8(g) => update(&mut hasher, g),
        ValuesRef::U16(g) => update(&mut hasher, g),
        ValuesRef::Split(v) => {
            let h = v.head.len().min(v.bytes.len());
            update(&mut hasher, &v.head[v.from.min(h)..h]);
            update(&mut hasher, &v.bytes[v.from.max(h)..]);
        }
    }
    hasher
        .finalize()
        .iter()
        .fold(String::with_capacity(64), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

/// The summary of `values = G(0..=n)` (`n >= 1`) of the game `rules`.
pub fn summary<'a>(rules: &Rules, values: impl Into<ValuesRef<'a>>) -> Result<PowerSummary, Error> {
    let values = values.into();
    let n = values
        .len()
        .checked_sub(1)
        .filter(|&n| n >= 1)
        .ok_or_else(|| Error::Invalid("a summary needs G(0..=n) with n at least 1".into()))?;
    let mut counter = ValueCounter::new();
    counter.add_ref(values.slice(1..));
    let counts = counter.counts();
    let max_value = counts.len().saturating_sub(1) as u16;
    let max_first_at = 1 + values
        .slice(1..)
        .iter()
        .position(|v| v == max_value)
        .expect("the largest value occurs");
    let histogram = counts
        .iter()
        .enumerate()
        .filter(|(_, &c)| c > 0)
        .map(|(v, &c)| (v as u16, c))
        .collect();
    let split = match rules {
        Rules::Code(code) => classes::rare_heaps(code, values).ok(),
        _ => None,
    };
    let (rare_count, rare_heaps) = match split {
        Some(heaps) => {
            let count = heaps.len() as u64;
            let mut listed = heaps;
            listed.truncate(RARE_LISTED);
            (Some(count), listed)
        }
        None => (None, Vec::new()),
    };
    Ok(PowerSummary {
        code: rules.to_string(),
        n,
        histogram,
        max_value,
        max_first_at,
        rare_count,
        rare_heaps,
        sha256: values_sha256(values),
    })
}

impl PowerSummary {
    /// The plain-text file of this summary: `#` comment lines with the facts, then one line
    /// `VALUE COUNT` per value that occurs, then `rare HEAP VALUE` lines.
    pub fn text<'a>(&self, values: impl Into<ValuesRef<'a>>) -> String {
        let values = values.into();
        let mut s = String::new();
        let _ = writeln!(
            s,
            "# grundy: the values of {} at heaps 1..={}",
            self.code, self.n
        );
        let _ = writeln!(s, "# n {}", self.n);
        let _ = writeln!(
            s,
            "# largest value {} first at heap {}",
            self.max_value, self.max_first_at
        );
        match self.rare_count {
            Some(c) => {
                let _ = writeln!(s, "# rare heaps {c} (the rare/common engine's split)");
            }
            None => {
                let _ = writeln!(s, "# rare heaps: none counted (not a rare/common code)");
            }
        }
        if let Some(&last) = self.rare_heaps.last() {
            if self.rare_count == Some(self.rare_heaps.len() as u64) {
                let _ = writeln!(s, "# last rare heap {last}");
            }
        }
        let _ = writeln!(
            s,
            "# sha256 of G(0..={}) as u16 little-endian {}",
            self.n, self.sha256
        );
        let _ = writeln!(s, "# value count");
        for (v, c) in &self.histogram {
            let _ = writeln!(s, "{v} {c}");
        }
        for &h in &self.rare_heaps {
            let _ = writeln!(s, "rare {h} {}", values.get(h));
        }
        s
    }
}

/// The powers of two `2^k` (with `2^k >= from`) whose summary a run that has `G(0..len)`
/// can write: `2^k + 1 <= len`, ascending, above `done` (the last one written, or 0).
pub fn powers_ready(from: usize, len: usize, done: usize) -> impl Iterator<Item = usize> {
    (0..usize::BITS)
        .map(|k| 1usize << k)
        .filter(move |&p| p >= from && p > done && p < len)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::takebreak::{compute, Finish, Naive};

    fn values(code: &str, n: usize) -> (Rules, Vec<u16>) {
        let code: crate::takebreak::Code = code.parse().unwrap();
        let rules = Rules::from(code);
        let mut naive = Naive::new(rules.clone());
        let c = compute(&rules, n, Finish::ComputeAll, &mut naive, None).unwrap();
        (rules, c.values.to_vec())
    }

    #[test]
    fn histogram_and_largest_value_count_heaps_from_one() {
        // 0.07 (Dawson's Kayles) to 64, checked against a plain count
        let (code, g) = values("0.07", 64);
        let s = summary(&code, &g).unwrap();
        assert_eq!(s.n, 64);
        let total: u64 = s.histogram.iter().map(|&(_, c)| c).sum();
        assert_eq!(total, 64);
        for &(v, c) in &s.histogram {
            assert_eq!(c, g[1..].iter().filter(|&&x| x == v).count() as u64);
        }
        let max = *g[1..].iter().max().unwrap();
        assert_eq!(s.max_value, max);
        assert_eq!(
            s.max_first_at,
            1 + g[1..].iter().position(|&x| x == max).unwrap()
        );
    }

    #[test]
    fn rare_heaps_are_the_engines_rare_classes() {
        // Officers (0.6): the rare heaps are those in the split's rare classes, which
        // rare_common_split lists (up to 20 positions a class)
        let (code, g) = values("0.6", 5000);
        let s = summary(&code, &g).unwrap();
        let Rules::Code(c) = &code else {
            unreachable!()
        };
        let split = classes::rare_common_split(c, &g).unwrap();
        assert_eq!(s.rare_count, Some(split.rare_positions));
        for class in &split.rare {
            for p in &class.positions {
                assert!(s.rare_heaps.binary_search(p).is_ok(), "heap {p}");
            }
        }
        for &h in &s.rare_heaps {
            let q = if h % 2 == 0 { "even" } else { "odd" };
            assert!(
                split.rare.iter().any(|c| c.value == g[h] && c.heaps == q),
                "heap {h}"
            );
        }
        // a code the rare/common engine does not run: no rare heaps counted
        let (code, g) = values("0.8", 40);
        assert_eq!(summary(&code, &g).unwrap().rare_count, None);
    }

    #[test]
    fn the_text_and_the_digest_are_stable() {
        assert_eq!(
            values_sha256(&[] as &[u16]),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
        // two bytes per value, little-endian: [1, 256] is the bytes 01 00 00 01
        let mut h = Sha256::new();
        h.update([1u8, 0, 0, 1]);
        let want: String = h.finalize().iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(values_sha256(&[1u16, 256][..]), want);
        let (code, g) = values("0.07", 16);
        let text = summary(&code, &g).unwrap().text(&g);
        assert!(text.starts_with("# grundy: the values of 0.07 at heaps 1..=16\n# n 16\n"));
        let counts: u64 = text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with("rare"))
            .map(|l| l.split(' ').nth(1).unwrap().parse::<u64>().unwrap())
            .sum();
        assert_eq!(counts, 16);
    }

    #[test]
    fn powers_ready_are_those_fully_computed() {
        // G(0..4097) holds G(4096): 4096 is ready; G(0..4096) does not
        let p: Vec<usize> = powers_ready(1024, 4097, 0).collect();
        assert_eq!(p, [1024, 2048, 4096]);
        let p: Vec<usize> = powers_ready(1024, 4096, 0).collect();
        assert_eq!(p, [1024, 2048]);
        let p: Vec<usize> = powers_ready(1024, 8193, 4096).collect();
        assert_eq!(p, [8192]);
        assert_eq!(powers_ready(1024, 1024, 0).count(), 0);
    }
}
