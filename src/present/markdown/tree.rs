//! Building the [`Block`] tree from pulldown-cmark's event stream.
//!
//! pulldown-cmark guarantees every `Start` has a matching `End`, so each reader below consumes
//! events up to the `End` that closes what it was called for. Nesting deeper than
//! [`MAX_DEPTH`] is read as plain text: hostile input like 10 000 `>` must not exhaust the
//! stack (here, or later in the page when the tree is rendered and dropped).

use super::{Align, Block, Inline, SafeHref};
use crate::tr;
use pulldown_cmark::{
    Alignment, CodeBlockKind, CowStr, Event, HeadingLevel, LinkType, Options, Parser, Tag,
};

const MAX_DEPTH: usize = 32;

/// Parses Markdown into blocks. Never fails: anything unexpected becomes text.
pub fn parse(markdown: &str) -> Vec<Block> {
    // With subscripts on, a single `~x~` is a subscript (turned back into text below) and only
    // `~~x~~` strikes through: "~5% … ~10%" in an answer must not be crossed out.
    let options =
        Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_SUBSCRIPT;
    let mut reader = Reader {
        events: Parser::new_ext(markdown, options),
        depth: 0,
    };
    reader.blocks()
}

struct Reader<'a> {
    events: Parser<'a>,
    depth: usize,
}

impl<'a> Reader<'a> {
    /// Blocks up to the next unmatched `End` (or the end of input). Inline content that is not
    /// in a paragraph (as in tight list items) is gathered into one.
    fn blocks(&mut self) -> Vec<Block> {
        let mut blocks = Vec::new();
        let mut loose = Vec::new();
        while let Some(event) = self.events.next() {
            let block = match event {
                Event::End(_) => break,
                Event::Rule => Block::Rule,
                Event::Start(tag) if is_block(&tag) => match self.nested(|r| r.block(tag)) {
                    Some(block) => block,
                    None => Block::Paragraph(vec![Inline::Text(self.text())]),
                },
                other => {
                    self.inline(other, &mut loose);
                    continue;
                }
            };
            flush_paragraph(&mut loose, &mut blocks);
            blocks.push(block);
        }
        flush_paragraph(&mut loose, &mut blocks);
        blocks
    }

    /// The block that `tag` opens, its `Start` already consumed.
    fn block(&mut self, tag: Tag<'a>) -> Block {
        match tag {
            Tag::Paragraph => Block::Paragraph(self.inlines()),
            Tag::Heading { level, .. } => Block::Heading {
                level: heading_level(level),
                inlines: self.inlines(),
            },
            Tag::BlockQuote(_) => Block::Quote(self.blocks()),
            Tag::CodeBlock(kind) => Block::CodeBlock {
                lang: fence_language(&kind),
                code: without_final_newline(self.text()),
            },
            // Raw HTML is shown as the text it is.
            Tag::HtmlBlock => {
                Block::Paragraph(vec![Inline::Text(self.text().trim_end().to_string())])
            }
            Tag::List(start) => Block::List {
                ordered: start.is_some(),
                start: start.unwrap_or(1),
                items: self.list_items(),
            },
            Tag::Table(alignments) => self.table(alignments.iter().map(align).collect()),
            // Only with options not enabled in `parse` (footnotes, definition lists, metadata);
            // should one appear, its content is still shown, set apart.
            _ => Block::Quote(self.blocks()),
        }
    }

    fn list_items(&mut self) -> Vec<Vec<Block>> {
        let mut items = Vec::new();
        while let Some(Event::Start(Tag::Item)) = self.events.next() {
            items.push(self.blocks());
        }
        items
    }

    fn table(&mut self, align: Vec<Align>) -> Block {
        let columns = align.len();
        let mut header = Vec::new();
        let mut rows = Vec::new();
        while let Some(Event::Start(part)) = self.events.next() {
            let cells = fit_cells(self.cells(), columns);
            match part {
                Tag::TableHead => header = cells,
                _ => rows.push(cells),
            }
        }
        Block::Table {
            align,
            header,
            rows,
        }
    }

    /// The cells of a table head or row, up to its `End`.
    fn cells(&mut self) -> Vec<Vec<Inline>> {
        let mut cells = Vec::new();
        while let Some(Event::Start(_)) = self.events.next() {
            cells.push(self.inlines());
        }
        cells
    }

    /// Inlines up to the next unmatched `End`.
    fn inlines(&mut self) -> Vec<Inline> {
        let mut out = Vec::new();
        while let Some(event) = self.events.next() {
            if let Event::End(_) = event {
                break;
            }
            self.inline(event, &mut out);
        }
        out
    }

    /// Appends what one inline event (and, for a `Start`, everything up to its `End`) shows.
    fn inline(&mut self, event: Event<'a>, out: &mut Vec<Inline>) {
        match event {
            Event::Text(text) | Event::Html(text) | Event::InlineHtml(text) => {
                push_text(out, &text)
            }
            Event::InlineMath(text) | Event::DisplayMath(text) | Event::FootnoteReference(text) => {
                push_text(out, &text)
            }
            Event::Code(code) => out.push(Inline::Code(code.into_string())),
            Event::SoftBreak => push_text(out, "\n"),
            Event::HardBreak => out.push(Inline::LineBreak),
            Event::TaskListMarker(done) => push_text(out, if done { "[x] " } else { "[ ] " }),
            Event::Rule => push_text(out, "\n"),
            Event::End(_) => {}
            Event::Start(tag) => match self.nested(|r| r.inline_tag(tag)) {
                Some(inlines) => {
                    for inline in inlines {
                        match inline {
                            Inline::Text(text) => push_text(out, &text),
                            other => out.push(other),
                        }
                    }
                }
                None => push_text(out, &self.text()),
            },
        }
    }

    /// What the inline element `tag` opens shows, its `Start` already consumed.
    fn inline_tag(&mut self, tag: Tag<'a>) -> Vec<Inline> {
        match tag {
            Tag::Emphasis => vec![Inline::Emphasis(self.inlines())],
            Tag::Strong => vec![Inline::Strong(self.inlines())],
            Tag::Strikethrough => vec![Inline::Strikethrough(self.inlines())],
            Tag::Link {
                link_type,
                dest_url,
                ..
            } => {
                let children = self.inlines();
                match SafeHref::parse(&link_target(link_type, dest_url)) {
                    Some(href) => vec![Inline::Link { href, children }],
                    // A link we will not follow still shows its words.
                    None => children,
                }
            }
            Tag::Image { .. } => {
                let alt = self.text().split_whitespace().collect::<Vec<_>>().join(" ");
                // An image is never fetched: its words stand in its place.
                let shown = if alt.is_empty() {
                    tr!("chat-markdown-image")
                } else {
                    tr!("chat-markdown-image-alt", alt = alt)
                };
                vec![Inline::Text(shown)]
            }
            // `~x~` was not meant as markup (see `parse`): give the tildes back.
            Tag::Subscript => {
                let mut out = vec![Inline::Text("~".into())];
                out.extend(self.inlines());
                out.push(Inline::Text("~".into()));
                out
            }
            _ => self.inlines(),
        }
    }

    /// Runs `read` one level deeper, or returns `None` (without reading) when too deep.
    fn nested<T>(&mut self, read: impl FnOnce(&mut Self) -> T) -> Option<T> {
        if self.depth >= MAX_DEPTH {
            return None;
        }
        self.depth += 1;
        let result = read(self);
        self.depth -= 1;
        Some(result)
    }

    /// All the text up to the next unmatched `End`, markup dropped. Iterative, so any depth is
    /// fine; used for code, raw HTML, image alt text and too-deep nesting.
    fn text(&mut self) -> String {
        let mut text = String::new();
        let mut open = 0usize;
        for event in self.events.by_ref() {
            match event {
                Event::Start(_) => open += 1,
                Event::End(_) if open == 0 => break,
                Event::End(_) => open -= 1,
                Event::Text(t) | Event::Code(t) | Event::Html(t) | Event::InlineHtml(t) => {
                    text.push_str(&t)
                }
                Event::InlineMath(t) | Event::DisplayMath(t) | Event::FootnoteReference(t) => {
                    text.push_str(&t)
                }
                Event::SoftBreak | Event::HardBreak | Event::Rule => text.push('\n'),
                Event::TaskListMarker(_) => {}
            }
        }
        text
    }
}

fn is_block(tag: &Tag) -> bool {
    !matches!(
        tag,
        Tag::Emphasis
            | Tag::Strong
            | Tag::Strikethrough
            | Tag::Superscript
            | Tag::Subscript
            | Tag::Link { .. }
            | Tag::Image { .. }
    )
}

/// Adds text, merged with text just before it (the parser splits text at escapes and brackets).
fn push_text(out: &mut Vec<Inline>, text: &str) {
    if text.is_empty() {
        return;
    }
    match out.last_mut() {
        Some(Inline::Text(last)) => last.push_str(text),
        _ => out.push(Inline::Text(text.to_string())),
    }
}

fn flush_paragraph(loose: &mut Vec<Inline>, blocks: &mut Vec<Block>) {
    if !loose.is_empty() {
        blocks.push(Block::Paragraph(std::mem::take(loose)));
    }
}

/// An email autolink (`<a@b.c>`) carries the bare address.
fn link_target(link_type: LinkType, dest_url: CowStr) -> String {
    match link_type {
        LinkType::Email => format!("mailto:{dest_url}"),
        _ => dest_url.into_string(),
    }
}

fn without_final_newline(mut code: String) -> String {
    if code.ends_with('\n') {
        code.pop();
    }
    code
}

fn heading_level(level: HeadingLevel) -> u8 {
    level as u8
}

fn fence_language(kind: &CodeBlockKind) -> Option<String> {
    match kind {
        CodeBlockKind::Fenced(info) => info.split_whitespace().next().map(str::to_string),
        CodeBlockKind::Indented => None,
    }
}

fn align(alignment: &Alignment) -> Align {
    match alignment {
        Alignment::None => Align::None,
        Alignment::Left => Align::Left,
        Alignment::Center => Align::Center,
        Alignment::Right => Align::Right,
    }
}

/// Exactly `columns` cells: the page can then trust rows and header line up.
fn fit_cells(mut cells: Vec<Vec<Inline>>, columns: usize) -> Vec<Vec<Inline>> {
    cells.resize_with(columns, Vec::new);
    cells
}
