//! Heap games: rules that act on one heap at a time, the setting of misère quotients.
//!
//! A [`HeapGame`] lists the options of a single heap as multisets of smaller heaps. Take-and-break
//! codes (and Grundy's game) and subtraction games are heap games; so is any rule a user writes
//! against this trait, and so are the component positions of any finite game
//! ([`super::components`]), numbered `1, 2, ...` in order of size.

use crate::games::subtraction::SubtractionSet;
use crate::takebreak::{Rules, TakeBreakGame};

/// Rules under which every move acts on one heap, leaving a multiset of heaps.
pub trait HeapGame {
    /// Every option of one heap of `n`, each a list of heaps (zeros may be omitted; duplicates
    /// allowed).
    fn heap_options(&self, n: u32, visit: &mut dyn FnMut(&[u32]));

    /// The game's name as the user wrote it (canonical form), for reports.
    fn name(&self) -> String;

    /// For the periodicity certificate: `(j, t)` when every move leaves at most `j` heaps and
    /// removes at most `t` tokens (both bounded), else `None`.
    fn move_bounds(&self) -> Option<(u32, u32)>;

    /// The size of heap `n` in the order in which positions are searched: a position's size
    /// is the sum of its heaps' sizes, and every option of heap `n` must have a smaller size,
    /// or the same size in more than one heap (the engine refuses a game that breaks this).
    /// Heaps with options have size at least 1. The default, `n` itself, suits heap games;
    /// the heaps of a general game ([`super::components`]) are its component positions,
    /// numbered in order of size.
    fn tokens(&self, n: u32) -> u64 {
        n as u64
    }
}

impl HeapGame for Rules {
    fn heap_options(&self, n: u32, visit: &mut dyn FnMut(&[u32])) {
        TakeBreakGame::new(self.clone()).heap_moves(n, |_, left| visit(left));
    }

    fn name(&self) -> String {
        self.to_string()
    }

    fn move_bounds(&self) -> Option<(u32, u32)> {
        match self {
            // Grundy's game removes nothing but forbids equal parts: the shift argument of the
            // certificate (add the period to the largest part) can create equal parts.
            Rules::GrundysGame => None,
            Rules::Code(c) => Some((c.max_heaps_left(), c.last_nonzero() as u32)),
        }
    }
}

impl HeapGame for SubtractionSet {
    fn heap_options(&self, n: u32, visit: &mut dyn FnMut(&[u32])) {
        match self {
            SubtractionSet::Finite(v) => {
                for &s in v {
                    if s > n as u64 {
                        break;
                    }
                    visit(&[n - s as u32]);
                }
            }
            SubtractionSet::AllBut(v) => {
                for s in 1..=n as u64 {
                    if v.binary_search(&s).is_err() {
                        visit(&[n - s as u32]);
                    }
                }
            }
        }
    }

    fn name(&self) -> String {
        self.to_string()
    }

    fn move_bounds(&self) -> Option<(u32, u32)> {
        match self {
            SubtractionSet::Finite(v) => v.last().map(|&t| (1, t.min(u32::MAX as u64) as u32)),
            SubtractionSet::AllBut(_) => None,
        }
    }
}

/// The options of heap `n`, each sorted with zeros dropped.
pub fn options_of(game: &dyn HeapGame, n: u32) -> Vec<Vec<u32>> {
    let mut out = Vec::new();
    game.heap_options(n, &mut |left| {
        let mut o: Vec<u32> = left.iter().copied().filter(|&h| h > 0).collect();
        o.sort_unstable();
        out.push(o);
    });
    out.sort();
    out.dedup();
    out
}
