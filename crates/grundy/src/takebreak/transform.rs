//! The splitting paper's two transforms of codes, and the check that they do what they say.
//!
//! - [`fold`]: Theorem 6.5 (the m-fold game). From `A = .a1a2...` with digits in {0, 7} whose
//!   7s come in runs of length at least 2, build `B` with `g_B(n) = g_A(⌊n/m⌋)`. Under each
//!   digit of `A` sit `m` cells of `B`; under a 0 all cells are 0; under a maximal run
//!   `a_s = ... = a_e = 7` the cells under `a_s` are `0,...,0,7`, those under `a_e` are
//!   `7,0,...,0`, and the cells strictly between `b_{sm}` and `b_{(e-1)m+1}` are free, as long
//!   as every `2m - 1` consecutive cells of the run hold a 7. The canonical choice
//!   (`docs/theory.md` §3) makes every free cell 7.
//! - [`cousin`]: Theorem 6.6. From `A = .a1a2...` with `a1` even, `b_k = 2^(l_k + 2) - 1` where
//!   `l_k = max{h >= -1 : a_{k-h} contains 2^(h+1)}` (`a_i = 0` for `i < 1`), or `b_k = 0` when
//!   no such `h` exists; then `g_B(n) = g_A(n + 1)`. Digits of `B` can exceed 7.
//!
//! [`check_fold`] and [`check_cousin`] compute both sequences with the naive engine and compare
//! them up to a bound — the theorems are proved in the paper, the check guards this code.

use super::code::Code;
use super::naive::sequence;
use crate::Error;
use serde::Serialize;

/// The result of comparing a transformed game with the identity its theorem promises.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TransformCheck {
    /// The game A.
    pub code_a: String,
    /// The game B built from A.
    pub code_b: String,
    /// The identity was compared for n = 0..=checked_up_to.
    pub checked_up_to: usize,
    /// Whether it held for every such n.
    pub holds: bool,
    /// The first n where it failed, if any.
    pub first_failure: Option<usize>,
}

fn refuse(a: &Code, theorem: &str, why: String) -> Error {
    Error::Invalid(format!("{theorem} does not apply to {a}: {why}"))
}

/// Theorem 6.5: the canonical m-fold of `a` (free cells = 7).
pub fn fold(a: &Code, m: usize) -> Result<Code, Error> {
    const THM: &str = "the m-fold construction (Theorem 6.5)";
    if m == 0 {
        return Err(refuse(a, THM, "m must be at least 1".into()));
    }
    let d = a.digits();
    if d[0] != 0 {
        return Err(refuse(
            a,
            THM,
            format!("it needs a code .a1a2... without d0, but d0 = {}", d[0]),
        ));
    }
    for (k, &x) in d.iter().enumerate().skip(1) {
        if x != 0 && x != 7 {
            return Err(refuse(
                a,
                THM,
                format!("every digit must be 0 or 7, but digit {k} is {x}"),
            ));
        }
    }
    let last = d.len() - 1;
    let len = last
        .checked_mul(m)
        .filter(|&l| l <= 1 << 20)
        .ok_or_else(|| refuse(a, THM, format!("m = {m} makes B longer than 2^20 digits")))?;
    let mut b = vec![0u128; len + 1];
    let mut k = 1;
    while k <= last {
        if d[k] == 0 {
            k += 1;
            continue;
        }
        let s = k;
        while k <= last && d[k] == 7 {
            k += 1;
        }
        let e = k - 1;
        if e == s {
            return Err(refuse(
                a,
                THM,
                format!("its 7s must come in runs of length at least 2, but digit {s} is a lone 7"),
            ));
        }
        // b_{sm} .. b_{(e-1)m+1}: the forced 7s at both ends and every free cell between.
        for cell in b.iter_mut().take((e - 1) * m + 2).skip(s * m) {
            *cell = 7;
        }
    }
    Code::from_digits(b)
}

/// Theorem 6.6: the cousin of `a`.
pub fn cousin(a: &Code) -> Result<Code, Error> {
    const THM: &str = "the cousin construction (Theorem 6.6)";
    let d = a.digits();
    if d[0] != 0 {
        return Err(refuse(
            a,
            THM,
            format!("it needs a code .a1a2... without d0, but d0 = {}", d[0]),
        ));
    }
    if a.digit(1) & 1 == 1 {
        return Err(refuse(
            a,
            THM,
            format!("a1 must be even, but a1 = {}", a.digit(1)),
        ));
    }
    let last = d.len() - 1;
    // b_k can be non-zero only while some a_{k-h} (1 <= k-h <= last) has bit h+1 <= 127.
    let mut b = vec![0u128; last + 128];
    for (k, cell) in b.iter_mut().enumerate().skip(1) {
        // Only h <= 126 can match (bit h + 1 of a u128 digit), so the scan is O(128) per k.
        let l = (-1i64..=(k as i64 - 1).min(126)).rev().find(|&h| {
            let i = k as i64 - h;
            i >= 1 && h + 1 < 128 && a.digit(i as usize) >> (h + 1) & 1 == 1
        });
        if let Some(l) = l {
            // 2^(l+2) - 1, with l + 2 <= 128.
            *cell = u128::MAX >> (128 - (l + 2) as u32);
        }
    }
    Code::from_digits(b)
}

/// Compute `g_B(n)` and `g_A(⌊n/m⌋)` for n = 0..=up_to and compare.
pub fn check_fold(a: &Code, m: usize, up_to: usize) -> Result<TransformCheck, Error> {
    let b = fold(a, m)?;
    let ga = sequence(a, up_to / m)?;
    let gb = sequence(&b, up_to)?;
    let first_failure = (0..=up_to).find(|&n| gb[n] != ga[n / m]);
    Ok(TransformCheck {
        code_a: a.to_string(),
        code_b: b.to_string(),
        checked_up_to: up_to,
        holds: first_failure.is_none(),
        first_failure,
    })
}

/// Compute `g_B(n)` and `g_A(n + 1)` for n = 0..=up_to and compare.
pub fn check_cousin(a: &Code, up_to: usize) -> Result<TransformCheck, Error> {
    let b = cousin(a)?;
    let ga = sequence(a, up_to + 1)?;
    let gb = sequence(&b, up_to)?;
    let first_failure = (0..=up_to).find(|&n| gb[n] != ga[n + 1]);
    Ok(TransformCheck {
        code_a: a.to_string(),
        code_b: b.to_string(),
        checked_up_to: up_to,
        holds: first_failure.is_none(),
        first_failure,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(s: &str) -> Code {
        Code::parse(s).unwrap()
    }

    #[test]
    fn canonical_folds_of_the_readme() {
        assert_eq!(fold(&code(".77"), 2).unwrap().to_string(), "0.077");
        assert_eq!(fold(&code(".777"), 3).unwrap().to_string(), "0.0077777");
        assert_eq!(fold(&code(".77"), 1).unwrap(), code(".77"));
        // two runs separated by zeros: .770077 with m = 2
        assert_eq!(
            fold(&code(".770077"), 2).unwrap().to_string(),
            "0.07700000077"
        );
    }

    #[test]
    fn the_cousin_of_officers_is_037() {
        assert_eq!(cousin(&code(".6")).unwrap().to_string(), "0.37");
    }

    #[test]
    fn refusals_give_the_reason() {
        let e = fold(&code(".7"), 2).unwrap_err().to_string();
        assert!(e.contains("lone 7") && e.contains("digit 1"), "{e}");
        let e = fold(&code(".76"), 2).unwrap_err().to_string();
        assert!(e.contains("digit 2 is 6"), "{e}");
        let e = fold(&code("4.77"), 2).unwrap_err().to_string();
        assert!(e.contains("d0 = 4"), "{e}");
        assert!(fold(&code(".77"), 0).is_err());
        let e = cousin(&code(".37")).unwrap_err().to_string();
        assert!(e.contains("a1 must be even"), "{e}");
    }

    #[test]
    fn theorem_6_5_holds_on_several_codes() {
        for (a, m) in [
            (".77", 2),
            (".77", 3),
            (".777", 3),
            (".077", 2),
            (".0770077", 2),
            (".77077", 1),
            (".00777", 4),
        ] {
            let c = check_fold(&code(a), m, 600).unwrap();
            assert!(c.holds, "{c:?}");
        }
    }

    #[test]
    fn theorem_6_6_holds_on_several_codes() {
        for a in [
            ".6", ".4", ".06", ".26", ".62", ".0F", ".E", ".A6", ".44", ".2", ".07", ".&40;3",
        ] {
            let c = check_cousin(&code(a), 600).unwrap();
            assert!(c.holds, "{c:?}");
        }
    }

    #[test]
    fn a_broken_b_is_caught() {
        // The check is not vacuous: .77 folded "wrongly" (as .07) disagrees somewhere.
        let ga = sequence(&code(".77"), 100).unwrap();
        let gb = sequence(&code(".07"), 200).unwrap();
        assert!((0..=200).any(|n| gb[n] != ga[n / 2]));
    }
}
