//! Which language the page speaks: the address's `?lang=` (an embed's `lang` attribute comes
//! as that), else the one chosen in this page before (kept in this browser), else the first
//! of the browser's languages the page has, else English.

include!(concat!(env!("OUT_DIR"), "/languages.rs"));

#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    /// A tag of [`LANGUAGES`].
    pub tag: &'static str,
    /// `?lang=` named a language the page does not have: said in the settings panel with the
    /// address's other ignored parameters.
    pub ignored: Option<String>,
}

/// The language for `address` (`?lang=`), `kept` (chosen here before) and `browser`
/// (`navigator.languages`, in the person's order).
pub fn choose(address: Option<&str>, kept: Option<&str>, browser: &[String]) -> Choice {
    let mut ignored = None;
    if let Some(asked) = address {
        match known(asked) {
            Some(tag) => return Choice { tag, ignored },
            None => {
                let tags: Vec<&str> = LANGUAGES.iter().map(|(tag, _)| *tag).collect();
                ignored = Some(crate::tr!(
                    "address-lang-unknown",
                    asked = crate::text::cut_chars(asked, 40),
                    languages = tags.join(", ")
                ))
            }
        }
    }
    let tag = kept
        .and_then(known)
        .or_else(|| browser.iter().find_map(|tag| known(tag)))
        .unwrap_or("en");
    Choice { tag, ignored }
}

/// The page's tag for `asked`: itself, or its language without region or script ("ja-JP" →
/// "ja"), compared without case.
pub fn known(asked: &str) -> Option<&'static str> {
    let asked = asked.trim().to_ascii_lowercase();
    let primary = asked.split(['-', '_']).next().unwrap_or("");
    LANGUAGES
        .iter()
        .map(|(tag, _)| *tag)
        .find(|tag| *tag == asked)
        .or_else(|| {
            LANGUAGES
                .iter()
                .map(|(tag, _)| *tag)
                .find(|tag| *tag == primary)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn browser(tags: &[&str]) -> Vec<String> {
        tags.iter().map(|t| t.to_string()).collect()
    }

    #[test]
    fn the_address_then_the_kept_choice_then_the_browser() {
        let ja = browser(&["ja-JP", "en-US"]);
        assert_eq!(choose(None, None, &ja).tag, "ja");
        assert_eq!(choose(None, Some("en"), &ja).tag, "en");
        assert_eq!(choose(Some("en"), Some("ja"), &ja).tag, "en");
        assert_eq!(choose(Some("JA"), None, &browser(&["de"])).tag, "ja");
        assert_eq!(choose(None, None, &browser(&["de-DE", "fr"])).tag, "en");
        assert_eq!(choose(None, None, &browser(&["de-DE", "ja"])).tag, "ja");
    }

    #[test]
    fn an_unknown_language_in_the_address_is_said_and_the_rest_decides() {
        let choice = choose(Some("<b>xx</b>"), Some("ja"), &[]);
        assert_eq!(choice.tag, "ja");
        assert_eq!(
            choice.ignored.as_deref(),
            Some("lang \"<b>xx</b>\" is not one of en, ja")
        );
        assert_eq!(choose(Some("xx"), Some("also-unknown"), &[]).tag, "en");
    }
}
