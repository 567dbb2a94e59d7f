//! Decimal text for huge heaps: why the report does not hold `BigUint`s.
//!
//! Converting a 1,000-digit number to decimal is quadratic work (num-bigint's radix
//! conversion); with 10,000 such heaps that would dominate a run whose mathematics is linear.
//! So the report keeps the text each heap was given, and a move's new heap `n - d` is computed
//! digit by digit on the texts of `n` and `d` (each distinct divisor is converted once).

use num_bigint::BigUint;
use serde::Serialize;

/// Numbers longer than this are shortened in human output (JSON always has them whole).
const SHOWN_DIGITS: usize = 60;

/// A non-negative integer kept as its canonical decimal text, written as a JSON number of any
/// length.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decimal(pub String);

impl Decimal {
    /// The decimal text of `n` (one radix conversion).
    pub fn of(n: &BigUint) -> Self {
        Decimal(n.to_string())
    }
}

impl Serialize for Decimal {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let n: serde_json::Number = self.0.parse().map_err(serde::ser::Error::custom)?;
        n.serialize(s)
    }
}

impl std::fmt::Display for Decimal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The canonical decimal text of a parsed number word (no separators, no leading zeros).
pub fn canonical_decimal(word: &str) -> String {
    let digits: std::borrow::Cow<str> = if word.contains('_') {
        word.replace('_', "").into()
    } else {
        word.into()
    };
    let trimmed = digits.trim_start_matches('0');
    if trimmed.is_empty() {
        "0".to_owned()
    } else {
        trimmed.to_owned()
    }
}

/// Decimal text of `n - d` from the canonical decimal texts of `n` and `d <= n`, in time
/// linear in the number of digits.
pub fn decimal_minus(n: &str, d: &str) -> String {
    let mut digits: Vec<u8> = n.as_bytes().to_vec();
    let mut sub = d.as_bytes().iter().rev();
    let mut borrow = 0u8;
    for digit in digits.iter_mut().rev() {
        let take = sub.next().map_or(0, |b| b - b'0') + borrow;
        if take == 0 {
            if sub.len() == 0 {
                break;
            }
            continue;
        }
        let value = *digit - b'0';
        if value >= take {
            *digit = b'0' + value - take;
            borrow = 0;
        } else {
            *digit = b'0' + value + 10 - take;
            borrow = 1;
        }
    }
    debug_assert!(sub.len() == 0 && borrow == 0, "d <= n");
    let text = String::from_utf8(digits).expect("ASCII digits");
    canonical_decimal(&text)
}

/// A number for people: whole when short, `first...last (N digits)` when long.
pub fn shown(n: &Decimal) -> String {
    let s = &n.0;
    if s.len() <= SHOWN_DIGITS {
        return s.clone();
    }
    format!("{}...{} ({} digits)", &s[..20], &s[s.len() - 20..], s.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn decimal_text() {
        assert_eq!(canonical_decimal("000"), "0");
        assert_eq!(canonical_decimal("0_012_300"), "12300");
        assert_eq!(decimal_minus("1000", "1"), "999");
        assert_eq!(decimal_minus("1000", "1000"), "0");
        assert_eq!(decimal_minus("1000", "0"), "1000");
        assert_eq!(
            decimal_minus("100000000000000000000000", "7"),
            "99999999999999999999993"
        );
        assert_eq!(
            decimal_minus("5000000000000000000000", "4999999999999999999999"),
            "1"
        );
    }

    proptest! {
        #[test]
        fn decimal_minus_is_subtraction(n in "[1-9][0-9]{0,60}", d in "0|[1-9][0-9]{0,60}") {
            let (big, small): (BigUint, BigUint) = (n.parse().unwrap(), d.parse().unwrap());
            let (big, small) = if small <= big { (big, small) } else { (small, big) };
            let (n, d) = (big.to_string(), small.to_string());
            prop_assert_eq!(decimal_minus(&n, &d), (big - small).to_string());
        }
    }
}
