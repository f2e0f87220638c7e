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
