//! Schema selection per question, end to end in the agent: on a database too large to send
//! whole (Sakila, Northwind, Chinook and Mondial merged into one file of 86 tables with
//! prefixes, `tests/support/merge_databases.py`), the first request of each question carries
//! the columns of the tables it needs, and the values it names beside their columns; the system
//! prompt stays the same bytes from question to question; nothing hidden and none of askdb's
//! knowledge tables is ever shown.
#![cfg(not(target_arch = "wasm32"))] // rusqlite, through tests/support

mod support;

use askdb::agent::selection::values::{self, Bounds, IndexPlan};
use askdb::agent::{EventKind, SchemaSent, Session};
use askdb::clock::SystemClock;
use askdb::knowledge::{Knowledge, Note, Source, Term};
use askdb::llm::{ChatRequest, Message};
use askdb::search::values::ValueIndex;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use support::scripted_llm::{ask, calls, final_answer, session, Episode};
use support::RusqliteDb;

/// The merged database, made once per test run.
fn merged() -> &'static PathBuf {
    static MERGED: OnceLock<PathBuf> = OnceLock::new();
    MERGED.get_or_init(|| {
        let out = std::env::temp_dir().join(format!("askdb-merged-{}.db", std::process::id()));
        let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/support/merge_databases.py");
        let status = std::process::Command::new("python3")
            .arg(script)
            .arg(&out)
            .args([
                format!("sk_={}", support::dataset("sakila/sakila.db").display()),
                format!(
                    "nw_={}",
                    support::dataset("northwind/northwind.db").display()
                ),
                format!(
                    "ch_={}",
                    support::dataset("chinook/Chinook_Sqlite.sqlite").display()
                ),
                format!("mo_={}", support::dataset("mondial/mondial.db").display()),
            ])
            .status()
            .expect("python3 runs the merge script");
        assert!(status.success(), "the merge script failed");
        out
    })
}

fn values_of(db: &RusqliteDb, session: &Session) -> Arc<ValueIndex> {
    Arc::new(futures::executor::block_on(values::build(
        db,
        session.schema(),
        &IndexPlan::Sample {
            rows_per_table: 20_000,
        },
        &Bounds {
            time_ms: 60_000.0,
            ..Bounds::default()
        },
        &SystemClock::new(),
    )))
}

/// The question's own message in the first request (the question, then what goes with it).
fn first_message(episode: &Episode) -> &str {
    match episode.requests[0].messages.last() {
        Some(Message::User { text }) => text,
        other => panic!("the first request ends with {other:?}"),
    }
}

fn schema_event(episode: &Episode) -> &SchemaSent {
    episode
        .events
        .iter()
        .find_map(|event| match &event.kind {
            EventKind::Schema(sent) => Some(sent),
            _ => None,
        })
        .expect("a schema event")
}

fn picked(episode: &Episode) -> Vec<String> {
    schema_event(episode)
        .tables
        .iter()
        .map(|t| t.name.clone())
        .collect()
}

fn answered(sql: &str) -> Vec<support::scripted_llm::Turn> {
    vec![calls(vec![final_answer("c1", "answered", sql)])]
}

fn system(request: &ChatRequest) -> &str {
    &request.system
}

#[test]
fn on_a_database_too_large_to_send_whole_each_question_brings_its_tables_and_values() {
    let db = RusqliteDb::open(merged());
    let mut session = session(&db);
    assert_eq!(session.schema().tables.len(), 86);
    session.set_values(values_of(&db, &session));

    let horror = ask(
        &db,
        &mut session,
        "Which horror films were rented most often?",
        answered("SELECT 1"),
    );
    let message = first_message(&horror);
    // The system prompt names the tables; the columns come with the question.
    assert!(!system(&horror.requests[0]).contains("rental_rate"));
    assert!(system(&horror.requests[0]).contains("sk_film ("));
    for table in ["sk_film", "sk_category", "sk_rental"] {
        assert!(
            picked(&horror).contains(&table.to_string()),
            "{table} not picked: {:?}",
            picked(&horror)
        );
        assert!(message.contains(&format!("\n{table} (")), "{message}");
    }
    // The table between film and rental comes along its keys.
    assert!(picked(&horror).contains(&"sk_inventory".to_string()));
    assert!(message.contains("rental_rate"), "film's columns are there");
    assert!(
        message.contains("sk_category.name has 'Horror'"),
        "{message}"
    );
    assert!(
        !picked(&horror).iter().any(|t| t.starts_with("nw_")),
        "{:?}",
        picked(&horror)
    );
    // Why each table was picked, for the transcript.
    let sent = schema_event(&horror);
    assert!(!sent.whole);
    assert!(sent.tables.iter().all(|t| !t.why.is_empty()));
    assert!(sent.first_request_bytes > sent.bytes && sent.bytes == sent_bytes(message));

    // A value the question names picks its table, written as the data writes it.
    let shipped = ask(
        &db,
        &mut session,
        "How many orders did Speedy Express ship?",
        answered("SELECT 1"),
    );
    let message = first_message(&shipped);
    assert!(
        message.contains("nw_Shippers.CompanyName has 'Speedy Express'"),
        "{message}"
    );
    assert!(picked(&shipped).contains(&"nw_Shippers".to_string()));
    assert!(picked(&shipped).contains(&"nw_Orders".to_string()));

    // The system prompt is the same bytes for both questions (providers cache it).
    assert_eq!(
        system(&horror.requests[0]),
        system(&shipped.requests[0]),
        "the system prompt changed with the question"
    );
}

/// The bytes of what went after the question in its message.
fn sent_bytes(message: &str) -> usize {
    message
        .find("\n\n---\nSchema")
        .map_or(0, |at| message.len() - at)
}

#[test]
fn notes_and_the_glossary_lead_a_question_in_another_language_to_english_tables() {
    let db = RusqliteDb::open(merged());
    let mut session = session(&db);
    session.set_knowledge(Knowledge {
        notes: vec![Note {
            table: "ch_Genre".into(),
            column: None,
            text: "音楽のジャンル（ジャズ、ロック、クラシック）".into(),
            source: Source::Person,
        }],
        glossary: vec![Term {
            term: "grenzen".into(),
            meaning: "Nachbarländer stehen in mo_borders (Country1, Country2)".into(),
            source: Source::Person,
        }],
        ..Knowledge::default()
    });
    let japanese = ask(
        &db,
        &mut session,
        "ジャンルごとの曲数は？",
        answered("SELECT 1"),
    );
    assert!(
        picked(&japanese).contains(&"ch_Genre".to_string()),
        "{:?}",
        picked(&japanese)
    );
    assert!(first_message(&japanese).contains("\nch_Genre ("));
    let german = ask(
        &db,
        &mut session,
        "Welche Länder grenzen an Polen?",
        answered("SELECT 1"),
    );
    assert!(
        picked(&german).contains(&"mo_borders".to_string()),
        "{:?}",
        picked(&german)
    );
    // Positive control: without the glossary the same question finds no border table.
    session.set_knowledge(Knowledge::default());
    let bare = ask(
        &db,
        &mut session,
        "Welche Länder grenzen an Polen?",
        answered("SELECT 1"),
    );
    assert!(!picked(&bare).contains(&"mo_borders".to_string()));
}

#[test]
fn selection_never_shows_a_hidden_table_a_hidden_column_or_a_knowledge_table() {
    let db = RusqliteDb::open(merged());
    let whole = session(&db);
    // Hidden: Northwind's employees, and the names of its shippers: the model reads the copy
    // without them, made as the page makes it.
    let derived = support::hiding::derive(
        merged(),
        &["nw_Employees", "nw_Shippers.CompanyName"],
        "selection",
    );
    let copy = RusqliteDb::open(&derived.copy.0);
    let mut seen = session(&copy);
    assert!(seen.schema().table("nw_Employees").is_none(), "control");
    // The index built on the whole database, as a page that forgot the copy would: the
    // session keeps it within what the model sees.
    seen.set_values(values_of(&db, &whole));
    let question = "Which employees shipped with Speedy Express?";
    let episode = ask(&copy, &mut seen, question, answered("SELECT 1"));
    let after = &first_message(&episode)[question.len()..];
    assert!(!picked(&episode).contains(&"nw_Employees".to_string()));
    assert!(!after.contains("nw_Employees ("), "{after}");
    assert!(!after.contains("Speedy Express"), "{after}");
    assert!(!after.contains("CompanyName TEXT NOT NULL"), "{after}");
    assert!(!system(&episode.requests[0]).contains("nw_Employees"));
    // Positive control: on the whole database the same question brings both.
    let mut open = whole.clone();
    open.set_values(values_of(&db, &whole));
    let control = ask(&db, &mut open, question, answered("SELECT 1"));
    let after = &first_message(&control)[question.len()..];
    assert!(picked(&control).contains(&"nw_Employees".to_string()));
    assert!(after.contains("has 'Speedy Express'"), "{after}");

    // askdb's own tables are never data: the shop with knowledge tables in it, and the value
    // index built on every table of the file.
    let file =
        std::env::temp_dir().join(format!("askdb-selection-knowing-{}.db", std::process::id()));
    std::fs::copy(support::dataset("shop/shop.db"), &file).expect("a copy");
    let sql = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/datasette/knowing.sql"),
    )
    .expect("knowing.sql");
    rusqlite::Connection::open(&file)
        .and_then(|c| c.execute_batch(&sql))
        .expect("the knowledge tables");
    let knowing = RusqliteDb::open(&file);
    let everything = futures::executor::block_on(askdb::engine::schema::load(
        &knowing,
        &askdb::engine::QueryLimits::default(),
    ))
    .expect("schema");
    assert!(
        everything.tables.iter().any(|t| t.name == "askdb_checks"),
        "control"
    );
    let every_value = Arc::new(futures::executor::block_on(values::build(
        &knowing,
        &everything,
        &IndexPlan::Sample {
            rows_per_table: 1_000,
        },
        &Bounds::default(),
        &SystemClock::new(),
    )));
    let mut session = Session::new(everything);
    session.set_values(every_value);
    let question = "What do the notes and checks say about Tokyo?";
    let notes = ask(&knowing, &mut session, question, answered("SELECT 1"));
    let after = &first_message(&notes)[question.len()..];
    assert!(!after.contains("askdb_"), "{after}");
    assert!(!after.contains("golden"), "{after}");
    assert!(after.contains("has 'Tokyo'"), "{after}");
}
