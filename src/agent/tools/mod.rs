//! The tools the model may call. Their names and argument names are a contract with the prompt
//! and with the model: `list_tables()`, `describe_table(table)`, `run_sql(sql)`,
//! `cross_check(sql_a, sql_b)`, `query(table, fields, aggregates, filters, group_by, order_by,
//! limit)`, `final_answer(answer, sql | query, notes)`. A [`Mode`] decides which are offered:
//! in safe mode the model writes no SQL at all.
//!
//! Every mistake (bad arguments, an unknown tool, SQL that SQLite or the guard refuses) comes back
//! to the model as that tool's error result, so it can correct itself; none ends the question.
//! Results go to the model as compact JSON capped at [`RESULT_BYTES`], and to the page as
//! [`ToolOutput`] data.
//!
//! Each tool lives in the file named after it: its arguments type (a [`Tool`]: name, spec,
//! reading, running). The one list below makes [`ToolCall`], which a model's raw call
//! ([`crate::llm::RawToolCall`]) is read into once ([`ToolCall::read`]), and [`ToolName`], the
//! tools a mode may offer.

mod args;
pub mod cross_check;
pub mod describe_table;
pub mod final_answer;
pub mod list_tables;
pub mod query;
pub mod run_sql;

use super::question_database::QuestionDatabase;
use super::AgentConfig;
use crate::engine::{Database, Schema};
use crate::knowledge::{is_knowledge_table, Knowledge};
use crate::llm::ToolSpec;
use crate::sql::analysis::Query;
use crate::text::cap_bytes;
use args::Args;
use query::{Catalog, Compiled};
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::collections::HashMap;

/// What the model may do: write read-only SQL, or only ask structured queries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// `run_sql` and `cross_check`: the model writes SQL, which the guard checks.
    #[default]
    Sql,
    /// `query`: the model names a table, fields and filters; the app writes the SQL, with the
    /// values bound. A call to `run_sql` or `cross_check` is refused.
    Safe,
}

impl Mode {
    /// The tools offered in this mode, in the order the model reads them.
    pub fn tools(self) -> &'static [ToolName] {
        use ToolName::*;
        match self {
            Mode::Sql => &[ListTables, DescribeTable, RunSql, CrossCheck, FinalAnswer],
            Mode::Safe => &[ListTables, DescribeTable, Query, FinalAnswer],
        }
    }
}

/// What the tool specs are made for: the mode, and the fields `query` offers (empty in SQL
/// mode, where it is not offered).
#[derive(Clone, Copy, Debug)]
pub struct Offer<'a> {
    pub mode: Mode,
    pub catalog: &'a Catalog,
}

/// One tool, in the file named after it: its arguments as a type, its name and spec, and what
/// it does.
pub(crate) trait Tool: Sized {
    const NAME: &'static str;
    /// What the model reads about the tool: what it does, and its arguments' JSON Schema.
    fn spec(offer: &Offer) -> ToolSpec;
    /// The arguments, from what the model wrote. `Err` says what is wrong, for the model.
    fn read(args: &Args, mode: Mode) -> Result<Self, String>;
    /// Runs the tool. `Err` is a message for the model.
    async fn run<D: Database + ?Sized>(
        &self,
        toolbox: &mut Toolbox<'_, D>,
    ) -> Result<ToolOutput, String>;
}

/// Makes, from the one list of tools below, the typed call ([`ToolCall`]), the names a mode may
/// offer ([`ToolName`]), and the matches that read and run each tool.
macro_rules! tools {
    ($($variant:ident($tool:ty)),+ $(,)?) => {
        /// A tool call as the model meant it, read once: which tool, with its arguments.
        #[derive(Clone, Debug, PartialEq, Serialize)]
        #[serde(tag = "tool", rename_all = "snake_case")]
        pub enum ToolCall {
            $($variant($tool)),+
        }

        /// A tool without its arguments: what a mode offers the model.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum ToolName {
            $($variant),+
        }

        impl ToolName {
            /// Every tool, in the order the model reads them.
            pub const ALL: &'static [ToolName] = &[$(ToolName::$variant),+];

            /// The name the model calls it by.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(ToolName::$variant => <$tool as Tool>::NAME),+
                }
            }

            pub fn spec(self, offer: &Offer) -> ToolSpec {
                match self {
                    $(ToolName::$variant => <$tool as Tool>::spec(offer)),+
                }
            }

            fn read_arguments(self, args: &Args, mode: Mode) -> Result<ToolCall, String> {
                match self {
                    $(ToolName::$variant => <$tool as Tool>::read(args, mode).map(ToolCall::$variant)),+
                }
            }
        }

        impl ToolCall {
            pub fn name(&self) -> ToolName {
                match self {
                    $(ToolCall::$variant(_) => ToolName::$variant),+
                }
            }

            async fn run<D: Database + ?Sized>(
                &self,
                toolbox: &mut Toolbox<'_, D>,
            ) -> Result<ToolOutput, String> {
                match self {
                    $(ToolCall::$variant(tool) => tool.run(toolbox).await),+
                }
            }
        }
    };
}

// The tools. Adding one: a file named after it whose arguments type implements [`Tool`], and
// one line here.
tools! {
    ListTables(list_tables::ListTables),
    DescribeTable(describe_table::DescribeTable),
    RunSql(run_sql::RunSql),
    CrossCheck(cross_check::CrossCheck),
    Query(query::StructuredQuery),
    FinalAnswer(final_answer::FinalAnswer),
}

impl ToolCall {
    /// Reads a call the model made to tool `name` with `arguments` (JSON text), among the
    /// tools `mode` offers. `Err` is the message for the model: the arguments are not JSON, the
    /// tool is not offered, or an argument is missing or of the wrong kind.
    pub fn read(name: &str, arguments: &str, mode: Mode) -> Result<ToolCall, String> {
        let for_the_model = |message: String| format!("{name}: {message}");
        let args = Args::parse(arguments).map_err(for_the_model)?;
        let offered = mode.tools();
        let Some(tool) = offered.iter().find(|tool| tool.as_str() == name) else {
            let names: Vec<&str> = offered.iter().map(|tool| tool.as_str()).collect();
            return Err(for_the_model(format!(
                "there is no tool `{}`; the tools are {}",
                crate::text::cut_chars(name, 60),
                names.join(", ")
            )));
        };
        tool.read_arguments(&args, mode).map_err(for_the_model)
    }
}

/// The specs of the tools the offer's mode offers, as sent with every model call.
pub fn specs(offer: &Offer) -> Vec<ToolSpec> {
    offer
        .mode
        .tools()
        .iter()
        .map(|tool| tool.spec(offer))
        .collect()
}

/// A spec: the tool's name, what it does, and its arguments' JSON Schema.
pub(crate) fn spec(name: &str, description: &str, parameters: serde_json::Value) -> ToolSpec {
    ToolSpec {
        name: name.to_string(),
        description: description.to_string(),
        parameters,
    }
}

/// A text argument's JSON Schema.
pub(crate) fn text_parameter(description: &str) -> serde_json::Value {
    json!({ "type": "string", "description": description })
}

/// The most a tool result may weigh in the model's context.
pub const RESULT_BYTES: usize = 8 * 1024;

/// What a tool produced: structured for the page, turned into text for the model.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ToolOutput {
    Tables {
        tables: Vec<list_tables::TableSummary>,
        #[serde(skip_serializing_if = "Option::is_none")]
        note: Option<String>,
    },
    Table(describe_table::TableDescription),
    Rows(run_sql::SqlRun),
    CrossCheck(cross_check::CrossCheckReport),
    Answer(final_answer::AcceptedAnswer),
    Error {
        message: String,
    },
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

/// The model's SQL may not read askdb's own tables ([`crate::knowledge::KNOWLEDGE_TABLES`]):
/// they hold notes about the data, not data. `Err` says so, for the model.
pub(crate) fn refuse_knowledge_tables(sql: &str) -> Result<(), String> {
    let named: Vec<String> = Query::read(sql)
        .tables()
        .into_iter()
        .filter(|table| is_knowledge_table(&table.name))
        .map(|table| table.name)
        .collect();
    if named.is_empty() {
        return Ok(());
    }
    Err(format!(
        "not run: {} holds askdb's notes about the data, not data; the notes you need are \
         already in the schema and in describe_table. Query the data's own tables.",
        named.join(", ")
    ))
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

/// What the tools work with during one question.
pub struct Toolbox<'a, D: ?Sized> {
    data: QuestionDatabase<'a, D>,
    descriptions: &'a mut HashMap<String, describe_table::TableDescription>,
    /// Notes on the tables and columns, for `describe_table`.
    knowledge: &'a Knowledge,
    /// The fields `query` offers (empty in SQL mode).
    catalog: &'a Catalog,
    /// The structured queries that ran in this question, numbered from 1, for `final_answer`
    /// to name as its evidence.
    queries_run: Vec<Compiled>,
    /// `final_answer` calls refused so far; after a few, the answer is taken without evidence.
    refused_answers: u32,
}

impl<'a, D: Database + ?Sized> Toolbox<'a, D> {
    pub(crate) fn new(
        db: &'a D,
        schema: &'a Schema,
        descriptions: &'a mut HashMap<String, describe_table::TableDescription>,
        knowledge: &'a Knowledge,
        catalog: &'a Catalog,
        config: &'a AgentConfig,
    ) -> Self {
        Toolbox {
            data: QuestionDatabase::new(db, schema, config),
            descriptions,
            knowledge,
            catalog,
            queries_run: Vec::new(),
            refused_answers: 0,
        }
    }

    pub(crate) fn set_time_left(&mut self, ms: u32) {
        self.data.set_time_left(ms);
    }

    /// Runs one tool call. Never fails: failures are error outputs for the model to read.
    pub async fn run(&mut self, call: &ToolCall) -> ToolOutput {
        call.run(self).await.unwrap_or_else(|message| {
            ToolOutput::error(format!("{}: {message}", call.name().as_str()))
        })
    }

    pub(crate) fn data(&self) -> &QuestionDatabase<'a, D> {
        &self.data
    }

    /// Structured query number `number` of this question, for `final_answer`.
    pub(crate) fn query_run(&self, number: usize) -> Result<Compiled, String> {
        match number.checked_sub(1).and_then(|i| self.queries_run.get(i)) {
            Some(compiled) => Ok(compiled.clone()),
            None if self.queries_run.is_empty() => Err(format!(
                "there is no query {number}: no query has run yet in this question; run one \
                 with `query` first"
            )),
            None => Err(format!(
                "there is no query {number}: the queries that ran are numbered 1 to {}",
                self.queries_run.len()
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_is_read_once_into_its_tool() {
        let call = ToolCall::read("run_sql", r#"{"sql": "SELECT 1"}"#, Mode::Sql).unwrap();
        assert_eq!(
            call,
            ToolCall::RunSql(run_sql::RunSql {
                sql: "SELECT 1".into()
            })
        );
        assert_eq!(call.name().as_str(), "run_sql");
        assert_eq!(
            ToolCall::read("describe_table", "{}", Mode::Sql).unwrap_err(),
            "describe_table: the argument `table` is missing"
        );
    }

    #[test]
    fn a_tool_not_offered_is_refused_with_the_tools_that_are() {
        for name in ["run_sql", "cross_check"] {
            assert_eq!(
                ToolCall::read(name, r#"{"sql": "SELECT 1"}"#, Mode::Safe).unwrap_err(),
                format!(
                    "{name}: there is no tool `{name}`; the tools are list_tables, \
                     describe_table, query, final_answer"
                )
            );
        }
        assert!(ToolCall::read("query", r#"{"table": "t"}"#, Mode::Sql).is_err());
        let catalog = Catalog::default();
        let names = |mode| -> Vec<String> {
            let offer = Offer {
                mode,
                catalog: &catalog,
            };
            specs(&offer).into_iter().map(|s| s.name).collect()
        };
        assert_eq!(
            names(Mode::Safe),
            ["list_tables", "describe_table", "query", "final_answer"]
        );
        assert_eq!(
            names(Mode::Sql),
            [
                "list_tables",
                "describe_table",
                "run_sql",
                "cross_check",
                "final_answer"
            ]
        );
    }
}
