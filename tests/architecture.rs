//! The arrows that must not exist (ARCHITECTURE.md), checked on the source text: a file that
//! names a module it must not know fails this test, with the rule it broke.
//!
//! A file "names" a module when its code (comment lines left out) says `crate::module`, directly or
//! in a group (`crate::{module, …}`). Browser crates are named as `web_sys::…` and the like.
//! Files compiled for wasm32 only (their `mod` line carries `#[cfg(target_arch = "wasm32")]`, or
//! a parent's does) are the browser glue: they may name browser crates; pure files may not.
//!
//! And the size rules, on the code of `src/` and `proxy/src/` outside tests (read by
//! `architecture/scan.rs`, which knows strings, characters and comments): no function over
//! 100 lines, no file over 1,000, no `unreachable!`.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// Modules of this crate that files under a folder must not name, and why.
const FORBIDDEN_MODULES: &[(&str, &[&str], &str)] = &[
    (
        "src/sql",
        &[
            "engine", "agent", "llm", "settings", "present", "ui", "browser",
        ],
        "sql is pure rules on SQL text and knows nothing else",
    ),
    (
        "src/llm",
        &["agent", "engine", "settings", "ui"],
        "llm knows messages and tools, not the agent, the database or the page",
    ),
    (
        "src/agent",
        &["ui", "browser", "settings"],
        "the agent never knows the page or the browser",
    ),
    (
        "src/engine",
        &["agent", "llm", "settings", "present", "ui", "model_view"],
        "the engine knows SQL rules only; everything else sits above it",
    ),
    (
        "src/browser",
        &["ui", "agent", "engine", "llm", "settings", "sql", "present"],
        "browser is a leaf: engine, llm and ui use it, so it may use none of them",
    ),
    (
        "src/conversation",
        &["ui", "browser", "settings"],
        "conversation files are pure: recorded, read and replayed without the page",
    ),
    (
        "src/present",
        &["ui", "browser"],
        "present is pure presentation logic, tested natively",
    ),
    (
        "src/settings",
        &["ui", "browser"],
        "settings is pure: the page reads and writes it",
    ),
    (
        "src/eval",
        &["ui", "browser", "settings"],
        "evaluation runs the agent core the same way in the page and natively",
    ),
    (
        "src/compare",
        &[
            "agent",
            "eval",
            "llm",
            "conversation",
            "knowledge",
            "settings",
            "present",
            "ui",
            "browser",
        ],
        "the comparison of results sits below the agent and the evaluation, which both use it \
         (and so below present, which shows the agent's events: counts come from count)",
    ),
    (
        "src/count.rs",
        &[
            "agent",
            "eval",
            "llm",
            "conversation",
            "knowledge",
            "settings",
            "present",
            "compare",
            "ui",
            "browser",
        ],
        "counts as a person reads them sit just above the engine, for the judge and what shows",
    ),
    (
        "src/text.rs",
        &[
            "agent",
            "eval",
            "llm",
            "conversation",
            "knowledge",
            "settings",
            "present",
            "compare",
            "engine",
            "sql",
            "ui",
            "browser",
        ],
        "text is a leaf everything may use",
    ),
    (
        "src/import",
        &[
            "ui",
            "agent",
            "llm",
            "settings",
            "present",
            "model_view",
            "browser",
        ],
        "the importer makes a database of data files and knows nothing of what uses it",
    ),
    (
        "src/model_view.rs",
        &["ui", "browser", "settings", "agent", "llm"],
        "what the model sees is pure, decided once for the page and askdb-eval",
    ),
    (
        "src/search",
        &[
            "agent",
            "knowledge",
            "engine",
            "eval",
            "llm",
            "conversation",
            "settings",
            "present",
            "model_view",
            "ui",
            "browser",
        ],
        "search sits below the agent's selection and knowledge retrieval, which both use it, \
         and knows nothing of the browser, the engine or the agent",
    ),
];

/// Crates that exist only in the browser.
const BROWSER_CRATES: &[&str] = &[
    "web_sys",
    "js_sys",
    "leptos",
    "wasm_bindgen",
    "wasm_bindgen_futures",
    "gloo_net",
    "gloo_timers",
    "serde_wasm_bindgen",
    "console_error_panic_hook",
];

/// Folders whose files are built for every target and tested natively: no browser crate in
/// them, except in files compiled for wasm32 only.
const PURE_FOLDERS: &[&str] = &[
    "src/sql",
    "src/llm",
    "src/agent",
    "src/engine",
    "src/present",
    "src/search",
    "src/settings",
    "src/conversation",
    "src/eval",
    "src/compare",
    "src/import",
    "src/model_view.rs",
    "src/count.rs",
    "src/clock.rs",
];

#[test]
fn no_module_names_one_it_must_not_know() {
    let sources = read_sources();
    let mut broken = Vec::new();
    for (folder, forbidden, why) in FORBIDDEN_MODULES {
        for source in sources.iter().filter(|s| s.is_under(folder)) {
            for module in crate_modules_named(&source.code) {
                if forbidden.contains(&module.as_str()) {
                    broken.push(format!(
                        "{} names crate::{module}: {why}",
                        source.path.display()
                    ));
                }
            }
        }
    }
    assert!(
        broken.is_empty(),
        "arrows that must not exist:\n{}",
        broken.join("\n")
    );
}

#[test]
fn pure_modules_name_no_browser_crate_outside_wasm_only_files() {
    let sources = read_sources();
    let mut broken = Vec::new();
    for source in sources
        .iter()
        .filter(|s| !s.wasm_only && PURE_FOLDERS.iter().any(|f| s.is_under(f)))
    {
        for name in BROWSER_CRATES {
            if names_crate(&source.code, name) {
                broken.push(format!(
                    "{} names {name} but is built for every target: move that code into \
                     src/browser/, or into a module declared behind \
                     #[cfg(target_arch = \"wasm32\")]",
                    source.path.display()
                ));
            }
        }
    }
    assert!(
        broken.is_empty(),
        "browser code in pure modules:\n{}",
        broken.join("\n")
    );
}

#[test]
fn the_glue_is_seen_as_wasm_only_and_the_rest_is_not() {
    // Guards the scan itself: were it to mark every file wasm-only, the test above would pass
    // whatever the code said.
    let sources = read_sources();
    let wasm_only = |path: &str| {
        sources
            .iter()
            .find(|s| s.path == Path::new(path))
            .unwrap_or_else(|| panic!("{path} not found"))
            .wasm_only
    };
    assert!(wasm_only("src/engine/in_memory/worker.rs"));
    assert!(!wasm_only("src/engine/in_memory/mod.rs"));
    assert!(wasm_only("src/llm/http/gloo.rs"));
    assert!(wasm_only("src/browser/storage.rs"));
    assert!(wasm_only("src/ui/mod.rs"));
    assert!(!wasm_only("src/engine/mod.rs"));
    assert!(!wasm_only("src/llm/http/mod.rs"));
    assert!(!wasm_only("src/sql/guard.rs"));
}

/// A source's code before its tests (`#[cfg(test)] mod tests`), which may spell anything out.
fn before_tests(code: &str) -> &str {
    code.split("#[cfg(test)]\nmod tests").next().unwrap_or(code)
}

/// The files whose code (before its tests; a `tests.rs` is all tests) contains `needle`, sorted.
fn files_saying(sources: &[Source], needle: &str) -> Vec<String> {
    sources
        .iter()
        .filter(|s| !s.path.ends_with("tests.rs") && before_tests(&s.code).contains(needle))
        .map(|s| s.path.display().to_string())
        .collect::<BTreeSet<String>>()
        .into_iter()
        .collect()
}

// Each kind of database is described once, by its backend (`engine::kind`'s `kinds!`): outside
// the engine a kind is only ever chosen (how a file opens, what askdb-eval opens), never matched
// on to decide what it affords. Mutation: a `match kind { DatabaseKind::Remote => … }` in
// `ui/state.rs` (as `reading()` had) fails it.
#[test]
fn what_a_kind_affords_is_read_from_its_descriptor_outside_the_engine() {
    let sources = read_sources();
    let outside: Vec<String> = files_saying(&sources, "DatabaseKind::")
        .into_iter()
        .filter(|path| !path.starts_with("src/engine/"))
        .collect();
    assert_eq!(
        outside,
        // The page asks `engine::kind::opens_in_memory` how a local file opens.
        ["src/opened.rs"],
        "only these choose a kind; read the rest from DatabaseKind's descriptor"
    );
    // The positive control: the engine's own list is found.
    assert!(files_saying(&sources, "kinds! {").contains(&"src/engine/kind/mod.rs".to_string()));
}

// The knowledge fence is written once (`engine::fenced::Fenced`), for every database. Mutation:
// a `DbError::Fenced(…)` refusal inside a backend (as `DatasetteDatabase` had) fails it.
#[test]
fn the_knowledge_fence_is_kept_in_one_place() {
    let sources = read_sources();
    // Others name the error to word it; only the fence raises it.
    assert_eq!(
        files_saying(&sources, "Err(DbError::Fenced("),
        ["src/engine/fenced.rs"]
    );
}

// Opening announces what opened (`ui::follow`) and calls none of what follows it. Mutation:
// `super::hiding::prepare_for_open(…)` back in `show_database` fails it.
#[test]
fn opening_does_not_conduct_hiding_knowledge_or_the_values() {
    let sources = read_sources();
    let opening = sources
        .iter()
        .find(|s| s.path == Path::new("src/ui/opening.rs"))
        .expect("ui/opening.rs");
    for part in ["hiding::", "knowledge::", "value_index::"] {
        assert!(
            !opening.code.contains(part),
            "ui/opening.rs names {part}: announce through ui::follow instead"
        );
    }
    assert!(
        opening.code.contains("FOLLOWERS"),
        "the control: it announces"
    );
}

// Everything that follows an open is a follower in `ui::follow`'s list: when the person hides
// or shows a part, `follow::toggle_hidden` has hiding make the model's view again and tells the
// others (`view_changes`); hiding names none of them, nor the list (which names hiding: a
// circle), and the chat watches no open database with an Effect (it is a follower). Mutations:
// hiding calling `super::value_index::refresh(state)` or `follow::view_changes` again, or the
// chat's `Effect::new(move |_| { app.open.track(); … })` put back, fails it.
#[test]
fn what_follows_an_open_is_told_through_the_followers() {
    let sources = read_sources();
    let file = |path: &str| {
        sources
            .iter()
            .find(|s| s.path == Path::new(path))
            .unwrap_or_else(|| panic!("{path}"))
    };
    let hiding = file("src/ui/hiding/mod.rs");
    for part in [
        "value_index::",
        "chat::",
        "knowledge::",
        "view_changes(",
        "follow::{",
        "follow::toggle",
    ] {
        assert!(
            !hiding.code.contains(part),
            "ui/hiding names {part}: ui::follow tells the others (toggle_hidden)"
        );
    }
    assert!(
        hiding.code.contains("follow::follower::Follower"),
        "the control: hiding is a follower"
    );
    assert!(
        file("src/ui/follow/mod.rs")
            .code
            .contains("hiding::toggle("),
        "the control: the list's conductor has hiding make the view again"
    );
    let chat: Vec<&Source> = sources
        .iter()
        .filter(|s| s.path.starts_with("src/ui/chat"))
        .collect();
    assert!(!chat.is_empty(), "the control: the chat's files are read");
    for file in chat {
        assert!(
            !file.code.contains("open.track()"),
            "{} watches the open database: follow it through ui::follow instead",
            file.path.display()
        );
    }
}

// One place tells what a file is (`identify::identify`), with the one SQLite magic and the one
// list of data files' extensions. Mutations: a second `b"SQLite format 3\0"` (as
// `conversation::sniff` had), or a second `fn sniff(` (as `engine::file_check` had), fails it.
#[test]
fn one_place_knows_sqlites_magic_and_what_a_file_is() {
    let sources = read_sources();
    assert_eq!(
        files_saying(&sources, "SQLite format 3\\0\""),
        ["src/identify.rs"]
    );
    assert_eq!(
        files_saying(&sources, "pub fn identify(name"),
        ["src/identify.rs"]
    );
    assert_eq!(files_saying(&sources, "fn sniff("), Vec::<String>::new());
    assert_eq!(files_saying(&sources, "\"ndjson\""), ["src/identify.rs"]);
}

#[test]
fn names_are_found_alone_and_in_groups_but_not_in_comments() {
    let code = without_comments(
        "use crate::{agent::Agent, engine};\n\
         use crate::llm::Message; // crate::ui\n\
         /// [`crate::present::Chart`]\n\
         let x = crate::sql::guard::check(s);\n\
         web_sys::window();",
    );
    let named: Vec<String> = crate_modules_named(&code).into_iter().collect();
    assert_eq!(named, ["agent", "engine", "llm", "sql"]);
    assert!(names_crate(&code, "web_sys"));
    assert!(!names_crate(&code, "js_sys"));
    assert!(!names_crate("use gloo::GlooHttp;", "gloo_net"));
}

/// The code map in ARCHITECTURE.md says, for each path, which of the crate's modules its code
/// knows about. This holds it to the code both ways: a file that names a module its row does not
/// list fails (an arrow the map hides), and so does a listed module that no file of the row
/// names (an arrow the code no longer has).
#[test]
fn the_code_map_says_which_modules_each_part_knows_about() {
    let map = code_map();
    let modules = crate_modules();
    let sources = read_sources();
    let mut wrong = Vec::new();
    for source in &sources {
        if source.path == Path::new("src/lib.rs") {
            continue; // it declares the modules; it names none
        }
        let Some(row) = row_for(&map, &source.path) else {
            wrong.push(format!(
                "{} has no row in ARCHITECTURE.md's code map",
                source.path.display()
            ));
            continue;
        };
        for module in modules_named_by(source) {
            let own = row.paths.iter().any(|p| {
                p.starts_with(&format!("src/{module}/")) || *p == format!("src/{module}.rs")
            });
            if modules.contains(&module) && !own && !row.knows.contains(&module) {
                wrong.push(format!(
                    "{} names {module}, which the row for {} does not list under \"knows about\"",
                    source.path.display(),
                    row.paths[0]
                ));
            }
        }
    }
    for row in &map {
        for module in &row.knows {
            let named = sources
                .iter()
                .filter(|s| row_for(&map, &s.path).is_some_and(|r| std::ptr::eq(r, row)))
                .any(|s| modules_named_by(s).contains(module));
            if !named {
                wrong.push(format!(
                    "the row for {} lists {module} under \"knows about\", but none of its files names it",
                    row.paths[0]
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "ARCHITECTURE.md's code map and the code disagree:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn the_code_map_is_read_as_written() {
    // Guards the reading itself: were the map read as empty, or the arrows after "never"
    // counted, the test above would judge nothing or the wrong thing.
    let map = code_map();
    let knows = |path: &str| {
        let row = row_for(&map, Path::new(path)).unwrap_or_else(|| panic!("no row for {path}"));
        row.knows.iter().cloned().collect::<Vec<_>>()
    };
    assert_eq!(knows("src/sql/guard.rs"), ["text"]);
    // "— never `ui`" is not an arrow.
    assert_eq!(
        knows("src/agent/run.rs"),
        [
            "clock",
            "compare",
            "engine",
            "knowledge",
            "llm",
            "model_view",
            "search",
            "sql",
            "text"
        ]
    );
    assert_eq!(knows("src/knowledge/retrieve.rs"), ["search", "text"]);
    assert!(knows("src/knowledge/tables.rs").contains(&"engine".to_string()));
    assert!(knows("src/text.rs").is_empty());
    assert_eq!(knows("src/browser/storage.rs"), ["clock"]);
    assert!(row_for(&map, Path::new("src/nowhere.rs")).is_none());
}

/// The page's address is read once (`ui::App`, into `settings::address::PageAddress`), and every
/// part takes what is its own from that: none reads the query string itself.
#[test]
fn the_query_string_is_read_in_one_place() {
    let readers: Vec<String> = read_sources()
        .iter()
        .filter(|s| !s.is_under("src/browser"))
        .filter(|s| s.code.contains("query_parameters("))
        .map(|s| s.path.display().to_string())
        .collect();
    assert_eq!(
        readers,
        ["src/ui/mod.rs"],
        "read it from ui::the_address() instead"
    );
}

/// The layout rule (ARCHITECTURE.md, "Layout"): a module with children is a folder whose root
/// is `mod.rs`, never `foo.rs` beside a `foo/`; and a `tests.rs` sits beside the `mod.rs` that
/// declares it under `#[cfg(test)]`.
#[test]
fn modules_with_children_are_folders_with_a_mod_rs() {
    let sources = read_sources();
    let mut broken = Vec::new();
    for source in &sources {
        let folder = source.path.with_extension("");
        let named_file = source
            .path
            .file_name()
            .is_some_and(|n| n != "mod.rs" && n != "lib.rs" && n != "main.rs");
        if named_file && folder.is_dir() {
            broken.push(format!(
                "{} has a folder beside it: move it to {}/mod.rs",
                source.path.display(),
                folder.display()
            ));
        }
        if source.path.file_name().is_some_and(|n| n == "tests.rs") {
            let root = source.path.with_file_name("mod.rs");
            let declared = sources
                .iter()
                .find(|s| s.path == root)
                .is_some_and(|s| s.code.contains("#[cfg(test)]\nmod tests;"));
            if !declared {
                broken.push(format!(
                    "{} is not declared by {} under #[cfg(test)]",
                    source.path.display(),
                    root.display()
                ));
            }
        }
    }
    assert!(broken.is_empty(), "the layout rule:\n{}", broken.join("\n"));
}

#[path = "architecture/scan.rs"]
mod scan;

/// The size rules (ARCHITECTURE.md, "Layout"), outside tests: a function's lines, from its `fn`
/// to its closing brace.
const MOST_LINES_PER_FUNCTION: usize = 100;
/// A file's lines, its tests (`#[cfg(test)]` items, `tests.rs` files) left out.
const MOST_LINES_PER_FILE: usize = 1_000;

/// What breaks a size rule today and is being mended elsewhere, with why: `path` for a file,
/// `path::function` for a function. An entry that no longer breaks its rule fails the test
/// (remove it then), so the list cannot outlive the work.
const KNOWN_TOO_LONG: &[(&str, &str)] = &[];

/// A source file of the crate or of askdb-proxy, its code only (`scan::code_only`).
struct SizedSource {
    /// Relative to the workspace root, such as `proxy/src/config.rs`.
    path: String,
    code: String,
    /// The line ranges of its tests (both ends in).
    tests: Vec<(usize, usize)>,
}

impl SizedSource {
    fn in_tests(&self, line: usize) -> bool {
        self.tests.iter().any(|&(a, b)| (a..=b).contains(&line))
    }

    fn lines_outside_tests(&self) -> usize {
        (1..=self.code.lines().count())
            .filter(|&line| !self.in_tests(line))
            .count()
    }
}

/// Every `.rs` file under `src/` and `proxy/src/`, but those that are all tests: `tests.rs`,
/// and any other module declared `#[cfg(test)] mod name;`.
fn sized_sources() -> Vec<SizedSource> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    collect_rust_files(&root.join("src"), &mut paths);
    collect_rust_files(&root.join("proxy/src"), &mut paths);
    let mut sources = Vec::new();
    let mut test_files = Vec::new();
    for path in paths {
        let text = fs::read_to_string(&path).expect("a readable source file");
        let code = scan::code_only(&text);
        let (tests, test_modules) = scan::test_items(&code);
        for name in test_modules {
            let folder = module_folder(&path);
            test_files.push(folder.join(format!("{name}.rs")));
            test_files.push(folder.join(name).join("mod.rs"));
        }
        let relative = path.strip_prefix(root).expect("under the root");
        let source = SizedSource {
            path: relative.display().to_string(),
            code,
            tests,
        };
        sources.push((path.clone(), source));
    }
    sources
        .into_iter()
        .filter(|(path, _)| !test_files.contains(path))
        .map(|(_, source)| source)
        .collect()
}

/// What breaks the size rules in `sources`, as (`path` or `path::function`, what it breaks).
fn too_long(
    sources: &[SizedSource],
    most_per_function: usize,
    most_per_file: usize,
) -> Vec<(String, String)> {
    let mut broken = Vec::new();
    for source in sources {
        let lines = source.lines_outside_tests();
        if lines > most_per_file {
            let why = format!("{lines} lines outside tests (most {most_per_file})");
            broken.push((source.path.clone(), why));
        }
        for function in scan::functions(&source.code) {
            if function.lines > most_per_function && !source.in_tests(function.line) {
                let (lines, line) = (function.lines, function.line);
                broken.push((
                    format!("{}::{}", source.path, function.name),
                    format!("{lines} lines from line {line} (most {most_per_function})"),
                ));
            }
        }
    }
    broken
}

/// No function over 100 lines and no file over 1,000, outside tests: a newcomer reads a
/// function at once and a file in a sitting. Mutation: a 101-line function added to
/// `src/count.rs` fails it (`src/count.rs::too_long: 101 lines`), and so does an entry of
/// [`KNOWN_TOO_LONG`] that is within the rules (`src/count.rs::rows`: "remove from
/// KNOWN_TOO_LONG").
#[test]
fn functions_and_files_are_short_outside_tests() {
    let broken = too_long(
        &sized_sources(),
        MOST_LINES_PER_FUNCTION,
        MOST_LINES_PER_FILE,
    );
    let known = |what: &str| KNOWN_TOO_LONG.iter().any(|(name, _)| *name == what);
    let new: Vec<String> = broken
        .iter()
        .filter(|(what, _)| !known(what))
        .map(|(what, why)| format!("{what}: {why}"))
        .collect();
    assert!(
        new.is_empty(),
        "too long: split it by job\n{}",
        new.join("\n")
    );
    let mended: Vec<&str> = KNOWN_TOO_LONG
        .iter()
        .map(|(name, _)| *name)
        .filter(|name| !broken.iter().any(|(what, _)| what == name))
        .collect();
    assert!(
        mended.is_empty(),
        "within the size rules now: remove from KNOWN_TOO_LONG in tests/architecture.rs\n{}",
        mended.join("\n")
    );
}

/// `unreachable!` says "the types allow this, trust me": outside tests, make the type say it
/// instead, or return an error. Mutation: a function saying `unreachable!("no")` added to
/// `src/count.rs` fails it.
#[test]
fn nothing_is_unreachable_outside_tests() {
    let mut found = Vec::new();
    for source in sized_sources() {
        for (at, _) in source.code.match_indices("unreachable!") {
            let line = scan::line_of(&source.code, at);
            if !source.in_tests(line) {
                found.push(format!("{}:{line}", source.path));
            }
        }
    }
    assert!(
        found.is_empty(),
        "unreachable! outside tests:\n{}",
        found.join("\n")
    );
}

/// The control for the two tests above: the reading finds a long function whatever its braces
/// say in strings, characters and comments, leaves tests out, and sees `unreachable!` only in
/// code. Mutation: `scan::code_only` keeping strings as they are fails it (the `"}"` closes
/// the function early).
#[test]
fn the_size_reading_finds_long_functions_and_leaves_tests_out() {
    let body: String = (0..97).map(|i| format!("    let x{i} = '}}';\n")).collect();
    let fixture = format!(
        "/// `fn doc() {{`\n\
         fn long<'a>(s: &'a str, a: [u8; 2]) -> &'a str {{\n\
         \x20   let text = \"}} fn inner() {{ \\\" }}\";\n\
         {body}\
         \x20   r#\"}}\"#; /* }} /* }} */ */ b'}}'; // }}\n\
         }}\n\
         fn short() {{ unreachable!() }}\n\
         const NOTE: &str = \"unreachable!\";\n\
         #[cfg(test)]\n\
         mod tests {{\n\
         {body}{body}\
         \x20   fn long_test() {{\n{body}{body}    }}\n\
         }}\n\
         #[cfg(test)]\n\
         mod more;\n"
    );
    let code = scan::code_only(&fixture);
    let (tests, test_files) = scan::test_items(&code);
    let source = SizedSource {
        path: "fixture.rs".into(),
        code,
        tests,
    };
    let functions = scan::functions(&source.code);
    let named: Vec<(&str, usize, usize)> = functions
        .iter()
        .map(|f| (f.name.as_str(), f.line, f.lines))
        .collect();
    assert_eq!(
        named,
        [("long", 2, 101), ("short", 103, 1), ("long_test", 301, 196)]
    );
    assert_eq!(test_files, ["more"]);
    assert_eq!(source.lines_outside_tests(), 106);
    let broken = too_long(std::slice::from_ref(&source), 100, 106);
    assert_eq!(broken.len(), 1, "{broken:?}");
    assert_eq!(broken[0].0, "fixture.rs::long");
    let broken = too_long(std::slice::from_ref(&source), 101, 105);
    assert_eq!(broken.len(), 1, "{broken:?}");
    assert_eq!(broken[0].0, "fixture.rs", "the file");
    let unreachable: Vec<usize> = source
        .code
        .match_indices("unreachable!")
        .map(|(at, _)| scan::line_of(&source.code, at))
        .collect();
    assert_eq!(unreachable, [103]);
}

/// A row of the code map: its paths, and the crate's modules it says they know about.
struct MapRow {
    paths: Vec<String>,
    knows: BTreeSet<String>,
}

/// The rows of ARCHITECTURE.md's code map whose paths are under `src/`.
fn code_map() -> Vec<MapRow> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let modules = crate_modules();
    text.lines()
        .filter(|line| line.starts_with("| `src/"))
        .map(|line| {
            let cells: Vec<&str> = line.trim_matches('|').split(" | ").collect();
            let named_paths = backticked(cells[0]);
            let first = named_paths[0].clone();
            let folder = first.rsplit_once('/').map_or("", |(f, _)| f).to_string();
            // `src/knowledge/retrieve.rs`, `budget.rs`: a bare name sits beside the first path.
            let paths = named_paths
                .into_iter()
                .map(|p| {
                    if p.contains('/') {
                        p
                    } else {
                        format!("{folder}/{p}")
                    }
                })
                .collect();
            // The arrows end where the cell starts to explain: at " — " (what it must never
            // know) or at ": " (who uses it).
            let arrows = cells[cells.len() - 1];
            let arrows = arrows.split(" — ").next().unwrap_or("");
            let arrows = arrows.split(": ").next().unwrap_or("");
            let knows = backticked(arrows)
                .into_iter()
                .map(|name| first_segment(&name))
                .filter(|name| modules.contains(name))
                .collect();
            MapRow { paths, knows }
        })
        .collect()
}

/// The row whose path holds `file` most closely (a file's own row before its folder's).
fn row_for<'m>(map: &'m [MapRow], file: &Path) -> Option<&'m MapRow> {
    let file = file.to_str().expect("a UTF-8 path");
    map.iter()
        .flat_map(|row| row.paths.iter().map(move |path| (path, row)))
        .filter(|(path, _)| {
            if path.ends_with('/') {
                file.starts_with(path.as_str())
            } else {
                file == path.as_str()
            }
        })
        .max_by_key(|(path, _)| path.len())
        .map(|(_, row)| row)
}

/// The text between each pair of backticks.
fn backticked(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// The crate's top-level modules: the folders and files right under `src/`.
fn crate_modules() -> BTreeSet<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    fs::read_dir(root)
        .expect("src/")
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| path.is_dir() || path.extension().is_some_and(|e| e == "rs"))
        .filter_map(|path| Some(path.file_stem()?.to_str()?.to_string()))
        .filter(|name| !matches!(name.as_str(), "bin" | "lib" | "main"))
        .collect()
}

/// The crate's modules a file names: as `crate::…` in the library, as `askdb::…` in a binary
/// (whose `crate::` is the binary itself).
fn modules_named_by(source: &Source) -> BTreeSet<String> {
    let binary = source.path.starts_with("src/bin") || source.path == Path::new("src/main.rs");
    if binary {
        paths_named(&source.code, "askdb::")
    } else {
        crate_modules_named(&source.code)
    }
}

struct Source {
    /// Relative to the crate root, such as `src/llm/http.rs`.
    path: PathBuf,
    /// The file's text without its comments.
    code: String,
    /// Compiled for wasm32 only.
    wasm_only: bool,
}

impl Source {
    fn is_under(&self, folder: &str) -> bool {
        self.path.starts_with(folder)
    }
}

/// Every `.rs` file under `src/`, with whether it is compiled for wasm32 only.
fn read_sources() -> Vec<Source> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    collect_rust_files(&root.join("src"), &mut paths);
    let texts: Vec<(PathBuf, String)> = paths
        .into_iter()
        .map(|path| {
            let text = fs::read_to_string(&path).expect("a readable source file");
            let relative = path
                .strip_prefix(root)
                .expect("under the root")
                .to_path_buf();
            (relative, text)
        })
        .collect();
    // The folders of modules declared behind `#[cfg(target_arch = "wasm32")]`.
    let mut wasm_modules = Vec::new();
    for (path, text) in &texts {
        for name in wasm_only_modules(text) {
            wasm_modules.push(module_folder(path).join(name));
        }
    }
    texts
        .into_iter()
        .map(|(path, text)| {
            let wasm_only = text
                .trim_start()
                .starts_with("#![cfg(target_arch = \"wasm32\")]")
                || wasm_modules
                    .iter()
                    .any(|module| path.starts_with(module) || path == module.with_extension("rs"));
            Source {
                code: without_comments(&text),
                path,
                wasm_only,
            }
        })
        .collect()
}

fn collect_rust_files(folder: &Path, into: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(folder).expect("a readable folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            collect_rust_files(&path, into);
        } else if path.extension().is_some_and(|e| e == "rs") {
            into.push(path);
        }
    }
}

/// The folder a file's child modules live in: `src/llm/http.rs` → `src/llm/http`,
/// `src/llm/mod.rs` → `src/llm`, `src/lib.rs` → `src`.
fn module_folder(path: &Path) -> PathBuf {
    let parent = path.parent().expect("a file in a folder");
    match path.file_stem().and_then(|s| s.to_str()) {
        Some("mod" | "lib" | "main") => parent.to_path_buf(),
        Some(stem) => parent.join(stem),
        None => parent.to_path_buf(),
    }
}

/// Names of the modules a file declares right after `#[cfg(target_arch = "wasm32")]` (or the
/// page's own cfg, which adds the `page` feature).
fn wasm_only_modules(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    lines
        .windows(2)
        .filter(|pair| {
            pair[0] == "#[cfg(target_arch = \"wasm32\")]"
                || pair[0] == "#[cfg(all(target_arch = \"wasm32\", feature = \"page\"))]"
        })
        .filter_map(|pair| {
            let declaration = pair[1]
                .trim_start_matches("pub(crate) ")
                .trim_start_matches("pub ");
            let name = declaration.strip_prefix("mod ")?.strip_suffix(';')?;
            Some(name.trim().to_string())
        })
        .collect()
}

/// The text without its comments: lines that are comments (doc comments too) are left out,
/// and a comment after code (` // …`) is cut off.
fn without_comments(text: &str) -> String {
    text.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .map(|line| line.find(" // ").map_or(line, |at| &line[..at]))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first segments of every `crate::…` path in `code`, groups included.
fn crate_modules_named(code: &str) -> BTreeSet<String> {
    paths_named(code, "crate::")
}

/// The first segments of every path in `code` that starts with `prefix` (such as `crate::`),
/// groups included.
fn paths_named(code: &str, prefix: &str) -> BTreeSet<String> {
    let mut named = BTreeSet::new();
    for (at, _) in code.match_indices(prefix) {
        let preceded_by_word = code[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_');
        if preceded_by_word {
            continue; // `some_crate::`, not this crate
        }
        let rest = &code[at + prefix.len()..];
        match rest.strip_prefix('{') {
            Some(group) => {
                let group = &group[..group_end(group)];
                for part in top_level_parts(group) {
                    named.insert(first_segment(part));
                }
            }
            None => {
                named.insert(first_segment(rest));
            }
        }
    }
    named.retain(|name| !name.is_empty());
    named
}

/// The length of a `{…}` group's inside, up to its closing brace.
fn group_end(group: &str) -> usize {
    let mut depth = 0;
    for (at, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => return at,
            '}' => depth -= 1,
            _ => {}
        }
    }
    group.len()
}

/// The comma-separated parts of a group, not splitting inside nested groups.
fn top_level_parts(group: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (at, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&group[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    parts.push(&group[start..]);
    parts
}

fn first_segment(path: &str) -> String {
    path.trim_start()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect()
}

/// Whether `code` names the crate `name` (`name::…`, not `other_name::…`).
fn names_crate(code: &str, name: &str) -> bool {
    let path = format!("{name}::");
    code.match_indices(&path).any(|(at, _)| {
        !code[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':')
    })
}
