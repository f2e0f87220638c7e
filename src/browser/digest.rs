//! SHA-256 by the browser's Web Crypto (`crypto.subtle.digest`): the bytes stay in JavaScript
//! memory (a 300 MB file is never copied into wasm memory), and no hashing code ships.

use super::describe;
use js_sys::{Function, Promise, Reflect, Uint8Array};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// The SHA-256 of `bytes` as 64 lowercase hex digits. Fails where the browser offers no Web
/// Crypto: pages served over plain http from another computer.
pub async fn sha256_hex(bytes: &Uint8Array) -> Result<String, String> {
    let get = |target: &JsValue, key: &str| {
        Reflect::get(target, &JsValue::from_str(key))
            .ok()
            .filter(|v| !v.is_undefined() && !v.is_null())
    };
    let subtle = get(&js_sys::global(), "crypto")
        .and_then(|crypto| get(&crypto, "subtle"))
        .ok_or("this browser offers no Web Crypto here (it needs https or this computer)")?;
    let digest: Function = get(&subtle, "digest")
        .and_then(|f| f.dyn_into().ok())
        .ok_or("this browser offers no crypto.subtle.digest")?;
    let promise: Promise = digest
        .call2(&subtle, &JsValue::from_str("SHA-256"), bytes)
        .map_err(|e| describe(&e))?
        .unchecked_into();
    let buffer = JsFuture::from(promise).await.map_err(|e| describe(&e))?;
    Ok(Uint8Array::new(&buffer)
        .to_vec()
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect())
}
