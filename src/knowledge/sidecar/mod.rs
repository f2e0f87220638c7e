//! The sidecar file: a database's knowledge as JSON (`askdb-knowledge/1`,
//! `docs/knowledge-format.md`), opened next to the database, named by `?notes=`, or exported
//! from the page.
//!
//! A sidecar is untrusted: anyone can write one. [`read`] checks its size and shape and takes
//! at most [`LIMITS`]' count of each list; an entry that is not of the documented shape is
//! skipped and reported as a [`Problem`], so one bad entry does not cost the rest. Its text is
//! checked against the schema later, with the other sources ([`Knowledge::validated`]).

use super::limits::LIMITS;
use super::{Example, GoldenQuestion, Knowledge, Note, Problem, Source, Term};
use crate::text::cut_chars;
use crate::tr;
use serde::de::{Deserializer, IgnoredAny, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;

/// The `format` a sidecar names.
pub const FORMAT: &str = "askdb-knowledge/1";

/// Which database a sidecar was written for: shown to the person, never required.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DatabaseRef {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// SHA-256 of the database file's bytes, 64 hex digits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
}

/// A sidecar as read: its knowledge, what was skipped, and the database it names.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sidecar {
    pub knowledge: Knowledge,
    pub problems: Vec<Problem>,
    pub database: Option<DatabaseRef>,
}

/// Why a file is not a usable sidecar. `Display` says what to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SidecarError {
    TooLarge {
        bytes: usize,
    },
    NotJson {
        message: String,
    },
    /// JSON that stops before its end.
    CutShort,
    /// JSON, but without `"format": "askdb-knowledge/…"` at its top.
    NotASidecar,
    WrongVersion {
        found: String,
    },
    /// A top-level field of the wrong type (`"notes"` not a list, …).
    WrongShape {
        message: String,
    },
}

impl fmt::Display for SidecarError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SidecarError::TooLarge { bytes } => write!(
                f,
                "the notes file has {bytes} bytes; a notes file may have at most {} MiB ({} \
                 bytes)",
                LIMITS.sidecar_bytes / (1024 * 1024),
                LIMITS.sidecar_bytes
            ),
            SidecarError::NotJson { message } => write!(
                f,
                "the notes file is not valid JSON ({message}): export it from askdb again, or \
                 fix it as docs/knowledge-format.md describes"
            ),
            SidecarError::CutShort => f.write_str(
                "the notes file is cut short (its JSON ends in the middle): save or download it \
                 again",
            ),
            SidecarError::NotASidecar => write!(
                f,
                "this JSON file is not an askdb notes file (it has no \"format\": \"{FORMAT}\")"
            ),
            SidecarError::WrongVersion { found } => write!(
                f,
                "this notes file is in the format \"{}\"; this page reads \"{FORMAT}\"",
                cut_chars(found, 60)
            ),
            SidecarError::WrongShape { message } => {
                write!(f, "the notes file is damaged: {message}")
            }
        }
    }
}

impl std::error::Error for SidecarError {}

impl SidecarError {
    /// What the page tells the person who opened the file, in the page's language: the same
    /// as `Display` in English. `Display` stays English for the native tools and logs.
    pub fn for_person(&self) -> String {
        // Byte counts as `Display` writes them (not grouped), so that the English is the same.
        let limit_bytes = LIMITS.sidecar_bytes.to_string();
        let limit_mib = LIMITS.sidecar_bytes / (1024 * 1024);
        match self {
            SidecarError::TooLarge { bytes } => crate::tr!(
                "notes-file-too-large",
                bytes = bytes.to_string(),
                limit_mib = limit_mib,
                limit_bytes = limit_bytes
            ),
            SidecarError::NotJson { message } => {
                crate::tr!("notes-file-not-json", message = message)
            }
            SidecarError::CutShort => crate::tr!("notes-file-cut-short"),
            SidecarError::NotASidecar => crate::tr!("notes-file-not-notes", format = FORMAT),
            SidecarError::WrongVersion { found } => crate::tr!(
                "notes-file-wrong-version",
                found = cut_chars(found, 60),
                format = FORMAT
            ),
            SidecarError::WrongShape { message } => {
                crate::tr!("notes-file-damaged", message = message)
            }
        }
    }
}

/// Reads a sidecar's text into knowledge (every piece `Source::Sidecar`) and the entries it
/// skipped.
pub fn read(text: &str) -> Result<(Knowledge, Vec<Problem>), SidecarError> {
    read_sidecar(text).map(|sidecar| (sidecar.knowledge, sidecar.problems))
}

/// The same, with the database the file names.
pub fn read_sidecar(text: &str) -> Result<Sidecar, SidecarError> {
    if text.len() > LIMITS.sidecar_bytes {
        return Err(SidecarError::TooLarge { bytes: text.len() });
    }
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    if !text.trim_start().starts_with('{') {
        serde_json::from_str::<IgnoredAny>(text).map_err(not_read)?;
        return Err(SidecarError::NotASidecar);
    }
    let file: RawFile = serde_json::from_str(text).map_err(not_read)?;
    match &file.format {
        Some(Value::String(format)) if format == FORMAT => {}
        Some(Value::String(format)) => {
            return Err(SidecarError::WrongVersion {
                found: format.clone(),
            })
        }
        Some(other) => {
            return Err(SidecarError::WrongVersion {
                found: other.to_string(),
            })
        }
        None => return Err(SidecarError::NotASidecar),
    }
    let database = match file.database {
        None | Some(Value::Null) => None,
        Some(value) => Some(serde_json::from_value::<DatabaseRef>(value).map_err(|e| {
            SidecarError::WrongShape {
                message: format!("\"database\" is not {{\"name\", \"sha256\"}} ({e})"),
            }
        })?),
    };
    let mut problems = Vec::new();
    let knowledge = Knowledge {
        notes: entries(file.notes, "notes", LIMITS.notes, &mut problems, note)?,
        glossary: entries(
            file.glossary,
            "glossary",
            LIMITS.glossary,
            &mut problems,
            term,
        )?,
        examples: entries(
            file.examples,
            "examples",
            LIMITS.examples,
            &mut problems,
            example,
        )?,
        golden_questions: entries(
            file.checks,
            "checks",
            LIMITS.golden_questions,
            &mut problems,
            golden_question,
        )?,
    };
    Ok(Sidecar {
        knowledge,
        problems,
        database,
    })
}

/// The knowledge as a sidecar file (pretty JSON): what the page exports.
pub fn write(knowledge: &Knowledge) -> String {
    write_for(knowledge, None)
}

/// The same, naming the database it was written for.
pub fn write_for(knowledge: &Knowledge, database: Option<&DatabaseRef>) -> String {
    let file = WrittenFile {
        format: FORMAT,
        database,
        notes: knowledge
            .notes
            .iter()
            .map(|n| NoteEntry {
                table: &n.table,
                column: n.column.as_deref(),
                note: &n.text,
            })
            .collect(),
        glossary: knowledge
            .glossary
            .iter()
            .map(|t| TermEntry {
                term: &t.term,
                meaning: &t.meaning,
            })
            .collect(),
        examples: knowledge
            .examples
            .iter()
            .map(|e| ExampleEntry {
                question: &e.question,
                sql: &e.sql,
            })
            .collect(),
        checks: knowledge
            .golden_questions
            .iter()
            .map(|c| GoldenQuestionEntry {
                question: &c.question,
                sql: &c.sql,
                also_accepted: &c.also_accepted,
            })
            .collect(),
    };
    let mut text = serde_json::to_string_pretty(&file).expect("plain data serializes");
    text.push('\n');
    text
}

fn not_read(error: serde_json::Error) -> SidecarError {
    use serde_json::error::Category;
    match error.classify() {
        Category::Eof => SidecarError::CutShort,
        Category::Syntax | Category::Io => SidecarError::NotJson {
            message: cut_chars(&error.to_string(), 200),
        },
        Category::Data => SidecarError::WrongShape {
            message: cut_chars(&error.to_string(), 200),
        },
    }
}

/// The file as parsed: lists kept as JSON values so that each entry is judged on its own.
#[derive(Deserialize)]
struct RawFile {
    format: Option<Value>,
    database: Option<Value>,
    #[serde(default)]
    notes: Option<Capped>,
    #[serde(default)]
    glossary: Option<Capped>,
    #[serde(default)]
    examples: Option<Capped>,
    #[serde(default)]
    checks: Option<Capped>,
}

/// A list's first [`CAPPED_KEEP`] entries; the rest are only counted, never held in memory, so
/// a file of a million tiny entries costs no more than one of a few.
struct Capped {
    kept: Vec<Value>,
    total: usize,
}

/// More than any one list may keep ([`LIMITS`]' largest count).
const CAPPED_KEEP: usize = 500;

impl<'de> Deserialize<'de> for Capped {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct CappedVisitor;
        impl<'de> Visitor<'de> for CappedVisitor {
            type Value = Capped;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Capped, A::Error> {
                let mut capped = Capped {
                    kept: Vec::new(),
                    total: 0,
                };
                while capped.total < CAPPED_KEEP {
                    match seq.next_element::<Value>()? {
                        Some(value) => capped.kept.push(value),
                        None => return Ok(capped),
                    }
                    capped.total += 1;
                }
                while seq.next_element::<IgnoredAny>()?.is_some() {
                    capped.total += 1;
                }
                Ok(capped)
            }
        }
        deserializer.deserialize_seq(CappedVisitor)
    }
}

/// Each entry of one list read by `read_entry` (or why it is skipped, in the page's language),
/// at most `limit` of them; the others reported.
fn entries<T>(
    list: Option<Capped>,
    name: &str,
    limit: usize,
    problems: &mut Vec<Problem>,
    read_entry: fn(&serde_json::Map<String, Value>) -> Result<T, String>,
) -> Result<Vec<T>, SidecarError> {
    let Some(list) = list else {
        return Ok(Vec::new());
    };
    let mut read = Vec::new();
    for (index, value) in list.kept.iter().take(limit).enumerate() {
        let outcome = match value {
            Value::Object(fields) => read_entry(fields),
            _ => Err(tr!("notes-problem-entry-not-object")),
        };
        match outcome {
            Ok(entry) => read.push(entry),
            Err(why) => problems.push(Problem {
                source: Source::Sidecar,
                // The entry as the file's JSON names it: code, the same in every language.
                subject: format!("{name}[{index}]"),
                message: why,
            }),
        }
    }
    if list.total > limit {
        problems.push(Problem {
            source: Source::Sidecar,
            subject: tr!("notes-problem-file-list", list = name),
            // A count as `Display` wrote it (not grouped): the English stays the same.
            message: tr!(
                "notes-problem-entries-capped",
                total = list.total.to_string(),
                limit = limit
            ),
        });
    }
    Ok(read)
}

/// A field that must be text.
fn text(fields: &serde_json::Map<String, Value>, key: &str) -> Result<String, String> {
    match fields.get(key) {
        Some(Value::String(text)) => Ok(text.clone()),
        None | Some(Value::Null) => Err(tr!("notes-problem-entry-missing", key = key)),
        Some(_) => Err(not_text(key)),
    }
}

fn not_text(key: &str) -> String {
    tr!("notes-problem-entry-not-text", key = key)
}

/// A field that may be missing, null or empty.
fn optional_text(
    fields: &serde_json::Map<String, Value>,
    key: &str,
) -> Result<Option<String>, String> {
    match fields.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) if text.trim().is_empty() => Ok(None),
        Some(Value::String(text)) => Ok(Some(text.clone())),
        Some(_) => Err(not_text(key)),
    }
}

fn note(fields: &serde_json::Map<String, Value>) -> Result<Note, String> {
    Ok(Note {
        table: text(fields, "table")?,
        column: optional_text(fields, "column")?,
        text: text(fields, "note")?,
        source: Source::Sidecar,
    })
}

fn term(fields: &serde_json::Map<String, Value>) -> Result<Term, String> {
    Ok(Term {
        term: text(fields, "term")?,
        meaning: text(fields, "meaning")?,
        source: Source::Sidecar,
    })
}

fn example(fields: &serde_json::Map<String, Value>) -> Result<Example, String> {
    Ok(Example {
        question: text(fields, "question")?,
        sql: text(fields, "sql")?,
        source: Source::Sidecar,
    })
}

fn golden_question(fields: &serde_json::Map<String, Value>) -> Result<GoldenQuestion, String> {
    let also_accepted = match fields.get("also_accepted") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(list)) => list
            .iter()
            .take(LIMITS.also_accepted + 1)
            .map(|sql| match sql {
                Value::String(sql) => Ok(sql.clone()),
                _ => Err(tr!("notes-problem-entry-also-item")),
            })
            .collect::<Result<_, _>>()?,
        Some(_) => return Err(tr!("notes-problem-entry-also-list")),
    };
    Ok(GoldenQuestion {
        question: text(fields, "question")?,
        sql: text(fields, "sql")?,
        also_accepted,
        source: Source::Sidecar,
    })
}

#[derive(Serialize)]
struct WrittenFile<'a> {
    format: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    database: Option<&'a DatabaseRef>,
    notes: Vec<NoteEntry<'a>>,
    glossary: Vec<TermEntry<'a>>,
    examples: Vec<ExampleEntry<'a>>,
    checks: Vec<GoldenQuestionEntry<'a>>,
}

#[derive(Serialize)]
struct NoteEntry<'a> {
    table: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    column: Option<&'a str>,
    note: &'a str,
}

#[derive(Serialize)]
struct TermEntry<'a> {
    term: &'a str,
    meaning: &'a str,
}

#[derive(Serialize)]
struct ExampleEntry<'a> {
    question: &'a str,
    sql: &'a str,
}

#[derive(Serialize)]
struct GoldenQuestionEntry<'a> {
    question: &'a str,
    sql: &'a str,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    also_accepted: &'a [String],
}

#[cfg(test)]
mod tests;
