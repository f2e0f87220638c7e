//! askdb's event-stream reader (`llm::sse`) judged by the browser's own: generated streams
//! (every line ending, comments, fields of every kind, a byte-order mark, characters of any
//! width, bytes that are not UTF-8, a last event cut short) go to Chromium's `EventSource`
//! from `tests/e2e/range-server.mjs` (`/sse?b=…`), and the events it dispatches must be the
//! events askdb's reader reads from the same bytes, in any pieces.
//!
//! Needs the range server as `scripts/test.sh` starts it (its URL in `tests/range-url.txt`):
//!
//! ```text
//! node tests/e2e/range-server.mjs tests/datasets tests/range-url.txt &
//! CHROMEDRIVER=/usr/bin/chromedriver cargo test --target wasm32-unknown-unknown --test web_sse
//! ```
#![cfg(target_arch = "wasm32")]

use askdb::llm::sse::{SseEvent, SseReader};
use futures::channel::oneshot;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// The event names the generated streams use; the browser dispatches a named event only to a
/// listener for that name.
const NAMES: &[&str] = &["message", "a", "message_start", "δ"];

async fn range_url() -> String {
    let response = gloo_net::http::Request::get("/tests/range-url.txt")
        .send()
        .await
        .expect("the range server's address (tests/range-url.txt: see this file's header)");
    response
        .text()
        .await
        .unwrap()
        .trim()
        .trim_end_matches('/')
        .to_string()
}

/// A small generator with a seed: the same streams on every run.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[(self.next() % items.len() as u64) as usize]
    }
}

/// One generated stream's bytes.
fn stream(random: &mut Random) -> Vec<u8> {
    let mut bytes = Vec::new();
    if random.next().is_multiple_of(4) {
        // A byte-order mark, then a line that is not blank: Chromium's parser (unlike the
        // standard, and askdb) takes a line break right after the mark into the next line
        // ("\u{FEFF}\rdata: x" is one line there, its field "\rdata"), found by this test.
        // No provider sends a mark; askdb keeps the standard's reading.
        bytes.extend_from_slice("\u{FEFF}data: after the mark\n".as_bytes());
    }
    let lines = 1 + random.next() % 14;
    for _ in 0..lines {
        let line: &[u8] = random.pick::<&[u8]>(&[
            b"data: x".as_slice(),
            b"data:y",
            b"data",
            b"data:  two spaces",
            "data: 東京都 🚀".as_bytes(),
            b"data: {\"a\": [1, 2]}",
            b"data: bad \xFF byte",
            b"event: a",
            b"event:message_start",
            "event: δ".as_bytes(),
            b"event",
            b": a comment",
            b":",
            b"id: 7",
            b"retry: 10",
            b"other: field",
            b"data:\xEF\xBB\xBFmark",
            b"",
            b"",
        ]);
        bytes.extend_from_slice(line);
        let end: &[u8] = random.pick::<&[u8]>(&[b"\n".as_slice(), b"\r\n", b"\r"]);
        bytes.extend_from_slice(end);
    }
    // Sometimes the last event is never ended by a blank line, or its last line is cut.
    match random.next() % 3 {
        0 => bytes.extend_from_slice(b"\n"),
        1 => bytes.extend_from_slice(b"data: cut"),
        _ => {}
    }
    bytes
}

/// The events Chromium's `EventSource` dispatches for `bytes`, as (name, data).
async fn browser_events(server: &str, bytes: &[u8]) -> Vec<(String, String)> {
    let binary: String = bytes.iter().map(|&b| char::from(b)).collect();
    let encoded = web_sys::window().unwrap().btoa(&binary).unwrap();
    let encoded = String::from(js_sys::encode_uri_component(&encoded));
    let url = format!("{server}/sse?b={encoded}");
    let source = web_sys::EventSource::new(&url).unwrap();
    let seen: Rc<RefCell<Vec<(String, String)>>> = Rc::default();
    let mut listeners = Vec::new();
    for name in NAMES {
        let seen = seen.clone();
        let listener = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(
            move |event: web_sys::MessageEvent| {
                let data = event.data().as_string().unwrap_or_default();
                seen.borrow_mut().push((event.type_(), data));
            },
        );
        source
            .add_event_listener_with_callback(name, listener.as_ref().unchecked_ref())
            .unwrap();
        listeners.push(listener);
    }
    // The stream's end shows as an error (the browser would reconnect): it is closed there.
    let (ended, end) = oneshot::channel::<()>();
    let ended = RefCell::new(Some(ended));
    let on_error = Closure::<dyn FnMut()>::new(move || {
        if let Some(ended) = ended.borrow_mut().take() {
            let _ = ended.send(());
        }
    });
    source.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    end.await.unwrap();
    source.close();
    drop((listeners, on_error));
    let events = seen.borrow().clone();
    events
}

/// askdb's events, with the name the browser gives an event that named none.
fn askdb_events(events: Vec<SseEvent>) -> Vec<(String, String)> {
    events
        .into_iter()
        .map(|event| {
            let name = if event.event.is_empty() {
                "message".to_string()
            } else {
                event.event
            };
            (name, event.data)
        })
        .collect()
}

#[wasm_bindgen_test]
async fn the_reader_reads_what_the_browsers_event_source_reads() {
    let server = range_url().await;
    let mut random = Random(0x5EED_CAFE);
    let mut compared = 0;
    let mut events_seen = 0;
    let mut names = std::collections::BTreeSet::new();
    for _ in 0..150 {
        let bytes = stream(&mut random);
        let browser = browser_events(&server, &bytes).await;
        // Whole, and in pieces cut at a place the generator chose.
        let whole = askdb_events(SseReader::new().feed(&bytes));
        let cut = (random.next() % (bytes.len() as u64 + 1)) as usize;
        let mut reader = SseReader::new();
        let mut pieces = reader.feed(&bytes[..cut]);
        pieces.extend(reader.feed(&bytes[cut..]));
        assert_eq!(
            whole,
            browser,
            "the browser read {:?} otherwise",
            String::from_utf8_lossy(&bytes)
        );
        assert_eq!(askdb_events(pieces), browser, "cut at {cut}");
        compared += 1;
        events_seen += browser.len();
        names.extend(browser.into_iter().map(|(name, _)| name));
    }
    // Positive control: the browser did dispatch events (107 of them), of every name.
    assert_eq!(compared, 150);
    assert!(events_seen > 50, "{events_seen} events");
    assert_eq!(names.len(), NAMES.len(), "{names:?}");
}
