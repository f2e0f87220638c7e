//! Knowledge that would name what the person hid from the model. Hiding is enforced by the
//! engine (the model view's copy of the database lacks the hidden tables and columns), so the
//! knowledge that goes with a question must not bring their names back: a piece whose text or
//! SQL names a hidden table or column, as a word in any case, is left out. This errs towards
//! leaving out, like the derived copy's views (`engine::hidden`): `id` hidden leaves out every
//! piece that says `id`. A value of a hidden column written in a note without its column's
//! name cannot be told from any other word, and stays.

use super::{Example, GoldenQuestion, Knowledge, Note, Problem, Term};
use crate::engine::hidden::Hidden;
use crate::tr;

impl Knowledge {
    /// The knowledge without the pieces that name something `hidden` hides, and what was left
    /// out. Notes *on* a hidden table or column are left out too.
    pub fn without_hidden(self, hidden: &Hidden) -> (Knowledge, Vec<Problem>) {
        if hidden.is_empty() {
            return (self, Vec::new());
        }
        let names: Vec<&str> = hidden
            .tables
            .iter()
            .chain(hidden.columns.iter().map(|(_, column)| column))
            .map(String::as_str)
            .collect();
        let mut problems = Vec::new();
        // The subject is said only of what is left out.
        let mut left_out = |texts: &[&str], subject: &dyn Fn() -> String, source| {
            let name = texts.iter().find_map(|text| named(text, &names))?;
            problems.push(Problem {
                source,
                subject: subject(),
                message: tr!("notes-problem-names-hidden", name = name),
            });
            Some(())
        };
        let notes: Vec<Note> = self
            .notes
            .into_iter()
            .filter(|note| {
                let on = note.column.as_ref().unwrap_or(&note.table);
                let subject = || match &note.column {
                    Some(column) => tr!(
                        "notes-problem-note-on-column",
                        table = &note.table,
                        column = column
                    ),
                    None => tr!("notes-problem-note-on-table", table = &note.table),
                };
                let on_hidden = hidden.hides_table(&note.table)
                    || note
                        .column
                        .as_deref()
                        .is_some_and(|column| hidden.hides_column(&note.table, column));
                // A note on a hidden table or column names it: its own name is the reason.
                let texts = if on_hidden {
                    vec![on.as_str()]
                } else {
                    vec![note.text.as_str()]
                };
                left_out(&texts, &subject, note.source).is_none()
            })
            .collect();
        let glossary: Vec<Term> = self
            .glossary
            .into_iter()
            .filter(|t| {
                let subject = || tr!("notes-problem-term", term = &t.term);
                left_out(&[&t.term, &t.meaning], &subject, t.source).is_none()
            })
            .collect();
        let examples: Vec<Example> = self
            .examples
            .into_iter()
            .filter(|e| {
                let subject = || tr!("notes-problem-example", question = &e.question);
                left_out(&[&e.question, &e.sql], &subject, e.source).is_none()
            })
            .collect();
        // Golden questions are never shown to the model; the golden run asks them of the
        // model's copy, where a hidden name would only fail. They are kept, to be run and seen.
        let golden_questions: Vec<GoldenQuestion> = self.golden_questions;
        (
            Knowledge {
                notes,
                glossary,
                examples,
                golden_questions,
            },
            problems,
        )
    }
}

/// The first of `names` that `text` has as a word (not inside a longer name), in any case.
fn named<'n>(text: &str, names: &[&'n str]) -> Option<&'n str> {
    let lowered = text.to_lowercase();
    names.iter().copied().find(|name| {
        let name = name.to_lowercase();
        !name.is_empty()
            && lowered.match_indices(&name).any(|(at, _)| {
                let before = lowered[..at].chars().next_back();
                let after = lowered[at + name.len()..].chars().next();
                !before.is_some_and(is_name_char) && !after.is_some_and(is_name_char)
            })
    })
}

fn is_name_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knowledge::Source;

    fn note(table: &str, column: Option<&str>, text: &str) -> Note {
        Note {
            table: table.into(),
            column: column.map(Into::into),
            text: text.into(),
            source: Source::Database,
        }
    }

    fn hidden() -> Hidden {
        let mut hidden = Hidden::default();
        hidden.toggle_column("customers", "prefecture");
        hidden.toggle_table("products");
        hidden
    }

    #[test]
    fn pieces_that_name_a_hidden_table_or_column_are_not_sent() {
        let knowledge = Knowledge {
            notes: vec![
                note("customers", None, "one row per customer"),
                note("customers", Some("prefecture"), "in English"),
                note("products", None, "the catalogue"),
                note("orders", Some("product_id"), "JOIN Products ON …"),
                note("orders", None, "prefectures_old is gone; see joined_at"),
            ],
            glossary: vec![
                Term {
                    term: "東京都".into(),
                    meaning: "customers.PREFECTURE = 'Tokyo'".into(),
                    source: Source::Schema,
                },
                Term {
                    term: "guest order".into(),
                    meaning: "customer_id is NULL".into(),
                    source: Source::Schema,
                },
            ],
            examples: vec![Example {
                question: "How many?".into(),
                sql: "SELECT count(*) FROM \"products\"".into(),
                source: Source::Sidecar,
            }],
            golden_questions: vec![GoldenQuestion {
                question: "Revenue?".into(),
                sql: "SELECT sum(price) FROM products".into(),
                also_accepted: Vec::new(),
                source: Source::Sidecar,
            }],
        };
        let (kept, problems) = knowledge.without_hidden(&hidden());
        let notes: Vec<&str> = kept.notes.iter().map(|n| n.text.as_str()).collect();
        assert_eq!(
            notes,
            [
                "one row per customer",
                "prefectures_old is gone; see joined_at"
            ]
        );
        assert_eq!(kept.glossary.len(), 1);
        assert!(kept.examples.is_empty());
        assert_eq!(
            kept.golden_questions.len(),
            1,
            "golden questions are never shown to the model"
        );
        let said: Vec<String> = problems.iter().map(Problem::to_string).collect();
        assert_eq!(
            said,
            [
                "note on customers.prefecture (in the database): names prefecture, which is \
                 hidden from the model: not sent",
                "note on products (in the database): names products, which is hidden from the \
                 model: not sent",
                "note on orders.product_id (in the database): names products, which is hidden \
                 from the model: not sent",
                "glossary term \"東京都\" (schema comment): names prefecture, which is hidden \
                 from the model: not sent",
                "example \"How many?\" (notes file): names products, which is hidden from the \
                 model: not sent",
            ]
        );
    }

    #[test]
    fn with_nothing_hidden_everything_stays() {
        let knowledge = Knowledge {
            notes: vec![note("products", None, "the catalogue")],
            ..Knowledge::default()
        };
        let (kept, problems) = knowledge.clone().without_hidden(&Hidden::default());
        assert_eq!(kept, knowledge);
        assert!(problems.is_empty());
    }
}
