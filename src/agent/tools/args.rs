//! Reading a tool call's arguments, which the model wrote and may have got wrong. Every mistake
//! becomes a message the model can act on.

use crate::text::cut_chars;
use serde_json::{Map, Value};

#[derive(Debug)]
pub(crate) struct Args(Map<String, Value>);

impl Args {
    /// Parses the raw JSON text of a call. Empty text counts as no arguments (some providers
    /// send that for tools without parameters).
    pub(crate) fn parse(raw: &str) -> Result<Args, String> {
        if raw.trim().is_empty() {
            return Ok(Args(Map::new()));
        }
        match serde_json::from_str::<Value>(raw) {
            Ok(Value::Object(map)) => Ok(Args(map)),
            Ok(other) => Err(format!(
                "the arguments must be a JSON object with named fields, not {}",
                kind_of(&other)
            )),
            Err(error) => Err(format!(
                "the arguments are not valid JSON ({error}): {}",
                cut_chars(raw, 200)
            )),
        }
    }

    /// A required text argument.
    pub(crate) fn text(&self, name: &str) -> Result<String, String> {
        match self.0.get(name) {
            Some(Value::String(text)) => Ok(text.clone()),
            Some(other) => Err(format!(
                "the argument `{name}` must be text, not {}",
                kind_of(other)
            )),
            None => Err(self.missing(name)),
        }
    }

    /// An optional text argument: absent or null is `None`.
    pub(crate) fn optional_text(&self, name: &str) -> Result<Option<String>, String> {
        match self.0.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(_) => self.text(name).map(Some),
        }
    }

    /// An optional whole number from 1 up: absent or null is `None`. A number written as text
    /// ("3") is taken too: models do write that.
    pub(crate) fn optional_count(&self, name: &str) -> Result<Option<usize>, String> {
        let count = match self.0.get(name) {
            None | Some(Value::Null) => return Ok(None),
            Some(Value::Number(n)) => n.as_u64(),
            Some(Value::String(text)) => text.trim().parse().ok(),
            Some(_) => None,
        };
        match count.and_then(|n| usize::try_from(n).ok()) {
            Some(n) if n > 0 => Ok(Some(n)),
            _ => Err(format!(
                "the argument `{name}` must be a whole number from 1 up"
            )),
        }
    }

    /// An optional argument as the model wrote it.
    pub(crate) fn get(&self, name: &str) -> Option<&Value> {
        self.0.get(name).filter(|value| !value.is_null())
    }

    fn missing(&self, name: &str) -> String {
        let given: Vec<String> = self.0.keys().map(|key| cut_chars(key, 40)).collect();
        if given.is_empty() {
            format!("the argument `{name}` is missing")
        } else {
            format!(
                "the argument `{name}` is missing (got: {})",
                given.join(", ")
            )
        }
    }
}

fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mistakes_are_named() {
        assert!(Args::parse("")
            .unwrap()
            .optional_text("x")
            .unwrap()
            .is_none());
        let args = Args::parse(r#"{"table_name": "orders", "sql": 3}"#).unwrap();
        assert_eq!(
            args.text("table").unwrap_err(),
            "the argument `table` is missing (got: sql, table_name)"
        );
        assert_eq!(
            args.text("sql").unwrap_err(),
            "the argument `sql` must be text, not a number"
        );
        assert!(Args::parse("[1]").unwrap_err().contains("not a list"));
        assert!(Args::parse("{sql: 1")
            .unwrap_err()
            .contains("not valid JSON"));
    }
}
