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
//!
//! Beside it, for documentation that embeds askdb: `askdb-eval record` (questions written as
//! conversation files the page replays) and `askdb-eval replay-check` (a recording replayed on
//! its database with no model; exit status 1 when it no longer matches).

#[cfg(not(target_arch = "wasm32"))]
mod args;
#[cfg(not(target_arch = "wasm32"))]
mod error;
#[cfg(not(target_arch = "wasm32"))]
mod key;
#[cfg(not(target_arch = "wasm32"))]
mod questions;
#[cfg(not(target_arch = "wasm32"))]
mod record;
#[cfg(not(target_arch = "wasm32"))]
mod replay_check;
#[cfg(not(target_arch = "wasm32"))]
mod run;
#[cfg(not(target_arch = "wasm32"))]
mod watch;

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    use clap::Parser;
    use std::process::ExitCode;

    // The subcommands stand beside the evaluation's own command line, which stays as it was
    // (`askdb-eval --db …`): the first argument chooses.
    let mut argv: Vec<std::ffi::OsString> = std::env::args_os().collect();
    match argv.get(1).and_then(|first| first.to_str()) {
        Some("record") => {
            argv.remove(1);
            return record_main(record::RecordArgs::parse_from(argv));
        }
        Some("replay-check") => {
            argv.remove(1);
            return replay_check_main(replay_check::ReplayCheckArgs::parse_from(argv));
        }
        _ => {}
    }

    let args = args::Args::parse_from(argv); // exits with status 2 on a bad argument, after saying why
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

#[cfg(not(target_arch = "wasm32"))]
fn record_main(args: record::RecordArgs) -> std::process::ExitCode {
    use std::process::ExitCode;

    let env = |name: &str| std::env::var(name).ok();
    let key = args.model.api_key(env).unwrap_or_default();
    match record::run(&args, env) {
        Ok(recorded) => {
            for file in &recorded.files {
                println!("{}", file.display());
            }
            if recorded.unanswered.is_empty() {
                return ExitCode::SUCCESS;
            }
            for (number, why) in &recorded.unanswered {
                eprintln!("askdb-eval record: question {number} got no answer: {why}");
            }
            eprintln!(
                "askdb-eval record: the recordings are written, but a reader would see no answer \
                 to {} of them: ask again, or change the question",
                recorded.unanswered.len()
            );
            ExitCode::FAILURE
        }
        Err(error) => {
            eprintln!(
                "askdb-eval record: {}",
                run::without_key(&error.to_string(), &key)
            );
            ExitCode::from(error.exit_code())
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn replay_check_main(args: replay_check::ReplayCheckArgs) -> std::process::ExitCode {
    use std::process::ExitCode;

    match replay_check::run(&args) {
        Ok((reports, all_match)) => {
            for report in reports {
                print!("{report}");
            }
            if all_match {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(error) => {
            eprintln!("askdb-eval replay-check: {error}");
            ExitCode::from(error.exit_code())
        }
    }
}

/// The runner needs files, sockets and threads: there is nothing for it to do in a browser.
#[cfg(target_arch = "wasm32")]
fn main() {
    panic!("askdb-eval runs natively only: cargo run --release --bin askdb-eval -- --help");
}
