//! The structure of a quotient: idempotents, the kernel, and recognition of the quotients the
//! literature names, up to isomorphism of bipartite monoids.
//!
//! - The *tame* quotients, those of misère Nim (Plambeck–Siegel, JCTA 2008, §3):
//!   `T0 = {1}` with `P = {}` (the empty game alone), `T1 = <a | a2=1>` with `P = {a}` (heaps
//!   0 and 1), `T2 = <a,b | a2=1, b3=b>` with `P = {a, b2}` (heaps 0..3) and
//!   `T3 = <a,b,c | a2=1, b3=b, c2=b2, b2c=c>` with `P = {a, b2}` (heaps 0..7).
//! - `R8 = <a,b,c | a2=1, b3=b, bc=ab, c2=b2>` with `P = {a, b2}`, the quotient of order 8
//!   (Plambeck, "Taming the wild", Integers 2005; the quotient of 0.75).
//!
//! A quotient is reported *tame* when it is isomorphic to some `T_k`: `T0 .. T3` are found with
//! the others by a search for an isomorphism, every `T_k` (`T4`, `T5`, ...: Nim with heaps
//! below `2^k`) by its structure ([`super::tame::tame_index`]), which also gives the genus of
//! every element ([`super::tame`]).

use super::monoid::Monoid;
use super::presentation::Presentation;

/// The product of all idempotents: the identity of the kernel (the least ideal).
pub fn kernel_identity(m: &Monoid) -> u32 {
    m.idempotents().into_iter().fold(0, |acc, e| m.mul(acc, e))
}

/// The kernel: `{ e·x }` for the least idempotent `e`, sorted.
pub fn kernel(m: &Monoid) -> Vec<u32> {
    let e = kernel_identity(m);
    let mut k: Vec<u32> = (0..m.size() as u32).map(|x| m.mul(e, x)).collect();
    k.sort_unstable();
    k.dedup();
    k
}

/// A bipartite monoid given by a complete rewriting system: `k` generators, relations
/// `left -> right` (exponent vectors), and the P-portion as words.
pub fn from_rewriting(
    k: usize,
    relations: &[(Vec<u32>, Vec<u32>)],
    p: &[Vec<u32>],
) -> (Monoid, Vec<bool>) {
    let normalise = |mut w: Vec<u32>| loop {
        let Some((l, r)) = relations
            .iter()
            .find(|(l, _)| l.iter().zip(&w).all(|(a, b)| a <= b))
        else {
            return w;
        };
        for i in 0..k {
            w[i] = w[i] - l[i] + r[i];
        }
    };
    let mut elements: Vec<Vec<u32>> = vec![vec![0; k]];
    let mut i = 0;
    while i < elements.len() {
        for g in 0..k {
            let mut w = elements[i].clone();
            w[g] += 1;
            let w = normalise(w);
            if !elements.contains(&w) {
                elements.push(w);
            }
        }
        i += 1;
    }
    let n = elements.len();
    let index = |w: &Vec<u32>| elements.iter().position(|e| e == w).expect("closed");
    let mut table = Vec::with_capacity(n * n);
    for a in &elements {
        for b in &elements {
            let w: Vec<u32> = a.iter().zip(b).map(|(x, y)| x + y).collect();
            table.push(index(&normalise(w)) as u32);
        }
    }
    let m = Monoid::from_table(n, table).expect("a rewriting system gives a commutative monoid");
    let mut pp = vec![false; n];
    for w in p {
        pp[index(&normalise(w.clone()))] = true;
    }
    (m, pp)
}

/// Whether `(m1, p1)` and `(m2, p2)` are isomorphic bipartite monoids.
pub fn isomorphic(m1: &Monoid, p1: &[bool], m2: &Monoid, p2: &[bool]) -> bool {
    if m1.size() != m2.size()
        || p1.iter().filter(|&&b| b).count() != p2.iter().filter(|&&b| b).count()
    {
        return false;
    }
    // Generators of m2 (its presentation's), mapped in every way into m1.
    let pres = Presentation::new(m2, &(0..m2.size() as u32).collect::<Vec<_>>());
    let gens = &pres.generator_elements;
    let n = m1.size();
    let mut choice = vec![0u32; gens.len()];
    loop {
        if let Some(map) = extend(m2, gens, m1, &choice) {
            if (0..n).all(|x| p2[x] == p1[map[x] as usize]) {
                return true;
            }
        }
        // Next choice.
        let mut i = 0;
        loop {
            if i == choice.len() {
                return false;
            }
            choice[i] += 1;
            if (choice[i] as usize) < n {
                break;
            }
            choice[i] = 0;
            i += 1;
        }
    }
}

/// The homomorphism from `m2` to `m1` sending `gens[i]` to `images[i]`, if it is a bijection.
fn extend(m2: &Monoid, gens: &[u32], m1: &Monoid, images: &[u32]) -> Option<Vec<u32>> {
    let n = m2.size();
    let mut map = vec![u32::MAX; n];
    map[0] = 0;
    let mut order = vec![0u32];
    let mut i = 0;
    while i < order.len() {
        let x = order[i];
        for (g, &img) in gens.iter().zip(images) {
            let y = m2.mul(x, *g);
            let fy = m1.mul(map[x as usize], img);
            if map[y as usize] == u32::MAX {
                map[y as usize] = fy;
                order.push(y);
            } else if map[y as usize] != fy {
                return None;
            }
        }
        i += 1;
    }
    let mut hit = vec![false; n];
    for &v in &map {
        if v == u32::MAX || hit[v as usize] {
            return None;
        }
        hit[v as usize] = true;
    }
    // A bijection respecting the generators' products is a homomorphism when it respects
    // every product; check the table.
    for x in 0..n as u32 {
        for y in 0..n as u32 {
            if map[m2.mul(x, y) as usize] != m1.mul(map[x as usize], map[y as usize]) {
                return None;
            }
        }
    }
    Some(map)
}

/// The named quotients: `(name, monoid, P-portion)`.
pub fn named() -> Vec<(&'static str, Monoid, Vec<bool>)> {
    let e = |v: &[u32]| v.to_vec();
    let mut out = Vec::new();
    out.push(("T0", Monoid::trivial(), vec![false]));
    let (m, p) = from_rewriting(1, &[(e(&[2]), e(&[0]))], &[e(&[1])]);
    out.push(("T1", m, p));
    let (m, p) = from_rewriting(
        2,
        &[(e(&[2, 0]), e(&[0, 0])), (e(&[0, 3]), e(&[0, 1]))],
        &[e(&[1, 0]), e(&[0, 2])],
    );
    out.push(("T2", m, p));
    // Misère Nim with heaps 0..7: a = *1, b = *2, c = *4; b2 = c2, firm products of b, c.
    let (m, p) = from_rewriting(
        3,
        &[
            (e(&[2, 0, 0]), e(&[0, 0, 0])),
            (e(&[0, 3, 0]), e(&[0, 1, 0])),
            (e(&[0, 0, 2]), e(&[0, 2, 0])),
            (e(&[0, 2, 1]), e(&[0, 0, 1])),
        ],
        &[e(&[1, 0, 0]), e(&[0, 2, 0])],
    );
    out.push(("T3", m, p));
    let (m, p) = from_rewriting(
        3,
        &[
            (e(&[2, 0, 0]), e(&[0, 0, 0])),
            (e(&[0, 3, 0]), e(&[0, 1, 0])),
            (e(&[0, 1, 1]), e(&[1, 1, 0])),
            (e(&[0, 0, 2]), e(&[0, 2, 0])),
        ],
        &[e(&[1, 0, 0]), e(&[0, 2, 0])],
    );
    out.push(("R8", m, p));
    out
}

/// The name of a quotient isomorphic to `(m, p)`, if the literature names it: `T0 .. T3`,
/// `R8`, or `T_k` for larger `k`.
pub fn recognise(m: &Monoid, p: &[bool]) -> Option<String> {
    named()
        .into_iter()
        .find(|(_, nm, np)| isomorphic(m, p, nm, np))
        .map(|(name, _, _)| name.to_string())
        .or_else(|| super::tame::tame_index(m, p).map(|k| format!("T{k}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_quotients_have_their_orders() {
        let sizes: Vec<(&str, usize, usize)> = named()
            .iter()
            .map(|(n, m, p)| (*n, m.size(), p.iter().filter(|&&b| b).count()))
            .collect();
        assert_eq!(
            sizes,
            vec![
                ("T0", 1, 0),
                ("T1", 2, 1),
                ("T2", 6, 2),
                ("T3", 10, 2),
                ("R8", 8, 2)
            ]
        );
        for (_, m, p) in named() {
            assert!(m.is_commutative_monoid());
            assert!(isomorphic(&m, &p, &m, &p));
        }
        let all = named();
        assert!(!isomorphic(&all[2].1, &all[2].2, &all[4].1, &all[4].2));
    }
}
