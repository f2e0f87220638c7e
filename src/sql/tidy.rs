//! Cleaning up SQL written by an LLM before the rules see it.

use super::lexer::{self, TokenKind};

/// Removes what models wrap SQL in: code fences (```` ```sql … ``` ````), wrapping quotes or
/// backticks, surrounding whitespace, trailing `;`. Never changes the statement itself.
pub fn tidy(sql: &str) -> String {
    let mut text = sql.trim();
    // Wrappers can nest (a fenced, quoted statement); each pass removes one layer. A pass reads
    // the whole text, so the number of passes is capped to keep the time linear in the text's
    // length: a model never stacks more than two or three wrappers, a hostile text stacks
    // thousands.
    for _ in 0..MAX_WRAPPERS {
        let unwrapped = strip_trailing_semicolons(unquote(unfence(text)));
        if unwrapped == text {
            break;
        }
        text = unwrapped;
    }
    text.to_string()
}

/// How many layers of fences and quotes [`tidy`] takes off, at most.
const MAX_WRAPPERS: usize = 4;

/// ```` ```sql\n…\n``` ```` → `…`, only when the fence wraps the whole text.
fn unfence(text: &str) -> &str {
    let Some(inner) = text.strip_prefix("```").and_then(|t| t.strip_suffix("```")) else {
        return text;
    };
    // A language tag: `sql`, `sqlite`, … on the opening line (a lone word that is not SQL).
    let first_line = inner.split('\n').next().unwrap_or("").trim();
    let is_tag = !first_line.is_empty()
        && first_line.len() < inner.len()
        && first_line
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '+'))
        && !lexer::is_keyword(first_line);
    let inner = if is_tag {
        &inner[inner.find('\n').unwrap_or(0)..]
    } else {
        inner
    };
    inner.trim()
}

/// `"SELECT …"` → `SELECT …`, only when one quote character wraps everything and what is inside
/// reads as a statement (it starts with a keyword and tokenizes): a real statement never starts
/// with a quote.
fn unquote(text: &str) -> &str {
    for quote in ['"', '\'', '`'] {
        let Some(inner) = text.strip_prefix(quote).and_then(|t| t.strip_suffix(quote)) else {
            continue;
        };
        let inner = inner.trim();
        let starts_with_keyword = lexer::significant_tokens(inner)
            .ok()
            .and_then(|tokens| tokens.first().copied())
            .is_some_and(|t| t.kind == TokenKind::Word && lexer::is_keyword(t.text));
        if starts_with_keyword {
            return inner;
        }
    }
    text
}

fn strip_trailing_semicolons(text: &str) -> &str {
    text.trim_end_matches(|c: char| c == ';' || c.is_whitespace())
}

#[cfg(test)]
mod tests {
    use super::tidy;

    #[test]
    fn removes_wrappers() {
        for (raw, clean) in [
            ("SELECT 1", "SELECT 1"),
            ("  SELECT 1 ;\n", "SELECT 1"),
            ("SELECT 1;;  ;", "SELECT 1"),
            ("```sql\nSELECT 1;\n```", "SELECT 1"),
            ("```SQL\nSELECT 1\n```", "SELECT 1"),
            ("```sqlite\nSELECT *\nFROM t\n```", "SELECT *\nFROM t"),
            ("```\nSELECT 1\n```", "SELECT 1"),
            ("```SELECT 1```", "SELECT 1"),
            ("\n```sql\n  SELECT 1\n```\n", "SELECT 1"),
            ("\"SELECT * FROM t\"", "SELECT * FROM t"),
            ("'SELECT 1;'", "SELECT 1"),
            ("`SELECT name FROM t`", "SELECT name FROM t"),
            ("```sql\n\"SELECT 1\"\n```", "SELECT 1"),
            (
                "WITH x AS (SELECT 1) SELECT * FROM x;",
                "WITH x AS (SELECT 1) SELECT * FROM x",
            ),
        ] {
            assert_eq!(tidy(raw), clean, "{raw:?}");
        }
    }

    #[test]
    fn never_changes_the_statement_itself() {
        for sql in [
            "SELECT 'a;'",
            "SELECT \"x\" FROM t WHERE y = 'z'",
            "SELECT * FROM t WHERE name = 'O''Brien'",
            "SELECT '```' FROM t",
            "SELECT 1 -- note",
            // The first line is SQL, not a language tag.
            "SELECT\n1",
        ] {
            assert_eq!(tidy(sql), sql);
        }
        // Quotes that do not wrap a statement are left alone.
        for text in ["'a' || 'b'", "\"x\" = 'y'", "\"col\""] {
            assert_eq!(tidy(text), text);
        }
        // A fence whose first line is SQL keeps that line.
        assert_eq!(tidy("```SELECT\n*\nFROM t```"), "SELECT\n*\nFROM t");
        // Past four layers the rest is left for the guard to refuse, however deep it goes.
        let deep = format!("{}SELECT 1{}", "```\n".repeat(6), "\n```".repeat(6));
        assert_eq!(tidy(&deep), format!("```\n```\nSELECT 1\n```\n```"));
        // Text around a fence is not guessed at.
        let chatty = "Here it is:\n```sql\nSELECT 1\n```";
        assert_eq!(tidy(chatty), chatty);
    }
}
