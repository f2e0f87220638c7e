//! The page's side of the import worker (wasm32 only): [`ImportJob::start`] starts the worker
//! (loaded only now: a first visit never fetches it), hands it the files, and yields its
//! progress and its end as [`ImportEvent`]s; [`ImportJob::stop`] (or dropping the job)
//! terminates it. The protocol is in `worker`'s docs.

use super::sentence::{Sentence, Value};
use super::table::Progress;
use crate::tr;
use futures::channel::mpsc;
use futures::StreamExt;
use js_sys::{Array, Object, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Blob, ErrorEvent, File, MessageEvent, Worker};

/// Where Trunk puts the worker's loader, beside the page (index.html's worker link).
pub const WORKER_SCRIPT: &str = "askdb-import-worker_loader.js";

/// What the worker made: the database's bytes, ready for `engine::worker` to open like a
/// `.db` file (and for "Download as .db"), and what the import did, in sentences.
pub struct Imported {
    pub database: Blob,
    /// `report::sentences(&report)`, made in the worker, said here in the page's language.
    /// (The report itself stays there: reading it here would put its deserializers in the
    /// page's wasm, which the first visit pays for.)
    pub sentences: Vec<Sentence>,
}

pub enum ImportEvent {
    Progress(Progress),
    Done(Imported),
    /// The import failed: the message says why and what to do (an `ImportError`'s, in the
    /// page's language), or the worker itself failed.
    Failed(String),
}

/// A running import; at most one event stream per job.
pub struct ImportJob {
    worker: Worker,
    events: mpsc::UnboundedReceiver<ImportEvent>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
    finished: bool,
}

impl ImportJob {
    /// Starts importing `files` into one new database. `page_base`: the address of the folder
    /// the page (and so the worker and sql.js) was loaded from, e.g. the page's own URL.
    pub fn start(page_base: &str, files: &[File]) -> Result<ImportJob, String> {
        let url = |file: &str| {
            web_sys::Url::new_with_base(file, page_base)
                .map(|u| u.href())
                .map_err(|_| tr!("open-import-not-an-address", address = page_base))
        };
        let worker = Worker::new(&url(WORKER_SCRIPT)?)
            .map_err(|e| tr!("open-import-worker-not-started", why = format!("{e:?}")))?;
        let (send, events) = mpsc::unbounded();
        let start = Object::new();
        let _ = Reflect::set(&start, &"type".into(), &"start".into());
        let _ = Reflect::set(&start, &"base".into(), &url("./")?.into());
        let list: Array = files.iter().map(JsValue::from).collect();
        let _ = Reflect::set(&start, &"files".into(), &list);
        let to_worker = worker.clone();
        let on_message_send = send.clone();
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            let data = event.data();
            let get = |key: &str| Reflect::get(&data, &key.into()).unwrap_or(JsValue::UNDEFINED);
            let event = if get("ready").is_truthy() {
                if let Err(e) = to_worker.post_message(&start) {
                    ImportEvent::Failed(tr!("open-import-not-handed", why = format!("{e:?}")))
                } else {
                    return;
                }
            } else if let Some(fraction) = get("progress").as_f64() {
                ImportEvent::Progress(Progress {
                    fraction,
                    rows_read: get("rowsRead").as_f64().unwrap_or(0.0) as u64,
                })
            } else if get("done").is_truthy() {
                done(&get("bytes"), &get("sentences"))
            } else if let Some(said) = from_js(&get("said")) {
                ImportEvent::Failed(said.say_marked())
            } else {
                ImportEvent::Failed(
                    get("error")
                        .as_string()
                        .unwrap_or_else(|| tr!("open-import-worker-unknown-answer")),
                )
            };
            let _ = on_message_send.unbounded_send(event);
        });
        let on_error = Closure::<dyn FnMut(ErrorEvent)>::new(move |event: ErrorEvent| {
            let _ = send.unbounded_send(ImportEvent::Failed(tr!(
                "open-import-worker-failed",
                why = event.message()
            )));
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        Ok(ImportJob {
            worker,
            events,
            _on_message: on_message,
            _on_error: on_error,
            finished: false,
        })
    }

    /// The next event; None after `Done` or `Failed`.
    pub async fn next(&mut self) -> Option<ImportEvent> {
        if self.finished {
            return None;
        }
        let event = self.events.next().await?;
        if matches!(event, ImportEvent::Done(_) | ImportEvent::Failed(_)) {
            self.finished = true;
            self.worker.terminate();
        }
        Some(event)
    }

    /// Stops the import at once: the worker and everything it read are gone.
    pub fn stop(self) {
        // Drop terminates.
    }
}

impl Drop for ImportJob {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}

fn done(bytes: &JsValue, sentences: &JsValue) -> ImportEvent {
    let Some(bytes) = bytes.dyn_ref::<Uint8Array>() else {
        return ImportEvent::Failed(tr!("open-import-no-database"));
    };
    let parts = Array::of1(bytes);
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("application/vnd.sqlite3");
    match Blob::new_with_u8_array_sequence_and_options(&parts, &options) {
        Ok(database) => ImportEvent::Done(Imported {
            database,
            sentences: Array::from(sentences)
                .iter()
                .filter_map(|s| from_js(&s))
                .collect(),
        }),
        Err(e) => ImportEvent::Failed(tr!("open-import-not-kept", why = format!("{e:?}"))),
    }
}

/// A sentence as the worker sent it (`worker`'s protocol); `None` when it is not one.
fn from_js(sent: &JsValue) -> Option<Sentence> {
    let get = |from: &JsValue, key: &str| Reflect::get(from, &key.into()).ok();
    let mut sentence = Sentence::new(&get(sent, "id")?.as_string()?);
    for entry in Array::from(&get(sent, "values")?).iter() {
        let entry = Array::from(&entry);
        let name = entry.get(0).as_string()?;
        let value = entry.get(2);
        let value = match entry.get(1).as_string()?.as_str() {
            "n" => Value::Number(value.as_f64()?),
            "k" => Value::Key(value.as_string()?),
            "d" => Value::Data(value.as_string()?),
            "s" => Value::Said(Box::new(from_js(&value)?)),
            _ => return None,
        };
        sentence = sentence.with(&name, value);
    }
    Some(sentence)
}
