//! How wide a label will be, without a browser to measure it.
//!
//! The estimate assumes the page's 12px sans-serif font and errs wide, so that labels that
//! are placed apart really do not overlap.

/// Estimated width of one character in pixels: CJK and other wide characters take about a
/// full em, the rest a little over half.
fn char_width(c: char) -> f64 {
    let wide = matches!(c as u32,
        0x1100..=0x115F | 0x2E80..=0xA4CF | 0xAC00..=0xD7A3 | 0xF900..=0xFAFF
        | 0xFE30..=0xFE4F | 0xFF00..=0xFF60 | 0xFFE0..=0xFFE6 | 0x1F300..=0x1FAFF
        | 0x20000..=0x3FFFD);
    if wide {
        12.0
    } else {
        7.0
    }
}

pub fn width(text: &str) -> f64 {
    text.chars().map(char_width).sum()
}

/// `text` on one line, cut with `…` to at most `max_width` pixels; empty if not even the
/// ellipsis fits. Control characters (a newline in a database value) become spaces.
pub fn fit(text: &str, max_width: f64) -> String {
    let text: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    if width(&text) <= max_width {
        return text;
    }
    let mut used = char_width('…');
    let mut kept = String::new();
    for c in text.chars() {
        used += char_width(c);
        if used > max_width {
            break;
        }
        kept.push(c);
    }
    if char_width('…') > max_width {
        return String::new();
    }
    kept.trim_end().to_string() + "…"
}

#[cfg(test)]
mod tests {
    use super::{fit, width};

    #[test]
    fn short_labels_are_kept() {
        assert_eq!(fit("furniture", 100.0), "furniture");
    }

    #[test]
    fn long_labels_are_cut_with_an_ellipsis_within_the_width() {
        let cut = fit("a very long category name indeed", 70.0);
        assert_eq!(cut, "a very lo…");
        assert!(width(&cut) <= 70.0);
    }

    #[test]
    fn wide_characters_count_double() {
        let cut = fit("東京都の家電製品売上", 60.0);
        assert_eq!(cut, "東京都の…");
        assert!(width(&cut) <= 60.0);
    }

    #[test]
    fn newlines_do_not_survive_and_tiny_widths_give_nothing() {
        assert_eq!(fit("a\nb", 100.0), "a b");
        assert_eq!(fit("abc", 3.0), "");
    }
}
