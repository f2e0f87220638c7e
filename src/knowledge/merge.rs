//! The four sources put together. For the same note (table and column) or glossary term, the
//! later source wins: schema < database < sidecar < person, in the order the caller gives.
//! Examples and golden questions are joined; one with the same question as an earlier one
//! replaces it. Within one source, several notes on the same thing are joined into one.

use super::{Example, GoldenQuestion, Knowledge, Note, Term};

impl Knowledge {
    /// `parts` in rising priority (e.g. schema, database, sidecar, person).
    pub fn merged(parts: impl IntoIterator<Item = Knowledge>) -> Knowledge {
        let mut all = Knowledge::default();
        for part in parts {
            for note in joined_notes(part.notes) {
                put(&mut all.notes, note, same_note);
            }
            for term in part.glossary {
                put(&mut all.glossary, term, same_term);
            }
            for example in part.examples {
                put(&mut all.examples, example, same_example);
            }
            for golden in part.golden_questions {
                put(&mut all.golden_questions, golden, same_golden_question);
            }
        }
        all
    }

    /// The notes from `source` only (e.g. the person's, to keep or export).
    pub fn notes_from(&self, source: super::Source) -> Vec<&Note> {
        self.notes.iter().filter(|n| n.source == source).collect()
    }
}

/// Replaces the piece `same` as `piece` in place, or adds it at the end.
fn put<T>(list: &mut Vec<T>, piece: T, same: fn(&T, &T) -> bool) {
    match list.iter_mut().find(|kept| same(kept, &piece)) {
        Some(kept) => *kept = piece,
        None => list.push(piece),
    }
}

/// One source's notes with those on the same thing joined, one paragraph each.
fn joined_notes(notes: Vec<Note>) -> Vec<Note> {
    let mut joined: Vec<Note> = Vec::new();
    for note in notes {
        match joined.iter_mut().find(|kept| same_note(kept, &note)) {
            Some(kept) if !note.text.trim().is_empty() => {
                kept.text = format!("{}\n{}", kept.text, note.text);
            }
            Some(_) => {}
            None => joined.push(note),
        }
    }
    joined
}

fn same_note(a: &Note, b: &Note) -> bool {
    let column = |note: &Note| {
        note.column
            .as_deref()
            .map(str::trim)
            .unwrap_or_default()
            .to_string()
    };
    a.table.trim().eq_ignore_ascii_case(b.table.trim())
        && column(a).eq_ignore_ascii_case(&column(b))
}

fn same_term(a: &Term, b: &Term) -> bool {
    folded(&a.term) == folded(&b.term)
}

fn same_example(a: &Example, b: &Example) -> bool {
    folded(&a.question) == folded(&b.question)
}

fn same_golden_question(a: &GoldenQuestion, b: &GoldenQuestion) -> bool {
    folded(&a.question) == folded(&b.question)
}

/// Lower case with white space runs as one space: what makes two questions or terms the same.
fn folded(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::super::Source;
    use super::*;

    fn note(table: &str, column: Option<&str>, text: &str, source: Source) -> Note {
        Note {
            table: table.into(),
            column: column.map(Into::into),
            text: text.into(),
            source,
        }
    }

    fn term(term: &str, meaning: &str, source: Source) -> Term {
        Term {
            term: term.into(),
            meaning: meaning.into(),
            source,
        }
    }

    #[test]
    fn later_sources_win_for_the_same_note_and_term_in_place() {
        let schema = Knowledge {
            notes: vec![
                note("orders", None, "from the schema", Source::Schema),
                note("orders", Some("amount"), "cents", Source::Schema),
            ],
            glossary: vec![term("Revenue", "sum of amount", Source::Schema)],
            ..Knowledge::default()
        };
        let database = Knowledge {
            notes: vec![note(
                "ORDERS",
                Some("Amount "),
                "in cents, tax included",
                Source::Database,
            )],
            ..Knowledge::default()
        };
        let person = Knowledge {
            notes: vec![note("orders", None, "", Source::Person)],
            glossary: vec![term(" revenue ", "sum of price × quantity", Source::Person)],
            ..Knowledge::default()
        };
        let merged = Knowledge::merged([schema, database, person]);
        assert_eq!(
            merged.notes,
            [
                note("orders", None, "", Source::Person),
                note(
                    "ORDERS",
                    Some("Amount "),
                    "in cents, tax included",
                    Source::Database
                ),
            ]
        );
        assert_eq!(
            merged.glossary,
            [term(" revenue ", "sum of price × quantity", Source::Person)]
        );
        assert_eq!(merged.notes_from(Source::Person).len(), 1);
    }

    #[test]
    fn notes_on_the_same_thing_within_one_source_are_joined() {
        let merged = Knowledge::merged([Knowledge {
            notes: vec![
                note("orders", None, "one row per order", Source::Database),
                note("orders", Some(""), "refunds are negative", Source::Database),
                note("orders", None, " ", Source::Database),
            ],
            ..Knowledge::default()
        }]);
        assert_eq!(
            merged.notes,
            [note(
                "orders",
                None,
                "one row per order\nrefunds are negative",
                Source::Database
            )]
        );
    }

    #[test]
    fn examples_and_golden_questions_are_joined_and_a_repeated_question_is_replaced() {
        let example = |question: &str, sql: &str, source| Example {
            question: question.into(),
            sql: sql.into(),
            source,
        };
        let golden = |question: &str, source| GoldenQuestion {
            question: question.into(),
            sql: "SELECT 1".into(),
            also_accepted: Vec::new(),
            source,
        };
        let merged = Knowledge::merged([
            Knowledge {
                examples: vec![example("How many orders?", "SELECT 1", Source::Database)],
                golden_questions: vec![
                    golden("Q1", Source::Database),
                    golden("Q2", Source::Database),
                ],
                ..Knowledge::default()
            },
            Knowledge {
                examples: vec![
                    example(
                        "how many  orders?",
                        "SELECT count(*) FROM orders",
                        Source::Sidecar,
                    ),
                    example("Another", "SELECT 2", Source::Sidecar),
                ],
                golden_questions: vec![golden("q2", Source::Sidecar)],
                ..Knowledge::default()
            },
        ]);
        assert_eq!(
            merged.examples,
            [
                example(
                    "how many  orders?",
                    "SELECT count(*) FROM orders",
                    Source::Sidecar
                ),
                example("Another", "SELECT 2", Source::Sidecar),
            ]
        );
        let sources: Vec<_> = merged
            .golden_questions
            .iter()
            .map(|c| (c.question.as_str(), c.source))
            .collect();
        assert_eq!(sources, [("Q1", Source::Database), ("q2", Source::Sidecar)]);
    }
}
