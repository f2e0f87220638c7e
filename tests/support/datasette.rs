//! The pinned Datasette (scripts/setup.sh, `setup_datasette`) started for a test by
//! `tests/datasette/serve.sh` over fresh copies of shop and Chinook, on 127.0.0.1 on a free
//! port, and stopped when the test drops it.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// A running Datasette server and the folder it serves.
pub struct DatasetteServer {
    child: Child,
    pub dir: PathBuf,
    /// `http://127.0.0.1:PORT`.
    pub url: String,
}

static STARTED: AtomicUsize = AtomicUsize::new(0);

impl DatasetteServer {
    /// Starts Datasette 0.65.5 with `--cors`. Fails the test with the script's message when
    /// Datasette is not installed.
    pub fn start() -> DatasetteServer {
        DatasetteServer::start_with(&[])
    }

    /// Starts Datasette 1.0a41 (`serve.sh --alpha`).
    pub fn start_alpha() -> DatasetteServer {
        DatasetteServer::start_with(&["--alpha"])
    }

    fn start_with(options: &[&str]) -> DatasetteServer {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let dir = std::env::temp_dir().join(format!(
            "askdb-datasette-{}-{}",
            std::process::id(),
            STARTED.fetch_add(1, Ordering::SeqCst)
        ));
        let _ = fs::remove_dir_all(&dir);
        let mut child = Command::new(root.join("tests/datasette/serve.sh"))
            .arg(&dir)
            .args(options)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("tests/datasette/serve.sh starts");
        let log = dir.join("server.log");
        let started = Instant::now();
        loop {
            if let Some(url) = fs::read_to_string(&log)
                .ok()
                .as_deref()
                .and_then(listening_at)
            {
                return DatasetteServer { child, dir, url };
            }
            if let Ok(Some(status)) = child.try_wait() {
                let mut message = String::new();
                if let Some(mut stderr) = child.stderr.take() {
                    let _ = std::io::Read::read_to_string(&mut stderr, &mut message);
                }
                let log = fs::read_to_string(&log).unwrap_or_default();
                panic!("Datasette did not start ({status}): {message}{log}");
            }
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "Datasette did not listen within 60 s"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// `http://127.0.0.1:PORT/<database>`.
    pub fn database(&self, database: &str) -> String {
        format!("{}/{database}", self.url)
    }

    /// The paths (with their query strings, percent-decoded) of the requests the server has
    /// answered so far, in order.
    pub fn requests(&self) -> Vec<String> {
        let log = fs::read_to_string(self.dir.join("access.log")).unwrap_or_default();
        log.lines()
            .filter_map(|line| {
                let request = line.split('"').nth(1)?;
                let path = request.strip_prefix("GET ")?.rsplit_once(' ')?.0;
                Some(percent_decode(path))
            })
            .collect()
    }

    /// Waits until a request whose decoded path contains `needle` is in the access log
    /// (uvicorn writes it once the answer is sent), for at most 10 s.
    pub fn wait_for_request(&self, needle: &str) -> Vec<String> {
        let started = Instant::now();
        loop {
            let requests = self.requests();
            if requests.iter().any(|r| r.contains(needle)) {
                return requests;
            }
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "no request with {needle:?} in the access log: {requests:#?}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for DatasetteServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = fs::remove_dir_all(&self.dir);
    }
}

fn listening_at(log: &str) -> Option<String> {
    let start = log.find("Uvicorn running on ")? + "Uvicorn running on ".len();
    let url: String = log[start..]
        .chars()
        .take_while(|c| !c.is_whitespace())
        .collect();
    Some(url)
}

/// `%XX` and `+` (a space in a query string) decoded; invalid escapes kept as they are.
pub fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => match text
                .get(i + 1..i + 3)
                .map(|hex| u8::from_str_radix(hex, 16))
            {
                Some(Ok(byte)) => {
                    out.push(byte);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            other => out.push(other),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
