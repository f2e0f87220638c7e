//! Conversations kept in this browser (issue 40): each question that ends keeps the
//! conversation, as the text "Save conversation" would download (never a key), in IndexedDB
//! under the open database's key. Opening that database again lists its conversations; one
//! opened from the list is replayed as a saved file is (its answers' SQL run again on the
//! database), then goes on as the conversation. A reload brings back the conversation that
//! was open in the tab (its id is in `sessionStorage`, which lasts as long as the tab) once its
//! database is open again.

use super::{marked, ChatState};
use crate::browser::idb::{IdbError, Store};
use crate::conversation::kept::{newest_first, KeptConversation};
use crate::present::kept::ago;
use crate::present::marked::data;
use crate::present::replay::unreadable;
use crate::tr;
use leptos::prelude::*;
use std::sync::Arc;

/// Where the conversations are kept: an IndexedDB database, its store, and the field it is
/// indexed by (the database's key).
const IDB_NAME: &str = "askdb";
const STORE: &str = "conversations";
const BY_DATABASE: &str = "database";

/// The conversation open in this tab, in `sessionStorage`: a reload brings it back.
const OPEN_IN_TAB: &str = "askdb.open-conversation";

async fn store() -> Result<Store, IdbError> {
    Store::open(IDB_NAME, STORE, BY_DATABASE).await
}

/// The conversations kept for the database keyed `database`, newest first.
async fn kept_for(database: &str) -> Result<Vec<KeptConversation>, IdbError> {
    let found = store().await?.all_with(database).await?;
    let read = found
        .into_iter()
        .filter_map(|value| serde_wasm_bindgen::from_value(value).ok())
        .filter_map(KeptConversation::from_stored);
    Ok(newest_first(read.collect()))
}

/// Forgets every kept conversation ("Forget all" in Recent databases); the chat lists none.
pub async fn forget_every_conversation() -> Result<(), IdbError> {
    store().await?.clear().await?;
    on_page_forgets(|_| true);
    Ok(())
}

/// Forgets the conversations kept for the database keyed `database`.
pub async fn forget_conversations_of(database: &str) -> Result<(), IdbError> {
    let store = store().await?;
    for kept in kept_for(database).await? {
        store.delete(&kept.id).await?;
    }
    on_page_forgets(|kept| kept.database == database);
    Ok(())
}

/// The chat on the page no longer lists the conversations `forgotten` says.
fn on_page_forgets(forgotten: impl Fn(&KeptConversation) -> bool) {
    if let Some(chat) = super::ON_PAGE.with(std::cell::Cell::get) {
        chat.kept
            .update(|list| list.retain(|kept| !forgotten(kept)));
        chat.kept_as.set_value(None);
    }
}

fn tab_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok()?
}

impl ChatState {
    /// Keeps the conversation as it is now (a question just ended), under its id (a new one
    /// for its first question); what goes wrong is said beside the list.
    pub(super) fn keep_conversation(&self) {
        // A page embedded in documentation keeps nothing on its reader's behalf.
        if self
            .app
            .address
            .with_value(|address| address.presentation.embed)
        {
            return;
        }
        let Ok(file) = self.conversation_file() else {
            return;
        };
        let Some(Ok(database)) = self.app.identity.get_untracked().storage_key() else {
            return;
        };
        let id = self
            .kept_as
            .get_value()
            .unwrap_or_else(|| crate::browser::storage::new_id("c"));
        self.kept_as.set_value(Some(id.clone()));
        if let Some(tab) = tab_storage() {
            let _ = tab.set_item(OPEN_IN_TAB, &id);
        }
        let kept = KeptConversation::new(&id, &database, &file, js_sys::Date::now());
        let chat = *self;
        leptos::task::spawn_local(async move {
            let put = async {
                let value = serde_wasm_bindgen::to_value(&kept)
                    .map_err(|e| IdbError::Failed(e.to_string()))?;
                store().await?.put(&value).await
            };
            match put.await {
                Ok(()) => chat.list_kept(database, false),
                Err(why) => chat.kept_note.set(Some(tr!(
                    "chat-kept-not-kept",
                    why = data(&why.to_string())
                ))),
            }
        });
    }

    /// Lists the conversations kept for the open database (keyed `database`); with `restore`,
    /// the one open in this tab before a reload is opened again.
    pub(super) fn list_kept(&self, database: String, restore: bool) {
        if self
            .app
            .address
            .with_value(|address| address.presentation.embed)
        {
            return;
        }
        let chat = *self;
        let generation = self.generation.get_value();
        leptos::task::spawn_local(async move {
            let Ok(list) = kept_for(&database).await else {
                return;
            };
            // Another database opened meanwhile: its own list follows.
            if chat.generation.get_value() != generation {
                return;
            }
            let open_in_tab = tab_storage().and_then(|tab| tab.get_item(OPEN_IN_TAB).ok()?);
            let reopen = list
                .iter()
                .find(|kept| Some(&kept.id) == open_in_tab.as_ref())
                .cloned();
            chat.kept.set(list);
            if let Some(kept) = reopen.filter(|_| restore) {
                chat.open_kept(kept);
            }
        });
    }

    /// Opens a kept conversation: replayed on the open database all at once (its answers' SQL
    /// run again), then it goes on as the conversation, kept under the same id.
    fn open_kept(&self, kept: KeptConversation) {
        if self.task.running_untracked()
            || self
                .app
                .assistant
                .pending_replay
                .with_untracked(Option::is_some)
        {
            return;
        }
        match kept.conversation() {
            Ok(file) => {
                self.kept_note.set(None);
                self.kept_as.set_value(Some(kept.id.clone()));
                if let Some(tab) = tab_storage() {
                    let _ = tab.set_item(OPEN_IN_TAB, &kept.id);
                }
                self.pace.with_value(|pace| pace.set(0));
                self.app.assistant.pending_replay.set(Some(Arc::new(file)));
            }
            Err(why) => self.kept_note.set(Some(tr!(
                "chat-kept-unreadable",
                title = data(&kept.title),
                why = unreadable(&why)
            ))),
        }
    }

    /// Forgets the kept conversation `id` (the one on screen stays on screen).
    fn forget_kept(&self, id: String) {
        let chat = *self;
        leptos::task::spawn_local(async move {
            let forgotten = async { store().await?.delete(&id).await };
            match forgotten.await {
                Ok(()) => chat.kept.update(|list| list.retain(|kept| kept.id != id)),
                Err(why) => chat.kept_note.set(Some(tr!(
                    "chat-kept-not-forgotten",
                    why = data(&why.to_string())
                ))),
            }
            if chat.kept_as.get_value().as_ref() == Some(&id) {
                chat.kept_as.set_value(None);
            }
        });
    }

    /// A new conversation: the next question is kept apart from the last.
    pub(super) fn keep_apart(&self) {
        self.kept_as.set_value(None);
        if let Some(tab) = tab_storage() {
            let _ = tab.remove_item(OPEN_IN_TAB);
        }
    }
}

/// The conversations kept for the open database: each reopens with a click, or is forgotten.
#[component]
pub fn KeptConversations() -> impl IntoView {
    let chat = super::chat_state();
    let entries = move || {
        let now = js_sys::Date::now();
        chat.kept
            .get()
            .into_iter()
            .map(|kept| {
                let open_this = kept.clone();
                let id = kept.id.clone();
                let current = chat.kept_as.get_value().as_ref() == Some(&kept.id);
                let line = tr!(
                    "chat-kept-line",
                    questions = kept.questions,
                    ago = ago(now, kept.updated_at_ms)
                );
                let forget = tr!("chat-kept-forget-label", title = &kept.title);
                // Its first question, in the words it was asked in: not the page's to translate.
                view! {
                    <li class="recent-entry" data-testid="kept-conversation">
                        <button
                            class="link-button recent-name"
                            data-testid="kept-conversation-open"
                            aria-current=current.then_some("true")
                            on:click=move |_| chat.open_kept(open_this.clone())
                            translate="no"
                        >
                            {kept.title.clone()}
                        </button>
                        <span class="recent-line">{line}</span>
                        <button
                            class="button small recent-forget"
                            data-testid="kept-conversation-forget"
                            aria-label=forget
                            on:click=move |_| chat.forget_kept(id.clone())
                        >
                            {tr!("chat-kept-forget")}
                        </button>
                    </li>
                }
            })
            .collect_view()
    };
    let count = move || chat.kept.with(Vec::len);
    let any = move || chat.kept.with(|list| !list.is_empty());
    view! {
        <Show when=any>
            <details class="kept-conversations" data-testid="kept-conversations">
                <summary>{move || tr!("chat-kept-heading", count = count().to_string())}</summary>
                <ul class="recent-list">{entries}</ul>
            </details>
        </Show>
        {move || chat.kept_note.get().map(|note| view! {
            <p class="hint" data-testid="kept-conversation-note" role="status">{marked(&note)}</p>
        })}
    }
}
