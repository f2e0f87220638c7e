//! Notes written as comments in the schema: SQLite keeps each `CREATE TABLE` and `CREATE VIEW`
//! text as written, comments included (from the `CREATE` on; a comment before it is lost).
//!
//! Read with the project's SQL lexer, never with patterns over the text, so that quoting,
//! odd names and comment-like text inside strings are read as SQLite reads them:
//!
//! ```sql
//! CREATE TABLE orders (   -- one row per order         → the table's note
//!     id INTEGER PRIMARY KEY,
//!     amount INTEGER,      -- in cents, tax included   → amount's note (same line)
//!     /* the buyer; JOIN customers */                  → customer_id's note (own line: the
//!     customer_id INTEGER                                 column it stands above)
//! );
//! ```
//!
//! - A comment in the head (before the first column) or after the closing parenthesis is the
//!   table's note.
//! - A comment on the same line as the end of a column's definition, before or after its
//!   comma, is that column's note; so is a comment inside the definition.
//! - A comment on a line of its own belongs to the column below it (the last column when none
//!   follows).
//! - Comments on table constraints (`PRIMARY KEY (…)`, `FOREIGN KEY …`) are not notes.
//! - Views: a comment before the `SELECT` is the view's note; in the select list the same rules
//!   apply to its output columns, named by the view's column list, an alias, or a plain column.
//!
//! A comment only ever makes a note for a name the statement itself defines.

use super::{is_knowledge_table, Note, Source};
use crate::engine::hidden::{CatalogueEntry, ObjectKind};
use crate::sql::lexer::{closing_paren, tokenize, with_clause, Token, TokenKind};

/// The notes the comments of every table's and view's statement make, in catalogue order.
pub fn from_catalogue(catalogue: &[CatalogueEntry]) -> Vec<Note> {
    catalogue
        .iter()
        .filter(|e| matches!(e.kind, ObjectKind::Table | ObjectKind::View))
        .filter(|e| !is_knowledge_table(&e.name))
        .flat_map(|entry| {
            let sql = entry.sql.as_deref().unwrap_or_default();
            notes_of(&entry.name, entry.kind, sql)
        })
        .collect()
}

/// What a comment is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Owner {
    Whole,
    /// A column definition or select-list entry; a constraint's comments go nowhere.
    Item(usize),
}

/// A column definition, a table constraint or a select-list entry: its significant tokens'
/// first and last index (into all tokens), and the name it defines, if any.
struct Item {
    name: Option<String>,
    first: usize,
    last: usize,
}

fn notes_of(object: &str, kind: ObjectKind, sql: &str) -> Vec<Note> {
    let Ok(tokens) = tokenize(sql) else {
        return Vec::new();
    };
    let (items, owners) = match kind {
        ObjectKind::Table => table_owners(&tokens, sql),
        _ => view_owners(&tokens, sql),
    };
    let mut whole: Vec<String> = Vec::new();
    // (column, its comments), in the statement's order; a view's column may be commented both
    // in its column list and in its select list.
    let mut columns: Vec<(String, Vec<String>)> = Vec::new();
    for (index, owner) in owners {
        let Some(text) = comment_text(tokens[index].text) else {
            continue;
        };
        match owner {
            Owner::Whole => whole.push(text),
            Owner::Item(item) => {
                let Some(name) = &items[item].name else {
                    continue;
                };
                match columns
                    .iter_mut()
                    .find(|(n, _)| n.eq_ignore_ascii_case(name))
                {
                    Some((_, texts)) => texts.push(text),
                    None => columns.push((name.clone(), vec![text])),
                }
            }
        }
    }
    let note = |column: Option<String>, texts: &[String]| Note {
        table: object.to_string(),
        column,
        text: texts.join(" "),
        source: Source::Schema,
    };
    let whole = (!whole.is_empty()).then(|| note(None, &whole));
    whole
        .into_iter()
        .chain(
            columns
                .iter()
                .map(|(name, texts)| note(Some(name.clone()), texts)),
        )
        .collect()
}

/// `CREATE TABLE name (columns and constraints) [options]`, or `CREATE TABLE name AS SELECT`,
/// whose comments before the `AS` are the table's.
fn table_owners(tokens: &[Token], sql: &str) -> (Vec<Item>, Vec<(usize, Owner)>) {
    let open = tokens
        .iter()
        .position(|t| t.kind == TokenKind::LeftParen || t.is_keyword("AS"));
    let Some(open) = open.filter(|&i| tokens[i].kind == TokenKind::LeftParen) else {
        let end = open.unwrap_or(tokens.len());
        return (Vec::new(), comments_in(tokens, 0, end, Owner::Whole));
    };
    let Some(close) = matching(tokens, open) else {
        return (Vec::new(), Vec::new());
    };
    let items = split_items(tokens, open + 1, close, column_name);
    let mut owners = comments_in(tokens, 0, open, Owner::Whole);
    owners.extend(list_owners(tokens, sql, &items, open + 1, close));
    owners.extend(comments_in(tokens, close + 1, tokens.len(), Owner::Whole));
    (items, owners)
}

/// `CREATE VIEW name [(columns)] AS [WITH …] SELECT list FROM …`.
fn view_owners(tokens: &[Token], sql: &str) -> (Vec<Item>, Vec<(usize, Owner)>) {
    let Some(as_keyword) = tokens.iter().position(|t| t.is_keyword("AS")) else {
        return (Vec::new(), Vec::new());
    };
    // The view's own column list, between its name and AS.
    let column_list = tokens[..as_keyword]
        .iter()
        .position(|t| t.kind == TokenKind::LeftParen)
        .and_then(|open| Some((open, matching(tokens, open)?)));
    let mut body = significant_after(tokens, as_keyword);
    if body.first().is_some_and(|&i| tokens[i].is_keyword("WITH")) {
        let significant: Vec<Token> = body.iter().map(|&i| tokens[i]).collect();
        let Some((_, main)) = with_clause(&significant, 0) else {
            return (Vec::new(), Vec::new());
        };
        body = body[main..].to_vec();
    }
    let Some(&select) = body.first().filter(|&&i| tokens[i].is_keyword("SELECT")) else {
        return (Vec::new(), Vec::new());
    };
    let end = select_list_end(tokens, select);
    let mut start = select + 1;
    if let Some(next) = significant_after(tokens, select).first() {
        if tokens[*next].is_keyword("DISTINCT") || tokens[*next].is_keyword("ALL") {
            start = next + 1;
        }
    }
    // Comments before the SELECT are the view's, but those in its column list.
    let (mut items, mut owners) = match column_list {
        Some((open, close)) => {
            let listed = split_items(tokens, open + 1, close, column_name);
            let mut owners = comments_in(tokens, 0, open, Owner::Whole);
            owners.extend(list_owners(tokens, sql, &listed, open + 1, close));
            owners.extend(comments_in(tokens, close + 1, select, Owner::Whole));
            (listed, owners)
        }
        None => (Vec::new(), comments_in(tokens, 0, select, Owner::Whole)),
    };
    let selected = split_items(tokens, start, end, output_name);
    if items.is_empty() {
        items = selected;
        owners.extend(list_owners(tokens, sql, &items, start, end));
    } else {
        // With a column list, the n-th selected expression is the n-th listed column.
        let by_position: Vec<Item> = selected
            .iter()
            .enumerate()
            .map(|(n, item)| Item {
                name: items.get(n).and_then(|listed| listed.name.clone()),
                first: item.first,
                last: item.last,
            })
            .collect();
        let offset = items.len();
        for (index, owner) in list_owners(tokens, sql, &by_position, start, end) {
            let owner = match owner {
                Owner::Item(n) => Owner::Item(offset + n),
                other => other,
            };
            owners.push((index, owner));
        }
        items.extend(by_position);
    }
    (items, owners)
}

/// Where the select list ends: its `FROM` (or the end of the statement) at its own depth.
fn select_list_end(tokens: &[Token], select: usize) -> usize {
    let mut depth = 0usize;
    for (i, token) in tokens.iter().enumerate().skip(select + 1) {
        match token.kind {
            TokenKind::LeftParen => depth += 1,
            TokenKind::RightParen if depth == 0 => return i,
            TokenKind::RightParen => depth -= 1,
            _ if depth == 0
                && [
                    "FROM",
                    "UNION",
                    "EXCEPT",
                    "INTERSECT",
                    "WHERE",
                    "GROUP",
                    "ORDER",
                    "LIMIT",
                    "WINDOW",
                ]
                .iter()
                .any(|k| token.is_keyword(k)) =>
            {
                return i
            }
            _ => {}
        }
    }
    tokens.len()
}

/// The indices of the significant tokens after `index`.
fn significant_after(tokens: &[Token], index: usize) -> Vec<usize> {
    (index + 1..tokens.len())
        .filter(|&i| !tokens[i].is_trivia())
        .collect()
}

/// The `)` closing the `(` at `open` (indices into all tokens).
fn matching(tokens: &[Token], open: usize) -> Option<usize> {
    let significant: Vec<usize> = (open..tokens.len())
        .filter(|&i| !tokens[i].is_trivia())
        .collect();
    let just: Vec<Token> = significant.iter().map(|&i| tokens[i]).collect();
    closing_paren(&just, 0).map(|close| significant[close])
}

/// The comments in `tokens[from..to]`, all given to `owner`.
fn comments_in(tokens: &[Token], from: usize, to: usize, owner: Owner) -> Vec<(usize, Owner)> {
    (from..to.min(tokens.len()))
        .filter(|&i| tokens[i].kind == TokenKind::Comment)
        .map(|i| (i, owner))
        .collect()
}

/// The comma-separated entries of `tokens[from..to]` at its own depth.
fn split_items(
    tokens: &[Token],
    from: usize,
    to: usize,
    name_of: fn(&[Token]) -> Option<String>,
) -> Vec<Item> {
    let mut items = Vec::new();
    let mut depth = 0usize;
    let mut current: Vec<usize> = Vec::new();
    let mut finish = |current: &mut Vec<usize>| {
        if let (Some(&first), Some(&last)) = (current.first(), current.last()) {
            let significant: Vec<Token> = current.iter().map(|&i| tokens[i]).collect();
            items.push(Item {
                name: name_of(&significant),
                first,
                last,
            });
        }
        current.clear();
    };
    for (i, token) in tokens.iter().enumerate().take(to).skip(from) {
        match token.kind {
            TokenKind::Space | TokenKind::Comment => continue,
            TokenKind::LeftParen => depth += 1,
            TokenKind::RightParen => depth = depth.saturating_sub(1),
            TokenKind::Comma if depth == 0 => {
                finish(&mut current);
                continue;
            }
            _ => {}
        }
        current.push(i);
    }
    finish(&mut current);
    items
}

/// Who owns each comment of a list `tokens[from..to]` whose entries are `items`: the rules in
/// the module's documentation.
fn list_owners(
    tokens: &[Token],
    sql: &str,
    items: &[Item],
    from: usize,
    to: usize,
) -> Vec<(usize, Owner)> {
    let mut owners = Vec::new();
    for index in (from..to).filter(|&i| tokens[i].kind == TokenKind::Comment) {
        let next = items.iter().position(|item| item.first > index);
        let inside = items
            .iter()
            .position(|item| item.first < index && index < item.last);
        let owner = match (inside, next) {
            (Some(item), _) => Owner::Item(item),
            (None, Some(0)) => Owner::Whole,
            (None, None) if items.is_empty() => Owner::Whole,
            (None, next) => {
                let previous = next.map_or(items.len(), |n| n) - 1;
                let between = &sql[tokens[items[previous].last].end()..tokens[index].start];
                match next {
                    _ if !between.contains('\n') => Owner::Item(previous),
                    Some(next) => Owner::Item(next),
                    None => Owner::Item(previous),
                }
            }
        };
        owners.push((index, owner));
    }
    owners
}

/// A column definition's name; `None` for a table constraint.
fn column_name(tokens: &[Token]) -> Option<String> {
    let first = tokens.first()?;
    let constraint = ["CONSTRAINT", "PRIMARY", "UNIQUE", "CHECK", "FOREIGN"]
        .iter()
        .any(|k| first.is_keyword(k));
    if constraint {
        return None;
    }
    first.name()
}

/// The name a select-list entry gives its column, when it is plain: an alias (`… AS total`,
/// `count(*) n`), or a column (`name`, `c.name`).
fn output_name(tokens: &[Token]) -> Option<String> {
    let is_name = |t: &Token| {
        t.kind == TokenKind::QuotedName
            || (t.kind == TokenKind::Word && !crate::sql::lexer::is_keyword(t.text))
    };
    let last = tokens.last().filter(|t| is_name(t))?;
    let Some(before) = tokens.len().checked_sub(2).map(|i| tokens[i]) else {
        return last.name();
    };
    let plain_column = tokens
        .iter()
        .all(|t| is_name(t) || t.kind == TokenKind::Dot);
    let alias = before.is_keyword("AS")
        || matches!(
            before.kind,
            TokenKind::RightParen | TokenKind::String | TokenKind::Number
        )
        || (is_name(&before) && !plain_column);
    (plain_column || alias).then(|| last.name()).flatten()
}

/// A comment's words: markers and decoration (`--`, `/*`, `*/`, leading `*` on a line) taken
/// off and white space joined; `None` when no letter or digit is left (`-- ------`).
fn comment_text(comment: &str) -> Option<String> {
    let body = match comment.strip_prefix("--") {
        // `-------- note`: a ruler's dashes, not a minus sign (`-- -1 means unknown` keeps it).
        Some(line) => line.trim_start_matches('-'),
        None => {
            let inner = comment.strip_prefix("/*").unwrap_or(comment);
            inner.strip_suffix("*/").unwrap_or(inner)
        }
    };
    let words: Vec<&str> = body
        .lines()
        .map(|line| line.trim().trim_start_matches('*'))
        .flat_map(str::split_whitespace)
        .collect();
    let text = words.join(" ");
    text.chars().any(char::is_alphanumeric).then_some(text)
}

#[cfg(test)]
mod tests;
