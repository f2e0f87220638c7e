//! What a file is, from its name and first bytes: the one place that decides, for a file a
//! person drops or picks (`ui::intake`), for the importer (`import::data_format`, which then
//! reads how a data file is written) and for the engine (SQLite's header, `engine::file_check`).
//!
//! A file's bytes decide where they can (SQLite's header; askdb's JSON formats name
//! themselves near their start); its name decides the rest (a data file by its extension).
//! Where the person named a role (`?replay=` is a conversation, `?notes=` and "Open notes
//! file" a notes file), that role wins and this guess is not asked: see [`Role`].

/// The first 16 bytes of every SQLite database file.
pub const SQLITE_MAGIC: &[u8; 16] = b"SQLite format 3\0";

/// How many first bytes [`identify`] reads: askdb writes a file's `"format"` first, well
/// within them.
pub const FIRST_BYTES: usize = 4096;

/// How a notes file's format starts (`knowledge::sidecar::FORMAT` is one of them).
pub const NOTES_FORMAT_PREFIX: &str = "askdb-knowledge/";

/// How a conversation's format starts (`conversation::FORMAT` is one of them).
pub const CONVERSATION_FORMAT_PREFIX: &str = "askdb-conversation/";

/// What a file is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileIs {
    /// Starts with SQLite's header.
    Database,
    /// A JSON object that names a conversation's format, or names none and is not named as a
    /// data file (its reader then says why it is not a conversation).
    Conversation,
    /// A JSON object that names a notes file's format.
    Notes,
    /// A data file, told by its extension: the importer reads it.
    Data(DataKind),
    /// Anything else: opened as a database, whose header check names what is wrong with it.
    Unknown,
}

/// Which kind of data file, by its extension (the importer then reads how it is written).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DataKind {
    /// `.csv`, `.tsv`, `.txt`: delimited text.
    Delimited,
    /// `.json`, `.ndjson`, `.jsonl`.
    Json,
    /// `.xlsx`, `.xlsm`.
    Excel,
}

impl DataKind {
    /// The kind a file named `name` is, when its extension (in any case) names one.
    pub fn by_name(name: &str) -> Option<DataKind> {
        match extension(name).as_str() {
            "csv" | "tsv" | "txt" => Some(DataKind::Delimited),
            "json" | "ndjson" | "jsonl" => Some(DataKind::Json),
            "xlsx" | "xlsm" => Some(DataKind::Excel),
            _ => None,
        }
    }
}

/// A role the person gave a file by where they gave it; it wins over [`identify`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// `?replay=`: read as a conversation and nothing else.
    Conversation,
    /// `?notes=`, "Open notes file": read as a notes file and nothing else.
    Notes,
}

impl Role {
    /// What a file given in this role is read as, whatever its bytes say.
    pub fn read_as(self) -> FileIs {
        match self {
            Role::Conversation => FileIs::Conversation,
            Role::Notes => FileIs::Notes,
        }
    }
}

/// What the file named `name`, whose first bytes (up to [`FIRST_BYTES`]) are `first`, is.
pub fn identify(name: &str, first: &[u8]) -> FileIs {
    if is_sqlite(first) {
        return FileIs::Database;
    }
    let data = DataKind::by_name(name);
    if starts_a_json_object(first) {
        match askdb_format_named(first) {
            Some(Role::Notes) => return FileIs::Notes,
            Some(Role::Conversation) => return FileIs::Conversation,
            None => {}
        }
        return data.map_or(FileIs::Conversation, FileIs::Data);
    }
    data.map_or(FileIs::Unknown, FileIs::Data)
}

/// Whether `first` starts with SQLite's header.
pub fn is_sqlite(first: &[u8]) -> bool {
    first.starts_with(SQLITE_MAGIC)
}

/// The lower-case extension of a file name ("" without one).
pub fn extension(name: &str) -> String {
    match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => ext.to_ascii_lowercase(),
        _ => String::new(),
    }
}

/// Whether `first` starts (after a byte-order mark and white space) with `{`.
fn starts_a_json_object(first: &[u8]) -> bool {
    let text = first.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(first);
    text.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{')
}

/// Which of askdb's formats the first `"askdb-…` string in `first` names: a notes file's, or
/// (any other, a conversation's of another version included) a conversation's, whose reader
/// names the version it does not read.
fn askdb_format_named(first: &[u8]) -> Option<Role> {
    let head = &first[..first.len().min(FIRST_BYTES)];
    let text = String::from_utf8_lossy(head);
    // A string that starts with `askdb-`: its quote is not escaped (`\"` is inside a string).
    let at = text
        .match_indices("\"askdb-")
        .find(|(at, _)| !text[..*at].ends_with('\\'))?
        .0;
    Some(match text[at + 1..].starts_with(NOTES_FORMAT_PREFIX) {
        true => Role::Notes,
        false => Role::Conversation,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // Mutation: `is_sqlite` answering false sends a database named `.csv` to the importer.
    #[test]
    fn sqlites_header_wins_over_any_name() {
        for name in ["shop.db", "shop.csv", "notes.json", "x"] {
            assert_eq!(
                identify(name, b"SQLite format 3\0\x10\x00"),
                FileIs::Database
            );
        }
    }

    // Mutation: `DataKind::by_name` answering for every name sends `shop.db` to the importer.
    #[test]
    fn data_files_are_told_by_their_extension_in_any_case() {
        let kinds = [
            ("a.csv", DataKind::Delimited),
            ("B.TSV", DataKind::Delimited),
            ("x.txt", DataKind::Delimited),
            ("d.json", DataKind::Json),
            ("e.ndjson", DataKind::Json),
            ("f.jsonl", DataKind::Json),
            ("g.xlsx", DataKind::Excel),
            ("h.XLSM", DataKind::Excel),
        ];
        for (name, kind) in kinds {
            assert_eq!(
                identify(name, b"id,name\n1,x\n"),
                FileIs::Data(kind),
                "{name}"
            );
        }
        for name in ["shop.db", "notes", "old.xls", "csv", "a.sqlite"] {
            assert_eq!(identify(name, b"id,name\n1,x\n"), FileIs::Unknown, "{name}");
        }
    }

    // Mutation: dropping the check for askdb's format imports a saved conversation named
    // `.json` as a data table.
    #[test]
    fn askdbs_json_files_are_told_by_the_format_they_name() {
        let conversation = b"{\n  \"format\": \"askdb-conversation/1\",\n  \"questions\": []}";
        let notes = b"\xEF\xBB\xBF {\"format\": \"askdb-knowledge/2\", \"tables\": {}}";
        let later_version = b"{\"format\": \"askdb-conversation/9\"}";
        for name in ["c.json", "c", "c.txt"] {
            assert_eq!(identify(name, conversation), FileIs::Conversation, "{name}");
            assert_eq!(
                identify(name, later_version),
                FileIs::Conversation,
                "{name}"
            );
            assert_eq!(identify(name, notes), FileIs::Notes, "{name}");
        }
        // A notes file that mentions a conversation after its own format is still notes.
        let mentions = b"{\"format\": \"askdb-knowledge/2\", \"note\": \"askdb-conversation/1\"}";
        assert_eq!(identify("n.json", mentions), FileIs::Notes);
        // Mutation: taking an escaped quote for a string's start reads this as notes.
        let quoted = br#"{"q": "say \"askdb-knowledge/1\"", "format": "askdb-conversation/1"}"#;
        assert_eq!(identify("c.json", quoted), FileIs::Conversation);
    }

    #[test]
    fn other_json_is_data_when_named_so_and_a_conversation_to_refuse_otherwise() {
        let foreign = b"{\"type\": \"FeatureCollection\", \"features\": []}";
        assert_eq!(identify("map.json", foreign), FileIs::Data(DataKind::Json));
        assert_eq!(identify("map", foreign), FileIs::Conversation);
        assert_eq!(
            identify("rows.json", b"[{\"a\": 1}]"),
            FileIs::Data(DataKind::Json)
        );
        assert_eq!(identify("page.html", b"<html>"), FileIs::Unknown);
        assert_eq!(identify("empty", b""), FileIs::Unknown);
    }

    // Mutation: reading the whole of `first` finds a format named past the first bytes.
    #[test]
    fn only_the_first_bytes_are_looked_at() {
        let mut late = b"{\"rows\": \"".to_vec();
        late.extend(std::iter::repeat_n(b'x', FIRST_BYTES));
        late.extend(b"\", \"format\": \"askdb-knowledge/2\"}");
        assert_eq!(identify("late.json", &late), FileIs::Data(DataKind::Json));
    }

    #[test]
    fn a_role_the_person_named_is_what_the_file_is_read_as() {
        assert_eq!(Role::Conversation.read_as(), FileIs::Conversation);
        assert_eq!(Role::Notes.read_as(), FileIs::Notes);
    }
}
