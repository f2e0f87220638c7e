//! `askdb::pin::first_requests`: what a demo's endpoint (`askdb-proxy pin`) pins for a database
//! is the system prompt and the tool list of the first request the page would send, and every
//! request of a real question carries them.
#![cfg(not(target_arch = "wasm32"))] // rusqlite, through tests/support

mod support;

use askdb::agent::{AgentConfig, Mode};
use askdb::llm::wire::{self, prefix};
use askdb::llm::{EndpointConfig, ProviderKind};
use askdb::opened::Opened;
use askdb::pin::{first_requests, PinError};
use askdb::settings::ModelSettings;
use serde_json::Value;
use std::path::{Path, PathBuf};
use support::hiding::Scratch;
use support::scripted_llm::{ask_with, final_answer, three_steps, Turn};

const PROVIDERS: [ProviderKind; 3] = [
    ProviderKind::OpenAi,
    ProviderKind::Anthropic,
    ProviderKind::Gemini,
];

const TOKYO: &str = "SELECT name FROM customers WHERE prefecture = 'Tokyo' ORDER BY name";

fn demo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("www/demo/shop.db")
}

/// The pinned parts of each mode's first request.
fn pinned(db: &Path, notes: Option<&Path>, provider: ProviderKind) -> Vec<(Mode, (Value, Value))> {
    first_requests(db, notes, &[], provider)
        .expect("first requests")
        .into_iter()
        .map(|(mode, body)| {
            let parts = prefix::parts(provider, &body).expect("a system part");
            (mode, parts)
        })
        .collect()
}

#[test]
fn each_mode_pins_its_own_prompt_and_tools_the_same_every_time() {
    for provider in PROVIDERS {
        let first = pinned(&demo(), None, provider);
        let modes: Vec<Mode> = first.iter().map(|(mode, _)| *mode).collect();
        assert_eq!(modes, [Mode::Sql, Mode::Safe], "{provider:?}");
        let (sql, safe) = (&first[0].1, &first[1].1);
        assert!(sql.1.to_string().contains("run_sql"), "{provider:?}");
        assert!(!safe.1.to_string().contains("run_sql"), "{provider:?}");
        assert_ne!(sql.0, safe.0, "{provider:?}: the system prompts differ");
        assert_ne!(sql.1, safe.1, "{provider:?}: the tools differ");
        // Nothing in them moves from one opening to the next (no clock, no counter).
        assert_eq!(pinned(&demo(), None, provider), first, "{provider:?}");
    }
}

/// The turns of a question in `mode`: three steps in SQL mode; in safe mode, where `run_sql`
/// is not offered, an answer at once.
fn a_question(mode: Mode) -> Vec<Turn> {
    match mode {
        Mode::Sql => three_steps("customers", TOKYO, "Alice and Evan."),
        Mode::Safe => vec![support::scripted_llm::calls(vec![final_answer(
            "c1",
            "Alice and Evan.",
            TOKYO,
        )])],
    }
}

#[test]
fn every_request_of_a_real_question_carries_what_was_pinned() {
    // The database opened as the page and askdb-eval open it, and a question asked of it by
    // the agent with a scripted model (tests/support), as any agent test asks one.
    let opened = Opened::open(&demo(), &Default::default(), &[]).expect("the demo opens");
    for (mode, turns) in [Mode::Sql, Mode::Safe].map(|mode| (mode, a_question(mode))) {
        let config = AgentConfig {
            mode,
            ..ModelSettings::default().agent_config()
        };
        let mut session = opened.session.clone();
        let episode = ask_with(
            &opened.model_view,
            &mut session,
            "Which customers live in Tokyo?",
            turns,
            config,
            std::future::pending(),
        );
        assert!(!episode.requests.is_empty(), "{mode:?}");
        for provider in PROVIDERS {
            let pins = pinned(&demo(), None, provider);
            let (_, pin) = pins.iter().find(|(m, _)| *m == mode).expect("the mode");
            let endpoint = EndpointConfig::new(provider, "", "key-for-the-test");
            for (number, request) in episode.requests.iter().enumerate() {
                let http = wire::build_request(&endpoint, request);
                let body: Value = serde_json::from_str(&http.body).expect("JSON");
                assert!(
                    prefix::parts(provider, &body).as_ref() == Some(pin),
                    "{provider:?}, {mode:?}: request {} does not carry the pinned parts",
                    number + 1
                );
            }
        }
    }
}

#[test]
fn a_notes_file_changes_the_system_prompt() {
    let note = "Customers who signed up at the Osaka shop have an id above 1000.";
    let notes = Scratch::new("pin-notes");
    std::fs::write(
        &notes.0,
        serde_json::json!({
            "format": "askdb-knowledge/1",
            "notes": [{"table": "customers", "note": note}],
        })
        .to_string(),
    )
    .unwrap();
    for provider in PROVIDERS {
        let without = pinned(&demo(), None, provider);
        let with = pinned(&demo(), Some(&notes.0), provider);
        for ((mode, (plain, tools)), (_, (noted, same_tools))) in without.iter().zip(&with) {
            assert!(!plain.to_string().contains(note), "{provider:?}, {mode:?}");
            assert!(noted.to_string().contains(note), "{provider:?}, {mode:?}");
            assert_eq!(tools, same_tools, "{provider:?}, {mode:?}");
        }
    }
}

#[test]
fn what_cannot_be_pinned_is_said_plainly() {
    // A file that is not a database.
    let not_sqlite = Scratch::new("pin-not-sqlite");
    std::fs::write(&not_sqlite.0, "id,name\n1,Alice\n").unwrap();
    let error = first_requests(&not_sqlite.0, None, &[], ProviderKind::OpenAi).unwrap_err();
    assert!(matches!(error, PinError::Opening(_)), "{error:?}");
    let message = error.to_string();
    assert!(message.contains("not a SQLite database"), "{message}");
    assert!(message.contains("pin-not-sqlite"), "{message}");

    // A database that is not there.
    let missing = Path::new(env!("CARGO_MANIFEST_DIR")).join("www/demo/no-such.db");
    let message = first_requests(&missing, None, &[], ProviderKind::OpenAi)
        .unwrap_err()
        .to_string();
    assert!(message.contains("no-such.db: no such file"), "{message}");

    // A notes file that is not one.
    let message = first_requests(&demo(), Some(&not_sqlite.0), &[], ProviderKind::OpenAi)
        .unwrap_err()
        .to_string();
    assert!(
        message.contains("cannot read the knowledge file"),
        "{message}"
    );

    // A name to hide that the database does not have.
    let hide = ["customers.emial".to_string()];
    let message = first_requests(&demo(), None, &hide, ProviderKind::OpenAi)
        .unwrap_err()
        .to_string();
    assert!(
        message.contains("customers.emial: this database has no such table or column"),
        "{message}"
    );
}

#[test]
fn hiding_a_column_leaves_it_out_of_the_pinned_prompt() {
    // The positive control of the option: a name hidden as the page's ?hide= hides it.
    let hide = ["customers.joined_at".to_string()];
    let [(_, plain), _] = pinned(&demo(), None, ProviderKind::Anthropic)
        .try_into()
        .expect("two modes");
    let hidden = first_requests(&demo(), None, &hide, ProviderKind::Anthropic).unwrap();
    let (system, _) = prefix::parts(ProviderKind::Anthropic, &hidden[0].1).unwrap();
    assert!(plain.0.to_string().contains("joined_at"));
    assert!(!system.to_string().contains("joined_at"));
}
