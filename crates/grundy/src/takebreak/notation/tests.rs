//! Every form of the notation against a plain brute force of its rules.

use super::*;
use crate::takebreak::naive::sequence_of;

fn parse(text: &str) -> Notation {
    Notation::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn mex(seen: &[u64]) -> u64 {
    (0..).find(|v| !seen.contains(v)).expect("a mex")
}

/// G(0..=n) from the listed options: the mex of the nim-sums of the heaps of each option.
fn brute(code: &Notation, n: u64) -> Vec<u64> {
    let mut g: Vec<u64> = Vec::new();
    for m in 0..=n {
        let seen: Vec<u64> = code
            .options(m, 1 << 20)
            .unwrap()
            .iter()
            .map(|parts| parts.iter().fold(0, |x, &p| x ^ g[p as usize]))
            .collect();
        g.push(mex(&seen));
    }
    g
}

fn engine(code: &Notation, n: usize) -> Vec<u64> {
    let rules = code.to_rules().unwrap();
    sequence_of(&rules, n)
        .unwrap()
        .into_iter()
        .map(u64::from)
        .collect()
}

#[test]
fn repeating_three_is_nim() {
    let nim = parse("0.[3]");
    assert_eq!(nim.to_string(), "0.[3]");
    assert_eq!(brute(&nim, 40), (0..=40).collect::<Vec<u64>>());
    // Every smaller heap, and nothing else, is an option.
    assert_eq!(
        nim.options(4, 100).unwrap(),
        vec![vec![3], vec![2], vec![1], vec![]]
    );
}

#[test]
fn all_but_two_three_seven_is_that_subtraction_game() {
    let code = parse("0.3003330[3]");
    let forbidden = [2u64, 3, 7];
    let mut g: Vec<u64> = Vec::new();
    for n in 0..=60u64 {
        let seen: Vec<u64> = (1..=n)
            .filter(|s| !forbidden.contains(s))
            .map(|s| g[(n - s) as usize])
            .collect();
        g.push(mex(&seen));
    }
    assert_eq!(brute(&code, 60), g);
}

#[test]
fn four_unequal_is_grundys_game() {
    let code = parse("4!.0");
    assert_eq!(code.to_rules().unwrap(), Rules::GrundysGame);
    assert_eq!(parse("grundys-game"), code);
    assert_eq!(parse("{2!}.0").to_rules().unwrap(), Rules::GrundysGame);
    assert_eq!(parse("{2}!").to_rules().unwrap(), Rules::GrundysGame);
    // Its options are the splits into two unequal heaps, computed directly.
    for n in 0..30u64 {
        let direct: Vec<Vec<u64>> = (1..n)
            .rev()
            .filter(|&a| a > n - a)
            .map(|a| vec![a, n - a])
            .collect();
        assert_eq!(code.options(n, 1000).unwrap(), direct, "n = {n}");
    }
    // Grundy's game by its definition, the options brute force and the engine agree.
    let mut g: Vec<u64> = Vec::new();
    for n in 0..=80u64 {
        let seen: Vec<u64> = (1..n)
            .filter(|&a| a < n - a)
            .map(|a| g[a as usize] ^ g[(n - a) as usize])
            .collect();
        g.push(mex(&seen));
    }
    assert_eq!(brute(&code, 80), g);
    assert_eq!(engine(&code, 80), g);
}

#[test]
fn finite_codes_agree_with_the_engine() {
    // A small deterministic generator: d0 in {0, 4, 8, C}, up to four digits below 16.
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..60 {
        let mut text = String::new();
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        text.push(['0', '4', '8', 'C'][(x % 4) as usize]);
        text.push('.');
        for i in 0..1 + (x >> 8) % 4 {
            let d = (x >> (12 + 4 * i)) % 16;
            text.push(std::char::from_digit(d as u32, 16).unwrap());
        }
        let code = parse(&text);
        assert_eq!(brute(&code, 22), engine(&code, 22), "{text}");
    }
}

#[test]
fn digit_sets_and_large_digits_are_the_same_bits() {
    assert_eq!(
        parse("0.{2,3}").to_rules().unwrap(),
        parse("0.C").to_rules().unwrap()
    );
    assert_eq!(
        parse("0.{0,1,2}").to_rules().unwrap(),
        parse("0.7").to_rules().unwrap()
    );
    assert_eq!(parse("0.&63;7").to_string(), "0.&63;7");
    assert_eq!(parse("0.&7;").to_string(), "0.7");
    assert_eq!(parse("0.{6}").to_string(), "0.&64;");
    assert_eq!(parse("{2!}.0").to_string(), "4!.0");
    assert_eq!(parse("0.{2?,3?}").to_string(), "0.C?");
    assert_eq!(parse("0.{2,3?}").to_string(), "0.{2,3?}");
    // Qualifiers on moves leaving at most one heap constrain nothing.
    assert_eq!(
        parse("0.3=").to_rules().unwrap(),
        parse("0.3").to_rules().unwrap()
    );
    for text in [
        "0.[3]",
        "0.3003330[3]",
        "4!.0",
        "{2+}.0",
        "0.[{0+}=]",
        "8?.0",
        "0.{1,2!}",
    ] {
        let code = parse(text);
        assert_eq!(parse(&code.to_string()), code, "{text} -> {code}");
    }
}

#[test]
fn qualifiers_and_unbounded_counts_by_enumeration() {
    // 8!: three pairwise unequal heaps; 8?: three heaps not all equal; {2+}=: equal heaps.
    assert_eq!(parse("8!.0").options(6, 100).unwrap(), vec![vec![3, 2, 1]]);
    assert_eq!(
        parse("8?.0").options(6, 100).unwrap(),
        vec![vec![4, 1, 1], vec![3, 2, 1]]
    );
    assert_eq!(
        parse("{2+}=.0").options(6, 100).unwrap(),
        vec![vec![3, 3], vec![2, 2, 2], vec![1; 6]]
    );
    // `*` is any number of heaps, zero included (when nothing is left).
    assert_eq!(
        parse("0.*").options(3, 100).unwrap(),
        vec![vec![2], vec![1, 1]]
    );
    assert_eq!(
        parse("0.*").options(1, 100).unwrap(),
        vec![Vec::<u64>::new()]
    );
    // {2+}.0 is every split into two or more heaps: all partitions of n but n itself.
    let counts: Vec<usize> = (1..=12)
        .map(|n| parse("{2+}.0").options(n, 1 << 20).unwrap().len())
        .collect();
    let partitions_minus_one = [0, 1, 2, 4, 6, 10, 14, 21, 29, 41, 55, 76];
    assert_eq!(counts, partitions_minus_one);
    // Unequal parts by direct filtering of all partitions.
    for n in 0..=20 {
        let all = parse("{2+}.0").options(n, 1 << 20).unwrap();
        let unequal: Vec<_> = all
            .into_iter()
            .filter(|p| p.windows(2).all(|w| w[0] != w[1]))
            .collect();
        assert_eq!(
            parse("{2+}!.0").options(n, 1 << 20).unwrap(),
            unequal,
            "n = {n}"
        );
    }
    let e = parse("{2+}.0").options(60, 1000).unwrap_err().to_string();
    assert!(e.contains("more than 1000 options"), "{e}");
}

#[test]
fn forms_the_engines_lack_are_refused_by_name() {
    let e = parse("0.[3]").to_rules().unwrap_err().to_string();
    assert!(e.contains("repeating") && e.contains("&N;"), "{e}");
    let e = parse("8!.0").to_rules().unwrap_err().to_string();
    assert!(e.contains("qualifier"), "{e}");
    let e = parse("{2+}.0").to_rules().unwrap_err().to_string();
    assert!(e.contains("'+'"), "{e}");
    let e = Notation::parse("20.017").unwrap_err().to_string();
    assert!(e.contains("add tokens"), "{e}");
    let e = parse("80.0").to_rules().unwrap_err().to_string();
    assert!(e.contains("digits before d0"), "{e}");
    let e = Notation::parse("0.{2,3").unwrap_err().to_string();
    assert!(e.contains("without a matching"), "{e}");
    let e = Notation::parse("0.{200}").unwrap_err().to_string();
    assert!(e.contains("at most 127"), "{e}");
    let e = Notation::parse("0.[3]7").unwrap_err().to_string();
    assert!(e.contains("must end the code"), "{e}");
    assert!(Notation::parse("0.{2!}!").is_err());
    assert!(Notation::parse("0.[]").is_err());
    assert!(Notation::parse("*.0").is_err());
}

#[test]
fn digits_before_d0_add_tokens() {
    // 80.0: add one token, leave three heaps. A heap of 1 becomes 2 tokens: no three heaps.
    let code = parse("80.0");
    assert_eq!(code.to_string(), "80.0");
    assert_eq!(code.options(1, 100).unwrap(), Vec::<Vec<u64>>::new());
    assert_eq!(code.options(2, 100).unwrap(), vec![vec![1, 1, 1]]);
    assert_eq!(
        code.options(5, 100).unwrap(),
        vec![vec![4, 1, 1], vec![3, 2, 1], vec![2, 2, 2]]
    );
    // An empty heap has no moves, adding or not.
    assert!(code.options(0, 100).unwrap().is_empty());
    // Removing first (in order of tokens removed), then adding (in order of tokens added).
    let code = parse("{4+}80.3");
    assert_eq!(code.to_string(), "{4+}80.3");
    assert_eq!(
        code.options(2, 100).unwrap(),
        vec![vec![1], vec![1, 1, 1], vec![1, 1, 1, 1]]
    );
    // Leading zeros before the point are no digits; d-1 = 0 is kept when d-2 is not.
    assert_eq!(parse("0080.0"), parse("80.0"));
    assert_eq!(parse("&16;00.0").to_string(), "G00.0");
    assert_ne!(parse("&16;00.0"), parse("&16;0.0"));
    for text in [
        "80.0", "{3+}0.6", "8!00.77", "&48;0.0", "{4=+}0.0", "8?0.0", "{4+}80.3",
    ] {
        let code = parse(text);
        assert_eq!(code.to_string(), text);
        assert_eq!(parse(&code.to_string()), code, "{text}");
    }
}

#[test]
fn digits_before_d0_that_can_grow_a_heap_are_refused_with_the_move() {
    let refused = |text: &str, shown: &str| {
        let e = Notation::parse(text).unwrap_err().to_string();
        assert!(e.contains(shown), "{text}: {e}");
        assert!(
            e.contains("add tokens") && e.contains("k + 2 heaps"),
            "{text}: {e}"
        );
    };
    refused("40.0", "a heap of 1 can become 1 + 1");
    refused("20.0", "a heap of 1 can become 2 ");
    refused("20.017", "d-1 = 2");
    refused("4!0.0", "a heap of 2 can become 2 + 1");
    refused("4?0.0", "a heap of 2 can become 2 + 1");
    refused("4=0.0", "a heap of 1 can become 1 + 1");
    refused("*0.0", "a heap of 1 can become 2 ");
    refused("{2+}0.0", "d-1 = {2+}");
    // Adding two tokens: three heaps may still hold the heap moved (1 + 2 = 1 + 1 + 1).
    refused("800.0", "d-2 = 8 adds 2 tokens");
    refused("{3=}00.0", "a heap of 1 can become 1 + 1 + 1");
    // Pairwise unequal, adding 2: three unequal heaps hold at most n + 2 - (1 + 2) each.
    assert!(Notation::parse("8!00.0").is_ok());
    // All equal, adding 3 into two heaps: a heap of 1 becomes 2 + 2 (and 3 becomes 3 + 3).
    refused("{2=}000.0", "a heap of 1 can become 2 + 2");
    // d0 must still be a split: the last digit before the point is d0.
    let e = Notation::parse("77").unwrap_err().to_string();
    assert!(
        e.contains("digits before the point") && e.contains("d0 = 7"),
        "{e}"
    );
}

/// Whether some heap `n <= 40` has an option (under `code`, with its adding digits) that
/// keeps a heap of at least `n`: what the refusal of a code guards against.
fn grows_a_heap(code: &Notation) -> bool {
    (1..=40).any(|n| {
        code.options(n, 1 << 20)
            .unwrap()
            .iter()
            .any(|parts| parts.iter().any(|&p| p >= n))
    })
}

#[test]
fn accepted_adding_digits_never_grow_a_heap_and_refused_ones_can() {
    // Every digit with bits among 0..6 and an optional qualifier, one or two places before d0:
    // a code is accepted exactly when no move of a heap up to 40 keeps a heap as large.
    let qualifiers = ["", "!", "?", "="];
    for bits in 1u32..64 {
        for q in qualifiers {
            for zeros in ["", "0"] {
                let text = format!("&{bits};{q}{zeros}0.0");
                match Notation::parse(&text) {
                    Ok(code) => assert!(!grows_a_heap(&code), "{text} accepted"),
                    Err(e) => {
                        // Refused: the same code, unchecked, has such a move.
                        let digit = parse(&format!("0.&{bits};{q}")).digits[1].clone();
                        let mut unchecked = parse("0.0");
                        unchecked.adds = match zeros {
                            "" => vec![digit],
                            _ => vec![Digit::zero(), digit],
                        };
                        assert!(grows_a_heap(&unchecked), "{text} refused: {e}");
                    }
                }
            }
        }
    }
}
