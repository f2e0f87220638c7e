//! The page's `localStorage`, which a browser may refuse (private mode, storage turned off).

use std::fmt;

/// The browser did not let the page save.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StorageRefused;

impl fmt::Display for StorageRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "This browser did not allow saving (private mode or storage turned off): the \
             settings last until the tab closes.",
        )
    }
}

impl std::error::Error for StorageRefused {}

/// The text kept under `key`, if any (and if the browser lets the page read it).
pub fn read(key: &str) -> Option<String> {
    storage()?.get_item(key).ok()?
}

pub fn write(key: &str, value: &str) -> Result<(), StorageRefused> {
    storage()
        .and_then(|s| s.set_item(key, value).ok())
        .ok_or(StorageRefused)
}

pub fn remove(key: &str) -> Result<(), StorageRefused> {
    storage()
        .and_then(|s| s.remove_item(key).ok())
        .ok_or(StorageRefused)
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// A new name for something kept in this browser (a conversation, a file's handle):
/// `prefix`, the time and a random number, so that two tabs do not make the same one.
pub fn new_id(prefix: &str) -> String {
    let random = (js_sys::Math::random() * 1e12) as u64;
    format!("{prefix}-{}-{random}", js_sys::Date::now() as u64)
}
