//! The readers of the four sources, as the page calls them: the one place that names the
//! `knowledge` module's readers and writer, so that the rest of the page deals only in
//! [`Knowledge`] and [`Problem`]s.
//!
//! STAND-IN until the readers land on main (H1, issue 11): each function below has the
//! contract's signature and the least behaviour the page needs; they are replaced by calls to
//! `crate::knowledge::{comments, tables, sidecar}` and `Knowledge::{merged, checked}`.

use crate::engine::hidden::load_catalogue;
use crate::engine::{query, Database, QueryLimits, Schema, Value};
use crate::knowledge::{person, Knowledge, Note, Problem, Source};

/// The database's own knowledge: its schema comments and its `askdb_*` tables. A failure is
/// the reason, for the person to read; the database stays open all the same.
pub async fn from_file<D: Database + ?Sized>(db: &D) -> Result<(Knowledge, Vec<Problem>), String> {
    // Read so that a broken catalogue is reported here, as the real reader will.
    load_catalogue(db).await.map_err(|e| e.to_string())?;
    let limits = QueryLimits {
        max_rows: 10_000,
        deadline_ms: 10_000,
    };
    let mut knowledge = Knowledge::default();
    if let Ok(result) = query(
        db,
        "SELECT table_name, column_name, note FROM askdb_notes",
        &limits,
    )
    .await
    {
        for row in result.rows {
            let text = |v: &Value| match v {
                Value::Text(s) => Some(s.clone()),
                _ => None,
            };
            let (Some(table), Some(note)) = (text(&row[0]), text(&row[2])) else {
                continue;
            };
            knowledge.notes.push(Note {
                table,
                column: text(&row[1]),
                text: crate::text::cut_chars(&note, person::MAX_NOTE_CHARS),
                source: Source::Database,
            });
        }
    }
    Ok((knowledge, Vec::new()))
}

/// Reads a notes file's text (`askdb-knowledge/1`: notes only, in the stand-in).
pub fn read_sidecar(text: &str) -> Result<(Knowledge, Vec<Problem>), String> {
    let file: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("this is not an askdb notes file ({e})"))?;
    let mut knowledge = Knowledge::default();
    for entry in file["notes"].as_array().into_iter().flatten() {
        let (Some(table), Some(text)) = (entry["table"].as_str(), entry["note"].as_str()) else {
            continue;
        };
        knowledge.notes.push(Note {
            table: table.into(),
            column: entry["column"].as_str().map(Into::into),
            text: crate::text::cut_chars(text, person::MAX_NOTE_CHARS),
            source: Source::Sidecar,
        });
    }
    Ok((knowledge, Vec::new()))
}

/// Writes `knowledge` as a notes file.
pub fn write_sidecar(knowledge: &Knowledge) -> String {
    let notes: Vec<_> = knowledge
        .notes
        .iter()
        .map(|n| serde_json::json!({"table": n.table, "column": n.column, "note": n.text}))
        .collect();
    let file = serde_json::json!({"format": "askdb-knowledge/1", "notes": notes});
    serde_json::to_string_pretty(&file).expect("knowledge serializes")
}

/// Whether a file's bytes are a notes file rather than a conversation.
pub fn looks_like_sidecar(bytes: &[u8]) -> bool {
    String::from_utf8_lossy(bytes).contains("askdb-knowledge/")
}

/// The sources merged (later ones win for the same note) and checked against `schema`.
pub fn combine(parts: Vec<Knowledge>, schema: &Schema) -> (Knowledge, Vec<Problem>) {
    let mut merged = Knowledge::default();
    for part in parts {
        for note in part.notes {
            merged
                .notes
                .retain(|n| !person::is_on(n, &note.table, note.column.as_deref()));
            merged.notes.push(note);
        }
        merged.glossary.extend(part.glossary);
        merged.examples.extend(part.examples);
        merged.checks.extend(part.checks);
    }
    let mut problems = Vec::new();
    merged.notes.retain(|note| {
        let exists = schema.tables.iter().any(|t| {
            t.name.eq_ignore_ascii_case(&note.table)
                && note
                    .column
                    .as_ref()
                    .is_none_or(|c| t.columns.iter().any(|col| col.name.eq_ignore_ascii_case(c)))
        });
        if !exists {
            problems.push(Problem {
                source: note.source,
                subject: format!("note on {}", note.table),
                message: "no such table or column: dropped".into(),
            });
        }
        exists
    });
    (merged, problems)
}
