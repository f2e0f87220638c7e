//! A conversation kept in this browser (issue 40): the same text a saved conversation file
//! holds, with what the list of a database's conversations shows (its first question, how
//! many, when). What storage gives back is untrusted like any file: an entry of another shape is
//! dropped, and the text goes through [`super::read`] before anything of it runs.

use super::{read, ConversationFile, ReadError, LIMITS};
use serde::{Deserialize, Serialize};

/// The most characters of the first question the list shows.
const TITLE_CHARS: usize = 200;

/// One kept conversation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KeptConversation {
    /// Its key in the store, made by the page when the conversation's first question ends.
    pub id: String,
    /// The key of the database it was held on (`engine::identity::Identity::storage_key`).
    pub database: String,
    /// Its first question, cut to size.
    pub title: String,
    /// How many questions it holds.
    pub questions: usize,
    /// When its last question ended (ms since 1970).
    pub updated_at_ms: f64,
    /// The conversation as a saved file's text (never a key: recordings hold none).
    pub file: String,
}

impl KeptConversation {
    /// `file`, kept as `id` for the database keyed `database`, at `now_ms`.
    pub fn new(id: &str, database: &str, file: &ConversationFile, now_ms: f64) -> Self {
        let first = file.questions.first().map(|q| q.question.as_str());
        KeptConversation {
            id: id.to_string(),
            database: database.to_string(),
            title: first
                .unwrap_or_default()
                .chars()
                .take(TITLE_CHARS)
                .collect(),
            questions: file.questions.len(),
            updated_at_ms: now_ms,
            file: file.to_json(),
        }
    }

    /// What storage holds, when it is one of these and sound (a title the list can show, a
    /// file within a saved conversation's limit); `None` otherwise.
    pub fn from_stored(value: serde_json::Value) -> Option<KeptConversation> {
        let kept: KeptConversation = serde_json::from_value(value).ok()?;
        let sound = !kept.id.is_empty()
            && kept.id.len() <= 64
            && kept.title.chars().count() <= TITLE_CHARS
            && !kept.title.chars().any(char::is_control)
            && kept.file.len() <= LIMITS.file_bytes
            && kept.updated_at_ms.is_finite();
        sound.then_some(kept)
    }

    /// The conversation itself, read as a file opened would be.
    pub fn conversation(&self) -> Result<ConversationFile, ReadError> {
        read(&self.file)
    }
}

/// `list` with the most recently updated first.
pub fn newest_first(mut list: Vec<KeptConversation>) -> Vec<KeptConversation> {
    list.sort_by(|a, b| b.updated_at_ms.total_cmp(&a.updated_at_ms));
    list
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn stored(title: &str, file: &str) -> serde_json::Value {
        json!({
            "id": "c-1", "database": "abc", "title": title, "questions": 1,
            "updated_at_ms": 5.0, "file": file,
        })
    }

    #[test]
    fn only_sound_entries_are_read_back() {
        assert!(KeptConversation::from_stored(stored("How many?", "{}")).is_some());
        let long = "x".repeat(TITLE_CHARS + 1);
        assert!(KeptConversation::from_stored(stored(&long, "{}")).is_none());
        assert!(KeptConversation::from_stored(stored("a\u{1b}[31m", "{}")).is_none());
        let mut extra = stored("How many?", "{}");
        extra["key"] = json!("sk-secret");
        assert!(
            KeptConversation::from_stored(extra).is_none(),
            "no other field"
        );
        assert!(KeptConversation::from_stored(json!(["not", "an", "entry"])).is_none());
    }

    #[test]
    fn a_stored_text_that_is_no_conversation_is_an_error_not_a_crash() {
        let kept = KeptConversation::from_stored(stored("How many?", "{\"format\": 7}")).unwrap();
        assert!(kept.conversation().is_err());
    }

    #[test]
    fn newest_comes_first() {
        let at = |id: &str, ms: f64| KeptConversation {
            id: id.into(),
            database: "abc".into(),
            title: "q".into(),
            questions: 1,
            updated_at_ms: ms,
            file: "{}".into(),
        };
        let ids: Vec<String> = newest_first(vec![at("a", 1.0), at("b", 3.0), at("c", 2.0)])
            .into_iter()
            .map(|k| k.id)
            .collect();
        assert_eq!(ids, ["b", "c", "a"]);
    }
}
