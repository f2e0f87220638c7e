//! What the model sees of an open database, decided in one place for the page and for
//! `askdb-eval` alike:
//!
//! 1. [`plan`]: what the model must not read (the person's hidden tables and columns, and
//!    askdb's knowledge tables, which are notes about the data and not data) and how that is
//!    enforced for this kind of database ([`Enforcement`]): nothing to leave out, a copy made
//!    without it (the script is part of the plan), or a refusal that says why;
//! 2. [`prepare`]: the database the model reads, from the plan (the whole one, a copy made by
//!    the caller's engine, or the whole one behind the fence: `engine::fenced`), and the
//!    schema as the model reads it; the page and `askdb-eval` both call it;
//! 3. [`ModelView::new`]: once the database the model reads is there (the whole one, or the
//!    copy), the schema the model is shown (without the knowledge tables) and the knowledge
//!    that goes with its questions (checked against that schema, and nothing that names a
//!    hidden table or column).
//!
//! Hiding is a mechanism, never a filter on the model's SQL: the model's queries run on a
//! database in which what is hidden does not exist. A kind of database that cannot be copied
//! gets another mechanism here, or a refusal; never the whole database in silence. The one
//! other mechanism is for askdb's knowledge tables alone, on a server: a fence of names
//! ([`knowledge_fence`]: the tables, and every view or virtual table that reads one, however
//! deep), which the database enforces on every query of the model's before anything is sent.

use crate::engine::fenced::Fenced;
use crate::engine::hidden::{derive_script, load_catalogue, CatalogueEntry, Hidden, ObjectKind};
use crate::engine::kind::{HidingMechanism, NoCopy};
use crate::engine::{Database, DbError, Schema};
use crate::knowledge::{is_knowledge_table, Knowledge, Problem, KNOWLEDGE_TABLES};
use crate::sql::fence::NameFence;
use std::rc::Rc;

/// How the model view is enforced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Enforcement {
    /// Nothing to leave out: the model reads the whole database.
    Whole,
    /// The model reads a copy of the database made by this script (`engine::hidden`).
    Copy { script: String },
    /// Something must be left out and this database cannot do it: the model is not asked.
    Refused(Refusal),
    /// Only the knowledge tables are left out: the model reads the whole database through a
    /// fence of names that refuses any query naming them or what reads them.
    Fenced { fence: NameFence },
}

/// Why the model is not asked (`present::hiding::refusal` says it): this database cannot be
/// copied, and the person hid something in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub no_copy: NoCopy,
    /// What the person hid: "customers.email", "payments".
    pub hidden: Vec<String>,
}

/// What the model must not read, and how that is enforced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViewPlan {
    /// The person's choice and the knowledge tables.
    pub left_out: Hidden,
    pub enforcement: Enforcement,
}

/// What the model view's copy leaves out of a database with `schema`: what the person `hidden`, and
/// the knowledge tables (not as the person's choice: they are not listed as hidden).
pub fn left_out(schema: &Schema, hidden: &Hidden) -> Hidden {
    let knowledge_tables: Vec<String> = schema
        .tables
        .iter()
        .filter(|table| is_knowledge_table(&table.name))
        .map(|table| table.name.clone())
        .collect();
    if knowledge_tables.is_empty() {
        return hidden.clone();
    }
    hidden.union(&Hidden::resolve(schema, &knowledge_tables).0)
}

/// The plan for the model view of `db` (whose schema is `schema`) with `hidden` kept from
/// it, by `mechanism`. A copy's script is written from the database's own catalogue, read
/// here; nothing is read when nothing is left out.
pub async fn plan<D: Database + ?Sized>(
    db: &D,
    schema: &Schema,
    hidden: &Hidden,
    mechanism: &HidingMechanism,
) -> Result<ViewPlan, DbError> {
    let left_out = left_out(schema, hidden);
    let enforcement = if left_out.is_empty() {
        Enforcement::Whole
    } else {
        match mechanism {
            HidingMechanism::Copy => {
                let catalogue = load_catalogue(db).await?;
                Enforcement::Copy {
                    script: derive_script(schema, &catalogue, &left_out),
                }
            }
            HidingMechanism::FenceKnowledge(_) if hidden.is_empty() => {
                let catalogue = load_catalogue(db).await?;
                Enforcement::Fenced {
                    fence: knowledge_fence(&catalogue),
                }
            }
            HidingMechanism::FenceKnowledge(no_copy) => Enforcement::Refused(Refusal {
                no_copy: *no_copy,
                hidden: hidden.names(),
            }),
        }
    };
    Ok(ViewPlan {
        left_out,
        enforcement,
    })
}

/// How the database the model reads was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Made {
    /// It is the open one: nothing to leave out.
    Whole,
    /// A copy without what is left out.
    Copy,
    /// The open one behind a fence of names around the knowledge tables.
    Fenced,
}

/// What [`prepare`] made ready for the model, or why the model is not asked.
pub enum Prepared<D> {
    Ready {
        /// The database the model's queries run on.
        database: Fenced<Rc<D>>,
        /// Its schema as the model reads it (before [`schema_for_model`]).
        schema: Schema,
        made: Made,
    },
    Refused(Refusal),
}

/// The database the model reads of `whole` (whose schema is `schema`), with `hidden` kept from
/// it by `mechanism` ([`plan`]): `whole` itself, the copy `copy` makes from a plan's script (a
/// database of the caller's engine, with its schema), or `whole` behind the knowledge fence.
pub async fn prepare<D: Database>(
    whole: &Rc<D>,
    schema: &Schema,
    hidden: &Hidden,
    mechanism: &HidingMechanism,
    copy: impl AsyncFnOnce(&D, &str) -> Result<(D, Schema), DbError>,
) -> Result<Prepared<D>, DbError> {
    let ready = |database, schema, made| Prepared::Ready {
        database,
        schema,
        made,
    };
    Ok(
        match plan(&**whole, schema, hidden, mechanism).await?.enforcement {
            Enforcement::Whole => ready(Fenced::open(whole.clone()), schema.clone(), Made::Whole),
            Enforcement::Refused(refusal) => Prepared::Refused(refusal),
            Enforcement::Fenced { fence } => {
                let seen = without_fenced(schema.clone(), &fence);
                ready(Fenced::new(whole.clone(), fence), seen, Made::Fenced)
            }
            Enforcement::Copy { script } => {
                let (copy, seen) = copy(whole, &script).await?;
                ready(Fenced::open(Rc::new(copy)), seen, Made::Copy)
            }
        },
    )
}

/// Tables that may hold what the knowledge tables hold, whatever the database: SQLite's samples
/// of index keys (`sqlite_stat3`, `sqlite_stat4`) and its raw pages (`sqlite_dbpage`, where
/// compiled in).
const ALWAYS_FENCED: [&str; 3] = ["sqlite_stat3", "sqlite_stat4", "sqlite_dbpage"];

/// The names the model's queries may not mention on a database described by `catalogue` (its
/// `sqlite_schema`), so that they read nothing of the knowledge tables: the tables, what SQLite
/// keeps of their keys and pages ([`ALWAYS_FENCED`]), every object whose name starts with a
/// fenced name and `_` (the shadow tables of a full-text index on one, which hold its text),
/// and every view or virtual table whose text names a fenced name, to any depth (a view over
/// a view over `askdb_checks`). A view whose text cannot be read counts as reading one.
/// Triggers and indexes are not read by a `SELECT`.
pub fn knowledge_fence(catalogue: &[CatalogueEntry]) -> NameFence {
    let mut fenced: Vec<String> = KNOWLEDGE_TABLES
        .iter()
        .chain(&ALWAYS_FENCED)
        .map(|name| name.to_string())
        .collect();
    loop {
        let fence = NameFence::new(&fenced);
        let more: Vec<String> = catalogue
            .iter()
            .filter(|entry| !fence.holds(&entry.name))
            .filter(|entry| {
                let name = entry.name.to_ascii_lowercase();
                let shadow = fence.names().any(|f| name.starts_with(&format!("{f}_")));
                let reads = match (&entry.kind, entry.sql.as_deref()) {
                    (ObjectKind::View, sql) => {
                        sql.is_none_or(|sql| fence.named_in(sql) != Ok(None))
                    }
                    (ObjectKind::Table, Some(sql)) if is_virtual(sql) => {
                        fence.named_in(sql) != Ok(None)
                    }
                    _ => false,
                };
                shadow || reads
            })
            .map(|entry| entry.name.clone())
            .collect();
        if more.is_empty() {
            return fence;
        }
        fenced.extend(more);
    }
}

/// `CREATE VIRTUAL TABLE …` (any case and spacing).
fn is_virtual(sql: &str) -> bool {
    let words: Vec<String> = sql
        .split_whitespace()
        .take(2)
        .map(str::to_ascii_lowercase)
        .collect();
    words == ["create", "virtual"]
}

/// The schema the model is shown of a database read through `fence`: without what it fences.
pub fn without_fenced(mut schema: Schema, fence: &NameFence) -> Schema {
    schema.tables.retain(|table| !fence.holds(&table.name));
    schema
}

/// The schema the model is shown, from the schema of the database it reads (the whole one, or
/// its copy): without the knowledge tables, which are notes about the data, not data.
pub fn schema_for_model(mut schema: Schema) -> Schema {
    schema
        .tables
        .retain(|table| !is_knowledge_table(&table.name));
    schema
}

/// The knowledge that goes with the model's questions: checked against the schema it is shown
/// (notes on what it cannot see dropped), then without anything that names a `hidden` table
/// or column. What was left out, and why.
pub fn knowledge_for_model(
    knowledge: Knowledge,
    model_schema: &Schema,
    hidden: &Hidden,
) -> (Knowledge, Vec<Problem>) {
    let (validated, mut problems) = knowledge.validated(model_schema);
    let (kept, named_hidden) = validated.without_hidden(hidden);
    problems.extend(named_hidden);
    (kept, problems)
}

/// What the model is given about the database it reads.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModelView {
    /// The schema it is shown (prompt, `list_tables`, `describe_table`, safe mode's fields).
    pub schema: Schema,
    /// The notes, glossary, examples and golden questions that go with its questions.
    pub knowledge: Knowledge,
    /// What of the knowledge was left out, and why.
    pub left_out: Vec<Problem>,
}

impl ModelView {
    /// The view of a database whose schema, as the model reads it, is `read_schema` (the
    /// whole database's, or the copy's), with `knowledge` (every source merged) and what the
    /// person `hidden`.
    pub fn new(read_schema: Schema, knowledge: Knowledge, hidden: &Hidden) -> ModelView {
        let schema = schema_for_model(read_schema);
        let (knowledge, left_out) = knowledge_for_model(knowledge, &schema, hidden);
        ModelView {
            schema,
            knowledge,
            left_out,
        }
    }
}
