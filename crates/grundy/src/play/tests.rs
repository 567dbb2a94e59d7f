use super::*;

/// Both seats play the engine's moves to the end; returns who moved last (0 or 1).
fn play_out(game: &mut dyn Playable) -> usize {
    let mut mover = 0;
    let mut moves = 0;
    while !game.is_over() {
        let (mv, _) = game.best_move(mover).expect("a move");
        game.play(&mv).expect("the engine's move is legal");
        mover = 1 - mover;
        moves += 1;
        assert!(moves < 10_000, "the game ends");
    }
    1 - mover
}

fn words(w: &[&str]) -> Vec<String> {
    w.iter().map(|s| s.to_string()).collect()
}

#[test]
fn the_engine_wins_exactly_the_positions_the_evaluator_calls_n() {
    for heaps in [[3u64, 5, 2], [1, 2, 3], [4, 4, 1], [6, 0, 9]] {
        let typed: Vec<String> = heaps.iter().map(u64::to_string).collect();
        let value = crate::grundy_value(&crate::games::nim::nim(), &heaps.to_vec()).unwrap();
        let first_wins = value != 0;
        let families: Vec<Box<dyn Playable>> = vec![
            heapgames::nim(&typed).unwrap(),
            generic::build("nim", &typed).unwrap(),
        ];
        for mut game in families {
            assert_eq!(play_out(game.as_mut()) == 0, first_wins, "{heaps:?}");
        }
    }
    // Welter: the formula's moves against the evaluator's outcome
    for squares in [["1", "4", "6"], ["0", "3", "5"], ["2", "3", "7"]] {
        let mut game = welter::build(&words(&squares)).unwrap();
        let p: Vec<u64> = squares.iter().map(|s| s.parse().unwrap()).collect();
        let mut solver = crate::NormalPlay::new(crate::games::welter::Welter);
        let first_wins = solver.grundy_value(&p).unwrap() != 0;
        assert_eq!(play_out(game.as_mut()) == 0, first_wins, "{squares:?}");
    }
    // Cram and Chomp: the search's moves against the plain evaluator
    for (size, rows, cols) in [("2x3", 2, 3), ("3x3", 3, 3), ("2x4", 2, 4)] {
        let cram = crate::games::cram::Cram::new(rows, cols).unwrap();
        let first_wins = crate::grundy_value(cram, &cram.start()).unwrap() != 0;
        let mut game = boards::cram(&words(&[size])).unwrap();
        assert_eq!(play_out(game.as_mut()) == 0, first_wins, "cram {size}");
    }
    for shape in ["3x4", "4,2,1", "2,2"] {
        let p = if shape.contains('x') {
            crate::games::chomp::Chomp::rectangle(3, 4).unwrap()
        } else {
            crate::games::chomp::parse_shape(shape).unwrap()
        };
        let first_wins = crate::grundy_value(crate::games::chomp::Chomp, &p).unwrap() != 0;
        let mut game = boards::chomp(&words(&[shape])).unwrap();
        assert_eq!(play_out(game.as_mut()) == 0, first_wins, "chomp {shape}");
    }
    // a take-and-break code of the registry: a heap and what it becomes
    let mut kayles = generic::build("takebreak:0.77", &words(&["4", "7"])).unwrap();
    assert!(kayles.play("0 3").is_ok(), "4 -> 3");
    assert!(kayles.play("1 3 3").is_ok(), "7 -> 3 + 3");
    assert_eq!(kayles.show_position(), "3 3 3");
    assert!(kayles.play("0 9").is_err());
    assert!(
        kayles.play("0 0").is_err(),
        "Kayles takes one or two pins, not three"
    );
}

/// Every family's listed options: each name plays, reaches `after`, and its value is the
/// value the family reports after playing it; `= AFTER` plays the same move.
#[test]
fn every_option_name_plays_to_its_position_with_its_value() {
    type Build = Box<dyn Fn() -> Box<dyn Playable>>;
    let w = |x: &[&str]| words(x);
    let families: Vec<(&str, Build)> = vec![
        (
            "nim",
            Box::new(move || heapgames::nim(&w(&["3", "5", "2"])).unwrap()),
        ),
        (
            "subtraction",
            Box::new(move || heapgames::subtraction(&w(&["7", "4"]), Some("1,3,4"), None).unwrap()),
        ),
        (
            "all-but",
            Box::new(move || heapgames::subtraction(&w(&["6", "5"]), None, Some("2")).unwrap()),
        ),
        (
            "wythoff",
            Box::new(move || heapgames::wythoff(&w(&["4", "6"])).unwrap()),
        ),
        (
            "welter",
            Box::new(move || welter::build(&w(&["1", "4", "7"])).unwrap()),
        ),
        (
            "kayles",
            Box::new(move || generic::build("takebreak:kayles", &w(&["5", "3"])).unwrap()),
        ),
        (
            "0.07",
            Box::new(move || generic::build("takebreak:0.07", &w(&["2", "6"])).unwrap()),
        ),
        (
            "cdnim",
            Box::new(move || generic::build("cdnim", &w(&["6", "3", "2"])).unwrap()),
        ),
        (
            "cram",
            Box::new(move || boards::cram(&w(&["3x3"])).unwrap()),
        ),
        (
            "chomp",
            Box::new(move || boards::chomp(&w(&["4,3,1"])).unwrap()),
        ),
    ];
    for (family, build) in families {
        let mut game = build();
        let options = game.options(0, OPTION_LIMIT).expect("listed");
        assert!(!options.is_empty(), "{family}");
        let value_now = game
            .evaluation(0)
            .split(['(', ':'])
            .next()
            .and_then(|s| s.trim().strip_prefix("value ").map(str::to_owned));
        for o in &options {
            let mut g = build();
            g.play(&o.name)
                .unwrap_or_else(|e| panic!("{family} {}: {e}", o.name));
            assert_eq!(g.show_position(), o.after, "{family} {}", o.name);
            if let Some(v) = o.value {
                let ev = g.evaluation(1);
                assert!(
                    ev.starts_with(&format!("value {v}")),
                    "{family} {}: {ev}",
                    o.name
                );
            }
            let mut h = build();
            let played = play_input(h.as_mut(), 0, &format!("= {}", o.after)).unwrap();
            assert_eq!(h.show_position(), o.after, "{family} = {}", o.after);
            assert!(!played.is_empty());
        }
        // the value is the mex of the options' values, and "good" marks the zeros
        if let Some(v) = value_now {
            let values: Vec<Nimber> = options.iter().filter_map(|o| o.value).collect();
            assert!(mex_text(&values).ends_with(&format!("= {v}")), "{family}");
            for o in &options {
                if o.value == Some(0) {
                    assert!(o.good, "{family} {}", o.name);
                }
            }
        }
    }
}

#[test]
fn welter_hooks_are_the_coin_moves() {
    let game = welter::build(&words(&["1", "4", "7"])).unwrap();
    let state = game.state();
    // coins 1 4 7 -> rows 7-2=5, 4-1=3, 1-0=1
    assert_eq!(state["partition"], serde_json::json!([5, 3, 1]));
    let cells = state["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 9);
    for c in cells {
        let mut g = welter::build(&words(&["1", "4", "7"])).unwrap();
        let mv = c["move"].as_str().unwrap();
        g.play(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
        let cells_after: u64 = g.state()["partition"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap())
            .sum();
        assert_eq!(cells_after, 9 - c["hook"].as_u64().unwrap(), "{mv}");
    }
}

#[test]
fn the_random_engine_plays_legal_moves_and_the_report_is_complete() {
    let mut game = heapgames::nim(&words(&["3", "5", "2"])).unwrap();
    let mut dice = Dice::new(7);
    let mut played = 0;
    while let Some((mv, _)) = engine_move(game.as_mut(), played % 2, Strength::Random, &mut dice) {
        game.play(&mv).unwrap();
        played += 1;
    }
    assert!(game.is_over());
    let r = report(game.as_mut(), played, None);
    assert!(r.over);
    assert_eq!(r.last_mover, Some((played - 1) % 2));
    let mut game = heapgames::nim(&words(&["3", "5", "2"])).unwrap();
    let r = report(game.as_mut(), 0, None);
    assert_eq!(r.best_move.as_deref(), Some("1 1"));
    assert_eq!(r.options.as_ref().unwrap().len(), 10);
    assert!(
        r.explanation.iter().any(|l| l == "3 ⊕ 5 ⊕ 2 = 4"),
        "{:?}",
        r.explanation
    );
}

#[test]
fn mex_and_nim_sum_are_written_out() {
    assert_eq!(mex_text(&[3, 0, 1, 0]), "mex{0, 1, 3} = 2");
    assert_eq!(mex_text(&[]), "mex{} = 0");
    let lines = nim_sum_lines(&[3u64, 5], &6);
    assert_eq!(lines[0], "3 ⊕ 5 = 6");
    assert_eq!(lines[1], "   11  (3)");
    assert_eq!(lines[3], "= 110  (6)");
}

/// The prompt's example is a legal move of the position it is shown for.
#[test]
fn the_prompts_example_is_legal() {
    for (spec, heaps) in [
        ("takebreak:0.07", vec!["2", "6"]),
        ("takebreak:kayles", vec!["5"]),
        ("takebreak:0.6", vec!["1", "7"]),
        ("cdnim", vec!["6", "3", "2"]),
    ] {
        let mut game = generic::build(spec, &words(&heaps)).unwrap();
        let syntax = game.move_syntax();
        let example = syntax
            .split("e.g. '")
            .nth(1)
            .and_then(|t| t.split('\'').next())
            .unwrap_or_else(|| panic!("{spec}: no example in {syntax}"));
        game.play(example)
            .unwrap_or_else(|e| panic!("{spec}: example '{example}' refused: {e}"));
    }
}
