//! Data inside a sentence the page says: a name, a value, a question's words, what a server
//! said. It is shown as it is, never translated, and the page marks it so (`translate="no"`,
//! which browsers' translators and the scan for English on a translated page both skip).
//!
//! A sentence is said with its data wrapped in [`data`]: Unicode's first strong isolate and pop
//! directional isolate around it, which Fluent also puts around what it places in a message (and
//! `present::errors` around a database error's values: the same marks, so that one view shows
//! both). The page shows each wrapped piece in an element of its own ([`pieces`],
//! `ui::chat::marked`); where no element can hold one (an attribute, a native tool, a test),
//! [`plain`] drops the marks.

const START: char = '\u{2068}';
const END: char = '\u{2069}';

/// `text` as data in a sentence (any marks inside it dropped: data holds no data).
pub fn data(text: &str) -> String {
    format!("{START}{}{END}", plain(text))
}

/// `text` without its marks: what a person reads.
pub fn plain(text: &str) -> String {
    text.replace([START, END], "")
}

/// One piece of a sentence: the page's words, or data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    pub text: String,
    pub data: bool,
}

/// `text` cut into the page's words and its data, in order, empty pieces left out. A mark
/// without its pair runs to the end of the text.
pub fn pieces(text: &str) -> Vec<Piece> {
    let mut found = Vec::new();
    let mut rest = text;
    let mut data = false;
    loop {
        let mark = if data { END } else { START };
        let (piece, after) = match rest.split_once(mark) {
            Some((piece, after)) => (piece, Some(after)),
            None => (rest, None),
        };
        let piece = plain(piece);
        if !piece.is_empty() {
            found.push(Piece { text: piece, data });
        }
        match after {
            Some(after) => {
                rest = after;
                data = !data;
            }
            None => return found,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Mutation: `pieces` that keeps the marks in its pieces, or loses the text after the last
    /// datum, fails it.
    #[test]
    fn a_sentence_comes_apart_into_words_and_data_and_reads_without_its_marks() {
        let said = format!(
            "could not reach {} ({})",
            data("https://x.test"),
            data("refused")
        );
        assert_eq!(plain(&said), "could not reach https://x.test (refused)");
        let cut: Vec<(String, bool)> = pieces(&said)
            .into_iter()
            .map(|p| (p.text, p.data))
            .collect();
        assert_eq!(
            cut,
            [
                ("could not reach ".to_string(), false),
                ("https://x.test".into(), true),
                (" (".into(), false),
                ("refused".into(), true),
                (")".into(), false)
            ]
        );
        // Data inside data is data once.
        assert_eq!(pieces(&data(&said)).len(), 1);
        assert_eq!(pieces("no data at all")[0].text, "no data at all");
        assert!(pieces("").is_empty());
    }
}
