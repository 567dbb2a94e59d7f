//! Throughput of the online period detector on long synthetic sequences (the fast engine pushes
//! 10^8 values through it). Run: `cargo run --release -p grundy --example period_throughput [N]`.

use grundy::takebreak::PeriodDetector;
use std::time::Instant;

fn lcg(state: &mut u64) -> u64 {
    *state = state
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *state >> 33
}

fn run(name: &str, g: &[u16], theorem: bool) {
    let start = Instant::now();
    let mut d = PeriodDetector::new(theorem, 3);
    for i in 0..g.len() {
        d.push_from(&g[..=i]);
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{name:<48} {:>11} values {secs:>7.2} s {:>6.1} ns/value  rescans {:>3}  status {:?}",
        g.len(),
        secs * 1e9 / g.len() as f64,
        d.rescans(),
        d.status()
    );
}

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .map(|a| a.parse().expect("a number"))
        .unwrap_or(20_000_000);
    let mut s = 1u64;
    // Aperiodic, skewed like the values of an unsolved octal game: a few common values.
    let random: Vec<u16> = (0..n)
        .map(|_| {
            let x = lcg(&mut s) % 100;
            if x < 90 {
                (x % 6) as u16
            } else {
                (6 + x % 30) as u16
            }
        })
        .collect();
    run("aperiodic, 6 common + 30 rare values", &random, true);
    // Long preperiod, then period 10 (certified near 2·(pre + p)).
    let pre = n / 3;
    let block: Vec<u16> = (0..10).map(|_| (lcg(&mut s) % 8) as u16).collect();
    let late: Vec<u16> = (0..n)
        .map(|i| {
            if i < pre {
                (lcg(&mut s) % 8) as u16
            } else {
                block[(i - pre) % 10]
            }
        })
        .collect();
    run("preperiod n/3, period 10, theorem", &late, true);
    run("preperiod n/3, period 10, observed only", &late, false);
    // Period 7 that breaks every 2^k values (observed periods come and go).
    let mut breaking = Vec::with_capacity(n);
    for i in 0..n {
        let v = if i.is_power_of_two() {
            9
        } else {
            (i % 7) as u16
        };
        breaking.push(v);
    }
    run("period 7 broken at every power of two", &breaking, false);
    // Nearly constant: long runs of zeros with rare spikes at growing gaps.
    let spikes: Vec<u16> = (0..n)
        .map(|i| u16::from((i as f64).sqrt().fract() < 1e-9))
        .collect();
    run("zeros with spikes at squares", &spikes, false);
}
