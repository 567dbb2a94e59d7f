//! Rectangular boards as bitboards, and their symmetries — helpers for [`Game::canonical`].
//!
//! A board of `height` rows and `width` columns (at most 64 cells) is a `u64`: cell
//! `(row, col)` is bit `row * width + col`. A rectangle has 4 symmetries (identity, the two
//! mirror flips, the half turn); a square has 8 (also the quarter turns and the two diagonal
//! flips).
//!
//! [`Game::canonical`]: crate::Game::canonical

use crate::Error;

/// A rectangular board of at most 64 cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Grid {
    width: u32,
    height: u32,
    /// The cells of column 0 (kept: flood fills need it at every step).
    first_col: u64,
    /// `spread.0[x]`: the bits of `x` (8 at most) moved down column 0, bit `j` to row `j`.
    spread: Spread,
    /// `place[i]`: `(row, col)` of bit `i` (a division is slow in the inner loops).
    place: [(u8, u8); 64],
}

/// A row of at most 8 cells spread down column 0, for each of the 256 rows (see
/// `Grid::transpose_box`); its own type so that `Debug` stays short.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct Spread([u64; 256]);

impl std::fmt::Debug for Spread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Spread")
    }
}

/// The `n` lowest bits (n <= 64).
fn low_bits(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1 << n) - 1
    }
}

/// A board image: rows of a box, each `w` bits wide (bit `c` = column `c`).
struct Image {
    rows: [u64; 64],
    h: u32,
    w: u32,
}

impl Image {
    fn flip_rows(&mut self) {
        self.rows[..self.h as usize].reverse();
    }
    fn flip_cols(&mut self) {
        let w = self.w;
        for r in &mut self.rows[..self.h as usize] {
            *r = r.reverse_bits() >> (64 - w);
        }
    }
    fn transposed(&self) -> Image {
        let mut t = Image {
            rows: [0; 64],
            h: self.w,
            w: self.h,
        };
        for (r, &row) in self.rows[..self.h as usize].iter().enumerate() {
            let mut bits = row;
            while bits != 0 {
                let c = bits.trailing_zeros();
                bits &= bits - 1;
                t.rows[c as usize] |= 1 << r;
            }
        }
        t
    }
}

impl Grid {
    /// A board of `height` rows and `width` columns; refused when it is empty or has more
    /// than 64 cells.
    pub fn new(height: u32, width: u32) -> Result<Self, Error> {
        if width == 0 || height == 0 || u64::from(width) * u64::from(height) > 64 {
            return Err(Error::Invalid(format!(
                "a {height}x{width} board does not fit: boards have 1 to 64 cells"
            )));
        }
        let first_col = (0..height).fold(0, |m, r| m | 1 << (r * width));
        let spread = Spread(std::array::from_fn(|x| {
            (0..height.min(8))
                .filter(|j| x >> j & 1 == 1)
                .fold(0, |m, j| m | 1 << (j * width))
        }));
        let place = std::array::from_fn(|i| ((i as u32 / width) as u8, (i as u32 % width) as u8));
        Ok(Grid {
            width,
            height,
            first_col,
            spread,
            place,
        })
    }

    /// Columns.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Number of cells.
    pub fn cells(&self) -> u32 {
        self.width * self.height
    }

    /// The bit of cell `(row, col)`.
    pub fn bit(&self, row: u32, col: u32) -> u64 {
        1 << (row * self.width + col)
    }

    /// `(row, col)` of bit index `i`.
    pub fn cell(&self, i: u32) -> (u32, u32) {
        let (r, c) = self.place[i as usize];
        (u32::from(r), u32::from(c))
    }

    /// Every cell of the board.
    pub fn full(&self) -> u64 {
        low_bits(self.cells())
    }

    /// The cells of column 0.
    pub fn first_col(&self) -> u64 {
        self.first_col
    }

    /// The cells of the last column.
    pub fn last_col(&self) -> u64 {
        self.first_col() << (self.width - 1)
    }

    /// The cells orthogonally adjacent to some cell of `set`.
    pub fn neighbours(&self, set: u64) -> u64 {
        let w = self.width;
        let right = (set & !self.last_col()) << 1;
        let left = (set & !self.first_col) >> 1;
        (right | left | set.checked_shl(w).unwrap_or(0) | set.checked_shr(w).unwrap_or(0))
            & self.full()
    }

    /// The connected region (orthogonal adjacency) of `set` holding its lowest cell (0 for
    /// the empty set).
    pub fn region_of_lowest(&self, set: u64) -> u64 {
        self.region_of_lowest_linked(set, set & (set >> 1) & !self.last_col())
    }

    /// The connected region of `set` holding its lowest cell when a horizontal step from a
    /// cell to its right neighbour (or back) is allowed only from the cells of `links` (a
    /// subset of `set` whose right neighbours are in `set`); vertical steps are all allowed.
    /// Cram cuts the horizontal edges of certain 2x2 junctions this way.
    pub fn region_of_lowest_linked(&self, set: u64, links: u64) -> u64 {
        let mut region = set & set.wrapping_neg();
        let w = self.width;
        loop {
            // Whole runs along the rows at once, then one step up and down.
            region = self.fill_rows(region, links);
            let vertical = region.checked_shl(w).unwrap_or(0) | region.checked_shr(w).unwrap_or(0);
            let grown = region | (vertical & set);
            if grown == region || grown == set {
                return grown;
            }
            region = grown;
        }
    }

    /// `seed` grown along the horizontal edges of `links` (a cell of `links` is joined to its
    /// right neighbour): a parallel prefix fill (steps 1, 2, 4, ... cells) each way.
    fn fill_rows(&self, seed: u64, links: u64) -> u64 {
        let mut right = seed;
        let mut pass = links << 1; // a cell reachable from its left neighbour
        let mut left = seed;
        let mut pass_left = links; // a cell reachable from its right neighbour
        let mut step = 1;
        while step < self.width {
            right |= pass & (right << step);
            pass &= pass << step;
            left |= pass_left & (left >> step);
            pass_left &= pass_left >> step;
            step *= 2;
        }
        right | left
    }

    /// The connected regions (orthogonal adjacency) of `set`, lowest cell first.
    pub fn regions(&self, mut set: u64) -> Vec<u64> {
        let mut out = Vec::new();
        while set != 0 {
            let region = self.region_of_lowest(set);
            out.push(region);
            set &= !region;
        }
        out
    }

    /// Number of symmetries of the board: 8 for a square, 4 otherwise.
    pub fn symmetry_count(&self) -> usize {
        if self.width == self.height {
            8
        } else {
            4
        }
    }

    fn image(&self, set: u64, top: u32, left: u32, h: u32, w: u32) -> Image {
        let mut img = Image {
            rows: [0; 64],
            h,
            w,
        };
        let mask = low_bits(w);
        for r in 0..h {
            img.rows[r as usize] = (set >> ((top + r) * self.width + left)) & mask;
        }
        img
    }

    fn encode(&self, img: &Image) -> u64 {
        img.rows[..img.h as usize]
            .iter()
            .enumerate()
            .fold(0, |acc, (r, &row)| acc | row << (r as u32 * self.width))
    }

    /// The images of `set` under the board's symmetries ([`symmetry_count`](Grid::symmetry_count)
    /// of them, the identity first).
    pub fn symmetric_images(&self, set: u64) -> Vec<u64> {
        let img = self.image(set, 0, 0, self.height, self.width);
        self.dihedral(img, self.width == self.height)
    }

    /// The least image of `set` under the board's symmetries: a canonical form for games whose
    /// rules look the same from every side of the board.
    pub fn canonical(&self, set: u64) -> u64 {
        *self.symmetric_images(set).iter().min().expect("identity")
    }

    /// The least image of `set` under the symmetries *of its bounding box* moved to the board's
    /// top-left corner (translations, flips, and the quarter turns whenever the turned box
    /// still fits on the board). For games whose rules only see the cells of `set` (like
    /// Cram's empty cells), equal shapes anywhere on the board get one key.
    pub fn canonical_shape(&self, set: u64) -> u64 {
        if set == 0 {
            return 0;
        }
        let (top, bottom, left, right) = self.bounding_box(set);
        let (h, w) = (bottom - top + 1, right - left + 1);
        // Moved to the top-left corner: cell (r, c) of the box is bit r * width + c.
        let at = set >> (top * self.width + left);
        let mut best = self.four_images_min(at, h, w);
        if w <= self.height && h <= self.width {
            best = best.min(self.four_images_min(self.transpose_box(at, h), w, h));
        }
        best
    }

    /// The least of a corner box's images under the identity, the two flips and the half
    /// turn.
    fn four_images_min(&self, at: u64, h: u32, w: u32) -> u64 {
        let flipped = self.flip_rows_of_box(at, h);
        at.min(flipped)
            .min(self.half_turn_of_corner_box(at, h, w))
            .min(self.half_turn_of_corner_box(flipped, h, w))
    }

    /// A box of `h` rows at the top-left corner, its rows in reverse order.
    fn flip_rows_of_box(&self, mut at: u64, h: u32) -> u64 {
        let row = low_bits(self.width);
        let mut out = at & row;
        for _ in 1..h {
            at >>= self.width;
            out = out << self.width | (at & row);
        }
        out
    }

    /// The half turn of an `h` x `w` box at the top-left corner: cell (r, c) goes to
    /// (h-1-r, w-1-c), which is bit `last - (r * width + c)` with `last` the box's last cell —
    /// one bit reversal of the whole word.
    fn half_turn_of_corner_box(&self, at: u64, h: u32, w: u32) -> u64 {
        let last = (h - 1) * self.width + w - 1;
        at.reverse_bits() >> (63 - last)
    }

    /// The transpose of a box of `h` rows at the top-left corner: cell (r, c) goes to (c, r).
    /// A box that can turn is at most 8 cells wide (its width is at most both sides of a
    /// board of 64 cells), so each row is spread down a column by a table.
    fn transpose_box(&self, at: u64, h: u32) -> u64 {
        let row = low_bits(self.width.min(8));
        (0..h).fold(0, |out, r| {
            let bits = (at >> (r * self.width)) & row;
            out | self.spread.0[bits as usize] << r
        })
    }

    /// The least of [`dihedral`](Self::dihedral)'s images, without collecting them (the
    /// reference [`canonical_shape`](Self::canonical_shape) is tested against).
    #[cfg(test)]
    fn dihedral_min(&self, mut img: Image, turns: bool) -> u64 {
        let mut best = u64::MAX;
        let mut four = |img: &mut Image| {
            best = best.min(self.encode(img));
            img.flip_cols();
            best = best.min(self.encode(img));
            img.flip_rows();
            best = best.min(self.encode(img));
            img.flip_cols();
            best = best.min(self.encode(img));
        };
        four(&mut img);
        if turns {
            // After the three flips `img` is the vertical mirror; its transpose is a quarter turn
            // of the original, and the flips of that give the other three turned images.
            let mut t = img.transposed();
            four(&mut t);
        }
        best
    }

    /// The 4 (or with `turns` 8) images of a box, each encoded at the top-left corner.
    fn dihedral(&self, mut img: Image, turns: bool) -> Vec<u64> {
        let mut out = Vec::with_capacity(8);
        let variants = |img: &mut Image, out: &mut Vec<u64>| {
            out.push(self.encode(img));
            img.flip_cols();
            out.push(self.encode(img));
            img.flip_rows();
            out.push(self.encode(img));
            img.flip_cols();
            out.push(self.encode(img));
            img.flip_rows();
        };
        variants(&mut img, &mut out);
        if turns {
            let mut t = img.transposed();
            variants(&mut t, &mut out);
        }
        out
    }

    /// `(top row, bottom row, left column, right column)` of a non-empty set.
    pub fn bounding_box(&self, set: u64) -> (u32, u32, u32, u32) {
        debug_assert!(set != 0);
        let top = u32::from(self.place[set.trailing_zeros() as usize].0);
        let bottom = u32::from(self.place[63 - set.leading_zeros() as usize].0);
        // Every row folded onto row 0: shifts by 1, 2, 4, ... rows (a shift by whole rows
        // keeps each cell in its column).
        let mut s = set;
        let mut rows = 1;
        while rows < self.height {
            s |= s >> (rows * self.width);
            rows *= 2;
        }
        let cols = s & low_bits(self.width);
        (
            top,
            bottom,
            cols.trailing_zeros(),
            63 - cols.leading_zeros(),
        )
    }

    /// The image of `set` under the half turn of its own bounding box.
    pub fn half_turn_of_box(&self, set: u64) -> u64 {
        if set == 0 {
            return 0;
        }
        let (top, bottom, left, right) = self.bounding_box(set);
        let shift = top * self.width + left;
        self.half_turn_of_corner_box(set >> shift, bottom - top + 1, right - left + 1) << shift
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type CellMap = Box<dyn Fn(u32, u32) -> (u32, u32)>;

    fn cells(g: &Grid, set: u64) -> Vec<(u32, u32)> {
        (0..64)
            .filter(|i| set >> i & 1 == 1)
            .map(|i| g.cell(i))
            .collect()
    }

    #[test]
    fn images_are_the_board_symmetries_cell_by_cell() {
        for (h, w) in [(3, 3), (4, 4), (2, 5), (3, 7), (8, 8), (1, 64)] {
            let g = Grid::new(h, w).unwrap();
            let set = g.bit(0, 0) | g.bit(0, 1) | g.bit(h - 1, w / 2);
            let images = g.symmetric_images(set);
            assert_eq!(images.len(), g.symmetry_count());
            // Each image is the set mapped by one of the maps below, and all maps appear.
            let maps: Vec<CellMap> = {
                let mut m: Vec<CellMap> = vec![
                    Box::new(|r, c| (r, c)),
                    Box::new(move |r, c| (r, w - 1 - c)),
                    Box::new(move |r, c| (h - 1 - r, c)),
                    Box::new(move |r, c| (h - 1 - r, w - 1 - c)),
                ];
                if h == w {
                    m.push(Box::new(|r, c| (c, r)));
                    m.push(Box::new(move |r, c| (w - 1 - c, r)));
                    m.push(Box::new(move |r, c| (c, h - 1 - r)));
                    m.push(Box::new(move |r, c| (w - 1 - c, h - 1 - r)));
                }
                m
            };
            let mut expected: Vec<u64> = maps
                .iter()
                .map(|f| {
                    cells(&g, set).into_iter().fold(0, |acc, (r, c)| {
                        let (r2, c2) = f(r, c);
                        acc | g.bit(r2, c2)
                    })
                })
                .collect();
            let mut got = images.clone();
            expected.sort();
            got.sort();
            assert_eq!(got, expected, "{h}x{w}");
        }
    }

    #[test]
    fn shapes_are_equal_wherever_they_sit() {
        let g = Grid::new(4, 6).unwrap();
        let l1 = g.bit(0, 0) | g.bit(1, 0) | g.bit(1, 1);
        let l2 = g.bit(2, 4) | g.bit(2, 5) | g.bit(3, 5); // the same L turned and moved
        assert_eq!(g.canonical_shape(l1), g.canonical_shape(l2));
        let bar = g.bit(0, 0) | g.bit(0, 1) | g.bit(0, 2);
        assert_ne!(g.canonical_shape(l1), g.canonical_shape(bar));
        // A 5-long bar on a 4-row board cannot stand up: turns are skipped.
        let long = (0..5).fold(0, |a, c| a | g.bit(3, c));
        assert_eq!(
            g.canonical_shape(long),
            (0..5).fold(0, |a, c| a | g.bit(0, c))
        );
    }

    /// The next state of a xorshift generator (random boards, reproducible).
    fn xorshift(x: &mut u64) -> u64 {
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        *x
    }

    /// The image-based reference: every symmetry of the box drawn cell by cell.
    fn slow_canonical_shape(g: &Grid, set: u64) -> u64 {
        if set == 0 {
            return 0;
        }
        let (top, bottom, left, right) = g.bounding_box(set);
        let (h, w) = (bottom - top + 1, right - left + 1);
        let img = g.image(set, top, left, h, w);
        g.dihedral_min(img, w <= g.height && h <= g.width)
    }

    #[test]
    fn bitwise_shapes_equal_the_cell_by_cell_images() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for (h, w) in [
            (3, 3),
            (4, 4),
            (2, 5),
            (5, 2),
            (3, 7),
            (5, 8),
            (8, 8),
            (1, 64),
            (64, 1),
        ] {
            let g = Grid::new(h, w).unwrap();
            for _ in 0..2000 {
                let x = xorshift(&mut x);
                // Sparse and dense sets, and small boxes away from the corner.
                let set = (x & x.rotate_left(7) & g.full()) >> (x % 5);
                assert_eq!(
                    g.canonical_shape(set),
                    slow_canonical_shape(&g, set),
                    "{h}x{w} {set:#x}"
                );
                if set != 0 {
                    let (top, bottom, left, right) = g.bounding_box(set);
                    let mut img = g.image(set, top, left, bottom - top + 1, right - left + 1);
                    img.flip_rows();
                    img.flip_cols();
                    assert_eq!(g.half_turn_of_box(set), g.encode(&img) << (top * w + left));
                }
            }
        }
    }

    #[test]
    fn regions_equal_a_cell_by_cell_flood_fill() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for (h, w) in [
            (3, 4),
            (5, 8),
            (8, 8),
            (3, 13),
            (2, 32),
            (1, 64),
            (64, 1),
            (7, 9),
        ] {
            let g = Grid::new(h, w).unwrap();
            for _ in 0..3000 {
                let x = xorshift(&mut x);
                let set = (x | x.rotate_left(11)) & g.full();
                // Reference: grow one neighbour step at a time.
                let mut slow = set & set.wrapping_neg();
                loop {
                    let grown = (slow | g.neighbours(slow)) & set;
                    if grown == slow {
                        break;
                    }
                    slow = grown;
                }
                assert_eq!(g.region_of_lowest(set), slow, "{h}x{w} {set:#x}");
            }
        }
    }

    #[test]
    fn bounding_boxes_and_cells_equal_the_cells_extremes() {
        let mut x = 0x0123_4567_89AB_CDEFu64;
        for (h, w) in [(3, 4), (5, 8), (8, 8), (1, 64), (64, 1), (7, 9), (4, 7)] {
            let g = Grid::new(h, w).unwrap();
            for i in 0..g.cells() {
                assert_eq!(g.cell(i), (i / w, i % w));
            }
            for _ in 0..2000 {
                let set = xorshift(&mut x) & xorshift(&mut x) & g.full();
                if set == 0 {
                    continue;
                }
                let cells = cells(&g, set);
                let rows = cells.iter().map(|c| c.0);
                let cols = cells.iter().map(|c| c.1);
                let want = (
                    rows.clone().min().unwrap(),
                    rows.max().unwrap(),
                    cols.clone().min().unwrap(),
                    cols.max().unwrap(),
                );
                assert_eq!(g.bounding_box(set), want, "{h}x{w} {set:#x}");
            }
        }
    }

    #[test]
    fn regions_and_neighbours() {
        let g = Grid::new(3, 4).unwrap();
        // Row 0 cells 0,1 and row 2 cells 2,3: two regions; wrapping rows are not adjacent.
        let set = g.bit(0, 0) | g.bit(0, 1) | g.bit(2, 2) | g.bit(2, 3) | g.bit(1, 3);
        let regions = g.regions(set);
        assert_eq!(regions.len(), 2);
        assert_eq!(regions.iter().fold(0, |a, r| a | r), set);
        assert_eq!(g.neighbours(g.bit(0, 3)), g.bit(0, 2) | g.bit(1, 3));
        assert_eq!(
            g.half_turn_of_box(g.bit(0, 0) | g.bit(1, 1)),
            g.bit(0, 0) | g.bit(1, 1)
        );
        assert!(Grid::new(5, 13).is_err() && Grid::new(0, 3).is_err());
    }
}
