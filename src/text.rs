//! Text for a reader (a person or the model): cut to size, never inside a character, and
//! numbers grouped by thousands, sizes and durations as people read them. A leaf: everything else may use it.

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

/// "512 B", "48 KB", "1.2 MB", "4.5 GB" (powers of 1,000, as people read sizes).
pub fn format_bytes(bytes: u64) -> String {
    const UNITS: [&str; 4] = ["KB", "MB", "GB", "TB"];
    if bytes < 1_000 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1_000.0;
    let mut unit = 0;
    while value >= 1_000.0 && unit + 1 < UNITS.len() {
        value /= 1_000.0;
        unit += 1;
    }
    if value < 10.0 {
        format!("{value:.1} {}", UNITS[unit])
    } else {
        format!("{value:.0} {}", UNITS[unit])
    }
}

/// "10 s", "2.5 s", "800 ms".
pub fn format_seconds(ms: u32) -> String {
    if ms < 1_000 {
        format!("{ms} ms")
    } else if ms.is_multiple_of(1_000) {
        format!("{} s", ms / 1_000)
    } else {
        format!("{:.1} s", f64::from(ms) / 1_000.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_durations_read_as_people_read_them() {
        assert_eq!(format_bytes(512), "512 B");
        assert_eq!(format_bytes(48_000), "48 KB");
        assert_eq!(format_bytes(1_234_567), "1.2 MB");
        assert_eq!(format_bytes(4_500_000_000), "4.5 GB");
        assert_eq!(format_seconds(800), "800 ms");
        assert_eq!(format_seconds(10_000), "10 s");
        assert_eq!(format_seconds(2_500), "2.5 s");
    }

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
