//! What a query compares, and the traps it may fall into.
//!
//! [`Query::read`] reads the SQL once (`query`); the questions below are answered from that
//! reading, and the traps are found one token at a time (`traps`).
//!
//! These are heuristics over tokens, not a full SQL parser: they must never fail on SQL they do
//! not understand (they return nothing for it), and they must not invent comparisons that are
//! not in the text. The agent pairs what they find with the schema and the data.

mod dates;
mod query;
#[cfg(test)]
mod tests;
mod traps;

pub use dates::date_shape;
pub use query::Query;

use crate::sql::lexer::TokenKind;
use std::collections::HashSet;
use std::sync::Arc;

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
    /// `<`, `<=`, `>`, `>=`, read with the column on the left (`5 < stock` is `stock > 5`).
    Ordering(Order),
    /// `IN (literal, …)`
    In,
    Like,
    Glob,
    /// `BETWEEN a AND b`
    Between,
}

/// The order in `column <op> literal`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    Less,
    LessOrEqual,
    Greater,
    GreaterOrEqual,
}

impl Order {
    fn from_operator(operator: &str) -> Option<Order> {
        match operator {
            "<" => Some(Order::Less),
            "<=" => Some(Order::LessOrEqual),
            ">" => Some(Order::Greater),
            ">=" => Some(Order::GreaterOrEqual),
            _ => None,
        }
    }

    /// The same comparison with its sides swapped: `5 < stock` is `stock > 5`.
    fn swapped(self) -> Order {
        match self {
            Order::Less => Order::Greater,
            Order::LessOrEqual => Order::GreaterOrEqual,
            Order::Greater => Order::Less,
            Order::GreaterOrEqual => Order::LessOrEqual,
        }
    }
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
    /// The tables of the `SELECT` the comparison belongs to (its own `FROM`/`JOIN`s first, then
    /// those of the `SELECT`s around it, which a correlated subquery can name), so that a column
    /// can be resolved as SQLite would. CTE names appear here as tables. Shared by every
    /// comparison of the same `SELECT`.
    pub scope: Arc<[TableRef]>,
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

/// The questions a query answers, each from the one reading [`Query::read`] made. Every answer
/// costs time linear in the SQL's length (or close to it), whatever its nesting.
impl Query<'_> {
    /// Every table or view the query reads (all `FROM`/`JOIN`s, subqueries included), without
    /// CTE names. A table named twice with the same alias is listed once.
    pub fn tables(&self) -> Vec<TableRef> {
        let mut named: Vec<&(usize, TableRef)> =
            self.cores.iter().flat_map(|c| &c.tables).collect();
        named.sort_by_key(|(at, _)| *at);
        let ctes: HashSet<String> = self
            .cte_names
            .iter()
            .map(|name| name.to_ascii_lowercase())
            .collect();
        let mut seen = HashSet::new();
        let mut tables = Vec::new();
        for (_, table) in named {
            let name = table.name.to_ascii_lowercase();
            let alias = table.alias.as_ref().map(|a| a.to_ascii_lowercase());
            if !ctes.contains(&name) && seen.insert((name, alias)) {
                tables.push(table.clone());
            }
        }
        tables
    }

    /// Every comparison of a column with literals, in order of appearance.
    pub fn literal_comparisons(&self) -> Vec<LiteralComparison> {
        (0..self.tokens.len())
            .filter_map(|i| self.comparison_at(i))
            .collect()
    }

    /// Every `NOT IN (SELECT …)`.
    pub fn not_in_subqueries(&self) -> Vec<NotInSubquery> {
        (0..self.tokens.len())
            .filter_map(|i| self.not_in_at(i))
            .collect()
    }

    /// Every `= NULL`, `!= NULL`, `<> NULL` (always unknown in SQL: `IS NULL` was meant), as
    /// written.
    pub fn null_comparisons(&self) -> Vec<String> {
        (0..self.tokens.len())
            .filter_map(|i| self.null_comparison_at(i))
            .collect()
    }

    /// Divisions that SQLite will compute in integers and so truncate (`SUM(qty) / COUNT(*)`),
    /// as written. `is_integer_column` tells whether a column (resolved in the given scope)
    /// holds integers; literals, `COUNT(…)`, `SUM`/`TOTAL` of columns, `CAST(… AS REAL)` and
    /// `* 1.0` are understood here.
    pub fn integer_divisions(
        &self,
        is_integer_column: &dyn Fn(&ColumnRef, &[TableRef]) -> bool,
    ) -> Vec<String> {
        let mut left_operands = vec![None; self.tokens.len()];
        (0..self.tokens.len())
            .filter_map(|i| self.integer_division_at(i, is_integer_column, &mut left_operands))
            .collect()
    }

    /// Whether the statement's outermost `SELECT` sorts its rows: an `ORDER BY` outside any
    /// parentheses.
    pub fn has_order_by(&self) -> bool {
        let mut depth = 0i32;
        let mut previous_was_order = false;
        for token in &self.tokens {
            match token.kind {
                TokenKind::LeftParen => depth += 1,
                TokenKind::RightParen => depth -= 1,
                _ if previous_was_order && token.is_keyword("BY") => return true,
                _ => {}
            }
            previous_was_order = depth == 0 && token.is_keyword("ORDER");
        }
        false
    }
}
