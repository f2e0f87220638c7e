//! What a demo becomes in the chapter: the `<askdb-demo>` tag (`askdb-embed.js` turns it into
//! the embedded page), holding a link to the full page for a reader whose browser runs no
//! script. Every value is escaped: a block's text never becomes markup.

use super::block::{Demo, FILE_KEYS};

/// Where the chapter and the askdb page are, as addresses relative to the chapter's page.
pub struct Placement<'a> {
    /// From the chapter's page up to the book's root: `""`, `"../"`, …
    pub to_root: &'a str,
    /// The askdb page's folder in the book (`askdb`).
    pub page_dir: &'a str,
    /// The chapter's folder in the book (`""` at the root, `guide/`).
    pub chapter_dir: &'a str,
}

/// The script tag that defines `<askdb-demo>`, once per chapter.
pub fn script(place: &Placement) -> String {
    format!(
        "<script src=\"{}\"></script>",
        attribute(&format!(
            "{}{}/askdb-embed.js",
            place.to_root, place.page_dir
        ))
    )
}

/// The tag for `demo`, on lines of its own (an HTML block for Markdown, whatever the text
/// around it), each line starting with `indent`.
pub fn tag(demo: &Demo, place: &Placement, indent: &str) -> String {
    let attributes: String = demo
        .values
        .iter()
        .filter(|(key, value)| !(*key == "theme" && value == "auto"))
        .map(|(key, value)| format!(" {key}=\"{}\"", attribute(value)))
        .collect();
    let what = demo.get("q").unwrap_or("ask the database");
    format!(
        "{indent}<askdb-demo{attributes}>\n\
         {indent}<a href=\"{}\">Open the live demo in askdb: {}</a>\n\
         {indent}</askdb-demo>",
        attribute(&full_page(demo, place)),
        text(what)
    )
}

/// The full page's address (not embedded: a reader who follows the link from a page without
/// scripts gets all of askdb), with the demo's files relative to the askdb page.
fn full_page(demo: &Demo, place: &Placement) -> String {
    let up = "../".repeat(place.page_dir.split('/').filter(|p| !p.is_empty()).count());
    let params: Vec<String> = demo
        .values
        .iter()
        .filter(|(key, _)| !matches!(*key, "title" | "height" | "theme"))
        .map(|(key, value)| {
            let value = if FILE_KEYS.contains(key) && !is_address(value) {
                normalized(&format!("{up}{}{value}", place.chapter_dir))
            } else {
                value.clone()
            };
            format!("{key}={}", query_value(&value))
        })
        .collect();
    format!(
        "{}{}/index.html?{}",
        place.to_root,
        place.page_dir,
        params.join("&")
    )
}

/// An `http://` or `https://` address rather than a file of the book.
pub fn is_address(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    lower.starts_with("https://") || lower.starts_with("http://")
}

/// `a/./b/../c` as `a/c`; leading `..` are kept.
pub fn normalized(path: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." if parts.last().is_some_and(|p| *p != "..") => {
                parts.pop();
            }
            _ => parts.push(part),
        }
    }
    parts.join("/")
}

/// Percent-encoding for a query value: everything but the unreserved characters and `/`.
fn query_value(value: &str) -> String {
    let mut out = String::new();
    for byte in value.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

fn attribute(value: &str) -> String {
    text(value).replace('"', "&quot;").replace('\'', "&#39;")
}

fn text(value: &str) -> String {
    value
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn demo(values: &[(&'static str, &str)]) -> Demo {
        Demo {
            values: values.iter().map(|(k, v)| (*k, v.to_string())).collect(),
            lines: Vec::new(),
        }
    }

    #[test]
    fn the_tag_carries_the_block_and_links_to_the_full_page() {
        let place = Placement {
            to_root: "../",
            page_dir: "askdb",
            chapter_dir: "guide/",
        };
        let shown = tag(
            &demo(&[
                ("db", "data/chinook.db"),
                ("q", "Top 5 \"genres\" & <more>?"),
                ("theme", "auto"),
                ("height", "30rem"),
            ]),
            &place,
            "  ",
        );
        let lines: Vec<&str> = shown.lines().collect();
        assert_eq!(
            lines[0],
            "  <askdb-demo db=\"data/chinook.db\" q=\"Top 5 &quot;genres&quot; &amp; &lt;more&gt;?\" height=\"30rem\">"
        );
        assert_eq!(
            lines[1],
            "  <a href=\"../askdb/index.html?db=../guide/data/chinook.db&amp;q=Top%205%20%22genres%22%20%26%20%3Cmore%3E%3F\">Open the live demo in askdb: Top 5 \"genres\" &amp; &lt;more&gt;?</a>"
        );
        assert_eq!(lines[2], "  </askdb-demo>");
        assert_eq!(
            script(&place),
            "<script src=\"../askdb/askdb-embed.js\"></script>"
        );
    }

    #[test]
    fn an_endpoint_goes_to_the_tag_and_the_full_page_as_it_is() {
        let place = Placement {
            to_root: "",
            page_dir: "askdb",
            chapter_dir: "",
        };
        let shown = tag(
            &demo(&[
                ("db", "data/music.db"),
                ("endpoint", "https://proxy.example/demo/music"),
            ]),
            &place,
            "",
        );
        let lines: Vec<&str> = shown.lines().collect();
        assert_eq!(
            lines[0],
            "<askdb-demo db=\"data/music.db\" endpoint=\"https://proxy.example/demo/music\">"
        );
        assert!(
            lines[1].contains("&amp;endpoint=https%3A//proxy.example/demo/music\""),
            "{}",
            lines[1]
        );
    }

    #[test]
    fn paths_are_normalized_and_addresses_kept() {
        assert_eq!(normalized("../guide/../data/./x.db"), "../data/x.db");
        assert_eq!(normalized("../../a"), "../../a");
        assert!(is_address("HTTPS://example.org/x.db") && !is_address("data/x.db"));
    }
}
