//! The live transcript of one question: a compact card per tool call (its SQL, the first rows,
//! the warnings, the time), and short notes for what happened between (the model's words,
//! retries, nudges). Filled from the agent's events as they arrive.
//!
//! Everything here came from the model or the database and is shown as text.

use crate::agent::checks::{Diagnostic, DiagnosticKind};
use crate::agent::tools::cross_check::Side;
use crate::agent::tools::ToolOutput;
use crate::agent::{AgentEvent, EventKind};
use crate::engine::RowCount;
use crate::llm::Usage;
use crate::present::count::{grouped, plural, rows};
use crate::present::time::elapsed;
use leptos::prelude::*;

/// Rows of a result shown in a card; the model saw more, the evidence table shows all.
const CARD_ROWS: usize = 5;
/// Longer text from the model between tool calls is cut in the transcript.
const NOTE_CHARS: usize = 1_200;

/// One line of the transcript.
#[derive(Clone)]
pub enum Entry {
    Step(Step),
    Note { kind: NoteKind, text: String },
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum NoteKind {
    /// What the model wrote besides its tool calls.
    ModelText,
    /// A model call failed in a way that may pass; the agent waits and tries again.
    Retry,
    /// The model answered without `final_answer` and was asked to use it.
    Nudge,
    Stopped,
}

/// One tool call and, once it is done, its result.
#[derive(Clone)]
pub struct Step {
    pub call_id: String,
    pub tool: String,
    /// The arguments as the model sent them (JSON text, maybe invalid).
    pub arguments: String,
    pub result: RwSignal<Option<StepResult>>,
}

#[derive(Clone)]
pub struct StepResult {
    pub elapsed_ms: f64,
    pub output: ToolOutput,
}

/// The transcript of one question, as signals the view follows.
#[derive(Clone, Copy)]
pub struct Transcript {
    pub entries: RwSignal<Vec<Entry>>,
    /// What the agent is doing now, while it works.
    pub status: RwSignal<Option<String>>,
    /// Tokens used so far by this question.
    pub usage: RwSignal<Usage>,
}

impl Transcript {
    pub fn new() -> Transcript {
        Transcript {
            entries: RwSignal::new(Vec::new()),
            status: RwSignal::new(Some("Starting…".into())),
            usage: RwSignal::new(Usage::default()),
        }
    }

    /// Takes in one event from the agent.
    pub fn record(&self, event: AgentEvent) {
        match event.kind {
            EventKind::StepStarted { step, max_steps } => self.status.set(Some(format!(
                "Step {step} of {max_steps}: waiting for the model…"
            ))),
            EventKind::LlmRetry {
                attempt,
                wait_ms,
                reason,
                ..
            } => {
                let wait = crate::engine::format_seconds(wait_ms);
                self.status
                    .set(Some(format!("Waiting {wait} before retry {attempt}…")));
                self.note(
                    NoteKind::Retry,
                    format!("Retry {attempt} in {wait}, because {reason}"),
                );
            }
            EventKind::ModelReplied { total_usage, .. } => self.usage.set(total_usage),
            EventKind::ModelText { text, .. } => self.note(NoteKind::ModelText, cut(&text)),
            EventKind::Nudged { reason, .. } => self.note(
                NoteKind::Nudge,
                format!(
                    "The model {reason}; it was asked to give its answer with the SQL behind it."
                ),
            ),
            EventKind::ToolCall {
                call_id,
                name,
                arguments,
                ..
            } => {
                self.status.set(Some(format!("Running {name}…")));
                self.entries.update(|entries| {
                    entries.push(Entry::Step(Step {
                        call_id,
                        tool: name,
                        arguments,
                        result: RwSignal::new(None),
                    }))
                });
            }
            EventKind::ToolResult {
                call_id,
                elapsed_ms,
                output,
                ..
            } => {
                let step = self.entries.with_untracked(|entries| {
                    entries.iter().rev().find_map(|entry| match entry {
                        Entry::Step(step) if step.call_id == call_id => Some(step.result),
                        _ => None,
                    })
                });
                if let Some(result) = step {
                    result.set(Some(StepResult {
                        elapsed_ms,
                        output: *output,
                    }));
                }
            }
            EventKind::Answer { answer } => {
                self.status.set(None);
                // A plain-text answer was already shown as the model's words: once is enough.
                self.entries.update(|entries| {
                    if let Some(Entry::Note {
                        kind: NoteKind::ModelText,
                        text,
                    }) = entries.last()
                    {
                        if *text == cut(answer.text.trim()) {
                            entries.pop();
                        }
                    }
                });
            }
            EventKind::Error { .. } => self.status.set(None),
        }
    }

    /// The question was stopped: what was shown stays, marked as stopped.
    pub fn stopped(&self) {
        self.status.set(None);
        self.note(NoteKind::Stopped, "Stopped.".into());
    }

    fn note(&self, kind: NoteKind, text: String) {
        self.entries
            .update(|entries| entries.push(Entry::Note { kind, text }));
    }
}

fn cut(text: &str) -> String {
    if text.chars().count() <= NOTE_CHARS {
        text.to_string()
    } else {
        format!("{}…", text.chars().take(NOTE_CHARS).collect::<String>())
    }
}

/// The transcript as a list of cards and notes.
#[component]
pub fn TranscriptView(transcript: Transcript) -> impl IntoView {
    view! {
        <ol class="transcript" aria-label="What the agent did">
            <For
                each=move || transcript.entries.get().into_iter().enumerate()
                key=|(index, _)| *index
                children=|(_, entry)| match entry {
                    Entry::Step(step) => view! { <StepCard step=step/> }.into_any(),
                    Entry::Note { kind, text } => note_view(kind, text),
                }
            />
        </ol>
        {move || {
            transcript
                .status
                .get()
                .map(|status| view! { <p class="agent-status" role="status">{status}</p> })
        }}
    }
}

fn note_view(kind: NoteKind, text: String) -> AnyView {
    let (class, label) = match kind {
        NoteKind::ModelText => ("note model-text", "The model: "),
        NoteKind::Retry => ("note retry", ""),
        NoteKind::Nudge => ("note nudge", ""),
        NoteKind::Stopped => ("note stopped", ""),
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
fn StepCard(step: Step) -> impl IntoView {
    let result = step.result;
    let tool = step.tool.clone();
    let brief = brief(&step.tool, &step.arguments);
    let arguments = step.arguments.clone();
    let tool_name = step.tool.clone();
    view! {
        <li class="step" data-testid="step" data-tool=step.tool.clone()>
            <details
                class="step-card"
                class:failed=move || result.with(|r| r.as_ref().is_some_and(|r| r.output.is_error()))
                open=move || result.with(|r| r.as_ref().is_some_and(|r| needs_attention(&r.output)))
            >
                <summary>
                    <span class="tool-name">{tool}</span>
                    <span class="step-brief">{brief}</span>
                    <span class="step-outcome">
                        {move || result.with(|r| match r {
                            None => "running…".to_string(),
                            Some(r) => outcome(&r.output),
                        })}
                    </span>
                    <span class="step-time muted">
                        {move || result.with(|r| r.as_ref().map(|r| elapsed(r.elapsed_ms)))}
                    </span>
                </summary>
                <div class="step-body">
                    {move || match result.get() {
                        None => called_with(&tool_name, &arguments),
                        Some(r) => output_view(&tool_name, &arguments, &r.output),
                    }}
                </div>
            </details>
        </li>
    }
}

/// What the summary names: the first line of the SQL, or the table.
fn brief(tool: &str, arguments: &str) -> String {
    let args = arguments_of(arguments);
    let text = |name: &str| {
        args.get(name)
            .and_then(|v| v.as_str())
            .unwrap_or_default()
            .to_string()
    };
    match tool {
        "run_sql" => text("sql"),
        "describe_table" => text("table"),
        "cross_check" => text("sql_a"),
        _ => String::new(),
    }
}

fn arguments_of(arguments: &str) -> serde_json::Map<String, serde_json::Value> {
    serde_json::from_str(arguments).unwrap_or_default()
}

/// The result in a few words: "12 rows · 1 warning", "error", "same results".
fn outcome(output: &ToolOutput) -> String {
    match output {
        ToolOutput::Tables { tables, .. } => plural(tables.len() as u64, "table", "tables"),
        ToolOutput::Table(table) => plural(table.columns.len() as u64, "column", "columns"),
        ToolOutput::Rows(run) => match warnings(&run.warnings) {
            0 => rows(run.total_rows),
            n => format!(
                "{} · {}",
                rows(run.total_rows),
                plural(n as u64, "warning", "warnings")
            ),
        },
        ToolOutput::CrossCheck(report) => report.message.clone(),
        ToolOutput::Answer(answer) if answer.verified => "answer with SQL".into(),
        ToolOutput::Answer(_) => "answer without evidence".into(),
        ToolOutput::Error { .. } => "error".into(),
    }
}

/// Warnings worth a person's eye (a literal that was found is reassurance, not a warning).
fn warnings(diagnostics: &[Diagnostic]) -> usize {
    diagnostics
        .iter()
        .filter(|d| d.kind != DiagnosticKind::LiteralFound)
        .count()
}

fn needs_attention(output: &ToolOutput) -> bool {
    match output {
        ToolOutput::Error { .. } => true,
        ToolOutput::Rows(run) => warnings(&run.warnings) > 0,
        ToolOutput::CrossCheck(report) => {
            warnings(&report.a.warnings) + warnings(&report.b.warnings) > 0
        }
        _ => false,
    }
}

/// While the tool runs: what it was called with.
fn called_with(tool: &str, arguments: &str) -> AnyView {
    let args = arguments_of(arguments);
    let sql = |name: &str| args.get(name).and_then(|v| v.as_str()).map(sql_block);
    match tool {
        "run_sql" => sql("sql").into_any(),
        "cross_check" => view! { {sql("sql_a")}{sql("sql_b")} }.into_any(),
        _ => ().into_any(),
    }
}

fn output_view(tool: &str, arguments: &str, output: &ToolOutput) -> AnyView {
    match output {
        ToolOutput::Error { message } => view! {
            {called_with(tool, arguments)}
            <p class="step-error">{message.clone()}</p>
        }
        .into_any(),
        ToolOutput::Tables { tables, note } => {
            let items = tables
                .iter()
                .map(|table| {
                    let count = table.rows.map(|count| format!(" ({})", rows(count)));
                    view! { <li><code>{table.name.clone()}</code>{count}</li> }
                })
                .collect_view();
            view! { <ul class="table-list">{items}</ul>{note_line(note)} }.into_any()
        }
        ToolOutput::Table(table) => {
            let count = table.rows.map(|count| format!("{}. ", rows(count)));
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
                <p>{count}"Columns: "{columns}</p>
                {note_line(&table.statistics_from)}
                {note_line(&table.note)}
            }
            .into_any()
        }
        ToolOutput::Rows(run) => view! {
            {sql_block(&run.sql)}
            {rows_view(&run.columns, &run.rows, run.total_rows)}
            {diagnostics_view(&run.warnings)}
            {note_line(&run.note)}
        }
        .into_any(),
        ToolOutput::CrossCheck(report) => view! {
            <p>{report.message.clone()}</p>
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
            <p class="muted">"Query "{name}</p>
            {sql_block(&side.sql)}
            {rows_view(&side.columns, &side.first_rows, side.total_rows)}
            {diagnostics_view(&side.warnings)}
        </div>
    }
}

fn sql_block(sql: &str) -> AnyView {
    view! { <pre class="sql"><code>{sql.to_string()}</code></pre> }.into_any()
}

fn note_line(note: &Option<String>) -> Option<AnyView> {
    note.as_ref()
        .map(|note| view! { <p class="muted">{note.clone()}</p> }.into_any())
}

/// The first rows of a result, as the model saw them.
fn rows_view(columns: &[String], first: &[Vec<serde_json::Value>], total: RowCount) -> AnyView {
    if columns.is_empty() {
        return ().into_any();
    }
    let shown = first.len().min(CARD_ROWS);
    let caption = if first.len() > shown || total != RowCount::Exact(shown as u64) {
        format!("first {} of {}", grouped(shown as u64), rows(total))
    } else {
        plural(shown as u64, "row", "rows")
    };
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
        <div class="table-scroll mini">
            <table>
                <caption>{caption}</caption>
                <thead>
                    <tr>{header}</tr>
                </thead>
                <tbody>{body}</tbody>
            </table>
        </div>
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
            let class = if d.kind == DiagnosticKind::LiteralFound {
                "check"
            } else {
                "warning"
            };
            view! { <li class=class>{d.message.clone()}</li> }
        })
        .collect_view();
    view! { <ul class="diagnostics" aria-label="Warnings and checks">{items}</ul> }.into_any()
}
