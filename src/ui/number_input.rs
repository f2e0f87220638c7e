//! A number setting's input (the console's row cap and deadline, the model's temperature and
//! step limit): a typed number inside the range is taken; anything else puts back the value
//! that stands.

use leptos::prelude::*;
use std::fmt::Display;
use std::ops::RangeInclusive;
use std::str::FromStr;

/// `value` is the setting as the input shows it; `set` takes a typed number within `range`,
/// which also gives the input its `min` and `max`.
#[component]
pub fn NumberInput<T, S>(
    testid: &'static str,
    range: RangeInclusive<T>,
    step: &'static str,
    value: Signal<String>,
    set: S,
) -> impl IntoView
where
    T: FromStr + PartialOrd + Display + 'static,
    S: Fn(T) + 'static,
{
    let (min, max) = (range.start().to_string(), range.end().to_string());
    let on_change = move |event: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&event);
        match input.value().trim().parse::<T>() {
            Ok(n) if range.contains(&n) => set(n),
            // Not a usable number: show the setting that stands.
            _ => input.set_value(&value.get_untracked()),
        }
    };
    view! {
        <input
            type="number"
            class="number-input"
            data-testid=testid
            min=min
            max=max
            step=step
            prop:value=move || value.get()
            on:change=on_change
        />
    }
}
