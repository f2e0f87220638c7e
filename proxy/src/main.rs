//! askdb-proxy: an author's endpoint for askdb's live demos (docs/live-demos.md). It holds the
//! author's provider key and forwards only askdb's requests about the configured demos, within
//! the author's limits.

mod check;
mod config;
mod day;
mod forward;
mod limits;
mod pin;
mod reader;
mod refusal;
mod server;
mod state;
mod stats;
mod usage;

use askdb::llm::ProviderKind;
use clap::{Parser, Subcommand};
use config::{Config, PinSource};
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

#[derive(Parser)]
#[command(
    name = "askdb-proxy",
    version,
    about = "An author's endpoint for askdb's live demos: readers ask, the author pays, within limits."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serves the demos of a config (docs/live-demos.md, "The config").
    Serve {
        #[arg(long, default_value = "askdb-proxy.toml")]
        config: PathBuf,
    },
    /// Prints the `pins = [...]` of a database's demo, for the config.
    Pin {
        /// The demo's SQLite file, as the embed opens it.
        #[arg(long)]
        db: PathBuf,
        /// openai, anthropic or gemini.
        #[arg(long)]
        provider: String,
        /// The notes file the embed passes (`notes=`), if any.
        #[arg(long)]
        notes: Option<PathBuf>,
        /// What the embed hides (`hide=`); may be given more than once.
        #[arg(long)]
        hide: Vec<String>,
    },
}

/// A config (or database, or state file) the proxy cannot start with.
const BAD_CONFIG: u8 = 2;

fn main() -> ExitCode {
    match Cli::parse().command {
        Command::Serve { config } => serve(config),
        Command::Pin {
            db,
            provider,
            notes,
            hide,
        } => print_pins(db, &provider, notes, hide),
    }
}

fn print_pins(db: PathBuf, provider: &str, notes: Option<PathBuf>, hide: Vec<String>) -> ExitCode {
    let Some(provider) = ProviderKind::named(provider) else {
        eprintln!(
            "askdb-proxy: unknown provider `{provider}`, expected one of {}",
            ProviderKind::ids()
        );
        return ExitCode::from(BAD_CONFIG);
    };
    let source = PinSource {
        database: db,
        notes,
        hide,
    };
    match pin::pins_from(&source, provider) {
        Ok(pins) => {
            print!("{}", pin::toml_snippet(&pins));
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("askdb-proxy: {error}");
            ExitCode::from(BAD_CONFIG)
        }
    }
}

fn serve(config_path: PathBuf) -> ExitCode {
    let mut config = match Config::load(&config_path, &|name| std::env::var(name).ok()) {
        Ok(config) => config,
        Err(error) => {
            eprintln!("askdb-proxy: {error}");
            return ExitCode::from(BAD_CONFIG);
        }
    };
    // The demos' pins from their databases, made once, before any request is taken.
    for demo in config.demos.values_mut() {
        let Some(source) = demo.database.clone() else {
            continue;
        };
        match pin::pins_from(&source, demo.provider) {
            Ok(pins) => {
                for (_, pin) in pins {
                    if !demo.pins.contains(&pin) {
                        demo.pins.push(pin);
                    }
                }
            }
            Err(error) => {
                eprintln!("askdb-proxy: config `demo.{}.database`: {error}", demo.name);
                return ExitCode::from(BAD_CONFIG);
            }
        }
    }
    let started = state::State::open(&config.state).and_then(|state| {
        let salt = state.salt()?;
        let limiter = limits::Limiter::new(&config, state, day::Moment::now())?;
        Ok((salt, limiter))
    });
    let (salt, limiter) = match started {
        Ok(started) => started,
        Err(error) => {
            eprintln!("askdb-proxy: {error}");
            return ExitCode::from(BAD_CONFIG);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("askdb-proxy: cannot start: {error}");
            return ExitCode::FAILURE;
        }
    };
    let app = Arc::new(server::App {
        config,
        limiter: Arc::new(limiter),
        client: forward::client(),
        salt,
    });
    runtime.block_on(run(app))
}

async fn run(app: Arc<server::App>) -> ExitCode {
    let listen = app.config.listen;
    let listener = match tokio::net::TcpListener::bind(listen).await {
        Ok(listener) => listener,
        Err(error) => {
            eprintln!("askdb-proxy: config `listen`: cannot listen on {listen}: {error}");
            return ExitCode::from(BAD_CONFIG);
        }
    };
    let address = listener.local_addr().unwrap_or(listen);
    println!("askdb-proxy listening on http://{address}");
    let _ = std::io::stdout().flush();

    let limiter = app.limiter.clone();
    tokio::spawn(async move {
        let mut every_minute = tokio::time::interval(Duration::from_secs(60));
        loop {
            every_minute.tick().await;
            limiter.forget_quiet_readers();
        }
    });

    let service = server::router(app).into_make_service_with_connect_info::<SocketAddr>();
    match axum::serve(listener, service)
        .with_graceful_shutdown(stopped())
        .await
    {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("askdb-proxy: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Ctrl-C, or SIGTERM from systemd or a container runtime.
async fn stopped() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut terminate =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(terminate) => terminate,
                Err(_) => {
                    let _ = interrupt.await;
                    return;
                }
            };
        tokio::select! {
            _ = interrupt => {}
            _ = terminate.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = interrupt.await;
    }
}
