//! SHA-256 of bytes held in JavaScript memory, by the browser's Web Crypto. Web Crypto rather
//! than a crate: the bytes (up to hundreds of MB) stay in JavaScript memory instead of being
//! copied into the wasm heap, and the browser's native digest is faster than one in wasm.

use super::describe;
use js_sys::{ArrayBuffer, Uint8Array};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Starts the SHA-256 of `bytes` at once; [`finish_sha256`] awaits it. The browser copies the
/// bytes when the digest starts, so they may be handed on (to the worker) while it runs.
pub fn start_sha256(bytes: &Uint8Array) -> Result<JsFuture, String> {
    let subtle = web_sys::window()
        .ok_or("no browser window")?
        .crypto()
        .map_err(|e| describe(&e))?
        .subtle();
    let promise = subtle
        .digest_with_str_and_buffer_source("SHA-256", bytes)
        .map_err(|e| describe(&e))?;
    Ok(JsFuture::from(promise))
}

/// The digest started by [`start_sha256`], as 64 lower-case hex digits.
pub async fn finish_sha256(digest: JsFuture) -> Result<String, String> {
    let buffer: ArrayBuffer = digest
        .await
        .map_err(|e| format!("the browser could not compute SHA-256 ({})", describe(&e)))?
        .dyn_into()
        .map_err(|_| "the browser returned no digest".to_string())?;
    Ok(Uint8Array::new(&buffer)
        .to_vec()
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect())
}
