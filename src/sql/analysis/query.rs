//! Reading a query's structure from its tokens, once: which `SELECT` each token belongs to, the
//! tables of each `FROM`, and the operands around an operator. The traps (`traps`) are found
//! with these.
//!
//! Reading is linear in the number of tokens: parentheses are matched once with a stack, and
//! every later step jumps over a parenthesized part through its partner instead of scanning it.

use super::{ColumnRef, Literal, TableRef};
use crate::sql::lexer::{self, Token, TokenKind};
use std::sync::Arc;

/// A comparison's scope reaches this many enclosing `SELECT`s out at most: a correlated
/// subquery names a table a few levels up, and a deeper reach would make every comparison of a
/// deeply nested query carry every table around it.
const SCOPE_LEVELS: usize = 32;

/// Keywords that are ordinary names when SQLite reads them as columns or tables.
const KEYWORDS_USED_AS_NAMES: &[&str] = &[
    "ACTION", "CURRENT", "DATABASE", "FIRST", "KEY", "LAST", "NO", "PLAN", "QUERY", "RANGE", "ROW",
    "ROWS", "TEMP", "VIEW",
];

/// Keywords SQLite also knows as function names: `replace(…)`, `like(…)`, `CAST(…)`.
const FUNCTION_KEYWORDS: &[&str] = &["CAST", "GLOB", "LIKE", "REPLACE"];

/// Words after which a new operand starts (a comparison cannot reach across them).
const OPERAND_STARTERS: &[&str] = &[
    "AND", "OR", "NOT", "WHERE", "ON", "HAVING", "WHEN", "THEN", "ELSE", "SELECT", "DISTINCT",
    "ALL", "CASE", "BY",
];

/// Words that continue an expression after an operand, so a literal before them is not the
/// whole right-hand side.
const EXPRESSION_CONTINUERS: &[&str] = &[
    "IS", "IN", "LIKE", "GLOB", "BETWEEN", "MATCH", "REGEXP", "ISNULL", "NOTNULL", "NOT",
    "COLLATE", "ESCAPE",
];

/// Words that end a `FROM` clause.
const FROM_CLAUSE_ENDS: &[&str] = &[
    "WHERE",
    "GROUP",
    "HAVING",
    "WINDOW",
    "ORDER",
    "LIMIT",
    "UNION",
    "INTERSECT",
    "EXCEPT",
    "RETURNING",
];

/// Words that start the next table of a `FROM` clause after an `ON` condition.
const JOIN_STARTS: &[&str] = &["JOIN", "NATURAL", "LEFT", "RIGHT", "FULL", "INNER", "CROSS"];

fn one_of(token: &Token, words: &[&str]) -> bool {
    token.kind == TokenKind::Word && words.iter().any(|w| token.text.eq_ignore_ascii_case(w))
}

/// One `SELECT …` (or `VALUES …`) of a query; a compound (`UNION`) has one per part.
pub(super) struct Core {
    /// Index of its `SELECT` or `VALUES` token.
    pub(super) start: usize,
    /// The core whose expression contains this one's subquery, if any.
    parent: Option<usize>,
    /// Its `FROM` tables, each with the index of its name token.
    pub(super) tables: Vec<(usize, TableRef)>,
}

/// The whole text, or the inside of one parenthesized subquery.
pub(super) struct Level {
    parent_core: Option<usize>,
    pub(super) cores: Vec<usize>,
}

/// An SQL text read once, ready for questions ([`Query::tables`],
/// [`Query::literal_comparisons`], …): its significant tokens, matching parentheses, and the
/// `SELECT` each token belongs to.
pub struct Query<'a> {
    sql: &'a str,
    pub(super) tokens: Vec<Token<'a>>,
    /// For each `(` its `)` and for each `)` its `(`.
    pub(super) partner: Vec<Option<usize>>,
    /// For each `(` that opens a subquery, the subquery's level.
    pub(super) subquery_at: Vec<Option<usize>>,
    pub(super) core_of: Vec<Option<usize>>,
    pub(super) levels: Vec<Level>,
    pub(super) cores: Vec<Core>,
    /// For each core, the tables a column in it can name (see [`Query::scope`]).
    scopes: Vec<Arc<[TableRef]>>,
    pub(super) cte_names: Vec<String>,
}

impl<'a> Query<'a> {
    /// Reads `sql`. Text that does not tokenize (it cannot run either) reads as an empty query,
    /// which finds nothing.
    pub fn read(sql: &'a str) -> Query<'a> {
        let tokens = lexer::significant_tokens(sql).unwrap_or_default();
        let n = tokens.len();
        let mut partner = vec![None; n];
        let mut open = Vec::new();
        for (i, token) in tokens.iter().enumerate() {
            match token.kind {
                TokenKind::LeftParen => open.push(i),
                TokenKind::RightParen => {
                    if let Some(o) = open.pop() {
                        partner[o] = Some(i);
                        partner[i] = Some(o);
                    }
                }
                _ => {}
            }
        }
        let mut query = Query {
            sql,
            tokens,
            partner,
            subquery_at: vec![None; n],
            core_of: vec![None; n],
            levels: vec![Level {
                parent_core: None,
                cores: Vec::new(),
            }],
            cores: Vec::new(),
            scopes: Vec::new(),
            cte_names: Vec::new(),
        };
        query.find_levels_and_cores();
        query.read_from_clauses();
        query.scopes = (0..query.cores.len())
            .map(|core| query.scope_of(core))
            .collect();
        query.cte_names = (0..n)
            .filter(|&i| query.tokens[i].is_keyword("WITH"))
            .flat_map(|i| query.cte_names_after(i))
            .collect();
        query
    }

    fn find_levels_and_cores(&mut self) {
        // (level, its current core, index of the `)` that closes it)
        let mut stack: Vec<(usize, Option<usize>, usize)> = vec![(0, None, usize::MAX)];
        for i in 0..self.tokens.len() {
            if stack.len() > 1 && stack.last().is_some_and(|top| top.2 == i) {
                stack.pop();
            }
            let Some(top) = stack.last_mut() else { return };
            let level = top.0;
            if one_of(&self.tokens[i], &["SELECT", "VALUES"]) {
                let id = self.cores.len();
                self.cores.push(Core {
                    start: i,
                    parent: self.levels[level].parent_core,
                    tables: Vec::new(),
                });
                self.levels[level].cores.push(id);
                top.1 = Some(id);
            }
            let core = top.1;
            self.core_of[i] = core;
            let opens_subquery = self.is(i, TokenKind::LeftParen)
                && self
                    .tokens
                    .get(i + 1)
                    .is_some_and(|t| one_of(t, &["SELECT", "VALUES", "WITH"]));
            if let (true, Some(close)) = (opens_subquery, self.partner[i]) {
                self.subquery_at[i] = Some(self.levels.len());
                stack.push((self.levels.len(), None, close));
                self.levels.push(Level {
                    parent_core: core,
                    cores: Vec::new(),
                });
            }
        }
    }

    fn read_from_clauses(&mut self) {
        // Where each core's last `FROM` clause ended: a stray `FROM` inside it is not read again.
        let mut read_until = vec![0; self.cores.len()];
        for i in 0..self.tokens.len() {
            let after_distinct = i > 0 && self.tokens[i - 1].is_keyword("DISTINCT");
            if let (true, false, Some(core)) = (
                self.tokens[i].is_keyword("FROM"),
                after_distinct,
                self.core_of[i],
            ) {
                if i < read_until[core] {
                    continue;
                }
                let (tables, end) = self.tables_after_from(i, core);
                read_until[core] = end;
                self.cores[core].tables.extend(tables);
            }
        }
    }

    /// The tables named from the `FROM` at `from` to the end of its clause, and where it ends.
    fn tables_after_from(&self, from: usize, core: usize) -> (Vec<(usize, TableRef)>, usize) {
        let mut tables = Vec::new();
        let mut expect_table = true;
        let mut i = from + 1;
        while let Some(token) = self.tokens.get(i) {
            // Inside a subquery, or past the end of this one's, a token has another core (or none).
            if self.core_of[i] != Some(core)
                || token.kind == TokenKind::Semicolon
                || one_of(token, FROM_CLAUSE_ENDS)
            {
                break;
            }
            match token.kind {
                TokenKind::LeftParen => match (self.subquery_at[i], self.partner[i]) {
                    // A subquery as a table: its own tables are its own core's.
                    (Some(_), Some(close)) => {
                        i = self.after_alias(close + 1).0;
                        expect_table = false;
                    }
                    _ => {
                        i += 1;
                        expect_table = true;
                    }
                },
                TokenKind::Comma => {
                    i += 1;
                    expect_table = true;
                }
                _ if token.is_keyword("JOIN") => {
                    i += 1;
                    expect_table = true;
                }
                _ if token.is_keyword("ON") => i = self.end_of_join_condition(i + 1),
                _ if token.is_keyword("USING") && self.is(i + 1, TokenKind::LeftParen) => {
                    i = self.partner[i + 1].map_or(i + 1, |close| close + 1);
                }
                _ if expect_table && self.is_name(i) => {
                    let mut name_at = i;
                    if self.is(i + 1, TokenKind::Dot) && self.is_name(i + 2) {
                        name_at = i + 2; // schema.table
                    }
                    if self.is(name_at + 1, TokenKind::LeftParen) {
                        // A table-valued function such as pragma_table_info('x'): not a table.
                        let close = self.partner[name_at + 1].unwrap_or(self.tokens.len());
                        i = self.after_alias(close + 1).0;
                    } else {
                        let (next, alias) = self.after_alias(name_at + 1);
                        if let Some(name) = self.tokens[name_at].name() {
                            tables.push((name_at, TableRef { name, alias }));
                        }
                        i = next;
                    }
                    expect_table = false;
                }
                _ => i += 1,
            }
        }
        (tables, i)
    }

    /// Reads an optional `[AS] alias` at `at`: where reading goes on, and the alias.
    pub(super) fn after_alias(&self, at: usize) -> (usize, Option<String>) {
        if self.tokens.get(at).is_some_and(|t| t.is_keyword("AS")) {
            if let Some(alias) = self.tokens.get(at + 1).and_then(|t| match t.kind {
                TokenKind::String => t.string_value(),
                _ => t.name(),
            }) {
                return (at + 2, Some(alias));
            }
            return (at + 1, None);
        }
        if self.is_name(at) {
            return (at + 1, self.tokens[at].name());
        }
        (at, None)
    }

    /// Skips an `ON` condition: to the next `,`, join keyword, clause end or closing `)`.
    fn end_of_join_condition(&self, mut i: usize) -> usize {
        while let Some(token) = self.tokens.get(i) {
            match token.kind {
                TokenKind::Comma | TokenKind::RightParen | TokenKind::Semicolon => return i,
                TokenKind::LeftParen => i = self.partner[i].map_or(i + 1, |close| close + 1),
                _ if one_of(token, JOIN_STARTS) || one_of(token, FROM_CLAUSE_ENDS) => return i,
                _ => i += 1,
            }
        }
        i
    }

    /// The tables a comparison in `core` can name: its own, then those of enclosing `SELECT`s.
    pub(super) fn scope(&self, core: Option<usize>) -> Arc<[TableRef]> {
        core.and_then(|c| self.scopes.get(c).cloned())
            .unwrap_or_else(|| Arc::from([]))
    }

    fn scope_of(&self, core: usize) -> Arc<[TableRef]> {
        let mut scope = Vec::new();
        let mut at = Some(core);
        for _ in 0..SCOPE_LEVELS {
            let Some(c) = at else { break };
            scope.extend(self.cores[c].tables.iter().map(|(_, t)| t.clone()));
            at = self.cores[c].parent;
        }
        scope.into()
    }

    /// The names a `WITH` at `with` defines (`WITH a AS (…), b(x) AS (…)`); none when it is not
    /// read as a `WITH` clause.
    fn cte_names_after(&self, with: usize) -> Vec<String> {
        let mut names = Vec::new();
        let mut i = with + 1;
        if self.is_keyword(i, "RECURSIVE") {
            i += 1;
        }
        loop {
            let Some(name) = self.tokens.get(i).and_then(|t| t.name()) else {
                return Vec::new();
            };
            names.push(name);
            i += 1;
            if self.is(i, TokenKind::LeftParen) {
                let Some(close) = self.partner[i] else {
                    return Vec::new();
                };
                i = close + 1;
            }
            if !self.is_keyword(i, "AS") {
                return Vec::new();
            }
            i += 1;
            if self.is_keyword(i, "NOT") {
                i += 1;
            }
            if self.is_keyword(i, "MATERIALIZED") {
                i += 1;
            }
            match (self.is(i, TokenKind::LeftParen), self.partner.get(i)) {
                (true, Some(Some(close))) => i = close + 1,
                _ => return Vec::new(),
            }
            if !self.is(i, TokenKind::Comma) {
                return names;
            }
            i += 1;
        }
    }

    pub(super) fn is(&self, i: usize, kind: TokenKind) -> bool {
        self.tokens.get(i).is_some_and(|t| t.kind == kind)
    }

    pub(super) fn is_operator(&self, i: usize, operators: &[&str]) -> bool {
        self.tokens
            .get(i)
            .is_some_and(|t| t.kind == TokenKind::Operator && operators.contains(&t.text))
    }

    pub(super) fn is_keyword(&self, i: usize, keyword: &str) -> bool {
        self.tokens.get(i).is_some_and(|t| t.is_keyword(keyword))
    }

    /// A token that can name a column or table: a quoted name or a word that is not a keyword.
    fn is_name(&self, i: usize) -> bool {
        self.tokens.get(i).is_some_and(|t| match t.kind {
            TokenKind::QuotedName => true,
            TokenKind::Word => !lexer::is_keyword(t.text) || one_of(t, KEYWORDS_USED_AS_NAMES),
            _ => false,
        })
    }

    /// `name`, `t.name` or `schema.t.name` ending at `end`: where it starts, and the column.
    fn column_ending_at(&self, end: usize) -> Option<(usize, ColumnRef)> {
        if !self.is_name(end) {
            return None;
        }
        let name = self.tokens[end].name()?;
        if end >= 2 && self.is(end - 1, TokenKind::Dot) && self.is_name(end - 2) {
            let qualifier = self.tokens[end - 2].name();
            let schema = end >= 4 && self.is(end - 3, TokenKind::Dot) && self.is_name(end - 4);
            let start = if schema { end - 4 } else { end - 2 };
            return Some((start, ColumnRef { qualifier, name }));
        }
        Some((
            end,
            ColumnRef {
                qualifier: None,
                name,
            },
        ))
    }

    /// `name`, `t.name` or `schema.t.name` starting at `start` (not a function call): where it
    /// ends, and the column.
    pub(super) fn column_starting_at(&self, start: usize) -> Option<(usize, ColumnRef)> {
        if !self.is_name(start) {
            return None;
        }
        let mut parts = vec![start];
        while let Some(&last) = parts.last() {
            if parts.len() < 3 && self.is(last + 1, TokenKind::Dot) && self.is_name(last + 2) {
                parts.push(last + 2);
            } else {
                break;
            }
        }
        let end = *parts.last()?;
        if self.is(end + 1, TokenKind::LeftParen) || self.is(end + 1, TokenKind::Dot) {
            return None;
        }
        let qualifier = (parts.len() >= 2)
            .then(|| self.tokens[parts[parts.len() - 2]].name())
            .flatten();
        let name = self.tokens[end].name()?;
        Some((end, ColumnRef { qualifier, name }))
    }

    /// A literal (a string or a number, with an optional sign) starting at `start`.
    pub(super) fn literal_starting_at(&self, start: usize) -> Option<(usize, Literal)> {
        let signed = self.is_operator(start, &["-", "+"]);
        let at = if signed { start + 1 } else { start };
        let token = self.tokens.get(at)?;
        let literal = match token.kind {
            TokenKind::String if !signed => Literal::Text(token.string_value()?),
            TokenKind::Number => number(token.text, self.is_operator(start, &["-"]))?,
            _ => return None,
        };
        Some((at, literal))
    }

    /// A literal ending at `end`: where it starts, and the literal.
    pub(super) fn literal_ending_at(&self, end: usize) -> Option<(usize, Literal)> {
        let token = self.tokens.get(end)?;
        match token.kind {
            TokenKind::String => Some((end, Literal::Text(token.string_value()?))),
            TokenKind::Number => {
                let signed = end >= 1
                    && self.is_operator(end - 1, &["-", "+"])
                    && self.starts_operand(end - 1);
                let start = if signed { end - 1 } else { end };
                Some((
                    start,
                    number(token.text, signed && self.tokens[start].text == "-")?,
                ))
            }
            _ => None,
        }
    }

    /// True when an operand starting at `start` is whole on its left: nothing before it binds
    /// tighter than a comparison.
    pub(super) fn starts_operand(&self, start: usize) -> bool {
        let Some(before) = start.checked_sub(1) else {
            return true;
        };
        let token = &self.tokens[before];
        match token.kind {
            TokenKind::LeftParen | TokenKind::Comma | TokenKind::Semicolon => true,
            TokenKind::Word => {
                one_of(token, OPERAND_STARTERS)
                    && !(token.is_keyword("AND") && self.is_and_of_between(before))
            }
            _ => false,
        }
    }

    /// True when the `AND` at `and` is the one of `x BETWEEN a AND b`.
    fn is_and_of_between(&self, and: usize) -> bool {
        let mut i = and;
        while let Some(before) = i.checked_sub(1) {
            let token = &self.tokens[before];
            if token.is_keyword("BETWEEN") {
                return true;
            }
            if matches!(token.kind, TokenKind::LeftParen | TokenKind::Comma)
                || one_of(token, OPERAND_STARTERS)
            {
                return false;
            }
            i = match token.kind {
                TokenKind::RightParen => self.partner[before].unwrap_or(before),
                _ => before,
            };
        }
        false
    }

    /// True when an operand that ends just before `after` is whole on its right.
    pub(super) fn ends_operand(&self, after: usize) -> bool {
        let Some(token) = self.tokens.get(after) else {
            return true;
        };
        match token.kind {
            TokenKind::RightParen | TokenKind::Comma | TokenKind::Semicolon => true,
            TokenKind::QuotedName => true, // an alias
            TokenKind::Word => !one_of(token, EXPRESSION_CONTINUERS),
            _ => false,
        }
    }

    /// Past `COLLATE name` at `at`, if there is one.
    pub(super) fn skip_collate(&self, at: usize) -> usize {
        let named = self
            .tokens
            .get(at + 1)
            .is_some_and(|t| matches!(t.kind, TokenKind::Word | TokenKind::QuotedName));
        if self.is_keyword(at, "COLLATE") && named {
            at + 2
        } else {
            at
        }
    }

    /// Before `COLLATE name` ending at `end`, if there is one.
    fn before_collate(&self, end: usize) -> usize {
        if end >= 2 && self.is_keyword(end - 1, "COLLATE") {
            end - 2
        } else {
            end
        }
    }

    /// The column ending at `end`, when it is a whole operand.
    pub(super) fn whole_column_ending_at(&self, end: usize) -> Option<ColumnRef> {
        let (start, column) = self.column_ending_at(self.before_collate(end))?;
        self.starts_operand(start).then_some(column)
    }

    /// True when the token at `i` can end an operand (so a `-` after it subtracts).
    pub(super) fn is_operand_end(&self, i: usize) -> bool {
        self.tokens.get(i).is_some_and(|t| match t.kind {
            TokenKind::Word => self.is_name(i) || one_of(t, &["NULL", "END"]),
            TokenKind::RightParen
            | TokenKind::String
            | TokenKind::Number
            | TokenKind::Blob
            | TokenKind::Parameter
            | TokenKind::QuotedName => true,
            _ => false,
        })
    }

    /// A column, literal, function call or parenthesized expression ending at `end`: its start.
    pub(super) fn primary_ending_at(&self, end: usize) -> Option<usize> {
        let token = self.tokens.get(end)?;
        match token.kind {
            TokenKind::RightParen => {
                let open = self.partner[end]?;
                let called = open >= 1 && self.is_function_name(open - 1);
                Some(if called { open - 1 } else { open })
            }
            TokenKind::String | TokenKind::Number | TokenKind::Blob | TokenKind::Parameter => {
                Some(end)
            }
            _ if token.is_keyword("NULL") => Some(end),
            _ => self.column_ending_at(end).map(|(start, _)| start),
        }
    }

    /// A column, literal, function call or parenthesized expression starting at `start`: its end.
    pub(super) fn primary_starting_at(&self, start: usize) -> Option<usize> {
        let token = self.tokens.get(start)?;
        match token.kind {
            TokenKind::LeftParen => self.partner[start],
            TokenKind::String | TokenKind::Number | TokenKind::Blob | TokenKind::Parameter => {
                Some(start)
            }
            _ if token.is_keyword("NULL") => Some(start),
            _ if self.is_function_name(start) && self.is(start + 1, TokenKind::LeftParen) => {
                self.partner[start + 1]
            }
            _ => self.column_starting_at(start).map(|(end, _)| end),
        }
    }

    fn is_function_name(&self, i: usize) -> bool {
        self.is_name(i)
            || self
                .tokens
                .get(i)
                .is_some_and(|t| one_of(t, FUNCTION_KEYWORDS))
    }

    /// The SQL text from token `from` to token `to`, both included.
    pub(super) fn text(&self, from: usize, to: usize) -> &'a str {
        &self.sql[self.tokens[from].start..self.tokens[to].end()]
    }
}

/// A number token's value; `None` when it does not fit a number.
pub(super) fn number(text: &str, negative: bool) -> Option<Literal> {
    let digits = text.replace('_', "");
    let value = if let Some(hex) = digits.strip_prefix("0x").or(digits.strip_prefix("0X")) {
        // SQLite reads hex as the bits of a 64-bit integer.
        Literal::Integer(u64::from_str_radix(hex, 16).ok()? as i64)
    } else if digits.contains(['.', 'e', 'E']) {
        Literal::Real(digits.parse().ok()?)
    } else {
        match digits.parse::<i64>() {
            Ok(i) => Literal::Integer(i),
            Err(_) => Literal::Real(digits.parse().ok()?),
        }
    };
    Some(match (value, negative) {
        (Literal::Integer(i), true) => Literal::Integer(i.wrapping_neg()),
        (Literal::Real(r), true) => Literal::Real(-r),
        (value, _) => value,
    })
}
