//! API tokens for Datasette servers, each bound to the server it was entered for.
//!
//! Kept like the model's keys (`keys`): in memory for the tab, and in `localStorage` only for
//! the servers a person asked the page to remember them for. A token is found by the server's
//! origin (`scheme://host:port`): an address on another server finds none, so a link cannot
//! send a token elsewhere. It is never put in an address, a transcript, a recording or the
//! ledger: the Datasette client sends it as a header to that server's own addresses only.

use std::collections::BTreeMap;
use std::fmt;

/// Where the tokens a person asked to remember are kept.
pub const SERVER_TOKENS_STORAGE_KEY: &str = "askdb.datasette-tokens";

/// Tokens by server origin (`"https://data.example.org"`).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct ServerTokens {
    tokens: BTreeMap<String, String>,
}

impl ServerTokens {
    /// The token entered for the server `origin`, if any.
    pub fn get(&self, origin: &str) -> Option<&str> {
        self.tokens.get(&normalise(origin)).map(String::as_str)
    }

    /// Keeps `token` for `origin`; an empty one removes it.
    pub fn set(&mut self, origin: &str, token: &str) {
        let token = token.trim();
        if token.is_empty() {
            self.tokens.remove(&normalise(origin));
        } else {
            self.tokens.insert(normalise(origin), token.to_string());
        }
    }

    pub fn remove(&mut self, origin: &str) {
        self.tokens.remove(&normalise(origin));
    }

    pub fn is_empty(&self) -> bool {
        self.tokens.is_empty()
    }

    /// As saved in `localStorage`.
    pub fn to_json(&self) -> String {
        serde_json::to_string(&self.tokens).unwrap_or_default()
    }

    /// Saved tokens; anything unreadable is none.
    pub fn from_json(json: &str) -> ServerTokens {
        ServerTokens {
            tokens: serde_json::from_str(json).unwrap_or_default(),
        }
    }
}

/// Origins compare without case (host names have none) and without a trailing `/`.
fn normalise(origin: &str) -> String {
    origin.trim().trim_end_matches('/').to_ascii_lowercase()
}

/// Never prints a token, only the servers tokens are held for.
impl fmt::Debug for ServerTokens {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.tokens.keys()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_is_found_only_for_the_server_it_was_entered_for() {
        let mut tokens = ServerTokens::default();
        tokens.set("https://data.example.org", " dstok_secret ");
        assert_eq!(
            tokens.get("https://DATA.example.org/"),
            Some("dstok_secret")
        );
        assert_eq!(tokens.get("https://data.example.org:8443"), None);
        assert_eq!(tokens.get("http://data.example.org"), None);
        assert_eq!(tokens.get("https://evil.example"), None);
        tokens.set("https://data.example.org", "  ");
        assert!(tokens.is_empty());
    }

    #[test]
    fn saved_tokens_round_trip_and_debug_output_names_servers_not_tokens() {
        let mut tokens = ServerTokens::default();
        tokens.set("http://127.0.0.1:8001", "dstok_secret");
        let again = ServerTokens::from_json(&tokens.to_json());
        assert_eq!(again, tokens);
        let printed = format!("{tokens:?}");
        assert!(printed.contains("127.0.0.1:8001"), "{printed}");
        assert!(!printed.contains("dstok_secret"), "{printed}");
        assert!(ServerTokens::from_json("not json").is_empty());
    }
}
