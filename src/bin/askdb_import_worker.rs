//! The import worker (`askdb-import-worker`): Trunk builds it as a Web Worker (index.html's
//! `data-type="worker"` link); `askdb::import::worker` does the work. Natively it only says so.

#[cfg(target_arch = "wasm32")]
fn main() {
    askdb::import::worker::run();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("askdb-import-worker runs in the browser, as the page's import worker");
    std::process::exit(2);
}
