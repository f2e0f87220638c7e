//! The part of a request that is the same at every step of every question on a database: the
//! system prompt and the tool list, as each wire format carries them (`tests/prompt_prefix.rs`
//! holds askdb to that). A demo's endpoint (`askdb-proxy`) pins these two parts and forwards
//! only requests that carry them unchanged (`docs/live-demos.md`, "What is pinned").

use super::ProviderKind;
use serde_json::Value;

/// The system prompt and the tool list of `body`, a request body in the format of `kind`:
///
/// - OpenAI: `messages[0]`, the whole message, only when its role is `system`; and `tools`;
/// - Anthropic: `system` and `tools`;
/// - Gemini: `systemInstruction` and `tools`.
///
/// `None` when the body has no system part (askdb always sends one, so such a body is not
/// askdb's). A body without tools gives [`Value::Null`] for them rather than `None`: whether a
/// request may go without tools is the pin's to say, and a pin taken from askdb has tools, so
/// a null never matches it.
pub fn parts(kind: ProviderKind, body: &Value) -> Option<(Value, Value)> {
    let system = match kind {
        ProviderKind::OpenAi => body
            .get("messages")?
            .get(0)
            .filter(|first| first.get("role") == Some(&Value::from("system")))?,
        ProviderKind::Anthropic => body.get("system")?,
        ProviderKind::Gemini => body.get("systemInstruction")?,
        #[cfg(test)]
        ProviderKind::Fake => body.get("system").filter(|system| *system != "")?,
    };
    let tools = body.get("tools").cloned().unwrap_or(Value::Null);
    Some((system.clone(), tools))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::wire::build_request;
    use crate::llm::{ChatRequest, EndpointConfig, Message, ToolSpec};
    use serde_json::json;

    const SYSTEM: &str = "You answer questions about the shop.";

    fn question(system: &str, tools: Vec<ToolSpec>) -> ChatRequest {
        ChatRequest {
            model: "pinned".into(),
            system: system.into(),
            messages: vec![Message::User {
                text: "How many orders?".into(),
            }],
            tools,
            temperature: 0.0,
            max_tokens: 100,
        }
    }

    fn run_sql() -> Vec<ToolSpec> {
        vec![ToolSpec {
            name: "run_sql".into(),
            description: "Runs one SELECT.".into(),
            parameters: json!({"type": "object", "properties": {"sql": {"type": "string"}}}),
        }]
    }

    /// The body `kind`'s own `build_request` makes of `request`.
    fn body(kind: ProviderKind, request: &ChatRequest) -> Value {
        let http = build_request(&EndpointConfig::new(kind, "", ""), request);
        serde_json::from_str(&http.body).expect("a JSON body")
    }

    #[test]
    fn each_format_gives_its_system_part_and_tools() {
        let request = question(SYSTEM, run_sql());
        for &kind in ProviderKind::ALL {
            let (system, tools) = parts(kind, &body(kind, &request)).expect("a system part");
            assert!(system.to_string().contains(SYSTEM), "{kind:?}: {system}");
            assert!(tools.to_string().contains("run_sql"), "{kind:?}: {tools}");
        }
    }

    #[test]
    fn the_parts_are_where_the_format_puts_them() {
        let request = question(SYSTEM, run_sql());
        let openai = body(ProviderKind::OpenAi, &request);
        assert_eq!(
            parts(ProviderKind::OpenAi, &openai),
            Some((openai["messages"][0].clone(), openai["tools"].clone()))
        );
        assert_eq!(openai["messages"][0]["role"], "system");
        let anthropic = body(ProviderKind::Anthropic, &request);
        assert_eq!(
            parts(ProviderKind::Anthropic, &anthropic),
            Some((anthropic["system"].clone(), anthropic["tools"].clone()))
        );
        let gemini = body(ProviderKind::Gemini, &request);
        assert_eq!(
            parts(ProviderKind::Gemini, &gemini),
            Some((gemini["systemInstruction"].clone(), gemini["tools"].clone()))
        );
    }

    #[test]
    fn a_body_without_a_system_prompt_has_no_parts() {
        // OpenAI's first message is then the question: it must not pass for a system prompt.
        let request = question("", run_sql());
        for &kind in ProviderKind::ALL {
            assert_eq!(parts(kind, &body(kind, &request)), None, "{kind:?}");
        }
        assert_eq!(parts(ProviderKind::OpenAi, &json!({"messages": []})), None);
        assert_eq!(parts(ProviderKind::Anthropic, &json!("not a body")), None);
    }

    #[test]
    fn a_body_without_tools_has_null_tools() {
        let request = question(SYSTEM, Vec::new());
        for &kind in ProviderKind::ALL {
            let (_, tools) = parts(kind, &body(kind, &request)).expect("a system part");
            // The fake format always lists its tools, if only as an empty list.
            if kind != ProviderKind::Fake {
                assert_eq!(tools, Value::Null, "{kind:?}");
            }
        }
    }

    #[test]
    fn another_system_prompt_or_tool_list_gives_other_parts() {
        let pinned = question(SYSTEM, run_sql());
        let mut other_prompt = pinned.clone();
        other_prompt.system.push_str(" Ignore the data.");
        let mut other_tools = pinned.clone();
        other_tools.tools[0]
            .description
            .push_str(" Or any statement.");
        // Not the fake format: it lists its tools by name only.
        for kind in [
            ProviderKind::OpenAi,
            ProviderKind::Anthropic,
            ProviderKind::Gemini,
        ] {
            let pin = parts(kind, &body(kind, &pinned));
            assert_ne!(parts(kind, &body(kind, &other_prompt)), pin, "{kind:?}");
            assert_ne!(parts(kind, &body(kind, &other_tools)), pin, "{kind:?}");
        }
    }
}
