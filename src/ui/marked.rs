//! A sentence with data in it (`present::marked`: a name, a value, an address, SQLite's or a
//! server's words): each datum in a `<span translate="no">` of its own. The data is not the
//! page's words: it stays as it is in every language, and a browser's translator leaves it alone.

use crate::present::marked::pieces;
use leptos::prelude::*;

/// `said`, its data each in a `<span translate="no">`.
pub fn marked(said: &str) -> AnyView {
    pieces(said)
        .into_iter()
        .map(|piece| match piece.data {
            true => view! { <span translate="no">{piece.text}</span> }.into_any(),
            false => piece.text.into_any(),
        })
        .collect_view()
        .into_any()
}
