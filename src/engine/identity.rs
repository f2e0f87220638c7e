//! What tells one database from another: "the same database", for every kind the page opens.
//!
//! A replay says whether it plays on the database it was recorded on, and the person's notes
//! and hidden choices are kept per database. All three ask [`same_database`], and the notes and
//! choices are kept under [`Identity::storage_key`], which is equal for two identities only when
//! it says [`Sameness::Same`].
//!
//! Reading every byte of a file only to name it would cost as much as the file is large, so
//! each kind has its own identity (`docs/conversation-format.md`, "The same database"):
//!
//! - **bytes in memory** (the whole file was read): the SHA-256 of every byte, as askdb has
//!   always kept it, so recordings and notes made before still match;
//! - **a database read on demand**, a local file or one on a web server: the identity the
//!   engine that reads it finds at open without reading it whole ([`LazyIdentity`]: size,
//!   header, the SHA-256 of sampled pages; for a remote file its address and the server's
//!   `ETag` and `Last-Modified`), compared by that engine's own rule
//!   ([`LazyIdentity::same_as`]), the one it also uses to notice a file that changed while open.
//!
//! Two identities of different kinds cannot be compared: [`Sameness::CannotTell`].

use super::datasette::DatasetteIdentity;
use super::on_demand::LazyIdentity;
use serde::{Deserialize, Serialize};
use std::fmt;

/// What identifies an open database, by the kind it was opened as.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Identity {
    /// Every byte was read: their SHA-256, 64 lower-case hex digits.
    Bytes { size: u64, sha256: String },
    /// A local or remote file read on demand, as its engine identified it.
    OnDemand(LazyIdentity),
    /// A database on a Datasette server: its address, and what the server reports of its file.
    Datasette(DatasetteIdentity),
}

/// Whether two identities name the same database.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sameness {
    Same,
    Different,
    /// They are of different kinds (a file read whole, and one read on demand): nothing in
    /// them can be compared.
    CannotTell,
}

/// Whether `a` and `b` name the same database (the order does not matter).
///
/// - Bytes: the same SHA-256 (any case).
/// - Read on demand: [`LazyIdentity::same_as`]: the same size and header, the same sampled
///   pages when both have them, and for remote files the same address and the same `ETag` and
///   `Last-Modified` where both were sent. A local file is never the same as a remote one.
pub fn same_database(a: &Identity, b: &Identity) -> Sameness {
    let same = |equal: bool| {
        if equal {
            Sameness::Same
        } else {
            Sameness::Different
        }
    };
    match (a, b) {
        (Identity::Bytes { sha256: x, .. }, Identity::Bytes { sha256: y, .. }) => {
            same(x.eq_ignore_ascii_case(y))
        }
        (Identity::OnDemand(x), Identity::OnDemand(y)) => same(x.same_as(y)),
        (Identity::Datasette(x), Identity::Datasette(y)) => {
            x.same_as(y).map_or(Sameness::CannotTell, same)
        }
        // A SHA-256 names the bytes wherever they are: a file read whole and the same file
        // served immutable by Datasette.
        (Identity::Bytes { sha256: x, .. }, Identity::Datasette(y))
        | (Identity::Datasette(y), Identity::Bytes { sha256: x, .. }) => match &y.sha256 {
            Some(y) => same(x.eq_ignore_ascii_case(y)),
            None => Sameness::CannotTell,
        },
        _ => Sameness::CannotTell,
    }
}

impl Identity {
    /// The file's size in bytes.
    pub fn size(&self) -> u64 {
        match self {
            Identity::Bytes { size, .. } => *size,
            Identity::OnDemand(lazy) => lazy.size,
            Identity::Datasette(served) => served.size,
        }
    }

    /// The key the person's notes and hidden choices for this database are kept under. Two
    /// keys are equal only when [`same_database`] says the databases are the same; for bytes,
    /// and for identities read on demand that record the same validators and samples (a
    /// server sends the same headers each time), exactly then. For bytes it is the bare
    /// SHA-256, the key askdb has always used, so what was kept before is found.
    pub fn storage_key(&self) -> String {
        match self {
            Identity::Bytes { sha256, .. } => sha256.to_ascii_lowercase(),
            // The same bytes as a file's: the same key, so its notes are found.
            Identity::Datasette(DatasetteIdentity {
                sha256: Some(sha256),
                ..
            }) => sha256.to_ascii_lowercase(),
            Identity::Datasette(served) => format!(
                "datasette:{}",
                serde_json::to_string(&(&served.address, served.size))
                    .expect("strings and numbers serialize")
            ),
            // Serialized as a list, so that no address or header can pass for another field.
            Identity::OnDemand(lazy) => {
                let remote = lazy
                    .remote
                    .as_ref()
                    .map(|r| (&r.url, &r.etag, &r.last_modified));
                format!(
                    "on-demand:{}",
                    serde_json::to_string(&(
                        lazy.size,
                        hex(&lazy.header),
                        &lazy.sampled_pages,
                        lazy.sample_sha256.as_ref().map(|h| h.to_ascii_lowercase()),
                        remote,
                    ))
                    .expect("strings and numbers serialize")
                )
            }
        }
    }
}

/// Lower-case hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The bytes that `text` spells in hex (either case); `None` when it is not hex.
pub fn from_hex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

/// How an identity reads in a message: "SHA-256 af99f6295365…".
impl fmt::Display for Identity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Identity::Bytes { sha256, .. } => write!(f, "SHA-256 {}…", short(sha256)),
            Identity::Datasette(served) => match &served.sha256 {
                Some(sha256) => write!(f, "{}, SHA-256 {}…", served.address, short(sha256)),
                None => write!(f, "{}, {} bytes", served.address, served.size),
            },
            Identity::OnDemand(lazy) => match &lazy.remote {
                Some(remote) => {
                    write!(f, "{}", remote.url)?;
                    match (&remote.etag, &remote.last_modified) {
                        (Some(etag), _) => write!(f, ", ETag {etag}"),
                        (None, Some(modified)) => write!(f, ", last modified {modified}"),
                        (None, None) => Ok(()),
                    }
                }
                None => match &lazy.sample_sha256 {
                    Some(sample) => write!(f, "sampled pages' SHA-256 {}…", short(sample)),
                    None => write!(f, "header {}…", short(&hex(&lazy.header))),
                },
            },
        }
    }
}

fn short(hash: &str) -> &str {
    hash.get(..12).unwrap_or(hash)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::on_demand::RemoteValidators;

    fn bytes(sha256: &str) -> Identity {
        Identity::Bytes {
            size: 16_384,
            sha256: sha256.into(),
        }
    }

    fn sampled(size: u64, digest: &str) -> Identity {
        Identity::OnDemand(LazyIdentity {
            size,
            header: b"SQLite format 3\0".to_vec(),
            sampled_pages: vec![1, 2],
            sample_sha256: Some(digest.into()),
            remote: None,
        })
    }

    fn remote(url: &str, size: u64, etag: Option<&str>, modified: Option<&str>) -> Identity {
        Identity::OnDemand(LazyIdentity {
            size,
            header: b"SQLite format 3\0".to_vec(),
            sampled_pages: Vec::new(),
            sample_sha256: None,
            remote: Some(RemoteValidators {
                url: url.into(),
                etag: etag.map(Into::into),
                last_modified: modified.map(Into::into),
            }),
        })
    }

    fn served(address: &str, size: u64, sha256: Option<&str>) -> Identity {
        Identity::Datasette(DatasetteIdentity {
            address: address.into(),
            size,
            sha256: sha256.map(Into::into),
        })
    }

    /// Identities that each record every validator they have the same way: their keys must
    /// agree with `same_database` both ways.
    fn examples() -> Vec<Identity> {
        let a = "af99f629536575eae0ee868b5b50a01379ebfbc789a385b28afa16c433bec209";
        let b = "0".repeat(64);
        let url = "https://example.org/data/big.db";
        vec![
            bytes(a),
            bytes(&a.to_uppercase()),
            bytes(&b),
            sampled(4_096, a),
            sampled(8_192, a),
            sampled(4_096, &b),
            remote(url, 100, Some("\"v1\""), None),
            remote(url, 100, Some("\"v2\""), None),
            remote(url, 100, Some("W/\"v1\""), None),
            remote(url, 101, Some("\"v1\""), None),
            remote(
                "https://example.org/data/other.db",
                100,
                Some("\"v1\""),
                None,
            ),
            // An address that holds what another field would: still another database.
            remote("https://example.org/\",100,\"v1", 100, Some("\"v1\""), None),
            served("https://example.org/shop", 16_384, Some(a)),
            served(
                "https://replica.example.org/shop",
                16_384,
                Some(&a.to_uppercase()),
            ),
            served("https://example.org/shop", 16_384, Some(&b)),
            served("https://example.org/shop", 16_384, None),
            served("https://example.org/shop", 16_385, None),
            served("https://example.org/other", 16_384, None),
            served("https://example.org/\",16384]", 16_384, None),
        ]
    }

    #[test]
    fn bytes_are_the_same_database_when_their_sha256_is() {
        let a = "af99f629536575eae0ee868b5b50a01379ebfbc789a385b28afa16c433bec209";
        assert_eq!(same_database(&bytes(a), &bytes(a)), Sameness::Same);
        // Any case: a hand-edited recording may spell it in capitals.
        assert_eq!(
            same_database(&bytes(a), &bytes(&a.to_uppercase())),
            Sameness::Same
        );
        assert_eq!(
            same_database(&bytes(a), &bytes(&"0".repeat(64))),
            Sameness::Different
        );
    }

    #[test]
    fn on_demand_the_engines_own_rule_decides() {
        // The rule `engine::on_demand::lazy` uses to notice a file that changed while open, nothing else.
        let pairs = [
            (sampled(4_096, "ab"), sampled(4_096, "ab")),
            (sampled(4_096, "ab"), sampled(8_192, "ab")),
            (sampled(4_096, "ab"), sampled(4_096, "cd")),
            (
                remote("https://example.org/a.db", 100, Some("\"v1\""), None),
                remote("https://example.org/a.db", 100, Some("\"v2\""), None),
            ),
            (
                remote("https://example.org/a.db", 100, Some("\"v1\""), None),
                remote("https://example.org/a.db", 100, None, None),
            ),
            (
                sampled(100, "ab"),
                remote("https://example.org/a.db", 100, None, None),
            ),
        ];
        for (x, y) in pairs {
            let (Identity::OnDemand(lx), Identity::OnDemand(ly)) = (&x, &y) else {
                panic!("both of a pair are read on demand")
            };
            let expected = if lx.same_as(ly) {
                Sameness::Same
            } else {
                Sameness::Different
            };
            assert_eq!(same_database(&x, &y), expected, "{x:?} / {y:?}");
        }
        // And it tells them apart: size, sample, validator, local against remote.
        assert_eq!(
            same_database(&sampled(4_096, "ab"), &sampled(4_096, "ab")),
            Sameness::Same
        );
        assert_eq!(
            same_database(&sampled(4_096, "ab"), &sampled(8_192, "ab")),
            Sameness::Different
        );
        assert_eq!(
            same_database(&sampled(4_096, "ab"), &sampled(4_096, "cd")),
            Sameness::Different
        );
        let url = "https://example.org/a.db";
        assert_eq!(
            same_database(
                &remote(url, 100, Some("\"v1\""), None),
                &remote(url, 100, Some("\"v2\""), None)
            ),
            Sameness::Different
        );
        assert_eq!(
            same_database(&sampled(100, "ab"), &remote(url, 100, None, None)),
            Sameness::Different
        );
    }

    #[test]
    fn bytes_and_on_demand_are_never_compared_with_each_other() {
        let a = "af99f629536575eae0ee868b5b50a01379ebfbc789a385b28afa16c433bec209";
        let pairs = [
            (bytes(a), sampled(16_384, a)),
            (
                bytes(a),
                remote("https://example.org/a.db", 16_384, None, None),
            ),
        ];
        for (x, y) in pairs {
            assert_eq!(same_database(&x, &y), Sameness::CannotTell);
            assert_eq!(same_database(&y, &x), Sameness::CannotTell);
        }
    }

    #[test]
    fn storage_keys_are_equal_exactly_when_the_databases_are_the_same() {
        let all = examples();
        for x in &all {
            for y in &all {
                let same = same_database(x, y) == Sameness::Same;
                assert_eq!(
                    x.storage_key() == y.storage_key(),
                    same,
                    "{x:?} / {y:?}: keys {} / {}",
                    x.storage_key(),
                    y.storage_key()
                );
                assert_eq!(same_database(x, y), same_database(y, x), "{x:?} / {y:?}");
            }
        }
    }

    #[test]
    fn a_server_that_sends_a_validator_only_once_gets_another_key() {
        // A server that sent a validator one time and not the other: the same database to the
        // rule, another key (its notes are not found: never another database's).
        let url = "https://example.org/a.db";
        let with = remote(url, 100, Some("\"v1\""), None);
        let without = remote(url, 100, None, None);
        assert_eq!(same_database(&with, &without), Sameness::Same);
        assert_ne!(with.storage_key(), without.storage_key());
    }

    #[test]
    fn a_datasette_database_is_the_file_whose_sha256_the_server_reports() {
        let a = "af99f629536575eae0ee868b5b50a01379ebfbc789a385b28afa16c433bec209";
        let url = "https://example.org/shop";
        // The same bytes, wherever they are served from.
        assert_eq!(
            same_database(&bytes(a), &served(url, 16_384, Some(a))),
            Sameness::Same
        );
        assert_eq!(
            same_database(
                &served("https://replica.example/shop", 1, Some(a)),
                &bytes(a)
            ),
            Sameness::Same
        );
        assert_eq!(
            same_database(&bytes(a), &served(url, 16_384, Some(&"0".repeat(64)))),
            Sameness::Different
        );
        // Without a hash (a mutable file): only its address and size, never a file's.
        assert_eq!(
            same_database(&bytes(a), &served(url, 16_384, None)),
            Sameness::CannotTell
        );
        assert_eq!(
            same_database(&served(url, 16_384, None), &served(url, 16_384, Some(a))),
            Sameness::CannotTell
        );
        assert_eq!(
            same_database(&served(url, 16_384, None), &served(url, 16_384, None)),
            Sameness::Same
        );
        assert_eq!(
            same_database(&served(url, 16_384, None), &served(url, 16_385, None)),
            Sameness::Different
        );
        assert_eq!(
            same_database(
                &served(url, 16_384, None),
                &served("https://example.org/other", 16_384, None)
            ),
            Sameness::Different
        );
    }

    #[test]
    fn the_key_of_bytes_is_the_bare_sha256_kept_before() {
        // Notes and hidden choices kept before identities had kinds sit under
        // `askdb.notes.<sha256>` and `askdb.hidden.<sha256>`.
        let a = "AF99F629536575EAE0EE868B5B50A01379EBFBC789A385B28AFA16C433BEC209";
        assert_eq!(bytes(a).storage_key(), a.to_ascii_lowercase());
    }

    #[test]
    fn hex_reads_back() {
        let header = b"SQLite format 3\0\x10\x00\xff".to_vec();
        assert_eq!(from_hex(&hex(&header)), Some(header.clone()));
        assert_eq!(from_hex(&hex(&header).to_uppercase()), Some(header));
        assert_eq!(from_hex("abc"), None);
        assert_eq!(from_hex("zz"), None);
    }
}
