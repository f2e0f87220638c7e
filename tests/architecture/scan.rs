//! A small reading of Rust source for the size rules: where its functions start and end, which
//! lines are tests, and where `unreachable!` is said, with strings, characters and comments
//! seen as such (a `}` in a string or a comment closes nothing).

/// The source with the inside of every comment, string and character literal blanked out
/// (spaces; line breaks kept, so lines keep their numbers). What is left is code.
pub fn code_only(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut out = String::with_capacity(source.len());
    let mut at = 0;
    while at < chars.len() {
        let end = literal_or_comment_end(&chars, at);
        if end == at {
            out.push(chars[at]);
            at += 1;
        } else {
            out.extend(chars[at..end].iter().map(|&c| blank(c)));
            at = end;
        }
    }
    out
}

fn blank(c: char) -> char {
    if c == '\n' {
        '\n'
    } else {
        ' '
    }
}

/// Where the comment or literal starting at `at` ends (just past it), or `at` when none starts
/// there.
fn literal_or_comment_end(chars: &[char], at: usize) -> usize {
    let next = |i: usize| chars.get(at + i).copied();
    let after_word = at > 0 && is_word(chars[at - 1]);
    match chars[at] {
        '/' if next(1) == Some('/') => (at..chars.len())
            .find(|&i| chars[i] == '\n')
            .unwrap_or(chars.len()),
        '/' if next(1) == Some('*') => block_comment_end(chars, at),
        '"' => string_end(chars, at + 1),
        'r' | 'b' if !after_word => raw_string_end(chars, at).unwrap_or(at),
        '\'' => char_end(chars, at).unwrap_or(at),
        _ => at,
    }
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Block comments nest in Rust.
fn block_comment_end(chars: &[char], start: usize) -> usize {
    let (mut depth, mut at) = (0, start);
    while at + 1 < chars.len() {
        match (chars[at], chars[at + 1]) {
            ('/', '*') => {
                depth += 1;
                at += 2;
            }
            ('*', '/') => {
                depth -= 1;
                at += 2;
                if depth == 0 {
                    return at;
                }
            }
            _ => at += 1,
        }
    }
    chars.len()
}

/// Past the closing quote of a string whose inside starts at `at` (escapes skipped).
fn string_end(chars: &[char], mut at: usize) -> usize {
    while at < chars.len() {
        match chars[at] {
            '\\' => at += 2,
            '"' => return at + 1,
            _ => at += 1,
        }
    }
    chars.len()
}

/// `r"…"`, `r#"…"#`, `br"…"`, `b"…"`: past its end, or None when `at` starts none of them.
fn raw_string_end(chars: &[char], at: usize) -> Option<usize> {
    let mut i = at;
    if chars[i] == 'b' {
        i += 1;
        if chars.get(i) == Some(&'"') {
            return Some(string_end(chars, i + 1));
        }
    }
    if chars.get(i) != Some(&'r') {
        return None;
    }
    i += 1;
    let hashes = chars[i..].iter().take_while(|&&c| c == '#').count();
    i += hashes;
    if chars.get(i) != Some(&'"') {
        return None;
    }
    i += 1;
    while i < chars.len() {
        if chars[i] == '"'
            && chars[i + 1..]
                .iter()
                .take(hashes)
                .filter(|&&c| c == '#')
                .count()
                == hashes
        {
            return Some(i + 1 + hashes);
        }
        i += 1;
    }
    Some(chars.len())
}

/// `'x'`, `'\n'`, `'\u{…}'`: past its end; None for a lifetime (`'a`, `'static`).
fn char_end(chars: &[char], at: usize) -> Option<usize> {
    match chars.get(at + 1)? {
        '\\' => (at + 2..chars.len())
            .find(|&i| chars[i] == '\'')
            .map(|i| i + 1),
        _ if chars.get(at + 2) == Some(&'\'') => Some(at + 3),
        _ => None,
    }
}

/// A function found in code: its name, the line of its `fn` (from 1) and how many lines it
/// spans, from that line to the one of its closing brace.
#[derive(Debug, PartialEq)]
pub struct Function {
    pub name: String,
    pub line: usize,
    pub lines: usize,
}

/// Every function with a body in `code` (from [`code_only`]), nested ones too.
pub fn functions(code: &str) -> Vec<Function> {
    let bytes = code.as_bytes();
    let mut found = Vec::new();
    for (at, _) in code.match_indices("fn ") {
        if at > 0 && is_word(bytes[at - 1] as char) {
            continue;
        }
        let name: String = code[at + 3..]
            .trim_start()
            .chars()
            .take_while(|&c| is_word(c))
            .collect();
        if name.is_empty() {
            continue; // `fn (u8)`: a type
        }
        let Some(open) = body_start(bytes, at) else {
            continue; // a declaration without a body
        };
        let close = matching_brace(bytes, open);
        found.push(Function {
            name,
            line: line_of(code, at),
            lines: line_of(code, close) - line_of(code, at) + 1,
        });
    }
    found
}

/// The `{` that opens the body of the function whose `fn` is at `at`; None when a `;` ends
/// the signature first (brackets skipped: `[u8; 4]` is a type).
fn body_start(bytes: &[u8], at: usize) -> Option<usize> {
    let mut depth = 0i32;
    for (i, &b) in bytes.iter().enumerate().skip(at) {
        match b {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b'{' if depth == 0 => return Some(i),
            b';' if depth == 0 => return None,
            _ => {}
        }
    }
    None
}

/// The `}` that closes the `{` at `open` (the end of the code when none does).
pub fn matching_brace(bytes: &[u8], open: usize) -> usize {
    let mut depth = 0;
    for (i, &b) in bytes.iter().enumerate().skip(open) {
        match b {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    bytes.len().saturating_sub(1)
}

/// The line (from 1) of the byte at `at`.
pub fn line_of(code: &str, at: usize) -> usize {
    code[..at].matches('\n').count() + 1
}

/// The line ranges (from 1, both ends in) of the items under `#[cfg(test)]` that have a body,
/// such as `mod tests { … }`; and the names of those declared without one (`mod tests;`),
/// whose files are all tests.
pub fn test_items(code: &str) -> (Vec<(usize, usize)>, Vec<String>) {
    let bytes = code.as_bytes();
    let (mut ranges, mut files) = (Vec::new(), Vec::new());
    for (at, attribute) in code.match_indices("#[cfg(test)]") {
        let start = at + attribute.len();
        let ends = [code[start..].find('{'), code[start..].find(';')];
        match ends {
            [Some(open), semicolon] if semicolon.is_none_or(|s| open < s) => {
                let close = matching_brace(bytes, start + open);
                ranges.push((line_of(code, at), line_of(code, close)));
            }
            [_, Some(semicolon)] => {
                let item = &code[start..start + semicolon];
                if let Some(name) = item.trim().rsplit(' ').next() {
                    if item.contains("mod ") {
                        files.push(name.to_string());
                    }
                }
            }
            _ => {}
        }
    }
    (ranges, files)
}
