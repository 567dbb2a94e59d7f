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
    let y_max = c.max_value as f64 + 1.0;
    let mut chart = ChartBuilder::on(root)
        .margin(20)
        .caption(title, (crate::plot::FAMILY, 24))
        .x_label_area_size(45)
        .y_label_area_size(55)
        .build_cartesian_2d(-0.5..x_max, -0.5..y_max)
        .map_err(err)?;
    let integer = |v: &f64| format!("{:.0}", v);
    let mut mesh = chart.configure_mesh();
    mesh.disable_x_mesh()
        .light_line_style(WHITE)
        .x_label_formatter(&integer)
        .y_label_formatter(&integer)
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
        .draw_series(c.iter().enumerate().map(|(i, v)| {
            Circle::new((i as f64, v as f64), radius, RGBColor(30, 60, 160).filled())
        }))
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
