//! Text for a reader (a person or the model): cut to size, never inside a character, and
//! numbers grouped by thousands. A leaf: everything else may use it.

/// 1234567 → "1,234,567".
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// At most `max` characters of `text`, ending in `…` when cut.
pub fn cut_chars(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_string(),
        Some((end, _)) => format!("{}…", &text[..end]),
    }
}

/// At most `max` bytes of `text` (cut at a character boundary), followed by a note that says
/// how much there was.
pub fn cap_bytes(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!(
        "{} …[cut: {} of {} bytes shown]",
        &text[..end],
        end,
        text.len()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_never_split_a_character() {
        assert_eq!(cut_chars("東京都庁", 2), "東京…");
        assert_eq!(cut_chars("Tokyo", 5), "Tokyo");
        assert_eq!(cut_chars("", 0), "");
        let capped = cap_bytes("東京都", 4);
        assert!(
            capped.starts_with("東 …[cut: 3 of 9 bytes shown]"),
            "{capped}"
        );
        assert_eq!(cap_bytes("short", 10), "short");
    }
}
