//! Tool calls a model wrote in its text instead of as tool calls. Many models served locally
//! (Ollama, llama.cpp's server, LM Studio, vLLM behind the OpenAI-compatible endpoint), or their
//! chat templates, answer with the call spelled out:
//!
//! - `<tool_call>{"name": …, "arguments": {…}}</tool_call>`, one block per call (Hermes, Qwen);
//! - `[TOOL_CALLS][{"name": …, "arguments": {…}}, …]` (Mistral), or `[TOOL_CALLS]name[ARGS]{…}`;
//! - `<function=name>{…}</function>` (Llama 3.1's custom tool format);
//! - a bare `{"name": …, "parameters": {…}}` (Llama 3.x's JSON tool calling), perhaps after
//!   `<|python_tag|>` or in a code fence.
//!
//! [`read`] finds them, pure and in one pass, so that the agent can run them like any call. A
//! tag says "this is a call" wherever it stands; a bare object only when it is the whole reply
//! and names one of the tools offered (prose that shows some JSON is prose). JSON is repaired
//! only where the repair cannot change its meaning ([`almost_json`]); a call that still cannot
//! be read is an [`Unreadable`] that says what was wrong and how to write it, and none of the
//! reply's calls is taken then.

pub mod almost_json;

pub use almost_json::Repair;

use serde::Serialize;
use serde_json::Value;
use std::fmt;

/// More calls than this in one text are not read (the agent runs fewer still).
const MAX_CALLS: usize = 20;
/// An unreadable call is quoted up to this many characters.
const QUOTED_CHARS: usize = 200;

/// How a call was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Form {
    /// `<tool_call>…</tool_call>` (Hermes, Qwen).
    ToolCallTag,
    /// `[TOOL_CALLS]…` (Mistral).
    ToolCallsToken,
    /// `<function=name>…</function>` (Llama 3.1).
    FunctionTag,
    /// A JSON object or array alone (Llama 3.x).
    BareJson,
}

impl Form {
    /// How a person or the model recognises it.
    pub fn describe(&self) -> &'static str {
        match self {
            Form::ToolCallTag => "<tool_call> tags",
            Form::ToolCallsToken => "[TOOL_CALLS]",
            Form::FunctionTag => "<function=…> tags",
            Form::BareJson => "a JSON object",
        }
    }
}

/// One call read from the text.
#[derive(Clone, Debug, PartialEq)]
pub struct TextCall {
    pub name: String,
    /// A JSON object, as text (re-serialized from what the model wrote).
    pub arguments: String,
    pub form: Form,
    /// What had to be repaired before it parsed (empty: it was JSON as written).
    pub repairs: Vec<Repair>,
}

/// A call the text clearly attempts but that cannot be read without guessing.
#[derive(Clone, Debug, PartialEq)]
pub struct Unreadable {
    pub form: Form,
    /// What is wrong, in a few words ("its JSON does not parse: …").
    pub problem: String,
    /// The part of the text it is about, cut to a readable length.
    pub quote: String,
}

impl fmt::Display for Unreadable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "your reply has a tool call written as text ({}) that askdb could not read: {}. It \
             was: {}",
            self.form.describe(),
            self.problem,
            self.quote
        )
    }
}

/// What the text holds.
#[derive(Clone, Debug, PartialEq)]
pub enum Reading {
    /// No call: the text is prose (an answer, a thought, a question).
    Prose,
    /// Calls, in order, and the prose around them (`None` when there is none).
    Calls {
        calls: Vec<TextCall>,
        rest: Option<String>,
    },
    /// A call that cannot be read; nothing of the reply is taken.
    Unreadable(Unreadable),
}

/// How to write a call as text, for the model that got one wrong.
pub const HOW_TO_WRITE: &str = "Call the tools through the tool interface. If you write a call \
as text, write each one as a single JSON object inside <tool_call></tool_call> tags, with double \
quotes around every key and string, no comma before a closing bracket, and the arguments as an \
object, for example: <tool_call>{\"name\": \"list_tables\", \"arguments\": {}}</tool_call>";

/// The calls written in `text`, for a model offered the tools named `tools`.
pub fn read(text: &str, tools: &[&str]) -> Reading {
    let mut found = Found::default();
    let result = find_all(text, tools, &mut found);
    if let Err(unreadable) = result {
        return Reading::Unreadable(unreadable);
    }
    if found.calls.is_empty() {
        return Reading::Prose;
    }
    found.calls.truncate(MAX_CALLS);
    Reading::Calls {
        rest: found.rest(text),
        calls: found.calls,
    }
}

fn find_all(text: &str, tools: &[&str], found: &mut Found) -> Result<(), Unreadable> {
    tool_call_tags(text, found)?;
    function_tags(text, found)?;
    // Tags say where the calls are; the other forms are looked for only in a text without them.
    if found.spans.is_empty() {
        mistral(text, found)?;
    }
    if found.spans.is_empty() {
        bare(text, tools, found)?;
    }
    Ok(())
}

/// Calls found so far, and the byte ranges of the text they took.
#[derive(Default)]
struct Found {
    calls: Vec<TextCall>,
    spans: Vec<(usize, usize)>,
}

impl Found {
    /// The text outside the calls' spans, trimmed; `None` when nothing is left.
    fn rest(&self, text: &str) -> Option<String> {
        let mut spans = self.spans.clone();
        spans.sort_unstable();
        let mut rest = String::new();
        let mut at = 0;
        for (start, end) in spans {
            if start >= at {
                rest.push_str(&text[at..start]);
                rest.push('\n');
            }
            at = at.max(end);
        }
        rest.push_str(&text[at..]);
        // The special tokens some servers leave in the text are not prose.
        for token in ["<|python_tag|>", "<|eom_id|>", "<|eot_id|>", "<|im_end|>"] {
            rest = rest.replace(token, "");
        }
        let rest = squeeze_blank_lines(rest.trim());
        (!rest.is_empty()).then_some(rest)
    }
}

/// Runs of blank lines as one.
fn squeeze_blank_lines(text: &str) -> String {
    let mut lines: Vec<&str> = Vec::new();
    for line in text.lines().map(str::trim_end) {
        if line.is_empty() && lines.last().is_some_and(|last| last.is_empty()) {
            continue;
        }
        lines.push(line);
    }
    lines.join("\n")
}

/// Every `<tool_call>…</tool_call>` block: its content is one call, or an array of calls. A
/// last block the model never closed (it stopped at its end token) runs to the end of the text.
fn tool_call_tags(text: &str, found: &mut Found) -> Result<(), Unreadable> {
    const OPEN: &str = "<tool_call>";
    const CLOSE: &str = "</tool_call>";
    let form = Form::ToolCallTag;
    let mut from = 0;
    while let Some(start) = text[from..].find(OPEN).map(|at| from + at) {
        let inner_start = start + OPEN.len();
        let (inner_end, end) = match text[inner_start..].find(CLOSE) {
            Some(at) => (inner_start + at, inner_start + at + CLOSE.len()),
            None => (text.len(), text.len()),
        };
        let inner = text[inner_start..inner_end].trim();
        let value = parse_value(unfenced(inner), form)?;
        calls_in(&value, form, inner, found)?;
        found.spans.push((start, end));
        from = end;
    }
    Ok(())
}

/// `<function=name>{…}</function>`: the name in the tag, the arguments inside.
fn function_tags(text: &str, found: &mut Found) -> Result<(), Unreadable> {
    const OPEN: &str = "<function=";
    const CLOSE: &str = "</function>";
    let mut from = 0;
    while let Some(start) = text[from..].find(OPEN).map(|at| from + at) {
        let name_start = start + OPEN.len();
        let Some(name_len) = text[name_start..].find('>') else {
            break;
        };
        let name = text[name_start..name_start + name_len].trim();
        let inner_start = name_start + name_len + 1;
        let (inner_end, end) = match text[inner_start..].find(CLOSE) {
            Some(at) => (inner_start + at, inner_start + at + CLOSE.len()),
            None => (text.len(), text.len()),
        };
        let inner = text[inner_start..inner_end].trim();
        let (arguments, repairs) = parse_value(inner, Form::FunctionTag)?;
        let call = call_from(name, &arguments, repairs, Form::FunctionTag, inner)?;
        found.calls.push(call);
        found.spans.push((start, end));
        from = end;
    }
    Ok(())
}

/// `[TOOL_CALLS]` then a JSON array of calls (or one call), or the newer
/// `[TOOL_CALLS]name[ARGS]{…}`, once or several times.
fn mistral(text: &str, found: &mut Found) -> Result<(), Unreadable> {
    const TOKEN: &str = "[TOOL_CALLS]";
    const ARGS: &str = "[ARGS]";
    let mut from = 0;
    while let Some(start) = text[from..].find(TOKEN).map(|at| from + at) {
        let after = start + TOKEN.len();
        let body = &text[after..];
        let lead = body.len() - body.trim_start().len();
        let body = body.trim_start();
        let quote = cut(body);
        if body.starts_with(['[', '{']) {
            let Some(len) = almost_json::extent(body) else {
                return Err(unreadable(
                    Form::ToolCallsToken,
                    "its JSON never closes its brackets".into(),
                    &quote,
                ));
            };
            let value = parse_value(&body[..len], Form::ToolCallsToken)?;
            calls_in(&value, Form::ToolCallsToken, &body[..len], found)?;
            found.spans.push((start, after + lead + len));
            from = after + lead + len;
            continue;
        }
        // name[ARGS]{…} or name{…}
        let name_len = body
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-' || c == '.'))
            .unwrap_or(body.len());
        let name = &body[..name_len];
        let mut args = &body[name_len..];
        args = args.strip_prefix(ARGS).unwrap_or(args).trim_start();
        let args_at = body.len() - args.len();
        let Some(len) = almost_json::extent(args).filter(|_| !name.is_empty()) else {
            return Err(unreadable(
                Form::ToolCallsToken,
                "it is neither a JSON array of calls nor a tool name followed by its arguments as \
                 a JSON object"
                    .into(),
                &quote,
            ));
        };
        let (arguments, repairs) = parse_value(&args[..len], Form::ToolCallsToken)?;
        let call = call_from(name, &arguments, repairs, Form::ToolCallsToken, &quote)?;
        found.calls.push(call);
        let end = after + lead + args_at + len;
        found.spans.push((start, end));
        from = end;
    }
    Ok(())
}

/// The whole reply (after `<|python_tag|>`, inside a code fence or not) as one call or an array
/// of calls, each naming an offered tool. Anything else is prose; so is JSON whose names are
/// not tools (data the model shows), unless it is broken JSON that names a tool.
fn bare(text: &str, tools: &[&str], found: &mut Found) -> Result<(), Unreadable> {
    let (start, body, had_tag) = match text.find("<|python_tag|>") {
        Some(at) => (at, &text[at + "<|python_tag|>".len()..], true),
        None => (0, text, false),
    };
    let body = body
        .trim()
        .trim_end_matches("<|eom_id|>")
        .trim_end_matches("<|eot_id|>")
        .trim();
    let body = unfenced(body);
    if !body.starts_with(['{', '[']) {
        return Ok(());
    }
    let names_a_tool = tools
        .iter()
        .any(|tool| body.contains(&format!("\"{tool}\"")) || body.contains(&format!("'{tool}'")));
    let value = match almost_json::parse(body) {
        Ok(value) => value,
        Err(error) if names_a_tool || had_tag => {
            return Err(unreadable(
                Form::BareJson,
                format!("its JSON does not parse: {error}"),
                body,
            ))
        }
        Err(_) => return Ok(()),
    };
    let objects: Vec<&Value> = match &value.0 {
        Value::Array(items) => items.iter().collect(),
        object => vec![object],
    };
    let is_call = |object: &&Value| {
        let name = object
            .get("name")
            .or_else(|| object.get("function").and_then(|f| f.get("name")))
            .and_then(Value::as_str);
        name.is_some_and(|name| tools.contains(&name))
    };
    if objects.is_empty() || !objects.iter().all(is_call) {
        return Ok(());
    }
    calls_in(&value, Form::BareJson, body, found)?;
    found.spans.push((start, text.len()));
    Ok(())
}

/// The text inside a Markdown code fence (```json … ```), or the text as it is.
fn unfenced(text: &str) -> &str {
    let Some(inner) = text.strip_prefix("```") else {
        return text;
    };
    let Some(inner) = inner.strip_suffix("```") else {
        return text;
    };
    let inner = inner
        .split_once('\n')
        .filter(|(lang, _)| lang.chars().all(|c| c.is_ascii_alphanumeric()))
        .map_or(inner, |(_, code)| code);
    inner.trim()
}

fn parse_value(text: &str, form: Form) -> Result<(Value, Vec<Repair>), Unreadable> {
    almost_json::parse(text)
        .map_err(|error| unreadable(form, format!("its JSON does not parse: {error}"), text))
}

/// The calls a parsed value holds: one object, or an array of them.
fn calls_in(
    (value, repairs): &(Value, Vec<Repair>),
    form: Form,
    quote: &str,
    found: &mut Found,
) -> Result<(), Unreadable> {
    let objects: Vec<&Value> = match value {
        Value::Array(items) => items.iter().collect(),
        object => vec![object],
    };
    for object in objects {
        found
            .calls
            .push(call_of(object, repairs.clone(), form, quote)?);
    }
    Ok(())
}

/// One call from `{"name", "arguments"}`, `{"name", "parameters"}` or
/// `{"type": "function", "function": {"name", "arguments"}}`.
fn call_of(
    object: &Value,
    repairs: Vec<Repair>,
    form: Form,
    quote: &str,
) -> Result<TextCall, Unreadable> {
    let object = match object.get("function") {
        Some(inner) if inner.is_object() => inner,
        _ => object,
    };
    let Some(name) = object.get("name").and_then(Value::as_str) else {
        return Err(unreadable(
            form,
            "it has no \"name\" naming the tool".into(),
            quote,
        ));
    };
    let arguments = object
        .get("arguments")
        .or_else(|| object.get("parameters"))
        .cloned()
        .unwrap_or_else(|| Value::Object(Default::default()));
    call_from(name, &arguments, repairs, form, quote)
}

/// A call of `name` with `arguments`: an object, or a string holding one.
fn call_from(
    name: &str,
    arguments: &Value,
    mut repairs: Vec<Repair>,
    form: Form,
    quote: &str,
) -> Result<TextCall, Unreadable> {
    let arguments = match arguments {
        Value::Object(_) => arguments.clone(),
        Value::String(text) => match serde_json::from_str::<Value>(text) {
            Ok(object @ Value::Object(_)) => {
                repairs.push(Repair::ArgumentsAsString);
                object
            }
            _ => {
                return Err(unreadable(
                    form,
                    format!("the arguments of {name} are a string, not a JSON object"),
                    quote,
                ))
            }
        },
        _ => {
            return Err(unreadable(
                form,
                format!("the arguments of {name} are not a JSON object"),
                quote,
            ))
        }
    };
    Ok(TextCall {
        name: name.to_string(),
        arguments: arguments.to_string(),
        form,
        repairs,
    })
}

fn unreadable(form: Form, problem: String, quote: &str) -> Unreadable {
    Unreadable {
        form,
        problem,
        quote: cut(quote),
    }
}

fn cut(text: &str) -> String {
    crate::text::cut_chars(text.trim(), QUOTED_CHARS)
}

#[cfg(test)]
mod tests;
