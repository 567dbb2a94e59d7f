//! Cram: players take turns placing a domino on two orthogonally adjacent empty cells of a
//! board; the player who cannot place one loses (normal play). (Gardner; Berlekamp, Conway &
//! Guy, *Winning Ways*, ch. 22 "Cram".)
//!
//! A position is the set of empty cells of a [`Grid`] of at most 64 cells, one `u64`. The
//! empty cells fall apart into connected regions that are played independently: a position is
//! the disjunctive sum of its regions ([`Game::components`]; lone cells, which admit no domino,
//! are left out). A region is keyed by its shape up to translation and the symmetries of the
//! board ([`Grid::canonical_shape`]).
//!
//! **Symmetry theorem** ([`symmetric_zero`]): if the empty cells are invariant under the half
//! turn of their bounding box and no cell is equal or adjacent to its own image, the position
//! has value 0 — the second player answers every domino with its image, which is always legal
//! (the Tweedledum–Tweedledee strategy; on an even x even board this is the classical proof that
//! the second player wins). [`Game::known_value`] uses it; tests compare it with the plain
//! evaluator on every small position.

use super::grid::Grid;
use crate::solve::pruned::Answer;
use crate::{Error, Game, LabelledMoves, Nimber};

/// The Cram rules on one board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cram {
    grid: Grid,
    horizontal: u64,
}

/// A move: a domino on two adjacent cells, each `(row, col)`, 0-based, the upper-left first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Domino {
    /// The two cells covered.
    pub cells: [(u32, u32); 2],
}

/// `{"cells": [[r1, c1], [r2, c2]]}`: the cells as sequences (lists in Python, not tuples), so
/// the CLI's JSON and the Python package's dicts have one shape.
impl serde::Serialize for Domino {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let [(r1, c1), (r2, c2)] = self.cells;
        let (a, b) = ([r1, c1], [r2, c2]);
        let mut domino = s.serialize_struct("Domino", 1)?;
        domino.serialize_field("cells", &[&a[..], &b[..]][..])?;
        domino.end()
    }
}

/// What `grundy cram` and `grundy.cram` report (the keys of `--json`): the board, the search's
/// answer, and whether the symmetry theorem decides it.
#[derive(Debug, Clone, serde::Serialize)]
pub struct CramReport {
    pub rows: u32,
    pub cols: u32,
    pub empty_cells: u32,
    #[serde(flatten)]
    pub answer: Answer<Domino>,
    /// true when the half-turn symmetry theorem decides the board without search
    pub symmetric: bool,
}

impl CramReport {
    /// The report of `answer` about the `empty` cells of `cram`'s board.
    pub fn new(cram: &Cram, empty: u64, answer: Answer<Domino>) -> Self {
        CramReport {
            rows: cram.grid().height(),
            cols: cram.grid().width(),
            empty_cells: empty.count_ones(),
            answer,
            symmetric: symmetric_zero(cram.grid(), empty),
        }
    }
}

impl std::fmt::Display for Domino {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [(r1, c1), (r2, c2)] = self.cells;
        write!(f, "({r1},{c1})-({r2},{c2})")
    }
}

/// `x >> s`, 0 when `s` is 64: a board one row of 64 cells wide has no cell below another
/// (`>>` by 64 would be a shift by 0 in release builds: every cell its own neighbour below, a
/// wrong value for `cram 1x64`, found by the `parse_cram_board` fuzz target).
fn shr(x: u64, s: u32) -> u64 {
    x.checked_shr(s).unwrap_or(0)
}

/// `x << s`, 0 when `s` is 64 (see [`shr`]).
fn shl(x: u64, s: u32) -> u64 {
    x.checked_shl(s).unwrap_or(0)
}

impl Cram {
    /// Cram on a board of `rows` x `cols` cells (at most 64).
    pub fn new(rows: u32, cols: u32) -> Result<Self, Error> {
        let grid = Grid::new(rows, cols).map_err(|_| Error::Invalid(too_large(rows, cols)))?;
        Ok(Cram {
            grid,
            horizontal: grid.full() & !grid.last_col(),
        })
    }

    /// A board drawn as text, one line per row: `.` an empty cell, `#` a blocked one (blank
    /// lines before and after the board and trailing blanks are ignored; short rows are padded
    /// with blocked cells). A blank line *inside* the board is refused: it is not clear whether
    /// it means a blocked row or nothing (it used to be dropped, joining the rows around it).
    /// Returns the rules and the position (its empty cells).
    pub fn from_text(text: &str) -> Result<(Self, u64), Error> {
        let all: Vec<&str> = text.lines().map(str::trim_end).collect();
        let first = all.iter().position(|l| !l.is_empty()).unwrap_or(all.len());
        let last = all
            .iter()
            .rposition(|l| !l.is_empty())
            .map_or(first, |i| i + 1);
        let lines = &all[first..last];
        if let Some(blank) = lines.iter().position(|l| l.is_empty()) {
            return Err(Error::Invalid(format!(
                "board row {} is blank: draw a blocked row as '#' cells (e.g. '###'); blank \
                 lines may only come before or after the board",
                blank + 1
            )));
        }
        let rows = lines.len() as u32;
        let cols = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0) as u32;
        if rows == 0 {
            return Err(Error::Invalid(
                "the board is empty: draw it with '.' for an empty cell and '#' for a blocked one"
                    .into(),
            ));
        }
        let cram = Cram::new(rows, cols)?;
        let mut empty = 0;
        for (r, line) in lines.iter().enumerate() {
            for (c, ch) in line.chars().enumerate() {
                match ch {
                    '.' => empty |= cram.grid.bit(r as u32, c as u32),
                    '#' => {}
                    other => {
                        return Err(Error::Invalid(format!(
                            "board row {} column {}: '{other}' is neither '.' (empty) nor '#' (blocked)",
                            r + 1,
                            c + 1
                        )))
                    }
                }
            }
        }
        Ok((cram, empty))
    }

    /// The board.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The empty board.
    pub fn start(&self) -> u64 {
        self.grid.full()
    }

    /// Each domino as the bit of its upper-left cell: `(horizontal, vertical)`.
    fn anchors(&self, empty: u64) -> (u64, u64) {
        let w = self.grid.width();
        (
            empty & (empty >> 1) & self.horizontal,
            empty & shr(empty, w),
        )
    }

    /// `empty` with every *extra tuft* and every *bridge* filled: a position of the same value.
    ///
    /// A *tuft* is an empty cell with exactly one empty neighbour, its *centre*.
    ///
    /// - When a centre holds several tufts, all but one can be filled: a domino on a tuft
    ///   always covers its centre, and once the centre is covered every tuft of it is a lone
    ///   cell. So a domino on any tuft of a centre leads to the same position (up to lone
    ///   cells, which never matter) as a domino on the tuft kept.
    /// - A *bridge* is an empty cell, neither tuft nor centre, whose empty neighbours are all
    ///   centres. It can be filled: a domino on the bridge and a centre `X` leaves the same
    ///   position (up to lone cells) as the domino on `X` and its tuft, which exists without
    ///   the bridge too; and a cell stays a bridge (or becomes a lone cell) after any move.
    ///
    /// In both cases the position with the cell and the one without have options of the same
    /// values, so by induction the same value. (Both reductions are among those of Beling's
    /// Cram solver, igs.) Filling can make new tufts, so this repeats until nothing changes.
    pub fn reduced(&self, mut empty: u64) -> u64 {
        let w = self.grid.width();
        let (first, last) = (self.grid.first_col(), self.grid.last_col());
        loop {
            let right = empty & (empty >> 1) & !last;
            let left = empty & (empty << 1) & !first;
            let down = empty & shr(empty, w);
            let up = empty & shl(empty, w);
            let two_or_more = (right & (left | down | up)) | (left & (down | up)) | (down & up);
            let tufts = (right | left | down | up) & !two_or_more;
            // Centres of the tufts of each direction; a centre seen before drops the tuft.
            let mut seen = (tufts & right) << 1;
            let mut drop = 0;
            let from_left = (tufts & left) >> 1;
            drop |= (from_left & seen) << 1;
            seen |= from_left;
            let from_below = shl(tufts & down, w);
            drop |= shr(from_below & seen, w);
            seen |= from_below;
            let from_above = shr(tufts & up, w);
            drop |= shl(from_above & seen, w);
            seen |= from_above;
            // Bridges: neither tuft nor centre, no neighbour that is neither (a neighbour of a
            // tuft is its centre, so every neighbour is a centre). Lone cells count too.
            let plain = empty & !tufts & !seen;
            drop |= plain & !self.grid.neighbours(plain);
            if drop == 0 {
                return empty;
            }
            empty &= !drop;
        }
    }

    /// The horizontal edges a position may ignore, as the bits of their left cells: those of
    /// every *2x2 junction*, a 2x2 block of empty cells two opposite corners of which have no
    /// empty neighbour outside the block. Without these edges the block falls apart into two
    /// vertical pairs, and often the region into two independent parts (the same split as
    /// Beling's Cram solver, igs).
    ///
    /// Why the value does not change. See the board as a graph (cells, and edges between
    /// empty neighbours; a move removes both ends of an edge, and the value depends only on
    /// the graph up to isomorphism). Let `a b / c d` be the block with `a` and `d` the corners
    /// whose only neighbours are `b` and `c` (the other diagonal is symmetric), `H` the graph
    /// and `H'` the graph without the edges `a-b` and `c-d`. By induction on the number of
    /// cells, `H` and `H'` have options of the same values:
    ///
    /// - an edge away from the block: both options still hold the pattern; induction;
    /// - `a-c` or `b-d`: both options are the same graph (the cut edges lost an end);
    /// - an edge `b-y` outside the block: in `H` it leaves `a` and `d` as two tufts of `c`,
    ///   in `H'` only `a` (`d` is lone); extra tufts do not change the value
    ///   ([`Cram::reduced`]). Likewise `c-y`;
    /// - `a-b` (only in `H`) leaves `d` a tuft of `c`, isomorphic (swap `a` and `d`) to what
    ///   `b-d` leaves, an option of both; likewise `c-d` and `a-c`.
    ///
    /// So `H` has the value of `H'`. A part of `H'` that holds both ends of a cut edge (joined
    /// another way round) still holds the whole block, and gets its edges back by the same
    /// argument: the parts may be keyed as plain sets of cells.
    pub fn junction_cuts(&self, empty: u64) -> u64 {
        let w = self.grid.width();
        let (first, last) = (self.grid.first_col(), self.grid.last_col());
        let right = empty & (empty >> 1) & !last;
        let left = empty & (empty << 1) & !first;
        let down = empty & empty.checked_shr(w).unwrap_or(0);
        let up = empty & empty.checked_shl(w).unwrap_or(0);
        // `a` (top-left) and `d` (bottom-right) closed outside the block ...
        let a = right & down & !left & !up;
        let d = left & up & !right & !down;
        let main = a & d.checked_shr(w + 1).unwrap_or(0);
        // ... or `b` (top-right) and `c` (bottom-left); the edges are anchored at `a = b - 1`.
        let b = left & down & !right & !up;
        let c = right & up & !left & !down;
        let anti = (b & c.checked_shr(w - 1).unwrap_or(0)) >> 1;
        let tops = main | anti;
        tops | tops.checked_shl(w).unwrap_or(0)
    }

    /// Push the final parts of `empty` (see [`Game::components`]) onto `out`.
    fn split_into(&self, empty: u64, out: &mut Vec<u64>) {
        let reduced = self.reduced(empty);
        let (horizontal, _) = self.anchors(reduced);
        let cuts = self.junction_cuts(reduced);
        let links = horizontal & !cuts;
        let mut rest = reduced;
        while rest != 0 {
            let region = self.grid.region_of_lowest_linked(rest, links & rest);
            rest &= !region;
            if region.count_ones() < 2 {
                continue;
            }
            // A region of a reduced position is reduced and whole, unless a cut set it apart
            // from the rest (its cells lost neighbours).
            if cuts == 0 || region == reduced {
                out.push(region);
            } else {
                self.split_into(region, out);
            }
        }
    }

    /// The board as text: `.` empty, `#` filled.
    pub fn draw(&self, empty: u64) -> String {
        let mut s = String::new();
        for r in 0..self.grid.height() {
            for c in 0..self.grid.width() {
                s.push(if empty & self.grid.bit(r, c) != 0 {
                    '.'
                } else {
                    '#'
                });
            }
            s.push('\n');
        }
        s
    }
}

fn too_large(rows: u32, cols: u32) -> String {
    format!("a {rows}x{cols} Cram board does not fit: boards have 1 to 64 cells")
}

/// Whether the symmetry theorem (see the module docs) proves `empty` a P-position.
pub fn symmetric_zero(grid: &Grid, empty: u64) -> bool {
    if empty == 0 || grid.half_turn_of_box(empty) != empty {
        return empty == 0;
    }
    let (top, bottom, left, right) = grid.bounding_box(empty);
    let (rs, cs) = (top + bottom, left + right);
    // Cells equal or adjacent to their image lie at the centre of the box.
    let central = match (rs % 2, cs % 2) {
        (1, 1) => 0,
        (0, 0) => grid.bit(rs / 2, cs / 2),
        (0, _) => grid.bit(rs / 2, cs / 2) | grid.bit(rs / 2, cs / 2 + 1),
        _ => grid.bit(rs / 2, cs / 2) | grid.bit(rs / 2 + 1, cs / 2),
    };
    empty & central == 0
}

impl Game for Cram {
    type Position = u64;

    /// Moves nearest the centre of the empty cells' bounding box first (they tend to split
    /// the board, and a split board is quickly valued), vertical before horizontal on ties.
    fn options(&self, empty: &u64, out: &mut Vec<u64>) {
        if *empty == 0 {
            return;
        }
        let (h, v) = self.anchors(*empty);
        let w = self.grid.width();
        let (top, bottom, left, right) = self.grid.bounding_box(*empty);
        // Twice the centre, so that half cells stay integers.
        let (cr, cc) = ((top + bottom) as i32, (left + right) as i32);
        // One u32 per move, sorted: the distance key, then the anchor cell and the direction
        // (unique, so the order does not depend on the sort).
        let mut keyed = [0u32; 128];
        let mut n = 0;
        for (mut bits, vertical) in [(v, true), (h, false)] {
            while bits != 0 {
                let i = bits.trailing_zeros();
                bits &= bits - 1;
                let (r, c) = self.grid.cell(i);
                let (r, c) = (r as i32 * 2, c as i32 * 2);
                let (dr, dc) = if vertical {
                    (r + 1 - cr, c - cc)
                } else {
                    (r - cr, c + 1 - cc)
                };
                let d = (dr * dr + dc * dc) as u32 * 2 + u32::from(!vertical);
                keyed[n] = d << 7 | i << 1 | u32::from(!vertical);
                n += 1;
            }
        }
        keyed[..n].sort_unstable();
        out.extend(keyed[..n].iter().map(|k| {
            let i = k >> 1 & 63;
            let cells = if k & 1 == 0 {
                (1 | 1 << w) << i
            } else {
                3 << i
            };
            empty & !cells
        }));
    }

    /// The regions of two or more cells of the [reduced](Cram::reduced) position (lone cells
    /// admit no domino and are left out), the horizontal edges of every 2x2 junction cut
    /// ([`Cram::junction_cuts`]); parts that a cut set apart are reduced and split again, so
    /// every part is final ([`parts_are_final`](Game::parts_are_final)).
    fn components(&self, empty: &u64) -> Option<Vec<u64>> {
        let mut parts = Vec::new();
        self.components_into(empty, &mut parts).then_some(parts)
    }

    fn components_into(&self, empty: &u64, out: &mut Vec<u64>) -> bool {
        let start = out.len();
        self.split_into(*empty, out);
        if out[start..] == [*empty] {
            out.truncate(start);
            return false;
        }
        true
    }

    fn parts_are_final(&self) -> bool {
        true
    }

    /// The least image of the shape under translation and the board's symmetries. (The
    /// engines ask only for positions [`components`](Game::components) leaves whole, which
    /// are already [reduced](Cram::reduced).)
    fn canonical(&self, empty: &u64) -> u64 {
        self.grid.canonical_shape(*empty)
    }

    /// The number of empty cells (with moves listed centre first, lightest options first
    /// searched fewer nodes than fewest moves first on 3x11 to 5x8).
    fn weight(&self, empty: &u64) -> Option<u64> {
        Some(u64::from(empty.count_ones()))
    }

    fn known_value(&self, empty: &u64) -> Option<Nimber> {
        match empty.count_ones() {
            0 | 1 => Some(0),
            // Two or three connected cells: every move leaves at most one cell.
            2 | 3 if self.grid.region_of_lowest(*empty) == *empty => Some(1),
            _ => symmetric_zero(&self.grid, *empty).then_some(0),
        }
    }
}

impl LabelledMoves for Cram {
    type Move = Domino;

    fn moves(&self, empty: &u64, out: &mut Vec<(Domino, u64)>) {
        let (mut h, mut v) = self.anchors(*empty);
        let w = self.grid.width();
        while h != 0 {
            let i = h.trailing_zeros();
            h &= h - 1;
            let (r, c) = self.grid.cell(i);
            let cells = [(r, c), (r, c + 1)];
            out.push((Domino { cells }, empty & !(3 << i)));
        }
        while v != 0 {
            let i = v.trailing_zeros();
            v &= v - 1;
            let (r, c) = self.grid.cell(i);
            let cells = [(r, c), (r + 1, c)];
            out.push((Domino { cells }, empty & !((1 | 1 << w) << i)));
        }
    }
}

#[cfg(test)]
mod tests;
