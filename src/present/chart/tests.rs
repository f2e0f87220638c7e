//! Charts from query results shaped like the ones the agent produces.

use super::plan::MAX_LINE_ROWS;
use super::{layout, plan, svg_points, ChartKind, ChartLayout, ChartPlan, MAX_BAR_ROWS};
use crate::engine::Value;

fn columns(names: &[&str]) -> Vec<String> {
    names.iter().map(|n| n.to_string()).collect()
}

fn text(s: &str) -> Value {
    Value::Text(s.to_string())
}

fn int(i: i64) -> Value {
    Value::Integer(i)
}

fn sales_per_category() -> (Vec<String>, Vec<Vec<Value>>) {
    (
        columns(&["category", "total"]),
        vec![
            vec![text("electronics"), int(252_000)],
            vec![text("furniture"), int(140_000)],
            vec![text("lifestyle"), int(14_000)],
        ],
    )
}

/// Every bar, line point, tick and label lies inside the chart.
fn assert_inside(chart: &ChartLayout) {
    let inside = |x: f64, y: f64| x >= 0.0 && x <= chart.width && y >= 0.0 && y <= chart.height;
    for bar in &chart.bars {
        let r = bar.rect;
        assert!(r.width > 0.0 && r.height >= 0.0, "{bar:?}");
        assert!(inside(r.x, r.y) && inside(r.right(), r.bottom()), "{bar:?}");
    }
    for point in chart.lines.iter().flat_map(|l| &l.points) {
        assert!(inside(point.at.x, point.at.y), "{point:?}");
    }
    for tick in &chart.y_ticks {
        assert!(tick.y >= chart.plot.y - 0.001 && tick.y <= chart.plot.bottom() + 0.001);
    }
    for label in &chart.x_labels {
        assert!(inside(label.x, label.y), "{label:?}");
    }
}

/// No two x labels overlap, by the same width estimate the layout uses.
fn assert_labels_apart(chart: &ChartLayout) {
    for pair in chart.x_labels.windows(2) {
        let right_of_first = pair[0].x + super::text::width(&pair[0].text) / 2.0;
        let left_of_second = pair[1].x - super::text::width(&pair[1].text) / 2.0;
        assert!(right_of_first < left_of_second, "{pair:?}");
    }
}

#[test]
fn sales_per_category_is_a_bar_chart_with_proportional_bars() {
    let (columns, rows) = sales_per_category();
    let plan = plan(&columns, &rows).expect("a chart");
    assert_eq!(plan.kind, ChartKind::Bar);
    assert_eq!(plan.label_column, "category");
    assert_eq!(plan.labels, ["electronics", "furniture", "lifestyle"]);
    assert_eq!(plan.series.len(), 1);
    assert_eq!(plan.series[0].name, "total");

    let chart = layout(&plan, 600.0, 300.0);
    assert_eq!(chart.bars.len(), 3);
    assert!(chart.lines.is_empty());
    let heights: Vec<f64> = chart.bars.iter().map(|b| b.rect.height).collect();
    assert!(
        (heights[1] / heights[0] - 140.0 / 252.0).abs() < 1e-9,
        "{heights:?}"
    );
    assert!(
        (heights[2] / heights[0] - 14.0 / 252.0).abs() < 1e-9,
        "{heights:?}"
    );
    for bar in &chart.bars {
        assert!(
            (bar.rect.bottom() - chart.baseline_y).abs() < 1e-9,
            "bars stand on zero"
        );
    }
    assert!(
        chart
            .bars
            .windows(2)
            .all(|b| b[0].rect.right() < b[1].rect.x),
        "left to right"
    );
    assert_eq!(chart.bars[0].title, "electronics · total: 252000");
    assert_eq!(chart.x_labels.len(), 3);
    assert_eq!(chart.legend.len(), 1);
    assert_eq!(chart.legend[0].text, "total");
    assert_inside(&chart);
}

#[test]
fn ticks_are_round_and_span_the_bars() {
    let (columns, rows) = sales_per_category();
    let chart = layout(&plan(&columns, &rows).unwrap(), 600.0, 300.0);
    let labels: Vec<&str> = chart.y_ticks.iter().map(|t| t.label.as_str()).collect();
    assert_eq!(labels.first(), Some(&"0"));
    assert!(
        labels.iter().all(|l| l.ends_with('k')) || labels[0] == "0",
        "{labels:?}"
    );
    let top = chart.y_ticks.last().unwrap();
    assert!(top.value >= 252_000.0);
    assert!(
        (top.y - chart.plot.y).abs() < 1e-9,
        "the highest tick is the plot's top"
    );
    assert!(
        chart.y_ticks.windows(2).all(|t| t[0].y > t[1].y),
        "ticks go up the page"
    );
}

#[test]
fn orders_per_month_is_a_line_sorted_by_month() {
    let columns = columns(&["month", "orders"]);
    let rows = vec![
        vec![text("2024-03"), int(30)],
        vec![text("2024-01"), int(10)],
        vec![text("2024-02"), int(20)],
        vec![text("2024-06"), int(15)],
    ];
    let plan = plan(&columns, &rows).expect("a chart");
    assert_eq!(plan.kind, ChartKind::Line);
    assert_eq!(plan.labels, ["2024-01", "2024-02", "2024-03", "2024-06"]);
    assert_eq!(plan.rows, [1, 2, 0, 3]);
    assert_eq!(
        plan.series[0].values,
        [Some(10.0), Some(20.0), Some(30.0), Some(15.0)]
    );

    let chart = layout(&plan, 500.0, 250.0);
    assert!(chart.bars.is_empty());
    let line = &chart.lines[0];
    assert_eq!(line.segments.len(), 1);
    let xs: Vec<f64> = line.segments[0].iter().map(|p| p.x).collect();
    // Spaced by time: March to June is three months, three times January to February.
    assert!(
        ((xs[3] - xs[2]) / (xs[1] - xs[0]) - 3.0).abs() < 1e-9,
        "{xs:?}"
    );
    let ys: Vec<f64> = line.segments[0].iter().map(|p| p.y).collect();
    assert!(
        ys[0] > ys[1] && ys[1] > ys[2] && ys[3] > ys[2],
        "more orders draw higher"
    );
    assert_inside(&chart);
    assert_labels_apart(&chart);
    assert!(svg_points(&line.segments[0]).split(' ').count() == 4);
}

#[test]
fn days_and_integer_years_make_lines_too() {
    let days = plan(
        &columns(&["day", "revenue"]),
        &[
            vec![text("2024-02-01"), Value::Real(1.5)],
            vec![text("2024-01-31"), Value::Real(2.5)],
        ],
    )
    .unwrap();
    assert_eq!(days.kind, ChartKind::Line);
    assert_eq!(days.labels, ["2024-01-31", "2024-02-01"]);

    let years = plan(
        &columns(&["order_year", "orders"]),
        &[vec![int(2023), int(5)], vec![int(2022), int(7)]],
    )
    .unwrap();
    assert_eq!(years.kind, ChartKind::Line);
    assert_eq!(years.label_column, "order_year");
    assert_eq!(years.labels, ["2022", "2023"]);
    assert_eq!(years.series[0].name, "orders");
}

#[test]
fn a_year_and_a_category_are_two_dimensions_not_one_chart() {
    let rows = vec![
        vec![int(2023), text("furniture"), int(5)],
        vec![int(2024), text("furniture"), int(7)],
    ];
    assert_eq!(plan(&columns(&["year", "category", "total"]), &rows), None);
}

#[test]
fn integers_not_named_like_years_are_no_labels() {
    let rows = vec![vec![int(2023), int(5)], vec![int(2022), int(7)]];
    assert_eq!(plan(&columns(&["quantity", "orders"]), &rows), None);
}

#[test]
fn mixed_or_repeated_dates_fall_back_to_bars_in_result_order() {
    let mixed = plan(
        &columns(&["period", "n"]),
        &[vec![text("2024"), int(1)], vec![text("2024-02"), int(2)]],
    )
    .unwrap();
    assert_eq!(mixed.kind, ChartKind::Bar);
    assert_eq!(mixed.labels, ["2024", "2024-02"]);

    let repeated = plan(
        &columns(&["month", "n"]),
        &[
            vec![text("2024-02"), int(1)],
            vec![text("2024-01"), int(2)],
            vec![text("2024-02"), int(3)],
        ],
    )
    .unwrap();
    assert_eq!(repeated.kind, ChartKind::Bar);
    assert_eq!(repeated.labels, ["2024-02", "2024-01", "2024-02"]);
}

#[test]
fn results_that_are_not_charts() {
    let two_texts = vec![
        vec![text("Ann"), text("Tokyo")],
        vec![text("Bo"), text("Osaka")],
    ];
    assert_eq!(plan(&columns(&["name", "city"]), &two_texts), None);

    let (cols, rows) = sales_per_category();
    assert_eq!(plan(&cols, &rows[..1]), None, "one row");
    assert_eq!(plan(&cols, &[]), None, "no rows");

    let numbers_only = vec![vec![int(1), int(2)], vec![int(3), int(4)]];
    assert_eq!(plan(&columns(&["a", "b"]), &numbers_only), None);

    let label_only = vec![vec![text("a")], vec![text("b")]];
    assert_eq!(plan(&columns(&["name"]), &label_only), None);

    let blob = vec![
        vec![text("a"), Value::Blob(vec![1])],
        vec![text("b"), int(1)],
    ];
    assert_eq!(plan(&columns(&["name", "data"]), &blob), None);

    let mixed = vec![vec![text("a"), int(1)], vec![text("b"), text("n/a")]];
    assert_eq!(
        plan(&columns(&["name", "value"]), &mixed),
        None,
        "two text-ish columns"
    );

    let three_columns_short_rows = vec![vec![text("a"), int(1)], vec![text("b"), int(2)]];
    assert_eq!(
        plan(&columns(&["name", "v", "w"]), &three_columns_short_rows),
        None
    );

    let huge = vec![vec![text("a"), Value::Real(1e300)], vec![text("b"), int(1)]];
    assert_eq!(plan(&columns(&["name", "v"]), &huge), None);
}

#[test]
fn too_many_bars_are_not_a_chart_but_a_long_line_is() {
    let bars: Vec<Vec<Value>> = (0..=MAX_BAR_ROWS as i64)
        .map(|i| vec![text(&format!("item {i}")), int(i)])
        .collect();
    assert_eq!(plan(&columns(&["item", "n"]), &bars), None);
    assert!(plan(&columns(&["item", "n"]), &bars[..MAX_BAR_ROWS]).is_some());

    // Twelve months of 28 days each: 336 distinct dates.
    let days: Vec<Vec<Value>> = (0..336)
        .map(|d| {
            let date = format!("2023-{:02}-{:02}", d / 28 + 1, d % 28 + 1);
            vec![text(&date), int(d)]
        })
        .collect();
    let plan = plan(&columns(&["day", "n"]), &days).expect("336 days as a line");
    assert_eq!(plan.kind, ChartKind::Line);
    let chart = layout(&plan, 600.0, 300.0);
    assert!(
        chart.x_labels.len() < 20,
        "labels are thinned: {}",
        chart.x_labels.len()
    );
    assert!(chart.x_labels.len() >= 3);
    assert_labels_apart(&chart);
    assert_inside(&chart);
}

#[test]
fn too_long_a_line_is_not_a_chart() {
    // Distinct dates, 336 a year (twelve months of 28 days).
    let days: Vec<Vec<Value>> = (0..=MAX_LINE_ROWS)
        .map(|d| {
            let date = format!(
                "{}-{:02}-{:02}",
                2000 + d / 336,
                d % 336 / 28 + 1,
                d % 28 + 1
            );
            vec![text(&date), int(d as i64)]
        })
        .collect();
    let columns = columns(&["day", "n"]);
    assert_eq!(plan(&columns, &days), None);
    let longest = plan(&columns, &days[..MAX_LINE_ROWS]).expect("the longest line");
    assert_eq!(longest.kind, ChartKind::Line);
}

#[test]
fn key_columns_are_not_drawn() {
    let rows = vec![
        vec![int(1), text("Ann"), int(10), int(500)],
        vec![int(2), text("Bo"), int(20), int(300)],
    ];
    let plan = plan(&columns(&["CustomerId", "name", "paid", "total"]), &rows).unwrap();
    let names: Vec<&str> = plan.series.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["paid", "total"]);
    assert_eq!(plan.label_column, "name");
}

#[test]
fn negative_values_hang_below_zero() {
    let rows = vec![
        vec![text("north"), int(300)],
        vec![text("south"), int(-150)],
        vec![text("east"), int(0)],
    ];
    let chart = layout(
        &plan(&columns(&["region", "profit"]), &rows).unwrap(),
        400.0,
        300.0,
    );
    let (north, south) = (&chart.bars[0].rect, &chart.bars[1].rect);
    assert!((north.bottom() - chart.baseline_y).abs() < 1e-9);
    assert!(
        (south.y - chart.baseline_y).abs() < 1e-9,
        "a loss starts at zero and goes down"
    );
    assert!((south.height / north.height - 0.5).abs() < 1e-9);
    assert_eq!(chart.bars[2].rect.height, 0.0);
    assert!(chart.baseline_y > chart.plot.y && chart.baseline_y < chart.plot.bottom());
    assert!(chart
        .y_ticks
        .iter()
        .any(|t| t.value < 0.0 && t.label.starts_with('-')));
    assert!(chart
        .y_ticks
        .iter()
        .any(|t| t.value == 0.0 && t.label == "0"));
    assert_inside(&chart);
}

#[test]
fn all_zero_values_still_lay_out() {
    let rows = vec![vec![text("a"), int(0)], vec![text("b"), int(0)]];
    let chart = layout(&plan(&columns(&["k", "v"]), &rows).unwrap(), 300.0, 200.0);
    assert!(chart
        .bars
        .iter()
        .all(|b| b.rect.height == 0.0 && b.rect.y.is_finite()));
    assert!(chart.y_ticks.len() >= 2);
    assert!((chart.baseline_y - chart.plot.bottom()).abs() < 1e-9);
    assert_inside(&chart);
}

#[test]
fn nulls_leave_gaps() {
    let rows = vec![
        vec![text("2024-01"), int(1), Value::Null],
        vec![text("2024-02"), Value::Null, int(5)],
        vec![text("2024-03"), int(3), int(6)],
        vec![text("2024-04"), int(4), int(7)],
    ];
    let plan = plan(&columns(&["month", "a", "b"]), &rows).unwrap();
    assert_eq!(
        plan.series[0].values,
        [Some(1.0), None, Some(3.0), Some(4.0)]
    );
    let chart = layout(&plan, 500.0, 300.0);
    let (a, b) = (&chart.lines[0], &chart.lines[1]);
    assert_eq!(a.points.len(), 3);
    assert_eq!(a.segments.len(), 1, "the lone first point is no segment");
    assert_eq!(a.segments[0].len(), 2);
    assert_eq!(b.segments.len(), 1);
    assert_eq!(b.segments[0].len(), 3);
    assert_eq!(chart.legend.len(), 2);

    let label_null = vec![vec![Value::Null, int(1)], vec![text("x"), int(2)]];
    let bars = super::plan(&columns(&["k", "v"]), &label_null).unwrap();
    assert_eq!(bars.labels, ["NULL", "x"]);

    let all_null = vec![vec![text("a"), Value::Null], vec![text("b"), Value::Null]];
    assert_eq!(super::plan(&columns(&["k", "v"]), &all_null), None);
}

#[test]
fn grouped_bars_share_a_slot() {
    let rows = vec![
        vec![text("a"), int(1), int(2)],
        vec![text("b"), int(3), int(4)],
    ];
    let chart = layout(
        &plan(&columns(&["k", "x", "y"]), &rows).unwrap(),
        400.0,
        200.0,
    );
    assert_eq!(chart.bars.len(), 4);
    let (ax, ay, bx) = (&chart.bars[0], &chart.bars[1], &chart.bars[2]);
    assert_eq!((ax.series, ax.index, ay.series, ay.index), (0, 0, 1, 0));
    assert!((ax.rect.right() - ay.rect.x).abs() < 1e-9, "side by side");
    assert!(ay.rect.right() < bx.rect.x, "a gap between groups");
    assert!(
        chart.legend[1].x > chart.legend[0].text_x,
        "legend left to right"
    );
}

#[test]
fn long_labels_are_cut_and_narrow_bars_thinned() {
    let rows: Vec<Vec<Value>> = (0..60)
        .map(|i| {
            vec![
                text(&format!("a rather long product name number {i}")),
                int(i + 1),
            ]
        })
        .collect();
    let plan = plan(&columns(&["product", "sold"]), &rows).unwrap();
    let chart = layout(&plan, 600.0, 300.0);
    assert_eq!(chart.bars.len(), 60);
    assert!(chart.x_labels.len() < 60 && chart.x_labels.len() >= 3);
    assert!(chart.x_labels.iter().all(|l| l.text.ends_with('…')));
    assert!(chart.x_labels[0]
        .full
        .starts_with("a rather long product name"));
    assert_labels_apart(&chart);
    assert_inside(&chart);
}

#[test]
fn japanese_labels() {
    let rows = vec![
        vec![text("家電"), int(252_000)],
        vec![text("家具"), int(140_000)],
    ];
    let chart = layout(
        &plan(&columns(&["カテゴリ", "売上"]), &rows).unwrap(),
        300.0,
        200.0,
    );
    let texts: Vec<&str> = chart.x_labels.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(texts, ["家電", "家具"]);
    assert_eq!(chart.legend[0].text, "売上");
}

#[test]
fn odd_sizes_and_hand_made_plans_do_not_panic() {
    let (columns, rows) = sales_per_category();
    let good = plan(&columns, &rows).unwrap();
    for (w, h) in [
        (0.0, 0.0),
        (-5.0, 10.0),
        (f64::NAN, f64::INFINITY),
        (1e6, 1e6),
    ] {
        let chart = layout(&good, w, h);
        assert!(chart.width.is_finite() && chart.height.is_finite());
        assert_inside(&chart);
    }
    let odd = ChartPlan {
        kind: ChartKind::Line,
        label_column: "x".into(),
        labels: vec!["a".into(), "b".into(), "c".into()],
        rows: vec![],
        positions: vec![f64::NAN],
        series: vec![super::Series {
            name: "v".into(),
            values: vec![Some(f64::INFINITY), Some(1.0)],
        }],
    };
    let chart = layout(&odd, 300.0, 200.0);
    assert_eq!(chart.lines[0].points.len(), 1);
}

#[test]
fn many_series_wrap_the_legend_and_the_plot_moves_down() {
    let names: Vec<String> = (0..8)
        .map(|i| format!("series with a long name {i}"))
        .collect();
    let mut cols = vec!["k".to_string()];
    cols.extend(names);
    let rows: Vec<Vec<Value>> = ["a", "b"]
        .iter()
        .map(|k| std::iter::once(text(k)).chain((0..8).map(int)).collect())
        .collect();
    let chart = layout(&plan(&cols, &rows).unwrap(), 200.0, 150.0);
    let last = chart.legend.last().unwrap();
    assert!(last.y > chart.legend[0].y, "wrapped");
    assert!(chart.plot.y > last.y + super::SWATCH);
    assert!(chart.plot.height >= 40.0);
    assert_inside(&chart);
}
