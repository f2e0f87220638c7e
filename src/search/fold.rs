//! Text folded for matching a question against names, values and examples: width (full-width
//! Latin from a Japanese keyboard), case, the accents of Latin letters (`Müller` meets
//! `Muller`, `Straße` meets `Strasse`), and padding (`'English   '` is `english`).
//!
//! The accents are folded by a table of the Latin letters in Unicode's first two Latin
//! blocks, written here: the crates that decompose every script carry tables many times the
//! size of this page, and the names and values in databases are Latin, CJK (which has no
//! accents to fold) or other scripts left as they are.

/// `text` with full-width Latin letters, digits and signs folded to ASCII and the ideographic
/// space to a space, its case kept (the part of NFKC that questions typed on a Japanese
/// keyboard need; the rest of NFKC would cost a table of its own).
pub fn width_folded(text: &str) -> String {
    text.chars().map(narrow).collect()
}

/// [`width_folded`] and lower-cased.
pub fn normalise(text: &str) -> String {
    text.chars()
        .map(narrow)
        .flat_map(char::to_lowercase)
        .collect()
}

/// A full-width form as its ASCII character, the ideographic space as a space.
fn narrow(c: char) -> char {
    match c {
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
        '\u{3000}' => ' ',
        _ => c,
    }
}

/// `text` lower-cased, its full-width forms and Latin accents folded, its runs of white space
/// made one space, trimmed.
pub fn fold(text: &str) -> String {
    let mut folded = String::with_capacity(text.len());
    let mut space = false;
    for c in normalise(text).chars() {
        if c.is_whitespace() {
            space = !folded.is_empty();
            continue;
        }
        if space {
            folded.push(' ');
            space = false;
        }
        match unaccented(c) {
            Some(plain) => folded.push_str(plain),
            None => folded.push(c),
        }
    }
    folded
}

/// The letters a lower-case accented Latin letter is written with unaccented.
fn unaccented(c: char) -> Option<&'static str> {
    Some(match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' | 'ă' | 'ą' => "a",
        'æ' => "ae",
        'ç' | 'ć' | 'ĉ' | 'ċ' | 'č' => "c",
        'ď' | 'đ' | 'ð' => "d",
        'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ĕ' | 'ė' | 'ę' | 'ě' => "e",
        'ĝ' | 'ğ' | 'ġ' | 'ģ' => "g",
        'ĥ' | 'ħ' => "h",
        'ì' | 'í' | 'î' | 'ï' | 'ĩ' | 'ī' | 'ĭ' | 'į' | 'ı' => "i",
        'ĳ' => "ij",
        'ĵ' => "j",
        'ķ' => "k",
        'ĺ' | 'ļ' | 'ľ' | 'ŀ' | 'ł' => "l",
        'ñ' | 'ń' | 'ņ' | 'ň' | 'ŉ' | 'ŋ' => "n",
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' | 'ŏ' | 'ő' => "o",
        'œ' => "oe",
        'ŕ' | 'ŗ' | 'ř' => "r",
        'ś' | 'ŝ' | 'ş' | 'š' | 'ſ' => "s",
        'ß' => "ss",
        'ţ' | 'ť' | 'ŧ' => "t",
        'þ' => "th",
        'ù' | 'ú' | 'û' | 'ü' | 'ũ' | 'ū' | 'ŭ' | 'ů' | 'ű' | 'ų' => "u",
        'ŵ' => "w",
        'ý' | 'ÿ' | 'ŷ' => "y",
        'ź' | 'ż' | 'ž' => "z",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_width_text_folds_to_ascii() {
        assert_eq!(normalise("ＳＱＬ　Ｔｅｓｔ１"), "sql test1");
        assert_eq!(normalise("Übersicht"), "übersicht");
        assert_eq!(width_folded("ＳＱＬ　Ｔｅｓｔ１"), "SQL Test1");
    }

    #[test]
    fn case_width_accents_and_padding_fold_away() {
        assert_eq!(fold("  English   "), "english");
        assert_eq!(fold("Müller"), "muller");
        assert_eq!(fold("STRASSE"), fold("Straße"));
        assert_eq!(fold("Kapazität"), "kapazitat");
        assert_eq!(fold("Ｓｐｅｅｄｙ　Ｅｘｐｒｅｓｓ"), "speedy express");
        assert_eq!(fold("Speedy\t\n Express"), "speedy express");
        assert_eq!(fold("São Paulo"), "sao paulo");
        // CJK and other scripts are left as they are.
        assert_eq!(fold("東京都"), "東京都");
        assert_eq!(fold("Москва"), "москва");
        assert_eq!(fold(""), "");
    }
}
