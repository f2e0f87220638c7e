//! A sentence of an import's report or error as facts: the catalogue's message
//! (`www/i18n/*.ftl`) and its values. The import worker has no catalogue: it sends these, and
//! the page says them in its language ([`Sentence::say`]; natively, in English).

use crate::i18n::{self, Arg};

#[derive(Clone, Debug, PartialEq)]
pub struct Sentence {
    /// The message's id in the catalogues.
    pub id: String,
    pub values: Vec<(String, Value)>,
}

/// A value a sentence is given.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A count, written as the language writes numbers (and choosing its plural).
    Number(f64),
    /// A word the message chooses its words by (`comma`, `utf16le`, `line`), or digits.
    Key(String),
    /// What came from the files or the browser (a file, table, sheet or column name, a value,
    /// an error's own words): never translated.
    Data(String),
    /// Another sentence's words, said first (where in a file something happened).
    Said(Box<Sentence>),
}

impl Sentence {
    pub fn new(id: &str) -> Sentence {
        Sentence {
            id: id.to_string(),
            values: Vec::new(),
        }
    }

    pub fn number(self, name: &str, n: u64) -> Sentence {
        self.with(name, Value::Number(n as f64))
    }

    pub fn key(self, name: &str, key: impl Into<String>) -> Sentence {
        self.with(name, Value::Key(key.into()))
    }

    pub fn data(self, name: &str, data: impl Into<String>) -> Sentence {
        self.with(name, Value::Data(data.into()))
    }

    pub fn said(self, name: &str, said: Sentence) -> Sentence {
        self.with(name, Value::Said(Box::new(said)))
    }

    pub fn with(mut self, name: &str, value: Value) -> Sentence {
        self.values.push((name.to_string(), value));
        self
    }

    /// The sentence in the page's language.
    pub fn say(&self) -> String {
        self.say_with(|data| data.to_string())
    }

    /// The sentence in the page's language, its data marked as the page's error sentences mark
    /// their values (`present::marked::pieces` finds them; Fluent puts the same isolates around
    /// a placeable): the page shows them apart, never translated.
    pub fn say_marked(&self) -> String {
        self.say_with(|data| format!("\u{2068}{data}\u{2069}"))
    }

    /// The sentence in the page's language, each [`Value::Data`] written as `data` makes it
    /// (the page marks them apart, so that they are never translated).
    pub fn say_with(&self, data: impl Fn(&str) -> String + Copy) -> String {
        let args: Vec<(&str, Arg)> = self
            .values
            .iter()
            .map(|(name, value)| {
                let arg = match value {
                    Value::Number(n) => Arg::Number(*n),
                    Value::Key(key) => Arg::Text(key.clone()),
                    Value::Data(text) => Arg::Text(data(text)),
                    Value::Said(said) => Arg::Text(said.say_with(data)),
                };
                (name.as_str(), arg)
            })
            .collect();
        i18n::text(&self.id, &args)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Mutation: numbers passed as text (`1234 rows`, not grouped as the language groups
    /// them), a `Said` value left unsaid, or `Data` written without `data`.
    #[test]
    fn numbers_sentences_and_data_are_each_said_their_way() {
        let places = Sentence::new("open-import-places")
            .key("kind", "line")
            .number("listed", 2)
            .key("list", "2, 3")
            .key("more", "8");
        let said = Sentence::new("open-import-ragged")
            .number("count", 1_234)
            .said("places", places);
        assert_eq!(
            said.say(),
            "1,234 rows had another number of fields than the first row (lines 2, 3 and 8 \
             more): short rows were filled with NULL, and fields past the header went into \
             extra columns, so nothing was dropped."
        );
        let named = Sentence::new("open-import-booleans")
            .data("column", "paid")
            .data("booleans", "true/false")
            .data("stored", "1/0");
        assert_eq!(
            named.say_with(|d| format!("<{d}>")),
            "<paid> holds <true/false>, stored as <1/0>."
        );
    }
}
