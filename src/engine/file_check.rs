//! Before SQLite sees a database: whether its header is one, so that a CSV, an empty file or a
//! truncated copy gets a message that names the problem (sql.js opens lazily and would only
//! complain later, vaguely, at the first query). What a file is, is `crate::identify`'s to say.

use crate::identify::SQLITE_MAGIC;
use std::fmt;

/// The first 100 bytes of every SQLite database file.
pub const HEADER_LEN: usize = 100;

/// Why a file's header is not a whole SQLite database's. `Display` says it as the engine's
/// errors do (`DbError::NotADatabase`); the page says it in its language
/// (`present::opening`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeaderProblem {
    Empty,
    /// Fewer than [`HEADER_LEN`] bytes.
    TooShort {
        bytes: u64,
    },
    /// Not SQLite's magic: text (CSV, SQL or JSON?), or anything else.
    NotSqlite {
        text: bool,
    },
    InvalidPageSize {
        size: u16,
    },
    /// Shorter than the pages its header counts.
    Truncated {
        expected: u64,
        bytes: u64,
    },
    /// Not a whole number of pages (the header's page count not valid).
    PartPage {
        bytes: u64,
        page_size: u64,
    },
}

impl fmt::Display for HeaderProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeaderProblem::Empty => write!(f, "the file is empty"),
            HeaderProblem::TooShort { bytes } => write!(
                f,
                "the file has only {bytes} bytes; a SQLite database has at least {HEADER_LEN}"
            ),
            HeaderProblem::NotSqlite { text: true } => write!(
                f,
                "it does not start with the SQLite header; it looks like a text file (CSV, SQL or JSON?)"
            ),
            HeaderProblem::NotSqlite { text: false } => write!(
                f,
                "it does not start with the SQLite header (\"SQLite format 3\")"
            ),
            HeaderProblem::InvalidPageSize { size } => {
                write!(f, "the header names an invalid page size ({size})")
            }
            HeaderProblem::Truncated { expected, bytes } => write!(
                f,
                "the file is truncated: its header describes {expected} bytes but it has {bytes}"
            ),
            HeaderProblem::PartPage { bytes, page_size } => write!(
                f,
                "the file is truncated: {bytes} bytes is not a whole number of {page_size}-byte pages"
            ),
        }
    }
}

/// Checks the header (`head`: at least the file's first 100 bytes, when it has them) against
/// the file's total length. Returns a message that names the problem.
pub fn check_header(head: &[u8], file_len: u64) -> Result<(), String> {
    header_problem(head, file_len).map_err(|problem| problem.to_string())
}

/// What [`check_header`] finds wrong, as a [`HeaderProblem`].
pub fn header_problem(head: &[u8], file_len: u64) -> Result<(), HeaderProblem> {
    if file_len == 0 {
        return Err(HeaderProblem::Empty);
    }
    if file_len < HEADER_LEN as u64 || head.len() < HEADER_LEN {
        return Err(HeaderProblem::TooShort { bytes: file_len });
    }
    if &head[..16] != SQLITE_MAGIC {
        return Err(HeaderProblem::NotSqlite {
            text: looks_like_text(&head[..HEADER_LEN]),
        });
    }
    let page_size = match u16::from_be_bytes([head[16], head[17]]) {
        1 => 65_536u64,
        n if n >= 512 && n.is_power_of_two() => u64::from(n),
        n => return Err(HeaderProblem::InvalidPageSize { size: n }),
    };
    // The page count in the header is valid only when the two change counters agree.
    let change_counter = u32::from_be_bytes([head[24], head[25], head[26], head[27]]);
    let valid_for = u32::from_be_bytes([head[92], head[93], head[94], head[95]]);
    let page_count = u64::from(u32::from_be_bytes([head[28], head[29], head[30], head[31]]));
    if change_counter == valid_for && page_count > 0 {
        let expected = page_count * page_size;
        if file_len < expected {
            return Err(HeaderProblem::Truncated {
                expected,
                bytes: file_len,
            });
        }
    } else if !file_len.is_multiple_of(page_size) {
        return Err(HeaderProblem::PartPage {
            bytes: file_len,
            page_size,
        });
    }
    Ok(())
}

fn looks_like_text(bytes: &[u8]) -> bool {
    std::str::from_utf8(bytes).is_ok_and(|s| {
        s.chars()
            .all(|c| !c.is_control() || c == '\n' || c == '\r' || c == '\t')
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(page_size: u16, pages: u32) -> Vec<u8> {
        let mut h = vec![0u8; HEADER_LEN];
        h[..16].copy_from_slice(SQLITE_MAGIC);
        h[16..18].copy_from_slice(&page_size.to_be_bytes());
        h[24..28].copy_from_slice(&7u32.to_be_bytes());
        h[28..32].copy_from_slice(&pages.to_be_bytes());
        h[92..96].copy_from_slice(&7u32.to_be_bytes());
        h
    }

    #[test]
    fn accepts_a_whole_database() {
        assert_eq!(check_header(&header(4096, 4), 4 * 4096), Ok(()));
    }

    #[test]
    fn names_each_problem() {
        assert!(check_header(&[], 0).unwrap_err().contains("empty"));
        assert!(check_header(b"id,name\n1,x", 11)
            .unwrap_err()
            .contains("at least 100"));
        let csv = "id,name,prefecture\n".repeat(10);
        assert!(check_header(csv.as_bytes(), csv.len() as u64)
            .unwrap_err()
            .contains("text file"));
        let noise: Vec<u8> = (0..200u32).map(|i| (i * 7 + 3) as u8).collect();
        assert!(check_header(&noise, 200)
            .unwrap_err()
            .contains("SQLite header"));
        assert!(check_header(&header(4096, 4), 3 * 4096)
            .unwrap_err()
            .contains("truncated"));
        assert!(check_header(&header(1000, 4), 4000)
            .unwrap_err()
            .contains("page size"));
    }

    #[test]
    fn real_demo_database_passes() {
        let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/www/demo/shop.db"))
            .expect("demo database is shipped in www/demo");
        assert_eq!(check_header(&bytes, bytes.len() as u64), Ok(()));
        let half = bytes.len() / 2;
        assert!(check_header(&bytes[..half], half as u64).is_err());
    }
}
