//! A small loopy family: subtraction games where some moves put tokens back.
//!
//! One heap of n tokens, 0 ≤ n ≤ `max`. A move either removes t tokens for some t in the
//! *take* set (t ≤ n) or, from a non-empty heap, adds a tokens for some a in the *add* set
//! (n + a ≤ max); the empty heap ends the game as in a plain subtraction game. Adding makes
//! the game loopy — a play 3 → 5 → 3 → ... can go on forever — while the cap `max` keeps the
//! positions finite, so the generalized Sprague–Grundy function of [`crate::solve::loopy`]
//! (Smith 1966; Fraenkel & Yesha 1986) decides every heap: P, N or a draw.

use crate::graph::LoopyGraph;
use crate::{Error, Game, Result};

/// The rules: take sets, add sets and the cap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoopySubtraction {
    take: Vec<u64>,
    add: Vec<u64>,
    max: u64,
}

fn normalise(mut v: Vec<u64>, what: &str) -> Result<Vec<u64>> {
    if v.contains(&0) {
        return Err(Error::Invalid(format!(
            "the {what} set must contain positive numbers only (0 is not a move)"
        )));
    }
    v.sort_unstable();
    v.dedup();
    Ok(v)
}

impl LoopySubtraction {
    /// Rules removing a number in `take` or adding a number in `add`, heaps capped at `max`.
    /// Refuses 0 in either set, an empty take set, and a cap whose graph would exceed the
    /// loopy graph limit.
    pub fn new(take: Vec<u64>, add: Vec<u64>, max: u64) -> Result<Self> {
        if take.is_empty() {
            return Err(Error::Invalid("the take set is empty".into()));
        }
        let limit = crate::graph::loopy::MAX_NODES as u64 - 1;
        if max > limit {
            return Err(Error::TooLarge(format!(
                "too large: a cap of {max} tokens, at most {limit}"
            )));
        }
        Ok(LoopySubtraction {
            take: normalise(take, "take")?,
            add: normalise(add, "add")?,
            max,
        })
    }

    /// The cap on the heap.
    pub fn max(&self) -> u64 {
        self.max
    }

    /// The graph of every heap 0..=max (node n is the heap of n tokens).
    pub fn graph(&self) -> Result<LoopyGraph> {
        let names = (0..=self.max).map(|n| n.to_string()).collect();
        let mut buf = Vec::new();
        let options = (0..=self.max)
            .map(|n| {
                buf.clear();
                self.options(&n, &mut buf);
                buf.iter().map(|&o| o as usize).collect()
            })
            .collect();
        LoopyGraph::new(names, options, 0)
    }
}

impl Game for LoopySubtraction {
    type Position = u64;
    fn options(&self, n: &u64, out: &mut Vec<u64>) {
        out.extend(self.take.iter().take_while(|&&t| t <= *n).map(|&t| n - t));
        if *n == 0 {
            return; // the empty heap ends the game
        }
        out.extend(
            self.add
                .iter()
                .take_while(|&&a| a <= self.max.saturating_sub(*n))
                .map(|&a| n + a),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::loopy::{LoopyOutcome, LoopyValue};
    use crate::NormalPlay;

    #[test]
    fn without_adding_it_is_the_subtraction_game() {
        let g = LoopySubtraction::new(vec![1, 3, 4], vec![], 30).unwrap();
        let graph = g.graph().unwrap();
        assert!(!graph.has_cycle());
        let a = graph.analyse();
        for n in 0..=30u64 {
            let expected = NormalPlay::new(&g).grundy_value(&n).unwrap();
            assert_eq!(a.value(n as usize), LoopyValue::Finite(expected));
        }
    }

    #[test]
    fn adding_tokens_back_creates_draws_and_exploring_agrees() {
        let g = LoopySubtraction::new(vec![2, 3], vec![1], 12).unwrap();
        let graph = g.graph().unwrap();
        assert!(graph.has_cycle());
        let a = graph.analyse();
        let outcomes: Vec<LoopyOutcome> = (0..=12).map(|n| a.outcome(n)).collect();
        assert!(outcomes.contains(&LoopyOutcome::D), "{outcomes:?}");
        for n in 0..=12u64 {
            let explored = crate::graph::loopy::loopy_value(&g, &n, 100).unwrap();
            assert_eq!(explored, a.value(n as usize), "heap {n}");
        }
    }

    #[test]
    fn refuses_bad_rules() {
        assert!(LoopySubtraction::new(vec![], vec![1], 5).is_err());
        assert!(LoopySubtraction::new(vec![0], vec![1], 5).is_err());
        assert!(LoopySubtraction::new(vec![1], vec![0], 5).is_err());
        assert!(LoopySubtraction::new(vec![1], vec![1], u64::MAX).is_err());
    }
}
