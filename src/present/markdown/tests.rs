//! Markdown as a model might write it, including hostile answers.

use super::{parse, Align, Block, Inline, SafeHref};

fn text(s: &str) -> Inline {
    Inline::Text(s.to_string())
}

fn paragraph(inlines: Vec<Inline>) -> Block {
    Block::Paragraph(inlines)
}

fn link(url: &str, children: Vec<Inline>) -> Inline {
    Inline::Link {
        href: SafeHref::parse(url).unwrap(),
        children,
    }
}

/// Every link target anywhere in the tree.
fn hrefs(blocks: &[Block]) -> Vec<String> {
    fn in_inlines(inlines: &[Inline], out: &mut Vec<String>) {
        for inline in inlines {
            match inline {
                Inline::Link { href, children } => {
                    out.push(href.as_str().to_string());
                    in_inlines(children, out);
                }
                Inline::Emphasis(c) | Inline::Strong(c) | Inline::Strikethrough(c) => {
                    in_inlines(c, out)
                }
                Inline::Text(_) | Inline::Code(_) | Inline::LineBreak => {}
            }
        }
    }
    fn in_blocks(blocks: &[Block], out: &mut Vec<String>) {
        for block in blocks {
            match block {
                Block::Paragraph(i) | Block::Heading { inlines: i, .. } => in_inlines(i, out),
                Block::List { items, .. } => items.iter().for_each(|item| in_blocks(item, out)),
                Block::Quote(b) => in_blocks(b, out),
                Block::Table { header, rows, .. } => {
                    for cell in header.iter().chain(rows.iter().flatten()) {
                        in_inlines(cell, out);
                    }
                }
                Block::CodeBlock { .. } | Block::Rule => {}
            }
        }
    }
    let mut out = Vec::new();
    in_blocks(blocks, &mut out);
    out
}

#[test]
fn plain_paragraphs_and_headings() {
    assert_eq!(
        parse("# Sales\n\nTotal was 252000.\nThat is all."),
        vec![
            Block::Heading {
                level: 1,
                inlines: vec![text("Sales")]
            },
            paragraph(vec![text("Total was 252000.\nThat is all.")]),
        ]
    );
}

#[test]
fn japanese_text_is_kept_whole() {
    assert_eq!(
        parse("## 売上\n\n**家電**の売上は252,000円です。"),
        vec![
            Block::Heading {
                level: 2,
                inlines: vec![text("売上")]
            },
            paragraph(vec![
                Inline::Strong(vec![text("家電")]),
                text("の売上は252,000円です。")
            ]),
        ]
    );
}

#[test]
fn raw_html_blocks_are_literal_text() {
    assert_eq!(
        parse("<img src=x onerror=alert(1)>"),
        vec![paragraph(vec![text("<img src=x onerror=alert(1)>")])]
    );
    assert_eq!(
        parse("<script>alert(1)</script>\n\nafter"),
        vec![
            paragraph(vec![text("<script>alert(1)</script>")]),
            paragraph(vec![text("after")]),
        ]
    );
}

#[test]
fn inline_html_is_literal_text() {
    assert_eq!(
        parse("a <b onclick=\"x()\">bold</b> <img src=x onerror=alert(1)> z"),
        vec![paragraph(vec![text(
            "a <b onclick=\"x()\">bold</b> <img src=x onerror=alert(1)> z"
        )])]
    );
}

#[test]
fn images_become_their_alt_text_and_are_never_fetched() {
    let blocks = parse("see ![x](http://127.0.0.1:9/leak?d=secret) and ![](http://a.b/c.png)");
    assert_eq!(
        blocks,
        vec![paragraph(vec![text("see [image: x] and [image]")])]
    );
    assert!(hrefs(&blocks).is_empty());
}

#[test]
fn reference_style_images_are_alt_text_too() {
    let blocks = parse("![chart *of* sales][img]\n\n[img]: http://127.0.0.1:9/leak?d=secret");
    assert_eq!(
        blocks,
        vec![paragraph(vec![text("[image: chart of sales]")])]
    );
}

#[test]
fn a_linked_image_keeps_the_link_but_not_the_image() {
    assert_eq!(
        parse("[![logo](http://x.y/l.png)](https://example.com)"),
        vec![paragraph(vec![link(
            "https://example.com",
            vec![text("[image: logo]")]
        )])]
    );
}

#[test]
fn safe_links_are_kept() {
    assert_eq!(
        parse("[docs](https://sqlite.org/lang.html \"title\") or [mail](mailto:a@b.c)"),
        vec![paragraph(vec![
            link("https://sqlite.org/lang.html", vec![text("docs")]),
            text(" or "),
            link("mailto:a@b.c", vec![text("mail")]),
        ])]
    );
}

#[test]
fn script_links_become_their_words() {
    for markdown in [
        "[a](javascript:alert(1))",
        "[a]( JAVASCRIPT:alert(1))",
        "[a](<java\tscript:alert(1)>)",
        "[a](javascript&#58;alert(1))",
        "[a](data:text/html,hi)",
        "[a](vbscript:x)",
        "[a](/relative)",
        "[a](//evil.example/x)",
        "[a](#top)",
    ] {
        assert_eq!(
            parse(markdown),
            vec![paragraph(vec![text("a")])],
            "{markdown:?}"
        );
    }
}

#[test]
fn refused_links_keep_their_formatting() {
    assert_eq!(
        parse("[**bold** words](javascript:alert(1))"),
        vec![paragraph(vec![
            Inline::Strong(vec![text("bold")]),
            text(" words")
        ])]
    );
}

#[test]
fn reference_style_links_follow_the_same_rules() {
    let markdown = "[good][1], [bad][2], [collapsed][] and [shortcut]\n\n\
                    [1]: https://example.com\n[2]: javascript:alert(1)\n\
                    [collapsed]: http://a.b\n[shortcut]: vbscript:x";
    assert_eq!(
        parse(markdown),
        vec![paragraph(vec![
            link("https://example.com", vec![text("good")]),
            text(", bad, "),
            link("http://a.b", vec![text("collapsed")]),
            text(" and shortcut"),
        ])]
    );
}

#[test]
fn undefined_references_stay_as_written() {
    assert_eq!(
        parse("[x] and [y][z]"),
        vec![paragraph(vec![text("[x] and [y][z]")])]
    );
}

#[test]
fn autolinks_web_and_email() {
    assert_eq!(
        parse("<https://example.com/a> <me@example.org> <javascript:alert(1)>"),
        vec![paragraph(vec![
            link("https://example.com/a", vec![text("https://example.com/a")]),
            text(" "),
            link("mailto:me@example.org", vec![text("me@example.org")]),
            text(" javascript:alert(1)"),
        ])]
    );
}

#[test]
fn nested_emphasis() {
    assert_eq!(
        parse("*a **b ~~c~~** d*"),
        vec![paragraph(vec![Inline::Emphasis(vec![
            text("a "),
            Inline::Strong(vec![text("b "), Inline::Strikethrough(vec![text("c")])]),
            text(" d"),
        ])])]
    );
}

#[test]
fn single_tildes_are_not_strikethrough() {
    assert_eq!(
        parse("H~2~O, about ~5%~ more"),
        vec![paragraph(vec![text("H~2~O, about ~5%~ more")])]
    );
}

#[test]
fn inline_code_and_line_breaks() {
    assert_eq!(
        parse("run `SELECT 1`  \nthen\\\nstop"),
        vec![paragraph(vec![
            text("run "),
            Inline::Code("SELECT 1".into()),
            Inline::LineBreak,
            text("then"),
            Inline::LineBreak,
            text("stop"),
        ])]
    );
}

#[test]
fn code_fences_keep_code_verbatim() {
    assert_eq!(
        parse("```sql title\nSELECT '<b>' AS x\n  FROM t;\n```\n\n    indented <i>"),
        vec![
            Block::CodeBlock {
                lang: Some("sql".into()),
                code: "SELECT '<b>' AS x\n  FROM t;".into(),
            },
            Block::CodeBlock {
                lang: None,
                code: "indented <i>".into()
            },
        ]
    );
}

#[test]
fn an_unclosed_fence_runs_to_the_end() {
    assert_eq!(
        parse("```\nSELECT 1"),
        vec![Block::CodeBlock {
            lang: None,
            code: "SELECT 1".into()
        }]
    );
}

#[test]
fn lists_tight_loose_and_nested() {
    assert_eq!(
        parse("3. three\n4. four\n   - inner\n"),
        vec![Block::List {
            ordered: true,
            start: 3,
            items: vec![
                vec![paragraph(vec![text("three")])],
                vec![
                    paragraph(vec![text("four")]),
                    Block::List {
                        ordered: false,
                        start: 1,
                        items: vec![vec![paragraph(vec![text("inner")])]],
                    },
                ],
            ],
        }]
    );
    assert_eq!(
        parse("- a\n\n- b\n"),
        vec![Block::List {
            ordered: false,
            start: 1,
            items: vec![
                vec![paragraph(vec![text("a")])],
                vec![paragraph(vec![text("b")])]
            ],
        }]
    );
}

#[test]
fn task_list_syntax_stays_text() {
    assert_eq!(
        parse("- [x] done"),
        vec![Block::List {
            ordered: false,
            start: 1,
            items: vec![vec![paragraph(vec![text("[x] done")])]],
        }]
    );
}

#[test]
fn quotes_and_rules() {
    assert_eq!(
        parse("> quoted\n\n---\n"),
        vec![
            Block::Quote(vec![paragraph(vec![text("quoted")])]),
            Block::Rule
        ]
    );
}

#[test]
fn tables_with_alignment_and_ragged_rows() {
    let markdown = "| category | total |\n|:--|--:|\n| electronics | **252000** |\n| furniture |\n| a | b | extra |";
    assert_eq!(
        parse(markdown),
        vec![Block::Table {
            align: vec![Align::Left, Align::Right],
            header: vec![vec![text("category")], vec![text("total")]],
            rows: vec![
                vec![
                    vec![text("electronics")],
                    vec![Inline::Strong(vec![text("252000")])]
                ],
                vec![vec![text("furniture")], vec![]],
                vec![vec![text("a")], vec![text("b")]],
            ],
        }]
    );
}

#[test]
fn links_inside_tables_are_checked_too() {
    let blocks = parse("| a |\n|---|\n| [x](javascript:alert(1)) [y](https://ok.example) |");
    assert_eq!(hrefs(&blocks), vec!["https://ok.example".to_string()]);
}

#[test]
fn very_deep_nesting_neither_overflows_nor_loses_text() {
    let quotes = format!("{}deep", "> ".repeat(20_000));
    let blocks = parse(&quotes);
    assert!(format!("{blocks:?}").contains("deep"));

    let lists = format!("{}deep", "- ".repeat(20_000));
    assert!(format!("{:?}", parse(&lists)).contains("deep"));

    let emphasis = format!("{}deep{}", "*a ".repeat(5_000), " a*".repeat(5_000));
    assert!(format!("{:?}", parse(&emphasis)).contains("deep"));

    let links = format!(
        "{}deep{}",
        "[".repeat(5_000),
        "](https://a.b)".repeat(5_000)
    );
    assert!(format!("{:?}", parse(&links)).contains("deep"));
}

#[test]
fn empty_and_whitespace_input() {
    assert_eq!(parse(""), vec![]);
    assert_eq!(parse("  \n\n \t"), vec![]);
}

#[test]
fn plain_text_keeps_the_words_and_drops_the_markup() {
    use super::plain_text;
    assert_eq!(
        plain_text("**Alice and Evan** live in Tokyo."),
        "Alice and Evan live in Tokyo."
    );
    assert_eq!(
        plain_text(
            "# Sales\n\nSee [the table](https://example.com) and `total`:\n\n- one\n- *two*"
        ),
        "Sales\nSee the table and total:\none\ntwo"
    );
    assert_eq!(
        plain_text("| city | n |\n| --- | --: |\n| Tokyo | 2 |"),
        "city, n\nTokyo, 2"
    );
    // Raw HTML stays literal text, as on screen.
    assert_eq!(plain_text("a <b>c</b>"), "a <b>c</b>");
}
