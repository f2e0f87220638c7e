//! Finding the knowledge that fits a question: the glossary terms it uses, and the worked
//! examples most like it.
//!
//! Examples are ranked with BM25 over *grams*: Latin words whole plus the character 3-grams
//! inside them (so "Sänger" meets "Sängerinnen"), and the character 2- and 3-grams of CJK text
//! (Japanese and Chinese write no spaces, and their 2-grams are roughly their words; in
//! Japanese, hiragana marks where the words of kanji and katakana end).
//! `tests/knowledge_retrieval.rs` measures it on paraphrased questions. Written
//! here rather than taken from a crate: it is a page of code, and the search crates bring
//! tokenizers that need large dictionaries to cut CJK text into words.

use super::Term;
use std::collections::HashMap;

/// BM25's usual constants: how fast repeated grams stop counting, and how much a long
/// question is discounted.
const K1: f32 = 1.2;
const B: f32 = 0.75;

/// An example scoring less than this (see [`Found::score`]) is not worth sending. Measured in
/// `tests/knowledge_retrieval.rs` on the German Spider dev questions: the best match among
/// another database's questions scores 0.066 at the median, a paraphrase of the question 0.16
/// or more nine times in ten.
pub const SCORE_FLOOR: f32 = 0.1;

/// Lower-case, with full-width Latin letters, digits and signs folded to ASCII and the
/// ideographic space to a space (the part of NFKC that questions typed on a Japanese keyboard
/// need; the rest of NFKC would cost a table of its own).
pub fn normalise(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            '\u{3000}' => ' ',
            _ => c,
        })
        .flat_map(char::to_lowercase)
        .collect()
}

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

/// The grams of `text` (already [`normalise`]d): each Latin word, `#`-marked so that it never
/// equals a gram, with its 3-grams; the 2- and 3-grams of each CJK word (a lone CJK character
/// is its own gram).
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

/// One example found for a question: its place in the list the index was made from, and how
/// well it matches, from 0 (nothing in common) towards 1 (every gram of the question, often).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Found {
    pub index: usize,
    pub score: f32,
}

/// A BM25 index over the questions of worked examples.
#[derive(Clone, Debug, Default)]
pub struct ExampleIndex {
    /// For each gram, the questions that have it and how often.
    postings: HashMap<String, Vec<(usize, u32)>>,
    /// Grams per question.
    lengths: Vec<u32>,
    average_length: f32,
}

impl ExampleIndex {
    pub fn new<'q>(questions: impl IntoIterator<Item = &'q str>) -> ExampleIndex {
        let mut index = ExampleIndex::default();
        for (doc, question) in questions.into_iter().enumerate() {
            let grams = grams(&normalise(question));
            index.lengths.push(grams.len() as u32);
            let mut counts: HashMap<String, u32> = HashMap::new();
            for gram in grams {
                *counts.entry(gram).or_default() += 1;
            }
            for (gram, count) in counts {
                index.postings.entry(gram).or_default().push((doc, count));
            }
        }
        let total: u32 = index.lengths.iter().sum();
        index.average_length = total as f32 / index.lengths.len().max(1) as f32;
        index
    }

    pub fn len(&self) -> usize {
        self.lengths.len()
    }

    pub fn is_empty(&self) -> bool {
        self.lengths.is_empty()
    }

    /// The examples like `question`, best first: at most `limit`, each scoring at least
    /// `floor`. Ties keep the examples' order.
    pub fn search(&self, question: &str, limit: usize, floor: f32) -> Vec<Found> {
        let mut query = grams(&normalise(question));
        query.sort();
        query.dedup();
        let documents = self.len() as f32;
        let mut scores = vec![0.0f32; self.len()];
        // The best a question could score, so that scores read the same whatever the index:
        // every gram of the question found, often (grams no example has count, at the weight
        // of the rarest: a question mostly about something else scores low).
        let mut best_possible = 0.0;
        for gram in &query {
            let postings = self.postings.get(gram).map_or(&[][..], Vec::as_slice);
            let df = postings.len() as f32;
            let idf = (1.0 + (documents - df + 0.5) / (df + 0.5)).ln();
            best_possible += idf * (K1 + 1.0);
            for &(doc, count) in postings {
                let tf = count as f32;
                let length = self.lengths[doc] as f32 / self.average_length.max(1.0);
                scores[doc] += idf * tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * length));
            }
        }
        if best_possible <= 0.0 {
            return Vec::new();
        }
        let mut found: Vec<Found> = scores
            .into_iter()
            .enumerate()
            .map(|(index, score)| Found {
                index,
                score: score / best_possible,
            })
            .filter(|found| found.score >= floor && found.score > 0.0)
            .collect();
        found.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.index.cmp(&b.index)));
        found.truncate(limit);
        found
    }
}

/// The glossary entries `question` uses, in the glossary's order. Case and width are ignored;
/// a Latin term must stand as whole words (a plural `s` or `es` allowed), a CJK term may sit
/// anywhere (CJK text has no spaces to mark words).
pub fn matching_terms<'k>(glossary: &'k [Term], question: &str) -> Vec<&'k Term> {
    let question = normalise(question);
    glossary
        .iter()
        .filter(|term| uses_term(&question, &normalise(term.term.trim())))
        .collect()
}

/// Whether `phrase` stands in `text` (both [`normalise`]d, or folded alike): a Latin phrase as
/// whole words (a plural `s` or `es` allowed after it), a CJK one anywhere.
pub fn contains_phrase(text: &str, phrase: &str) -> bool {
    uses_term(text, phrase)
}

fn uses_term(question: &str, term: &str) -> bool {
    let (Some(first), Some(last)) = (term.chars().next(), term.chars().next_back()) else {
        return false;
    };
    question.match_indices(term).any(|(at, _)| {
        let before = question[..at].chars().next_back();
        let rest = &question[at + term.len()..];
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
    use crate::knowledge::Source;

    fn term(text: &str) -> Term {
        Term {
            term: text.into(),
            meaning: "m".into(),
            source: Source::Person,
        }
    }

    fn matched(glossary: &[Term], question: &str) -> Vec<String> {
        matching_terms(glossary, question)
            .into_iter()
            .map(|t| t.term.clone())
            .collect()
    }

    #[test]
    fn full_width_text_folds_to_ascii() {
        assert_eq!(normalise("ＳＱＬ　Ｔｅｓｔ１"), "sql test1");
        assert_eq!(normalise("Übersicht"), "übersicht");
    }

    #[test]
    fn latin_words_and_cjk_runs_make_their_grams() {
        assert_eq!(grams("top sales"), ["#top", "#sales", "sal", "ale", "les"]);
        assert_eq!(grams("東京都の顧客"), ["東京", "京都", "東京都", "顧客"]);
        assert_eq!(grams("東 x"), ["東", "#x"]);
        // Hiragana alone is kept; next to kanji, it only separates words.
        assert_eq!(grams("いくつ"), ["いく", "くつ", "いくつ"]);
        assert_eq!(grams("客はいますか"), ["客"]);
    }

    #[test]
    fn latin_terms_match_whole_words_in_any_case_and_plural() {
        let glossary = [term("repeat rate"), term("AOV"), term("order")];
        assert_eq!(
            matched(&glossary, "What is our Repeat Rate by month?"),
            ["repeat rate"]
        );
        assert_eq!(
            matched(&glossary, "aov, and repeat rates?"),
            ["repeat rate", "AOV"]
        );
        assert_eq!(matched(&glossary, "How many orders?"), ["order"]);
        assert!(matched(&glossary, "Reorder frequency, ordering, AOVs2").is_empty());
        assert!(matched(&[term("  ")], "anything").is_empty());
    }

    #[test]
    fn cjk_terms_match_inside_text_and_full_width_latin_matches_ascii() {
        let glossary = [term("リピート率"), term("客単価"), term("GMV")];
        assert_eq!(
            matched(&glossary, "月別のリピート率と、ＧＭＶを教えて"),
            ["リピート率", "GMV"]
        );
        assert!(matched(&glossary, "顧客の数は？").is_empty());
    }

    #[test]
    fn the_most_similar_example_comes_first_and_strangers_stay_out() {
        let index = ExampleIndex::new([
            "How many customers live in Tokyo?",
            "What is the total revenue per month?",
            "東京都の顧客は何人ですか？",
            "月ごとの売上合計は？",
        ]);
        let found = index.search("How many customers are in Osaka?", 3, SCORE_FLOOR);
        assert_eq!(found[0].index, 0, "{found:?}");
        assert!(found.iter().all(|f| f.index != 2 && f.index != 3));
        let found = index.search("大阪府の顧客は何人？", 3, SCORE_FLOOR);
        assert_eq!(found[0].index, 2, "{found:?}");
        assert_eq!(found.len(), 1, "{found:?}");
        let found = index.search("売上の合計を月ごとに", 1, SCORE_FLOOR);
        assert_eq!(found[0].index, 3, "{found:?}");
        assert!(index.search("zebra quokka", 3, 0.0).is_empty());
        assert!(ExampleIndex::default()
            .search("anything", 3, 0.0)
            .is_empty());
    }
}
