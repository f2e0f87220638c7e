//! The origin's private file system (OPFS), where the databases a person chose to keep are
//! copied (`crate::kept`). It lives in the browser's storage for this origin only: nothing of
//! it is sent anywhere. Its calls are made by name through `js_sys::Reflect`: web-sys has these
//! handles only behind its unstable-API flag, which would be a build setting for one module.

use super::by_name::{call, error_name};
use super::describe;
use js_sys::{Object, Reflect};
use std::fmt;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Blob, File};

/// The folder askdb keeps its copies in, inside the origin's private file system.
const FOLDER: &str = "askdb-kept";

/// Why a copy could not be kept or read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoreError {
    /// This browser keeps nothing here: a private window, storage turned off, or no private
    /// file system at all.
    NotAvailable,
    /// The browser's quota for this site is used up.
    Full,
    /// No copy by that name (forgotten, or storage cleared by the browser).
    Missing,
    /// Anything else the browser said.
    Failed(String),
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::NotAvailable => f.write_str(
                "this browser keeps no files for this page (a private window, or storage turned \
                 off): nothing was kept",
            ),
            StoreError::Full => f.write_str(
                "this browser's storage for this page is full: forget a kept database, or open \
                 the file again from your disk",
            ),
            StoreError::Missing => f.write_str(
                "the kept copy is gone (the browser may have cleared this site's storage): open \
                 the file again from your disk",
            ),
            StoreError::Failed(message) => write!(f, "the browser could not keep it ({message})"),
        }
    }
}

impl std::error::Error for StoreError {}

/// The folder of kept copies, made when missing.
pub struct Kept {
    folder: JsValue,
}

impl Kept {
    pub async fn open() -> Result<Kept, StoreError> {
        let navigator = navigator().ok_or(StoreError::NotAvailable)?;
        let storage = Reflect::get(&navigator, &"storage".into())
            .ok()
            .filter(|s| !s.is_undefined())
            .ok_or(StoreError::NotAvailable)?;
        if !has_method(&storage, "getDirectory") {
            return Err(StoreError::NotAvailable);
        }
        // Private windows refuse here (SecurityError): nothing is kept, and that is said.
        let root = call(&storage, "getDirectory", &[])
            .await
            .map_err(|_| StoreError::NotAvailable)?;
        let folder = call(&root, "getDirectoryHandle", &[FOLDER.into(), create()])
            .await
            .map_err(|e| read_error(&e))?;
        Ok(Kept { folder })
    }

    /// Writes `blob` as the copy `name`, replacing one by that name; a copy half-written when
    /// the browser refused is removed.
    pub async fn keep(&self, name: &str, blob: &Blob) -> Result<(), StoreError> {
        let handle = call(&self.folder, "getFileHandle", &[name.into(), create()])
            .await
            .map_err(|e| read_error(&e))?;
        let written = async {
            let writable = call(&handle, "createWritable", &[]).await?;
            call(&writable, "write", &[blob.into()]).await?;
            call(&writable, "close", &[]).await
        };
        if let Err(error) = written.await {
            let _ = self.remove(name).await;
            return Err(read_error(&error));
        }
        Ok(())
    }

    /// The copy `name` as a file, to open like one the person chose.
    pub async fn file(&self, name: &str) -> Result<File, StoreError> {
        let handle = call(&self.folder, "getFileHandle", &[name.into()])
            .await
            .map_err(|e| read_error(&e))?;
        let file = call(&handle, "getFile", &[])
            .await
            .map_err(|e| read_error(&e))?;
        file.dyn_into::<File>()
            .map_err(|_| StoreError::Failed("not a file".into()))
    }

    /// Removes the copy `name`; one already gone is no error.
    pub async fn remove(&self, name: &str) -> Result<(), StoreError> {
        match call(&self.folder, "removeEntry", &[name.into()]).await {
            Ok(_) => Ok(()),
            Err(error) => match read_error(&error) {
                StoreError::Missing => Ok(()),
                other => Err(other),
            },
        }
    }

    /// The names of every copy kept.
    pub async fn names(&self) -> Result<Vec<String>, StoreError> {
        let keys = call(&self.folder, "keys", &[]).await;
        let iterator = keys.map_err(|e| read_error(&e))?;
        let mut names = Vec::new();
        loop {
            let next = call(&iterator, "next", &[])
                .await
                .map_err(|e| read_error(&e))?;
            let done = Reflect::get(&next, &"done".into()).unwrap_or(JsValue::TRUE);
            if done.is_truthy() {
                return Ok(names);
            }
            if let Some(name) = Reflect::get(&next, &"value".into())
                .ok()
                .and_then(|v| v.as_string())
            {
                names.push(name);
            }
        }
    }
}

/// What this site stores and may store, in bytes (`navigator.storage.estimate()`); `None`
/// where the browser does not say.
pub async fn usage_and_quota() -> Option<(u64, u64)> {
    let navigator = navigator()?;
    let storage = Reflect::get(&navigator, &"storage".into()).ok()?;
    if !has_method(&storage, "estimate") {
        return None;
    }
    let estimate = call(&storage, "estimate", &[]).await.ok()?;
    let number = |key: &str| Reflect::get(&estimate, &key.into()).ok()?.as_f64();
    Some((number("usage")? as u64, number("quota")? as u64))
}

/// `navigator`, read by name (web-sys's `Navigator` is a feature this one use does not need).
fn navigator() -> Option<JsValue> {
    let window = JsValue::from(web_sys::window()?);
    Reflect::get(&window, &"navigator".into()).ok()
}

/// `{create: true}`.
fn create() -> JsValue {
    let options = Object::new();
    let _ = Reflect::set(&options, &"create".into(), &JsValue::TRUE);
    options.into()
}

fn has_method(target: &JsValue, name: &str) -> bool {
    Reflect::get(target, &name.into()).is_ok_and(|f| f.is_function())
}

/// The browser's error as one of ours, by its `name` (a `DOMException`).
fn read_error(error: &JsValue) -> StoreError {
    match error_name(error).as_str() {
        "QuotaExceededError" => StoreError::Full,
        "NotFoundError" => StoreError::Missing,
        "SecurityError" | "NotAllowedError" => StoreError::NotAvailable,
        _ => StoreError::Failed(describe(error)),
    }
}
