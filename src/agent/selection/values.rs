//! The value index: the short text values of columns that hold few distinct ones (categories,
//! names, codes, countries), read from the data, so that the words of a question can be
//! matched to them and the model told `category.name has 'Horror'` before it writes a query.
//!
//! Built through [`Database`] only, so it runs wherever the database is (sql.js in the page's
//! worker, rusqlite natively), within the caller's [`Bounds`] (time, the index's own bytes,
//! each query's limits). How much it reads is the caller's [`IndexPlan`]: a sample of each
//! table for a database in memory, the indexed columns only (seeking, never scanning) for one
//! read on demand, or nothing. [`Coverage`] says what was read and what was not.
//!
//! Matching ([`ValueIndex::hits`]) is folded ([`fold`]: case, width, accents, padding); a Latin
//! value stands in the question as whole words (a plural `s`/`es` allowed), a CJK one anywhere.
//! Each value is filed under its first two tokens (Latin words or single CJK characters), so a
//! question looks up its own tokens and the pairs of them that follow each other, and checks
//! only the few values filed there, however big the index; a value held by many columns is
//! checked once.

use crate::clock::Clock;
use crate::engine::{query, query_bound, Database, DbError, QueryLimits};
use crate::engine::{QueryResult, Schema, Table, TableKind, Value};
use crate::search::fold::{fold, width_folded};
use crate::search::tokens::{contains_phrase, is_cjk, is_word_char};
use crate::sql::{ident, quote_literal};
use crate::text::format_bytes;
use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};
use std::fmt;

/// A column is indexed only when what was read of it holds at most this many distinct non-null
/// values. Categories, statuses, codes and countries stay under it (ISO 3166 lists 249
/// countries); a column with more holds names of people, products or places, or free text, of
/// which a sample holds a part that the value a question names is likely to miss. It also
/// bounds the seeks of one indexed column ([`IndexPlan::IndexedOnly`]).
pub const MAX_DISTINCT: usize = 250;

/// A column is indexed only when each of its text values is at most this many characters,
/// trimmed: names of categories, companies and countries fit ('Democratic Republic of the Congo' is 32); a column
/// with a longer value holds descriptions or addresses, which a question does not quote whole.
pub const MAX_VALUE_CHARS: usize = 60;

/// Values shorter than this, trimmed, are not matched: a lone letter ('G', 'M') is a word of
/// many questions, and a lone CJK character sits inside longer words ('東' in '東京都', '大' in
/// '大阪府'), so either would be named beside questions that do not mean it. Two-character CJK
/// values ('家電', '男性') are kept: they are words.
pub const MIN_VALUE_CHARS: usize = 2;

/// Values of this many capital letters or fewer ('US', 'IT', 'OR', 'IND') are codes: folded they
/// are common words ('us', 'it', 'or', 'ind'), so they match only where the question writes them
/// in capitals too. Every other value matches whatever its case.
const CODE_MAX_CHARS: usize = 3;

/// What one seek is taken to read when the database does not report its reads (rusqlite, a
/// file in memory): one page of the default size. The read budget of
/// [`IndexPlan::IndexedOnly`] is then a number of seeks, `byte_budget / ASSUMED_BYTES_PER_SEEK`.
const ASSUMED_BYTES_PER_SEEK: u64 = 4_096;

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

/// How to build the index, chosen by the caller for the kind of database.
#[derive(Clone, Debug, PartialEq)]
pub enum IndexPlan {
    /// In memory: each table's text columns read from its first `rows_per_table` rows.
    Sample { rows_per_table: u64 },
    /// Read on demand (a big local file or a remote one): only columns that lead an index and
    /// that `sqlite_stat1` says hold few distinct values, read by seeking the index value by
    /// value (`SELECT c FROM t WHERE c > ?1 ORDER BY c LIMIT 1`), until the database reports
    /// `byte_budget` bytes read ([`crate::engine::QueryResult::reads`]; a database that reports
    /// none is allowed `byte_budget / 4096` seeks instead); skipped, with the reason, when the
    /// file has no `sqlite_stat1`.
    IndexedOnly { byte_budget: u64 },
    /// Not built, for this reason (said in [`Coverage::Skipped`]).
    Skip(String),
}

/// What building the index may cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    /// No query starts after this many milliseconds (checked with the clock between queries;
    /// the query running then may take up to its own deadline, `query.deadline_ms`).
    pub time_ms: f64,
    /// The index's own size ([`ValueIndex::bytes`]) never passes this.
    pub bytes: usize,
    /// Each query's deadline and row cap.
    pub query: QueryLimits,
}

impl Default for Bounds {
    /// The issue's goals for the page: at most 1 s and 20 MB.
    fn default() -> Self {
        Bounds {
            time_ms: 1_000.0,
            bytes: 20_000_000,
            query: QueryLimits::default(),
        }
    }
}

/// What was indexed and what was not.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Coverage {
    /// Not built yet (an index made with `Default`).
    #[default]
    NotBuilt,
    /// Every text column of every table read in full: no table had as many rows as the sample.
    Full(Scanned),
    /// Only the first `rows_per_table` rows of the tables in `sampled` were read (they had that
    /// many, and may have more); the other tables in full.
    Sampled {
        rows_per_table: u64,
        sampled: Vec<String>,
        scanned: Scanned,
    },
    /// Only the columns that lead an index and that `sqlite_stat1` says hold few values, read
    /// by `seeks` seeks of their index; `bytes_read` as the database reported it (`None`: it
    /// reports no reads, and the budget was counted in seeks).
    IndexedOnly {
        seeks: u64,
        bytes_read: Option<u64>,
        scanned: Scanned,
    },
    /// Nothing indexed, and why.
    Skipped(String),
    /// A bound stopped the build `at` a table (or a `table.column`), with `left` tables
    /// (sampling) or columns (seeking) not read, that one included; `before` is what had been
    /// read.
    CutShort {
        by: Cut,
        at: String,
        left: usize,
        before: Box<Coverage>,
    },
}

/// What a build read.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scanned {
    /// Tables read (queried without error).
    pub tables: usize,
    /// Columns with at least one value in the index.
    pub columns: usize,
    /// Values in the index (a value in two columns counts twice).
    pub values: usize,
    /// Tables (or `table.column`s) whose query failed, and why; the build went on without them.
    pub unreadable: Vec<Unreadable>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Unreadable {
    pub table: String,
    pub why: String,
}

/// The bound that cut a build short.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Cut {
    /// [`Bounds::time_ms`].
    Time { ms: f64 },
    /// [`Bounds::bytes`]: the next column would have made the index larger.
    IndexBytes { bytes: usize },
    /// [`IndexPlan::IndexedOnly`]'s `byte_budget`, as the database reported its reads.
    ReadBytes { bytes: u64 },
    /// The same budget counted in seeks, for a database that reports no reads.
    Seeks { seeks: u64 },
}

impl Coverage {
    /// The sentence a person reads.
    pub fn sentence(&self) -> String {
        match self {
            Coverage::NotBuilt => "No values indexed yet.".to_string(),
            Coverage::Skipped(why) => format!("No values indexed: {why}."),
            Coverage::CutShort {
                by,
                at,
                left,
                before,
            } => {
                let before = before.sentence();
                let (read, unreadable) = before
                    .split_once(". Not read: ")
                    .map_or((before.trim_end_matches('.'), None), |(read, rest)| {
                        (read, Some(rest))
                    });
                let mut sentence = format!(
                    "{read}; then {} stopped it at {at} ({} not read).",
                    by.phrase(),
                    plural(*left, "more")
                );
                if let Some(unreadable) = unreadable {
                    sentence.push_str(" Not read: ");
                    sentence.push_str(unreadable);
                }
                sentence
            }
            Coverage::Full(scanned) => {
                format!(
                    "{}, every row read.{}",
                    scanned.counts(),
                    scanned.failures()
                )
            }
            Coverage::Sampled {
                rows_per_table,
                sampled,
                scanned,
            } => format!(
                "{}; of {} only the first {} rows were read.{}",
                scanned.counts(),
                names_in_short(sampled),
                crate::text::grouped(*rows_per_table),
                scanned.failures()
            ),
            Coverage::IndexedOnly {
                seeks,
                bytes_read,
                scanned,
            } => {
                let read = match bytes_read {
                    Some(bytes) => format!("{} read", format_bytes(*bytes)),
                    None => "the database does not report its reads".to_string(),
                };
                format!(
                    "{} from the columns that lead an index and that SQLite's statistics \
                     (sqlite_stat1) say hold few values, by {} of their index ({read}).{}",
                    scanned.counts(),
                    plural(*seeks as usize, "seek"),
                    scanned.failures()
                )
            }
        }
    }
}

impl fmt::Display for Coverage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.sentence())
    }
}

impl Cut {
    fn phrase(&self) -> String {
        match self {
            Cut::Time { ms } => format!("the time bound of {ms} ms"),
            Cut::IndexBytes { bytes } => {
                format!("the index's size bound of {}", format_bytes(*bytes as u64))
            }
            Cut::ReadBytes { bytes } => format!("the read budget of {}", format_bytes(*bytes)),
            Cut::Seeks { seeks } => format!(
                "the read budget, counted as {seeks} seeks of {ASSUMED_BYTES_PER_SEEK} bytes \
                 each (the database does not report its reads),"
            ),
        }
    }
}

impl Scanned {
    fn counts(&self) -> String {
        format!(
            "{} of {} in {} indexed",
            plural(self.values, "value"),
            plural(self.columns, "column"),
            plural(self.tables, "table")
        )
    }

    fn failures(&self) -> String {
        if self.unreadable.is_empty() {
            return String::new();
        }
        let each: Vec<String> = self
            .unreadable
            .iter()
            .map(|u| format!("{} ({})", u.table, u.why))
            .collect();
        format!(" Not read: {}.", each.join("; "))
    }
}

fn plural(n: usize, word: &str) -> String {
    let n = crate::text::grouped(n as u64);
    match (n.as_str(), word) {
        ("1", _) | (_, "more") => format!("{n} {word}"),
        _ => format!("{n} {word}s"),
    }
}

/// "a, b, c and 4 more".
fn names_in_short(names: &[String]) -> String {
    const SHOWN: usize = 3;
    match names.len() {
        0 => "no table".to_string(),
        1 => names[0].clone(),
        n if n <= SHOWN => format!("{} and {}", names[..n - 1].join(", "), names[n - 1]),
        n => format!("{} and {} more", names[..SHOWN].join(", "), n - SHOWN),
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

impl ValueIndex {
    /// Reads the values `plan` allows from the tables of `schema` (views are skipped: reading one
    /// runs its query), within `bounds`. Never fails: what could not be read is in
    /// [`ValueIndex::coverage`].
    pub async fn build<D: Database + ?Sized>(
        db: &D,
        schema: &Schema,
        plan: &IndexPlan,
        bounds: &Bounds,
        clock: &dyn Clock,
    ) -> ValueIndex {
        let mut build = Build {
            index: ValueIndex::default(),
            bounds,
            clock,
            started_ms: clock.now_ms(),
            scanned: Scanned::default(),
            seeks: 0,
            bytes_read: None,
        };
        let coverage = match plan {
            IndexPlan::Skip(why) => Coverage::Skipped(why.clone()),
            IndexPlan::Sample { rows_per_table: 0 } => {
                Coverage::Skipped("the plan reads no rows of any table".into())
            }
            IndexPlan::Sample { rows_per_table } => {
                build.sample_tables(db, schema, *rows_per_table).await
            }
            IndexPlan::IndexedOnly { byte_budget } => {
                build.seek_indexed_columns(db, schema, *byte_budget).await
            }
        };
        let mut index = build.index;
        index.coverage = coverage;
        index
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

    /// The index restricted to the tables and columns of `schema` (what the model may see).
    /// Its coverage stays that of the build.
    pub fn within(&self, schema: &Schema) -> ValueIndex {
        let mut narrowed = ValueIndex {
            coverage: self.coverage.clone(),
            ..ValueIndex::default()
        };
        let renumbered: Vec<Option<u32>> = self
            .columns
            .iter()
            .map(|(table, column)| {
                let seen = schema
                    .table(table)
                    .is_some_and(|t| t.column(column).is_some());
                seen.then(|| narrowed.push_column_name(table, column))
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

/// Whether a declared type holds text, by SQLite's affinity rules (the first that applies):
/// `INT` is an integer; `CHAR`, `CLOB`, `TEXT` text (`VARCHAR(20)`, `NVARCHAR`, `VARCHAR2`,
/// `BLOB SUB_TYPE TEXT`); `BLOB` a blob; none at all may hold anything (the values read decide);
/// `REAL`, `FLOA`, `DOUB` a number. The rest has numeric affinity: numbers, dates and booleans
/// (`NUMERIC`, `DECIMAL`, `DATE`, `BOOLEAN`) are not text, other names (`STRING`, `ENUM`) are
/// text that SQLite only turns into a number when it reads as one.
fn text_like(decl_type: &str) -> bool {
    let t = decl_type.to_ascii_uppercase();
    let has = |part: &str| t.contains(part);
    if has("INT") {
        return false;
    }
    if has("CHAR") || has("CLOB") || has("TEXT") {
        return true;
    }
    if has("BLOB") || has("REAL") || has("FLOA") || has("DOUB") {
        return false;
    }
    const NUMERIC: [&str; 6] = ["NUM", "DEC", "BOOL", "DATE", "TIME", "YEAR"];
    !NUMERIC.iter().any(|part| has(part))
}

/// The tables to read and their text-like columns, smallest first (lookup tables hold most of
/// the categories and cost least, so a build cut short by time has read them); tables whose
/// size is unknown last.
fn tables_to_read(schema: &Schema) -> Vec<(&Table, Vec<&str>)> {
    let mut tables: Vec<(&Table, Vec<&str>)> = schema
        .tables
        .iter()
        .filter(|t| t.kind == TableKind::Table)
        .map(|t| {
            let columns = t
                .columns
                .iter()
                .filter(|c| text_like(&c.decl_type))
                .map(|c| c.name.as_str())
                .collect();
            (t, columns)
        })
        .filter(|(_, columns): &(_, Vec<&str>)| !columns.is_empty())
        .collect();
    tables.sort_by_key(|(t, _)| t.row_count.map_or(u64::MAX, row_count_number));
    tables
}

fn row_count_number(count: crate::engine::RowCount) -> u64 {
    use crate::engine::RowCount;
    match count {
        RowCount::Exact(n) | RowCount::MoreThan(n) | RowCount::Estimated(n) => n,
    }
}

/// Why a query of the build gave no rows.
enum Failed {
    /// A bound stopped the build.
    Stopped(Cut),
    /// The query failed; the build goes on without what it would have read.
    Unreadable(DbError),
}

/// A build in progress.
struct Build<'a> {
    index: ValueIndex,
    bounds: &'a Bounds,
    clock: &'a dyn Clock,
    started_ms: f64,
    scanned: Scanned,
    seeks: u64,
    /// What the database reported reading, when it reports it.
    bytes_read: Option<u64>,
}

impl Build<'_> {
    /// Runs one query of the build, unless the time is up.
    async fn run<D: Database + ?Sized>(
        &mut self,
        db: &D,
        sql: &str,
        values: &[Value],
    ) -> Result<QueryResult, Failed> {
        if self.clock.now_ms() - self.started_ms >= self.bounds.time_ms {
            return Err(Failed::Stopped(Cut::Time {
                ms: self.bounds.time_ms,
            }));
        }
        let result = if values.is_empty() {
            query(db, sql, &self.bounds.query).await
        } else {
            query_bound(db, sql, values, &self.bounds.query).await
        };
        let result = result.map_err(Failed::Unreadable)?;
        if let Some(reads) = result.reads {
            self.bytes_read = Some(self.bytes_read.unwrap_or(0).saturating_add(reads.bytes));
        }
        Ok(result)
    }

    /// Adds a column's values, unless they would make the index larger than its bound.
    fn add_column(&mut self, table: &str, column: &str, stored: &[String]) -> Result<(), Cut> {
        let values = prepared(stored);
        if values.is_empty() {
            return Ok(());
        }
        let cost = self.index.cost_of(table, column, &values);
        if self.index.bytes.saturating_add(cost) > self.bounds.bytes {
            return Err(Cut::IndexBytes {
                bytes: self.bounds.bytes,
            });
        }
        let number = self.index.push_column_name(table, column);
        for value in values {
            self.index.push_entry(value, number);
        }
        self.scanned.columns += 1;
        self.scanned.values = self.index.entries.len();
        Ok(())
    }

    fn unreadable(&mut self, table: String, error: DbError) {
        self.scanned.unreadable.push(Unreadable {
            table,
            why: error.to_string(),
        });
    }

    // ---- Sample: each table's first rows, in memory ----

    async fn sample_tables<D: Database + ?Sized>(
        &mut self,
        db: &D,
        schema: &Schema,
        rows_per_table: u64,
    ) -> Coverage {
        let tables = tables_to_read(schema);
        let mut sampled = Vec::new();
        for (done, (table, columns)) in tables.iter().enumerate() {
            let left = tables.len() - done;
            let sample = match self.sample_table(db, table, columns, rows_per_table).await {
                Ok(sample) => sample,
                Err(Failed::Unreadable(error)) => {
                    self.unreadable(table.name.clone(), error);
                    continue;
                }
                Err(Failed::Stopped(cut)) => {
                    let before = sampled_coverage(rows_per_table, &sampled, &self.scanned);
                    return cut_short(cut, table.name.clone(), left, before);
                }
            };
            self.scanned.tables += 1;
            if sample.rows >= rows_per_table {
                sampled.push(table.name.clone());
            }
            for (column, values) in &sample.columns {
                if let Err(cut) = self.add_column(&table.name, column, values) {
                    let before = sampled_coverage(rows_per_table, &sampled, &self.scanned);
                    return cut_short(cut, format!("{}.{column}", table.name), left, before);
                }
            }
        }
        sampled_coverage(rows_per_table, &sampled, &self.scanned)
    }

    /// The distinct text values of those of `columns` that qualify, in the first `rows` rows
    /// of `table`: one query for as many columns as the row cap allows (see [`sample_sql`]).
    async fn sample_table<'c, D: Database + ?Sized>(
        &mut self,
        db: &D,
        table: &Table,
        columns: &[&'c str],
        rows: u64,
    ) -> Result<TableSample<'c>, Failed> {
        let mut sample = TableSample {
            rows: 0,
            columns: Vec::new(),
        };
        for group in columns.chunks(columns_per_query(self.bounds.query.max_rows)) {
            let result = self
                .run(db, &sample_sql(&table.name, group, rows), &[])
                .await?;
            let read = read_sample(&result, group);
            sample.rows = sample.rows.max(read.rows);
            sample.columns.extend(read.columns);
        }
        Ok(sample)
    }

    // ---- IndexedOnly: seeking the indexes that sqlite_stat1 says hold few values ----

    async fn seek_indexed_columns<D: Database + ?Sized>(
        &mut self,
        db: &D,
        schema: &Schema,
        byte_budget: u64,
    ) -> Coverage {
        let leading = match self.leading_columns(db).await {
            Ok(Some(result)) => result,
            Ok(None) => return Coverage::Skipped(NO_STATISTICS.into()),
            Err(Failed::Unreadable(error)) => {
                return Coverage::Skipped(format!(
                    "SQLite's statistics (sqlite_stat1) could not be read ({error})"
                ))
            }
            Err(Failed::Stopped(cut)) => {
                return cut_short(cut, "sqlite_stat1".into(), 1, self.indexed_coverage())
            }
        };
        let columns = seekable_columns(schema, &leading);
        let mut tables_read = HashSet::new();
        for (done, column) in columns.iter().enumerate() {
            let left = columns.len() - done;
            let at = format!("{}.{}", column.table, column.column);
            let values = match self.seek_values(db, column, byte_budget).await {
                Ok(values) => values,
                Err(Failed::Unreadable(error)) => {
                    self.unreadable(at, error);
                    continue;
                }
                Err(Failed::Stopped(cut)) => {
                    return cut_short(cut, at, left, self.indexed_coverage());
                }
            };
            if tables_read.insert(column.table.to_ascii_lowercase()) {
                self.scanned.tables += 1;
            }
            if let Some(values) = values {
                if let Err(cut) = self.add_column(&column.table, &column.column, &values) {
                    return cut_short(cut, at, left, self.indexed_coverage());
                }
            }
        }
        self.indexed_coverage()
    }

    /// Each index's leading column, with its collation and `sqlite_stat1`'s figures; `None`
    /// when the database has no `sqlite_stat1`.
    async fn leading_columns<D: Database + ?Sized>(
        &mut self,
        db: &D,
    ) -> Result<Option<QueryResult>, Failed> {
        let present = self.run(db, STAT1_PRESENT_SQL, &[]).await?;
        if present.rows.is_empty() {
            return Ok(None);
        }
        self.run(db, LEADING_COLUMNS_SQL, &[]).await.map(Some)
    }

    /// The column's text values, seeking its index one value at a time; `None` when it holds
    /// more than [`MAX_DISTINCT`] of them or a longer one than [`MAX_VALUE_CHARS`].
    async fn seek_values<D: Database + ?Sized>(
        &mut self,
        db: &D,
        column: &Seekable,
        byte_budget: u64,
    ) -> Result<Option<Vec<String>>, Failed> {
        let sql = seek_sql(column);
        let mut values = Vec::new();
        let mut after = String::new();
        loop {
            if let Some(cut) = self.over_read_budget(byte_budget) {
                return Err(Failed::Stopped(cut));
            }
            self.seeks += 1;
            let result = self.run(db, &sql, &[Value::Text(after)]).await?;
            // After the last text value come blobs, or nothing.
            let Some(Value::Text(next)) = result.rows.into_iter().next().and_then(first) else {
                return Ok(Some(values));
            };
            if values.len() == MAX_DISTINCT || next.trim().chars().count() > MAX_VALUE_CHARS {
                return Ok(None);
            }
            values.push(next.clone());
            after = next;
        }
    }

    fn over_read_budget(&self, byte_budget: u64) -> Option<Cut> {
        match self.bytes_read {
            Some(bytes) if bytes >= byte_budget => Some(Cut::ReadBytes { bytes: byte_budget }),
            Some(_) => None,
            None => {
                let seeks = byte_budget / ASSUMED_BYTES_PER_SEEK;
                (self.seeks >= seeks).then_some(Cut::Seeks { seeks })
            }
        }
    }

    fn indexed_coverage(&self) -> Coverage {
        Coverage::IndexedOnly {
            seeks: self.seeks,
            bytes_read: self.bytes_read,
            scanned: self.scanned.clone(),
        }
    }
}

fn first(row: Vec<Value>) -> Option<Value> {
    row.into_iter().next()
}

fn cut_short(by: Cut, at: String, left: usize, before: Coverage) -> Coverage {
    Coverage::CutShort {
        by,
        at,
        left,
        before: Box::new(before),
    }
}

fn sampled_coverage(rows_per_table: u64, sampled: &[String], scanned: &Scanned) -> Coverage {
    if sampled.is_empty() {
        Coverage::Full(scanned.clone())
    } else {
        Coverage::Sampled {
            rows_per_table,
            sampled: sampled.to_vec(),
            scanned: scanned.clone(),
        }
    }
}

/// What was read of one table: how many rows, and each qualifying column's distinct values.
struct TableSample<'c> {
    rows: u64,
    columns: Vec<(&'c str, Vec<String>)>,
}

/// A text value longer than this is never sent, however short it is trimmed: the padding of a
/// `CHAR(n)` column (n is at most 255 in practice) fits, a page of spaces does not.
const MAX_STORED_CHARS: usize = 1_000;

/// How many columns one sampling query may read: each sends at most [`MAX_DISTINCT`] + 1 rows
/// (one more tells that there are too many), besides the one row that counts.
fn columns_per_query(max_rows: usize) -> usize {
    const MOST: usize = 50;
    (max_rows.saturating_sub(1) / (MAX_DISTINCT + 1)).clamp(1, MOST)
}

/// One query for a group of a table's columns, measured against per-column queries and against
/// two queries a table (counts first, then only the values of the columns that qualify): as
/// fast as the first in fewer queries, and twice as fast as the second (see the module's
/// tests). Its rows are `(-1, NULL, rows read)`, then for each column `i` and each distinct
/// non-null value among the first `rows` rows, at most [`MAX_DISTINCT`] + 1 of them,
/// `(i, the value if it is short text else NULL, whether it is text too long)`:
///
/// ```sql
/// SELECT -1, NULL, count(*) FROM (SELECT a, b FROM t LIMIT 10000)
/// UNION ALL SELECT * FROM (SELECT 0, CASE WHEN <a is short text> THEN a END, <a is long text>
///     FROM (SELECT a FROM t LIMIT 10000) WHERE a IS NOT NULL GROUP BY a LIMIT 251)
/// UNION ALL …
/// ```
fn sample_sql(table: &str, columns: &[&str], rows: u64) -> String {
    let mut parts = vec![format!(
        "SELECT -1, NULL, count(*) FROM ({})",
        first_rows_sql(table, columns, rows)
    )];
    for (i, column) in columns.iter().enumerate() {
        let c = ident(column);
        let is_text = format!("typeof({c}) = 'text'");
        let fits =
            format!("length({c}) <= {MAX_STORED_CHARS} AND length(trim({c})) <= {MAX_VALUE_CHARS}");
        parts.push(format!(
            "SELECT * FROM (SELECT {i}, CASE WHEN {is_text} AND {fits} THEN {c} END, \
             {is_text} AND NOT ({fits}) FROM ({}) WHERE {c} IS NOT NULL GROUP BY {c} LIMIT {})",
            first_rows_sql(table, &[column], rows),
            MAX_DISTINCT + 1
        ));
    }
    parts.join(" UNION ALL ")
}

fn first_rows_sql(table: &str, columns: &[&str], rows: u64) -> String {
    let names: Vec<String> = columns.iter().map(|c| ident(c)).collect();
    format!(
        "SELECT {} FROM {} LIMIT {rows}",
        names.join(", "),
        ident(table)
    )
}

/// What one column's rows of a [`sample_sql`] answer hold.
#[derive(Default)]
struct ColumnRead {
    distinct: usize,
    too_long: bool,
    texts: Vec<String>,
}

impl ColumnRead {
    /// Some text, few distinct values, none too long.
    fn qualifies(&self) -> bool {
        !self.texts.is_empty() && self.distinct <= MAX_DISTINCT && !self.too_long
    }
}

/// The rows read and the qualifying columns' text values from a [`sample_sql`] answer. An
/// answer cut by a row cap holds only part of some column: then no column of it is kept.
fn read_sample<'c>(result: &QueryResult, columns: &[&'c str]) -> TableSample<'c> {
    let mut rows = 0;
    let mut read: Vec<ColumnRead> = columns.iter().map(|_| ColumnRead::default()).collect();
    for row in &result.rows {
        let (Some(Value::Integer(i)), Some(value), Some(flag)) =
            (row.first(), row.get(1), row.get(2))
        else {
            continue;
        };
        if *i == -1 {
            rows = number(Some(flag));
            continue;
        }
        let Some(column) = usize::try_from(*i).ok().and_then(|i| read.get_mut(i)) else {
            continue;
        };
        column.distinct += 1;
        column.too_long |= number(Some(flag)) != 0;
        match value {
            Value::Text(text) if text.trim().chars().count() <= MAX_VALUE_CHARS => {
                column.texts.push(text.clone());
            }
            Value::Text(_) => column.too_long = true,
            _ => {}
        }
    }
    let columns = if result.truncated {
        Vec::new()
    } else {
        columns
            .iter()
            .zip(read)
            .filter(|(_, read)| read.qualifies())
            .map(|(name, read)| (*name, read.texts))
            .collect()
    };
    TableSample { rows, columns }
}

/// A non-negative integer from the database, 0 for anything else.
fn number(value: Option<&Value>) -> u64 {
    match value {
        Some(Value::Integer(n)) => u64::try_from(*n).unwrap_or(0),
        _ => 0,
    }
}

const NO_STATISTICS: &str = "the database has no statistics (sqlite_stat1, written by ANALYZE) \
     to tell which columns hold few values, and finding out would mean reading its tables";

const STAT1_PRESENT_SQL: &str =
    "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'sqlite_stat1'";

/// Each complete (not partial) index's leading column, its collation, and `sqlite_stat1`'s
/// figures for the index ("rows rows-per-value …").
const LEADING_COLUMNS_SQL: &str = "SELECT s.tbl, x.name, x.coll, s.stat \
     FROM sqlite_stat1 AS s \
     JOIN pragma_index_list(s.tbl) AS l ON l.name = s.idx \
     JOIN pragma_index_xinfo(s.idx) AS x ON x.seqno = 0 \
     WHERE l.partial = 0 AND x.name IS NOT NULL \
     ORDER BY s.tbl, x.name";

/// A column to read by seeking its index.
#[derive(Debug, PartialEq)]
struct Seekable {
    table: String,
    column: String,
    /// The index's collation, which the seek must compare with for SQLite to use the index.
    collation: &'static str,
}

/// The columns of `schema`'s tables that lead an index, are text-like, and hold at most
/// [`MAX_DISTINCT`] values by `sqlite_stat1`'s figures, each once, fewest values first; names
/// as the schema writes them.
fn seekable_columns(schema: &Schema, leading: &QueryResult) -> Vec<Seekable> {
    let mut found: Vec<(u64, Seekable)> = Vec::new();
    for row in &leading.rows {
        let [Value::Text(table), Value::Text(column), Value::Text(coll), Value::Text(stat)] =
            row.as_slice()
        else {
            continue;
        };
        let Some(table) = schema.table(table).filter(|t| t.kind == TableKind::Table) else {
            continue;
        };
        let Some(column) = table.column(column).filter(|c| text_like(&c.decl_type)) else {
            continue;
        };
        let (Some(collation), Some(distinct)) = (builtin_collation(coll), distinct_in(stat)) else {
            continue;
        };
        let seekable = Seekable {
            table: table.name.clone(),
            column: column.name.clone(),
            collation,
        };
        let known = found.iter().any(|(_, s)| {
            s.table == seekable.table && s.column.eq_ignore_ascii_case(&seekable.column)
        });
        if distinct <= MAX_DISTINCT as u64 && !known {
            found.push((distinct, seekable));
        }
    }
    found.sort_by_key(|(distinct, _)| *distinct);
    found.into_iter().map(|(_, s)| s).collect()
}

/// SQLite's own collations, written from this list (never from the database's text).
fn builtin_collation(name: &str) -> Option<&'static str> {
    ["BINARY", "NOCASE", "RTRIM"]
        .into_iter()
        .find(|builtin| builtin.eq_ignore_ascii_case(name))
}

/// The distinct values of an index's leading column by its `sqlite_stat1` figures: its rows
/// over the rows per value. `None` for an empty index or figures that do not read.
fn distinct_in(stat: &str) -> Option<u64> {
    let mut figures = stat.split_whitespace().map(|f| f.parse::<u64>().ok());
    let rows = figures.next()??;
    let per_value = figures.next()??;
    (rows > 0 && per_value > 0).then(|| rows.div_ceil(per_value))
}

/// The next text value after `?1` in the index's order: text sorts after numbers, so starting
/// from `''` skips them. The comparison and the order use the index's collation, so that SQLite
/// seeks the index (a column declared `COLLATE NOCASE` has a `NOCASE` index); with another
/// collation it would scan the index whole. SQLite plans `min(c) … WHERE c > ?1` as the same
/// one-row seek; `ORDER BY … LIMIT 1` says outright that one row is wanted.
fn seek_sql(column: &Seekable) -> String {
    let c = ident(&column.column);
    let coll = column.collation;
    format!(
        "SELECT {c} FROM {} WHERE {c} COLLATE {coll} > ?1 ORDER BY {c} COLLATE {coll} LIMIT 1",
        ident(&column.table)
    )
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

    #[test]
    fn declared_types_are_read_by_sqlites_affinity_rules() {
        for text in [
            "TEXT",
            "VARCHAR(20)",
            "CHAR(20)",
            "CLOB",
            "NVARCHAR(40)",
            "VARCHAR2(4)",
        ] {
            assert!(text_like(text), "{text}");
        }
        for other in ["", "STRING", "BLOB SUB_TYPE TEXT"] {
            assert!(text_like(other), "{other}");
        }
        for number in [
            "INTEGER",
            "INT",
            "SMALLINT",
            "NUMBER",
            "NUMERIC(10,2)",
            "DECIMAL(4,2)",
            "REAL",
            "DOUBLE",
            "FLOAT",
            "BLOB",
            "DATE",
            "DATETIME",
            "TIMESTAMP",
            "BOOLEAN",
        ] {
            assert!(!text_like(number), "{number}");
        }
    }

    #[test]
    fn within_keeps_only_what_the_schema_shows() {
        let index = index_of(&[
            ("category", "name", &["Horror"]),
            ("staff", "password", &["Horror"]),
            ("secret", "name", &["Horror"]),
        ]);
        assert_eq!(index.hits("horror", 10).len(), 3);
        let mut staff = Table::of_text_columns("Staff", TableKind::Table, &["first_name"]);
        staff.columns[0].name = "first_name".into();
        let schema = Schema {
            tables: vec![
                Table::of_text_columns("CATEGORY", TableKind::Table, &["Name"]),
                staff,
            ],
        };
        let seen = index.within(&schema);
        assert_eq!(shown(&seen, "horror"), ["category.name has 'Horror'"]);
        assert_eq!(seen.len(), 1);
        assert!(seen.bytes() < index.bytes());
    }

    #[test]
    fn coverage_reads_as_a_sentence() {
        let scanned = Scanned {
            tables: 2,
            columns: 3,
            values: 40,
            unreadable: vec![Unreadable {
                table: "gone".into(),
                why: "SQLite error: no such table: gone".into(),
            }],
        };
        let sampled = Coverage::Sampled {
            rows_per_table: 1_000,
            sampled: vec!["a".into(), "b".into(), "c".into(), "d".into()],
            scanned: scanned.clone(),
        };
        assert_eq!(
            sampled.sentence(),
            "40 values of 3 columns in 2 tables indexed; of a, b, c and 1 more only the first \
             1,000 rows were read. Not read: gone (SQLite error: no such table: gone)."
        );
        let cut = cut_short(Cut::Time { ms: 500.0 }, "rental".into(), 4, sampled);
        assert_eq!(
            cut.to_string(),
            "40 values of 3 columns in 2 tables indexed; of a, b, c and 1 more only the first \
             1,000 rows were read; then the time bound of 500 ms stopped it at rental (4 more \
             not read). Not read: gone (SQLite error: no such table: gone)."
        );
        assert_eq!(
            Coverage::IndexedOnly {
                seeks: 1,
                bytes_read: Some(12_000),
                scanned: Scanned::default()
            }
            .sentence(),
            "0 values of 0 columns in 0 tables indexed from the columns that lead an index and \
             that SQLite's statistics (sqlite_stat1) say hold few values, by 1 seek of their \
             index (12 KB read)."
        );
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

#[cfg(all(test, not(target_arch = "wasm32")))]
mod on_files {
    use super::*;
    use crate::engine::native::RusqliteDb;
    use crate::engine::{schema, ReadOnlySql, ReadStats};
    use futures::executor::block_on;
    use futures::future::LocalBoxFuture;
    use std::cell::Cell;
    use std::path::{Path, PathBuf};

    /// A clock that moves `step` milliseconds each time it is read.
    struct Ticking {
        now: Cell<f64>,
        step: f64,
    }

    impl Ticking {
        fn still() -> Ticking {
            Ticking::by(0.0)
        }

        fn by(step: f64) -> Ticking {
            Ticking {
                now: Cell::new(0.0),
                step,
            }
        }
    }

    impl Clock for Ticking {
        fn now_ms(&self) -> f64 {
            let now = self.now.get();
            self.now.set(now + self.step);
            now
        }

        fn sleep(&self, _ms: u32) -> LocalBoxFuture<'static, ()> {
            Box::pin(async {})
        }
    }

    fn dataset(relative: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/datasets")
            .join(relative)
    }

    fn open(relative: &str) -> RusqliteDb {
        RusqliteDb::open(&dataset(relative)).expect("the dataset opens")
    }

    fn schema_of<D: Database>(db: &D) -> Schema {
        block_on(schema::load(db, &QueryLimits::default())).expect("the schema loads")
    }

    const SAMPLE: IndexPlan = IndexPlan::Sample {
        rows_per_table: 10_000,
    };

    fn build_with<D: Database>(
        db: &D,
        plan: &IndexPlan,
        bounds: &Bounds,
        clock: &Ticking,
    ) -> ValueIndex {
        block_on(ValueIndex::build(db, &schema_of(db), plan, bounds, clock))
    }

    fn build<D: Database>(db: &D, plan: &IndexPlan) -> ValueIndex {
        build_with(db, plan, &Bounds::default(), &Ticking::still())
    }

    fn shown(index: &ValueIndex, question: &str) -> Vec<String> {
        index
            .hits(question, 10)
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    fn columns_of(index: &ValueIndex) -> Vec<String> {
        index
            .columns
            .iter()
            .map(|(t, c)| format!("{t}.{c}"))
            .collect()
    }

    /// A file in the temporary directory, removed when dropped.
    struct TempFile(PathBuf);

    impl TempFile {
        fn new(name: &str) -> TempFile {
            let path =
                std::env::temp_dir().join(format!("askdb-values-{}-{name}.db", std::process::id()));
            let _ = std::fs::remove_file(&path);
            TempFile(path)
        }

        /// A database made by `script`, opened read-only.
        fn made_by(name: &str, script: &str) -> (TempFile, RusqliteDb) {
            let file = TempFile::new(name);
            let writer = rusqlite::Connection::open(&file.0).expect("a temporary database");
            writer.execute_batch(script).expect("the script runs");
            drop(writer);
            let db = RusqliteDb::open(&file.0).expect("it opens");
            (file, db)
        }

        /// A copy of a dataset with `ANALYZE` run on it, opened read-only.
        fn analyzed(relative: &str, name: &str) -> (TempFile, RusqliteDb) {
            let file = TempFile::new(name);
            std::fs::copy(dataset(relative), &file.0).expect("the dataset copies");
            let writer = rusqlite::Connection::open(&file.0).expect("the copy opens");
            writer.execute_batch("ANALYZE").expect("ANALYZE runs");
            drop(writer);
            let db = RusqliteDb::open(&file.0).expect("it opens");
            (file, db)
        }
    }

    impl Drop for TempFile {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(&self.0);
        }
    }

    #[test]
    fn sakilas_categories_and_padded_languages_are_found() {
        let index = build(&open("sakila/sakila.db"), &SAMPLE);
        assert_eq!(
            shown(&index, "How many Horror films are in English?"),
            [
                "language.name has 'English             '",
                "category.name has 'Horror'"
            ]
        );
        let Coverage::Full(scanned) = index.coverage() else {
            panic!("{:?}", index.coverage());
        };
        assert!(scanned.unreadable.is_empty());
        // Views are not read; titles are too many, descriptions too long, years numbers.
        let columns = columns_of(&index);
        for left_out in [
            "film.title",
            "film.description",
            "film.release_year",
            "customer.email",
            "film_list.category",
        ] {
            assert!(
                !columns.contains(&left_out.to_string()),
                "{left_out}: {columns:?}"
            );
        }
        assert!(columns.contains(&"film.rating".to_string()), "{columns:?}");
    }

    #[test]
    fn a_value_shared_by_two_columns_gives_a_hit_for_each() {
        let index = build(&open("northwind/northwind.db"), &SAMPLE);
        assert_eq!(
            shown(
                &index,
                "Which suppliers in Germany ship to customers in Germany?"
            ),
            // Smaller tables first, where the values are alike.
            [
                "Suppliers.Country has 'Germany'",
                "Customers.Country has 'Germany'",
                "Orders.ShipCountry has 'Germany'"
            ]
        );
        assert_eq!(
            shown(&index, "orders shipped by speedy express"),
            ["Shippers.CompanyName has 'Speedy Express'"]
        );
    }

    #[test]
    fn tokyo_is_found_in_english_and_in_japanese() {
        let english = build(&open("shop/shop.db"), &SAMPLE);
        assert_eq!(
            shown(&english, "How many customers are in Tokyo?"),
            ["customers.prefecture has 'Tokyo'"]
        );
        let japanese = build(&open("shop_ja/shop_ja.db"), &SAMPLE);
        assert_eq!(
            shown(&japanese, "東京都の顧客は何人？"),
            ["customers.prefecture has '東京都'"]
        );
    }

    #[test]
    fn only_short_text_values_of_columns_with_few_of_them_are_indexed() {
        let (_file, db) = TempFile::made_by(
            "rules",
            "CREATE TABLE t (kind TEXT, long_text TEXT, many TEXT, level INTEGER, \
                 digits TEXT, loose, loose_numbers, picture BLOB, label STRING); \
             WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300) \
             INSERT INTO t SELECT CASE i % 2 WHEN 0 THEN 'Alpha' ELSE 'Beta' END, \
                 CASE i WHEN 7 THEN 'Gamma ' || printf('%.60c', 'x') ELSE 'Gamma' END, \
                 'Item ' || i, CASE i % 2 WHEN 0 THEN 'Low' ELSE 'High' END, \
                 CAST(i % 3 AS TEXT), CASE i % 2 WHEN 0 THEN 'Red' ELSE 'Blue' END, \
                 i % 2, CAST('Pink' AS BLOB), 'Lime' FROM n; \
             CREATE VIEW v AS SELECT kind AS shade FROM t;",
        );
        let index = build(&db, &SAMPLE);
        assert_eq!(columns_of(&index), ["t.kind", "t.loose", "t.label"]);
        assert_eq!(
            shown(&index, "alpha or red lime, gamma high item 7 pink"),
            [
                "t.kind has 'Alpha'",
                "t.label has 'Lime'",
                "t.loose has 'Red'"
            ]
        );
    }

    #[test]
    fn a_table_that_cannot_be_read_is_left_out_and_said() {
        let db = open("shop/shop.db");
        let mut schema = schema_of(&db);
        // Read first (it looks the smallest), so that the build is seen to go on after it.
        let mut gone = Table::of_text_columns("gone", TableKind::Table, &["name"]);
        gone.row_count = Some(crate::engine::RowCount::Exact(0));
        schema.tables.push(gone);
        let index = block_on(ValueIndex::build(
            &db,
            &schema,
            &SAMPLE,
            &Bounds::default(),
            &Ticking::still(),
        ));
        let Coverage::Full(scanned) = index.coverage() else {
            panic!("{:?}", index.coverage());
        };
        assert_eq!(scanned.unreadable.len(), 1, "{scanned:?}");
        assert_eq!(scanned.unreadable[0].table, "gone");
        assert!(index
            .coverage()
            .sentence()
            .contains("Not read: gone (SQLite error"));
        assert_eq!(
            shown(&index, "customers in Tokyo"),
            ["customers.prefecture has 'Tokyo'"]
        );
    }

    #[test]
    fn sampled_tables_are_named_in_the_coverage() {
        let index = build(
            &open("sakila/sakila.db"),
            &IndexPlan::Sample {
                rows_per_table: 500,
            },
        );
        let Coverage::Sampled { sampled, .. } = index.coverage() else {
            panic!("{:?}", index.coverage());
        };
        for big in ["address", "city", "customer", "film"] {
            assert!(sampled.contains(&big.to_string()), "{big}: {sampled:?}");
        }
        assert!(!sampled.contains(&"category".to_string()));
        assert!(index
            .coverage()
            .sentence()
            .contains("only the first 500 rows were read"));
    }

    #[test]
    fn the_time_bound_stops_the_build_and_says_where() {
        let db = open("sakila/sakila.db");
        let bounds = Bounds {
            time_ms: 6.0,
            ..Bounds::default()
        };
        // One millisecond a query: the sixth does not start.
        let index = build_with(&db, &SAMPLE, &bounds, &Ticking::by(1.0));
        let Coverage::CutShort {
            by,
            at,
            left,
            before,
        } = index.coverage()
        else {
            panic!("{:?}", index.coverage());
        };
        assert_eq!(*by, Cut::Time { ms: 6.0 });
        assert!(*left > 0);
        let Coverage::Full(read) = before.as_ref() else {
            panic!("{before:?}");
        };
        assert!(read.tables > 0 && !index.is_empty());
        // Nothing of the table it stopped at, nor after it.
        assert!(index.columns.iter().all(|(t, _)| t != at), "{at}");
        let whole = build(&db, &SAMPLE);
        assert!(whole.len() > index.len());
        assert!(index
            .coverage()
            .sentence()
            .contains(&format!("stopped it at {at}")));
    }

    #[test]
    fn the_byte_bound_stops_the_build_and_says_where() {
        let db = open("sakila/sakila.db");
        let whole = build(&db, &SAMPLE);
        let bounds = Bounds {
            bytes: whole.bytes() / 2,
            ..Bounds::default()
        };
        let index = build_with(&db, &SAMPLE, &bounds, &Ticking::still());
        let Coverage::CutShort { by, at, .. } = index.coverage() else {
            panic!("{:?}", index.coverage());
        };
        assert_eq!(
            *by,
            Cut::IndexBytes {
                bytes: bounds.bytes
            }
        );
        assert!(index.bytes() <= bounds.bytes && index.bytes() > 0);
        assert!(!columns_of(&index).contains(at), "{at}");
        assert!(at.contains('.'), "a table and its column: {at}");
    }

    #[test]
    fn indexed_only_without_statistics_is_skipped_with_why() {
        let index = build(
            &open("sakila/sakila.db"),
            &IndexPlan::IndexedOnly {
                byte_budget: 1_000_000,
            },
        );
        assert!(index.is_empty());
        assert_eq!(index.coverage(), &Coverage::Skipped(NO_STATISTICS.into()));
        assert!(index.coverage().sentence().starts_with(
            "No values indexed: the database has no statistics (sqlite_stat1, written by ANALYZE)"
        ));
    }

    #[test]
    fn indexed_only_seeks_the_indexed_columns_with_few_values() {
        let (_file, db) = TempFile::analyzed("mondial/mondial.db", "seeks");
        let plan = IndexPlan::IndexedOnly {
            byte_budget: 100_000_000,
        };
        let index = build(&db, &plan);
        assert_eq!(
            shown(&index, "Which Buddhist countries are in Europe?"),
            [
                "Religion.Name has 'Buddhist'",
                "Continent.Name has 'Europe'"
            ]
        );
        let Coverage::IndexedOnly {
            seeks,
            bytes_read: None,
            scanned,
        } = index.coverage()
        else {
            panic!("{:?}", index.coverage());
        };
        // Each column sought once per value, and once more to find the end: the five continents
        // in six seeks.
        let continents: Vec<ValueHit> = index
            .hits("Africa, America, Asia, Australia/Oceania, Europe", 10)
            .into_iter()
            .filter(|hit| hit.table == "Continent")
            .collect();
        assert_eq!(continents.len(), 5, "{continents:?}");
        let columns = columns_of(&index);
        assert!(*seeks as usize >= index.len() + columns.len(), "{seeks}");
        assert_eq!(scanned.columns, columns.len());
        // Not even sought: thousands of cities by the statistics.
        let leading = block_on(query(&db, LEADING_COLUMNS_SQL, &QueryLimits::default())).unwrap();
        let sought: Vec<String> = seekable_columns(&schema_of(&db), &leading)
            .into_iter()
            .map(|s| format!("{}.{}", s.table, s.column))
            .collect();
        assert!(sought.contains(&"Religion.Name".to_string()), "{sought:?}");
        assert!(!sought.contains(&"City.Name".to_string()), "{sought:?}");
        assert!(!columns.contains(&"City.Name".to_string()), "{columns:?}");
        assert!(index
            .coverage()
            .sentence()
            .contains("the database does not report its reads"));

        // A seek reads the index, not the table.
        let seek = seek_sql(&Seekable {
            table: "Religion".into(),
            column: "Name".into(),
            collation: "BINARY",
        });
        let plan: String = db
            .connection()
            .prepare(&format!("EXPLAIN QUERY PLAN {seek}"))
            .unwrap()
            .query_map(["x"], |row| row.get::<_, String>(3))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert!(plan.contains("USING COVERING INDEX"), "{plan}");
        assert!(plan.contains("Name>?"), "{plan}");
    }

    #[test]
    fn an_indexed_column_with_more_values_than_its_statistics_say_is_left_out() {
        // Statistics that put 300 names at 100 (out of date, or written by hand).
        let (_file, db) = TempFile::made_by(
            "stale",
            "CREATE TABLE people (name TEXT, team TEXT); \
             CREATE INDEX people_name ON people (name); \
             CREATE INDEX people_team ON people (team); \
             WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300) \
             INSERT INTO people SELECT 'Person ' || i, 'Team ' || (i % 3) FROM n; \
             ANALYZE; \
             UPDATE sqlite_stat1 SET stat = '300 3' WHERE idx = 'people_name';",
        );
        let index = build(
            &db,
            &IndexPlan::IndexedOnly {
                byte_budget: u64::MAX,
            },
        );
        assert_eq!(columns_of(&index), ["people.team"]);
        let Coverage::IndexedOnly { seeks, .. } = index.coverage() else {
            panic!("{:?}", index.coverage());
        };
        // Team: three values and the end; name: one more than the limit, then given up.
        assert_eq!(*seeks, 4 + MAX_DISTINCT as u64 + 1);
    }

    /// A database that reports `bytes` read by each query, as one read on demand does.
    struct Reporting {
        db: RusqliteDb,
        bytes: u64,
    }

    impl Database for Reporting {
        async fn run(
            &self,
            sql: &ReadOnlySql,
            values: &[Value],
            limits: &QueryLimits,
        ) -> Result<QueryResult, DbError> {
            let mut result = self.db.run(sql, values, limits).await?;
            result.reads = Some(ReadStats {
                bytes: self.bytes,
                requests: 1,
                waited_ms: None,
            });
            Ok(result)
        }
    }

    #[test]
    fn indexed_only_stops_at_its_read_budget() {
        let (_file, db) = TempFile::analyzed("mondial/mondial.db", "budget");
        let reporting = Reporting { db, bytes: 1_000 };
        let plan = IndexPlan::IndexedOnly {
            byte_budget: 20_000,
        };
        let index = build(&reporting, &plan);
        let Coverage::CutShort { by, at, before, .. } = index.coverage() else {
            panic!("{:?}", index.coverage());
        };
        assert_eq!(*by, Cut::ReadBytes { bytes: 20_000 });
        assert!(at.contains('.'), "{at}");
        let Coverage::IndexedOnly {
            seeks,
            bytes_read: Some(20_000),
            ..
        } = before.as_ref()
        else {
            panic!("{before:?}");
        };
        // Two queries find the statistics; each seek reads 1 KB.
        assert_eq!(*seeks, 18);

        // Without reports, the same budget is counted in seeks of 4 KB.
        let Reporting { db, .. } = reporting;
        let plan = IndexPlan::IndexedOnly {
            byte_budget: 10 * ASSUMED_BYTES_PER_SEEK,
        };
        let index = build(&db, &plan);
        let Coverage::CutShort { by, before, .. } = index.coverage() else {
            panic!("{:?}", index.coverage());
        };
        assert_eq!(*by, Cut::Seeks { seeks: 10 });
        assert!(matches!(
            before.as_ref(),
            Coverage::IndexedOnly { seeks: 10, .. }
        ));
    }

    #[test]
    fn a_plan_to_skip_is_said() {
        let index = build(
            &open("shop/shop.db"),
            &IndexPlan::Skip("a Datasette server".into()),
        );
        assert!(index.is_empty());
        assert_eq!(
            index.coverage().sentence(),
            "No values indexed: a Datasette server."
        );
    }
}
