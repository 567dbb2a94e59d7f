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
use std::collections::BinaryHeap;

/// Heaps that behave alike: their image and the images of their options.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeapType {
    /// The smallest heap of this type (the one failure words name).
    pub heap: u32,
    /// `Φ(heap)`.
    pub phi: u32,
    /// Images of the heap's options, sorted, distinct, non-empty.
    pub trans: Vec<u32>,
}

/// The distinct types of heaps with options (heaps without options are the identity).
pub fn heap_types(phi: &[u32], trans: &[Vec<u32>]) -> Vec<HeapType> {
    let mut types: Vec<HeapType> = Vec::new();
    let mut seen = rustc_hash::FxHashSet::default();
    for (h, t) in trans.iter().enumerate() {
        if t.is_empty() {
            continue;
        }
        if seen.insert((phi[h], t.clone())) {
            types.push(HeapType {
                heap: h as u32,
                phi: phi[h],
                trans: t.clone(),
            });
        }
    }
    types
}

/// `(tokens, -heaps)`: options of a position always have a smaller key.
type Key = (u64, Reverse<u64>);

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
    /// Least-key words, by Dijkstra's algorithm over the elements.
    pub fn new<M: MonoidLike + ?Sized>(m: &M, types: &[HeapType]) -> Self {
        let n = m.size();
        let mut link = vec![(u32::MAX, u32::MAX); n];
        let mut best: Vec<Option<Key>> = vec![None; n];
        let mut done = vec![false; n];
        let mut order = Vec::new();
        let mut queue = BinaryHeap::new();
        best[0] = Some((0, Reverse(0)));
        queue.push(Reverse(((0u64, Reverse(0u64)), 0u32)));
        while let Some(Reverse((key, x))) = queue.pop() {
            if done[x as usize] || best[x as usize] != Some(key) {
                continue;
            }
            done[x as usize] = true;
            order.push(x);
            for (ti, t) in types.iter().enumerate() {
                let y = m.mul(x, t.phi);
                let k = (key.0 + t.heap as u64, Reverse(key.1 .0 + 1));
                if !done[y as usize] && best[y as usize].map_or(true, |b| k < b) {
                    best[y as usize] = Some(k);
                    link[y as usize] = (x, ti as u32);
                    queue.push(Reverse((k, y)));
                }
            }
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

/// A fixed-size bit set over the monoid's elements.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Bits(Vec<u64>);

impl Bits {
    fn new(n: usize) -> Self {
        Bits(vec![0; n.div_ceil(64)])
    }
    fn set(&mut self, i: u32) {
        self.0[i as usize / 64] |= 1 << (i % 64);
    }
    fn is_subset(&self, other: &Bits) -> bool {
        self.0.iter().zip(&other.0).all(|(a, b)| a & !b == 0)
    }
    fn ones(&self) -> impl Iterator<Item = u32> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let b = w.trailing_zeros();
                w &= w - 1;
                Some(i as u32 * 64 + b)
            })
        })
    }
    fn intersects(&self, p: &Bits) -> bool {
        self.0.iter().zip(&p.0).any(|(a, b)| a & b != 0)
    }
}

/// Limits for the N-failure search.
pub struct SearchLimit<'a> {
    /// Most states to keep before giving up (`None`: no limit).
    pub max_states: usize,
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
    search(m, p, types, required, limit, false).0
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
    match search(m, p, types, None, limit, true) {
        (NSearch::None, sets) => sets,
        _ => None,
    }
}

/// The sets of option images of the states kept, per element.
type Sets = Option<Vec<Vec<Vec<u32>>>>;

fn search(
    m: &Monoid,
    p: &[bool],
    types: &[HeapType],
    required: Option<u32>,
    limit: &SearchLimit,
    collect: bool,
) -> (NSearch, Sets) {
    let n = m.size();
    let mut pbits = Bits::new(n);
    for (i, &b) in p.iter().enumerate() {
        if b {
            pbits.set(i as u32);
        }
    }
    struct State {
        x: u32,
        tr: Bits,
        parent: u32,
        ty: u32,
        has_required: bool,
    }
    let mut arena: Vec<State> = Vec::new();
    // Antichains (per element, and per "contains the required type") of kept states.
    let mut chains: Vec<[Vec<u32>; 2]> = (0..n).map(|_| [Vec::new(), Vec::new()]).collect();
    let mut queue: BinaryHeap<Reverse<(Key, u32)>> = BinaryHeap::new();
    let mut kept = 0usize;

    let word_of = |arena: &Vec<State>, mut s: u32| {
        let mut w = Vec::new();
        while s != u32::MAX {
            w.push(arena[s as usize].ty);
            s = arena[s as usize].parent;
        }
        w
    };

    for (ti, t) in types.iter().enumerate() {
        let mut tr = Bits::new(n);
        for &y in &t.trans {
            tr.set(y);
        }
        arena.push(State {
            x: t.phi,
            tr,
            parent: u32::MAX,
            ty: ti as u32,
            has_required: required == Some(ti as u32),
        });
        queue.push(Reverse(((t.heap as u64, Reverse(1)), ti as u32)));
    }
    let mut polls = 0u32;
    while let Some(Reverse((key, s))) = queue.pop() {
        polls += 1;
        if polls % 4096 == 0 && (limit.stop)() {
            return (NSearch::Stopped, None);
        }
        let (x, has_required) = (arena[s as usize].x, arena[s as usize].has_required);
        let chain = &mut chains[x as usize][has_required as usize];
        if chain
            .iter()
            .any(|&o| arena[o as usize].tr.is_subset(&arena[s as usize].tr))
        {
            continue;
        }
        chain.retain(|&o| !arena[s as usize].tr.is_subset(&arena[o as usize].tr));
        chain.push(s);
        kept += 1;
        if kept > limit.max_states {
            return (NSearch::Stopped, None);
        }
        let fails = (required.is_none() || has_required)
            && !p[x as usize]
            && !arena[s as usize].tr.intersects(&pbits);
        if fails {
            return (NSearch::Failure(word_of(&arena, s)), None);
        }
        for (ti, t) in types.iter().enumerate() {
            let mut tr = Bits::new(n);
            for y in arena[s as usize].tr.ones() {
                tr.set(m.mul(y, t.phi));
            }
            for &y in &t.trans {
                tr.set(m.mul(x, y));
            }
            let idx = arena.len() as u32;
            arena.push(State {
                x: m.mul(x, t.phi),
                tr,
                parent: s,
                ty: ti as u32,
                has_required: has_required || required == Some(ti as u32),
            });
            queue.push(Reverse((
                (key.0 + t.heap as u64, Reverse(key.1 .0 + 1)),
                idx,
            )));
        }
    }
    let sets = collect.then(|| {
        chains
            .iter()
            .map(|c| {
                c[0].iter()
                    .chain(&c[1])
                    .map(|&s| arena[s as usize].tr.ones().collect())
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
                let mut w: Vec<u32> = reps
                    .word(x)
                    .iter()
                    .map(|&i| types[i as usize].heap)
                    .collect();
                w.push(t.heap);
                let k = (w.iter().map(|&h| h as u64).sum(), Reverse(w.len() as u64));
                if best.as_ref().map_or(true, |(b, _)| k < *b) {
                    best = Some((k, w));
                }
            }
        }
    }
    best.map(|(_, w)| w)
}
