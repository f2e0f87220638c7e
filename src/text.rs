//! Cutting text to size for a reader (a person or the model), never inside a character.

/// At most `max` characters of `text`, ending in `…` when cut.
pub fn cut_chars(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_string(),
        Some((end, _)) => format!("{}…", &text[..end]),
    }
}

#[cfg(test)]
mod tests {
    use super::cut_chars;

    #[test]
    fn cuts_never_split_a_character() {
        assert_eq!(cut_chars("東京都庁", 2), "東京…");
        assert_eq!(cut_chars("Tokyo", 5), "Tokyo");
        assert_eq!(cut_chars("", 0), "");
    }
}
