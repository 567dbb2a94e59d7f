//! The rules a Grundy-sequence engine can run: a take-and-break code, or Grundy's game.
//!
//! Grundy's game (split one heap into two *unequal* non-empty heaps) is not a take-and-break
//! code — a code can allow "split into two" but cannot forbid equal parts — so it is a rule set
//! of its own beside [`Code`]. Everything downstream (engines, the period detector, the driver,
//! multi-heap positions) takes a [`Rules`].

use super::code::Code;
use crate::Error;

/// Rules of a heap game whose every move acts on one heap.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Rules {
    /// A take-and-break code `d0.d1d2...` (splitting paper; `docs/theory.md` §3).
    Code(Code),
    /// Grundy's game: split one heap into two unequal non-empty heaps.
    GrundysGame,
}

/// The name under which [`Rules::GrundysGame`] is parsed and printed.
pub const GRUNDYS_GAME: &str = "grundys-game";

impl Rules {
    /// Parse a code (`0.77`, `.07`, `4.07`, `0.F`, `0.&63;7`), a named code (`kayles`,
    /// `dawsons-kayles`, `dawsons-chess`, `officers`) or `grundys-game`.
    ///
    /// The notation is CGSuite's ([`super::notation`]); `4!.0` is Grundy's game, and forms
    /// the engines cannot run are refused by name.
    pub fn parse(text: &str) -> Result<Self, Error> {
        super::notation::Notation::parse(text)?.to_rules()
    }

    /// The code, if these rules are a take-and-break code.
    pub fn code(&self) -> Option<&Code> {
        match self {
            Rules::Code(c) => Some(c),
            Rules::GrundysGame => None,
        }
    }

    /// Whether the octal periodicity theorem applies: every move leaves at most two heaps and
    /// removes a bounded number of tokens (every finite code with digits below 8). Grundy's
    /// game splits without removing, but forbids equal parts, so the theorem's proof (which
    /// moves one part by a period) does not apply to it.
    pub fn periodicity_theorem_applies(&self) -> bool {
        match self {
            Rules::Code(c) => c.is_octal(),
            Rules::GrundysGame => false,
        }
    }

    /// `t` in the periodicity theorem: the most tokens one move removes (index of the last
    /// non-zero digit). Also used as the evidence margin for *observed* periods. 0 for
    /// Grundy's game, which removes nothing.
    pub fn max_removed(&self) -> usize {
        match self {
            Rules::Code(c) => c.last_nonzero(),
            Rules::GrundysGame => 0,
        }
    }

    /// The largest number of heaps one move leaves.
    pub fn max_heaps_left(&self) -> u32 {
        match self {
            Rules::Code(c) => c.max_heaps_left(),
            Rules::GrundysGame => 2,
        }
    }
}

impl From<Code> for Rules {
    fn from(code: Code) -> Self {
        Rules::Code(code)
    }
}

impl std::fmt::Display for Rules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Rules::Code(c) => c.fmt(f),
            Rules::GrundysGame => f.write_str(GRUNDYS_GAME),
        }
    }
}

impl std::str::FromStr for Rules {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        Rules::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_codes_names_and_grundys_game() {
        assert_eq!(Rules::parse("grundys-game").unwrap(), Rules::GrundysGame);
        assert_eq!(Rules::parse("Grundys-Game").unwrap(), Rules::GrundysGame);
        assert_eq!(
            Rules::parse("kayles").unwrap(),
            Rules::Code(Code::parse("0.77").unwrap())
        );
        assert_eq!(Rules::parse(".07").unwrap().to_string(), "0.07");
        assert_eq!(Rules::GrundysGame.to_string(), "grundys-game");
        assert!(Rules::parse("0.7#7").is_err());
    }

    #[test]
    fn theorem_applies_to_octal_codes_only() {
        assert!(Rules::parse("0.77").unwrap().periodicity_theorem_applies());
        assert!(Rules::parse("4.07").unwrap().periodicity_theorem_applies());
        assert!(!Rules::parse("0.F").unwrap().periodicity_theorem_applies());
        assert!(!Rules::GrundysGame.periodicity_theorem_applies());
        assert_eq!(Rules::parse("0.137").unwrap().max_removed(), 3);
    }
}
