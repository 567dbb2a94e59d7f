use super::*;
use crate::solve::pruned::{answer, ValueMethod};
use crate::NormalPlay;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// A fresh empty directory for one test.
pub(in crate::solve::pruned) fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("grundy-table-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn contents<P: TableKey + Ord>(t: &Table<P>) -> Vec<(P, u64)> {
    let mut v: Vec<(P, u64)> = t.entries().map(|(p, k)| (p.clone(), k.to_bits())).collect();
    v.sort();
    v
}

fn identity() -> TableIdentity {
    Cram::new(4, 5).unwrap().table_identity()
}

/// Exact values and exclusions of many positions.
fn sample() -> Table<u64> {
    let mut t = Table::with_budget(1 << 24);
    for p in 0..30_000u64 {
        let k = if p % 3 == 0 {
            Knowledge::NONE.exclude(p % 7).exclude(62)
        } else {
            Knowledge::exact(p % 11)
        };
        t.put(&(p * 0x9E37_79B9), k);
    }
    t
}

#[test]
fn a_saved_table_loads_back_what_it_held() {
    let dir = temp_dir("roundtrip");
    let path = dir.join("t.table");
    let t = sample();
    assert_eq!(save_table(&path, &identity(), &t).unwrap(), t.len() as u64);
    // only the table is left: no temporary file
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["t.table"]);
    let mut back = Table::with_budget(1 << 24);
    assert_eq!(
        load_table(&path, &identity(), &mut back).unwrap(),
        Some(t.len() as u64)
    );
    // Every exact value comes back, nothing that was not saved, and partial knowledge as far
    // as there is room beside the exact values.
    let (a, b) = (contents(&t), contents(&back));
    let exact = |v: &[(u64, u64)]| {
        v.iter()
            .filter(|e| Knowledge::from_bits(e.1).value().is_some())
            .count()
    };
    assert!(b.iter().all(|e| a.binary_search(e).is_ok()));
    assert_eq!(exact(&a), exact(&b));
    assert!(b.len() * 100 >= a.len() * 95, "{} of {}", b.len(), a.len());
    assert_eq!(
        load_table(&dir.join("none"), &identity(), &mut back).unwrap(),
        None
    );
    // A small budget keeps the exact values first (they are written first).
    let mut small: Table<u64> = Table::with_budget(1 << 16);
    load_table(&path, &identity(), &mut small).unwrap();
    let original: HashMap<u64, Knowledge> = t.entries().map(|(p, k)| (*p, k)).collect();
    assert!(small.entries().all(|(p, k)| original[p] == k));
    assert!(small.entries().all(|(_, k)| k.value().is_some()));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn corrupt_truncated_and_foreign_files_are_refused_and_load_nothing() {
    let dir = temp_dir("refuse");
    let path = dir.join("t.table");
    save_table(&path, &identity(), &sample()).unwrap();
    let good = std::fs::read(&path).unwrap();
    let refused = |bytes: &[u8], id: &TableIdentity| -> String {
        std::fs::write(&path, bytes).unwrap();
        let mut t: Table<u64> = Table::with_budget(1 << 20);
        let e = load_table(&path, id, &mut t).unwrap_err().to_string();
        assert!(t.is_empty(), "a refused file loaded entries: {e}");
        assert!(!e.contains('\n'), "{e}");
        e
    };
    let mut flipped = good.clone();
    flipped[good.len() / 2] ^= 8;
    assert!(refused(&flipped, &identity()).contains("checksum mismatch"));
    let e = refused(&good[..good.len() - 5], &identity());
    assert!(e.contains("corrupt") && e.contains("length"), "{e}");
    assert!(refused(b"GRUNDY", &identity()).contains("not a grundy table file"));
    assert!(refused(b"hello, world: no table here", &identity()).contains("not a grundy table"));
    let mut future = good.clone();
    future[8] = 9;
    assert!(refused(&future, &identity()).contains("format 9"));
    // Another board, another game: refused, naming what differs.
    let other = Cram::new(5, 4).unwrap().table_identity();
    let e = refused(&good, &other);
    assert!(
        e.contains("belongs to another run")
            && e.contains("'4x5 grid'")
            && e.contains("'5x4 grid'")
    );
    let e = refused(&good, &Chomp.table_identity());
    assert!(e.contains("game is 'cram'") && e.contains("'chomp'"), "{e}");
    // Positions of another size.
    let mut small: Table<u32> = Table::with_budget(1 << 20);
    small.put(&7, Knowledge::exact(1));
    save_table(&path, &identity(), &small).unwrap();
    let e = refused(&std::fs::read(&path).unwrap(), &identity());
    assert!(e.contains("position size is '4 bytes'"), "{e}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn identities_name_the_grid_and_follow_the_encoding() {
    let a = Cram::new(4, 5).unwrap().table_identity();
    assert_eq!(a.game, "cram");
    assert_eq!(a.board, "4x5 grid");
    assert_eq!(a.encoding, "u64 set of empty cells, cell (r,c) is bit 5r+c");
    assert_ne!(a, Cram::new(5, 4).unwrap().table_identity());
    // A board drawn in a 4x5 grid shares the rectangle's table.
    let (drawn, _) = Cram::from_text("..#..\n.....\n.....\n....#\n").unwrap();
    assert_eq!(drawn.table_identity(), a);
    assert!(Chomp.table_identity().encoding.contains("3,1 is 0x"));
}

/// Stop after `calls` progress calls (each every few thousand nodes).
fn stop_after(calls: u64) -> ProgressFn {
    let n = AtomicU64::new(0);
    Box::new(move |_| n.fetch_add(1, Ordering::Relaxed) + 1 < calls)
}

/// Runs killed every few thousand nodes, each resuming from the file the last one saved, end
/// with the answer of one uninterrupted run (and of the plain evaluator), and need fewer nodes
/// in all than starting over each time would.
fn killed_and_resumed_runs_equal_one_run<G>(
    game: G,
    p: &G::Position,
    method: ValueMethod,
    name: &str,
) where
    G: LabelledMoves + SavedTable + Clone,
    G::Position: TableKey,
    G::Move: PartialEq + std::fmt::Debug,
{
    let dir = temp_dir(name);
    let saving = Saving {
        path: dir.join("t.table"),
        every: Duration::from_secs(3600),
    };
    let question = Question {
        memory: 64 << 20,
        method,
        ..Question::default()
    };
    let once = answer(game.clone(), p, &question, None).unwrap();
    assert_eq!(
        once.grundy_value,
        Some(NormalPlay::new(game.clone()).grundy_value(p).unwrap())
    );
    let mut runs = 0;
    let mut nodes = 0;
    let resumed = loop {
        runs += 1;
        let notes = Mutex::new(Vec::new());
        let tell = |n: Notice| notes.lock().unwrap().push(n);
        match answer_saved(
            game.clone(),
            p,
            &question,
            Some(stop_after(1)),
            &saving,
            &tell,
        ) {
            Ok(a) => break a,
            Err(e) => {
                let e = e.to_string();
                assert!(
                    e.starts_with("interrupted: ") && e.contains("run the same command again"),
                    "{e}"
                );
                nodes += crate::solve::pruned::PROGRESS_EVERY;
            }
        }
        let notes = notes.into_inner().unwrap();
        assert!(
            notes
                .iter()
                .all(|n| matches!(n, Notice::Note(m) if m.starts_with("resuming"))),
            "{notes:?}"
        );
        assert_eq!(notes.len(), usize::from(runs > 1));
        assert!(runs < 1000, "no progress");
    };
    assert!(runs >= 3, "{name}: only {runs} runs: pick a larger game");
    assert_eq!(resumed.grundy_value, once.grundy_value);
    assert_eq!(resumed.outcome, once.outcome);
    assert_eq!(resumed.winning_moves, once.winning_moves);
    // The killed runs together did about the work of one run: no run started over.
    let total = nodes + resumed.search.nodes;
    assert!(
        total < 2 * once.search.nodes,
        "{name}: {total} nodes vs {}",
        once.search.nodes
    );
    // A finished search saved its table: asking again costs (almost) nothing.
    let again = answer_saved(game, p, &question, None, &saving, &|_| {}).unwrap();
    assert_eq!(again.grundy_value, once.grundy_value);
    assert!(again.search.nodes < 100, "{}", again.search.nodes);
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn killed_and_resumed_cram_equals_one_run() {
    let cram = Cram::new(5, 6).unwrap();
    killed_and_resumed_runs_equal_one_run(cram, &cram.start(), ValueMethod::Queries, "cram");
}

#[test]
fn killed_and_resumed_chomp_equals_one_run() {
    let p = Chomp::rectangle(10, 10).unwrap();
    killed_and_resumed_runs_equal_one_run(Chomp, &p, ValueMethod::Mex, "chomp");
}

#[test]
fn a_second_search_on_a_locked_file_reads_it_but_does_not_write() {
    let dir = temp_dir("lock");
    let saving = Saving {
        path: dir.join("t.table"),
        every: Duration::ZERO,
    };
    let p = Chomp::rectangle(6, 6).unwrap();
    let question = Question::default();
    answer_saved(Chomp, &p, &question, None, &saving, &|_| {}).unwrap();
    let before = std::fs::read(&saving.path).unwrap();
    let held = Lock::try_acquire(&saving.path).unwrap().unwrap();
    let notes = Mutex::new(Vec::new());
    let tell = |n: Notice| notes.lock().unwrap().push(n);
    let bigger = Chomp::rectangle(7, 7).unwrap();
    let a = answer_saved(Chomp, &bigger, &question, None, &saving, &tell).unwrap();
    let b = answer(Chomp, &bigger, &question, None).unwrap();
    assert_eq!(
        (a.grundy_value, a.winning_moves),
        (b.grundy_value, b.winning_moves)
    );
    let notes = notes.into_inner().unwrap();
    assert!(
        matches!(&notes[0], Notice::Note(m) if m.starts_with("resuming")),
        "{notes:?}"
    );
    assert!(
        matches!(&notes[1], Notice::Warning(m) if m.contains("another search is using")),
        "{notes:?}"
    );
    assert_eq!(std::fs::read(&saving.path).unwrap(), before);
    drop(held);
    // a missing directory is refused before any work
    let missing = Saving {
        path: dir.join("none").join("t.table"),
        every: Duration::ZERO,
    };
    let e = answer_saved(Chomp, &p, &question, None, &missing, &|_| {}).unwrap_err();
    assert!(e.to_string().contains("does not exist"), "{e}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn the_table_is_saved_while_the_search_runs() {
    let dir = temp_dir("periodic");
    let saving = Saving {
        path: dir.join("t.table"),
        every: Duration::ZERO,
    };
    // The progress callback runs before the snapshot: at its second call, the first save is
    // on disk.
    let seen = Arc::new(AtomicBool::new(false));
    let (calls, path, seen2) = (AtomicU64::new(0), saving.path.clone(), Arc::clone(&seen));
    let progress: ProgressFn = Box::new(move |_| {
        if calls.fetch_add(1, Ordering::Relaxed) == 1 {
            seen2.store(path.exists(), Ordering::Relaxed);
        }
        true
    });
    let p = Chomp::rectangle(10, 10).unwrap();
    let q = Question {
        method: ValueMethod::Mex,
        ..Question::default()
    };
    answer_saved(Chomp, &p, &q, Some(progress), &saving, &|_| {}).unwrap();
    assert!(seen.load(Ordering::Relaxed));
    std::fs::remove_dir_all(dir).unwrap();
}

/// The table a finished search on `game` from `p` saved, and the file's path.
fn saved_search<G>(game: G, p: &G::Position, dir: &Path) -> (Saving, Table<G::Position>)
where
    G: LabelledMoves + SavedTable + Clone,
    G::Position: TableKey,
{
    let saving = Saving {
        path: dir.join("t.table"),
        every: Duration::from_secs(3600),
    };
    answer_saved(game, p, &Question::default(), None, &saving, &|_| {}).unwrap();
    let mut t = Table::with_budget(1 << 24);
    load_table(&saving.path, &identity_of(&saving.path), &mut t).unwrap();
    (saving, t)
}

/// The identity a table file's header holds (read back through a refusal-free load).
fn identity_of(path: &Path) -> TableIdentity {
    let bytes = std::fs::read(path).unwrap();
    let mut at = 12;
    let mut text = || {
        let n = u16::from_le_bytes([bytes[at], bytes[at + 1]]) as usize;
        let s = String::from_utf8(bytes[at + 2..at + 2 + n].to_vec()).unwrap();
        at += 2 + n;
        s
    };
    TableIdentity {
        game: text(),
        board: text(),
        encoding: text(),
    }
}

/// `t` with `p`'s entry replaced by `k` (a new table: `put` would merge).
fn with_entry(t: &Table<u64>, p: u64, k: Knowledge) -> Table<u64> {
    let mut out = Table::with_budget(1 << 24);
    for (q, old) in t.entries() {
        if *q != p {
            out.put(q, old);
        }
    }
    out.put(&p, k);
    out
}

/// Regression (issue 27): a saved Cram table whose start entry said 7 made `grundy cram 4x5`
/// print "grundy value: 7" (the value is 2); a start entry excluding every value panicked.
#[test]
fn the_start_entry_of_a_table_is_never_trusted() {
    let dir = temp_dir("start-entry");
    let cram = Cram::new(4, 5).unwrap();
    let start = cram.start();
    let truth = NormalPlay::new(cram).grundy_value(&start).unwrap();
    assert_eq!(truth, 2);
    let (saving, t) = saved_search(cram, &start, &dir);
    let id = cram.table_identity();
    let starts = flatten(&cram, &start);
    for forged in [
        Knowledge::exact(7),
        Knowledge::exact(0),
        Knowledge::NONE.exclude_all((1 << 62) - 1),
    ] {
        let mut f = with_entry(&t, starts[0], forged);
        for s in &starts[1..] {
            f = with_entry(&f, *s, forged);
        }
        save_table(&saving.path, &id, &f).unwrap();
        let a = answer_saved(cram, &start, &Question::default(), None, &saving, &|_| {}).unwrap();
        assert_eq!(a.grundy_value, Some(truth), "{forged:?}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}

/// Regression (issue 27): a table is checked against the rules, not only its checksum.
#[test]
fn tables_that_cannot_be_true_are_refused_in_one_line() {
    let dir = temp_dir("untrue");
    let cram = Cram::new(4, 5).unwrap();
    let start = cram.start();
    let (saving, t) = saved_search(cram, &start, &dir);
    let id = cram.table_identity();
    let refused = |f: &Table<u64>| -> String {
        save_table(&saving.path, &id, f).unwrap();
        let e = answer_saved(cram, &start, &Question::default(), None, &saving, &|_| {})
            .unwrap_err()
            .to_string();
        assert!(!e.contains('\n'), "{e}");
        e
    };
    // An option of the start with a value one of its own options has, or more than its
    // options allow.
    let mut options = Vec::new();
    cram.options(&start, &mut options);
    let (o, v) = options
        .iter()
        .flat_map(|o| flatten(&cram, o))
        .find_map(|c| t.get(&c).value().map(|v| (c, v)))
        .expect("some option of the start is in the table");
    let e = refused(&with_entry(&t, o, Knowledge::exact(v ^ 1)));
    assert!(e.contains("cannot be true"), "{e}");
    let e = refused(&with_entry(&t, o, Knowledge::exact(40)));
    assert!(
        e.contains("more than its") && e.contains("options allow"),
        "{e}"
    );
    let e = refused(&with_entry(
        &t,
        o,
        Knowledge::NONE.exclude_all((1 << 62) - 1),
    ));
    assert!(e.contains("none of the values"), "{e}");
    // A cell outside the board.
    let e = refused(&with_entry(&t, 1 << 40, Knowledge::exact(0)));
    assert!(e.contains("not a position of this game"), "{e}");
    // An entry anywhere with a value its options contradict: found by the full check.
    let mut sampled = 0;
    for (p, k) in t.entries() {
        if let Some(v) = k.value() {
            if check_meaning(
                &cram,
                &[],
                &with_entry(&t, *p, Knowledge::exact(v + 1)),
                usize::MAX,
            )
            .is_err()
            {
                sampled += 1;
            }
        }
    }
    assert!(sampled > 0);
    std::fs::remove_dir_all(dir).unwrap();
}

/// Regression (issue 27): a huge `exact` count in the header sized the table by it (memory up
/// to the budget, or an abort).
#[test]
fn header_counts_must_match_the_entries() {
    let dir = temp_dir("counts");
    let path = dir.join("t.table");
    let id = identity();
    let write = |count: u64, exact: u64, entries: &[(u64, u64)]| {
        let mut bytes = header(&id, 8, count, exact);
        for (p, k) in entries {
            bytes.extend_from_slice(&p.to_le_bytes());
            bytes.extend_from_slice(&k.to_le_bytes());
        }
        let crc = crc32fast::hash(&bytes);
        bytes.extend_from_slice(&crc.to_le_bytes());
        std::fs::write(&path, bytes).unwrap();
    };
    let load = || {
        let mut t: Table<u64> = Table::with_budget(1 << 40);
        let r = load_table(&path, &id, &mut t).map_err(|e| e.to_string());
        assert!(t.bytes() < 1 << 20, "{}", t.bytes());
        r
    };
    let one = Knowledge::exact(1).to_bits();
    let partial = Knowledge::NONE.exclude(3).to_bits();
    write(1, u64::MAX / 4, &[(5, one)]);
    assert!(load().unwrap_err().contains("exact values among 1 entries"));
    write(2, 2, &[(5, one), (6, partial)]);
    assert!(load()
        .unwrap_err()
        .contains("announces 2 exact values and holds 1"));
    write(2, 1, &[(6, partial), (5, one)]);
    assert!(load().unwrap_err().contains("follows partial"));
    write(1, 0, &[(6, 0)]);
    assert!(load().unwrap_err().contains("empty entry"));
    write(2, 1, &[(5, one), (6, partial)]);
    assert_eq!(load(), Ok(Some(2)));
    std::fs::remove_dir_all(dir).unwrap();
}
