//! Conway's genus of the heaps of a heap game, and their misère Grundy values.
//!
//! For a game `G` let `g = G⁺(G)` be its normal-play Grundy value and `γₖ = G⁻(G + 2 + ... + 2)`
//! (k copies of the nim-heap `*2`) its misère Grundy values in the company of `*2`s, where the
//! misère Grundy value is `G⁻(0) = 1` and otherwise the mex of the options' values. The sequence
//! `γ₀ γ₁ γ₂ ...` eventually alternates between two values; the genus `g^{γ₀γ₁...}` writes it up
//! to the point from which its last two digits repeat (Conway, *On Numbers and Games*, ch. 12;
//! Berlekamp–Conway–Guy, *Winning Ways*, ch. 13: Kayles' heap of 5 has genus `4^146`).
//! `γ₀` is the misère Grundy value (CGSuite's `MisereNimValue`).
//!
//! The genus of a sum is not determined by the genera of its parts, so a heap's genus is
//! computed from the genera of all positions (multisets of smaller heaps) it can reach: the
//! recursion `γ₀ = mex γ₀(options)`, `γₖ = mex({γₖ₋₁, γₖ₋₁ ⊕ 1} ∪ {γₖ(options)})` (the moves of
//! a `*2` to `*1` and to `0`, using `G⁻(X + *1) = G⁻(X) ⊕ 1`). The number of reachable
//! positions grows like the partitions of the heap size, so a bound refuses what is too large;
//! tests hold the recursion against a plain search over positions with explicit nim-heaps.

use super::misere_quotient::heaps::{options_of, HeapGame};
use crate::Error;
use rustc_hash::FxHashMap;
use serde::Serialize;

/// A genus `g^{γ₀γ₁...}`: `gamma` is the shortest prefix (at least two digits) from which the
/// last two digits alternate forever.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Genus {
    /// The normal-play Grundy value `g`.
    pub normal: u32,
    /// `γ₀, γ₁, ...` up to the point where the last two repeat.
    pub gamma: Vec<u32>,
}

fn mex(seen: &mut [bool]) -> u32 {
    let v = seen.iter().position(|&b| !b).unwrap_or(seen.len()) as u32;
    seen.iter_mut().for_each(|b| *b = false);
    v
}

fn mark(seen: &mut Vec<bool>, v: u32) {
    let v = v as usize;
    if seen.len() <= v {
        seen.resize(v + 1, false);
    }
    seen[v] = true;
}

impl Genus {
    /// The misère Grundy value `γ₀`.
    pub fn misere_value(&self) -> u32 {
        self.gamma[0]
    }

    /// `γₖ` for any `k`.
    pub fn digit(&self, k: usize) -> u32 {
        let n = self.gamma.len();
        if k < n {
            self.gamma[k]
        } else {
            self.gamma[n - 2 + ((k - (n - 2)) & 1)]
        }
    }

    /// The genus of a game whose options have the given genera (`G⁻(0) = 1` when there are
    /// none).
    pub fn from_options(options: &[&Genus]) -> Genus {
        let mut seen = Vec::new();
        for o in options {
            mark(&mut seen, o.normal);
        }
        let normal = mex(&mut seen);
        let last = options.iter().map(|o| o.gamma.len() - 1).max().unwrap_or(1) + 2;
        let mut gamma = Vec::with_capacity(last + 1);
        if options.is_empty() {
            gamma.push(1);
        } else {
            for o in options {
                mark(&mut seen, o.gamma[0]);
            }
            gamma.push(mex(&mut seen));
        }
        for k in 1..=last {
            let prev = gamma[k - 1];
            mark(&mut seen, prev);
            mark(&mut seen, prev ^ 1);
            for o in options {
                mark(&mut seen, o.digit(k));
            }
            gamma.push(mex(&mut seen));
        }
        while gamma.len() > 2 && gamma[gamma.len() - 1] == gamma[gamma.len() - 3] {
            gamma.pop();
        }
        Genus { normal, gamma }
    }

    /// The symbol as the literature prints it: `4^146`, or `12^(13,12,14)` when a digit
    /// exceeds 9.
    pub fn symbol(&self) -> String {
        let big = self.gamma.iter().any(|&d| d > 9);
        let digits: Vec<String> = self.gamma.iter().map(u32::to_string).collect();
        if big {
            format!("{}^({})", self.normal, digits.join(","))
        } else {
            format!("{}^{}", self.normal, digits.concat())
        }
    }
}

impl std::fmt::Display for Genus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.symbol())
    }
}

/// The genera of heaps `0..=n` as the front ends report them (`grundy takebreak --misere
/// --json` and Python's `misere_genus` give these keys): `game` (code or set), `n`,
/// `misere_values` (`G⁻ = γ₀` per heap), `normal_values` (`G⁺`), `genus` (symbols such as
/// `4^146`), `gamma` (the digits `γ₀γ₁...` per heap, up to where the last two repeat).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GenusReport {
    /// The game's name.
    pub game: String,
    /// The last heap.
    pub n: u64,
    /// `G⁻` of each heap.
    pub misere_values: Vec<u32>,
    /// `G⁺` of each heap.
    pub normal_values: Vec<u32>,
    /// The genus symbols.
    pub genus: Vec<String>,
    /// The digits of each genus.
    pub gamma: Vec<Vec<u32>>,
}

impl GenusReport {
    /// The genera of heaps `0..=n` of `game`, refused beyond `max_positions` positions.
    pub fn compute(game: &dyn HeapGame, n: u32, max_positions: usize) -> Result<Self, Error> {
        let genera = heap_genera(game, n, max_positions)?;
        Ok(GenusReport {
            game: game.name(),
            n: n as u64,
            misere_values: genera.iter().map(Genus::misere_value).collect(),
            normal_values: genera.iter().map(|g| g.normal).collect(),
            genus: genera.iter().map(Genus::symbol).collect(),
            gamma: genera.into_iter().map(|g| g.gamma).collect(),
        })
    }

    /// The human text: the misère Grundy values, then the genera on one line, or one heap
    /// per line when `one_per_line`.
    pub fn text(&self, one_per_line: bool) -> String {
        let n = self.n;
        let mut s = format!("{} in misère play, heaps 0..={n}\n", self.game);
        let vals: Vec<String> = self.misere_values.iter().map(u32::to_string).collect();
        s.push_str(&format!(
            "misère Grundy values G-(0..={n}): {}\n",
            vals.join(", ")
        ));
        if one_per_line {
            s.push_str("heap  genus\n");
            for (h, g) in self.genus.iter().enumerate() {
                s.push_str(&format!("{h:>4}  {g}\n"));
            }
        } else {
            s.push_str(&format!("genus: {}\n", self.genus.join(" ")));
        }
        s
    }
}

/// The genera of heaps `0..=n` of `game`. Refuses (as [`Error::TooLarge`]) when more than
/// `max_positions` positions would have to be evaluated.
pub fn heap_genera(game: &dyn HeapGame, n: u32, max_positions: usize) -> Result<Vec<Genus>, Error> {
    let options: Vec<Vec<Vec<u32>>> = (0..=n).map(|h| options_of(game, h)).collect();
    for (h, opts) in options.iter().enumerate() {
        if let Some(&bad) = opts.iter().flatten().find(|&&x| x as usize >= h) {
            return Err(Error::Invalid(format!(
                "heap {h} has an option with a heap of {bad}, not smaller: the game may loop"
            )));
        }
    }
    let mut memo: FxHashMap<Vec<u32>, Genus> = FxHashMap::default();
    let mut out = Vec::with_capacity(n as usize + 1);
    for h in 0..=n {
        let position = if options[h as usize].is_empty() {
            vec![]
        } else {
            vec![h]
        };
        out.push(genus_of(&options, &position, &mut memo, max_positions)?);
    }
    Ok(out)
}

/// The genus of the position made of `heaps` (any multiset of heaps of `game`), by the same
/// recursion over every position it can reach; refused beyond `max_positions` positions.
pub fn position_genus(
    game: &dyn HeapGame,
    heaps: &[u32],
    max_positions: usize,
) -> Result<Genus, Error> {
    let n = heaps.iter().copied().max().unwrap_or(0);
    let options: Vec<Vec<Vec<u32>>> = (0..=n).map(|h| options_of(game, h)).collect();
    for (h, opts) in options.iter().enumerate() {
        if let Some(&bad) = opts.iter().flatten().find(|&&x| x as usize >= h) {
            return Err(Error::Invalid(format!(
                "heap {h} has an option with a heap of {bad}, not smaller: the game may loop"
            )));
        }
    }
    let mut position: Vec<u32> = heaps
        .iter()
        .copied()
        .filter(|&h| !options[h as usize].is_empty())
        .collect();
    position.sort_unstable();
    let mut memo: FxHashMap<Vec<u32>, Genus> = FxHashMap::default();
    genus_of(&options, &position, &mut memo, max_positions)
}

/// Iterative evaluation of one position's genus (positions: sorted heaps that have options).
fn genus_of(
    options: &[Vec<Vec<u32>>],
    start: &[u32],
    memo: &mut FxHashMap<Vec<u32>, Genus>,
    max_positions: usize,
) -> Result<Genus, Error> {
    if let Some(g) = memo.get(start) {
        return Ok(g.clone());
    }
    let mut stack: Vec<(Vec<u32>, bool)> = vec![(start.to_vec(), false)];
    while let Some((pos, expanded)) = stack.pop() {
        if memo.contains_key(&pos) {
            continue;
        }
        let opts = position_options(options, &pos);
        if expanded {
            let genera: Vec<&Genus> = opts.iter().map(|o| &memo[o]).collect();
            let g = Genus::from_options(&genera);
            if memo.len() >= max_positions {
                return Err(Error::TooLarge(format!(
                    "too large to brute-force: the genus needs more than {max_positions} positions (sums of smaller heaps)"
                )));
            }
            memo.insert(pos, g);
        } else {
            stack.push((pos, true));
            for o in opts {
                if !memo.contains_key(&o) {
                    stack.push((o, false));
                }
            }
        }
    }
    Ok(memo[start].clone())
}

/// Options of a position (sorted heaps, each with options), as positions of the same kind.
fn position_options(options: &[Vec<Vec<u32>>], pos: &[u32]) -> Vec<Vec<u32>> {
    let mut out = Vec::new();
    for (i, &h) in pos.iter().enumerate() {
        if i > 0 && pos[i - 1] == h {
            continue;
        }
        for o in &options[h as usize] {
            let mut q: Vec<u32> = Vec::with_capacity(pos.len() + o.len());
            q.extend_from_slice(&pos[..i]);
            q.extend_from_slice(&pos[i + 1..]);
            q.extend(
                o.iter()
                    .copied()
                    .filter(|&x| !options[x as usize].is_empty()),
            );
            q.sort_unstable();
            out.push(q);
        }
    }
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::subtraction::SubtractionSet;
    use crate::takebreak::Rules;
    use std::collections::HashMap;

    /// G⁻ of heaps + `twos` nim-heaps *2 + `ones` nim-heaps *1, by plain search over the
    /// explicit sum (no genus arithmetic, no `*1` shortcut).
    fn brute(
        options: &[Vec<Vec<u32>>],
        heaps: Vec<u32>,
        twos: u32,
        ones: u32,
        memo: &mut HashMap<(Vec<u32>, u32, u32), u32>,
    ) -> u32 {
        let key = (heaps.clone(), twos, ones);
        if let Some(&v) = memo.get(&key) {
            return v;
        }
        let mut values = Vec::new();
        for (i, &h) in heaps.iter().enumerate() {
            for o in &options[h as usize] {
                let mut q: Vec<u32> = heaps[..i].iter().chain(&heaps[i + 1..]).copied().collect();
                q.extend(o.iter().copied().filter(|&x| x > 0));
                q.sort_unstable();
                values.push(brute(options, q, twos, ones, memo));
            }
        }
        if twos > 0 {
            values.push(brute(options, heaps.clone(), twos - 1, ones + 1, memo));
            values.push(brute(options, heaps.clone(), twos - 1, ones, memo));
        }
        if ones > 0 {
            values.push(brute(options, heaps.clone(), twos, ones - 1, memo));
        }
        let v = if values.is_empty() {
            1
        } else {
            (0..).find(|v| !values.contains(v)).unwrap()
        };
        memo.insert(key, v);
        v
    }

    fn check_against_brute(game: &dyn HeapGame, n: u32) {
        let genera = heap_genera(game, n, 1 << 20).unwrap();
        let options: Vec<Vec<Vec<u32>>> = (0..=n).map(|h| options_of(game, h)).collect();
        let mut memo = HashMap::new();
        for h in 0..=n {
            let heaps = if h == 0 { vec![] } else { vec![h] };
            for k in 0..genera[h as usize].gamma.len() as u32 + 3 {
                let v = brute(&options, heaps.clone(), k, 0, &mut memo);
                assert_eq!(
                    genera[h as usize].digit(k as usize),
                    v,
                    "{} heap {h}: gamma_{k}",
                    game.name()
                );
            }
        }
    }

    #[test]
    fn kayles_genera_match_winning_ways() {
        let kayles = Rules::parse("0.77").unwrap();
        let g = heap_genera(&kayles, 5, 1 << 20).unwrap();
        let symbols: Vec<String> = g.iter().map(Genus::symbol).collect();
        // Heaps 0..3 of Kayles are the nim-heaps 0, *1, *2, *3; heap 5 is Winning Ways' 4^146.
        assert_eq!(symbols[0], "0^120");
        assert_eq!(symbols[1], "1^031");
        assert_eq!(symbols[2], "2^20");
        assert_eq!(symbols[3], "3^31");
        assert_eq!(symbols[5], "4^146");
        assert_eq!(g[5].misere_value(), 1);
    }

    #[test]
    fn genera_match_plain_search() {
        for code in ["0.77", "0.07", "0.137", "0.6", "0.75", "4.7", "0.31", "0.F"] {
            check_against_brute(&Rules::parse(code).unwrap(), 9);
        }
        check_against_brute(&SubtractionSet::finite(vec![1, 3, 4]).unwrap(), 12);
        check_against_brute(&SubtractionSet::all_but(vec![2]).unwrap(), 8);
    }

    #[test]
    fn refuses_too_many_positions() {
        let kayles = Rules::parse("0.77").unwrap();
        assert!(matches!(
            heap_genera(&kayles, 40, 100),
            Err(Error::TooLarge(_))
        ));
    }
}
