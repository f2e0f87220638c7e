//! One IndexedDB object store of records, each a plain object with an `id` (its key) and a
//! field the store is indexed by, for the conversations kept in this browser (`ui::chat::kept`).
//! It lives in the browser's storage for this origin only.
//!
//! Written by hand over `js_sys::Reflect` rather than a crate: the few calls needed (open with
//! its upgrade, put, get, get all by index, delete, clear) are short, and each request's
//! `onsuccess` and `onerror` are a promise's own resolve and reject, so no closure is kept
//! alive but the upgrade's.

use super::by_name::{call_now, error_name};
use super::describe;
use js_sys::{Array, Object, Promise, Reflect};
use wasm_bindgen::prelude::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// A store could not be opened or used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IdbError {
    /// This browser keeps nothing here (a private window that refuses, storage turned off).
    NotAvailable,
    /// The browser's quota for this site is used up.
    Full,
    /// Anything else the browser said.
    Failed(String),
}

impl std::fmt::Display for IdbError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IdbError::NotAvailable => f.write_str(
                "this browser keeps nothing for this page (a private window, or storage turned \
                 off)",
            ),
            IdbError::Full => f.write_str("this browser's storage for this page is full"),
            IdbError::Failed(why) => write!(f, "the browser could not keep it ({why})"),
        }
    }
}

/// An open store: `store` in the database `database`, indexed by `index`.
pub struct Store {
    db: JsValue,
    store: &'static str,
    index: &'static str,
}

impl Store {
    /// Opens (making it the first time) the store.
    pub async fn open(
        database: &str,
        store: &'static str,
        index: &'static str,
    ) -> Result<Store, IdbError> {
        let window = JsValue::from(web_sys::window().ok_or(IdbError::NotAvailable)?);
        let factory = Reflect::get(&window, &"indexedDB".into())
            .ok()
            .filter(|f| !f.is_undefined() && !f.is_null())
            .ok_or(IdbError::NotAvailable)?;
        let request = call_now(&factory, "open", &[database.into(), 1.into()])
            .map_err(|_| IdbError::NotAvailable)?;
        // Version 1 is made here: the store, keyed by `id`, and its index.
        let upgrade = Closure::once_into_js(move |event: JsValue| {
            let made = (|| -> Result<(), JsValue> {
                let target = Reflect::get(&event, &"target".into())?;
                let db = Reflect::get(&target, &"result".into())?;
                let options = Object::new();
                Reflect::set(&options, &"keyPath".into(), &"id".into())?;
                let store = call_now(&db, "createObjectStore", &[store.into(), options.into()])?;
                call_now(&store, "createIndex", &[index.into(), index.into()])?;
                Ok(())
            })();
            if let Err(error) = made {
                web_sys::console::warn_1(&error);
            }
        });
        Reflect::set(&request, &"onupgradeneeded".into(), &upgrade)
            .map_err(|e| IdbError::Failed(describe(&e)))?;
        let db = done(&request).await.map_err(|error| match error {
            IdbError::Failed(_) => IdbError::NotAvailable,
            other => other,
        })?;
        Ok(Store { db, store, index })
    }

    /// Writes `record` (replacing the one with its `id`).
    pub async fn put(&self, record: &JsValue) -> Result<(), IdbError> {
        let request = self.request("readwrite", "put", std::slice::from_ref(record))?;
        done(&request).await.map(|_| ())
    }

    /// The record whose `id` is `id`, if any.
    pub async fn get(&self, id: &str) -> Result<Option<JsValue>, IdbError> {
        let request = self.request("readonly", "get", &[id.into()])?;
        let found = done(&request).await?;
        Ok((!found.is_undefined()).then_some(found))
    }

    /// Every record whose indexed field is `value`.
    pub async fn all_with(&self, value: &str) -> Result<Vec<JsValue>, IdbError> {
        let store = self.object_store("readonly")?;
        let index = call_now(&store, "index", &[self.index.into()]).map_err(failed)?;
        let request = call_now(&index, "getAll", &[value.into()]).map_err(failed)?;
        let found = done(&request).await?;
        Ok(found
            .dyn_into::<Array>()
            .map(|a| a.iter().collect())
            .unwrap_or_default())
    }

    /// Every record.
    pub async fn all(&self) -> Result<Vec<JsValue>, IdbError> {
        let request = self.request("readonly", "getAll", &[])?;
        let found = done(&request).await?;
        Ok(found
            .dyn_into::<Array>()
            .map(|a| a.iter().collect())
            .unwrap_or_default())
    }

    /// Removes the record whose `id` is `id` (one already gone is no error).
    pub async fn delete(&self, id: &str) -> Result<(), IdbError> {
        let request = self.request("readwrite", "delete", &[id.into()])?;
        done(&request).await.map(|_| ())
    }

    /// Removes every record.
    pub async fn clear(&self) -> Result<(), IdbError> {
        let request = self.request("readwrite", "clear", &[])?;
        done(&request).await.map(|_| ())
    }

    fn object_store(&self, mode: &str) -> Result<JsValue, IdbError> {
        let transaction =
            call_now(&self.db, "transaction", &[self.store.into(), mode.into()]).map_err(failed)?;
        call_now(&transaction, "objectStore", &[self.store.into()]).map_err(failed)
    }

    fn request(&self, mode: &str, method: &str, args: &[JsValue]) -> Result<JsValue, IdbError> {
        let store = self.object_store(mode)?;
        call_now(&store, method, args).map_err(failed)
    }
}

impl Drop for Store {
    fn drop(&mut self) {
        // Closed when let go, so that a later version (another tab's page) is not blocked.
        let _ = call_now(&self.db, "close", &[]);
    }
}

/// Waits for `request` to succeed (its result) or fail (its error, as ours).
async fn done(request: &JsValue) -> Result<JsValue, IdbError> {
    let promise = Promise::new(&mut |resolve, reject| {
        let _ = Reflect::set(request, &"onsuccess".into(), &resolve);
        let _ = Reflect::set(request, &"onerror".into(), &reject);
    });
    match JsFuture::from(promise).await {
        Ok(_) => Reflect::get(request, &"result".into()).map_err(failed),
        Err(_) => {
            let error = Reflect::get(request, &"error".into()).unwrap_or(JsValue::NULL);
            Err(match error_name(&error).as_str() {
                "QuotaExceededError" => IdbError::Full,
                "SecurityError" | "InvalidStateError" => IdbError::NotAvailable,
                _ => IdbError::Failed(describe(&error)),
            })
        }
    }
}

fn failed(error: JsValue) -> IdbError {
    IdbError::Failed(describe(&error))
}
