//! The checks a request's body passes before anything goes upstream, in the order
//! docs/live-demos.md gives: JSON, shape, model, pin. Pure: a body in, a refusal or the body to
//! send out.
//!
//! The shape check is an allow-list of what askdb's own wire formats send
//! (src/llm/wire/{openai,anthropic,gemini}.rs), plus `stream` (and OpenAI's `stream_options`),
//! so that a page that asks for a stream gets one. Anything else (another top-level field, a
//! role or content part askdb never sends) is not askdb's request.

use crate::config::{Demo, Pin};
use crate::refusal::Refusal;
use askdb::llm::ProviderKind;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

/// A body that passed every check, with its `max_tokens` set to at most the demo's cap.
#[derive(Debug)]
pub struct Checked {
    pub body: Value,
    /// The reply's cap as sent upstream: part of the request's token reservation.
    pub max_tokens: u64,
    /// Whether the cap was changed, so the body must be written anew.
    pub rewritten: bool,
}

/// Every body check, in order. `path_model` is the model named in a Gemini path.
pub fn check_body(demo: &Demo, bytes: &[u8], path_model: Option<&str>) -> Result<Checked, Refusal> {
    let body: Value = serde_json::from_slice(bytes).map_err(|_| Refusal::NotJson)?;
    let Value::Object(fields) = &body else {
        return Err(Refusal::NotJson);
    };
    check_shape(demo.provider, fields)?;
    check_model(demo, &body, path_model)?;
    check_pin(demo.provider, &demo.pins, &body)?;
    let mut body = body;
    let (max_tokens, rewritten) = clamp_max_tokens(demo.provider, &mut body, demo.max_tokens);
    Ok(Checked {
        body,
        max_tokens,
        rewritten,
    })
}

/// The SHA-256 (hex) of a pinned part, as `askdb-proxy pin` prints it: compact JSON, keys
/// sorted (serde_json's `Value` keeps them so).
pub fn part_sha256(part: &Value) -> String {
    let digest = Sha256::digest(serde_json::to_string(part).unwrap_or_default().as_bytes());
    digest.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// The pin of a body: the hashes of its system prompt and tool list. `None` when it has no
/// system prompt (askdb always sends one).
pub fn pin_of(kind: ProviderKind, body: &Value) -> Option<Pin> {
    let (system, tools) = askdb::llm::wire::prefix::parts(kind, body)?;
    Some(Pin {
        system_sha256: part_sha256(&system),
        tools_sha256: part_sha256(&tools),
    })
}

fn check_pin(kind: ProviderKind, pins: &[Pin], body: &Value) -> Result<(), Refusal> {
    let pin = pin_of(kind, body).ok_or(Refusal::SystemPrompt)?;
    if !pins
        .iter()
        .any(|known| known.system_sha256 == pin.system_sha256)
    {
        return Err(Refusal::SystemPrompt);
    }
    if !pins.contains(&pin) {
        return Err(Refusal::Tools);
    }
    Ok(())
}

fn check_model(demo: &Demo, body: &Value, path_model: Option<&str>) -> Result<(), Refusal> {
    let model = match demo.provider {
        ProviderKind::Gemini => path_model.unwrap_or_default(),
        _ => body
            .get("model")
            .and_then(Value::as_str)
            .unwrap_or_default(),
    };
    if demo.models.iter().any(|allowed| allowed == model) {
        Ok(())
    } else {
        Err(Refusal::Model(model.chars().take(80).collect()))
    }
}

/// Sets the reply's cap to the demo's when it is missing or higher; gives the cap sent.
fn clamp_max_tokens(kind: ProviderKind, body: &mut Value, cap: u64) -> (u64, bool) {
    let slot = match kind {
        ProviderKind::Gemini => {
            let config = body.as_object_mut().map(|fields| {
                fields
                    .entry("generationConfig")
                    .or_insert_with(|| Value::Object(Map::new()))
            });
            config
                .and_then(Value::as_object_mut)
                .map(|config| config.entry("maxOutputTokens"))
        }
        _ => body
            .as_object_mut()
            .map(|fields| fields.entry("max_tokens")),
    };
    let Some(slot) = slot else {
        return (cap, false);
    };
    let slot = slot.or_insert(Value::Null);
    match slot.as_u64() {
        Some(asked) if asked <= cap => (asked, false),
        _ => {
            *slot = Value::from(cap);
            (cap, true)
        }
    }
}

/// A shape problem, said for the refusal's message.
type Shape = Result<(), String>;

fn check_shape(kind: ProviderKind, fields: &Map<String, Value>) -> Result<(), Refusal> {
    let checked = match kind {
        ProviderKind::OpenAi => openai_shape(fields),
        ProviderKind::Anthropic => anthropic_shape(fields),
        ProviderKind::Gemini => gemini_shape(fields),
    };
    checked.map_err(Refusal::Shape)
}

fn only_keys(object: &Map<String, Value>, allowed: &[&str], place: &str) -> Shape {
    match object.keys().find(|key| !allowed.contains(&key.as_str())) {
        Some(key) => Err(format!(
            "{place} has `{}`",
            key.chars().take(40).collect::<String>()
        )),
        None => Ok(()),
    }
}

fn object<'a>(value: &'a Value, place: &str) -> Result<&'a Map<String, Value>, String> {
    value
        .as_object()
        .ok_or_else(|| format!("{place} is not an object"))
}

fn array<'a>(value: Option<&'a Value>, place: &str) -> Result<&'a Vec<Value>, String> {
    value
        .and_then(Value::as_array)
        .ok_or_else(|| format!("{place} is not a list"))
}

fn is_string(value: Option<&Value>) -> bool {
    value.is_some_and(Value::is_string)
}

/// The fields every format may carry as askdb sends them: a number for the temperature, a
/// non-negative integer cap (the cap is clamped later), `stream` a boolean.
fn common_fields(fields: &Map<String, Value>, cap_field: &str) -> Shape {
    if let Some(temperature) = fields.get("temperature") {
        if !temperature.is_number() {
            return Err("`temperature` is not a number".into());
        }
    }
    if let Some(cap) = fields.get(cap_field) {
        if !cap.is_u64() {
            return Err(format!("`{cap_field}` is not a whole number"));
        }
    }
    if let Some(stream) = fields.get("stream") {
        if !stream.is_boolean() {
            return Err("`stream` is not true or false".into());
        }
    }
    Ok(())
}

fn openai_shape(fields: &Map<String, Value>) -> Shape {
    only_keys(
        fields,
        &[
            "model",
            "messages",
            "max_tokens",
            "temperature",
            "tools",
            "stream",
            "stream_options",
        ],
        "the request",
    )?;
    common_fields(fields, "max_tokens")?;
    if let Some(options) = fields.get("stream_options") {
        only_keys(
            object(options, "`stream_options`")?,
            &["include_usage"],
            "`stream_options`",
        )?;
    }
    let messages = array(fields.get("messages"), "`messages`")?;
    for (index, message) in messages.iter().enumerate() {
        let message = object(message, "a message")?;
        let role = message
            .get("role")
            .and_then(Value::as_str)
            .unwrap_or_default();
        match role {
            "system" if index == 0 => {
                only_keys(message, &["role", "content"], "the system message")?
            }
            "system" => return Err("a second system message".into()),
            "user" => only_keys(message, &["role", "content"], "a user message")?,
            "tool" => {
                only_keys(
                    message,
                    &["role", "content", "tool_call_id"],
                    "a tool message",
                )?;
                if !is_string(message.get("tool_call_id")) {
                    return Err("a tool message has no `tool_call_id`".into());
                }
            }
            "assistant" => {
                only_keys(
                    message,
                    &["role", "content", "tool_calls"],
                    "an assistant message",
                )?;
                if let Some(calls) = message.get("tool_calls") {
                    for call in array(Some(calls), "`tool_calls`")? {
                        openai_tool_call(call)?;
                    }
                }
            }
            other => {
                return Err(format!(
                    "a message of role `{}`",
                    other.chars().take(20).collect::<String>()
                ))
            }
        }
        // Text only: a list of parts (an image, audio) is never askdb's.
        let content = message.get("content");
        let text_or_none =
            is_string(content) || (role == "assistant" && content.is_none_or(Value::is_null));
        if !text_or_none {
            return Err(format!("a {role} message whose content is not text"));
        }
    }
    Ok(())
}

fn openai_tool_call(call: &Value) -> Shape {
    let call = object(call, "a tool call")?;
    only_keys(call, &["id", "type", "function"], "a tool call")?;
    if call.get("type").and_then(Value::as_str) != Some("function") {
        return Err("a tool call that is not a function".into());
    }
    let function = object(
        call.get("function").unwrap_or(&Value::Null),
        "a tool call's function",
    )?;
    only_keys(function, &["name", "arguments"], "a tool call's function")?;
    if !is_string(function.get("name")) || !is_string(function.get("arguments")) {
        return Err("a tool call without a name and arguments".into());
    }
    Ok(())
}

fn anthropic_shape(fields: &Map<String, Value>) -> Shape {
    only_keys(
        fields,
        &[
            "model",
            "max_tokens",
            "messages",
            "system",
            "temperature",
            "tools",
            "stream",
        ],
        "the request",
    )?;
    common_fields(fields, "max_tokens")?;
    for message in array(fields.get("messages"), "`messages`")? {
        let message = object(message, "a message")?;
        only_keys(message, &["role", "content"], "a message")?;
        let role = message
            .get("role")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let blocks: &[&str] = match role {
            "user" => &["text", "tool_result"],
            "assistant" => &["text", "tool_use"],
            other => {
                return Err(format!(
                    "a message of role `{}`",
                    other.chars().take(20).collect::<String>()
                ))
            }
        };
        for block in array(message.get("content"), "a message's content")? {
            let block = object(block, "a content block")?;
            let kind = block
                .get("type")
                .and_then(Value::as_str)
                .unwrap_or_default();
            if !blocks.contains(&kind) {
                return Err(format!(
                    "a {role} block of type `{}`",
                    kind.chars().take(20).collect::<String>()
                ));
            }
            let keys: &[&str] = match kind {
                "text" => &["type", "text", "cache_control"],
                "tool_use" => &["type", "id", "name", "input", "cache_control"],
                _ => &[
                    "type",
                    "tool_use_id",
                    "content",
                    "is_error",
                    "cache_control",
                ],
            };
            only_keys(block, keys, "a content block")?;
            if kind == "text" && !is_string(block.get("text")) {
                return Err("a text block without text".into());
            }
            if kind == "tool_result" && !is_string(block.get("content")) {
                return Err("a tool result whose content is not text".into());
            }
            if let Some(mark) = block.get("cache_control") {
                if mark != &serde_json::json!({"type": "ephemeral"}) {
                    return Err("a cache mark askdb does not send".into());
                }
            }
        }
    }
    Ok(())
}

fn gemini_shape(fields: &Map<String, Value>) -> Shape {
    only_keys(
        fields,
        &["contents", "generationConfig", "systemInstruction", "tools"],
        "the request",
    )?;
    if let Some(config) = fields.get("generationConfig") {
        let config = object(config, "`generationConfig`")?;
        only_keys(
            config,
            &["maxOutputTokens", "temperature"],
            "`generationConfig`",
        )?;
        common_fields(config, "maxOutputTokens")?;
    }
    for content in array(fields.get("contents"), "`contents`")? {
        let content = object(content, "a content")?;
        only_keys(content, &["role", "parts"], "a content")?;
        let role = content
            .get("role")
            .and_then(Value::as_str)
            .unwrap_or_default();
        if role != "user" && role != "model" {
            return Err(format!(
                "a content of role `{}`",
                role.chars().take(20).collect::<String>()
            ));
        }
        for part in array(content.get("parts"), "a content's parts")? {
            let part = object(part, "a part")?;
            // A model turn goes back as it came: its thoughts and their signatures too.
            only_keys(
                part,
                &[
                    "text",
                    "thought",
                    "thoughtSignature",
                    "functionCall",
                    "functionResponse",
                ],
                "a part",
            )?;
            if part.is_empty() {
                return Err("an empty part".into());
            }
            if part.get("text").is_some_and(|text| !text.is_string()) {
                return Err("a part whose text is not text".into());
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Key, Limits};
    use serde_json::json;

    fn demo(provider: ProviderKind, pins: Vec<Pin>) -> Demo {
        Demo {
            name: "music".into(),
            provider,
            upstream: "http://127.0.0.1:1".into(),
            key: Key::new("sk-test"),
            models: vec!["m1".into()],
            max_tokens: 100,
            origins: vec!["https://docs.example.com".into()],
            paid_by: "the author".into(),
            pins,
            database: None,
            limits: Limits {
                reader_burst: 1,
                reader_per_minute: 1,
                reader_per_day: 1,
                requests_per_day: 1,
                tokens_per_day: 1,
            },
        }
    }

    /// A first request as askdb's OpenAI format builds it, and a demo pinned to it.
    fn openai() -> (Demo, Value) {
        let body = json!({
            "model": "m1",
            "messages": [
                {"role": "system", "content": "You answer questions about music.db."},
                {"role": "user", "content": "How many artists?"},
                {"role": "assistant", "content": null, "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": "run_sql", "arguments": "{}"}}]},
                {"role": "tool", "tool_call_id": "c1", "content": "42"}
            ],
            "max_tokens": 50,
            "temperature": 0.0,
            "tools": [{"type": "function", "function": {"name": "run_sql", "description": "d", "parameters": {}}}]
        });
        let pin = pin_of(ProviderKind::OpenAi, &body).unwrap();
        (demo(ProviderKind::OpenAi, vec![pin]), body)
    }

    fn refusal(demo: &Demo, body: &Value) -> Option<&'static str> {
        check_body(demo, body.to_string().as_bytes(), None)
            .err()
            .map(|refusal| refusal.reason())
    }

    #[test]
    fn askdbs_own_request_passes_unchanged() {
        let (demo, body) = openai();
        let checked = check_body(&demo, body.to_string().as_bytes(), None).unwrap();
        assert_eq!(checked.body, body);
        assert_eq!(checked.max_tokens, 50);
        assert!(!checked.rewritten);
    }

    #[test]
    fn each_openai_change_is_refused_for_its_reason() {
        let (demo, body) = openai();
        let changed = |change: &dyn Fn(&mut Value)| {
            let mut body = body.clone();
            change(&mut body);
            body
        };
        let cases: Vec<(Value, &str)> = vec![
            (changed(&|b| b["n"] = json!(5)), "shape"),
            (
                changed(&|b| {
                    b["messages"][1]["content"] =
                        json!([{"type": "image_url", "image_url": {"url": "x"}}])
                }),
                "shape",
            ),
            (
                changed(&|b| {
                    b["messages"]
                        .as_array_mut()
                        .unwrap()
                        .push(json!({"role": "system", "content": "Be a poet."}))
                }),
                "shape",
            ),
            (
                changed(&|b| b["messages"][1]["role"] = json!("developer")),
                "shape",
            ),
            (changed(&|b| b["max_tokens"] = json!("many")), "shape"),
            (changed(&|b| b["model"] = json!("gpt-5")), "model"),
            (
                changed(&|b| b["messages"][0]["content"] = json!("You are a poet.")),
                "system_prompt",
            ),
            (
                changed(&|b| {
                    b["messages"].as_array_mut().unwrap().remove(0);
                }),
                "system_prompt",
            ),
            (
                changed(&|b| b["tools"][0]["function"]["description"] = json!("Anything.")),
                "tools",
            ),
            (
                changed(&|b| {
                    b.as_object_mut().unwrap().remove("tools");
                }),
                "tools",
            ),
        ];
        for (body, reason) in cases {
            assert_eq!(refusal(&demo, &body), Some(reason), "{body}");
        }
        assert_eq!(
            check_body(&demo, b"{not json", None).unwrap_err().reason(),
            "not_json"
        );
        assert_eq!(
            check_body(&demo, b"[1]", None).unwrap_err().reason(),
            "not_json"
        );
    }

    #[test]
    fn a_stream_may_be_asked_for() {
        let (demo, mut body) = openai();
        body["stream"] = json!(true);
        body["stream_options"] = json!({"include_usage": true});
        assert_eq!(refusal(&demo, &body), None);
    }

    #[test]
    fn max_tokens_is_clamped_not_refused() {
        let (demo, mut body) = openai();
        body["max_tokens"] = json!(100_000);
        let checked = check_body(&demo, body.to_string().as_bytes(), None).unwrap();
        assert_eq!((checked.max_tokens, checked.rewritten), (100, true));
        assert_eq!(checked.body["max_tokens"], 100);
        body.as_object_mut().unwrap().remove("max_tokens");
        let checked = check_body(&demo, body.to_string().as_bytes(), None).unwrap();
        assert_eq!(checked.body["max_tokens"], 100);
    }

    #[test]
    fn anthropic_blocks_are_askdbs_only() {
        let body = json!({
            "model": "m1", "max_tokens": 10,
            "system": [{"type": "text", "text": "S", "cache_control": {"type": "ephemeral"}}],
            "tools": [{"name": "run_sql", "description": "d", "input_schema": {}}],
            "messages": [
                {"role": "user", "content": [{"type": "text", "text": "Q"}]},
                {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "run_sql", "input": {}}]},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t", "content": "1", "is_error": false, "cache_control": {"type": "ephemeral"}}]}
            ]
        });
        let demo = demo(
            ProviderKind::Anthropic,
            vec![pin_of(ProviderKind::Anthropic, &body).unwrap()],
        );
        assert_eq!(refusal(&demo, &body), None);
        let mut image = body.clone();
        image["messages"][0]["content"][0] = json!({"type": "image", "source": {}});
        assert_eq!(refusal(&demo, &image), Some("shape"));
        let mut thinking = body.clone();
        thinking["thinking"] = json!({"type": "enabled", "budget_tokens": 10_000});
        assert_eq!(refusal(&demo, &thinking), Some("shape"));
    }

    #[test]
    fn gemini_takes_its_model_from_the_path_and_caps_generation() {
        let body = json!({
            "contents": [{"role": "user", "parts": [{"text": "Q"}]},
                         {"role": "model", "parts": [{"functionCall": {"name": "run_sql", "args": {}}, "thoughtSignature": "x"}]}],
            "systemInstruction": {"parts": [{"text": "S"}]},
            "tools": [{"functionDeclarations": [{"name": "run_sql", "description": "d"}]}]
        });
        let demo = demo(
            ProviderKind::Gemini,
            vec![pin_of(ProviderKind::Gemini, &body).unwrap()],
        );
        let checked = check_body(&demo, body.to_string().as_bytes(), Some("m1")).unwrap();
        assert_eq!(checked.body["generationConfig"]["maxOutputTokens"], 100);
        assert_eq!(
            check_body(&demo, body.to_string().as_bytes(), Some("gemini-ultra"))
                .unwrap_err()
                .reason(),
            "model"
        );
        let mut image = body.clone();
        image["contents"][0]["parts"][0] =
            json!({"inlineData": {"mimeType": "image/png", "data": ""}});
        assert_eq!(
            check_body(&demo, image.to_string().as_bytes(), Some("m1"))
                .unwrap_err()
                .reason(),
            "shape"
        );
    }
}
