//! Where an imported file's bytes come from: a source read from its start as many times as the
//! importer needs (twice for a CSV or JSON file: once to learn the columns, once to write), so a
//! large file is streamed and never held whole. Natively a file on disk or bytes in memory; in
//! the import worker a `File` read in slices (`worker::BlobSource`).

use std::cell::Cell;
use std::io::{self, Read};
use std::rc::Rc;

/// Bytes that can be read from the start again.
pub trait ByteSource {
    /// The size in bytes (for progress and the first bytes the sniffer reads).
    fn size(&self) -> u64;
    /// A new reader from the first byte.
    fn open(&self) -> io::Result<Box<dyn Read + '_>>;
}

impl ByteSource for [u8] {
    fn size(&self) -> u64 {
        self.len() as u64
    }
    fn open(&self) -> io::Result<Box<dyn Read + '_>> {
        Ok(Box::new(self))
    }
}

impl ByteSource for Vec<u8> {
    fn size(&self) -> u64 {
        self.len() as u64
    }
    fn open(&self) -> io::Result<Box<dyn Read + '_>> {
        Ok(Box::new(self.as_slice()))
    }
}

/// A file on disk, opened anew for each pass (native only: tests, benchmarks).
#[cfg(not(target_arch = "wasm32"))]
pub struct FileSource(pub std::path::PathBuf);

#[cfg(not(target_arch = "wasm32"))]
impl ByteSource for FileSource {
    fn size(&self) -> u64 {
        std::fs::metadata(&self.0).map(|m| m.len()).unwrap_or(0)
    }
    fn open(&self) -> io::Result<Box<dyn Read + '_>> {
        // Large reads: the CSV reader asks for small pieces, a buffer makes them cheap.
        Ok(Box::new(io::BufReader::with_capacity(
            1 << 20,
            std::fs::File::open(&self.0)?,
        )))
    }
}

/// Up to `limit` bytes from the start of a source (what the sniffer looks at).
pub fn first_bytes(source: &dyn ByteSource, limit: usize) -> io::Result<Vec<u8>> {
    let mut out = Vec::with_capacity(limit.min(source.size() as usize));
    source.open()?.take(limit as u64).read_to_end(&mut out)?;
    Ok(out)
}

/// A reader that counts the bytes read through it, for progress.
pub struct Counted<R> {
    inner: R,
    count: Rc<Cell<u64>>,
}

impl<R: Read> Counted<R> {
    pub fn new(inner: R) -> (Self, Rc<Cell<u64>>) {
        let count = Rc::new(Cell::new(0));
        (
            Counted {
                inner,
                count: count.clone(),
            },
            count,
        )
    }
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count.set(self.count.get() + n as u64);
        Ok(n)
    }
}
