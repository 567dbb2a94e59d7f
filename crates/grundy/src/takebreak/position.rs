//! Positions of several heaps: value, outcome and every winning move.
//!
//! A position is the disjunctive sum of its heaps, so its value is the nim-sum of the heaps'
//! Grundy values (primer §1), read from the sequence G(0..=max heap). A winning move changes
//! one heap `n` (value `G(n)`) into heaps whose nim-sum is `x = total ⊕ G(n)`; we search only
//! for those. Splits into two heaps are one pass; splits into `j >= 3` heaps walk the
//! partitions in non-decreasing order but enter a branch only if the remaining `r` tokens can
//! still make the needed nim-sum with the remaining heaps (the `S_j(r)` tables of the naive
//! engine), so the search does not wander through partitions that cannot win.

use super::code::Code;
use super::driver::Computation;
use super::naive::{sequence_of, SplitSets};
use super::rules::Rules;
use crate::{Error, Outcome};
use serde::Serialize;

/// One move: heap number `heap` (0-based, in the order given) of `from` tokens loses `removed`
/// tokens and what is left is the heaps `leaves` (empty: the heap was taken whole).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct TakeBreakMove {
    /// Index of the heap, 0-based, in the order the position was given.
    pub heap: usize,
    /// Its size before the move.
    pub from: u32,
    /// Tokens removed: negative for a move that adds tokens (codes such as `80.0`, whose move
    /// turns a heap of `n` into three heaps of `n + 1` tokens in all).
    pub removed: i64,
    /// The heaps it leaves, sorted (each non-empty).
    pub leaves: Vec<u32>,
}

/// Value, outcome and winning moves of a position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PositionAnalysis {
    /// The heaps, as given.
    pub heaps: Vec<u32>,
    /// G(heap) for each heap.
    pub heap_values: Vec<u16>,
    /// Nim-sum of the heap values.
    pub grundy_value: u16,
    /// P (the player to move loses) or N.
    pub outcome: Outcome,
    /// Every winning move (up to the limit asked for), by heap, then tokens removed.
    pub winning_moves: Vec<TakeBreakMove>,
    /// Whether the list stopped at the limit.
    pub winning_moves_truncated: bool,
}

/// The limit of a winning-move list as a user gives it, for every front end: at least 1 (the
/// value and outcome are always given, so a list of none would only hide the moves).
pub fn max_moves_limit(k: u64) -> Result<usize, Error> {
    if k == 0 {
        return Err(Error::Invalid(
            "--max-moves must be at least 1 (it bounds the list of winning moves; the value and \
             outcome are always printed)"
                .into(),
        ));
    }
    Ok(usize::try_from(k).unwrap_or(usize::MAX))
}

/// Analyse the position `heaps` under `rules`, listing at most `max_moves` winning moves.
/// The sequence up to the largest heap is computed by the naive engine.
pub fn analyse(rules: &Rules, heaps: &[u32], max_moves: usize) -> Result<PositionAnalysis, Error> {
    let max_heap = heaps.iter().copied().max().unwrap_or(0) as usize;
    let g = sequence_of(rules, max_heap)?;
    search_position(rules, Values::plain(&g), heaps, max_moves)
}

/// [`analyse`] with a sequence already computed up to the largest heap (or beyond), e.g. one
/// extended by its certified period: then heaps may be far larger than what was computed, and
/// the search for splits uses the period too (for a split `a + b = r` with both parts in the
/// periodic range, `G(a) ⊕ G(b)` depends on `a mod period` only), so its cost does not grow
/// with the heaps.
pub fn analyse_with(
    rules: &Rules,
    sequence: &Computation,
    heaps: &[u32],
    max_moves: usize,
) -> Result<PositionAnalysis, Error> {
    let max_heap = heaps.iter().copied().max().unwrap_or(0) as usize;
    if max_heap > sequence.n() {
        return Err(Error::Invalid(format!(
            "heap {max_heap} is beyond the sequence G(0..={})",
            sequence.n()
        )));
    }
    // (a copy when the values are kept in bytes)
    let prefix = sequence.values.as_ref().to_u16();
    let values = match sequence
        .period
        .filter(|p| p.certified && sequence.is_extended())
    {
        Some(p) => Values {
            prefix: &prefix,
            period: Some((p.preperiod, p.period)),
        },
        None => Values::plain(&prefix),
    };
    search_position(rules, values, heaps, max_moves)
}

fn search_position(
    rules: &Rules,
    g: Values<'_>,
    heaps: &[u32],
    max_moves: usize,
) -> Result<PositionAnalysis, Error> {
    let heap_values: Vec<u16> = heaps.iter().map(|&h| g.get(h as usize)).collect();
    let total = heap_values.iter().fold(0u16, |a, &v| a ^ v);
    let mut search = MoveSearch::new(rules, g, max_moves)?;
    if total != 0 {
        for (i, &n) in heaps.iter().enumerate() {
            let x = total ^ heap_values[i];
            search.moves_to(i, n, x);
            if search.full() {
                break;
            }
        }
    }
    Ok(PositionAnalysis {
        heaps: heaps.to_vec(),
        heap_values,
        grundy_value: total,
        outcome: Outcome::from_value(total as u64),
        winning_moves_truncated: search.truncated,
        winning_moves: search.found,
    })
}

/// G(i): the computed values, continued by a certified period `(preperiod, period)` if any.
#[derive(Clone, Copy)]
struct Values<'a> {
    prefix: &'a [u16],
    period: Option<(usize, usize)>,
}

impl<'a> Values<'a> {
    fn plain(prefix: &'a [u16]) -> Self {
        Values {
            prefix,
            period: None,
        }
    }

    fn get(&self, i: usize) -> u16 {
        match (self.prefix.get(i), self.period) {
            (Some(&v), _) => v,
            (None, Some((pre, p))) => self.prefix[pre + (i - pre) % p],
            (None, None) => panic!("G({i}) is beyond the sequence"),
        }
    }
}

struct MoveSearch<'a> {
    rules: &'a Rules,
    g: Values<'a>,
    sets: Option<SplitSets>,
    max_moves: usize,
    found: Vec<TakeBreakMove>,
    truncated: bool,
    parts: Vec<u32>,
}

impl<'a> MoveSearch<'a> {
    fn new(rules: &'a Rules, g: Values<'a>, max_moves: usize) -> Result<Self, Error> {
        let max_j = rules.max_heaps_left() as usize;
        let sets = if max_j >= 3 {
            // (three or more heaps: no periodicity theorem, so no extension: `g` is plain)
            let g = g.prefix;
            let mut sets = SplitSets::new(max_j, None);
            sets.widen_for(g.iter().copied().max().unwrap_or(0) as usize)?;
            for r in 0..g.len() {
                sets.push(&g[..r])?;
            }
            Some(sets)
        } else {
            None
        };
        Ok(MoveSearch {
            rules,
            g,
            sets,
            max_moves,
            found: Vec::new(),
            truncated: false,
            parts: Vec::new(),
        })
    }

    fn full(&self) -> bool {
        self.truncated
    }

    fn emit(&mut self, heap: usize, from: u32, removed: u32) {
        if self.found.len() >= self.max_moves {
            self.truncated = true;
            return;
        }
        self.found.push(TakeBreakMove {
            heap,
            from,
            removed: i64::from(removed),
            leaves: self.parts.clone(),
        });
    }

    /// Every move of heap `heap` (of `n` tokens) to heaps of nim-sum `x`.
    fn moves_to(&mut self, heap: usize, n: u32, x: u16) {
        let code: Code = match self.rules {
            Rules::GrundysGame => {
                for a in 1..n.div_ceil(2) {
                    if self.g.get(a as usize) ^ self.g.get((n - a) as usize) == x {
                        self.parts = vec![a, n - a];
                        self.emit(heap, n, 0);
                    }
                }
                return;
            }
            Rules::Code(c) => c.clone(),
        };
        for k in 0..=n.min(code.last_nonzero() as u32) {
            let d = code.digit(k as usize);
            let r = n - k;
            for j in 0..128u32 {
                if d >> j & 1 == 0 || self.truncated {
                    continue;
                }
                self.parts.clear();
                match j {
                    0 if r == 0 && x == 0 => self.emit(heap, n, k),
                    0 => {}
                    _ if r >= j => self.split(heap, n, k, r, j, 1, x),
                    _ => {}
                }
            }
        }
    }

    /// Every split of `r` into `a <= r - a` (with `a >= min`) of nim-sum `x`, by increasing
    /// `a`. Where both parts lie in the periodic range of a certified period `p`
    /// (`a >= pre` and `r - a >= pre`), whether `a` works depends on `a mod p` only: one period
    /// of candidates is checked and the matches repeat, so the cost is O(pre + p) whatever `r`.
    fn two_heaps(&mut self, heap: usize, n: u32, k: u32, r: u32, min: u32, x: u16) {
        let mut a = min as u64;
        let last = r as u64 / 2;
        let found = |search: &mut Self, a: u64| {
            let a = a as u32;
            search.parts.extend([a, r - a]);
            search.emit(heap, n, k);
            search.parts.truncate(search.parts.len() - 2);
        };
        if let Some((pre, p)) = self.g.period {
            let (pre, p) = (pre as u64, p as u64);
            // periodic stretch: a in [max(a, pre), min(last, r - pre)]
            let lo = a.max(pre);
            let hi = last.min((r as u64).saturating_sub(pre));
            if lo + 2 * p <= hi {
                while a < lo && !self.truncated {
                    if self.g.get(a as usize) ^ self.g.get((r as u64 - a) as usize) == x {
                        found(self, a);
                    }
                    a += 1;
                }
                let offsets: Vec<u64> = (0..p)
                    .filter(|&o| {
                        let b = lo + o;
                        self.g.get(b as usize) ^ self.g.get((r as u64 - b) as usize) == x
                    })
                    .collect();
                if !offsets.is_empty() {
                    let mut block = lo;
                    'blocks: while block <= hi {
                        for &o in &offsets {
                            if block + o > hi || self.truncated {
                                break 'blocks;
                            }
                            found(self, block + o);
                        }
                        block += p;
                    }
                }
                a = hi + 1;
            }
        }
        while a <= last && !self.truncated {
            if self.g.get(a as usize) ^ self.g.get((r as u64 - a) as usize) == x {
                found(self, a);
            }
            a += 1;
        }
    }

    /// Heaps `parts` are fixed; split the remaining `r` into `j` parts, each at least `min`,
    /// non-decreasing, with nim-sum `x`.
    #[allow(clippy::too_many_arguments)]
    fn split(&mut self, heap: usize, n: u32, k: u32, r: u32, j: u32, min: u32, x: u16) {
        if self.truncated {
            return;
        }
        match j {
            1 => {
                if r >= min && self.g.get(r as usize) == x {
                    self.parts.push(r);
                    self.emit(heap, n, k);
                    self.parts.pop();
                }
            }
            2 => self.two_heaps(heap, n, k, r, min, x),
            _ => {
                let reachable = self
                    .sets
                    .as_ref()
                    .is_some_and(|s| s.contains(j as usize, r as usize, x as u32));
                if !reachable {
                    return;
                }
                let mut a = min;
                while a * j <= r && !self.truncated {
                    self.parts.push(a);
                    self.split(heap, n, k, r - a, j - 1, a, x ^ self.g.get(a as usize));
                    self.parts.pop();
                    a += 1;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::takebreak::game::TakeBreakGame;
    use crate::NormalPlay;
    use std::collections::BTreeSet;

    /// Winning moves as resulting positions, from the analysis and from the generic solver.
    fn compare(code: &str, heaps: &[u32]) {
        let rules = Rules::parse(code).unwrap();
        let a = analyse(&rules, heaps, usize::MAX).unwrap();
        let game = TakeBreakGame::new(rules.clone());
        let mut play = NormalPlay::new(game);
        let pos = TakeBreakGame::position(heaps);
        assert_eq!(a.grundy_value as u64, play.grundy_value(&pos).unwrap());
        let ours: BTreeSet<Vec<u32>> = a
            .winning_moves
            .iter()
            .map(|m| {
                let mut rest: Vec<u32> = heaps.to_vec();
                rest.remove(m.heap);
                rest.extend(&m.leaves);
                assert_eq!(m.from, heaps[m.heap]);
                assert_eq!(
                    i64::from(m.from),
                    m.removed + i64::from(m.leaves.iter().sum::<u32>())
                );
                TakeBreakGame::position(&rest)
            })
            .collect();
        let reference: BTreeSet<Vec<u32>> = play.winning_moves(&pos).unwrap().into_iter().collect();
        assert_eq!(ours, reference, "{code} {heaps:?}");
        for m in &a.winning_moves {
            let mut rest: Vec<u32> = heaps.to_vec();
            rest.remove(m.heap);
            rest.extend(&m.leaves);
            let after = TakeBreakGame::position(&rest);
            assert_eq!(play.grundy_value(&after).unwrap(), 0, "{m:?}");
        }
    }

    #[test]
    fn winning_moves_match_the_generic_solver() {
        for code in [
            "0.77",
            "0.07",
            "0.137",
            "4.07",
            "0.F",
            "0.8",
            "0.FF",
            "0.&48;3",
            "grundys-game",
        ] {
            for heaps in [
                vec![5, 7, 9],
                vec![3, 4],
                vec![10],
                vec![1, 2, 3],
                vec![0, 6, 6],
                vec![12, 2],
                vec![],
            ] {
                compare(code, &heaps);
            }
        }
    }

    #[test]
    fn truncation_is_reported() {
        let rules = Rules::parse("0.F").unwrap();
        let all = analyse(&rules, &[40, 1], usize::MAX).unwrap();
        assert!(all.winning_moves.len() > 3, "{all:?}");
        assert!(!all.winning_moves_truncated);
        let a = analyse(&rules, &[40, 1], 3).unwrap();
        assert_eq!(a.winning_moves, all.winning_moves[..3]);
        assert!(a.winning_moves_truncated);
    }

    #[test]
    fn positions_beyond_the_certificate_use_the_period() {
        use crate::takebreak::{compute, Finish, Naive};
        for (code, heaps) in [
            ("0.07", vec![300u32, 451, 1000]),
            ("0.07", vec![1777, 5]),
            ("0.77", vec![999, 998, 3]),
            ("0.137", vec![2500, 611]),
            ("4.07", vec![1200, 7, 640]),
            ("0.4", vec![900, 901]),
        ] {
            let rules = Rules::parse(code).unwrap();
            let max = *heaps.iter().max().unwrap() as usize;
            let extended = compute(
                &rules,
                max,
                Finish::Extend,
                &mut Naive::new(rules.clone()),
                None,
            )
            .unwrap();
            assert!(extended.is_extended(), "{code}");
            for limit in [usize::MAX, 5] {
                let want = analyse(&rules, &heaps, limit).unwrap();
                let got = analyse_with(&rules, &extended, &heaps, limit).unwrap();
                assert_eq!(got, want, "{code} {heaps:?} {limit}");
            }
        }
    }
}
