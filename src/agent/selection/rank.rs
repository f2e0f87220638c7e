//! Which tables a question needs, without a model: BM25 (`search::bm25`) with the tables as
//! documents.
//!
//! A table's words sit in four fields, weighted: its name's own words, the prefix it shares
//! with a merged database's other tables, its columns' names, and the notes on it and its
//! columns (notes may be in any language: they are what lets a German or Japanese question
//! find an English-named table). Each word of the question is matched by its singular and, at
//! [`STEM_WEIGHT`], by its stem (see `words`). On top of the words: glossary terms the question
//! uses whose meaning names a table or a distinctive column, worked examples like the question
//! (the tables their SQL reads), and the values the question names (the value index's hits).
//!
//! The best [`TableIndex::pick`]s are completed with the tables on the shortest foreign-key
//! paths between them (a question about rentals and films needs `inventory`, which joins them).
//! Only the schema the index was built from is ever returned: knowledge, hits and keys that
//! name another table bring nothing.

use super::words::{content_words, words, SharedPrefixes, Word};
use crate::engine::Schema;
use crate::knowledge::budget::one_line;
use crate::knowledge::retrieve::{matching_terms, SCORE_FLOOR};
use crate::knowledge::{Knowledge, Term};
use crate::search::bm25::{idf, length_discount, term_score, TextIndex};
use crate::search::fold::fold;
use crate::search::tokens::{contains_phrase, is_word_char};
use crate::sql::analysis::Query;
use std::collections::{HashMap, HashSet, VecDeque};

/// Where in a table a word is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Field {
    Name,
    Prefix,
    Column,
    Note,
}

const FIELDS: usize = 4;

impl Field {
    fn at(self) -> usize {
        self as usize
    }

    /// How much a word in this field says about the table. The name is what a table is about
    /// (`film` for "films"); a column is a detail of it (`film_id` in `inventory`); a note is
    /// worth a column (it describes, but is long and in prose). A merged database's prefix
    /// (`nw`) is shared by all its tables: a hint at most.
    fn weight(self) -> f32 {
        match self {
            Field::Name => 3.0,
            Field::Prefix => 0.5,
            Field::Column => 1.0,
            Field::Note => 1.0,
        }
    }
}

/// A stem match (`rented` for `rental`) counts this much of an exact one. An exact match also
/// matches the stem, so it counts 1 + this.
const STEM_WEIGHT: f32 = 0.5;

/// The boosts beyond words, in units of the idf of a word only one table has (a question word
/// that names one table scores about 2.3 such units, from its name and its stem):
/// a value the question names is in the table's data, the strongest evidence there is…
const VALUE_BOOST: f32 = 2.0;
/// …a glossary term whose meaning names the table was written by someone who knows…
const TERM_BOOST: f32 = 1.5;
/// …and a worked example like the question counts by its similarity (0.1 to 1: see
/// `retrieve::SCORE_FLOOR`): a close paraphrase is worth a value.
const EXAMPLE_BOOST: f32 = 3.0;

/// The worked examples like the question whose tables are boosted.
const MAX_EXAMPLES: usize = 3;

/// A join path brings at most this many tables between two picked ones: enough for a bridge
/// table and one more (`rental` → `inventory` → `film`; `film` → `film_category` →
/// `category`); longer paths are more often wrong than needed, and `describe_table` remains.
pub const MAX_TABLES_BETWEEN: usize = 2;

/// A column named by a glossary meaning boosts its table only when no other table has a
/// column of that name and the name is this long (`id`, `name` name nothing in particular).
const MIN_NAMED_COLUMN_CHARS: usize = 4;

/// Reasons kept per table, strongest first: enough for a person to see why.
const MAX_REASONS: usize = 4;

/// A value of the data that the question names (from the value index).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueMatch {
    pub table: String,
    pub column: String,
    pub value: String,
}

/// A table picked for a question, with its own score (not discounted for words picked
/// tables already cover; 0 for a table on a join path only) and why, strongest first (a path
/// first).
#[derive(Clone, Debug, PartialEq)]
pub struct Picked {
    pub table: String,
    pub score: f32,
    pub why: Vec<Reason>,
}

/// Why a table was picked.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// The question's word (as written) that matched the table's name.
    Name(String),
    /// The question's word that matched a column's name.
    Column { column: String, word: String },
    /// The question's word that matched a note on the table or one of its columns.
    Note(String),
    /// A glossary term the question uses whose meaning names the table.
    Term(String),
    /// A worked example like the question reads the table: the example's question.
    Example(String),
    /// A value the question names is in this column.
    Value { column: String, value: String },
    /// The table joins two picked ones.
    Path { from: String, to: String },
}

/// Longest text of a question, name or value quoted in a reason.
const REASON_TEXT_CHARS: usize = 60;

impl Reason {
    /// The same reason with each text it quotes on one line and cut to a readable length, for
    /// the transcript (`present::transcript` says it: "the word 'film'", "column rental_rate
    /// ('rate')").
    pub fn clipped(&self) -> Reason {
        let clip = |text: &str| one_line(text, REASON_TEXT_CHARS);
        match self {
            Reason::Name(word) => Reason::Name(clip(word)),
            Reason::Column { column, word } => Reason::Column {
                column: clip(column),
                word: clip(word),
            },
            Reason::Note(word) => Reason::Note(clip(word)),
            Reason::Term(term) => Reason::Term(clip(term)),
            Reason::Example(question) => Reason::Example(clip(question)),
            Reason::Value { column, value } => Reason::Value {
                column: clip(column),
                value: clip(value),
            },
            Reason::Path { from, to } => Reason::Path {
                from: clip(from),
                to: clip(to),
            },
        }
    }
}

/// A table's words found in one of its fields.
#[derive(Clone, Debug)]
struct Posting {
    table: u32,
    field: Field,
    count: u32,
    /// For a column's word, the first column that has it.
    column: Option<u32>,
}

#[derive(Clone, Debug)]
struct Entry {
    name: String,
    folded_name: String,
    columns: Vec<String>,
    /// Words per field, for BM25's length discount.
    lengths: [f32; FIELDS],
}

/// The tables of one schema, ready to be ranked for any question: built once per schema and
/// knowledge (the agent keeps it), `pick`ed for each question.
#[derive(Clone, Debug, Default)]
pub struct TableIndex {
    tables: Vec<Entry>,
    /// ASCII-lower-cased name → place in `tables` (SQLite compares names so).
    by_name: HashMap<String, usize>,
    /// Key (a singular, `~` and a stem, or a CJK gram) → where it is, in table order.
    postings: HashMap<String, Vec<Posting>>,
    /// Words per field, averaged over the tables that have any in that field.
    average_lengths: [f32; FIELDS],
    /// Tables joined by a foreign key, either way, in table order.
    neighbours: Vec<Vec<usize>>,
    /// The glossary terms whose meaning names a table, and those tables.
    glossary: Vec<Term>,
    glossary_tables: Vec<Vec<usize>>,
    examples: TextIndex,
    /// For each example (in the index's order), its question and the tables its SQL reads.
    example_tables: Vec<(String, Vec<usize>)>,
}

impl TableIndex {
    pub fn new(schema: &Schema, knowledge: &Knowledge) -> TableIndex {
        let mut index = TableIndex::default();
        for (at, table) in schema.tables.iter().enumerate() {
            index
                .by_name
                .entry(table.name.to_ascii_lowercase())
                .or_insert(at);
        }
        index.add_tables(schema, knowledge);
        index.add_keys(schema);
        index.add_glossary(schema, &knowledge.glossary);
        index.add_examples(knowledge);
        index
    }

    /// The tables `question` most likely needs, best first, each with why: at most `most`
    /// picked by their own score (a table no word, term, example or value touches is not),
    /// each next one the best once the question's words that picked tables' names already
    /// have count for less ([`COVERED_WORD_DISCOUNT`]: "films" does not fill the list with
    /// `film_*` tables while "rented" waits); then the tables on the shortest foreign-key path
    /// between two picked ones, up to [`MAX_TABLES_BETWEEN`] tables between, at most `most`
    /// of them. Ties keep the schema's order. `value_hits` naming a table or column not in
    /// the schema are ignored.
    pub fn pick(&self, question: &str, value_hits: &[ValueMatch], most: usize) -> Vec<Picked> {
        if most == 0 || self.tables.is_empty() {
            return Vec::new();
        }
        let mut tally = Tally::new(self.tables.len());
        self.score_words(question, &mut tally);
        self.score_glossary(question, &mut tally);
        self.score_examples(question, &mut tally);
        self.score_values(value_hits, &mut tally);
        let best = tally.best(most);
        let mut picked: Vec<Picked> = best
            .iter()
            .map(|&at| self.picked(at, &tally, None))
            .collect();
        for (at, path) in self.tables_between(&best, most) {
            picked.push(self.picked(at, &tally, Some(path)));
        }
        picked
    }

    fn resolve(&self, name: &str) -> Option<usize> {
        self.by_name.get(&name.to_ascii_lowercase()).copied()
    }

    /// A unit of boost: the idf of a word that only one table has.
    fn rare_idf(&self) -> f32 {
        idf(self.tables.len(), 1)
    }

    fn add_tables(&mut self, schema: &Schema, knowledge: &Knowledge) {
        let prefixes = SharedPrefixes::find(schema.tables.iter().map(|t| t.name.as_str()));
        let notes = self.notes_by_table(schema, knowledge);
        let mut totals = [0.0f32; FIELDS];
        let mut having = [0usize; FIELDS];
        for (at, table) in schema.tables.iter().enumerate() {
            let mut fields = TableFields::default();
            let name = prefixes.split(&table.name);
            fields.add(&name.strong, Field::Name, None);
            fields.add(&name.weak, Field::Prefix, None);
            for (column_at, column) in table.columns.iter().enumerate() {
                fields.add(&words(&column.name), Field::Column, Some(column_at as u32));
            }
            for note in &notes[at] {
                fields.add(&content_words(note), Field::Note, None);
            }
            for field in 0..FIELDS {
                if fields.lengths[field] > 0.0 {
                    totals[field] += fields.lengths[field];
                    having[field] += 1;
                }
            }
            for (key, field, count, column) in fields.keys {
                self.postings.entry(key).or_default().push(Posting {
                    table: at as u32,
                    field,
                    count,
                    column,
                });
            }
            self.tables.push(Entry {
                name: table.name.clone(),
                folded_name: fold(&table.name),
                columns: table.columns.iter().map(|c| c.name.clone()).collect(),
                lengths: fields.lengths,
            });
        }
        for field in 0..FIELDS {
            self.average_lengths[field] = totals[field] / having[field].max(1) as f32;
        }
    }

    /// The texts of the notes on each table and on its columns. A note on a table or column
    /// the schema does not have (hidden, or knowledge's own) is left out.
    fn notes_by_table<'k>(&self, schema: &Schema, knowledge: &'k Knowledge) -> Vec<Vec<&'k str>> {
        let mut notes = vec![Vec::new(); schema.tables.len()];
        for note in &knowledge.notes {
            let Some(at) = self.resolve(&note.table) else {
                continue;
            };
            let column_known = note
                .column
                .as_deref()
                .is_none_or(|column| schema.tables[at].column(column).is_some());
            if column_known {
                notes[at].push(note.text.as_str());
            }
        }
        notes
    }

    fn add_keys(&mut self, schema: &Schema) {
        self.neighbours = vec![Vec::new(); schema.tables.len()];
        for (from, table) in schema.tables.iter().enumerate() {
            for key in &table.foreign_keys {
                match self.resolve(&key.to_table) {
                    Some(to) if to != from => {
                        self.neighbours[from].push(to);
                        self.neighbours[to].push(from);
                    }
                    _ => {}
                }
            }
        }
        for neighbours in &mut self.neighbours {
            neighbours.sort_unstable();
            neighbours.dedup();
        }
    }

    fn add_glossary(&mut self, schema: &Schema, glossary: &[Term]) {
        let namers = Namers::new(&self.tables, distinctive_columns(schema));
        for term in glossary {
            let tables = namers.tables_named_by(&term.meaning);
            if !tables.is_empty() {
                self.glossary.push(term.clone());
                self.glossary_tables.push(tables);
            }
        }
    }

    fn add_examples(&mut self, knowledge: &Knowledge) {
        self.examples = TextIndex::new(knowledge.examples.iter().map(|e| e.question.as_str()));
        self.example_tables = knowledge
            .examples
            .iter()
            .map(|example| {
                let mut tables: Vec<usize> = Query::read(&example.sql)
                    .tables()
                    .iter()
                    .filter_map(|table| self.resolve(&table.name))
                    .collect();
                tables.sort_unstable();
                tables.dedup();
                (example.question.clone(), tables)
            })
            .collect();
    }

    fn score_words(&self, question: &str, tally: &mut Tally) {
        let mut seen = HashSet::new();
        for (at, word) in content_words(question).iter().enumerate() {
            let stem = word
                .stem
                .as_ref()
                .map(|stem| (format!("~{stem}"), STEM_WEIGHT));
            for (key, weight) in std::iter::once((word.singular.clone(), 1.0)).chain(stem) {
                if seen.insert(key.clone()) {
                    self.score_key(&key, weight, (at, word), tally);
                }
            }
        }
    }

    /// BM25F: a key's weighted counts in a table's fields, each discounted by its field's
    /// length, saturate together.
    fn score_key(&self, key: &str, weight: f32, word: (usize, &Word), tally: &mut Tally) {
        let Some(postings) = self.postings.get(key) else {
            return;
        };
        let groups = || postings.chunk_by(|a, b| a.table == b.table);
        let idf = idf(self.tables.len(), groups().count());
        for group in groups() {
            let mut frequency = 0.0;
            let mut strongest: Option<(f32, &Posting)> = None;
            let in_name = group.iter().any(|posting| posting.field == Field::Name);
            for posting in group {
                let part = self.weighted_count(posting);
                frequency += part;
                if strongest.is_none_or(|(best, _)| part > best) {
                    strongest = Some((part, posting));
                }
            }
            let gain = term_score(weight * idf, frequency, 1.0);
            if let Some((_, posting)) = strongest {
                let reason = self.reason(posting, &word.1.written);
                let table = posting.table as usize;
                tally.add(table, gain, reason);
                tally.add_word(table, word.0, gain, in_name);
            }
        }
    }

    fn weighted_count(&self, posting: &Posting) -> f32 {
        let field = posting.field.at();
        let length = self.tables[posting.table as usize].lengths[field];
        let discount = length_discount(length, self.average_lengths[field]);
        posting.field.weight() * posting.count as f32 / discount
    }

    fn reason(&self, posting: &Posting, written: &str) -> Reason {
        let word = written.to_string();
        match posting.field {
            Field::Name | Field::Prefix => Reason::Name(word),
            Field::Note => Reason::Note(word),
            Field::Column => {
                let column = posting
                    .column
                    .and_then(|c| self.tables[posting.table as usize].columns.get(c as usize));
                match column {
                    Some(column) => Reason::Column {
                        column: column.clone(),
                        word,
                    },
                    None => Reason::Name(word),
                }
            }
        }
    }

    fn score_glossary(&self, question: &str, tally: &mut Tally) {
        let boost = TERM_BOOST * self.rare_idf();
        // `matching_terms` keeps the glossary's order: walk both together.
        let mut at = 0;
        for term in matching_terms(&self.glossary, question) {
            while at < self.glossary.len() && !std::ptr::eq(&self.glossary[at], term) {
                at += 1;
            }
            for &table in self.glossary_tables.get(at).into_iter().flatten() {
                tally.add(table, boost, Reason::Term(term.term.clone()));
            }
        }
    }

    fn score_examples(&self, question: &str, tally: &mut Tally) {
        let unit = EXAMPLE_BOOST * self.rare_idf();
        for found in self.examples.search(question, MAX_EXAMPLES, SCORE_FLOOR) {
            let Some((example, tables)) = self.example_tables.get(found.index) else {
                continue;
            };
            for &table in tables {
                tally.add(table, unit * found.score, Reason::Example(example.clone()));
            }
        }
    }

    /// Each table with a hit gets one boost, however many of its values the question names. A
    /// hit on a table or column the schema does not have is ignored.
    fn score_values(&self, hits: &[ValueMatch], tally: &mut Tally) {
        let boost = VALUE_BOOST * self.rare_idf();
        let mut boosted = HashSet::new();
        for hit in hits {
            let Some(table) = self.resolve(&hit.table) else {
                continue;
            };
            let column = self.tables[table]
                .columns
                .iter()
                .find(|c| c.eq_ignore_ascii_case(&hit.column));
            let Some(column) = column else {
                continue;
            };
            let gain = if boosted.insert(table) { boost } else { 0.0 };
            let reason = Reason::Value {
                column: column.clone(),
                value: hit.value.clone(),
            };
            tally.add(table, gain, reason);
        }
    }

    /// The tables on the shortest foreign-key path between two of `picked` (pairs in their
    /// order), not picked themselves, each with the path it is on: at most `most`, a path
    /// whose tables would not all fit is left out.
    fn tables_between(&self, picked: &[usize], most: usize) -> Vec<(usize, Reason)> {
        let mut taken: HashSet<usize> = picked.iter().copied().collect();
        let mut between = Vec::new();
        for (rank, &from) in picked.iter().enumerate() {
            let parents = self.shortest_paths_from(from);
            for &to in &picked[rank + 1..] {
                let mut new = path_between(&parents, from, to);
                new.retain(|table| !taken.contains(table));
                if between.len() + new.len() > most {
                    continue;
                }
                let path = Reason::Path {
                    from: self.tables[from].name.clone(),
                    to: self.tables[to].name.clone(),
                };
                for table in new {
                    taken.insert(table);
                    between.push((table, path.clone()));
                }
            }
        }
        between
    }

    /// Breadth first from `from`, no further than one edge past [`MAX_TABLES_BETWEEN`]
    /// tables: each table reached, with the table it was reached from.
    fn shortest_paths_from(&self, from: usize) -> HashMap<usize, usize> {
        let mut parents = HashMap::from([(from, from)]);
        let mut queue = VecDeque::from([(from, 0)]);
        while let Some((table, edges)) = queue.pop_front() {
            if edges > MAX_TABLES_BETWEEN {
                continue;
            }
            for &next in &self.neighbours[table] {
                if let std::collections::hash_map::Entry::Vacant(slot) = parents.entry(next) {
                    slot.insert(table);
                    queue.push_back((next, edges + 1));
                }
            }
        }
        parents
    }

    fn picked(&self, at: usize, tally: &Tally, path: Option<Reason>) -> Picked {
        let mut why: Vec<Reason> = path.into_iter().collect();
        for reason in tally.reasons_of(at) {
            if !why.contains(&reason) && why.len() < MAX_REASONS {
                why.push(reason);
            }
        }
        Picked {
            table: self.tables[at].name.clone(),
            score: tally.scores[at],
            why,
        }
    }
}

/// The tables strictly between `from` and `to` on the path `parents` found, from `from`'s
/// side; none when `to` was not reached or is next to `from`.
fn path_between(parents: &HashMap<usize, usize>, from: usize, to: usize) -> Vec<usize> {
    let Some(&first) = parents.get(&to).filter(|_| to != from) else {
        return Vec::new();
    };
    let mut between = Vec::new();
    let mut at = first;
    while at != from {
        if between.len() == MAX_TABLES_BETWEEN {
            return Vec::new();
        }
        between.push(at);
        match parents.get(&at) {
            Some(&parent) => at = parent,
            None => return Vec::new(),
        }
    }
    between.reverse();
    between
}

/// What a text (a glossary meaning) can name a table by: its name, or a column only it has.
struct Namers {
    /// Folded names that are one identifier (letters, digits, `_`) → their tables.
    identifiers: HashMap<String, Vec<usize>>,
    /// Other folded names (with spaces, CJK…), found as phrases.
    phrases: Vec<(String, usize)>,
}

impl Namers {
    fn new(tables: &[Entry], columns: Vec<(String, usize)>) -> Namers {
        let mut namers = Namers {
            identifiers: HashMap::new(),
            phrases: Vec::new(),
        };
        let names = tables
            .iter()
            .enumerate()
            .map(|(at, t)| (t.folded_name.clone(), at));
        for (name, at) in names.chain(columns) {
            if name.is_empty() {
                continue;
            }
            if name.chars().all(is_identifier_char) {
                namers.identifiers.entry(name).or_default().push(at);
            } else {
                namers.phrases.push((name, at));
            }
        }
        namers
    }

    /// The tables `text` names, each once, in the schema's order: a name as a whole identifier
    /// (`customers` is not named by `nw_customers`), a plural `s` or `es` allowed; a name with
    /// spaces or CJK as a phrase.
    fn tables_named_by(&self, text: &str) -> Vec<usize> {
        let folded = fold(text);
        let mut tables = Vec::new();
        for identifier in folded.split(|c: char| !is_identifier_char(c)) {
            let singulars = [identifier.strip_suffix("es"), identifier.strip_suffix('s')];
            for form in std::iter::once(identifier).chain(singulars.into_iter().flatten()) {
                tables.extend(self.identifiers.get(form).into_iter().flatten());
            }
        }
        let phrases = self
            .phrases
            .iter()
            .filter(|(name, _)| contains_phrase(&folded, name));
        tables.extend(phrases.map(|&(_, at)| at));
        tables.sort_unstable();
        tables.dedup();
        tables
    }
}

fn is_identifier_char(c: char) -> bool {
    is_word_char(c) || c == '_'
}

/// Column names (folded) only one table has, long enough to mean something, with that table.
fn distinctive_columns(schema: &Schema) -> Vec<(String, usize)> {
    let mut tables_having: HashMap<String, Vec<usize>> = HashMap::new();
    for (at, table) in schema.tables.iter().enumerate() {
        for column in &table.columns {
            let folded = fold(&column.name);
            let having = tables_having.entry(folded).or_default();
            if having.last() != Some(&at) {
                having.push(at);
            }
        }
    }
    let mut columns: Vec<(String, usize)> = tables_having
        .into_iter()
        .filter(|(name, having)| {
            having.len() == 1 && name.chars().count() >= MIN_NAMED_COLUMN_CHARS
        })
        .map(|(name, having)| (name, having[0]))
        .collect();
    columns.sort_unstable_by(|a, b| a.1.cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
    columns
}

/// One table's keys while it is being indexed, in the order first found.
#[derive(Default)]
struct TableFields {
    keys: Vec<(String, Field, u32, Option<u32>)>,
    places: HashMap<(String, usize), usize>,
    lengths: [f32; FIELDS],
}

impl TableFields {
    fn add(&mut self, words: &[Word], field: Field, column: Option<u32>) {
        self.lengths[field.at()] += words.len() as f32;
        for word in words {
            let stem = word.stem.as_ref().map(|stem| format!("~{stem}"));
            for key in std::iter::once(word.singular.clone()).chain(stem) {
                self.count(key, field, column);
            }
        }
    }

    fn count(&mut self, key: String, field: Field, column: Option<u32>) {
        match self.places.get(&(key.clone(), field.at())) {
            Some(&place) => self.keys[place].2 = self.keys[place].2.saturating_add(1),
            None => {
                self.places
                    .insert((key.clone(), field.at()), self.keys.len());
                self.keys.push((key, field, 1, column));
            }
        }
    }
}

/// A question's word gains this much less in a table for each table picked before it whose
/// name has that word: once `film` is picked for "films", `film_text`, `film_actor` and
/// `film_list` no longer crowd out `rental` for "rented". A word matched by a picked table's
/// columns only (`film.rental_rate` for "rented") is not covered by it.
const COVERED_WORD_DISCOUNT: f32 = 0.5;

/// The scores and reasons of one question's tables.
struct Tally {
    /// Each table's own score: its words, terms, examples and values.
    scores: Vec<f32>,
    /// Each table's gain from each of the question's words (by its place in the question),
    /// and whether the word is in the table's name.
    word_gains: Vec<Vec<(usize, f32, bool)>>,
    reasons: Vec<Vec<(f32, Reason)>>,
}

impl Tally {
    fn new(tables: usize) -> Tally {
        Tally {
            scores: vec![0.0; tables],
            word_gains: vec![Vec::new(); tables],
            reasons: vec![Vec::new(); tables],
        }
    }

    fn add(&mut self, table: usize, gain: f32, reason: Reason) {
        if let (Some(score), Some(reasons)) =
            (self.scores.get_mut(table), self.reasons.get_mut(table))
        {
            *score += gain;
            reasons.push((gain, reason));
        }
    }

    /// Records which word a part of a table's score (already [`Tally::add`]ed) came from.
    fn add_word(&mut self, table: usize, word: usize, gain: f32, in_name: bool) {
        if let Some(gains) = self.word_gains.get_mut(table) {
            gains.push((word, gain, in_name));
        }
    }

    /// At most `most` tables with a score, best first: each the best of those left once the
    /// words of the names already picked are discounted ([`COVERED_WORD_DISCOUNT`]); ties in
    /// the schema's order.
    fn best(&self, most: usize) -> Vec<usize> {
        let mut left: Vec<usize> = (0..self.scores.len())
            .filter(|&at| self.scores[at] > 0.0)
            .collect();
        let mut covered: HashMap<usize, i32> = HashMap::new();
        let mut best = Vec::new();
        while best.len() < most {
            let next = left
                .iter()
                .enumerate()
                .map(|(place, &table)| (place, self.discounted(table, &covered)))
                .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)));
            let Some((place, _)) = next else {
                break;
            };
            let table = left.remove(place);
            let mut named: Vec<usize> = self.word_gains[table]
                .iter()
                .filter(|&&(_, _, in_name)| in_name)
                .map(|&(word, _, _)| word)
                .collect();
            named.dedup();
            for word in named {
                *covered.entry(word).or_default() += 1;
            }
            best.push(table);
        }
        best
    }

    /// A table's score with each word discounted for the picked tables whose names have it.
    fn discounted(&self, table: usize, covered: &HashMap<usize, i32>) -> f32 {
        let discount: f32 = self.word_gains[table]
            .iter()
            .map(|&(word, gain, _)| {
                let times = covered.get(&word).copied().unwrap_or(0);
                gain * (1.0 - COVERED_WORD_DISCOUNT.powi(times))
            })
            .sum();
        self.scores[table] - discount
    }

    /// A table's reasons, strongest first.
    fn reasons_of(&self, table: usize) -> Vec<Reason> {
        let mut reasons = self.reasons.get(table).cloned().unwrap_or_default();
        reasons.sort_by(|a, b| b.0.total_cmp(&a.0));
        reasons.into_iter().map(|(_, reason)| reason).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::schema::{ForeignKey, Table, TableKind};
    use crate::knowledge::{Example, Note, Source};

    fn table(name: &str, columns: &[&str], keys: &[(&str, &str)]) -> Table {
        let mut table = Table::of_text_columns(name, TableKind::Table, columns);
        table.foreign_keys = keys
            .iter()
            .map(|&(from, to)| ForeignKey {
                from_columns: vec![from.into()],
                to_table: to.into(),
                to_columns: Vec::new(),
            })
            .collect();
        table
    }

    fn names(picked: &[Picked]) -> Vec<&str> {
        picked.iter().map(|p| p.table.as_str()).collect()
    }

    /// alpha ← bravo ← charlie ← delta ← echo: every key points towards alpha; and
    /// alpha ← juliet ← india ← hotel.
    fn chain() -> Schema {
        Schema {
            tables: vec![
                table("alpha", &["id"], &[]),
                table("bravo", &["id", "up"], &[("up", "ALPHA")]),
                table("charlie", &["id", "up"], &[("up", "bravo")]),
                table("delta", &["id", "up"], &[("up", "charlie")]),
                table(
                    "echo",
                    &["id", "up", "me"],
                    &[("up", "delta"), ("me", "echo")],
                ),
                table("foxtrot", &["id", "up"], &[("up", "nowhere")]),
                table("hotel", &["id", "up"], &[("up", "india")]),
                table("india", &["id", "up"], &[("up", "juliet")]),
                table("juliet", &["id", "up"], &[("up", "alpha")]),
            ],
        }
    }

    #[test]
    fn a_join_path_brings_the_tables_between_and_no_longer_path_does() {
        let index = TableIndex::new(&chain(), &Knowledge::default());
        // Two tables between alpha and delta, found against the keys' direction.
        let picked = index.pick("alpha and delta", &[], 2);
        assert_eq!(names(&picked), ["alpha", "delta", "bravo", "charlie"]);
        let path = Reason::Path {
            from: "alpha".into(),
            to: "delta".into(),
        };
        assert_eq!(picked[2].why, std::slice::from_ref(&path));
        assert_eq!(picked[3].why, [path]);
        assert_eq!(picked[2].score, 0.0);
        // Three between alpha and echo: too far.
        assert_eq!(
            names(&index.pick("alpha and echo", &[], 3)),
            ["alpha", "echo"]
        );
        // Neighbours need nothing between; a key to a table not in the schema leads nowhere.
        assert_eq!(names(&index.pick("delta echo", &[], 2)), ["delta", "echo"]);
        assert_eq!(
            names(&index.pick("foxtrot alpha", &[], 2)),
            ["alpha", "foxtrot"]
        );
        // Path tables are at most as many as picked ones, whole paths only.
        let picked = index.pick("alpha, delta and hotel", &[], 3);
        assert_eq!(
            names(&picked),
            ["alpha", "delta", "hotel", "bravo", "charlie"]
        );
        let picked = index.pick("alpha, delta and hotel", &[], 4);
        assert_eq!(
            names(&picked),
            ["alpha", "delta", "hotel", "bravo", "charlie", "juliet", "india"]
        );
    }

    #[test]
    fn ties_keep_the_schemas_order_and_untouched_tables_are_not_picked() {
        let schema = Schema {
            tables: vec![
                table("north_orders", &["id"], &[]),
                table("south_orders", &["id"], &[]),
                table("weather", &["id"], &[]),
            ],
        };
        let index = TableIndex::new(&schema, &Knowledge::default());
        let picked = index.pick("orders", &[], 10);
        assert_eq!(names(&picked), ["north_orders", "south_orders"]);
        assert_eq!(picked[0].score, picked[1].score);
        assert!(index.pick("", &[], 10).is_empty());
        assert!(index.pick("orders", &[], 0).is_empty());
        assert!(TableIndex::default().pick("orders", &[], 10).is_empty());
    }

    #[test]
    fn a_tables_name_outweighs_the_same_word_in_many_columns() {
        let schema = Schema {
            tables: vec![
                table("customer", &["id", "name"], &[]),
                table(
                    "rental",
                    &["customer_id", "customer_name", "customer_email"],
                    &[],
                ),
            ],
        };
        let index = TableIndex::new(&schema, &Knowledge::default());
        assert_eq!(
            names(&index.pick("customers", &[], 2)),
            ["customer", "rental"]
        );
    }

    #[test]
    fn a_merged_databases_prefix_is_a_weak_word_of_its_tables() {
        let schema = Schema {
            tables: vec![
                table("nw_customers", &["id"], &[]),
                table("nw_orders", &["id"], &[]),
                table("nw_products", &["id"], &[]),
                table("sk_film", &["id"], &[]),
                table("sk_orders", &["id"], &[]),
                table("sk_staff", &["id"], &[]),
            ],
        };
        let index = TableIndex::new(&schema, &Knowledge::default());
        assert_eq!(
            names(&index.pick("orders", &[], 2)),
            ["nw_orders", "sk_orders"]
        );
        assert_eq!(names(&index.pick("sk orders", &[], 1)), ["sk_orders"]);
        // The prefix is not the strong word it would be without: `film` outweighs `nw`.
        let picked = index.pick("nw film", &[], 4);
        assert_eq!(picked[0].table, "sk_film");
        assert!(picked[0].score > 4.0 * picked[1].score, "{picked:#?}");
    }

    #[test]
    fn names_outweigh_columns_and_stems_reach_other_inflections() {
        let schema = Schema {
            tables: vec![
                table("payment", &["payment_id", "rental_id", "amount"], &[]),
                table("rental", &["rental_id", "rental_date"], &[]),
                table("film", &["film_id", "title", "rental_rate"], &[]),
            ],
        };
        let index = TableIndex::new(&schema, &Knowledge::default());
        let picked = index.pick("rentals", &[], 3);
        assert_eq!(names(&picked), ["rental", "payment", "film"]);
        assert_eq!(picked[0].why[0], Reason::Name("rentals".into()));
        assert_eq!(
            picked[1].why[0],
            Reason::Column {
                column: "rental_id".into(),
                word: "rentals".into()
            }
        );
        // "rented" is none of these words, but its stem is.
        let picked = index.pick("What was rented?", &[], 1);
        assert_eq!(names(&picked), ["rental"]);
        assert_eq!(picked[0].why, [Reason::Name("rented".into())]);
    }

    #[test]
    fn glossary_terms_examples_and_value_hits_boost_the_tables_they_name() {
        let schema = Schema {
            tables: vec![
                table("customers", &["id", "prefecture"], &[]),
                table("nw_customers", &["id"], &[]),
                table(
                    "orders",
                    &["id", "customer_id"],
                    &[("customer_id", "customers")],
                ),
                table("products", &["id", "category"], &[]),
            ],
        };
        let knowledge = Knowledge {
            glossary: vec![
                Term {
                    term: "顧客".into(),
                    meaning: "人: customers の行".into(),
                    source: Source::Person,
                },
                Term {
                    term: "merged".into(),
                    meaning: "rows of nw_customers".into(),
                    source: Source::Person,
                },
                Term {
                    term: "region".into(),
                    meaning: "the PREFECTURE a person lives in".into(),
                    source: Source::Person,
                },
            ],
            examples: vec![Example {
                question: "How many widgets were sold last week?".into(),
                sql: "SELECT count(*) FROM \"PRODUCTS\" JOIN elsewhere".into(),
                source: Source::Person,
            }],
            ..Knowledge::default()
        };
        let index = TableIndex::new(&schema, &knowledge);
        let picked = index.pick("東京都の顧客は何人？", &[], 3);
        assert_eq!(names(&picked), ["customers"]);
        assert_eq!(picked[0].why, [Reason::Term("顧客".into())]);
        // A name stands as a whole identifier: `nw_customers` does not name `customers`.
        assert_eq!(names(&index.pick("merged", &[], 3)), ["nw_customers"]);
        // A distinctive column names its table.
        let picked = index.pick("people by region", &[], 3);
        assert_eq!(names(&picked), ["customers"]);
        let picked = index.pick("widgets sold last week?", &[], 3);
        assert_eq!(names(&picked), ["products"]);
        assert_eq!(
            picked[0].why,
            [Reason::Example(
                "How many widgets were sold last week?".into()
            )]
        );
        let hit = |table: &str, column: &str| ValueMatch {
            table: table.into(),
            column: column.into(),
            value: "Garden".into(),
        };
        let picked = index.pick("garden", &[hit("Products", "CATEGORY")], 3);
        assert_eq!(names(&picked), ["products"]);
        assert_eq!(
            picked[0].why,
            [Reason::Value {
                column: "category".into(),
                value: "Garden".into()
            }]
        );
    }

    #[test]
    fn knowledge_hits_and_keys_naming_another_table_bring_nothing() {
        let schema = Schema {
            tables: vec![
                table("customers", &["id", "name"], &[]),
                table("orders", &["id", "salary_id"], &[("salary_id", "salaries")]),
            ],
        };
        let note = |table: &str, column: Option<&str>, text: &str| Note {
            table: table.into(),
            column: column.map(Into::into),
            text: text.into(),
            source: Source::Person,
        };
        let knowledge = Knowledge {
            notes: vec![
                note("salaries", None, "pay of each employee"),
                note("askdb_notes", None, "payroll"),
                note("customers", Some("secret_pay"), "payroll"),
            ],
            glossary: vec![Term {
                term: "payroll".into(),
                meaning: "the salaries table, askdb_notes".into(),
                source: Source::Person,
            }],
            examples: vec![Example {
                question: "What is the average pay per employee?".into(),
                sql: "SELECT avg(pay) FROM salaries JOIN askdb_notes".into(),
                source: Source::Person,
            }],
            ..Knowledge::default()
        };
        let index = TableIndex::new(&schema, &knowledge);
        let hits = [
            ValueMatch {
                table: "salaries".into(),
                column: "pay".into(),
                value: "100".into(),
            },
            ValueMatch {
                table: "customers".into(),
                column: "secret_pay".into(),
                value: "payroll".into(),
            },
        ];
        let question = "What is the average pay per employee in payroll?";
        assert!(index.pick(question, &hits, 10).is_empty());
        // Control: the same note on a table of the schema finds it.
        let knowledge = Knowledge {
            notes: vec![note("customers", None, "pay of each employee")],
            ..Knowledge::default()
        };
        let index = TableIndex::new(&schema, &knowledge);
        assert_eq!(names(&index.pick(question, &hits, 10)), ["customers"]);
    }

    /// A made-up word from a number: `ba`, `koru`, `mitesa`…
    fn made_up_word(mut n: usize) -> String {
        const SYLLABLES: [&str; 20] = [
            "ba", "ko", "ri", "te", "mu", "sa", "lo", "ni", "pe", "du", "ga", "hi", "vo", "ze",
            "fa", "ju", "ke", "wo", "yu", "ci",
        ];
        let mut word = String::new();
        loop {
            word.push_str(SYLLABLES[n % SYLLABLES.len()]);
            n /= SYLLABLES.len();
            if n == 0 {
                return word;
            }
        }
    }

    /// `tables` tables of 10 columns, named from 2,000 made-up words (each table two of them),
    /// each with keys to two earlier ones, a note on every fifth, 50 glossary terms and 100
    /// worked examples.
    fn generated(tables: usize) -> (Schema, Knowledge) {
        let mut seed: u64 = 12_345;
        let mut next = move |below: usize| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            ((seed >> 33) % below.max(1) as u64) as usize
        };
        let mut schema = Schema::default();
        let mut knowledge = Knowledge::default();
        for at in 0..tables {
            let name = format!(
                "{}_{}_{at}",
                made_up_word(next(2000)),
                made_up_word(next(2000))
            );
            let columns: Vec<String> = (0..10)
                .map(|c| format!("{}_{}{c}", made_up_word(next(2000)), made_up_word(next(50))))
                .collect();
            let columns: Vec<&str> = columns.iter().map(String::as_str).collect();
            let mut table = table(&name, &columns, &[]);
            for _ in 0..2.min(at) {
                table.foreign_keys.push(ForeignKey {
                    from_columns: vec![columns[0].into()],
                    to_table: schema.tables[next(at)].name.clone(),
                    to_columns: Vec::new(),
                });
            }
            if at % 5 == 0 {
                let text = (0..12)
                    .map(|_| made_up_word(next(2000)))
                    .collect::<Vec<_>>();
                knowledge.notes.push(Note {
                    table: name.clone(),
                    column: None,
                    text: text.join(" "),
                    source: Source::Person,
                });
            }
            schema.tables.push(table);
        }
        for _ in 0..50 {
            let named = &schema.tables[next(tables)].name;
            knowledge.glossary.push(Term {
                term: made_up_word(next(2000)),
                meaning: format!("the rows of {named}"),
                source: Source::Person,
            });
        }
        for _ in 0..100 {
            let words: Vec<String> = (0..6).map(|_| made_up_word(next(2000))).collect();
            let named = &schema.tables[next(tables)].name;
            knowledge.examples.push(Example {
                question: words.join(" "),
                sql: format!("SELECT count(*) FROM \"{named}\""),
                source: Source::Person,
            });
        }
        (schema, knowledge)
    }

    /// Prints how long building and picking take; asserts no time (machines differ).
    #[test]
    fn picking_among_a_thousand_tables_takes_little_time() {
        for tables in [10, 100, 1_000] {
            let (schema, knowledge) = generated(tables);
            let started = std::time::Instant::now();
            let index = TableIndex::new(&schema, &knowledge);
            let built = started.elapsed();
            let questions: Vec<String> = (0..20)
                .map(|n| {
                    let words: Vec<String> =
                        (0..8).map(|w| made_up_word(n * 97 + w * 13)).collect();
                    // Two of the words are in the names of 200 columns each.
                    let (common, other) = (made_up_word(n % 50), made_up_word((n + 7) % 50));
                    format!("How many {} with {common} per {other}?", words.join(" "))
                })
                .collect();
            let started = std::time::Instant::now();
            let mut picked = 0;
            for question in &questions {
                picked += index.pick(question, &[], 10).len();
            }
            let per_question = started.elapsed() / questions.len() as u32;
            eprintln!(
                "{tables} tables x 10 columns: index built in {built:?}, pick {per_question:?} \
                 a question ({picked} tables picked for {} questions)",
                questions.len()
            );
            assert!(picked > 0);
        }
    }
}

/// Ranking on real schemas, several merged into one as a big database would be.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod on_real_schemas {
    use super::*;
    use crate::engine::native::RusqliteDb;
    use crate::engine::schema::{self, Table};
    use crate::knowledge::{Note, Source};
    use futures::executor::block_on;
    use std::path::Path;

    fn load(relative: &str) -> Schema {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
        let db = RusqliteDb::open(&path).expect("dataset opens");
        block_on(schema::load_tables(&db)).expect("schema loads")
    }

    /// `schema`'s tables renamed `prefix` + name, keys too.
    fn prefixed(prefix: &str, schema: Schema) -> Vec<Table> {
        let mut tables = schema.tables;
        for table in &mut tables {
            table.name = format!("{prefix}{}", table.name);
            for key in &mut table.foreign_keys {
                key.to_table = format!("{prefix}{}", key.to_table);
            }
        }
        tables
    }

    fn merged(parts: Vec<Vec<Table>>) -> Schema {
        let mut tables: Vec<Table> = parts.into_iter().flatten().collect();
        tables.sort_by(|a, b| a.name.cmp(&b.name));
        Schema { tables }
    }

    /// Sakila, Northwind, Chinook and Mondial, prefixed: 108 tables and views.
    fn four_databases() -> Schema {
        merged(vec![
            prefixed("sk_", load("tests/datasets/sakila/sakila.db")),
            prefixed("nw_", load("tests/datasets/northwind/northwind.db")),
            prefixed("ch_", load("tests/datasets/chinook/Chinook_Sqlite.sqlite")),
            prefixed("mo_", load("tests/datasets/mondial/mondial.db")),
        ])
    }

    fn names(picked: &[Picked]) -> Vec<&str> {
        picked.iter().map(|p| p.table.as_str()).collect()
    }

    fn note(table: &str, text: &str) -> Note {
        Note {
            table: table.into(),
            column: None,
            text: text.into(),
            source: Source::Person,
        }
    }

    #[test]
    fn horror_films_rented_most_needs_sakilas_tables_and_the_joins_between() {
        let schema = four_databases();
        assert!(schema.tables.len() > 100, "{}", schema.tables.len());
        let index = TableIndex::new(&schema, &Knowledge::default());
        let horror = ValueMatch {
            table: "sk_category".into(),
            column: "name".into(),
            value: "Horror".into(),
        };
        let question = "Which horror films were rented most?";
        // Three picked: one per thing the question names (not `film_text` and `film_actor`
        // for "films" again), and the two tables that join them.
        let picked = index.pick(question, std::slice::from_ref(&horror), 3);
        assert_eq!(
            names(&picked),
            [
                "sk_category",
                "sk_film",
                "sk_rental",
                "sk_film_category",
                "sk_inventory"
            ],
            "{picked:#?}"
        );
        assert_eq!(
            picked[4].why[0],
            Reason::Path {
                from: "sk_film".into(),
                to: "sk_rental".into()
            }
        );
        // With room for more, still nothing of the other databases.
        let picked = index.pick(question, &[horror], 10);
        assert!(
            names(&picked).iter().all(|t| t.starts_with("sk_")),
            "{picked:#?}"
        );
    }

    #[test]
    fn a_german_question_finds_a_german_table_with_a_non_ascii_name() {
        let spider = |name: &str| {
            load(&format!(
                "tests/datasets/spider_de/database/{name}/{name}.sqlite"
            ))
        };
        let schema = merged(
            [
                "concert_singer",
                "orchestra",
                "museum_visit",
                "pets_1",
                "world_1",
                "car_1",
                "flight_2",
            ]
            .into_iter()
            .map(|name| spider(name).tables)
            .collect(),
        );
        let index = TableIndex::new(&schema, &Knowledge::default());
        let picked = index.pick("Welche Sänger sind älter als 40?", &[], 5);
        assert_eq!(picked[0].table, "sänger", "{picked:#?}");
        assert_eq!(picked[0].why[0], Reason::Name("Sänger".into()));
        let picked = index.pick("Wie viele Konzerte gab es 2014?", &[], 5);
        assert_eq!(picked[0].table, "konzert", "{picked:#?}");
    }

    #[test]
    fn a_japanese_question_finds_customers_through_the_glossary() {
        let mut parts = vec![load("tests/datasets/shop/shop.db").tables];
        parts.push(prefixed(
            "nw_",
            load("tests/datasets/northwind/northwind.db"),
        ));
        parts.push(prefixed(
            "ch_",
            load("tests/datasets/chinook/Chinook_Sqlite.sqlite"),
        ));
        let schema = merged(parts);
        let knowledge = Knowledge {
            glossary: vec![Term {
                term: "顧客".into(),
                meaning: "買い物をした人。customers の一行が一人".into(),
                source: Source::Person,
            }],
            ..Knowledge::default()
        };
        let question = "東京都の顧客は何人ですか？";
        let without = TableIndex::new(&schema, &Knowledge::default()).pick(question, &[], 5);
        assert!(without.is_empty(), "{without:#?}");
        let picked = TableIndex::new(&schema, &knowledge).pick(question, &[], 5);
        assert_eq!(names(&picked), ["customers"]);
        assert_eq!(picked[0].why, [Reason::Term("顧客".into())]);
    }

    #[test]
    fn a_german_note_lets_a_german_question_find_an_english_table() {
        let schema = four_databases();
        let knowledge = Knowledge {
            notes: vec![note(
                "sk_rental",
                "Jede Zeile ist eine Ausleihe: wer welchen Film wann auslieh.",
            )],
            ..Knowledge::default()
        };
        let question = "Wie viele Ausleihen gab es im Mai?";
        let index = TableIndex::new(&schema, &knowledge);
        let picked = index.pick(question, &[], 5);
        assert_eq!(picked[0].table, "sk_rental", "{picked:#?}");
        assert_eq!(picked[0].why, [Reason::Note("Ausleihen".into())]);
        let without = TableIndex::new(&schema, &Knowledge::default()).pick(question, &[], 5);
        assert!(!names(&without).contains(&"sk_rental"), "{without:#?}");
    }

    #[test]
    fn a_value_the_question_names_picks_its_table() {
        let schema = four_databases();
        let index = TableIndex::new(&schema, &Knowledge::default());
        let question = "Which orders went with Speedy Express?";
        let speedy = ValueMatch {
            table: "nw_shippers".into(),
            column: "companyname".into(),
            value: "Speedy Express".into(),
        };
        let picked = index.pick(question, &[speedy], 5);
        assert_eq!(picked[0].table, "nw_Shippers", "{picked:#?}");
        assert_eq!(
            picked[0].why[0],
            Reason::Value {
                column: "CompanyName".into(),
                value: "Speedy Express".into()
            }
        );
        assert!(names(&picked).contains(&"nw_Orders"), "{picked:#?}");
        let without = index.pick(question, &[], 5);
        assert!(!names(&without).contains(&"nw_Shippers"), "{without:#?}");
    }
}
