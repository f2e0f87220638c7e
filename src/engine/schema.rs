//! What is in the database: tables and views, their columns, keys and row counts.
//!
//! Read with ordinary read-only queries over `sqlite_schema` and the `pragma_*` table-valued
//! functions, so every [`Database`] gets it for free and the rules still apply.

use super::{query, Database, DbError, QueryLimits, RowCount, Value};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TableKind {
    Table,
    View,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Column {
    pub name: String,
    /// The declared type, as written (may be empty).
    pub decl_type: String,
    pub not_null: bool,
    /// Position in the primary key (1-based), 0 when not part of it.
    pub primary_key: u32,
    pub default: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ForeignKey {
    pub from_columns: Vec<String>,
    pub to_table: String,
    /// Empty when the key refers to the other table's primary key implicitly.
    pub to_columns: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Table {
    pub name: String,
    pub kind: TableKind,
    pub columns: Vec<Column>,
    pub foreign_keys: Vec<ForeignKey>,
    /// Counted for tables; `None` for views (counting one can cost as much as the view itself)
    /// or when counting failed.
    pub row_count: Option<RowCount>,
}

impl Table {
    pub fn column(&self, name: &str) -> Option<&Column> {
        self.columns
            .iter()
            .find(|c| c.name.eq_ignore_ascii_case(name))
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Schema {
    /// Sorted by name.
    pub tables: Vec<Table>,
}

impl Schema {
    /// Finds a table or view by name, ignoring ASCII case as SQLite does.
    pub fn table(&self, name: &str) -> Option<&Table> {
        self.tables
            .iter()
            .find(|t| t.name.eq_ignore_ascii_case(name))
    }

    pub fn column_count(&self) -> usize {
        self.tables.iter().map(|t| t.columns.len()).sum()
    }
}

/// Enough rows for any real schema's catalogue.
const CATALOGUE_LIMITS: QueryLimits = QueryLimits {
    max_rows: 1_000_000,
    deadline_ms: 10_000,
};

/// Reads the whole schema. Row counts use `count_limits` (their deadline bounds each count).
pub async fn load<D: Database + ?Sized>(
    db: &D,
    count_limits: &QueryLimits,
) -> Result<Schema, DbError> {
    let objects = query(
        db,
        "SELECT name, type FROM sqlite_schema \
         WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' \
         ORDER BY name",
        &CATALOGUE_LIMITS,
    )
    .await?;
    let columns = query(
        db,
        "SELECT m.name, p.name, p.type, p.\"notnull\", p.dflt_value, p.pk \
         FROM sqlite_schema AS m JOIN pragma_table_info(m.name) AS p \
         WHERE m.type IN ('table', 'view') ORDER BY m.name, p.cid",
        &CATALOGUE_LIMITS,
    )
    .await?;
    let keys = query(
        db,
        "SELECT m.name, f.id, f.\"table\", f.\"from\", f.\"to\" \
         FROM sqlite_schema AS m JOIN pragma_foreign_key_list(m.name) AS f \
         WHERE m.type = 'table' ORDER BY m.name, f.id, f.seq",
        &CATALOGUE_LIMITS,
    )
    .await?;

    let mut tables = Vec::new();
    for row in &objects.rows {
        let name = text(&row[0]);
        let kind = if text(&row[1]) == "view" {
            TableKind::View
        } else {
            TableKind::Table
        };
        tables.push(Table {
            name,
            kind,
            columns: Vec::new(),
            foreign_keys: Vec::new(),
            row_count: None,
        });
    }

    for row in &columns.rows {
        let Some(table) = tables.iter_mut().find(|t| t.name == text(&row[0])) else {
            continue;
        };
        table.columns.push(Column {
            name: text(&row[1]),
            decl_type: text(&row[2]),
            not_null: integer(&row[3]) != 0,
            default: match &row[4] {
                Value::Null => None,
                other => Some(other.to_string()),
            },
            primary_key: u32::try_from(integer(&row[5])).unwrap_or(0),
        });
    }

    // Rows of one key share (table, id); each row adds one column pair.
    let mut last_key: Option<(String, i64)> = None;
    for row in &keys.rows {
        let table_name = text(&row[0]);
        let id = integer(&row[1]);
        let Some(table) = tables.iter_mut().find(|t| t.name == table_name) else {
            continue;
        };
        let same_key = last_key.as_ref() == Some(&(table_name.clone(), id));
        if !same_key {
            table.foreign_keys.push(ForeignKey {
                from_columns: Vec::new(),
                to_table: text(&row[2]),
                to_columns: Vec::new(),
            });
        }
        let key = table.foreign_keys.last_mut().expect("pushed above");
        key.from_columns.push(text(&row[3]));
        if let Value::Text(to) = &row[4] {
            key.to_columns.push(to.clone());
        }
        last_key = Some((table_name, id));
    }

    for table in tables.iter_mut().filter(|t| t.kind == TableKind::Table) {
        let sql = format!(
            "SELECT count(*) FROM {}",
            crate::sql::quote_ident(&table.name)
        );
        // A count that fails or takes too long leaves the count unknown; the schema still loads.
        if let Ok(result) = query(db, &sql, count_limits).await {
            if let Some(Value::Integer(n)) = result.rows.first().and_then(|r| r.first()) {
                table.row_count = Some(RowCount::Exact(u64::try_from(*n).unwrap_or(0)));
            }
        }
    }
    Ok(Schema { tables })
}

fn text(value: &Value) -> String {
    match value {
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

fn integer(value: &Value) -> i64 {
    match value {
        Value::Integer(i) => *i,
        Value::Real(r) => *r as i64,
        Value::Text(t) => t.parse().unwrap_or(0),
        _ => 0,
    }
}
