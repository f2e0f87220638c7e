//! What may run: exactly one read-only statement.
//!
//! Allowed: `SELECT`, `WITH … SELECT`, `VALUES`, and `EXPLAIN [QUERY PLAN]` of those. Everything
//! else is refused here, before it reaches SQLite, with a message that names what it is. The
//! engine's read-only connection is the second wall, not the first: this one must hold alone.
//!
//! SQLite is the judge of these rules: `tests/guard_oracle.rs` runs every text of a generated
//! corpus that [`check`] accepts through SQLite itself, on a writable database, and fails on
//! anything but one plain read.

use super::lexer::{self, Token, TokenKind};
use std::fmt;

/// A statement the rules accepted. Only [`check`] and [`check_bound`] make one, so a
/// [`crate::engine::Database`] cannot be handed unchecked text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadOnlySql {
    text: String,
    /// How many values it takes: its parameters are `?1` … `?parameters`, each used at least
    /// once (0 for everything [`check`] accepts).
    parameters: usize,
}

impl ReadOnlySql {
    /// The statement, trimmed, without a trailing `;`.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// How many values must be bound to it (`?1` … `?n`).
    pub fn parameters(&self) -> usize {
        self.parameters
    }
}

/// Why a statement may not run. `Display` gives the message shown to people and models.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Nothing but whitespace and comments.
    Empty,
    /// Longer than [`MAX_SQL_BYTES`].
    TooLong { bytes: usize },
    /// Parentheses (or `CASE … END`) nested deeper than [`MAX_NESTING`].
    TooDeep { depth: usize },
    /// More than one statement; `count` as far as it could tell.
    MultipleStatements { count: usize },
    /// One statement, but not a read: `kind` names it ("DELETE", "PRAGMA", "CREATE TABLE"...).
    NotReadOnly { kind: String },
    /// A read that calls something that is never allowed (e.g. `load_extension`).
    ForbiddenFunction { name: String },
    /// A pragma function (`pragma_…`) that is not on the list of plain reads.
    ForbiddenPragma { name: String },
    /// A parameter token (`?`, `?1`, `:name`, `@name`, `$name`, `#name`): nothing binds them.
    Parameter { token: String },
    /// A compiled statement whose numbered parameters do not match the values given for them
    /// (a `?n` beyond them, or a value no `?n` takes).
    UnboundParameters { values: usize, reason: String },
    /// The text cannot be tokenized (an unterminated string, quoted name or comment).
    Malformed { reason: String },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const ONLY: &str = "only a single read-only statement can run";
        const INSTEAD: &str = "write one SELECT (or WITH … SELECT, VALUES, EXPLAIN) instead";
        match self {
            Refusal::Empty => write!(
                f,
                "there is no SQL statement to run, only whitespace or comments"
            ),
            Refusal::TooLong { bytes } => write!(
                f,
                "this SQL is {bytes} bytes long, over the limit of {MAX_SQL_BYTES} bytes \
                 (100 KB): write a shorter query"
            ),
            Refusal::TooDeep { depth } => write!(
                f,
                "this SQL nests parentheses {depth} deep, over the limit of {MAX_NESTING}: \
                 write it flatter (a WITH clause instead of nested subqueries)"
            ),
            Refusal::MultipleStatements { count } => write!(
                f,
                "{ONLY}; this text has {count} statements: run them one at a time"
            ),
            Refusal::NotReadOnly { kind } => {
                let article = if kind.starts_with(['A', 'E', 'I', 'O', 'U']) {
                    "an"
                } else {
                    "a"
                };
                write!(f, "{ONLY}; this is {article} {kind}: {INSTEAD}")
            }
            Refusal::ForbiddenFunction { name } => write!(
                f,
                "the function {name}() is not allowed: it could change or read things outside \
                 this database"
            ),
            Refusal::ForbiddenPragma { name } => write!(
                f,
                "{name} is not allowed: of SQLite's pragma functions only these plain reads \
                 can run: {}",
                READ_ONLY_PRAGMAS
                    .iter()
                    .map(|p| format!("pragma_{p}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Refusal::Parameter { token } => write!(
                f,
                "`{token}` is a parameter, and nothing here binds parameters: write the value \
                 itself into the SQL (e.g. 'Tokyo' or 42)"
            ),
            Refusal::UnboundParameters { values, reason } => write!(
                f,
                "the compiled statement does not match its {values} values: {reason}"
            ),
            Refusal::Malformed { reason } => write!(f, "the SQL cannot be read: {reason}"),
        }
    }
}

impl std::error::Error for Refusal {}

/// The longest SQL text that is read at all. Real queries are a few KB; the cap keeps every
/// walk over SQL (here and in the analysis) short, whatever a model sends.
pub const MAX_SQL_BYTES: usize = 100 * 1024;

/// The deepest nesting of parentheses accepted. Real queries stay under twenty levels; the cap
/// bounds the depth of every walk over a statement's structure (SQLite's own parser refuses
/// far less deep expressions than a thousand levels anyway).
pub const MAX_NESTING: usize = 100;

/// Functions refused wherever they appear (as `name(`), even inside a `SELECT`: each can act
/// outside the query's result. sql.js ships only `load_extension` and `fts3_tokenizer` of
/// these; the rest come with the sqlite3 shell or common extensions and are listed so that no
/// engine that has them can be reached through here. The table-valued ones are refused as any
/// name, called or not ([`FORBIDDEN_TABLE_FUNCTIONS`]).
pub const FORBIDDEN_FUNCTIONS: &[&str] = &[
    "load_extension", // loads native code into the engine
    "fts3_tokenizer", // registers a tokenizer by raw pointer: arbitrary code
    "readfile",       // shell: reads any file on the machine
    "writefile",      // shell: writes any file on the machine
    "edit",           // shell: opens an editor on the machine
    "fsdir",          // shell: lists the machine's directories
    "zipfile",        // shell: reads and writes zip archives on disk
    "eval",           // extension: runs any SQL text, writes included
    "fileio_read",    // sqlean: reads any file
    "fileio_write",   // sqlean: writes any file
    "fileio_ls",      // sqlean: lists directories
];

/// The table-valued functions of [`FORBIDDEN_FUNCTIONS`]. SQLite reads one without `(…)` too
/// (`FROM fsdir`, `FROM fsdir AS t`), so each is refused as any name, called or not, like the
/// pragma functions: a column of that name costs a refusal, never a read of the machine.
pub const FORBIDDEN_TABLE_FUNCTIONS: &[&str] = &["fsdir", "zipfile", "fileio_ls"];

/// The pragma functions (`pragma_<name>`, SQLite's table-valued form of `PRAGMA <name>`) that
/// may run. SQLite runs `PRAGMA <name>=<first argument>` behind each, so most are not reads:
/// `pragma_optimize` runs ANALYZE and writes a table, `pragma_user_version(5)` sets a header
/// field, `pragma_journal_mode('off')` changes the journal. These only describe the schema.
pub const READ_ONLY_PRAGMAS: &[&str] = &[
    "table_info",
    "table_xinfo",
    "table_list",
    "index_list",
    "index_info",
    "index_xinfo",
    "foreign_key_list",
    "collation_list",
    "function_list",
    "module_list",
    "pragma_list",
    "database_list",
];

/// The most values a compiled statement may bind (SQLite's own limit is higher).
pub const MAX_BOUND_VALUES: usize = 999;

/// Decides whether `sql` may run. Accepts surrounding whitespace, comments and one trailing `;`.
/// Refuses every parameter: nothing binds them, and their tokens could hide text from a reader.
///
/// Every step is a loop over the tokens (no recursion), so the time is linear in the text and
/// the stack stays flat however the text is nested.
pub fn check(sql: &str) -> Result<ReadOnlySql, Refusal> {
    guard(sql, None)
}

/// Decides whether `sql`, compiled by the app with `values` values to bind, may run: the same
/// rules as [`check`], except that its parameters must be exactly the numbered `?1` … `?values`
/// (each at least once, written without leading zeros), so that SQLite binds every value
/// given and nothing else. Any other parameter token is refused as in [`check`].
pub fn check_bound(sql: &str, values: usize) -> Result<ReadOnlySql, Refusal> {
    if values > MAX_BOUND_VALUES {
        return Err(Refusal::UnboundParameters {
            values,
            reason: format!("at most {MAX_BOUND_VALUES} values can be bound"),
        });
    }
    guard(sql, Some(values))
}

/// [`check`] when `bound` is `None`; [`check_bound`] with that many values otherwise.
fn guard(sql: &str, bound: Option<usize>) -> Result<ReadOnlySql, Refusal> {
    if sql.len() > MAX_SQL_BYTES {
        return Err(Refusal::TooLong { bytes: sql.len() });
    }
    // SQLite stops reading at a NUL byte; what follows it would be seen here and not there.
    if let Some(at) = sql.find('\0') {
        return Err(Refusal::Malformed {
            reason: format!(
                "there is a NUL character (U+0000) at character {}",
                sql[..at].chars().count() + 1
            ),
        });
    }
    let tokens = lexer::significant_tokens(sql).map_err(|e| Refusal::Malformed {
        reason: e.to_string(),
    })?;
    if let Some(odd) = tokens.iter().find(|t| t.kind == TokenKind::Unknown) {
        return Err(Refusal::Malformed {
            reason: format!(
                "`{}` at character {} is not SQL",
                odd.text,
                sql[..odd.start].chars().count() + 1
            ),
        });
    }
    // Empty statements (`;;`) do nothing in SQLite; what counts is the rest.
    let statements: Vec<&[Token]> = tokens
        .split(|t| t.kind == TokenKind::Semicolon)
        .filter(|s| !s.is_empty())
        .collect();
    let Some(statement) = statements.first() else {
        return Err(Refusal::Empty);
    };
    // The first statement's kind is the most useful thing to say (a CREATE TRIGGER body has
    // `;`s of its own), so it comes before the count.
    if let Err(kind) = read_only(statement) {
        return Err(Refusal::NotReadOnly { kind });
    }
    if statements.len() > 1 {
        return Err(Refusal::MultipleStatements {
            count: statements.len(),
        });
    }
    let parameters = match bound {
        None => match statement.iter().find(|t| t.kind == TokenKind::Parameter) {
            Some(token) => {
                return Err(Refusal::Parameter {
                    token: token.text.to_string(),
                })
            }
            None => 0,
        },
        Some(values) => numbered_parameters(statement, values)?,
    };
    if let Some(name) = forbidden_call(statement) {
        return Err(Refusal::ForbiddenFunction { name });
    }
    if let Some(name) = forbidden_pragma(statement) {
        return Err(Refusal::ForbiddenPragma { name });
    }
    let depth = nesting_depth(statement);
    if depth > MAX_NESTING {
        return Err(Refusal::TooDeep { depth });
    }
    let text = &sql[statement[0].start..statement[statement.len() - 1].end()];
    Ok(ReadOnlySql {
        text: text.to_string(),
        parameters,
    })
}

/// `values` when the statement's parameters are exactly `?1` … `?values`, each at least once.
fn numbered_parameters(statement: &[Token], values: usize) -> Result<usize, Refusal> {
    let mut used = vec![false; values];
    for token in statement.iter().filter(|t| t.kind == TokenKind::Parameter) {
        let digits = &token.text[1..];
        let number = (token.text.starts_with('?') && !digits.starts_with('0'))
            .then(|| digits.parse::<usize>().ok())
            .flatten();
        match number {
            Some(n) if (1..=values).contains(&n) => used[n - 1] = true,
            Some(n) => {
                return Err(Refusal::UnboundParameters {
                    values,
                    reason: format!("it uses ?{n}"),
                })
            }
            None => {
                return Err(Refusal::Parameter {
                    token: token.text.to_string(),
                })
            }
        }
    }
    match used.iter().position(|used| !used) {
        Some(unused) => Err(Refusal::UnboundParameters {
            values,
            reason: format!("no ?{} takes value {}", unused + 1, unused + 1),
        }),
        None => Ok(values),
    }
}

/// `Ok` for a read; otherwise what the statement is, e.g. "DELETE" or "CREATE TEMP TABLE".
/// SQLite's grammar allows one `EXPLAIN [QUERY PLAN]`, then one `WITH …`, then the statement:
/// no more, so nothing here recurses or loops over prefixes (a second `EXPLAIN` is a statement
/// kind of its own, "EXPLAIN of EXPLAIN").
fn read_only(statement: &[Token]) -> Result<(), String> {
    let explain = explain_prefix(statement);
    let explained = &statement[explain..];
    let name = |kind: String| {
        if explain > 0 {
            format!("EXPLAIN of {kind}")
        } else {
            kind
        }
    };
    if explained.is_empty() {
        return Err("EXPLAIN of nothing".to_string());
    }
    let main = if explained[0].is_keyword("WITH") {
        match lexer::with_clause(explained, 0) {
            Some((_, main)) if main < explained.len() && !explained[main].is_keyword("WITH") => {
                &explained[main..]
            }
            _ => {
                return Err(name(
                    "WITH clause that is not followed by a SELECT".to_string(),
                ))
            }
        }
    } else {
        explained
    };
    statement_kind(main).map_err(name)
}

/// How many tokens an `EXPLAIN` or `EXPLAIN QUERY PLAN` at the start takes (0 without one).
fn explain_prefix(statement: &[Token]) -> usize {
    let keyword = |i: usize, k: &str| statement.get(i).is_some_and(|t| t.is_keyword(k));
    match (
        keyword(0, "EXPLAIN"),
        keyword(1, "QUERY") && keyword(2, "PLAN"),
    ) {
        (true, true) => 3,
        (true, false) => 1,
        _ => 0,
    }
}

/// `Ok` when the statement is a `SELECT` or `VALUES`; otherwise what it is.
fn statement_kind(statement: &[Token]) -> Result<(), String> {
    let first = statement[0];
    let word = |i: usize| {
        statement
            .get(i)
            .filter(|t| t.kind == TokenKind::Word)
            .map(|t| t.text.to_ascii_uppercase())
    };
    let Some(keyword) = word(0) else {
        return Err(format!("statement starting with `{}`", first.text));
    };
    match keyword.as_str() {
        "SELECT" | "VALUES" => Ok(()),
        "CREATE" => {
            let mut parts = vec!["CREATE".to_string()];
            let mut i = 1;
            while let Some(w) = word(i) {
                let w = if w == "TEMPORARY" {
                    "TEMP".to_string()
                } else {
                    w
                };
                let is_modifier = matches!(w.as_str(), "TEMP" | "UNIQUE" | "VIRTUAL");
                parts.push(w);
                i += 1;
                if !is_modifier {
                    break;
                }
            }
            Err(parts.join(" "))
        }
        "DROP" | "ALTER" => Err(match word(1) {
            Some(object) => format!("{keyword} {object}"),
            None => keyword,
        }),
        _ if lexer::is_keyword(&keyword) => Err(keyword),
        _ => Err(format!("statement starting with `{}`", first.text)),
    }
}

/// The first forbidden function called (`name(`, bare or quoted), or forbidden table-valued
/// function named, in lower case.
fn forbidden_call(statement: &[Token]) -> Option<String> {
    statement.iter().enumerate().find_map(|(i, token)| {
        let name = token.name()?.to_ascii_lowercase();
        let called = statement
            .get(i + 1)
            .is_some_and(|next| next.kind == TokenKind::LeftParen);
        let forbidden = (called && FORBIDDEN_FUNCTIONS.contains(&name.as_str()))
            || FORBIDDEN_TABLE_FUNCTIONS.contains(&name.as_str());
        forbidden.then_some(name)
    })
}

/// The first name `pragma_<x>` (bare or quoted, any case) whose `<x>` is not a plain read.
/// Any such name counts, called or not: SQLite runs `FROM pragma_optimize` without `(…)` too.
fn forbidden_pragma(statement: &[Token]) -> Option<String> {
    statement.iter().find_map(|token| {
        let name = token.name()?.to_ascii_lowercase();
        let pragma = name.strip_prefix("pragma_")?;
        (!READ_ONLY_PRAGMAS.contains(&pragma)).then_some(name)
    })
}

/// How deep the statement's parentheses and `CASE … END`s nest.
fn nesting_depth(statement: &[Token]) -> usize {
    let (mut depth, mut deepest, mut open_cases) = (0usize, 0usize, 0usize);
    for token in statement {
        if token.kind == TokenKind::LeftParen || token.is_keyword("CASE") {
            open_cases += usize::from(token.kind == TokenKind::Word);
            depth += 1;
            deepest = deepest.max(depth);
        } else if token.kind == TokenKind::RightParen || (open_cases > 0 && token.is_keyword("END"))
        {
            open_cases -= usize::from(token.kind == TokenKind::Word);
            depth = depth.saturating_sub(1);
        }
    }
    deepest
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(sql: &str) -> Refusal {
        check(sql).expect_err(sql)
    }

    fn kind(sql: &str) -> String {
        match refusal(sql) {
            Refusal::NotReadOnly { kind } => kind,
            other => panic!("{sql}: {other:?}"),
        }
    }

    #[test]
    fn writes_are_refused_by_name() {
        for (sql, expected) in [
            ("INSERT INTO orders VALUES (1)", "INSERT"),
            ("insert or replace into orders values (1)", "INSERT"),
            ("INSERT INTO orders(id) VALUES (1) RETURNING id", "INSERT"),
            ("UPDATE orders SET quantity = 0", "UPDATE"),
            ("DELETE FROM orders", "DELETE"),
            ("REPLACE INTO orders VALUES (1)", "REPLACE"),
            ("CREATE TABLE t(x)", "CREATE TABLE"),
            ("CREATE TEMP TABLE t(x)", "CREATE TEMP TABLE"),
            ("create temporary table t as select 1", "CREATE TEMP TABLE"),
            ("CREATE VIEW v AS SELECT 1", "CREATE VIEW"),
            ("CREATE UNIQUE INDEX i ON orders(id)", "CREATE UNIQUE INDEX"),
            ("CREATE INDEX i ON orders(id)", "CREATE INDEX"),
            (
                "CREATE VIRTUAL TABLE f USING fts5(x)",
                "CREATE VIRTUAL TABLE",
            ),
            (
                "CREATE TRIGGER t AFTER INSERT ON orders BEGIN DELETE FROM orders; END",
                "CREATE TRIGGER",
            ),
            ("DROP TABLE orders", "DROP TABLE"),
            ("DROP VIEW IF EXISTS v", "DROP VIEW"),
            ("ALTER TABLE orders ADD COLUMN x", "ALTER TABLE"),
            ("ALTER TABLE orders RENAME TO o", "ALTER TABLE"),
            ("WITH x AS (SELECT 1) DELETE FROM orders", "DELETE"),
            (
                "WITH RECURSIVE x(n) AS (SELECT 1) INSERT INTO t SELECT n FROM x",
                "INSERT",
            ),
            ("/* SELECT */ DELETE FROM orders", "DELETE"),
            ("-- SELECT\nDELETE FROM orders", "DELETE"),
            ("PRAGMA query_only=0", "PRAGMA"),
            ("PRAGMA writable_schema=1", "PRAGMA"),
            ("pragma table_info(orders)", "PRAGMA"),
            ("ATTACH ':memory:' AS m", "ATTACH"),
            ("ATTACH DATABASE 'x.db' AS m", "ATTACH"),
            ("DETACH m", "DETACH"),
            ("VACUUM", "VACUUM"),
            ("VACUUM INTO 'x.db'", "VACUUM"),
            ("REINDEX", "REINDEX"),
            ("ANALYZE", "ANALYZE"),
            ("BEGIN", "BEGIN"),
            ("BEGIN IMMEDIATE TRANSACTION", "BEGIN"),
            ("COMMIT", "COMMIT"),
            ("END", "END"),
            ("ROLLBACK", "ROLLBACK"),
            ("SAVEPOINT s", "SAVEPOINT"),
            ("RELEASE s", "RELEASE"),
            ("EXPLAIN DELETE FROM orders", "EXPLAIN of DELETE"),
            (
                "EXPLAIN QUERY PLAN UPDATE orders SET x = 1",
                "EXPLAIN of UPDATE",
            ),
            ("(SELECT 1)", "statement starting with `(`"),
            ("SELEKT 1", "statement starting with `SELEKT`"),
        ] {
            assert_eq!(kind(sql), expected, "{sql}");
        }
    }

    #[test]
    fn more_than_one_statement_is_refused() {
        assert_eq!(
            refusal("SELECT 1; DROP TABLE orders"),
            Refusal::MultipleStatements { count: 2 }
        );
        assert_eq!(
            refusal("SELECT 1; SELECT 2; SELECT 3;"),
            Refusal::MultipleStatements { count: 3 }
        );
        // A write first is named as what it is.
        assert_eq!(kind("DELETE FROM orders; SELECT 1"), "DELETE");
    }

    #[test]
    fn forbidden_functions_are_refused_anywhere() {
        for (sql, name) in [
            ("SELECT load_extension('x')", "load_extension"),
            ("SELECT LOAD_EXTENSION ('x', 'y')", "load_extension"),
            ("SELECT \"load_extension\"('x')", "load_extension"),
            (
                "SELECT 1 WHERE (SELECT load_extension('x')) IS NULL",
                "load_extension",
            ),
            ("SELECT writefile('x', 'y')", "writefile"),
            ("SELECT readfile('/etc/passwd')", "readfile"),
            ("SELECT * FROM fsdir('.')", "fsdir"),
            ("SELECT edit('x')", "edit"),
            ("SELECT fts3_tokenizer('x', X'00')", "fts3_tokenizer"),
        ] {
            assert_eq!(
                refusal(sql),
                Refusal::ForbiddenFunction { name: name.into() },
                "{sql}"
            );
        }
        // The same words as plain names are fine.
        check("SELECT edit, readfile FROM logs").unwrap();
        check("SELECT 'load_extension(x)'").unwrap();
        // Except a table-valued function's: SQLite reads `FROM fsdir` as a call.
        for (sql, name) in [
            ("SELECT * FROM fsdir", "fsdir"),
            ("SELECT * FROM FSDIR AS t", "fsdir"),
            ("SELECT name FROM \"zipfile\" z", "zipfile"),
            ("SELECT * FROM fileio_ls''('.')", "fileio_ls"),
        ] {
            assert_eq!(
                refusal(sql),
                Refusal::ForbiddenFunction { name: name.into() },
                "{sql}"
            );
        }
        check("SELECT 'fsdir', \"fsdir(\"").unwrap();
    }

    #[test]
    fn reads_are_accepted_and_trimmed() {
        for (sql, kept) in [
            ("SELECT 1", "SELECT 1"),
            ("  SELECT 1 ;  ", "SELECT 1"),
            ("SELECT 1;", "SELECT 1"),
            ("SELECT 1;;", "SELECT 1"),
            ("/* why */ SELECT 1 -- done\n; -- end", "SELECT 1"),
            ("SELECT 1 /* inner */ + 2", "SELECT 1 /* inner */ + 2"),
            ("SELECT 'a;b', 'DELETE FROM orders; --'", "SELECT 'a;b', 'DELETE FROM orders; --'"),
            ("SELECT \"delete\", [drop] FROM \"update\"", "SELECT \"delete\", [drop] FROM \"update\""),
            (
                "WITH x AS (SELECT 1 AS n), y(m) AS NOT MATERIALIZED (SELECT n FROM x) SELECT m FROM y",
                "WITH x AS (SELECT 1 AS n), y(m) AS NOT MATERIALIZED (SELECT n FROM x) SELECT m FROM y",
            ),
            ("WITH RECURSIVE r(x) AS (VALUES(1)) VALUES (2)", "WITH RECURSIVE r(x) AS (VALUES(1)) VALUES (2)"),
            ("WITH \"replace\" AS (SELECT 1) SELECT * FROM \"replace\"", "WITH \"replace\" AS (SELECT 1) SELECT * FROM \"replace\""),
            ("VALUES (1, 'a'), (2, 'b')", "VALUES (1, 'a'), (2, 'b')"),
            ("EXPLAIN QUERY PLAN SELECT * FROM orders", "EXPLAIN QUERY PLAN SELECT * FROM orders"),
            ("explain select 1", "explain select 1"),
            ("SELECT * FROM pragma_table_info('orders')", "SELECT * FROM pragma_table_info('orders')"),
            ("select name from sänger where 国 = '日本'", "select name from sänger where 国 = '日本'"),
        ] {
            assert_eq!(check(sql).map(|s| s.text), Ok(kept.to_string()), "{sql}");
        }
    }

    #[test]
    fn empty_and_malformed_text_is_refused() {
        assert_eq!(refusal(""), Refusal::Empty);
        assert_eq!(refusal(" -- nothing\n /* here */ ;"), Refusal::Empty);
        for sql in [
            "SELECT 'abc",
            "SELECT \"abc",
            "SELECT 1 /* x",
            "SELECT [x",
            "SELECT 1 ! 2",
        ] {
            assert!(matches!(refusal(sql), Refusal::Malformed { .. }), "{sql}");
        }
        // An unclosed string cannot hide a second statement from the count, or the reverse.
        assert!(matches!(
            refusal("SELECT 'a; DROP TABLE orders"),
            Refusal::Malformed { .. }
        ));
    }

    #[test]
    fn messages_say_what_to_do() {
        assert_eq!(
            refusal("DELETE FROM orders").to_string(),
            "only a single read-only statement can run; this is a DELETE: write one SELECT \
             (or WITH … SELECT, VALUES, EXPLAIN) instead"
        );
        assert!(refusal("INSERT INTO t VALUES (1)")
            .to_string()
            .contains("this is an INSERT"));
        assert_eq!(
            refusal("SELECT 1; SELECT 2").to_string(),
            "only a single read-only statement can run; this text has 2 statements: run them \
             one at a time"
        );
        assert!(refusal("PRAGMA x").to_string().contains("this is a PRAGMA"));
        assert!(refusal("SELECT 'x")
            .to_string()
            .contains("string starting at character 8"));
        assert!(refusal("SELECT load_extension('x')")
            .to_string()
            .contains("load_extension()"));
    }

    #[test]
    fn parameters_are_refused_however_sqlite_reads_them() {
        for (sql, token) in [
            ("SELECT ?", "?"),
            ("SELECT ?12", "?12"),
            ("SELECT :name", ":name"),
            ("SELECT @p", "@p"),
            ("SELECT #p", "#p"),
            ("SELECT $a::b", "$a::b"),
            // SQLite's Tcl-style suffix runs to the first `)`: the quote and the comment opener
            // inside it are part of the token, not a string or a comment.
            ("SELECT $a(')", "$a(')"),
            ("SELECT $a(--) FROM t", "$a(--)"),
            ("SELECT $a(/*) FROM t", "$a(/*)"),
        ] {
            assert_eq!(
                refusal(sql),
                Refusal::Parameter {
                    token: token.into()
                },
                "{sql}"
            );
        }
        // What the token hides is refused too, as SQLite would read it.
        assert!(check("SELECT $a(') ; DELETE FROM t; SELECT (')").is_err());
        assert!(check("SELECT $a(/*) ; DELETE FROM t --*/)").is_err());
        assert!(refusal("SELECT :x")
            .to_string()
            .contains("write the value itself"));
    }

    #[test]
    fn compiled_statements_bind_exactly_their_numbered_values() {
        let sql = "SELECT name FROM customers WHERE prefecture = ?1 AND id > ?2 OR id = ?1";
        let bound = check_bound(sql, 2).unwrap();
        assert_eq!((bound.as_str(), bound.parameters()), (sql, 2));
        assert_eq!(check_bound("SELECT 1", 0).unwrap().parameters(), 0);
        assert_eq!(check("SELECT 1").unwrap().parameters(), 0);
        // The plain path still refuses them.
        assert!(matches!(refusal(sql), Refusal::Parameter { .. }));
        for (sql, values, expected) in [
            ("SELECT ?3", 2, "it uses ?3"),
            ("SELECT ?1", 2, "no ?2 takes value 2"),
            ("SELECT 1", 1, "no ?1 takes value 1"),
        ] {
            match check_bound(sql, values) {
                Err(Refusal::UnboundParameters { reason, .. }) => {
                    assert_eq!(reason, expected, "{sql}")
                }
                other => panic!("{sql}: {other:?}"),
            }
        }
        // Only `?n` written plainly: no bare `?`, no leading zero, no named parameter.
        for (sql, token) in [
            ("SELECT ?", "?"),
            ("SELECT ?01", "?01"),
            ("SELECT ?0", "?0"),
            ("SELECT ?1, :name", ":name"),
            ("SELECT ?1, $a(')", "$a(')"),
        ] {
            assert_eq!(
                check_bound(sql, 1),
                Err(Refusal::Parameter {
                    token: token.into()
                }),
                "{sql}"
            );
        }
        // Every other rule holds as in `check`.
        assert_eq!(
            check_bound("DELETE FROM t WHERE id = ?1", 1).map(|s| s.text),
            Err(Refusal::NotReadOnly {
                kind: "DELETE".into()
            })
        );
        assert!(matches!(
            check_bound("SELECT ?1; DROP TABLE t", 1),
            Err(Refusal::MultipleStatements { .. })
        ));
        assert!(check_bound("SELECT 1", MAX_BOUND_VALUES + 1).is_err());
    }

    #[test]
    fn a_byte_order_mark_between_tokens_is_whitespace() {
        assert_eq!(
            refusal("SELECT \u{FEFF}load_extension('x')"),
            Refusal::ForbiddenFunction {
                name: "load_extension".into()
            }
        );
        assert_eq!(kind("\u{FEFF}DELETE FROM t"), "DELETE");
        check("SELECT 1,\u{FEFF}2").unwrap();
        // Inside a name it is part of the name, as any byte ≥ 0x80 is.
        check("SELECT a\u{FEFF}b FROM t").unwrap();
        // A vertical tab goes on a run of whitespace but cannot start one.
        check("SELECT \x0b1").unwrap();
        assert!(matches!(refusal("SELECT\x0b1"), Refusal::Malformed { .. }));
    }

    #[test]
    fn a_nul_character_is_refused() {
        for sql in ["SELECT 1\0; DELETE FROM t", "SELECT '\0'", "SELECT 1 -- \0"] {
            let message = refusal(sql).to_string();
            assert!(message.contains("NUL character"), "{sql:?}: {message}");
        }
    }

    #[test]
    fn only_pragma_functions_that_read_the_schema_may_run() {
        check("SELECT * FROM pragma_table_info('orders')").unwrap();
        check("SELECT name FROM PRAGMA_INDEX_LIST('orders')").unwrap();
        check("SELECT * FROM main.pragma_foreign_key_list('t')").unwrap();
        for (sql, name) in [
            ("SELECT * FROM pragma_optimize", "pragma_optimize"),
            (
                "SELECT * FROM pragma_user_version(5)",
                "pragma_user_version",
            ),
            (
                "SELECT * FROM \"pragma_journal_mode\"('off')",
                "pragma_journal_mode",
            ),
            ("SELECT * FROM [PRAGMA_Optimize]", "pragma_optimize"),
            (
                "SELECT 1 WHERE EXISTS (SELECT * FROM pragma_wal_checkpoint)",
                "pragma_wal_checkpoint",
            ),
        ] {
            assert_eq!(
                refusal(sql),
                Refusal::ForbiddenPragma { name: name.into() },
                "{sql}"
            );
        }
        assert!(refusal("SELECT * FROM pragma_optimize")
            .to_string()
            .contains("pragma_table_info"));
    }

    #[test]
    fn length_and_depth_are_capped_with_a_message() {
        let long = format!("SELECT '{}'", "x".repeat(MAX_SQL_BYTES));
        assert!(refusal(&long)
            .to_string()
            .contains("over the limit of 102400 bytes"));
        let nested =
            |levels: usize| format!("SELECT {}1{}", "(".repeat(levels), ")".repeat(levels));
        check(&nested(MAX_NESTING)).unwrap();
        assert_eq!(
            refusal(&nested(MAX_NESTING + 1)),
            Refusal::TooDeep {
                depth: MAX_NESTING + 1
            }
        );
        // Exactly at the limit is still read.
        let longest = format!("SELECT '{}'", "x".repeat(MAX_SQL_BYTES - "SELECT ''".len()));
        assert_eq!(check(&longest).map(|s| s.text.len()), Ok(MAX_SQL_BYTES));
        // SQLite takes one EXPLAIN and one WITH before a statement, and so does the guard.
        let explains = format!("{}SELECT 1", "EXPLAIN ".repeat(10_000));
        assert_eq!(kind(&explains), "EXPLAIN of EXPLAIN");
        // `QUERY PLAN` is one piece: `EXPLAIN QUERY` alone is followed by no statement.
        assert_eq!(kind("EXPLAIN QUERY x SELECT 1"), "EXPLAIN of QUERY");
        assert_eq!(
            kind("WITH x AS (SELECT 1)"),
            "WITH clause that is not followed by a SELECT"
        );
        let withs = format!("{}SELECT 1", "WITH x AS (SELECT 1) ".repeat(4_000));
        assert_eq!(kind(&withs), "WITH clause that is not followed by a SELECT");
        check("EXPLAIN QUERY PLAN WITH x AS (SELECT 1) SELECT * FROM x").unwrap();
        assert_eq!(
            kind("EXPLAIN WITH x AS (SELECT 1) DELETE FROM t"),
            "EXPLAIN of DELETE"
        );
    }

    /// `CASE … END` nests like parentheses; side by side, neither nests.
    #[test]
    fn case_and_end_nest_like_parentheses() {
        let nested = |levels: usize| {
            format!(
                "SELECT {}1{}",
                "CASE WHEN 1 THEN ".repeat(levels),
                " END".repeat(levels)
            )
        };
        check(&nested(MAX_NESTING)).unwrap();
        assert_eq!(
            refusal(&nested(MAX_NESTING + 1)),
            Refusal::TooDeep {
                depth: MAX_NESTING + 1
            }
        );
        let side_by_side =
            |item: &str| format!("SELECT {}", vec![item; MAX_NESTING + 1].join(", "));
        check(&side_by_side("CASE WHEN 1 THEN 1 END")).unwrap();
        check(&side_by_side("(1)")).unwrap();
        // An END that closes no CASE (a column named end) closes no level either.
        check("SELECT end FROM t").unwrap();
        let after_an_end = format!(
            "SELECT CASE WHEN 1 THEN 1 END, (end + {}1{}) FROM t",
            "(".repeat(MAX_NESTING),
            ")".repeat(MAX_NESTING + 1)
        );
        assert_eq!(
            refusal(&after_an_end),
            Refusal::TooDeep {
                depth: MAX_NESTING + 1
            }
        );
    }

    /// The most values a compiled statement binds: exactly [`MAX_BOUND_VALUES`].
    #[test]
    fn at_most_999_values_are_bound() {
        let numbered = |n: usize| {
            let list: Vec<String> = (1..=n).map(|i| format!("?{i}")).collect();
            format!("SELECT {}", list.join(", "))
        };
        let most = check_bound(&numbered(MAX_BOUND_VALUES), MAX_BOUND_VALUES).unwrap();
        assert_eq!(most.parameters(), MAX_BOUND_VALUES);
        match check_bound(&numbered(MAX_BOUND_VALUES + 1), MAX_BOUND_VALUES + 1) {
            Err(Refusal::UnboundParameters { reason, .. }) => {
                assert_eq!(reason, "at most 999 values can be bound")
            }
            other => panic!("{other:?}"),
        }
    }

    /// The shared list the browser end-to-end tests also run: every line must be refused.
    #[test]
    fn every_write_attempt_in_the_shared_list_is_refused() {
        let list = include_str!("../../tests/fixtures/write_attempts.txt");
        let attempts: Vec<String> = list
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.replace("\\n", "\n"))
            .collect();
        assert!(attempts.len() >= 30);
        for sql in &attempts {
            assert!(check(sql).is_err(), "accepted: {sql}");
        }
    }
}
