//! Reading a conversation file, which is untrusted: anyone can write one. Everything a replay
//! will use is checked here, against limits, before anything runs; a file that breaks one gets
//! an error that says what and where.

use super::format::{
    ConversationFile, DatabaseIdentity, RecordedCandidates, RecordedQuestion, RecordedTurn, FORMAT,
    FORMAT_CANDIDATES,
};
use crate::agent::candidates::{Approach, MAX_CANDIDATES};
use crate::agent::tools::ToolName;
use crate::count::grouped;
use crate::engine::identity::from_hex;
use crate::identify::CONVERSATION_FORMAT_PREFIX;
use crate::llm::text_calls;
use crate::text::cut_chars;
use serde::Deserialize;
use std::fmt;

/// How much a conversation file may hold. Generous for a real conversation (a model turn, a
/// tool result and an answer are far smaller than these), small enough that a hostile file
/// cannot make the page slow.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub file_bytes: usize,
    pub questions: usize,
    /// Model turns per question (the page allows at most 50 steps).
    pub turns: usize,
    pub calls_per_turn: usize,
    /// A question, an answer, notes, a model's text, a database or model name.
    pub text_bytes: usize,
    /// A tool call's arguments (SQL may be up to 100 KB).
    pub arguments_bytes: usize,
    /// A tool result as the model read it (the agent sends at most 8 KB).
    pub result_bytes: usize,
    /// Ids, names, dates, URLs.
    pub label_bytes: usize,
}

pub const LIMITS: Limits = Limits {
    file_bytes: 8 * 1024 * 1024,
    questions: 100,
    turns: 50,
    calls_per_turn: 20,
    text_bytes: 64 * 1024,
    arguments_bytes: 128 * 1024,
    result_bytes: 64 * 1024,
    label_bytes: 2_048,
};

/// Why a file cannot be replayed.
#[derive(Clone, Debug, PartialEq)]
pub enum ReadError {
    TooLarge {
        bytes: usize,
    },
    /// Not JSON at all.
    NotJson {
        message: String,
    },
    /// JSON that stops before its end.
    CutShort,
    /// JSON without `"format"`: some other file.
    NotAConversation,
    /// JSON whose `"format"` is not a conversation's: some other program's file.
    ForeignFormat {
        found: String,
    },
    WrongVersion {
        found: String,
    },
    /// A field is missing or of the wrong type.
    WrongShape {
        message: String,
    },
    /// Something is larger or more numerous than [`LIMITS`] allow, or not allowed at all.
    Invalid {
        what: String,
    },
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::TooLarge { bytes } => write!(
                f,
                "the file is {} bytes; a conversation file may be at most {} bytes",
                grouped(*bytes as u64),
                grouped(LIMITS.file_bytes as u64)
            ),
            ReadError::NotJson { message } => write!(
                f,
                "the file is neither a SQLite database nor a conversation saved by askdb (it is \
                 not valid JSON: {message})"
            ),
            ReadError::CutShort => f.write_str(
                "the conversation file is cut short (its JSON ends in the middle): save or \
                 download it again",
            ),
            ReadError::NotAConversation => write!(
                f,
                "this JSON file is not a conversation saved by askdb (it has no \"format\": \
                 \"{FORMAT}\")"
            ),
            ReadError::ForeignFormat { found } => write!(
                f,
                "this JSON file is not a conversation saved by askdb (its \"format\" is \"{}\", \
                 not \"{FORMAT}\")",
                cut_chars(found, 60)
            ),
            ReadError::WrongVersion { found } => write!(
                f,
                "this conversation is in the format \"{}\"; this page reads \"{FORMAT}\" and \
                 \"{FORMAT_CANDIDATES}\"",
                cut_chars(found, 60)
            ),
            ReadError::WrongShape { message } => {
                write!(f, "the conversation file is damaged: {message}")
            }
            ReadError::Invalid { what } => write!(f, "the conversation file {what}"),
        }
    }
}

impl std::error::Error for ReadError {}

/// Reads a conversation file's text.
pub fn read(text: &str) -> Result<ConversationFile, ReadError> {
    if text.len() > LIMITS.file_bytes {
        return Err(ReadError::TooLarge { bytes: text.len() });
    }
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let version = read_version(text)?;
    if version != FORMAT && version != FORMAT_CANDIDATES {
        return Err(ReadError::WrongVersion { found: version });
    }
    let file: ConversationFile = serde_json::from_str(text).map_err(|error| {
        let message = cut_chars(&error.to_string(), 300);
        ReadError::WrongShape { message }
    })?;
    check(&file)?;
    Ok(file)
}

/// The `format` field, read before anything else, so that another version is named as such
/// rather than reported as damage.
fn read_version(text: &str) -> Result<String, ReadError> {
    #[derive(Deserialize)]
    struct Probe {
        format: Option<serde_json::Value>,
    }
    let not_read = |error: serde_json::Error| {
        use serde_json::error::Category;
        match error.classify() {
            Category::Eof => ReadError::CutShort,
            Category::Syntax | Category::Io => ReadError::NotJson {
                message: cut_chars(&error.to_string(), 200),
            },
            Category::Data => ReadError::NotAConversation,
        }
    };
    // Serde would also read a struct from an array: only an object can be a conversation.
    if !text.trim_start().starts_with('{') {
        serde_json::from_str::<serde::de::IgnoredAny>(text).map_err(not_read)?;
        return Err(ReadError::NotAConversation);
    }
    let probe: Probe = serde_json::from_str(text).map_err(not_read)?;
    match probe.format {
        Some(serde_json::Value::String(version))
            if version.starts_with(CONVERSATION_FORMAT_PREFIX) =>
        {
            Ok(version)
        }
        Some(serde_json::Value::String(found)) => Err(ReadError::ForeignFormat { found }),
        Some(other) => Err(ReadError::ForeignFormat {
            found: other.to_string(),
        }),
        None => Err(ReadError::NotAConversation),
    }
}

fn invalid(what: String) -> ReadError {
    ReadError::Invalid { what }
}

/// Checks a parsed file against the limits and the rules a replay relies on.
fn check(file: &ConversationFile) -> Result<(), ReadError> {
    check_len("the database name", &file.database.name, LIMITS.label_bytes)?;
    check_len("the date", &file.recorded_at, LIMITS.label_bytes)?;
    check_len("the model name", &file.model.name, LIMITS.label_bytes)?;
    check_len("the base URL", &file.model.base_url, LIMITS.label_bytes)?;
    check_database(&file.database)?;
    if file.model.base_url.contains(['?', '#', '@']) {
        return Err(invalid(
            "has a base URL with a query string, fragment or password: askdb never saves one"
                .into(),
        ));
    }
    check_settings(file)?;
    if file.questions.is_empty() {
        return Err(invalid("holds no question".into()));
    }
    if file.questions.len() > LIMITS.questions {
        return Err(invalid(format!(
            "holds {} questions; at most {} can be replayed",
            grouped(file.questions.len() as u64),
            LIMITS.questions
        )));
    }
    for (index, question) in file.questions.iter().enumerate() {
        check_question(index + 1, question, file.settings.max_steps)?;
        if let Some(candidates) = &question.candidates {
            let at = format!("question {}", index + 1);
            if file.format != FORMAT_CANDIDATES {
                return Err(invalid(format!(
                    "holds candidates in {at}, which the format \"{FORMAT}\" has no place for \
                     (they need \"{FORMAT_CANDIDATES}\")"
                )));
            }
            if !question.turns.is_empty() {
                return Err(invalid(format!(
                    "has model turns of its own in {at}, which was asked of candidates: each \
                     candidate holds its own"
                )));
            }
            check_candidates(&at, candidates, &file.settings)?;
        }
    }
    Ok(())
}

/// The database's identity: exactly one kind, each part well formed.
fn check_database(database: &DatabaseIdentity) -> Result<(), ReadError> {
    let is_sha256 = |hash: &str| hash.len() == 64 && hash.bytes().all(|b| b.is_ascii_hexdigit());
    if let Some(hash) = &database.sha256 {
        if !is_sha256(hash) {
            return Err(invalid(
                "gives no valid SHA-256 for its database (64 hex digits)".into(),
            ));
        }
    }
    if let Some(on_demand) = &database.on_demand {
        // The SQLite header is 100 bytes; a file shorter than that has fewer.
        if on_demand.header.len() > 200 || from_hex(&on_demand.header).is_none() {
            return Err(invalid(
                "gives no valid header for its database (at most 100 bytes in hex)".into(),
            ));
        }
        if on_demand.sampled_pages.len() > MAX_SAMPLED_PAGES {
            return Err(invalid(format!(
                "names more than {MAX_SAMPLED_PAGES} sampled pages of its database"
            )));
        }
        if let Some(hash) = &on_demand.sample_sha256 {
            if !is_sha256(hash) {
                return Err(invalid(
                    "gives no valid SHA-256 of its database's sampled pages (64 hex digits)".into(),
                ));
            }
        }
        if let Some(remote) = &on_demand.remote {
            check_len("the database's address", &remote.url, LIMITS.label_bytes)?;
            for (what, header) in [
                ("ETag", &remote.etag),
                ("Last-Modified", &remote.last_modified),
            ] {
                check_len(
                    what,
                    header.as_deref().unwrap_or_default(),
                    LIMITS.label_bytes,
                )?;
            }
        }
    }
    if let Some(served) = &database.datasette {
        check_len(
            "the database's address",
            &served.address,
            LIMITS.label_bytes,
        )?;
        if served
            .sha256
            .as_deref()
            .is_some_and(|hash| !is_sha256(hash))
        {
            return Err(invalid(
                "gives no valid SHA-256 for its Datasette database (64 hex digits)".into(),
            ));
        }
    }
    if database.identity().is_none() {
        return Err(invalid(
            "gives no valid SHA-256 for its database (64 hex digits), nor what identified it \
             when it was read on demand or on a Datasette server: exactly one is needed"
                .into(),
        ));
    }
    Ok(())
}

/// More sampled pages than any engine takes: a file that names more is not one askdb wrote.
const MAX_SAMPLED_PAGES: usize = 1_000;

fn check_settings(file: &ConversationFile) -> Result<(), ReadError> {
    let s = &file.settings;
    let ranges = [
        ("temperature", (0.0..=2.0).contains(&s.temperature)),
        (
            "max_steps",
            (1..=LIMITS.turns as u32).contains(&s.max_steps),
        ),
        ("max_tokens", (1..=1_000_000).contains(&s.max_tokens)),
        ("deadline_ms", (1..=3_600_000).contains(&s.deadline_ms)),
        (
            "query_deadline_ms",
            (1..=600_000).contains(&s.query_deadline_ms),
        ),
        ("rows_to_model", (1..=10_000).contains(&s.rows_to_model)),
        ("row_cap", (1..=1_000_000).contains(&s.row_cap)),
        ("candidates", (1..=MAX_CANDIDATES).contains(&s.candidates)),
    ];
    match ranges.iter().find(|(_, ok)| !ok) {
        Some((name, _)) => Err(invalid(format!("has a setting out of range: {name}"))),
        None => Ok(()),
    }
}

fn check_question(
    number: usize,
    question: &RecordedQuestion,
    max_steps: u32,
) -> Result<(), ReadError> {
    let at = format!("question {number}");
    check_len(
        &format!("{at}'s text"),
        &question.question,
        LIMITS.text_bytes,
    )?;
    let turns = question.turns.len();
    if turns > max_steps as usize {
        return Err(invalid(format!(
            "has {} model turns in {at}; its settings allow {max_steps} (and a replay at most {})",
            grouped(turns as u64),
            LIMITS.turns
        )));
    }
    for (index, turn) in question.turns.iter().enumerate() {
        check_turn(&format!("{at}, turn {}", index + 1), turn)?;
    }
    if let Some(answer) = &question.answer {
        check_len(&format!("{at}'s answer"), &answer.text, LIMITS.text_bytes)?;
        check_optional(&format!("{at}'s SQL"), &answer.sql, LIMITS.arguments_bytes)?;
        check_optional(&format!("{at}'s notes"), &answer.notes, LIMITS.text_bytes)?;
    }
    check_optional(&format!("{at}'s error"), &question.error, LIMITS.text_bytes)
}

/// A question's candidates: between 2 and [`MAX_CANDIDATES`], each asked its own way, each
/// within the limits of a question, its evidence within the row cap; the grouping names each
/// candidate exactly once; a choice only on a split, of a candidate with an answer.
fn check_candidates(
    at: &str,
    candidates: &RecordedCandidates,
    settings: &super::format::RunSettings,
) -> Result<(), ReadError> {
    let n = candidates.drawn.len();
    if !(2..=MAX_CANDIDATES).contains(&n) {
        return Err(invalid(format!(
            "has {} candidates in {at}; a question has 2 to {MAX_CANDIDATES}",
            grouped(n as u64)
        )));
    }
    for (index, candidate) in candidates.drawn.iter().enumerate() {
        let at = format!("{at}, candidate {}", index + 1);
        if candidate.approach != Approach::of_candidate(index) {
            return Err(invalid(format!(
                "asks {at} \"{}\"; candidate {} is always asked \"{}\"",
                candidate.approach.label(),
                index + 1,
                Approach::of_candidate(index).label()
            )));
        }
        let turns = candidate.turns.len();
        if turns > settings.max_steps as usize {
            return Err(invalid(format!(
                "has {} model turns in {at}; its settings allow {}",
                grouped(turns as u64),
                settings.max_steps
            )));
        }
        for (number, turn) in candidate.turns.iter().enumerate() {
            check_turn(&format!("{at}, turn {}", number + 1), turn)?;
        }
        if let Some(answer) = &candidate.answer {
            check_len(&format!("{at}'s answer"), &answer.text, LIMITS.text_bytes)?;
            check_optional(&format!("{at}'s SQL"), &answer.sql, LIMITS.arguments_bytes)?;
            check_optional(&format!("{at}'s notes"), &answer.notes, LIMITS.text_bytes)?;
        }
        check_optional(
            &format!("{at}'s error"),
            &candidate.error,
            LIMITS.text_bytes,
        )?;
        if let Some(evidence) = &candidate.evidence {
            check_len(
                &format!("{at}'s evidence SQL"),
                &evidence.sql,
                LIMITS.arguments_bytes,
            )?;
            check_optional(
                &format!("{at}'s evidence error"),
                &evidence.error,
                LIMITS.text_bytes,
            )?;
            if let Some(result) = &evidence.result {
                check_result(&at, result, settings.row_cap)?;
            }
        }
    }
    let agreement = &candidates.agreement;
    let mut named = vec![0usize; n];
    let groups = agreement.groups.iter().flatten();
    for &index in groups.chain(&agreement.without_result) {
        match named.get_mut(index) {
            Some(times) => *times += 1,
            None => {
                return Err(invalid(format!(
                    "groups a candidate {} in {at}, which has {n}",
                    grouped(index as u64 + 1)
                )))
            }
        }
    }
    if agreement.candidates != n
        || named.iter().any(|&times| times != 1)
        || agreement.groups.iter().any(Vec::is_empty)
    {
        return Err(invalid(format!(
            "groups the {n} candidates of {at} wrongly: each must be in exactly one group, or \
             without a result"
        )));
    }
    if let Some(chosen) = candidates.chosen {
        let has_answer = candidates
            .drawn
            .get(chosen)
            .is_some_and(|c| c.answer.is_some());
        if !agreement.is_split() || !has_answer {
            return Err(invalid(format!(
                "chooses candidate {} in {at}: only a candidate with an answer can be chosen, \
                 and only when the candidates disagree",
                grouped(chosen as u64 + 1)
            )));
        }
    }
    Ok(())
}

/// A recorded evidence result: at most the row cap's rows, each as wide as the columns, no
/// value longer than a tool result may be.
fn check_result(
    at: &str,
    result: &crate::engine::QueryResult,
    row_cap: usize,
) -> Result<(), ReadError> {
    if result.rows.len() > row_cap || result.columns.len() > MAX_COLUMNS {
        return Err(invalid(format!(
            "has an evidence result of {} rows and {} columns in {at}; at most {} rows (its \
             row cap) and {MAX_COLUMNS} columns are allowed",
            grouped(result.rows.len() as u64),
            grouped(result.columns.len() as u64),
            grouped(row_cap as u64)
        )));
    }
    for column in &result.columns {
        check_len(
            &format!("a column name in {at}"),
            column,
            LIMITS.label_bytes,
        )?;
    }
    if result
        .rows
        .iter()
        .any(|row| row.len() != result.columns.len())
    {
        return Err(invalid(format!(
            "has an evidence result in {at} whose rows are not as wide as its columns"
        )));
    }
    for value in result.rows.iter().flatten() {
        let bytes = match value {
            crate::engine::Value::Text(text) => text.len(),
            crate::engine::Value::Blob(bytes) => bytes.len(),
            _ => 0,
        };
        if bytes > LIMITS.result_bytes {
            return Err(invalid(format!(
                "has a value of {} bytes in the evidence result of {at}; at most {} are allowed",
                grouped(bytes as u64),
                grouped(LIMITS.result_bytes as u64)
            )));
        }
    }
    Ok(())
}

/// SQLite's own default limit on a result's columns.
const MAX_COLUMNS: usize = 2_000;

fn check_turn(at: &str, turn: &RecordedTurn) -> Result<(), ReadError> {
    check_optional(
        &format!("the model's text in {at}"),
        &turn.text,
        LIMITS.text_bytes,
    )?;
    if turn.tool_calls.len() > LIMITS.calls_per_turn {
        return Err(invalid(format!(
            "has {} tool calls in {at}; at most {} are allowed",
            grouped(turn.tool_calls.len() as u64),
            LIMITS.calls_per_turn
        )));
    }
    for call in &turn.tool_calls {
        if !ToolName::ALL.iter().any(|tool| tool.as_str() == call.name) {
            return Err(invalid(format!(
                "calls a tool askdb does not have in {at}: \"{}\" (its tools are {})",
                cut_chars(&call.name, 60),
                tool_list()
            )));
        }
        check_len(&format!("a call id in {at}"), &call.id, LIMITS.label_bytes)?;
        check_len(
            &format!("the arguments of {} in {at}", call.name),
            &call.arguments,
            LIMITS.arguments_bytes,
        )?;
    }
    if turn.results.len() > calls_in(turn) {
        return Err(invalid(format!(
            "has more tool results than tool calls in {at}"
        )));
    }
    for result in &turn.results {
        check_len(
            &format!("a call id in {at}"),
            &result.call_id,
            LIMITS.label_bytes,
        )?;
        check_len(
            &format!("a tool name in {at}"),
            &result.name,
            LIMITS.label_bytes,
        )?;
        check_len(
            &format!("a tool result in {at}"),
            &result.content,
            LIMITS.result_bytes,
        )?;
    }
    Ok(())
}

/// The calls a turn made: its tool calls, or when it has none, those the model wrote in its
/// text, which the agent reads from it again when it replays (`llm::text_calls`).
fn calls_in(turn: &RecordedTurn) -> usize {
    if !turn.tool_calls.is_empty() {
        return turn.tool_calls.len();
    }
    let tools: Vec<&str> = ToolName::ALL.iter().map(|tool| tool.as_str()).collect();
    match turn
        .text
        .as_deref()
        .map(|text| text_calls::read(text, &tools))
    {
        Some(text_calls::Reading::Calls { calls, .. }) => calls.len(),
        _ => 0,
    }
}

fn tool_list() -> String {
    ToolName::ALL
        .iter()
        .map(|tool| tool.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

fn check_len(what: &str, text: &str, limit: usize) -> Result<(), ReadError> {
    if text.len() > limit {
        return Err(invalid(format!(
            "has {what} of {} bytes; at most {} are allowed",
            grouped(text.len() as u64),
            grouped(limit as u64)
        )));
    }
    Ok(())
}

fn check_optional(what: &str, text: &Option<String>, limit: usize) -> Result<(), ReadError> {
    text.as_deref()
        .map_or(Ok(()), |text| check_len(what, text, limit))
}
