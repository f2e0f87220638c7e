//! The browser's handles to files on this computer (the File System Access API, Chromium's):
//! a file chosen through `showOpenFilePicker` comes with a handle, which IndexedDB can keep,
//! so that a file too large to copy can be opened again on a later visit, once the browser has
//! asked the person. Where the API is missing, the page's file input is used as before and
//! nothing is kept. Calls by name through `js_sys::Reflect`, as `opfs` does, for the same reason.

use super::by_name::{call, error_name};
use super::describe;
use super::idb::{IdbError, Store};
use js_sys::{Array, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::File;

/// Where the handles are kept: an IndexedDB database of their own, keyed by `id`.
const IDB_NAME: &str = "askdb-handles";
const STORE: &str = "handles";

/// A file the person chose, with the browser's handle to it.
pub struct Picked {
    pub file: File,
    pub handle: JsValue,
}

/// Whether this browser can give handles to the files a person chooses.
pub fn can_pick() -> bool {
    web_sys::window()
        .and_then(|w| Reflect::get(&w, &"showOpenFilePicker".into()).ok())
        .is_some_and(|f| f.is_function())
}

/// Asks the person for files (several at once allowed); an empty list when they cancel.
pub async fn pick() -> Result<Vec<Picked>, String> {
    let window = JsValue::from(web_sys::window().ok_or("no window")?);
    let options = Object::new();
    let _ = Reflect::set(&options, &"multiple".into(), &JsValue::TRUE);
    let handles = match call(&window, "showOpenFilePicker", &[options.into()]).await {
        Ok(handles) => handles,
        // The person closed the picker.
        Err(error) if error_name(&error) == "AbortError" => return Ok(Vec::new()),
        Err(error) => return Err(describe(&error)),
    };
    let mut picked = Vec::new();
    for handle in handles.dyn_into::<Array>().map_err(|_| "no files")?.iter() {
        let file = file_of(&handle).await?;
        picked.push(Picked { file, handle });
    }
    Ok(picked)
}

/// The file a handle names, as it is now.
pub async fn file_of(handle: &JsValue) -> Result<File, String> {
    call(handle, "getFile", &[])
        .await
        .map_err(|e| describe(&e))?
        .dyn_into::<File>()
        .map_err(|_| "not a file".to_string())
}

/// Whether the page may read the file `handle` names: asked of the browser, which asks the
/// person when it has not been granted in this visit (a click must have led here).
pub async fn may_read(handle: &JsValue) -> bool {
    let options = Object::new();
    let _ = Reflect::set(&options, &"mode".into(), &"read".into());
    for method in ["queryPermission", "requestPermission"] {
        let asked = call(handle, method, &[options.clone().into()]).await;
        if asked.is_ok_and(|state| state.as_string().as_deref() == Some("granted")) {
            return true;
        }
    }
    false
}

/// Whether two handles name the same file.
pub async fn same_file(a: &JsValue, b: &JsValue) -> bool {
    call(a, "isSameEntry", std::slice::from_ref(b))
        .await
        .is_ok_and(|same| same.is_truthy())
}

async fn store() -> Result<Store, IdbError> {
    Store::open(IDB_NAME, STORE, "id").await
}

/// Keeps `handle` as `id`.
pub async fn keep(id: &str, handle: &JsValue) -> Result<(), IdbError> {
    let record = Object::new();
    let _ = Reflect::set(&record, &"id".into(), &id.into());
    let _ = Reflect::set(&record, &"handle".into(), handle);
    store().await?.put(&record.into()).await
}

/// The handle kept as `id`, if any.
pub async fn kept(id: &str) -> Result<Option<JsValue>, IdbError> {
    let record = store().await?.get(id).await?;
    Ok(record.and_then(|r| Reflect::get(&r, &"handle".into()).ok()))
}

/// Every handle kept, with its id.
pub async fn every_kept() -> Result<Vec<(String, JsValue)>, IdbError> {
    let records = store().await?.all().await?;
    Ok(records
        .iter()
        .filter_map(|r| {
            let id = Reflect::get(r, &"id".into()).ok()?.as_string()?;
            Some((id, Reflect::get(r, &"handle".into()).ok()?))
        })
        .collect())
}

/// Forgets the handle `id`.
pub async fn forget(id: &str) -> Result<(), IdbError> {
    store().await?.delete(id).await
}

/// Forgets every handle.
pub async fn forget_all() -> Result<(), IdbError> {
    store().await?.clear().await
}
