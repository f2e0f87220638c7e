//! `run_sql(sql)`: one read-only query, its first rows, and what the model cannot see for itself.

use super::args::Args;
use super::{halve, spec, text_parameter, Mode, Offer, Tool, ToolOutput, Toolbox};
use crate::agent::traps::{self, Diagnostic};
use crate::agent::values::{round_ms, rows_json, serialize_row_count};
use crate::engine::{Database, QueryResult, ReadStats, RowCount};
use crate::llm::ToolSpec;
use crate::sql::analysis::Query;
use serde::Serialize;
use serde_json::json;

/// Text values in result rows are cut to this many characters.
const RESULT_VALUE_CHARS: usize = 200;

/// A query that ran, as the model and the page see it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SqlRun {
    /// The number of a structured `query` in its question, which `final_answer` names as its
    /// evidence; `None` for SQL the model wrote.
    #[serde(rename = "query", skip_serializing_if = "Option::is_none")]
    pub number: Option<usize>,
    /// The statement as it ran (tidied).
    pub sql: String,
    /// The values bound to its parameters `?1`, `?2`, … (a structured query's).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<serde_json::Value>,
    pub columns: Vec<String>,
    /// The first rows.
    pub rows: Vec<Vec<serde_json::Value>>,
    #[serde(serialize_with = "serialize_row_count")]
    pub total_rows: RowCount,
    /// True when the query produced more rows than `rows` holds.
    pub more_rows: bool,
    pub elapsed_ms: f64,
    /// What it read from a database read on demand (`None` in memory, where reading is free):
    /// the model sees what its queries cost.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reads: Option<ReadStats>,
    /// Traps the query may have fallen into, and what was found of its literals.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<Diagnostic>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl SqlRun {
    pub(crate) fn new(sql: String, result: &QueryResult, warnings: Vec<Diagnostic>) -> SqlRun {
        SqlRun {
            number: None,
            sql,
            values: Vec::new(),
            columns: result.columns.clone(),
            rows: rows_json(&result.rows, RESULT_VALUE_CHARS),
            total_rows: result.total_rows,
            more_rows: result.truncated,
            elapsed_ms: round_ms(result.elapsed_ms),
            reads: result.reads,
            warnings,
            note: None,
        }
    }

    pub(crate) fn shrink(&mut self) -> bool {
        let shrunk = halve(&mut self.rows, &mut self.note);
        if shrunk {
            self.more_rows = true;
        }
        shrunk
    }
}

/// `run_sql(sql)`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunSql {
    /// As the model wrote it (it is tidied before it runs).
    pub sql: String,
}

impl Tool for RunSql {
    const NAME: &'static str = "run_sql";

    fn spec(_: &Offer) -> ToolSpec {
        spec(
            Self::NAME,
            "Runs one read-only SQLite query (SELECT or WITH ... SELECT). Returns the columns, \
             the first rows, the total row count, and warnings about traps: a literal that does \
             not occur in the data (with the values that do), NOT IN over NULLs, = NULL, integer \
             division, dates written in another format.",
            json!({
                "type": "object",
                "properties": { "sql": text_parameter("One SQLite SELECT statement.") },
                "required": ["sql"],
            }),
        )
    }

    fn read(args: &Args, _: Mode) -> Result<Self, String> {
        Ok(RunSql {
            sql: args.text("sql")?,
        })
    }

    async fn run<D: Database + ?Sized>(
        &self,
        toolbox: &mut Toolbox<'_, D>,
    ) -> Result<ToolOutput, String> {
        Ok(run_sql(toolbox, &self.sql).await)
    }
}

async fn run_sql<D: Database + ?Sized>(toolbox: &Toolbox<'_, D>, sql: &str) -> ToolOutput {
    let sql = crate::sql::tidy::tidy(sql);
    if let Err(message) = super::refuse_knowledge_tables(&sql) {
        return ToolOutput::error(message);
    }
    match toolbox
        .data()
        .query(&sql, toolbox.data().config().rows_to_model)
        .await
    {
        Ok(result) => {
            let warnings = traps::inspect(toolbox.data(), &Query::read(&sql), &result).await;
            ToolOutput::Rows(SqlRun::new(sql, &result, warnings))
        }
        Err(error) => ToolOutput::error(traps::explain_error(toolbox.data().schema(), &error)),
    }
}
