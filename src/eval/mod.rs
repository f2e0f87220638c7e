//! Golden questions asked of a model and judged by their results (see `ARCHITECTURE.md`).
