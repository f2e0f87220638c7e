//! A reply while it is being written: what a streamed model turn has said so far, for the page
//! to show before the turn ends (the whole turn then replaces it).
//!
//! The answer a person waits for is not the model's text but the `answer` argument of its
//! `final_answer` call, which arrives as pieces of JSON; [`string_so_far`] reads that string out
//! of an unfinished JSON object.

use super::tools::final_answer::FinalAnswer;
use super::tools::Tool;
use crate::llm::stream::Delta;
use serde::Serialize;

/// A draft stops growing past this many bytes of text, or of one call's arguments: a model
/// that writes on and on (or a server that ignores the token limit) must not make each piece
/// cost more than the last. The whole reply still comes when it ends.
pub const MOST_DRAFT_BYTES: usize = 32 * 1024;

/// Drafts are shown at most this often (ms): pieces that come faster are gathered, so that a
/// reply in one-character pieces is not drawn, and copied, once per character.
pub const DRAFT_EVERY_MS: f64 = 50.0;

/// What one model turn has written so far.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Draft {
    /// Its text (beside or instead of tool calls).
    pub text: String,
    /// The tools it began calling, in order, by name.
    pub calls: Vec<String>,
    /// The answer of its `final_answer` call as written so far, once that call began.
    pub answer: Option<String>,
}

/// Gathers one turn's [`Delta`]s into a [`Draft`].
#[derive(Debug, Default)]
pub struct DraftWriter {
    draft: Draft,
    /// Each call's arguments so far, by the call's index in the turn.
    arguments: Vec<String>,
}

impl DraftWriter {
    /// Adds `delta`; whether the draft changed in a way the person sees.
    pub fn add(&mut self, delta: Delta) -> bool {
        match delta {
            Delta::Text(text) => {
                if self.draft.text.len() >= MOST_DRAFT_BYTES {
                    return false;
                }
                self.draft.text.push_str(&text);
                !text.is_empty()
            }
            Delta::ToolCall { index, name } => {
                if index != self.draft.calls.len() {
                    return false; // calls are numbered in order; any other is not trusted
                }
                self.draft.calls.push(name);
                self.arguments.push(String::new());
                if self.draft.calls[index] == FinalAnswer::NAME {
                    self.draft.answer = Some(String::new());
                }
                true
            }
            Delta::ToolArguments { index, piece } => {
                let Some(arguments) = self.arguments.get_mut(index) else {
                    return false;
                };
                if arguments.len() >= MOST_DRAFT_BYTES {
                    return false;
                }
                arguments.push_str(&piece);
                if self.draft.calls[index] != FinalAnswer::NAME {
                    return false;
                }
                let answer = string_so_far(arguments, "answer").unwrap_or_default();
                let changed = self.draft.answer.as_deref() != Some(answer.as_str());
                self.draft.answer = Some(answer);
                changed
            }
        }
    }

    pub fn draft(&self) -> &Draft {
        &self.draft
    }
}

/// The string value of `key` in the JSON object `json` is the start of, as far as it is
/// written: escapes decoded, an escape cut at the end left out. `None` until the key and the
/// value's opening quote have come (or when the value is not a string). Only the object's own
/// keys count, not those of objects inside it.
pub fn string_so_far(json: &str, key: &str) -> Option<String> {
    let mut chars = json.char_indices().peekable();
    // Find `{`, then walk the object's members at depth 1.
    loop {
        match chars.next()? {
            (_, '{') => break,
            (_, c) if c.is_whitespace() => {}
            _ => return None,
        }
    }
    let mut depth = 1;
    let mut expecting_key = true;
    while let Some((_, c)) = chars.next() {
        match c {
            '"' => {
                let (text, closed) = read_string(&mut chars);
                if !closed {
                    return None;
                }
                if depth == 1 && expecting_key {
                    // A key: is it ours, and is its value a string?
                    skip_whitespace(&mut chars);
                    if chars.next().map(|(_, c)| c) != Some(':') {
                        return None;
                    }
                    skip_whitespace(&mut chars);
                    if text == key {
                        return match chars.next() {
                            Some((_, '"')) => Some(read_string(&mut chars).0),
                            _ => None,
                        };
                    }
                    expecting_key = false;
                }
            }
            '{' | '[' => depth += 1,
            '}' | ']' => depth -= 1,
            ',' if depth == 1 => expecting_key = true,
            _ => {}
        }
    }
    None
}

fn skip_whitespace(chars: &mut std::iter::Peekable<std::str::CharIndices<'_>>) {
    while chars.next_if(|(_, c)| c.is_whitespace()).is_some() {}
}

/// A JSON string's characters after its opening quote, decoded; whether its closing quote came.
fn read_string(chars: &mut std::iter::Peekable<std::str::CharIndices<'_>>) -> (String, bool) {
    let mut text = String::new();
    while let Some((_, c)) = chars.next() {
        match c {
            '"' => return (text, true),
            '\\' => {
                let Some((_, escaped)) = chars.next() else {
                    break; // cut inside an escape
                };
                match escaped {
                    'n' => text.push('\n'),
                    't' => text.push('\t'),
                    'r' => text.push('\r'),
                    'b' => text.push('\u{8}'),
                    'f' => text.push('\u{c}'),
                    'u' => match read_unicode_escape(chars) {
                        Some(c) => text.push(c),
                        None => break, // cut inside `\uXXXX` (or a pair of them)
                    },
                    other => text.push(other), // `"`, `\`, `/`
                }
            }
            c => text.push(c),
        }
    }
    (text, false)
}

/// The character of `XXXX` after `\u` (and of a low surrogate's `\uXXXX` after a high one);
/// `None` when cut short. A lone surrogate becomes U+FFFD, as serde_json would refuse it.
fn read_unicode_escape(chars: &mut std::iter::Peekable<std::str::CharIndices<'_>>) -> Option<char> {
    let high = four_hex(chars)?;
    if !(0xD800..0xDC00).contains(&high) {
        return Some(char::from_u32(high).unwrap_or('\u{FFFD}'));
    }
    let mut ahead = chars.clone();
    match (ahead.next(), ahead.next()) {
        (Some((_, '\\')), Some((_, 'u'))) => {}
        (None, _) | (Some((_, '\\')), None) => return None,
        _ => return Some('\u{FFFD}'),
    }
    chars.next();
    chars.next();
    let low = four_hex(chars)?;
    let c = 0x10000 + ((high - 0xD800) << 10) + (low.wrapping_sub(0xDC00) & 0x3FF);
    Some(char::from_u32(c).unwrap_or('\u{FFFD}'))
}

fn four_hex(chars: &mut std::iter::Peekable<std::str::CharIndices<'_>>) -> Option<u32> {
    let mut value = 0;
    for _ in 0..4 {
        let (_, c) = chars.next()?;
        value = value * 16 + c.to_digit(16).unwrap_or(0);
    }
    Some(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// For a whole object, the value serde_json reads; for every prefix of it, a prefix of
    /// that value (never a character it does not have).
    fn check_every_prefix(json: &str) {
        let whole: serde_json::Value = serde_json::from_str(json).unwrap();
        let expected = whole["answer"].as_str().unwrap().to_string();
        assert_eq!(
            string_so_far(json, "answer").as_deref(),
            Some(expected.as_str())
        );
        for (cut, _) in json.char_indices() {
            if let Some(so_far) = string_so_far(&json[..cut], "answer") {
                assert!(
                    expected.starts_with(&so_far),
                    "{:?} read {so_far:?}, not a start of {expected:?}",
                    &json[..cut]
                );
            }
        }
    }

    #[test]
    fn the_answer_is_read_as_far_as_it_is_written() {
        check_every_prefix(
            r#"{"answer": "The top customer is **Aiko** (3 orders).", "sql": "SELECT 1"}"#,
        );
        check_every_prefix(
            r#"{"sql": "SELECT \"answer\" FROM t", "answer": "line\none \"quoted\" \\ é \u00e9 \ud83d\ude80 東京"}"#,
        );
        check_every_prefix(
            r#"{"notes": {"answer": "inner"}, "values": ["answer"], "answer": "outer"}"#,
        );
        assert_eq!(
            string_so_far(r#"{"answer": "Hel"#, "answer").as_deref(),
            Some("Hel")
        );
        assert_eq!(
            string_so_far(r#"{"answer": "a\"#, "answer").as_deref(),
            Some("a")
        );
        assert_eq!(
            string_so_far(r#"{"answer": "a\u00"#, "answer").as_deref(),
            Some("a")
        );
        assert_eq!(
            string_so_far(r#"{"answer": "a\ud83d"#, "answer").as_deref(),
            Some("a")
        );
        assert_eq!(string_so_far(r#"{"answer": "#, "answer"), None);
        assert_eq!(string_so_far(r#"{"answer": 3}"#, "answer"), None);
        assert_eq!(string_so_far(r#"{"sql": "x"#, "answer"), None);
        assert_eq!(string_so_far("not json", "answer"), None);
    }

    #[test]
    fn a_draft_stops_growing_past_its_most() {
        let mut writer = DraftWriter::default();
        let piece = "x".repeat(1_000);
        let shown = (0..100)
            .filter(|_| writer.add(Delta::Text(piece.clone())))
            .count();
        assert_eq!(shown, MOST_DRAFT_BYTES.div_ceil(1_000));
        assert!(writer.draft().text.len() < MOST_DRAFT_BYTES + 1_000);
        writer.add(Delta::ToolCall {
            index: 0,
            name: "final_answer".into(),
        });
        writer.add(Delta::ToolArguments {
            index: 0,
            piece: format!("{{\"answer\": \"{}", "y".repeat(MOST_DRAFT_BYTES)),
        });
        let answered = writer.draft().answer.clone().unwrap();
        assert!(!writer.add(Delta::ToolArguments {
            index: 0,
            piece: "more".into()
        }));
        assert_eq!(writer.draft().answer.as_deref(), Some(answered.as_str()));
    }

    #[test]
    fn a_draft_shows_text_calls_and_the_answer_being_written() {
        let mut writer = DraftWriter::default();
        assert!(writer.add(Delta::Text("Let me look.".into())));
        assert!(writer.add(Delta::ToolCall {
            index: 0,
            name: "query".into()
        }));
        assert!(!writer.add(Delta::ToolArguments {
            index: 0,
            piece: r#"{"sql":"SEL"#.into()
        }));
        assert!(writer.add(Delta::ToolCall {
            index: 1,
            name: "final_answer".into()
        }));
        assert_eq!(writer.draft().answer.as_deref(), Some(""));
        assert!(!writer.add(Delta::ToolArguments {
            index: 1,
            piece: r#"{"answer": "#.into()
        }));
        assert!(writer.add(Delta::ToolArguments {
            index: 1,
            piece: r#""Three"#.into()
        }));
        assert!(writer.add(Delta::ToolArguments {
            index: 1,
            piece: r#" orders.", "sql": "#.into()
        }));
        assert!(!writer.add(Delta::ToolCall {
            index: 5,
            name: "query".into()
        }));
        assert!(!writer.add(Delta::ToolArguments {
            index: 7,
            piece: "x".into()
        }));
        assert_eq!(
            writer.draft(),
            &Draft {
                text: "Let me look.".into(),
                calls: vec!["query".into(), "final_answer".into()],
                answer: Some("Three orders.".into()),
            }
        );
    }
}
