//! A compressed binary trie over the *low* bits of a set of distinct squares.
//!
//! Why low bits: in Welter's formula the pair term `(n_j − n_i) xor (n_j − n_i − 1)` equals
//! `2^(t+1) − 1`, where `t` is the lowest bit at which `n_i` and `n_j` differ. Two squares
//! agree on their lowest `t` bits exactly when they lie in the same residue class mod `2^t`,
//! and those classes are the subtrees of a trie that branches on bit 0 first, then bit 1, ...
//! So one trie answers every question the formula asks:
//!
//! - how many pairs differ first at bit `t` (sum of `|left| · |right|` over the nodes that
//!   branch at bit `t`), which gives the value in O(k · depth) instead of O(k²);
//! - for a square `b` (present or not), how many coins are congruent to `b` mod `2^j` for every
//!   `j`, which is what solving the formula for a target square needs.
//!
//! The trie is stored as a sorted array (squares ordered by their bit-reversed value, so every
//! residue class mod `2^j` is a contiguous range) plus a node list in which unary chains are
//! compressed away (a "Patricia" trie): at most `2k − 1` nodes, depth at most 64.

/// Bits `lo..hi` (half-open, `0 <= lo <= hi <= 64`) set.
pub(crate) fn bit_range(lo: u32, hi: u32) -> u64 {
    debug_assert!(lo <= hi && hi <= 64);
    if lo >= hi {
        return 0;
    }
    let upper = if hi == 64 { u64::MAX } else { (1u64 << hi) - 1 };
    upper & !((1u64 << lo) - 1)
}

/// `2^(t+1) − 1`: the pair term of two squares whose lowest differing bit is `t` (`t < 64`).
pub(crate) fn pair_mask(t: u32) -> u64 {
    bit_range(0, t + 1)
}

/// A node: the squares `sorted[lo..hi]`, which all agree on bits below `split`. An inner node
/// has both a child with bit `split` clear and one with it set; a leaf holds one square and has
/// `split == 64`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Node {
    /// The low bits shared by the node's squares (any one of them: bits below `split` agree).
    pub prefix: u64,
    pub lo: u32,
    pub hi: u32,
    pub split: u32,
    /// Children (bit `split` clear, bit `split` set); unused for a leaf.
    pub children: [u32; 2],
}

impl Node {
    pub fn size(&self) -> u64 {
        (self.hi - self.lo) as u64
    }
    pub fn is_leaf(&self) -> bool {
        self.split == 64
    }
    pub fn contains_index(&self, i: u32) -> bool {
        self.lo <= i && i < self.hi
    }
}

/// The trie of a non-empty set of distinct squares. Node 0 is the root.
#[derive(Debug, Clone)]
pub(crate) struct LowBitTrie {
    /// The squares, ordered by `reverse_bits` (residue classes are ranges).
    pub sorted: Vec<u64>,
    pub nodes: Vec<Node>,
}

impl LowBitTrie {
    /// Build the trie; `squares` must be distinct and non-empty (checked by the caller).
    pub fn new(squares: &[u64]) -> Self {
        debug_assert!(!squares.is_empty());
        let mut sorted = squares.to_vec();
        sorted.sort_unstable_by_key(|x| x.reverse_bits());
        let mut nodes = Vec::with_capacity(2 * sorted.len());
        nodes.push(Node {
            prefix: sorted[0],
            lo: 0,
            hi: sorted.len() as u32,
            split: 64,
            children: [0, 0],
        });
        // Children are appended, so visiting nodes in index order is breadth-first: the top
        // levels, which every walk crosses, end up next to each other in memory.
        let mut u = 0;
        while u < nodes.len() {
            let Node { lo, hi, .. } = nodes[u];
            u += 1;
            if hi - lo == 1 {
                continue; // a leaf
            }
            let first = sorted[lo as usize];
            let last = sorted[hi as usize - 1];
            // In bit-reversed order the first and last squares of a range differ at the
            // lowest bit at which any two squares of the range differ.
            let split = (first ^ last).trailing_zeros();
            let range = &sorted[lo as usize..hi as usize];
            let mid = lo + range.partition_point(|&x| (x >> split) & 1 == 0) as u32;
            let left = nodes.len() as u32;
            nodes.push(Node {
                prefix: sorted[lo as usize],
                lo,
                hi: mid,
                split: 64,
                children: [0, 0],
            });
            nodes.push(Node {
                prefix: sorted[mid as usize],
                lo: mid,
                hi,
                split: 64,
                children: [0, 0],
            });
            nodes[u - 1].split = split;
            nodes[u - 1].children = [left, left + 1];
        }
        LowBitTrie { sorted, nodes }
    }

    /// For every bit `t`, the parity of the number of pairs of squares whose lowest differing
    /// bit is `t`.
    pub fn pair_parities(&self) -> u64 {
        let mut parity = 0u64;
        for n in &self.nodes {
            if !n.is_leaf() {
                let [l, r] = n.children;
                let pairs = self.nodes[l as usize].size() * self.nodes[r as usize].size();
                if pairs & 1 == 1 {
                    parity ^= 1 << n.split;
                }
            }
        }
        parity
    }

    /// For every square `a` (in `sorted` order), `f(a) = xor over the other squares c of
    /// pair_mask(lowest differing bit of a and c)`. The squares that first differ from `a` at
    /// bit `t` are exactly the sibling subtree of `a`'s path at the node splitting at `t`.
    pub fn pair_sums(&self) -> Vec<u64> {
        let mut out = vec![0u64; self.sorted.len()];
        let mut work = vec![(0u32, 0u64)];
        while let Some((u, acc)) = work.pop() {
            let n = self.nodes[u as usize];
            if n.is_leaf() {
                out[n.lo as usize] = acc;
                continue;
            }
            let [l, r] = n.children;
            let (sl, sr) = (self.nodes[l as usize].size(), self.nodes[r as usize].size());
            let m = pair_mask(n.split);
            work.push((l, if sr & 1 == 1 { acc ^ m } else { acc }));
            work.push((r, if sl & 1 == 1 { acc ^ m } else { acc }));
        }
        out
    }

    /// The unique square `b` (as a `u128`, since it may be `2^64` or more) that is not one of
    /// the squares other than `sorted[skip]` and satisfies
    /// `b xor f_R(b) = want`, where `R` is the set of squares without `sorted[skip]` and
    /// `f_R(b) = xor over c in R of pair_mask(lowest differing bit of b and c)`.
    ///
    /// Bit `j` of `f_R(b)` is the parity of `#{c in R : c ≡ b (mod 2^j)}`, which depends only on
    /// the bits of `b` below `j`; so the bits of `b` are forced one at a time from bit 0 up:
    /// `b_j = want_j xor parity(#{c in R : c ≡ b mod 2^j})`. The walk follows `b`'s residue
    /// class down the trie, handling a whole compressed edge per step with word operations.
    pub fn solve(&self, skip: u32, want: u64) -> u128 {
        let mut b: u64 = 0; // bits of b decided so far (those below `j`)
        let mut j: u32 = 0;
        let mut u = 0u32;
        loop {
            let n = self.nodes[u as usize];
            let count = n.size() - n.contains_index(skip) as u64;
            if count == 0 {
                // No square of R is congruent to b mod 2^j: every higher bit of f_R(b) is 0.
                return (b | (want & bit_range(j, 64))) as u128;
            }
            let flip = if count & 1 == 1 { u64::MAX } else { 0 };
            let prefix = n.prefix;
            let end = n.split; // bits j..end are shared by every square of this node
            let forced = want ^ flip;
            let mismatch = (forced ^ prefix) & bit_range(j, end);
            if mismatch != 0 {
                // b leaves this residue class at bit m; above it no square is congruent.
                let m = mismatch.trailing_zeros();
                return (b | (forced & bit_range(j, m + 1)) | (want & bit_range(m + 1, 64)))
                    as u128;
            }
            b |= prefix & bit_range(j, end);
            if n.is_leaf() {
                // b agrees with the single remaining square on all 64 bits, so b_64 = 1 and
                // b = that square + 2^64 (never a legal target for a 64-bit coin).
                return (b as u128) | (1u128 << 64);
            }
            // At the split bit both children exist: the bit is forced by the current count.
            let bit = (forced >> end) & 1;
            b |= bit << end;
            j = end + 1;
            u = n.children[bit as usize];
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f_direct(b: u64, set: &[u64]) -> u64 {
        set.iter()
            .filter(|&&c| c != b)
            .fold(0, |acc, &c| acc ^ pair_mask((b ^ c).trailing_zeros()))
    }

    #[test]
    fn masks() {
        assert_eq!(bit_range(0, 0), 0);
        assert_eq!(bit_range(2, 5), 0b11100);
        assert_eq!(bit_range(0, 64), u64::MAX);
        assert_eq!(bit_range(63, 64), 1 << 63);
        assert_eq!(pair_mask(0), 1);
        assert_eq!(pair_mask(3), 15);
        assert_eq!(pair_mask(63), u64::MAX);
        // (n_j - n_i) xor (n_j - n_i - 1) for a few differences
        for (d, t) in [(1u64, 0u32), (2, 1), (12, 2), (8, 3), (7, 0)] {
            assert_eq!(d ^ (d - 1), pair_mask(t));
        }
    }

    #[test]
    fn trie_structure_and_sums() {
        let squares = [1u64, 4, 7, 8, 10, 13, 16, 17, 0, u64::MAX, 1 << 63];
        let t = LowBitTrie::new(&squares);
        assert!(t.nodes.len() < 2 * squares.len());
        let sums = t.pair_sums();
        for (i, &a) in t.sorted.iter().enumerate() {
            assert_eq!(sums[i], f_direct(a, &squares), "square {a}");
        }
        let mut parity = 0u64;
        for (i, &a) in squares.iter().enumerate() {
            for &c in &squares[i + 1..] {
                parity ^= 1 << (a ^ c).trailing_zeros();
            }
        }
        assert_eq!(t.pair_parities(), parity);
    }

    proptest::proptest! {
        #[test]
        fn solve_inverts_b_xor_f(set in proptest::collection::btree_set(0u64..64, 1..8),
                                 skip_pick in 0usize..8, want in 0u64..256) {
            let squares: Vec<u64> = set.into_iter().collect();
            let t = LowBitTrie::new(&squares);
            let skip = (skip_pick % squares.len()) as u32;
            let skipped = t.sorted[skip as usize];
            let rest: Vec<u64> = squares.iter().copied().filter(|&c| c != skipped).collect();
            let b = t.solve(skip, want);
            proptest::prop_assert!(b < 1 << 64);
            let b = b as u64;
            proptest::prop_assert!(!rest.contains(&b));
            proptest::prop_assert_eq!(b ^ f_direct(b, &rest), want);
            // and it is the only such square below 1024
            for x in 0..1024u64 {
                if x != b && !rest.contains(&x) {
                    proptest::prop_assert_ne!(x ^ f_direct(x, &rest), want);
                }
            }
        }
    }

    #[test]
    fn solve_can_overflow_64_bits() {
        // R = {u64::MAX}, want = 0: while b agrees with MAX the count is 1, so every forced
        // bit is 0 xor 1 = 1, which agrees with MAX again, up to bit 63; then b_64 = 1.
        let squares = [5u64, u64::MAX];
        let t = LowBitTrie::new(&squares);
        let skip = t.sorted.iter().position(|&x| x == 5).unwrap() as u32;
        let b = t.solve(skip, 0);
        assert_eq!(b, u64::MAX as u128 + (1u128 << 64));
    }
}
