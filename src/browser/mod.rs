//! The browser as the rest of the crate needs it (wasm32 only): the page's address and query
//! string, time, `localStorage` and the private file system (`opfs`), focus, saving a file, the
//! theme, the host page around an
//! iframe, the service worker that keeps the page offline (`offline`), and JavaScript errors as
//! text.
//!
//! A leaf: it uses web-sys, js-sys and gloo, and of this crate only [`crate::clock`], so that
//! `engine::in_memory::worker`, `llm::http` and `ui` can all use it without an import climbing back up.

mod address;
mod by_name;
mod clock;
mod dom;
pub mod file_handles;
mod files;
mod frame;
pub mod idb;
mod js_error;
pub mod language;
pub mod offline;
pub mod opfs;
pub mod storage;

pub use address::{
    last_path_segment, page_address, page_origin, query_parameters, query_string,
    resolve_against_page,
};
pub use clock::{now_iso, now_ms, quiet_moment, time_of_day, BrowserClock};
pub use dom::{focus_element, save_blob, save_file, set_theme};
pub use files::{
    download, get, header, join_blobs, read_body, read_start, stop_body, DownloadError,
};
pub use frame::{follow_host_theme, in_a_frame, report_height};
pub use js_error::describe;
pub use storage::StorageRefused;
