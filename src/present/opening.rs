//! Why a file or an address could not be opened, where the engine's error (said by
//! `present::errors`) does not say it in parts: a header that is not SQLite's
//! (`engine::file_check::HeaderProblem`, which the page checks before the engine does), and why
//! a text is not a Datasette database's address (`NotAnAddress`). Their `Display` is what the
//! engine's errors and the tools say; these are the page's words, the same in English (the
//! tests hold them to it).

use crate::engine::datasette::address::NotAnAddress;
use crate::engine::file_check::{HeaderProblem, HEADER_LEN};
use crate::present::marked::data as mark;
use crate::tr;

/// The file's header is not a whole SQLite database's: said as `DbError::NotADatabase` is.
pub fn not_a_database(problem: HeaderProblem) -> String {
    said(problem, str::to_string)
}

/// [`not_a_database`] with its values marked (`present::marked::pieces` finds them).
pub fn not_a_database_marked(problem: HeaderProblem) -> String {
    said(problem, mark)
}

fn said(problem: HeaderProblem, value: impl Fn(&str) -> String) -> String {
    let why = match problem {
        HeaderProblem::Empty => tr!("open-header-empty"),
        HeaderProblem::TooShort { bytes } => tr!(
            "open-header-too-short",
            bytes = bytes.to_string(),
            least = HEADER_LEN.to_string()
        ),
        HeaderProblem::NotSqlite { text: true } => tr!("open-header-text"),
        HeaderProblem::NotSqlite { text: false } => {
            tr!("open-header-not-sqlite", magic = value("SQLite format 3"))
        }
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
    tr!("error-not-a-database", why = why)
}

/// Why a text is not the address of a database on a Datasette server, as a clause.
pub fn not_an_address(why: NotAnAddress) -> String {
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
    use crate::engine::datasette::{DatasetteAddress, DatasetteProblem};
    use crate::engine::file_check::header_problem;
    use crate::engine::DbError;
    use crate::present::errors::for_person;
    use crate::present::marked::{pieces, plain};

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
            let marked = not_a_database_marked(problem);
            assert_eq!(plain(&marked), engine.to_string());
        }
        let magic = not_a_database_marked(HeaderProblem::NotSqlite { text: false });
        assert!(
            pieces(&magic)
                .iter()
                .any(|piece| piece.data && piece.text == "SQLite format 3"),
            "{magic:?}"
        );
        let csv = "id,name,prefecture\n".repeat(10);
        assert_eq!(
            header_problem(csv.as_bytes(), csv.len() as u64),
            Err(HeaderProblem::NotSqlite { text: true })
        );
    }

    /// Mutation: one of the reasons an address is not a Datasette database's reworded, or two
    /// of them swapped.
    #[test]
    fn each_reason_an_address_is_not_one_reads_as_the_engine_says_it() {
        let problems: Vec<DatasetteProblem> = [
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
        let mut reasons = Vec::new();
        for problem in &problems {
            let DatasetteProblem::BadAddress { why } = problem else {
                panic!("{problem:?}");
            };
            reasons.push(*why);
            assert_eq!(not_an_address(*why), why.to_string());
            let error = DbError::Datasette(problem.clone());
            assert_eq!(for_person(&error), error.to_string());
        }
        reasons.dedup();
        assert_eq!(reasons.len(), 7, "{reasons:?}");
    }
}
