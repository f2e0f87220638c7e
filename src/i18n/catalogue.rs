//! A catalogue: one language's sentences, read from a file in Fluent's syntax
//! (<https://projectfluent.org/fluent/guide/>), the part of it the page uses:
//!
//! ```text
//! # A comment.
//! open-demo = Open the demo
//! rows = { $count ->
//!     [one] { $count } row
//!    *[other] { $count } rows
//! }
//! ```
//!
//! Messages, `{ $variable }`, `{ "literal" }` and select expressions on a variable (plural
//! categories, exact numbers, or a string's value), with indented lines continuing a message.
//! Not terms, message references or attributes: the page needs none of them.
//!
//! Written here rather than taken from `fluent-bundle`: that crate and its plural-rule tables
//! would weigh more in the page's first download than every sentence of the page, and the
//! browser already knows each language's plural rules and numbers (`Intl`), which
//! [`crate::i18n::Formats`] hands in.

use std::collections::HashMap;
use std::fmt;

/// One language's messages, by id.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Catalogue {
    messages: HashMap<String, Pattern>,
}

/// A message's text: literal pieces and the places where values go.
pub type Pattern = Vec<Piece>;

#[derive(Debug, Clone, PartialEq)]
pub enum Piece {
    Text(String),
    Variable(String),
    Select {
        on: String,
        variants: Vec<(VariantKey, Pattern)>,
        /// Index into `variants` of the one marked `*`.
        default: usize,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub enum VariantKey {
    /// A plural category (`one`, `other`, …) or a string argument's value.
    Name(String),
    /// An exact number (`[0]`).
    Number(f64),
}

/// What is wrong with a catalogue file, and where.
#[derive(Debug, Clone, PartialEq)]
pub struct CatalogueError {
    pub line: usize,
    pub problem: String,
}

impl fmt::Display for CatalogueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.problem)
    }
}

impl std::error::Error for CatalogueError {}

impl Catalogue {
    /// Reads a catalogue file. A message defined twice is an error: one of the two would be
    /// silently lost.
    pub fn parse(source: &str) -> Result<Catalogue, CatalogueError> {
        let mut messages = HashMap::new();
        for (line, id, value) in entries(source)? {
            let pattern = parse_pattern(&value).map_err(|problem| CatalogueError {
                line,
                problem: format!("{id}: {problem}"),
            })?;
            if messages.insert(id.clone(), pattern).is_some() {
                return Err(CatalogueError {
                    line,
                    problem: format!("{id} is defined twice"),
                });
            }
        }
        Ok(Catalogue { messages })
    }

    pub fn get(&self, id: &str) -> Option<&Pattern> {
        self.messages.get(id)
    }

    /// Every message's id (in no order).
    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.messages.keys().map(String::as_str)
    }

    pub fn len(&self) -> usize {
        self.messages.len()
    }

    pub fn is_empty(&self) -> bool {
        self.messages.is_empty()
    }
}

/// The variables a pattern uses, in order of first use (for the check that each language's
/// message takes the same values).
pub fn variables(pattern: &Pattern) -> Vec<String> {
    let mut found = Vec::new();
    collect_variables(pattern, &mut found);
    found
}

fn collect_variables(pattern: &Pattern, found: &mut Vec<String>) {
    fn add(found: &mut Vec<String>, name: &String) {
        if !found.contains(name) {
            found.push(name.clone());
        }
    }
    for piece in pattern {
        match piece {
            Piece::Text(_) => {}
            Piece::Variable(name) => add(found, name),
            Piece::Select { on, variants, .. } => {
                add(found, on);
                for (_, inner) in variants {
                    collect_variables(inner, found);
                }
            }
        }
    }
}

/// The file cut into `(line, id, value)`: a message is `id = value` at the start of a line,
/// and every following indented line belongs to its value (joined by newlines, the common
/// indentation removed, as Fluent does).
fn entries(source: &str) -> Result<Vec<(usize, String, String)>, CatalogueError> {
    let mut found: Vec<(usize, String, Vec<&str>)> = Vec::new();
    for (index, line) in source.lines().enumerate() {
        let number = index + 1;
        // A select's closing brace may stand at the start of a line, as in Mozilla's files.
        if line.starts_with(' ') || (line.starts_with('}') && !found.is_empty()) {
            match found.last_mut() {
                Some((_, _, lines)) => lines.push(line),
                None if line.trim().is_empty() => {}
                None => {
                    return Err(CatalogueError {
                        line: number,
                        problem: "an indented line that belongs to no message".into(),
                    })
                }
            }
            continue;
        }
        let trimmed = line.trim_end();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            // A comment or blank line ends the message before it (a blank line inside a
            // message's value would be kept by Fluent; the page's messages have none).
            if let Some((_, _, lines)) = found.last_mut() {
                lines.push("");
            }
            continue;
        }
        let Some((id, first)) = trimmed.split_once('=') else {
            return Err(CatalogueError {
                line: number,
                problem: format!("`{trimmed}` is not `id = text`"),
            });
        };
        let id = id.trim();
        if !is_identifier(id) {
            return Err(CatalogueError {
                line: number,
                problem: format!("`{id}` is not an id (letters, digits, - and _)"),
            });
        }
        found.push((number, id.to_string(), vec![first]));
    }
    Ok(found
        .into_iter()
        .map(|(line, id, lines)| (line, id, join_value(&lines)))
        .collect())
}

/// The first line's text and the indented lines after it, their common indentation removed.
fn join_value(lines: &[&str]) -> String {
    let first = lines[0].trim();
    let rest: Vec<&str> = lines[1..].to_vec();
    // Trailing blank lines are the gap before the next message.
    let last = rest.iter().rposition(|line| !line.trim().is_empty());
    let rest = &rest[..last.map_or(0, |i| i + 1)];
    let indent = rest
        .iter()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('}'))
        .map(|line| line.len() - line.trim_start().len())
        .min()
        .unwrap_or(0);
    let mut value: Vec<&str> = Vec::new();
    if !first.is_empty() {
        value.push(first);
    }
    for line in rest {
        value.push(if line.starts_with('}') {
            line.trim_end()
        } else if line.len() >= indent {
            line[indent..].trim_end()
        } else {
            ""
        });
    }
    value.join("\n")
}

fn is_identifier(id: &str) -> bool {
    let mut chars = id.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// A value's text read into pieces.
fn parse_pattern(value: &str) -> Result<Pattern, String> {
    let mut reader = Reader {
        chars: value.chars().collect(),
        at: 0,
    };
    let pattern = reader.pattern(false)?;
    if reader.at < reader.chars.len() {
        return Err(format!("unexpected `{}`", reader.chars[reader.at]));
    }
    Ok(pattern)
}

struct Reader {
    chars: Vec<char>,
    at: usize,
}

impl Reader {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    /// Text and placeables up to the end, or (inside a variant) up to the next variant or the
    /// select's closing brace at the start of a line.
    fn pattern(&mut self, in_variant: bool) -> Result<Pattern, String> {
        let mut pieces = Vec::new();
        let mut text = String::new();
        while let Some(c) = self.peek() {
            if in_variant && self.at_variant_end() {
                break;
            }
            match c {
                '{' => {
                    self.at += 1;
                    if !text.is_empty() {
                        pieces.push(Piece::Text(std::mem::take(&mut text)));
                    }
                    pieces.push(self.placeable()?);
                }
                '}' => return Err("a `}` with no `{` (write { \"}\" } for the character)".into()),
                _ => {
                    text.push(c);
                    self.at += 1;
                }
            }
        }
        if in_variant {
            // The line break and indentation before the next variant are not the variant's.
            let kept = text.trim_end().len();
            text.truncate(kept);
        }
        if !text.is_empty() {
            pieces.push(Piece::Text(text));
        }
        Ok(pieces)
    }

    /// At a line break followed by `[`, `*[` or `}`: a variant's text ends there.
    fn at_variant_end(&self) -> bool {
        if self.chars[self.at] != '\n' {
            return false;
        }
        let rest = self.chars[self.at + 1..].iter().skip_while(|c| **c == ' ');
        matches!(rest.clone().next(), Some('[' | '*' | '}'))
    }

    fn skip_blank(&mut self) {
        while matches!(self.peek(), Some(' ' | '\n')) {
            self.at += 1;
        }
    }

    fn expect(&mut self, wanted: char) -> Result<(), String> {
        self.skip_blank();
        match self.peek() {
            Some(c) if c == wanted => {
                self.at += 1;
                Ok(())
            }
            Some(c) => Err(format!("expected `{wanted}`, found `{c}`")),
            None => Err(format!("expected `{wanted}`, found the end")),
        }
    }

    /// After `{`: a variable, a string literal, or a select expression, up to its `}`.
    fn placeable(&mut self) -> Result<Piece, String> {
        self.skip_blank();
        let piece = match self.peek() {
            Some('"') => Piece::Text(self.string_literal()?),
            Some('$') => {
                self.at += 1;
                let name = self.name();
                if name.is_empty() {
                    return Err("a `$` with no variable name".into());
                }
                self.skip_blank();
                if self.peek() == Some('-') && self.chars.get(self.at + 1) == Some(&'>') {
                    self.at += 2;
                    return self.select(name);
                }
                Piece::Variable(name)
            }
            _ => return Err("a placeable is { $variable } or { \"text\" }".into()),
        };
        self.expect('}')?;
        Ok(piece)
    }

    fn name(&mut self) -> String {
        let start = self.at;
        while matches!(self.peek(), Some(c) if c.is_ascii_alphanumeric() || c == '_' || c == '-') {
            self.at += 1;
        }
        self.chars[start..self.at].iter().collect()
    }

    fn string_literal(&mut self) -> Result<String, String> {
        self.at += 1;
        let mut text = String::new();
        loop {
            match self.peek() {
                None | Some('\n') => return Err("a string literal with no closing `\"`".into()),
                Some('"') => {
                    self.at += 1;
                    return Ok(text);
                }
                Some('\\') => {
                    self.at += 1;
                    match self.peek() {
                        Some(c @ ('"' | '\\')) => text.push(c),
                        _ => return Err("only \\\" and \\\\ are escapes here".into()),
                    }
                    self.at += 1;
                }
                Some(c) => {
                    text.push(c);
                    self.at += 1;
                }
            }
        }
    }

    /// `$on -> [key] text … *[key] text }`: the variants, one of them the default.
    fn select(&mut self, on: String) -> Result<Piece, String> {
        let mut variants = Vec::new();
        let mut default = None;
        loop {
            self.skip_blank();
            match self.peek() {
                Some('}') => {
                    self.at += 1;
                    break;
                }
                Some('*') => {
                    if default.is_some() {
                        return Err(format!("{on}: two default variants"));
                    }
                    default = Some(variants.len());
                    self.at += 1;
                }
                Some('[') => {}
                _ => return Err(format!("{on}: a variant starts with [key] or *[key]")),
            }
            self.expect('[')?;
            let start = self.at;
            while matches!(self.peek(), Some(c) if c != ']' && c != '\n') {
                self.at += 1;
            }
            let key: String = self.chars[start..self.at].iter().collect();
            self.expect(']')?;
            let key = key.trim();
            let key = match key.parse::<f64>() {
                Ok(number) => VariantKey::Number(number),
                Err(_) if is_identifier(key) => VariantKey::Name(key.to_string()),
                Err(_) => return Err(format!("{on}: `[{key}]` is not a variant key")),
            };
            while self.peek() == Some(' ') {
                self.at += 1;
            }
            let text = self.pattern(true)?;
            variants.push((key, text));
        }
        let default = default.ok_or_else(|| format!("{on}: no default variant (mark one *)"))?;
        Ok(Piece::Select {
            on,
            variants,
            default,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_messages_variables_and_selects() {
        let catalogue = Catalogue::parse(
            "# comment\n\
             open-demo = Open the demo\n\
             rows = { $count ->\n    [one] one row\n    [0] no rows\n   *[other] { $count } rows\n}\n\
             brace = a { \"{\" } b\n",
        )
        .unwrap();
        assert_eq!(
            catalogue.get("open-demo"),
            Some(&vec![Piece::Text("Open the demo".into())])
        );
        let Some(
            [Piece::Select {
                on,
                variants,
                default,
            }],
        ) = catalogue.get("rows").map(Vec::as_slice)
        else {
            panic!("{:?}", catalogue.get("rows"))
        };
        assert_eq!(on, "count");
        assert_eq!(*default, 2);
        assert_eq!(variants[0].0, VariantKey::Name("one".into()));
        assert_eq!(variants[0].1, vec![Piece::Text("one row".into())]);
        assert_eq!(variants[1].0, VariantKey::Number(0.0));
        assert_eq!(
            variants[2].1,
            vec![Piece::Variable("count".into()), Piece::Text(" rows".into())]
        );
        assert_eq!(
            catalogue.get("brace"),
            Some(&vec![
                Piece::Text("a ".into()),
                Piece::Text("{".into()),
                Piece::Text(" b".into())
            ])
        );
    }

    #[test]
    fn continued_lines_join_with_their_indentation_removed() {
        let catalogue =
            Catalogue::parse("long =\n    first line\n    second line\n\nnext = x\n").unwrap();
        assert_eq!(
            catalogue.get("long"),
            Some(&vec![Piece::Text("first line\nsecond line".into())])
        );
        assert_eq!(catalogue.len(), 2);
    }

    #[test]
    fn a_broken_file_says_where() {
        let cases = [
            ("a = x\na = y\n", 2, "defined twice"),
            ("not a message\n", 1, "is not `id = text`"),
            ("a = { $n ->\n [one] x\n}\n", 1, "no default variant"),
            ("a = x }\n", 1, "a `}` with no `{`"),
            ("a = { n }\n", 1, "a placeable is"),
            ("  stray\n", 1, "belongs to no message"),
            ("1a = x\n", 1, "is not an id"),
        ];
        for (source, line, problem) in cases {
            let error = Catalogue::parse(source).unwrap_err();
            assert_eq!(error.line, line, "{source:?}");
            assert!(error.problem.contains(problem), "{source:?}: {error}");
        }
    }

    #[test]
    fn variables_are_listed_once_in_order() {
        let catalogue =
            Catalogue::parse("a = { $b } { $n ->\n [one] { $c }\n *[other] { $b }\n}\n").unwrap();
        assert_eq!(variables(catalogue.get("a").unwrap()), ["b", "n", "c"]);
    }
}
