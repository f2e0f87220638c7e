//! The value index: the short text values of columns that hold few distinct ones (categories,
//! names, codes, countries), so that the words of a question can be matched to them and the
//! model told `category.name has 'Horror'` before it writes a query. What it holds is read from
//! the data by its builder (`agent::selection::values`), column by column
//! ([`ValueIndex::add_column`]); [`Coverage`] says what was read and what was not.
//!
//! Matching ([`ValueIndex::hits`]) is folded ([`fold`]: case, width, accents, padding); a Latin
//! value stands in the question as whole words (a plural `s`/`es` allowed), a CJK one anywhere.
//! Each value is filed under its first two tokens (Latin words or single CJK characters), so a
//! question looks up its own tokens and the pairs of them that follow each other, and checks
//! only the few values filed there, however big the index; a value held by many columns is
//! checked once.

mod coverage;

pub use coverage::{Coverage, Cut, Scanned, Unreadable, ASSUMED_BYTES_PER_SEEK};

use super::fold::{fold, width_folded};
use super::tokens::{contains_phrase, is_cjk, is_word_char};
use crate::sql::{ident, quote_literal};
use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};
use std::fmt;

/// Values shorter than this, trimmed, are not matched: a lone letter ('G', 'M') is a word of
/// many questions, and a lone CJK character sits inside longer words ('東' in '東京都', '大' in
/// '大阪府'), so either would be named beside questions that do not mean it. Two-character CJK
/// values ('家電', '男性') are kept: they are words.
pub const MIN_VALUE_CHARS: usize = 2;

/// Values of this many capital letters or fewer ('US', 'IT', 'OR', 'IND') are codes: folded they
/// are common words ('us', 'it', 'or', 'ind'), so they match only where the question writes them
/// in capitals too. Every other value matches whatever its case.
const CODE_MAX_CHARS: usize = 3;

/// One value the question names, beside a column that holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueHit {
    pub table: String,
    pub column: String,
    /// As the data writes it, padding included (`'English             '` in a `CHAR(20)`), so
    /// that SQL written from it (`WHERE name = '…'`) matches.
    pub value: String,
}

impl fmt::Display for ValueHit {
    /// `category.name has 'Horror'`: names as SQL writes them, the value as an SQL literal,
    /// every character of it kept (padding, quotes doubled).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}.{} has {}",
            ident(&self.table),
            ident(&self.column),
            quote_literal(&self.value)
        )
    }
}

/// Short text values of columns that hold few distinct ones (categories, names, codes,
/// countries), found in the data, so that a question's words can be matched to them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ValueIndex {
    /// (table, column) of each column that has values, as the schema names them.
    columns: Vec<(String, String)>,
    /// Each value of each column.
    entries: Vec<Entry>,
    /// Each value folded, once however many columns hold it: what a question is checked
    /// against (a country in twenty tables is one check, not twenty).
    texts: Vec<Text>,
    /// Texts by their first two tokens (or their only one); a token is a Latin word or one CJK
    /// character.
    by_first_tokens: HashMap<String, Vec<u32>>,
    /// Texts by a hash of their folded value, to find a text again when another column holds it.
    by_hash: HashMap<u64, Vec<u32>>,
    bytes: usize,
    coverage: Coverage,
}

/// One value of one column.
#[derive(Clone, Debug, PartialEq)]
struct Entry {
    /// As the data writes it.
    stored: String,
    column: u32,
    text: u32,
    /// Matched in capitals only (see [`CODE_MAX_CHARS`]).
    code: bool,
}

/// One value folded, and the entries that fold to it.
#[derive(Clone, Debug, PartialEq)]
struct Text {
    folded: String,
    words: u32,
    chars: u32,
    entries: Vec<u32>,
}

/// A value of a column as it will be added: worth matching, folded, its key and hash found.
struct Prepared {
    stored: String,
    folded: String,
    key: String,
    hash: u64,
    code: bool,
}

impl Prepared {
    /// `stored` ready to add, or `None` when it is not worth matching: shorter than
    /// [`MIN_VALUE_CHARS`], without a letter (`42`, `3.5`, `2024-01-31`, `-`), or with a control
    /// character (a category has none, and a line break would break the line it is shown on).
    fn new(stored: &str) -> Option<Prepared> {
        let trimmed = stored.trim();
        let chars = trimmed.chars().count();
        let worth = chars >= MIN_VALUE_CHARS
            && trimmed.chars().any(char::is_alphabetic)
            && !stored.chars().any(char::is_control);
        if !worth {
            return None;
        }
        let folded = fold(stored);
        first_token(&folded)?;
        let code = chars <= CODE_MAX_CHARS && trimmed.chars().all(|c| c.is_ascii_uppercase());
        Some(Prepared::folded(stored.to_string(), folded, code))
    }

    fn folded(stored: String, folded: String, code: bool) -> Prepared {
        Prepared {
            stored,
            key: key_of(&folded),
            hash: hash_of(&folded),
            folded,
            code,
        }
    }
}

/// What it is filed under: its first two tokens, or its only one.
fn key_of(folded: &str) -> String {
    let mut tokens = tokens(folded);
    let first = tokens.next().unwrap_or_default();
    match tokens.next() {
        Some(second) => pair_key(first, second),
        None => first.to_string(),
    }
}

fn hash_of(folded: &str) -> u64 {
    use std::hash::{DefaultHasher, Hash, Hasher};
    let mut hasher = DefaultHasher::new();
    folded.hash(&mut hasher);
    hasher.finish()
}

fn entry_bytes(stored: &str) -> usize {
    // The entry, its text, and its number in its text's list.
    std::mem::size_of::<Entry>() + stored.len() + std::mem::size_of::<u32>()
}

fn text_bytes(folded: &str) -> usize {
    // The text, its number in its key's list, and its slot among the hashes.
    std::mem::size_of::<Text>()
        + folded.len()
        + std::mem::size_of::<u32>()
        + std::mem::size_of::<(u64, Vec<u32>)>()
        + 8
}

/// What a new key of [`ValueIndex::by_first_tokens`] costs besides its text: the map's slot.
const KEY_BYTES: usize = std::mem::size_of::<String>() + std::mem::size_of::<Vec<u32>>() + 8;

/// The tokens of folded text: runs of Latin (word) characters, and each CJK character alone.
fn tokens(folded: &str) -> impl Iterator<Item = &str> {
    let mut rest = folded;
    std::iter::from_fn(move || loop {
        let start = rest.find(|c: char| is_cjk(c) || is_word_char(c))?;
        let from = &rest[start..];
        let first = from.chars().next()?;
        let len = if is_cjk(first) {
            first.len_utf8()
        } else {
            from.find(|c: char| !is_word_char(c)).unwrap_or(from.len())
        };
        rest = &from[len..];
        if len > 0 {
            return Some(&from[..len]);
        }
    })
}

fn first_token(folded: &str) -> Option<&str> {
    tokens(folded).next()
}

/// The key of two tokens that follow each other: a value stands in a question as a run of
/// tokens, so its first two follow each other there too (a common first word, 'north' or
/// 'the', then finds only the values that go on as the question does).
fn pair_key(first: &str, second: &str) -> String {
    format!("{first}\u{1}{second}")
}

/// The keys a question's token may find a value under: itself, and, for a Latin word, the word
/// without a plural `s` or `es` (the value `Drama` for `dramas`).
fn key_forms(token: &str) -> impl Iterator<Item = &str> {
    let latin = token.chars().next_back().is_some_and(is_word_char);
    let singular = |suffix: &str| {
        latin
            .then(|| token.strip_suffix(suffix))
            .flatten()
            .filter(|s| !s.is_empty())
    };
    std::iter::once(token)
        .chain(singular("s"))
        .chain(singular("es"))
}

/// What [`ValueIndex::add_column`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Added {
    /// The column and its values worth matching are in the index.
    Column,
    /// None of its values is worth matching: nothing added.
    Nothing,
    /// Nothing added: its values would have made the index larger than the bound.
    OverBound,
}

impl ValueIndex {
    /// Adds the values of `table`.`column` read from the data (`stored`, as the data writes
    /// them) that are worth matching, unless they would make [`ValueIndex::bytes`] more than
    /// `most_bytes`.
    pub fn add_column(
        &mut self,
        table: &str,
        column: &str,
        stored: &[String],
        most_bytes: usize,
    ) -> Added {
        let values = prepared(stored);
        if values.is_empty() {
            return Added::Nothing;
        }
        let cost = self.cost_of(table, column, &values);
        if self.bytes.saturating_add(cost) > most_bytes {
            return Added::OverBound;
        }
        let number = self.push_column_name(table, column);
        for value in values {
            self.push_entry(value, number);
        }
        Added::Column
    }

    /// The index, saying that `coverage` is what its build read.
    pub fn covering(mut self, coverage: Coverage) -> ValueIndex {
        self.coverage = coverage;
        self
    }

    /// The values `question` names, each beside every column that holds it (a value shared by
    /// two columns gives two hits), best first: more words, then more characters (then the
    /// value, then the columns in the order they were read), at most `most`. A value named only
    /// inside a longer value of the same column ('Express' in 'Speedy Express') is left out for
    /// that column.
    pub fn hits(&self, question: &str, most: usize) -> Vec<ValueHit> {
        if most == 0 || self.entries.is_empty() {
            return Vec::new();
        }
        let folded = fold(question);
        let cased = width_folded(question);
        let mut named: Vec<u32> = self
            .candidates(&folded)
            .into_iter()
            .filter(|&text| contains_phrase(&folded, &self.text(text).folded))
            .collect();
        named.sort_by(|&a, &b| self.rank(a, b));
        // Longer values come first, so a column's longer named values are known by the time
        // a shorter one of it comes.
        let mut shown = Shown::new(self, &folded);
        let mut hits = Vec::new();
        for id in named.iter().flat_map(|&text| &self.text(text).entries) {
            let entry = self.entry(*id);
            if entry.code && !contains_phrase(&cased, entry.stored.trim()) {
                continue;
            }
            if shown.inside_longer(entry.column, entry.text) {
                continue;
            }
            hits.push(self.hit(*id));
            if hits.len() == most {
                break;
            }
        }
        hits
    }

    pub fn coverage(&self) -> &Coverage {
        &self.coverage
    }

    /// Values in the index: a value in two columns counts twice.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Roughly what it holds in memory: its texts and the bookkeeping beside each.
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// (table, column) of each column that has values, as the data's schema names them, in the
    /// order they were added.
    pub fn columns(&self) -> &[(String, String)] {
        &self.columns
    }

    /// The index restricted to the columns that `shows(table, column)` (what the model may
    /// see). Its coverage stays that of the build.
    pub fn within(&self, shows: impl Fn(&str, &str) -> bool) -> ValueIndex {
        let mut narrowed = ValueIndex {
            coverage: self.coverage.clone(),
            ..ValueIndex::default()
        };
        let renumbered: Vec<Option<u32>> = self
            .columns
            .iter()
            .map(|(table, column)| {
                shows(table, column).then(|| narrowed.push_column_name(table, column))
            })
            .collect();
        for entry in &self.entries {
            if let Some(Some(column)) = renumbered.get(entry.column as usize) {
                let folded = self.text_of(entry).folded.clone();
                let prepared = Prepared::folded(entry.stored.clone(), folded, entry.code);
                narrowed.push_entry(prepared, *column);
            }
        }
        narrowed
    }

    fn entry(&self, id: u32) -> &Entry {
        &self.entries[id as usize]
    }

    fn text_of(&self, entry: &Entry) -> &Text {
        &self.texts[entry.text as usize]
    }

    /// The texts filed under the question's tokens and pairs of tokens, each once, in order.
    fn candidates(&self, folded: &str) -> Vec<u32> {
        let tokens: Vec<&str> = tokens(folded).collect();
        let singles = tokens.iter().flat_map(|t| key_forms(t)).map(str::to_string);
        let pairs = tokens
            .windows(2)
            .flat_map(|pair| key_forms(pair[1]).map(move |second| pair_key(pair[0], second)));
        let mut found: Vec<u32> = singles
            .chain(pairs)
            .filter_map(|key| self.by_first_tokens.get(&key))
            .flatten()
            .copied()
            .collect();
        found.sort_unstable();
        found.dedup();
        found
    }

    fn text(&self, id: u32) -> &Text {
        &self.texts[id as usize]
    }

    fn rank(&self, a: u32, b: u32) -> Ordering {
        let (a, b) = (self.text(a), self.text(b));
        b.words
            .cmp(&a.words)
            .then(b.chars.cmp(&a.chars))
            .then(a.folded.cmp(&b.folded))
    }

    fn hit(&self, id: u32) -> ValueHit {
        let entry = self.entry(id);
        let (table, column) = &self.columns[entry.column as usize];
        ValueHit {
            table: table.clone(),
            column: column.clone(),
            value: entry.stored.clone(),
        }
    }

    /// The text of `value`, if the index has it.
    fn text_id(&self, value: &Prepared) -> Option<u32> {
        let ids = self.by_hash.get(&value.hash)?;
        ids.iter()
            .copied()
            .find(|&id| self.texts[id as usize].folded == value.folded)
    }

    /// What adding the column with `values` (worth matching) would add to
    /// [`ValueIndex::bytes`].
    fn cost_of(&self, table: &str, column: &str, values: &[Prepared]) -> usize {
        let mut new_texts = HashSet::new();
        let mut new_keys = HashSet::new();
        let mut cost = std::mem::size_of::<(String, String)>() + table.len() + column.len();
        for value in values {
            cost += entry_bytes(&value.stored);
            if self.text_id(value).is_some() || !new_texts.insert(value.folded.as_str()) {
                continue;
            }
            cost += text_bytes(&value.folded);
            if !self.by_first_tokens.contains_key(&value.key) && new_keys.insert(&value.key) {
                cost += KEY_BYTES + value.key.len();
            }
        }
        cost
    }

    fn push_column_name(&mut self, table: &str, column: &str) -> u32 {
        self.bytes += std::mem::size_of::<(String, String)>() + table.len() + column.len();
        self.columns.push((table.to_string(), column.to_string()));
        (self.columns.len() - 1) as u32
    }

    fn push_entry(&mut self, value: Prepared, column: u32) {
        let id = self.entries.len() as u32;
        let text = match self.text_id(&value) {
            Some(text) => text,
            None => self.push_text(value.folded, value.key, value.hash),
        };
        self.texts[text as usize].entries.push(id);
        self.bytes += entry_bytes(&value.stored);
        self.entries.push(Entry {
            stored: value.stored,
            column,
            text,
            code: value.code,
        });
    }

    fn push_text(&mut self, folded: String, key: String, hash: u64) -> u32 {
        let id = self.texts.len() as u32;
        self.bytes += text_bytes(&folded);
        match self.by_first_tokens.get_mut(&key) {
            Some(ids) => ids.push(id),
            None => {
                self.bytes += KEY_BYTES + key.len();
                self.by_first_tokens.insert(key, vec![id]);
            }
        }
        self.by_hash.entry(hash).or_default().push(id);
        self.texts.push(Text {
            words: folded.split(' ').count() as u32,
            chars: folded.chars().count() as u32,
            folded,
            entries: Vec::new(),
        });
        id
    }
}

/// The texts named so far in each column, while the hits of a question are gathered.
struct Shown<'i> {
    index: &'i ValueIndex,
    question: &'i str,
    by_column: HashMap<u32, Vec<u32>>,
    /// Whether a text (the first) holds another as a phrase.
    holds: HashMap<(u32, u32), bool>,
    /// Whether a text is named only inside the longer ones.
    hidden: HashMap<(u32, Vec<u32>), bool>,
}

impl<'i> Shown<'i> {
    fn new(index: &'i ValueIndex, question: &'i str) -> Shown<'i> {
        Shown {
            index,
            question,
            by_column: HashMap::new(),
            holds: HashMap::new(),
            hidden: HashMap::new(),
        }
    }

    /// Whether every mention of `text` in the question lies inside a longer value named in
    /// `column` before it; `text` is then named in `column` too.
    fn inside_longer(&mut self, column: u32, text: u32) -> bool {
        let named = self.by_column.entry(column).or_default();
        let mut longer = Vec::new();
        for &other in named.iter() {
            let holds = *self.holds.entry((other, text)).or_insert_with(|| {
                let (other, text) = (self.index.text(other), self.index.text(text));
                other.folded.len() > text.folded.len()
                    && contains_phrase(&other.folded, &text.folded)
            });
            if holds {
                longer.push(other);
            }
        }
        named.push(text);
        if longer.is_empty() {
            return false;
        }
        let (index, question) = (self.index, self.question);
        *self
            .hidden
            .entry((text, longer))
            .or_insert_with_key(|(text, longer)| {
                let rest = longer.iter().fold(question.to_string(), |rest, &l| {
                    rest.replace(&index.text(l).folded, " ")
                });
                !contains_phrase(&rest, &index.text(*text).folded)
            })
    }
}

/// The values of `stored` worth matching.
fn prepared(stored: &[String]) -> Vec<Prepared> {
    stored.iter().filter_map(|s| Prepared::new(s)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An index of the given columns and values, as a build would make it.
    fn index_of(columns: &[(&str, &str, &[&str])]) -> ValueIndex {
        let mut index = ValueIndex::default();
        for (table, column, values) in columns {
            let stored: Vec<String> = values.iter().map(|v| v.to_string()).collect();
            let number = index.push_column_name(table, column);
            for value in prepared(&stored) {
                index.push_entry(value, number);
            }
        }
        index
    }

    fn shown(index: &ValueIndex, question: &str) -> Vec<String> {
        index
            .hits(question, 10)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    #[test]
    fn whole_words_match_through_padding_case_accents_and_plurals() {
        let index = index_of(&[
            ("language", "name", &["English             ", "French"]),
            ("category", "name", &["Drama", "Horror"]),
            ("Customers", "City", &["Montréal", "Köln", "México D.F."]),
            ("Customers", "CompanyName", &["Bank of America"]),
        ]);
        // Padding kept, as SQL must write it; case ignored.
        assert_eq!(
            index.hits("How many films are in ENGLISH?", 5),
            [ValueHit {
                table: "language".into(),
                column: "name".into(),
                value: "English             ".into(),
            }]
        );
        assert_eq!(
            shown(&index, "films in english"),
            ["language.name has 'English             '"]
        );
        // A plural, accents, a value ending in punctuation.
        assert_eq!(
            shown(&index, "list the dramas"),
            ["category.name has 'Drama'"]
        );
        assert_eq!(
            shown(&index, "customers in montreal or KOLN"),
            ["Customers.City has 'Montréal'", "Customers.City has 'Köln'"]
        );
        assert_eq!(
            shown(&index, "customers in MONTRÉAL"),
            ["Customers.City has 'Montréal'"]
        );
        assert_eq!(
            shown(&index, "orders from Mexico D.F., please"),
            ["Customers.City has 'México D.F.'"]
        );
        // Only whole words: not inside a longer one.
        assert!(shown(&index, "an Englishman watched horrorcore").is_empty());
        assert!(shown(&index, "Bank of Americana").is_empty());
        assert_eq!(
            shown(&index, "the Banks of America"),
            Vec::<String>::new(),
            "only the last word may be plural"
        );
        assert!(index.hits("English", 0).is_empty());
    }

    #[test]
    fn a_cjk_value_matches_anywhere_in_the_question() {
        let index = index_of(&[("customers", "prefecture", &["東京都", "大阪府", "東"])]);
        assert_eq!(
            shown(&index, "東京都の顧客は何人？"),
            ["customers.prefecture has '東京都'"]
        );
        assert_eq!(
            shown(&index, "大阪府と東京都"),
            [
                "customers.prefecture has '大阪府'",
                "customers.prefecture has '東京都'"
            ]
        );
        // A lone CJK character is too short to be worth matching.
        assert_eq!(index.len(), 2);
    }

    #[test]
    fn a_longer_value_hides_a_word_inside_it_for_its_column_only() {
        let index = index_of(&[
            (
                "Shippers",
                "CompanyName",
                &["Speedy Express", "Express", "Federal Shipping"],
            ),
            ("Orders", "ShipMode", &["Express", "Ground"]),
        ]);
        assert_eq!(
            shown(&index, "orders shipped by Speedy Express"),
            [
                "Shippers.CompanyName has 'Speedy Express'",
                "Orders.ShipMode has 'Express'"
            ]
        );
        // Named on its own as well: then it is reported for the column too.
        assert_eq!(
            shown(&index, "speedy express or express"),
            [
                "Shippers.CompanyName has 'Speedy Express'",
                "Shippers.CompanyName has 'Express'",
                "Orders.ShipMode has 'Express'"
            ]
        );
        // Longer values first, and at most `most`.
        let first = index.hits("ground, federal shipping", 1);
        assert_eq!(first[0].value, "Federal Shipping");
    }

    #[test]
    fn short_capital_codes_match_only_in_capitals() {
        let index = index_of(&[("Country", "Code", &["US", "IT", "usa"])]);
        assert_eq!(
            shown(&index, "customers in the US"),
            ["Country.Code has 'US'"]
        );
        assert_eq!(
            shown(&index, "customers in the ＵＳ"),
            ["Country.Code has 'US'"]
        );
        assert!(shown(&index, "tell us what it costs").is_empty());
        // Not a code (not in capitals): any case.
        assert_eq!(shown(&index, "made in USA"), ["Country.Code has 'usa'"]);
    }

    #[test]
    fn values_not_worth_matching_are_left_out() {
        let index = index_of(&[(
            "t",
            "c",
            &[
                "42",
                "3.5",
                "2024-01-31",
                "G",
                "-",
                "two\nlines",
                "ok",
                "  Gold  ",
            ],
        )]);
        let kept: Vec<&str> = index.entries.iter().map(|e| e.stored.as_str()).collect();
        assert_eq!(kept, ["ok", "  Gold  "]);
    }

    /// 100,000 values in 400 columns of 250, of one to three words each drawn by `word`.
    fn generated(word: impl Fn(u64) -> String) -> ValueIndex {
        let mut index = ValueIndex::default();
        let mut seed: u64 = 1;
        let mut next = move || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            seed >> 33
        };
        for column in 0..400u32 {
            index.push_column_name(&format!("table_{}", column / 4), &format!("col_{column}"));
            for _ in 0..250 {
                let words = 1 + next() % 3;
                let value: Vec<String> = (0..words).map(|_| word(next())).collect();
                let value = Prepared::new(&value.join(" ")).expect("worth matching");
                index.push_entry(value, column);
            }
        }
        index
    }

    fn time_hits(index: &ValueIndex, question: &str) -> (f64, usize) {
        const ROUNDS: u32 = 50;
        let started = std::time::Instant::now();
        let mut hits = 0;
        for _ in 0..ROUNDS {
            hits = index.hits(question, 20).len();
        }
        (
            started.elapsed().as_secs_f64() * 1_000.0 / f64::from(ROUNDS),
            hits,
        )
    }

    /// Not a bound on the time (machines differ): the figures the report quotes, printed.
    #[test]
    fn a_question_against_100_000_values_is_answered_quickly() {
        const SYLLABLES: [&str; 16] = [
            "ka", "ro", "mi", "tes", "lan", "or", "vi", "den", "su", "pa", "ner", "go", "li",
            "bra", "to", "em",
        ];
        // Words of two or three syllables: 4,352 of them, as varied as names are.
        let varied = generated(|n| {
            let at = |shift: u64| SYLLABLES[((n >> shift) % 16) as usize];
            match n % 17 {
                0..=15 => format!("{}{}{}", at(4), at(8), at(12)),
                _ => format!("{}{}", at(4), at(8)),
            }
        });
        // A dozen words only: every value starts like thousands of others.
        const FEW: [&str; 12] = [
            "north", "south", "red", "blue", "express", "united", "general", "tokyo", "grand",
            "river", "lake", "mount",
        ];
        let crowded = generated(|n| FEW[(n % 12) as usize].to_string());
        assert_eq!((varied.len(), crowded.len()), (100_000, 100_000));
        let some_value = varied.entries[4_321].stored.clone();
        let question = format!(
            "How many orders did United Express ship to the north river lake region, and \
             which of {some_value} was the largest in Tokyo?"
        );
        // Filed by their first two words, few values are looked at even when every one starts
        // with a word of the question.
        let looked_at = crowded.candidates(&fold(&question)).len();
        assert!(
            looked_at < 500,
            "{looked_at} of {} texts",
            crowded.texts.len()
        );
        for (name, index) in [("varied", &varied), ("crowded", &crowded)] {
            let (ms, hits) = time_hits(index, &question);
            eprintln!(
                "hits on {} {name} values ({:.1} MB): {ms:.3} ms a question, {hits} hits",
                index.len(),
                index.bytes() as f64 / 1e6,
            );
            assert!(hits > 0, "{name}");
        }
    }
}
