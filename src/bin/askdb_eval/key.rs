//! Where the runner looks for the API key: the environment only, never an argument (an
//! argument would show in the shell's history and the process list).

use askdb::llm::ProviderKind;

/// Where the key may be, in the order they are read.
pub fn key_variables(provider: ProviderKind) -> [&'static str; 2] {
    let own = match provider {
        ProviderKind::OpenAi => "OPENAI_API_KEY",
        ProviderKind::Anthropic => "ANTHROPIC_API_KEY",
        ProviderKind::Gemini => "GEMINI_API_KEY",
    };
    ["ASKDB_API_KEY", own]
}
