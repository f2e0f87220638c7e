//! The words of identifiers, notes and questions, as keys to match them by.
//!
//! A name is cut where its writer marked a new word: `snake_case`, `CamelCase` and
//! `camelCase`, `ALLCAPS_word`, digits, dots, spaces, quotes and brackets. Each Latin word is
//! [`fold`]ed (case, width, accents) and given two keys: its [`singular`] (a light English
//! singular: `films` meets `film`) and its [`stem`] (one common inflection ending cut:
//! `rented` meets `rental`, `Konzerte` meets `konzert`), the second a weaker match. CJK text
//! has no spaces, so it is cut into the 2- and 3-grams the worked examples are searched by
//! (`search::tokens::grams`, hiragana splitting Japanese).
//!
//! Tables of merged databases often share a prefix (`nw_orders`, `sk_film`, `dbo.Orders`):
//! [`SharedPrefixes`] finds them so that the prefix is a weak word of those tables, not the
//! strong one every table of that database has.

use crate::search::fold::fold;
use crate::search::tokens::{grams, is_cjk};
use std::collections::{HashMap, HashSet};

/// One word of a text, with the keys it is matched by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Word {
    /// As the text has it (case kept), for telling a person which word matched.
    pub written: String,
    /// Folded and singular: the key words match exactly by. A CJK gram is its own key.
    pub singular: String,
    /// Folded and cut of one inflection ending: the key of a weaker match. `None` for CJK.
    pub stem: Option<String>,
}

/// The words of a table's or column's name, folded and singular, each once, in order
/// (`dbo.Order Details` → `dbo`, `order`, `detail`; `InvoiceLine` → `invoice`, `line`).
pub fn name_words(name: &str) -> Vec<String> {
    let mut seen = HashSet::new();
    words(name)
        .into_iter()
        .map(|word| word.singular)
        .filter(|key| seen.insert(key.clone()))
        .collect()
}

/// The words of a question that can name a table or column, folded and singular, each once,
/// in order: without the commonest English words ("how", "many", "the"…).
pub fn question_words(question: &str) -> Vec<String> {
    content_words(question)
        .into_iter()
        .map(|word| word.singular)
        .collect()
}

/// The words of a question or a note, each key once, without [`STOP_WORDS`].
pub fn content_words(text: &str) -> Vec<Word> {
    let mut seen = HashSet::new();
    words(text)
        .into_iter()
        .filter(|word| !STOP_WORDS.contains(&word.singular.as_str()))
        .filter(|word| seen.insert(word.singular.clone()))
        .collect()
}

/// English words that name no table: questions and notes are full of them. Only English:
/// another language's grammar words ("wie", "viele", "の") are left in, because they rarely
/// name a table or column, and where a note uses them BM25's idf discounts a word that many
/// tables' notes share; a list per language would also need the language told apart first.
/// Compared with the singular key (`does` is `doe`, `has` stays `has`).
const STOP_WORDS: &[&str] = &[
    "an", "and", "any", "all", "are", "as", "at", "be", "been", "by", "can", "count", "did", "do",
    "doe", "each", "every", "find", "for", "from", "get", "give", "had", "has", "have", "how",
    "in", "is", "it", "its", "least", "less", "list", "many", "me", "more", "most", "much", "my",
    "no", "not", "number", "of", "on", "or", "our", "per", "please", "show", "tell", "than",
    "that", "the", "their", "them", "there", "these", "they", "this", "those", "to", "top", "us",
    "was", "we", "were", "what", "when", "where", "which", "who", "whom", "whose", "why", "with",
    "you", "your",
];

/// Every word of `text` in order, repeats kept (a note's word counts as often as it is used).
/// Words of one letter and numbers under three digits are left out: they are the `2` of
/// `address2` and the `5` of "top 5", which name nothing; a year (`1997`) stays.
pub fn words(text: &str) -> Vec<Word> {
    let mut words = Vec::new();
    for piece in pieces(text) {
        if piece.first().copied().is_some_and(is_cjk) {
            let run: String = piece.iter().collect();
            words.extend(grams(&run).into_iter().map(|gram| Word {
                written: gram.clone(),
                singular: gram,
                stem: None,
            }));
            continue;
        }
        let written: String = piece.iter().collect();
        let folded = fold(&written);
        let length = folded.chars().count();
        let number = folded.chars().all(|c| c.is_numeric());
        if length < 2 || (number && length < 3) {
            continue;
        }
        words.push(Word {
            singular: singular(&folded),
            stem: Some(stem(&folded)),
            written,
        });
    }
    words
}

/// What a character is for cutting names into words.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Upper,
    /// Lower-case, or a letter of a script without case.
    Lower,
    Digit,
    Cjk,
}

fn kind(c: char) -> Option<Kind> {
    if is_cjk(c) {
        Some(Kind::Cjk)
    } else if c.is_numeric() {
        Some(Kind::Digit)
    } else if c.is_uppercase() {
        Some(Kind::Upper)
    } else if c.is_alphanumeric() {
        Some(Kind::Lower)
    } else {
        None
    }
}

/// `text` cut into runs of characters that make one word each: anything not a letter or digit
/// separates, and a word also ends where case rises (`camelCase`), where an upper-case run
/// meets a capitalised word (`XMLHttp` → `XML`, `Http`), and where digits or CJK begin or end.
fn pieces(text: &str) -> Vec<Vec<char>> {
    let chars: Vec<char> = text.chars().collect();
    let mut pieces: Vec<Vec<char>> = Vec::new();
    let mut current: Vec<char> = Vec::new();
    let mut previous: Option<Kind> = None;
    for (at, &c) in chars.iter().enumerate() {
        let Some(this) = kind(c) else {
            pieces.extend((!current.is_empty()).then(|| std::mem::take(&mut current)));
            previous = None;
            continue;
        };
        match (previous, this) {
            (Some(before), _) if changes_word(before, this) => {
                pieces.push(std::mem::take(&mut current));
            }
            (Some(Kind::Upper), Kind::Lower)
                if current.len() >= 2 && !is_plural_of_acronym(&chars, at) =>
            {
                // `XMLHttp`: the last capital begins the next word.
                if let Some(capital) = current.pop() {
                    pieces.push(std::mem::replace(&mut current, vec![capital]));
                }
            }
            _ => {}
        }
        current.push(c);
        previous = Some(this);
    }
    pieces.extend((!current.is_empty()).then_some(current));
    pieces
}

fn changes_word(before: Kind, this: Kind) -> bool {
    let digit_edge = (before == Kind::Digit) != (this == Kind::Digit);
    let cjk_edge = (before == Kind::Cjk) != (this == Kind::Cjk);
    let case_rises = before == Kind::Lower && this == Kind::Upper;
    digit_edge || cjk_edge || case_rises
}

/// The lone `s` of `IDs` or `URLs`: a plural, not the start of a word.
fn is_plural_of_acronym(chars: &[char], at: usize) -> bool {
    chars[at] == 's'
        && !chars
            .get(at + 1)
            .is_some_and(|&c| kind(c) == Some(Kind::Lower))
}

/// A light English singular of a folded word: `categories` → `category`, `addresses` →
/// `address`, `boxes` → `box`, `orders` → `order`; words in `ss`, `us` and `is` (`status`,
/// `class`, `analysis`) and words of three letters or fewer are left as they are.
///
/// It is a key, not grammar. It does not know irregular plurals (`people`, `children`, `men`,
/// `data`, `indices`), `-ves` (`leaves`) or `-oes` (`heroes`), nor `-ses` after a single `s`
/// (`statuses` becomes `statuse`), nor `-ies` of words in `-ie` (`movies` becomes `movy`, not
/// `movie`), nor any other language's plurals (`Konzerte`, `Länder`): for all of these the
/// [`stem`]s still meet, as a weaker match.
pub fn singular(word: &str) -> String {
    let length = word.chars().count();
    if length <= 3 || !word.ends_with('s') {
        return word.to_string();
    }
    if let Some(base) = word.strip_suffix("ies").filter(|_| length > 4) {
        return format!("{base}y");
    }
    for plural in ["sses", "xes", "ches", "shes"] {
        if word.ends_with(plural) {
            return word[..word.len() - 2].to_string();
        }
    }
    if ["ss", "us", "is"].iter().any(|end| word.ends_with(end)) {
        return word.to_string();
    }
    word[..word.len() - 1].to_string()
}

/// Inflection endings of English, German and the Romance languages, longest first: `rented`,
/// `rental` and `rentals` share `rent`; `Kunde` and `Kunden` share `kund`; `Preis` and
/// `Preise` share `preis`. A plural `s` is not among them (the [`singular`] deals with it, and
/// cutting it would part `Kurs` from `Kurse`).
const ENDINGS: [&str; 11] = [
    "ings", "als", "ers", "ing", "ed", "es", "er", "en", "al", "e", "n",
];

/// What is left of a stem after its ending is cut, at least: shorter stems meet too many
/// other words (`order` is not `ord`).
const MIN_STEM_CHARS: usize = 4;

/// A folded word without the first of [`ENDINGS`] that leaves at least [`MIN_STEM_CHARS`]
/// characters, or the word itself.
pub fn stem(word: &str) -> String {
    ENDINGS
        .iter()
        .filter_map(|ending| word.strip_suffix(ending))
        .find(|rest| rest.chars().count() >= MIN_STEM_CHARS)
        .unwrap_or(word)
        .to_string()
}

/// The words of a table's name: its own (strong) and those it shares with many tables of a
/// merged database (weak).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TableNameWords {
    pub strong: Vec<Word>,
    pub weak: Vec<Word>,
}

/// A first word is a prefix of a merged database's tables when at least this many tables
/// begin with it…
const MIN_PREFIXED_TABLES: usize = 3;
/// …and it is this short: `nw`, `sk`, `dbo`, `tbl`, `geo`, but not `film` (Sakila has
/// `film`, `film_actor`, `film_category`, `film_text`: there it is a word of its own).
const MAX_PREFIX_CHARS: usize = 3;

/// The prefixes the tables of a database share: a short first word that begins several
/// tables' names (`nw_orders`, `nw_customers`, `nw_order_details` → `nw`), and in any name
/// the schema part before its last dot (`dbo.Orders` → `dbo`).
///
/// A prefix stays a weak word of its tables rather than none: a question that says "nw"
/// leans to those tables. A question that says "Northwind" does not (nothing in `nw` says so)
/// unless a note or a glossary term does.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SharedPrefixes {
    /// Folded, in the order first found.
    first_words: Vec<String>,
}

impl SharedPrefixes {
    pub fn find<'n>(table_names: impl IntoIterator<Item = &'n str>) -> SharedPrefixes {
        let mut order = Vec::new();
        let mut begun: HashMap<String, usize> = HashMap::new();
        let mut whole_names = HashSet::new();
        for name in table_names {
            let own = without_schema(name).1;
            whole_names.insert(fold(own));
            if let Some(first) = leading_word(own) {
                let count = begun.entry(first.clone()).or_insert(0);
                if *count == 0 {
                    order.push(first);
                }
                *count += 1;
            }
        }
        let first_words = order
            .into_iter()
            .filter(|word| begun[word] >= MIN_PREFIXED_TABLES && !whole_names.contains(word))
            .collect();
        SharedPrefixes { first_words }
    }

    /// The shared first words found (folded): `["nw", "sk"]`.
    pub fn first_words(&self) -> &[String] {
        &self.first_words
    }

    /// `name`'s words, its schema part and shared prefix among the weak ones. A name that is
    /// nothing but a prefix keeps it strong.
    pub fn split(&self, name: &str) -> TableNameWords {
        let (schema, own) = without_schema(name);
        let mut weak = schema.map(words).unwrap_or_default();
        let mut strong = words(own);
        let prefixed = leading_word(own).is_some_and(|first| self.first_words.contains(&first));
        if prefixed && strong.len() > 1 {
            weak.push(strong.remove(0));
        }
        if strong.is_empty() {
            strong = std::mem::take(&mut weak);
        }
        TableNameWords { strong, weak }
    }
}

/// The schema part before a name's last dot, if any, and the rest.
fn without_schema(name: &str) -> (Option<&str>, &str) {
    match name.rsplit_once('.') {
        Some((schema, own)) if !own.trim().is_empty() => (Some(schema), own),
        _ => (None, name),
    }
}

/// The first word of a name (folded, not made singular) when it could be a shared prefix:
/// short, Latin, and followed by more of the name.
fn leading_word(name: &str) -> Option<String> {
    let pieces = pieces(name);
    let first = fold(&pieces.first()?.iter().collect::<String>());
    let short = first.chars().count() <= MAX_PREFIX_CHARS;
    let latin = !first.chars().any(is_cjk);
    (short && latin && pieces.len() > 1).then_some(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strong_and_weak(prefixes: &SharedPrefixes, name: &str) -> (Vec<String>, Vec<String>) {
        let split = prefixes.split(name);
        let keys = |words: Vec<Word>| words.into_iter().map(|w| w.singular).collect();
        (keys(split.strong), keys(split.weak))
    }

    #[test]
    fn names_split_at_underscores_case_digits_dots_spaces_and_quotes() {
        assert_eq!(name_words("film_category"), ["film", "category"]);
        assert_eq!(name_words("InvoiceLine"), ["invoice", "line"]);
        assert_eq!(name_words("lastUpdate"), ["last", "update"]);
        assert_eq!(name_words("XMLHttpRequest"), ["xml", "http", "request"]);
        assert_eq!(name_words("CustomerURLs"), ["customer", "url"]);
        assert_eq!(name_words("SHIP_VIA_name"), ["ship", "via", "name"]);
        assert_eq!(name_words("order2item"), ["order", "item"]);
        assert_eq!(name_words("address2"), ["address"]);
        assert_eq!(name_words("Sales for 1997"), ["sale", "for", "1997"]);
        assert_eq!(name_words("dbo.Order Details"), ["dbo", "order", "detail"]);
        assert_eq!(name_words("\"Order Details\""), ["order", "detail"]);
        assert_eq!(name_words("[Order Details]"), ["order", "detail"]);
        assert_eq!(name_words("CustomerCustomerDemo"), ["customer", "demo"]);
        // Folded: accents, width, non-ASCII names.
        assert_eq!(name_words("Sänger_im_Konzert"), ["sanger", "im", "konzert"]);
        assert_eq!(name_words("ＦＩＬＭ＿ＴＥＸＴ"), ["film", "text"]);
        // CJK names are cut into grams, as the questions are.
        assert_eq!(
            name_words("顧客マスタ"),
            ["顧客", "客マ", "マス", "スタ", "顧客マ", "客マス", "マスタ"]
        );
        assert!(name_words("").is_empty());
        assert!(name_words("_.[\"]-").is_empty());
    }

    #[test]
    fn plurals_become_singular_but_status_stays() {
        let cases = [
            ("categories", "category"),
            ("cities", "city"),
            ("addresses", "address"),
            ("boxes", "box"),
            ("matches", "match"),
            ("orders", "order"),
            ("sales", "sale"),
            ("status", "status"),
            ("class", "class"),
            ("analysis", "analysis"),
            ("bus", "bus"),
            ("ties", "tie"),
        ];
        for (plural, one) in cases {
            assert_eq!(singular(plural), one, "{plural}");
        }
    }

    #[test]
    fn stems_meet_across_inflections_but_not_below_four_letters() {
        assert_eq!(stem("rented"), "rent");
        assert_eq!(stem("rental"), "rent");
        assert_eq!(stem("rentals"), "rent");
        assert_eq!(stem("konzerte"), stem("konzert"));
        assert_eq!(stem("kunden"), stem("kunde"));
        assert_eq!(stem("preise"), stem("preis"));
        assert_eq!(stem("kurse"), stem("kurs"));
        assert_eq!(stem("customers"), stem("customer"));
        assert_eq!(stem("order"), "order");
        assert_eq!(stem("name"), "name");
        assert_eq!(stem("ordered"), "order");
    }

    #[test]
    fn merged_databases_prefixes_are_weak_words() {
        let names = [
            "ch_Album",
            "ch_Track",
            "film",
            "film_actor",
            "film_category",
            "film_text",
            "nw_customers",
            "nw_order_details",
            "nw_orders",
            "shop_items",
            "shop_orders",
            "shop_staff",
            "sk_actor",
            "sk_film",
            "sk_film_actor",
            "tv",
            "tv_channel",
            "tv_series",
            "tv_show",
        ];
        let prefixes = SharedPrefixes::find(names);
        // `ch` begins two tables only; `film` and `shop` are too long; `tv` is a table of
        // its own.
        assert_eq!(prefixes.first_words(), ["nw", "sk"]);
        assert_eq!(
            strong_and_weak(&prefixes, "nw_order_details"),
            (vec!["order".into(), "detail".into()], vec!["nw".into()])
        );
        assert_eq!(
            strong_and_weak(&prefixes, "film_actor"),
            (vec!["film".into(), "actor".into()], vec![])
        );
        // A schema part before a dot is weak in any name.
        assert_eq!(
            strong_and_weak(&prefixes, "dbo.Order Details"),
            (vec!["order".into(), "detail".into()], vec!["dbo".into()])
        );
        // A name that is only a prefix keeps its word.
        assert_eq!(
            strong_and_weak(&prefixes, "nw"),
            (vec!["nw".into()], vec![])
        );
        assert_eq!(
            strong_and_weak(&prefixes, "dbo."),
            (vec!["dbo".into()], vec![])
        );
        assert_eq!(SharedPrefixes::find([]).first_words(), [] as [String; 0]);
    }

    #[test]
    fn questions_keep_the_words_that_can_name_something() {
        assert_eq!(
            question_words("How many films are in the Horror category?"),
            ["film", "horror", "category"]
        );
        assert_eq!(
            question_words("Which customers have the most rentals? Show top 5."),
            ["customer", "rental"]
        );
        assert_eq!(
            question_words("ＦＩＬＭＳ　ｐｅｒ　ｙｅａｒ"),
            ["film", "year"]
        );
        // Other languages' grammar words stay (see STOP_WORDS).
        assert_eq!(
            question_words("Welche Sänger sind älter als 40?"),
            ["welche", "sanger", "sind", "alter", "als"]
        );
        // Japanese: the words between the hiragana, as grams.
        assert_eq!(
            question_words("東京都の顧客は何人ですか？"),
            ["東京", "京都", "東京都", "顧客", "何人"]
        );
        let words = content_words("Rented films");
        assert_eq!(words[0].written, "Rented");
        assert_eq!(words[0].stem.as_deref(), Some("rent"));
        assert!(question_words("").is_empty());
        assert!(question_words("How many are there?").is_empty());
    }
}
