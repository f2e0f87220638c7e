//! The databases opened recently in this browser, to reopen with a click (issue 40).
//!
//! A database comes back the way it was opened: a file the person chose to keep is a copy in
//! the origin's private file system (`browser::opfs`, named by its SHA-256, so a file kept twice
//! is one copy), a database on a web server or a Datasette server is its address. This module is
//! the list itself, pure: what each entry holds, the order (most recent first, at most
//! [`MOST_KEPT`]), and reading it back from storage, which may hold anything (another version of
//! the page, a person's edits): an entry that is not exactly what this page writes is dropped.

use serde::{Deserialize, Serialize};

/// Entries beyond this many are forgotten, the oldest first (their copies removed).
pub const MOST_KEPT: usize = 20;

/// Files larger than this are not copied: a copy is opened in memory, whose limit this is.
pub const COPY_LIMIT_BYTES: u64 = 512 * 1024 * 1024;

/// Names and addresses longer than this are not kept: nothing legitimate is that long.
const MOST_CHARS: usize = 2_048;

/// One database opened in this browser.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Recent {
    /// What the page called it ("shop.db", "orders.csv (imported)").
    pub name: String,
    /// Its size in bytes, when known.
    pub size: Option<u64>,
    /// Its tables and views.
    pub tables: usize,
    /// When it was last opened (ms since 1970, the host's clock).
    pub opened_at_ms: f64,
    pub reopen: Reopen,
}

/// How a kept database is opened again.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Reopen {
    /// A copy of its bytes in the private file system, under [`copy_name`]`(sha256)`.
    Copy { sha256: String },
    /// A database on a web server, at `url`.
    Address { url: String },
    /// A database on a Datasette server, at `address` (never with its token).
    Datasette { address: String },
    /// A file on this computer too large to copy, through the browser's handle to it (kept in
    /// IndexedDB under `id`), as it was when last opened: `size` bytes, modified at
    /// `modified_ms`. Reopened after the browser asks the person, read on demand.
    Handle {
        id: String,
        size: u64,
        modified_ms: u64,
    },
}

impl Reopen {
    /// Whether `self` and `other` open the same place (a file by its handle, whatever it is
    /// now), so that one entry stands for it.
    pub fn same_place(&self, other: &Reopen) -> bool {
        match (self, other) {
            (Reopen::Handle { id: a, .. }, Reopen::Handle { id: b, .. }) => a == b,
            (a, b) => a == b,
        }
    }
}

impl Recent {
    /// The private file system's name for this entry's copy, if it has one.
    pub fn copy(&self) -> Option<String> {
        match &self.reopen {
            Reopen::Copy { sha256 } => Some(copy_name(sha256)),
            _ => None,
        }
    }

    /// Whether storage written by anyone may be trusted to mean this: a name, an address of
    /// the web, a SHA-256, sizes that are numbers a file can have.
    fn is_sound(&self) -> bool {
        let short = |text: &str| !text.trim().is_empty() && text.chars().count() <= MOST_CHARS;
        let web = |url: &str| {
            short(url)
                && (url.starts_with("https://") || url.starts_with("http://"))
                && !url.chars().any(|c| c.is_control() || c == ' ')
        };
        let reopen = match &self.reopen {
            Reopen::Copy { sha256 } => is_sha256(sha256),
            Reopen::Address { url } => web(url),
            Reopen::Datasette { address } => web(address),
            Reopen::Handle { id, .. } => is_handle_id(id),
        };
        reopen
            && short(&self.name)
            && !self.name.chars().any(char::is_control)
            && self.opened_at_ms.is_finite()
            && self.opened_at_ms >= 0.0
    }
}

/// The name of the copy of the file whose SHA-256 is `sha256` (lower-case hex).
pub fn copy_name(sha256: &str) -> String {
    format!("db-{}.sqlite", sha256.to_ascii_lowercase())
}

/// A name for a kept handle: `h-` and digits and hyphens, as the page makes them.
pub fn is_handle_id(text: &str) -> bool {
    text.len() <= 40
        && text.strip_prefix("h-").is_some_and(|rest| {
            !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit() || b == b'-')
        })
}

fn is_sha256(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| b.is_ascii_hexdigit())
}

/// The list, most recent first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RecentList(Vec<Recent>);

impl RecentList {
    /// The list kept as `json`; entries that are not sound are dropped, and so is the whole
    /// text when it is not a list of them.
    pub fn read(json: &str) -> RecentList {
        let Ok(entries) = serde_json::from_str::<Vec<serde_json::Value>>(json) else {
            return RecentList::default();
        };
        let mut list = RecentList::default();
        for entry in entries {
            if let Ok(recent) = serde_json::from_value::<Recent>(entry) {
                if recent.is_sound() && !list.0.iter().any(|r| r.reopen.same_place(&recent.reopen))
                {
                    list.0.push(recent);
                }
            }
        }
        list.0.truncate(MOST_KEPT);
        list
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(&self.0).unwrap_or_else(|_| "[]".to_string())
    }

    pub fn entries(&self) -> &[Recent] {
        &self.0
    }

    /// `recent` was opened now: first in the list, in place of an entry that reopens the same
    /// way. Returns the entries that fell off the end, whose copies are to be removed (a copy
    /// another entry still names is not among them).
    /// An entry that is not sound (an address that is not of the web) is not listed.
    pub fn opened(&mut self, recent: Recent) -> Vec<Recent> {
        if !recent.is_sound() {
            return Vec::new();
        }
        self.0.retain(|r| !r.reopen.same_place(&recent.reopen));
        self.0.insert(0, recent);
        let dropped = self.0.split_off(self.0.len().min(MOST_KEPT));
        self.only_unnamed(dropped)
    }

    /// The entry that reopens the same place as `reopen`, if one does.
    pub fn find(&self, reopen: &Reopen) -> Option<&Recent> {
        self.0.iter().find(|r| r.reopen.same_place(reopen))
    }

    /// Forgets the entry that reopens as `reopen`; it is returned, to remove its copy.
    pub fn forget(&mut self, reopen: &Reopen) -> Option<Recent> {
        let index = self.0.iter().position(|r| r.reopen.same_place(reopen))?;
        Some(self.0.remove(index))
    }

    /// Forgets every entry; they are returned, to remove their copies.
    pub fn forget_all(&mut self) -> Vec<Recent> {
        std::mem::take(&mut self.0)
    }

    fn only_unnamed(&self, dropped: Vec<Recent>) -> Vec<Recent> {
        dropped
            .into_iter()
            .filter(|d| !self.0.iter().any(|r| r.reopen.same_place(&d.reopen)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHA: &str = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

    fn copy(name: &str, sha: &str, at: f64) -> Recent {
        Recent {
            name: name.into(),
            size: Some(28_672),
            tables: 3,
            opened_at_ms: at,
            reopen: Reopen::Copy { sha256: sha.into() },
        }
    }

    fn address(url: &str, at: f64) -> Recent {
        Recent {
            name: "remote.db".into(),
            size: None,
            tables: 16,
            opened_at_ms: at,
            reopen: Reopen::Address { url: url.into() },
        }
    }

    #[test]
    fn the_list_round_trips_most_recent_first() {
        let mut list = RecentList::default();
        assert!(list.opened(copy("shop.db", SHA, 1.0)).is_empty());
        assert!(list
            .opened(address("https://example.org/a.db", 2.0))
            .is_empty());
        let read = RecentList::read(&list.to_json());
        assert_eq!(read, list);
        let names: Vec<&str> = read.entries().iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["remote.db", "shop.db"]);
        assert_eq!(read.entries()[1].copy().as_deref(), Some(&*copy_name(SHA)));
    }

    #[test]
    fn opening_again_moves_it_first_and_keeps_one_entry() {
        let mut list = RecentList::default();
        list.opened(copy("shop.db", SHA, 1.0));
        list.opened(address("https://example.org/a.db", 2.0));
        list.opened(copy("shop (2).db", SHA, 3.0));
        let names: Vec<&str> = list.entries().iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["shop (2).db", "remote.db"]);
    }

    #[test]
    fn past_the_most_kept_the_oldest_go_with_their_copies() {
        let mut list = RecentList::default();
        let sha = |i: usize| format!("{i:064x}");
        for i in 0..MOST_KEPT {
            assert!(list.opened(copy("a.db", &sha(i), i as f64)).is_empty());
        }
        let dropped = list.opened(address("https://example.org/b.db", 99.0));
        assert_eq!(dropped, vec![copy("a.db", &sha(0), 0.0)]);
        assert_eq!(list.entries().len(), MOST_KEPT);
    }

    #[test]
    fn a_file_by_its_handle_is_one_entry_whatever_its_size_now() {
        let handle = |size: u64, at: f64| Recent {
            name: "big.db".into(),
            size: Some(size),
            tables: 2,
            opened_at_ms: at,
            reopen: Reopen::Handle {
                id: "h-1796504151062-42".into(),
                size,
                modified_ms: 5,
            },
        };
        let mut list = RecentList::default();
        list.opened(handle(600_000_000, 1.0));
        list.opened(handle(700_000_000, 2.0));
        assert_eq!(list.entries().len(), 1);
        assert_eq!(list.entries()[0].size, Some(700_000_000));
        let was = list.find(&handle(1, 3.0).reopen).map(|r| r.reopen.clone());
        assert_eq!(
            was,
            Some(handle(700_000_000, 0.0).reopen),
            "found by its id alone"
        );
        let read = RecentList::read(&list.to_json());
        assert_eq!(read, list);
        let mut bad = handle(1, 1.0);
        bad.reopen = Reopen::Handle {
            id: "h-../../x".into(),
            size: 1,
            modified_ms: 1,
        };
        list.opened(bad);
        assert_eq!(
            list.entries().len(),
            1,
            "an id the page does not make is not listed"
        );
    }

    #[test]
    fn what_is_not_sound_is_not_listed() {
        let mut list = RecentList::default();
        list.opened(address("file:///home/me/a.db", 1.0));
        list.opened(copy("shop.db", "not a sha", 1.0));
        assert!(list.entries().is_empty());
    }

    #[test]
    fn forget_one_and_all() {
        let mut list = RecentList::default();
        list.opened(copy("shop.db", SHA, 1.0));
        list.opened(address("https://example.org/a.db", 2.0));
        let gone = Reopen::Address {
            url: "https://example.org/gone.db".into(),
        };
        assert_eq!(list.forget(&gone), None);
        let shop = Reopen::Copy { sha256: SHA.into() };
        assert_eq!(list.forget(&shop).map(|r| r.name), Some("shop.db".into()));
        assert_eq!(list.find(&shop), None);
        assert_eq!(list.forget_all().len(), 1);
        assert!(list.entries().is_empty());
    }

    #[test]
    fn what_storage_holds_is_read_only_when_it_is_sound() {
        let good = copy("shop.db", SHA, 1.0);
        let json = |value: serde_json::Value| value.to_string();
        let good_value = serde_json::to_value(&good).unwrap();
        let mut bad = Vec::new();
        for (field, value) in [
            ("name", serde_json::json!("")),
            ("name", serde_json::json!("a\u{7}b")),
            ("name", serde_json::json!("x".repeat(3_000))),
            ("opened_at_ms", serde_json::json!(-1.0)),
            ("tables", serde_json::json!(-3)),
            ("size", serde_json::json!("big")),
            ("extra", serde_json::json!(1)),
        ] {
            let mut entry = good_value.clone();
            entry[field] = value;
            bad.push(entry);
        }
        for reopen in [
            serde_json::json!({"kind": "copy", "sha256": "../../etc/passwd"}),
            serde_json::json!({"kind": "copy", "sha256": SHA.replace('9', "g")}),
            serde_json::json!({"kind": "address", "url": "javascript:alert(1)"}),
            serde_json::json!({"kind": "address", "url": "https://a b"}),
            serde_json::json!({"kind": "datasette", "address": "file:///x", }),
            serde_json::json!({"kind": "datasette", "address": "https://d.example", "token": "t"}),
            serde_json::json!({"kind": "elsewhere"}),
        ] {
            let mut entry = good_value.clone();
            entry["reopen"] = reopen;
            bad.push(entry);
        }
        for entry in &bad {
            let list = RecentList::read(&json(serde_json::json!([entry, good_value])));
            assert_eq!(list.entries(), std::slice::from_ref(&good), "{entry}");
        }
        // Positive control: the good entry alone reads; anything but a list reads empty.
        assert_eq!(
            RecentList::read(&json(serde_json::json!([good_value])))
                .entries()
                .len(),
            1
        );
        for text in ["", "{}", "null", "[1, 2]", "not json"] {
            assert!(RecentList::read(text).entries().is_empty(), "{text}");
        }
    }
}
