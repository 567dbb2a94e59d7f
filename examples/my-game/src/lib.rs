//! Subtract-a-square on several heaps: a move takes a positive square number (1, 4, 9, ...) of
//! tokens from one heap. The rules are all we write; the grundy library gives the values,
//! outcomes, winning moves, and an explicit game graph for the `grundy` command line.

use grundy::Game;

/// The game. A position is a list of heaps.
#[derive(Debug, Clone, Copy, Default)]
pub struct SquareTake;

impl Game for SquareTake {
    type Position = Vec<u64>;

    /// Every position one move away.
    fn options(&self, heaps: &Vec<u64>, out: &mut Vec<Vec<u64>>) {
        for (i, &h) in heaps.iter().enumerate() {
            let mut k = 1;
            while k * k <= h {
                let mut next = heaps.clone();
                next[i] = h - k * k;
                out.push(next);
                k += 1;
            }
        }
    }

    /// Several heaps are a sum of one-heap games: the engines xor the heaps' values
    /// (Sprague–Grundy) instead of exploring every combination.
    fn components(&self, heaps: &Vec<u64>) -> Option<Vec<Vec<u64>>> {
        (heaps.len() > 1).then(|| heaps.iter().map(|&h| vec![h]).collect())
    }
}

/// G(0..=n) of one heap by the definition (mex of the options' values), written out by hand:
/// what the tests compare the library's answers with.
pub fn values_by_hand(n: usize) -> Vec<u64> {
    let mut g = Vec::with_capacity(n + 1);
    for h in 0..=n {
        let mut seen = vec![false; h + 2];
        let mut k = 1;
        while k * k <= h {
            seen[g[h - k * k] as usize] = true;
            k += 1;
        }
        g.push(seen.iter().position(|s| !s).unwrap_or(0) as u64);
    }
    g
}
