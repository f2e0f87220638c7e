//! Before SQLite sees a database: whether its header is one, so that a CSV, an empty file or a
//! truncated copy gets a message that names the problem (sql.js opens lazily and would only
//! complain later, vaguely, at the first query). What a file is, is `crate::identify`'s to say.

use crate::identify::SQLITE_MAGIC;

/// The first 100 bytes of every SQLite database file.
pub const HEADER_LEN: usize = 100;

/// Checks the header (`head`: at least the file's first 100 bytes, when it has them) against
/// the file's total length. Returns a message that names the problem.
pub fn check_header(head: &[u8], file_len: u64) -> Result<(), String> {
    if file_len == 0 {
        return Err("the file is empty".into());
    }
    if file_len < HEADER_LEN as u64 || head.len() < HEADER_LEN {
        return Err(format!(
            "the file has only {file_len} bytes; a SQLite database has at least {HEADER_LEN}"
        ));
    }
    if &head[..16] != SQLITE_MAGIC {
        return Err(if looks_like_text(&head[..HEADER_LEN]) {
            "it does not start with the SQLite header; it looks like a text file (CSV, SQL or JSON?)"
                .into()
        } else {
            "it does not start with the SQLite header (\"SQLite format 3\")".into()
        });
    }
    let page_size = match u16::from_be_bytes([head[16], head[17]]) {
        1 => 65_536u64,
        n if n >= 512 && n.is_power_of_two() => u64::from(n),
        n => return Err(format!("the header names an invalid page size ({n})")),
    };
    // The page count in the header is valid only when the two change counters agree.
    let change_counter = u32::from_be_bytes([head[24], head[25], head[26], head[27]]);
    let valid_for = u32::from_be_bytes([head[92], head[93], head[94], head[95]]);
    let page_count = u64::from(u32::from_be_bytes([head[28], head[29], head[30], head[31]]));
    if change_counter == valid_for && page_count > 0 {
        let expected = page_count * page_size;
        if file_len < expected {
            return Err(format!(
                "the file is truncated: its header describes {expected} bytes but it has {file_len}"
            ));
        }
    } else if !file_len.is_multiple_of(page_size) {
        return Err(format!(
            "the file is truncated: {file_len} bytes is not a whole number of {page_size}-byte pages"
        ));
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
