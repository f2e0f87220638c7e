//! Turning what the agent produces into something the page can show safely.
//!
//! Pure logic, compiled for every target so native tests cover it: the page (`ui`) only maps
//! these trees and geometries to DOM nodes, and never sees raw Markdown or raw rows here.
//! - [`markdown`]: an LLM's Markdown answer as a small tree with no HTML, no images and only
//!   web or mail links.
//! - [`chart`]: whether a query result can be drawn as a bar or line chart, and the SVG geometry.
//! - [`demo_endpoint`]: who answers through a demo's endpoint, and when its limit comes back.
//! - [`time`]: how long something took.
//! - [`kept`]: the databases kept in this browser, and what their storage costs.
//! - [`ledger`]: what was sent to the model and what it cost (tokens, cached tokens, bytes).
//! - [`transcript`]: the agent's events as the steps and notes of a question's transcript.
//! - [`candidates`]: a question's candidates: how each was asked, how they agree, why one has
//!   no result.
//! - [`marked`]: data inside a sentence (a name, a value, a server's words), marked as not the
//!   page's to translate.
//! - [`failure`]: why a question got no answer (the agent's reason, a provider's failure), and
//!   what to do.
//! - [`readiness`]: why the model cannot be asked now, and what to do.
//! - [`replay`]: a replayed conversation: a file that cannot be read, another database, a step
//!   that differs, candidates grouped otherwise.
//! - [`remote`]: why a web address cannot be read in parts, what it offers instead, and how
//!   the open database is read.
//! - [`opening`]: why a database could not be opened.
//! - [`value_index`]: what the value index holds, and what was not read.

pub mod candidates;
pub mod chart;
pub mod csv;
pub mod demo_endpoint;
pub mod errors;
pub mod failure;
pub mod hiding;
pub mod kept;
pub mod ledger;
pub mod markdown;
pub mod marked;
pub mod opening;
pub mod readiness;
pub mod remote;
pub mod replay;
pub mod time;
pub mod transcript;
pub mod value_index;
