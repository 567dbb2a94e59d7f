//! Take-and-break checkpoint files: whatever the bytes, loading gives an error or values that
//! the rules allow, continuing from them with the engines never panics, and saving the values
//! continued from them (an append to the file) leaves a file that loads to exactly those.
#![no_main]
use grundy::takebreak::checkpoint::{self, Identity, Store};
use grundy::takebreak::sparse::RareCommon;
use grundy::takebreak::{extend, Finish, Naive, Rules};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The first byte picks a code; the rest is either a whole file, or (when the second byte
    // is odd) values to wrap in a valid header and checksum, which reaches the meaning checks.
    let codes = ["0.6", "0.137", "0.07", "4.07"];
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let rules = Rules::parse(codes[pick as usize % codes.len()]).unwrap();
    let id = Identity {
        code: rules.to_string(),
        engine: "sparse".into(),
        engine_version: 1,
    };
    let path = fuzz_support::scratch("c.ckpt");
    match rest.split_first() {
        Some((&mode, values)) if mode % 2 == 1 => {
            let values: Vec<u16> = values
                .chunks_exact(2)
                .map(|b| u16::from_le_bytes([b[0], b[1]]))
                .collect();
            checkpoint::save(&path, &id, &values).unwrap();
        }
        _ => std::fs::write(&path, rest).unwrap(),
    }
    let Ok(mut store) = Store::chosen(&path, id) else {
        return;
    };
    let Ok((values, _)) = store.resume(usize::MAX) else {
        return;
    };
    let n = values.len() + 64;
    if let Ok(mut e) = RareCommon::for_rules(&rules) {
        if let Ok(c) = extend(&rules, values.clone(), n, Finish::ComputeAll, &mut e, None) {
            // the run's next save appends to the file it resumed from (or writes it whole),
            // and the file then holds exactly the values saved
            let more = c.values.to_vec();
            assert!(store.save(&more).is_empty());
            let back = checkpoint::load(&path, usize::MAX).unwrap().unwrap();
            assert_eq!(back.values, more);
        }
    }
    let _ = extend(&rules, values, n, Finish::ComputeAll, &mut Naive::new(rules.clone()), None);
});
