//! Pictures for `grundy young --svg/--png`: the Young diagram with each box's hook length,
//! even hooks shaded. What the picture shows (and its size limit) is the library's
//! [`grundy::young::picture`], shared with the Python package; this module draws it.

use crate::common::{CliError, CliResult};
use grundy::young::{picture_boxes, Partition, PictureBox};
use plotters::coord::Shift;
use plotters::drawing::DrawingAreaErrorKind as DrawingAreaError;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::path::Path;

const CELL: u32 = 36;
const MARGIN: u32 = 12;
const TITLE: u32 = 30;

/// Output format of a picture.
#[derive(Debug, Clone, Copy)]
pub enum Format {
    Svg,
    Png,
}

/// Draw `p` (English notation: first row on top) with each box's hook length written in it
/// (the library's [`picture_boxes`] says what each box shows).
pub fn draw(p: &Partition, title: &str, path: &Path, format: Format) -> CliResult {
    let boxes = picture_boxes(p).map_err(|e| CliError::input(e.to_string()))?;
    let rows = p.len() as u64;
    let cols = p.parts().first().copied().unwrap_or(0);
    // Room for the title too (about 8 pixels a character at 16 px).
    let title_width = 2 * MARGIN + 8 * title.chars().count() as u32;
    let width = (2 * MARGIN + cols as u32 * CELL).max(title_width);
    let height = 2 * MARGIN + TITLE + rows.max(1) as u32 * CELL;
    crate::plot::register_font();
    let fail = |e: String| CliError::input(format!("cannot draw '{}': {e}", path.display()));
    match format {
        Format::Svg => {
            let area = SVGBackend::new(path, (width, height)).into_drawing_area();
            render(&area, &boxes, title).map_err(|e| fail(e.to_string()))?;
            area.present().map_err(|e| fail(e.to_string()))
        }
        Format::Png => {
            let area = BitMapBackend::new(path, (width, height)).into_drawing_area();
            render(&area, &boxes, title).map_err(|e| fail(e.to_string()))?;
            area.present().map_err(|e| fail(e.to_string()))
        }
    }
}

fn render<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    boxes: &[PictureBox],
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
    let widest = boxes
        .iter()
        .map(|b| b.hook_length)
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
    for b in boxes {
        let x0 = MARGIN as i32 + b.column as i32 * cell;
        let y0 = top + b.row as i32 * cell;
        let h = b.hook_length;
        // Shade boxes with even hooks: those are the moves of the even-hook game (Thm 4).
        let fill = if b.even_hook {
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
    Ok(())
}
