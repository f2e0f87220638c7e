//! Cleaning up SQL written by an LLM before the rules see it.

/// Removes what models wrap SQL in: code fences (```` ```sql … ``` ````), wrapping quotes or
/// backticks, surrounding whitespace, trailing `;`. Never changes the statement itself.
pub fn tidy(sql: &str) -> String {
    todo!()
}
