//! The agent: given a question, an LLM and a read-only database, an answer with the SQL that
//! proves it. Knows nothing of the browser: the database is a [`crate::engine::Database`], the
//! model an [`crate::llm::LlmProvider`], time a [`crate::clock::Clock`].
