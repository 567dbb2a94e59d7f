//! Sums of Nim positions under a symmetric order (the paper's §5 question): does the class of
//! `G + H` (all heaps of both) follow from the classes of `G` and `H`, and if not, from what
//! finite "type" of each part?
//!
//! With two players the sum's outcome class follows from the parts' Grundy values, and
//! adding a P-position changes nothing. The paper's example, `(2,2,2) + (1,3)` under
//! `GAMES(0,1,2)`, shows that with three players the classes alone do not decide. Over a
//! table this module measures, for every pair of classes `(a, b)`, which classes the sums of
//! an `a`-position and a `b`-position take, and searches for a **type** that does decide:
//! the class together with at most two features, taken from the search language
//! ([`explore::FEATURES`](super::explore::FEATURES)) and four more that look at what a part
//! becomes when a heap is added (`plus1`, `plus2`, `plus3`, `plus11`: the class of `G + (1)`,
//! `G + (2)`, `G + (3)`, `G + (1, 1)`). A type fits when every pair of parts with the same
//! pair of types has sums of one class; the first shape that fits is reported, else the
//! pairs defeating the longest-surviving shapes.
//!
//! The parts are every position of at most `parts_heaps` heaps of the table's domain, so that
//! every sum of two of them (and every part plus a heap of up to 3, or two heaps of 1) lies in
//! the domain.

use super::explore::FEATURES;
use super::tables::Table;
use crate::Error;
use serde::Serialize;

/// The classes of the sums of an `a`-position and a `b`-position.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct ClassPair {
    /// `[a, b]`, `a <= b`.
    pub classes: Vec<usize>,
    /// How many pairs of parts (unordered, a part may be paired with itself).
    pub pairs: u64,
    /// The classes their sums take, increasing.
    pub sum_classes: Vec<usize>,
    /// One pair of parts for each class of `sum_classes`.
    pub examples: Vec<SumExample>,
}

/// Two parts and the class of their sum.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct SumExample {
    /// `[G, H]` (non-zero heaps, increasing).
    pub parts: Vec<Vec<u64>>,
    /// The class of `G + H`.
    pub sum_class: usize,
}

/// The sums report of one order.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct SumsReport {
    pub order: Vec<usize>,
    /// The parts, in words.
    pub parts: String,
    /// Pairs of parts examined.
    pub pairs: u64,
    /// Every pair of classes met.
    pub class_pairs: Vec<ClassPair>,
    /// How many of them determine the sum's class.
    pub determined: usize,
    /// The extra features (beyond the class) of the first type that decides every sum, if
    /// one of at most two features does.
    pub type_fit: Option<Vec<String>>,
    /// When no type fits: for the shapes surviving longest, two pairs of parts with the same
    /// types whose sums differ in class.
    pub counterexamples: Vec<SumCounterexample>,
}

/// Two pairs of parts of the same types (class and `shape`) whose sums differ in class.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct SumCounterexample {
    /// `class` and the type's features.
    pub shape: Vec<String>,
    /// `[[G, H], [G', H']]`.
    pub parts: Vec<Vec<Vec<u64>>>,
    /// The classes of `G + H` and `G' + H'`.
    pub sum_classes: Vec<usize>,
}

/// Most pairs of parts one sums report examines.
pub const MAX_SUM_PAIRS: u64 = 50_000_000;

const EXTRA: [&str; 4] = ["plus1", "plus2", "plus3", "plus11"];

/// Pairs of parts of two classes: how many, and one pair (indices of parts) per sum class.
type Cell = (u64, Vec<Option<(usize, usize)>>);
/// A defeated type shape: where, which, and the two pairs of parts (indices) that defeated it.
type TypeDeath = (usize, Vec<usize>, [(usize, usize); 2]);

/// The sums of parts of at most `parts_heaps` heaps, over `table` (whose domain must hold
/// `2 * parts_heaps` heaps).
pub fn sums(table: &Table, parts_heaps: usize) -> Result<SumsReport, Error> {
    let d = table.domain();
    let m = d.players();
    if parts_heaps == 0 || 2 * parts_heaps > d.heaps() || d.max_total().is_some() {
        return Err(Error::Invalid(format!(
            "sums of parts of {parts_heaps} heaps need a table of at least {} heaps and no total cap",
            2 * parts_heaps
        )));
    }
    let nf = FEATURES.len() + EXTRA.len();
    // parts: positions with at most parts_heaps non-zero heaps
    let mut parts: Vec<(Vec<u64>, u8, Vec<u8>)> = Vec::new();
    for r in 0..d.len() {
        let p: Vec<u64> = d.position(r).into_iter().filter(|&h| h > 0).collect();
        if p.len() > parts_heaps {
            continue;
        }
        let c = table.class_at(r).expect("no cap") as u8;
        let mut f = super::explore::feature_vector(table, &d.position(r)).to_vec();
        for extra in [&[1u64][..], &[2], &[3], &[1, 1]] {
            let mut q = p.clone();
            q.extend_from_slice(extra);
            f.push(table.class_of(&q).map_or(m as u8, |c| c as u8));
        }
        parts.push((p, c, f));
    }
    let pairs = parts.len() as u128 * (parts.len() as u128 + 1) / 2;
    if pairs > MAX_SUM_PAIRS as u128 {
        return Err(Error::Invalid(format!(
            "{} parts make {pairs} pairs, more than {MAX_SUM_PAIRS}; choose fewer heaps per part or a smaller largest heap",
            parts.len()
        )));
    }
    let name = |i: usize| -> String {
        if i < FEATURES.len() {
            FEATURES[i].0.to_owned()
        } else {
            EXTRA[i - FEATURES.len()].to_owned()
        }
    };
    let mut sum_class = Vec::with_capacity(parts.len() * (parts.len() + 1) / 2);
    // cells[a][b]: (pairs of parts of classes a <= b, one pair of parts per sum class)
    let mut cells: Vec<Vec<Cell>> = vec![vec![(0, vec![None; m]); m]; m];
    let mut q = Vec::new();
    for (i, (g, cg, _)) in parts.iter().enumerate() {
        for (j, (h, ch, _)) in parts.iter().enumerate().skip(i) {
            q.clear();
            q.extend_from_slice(g);
            q.extend_from_slice(h);
            let cs = table.class_of(&q).ok_or_else(|| {
                Error::Invalid(format!("the sum {q:?} is outside the table's domain"))
            })?;
            sum_class.push(cs as u8);
            let (a, b) = ((*cg).min(*ch) as usize, (*cg).max(*ch) as usize);
            let cell = &mut cells[a][b];
            cell.0 += 1;
            if cell.1[cs].is_none() {
                cell.1[cs] = Some((i, j));
            }
        }
    }
    let mut class_pairs = Vec::new();
    let mut determined = 0;
    for (a, row) in cells.iter().enumerate() {
        for (b, (count, ex)) in row.iter().enumerate().skip(a) {
            if *count == 0 {
                continue;
            }
            let sum_classes: Vec<usize> = (0..m).filter(|&c| ex[c].is_some()).collect();
            if sum_classes.len() == 1 {
                determined += 1;
            }
            let examples = sum_classes
                .iter()
                .map(|&c| {
                    let (i, j) = ex[c].expect("set");
                    SumExample {
                        parts: vec![parts[i].0.clone(), parts[j].0.clone()],
                        sum_class: c,
                    }
                })
                .collect();
            class_pairs.push(ClassPair {
                classes: vec![a, b],
                pairs: *count,
                sum_classes,
                examples,
            });
        }
    }
    // types: class + up to two features
    let mut shapes: Vec<Vec<usize>> = vec![vec![]];
    shapes.extend((0..nf).map(|f| vec![f]));
    for f in 0..nf {
        for g in f + 1..nf {
            shapes.push(vec![f, g]);
        }
    }
    let mut type_fit = None;
    // (index of the pair that defeated the shape, shape, the two pairs of parts)
    let mut deaths: Vec<TypeDeath> = Vec::new();
    let mut seen: std::collections::HashMap<(u32, u32), (u8, usize, usize)> =
        std::collections::HashMap::new();
    for shape in &shapes {
        let ty = |i: usize| -> u32 {
            shape
                .iter()
                .fold(parts[i].1 as u32, |k, &f| k * 16 + parts[i].2[f] as u32)
        };
        let types: Vec<u32> = (0..parts.len()).map(ty).collect();
        seen.clear();
        let mut dead = None;
        let mut idx = 0;
        'outer: for i in 0..parts.len() {
            for j in i..parts.len() {
                let key = (types[i].min(types[j]), types[i].max(types[j]));
                let cs = sum_class[idx];
                idx += 1;
                match seen.get(&key) {
                    Some(&(c, a, b)) if c != cs => {
                        dead = Some((idx, [(a, b), (i, j)]));
                        break 'outer;
                    }
                    Some(_) => {}
                    None => {
                        seen.insert(key, (cs, i, j));
                    }
                }
            }
        }
        match dead {
            None => {
                type_fit = Some(shape.iter().map(|&f| name(f)).collect());
                break;
            }
            Some((at, w)) => deaths.push((at, shape.clone(), w)),
        }
    }
    let class_of_sum = |(i, j): (usize, usize)| {
        let mut q = parts[i].0.clone();
        q.extend_from_slice(&parts[j].0);
        table.class_of(&q).expect("inside")
    };
    let counterexamples = if type_fit.is_some() {
        Vec::new()
    } else {
        deaths.sort_by_key(|x| std::cmp::Reverse(x.0));
        deaths
            .iter()
            .take(3)
            .map(|(_, shape, w)| {
                let mut label = vec!["class".to_owned()];
                label.extend(shape.iter().map(|&f| name(f)));
                SumCounterexample {
                    shape: label,
                    parts: w
                        .iter()
                        .map(|&(i, j)| vec![parts[i].0.clone(), parts[j].0.clone()])
                        .collect(),
                    sum_classes: w.iter().map(|&x| class_of_sum(x)).collect(),
                }
            })
            .collect()
    };
    Ok(SumsReport {
        order: table.order().to_vec(),
        parts: format!(
            "every position of at most {parts_heaps} heaps of at most {}",
            d.max_heap()
        ),
        pairs: sum_class.len() as u64,
        class_pairs,
        determined,
        type_fit,
        counterexamples,
    })
}

#[cfg(test)]
mod tests {
    use super::super::tables::Domain;
    use super::*;

    #[test]
    fn two_player_sums_follow_the_nim_sum() {
        // normal play: the class is the nim-sum's zero test, but the sum of two N-positions
        // may be either; the nim-sum itself is not a finite type, yet P + P = P and P + N = N.
        let d = Domain::new(2, 4, 7, None).unwrap();
        let t = Table::compute(&d, &[0, 1]).unwrap();
        let r = sums(&t, 2).unwrap();
        let pp = r.class_pairs.iter().find(|c| c.classes == [1, 1]).unwrap();
        assert_eq!(pp.sum_classes, vec![1]);
        let pn = r.class_pairs.iter().find(|c| c.classes == [0, 1]).unwrap();
        assert_eq!(pn.sum_classes, vec![0]);
        let nn = r.class_pairs.iter().find(|c| c.classes == [0, 0]).unwrap();
        assert_eq!(nn.sum_classes, vec![0, 1]);
    }

    #[test]
    fn the_papers_example_is_found() {
        let d = Domain::new(3, 6, 7, None).unwrap();
        let t = Table::compute(&d, &[0, 1, 2]).unwrap();
        let r = sums(&t, 3).unwrap();
        // (2,2,2) is a 2-position, (1,3) a 1-position, the sum a 0-position
        let cell = r.class_pairs.iter().find(|c| c.classes == [1, 2]).unwrap();
        assert!(cell.sum_classes.contains(&0), "{cell:?}");
        assert!(r.determined < r.class_pairs.len());
        for c in &r.counterexamples {
            assert_ne!(c.sum_classes[0], c.sum_classes[1]);
            for (k, gh) in c.parts.iter().enumerate() {
                let mut q = gh[0].clone();
                q.extend_from_slice(&gh[1]);
                assert_eq!(t.class_of(&q), Some(c.sum_classes[k]));
            }
        }
    }
}
