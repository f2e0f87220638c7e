//! The traps, each found at one token of a [`Query`]: comparisons of columns with literals,
//! `NOT IN` over a subquery, comparisons with NULL, integer divisions.

use super::query::{number, Query};
use super::{ColumnRef, ComparisonOp, Literal, LiteralComparison, NotInSubquery, Order, TableRef};
use crate::sql::lexer::TokenKind;
use crate::text::cut_chars;

/// The most operands (columns, literals, calls, parenthesized expressions, at any depth) read
/// to decide whether one division is computed in integers. Past it the division is not reported,
/// so that a huge or deeply nested expression costs a bounded amount of work per `/`.
const DIVISION_OPERANDS: usize = 64;

/// For each `/` already read, where its left operand starts and how many operands were read
/// back to find it (`None`: not within [`DIVISION_OPERANDS`]), so that a chain `a / b / c …` is
/// read back once, not once per `/`. Indexed by token.
pub(super) type LeftOperands = Vec<Option<Option<(usize, usize)>>>;

/// A trap's SQL, quoted in a finding, is cut to this many characters: an operand may be a whole
/// subquery.
const WRITTEN_CHARS: usize = 160;

/// The most tokens read back from a `CAST`'s `)` to find its `AS type`.
const CAST_TYPE_TOKENS: usize = 8;

impl Query<'_> {
    pub(super) fn comparison_at(&self, at: usize) -> Option<LiteralComparison> {
        if let Some((op, right)) = self.binary_operator_at(at) {
            return self.binary_comparison_at(at, op, right);
        }
        let token = &self.tokens[at];
        let negated = at >= 1 && self.is_keyword(at - 1, "NOT");
        let left_end = if negated {
            at.checked_sub(2)
        } else {
            at.checked_sub(1)
        };
        let column = || self.whole_column_ending_at(left_end?);
        if token.is_keyword("LIKE") || token.is_keyword("GLOB") {
            return self.pattern_comparison_at(at, column()?, negated);
        }
        if token.is_keyword("BETWEEN") {
            return self.between_comparison_at(at, column()?, negated);
        }
        if token.is_keyword("IN") && self.subquery_at.get(at + 1) == Some(&None) {
            return self.in_list_comparison_at(at, column()?, negated);
        }
        None
    }

    /// The comparison found at token `at`, with the scope of the `SELECT` it belongs to.
    fn comparison_found(
        &self,
        at: usize,
        column: ColumnRef,
        op: ComparisonOp,
        negated: bool,
        literals: Vec<Literal>,
    ) -> LiteralComparison {
        LiteralComparison {
            column,
            op,
            negated,
            literals,
            scope: self.scope(self.core_of[at]),
        }
    }

    /// The operator of a two-sided comparison at token `at` (`=`, `<>`, `<`, `IS [NOT]
    /// [DISTINCT FROM]` …) and where its right operand starts.
    fn binary_operator_at(&self, at: usize) -> Option<(ComparisonOp, usize)> {
        let token = &self.tokens[at];
        match token.text {
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
        }
    }

    /// `column <op> literal` or `literal <op> column` around the operator at token `at`, its
    /// right operand starting at `right`; an ordering is read from the column's side.
    fn binary_comparison_at(
        &self,
        at: usize,
        op: ComparisonOp,
        right: usize,
    ) -> Option<LiteralComparison> {
        let left_end = at.checked_sub(1)?;
        // column <op> literal
        if let Some(column) = self.whole_column_ending_at(left_end) {
            let (end, literal) = self.literal_starting_at(right)?;
            return self
                .ends_operand(self.skip_collate(end + 1))
                .then(|| self.comparison_found(at, column, op, false, vec![literal]));
        }
        // literal <op> column
        let (start, literal) = self.literal_ending_at(left_end)?;
        let (end, column) = self.column_starting_at(right)?;
        let op = match op {
            ComparisonOp::Ordering(order) => ComparisonOp::Ordering(order.swapped()),
            op => op,
        };
        (self.starts_operand(start) && self.ends_operand(self.skip_collate(end + 1)))
            .then(|| self.comparison_found(at, column, op, false, vec![literal]))
    }

    /// `column [NOT] LIKE|GLOB 'pattern' [ESCAPE 'c']`, the keyword at token `at`.
    fn pattern_comparison_at(
        &self,
        at: usize,
        column: ColumnRef,
        negated: bool,
    ) -> Option<LiteralComparison> {
        let op = if self.is_keyword(at, "LIKE") {
            ComparisonOp::Like
        } else {
            ComparisonOp::Glob
        };
        let (end, pattern) = self.literal_starting_at(at + 1)?;
        let mut after = end + 1;
        if self.is_keyword(after, "ESCAPE") {
            after = self.literal_starting_at(after + 1)?.0 + 1;
        }
        self.ends_operand(self.skip_collate(after))
            .then(|| self.comparison_found(at, column, op, negated, vec![pattern]))
    }

    /// `column [NOT] BETWEEN low AND high` with literal bounds, `BETWEEN` at token `at`.
    fn between_comparison_at(
        &self,
        at: usize,
        column: ColumnRef,
        negated: bool,
    ) -> Option<LiteralComparison> {
        let (low_end, low) = self.literal_starting_at(at + 1)?;
        if !self.is_keyword(low_end + 1, "AND") {
            return None;
        }
        let (high_end, high) = self.literal_starting_at(low_end + 2)?;
        self.ends_operand(high_end + 1).then(|| {
            self.comparison_found(at, column, ComparisonOp::Between, negated, vec![low, high])
        })
    }

    /// `column [NOT] IN (literal, …)`, `IN` at token `at` and its list (not a subquery) after.
    fn in_list_comparison_at(
        &self,
        at: usize,
        column: ColumnRef,
        negated: bool,
    ) -> Option<LiteralComparison> {
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
        (!literals.is_empty() && self.ends_operand(close + 1))
            .then(|| self.comparison_found(at, column, ComparisonOp::In, negated, literals))
    }

    pub(super) fn not_in_at(&self, at: usize) -> Option<NotInSubquery> {
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

    pub(super) fn null_comparison_at(&self, at: usize) -> Option<String> {
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
        Some(cut_chars(self.text(from, to), WRITTEN_CHARS))
    }

    pub(super) fn integer_division_at(
        &self,
        at: usize,
        is_integer_column: &dyn Fn(&ColumnRef, &[TableRef]) -> bool,
        left_operands: &mut LeftOperands,
    ) -> Option<String> {
        if !self.is_operator(at, &["/"]) {
            return None;
        }
        let term = self.term_start(at, left_operands);
        if let Some(known) = left_operands.get_mut(at) {
            *known = Some(term);
        }
        let (left, _) = term?;
        let mut right = at + 1;
        while self.is_operator(right, &["-", "+"]) {
            right += 1;
        }
        let right_end = self.primary_starting_at(right)?;
        let scope = self.scope(self.core_of[at]);
        let mut budget = DIVISION_OPERANDS;
        let mut integer =
            |from, to| self.is_integer_expression(from, to, &scope, is_integer_column, &mut budget);
        (integer(left, at) && integer(at + 1, right_end + 1))
            .then(|| cut_chars(self.text(left, right_end), WRITTEN_CHARS))
    }

    /// Where the left operand of the `/` at `slash` starts (back over `*`, `/`, `%` and signs),
    /// and how many operands that took. `None` past [`DIVISION_OPERANDS`] operands.
    fn term_start(&self, slash: usize, left_operands: &LeftOperands) -> Option<(usize, usize)> {
        let mut end = slash.checked_sub(1)?;
        for used in 1..=DIVISION_OPERANDS {
            let mut start = self.primary_ending_at(end)?;
            if start >= 1
                && self.is_operator(start - 1, &["-", "+"])
                && (start == 1 || !self.is_operand_end(start - 2))
            {
                start -= 1;
            }
            if start < 2 || !self.is_operator(start - 1, &["*", "/", "%"]) {
                return Some((start, used));
            }
            // An earlier `/` of the same chain: the rest of the way back is known.
            if let Some(Some(earlier)) = left_operands.get(start - 1) {
                return earlier.and_then(|(start, more)| {
                    (used + more <= DIVISION_OPERANDS).then_some((start, used + more))
                });
            }
            end = start - 2;
        }
        None
    }

    /// True when the tokens `from..to` are integer operands joined by `+ - * / %`, each known to
    /// hold an integer. Each operand read, at any depth, takes one from `budget`; when it runs
    /// out the answer is false (not known to be an integer).
    fn is_integer_expression(
        &self,
        from: usize,
        to: usize,
        scope: &[TableRef],
        is_integer_column: &dyn Fn(&ColumnRef, &[TableRef]) -> bool,
        budget: &mut usize,
    ) -> bool {
        let mut at = from;
        loop {
            while at < to && self.is_operator(at, &["-", "+"]) {
                at += 1;
            }
            let Some(end) = self.primary_starting_at(at).filter(|&end| end < to) else {
                return false;
            };
            if !self.is_integer_primary(at, end, scope, is_integer_column, budget) {
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
        budget: &mut usize,
    ) -> bool {
        let Some(left) = budget.checked_sub(1) else {
            return false;
        };
        *budget = left;
        let token = &self.tokens[start];
        let mut expression =
            |from, to| self.is_integer_expression(from, to, scope, is_integer_column, budget);
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
                    "CAST" => self.cast_type(arguments, end).is_some_and(|type_name| {
                        type_name
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

    /// The type of `CAST(… AS type)` whose arguments start at `arguments` and whose `)` is at
    /// `close`: the tokens after its last `AS`, read back from the `)`.
    fn cast_type(&self, arguments: usize, close: usize) -> Option<&[crate::sql::lexer::Token<'_>]> {
        let earliest = arguments.max(close.saturating_sub(CAST_TYPE_TOKENS));
        let as_at = (earliest..close)
            .rev()
            .find(|&i| self.tokens[i].is_keyword("AS"))?;
        Some(&self.tokens[as_at + 1..close])
    }
}
