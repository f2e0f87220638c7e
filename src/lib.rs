//! askdb: ask a SQLite database questions in plain language, in the browser.
//!
//! The modules follow the direction data flows (see `ARCHITECTURE.md`):
//! - [`sql`]: pure rules about SQL text (what may run, tidying, what a query compares).
//! - [`engine`]: the database as the app sees it, behind the [`engine::Database`] trait.
//! - [`llm`]: LLM providers and their wire formats; they know messages and tools, not the loop.
//! - [`search`]: text folded, cut into words and grams, and ranked by BM25, for the agent's
//!   selection and the knowledge that fits a question alike.
//! - [`knowledge`]: what the data means (notes, glossary, examples, golden questions), from
//!   the schema, the file, a sidecar or the person.
//! - [`compare`]: whether two query results are the same answer (the judge of golden questions
//!   and of candidates' agreement).
//! - [`model_view`]: what the model sees of an open database (hidden parts and knowledge tables
//!   left out) and how that is enforced, for the page and `askdb-eval` alike.
//! - [`agent`]: the question-answering loop and its tools; knows nothing of the browser.
//! - [`eval`]: golden questions asked of a model, judged by comparing results.
//! - [`identify`]: what a file is (a database, a conversation, notes, a data file), from its
//!   name and first bytes.
//! - `opened` (native only): a database file or server opened as the page opens it, for the
//!   native tools (`askdb-eval`, `pin`).
//! - `pin` (native only): the first request the page would send about a database, whose
//!   system prompt and tools a demo's endpoint (`askdb-proxy`) pins.
//! - [`conversation`]: conversations saved as files, read back with limits, replayed.
//! - [`present`]: answers and results made safe and drawable (Markdown tree, chart geometry).
//! - [`settings`]: the model a person chose (from the address, saved), keys bound to endpoints.
//! - [`count`]: counts as a person reads them ("1,234 rows"), for the judge, the present
//!   layer and the page.
//! - [`text`]: cutting text to size and grouping numbers, shared by everything.
//! - `browser` (wasm32 only): the browser's address, time, storage and errors, for the
//!   engine's worker, HTTP and the page.
//! - `ui` (wasm32 only, with the `page` feature: only the page's wasm has it): the Leptos page.

pub mod agent;
#[cfg(target_arch = "wasm32")]
pub mod browser;
pub mod clock;
pub mod compare;
pub mod conversation;
pub mod count;
pub mod engine;
pub mod eval;
pub mod i18n;
pub mod identify;
pub mod import;
pub mod kept;
pub mod knowledge;
pub mod llm;
pub mod model_view;
#[cfg(not(target_arch = "wasm32"))]
pub mod opened;
#[cfg(not(target_arch = "wasm32"))]
pub mod pin;
pub mod present;
pub mod search;
pub mod settings;
pub mod sql;
pub mod text;

#[cfg(all(target_arch = "wasm32", feature = "page"))]
pub mod ui;
