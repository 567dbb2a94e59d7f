//! Checking a candidate quotient: does `o(G) = P ⇔ Φ(G) ∈ P` hold for every position `G`?
//!
//! A position is a multiset of heaps; its image is the product of the heaps' images `Φ(h)`, and
//! the images of its options are `⋃ Φ(G − h)·T(h)` over its heaps `h`, where `T(h)` is the set of
//! images of one heap's options. By induction on positions, the candidate is right for every
//! position exactly when no position is a *failure* of one of two kinds (Plambeck–Siegel,
//! "Misère quotients for impartial games", §6; Siegel's MisereSolver checks the same two):
//!
//! - a **P-failure**: `Φ(G) ∈ P` although some option's image is in P. It involves one heap
//!   `h` and the image `x` of the rest: `x·Φ(h) ∈ P` and `x·t ∈ P` for some `t ∈ T(h)`. Every
//!   `x` in the monoid is the image of some position, so checking all pairs `(x, h)` is complete.
//! - an **N-failure**: `Φ(G) ∉ P`, `G` has options, and none of their images is in P. This
//!   depends on the whole set of option images, so positions are explored as states
//!   `(Φ(G), images of G's options)`. A state whose option set contains another reached
//!   state's (same element, non-empty) is dominated: it and all its extensions fail only if
//!   the dominating state's corresponding extensions fail. The search keeps an antichain per
//!   element, so it ends.
//!
//! Heaps with the same image and the same option images behave identically in both checks;
//! they are merged into one [`HeapType`].

use super::monoid::{Monoid, MonoidLike};
use std::cmp::Reverse;

/// Heaps that behave alike: their image and the images of their options.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeapType {
    /// The smallest heap of this type (the one failure words name).
    pub heap: u32,
    /// Its size in the order of positions (tokens; the heap itself for heap games, see
    /// [`super::heaps::HeapGame::tokens`]): every option of a position has a smaller key.
    pub tokens: u64,
    /// `Φ(heap)`.
    pub phi: u32,
    /// Images of the heap's options, sorted, distinct, non-empty.
    pub trans: Vec<u32>,
}

/// The distinct types of heaps with options (heaps without options are the identity);
/// `tokens[h]` is heap `h`'s size (heaps are numbered in order of size, so the first heap of a
/// type is one of least size).
pub fn heap_types(phi: &[u32], trans: &[Vec<u32>], tokens: &[u64]) -> Vec<HeapType> {
    let mut types: Vec<HeapType> = Vec::new();
    let mut seen = rustc_hash::FxHashSet::default();
    for (h, t) in trans.iter().enumerate() {
        if t.is_empty() {
            continue;
        }
        if seen.insert((phi[h], t.clone())) {
            types.push(HeapType {
                heap: h as u32,
                tokens: tokens[h],
                phi: phi[h],
                trans: t.clone(),
            });
        }
    }
    types
}

/// `(tokens, -heaps)`: options of a position always have a smaller key.
pub type Key = (u64, Reverse<u64>);

/// For every element reachable from the identity by the types: a shortest word (least key),
/// as `(parent element, type)` links (`u32::MAX` for the identity and unreached elements),
/// in the order of increasing key.
pub struct Representatives {
    /// `(parent, type index)` per element.
    pub link: Vec<(u32, u32)>,
    /// Elements in order of increasing key of their word.
    pub order: Vec<u32>,
}

impl Representatives {
    /// Least-key words, by Dijkstra's algorithm over the elements, with a bucket queue indexed
    /// by tokens (every type adds at least one): within a bucket, more heaps first, then the
    /// smaller element.
    pub fn new<M: MonoidLike + ?Sized>(m: &M, types: &[HeapType]) -> Self {
        let n = m.size();
        let mut link = vec![(u32::MAX, u32::MAX); n];
        // Best key so far per element, as (tokens, heaps); u64::MAX tokens: not reached.
        let mut best: Vec<(u64, u64)> = vec![(u64::MAX, 0); n];
        let mut done = vec![false; n];
        let mut order = Vec::new();
        let mut buckets: Vec<Vec<(Reverse<u64>, u32)>> = vec![vec![(Reverse(0), 0)]];
        best[0] = (0, 0);
        let better = |k: (u64, u64), b: (u64, u64)| k.0 < b.0 || (k.0 == b.0 && k.1 > b.1);
        let mut tok = 0usize;
        while tok < buckets.len() {
            let mut bucket = std::mem::take(&mut buckets[tok]);
            bucket.sort_unstable();
            for &(Reverse(heaps), x) in &bucket {
                if done[x as usize] || best[x as usize] != (tok as u64, heaps) {
                    continue;
                }
                done[x as usize] = true;
                order.push(x);
                for (ti, t) in types.iter().enumerate() {
                    let y = m.mul(x, t.phi);
                    let k = (tok as u64 + t.tokens, heaps + 1);
                    if !done[y as usize] && better(k, best[y as usize]) {
                        best[y as usize] = k;
                        link[y as usize] = (x, ti as u32);
                        let t2 = k.0 as usize;
                        if buckets.len() <= t2 {
                            buckets.resize_with(t2 + 1, Vec::new);
                        }
                        buckets[t2].push((Reverse(k.1), y));
                    }
                }
            }
            tok += 1;
        }
        Representatives { link, order }
    }

    /// The word of `x` as a multiset of type indices.
    pub fn word(&self, mut x: u32) -> Vec<u32> {
        let mut w = Vec::new();
        while self.link[x as usize].0 != u32::MAX {
            let (parent, t) = self.link[x as usize];
            w.push(t);
            x = parent;
        }
        w
    }
}

/// The P-portion that the least-key words give: an element is P when its word has options and
/// none of their images is P. (A candidate only: [`p_failure`] and [`n_failure`] decide.)
pub fn mark_p_portion<M: MonoidLike + ?Sized>(
    m: &M,
    types: &[HeapType],
    reps: &Representatives,
) -> Vec<bool> {
    let n = m.size();
    let mut p = vec![false; n];
    let mut trans: Vec<Vec<u32>> = vec![Vec::new(); n];
    for &x in &reps.order {
        let (parent, ti) = reps.link[x as usize];
        if parent == u32::MAX {
            continue;
        }
        let t = &types[ti as usize];
        let mut tr: Vec<u32> = trans[parent as usize]
            .iter()
            .map(|&y| m.mul(y, t.phi))
            .chain(t.trans.iter().map(|&y| m.mul(parent, y)))
            .collect();
        tr.sort_unstable();
        tr.dedup();
        p[x as usize] = !tr.is_empty() && !tr.iter().any(|&y| p[y as usize]);
        trans[x as usize] = tr;
    }
    p
}

/// A P-failure `(x, type)`: `x·Φ(h) ∈ P` and `x·t ∈ P` for some option image `t` of `h`.
pub fn p_failure(m: &Monoid, p: &[bool], types: &[HeapType]) -> Option<(u32, u32)> {
    for x in 0..m.size() as u32 {
        for (ti, t) in types.iter().enumerate() {
            if p[m.mul(x, t.phi) as usize] && t.trans.iter().any(|&y| p[m.mul(x, y) as usize]) {
                return Some((x, ti as u32));
            }
        }
    }
    None
}

/// Bit sets over the monoid's elements, `words` 64-bit words each, stored side by side.
#[inline]
fn set_bit(bits: &mut [u64], i: u32) {
    bits[i as usize / 64] |= 1 << (i % 64);
}

#[inline]
fn is_subset(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).all(|(x, y)| x & !y == 0)
}

#[inline]
fn intersects(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).any(|(x, y)| x & y != 0)
}

fn ones(bits: &[u64], out: &mut Vec<u32>) {
    out.clear();
    for (i, &w) in bits.iter().enumerate() {
        let mut w = w;
        while w != 0 {
            out.push(i as u32 * 64 + w.trailing_zeros());
            w &= w - 1;
        }
    }
}

/// Limits for the N-failure search.
pub struct SearchLimit<'a> {
    /// Most states to keep before giving up (`None`: no limit).
    pub max_states: usize,
    /// Most bytes the states may take (kept and queued) before giving up.
    pub max_bytes: usize,
    /// Polled now and then; `true` stops the search.
    pub stop: &'a dyn Fn() -> bool,
}

/// The outcome of the N-failure search.
pub enum NSearch {
    /// No N-failure: every non-P position with options has a P option.
    None,
    /// A failing position, as a multiset of type indices.
    Failure(Vec<u32>),
    /// Stopped by the limit.
    Stopped,
}

/// Search for an N-failure (see the module docs), in order of increasing key, so the failure
/// returned is one of least key. `required`, when given, restricts the search to positions
/// containing at least one heap of that type (the others were checked before).
pub fn n_failure(
    m: &Monoid,
    p: &[bool],
    types: &[HeapType],
    required: Option<u32>,
    limit: &SearchLimit,
) -> NSearch {
    search(m, p, types, required, None, limit, false).0
}

/// An N-failure of key less than `bound` (the least one), or `None` when there is none. The
/// search stops at `bound`: a failure already known at `bound` (a P-failure) makes the rest
/// of the search pointless when only the least failure is wanted.
pub fn n_failure_below(
    m: &Monoid,
    p: &[bool],
    types: &[HeapType],
    bound: Key,
    limit: &SearchLimit,
) -> NSearch {
    search(m, p, types, None, Some(bound), limit, false).0
}

/// For every element, the minimal sets of option images among the positions it is the image
/// of (an antichain), when the full search finds no N-failure. Mex interpolation
/// (see [`super::engine`]) uses them.
pub fn minimal_option_sets(
    m: &Monoid,
    p: &[bool],
    types: &[HeapType],
    limit: &SearchLimit,
) -> Option<Vec<Vec<Vec<u32>>>> {
    match search(m, p, types, None, None, limit, true) {
        (NSearch::None, sets) => sets,
        _ => None,
    }
}

/// The sets of option images of the states kept, per element.
type Sets = Option<Vec<Vec<Vec<u32>>>>;

/// The states of the search, side by side: element, option images (a bit set of `words`
/// words), the state it extends, the type added, whether it contains the required type, and
/// its number of heaps.
struct States {
    words: usize,
    x: Vec<u32>,
    bits: Vec<u64>,
    parent: Vec<u32>,
    ty: Vec<u32>,
    required: Vec<bool>,
    heaps: Vec<u32>,
    /// A summary of each option set for quick subset tests: the bitwise or of its words
    /// (a subset's summary is a subset of the superset's) and its number of elements.
    sum: Vec<(u64, u32)>,
}

/// The summary [`States::sum`] of a bit set.
#[inline]
fn summary(bits: &[u64]) -> (u64, u32) {
    bits.iter()
        .fold((0, 0), |(o, c), &w| (o | w, c + w.count_ones()))
}

/// Whether the set summarised by `a` may be a subset of the one summarised by `b`.
#[inline]
fn may_be_subset(a: (u64, u32), b: (u64, u32)) -> bool {
    a.0 & !b.0 == 0 && a.1 <= b.1
}

impl States {
    fn bits(&self, s: u32) -> &[u64] {
        &self.bits[s as usize * self.words..(s as usize + 1) * self.words]
    }
    /// Whether kept state `o`'s option set is a subset of `bits` (summarised by `sum`).
    #[inline]
    fn below(&self, o: u32, bits: &[u64], sum: (u64, u32)) -> bool {
        may_be_subset(self.sum[o as usize], sum) && is_subset(self.bits(o), bits)
    }
    fn push(&mut self, x: u32, bits: &[u64], parent: u32, ty: u32, required: bool, heaps: u32) {
        self.x.push(x);
        self.sum.push(summary(bits));
        self.bits.extend_from_slice(bits);
        self.parent.push(parent);
        self.ty.push(ty);
        self.required.push(required);
        self.heaps.push(heaps);
    }
    fn word(&self, mut s: u32) -> Vec<u32> {
        let mut w = Vec::new();
        while s != u32::MAX {
            w.push(self.ty[s as usize]);
            s = self.parent[s as usize];
        }
        w
    }
}

/// The search: states popped in order of increasing key (tokens, then more heaps first, then
/// creation order), from a bucket queue indexed by tokens (every type adds at least one
/// token). A state dominated by a kept state (same element and required-flag, option set
/// containing the kept one's) is dropped; children are dropped already when created if a kept
/// state dominates them (it would still dominate them when popped: a kept state is only ever
/// replaced by one that dominates it).
fn search(
    m: &Monoid,
    p: &[bool],
    types: &[HeapType],
    required: Option<u32>,
    bound: Option<Key>,
    limit: &SearchLimit,
    collect: bool,
) -> (NSearch, Sets) {
    let n = m.size();
    let words = n.div_ceil(64).max(1);
    let mut pbits = vec![0u64; words];
    for (i, &b) in p.iter().enumerate() {
        if b {
            set_bit(&mut pbits, i as u32);
        }
    }
    let mut st = States {
        words,
        x: Vec::new(),
        bits: Vec::new(),
        parent: Vec::new(),
        ty: Vec::new(),
        required: Vec::new(),
        heaps: Vec::new(),
        sum: Vec::new(),
    };
    // Antichains (per element, and per "contains the required type") of kept states.
    let mut chains: Vec<[Vec<u32>; 2]> = (0..n).map(|_| [Vec::new(), Vec::new()]).collect();
    let mut buckets: Vec<Vec<u32>> = Vec::new();
    let mut kept = 0usize;
    let mut scratch = vec![0u64; words];
    for (ti, t) in types.iter().enumerate() {
        scratch.fill(0);
        for &y in &t.trans {
            set_bit(&mut scratch, y);
        }
        let idx = st.x.len() as u32;
        st.push(
            t.phi,
            &scratch,
            u32::MAX,
            ti as u32,
            required == Some(ti as u32),
            1,
        );
        let tok = t.tokens as usize;
        if buckets.len() <= tok {
            buckets.resize_with(tok + 1, Vec::new);
        }
        buckets[tok].push(idx);
    }
    let mut polls = 0u32;
    let mut cur = vec![0u64; words];
    let mut cur_ones: Vec<u32> = Vec::new();
    let mut tok = 0usize;
    while tok < buckets.len() {
        let mut bucket = std::mem::take(&mut buckets[tok]);
        // More heaps first; equal counts keep creation order (the sort is stable).
        bucket.sort_by_key(|&s| Reverse(st.heaps[s as usize]));
        for &s in &bucket {
            polls += 1;
            if polls % 4096 == 0 && (limit.stop)() {
                return (NSearch::Stopped, None);
            }
            let key: Key = (tok as u64, Reverse(st.heaps[s as usize] as u64));
            if bound.is_some_and(|b| key >= b) {
                return (NSearch::None, None);
            }
            let (x, has_required) = (st.x[s as usize], st.required[s as usize]);
            cur.copy_from_slice(st.bits(s));
            let cur_sum = st.sum[s as usize];
            let chain = &mut chains[x as usize][has_required as usize];
            if chain.iter().any(|&o| st.below(o, &cur, cur_sum)) {
                continue;
            }
            chain.retain(|&o| {
                !(may_be_subset(cur_sum, st.sum[o as usize]) && is_subset(&cur, st.bits(o)))
            });
            chain.push(s);
            kept += 1;
            if kept > limit.max_states {
                return (NSearch::Stopped, None);
            }
            let fails =
                (required.is_none() || has_required) && !p[x as usize] && !intersects(&cur, &pbits);
            if fails {
                return (NSearch::Failure(st.word(s)), None);
            }
            ones(&cur, &mut cur_ones);
            let heaps = st.heaps[s as usize] + 1;
            let row_x = m.row(x);
            for (ti, t) in types.iter().enumerate() {
                scratch.fill(0);
                // Rows, not columns, of the (commutative) table: contiguous reads.
                let row_t = m.row(t.phi);
                for &y in &cur_ones {
                    set_bit(&mut scratch, row_t[y as usize]);
                }
                for &y in &t.trans {
                    set_bit(&mut scratch, row_x[y as usize]);
                }
                let x2 = row_x[t.phi as usize];
                let r2 = has_required || required == Some(ti as u32);
                let sum = summary(&scratch);
                if chains[x2 as usize][r2 as usize]
                    .iter()
                    .any(|&o| st.below(o, &scratch, sum))
                {
                    continue;
                }
                let idx = st.x.len() as u32;
                if (idx as usize + 1) * (words * 8 + 40) > limit.max_bytes {
                    return (NSearch::Stopped, None);
                }
                st.push(x2, &scratch, s, ti as u32, r2, heaps);
                let tok2 = tok + t.tokens as usize;
                if buckets.len() <= tok2 {
                    buckets.resize_with(tok2 + 1, Vec::new);
                }
                buckets[tok2].push(idx);
            }
        }
        tok += 1;
    }
    let sets = collect.then(|| {
        chains
            .iter()
            .map(|c| {
                c[0].iter()
                    .chain(&c[1])
                    .map(|&s| {
                        let mut v = Vec::new();
                        ones(st.bits(s), &mut v);
                        v
                    })
                    .collect()
            })
            .collect()
    });
    (NSearch::None, sets)
}

/// The P-failure of least key, as a list of heaps: a least word of `x` plus the heap.
pub fn p_failure_least(
    m: &Monoid,
    p: &[bool],
    types: &[HeapType],
    reps: &Representatives,
) -> Option<Vec<u32>> {
    let mut best: Option<(Key, Vec<u32>)> = None;
    for x in 0..m.size() as u32 {
        if reps.link[x as usize].0 == u32::MAX && x != 0 {
            continue;
        }
        for t in types {
            if p[m.mul(x, t.phi) as usize] && t.trans.iter().any(|&y| p[m.mul(x, y) as usize]) {
                let word = reps.word(x);
                let mut w: Vec<u32> = word.iter().map(|&i| types[i as usize].heap).collect();
                w.push(t.heap);
                let size: u64 = word.iter().map(|&i| types[i as usize].tokens).sum();
                let k = (size + t.tokens, Reverse(w.len() as u64));
                if best.as_ref().map_or(true, |(b, _)| k < *b) {
                    best = Some((k, w));
                }
            }
        }
    }
    best.map(|(_, w)| w)
}
