//! Why a database could not be opened, as a person reads it: the engine's error at open
//! (`DbError`), a header that is not SQLite's (`engine::file_check::HeaderProblem`), a Datasette
//! server's problem (`DatasetteProblem`). `Display` of these is what the model and the logs
//! read; these are the page's words, the same in English (the tests hold them to it). What
//! comes from outside (SQLite's message, a server's, the browser's) goes in as it is.

use crate::engine::datasette::address::NotAnAddress;
use crate::engine::datasette::DatasetteProblem;
use crate::engine::file_check::{HeaderProblem, HEADER_LEN};
use crate::engine::DbError;
use crate::present::errors::for_person;
use crate::present::remote;
use crate::tr;

/// `error`, met while opening a database, for the person who opened it.
pub fn open_error(error: &DbError) -> String {
    match error {
        DbError::Sqlite(message) => tr!("open-db-sqlite", message = message),
        DbError::Unavailable(why) => tr!("open-db-unavailable", why = why),
        DbError::NotADatabase(why) => tr!("open-db-not-a-database", why = why),
        DbError::Unreadable(why) => tr!("open-db-unreadable", why = why),
        DbError::Crashed {
            why,
            reopened: true,
        } => tr!("open-db-crashed-reopened", why = why),
        DbError::Crashed { why, .. } => tr!("open-db-crashed", why = why),
        DbError::Changed(why) => tr!("open-db-changed", why = why),
        DbError::ReadFailed(why) => tr!("open-db-read-failed", why = why),
        DbError::Remote(problem) => remote::problem(problem),
        DbError::Datasette(problem) => datasette(problem),
        // Met by queries, not opens: said as the console says them.
        other => for_person(other),
    }
}

/// The file's header is not a whole SQLite database's: said as `DbError::NotADatabase` is.
pub fn not_a_database(problem: HeaderProblem) -> String {
    let why = match problem {
        HeaderProblem::Empty => tr!("open-header-empty"),
        HeaderProblem::TooShort { bytes } => tr!(
            "open-header-too-short",
            bytes = bytes.to_string(),
            least = HEADER_LEN.to_string()
        ),
        HeaderProblem::NotSqlite { text: true } => tr!("open-header-text"),
        HeaderProblem::NotSqlite { text: false } => tr!("open-header-not-sqlite"),
        HeaderProblem::InvalidPageSize { size } => {
            tr!("open-header-page-size", size = size.to_string())
        }
        HeaderProblem::Truncated { expected, bytes } => tr!(
            "open-header-truncated",
            expected = expected.to_string(),
            bytes = bytes.to_string()
        ),
        HeaderProblem::PartPage { bytes, page_size } => tr!(
            "open-header-part-page",
            bytes = bytes.to_string(),
            page_size = page_size.to_string()
        ),
    };
    tr!("open-db-not-a-database", why = why)
}

/// What a Datasette server's answer (or the address typed for it) was, and what to do.
pub fn datasette(problem: &DatasetteProblem) -> String {
    match problem {
        DatasetteProblem::BadAddress { why } => {
            tr!("open-datasette-bad-address", why = not_an_address(*why))
        }
        DatasetteProblem::Unreachable {
            server, cors: true, ..
        } => tr!("open-datasette-no-cors", server = server),
        DatasetteProblem::Unreachable { server, why, .. } => {
            tr!("open-datasette-unreachable", server = server, why = why)
        }
        DatasetteProblem::TimeLimit { message } => {
            tr!("open-datasette-time-limit", message = message)
        }
        DatasetteProblem::SqlNotAllowed { database, status } => tr!(
            "open-datasette-sql-not-allowed",
            database = database,
            status = status.to_string()
        ),
        DatasetteProblem::NoSuchDatabase { database, server } => tr!(
            "open-datasette-no-such-database",
            database = database,
            server = server
        ),
        DatasetteProblem::NotDatasette { status, what } => tr!(
            "open-datasette-not-datasette",
            status = status.to_string(),
            what = what
        ),
        DatasetteProblem::Redirect { to } => tr!("open-datasette-redirect", to = to),
        DatasetteProblem::Server { status, message } => tr!(
            "open-datasette-server",
            status = status.to_string(),
            message = message
        ),
        DatasetteProblem::Parameter { why } => why.clone(),
    }
}

fn not_an_address(why: NotAnAddress) -> String {
    match why {
        NotAnAddress::NoScheme => tr!("open-datasette-no-scheme"),
        NotAnAddress::NotHttp => tr!("open-datasette-not-http"),
        NotAnAddress::NoHost => tr!("open-datasette-no-host"),
        NotAnAddress::Credentials => tr!("open-datasette-credentials"),
        NotAnAddress::HostSpace => tr!("open-datasette-host-space"),
        NotAnAddress::ServerPage => tr!("open-datasette-server-page"),
        NotAnAddress::NoDatabase => tr!("open-datasette-no-database"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::datasette::DatasetteAddress;
    use crate::engine::file_check::header_problem;
    use crate::engine::on_demand::RemoteProblem;

    /// Mutation: a word changed in one of the catalogue's errors at open, or two of them
    /// swapped (`Crashed`'s two, say): the page's English is the engine's, byte for byte.
    #[test]
    fn each_error_at_open_reads_as_the_engine_says_it() {
        let why = || "out of memory".to_string();
        let errors = [
            DbError::Sqlite("file is not a database".into()),
            DbError::Unavailable(why()),
            DbError::NotADatabase(why()),
            DbError::Unreadable(why()),
            DbError::Crashed {
                why: why(),
                reopened: true,
            },
            DbError::Crashed {
                why: why(),
                reopened: false,
            },
            DbError::Changed(why()),
            DbError::ReadFailed(why()),
            DbError::Remote(RemoteProblem::NoLength),
            DbError::NotOpen,
        ];
        for error in errors {
            assert_eq!(open_error(&error), for_person(&error));
        }
    }

    /// Mutation: the text file's sentence and the other's swapped, or a number left out of
    /// a truncated file's.
    #[test]
    fn each_header_problem_reads_as_the_engine_says_it() {
        let problems = [
            HeaderProblem::Empty,
            HeaderProblem::TooShort { bytes: 11 },
            HeaderProblem::NotSqlite { text: true },
            HeaderProblem::NotSqlite { text: false },
            HeaderProblem::InvalidPageSize { size: 1000 },
            HeaderProblem::Truncated {
                expected: 16_384,
                bytes: 12_288,
            },
            HeaderProblem::PartPage {
                bytes: 5_000,
                page_size: 4_096,
            },
        ];
        for problem in problems {
            let engine = DbError::NotADatabase(problem.to_string());
            assert_eq!(not_a_database(problem), engine.to_string());
        }
        let csv = "id,name,prefecture\n".repeat(10);
        assert_eq!(
            header_problem(csv.as_bytes(), csv.len() as u64),
            Err(HeaderProblem::NotSqlite { text: true })
        );
    }

    /// Mutation: one of the addresses' reasons, or of the server's problems, reworded.
    #[test]
    fn each_datasette_problem_reads_as_the_engine_says_it() {
        let mut problems: Vec<DatasetteProblem> = [
            "fixtures",
            "ftp://host/db",
            "https:///db",
            "https://user:pw@host/db",
            "https://ho st/db",
            "https://host/-/databases",
            "https://host/",
        ]
        .iter()
        .map(|text| DatasetteAddress::parse(text).unwrap_err())
        .collect();
        let server = || "https://data.example.org".to_string();
        problems.extend([
            DatasetteProblem::Unreachable {
                server: server(),
                why: "Failed to fetch".into(),
                cors: true,
            },
            DatasetteProblem::Unreachable {
                server: server(),
                why: "Failed to fetch".into(),
                cors: false,
            },
            DatasetteProblem::TimeLimit {
                message: "SQL query took too long.".into(),
            },
            DatasetteProblem::SqlNotAllowed {
                database: "fixtures".into(),
                status: 403,
            },
            DatasetteProblem::NoSuchDatabase {
                database: "fixtures".into(),
                server: server(),
            },
            DatasetteProblem::NotDatasette {
                status: 200,
                what: "HTML".into(),
            },
            DatasetteProblem::Redirect {
                to: "https://elsewhere.example.org/".into(),
            },
            DatasetteProblem::Server {
                status: 500,
                message: "Internal error".into(),
            },
            DatasetteProblem::Parameter {
                why: "a blob".into(),
            },
        ]);
        let addresses: Vec<_> = problems
            .iter()
            .filter(|p| matches!(p, DatasetteProblem::BadAddress { .. }))
            .collect();
        assert_eq!(addresses.len(), 7, "{addresses:?}");
        for problem in &problems {
            assert_eq!(datasette(problem), problem.to_string());
        }
    }
}
