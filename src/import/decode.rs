//! Text encodings: which one a file is in (from its byte order mark), and a reader that hands on
//! UTF-8. UTF-8 passes through (its BOM dropped); UTF-16 is transcoded here, with each unit that
//! is not UTF-16 (an unpaired surrogate, an odd last byte) replaced by U+FFFD and its line kept,
//! so the report can say where. Written here rather than with encoding_rs because the importer
//! must say on which line a bad unit was, which a general decoder does not tell.

use super::places::Places;
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::io::{self, Read};
use std::rc::Rc;

/// The encoding a text file was read in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Encoding {
    Utf8,
    /// UTF-8 with a byte order mark (`EF BB BF`), as Excel writes "CSV UTF-8".
    Utf8Bom,
    Utf16Le,
    Utf16Be,
}

impl Encoding {
    /// From a file's first bytes: a BOM names the encoding; without one it is UTF-8.
    pub fn detect(first: &[u8]) -> Encoding {
        match first {
            [0xEF, 0xBB, 0xBF, ..] => Encoding::Utf8Bom,
            [0xFF, 0xFE, ..] => Encoding::Utf16Le,
            [0xFE, 0xFF, ..] => Encoding::Utf16Be,
            _ => Encoding::Utf8,
        }
    }

    fn bom_len(self) -> usize {
        match self {
            Encoding::Utf8 => 0,
            Encoding::Utf8Bom => 3,
            Encoding::Utf16Le | Encoding::Utf16Be => 2,
        }
    }

    /// How a person reads it: "UTF-16 (little-endian)".
    pub fn label(self) -> &'static str {
        match self {
            Encoding::Utf8 => "UTF-8",
            Encoding::Utf8Bom => "UTF-8 with a byte order mark",
            Encoding::Utf16Le => "UTF-16 (little-endian)",
            Encoding::Utf16Be => "UTF-16 (big-endian)",
        }
    }
}

/// The lines where bytes could not be decoded, shared between a decoding reader and whoever
/// reports them.
pub type BadLines = Rc<RefCell<Places>>;

/// UTF-8 from `reader`, whose text is in `encoding` (its BOM, if any, still at the start).
pub fn utf8_reader<'a>(
    mut reader: Box<dyn Read + 'a>,
    encoding: Encoding,
    bad: BadLines,
) -> io::Result<Box<dyn Read + 'a>> {
    let mut bom = vec![0u8; encoding.bom_len()];
    reader.read_exact(&mut bom)?;
    Ok(match encoding {
        Encoding::Utf8 | Encoding::Utf8Bom => reader,
        Encoding::Utf16Le | Encoding::Utf16Be => Box::new(Utf16Reader {
            inner: reader,
            big_endian: encoding == Encoding::Utf16Be,
            out: Vec::new(),
            at: 0,
            carry: None,
            high: None,
            line: 1,
            bad,
            done: false,
        }),
    })
}

/// Text of the first bytes of a file, decoded for the sniffer (lossy: it only looks).
pub fn preview(first: &[u8]) -> String {
    let encoding = Encoding::detect(first);
    let body = &first[encoding.bom_len()..];
    match encoding {
        Encoding::Utf8 | Encoding::Utf8Bom => String::from_utf8_lossy(body).into_owned(),
        Encoding::Utf16Le | Encoding::Utf16Be => {
            let units = body.chunks_exact(2).map(|p| {
                if encoding == Encoding::Utf16Be {
                    u16::from_be_bytes([p[0], p[1]])
                } else {
                    u16::from_le_bytes([p[0], p[1]])
                }
            });
            char::decode_utf16(units)
                .map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
                .collect()
        }
    }
}

struct Utf16Reader<'a> {
    inner: Box<dyn Read + 'a>,
    big_endian: bool,
    /// UTF-8 decoded and not yet handed on, from `at`.
    out: Vec<u8>,
    at: usize,
    /// The first byte of a unit whose second byte is in the next read.
    carry: Option<u8>,
    /// A high surrogate waiting for its low one.
    high: Option<u16>,
    /// The line being decoded (1 + the line feeds so far).
    line: u64,
    bad: BadLines,
    done: bool,
}

impl Utf16Reader<'_> {
    fn push(&mut self, c: char) {
        if c == '\n' {
            self.line += 1;
        }
        let mut buf = [0u8; 4];
        self.out
            .extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
    }

    fn bad_unit(&mut self) {
        self.bad.borrow_mut().add(self.line);
        self.push(char::REPLACEMENT_CHARACTER);
    }

    fn unit(&mut self, u: u16) {
        match u {
            0xD800..=0xDBFF => {
                if self.high.replace(u).is_some() {
                    self.bad_unit();
                }
            }
            0xDC00..=0xDFFF => match self.high.take() {
                Some(h) => {
                    let c = 0x10000 + (((h as u32) - 0xD800) << 10) + ((u as u32) - 0xDC00);
                    self.push(char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER));
                }
                None => self.bad_unit(),
            },
            _ => {
                if self.high.take().is_some() {
                    self.bad_unit();
                }
                self.push(char::from_u32(u as u32).unwrap_or(char::REPLACEMENT_CHARACTER));
            }
        }
    }

    fn refill(&mut self) -> io::Result<()> {
        self.out.clear();
        self.at = 0;
        let mut raw = vec![0u8; 64 * 1024];
        while self.out.is_empty() && !self.done {
            let n = self.inner.read(&mut raw)?;
            if n == 0 {
                self.done = true;
                if self.carry.take().is_some() || self.high.take().is_some() {
                    self.bad_unit();
                }
                break;
            }
            let mut bytes = &raw[..n];
            if let Some(first) = self.carry.take() {
                let pair = [first, bytes[0]];
                self.unit(self.to_unit(pair));
                bytes = &bytes[1..];
            }
            let mut pairs = bytes.chunks_exact(2);
            for pair in pairs.by_ref() {
                self.unit(self.to_unit([pair[0], pair[1]]));
            }
            if let [last] = pairs.remainder() {
                self.carry = Some(*last);
            }
        }
        Ok(())
    }

    fn to_unit(&self, pair: [u8; 2]) -> u16 {
        if self.big_endian {
            u16::from_be_bytes(pair)
        } else {
            u16::from_le_bytes(pair)
        }
    }
}

impl Read for Utf16Reader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.at >= self.out.len() {
            self.refill()?;
        }
        let n = buf.len().min(self.out.len() - self.at);
        buf[..n].copy_from_slice(&self.out[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(bytes: &[u8]) -> (String, Places) {
        let bad: BadLines = Default::default();
        let mut out = String::new();
        utf8_reader(Box::new(bytes), Encoding::detect(bytes), bad.clone())
            .unwrap()
            .read_to_string(&mut out)
            .unwrap();
        let places = bad.borrow().clone();
        (out, places)
    }

    fn utf16le(text: &str) -> Vec<u8> {
        let mut bytes = vec![0xFF, 0xFE];
        bytes.extend(text.encode_utf16().flat_map(|u| u.to_le_bytes()));
        bytes
    }

    #[test]
    fn a_utf8_bom_is_dropped_and_the_text_kept() {
        assert_eq!(decode(b"\xEF\xBB\xBFa,b\n").0, "a,b\n");
        assert_eq!(decode(b"a,b\n").0, "a,b\n");
    }

    #[test]
    fn utf16_both_byte_orders_with_characters_outside_the_basic_plane() {
        let text = "név,🦀\n1,2\n";
        assert_eq!(decode(&utf16le(text)).0, text);
        let mut be = vec![0xFE, 0xFF];
        be.extend(text.encode_utf16().flat_map(|u| u.to_be_bytes()));
        assert_eq!(decode(&be).0, text);
    }

    #[test]
    fn an_unpaired_surrogate_is_replaced_and_its_line_reported() {
        let mut bytes = utf16le("a\nb");
        bytes.extend(0xD800u16.to_le_bytes()); // a high surrogate with no low one
        bytes.extend(utf16le("c\n").split_off(2));
        let (text, bad) = decode(&bytes);
        assert_eq!(text, "a\nb\u{FFFD}c\n");
        assert_eq!(bad.first, vec![2]);
        assert_eq!(bad.count, 1);
    }

    #[test]
    fn an_odd_last_byte_is_reported_not_dropped() {
        let mut bytes = utf16le("a");
        bytes.push(0x41);
        let (text, bad) = decode(&bytes);
        assert_eq!(text, "a\u{FFFD}");
        assert_eq!(bad.count, 1);
    }

    #[test]
    fn a_unit_split_across_reads_is_joined() {
        // A reader that hands out one byte at a time.
        struct Trickle<'a>(&'a [u8]);
        impl Read for Trickle<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                if self.0.is_empty() || buf.is_empty() {
                    return Ok(0);
                }
                buf[0] = self.0[0];
                self.0 = &self.0[1..];
                Ok(1)
            }
        }
        let bytes = utf16le("x🦀y");
        let mut out = String::new();
        utf8_reader(
            Box::new(Trickle(&bytes)),
            Encoding::Utf16Le,
            Default::default(),
        )
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
        assert_eq!(out, "x🦀y");
    }
}
