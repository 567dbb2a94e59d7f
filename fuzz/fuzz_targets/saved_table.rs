//! Saved pruned-search tables: whatever the bytes, a search that loads them ends with an
//! error or an answer, never a panic.
#![no_main]
use grundy::games::cram::Cram;
use grundy::solve::pruned::persist::{answer_saved, save_table, SavedTable, Saving};
use grundy::solve::pruned::{Knowledge, Question, Table};
use libfuzzer_sys::fuzz_target;
use std::time::Duration;

fuzz_target!(|data: &[u8]| {
    let cram = Cram::new(3, 4).unwrap();
    let path = fuzz_support::scratch("t.table");
    match data.split_first() {
        // Entries (position, knowledge) wrapped in a valid file: reaches the meaning checks.
        Some((&mode, rest)) if mode % 2 == 1 => {
            let mut t: Table<u64> = Table::with_budget(1 << 20);
            for e in rest.chunks_exact(10) {
                let p = u64::from(u16::from_le_bytes([e[0], e[1]])) & 0xfff;
                let k = u64::from_le_bytes(e[2..10].try_into().unwrap());
                t.put(&p, Knowledge::from_bits(k));
            }
            save_table(&path, &cram.table_identity(), &t).unwrap();
        }
        _ => std::fs::write(&path, data).unwrap(),
    }
    let saving = Saving {
        path: path.clone(),
        every: Duration::from_secs(3600),
    };
    let q = Question {
        memory: 1 << 20,
        ..Question::default()
    };
    let _ = answer_saved(cram, &cram.start(), &q, None, &saving, &|_| {});
    let _ = std::fs::remove_file(&path);
});
