//! Knowledge validated before anyone uses it: against the schema it is about, the read-only
//! rules for its SQL, and the [`LIMITS`]. Whatever is dropped or cut is said in a [`Problem`];
//! nothing from a source is trusted as it came.

use super::limits::{clean, Cleaned, LIMITS};
use super::{is_knowledge_table, Example, GoldenQuestion, Knowledge, Note, Problem, Source, Term};
use crate::engine::Schema;
use crate::sql::analysis::Query;
use crate::sql::{guard, tidy::tidy};
use crate::text::cut_chars;
use crate::tr;

impl Knowledge {
    /// The knowledge fit to use with `schema`:
    /// - notes on tables or columns it does not have are dropped (with the nearest name, when
    ///   one is near), and kept notes take the schema's spelling of the name;
    /// - text loses its control characters and is cut to its limit;
    /// - an empty note is dropped quietly (a person's empty note clears the notes under it);
    /// - example and golden question SQL is tidied and must pass the read-only guard, stay off the
    ///   knowledge tables and read only tables the schema has, or it is dropped;
    /// - each list keeps at most its limit.
    pub fn validated(self, schema: &Schema) -> (Knowledge, Vec<Problem>) {
        let mut problems = Vec::new();
        let notes = capped(
            self.notes,
            LIMITS.notes,
            || tr!("notes-problem-notes"),
            &mut problems,
            |note| validate_note(note, schema),
        );
        let glossary = capped(
            self.glossary,
            LIMITS.glossary,
            || tr!("notes-problem-glossary"),
            &mut problems,
            validate_term,
        );
        let examples = capped(
            self.examples,
            LIMITS.examples,
            || tr!("notes-problem-examples"),
            &mut problems,
            |example| validate_example(example, schema),
        );
        let golden_questions = capped(
            self.golden_questions,
            LIMITS.golden_questions,
            || tr!("notes-problem-golden-questions"),
            &mut problems,
            |golden| validate_golden(golden, schema),
        );
        let knowledge = Knowledge {
            notes,
            glossary,
            examples,
            golden_questions,
        };
        (knowledge, problems)
    }
}

/// What validating one piece gave: the piece (perhaps changed), and what to say about it.
struct Validated<T> {
    kept: Option<T>,
    problems: Vec<Problem>,
}

/// Every piece validated; at most `limit` kept, the rest counted in one problem per source,
/// about `what` ("notes").
fn capped<T: Piece>(
    pieces: Vec<T>,
    limit: usize,
    what: fn() -> String,
    problems: &mut Vec<Problem>,
    validate: impl Fn(T) -> Validated<T>,
) -> Vec<T> {
    let mut kept = Vec::new();
    let mut over: Vec<Source> = Vec::new();
    for piece in pieces {
        if kept.len() == limit {
            over.push(piece.source());
            continue;
        }
        let validated = validate(piece);
        problems.extend(validated.problems);
        kept.extend(validated.kept);
    }
    let mut sources = over.clone();
    sources.sort();
    sources.dedup();
    for source in sources {
        let count = over.iter().filter(|s| **s == source).count();
        problems.push(Problem {
            source,
            subject: what(),
            // A count as `Display` wrote it (not grouped): the English stays the same.
            message: tr!(
                "notes-problem-capped",
                limit = limit,
                count = count.to_string()
            ),
        });
    }
    kept
}

trait Piece {
    fn source(&self) -> Source;
}

impl Piece for Note {
    fn source(&self) -> Source {
        self.source
    }
}

impl Piece for Term {
    fn source(&self) -> Source {
        self.source
    }
}

impl Piece for Example {
    fn source(&self) -> Source {
        self.source
    }
}

impl Piece for GoldenQuestion {
    fn source(&self) -> Source {
        self.source
    }
}

fn validate_note(mut note: Note, schema: &Schema) -> Validated<Note> {
    // The names as the note gave them (the schema's spelling replaces them below), said only
    // when there is a problem.
    let (source, on_table, on_column) = (note.source, note.table.clone(), note.column.clone());
    let subject = || match &on_column {
        Some(column) => tr!(
            "notes-problem-note-on-column",
            table = cut_chars(&on_table, 60),
            column = cut_chars(column, 60)
        ),
        None => tr!(
            "notes-problem-note-on-table",
            table = cut_chars(&on_table, 60)
        ),
    };
    let problem = |message: String| Problem {
        source,
        subject: subject(),
        message,
    };
    let dropped = |message: String| Validated {
        kept: None,
        problems: vec![problem(message)],
    };
    let table_name = note.table.trim();
    if is_knowledge_table(table_name) {
        return dropped(tr!("notes-problem-note-on-knowledge-table"));
    }
    let Some(table) = schema.table(table_name) else {
        let near = nearest(table_name, schema.tables.iter().map(|t| t.name.as_str()));
        return dropped(match near {
            Some(near) => tr!("notes-problem-no-table-near", near = near),
            None => tr!("notes-problem-no-table"),
        });
    };
    note.table = table.name.clone();
    if let Some(column_name) = note.column.as_deref().map(str::trim) {
        let Some(column) = table.column(column_name) else {
            let near = nearest(column_name, table.columns.iter().map(|c| c.name.as_str()));
            return dropped(match near {
                Some(near) => tr!(
                    "notes-problem-no-column-near",
                    table = &table.name,
                    near = near
                ),
                None => tr!("notes-problem-no-column", table = &table.name),
            });
        };
        note.column = Some(column.name.clone());
    }
    let cleaned = clean(&note.text, LIMITS.note_chars);
    let problems = text_problems(&cleaned, LIMITS.note_chars, "note")
        .map(problem)
        .into_iter()
        .collect();
    note.text = cleaned.text;
    Validated {
        kept: (!note.text.is_empty()).then_some(note),
        problems,
    }
}

fn validate_term(mut term: Term) -> Validated<Term> {
    let subject = || tr!("notes-problem-term", term = cut_chars(&term.term, 60));
    let problem = |message: String| Problem {
        source: term.source,
        subject: subject(),
        message,
    };
    let name = clean(&term.term, LIMITS.term_chars);
    let meaning = clean(&term.meaning, LIMITS.meaning_chars);
    if name.text.is_empty() || meaning.text.is_empty() {
        return Validated {
            kept: None,
            problems: vec![problem(tr!("notes-problem-term-empty"))],
        };
    }
    let problems = [
        text_problems(&name, LIMITS.term_chars, "term"),
        text_problems(&meaning, LIMITS.meaning_chars, "meaning"),
    ]
    .into_iter()
    .flatten()
    .map(problem)
    .collect();
    term.term = name.text;
    term.meaning = meaning.text;
    Validated {
        kept: Some(term),
        problems,
    }
}

fn validate_example(mut example: Example, schema: &Schema) -> Validated<Example> {
    let validated = validated_question(
        &example.question,
        &example.sql,
        Asked::Example,
        example.source,
        schema,
    );
    match validated.kept {
        Some((question, sql)) => {
            example.question = question;
            example.sql = sql;
            Validated {
                kept: Some(example),
                problems: validated.problems,
            }
        }
        None => Validated {
            kept: None,
            problems: validated.problems,
        },
    }
}

fn validate_golden(mut golden: GoldenQuestion, schema: &Schema) -> Validated<GoldenQuestion> {
    let validated = validated_question(
        &golden.question,
        &golden.sql,
        Asked::Golden,
        golden.source,
        schema,
    );
    let Some((question, sql)) = validated.kept else {
        return Validated {
            kept: None,
            problems: validated.problems,
        };
    };
    let mut problems = validated.problems;
    let subject = || Asked::Golden.subject(&question);
    let problem = |message: String| Problem {
        source: golden.source,
        subject: subject(),
        message,
    };
    if golden.also_accepted.len() > LIMITS.also_accepted {
        problems.push(problem(tr!(
            "notes-problem-also-capped",
            count = golden.also_accepted.len().to_string(),
            limit = LIMITS.also_accepted
        )));
    }
    let mut also_accepted = Vec::new();
    for (n, other) in golden
        .also_accepted
        .iter()
        .take(LIMITS.also_accepted)
        .enumerate()
    {
        match validated_sql(other, schema) {
            Ok(sql) => also_accepted.push(sql),
            Err(why) => problems.push(problem(why.other_answer_dropped(n + 1))),
        }
    }
    golden.question = question;
    golden.sql = sql;
    golden.also_accepted = also_accepted;
    Validated {
        kept: Some(golden),
        problems,
    }
}

/// A question and its SQL, both validated: `(question, sql)` as kept, or dropped.
fn validated_question(
    question: &str,
    sql: &str,
    asked: Asked,
    source: Source,
    schema: &Schema,
) -> Validated<(String, String)> {
    let cleaned = clean(question, LIMITS.question_chars);
    let problem = |message: String| Problem {
        source,
        subject: asked.subject(&cleaned.text),
        message,
    };
    if cleaned.text.is_empty() {
        return Validated {
            kept: None,
            problems: vec![problem(tr!("notes-problem-question-empty"))],
        };
    }
    let sql = match validated_sql(sql, schema) {
        Ok(sql) => sql,
        Err(why) => {
            return Validated {
                kept: None,
                problems: vec![problem(why.sql_dropped())],
            }
        }
    };
    let problems = text_problems(&cleaned, LIMITS.question_chars, "question")
        .map(problem)
        .into_iter()
        .collect();
    Validated {
        kept: Some((cleaned.text, sql)),
        problems,
    }
}

/// What kind of question a piece asks.
#[derive(Clone, Copy)]
enum Asked {
    Example,
    Golden,
}

impl Asked {
    /// `example "How many orders…"`.
    fn subject(self, question: &str) -> String {
        let question = cut_chars(question, 60);
        match self {
            Asked::Example => tr!("notes-problem-example", question = question),
            Asked::Golden => tr!("notes-problem-golden", question = question),
        }
    }
}

/// Why an example's or a golden question's SQL is not kept.
enum BadSql {
    TooLong {
        bytes: usize,
    },
    /// The read-only guard's refusal, as it tells the model (English).
    Refused(String),
    ReadsKnowledgeTable(String),
    ReadsMissingTable {
        table: String,
        near: Option<String>,
    },
}

impl BadSql {
    /// The problem with the question's own SQL, which drops the question.
    fn sql_dropped(&self) -> String {
        // Byte counts as `Display` wrote them (not grouped): the English stays the same.
        let limit = LIMITS.sql_bytes.to_string();
        match self {
            BadSql::TooLong { bytes } => tr!(
                "notes-problem-sql-too-long",
                bytes = bytes.to_string(),
                limit = limit
            ),
            BadSql::Refused(refusal) => tr!("notes-problem-sql-refused", refusal = refusal),
            BadSql::ReadsKnowledgeTable(table) => {
                tr!("notes-problem-sql-reads-knowledge", table = table)
            }
            BadSql::ReadsMissingTable { table, near: None } => {
                tr!("notes-problem-sql-reads-missing", table = table)
            }
            BadSql::ReadsMissingTable {
                table,
                near: Some(near),
            } => tr!(
                "notes-problem-sql-reads-missing-near",
                table = table,
                near = near
            ),
        }
    }

    /// The problem with a golden question's other accepted answer `number` (from 1), which
    /// drops that answer.
    fn other_answer_dropped(&self, number: usize) -> String {
        let limit = LIMITS.sql_bytes.to_string();
        match self {
            BadSql::TooLong { bytes } => tr!(
                "notes-problem-other-too-long",
                number = number,
                bytes = bytes.to_string(),
                limit = limit
            ),
            BadSql::Refused(refusal) => tr!(
                "notes-problem-other-refused",
                number = number,
                refusal = refusal
            ),
            BadSql::ReadsKnowledgeTable(table) => tr!(
                "notes-problem-other-reads-knowledge",
                number = number,
                table = table
            ),
            BadSql::ReadsMissingTable { table, near: None } => tr!(
                "notes-problem-other-reads-missing",
                number = number,
                table = table
            ),
            BadSql::ReadsMissingTable {
                table,
                near: Some(near),
            } => tr!(
                "notes-problem-other-reads-missing-near",
                number = number,
                table = table,
                near = near
            ),
        }
    }
}

/// The SQL tidied and accepted by the guard, or why not.
fn validated_sql(sql: &str, schema: &Schema) -> Result<String, BadSql> {
    if sql.len() > LIMITS.sql_bytes {
        return Err(BadSql::TooLong { bytes: sql.len() });
    }
    let tidied = tidy(sql);
    let statement =
        guard::check(&tidied).map_err(|refusal| BadSql::Refused(refusal.to_string()))?;
    let text = statement.as_str().to_string();
    for table in Query::read(&text).tables() {
        if is_knowledge_table(&table.name) {
            return Err(BadSql::ReadsKnowledgeTable(table.name.clone()));
        }
        if schema.table(&table.name).is_none() && !is_built_in(&table.name) {
            let near = nearest(&table.name, schema.tables.iter().map(|t| t.name.as_str()));
            return Err(BadSql::ReadsMissingTable {
                table: cut_chars(&table.name, 60),
                near: near.map(str::to_string),
            });
        }
    }
    Ok(text)
}

/// What SQLite has without the database defining it: its catalogue, the pragma functions and
/// the table-valued functions a query may read like tables.
fn is_built_in(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.starts_with("sqlite_")
        || lower.starts_with("pragma_")
        || [
            "json_each",
            "json_tree",
            "jsonb_each",
            "jsonb_tree",
            "generate_series",
            "dbstat",
        ]
        .contains(&lower.as_str())
}

/// What cleaning did to a text, which is the `part` ("term", "meaning", "question") of a
/// piece or the whole piece ("note"): "the term was cut to 200 characters".
fn text_problems(cleaned: &Cleaned, limit: usize, part: &str) -> Option<String> {
    // A limit as `Display` wrote it (not grouped): the English stays the same.
    let limit = limit.to_string();
    match (cleaned.cut, cleaned.removed_controls) {
        (false, false) => None,
        (true, false) => Some(tr!("notes-problem-cut", part = part, limit = limit)),
        (false, true) => Some(tr!("notes-problem-controls", part = part)),
        (true, true) => Some(tr!(
            "notes-problem-controls-cut",
            part = part,
            limit = limit
        )),
    }
}

/// The candidate nearest `name` when one is near: same letters but for case and `_`/spaces,
/// one inside the other, or a few typing mistakes away.
fn nearest<'c>(name: &str, candidates: impl Iterator<Item = &'c str>) -> Option<&'c str> {
    let fold = |text: &str| text.to_lowercase().replace([' ', '_'], "");
    let probe = fold(name);
    // Edit distance costs the product of the lengths: a hostile name gets no suggestion.
    if probe.is_empty() || probe.len() > LIMITS.name_chars {
        return None;
    }
    candidates
        .map(|candidate| {
            (
                strsim::damerau_levenshtein(&probe, &fold(candidate)),
                candidate,
            )
        })
        .filter(|(edits, _)| *edits <= (probe.chars().count() / 4).max(1))
        .min_by_key(|(edits, _)| *edits)
        .map(|(_, candidate)| candidate)
}

#[cfg(test)]
mod tests;
