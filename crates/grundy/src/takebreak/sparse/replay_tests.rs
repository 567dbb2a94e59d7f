//! A replay of the witness search on real values (issue 25, "a witness index"): how many
//! splits today's search looks at, and how many positions searches restricted to an index
//! (positions whose value has a given bit set; positions of infrequent values) would touch.
//! A measurement, not a test: ignored unless asked for, with the values in a file.
//! [`replay_block_tail`] replays the tail of the search at a frontier from a checkpoint (session 23).
//!
//! ```text
//! grundy takebreak 0.146 -n 1048576 --no-extend --no-checkpoint --no-record --print --json
//!   (the "values" array written as little-endian u16 to values.u16)
//! REPLAY_CODE=0.146 REPLAY_VALUES=values.u16 REPLAY_SAMPLES=200 \
//!   cargo test --release -p grundy --lib replay -- --ignored --nocapture
//! ```
//!
//! For each sampled heap of the second half it takes the wanted set as the engine has it (the
//! candidate stage's missing values below the candidate; checked against `candidate_wide`),
//! the order in which today's search visits the splits (four stretches per split move in
//! doubling chunks from 128 on the wide path, middle-out chunks from 32 on the one-word path;
//! no carry, no hints) and each wanted value's first witness in that order. Then, for the
//! last `K` values to be found (the coupon collector's tail), the positions a restricted scan
//! touches: (A) the positions whose value has the wanted value's least frequent set bit (each
//! witness split has exactly one such part), one list per bit; (B) the positions of the least
//! frequent common values, a list of at most `n / 16` or `n / 8` positions (a witness there
//! only if a part has such a value, else the contiguous scan goes on).

#![allow(clippy::needless_range_loop)] // the loops follow the engine's cursors

use super::wide::Candidate;
use super::{Mode, RareCommon};

/// The splits `(s, i)` of the split moves' heaps `ms` in the order of today's search, until
/// `visit` says stop. Returns the number visited.
fn engine_order(
    ms: &[usize],
    wide: bool,
    later: usize,
    mut visit: impl FnMut(usize, usize) -> bool,
) -> u64 {
    let mut t = 0u64;
    if wide {
        let mut cur = Vec::new();
        for &m in ms {
            let half = if m >= 2 { m / 2 } else { 0 };
            for k in 0..4 {
                cur.push((1 + k * half / 4, 1 + (k + 1) * half / 4));
            }
        }
        let mut chunk = 128usize;
        loop {
            let mut progressed = false;
            for c in 0..cur.len() {
                let s = c / 4;
                let (lo, end) = cur[c];
                if lo >= end {
                    continue;
                }
                let share = if s > 0 { later } else { 1 };
                let hi = (lo + (chunk / share).max(1)).min(end);
                cur[c].0 = hi;
                progressed = true;
                for i in lo..hi {
                    t += 1;
                    if visit(s, i) {
                        return t;
                    }
                }
            }
            if !progressed {
                return t;
            }
            chunk = (chunk * 2).min(1 << 14);
        }
    } else {
        let mut cur: Vec<usize> = ms
            .iter()
            .map(|&m| if m >= 2 { m / 2 + 1 } else { 1 })
            .collect();
        let mut chunk = 32usize;
        loop {
            let mut progressed = false;
            for s in 0..ms.len() {
                let hi = cur[s];
                if hi <= 1 {
                    continue;
                }
                let lo = hi.saturating_sub(chunk).max(1);
                cur[s] = lo;
                progressed = true;
                for i in lo..hi {
                    t += 1;
                    if visit(s, i) {
                        return t;
                    }
                }
            }
            if !progressed {
                return t;
            }
            chunk = (chunk * 2).min(1 << 14);
        }
    }
}

/// A restricted scan: the positions `p` of `list` (ascending) below `m` for each heap `m` of
/// `ms`, four stretches per heap in doubling chunks as the wide search, until `visit` says stop.
fn list_order(list: &[u32], ms: &[usize], mut visit: impl FnMut(usize, usize) -> bool) -> u64 {
    let mut cur = Vec::new();
    for &m in ms {
        let len = if m >= 2 {
            list.partition_point(|&p| (p as usize) < m)
        } else {
            0
        };
        for k in 0..4 {
            cur.push((k * len / 4, (k + 1) * len / 4));
        }
    }
    let mut t = 0u64;
    let mut chunk = 128usize;
    loop {
        let mut progressed = false;
        for c in 0..cur.len() {
            let s = c / 4;
            let (lo, end) = cur[c];
            if lo >= end {
                continue;
            }
            let hi = (lo + chunk).min(end);
            cur[c].0 = hi;
            progressed = true;
            for j in lo..hi {
                t += 1;
                if visit(s, list[j] as usize) {
                    return t;
                }
            }
        }
        if !progressed {
            return t;
        }
        chunk = (chunk * 2).min(1 << 14);
    }
}

/// The candidate stage of heap `n` by its definition: the options without a heap or with one,
/// and every split with a rare part, are marked in `found`; the candidate is the first value
/// neither found nor blocked. Returns the split moves' heaps, `found` and the candidate.
fn candidate_by_definition(
    engine: &RareCommon,
    g: &[u16],
    n: usize,
) -> (Vec<usize>, Vec<bool>, usize) {
    let ms: Vec<usize> = engine.moves.split_heaps(n).collect();
    let mut found = vec![false; 1 << 16];
    if engine.moves.whole.contains(&n) {
        found[0] = true;
    }
    for &k in &engine.moves.take {
        if k < n {
            found[g[n - k] as usize] = true;
        }
    }
    for &m in ms.iter().filter(|&&m| m >= 2) {
        for &r in engine.rare.iter() {
            let r = r as usize;
            if r < m {
                found[(g[r] ^ g[m - r]) as usize] = true;
            }
        }
    }
    let free = (0..1 << 16)
        .find(|&v| !found[v] && !engine.split.is_blocked(v as u16, n & 1))
        .unwrap();
    (ms, found, free)
}

/// Each of the `wanted` values' first witness in today's order ([`engine_order`]: the count of
/// splits looked at when it is found; `u64::MAX` if none is), and the splits looked at in all.
fn first_witnesses(
    g: &[u16],
    ms: &[usize],
    wide: bool,
    later: usize,
    wanted: &[usize],
) -> (Vec<u64>, u64) {
    let mut first = vec![u64::MAX; 1 << 16];
    let mut is_wanted = vec![false; 1 << 16];
    for &w in wanted {
        is_wanted[w] = true;
    }
    let mut left = wanted.len();
    if left == 0 {
        return (first, 0);
    }
    let mut t = 0u64;
    let total = engine_order(ms, wide, later, |s, i| {
        t += 1;
        let x = (g[i] ^ g[ms[s] - i]) as usize;
        if is_wanted[x] && first[x] == u64::MAX {
            first[x] = t;
            left -= 1;
        }
        left == 0
    });
    (first, total)
}

#[test]
#[ignore]
fn replay_witness_index() {
    let (Ok(code), Ok(path)) = (std::env::var("REPLAY_CODE"), std::env::var("REPLAY_VALUES"))
    else {
        eprintln!("set REPLAY_CODE and REPLAY_VALUES");
        return;
    };
    let samples: usize = std::env::var("REPLAY_SAMPLES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    let bytes = std::fs::read(&path).unwrap();
    let g: Vec<u16> = bytes
        .chunks_exact(2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .collect();
    let top = g.len() - 1;
    let code: crate::takebreak::Code = code.parse().unwrap();
    let mut engine = RareCommon::new(&code).unwrap();
    let first_sample = top / 2;
    let step = ((top - first_sample) / samples).max(1);
    let later = if engine.moves.split.len() >= 2
        && engine.moves.split.contains(&(engine.moves.split[0] + 1))
    {
        4
    } else {
        1
    };
    // bit lists and value counts over the whole sequence (a heap of the second half reads
    // the positions below it; the lists are cut at m)
    let bits = 16 - g.iter().max().unwrap().leading_zeros() as usize;
    let mut bit_lists: Vec<Vec<u32>> = vec![Vec::new(); bits];
    let mut count = vec![0u64; 1 << 16];
    for (p, &v) in g.iter().enumerate().skip(1) {
        for (j, list) in bit_lists.iter_mut().enumerate() {
            if v >> j & 1 == 1 {
                list.push(p as u32);
            }
        }
        count[v as usize] += 1;
    }
    let bit_share: Vec<f64> = bit_lists
        .iter()
        .map(|l| l.len() as f64 / top as f64)
        .collect();
    eprintln!(
        "{code} to {top}: bits set {:?}",
        bit_share
            .iter()
            .map(|f| format!("{:.3}", f))
            .collect::<Vec<_>>()
    );
    const KS: [usize; 7] = [0, 1, 2, 4, 8, 16, 32];
    const BUDGETS: [usize; 2] = [16, 8];
    let mut today_model = 0u64;
    let mut today_engine = 0u64;
    let mut heaps = 0u64;
    let mut wanted_total = 0u64;
    let mut rare_heaps = 0u64;
    let mut tail_bits = vec![0u64; bits];
    // per K: (contiguous part, design A positions, design B positions per budget, B misses)
    let mut contiguous = [0u64; KS.len()];
    let mut design_a = [0u64; KS.len()];
    let mut design_b = [[0u64; BUDGETS.len()]; KS.len()];
    let mut b_misses = [[0u64; BUDGETS.len()]; KS.len()];
    let mut b_extra = [[0u64; BUDGETS.len()]; KS.len()];
    let mut a_extra = [0u64; KS.len()];
    let mut one_bit = [0u64; KS.len()];
    let mut one_bit_contiguous = [0u64; KS.len()];
    let mut lists_b: Vec<Vec<u32>> = Vec::new();
    let mut lists_b_at = 0;
    for n in 1..=top {
        let sample = n >= first_sample && (n - first_sample) % step == 0;
        if !sample {
            let v = engine.next_value(&g[..n]).unwrap();
            assert_eq!(v, g[n], "heap {n}");
            continue;
        }
        engine.catch_up(&g[..n]);
        if engine.mode != Mode::Sparse {
            let v = engine.next_value(&g[..n]).unwrap();
            assert_eq!(v, g[n], "heap {n}");
            continue;
        }
        let (ms, found, free) = candidate_by_definition(&engine, &g, n);
        let wanted: Vec<u16> = (0..free).filter(|&v| !found[v]).map(|v| v as u16).collect();
        let wide = engine.span > 64;
        let before = engine.stats.scanned_options;
        let v = if wide {
            match engine.candidate_wide(&g[..n]) {
                Candidate::Proved(v) => {
                    assert!(wanted.is_empty() && v == free, "heap {n}");
                    v
                }
                Candidate::Open { free: f, last } => {
                    assert_eq!(f, free, "heap {n}");
                    assert_eq!(Some(&(last as u16)), wanted.last(), "heap {n}");
                    engine.search_wide(&g[..n], f, last)
                }
            }
        } else {
            engine.next_value(&g[..n]).unwrap() as usize
        };
        assert_eq!(v, g[n] as usize, "heap {n}");
        if wanted.is_empty() {
            continue;
        }
        if v != free {
            rare_heaps += 1; // no witness for some value: every split is scanned, any design
            continue;
        }
        heaps += 1;
        wanted_total += wanted.len() as u64;
        today_engine += engine.stats.scanned_options - before;
        // today's order: each wanted value's first witness
        let wanted_at: Vec<usize> = wanted.iter().map(|&w| w as usize).collect();
        let (first, total) = first_witnesses(&g, &ms, wide, later, &wanted_at);
        assert!(wanted_at.iter().all(|&w| first[w] != u64::MAX), "heap {n}");
        today_model += total;
        let mut order: Vec<(u64, u16)> = wanted.iter().map(|&w| (first[w as usize], w)).collect();
        order.sort_unstable_by(|a, b| b.cmp(a));
        {
            let w = order[0].1;
            let j = (0..bits)
                .filter(|&j| w >> j & 1 == 1)
                .min_by(|&a, &b| bit_share[a].total_cmp(&bit_share[b]));
            if let Some(j) = j {
                tail_bits[j] += 1;
            }
        }
        // the infrequent-value lists (common keys only: a rare part's options are found)
        if lists_b.is_empty() || n >= 2 * lists_b_at {
            lists_b_at = n;
            lists_b.clear();
            let mut by_count: Vec<u16> = (0..1u32 << 16)
                .filter(|&v| count[v as usize] > 0)
                .map(|v| v as u16)
                .collect();
            by_count.sort_by_key(|&v| count[v as usize]);
            for &budget in &BUDGETS {
                let mut take = vec![false; 1 << 16];
                let mut used = 0u64;
                for &v in &by_count {
                    if used + count[v as usize] > (top / budget) as u64 {
                        break;
                    }
                    used += count[v as usize];
                    take[v as usize] = true;
                }
                lists_b.push(
                    (1..=top)
                        .filter(|&p| take[g[p] as usize] && engine.split.is_common(g[p], p & 1))
                        .map(|p| p as u32)
                        .collect(),
                );
            }
        }
        for (ki, &k) in KS.iter().enumerate() {
            let (x, tail): (u64, Vec<u16>) = if k == 0 {
                (total, Vec::new())
            } else if order.len() <= k {
                (0, order.iter().map(|o| o.1).collect())
            } else {
                (order[k].0, order[..k].iter().map(|o| o.1).collect())
            };
            contiguous[ki] += x;
            if tail.is_empty() {
                continue;
            }
            // (A1) one indexed bit, the least frequent: the tail values with it from its list,
            // the others by the contiguous scan going on
            {
                let j = (0..bits)
                    .min_by(|&a, &b| bit_share[a].total_cmp(&bit_share[b]))
                    .unwrap();
                let mut want = vec![false; 1 << 16];
                let mut left = 0;
                let mut until = x;
                for &w in &tail {
                    if w >> j & 1 == 1 {
                        want[w as usize] = true;
                        left += 1;
                    } else {
                        until = until.max(first[w as usize]);
                    }
                }
                one_bit_contiguous[ki] += until;
                if left > 0 {
                    one_bit[ki] += list_order(&bit_lists[j], &ms, |s, p| {
                        let x = (g[p] ^ g[ms[s] - p]) as usize;
                        if want[x] {
                            want[x] = false;
                            left -= 1;
                        }
                        left == 0
                    });
                }
            }
            // (A) per least frequent set bit
            let mut groups: Vec<(usize, Vec<u16>)> = Vec::new();
            for &w in &tail {
                let Some(j) = (0..bits)
                    .filter(|&j| w >> j & 1 == 1)
                    .min_by(|&a, &b| bit_share[a].total_cmp(&bit_share[b]))
                else {
                    // 0 has no bit set: the contiguous scan goes on until it finds it
                    a_extra[ki] += first[0] - x;
                    continue;
                };
                match groups.iter_mut().find(|(b, _)| *b == j) {
                    Some((_, ws)) => ws.push(w),
                    None => groups.push((j, vec![w])),
                }
            }
            for (j, ws) in &groups {
                let mut want = vec![false; 1 << 16];
                for &w in ws {
                    want[w as usize] = true;
                }
                let mut left = ws.len();
                design_a[ki] += list_order(&bit_lists[*j], &ms, |s, p| {
                    let x = (g[p] ^ g[ms[s] - p]) as usize;
                    if want[x] {
                        want[x] = false;
                        left -= 1;
                    }
                    left == 0
                });
                assert_eq!(left, 0);
            }
            // (B) the infrequent values' positions
            for (bi, list) in lists_b.iter().enumerate() {
                let mut want = vec![false; 1 << 16];
                for &w in &tail {
                    want[w as usize] = true;
                }
                let mut left = tail.len();
                design_b[ki][bi] += list_order(list, &ms, |s, p| {
                    let x = (g[p] ^ g[ms[s] - p]) as usize;
                    if want[x] {
                        want[x] = false;
                        left -= 1;
                    }
                    left == 0
                });
                if left > 0 {
                    // the contiguous scan goes on until it has found the values missed
                    b_misses[ki][bi] += 1;
                    let until = tail
                        .iter()
                        .filter(|&&w| want[w as usize])
                        .map(|&w| first[w as usize])
                        .max()
                        .unwrap();
                    b_extra[ki][bi] += until - x;
                }
            }
        }
    }
    let h = heaps.max(1) as f64;
    eprintln!(
        "{code}: {heaps} sampled heaps searched to the end ({rare_heaps} more whose value is blocked: exhaustive), {:.1} wanted values per heap",
        wanted_total as f64 / h
    );
    eprintln!(
        "today: {:.0} splits per heap (the model's order), engine's count {:.0} (with hints, carry, batches)",
        today_model as f64 / h,
        today_engine as f64 / h
    );
    eprintln!("the last value's least frequent bit: {:?}", tail_bits);
    eprintln!("K = values left to the restricted scan; per heap: contiguous splits, (A) bit-list positions, (B) infrequent-value positions n/16, n/8 (heaps where B misses a value)");
    for (ki, &k) in KS.iter().enumerate() {
        eprintln!(
            "K {k:2}: contiguous {:8.0}  A {:8.0} +{:7.0}  B16 {:8.0} +{:7.0} after misses ({})  B8 {:8.0} +{:7.0} ({})",
            contiguous[ki] as f64 / h,
            design_a[ki] as f64 / h,
            a_extra[ki] as f64 / h,
            design_b[ki][0] as f64 / h,
            b_extra[ki][0] as f64 / h,
            b_misses[ki][0],
            design_b[ki][1] as f64 / h,
            b_extra[ki][1] as f64 / h,
            b_misses[ki][1]
        );
    }
    for (ki, &k) in KS.iter().enumerate() {
        eprintln!(
            "K {k:2}, one indexed bit (the least frequent): contiguous {:8.0}  listed positions {:8.0}",
            one_bit_contiguous[ki] as f64 / h,
            one_bit[ki] as f64 / h,
        );
    }
}

/// The restricted scan one position at a time: `G(p) ^ G(m - p)` looked up in a bit set.
fn restricted_scalar(g: &[u16], list: &[u32], m: usize, bits: &[u32; 32]) -> u32 {
    let mut hits = 0;
    for &p in list {
        let x = (g[p as usize] ^ g[m - p as usize]) as usize & 1023;
        hits += bits[x >> 5] >> (x & 31) & 1;
    }
    hits
}

/// The restricted scan 16 positions a step: both values gathered, the bit set gathered.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn restricted_gather(g: &[u16], list: &[u32], m: usize, bits: &[u32; 32]) -> u32 {
    use std::arch::x86_64::*;
    let base = g.as_ptr() as *const u8;
    let mv = _mm512_set1_epi32(m as i32);
    let low16 = _mm512_set1_epi32(0xffff);
    let mut acc = _mm512_setzero_si512();
    let steps = list.len() / 16;
    for s in 0..steps {
        let p = _mm512_loadu_si512(list.as_ptr().add(16 * s) as *const _);
        let q = _mm512_sub_epi32(mv, p);
        // (g has a padding value at its end: the dword at the last value reads it)
        let a = _mm512_and_si512(_mm512_i32gather_epi32::<2>(p, base as *const _), low16);
        let b = _mm512_and_si512(_mm512_i32gather_epi32::<2>(q, base as *const _), low16);
        let x = _mm512_and_si512(_mm512_xor_si512(a, b), _mm512_set1_epi32(1023));
        let w = _mm512_i32gather_epi32::<4>(_mm512_srli_epi32::<5>(x), bits.as_ptr() as *const _);
        let bit = _mm512_and_si512(
            _mm512_srlv_epi32(w, _mm512_and_si512(x, _mm512_set1_epi32(31))),
            _mm512_set1_epi32(1),
        );
        acc = _mm512_add_epi32(acc, bit);
    }
    _mm512_reduce_add_epi32(acc) as u32 + restricted_scalar(g, &list[16 * steps..], m, bits)
}

/// The restricted scan with the listed positions' values kept beside them (`vals`): one
/// gather per 16 positions (the partners `G(m - p)`), the bit set of 1024 values looked up in
/// two registers.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn restricted_gather1(
    g: &[u16],
    list: &[u32],
    vals: &[u16],
    m: usize,
    bits: &[u32; 32],
) -> u32 {
    use std::arch::x86_64::*;
    let base = g.as_ptr() as *const u8;
    let mv = _mm512_set1_epi32(m as i32);
    let low16 = _mm512_set1_epi32(0xffff);
    let lo = _mm512_loadu_si512(bits.as_ptr() as *const _);
    let hi = _mm512_loadu_si512(bits.as_ptr().add(16) as *const _);
    let mut acc = _mm512_setzero_si512();
    let steps = list.len() / 16;
    for s in 0..steps {
        let p = _mm512_loadu_si512(list.as_ptr().add(16 * s) as *const _);
        let a = _mm512_cvtepu16_epi32(_mm256_loadu_si256(vals.as_ptr().add(16 * s) as *const _));
        let q = _mm512_sub_epi32(mv, p);
        let b = _mm512_and_si512(_mm512_i32gather_epi32::<2>(q, base as *const _), low16);
        let x = _mm512_xor_si512(a, b);
        let w = _mm512_permutex2var_epi32(lo, _mm512_srli_epi32::<5>(x), hi);
        let bit = _mm512_and_si512(
            _mm512_srlv_epi32(w, _mm512_and_si512(x, _mm512_set1_epi32(31))),
            _mm512_set1_epi32(1),
        );
        acc = _mm512_add_epi32(acc, bit);
    }
    _mm512_reduce_add_epi32(acc) as u32 + restricted_scalar(g, &list[16 * steps..], m, bits)
}

/// What a touched position costs against a split of the contiguous kernel, on the replay's
/// values: the bit lists of `REPLAY_BIT` (default: the least frequent bit) at the last heap.
#[test]
#[ignore]
fn replay_costs() {
    let Ok(path) = std::env::var("REPLAY_VALUES") else {
        eprintln!("set REPLAY_VALUES");
        return;
    };
    let bytes = std::fs::read(&path).unwrap();
    let mut g: Vec<u16> = bytes
        .chunks_exact(2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .collect();
    let top = g.len() - 1;
    let m = top - 2;
    let bits_n = 16 - g.iter().max().unwrap().leading_zeros() as usize;
    let share: Vec<usize> = (0..bits_n)
        .map(|j| g[1..m].iter().filter(|&&v| v >> j & 1 == 1).count())
        .collect();
    let j = std::env::var("REPLAY_BIT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| (0..bits_n).min_by_key(|&j| share[j]).unwrap());
    let list: Vec<u32> = (1..m)
        .filter(|&p| g[p] >> j & 1 == 1)
        .map(|p| p as u32)
        .collect();
    g.push(0);
    // a wanted set nobody produces: every kernel runs to its end
    let none = [0u32; 32];
    let mut out = Vec::new();
    let reps = 20;
    let time = |f: &mut dyn FnMut()| {
        let mut best = f64::MAX;
        for _ in 0..reps {
            let t = std::time::Instant::now();
            f();
            best = best.min(t.elapsed().as_secs_f64());
        }
        best
    };
    let half = m / 2;
    let contiguous = time(&mut || {
        out.clear();
        assert!(super::kernels::collect_wanted_xors(
            &g[..top],
            m,
            1,
            half + 1,
            &none,
            &mut out
        ));
    }) / half as f64;
    let mut sink = 0;
    let scalar = time(&mut || sink += restricted_scalar(&g, &list, m, &none)) / list.len() as f64;
    let gather =
        time(&mut || sink += unsafe { restricted_gather(&g, &list, m, &none) }) / list.len() as f64;
    let vals: Vec<u16> = list.iter().map(|&p| g[p as usize]).collect();
    let gather1 = time(&mut || sink += unsafe { restricted_gather1(&g, &list, &vals, m, &none) })
        / list.len() as f64;
    eprintln!(
        "one gather per 16 positions (values listed): {:.3} ns per position",
        gather1 * 1e9
    );
    // the same positions taken contiguously (every position): the cost of the gathers alone
    let all: Vec<u32> = (1..m as u32).collect();
    let gather_all =
        time(&mut || sink += unsafe { restricted_gather(&g, &all, m, &none) }) / all.len() as f64;
    eprintln!(
        "heap {m}: bit {j} set at {} of {} positions; ns per split contiguous {:.3}; per listed position: scalar {:.3}, gather {:.3}; gather over every position {:.3} (sink {sink})",
        list.len(),
        m,
        contiguous * 1e9,
        scalar * 1e9,
        gather * 1e9,
        gather_all * 1e9
    );
}

/// The witness search's tail at a frontier, replayed from a checkpoint (issue 25, session 23):
/// what the index's list would cost if 32 consecutive heaps scanned it together, one heap per
/// 16-bit lane, instead of one heap at a time.
///
/// Why: at 0.206's frontier (6.4·10^8) the list's positions are spread over the whole sequence,
/// so one heap's partners `G(m - p)` are scattered reads (gathered, about 0.8 ns a position
/// scanned in ascending order, 7.6 s against 4.8 s without the index for 600,000 heaps, session
/// 23). For 32 consecutive heaps the partners of one listed `p` are 32 consecutive values: one
/// load. This counts, per heap, the contiguous splits until at most `REPLAY_TAIL` wanted values
/// are left (today's order, [`engine_order`]), the splits the values without the list's bit
/// still need after that, and the listed positions (ascending) the list needs for the others:
/// one heap at a time, and the longest of 32 consecutive heaps (the block's scan).
///
/// ```text
/// REPLAY_CODE=0.206 REPLAY_CHECKPOINT=206-640M.ckpt REPLAY_BLOCKS=20 REPLAY_TAIL=16 \
///   cargo test --release -p grundy --lib replay_block_tail -- --ignored --nocapture
/// ```
#[test]
#[ignore]
fn replay_block_tail() {
    let (Ok(code), Ok(path)) = (
        std::env::var("REPLAY_CODE"),
        std::env::var("REPLAY_CHECKPOINT"),
    ) else {
        eprintln!("set REPLAY_CODE and REPLAY_CHECKPOINT");
        return;
    };
    let var = |name: &str, default: usize| {
        std::env::var(name)
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(default)
    };
    let (blocks, tail) = (var("REPLAY_BLOCKS", 20), var("REPLAY_TAIL", 16));
    let code: crate::takebreak::Code = code
        .parse()
        .unwrap_or_else(|e| panic!("REPLAY_CODE {code}: {e}"));
    let loaded = crate::takebreak::checkpoint::load(std::path::Path::new(&path), usize::MAX)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .unwrap_or_else(|| panic!("{path}: no such file"));
    assert_eq!(
        loaded.identity.code,
        code.to_string(),
        "{path} holds the values of another game"
    );
    let g = loaded.values;
    let top = g.len() - 1;
    let mut engine = RareCommon::new(&code).unwrap();
    // the list's bit, chosen as the engine chooses it (counts per key `2 v + parity`)
    let keys = 2 * (*g.iter().max().unwrap() as usize + 1);
    let mut counts = vec![0u64; keys];
    for (p, &v) in g.iter().enumerate().skip(1) {
        counts[2 * v as usize + (p & 1)] += 1;
    }
    let bit = super::wide::BitIndex::choose(&counts, top).expect("a bit the engine would index");
    let list: Vec<usize> = (1..=top).filter(|&p| g[p] >> bit & 1 == 1).collect();
    let later = if engine.moves.split.len() >= 2
        && engine.moves.split.contains(&(engine.moves.split[0] + 1))
    {
        4
    } else {
        1
    };
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    let (mut heaps, mut rare_heaps, mut handed, mut rest, mut need_sum, mut block_sum) =
        (0u64, 0u64, 0u64, 0u64, 0u64, 0u64);
    let mut with_targets = 0u64;
    let (mut lane_steps, mut lane_nanos) = (0u64, 0u128);
    for _ in 0..blocks {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let n0 = (top - 64 - (rng as usize % (top / 32).max(1))) & !31;
        engine.catch_up(&g[..n0]);
        assert_eq!(
            engine.mode,
            Mode::Sparse,
            "the replay is of the sparse mode"
        );
        let mut block_max = 0usize;
        let mut lanes: Vec<Vec<u16>> = vec![Vec::new(); 32];
        for n in n0..n0 + 32 {
            let (ms, found, free) = candidate_by_definition(&engine, &g, n);
            if free != g[n] as usize {
                rare_heaps += 1; // a value without a witness: every split is scanned
                continue;
            }
            heaps += 1;
            let wanted: Vec<usize> = (0..free).filter(|&v| !found[v]).collect();
            // each wanted value's first witness in today's order
            let (first, _) = first_witnesses(&g, &ms, true, later, &wanted);
            let mut order: Vec<(u64, usize)> = wanted.iter().map(|&w| (first[w], w)).collect();
            order.sort_unstable();
            let cut = order.len().saturating_sub(tail);
            let at = if cut > 0 { order[cut - 1].0 } else { 0 };
            handed += at;
            let tail_values = &order[cut..];
            let others = tail_values.iter().filter(|&&(_, w)| w >> bit & 1 == 0);
            rest += others.map(|&(f, _)| f).max().unwrap_or(at) - at;
            let mut targets: Vec<usize> = tail_values
                .iter()
                .filter(|&&(_, w)| w >> bit & 1 == 1)
                .map(|&(_, w)| w)
                .collect();
            if targets.is_empty() {
                continue;
            }
            with_targets += 1;
            lanes[n - n0] = targets.iter().map(|&w| w as u16).collect();
            let m = ms[0];
            let mut need = 0;
            for (k, &p) in list.iter().enumerate() {
                if p >= m {
                    break;
                }
                let x = (g[p] ^ g[m - p]) as usize;
                if let Some(i) = targets.iter().position(|&w| w == x) {
                    targets.swap_remove(i);
                    if targets.is_empty() {
                        need = k + 1;
                        break;
                    }
                }
            }
            assert!(targets.is_empty(), "heap {n}: the list misses a witness");
            need_sum += need as u64;
            block_max = block_max.max(need);
        }
        block_sum += block_max as u64;
        // the same scan with the 32 heaps in lanes: it must stop where the slowest heap did
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx512bw") && engine.moves.split.len() == 1 {
            let m0 = engine.moves.split_heaps(n0).next().unwrap();
            let cut = list.partition_point(|&p| p < m0.saturating_sub(64));
            let positions: Vec<u32> = list[..cut].iter().map(|&p| p as u32).collect();
            let values: Vec<u16> = list[..cut].iter().map(|&p| g[p]).collect();
            // SAFETY: AVX-512 BW checked above; every partner run lies below m0 + 32 <= top
            let steps = unsafe { lanes_scan(&g, m0, &positions, &values, &lanes) };
            // timed with the partners in the caches, as the block after the last would find
            // them in a run (the replay's blocks are far apart; a run's are neighbours)
            let start = std::time::Instant::now();
            // SAFETY: as above
            let again = unsafe { lanes_scan(&g, m0, &positions, &values, &lanes) };
            lane_nanos += start.elapsed().as_nanos();
            assert_eq!(steps, again);
            lane_steps += steps as u64;
            assert_eq!(steps, block_max, "block at {n0}: the lanes stop elsewhere");
        }
    }
    let per = |x: u64| x as f64 / heaps.max(1) as f64;
    eprintln!(
        "{code} near {top}: {heaps} heaps ({rare_heaps} rare values left out), list of bit {bit}: \
         {} positions; tail at {tail}: {:.0} contiguous splits per heap before it, {:.0} after \
         it (the values without bit {bit}); {:.3} of the heaps give the list values",
        list.len(),
        per(handed),
        per(rest),
        per(with_targets)
    );
    eprintln!(
        "listed positions (ascending): one heap at a time {:.0} per heap; 32 heaps in lanes \
         {:.0} per block, {:.0} per heap",
        per(need_sum),
        block_sum as f64 / blocks as f64,
        block_sum as f64 / blocks as f64 / 32.0
    );
    if lane_steps > 0 {
        eprintln!(
            "the lanes' scan (AVX-512, 16 target slots): {:.2} ns per listed position for 32 \
             heaps, {:.3} µs per heap",
            lane_nanos as f64 / lane_steps as f64,
            lane_nanos as f64 / 1000.0 / (32 * blocks) as f64
        );
    }
}

/// The list's scan for 32 consecutive heaps at once: lane `j` is the heap whose split leaves
/// `m0 + j`, with at most 16 wanted values `targets[j]` (each taken out when found). Returns the
/// listed positions looked at until every lane's values were found (0 if none had any).
///
/// A lane's values sit in its first slots: a value found is replaced by the lane's last, so
/// only as many slots as the fullest lane still has are compared (most lanes keep one or two
/// values for most of the scan: the last ones are the rarest). Tried and slower (6.98 against
/// 5.71 ns a position): values knocked out in their registers, compacted every 256 positions.
///
/// # Safety
/// AVX-512 BW; `m0 - p + 32 <= g.len()` and `p <= m0` for every listed `p`; every lane has at
/// most 16 targets.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
unsafe fn lanes_scan(
    g: &[u16],
    m0: usize,
    positions: &[u32],
    values: &[u16],
    targets: &[Vec<u16>],
) -> usize {
    use std::arch::x86_64::*;
    const SLOTS: usize = 16;
    let mut slots = [[u16::MAX; 32]; SLOTS];
    let mut count = [0usize; 32];
    for (j, lane) in targets.iter().enumerate() {
        assert!(lane.len() <= SLOTS);
        for (t, &w) in lane.iter().enumerate() {
            slots[t][j] = w;
        }
        count[j] = lane.len();
    }
    let mut active = count.iter().copied().max().unwrap_or(0);
    if active == 0 {
        return 0;
    }
    let load = |slots: &[[u16; 32]; SLOTS], t: usize| {
        _mm512_loadu_si512(slots[t].as_ptr() as *const __m512i)
    };
    let mut regs: [__m512i; SLOTS] = std::array::from_fn(|t| load(&slots, t));
    for (k, (&p, &v)) in positions.iter().zip(values).enumerate() {
        let x = _mm512_xor_si512(
            _mm512_loadu_si512(g.as_ptr().add(m0 - p as usize) as *const __m512i),
            _mm512_set1_epi16(v as i16),
        );
        let mut any = 0u32;
        for reg in &regs[..active] {
            any |= _mm512_cmpeq_epi16_mask(x, *reg);
        }
        if any == 0 {
            continue;
        }
        let mut xs = [0u16; 32];
        _mm512_storeu_si512(xs.as_mut_ptr() as *mut __m512i, x);
        let mut lanes = any;
        while lanes != 0 {
            let j = lanes.trailing_zeros() as usize;
            lanes &= lanes - 1;
            let t = (0..count[j])
                .find(|&t| slots[t][j] == xs[j])
                .expect("a hit");
            count[j] -= 1;
            slots[t][j] = slots[count[j]][j];
            slots[count[j]][j] = u16::MAX;
        }
        active = count.iter().copied().max().unwrap_or(0);
        if active == 0 {
            return k + 1;
        }
        for (t, reg) in regs.iter_mut().enumerate().take(active) {
            *reg = load(&slots, t);
        }
    }
    positions.len()
}
