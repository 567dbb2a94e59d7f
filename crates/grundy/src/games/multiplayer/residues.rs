//! Teams of players: the residue reduction (ours; proof in `docs/multiplayer.md`, "Teams").
//!
//! Let `d` divide `m`, `1 < d < m`. Call `GAMES(k1, ..., km)` **grouped mod d** when its
//! offsets come in blocks by residue mod `d`: first every offset `≡ r1`, then every offset
//! `≡ r2`, ..., then every offset `≡ rd` (so `r1, ..., rd` is a permutation of `0..d`). Every
//! player then cares first about the *team* of the last mover — the players a multiple of `d`
//! seats apart — and only then about who in that team it is. For any finite impartial game
//! (Nim or not):
//!
//! **Theorem (residue reduction).** Under an order grouped mod `d` with residue order
//! `r1..rd`, the class of every position, taken mod `d`, is its class under the `d`-player
//! order `GAMES(r1, ..., rd)`.
//!
//! Proof sketch (the proof is in the docs): induction on the game tree. A terminal position
//! has class `m - 1 ≡ d - 1`, the `d`-player terminal class. Otherwise the mover is offered the
//! offsets `c' + 1` for the classes `c'` of the options; it takes the first offset of its order
//! on offer, and because the order is grouped, the residue of that offset is the first residue
//! `r_j` on offer — by induction the residues on offer are `c'_d + 1` for the options' `d`-player
//! classes, which is exactly the `d`-player rule.
//!
//! With `d = 2` the two-player game is normal play (`r1 = 0`) or misère play (`r1 = 1`), so for
//! Nim the parity of the class has a closed form ([`class_parity`]): by Thm 4.2 with `m = 2`, a
//! position's class is `≡ r1 - 1 (mod 2)` exactly when its nim-sum is 0 (if some heap exceeds
//! one) or equals `r1` (if every heap is at most one). For four players this settles the parity
//! of the class for 8 of the 24 orders, all of them among the 16 the paper leaves open.

use super::li::thm_4_2_is_target;
use num_bigint::BigUint;

/// The residue order `r1..rd` when `order` is grouped mod `d` (see the module documentation);
/// `None` when it is not, or when `d` does not properly divide `m` (`1 < d < m`).
pub fn grouping(order: &[usize], d: usize) -> Option<Vec<usize>> {
    let m = order.len();
    if d < 2 || d >= m || m % d != 0 {
        return None;
    }
    let block = m / d;
    let residues: Vec<usize> = order.chunks(block).map(|c| c[0] % d).collect();
    let grouped = order
        .chunks(block)
        .zip(&residues)
        .all(|(c, &r)| c.iter().all(|&k| k % d == r));
    grouped.then_some(residues)
}

/// Every `(d, r1..rd)` for which `order` is grouped mod `d`, smallest `d` first.
pub fn groupings(order: &[usize]) -> Vec<(usize, Vec<usize>)> {
    (2..order.len())
        .filter_map(|d| grouping(order, d).map(|r| (d, r)))
        .collect()
}

/// The parity of the class of a Nim position under an order grouped mod 2 whose first
/// residue is `r1` (0: the player's own team first, i.e. normal play between the teams; 1:
/// the other team first, misère play).
pub fn class_parity(heaps: &[BigUint], r1: usize) -> usize {
    let target = (r1 + 1) % 2; // (r1 - 1) mod 2
    if thm_4_2_is_target(heaps, 2, r1 as u32) {
        target
    } else {
        1 - target
    }
}

#[cfg(test)]
mod tests {
    use super::super::tables::{all_orders, Domain, Table};
    use super::*;

    #[test]
    fn groupings_of_four_and_six_players() {
        assert_eq!(grouping(&[0, 2, 1, 3], 2), Some(vec![0, 1]));
        assert_eq!(grouping(&[3, 1, 2, 0], 2), Some(vec![1, 0]));
        assert_eq!(grouping(&[0, 1, 2, 3], 2), None);
        assert_eq!(grouping(&[0, 1, 2, 3], 4), None);
        assert_eq!(grouping(&[0, 1, 2], 2), None);
        let grouped4 = all_orders(4)
            .into_iter()
            .filter(|o| !groupings(o).is_empty())
            .count();
        assert_eq!(grouped4, 8);
        // six players: mod 2 (blocks of 3) and mod 3 (blocks of 2)
        assert_eq!(groupings(&[0, 3, 1, 4, 2, 5]), vec![(3, vec![0, 1, 2])]);
        assert_eq!(groupings(&[4, 0, 2, 1, 5, 3]), vec![(2, vec![0, 1])]);
    }

    /// The theorem on tables: every grouped order of 4 and 6 players, every position of the
    /// domain, against the d-player table; and the parity closed form for d = 2.
    #[test]
    fn residue_reduction_holds_on_tables() {
        for (m, k, n) in [(4, 5, 9), (6, 4, 6)] {
            let domain = Domain::new(m, k, n, None).unwrap();
            for order in all_orders(m) {
                let gs = groupings(&order);
                if gs.is_empty() {
                    continue;
                }
                let big = Table::compute(&domain, &order).unwrap();
                for (d, residues) in gs {
                    let small_domain = Domain::new(d, k, n, None).unwrap();
                    let small = Table::compute(&small_domain, &residues).unwrap();
                    for r in 0..domain.len() {
                        let p = domain.position(r);
                        let c = big.class_at(r).unwrap();
                        assert_eq!(Some(c % d), small.class_of(&p), "{order:?} d={d} {p:?}");
                        if d == 2 {
                            let heaps: Vec<BigUint> = p.iter().map(|&h| h.into()).collect();
                            assert_eq!(c % 2, class_parity(&heaps, residues[0]), "{p:?}");
                        }
                    }
                }
            }
        }
    }
}
