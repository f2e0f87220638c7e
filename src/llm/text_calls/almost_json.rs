//! JSON as models write it when no grammar holds them to it: parsed as it is, or after the
//! repairs that cannot change what it means (strings in single quotes, a comma before a closing
//! bracket). Anything else is refused with serde's own account of where it broke.

use serde::Serialize;
use serde_json::Value;
use std::fmt;

/// A change made to the text before it parsed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Repair {
    /// Strings in single quotes were written in double quotes.
    SingleQuotes,
    /// A comma before `}` or `]` was left out.
    TrailingComma,
    /// The arguments were a JSON object written as a string (`"arguments": "{\"sql\": …}"`).
    ArgumentsAsString,
}

impl fmt::Display for Repair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Repair::SingleQuotes => "single quotes made double",
            Repair::TrailingComma => "a trailing comma left out",
            Repair::ArgumentsAsString => "arguments given as a string read as an object",
        })
    }
}

/// `text` as JSON, with the repairs it needed (none when it was JSON already); or why not, in
/// serde's words about the text as the model wrote it.
pub fn parse(text: &str) -> Result<(Value, Vec<Repair>), String> {
    let error = match serde_json::from_str(text) {
        Ok(value) => return Ok((value, Vec::new())),
        Err(error) => error,
    };
    let (repaired, repairs) = repair(text);
    if repairs.is_empty() {
        return Err(error.to_string());
    }
    serde_json::from_str(&repaired)
        .map(|value| (value, repairs))
        .map_err(|_| error.to_string())
}

/// Where the JSON value that starts `text` (with `{` or `[`) ends, in bytes: its brackets
/// matched outside strings in either quote. `None` when it never closes.
pub fn extent(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (at, c) in text.char_indices() {
        if let Some(open) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == open {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' => quote = Some(c),
            '{' | '[' => depth += 1,
            '}' | ']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(at + 1);
                }
            }
            _ if depth == 0 && !c.is_whitespace() => return None,
            _ => {}
        }
    }
    None
}

/// The text with single-quoted strings double-quoted and trailing commas dropped, and which of
/// those it had. Whether the result parses is the caller's test: an apostrophe inside a
/// single-quoted string ends it early, and then nothing parses.
fn repair(text: &str) -> (String, Vec<Repair>) {
    let mut out = String::with_capacity(text.len());
    let mut repairs = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                out.push('"');
                let mut escaped = false;
                for c in chars.by_ref() {
                    out.push(c);
                    if escaped {
                        escaped = false;
                    } else if c == '\\' {
                        escaped = true;
                    } else if c == '"' {
                        break;
                    }
                }
            }
            '\'' => {
                note(&mut repairs, Repair::SingleQuotes);
                out.push('"');
                while let Some(c) = chars.next() {
                    match c {
                        '\\' if chars.peek() == Some(&'\'') => {
                            chars.next();
                            out.push('\'');
                        }
                        '\\' => {
                            out.push('\\');
                            if let Some(next) = chars.next() {
                                out.push(next);
                            }
                        }
                        '"' => out.push_str("\\\""),
                        '\'' => break,
                        c => out.push(c),
                    }
                }
                out.push('"');
            }
            ',' => {
                let rest = chars.clone().find(|c| !c.is_whitespace());
                if matches!(rest, Some('}' | ']')) {
                    note(&mut repairs, Repair::TrailingComma);
                } else {
                    out.push(',');
                }
            }
            c => out.push(c),
        }
    }
    (out, repairs)
}

fn note(repairs: &mut Vec<Repair>, repair: Repair) {
    if !repairs.contains(&repair) {
        repairs.push(repair);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_needs_no_repair() {
        let (value, repairs) = parse(r#"{"sql": "SELECT 'a', \"b\""}"#).unwrap();
        assert_eq!(value, json!({"sql": "SELECT 'a', \"b\""}));
        assert!(repairs.is_empty());
    }

    #[test]
    fn single_quotes_and_a_trailing_comma_are_repaired() {
        let (value, repairs) = parse(
            r#"{'name': 'run_sql', 'arguments': {'sql': "SELECT x FROM t WHERE y = 'z'",},}"#,
        )
        .unwrap();
        assert_eq!(
            value,
            json!({"name": "run_sql", "arguments": {"sql": "SELECT x FROM t WHERE y = 'z'"}})
        );
        assert_eq!(repairs, [Repair::SingleQuotes, Repair::TrailingComma]);
        // A double quote inside a single-quoted string stays a character of it.
        let (value, _) = parse(r#"{'sql': 'SELECT "Name" FROM t'}"#).unwrap();
        assert_eq!(value, json!({"sql": "SELECT \"Name\" FROM t"}));
        let (value, _) = parse(r"{'note': 'it\'s'}").unwrap();
        assert_eq!(value, json!({"note": "it's"}));
    }

    #[test]
    fn what_cannot_be_repaired_unambiguously_is_refused_in_serdes_words() {
        // An apostrophe inside single quotes: where does the string end?
        let error = parse(r"{'sql': 'SELECT * FROM t WHERE name = 'Bob''}").unwrap_err();
        assert!(error.contains("line 1 column"), "{error}");
        // Keys without quotes, a missing comma: not guessed at.
        assert!(parse(r#"{sql: "SELECT 1"}"#).is_err());
        assert!(parse(r#"{"a": 1 "b": 2}"#).is_err());
    }

    #[test]
    fn the_extent_of_a_value_skips_brackets_in_strings() {
        let text = r#"[{"sql": "SELECT ']' || '}'"}] and then prose"#;
        assert_eq!(
            &text[..extent(text).unwrap()],
            r#"[{"sql": "SELECT ']' || '}'"}]"#
        );
        assert_eq!(extent(r#"{"open": 1"#), None);
        assert_eq!(extent("prose {}"), None);
    }
}
