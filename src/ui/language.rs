//! The page's language: chosen before the page is drawn (`?lang=`, the choice kept in this
//! browser, the browser's languages; `i18n::choose`), its catalogue fetched then (English is
//! built in), and changed from the menu in the header without losing anything open.
//!
//! Every view reads its text with `tr!` inside a reactive closure; reading a message tracks
//! [`CHANGED`], so a change of language redraws exactly the text, nothing else.

use crate::browser::language::{
    browser_languages, fetch_text, format_number, plural_category, set_document_language,
};
use crate::browser::storage;
use crate::i18n::{self, catalogue::Catalogue, Formats, LANGUAGES};
use crate::tr;
use leptos::prelude::*;
use std::cell::RefCell;
use std::collections::HashMap;

/// Where the person's choice is kept in this browser.
const KEPT: &str = "askdb.language";

thread_local! {
    static CHANGED: ArcTrigger = ArcTrigger::new();
    /// Catalogues fetched in this tab, by tag: switching back and forth fetches once.
    static FETCHED: RefCell<HashMap<&'static str, Catalogue>> = RefCell::new(HashMap::new());
    /// What went wrong choosing or loading the language, said beside the menu.
    static PROBLEM: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Chooses the page's language and loads it, then calls `mount`. Called once, before anything
/// is drawn, so that a Japanese reader never sees the page in English first.
pub fn start(params: &[(String, String)], mount: impl FnOnce() + 'static) {
    i18n::set_formats(Formats {
        plural: Box::new(plural_category),
        number: Box::new(format_number),
    });
    i18n::set_on_read(Box::new(|| CHANGED.with(|changed| changed.track())));
    let asked = params
        .iter()
        .rev()
        .find(|(name, _)| name == "lang")
        .map(|(_, value)| value.clone());
    let kept = storage::read(KEPT);
    let choice = i18n::choose(asked.as_deref(), kept.as_deref(), &browser_languages());
    set_problem(choice.ignored.clone());
    if choice.tag == "en" {
        set_document_language("en");
        mount();
        return;
    }
    // Not Leptos's spawn_local: its executor starts with the mount, below.
    wasm_bindgen_futures::spawn_local(async move {
        // The ignored `?lang=` is said in the language the page ends up in.
        let ignored = choice.ignored.is_some();
        use_language(choice.tag).await;
        if ignored {
            set_problem(i18n::choose(asked.as_deref(), None, &[]).ignored);
        }
        mount();
    });
}

/// Switches the page to `tag`: fetches its catalogue if it is not yet here, then every text
/// on the page is read again. English if the catalogue cannot be had (and that is said).
pub async fn use_language(tag: &'static str) {
    if tag == "en" {
        i18n::set_english();
        finish("en");
        return;
    }
    let cached = FETCHED.with(|fetched| fetched.borrow().get(tag).cloned());
    let loaded = match cached {
        Some(catalogue) => Ok(catalogue),
        None => fetch_text(&format!("i18n/{tag}.ftl"))
            .await
            .and_then(|text| Catalogue::parse(&text).map_err(|error| error.to_string())),
    };
    match loaded {
        Ok(catalogue) => {
            FETCHED.with(|fetched| fetched.borrow_mut().insert(tag, catalogue.clone()));
            i18n::set_language(tag, catalogue);
            set_problem(None);
            finish(tag);
        }
        Err(why) => {
            i18n::set_english();
            let language = name_of(tag).to_string();
            set_problem(Some(tr!(
                "language-load-failed",
                language = language,
                why = why
            )));
            finish("en");
        }
    }
}

/// Readies the page's number format in a moment of its own (after what the caller is starting
/// now): the browser's first `Intl.NumberFormat` loads its locale data, 20-50 ms that an open
/// would otherwise spend drawing its first row counts (issue 43). Called when the person is
/// about to open something, and when they do; once made, the format is kept.
pub fn ready_numbers() {
    gloo_timers::callback::Timeout::new(0, || {
        i18n::number(0.0);
    })
    .forget();
}

fn finish(tag: &str) {
    set_document_language(tag);
    CHANGED.with(|changed| changed.notify());
}

fn set_problem(problem: Option<String>) {
    PROBLEM.with(|kept| *kept.borrow_mut() = problem);
}

/// What went wrong with the language, if anything (said beside the menu).
pub fn problem() -> Option<String> {
    CHANGED.with(|changed| changed.track());
    PROBLEM.with(|kept| kept.borrow().clone())
}

/// Message `id` as a view's text or an attribute's value, read again when the language changes:
/// `{tr_live("open-demo")}`, `title=tr_live("golden-button-title")`.
///
/// One function instead of `move || tr!("id")` at each place (a message with values still
/// needs its own closure): every closure is a type of its own, and Leptos compiles its
/// reactive text once per type, about 0.5 KB of wasm each; here all share one type.
pub fn tr_live(id: &'static str) -> impl Fn() -> String + Copy + Send + Sync + 'static {
    move || i18n::text(id, &[])
}

/// The page's language, tracked: a view that reads it is redrawn when it changes.
pub fn current() -> String {
    CHANGED.with(|changed| changed.track());
    i18n::language()
}

fn name_of(tag: &str) -> &'static str {
    LANGUAGES
        .iter()
        .find(|(known, _)| *known == tag)
        .map_or("?", |(_, name)| *name)
}

/// The language menu: each language by its own name. A choice is kept in this browser, except
/// by an embedded page, which keeps nothing on its reader's behalf.
#[component]
pub fn LanguageMenu(#[prop(optional)] keeps_choice: bool) -> impl IntoView {
    let on_change = move |event: leptos::ev::Event| {
        let value = event_target_value(&event);
        let Some(tag) = i18n::choose::known(&value) else {
            return;
        };
        if keeps_choice {
            // Not kept (a private window): the choice lasts for this page.
            let _ = storage::write(KEPT, tag);
        }
        leptos::task::spawn_local(use_language(tag));
    };
    let options = LANGUAGES
        .iter()
        .map(|(tag, name)| {
            let selected = move || current() == *tag;
            view! { <option value=*tag selected=selected lang=*tag>{*name}</option> }
        })
        .collect_view();
    view! {
        <label class="language-menu">
            <span class="language-label">{tr_live("language-label")}</span>
            <select data-testid="language" on:change=on_change>
                {options}
            </select>
        </label>
        {move || problem().map(|said| view! { <p class="language-problem" role="status">{said}</p> })}
    }
}
