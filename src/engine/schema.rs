//! What is in the database: tables and views, their columns, keys and row counts.
//!
//! Read with ordinary read-only queries over `sqlite_schema` and the `pragma_*` table-valued
//! functions, so every [`Database`] gets it for free and the rules still apply.

use super::kind::CountPolicy;
use super::{query, Database, DbError, QueryLimits, QueryResult, RowCount, Value};
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
    /// Counted for tables (exactly, or "more than", or estimated by `sqlite_stat1`: see
    /// [`count_rows`]); `None` for views (counting one can cost as much as the view itself), or
    /// when the table was not counted.
    pub row_count: Option<RowCount>,
}

impl Table {
    /// A table (or view) of TEXT columns with nothing else declared: the unit tests' builder.
    #[cfg(test)]
    pub fn of_text_columns(name: &str, kind: TableKind, columns: &[&str]) -> Table {
        Table {
            name: name.into(),
            kind,
            columns: columns
                .iter()
                .map(|c| Column {
                    name: (*c).into(),
                    decl_type: "TEXT".into(),
                    not_null: false,
                    primary_key: 0,
                    default: None,
                })
                .collect(),
            foreign_keys: Vec::new(),
            row_count: None,
        }
    }

    pub fn column(&self, name: &str) -> Option<&Column> {
        self.columns
            .iter()
            .find(|c| c.name.eq_ignore_ascii_case(name))
    }

    /// The query that shows this table's first rows (the schema panel puts it in the console).
    pub fn first_rows_sql(&self) -> String {
        format!(
            "SELECT * FROM {} LIMIT 100;",
            crate::sql::quote_ident(&self.name)
        )
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

/// Every row of the catalogue query `sql` (which ends with its `ORDER BY`). A server with a row
/// cap (Datasette's `max_returned_rows`) answers a long catalogue in part, saying so
/// (`truncated`): the rest is asked for page by page, as many rows at a time as it gave, so
/// that a big schema is never silently cut.
async fn catalogue<D: Database + ?Sized>(db: &D, sql: &str) -> Result<QueryResult, DbError> {
    let mut all = query(db, sql, &CATALOGUE_LIMITS).await?;
    let page = all.rows.len();
    if !all.truncated {
        return Ok(all);
    }
    if page == 0 {
        return Err(DbError::Unavailable(
            "the database answered the schema's catalogue with no rows, and said it cut them"
                .into(),
        ));
    }
    for _ in 0..MAX_CATALOGUE_PAGES {
        if all.rows.len() >= CATALOGUE_LIMITS.max_rows {
            break;
        }
        let more = query(
            db,
            &format!("{sql} LIMIT {page} OFFSET {}", all.rows.len()),
            &CATALOGUE_LIMITS,
        )
        .await?;
        let last = more.rows.len() < page;
        all.rows.extend(more.rows);
        if last {
            all.truncated = false;
            all.total_rows = RowCount::Exact(all.rows.len() as u64);
            return Ok(all);
        }
    }
    Err(DbError::Unavailable(format!(
        "the schema's catalogue has more than {} rows, read {page} at a time: too many to list",
        all.rows.len()
    )))
}

/// How many parts of a catalogue are asked for at most (each a request to a server with a row
/// cap).
const MAX_CATALOGUE_PAGES: usize = 200;

/// What [`load_tables`] asks: the tables and views, their columns, their foreign keys. They
/// read `sqlite_schema` and the pragmas of its tables, nothing else: an engine may answer them
/// from the schema's pages before the rest of the file is read (`www/worker.js`, "The schema
/// first").
pub const SCHEMA_ONLY_QUERIES: [&str; 3] = [
    "SELECT name, type FROM sqlite_schema \
     WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' \
     ORDER BY name",
    "SELECT m.name, p.name, p.type, p.\"notnull\", p.dflt_value, p.pk \
     FROM sqlite_schema AS m JOIN pragma_table_info(m.name) AS p \
     WHERE m.type IN ('table', 'view') ORDER BY m.name, p.cid",
    "SELECT m.name, f.id, f.\"table\", f.\"from\", f.\"to\" \
     FROM sqlite_schema AS m JOIN pragma_foreign_key_list(m.name) AS f \
     WHERE m.type = 'table' ORDER BY m.name, f.id, f.seq",
];

/// Reads the whole schema, every table counted exactly. Row counts use `count_limits` (their
/// deadline bounds each count).
pub async fn load<D: Database + ?Sized>(
    db: &D,
    count_limits: &QueryLimits,
) -> Result<Schema, DbError> {
    load_counting(db, CountPolicy::Exact, count_limits).await
}

/// Reads the whole schema, rows counted as `policy` allows (see [`count_rows`]).
pub async fn load_counting<D: Database + ?Sized>(
    db: &D,
    policy: CountPolicy,
    count_limits: &QueryLimits,
) -> Result<Schema, DbError> {
    let mut schema = load_tables(db).await?;
    count_rows(db, &mut schema, policy, count_limits).await;
    Ok(schema)
}

/// Reads the tables, views, columns and keys, without row counts.
pub async fn load_tables<D: Database + ?Sized>(db: &D) -> Result<Schema, DbError> {
    let [objects, columns, keys] = SCHEMA_ONLY_QUERIES;
    let objects = catalogue(db, objects).await?;
    let columns = catalogue(db, columns).await?;
    let keys = catalogue(db, keys).await?;

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

    Ok(Schema { tables })
}

/// Counts the rows of each table as `policy` allows (see [`CountPolicy`]): exactly, or up to
/// a number of rows and then from `sqlite_stat1`'s estimate (or "more than"). Each query gets
/// `count_limits`' deadline; a count that fails or runs out of time leaves the count unknown,
/// and the schema still loads.
pub async fn count_rows<D: Database + ?Sized>(
    db: &D,
    schema: &mut Schema,
    policy: CountPolicy,
    count_limits: &QueryLimits,
) {
    let estimates = match policy {
        CountPolicy::Exact => Vec::new(),
        CountPolicy::UpTo(_) => statistics(db).await,
    };
    for table in schema
        .tables
        .iter_mut()
        .filter(|t| t.kind == TableKind::Table)
    {
        let estimate = estimates
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(&table.name))
            .map(|(_, rows)| *rows);
        table.row_count = match policy {
            CountPolicy::Exact => count_table(db, &table.name, count_limits).await.ok(),
            CountPolicy::UpTo(0) => estimate.map(RowCount::Estimated),
            CountPolicy::UpTo(cap) => match count_up_to(db, &table.name, cap, count_limits).await {
                Ok(RowCount::MoreThan(_)) => Some(match estimate {
                    // Statistics that say fewer than were just stepped are out of date.
                    Some(rows) if rows > cap => RowCount::Estimated(rows),
                    _ => RowCount::MoreThan(cap),
                }),
                Ok(exact) => Some(exact),
                Err(_) => estimate.map(RowCount::Estimated),
            },
        };
    }
}

/// The exact number of rows of `table`: `count(*)`, which reads the whole table (the page's
/// "count" button, and every table of a small file in memory).
pub async fn count_table<D: Database + ?Sized>(
    db: &D,
    table: &str,
    limits: &QueryLimits,
) -> Result<RowCount, DbError> {
    let sql = format!("SELECT count(*) FROM {}", crate::sql::quote_ident(table));
    let result = query(db, &sql, limits).await?;
    match result.rows.first().and_then(|row| row.first()) {
        Some(Value::Integer(n)) => Ok(RowCount::Exact(u64::try_from(*n).unwrap_or(0))),
        _ => Err(DbError::Sqlite("count(*) gave no number".into())),
    }
}

/// The rows of `table`, stepping at most `cap` + 1 of them: exact up to `cap`, else "more than
/// `cap`". What it costs grows with `cap`, not with the table.
async fn count_up_to<D: Database + ?Sized>(
    db: &D,
    table: &str,
    cap: u64,
    limits: &QueryLimits,
) -> Result<RowCount, DbError> {
    let sql = format!(
        "SELECT count(*) FROM (SELECT 1 FROM {} LIMIT {})",
        crate::sql::quote_ident(table),
        cap + 1
    );
    let result = query(db, &sql, limits).await?;
    match result.rows.first().and_then(|row| row.first()) {
        Some(Value::Integer(n)) if u64::try_from(*n).unwrap_or(0) > cap => {
            Ok(RowCount::MoreThan(cap))
        }
        Some(Value::Integer(n)) => Ok(RowCount::Exact(u64::try_from(*n).unwrap_or(0))),
        _ => Err(DbError::Sqlite("count(*) gave no number".into())),
    }
}

/// The row estimates `ANALYZE` left in `sqlite_stat1`: per table, the largest first number of
/// its rows (the table's own row, or its indexes'; a partial index counts fewer). None when
/// the database has no such table, or it cannot be read.
async fn statistics<D: Database + ?Sized>(db: &D) -> Vec<(String, u64)> {
    let Ok(present) = query(
        db,
        "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'sqlite_stat1'",
        &CATALOGUE_LIMITS,
    )
    .await
    else {
        return Vec::new();
    };
    if present.rows.is_empty() {
        return Vec::new();
    }
    let Ok(result) = query(db, "SELECT tbl, stat FROM sqlite_stat1", &CATALOGUE_LIMITS).await
    else {
        return Vec::new();
    };
    let mut estimates: Vec<(String, u64)> = Vec::new();
    for row in &result.rows {
        let (Value::Text(table), Value::Text(stat)) = (&row[0], &row[1]) else {
            continue;
        };
        let Some(rows) = stat
            .split_whitespace()
            .next()
            .and_then(|n| n.parse::<u64>().ok())
        else {
            continue;
        };
        match estimates
            .iter_mut()
            .find(|(name, _)| name.eq_ignore_ascii_case(table))
        {
            Some((_, known)) => *known = (*known).max(rows),
            None => estimates.push((table.clone(), rows)),
        }
    }
    estimates
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

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use crate::engine::native::RusqliteDb;
    use crate::engine::ReadOnlySql;
    use futures::executor::block_on;

    /// A database behind a server that answers at most `cap` rows, saying when it cut
    /// (Datasette's `max_returned_rows`).
    struct Capped {
        db: RusqliteDb,
        cap: usize,
    }

    impl Database for Capped {
        async fn run(
            &self,
            sql: &ReadOnlySql,
            values: &[Value],
            limits: &QueryLimits,
        ) -> Result<QueryResult, DbError> {
            let capped = QueryLimits {
                max_rows: limits.max_rows.min(self.cap),
                ..*limits
            };
            self.db.run(sql, values, &capped).await
        }
    }

    fn chinook() -> RusqliteDb {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/datasets/chinook/Chinook_Sqlite.sqlite");
        RusqliteDb::open(&path).expect("chinook opens")
    }

    #[test]
    fn a_schema_longer_than_a_servers_row_cap_is_read_whole() {
        let whole = block_on(load_tables(&chinook())).unwrap();
        let columns: usize = whole.tables.iter().map(|t| t.columns.len()).sum();
        // Positive control: the catalogue is longer than the cap, several times over (and one
        // cap divides it exactly: the last part asked for is empty).
        assert_eq!(columns, 64);
        for cap in [7, 8, 16] {
            let capped = Capped { db: chinook(), cap };
            assert_eq!(block_on(load_tables(&capped)).unwrap(), whole, "cap {cap}");
        }
    }
}
