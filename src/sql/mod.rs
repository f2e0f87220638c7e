//! The rules about SQL text. Pure functions: no database, no browser.
//!
//! - [`guard`]: what may run (exactly one read-only statement).
//! - [`fence`]: names that SQL text may not mention (the knowledge tables on a server).
//! - [`tidy`]: cleaning up SQL that came from an LLM (code fences, quotes, a trailing `;`).
//! - [`analysis`]: what a query compares and the traps it may fall into, so the agent's tools can
//!   show the model what it cannot see (a literal that is not in the data, `NOT IN` over NULLs).

pub mod analysis;
pub mod fence;
pub mod guard;
pub mod lexer;
pub mod tidy;

/// A name as it must be written in SQL: plain when it can be, quoted otherwise (odd characters,
/// keywords such as `order`).
pub fn ident(name: &str) -> String {
    let plain = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !lexer::is_keyword(name);
    if plain {
        name.to_string()
    } else {
        quote_ident(name)
    }
}

/// Quotes a name for use as an SQL identifier: `Order Details` → `"Order Details"`.
pub fn quote_ident(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// Quotes text as an SQL string literal: `O'Brien` → `'O''Brien'`.
pub fn quote_literal(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_doubles_the_quote_character() {
        assert_eq!(quote_ident("Order Details"), "\"Order Details\"");
        assert_eq!(quote_ident("a\"b"), "\"a\"\"b\"");
        assert_eq!(quote_literal("O'Brien"), "'O''Brien'");
    }

    #[test]
    fn names_are_quoted_only_when_they_must_be() {
        assert_eq!(ident("orders"), "orders");
        assert_eq!(ident("order"), "\"order\"");
        assert_eq!(ident("Order Details"), "\"Order Details\"");
        assert_eq!(ident("2024"), "\"2024\"");
    }
}
