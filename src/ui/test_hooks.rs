//! Test hooks on `window`, for the end-to-end tests (not part of the visible page). Compiled
//! only with the `test-hooks` feature, which `scripts/build-test-page.sh` turns on for the page
//! the tests run; the page `scripts/serve.sh` serves has none of this.
//!
//! - `askdbExport()`: a `Promise<Uint8Array>` of the open database as the engine writes it out
//!   (sql.js `db.export()`, which uses SQLite's backup API). The pages are the database's own;
//!   SQLite rewrites header bytes 18–19, 24–27, 40–43 and 92–99, so compare those apart (or
//!   compare with an export of the original file).
//! - `askdbPristineBytes()`: a `Promise<Uint8Array>` of the bytes the database was opened from,
//!   as kept by the page (`null` when nothing is open).
//! - `askdbAgentCopyBytes()`: a `Promise<Uint8Array>` of the copy the model's queries run on
//!   when something is hidden from it (`null` when there is none), so that a test can look
//!   for hidden values in it.
//!
//! - `askdbOpenOnDemandFrom(bytes)`: local files of `bytes` and more are read on demand from
//!   then on (instead of `engine::on_demand::ON_DEMAND_FROM_BYTES`), so that a test or the benchmark
//!   can open a small file either way.
//! - `askdbReadWholeBelow(bytes)`: remote files smaller than `bytes` are downloaded whole from
//!   then on (instead of `engine::on_demand::remote::READ_WHOLE_BELOW_BYTES`); `localStorage`'s
//!   `askdb-test-read-whole-below`, when set before the page starts, is taken at once, so that
//!   a `?db=` link to a small test file can be read on demand.
//! - `askdbValueIndex()`: the value index of the open database (`ui::value_index`):
//!   `{state: "none" | "building" | "ready", values, bytes, ms, coverage}` (for the benchmark).
//! - `askdbSelectionTiming(tables)`: selection's time in this page on a generated schema of
//!   `tables` tables (`agent::selection::generated_schema`): `{index_ms, pick_ms}` (the median
//!   of its hundred questions), for the benchmark.
//! - `askdbOpenSteps()`: where the last open's time went, `[{step, ms}]` (for the benchmark).
//! - `askdbLastQuery()`: where the last query's time went, `{total_ms, sql_ms, decode_ms}` (for
//!   the benchmark).
//!
//! Together they let a test prove that nothing typed into the page changed the database.

use super::state::AppState;
use crate::engine::page::PageDatabase;
use js_sys::Reflect;
use leptos::prelude::{GetValue, SetValue, WithUntracked, WithValue};
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

pub fn install(state: AppState) {
    let Some(window) = web_sys::window() else {
        return;
    };
    install_open_hooks(&window, state);
    install_benchmark_hooks(&window, state);
    install_byte_hooks(&window, state);
}

/// Sets `hook` on `window` as `name` (the caller then forgets it: hooks live as long as the
/// page).
fn expose(window: &web_sys::Window, name: &str, hook: &JsValue) {
    let _ = Reflect::set(window, &name.into(), hook);
}

/// `askdbOpenSteps`, `askdbOpenOnDemandFrom` and `askdbReadWholeBelow` (with the value kept
/// in `localStorage`): how opens are read and where their time went.
fn install_open_hooks(window: &web_sys::Window, state: AppState) {
    let open_steps = Closure::<dyn Fn() -> JsValue>::new(move || {
        let steps = state.open_steps.with_value(|s| s.steps().to_vec());
        serde_wasm_bindgen::to_value(&steps).unwrap_or(JsValue::NULL)
    });
    expose(window, "askdbOpenSteps", open_steps.as_ref());
    let on_demand_from = Closure::<dyn Fn(f64)>::new(move |bytes: f64| {
        state.on_demand_from.set_value(bytes.max(0.0) as u64);
    });
    expose(window, "askdbOpenOnDemandFrom", on_demand_from.as_ref());
    on_demand_from.forget();
    let read_whole_below = Closure::<dyn Fn(f64)>::new(move |bytes: f64| {
        state.read_whole_below.set_value(bytes.max(0.0) as u64);
    });
    expose(window, "askdbReadWholeBelow", read_whole_below.as_ref());
    read_whole_below.forget();
    let kept = crate::browser::storage::read("askdb-test-read-whole-below");
    if let Some(bytes) = kept.and_then(|text| text.trim().parse::<u64>().ok()) {
        state.read_whole_below.set_value(bytes);
    }
    open_steps.forget();
}

/// `askdbSelectionTiming`, `askdbValueIndex` and `askdbLastQuery`, which the benchmark reads.
fn install_benchmark_hooks(window: &web_sys::Window, state: AppState) {
    let selection_timing = Closure::<dyn Fn(f64) -> JsValue>::new(selection_timing);
    expose(window, "askdbSelectionTiming", selection_timing.as_ref());
    selection_timing.forget();
    let value_index = Closure::<dyn Fn() -> JsValue>::new(move || value_index_report(state));
    expose(window, "askdbValueIndex", value_index.as_ref());
    value_index.forget();
    let last_query = Closure::<dyn Fn() -> JsValue>::new(move || {
        let timings = crate::engine::in_memory::worker::last_query_timings();
        serde_wasm_bindgen::to_value(&timings).unwrap_or(JsValue::NULL)
    });
    expose(window, "askdbLastQuery", last_query.as_ref());
    last_query.forget();
}

/// `askdbSelectionTiming(tables)`: table selection timed on a generated schema of `tables`
/// tables, `{index_ms, pick_ms}` (the median of its questions).
fn selection_timing(tables: f64) -> JsValue {
    use crate::agent::selection::{generated_schema, rank::TableIndex};
    let (schema, questions) = generated_schema(tables.max(1.0) as usize);
    let started = crate::browser::now_ms();
    let index = TableIndex::new(&schema, &crate::knowledge::Knowledge::default());
    let index_ms = crate::browser::now_ms() - started;
    let mut picks: Vec<f64> = questions
        .iter()
        .map(|question| {
            let started = crate::browser::now_ms();
            let picked = index.pick(question, &[], crate::agent::selection::PICKED_TABLES);
            std::hint::black_box(picked);
            crate::browser::now_ms() - started
        })
        .collect();
    picks.sort_by(f64::total_cmp);
    let report = serde_json::json!({ "index_ms": index_ms, "pick_ms": picks[picks.len() / 2] });
    as_plain_object(&report)
}

/// `askdbValueIndex()`: the open database's value index, `{state, values, bytes, ms, coverage}`.
fn value_index_report(state: AppState) -> JsValue {
    use super::state::ValueIndexState;
    let (kind, values, bytes, ms, coverage) = state.assistant.values.with_untracked(|v| match v {
        ValueIndexState::None => ("none", 0, 0, 0.0, String::new()),
        ValueIndexState::Building => ("building", 0, 0, 0.0, String::new()),
        ValueIndexState::Ready { index, ms } => (
            "ready",
            index.len(),
            index.bytes(),
            *ms,
            crate::present::value_index::coverage(index.coverage()),
        ),
    });
    let report = serde_json::json!({
        "state": kind, "values": values, "bytes": bytes, "ms": ms, "coverage": coverage,
    });
    as_plain_object(&report)
}

/// `askdbExport`, `askdbAgentCopyBytes` and `askdbPristineBytes`: the bytes a test compares.
fn install_byte_hooks(window: &web_sys::Window, state: AppState) {
    let export = Closure::<dyn Fn() -> js_sys::Promise>::new(move || {
        let db = state.database();
        future_to_promise(async move {
            let db = db.ok_or_else(|| js_sys::Error::new("no database is open"))?;
            db.export()
                .await
                .map(JsValue::from)
                .map_err(|e| js_sys::Error::new(&e.to_string()).into())
        })
    });
    let pristine = Closure::<dyn Fn() -> js_sys::Promise>::new(move || bytes_of(state.database()));
    let agent_copy = Closure::<dyn Fn() -> js_sys::Promise>::new(move || {
        bytes_of(
            state
                .assistant
                .model_view_db
                .get_value()
                .map(|db| db.database().clone()),
        )
    });
    expose(window, "askdbExport", export.as_ref());
    expose(window, "askdbAgentCopyBytes", agent_copy.as_ref());
    expose(window, "askdbPristineBytes", pristine.as_ref());
    // The hooks live as long as the page.
    export.forget();
    pristine.forget();
    agent_copy.forget();
}

/// The bytes `db` was opened from, each time a fresh copy: a test cannot change what the page
/// keeps.
fn bytes_of(db: Option<Rc<PageDatabase>>) -> js_sys::Promise {
    future_to_promise(async move {
        let Some(db) = db else {
            return Ok(JsValue::NULL);
        };
        db.source_bytes()
            .await
            .map(JsValue::from)
            .map_err(|e| js_sys::Error::new(&e.to_string()).into())
    })
}

/// `value` as a plain JavaScript object (serde-wasm-bindgen makes maps into `Map`s otherwise).
fn as_plain_object(value: &serde_json::Value) -> JsValue {
    use serde::Serialize;
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .unwrap_or(JsValue::NULL)
}
