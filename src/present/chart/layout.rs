//! Pixel geometry for a [`ChartPlan`].

use super::text::{fit, width as text_width};
use super::ticks::{format_tick, nice_ticks};
use super::{
    Bar, ChartKind, ChartLayout, ChartPlan, LegendEntry, Line, LinePoint, Point, Rect, XLabel,
    YTick, SWATCH,
};

/// Smaller charts cannot show anything; sizes below these are raised to them.
const MIN_WIDTH: f64 = 160.0;
const MIN_HEIGHT: f64 = 120.0;
const MIN_PLOT_HEIGHT: f64 = 40.0;
/// About one y tick per this many pixels of plot height.
const TICK_SPACING: f64 = 40.0;
/// Room under the plot for the x labels.
const X_LABEL_SPACE: f64 = 24.0;
const RIGHT_MARGIN: f64 = 12.0;
/// Space kept free between two x labels.
const LABEL_GAP: f64 = 8.0;
/// Narrower bar groups than this get thinned labels of [`THIN_LABEL_WIDTH`] instead.
const MIN_LABEL_WIDTH: f64 = 28.0;
const THIN_LABEL_WIDTH: f64 = 80.0;
const LINE_LABEL_WIDTH: f64 = 90.0;
/// Lines start and end a little inside the plot, so end points are not on the axis.
const LINE_INSET: f64 = 6.0;
const LEGEND_ROW: f64 = 18.0;
const LEGEND_NAME_WIDTH: f64 = 140.0;

/// Lays `plan` out in a `width` × `height` SVG. The size is raised to a usable minimum, and
/// the height grows when the legend needs more rows than fit. Never panics, even on a plan
/// built by hand with mismatched lengths or non-finite numbers (those values are skipped).
pub fn layout(plan: &ChartPlan, width: f64, height: f64) -> ChartLayout {
    let width = at_least(width, MIN_WIDTH);
    let (legend, legend_bottom) = legend(plan, width);
    let top = legend_bottom + 12.0;
    let height = at_least(height, MIN_HEIGHT).max(top + MIN_PLOT_HEIGHT + X_LABEL_SPACE);
    let plot_height = height - X_LABEL_SPACE - top;

    let target_ticks = ((plot_height / TICK_SPACING) as usize).clamp(2, 8);
    let (low, high) = value_range(plan);
    let (tick_values, step) = nice_ticks(low, high, target_ticks);
    let labels: Vec<String> = tick_values.iter().map(|v| format_tick(*v, step)).collect();
    let left = labels.iter().map(|l| text_width(l)).fold(0.0, f64::max) + 12.0;
    let plot = Rect {
        x: left,
        y: top,
        width: (width - left - RIGHT_MARGIN).max(1.0),
        height: plot_height,
    };
    let scale = YScale {
        plot,
        low: tick_values[0],
        high: tick_values[tick_values.len() - 1],
    };
    let y_ticks = tick_values
        .iter()
        .zip(labels)
        .map(|(&value, label)| YTick {
            value,
            y: scale.y(value),
            label,
        })
        .collect();

    let (bars, lines, x_labels) = match plan.kind {
        ChartKind::Bar => {
            let (bars, label_width) = bars(plan, &plot, &scale);
            (
                bars,
                Vec::new(),
                x_labels(plan, &plot, label_width, |i| bar_center(plan, &plot, i)),
            )
        }
        ChartKind::Line => {
            let x = LineX::new(plan, &plot);
            let lines = lines(plan, &x, &scale);
            (
                Vec::new(),
                lines,
                x_labels(plan, &plot, LINE_LABEL_WIDTH, |i| x.at(i)),
            )
        }
    };
    ChartLayout {
        width,
        height,
        plot,
        baseline_y: scale.y(0.0f64.clamp(scale.low, scale.high)),
        y_ticks,
        x_labels,
        bars,
        lines,
        legend,
    }
}

/// `value` if it is a number at least `min`; NaN and too-small sizes become `min`.
fn at_least(value: f64, min: f64) -> f64 {
    if value >= min && value.is_finite() {
        value
    } else {
        min
    }
}

/// The series' value at `index`, if there is a drawable one.
fn value_at(plan: &ChartPlan, series: usize, index: usize) -> Option<f64> {
    let value = plan
        .series
        .get(series)?
        .values
        .get(index)
        .copied()
        .flatten()?;
    value.is_finite().then_some(value)
}

/// The values' range; bars always include 0 (a bar's length is its value). A flat range is
/// widened to reach 0, or to 0..1 when everything is 0.
fn value_range(plan: &ChartPlan) -> (f64, f64) {
    let values = (0..plan.series.len())
        .flat_map(|s| (0..plan.labels.len()).filter_map(move |i| value_at(plan, s, i)));
    let (mut low, mut high) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    if low > high {
        return (0.0, 1.0);
    }
    if plan.kind == ChartKind::Bar || low == high {
        low = low.min(0.0);
        high = high.max(0.0);
    }
    if low == high {
        high = low + 1.0;
    }
    (low, high)
}

struct YScale {
    plot: Rect,
    low: f64,
    high: f64,
}

impl YScale {
    fn y(&self, value: f64) -> f64 {
        self.plot.y + self.plot.height * (self.high - value) / (self.high - self.low)
    }
}

fn group_width(plan: &ChartPlan, plot: &Rect) -> f64 {
    plot.width / plan.labels.len().max(1) as f64
}

fn bar_center(plan: &ChartPlan, plot: &Rect, index: usize) -> f64 {
    plot.x + group_width(plan, plot) * (index as f64 + 0.5)
}

/// One group per label, 80% of its slot wide, split between the series. Also returns how
/// wide an x label may be.
fn bars(plan: &ChartPlan, plot: &Rect, scale: &YScale) -> (Vec<Bar>, f64) {
    let group = group_width(plan, plot);
    let bar_width = group * 0.8 / plan.series.len().max(1) as f64;
    let mut bars = Vec::new();
    for (index, label) in plan.labels.iter().enumerate() {
        for (series, named) in plan.series.iter().enumerate() {
            let Some(value) = value_at(plan, series, index) else {
                continue;
            };
            let top = scale.y(value.max(0.0));
            let rect = Rect {
                x: plot.x + group * (index as f64 + 0.1) + bar_width * series as f64,
                y: top,
                width: bar_width,
                height: scale.y(value.min(0.0)) - top,
            };
            let title = format!("{label} · {}: {}", named.name, exact(value));
            bars.push(Bar {
                series,
                index,
                rect,
                title,
            });
        }
    }
    let label_width = if group - 4.0 >= MIN_LABEL_WIDTH {
        group - 4.0
    } else {
        THIN_LABEL_WIDTH
    };
    (bars, label_width)
}

/// Where each label sits horizontally on a line chart: by its time, across the plot.
struct LineX {
    left: f64,
    span: f64,
    first: f64,
    last: f64,
    positions: Vec<f64>,
}

impl LineX {
    fn new(plan: &ChartPlan, plot: &Rect) -> LineX {
        let positions: Vec<f64> = (0..plan.labels.len())
            .map(|i| {
                plan.positions
                    .get(i)
                    .copied()
                    .filter(|p| p.is_finite())
                    .unwrap_or(i as f64)
            })
            .collect();
        let first = positions.iter().copied().fold(f64::INFINITY, f64::min);
        let last = positions.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let inset = LINE_INSET.min(plot.width / 4.0);
        LineX {
            left: plot.x + inset,
            span: plot.width - 2.0 * inset,
            first,
            last,
            positions,
        }
    }

    fn at(&self, index: usize) -> f64 {
        if self.last > self.first {
            self.left + self.span * (self.positions[index] - self.first) / (self.last - self.first)
        } else {
            self.left + self.span / 2.0
        }
    }
}

fn lines(plan: &ChartPlan, x: &LineX, scale: &YScale) -> Vec<Line> {
    let mut lines = Vec::new();
    for (series, named) in plan.series.iter().enumerate() {
        let mut segments = vec![Vec::new()];
        let mut points = Vec::new();
        for (index, label) in plan.labels.iter().enumerate() {
            match value_at(plan, series, index) {
                Some(value) => {
                    let at = Point {
                        x: x.at(index),
                        y: scale.y(value),
                    };
                    segments.last_mut().expect("never empty").push(at);
                    let title = format!("{label} · {}: {}", named.name, exact(value));
                    points.push(LinePoint { index, at, title });
                }
                None => segments.push(Vec::new()),
            }
        }
        segments.retain(|segment| segment.len() >= 2);
        lines.push(Line {
            series,
            segments,
            points,
        });
    }
    lines
}

/// Labels centred at `center(i)`, cut to `max_width`, kept inside the chart, and placed left
/// to right only where they do not overlap the one before.
fn x_labels(
    plan: &ChartPlan,
    plot: &Rect,
    max_width: f64,
    center: impl Fn(usize) -> f64,
) -> Vec<XLabel> {
    let chart_right = plot.right() + RIGHT_MARGIN;
    let mut placed = Vec::new();
    let mut free_from = f64::NEG_INFINITY;
    for (index, full) in plan.labels.iter().enumerate() {
        let text = fit(full, max_width);
        let half = text_width(&text) / 2.0;
        if text.is_empty() {
            continue;
        }
        let x = center(index).min(chart_right - half).max(half);
        if x - half < free_from {
            continue;
        }
        free_from = x + half + LABEL_GAP;
        placed.push(XLabel {
            x,
            y: plot.bottom() + 16.0,
            text,
            full: full.clone(),
        });
    }
    placed
}

/// Entries left to right from the top-left corner, wrapping to a new row when full. Returns
/// them and the bottom of the last row.
fn legend(plan: &ChartPlan, width: f64) -> (Vec<LegendEntry>, f64) {
    let (start_x, start_y) = (8.0, 6.0);
    let (mut x, mut y) = (start_x, start_y);
    let mut entries = Vec::new();
    for (series, named) in plan.series.iter().enumerate() {
        let text = fit(&named.name, LEGEND_NAME_WIDTH);
        let entry_width = SWATCH + 4.0 + text_width(&text);
        if x > start_x && x + entry_width > width - 8.0 {
            x = start_x;
            y += LEGEND_ROW;
        }
        entries.push(LegendEntry {
            series,
            x,
            y,
            text_x: x + SWATCH + 4.0,
            text,
        });
        x += entry_width + 16.0;
    }
    let bottom = if entries.is_empty() { 0.0 } else { y + SWATCH };
    (entries, bottom)
}

/// A value as it was, for tooltips: whole numbers without a decimal point.
fn exact(value: f64) -> String {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        format!("{}", value as i64)
    } else {
        format!("{value}")
    }
}
