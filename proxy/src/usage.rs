//! The tokens an answer used, from the provider's own usage fields (docs/live-demos.md,
//! "Counting"): from a whole JSON body, or from a stream's server-sent events as they pass,
//! whichever way the bytes are cut.

use askdb::llm::ProviderKind;
use serde_json::Value;

/// A stream's line longer than this is not read for usage (it is still passed on): usage lines
/// are short, and the tap must not hold a reply in memory.
const MAX_LINE_BYTES: usize = 256 * 1024;

/// The usage seen so far. Fields are replaced, not added: each provider's later event carries
/// the running total of the fields it has (Anthropic's `message_delta`, Gemini's every chunk).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
struct Seen {
    input: Option<u64>,
    cache_creation: Option<u64>,
    cache_read: Option<u64>,
    output: Option<u64>,
    total: Option<u64>,
}

impl Seen {
    fn read(&mut self, kind: ProviderKind, event: &Value) {
        let number = |value: &Value, field: &str| value.get(field).and_then(Value::as_u64);
        match kind {
            ProviderKind::OpenAi => {
                if let Some(usage) = event.get("usage").filter(|usage| usage.is_object()) {
                    self.input = number(usage, "prompt_tokens").or(self.input);
                    self.output = number(usage, "completion_tokens").or(self.output);
                }
            }
            ProviderKind::Anthropic => {
                // A whole reply and `message_delta` carry `usage`; `message_start` carries it in
                // its `message`.
                let usage = event.get("usage").or_else(|| {
                    event
                        .get("message")
                        .and_then(|message| message.get("usage"))
                });
                if let Some(usage) = usage.filter(|usage| usage.is_object()) {
                    self.input = number(usage, "input_tokens").or(self.input);
                    self.cache_creation =
                        number(usage, "cache_creation_input_tokens").or(self.cache_creation);
                    self.cache_read = number(usage, "cache_read_input_tokens").or(self.cache_read);
                    self.output = number(usage, "output_tokens").or(self.output);
                }
            }
            ProviderKind::Gemini => {
                if let Some(usage) = event.get("usageMetadata") {
                    self.total = number(usage, "totalTokenCount").or(self.total);
                }
            }
        }
    }

    fn tokens(&self) -> Option<u64> {
        if self.total.is_some() {
            return self.total;
        }
        let parts = [
            self.input,
            self.cache_creation,
            self.cache_read,
            self.output,
        ];
        if parts.iter().all(Option::is_none) {
            return None;
        }
        Some(parts.iter().flatten().sum())
    }
}

/// The tokens a whole (not streamed) reply body reports; `None` when it reports none.
pub fn from_body(kind: ProviderKind, body: &[u8]) -> Option<u64> {
    let reply: Value = serde_json::from_slice(body).ok()?;
    let mut seen = Seen::default();
    seen.read(kind, &reply);
    seen.tokens()
}

/// Reads usage from a stream of server-sent events, fed in whatever pieces the bytes come.
#[derive(Debug)]
pub struct StreamTap {
    kind: ProviderKind,
    line: Vec<u8>,
    line_too_long: bool,
    data: String,
    seen: Seen,
}

impl StreamTap {
    pub fn new(kind: ProviderKind) -> StreamTap {
        StreamTap {
            kind,
            line: Vec::new(),
            line_too_long: false,
            data: String::new(),
            seen: Seen::default(),
        }
    }

    pub fn feed(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            if byte == b'\n' {
                self.end_line();
            } else if self.line.len() < MAX_LINE_BYTES {
                self.line.push(byte);
            } else {
                self.line_too_long = true;
            }
        }
    }

    /// The tokens reported by the events seen, once the stream has ended.
    pub fn finish(mut self) -> Option<u64> {
        if !self.line.is_empty() {
            self.end_line();
        }
        self.dispatch();
        self.seen.tokens()
    }

    fn end_line(&mut self) {
        let mut line = std::mem::take(&mut self.line);
        let too_long = std::mem::replace(&mut self.line_too_long, false);
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        if line.is_empty() {
            self.dispatch();
            return;
        }
        if too_long {
            return;
        }
        if let Some(data) = line.strip_prefix(b"data:") {
            let data = data.strip_prefix(b" ").unwrap_or(data);
            if !self.data.is_empty() {
                self.data.push('\n');
            }
            self.data.push_str(&String::from_utf8_lossy(data));
        }
    }

    /// An event ended (a blank line): read its data.
    fn dispatch(&mut self) {
        let data = std::mem::take(&mut self.data);
        if let Ok(event) = serde_json::from_str::<Value>(&data) {
            self.seen.read(self.kind, &event);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_bodies() {
        let openai = br#"{"choices":[],"usage":{"prompt_tokens":120,"completion_tokens":30,"total_tokens":150}}"#;
        assert_eq!(from_body(ProviderKind::OpenAi, openai), Some(150));
        let anthropic = br#"{"content":[],"usage":{"input_tokens":10,"cache_creation_input_tokens":100,"cache_read_input_tokens":1000,"output_tokens":5}}"#;
        assert_eq!(from_body(ProviderKind::Anthropic, anthropic), Some(1115));
        let gemini = br#"{"candidates":[],"usageMetadata":{"promptTokenCount":7,"candidatesTokenCount":3,"totalTokenCount":12}}"#;
        assert_eq!(from_body(ProviderKind::Gemini, gemini), Some(12));
        assert_eq!(from_body(ProviderKind::OpenAi, br#"{"choices":[]}"#), None);
        assert_eq!(from_body(ProviderKind::OpenAi, b"not json"), None);
    }

    /// Every way of cutting `stream` in two gives the same usage as reading it whole.
    fn at_every_split(kind: ProviderKind, stream: &str) -> Option<u64> {
        let bytes = stream.as_bytes();
        let whole = {
            let mut tap = StreamTap::new(kind);
            tap.feed(bytes);
            tap.finish()
        };
        for split in 0..=bytes.len() {
            let mut tap = StreamTap::new(kind);
            tap.feed(&bytes[..split]);
            tap.feed(&bytes[split..]);
            assert_eq!(tap.finish(), whole, "split at byte {split}");
        }
        let mut bytewise = StreamTap::new(kind);
        for byte in bytes {
            bytewise.feed(std::slice::from_ref(byte));
        }
        assert_eq!(bytewise.finish(), whole, "byte by byte");
        whole
    }

    #[test]
    fn openai_stream_usage_comes_in_its_last_chunk() {
        let stream = "data: {\"choices\":[{\"delta\":{\"content\":\"Hé\"}}],\"usage\":null}\n\n\
                      data: {\"choices\":[],\"usage\":{\"prompt_tokens\":100,\"completion_tokens\":23}}\r\n\r\n\
                      data: [DONE]\n\n";
        assert_eq!(at_every_split(ProviderKind::OpenAi, stream), Some(123));
    }

    #[test]
    fn anthropic_stream_usage_is_its_start_and_its_last_delta() {
        let stream = "event: message_start\n\
                      data: {\"type\":\"message_start\",\"message\":{\"usage\":{\"input_tokens\":50,\"cache_read_input_tokens\":400,\"output_tokens\":1}}}\n\n\
                      event: content_block_delta\n\
                      data: {\"type\":\"content_block_delta\",\"delta\":{\"text\":\"x\"}}\n\n\
                      event: message_delta\n\
                      data: {\"type\":\"message_delta\",\"usage\":{\"output_tokens\":30}}\n\n";
        assert_eq!(at_every_split(ProviderKind::Anthropic, stream), Some(480));
    }

    #[test]
    fn gemini_stream_usage_is_its_last_running_total() {
        let stream = "data: {\"candidates\":[],\"usageMetadata\":{\"totalTokenCount\":60}}\r\n\r\n\
                      data: {\"candidates\":[],\"usageMetadata\":{\"totalTokenCount\":75}}";
        assert_eq!(at_every_split(ProviderKind::Gemini, stream), Some(75));
    }

    #[test]
    fn a_stream_without_usage_reports_none() {
        assert_eq!(
            at_every_split(ProviderKind::OpenAi, "data: {\"choices\":[]}\n\n"),
            None
        );
    }
}
