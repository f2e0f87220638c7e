//! The page's catalogues (`www/i18n/*.ftl`, issue 41) against each other and against the code:
//! every language says every sentence, with the same values, and no sentence is written that
//! the page never says, nor said that no catalogue has.
//!
//! Mutations: a message removed from ja.ftl fails `every_language_has_every_message`; an extra
//! one fails it too; `{ $count }` renamed in one language fails `the_same_values_in_every_language`;
//! a `tr!("…")` with a new id fails `every_message_the_code_says_is_written`; a message left
//! in en.ftl after its code is gone fails `every_message_is_said_somewhere`.

use askdb::i18n::catalogue::{variables, Catalogue};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Messages the code does not name in a `tr!`: read by the build (`build.rs`).
const READ_BY_THE_BUILD: &[&str] = &["language-name"];

fn catalogues() -> BTreeMap<String, (Catalogue, String)> {
    let mut found = BTreeMap::new();
    for entry in std::fs::read_dir("www/i18n").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("ftl") {
            continue;
        }
        let tag = path.file_stem().unwrap().to_str().unwrap().to_string();
        let source = std::fs::read_to_string(&path).unwrap();
        let catalogue =
            Catalogue::parse(&source).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
        found.insert(tag, (catalogue, source));
    }
    assert!(
        found.contains_key("en") && found.contains_key("ja"),
        "{:?}",
        found.keys()
    );
    found
}

fn ids(catalogue: &Catalogue) -> BTreeSet<String> {
    catalogue.ids().map(str::to_string).collect()
}

fn rust_files(folder: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(folder).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().and_then(|e| e.to_str()) == Some("rs") {
            out.push(path);
        }
    }
}

/// The source of every Rust file of the crate but the catalogue's mechanism (whose tests say
/// messages of catalogues they make).
fn sources() -> Vec<(PathBuf, String)> {
    let mut files = Vec::new();
    rust_files(Path::new("src"), &mut files);
    files
        .into_iter()
        .filter(|path| {
            !path.ends_with("src/i18n/mod.rs") && !path.ends_with("src/i18n/catalogue.rs")
        })
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap();
            (path, text)
        })
        .collect()
}

/// The ids in `tr!("id"` and `tr_live("id"` calls (the first argument, a literal by their rules).
fn said_ids(text: &str) -> Vec<String> {
    // Comments show examples; they say nothing.
    let code: String = text
        .lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut found = Vec::new();
    for call in ["tr!(", "tr_live("] {
        let mut rest = code.as_str();
        while let Some(at) = rest.find(call) {
            // Not `include_str!(` or `attr!(`: `tr!` alone, or as `crate::tr!`.
            let whole = rest[..at]
                .chars()
                .next_back()
                .is_none_or(|c| !c.is_alphanumeric() && c != '_');
            rest = &rest[at + call.len()..];
            if !whole {
                continue;
            }
            let after = rest.trim_start();
            if let Some(literal) = after.strip_prefix('"') {
                if let Some(end) = literal.find('"') {
                    found.push(literal[..end].to_string());
                }
            }
        }
    }
    found
}

#[test]
fn every_language_has_every_message() {
    let catalogues = catalogues();
    let english = ids(&catalogues["en"].0);
    for (tag, (catalogue, _)) in &catalogues {
        let theirs = ids(catalogue);
        let missing: Vec<_> = english.difference(&theirs).collect();
        let extra: Vec<_> = theirs.difference(&english).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "{tag}.ftl lacks {missing:?} and has {extra:?}, which en.ftl does not"
        );
    }
}

#[test]
fn the_same_values_in_every_language() {
    let catalogues = catalogues();
    let english = &catalogues["en"].0;
    for (tag, (catalogue, _)) in &catalogues {
        for id in english.ids() {
            let Some(theirs) = catalogue.get(id) else {
                continue;
            };
            let wanted: BTreeSet<_> = variables(english.get(id).unwrap()).into_iter().collect();
            let got: BTreeSet<_> = variables(theirs).into_iter().collect();
            assert_eq!(
                got, wanted,
                "{tag}.ftl, {id}: its values differ from en.ftl's"
            );
        }
    }
}

#[test]
fn no_message_is_empty_or_left_in_english() {
    let catalogues = catalogues();
    let english = &catalogues["en"].1;
    for (tag, (_, source)) in &catalogues {
        for (number, line) in source.lines().enumerate() {
            let Some((id, value)) = line.split_once(" = ") else {
                continue;
            };
            assert!(
                !value.trim().is_empty() || !line.starts_with(char::is_alphabetic),
                "{tag}.ftl line {}: {id} is empty",
                number + 1
            );
            // A Japanese line identical to the English one is a sentence not translated (names
            // and codes that stay as they are go in a placeable: { "SQL" }).
            if tag == "ja"
                && english.lines().any(|english_line| english_line == line)
                && value.chars().any(|c| c.is_ascii_alphabetic())
                && !value.trim_start().starts_with('{')
            {
                panic!("ja.ftl line {}: `{line}` is the English", number + 1);
            }
        }
    }
}

#[test]
fn every_message_the_code_says_is_written() {
    let english = ids(&catalogues()["en"].0);
    let mut unknown = Vec::new();
    for (path, text) in sources() {
        for id in said_ids(&text) {
            if !english.contains(&id) {
                unknown.push(format!("{}: {id}", path.display()));
            }
        }
    }
    assert!(unknown.is_empty(), "said but in no catalogue: {unknown:#?}");
}

#[test]
fn every_message_is_said_somewhere() {
    let english = ids(&catalogues()["en"].0);
    let sources = sources();
    // Said through tr!, or named as a literal where the id is chosen (a match on an error's
    // kind hands its id to `i18n::text`).
    let unused: Vec<_> = english
        .iter()
        .filter(|id| !READ_BY_THE_BUILD.contains(&id.as_str()))
        .filter(|id| {
            let literal = format!("\"{id}\"");
            !sources.iter().any(|(_, text)| text.contains(&literal))
        })
        .collect();
    assert!(unused.is_empty(), "in en.ftl but said nowhere: {unused:?}");
}

#[test]
fn the_scan_finds_tr_calls() {
    // Positive control for the two scans above.
    assert_eq!(
        said_ids(
            "let a = tr!(\"open-demo\"); include_str!(\"x\"); crate::tr!(\n  \"rows\", n = 3)\n\
             title=tr_live(\"golden-stop\") not_tr_live(\"x\")"
        ),
        ["open-demo", "rows", "golden-stop"]
    );
}
