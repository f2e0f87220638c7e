//! How much knowledge one database may carry, and how text from any source is made safe to
//! keep: it stays text, whatever it says, but without control characters and cut to size.

/// Generous for a real database's knowledge, small enough that a hostile source cannot make
/// the page slow or the prompt huge (the agent's budget cuts further per request).
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub notes: usize,
    pub glossary: usize,
    pub examples: usize,
    pub golden_questions: usize,
    /// Other right answers per golden question.
    pub also_accepted: usize,
    /// Characters of a note.
    pub note_chars: usize,
    /// Characters of a table or column name a note is on (SQLite's own names are never longer
    /// in practice).
    pub name_chars: usize,
    /// Characters of a glossary term.
    pub term_chars: usize,
    /// Characters of a term's meaning.
    pub meaning_chars: usize,
    /// Characters of an example's or a golden question's question.
    pub question_chars: usize,
    /// Bytes of an example's or a golden question's SQL. Longer SQL is dropped, not cut: cut SQL is
    /// wrong SQL.
    pub sql_bytes: usize,
    /// Bytes of a sidecar file.
    pub sidecar_bytes: usize,
}

pub const LIMITS: Limits = Limits {
    notes: 500,
    glossary: 200,
    examples: 200,
    golden_questions: 500,
    also_accepted: 10,
    note_chars: 2_000,
    name_chars: 200,
    term_chars: 200,
    meaning_chars: 1_000,
    question_chars: 1_000,
    sql_bytes: 20_000,
    sidecar_bytes: 4 * 1024 * 1024,
};

/// Text as kept, and what was done to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Cleaned {
    pub text: String,
    /// It was longer than allowed and now ends in `…`.
    pub cut: bool,
    /// Control characters (NUL, escapes, bidirectional overrides) were taken out.
    pub removed_controls: bool,
}

/// `text` without control characters (newlines and tabs stay), trimmed, and at most
/// `max_chars` characters: when longer, the first `max_chars - 1` and `…`. Cleaning clean text
/// changes nothing, so every step that checks may clean again.
pub(crate) fn clean(text: &str, max_chars: usize) -> Cleaned {
    let mut removed_controls = false;
    let kept: String = text
        .chars()
        .filter(|&c| {
            let unwanted = is_unwanted(c);
            removed_controls |= unwanted;
            !unwanted
        })
        .collect();
    let trimmed = kept.trim();
    let cut = trimmed.chars().nth(max_chars).is_some();
    let text = if cut {
        let keep = max_chars.saturating_sub(1);
        let end = trimmed
            .char_indices()
            .nth(keep)
            .map_or(trimmed.len(), |(i, _)| i);
        format!("{}…", trimmed[..end].trim_end())
    } else {
        trimmed.to_string()
    };
    Cleaned {
        text,
        cut,
        removed_controls,
    }
}

/// Characters that only steer a terminal or a text's direction: `\0`, escapes, carriage
/// returns, and the bidirectional overrides that make text read differently from its bytes.
fn is_unwanted(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_go_and_the_rest_stays_as_written() {
        let cleaned = clean(" a\0b\u{1b}[31m\r\n<b>c</b>\u{202E}d\t ", 100);
        assert_eq!(cleaned.text, "ab[31m\n<b>c</b>d");
        assert!(cleaned.removed_controls);
        assert!(!cleaned.cut);
    }

    #[test]
    fn long_text_is_cut_to_the_limit_and_cutting_again_changes_nothing() {
        let cleaned = clean(&"東".repeat(10), 4);
        assert_eq!(cleaned.text, "東東東…");
        assert!(cleaned.cut);
        let again = clean(&cleaned.text, 4);
        assert_eq!(again.text, cleaned.text);
        assert!(!again.cut);
        assert_eq!(clean("abcd", 4).text, "abcd");
    }
}
