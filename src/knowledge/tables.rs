//! Knowledge kept inside the database file, in tables with documented names and columns
//! (`docs/knowledge-format.md`):
//!
//! - `askdb_notes(table_name, column_name, note)`: `column_name` NULL or `''` for a table note;
//! - `askdb_glossary(term, meaning)`;
//! - `askdb_examples(question, sql)`;
//! - `askdb_checks(question, sql, also_accepted)`: `also_accepted` optional, NULL, one SQL
//!   statement, or a JSON list of them.
//!
//! Read like any data, through [`crate::engine::query`] with row and time limits, and each
//! text cut in SQL (`substr`) so that a huge value never crosses into the page. A missing table
//! is fine; a missing column, a value of the wrong type, a query that fails or runs too long is
//! a [`Problem`], and the rest is still read.

use super::limits::LIMITS;
use super::{Example, GoldenQuestion, Knowledge, Note, Problem, Source, Term};
use crate::engine::{query, Database, DbError, QueryLimits, Value};
use crate::sql::{ident, quote_literal};
use crate::tr;

/// What one knowledge table must and may have.
struct Shape {
    table: &'static str,
    required: &'static [&'static str],
    optional: &'static [&'static str],
    /// At most this many rows are read.
    rows: usize,
    /// Characters read of each column, in the order `required` then `optional`.
    chars: &'static [usize],
}

const NOTES: Shape = Shape {
    table: "askdb_notes",
    required: &["table_name", "note"],
    optional: &["column_name"],
    rows: LIMITS.notes,
    chars: &[LIMITS.name_chars, LIMITS.note_chars, LIMITS.name_chars],
};

const GLOSSARY: Shape = Shape {
    table: "askdb_glossary",
    required: &["term", "meaning"],
    optional: &[],
    rows: LIMITS.glossary,
    chars: &[LIMITS.term_chars, LIMITS.meaning_chars],
};

const EXAMPLES: Shape = Shape {
    table: "askdb_examples",
    required: &["question", "sql"],
    optional: &[],
    rows: LIMITS.examples,
    chars: &[LIMITS.question_chars, LIMITS.sql_bytes],
};

const CHECKS: Shape = Shape {
    table: "askdb_checks",
    required: &["question", "sql"],
    optional: &["also_accepted"],
    rows: LIMITS.golden_questions,
    chars: &[
        LIMITS.question_chars,
        LIMITS.sql_bytes,
        LIMITS.sql_bytes * LIMITS.also_accepted,
    ],
};

/// Each query over a knowledge table: a few hundred short rows, read well within this.
const READ_LIMITS_MS: u32 = 5_000;

/// Reads the knowledge tables of `db` (every piece `Source::Database`). Only an engine that
/// cannot answer at all is an error; anything wrong with the tables is a [`Problem`].
pub async fn load<D: Database + ?Sized>(db: &D) -> Result<(Knowledge, Vec<Problem>), DbError> {
    let mut knowledge = Knowledge::default();
    let mut problems = Vec::new();
    let names = table_names(db).await?;
    let table_of = |shape: &Shape| {
        names
            .iter()
            .find(|name| name.eq_ignore_ascii_case(shape.table))
    };
    if let Some(table) = table_of(&NOTES) {
        for row in read_rows(db, &NOTES, table, &mut problems).await? {
            let [Some(table_name), Some(text), column] = row.cells() else {
                problems.push(row.missing());
                continue;
            };
            knowledge.notes.push(Note {
                table: table_name,
                column,
                text,
                source: Source::Database,
            });
        }
    }
    if let Some(table) = table_of(&GLOSSARY) {
        for row in read_rows(db, &GLOSSARY, table, &mut problems).await? {
            let [Some(term), Some(meaning)] = row.cells() else {
                problems.push(row.missing());
                continue;
            };
            let source = Source::Database;
            knowledge.glossary.push(Term {
                term,
                meaning,
                source,
            });
        }
    }
    if let Some(table) = table_of(&EXAMPLES) {
        for row in read_rows(db, &EXAMPLES, table, &mut problems).await? {
            let [Some(question), Some(sql)] = row.cells() else {
                problems.push(row.missing());
                continue;
            };
            let source = Source::Database;
            knowledge.examples.push(Example {
                question,
                sql,
                source,
            });
        }
    }
    if let Some(table) = table_of(&CHECKS) {
        for row in read_rows(db, &CHECKS, table, &mut problems).await? {
            let [Some(question), Some(sql), also] = row.cells() else {
                problems.push(row.missing());
                continue;
            };
            let also_accepted = match also.as_deref().map(also_accepted) {
                None => Vec::new(),
                Some(Ok(list)) => list,
                Some(Err(why)) => {
                    problems.push(row.problem(why));
                    Vec::new()
                }
            };
            knowledge.golden_questions.push(GoldenQuestion {
                question,
                sql,
                also_accepted,
                source: Source::Database,
            });
        }
    }
    Ok((knowledge, problems))
}

/// `also_accepted` as written in a cell: a JSON list of SQL texts, or one SQL text (a
/// statement never starts with `[`).
fn also_accepted(cell: &str) -> Result<Vec<String>, String> {
    let cell = cell.trim();
    if cell.is_empty() {
        return Ok(Vec::new());
    }
    if !cell.starts_with('[') {
        return Ok(vec![cell.to_string()]);
    }
    serde_json::from_str::<Vec<String>>(cell).map_err(|_| tr!("notes-problem-also-not-list"))
}

/// The knowledge tables present, as the file spells them.
async fn table_names<D: Database + ?Sized>(db: &D) -> Result<Vec<String>, DbError> {
    let wanted: Vec<String> = [NOTES.table, GLOSSARY.table, EXAMPLES.table, CHECKS.table]
        .iter()
        .map(|t| quote_literal(t))
        .collect();
    let sql = format!(
        "SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND lower(name) IN ({})",
        wanted.join(", ")
    );
    let result = query(db, &sql, &limits(100)).await?;
    Ok(first_texts(result.rows))
}

/// One row read: its cells in the shape's column order (`None` for NULL, an empty text or a
/// missing optional column).
struct Row {
    table: String,
    number: usize,
    values: Vec<Option<String>>,
}

impl Row {
    /// The first `N` cells.
    fn cells<const N: usize>(&self) -> [Option<String>; N] {
        std::array::from_fn(|i| self.values.get(i).cloned().flatten())
    }

    fn problem(&self, message: String) -> Problem {
        Problem {
            source: Source::Database,
            subject: tr!(
                "notes-problem-row",
                number = self.number,
                table = &self.table
            ),
            message,
        }
    }

    fn missing(&self) -> Problem {
        self.problem(tr!("notes-problem-required-missing"))
    }
}

/// The rows of `table` in `shape`'s columns; nothing when a required column is missing or the
/// query fails (said in `problems`).
async fn read_rows<D: Database + ?Sized>(
    db: &D,
    shape: &Shape,
    table: &str,
    problems: &mut Vec<Problem>,
) -> Result<Vec<Row>, DbError> {
    let problem = |message: String| Problem {
        source: Source::Database,
        subject: tr!("notes-problem-table", table = table),
        message,
    };
    let present = match column_names(db, table).await {
        Ok(names) => names,
        Err(error) if is_fatal(&error) => return Err(error),
        Err(error) => {
            problems.push(problem(unreadable(&error)));
            return Ok(Vec::new());
        }
    };
    let has = |column: &str| present.iter().any(|p| p.eq_ignore_ascii_case(column));
    let missing: Vec<&str> = shape.required.iter().copied().filter(|c| !has(c)).collect();
    if !missing.is_empty() {
        let separator = tr!("notes-list-separator");
        problems.push(problem(tr!(
            "notes-problem-missing-columns",
            missing = missing.join(separator.as_str()),
            required = shape.required.join(separator.as_str())
        )));
        return Ok(Vec::new());
    }
    let wanted: Vec<&str> = shape
        .required
        .iter()
        .chain(shape.optional)
        .copied()
        .collect();
    let sql = select_cells_sql(table, shape, &wanted, has);
    let result = match query(db, &sql, &limits(shape.rows)).await {
        Ok(result) => result,
        Err(error) if is_fatal(&error) => return Err(error),
        Err(error) => {
            problems.push(problem(unreadable(&error)));
            return Ok(Vec::new());
        }
    };
    if result.truncated {
        // A count as `Display` wrote it (not grouped): the English stays the same.
        problems.push(problem(tr!(
            "notes-problem-rows-capped",
            rows = result.total_rows.to_string(),
            limit = shape.rows
        )));
    }
    let mut rows = Vec::new();
    for (index, cells) in result.rows.iter().enumerate() {
        match decode_row(table, index + 1, &wanted, cells) {
            Ok(row) => rows.push(row),
            Err(problem) => problems.push(problem),
        }
    }
    Ok(rows)
}

/// The columns `table` has, as `pragma_table_info` names them.
async fn column_names<D: Database + ?Sized>(db: &D, table: &str) -> Result<Vec<String>, DbError> {
    let sql = format!(
        "SELECT name FROM pragma_table_info({})",
        quote_literal(table)
    );
    let result = query(db, &sql, &limits(1_000)).await?;
    Ok(first_texts(result.rows))
}

/// The text in the first cell of each row, skipping rows where it is not text.
fn first_texts(rows: Vec<Vec<Value>>) -> Vec<String> {
    rows.into_iter()
        .filter_map(|row| match row.into_iter().next() {
            Some(Value::Text(name)) => Some(name),
            _ => None,
        })
        .collect()
}

/// The `SELECT` of `wanted`'s columns of `table`, each as its type and its text cut in SQL
/// (`'null', NULL` for an optional column the table lacks), so that validation sees both.
fn select_cells_sql(
    table: &str,
    shape: &Shape,
    wanted: &[&str],
    has: impl Fn(&str) -> bool,
) -> String {
    let cells: Vec<String> = wanted
        .iter()
        .zip(shape.chars)
        .map(|(column, chars)| {
            if has(column) {
                let column = ident(column);
                // One more character than kept, so that validation can tell a cut text.
                format!("typeof({column}), substr({column}, 1, {})", chars + 1)
            } else {
                "'null', NULL".to_string()
            }
        })
        .collect();
    format!("SELECT {} FROM {}", cells.join(", "), ident(table))
}

/// Row `number` of `table` from its (type, text) cell pairs in `wanted`'s order, or the
/// problem that skips it (the first cell that is neither text nor NULL).
fn decode_row(
    table: &str,
    number: usize,
    wanted: &[&str],
    cells: &[Value],
) -> Result<Row, Problem> {
    let mut row = Row {
        table: table.to_string(),
        number,
        values: Vec::new(),
    };
    let mut wrong = None;
    for (column, pair) in wanted.iter().zip(cells.chunks(2)) {
        match (&pair[0], &pair[1]) {
            (Value::Text(kind), Value::Text(text)) if kind != "blob" => {
                row.values
                    .push(Some(text.clone()).filter(|t| !t.trim().is_empty()));
            }
            (Value::Text(kind), _) if kind == "null" => row.values.push(None),
            (Value::Text(kind), _) => {
                wrong.get_or_insert_with(|| {
                    tr!("notes-problem-not-text", column = *column, kind = kind)
                });
                row.values.push(None);
            }
            _ => row.values.push(None),
        }
    }
    match wrong {
        Some(why) => Err(row.problem(why)),
        None => Ok(row),
    }
}

/// A knowledge table the database could not read: its error as the engine says it (English,
/// as the model and the logs read it).
fn unreadable(error: &DbError) -> String {
    tr!("notes-problem-table-unreadable", error = error.to_string())
}

fn limits(max_rows: usize) -> QueryLimits {
    QueryLimits {
        max_rows,
        deadline_ms: READ_LIMITS_MS,
    }
}

/// Errors that say the engine cannot answer at all, as opposed to one table being wrong.
fn is_fatal(error: &DbError) -> bool {
    matches!(
        error,
        DbError::NotOpen
            | DbError::Crashed { .. }
            | DbError::Unavailable(_)
            | DbError::NotADatabase(_)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn also_accepted_is_a_json_list_or_one_statement() {
        assert_eq!(
            also_accepted(r#"["SELECT 1", "SELECT 2"]"#).unwrap(),
            ["SELECT 1", "SELECT 2"]
        );
        assert_eq!(also_accepted(" SELECT 1\n").unwrap(), ["SELECT 1"]);
        assert_eq!(also_accepted("  ").unwrap(), Vec::<String>::new());
        assert!(also_accepted("[SELECT 1]").is_err());
    }
}
