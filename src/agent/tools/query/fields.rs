//! The fields a structured query may name, read once per database: each column's kind (text,
//! enumeration, number, date), decided from its declared type and its data, and the operators
//! that kind allows.

use crate::agent::question_database::{sampled_source, QuestionDatabase};
use crate::engine::schema::Column;
use crate::engine::{Database, RowCount, Table, TableKind, Value};
use crate::sql::analysis::date_shape;
use crate::sql::quote_ident;
use serde::Serialize;

/// A text column with at most this many distinct values is an enumeration.
pub const ENUMERATION_VALUES: usize = 50;
/// Longer values make a column free text, however few they are.
const ENUMERATION_VALUE_CHARS: usize = 100;
/// Tables and columns beyond these are left out (the tool's description could not hold them).
const MAX_TABLES: usize = 200;
const MAX_COLUMNS: usize = 100;

/// What a field holds, which decides its operators and how a value is read.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum FieldKind {
    Text,
    /// Text with few distinct values: these, sorted (NULL not among them).
    Enumeration {
        values: Vec<String>,
    },
    Number,
    /// Text dates written year first with padded numbers (so they sort as text), in `shape`
    /// (`YYYY-MM-DD`, `YYYY-MM-DD HH:MM:SS`, …); `first` and `last` as stored, over the whole
    /// table when `whole_table`, else over its first rows.
    Date {
        shape: String,
        first: String,
        last: String,
        whole_table: bool,
    },
}

/// What a filter does. The names are the ones the model writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operator {
    Eq,
    Ne,
    Contains,
    StartsWith,
    In,
    IsNull,
    NotNull,
    Lt,
    Lte,
    Gt,
    Gte,
    Between,
    On,
    Before,
    After,
}

impl Operator {
    pub const ALL: [Operator; 15] = [
        Operator::Eq,
        Operator::Ne,
        Operator::Contains,
        Operator::StartsWith,
        Operator::In,
        Operator::IsNull,
        Operator::NotNull,
        Operator::Lt,
        Operator::Lte,
        Operator::Gt,
        Operator::Gte,
        Operator::Between,
        Operator::On,
        Operator::Before,
        Operator::After,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Operator::Eq => "eq",
            Operator::Ne => "ne",
            Operator::Contains => "contains",
            Operator::StartsWith => "starts_with",
            Operator::In => "in",
            Operator::IsNull => "is_null",
            Operator::NotNull => "not_null",
            Operator::Lt => "lt",
            Operator::Lte => "lte",
            Operator::Gt => "gt",
            Operator::Gte => "gte",
            Operator::Between => "between",
            Operator::On => "on",
            Operator::Before => "before",
            Operator::After => "after",
        }
    }

    pub fn parse(name: &str) -> Option<Operator> {
        Operator::ALL
            .into_iter()
            .find(|op| op.name().eq_ignore_ascii_case(name.trim()))
    }
}

impl FieldKind {
    /// The operators a field of this kind allows. Every kind takes `is_null` and `not_null`
    /// (a missing value is a question of its own: "orders without a customer").
    pub fn operators(&self) -> &'static [Operator] {
        use Operator::*;
        match self {
            FieldKind::Text => &[Eq, Ne, Contains, StartsWith, In, IsNull, NotNull],
            FieldKind::Enumeration { .. } => &[Eq, Ne, In, IsNull, NotNull],
            FieldKind::Number => &[Eq, Ne, Lt, Lte, Gt, Gte, Between, IsNull, NotNull],
            FieldKind::Date { .. } => &[On, Before, After, Between, IsNull, NotNull],
        }
    }

    /// The kind in a word, as the tool's description names it.
    pub fn label(&self) -> &'static str {
        match self {
            FieldKind::Text => "text",
            FieldKind::Enumeration { .. } => "enum",
            FieldKind::Number => "number",
            FieldKind::Date { .. } => "date",
        }
    }
}

/// One column of a table, as a structured query may name it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Field {
    pub name: String,
    #[serde(flatten)]
    pub kind: FieldKind,
    /// When the column is a declared single-column foreign key: the table and column it points
    /// at, so that `name.other_field` reads a field of that table.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub key_to: Option<(String, String)>,
}

/// One table's fields.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TableFields {
    pub name: String,
    /// A table or a view: a view's rows are never counted.
    pub kind: TableKind,
    pub rows: Option<RowCount>,
    pub fields: Vec<Field>,
}

impl TableFields {
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields
            .iter()
            .find(|field| field.name.eq_ignore_ascii_case(name))
    }
}

/// Every table's fields.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Catalog {
    pub tables: Vec<TableFields>,
}

impl Catalog {
    pub fn table(&self, name: &str) -> Option<&TableFields> {
        self.tables
            .iter()
            .find(|table| table.name.eq_ignore_ascii_case(name))
    }

    /// Reads the kinds from the data: statistics over each table's first rows, then the
    /// values of each column that may be an enumeration, over the whole table. A column whose
    /// statistics cannot be read (a query that fails or runs out of time) counts as text.
    pub(crate) async fn read<D: Database + ?Sized>(data: &QuestionDatabase<'_, D>) -> Catalog {
        let schema = data.schema();
        let mut tables = Vec::new();
        for table in schema.tables.iter().take(MAX_TABLES) {
            let columns = &table.columns[..table.columns.len().min(MAX_COLUMNS)];
            let statistics = statistics(data, table, columns).await;
            let mut fields = Vec::new();
            for (i, column) in columns.iter().enumerate() {
                let kind = match statistics.as_ref().map(|rows| &rows[i]) {
                    Some(stats) => kind_of(data, table, column, stats).await,
                    None => declared_kind(column),
                };
                fields.push(Field {
                    name: column.name.clone(),
                    kind,
                    key_to: key_target(schema, table, &column.name),
                });
            }
            tables.push(TableFields {
                name: table.name.clone(),
                kind: table.kind,
                rows: table.row_count,
                fields,
            });
        }
        Catalog { tables }
    }
}

/// What the first rows of one column show.
struct Statistics {
    non_null: u64,
    distinct: u64,
    numbers: u64,
    texts: u64,
    longest: u64,
    /// The smallest and largest text values.
    first_text: Option<String>,
    last_text: Option<String>,
}

/// Per column, one pass over the table's first rows; `None` when the query failed.
async fn statistics<D: Database + ?Sized>(
    data: &QuestionDatabase<'_, D>,
    table: &Table,
    columns: &[Column],
) -> Option<Vec<Statistics>> {
    if columns.is_empty() {
        return Some(Vec::new());
    }
    let (source, _) = sampled_source(table);
    let parts: Vec<String> = columns
        .iter()
        .map(|column| {
            let c = quote_ident(&column.name);
            format!(
                "count({c}), count(DISTINCT {c}), sum(typeof({c}) IN ('integer', 'real')), \
                 sum(typeof({c}) = 'text'), max(length({c})), \
                 min(CASE WHEN typeof({c}) = 'text' THEN {c} END), \
                 max(CASE WHEN typeof({c}) = 'text' THEN {c} END)"
            )
        })
        .collect();
    let sql = format!("SELECT {} FROM {source}", parts.join(", "));
    let result = data.query(&sql, 1).await.ok()?;
    let row = result.rows.first()?;
    let number = |value: &Value| value.as_f64().unwrap_or(0.0) as u64;
    let text = |value: &Value| match value {
        Value::Text(text) => Some(text.clone()),
        _ => None,
    };
    Some(
        row.chunks(7)
            .map(|stats| Statistics {
                non_null: number(&stats[0]),
                distinct: number(&stats[1]),
                numbers: number(&stats[2]),
                texts: number(&stats[3]),
                longest: number(&stats[4]),
                first_text: text(&stats[5]),
                last_text: text(&stats[6]),
            })
            .collect(),
    )
}

/// The kind of a column with no statistics (or no values): from its declared type alone.
fn declared_kind(column: &Column) -> FieldKind {
    let declared = column.decl_type.to_ascii_uppercase();
    let numeric = ["INT", "REAL", "FLOA", "DOUB", "NUM", "DEC"]
        .iter()
        .any(|t| declared.contains(t));
    if numeric {
        FieldKind::Number
    } else {
        FieldKind::Text
    }
}

async fn kind_of<D: Database + ?Sized>(
    data: &QuestionDatabase<'_, D>,
    table: &Table,
    column: &Column,
    stats: &Statistics,
) -> FieldKind {
    if stats.non_null == 0 {
        return declared_kind(column);
    }
    if stats.numbers == stats.non_null {
        return FieldKind::Number;
    }
    if stats.texts != stats.non_null {
        // Numbers and text mixed, or blobs: only what works on any text.
        return FieldKind::Text;
    }
    if let (Some(first), Some(last)) = (&stats.first_text, &stats.last_text) {
        if let Some(shape) = sortable_date_shape(first, last) {
            return FieldKind::Date {
                shape,
                first: first.clone(),
                last: last.clone(),
                whole_table: !sampled_source(table).1,
            };
        }
    }
    let few = stats.distinct <= ENUMERATION_VALUES as u64
        && stats.distinct < stats.non_null
        && stats.longest <= ENUMERATION_VALUE_CHARS as u64;
    if few {
        if let Some(values) = every_value(data, table, column).await {
            return FieldKind::Enumeration { values };
        }
    }
    FieldKind::Text
}

/// The shape both ends of a column share, when it is a year-first date with padded numbers:
/// such dates sort as text, so `before` and `after` can compare them as stored.
fn sortable_date_shape(first: &str, last: &str) -> Option<String> {
    let shape = date_shape(first)?;
    let date_part = shape.split([' ', 'T']).next().unwrap_or_default();
    let sortable = matches!(
        date_part,
        "YYYY-MM-DD" | "YYYY/MM/DD" | "YYYY.MM.DD" | "YYYYMMDD" | "YYYY-MM" | "YYYY/MM"
    );
    (sortable && date_shape(last).as_deref() == Some(shape.as_str())).then_some(shape)
}

/// Every value of `column` in the whole table, sorted, when there are at most
/// [`ENUMERATION_VALUES`] and all are text.
async fn every_value<D: Database + ?Sized>(
    data: &QuestionDatabase<'_, D>,
    table: &Table,
    column: &Column,
) -> Option<Vec<String>> {
    let c = quote_ident(&column.name);
    let sql = format!(
        "SELECT DISTINCT {c} FROM {} WHERE {c} IS NOT NULL ORDER BY {c} LIMIT {}",
        quote_ident(&table.name),
        ENUMERATION_VALUES + 1
    );
    let result = data.query(&sql, ENUMERATION_VALUES + 1).await.ok()?;
    if result.rows.len() > ENUMERATION_VALUES {
        return None;
    }
    result
        .rows
        .iter()
        .map(|row| match row.first() {
            Some(Value::Text(text)) => Some(text.clone()),
            _ => None,
        })
        .collect()
}

/// The table and column a single-column foreign key on `column` points at (the other table's
/// primary key when the key does not name one).
fn key_target(
    schema: &crate::engine::Schema,
    table: &Table,
    column: &str,
) -> Option<(String, String)> {
    let key = table
        .foreign_keys
        .iter()
        .find(|key| key.from_columns.len() == 1 && key.from_columns[0] == column)?;
    let target = schema.table(&key.to_table)?;
    let to_column = match key.to_columns.first() {
        Some(named) => target.column(named)?.name.clone(),
        None => {
            let mut primary = target.columns.iter().filter(|c| c.primary_key > 0);
            match (primary.next(), primary.next()) {
                (Some(only), None) => only.name.clone(),
                _ => return None,
            }
        }
    };
    Some((target.name.clone(), to_column))
}
