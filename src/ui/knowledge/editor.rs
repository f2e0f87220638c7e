//! A table's or column's note in the schema panel: its text (always as text, long ones folded
//! with "more") and where it came from; on the full page, a button that opens a small editor
//! (Save, Cancel, Delete; Esc cancels, Ctrl/⌘+Enter saves).

use super::super::app_state;
use super::super::state::AppState;
use crate::knowledge::person::MAX_NOTE_CHARS;
use crate::knowledge::{Note, Source};
use crate::tr;
use crate::ui::language::tr_live;
use leptos::ev::KeyboardEvent;
use leptos::html::{Button, Textarea};
use leptos::prelude::*;

/// A note longer than this (or with more lines) starts folded.
const FOLD_OVER_CHARS: usize = 240;
const FOLD_OVER_LINES: usize = 3;

/// The note on `table` (or on its `column`): `button` goes in the item's row of actions,
/// `body` under its name. Without `editable` there is no button (the embedded page).
pub struct NoteView {
    pub button: Option<AnyView>,
    pub body: AnyView,
}

impl NoteView {
    pub fn new(table: &str, column: Option<&str>, editable: bool) -> NoteView {
        let state = app_state();
        let place = Place {
            table: table.to_string(),
            column: column.map(str::to_string),
        };
        let editing = RwSignal::new(false);
        // Focus goes back to the button when the editor closes.
        let opener = NodeRef::<Button>::new();
        let note = {
            let place = place.clone();
            Memo::new(move |_| state.assistant.knowledge.with(|k| place.note_in(&k.merged)))
        };
        let button = editable.then(|| edit_button(&place, note, editing, opener).into_any());
        let body = {
            let place = place.clone();
            move || {
                if editing.get() {
                    Some(editor(state, place.clone(), note, editing, opener).into_any())
                } else {
                    note.get().map(|note| note_text(note).into_any())
                }
            }
        };
        NoteView {
            button,
            body: body.into_any(),
        }
    }
}

/// Where a note is: a table, or one of its columns.
#[derive(Clone, PartialEq)]
struct Place {
    table: String,
    column: Option<String>,
}

impl Place {
    fn note_in(&self, knowledge: &crate::knowledge::Knowledge) -> Option<Note> {
        match &self.column {
            Some(column) => knowledge.column_note(&self.table, column),
            None => knowledge.table_note(&self.table),
        }
        .cloned()
    }

    /// "customers" or "customers.email", for labels.
    fn name(&self) -> String {
        match &self.column {
            Some(column) => format!("{}.{column}", self.table),
            None => self.table.clone(),
        }
    }
}

fn edit_button(
    place: &Place,
    note: Memo<Option<Note>>,
    editing: RwSignal<bool>,
    opener: NodeRef<Button>,
) -> impl IntoView {
    let name = place.name();
    let on_column = place.column.is_some();
    view! {
        <button
            node_ref=opener
            class=if on_column { "note-button column-toggle" } else { "note-button link-button" }
            data-testid="note-edit"
            aria-expanded=move || editing.get().to_string()
            aria-label=move || {
                // Starts with the visible words ("edit note", "+ note"), so that a person who
                // speaks to their computer can say what they see (WCAG 2.5.3).
                let name = name.clone();
                if note.with(Option::is_some) {
                    tr!("notes-edit-label", name = name)
                } else {
                    tr!("notes-add-label", name = name)
                }
            }
            on:click=move |_| editing.update(|open| *open = !*open)
        >
            {move || match (note.with(Option::is_some), on_column) {
                (true, true) => tr!("notes-edit-column"),
                (false, true) => tr!("notes-add-column"),
                (true, false) => tr!("notes-edit-table"),
                (false, false) => tr!("notes-add-table"),
            }}
        </button>
    }
}

/// The note's text as text, folded when long, and its source.
fn note_text(note: Note) -> impl IntoView {
    let long =
        note.text.chars().count() > FOLD_OVER_CHARS || note.text.lines().count() > FOLD_OVER_LINES;
    let unfolded = RwSignal::new(false);
    let more = long.then(|| {
        view! {
            <button
                class="link-button note-more"
                aria-expanded=move || unfolded.get().to_string()
                on:click=move |_| unfolded.update(|u| *u = !*u)
            >
                {move || if unfolded.get() { tr!("notes-less") } else { tr!("notes-more") }}
            </button>
        }
    });
    view! {
        <div class="note" data-testid="note" data-source=source_name(note.source)>
            <p
                class="note-text"
                class:folded=move || long && !unfolded.get()
                data-testid="note-text"
                translate="no"
            >
                {note.text}
            </p>
            <span class="note-source">{move || source_label(note.source)}</span>
            {more}
        </div>
    }
}

/// The source as the page shows it ("schema comment"; `Source::label` in English).
pub(super) fn source_label(source: Source) -> String {
    match source {
        Source::Schema => tr!("notes-source-schema"),
        Source::Database => tr!("notes-source-database"),
        Source::Sidecar => tr!("notes-source-sidecar"),
        Source::Person => tr!("notes-source-person"),
    }
}

/// The source as the tests and styles name it (the notes file's own word for it).
fn source_name(source: Source) -> &'static str {
    match source {
        Source::Schema => "schema",
        Source::Database => "database",
        Source::Sidecar => "sidecar",
        Source::Person => "person",
    }
}

/// The note's editor: the text, Save, Cancel and (for the person's own note) Delete.
fn editor(
    state: AppState,
    place: Place,
    note: Memo<Option<Note>>,
    editing: RwSignal<bool>,
    opener: NodeRef<Button>,
) -> impl IntoView {
    let close = move || close_editor(editing, opener);
    let input = NodeRef::<Textarea>::new();
    input.on_load(|element| {
        let _ = element.focus();
    });
    let text = RwSignal::new(note.get_untracked().map(|n| n.text).unwrap_or_default());
    let save = {
        let place = place.clone();
        move || {
            super::save_note(
                state,
                &place.table,
                place.column.as_deref(),
                &text.get_untracked(),
            );
            close();
        }
    };
    let on_key = {
        let save = save.clone();
        move |event: KeyboardEvent| match event.key().as_str() {
            "Escape" => {
                event.prevent_default();
                close();
            }
            "Enter" if event.ctrl_key() || event.meta_key() => {
                event.prevent_default();
                save();
            }
            _ => {}
        }
    };
    let name = place.name();
    view! {
        <div class="note-editor">
            <textarea
                node_ref=input
                data-testid="note-input"
                aria-label=move || tr!("notes-editor-label", name = name.clone())
                rows="3"
                maxlength=MAX_NOTE_CHARS.to_string()
                placeholder=tr_live("notes-editor-placeholder")
                prop:value=move || text.get()
                on:input=move |event| text.set(event_target_value(&event))
                on:keydown=on_key
            ></textarea>
            <div class="note-editor-actions">
                <button
                    class="button small primary"
                    data-testid="note-save"
                    title=tr_live("notes-save-title")
                    on:click=move |_| save()
                >
                    {tr_live("notes-save")}
                </button>
                <button class="button small" data-testid="note-cancel" on:click=move |_| close()>
                    {tr_live("notes-cancel")}
                </button>
                {delete_button(state, place, editing, opener)}
            </div>
        </div>
    }
}

/// Closes the editor and gives the focus back to the button that opened it.
fn close_editor(editing: RwSignal<bool>, opener: NodeRef<Button>) {
    editing.set(false);
    if let Some(button) = opener.get_untracked() {
        let _ = button.focus();
    }
}

/// "Delete my note", shown only while the note at `place` is the person's own.
fn delete_button(
    state: AppState,
    place: Place,
    editing: RwSignal<bool>,
    opener: NodeRef<Button>,
) -> impl IntoView {
    let persons = {
        let place = place.clone();
        move || {
            state
                .assistant
                .knowledge
                .with(|k| super::is_persons(k, &place.table, place.column.as_deref()))
        }
    };
    let delete = move || {
        super::delete_note(state, &place.table, place.column.as_deref());
        close_editor(editing, opener);
    };
    move || {
        persons().then(|| {
            let delete = delete.clone();
            view! {
                <button
                    class="button small danger"
                    data-testid="note-delete"
                    title=tr_live("notes-delete-title")
                    on:click=move |_| delete()
                >
                    {tr_live("notes-delete")}
                </button>
            }
        })
    }
}
