//! Where the runner looks for the API key: the environment only, never an argument (an
//! argument would show in the shell's history and the process list).

use askdb::llm::ProviderKind;

/// Where the key may be, in the order they are read: askdb's own variable, then the one the
/// provider declares (`OPENAI_API_KEY`, …).
pub fn key_variables(provider: ProviderKind) -> [&'static str; 2] {
    ["ASKDB_API_KEY", provider.descriptor().key_variable]
}
