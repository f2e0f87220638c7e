//! Finding text by its words, for the agent's selection of tables and values and for the
//! knowledge that fits a question alike: text folded for matching (`fold`: case, width,
//! accents, padding), cut into tokens and grams (`tokens`: Latin words, CJK runs), one BM25
//! (`bm25`: its scoring, and an index of short texts), and the value index (`values`: the
//! short text values of a database's columns, found in a question). Pure: it knows nothing of
//! the browser, the engine or the agent; the agent reads a database's values into the index.

pub mod bm25;
pub mod fold;
pub mod tokens;
pub mod values;
