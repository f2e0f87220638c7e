//! Finding the knowledge that fits a question: the glossary terms it uses, and the worked
//! examples most like it.
//!
//! Examples are ranked by the questions they answer, with BM25 over grams
//! ([`crate::search::bm25::TextIndex`]); `tests/knowledge_retrieval.rs` measures it on
//! paraphrased questions.

use super::Term;
use crate::search::fold::normalise;
use crate::search::tokens::contains_phrase;

/// An example scoring less than this (see [`crate::search::bm25::Found::score`]) is not worth
/// sending. Measured in `tests/knowledge_retrieval.rs` on the German Spider dev questions: the
/// best match among another database's questions scores 0.066 at the median, a paraphrase of
/// the question 0.16 or more nine times in ten.
pub const SCORE_FLOOR: f32 = 0.1;

/// The glossary entries `question` uses, in the glossary's order. Case and width are ignored;
/// a Latin term must stand as whole words (a plural `s` or `es` allowed), a CJK term may sit
/// anywhere (CJK text has no spaces to mark words).
pub fn matching_terms<'k>(glossary: &'k [Term], question: &str) -> Vec<&'k Term> {
    let question = normalise(question);
    glossary
        .iter()
        .filter(|term| contains_phrase(&question, &normalise(term.term.trim())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knowledge::Source;
    use crate::search::bm25::TextIndex;

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
        let index = TextIndex::new([
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
        assert!(TextIndex::default().search("anything", 3, 0.0).is_empty());
    }
}
