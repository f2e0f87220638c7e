//! Whether a query result can be drawn as a chart, and where everything goes.
//!
//! [`plan`] looks at the result and offers a chart only when its shape says what to draw: one
//! label column (names, or dates) and one or more number columns. [`layout`] turns a plan into
//! SVG-ready geometry, so the page only maps numbers to `<rect>`, `<polyline>` and `<text>`,
//! and everything that can be wrong (scales, ticks, overlapping labels) is tested natively.

mod dates;
mod layout;
mod plan;
#[cfg(test)]
mod tests;
mod text;
mod ticks;

pub use layout::layout;
pub use plan::{plan, MAX_BAR_ROWS, MAX_SERIES};

/// What a plan draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChartKind {
    /// One group of bars per row, in the result's own order (its `ORDER BY` is kept).
    Bar,
    /// One line per series over dates, sorted by date and spaced by time, so gaps show.
    Line,
}

/// One number column of the result.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// The column name.
    pub name: String,
    /// One value per label; `None` where the result had NULL (no bar, a gap in the line).
    pub values: Vec<Option<f64>>,
}

/// A chart the result supports: labels along the x axis, one or more series of values.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartPlan {
    pub kind: ChartKind,
    pub label_column: String,
    /// In drawing order; a NULL label reads `NULL`.
    pub labels: Vec<String>,
    /// For each label, which row of the result it came from (lines are re-sorted by date).
    pub rows: Vec<usize>,
    /// Where each label sits along the x axis: its index for bars; for lines its time, in
    /// years, months, days or seconds depending on how precise the labels are.
    pub positions: Vec<f64>,
    pub series: Vec<Series>,
}

/// An SVG chart, in pixels, for a plan at one size.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartLayout {
    pub width: f64,
    pub height: f64,
    /// Where bars and lines are drawn; the axes run along its left edge and at `baseline_y`.
    pub plot: Rect,
    /// The x axis: where the value 0 lies, or the plot's bottom edge when 0 is out of range.
    pub baseline_y: f64,
    /// Grid lines across the plot; each label ends (`text-anchor="end"`) at `plot.x - 6`.
    pub y_ticks: Vec<YTick>,
    /// Labels under the plot (`text-anchor="middle"`), thinned so that none overlap.
    pub x_labels: Vec<XLabel>,
    /// Empty for line charts.
    pub bars: Vec<Bar>,
    /// Empty for bar charts.
    pub lines: Vec<Line>,
    /// One entry per series, above the plot.
    pub legend: Vec<LegendEntry>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

impl Rect {
    pub fn right(&self) -> f64 {
        self.x + self.width
    }

    pub fn bottom(&self) -> f64 {
        self.y + self.height
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct YTick {
    pub value: f64,
    pub y: f64,
    /// Compact: `0`, `250`, `1.5k`, `3.4M`, `-20k`.
    pub label: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct XLabel {
    /// Centre of the text.
    pub x: f64,
    /// Baseline of the text.
    pub y: f64,
    /// Shortened with `…` to fit.
    pub text: String,
    /// The whole label, for a tooltip.
    pub full: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    /// Index into `ChartPlan::series` (and the colour to use).
    pub series: usize,
    /// Index into `ChartPlan::labels`.
    pub index: usize,
    pub rect: Rect,
    /// "electronics · total: 252000", for a tooltip.
    pub title: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub series: usize,
    /// Runs of points without NULLs between them; each is one `<polyline>` (see
    /// [`svg_points`]). A run of one point has nothing to join: its marker in `points` shows it.
    pub segments: Vec<Vec<Point>>,
    /// Every non-NULL value, for markers and tooltips.
    pub points: Vec<LinePoint>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LinePoint {
    pub index: usize,
    pub at: Point,
    pub title: String,
}

/// A colour swatch ([`SWATCH`] pixels square, top-left at `x`, `y`) and the series name after it.
#[derive(Clone, Debug, PartialEq)]
pub struct LegendEntry {
    pub series: usize,
    pub x: f64,
    pub y: f64,
    /// Where the name's text starts (baseline at `y + SWATCH`).
    pub text_x: f64,
    pub text: String,
}

/// The legend's swatch size in pixels.
pub const SWATCH: f64 = 10.0;

/// A `points` attribute for `<polyline>`: `"x1,y1 x2,y2 …"`.
pub fn svg_points(points: &[Point]) -> String {
    points
        .iter()
        .map(|p| format!("{:.1},{:.1}", p.x, p.y))
        .collect::<Vec<_>>()
        .join(" ")
}
