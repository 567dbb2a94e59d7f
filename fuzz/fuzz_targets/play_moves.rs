//! Play-move lines typed at `grundy play` (or sent by the web page): never a panic, whatever is
//! typed, for one game of each kind of move the shared move model (`grundy::play`) knows.
#![no_main]
use grundy::play::{build, Setup};
use libfuzzer_sys::fuzz_target;

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_owned).collect()
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let subtraction = Setup {
        set: Some("1,3,4".to_owned()),
        ..Setup::default()
    };
    let plain = Setup::default();
    let starts: [(&str, &str, &Setup); 7] = [
        ("nim", "7 5 3", &plain),
        ("wythoff", "4 7", &plain),
        ("subtraction", "7 5 3", &subtraction),
        ("welter", "1 4 6 9", &plain),
        ("cram", "3x3", &plain),
        ("chomp", "3x4", &plain),
        ("takebreak:0.137", "9 4", &plain),
    ];
    for (family, start, setup) in starts {
        let mut g = build(family, &words(start), setup).expect("the fuzz target's own starts");
        for line in text.lines().take(8) {
            if g.is_over() {
                break;
            }
            let _ = g.play(line);
            let _ = g.show();
        }
        if !g.is_over() {
            if let Some((m, _)) = g.best_move(0) {
                g.play(&m).expect("the engine's own move is legal");
            }
        }
    }
});
