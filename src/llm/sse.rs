//! Server-sent events, read as they arrive: the one reader every provider's stream goes through.
//!
//! It follows the HTML standard's "event stream interpretation" (what the browser's
//! `EventSource` does), byte chunk by byte chunk: lines end at CR LF, LF or CR; a blank line
//! dispatches the event; `:` starts a comment; `data` lines are joined with line feeds; a leading
//! byte-order mark is dropped. A chunk may end anywhere, inside a line, inside a CR LF pair or
//! inside a UTF-8 character: nothing is decoded until its line is whole. As the standard says, an
//! event the stream ends in the middle of is never dispatched: a provider's reader then finds its
//! closing event missing and says the reply was cut short. Written here rather than taken from a
//! crate: the ones there tie themselves to an HTTP client or an async runtime, and the whole rule
//! is this page.

/// One event of the stream.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event` field; empty when the stream named none (the standard's "message").
    pub event: String,
    /// The `data` lines, joined by line feeds.
    pub data: String,
}

/// Reads an event stream given in pieces: feed it each piece as it comes.
#[derive(Debug, Default)]
pub struct SseReader {
    /// The bytes of the line not yet ended.
    line: Vec<u8>,
    /// The last piece ended in CR: a LF first in the next one belongs to it.
    after_cr: bool,
    /// The stream's first bytes are still to come (the byte-order mark is looked for there).
    at_start: bool,
    event: String,
    data: String,
    /// At least one `data` line since the last dispatch (an empty one counts).
    has_data: bool,
}

/// UTF-8's byte-order mark, dropped at the very start of a stream.
const BOM: &[u8] = b"\xEF\xBB\xBF";

impl SseReader {
    pub fn new() -> SseReader {
        SseReader {
            at_start: true,
            ..SseReader::default()
        }
    }

    /// Reads `bytes`, the next piece of the stream; returns the events it completed, in order.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<SseEvent> {
        let events = Vec::new();
        let mut bytes = bytes;
        if self.at_start {
            // The mark may itself arrive in pieces: hold the bytes until it is told.
            self.line.extend_from_slice(bytes);
            let held = std::mem::take(&mut self.line);
            if held.len() < BOM.len() && BOM.starts_with(&held) {
                self.line = held;
                return events;
            }
            self.at_start = false;
            let rest = held.strip_prefix(BOM).unwrap_or(&held).to_vec();
            return self.feed_lines(&rest, events);
        }
        if self.after_cr {
            self.after_cr = false;
            if let Some(rest) = bytes.strip_prefix(b"\n") {
                bytes = rest;
            }
        }
        self.feed_lines(bytes, events)
    }

    fn feed_lines(&mut self, bytes: &[u8], mut events: Vec<SseEvent>) -> Vec<SseEvent> {
        let mut rest = bytes;
        while let Some(end) = rest.iter().position(|&b| b == b'\n' || b == b'\r') {
            self.line.extend_from_slice(&rest[..end]);
            let line = std::mem::take(&mut self.line);
            events.extend(self.line_ended(&line));
            let cr = rest[end] == b'\r';
            rest = &rest[end + 1..];
            if cr {
                match rest.first() {
                    Some(b'\n') => rest = &rest[1..],
                    Some(_) => {}
                    None => self.after_cr = true,
                }
            }
        }
        self.line.extend_from_slice(rest);
        events
    }

    /// One whole line: a field of the event being read, or the blank line that dispatches it.
    fn line_ended(&mut self, line: &[u8]) -> Option<SseEvent> {
        if line.is_empty() {
            return self.dispatch();
        }
        let line = String::from_utf8_lossy(line);
        if line.starts_with(':') {
            return None; // a comment (servers send them to keep the connection open)
        }
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line.as_ref(), ""),
        };
        match field {
            "event" => self.event = value.to_string(),
            "data" => {
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(value);
                self.has_data = true;
            }
            // `id` and `retry` are for reconnecting, which a model's answer never does; any
            // other field is ignored, as the standard says.
            _ => {}
        }
        None
    }

    fn dispatch(&mut self) -> Option<SseEvent> {
        let event = std::mem::take(&mut self.event);
        let data = std::mem::take(&mut self.data);
        let had_data = std::mem::replace(&mut self.has_data, false);
        had_data.then_some(SseEvent { event, data })
    }
}

/// Every event of a whole stream at once (a stream the ledger kept, read again).
pub fn read_all(body: &[u8]) -> Vec<SseEvent> {
    SseReader::new().feed(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(event: &str, data: &str) -> SseEvent {
        SseEvent {
            event: event.to_string(),
            data: data.to_string(),
        }
    }

    /// The events of `body` fed in two pieces, cut at every byte, and in pieces of one byte:
    /// each way must give what the whole body gives.
    fn read_every_way(body: &[u8]) -> Vec<SseEvent> {
        let whole = read_all(body);
        for cut in 0..=body.len() {
            let mut reader = SseReader::new();
            let mut events = reader.feed(&body[..cut]);
            events.extend(reader.feed(&body[cut..]));
            assert_eq!(
                events,
                whole,
                "cut at byte {cut} of {:?}",
                String::from_utf8_lossy(body)
            );
        }
        let mut reader = SseReader::new();
        let mut events = Vec::new();
        for byte in body {
            events.extend(reader.feed(std::slice::from_ref(byte)));
        }
        assert_eq!(events, whole, "byte by byte");
        whole
    }

    #[test]
    fn the_standards_examples_read_as_it_says() {
        // HTML, "9.2.6 Interpreting an event stream": the examples given there.
        let body = b"data: YHOO\ndata: +2\ndata: 10\n\n";
        assert_eq!(read_every_way(body), vec![event("", "YHOO\n+2\n10")]);
        let body = b": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n";
        assert_eq!(
            read_every_way(body),
            vec![
                event("", "first event"),
                event("", "second event"),
                event("", " third event"),
            ]
        );
        // "data" alone is an empty data line; two of them are one line feed.
        // The last "data:" has no blank line after it: never dispatched.
        let body = b"data\n\ndata\ndata\n\ndata:";
        assert_eq!(read_every_way(body), vec![event("", ""), event("", "\n")]);
        let body = b"data:test\n\ndata: test\n\n";
        assert_eq!(
            read_every_way(body),
            vec![event("", "test"), event("", "test")]
        );
    }

    #[test]
    fn every_line_ending_and_a_byte_order_mark() {
        let body = "\u{FEFF}event: a\r\ndata: 1\r\n\r\nevent: b\rdata: 2\r\revent: c\ndata: 3\n\n";
        assert_eq!(
            read_every_way(body.as_bytes()),
            vec![event("a", "1"), event("b", "2"), event("c", "3")]
        );
        // A mark anywhere else is data.
        let body = "data: \u{FEFF}x\n\n";
        assert_eq!(
            read_every_way(body.as_bytes()),
            vec![event("", "\u{FEFF}x")]
        );
    }

    #[test]
    fn an_event_without_data_is_not_dispatched_and_its_name_does_not_leak() {
        let body = b"event: ping\n\ndata: x\n\n";
        assert_eq!(read_every_way(body), vec![event("", "x")]);
    }

    #[test]
    fn characters_split_across_pieces_are_whole_and_bad_bytes_replaced() {
        let body = "data: 東京都 🚀\n\n".as_bytes();
        assert_eq!(read_every_way(body), vec![event("", "東京都 🚀")]);
        let body = b"data: a\xFFb\n\n";
        assert_eq!(read_every_way(body), vec![event("", "a\u{FFFD}b")]);
    }

    #[test]
    fn an_event_the_stream_ends_in_is_never_dispatched() {
        assert_eq!(read_every_way(b"data: {\"a\":1}"), vec![]);
        assert_eq!(read_every_way(b"data: x\n"), vec![]);
        assert_eq!(read_every_way(b"data: x\r"), vec![]);
        assert_eq!(
            read_every_way(b"data: x\n\ndata: y\n"),
            vec![event("", "x")]
        );
        assert_eq!(read_every_way(b"event: only\n"), vec![]);
        assert_eq!(read_every_way(b""), vec![]);
        assert_eq!(read_every_way(b"\xEF\xBB"), vec![]);
    }
}
