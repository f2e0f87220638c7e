//! Each form as its documentation shows it (the examples quoted as published, tools and all),
//! then askdb's own tools written the same ways, the repairs, the refusals, and prose that must
//! stay prose.

use super::*;
use serde_json::json;

const ASKDB: &[&str] = &[
    "list_tables",
    "describe_table",
    "run_sql",
    "cross_check",
    "final_answer",
];

fn calls(text: &str, tools: &[&str]) -> (Vec<TextCall>, Option<String>) {
    match read(text, tools) {
        Reading::Calls { calls, rest } => (calls, rest),
        other => panic!("expected calls in {text:?}, got {other:?}"),
    }
}

fn arguments(call: &TextCall) -> Value {
    serde_json::from_str(&call.arguments).unwrap()
}

fn unreadable(text: &str) -> Unreadable {
    match read(text, ASKDB) {
        Reading::Unreadable(unreadable) => unreadable,
        other => panic!("expected an unreadable call in {text:?}, got {other:?}"),
    }
}

// --- The documented examples -------------------------------------------------------------

/// Hugging Face's chat-templating guide, for a Hermes-style template (Hermes 2 Pro, Qwen 2.5):
/// the output of `apply_chat_template(messages, tools=[get_current_temperature])` then
/// `generate`, with the end token the template leaves in.
#[test]
fn hermes_as_in_the_transformers_chat_template_guide() {
    let text = "<tool_call>\n{\"name\": \"get_current_temperature\", \"arguments\": {\"location\": \"Paris, France\"}}\n</tool_call><|im_end|>";
    let (found, rest) = calls(text, &["get_current_temperature"]);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].name, "get_current_temperature");
    assert_eq!(arguments(&found[0]), json!({"location": "Paris, France"}));
    assert_eq!(found[0].form, Form::ToolCallTag);
    assert!(found[0].repairs.is_empty());
    assert_eq!(rest, None);
}

/// Qwen's function-calling guide (Qwen2.5, Hermes-style template): two parallel calls, one
/// block each.
#[test]
fn qwen_parallel_calls_as_in_its_function_calling_guide() {
    let text = "<tool_call>\n{\"name\": \"get_current_temperature\", \"arguments\": {\"location\": \"San Francisco, CA, USA\"}}\n</tool_call>\n<tool_call>\n{\"name\": \"get_temperature_date\", \"arguments\": {\"location\": \"San Francisco, CA, USA\", \"date\": \"2024-10-01\"}}\n</tool_call><|im_end|>";
    let (found, rest) = calls(text, &["get_current_temperature", "get_temperature_date"]);
    let names: Vec<&str> = found.iter().map(|call| call.name.as_str()).collect();
    assert_eq!(names, ["get_current_temperature", "get_temperature_date"]);
    assert_eq!(
        arguments(&found[1]),
        json!({"location": "San Francisco, CA, USA", "date": "2024-10-01"})
    );
    assert_eq!(rest, None);
}

/// Hermes 2 Pro's model card: the arguments before the name.
#[test]
fn hermes_2_pro_with_the_arguments_first() {
    let text = "<tool_call>\n{\"arguments\": {\"symbol\": \"TSLA\"}, \"name\": \"get_stock_fundamentals\"}\n</tool_call>";
    let (found, _) = calls(text, &["get_stock_fundamentals"]);
    assert_eq!(found[0].name, "get_stock_fundamentals");
    assert_eq!(arguments(&found[0]), json!({"symbol": "TSLA"}));
}

/// Mistral 7B Instruct v0.3 in Ollama's library (its raw prompt and example response).
#[test]
fn mistral_as_in_ollamas_library_page() {
    let text = "[TOOL_CALLS] [{\"name\": \"get_current_weather\", \"arguments\": {\"location\": \"San Francisco, CA\", \"format\": \"celsius\"}}]";
    let (found, rest) = calls(text, &["get_current_weather"]);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].form, Form::ToolCallsToken);
    assert_eq!(
        arguments(&found[0]),
        json!({"location": "San Francisco, CA", "format": "celsius"})
    );
    assert_eq!(rest, None);
}

/// Mistral's tokenizer v11 and later (Mistral Small 3.1, Devstral): the name, then `[ARGS]`.
#[test]
fn mistral_v11_name_then_args() {
    let text = "[TOOL_CALLS]get_current_weather[ARGS]{\"location\": \"Paris, France\"}[TOOL_CALLS]add{\"a\": 3.5, \"b\": 4}";
    let (found, _) = calls(text, &["get_current_weather", "add"]);
    assert_eq!(found[0].name, "get_current_weather");
    assert_eq!(arguments(&found[0]), json!({"location": "Paris, France"}));
    assert_eq!(found[1].name, "add");
    assert_eq!(arguments(&found[1]), json!({"a": 3.5, "b": 4}));
}

/// Llama 3.1's model card, "JSON based tool calling": `parameters`, not `arguments`, and the
/// end-of-turn token.
#[test]
fn llama_json_as_in_the_llama_3_1_prompt_format() {
    let text = "{\"name\": \"get_current_conditions\", \"parameters\": {\"location\": \"Menlo Park, CA\", \"unit\": \"Fahrenheit\"}}<|eot_id|>";
    let (found, rest) = calls(text, &["get_current_conditions"]);
    assert_eq!(found[0].name, "get_current_conditions");
    assert_eq!(found[0].form, Form::BareJson);
    assert_eq!(
        arguments(&found[0]),
        json!({"location": "Menlo Park, CA", "unit": "Fahrenheit"})
    );
    assert_eq!(rest, None);
}

/// Llama 3.1's model card, "user-defined custom tool calling".
#[test]
fn llama_function_tag_as_in_the_llama_3_1_prompt_format() {
    let text = "<function=spotify_trending_songs>{\"n\": \"5\"}</function><|eom_id|>";
    let (found, rest) = calls(text, &["spotify_trending_songs"]);
    assert_eq!(found[0].name, "spotify_trending_songs");
    assert_eq!(found[0].form, Form::FunctionTag);
    assert_eq!(arguments(&found[0]), json!({"n": "5"}));
    assert_eq!(rest, None);
}

/// Llama 3.x through some servers: `<|python_tag|>` before the JSON, prose before that.
#[test]
fn llama_json_after_the_python_tag() {
    let text = "Here are some results: <|python_tag|>{\"name\": \"search\", \"parameters\": {\"query\": \"weather\"}}";
    let (found, rest) = calls(text, &["search"]);
    assert_eq!(found[0].name, "search");
    assert_eq!(rest.as_deref(), Some("Here are some results:"));
}

// --- askdb's tools, written the same ways ------------------------------------------------

#[test]
fn askdb_calls_with_prose_around_them_keep_the_prose() {
    let text = "I will count them first.\n<tool_call>\n{\"name\": \"run_sql\", \"arguments\": {\"sql\": \"SELECT count(*) FROM orders\"}}\n</tool_call>\nThen I will answer.";
    let (found, rest) = calls(text, ASKDB);
    assert_eq!(found[0].name, "run_sql");
    assert_eq!(
        arguments(&found[0]),
        json!({"sql": "SELECT count(*) FROM orders"})
    );
    assert_eq!(
        rest.as_deref(),
        Some("I will count them first.\n\nThen I will answer.")
    );
}

#[test]
fn a_bare_call_in_a_code_fence_or_an_array() {
    let fenced = "```json\n{\"name\": \"list_tables\", \"arguments\": {}}\n```";
    assert_eq!(calls(fenced, ASKDB).0[0].name, "list_tables");
    let array = "[{\"name\": \"describe_table\", \"parameters\": {\"table\": \"orders\"}}, {\"type\": \"function\", \"function\": {\"name\": \"list_tables\", \"arguments\": {}}}]";
    let (found, _) = calls(array, ASKDB);
    assert_eq!(found.len(), 2);
    assert_eq!(found[1].name, "list_tables");
}

#[test]
fn a_call_without_arguments_has_an_empty_object() {
    let (found, _) = calls("<tool_call>{\"name\": \"list_tables\"}</tool_call>", ASKDB);
    assert_eq!(found[0].arguments, "{}");
}

#[test]
fn an_unclosed_last_block_runs_to_the_end() {
    let (found, _) = calls(
        "<tool_call>\n{\"name\": \"list_tables\", \"arguments\": {}}",
        ASKDB,
    );
    assert_eq!(found[0].name, "list_tables");
}

#[test]
fn a_tag_with_a_name_askdb_lacks_is_still_a_call_for_the_tools_to_refuse() {
    // The agent's own check says which tools there are, as for a tool call of the API.
    let (found, _) = calls(
        "<tool_call>{\"name\": \"drop_table\", \"arguments\": {}}</tool_call>",
        ASKDB,
    );
    assert_eq!(found[0].name, "drop_table");
}

// --- Repairs --------------------------------------------------------------------------------

#[test]
fn single_quotes_and_trailing_commas_are_repaired_and_said() {
    let text = "<tool_call>{'name': 'run_sql', 'arguments': {'sql': \"SELECT name FROM customers WHERE city = 'Tokyo'\",},}</tool_call>";
    let (found, _) = calls(text, ASKDB);
    assert_eq!(
        arguments(&found[0]),
        json!({"sql": "SELECT name FROM customers WHERE city = 'Tokyo'"})
    );
    assert_eq!(
        found[0].repairs,
        [Repair::SingleQuotes, Repair::TrailingComma]
    );
}

#[test]
fn arguments_written_as_a_json_string_are_read_as_the_object() {
    let text = "<tool_call>{\"name\": \"run_sql\", \"arguments\": \"{\\\"sql\\\": \\\"SELECT 1\\\"}\"}</tool_call>";
    let (found, _) = calls(text, ASKDB);
    assert_eq!(arguments(&found[0]), json!({"sql": "SELECT 1"}));
    assert_eq!(found[0].repairs, [Repair::ArgumentsAsString]);
}

// --- Refusals -------------------------------------------------------------------------------

#[test]
fn an_apostrophe_inside_single_quotes_is_not_guessed_at() {
    let problem = unreadable(
        "<tool_call>{'name': 'run_sql', 'arguments': {'sql': 'SELECT * FROM t WHERE name = 'O'Brien''}}</tool_call>",
    );
    assert_eq!(problem.form, Form::ToolCallTag);
    assert!(
        problem.problem.starts_with("its JSON does not parse"),
        "{problem}"
    );
    let said = problem.to_string();
    assert!(said.contains("<tool_call> tags"), "{said}");
    assert!(said.contains("O'Brien"), "{said}");
}

#[test]
fn a_call_without_a_name_or_with_arguments_that_are_no_object_is_refused() {
    assert!(unreadable("<tool_call>{\"arguments\": {}}</tool_call>")
        .problem
        .contains("no \"name\""));
    assert!(unreadable(
        "<tool_call>{\"name\": \"run_sql\", \"arguments\": \"SELECT 1\"}</tool_call>"
    )
    .problem
    .contains("a string, not a JSON object"));
    assert!(unreadable(
        "[TOOL_CALLS] [{\"name\": \"run_sql\", \"arguments\": {\"sql\": \"SELECT 1\"}"
    )
    .problem
    .contains("never closes"));
}

#[test]
fn one_unreadable_block_means_no_call_of_the_reply_is_taken() {
    let text = "<tool_call>{\"name\": \"list_tables\", \"arguments\": {}}</tool_call>\n<tool_call>{\"name\": \"run_sql\", \"arguments\": {sql: 1}}</tool_call>";
    assert!(matches!(read(text, ASKDB), Reading::Unreadable(_)));
}

#[test]
fn broken_json_alone_that_names_a_tool_is_an_attempt() {
    let problem = unreadable("{\"name\": \"run_sql\", \"arguments\": {\"sql\": \"SELECT 1\"");
    assert_eq!(problem.form, Form::BareJson);
}

#[test]
fn how_to_write_a_call_is_itself_a_readable_call() {
    let example = HOW_TO_WRITE.split("for example: ").nth(1).unwrap();
    let (found, _) = calls(example, ASKDB);
    assert_eq!(found[0].name, "list_tables");
}

// --- Prose stays prose ----------------------------------------------------------------------

#[test]
fn prose_that_shows_json_is_not_a_call() {
    for text in [
        "There were 7 orders in March 2024.",
        // JSON as data in an answer: names that are no tool.
        "{\"name\": \"Alice\", \"arguments\": 3}",
        "The customers are [{\"name\": \"Alice\"}, {\"name\": \"Bob\"}].",
        // A call shown inside prose, not standing alone: the model talks about it.
        "I could call {\"name\": \"run_sql\", \"arguments\": {\"sql\": \"SELECT 1\"}} but the \
         answer is already known: 7.",
        "run_sql takes {\"sql\": \"...\"} as its arguments.",
        "```sql\nSELECT count(*) FROM orders\n```",
        "",
    ] {
        assert_eq!(read(text, ASKDB), Reading::Prose, "{text:?}");
    }
}
