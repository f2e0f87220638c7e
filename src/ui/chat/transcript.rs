//! The live transcript of one question: a compact card per tool call (its SQL, the first rows,
//! the warnings, the time), and short notes for what happened between (the model's words,
//! retries, nudges). What it holds is `present::transcript`, filled from the agent's events as
//! they arrive; here is the signal and the markup.
//!
//! Everything here came from the model or the database and is shown as text.

use super::marked;
use crate::agent::tools::cross_check::Side;
use crate::agent::tools::ToolOutput;
use crate::agent::traps::Diagnostic;
use crate::agent::AgentEvent;
use crate::count::{rows_caption_for_person, rows_for_person};
use crate::engine::RowCount;
use crate::llm::Usage;
use crate::present::time::elapsed;
use crate::present::transcript::{
    self as model, is_warning, Entry, KnowledgeLine, NoteKind, SchemaLine, Step, StepDifference,
};
use crate::tr;
use crate::ui::language::tr_live;
use crate::ui::markdown_view::MarkdownView;
use crate::ui::table_scroll::TableScroll;
use leptos::prelude::*;

/// Rows of a result shown in a card; the model saw more, the evidence table shows all.
const CARD_ROWS: usize = 5;

/// The transcript of one question, as a signal the view follows.
#[derive(Clone, Copy)]
pub struct Transcript(RwSignal<model::Transcript>);

impl Transcript {
    pub fn new() -> Transcript {
        Transcript(RwSignal::new(model::Transcript::default()))
    }

    /// Takes in one event from the agent.
    pub fn record(&self, event: AgentEvent) {
        self.0.update(|transcript| transcript.record(event));
    }

    /// In a replay: the step of `call_id` gave another result than the recording.
    pub fn mark_difference(&self, call_id: &str, difference: StepDifference) {
        self.0
            .update(|transcript| transcript.mark_difference(call_id, difference));
    }

    /// The question was stopped: what was shown stays, marked as stopped.
    pub fn stopped(&self) {
        self.0.update(|transcript| transcript.stopped());
    }

    /// Tokens used so far by this question.
    pub fn usage(&self) -> Usage {
        self.0.with(|transcript| transcript.usage)
    }

    /// `read` of the step at `index`, while there is one (tracked: it runs again when the
    /// transcript changes).
    fn with_step<R>(&self, index: usize, read: impl FnOnce(&Step) -> R) -> Option<R> {
        self.0
            .with(|transcript| match transcript.entries.get(index) {
                Some(Entry::Step(step)) => Some(read(step)),
                _ => None,
            })
    }
}

/// The transcript as a list of cards and notes.
#[component]
pub fn TranscriptView(transcript: Transcript) -> impl IntoView {
    view! {
        <ol class="transcript" aria-label=tr_live("chat-transcript")>
            <For
                each=move || transcript.0.with(|t| t.entries.iter().map(is_step).enumerate().collect::<Vec<_>>())
                key=|entry| *entry
                children=move |(index, step)| {
                    if step {
                        view! { <StepCard transcript=transcript index=index/> }.into_any()
                    } else {
                        note_at(transcript, index)
                    }
                }
            />
        </ol>
        <DraftView transcript=transcript/>
        {move || {
            transcript
                .0
                .with(|t| t.status.clone())
                // No live region: the status changes at every step ("Running run_sql…"), and
                // the chat's log (`announce`) says only what is finished.
                .map(|status| view! { <p class="agent-status">{marked(&status)}</p> })
        }}
    }
}

/// The reply being written, while it streams: its words, or the answer once the model is
/// writing it, as Markdown (read again at each piece; a half-written mark shows as typed until
/// it closes). Outside the chat's log on purpose: a screen reader hears the finished answer
/// once, from the log, never the half-written one; `aria-busy` says it is still changing.
#[component]
fn DraftView(transcript: Transcript) -> impl IntoView {
    let written = Memo::new(move |_| {
        transcript.0.with(|t| {
            t.draft
                .as_ref()
                .map(|draft| draft.answer.clone().unwrap_or_else(|| draft.text.clone()))
                .filter(|text| !text.trim().is_empty())
        })
    });
    move || {
        written.get().map(|text| {
            view! {
                <div class="draft" data-testid="draft" aria-busy="true">
                    <MarkdownView markdown=text/>
                </div>
            }
        })
    }
}

fn is_step(entry: &Entry) -> bool {
    matches!(entry, Entry::Step(_))
}

/// The note at `index` (notes do not change once written).
fn note_at(transcript: Transcript, index: usize) -> AnyView {
    transcript.0.with_untracked(|t| match t.entries.get(index) {
        Some(Entry::Note { kind, text }) => note_view(*kind, text.clone()),
        Some(Entry::Knowledge(line)) => knowledge_view(line.clone()),
        Some(Entry::Schema(line)) => schema_view(line.clone()),
        _ => ().into_any(),
    })
}

/// What knowledge went with the question: one line, opening onto the terms and examples.
fn knowledge_view(line: KnowledgeLine) -> AnyView {
    folded_line("note knowledge", "knowledge", line.summary, line.details)
}

/// What of the schema went with the question: one line, opening onto each picked table with
/// why it was picked, and the values the question names.
fn schema_view(line: SchemaLine) -> AnyView {
    folded_line(
        "note knowledge schema-picked",
        "schema-picked",
        line.summary,
        line.details,
    )
}

/// A transcript line that opens onto its details (just the line when it has none).
fn folded_line(
    class: &'static str,
    test_id: &'static str,
    summary: String,
    details: Vec<String>,
) -> AnyView {
    if details.is_empty() {
        return view! { <li class=class data-testid=test_id>{marked(&summary)}</li> }.into_any();
    }
    view! {
        <li class=class data-testid=test_id>
            <details>
                <summary>{marked(&summary)}</summary>
                <ul class="knowledge-details">
                    {details.into_iter().map(|detail| view! { <li>{marked(&detail)}</li> }).collect_view()}
                </ul>
            </details>
        </li>
    }
    .into_any()
}

fn note_view(kind: NoteKind, text: String) -> AnyView {
    let (class, label): (_, fn() -> String) = match kind {
        NoteKind::ModelText => ("note model-text", || tr!("chat-note-model")),
        NoteKind::Retry => ("note retry", String::new),
        NoteKind::Nudge => ("note nudge", String::new),
        NoteKind::Stopped => ("note stopped", String::new),
        NoteKind::Difference => ("note difference", String::new),
        NoteKind::CallsInText => ("note calls-in-text", String::new),
        NoteKind::ToolsNeverCalled => ("note tools-never-called", String::new),
        NoteKind::ModelTime => ("note model-time", String::new),
        NoteKind::Unfinished => ("note model-text unfinished", || tr!("chat-note-unfinished")),
    };
    // The model's own words are the model's, in the language it wrote them.
    let text = match kind {
        NoteKind::ModelText | NoteKind::Unfinished => {
            view! { <span translate="no">{text}</span> }.into_any()
        }
        _ => marked(&text),
    };
    view! {
        <li class=class>
            <span class="note-label">{label}</span>
            {text}
        </li>
    }
    .into_any()
}

/// One tool call: a one-line summary that opens onto the details. Opens by itself when the
/// tool reported an error or a warning, which is what a person should read.
#[component]
fn StepCard(transcript: Transcript, index: usize) -> impl IntoView {
    let step = move |read: fn(&Step) -> _| transcript.with_step(index, read);
    let Some((tool, brief)) = transcript.0.with_untracked(|t| match t.entries.get(index) {
        Some(Entry::Step(step)) => Some((step.tool.clone(), step.brief().to_string())),
        _ => None,
    }) else {
        return ().into_any();
    };
    let tool_name = tool.clone();
    view! {
        <li
            class="step"
            class:differs=move || step(|s| s.difference.is_some()) == Some(true)
            data-testid="step"
            data-tool=tool_name
        >
            <details
                class="step-card"
                class:failed=move || step(Step::failed) == Some(true)
                open=move || step(Step::needs_attention) == Some(true)
            >
                <summary>
                    <span class="tool-name" translate="no">{tool}</span>
                    <span class="step-brief" translate="no">{brief}</span>
                    <span class="step-outcome">
                        {move || transcript.with_step(index, Step::outcome).map(|said| marked(&said))}
                    </span>
                    <span class="step-time muted">
                        {move || transcript.with_step(index, |s| s.result.as_ref().map(|r| {
                            let reads = match &r.output {
                                ToolOutput::Rows(run) => run.reads.map(|reads| format!(", {}", crate::present::ledger::reads_phrase(reads))),
                                _ => None,
                            };
                            format!("{}{}", elapsed(r.elapsed_ms), reads.unwrap_or_default())
                        })).flatten()}
                    </span>
                </summary>
                <div class="step-body">
                    {move || transcript.with_step(index, |s| match &s.result {
                        None => called_with(s),
                        Some(r) => output_view(s, &r.output),
                    })}
                </div>
            </details>
            {move || transcript.with_step(index, |s| s.difference.clone()).flatten().map(difference_view)}
        </li>
    }
    .into_any()
}

/// In a replay: this step's result is not the recorded one.
fn difference_view(difference: StepDifference) -> impl IntoView {
    view! {
        <div class="step-difference" data-testid="step-difference" role="note">
            <p>{marked(&difference.message)}</p>
            {difference.recorded.map(|recorded| view! {
                <details>
                    <summary>{tr_live("chat-step-recorded")}</summary>
                    <pre class="recorded"><code>{recorded}</code></pre>
                </details>
            })}
        </div>
    }
}

/// While the tool runs: what it was called with.
fn called_with(step: &Step) -> AnyView {
    step.called_with()
        .into_iter()
        .map(sql_block)
        .collect_view()
        .into_any()
}

/// What the tool gave back. Its own words (an error, a note, a check's report, a warning) are
/// what the model read, English in every language of the page, like the SQL and the rows:
/// marked as not the page's to translate.
fn output_view(step: &Step, output: &ToolOutput) -> AnyView {
    match output {
        ToolOutput::Error { message } => view! {
            {called_with(step)}
            <p class="step-error" translate="no">{message.clone()}</p>
        }
        .into_any(),
        ToolOutput::Tables { tables, note } => {
            let items = tables
                .iter()
                .map(|table| {
                    let count = table
                        .rows
                        .count()
                        .map(|count| format!(" ({})", rows_for_person(count)));
                    view! { <li><code translate="no">{table.name.clone()}</code>{count}</li> }
                })
                .collect_view();
            view! { <ul class="table-list">{items}</ul>{note_line(note)} }.into_any()
        }
        ToolOutput::Table(table) => {
            let count = table
                .rows
                .count()
                .map(|count| tr!("chat-table-rows", rows = rows_for_person(count)) + " ");
            let columns = table
                .columns
                .iter()
                .map(|column| {
                    format!("{} {}", column.name, column.decl_type)
                        .trim()
                        .to_string()
                })
                .collect::<Vec<_>>()
                .join(", ");
            view! {
                <p>{count}{tr!("chat-table-columns")}" "<span translate="no">{columns}</span></p>
                {note_line(&table.statistics_from)}
                {note_line(&table.note)}
            }
            .into_any()
        }
        ToolOutput::Rows(run) => view! {
            {sql_block(&run.sql)}
            {values_line(&run.values)}
            {rows_view(&run.columns, &run.rows, run.total_rows)}
            {diagnostics_view(&run.warnings)}
            {note_line(&run.note)}
        }
        .into_any(),
        ToolOutput::CrossCheck(report) => view! {
            <p translate="no">{report.message.clone()}</p>
            {side_view("A", &report.a)}
            {side_view("B", &report.b)}
            {note_line(&report.note)}
        }
        .into_any(),
        ToolOutput::Answer(answer) => {
            let sql = answer.sql.as_deref().map(sql_block);
            view! { {sql}{note_line(&answer.notes)} }.into_any()
        }
    }
}

fn side_view(name: &'static str, side: &Side) -> impl IntoView {
    view! {
        <div class="cross-side">
            <p class="muted">{tr!("chat-cross-query", name = name)}</p>
            {sql_block(&side.sql)}
            {rows_view(&side.columns, &side.first_rows, side.total_rows)}
            {diagnostics_view(&side.warnings)}
        </div>
    }
}

fn sql_block(sql: &str) -> AnyView {
    view! { <pre class="sql" translate="no"><code>{sql.to_string()}</code></pre> }.into_any()
}

/// The values bound to a structured query's `?1`, `?2`, …
fn values_line(values: &[serde_json::Value]) -> Option<AnyView> {
    (!values.is_empty()).then(|| {
        let listed: Vec<String> = values
            .iter()
            .enumerate()
            .map(|(i, value)| format!("?{} = {value}", i + 1))
            .collect();
        view! {
            <p class="muted bound-values">
                {tr!("chat-values")}" "<span translate="no">{listed.join(", ")}</span>
            </p>
        }
        .into_any()
    })
}

fn note_line(note: &Option<String>) -> Option<AnyView> {
    note.as_ref()
        .map(|note| view! { <p class="muted" translate="no">{note.clone()}</p> }.into_any())
}

/// The first rows of a result, as the model saw them.
fn rows_view(columns: &[String], first: &[Vec<serde_json::Value>], total: RowCount) -> AnyView {
    if columns.is_empty() {
        return ().into_any();
    }
    let shown = first.len().min(CARD_ROWS);
    let all_shown = first.len() == shown && total == RowCount::Exact(shown as u64);
    let caption = rows_caption_for_person(shown, all_shown, total);
    let header = columns
        .iter()
        .map(|name| view! { <th scope="col">{name.clone()}</th> })
        .collect_view();
    let body = first
        .iter()
        .take(CARD_ROWS)
        .map(|row| view! { <tr>{row.iter().map(json_cell).collect_view()}</tr> })
        .collect_view();
    view! {
        <TableScroll label=Signal::derive(|| tr!("chat-first-rows")) mini=true>
            <table>
                <caption>{caption}</caption>
                // Column names and values: the data's, not the page's to translate.
                <thead translate="no">
                    <tr>{header}</tr>
                </thead>
                <tbody translate="no">{body}</tbody>
            </table>
        </TableScroll>
    }
    .into_any()
}

fn json_cell(value: &serde_json::Value) -> AnyView {
    match value {
        serde_json::Value::Null => view! {
            <td class="null"><span class="null-mark">"NULL"</span></td>
        }
        .into_any(),
        serde_json::Value::Number(n) => view! { <td class="num">{n.to_string()}</td> }.into_any(),
        serde_json::Value::String(text) => view! { <td>{text.clone()}</td> }.into_any(),
        other => view! { <td>{other.to_string()}</td> }.into_any(),
    }
}

fn diagnostics_view(diagnostics: &[Diagnostic]) -> AnyView {
    if diagnostics.is_empty() {
        return ().into_any();
    }
    let items = diagnostics
        .iter()
        .map(|d| {
            let class = if is_warning(d) { "warning" } else { "check" };
            view! { <li class=class translate="no">{d.message.clone()}</li> }
        })
        .collect_view();
    view! { <ul class="diagnostics" aria-label=tr!("chat-diagnostics")>{items}</ul> }.into_any()
}
