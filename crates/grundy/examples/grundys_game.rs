//! Grundy's game written against [`grundy::Game`] as a user would, not with the library's
//! take-and-break engine: a position is a multiset of heaps, a move splits one heap into two
//! non-empty heaps of different sizes, and each heap is a component.
//!
//! ```sh
//! cargo run --release -p grundy --example grundys_game -- 5000             # G(5000)
//! cargo run --release -p grundy --example grundys_game -- --sequence 5000  # G(0..=5000)
//! ```

use grundy::{Game, NormalPlay, OptionParts};
use smallvec::SmallVec;

/// The heaps of a position, sorted, without heaps of 1 or 2 (they cannot be split: value 0).
/// Up to four heaps are kept inline, so an option costs no allocation.
type Heaps = SmallVec<[u32; 4]>;

struct GrundysGame;

impl Game for GrundysGame {
    type Position = Heaps;

    fn options(&self, heaps: &Heaps, out: &mut Vec<Heaps>) {
        for (i, &h) in heaps.iter().enumerate() {
            if i > 0 && heaps[i - 1] == h {
                continue; // an equal heap gives the same options
            }
            // split h into a and h - a with 0 < a < h - a
            let mut rest = Heaps::from_slice(&heaps[..i]);
            rest.extend_from_slice(&heaps[i + 1..]);
            for a in 1..h.div_ceil(2) {
                let mut next = rest.clone();
                for k in [a, h - a] {
                    if k > 2 {
                        next.push(k);
                    }
                }
                next.sort_unstable();
                out.push(next);
            }
        }
    }

    /// Each heap is an independent game.
    fn components(&self, heaps: &Heaps) -> Option<Vec<Heaps>> {
        (heaps.len() > 1).then(|| heaps.iter().map(|&h| Heaps::from_slice(&[h])).collect())
    }

    /// The options of one heap as their two heaps, in the order of `options` (the engine
    /// splits any other position with `components` first, so it asks only about one heap).
    fn option_parts(&self, heaps: &Heaps, out: &mut OptionParts<Heaps>) -> bool {
        let [h] = heaps[..] else { return false };
        for a in 1..h.div_ceil(2) {
            // heaps of 1 or 2 are terminal: left out
            let parts = [a, h - a].into_iter().filter(|&k| k > 2);
            out.push_option(parts.map(|k| Heaps::from_slice(&[k])));
        }
        true
    }

    /// A part is one heap.
    fn parts_are_final(&self) -> bool {
        true
    }
}

/// The position of one heap of `n`.
fn heap(n: u32) -> Heaps {
    if n > 2 {
        Heaps::from_slice(&[n])
    } else {
        Heaps::new()
    }
}

/// G(0..=n) with one evaluator (each heap's value reuses the smaller ones').
fn sequence(n: u32) -> Vec<u64> {
    let mut solver = NormalPlay::new(GrundysGame);
    (0..=n)
        .map(|k| solver.grundy_value(&heap(k)).expect("a finite game"))
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (whole, arg) = match args.as_slice() {
        [n] => (false, n),
        [flag, n] if flag == "--sequence" => (true, n),
        _ => {
            eprintln!("error: usage: grundys_game [--sequence] N   (N from 0 to 20000)");
            std::process::exit(2);
        }
    };
    let n: u32 = match arg.parse() {
        Ok(n) if n <= 20_000 => n,
        _ => {
            eprintln!(
                "error: N must be a heap size from 0 to 20000 (work grows as N^2), got {arg:?}"
            );
            std::process::exit(2);
        }
    };
    if whole {
        let g: Vec<String> = sequence(n).iter().map(u64::to_string).collect();
        println!("{}", g.join(" "));
    } else {
        let mut solver = NormalPlay::new(GrundysGame);
        let v = solver.grundy_value(&heap(n)).expect("a finite game");
        println!("G({n}) = {v}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use grundy::takebreak::naive::sequence_of;
    use grundy::takebreak::rules::Rules;

    /// The plain recurrence by hand: G(n) = mex{ G(a) xor G(n - a) : 0 < a < n - a }.
    fn by_hand(n: usize) -> Vec<u64> {
        let mut g = vec![0u64; n + 1];
        for k in 0..=n {
            let mut seen = vec![false; k + 2];
            for a in 1..k.div_ceil(2) {
                let v = (g[a] ^ g[k - a]) as usize;
                if v < seen.len() {
                    seen[v] = true;
                }
            }
            g[k] = seen.iter().position(|&s| !s).unwrap() as u64;
        }
        g
    }

    #[test]
    fn the_sequence_matches_the_recurrence_and_the_take_and_break_engine() {
        let n = 600;
        let ours = sequence(n as u32);
        assert_eq!(ours, by_hand(n));
        let engine: Vec<u64> = sequence_of(&Rules::GrundysGame, n)
            .unwrap()
            .into_iter()
            .map(u64::from)
            .collect();
        assert_eq!(ours, engine);
        // the start of the published sequence (OEIS A002188)
        assert_eq!(ours[..12], [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2]);
    }

    #[test]
    fn sums_of_heaps_are_nim_sums_and_only_heaps_are_stored() {
        let g = by_hand(40);
        let mut solver = NormalPlay::new(GrundysGame);
        for a in 3..40u32 {
            for b in a..40u32 {
                let sum = Heaps::from_slice(&[a, b]);
                let v = solver.grundy_value(&sum).unwrap();
                assert_eq!(v, g[a as usize] ^ g[b as usize], "{a} + {b}");
            }
        }
        // the heaps 3..=39 only: no sum, no heap of 1 or 2 and not even the empty position
        // (terminal parts are left out)
        assert_eq!(solver.positions_evaluated(), 37);
    }

    #[test]
    fn option_parts_are_the_options_split() {
        for h in 3..60u32 {
            let p = heap(h);
            let mut parts = OptionParts::new();
            assert!(GrundysGame.option_parts(&p, &mut parts));
            let options = GrundysGame.options_vec(&p);
            assert_eq!(parts.len(), options.len(), "heap {h}");
            for (i, option) in options.iter().enumerate() {
                let want = GrundysGame
                    .components(option)
                    .unwrap_or_else(|| vec![option.clone()]);
                let want: Vec<Heaps> = want.into_iter().filter(|p| !p.is_empty()).collect();
                assert_eq!(parts.get(i), &want[..], "heap {h} option {i}");
            }
        }
        // a sum is left to `components`
        assert!(!GrundysGame.option_parts(&Heaps::from_slice(&[3, 4]), &mut OptionParts::new()));
    }
}
