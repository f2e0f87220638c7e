//! The page (Leptos, client-side rendering).

pub fn mount() {
    console_error_panic_hook::set_once();
}
