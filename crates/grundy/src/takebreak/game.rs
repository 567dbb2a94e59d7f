//! Take-and-break rules as a plain [`Game`], for the generic evaluator.
//!
//! This is the *reference*: it enumerates every move literally (every way to remove `k`
//! tokens and split the rest into `j` non-empty heaps), with no bitsets, no nim-sum tables and
//! no shortcuts, so that tests can hold the sequence engines and the winning-move search
//! against the shared solver on every small position.

use super::rules::Rules;
use crate::Game;

/// A row of heaps played under [`Rules`]. Positions are sorted lists of non-empty heaps.
#[derive(Debug, Clone)]
pub struct TakeBreakGame {
    /// The rules.
    pub rules: Rules,
}

impl TakeBreakGame {
    /// The game for `rules`.
    pub fn new(rules: Rules) -> Self {
        TakeBreakGame { rules }
    }

    /// The canonical position of a list of heaps (empty heaps dropped, sorted).
    pub fn position(heaps: &[u32]) -> Vec<u32> {
        let mut p: Vec<u32> = heaps.iter().copied().filter(|&h| h > 0).collect();
        p.sort_unstable();
        p
    }

    /// Every move from a single heap of `n`: `visit(removed, heaps_left)` (heaps sorted, each
    /// non-empty). Moves reaching the same heaps by different `removed` are all listed.
    pub fn heap_moves(&self, n: u32, mut visit: impl FnMut(u32, &[u32])) {
        match &self.rules {
            Rules::GrundysGame => {
                for a in 1..n.div_ceil(2) {
                    visit(0, &[a, n - a]);
                }
            }
            Rules::Code(code) => {
                let mut parts = Vec::new();
                for k in 0..=n.min(code.last_nonzero() as u32) {
                    let d = code.digit(k as usize);
                    for j in 0..128u32 {
                        if d >> j & 1 == 0 {
                            continue;
                        }
                        let r = n - k;
                        if j == 0 {
                            if r == 0 {
                                visit(k, &[]);
                            }
                        } else if r >= j {
                            partitions(r, j, 1, &mut parts, &mut |p| visit(k, p));
                        }
                    }
                }
            }
        }
    }
}

/// Every partition of `r` into exactly `j` parts, each at least `min`, in non-decreasing order.
fn partitions(r: u32, j: u32, min: u32, parts: &mut Vec<u32>, visit: &mut dyn FnMut(&[u32])) {
    if j == 1 {
        if r >= min {
            parts.push(r);
            visit(parts);
            parts.pop();
        }
        return;
    }
    let mut a = min;
    while a * j <= r {
        parts.push(a);
        partitions(r - a, j - 1, a, parts, visit);
        parts.pop();
        a += 1;
    }
}

impl Game for TakeBreakGame {
    type Position = Vec<u32>;

    fn options(&self, position: &Vec<u32>, out: &mut Vec<Vec<u32>>) {
        for (i, &n) in position.iter().enumerate() {
            if i > 0 && position[i - 1] == n {
                continue;
            }
            self.heap_moves(n, |_, left| {
                let mut q = Vec::with_capacity(position.len() + left.len());
                q.extend_from_slice(&position[..i]);
                q.extend_from_slice(&position[i + 1..]);
                q.extend_from_slice(left);
                q.sort_unstable();
                out.push(q);
            });
        }
    }

    fn components(&self, position: &Vec<u32>) -> Option<Vec<Vec<u32>>> {
        (position.len() > 1).then(|| position.iter().map(|&n| vec![n]).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NormalPlay;

    #[test]
    fn partitions_are_all_listed_once() {
        let mut seen = Vec::new();
        partitions(7, 3, 1, &mut Vec::new(), &mut |p| seen.push(p.to_vec()));
        assert_eq!(
            seen,
            vec![vec![1, 1, 5], vec![1, 2, 4], vec![1, 3, 3], vec![2, 2, 3]]
        );
    }

    #[test]
    fn kayles_moves_and_values() {
        let g = TakeBreakGame::new(Rules::parse("kayles").unwrap());
        let mut moves = Vec::new();
        g.heap_moves(4, |k, left| moves.push((k, left.to_vec())));
        assert_eq!(
            moves,
            vec![(1, vec![3]), (1, vec![1, 2]), (2, vec![2]), (2, vec![1, 1])]
        );
        let mut play = NormalPlay::new(g);
        let values: Vec<u64> = (0..12)
            .map(|n| play.grundy_value(&TakeBreakGame::position(&[n])).unwrap())
            .collect();
        assert_eq!(values, [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);
    }
}
