//! One chapter: its ```askdb blocks found (by pulldown-cmark, as mdBook reads Markdown, so a
//! fence inside another code block or a quote is read the way mdBook reads it), each read
//! and its files checked against the book's `src` folder, then replaced by the demo's HTML.
//! Every problem names the chapter, its file and the line.

use super::block::{self, Demo, FILE_KEYS};
use super::html::{self, Placement};
use askdb::conversation::{self, DatabaseIdentity};
use askdb::engine::file_check::check_header;
use askdb::engine::identity::Identity;
use askdb::engine::native::file_digest::digest_file;
use askdb::knowledge::sidecar;
use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};
use std::io::Read;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// A chapter as mdBook hands it over.
pub struct Chapter<'a> {
    pub name: &'a str,
    /// Its file, relative to the book's `src` folder.
    pub source: &'a Path,
    /// Its page, relative to the book's root (`guide/intro.md` becomes `guide/intro.html`).
    pub path: &'a Path,
}

/// The book around the chapters.
pub struct Book<'a> {
    /// The book's `src` folder on disk.
    pub src: &'a Path,
    /// How `src` is called in messages (`src`).
    pub src_shown: &'a Path,
    /// Where the askdb page is in the built book (`askdb`).
    pub page_dir: &'a str,
}

/// What a chapter became.
pub struct Processed {
    pub content: String,
    /// How many demos it has.
    pub demos: usize,
}

/// A fenced block whose info string is `askdb`: where it is, and its text.
struct Found {
    range: Range<usize>,
    text: String,
}

/// Replaces each ```askdb block of `content`; or every problem found, one message each.
pub fn process(content: &str, chapter: &Chapter, book: &Book) -> Result<Processed, Vec<String>> {
    let found = askdb_blocks(content);
    if found.is_empty() {
        return Ok(Processed {
            content: content.to_string(),
            demos: 0,
        });
    }
    let chapter_dir = chapter.path.parent().map(slashed).unwrap_or_default();
    let to_root = "../".repeat(chapter_dir.matches('/').count());
    let place = Placement {
        to_root: &to_root,
        page_dir: book.page_dir,
        chapter_dir: &chapter_dir,
    };
    let source_dir = chapter.source.parent().unwrap_or(Path::new(""));
    let mut problems = Vec::new();
    let mut out = String::with_capacity(content.len());
    let mut copied_to = 0;
    for (index, block) in found.iter().enumerate() {
        let first_line = content[..block.range.start].matches('\n').count() + 1;
        let here = |line: usize, message: &str| {
            format!(
                "chapter {:?} ({}), line {}: {message}",
                chapter.name,
                book.src_shown.join(chapter.source).display(),
                first_line + line
            )
        };
        let demo = match block::read(&block.text) {
            Ok(demo) => demo,
            Err(errors) => {
                problems.extend(errors.iter().map(|e| here(e.line, &e.message)));
                continue;
            }
        };
        for (key, line, message) in check_files(&demo, book, source_dir) {
            problems.push(here(line, &format!("{key}: {message}")));
        }
        let line_start = content[..block.range.start]
            .rfind('\n')
            .map_or(0, |i| i + 1);
        let indent: String = content[line_start..block.range.start]
            .chars()
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        out.push_str(&content[copied_to..block.range.start]);
        if index == 0 {
            out.push_str(&html::script(&place));
            out.push_str("\n\n");
            out.push_str(&indent);
        }
        out.push_str(html::tag(&demo, &place, &indent).trim_start());
        out.push('\n');
        copied_to = block.range.end;
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    out.push_str(&content[copied_to..]);
    Ok(Processed {
        content: out,
        demos: found.len(),
    })
}

/// The fenced code blocks whose info string's first word is `askdb`.
fn askdb_blocks(content: &str) -> Vec<Found> {
    let mut found = Vec::new();
    let mut open: Option<Found> = None;
    for (event, range) in Parser::new(content).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info)))
                if info.split_whitespace().next() == Some("askdb") =>
            {
                open = Some(Found {
                    range,
                    text: String::new(),
                });
            }
            Event::Text(text) => {
                if let Some(block) = &mut open {
                    block.text.push_str(&text);
                }
            }
            Event::End(TagEnd::CodeBlock) => found.extend(open.take()),
            _ => {}
        }
    }
    found
}

/// `guide` as `guide/`; the root as `""`.
fn slashed(dir: &Path) -> String {
    let parts: Vec<String> = dir
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    parts.iter().map(|p| format!("{p}/")).collect()
}

/// The demo's files: each must be in the book's `src` folder (mdBook copies only that into the
/// book), exist, and be what its key says; a recording must have been made on this very
/// database (a reader's page would say it was not). `(key, line, why)` for each problem.
fn check_files(demo: &Demo, book: &Book, source_dir: &Path) -> Vec<(&'static str, usize, String)> {
    let mut problems = Vec::new();
    let mut files: Vec<(&'static str, PathBuf)> = Vec::new();
    for key in FILE_KEYS {
        let Some(value) = demo.get(key) else {
            continue;
        };
        if html::is_address(value) {
            continue;
        }
        let problem = |why: String| (key, demo.line_of(key), why);
        let within = html::normalized(&format!("{}/{value}", source_dir.display()));
        if value.starts_with('/') || within.starts_with("..") || Path::new(value).is_absolute() {
            problems.push(problem(format!(
                "{value:?} is outside the book's {} folder, which is all mdBook copies into \
                 the book: put the file there and name it relative to the chapter",
                book.src_shown.display()
            )));
            continue;
        }
        let path = book.src.join(&within);
        if !path.is_file() {
            problems.push(problem(format!(
                "{value:?}: no such file (looked for {})",
                book.src_shown.join(&within).display()
            )));
            continue;
        }
        if let Err(why) = check_kind(key, &path) {
            problems.push(problem(format!("{value:?}: {why}")));
            continue;
        }
        files.push((key, path));
    }
    let file = |key: &str| files.iter().find(|(k, _)| *k == key).map(|(_, p)| p);
    if let (Some(db), Some(replay)) = (file("db"), file("replay")) {
        if let Err(why) = same_database(db, replay) {
            problems.push(("replay", demo.line_of("replay"), why));
        }
    }
    problems
}

/// Whether the file is what its key asks for.
fn check_kind(key: &str, path: &Path) -> Result<(), String> {
    let unreadable = |e: std::io::Error| format!("cannot read it: {e}");
    match key {
        "db" => {
            let mut head = Vec::new();
            let file = std::fs::File::open(path).map_err(unreadable)?;
            let len = file.metadata().map_err(unreadable)?.len();
            file.take(100).read_to_end(&mut head).map_err(unreadable)?;
            check_header(&head, len).map_err(|why| format!("not a SQLite database: {why}"))
        }
        "replay" => {
            let text = std::fs::read_to_string(path).map_err(unreadable)?;
            conversation::read(&text)
                .map(|_| ())
                .map_err(|why| format!("not a conversation askdb replays: {why}"))
        }
        "notes" => {
            let text = std::fs::read_to_string(path).map_err(unreadable)?;
            sidecar::read(&text)
                .map(|_| ())
                .map_err(|why| format!("not a notes file askdb reads: {why}"))
        }
        _ => Ok(()),
    }
}

/// Whether the recording at `replay` was made on the database at `db`, by the page's rule.
fn same_database(db: &Path, replay: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(replay).map_err(|e| e.to_string())?;
    let file = conversation::read(&text).map_err(|e| e.to_string())?;
    let digest = digest_file(db).map_err(|e| format!("cannot read {}: {e}", db.display()))?;
    let open = DatabaseIdentity::new(
        &digest.name,
        &Identity::Bytes {
            size: digest.size,
            sha256: digest.sha256,
        },
    );
    match file.database.differs_from(&open) {
        None => Ok(()),
        Some(why) => Err(format!(
            "the recording does not match the demo's database, and every reader would be told \
             so. {why} Record it again (askdb-eval record), or restore the database."
        )),
    }
}
