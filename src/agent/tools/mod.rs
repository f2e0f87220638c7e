//! The tools the model may call. Their names and argument names are a contract with the prompt
//! and with the model: `list_tables()`, `describe_table(table)`, `run_sql(sql)`,
//! `cross_check(sql_a, sql_b)`, `final_answer(answer, sql, notes)`.
//!
//! Every mistake (bad arguments, an unknown tool, SQL that SQLite or the guard refuses) comes back
//! to the model as that tool's error result, so it can correct itself; none ends the question.
//! Results go to the model as compact JSON capped at [`RESULT_BYTES`], and to the page as
//! [`ToolOutput`] data.

pub mod answer;
mod args;
pub mod cross_check;
pub mod describe;
pub mod run_sql;

use super::data::Data;
use super::values::serialize_row_count;
use super::AgentConfig;
use crate::engine::{Database, RowCount, Schema, TableKind};
use crate::llm::{ToolCall, ToolSpec};
use crate::text::cap_bytes;
use args::Args;
use serde::Serialize;
use serde_json::json;
use std::collections::HashMap;

/// The most a tool result may weigh in the model's context.
pub const RESULT_BYTES: usize = 8 * 1024;

/// What a tool produced: structured for the page, turned into text for the model.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ToolOutput {
    Tables {
        tables: Vec<TableSummary>,
        #[serde(skip_serializing_if = "Option::is_none")]
        note: Option<String>,
    },
    Table(describe::TableDescription),
    Rows(run_sql::SqlRun),
    CrossCheck(cross_check::CrossCheckReport),
    Answer(answer::AcceptedAnswer),
    Error {
        message: String,
    },
}

/// One line of `list_tables`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TableSummary {
    pub name: String,
    #[serde(skip_serializing_if = "is_table")]
    pub kind: TableKind,
    #[serde(
        serialize_with = "serialize_optional_count",
        skip_serializing_if = "Option::is_none"
    )]
    pub rows: Option<RowCount>,
    pub columns: usize,
}

fn is_table(kind: &TableKind) -> bool {
    *kind == TableKind::Table
}

fn serialize_optional_count<S: serde::Serializer>(
    count: &Option<RowCount>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match count {
        Some(count) => serialize_row_count(count, serializer),
        None => serializer.serialize_none(),
    }
}

impl ToolOutput {
    pub fn error(message: impl Into<String>) -> ToolOutput {
        ToolOutput::Error {
            message: message.into(),
        }
    }

    pub fn is_error(&self) -> bool {
        matches!(self, ToolOutput::Error { .. })
    }

    /// The result as the model reads it: compact JSON within [`RESULT_BYTES`]. Lists of rows
    /// and values are shortened first (the JSON stays whole, with a note); text is cut last.
    pub fn model_text(&self) -> String {
        let mut output = self.clone();
        loop {
            let text = output.to_json();
            if text.len() <= RESULT_BYTES || !output.shrink() {
                return cap_bytes(&text, RESULT_BYTES);
            }
        }
    }

    fn to_json(&self) -> String {
        serde_json::to_string(self)
            .unwrap_or_else(|error| json!({ "error": error.to_string() }).to_string())
    }

    /// Halves the longest lists; false when there is nothing left to shorten.
    fn shrink(&mut self) -> bool {
        match self {
            ToolOutput::Tables { tables, note } => halve(tables, note),
            ToolOutput::Table(description) => description.shrink(),
            ToolOutput::Rows(run) => run.shrink(),
            ToolOutput::CrossCheck(report) => report.shrink(),
            ToolOutput::Answer(_) | ToolOutput::Error { .. } => false,
        }
    }
}

/// Drops the second half of `items` and says so in `note`; false when there was nothing to drop.
pub(crate) fn halve<T>(items: &mut Vec<T>, note: &mut Option<String>) -> bool {
    if items.len() <= 1 {
        return false;
    }
    let had = items.len();
    items.truncate(had / 2);
    *note = Some(format!(
        "cut to fit the result size: {} of {had} shown; narrow the query to see more",
        items.len()
    ));
    true
}

/// The tools' JSON Schemas, as sent with every model call.
pub fn specs() -> Vec<ToolSpec> {
    fn spec(name: &str, description: &str, parameters: serde_json::Value) -> ToolSpec {
        ToolSpec {
            name: name.to_string(),
            description: description.to_string(),
            parameters,
        }
    }
    let text = |description: &str| json!({ "type": "string", "description": description });
    vec![
        spec(
            "list_tables",
            "Lists the tables and views with their row and column counts.",
            json!({ "type": "object", "properties": {} }),
        ),
        spec(
            "describe_table",
            "Describes one table or view: columns (type, NOT NULL, primary key, default), foreign \
             keys both ways, indexes, 3 sample rows, and per column the NULL count, the distinct \
             count, its values with counts (all when few, else the most frequent) and min/max.",
            json!({
                "type": "object",
                "properties": { "table": text("The table or view name, as in the schema.") },
                "required": ["table"],
            }),
        ),
        spec(
            "run_sql",
            "Runs one read-only SQLite query (SELECT or WITH ... SELECT). Returns the columns, \
             the first rows, the total row count, and warnings about traps: a literal that does \
             not occur in the data (with the values that do), NOT IN over NULLs, = NULL, integer \
             division, dates written in another format.",
            json!({
                "type": "object",
                "properties": { "sql": text("One SQLite SELECT statement.") },
                "required": ["sql"],
            }),
        ),
        spec(
            "cross_check",
            "Runs two different queries meant to answer the same question and compares their \
             results (as multisets, in order only when both have ORDER BY). Use it when unsure \
             that a query means what the question asks.",
            json!({
                "type": "object",
                "properties": {
                    "sql_a": text("The first query."),
                    "sql_b": text("A different query for the same question."),
                },
                "required": ["sql_a", "sql_b"],
            }),
        ),
        spec(
            "final_answer",
            "Gives the answer to the person and ends the question. Call it once you have the \
             result.",
            json!({
                "type": "object",
                "properties": {
                    "answer": text("The answer, in the language of the question."),
                    "sql": text("The one query whose result proves the answer; it is shown to \
                                 the person and run again. Empty only when no query can answer."),
                    "notes": text("Optional: interpretations you chose, caveats."),
                },
                "required": ["answer", "sql"],
            }),
        ),
    ]
}

/// What the tools work with during one question.
pub struct Toolbox<'a, D: ?Sized> {
    data: Data<'a, D>,
    descriptions: &'a mut HashMap<String, describe::TableDescription>,
    /// `final_answer` calls refused so far; after a few, the answer is taken without evidence.
    refused_answers: u32,
}

impl<'a, D: Database + ?Sized> Toolbox<'a, D> {
    pub(crate) fn new(
        db: &'a D,
        schema: &'a Schema,
        descriptions: &'a mut HashMap<String, describe::TableDescription>,
        config: &'a AgentConfig,
    ) -> Self {
        Toolbox {
            data: Data::new(db, schema, config),
            descriptions,
            refused_answers: 0,
        }
    }

    pub(crate) fn set_time_left(&mut self, ms: u32) {
        self.data.set_time_left(ms);
    }

    /// Runs one tool call. Never fails: failures are error outputs for the model to read.
    pub async fn call(&mut self, call: &ToolCall) -> ToolOutput {
        let args = match Args::parse(&call.arguments) {
            Ok(args) => args,
            Err(message) => return ToolOutput::error(format!("{}: {message}", call.name)),
        };
        let output = match call.name.as_str() {
            "list_tables" => Ok(self.list_tables()),
            "describe_table" => match args.text("table") {
                Ok(table) => Ok(describe::describe(self, &table).await),
                Err(message) => Err(message),
            },
            "run_sql" => match args.text("sql") {
                Ok(sql) => Ok(run_sql::run_sql(self, &sql).await),
                Err(message) => Err(message),
            },
            "cross_check" => match (args.text("sql_a"), args.text("sql_b")) {
                (Ok(a), Ok(b)) => Ok(cross_check::cross_check(self, &a, &b).await),
                (Err(message), _) | (_, Err(message)) => Err(message),
            },
            "final_answer" => answer::final_answer(self, &args).await,
            other => Err(format!(
                "there is no tool `{}`; the tools are list_tables, describe_table, run_sql, \
                 cross_check, final_answer",
                crate::text::cut_chars(other, 60)
            )),
        };
        output.unwrap_or_else(|message| ToolOutput::error(format!("{}: {message}", call.name)))
    }

    fn list_tables(&self) -> ToolOutput {
        ToolOutput::Tables {
            tables: self
                .data
                .schema()
                .tables
                .iter()
                .map(|table| TableSummary {
                    name: table.name.clone(),
                    kind: table.kind,
                    rows: table.row_count,
                    columns: table.columns.len(),
                })
                .collect(),
            note: None,
        }
    }

    pub(crate) fn data(&self) -> &Data<'a, D> {
        &self.data
    }
}
