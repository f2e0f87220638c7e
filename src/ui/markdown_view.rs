//! An answer's Markdown, drawn from the safe tree of [`crate::present::markdown`].
//!
//! Every piece of text becomes a text node; the tree has no HTML and no images to begin with,
//! and its links are already limited to `http`, `https` and `mailto`. Links open in a new tab
//! without giving it a handle on this page or telling it where the click came from.

use crate::present::markdown::{parse, Align, Block, Inline};
use crate::tr;
use crate::ui::table_scroll::TableScroll;
use leptos::prelude::*;
use std::cell::Cell;

/// `markdown` as blocks of text, read by the reader [`install_reader`] put in place; until then
/// (never, for an answer: see there) as the text it is.
#[component]
pub fn MarkdownView(markdown: String) -> impl IntoView {
    let drawn = match READER.get() {
        Some(read) => blocks_view(&read(&markdown)),
        None => view! { <p class="unread">{markdown}</p> }.into_any(),
    };
    // The model's words, in the language it wrote them: never the page's to translate.
    view! { <div class="markdown" translate="no">{drawn}</div> }
}

/// How Markdown is read into blocks (pulldown-cmark, through [`parse`]).
type Reader = fn(&str) -> Vec<Block>;

thread_local! {
    /// The Markdown reader, once the assistant's chunk has put it here.
    static READER: Cell<Option<Reader>> = const { Cell::new(None) };
}

/// Puts the Markdown reader in place. Called by the chunks that ask and replay (`ui::chat`),
/// before they answer anything, so that the reader is downloaded with them and not with the
/// page's first visit (`ui::lazy`), while answers are still drawn at once, with the page's
/// other views.
pub fn install_reader() {
    READER.set(Some(parse));
}

fn blocks_view(blocks: &[Block]) -> AnyView {
    blocks.iter().map(block_view).collect_view().into_any()
}

fn block_view(block: &Block) -> AnyView {
    match block {
        Block::Paragraph(inlines) => view! { <p>{inlines_view(inlines)}</p> }.into_any(),
        Block::Heading { level, inlines } => heading(*level, inlines_view(inlines)),
        Block::List {
            ordered: true,
            start,
            items,
        } => view! { <ol start=start.to_string()>{items_view(items)}</ol> }.into_any(),
        Block::List { items, .. } => view! { <ul>{items_view(items)}</ul> }.into_any(),
        Block::CodeBlock { code, .. } => {
            view! { <pre class="code"><code>{code.clone()}</code></pre> }.into_any()
        }
        Block::Quote(blocks) => view! { <blockquote>{blocks_view(blocks)}</blockquote> }.into_any(),
        Block::Table {
            align,
            header,
            rows,
        } => table_view(align, header, rows),
        Block::Rule => view! { <hr/> }.into_any(),
    }
}

/// The answer sits under the page's own headings, so its `#` starts at `<h3>`.
fn heading(level: u8, content: AnyView) -> AnyView {
    match level {
        1 => view! { <h3>{content}</h3> }.into_any(),
        2 => view! { <h4>{content}</h4> }.into_any(),
        3 => view! { <h5>{content}</h5> }.into_any(),
        _ => view! { <h6>{content}</h6> }.into_any(),
    }
}

fn items_view(items: &[Vec<Block>]) -> AnyView {
    items
        .iter()
        .map(|item| view! { <li>{blocks_view(item)}</li> })
        .collect_view()
        .into_any()
}

fn table_view(align: &[Align], header: &[Vec<Inline>], rows: &[Vec<Vec<Inline>>]) -> AnyView {
    // Classes, not `style` attributes: the page's CSP allows no inline styles.
    let class = |column: usize| match align.get(column) {
        Some(Align::Left) => "align-left",
        Some(Align::Center) => "align-center",
        Some(Align::Right) => "align-right",
        Some(Align::None) | None => "",
    };
    let header = header
        .iter()
        .enumerate()
        .map(|(c, cell)| view! { <th scope="col" class=class(c)>{inlines_view(cell)}</th> })
        .collect_view();
    let rows = rows
        .iter()
        .map(|row| {
            let cells = row
                .iter()
                .enumerate()
                .map(|(c, cell)| view! { <td class=class(c)>{inlines_view(cell)}</td> })
                .collect_view();
            view! { <tr>{cells}</tr> }
        })
        .collect_view();
    view! {
        <TableScroll label=Signal::derive(|| tr!("chat-answer-table"))>
            <table>
                <thead>
                    <tr>{header}</tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </TableScroll>
    }
    .into_any()
}

fn inlines_view(inlines: &[Inline]) -> AnyView {
    inlines.iter().map(inline_view).collect_view().into_any()
}

fn inline_view(inline: &Inline) -> AnyView {
    match inline {
        Inline::Text(text) => text.clone().into_any(),
        Inline::Code(code) => view! { <code>{code.clone()}</code> }.into_any(),
        Inline::Emphasis(children) => view! { <em>{inlines_view(children)}</em> }.into_any(),
        Inline::Strong(children) => view! { <strong>{inlines_view(children)}</strong> }.into_any(),
        Inline::Strikethrough(children) => view! { <s>{inlines_view(children)}</s> }.into_any(),
        Inline::Link { href, children } => view! {
            <a href=href.as_str().to_string() target="_blank" rel="noopener noreferrer">
                {inlines_view(children)}
            </a>
        }
        .into_any(),
        Inline::LineBreak => view! { <br/> }.into_any(),
    }
}
