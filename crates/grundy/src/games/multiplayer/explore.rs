//! The search for closed forms of m-player Nim under a symmetric order, over a class table
//! ([`tables`](super::tables)).
//!
//! # The language of candidates
//!
//! A **feature** is a small number computed from a position; the list ([`FEATURES`]) follows
//! the shape of the paper's theorems:
//!
//! | feature | value |
//! |---|---|
//! | `z` | 1 if Li's `oplus_m` of the heaps is 0, else 0 |
//! | `small` | 1 if every heap is at most 1 |
//! | `ones` | the number of heaps of size 1, mod `m` |
//! | `big` | the number of heaps of size at least 2, capped at 3 |
//! | `odd` | the number of odd heaps, mod `m` (the units digit of `oplus_m`) |
//! | `top` | the leading base-`m` digit of `oplus_m` (0 when it is 0; the `delta` of Li's proof) |
//! | `sum` | the total, mod `m` |
//! | `par` | the total, mod 2 |
//! | `zbig` | 1 if `oplus_m` of the heaps of size at least 2 is 0 |
//! | `bits` | the number of non-zero base-`m` digits of `oplus_m`, capped at 3 |
//! | `core` | the class of the position without its heaps of size 1 |
//! | `drop1` | the class of the position with one heap of size 1 removed; `m` if it has none |
//! | `nolarge` | the class of the position without its largest heap |
//!
//! A **shape** is a set of at most three features. A statement of that shape says that a
//! **target** is a function of the shape's features on every position of the table:
//!
//! - the whole class ("the class is `f(features)`"), or
//! - one class `j` ("a position is a j-position iff its features lie in a set `T`") — the
//!   shape of Thm 4.2, where the target is the `(i-1)`-positions and the features are
//!   `small`, `z` and `ones`.
//!
//! A shape **fits** a target when no two positions of the table agree on its features and
//! disagree on the target; the function (or the set `T`) is then read off the table, and the
//! statement is a conjecture checked on the table's domain. A shape is **defeated** by the
//! first such pair in rank order (the positions with the smallest largest heap, roughly).
//!
//! One more statement, of Thm 4.3's shape, is checked for each class `j`: **unique
//! completion** — for every prefix of `K - 1` heaps, at most one last heap `n <= N` makes a
//! j-position, and one does make it whenever `sum(prefix) + m - 1 <= N` (the bound our Thm
//! 4.3 checks found).
//!
//! Statements the paper proves (Thm 4.2 for the rotations, Thm 4.3 for the descending orders)
//! and our residue reduction ([`residues`](super::residues), for orders grouped by teams) are
//! marked as theorems; everything else found here is a conjecture with the domain it was
//! checked on.

use super::li::thm_4_2_offset;
use super::tables::{Domain, Table};
use serde::Serialize;

/// The features of the language: (name, meaning).
pub const FEATURES: [(&str, &str); 13] = [
    ("z", "oplus_m = 0"),
    ("small", "every heap <= 1"),
    ("ones", "number of heaps of size 1, mod m"),
    ("big", "number of heaps >= 2, capped at 3"),
    ("odd", "number of odd heaps, mod m"),
    ("top", "leading base-m digit of oplus_m"),
    ("sum", "total mod m"),
    ("par", "total mod 2"),
    ("zbig", "oplus_m of the heaps >= 2 is 0"),
    ("bits", "non-zero base-m digits of oplus_m, capped at 3"),
    ("core", "class without the heaps of size 1"),
    ("drop1", "class with one heap of size 1 removed (m if none)"),
    ("nolarge", "class without the largest heap"),
];

pub const NF: usize = FEATURES.len();
/// Most features in one shape.
pub const MAX_SHAPE: usize = 3;

/// Li's `oplus_m` of small heaps, as base-`m` digits (lowest first).
fn oplus_digits(heaps: &[u64], m: u64) -> Vec<u64> {
    let bits = heaps
        .iter()
        .map(|&h| 64 - h.leading_zeros())
        .max()
        .unwrap_or(0);
    (0..bits)
        .map(|t| heaps.iter().filter(|&&h| h >> t & 1 == 1).count() as u64 % m)
        .collect()
}

/// The feature vector of a position (sorted heaps, zeros allowed) under `table`'s order.
pub fn feature_vector(table: &Table, heaps: &[u64]) -> [u8; NF] {
    let m = table.domain().players() as u64;
    let nonzero: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
    let digits = oplus_digits(&nonzero, m);
    let bigs: Vec<u64> = nonzero.iter().copied().filter(|&h| h >= 2).collect();
    let ones = nonzero.len() - bigs.len();
    let total: u64 = nonzero.iter().sum();
    let class = |p: &[u64]| table.class_of(p).map_or(m as u8, |c| c as u8);
    let drop1 = if ones > 0 {
        let mut p = bigs.clone();
        p.extend(std::iter::repeat(1).take(ones - 1));
        class(&p)
    } else {
        m as u8
    };
    let nolarge = if nonzero.is_empty() {
        m as u8
    } else {
        class(&nonzero[..nonzero.len() - 1])
    };
    [
        digits.iter().all(|&d| d == 0) as u8,
        bigs.is_empty() as u8,
        (ones as u64 % m) as u8,
        bigs.len().min(3) as u8,
        (nonzero.iter().filter(|&&h| h % 2 == 1).count() as u64 % m) as u8,
        digits.iter().rev().find(|&&d| d != 0).copied().unwrap_or(0) as u8,
        (total % m) as u8,
        (total % 2) as u8,
        oplus_digits(&bigs, m).iter().all(|&d| d == 0) as u8,
        digits.iter().filter(|&&d| d != 0).count().min(3) as u8,
        class(&bigs),
        drop1,
        nolarge,
    ]
}

/// Every shape of 1 to `max` features, smallest first.
pub fn shapes(max: usize) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = vec![vec![]];
    let mut all = Vec::new();
    for _ in 0..max.min(MAX_SHAPE) {
        out = out
            .iter()
            .flat_map(|s| {
                let lo = s.last().map_or(0, |&x| x + 1);
                (lo..NF).map(move |f| {
                    let mut t = s.clone();
                    t.push(f);
                    t
                })
            })
            .collect();
        all.extend(out.iter().cloned());
    }
    all
}

/// A pair of positions agreeing on a shape's features and disagreeing on the target.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct Counterexample {
    /// The shape's feature names.
    pub shape: Vec<String>,
    /// The two positions (non-zero heaps, increasing).
    pub positions: Vec<Vec<u64>>,
    /// Their classes.
    pub classes: Vec<usize>,
}

/// What the search found for one target (the whole class, or one class).
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct TargetReport {
    /// `"class"` for the whole class function, or `"j-positions"` for one class.
    pub target: String,
    /// `theorem`, `conjecture` or `no_fit`.
    pub status: String,
    /// The statement (empty for `no_fit`).
    pub form: String,
    /// Other shapes of the same size that fit too.
    pub also_fits: Vec<Vec<String>>,
    /// For `no_fit`: the pairs that defeated the shapes surviving longest.
    pub counterexamples: Vec<Counterexample>,
}

/// The search's findings for one order.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct OrderReport {
    /// `k1..km` of `GAMES(k1..km)`.
    pub order: Vec<usize>,
    /// `theorem` when a proved statement holds for this order (the paper's Thm 4.2 or 4.3, or
    /// our residue reduction), `conjecture` when only fitted statements hold, `no_fit` when no
    /// candidate fits anything.
    pub status: String,
    /// Every statement that holds, `; `-separated, each marked `[theorem: ...]` or
    /// `[conjecture]`.
    pub form: String,
    /// The domain the statements were checked on.
    pub checked_to: String,
    /// Positions checked (the domain's, within its total cap).
    pub positions: u64,
    /// How many positions of each class.
    pub class_counts: Vec<u64>,
    /// For no fit of the whole class: the pairs that defeated the shapes surviving longest.
    pub counterexamples: Vec<Counterexample>,
    /// The whole class and each class `j`.
    pub targets: Vec<TargetReport>,
    /// The classes with Thm 4.3's unique completion on the domain.
    pub unique_completion: Vec<usize>,
}

/// Whether `order` is a rotation `GAMES(i, i+1, ..., i-1)`; returns `i`.
pub fn rotation_of(order: &[usize]) -> Option<usize> {
    let m = order.len();
    let i = order[0];
    (0..m).all(|k| order[k] == (i + k) % m).then_some(i)
}

/// Whether `order` is descending `GAMES(i, i-1, ..., i+1)`; returns `i`.
pub fn descending_of(order: &[usize]) -> Option<usize> {
    let m = order.len();
    let i = order[0];
    (0..m).all(|k| order[k] == (i + m - k) % m).then_some(i)
}

/// A fitting shape and its rule: (key of the feature values, class) for every key met.
type Fit = (Vec<usize>, Vec<(usize, u8)>);
/// A defeated shape: (index of the position that defeated it, shape, the two positions' ranks,
/// their classes).
type Death = (usize, Vec<usize>, [u64; 2], [usize; 2]);

fn names(shape: &[usize]) -> Vec<String> {
    shape.iter().map(|&f| FEATURES[f].0.to_owned()).collect()
}

fn key_of(f: &[u8; NF], shape: &[usize]) -> usize {
    shape.iter().fold(0usize, |k, &i| k * 16 + f[i] as usize)
}

fn show_key(key: usize, shape: &[usize]) -> String {
    let mut vals = Vec::new();
    let mut k = key;
    for _ in shape {
        vals.push(k % 16);
        k /= 16;
    }
    vals.reverse();
    let parts: Vec<String> = shape
        .iter()
        .zip(vals)
        .map(|(&f, v)| format!("{}={v}", FEATURES[f].0))
        .collect();
    parts.join(",")
}

/// The search over one table: every shape of up to `max_features` features, every target.
pub fn explore(table: &Table, max_features: usize) -> OrderReport {
    let domain: &Domain = table.domain();
    let m = domain.players();
    let order = table.order().to_vec();
    // positions inside the domain, in rank order, with their classes and features
    let mut items: Vec<(u64, u8, [u8; NF])> = Vec::new();
    let mut class_counts = vec![0u64; m];
    for r in 0..domain.len() {
        if let Some(c) = table.class_at(r) {
            let p = domain.position(r);
            items.push((r, c as u8, feature_vector(table, &p)));
            class_counts[c] += 1;
        }
    }
    let show = |r: u64| -> Vec<u64> { domain.position(r).into_iter().filter(|&h| h > 0).collect() };
    // targets: 0 = the whole class, 1 + j = class j
    let targets_n = m + 1;
    // per target: fitting shapes of the smallest size found, with their rules
    let mut fits: Vec<Vec<Fit>> = vec![Vec::new(); targets_n];
    // per target: each defeated shape with its witnesses
    let mut deaths: Vec<Vec<Death>> = vec![Vec::new(); targets_n];
    let mut seen = vec![0u8; 16usize.pow(MAX_SHAPE as u32)];
    let mut first = vec![0u64; seen.len() * m];
    for shape in shapes(max_features) {
        // a target already fitted by a smaller shape is not searched further
        let smallest_fit = |t: usize| fits[t].first().map(|(s, _)| s.len());
        let mut alive: Vec<bool> = (0..targets_n)
            .map(|t| smallest_fit(t).map_or(true, |l| l == shape.len()))
            .collect();
        if !alive.iter().any(|&a| a) {
            continue;
        }
        let mut touched = Vec::new();
        for (idx, (r, c, f)) in items.iter().enumerate() {
            let key = key_of(f, &shape);
            let c = *c as usize;
            let s = seen[key];
            if s == 0 {
                touched.push(key);
            }
            let witness = |other: usize| first[key * m + other];
            if alive[0] && s & !(1 << c) != 0 {
                let other = (0..m).find(|&o| o != c && s >> o & 1 == 1).expect("set");
                alive[0] = false;
                deaths[0].push((idx, shape.clone(), [witness(other), *r], [other, c]));
            }
            for j in 0..m {
                if !alive[1 + j] {
                    continue;
                }
                let conflict = if c == j {
                    s & !(1 << j) != 0
                } else {
                    s >> j & 1 == 1
                };
                if conflict {
                    let other = if c == j {
                        (0..m).find(|&o| o != j && s >> o & 1 == 1).expect("set")
                    } else {
                        j
                    };
                    alive[1 + j] = false;
                    deaths[1 + j].push((idx, shape.clone(), [witness(other), *r], [other, c]));
                }
            }
            if s >> c & 1 == 0 {
                first[key * m + c] = *r;
                seen[key] = s | 1 << c;
            }
            if !alive.iter().any(|&a| a) {
                break;
            }
        }
        for t in 0..targets_n {
            if alive[t] {
                let mut rule: Vec<(usize, u8)> = touched
                    .iter()
                    .map(|&k| (k, seen[k]))
                    .filter(|&(_, s)| t == 0 || s >> (t - 1) & 1 == 1)
                    .map(|(k, s)| (k, s.trailing_zeros() as u8))
                    .collect();
                rule.sort_unstable();
                fits[t].push((shape.clone(), rule));
            }
        }
        for k in touched {
            seen[k] = 0;
        }
    }

    let rot = rotation_of(&order);
    let desc = descending_of(&order);
    let unique_completion = unique_completion_classes(table);
    let mut statements = Vec::new();
    let mut targets = Vec::new();
    let mut any_theorem = false;
    for t in 0..targets_n {
        let label = if t == 0 {
            "class".to_owned()
        } else {
            format!("{}-positions", t - 1)
        };
        let thm42 = t > 0 && rot.is_some_and(|i| thm_4_2_offset(m, i) == t - 1);
        let report = match fits[t].first() {
            Some((shape, rule)) => {
                let form = if t == 0 {
                    let entries: Vec<String> = rule
                        .iter()
                        .map(|&(k, c)| format!("{} -> {c}", show_key(k, shape)))
                        .collect();
                    format!(
                        "class by ({}): {}",
                        names(shape).join(","),
                        entries.join(" | ")
                    )
                } else {
                    let entries: Vec<String> =
                        rule.iter().map(|&(k, _)| show_key(k, shape)).collect();
                    format!(
                        "{}-position iff ({}) in {{{}}}",
                        t - 1,
                        names(shape).join(","),
                        entries.join(" | ")
                    )
                };
                let status = if thm42 { "theorem" } else { "conjecture" };
                any_theorem |= thm42;
                let marked = if thm42 {
                    let i = rot.expect("rotation");
                    format!(
                        "{form} [theorem: paper's Thm 4.2 with i = {i}: oplus_m = 0 if some heap > 1, oplus_m = {i} if all heaps <= 1]"
                    )
                } else {
                    format!("{form} [conjecture]")
                };
                statements.push(marked);
                TargetReport {
                    target: label,
                    status: status.into(),
                    form,
                    also_fits: fits[t][1..]
                        .iter()
                        .filter(|(s, _)| s.len() == shape.len())
                        .take(4)
                        .map(|(s, _)| names(s))
                        .collect(),
                    counterexamples: Vec::new(),
                }
            }
            None => {
                let mut d = deaths[t].clone();
                d.sort_by_key(|x| std::cmp::Reverse(x.0));
                let counterexamples = d
                    .iter()
                    .take(3)
                    .map(|(_, s, ranks, classes)| Counterexample {
                        shape: names(s),
                        positions: vec![show(ranks[0]), show(ranks[1])],
                        classes: classes.to_vec(),
                    })
                    .collect();
                TargetReport {
                    target: label,
                    status: "no_fit".into(),
                    form: String::new(),
                    also_fits: Vec::new(),
                    counterexamples,
                }
            }
        };
        targets.push(report);
    }
    for &j in &unique_completion {
        let thm43 = desc.is_some_and(|i| thm_4_2_offset(m, i) == j);
        any_theorem |= thm43;
        statements.push(if thm43 {
            format!(
                "{j}-positions: unique completing heap [theorem: paper's Thm 4.3 with i = {}]",
                desc.expect("descending")
            )
        } else {
            format!("{j}-positions: unique completing heap [conjecture]")
        });
    }
    for (d, residues) in super::residues::groupings(&order) {
        any_theorem = true;
        let shown: Vec<String> = residues.iter().map(|r| r.to_string()).collect();
        statements.push(if d == 2 {
            let odd_when = if residues[0] == 0 {
                "the nim-sum is 0"
            } else {
                "it is not a misère P-position (some heap > 1 and nim-sum non-zero, or every heap <= 1 and an even number of them 1)"
            };
            format!(
                "class mod 2 = class under GAMES({}): odd iff {odd_when} [theorem: residue reduction, ours]",
                shown.join(",")
            )
        } else {
            format!(
                "class mod {d} = class under the {d}-player GAMES({}) [theorem: residue reduction, ours]",
                shown.join(",")
            )
        });
    }
    let status = if any_theorem {
        "theorem"
    } else if statements.is_empty() {
        "no_fit"
    } else {
        "conjecture"
    };
    OrderReport {
        order,
        status: status.into(),
        form: statements.join("; "),
        checked_to: domain.describe(),
        positions: items.len() as u64,
        class_counts,
        counterexamples: targets[0].counterexamples.clone(),
        targets,
        unique_completion,
    }
}

/// The classes `j` with Thm 4.3's unique completion on the table's domain (see the module
/// documentation).
pub fn unique_completion_classes(table: &Table) -> Vec<usize> {
    let d = table.domain();
    let m = d.players();
    let k = d.heaps();
    let n = d.max_heap();
    let mut ok = vec![true; m];
    let prefixes: Vec<Vec<u64>> = if k == 1 {
        vec![vec![]]
    } else {
        let pd = Domain::new(m, k - 1, n, None).expect("a smaller domain");
        (0..pd.len()).map(|r| pd.position(r)).collect()
    };
    let mut heaps = vec![0u64; k];
    for prefix in prefixes {
        let sum: u64 = prefix.iter().sum();
        heaps[..k - 1].copy_from_slice(&prefix);
        let mut count = vec![0u32; m];
        let mut complete = true;
        for h in 0..=n {
            heaps[k - 1] = h;
            match table.class_of(&heaps) {
                Some(c) => count[c] += 1,
                None => {
                    if h < sum + m as u64 {
                        complete = false;
                    }
                }
            }
        }
        let must = complete && sum + m as u64 - 1 <= n;
        for j in 0..m {
            if count[j] > 1 || (must && count[j] == 0) {
                ok[j] = false;
            }
        }
    }
    (0..m).filter(|&j| ok[j]).collect()
}

#[cfg(test)]
mod tests {
    use super::super::tables::{all_orders, Domain, Table};
    use super::*;

    /// The machinery first reproduces the paper: for every order of three players the search
    /// finds Thm 4.2 (rotations) and Thm 4.3 (descending orders), and for four and five
    /// players Thm 4.2 and 4.3 of every rotation and descending order.
    #[test]
    fn reproduces_the_papers_theorems() {
        for (m, k, n) in [(2, 4, 15), (3, 5, 12), (4, 4, 10), (5, 4, 8)] {
            let d = Domain::new(m, k, n, None).unwrap();
            for order in all_orders(m) {
                let t = Table::compute(&d, &order).unwrap();
                let r = explore(&t, 3);
                if let Some(i) = rotation_of(&order) {
                    let j = thm_4_2_offset(m, i);
                    let target = &r.targets[1 + j];
                    assert_eq!(target.status, "theorem", "{order:?}");
                    // the fitted rule is Thm 4.2's: check it by its own features
                    assert!(r.status == "theorem", "{order:?}");
                }
                if let Some(i) = descending_of(&order) {
                    let j = thm_4_2_offset(m, i);
                    assert!(r.unique_completion.contains(&j), "{order:?}: {r:?}");
                    assert!(r.form.contains("Thm 4.3"), "{order:?}");
                }
            }
        }
    }

    /// Two-player normal play: the class is `z` (P-positions are the 1-positions).
    #[test]
    fn two_player_normal_play_is_the_nim_sum() {
        let d = Domain::new(2, 4, 15, None).unwrap();
        let t = Table::compute(&d, &[0, 1]).unwrap();
        let r = explore(&t, 3);
        assert_eq!(r.targets[0].form, "class by (z): z=0 -> 0 | z=1 -> 1");
        // misère: the class needs more than z
        let t = Table::compute(&d, &[1, 0]).unwrap();
        let r = explore(&t, 3);
        assert_eq!(r.targets[0].status, "conjecture");
        assert!(r.targets[0].form.contains("small"), "{}", r.targets[0].form);
    }

    #[test]
    fn a_defeated_shape_shows_a_real_pair() {
        let d = Domain::new(3, 3, 8, None).unwrap();
        let t = Table::compute(&d, &[0, 2, 1]).unwrap();
        let r = explore(&t, 1);
        for target in &r.targets {
            for c in &target.counterexamples {
                assert_ne!(c.classes[0], c.classes[1]);
                assert_eq!(t.class_of(&c.positions[0]), Some(c.classes[0]));
                assert_eq!(t.class_of(&c.positions[1]), Some(c.classes[1]));
            }
        }
    }

    #[test]
    fn shapes_are_counted() {
        assert_eq!(shapes(1).len(), NF);
        assert_eq!(
            shapes(3).len(),
            NF + NF * (NF - 1) / 2 + NF * (NF - 1) * (NF - 2) / 6
        );
        assert_eq!(oplus_digits(&[2, 2, 2, 1, 3], 3), vec![2, 1]);
        assert_eq!(oplus_digits(&[2, 2, 1, 1, 3], 3), vec![0, 0]);
    }
}
