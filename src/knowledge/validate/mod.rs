//! Knowledge validated before anyone uses it: against the schema it is about, the read-only
//! rules for its SQL, and the [`LIMITS`]. Whatever is dropped or cut is said in a [`Problem`];
//! nothing from a source is trusted as it came.

use super::limits::{clean, Cleaned, LIMITS};
use super::{is_knowledge_table, Example, GoldenQuestion, Knowledge, Note, Problem, Source, Term};
use crate::engine::Schema;
use crate::sql::analysis::Query;
use crate::sql::{guard, tidy::tidy};
use crate::text::cut_chars;

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
        let notes = capped(self.notes, LIMITS.notes, "notes", &mut problems, |note| {
            validate_note(note, schema)
        });
        let glossary = capped(
            self.glossary,
            LIMITS.glossary,
            "glossary terms",
            &mut problems,
            validate_term,
        );
        let examples = capped(
            self.examples,
            LIMITS.examples,
            "worked examples",
            &mut problems,
            |example| validate_example(example, schema),
        );
        let golden_questions = capped(
            self.golden_questions,
            LIMITS.golden_questions,
            "golden questions",
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

/// Every piece validated; at most `limit` kept, the rest counted in one problem per source.
fn capped<T: Piece>(
    pieces: Vec<T>,
    limit: usize,
    what: &str,
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
            subject: what.to_string(),
            message: format!("at most {limit} are kept; {count} more were dropped"),
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
    let subject = match &note.column {
        Some(column) => format!(
            "note on {}.{}",
            cut_chars(&note.table, 60),
            cut_chars(column, 60)
        ),
        None => format!("note on {}", cut_chars(&note.table, 60)),
    };
    let problem = |message: String| Problem {
        source: note.source,
        subject: subject.clone(),
        message,
    };
    let dropped = |message: String| Validated {
        kept: None,
        problems: vec![problem(message)],
    };
    let table_name = note.table.trim();
    if is_knowledge_table(table_name) {
        return dropped(
            "is on one of askdb's own knowledge tables, which the model never sees: dropped".into(),
        );
    }
    let Some(table) = schema.table(table_name) else {
        let near = nearest(table_name, schema.tables.iter().map(|t| t.name.as_str()));
        return dropped(format!(
            "this database has no such table{}: dropped",
            did_you_mean(near)
        ));
    };
    note.table = table.name.clone();
    if let Some(column_name) = note.column.as_deref().map(str::trim) {
        let Some(column) = table.column(column_name) else {
            let near = nearest(column_name, table.columns.iter().map(|c| c.name.as_str()));
            return dropped(format!(
                "{} has no such column{}: dropped",
                table.name,
                did_you_mean(near)
            ));
        };
        note.column = Some(column.name.clone());
    }
    let cleaned = clean(&note.text, LIMITS.note_chars);
    let problems = text_problems(&cleaned, LIMITS.note_chars)
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
    let subject = format!("glossary term \"{}\"", cut_chars(&term.term, 60));
    let problem = |message: String| Problem {
        source: term.source,
        subject: subject.clone(),
        message,
    };
    let name = clean(&term.term, LIMITS.term_chars);
    let meaning = clean(&term.meaning, LIMITS.meaning_chars);
    if name.text.is_empty() || meaning.text.is_empty() {
        return Validated {
            kept: None,
            problems: vec![problem("has no term or no meaning: dropped".into())],
        };
    }
    let problems = [
        text_problems(&name, LIMITS.term_chars).map(|m| format!("the term {m}")),
        text_problems(&meaning, LIMITS.meaning_chars).map(|m| format!("the meaning {m}")),
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
        "example",
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
        "golden question",
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
    let subject = question_subject("golden question", &question);
    let problem = |message: String| Problem {
        source: golden.source,
        subject: subject.clone(),
        message,
    };
    if golden.also_accepted.len() > LIMITS.also_accepted {
        problems.push(problem(format!(
            "has {} other accepted answers; the first {} are kept",
            golden.also_accepted.len(),
            LIMITS.also_accepted
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
            Err(why) => problems.push(problem(format!(
                "its other accepted answer {} {why}: that answer is dropped",
                n + 1
            ))),
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
    what: &str,
    source: Source,
    schema: &Schema,
) -> Validated<(String, String)> {
    let cleaned = clean(question, LIMITS.question_chars);
    let problem = |message: String| Problem {
        source,
        subject: question_subject(what, &cleaned.text),
        message,
    };
    if cleaned.text.is_empty() {
        return Validated {
            kept: None,
            problems: vec![problem("has no question: dropped".into())],
        };
    }
    let sql = match validated_sql(sql, schema) {
        Ok(sql) => sql,
        Err(why) => {
            return Validated {
                kept: None,
                problems: vec![problem(format!("its SQL {why}: dropped"))],
            }
        }
    };
    let problems = text_problems(&cleaned, LIMITS.question_chars)
        .map(|m| problem(format!("the question {m}")))
        .into_iter()
        .collect();
    Validated {
        kept: Some((cleaned.text, sql)),
        problems,
    }
}

/// `example "How many orders…"`.
fn question_subject(what: &str, question: &str) -> String {
    format!("{what} \"{}\"", cut_chars(question, 60))
}

/// The SQL tidied and accepted by the guard, or why not ("is refused: …").
fn validated_sql(sql: &str, schema: &Schema) -> Result<String, String> {
    if sql.len() > LIMITS.sql_bytes {
        return Err(format!(
            "is {} bytes long; at most {} are allowed",
            sql.len(),
            LIMITS.sql_bytes
        ));
    }
    let tidied = tidy(sql);
    let statement = guard::check(&tidied).map_err(|refusal| format!("is refused: {refusal}"))?;
    let text = statement.as_str().to_string();
    for table in Query::read(&text).tables() {
        if is_knowledge_table(&table.name) {
            return Err(format!(
                "reads {}, one of askdb's own knowledge tables, which the model never sees",
                table.name
            ));
        }
        if schema.table(&table.name).is_none() && !is_built_in(&table.name) {
            let near = nearest(&table.name, schema.tables.iter().map(|t| t.name.as_str()));
            return Err(format!(
                "reads {}, which this database does not have{}",
                cut_chars(&table.name, 60),
                did_you_mean(near)
            ));
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

/// What cleaning did to a text, as the end of a message ("was cut to 2000 characters").
fn text_problems(cleaned: &Cleaned, limit: usize) -> Option<String> {
    match (cleaned.cut, cleaned.removed_controls) {
        (false, false) => None,
        (true, false) => Some(format!("was cut to {} characters", limit)),
        (false, true) => Some("had control characters, which were taken out".into()),
        (true, true) => Some(format!(
            "had control characters, which were taken out, and was cut to {} characters",
            limit
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

fn did_you_mean(near: Option<&str>) -> String {
    near.map(|name| format!(" (did you mean {name}?)"))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests;
