//! Differential: the rare/common (sparse) engine equals the naive engine on random octal
//! codes, value for value.
#![no_main]
use grundy::takebreak::code::Code;
use grundy::takebreak::sparse::RareCommon;
use grundy::takebreak::{compute, Finish, Naive, Rules};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.is_empty() || data.len() > 9 {
        return;
    }
    let digits: Vec<u128> = std::iter::once(0)
        .chain(data[1..].iter().map(|&b| u128::from(b % 8)))
        .collect();
    let Ok(code) = Code::from_digits(digits) else {
        return;
    };
    let rules = Rules::Code(code);
    let n = 200 + 40 * data[0] as usize;
    let Ok(mut sparse) = RareCommon::for_rules(&rules) else {
        return;
    };
    let a = compute(&rules, n, Finish::ComputeAll, &mut sparse, None).unwrap();
    let b = compute(&rules, n, Finish::ComputeAll, &mut Naive::new(rules.clone()), None).unwrap();
    assert_eq!(a.values, b.values, "{rules}");
    assert_eq!(a.period, b.period, "{rules}");
});
