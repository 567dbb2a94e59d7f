//! The picture researchers draw of an octal game: G(n) against n as a scatter plot, with the
//! periodic part marked (a line where it starts, one full period shaded, a line where the
//! certificate completed).
//!
//! Text is drawn with the font compiled into the program ([`crate::plot::register_font`]).

use crate::common::{CliError, CliResult};
use grundy::takebreak::Computation;
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;

/// Picture formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Png,
    Svg,
}

const SIZE: (u32, u32) = (1200, 600);

/// Above this many values the scatter plot is thinned to [`COLUMNS`] columns.
const MAX_POINTS: usize = 4000;
/// Columns of a thinned plot: about one per pixel of the plot area.
const COLUMNS: usize = 1200;

/// The points to draw for `values`: every (n, G(n)) when there are at most [`MAX_POINTS`];
/// otherwise the values are cut into [`COLUMNS`] runs of consecutive n, and each run gives one
/// point per distinct value in it, at the run's middle. A column of pixels shows which values
/// occur there, which is exactly what the full plot shows at this size, while the file stays
/// small (a 10^6-value sequence drew a 92 MB SVG in 52 s).
#[cfg(test)]
pub fn points(values: &[u16]) -> Vec<(f64, u16)> {
    points_of(values.len(), |i| values[i])
}

/// [`points`] of the `n` values `value(0)`, ..., `value(n - 1)` (an extended sequence is read
/// through its period, never materialised).
pub fn points_of(n: usize, value: impl Fn(usize) -> u16) -> Vec<(f64, u16)> {
    if n <= MAX_POINTS {
        return (0..n).map(|i| (i as f64, value(i))).collect();
    }
    let max = (0..n).map(&value).max().unwrap_or(0) as usize;
    // seen[v] == column + 1 when v already occurred in this column.
    let mut seen = vec![0usize; max + 1];
    let mut out = Vec::new();
    for column in 0..COLUMNS {
        let (lo, hi) = (column * n / COLUMNS, (column + 1) * n / COLUMNS);
        let middle = (lo + hi.max(lo + 1) - 1) as f64 / 2.0;
        let mut here: Vec<u16> = Vec::new();
        for v in (lo..hi).map(&value) {
            if seen[v as usize] != column + 1 {
                seen[v as usize] = column + 1;
                here.push(v);
            }
        }
        here.sort_unstable();
        out.extend(here.into_iter().map(|v| (middle, v)));
    }
    out
}

/// Height of the legend (three lines, frame and margin), in pixels.
const LEGEND_PIXELS: f64 = 95.0;
/// Height of the plotting area, in pixels (the picture less caption and axis labels).
const PLOT_PIXELS: f64 = SIZE.1 as f64 - 130.0;

/// Draw the scatter plot of `c` into `path`.
pub fn draw(path: &Path, format: Format, title: &str, c: &Computation) -> CliResult {
    crate::plot::register_font();
    let fail = |e: String| CliError::input(format!("cannot draw '{}': {e}", path.display()));
    match format {
        Format::Png => {
            let root = BitMapBackend::new(path, SIZE).into_drawing_area();
            render(&root, title, c).map_err(fail)?;
            root.present().map_err(|e| fail(e.to_string()))
        }
        Format::Svg => {
            let root = SVGBackend::new(path, SIZE).into_drawing_area();
            render(&root, title, c).map_err(fail)?;
            root.present().map_err(|e| fail(e.to_string()))
        }
    }
}

fn render<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    title: &str,
    c: &Computation,
) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(err)?;
    let n = c.n() + 1;
    let x_max = n.max(2) as f64;
    // With a period there is a legend of up to three lines in the upper left: the y axis gets
    // headroom above the largest value so that the legend covers no point.
    let headroom = if c.period.is_some() {
        LEGEND_PIXELS / PLOT_PIXELS
    } else {
        0.0
    };
    let y_data = c.max_value as f64 + 1.0;
    let y_max = (y_data + 0.5) / (1.0 - headroom) - 0.5;
    let mut chart = ChartBuilder::on(root)
        .margin(20)
        .caption(title, (crate::plot::FAMILY, 24))
        .x_label_area_size(45)
        .y_label_area_size(55)
        .build_cartesian_2d(-0.5..x_max, -0.5..y_max)
        .map_err(err)?;
    let integer = |v: &f64| format!("{:.0}", v);
    let value = |v: &f64| {
        if *v > y_data - 0.5 {
            String::new() // no labels in the legend's room
        } else {
            format!("{:.0}", v)
        }
    };
    let mut mesh = chart.configure_mesh();
    mesh.disable_x_mesh()
        .light_line_style(WHITE)
        .x_label_formatter(&integer)
        .y_label_formatter(&value)
        .x_desc("n")
        .y_desc("G(n)");
    mesh.draw().map_err(err)?;

    if let Some(p) = c.period {
        let start = p.preperiod as f64 - 0.5;
        let band = chart
            .draw_series(std::iter::once(Rectangle::new(
                [(start, -0.5), (start + p.period as f64, y_max)],
                RGBColor(255, 228, 170).filled(),
            )))
            .map_err(err)?;
        let what = if p.certified { "certified" } else { "observed" };
        band.label(format!(
            "one period ({}) from the preperiod {} — {what}",
            p.period, p.preperiod
        ))
        .legend(|(x, y)| {
            Rectangle::new(
                [(x, y - 5), (x + 15, y + 5)],
                RGBColor(255, 228, 170).filled(),
            )
        });
        let start_line = chart
            .draw_series(LineSeries::new(
                [(start, -0.5), (start, y_max)],
                RED.stroke_width(2),
            ))
            .map_err(err)?;
        start_line
            .label(format!("periodic from n = {}", p.preperiod))
            .legend(|(x, y)| PathElement::new([(x, y), (x + 15, y)], RED.stroke_width(2)));
        if let Some(at) = p.certified_at {
            let at = at as f64;
            let cert = chart
                .draw_series(DashedLineSeries::new(
                    [(at, -0.5), (at, y_max)],
                    6,
                    4,
                    RGBColor(0, 130, 0).stroke_width(2),
                ))
                .map_err(err)?;
            cert.label(format!("certificate complete at n = {}", at))
                .legend(|(x, y)| {
                    PathElement::new([(x, y), (x + 15, y)], RGBColor(0, 130, 0).stroke_width(2))
                });
        }
    }
    let radius = if n <= 2000 {
        3
    } else if n <= 20_000 {
        2
    } else {
        1
    };
    chart
        .draw_series(
            points_of(n, |i| c.value(i))
                .into_iter()
                .map(|(x, v)| Circle::new((x, v as f64), radius, RGBColor(30, 60, 160).filled())),
        )
        .map_err(err)?;
    if c.period.is_some() {
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(err)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_sequences_are_drawn_whole() {
        let values: Vec<u16> = (0..MAX_POINTS as u16).map(|i| i % 7).collect();
        let p = points(&values);
        assert_eq!(p.len(), values.len());
        assert!(p
            .iter()
            .enumerate()
            .all(|(i, &(x, v))| x == i as f64 && v == values[i]));
    }

    #[test]
    fn long_sequences_keep_every_value_of_every_column() {
        // A pseudo-random sequence of a million values below 30.
        let mut x: u32 = 12345;
        let values: Vec<u16> = (0..1_000_000)
            .map(|_| {
                x = x.wrapping_mul(1_103_515_245).wrapping_add(12345);
                ((x >> 16) % 30) as u16
            })
            .collect();
        let p = points(&values);
        assert!(p.len() <= COLUMNS * 30, "{} points", p.len());
        // Each column's points are exactly the distinct values of its run of n.
        let n = values.len();
        for column in [0, 1, 599, COLUMNS - 1] {
            let (lo, hi) = (column * n / COLUMNS, (column + 1) * n / COLUMNS);
            let mut want: Vec<u16> = values[lo..hi].to_vec();
            want.sort_unstable();
            want.dedup();
            let middle = (lo + hi - 1) as f64 / 2.0;
            let got: Vec<u16> = p
                .iter()
                .filter(|&&(x, _)| x == middle)
                .map(|&(_, v)| v)
                .collect();
            assert_eq!(got, want, "column {column}");
        }
        // Every value of the sequence appears somewhere.
        let mut all: Vec<u16> = p.iter().map(|&(_, v)| v).collect();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all, (0..30).collect::<Vec<u16>>());
    }
}
