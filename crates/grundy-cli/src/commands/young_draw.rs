//! Pictures for `grundy young --svg/--png`: the Young diagram with each box's hook length.

use crate::common::{CliError, CliResult};
use grundy::young::Partition;
use plotters::coord::Shift;
use plotters::drawing::DrawingAreaErrorKind as DrawingAreaError;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::path::Path;

/// Largest diagram we draw (rows and columns).
pub const MAX_SIDE: u64 = 150;

const CELL: u32 = 36;
const MARGIN: u32 = 12;
const TITLE: u32 = 30;

/// Output format of a picture.
#[derive(Debug, Clone, Copy)]
pub enum Format {
    Svg,
    Png,
}

/// Draw `p` (English notation: first row on top) with `hooks[i][j]` written in box (i, j).
pub fn draw(
    p: &Partition,
    hooks: &[Vec<u64>],
    title: &str,
    path: &Path,
    format: Format,
) -> CliResult {
    let rows = p.len() as u64;
    let cols = p.parts().first().copied().unwrap_or(0);
    if rows > MAX_SIDE || cols > MAX_SIDE {
        return Err(CliError::input(format!(
            "the diagram is {rows} x {cols}; pictures are drawn up to {MAX_SIDE} x {MAX_SIDE} boxes"
        )));
    }
    // Room for the title too (about 8 pixels a character at 16 px).
    let title_width = 2 * MARGIN + 8 * title.chars().count() as u32;
    let width = (2 * MARGIN + cols as u32 * CELL).max(title_width);
    let height = 2 * MARGIN + TITLE + rows.max(1) as u32 * CELL;
    crate::plot::register_font();
    let fail = |e: String| CliError::input(format!("cannot draw '{}': {e}", path.display()));
    match format {
        Format::Svg => {
            let area = SVGBackend::new(path, (width, height)).into_drawing_area();
            render(&area, p, hooks, title).map_err(|e| fail(e.to_string()))?;
            area.present().map_err(|e| fail(e.to_string()))
        }
        Format::Png => {
            let area = BitMapBackend::new(path, (width, height)).into_drawing_area();
            render(&area, p, hooks, title).map_err(|e| fail(e.to_string()))?;
            area.present().map_err(|e| fail(e.to_string()))
        }
    }
}

fn render<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    p: &Partition,
    hooks: &[Vec<u64>],
    title: &str,
) -> Result<(), DrawingAreaError<DB::ErrorType>> {
    area.fill(&WHITE)?;
    let title_style = TextStyle::from((crate::plot::FAMILY, 16).into_font())
        .color(&BLACK)
        .pos(Pos::new(HPos::Left, VPos::Center));
    area.draw(&Text::new(
        title.to_owned(),
        (MARGIN as i32, (MARGIN + TITLE / 2) as i32 - 4),
        title_style,
    ))?;
    let widest = hooks
        .iter()
        .flatten()
        .max()
        .map_or(1, |h| h.to_string().len());
    let font_size = match widest {
        0..=2 => 16,
        3 => 13,
        4 => 10,
        _ => 8,
    };
    let number_style = TextStyle::from((crate::plot::FAMILY, font_size).into_font())
        .color(&BLACK)
        .pos(Pos::new(HPos::Center, VPos::Center));
    let top = (MARGIN + TITLE) as i32;
    let cell = CELL as i32;
    for (i, &part) in p.parts().iter().enumerate() {
        for j in 0..part as i32 {
            let x0 = MARGIN as i32 + j * cell;
            let y0 = top + i as i32 * cell;
            let h = hooks[i][j as usize];
            // Shade boxes with even hooks: those are the moves of the even-hook game (Thm 4).
            let fill = if h % 2 == 0 {
                RGBColor(222, 235, 247)
            } else {
                WHITE
            };
            area.draw(&Rectangle::new(
                [(x0, y0), (x0 + cell, y0 + cell)],
                fill.filled(),
            ))?;
            area.draw(&Rectangle::new(
                [(x0, y0), (x0 + cell, y0 + cell)],
                BLACK.stroke_width(1),
            ))?;
            area.draw(&Text::new(
                h.to_string(),
                (x0 + cell / 2, y0 + cell / 2),
                number_style.clone(),
            ))?;
        }
    }
    Ok(())
}
