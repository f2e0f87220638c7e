//! Mounts the page. All logic lives in the library.

#[cfg(all(target_arch = "wasm32", feature = "page"))]
fn main() {
    askdb::ui::mount();
}

#[cfg(not(all(target_arch = "wasm32", feature = "page")))]
fn main() {
    eprintln!("askdb runs in the browser: start it with `scripts/serve.sh` (see README.md).");
}
