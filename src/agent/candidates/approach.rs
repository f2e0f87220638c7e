//! How each candidate is asked to work. Candidates drawn only by raising the temperature are too
//! alike; asked to work in different ways (or shown the schema another way) they fail in
//! different ways, which is what makes their agreement worth something.
//!
//! The instruction goes in a message of its own after the question, so that every candidate's
//! first request starts with the same bytes (tools, system prompt, earlier turns, the question)
//! and a provider's prompt cache serves that prefix to candidates 2..N. The first candidate gets
//! no instruction: with one candidate, nothing changes.

use crate::engine::Schema;
use crate::knowledge::budget::one_line;
use crate::sql::ident;
use serde::{Deserialize, Serialize};
use std::fmt::Write;

/// The join paths shown to one candidate are cut to this many bytes.
const JOIN_PATHS_BYTES: usize = 4_096;

/// The way one candidate is asked to answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Approach {
    /// The question as it is, as with a single answer.
    AsAsked,
    /// Split the question into its parts, check each, then combine.
    InParts,
    /// Look at the values of every column used before writing the query.
    ValuesFirst,
    /// The schema shown again as the paths that join its tables.
    JoinPaths,
    /// Return exactly what the question names, and check it a second way.
    WordByWord,
}

impl Approach {
    /// In the order candidates get them: candidate 1 the first.
    pub const ALL: [Approach; 5] = [
        Approach::AsAsked,
        Approach::InParts,
        Approach::ValuesFirst,
        Approach::JoinPaths,
        Approach::WordByWord,
    ];

    /// The approach of candidate `index` (0 for the first).
    pub fn of_candidate(index: usize) -> Approach {
        Approach::ALL[index % Approach::ALL.len()]
    }

    /// A few words for a person: "as asked", "in parts", …
    pub fn label(self) -> &'static str {
        match self {
            Approach::AsAsked => "as asked",
            Approach::InParts => "in parts",
            Approach::ValuesFirst => "values first",
            Approach::JoinPaths => "join paths",
            Approach::WordByWord => "word by word",
        }
    }

    /// The message sent after the question, or none.
    pub(crate) fn instruction(self, schema: &Schema) -> Option<String> {
        let text = match self {
            Approach::AsAsked => return None,
            Approach::InParts => {
                "How to work on this answer: split the question into its parts (which rows, \
                 which tables and joins, which measure, which grouping and order), check each \
                 part with a small query, then combine them into the one query that answers it."
                    .to_string()
            }
            Approach::ValuesFirst => {
                "How to work on this answer: before you write the final query, look at the \
                 values that really occur in every column you will filter, join or group on \
                 (describe_table, or a small SELECT DISTINCT), and write the query from what you \
                 saw, not from the words of the question."
                    .to_string()
            }
            Approach::JoinPaths => join_paths(schema),
            Approach::WordByWord => {
                "How to work on this answer: read the question word by word and return exactly \
                 what it asks for: the values it names, in the order it names them, distinct \
                 only where it says so, and no other columns. Before final_answer, write the \
                 query a second, different way and compare both with cross_check."
                    .to_string()
            }
        };
        Some(text)
    }
}

/// The schema presented another way: each table with the tables it joins and on which columns,
/// from the declared foreign keys.
fn join_paths(schema: &Schema) -> String {
    let mut text = String::from(
        "How to work on this answer: decide first which tables the answer needs and how they \
         join. The tables and the joins their foreign keys declare:\n",
    );
    let mut any = false;
    for table in &schema.tables {
        let joins: Vec<String> = table
            .foreign_keys
            .iter()
            .map(|key| {
                let to_columns = if key.to_columns.is_empty() {
                    vec!["<primary key>".to_string()]
                } else {
                    key.to_columns.iter().map(|c| ident(c)).collect()
                };
                let pairs: Vec<String> = key
                    .from_columns
                    .iter()
                    .zip(to_columns.iter().cycle())
                    .map(|(from, to)| {
                        format!(
                            "{}.{} = {}.{}",
                            ident(&table.name),
                            ident(from),
                            ident(&key.to_table),
                            to
                        )
                    })
                    .collect();
                pairs.join(" AND ")
            })
            .collect();
        let line = match joins.is_empty() {
            true => format!("- {}: no declared join", ident(&table.name)),
            false => {
                any = true;
                format!("- {}: {}", ident(&table.name), joins.join("; "))
            }
        };
        // Names come from the file: one line each, whatever they hold.
        let line = one_line(&line, JOIN_PATHS_BYTES);
        if text.len() + line.len() >= JOIN_PATHS_BYTES {
            let _ = writeln!(text, "- (more tables: list_tables has them)");
            break;
        }
        let _ = writeln!(text, "{line}");
    }
    if !any {
        text.push_str(
            "No table declares a foreign key: join on columns whose values match (check them \
             with a small query first).\n",
        );
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::schema::{Column, ForeignKey, Table, TableKind};

    fn table(name: &str, keys: Vec<ForeignKey>) -> Table {
        Table {
            name: name.into(),
            kind: TableKind::Table,
            columns: vec![Column {
                name: "id".into(),
                decl_type: "INTEGER".into(),
                not_null: false,
                primary_key: 1,
                default: None,
            }],
            foreign_keys: keys,
            row_count: None,
        }
    }

    #[test]
    fn the_first_candidate_is_asked_as_with_one_answer_and_the_others_differently() {
        let schema = Schema::default();
        assert_eq!(Approach::of_candidate(0), Approach::AsAsked);
        assert_eq!(Approach::AsAsked.instruction(&schema), None);
        let texts: Vec<String> = Approach::ALL[1..]
            .iter()
            .map(|a| a.instruction(&schema).expect("an instruction"))
            .collect();
        for (i, text) in texts.iter().enumerate() {
            assert!(texts[i + 1..].iter().all(|other| other != text));
        }
        assert_eq!(Approach::of_candidate(6), Approach::InParts);
    }

    #[test]
    fn join_paths_come_from_the_foreign_keys() {
        let schema = Schema {
            tables: vec![
                table(
                    "orders",
                    vec![ForeignKey {
                        from_columns: vec!["customer_id".into()],
                        to_table: "customers".into(),
                        to_columns: vec!["id".into()],
                    }],
                ),
                table("customers", vec![]),
            ],
        };
        let text = Approach::JoinPaths.instruction(&schema).unwrap();
        assert!(
            text.contains("- orders: orders.customer_id = customers.id\n"),
            "{text}"
        );
        assert!(text.contains("- customers: no declared join\n"), "{text}");
        assert!(!text.contains("No table declares"), "{text}");
    }
}
