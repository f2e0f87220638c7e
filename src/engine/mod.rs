//! The database as the app sees it.
//!
//! Every path that runs SQL (the console, the agent's tools, the tests) goes through
//! [`Database::run`], which only accepts a [`ReadOnlySql`]: a statement the rules in
//! [`crate::sql::guard`] have already accepted. Implementations add the second wall: the
//! connection itself is read-only (`PRAGMA query_only=1` in sql.js, a read-only open and an
//! authorizer in the engine read on demand, a read-only open in rusqlite).
//!
//! The shared core, here: [`Database`], [`query`], [`Value`], [`QueryResult`], [`DbError`];
//! [`schema`] (tables, columns, keys, row counts as a [`kind::CountPolicy`] allows),
//! [`hidden`] (what is hidden from the model and the script of a copy without it),
//! [`identity`] (what tells one database from another), [`reads`] (what a query read),
//! [`fenced`] (any database behind a fence of names), [`kind`] (each kind of database
//! described once by its backend), [`file_check`] (SQLite's header, before opening), and in the
//! page `channel` (the request/reply protocol both workers speak) and `page` (`PageDatabase`,
//! the one type for a database the page has open, and `ModelDatabase`, the one the model reads).
//!
//! The backends, one folder each: [`in_memory`] (sql.js), [`on_demand`] (a local file or a URL
//! read page by page), [`datasette`] (a server's JSON API), and natively `native` (rusqlite).
//! Every backend speaks SQLite's dialect: the guard, the fence and the prompt assume it.

// The shared core: what every kind of database speaks and is described by.
pub mod fenced;
pub mod file_check;
pub mod hidden;
pub mod identity;
pub mod kind;
pub mod reads;
pub mod schema;
pub mod stopped;
pub use schema::{Schema, Table, TableKind};
#[cfg(target_arch = "wasm32")]
mod channel;
#[cfg(target_arch = "wasm32")]
pub mod page;
mod value;

// The backends, one folder each.
pub mod datasette;
pub mod in_memory;
#[cfg(not(target_arch = "wasm32"))]
pub mod native;
pub mod on_demand;

pub use crate::sql::guard::ReadOnlySql;
pub use reads::ReadStats;
pub use value::Value;

use crate::text::{format_bytes, format_seconds};
use serde::{Deserialize, Serialize};
use std::fmt;

/// How much one query may cost.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct QueryLimits {
    /// At most this many rows are returned; the rest are only counted (see [`RowCount`]).
    pub max_rows: usize,
    /// The query is stopped when this many milliseconds have passed.
    pub deadline_ms: u32,
}

impl Default for QueryLimits {
    fn default() -> Self {
        QueryLimits {
            max_rows: 1_000,
            deadline_ms: 10_000,
        }
    }
}

/// How many rows a query produced in all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum RowCount {
    /// Every row was counted.
    Exact(u64),
    /// Counting stopped (it would have taken too long); there are more than this many.
    MoreThan(u64),
    /// Not counted: SQLite's statistics (`sqlite_stat1`, written by `ANALYZE`) put it at
    /// about this many, as of when they were written. Only a table's size is ever estimated.
    Estimated(u64),
}

impl fmt::Display for RowCount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RowCount::Exact(n) => write!(f, "{n}"),
            RowCount::MoreThan(n) => write!(f, "more than {n}"),
            RowCount::Estimated(n) => write!(f, "about {n}"),
        }
    }
}

/// The outcome of one successful query.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QueryResult {
    pub columns: Vec<String>,
    /// At most `QueryLimits::max_rows` rows.
    pub rows: Vec<Vec<Value>>,
    /// True when the query produced more rows than `rows` holds.
    pub truncated: bool,
    pub total_rows: RowCount,
    pub elapsed_ms: f64,
    /// What the query read from the file or server, for a database read on demand (`None` for
    /// one held in memory, where reading costs nothing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reads: Option<ReadStats>,
}

/// Why a query or an open did not succeed. Each message says what a person can do about it.
#[derive(Clone, Debug, PartialEq)]
pub enum DbError {
    /// The rules refused the statement before it reached SQLite.
    Refused(crate::sql::guard::Refusal),
    /// SQLite's own message.
    Sqlite(String),
    /// The deadline passed; the query was stopped.
    Timeout { after_ms: u32 },
    /// The rows kept for the page would pass this many bytes (the engine refuses to hand over
    /// more, so that one huge result cannot exhaust the page's memory).
    TooLarge { limit_bytes: u64 },
    /// The engine died (for example out of memory) and a fresh one took its place;
    /// `reopened` when the open database was opened again in it.
    Crashed { why: String, reopened: bool },
    /// SQLite could not be started (its code did not load), or not with the open database in
    /// it; nothing ran.
    Unavailable(String),
    /// The bytes are not a usable SQLite database.
    NotADatabase(String),
    /// The file could not be read (it changed or went away since it was chosen, or it is too
    /// large for the memory it would need); nothing was opened.
    Unreadable(String),
    /// The query would have read more of the database than its byte budget (a database read
    /// on demand); it was stopped after reading `read_bytes`.
    ByteBudget { limit_bytes: u64, read_bytes: u64 },
    /// The file, or the server's copy of it, is not the one that was opened (modified, moved,
    /// deleted, another ETag or length); the message says which.
    Changed(String),
    /// Reading the database's file or server failed (a network error, a server error).
    ReadFailed(String),
    /// The database at a web address cannot be read in parts.
    Remote(on_demand::RemoteProblem),
    /// A Datasette server did not answer the query with rows (its time limit, SQL not allowed,
    /// not reachable, …); a SQL error it reports is [`DbError::Sqlite`], as from a file.
    Datasette(datasette::DatasetteProblem),
    /// The query names one of askdb's knowledge tables, or something that reads one (a view
    /// over it), which the model may not read on this database (`crate::sql::fence`); nothing
    /// was sent. The name as the query wrote it, or why the text could not be read.
    Fenced(String),
    /// No database is open.
    NotOpen,
}

impl fmt::Display for DbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DbError::Refused(refusal) => write!(f, "{refusal}"),
            DbError::Sqlite(message) => write!(f, "SQLite error: {message}"),
            DbError::Timeout { after_ms } => {
                write!(f, "stopped after {}", format_seconds(*after_ms))
            }
            DbError::TooLarge { limit_bytes } => write!(
                f,
                "the result is larger than {} MB: select fewer columns or rows, shorten long \
                 values (substr(x, 1, 200)), or aggregate",
                limit_bytes / (1024 * 1024)
            ),
            DbError::Crashed {
                why,
                reopened: true,
            } => write!(
                f,
                "the database engine stopped ({why}); it was restarted on the same data"
            ),
            DbError::Crashed {
                why,
                reopened: false,
            } => write!(f, "the database engine stopped ({why})"),
            DbError::Unavailable(why) => write!(f, "the SQLite engine could not start: {why}"),
            DbError::NotADatabase(why) => write!(f, "not a SQLite database: {why}"),
            DbError::Unreadable(why) => write!(f, "the browser could not read the file: {why}"),
            DbError::ByteBudget {
                limit_bytes,
                read_bytes,
            } => write!(
                f,
                "stopped: this query would read more from the database's server than the read \
                 budget of {} allows ({} read against it so far). A query that reads less needs \
                 an index on the column it filters or joins on, or a narrower filter on an \
                 indexed column (a whole-table count, sort or aggregate reads every page)",
                format_bytes(*limit_bytes),
                format_bytes(*read_bytes)
            ),
            DbError::Changed(why) => write!(f, "the database changed: {why}"),
            DbError::ReadFailed(why) => write!(f, "the database could not be read: {why}"),
            DbError::Remote(problem) => write!(f, "{problem}"),
            DbError::Datasette(problem) => write!(f, "{problem}"),
            DbError::Fenced(name) => write!(
                f,
                "not run: {name} holds askdb's notes about the data (or reads them), not data, \
                 and the model may not read it; the notes you need are already in the schema and \
                 in describe_table. Query the data's own tables"
            ),
            DbError::NotOpen => write!(f, "no database is open"),
        }
    }
}

impl std::error::Error for DbError {}

impl From<crate::sql::guard::Refusal> for DbError {
    fn from(refusal: crate::sql::guard::Refusal) -> Self {
        DbError::Refused(refusal)
    }
}

/// A read-only SQLite database.
///
/// Futures are not `Send`: in the browser they wait on a Web Worker.
#[allow(async_fn_in_trait)]
pub trait Database {
    /// Runs one statement that the rules accepted, with `values` bound to its parameters `?1` …
    /// (as many as [`ReadOnlySql::parameters`]; none for most statements), within `limits`.
    async fn run(
        &self,
        sql: &ReadOnlySql,
        values: &[Value],
        limits: &QueryLimits,
    ) -> Result<QueryResult, DbError>;
}

/// A shared database is the database it shares (the page holds its databases in `Rc`s).
impl<D: Database + ?Sized> Database for std::rc::Rc<D> {
    async fn run(
        &self,
        sql: &ReadOnlySql,
        values: &[Value],
        limits: &QueryLimits,
    ) -> Result<QueryResult, DbError> {
        (**self).run(sql, values, limits).await
    }
}

/// So is a borrowed one.
impl<D: Database + ?Sized> Database for &D {
    async fn run(
        &self,
        sql: &ReadOnlySql,
        values: &[Value],
        limits: &QueryLimits,
    ) -> Result<QueryResult, DbError> {
        (**self).run(sql, values, limits).await
    }
}

/// Checks `sql` against the read-only rules, then runs it. The one way text becomes a query.
pub async fn query<D: Database + ?Sized>(
    db: &D,
    sql: &str,
    limits: &QueryLimits,
) -> Result<QueryResult, DbError> {
    let statement = crate::sql::guard::check(sql)?;
    db.run(&statement, &[], limits).await
}

/// The same for a statement the app compiled with parameters `?1` … `?n`: `values` are bound
/// to them by SQLite, never written into the text. The guard checks that the parameters are
/// exactly those (`guard::check_bound`).
pub async fn query_bound<D: Database + ?Sized>(
    db: &D,
    sql: &str,
    values: &[Value],
    limits: &QueryLimits,
) -> Result<QueryResult, DbError> {
    let statement = crate::sql::guard::check_bound(sql, values.len())?;
    db.run(&statement, values, limits).await
}

/// `sql` with each parameter `?n` replaced by `values[n-1]` written as a literal: a compiled
/// statement as a person can read it and run it in the console, where nothing binds values.
/// The text goes through the guard again there, as any console text does.
pub fn with_values_written_in(sql: &str, values: &[Value]) -> String {
    let Ok(tokens) = crate::sql::lexer::significant_tokens(sql) else {
        return sql.to_string();
    };
    let mut written = String::with_capacity(sql.len());
    let mut copied = 0;
    for token in tokens {
        let value = token
            .text
            .strip_prefix('?')
            .and_then(|n| n.parse::<usize>().ok())
            .and_then(|n| values.get(n.checked_sub(1)?));
        if let Some(value) = value {
            written.push_str(&sql[copied..token.start]);
            written.push_str(&value.sql_literal());
            copied = token.end();
        }
    }
    written.push_str(&sql[copied..]);
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_written_into_a_compiled_statement_as_literals() {
        let sql =
            "SELECT name FROM customers WHERE name = ?1 OR id IN (?2, ?3) -- ?1\n AND x = '?1'";
        let values = [
            Value::Text("'); DROP TABLE t; --".into()),
            Value::Integer(2),
            Value::Real(2.0),
        ];
        let written = with_values_written_in(sql, &values);
        assert_eq!(
            written,
            "SELECT name FROM customers WHERE name = '''); DROP TABLE t; --' OR id IN (2, 2.0) \
             -- ?1\n AND x = '?1'"
        );
        // Still one read, with the value as a string.
        assert!(crate::sql::guard::check(&written).is_ok());
    }

    #[test]
    fn a_result_too_large_says_what_to_do() {
        let message = DbError::TooLarge {
            limit_bytes: 64 * 1024 * 1024,
        }
        .to_string();
        assert!(
            message.starts_with("the result is larger than 64 MB: select fewer columns or rows"),
            "{message}"
        );
        assert!(message.ends_with("or aggregate"), "{message}");
    }

    #[test]
    fn a_query_over_its_byte_budget_says_what_would_help() {
        let message = DbError::ByteBudget {
            limit_bytes: 10_000_000,
            read_bytes: 9_500_000,
        }
        .to_string();
        assert!(
            message.starts_with(
                "stopped: this query would read more from the database's server than the \
                 read budget of 10 MB allows (9.5 MB read against it so far)."
            ),
            "{message}"
        );
        assert!(
            message.contains("an index on the column it filters"),
            "{message}"
        );
        assert!(
            message.ends_with("(a whole-table count, sort or aggregate reads every page)"),
            "{message}"
        );
    }

    #[test]
    fn a_crash_says_restarted_on_the_same_data_only_when_it_was() {
        let crash = |reopened| {
            DbError::Crashed {
                why: "out of memory".into(),
                reopened,
            }
            .to_string()
        };
        assert_eq!(
            crash(true),
            "the database engine stopped (out of memory); it was restarted on the same data"
        );
        assert_eq!(crash(false), "the database engine stopped (out of memory)");
        let never_started = DbError::Unavailable("sql-wasm.wasm: 404".into()).to_string();
        assert_eq!(
            never_started,
            "the SQLite engine could not start: sql-wasm.wasm: 404"
        );
    }
}
