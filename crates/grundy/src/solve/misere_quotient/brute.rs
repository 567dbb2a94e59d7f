//! The independent reference: misère outcomes of positions (multisets of heaps) by plain
//! search, with no quotient, no genus and no shortcut, for tests and `--check`.

use super::heaps::{options_of, HeapGame};
use crate::Error;
use rustc_hash::FxHashMap;

/// Misère outcomes (`true` = P) of every position of heaps `1..=max_heap` whose heaps add up
/// to at most `max_total`, keyed by the sorted heaps. Refuses above `max_positions` positions.
pub fn all_outcomes(
    game: &dyn HeapGame,
    max_heap: u32,
    max_total: u32,
    max_positions: usize,
) -> Result<FxHashMap<Vec<u32>, bool>, Error> {
    let options: Vec<Vec<Vec<u32>>> = (0..=max_heap.max(max_total))
        .map(|h| options_of(game, h))
        .collect();
    let mut memo: FxHashMap<Vec<u32>, bool> = FxHashMap::default();
    // Every multiset of heaps 1..=max_heap with total <= max_total.
    let mut positions = Vec::new();
    let mut current = Vec::new();
    fn gen(
        min: u32,
        max_heap: u32,
        left: u32,
        current: &mut Vec<u32>,
        out: &mut Vec<Vec<u32>>,
        limit: usize,
    ) -> bool {
        out.push(current.clone());
        if out.len() > limit {
            return false;
        }
        for h in min..=max_heap.min(left) {
            current.push(h);
            let ok = gen(h, max_heap, left - h, current, out, limit);
            current.pop();
            if !ok {
                return false;
            }
        }
        true
    }
    if !gen(
        1,
        max_heap,
        max_total,
        &mut current,
        &mut positions,
        max_positions,
    ) {
        return Err(Error::TooLarge(format!(
            "too large to brute-force: more than {max_positions} positions"
        )));
    }
    for pos in &positions {
        outcome(&options, pos, &mut memo);
    }
    let mut out = FxHashMap::default();
    for pos in positions {
        let v = memo[&pos];
        out.insert(pos, v);
    }
    Ok(out)
}

/// The misère outcome (`true` = P) of one position, memoised, by an explicit stack.
pub fn outcome(
    options: &[Vec<Vec<u32>>],
    start: &[u32],
    memo: &mut FxHashMap<Vec<u32>, bool>,
) -> bool {
    let mut stack: Vec<(Vec<u32>, bool)> = vec![(start.to_vec(), false)];
    while let Some((pos, expanded)) = stack.pop() {
        if memo.contains_key(&pos) {
            continue;
        }
        let mut opts = Vec::new();
        for (i, &h) in pos.iter().enumerate() {
            if i > 0 && pos[i - 1] == h {
                continue;
            }
            for o in &options[h as usize] {
                let mut q: Vec<u32> = pos[..i].iter().chain(&pos[i + 1..]).copied().collect();
                q.extend_from_slice(o);
                q.sort_unstable();
                opts.push(q);
            }
        }
        if expanded {
            // Misère: no move means the player to move wins (N); otherwise P iff every
            // option is N.
            let p = !opts.is_empty() && opts.iter().all(|o| !memo[o]);
            memo.insert(pos, p);
        } else {
            stack.push((pos, true));
            for o in opts {
                if !memo.contains_key(&o) {
                    stack.push((o, false));
                }
            }
        }
    }
    memo[start]
}
