//! Shared by the wasm tests (`web_worker`, `web_guard`): where the built page is served, and
//! the demo database opened in the page's engine. See `web_worker.rs`'s header for the server.
#![allow(dead_code)] // each test binary uses its own part of this module

use askdb::engine::in_memory::worker::WorkerDatabase;
use js_sys::{Array, Uint8Array};
use web_sys::Blob;

/// The file the static server writes its URL into, as the test runner serves it (it serves the
/// crate's folder beside the test page).
const DIST_URL_FILE: &str = "/tests/dist-url.txt";

/// The built page's address, as the static server wrote it (see web_worker.rs's header).
pub async fn dist_url() -> String {
    let response = gloo_net::http::Request::get(DIST_URL_FILE)
        .send()
        .await
        .unwrap_or_else(|e| panic!("{DIST_URL_FILE} could not be read: {e}"));
    assert!(
        response.ok(),
        "{DIST_URL_FILE} answered {}: start the static server first (see web_worker.rs's header)",
        response.status()
    );
    let url = response.text().await.expect("the address as text");
    format!("{}/", url.trim().trim_end_matches('/'))
}

pub async fn demo_bytes() -> Uint8Array {
    let url = format!("{}demo/shop.db", dist_url().await);
    let response = gloo_net::http::Request::get(&url)
        .send()
        .await
        .unwrap_or_else(|e| panic!("{url} is not served (see web_worker.rs's header): {e}"));
    assert!(response.ok(), "{url} answered {}", response.status());
    Uint8Array::from(&response.binary().await.expect("demo bytes")[..])
}

/// `bytes` as a `Blob`, as the page hands a file to its engine.
pub fn blob(bytes: &Uint8Array) -> Blob {
    Blob::new_with_u8_array_sequence(&Array::of1(bytes)).expect("a blob")
}

/// What `blob` holds.
pub async fn bytes_of(blob: &Blob) -> Vec<u8> {
    let buffer = wasm_bindgen_futures::JsFuture::from(blob.array_buffer())
        .await
        .expect("the blob reads");
    Uint8Array::new(&buffer).to_vec()
}

pub async fn open_demo() -> WorkerDatabase {
    let db =
        WorkerDatabase::new(&format!("{}worker.js", dist_url().await)).expect("worker address");
    db.open(&blob(&demo_bytes().await))
        .await
        .expect("the demo opens");
    db
}
