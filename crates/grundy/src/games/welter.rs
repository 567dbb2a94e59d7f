//! The Sato–Welter game (Maya game): hook paper §3, Theorem 2 (Welter 1954, Sato 1970).
//!
//! Coins lie on distinct squares `0, 1, 2, ...` of a strip; a move slides one coin to an
//! **empty** square further left (a smaller number). Through beta-numbers this is the game of
//! removing hooks from a Young diagram (see [`crate::young`]).
//!
//! **Theorem 2.** For coins on `n_1 < n_2 < ... < n_k`,
//! `sg = n_1 ⊕ ... ⊕ n_k ⊕ ⨁_{i<j} (n_i | n_j)`, with `(n_i | n_j) = (n_j − n_i) ⊕ (n_j − n_i − 1)`.
//!
//! ## Why this is fast
//! The pair term `(n_j − n_i) ⊕ (n_j − n_i − 1)` is `2^(t+1) − 1`, where `t` is the number of
//! trailing zeros of `n_j − n_i`, i.e. the lowest bit at which `n_i` and `n_j` differ. So only
//! the parity of the number of pairs first differing at each bit matters, and a trie over the
//! low bits (module `lowbits`) counts those pairs in O(k · 64) after an O(k log k) sort.
//!
//! ## Winning moves from the formula
//! Moving coin `a` to `b` changes the position `R ∪ {a}` (where `R` is the other coins) into
//! `R ∪ {b}`, of value `value(R) ⊕ b ⊕ f_R(b)` with `f_R(b) = ⨁_{c ∈ R} (b | c)`. Bit `j` of
//! `f_R(b)` is the parity of the number of coins of `R` congruent to `b` mod `2^j`, which only
//! depends on the bits of `b` below `j`. Hence for every coin and every target value there is
//! **exactly one** square `b ∉ R` reaching that value, found bit by bit from the bottom (walking
//! the same trie). The move is legal when `b < a` (and `b` is then free, which we check anyway).
//! All moves to one value cost O(k · 64) in total (O(k · log k) for typical positions, where
//! the compressed trie has depth about log₂ k).
//!
//! Squares are `u64` (`0 ..= 2^64 − 1`); values then fit in `u64` too (every pair term is at
//! most `2^64 − 1`).

mod lowbits;

use crate::{Error, Game, Nimber, Result};
use lowbits::{pair_mask, LowBitTrie};
use rayon::prelude::*;
use serde::Serialize;

/// The Sato–Welter game for the generic evaluators. A position is the list of occupied squares
/// in increasing order (build it with [`Coins::new`] or [`Welter::position`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct Welter;

impl Welter {
    /// The canonical position (sorted) of a set of distinct squares.
    pub fn position(squares: &[u64]) -> Result<Vec<u64>> {
        Ok(Coins::new(squares.to_vec())?.squares)
    }
}

impl Game for Welter {
    type Position = Vec<u64>;

    fn options(&self, position: &Vec<u64>, out: &mut Vec<Vec<u64>>) {
        for (i, &coin) in position.iter().enumerate() {
            // Squares left of `coin` are free unless they hold one of the coins before it.
            let mut occupied = position[..i].iter().peekable();
            for target in 0..coin {
                if occupied.peek() == Some(&&target) {
                    occupied.next();
                    continue;
                }
                let mut next = Vec::with_capacity(position.len());
                next.extend(position[..i].iter().copied().filter(|&c| c < target));
                next.push(target);
                next.extend(position[..i].iter().copied().filter(|&c| c > target));
                next.extend_from_slice(&position[i + 1..]);
                out.push(next);
            }
        }
    }
}

/// One move of the Sato–Welter game: the coin on square `from` slides to the free square `to`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct WelterMove {
    /// The square the coin leaves.
    pub from: u64,
    /// The (smaller, empty) square it moves to.
    pub to: u64,
}

/// `(n_i | n_j) = (n_j − n_i) ⊕ (n_j − n_i − 1)` for distinct squares, in the form
/// `2^(t+1) − 1` with `t` the lowest bit where the two squares differ (Theorem 2).
pub fn pair_term(a: u64, b: u64) -> Nimber {
    assert_ne!(a, b, "the pair term needs two distinct squares");
    pair_mask((a ^ b).trailing_zeros())
}

/// Theorem 2 evaluated literally, pair by pair (O(k²)). The reference the fast form is tested
/// against; prefer [`Coins::grundy_value`].
pub fn welter_value_by_pairs(squares: &[u64]) -> Result<Nimber> {
    let coins = Coins::new(squares.to_vec())?;
    let s = &coins.squares;
    let mut value = 0;
    for (i, &lo) in s.iter().enumerate() {
        value ^= lo;
        for &hi in &s[i + 1..] {
            let d = hi - lo;
            value ^= d ^ (d - 1);
        }
    }
    Ok(value)
}

/// A Sato–Welter position: coins on distinct squares, kept in increasing order.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Coins {
    squares: Vec<u64>,
}

impl Coins {
    /// The position with coins on `squares` (any order). Two coins on one square are refused.
    pub fn new(mut squares: Vec<u64>) -> Result<Self> {
        squares.sort_unstable();
        if let Some(w) = squares.windows(2).find(|w| w[0] == w[1]) {
            return Err(Error::Invalid(format!(
                "square {} holds two coins; coins must be on distinct squares",
                w[0]
            )));
        }
        Ok(Coins { squares })
    }

    /// The occupied squares, increasing.
    pub fn squares(&self) -> &[u64] {
        &self.squares
    }

    /// Number of coins.
    pub fn len(&self) -> usize {
        self.squares.len()
    }

    /// True when there are no coins.
    pub fn is_empty(&self) -> bool {
        self.squares.is_empty()
    }

    /// Whether `square` holds a coin.
    pub fn is_occupied(&self, square: u64) -> bool {
        self.squares.binary_search(&square).is_ok()
    }

    /// The trie behind Theorem 2, built once for a value and any number of move queries.
    pub fn analyse(&self) -> Analysis<'_> {
        let trie = (!self.squares.is_empty()).then(|| LowBitTrie::new(&self.squares));
        let value = trie.as_ref().map_or(0, value_from_trie);
        Analysis {
            coins: self,
            trie,
            value,
        }
    }

    /// The Grundy value by Theorem 2, in O(k log k).
    pub fn grundy_value(&self) -> Nimber {
        self.analyse().grundy_value()
    }

    /// Every move to a position of value `target` (see [`Analysis::moves_to`]).
    pub fn moves_to(&self, target: Nimber) -> Vec<WelterMove> {
        self.analyse().moves_to(target)
    }

    /// Every winning move (to value 0); empty exactly when the position is a P-position.
    pub fn winning_moves(&self) -> Vec<WelterMove> {
        self.moves_to(0)
    }

    /// The position after `m` (which must be legal).
    pub fn play(&self, m: WelterMove) -> Result<Coins> {
        if !self.is_occupied(m.from) || self.is_occupied(m.to) || m.to >= m.from {
            return Err(Error::Invalid(format!(
                "{} -> {} is not a legal move",
                m.from, m.to
            )));
        }
        let mut squares: Vec<u64> = self
            .squares
            .iter()
            .copied()
            .filter(|&c| c != m.from)
            .collect();
        squares.push(m.to);
        Coins::new(squares)
    }
}

/// Positions with at least this many coins look for moves on several threads.
const PARALLEL_FROM: usize = 1 << 16;

/// A position with its low-bit trie: the value, and moves to any value, without rebuilding.
pub struct Analysis<'a> {
    coins: &'a Coins,
    trie: Option<LowBitTrie>,
    value: Nimber,
}

impl Analysis<'_> {
    /// The Grundy value (Theorem 2).
    pub fn grundy_value(&self) -> Nimber {
        self.value
    }

    /// Every move to a position of value `target`, by solving Theorem 2 for the target square
    /// of each coin (at most one move per coin), sorted by the square the coin leaves.
    ///
    /// The list is exactly the set of options of value `target`: for `target` below the value
    /// it is non-empty (definition of mex), for `target` equal to the value it is empty.
    pub fn moves_to(&self, target: Nimber) -> Vec<WelterMove> {
        self.moves_to_with(target, PARALLEL_FROM)
    }

    /// [`moves_to`](Self::moves_to), on several threads from `parallel_from` coins on.
    fn moves_to_with(&self, target: Nimber, parallel_from: usize) -> Vec<WelterMove> {
        let Some(trie) = &self.trie else {
            return Vec::new();
        };
        let sums = trie.pair_sums();
        let move_of = |i: usize| {
            let from = trie.sorted[i];
            // value(R) for R = the other coins: value = value(R) ⊕ from ⊕ f_R(from).
            let rest_value = self.value ^ from ^ sums[i];
            let to = trie.solve(i as u32, rest_value ^ target);
            // Legal: smaller, and free (the solution never lands on another coin).
            (to < from as u128 && !self.coins.is_occupied(to as u64)).then_some(WelterMove {
                from,
                to: to as u64,
            })
        };
        // One independent walk per coin: large positions spread them over the cores.
        let k = trie.sorted.len();
        let mut moves: Vec<WelterMove> = if k < parallel_from {
            (0..k).filter_map(move_of).collect()
        } else {
            (0..k)
                .into_par_iter()
                .with_min_len((parallel_from / 4).max(1))
                .filter_map(move_of)
                .collect()
        };
        moves.sort_unstable();
        moves
    }
}

fn value_from_trie(trie: &LowBitTrie) -> Nimber {
    let xor_all = trie.sorted.iter().fold(0, |acc, &x| acc ^ x);
    let parities = trie.pair_parities();
    let mut pairs = 0;
    let mut bits = parities;
    while bits != 0 {
        let t = bits.trailing_zeros();
        pairs ^= pair_mask(t);
        bits &= bits - 1;
    }
    xor_all ^ pairs
}

/// Theorem 2, fast: the Grundy value of coins on `squares` (distinct, any order).
pub fn welter_value(squares: &[u64]) -> Result<Nimber> {
    Ok(Coins::new(squares.to_vec())?.grundy_value())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::NormalPlay;

    /// Every set of at most `k` squares below `n`.
    fn all_positions(k: usize, n: u64) -> Vec<Vec<u64>> {
        let mut out = vec![vec![]];
        let mut frontier = vec![vec![]];
        for _ in 0..k {
            let mut next = Vec::new();
            for p in &frontier {
                let start = p.last().map_or(0, |&l: &u64| l + 1);
                for s in start..n {
                    let mut q: Vec<u64> = p.clone();
                    q.push(s);
                    next.push(q);
                }
            }
            out.extend(next.iter().cloned());
            frontier = next;
        }
        out
    }

    #[test]
    fn papers_example_has_value_28() {
        // Beta-numbers of (10,10,8,6,5,5,3,1): Fig. 3 of the paper.
        let squares = [1, 4, 7, 8, 10, 13, 16, 17];
        assert_eq!(welter_value(&squares).unwrap(), 28);
        assert_eq!(welter_value_by_pairs(&squares).unwrap(), 28);
    }

    #[test]
    fn issue_example_winning_move() {
        let coins = Coins::new(vec![2, 3, 5, 7, 11, 13, 17, 19, 23]).unwrap();
        let moves = coins.winning_moves();
        for m in &moves {
            assert_eq!(coins.play(*m).unwrap().grundy_value(), 0);
        }
        let mut solver = NormalPlay::new(Welter);
        let brute = solver.winning_moves(&coins.squares().to_vec()).unwrap();
        assert_eq!(moves.len(), brute.len());
    }

    #[test]
    fn duplicates_are_refused() {
        assert!(Coins::new(vec![3, 1, 3]).is_err());
        assert!(welter_value(&[5, 5]).is_err());
    }

    #[test]
    fn empty_and_single_coin() {
        let empty = Coins::new(vec![]).unwrap();
        assert_eq!(empty.grundy_value(), 0);
        assert!(empty.winning_moves().is_empty());
        // one coin is one Nim heap
        let one = Coins::new(vec![9]).unwrap();
        assert_eq!(one.grundy_value(), 9);
        assert_eq!(one.winning_moves(), vec![WelterMove { from: 9, to: 0 }]);
        assert_eq!(one.moves_to(4), vec![WelterMove { from: 9, to: 4 }]);
    }

    #[test]
    fn options_are_the_rules() {
        let mut out = Vec::new();
        Welter.options(&vec![1, 3], &mut out);
        out.sort();
        assert_eq!(out, vec![vec![0, 1], vec![0, 3], vec![1, 2]]);
    }

    #[test]
    fn formula_and_moves_match_brute_force_up_to_4_coins_below_14() {
        let mut solver = NormalPlay::new(Welter);
        let positions = all_positions(4, 14);
        assert_eq!(positions.len(), 1 + 14 + 91 + 364 + 1001);
        for p in &positions {
            let coins = Coins::new(p.clone()).unwrap();
            let brute = solver.grundy_value(p).unwrap();
            assert_eq!(coins.grundy_value(), brute, "value of {p:?}");
            assert_eq!(welter_value_by_pairs(p).unwrap(), brute, "pairs of {p:?}");
            // every target value up to brute + 1: the formula's moves are exactly the options
            // of that value
            let with_values = solver.options_with_values(p).unwrap();
            for target in 0..=brute + 1 {
                let mut expected: Vec<WelterMove> = with_values
                    .iter()
                    .filter(|(_, v)| *v == target)
                    .map(|(q, _)| {
                        let from = *p.iter().find(|c| !q.contains(c)).unwrap();
                        let to = *q.iter().find(|c| !p.contains(c)).unwrap();
                        WelterMove { from, to }
                    })
                    .collect();
                expected.sort();
                assert_eq!(coins.moves_to(target), expected, "{p:?} to {target}");
            }
        }
    }

    #[test]
    fn value_is_invariant_under_adding_a_dead_coin() {
        // The same Young diagram with one more bead: square 0 filled, every coin shifted by 1.
        for p in all_positions(4, 12) {
            let shifted: Vec<u64> = std::iter::once(0).chain(p.iter().map(|c| c + 1)).collect();
            assert_eq!(
                welter_value(&p).unwrap(),
                welter_value(&shifted).unwrap(),
                "{p:?}"
            );
        }
    }

    #[test]
    fn huge_squares() {
        let squares = vec![u64::MAX, u64::MAX - 1, 1 << 63, 0, 12345];
        let coins = Coins::new(squares.clone()).unwrap();
        assert_eq!(
            coins.grundy_value(),
            welter_value_by_pairs(&squares).unwrap()
        );
        for m in coins.winning_moves() {
            assert_eq!(coins.play(m).unwrap().grundy_value(), 0);
        }
        assert!(!coins.winning_moves().is_empty() || coins.grundy_value() == 0);
    }

    #[test]
    fn parallel_and_sequential_move_search_agree() {
        // 100,000 distinct squares (an invertible multiplier modulo a prime).
        let squares: Vec<u64> = (1..=100_000u64)
            .map(|i| i * 2_654_435_761 % 4_294_967_311)
            .collect();
        let coins = Coins::new(squares).unwrap();
        let a = coins.analyse();
        let sequential = a.moves_to_with(0, usize::MAX);
        assert!(!sequential.is_empty());
        assert_eq!(a.moves_to_with(0, 1), sequential);
        assert_eq!(a.moves_to(0), sequential);
        for m in sequential.iter().step_by(sequential.len() / 3 + 1) {
            assert_eq!(coins.play(*m).unwrap().grundy_value(), 0);
        }
    }

    proptest::proptest! {
        #[test]
        fn fast_value_equals_pairwise_value(set in proptest::collection::btree_set(proptest::num::u64::ANY, 0..40)) {
            let squares: Vec<u64> = set.into_iter().collect();
            proptest::prop_assert_eq!(welter_value(&squares).unwrap(), welter_value_by_pairs(&squares).unwrap());
        }

        #[test]
        fn moves_reach_their_target(set in proptest::collection::btree_set(0u64..1_000_000, 1..30), target in 0u64..64) {
            let coins = Coins::new(set.into_iter().collect()).unwrap();
            let value = coins.grundy_value();
            let moves = coins.moves_to(target);
            for m in &moves {
                proptest::prop_assert_eq!(coins.play(*m).unwrap().grundy_value(), target);
            }
            if target < value {
                proptest::prop_assert!(!moves.is_empty());
            }
            if target == value {
                proptest::prop_assert!(moves.is_empty());
            }
        }
    }
}
