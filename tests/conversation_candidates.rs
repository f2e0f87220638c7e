//! Conversations with questions asked of several candidates (`askdb-conversation/2`): recorded
//! with scripted models on the shop database, written and read back, replayed with no model
//! (the same grouping, the person's choice kept); older files still read; and malformed files
//! refused with what is wrong, or guarded at the step that would write.
#![cfg(not(target_arch = "wasm32"))] // rusqlite, through tests/support

mod support;

use askdb::agent::candidates::{CandidateAgents, Candidates};
use askdb::agent::{AgentConfig, Session};
use askdb::conversation::{
    check_replay, format_for, read, ConversationFile, DatabaseIdentity, ModelInfo,
    RecordedQuestion, Recorder, ReplayCheck, RunSettings, FORMAT, FORMAT_CANDIDATES,
};
use askdb::engine::identity::Identity;
use askdb::engine::native::file_digest::digest_file;
use askdb::engine::QueryLimits;
use askdb::llm::ProviderKind;
use serde_json::{json, Value};
use support::scripted_llm::{
    final_answer, run_sql, session, three_steps, FakeClock, ScriptedLlm, Turn,
};
use support::RusqliteDb;

const QUESTION: &str = "How many orders are there?";

fn block_on<F: std::future::Future>(future: F) -> F::Output {
    futures::executor::block_on(future)
}

fn config(candidates: usize) -> AgentConfig {
    AgentConfig {
        candidates,
        ..AgentConfig::default()
    }
}

/// Asks `QUESTION` of one candidate per script, each behind its own [`Recorder`]: what they
/// gave, and the question as a file records it (the person's `chosen` answer on a split).
fn record(
    db: &RusqliteDb,
    session: &Session,
    scripts: Vec<Vec<Turn>>,
    chosen: Option<usize>,
) -> (Candidates, RecordedQuestion) {
    let clock = FakeClock::default();
    let models: Vec<ScriptedLlm> = scripts
        .into_iter()
        .map(|turns| ScriptedLlm::new(turns, &clock))
        .collect();
    let recorders: Vec<Recorder<'_, ScriptedLlm>> =
        models.iter().map(|m| Recorder::new(m, &clock)).collect();
    let agents = CandidateAgents {
        db,
        llms: recorders.iter().collect(),
        clock: &clock,
        config: config(recorders.len()),
        evidence_limits: QueryLimits::default(),
    };
    let drawn = block_on(agents.ask(session, QUESTION, &mut |_, _| {}, std::future::pending()));
    let turns = recorders.iter().map(Recorder::turns).collect();
    let mut recorded = RecordedQuestion::with_candidates(QUESTION, &drawn, turns, None, 42.0);
    if let Some(index) = chosen {
        recorded.choose(index);
    }
    (drawn, recorded)
}

fn shop_record() -> DatabaseIdentity {
    let digest = digest_file(&support::dataset("shop/shop.db")).expect("the shop database");
    let identity = Identity::Bytes {
        size: digest.size,
        sha256: digest.sha256,
    };
    DatabaseIdentity::new(&digest.name, &identity)
}

/// `saved` replayed on the shop with no model: the recorded turns answer, the tools and the
/// evidence run live.
fn replay(saved: &ConversationFile, db: &RusqliteDb, session: &mut Session) -> ReplayCheck {
    block_on(check_replay(
        saved,
        &shop_record(),
        db,
        session,
        &FakeClock::default(),
    ))
}

fn file(questions: Vec<RecordedQuestion>, candidates: usize) -> ConversationFile {
    ConversationFile {
        format: format_for(&questions).into(),
        recorded_at: "2026-12-01T09:30:00.000Z".into(),
        database: shop_record(),
        model: ModelInfo::new(
            ProviderKind::OpenAi,
            "gpt-scripted",
            "https://api.example/v1",
        ),
        settings: RunSettings::new(&config(candidates), &QueryLimits::default()),
        questions,
    }
}

fn answer_with(sql: &str) -> Vec<Turn> {
    three_steps("orders", sql, "There are 12 orders.")
}

fn unanimous(db: &RusqliteDb) -> (Candidates, RecordedQuestion) {
    record(
        db,
        &session(db),
        vec![
            answer_with("SELECT count(*) FROM orders"),
            answer_with("SELECT COUNT(id) AS n FROM orders"),
            answer_with("SELECT count(*) + 0.0 FROM orders WHERE 1"),
        ],
        None,
    )
}

fn split(db: &RusqliteDb, chosen: Option<usize>) -> (Candidates, RecordedQuestion) {
    record(
        db,
        &session(db),
        vec![
            answer_with("SELECT count(*) FROM orders"),
            answer_with("SELECT count(*) FROM customers"),
            answer_with("SELECT count(id) FROM orders"),
        ],
        chosen,
    )
}

#[test]
fn candidates_are_recorded_with_their_turns_evidence_and_grouping_in_version_2() {
    let db = RusqliteDb::shop();
    let (drawn, question) = unanimous(&db);
    let candidates = question.candidates.as_ref().expect("recorded candidates");
    assert_eq!(candidates.drawn.len(), 3);
    for (recorded, live) in candidates.drawn.iter().zip(&drawn.answers) {
        assert_eq!(recorded.approach, live.approach);
        assert_eq!(recorded.turns.len(), 3, "each candidate's three turns");
        assert!(!recorded.turns[0].results.is_empty(), "what its model saw");
        let evidence = recorded.evidence.as_ref().expect("its evidence");
        assert_eq!(Some(evidence.sql.clone()), live.evidence_sql());
        assert_eq!(evidence.result.as_ref(), live.result());
    }
    assert_eq!(candidates.agreement.groups, vec![vec![0, 1, 2]]);
    assert!(question.turns.is_empty(), "the candidates hold the turns");
    assert_eq!(
        question.answer.as_ref().and_then(|a| a.sql.as_deref()),
        Some("SELECT count(*) FROM orders"),
        "the agreed answer is the question's"
    );
    let mut saved = file(vec![question], 3);
    // A measured time whose shortest decimal form parses back to another float without
    // serde_json's float_roundtrip (it used to fail only when the clock landed on one).
    let timed = saved.questions[0].candidates.as_mut().unwrap();
    let evidence = timed.drawn[2].evidence.as_mut().unwrap();
    evidence.result.as_mut().unwrap().elapsed_ms = 0.02414;
    assert_eq!(saved.format, FORMAT_CANDIDATES);
    let back = read(&saved.to_json()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back, saved);
    // Without candidates a file is still written as version 1.
    let mut single = saved.clone();
    single.questions[0].candidates = None;
    assert_eq!(format_for(&single.questions), FORMAT);
}

#[test]
fn a_replay_of_candidates_gives_the_same_agreement_with_no_model() {
    let db = RusqliteDb::shop();
    let (_, question) = unanimous(&db);
    let saved = read(&file(vec![question], 3).to_json()).unwrap();
    let mut session = session(&db);
    // No model at all: the recorded turns answer, the tools and the evidence run live.
    let check = replay(&saved, &db, &mut session);
    assert!(check.matches(), "{}", check.report("r.json", "shop.db"));
    assert_eq!(check.questions[0].steps, 9);
    // What a follow-up remembers is the agreed answer.
    let remembered = format!("{:?}", session);
    assert!(
        remembered.contains("SELECT count(*) FROM orders"),
        "{remembered}"
    );
}

#[test]
fn a_split_replays_as_a_split_and_the_persons_choice_is_kept() {
    let db = RusqliteDb::shop();
    let (_, unchosen) = split(&db, None);
    assert_eq!(unchosen.answer, None, "nothing is chosen for the person");
    assert_eq!(
        unchosen.error.as_deref(),
        Some("The candidates disagree: 3 candidates gave 2 different results")
    );
    let (_, chosen) = split(&db, Some(1));
    let candidates = chosen.candidates.as_ref().unwrap();
    assert_eq!(candidates.chosen, Some(1));
    assert_eq!(chosen.taken_candidate(), Some(1));
    assert_eq!(
        chosen.answer.as_ref().and_then(|a| a.sql.as_deref()),
        Some("SELECT count(*) FROM customers")
    );
    let saved = read(&file(vec![chosen], 3).to_json()).unwrap();
    let mut session = session(&db);
    let check = replay(&saved, &db, &mut session);
    assert!(check.matches(), "{}", check.report("r.json", "shop.db"));
    let remembered = format!("{:?}", session);
    assert!(remembered.contains("FROM customers"), "{remembered}");
}

#[test]
fn a_replay_on_changed_data_says_which_candidate_and_that_the_grouping_changed() {
    let db = RusqliteDb::shop();
    let (_, question) = unanimous(&db);
    let mut saved = file(vec![question], 3);
    // Recorded as if candidate 2's count had been another: its tool result and its evidence.
    let candidates = saved.questions[0].candidates.as_mut().unwrap();
    candidates.agreement.groups = vec![vec![0, 2], vec![1]];
    let turn = &mut candidates.drawn[1].turns[1];
    turn.results[0].content = turn.results[0].content.replace("[[12]]", "[[13]]");
    let saved = read(&saved.to_json()).unwrap();
    let check = replay(&saved, &db, &mut session(&db));
    assert!(!check.matches());
    let question = &check.questions[0];
    assert_eq!(question.differences.len(), 1, "{:?}", question.differences);
    assert_eq!(question.differences[0].candidate, Some(1));
    let ending = question.ending.as_deref().unwrap_or_default();
    assert!(
        ending.contains("candidates 1, 3 | 2") && ending.contains("candidates 1, 2, 3"),
        "{ending}"
    );
    let report = check.report("r.json", "shop.db");
    assert!(report.contains("candidate 2, step 2"), "{report}");
}

#[test]
fn a_version_1_file_from_the_examples_still_reads_and_replays() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/www/examples/shop.askdb.json");
    let text = std::fs::read_to_string(path).expect("www/examples/shop.askdb.json");
    let file = read(&text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(file.format, FORMAT);
    assert_eq!(file.settings.candidates, 1, "no candidates field: one");
    assert!(file.questions.iter().all(|q| q.candidates.is_none()));
    // Saved again, it stays a version 1 file (tests/examples.rs replays it on its database).
    assert_eq!(format_for(&file.questions), FORMAT);
    assert_eq!(read(&file.to_json()).unwrap(), file);
}

// ---- untrusted files -------------------------------------------------------------------

fn saved_json() -> Value {
    let db = RusqliteDb::shop();
    let (_, question) = split(&db, Some(1));
    serde_json::from_str(&file(vec![question], 3).to_json()).unwrap()
}

fn refused(value: &Value) -> String {
    match read(&value.to_string()) {
        Ok(_) => panic!("read a file that should be refused"),
        Err(error) => error.to_string(),
    }
}

#[test]
fn wrong_counts_are_refused_with_what_is_wrong() {
    // `saved_json` with its candidates edited: why it is refused.
    let with = |edit: &dyn Fn(&mut Value)| {
        let mut value = saved_json();
        edit(&mut value["questions"][0]["candidates"]);
        refused(&value)
    };
    // The grouping says 4 candidates; 3 were drawn.
    let why = with(&|c| c["agreement"]["candidates"] = json!(4));
    assert!(
        why.contains("groups the 3 candidates of question 1 wrongly"),
        "{why}"
    );
    // A candidate named twice, one not at all, one past the end.
    let why = with(&|c| c["agreement"]["groups"] = json!([[0, 2], [2]]));
    assert!(why.contains("wrongly"), "{why}");
    let why = with(&|c| c["agreement"]["groups"] = json!([[0, 2], [7]]));
    assert!(
        why.contains("groups a candidate 8 in question 1, which has 3"),
        "{why}"
    );
    let why = with(&|c| c["agreement"]["groups"] = json!([[0, 2], [1], []]));
    assert!(why.contains("wrongly"), "{why}");
    // One candidate, or more than five.
    let why = with(&|c| {
        let first = c["drawn"][0].clone();
        c["drawn"] = json!([first]);
    });
    assert!(
        why.contains("has 1 candidates in question 1; a question has 2 to 5"),
        "{why}"
    );
    let why = with(&|c| {
        let first = c["drawn"][0].clone();
        c["drawn"] = Value::Array(vec![first; 6]);
    });
    assert!(why.contains("has 6 candidates"), "{why}");
    // A choice where they agree, or of a candidate past the end.
    let why = with(&|c| c["chosen"] = json!(9));
    assert!(why.contains("chooses candidate 10"), "{why}");
    // Candidate 2 asked as candidate 1 is.
    let why = with(&|c| c["drawn"][1]["approach"] = json!("as_asked"));
    assert!(
        why.contains("candidate 2 is always asked \"in parts\""),
        "{why}"
    );
}

#[test]
fn a_choice_where_the_candidates_agree_is_refused() {
    let db = RusqliteDb::shop();
    let (_, question) = unanimous(&db);
    let mut value: Value = serde_json::from_str(&file(vec![question], 3).to_json()).unwrap();
    value["questions"][0]["candidates"]["chosen"] = json!(1);
    let why = refused(&value);
    assert!(why.contains("only when the candidates disagree"), "{why}");
}

#[test]
fn candidates_in_a_version_1_file_or_beside_turns_of_the_question_are_refused() {
    let mut value = saved_json();
    value["format"] = json!(FORMAT);
    let why = refused(&value);
    assert!(
        why.contains("which the format \"askdb-conversation/1\" has no place for"),
        "{why}"
    );
    let mut value = saved_json();
    let turn = value["questions"][0]["candidates"]["drawn"][0]["turns"][0].clone();
    value["questions"][0]["turns"] = json!([turn]);
    assert!(refused(&value).contains("has model turns of its own in question 1"));
    let mut value = saved_json();
    value["settings"]["candidates"] = json!(6);
    assert!(refused(&value).contains("out of range: candidates"));
    let mut value = saved_json();
    value["format"] = json!("askdb-conversation/3");
    let why = refused(&value);
    assert!(
        why.contains("this page reads \"askdb-conversation/1\" and \"askdb-conversation/2\""),
        "{why}"
    );
}

#[test]
fn huge_arrays_in_a_candidate_are_refused_before_anything_runs() {
    // Ten thousand turns in one candidate: past the size of any file read.
    let mut value = saved_json();
    let turn = value["questions"][0]["candidates"]["drawn"][2]["turns"][0].clone();
    let turns = &mut value["questions"][0]["candidates"]["drawn"][2]["turns"];
    *turns = Value::Array(vec![turn.clone(); 10_000]);
    assert!(refused(&value).contains("a conversation file may be at most"));
    // Fifty: more than its settings allow.
    value["questions"][0]["candidates"]["drawn"][2]["turns"] = Value::Array(vec![turn; 50]);
    let why = refused(&value);
    assert!(
        why.contains("has 50 model turns in question 1, candidate 3; its settings allow 10"),
        "{why}"
    );
    // An evidence result of more rows than the row cap.
    let mut value = saved_json();
    let rows = Value::Array(vec![json!([{ "Integer": 1 }]); 1_001]);
    value["questions"][0]["candidates"]["drawn"][0]["evidence"]["result"]["rows"] = rows;
    let why = refused(&value);
    assert!(why.contains("evidence result of 1,001 rows"), "{why}");
    // Rows wider than the columns.
    let mut value = saved_json();
    value["questions"][0]["candidates"]["drawn"][0]["evidence"]["result"]["rows"] =
        json!([[{ "Integer": 1 }, { "Integer": 2 }]]);
    assert!(refused(&value).contains("not as wide as its columns"));
    // A candidate's tool call to a tool askdb does not have.
    let mut value = saved_json();
    value["questions"][0]["candidates"]["drawn"][1]["turns"][0]["tool_calls"][0]["name"] =
        json!("shell");
    assert!(refused(&value)
        .contains("calls a tool askdb does not have in question 1, candidate 2, turn 1"));
}

#[test]
fn a_candidate_step_that_writes_is_refused_by_the_guard_at_that_step() {
    let db = RusqliteDb::shop();
    let (_, question) = unanimous(&db);
    let mut saved = file(vec![question], 3);
    let candidates = saved.questions[0].candidates.as_mut().unwrap();
    // Candidate 3's first query, and its final answer's SQL, made into writes.
    let writes = ["DELETE FROM orders", "ATTACH DATABASE '/tmp/x.db' AS x"];
    let turns = &mut candidates.drawn[2].turns;
    turns[1].tool_calls[0] = run_sql("w1", writes[0]);
    turns[1].results.clear();
    turns[2].tool_calls[0] = final_answer("w2", "Gone.", writes[1]);
    let saved = read(&saved.to_json()).expect("a file may hold any SQL: the guard decides");
    let check = replay(&saved, &db, &mut session(&db));
    let question = &check.questions[0];
    let refusal = question
        .differences
        .iter()
        .find(|d| d.candidate == Some(2) && d.step == 2)
        .and_then(|d| d.live.clone())
        .expect("the write's step is reported");
    assert!(refusal.contains("DELETE"), "{refusal}");
    assert!(
        refusal.to_lowercase().contains("read-only") || refusal.contains("refused"),
        "{refusal}"
    );
    // Nothing was written, and candidate 3 is counted apart, not with the others.
    assert_eq!(
        support::raw_rows(&db, "SELECT count(*) FROM orders").unwrap(),
        vec![vec![askdb::engine::Value::Integer(12)]]
    );
    let ending = question.ending.as_deref().unwrap_or_default();
    assert!(
        ending.contains("now: \"2 of 3 candidates agree; 1 gave no result\""),
        "{ending}"
    );
}
