//! The quotient theorem of the Sato–Welter game — hook paper §5, Theorem 4.
//!
//! **Theorem 4.** For a position `p` (a Young diagram) with 2-core `p²`,
//! `v(p) = 2 · v_{φ₂}(p) + v(p²)`, where `v_{φ₂}` is the value in the game removing only hooks
//! of even length. The paper computes both terms without search:
//!
//! - splitting the board into even and odd squares (Fig. 4) turns the even-hook game into the
//!   sum of two Sato–Welter games `p₀` (even squares, renumbered) and `p₁` (odd squares), so
//!   by Theorem 1 `v_{φ₂}(p) = v(p₀) ⊕ v(p₁)`; `[p₀, p₁]` is the 2-quotient;
//! - `v(p²) = 1` exactly when the number of boxes `n` is odd; equivalently, with
//!   `m = (stones on the odd board) − (stones on the even board)`, when `m(m + 1)` is not a
//!   multiple of 4.
//!
//! [`quotient_theorem`] returns the three terms (`v(p)`, `v_{φ₂}(p)`, `v(p²)`) computed
//! independently (Welter's formula on `p`, on the two halves, on the 2-core), plus the
//! parity rules, and whether they fit together. The brute-force check against the evaluator
//! lives in the tests and in `grundy verify quotient-theorem`.

use super::{abacus, hook_game, Partition};
use crate::Nimber;
use serde::Serialize;

/// The terms of Theorem 4 for one diagram.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct QuotientTheorem {
    /// `v(p)`, the left-hand side (Welter's formula).
    pub grundy_value: Nimber,
    /// `v_{φ₂}(p)`, the value in the even-hook game, as `v(p₀) ⊕ v(p₁)`.
    pub even_hook_value: Nimber,
    /// `v(p²)`, the value of the 2-core (Welter's formula on the core).
    pub two_core_value: Nimber,
    /// The 2-core `p²`.
    pub two_core: Partition,
    /// The halves `[p₀, p₁]` (even squares, odd squares) = the 2-quotient in SageMath's order.
    pub halves: [Partition; 2],
    /// `[v(p₀), v(p₁)]`.
    pub half_values: [Nimber; 2],
    /// Number of boxes mod 2 (the paper's rule for `v(p²)`).
    pub boxes_parity: Nimber,
    /// `m` = stones on the odd squares − stones on the even squares (with an even number of
    /// beads); the paper's other rule: `v(p²) = 1` iff `m(m + 1)` is not a multiple of 4.
    pub stone_difference: i64,
    /// Whether `v(p) = 2 v_{φ₂}(p) + v(p²)` and both parity rules give `v(p²)`.
    pub holds: bool,
}

impl QuotientTheorem {
    /// `2 · v_{φ₂}(p) + v(p²)`, the right-hand side.
    pub fn right_hand_side(&self) -> Nimber {
        2 * self.even_hook_value + self.two_core_value
    }
}

/// The three terms of Theorem 4 for `p`, each computed by Welter's formula.
///
/// Fails (with [`crate::Error::Invalid`]) only when the beta-numbers of `p` with an even
/// number of beads do not fit in 64 bits.
pub fn quotient_theorem(p: &Partition) -> crate::Result<QuotientTheorem> {
    let grundy_value = hook_game::grundy_value(p);
    let halves = abacus::quotient(p, 2)?;
    let half_values = [
        hook_game::grundy_value(&halves[0]),
        hook_game::grundy_value(&halves[1]),
    ];

    let two_core = abacus::core(p, 2)?;
    let two_core_value = hook_game::grundy_value(&two_core);
    let boxes_parity = p.boxes() % 2;
    let runners = abacus::runners(p, 2)?;
    let stone_difference = runners[1].len() as i64 - runners[0].len() as i64;
    let m = stone_difference;
    let by_stones = Nimber::from((m * (m + 1)).rem_euclid(4) != 0);
    let [even_half, odd_half]: [Partition; 2] = halves.try_into().expect("two halves");
    let even_hook_value = half_values[0] ^ half_values[1];
    let holds = grundy_value == 2 * even_hook_value + two_core_value
        && two_core_value == boxes_parity
        && two_core_value == by_stones;
    Ok(QuotientTheorem {
        grundy_value,
        even_hook_value,
        two_core_value,
        two_core,
        halves: [even_half, odd_half],
        half_values,
        boxes_parity,
        stone_difference,
        holds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::young::HookRemoval;
    use crate::NormalPlay;

    #[test]
    fn papers_example() {
        let y = Partition::new(vec![10, 10, 8, 6, 5, 5, 3, 1]).unwrap();
        let t = quotient_theorem(&y).unwrap();
        assert_eq!(t.grundy_value, 28);
        assert_eq!(t.even_hook_value, 14);
        assert_eq!(t.two_core_value, 0);
        assert_eq!(t.stone_difference, 0);
        assert_eq!(t.right_hand_side(), 28);
        assert!(t.holds);
    }

    #[test]
    fn every_term_matches_brute_force_up_to_12_boxes() {
        let mut all = NormalPlay::new(HookRemoval::any_hook());
        let mut even = NormalPlay::new(HookRemoval::hooks_divisible_by(2));
        for n in 0..=12 {
            for y in Partition::all_of(n) {
                let t = quotient_theorem(&y).unwrap();
                assert!(t.holds, "{y}: {t:?}");
                assert_eq!(all.grundy_value(&y).unwrap(), t.grundy_value, "{y}");
                assert_eq!(even.grundy_value(&y).unwrap(), t.even_hook_value, "{y}");
                assert_eq!(
                    all.grundy_value(&t.two_core).unwrap(),
                    t.two_core_value,
                    "{y}"
                );
            }
        }
    }
}
