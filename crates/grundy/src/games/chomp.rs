//! Chomp (Gale; Schuh): a chocolate bar whose bottom-left square is poisoned. A move bites a
//! square and eats it together with every square above and to the right of it; the poisoned
//! square may not be taken, so the player facing the poison alone cannot move and loses
//! (normal play — the same game as "whoever eats the poison loses").
//!
//! A position is a Young diagram: row lengths `r0 >= r1 >= ... >= 1`, row 0 at the bottom
//! holding the poison at column 0. Biting `(row, col)` (0-based) cuts every row `r >= row` to
//! at most `col` squares. Every rectangle other than 1x1 is an N-position (strategy stealing:
//! if biting the top-right square lost, the answer to it would have been a winning first bite).
//!
//! A position is packed into one `u64` as the diagram's boundary path (a zero per column step,
//! a one per row), so diagrams with `rows + columns <= 64` fit. Transposing the diagram gives
//! the same game; [`Game::canonical`] keys both by the smaller code.

use crate::solve::pruned::Answer;
use crate::{Error, Game, LabelledMoves};

/// The Chomp rules.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Chomp;

/// A move: the bitten square, `(row, col)` 0-based, row 0 holding the poison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Bite {
    /// Row of the bitten square (0 = the poisoned row).
    pub row: u32,
    /// Column of the bitten square (0 = the poisoned column).
    pub col: u32,
}

/// What `grundy chomp` and `grundy.chomp` report (the keys of `--json`): the shape and the
/// search's answer.
#[derive(Debug, Clone, serde::Serialize)]
pub struct ChompReport {
    /// Row lengths, the poisoned row first.
    pub rows: Vec<u32>,
    pub squares: u32,
    #[serde(flatten)]
    pub answer: Answer<Bite>,
}

impl ChompReport {
    /// The report of `answer` about `position`.
    pub fn new(position: u64, answer: Answer<Bite>) -> Self {
        let rows = Chomp::rows(position);
        ChompReport {
            squares: rows.iter().sum(),
            rows,
            answer,
        }
    }
}

impl std::fmt::Display for Bite {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({},{})", self.row, self.col)
    }
}

/// The most rows plus columns a packed diagram may have.
pub const MAX_PERIMETER: u32 = 64;

impl Chomp {
    /// The packed position of the diagram with these row lengths (longest first, the poisoned
    /// row first). Refused: no rows, a row of length 0, rows not weakly decreasing, or
    /// `rows + columns > 64`.
    pub fn shape(rows: &[u32]) -> Result<u64, Error> {
        if rows.is_empty() || rows.contains(&0) {
            return Err(Error::Invalid(
                "a Chomp shape needs at least one row and no empty rows (e.g. 5,3,3,1)".into(),
            ));
        }
        if rows.windows(2).any(|w| w[0] < w[1]) {
            return Err(Error::Invalid(format!(
                "Chomp row lengths must not increase ({}): the shape is a Young diagram, longest row first",
                rows.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
            )));
        }
        let perimeter = u64::from(rows[0]) + rows.len() as u64;
        if perimeter > u64::from(MAX_PERIMETER) {
            return Err(Error::Invalid(format!(
                "a Chomp shape of {} rows and {} columns does not fit: rows + columns must be at most {MAX_PERIMETER}",
                rows.len(),
                rows[0]
            )));
        }
        Ok(encode(rows))
    }

    /// The `rows` x `cols` rectangle.
    pub fn rectangle(rows: u32, cols: u32) -> Result<u64, Error> {
        if rows == 0 || cols == 0 || u64::from(rows) + u64::from(cols) > u64::from(MAX_PERIMETER) {
            return Err(Error::Invalid(format!(
                "a {rows}x{cols} Chomp bar does not fit: each side at least 1, rows + columns at most {MAX_PERIMETER}"
            )));
        }
        Ok(encode(&vec![cols; rows as usize]))
    }

    /// The row lengths of a packed position, the poisoned row first.
    pub fn rows(position: u64) -> Vec<u32> {
        let mut buf = [0u32; 64];
        let k = decode(position, &mut buf);
        buf[..k].to_vec()
    }

    /// The diagram as text, top row first: `P` the poison, `#` a square.
    pub fn draw(position: u64) -> String {
        let rows = Chomp::rows(position);
        let mut s = String::new();
        for (i, &len) in rows.iter().enumerate().rev() {
            for c in 0..len {
                s.push(if i == 0 && c == 0 { 'P' } else { '#' });
            }
            s.push('\n');
        }
        s
    }
}

/// Pack row lengths (weakly decreasing, positive): from the last row to the first, the row's
/// excess over the next as zeros, then a one.
fn encode(rows: &[u32]) -> u64 {
    let mut code = 0u64;
    let mut pos = 0;
    for i in (0..rows.len()).rev() {
        let next = rows.get(i + 1).copied().unwrap_or(0);
        pos += rows[i] - next;
        code |= 1 << pos;
        pos += 1;
    }
    code
}

/// Unpack into `out`, returning the number of rows.
fn decode(code: u64, out: &mut [u32; 64]) -> usize {
    let k = code.count_ones() as usize;
    let mut bits = code;
    let mut j = 0;
    while bits != 0 {
        let p = bits.trailing_zeros();
        bits &= bits - 1;
        out[k - 1 - j] = p - j as u32;
        j += 1;
    }
    k
}

/// Call `f(bite, resulting code)` for every legal bite, biggest bites (lowest rows) first.
///
/// Each result is a few bit operations on the code. Index the rows from the top, `j = 0` the
/// top row: its one is bit `p[j] = len[j] + j`, and `len` grows with `j`. Biting `(row, col)`
/// cuts the rows `j <= J = rows - 1 - row`:
/// - `col >= 1`: the rows from the first one longer than `col`, `j0`, to `J` become `col`
///   long, so their ones move to bits `col + j0 ..= col + J` and nothing else moves;
/// - `col = 0` (above the poison): the rows `j <= J` vanish, and the rest keep their lengths:
///   drop the bits up to `p[J]` and put the next row's one at its length again.
fn for_each_bite(code: u64, mut f: impl FnMut(Bite, u64)) {
    let k = code.count_ones() as usize;
    let mut p = [0u32; 64];
    let mut bits = code;
    for slot in p.iter_mut().take(k) {
        *slot = bits.trailing_zeros();
        bits &= bits - 1;
    }
    let len = |j: usize| p[j] - j as u32;
    let span = |lo: u32, hi: u32| (u64::MAX >> (63 - hi)) & (u64::MAX << lo);
    for row in 0..k {
        let top = k - 1 - row; // `J`
        if row > 0 {
            let rest = code.checked_shr(p[top] + 1).unwrap_or(0);
            f(
                Bite {
                    row: row as u32,
                    col: 0,
                },
                rest << len(top),
            );
        }
        let mut first = 0; // `j0`
        for col in 1..len(top) {
            while len(first) <= col {
                first += 1;
            }
            let kept = code & !span(p[first], p[top]);
            let cut = span(col + first as u32, col + top as u32);
            f(
                Bite {
                    row: row as u32,
                    col,
                },
                kept | cut,
            );
        }
    }
}

impl Game for Chomp {
    type Position = u64;

    fn options(&self, position: &u64, out: &mut Vec<u64>) {
        for_each_bite(*position, |_, q| out.push(q));
    }

    /// The diagram or its transpose, whichever packs smaller.
    fn canonical(&self, position: &u64) -> u64 {
        (*position).min(transpose(*position))
    }

    /// An *L* (every row but the poisoned one of length 1) is Nim with two heaps: the arms
    /// of `a = r0 - 1` squares right of the poison and `b = rows - 1` above it; a bite takes
    /// part of one arm, leaving it any shorter length, and nothing else can be bitten. Its
    /// value is `a xor b` (the Sprague–Grundy value of a sum of two Nim heaps; Beling's igs
    /// uses the same shortcut).
    fn known_value(&self, position: &u64) -> Option<crate::Nimber> {
        let code = *position;
        let rows = code.count_ones();
        let top = 63 - code.leading_zeros();
        let first = top + 1 - rows; // length of row 0
        if rows >= 2 {
            let second = 63 - (code & !(1 << top)).leading_zeros() + 2 - rows;
            if second > 1 {
                return None;
            }
        }
        Some(u64::from((first - 1) ^ (rows - 1)))
    }

    /// The diagrams inside the `R x C` box of `start` (its rows and its longest row):
    /// `C(R + C, R)` lattice paths.
    fn dense_size(&self, start: &u64) -> Option<usize> {
        let (r, c) = size(*start);
        usize::try_from(BINOMIAL[(r + c) as usize][r as usize]).ok()
    }

    /// The diagram's rank among the lattice paths of the box of `start` (`rank`), or its
    /// transpose's when only that fits (a square box holds both; the two have one value).
    fn dense_index(&self, start: &u64, position: &u64) -> Option<usize> {
        let (rows, cols) = size(*start);
        let (r, c) = size(*position);
        let (code, ones) = if r <= rows && c <= cols {
            (*position, r)
        } else if c <= rows && r <= cols {
            (transpose(*position), c)
        } else {
            return None;
        };
        usize::try_from(rank(code, ones, rows)).ok()
    }
}

/// `BINOMIAL[n][k]` = C(n, k) for n, k <= 64 (C(64, 32) < 2^61 fits).
static BINOMIAL: [[u64; 65]; 65] = {
    let mut t = [[0u64; 65]; 65];
    let mut n = 0;
    while n <= 64 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
};

/// Rows and columns of the diagram `code` (its bounding box).
fn size(code: u64) -> (u32, u32) {
    let rows = code.count_ones();
    (rows, 64 - code.leading_zeros() - rows)
}

/// The rank of the diagram `code`, which fits in `rows` rows, among all diagrams inside a box
/// of `rows` rows (of any fixed width `c`): `0..C(rows + c, rows)`, the empty diagram 0.
///
/// The diagram inside the box is a lattice path of `rows` up-steps and `c` right-steps: its
/// code with the box's missing top rows added as rows of length 0 (ones at bits
/// `0..rows - k`). The ones' positions `q_1 < ... < q_rows` are ranked by the combinatorial
/// number system, `sum C(q_i, i)`, a bijection from the `rows`-subsets of `0..rows + c` onto
/// `0..C(rows + c, rows)` (Knuth, TAOCP 7.2.1.3, Theorem L).
/// `ones` is the diagram's number of rows (the code's ones), which the caller knows.
fn rank(code: u64, ones: u32, rows: u32) -> u64 {
    let missing = rows - ones;
    // The missing rows' ones sit at q_i = i - 1 and add C(i - 1, i) = 0.
    let mut bits = code;
    let mut i = missing as usize + 1;
    let mut r = 0;
    while bits != 0 {
        let q = (bits.trailing_zeros() + missing) as usize;
        bits &= bits - 1;
        r += BINOMIAL[q][i];
        i += 1;
    }
    r
}

/// The diagram of rank `r` in a box of `rows` rows and `cols` columns (the inverse of
/// [`rank`]; `0` is the empty diagram).
#[cfg(test)]
fn unrank(mut r: u64, rows: u32, cols: u32) -> u64 {
    let mut path = 0u64;
    let mut q = (rows + cols) as usize;
    for i in (1..=rows as usize).rev() {
        // The largest q with C(q, i) <= r is the i-th one's position.
        q -= 1;
        while BINOMIAL[q][i] > r {
            q -= 1;
        }
        r -= BINOMIAL[q][i];
        path |= 1 << q;
    }
    // Drop the empty rows' ones at the bottom.
    let empty = path.trailing_ones();
    path.checked_shr(empty).unwrap_or(0)
}

/// The packed transpose: the transposed diagram's boundary path is the original's, reversed
/// with its steps swapped (row steps become column steps).
fn transpose(code: u64) -> u64 {
    let len = 64 - code.leading_zeros();
    let mask = if len == 64 { u64::MAX } else { (1 << len) - 1 };
    (!code & mask).reverse_bits() >> (64 - len)
}

impl LabelledMoves for Chomp {
    type Move = Bite;

    fn moves(&self, position: &u64, out: &mut Vec<(Bite, u64)>) {
        for_each_bite(*position, |b, q| out.push((b, q)));
    }
}

/// The packed position of a shape typed as row lengths, e.g. `5,3,3,1` (commas or blanks),
/// refused in one line as [`Chomp::shape`] refuses it.
pub fn parse_shape(text: &str) -> Result<u64, Error> {
    let rows = crate::text::parse_u64_list("row length", text)?;
    if let Some(long) = rows.iter().find(|&&r| r >= u64::from(MAX_PERIMETER)) {
        // Refused as typed, not clamped to a u32 first.
        return Err(Error::Invalid(format!(
            "a Chomp row of {long} squares does not fit: rows + columns must be at most \
             {MAX_PERIMETER}"
        )));
    }
    Chomp::shape(&rows.iter().map(|&r| r as u32).collect::<Vec<_>>())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::pruned::ValueMethod;
    use crate::solve::PrunedSolver;
    use crate::NormalPlay;

    /// Every Young diagram with at most `max` squares.
    fn diagrams(max: u32) -> Vec<Vec<u32>> {
        fn go(max_part: u32, left: u32, cur: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
            if !cur.is_empty() {
                out.push(cur.clone());
            }
            for part in 1..=max_part.min(left) {
                cur.push(part);
                go(part, left - part, cur, out);
                cur.pop();
            }
        }
        let mut out = Vec::new();
        go(max, max, &mut Vec::new(), &mut out);
        out
    }

    /// The rules alone, on row vectors: no packing, no canonical form.
    struct Plain;
    impl Game for Plain {
        type Position = Vec<u32>;
        fn options(&self, rows: &Vec<u32>, out: &mut Vec<Vec<u32>>) {
            for row in 0..rows.len() {
                for col in 0..rows[row] {
                    if (row, col) != (0, 0) {
                        let cut: Vec<u32> = rows
                            .iter()
                            .enumerate()
                            .map(|(t, &l)| if t >= row { l.min(col) } else { l })
                            .filter(|&l| l > 0)
                            .collect();
                        out.push(cut);
                    }
                }
            }
        }
    }

    /// Regression (issue 27): `--shape 4294967296` was clamped to 2^32 - 1 before the check.
    #[test]
    fn row_lengths_are_refused_as_typed() {
        let e = parse_shape("4294967296").unwrap_err().to_string();
        assert!(e.contains("row of 4294967296 squares"), "{e}");
        let e = parse_shape("3,18446744073709551615")
            .unwrap_err()
            .to_string();
        assert!(e.contains("18446744073709551615"), "{e}");
        assert_eq!(parse_shape("3,1").unwrap(), Chomp::shape(&[3, 1]).unwrap());
    }

    #[test]
    fn packing_round_trips_and_refuses_what_does_not_fit() {
        for d in diagrams(12) {
            let code = Chomp::shape(&d).unwrap();
            assert_eq!(Chomp::rows(code), d);
            // The packed transpose is the conjugate partition's code.
            let conjugate: Vec<u32> = (0..d[0])
                .map(|c| d.iter().filter(|&&len| len > c).count() as u32)
                .collect();
            assert_eq!(transpose(code), Chomp::shape(&conjugate).unwrap(), "{d:?}");
        }
        assert!(Chomp::shape(&[3, 4]).is_err());
        assert!(Chomp::shape(&[]).is_err());
        assert!(Chomp::shape(&[2, 0]).is_err());
        assert!(Chomp::rectangle(32, 32).is_ok());
        assert!(Chomp::rectangle(32, 33)
            .unwrap_err()
            .to_string()
            .contains("at most 64"));
        assert_eq!(Chomp::draw(Chomp::shape(&[3, 1]).unwrap()), "#\nP##\n");
    }

    #[test]
    fn ranks_number_the_diagrams_of_a_box_without_gaps_and_unrank_inverts_them() {
        for rows in 1..=7u32 {
            for cols in 1..=7u32 {
                let n = BINOMIAL[(rows + cols) as usize][rows as usize];
                let mut seen = vec![false; n as usize];
                // Every diagram in the box (with the empty one, code 0), each once.
                let mut count = 1;
                assert_eq!(rank(0, 0, rows), 0);
                assert_eq!(unrank(0, rows, cols), 0);
                seen[0] = true;
                for d in diagrams(rows * cols) {
                    if d.len() as u32 > rows || d[0] > cols {
                        continue;
                    }
                    let code = Chomp::shape(&d).unwrap();
                    let r = rank(code, code.count_ones(), rows);
                    assert!(r < n, "{d:?} in {rows}x{cols}: {r}");
                    assert!(!seen[r as usize], "{d:?} in {rows}x{cols}: {r} twice");
                    seen[r as usize] = true;
                    assert_eq!(unrank(r, rows, cols), code, "{d:?}");
                    count += 1;
                }
                assert_eq!(count, n, "{rows}x{cols}");
            }
        }
    }

    #[test]
    fn dense_indices_are_distinct_for_diagrams_of_different_canonical_forms() {
        for (rows, cols) in [(1, 1), (3, 3), (2, 7), (7, 2), (4, 6), (6, 6)] {
            let start = Chomp::rectangle(rows, cols).unwrap();
            let n = Chomp.dense_size(&start).unwrap();
            let mut owner = vec![None; n];
            for d in diagrams(rows * cols) {
                if d.len() as u32 > rows || d[0] > cols {
                    continue;
                }
                let code = Chomp::shape(&d).unwrap();
                for p in [code, transpose(code)] {
                    let i = Chomp.dense_index(&start, &p).unwrap();
                    assert!(i < n);
                    let canonical = Chomp.canonical(&p);
                    assert_eq!(*owner[i].get_or_insert(canonical), canonical, "{d:?}");
                }
            }
            // A diagram outside the box (and its transpose) has no number.
            let wide = Chomp::rectangle(1, rows.max(cols) + 1).unwrap();
            assert_eq!(Chomp.dense_index(&start, &wide), None);
        }
        // 13x13: C(26, 13) diagrams.
        let start = Chomp::rectangle(13, 13).unwrap();
        assert_eq!(Chomp.dense_size(&start), Some(10_400_600));
        assert_eq!(Chomp.dense_index(&start, &start), Some(10_400_599));
    }

    #[test]
    fn pruned_equals_plain_on_every_shape_up_to_25_squares() {
        let mut plain = NormalPlay::new(Plain);
        // Numbered from the first shape asked (1x1): nearly everything is in the hashed table.
        let mut pruned = PrunedSolver::new(Chomp);
        let mut outcomes = PrunedSolver::new(Chomp);
        let mut by_mex = PrunedSolver::new(Chomp).with_value_method(ValueMethod::Mex);
        let all = diagrams(25);
        for d in &all {
            let v = plain.grundy_value(d).unwrap();
            let code = Chomp::shape(d).unwrap();
            assert_eq!(pruned.grundy_value(&code).unwrap(), v, "{d:?}");
            assert_eq!(by_mex.grundy_value(&code).unwrap(), v, "{d:?}");
            assert_eq!(outcomes.has_value(&code, 0).unwrap(), v == 0, "{d:?}");
            // A fresh solver numbers the shape's box: exact values in the dense array.
            let mut dense = PrunedSolver::new(Chomp).with_value_method(ValueMethod::Mex);
            assert_eq!(dense.grundy_value(&code).unwrap(), v, "{d:?}");
            let mut dense = PrunedSolver::new(Chomp);
            assert_eq!(dense.has_value(&code, 0).unwrap(), v == 0, "{d:?}");
        }
    }

    #[test]
    fn the_l_theorem_agrees_with_the_rules_alone() {
        let mut plain = NormalPlay::new(Plain);
        let mut used = 0;
        for d in diagrams(25) {
            let code = Chomp::shape(&d).unwrap();
            let is_l = d.len() == 1 || d[1] == 1;
            match Chomp.known_value(&code) {
                Some(v) => {
                    assert!(is_l, "{d:?}");
                    assert_eq!(v, plain.grundy_value(&d).unwrap(), "{d:?}");
                    used += 1;
                }
                None => assert!(!is_l, "{d:?}"),
            }
        }
        assert!(used > 100);
    }

    #[test]
    fn rectangles_to_8x8_with_and_without_the_dense_array_equal_the_plain_values() {
        let mut plain = NormalPlay::new(Plain);
        for rows in 1..=8u32 {
            for cols in 1..=8u32 {
                let v = plain.grundy_value(&vec![cols; rows as usize]).unwrap();
                let start = Chomp::rectangle(rows, cols).unwrap();
                // Numbered from the rectangle, or from 1x1 first (then the hashed table
                // holds nearly everything).
                for prime in [false, true] {
                    let mut solver = PrunedSolver::new(Chomp).with_value_method(ValueMethod::Mex);
                    let mut outcome = PrunedSolver::new(Chomp);
                    if prime {
                        let one = Chomp::rectangle(1, 1).unwrap();
                        assert_eq!(solver.grundy_value(&one).unwrap(), 0);
                        assert!(outcome.has_value(&one, 0).unwrap());
                    }
                    assert_eq!(solver.grundy_value(&start).unwrap(), v, "{rows}x{cols}");
                    assert_eq!(outcome.has_value(&start, 0).unwrap(), v == 0);
                    if !prime {
                        // Every exact value in the array: the hashed table was never needed.
                        let n = Chomp.dense_size(&start).unwrap();
                        assert_eq!(solver.stats().table_bytes, n, "{rows}x{cols}");
                    }
                }
            }
        }
    }

    #[test]
    fn winning_moves_asked_first_number_the_position_s_box() {
        let mut plain = NormalPlay::new(Plain);
        for (rows, cols) in [(8, 8), (5, 9)] {
            let start = Chomp::rectangle(rows, cols).unwrap();
            let mut moves = Vec::new();
            Chomp.moves(&start, &mut moves);
            let winning: Vec<Bite> = moves
                .into_iter()
                .filter(|(_, q)| plain.grundy_value(&Chomp::rows(*q)).unwrap() == 0)
                .map(|(b, _)| b)
                .collect();
            let mut fresh = PrunedSolver::new(Chomp);
            assert_eq!(fresh.winning_moves(&start).unwrap(), winning);
            let n = Chomp.dense_size(&start).unwrap();
            assert!(fresh.stats().table_bytes >= n, "{rows}x{cols}");
        }
    }

    #[test]
    fn rectangles_are_n_positions_and_known_values() {
        let mut solver = PrunedSolver::new(Chomp);
        for rows in 1..=9u32 {
            for cols in 1..=9u32 {
                let outcome = solver
                    .outcome(&Chomp::rectangle(rows, cols).unwrap())
                    .unwrap();
                let expected = if rows * cols == 1 {
                    crate::Outcome::P
                } else {
                    crate::Outcome::N
                };
                assert_eq!(outcome, expected, "{rows}x{cols}");
            }
        }
        // 2 x n: the P-positions are the rows (n, n-1) (the classical 2-row analysis).
        for n in 1..=20 {
            assert_eq!(
                solver
                    .outcome(
                        &Chomp::shape(
                            &[n, n - 1]
                                .into_iter()
                                .filter(|&x| x > 0)
                                .collect::<Vec<_>>()
                        )
                        .unwrap()
                    )
                    .unwrap(),
                crate::Outcome::P
            );
        }
        // Equal-armed L shapes are P (mirror strategy); the square's winning bite is (1,1).
        for a in 2..=12 {
            let mut l = vec![a];
            l.extend(std::iter::repeat(1).take(a as usize - 1));
            assert_eq!(
                solver.outcome(&Chomp::shape(&l).unwrap()).unwrap(),
                crate::Outcome::P
            );
            let square = Chomp::rectangle(a, a).unwrap();
            assert!(solver
                .winning_moves(&square)
                .unwrap()
                .contains(&Bite { row: 1, col: 1 }));
        }
        // Values computed by igsolve 0.1.2 (Beling's solver) on the same bars.
        for (r, c, v) in [
            (2, 2, 2),
            (3, 3, 5),
            (4, 4, 6),
            (5, 5, 6),
            (4, 7, 19),
            (6, 6, 13),
            (8, 8, 13),
        ] {
            assert_eq!(
                solver
                    .grundy_value(&Chomp::rectangle(r, c).unwrap())
                    .unwrap(),
                v,
                "{r}x{c}"
            );
        }
    }
}
