//! Browser calls made by name through `js_sys::Reflect`, for the storage APIs web-sys has only
//! behind its unstable-API flag (the private file system, file handles) or that answer through
//! requests rather than promises (IndexedDB): `opfs`, `file_handles`, `idb`.

use js_sys::{Array, Function, Promise, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// Calls `target.name(args…)` and returns what it returns.
pub fn call_now(target: &JsValue, name: &str, args: &[JsValue]) -> Result<JsValue, JsValue> {
    let method: Function = Reflect::get(target, &name.into())?.dyn_into()?;
    let array: Array = args.iter().collect();
    method.apply(target, &array)
}

/// Calls `target.name(args…)` and waits for the promise it returns (or takes its value).
pub async fn call(target: &JsValue, name: &str, args: &[JsValue]) -> Result<JsValue, JsValue> {
    let returned = call_now(target, name, args)?;
    match returned.dyn_into::<Promise>() {
        Ok(promise) => JsFuture::from(promise).await,
        Err(value) => Ok(value),
    }
}

/// The `name` of a browser's error (a `DOMException`: "NotFoundError", "QuotaExceededError"…).
pub fn error_name(error: &JsValue) -> String {
    Reflect::get(error, &"name".into())
        .ok()
        .and_then(|n| n.as_string())
        .unwrap_or_default()
}
