//! The button beside the chat's heading and the panel it opens: run and stop, progress, each
//! question with its outcome and both SQLs, the total, the downloads. Everything from the
//! model or the data is shown as text.

use super::{golden_run_state, DownloadAs};
use crate::eval::calibration::{agreed_passed, calibration};
use crate::eval::report::share;
use crate::eval::run::{GoldenResult, Outcome};
use crate::eval::said;
use crate::present::time::elapsed;
use crate::tr;
use crate::ui::language::tr_live;
use crate::ui::lazy::{on_first_use, when_here};
use crate::ui::table_scroll::TableScroll;
use leptos::prelude::*;

const PANEL_ID: &str = "check-the-model";

/// "Check the model", when the open database has golden questions (never in an embed).
#[component]
pub fn GoldenRunButton() -> impl IntoView {
    let golden_run = golden_run_state();
    let embedded = crate::ui::the_address().presentation.embed;
    let shown = move || !embedded && !golden_run.golden.with(Vec::is_empty);
    view! {
        <Show when=shown>
            <button
                type="button"
                class="button checks-button"
                data-testid="checks-button"
                aria-controls=PANEL_ID
                aria-expanded=move || golden_run.open.get().to_string()
                title=tr_live("golden-button-title")
                on:click=move |_| golden_run.open.update(|open| *open = !*open)
            >
                {tr_live("golden-check-the-model")}
                <span class="count">{move || golden_run.golden.with(Vec::len)}</span>
            </button>
        </Show>
    }
}

/// The panel the button opens.
#[component]
pub fn GoldenRunPanel() -> impl IntoView {
    let golden_run = golden_run_state();
    let visible = move || golden_run.open.get() && !golden_run.golden.with(Vec::is_empty);
    view! { <Show when=visible>{when_here(panel_in_chunk())}</Show> }
}

on_first_use! {
    golden_run =>
    /// The panel's contents: downloaded with the golden run, when the panel is first opened.
    fn panel_in_chunk() -> AnyView {
        panel().into_any()
    }
}

fn panel() -> impl IntoView {
    let golden_run = golden_run_state();
    let running = move || golden_run.task.running();
    let count = move || golden_run.golden.with(Vec::len) as u64;
    view! {
            <section id=PANEL_ID class="checks-panel" aria-labelledby="checks-heading" data-testid="checks-panel">
                <h3 id="checks-heading">{tr_live("golden-check-the-model")}</h3>
                <p class="muted">{move || tr!("golden-intro", count = count())}</p>
                <div class="checks-bar">
                    <button
                        type="button"
                        class="button primary"
                        data-testid="checks-run"
                        disabled=running
                        on:click=move |_| golden_run.run()
                    >
                        {move || if running() { tr!("golden-checking") } else { tr!("golden-run") }}
                    </button>
                    <button
                        type="button"
                        class="button"
                        data-testid="checks-stop"
                        disabled=move || !running()
                        on:click=move |_| golden_run.task.stop()
                    >
                        {tr_live("golden-stop")}
                    </button>
                    <Downloads/>
                </div>
                {move || golden_run.error.get().map(|why| view! { <p class="error" role="alert">{why}</p> })}
                <Progress/>
                <Calibration/>
                <Results/>
            </section>
    }
}

/// The report's downloads, once there is something in it.
#[component]
fn Downloads() -> impl IntoView {
    let golden_run = golden_run_state();
    let ready = move || {
        !golden_run.task.running()
            && golden_run
                .report
                .with(|r| r.as_ref().is_some_and(|r| !r.results.is_empty()))
    };
    view! {
        <Show when=ready>
            <button type="button" class="button" data-testid="checks-download-md"
                on:click=move |_| golden_run.download(DownloadAs::Markdown)>
                {tr_live("golden-download-markdown")}
            </button>
            <button type="button" class="button" data-testid="checks-download-json"
                on:click=move |_| golden_run.download(DownloadAs::Json)>
                {tr_live("golden-download-json")}
            </button>
        </Show>
    }
}

/// "Question 2 of 5…" and the total so far: "1 of 1 correct, 4.1k tokens".
#[component]
fn Progress() -> impl IntoView {
    let golden_run = golden_run_state();
    let done = move || {
        golden_run
            .report
            .with(|r| r.as_ref().map_or(0, |r| r.results.len()))
    };
    view! {
        {move || golden_run.report.with(|report| report.as_ref().map(|report| {
            let asking = golden_run.asking.get();
            let running = golden_run.task.running();
            let summary = said::summary(report);
            let line = if running {
                tr!("golden-asking", number = (done() + 1).min(asking), total = asking)
            } else {
                tr!("golden-summary-took", summary = summary.clone(), took = elapsed(report.elapsed_ms))
            };
            view! {
                <div class="checks-progress" role="status" data-testid="checks-summary">
                    {running.then(|| view! { <progress max=asking value=done()></progress> })}
                    <p class:total=!running>{line}</p>
                    {running.then(|| view! { <p class="muted">{summary}</p> })}
                </div>
            }
        }))}
    }
}

/// With Candidates > 1: the agreed answer's accuracy, and per agreement level how many
/// questions and how many right (the report's own table, `eval::calibration`).
#[component]
fn Calibration() -> impl IntoView {
    let golden_run = golden_run_state();
    move || {
        golden_run.report.with(|report| {
            let results = &report.as_ref()?.results;
            let (right, asked) = agreed_passed(results)?;
            let rows = calibration(results)
                .into_iter()
                .map(|row| {
                    view! {
                        <tr data-testid="calibration-row">
                            <th scope="row">{said::agreement(&row)}</th>
                            <td>{row.questions}</td>
                            <td>{row.right}</td>
                            <td>{share(row.right, row.questions)}</td>
                        </tr>
                    }
                })
                .collect_view();
            Some(view! {
                <section class="calibration" data-testid="calibration" aria-label=tr_live("golden-calibration-label")>
                    <p data-testid="calibration-agreed">
                        {tr!("golden-calibration-agreed", right = right, asked = asked)}
                    </p>
                    <TableScroll label=Signal::derive(|| tr!("golden-calibration-table"))>
                        <table class="calibration-table">
                            <thead>
                                <tr>
                                    <th scope="col">{tr_live("golden-column-agreeing")}</th>
                                    <th scope="col">{tr_live("golden-column-questions")}</th>
                                    <th scope="col">{tr_live("golden-column-agreed-right")}</th>
                                    <th scope="col">{tr_live("golden-column-share-right")}</th>
                                </tr>
                            </thead>
                            <tbody>{rows}</tbody>
                        </table>
                    </TableScroll>
                </section>
            })
        })
    }
}

/// One item per question asked so far.
#[component]
fn Results() -> impl IntoView {
    let golden_run = golden_run_state();
    view! {
        <ol class="check-results" data-testid="check-results">
            {move || golden_run.report.with(|report| {
                report.iter().flat_map(|r| r.results.iter()).map(result_view).collect_view()
            })}
        </ol>
    }
}

fn result_view(result: &GoldenResult) -> impl IntoView {
    let kind = match result.outcome {
        Outcome::Pass => "pass",
        Outcome::ExpectedFailed { .. } => "broken",
        _ => "fail",
    };
    let cost = tr!(
        "golden-cost",
        steps = result.steps,
        tokens = result.usage.input_tokens + result.usage.output_tokens,
        took = elapsed(result.elapsed_ms)
    );
    let model_sql = match &result.model_sql {
        Some(sql) => view! { <pre class="sql"><code>{sql.clone()}</code></pre> }.into_any(),
        None => view! { <p class="muted">{tr!("golden-no-sql")}</p> }.into_any(),
    };
    view! {
        <li class=format!("check-result {kind}") data-testid="check-result" data-outcome=kind>
            <div class="check-head">
                <span class=format!("badge {kind}")>{said::label(&result.outcome)}</span>
                <span class="check-question" translate="no">{result.question.clone()}</span>
                <span class="muted check-cost">{cost}</span>
            </div>
            {said::why(&result.outcome).map(|why| view! { <p class="check-why">{why}</p> })}
            <div class="check-sql">
                <div>
                    <h4>{tr!("golden-expected-sql")}</h4>
                    <pre class="sql"><code>{result.expected_sql.clone()}</code></pre>
                </div>
                <div>
                    <h4>{tr!("golden-model-sql")}</h4>
                    {model_sql}
                </div>
            </div>
        </li>
    }
}
