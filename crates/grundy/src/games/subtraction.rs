//! Subtraction games: from one heap remove a number of tokens allowed by a subtraction set.
//!
//! The set is either finite (`S = {1, 3, 4}`) or "all but" a finite set (every positive number
//! except those listed). With `S = {1}` a heap of a million tokens is a million-deep chain, the
//! test that the evaluators' traversal is iterative.

use super::heaps::{HeapMove, HeapRule, Heaps};
use crate::{Error, MexScratch, Nimber};

/// The allowed numbers of tokens to remove.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SubtractionSet {
    /// Exactly these (sorted, distinct, positive).
    Finite(Vec<u64>),
    /// Every positive number except these (sorted, distinct, positive).
    AllBut(Vec<u64>),
}

fn normalise(mut v: Vec<u64>, what: &str) -> Result<Vec<u64>, Error> {
    if v.contains(&0) {
        return Err(Error::Invalid(format!(
            "{what} must contain positive numbers only (0 is not a move)"
        )));
    }
    v.sort_unstable();
    v.dedup();
    Ok(v)
}

impl SubtractionSet {
    /// A finite subtraction set; refuses an empty set or 0.
    pub fn finite(v: Vec<u64>) -> Result<Self, Error> {
        if v.is_empty() {
            return Err(Error::Invalid("the subtraction set is empty".into()));
        }
        Ok(SubtractionSet::Finite(normalise(v, "the subtraction set")?))
    }

    /// Every positive number except those in `v` (which may be empty: then this is Nim).
    pub fn all_but(v: Vec<u64>) -> Result<Self, Error> {
        Ok(SubtractionSet::AllBut(normalise(v, "the excluded set")?))
    }

    /// Whether removing `s` tokens is allowed.
    pub fn allows(&self, s: u64) -> bool {
        match self {
            SubtractionSet::Finite(v) => v.binary_search(&s).is_ok(),
            SubtractionSet::AllBut(v) => s > 0 && v.binary_search(&s).is_err(),
        }
    }
}

impl std::fmt::Display for SubtractionSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let list = |v: &[u64]| v.iter().map(u64::to_string).collect::<Vec<_>>().join(", ");
        match self {
            SubtractionSet::Finite(v) => write!(f, "{{{}}}", list(v)),
            SubtractionSet::AllBut(v) => write!(f, "all but {{{}}}", list(v)),
        }
    }
}

/// The heap rule of a subtraction game.
#[derive(Debug, Clone)]
pub struct SubtractionRule {
    set: SubtractionSet,
}

impl SubtractionRule {
    /// The rule for a subtraction set.
    pub fn new(set: SubtractionSet) -> Self {
        SubtractionRule { set }
    }

    /// The subtraction set.
    pub fn set(&self) -> &SubtractionSet {
        &self.set
    }
}

impl HeapRule for SubtractionRule {
    fn heap_options(&self, n: u64, out: &mut Vec<u64>) {
        match &self.set {
            SubtractionSet::Finite(v) => {
                out.extend(v.iter().take_while(|&&s| s <= n).map(|&s| n - s))
            }
            SubtractionSet::AllBut(v) => out.extend(
                (1..=n)
                    .filter(|s| v.binary_search(s).is_err())
                    .map(|s| n - s),
            ),
        }
    }
}

/// A subtraction game on a row of heaps.
pub type Subtraction = Heaps<SubtractionRule>;

/// The subtraction game for `set`.
pub fn subtraction(set: SubtractionSet) -> Subtraction {
    Heaps(SubtractionRule::new(set))
}

/// The most steps [`sequence`] takes on: 10^9, about 10 seconds (heap sizes times the numbers
/// of the set that fit below them).
pub const SEQUENCE_WORK_LIMIT: u128 = 1_000_000_000;

fn set_len(set: &SubtractionSet) -> usize {
    match set {
        SubtractionSet::Finite(v) | SubtractionSet::AllBut(v) => v.len(),
    }
}

/// The steps [`sequence`] takes for G(0..=n): for each heap k, one per listed number at most k
/// (the set for finite sets, the excluded numbers for all-but sets), plus one.
pub fn sequence_work(set: &SubtractionSet, n: u64) -> u128 {
    let v = match set {
        SubtractionSet::Finite(v) | SubtractionSet::AllBut(v) => v,
    };
    let n = n as u128;
    // Sum over k = 0..=n of (1 + #{x in v : x <= k}) = (n + 1) + sum over x <= n of (n + 1 - x).
    v.iter()
        .map(|&x| x as u128)
        .filter(|&x| x <= n)
        .map(|x| n + 1 - x)
        .sum::<u128>()
        + n
        + 1
}

/// G(0..=n) of a single heap, by dynamic programming over an array.
///
/// Finite sets cost O(n |S|). For "all but" sets every smaller heap is an option except the
/// excluded moves, so the mex comes from counts of the values seen so far: the least value
/// with count 0 (a pointer that only moves up, since counts only grow), or a value whose only
/// occurrences the excluded moves remove — O(n |E|) in all. Refuses (with
/// [`Error::TooLarge`]) an `n` whose array cannot be indexed.
pub fn sequence(set: &SubtractionSet, n: u64) -> Result<Vec<Nimber>, Error> {
    let len = usize::try_from(n)
        .ok()
        .and_then(|n| n.checked_add(1))
        .ok_or_else(|| {
            Error::TooLarge(format!(
                "a sequence up to heap {n} is too large for this machine"
            ))
        })?;
    let work = sequence_work(set, n);
    if work > SEQUENCE_WORK_LIMIT {
        return Err(Error::TooLarge(format!(
            "too large: G(0..={n}) with {} numbers in the set: about {work} steps (heap sizes times set \
             size), more than the {SEQUENCE_WORK_LIMIT} allowed (about 10 s): choose a \
             smaller heap or a smaller set",
            set_len(set)
        )));
    }
    let mut g: Vec<Nimber> = Vec::new();
    g.try_reserve_exact(len).map_err(|_| {
        Error::TooLarge(format!("a sequence up to heap {n} does not fit in memory"))
    })?;
    let mut scratch = MexScratch::new();
    match set {
        SubtractionSet::Finite(s) => {
            for k in 0..len {
                let v = scratch.mex(
                    s.iter()
                        .take_while(|&&x| x as usize <= k)
                        .map(|&x| g[k - x as usize]),
                );
                g.push(v);
            }
        }
        SubtractionSet::AllBut(excluded) => {
            // counts[v] = how many heaps j < k have G(j) = v.
            let mut counts: Vec<u64> = Vec::new();
            let mut first_zero = 0usize; // least v with counts[v] == 0
            let mut removed: Vec<usize> = Vec::with_capacity(excluded.len());
            for k in 0..len {
                removed.clear();
                removed.extend(
                    excluded
                        .iter()
                        .take_while(|&&e| e as usize <= k)
                        .map(|&e| g[k - e as usize] as usize),
                );
                for &r in &removed {
                    counts[r] -= 1;
                }
                let v = removed
                    .iter()
                    .copied()
                    .filter(|&r| counts[r] == 0)
                    .chain(std::iter::once(first_zero))
                    .min()
                    .expect("at least first_zero");
                for &r in &removed {
                    counts[r] += 1;
                }
                g.push(v as Nimber);
                if counts.len() <= v + 1 {
                    counts.resize(v + 2, 0);
                }
                counts[v] += 1;
                while counts.get(first_zero).is_some_and(|&c| c > 0) {
                    first_zero += 1;
                }
            }
        }
    }
    Ok(g)
}

/// The value of the position `heaps` (a sum of single heaps: the nim-sum of their values) and
/// every move to a position of value `target` (0: the winning moves), by heap and then by the
/// number of tokens removed. One sequence up to the largest heap, then a scan of each heap's
/// removals: O(|S|) per heap for a finite set, O(heap) for an "all but" set.
pub fn moves_to(
    set: &SubtractionSet,
    heaps: &[u64],
    target: Nimber,
) -> Result<(Nimber, Vec<HeapMove>), Error> {
    let max = heaps.iter().copied().max().unwrap_or(0);
    let g = sequence(set, max)?;
    let value = heaps.iter().fold(0, |acc, &h| acc ^ g[h as usize]);
    let mut moves = Vec::new();
    for (i, &n) in heaps.iter().enumerate() {
        let need = value ^ g[n as usize] ^ target;
        let removals: Box<dyn Iterator<Item = u64>> = match set {
            SubtractionSet::Finite(v) => Box::new(v.iter().copied().take_while(|&s| s <= n)),
            SubtractionSet::AllBut(_) => Box::new((1..=n).filter(|&s| set.allows(s))),
        };
        for s in removals {
            if g[(n - s) as usize] == need {
                moves.push(HeapMove {
                    heap: i,
                    from: n,
                    to: n - s,
                });
            }
        }
    }
    Ok((value, moves))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NormalPlay;

    #[test]
    fn sequence_matches_generic_evaluator() {
        let sets = [
            SubtractionSet::finite(vec![1, 3, 4]).unwrap(),
            SubtractionSet::finite(vec![2, 5, 7]).unwrap(),
            SubtractionSet::all_but(vec![2, 5]).unwrap(),
            SubtractionSet::all_but(vec![1]).unwrap(),
            SubtractionSet::all_but(vec![]).unwrap(),
        ];
        for set in sets {
            let seq = sequence(&set, 60).unwrap();
            let mut solver = NormalPlay::new(subtraction(set.clone()));
            for (n, &v) in seq.iter().enumerate() {
                assert_eq!(
                    solver.grundy_value(&vec![n as u64]).unwrap(),
                    v,
                    "{set} at {n}"
                );
            }
        }
    }

    #[test]
    fn moves_to_matches_generic_evaluator() {
        let sets = [
            SubtractionSet::finite(vec![1, 3, 4]).unwrap(),
            SubtractionSet::all_but(vec![2, 5]).unwrap(),
        ];
        for set in sets {
            let mut solver = NormalPlay::new(subtraction(set.clone()));
            for heaps in [vec![10, 7], vec![0], vec![3, 3, 9], vec![12, 1, 6]] {
                let (value, _) = moves_to(&set, &heaps, 0).unwrap();
                let position = crate::games::Heaps::<SubtractionRule>::position(&heaps);
                assert_eq!(
                    value,
                    solver.grundy_value(&position).unwrap(),
                    "{set} {heaps:?}"
                );
                for target in 0..4 {
                    let (_, mut moves) = moves_to(&set, &heaps, target).unwrap();
                    let mut expected = solver.heap_moves_to(&heaps, target).unwrap();
                    moves.sort_by_key(|m| (m.heap, m.to));
                    expected.sort_by_key(|m| (m.heap, m.to));
                    assert_eq!(moves, expected, "{set} {heaps:?} to {target}");
                }
            }
        }
    }

    #[test]
    fn known_sequence_of_1_3_4() {
        // The classic subtraction game S = {1,3,4}: period 7, 0 1 0 1 2 3 2.
        let seq = sequence(&SubtractionSet::finite(vec![1, 3, 4]).unwrap(), 13).unwrap();
        assert_eq!(seq, vec![0, 1, 0, 1, 2, 3, 2, 0, 1, 0, 1, 2, 3, 2]);
    }

    #[test]
    fn huge_lengths_are_refused_not_wrapped() {
        let set = SubtractionSet::all_but(vec![2]).unwrap();
        assert!(matches!(sequence(&set, u64::MAX), Err(Error::TooLarge(_))));
    }

    #[test]
    fn all_but_sequences_match_a_direct_mex() {
        for excluded in [
            vec![],
            vec![1],
            vec![2, 5],
            vec![1, 2, 3],
            vec![3, 4, 9, 10],
        ] {
            let set = SubtractionSet::all_but(excluded.clone()).unwrap();
            let fast = sequence(&set, 400).unwrap();
            let mut direct: Vec<Nimber> = Vec::new();
            for k in 0..=400u64 {
                let opts = (1..=k)
                    .filter(|s| set.allows(*s))
                    .map(|s| direct[(k - s) as usize]);
                direct.push(crate::mex(opts));
            }
            assert_eq!(fast, direct, "{excluded:?}");
        }
    }

    #[test]
    fn sequence_work_counts_the_steps_and_bounds_the_run() {
        for v in [vec![1u64, 3, 4], vec![2, 5, 9, 10], vec![7]] {
            for n in 0..30u64 {
                let direct: u128 = (0..=n)
                    .map(|k| 1 + v.iter().filter(|&&x| x <= k).count() as u128)
                    .sum();
                let finite = SubtractionSet::finite(v.clone()).unwrap();
                let all_but = SubtractionSet::all_but(v.clone()).unwrap();
                assert_eq!(sequence_work(&finite, n), direct);
                assert_eq!(sequence_work(&all_but, n), direct);
            }
        }
        // Thousands of numbers and a large heap: refused up front, before any work.
        let big = SubtractionSet::finite((1..=5000).collect()).unwrap();
        let e = sequence(&big, 10_000_000).unwrap_err().to_string();
        assert!(e.contains("5000 numbers"), "{e}");
        assert_eq!(sequence(&big, 1000).unwrap().len(), 1001);
    }

    #[test]
    fn bad_sets_are_refused() {
        assert!(SubtractionSet::finite(vec![]).is_err());
        assert!(SubtractionSet::finite(vec![0, 1]).is_err());
        assert!(SubtractionSet::all_but(vec![0]).is_err());
    }
}
