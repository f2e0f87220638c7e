//! Parts of the page that only some visits need, downloaded the first time they are used.
//!
//! A first visit downloads the page's main wasm only: what shows the panels and takes a file.
//! What an open database needs (opening it, the model's view, its notes, the value index: the
//! chunk `database`, fetched as soon as the person is about to open something), asking (with
//! the providers and Markdown's reader), replaying, and the golden run are each behind
//! functions declared with [`on_first_use!`]. `scripts/build-page-wasm.sh` moves those
//! functions, and everything only they reach, into their chunk (`split_<chunk>.wasm`; code that several chunks share goes into a
//! `chunk_<n>.wasm` they load with them), fetched by `__wasm_split.js` on the first call and
//! then kept. The chunks share the main wasm's memory: Rust values cross as they are, nothing
//! is copied or serialized.
//!
//! Views too: most of the page's code is its views, and a first visit draws few of them. The
//! schema panel and a result's table (drawn only once something is open: the database chunk),
//! the questions and answers (`answers`), Settings' fields (`settings`) and the golden run's
//! panel are drawn by chunk functions through [`when_here`].
//!
//! What keeps code in the main wasm though only a chunk calls it: being reached from the main
//! wasm too, through a call or through a pointer kept in data that the main wasm reads (a
//! `static` table of functions, a trait object's vtable). So the providers' wire functions are
//! chosen by a `match` (`llm::wire`), not kept in their descriptors.
//!
//! A chunk that cannot be downloaded (the connection is down) is a [`NotLoaded`] error, said to
//! the person where the action was asked for (what the page does on its own, the value index
//! after an open, goes without); a later call tries the download again.

use crate::ui::language::tr_live;
use futures::FutureExt;
use leptos::prelude::*;
use send_wrapper::SendWrapper;
use std::fmt;
use std::future::Future;

/// A part of the page could not be downloaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotLoaded;

impl From<leptos::wasm_split::SplitLoaderError> for NotLoaded {
    fn from(_: leptos::wasm_split::SplitLoaderError) -> NotLoaded {
        // The loader writes the browser's reason to the console; it keeps no detail for us.
        NotLoaded
    }
}

/// Said to the person only (never to the model, nor in a log): in the page's language.
impl fmt::Display for NotLoaded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::tr!("open-part-not-loaded"))
    }
}

/// Declares an async function whose body, and whatever only it reaches, is downloaded on its
/// first call, in the chunk named first (all functions naming it go into the same one):
///
/// ```ignore
/// on_first_use! {
///     assistant =>
///     /// Why it is here.
///     pub fn ask_now(chat: ChatState, asked: Asked) -> () {
///         chat.run(asked).await
///     }
/// }
/// // ask_now(chat, asked).await: Result<(), NotLoaded>
/// ```
///
/// `chunk, preload(name) =>` also declares `async fn name() -> Result<(), SplitLoaderError>`,
/// which downloads the chunk without calling anything in it (ahead of a likely first use).
///
/// The arguments are moved into the chunk only once it is there: when the download fails they
/// are dropped, so what must outlive a failed download stays with the caller. The function
/// cannot be generic or take `self` (it is an import of the main wasm from the chunk).
macro_rules! on_first_use {
    (
        $chunk:ident $(, preload($preload:ident))? =>
        $(#[$attr:meta])*
        $vis:vis fn $name:ident($($arg:ident: $ty:ty),* $(,)?) -> $out:ty $body:block
    ) => {
        $(#[$attr])*
        #[leptos::wasm_split::wasm_split(
            $chunk,
            wasm_split_path = leptos::wasm_split,
            fallible,
            $(preload($preload),)?
            return_wrapper(let future = _; { future.await } -> Result<$out, $crate::ui::lazy::NotLoaded>)
        )]
        $vis fn $name(
            $($arg: $ty),*
        ) -> std::pin::Pin<Box<dyn std::future::Future<Output = Result<$out, $crate::ui::lazy::NotLoaded>>>> {
            Box::pin(async move { Ok($body) })
        }
    };
}
pub(crate) use on_first_use;

/// A view drawn by a function downloaded on first use (an [`on_first_use!`] function returning
/// an `AnyView`): `{when_here(schema_in_chunk(state, open))}`. Drawn at once when its chunk is
/// already here, as it is when something has been opened; else nothing until it arrives, or
/// what went wrong if it cannot be downloaded.
///
/// Why views are downloaded this way: a view's code is most of the page's wasm, and a first
/// visit draws only a few of them (issues 41 and 43: the first visit's size).
pub fn when_here(view: impl Future<Output = Result<AnyView, NotLoaded>> + 'static) -> AnyView {
    // "Try again" beside a failed download draws the view that called this one again, which
    // calls it again: that view is reactive, and now depends on this trigger too.
    let again = ArcTrigger::new();
    again.track();
    let mut view = Box::pin(view);
    // Here already: drawn now, as any other view (a redraw replaces it at once; Leptos's
    // `Suspend` would redraw a tick later, when what the old view read may be gone).
    if let Some(drawn) = view.as_mut().now_or_never() {
        return drawn.unwrap_or_else(|not_loaded| not_loaded_view(not_loaded, again));
    }
    // Leptos asks for a future that may cross threads; the page has one thread.
    Suspend::new(SendWrapper::new(async move {
        view.await
            .unwrap_or_else(|not_loaded| not_loaded_view(not_loaded, again))
    }))
    .into_any()
}

fn not_loaded_view(not_loaded: NotLoaded, again: ArcTrigger) -> AnyView {
    view! {
        <p class="error" role="alert" data-testid="part-not-loaded">
            {not_loaded.to_string()}" "
            <button type="button" class="link-button" on:click=move |_| again.notify()>
                {tr_live("part-try-again")}
            </button>
        </p>
    }
    .into_any()
}
