//! The order in which a census hands out its codes: the costliest first.
//!
//! Why: a census's codes are far from equal — at n = 2^15 most codes of `0.3??` take
//! milliseconds and a few take seconds, and the few grow like n² when the game has no sparse
//! space. Handed out in pattern order, the last slow code may start when every other code is
//! done, and run while the other workers are idle: two workers gave 1.70x one worker's
//! throughput on `0.3??` (docs/performance.md). Handing out the longest jobs first (the classic
//! LPT rule) keeps the workers busy until the end, whoever runs the tasks: this is the one
//! place that decides, for the local pool and for every executor of the Python package.
//!
//! How the cost is estimated before running: each code is run once to a small heap size
//! ([`pilot_size`]: n / 64, from 4096 to 16384, on the census's own engine choice, stopping at a certified period) and each
//! half of the pilot is timed in CPU time of its thread (wall time would charge a code for the
//! other processes of a loaded machine). A code certified within the pilot costs about what the
//! pilot cost; any other is charged the pilot's time scaled to n by the growth the two halves
//! show (see [`estimate`]): a game without a sparse space grows like n², one with a sparse
//! space about like n, and a pilot alone (scaled as n² for every code) put codes costly early
//! but linear (0.364–0.367) before the quadratic ones that dominate. The pilots run on every core of the calling process, and only when the census goes well beyond
//! them (n at least [`PILOT_FACTOR`] times [`PILOT_N`]), so that they cost little next to the
//! census: at n = 2^15 a quadratic code's pilot is 1/64 of the code.
//!
//! The order changes when codes run, never what they compute: every code is still the library's
//! run of it.

use crate::engine::{Engine, EngineChoice};
use grundy::takebreak::{compute, extend, Computation, Finish, Rules};
use rayon::prelude::*;

/// The heap size of the pilot runs: n / 64 within `PILOT_N..=PILOT_MAX` (a longer pilot for a
/// longer census: at n = 2^20 the growth read from pilots to 4096 was noisy enough to rank
/// 0.015, which costs a third of a second at 2^17, among the first five of 576 codes).
pub const PILOT_N: usize = 4096;
/// The longest pilot.
pub const PILOT_MAX: usize = 16384;
/// Pilots run only when the census's n is at least this many times [`PILOT_N`].
pub const PILOT_FACTOR: u64 = 4;

/// The pilot's heap size for a census to `n`.
pub fn pilot_size(n: u64) -> usize {
    usize::try_from(n / 64)
        .unwrap_or(usize::MAX)
        .clamp(PILOT_N, PILOT_MAX)
        .next_power_of_two()
        .min(PILOT_MAX)
}

/// The estimated cost of computing `rules` to `n` (or to a certified period when
/// `until_period`), in seconds of CPU of one core, from a pilot run to [`pilot_size`] in two
/// halves. A code the engine cannot run costs 0 (the task itself reports why).
///
/// When the first half took `t1` and the second `t2`, a cost growing like n^e gives
/// `t2 / t1 = 2^e - 1`: so `e = log2(1 + t2 / t1)`, kept within 1..=2 (the engines' range on
/// octal codes; a half too short to time says little), and the estimate is
/// `(t1 + t2) * (n / pilot)^e`. A code certified within
/// the pilot costs what the pilot cost.
pub fn estimate(rules: &Rules, n: u64, until_period: bool, choice: EngineChoice) -> f64 {
    let pilot = pilot_size(n).min(usize::try_from(n).unwrap_or(usize::MAX));
    let Ok(mut engine) = Engine::choose(choice, rules) else {
        return 0.0;
    };
    let finish = if until_period {
        Finish::AtCertificate
    } else {
        Finish::ComputeAll
    };
    let certified =
        |run: &Computation| until_period && run.period.as_ref().is_some_and(|p| p.certified);
    let start = thread_cpu_seconds();
    let Ok(half) = compute(rules, pilot / 2, finish, engine.as_dyn(), None) else {
        return 0.0;
    };
    let t1 = thread_cpu_seconds() - start;
    if certified(&half) {
        return t1;
    }
    let Ok(whole) = extend(
        rules,
        half.values.into_u16(),
        pilot,
        finish,
        engine.as_dyn(),
        None,
    ) else {
        return 0.0;
    };
    let t2 = thread_cpu_seconds() - start - t1;
    if certified(&whole) {
        return t1 + t2;
    }
    let e = (1.0 + t2 / t1.max(1e-9)).log2().clamp(1.0, 2.0);
    (t1 + t2) * (n as f64 / pilot as f64).powf(e)
}

/// The indices of `rules`, costliest first by [`estimate`] (ties in the given order), the
/// pilots run on `threads` threads (the census's `--jobs`: a census asked to use one core does
/// not take two to order its codes). Without pilots (n below `PILOT_FACTOR * PILOT_N`, or
/// fewer than two codes) the given order.
pub fn costliest_first(
    rules: &[Rules],
    n: u64,
    until_period: bool,
    choice: EngineChoice,
    threads: usize,
) -> Vec<usize> {
    let mut order: Vec<usize> = (0..rules.len()).collect();
    if rules.len() < 2 || n < PILOT_FACTOR * PILOT_N as u64 {
        return order;
    }
    let pilots = || -> Vec<f64> {
        rules
            .par_iter()
            .map(|r| estimate(r, n, until_period, choice))
            .collect()
    };
    let costs = match rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
    {
        Ok(pool) => pool.install(pilots),
        // no pool (out of threads): the pilots on this thread alone
        Err(_) => rules
            .iter()
            .map(|r| estimate(r, n, until_period, choice))
            .collect(),
    };
    // a stable sort: equal estimates keep the pattern order
    order.sort_by(|&a, &b| costs[b].total_cmp(&costs[a]));
    order
}

/// CPU time of the calling thread, in seconds (on systems without a per-thread clock, wall
/// time).
#[cfg(unix)]
fn thread_cpu_seconds() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec for the call to fill in.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    if status != 0 {
        return wall_seconds();
    }
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

#[cfg(not(unix))]
fn thread_cpu_seconds() -> f64 {
    wall_seconds()
}

fn wall_seconds() -> f64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(codes: &[&str]) -> Vec<Rules> {
        codes.iter().map(|c| Rules::parse(c).unwrap()).collect()
    }

    #[test]
    fn a_code_without_a_sparse_space_goes_before_codes_certified_at_once() {
        // 0.1 and 0.07 are certified within a few hundred values, 0.6 (Officers) has a sparse
        // space (linear); 0.767 has values in the thousands and no sparse space (quadratic).
        // Pilots to 16,384 values (a census to 2^20): 0.767's costs some 100 ms, a margin no
        // load or clock resolution closes (pilots to 4,096 were a few ms apart: flaky)
        let r = rules(&["0.1", "0.6", "0.767", "0.07"]);
        let order = costliest_first(&r, 1 << 20, true, EngineChoice::Auto, 2);
        assert_eq!(order[0], 2, "{order:?}");
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, [0, 1, 2, 3], "a permutation of every code");
        // a certified code is charged its pilot, not n²
        let cheap = estimate(&r[0], 1 << 20, true, EngineChoice::Auto);
        let dear = estimate(&r[2], 1 << 20, true, EngineChoice::Auto);
        assert!(cheap * 100.0 < dear, "{cheap} {dear}");
    }

    #[test]
    fn small_censuses_keep_the_pattern_order() {
        let r = rules(&["0.767", "0.1", "0.04"]);
        assert_eq!(
            costliest_first(
                &r,
                PILOT_FACTOR * PILOT_N as u64 - 1,
                true,
                EngineChoice::Auto,
                2
            ),
            [0, 1, 2]
        );
        assert_eq!(
            costliest_first(&r[..1], 1 << 20, true, EngineChoice::Auto, 1),
            [0]
        );
    }

    #[test]
    fn pilots_grow_with_the_census_within_bounds() {
        assert_eq!(pilot_size(1 << 16), PILOT_N);
        assert_eq!(pilot_size(1 << 19), 8192);
        assert_eq!(pilot_size(1 << 20), PILOT_MAX);
        assert_eq!(pilot_size(u64::MAX), PILOT_MAX);
    }

    #[test]
    fn thread_cpu_time_advances_with_work() {
        let a = thread_cpu_seconds();
        let mut x = 0u64;
        for i in 0..20_000_000u64 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(i);
        }
        std::hint::black_box(x);
        assert!(thread_cpu_seconds() > a);
    }
}
