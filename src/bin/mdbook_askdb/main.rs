//! `mdbook-askdb`: an mdBook preprocessor that turns a fenced block
//!
//! ````text
//! ```askdb
//! db = "data/chinook.db"
//! replay = "recordings/top-genres.askdb.json"
//! q = "Which five genres sold the most?"
//! ```
//! ````
//!
//! into a live askdb demo (the `<askdb-demo>` tag of `askdb-embed.js`), and puts the askdb page
//! where the chapters' HTML expects it. In `book.toml`:
//!
//! ```toml
//! [preprocessor.askdb]
//! page = "../askdb/dist"   # askdb's built page; linked into src/askdb for the build
//! ```
//!
//! A bad key, a missing file or a recording made on another database fails the build with a
//! message naming the chapter, its file and the line (docs/embed.md).
//!
//! mdBook speaks to a preprocessor in JSON: `mdbook-askdb supports <renderer>` (exit 0: yes),
//! then `[context, book]` on stdin and the book back on stdout. The `mdbook` crate would give
//! typed versions of both, at the cost of mdBook itself and its dependency tree compiled into
//! this repository's build, and of a version lock-step with the author's mdBook; the part of
//! the protocol used here is a few fields, read with serde_json, and every other field is
//! passed back untouched (so mdBook 0.4's `sections` and 0.5's `items` both work).

#[cfg(not(target_arch = "wasm32"))]
mod block;
#[cfg(not(target_arch = "wasm32"))]
mod chapter;
#[cfg(not(target_arch = "wasm32"))]
mod html;
#[cfg(not(target_arch = "wasm32"))]
mod page;

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    native::main()
}

/// A preprocessor runs where mdBook does, never in a browser.
#[cfg(target_arch = "wasm32")]
fn main() {
    panic!("mdbook-askdb runs natively only, called by mdbook");
}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use super::chapter::{self, Book, Chapter};
    use super::page::{self, PageSetting};
    use serde_json::Value;
    use std::io::Read;
    use std::path::{Path, PathBuf};
    use std::process::ExitCode;

    const USAGE: &str = "mdbook-askdb: an mdBook preprocessor for askdb demos (```askdb blocks).
mdBook runs it; add to book.toml:

    [preprocessor.askdb]
    page = \"path/to/askdb/dist\"   # optional: askdb's built page, linked into src/askdb

See docs/embed.md in askdb's repository.";

    pub fn main() -> ExitCode {
        let args: Vec<String> = std::env::args().skip(1).collect();
        match args.first().map(String::as_str) {
            // Only the HTML renderer shows demos; others keep the block as code.
            Some("supports") => match args.get(1).map(String::as_str) {
                Some("html") => ExitCode::SUCCESS,
                _ => ExitCode::FAILURE,
            },
            Some("--version" | "-V") => {
                println!("mdbook-askdb {}", env!("CARGO_PKG_VERSION"));
                ExitCode::SUCCESS
            }
            None => match preprocess() {
                Ok(()) => ExitCode::SUCCESS,
                Err(problems) => {
                    for problem in &problems {
                        eprintln!("mdbook-askdb: {problem}");
                    }
                    eprintln!(
                        "mdbook-askdb: {} problem{} with the askdb demos; the book is not built",
                        problems.len(),
                        if problems.len() == 1 { "" } else { "s" }
                    );
                    ExitCode::FAILURE
                }
            },
            Some(_) => {
                eprintln!("{USAGE}");
                ExitCode::from(2)
            }
        }
    }

    /// Reads `[context, book]` from stdin, writes the book with its demos to stdout.
    fn preprocess() -> Result<(), Vec<String>> {
        let mut input = String::new();
        std::io::stdin()
            .read_to_string(&mut input)
            .map_err(|e| vec![format!("cannot read what mdbook sent: {e}")])?;
        let (context, mut book): (Value, Value) = serde_json::from_str(&input).map_err(|e| {
            vec![format!(
                "what mdbook sent is not [context, book] ({e}); is this an mdBook 0.4 or 0.5?"
            )]
        })?;
        let root = PathBuf::from(context["root"].as_str().unwrap_or("."));
        let config = &context["config"];
        let src_shown = PathBuf::from(config["book"]["src"].as_str().unwrap_or("src"));
        let settings = &config["preprocessor"]["askdb"];
        let page_dir = settings["dir"]
            .as_str()
            .unwrap_or("askdb")
            .trim_matches('/');
        let src = root.join(&src_shown);
        let books = Book {
            src: &src,
            src_shown: &src_shown,
            page_dir,
        };

        let mut problems = Vec::new();
        let mut demos = 0;
        for items in ["items", "sections"] {
            if let Some(list) = book.get_mut(items) {
                walk(list, &books, &mut problems, &mut demos);
            }
        }
        if demos > 0 {
            let page_shown = settings["page"].as_str();
            let setting = PageSetting {
                target: src.join(page_dir),
                target_shown: src_shown.join(page_dir),
                page: page_shown.map(|page| root.join(page)),
                page_shown,
            };
            if let Err(why) = page::ensure(&setting) {
                problems.push(format!("book.toml: {why}"));
            }
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        serde_json::to_writer(std::io::stdout().lock(), &book)
            .map_err(|e| vec![format!("cannot write the book back to mdbook: {e}")])
    }

    /// Every chapter in `items`, and their sub-chapters.
    fn walk(items: &mut Value, book: &Book, problems: &mut Vec<String>, demos: &mut usize) {
        let Some(items) = items.as_array_mut() else {
            return;
        };
        for item in items {
            let Some(chapter) = item.get_mut("Chapter") else {
                continue;
            };
            process(chapter, book, problems, demos);
            if let Some(sub_items) = chapter.get_mut("sub_items") {
                walk(sub_items, book, problems, demos);
            }
        }
    }

    fn process(chapter: &mut Value, book: &Book, problems: &mut Vec<String>, demos: &mut usize) {
        // A draft chapter has no page, so no demo to show.
        let Some(path) = chapter["path"].as_str().map(PathBuf::from) else {
            return;
        };
        let source = chapter["source_path"]
            .as_str()
            .map(PathBuf::from)
            .unwrap_or_else(|| path.clone());
        let name = chapter["name"].as_str().unwrap_or_default().to_string();
        let Some(content) = chapter["content"].as_str() else {
            return;
        };
        let this = Chapter {
            name: &name,
            source: Path::new(&source),
            path: Path::new(&path),
        };
        match chapter::process(content, &this, book) {
            Ok(processed) => {
                *demos += processed.demos;
                chapter["content"] = Value::String(processed.content);
            }
            Err(found) => problems.extend(found),
        }
    }
}
