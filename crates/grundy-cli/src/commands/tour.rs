//! `grundy tour`: a quick walk through one example from each family, printing what it shows.

use crate::common::{emit, CliResult};
use grundy::games::{nim, subtraction, wythoff};
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
    let seq = subtraction::sequence(&set, 13);
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

    let (topic, lines) = super::takebreak::tour_stop();
    stops.push(Stop { topic, lines });

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
