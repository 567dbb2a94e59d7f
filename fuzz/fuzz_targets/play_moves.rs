//! Play-move lines typed at `grundy play`: never a panic, whatever is typed, for a few games.
#![no_main]
use grundy::play::{generic, heapgames};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let heaps: Vec<String> = ["7", "5", "3"].iter().map(|s| s.to_string()).collect();
    let mut games = vec![
        heapgames::nim(&heaps).unwrap(),
        heapgames::wythoff(&heaps[..2]).unwrap(),
        heapgames::subtraction(&heaps, Some("1,3,4")).unwrap(),
    ];
    if let Ok(g) = generic::build("0.137", &heaps) {
        games.push(g);
    }
    for g in &mut games {
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
