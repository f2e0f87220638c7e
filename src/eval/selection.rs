//! Schema-selection recall: of the tables and columns a golden question's expected SQL reads,
//! how many had their columns in the first request the model got (the whole schema in the
//! system prompt, or the tables picked for the question: `agent::selection`), and what that
//! first request weighed.

use crate::agent::SchemaSent;
use crate::engine::Schema;
use crate::sql::analysis::Query;
use crate::sql::lexer::{tokenize, TokenKind};
use serde::{Deserialize, Serialize};

/// What of a golden question's tables and columns the first request showed with their columns.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SelectionRecall {
    /// The expected SQL's tables (of the schema the model was shown).
    pub tables: usize,
    /// Of those, the ones whose columns were in the first request.
    pub tables_found: usize,
    /// The expected SQL's columns: `table.column` for each name it writes that is a column of
    /// one of its tables.
    pub columns: usize,
    pub columns_found: usize,
    /// The whole schema was in the system prompt (then everything is found).
    pub whole: bool,
    /// The first request: system prompt, messages and tool descriptions, in bytes.
    pub first_request_bytes: usize,
}

impl SelectionRecall {
    /// The recall of `expected_sql` on `schema` (the schema the model was shown), given what
    /// went with the question's first request.
    pub fn of(expected_sql: &str, schema: &Schema, sent: &SchemaSent) -> SelectionRecall {
        let mut tables: Vec<&str> = Vec::new();
        for read in Query::read(expected_sql).tables() {
            if let Some(table) = schema.table(&read.name) {
                if !tables.contains(&table.name.as_str()) {
                    tables.push(&table.name);
                }
            }
        }
        let shown = |table: &str| {
            sent.whole
                || sent
                    .tables
                    .iter()
                    .any(|picked| picked.name.eq_ignore_ascii_case(table))
        };
        let names = written_names(expected_sql);
        let mut columns = 0;
        let mut columns_found = 0;
        for &name in &tables {
            let Some(table) = schema.table(name) else {
                continue;
            };
            for column in &table.columns {
                if names.iter().any(|n| n.eq_ignore_ascii_case(&column.name)) {
                    columns += 1;
                    columns_found += usize::from(shown(name));
                }
            }
        }
        SelectionRecall {
            tables: tables.len(),
            tables_found: tables.iter().filter(|t| shown(t)).count(),
            columns,
            columns_found,
            whole: sent.whole,
            first_request_bytes: sent.first_request_bytes,
        }
    }
}

/// The names `sql` writes, bare or quoted (unquoted), in order.
pub fn written_names(sql: &str) -> Vec<String> {
    let Ok(tokens) = tokenize(sql) else {
        return Vec::new();
    };
    tokens
        .iter()
        .filter_map(|token| match token.kind {
            TokenKind::Word => Some(token.text.to_string()),
            TokenKind::QuotedName => {
                let inner = &token.text[1..token.text.len().saturating_sub(1).max(1)];
                Some(inner.replace("\"\"", "\"").replace("``", "`"))
            }
            _ => None,
        })
        .collect()
}

/// The totals over many questions: (found, of) for tables and columns, and the first requests'
/// bytes.
pub fn totals<'r>(
    recalls: impl IntoIterator<Item = &'r SelectionRecall>,
) -> (usize, usize, usize, usize, usize) {
    recalls.into_iter().fold((0, 0, 0, 0, 0), |sum, r| {
        (
            sum.0 + r.tables_found,
            sum.1 + r.tables,
            sum.2 + r.columns_found,
            sum.3 + r.columns,
            sum.4 + r.first_request_bytes,
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::PickedTable;
    use crate::engine::schema::{Table, TableKind};

    fn table(name: &str, columns: &[&str]) -> Table {
        Table::of_text_columns(name, TableKind::Table, columns)
    }

    fn sent(whole: bool, picked: &[&str]) -> SchemaSent {
        SchemaSent {
            whole,
            tables: picked
                .iter()
                .map(|name| PickedTable {
                    name: name.to_string(),
                    why: Vec::new(),
                })
                .collect(),
            values: Vec::new(),
            values_coverage: None,
            bytes: 0,
            first_request_bytes: 9_000,
        }
    }

    #[test]
    fn tables_and_columns_of_the_expected_sql_count_as_found_when_their_columns_were_sent() {
        let schema = Schema {
            tables: vec![
                table("film", &["film_id", "title"]),
                table("Film Category", &["film_id", "category_id"]),
                table("category", &["category_id", "name"]),
                table("actor", &["actor_id", "name"]),
            ],
        };
        let sql = "SELECT c.name, count(*) FROM film f JOIN \"Film Category\" fc \
                   ON fc.film_id = f.film_id JOIN category c USING (category_id) GROUP BY 1";
        let picked = SelectionRecall::of(sql, &schema, &sent(false, &["film", "CATEGORY"]));
        assert_eq!((picked.tables_found, picked.tables), (2, 3));
        // film.film_id, Film Category.film_id and .category_id, category.category_id and .name.
        assert_eq!((picked.columns_found, picked.columns), (3, 5));
        assert_eq!(picked.first_request_bytes, 9_000);
        let whole = SelectionRecall::of(sql, &schema, &sent(true, &[]));
        assert_eq!((whole.tables_found, whole.columns_found), (3, 5));
        // A CTE's name, or a table the model was not shown, is not counted.
        let cte = SelectionRecall::of(
            "WITH t AS (SELECT title FROM film) SELECT * FROM t, ghost",
            &schema,
            &sent(false, &[]),
        );
        assert_eq!((cte.tables, cte.columns), (1, 1));
        let totals = totals([&picked, &whole]);
        assert_eq!(totals, (5, 6, 8, 10, 18_000));
    }
}
