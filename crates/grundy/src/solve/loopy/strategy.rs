//! Strategies on a loopy graph that actually win, or keep a draw.
//!
//! In a loopy game a move to *some* P-position is not enough: from a position where several
//! P-options exist, a careless choice can let the play cycle forever. Condition (B) of γ with the
//! rank as counter gives the fix (Fraenkel & Yesha 1986): always move to the P-option of least
//! rank. Every reply from a P-position u has a P-option of rank below rank(u), so the ranks of the
//! P-positions the winner leaves strictly fall and the game ends within 2·rank(u) moves after u.
//!
//! From a D-position (γ = ∞(K), 0 ∉ K) condition (C) gives an option that is again a D-position
//! (mex K = 0 is missing from its K); a move there keeps the draw, since no option of a
//! D-position is a P-position.

use super::{Analysis, LoopyOutcome};

/// A winning move: the option, and the most moves (this one included) the game can last when
/// the winner keeps playing `best_move`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WinningMove {
    /// The option moved to (a P-position).
    pub to: usize,
    /// Upper bound on the number of moves until the opponent cannot move.
    pub wins_within: u64,
}

impl Analysis<'_> {
    /// Every move from `u` to a P-position, best (least rank) first, duplicates removed.
    pub fn winning_moves(&self, u: usize) -> Vec<WinningMove> {
        let mut moves: Vec<WinningMove> = self
            .graph()
            .options(u)
            .filter(|&v| self.finite_value(v) == Some(0))
            .map(|v| WinningMove {
                to: v,
                wins_within: 2 * u64::from(self.rank(v)) + 1,
            })
            .collect();
        moves.sort_by_key(|m| (m.wins_within, m.to));
        moves.dedup();
        moves
    }

    /// From a D-position, every move that keeps the draw (to a D-position), in option order,
    /// duplicates removed; empty from P- and N-positions.
    pub fn drawing_moves(&self, u: usize) -> Vec<usize> {
        if self.outcome(u) != LoopyOutcome::D {
            return Vec::new();
        }
        let mut seen = Vec::new();
        for v in self.graph().options(u) {
            if self.outcome(v) == LoopyOutcome::D && !seen.contains(&v) {
                seen.push(v);
            }
        }
        seen
    }

    /// The move the strategy plays from `u`: to the P-option of least rank from an N-position,
    /// to a D-option from a D-position; from a P-position (lost anyway) the first option;
    /// `None` at a terminal.
    pub fn best_move(&self, u: usize) -> Option<usize> {
        match self.outcome(u) {
            LoopyOutcome::N => self.winning_moves(u).first().map(|m| m.to),
            LoopyOutcome::D => self.drawing_moves(u).first().copied(),
            LoopyOutcome::P => self.graph().options(u).next(),
        }
    }

    /// For a position whose winner is known (P or N), the most moves the game lasts when the
    /// winner plays [`Analysis::best_move`]; `None` for a draw.
    pub fn wins_within(&self, u: usize) -> Option<u64> {
        match self.outcome(u) {
            LoopyOutcome::P => Some(2 * u64::from(self.rank(u))),
            LoopyOutcome::N => self.winning_moves(u).first().map(|m| m.wins_within),
            LoopyOutcome::D => None,
        }
    }
}

/// One component of a sum: an analysed graph and the component's current node.
pub type Component<'a, 'g> = (&'a Analysis<'g>, usize);

/// A move in a sum of graphs: which component, the option moved to there, and the outcome of
/// the whole sum after the move (from the next player's point of view).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SumMove {
    /// Index of the component moved in.
    pub component: usize,
    /// The option moved to in that component.
    pub to: usize,
    /// Outcome of the sum after the move: P means the move wins, D that it keeps a draw.
    pub outcome_after: LoopyOutcome,
}

/// γ of a sum from its components' values (Smith 1966), no product graph built.
pub fn sum_value(components: &[Component]) -> super::LoopyValue {
    let values: Vec<super::LoopyValue> = components.iter().map(|(a, u)| a.value(*u)).collect();
    super::LoopyValue::sum_all(&values)
}

/// Every move of a sum (duplicate options in a component listed once) with the outcome it leads
/// to, each judged from the components' values only: the moved component's new value summed
/// with the others'.
pub fn sum_moves(components: &[Component]) -> Vec<SumMove> {
    let values: Vec<super::LoopyValue> = components.iter().map(|(a, u)| a.value(*u)).collect();
    let mut moves = Vec::new();
    for (i, (a, u)) in components.iter().enumerate() {
        let others = super::LoopyValue::sum_all(
            values
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, v)| v),
        );
        let mut seen = Vec::new();
        for v in a.graph().options(*u) {
            if seen.contains(&v) {
                continue;
            }
            seen.push(v);
            moves.push(SumMove {
                component: i,
                to: v,
                outcome_after: a.value(v).sum(&others).outcome(),
            });
        }
    }
    moves
}
