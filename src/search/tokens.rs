//! Text cut into what it is matched by: Latin words and CJK runs ([`is_cjk`], [`is_word_char`]),
//! the *grams* BM25 ranks by ([`grams`]: Latin words whole plus the character 3-grams inside
//! them, so "Sänger" meets "Sängerinnen"; the character 2- and 3-grams of CJK text, since
//! Japanese and Chinese write no spaces and their 2-grams are roughly their words; in Japanese,
//! hiragana marks where the words of kanji and katakana end), and a phrase found as whole
//! words ([`contains_phrase`]). Written here rather than taken from a crate: the search crates
//! bring tokenizers that need large dictionaries to cut CJK text into words.

/// Han, kana and hangul: scripts written without spaces between words.
pub fn is_cjk(c: char) -> bool {
    matches!(c,
        '\u{3040}'..='\u{30FF}'     // hiragana, katakana
        | '\u{3400}'..='\u{4DBF}'   // CJK extension A
        | '\u{4E00}'..='\u{9FFF}'   // CJK unified ideographs
        | '\u{AC00}'..='\u{D7AF}'   // hangul syllables
        | '\u{F900}'..='\u{FAFF}'   // CJK compatibility ideographs
        | '\u{FF66}'..='\u{FF9F}'   // half-width katakana
        | '\u{20000}'..='\u{2FA1F}') // CJK extensions B and beyond
}

fn is_hiragana(c: char) -> bool {
    matches!(c, '\u{3040}'..='\u{309F}')
}

/// A letter or digit of a script written with spaces (Latin, Greek, Cyrillic…).
pub fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() && !is_cjk(c)
}

/// The grams of `text` (already [`super::fold::normalise`]d): each Latin word, `#`-marked so
/// that it never equals a gram, with its 3-grams; the 2- and 3-grams of each CJK word (a lone
/// CJK character is its own gram).
pub fn grams(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut grams = Vec::new();
    let mut start = 0;
    while start < chars.len() {
        let cjk = is_cjk(chars[start]);
        if !cjk && !is_word_char(chars[start]) {
            start += 1;
            continue;
        }
        let same_kind = |c: char| if cjk { is_cjk(c) } else { is_word_char(c) };
        let end = start + chars[start..].iter().take_while(|&&c| same_kind(c)).count();
        let run = &chars[start..end];
        if cjk {
            // Hiragana is mostly grammar (は, の, いますか): it splits Japanese into the kanji
            // and katakana words that carry the meaning, so that every polite question does not
            // look like every other. A run of hiragana alone is kept whole.
            let all_kana = run.iter().all(|&c| is_hiragana(c));
            let words = run.split(|&c| !all_kana && is_hiragana(c));
            for word in words.filter(|word| !word.is_empty()) {
                cjk_grams(word, &mut grams);
            }
        } else {
            grams.push(format!("#{}", run.iter().collect::<String>()));
            if run.len() > 3 {
                grams.extend(run.windows(3).map(|w| w.iter().collect::<String>()));
            }
        }
        start = end;
    }
    grams
}

/// The 2- and 3-grams of a CJK word (a lone character is its own gram).
fn cjk_grams(word: &[char], grams: &mut Vec<String>) {
    if word.len() == 1 {
        grams.push(word[0].to_string());
    }
    for n in [2, 3] {
        grams.extend(word.windows(n).map(|w| w.iter().collect::<String>()));
    }
}

/// Whether `phrase` stands in `text` (both [`super::fold::normalise`]d, or folded alike): a
/// Latin phrase as whole words (a plural `s` or `es` allowed after it), a CJK one anywhere.
pub fn contains_phrase(text: &str, phrase: &str) -> bool {
    let (Some(first), Some(last)) = (phrase.chars().next(), phrase.chars().next_back()) else {
        return false;
    };
    text.match_indices(phrase).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let rest = &text[at + phrase.len()..];
        let starts_word = !is_word_char(first) || !before.is_some_and(is_word_char);
        let after = if is_word_char(last) {
            rest.strip_prefix("es")
                .or_else(|| rest.strip_prefix('s'))
                .filter(|tail| !tail.starts_with(is_word_char))
                .unwrap_or(rest)
        } else {
            rest
        };
        let ends_word = !is_word_char(last) || !after.starts_with(is_word_char);
        starts_word && ends_word
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin_words_and_cjk_runs_make_their_grams() {
        assert_eq!(grams("top sales"), ["#top", "#sales", "sal", "ale", "les"]);
        assert_eq!(grams("東京都の顧客"), ["東京", "京都", "東京都", "顧客"]);
        assert_eq!(grams("東 x"), ["東", "#x"]);
        // Hiragana alone is kept; next to kanji, it only separates words.
        assert_eq!(grams("いくつ"), ["いく", "くつ", "いくつ"]);
        assert_eq!(grams("客はいますか"), ["客"]);
    }

    /// Mutation: `starts_word` always true in `contains_phrase` ("order" found in "reorder").
    #[test]
    fn a_phrase_stands_as_whole_words_or_anywhere_in_cjk() {
        assert!(contains_phrase("how many orders?", "order"));
        assert!(contains_phrase("the boxes", "box"));
        assert!(!contains_phrase("reorder", "order"));
        assert!(!contains_phrase("ordering", "order"));
        assert!(contains_phrase("東京都の顧客", "顧客"));
        assert!(!contains_phrase("anything", ""));
    }
}
