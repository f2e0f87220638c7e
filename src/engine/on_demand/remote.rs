//! A database at a web address, as plain rules the page follows: which addresses are remote
//! ([`DbAddress`]), what to show of where it is ([`host_of`]), how one is opened once the first
//! ranged GET has answered ([`route`]: read on demand, downloaded whole, or refused with what
//! may be offered, [`WholeDownload`]), and how the rest of a file downloaded whole is checked
//! against that first answer ([`check_rest`]). Pure: the page's opening (`ui/opening.rs`),
//! the first GET (`engine::on_demand::web_file`) and the engine that reads on demand (`engine::on_demand::lazy`)
//! act on them.

use super::RemoteProblem;
use super::ON_DEMAND_FROM_BYTES;
use crate::text::format_bytes;

/// What a `?db=` value (or the address field) names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DbAddress {
    /// A file beside the page (`demo/shop.db`, `data/x.db`: a relative address), downloaded
    /// whole and read in memory, as the page always did.
    Beside(String),
    /// An absolute `http://` or `https://` address: its first ranged GET decides how it is
    /// read ([`route`]).
    Remote(String),
}

impl DbAddress {
    /// Reads an address as given (trimmed).
    pub fn read(text: &str) -> DbAddress {
        let text = text.trim();
        if is_web_address(text) {
            DbAddress::Remote(text.to_string())
        } else {
            DbAddress::Beside(text.to_string())
        }
    }
}

/// Whether `text` is an absolute http or https address with a host.
pub fn is_web_address(text: &str) -> bool {
    let lower = text.trim().to_ascii_lowercase();
    ["http://", "https://"]
        .iter()
        .any(|scheme| lower.starts_with(scheme))
        && host_of(text).is_some()
}

/// The host (and port) of an absolute address, without any user info: what the page says a
/// database is read from ("read on demand from data.example.org").
pub fn host_of(url: &str) -> Option<String> {
    let (_, rest) = url.trim().split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = authority.rsplit('@').next().unwrap_or_default();
    (!host.is_empty()).then(|| host.to_string())
}

/// How many bytes the first GET of a remote database asks for (`Range: bytes=0-65535`): the
/// header, the schema's first pages and, for a file this small, all of it.
pub const FIRST_RANGE_BYTES: u64 = 64 * 1024;

/// A remote file smaller than this is downloaded whole once the first ranged GET has told its
/// length, and read in memory like a local file: hiding by a copy, exact row counts, fast
/// scans, its identity the SHA-256 of its bytes. A larger one is read on demand. On
/// 127.0.0.1 the two cost about the same to open at this size; on a real link the whole
/// download costs its size over the bandwidth (16 MiB: 1.3 s at 100 Mbit/s, 6.7 s at
/// 20 Mbit/s), while on demand every scan costs requests of its own: `docs/benchmarks.md`
/// ("Remote files: whole or on demand") has the figures.
pub const READ_WHOLE_BELOW_BYTES: u64 = 16 * 1024 * 1024;

/// What the first ranged GET of a database's address answered, as far as the page may read it
/// (on another site, CORS hides every header it does not expose, but for Content-Length and
/// Last-Modified).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FirstAnswer {
    pub status: u16,
    pub content_range: Option<String>,
    pub content_length: Option<u64>,
    pub etag: Option<String>,
    pub last_modified: Option<String>,
    /// The address is on another origin than the page: a header that is missing may be one
    /// its CORS settings hide.
    pub cross_origin: bool,
}

/// What pins a remote file for as long as it is open: its length and the validators the server
/// sent. Every later answer must agree, or the file changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pins {
    pub size: u64,
    pub etag: Option<String>,
    pub last_modified: Option<String>,
}

impl Pins {
    /// Whether the server sent something that changes with a new version of the file.
    pub fn has_validator(&self) -> bool {
        self.etag.is_some() || self.last_modified.is_some()
    }
}

/// Why a remote database is read in memory rather than on demand: what the status says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WholeReason {
    /// The server ignores Range and sends the whole file: the page uses the bytes it sends.
    ServerSendsWhole,
    /// Smaller than [`READ_WHOLE_BELOW_BYTES`].
    Small,
    /// The person asked for it (the offer after a server that cannot serve parts).
    Asked,
}

impl WholeReason {
    /// The status's line for a database of `size` bytes downloaded whole from `host`.
    pub fn note(self, size: u64, host: &str) -> String {
        let size = format_bytes(size);
        match self {
            WholeReason::ServerSendsWhole => {
                format!("{host} sends whole files; downloaded {size}")
            }
            WholeReason::Small => format!(
                "downloaded whole from {host} ({size}; files under {} MiB are, so that \
                 everything works as for a file on this computer)",
                READ_WHOLE_BELOW_BYTES / (1024 * 1024)
            ),
            WholeReason::Asked => format!("downloaded whole from {host} ({size})"),
        }
    }
}

/// How a database at a web address is opened, from its first answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    /// Read on demand, pinned by these.
    OnDemand(Pins),
    /// Downloaded whole and read in memory. `pins` when the first answer was a part (206) of
    /// a file of known length: the rest is still to come ([`rest_of_whole`]); `None` when its
    /// body is the whole file (the server ignored Range), of `size` bytes if it said so.
    Whole {
        why: WholeReason,
        size: Option<u64>,
        pins: Option<Pins>,
    },
    /// Not opened by itself, for this reason (what the page may offer instead is
    /// [`WholeDownload::for_problem`]'s).
    Refused(RemoteProblem),
}

/// Decides how to open a remote database from its first `answer`: files under
/// `read_whole_below` bytes are downloaded whole, larger ones read on demand when the server
/// serves parts with a validator; a server that sends whole files is used as it is up to
/// `whole_limit` bytes.
pub fn route(answer: &FirstAnswer, read_whole_below: u64, whole_limit: u64) -> Route {
    if answer.status == 200 {
        return match answer.content_length {
            Some(size) if size > whole_limit => {
                Route::Refused(RemoteProblem::RangeIgnored { size: Some(size) })
            }
            size => Route::Whole {
                why: WholeReason::ServerSendsWhole,
                size,
                pins: None,
            },
        };
    }
    if answer.status != 206 {
        return Route::Refused(RemoteProblem::Status {
            status: answer.status,
        });
    }
    let Some(value) = &answer.content_range else {
        let header = "Content-Range".to_string();
        return Route::Refused(if answer.cross_origin {
            RemoteProblem::HeaderHidden { header }
        } else {
            RemoteProblem::HeaderMissing { header }
        });
    };
    let bad = || RemoteProblem::BadContentRange {
        value: value.clone(),
    };
    let Some(range) = ContentRange::read(value) else {
        return Route::Refused(bad());
    };
    if range.start != 0 {
        return Route::Refused(bad());
    }
    let Some(size) = range.total else {
        return Route::Refused(RemoteProblem::NoLength);
    };
    let pins = Pins {
        size,
        etag: answer.etag.clone(),
        last_modified: answer.last_modified.clone(),
    };
    if size < read_whole_below {
        return Route::Whole {
            why: WholeReason::Small,
            size: Some(size),
            pins: Some(pins),
        };
    }
    if !pins.has_validator() {
        return Route::Refused(RemoteProblem::NoValidator { size });
    }
    Route::OnDemand(pins)
}

/// A `Content-Range: bytes START-END/TOTAL` (TOTAL may be `*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContentRange {
    pub start: u64,
    pub end: u64,
    pub total: Option<u64>,
}

impl ContentRange {
    pub fn read(value: &str) -> Option<ContentRange> {
        let rest = value.trim();
        let (unit, rest) = rest.split_once(char::is_whitespace)?;
        if !unit.eq_ignore_ascii_case("bytes") {
            return None;
        }
        let (span, total) = rest.trim().split_once('/')?;
        let (start, end) = span.trim().split_once('-')?;
        let number = |text: &str| {
            let text = text.trim();
            (!text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()))
                .then(|| text.parse().ok())
                .flatten()
        };
        let (start, end): (u64, u64) = (number(start)?, number(end)?);
        let total = match total.trim() {
            "*" => None,
            text => Some(number(text)?),
        };
        (start <= end && total.is_none_or(|t| end < t)).then_some(ContentRange {
            start,
            end,
            total,
        })
    }
}

/// How the rest of a file downloaded whole is fetched, once its first `got` bytes came with
/// the first answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RestOfWhole {
    /// The first answer held all of it.
    Nothing,
    /// `Range: bytes=FROM-`, the answer checked against the pins ([`check_rest`]).
    From(u64),
    /// A plain GET of the whole file, the first bytes set aside: without a validator, two
    /// answers could be two versions of the file, one answer cannot.
    AllAgain,
}

/// The rest of a whole download after `got` bytes of a file pinned by `pins`.
pub fn rest_of_whole(pins: &Pins, got: u64) -> RestOfWhole {
    if got >= pins.size {
        RestOfWhole::Nothing
    } else if pins.has_validator() {
        RestOfWhole::From(got)
    } else {
        RestOfWhole::AllAgain
    }
}

/// What the answer to the rest of a whole download (`Range: bytes=FROM-`) is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RestAnswer {
    /// The part asked for, of the same version of the file.
    Rest,
    /// The server sent the whole file this time (200): its body is the file, on its own.
    Whole,
}

/// Checks the answer to `Range: bytes=FROM-` of a file pinned by `pins`: the part from `from`
/// to the end, of the same length and validators; or the whole file. The error says what
/// changed.
pub fn check_rest(pins: &Pins, from: u64, answer: &FirstAnswer) -> Result<RestAnswer, String> {
    if answer.status == 200 {
        return Ok(RestAnswer::Whole);
    }
    if answer.status != 206 {
        return Err(format!(
            "the server answered {} to the request for the rest of the file",
            answer.status
        ));
    }
    let range = answer.content_range.as_deref().and_then(ContentRange::read);
    match range {
        Some(ContentRange {
            start,
            end,
            total: Some(total),
        }) if start == from && end + 1 == total && total == pins.size => {}
        Some(ContentRange {
            total: Some(total), ..
        }) if total != pins.size => {
            return Err(format!("its length was {} and is {} now", pins.size, total))
        }
        _ => {
            return Err(format!(
                "the server sent another part than the rest of the file ({})",
                answer
                    .content_range
                    .as_deref()
                    .unwrap_or("no Content-Range")
            ))
        }
    }
    for (what, pinned, now) in [
        ("ETag", &pins.etag, &answer.etag),
        ("Last-Modified", &pins.last_modified, &answer.last_modified),
    ] {
        if let Some(pinned) = pinned {
            if now.as_ref() != Some(pinned) {
                return Err(format!(
                    "its {what} was {pinned} and is {} now",
                    now.as_deref().unwrap_or("not sent")
                ));
            }
        }
    }
    Ok(RestAnswer::Rest)
}

/// The largest file the page downloads whole when its server cannot serve it in parts: the
/// size from which a local file is read on demand rather than in memory
/// (`engine::on_demand::ON_DEMAND_FROM_BYTES`), for the same reasons: past it, opening in memory
/// takes seconds and holds the file twice in the tab's memory while it opens, and sql.js stops
/// at 2 GB.
pub const WHOLE_DOWNLOAD_LIMIT_BYTES: u64 = ON_DEMAND_FROM_BYTES;

/// What the page offers when a database at a web address cannot be opened by itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WholeDownload {
    /// Download it whole and read it in memory: `size` when the server said it (else the
    /// download stops past the limit).
    Offer { size: Option<u64> },
    /// Too large to download whole here.
    TooLarge { size: u64 },
    /// Nothing to offer: the address cannot be read at all (unreachable, an error status), so
    /// a download would fail the same way.
    NotOffered,
}

impl WholeDownload {
    /// What to offer for `problem`, with downloads refused past `limit` bytes.
    pub fn for_problem(problem: &RemoteProblem, limit: u64) -> WholeDownload {
        match problem {
            RemoteProblem::Unreachable { .. } | RemoteProblem::Status { .. } => {
                WholeDownload::NotOffered
            }
            RemoteProblem::RangeIgnored { size: Some(size) } if *size > limit => {
                WholeDownload::TooLarge { size: *size }
            }
            RemoteProblem::RangeIgnored { size } => WholeDownload::Offer { size: *size },
            RemoteProblem::NoValidator { size } if *size > limit => {
                WholeDownload::TooLarge { size: *size }
            }
            RemoteProblem::NoValidator { size } => WholeDownload::Offer { size: Some(*size) },
            RemoteProblem::HeaderHidden { .. }
            | RemoteProblem::HeaderMissing { .. }
            | RemoteProblem::BadContentRange { .. }
            | RemoteProblem::NoLength => WholeDownload::Offer { size: None },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absolute_web_addresses_are_read_on_demand_and_the_rest_sit_beside_the_page() {
        for remote in [
            "https://data.example.org/big.db",
            "HTTP://127.0.0.1:8080/x.db",
            "  https://example.org/a.db  ",
        ] {
            assert_eq!(
                DbAddress::read(remote),
                DbAddress::Remote(remote.trim().into())
            );
        }
        for beside in [
            "demo/shop.db",
            "files/plain.db",
            "/data/x.db",
            "//example.org/x.db",
            "https://",
            "ftp://example.org/x.db",
            "data:application/octet-stream,SQLite",
            "javascript:alert(1)",
        ] {
            assert_eq!(DbAddress::read(beside), DbAddress::Beside(beside.into()));
        }
    }

    #[test]
    fn the_host_shown_has_its_port_and_no_user_info() {
        assert_eq!(
            host_of("https://data.example.org/a/b.db?x=1").as_deref(),
            Some("data.example.org")
        );
        assert_eq!(
            host_of("http://127.0.0.1:4321/range/big.db").as_deref(),
            Some("127.0.0.1:4321")
        );
        assert_eq!(
            host_of("https://user:secret@example.org/x.db").as_deref(),
            Some("example.org")
        );
        assert_eq!(host_of("demo/shop.db"), None);
    }

    #[test]
    fn a_whole_download_is_offered_up_to_the_limit_and_refused_past_it() {
        let limit = WHOLE_DOWNLOAD_LIMIT_BYTES;
        let ignored = |size| RemoteProblem::RangeIgnored { size };
        assert_eq!(
            WholeDownload::for_problem(&ignored(Some(limit)), limit),
            WholeDownload::Offer { size: Some(limit) }
        );
        assert_eq!(
            WholeDownload::for_problem(&ignored(Some(limit + 1)), limit),
            WholeDownload::TooLarge { size: limit + 1 }
        );
        let hidden = RemoteProblem::HeaderHidden {
            header: "Content-Range".into(),
        };
        assert_eq!(
            WholeDownload::for_problem(&hidden, limit),
            WholeDownload::Offer { size: None }
        );
        assert_eq!(
            WholeDownload::for_problem(&RemoteProblem::Status { status: 404 }, limit),
            WholeDownload::NotOffered
        );
    }

    const MIB: u64 = 1024 * 1024;

    /// A 206 answer to the first GET of a file of `size` bytes.
    fn part(size: u64, etag: Option<&str>, modified: Option<&str>) -> FirstAnswer {
        FirstAnswer {
            status: 206,
            content_range: Some(format!(
                "bytes 0-{}/{size}",
                FIRST_RANGE_BYTES.min(size) - 1
            )),
            content_length: Some(FIRST_RANGE_BYTES.min(size)),
            etag: etag.map(String::from),
            last_modified: modified.map(String::from),
            cross_origin: true,
        }
    }

    fn decide(answer: &FirstAnswer) -> Route {
        route(answer, READ_WHOLE_BELOW_BYTES, WHOLE_DOWNLOAD_LIMIT_BYTES)
    }

    /// The problem of a refused answer, and what the page offers for it.
    fn refused(route: Route) -> (RemoteProblem, WholeDownload) {
        match route {
            Route::Refused(problem) => {
                let offer = WholeDownload::for_problem(&problem, WHOLE_DOWNLOAD_LIMIT_BYTES);
                (problem, offer)
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn small_files_are_read_whole_large_ones_on_demand_from_the_threshold_on() {
        let lm = Some("Mon, 01 Jan 2024 00:00:00 GMT");
        let whole = |size| Route::Whole {
            why: WholeReason::Small,
            size: Some(size),
            pins: Some(Pins {
                size,
                etag: Some("\"v1\"".into()),
                last_modified: lm.map(String::from),
            }),
        };
        for size in [37_000, FIRST_RANGE_BYTES, READ_WHOLE_BELOW_BYTES - 1] {
            assert_eq!(
                decide(&part(size, Some("\"v1\""), lm)),
                whole(size),
                "{size}"
            );
        }
        let size = READ_WHOLE_BELOW_BYTES;
        assert_eq!(
            decide(&part(size, Some("\"v1\""), lm)),
            Route::OnDemand(Pins {
                size,
                etag: Some("\"v1\"".into()),
                last_modified: lm.map(String::from),
            })
        );
        // Pinned by Last-Modified alone (the one validator CORS never hides).
        assert!(
            matches!(decide(&part(100 * MIB, None, lm)), Route::OnDemand(p) if p.etag.is_none())
        );
    }

    #[test]
    fn a_server_that_sends_whole_files_is_used_up_to_the_limit() {
        let whole = |length| FirstAnswer {
            status: 200,
            content_length: length,
            ..FirstAnswer::default()
        };
        for length in [Some(37_000), Some(WHOLE_DOWNLOAD_LIMIT_BYTES), None] {
            assert_eq!(
                decide(&whole(length)),
                Route::Whole {
                    why: WholeReason::ServerSendsWhole,
                    size: length,
                    pins: None
                }
            );
        }
        assert_eq!(
            refused(decide(&whole(Some(WHOLE_DOWNLOAD_LIMIT_BYTES + 1)))),
            (
                RemoteProblem::RangeIgnored {
                    size: Some(WHOLE_DOWNLOAD_LIMIT_BYTES + 1)
                },
                WholeDownload::TooLarge {
                    size: WHOLE_DOWNLOAD_LIMIT_BYTES + 1
                },
            )
        );
    }

    #[test]
    fn a_large_file_without_a_validator_is_offered_whole_not_read_in_parts() {
        // Small: read whole anyway (in one answer: see rest_of_whole).
        assert!(matches!(
            decide(&part(MIB, None, None)),
            Route::Whole {
                why: WholeReason::Small,
                ..
            }
        ));
        let size = 40 * MIB;
        assert_eq!(
            refused(decide(&part(size, None, None))),
            (
                RemoteProblem::NoValidator { size },
                WholeDownload::Offer { size: Some(size) },
            )
        );
        let size = WHOLE_DOWNLOAD_LIMIT_BYTES + 1;
        assert!(matches!(
            refused(decide(&part(size, None, None))),
            (_, WholeDownload::TooLarge { .. })
        ));
    }

    #[test]
    fn answers_that_cannot_be_read_in_parts_are_refused_with_their_offer() {
        let refused = |answer: FirstAnswer| refused(decide(&answer));
        let hidden = FirstAnswer {
            status: 206,
            content_length: Some(FIRST_RANGE_BYTES),
            cross_origin: true,
            ..FirstAnswer::default()
        };
        assert_eq!(
            refused(hidden.clone()),
            (
                RemoteProblem::HeaderHidden {
                    header: "Content-Range".into()
                },
                WholeDownload::Offer { size: None }
            )
        );
        let missing = FirstAnswer {
            cross_origin: false,
            ..hidden
        };
        assert!(matches!(
            refused(missing).0,
            RemoteProblem::HeaderMissing { .. }
        ));
        let with_range = |value: &str| FirstAnswer {
            status: 206,
            content_range: Some(value.into()),
            ..FirstAnswer::default()
        };
        assert_eq!(
            refused(with_range("bytes 0-65535/*")).0,
            RemoteProblem::NoLength
        );
        for bad in [
            "bytes 10-65535/99999",
            "bytes 0-9/5",
            "items 0-9/99",
            "bytes -9/99",
            "",
        ] {
            assert!(
                matches!(
                    refused(with_range(bad)).0,
                    RemoteProblem::BadContentRange { .. }
                ),
                "{bad}"
            );
        }
        assert_eq!(
            refused(FirstAnswer {
                status: 404,
                ..FirstAnswer::default()
            }),
            (
                RemoteProblem::Status { status: 404 },
                WholeDownload::NotOffered
            )
        );
    }

    #[test]
    fn the_rest_of_a_whole_download_must_be_the_same_version() {
        let pins = Pins {
            size: 200_000,
            etag: Some("\"v1\"".into()),
            last_modified: Some("Mon, 01 Jan 2024 00:00:00 GMT".into()),
        };
        assert_eq!(rest_of_whole(&pins, 200_000), RestOfWhole::Nothing);
        assert_eq!(rest_of_whole(&pins, 65_536), RestOfWhole::From(65_536));
        let unpinned = Pins {
            etag: None,
            last_modified: None,
            ..pins.clone()
        };
        assert_eq!(rest_of_whole(&unpinned, 65_536), RestOfWhole::AllAgain);

        let rest = FirstAnswer {
            status: 206,
            content_range: Some("bytes 65536-199999/200000".into()),
            etag: pins.etag.clone(),
            last_modified: pins.last_modified.clone(),
            ..FirstAnswer::default()
        };
        assert_eq!(check_rest(&pins, 65_536, &rest), Ok(RestAnswer::Rest));
        let retagged = FirstAnswer {
            etag: Some("\"v2\"".into()),
            ..rest.clone()
        };
        let why = check_rest(&pins, 65_536, &retagged).unwrap_err();
        assert!(why.contains("ETag was \"v1\" and is \"v2\" now"), "{why}");
        let untagged = FirstAnswer {
            etag: None,
            ..rest.clone()
        };
        assert!(check_rest(&pins, 65_536, &untagged)
            .unwrap_err()
            .contains("not sent"));
        let longer = FirstAnswer {
            content_range: Some("bytes 65536-299999/300000".into()),
            ..rest.clone()
        };
        assert!(check_rest(&pins, 65_536, &longer)
            .unwrap_err()
            .contains("length was 200000"));
        let elsewhere = FirstAnswer {
            content_range: Some("bytes 0-199999/200000".into()),
            ..rest.clone()
        };
        assert!(check_rest(&pins, 65_536, &elsewhere).is_err());
        let whole = FirstAnswer {
            status: 200,
            ..FirstAnswer::default()
        };
        assert_eq!(check_rest(&pins, 65_536, &whole), Ok(RestAnswer::Whole));
    }

    #[test]
    fn the_status_says_why_a_remote_file_was_downloaded_whole() {
        assert_eq!(
            WholeReason::ServerSendsWhole.note(37_000, "127.0.0.1:8000"),
            "127.0.0.1:8000 sends whole files; downloaded 37 KB"
        );
        let small = WholeReason::Small.note(4_915_200, "data.example.org");
        assert!(
            small.starts_with(
                "downloaded whole from data.example.org (4.9 MB; files under 16 MiB are"
            ),
            "{small}"
        );
    }
}
