//! JavaScript errors (and whatever else a promise rejects with) as text for people.

use js_sys::{Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};

/// A JavaScript error or value as text: an `Error`'s message, a string as it is, something
/// with a `message` property its message, anything else its `toString()`.
pub fn describe(value: &JsValue) -> String {
    if let Some(error) = value.dyn_ref::<js_sys::Error>() {
        return String::from(error.message());
    }
    if let Some(text) = value.as_string() {
        return text;
    }
    if value.is_null() || value.is_undefined() {
        // A rejection that carries nothing (the worker decodes a database NULL before this).
        return "unknown error".into();
    }
    // Something that looks like an error without being one: its message.
    if let Some(message) = Reflect::get(value, &"message".into())
        .ok()
        .and_then(|m| m.as_string())
    {
        return message;
    }
    // `toString()` of whatever it is (a BigInt too large for i64, an object).
    String::from(value.unchecked_ref::<Object>().to_string())
}
