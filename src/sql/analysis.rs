//! What a query compares, and the traps it may fall into.
//!
//! These are heuristics over tokens, not a full SQL parser: they must never fail on SQL they do
//! not understand (they return nothing for it), and they must not invent comparisons that are
//! not in the text. The agent pairs what they find with the schema and the data.

mod dates;
mod query;

pub use dates::date_shape;

use crate::sql::lexer::{significant_tokens, TokenKind};
use query::{number, Query};

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
    /// can be resolved as SQLite would. CTE names appear here as tables.
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
/// A table named twice with the same alias is listed once.
pub fn tables_in(sql: &str) -> Vec<TableRef> {
    let Some(query) = Query::read(sql) else {
        return Vec::new();
    };
    let mut named: Vec<&(usize, TableRef)> = query.cores.iter().flat_map(|c| &c.tables).collect();
    named.sort_by_key(|(at, _)| *at);
    let mut tables: Vec<TableRef> = Vec::new();
    for (_, table) in named {
        let is_cte = query
            .cte_names
            .iter()
            .any(|n| n.eq_ignore_ascii_case(&table.name));
        let seen = tables
            .iter()
            .any(|t| t.name.eq_ignore_ascii_case(&table.name) && same_name(&t.alias, &table.alias));
        if !is_cte && !seen {
            tables.push(table.clone());
        }
    }
    tables
}

/// Every comparison of a column with literals, in order of appearance.
pub fn literal_comparisons(sql: &str) -> Vec<LiteralComparison> {
    Query::read(sql)
        .map(|q| {
            (0..q.tokens.len())
                .filter_map(|i| q.comparison_at(i))
                .collect()
        })
        .unwrap_or_default()
}

/// Every `NOT IN (SELECT …)`.
pub fn not_in_subqueries(sql: &str) -> Vec<NotInSubquery> {
    Query::read(sql)
        .map(|q| (0..q.tokens.len()).filter_map(|i| q.not_in_at(i)).collect())
        .unwrap_or_default()
}

/// Every `= NULL`, `!= NULL`, `<> NULL` (always unknown in SQL: `IS NULL` was meant), as written.
pub fn null_comparisons(sql: &str) -> Vec<String> {
    Query::read(sql)
        .map(|q| {
            (0..q.tokens.len())
                .filter_map(|i| q.null_comparison_at(i))
                .collect()
        })
        .unwrap_or_default()
}

/// Divisions that SQLite will compute in integers and so truncate (`SUM(qty) / COUNT(*)`), as
/// written. `is_integer_column` tells whether a column (resolved in the given scope) holds
/// integers; literals, `COUNT(…)`, `SUM`/`TOTAL` of columns, `CAST(… AS REAL)` and `* 1.0` are
/// understood here.
pub fn integer_divisions(
    sql: &str,
    is_integer_column: &dyn Fn(&ColumnRef, &[TableRef]) -> bool,
) -> Vec<String> {
    Query::read(sql)
        .map(|q| {
            (0..q.tokens.len())
                .filter_map(|i| q.integer_division_at(i, is_integer_column))
                .collect()
        })
        .unwrap_or_default()
}

/// Whether the statement's outermost `SELECT` sorts its rows: an `ORDER BY` outside any
/// parentheses.
pub fn has_order_by(sql: &str) -> bool {
    let Ok(tokens) = significant_tokens(sql) else {
        return false;
    };
    let mut depth = 0i32;
    let mut previous_was_order = false;
    for token in tokens {
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

fn same_name(a: &Option<String>, b: &Option<String>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a.eq_ignore_ascii_case(b),
        (None, None) => true,
        _ => false,
    }
}

/// The traps, each found at one token.
impl Query<'_> {
    fn comparison_at(&self, at: usize) -> Option<LiteralComparison> {
        let token = &self.tokens[at];
        let found = |column, op, negated, literals| LiteralComparison {
            column,
            op,
            negated,
            literals,
            scope: self.scope(self.core_of[at]),
        };
        let negated = at >= 1 && self.is_keyword(at - 1, "NOT");
        let left_end = if negated {
            at.checked_sub(2)
        } else {
            at.checked_sub(1)
        };
        let binary = match token.text {
            "=" | "==" => Some((ComparisonOp::Equals, at + 1)),
            "!=" | "<>" => Some((ComparisonOp::NotEquals, at + 1)),
            "<" | "<=" | ">" | ">=" => Order::from_operator(token.text)
                .map(|order| (ComparisonOp::Ordering(order), at + 1)),
            _ if token.is_keyword("IS") => {
                let mut right = at + 1;
                let mut not = false;
                if self.is_keyword(right, "NOT") {
                    not = true;
                    right += 1;
                }
                if self.is_keyword(right, "DISTINCT") && self.is_keyword(right + 1, "FROM") {
                    not = !not;
                    right += 2;
                }
                let op = if not {
                    ComparisonOp::NotEquals
                } else {
                    ComparisonOp::Equals
                };
                Some((op, right))
            }
            _ => None,
        };
        if let Some((op, right)) = binary {
            let left_end = at.checked_sub(1)?;
            // column <op> literal
            if let Some(column) = self.whole_column_ending_at(left_end) {
                let (end, literal) = self.literal_starting_at(right)?;
                return self
                    .ends_operand(self.skip_collate(end + 1))
                    .then(|| found(column, op, false, vec![literal]));
            }
            // literal <op> column
            let (start, literal) = self.literal_ending_at(left_end)?;
            let (end, column) = self.column_starting_at(right)?;
            let op = match op {
                ComparisonOp::Ordering(order) => ComparisonOp::Ordering(order.swapped()),
                op => op,
            };
            return (self.starts_operand(start) && self.ends_operand(self.skip_collate(end + 1)))
                .then(|| found(column, op, false, vec![literal]));
        }
        let column = || self.whole_column_ending_at(left_end?);
        if token.is_keyword("LIKE") || token.is_keyword("GLOB") {
            let op = if token.is_keyword("LIKE") {
                ComparisonOp::Like
            } else {
                ComparisonOp::Glob
            };
            let column = column()?;
            let (end, pattern) = self.literal_starting_at(at + 1)?;
            let mut after = end + 1;
            if self.is_keyword(after, "ESCAPE") {
                after = self.literal_starting_at(after + 1)?.0 + 1;
            }
            return self
                .ends_operand(self.skip_collate(after))
                .then(|| found(column, op, negated, vec![pattern]));
        }
        if token.is_keyword("BETWEEN") {
            let column = column()?;
            let (low_end, low) = self.literal_starting_at(at + 1)?;
            if !self.is_keyword(low_end + 1, "AND") {
                return None;
            }
            let (high_end, high) = self.literal_starting_at(low_end + 2)?;
            return self
                .ends_operand(high_end + 1)
                .then(|| found(column, ComparisonOp::Between, negated, vec![low, high]));
        }
        if token.is_keyword("IN") && self.subquery_at.get(at + 1) == Some(&None) {
            let column = column()?;
            let close = self.partner.get(at + 1).copied().flatten()?;
            let mut literals = Vec::new();
            let mut i = at + 2;
            while i < close {
                let (end, literal) = self.literal_starting_at(i)?;
                literals.push(literal);
                if end + 1 != close && !self.is(end + 1, TokenKind::Comma) {
                    return None;
                }
                i = end + 2;
            }
            return (!literals.is_empty() && self.ends_operand(close + 1))
                .then(|| found(column, ComparisonOp::In, negated, literals));
        }
        None
    }

    fn not_in_at(&self, at: usize) -> Option<NotInSubquery> {
        if !(self.is_keyword(at, "NOT") && self.is_keyword(at + 1, "IN")) {
            return None;
        }
        let level = self.subquery_at.get(at + 2).copied().flatten()?;
        let column = self.whole_column_ending_at(at.checked_sub(1)?)?;
        let cores = &self.levels[level].cores;
        Some(NotInSubquery {
            column,
            subquery_column: cores.first().and_then(|&c| self.selected_column(c)),
            subquery_tables: cores
                .iter()
                .flat_map(|&c| self.cores[c].tables.iter().map(|(_, t)| t.clone()))
                .collect(),
        })
    }

    /// The column a `SELECT` selects, when it selects exactly one plain column.
    fn selected_column(&self, core: usize) -> Option<ColumnRef> {
        let mut at = self.cores[core].start + 1;
        if self.is_keyword(at, "DISTINCT") || self.is_keyword(at, "ALL") {
            at += 1;
        }
        let (end, column) = self.column_starting_at(at)?;
        let after = self.after_alias(end + 1).0;
        (self.is_keyword(after, "FROM") || self.is(after, TokenKind::RightParen)).then_some(column)
    }

    fn null_comparison_at(&self, at: usize) -> Option<String> {
        if !self.is_operator(at, &["=", "==", "!=", "<>"]) {
            return None;
        }
        let (from, to) = if self.is_keyword(at + 1, "NULL") {
            let left = at
                .checked_sub(1)
                .and_then(|end| self.primary_ending_at(end))
                .filter(|&start| self.starts_operand(start));
            (left.unwrap_or(at), at + 1)
        } else if at >= 1 && self.is_keyword(at - 1, "NULL") {
            let right = self
                .primary_starting_at(at + 1)
                .filter(|&end| self.ends_operand(end + 1));
            (at - 1, right.unwrap_or(at))
        } else {
            return None;
        };
        Some(self.text(from, to).to_string())
    }

    fn integer_division_at(
        &self,
        at: usize,
        is_integer_column: &dyn Fn(&ColumnRef, &[TableRef]) -> bool,
    ) -> Option<String> {
        if !self.is_operator(at, &["/"]) {
            return None;
        }
        let left = self.term_start(at)?;
        let mut right = at + 1;
        while self.is_operator(right, &["-", "+"]) {
            right += 1;
        }
        let right_end = self.primary_starting_at(right)?;
        let scope = self.scope(self.core_of[at]);
        let integer = |from, to| self.is_integer_expression(from, to, &scope, is_integer_column);
        (integer(left, at) && integer(at + 1, right_end + 1))
            .then(|| self.text(left, right_end).to_string())
    }

    /// Where the left operand of the `/` at `slash` starts: back over `*`, `/`, `%` and signs.
    fn term_start(&self, slash: usize) -> Option<usize> {
        let mut end = slash.checked_sub(1)?;
        loop {
            let mut start = self.primary_ending_at(end)?;
            if start >= 1
                && self.is_operator(start - 1, &["-", "+"])
                && (start == 1 || !self.is_operand_end(start - 2))
            {
                start -= 1;
            }
            if start >= 2 && self.is_operator(start - 1, &["*", "/", "%"]) {
                end = start - 2;
            } else {
                return Some(start);
            }
        }
    }

    /// True when the tokens `from..to` are integer operands joined by `+ - * / %`, each known to
    /// hold an integer.
    fn is_integer_expression(
        &self,
        from: usize,
        to: usize,
        scope: &[TableRef],
        is_integer_column: &dyn Fn(&ColumnRef, &[TableRef]) -> bool,
    ) -> bool {
        let mut at = from;
        loop {
            while at < to && self.is_operator(at, &["-", "+"]) {
                at += 1;
            }
            let Some(end) = self.primary_starting_at(at).filter(|&end| end < to) else {
                return false;
            };
            if !self.is_integer_primary(at, end, scope, is_integer_column) {
                return false;
            }
            if end + 1 == to {
                return true;
            }
            if !self.is_operator(end + 1, &["+", "-", "*", "/", "%"]) {
                return false;
            }
            at = end + 2;
        }
    }

    fn is_integer_primary(
        &self,
        start: usize,
        end: usize,
        scope: &[TableRef],
        is_integer_column: &dyn Fn(&ColumnRef, &[TableRef]) -> bool,
    ) -> bool {
        let token = &self.tokens[start];
        let expression = |from, to| self.is_integer_expression(from, to, scope, is_integer_column);
        match token.kind {
            TokenKind::Number => matches!(number(token.text, false), Some(Literal::Integer(_))),
            TokenKind::LeftParen => self.subquery_at[start].is_none() && expression(start + 1, end),
            _ if self.is(start + 1, TokenKind::LeftParen) => {
                let mut arguments = start + 2;
                if self.is_keyword(arguments, "DISTINCT") {
                    arguments += 1;
                }
                match token.text.to_ascii_uppercase().as_str() {
                    "COUNT" | "LENGTH" => true,
                    "SUM" | "MIN" | "MAX" | "ABS" => expression(arguments, end),
                    "CAST" => self.tokens[arguments..end]
                        .iter()
                        .position(|t| t.is_keyword("AS"))
                        .is_some_and(|as_at| {
                            self.tokens[arguments + as_at + 1..end]
                                .iter()
                                .any(|t| t.text.to_ascii_uppercase().contains("INT"))
                        }),
                    // TOTAL and AVG give reals; anything else is not known to give integers.
                    _ => false,
                }
            }
            _ => self
                .column_starting_at(start)
                .is_some_and(|(column_end, column)| {
                    column_end == end && is_integer_column(&column, scope)
                }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(name: &str, alias: Option<&str>) -> TableRef {
        TableRef {
            name: name.into(),
            alias: alias.map(Into::into),
        }
    }

    fn column(qualifier: Option<&str>, name: &str) -> ColumnRef {
        ColumnRef {
            qualifier: qualifier.map(Into::into),
            name: name.into(),
        }
    }

    fn text(s: &str) -> Literal {
        Literal::Text(s.into())
    }

    /// Each comparison as `qualifier.column op literals`, for compact assertions.
    fn compared(sql: &str) -> Vec<(String, ComparisonOp, bool, Vec<Literal>)> {
        literal_comparisons(sql)
            .into_iter()
            .map(|c| {
                let name = match c.column.qualifier {
                    Some(q) => format!("{q}.{}", c.column.name),
                    None => c.column.name,
                };
                (name, c.op, c.negated, c.literals)
            })
            .collect()
    }

    #[test]
    fn a_qualified_comparison_and_its_scope() {
        let found =
            literal_comparisons("SELECT name FROM customers c WHERE c.prefecture = '東京都'");
        assert_eq!(
            found,
            vec![LiteralComparison {
                column: column(Some("c"), "prefecture"),
                op: ComparisonOp::Equals,
                negated: false,
                literals: vec![text("東京都")],
                scope: vec![table("customers", Some("c"))],
            }]
        );
    }

    #[test]
    fn every_kind_of_comparison() {
        use ComparisonOp::*;
        let sql = "SELECT * FROM products p JOIN \"Order Details\" AS od ON od.product_id = p.id \
                   WHERE category IN ('家電', 'furniture') AND p.price >= 1000 AND 5 < stock \
                   AND name NOT LIKE '%son' AND \"unit price\" BETWEEN 1.5 AND 2 \
                   AND sku GLOB 'A*' AND [kind] != 'x' AND code <> -3 AND flag IS NOT 'y' \
                   AND brand IS 'z' AND grade NOT IN (1, 2) AND id NOT BETWEEN 3 AND 4 \
                   AND note == 'n' COLLATE NOCASE AND label LIKE 'a!%' ESCAPE '!' \
                   AND od.qty IS NOT NULL AND od.qty = od.min_qty";
        assert_eq!(
            compared(sql),
            vec![
                (
                    "category".into(),
                    In,
                    false,
                    vec![text("家電"), text("furniture")]
                ),
                (
                    "p.price".into(),
                    Ordering(Order::GreaterOrEqual),
                    false,
                    vec![Literal::Integer(1000)]
                ),
                (
                    "stock".into(),
                    Ordering(Order::Greater),
                    false,
                    vec![Literal::Integer(5)]
                ),
                ("name".into(), Like, true, vec![text("%son")]),
                (
                    "unit price".into(),
                    Between,
                    false,
                    vec![Literal::Real(1.5), Literal::Integer(2)]
                ),
                ("sku".into(), Glob, false, vec![text("A*")]),
                ("kind".into(), NotEquals, false, vec![text("x")]),
                ("code".into(), NotEquals, false, vec![Literal::Integer(-3)]),
                ("flag".into(), NotEquals, false, vec![text("y")]),
                ("brand".into(), Equals, false, vec![text("z")]),
                (
                    "grade".into(),
                    In,
                    true,
                    vec![Literal::Integer(1), Literal::Integer(2)]
                ),
                (
                    "id".into(),
                    Between,
                    true,
                    vec![Literal::Integer(3), Literal::Integer(4)]
                ),
                ("note".into(), Equals, false, vec![text("n")]),
                ("label".into(), Like, false, vec![text("a!%")]),
            ]
        );
        let scope = &literal_comparisons(sql)[0].scope;
        assert_eq!(
            scope,
            &vec![
                table("products", Some("p")),
                table("Order Details", Some("od"))
            ]
        );
    }

    #[test]
    fn expressions_are_not_mistaken_for_columns() {
        for sql in [
            "SELECT * FROM t WHERE a + b = 5",
            "SELECT * FROM t WHERE a = 5 + b",
            "SELECT * FROM t WHERE lower(name) = 'x'",
            "SELECT * FROM t WHERE a = 'x' || b",
            "SELECT * FROM t WHERE a = b",
            "SELECT * FROM t WHERE a IN (1, b)",
            "SELECT * FROM t WHERE a IN (SELECT b FROM u)",
            "SELECT * FROM t WHERE CASE WHEN x THEN 1 END = 1",
            "SELECT * FROM t WHERE x BETWEEN 1 AND y = 5",
            "SELECT * FROM t WHERE x IS NULL AND y IS NOT NULL",
            "SELECT * FROM t WHERE 'a' = 'a'",
            "SELECT * FROM t WHERE a.b.c.d = 1",
        ] {
            assert_eq!(compared(sql), vec![], "{sql}");
        }
    }

    #[test]
    fn subqueries_and_ctes_have_their_own_scope() {
        let sql = "WITH recent AS (SELECT * FROM orders o WHERE o.ordered_at >= '2024-01-01') \
                   SELECT c.name FROM customers c JOIN recent r ON r.customer_id = c.id \
                   WHERE c.region = 'north' AND EXISTS (SELECT 1 FROM returns x \
                   WHERE x.order_id = r.id AND x.reason = 'broken') \
                   UNION SELECT name FROM suppliers WHERE city = 'Kyoto'";
        let found = literal_comparisons(sql);
        let scopes: Vec<(String, Vec<TableRef>)> = found
            .iter()
            .map(|c| (c.column.name.clone(), c.scope.clone()))
            .collect();
        let outer = vec![table("customers", Some("c")), table("recent", Some("r"))];
        let mut inner = vec![table("returns", Some("x"))];
        inner.extend(outer.clone());
        assert_eq!(
            scopes,
            vec![
                ("ordered_at".into(), vec![table("orders", Some("o"))]),
                ("region".into(), outer),
                ("reason".into(), inner),
                ("city".into(), vec![table("suppliers", None)]),
            ]
        );
        assert_eq!(
            tables_in(sql),
            vec![
                table("orders", Some("o")),
                table("customers", Some("c")),
                table("returns", Some("x")),
                table("suppliers", None),
            ]
        );
    }

    #[test]
    fn tables_in_reads_every_from_and_join() {
        let sql = "SELECT * FROM main.orders AS o, customers \
                   LEFT OUTER JOIN (SELECT id FROM products p) AS sub ON sub.id = o.product_id \
                   NATURAL JOIN \"Order Details\" CROSS JOIN pragma_table_info('orders') AS info \
                   JOIN (shops s JOIN staff USING (shop_id)) ON s.id = o.shop_id \
                   WHERE o.id NOT IN (SELECT order_id FROM [returns]) \
                   AND 1 IS NOT DISTINCT FROM 1";
        assert_eq!(
            tables_in(sql),
            vec![
                table("orders", Some("o")),
                table("customers", None),
                table("products", Some("p")),
                table("Order Details", None),
                table("shops", Some("s")),
                table("staff", None),
                table("returns", None),
            ]
        );
        assert_eq!(tables_in("SELECT 1"), vec![]);
        assert_eq!(
            tables_in("SELECT * FROM sänger JOIN 顧客 k"),
            vec![table("sänger", None), table("顧客", Some("k"))]
        );
    }

    #[test]
    fn not_in_over_a_subquery() {
        let found = not_in_subqueries(
            "SELECT name FROM customers WHERE id NOT IN (SELECT customer_id FROM orders)",
        );
        assert_eq!(
            found,
            vec![NotInSubquery {
                column: column(None, "id"),
                subquery_column: Some(column(None, "customer_id")),
                subquery_tables: vec![table("orders", None)],
            }]
        );
        let found = not_in_subqueries(
            "SELECT * FROM t WHERE t.a NOT IN (SELECT DISTINCT o.b AS x FROM o JOIN p ON 1) \
             AND c NOT IN (SELECT max(d) FROM e) AND f NOT IN (1, 2) AND g IN (SELECT h FROM i)",
        );
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].column, column(Some("t"), "a"));
        assert_eq!(found[0].subquery_column, Some(column(Some("o"), "b")));
        assert_eq!(
            found[0].subquery_tables,
            vec![table("o", None), table("p", None)]
        );
        assert_eq!(found[1].subquery_column, None);
    }

    #[test]
    fn comparisons_with_null_as_written() {
        assert_eq!(
            null_comparisons(
                "SELECT * FROM t WHERE c.email = NULL OR phone<>NULL OR NULL != fax \
                 OR a + b = NULL OR x IS NULL OR y IS NOT NULL"
            ),
            vec!["c.email = NULL", "phone<>NULL", "NULL != fax", "= NULL"]
        );
    }

    #[test]
    fn integer_divisions_are_found_when_both_sides_are_integers() {
        let integer_columns = |c: &ColumnRef, scope: &[TableRef]| {
            assert!(!scope.is_empty() || c.name == "n");
            ["quantity", "n", "qty"].contains(&c.name.as_str())
        };
        let divisions = |sql: &str| integer_divisions(sql, &integer_columns);
        assert_eq!(
            divisions("SELECT SUM(quantity)/COUNT(*) FROM orders"),
            vec!["SUM(quantity)/COUNT(*)"]
        );
        assert_eq!(divisions("SELECT 1 / 2"), vec!["1 / 2"]);
        assert_eq!(
            divisions("SELECT o.qty * 100 / (SELECT 1) , -quantity / 3 FROM orders o"),
            vec!["-quantity / 3"]
        );
        assert_eq!(
            divisions("SELECT SUM(DISTINCT quantity) / count(id) * 1.0 FROM orders"),
            vec!["SUM(DISTINCT quantity) / count(id)"]
        );
        for sql in [
            "SELECT SUM(quantity) * 1.0 / COUNT(*) FROM orders",
            "SELECT 1.0 * SUM(quantity) / COUNT(*) FROM orders",
            "SELECT CAST(SUM(quantity) AS REAL) / COUNT(*) FROM orders",
            "SELECT AVG(quantity) / 2 FROM orders",
            "SELECT TOTAL(quantity) / COUNT(*) FROM orders",
            "SELECT SUM(price) / COUNT(*) FROM orders",
            "SELECT quantity / 2.0 FROM orders",
            "SELECT a - quantity / price FROM orders",
        ] {
            assert_eq!(divisions(sql), Vec::<String>::new(), "{sql}");
        }
        assert_eq!(
            divisions("SELECT CAST(price AS INTEGER) / (quantity + 1) FROM orders"),
            vec!["CAST(price AS INTEGER) / (quantity + 1)"]
        );
    }

    #[test]
    fn order_by_only_counts_at_the_top_level() {
        assert!(has_order_by("SELECT a FROM t ORDER BY a"));
        assert!(has_order_by("select a from t order\n by 1 limit 3"));
        assert!(!has_order_by("SELECT * FROM (SELECT a FROM t ORDER BY a)"));
        assert!(!has_order_by("SELECT 'ORDER BY' FROM t"));
    }

    #[test]
    fn never_panics_on_prefixes_or_garbage() {
        let queries = [
            "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r WHERE x < 5) \
             SELECT c.name, SUM(o.qty) / COUNT(*) FROM customers c JOIN orders o ON o.cid = c.id \
             WHERE c.region IN ('a', 'b') AND o.id NOT IN (SELECT oid FROM returns) \
             AND o.at BETWEEN '2024-01-01' AND '2024-12-31' AND c.email = NULL \
             GROUP BY 1 HAVING COUNT(*) > 2 ORDER BY 2 DESC LIMIT 5",
            "SELECT (((a))) = -1, x NOT LIKE 'y' ESCAPE 'z', \"q\".\"r\" IS NOT 'x' FROM [t] t \
             WHERE EXISTS (SELECT * FROM (VALUES (1), (2)) v WHERE v.column1 / 2 = 1)",
            "SELECT 'ü', 顧客.名前 FROM 顧客 WHERE 名前 LIKE '%田%' /* c */ -- end",
        ];
        let any_column = |_: &ColumnRef, _: &[TableRef]| true;
        let run_all = |sql: &str| {
            tables_in(sql);
            literal_comparisons(sql);
            not_in_subqueries(sql);
            null_comparisons(sql);
            integer_divisions(sql, &any_column);
            has_order_by(sql);
            date_shape(sql);
        };
        for query in queries {
            for (end, _) in query.char_indices() {
                run_all(&query[..end]);
                run_all(&query[end..]);
            }
        }
        // Random token soup, from a fixed seed so that a failure can be replayed.
        let pieces = [
            "(", ")", ",", ";", ".", "=", "/", "-", "*", "NOT", "IN", "IS", "BETWEEN", "AND",
            "LIKE", "ESCAPE", "COLLATE", "SELECT", "FROM", "JOIN", "ON", "WITH", "AS", "x", "t",
            "'s'", "1", "2.5", "NULL", "VALUES", "COUNT", "SUM", "CAST", "DISTINCT", "\"q\"",
        ];
        let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
        for _ in 0..3_000 {
            let mut sql = String::new();
            for _ in 0..(seed % 24) {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                sql.push_str(pieces[(seed % pieces.len() as u64) as usize]);
                sql.push(' ');
            }
            run_all(&sql);
        }
    }
}
