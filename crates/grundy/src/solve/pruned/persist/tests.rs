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
