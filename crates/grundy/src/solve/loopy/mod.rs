//! Loopy impartial games: the generalized Sprague–Grundy function γ.
//!
//! In a game graph with cycles a play can go on forever; such a play is a **draw**. C. A. B. Smith
//! ("Graphs and composite games", J. Combin. Theory 1 (1966) 51–81) and A. S. Fraenkel with
//! Y. Yesha ("The generalized Sprague–Grundy function and its invariance under certain mappings",
//! J. Combin. Theory Ser. A 43 (1986)) extend the Grundy value to such graphs: γ(u) is
//! either a finite value g or ∞(K), where K is the set of finite values among u's options. With
//! a *counter* c on the finitely-valued positions, γ is the unique function such that
//!
//! - **(A)** if γ(u) is finite, γ(u) = mex of the finite values of u's options;
//! - **(B)** if γ(u) is finite and an option v has γ(v) > γ(u) (∞ included), then v has an
//!   option w with γ(w) = γ(u) and c(w) < c(u) (the move to v can be *reversed*);
//! - **(C)** if γ(u) = ∞(K), some option v has γ(v) = ∞(L) with mex(K) ∉ L.
//!
//! Reading: P when γ = 0, N when γ is a positive finite value or ∞(K) with 0 ∈ K, D (a draw with
//! best play) when γ = ∞(K) with 0 ∉ K. For sums (Smith 1966): a ⊕ b for finite values,
//! a + ∞(K) = ∞(K ⊕ a), and ∞(K) + ∞(L) = ∞(∅), a draw.
//!
//! - [`label`]: the labelling algorithm (γ and the counter, called *rank* here) on an option
//!   table ([`Csr`]).
//! - [`strategy`]: winning moves that end the game within a bound, moves that keep a draw.

pub mod label;
pub mod strategy;

pub use label::{analyse, Analysis, Csr};
pub use strategy::{sum_moves, sum_value, SumMove, WinningMove};

use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};
use std::fmt;

/// A value of the generalized Sprague–Grundy function: finite, or ∞(K).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum LoopyValue {
    /// A finite value (the position behaves like a Nim heap of this size).
    Finite(u64),
    /// ∞(K): K is the sorted set of finite values among the options.
    Infinite(Vec<u64>),
}

/// Outcome of a loopy position with best play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum LoopyOutcome {
    /// The player to move loses.
    P,
    /// The player to move wins.
    N,
    /// Neither player can force a win: the game goes on forever with best play.
    D,
}

impl LoopyOutcome {
    /// "P", "N" or "D".
    pub fn as_str(self) -> &'static str {
        match self {
            LoopyOutcome::P => "P",
            LoopyOutcome::N => "N",
            LoopyOutcome::D => "D",
        }
    }
}

impl fmt::Display for LoopyOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl LoopyValue {
    /// P when γ = 0; N when γ is positive and finite or ∞(K) with 0 ∈ K; D otherwise.
    pub fn outcome(&self) -> LoopyOutcome {
        match self {
            LoopyValue::Finite(0) => LoopyOutcome::P,
            LoopyValue::Finite(_) => LoopyOutcome::N,
            LoopyValue::Infinite(k) if k.first() == Some(&0) => LoopyOutcome::N,
            LoopyValue::Infinite(_) => LoopyOutcome::D,
        }
    }

    /// Whether the value is finite.
    pub fn is_finite(&self) -> bool {
        matches!(self, LoopyValue::Finite(_))
    }

    /// ∞(K) from any list of finite values (sorted and deduplicated here).
    pub fn infinite(mut k: Vec<u64>) -> Self {
        k.sort_unstable();
        k.dedup();
        LoopyValue::Infinite(k)
    }

    /// The value of the disjunctive sum of two positions from their values (Smith 1966):
    /// a ⊕ b; a + ∞(K) = ∞(K ⊕ a); ∞(K) + ∞(L) = ∞(∅).
    pub fn sum(&self, other: &LoopyValue) -> LoopyValue {
        match (self, other) {
            (LoopyValue::Finite(a), LoopyValue::Finite(b)) => LoopyValue::Finite(a ^ b),
            (LoopyValue::Finite(a), LoopyValue::Infinite(k))
            | (LoopyValue::Infinite(k), LoopyValue::Finite(a)) => {
                LoopyValue::infinite(k.iter().map(|x| x ^ a).collect())
            }
            (LoopyValue::Infinite(_), LoopyValue::Infinite(_)) => LoopyValue::Infinite(Vec::new()),
        }
    }

    /// The value of a sum of any number of positions (the empty sum is 0).
    pub fn sum_all<'a>(values: impl IntoIterator<Item = &'a LoopyValue>) -> LoopyValue {
        values
            .into_iter()
            .fold(LoopyValue::Finite(0), |acc, v| acc.sum(v))
    }
}

/// `3`, or `∞{0,2}` (`∞{}` when no option has a finite value).
impl fmt::Display for LoopyValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoopyValue::Finite(g) => write!(f, "{g}"),
            LoopyValue::Infinite(k) => {
                let list: Vec<String> = k.iter().map(u64::to_string).collect();
                write!(f, "∞{{{}}}", list.join(","))
            }
        }
    }
}

/// A finite value is a JSON number; ∞(K) is `{"infinite": true, "k": [...]}`.
impl Serialize for LoopyValue {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            LoopyValue::Finite(g) => s.serialize_u64(*g),
            LoopyValue::Infinite(k) => {
                let mut st = s.serialize_struct("Infinite", 2)?;
                st.serialize_field("infinite", &true)?;
                st.serialize_field("k", k)?;
                st.end()
            }
        }
    }
}

#[cfg(test)]
mod tests;
