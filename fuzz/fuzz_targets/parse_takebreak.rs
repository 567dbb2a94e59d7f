//! Take-and-break codes in every notation (CGSuite's digits, `&n;` digits, qualifiers, names):
//! parsing never panics, and what parses prints back to text that parses to the same rules.
#![no_main]
use grundy::takebreak::notation::Notation;
use grundy::takebreak::Rules;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if text.len() > 512 {
        return;
    }
    if let Ok(n) = Notation::parse(text) {
        let again = Notation::parse(&n.to_string()).expect("a printed notation parses");
        assert_eq!(again.to_string(), n.to_string());
        if let Ok(rules) = n.to_rules() {
            assert_eq!(Rules::parse(&rules.to_string()).ok(), Some(rules.clone()));
        }
        // A few options of small heaps (bounded: never more than 64 each).
        for heap in 0..6 {
            let _ = n.options(heap, 64);
        }
    }
    if let Ok(rules) = Rules::parse(text) {
        assert_eq!(Rules::parse(&rules.to_string()).ok(), Some(rules));
    }
});
