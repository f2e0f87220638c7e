//! The browser as the rest of the crate needs it (wasm32 only): the page's address and query
//! string, time, `localStorage`, SHA-256 digests, focus, saving a file, and JavaScript errors as
//! text.
//!
//! A leaf: it uses web-sys, js-sys and gloo, and of this crate only [`crate::clock`], so that
//! `engine::worker`, `llm::http` and `ui` can all use it without an import climbing back up.

mod address;
mod clock;
mod digest;
mod dom;
mod js_error;
pub mod storage;

pub use address::{page_address, page_origin, query_parameters};
pub use clock::{now_ms, BrowserClock};
pub use digest::sha256_hex;
pub use dom::{focus_element, save_file};
pub use js_error::describe;
pub use storage::StorageRefused;
