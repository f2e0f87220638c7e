//! Mounts the page. All logic lives in the library.

#[cfg(target_arch = "wasm32")]
fn main() {
    askdb::ui::mount();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("askdb runs in the browser: start it with `scripts/serve.sh` (see README.md).");
}
