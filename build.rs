//! The page's languages, from the catalogue files (`www/i18n/<tag>.ftl`): adding a language is
//! adding its file (docs/translating.md). Each file names its language in its own words in
//! the message `language-name`.

use std::fmt::Write;
use std::path::Path;

fn main() {
    let folder = Path::new("www/i18n");
    println!("cargo:rerun-if-changed={}", folder.display());
    let mut languages: Vec<(String, String)> = Vec::new();
    for entry in std::fs::read_dir(folder).expect("www/i18n") {
        let path = entry.expect("www/i18n entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("ftl") {
            continue;
        }
        println!("cargo:rerun-if-changed={}", path.display());
        let tag = path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("a tag")
            .to_string();
        let source = std::fs::read_to_string(&path).expect("a catalogue");
        let name = source
            .lines()
            .find_map(|line| line.strip_prefix("language-name ="))
            .unwrap_or_else(|| panic!("{}: no `language-name = …` line", path.display()))
            .trim()
            .to_string();
        languages.push((tag, name));
    }
    // English first (the built-in one), then by tag.
    languages.sort_by_key(|(tag, _)| (tag != "en", tag.clone()));
    let mut out =
        String::from("/// Every language the page has a catalogue for: (tag, its own name).\n");
    out.push_str("pub const LANGUAGES: &[(&str, &str)] = &[\n");
    for (tag, name) in &languages {
        writeln!(out, "    ({tag:?}, {name:?}),").unwrap();
    }
    out.push_str("];\n");
    let out_dir = std::env::var("OUT_DIR").unwrap();
    std::fs::write(Path::new(&out_dir).join("languages.rs"), out).expect("languages.rs");

    // English is built into the page: without its comments (notes for translators), which
    // every first visit would otherwise download (1.5 KB gzipped).
    let english = std::fs::read_to_string(folder.join("en.ftl")).expect("www/i18n/en.ftl");
    let said: String = english
        .lines()
        .filter(|line| !line.starts_with('#'))
        .flat_map(|line| [line, "\n"])
        .collect();
    std::fs::write(Path::new(&out_dir).join("en.ftl"), said).expect("en.ftl");
}
