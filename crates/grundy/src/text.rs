//! Reading the numbers people type, and quoting what they typed in a one-line message.
//!
//! Every front end reads the same words the same way (the CLI's arguments and `--input` files,
//! the `--game` specs of [`crate::games::registry`], the Python package's strings), so a word
//! refused by one is refused by all in the same words.

use crate::Error;
use num_bigint::BigUint;

/// The most decimal digits one number may have: decimal conversion takes time quadratic in the
/// length, and 100,000 digits (far beyond any closed form's need) take a fraction of a second.
pub const MAX_DIGITS: usize = 100_000;

/// A whole message made safe for one line: control characters escaped (no length limit).
pub fn shown_line(text: &str) -> String {
    text.chars()
        .flat_map(|c| {
            if c.is_control() {
                c.escape_debug().collect::<Vec<_>>()
            } else {
                vec![c]
            }
        })
        .collect()
}

/// A piece of user input fit to be quoted in a one-line message: at most 40 characters, with
/// control characters (newline, NUL, ...) escaped so the message stays on one line.
pub fn shown(word: &str) -> String {
    let mut out = shown_line(&word.chars().take(40).collect::<String>());
    if word.chars().nth(40).is_some() {
        out.push_str("...");
    }
    out
}

fn number_error(what: &str, word: &str) -> Error {
    number_error_from(what, word, 0)
}

/// The refusal of `word` where a whole number of at least `least` was wanted.
fn number_error_from(what: &str, word: &str, least: u64) -> Error {
    let shown = shown(word);
    if word.starts_with('-') && word.len() > 1 && word[1..].chars().all(|c| c.is_ascii_digit()) {
        Error::Invalid(format!(
            "{what} '{shown}' is negative: give a whole number, {least} or more"
        ))
    } else {
        Error::Invalid(format!(
            "{what} '{shown}' is not a non-negative whole number"
        ))
    }
}

/// Parse a non-negative decimal integer of up to [`MAX_DIGITS`] digits. Underscores are
/// allowed as separators between digits (`1_000_000`), not before, after or doubled (`_1`).
pub fn parse_big(what: &str, word: &str) -> Result<BigUint, Error> {
    let well_formed = !word.is_empty()
        && word
            .split('_')
            .all(|g| !g.is_empty() && g.bytes().all(|b| b.is_ascii_digit()));
    if !well_formed {
        return Err(number_error(what, word));
    }
    if word.len() > MAX_DIGITS {
        return Err(Error::Invalid(format!(
            "{what} '{}' has more than {MAX_DIGITS} digits, the most a number may have",
            shown(word)
        )));
    }
    let clean: String = word.chars().filter(|&c| c != '_').collect();
    clean.parse().map_err(|_| number_error(what, word))
}

/// Parse a non-negative integer that must fit in 64 bits.
pub fn parse_u64(what: &str, word: &str) -> Result<u64, Error> {
    let big = parse_big(what, word)?;
    u64::try_from(&big).map_err(|_| {
        Error::Invalid(format!(
            "{what} '{}' is too large here (at most {} for this computation)",
            shown(word),
            u64::MAX
        ))
    })
}

/// Parse a count that must be at least 1, as [`parse_u64`] does, except that a negative number
/// is told "1 or more". A 0 is returned: the caller refuses it saying what a 0 would mean.
pub fn parse_count(what: &str, word: &str) -> Result<u64, Error> {
    parse_u64(what, word).map_err(|e| {
        if word.starts_with('-') {
            number_error_from(what, word, 1)
        } else {
            e
        }
    })
}

/// Parse a non-negative integer of at most `cap`, naming the cap in the refusal (`why` says
/// where it comes from, e.g. "2^53 - 1"): a number past 2^64 is refused with the cap that
/// applies, not with 2^64 - 1.
pub fn parse_u64_capped(what: &str, word: &str, cap: u64, why: &str) -> Result<u64, Error> {
    let big = parse_big(what, word)?;
    match u64::try_from(&big) {
        Ok(n) if n <= cap => Ok(n),
        _ => Err(Error::Invalid(format!(
            "{what} '{}' is too large: at most {cap} ({why})",
            shown(word)
        ))),
    }
}

/// [`parse_u64_capped`] that also reads a power as researchers write sizes: `B^K` (`2^30`,
/// `10^9`) and `MeK` (`1e9`, `3e11`: a whole mantissa times a power of ten). Each part is a
/// whole number in [`parse_big`]'s form; a power past the cap is refused with the word as
/// typed, however large it is, from the sizes of its parts (`2^1000000` is never computed).
pub fn parse_u64_power(what: &str, word: &str, cap: u64, why: &str) -> Result<u64, Error> {
    // (B, K, false) for B^K, (M, K, true) for MeK
    let split = word
        .split_once('^')
        .map(|(b, k)| (b, k, false))
        .or_else(|| word.split_once(['e', 'E']).map(|(m, k)| (m, k, true)));
    let Some((first, exponent, decimal)) = split else {
        return parse_u64_capped(what, word, cap, why);
    };
    let (first, exponent) = (parse_big(what, first), parse_big(what, exponent));
    let (Ok(first), Ok(exponent)) = (first, exponent) else {
        return Err(Error::Invalid(format!(
            "{what} '{}' is not a non-negative whole number, B^K or MeK (e.g. 1000000, 2^20, 1e6)",
            shown(word)
        )));
    };
    let too_large = || {
        Error::Invalid(format!(
            "{what} '{}' is too large: at most {cap} ({why})",
            shown(word)
        ))
    };
    let zero = BigUint::from(0u32);
    let one = BigUint::from(1u32);
    // Nothing large is computed: a power that must pass 2^64 is refused from its size alone.
    let value = match decimal {
        // 0^0 = 1, 0^K = 0, 1^K = 1, whatever K's size
        false if first == zero || first == one => {
            if exponent == zero {
                one
            } else {
                first
            }
        }
        false => {
            let k = u64::try_from(&exponent).map_err(|_| too_large())?;
            if (first.bits() - 1).saturating_mul(k) >= 64 {
                return Err(too_large());
            }
            first.pow(k as u32)
        }
        true if first == zero => zero,
        true => {
            let k = u32::try_from(&exponent)
                .ok()
                .filter(|&k| k <= 19 && first.bits() <= 64)
                .ok_or_else(too_large)?;
            first * BigUint::from(10u32).pow(k)
        }
    };
    u64::try_from(&value)
        .ok()
        .filter(|&n| n <= cap)
        .ok_or_else(too_large)
}

/// Parse a comma- (or whitespace-) separated list of u64.
pub fn parse_u64_list(what: &str, text: &str) -> Result<Vec<u64>, Error> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .map(|w| parse_u64(what, w))
        .collect()
}

/// Parse a board size `RxC` (also `R*C`, `RXC`) into (rows, cols); `what` names the board in
/// the message ("board", "bar").
pub fn parse_size(what: &str, text: &str) -> Result<(u32, u32), Error> {
    let bad = || {
        Error::Invalid(format!(
            "{what} size '{}' is not ROWSxCOLS (e.g. 3x4)",
            shown(text)
        ))
    };
    let (r, c) = text.split_once(['x', 'X', '*']).ok_or_else(bad)?;
    // a side of digits past u32 is a size, only far too large for any board
    let side = |s: &str| {
        let s = s.trim();
        s.parse::<u32>().map_err(|_| {
            if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
                Error::Invalid(format!("{what} size '{}' is too large", shown(text)))
            } else {
                bad()
            }
        })
    };
    Ok((side(r)?, side(c)?))
}

/// Read a number of bytes: a number (decimals allowed) with an optional suffix K, M, G or T
/// (powers of 1024, either case, an optional trailing `B`/`iB`), e.g. `800M`, `4G`, `1.5GiB`,
/// `8192`; `None` for anything else or past `u64`. Every `--memory`/`--max-memory` reads sizes
/// this way ([`parse_memory`] adds its range).
pub fn parse_bytes(text: &str) -> Option<u64> {
    let t = text.trim();
    let t = t
        .strip_suffix("iB")
        .or_else(|| t.strip_suffix("ib"))
        .or_else(|| t.strip_suffix(['B', 'b']))
        .unwrap_or(t);
    let (number, shift) = match t.chars().last()? {
        'k' | 'K' => (&t[..t.len() - 1], 10),
        'm' | 'M' => (&t[..t.len() - 1], 20),
        'g' | 'G' => (&t[..t.len() - 1], 30),
        't' | 'T' => (&t[..t.len() - 1], 40),
        _ => (t, 0),
    };
    let number = number.trim();
    // digits and at most one point: no signs, exponents, "inf" or "nan"
    if number.is_empty()
        || !number.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        || number.bytes().filter(|&b| b == b'.').count() > 1
    {
        return None;
    }
    let x: f64 = number.parse().ok()?;
    let bytes = x * (1u64 << shift) as f64;
    (x.is_finite() && bytes < u64::MAX as f64).then_some(bytes as u64)
}

/// Parse a memory size such as `512M` into bytes ([`parse_bytes`]), between 4K and 1024G.
pub fn parse_memory(text: &str) -> Result<usize, Error> {
    let bytes = parse_bytes(text).ok_or_else(|| {
        Error::Invalid(format!(
            "--memory '{}' is not a size: write a number with K, M, G or T (e.g. 512M or 1.5G)",
            shown(text)
        ))
    })?;
    usize::try_from(bytes)
        .ok()
        .filter(|&b| (1 << 12..=1 << 40).contains(&b))
        .ok_or_else(|| {
            Error::Invalid(format!(
                "--memory {} is out of range: give between 4K and 1024G (e.g. 512M)",
                shown(text)
            ))
        })
}

/// The names among `names` a mistyped `word` most likely meant, for a "did you mean" hint:
/// those within edit distance 2 (a swap of two neighbouring letters counts once; case and
/// `-`/`_` ignored), else those that start with `word` (at least 3 letters). Used by every
/// name lookup (take-and-break names, `--game` specs, `play` families, commands' own names),
/// so every front end suggests the same way.
pub fn suggestions<'a>(word: &str, names: &[&'a str]) -> Vec<&'a str> {
    let norm = |w: &str| -> Vec<char> {
        w.trim()
            .chars()
            .map(|c| {
                if c == '_' {
                    '-'
                } else {
                    c.to_ascii_lowercase()
                }
            })
            .collect()
    };
    let w = norm(word);
    if w.is_empty() {
        return Vec::new();
    }
    let scored: Vec<(usize, &str)> = names
        .iter()
        .map(|&n| (edit_distance(&w, &norm(n)), n))
        .collect();
    let best = scored.iter().map(|&(d, _)| d).min().unwrap_or(usize::MAX);
    // Short words need a closer match: "nim" is not a typo of "dim".
    let allowed = if w.len() <= 4 { 1 } else { 2 };
    let mut found: Vec<&str> = if best <= allowed {
        scored
            .into_iter()
            .filter(|&(d, _)| d == best)
            .map(|(_, n)| n)
            .collect()
    } else if w.len() >= 3 {
        names
            .iter()
            .copied()
            .filter(|n| norm(n).starts_with(&w))
            .collect()
    } else {
        Vec::new()
    };
    let mut seen = std::collections::HashSet::new();
    found.retain(|n| seen.insert(*n));
    found
}

/// ` (did you mean 'a' or 'b'?)`, or nothing when no name is close ([`suggestions`]).
pub fn did_you_mean(word: &str, names: &[&str]) -> String {
    let found = suggestions(word, names);
    if found.is_empty() {
        return String::new();
    }
    let quoted: Vec<String> = found.iter().map(|n| format!("'{n}'")).collect();
    let list = match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => quoted.join(""),
    };
    format!(" (did you mean {list}?)")
}

/// Edit distance with adjacent transpositions (optimal string alignment).
fn edit_distance(a: &[char], b: &[char]) -> usize {
    let (n, m) = (a.len(), b.len());
    let mut d = vec![vec![0usize; m + 1]; n + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=n {
        for j in 1..=m {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[n][m]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_powers() {
        let p = |w: &str| parse_u64_power("heap size", w, (1 << 53) - 1, "2^53 - 1");
        assert_eq!(p("2^30").unwrap(), 1 << 30);
        assert_eq!(p("10^9").unwrap(), 1_000_000_000);
        assert_eq!(p("1e9").unwrap(), 1_000_000_000);
        assert_eq!(p("3E11").unwrap(), 300_000_000_000);
        assert_eq!(p("2^0").unwrap(), 1);
        assert_eq!(p("1_000").unwrap(), 1000);
        assert_eq!(
            p("2^53").unwrap_err().to_string(),
            "heap size '2^53' is too large: at most 9007199254740991 (2^53 - 1)"
        );
        assert!(p("2^52").is_ok() && p("9e15").is_ok() && p("1e16").is_err());
        for huge in ["2^1000000", "10^99999999999999999999", "7e4097"] {
            let e = p(huge).unwrap_err().to_string();
            assert!(e.contains("too large"), "{huge}: {e}");
        }
        // 0 and 1 to any power, and zero times any power of ten, are small
        assert_eq!(p("0^99999").unwrap(), 0);
        assert_eq!(p("0^0").unwrap(), 1);
        assert_eq!(p(&format!("1^{}", "9".repeat(1000))).unwrap(), 1);
        assert_eq!(p("0e5000").unwrap(), 0);
        // a huge base is refused from its size, not computed
        let e = p(&format!("{}^4096", "7".repeat(100_000))).unwrap_err();
        assert!(e.to_string().contains("too large"), "{e}");
        assert!(p("18446744073709551616e0").is_err() && p("1e19").is_err());
        for bad in ["2^", "^3", "2^-1", "1.5e3", "e9", "2^3^4", "-2^3"] {
            let e = p(bad).unwrap_err().to_string();
            assert!(
                e.contains("is not a non-negative whole number"),
                "{bad}: {e}"
            );
        }
        // a plain number is read as before
        assert_eq!(p("12345").unwrap(), 12345);
        assert!(p("abc")
            .unwrap_err()
            .to_string()
            .contains("not a non-negative whole number"));
    }

    /// Regression (issue 27): `-n 18446744073709551616` announced a cap of 2^64 - 1 where the
    /// real one is 2^53 - 1.
    #[test]
    fn capped_numbers_name_their_cap() {
        let cap = (1 << 53) - 1;
        let e = parse_u64_capped("heap size", "18446744073709551616", cap, "2^53 - 1")
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "heap size '18446744073709551616' is too large: at most 9007199254740991 (2^53 - 1)"
        );
        assert!(parse_u64_capped("heap size", "9007199254740992", cap, "x").is_err());
        assert_eq!(
            parse_u64_capped("heap size", "9007199254740991", cap, "x").unwrap(),
            cap
        );
    }

    #[test]
    fn numbers_are_read_or_refused_in_one_line() {
        assert_eq!(parse_u64("heap", "1_000").unwrap(), 1000);
        assert_eq!(parse_u64_list("s", "1, 3,4").unwrap(), vec![1, 3, 4]);
        let e = parse_u64("heap", "-3").unwrap_err().to_string();
        assert_eq!(e, "heap '-3' is negative: give a whole number, 0 or more");
        let e = parse_count("--max-moves", "-3").unwrap_err().to_string();
        assert_eq!(
            e,
            "--max-moves '-3' is negative: give a whole number, 1 or more"
        );
        assert_eq!(parse_count("--max-moves", "0").unwrap(), 0);
        assert!(parse_count("--max-moves", "-x")
            .unwrap_err()
            .to_string()
            .contains("not a"));
        let e = parse_u64("heap", "_1").unwrap_err().to_string();
        assert_eq!(e, "heap '_1' is not a non-negative whole number");
        let e = parse_u64("heap", "18446744073709551616").unwrap_err();
        assert!(e.to_string().contains("too large"), "{e}");
        assert_eq!(shown("a\nb"), "a\\nb");
        assert_eq!(shown(&"x".repeat(41)), format!("{}...", "x".repeat(40)));
    }

    #[test]
    fn sizes_and_memory_budgets_are_read_or_refused_in_one_line() {
        assert_eq!(parse_size("board", "3x4").unwrap(), (3, 4));
        assert_eq!(parse_size("bar", " 5 * 6 ").unwrap(), (5, 6));
        let e = parse_size("bar", "3by4").unwrap_err().to_string();
        assert_eq!(e, "bar size '3by4' is not ROWSxCOLS (e.g. 3x4)");
        assert!(parse_size("board", "3x-4").is_err());
        let e = parse_size("board", "4294967296x2").unwrap_err().to_string();
        assert!(e.contains("'4294967296x2' is too large"), "{e}");
        assert_eq!(parse_memory("512M").unwrap(), 512 << 20);
        assert_eq!(parse_memory("4k").unwrap(), 4096);
        assert_eq!(parse_memory("2GiB").unwrap(), 2 << 30);
        assert_eq!(parse_memory("8192").unwrap(), 8192);
        // the grammar of every size option (takebreak's --max-memory read it alone before)
        assert_eq!(parse_memory("1.5G").unwrap(), 3 << 29);
        assert_eq!(parse_memory("1T").unwrap(), 1 << 40);
        assert_eq!(parse_bytes("4096"), Some(4096));
        assert_eq!(parse_bytes("800M"), Some(800 << 20));
        assert_eq!(parse_bytes("4g"), Some(4 << 30));
        assert_eq!(parse_bytes("1.5GiB"), Some(3 << 29));
        assert_eq!(parse_bytes("2KB"), Some(2048));
        assert_eq!(parse_bytes("18446744073709551615T"), None);
        for bad in [
            "", "G", "-1M", "+1M", "lots", "1e30T", "1e3", "nan", "inf", "1.2.3M", ".M",
        ] {
            assert_eq!(parse_bytes(bad), None, "{bad}");
        }
        let e = parse_memory("lots").unwrap_err().to_string();
        assert_eq!(
            e,
            "--memory 'lots' is not a size: write a number with K, M, G or T (e.g. 512M or 1.5G)"
        );
        for far in ["1", "4095", "1025G", "99999999999999999999G"] {
            let e = parse_memory(far).unwrap_err().to_string();
            assert!(
                e.contains("out of range") || e.contains("not a size"),
                "{e}"
            );
        }
        assert!(parse_memory("1025G")
            .unwrap_err()
            .to_string()
            .contains("out of range"));
    }

    #[test]
    fn suggestions_catch_typos_and_prefixes() {
        let names = [
            "kayles",
            "dawsons-kayles",
            "dawsons-chess",
            "officers",
            "grundys-game",
        ];
        assert_eq!(suggestions("kaylse", &names), vec!["kayles"]);
        assert_eq!(suggestions("kayle", &names), vec!["kayles"]);
        assert_eq!(suggestions("officer", &names), vec!["officers"]);
        assert_eq!(
            suggestions("Dawsons_Kayles", &names),
            vec!["dawsons-kayles"]
        );
        assert_eq!(
            suggestions("dawson", &names),
            vec!["dawsons-kayles", "dawsons-chess"]
        );
        assert!(suggestions("xyz", &names).is_empty());
        assert!(suggestions("", &names).is_empty());
        assert_eq!(
            did_you_mean("dawson", &names),
            " (did you mean 'dawsons-kayles' or 'dawsons-chess'?)"
        );
        assert_eq!(
            did_you_mean("ofiicers", &names),
            " (did you mean 'officers'?)"
        );
        assert_eq!(did_you_mean("chess", &names), "");
    }
}
