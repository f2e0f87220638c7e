//! One ```askdb block read into a [`Demo`]: lines of `key = "value"` (TOML's basic strings,
//! `#` comments and blank lines allowed), each key known and given once, each value one the
//! `<askdb-demo>` tag takes. Every mistake is reported with the line it is on.
//!
//! A TOML crate would read more than these one-line strings; a JSON string is the same thing as
//! a TOML basic string for what a demo needs (`\"`, `\\`, `\n`, `\uXXXX`), so serde_json reads
//! the value.

/// The keys a block may have, with what each is for (said when a key is unknown).
pub const KEYS: [(&str, &str); 13] = [
    ("db", "the database, beside the chapter (required)"),
    ("replay", "a recorded conversation that plays without a key"),
    ("q", "the question filled in"),
    ("notes", "a notes file that goes to the model"),
    ("mode", "\"safe\": the model writes no SQL"),
    (
        "hide",
        "tables and columns hidden from the model: \"customers.email,payments\"",
    ),
    (
        "endpoint",
        "an askdb-proxy demo's https address: readers ask their own questions, the author pays",
    ),
    ("theme", "\"light\" or \"dark\" (default: the book's)"),
    ("title", "the frame's title, for screen readers"),
    (
        "height",
        "the frame's height until askdb reports one (\"30rem\", \"400px\")",
    ),
    (
        "provider",
        "the model's provider for readers' own questions",
    ),
    ("base_url", "its endpoint"),
    ("model", "its model name"),
];

/// The keys whose value is a file of the book (or an http(s) address).
pub const FILE_KEYS: [&str; 3] = ["db", "replay", "notes"];

/// A demo as a block describes it: the keys given, in the order of [`KEYS`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Demo {
    pub values: Vec<(&'static str, String)>,
    /// The line each key was given on (1 for the block's first line).
    pub lines: Vec<(&'static str, usize)>,
}

impl Demo {
    pub fn get(&self, key: &str) -> Option<&str> {
        self.values
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The line of the block `key` was given on.
    pub fn line_of(&self, key: &str) -> usize {
        self.lines
            .iter()
            .find(|(k, _)| *k == key)
            .map_or(1, |(_, line)| *line)
    }
}

/// A mistake on a line of the block (1 for its first line).
#[derive(Clone, Debug, PartialEq)]
pub struct BlockError {
    pub line: usize,
    pub message: String,
}

/// Reads a block's text (what is between its fences).
pub fn read(text: &str) -> Result<Demo, Vec<BlockError>> {
    let mut demo = Demo::default();
    let mut errors = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let content = raw.trim();
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        let fail = |message: String| BlockError { line, message };
        let Some((key, value)) = content.split_once('=') else {
            errors.push(fail(format!("expected key = \"value\", found {content:?}")));
            continue;
        };
        let key = key.trim().trim_matches('"');
        let Some(&(known, _)) = KEYS.iter().find(|(k, _)| *k == key) else {
            errors.push(fail(format!(
                "unknown key {key:?} (known keys: {})",
                KEYS.iter().map(|(k, _)| *k).collect::<Vec<_>>().join(", ")
            )));
            continue;
        };
        if demo.get(known).is_some() {
            errors.push(fail(format!("{known} is given twice")));
            continue;
        }
        match string_value(value.trim()).and_then(|v| checked(known, v)) {
            Ok(value) => {
                demo.values.push((known, value));
                demo.lines.push((known, line));
            }
            Err(why) => errors.push(fail(format!("{known}: {why}"))),
        }
    }
    if demo.get("db").is_none() && errors.is_empty() {
        errors.push(BlockError {
            line: 1,
            message: "no db: say which database the demo opens (db = \"data/shop.db\")".into(),
        });
    }
    demo.values.sort_by_key(|(k, _)| position(k));
    if errors.is_empty() {
        Ok(demo)
    } else {
        Err(errors)
    }
}

fn position(key: &str) -> usize {
    KEYS.iter()
        .position(|(k, _)| *k == key)
        .unwrap_or(KEYS.len())
}

/// A quoted string, with an optional `# comment` after it.
fn string_value(text: &str) -> Result<String, String> {
    if !text.starts_with('"') {
        return Err(format!("the value must be quoted: \"{text}\""));
    }
    // The closing quote is the first `"` not escaped by a backslash.
    let mut escaped = false;
    let end = text[1..].char_indices().find_map(|(i, c)| {
        let found = c == '"' && !escaped;
        escaped = c == '\\' && !escaped;
        found.then_some(i + 1)
    });
    let Some(end) = end else {
        return Err("the value's closing quote is missing".into());
    };
    let rest = text[end + 1..].trim();
    if !(rest.is_empty() || rest.starts_with('#')) {
        return Err(format!("unexpected {rest:?} after the value"));
    }
    serde_json::from_str(&text[..=end]).map_err(|e| format!("not a valid string: {e}"))
}

/// The value, if the key takes it.
fn checked(key: &str, value: String) -> Result<String, String> {
    let value = value.trim().to_string();
    if value.is_empty() {
        return Err("the value is empty".into());
    }
    if value.chars().any(char::is_control) {
        return Err("the value has a control character (a line break?)".into());
    }
    match key {
        "mode" if !matches!(value.as_str(), "safe" | "sql") => {
            Err(format!("{value:?} is not \"safe\" or \"sql\""))
        }
        "theme" if !matches!(value.as_str(), "light" | "dark" | "auto") => {
            Err(format!("{value:?} is not \"light\", \"dark\" or \"auto\""))
        }
        "endpoint" => askdb::settings::demo_endpoint::check_endpoint(&value),
        "height" if !is_length(&value) => Err(format!(
            "{value:?} is not a CSS length such as \"30rem\" or \"480px\""
        )),
        _ => Ok(value),
    }
}

/// `480px`, `30rem`, `20em`, `50vh`: a positive number and a unit.
fn is_length(value: &str) -> bool {
    let number_end = value
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(value.len());
    let (number, unit) = value.split_at(number_end);
    number.parse::<f64>().is_ok_and(|n| n > 0.0) && ["px", "rem", "em", "vh"].contains(&unit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_reads_its_keys_with_comments_and_escapes() {
        let demo = read(
            "# the music store\n\
             db = \"data/chinook.db\"\n\
             \n\
             q = \"Which \\\"five\\\" genres?\"  # asked\n\
             mode = \"safe\"\n\
             replay = \"recordings/top-genres.askdb.json\"\n",
        )
        .unwrap();
        assert_eq!(demo.get("db"), Some("data/chinook.db"));
        assert_eq!(demo.get("q"), Some("Which \"five\" genres?"));
        assert_eq!(demo.line_of("q"), 4);
        let keys: Vec<&str> = demo.values.iter().map(|(k, _)| *k).collect();
        assert_eq!(keys, ["db", "replay", "q", "mode"]);
    }

    #[test]
    fn each_mistake_names_its_line() {
        let errors = read(
            "db = \"a.db\"\n\
             dbb = \"b.db\"\n\
             q = unquoted\n\
             mode = \"fast\"\n\
             db = \"c.db\"\n\
             height = \"tall\"\n\
             just words\n\
             q = \"open\n",
        )
        .unwrap_err();
        let lines: Vec<usize> = errors.iter().map(|e| e.line).collect();
        assert_eq!(lines, [2, 3, 4, 5, 6, 7, 8]);
        assert!(
            errors[0].message.contains("unknown key \"dbb\""),
            "{errors:?}"
        );
        assert!(errors[0].message.contains("db, replay, q"), "{errors:?}");
        assert!(errors[1].message.contains("must be quoted"), "{errors:?}");
        assert!(errors[2].message.contains("\"fast\" is not"), "{errors:?}");
        assert!(errors[3].message.contains("twice"), "{errors:?}");
        assert!(errors[6].message.contains("closing quote"), "{errors:?}");
    }

    #[test]
    fn an_endpoint_is_a_web_address() {
        let demo = read(
            "db = \"data/music.db\"\n\
             endpoint = \"https://proxy.example/demo/music/\"\n",
        )
        .unwrap();
        assert_eq!(
            demo.get("endpoint"),
            Some("https://proxy.example/demo/music")
        );
        let errors = read("db = \"a.db\"\nendpoint = \"proxy.example/demo\"\n").unwrap_err();
        assert_eq!(errors[0].line, 2);
        assert!(
            errors[0]
                .message
                .starts_with("endpoint: the endpoint must start with http"),
            "{errors:?}"
        );
    }

    #[test]
    fn a_block_without_a_database_says_so() {
        let errors = read("q = \"How many?\"\n").unwrap_err();
        assert!(errors[0].message.starts_with("no db"), "{errors:?}");
        assert!(is_length("30rem") && is_length("480px") && !is_length("px") && !is_length("0px"));
    }
}
