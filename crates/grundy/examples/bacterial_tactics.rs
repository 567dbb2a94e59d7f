//! Google Code Jam 2019 Round 1C, "Bacterial Tactics", written against [`grundy::Game`] the way
//! `docs/own-game.md` teaches, beside the memoised rectangle DP a contestant writes by hand.
//!
//! The rules, in our words: an R x C board (R, C <= 15) has empty cells `.` and radioactive
//! cells `#`. Two players alternate; a move puts a colony on an empty cell, either horizontal
//! (it spreads west and east) or vertical (north and south). A colony keeps spreading over empty
//! cells until it meets the board's edge or a cell already colonised; if it would spread onto a
//! radioactive cell, its player loses at once. A player with no empty cell loses. The answer for
//! a board is the number of winning opening moves (cell and direction), 0 if the first player
//! loses.
//!
//! Why it is a sum of rectangles: the uncolonised cells always form rectangles bounded by
//! colonised cells or the board's edge. A horizontal colony in row `r` of such a rectangle fills
//! the whole row of the rectangle and leaves two rectangles (the rows above, the rows below), and
//! it is safe exactly when that row of the rectangle has no radioactive cell. A move that loses
//! at once is never better than having no move, so the game is the normal-play game in which
//! only safe moves exist, and a position is a disjunctive sum of rectangles.
//!
//! Usage (input in the Code Jam format on stdin, one `Case #i: k` line per case on stdout):
//!
//! ```sh
//! cargo run --release -p grundy --example bacterial_tactics < input.txt         # the Game
//! cargo run --release -p grundy --example bacterial_tactics -- --vec < input.txt  # Vec positions
//! cargo run --release -p grundy --example bacterial_tactics -- --options-only < input.txt
//!                                                 # the Game without its `option_parts` hook
//! cargo run --release -p grundy --example bacterial_tactics -- --dp < input.txt   # the hand DP
//! cargo run --release -p grundy --example bacterial_tactics -- --generate 100 15 1 > cases.txt
//! ```
//!
//! `--generate T N SEED` prints T deterministic random N x N boards (each cell radioactive with
//! probability 1/40, a few cases with more).

use grundy::{Game, NormalPlay, OptionParts};
use smallvec::SmallVec;
use std::fmt::Debug;
use std::hash::Hash;
use std::io::Read;
use std::marker::PhantomData;
use std::ops::DerefMut;

/// The uncolonised rectangle of rows `top..bottom` and columns `left..right` (never empty).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Rect {
    top: u8,
    bottom: u8,
    left: u8,
    right: u8,
}

impl Rect {
    /// The rectangle, or `None` when it has no cell.
    fn new(top: u8, bottom: u8, left: u8, right: u8) -> Option<Rect> {
        (top < bottom && left < right).then_some(Rect {
            top,
            bottom,
            left,
            right,
        })
    }
}

/// A board: which cells are radioactive.
struct Board {
    rows: usize,
    cols: usize,
    radioactive: Vec<Vec<bool>>,
}

impl Board {
    /// Whether row `r` has no radioactive cell in columns `left..right`.
    fn row_clear(&self, r: u8, left: u8, right: u8) -> bool {
        !self.radioactive[r as usize][left as usize..right as usize]
            .iter()
            .any(|&x| x)
    }

    /// Whether column `c` has no radioactive cell in rows `top..bottom`.
    fn col_clear(&self, c: u8, top: u8, bottom: u8) -> bool {
        !(top..bottom).any(|r| self.radioactive[r as usize][c as usize])
    }
}

/// A list of rectangles: `Vec<Rect>` as the guide's first example does, or a `SmallVec` that
/// keeps up to two rectangles inline (no allocation per option, no pointer to follow when the
/// engine compares table keys). The game below is written once for both.
trait Rects: Clone + Eq + Hash + Debug + DerefMut<Target = [Rect]> {
    fn from_rects(rects: &[Rect]) -> Self;
}

impl Rects for Vec<Rect> {
    fn from_rects(rects: &[Rect]) -> Self {
        rects.to_vec()
    }
}

impl Rects for Inline {
    fn from_rects(rects: &[Rect]) -> Self {
        Inline::from_slice(rects)
    }
}

/// The rectangles kept inline.
type Inline = SmallVec<[Rect; 2]>;

/// The game as `docs/own-game.md` teaches it: a position is the sorted list of uncolonised
/// rectangles, each rectangle a component.
struct BacterialTactics<'a, P> {
    board: &'a Board,
    positions: PhantomData<P>,
}

impl<'a, P: Rects> BacterialTactics<'a, P> {
    fn new(board: &'a Board) -> Self {
        BacterialTactics {
            board,
            positions: PhantomData,
        }
    }

    /// Every safe move in rectangle `rect`, given to `push` as (horizontal?, the up to two
    /// rectangles it leaves of `rect`).
    fn line_moves(&self, rect: Rect, mut push: impl FnMut(bool, [Option<Rect>; 2])) {
        let Rect {
            top,
            bottom,
            left,
            right,
        } = rect;
        for r in top..bottom {
            if self.board.row_clear(r, left, right) {
                let parts = [
                    Rect::new(top, r, left, right),
                    Rect::new(r + 1, bottom, left, right),
                ];
                push(true, parts);
            }
        }
        for c in left..right {
            if self.board.col_clear(c, top, bottom) {
                let parts = [
                    Rect::new(top, bottom, left, c),
                    Rect::new(top, bottom, c + 1, right),
                ];
                push(false, parts);
            }
        }
    }
}

impl<P: Rects> Game for BacterialTactics<'_, P> {
    type Position = P;

    /// One option per safe line (every cell of the line gives the same position): rectangle
    /// `i` replaced by what the move leaves of it, sorted.
    fn options(&self, rects: &P, out: &mut Vec<P>) {
        let mut scratch = Vec::with_capacity(rects.len() + 1);
        for (i, &rect) in rects.iter().enumerate() {
            self.line_moves(rect, |_, parts| {
                scratch.clear();
                scratch.extend_from_slice(&rects[..i]);
                scratch.extend_from_slice(&rects[i + 1..]);
                scratch.extend(parts.into_iter().flatten());
                scratch.sort_unstable();
                out.push(P::from_rects(&scratch));
            });
        }
    }

    /// Each rectangle is an independent game.
    fn components(&self, rects: &P) -> Option<Vec<P>> {
        (rects.len() > 1).then(|| rects.iter().map(|&r| P::from_rects(&[r])).collect())
    }

    /// The same options as `options`, each handed over as its rectangles: no sorted list is
    /// built only to be split again. The engine asks only about single rectangles (it splits a
    /// sum with `components` first); for anything else, `false` lets it use `options`.
    fn option_parts(&self, rects: &P, out: &mut OptionParts<P>) -> bool {
        let [rect] = rects[..] else { return false };
        self.line_moves(rect, |_, parts| {
            out.push_option(parts.into_iter().flatten().map(|r| P::from_rects(&[r])))
        });
        true
    }

    /// A part is a single rectangle.
    fn parts_are_final(&self) -> bool {
        true
    }
}

/// The same game without its speed hook [`Game::option_parts`], as a first version would be
/// written: the engine then builds every option as a whole position and splits it.
struct OptionsOnly<G>(G);

impl<G: Game> Game for OptionsOnly<G> {
    type Position = G::Position;
    fn options(&self, position: &G::Position, out: &mut Vec<G::Position>) {
        self.0.options(position, out)
    }
    fn components(&self, position: &G::Position) -> Option<Vec<G::Position>> {
        self.0.components(position)
    }
}

/// The answer with the library: count the opening moves (cells) whose result has value 0.
/// `PARTS`: whether the engine gets the options as parts ([`Game::option_parts`]).
fn winning_openings_game<P: Rects, const PARTS: bool>(board: &Board) -> usize {
    let game = BacterialTactics::<P>::new(board);
    let whole = Rect::new(0, board.rows as u8, 0, board.cols as u8).expect("R, C >= 1");
    let mut moves = Vec::new();
    game.line_moves(whole, |horizontal, parts| {
        let parts: Vec<Rect> = parts.into_iter().flatten().collect();
        moves.push((horizontal, P::from_rects(&parts)))
    });
    if PARTS {
        count_winning(NormalPlay::new(&game), board, moves)
    } else {
        count_winning(NormalPlay::new(OptionsOnly(&game)), board, moves)
    }
}

/// The number of opening cells among `moves` (horizontal?, position after it) that leave
/// value 0.
fn count_winning<G: Game>(
    mut solver: NormalPlay<G>,
    board: &Board,
    moves: Vec<(bool, G::Position)>,
) -> usize {
    let mut count = 0;
    for (horizontal, next) in moves {
        if solver.grundy_value(&next).expect("a finite game") == 0 {
            // every cell of the line is an opening move to the same position
            count += if horizontal { board.cols } else { board.rows };
        }
    }
    count
}

/// The hand-written solution: the Grundy value of every rectangle in an array, memoised.
struct RectDp<'a> {
    board: &'a Board,
    /// `memo[((top * 16 + bottom) * 16 + left) * 16 + right]`, `u8::MAX` when not yet known.
    memo: Vec<u8>,
}

impl RectDp<'_> {
    fn index(top: u8, bottom: u8, left: u8, right: u8) -> usize {
        (((top as usize * 16 + bottom as usize) * 16) + left as usize) * 16 + right as usize
    }

    fn value(&mut self, top: u8, bottom: u8, left: u8, right: u8) -> u8 {
        if top >= bottom || left >= right {
            return 0;
        }
        let i = Self::index(top, bottom, left, right);
        if self.memo[i] != u8::MAX {
            return self.memo[i];
        }
        let mut seen = 0u64;
        for r in top..bottom {
            if self.board.row_clear(r, left, right) {
                let v = self.value(top, r, left, right) ^ self.value(r + 1, bottom, left, right);
                seen |= 1 << v;
            }
        }
        for c in left..right {
            if self.board.col_clear(c, top, bottom) {
                let v = self.value(top, bottom, left, c) ^ self.value(top, bottom, c + 1, right);
                seen |= 1 << v;
            }
        }
        // at most 30 options, so the mex is at most 30 and every value fits the mask
        let v = (!seen).trailing_zeros() as u8;
        self.memo[i] = v;
        v
    }
}

/// The answer by the hand DP.
fn winning_openings_dp(board: &Board) -> usize {
    let mut dp = RectDp {
        board,
        memo: vec![u8::MAX; 16 * 16 * 16 * 16],
    };
    let (rows, cols) = (board.rows as u8, board.cols as u8);
    let mut count = 0;
    for r in 0..rows {
        if board.row_clear(r, 0, cols) && dp.value(0, r, 0, cols) == dp.value(r + 1, rows, 0, cols)
        {
            count += board.cols;
        }
    }
    for c in 0..cols {
        if board.col_clear(c, 0, rows) && dp.value(0, rows, 0, c) == dp.value(0, rows, c + 1, cols)
        {
            count += board.rows;
        }
    }
    count
}

/// The next word of `words` as a number from 1 to `max`, or a reason naming `what`.
fn number<'a>(
    words: &mut impl Iterator<Item = &'a str>,
    what: &str,
    max: usize,
) -> Result<usize, String> {
    let w = words.next().ok_or(format!("missing {what}"))?;
    match w.parse::<usize>() {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(format!("{what} must be 1 to {max}, got {w:?}")),
    }
}

/// The boards of a Code Jam input, or a one-line reason it is not one.
fn parse(input: &str) -> Result<Vec<Board>, String> {
    let mut words = input.split_whitespace();
    let cases = number(&mut words, "the number of cases", 100)?;
    let mut boards = Vec::with_capacity(cases);
    for case in 1..=cases {
        let rows = number(&mut words, &format!("case {case}: R"), 15)?;
        let cols = number(&mut words, &format!("case {case}: C"), 15)?;
        let mut radioactive = Vec::with_capacity(rows);
        for r in 1..=rows {
            let w = words.next().unwrap_or("");
            if w.len() != cols || !w.bytes().all(|b| b == b'.' || b == b'#') {
                return Err(format!(
                    "case {case}: row {r} must be {cols} characters of . and #"
                ));
            }
            radioactive.push(w.bytes().map(|b| b == b'#').collect());
        }
        boards.push(Board {
            rows,
            cols,
            radioactive,
        });
    }
    Ok(boards)
}

/// `cases` deterministic random `n` x `n` boards from `seed`, in the Code Jam format.
fn generate(cases: usize, n: usize, seed: u64) -> String {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        // xorshift64*
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 32
    };
    let mut out = format!("{cases}\n");
    for case in 0..cases {
        // one case in four has denser radioactivity (1/10 instead of 1/40)
        let one_in = if case % 4 == 3 { 10 } else { 40 };
        out.push_str(&format!("{n} {n}\n"));
        for _ in 0..n {
            let row: String = (0..n)
                .map(|_| if next() % one_in == 0 { '#' } else { '.' })
                .collect();
            out.push_str(&row);
            out.push('\n');
        }
    }
    out
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--generate") {
        let arg = |i: usize, default: u64| -> u64 {
            args.get(i).map_or(default, |s| {
                s.parse().unwrap_or_else(|_| {
                    eprintln!("error: --generate takes CASES SIZE SEED, got {s:?}");
                    std::process::exit(2)
                })
            })
        };
        let (cases, n, seed) = (arg(1, 100), arg(2, 15), arg(3, 1));
        if !(1..=100).contains(&cases) || !(1..=15).contains(&n) {
            eprintln!("error: --generate takes 1 to 100 cases of size 1 to 15");
            std::process::exit(2);
        }
        print!("{}", generate(cases as usize, n as usize, seed));
        return;
    }
    let solve: fn(&Board) -> usize = match args.first().map(String::as_str) {
        None => winning_openings_game::<Inline, true>,
        Some("--vec") if args.len() == 1 => winning_openings_game::<Vec<Rect>, true>,
        Some("--options-only") if args.len() == 1 => winning_openings_game::<Inline, false>,
        Some("--dp") if args.len() == 1 => winning_openings_dp,
        Some(other) => {
            eprintln!(
                "error: unknown argument {other:?} (expected --vec, --options-only, --dp or \
                 --generate)"
            );
            std::process::exit(2);
        }
    };
    let mut input = String::new();
    if let Err(e) = std::io::stdin().take(1 << 20).read_to_string(&mut input) {
        eprintln!("error: cannot read standard input: {e}");
        std::process::exit(2);
    }
    let boards = parse(&input).unwrap_or_else(|e| {
        eprintln!("error: {e}");
        std::process::exit(2)
    });
    for (i, board) in boards.iter().enumerate() {
        let k = solve(board);
        println!("Case #{}: {k}", i + 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// The solutions: the game with inline positions, with `Vec` positions (each with and
    /// without `option_parts`), the hand DP.
    const SOLUTIONS: [fn(&Board) -> usize; 5] = [
        winning_openings_game::<Inline, true>,
        winning_openings_game::<Inline, false>,
        winning_openings_game::<Vec<Rect>, true>,
        winning_openings_game::<Vec<Rect>, false>,
        winning_openings_dp,
    ];

    /// The official sample of the problem (also in the guide); its published answers are
    /// 0, 0, 7, 2, 0.
    const SAMPLE: &str = include_str!("../../../docs/examples/bacterial-tactics-sample.txt");

    #[test]
    fn the_official_sample() {
        let boards = parse(SAMPLE).unwrap();
        for solve in SOLUTIONS {
            let answers: Vec<usize> = boards.iter().map(solve).collect();
            assert_eq!(answers, [0, 0, 7, 2, 0]);
        }
    }

    #[test]
    fn the_game_and_the_hand_dp_agree_on_random_boards() {
        // 1000 boards of every size from 1x1 to 15x15 (the generator makes squares; the
        // rectangles come from random heights cut off the same text)
        for seed in 1..=40u64 {
            let n = 1 + (seed as usize % 15);
            for board in parse(&generate(25, n, seed)).unwrap() {
                let rows = 1 + (seed as usize * 7) % board.rows;
                let board = Board {
                    rows,
                    cols: board.cols,
                    radioactive: board.radioactive[..rows].to_vec(),
                };
                let dp = winning_openings_dp(&board);
                for solve in SOLUTIONS {
                    assert_eq!(solve(&board), dp, "seed {seed}");
                }
            }
        }
    }

    /// Plain play on the board, no theory: every opening move as (cell, direction) with the
    /// set of colonised cells after it, or nothing for a move that spreads onto a radioactive
    /// cell (its player loses at once). Cells are bits `r * cols + c` of `taken`.
    fn plain_moves(rad: &[Vec<bool>], taken: u64) -> Vec<u64> {
        let (rows, cols) = (rad.len() as i32, rad[0].len() as i32);
        let free = |r: i32, c: i32| taken >> (r * cols + c) & 1 == 0;
        let mut out = Vec::new();
        for r in 0..rows {
            for c in 0..cols {
                if !free(r, c) || rad[r as usize][c as usize] {
                    continue;
                }
                for (dr, dc) in [(0, 1), (1, 0)] {
                    let mut next = taken;
                    let mut safe = true;
                    for sign in [-1, 1] {
                        let (mut rr, mut cc) = (r, c);
                        while (0..rows).contains(&rr) && (0..cols).contains(&cc) && free(rr, cc) {
                            safe &= !rad[rr as usize][cc as usize];
                            next |= 1 << (rr * cols + cc);
                            rr += sign * dr;
                            cc += sign * dc;
                        }
                    }
                    if safe {
                        out.push(next);
                    }
                }
            }
        }
        out
    }

    /// Whether the player to move wins, by plain play.
    fn plain_wins(rad: &[Vec<bool>], taken: u64, memo: &mut HashMap<u64, bool>) -> bool {
        if let Some(&w) = memo.get(&taken) {
            return w;
        }
        let win = plain_moves(rad, taken)
            .into_iter()
            .any(|next| !plain_wins(rad, next, memo));
        memo.insert(taken, win);
        win
    }

    #[test]
    fn the_count_is_right_by_plain_play_on_small_boards() {
        // every 3x3 board and random ones up to 4x4
        let mut boards = Vec::new();
        for mask in 0u32..512 {
            boards.push(Board {
                rows: 3,
                cols: 3,
                radioactive: (0..3)
                    .map(|r| (0..3).map(|c| mask >> (r * 3 + c) & 1 == 1).collect())
                    .collect(),
            });
        }
        for seed in 1..=10 {
            boards.extend(parse(&generate(20, 1 + seed as usize % 4, seed)).unwrap());
        }
        for board in &boards {
            let mut memo = HashMap::new();
            let count = plain_moves(&board.radioactive, 0)
                .into_iter()
                .filter(|&next| !plain_wins(&board.radioactive, next, &mut memo))
                .count();
            for solve in SOLUTIONS {
                assert_eq!(solve(board), count);
            }
        }
    }

    #[test]
    fn option_parts_hands_over_the_options_split() {
        // on every rectangle of three boards: the parts of each option are what `components`
        // makes of the option (or the option itself); sums of two are declined
        for board in parse(&generate(3, 6, 7)).unwrap() {
            let game = BacterialTactics::<Inline>::new(&board);
            let rects: Vec<Rect> = (0..6)
                .flat_map(|t| (t + 1..=6).flat_map(move |b| (0..6).map(move |l| (t, b, l))))
                .flat_map(|(t, b, l)| (l + 1..=6).map(move |r| Rect::new(t, b, l, r).unwrap()))
                .collect();
            let mut positions: Vec<Inline> =
                rects.iter().map(|&r| Inline::from_slice(&[r])).collect();
            for pair in rects.windows(2).step_by(5) {
                let mut p = Inline::from_slice(pair);
                p.sort_unstable();
                positions.push(p);
            }
            for p in positions {
                let mut parts = OptionParts::new();
                if p.len() > 1 {
                    // a sum is left to `components`
                    assert!(!game.option_parts(&p, &mut parts));
                    continue;
                }
                assert!(game.option_parts(&p, &mut parts));
                let options = game.options_vec(&p);
                assert_eq!(parts.len(), options.len(), "{p:?}");
                for (i, option) in options.iter().enumerate() {
                    let mut want = game
                        .components(option)
                        .unwrap_or_else(|| vec![option.clone()]);
                    want.retain(|part| !part.is_empty());
                    let mut got = parts.get(i).to_vec();
                    got.sort_unstable();
                    want.sort_unstable();
                    assert_eq!(got, want, "{p:?} option {i}");
                }
            }
        }
    }

    #[test]
    fn bad_input_is_refused_with_a_reason() {
        assert!(parse("").is_err());
        assert!(parse("1\n2 2\n..\n").is_err());
        assert!(parse("1\n16 1\n").is_err());
        assert!(parse("1\n1 2\n.x\n").is_err());
        assert!(parse("101\n").is_err());
    }
}
