//! The registry of families by name: the one place that maps a game's spec (`nim`,
//! `subtraction:1,3,4`, `takebreak:0.77`, `cdnim`) to its rules — the CLI's `--game SPEC` and
//! the Python package's `game=` read it.
//!
//! Generic evaluators (multiplayer play today) work on any [`crate::Game`]; a front end that
//! lets the user pick the game calls [`parse_game`] and gets the rules as a trait object over
//! heap-list positions, plus how to turn the typed heaps into the game's canonical position.
//! Adding a family is one match arm in [`parse_game`] and one line in [`KNOWN`].

use crate::games::{nim, subtraction};
use crate::text::parse_u64_list;
use crate::{Error, Game};

/// Rules over positions written as a list of heaps.
pub type HeapGame = Box<dyn Game<Position = Vec<u64>>>;

/// An upper bound on the brute-force work for a position (see [`GameChoice::work`]).
pub type WorkBound = Box<dyn Fn(&[u64]) -> u128>;

/// A game chosen with `--game`.
pub struct GameChoice {
    /// The spec in canonical spelling, e.g. `nim`, `subtraction:1,3,4`.
    pub spec: String,
    /// The game's name for people, e.g. `subtraction game {1, 3, 4}`.
    pub name: String,
    /// The rules.
    pub game: HeapGame,
    /// The game's canonical position for the heaps as typed (e.g. sorted, for the memo).
    pub position: fn(&[u64]) -> Vec<u64>,
    /// An upper bound on the work of evaluating a position with a brute-force reading: the
    /// number of (position, option) pairs it may visit. Commands refuse positions above their
    /// budget up front instead of running for hours.
    pub work: WorkBound,
    /// Whether this is plain Nim (Li's `oplus_m` and the Nim theorems apply).
    pub is_nim: bool,
}

/// The specs [`parse_game`] understands, for help texts and error messages.
pub const KNOWN: &[&str] = &[
    "nim",
    "subtraction:LIST (e.g. subtraction:1,3,4)",
    "takebreak:CODE (e.g. takebreak:0.77, takebreak:kayles, takebreak:grundys-game)",
    "cdnim",
];

/// The names of [`KNOWN`], for "did you mean" hints.
pub const NAMES: [&str; 5] = ["nim", "subtraction", "takebreak", "octal", "cdnim"];

/// Take-and-break rules over `u64` heap lists (the family's own positions are `u32` lists
/// without empty heaps). The work bound refuses heaps above `u32::MAX` before any conversion.
struct TakeBreakHeaps(crate::takebreak::TakeBreakGame);

fn to_u32(p: &[u64]) -> Vec<u32> {
    p.iter().map(|&h| h as u32).collect()
}

impl Game for TakeBreakHeaps {
    type Position = Vec<u64>;
    fn options(&self, position: &Vec<u64>, out: &mut Vec<Vec<u64>>) {
        let mut buf = Vec::new();
        self.0.options(&to_u32(position), &mut buf);
        out.extend(
            buf.into_iter()
                .map(|q| q.into_iter().map(u64::from).collect()),
        );
    }
    fn components(&self, position: &Vec<u64>) -> Option<Vec<Vec<u64>>> {
        (position.len() > 1).then(|| position.iter().map(|&h| vec![h]).collect())
    }
}

fn non_empty_sorted(heaps: &[u64]) -> Vec<u64> {
    let mut p: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
    p.sort_unstable();
    p
}

/// Work bound for take-and-break play from heaps of total `s`: every reachable position is a
/// multiset of heaps with total at most `s` (so at most sum_{t<=s} p(t) of them, p the
/// partition numbers), each with at most `s * s * (last digit + 1)` options.
fn takebreak_work(heaps: &[u64], digits: usize) -> u128 {
    if heaps.iter().any(|&h| h > u32::MAX as u64) {
        return u128::MAX;
    }
    let s: u64 = heaps.iter().sum();
    if s > 5_000 {
        return u128::MAX;
    }
    let positions = crate::young::Partition::count_up_to(s);
    let options = (s as u128 + 1) * (s as u128 + 1) * (digits as u128 + 1);
    positions.saturating_mul(options)
}

fn sorted(heaps: &[u64]) -> Vec<u64> {
    let mut p = heaps.to_vec();
    p.sort_unstable();
    p
}

/// An upper bound on the positions a game that only shrinks one heap at a time can reach from
/// `heaps`, as sorted heap lists: each is componentwise at most the sorted start, so count
/// the non-decreasing tuples `a_1 <= ... <= a_k` with `a_i <= h_i` (a small dynamic program),
/// or fall back to `prod (h + 1)` when the heaps are too large to count that way.
fn reachable_sorted_positions(heaps: &[u64]) -> u128 {
    let product = heaps
        .iter()
        .fold(1u128, |acc, &h| acc.saturating_mul(h as u128 + 1));
    let mut h = heaps.to_vec();
    h.sort_unstable();
    let Some(&top) = h.last() else {
        return 1;
    };
    if (h.len() as u128).saturating_mul(top as u128 + 1) > 20_000_000 {
        return product;
    }
    // ways[v] = number of admissible prefixes a_1..a_i ending in a_i = v.
    let mut ways = vec![1u128; h[0] as usize + 1];
    for &limit in &h[1..] {
        let mut next = Vec::with_capacity(limit as usize + 1);
        let mut below = 0u128;
        for v in 0..=limit as usize {
            below = below.saturating_add(ways.get(v).copied().unwrap_or(0));
            next.push(below);
        }
        ways = next;
    }
    ways.iter().fold(0u128, |acc, &w| acc.saturating_add(w))
}

/// Work bound for games whose moves only shrink one heap: the reachable positions times
/// `options`, the most options one of them can have.
fn shrinking_heaps_work(heaps: &[u64], options: u128) -> u128 {
    reachable_sorted_positions(heaps).saturating_mul(options.max(1))
}

/// The game named by `spec`: `NAME` or `NAME:PARAMETERS`.
pub fn parse_game(spec: &str) -> Result<GameChoice, Error> {
    let spec = spec.trim();
    let (name, parameters) = match spec.split_once(':') {
        Some((n, p)) => (n.trim().to_ascii_lowercase(), Some(p.trim())),
        None => (spec.to_ascii_lowercase(), None),
    };
    match (name.as_str(), parameters) {
        ("nim", None) => Ok(GameChoice {
            spec: "nim".into(),
            name: "Nim".into(),
            game: Box::new(nim::nim()),
            position: sorted,
            // A heap of h has h options.
            work: Box::new(|heaps| {
                shrinking_heaps_work(heaps, heaps.iter().map(|&h| h as u128).sum())
            }),
            is_nim: true,
        }),
        ("subtraction", Some(list)) => {
            let mut moves = parse_u64_list("subtraction", list)?;
            let set = subtraction::SubtractionSet::finite(moves.clone())?;
            moves.sort_unstable();
            moves.dedup();
            let canonical = moves
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(",");
            Ok(GameChoice {
                spec: format!("subtraction:{canonical}"),
                name: format!("subtraction game {set}"),
                game: Box::new(subtraction::subtraction(set)),
                position: sorted,
                // Each heap has at most |S| options.
                work: Box::new(move |heaps| {
                    shrinking_heaps_work(heaps, heaps.len() as u128 * moves.len() as u128)
                }),
                is_nim: false,
            })
        }
        ("takebreak" | "octal", Some(code)) => {
            let rules = crate::takebreak::Rules::parse(code)?;
            let digits = rules.code().map_or(1, |c| c.last_nonzero());
            Ok(GameChoice {
                spec: format!("takebreak:{rules}"),
                name: format!("take-and-break game {rules}"),
                game: Box::new(TakeBreakHeaps(crate::takebreak::TakeBreakGame::new(rules))),
                position: non_empty_sorted,
                work: Box::new(move |heaps| takebreak_work(heaps, digits)),
                is_nim: false,
            })
        }
        ("cdnim", None) => Ok(GameChoice {
            spec: "cdnim".into(),
            name: "common-divisor Nim".into(),
            game: Box::new(crate::games::cdnim::CommonDivisorNim),
            position: sorted,
            // Each heap can lose at most max(heaps) different common divisors.
            work: Box::new(|heaps| {
                let top = heaps.iter().copied().max().unwrap_or(0) as u128;
                shrinking_heaps_work(heaps, heaps.len() as u128 * top)
            }),
            is_nim: false,
        }),
        ("takebreak" | "octal", None) => Err(Error::Invalid(
            "the game 'takebreak' needs its code, e.g. --game takebreak:0.77".into(),
        )),
        ("cdnim", Some(_)) => Err(Error::Invalid(
            "the game 'cdnim' takes no parameters".into(),
        )),
        ("nim", Some(_)) => Err(Error::Invalid("the game 'nim' takes no parameters".into())),
        ("subtraction", None) => Err(Error::Invalid(
            "the game 'subtraction' needs its set, e.g. --game subtraction:1,3,4".into(),
        )),
        _ => Err(Error::Invalid(format!(
            "unknown game '{spec}'{}; known games: {}",
            crate::text::did_you_mean(&name, &NAMES),
            KNOWN.join(", ")
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_map_to_games() {
        let g = parse_game("nim").unwrap();
        assert!(g.is_nim);
        assert_eq!(g.game.options_vec(&vec![2]).len(), 2);
        assert_eq!((g.position)(&[3, 1, 2]), vec![1, 2, 3]);
        // sorted triples below (1, 2, 3) componentwise: 14 of them, each with < 7 options
        assert_eq!((g.work)(&[3, 1, 2]), 14 * 6);
        assert_eq!((g.work)(&[u64::MAX, u64::MAX, u64::MAX]), u128::MAX);
        let g = parse_game("Subtraction: 4,1,3").unwrap();
        assert_eq!(g.spec, "subtraction:1,3,4");
        assert!(!g.is_nim);
        assert_eq!(
            g.game.options_vec(&vec![4]),
            vec![vec![3], vec![1], vec![0]]
        );
    }

    #[test]
    fn reachable_positions_are_counted_exactly_for_nim() {
        use crate::solve::Solver;
        for heaps in [
            vec![3, 1, 2],
            vec![4, 4, 4],
            vec![0, 5],
            vec![2, 3, 3, 6],
            vec![7],
        ] {
            // The multiplayer evaluator stores exactly the reachable positions of Nim.
            let mut solver = Solver::propp(nim::nim());
            solver.value(&sorted(&heaps)).unwrap();
            assert_eq!(
                reachable_sorted_positions(&heaps),
                solver.positions_evaluated() as u128,
                "{heaps:?}"
            );
        }
        // too large to count: the product bound
        assert_eq!(
            reachable_sorted_positions(&[u64::MAX, 1]),
            (1u128 << 64) * 2
        );
    }

    #[test]
    fn bad_specs_say_what_is_known() {
        let e = parse_game("chess").err().unwrap().to_string();
        assert!(
            e.contains("unknown game 'chess'") && e.contains("nim"),
            "{e}"
        );
        assert!(parse_game("subtraction").is_err());
        assert!(parse_game("subtraction:0,1").is_err());
        assert!(parse_game("nim:3").is_err());
    }
}
