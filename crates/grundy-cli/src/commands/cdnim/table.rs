//! `grundy cdnim --table N`: the values of the 2-heap positions as text, JSON, or a heatmap.

use super::CdnimArgs;
use crate::common::{emit, CliError, CliResult};
use crate::plot::{self, Heatmap, ImageFormat};
use grundy::games::cdnim;
use grundy::Nimber;
use serde::Serialize;

/// Largest `--table N`.
const TABLE_LIMIT: u64 = 4096;
/// Largest `--table N` drawn as a PNG (one cell is then under a pixel) or as an SVG (one
/// element per cell).
const PNG_LIMIT: u64 = 1024;
const SVG_LIMIT: u64 = 512;

pub fn parse_table_size(word: &str) -> CliResult<u64> {
    let n = crate::common::parse_u64("table size", word)?;
    if n == 0 || n > TABLE_LIMIT {
        return Err(CliError::input(format!(
            "--table N needs 1 <= N <= {TABLE_LIMIT}, got {word}"
        )));
    }
    Ok(n)
}

#[derive(Serialize)]
struct TableReport {
    size: u64,
    /// `values[a][b]` = value of the position (a, b)
    values: Vec<Vec<Nimber>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    png: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    svg: Option<String>,
}

pub fn table(n: u64, args: &CdnimArgs, json: bool) -> CliResult {
    if args.png.is_some() && n > PNG_LIMIT {
        return Err(CliError::input(format!(
            "--png draws tables up to N = {PNG_LIMIT} (got {n}); use a smaller --table"
        )));
    }
    if args.svg.is_some() && n > SVG_LIMIT {
        return Err(CliError::input(format!(
            "--svg draws tables up to N = {SVG_LIMIT} (got {n}); use a smaller --table or --png"
        )));
    }
    let values: Vec<Vec<Nimber>> = (0..n)
        .map(|a| (0..n).map(|b| cdnim::grundy_value_u64(&[a, b])).collect())
        .collect();
    let title = format!("Common-divisor Nim: sg(a, b), 0 <= a, b < {n}");
    let label = |v: u64| match v {
        0 => "0 (P-position)".to_owned(),
        v => format!("{v} (lambda = {})", v - 1),
    };
    // row index b (vertical), column index a (horizontal): cells[b][a] = values[a][b] = values[b][a]
    let map = Heatmap {
        title: &title,
        x_label: "first heap a",
        y_label: "second heap b",
        cells: &values,
        legend_title: "Grundy value",
        legend_label: &label,
    };
    if let Some(path) = &args.png {
        plot::save(&map, path, ImageFormat::Png)?;
    }
    if let Some(path) = &args.svg {
        plot::save(&map, path, ImageFormat::Svg)?;
    }
    let report = TableReport {
        size: n,
        values,
        png: args.png.as_ref().map(|p| p.display().to_string()),
        svg: args.svg.as_ref().map(|p| p.display().to_string()),
    };
    emit(json, &report, || {
        let mut s = String::new();
        if report.png.is_none() && report.svg.is_none() {
            let width = report
                .values
                .iter()
                .flatten()
                .chain(std::iter::once(&(n - 1)))
                .map(|v| v.to_string().len())
                .max()
                .unwrap_or(1);
            s.push_str(&format!(
                "sg(a, b) for 0 <= a, b < {n} (rows a, columns b):\n"
            ));
            s.push_str(&format!("{:>w$} |", "a\\b", w = width.max(3)));
            for b in 0..n {
                s.push_str(&format!(" {b:>width$}"));
            }
            s.push('\n');
            s.push_str(&format!(
                "{}-+{}\n",
                "-".repeat(width.max(3)),
                "-".repeat((width + 1) * n as usize)
            ));
            for (a, row) in report.values.iter().enumerate() {
                s.push_str(&format!("{a:>w$} |", w = width.max(3)));
                for v in row {
                    s.push_str(&format!(" {v:>width$}"));
                }
                s.push('\n');
            }
        }
        for (kind, path) in [("PNG", &report.png), ("SVG", &report.svg)] {
            if let Some(p) = path {
                s.push_str(&format!(
                    "wrote the {n} x {n} value table as a {kind} heatmap to {p}\n"
                ));
            }
        }
        s
    })
}
