//! A database file's name, size and SHA-256, as the page records them when the file opens (the
//! page hashes its bytes with Web Crypto): for the native tools that make recordings and check
//! them (`askdb-eval record`, `replay-check`, `mdbook-askdb`). Native only.

use sha2::{Digest, Sha256};
use std::io::Read;
use std::path::Path;

/// What names a database file in a recording.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileDigest {
    /// The file's name, as the page shows a file it opened.
    pub name: String,
    pub size: u64,
    /// 64 lower-case hex digits.
    pub sha256: String,
}

/// Reads the file at `path` through once, in pieces (a large file is never held whole).
pub fn digest_file(path: &Path) -> std::io::Result<FileDigest> {
    let mut file = std::fs::File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 20];
    let mut size = 0u64;
    loop {
        let read = file.read(&mut buffer)?;
        if read == 0 {
            break;
        }
        hasher.update(&buffer[..read]);
        size += read as u64;
    }
    let name = path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string());
    Ok(FileDigest {
        name,
        size,
        sha256: format!("{:x}", hasher.finalize()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_digest_is_sha256_of_the_bytes() {
        let dir = std::env::temp_dir().join(format!("askdb-digest-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("abc.db");
        std::fs::write(&path, b"abc").unwrap();
        let digest = digest_file(&path).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(digest.name, "abc.db");
        assert_eq!(digest.size, 3);
        // FIPS 180-2's example.
        assert_eq!(
            digest.sha256,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
