//! Which link targets an answer may carry.

use std::fmt;

/// A link target that is safe to put in `href`: an absolute `http`, `https` or `mailto` URL.
///
/// Model output is untrusted, so links are allowed by scheme, never filtered by a block list:
/// `javascript:`, `data:`, `vbscript:` and anything unknown are refused, and so are relative
/// and protocol-relative (`//host`) URLs, which would resolve against the page itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SafeHref(String);

const ALLOWED_SCHEMES: [&str; 3] = ["http", "https", "mailto"];

impl SafeHref {
    /// The URL, tidied as a browser would read it, when its scheme is allowed.
    ///
    /// Browsers skip leading and trailing spaces and control characters and drop tabs and
    /// newlines anywhere in a URL (so `java\tscript:` means `javascript:`); the same cleaning
    /// happens here first, so the scheme checked is the scheme the browser will see.
    pub fn parse(url: &str) -> Option<SafeHref> {
        let cleaned: String = url
            .trim_matches(|c: char| c.is_control() || c.is_whitespace())
            .chars()
            .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
            .collect();
        if cleaned.chars().any(char::is_control) {
            return None;
        }
        let (scheme, rest) = cleaned.split_once(':')?;
        let scheme = scheme.to_ascii_lowercase();
        if !ALLOWED_SCHEMES.contains(&scheme.as_str()) {
            return None;
        }
        let has_target = if scheme == "mailto" {
            !rest.is_empty()
        } else {
            rest.strip_prefix("//").is_some_and(|host| !host.is_empty())
        };
        has_target.then(|| SafeHref(format!("{scheme}:{rest}")))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for SafeHref {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::SafeHref;

    fn href(url: &str) -> Option<String> {
        SafeHref::parse(url).map(|h| h.as_str().to_string())
    }

    #[test]
    fn web_and_mail_links_are_kept() {
        assert_eq!(
            href("https://example.com/a?b=1#c").as_deref(),
            Some("https://example.com/a?b=1#c")
        );
        assert_eq!(
            href("http://127.0.0.1:8080/").as_deref(),
            Some("http://127.0.0.1:8080/")
        );
        assert_eq!(
            href("mailto:a@example.org").as_deref(),
            Some("mailto:a@example.org")
        );
    }

    #[test]
    fn scheme_is_matched_without_case_and_written_lowercase() {
        assert_eq!(
            href("HTTPS://Example.com").as_deref(),
            Some("https://Example.com")
        );
        assert_eq!(href("MailTo:x@y.z").as_deref(), Some("mailto:x@y.z"));
    }

    #[test]
    fn surrounding_space_and_control_characters_are_trimmed() {
        assert_eq!(href("  https://a.b \n").as_deref(), Some("https://a.b"));
        assert_eq!(
            href("\u{0}\u{1f}https://a.b").as_deref(),
            Some("https://a.b")
        );
    }

    #[test]
    fn script_and_data_schemes_are_refused_however_written() {
        for url in [
            "javascript:alert(1)",
            " JAVASCRIPT:alert(1)",
            "java\tscript:alert(1)",
            "java\nscript:alert(1)",
            "\u{1}javascript:alert(1)",
            "data:text/html,<script>alert(1)</script>",
            "vbscript:msgbox(1)",
            "file:///etc/passwd",
            "ftp://example.com",
        ] {
            assert_eq!(href(url), None, "{url:?}");
        }
    }

    #[test]
    fn relative_and_protocol_relative_urls_are_refused() {
        for url in [
            "/admin",
            "page.html",
            "#top",
            "?q=1",
            "//evil.example/x",
            "",
            "https:",
            "https:/x",
            "mailto:",
        ] {
            assert_eq!(href(url), None, "{url:?}");
        }
    }

    #[test]
    fn control_characters_inside_are_refused() {
        assert_eq!(href("https://a.b/\u{7f}x"), None);
        assert_eq!(href("https://a.b/\u{0}x"), None);
    }

    #[test]
    fn a_scheme_must_come_before_any_path() {
        assert_eq!(href("foo/https://a.b"), None);
    }
}
