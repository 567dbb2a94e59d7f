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
