//! The box a table scrolls in when it is wider or longer than the page gives it, the one kind
//! for every table (results, step cards, answers' Markdown, the calibration): a named region
//! one can Tab to, so that it scrolls with the arrow keys too (WCAG 2.1.1) and is named when
//! reached.

use leptos::prelude::*;

#[component]
pub fn TableScroll(
    /// What a screen reader names the region: a message read in the page's language
    /// (`Signal::derive(|| tr!(…))`, which follows a change of language).
    #[prop(into)]
    label: Signal<String>,
    /// The step cards' smaller box.
    #[prop(optional)]
    mini: bool,
    #[prop(optional, into)] test_id: Option<String>,
    children: Children,
) -> impl IntoView {
    view! {
        <div
            class="table-scroll"
            class:mini=mini
            data-testid=test_id
            tabindex="0"
            role="region"
            aria-label=label
        >
            {children()}
        </div>
    }
}
