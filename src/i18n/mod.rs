//! The page in the reader's language: every sentence a person reads comes from a catalogue,
//! one file per language (`www/i18n/<tag>.ftl`, see `docs/translating.md`).
//!
//! English is built in; another language's file is fetched when it is chosen (the page's
//! `ui::language`). What the model is told never comes from here: the prompt is English in
//! every language of the page.
//!
//! ```ignore
//! tr!("open-demo")                        // "Open the demo"
//! tr!("rows-shown", count = 1_234_u64)   // "1,234 rows", "1,234 行"
//! ```
//!
//! Pure: the browser hands in how its language counts and writes numbers ([`Formats`]) and
//! how a reactive view hears of a change of language ([`set_on_read`]).

pub mod catalogue;
pub mod choose;

use catalogue::{Catalogue, Pattern, Piece, VariantKey};
use std::cell::RefCell;
use std::rc::Rc;

pub use choose::{choose, Choice, LANGUAGES};

/// The English catalogue, built in: the page's first language and the fallback for any
/// message another catalogue lacks. `www/i18n/en.ftl` without its comments (`build.rs`).
pub const ENGLISH_SOURCE: &str = include_str!(concat!(env!("OUT_DIR"), "/en.ftl"));

/// A value a message is given.
#[derive(Debug, Clone, PartialEq)]
pub enum Arg {
    Number(f64),
    Text(String),
}

macro_rules! number_args {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg {
            fn from(n: $t) -> Arg {
                Arg::Number(n as f64)
            }
        }
    )*};
}
number_args!(u8, u16, u32, u64, usize, i32, i64, f64);

impl From<&str> for Arg {
    fn from(text: &str) -> Arg {
        Arg::Text(text.to_string())
    }
}
impl From<String> for Arg {
    fn from(text: String) -> Arg {
        Arg::Text(text)
    }
}
impl From<&String> for Arg {
    fn from(text: &String) -> Arg {
        Arg::Text(text.clone())
    }
}

/// A message of the page's language: `tr!("id")`, or `tr!("id", name = value, …)`.
#[macro_export]
macro_rules! tr {
    ($id:literal) => {
        $crate::i18n::text($id, &[])
    };
    ($id:literal, $($name:ident = $value:expr),+ $(,)?) => {
        $crate::i18n::text($id, &[$((stringify!($name), $crate::i18n::Arg::from($value))),+])
    };
}

/// What a language makes of a number: given the language's tag and the number.
pub type NumberRule = Box<dyn Fn(&str, f64) -> String>;

/// How a language counts (its plural category for a number) and writes a number. The browser
/// gives `Intl`'s; natively (tests, the native tools) English's rule and grouping are used.
pub struct Formats {
    pub plural: NumberRule,
    pub number: NumberRule,
}

impl Default for Formats {
    fn default() -> Formats {
        Formats {
            plural: Box::new(|tag, n| builtin_plural(tag, n).to_string()),
            number: Box::new(|_, n| builtin_number(n)),
        }
    }
}

/// English's rule (and Japanese's: one form), for where there is no `Intl`.
fn builtin_plural(tag: &str, n: f64) -> &'static str {
    if tag.starts_with("ja") || n != 1.0 {
        "other"
    } else {
        "one"
    }
}

fn builtin_number(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        let grouped = crate::text::grouped(n.abs() as u64);
        if n < 0.0 {
            format!("-{grouped}")
        } else {
            grouped
        }
    } else {
        format!("{n}")
    }
}

struct Current {
    tag: String,
    catalogue: Rc<Catalogue>,
    english: Rc<Catalogue>,
    formats: Formats,
    on_read: Option<Box<dyn Fn()>>,
}

thread_local! {
    static CURRENT: RefCell<Current> = RefCell::new({
        let english = Rc::new(english());
        Current {
            tag: "en".into(),
            catalogue: english.clone(),
            english,
            formats: Formats::default(),
            on_read: None,
        }
    });
}

/// The built-in English catalogue (a test proves it reads).
pub fn english() -> Catalogue {
    Catalogue::parse(ENGLISH_SOURCE).unwrap_or_else(|error| panic!("www/i18n/en.ftl: {error}"))
}

/// Makes `catalogue` the page's language from now on.
pub fn set_language(tag: &str, catalogue: Catalogue) {
    CURRENT.with(|current| {
        let mut current = current.borrow_mut();
        current.tag = tag.to_string();
        current.catalogue = Rc::new(catalogue);
    });
}

/// Back to English (the built-in catalogue).
pub fn set_english() {
    CURRENT.with(|current| {
        let mut current = current.borrow_mut();
        current.tag = "en".into();
        current.catalogue = current.english.clone();
    });
}

/// The tag of the language the page speaks ("en", "ja").
pub fn language() -> String {
    CURRENT.with(|current| current.borrow().tag.clone())
}

pub fn set_formats(formats: Formats) {
    CURRENT.with(|current| current.borrow_mut().formats = formats);
}

/// Called each time a message is read: the page's views track the language there, so that
/// text read inside a reactive view is read again when the language changes.
pub fn set_on_read(on_read: Box<dyn Fn()>) {
    CURRENT.with(|current| current.borrow_mut().on_read = Some(on_read));
}

/// A number written as the page's language writes it ("1,234").
pub fn number(n: f64) -> String {
    CURRENT.with(|current| {
        let current = current.borrow();
        (current.formats.number)(&current.tag, n)
    })
}

/// Message `id` in the page's language, with `args` in its places. A message the language
/// lacks is said in English; one no catalogue has is shown as its id (the catalogue tests
/// keep both from shipping).
pub fn text(id: &str, args: &[(&str, Arg)]) -> String {
    CURRENT.with(|current| {
        let current = current.borrow();
        if let Some(on_read) = &current.on_read {
            on_read();
        }
        let pattern = current
            .catalogue
            .get(id)
            .or_else(|| current.english.get(id));
        match pattern {
            Some(pattern) => {
                let mut out = String::new();
                write_pattern(pattern, args, &current, &mut out);
                out
            }
            None => id.to_string(),
        }
    })
}

fn write_pattern(pattern: &Pattern, args: &[(&str, Arg)], current: &Current, out: &mut String) {
    let arg = |name: &str| args.iter().find(|(n, _)| *n == name).map(|(_, a)| a);
    for piece in pattern {
        match piece {
            Piece::Text(text) => out.push_str(text),
            Piece::Variable(name) => match arg(name) {
                Some(Arg::Text(text)) => out.push_str(text),
                Some(Arg::Number(n)) => out.push_str(&(current.formats.number)(&current.tag, *n)),
                // Said where it is missing rather than dropped in silence.
                None => out.push_str(&format!("{{${name}}}")),
            },
            Piece::Select {
                on,
                variants,
                default,
            } => {
                let chosen = variants
                    .iter()
                    .find(|(key, _)| matches_key(key, arg(on), current))
                    .map_or(&variants[*default].1, |(_, text)| text);
                write_pattern(chosen, args, current, out);
            }
        }
    }
}

/// An exact number matches first (`[0]`), then the number's plural category, or a text
/// argument's value.
fn matches_key(key: &VariantKey, arg: Option<&Arg>, current: &Current) -> bool {
    match (key, arg) {
        (VariantKey::Number(wanted), Some(Arg::Number(n))) => wanted == n,
        (VariantKey::Name(name), Some(Arg::Number(n))) => {
            *name == (current.formats.plural)(&current.tag, *n)
        }
        (VariantKey::Name(name), Some(Arg::Text(text))) => name == text,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_catalogue<T>(tag: &str, source: &str, run: impl FnOnce() -> T) -> T {
        set_language(tag, Catalogue::parse(source).unwrap());
        let out = run();
        set_english();
        out
    }

    #[test]
    fn the_english_catalogue_reads() {
        assert!(!english().is_empty());
    }

    #[test]
    fn the_built_in_english_is_the_file_without_its_comments() {
        let file = include_str!("../../www/i18n/en.ftl");
        assert_eq!(english(), Catalogue::parse(file).unwrap());
        assert!(
            ENGLISH_SOURCE.len() < file.len(),
            "the comments are left in"
        );
        assert!(!ENGLISH_SOURCE.lines().any(|line| line.starts_with('#')));
    }

    #[test]
    fn a_message_gets_its_values_and_its_plural() {
        let source =
            "rows = { $count ->\n [0] no rows\n [one] one row\n *[other] { $count } rows\n}\n\
                      hello = Hello, { $name }.\n";
        with_catalogue("en", source, || {
            assert_eq!(tr!("rows", count = 0_u64), "no rows");
            assert_eq!(tr!("rows", count = 1_u64), "one row");
            assert_eq!(tr!("rows", count = 1_234_567_u64), "1,234,567 rows");
            assert_eq!(tr!("hello", name = "Ada"), "Hello, Ada.");
            assert_eq!(tr!("hello"), "Hello, {$name}.");
        });
    }

    #[test]
    fn japanese_has_one_form_and_missing_messages_fall_back_to_english() {
        let source = "rows = { $count ->\n [one] 1 行\n *[other] { $count } 行\n}\n";
        with_catalogue("ja", source, || {
            assert_eq!(tr!("rows", count = 1_u64), "1 行");
            assert_eq!(language(), "ja");
            let english_only = english().ids().next().unwrap().to_string();
            assert_eq!(text(&english_only, &[]), {
                set_english();
                let said = text(&english_only, &[]);
                set_language("ja", Catalogue::parse(source).unwrap());
                said
            });
            assert_eq!(text("no-such-message", &[]), "no-such-message");
        });
    }

    #[test]
    fn a_text_argument_chooses_its_variant() {
        let source = "kind = { $kind ->\n [table] a table\n *[other] something\n}\n";
        with_catalogue("en", source, || {
            assert_eq!(tr!("kind", kind = "table"), "a table");
            assert_eq!(tr!("kind", kind = "view"), "something");
        });
    }
}
