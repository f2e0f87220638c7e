//! `describe_table(table)`: a table's columns and keys, and what its data looks like: NULL and
//! distinct counts, the values themselves when few, ranges of numbers and dates, sample rows.
//! Statistics over a big table come from its first rows, and say so.

use super::args::Args;
use super::{halve, spec, text_parameter, Mode, Offer, Tool, ToolOutput, Toolbox};
use crate::agent::question_database::{
    sampled_source, FEW_VALUES, MOST_FREQUENT, SAMPLE_ROWS, STATISTIC_VALUE_CHARS,
};
use crate::agent::traps::near::{table_hint, TableHint};
use crate::agent::values::{rows_json, value_json, TableRows};
use crate::engine::schema::Column;
use crate::engine::{Database, DbError, Table, TableKind, Value};
use crate::knowledge::budget::{one_line, DESCRIBED_NOTE_CHARS};
use crate::knowledge::Knowledge;
use crate::llm::ToolSpec;
use crate::sql::analysis::date_shape;
use crate::sql::{quote_ident, quote_literal};
use serde::Serialize;
use serde_json::json;

const SAMPLE_ROW_COUNT: usize = 3;
/// Wider tables have statistics for their first this-many columns only.
const PROFILED_COLUMNS: usize = 100;

type Counted = (serde_json::Value, u64);

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TableDescription {
    pub table: String,
    #[serde(skip_serializing_if = "super::list_tables::is_table")]
    pub kind: TableKind,
    /// As in `list_tables`: a number when exact, else what the count is.
    #[serde(skip_serializing_if = "TableRows::is_view")]
    pub rows: TableRows,
    /// Set when the statistics come from part of the data.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub statistics_from: Option<String>,
    /// What the table means, from the notes kept with the database.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table_note: Option<String>,
    pub columns: Vec<ColumnProfile>,
    /// Keys of this table that point at others.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub foreign_keys: Vec<KeyLink>,
    /// Keys of other tables that point at this one.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub referenced_by: Vec<KeyLink>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub indexes: Vec<IndexInfo>,
    pub sample_rows: Vec<Vec<serde_json::Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ColumnProfile {
    pub name: String,
    #[serde(rename = "type")]
    pub decl_type: String,
    #[serde(skip_serializing_if = "is_false")]
    pub not_null: bool,
    #[serde(skip_serializing_if = "is_false")]
    pub primary_key: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
    /// What the column means, from the notes kept with the database.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    pub nulls: Option<u64>,
    pub distinct: Option<u64>,
    /// Every value with its count, NULL included, when there are few.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<Counted>,
    /// Otherwise the most frequent values with their counts.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub most_frequent: Vec<Counted>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<serde_json::Value>,
}

/// `columns` of one table refer to `other_columns` of `other_table`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct KeyLink {
    pub columns: Vec<String>,
    pub other_table: String,
    pub other_columns: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct IndexInfo {
    pub name: String,
    pub columns: Vec<String>,
    #[serde(skip_serializing_if = "is_false")]
    pub unique: bool,
}

fn is_false(flag: &bool) -> bool {
    !flag
}

impl TableDescription {
    pub(crate) fn shrink(&mut self) -> bool {
        let mut shrunk = false;
        for column in &mut self.columns {
            shrunk |= halve(&mut column.values, &mut self.note);
            shrunk |= halve(&mut column.most_frequent, &mut self.note);
        }
        shrunk || halve(&mut self.sample_rows, &mut self.note) || self.drop_column_notes()
    }

    /// Drops the notes of the last half of the columns that have one; false when none has.
    fn drop_column_notes(&mut self) -> bool {
        let noted: Vec<usize> = (0..self.columns.len())
            .filter(|&at| self.columns[at].note.is_some())
            .collect();
        if noted.is_empty() {
            return false;
        }
        for &at in &noted[noted.len() / 2..] {
            self.columns[at].note = None;
        }
        self.note = Some("some column notes were cut to fit the result size".into());
        true
    }

    /// This description with the notes `knowledge` has on the table and its columns (added
    /// when shown, not cached: the notes may change between questions).
    fn with_notes(mut self, knowledge: &Knowledge) -> TableDescription {
        let shown = |text: &str| one_line(text, DESCRIBED_NOTE_CHARS);
        self.table_note = knowledge.table_note(&self.table).map(|n| shown(&n.text));
        for column in &mut self.columns {
            column.note = knowledge
                .column_note(&self.table, &column.name)
                .map(|n| shown(&n.text));
        }
        self
    }
}

/// `describe_table(table)`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DescribeTable {
    /// As the model wrote it; looked up without regard to case.
    pub table: String,
}

impl Tool for DescribeTable {
    const NAME: &'static str = "describe_table";

    fn spec(_: &Offer) -> ToolSpec {
        spec(
            Self::NAME,
            "Describes one table or view: columns (type, NOT NULL, primary key, default), foreign \
             keys both ways, indexes, 3 sample rows, and per column the NULL count, the distinct \
             count, its values with counts (all when few, else the most frequent) and min/max.",
            json!({
                "type": "object",
                "properties": { "table": text_parameter("The table or view name, as in the schema.") },
                "required": ["table"],
            }),
        )
    }

    fn read(args: &Args, _: Mode) -> Result<Self, String> {
        Ok(DescribeTable {
            table: args.text("table")?,
        })
    }

    async fn run<D: Database + ?Sized>(
        &self,
        toolbox: &mut Toolbox<'_, D>,
    ) -> Result<ToolOutput, String> {
        Ok(describe(toolbox, &self.table).await)
    }
}

async fn describe<D: Database + ?Sized>(toolbox: &mut Toolbox<'_, D>, name: &str) -> ToolOutput {
    let Some(table) = toolbox.data().schema().table(name) else {
        return ToolOutput::error(unknown_table(toolbox, name));
    };
    let key = table.name.to_lowercase();
    let description = match toolbox.descriptions.get(&key) {
        Some(cached) => cached.clone(),
        None => {
            let built = build(toolbox, table).await;
            toolbox.descriptions.insert(key, built.clone());
            built
        }
    };
    ToolOutput::Table(description.with_notes(toolbox.knowledge))
}

fn unknown_table<D: Database + ?Sized>(toolbox: &Toolbox<'_, D>, name: &str) -> String {
    let shown = quote_literal(&crate::text::cut_chars(name, 60));
    match table_hint(toolbox.data().schema(), name) {
        TableHint::Near(close) => format!(
            "there is no table or view named {shown}; did you mean: {}?",
            close.join(", ")
        ),
        TableHint::Tables(all) => format!(
            "there is no table or view named {shown}; the tables are: {}",
            all.join(", ")
        ),
    }
}

async fn build<D: Database + ?Sized>(toolbox: &Toolbox<'_, D>, table: &Table) -> TableDescription {
    let (source, sampled) = sampled_source(table);
    let mut description = TableDescription {
        table: table.name.clone(),
        kind: table.kind,
        rows: TableRows::of(table.kind, table.row_count),
        statistics_from: sampled.then(|| match (table.kind, table.row_count) {
            (TableKind::View, _) => {
                format!("at most the first {SAMPLE_ROWS} rows (rows of a view are not counted)")
            }
            (_, Some(_)) => format!("the first {SAMPLE_ROWS} rows"),
            (_, None) => format!("at most the first {SAMPLE_ROWS} rows (its rows are not counted)"),
        }),
        table_note: None,
        columns: table.columns.iter().map(profile_of).collect(),
        foreign_keys: table
            .foreign_keys
            .iter()
            .map(|key| KeyLink {
                columns: key.from_columns.clone(),
                other_table: key.to_table.clone(),
                other_columns: key.to_columns.clone(),
            })
            .collect(),
        referenced_by: referenced_by(toolbox, table),
        indexes: indexes(toolbox, table).await,
        sample_rows: Vec::new(),
        note: None,
    };
    let name = quote_ident(&table.name);
    if let Ok(sample) = toolbox
        .data()
        .query(
            &format!("SELECT * FROM {name} LIMIT {SAMPLE_ROW_COUNT}"),
            SAMPLE_ROW_COUNT,
        )
        .await
    {
        description.sample_rows = rows_json(&sample.rows, STATISTIC_VALUE_CHARS);
    }
    if let Err(error) = add_statistics(toolbox, &source, table, &mut description.columns).await {
        description.note = Some(format!("statistics could not be computed: {error}"));
    }
    if table.columns.len() > PROFILED_COLUMNS {
        description.note = Some(format!(
            "statistics are given for the first {PROFILED_COLUMNS} columns only"
        ));
    }
    description
}

fn profile_of(column: &Column) -> ColumnProfile {
    ColumnProfile {
        name: column.name.clone(),
        decl_type: column.decl_type.clone(),
        not_null: column.not_null,
        primary_key: column.primary_key > 0,
        default: column.default.clone(),
        note: None,
        nulls: None,
        distinct: None,
        values: Vec::new(),
        most_frequent: Vec::new(),
        min: None,
        max: None,
    }
}

fn referenced_by<D: Database + ?Sized>(toolbox: &Toolbox<'_, D>, table: &Table) -> Vec<KeyLink> {
    let mut links = Vec::new();
    for other in &toolbox.data().schema().tables {
        for key in &other.foreign_keys {
            if key.to_table.eq_ignore_ascii_case(&table.name) {
                links.push(KeyLink {
                    columns: key.to_columns.clone(),
                    other_table: other.name.clone(),
                    other_columns: key.from_columns.clone(),
                });
            }
        }
    }
    links
}

async fn indexes<D: Database + ?Sized>(toolbox: &Toolbox<'_, D>, table: &Table) -> Vec<IndexInfo> {
    if table.kind == TableKind::View {
        return Vec::new();
    }
    let sql = format!(
        "SELECT il.name, il.\"unique\", ii.name FROM pragma_index_list({t}) AS il \
         JOIN pragma_index_info(il.name) AS ii ORDER BY il.name, ii.seqno",
        t = quote_literal(&table.name)
    );
    let Ok(result) = toolbox.data().query(&sql, 1_000).await else {
        return Vec::new();
    };
    let mut found: Vec<IndexInfo> = Vec::new();
    for row in &result.rows {
        let name = row[0].to_string();
        match found.last_mut() {
            Some(index) if index.name == name => index.columns.push(row[2].to_string()),
            _ => found.push(IndexInfo {
                name,
                columns: vec![row[2].to_string()],
                unique: matches!(row[1], Value::Integer(1)),
            }),
        }
    }
    found
}

/// NULL and distinct counts and min/max in one pass, then the values of each column.
async fn add_statistics<D: Database + ?Sized>(
    toolbox: &Toolbox<'_, D>,
    source: &str,
    table: &Table,
    profiles: &mut [ColumnProfile],
) -> Result<(), DbError> {
    let profiled = &table.columns[..table.columns.len().min(PROFILED_COLUMNS)];
    if profiled.is_empty() {
        return Ok(());
    }
    let mut parts = vec!["count(*)".to_string()];
    for column in profiled {
        let c = quote_ident(&column.name);
        parts.push(format!(
            "count({c}), count(DISTINCT {c}), min({c}), max({c})"
        ));
    }
    let sql = format!("SELECT {} FROM {source}", parts.join(", "));
    let result = toolbox.data().query(&sql, 1).await?;
    let Some(row) = result.rows.first() else {
        return Ok(());
    };
    let number = |value: &Value| value.as_f64().unwrap_or(0.0) as u64;
    let total = number(&row[0]);
    for (i, column) in profiled.iter().enumerate() {
        let stats = &row[1 + 4 * i..5 + 4 * i];
        let (non_null, distinct) = (number(&stats[0]), number(&stats[1]));
        let profile = &mut profiles[i];
        profile.nulls = Some(total - non_null.min(total));
        profile.distinct = Some(distinct);
        if has_range(column, &stats[2]) {
            profile.min = Some(value_json(&stats[2], STATISTIC_VALUE_CHARS));
            profile.max = Some(value_json(&stats[3], STATISTIC_VALUE_CHARS));
        }
        // The values of a numeric key say nothing its range does not.
        let numeric_key = column.primary_key > 0 && profile.min.is_some();
        if numeric_key {
            continue;
        }
        if distinct <= FEW_VALUES as u64 {
            let rows = toolbox
                .data()
                .value_counts(source, &column.name, FEW_VALUES + 1, false)
                .await;
            profile.values = counted(rows);
        } else if distinct < non_null {
            let rows = toolbox
                .data()
                .value_counts(source, &column.name, MOST_FREQUENT, true)
                .await;
            profile.most_frequent = counted(rows);
        }
    }
    Ok(())
}

/// Numbers and dates have a meaningful range; names and codes do not.
fn has_range(column: &Column, min: &Value) -> bool {
    let declared = column.decl_type.to_ascii_uppercase();
    let numeric_type = ["INT", "REAL", "FLOA", "DOUB", "NUM", "DEC"]
        .iter()
        .any(|t| declared.contains(t));
    let date_type = declared.contains("DATE") || declared.contains("TIME");
    match min {
        Value::Null | Value::Blob(_) => false,
        Value::Integer(_) | Value::Real(_) => true,
        Value::Text(text) => numeric_type || date_type || date_shape(text).is_some(),
    }
}

/// Rows of (value, count) as the model reads them; none when they could not be read.
fn counted(rows: Result<Vec<Vec<Value>>, DbError>) -> Vec<Counted> {
    rows.unwrap_or_default()
        .iter()
        .map(|row| {
            let count = row[1].as_f64().unwrap_or(0.0) as u64;
            (value_json(&row[0], STATISTIC_VALUE_CHARS), count)
        })
        .collect()
}
