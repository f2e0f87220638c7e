//! Golden questions asked of a model and judged by their results (see `ARCHITECTURE.md`):
//! `compare` says whether two results are the same answer.

pub mod compare;
