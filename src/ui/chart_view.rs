//! A result as a chart: the geometry of [`crate::present::chart`] mapped to SVG, and the
//! table/chart switch for results that [`crate::present::chart::plan`] finds drawable.
//!
//! Labels and series names come from the database: they are SVG text nodes and `<title>`
//! tooltips, never markup.

use crate::engine::QueryResult;
use crate::present::chart::{layout, plan, svg_points, ChartKind, ChartLayout, ChartPlan, SWATCH};
use crate::tr;
use crate::ui::language::tr_live;
use leptos::ev;
use leptos::prelude::*;
use std::sync::Arc;

/// Used until the chart's box can be measured (and when it cannot).
const FALLBACK_WIDTH: f64 = 640.0;
const HEIGHT: f64 = 300.0;
/// Narrow screens get a lower chart, so that it keeps its proportions.
const NARROW_HEIGHT: f64 = 240.0;
const NARROW_WIDTH: f64 = 480.0;

/// A result's table (the children), with a switch to a chart when the result has the shape of
/// one. Shows the table first; the table stays in the page while the chart is shown.
#[component]
pub fn TableOrChart(result: Arc<QueryResult>, children: Children) -> impl IntoView {
    let Some(chart) = plan(&result.columns, &result.rows) else {
        return children().into_any();
    };
    let chart = StoredValue::new(chart);
    let showing_chart = RwSignal::new(false);
    let switch_button = move |to_chart: bool, label: fn() -> String, testid: &'static str| {
        view! {
            <button
                class="button small"
                data-testid=testid
                aria-pressed=move || (showing_chart.get() == to_chart).to_string()
                on:click=move |_| showing_chart.set(to_chart)
            >
                {label}
            </button>
        }
    };
    view! {
        <div class="view-switch" role="group" aria-label=tr_live("chart-show-as")>
            {switch_button(false, || tr!("chart-table"), "show-table")}
            {switch_button(true, || tr!("chart-chart"), "show-chart")}
        </div>
        <div hidden=move || showing_chart.get()>{children()}</div>
        {move || {
            showing_chart.get().then(|| view! { <ChartView plan=chart.get_value()/> })
        }}
    }
    .into_any()
}

/// A chart that fills the width of its box, drawn again when the window is resized.
#[component]
pub fn ChartView(plan: ChartPlan) -> impl IntoView {
    let container = NodeRef::<leptos::html::Figure>::new();
    let width = RwSignal::new(FALLBACK_WIDTH);
    let measure = move || {
        if let Some(figure) = container.get_untracked() {
            let measured = f64::from(figure.client_width());
            if measured > 0.0 {
                width.set(measured);
            }
        }
    };
    // Measured once the figure is in the page, and again whenever the window changes size.
    Effect::new(move |_| {
        if container.get().is_some() {
            measure();
        }
    });
    let resize = window_event_listener(ev::resize, move |_| measure());
    on_cleanup(move || resize.remove());

    let plan = StoredValue::new(plan);
    view! {
        <figure class="chart" data-testid="chart" node_ref=container>
            {move || {
                let width = width.get();
                let height = if width < NARROW_WIDTH { NARROW_HEIGHT } else { HEIGHT };
                // Described here, so that a change of language describes it again.
                plan.with_value(|plan| svg(plan, &layout(plan, width, height), &describe(plan)))
            }}
        </figure>
    }
}

/// "Bar chart of total by category", for people who do not see it.
fn describe(plan: &ChartPlan) -> String {
    let kind = match plan.kind {
        ChartKind::Bar => "bar",
        ChartKind::Line => "line",
    };
    let series: Vec<&str> = plan.series.iter().map(|s| s.name.as_str()).collect();
    tr!(
        "chart-description",
        kind = kind,
        series = series.join(", "),
        column = &plan.label_column
    )
}

/// The chart as SVG: grid, axes, bars or lines, labels under the x axis, and the legend.
fn svg(plan: &ChartPlan, chart: &ChartLayout, description: &str) -> impl IntoView {
    let plot = chart.plot;
    let legend = (plan.series.len() > 1).then(|| legend(chart));
    view! {
        <svg
            xmlns="http://www.w3.org/2000/svg"
            width=chart.width
            height=chart.height
            viewBox=format!("0 0 {} {}", chart.width, chart.height)
            role="img"
            aria-label=description.to_string()
            // Its labels, values and names are data.
            translate="no"
        >
            {grid(chart)}
            <line class="axis" x1=plot.x y1=chart.baseline_y x2=plot.right() y2=chart.baseline_y></line>
            <line class="axis" x1=plot.x y1=plot.y x2=plot.x y2=plot.bottom()></line>
            {bars(chart)}
            {lines(chart)}
            {x_labels(chart)}
            {legend}
        </svg>
    }
}

/// A horizontal grid line at each y tick, with the tick's label left of the plot.
fn grid(chart: &ChartLayout) -> impl IntoView {
    let plot = chart.plot;
    chart
        .y_ticks
        .iter()
        .map(|tick| {
            view! {
                <line class="grid" x1=plot.x y1=tick.y x2=plot.right() y2=tick.y></line>
                <text class="tick" x=plot.x - 6.0 y=tick.y + 4.0 text-anchor="end">
                    {tick.label.clone()}
                </text>
            }
        })
        .collect_view()
}

/// The labels under the x axis, each with its full text as a tooltip.
fn x_labels(chart: &ChartLayout) -> impl IntoView {
    chart
        .x_labels
        .iter()
        .map(|label| {
            view! {
                <text class="tick" x=label.x y=label.y text-anchor="middle">
                    <title>{label.full.clone()}</title>
                    {label.text.clone()}
                </text>
            }
        })
        .collect_view()
}

/// A bar chart's bars, each with its value as a tooltip.
fn bars(chart: &ChartLayout) -> impl IntoView {
    chart
        .bars
        .iter()
        .map(|bar| {
            view! {
                <rect
                    class=series_class(bar.series)
                    x=bar.rect.x
                    y=bar.rect.y
                    width=bar.rect.width
                    height=bar.rect.height
                >
                    <title>{bar.title.clone()}</title>
                </rect>
            }
        })
        .collect_view()
}

/// A line chart's series: its segments (broken where a value is missing) and a marker with a
/// tooltip at each point.
fn lines(chart: &ChartLayout) -> impl IntoView {
    chart
        .lines
        .iter()
        .map(|line| {
            let class = series_class(line.series);
            let segments = line
                .segments
                .iter()
                .map(|segment| {
                    view! { <polyline class=format!("{class} line") points=svg_points(segment)></polyline> }
                })
                .collect_view();
            let markers = line
                .points
                .iter()
                .map(|point| {
                    view! {
                        <circle class=class.clone() cx=point.at.x cy=point.at.y r="3">
                            <title>{point.title.clone()}</title>
                        </circle>
                    }
                })
                .collect_view();
            view! { <g>{segments}{markers}</g> }
        })
        .collect_view()
}

/// A swatch and a name for each series (drawn only when there are several).
fn legend(chart: &ChartLayout) -> impl IntoView {
    chart
        .legend
        .iter()
        .map(|entry| {
            view! {
                <rect
                    class=series_class(entry.series)
                    x=entry.x
                    y=entry.y
                    width=SWATCH
                    height=SWATCH
                ></rect>
                <text class="legend" x=entry.text_x y=entry.y + SWATCH>
                    {entry.text.clone()}
                </text>
            }
        })
        .collect_view()
}

/// Series colours come from the style sheet, so they follow light and dark mode.
fn series_class(series: usize) -> String {
    format!(
        "series series-{}",
        series % crate::present::chart::MAX_SERIES
    )
}
