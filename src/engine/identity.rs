//! What tells one database from another: "the same database", for every kind the page opens.
//!
//! A replay says whether it plays on the database it was recorded on, and the person's notes
//! and hidden choices are kept per database. All three ask [`same_database`], and the keys the
//! notes and choices are kept under ([`Identity::storage_key`]) are equal exactly when it says
//! [`Sameness::Same`].
//!
//! Reading every byte of a file only to name it would cost as much as the file is large, so
//! each kind has its own identity (`docs/conversation-format.md`, "The same database"):
//!
//! - **bytes in memory** (the whole file was read): the SHA-256 of every byte, as askdb has
//!   always kept it, so recordings and notes made before still match;
//! - **a local file read on demand**: its size and the SHA-256 of a sample of its pages
//!   ([`sample_ranges`]: the first page, which holds the header with its change counter and
//!   the schema's root, the last page and pages spread evenly between);
//! - **a file on a web server read on demand**: its address, its length and the validators the
//!   server gave (`ETag`, `Last-Modified`).
//!
//! Two identities of different kinds cannot be compared: [`Sameness::CannotTell`].

use serde::{Deserialize, Serialize};
use std::fmt;

/// What identifies an open database, by the kind it was opened as.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Identity {
    /// Every byte was read: their SHA-256, 64 lower-case hex digits.
    Bytes { size: u64, sha256: String },
    /// A local file read on demand: its size and the SHA-256 of its sampled pages.
    Sampled { size: u64, sample_sha256: String },
    /// A file on a web server read on demand.
    Remote(RemoteIdentity),
}

/// A file on a web server, as the server described it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RemoteIdentity {
    /// The address it was read from, without a fragment.
    pub url: String,
    pub size: u64,
    /// The `ETag` header, as the server sent it (a weak one keeps its `W/`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub etag: Option<String>,
    /// The `Last-Modified` header, as the server sent it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_modified: Option<String>,
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
/// - Sampled: the same size and the same sample digest.
/// - Remote: the same address and length, and the same `ETag` and `Last-Modified` (a header
///   the server did not send counts as a value of its own: a server that sends neither cannot
///   tell a changed file of the same length).
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
        (
            Identity::Sampled {
                size: x_size,
                sample_sha256: x,
            },
            Identity::Sampled {
                size: y_size,
                sample_sha256: y,
            },
        ) => same(x_size == y_size && x.eq_ignore_ascii_case(y)),
        (Identity::Remote(x), Identity::Remote(y)) => same(
            x.url == y.url
                && x.size == y.size
                && x.etag == y.etag
                && x.last_modified == y.last_modified,
        ),
        _ => Sameness::CannotTell,
    }
}

impl Identity {
    /// The file's size in bytes.
    pub fn size(&self) -> u64 {
        match self {
            Identity::Bytes { size, .. } | Identity::Sampled { size, .. } => *size,
            Identity::Remote(remote) => remote.size,
        }
    }

    /// The key the person's notes and hidden choices for this database are kept under: equal
    /// for two identities exactly when [`same_database`] says they are the same. For bytes it
    /// is the bare SHA-256, the key askdb has always used, so what was kept before is found.
    pub fn storage_key(&self) -> String {
        match self {
            Identity::Bytes { sha256, .. } => sha256.to_ascii_lowercase(),
            Identity::Sampled {
                size,
                sample_sha256,
            } => format!("sampled:{size}:{}", sample_sha256.to_ascii_lowercase()),
            // Serialized as a list, so that no address or header can pass for another field.
            Identity::Remote(remote) => format!(
                "remote:{}",
                serde_json::to_string(&(
                    &remote.url,
                    remote.size,
                    &remote.etag,
                    &remote.last_modified
                ))
                .expect("strings and numbers serialize")
            ),
        }
    }
}

/// How an identity reads in a message: "SHA-256 af99f6295365…".
impl fmt::Display for Identity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Identity::Bytes { sha256, .. } => write!(f, "SHA-256 {}…", short(sha256)),
            Identity::Sampled { sample_sha256, .. } => {
                write!(f, "sampled pages' SHA-256 {}…", short(sample_sha256))
            }
            Identity::Remote(remote) => {
                write!(f, "{}", remote.url)?;
                match (&remote.etag, &remote.last_modified) {
                    (Some(etag), _) => write!(f, ", ETag {etag}"),
                    (None, Some(modified)) => write!(f, ", last modified {modified}"),
                    (None, None) => Ok(()),
                }
            }
        }
    }
}

fn short(hash: &str) -> &str {
    hash.get(..12).unwrap_or(hash)
}

/// Pages sampled besides the first and the last one.
pub const SAMPLED_PAGES_BETWEEN: u64 = 14;

/// The byte ranges `(offset, length)` whose SHA-256, in this order, is a local file's sample
/// digest: the first page (the header, with its change counter and page count, and the
/// schema's root), [`SAMPLED_PAGES_BETWEEN`] pages spread evenly through the file, and the
/// last page, each once. `page_size` is the header's; a file shorter than a page is one range.
/// Offsets are 64-bit: files past 4 GiB are sampled like any other.
pub fn sample_ranges(size: u64, page_size: u32) -> Vec<(u64, u64)> {
    let page = u64::from(page_size.max(512));
    if size <= page {
        return vec![(0, size)];
    }
    let pages = size.div_ceil(page);
    let mut chosen: Vec<u64> = (0..=SAMPLED_PAGES_BETWEEN + 1)
        .map(|i| i * (pages - 1) / (SAMPLED_PAGES_BETWEEN + 1))
        .collect();
    chosen.dedup();
    chosen
        .into_iter()
        .map(|index| {
            let offset = index * page;
            (offset, page.min(size - offset))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(sha256: &str) -> Identity {
        Identity::Bytes {
            size: 16_384,
            sha256: sha256.into(),
        }
    }

    fn sampled(size: u64, digest: &str) -> Identity {
        Identity::Sampled {
            size,
            sample_sha256: digest.into(),
        }
    }

    fn remote(url: &str, size: u64, etag: Option<&str>, modified: Option<&str>) -> Identity {
        Identity::Remote(RemoteIdentity {
            url: url.into(),
            size,
            etag: etag.map(Into::into),
            last_modified: modified.map(Into::into),
        })
    }

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
            remote(url, 100, None, Some("Mon, 01 Dec 2026 10:00:00 GMT")),
            remote(url, 100, None, Some("Tue, 02 Dec 2026 10:00:00 GMT")),
            remote(
                url,
                100,
                Some("\"v1\""),
                Some("Mon, 01 Dec 2026 10:00:00 GMT"),
            ),
            remote(url, 100, None, None),
            remote(
                "https://example.org/data/other.db",
                100,
                Some("\"v1\""),
                None,
            ),
            // An address that holds what another field would: still another database.
            remote("https://example.org/\",100,\"v1", 100, None, None),
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
    fn a_sampled_file_needs_its_size_and_its_sample() {
        assert_eq!(
            same_database(&sampled(4_096, "ab"), &sampled(4_096, "AB")),
            Sameness::Same
        );
        // Grown by a page whose sample happens to agree: another database.
        assert_eq!(
            same_database(&sampled(4_096, "ab"), &sampled(8_192, "ab")),
            Sameness::Different
        );
        assert_eq!(
            same_database(&sampled(4_096, "ab"), &sampled(4_096, "cd")),
            Sameness::Different
        );
    }

    #[test]
    fn a_remote_file_needs_its_address_length_and_validators() {
        let url = "https://example.org/big.db";
        let v1 = remote(url, 100, Some("\"v1\""), None);
        assert_eq!(same_database(&v1, &v1.clone()), Sameness::Same);
        for other in [
            remote(url, 100, Some("\"v2\""), None),
            remote(url, 101, Some("\"v1\""), None),
            remote("https://example.org/other.db", 100, Some("\"v1\""), None),
            // A validator one side has and the other has not: cannot be taken as the same.
            remote(url, 100, None, None),
            remote(
                url,
                100,
                Some("\"v1\""),
                Some("Mon, 01 Dec 2026 10:00:00 GMT"),
            ),
        ] {
            assert_eq!(same_database(&v1, &other), Sameness::Different, "{other:?}");
        }
    }

    #[test]
    fn kinds_are_never_compared_with_each_other() {
        let a = "af99f629536575eae0ee868b5b50a01379ebfbc789a385b28afa16c433bec209";
        let pairs = [
            (bytes(a), sampled(16_384, a)),
            (
                bytes(a),
                remote("https://example.org/a.db", 16_384, None, None),
            ),
            (
                sampled(16_384, a),
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
    fn the_key_of_bytes_is_the_bare_sha256_kept_before() {
        // Notes and hidden choices kept before identities had kinds sit under
        // `askdb.notes.<sha256>` and `askdb.hidden.<sha256>`.
        let a = "AF99F629536575EAE0EE868B5B50A01379EBFBC789A385B28AFA16C433BEC209";
        assert_eq!(bytes(a).storage_key(), a.to_ascii_lowercase());
    }

    #[test]
    fn samples_are_the_first_and_last_pages_and_pages_between() {
        // 1,000 pages of 4 KiB.
        let ranges = sample_ranges(4_096_000, 4_096);
        assert_eq!(ranges.len() as u64, SAMPLED_PAGES_BETWEEN + 2);
        assert_eq!(ranges.first(), Some(&(0, 4_096)));
        assert_eq!(ranges.last(), Some(&(999 * 4_096, 4_096)));
        assert!(ranges.windows(2).all(|w| w[0].0 < w[1].0), "{ranges:?}");
        // Few pages: each once.
        assert_eq!(
            sample_ranges(3 * 4_096, 4_096),
            [(0, 4_096), (4_096, 4_096), (8_192, 4_096)]
        );
        // Smaller than a page, or a last page cut short.
        assert_eq!(sample_ranges(100, 4_096), [(0, 100)]);
        assert_eq!(sample_ranges(4_096 + 10, 4_096), [(0, 4_096), (4_096, 10)]);
    }

    #[test]
    fn files_past_4_gib_are_sampled_to_their_end() {
        let size = 5 * 1024 * 1024 * 1024 + 4_096; // 5 GiB and a page
        let ranges = sample_ranges(size, 65_536);
        let (last, length) = *ranges.last().expect("ranges");
        assert_eq!(last + length, size);
        assert!(last > u64::from(u32::MAX));
    }
}
