//! `askdb-eval`: golden questions asked of a model by the same agent as the askdb page, natively
//! (rusqlite, a blocking HTTP client), judged by their results; a report in Markdown and JSON.
//!
//! ```text
//! ASKDB_API_KEY=… cargo run --release --bin askdb-eval -- \
//!     --db tests/datasets/chinook/Chinook_Sqlite.sqlite \
//!     --questions tests/datasets/chinook/questions_spider_chinook_1.json \
//!     --provider openai --model gpt-4.1-mini --out eval-report
//! ```
//!
//! Exit status: 0 when the questions were asked (whatever the answers), 2 when the command line
//! needs fixing, 1 when the run could not be done.

#[cfg(not(target_arch = "wasm32"))]
mod args;
#[cfg(not(target_arch = "wasm32"))]
mod error;
#[cfg(not(target_arch = "wasm32"))]
mod key;
#[cfg(not(target_arch = "wasm32"))]
mod questions;
#[cfg(not(target_arch = "wasm32"))]
mod run;
#[cfg(not(target_arch = "wasm32"))]
mod watch;

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    use clap::Parser;
    use std::process::ExitCode;

    let args = args::Args::parse(); // exits with status 2 on a bad argument, after saying why
    let env = |name: &str| std::env::var(name).ok();
    let key = args.api_key(env).unwrap_or_default();
    match run::run(&args, env) {
        Ok(finished) => {
            eprintln!(
                "reports: {} and {}",
                finished.markdown.display(),
                finished.json.display()
            );
            println!("{}", finished.report.summary());
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("askdb-eval: {}", run::without_key(&error.to_string(), &key));
            ExitCode::from(error.exit_code())
        }
    }
}

/// The runner needs files, sockets and threads: there is nothing for it to do in a browser.
#[cfg(target_arch = "wasm32")]
fn main() {
    panic!("askdb-eval runs natively only: cargo run --release --bin askdb-eval -- --help");
}
