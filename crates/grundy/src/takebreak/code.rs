//! Take-and-break codes `d0.d1d2d3...` (splitting paper; `docs/theory.md` §3).
//!
//! Digit `d_k` is a set of bits: bit `2^j` in `d_k` allows removing `k` tokens from one heap and
//! leaving exactly `j` non-empty heaps (`j = 0`: the heap must be exactly `k`, taken whole).
//! `d0` allows splitting a heap without removing anything, so it may contain only bits `2^j`
//! with `j >= 2` (bits 1 and 2 would mean "remove nothing, leave nothing/the same heap").
//!
//! Notation accepted by [`Code::parse`]: CGSuite's (see [`super::notation`]), for the codes
//! the engines run — digits `0-9` and `A-Z` (values 0..35, case-insensitive), `&N;` for a digit
//! of any value in decimal (e.g. `0.&63;7`, needed because the paper's cousin transform
//! produces digits `2^(l+2) - 1` without bound), digit sets in braces (`0.{2,3}` = `0.C`); the
//! leading `0` is optional (`.07` = `0.07`), `d0` may be given (`4.07`), and `4.` or `4` is
//! `4.0`. Repeating parts (`0.[3]`), `+`, `*` and qualifiers other than Grundy's game `4!.0`
//! are refused by name, never misread.
//!
//! Named games: `kayles` (0.77), `dawsons-kayles` (0.07), `dawsons-chess` (0.137),
//! `officers` (0.6).

use crate::Error;

/// A take-and-break code. `digits[k]` is the bit set of `d_k`; `digits[0]` is `d0`.
/// Trailing zero digits are trimmed, so equal games have equal codes.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Code {
    digits: Vec<u128>,
}

/// The named games and their codes.
pub const NAMED: &[(&str, &str)] = &[
    ("kayles", "0.77"),
    ("dawsons-kayles", "0.07"),
    ("dawsons-chess", "0.137"),
    ("officers", "0.6"),
];

impl Code {
    /// Build from digit bit sets (`digits[0]` = `d0`). Checks `d0`.
    pub fn from_digits(mut digits: Vec<u128>) -> Result<Self, Error> {
        if digits.is_empty() {
            digits.push(0);
        }
        if digits[0] & 3 != 0 {
            return Err(Error::Invalid(format!(
                "digit d0 = {} is not allowed: d0 may only contain bits 4, 8, 16, ... \
                 (removing nothing must leave at least two heaps)",
                digits[0]
            )));
        }
        while digits.len() > 1 && *digits.last().expect("non-empty") == 0 {
            digits.pop();
        }
        Ok(Code { digits })
    }

    /// Parse a code or a named game (see the module docs for the notation). Grundy's game
    /// (`4!.0`) is refused here: it forbids equal parts, which no plain code can say; take
    /// [`super::Rules`] to accept it.
    pub fn parse(text: &str) -> Result<Self, Error> {
        match super::notation::Notation::parse(text)?.to_rules()? {
            super::Rules::Code(code) => Ok(code),
            super::Rules::GrundysGame => Err(Error::Invalid(
                "Grundy's game (4!.0: split into two unequal heaps) is not a plain \
                 take-and-break code, which this needs"
                    .into(),
            )),
        }
    }

    /// `d_k` as a bit set (0 beyond the last digit).
    pub fn digit(&self, k: usize) -> u128 {
        self.digits.get(k).copied().unwrap_or(0)
    }

    /// All digits, `d0` first.
    pub fn digits(&self) -> &[u128] {
        &self.digits
    }

    /// Index of the last non-zero digit (`t` in the periodicity theorem); 0 for the empty game.
    pub fn last_nonzero(&self) -> usize {
        self.digits.len() - 1
    }

    /// Whether removing `k` tokens and leaving `j` non-empty heaps is allowed.
    pub fn allows(&self, k: usize, j: u32) -> bool {
        j < 128 && self.digit(k) >> j & 1 == 1
    }

    /// The largest number of heaps any move leaves.
    pub fn max_heaps_left(&self) -> u32 {
        self.digits
            .iter()
            .map(|&d| if d == 0 { 0 } else { 127 - d.leading_zeros() })
            .max()
            .unwrap_or(0)
    }

    /// Whether every move leaves at most two heaps: the octal periodicity theorem applies.
    pub fn is_octal(&self) -> bool {
        self.digits.iter().all(|&d| d < 8)
    }

    /// Whether every digit is below 16 (hexadecimal games: at most three heaps left).
    pub fn is_hexadecimal(&self) -> bool {
        self.digits.iter().all(|&d| d < 16)
    }
}

impl std::fmt::Display for Code {
    /// Canonical text: `d0` then the point; digits above 35 as `&N;` (CGSuite's spelling).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let digit = |d: u128| -> String {
            match d {
                0..=9 => ((b'0' + d as u8) as char).to_string(),
                10..=35 => ((b'A' + (d - 10) as u8) as char).to_string(),
                _ => format!("&{d};"),
            }
        };
        write!(f, "{}.", digit(self.digits[0]))?;
        if self.digits.len() == 1 {
            // The game without moves (all digits 0): keep one digit so the text parses back.
            return f.write_str("0");
        }
        for &d in &self.digits[1..] {
            f.write_str(&digit(d))?;
        }
        Ok(())
    }
}

impl std::str::FromStr for Code {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        Code::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_octal_hex_and_larger_codes() {
        assert_eq!(Code::parse("0.77").unwrap().digits(), &[0, 7, 7]);
        assert_eq!(Code::parse(".07").unwrap(), Code::parse("0.07").unwrap());
        assert_eq!(Code::parse("4.07").unwrap().digits(), &[4, 0, 7]);
        assert_eq!(Code::parse("0.F3").unwrap().digits(), &[0, 15, 3]);
        assert_eq!(Code::parse("0.z").unwrap().digits(), &[0, 35]);
        assert_eq!(Code::parse("0.&63;7").unwrap().digits(), &[0, 63, 7]);
        assert_eq!(Code::parse("0.770").unwrap(), Code::parse("0.77").unwrap());
        assert_eq!(Code::parse("kayles").unwrap(), Code::parse("0.77").unwrap());
        assert_eq!(
            Code::parse("Dawsons-Chess").unwrap().digits(),
            &[0, 1, 3, 7]
        );
        assert_eq!(Code::parse("officers").unwrap().to_string(), "0.6");
        assert_eq!(Code::parse("0.&63;7").unwrap().to_string(), "0.&63;7");
        assert_eq!(Code::parse("4.07").unwrap().to_string(), "4.07");
        // Every canonical text parses back to the same code, the empty game included.
        for text in ["0.0", "0.000", "4.0", "0.77", "0.&63;7", "C.07"] {
            let code = Code::parse(text).unwrap();
            assert_eq!(Code::parse(&code.to_string()).unwrap(), code, "{text}");
        }
        assert_eq!(Code::parse("0.00").unwrap().to_string(), "0.0");
        assert!(Code::parse("0.F").unwrap().is_hexadecimal());
        assert!(!Code::parse("0.F").unwrap().is_octal());
        assert_eq!(Code::parse("0.137").unwrap().max_heaps_left(), 2);
        assert_eq!(Code::parse("0.F").unwrap().max_heaps_left(), 3);
    }

    #[test]
    fn malformed_codes_name_the_character_and_position() {
        let e = Code::parse("0.7#7").unwrap_err().to_string();
        assert!(e.contains("'#'") && e.contains("position 4"), "{e}");
        let e = Code::parse("0.7.7").unwrap_err().to_string();
        assert!(e.contains("second '.'") && e.contains("position 4"), "{e}");
        assert!(Code::parse("77")
            .unwrap_err()
            .to_string()
            .contains("digits before the point"));
        // Published tables write d0 alone: `4.` and `4` are 4.0.
        assert_eq!(Code::parse("4.").unwrap(), Code::parse("4.0").unwrap());
        assert_eq!(Code::parse("4").unwrap(), Code::parse("4.0").unwrap());
        assert_eq!(Code::parse("0.").unwrap(), Code::parse("0.0").unwrap());
        assert!(Code::parse("").is_err());
        assert!(Code::parse("0.&x;").is_err());
        assert!(Code::parse("0.&7").is_err());
        assert!(Code::parse("0.[7").is_err());
        // The former spelling of a large digit is CGSuite's repeating part now: refused here,
        // naming both readings, never read as one digit.
        let e = Code::parse("0.[63]").unwrap_err().to_string();
        assert!(e.contains("repeating") && e.contains("&N;"), "{e}");
        let e = Code::parse("0.[63]7").unwrap_err().to_string();
        assert!(e.contains("must end the code") && e.contains("&N;"), "{e}");
        assert!(Code::parse("4!.0")
            .unwrap_err()
            .to_string()
            .contains("Grundy"));
        assert!(Code::parse("1.7").unwrap_err().to_string().contains("d0"));
        assert!(Code::parse("2.7").is_err());
        // A zero digit before d0 adds no move (CGSuite's digits before d0 add tokens).
        assert_eq!(Code::parse("00.7").unwrap(), Code::parse("0.7").unwrap());
        assert!(Code::parse("80.7").is_err());
        let e = Code::parse("0.7é").unwrap_err().to_string();
        assert!(e.contains("'é'") && e.contains("position 4"), "{e}");
    }
}
