//! What a query compares, and the traps it may fall into.
//!
//! These are heuristics over tokens, not a full SQL parser: they must never fail on SQL they do
//! not understand (they return nothing for it), and they must not invent comparisons that are
//! not in the text. The agent pairs what they find with the schema and the data.

/// A table or view named in a `FROM` or `JOIN` clause.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableRef {
    /// As written, unquoted (`Order Details`, not `"Order Details"`).
    pub name: String,
    pub alias: Option<String>,
}

/// A column as written: `c.prefecture` (qualifier `c`) or `prefecture`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColumnRef {
    pub qualifier: Option<String>,
    pub name: String,
}

/// A literal value in the SQL text.
#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    Text(String),
    Integer(i64),
    Real(f64),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ComparisonOp {
    /// `=`, `==`, `IS`
    Equals,
    /// `!=`, `<>`, `IS NOT`
    NotEquals,
    /// `<`, `<=`, `>`, `>=`
    Ordering,
    /// `IN (literal, …)`
    In,
    Like,
    Glob,
    /// `BETWEEN a AND b`
    Between,
}

/// One comparison of a column with literal values: `c.prefecture = '東京都'`,
/// `category IN ('家電', 'furniture')`, `name LIKE '%son'`, `ordered_at BETWEEN '2024-03-01' AND …`.
#[derive(Clone, Debug, PartialEq)]
pub struct LiteralComparison {
    pub column: ColumnRef,
    pub op: ComparisonOp,
    /// True for `NOT IN`, `NOT LIKE`, `NOT GLOB`, `NOT BETWEEN`.
    pub negated: bool,
    pub literals: Vec<Literal>,
    /// The tables of the `SELECT` the comparison belongs to (its own `FROM`/`JOIN`s), so that an
    /// unqualified column can be resolved.
    pub scope: Vec<TableRef>,
}

/// `x NOT IN (SELECT y FROM …)`: one NULL among the `y` makes the whole condition unknown, so
/// the query returns no rows.
#[derive(Clone, Debug, PartialEq)]
pub struct NotInSubquery {
    /// The column on the left of `NOT IN`.
    pub column: ColumnRef,
    /// The column the subquery selects, when it selects a plain column.
    pub subquery_column: Option<ColumnRef>,
    /// The subquery's own tables.
    pub subquery_tables: Vec<TableRef>,
}

/// Every table or view the query reads (all `FROM`/`JOIN`s, subqueries included), without CTE names.
pub fn tables_in(sql: &str) -> Vec<TableRef> {
    todo!()
}

/// Every comparison of a column with literals, in order of appearance.
pub fn literal_comparisons(sql: &str) -> Vec<LiteralComparison> {
    todo!()
}

/// Every `NOT IN (SELECT …)`.
pub fn not_in_subqueries(sql: &str) -> Vec<NotInSubquery> {
    todo!()
}

/// Every `= NULL`, `!= NULL`, `<> NULL` (always unknown in SQL: `IS NULL` was meant), as written.
pub fn null_comparisons(sql: &str) -> Vec<String> {
    todo!()
}

/// Divisions that SQLite will compute in integers and so truncate (`SUM(qty) / COUNT(*)`), as
/// written. `is_integer_column` tells whether a column (resolved in the given scope) holds
/// integers; literals, `COUNT(…)`, `SUM`/`TOTAL` of columns, `CAST(… AS REAL)` and `* 1.0` are
/// understood here.
pub fn integer_divisions(
    sql: &str,
    is_integer_column: &dyn Fn(&ColumnRef, &[TableRef]) -> bool,
) -> Vec<String> {
    todo!()
}

/// The shape of a date or date-time written as text, e.g. `YYYY-MM-DD`, `YYYY/MM/DD`,
/// `DD.MM.YYYY`, `MM/DD/YYYY`, `YYYY-MM`, `YYYY-MM-DD HH:MM:SS`, `YYYYMMDD`; `None` for text
/// that is not a date.
pub fn date_shape(text: &str) -> Option<String> {
    todo!()
}
