use super::*;
use crate::solve::PrunedSolver;
use crate::NormalPlay;

/// The rules alone: no components, no canonical form, no theorem — the plainest reference.
struct Plain(Cram);
impl Game for Plain {
    type Position = u64;
    fn options(&self, p: &u64, out: &mut Vec<u64>) {
        self.0.options(p, out)
    }
}

#[test]
fn pruned_equals_plain_on_every_rectangle_up_to_20_cells() {
    for rows in 1..=20u32 {
        for cols in 1..=20 / rows {
            let cram = Cram::new(rows, cols).unwrap();
            let start = cram.start();
            let plain = NormalPlay::new(cram).grundy_value(&start).unwrap();
            let mut pruned = PrunedSolver::new(cram);
            assert_eq!(pruned.grundy_value(&start).unwrap(), plain, "{rows}x{cols}");
            let mut fresh = PrunedSolver::new(cram);
            assert_eq!(
                fresh.outcome(&start).unwrap(),
                crate::Outcome::from_value(plain),
                "{rows}x{cols}"
            );
        }
    }
}

#[test]
fn every_position_of_small_boards_agrees_with_the_rules_alone() {
    for (rows, cols) in [(4, 4), (3, 5), (2, 7), (1, 12)] {
        let cram = Cram::new(rows, cols).unwrap();
        let mut plain = NormalPlay::new(Plain(cram));
        let mut pruned = PrunedSolver::new(cram);
        let mut outcome_only = PrunedSolver::new(cram);
        for empty in 0..=cram.start() {
            let v = plain.grundy_value(&empty).unwrap();
            assert_eq!(pruned.grundy_value(&empty).unwrap(), v, "{empty:#x}");
            if let Some(k) = cram.known_value(&empty) {
                assert_eq!(k, v, "theorem on {empty:#x}");
            }
            assert_eq!(
                outcome_only.has_value(&empty, 0).unwrap(),
                v == 0,
                "{empty:#x}"
            );
        }
    }
}

#[test]
fn known_board_values() {
    // Values computed independently by igsolve 0.1.2 (Beling's solver) on the same boards.
    for (rows, cols, v) in [
        (5, 5, 0),
        (3, 9, 1),
        (4, 5, 2),
        (3, 8, 3),
        (3, 7, 1),
        (2, 7, 1),
    ] {
        let cram = Cram::new(rows, cols).unwrap();
        assert_eq!(
            PrunedSolver::new(cram).grundy_value(&cram.start()).unwrap(),
            v,
            "{rows}x{cols}"
        );
    }
    // Even x even: value 0 by the symmetry theorem, with no search at all.
    let cram = Cram::new(6, 8).unwrap();
    let mut solver = PrunedSolver::new(cram);
    assert_eq!(solver.grundy_value(&cram.start()).unwrap(), 0);
    assert_eq!(solver.stats().nodes, 0);
}

#[test]
fn winning_moves_are_dominoes_to_p_positions() {
    let cram = Cram::new(3, 4).unwrap();
    let mut plain = NormalPlay::new(cram);
    let mut solver = PrunedSolver::new(cram);
    let start = cram.start();
    let moves = solver.winning_moves(&start).unwrap();
    let expected = plain.winning_moves(&start).unwrap();
    assert!(!moves.is_empty());
    assert_eq!(moves.len(), expected.len());
    for m in moves {
        let [(r1, c1), (r2, c2)] = m.cells;
        assert_eq!(r1.abs_diff(r2) + c1.abs_diff(c2), 1, "{m}");
        let after = start & !cram.grid().bit(r1, c1) & !cram.grid().bit(r2, c2);
        assert!(expected.contains(&after), "{m}");
    }
}

#[test]
fn boards_from_text() {
    let (cram, empty) = Cram::from_text("..#\n...\n").unwrap();
    assert_eq!((cram.grid().height(), cram.grid().width()), (2, 3));
    assert_eq!(empty.count_ones(), 5);
    assert_eq!(cram.draw(empty), "..#\n...\n");
    assert!(Cram::from_text("..x\n")
        .unwrap_err()
        .to_string()
        .contains("'x'"));
    assert!(Cram::from_text("\n\n").is_err());
    assert!(Cram::new(5, 13)
        .unwrap_err()
        .to_string()
        .contains("64 cells"));
    // Short rows are padded with blocked cells.
    let (_, e) = Cram::from_text("...\n.\n").unwrap();
    assert_eq!(e.count_ones(), 4);
    // Regression (issue 27): a blank line inside the board was dropped, joining the rows
    // around it (read as a 2x3 board, N, where a blocked row gives P). Blank lines around
    // the board are still fine.
    let e = Cram::from_text("...\n\n...\n").unwrap_err().to_string();
    assert!(
        e.contains("board row 2 is blank") && !e.contains('\n'),
        "{e}"
    );
    let (cram, e) = Cram::from_text("\n\n...\n###\n...\n\n").unwrap();
    assert_eq!((cram.grid().height(), e.count_ones()), (3, 6));
}

#[test]
fn reductions_keep_the_value_of_every_position() {
    // Filling extra tufts and bridges: only empty cells are filled, the value never changes
    // (the rules alone value both), and it settles (a second pass changes nothing).
    for (rows, cols) in [(4, 4), (3, 6), (2, 9), (1, 16)] {
        let cram = Cram::new(rows, cols).unwrap();
        let mut plain = NormalPlay::new(Plain(cram));
        let mut reduced_some = 0;
        for empty in 0..=cram.start() {
            let r = cram.reduced(empty);
            assert_eq!(r & !empty, 0, "{empty:#x}");
            assert_eq!(cram.reduced(r), r, "{empty:#x}");
            if r != empty {
                reduced_some += 1;
                assert_eq!(
                    plain.grundy_value(&r).unwrap(),
                    plain.grundy_value(&empty).unwrap(),
                    "{rows}x{cols} {empty:#x} -> {r:#x}"
                );
            }
        }
        assert!(
            reduced_some > 0,
            "{rows}x{cols}: the test must exercise the reduction"
        );
    }
    // The shapes of the documentation: three tufts on one centre keep one; a bridge between
    // two centres goes.
    let (cram, plus) = Cram::from_text("#.#\n...\n#.#\n").unwrap();
    assert_eq!(cram.reduced(plus).count_ones(), 2);
    let (cram, bridge) = Cram::from_text("...\n.#.\n").unwrap();
    assert_eq!(cram.draw(cram.reduced(bridge)), ".#.\n.#.\n");
}

#[test]
fn every_position_of_a_20_cell_board_agrees_with_the_rules_alone() {
    // 4 x 5: all 2^20 positions, pruned outcome and value against the plain evaluator.
    let cram = Cram::new(4, 5).unwrap();
    let mut plain = NormalPlay::new(Plain(cram));
    let mut pruned = PrunedSolver::new(cram);
    for empty in 0..=cram.start() {
        let v = plain.grundy_value(&empty).unwrap();
        assert_eq!(pruned.grundy_value(&empty).unwrap(), v, "{empty:#x}");
    }
}

#[test]
fn components_are_worth_the_whole_on_every_position() {
    // The parts `components()` returns (reduced, split at regions and at 2x2 junctions) have
    // values whose nim-sum is the position's value, by the rules alone, on every position.
    for (rows, cols) in [(4, 4), (3, 6), (4, 5)] {
        let cram = Cram::new(rows, cols).unwrap();
        let mut plain = NormalPlay::new(Plain(cram));
        let (mut cut, mut split_by_cuts) = (0, 0);
        for empty in 0..=cram.start() {
            let v = plain.grundy_value(&empty).unwrap();
            let reduced = cram.reduced(empty);
            if cram.junction_cuts(reduced) != 0 {
                cut += 1;
                let (h, _) = cram.anchors(reduced);
                let cuts = cram.junction_cuts(reduced);
                let plain_region = cram.grid().region_of_lowest(reduced);
                let cut_region = cram.grid().region_of_lowest_linked(reduced, h & !cuts);
                split_by_cuts += usize::from(plain_region != cut_region);
            }
            // components_into appends the same parts after what `out` holds, or leaves it.
            let mut out = vec![u64::MAX];
            let split = cram.components_into(&empty, &mut out);
            assert_eq!(out[0], u64::MAX);
            assert_eq!(split.then(|| out[1..].to_vec()), cram.components(&empty));
            assert!(split || out.len() == 1);
            if let Some(parts) = cram.components(&empty) {
                assert!(parts.iter().all(|&p| p & !empty == 0 && p != empty));
                // Final parts: none splits or reduces again.
                assert!(parts.iter().all(|p| cram.components(p).is_none()));
                let sum = parts
                    .iter()
                    .fold(0, |x, p| x ^ plain.grundy_value(p).unwrap());
                assert_eq!(sum, v, "{rows}x{cols} {empty:#x} -> {parts:x?}");
            }
        }
        assert!(
            cut > 0 && split_by_cuts > 0,
            "{rows}x{cols}: the test must exercise the junction cuts"
        );
    }
    // The block `a b / c d` with `a` and `d` closed: the region splits in two at it.
    let board = "###...\n###...\n##....\n....##\n...###\n...###\n";
    let (cram, empty) = Cram::from_text(board).unwrap();
    assert_eq!(cram.reduced(empty), empty);
    assert_ne!(cram.junction_cuts(empty), 0);
    let parts = cram.components(&empty).unwrap();
    let drawn: Vec<String> = parts.iter().map(|&p| cram.draw(p)).collect();
    assert_eq!(parts.len(), 2, "{drawn:?}");
}

/// One row of cells is Dawson's Kayles (0.07): a domino removes two adjacent cells. The row of
/// 64 cells is the only board whose width is 64, and shifting a row by its width overflowed
/// there (a release build took every cell for its own neighbour below and said 8; the
/// `parse_cram_board` fuzz target found the overflow).
#[test]
fn rows_up_to_64_cells_are_dawsons_kayles() {
    let dawson =
        crate::takebreak::naive::sequence_of(&crate::takebreak::Rules::parse("0.07").unwrap(), 64)
            .unwrap();
    for cols in [1u32, 2, 5, 17, 31, 32, 33, 62, 63, 64] {
        let cram = Cram::new(1, cols).unwrap();
        let start = cram.start();
        let value = PrunedSolver::new(cram).grundy_value(&start).unwrap();
        assert_eq!(value, u64::from(dawson[cols as usize]), "1x{cols}");
        // Every position the reductions see keeps no vertical domino.
        assert_eq!(cram.reduced(start) & !start, 0, "1x{cols}");
    }
    // The board from the fuzz target's input: a 64-wide row with a few empty cells.
    let mut text = "#".repeat(29);
    text.push_str("..");
    text.push_str(&"#".repeat(32));
    text.push('.');
    let (cram, empty) = Cram::from_text(&text).unwrap();
    assert_eq!(PrunedSolver::new(cram).grundy_value(&empty).unwrap(), 1);
    assert_eq!(NormalPlay::new(cram).grundy_value(&empty).unwrap(), 1);
}
