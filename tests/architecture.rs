//! The arrows that must not exist (ARCHITECTURE.md), checked on the source text: a file that
//! names a module it must not know fails this test, with the rule it broke.
//!
//! A file "names" a module when its code (comment lines left out) says `crate::module`, directly or
//! in a group (`crate::{module, …}`). Browser crates are named as `web_sys::…` and the like.
//! Files compiled for wasm32 only (their `mod` line carries `#[cfg(target_arch = "wasm32")]`, or
//! a parent's does) are the browser glue: they may name browser crates; pure files may not.
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
            "ui",
            "browser",
        ],
        "the comparison of results sits below the agent and the evaluation, which both use it",
    ),
    (
        "src/model_view.rs",
        &["ui", "browser", "settings", "agent", "llm"],
        "what the model sees is pure, decided once for the page and askdb-eval",
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
    "src/settings",
    "src/conversation",
    "src/eval",
    "src/compare",
    "src/model_view.rs",
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
    assert!(wasm_only("src/engine/worker.rs"));
    assert!(wasm_only("src/llm/http/gloo.rs"));
    assert!(wasm_only("src/browser/storage.rs"));
    assert!(wasm_only("src/ui/mod.rs"));
    assert!(!wasm_only("src/engine/mod.rs"));
    assert!(!wasm_only("src/llm/http.rs"));
    assert!(!wasm_only("src/sql/guard.rs"));
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

/// Names of the modules a file declares right after `#[cfg(target_arch = "wasm32")]`.
fn wasm_only_modules(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    lines
        .windows(2)
        .filter(|pair| pair[0] == "#[cfg(target_arch = \"wasm32\")]")
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
    let mut named = BTreeSet::new();
    for (at, _) in code.match_indices("crate::") {
        let preceded_by_word = code[..at]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_');
        if preceded_by_word {
            continue; // `some_crate::`, not this crate
        }
        let rest = &code[at + "crate::".len()..];
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
