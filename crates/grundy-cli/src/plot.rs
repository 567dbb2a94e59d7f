//! Pictures: a grid of small non-negative integers (a table of Grundy values) drawn as a
//! heatmap with axes and a legend, as PNG or SVG.
//!
//! Why a helper of its own: several families draw the same kind of picture — a value for every
//! pair of heaps, every (n, k), ... — and readers should meet one visual language: value 0 (a
//! P-position) is always near-black, small values always have the same distinct colours, cell
//! (0, 0) sits at the bottom left, and tick labels name cells (not cell edges). Callers say
//! only what the cells are and how to label them.
//!
//! Text is drawn with DejaVu Sans, compiled into the program ([`register_font`]): pictures need
//! no system font library and look the same on every machine.

use crate::common::{CliError, CliResult};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;

/// DejaVu Sans (Bitstream Vera licence, beside the file in `assets/`).
static FONT: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");

/// The font family every picture names.
pub const FAMILY: &str = "sans-serif";

/// Make [`FAMILY`] draw with the shipped font. Every drawing entry point calls this first; only
/// the first call registers.
pub fn register_font() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // the bytes are a valid TrueType file, checked by a test
        let _ = plotters::style::register_font(FAMILY, FontStyle::Normal, FONT);
    });
}

/// Which file format to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageFormat {
    Png,
    Svg,
}

/// A grid of values to draw.
pub struct Heatmap<'a> {
    /// Caption above the picture.
    pub title: &'a str,
    /// Description of the horizontal axis (the column index).
    pub x_label: &'a str,
    /// Description of the vertical axis (the row index).
    pub y_label: &'a str,
    /// `cells[y][x]`, every row the same length; row 0 is drawn at the bottom.
    pub cells: &'a [Vec<u64>],
    /// Heading of the legend, e.g. "Grundy value".
    pub legend_title: &'a str,
    /// The legend's text for one value, e.g. `0 (P-position)`.
    pub legend_label: &'a dyn Fn(u64) -> String,
}

/// Colour of value 0: P-positions stand out as dark cells.
const ZERO: RGBColor = RGBColor(0x22, 0x22, 0x22);

/// Colours of values 1, 2, 3, ... (neighbouring values contrast; all are light enough to read
/// against the dark zero).
const PALETTE: [RGBColor; 14] = [
    RGBColor(0x4e, 0x79, 0xa7), // blue
    RGBColor(0xf2, 0x8e, 0x2b), // orange
    RGBColor(0x59, 0xa1, 0x4f), // green
    RGBColor(0xe1, 0x57, 0x59), // red
    RGBColor(0xed, 0xc9, 0x48), // yellow
    RGBColor(0xb0, 0x7a, 0xa1), // purple
    RGBColor(0x76, 0xb7, 0xb2), // teal
    RGBColor(0xff, 0x9d, 0xa7), // pink
    RGBColor(0x9c, 0x75, 0x5f), // brown
    RGBColor(0xba, 0xb0, 0xac), // grey
    RGBColor(0xa0, 0xcb, 0xe8), // light blue
    RGBColor(0x8c, 0xd1, 0x7d), // light green
    RGBColor(0xd4, 0xa6, 0xc8), // lilac
    RGBColor(0xf1, 0xce, 0x63), // gold
];

/// How values become colours: one colour per value when they fit the palette, otherwise a
/// gradient from dark blue to yellow over the range of non-zero values.
struct ColourMap {
    max: u64,
}

impl ColourMap {
    fn colour(&self, v: u64) -> RGBColor {
        if v == 0 {
            return ZERO;
        }
        if self.max <= PALETTE.len() as u64 {
            return PALETTE[(v - 1) as usize];
        }
        let t = (v - 1) as f64 / (self.max - 1).max(1) as f64;
        // dark blue -> teal -> yellow
        let stops = [(0x30, 0x12, 0x8c), (0x21, 0x91, 0x8c), (0xfd, 0xe7, 0x25)];
        let s = t * 2.0;
        let (a, b, f) = if s < 1.0 {
            (stops[0], stops[1], s)
        } else {
            (stops[1], stops[2], s - 1.0)
        };
        let mix = |x: u8, y: u8| (x as f64 + (y as f64 - x as f64) * f).round() as u8;
        RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
    }

    /// The values the legend lists: all of them, or about a dozen spread over the range.
    fn legend_values(&self, present: &[u64]) -> Vec<u64> {
        if present.len() <= 16 {
            return present.to_vec();
        }
        let step = present.len().div_ceil(12);
        let mut out: Vec<u64> = present.iter().step_by(step).copied().collect();
        if out.last() != present.last() {
            out.push(*present.last().expect("non-empty"));
        }
        out
    }
}

/// Width of the legend panel on the right, in pixels.
const LEGEND_WIDTH: u32 = 210;
/// Room around the square of cells: caption, axis labels, margins.
const FRAME_X: u32 = 60 + 2 * 12;
const FRAME_Y: u32 = 50 + 2 * 12 + 40;

/// Size of the picture in pixels: the cells fill a square at least 700 pixels wide and, for
/// large grids, at least 2 pixels per cell (up to 2400), so that patterns are not aliased away.
/// Frame and legend grow in proportion with the square.
fn picture_size(rows: usize, cols: usize) -> (u32, u32) {
    let side = (2 * rows.max(cols) as u32).clamp(700, 2400);
    let scale = |x: u32| x * side / 700;
    (side + scale(FRAME_X + LEGEND_WIDTH), side + scale(FRAME_Y))
}

/// Draw `map` into `path` as a PNG or SVG file.
pub fn save(map: &Heatmap, path: &Path, format: ImageFormat) -> CliResult {
    let rows = map.cells.len();
    let cols = map.cells.first().map_or(0, Vec::len);
    if rows == 0 || cols == 0 || map.cells.iter().any(|r| r.len() != cols) {
        return Err(CliError::input(
            "nothing to draw: the table is empty or ragged",
        ));
    }
    let size = picture_size(rows, cols);
    register_font();
    let fail = |e: String| CliError::input(format!("cannot draw '{}': {e}", path.display()));
    match format {
        ImageFormat::Png => {
            let root = BitMapBackend::new(path, size).into_drawing_area();
            draw(map, &root).map_err(|e| fail(e.to_string()))?;
            root.present().map_err(|e| fail(e.to_string()))
        }
        ImageFormat::Svg => {
            let root = SVGBackend::new(path, size).into_drawing_area();
            draw(map, &root).map_err(|e| fail(e.to_string()))?;
            root.present().map_err(|e| fail(e.to_string()))
        }
    }
}

fn draw<DB: DrawingBackend>(
    map: &Heatmap,
    root: &DrawingArea<DB, Shift>,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let rows = map.cells.len();
    let cols = map.cells[0].len();
    let mut present: Vec<u64> = map.cells.iter().flatten().copied().collect();
    present.sort_unstable();
    present.dedup();
    let colours = ColourMap {
        max: *present.last().expect("non-empty"),
    };

    root.fill(&WHITE)?;
    let (width, height) = root.dim_in_pixel();
    // text grows with the picture so that it stays readable when a large grid is shown scaled
    let scale = (height as f64 / (700 + FRAME_Y) as f64).max(1.0);
    let px = |size: f64| (size * scale).round() as u32;
    let legend_width = px(LEGEND_WIDTH as f64);
    let (plot_area, legend_area) = root.split_horizontally(width - legend_width);

    let cell_label = |v: &f64| {
        if v.fract() == 0.0 && *v >= 0.0 {
            format!("{v:.0}")
        } else {
            String::new()
        }
    };
    let mut chart = ChartBuilder::on(&plot_area)
        .caption(map.title, (FAMILY, px(24.0)))
        .margin(px(12.0))
        .x_label_area_size(px(50.0))
        .y_label_area_size(px(60.0))
        .build_cartesian_2d(-0.5f64..cols as f64 - 0.5, -0.5f64..rows as f64 - 0.5)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_labels(cols.min(17))
        .y_labels(rows.min(17))
        .x_label_formatter(&cell_label)
        .y_label_formatter(&cell_label)
        .x_desc(map.x_label)
        .y_desc(map.y_label)
        .label_style((FAMILY, px(14.0)))
        .axis_desc_style((FAMILY, px(16.0)))
        .draw()?;
    chart.draw_series(map.cells.iter().enumerate().flat_map(|(y, row)| {
        let colours = &colours;
        row.iter().enumerate().map(move |(x, &v)| {
            let (x, y) = (x as f64, y as f64);
            Rectangle::new(
                [(x - 0.5, y - 0.5), (x + 0.5, y + 0.5)],
                colours.colour(v).filled(),
            )
        })
    }))?;

    // legend: a heading, then a swatch and a label per value
    let legend = legend_area.margin(px(60.0), px(10.0), px(10.0), px(10.0));
    legend.draw(&Text::new(
        map.legend_title.to_owned(),
        (0, 0),
        (FAMILY, px(18.0)).into_font(),
    ))?;
    let (swatch, row, gap) = (px(20.0) as i32, px(28.0) as i32, px(34.0) as i32);
    for (i, &v) in colours.legend_values(&present).iter().enumerate() {
        let top = gap + row * i as i32;
        let square = [(0, top), (swatch, top + swatch)];
        legend.draw(&Rectangle::new(square, colours.colour(v).filled()))?;
        legend.draw(&Rectangle::new(square, BLACK.stroke_width(1)))?;
        legend.draw(&Text::new(
            (map.legend_label)(v),
            (swatch + swatch / 2, top + swatch / 6),
            (FAMILY, px(15.0)).into_font(),
        ))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_are_distinct_and_zero_is_dark() {
        let map = ColourMap { max: 14 };
        let mut seen: Vec<RGBColor> = (0..=14).map(|v| map.colour(v)).collect();
        assert_eq!(seen[0], ZERO);
        seen.sort_by_key(|c| (c.0, c.1, c.2));
        seen.dedup();
        assert_eq!(seen.len(), 15);
        let wide = ColourMap { max: 100 };
        assert_ne!(wide.colour(1), wide.colour(100));
        assert_eq!(
            wide.legend_values(&(0..=100).collect::<Vec<_>>()).last(),
            Some(&100)
        );
    }

    #[test]
    fn the_shipped_font_is_usable() {
        assert!(plotters::style::register_font("check", FontStyle::Normal, FONT).is_ok());
        register_font();
        let (w, h) = (FAMILY, 20).into_font().box_size("G(n)").unwrap();
        assert!(w > 20 && h > 10, "{w} x {h}");
    }

    #[test]
    fn writes_png_and_svg_and_reports_unwritable_paths() {
        let dir = tempfile::tempdir().unwrap();
        let cells: Vec<Vec<u64>> = (0..8u64)
            .map(|y| (0..8u64).map(|x| x ^ y).collect())
            .collect();
        let label = |v: u64| v.to_string();
        let map = Heatmap {
            title: "test",
            x_label: "x",
            y_label: "y",
            cells: &cells,
            legend_title: "value",
            legend_label: &label,
        };
        let png = dir.path().join("t.png");
        save(&map, &png, ImageFormat::Png).unwrap();
        assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
        let svg = dir.path().join("t.svg");
        save(&map, &svg, ImageFormat::Svg).unwrap();
        assert!(std::fs::read_to_string(&svg).unwrap().contains("<svg"));
        let bad = dir.path().join("missing-dir").join("t.png");
        let err = save(&map, &bad, ImageFormat::Png).unwrap_err();
        assert_eq!(err.code, 2);
        assert!(err.message.contains("cannot draw"));
    }
}
