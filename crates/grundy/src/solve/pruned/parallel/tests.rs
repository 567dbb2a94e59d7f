use super::*;
use crate::games::chomp::Chomp;
use crate::games::cram::Cram;
use crate::solve::pruned::answer;

/// Parallel answers that did share out the root (not handed to the single-threaded search).
pub(super) static SHARED_RUNS: AtomicU64 = AtomicU64::new(0);

/// Every question (value and moves, outcome only, no moves) on 2 and 4 threads gets the
/// single-threaded answer.
fn same_answers<G>(game: G, p: &G::Position, method: ValueMethod)
where
    G: LabelledMoves + Clone + Send + Sync,
    G::Position: Send + Sync + 'static + std::fmt::Debug,
    G::Move: Send + Sync + PartialEq + std::fmt::Debug,
{
    let before = SHARED_RUNS.load(Ordering::Relaxed);
    for (outcome_only, moves) in [(false, true), (true, true), (false, false)] {
        let q = Question {
            memory: 1 << 20,
            method,
            outcome_only,
            moves,
        };
        let one = answer(game.clone(), p, &q, None).unwrap();
        for threads in [2, 4] {
            let many = answer_parallel(game.clone(), p, &q, threads, None).unwrap();
            assert_eq!(
                (many.grundy_value, many.outcome, &many.winning_moves),
                (one.grundy_value, one.outcome, &one.winning_moves),
                "{p:?} on {threads} threads, {q:?}"
            );
        }
    }
    // A root that neither splits nor is known was shared out (the counter is global and tests
    // run at once, so only this direction can be checked).
    if game.components(p).is_none() && game.known_value(&game.canonical(p)).is_none() {
        assert!(SHARED_RUNS.load(Ordering::Relaxed) >= before + 6, "{p:?}");
    }
}

#[test]
fn parallel_cram_answers_equal_single_threaded_ones() {
    for r in 1..=4u32 {
        for c in r..=16 / r {
            let cram = Cram::new(r, c).unwrap();
            same_answers(cram, &cram.start(), ValueMethod::Queries);
            let cram = Cram::new(c, r).unwrap();
            same_answers(cram, &cram.start(), ValueMethod::Queries);
        }
    }
    // Boards with blocked cells, at most 16 empty cells in a 4x5 grid (a fixed pseudo-random
    // sequence, so a failure can be replayed).
    let cram = Cram::new(4, 5).unwrap();
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    for _ in 0..150 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let blocked = (x & cram.start()) & (x >> 20 & cram.start());
        let empty = cram.start() & !blocked;
        if empty.count_ones() <= 16 {
            same_answers(cram, &empty, ValueMethod::Queries);
        }
    }
}

/// Every Young diagram of at most `max` squares, as row lengths.
fn diagrams(max: u32) -> Vec<Vec<u32>> {
    fn extend(rows: &mut Vec<u32>, left: u32, out: &mut Vec<Vec<u32>>) {
        if !rows.is_empty() {
            out.push(rows.clone());
        }
        let cap = rows.last().copied().unwrap_or(left).min(left);
        for len in 1..=cap {
            rows.push(len);
            extend(rows, left - len, out);
            rows.pop();
        }
    }
    let mut out = Vec::new();
    extend(&mut Vec::new(), max, &mut out);
    out
}

#[test]
fn parallel_chomp_answers_equal_single_threaded_ones() {
    let all = diagrams(20);
    assert_eq!(all.len(), 2713); // p(1) + ... + p(20)
    for (i, rows) in all.iter().enumerate() {
        // All of them with both methods would take a while: Mex on all, Queries on a tenth.
        let p = Chomp::shape(rows).unwrap();
        same_answers(Chomp, &p, ValueMethod::Mex);
        if i % 10 == 0 {
            same_answers(Chomp, &p, ValueMethod::Queries);
        }
    }
}

#[test]
fn one_shared_table_gives_the_answers_of_a_private_one() {
    for (r, c) in [(3, 5), (4, 5), (3, 7)] {
        let cram = Cram::new(r, c).unwrap();
        let q = Question::default();
        let a = answer(cram, &cram.start(), &q, None).unwrap();
        let b = answer_on_shared(cram, &cram.start(), &q).unwrap();
        // The same search, node for node (both tables keep everything here).
        assert_eq!(
            (a.grundy_value, a.winning_moves, a.search.nodes),
            (b.grundy_value, b.winning_moves, b.search.nodes)
        );
        assert_eq!(b.search.positions_replaced, 0);
    }
}

#[test]
fn a_parallel_search_stops_when_progress_says_so() {
    let p = Chomp::rectangle(11, 11).unwrap();
    let q = Question {
        method: ValueMethod::Mex,
        ..Question::default()
    };
    let stop: ProgressFn = Box::new(|_| false);
    let e = answer_parallel(Chomp, &p, &q, 2, Some(stop)).unwrap_err();
    assert_eq!(e.to_string(), INTERRUPTED);
}

/// Threads that store exclusions (as a refused query does) while another stores the exact
/// values of the same positions: every exact value survives, whatever the interleaving. On a
/// store that let partial knowledge replace an exact value, the blind writes of the second
/// excluding thread undo them every time, and the read-then-write of the first whenever an
/// exact value comes between its read and its write.
#[test]
fn exclusions_from_other_threads_never_undo_an_exact_value() {
    const KEYS: u64 = 4096;
    let table: SharedTable<u64> = SharedTable::with_budget(1 << 22);
    let exact_done = AtomicBool::new(false);
    std::thread::scope(|s| {
        for t in 0..2u64 {
            let mut store = table.clone();
            let exact_done = &exact_done;
            s.spawn(move || {
                // Until the exact values are all in, and one more pass after.
                let mut passes_after = 0;
                while passes_after < 2 {
                    if exact_done.load(Ordering::SeqCst) {
                        passes_after += 1;
                    }
                    for p in 0..KEYS {
                        // Exclusions true of p: its value is p % 7, never 7 + t nor 9.
                        let not = Knowledge::NONE.exclude(7 + t).exclude(9);
                        if t == 0 {
                            // As the search once did: read, then store the merged knowledge
                            // unless the value was known (an exact value may come between).
                            let k = store.get(&p);
                            if k.value().is_none() {
                                store.put(&p, k.merge(not));
                            }
                        } else {
                            // As it does now: store the exclusions, the table merges them.
                            store.put(&p, not);
                        }
                    }
                }
            });
        }
        let mut store = table.clone();
        let exact_done = &exact_done;
        s.spawn(move || {
            for p in 0..KEYS {
                store.put(&p, Knowledge::exact(p % 7));
            }
            exact_done.store(true, Ordering::SeqCst);
        });
    });
    for p in 0..KEYS {
        assert_eq!(table.get(&p), Knowledge::exact(p % 7), "position {p}");
    }
    assert_eq!(table.len(), KEYS as usize);
}
