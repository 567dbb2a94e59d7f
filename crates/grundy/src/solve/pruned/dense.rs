//! Exact values in a plain array of bytes, indexed by the game's dense numbering of its
//! positions ([`Game::dense_index`]): one memory access per look-up and one byte per position,
//! where the hashed [`super::Table`] pays 16 bytes per slot, a hash and often a cache miss.
//! Only exact values below [`Dense::MAX_VALUE`] live here; partial knowledge and larger
//! values stay in the hashed table.

use crate::{Game, Nimber};

/// The exact values of the positions numbered by [`Game::dense_index`] for one start.
pub struct Dense<P> {
    /// The start whose numbering this is (passed to every [`Game::dense_index`]).
    start: P,
    /// `0` for unknown, else the value plus one.
    values: Vec<u8>,
    stored: usize,
}

impl<P> Dense<P> {
    /// The largest value the array holds (a byte keeps `v + 1`, and `0` means unknown).
    pub const MAX_VALUE: Nimber = 254;

    /// An array for the numbering of `game` from `start`, when the game has one and its
    /// `n` bytes are at most `budget`; `None` otherwise.
    pub fn for_start<G: Game<Position = P>>(game: &G, start: &P, budget: usize) -> Option<Self>
    where
        P: Clone,
    {
        let n = game.dense_size(start)?;
        (n <= budget).then(|| Dense {
            start: start.clone(),
            values: vec![0; n],
            stored: 0,
        })
    }

    /// The slot of `p`, if the numbering has one for it.
    pub fn index<G: Game<Position = P>>(&self, game: &G, p: &P) -> Option<usize> {
        game.dense_index(&self.start, p)
            .filter(|&i| i < self.values.len())
    }

    /// The exact value in slot `i`, if known.
    pub fn get(&self, i: usize) -> Option<Nimber> {
        match self.values[i] {
            0 => None,
            b => Some(Nimber::from(b) - 1),
        }
    }

    /// Record value `v` in slot `i`; `false` (nothing stored) when `v` is above
    /// [`MAX_VALUE`](Self::MAX_VALUE).
    pub fn put(&mut self, i: usize, v: Nimber) -> bool {
        if v > Self::MAX_VALUE {
            return false;
        }
        self.stored += usize::from(self.values[i] == 0);
        self.values[i] = v as u8 + 1;
        true
    }

    /// Values stored.
    pub fn len(&self) -> usize {
        self.stored
    }

    /// Whether no value is stored.
    pub fn is_empty(&self) -> bool {
        self.stored == 0
    }

    /// Bytes of the array.
    pub fn bytes(&self) -> usize {
        self.values.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Heap;
    impl Game for Heap {
        type Position = u32;
        fn options(&self, p: &u32, out: &mut Vec<u32>) {
            out.extend(0..*p);
        }
        fn dense_size(&self, start: &u32) -> Option<usize> {
            Some(*start as usize + 1)
        }
        fn dense_index(&self, _start: &u32, p: &u32) -> Option<usize> {
            Some(*p as usize)
        }
    }

    #[test]
    fn values_up_to_254_are_kept_larger_ones_refused_and_foreign_numbers_ignored() {
        assert!(Dense::for_start(&Heap, &1000, 1000).is_none());
        let mut d = Dense::for_start(&Heap, &999, 1000).unwrap();
        assert_eq!(d.bytes(), 1000);
        assert_eq!(d.index(&Heap, &5), Some(5));
        // A number beyond the start's range is ignored, not trusted.
        assert_eq!(d.index(&Heap, &1000), None);
        assert_eq!(d.get(5), None);
        assert!(d.put(5, 0) && d.put(6, 254));
        assert!(!d.put(7, 255));
        assert_eq!((d.get(5), d.get(6), d.get(7)), (Some(0), Some(254), None));
        assert!(d.put(5, 0));
        assert_eq!(d.len(), 2);
    }

    #[test]
    fn the_solver_keeps_small_values_in_the_array_and_larger_ones_in_the_table() {
        use crate::solve::PrunedSolver;
        // A Nim heap of n has value n: values above 254 must go to the hashed table.
        let mut solver = PrunedSolver::new(Heap);
        assert_eq!(solver.grundy_value(&300).unwrap(), 300);
        let s = solver.stats();
        assert_eq!(s.stored, 301);
        assert!(s.table_bytes >= 301, "{s:?}");
        for n in [0, 7, 254, 255, 299] {
            assert!(solver.has_value(&n, n.into()).unwrap());
            assert!(!solver.has_value(&n, u64::from(n) + 1).unwrap());
        }
        // Numbered from the heap of 0 first, the table alone answers the same.
        let mut table = PrunedSolver::new(Heap);
        assert_eq!(table.grundy_value(&0).unwrap(), 0);
        assert_eq!(table.grundy_value(&300).unwrap(), 300);
        assert!(table.stats().table_bytes >= 301 * 16);
        // An array larger than half the budget (13 bytes of 16): no array, only the table's
        // smallest size (4 buckets of 64 bytes).
        let mut small = PrunedSolver::with_memory(Heap, 16);
        assert_eq!(small.grundy_value(&12).unwrap(), 12);
        assert_eq!(small.stats().table_bytes, 256);
    }
}
