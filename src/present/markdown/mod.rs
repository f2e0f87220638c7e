//! An LLM's Markdown answer as a small tree the page can render with text nodes only.
//!
//! The answer is untrusted: a model can be steered by text in the database. So the tree has no
//! way to carry HTML (raw HTML arrives as literal text), no images (a remote image would send
//! data to its host the moment it is shown; the alt text is kept instead), and links only to
//! `http`, `https` and `mailto` targets (see [`SafeHref`]).

mod href;
#[cfg(test)]
mod tests;
mod tree;

pub use href::SafeHref;
pub use tree::parse;

/// A block of an answer.
#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    Paragraph(Vec<Inline>),
    /// `level` is 1 to 6.
    Heading {
        level: u8,
        inlines: Vec<Inline>,
    },
    /// Items hold blocks; an item of a tight list holds one paragraph.
    List {
        ordered: bool,
        start: u64,
        items: Vec<Vec<Block>>,
    },
    /// `lang` is the first word of the fence's info string, if any.
    CodeBlock {
        lang: Option<String>,
        code: String,
    },
    Quote(Vec<Block>),
    /// Every row has one cell per column of `align`.
    Table {
        align: Vec<Align>,
        header: Vec<Vec<Inline>>,
        rows: Vec<Vec<Vec<Inline>>>,
    },
    Rule,
}

/// Text inside a block.
#[derive(Clone, Debug, PartialEq)]
pub enum Inline {
    /// Shown as is; may contain `\n` (a soft line break, which a browser shows as a space).
    Text(String),
    Code(String),
    Emphasis(Vec<Inline>),
    Strong(Vec<Inline>),
    Strikethrough(Vec<Inline>),
    /// The page opens it in a new tab with `rel="noopener noreferrer"`.
    Link {
        href: SafeHref,
        children: Vec<Inline>,
    },
    LineBreak,
}

/// How a table column is aligned (`|:--|`, `|:-:|`, `|--:|`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Align {
    None,
    Left,
    Center,
    Right,
}

/// What `markdown` says, as plain text: what a screen reader is given to announce (a live
/// region reads text, and links or tables in it could not be used anyway). Blocks end up on
/// lines of their own; table cells are separated by ", ".
pub fn plain_text(markdown: &str) -> String {
    let mut lines = Vec::new();
    blocks_text(&parse(markdown), &mut lines);
    lines.join("\n")
}

fn blocks_text(blocks: &[Block], lines: &mut Vec<String>) {
    for block in blocks {
        match block {
            Block::Paragraph(inlines) | Block::Heading { inlines, .. } => {
                lines.push(inlines_text(inlines));
            }
            Block::List { items, .. } => items.iter().for_each(|item| blocks_text(item, lines)),
            Block::CodeBlock { code, .. } => lines.push(code.trim_end().to_string()),
            Block::Quote(blocks) => blocks_text(blocks, lines),
            Block::Table { header, rows, .. } => {
                let row_text = |cells: &[Vec<Inline>]| {
                    let cells: Vec<String> = cells.iter().map(|c| inlines_text(c)).collect();
                    cells.join(", ")
                };
                lines.push(row_text(header));
                lines.extend(rows.iter().map(|row| row_text(row)));
            }
            Block::Rule => {}
        }
    }
}

fn inlines_text(inlines: &[Inline]) -> String {
    let mut text = String::new();
    for inline in inlines {
        match inline {
            // A soft line break is shown as a space, so it is read as one.
            Inline::Text(part) => text.push_str(&part.replace('\n', " ")),
            Inline::Code(code) => text.push_str(code),
            Inline::Emphasis(children)
            | Inline::Strong(children)
            | Inline::Strikethrough(children)
            | Inline::Link { children, .. } => text.push_str(&inlines_text(children)),
            Inline::LineBreak => text.push(' '),
        }
    }
    text
}
