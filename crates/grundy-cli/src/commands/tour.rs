//! `grundy tour`: a quick walk through one example from each family, printing what it shows.

use crate::common::{emit, CliResult};
use grundy::games::multiplayer::{li, Preferences};
use grundy::games::welter::Coins;
use grundy::games::{cdnim, nim, subtraction, wythoff};
use grundy::solve::Solver;
use grundy::young::{grundy_value_by_hooks, quotient_theorem, Partition};
use num_bigint::BigUint;
use serde::Serialize;

/// A quick tour: one worked example from each family, in a few seconds.
///
/// Example: `grundy tour`
#[derive(clap::Args, Debug)]
pub struct TourArgs {}

#[derive(Serialize)]
struct Stop {
    topic: String,
    lines: Vec<String>,
}

pub fn run(_args: TourArgs, json: bool) -> CliResult {
    let mut stops = Vec::new();

    let heaps: Vec<BigUint> = [3u32, 5, 2].iter().map(|&h| h.into()).collect();
    let v = nim::nim_value(&heaps);
    let m = &nim::winning_moves(&heaps)[0];
    stops.push(Stop {
        topic: "Nim (primer §1): value = nim-sum".into(),
        lines: vec![
            format!("heaps 3 5 2: grundy value 3 xor 5 xor 2 = {v}, an N-position"),
            format!(
                "winning move: heap {} from {} to {} (to value 0)",
                m.heap, m.from, m.to
            ),
            format!(
                "misère outcome of 1 1 1: {}",
                nim::misere_outcome(&[1u32.into(), 1u32.into(), 1u32.into()])
            ),
        ],
    });

    let set = subtraction::SubtractionSet::finite(vec![1, 3, 4]).expect("valid set");
    let seq = subtraction::sequence(&set, 13)?;
    stops.push(Stop {
        topic: "Subtraction game S = {1,3,4}".into(),
        lines: vec![format!(
            "G(0..13) = {}",
            seq.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        )],
    });

    let (a, b) = wythoff::p_position(&10u32.into());
    stops.push(Stop {
        topic: "Wythoff's game: P-positions (floor(kφ), floor(kφ²))".into(),
        lines: vec![format!("k = 10: ({a}, {b}) is a P-position")],
    });

    // Common-divisor Nim (paper §2): Theorem 2.4 on the paper's example and on huge heaps.
    let ex: Vec<BigUint> = [6u32, 3, 2].iter().map(|&h| h.into()).collect();
    let inv = cdnim::Invariants::of(&ex);
    let moves = cdnim::winning_moves(&ex, 10);
    let huge: Vec<BigUint> = vec![
        BigUint::from(3u32).pow(200) << 5u32,
        BigUint::from(7u32).pow(150) << 5u32,
    ];
    stops.push(Stop {
        topic: "Common-divisor Nim (Theorem 2.4): sg = lambda + 1 if iota is odd, else 0".into(),
        lines: vec![
            format!(
                "(6, 3, 2): lambda = {}, iota = {}, grundy value {}",
                inv.lambda.expect("non-zero position"),
                inv.iota,
                inv.grundy_value()
            ),
            format!(
                "winning move: heap {} minus common divisor {} -> {}",
                moves.moves[0].heap, moves.moves[0].divisor, moves.moves[0].to
            ),
            format!(
                "(3^200 * 32, 7^150 * 32), heaps of {} and {} digits: grundy value {} (iota = 2 is even)",
                huge[0].to_string().len(),
                huge[1].to_string().len(),
                cdnim::grundy_value(&huge)
            ),
        ],
    });

    let (topic, lines) = super::takebreak::tour_stop();
    stops.push(Stop { topic, lines });

    // Multiplayer Nim (paper §5): sums do not behave as in two-player games.
    let li = Preferences::li(3).expect("three players");
    let mut solver = Solver::multiplayer(nim::nim(), li);
    let mut offset = |heaps: &[u64]| {
        solver
            .position_offset(&nim::Nim::position(heaps), 0)
            .expect("small Nim positions evaluate")
    };
    let (a, b, c) = (
        offset(&[2, 2, 2]),
        offset(&[1, 3]),
        offset(&[2, 2, 2, 1, 3]),
    );
    stops.push(Stop {
        topic: "Three-player Nim under Li's ranking GAMES(0,1,2) (multiplayer paper §5)".into(),
        lines: vec![
            format!("(2,2,2) is a {a}-position and (1,3) a {b}-position, yet their sum (2,2,2,1,3) is a {c}-position"),
            format!(
                "Li's oplus_3(2,2,2) = {}: Thm 3.1, the previous player wins iff oplus_3 = 0",
                li::oplus_m(&[2u32.into(), 2u32.into(), 2u32.into()], 3)
            ),
        ],
    });

    // Sato–Welter game and Young diagrams (hook paper): the paper's running example.
    let lambda = Partition::new(vec![10, 10, 8, 6, 5, 5, 3, 1]).expect("a partition");
    let beta = lambda.beta_numbers();
    let coins = Coins::new(beta.clone()).expect("distinct squares");
    let mv = coins.winning_moves().into_iter().next();
    let qt = quotient_theorem(&lambda)?;
    stops.push(Stop {
        topic: "Sato-Welter game and Young diagrams (hook paper, Theorems 2 and 4)".into(),
        lines: vec![
            format!(
                "partition (10,10,8,6,5,5,3,1): beta-numbers {beta:?}, {} boxes",
                lambda.boxes()
            ),
            format!(
                "Welter's formula: grundy value {} (hook formula: {})",
                coins.grundy_value(),
                grundy_value_by_hooks(&lambda)
            ),
            match mv {
                Some(m) => format!(
                    "a winning move: coin {} -> square {} (removes a hook of length {})",
                    m.from,
                    m.to,
                    m.from - m.to
                ),
                None => "no winning move: a P-position".into(),
            },
            format!(
                "quotient theorem: sg = 2 * {} + {} = {}",
                qt.even_hook_value,
                qt.two_core_value,
                qt.right_hand_side()
            ),
        ],
    });

    emit(json, &serde_json::json!({ "stops": stops }), || {
        let mut s = String::new();
        for stop in &stops {
            s.push_str(&format!("== {}\n", stop.topic));
            for l in &stop.lines {
                s.push_str(&format!("   {l}\n"));
            }
        }
        s
    })
}
