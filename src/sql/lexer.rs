//! SQLite's tokens: enough to tell statements, keywords, names, literals and punctuation apart,
//! with comments and quoting handled as SQLite does.
//!
//! Why not a SQL parser crate: the rules need only tokens and the shape of a statement, but they
//! need SQLite's exact quoting (`"x"`, `` `x` ``, `[x]`, `''` escapes, `X'..'`) and its idea of
//! an identifier character (any byte ≥ 0x80, so `sänger` and `顧客` are plain names). A general
//! parser costs size in the WebAssembly bundle, parses dialects we do not run, and fails on
//! valid SQLite it does not know; a mismatch with SQLite about where a string or a statement ends
//! is exactly the hole a guard must not have. This follows SQLite's own `tokenize.c` instead.

use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// Spaces, tabs and newlines.
    Space,
    /// `-- …` up to the end of the line, or `/* … */`.
    Comment,
    /// A keyword or a bare name: `SELECT`, `orders`, `sänger`.
    Word,
    /// A quoted name: `"Order Details"`, `` `x` ``, `[x]`.
    QuotedName,
    /// `'text'`, with `''` for a quote inside.
    String,
    /// `X'CAFE'`.
    Blob,
    /// `42`, `3.14`, `.5`, `1e10`, `0x1F`, `1_000`.
    Number,
    /// `?`, `?1`, `:name`, `@name`, `$name`.
    Parameter,
    /// `=`, `==`, `!=`, `<>`, `<`, `<=`, `>`, `>=`, `||`, `->`, `->>`, `+`, `-`, `*`, `/`, `%`,
    /// `&`, `|`, `~`, `<<`, `>>`.
    Operator,
    LeftParen,
    RightParen,
    Comma,
    Dot,
    Semicolon,
    /// Something SQLite would not accept as a token (`!`, `{`, `1abc`): SQLite refuses the
    /// statement, and so do the rules.
    Unknown,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    pub kind: TokenKind,
    /// The token exactly as written.
    pub text: &'a str,
    /// Byte offset in the SQL text.
    pub start: usize,
}

impl Token<'_> {
    /// Byte offset just past the token.
    pub fn end(&self) -> usize {
        self.start + self.text.len()
    }

    /// Whitespace or a comment: between tokens, meaningless to SQLite.
    pub fn is_trivia(&self) -> bool {
        matches!(self.kind, TokenKind::Space | TokenKind::Comment)
    }

    /// True for the bare word `keyword`, in any ASCII case (as SQLite compares keywords).
    pub fn is_keyword(&self, keyword: &str) -> bool {
        self.kind == TokenKind::Word && self.text.eq_ignore_ascii_case(keyword)
    }

    /// The name a bare word or quoted name stands for: `"a""b"` → `a"b`, `[x]` → `x`.
    pub fn name(&self) -> Option<String> {
        match self.kind {
            TokenKind::Word => Some(self.text.to_string()),
            TokenKind::QuotedName => {
                let inner = &self.text[1..self.text.len() - 1];
                Some(match self.text.as_bytes()[0] {
                    b'"' => inner.replace("\"\"", "\""),
                    b'`' => inner.replace("``", "`"),
                    _ => inner.to_string(),
                })
            }
            _ => None,
        }
    }

    /// The text a string literal stands for: `'O''Brien'` → `O'Brien`.
    pub fn string_value(&self) -> Option<String> {
        (self.kind == TokenKind::String)
            .then(|| self.text[1..self.text.len() - 1].replace("''", "'"))
    }
}

/// Text SQLite could not tokenize either: something opened and never closed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LexError {
    /// "string", "quoted name", "comment" or "blob".
    pub what: &'static str,
    /// Byte offset where it starts.
    pub start: usize,
    /// Its first characters, for the message.
    pub beginning: String,
    /// 1-based character position, for the message.
    pub position: usize,
}

impl fmt::Display for LexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the {} starting at character {} ({}) is never closed",
            self.what, self.position, self.beginning
        )
    }
}

impl std::error::Error for LexError {}

/// Splits SQL text into tokens, comments and whitespace included, so that the tokens' texts
/// put together give back the input.
pub fn tokenize(sql: &str) -> Result<Vec<Token<'_>>, LexError> {
    let mut tokens = Vec::new();
    let mut at = 0;
    while at < sql.len() {
        let (kind, len) = next_token(sql.as_bytes(), at).map_err(|what| LexError {
            what,
            start: at,
            beginning: beginning_of(&sql[at..]),
            position: sql[..at].chars().count() + 1,
        })?;
        // Every token ends on an ASCII byte or at the end of a run of identifier bytes, all of
        // which are ≥ 0x80 or ASCII, so `at + len` is always a character boundary.
        tokens.push(Token {
            kind,
            text: &sql[at..at + len],
            start: at,
        });
        at += len;
    }
    Ok(tokens)
}

/// The tokens without whitespace and comments.
pub fn significant_tokens(sql: &str) -> Result<Vec<Token<'_>>, LexError> {
    let mut tokens = tokenize(sql)?;
    tokens.retain(|t| !t.is_trivia());
    Ok(tokens)
}

/// True when SQLite treats `word` as a keyword (in any ASCII case).
pub fn is_keyword(word: &str) -> bool {
    KEYWORDS.iter().any(|k| k.eq_ignore_ascii_case(word))
}

/// The index of the `)` that closes the `(` at `tokens[open]` (significant tokens).
pub fn closing_paren(tokens: &[Token], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (i, token) in tokens.iter().enumerate().skip(open) {
        match token.kind {
            TokenKind::LeftParen => depth += 1,
            TokenKind::RightParen => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Reads `WITH [RECURSIVE] name [(columns)] AS [NOT] [MATERIALIZED] (…), …` starting at the
/// `WITH` at `tokens[with]` (significant tokens): the index of each CTE's name, and the index
/// just past the list, where the main statement starts. `None` when it does not have that shape.
pub fn with_clause(tokens: &[Token], with: usize) -> Option<(Vec<usize>, usize)> {
    let is = |i: usize, kind: TokenKind| tokens.get(i).is_some_and(|t| t.kind == kind);
    let keyword = |i: usize, k: &str| tokens.get(i).is_some_and(|t| t.is_keyword(k));
    let mut names = Vec::new();
    let mut i = with + 1;
    if keyword(i, "RECURSIVE") {
        i += 1;
    }
    loop {
        if !(is(i, TokenKind::Word) || is(i, TokenKind::QuotedName)) {
            return None;
        }
        names.push(i);
        i += 1;
        if is(i, TokenKind::LeftParen) {
            i = closing_paren(tokens, i)? + 1;
        }
        if !keyword(i, "AS") {
            return None;
        }
        i += 1;
        if keyword(i, "NOT") {
            i += 1;
        }
        if keyword(i, "MATERIALIZED") {
            i += 1;
        }
        if !is(i, TokenKind::LeftParen) {
            return None;
        }
        i = closing_paren(tokens, i)? + 1;
        if !is(i, TokenKind::Comma) {
            return Some((names, i));
        }
        i += 1;
    }
}

/// SQLite's keywords (<https://sqlite.org/lang_keywords.html>).
const KEYWORDS: &[&str] = &[
    "ABORT",
    "ACTION",
    "ADD",
    "AFTER",
    "ALL",
    "ALTER",
    "ALWAYS",
    "ANALYZE",
    "AND",
    "AS",
    "ASC",
    "ATTACH",
    "AUTOINCREMENT",
    "BEFORE",
    "BEGIN",
    "BETWEEN",
    "BY",
    "CASCADE",
    "CASE",
    "CAST",
    "CHECK",
    "COLLATE",
    "COLUMN",
    "COMMIT",
    "CONFLICT",
    "CONSTRAINT",
    "CREATE",
    "CROSS",
    "CURRENT",
    "CURRENT_DATE",
    "CURRENT_TIME",
    "CURRENT_TIMESTAMP",
    "DATABASE",
    "DEFAULT",
    "DEFERRABLE",
    "DEFERRED",
    "DELETE",
    "DESC",
    "DETACH",
    "DISTINCT",
    "DO",
    "DROP",
    "EACH",
    "ELSE",
    "END",
    "ESCAPE",
    "EXCEPT",
    "EXCLUDE",
    "EXCLUSIVE",
    "EXISTS",
    "EXPLAIN",
    "FAIL",
    "FILTER",
    "FIRST",
    "FOLLOWING",
    "FOR",
    "FOREIGN",
    "FROM",
    "FULL",
    "GENERATED",
    "GLOB",
    "GROUP",
    "GROUPS",
    "HAVING",
    "IF",
    "IGNORE",
    "IMMEDIATE",
    "IN",
    "INDEX",
    "INDEXED",
    "INITIALLY",
    "INNER",
    "INSERT",
    "INSTEAD",
    "INTERSECT",
    "INTO",
    "IS",
    "ISNULL",
    "JOIN",
    "KEY",
    "LAST",
    "LEFT",
    "LIKE",
    "LIMIT",
    "MATCH",
    "MATERIALIZED",
    "NATURAL",
    "NO",
    "NOT",
    "NOTHING",
    "NOTNULL",
    "NULL",
    "NULLS",
    "OF",
    "OFFSET",
    "ON",
    "OR",
    "ORDER",
    "OTHERS",
    "OUTER",
    "OVER",
    "PARTITION",
    "PLAN",
    "PRAGMA",
    "PRECEDING",
    "PRIMARY",
    "QUERY",
    "RAISE",
    "RANGE",
    "RECURSIVE",
    "REFERENCES",
    "REGEXP",
    "REINDEX",
    "RELEASE",
    "RENAME",
    "REPLACE",
    "RESTRICT",
    "RETURNING",
    "RIGHT",
    "ROLLBACK",
    "ROW",
    "ROWS",
    "SAVEPOINT",
    "SELECT",
    "SET",
    "TABLE",
    "TEMP",
    "TEMPORARY",
    "THEN",
    "TIES",
    "TO",
    "TRANSACTION",
    "TRIGGER",
    "UNBOUNDED",
    "UNION",
    "UNIQUE",
    "UPDATE",
    "USING",
    "VACUUM",
    "VALUES",
    "VIEW",
    "VIRTUAL",
    "WHEN",
    "WHERE",
    "WINDOW",
    "WITH",
    "WITHOUT",
];

/// SQLite's identifier characters: ASCII letters, digits, `_`, `$`, and every byte ≥ 0x80.
fn is_id_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

fn is_id_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b >= 0x80
}

/// The kind and byte length of the token at `at`, or what was left open.
fn next_token(s: &[u8], at: usize) -> Result<(TokenKind, usize), &'static str> {
    use TokenKind::*;
    let byte = |i: usize| s.get(at + i).copied().unwrap_or(0);
    let run = |from: usize, pred: &dyn Fn(u8) -> bool| {
        let mut i = from;
        while at + i < s.len() && pred(s[at + i]) {
            i += 1;
        }
        i
    };
    let token = match byte(0) {
        // A run of whitespace starts with one of these five but goes on through a vertical
        // tab too (SQLite's `sqlite3Isspace`), while a vertical tab alone is not a token.
        b' ' | b'\t' | b'\n' | b'\x0c' | b'\r' => {
            (Space, run(1, &|b| b.is_ascii_whitespace() || b == b'\x0b'))
        }
        // The UTF-8 byte order mark (U+FEFF) where a token starts is whitespace to SQLite;
        // inside a name it is part of the name, like any byte ≥ 0x80.
        0xEF if byte(1) == 0xBB && byte(2) == 0xBF => (Space, 3),
        b'-' if byte(1) == b'-' => (Comment, run(2, &|b| b != b'\n')),
        b'-' if byte(1) == b'>' => (Operator, if byte(2) == b'>' { 3 } else { 2 }),
        b'/' if byte(1) == b'*' => match find(s, at + 2, b"*/") {
            Some(close) => (Comment, close + 2 - at),
            None => return Err("comment"),
        },
        b'=' => (Operator, if byte(1) == b'=' { 2 } else { 1 }),
        b'<' => (
            Operator,
            if matches!(byte(1), b'=' | b'>' | b'<') {
                2
            } else {
                1
            },
        ),
        b'>' => (Operator, if matches!(byte(1), b'=' | b'>') { 2 } else { 1 }),
        b'!' if byte(1) == b'=' => (Operator, 2),
        b'|' => (Operator, if byte(1) == b'|' { 2 } else { 1 }),
        b'+' | b'-' | b'*' | b'/' | b'%' | b'&' | b'~' => (Operator, 1),
        b'(' => (LeftParen, 1),
        b')' => (RightParen, 1),
        b',' => (Comma, 1),
        b';' => (Semicolon, 1),
        b'\'' => (String, quoted(s, at, b'\'').ok_or("string")?),
        b'"' | b'`' => (QuotedName, quoted(s, at, byte(0)).ok_or("quoted name")?),
        b'[' => match s[at..].iter().position(|&b| b == b']') {
            Some(close) => (QuotedName, close + 1),
            None => return Err("quoted name"),
        },
        b'x' | b'X' if byte(1) == b'\'' => {
            let close = s[at + 2..].iter().position(|&b| b == b'\'').ok_or("blob")?;
            let hex = &s[at + 2..at + 2 + close];
            let well_formed = hex.len().is_multiple_of(2) && hex.iter().all(u8::is_ascii_hexdigit);
            (if well_formed { Blob } else { Unknown }, close + 3)
        }
        b'.' if byte(1).is_ascii_digit() => number(s, at),
        b'.' => (Dot, 1),
        b'0'..=b'9' => number(s, at),
        b'?' => (Parameter, run(1, &|b| b.is_ascii_digit())),
        b'$' | b'@' | b':' | b'#' => named_parameter(s, at),
        b if is_id_start(b) => (Word, run(1, &is_id_char)),
        _ => (Unknown, 1),
    };
    Ok(token)
}

/// A `$name`, `@name`, `:name` or `#name` parameter, with the extras SQLite's tokenizer takes
/// into the token (`tokenize.c`, `CC_DOLLAR`/`CC_VARALPHA`): `::` inside the name, and after
/// the name a `(…)` suffix that runs to the first `)` or whitespace, whatever is in between
/// (quotes, `--` and `/*` included). Reading it any shorter would let a quote or a comment
/// opener inside it start a string or comment that SQLite never sees.
fn named_parameter(s: &[u8], at: usize) -> (TokenKind, usize) {
    let mut i = at + 1;
    let mut name_chars = 0;
    while let Some(&b) = s.get(i) {
        if is_id_char(b) {
            name_chars += 1;
            i += 1;
        } else if b == b'(' && name_chars > 0 {
            // The scan starts on the `(` itself, which is neither `)` nor whitespace.
            while s
                .get(i)
                .is_some_and(|&b| b != b')' && !b.is_ascii_whitespace() && b != 0x0b)
            {
                i += 1;
            }
            if s.get(i) == Some(&b')') {
                return (TokenKind::Parameter, i + 1 - at);
            }
            return (TokenKind::Unknown, i - at);
        } else if b == b':' && s.get(i + 1) == Some(&b':') {
            i += 2;
        } else {
            break;
        }
    }
    let kind = if name_chars == 0 {
        TokenKind::Unknown
    } else {
        TokenKind::Parameter
    };
    (kind, i - at)
}

/// Length of a quoted token starting at `at`; a doubled quote stands for one inside it.
fn quoted(s: &[u8], at: usize, quote: u8) -> Option<usize> {
    let mut i = at + 1;
    loop {
        let close = i + s[i..].iter().position(|&b| b == quote)?;
        if s.get(close + 1) == Some(&quote) {
            i = close + 2;
        } else {
            return Some(close + 1 - at);
        }
    }
}

/// A number as SQLite reads it; letters glued to it make the whole thing [`TokenKind::Unknown`].
fn number(s: &[u8], at: usize) -> (TokenKind, usize) {
    let at_digit = |i: usize| s.get(i).is_some_and(u8::is_ascii_digit);
    let mut i = at;
    let digits = |i: &mut usize, hex: bool| {
        while s
            .get(*i)
            .is_some_and(|&b| b == b'_' || b.is_ascii_digit() || (hex && b.is_ascii_hexdigit()))
        {
            *i += 1;
        }
    };
    if s[i] == b'0'
        && matches!(s.get(i + 1), Some(b'x' | b'X'))
        && s.get(i + 2).is_some_and(u8::is_ascii_hexdigit)
    {
        i += 2;
        digits(&mut i, true);
    } else {
        digits(&mut i, false);
        if s.get(i) == Some(&b'.') {
            i += 1;
            digits(&mut i, false);
        }
        if matches!(s.get(i), Some(b'e' | b'E'))
            && (at_digit(i + 1) || (matches!(s.get(i + 1), Some(b'+' | b'-')) && at_digit(i + 2)))
        {
            i += 2;
            digits(&mut i, false);
        }
    }
    let mut kind = TokenKind::Number;
    while s.get(i).is_some_and(|&b| is_id_char(b)) {
        i += 1;
        kind = TokenKind::Unknown;
    }
    (kind, i - at)
}

fn find(haystack: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    haystack
        .get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| p + from)
}

/// The first few characters of `text`, for messages.
fn beginning_of(text: &str) -> String {
    let mut shown: String = text.chars().take(20).collect();
    if shown.len() < text.len() {
        shown.push('…');
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::*;
    use TokenKind::*;

    fn kinds(sql: &str) -> Vec<(TokenKind, &str)> {
        significant_tokens(sql)
            .unwrap()
            .into_iter()
            .map(|t| (t.kind, t.text))
            .collect()
    }

    #[test]
    fn tokens_put_together_give_back_the_input() {
        let sql = "SELECT \"a\"\"b\", [x y], `z`, 'it''s', X'0A', 1.5e3 -- note\n/* c */ FROM t;";
        let tokens = tokenize(sql).unwrap();
        let joined: std::string::String = tokens.iter().map(|t| t.text).collect();
        assert_eq!(joined, sql);
        assert!(tokens.iter().all(|t| &sql[t.start..t.end()] == t.text));
    }

    #[test]
    fn names_and_keywords() {
        assert_eq!(
            kinds("select sänger.name, 顧客 from [Order Details] AS \"o\""),
            vec![
                (Word, "select"),
                (Word, "sänger"),
                (Dot, "."),
                (Word, "name"),
                (Comma, ","),
                (Word, "顧客"),
                (Word, "from"),
                (QuotedName, "[Order Details]"),
                (Word, "AS"),
                (QuotedName, "\"o\""),
            ]
        );
        let tokens = significant_tokens("\"a\"\"b\" `c``d` [e\"f]").unwrap();
        let names: Vec<_> = tokens.iter().filter_map(Token::name).collect();
        assert_eq!(names, vec!["a\"b", "c`d", "e\"f"]);
        assert!(tokens[0].kind == QuotedName && !tokens[0].is_keyword("a"));
        assert!(is_keyword("select") && is_keyword("Current_Date") && !is_keyword("orders"));
    }

    #[test]
    fn strings_blobs_and_numbers() {
        assert_eq!(
            kinds("'a;b' 'O''Brien' x'CAFE' X'abc' 42 3.14 .5 1e10 2E-3 0x1F 1_000 1. 1abc 1e"),
            vec![
                (String, "'a;b'"),
                (String, "'O''Brien'"),
                (Blob, "x'CAFE'"),
                (Unknown, "X'abc'"),
                (Number, "42"),
                (Number, "3.14"),
                (Number, ".5"),
                (Number, "1e10"),
                (Number, "2E-3"),
                (Number, "0x1F"),
                (Number, "1_000"),
                (Number, "1."),
                (Unknown, "1abc"),
                (Unknown, "1e"),
            ]
        );
        let tokens = significant_tokens("'O''Brien' 'ab'").unwrap();
        assert_eq!(tokens[0].string_value().as_deref(), Some("O'Brien"));
        assert_eq!(tokens[1].name(), None);
        // An `x` not followed by a quote is a name.
        assert_eq!(kinds("x 'y'"), vec![(Word, "x"), (String, "'y'")]);
    }

    #[test]
    fn a_hex_number_needs_a_hex_digit_after_its_0x() {
        // Without one, `0x…` is a `0` with letters glued to it: not SQL (SQLite: `unrecognized
        // token: "0x"`). The names before them start with hex digits, which must not count.
        assert_eq!(
            kinds("SELECT a+0x, b-0x_1, 0xg, 0X1f"),
            vec![
                (Word, "SELECT"),
                (Word, "a"),
                (Operator, "+"),
                (Unknown, "0x"),
                (Comma, ","),
                (Word, "b"),
                (Operator, "-"),
                (Unknown, "0x_1"),
                (Comma, ","),
                (Unknown, "0xg"),
                (Comma, ","),
                (Number, "0X1f"),
            ]
        );
    }

    #[test]
    fn an_exponent_sign_needs_a_digit_after_it() {
        // SQLite: `unrecognized token: "1e"`, then `+` and `1`.
        assert_eq!(
            kinds("SELECT 1e+ 1, 1e-x, 1e+5"),
            vec![
                (Word, "SELECT"),
                (Unknown, "1e"),
                (Operator, "+"),
                (Number, "1"),
                (Comma, ","),
                (Unknown, "1e"),
                (Operator, "-"),
                (Word, "x"),
                (Comma, ","),
                (Number, "1e+5"),
            ]
        );
    }

    #[test]
    fn operators_parameters_and_punctuation() {
        let ops = "|| == != <> <= >= -> ->> < > = << >> + - * / % & | ~";
        let expected: Vec<_> = ops.split(' ').map(|op| (Operator, op)).collect();
        assert_eq!(kinds(ops), expected);
        assert_eq!(
            kinds("? ?1 :name @p $v (a.b);"),
            vec![
                (Parameter, "?"),
                (Parameter, "?1"),
                (Parameter, ":name"),
                (Parameter, "@p"),
                (Parameter, "$v"),
                (LeftParen, "("),
                (Word, "a"),
                (Dot, "."),
                (Word, "b"),
                (RightParen, ")"),
                (Semicolon, ";"),
            ]
        );
        assert_eq!(
            kinds("! { :"),
            vec![(Unknown, "!"), (Unknown, "{"), (Unknown, ":")]
        );
    }

    #[test]
    fn named_parameters_end_where_sqlite_ends_them() {
        // `::` belongs to the name; a single `:` starts the next parameter.
        assert_eq!(
            kinds("SELECT $a::b, $c:d"),
            vec![
                (Word, "SELECT"),
                (Parameter, "$a::b"),
                (Comma, ","),
                (Parameter, "$c"),
                (Parameter, ":d"),
            ]
        );
        // The `(…)` suffix needs a name before it, and runs to a `)`; at whitespace first, what
        // was read is not SQL (SQLite: `unrecognized token: "$a(x"`).
        assert_eq!(
            kinds("SELECT $a(x), $(x), $a(x y)"),
            vec![
                (Word, "SELECT"),
                (Parameter, "$a(x)"),
                (Comma, ","),
                (Unknown, "$"),
                (LeftParen, "("),
                (Word, "x"),
                (RightParen, ")"),
                (Comma, ","),
                (Unknown, "$a(x"),
                (Word, "y"),
                (RightParen, ")"),
            ]
        );
    }

    #[test]
    fn comments_are_trivia_and_hide_what_is_inside() {
        let tokens = tokenize("-- DELETE;\nSELECT /* ; DROP */ 1").unwrap();
        let seen: Vec<_> = tokens.iter().map(|t| t.kind).collect();
        assert_eq!(
            seen,
            vec![Comment, Space, Word, Space, Comment, Space, Number]
        );
        assert!(tokens[0].is_trivia() && tokens[4].is_trivia());
        // A line comment at the very end has no newline.
        assert_eq!(tokenize("1 --x").unwrap().last().unwrap().kind, Comment);
        // `-` alone and `/` alone are operators.
        assert_eq!(
            kinds("a-b/c"),
            vec![
                (Word, "a"),
                (Operator, "-"),
                (Word, "b"),
                (Operator, "/"),
                (Word, "c")
            ]
        );
    }

    #[test]
    fn only_a_whole_byte_order_mark_is_whitespace() {
        // U+FEFF is EF BB BF in UTF-8. Characters that share its first byte and one more
        // (U+FF3F is EF BC BF, U+FEC0 is EF BB 80) are names, as SQLite reads them.
        assert_eq!(
            kinds("\u{FEFF}SELECT \u{FEFF}\u{FF3F}, \u{FEC0}"),
            vec![
                (Word, "SELECT"),
                (Word, "\u{FF3F}"),
                (Comma, ","),
                (Word, "\u{FEC0}"),
            ]
        );
        let kinds_with_trivia: Vec<_> = tokenize("\u{FEFF}1")
            .unwrap()
            .iter()
            .map(|t| t.kind)
            .collect();
        assert_eq!(kinds_with_trivia, vec![Space, Number]);
    }

    #[test]
    fn with_clause_shape() {
        let tokens = significant_tokens(
            "WITH RECURSIVE a(x) AS (SELECT 1), \"b\" AS NOT MATERIALIZED (SELECT (2)) SELECT 3",
        )
        .unwrap();
        let (names, main) = with_clause(&tokens, 0).unwrap();
        let names: Vec<_> = names.iter().map(|&i| tokens[i].text).collect();
        assert_eq!(names, vec!["a", "\"b\""]);
        assert!(tokens[main].is_keyword("SELECT"));
        assert_eq!(closing_paren(&tokens, 3), Some(5));
        for broken in [
            "WITH a (SELECT 1) SELECT 2",
            "WITH a AS SELECT 1",
            "WITH a AS (SELECT 1",
        ] {
            assert_eq!(
                with_clause(&significant_tokens(broken).unwrap(), 0),
                None,
                "{broken}"
            );
        }
    }

    #[test]
    fn unclosed_things_are_errors_that_say_where() {
        for (sql, what) in [
            ("SELECT 'abc", "string"),
            ("SELECT \"abc", "quoted name"),
            ("SELECT `abc", "quoted name"),
            ("SELECT [abc", "quoted name"),
            ("SELECT /* abc", "comment"),
            ("SELECT X'ab", "blob"),
            ("SELECT 'it''", "string"),
        ] {
            let error = tokenize(sql).unwrap_err();
            assert_eq!(error.what, what, "{sql}");
            assert_eq!(error.start, 7, "{sql}");
        }
        let message = tokenize("SELECT 'ü', 'abc").unwrap_err().to_string();
        assert_eq!(
            message,
            "the string starting at character 13 ('abc) is never closed"
        );
        // A long one is cut after 20 characters (not bytes), and the cut is shown.
        let message = tokenize("SELECT 'éléphants, éléphants")
            .unwrap_err()
            .to_string();
        assert_eq!(
            message,
            "the string starting at character 8 ('éléphants, éléphant…) is never closed"
        );
    }
}
