//! The rules about SQL text. Pure functions: no database, no browser.
//!
//! - [`guard`]: what may run (exactly one read-only statement).
//! - [`tidy`]: cleaning up SQL that came from an LLM (code fences, quotes, a trailing `;`).
//! - [`analysis`]: what a query compares and the traps it may fall into, so the agent's tools can
//!   show the model what it cannot see (a literal that is not in the data, `NOT IN` over NULLs).

pub mod analysis;
pub mod guard;
pub mod lexer;
pub mod tidy;

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
}
