//! The person's own notes, as the page keeps them for one database: edited one at a time,
//! stored as JSON, and read back as untrusted text (anyone with the browser can edit what a
//! page stored, so a broken or enormous entry is cut or ignored, never trusted).

use super::{Knowledge, Note, Source};
use crate::text::cut_chars;

/// A note the person types is kept up to this many characters (the editor stops there too):
/// as long as a note from any source may be.
pub const MAX_NOTE_CHARS: usize = super::LIMITS.note_chars;

/// At most this many of the person's notes are read back for one database.
pub const MAX_KEPT_NOTES: usize = 5_000;

/// Sets the person's note on `table` (or on its `column`): replaces the one there or adds one.
/// A blank `text` is kept as an empty note, which says "no note here": it wins over a note from
/// another source when they are merged, and validation then drops it. Names keep the schema's
/// spelling; a second note on the same place in another case replaces the first, as SQLite's
/// names ignore ASCII case.
pub fn set_note(notes: &mut Vec<Note>, table: &str, column: Option<&str>, text: &str) {
    remove_note(notes, table, column);
    let text = text.trim();
    notes.push(Note {
        table: table.to_string(),
        column: column.map(str::to_string),
        text: cut_chars(text, MAX_NOTE_CHARS),
        source: Source::Person,
    });
}

/// Removes the person's note on `table` (or on its `column`): a note from another source there
/// shows again.
pub fn remove_note(notes: &mut Vec<Note>, table: &str, column: Option<&str>) {
    notes.retain(|note| !is_on(note, table, column));
}

/// True when `note` is on `table` itself (no `column`) or on `table.column`, ignoring case.
pub fn is_on(note: &Note, table: &str, column: Option<&str>) -> bool {
    note.table.eq_ignore_ascii_case(table)
        && match (&note.column, column) {
            (None, None) => true,
            (Some(a), Some(b)) => a.eq_ignore_ascii_case(b),
            _ => false,
        }
}

/// The notes as the page stores them.
pub fn to_json(notes: &[Note]) -> String {
    serde_json::to_string(notes).expect("notes are plain strings")
}

/// The notes stored by [`to_json`], read back: anything that is not a list of notes gives
/// none; every note counts as the person's and is cut to [`MAX_NOTE_CHARS`]; those past
/// [`MAX_KEPT_NOTES`] are left out.
pub fn from_json(json: &str) -> Vec<Note> {
    let Ok(read) = serde_json::from_str::<Vec<Note>>(json) else {
        return Vec::new();
    };
    let mut notes = Vec::new();
    for note in read.into_iter().take(MAX_KEPT_NOTES) {
        set_note(
            &mut notes,
            &note.table,
            note.column.as_deref(),
            &cut_chars(&note.text, MAX_NOTE_CHARS),
        );
    }
    notes
}

/// The person's notes as a [`Knowledge`], to merge with the other sources.
pub fn as_knowledge(notes: &[Note]) -> Knowledge {
    Knowledge {
        notes: notes.to_vec(),
        ..Knowledge::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(notes: &[Note]) -> Vec<(String, Option<String>, String)> {
        notes
            .iter()
            .map(|n| (n.table.clone(), n.column.clone(), n.text.clone()))
            .collect()
    }

    #[test]
    fn a_note_is_added_replaced_and_removed() {
        let mut notes = Vec::new();
        set_note(&mut notes, "orders", Some("amount"), "  in cents ");
        set_note(&mut notes, "orders", None, "one row per order");
        set_note(&mut notes, "ORDERS", Some("Amount"), "in yen");
        assert_eq!(
            texts(&notes),
            [
                ("orders".into(), None, "one row per order".into()),
                ("ORDERS".into(), Some("Amount".into()), "in yen".into()),
            ]
        );
        assert!(notes.iter().all(|n| n.source == Source::Person));
        // Blank: "no note here", kept so that it hides the file's note.
        set_note(&mut notes, "orders", Some("amount"), " \n ");
        assert_eq!(
            texts(&notes),
            [
                ("orders".into(), None, "one row per order".into()),
                ("orders".into(), Some("amount".into()), String::new()),
            ]
        );
        remove_note(&mut notes, "Orders", Some("AMOUNT"));
        assert_eq!(
            texts(&notes),
            [("orders".into(), None, "one row per order".into())]
        );
    }

    #[test]
    fn a_long_note_is_cut() {
        let mut notes = Vec::new();
        set_note(&mut notes, "t", None, &"東".repeat(MAX_NOTE_CHARS + 10));
        assert_eq!(notes[0].text.chars().count(), MAX_NOTE_CHARS + 1, "with …");
    }

    #[test]
    fn stored_notes_read_back_equal() {
        let mut notes = Vec::new();
        set_note(
            &mut notes,
            "customers",
            Some("email"),
            "<img src=x onerror=alert(1)>",
        );
        set_note(&mut notes, "customers", None, "one row per buyer");
        assert_eq!(from_json(&to_json(&notes)), notes);
    }

    #[test]
    fn what_was_stored_is_read_as_untrusted() {
        assert!(from_json("not json").is_empty());
        assert!(from_json(r#"{"table":"t"}"#).is_empty());
        assert!(from_json("[1, 2]").is_empty());
        let edited = format!(
            r#"[{{"table":"t","column":null,"text":"{}","source":"schema"}},
               {{"table":"t","column":"c","text":"   ","source":"person"}}]"#,
            "x".repeat(MAX_NOTE_CHARS * 3)
        );
        let notes = from_json(&edited);
        assert_eq!(notes.len(), 2);
        assert!(notes.iter().all(|n| n.source == Source::Person));
        assert!(notes[0].text.chars().count() <= MAX_NOTE_CHARS + 1);
        assert_eq!(notes[1].text, "");
    }

    #[test]
    fn notes_are_found_by_place() {
        let mut notes = Vec::new();
        set_note(&mut notes, "t", Some("c"), "x");
        assert!(is_on(&notes[0], "T", Some("C")));
        assert!(!is_on(&notes[0], "t", None));
        assert!(!is_on(&notes[0], "t", Some("d")));
        assert_eq!(as_knowledge(&notes).notes, notes);
    }

    #[test]
    fn a_blank_note_of_the_persons_hides_the_files_and_removing_it_brings_it_back() {
        use crate::engine::schema::{Column, Table};
        use crate::engine::{Schema, TableKind};
        let schema = Schema {
            tables: vec![Table {
                name: "orders".into(),
                kind: TableKind::Table,
                columns: vec![Column {
                    name: "amount".into(),
                    decl_type: "INTEGER".into(),
                    not_null: false,
                    primary_key: 0,
                    default: None,
                }],
                foreign_keys: Vec::new(),
                row_count: None,
            }],
        };
        let from_file = Knowledge {
            notes: vec![Note {
                table: "orders".into(),
                column: Some("amount".into()),
                text: "in cents".into(),
                source: Source::Database,
            }],
            ..Knowledge::default()
        };
        let shown = |mine: &[Note]| {
            let merged = Knowledge::merged([from_file.clone(), as_knowledge(mine)]);
            let (validated, _) = merged.validated(&schema);
            validated
                .column_note("orders", "amount")
                .map(|n| n.text.clone())
        };
        let mut mine = Vec::new();
        set_note(&mut mine, "orders", Some("amount"), "in yen");
        assert_eq!(shown(&mine).as_deref(), Some("in yen"));
        set_note(&mut mine, "orders", Some("amount"), "");
        assert_eq!(shown(&mine), None);
        remove_note(&mut mine, "orders", Some("amount"));
        assert_eq!(shown(&mine).as_deref(), Some("in cents"));
    }
}
