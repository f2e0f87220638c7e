//! A database's errors as a person reads them. `DbError`'s `Display` is what the model is told
//! (and what logs say): what to change in the query. A person is told what happened and what
//! they can do in the page, which is sometimes something else (a setting, the console), in the
//! page's language (`www/i18n`): every error a person can meet has its message there, with
//! what comes from outside (SQLite's own message, a server's answer, a name) and the code it
//! names (`SELECT`, a header) as values, which [`for_person_marked`] marks for the page to keep
//! untranslated (`present::marked`).

use crate::engine::datasette::DatasetteProblem;
use crate::engine::on_demand::RemoteProblem;
use crate::engine::stopped::AfterStop;
use crate::engine::DbError;
use crate::present::marked;
use crate::sql::guard::{Refusal, MAX_NESTING, MAX_SQL_BYTES, READ_ONLY_PRAGMAS};
use crate::text::{format_bytes, format_seconds};
use crate::tr;

/// `error` for the person who ran the query or opened the database.
pub fn for_person(error: &DbError) -> String {
    said(error, Values::Plain)
}

/// [`for_person`] with its values marked, for a view that shows them apart (`present::marked::pieces`).
pub fn for_person_marked(error: &DbError) -> String {
    said(error, Values::Marked)
}

/// Whether a sentence's values are marked.
#[derive(Clone, Copy)]
enum Values {
    Plain,
    Marked,
}

impl Values {
    fn of(self, value: impl std::fmt::Display) -> String {
        match self {
            Values::Plain => value.to_string(),
            Values::Marked => marked::data(&value.to_string()),
        }
    }
}

fn said(error: &DbError, v: Values) -> String {
    match error {
        DbError::Refused(refusal) => refused(refusal, v),
        DbError::Sqlite(message) => tr!("error-sqlite", message = v.of(message)),
        DbError::Timeout { after_ms } => tr!("error-timeout", after = format_seconds(*after_ms)),
        DbError::TooLarge { limit_bytes } => tr!(
            "error-too-large",
            megabytes = (limit_bytes / (1024 * 1024)).to_string(),
            example = v.of("substr(x, 1, 200)")
        ),
        DbError::Crashed {
            why,
            reopened: true,
        } => tr!("error-crashed-reopened", why = v.of(why)),
        DbError::Crashed {
            why,
            reopened: false,
        } => tr!("error-crashed", why = v.of(why)),
        DbError::Unavailable(why) => tr!("error-unavailable", why = v.of(why)),
        DbError::NotADatabase(why) => tr!("error-not-a-database", why = v.of(why)),
        DbError::Unreadable(why) => tr!("error-unreadable", why = v.of(why)),
        DbError::ByteBudget {
            limit_bytes,
            read_bytes,
        } => tr!(
            "error-byte-budget",
            limit = format_bytes(*limit_bytes),
            read = format_bytes(*read_bytes)
        ),
        DbError::Changed(why) => tr!("error-changed", why = v.of(why)),
        DbError::ReadFailed(why) => tr!("error-read-failed", why = v.of(why)),
        DbError::Remote(problem) => remote_said(problem, v),
        DbError::Datasette(problem) => datasette(problem, v),
        DbError::Fenced(name) => tr!("error-fenced", name = v.of(name)),
        DbError::NotOpen => tr!("error-not-open"),
    }
}

/// Why the read-only rules refused a statement.
fn refused(refusal: &Refusal, v: Values) -> String {
    // Numbers ungrouped, as `Display` writes them ("102400 bytes").
    match refusal {
        Refusal::Empty => tr!("error-refused-empty"),
        Refusal::TooLong { bytes } => tr!(
            "error-refused-too-long",
            bytes = bytes.to_string(),
            limit = MAX_SQL_BYTES.to_string()
        ),
        Refusal::TooDeep { depth } => tr!(
            "error-refused-too-deep",
            depth = depth.to_string(),
            limit = MAX_NESTING.to_string(),
            with = v.of("WITH")
        ),
        Refusal::MultipleStatements { count } => {
            tr!(
                "error-refused-several-statements",
                count = count.to_string()
            )
        }
        Refusal::NotReadOnly { kind } => not_read_only(kind, v),
        Refusal::ForbiddenFunction { name } => tr!("error-refused-function", name = v.of(name)),
        Refusal::ForbiddenPragma { name } => {
            let allowed: Vec<String> = READ_ONLY_PRAGMAS
                .iter()
                .map(|p| format!("pragma_{p}"))
                .collect();
            tr!(
                "error-refused-pragma",
                name = v.of(name),
                allowed = v.of(allowed.join(", "))
            )
        }
        Refusal::Parameter { token } => tr!("error-refused-parameter", token = v.of(token)),
        Refusal::UnboundParameters { values, reason } => tr!(
            "error-refused-unbound-parameters",
            values = values.to_string(),
            reason = v.of(reason)
        ),
        Refusal::Malformed { reason } => tr!("error-refused-malformed", reason = v.of(reason)),
    }
}

/// "only a single read-only statement can run; this is a DELETE: write one SELECT …".
fn not_read_only(kind: &str, v: Values) -> String {
    let (select, with, values, explain) = (
        v.of("SELECT"),
        v.of("WITH … SELECT"),
        v.of("VALUES"),
        v.of("EXPLAIN"),
    );
    // English says "an ALTER TABLE", "a DELETE".
    if kind.starts_with(['A', 'E', 'I', 'O', 'U']) {
        tr!(
            "error-refused-not-read-only-an",
            kind = v.of(kind),
            select = select,
            with = with,
            values = values,
            explain = explain
        )
    } else {
        tr!(
            "error-refused-not-read-only",
            kind = v.of(kind),
            select = select,
            with = with,
            values = values,
            explain = explain
        )
    }
}

/// Why a database at a web address cannot be read in parts, in one sentence without its full
/// stop (`RemoteProblem`'s `Display`, for a person).
pub fn remote(problem: &RemoteProblem) -> String {
    remote_said(problem, Values::Plain)
}

fn remote_said(problem: &RemoteProblem, v: Values) -> String {
    match problem {
        RemoteProblem::Unreachable { why } => tr!(
            "error-remote-unreachable",
            why = v.of(why),
            header = v.of("Access-Control-Allow-Origin")
        ),
        RemoteProblem::RangeIgnored { .. } => {
            tr!("error-remote-range-ignored", header = v.of("Range"))
        }
        RemoteProblem::Status { status } if matches!(status, 401 | 403) => {
            tr!("error-remote-status-private", status = status.to_string())
        }
        RemoteProblem::Status { status } => {
            tr!("error-remote-status", status = status.to_string())
        }
        RemoteProblem::HeaderHidden { header } => tr!(
            "error-remote-header-hidden",
            header = v.of(header),
            cors = v.of("CORS")
        ),
        RemoteProblem::HeaderMissing { header } => {
            tr!("error-remote-header-missing", header = v.of(header))
        }
        RemoteProblem::BadContentRange { value } => tr!(
            "error-remote-bad-content-range",
            header = v.of("Content-Range"),
            value = v.of(format!("{value:?}"))
        ),
        RemoteProblem::NoLength => tr!(
            "error-remote-no-length",
            header = v.of("Content-Range"),
            end = v.of("/*")
        ),
        RemoteProblem::NoValidator { .. } => tr!(
            "error-remote-no-validator",
            etag = v.of("ETag"),
            modified = v.of("Last-Modified")
        ),
    }
}

/// What a Datasette server did instead of answering with rows.
fn datasette(problem: &DatasetteProblem, v: Values) -> String {
    let cors = || v.of("--cors");
    match problem {
        DatasetteProblem::BadAddress { why } => tr!(
            "error-datasette-bad-address",
            why = crate::present::opening::not_an_address(*why)
        ),
        DatasetteProblem::Unreachable {
            server, cors: true, ..
        } => tr!(
            "error-datasette-no-cors",
            server = v.of(server),
            flag = cors()
        ),
        DatasetteProblem::Unreachable { server, why, .. } => tr!(
            "error-datasette-unreachable",
            server = v.of(server),
            why = v.of(why),
            flag = cors()
        ),
        DatasetteProblem::TimeLimit { message } => {
            tr!("error-datasette-time-limit", message = v.of(message))
        }
        DatasetteProblem::SqlNotAllowed { database, status } => tr!(
            "error-datasette-sql-not-allowed",
            database = v.of(database),
            status = status.to_string(),
            setting = v.of("allow_sql")
        ),
        DatasetteProblem::NoSuchDatabase { database, server } => tr!(
            "error-datasette-no-such-database",
            database = v.of(database),
            server = v.of(server)
        ),
        DatasetteProblem::NotDatasette { status, what } => tr!(
            "error-datasette-not-datasette",
            status = status.to_string(),
            what = v.of(what)
        ),
        DatasetteProblem::Redirect { to } => tr!("error-datasette-redirect", to = v.of(to)),
        DatasetteProblem::Server { status, message } => tr!(
            "error-datasette-server",
            status = status.to_string(),
            message = v.of(message)
        ),
        // Only for values bound to a query, which the page's own queries never are.
        DatasetteProblem::Parameter { why } => why.clone(),
    }
}

/// What stopping a query left of the database, for the person who stopped it.
pub fn after_stop(after: AfterStop) -> String {
    match after {
        AfterStop::Ready => tr!("error-after-stop-ready"),
        AfterStop::Reopens { cache_bytes } => {
            tr!(
                "error-after-stop-reopens",
                cache = format_bytes(cache_bytes)
            )
        }
        AfterStop::LeftToServer => tr!("error-after-stop-left-to-server"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::datasette::DatasetteProblem;

    // Mutation: `for_person` returning `error.to_string()` for every error fails each line.
    #[test]
    fn a_person_is_told_what_they_can_do_where_the_model_is_told_what_to_query() {
        let budget = DbError::ByteBudget {
            limit_bytes: 10_000_000,
            read_bytes: 9_500_000,
        };
        assert!(for_person(&budget).contains("Raise the budget (Settings"));
        assert!(!budget.to_string().contains("Settings"), "{budget}");
        let fenced = DbError::Fenced("askdb_notes".into());
        assert!(for_person(&fenced).ends_with("the console may"));
        assert!(fenced.to_string().contains("Query the data's own tables"));
        let timeout = DbError::Timeout { after_ms: 10_000 };
        assert!(for_person(&timeout).contains("raise the deadline"));
        assert!(for_person(&timeout).starts_with("stopped after 10 s: "));
        // The rest read the same for both.
        let sqlite = DbError::Sqlite("no such table: x".into());
        assert_eq!(for_person(&sqlite), sqlite.to_string());
    }

    /// In English a person reads what the model reads, but for the three errors above: each
    /// variant's message in en.ftl says what `Display` says, SQLite's or a server's own text in
    /// its place. Mutation: a word changed in one `error-…` message of en.ftl, or a value left
    /// out of one (`{ $why }` dropped).
    #[test]
    fn every_other_error_reads_in_english_as_its_display() {
        let refusals = [
            Refusal::Empty,
            Refusal::TooLong { bytes: 123_456 },
            Refusal::TooDeep { depth: 1_234 },
            Refusal::MultipleStatements { count: 2 },
            Refusal::NotReadOnly {
                kind: "DELETE".into(),
            },
            Refusal::NotReadOnly {
                kind: "INSERT".into(),
            },
            Refusal::ForbiddenFunction {
                name: "load_extension".into(),
            },
            Refusal::ForbiddenPragma {
                name: "pragma_writable_schema".into(),
            },
            Refusal::Parameter { token: "?1".into() },
            Refusal::UnboundParameters {
                values: 2,
                reason: "?3 has no value".into(),
            },
            Refusal::Malformed {
                reason: "an unterminated string".into(),
            },
        ];
        let remote = [
            RemoteProblem::Unreachable {
                why: "Failed to fetch".into(),
            },
            RemoteProblem::RangeIgnored { size: Some(9) },
            RemoteProblem::Status { status: 404 },
            RemoteProblem::Status { status: 403 },
            RemoteProblem::HeaderHidden {
                header: "Content-Range".into(),
            },
            RemoteProblem::HeaderMissing {
                header: "Content-Range".into(),
            },
            RemoteProblem::BadContentRange {
                value: "bytes x".into(),
            },
            RemoteProblem::NoLength,
            RemoteProblem::NoValidator { size: 9 },
        ];
        let datasette = [
            DatasetteProblem::BadAddress {
                why: crate::engine::datasette::address::NotAnAddress::NoHost,
            },
            DatasetteProblem::Unreachable {
                server: "https://d.example".into(),
                why: "Failed to fetch".into(),
                cors: true,
            },
            DatasetteProblem::Unreachable {
                server: "https://d.example".into(),
                why: "Failed to fetch".into(),
                cors: false,
            },
            DatasetteProblem::TimeLimit {
                message: "SQL query took too long.".into(),
            },
            DatasetteProblem::SqlNotAllowed {
                database: "shop".into(),
                status: 403,
            },
            DatasetteProblem::NoSuchDatabase {
                database: "shop".into(),
                server: "https://d.example".into(),
            },
            DatasetteProblem::NotDatasette {
                status: 200,
                what: "an HTML page".into(),
            },
            DatasetteProblem::Redirect {
                to: "https://elsewhere.example".into(),
            },
            DatasetteProblem::Server {
                status: 400,
                message: "near \"x\": syntax error".into(),
            },
            DatasetteProblem::Parameter {
                why: "the statement's parameter ?2 has no value".into(),
            },
        ];
        let others = [
            DbError::Sqlite("no such table: x".into()),
            DbError::TooLarge {
                limit_bytes: 64 * 1024 * 1024,
            },
            DbError::Crashed {
                why: "out of memory".into(),
                reopened: true,
            },
            DbError::Crashed {
                why: "out of memory".into(),
                reopened: false,
            },
            DbError::Unavailable("no WebAssembly".into()),
            DbError::NotADatabase("file is not a database".into()),
            DbError::Unreadable("NotReadableError".into()),
            DbError::Changed("it was modified".into()),
            DbError::ReadFailed("HTTP 500".into()),
            DbError::NotOpen,
        ];
        let errors = refusals
            .into_iter()
            .map(DbError::Refused)
            .chain(remote.into_iter().map(DbError::Remote))
            .chain(datasette.into_iter().map(DbError::Datasette))
            .chain(others);
        for error in errors {
            assert_eq!(for_person(&error), error.to_string(), "{error:?}");
            // Marked, it reads the same once its marks are taken away.
            let marked = for_person_marked(&error);
            assert_eq!(marked::plain(&marked), for_person(&error), "{error:?}");
        }
    }

    /// The values of a marked sentence come apart from its words: SQLite's message, and the
    /// SQL a refusal names. Mutation: `Values::of` not marking (`Marked` as `Plain`), or
    /// `marked::data` not marking.
    #[test]
    fn marked_values_come_apart_from_the_words() {
        let pieces = |said: &str| -> Vec<(bool, String)> {
            marked::pieces(said)
                .into_iter()
                .map(|piece| (piece.data, piece.text))
                .collect()
        };
        let sqlite = for_person_marked(&DbError::Sqlite("no such table: x".into()));
        assert_eq!(
            pieces(&sqlite),
            [
                (false, "SQLite error: ".to_string()),
                (true, "no such table: x".into())
            ]
        );
        let delete = DbError::Refused(Refusal::NotReadOnly {
            kind: "DELETE".into(),
        });
        let marked = for_person_marked(&delete);
        let values: Vec<String> = pieces(&marked)
            .into_iter()
            .filter(|(value, _)| *value)
            .map(|(_, text)| text)
            .collect();
        assert_eq!(
            values,
            ["DELETE", "SELECT", "WITH … SELECT", "VALUES", "EXPLAIN"]
        );
    }

    /// Mutation: the page cache's size left out of what a stop costs a database read on
    /// demand (`(up to {})` dropped).
    #[test]
    fn a_stop_says_what_it_cost_each_kind_of_database() {
        assert_eq!(
            after_stop(AfterStop::Ready),
            "The database is ready for the next one."
        );
        assert_eq!(
            after_stop(AfterStop::Reopens {
                cache_bytes: 64 * 1024 * 1024
            }),
            "This database is read on demand: its worker was stopped, and the next query opens \
             the file again (a few pages) with its page cache (up to 67 MB) empty, so it may \
             read more of the file than it would have."
        );
        assert!(after_stop(AfterStop::LeftToServer).starts_with("The query was left to the"));
    }
}
