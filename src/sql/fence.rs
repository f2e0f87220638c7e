//! A fence of names: SQL text that names any of them is not run. The model's queries on a
//! database that cannot leave askdb's knowledge tables out of a copy (a Datasette server) are
//! kept from them this way (`crate::model_view` decides the names, the database enforces them).
//!
//! It errs towards refusing: every bare word, quoted name (`"x"`, `` `x` ``, `[x]`) and string
//! literal (SQLite takes `FROM 'x'` for a table) is compared with the names, ignoring ASCII
//! case as SQLite does; a schema in front (`main.x`) is its own token and changes nothing. A
//! column or an alias that happens to carry a fenced name costs a refusal, never a read.

use super::lexer::{tokenize, TokenKind};
use std::collections::BTreeSet;

/// Names that SQL text may not mention, kept in lower case.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NameFence {
    names: BTreeSet<String>,
}

impl NameFence {
    pub fn new<S: AsRef<str>>(names: impl IntoIterator<Item = S>) -> NameFence {
        NameFence {
            names: names
                .into_iter()
                .map(|name| name.as_ref().to_ascii_lowercase())
                .collect(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The fenced names, in lower case and in order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.names.iter().map(String::as_str)
    }

    /// Whether the fence holds `name` (any ASCII case).
    pub fn holds(&self, name: &str) -> bool {
        self.names.contains(&name.to_ascii_lowercase())
    }

    /// The first fenced name `sql` mentions, as written there; `Err` for text that SQLite could
    /// not read either (which is refused too: what cannot be read cannot be cleared).
    pub fn named_in(&self, sql: &str) -> Result<Option<String>, String> {
        if self.is_empty() {
            return Ok(None);
        }
        let tokens = tokenize(sql).map_err(|error| error.to_string())?;
        Ok(tokens.iter().find_map(|token| {
            let name = match token.kind {
                TokenKind::Word | TokenKind::QuotedName => token.name(),
                TokenKind::String => token.string_value(),
                _ => None,
            }?;
            self.holds(&name).then_some(name)
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fence() -> NameFence {
        NameFence::new(["askdb_checks", "Golden_View"])
    }

    #[test]
    fn every_spelling_of_a_fenced_name_is_found() {
        for sql in [
            "SELECT * FROM askdb_checks",
            "select sql from ASKDB_CHECKS",
            "SELECT * FROM \"askdb_checks\"",
            "SELECT * FROM `AskDB_Checks`",
            "SELECT * FROM [askdb_checks]",
            "SELECT * FROM 'askdb_checks'",
            "SELECT * FROM main.askdb_checks",
            "SELECT * FROM \"main\" . \"askdb_checks\"",
            "SELECT * FROM main/* x */.askdb_checks",
            "WITH c AS (SELECT * FROM askdb_checks) SELECT * FROM c",
            "SELECT 1 FROM orders WHERE id IN (SELECT rowid FROM askdb_checks)",
            "SELECT * FROM golden_view",
            "SELECT * FROM pragma_table_info('askdb_checks')",
        ] {
            assert!(
                fence().named_in(sql).unwrap().is_some(),
                "not found in {sql}"
            );
        }
    }

    #[test]
    fn other_names_and_near_misses_pass() {
        for sql in [
            "SELECT * FROM orders",
            "SELECT * FROM askdb_check",
            "SELECT * FROM \"askdb_checks \"",
            "SELECT * FROM askdb_checks2",
            "SELECT 1 -- askdb_checks\n",
            "SELECT x'00' AS blob",
        ] {
            assert_eq!(fence().named_in(sql), Ok(None), "{sql}");
        }
        assert_eq!(
            NameFence::default().named_in("SELECT * FROM askdb_checks"),
            Ok(None)
        );
    }

    #[test]
    fn text_that_cannot_be_read_is_refused() {
        assert!(fence().named_in("SELECT 'never closed").is_err());
    }
}
