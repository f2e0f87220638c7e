//! What of a large schema a question needs, and the values it names, found without a model:
//! the tables ranked by the words of the question against their names, columns, notes,
//! glossary and worked examples, with the tables on the join paths between them (`rank`), and
//! the short text values of the data that the question names (`values`), all compared folded
//! (`search::fold`, `words`). Pure: the agent puts what is found after the question; the page and
//! `askdb-eval` build the value index from the open database.

pub mod rank;
pub mod values;
pub mod words;

use super::events::{PickedTable, SchemaSent};
use super::prompt::{note_line, table_line};
use crate::engine::Schema;
use crate::knowledge::budget::Budget;
use crate::knowledge::Knowledge;
use crate::search::values::ValueIndex;
use crate::sql::ident;
use rank::{Reason, TableIndex, ValueMatch};

/// At most this many tables are picked for a question by their own words; the tables on the
/// join paths between them come on top (`rank::MAX_TABLES_BETWEEN` each), all within
/// [`QUESTION_SCHEMA_BYTES`]. Six covers the tables of every gold query of the German Spider
/// questions but a handful, and keeps the part small next to the system prompt.
pub const PICKED_TABLES: usize = 6;

/// The most bytes of table lines, their column notes and named values that go with one
/// question (about 1,000 tokens): a table line is 100 to 400 bytes.
pub const QUESTION_SCHEMA_BYTES: usize = 4 * 1024;

/// At most this many values the question names go with it.
pub const NAMED_VALUES: usize = 8;

const TABLES_HEADING: &str = "\n\n---\nSchema for this question (the tables its words point \
to, with their columns; call describe_table for any other):\n";
const VALUES_HEADING: &str = "Values the question names, as the data writes them:\n";
const VALUES_HEADING_ALONE: &str = "\n\n---\nValues the question names, as the data writes them:\n";

/// What of the schema goes with one question, after it in its message.
#[derive(Clone, Debug, PartialEq)]
pub struct QuestionSchema {
    /// Empty when nothing goes (the whole schema is in the system prompt and the question
    /// names no value).
    pub text: String,
    /// What went, and why, for the transcript (its `first_request_bytes` is the caller's).
    pub sent: SchemaSent,
}

/// The part of `schema` (the schema the model is shown) that goes with `question`: when the
/// system prompt does not hold the whole schema (`whole` false), the lines of the tables
/// `tables` picks for it, with the notes on their columns; in any case the values of `values`
/// that it names, beside their columns. Within [`QUESTION_SCHEMA_BYTES`]: a table that does not
/// fit is left out (its name is in the system prompt, `describe_table` has it).
pub fn for_question(
    schema: &Schema,
    knowledge: &Knowledge,
    tables: &TableIndex,
    values: &ValueIndex,
    question: &str,
    whole: bool,
) -> QuestionSchema {
    // The session keeps `values` within `schema` (`Session::set_values`): a hit is of a table
    // and column the model is shown.
    let hits = values.hits(question, NAMED_VALUES);
    let mut budget = Budget::new(QUESTION_SCHEMA_BYTES);
    let mut text = String::new();
    let mut picked_tables = Vec::new();
    if !whole {
        let matches: Vec<ValueMatch> = hits
            .iter()
            .map(|hit| ValueMatch {
                table: hit.table.clone(),
                column: hit.column.clone(),
                value: hit.value.clone(),
            })
            .collect();
        let mut lines = String::new();
        for picked in tables.pick(question, &matches, PICKED_TABLES) {
            let Some(table) = schema.table(&picked.table) else {
                continue;
            };
            let mut block = table_line(table);
            block.push('\n');
            for column in &table.columns {
                if let Some(note) = knowledge.column_note(&table.name, &column.name) {
                    let place = format!("{}.{}", ident(&table.name), ident(&column.name));
                    block.push_str(&note_line(&place, &note.text));
                }
            }
            if budget.take(block.len()) {
                lines.push_str(&block);
                picked_tables.push(PickedTable {
                    name: table.name.clone(),
                    why: picked.why.iter().map(Reason::clipped).collect(),
                });
            }
        }
        if !lines.is_empty() {
            text.push_str(TABLES_HEADING);
            text.push_str(&lines);
        }
    }
    let named: Vec<String> = hits
        .iter()
        .map(ToString::to_string)
        .filter(|shown| budget.take(format!("- {shown}\n").len()))
        .collect();
    if !named.is_empty() {
        text.push_str(if text.is_empty() {
            VALUES_HEADING_ALONE
        } else {
            VALUES_HEADING
        });
        for shown in &named {
            text.push_str(&format!("- {shown}\n"));
        }
    }
    let sent = SchemaSent {
        whole,
        tables: picked_tables,
        values: named,
        values_coverage: Some(values.coverage().clone()),
        bytes: text.len(),
        first_request_bytes: 0,
    };
    QuestionSchema { text, sent }
}

/// Rows of each table read for its values in memory: enough to meet every category of a
/// table in the usual order of its rows, and on the 305 MB benchmark file well within the
/// index's bound of a second (`docs/benchmarks.md`, "Schema selection").
pub const SAMPLED_ROWS: u64 = 20_000;

/// Why nothing is indexed on a database on a server that runs the queries.
pub const ON_A_SERVER: &str =
    "the database is on a Datasette server, where every query is a request to it";

/// How the value index is built for a database of `kind`, by what one of its reads is: from
/// each table's first rows in memory; on demand only from the columns that lead an index with
/// few values (by `sqlite_stat1`), within what it may read; never on a server that runs the
/// queries, where every query is a request to it.
pub fn value_plan(kind: crate::engine::kind::DatabaseKind) -> values::IndexPlan {
    use crate::engine::kind::Reads;
    use values::IndexPlan;
    match kind.reads() {
        Reads::InMemory => IndexPlan::Sample {
            rows_per_table: SAMPLED_ROWS,
        },
        Reads::FilePages => IndexPlan::IndexedOnly {
            byte_budget: 16 * 1024 * 1024,
        },
        Reads::RangeRequests => IndexPlan::IndexedOnly {
            byte_budget: 2 * 1024 * 1024,
        },
        Reads::ServerQueries => IndexPlan::Skip(ON_A_SERVER.into()),
    }
}

/// A schema of `tables` tables of ten columns each, named from twenty everyday words, each
/// with a key to the one before, and a hundred questions in those words: for the benchmarks of
/// selection's time (`bench/schema_selection.rs` natively, `bench/selection_page.mjs` in the
/// page through a test hook). Deterministic.
#[doc(hidden)]
pub fn generated_schema(tables: usize) -> (Schema, Vec<String>) {
    use crate::engine::schema::{Column, ForeignKey, Table, TableKind};
    const WORDS: [&str; 20] = [
        "order", "customer", "product", "invoice", "payment", "shipment", "employee", "region",
        "store", "category", "supplier", "film", "rental", "actor", "track", "album", "artist",
        "genre", "country", "city",
    ];
    let word = |n: usize| WORDS[n % WORDS.len()];
    let name = |n: usize| format!("{}_{}_{n}", word(n), word(n / 7));
    let tables = (0..tables)
        .map(|n| Table {
            name: name(n),
            kind: TableKind::Table,
            columns: (0..10)
                .map(|c| Column {
                    name: format!("{}_{c}", word(n + c)),
                    decl_type: if c % 2 == 0 { "TEXT" } else { "INTEGER" }.into(),
                    not_null: false,
                    primary_key: u32::from(c == 0),
                    default: None,
                })
                .collect(),
            foreign_keys: (n > 0)
                .then(|| ForeignKey {
                    from_columns: vec![format!("{}_1", word(n + 1))],
                    to_table: name(n - 1),
                    to_columns: Vec::new(),
                })
                .into_iter()
                .collect(),
            row_count: None,
        })
        .collect();
    let questions = (0..100)
        .map(|n| {
            format!(
                "Which {} had the most {} in {}?",
                word(n),
                word(n * 3),
                word(n * 7)
            )
        })
        .collect();
    (Schema { tables }, questions)
}
