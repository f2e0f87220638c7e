//! Why a question got no answer, as a person reads it, in the page's language: the agent's
//! reason, and a provider's or a demo's endpoint's failure with what to do about it.
//!
//! `AgentError`'s and `LlmError`'s `Display` stay English and unchanged: the saved conversation
//! and the logs keep them. What a server said goes in as it is, untranslated. The clauses start
//! in lower case, as `Display`'s do: the chat makes a sentence of them where one stands alone.

use super::marked::data;
use crate::agent::AgentError;
use crate::llm::{local_server_port, LlmError, ProxyRefusal, OLLAMA_PORT};
use crate::text::format_seconds;
use crate::tr;

/// Why the agent ended without an answer (what `AgentError`'s `Display` says in English).
pub fn agent_error(error: &AgentError) -> String {
    match error {
        AgentError::StepLimit { steps } => tr!("chat-failure-step-limit", steps = *steps),
        AgentError::Deadline { after_ms } => {
            tr!("chat-failure-deadline", time = format_seconds(*after_ms))
        }
        AgentError::Cancelled => tr!("chat-failure-cancelled"),
        AgentError::Llm(error) => tr!("chat-failure-llm", why = llm_error(error)),
        AgentError::EmptyReply => tr!("chat-failure-empty-reply"),
    }
}

/// Why a model could not be called, and what to do (what `LlmError`'s `Display` says in
/// English).
pub fn llm_error(error: &LlmError) -> String {
    match error {
        LlmError::Unauthorized { status, message } => {
            tr!("chat-llm-unauthorized", status = *status) + &server_said(message)
        }
        LlmError::NotFound { message } => tr!("chat-llm-not-found") + &server_said(message),
        LlmError::RateLimited {
            retry_after_ms,
            message,
        } => {
            let said = match retry_after_ms {
                // Digit for digit, as the English has always said it (3600, not 3,600).
                Some(ms) => tr!(
                    "chat-llm-rate-limited-wait",
                    seconds = ms.div_ceil(1000).to_string()
                ),
                None => tr!("chat-llm-rate-limited"),
            };
            said + &server_said(message)
        }
        LlmError::Server { status, message } => {
            tr!("chat-llm-server", status = *status) + &server_said(message)
        }
        LlmError::BadRequest { status, message } => {
            tr!("chat-llm-bad-request", status = *status) + &server_said(message)
        }
        LlmError::Network { message, base_url } => {
            let said = tr!(
                "chat-llm-network",
                address = data(base_url),
                message = data(message),
                cors = data("CORS")
            );
            let hint = match local_server_port(base_url) {
                Some(OLLAMA_PORT) => tr!(
                    "chat-llm-network-ollama",
                    variable = data("OLLAMA_ORIGINS"),
                    command = data("OLLAMA_ORIGINS=* ollama serve")
                ),
                Some(_) => tr!(
                    "chat-llm-network-local",
                    cors = data("CORS"),
                    variable = data("OLLAMA_ORIGINS")
                ),
                None => String::new(),
            };
            said + &hint
        }
        LlmError::Malformed { message } => tr!("chat-llm-malformed", message = data(message)),
        LlmError::Proxy(refusal) => proxy_refusal(refusal),
        LlmError::ThroughDemoEndpoint(error) => through_demo_endpoint(error),
    }
}

/// A demo's endpoint answered for itself: never a key's refusal (the reader gave none).
pub fn proxy_refusal(refusal: &ProxyRefusal) -> String {
    let ProxyRefusal { status, reason, .. } = refusal;
    let said = match reason.as_str() {
        _ if refusal.is_limit() => tr!("chat-proxy-limit", status = *status, reason = data(reason)),
        crate::llm::demo_endpoint::UPSTREAM_UNREACHABLE => {
            tr!(
                "chat-proxy-unreachable",
                status = *status,
                reason = data(reason)
            )
        }
        "upstream_key" => tr!(
            "chat-proxy-upstream-key",
            status = *status,
            reason = data(reason)
        ),
        _ => tr!(
            "chat-proxy-refused",
            status = *status,
            reason = data(reason)
        ),
    };
    if refusal.message.is_empty() {
        said
    } else {
        said + &tr!("chat-proxy-said", message = data(&refusal.message))
    }
}

/// `error`, met while the questions went through a demo's endpoint, as the endpoint's.
fn through_demo_endpoint(error: &LlmError) -> String {
    match error {
        LlmError::Network { message, .. } => {
            tr!("chat-demo-unreachable", message = data(message))
        }
        LlmError::Unauthorized { status, message } | LlmError::BadRequest { status, message } => {
            tr!("chat-demo-refused", status = *status) + &server_said(message)
        }
        LlmError::NotFound { message } => tr!("chat-demo-not-found") + &server_said(message),
        LlmError::RateLimited { message, .. } => tr!("chat-demo-busy") + &server_said(message),
        LlmError::Server { status, message } => {
            tr!("chat-demo-failing", status = *status) + &server_said(message)
        }
        LlmError::Malformed { message } => tr!("chat-demo-malformed", message = data(message)),
        LlmError::Proxy(_) | LlmError::ThroughDemoEndpoint(_) => llm_error(error),
    }
}

/// The provider's own words, when it gave any: a sentence of its own after the clause.
fn server_said(message: &str) -> String {
    let message = message.trim();
    if message.is_empty() {
        String::new()
    } else {
        tr!("chat-llm-server-said", message = data(message))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::present::marked::plain;

    fn refusal(status: u16, reason: &str, message: &str) -> ProxyRefusal {
        ProxyRefusal {
            status,
            reason: reason.into(),
            message: message.into(),
            resets_at: None,
            retry_after_s: None,
        }
    }

    fn every_llm_error() -> Vec<LlmError> {
        let mut errors = vec![
            LlmError::Unauthorized {
                status: 401,
                message: "Invalid key".into(),
            },
            LlmError::Unauthorized {
                status: 403,
                message: "  ".into(),
            },
            LlmError::NotFound {
                message: "no such model".into(),
            },
            LlmError::RateLimited {
                retry_after_ms: Some(2_500),
                message: "slow down".into(),
            },
            LlmError::RateLimited {
                retry_after_ms: None,
                message: String::new(),
            },
            LlmError::Server {
                status: 503,
                message: "overloaded".into(),
            },
            LlmError::BadRequest {
                status: 400,
                message: "max_tokens too large".into(),
            },
            LlmError::Network {
                message: "Failed to fetch".into(),
                base_url: "https://api.example.com/v1".into(),
            },
            LlmError::Network {
                message: "Failed to fetch".into(),
                base_url: "http://localhost:11434/v1".into(),
            },
            LlmError::Network {
                message: "Failed to fetch".into(),
                base_url: "http://127.0.0.1:1234/v1".into(),
            },
            LlmError::Malformed {
                message: "no choices".into(),
            },
            LlmError::Proxy(refusal(429, "reader_per_day", "come back tomorrow")),
            LlmError::Proxy(refusal(502, "upstream_unreachable", "")),
            LlmError::Proxy(refusal(502, "upstream_key", "key revoked")),
            LlmError::Proxy(refusal(403, "system_prompt", "")),
        ];
        let through: Vec<LlmError> = errors
            .iter()
            .cloned()
            .map(LlmError::through_demo_endpoint)
            .collect();
        errors.extend(through);
        errors
    }

    /// In English, a person reads what `Display` says, byte for byte (the page's tests and
    /// its readers know these sentences). Mutation: a word changed in one English message
    /// (`chat-llm-network`'s "offline" to "off line") fails it.
    #[test]
    fn in_english_the_person_reads_what_display_says() {
        for error in every_llm_error() {
            assert_eq!(plain(&llm_error(&error)), error.to_string(), "{error:?}");
            let agent = AgentError::Llm(error);
            assert_eq!(plain(&agent_error(&agent)), agent.to_string());
        }
        for error in [
            AgentError::StepLimit { steps: 12 },
            AgentError::Deadline { after_ms: 90_000 },
            AgentError::Deadline { after_ms: 1_500 },
            AgentError::Cancelled,
            AgentError::EmptyReply,
        ] {
            assert_eq!(plain(&agent_error(&error)), error.to_string());
        }
    }
}
