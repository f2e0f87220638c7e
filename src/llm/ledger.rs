//! The ledger: every request sent to a model in this session, exactly as it went and as it came
//! back, with what it cost (bytes, and tokens when the provider reports them).
//!
//! [`RecordedHttp`] wraps any [`HttpClient`] and writes each exchange into a shared [`Ledger`]
//! that the page shows. The API key never enters the ledger, by mechanism: headers (where every
//! wire format puts the key) are not recorded, the endpoint keeps no user info, query or
//! fragment, and any credential a header carried is cut out of every recorded text (a server
//! may echo a key back in an error).

use super::http::{HttpClient, HttpRequest, HttpResponse, TransportError};
use super::{wire, ProviderKind, Usage};
use crate::clock::Clock;
use std::cell::RefCell;
use std::rc::Rc;

/// What replaces a credential in a recorded text.
pub const KEY_REMOVED: &str = "[API key removed]";

/// Shorter header values are not looked for in the texts: no provider's key is that short, and
/// the placeholders local servers accept ("ollama", "none") would garble every body they occur in.
const MIN_SECRET_CHARS: usize = 8;

/// Headers that never carry a credential. Any other header's value counts as a secret.
const PUBLIC_HEADERS: &[&str] = &[
    "content-type",
    "anthropic-version",
    "anthropic-dangerous-direct-browser-access",
];

/// How a request ended.
#[derive(Clone, Debug, PartialEq)]
pub enum RequestOutcome {
    /// Sent; no answer yet.
    Waiting,
    /// The server answered with this HTTP status (any status: errors are answers too).
    Answered { status: u16 },
    /// No answer came: offline, refused, blocked by CORS.
    NoAnswer { reason: String },
    /// The question was stopped before the answer came.
    Stopped,
}

/// One request to a model and its answer.
#[derive(Clone, Debug, PartialEq)]
pub struct LedgerEntry {
    /// 1 for the session's first request.
    pub number: usize,
    /// When it was sent, on the host's clock (milliseconds; the page's clock starts with it).
    pub sent_at_ms: f64,
    /// From sending to the end of the answer; `None` while waiting.
    pub duration_ms: Option<f64>,
    pub provider: ProviderKind,
    /// Where it went: scheme, host, port and path; never user info, query or fragment.
    pub endpoint: String,
    pub outcome: RequestOutcome,
    /// The request body as sent (credentials cut out, should one ever be in it).
    pub request_body: String,
    /// The response body as received, the same way; empty when no answer came.
    pub response_body: String,
    /// A streamed answer put together: the body its provider would have sent whole, which is
    /// what askdb read (the same way, credentials cut out); `None` for an answer sent whole.
    pub assembled_body: Option<String>,
    /// Bytes of the request body as it went over the wire.
    pub bytes_sent: usize,
    /// Bytes of the response body as the page read it.
    pub bytes_received: usize,
    /// Tokens, when the answer reports them.
    pub usage: Option<Usage>,
}

/// What the whole session sent and received.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LedgerTotals {
    pub requests: usize,
    pub bytes_sent: usize,
    pub bytes_received: usize,
    pub usage: Usage,
}

/// The session's entries, shared by the HTTP wrapper (which writes) and the page (which reads).
/// Cheap to clone: clones share the entries. Not `Send`, like everything on the page's thread.
#[derive(Clone, Default)]
pub struct Ledger {
    entries: Rc<RefCell<Vec<LedgerEntry>>>,
    listener: Option<Rc<dyn Fn()>>,
}

impl Ledger {
    pub fn new() -> Ledger {
        Ledger::default()
    }

    /// A ledger that calls `listener` after each change (the page redraws its panel).
    pub fn with_listener(listener: impl Fn() + 'static) -> Ledger {
        Ledger {
            entries: Rc::default(),
            listener: Some(Rc::new(listener)),
        }
    }

    /// Reads the entries, oldest first, without copying them.
    pub fn with_entries<T>(&self, read: impl FnOnce(&[LedgerEntry]) -> T) -> T {
        read(&self.entries.borrow())
    }

    /// A copy of the entries, oldest first.
    pub fn entries(&self) -> Vec<LedgerEntry> {
        self.with_entries(<[LedgerEntry]>::to_vec)
    }

    pub fn totals(&self) -> LedgerTotals {
        self.with_entries(|entries| {
            let mut totals = LedgerTotals::default();
            for entry in entries {
                totals.requests += 1;
                totals.bytes_sent += entry.bytes_sent;
                totals.bytes_received += entry.bytes_received;
                if let Some(usage) = entry.usage {
                    totals.usage += usage;
                }
            }
            totals
        })
    }

    /// Adds an entry and returns its index.
    fn push(&self, mut entry: LedgerEntry) -> usize {
        let index = {
            let mut entries = self.entries.borrow_mut();
            entry.number = entries.len() + 1;
            entries.push(entry);
            entries.len() - 1
        };
        self.changed();
        index
    }

    fn update(&self, index: usize, change: impl FnOnce(&mut LedgerEntry)) {
        if let Some(entry) = self.entries.borrow_mut().get_mut(index) {
            change(entry);
        }
        self.changed();
    }

    /// Tells the listener, once no borrow is held (it may read the ledger at once).
    fn changed(&self) {
        if let Some(listener) = &self.listener {
            listener();
        }
    }
}

impl std::fmt::Debug for Ledger {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ledger")
            .field("entries", &self.entries.borrow().len())
            .finish()
    }
}

/// An [`HttpClient`] that writes every exchange into a [`Ledger`].
#[derive(Clone, Debug)]
pub struct RecordedHttp<H, C> {
    inner: H,
    ledger: Ledger,
    /// Which wire format the answers are in, to read their token counts.
    provider: ProviderKind,
    clock: C,
}

impl<H: HttpClient, C: Clock> RecordedHttp<H, C> {
    pub fn new(inner: H, ledger: Ledger, provider: ProviderKind, clock: C) -> Self {
        RecordedHttp {
            inner,
            ledger,
            provider,
            clock,
        }
    }
}

impl<H: HttpClient, C: Clock> HttpClient for RecordedHttp<H, C> {
    async fn post(&self, request: &HttpRequest) -> Result<HttpResponse, TransportError> {
        let pending = self.sent(request);
        let result = self.inner.post(request).await;
        self.answered(pending, &result);
        result
    }

    /// A stream's pieces go on to `on_body` as they come, and are kept: a question stopped
    /// mid-stream leaves in the ledger what had come by then.
    async fn post_streaming(
        &self,
        request: &HttpRequest,
        on_body: &mut dyn FnMut(&[u8]),
    ) -> Result<HttpResponse, TransportError> {
        let pending = self.sent(request);
        let mut keep = |bytes: &[u8]| {
            pending.received.borrow_mut().extend_from_slice(bytes);
            on_body(bytes);
        };
        let result = self.inner.post_streaming(request, &mut keep).await;
        self.answered(pending, &result);
        result
    }
}

impl<H: HttpClient, C: Clock> RecordedHttp<H, C> {
    /// `request` goes into the ledger as waiting; until [`Self::answered`], dropping what this
    /// returns (the question was stopped) marks it stopped.
    fn sent(&self, request: &HttpRequest) -> MarkStoppedOnDrop<'_, C> {
        let secrets = Secrets::of(request);
        let started = self.clock.now_ms();
        let index = self.ledger.push(LedgerEntry {
            number: 0, // the ledger numbers it
            sent_at_ms: started,
            duration_ms: None,
            provider: self.provider,
            endpoint: secrets.scrub(&endpoint_of(&request.url)),
            outcome: RequestOutcome::Waiting,
            request_body: secrets.scrub(&request.body),
            response_body: String::new(),
            assembled_body: None,
            bytes_sent: request.body.len(),
            bytes_received: 0,
            usage: None,
        });
        MarkStoppedOnDrop {
            ledger: &self.ledger,
            index,
            clock: &self.clock,
            started,
            secrets,
            received: RefCell::new(Vec::new()),
            armed: true,
        }
    }

    /// The answer to the request `pending` stands for, or why none came.
    fn answered(
        &self,
        mut pending: MarkStoppedOnDrop<'_, C>,
        result: &Result<HttpResponse, TransportError>,
    ) {
        pending.armed = false;
        let duration = Some(self.clock.now_ms() - pending.started);
        let secrets = &pending.secrets;
        self.ledger.update(pending.index, |entry| {
            entry.duration_ms = duration;
            match result {
                Ok(response) => {
                    entry.outcome = RequestOutcome::Answered {
                        status: response.status,
                    };
                    entry.response_body = secrets.scrub(&response.body);
                    // A stream that could not be put together shows none: its error is the
                    // agent's to say.
                    entry.assembled_body = wire::assembled(self.provider, response)
                        .and_then(Result::ok)
                        .map(|whole| secrets.scrub(&whole.to_string()));
                    entry.bytes_received = response.body.len();
                    // The provider parses the answer again for the agent: a small cost, and it
                    // keeps the ledger a plain wrapper around HTTP.
                    entry.usage = wire::parse_response(self.provider, response)
                        .ok()
                        .map(|reply| reply.usage);
                }
                Err(error) => {
                    entry.outcome = RequestOutcome::NoAnswer {
                        reason: secrets.scrub(&error.message),
                    }
                }
            }
        });
    }
}

struct MarkStoppedOnDrop<'a, C: Clock> {
    ledger: &'a Ledger,
    index: usize,
    clock: &'a C,
    started: f64,
    /// The request's credentials, cut out of whatever is kept of its answer.
    secrets: Secrets,
    /// A stream's bytes so far.
    received: RefCell<Vec<u8>>,
    armed: bool,
}

impl<C: Clock> Drop for MarkStoppedOnDrop<'_, C> {
    fn drop(&mut self) {
        if self.armed {
            let duration = Some(self.clock.now_ms() - self.started);
            let received = self.received.take();
            let body = self.secrets.scrub(&String::from_utf8_lossy(&received));
            self.ledger.update(self.index, |entry| {
                entry.outcome = RequestOutcome::Stopped;
                entry.duration_ms = duration;
                entry.bytes_received = received.len();
                entry.response_body = body;
            });
        }
    }
}

/// The credentials one request carries: the value of every header that is not known to be
/// public, and for `Authorization` also the token after its scheme.
struct Secrets(Vec<String>);

impl Secrets {
    fn of(request: &HttpRequest) -> Secrets {
        let mut secrets = Vec::new();
        for (name, value) in &request.headers {
            if PUBLIC_HEADERS
                .iter()
                .any(|public| name.eq_ignore_ascii_case(public))
            {
                continue;
            }
            let value = value.trim();
            // "Bearer sk-…": the token alone may turn up elsewhere.
            if let Some((_scheme, token)) = value.split_once(' ') {
                secrets.push(token.trim().to_string());
            }
            secrets.push(value.to_string());
        }
        secrets.retain(|secret| secret.chars().count() >= MIN_SECRET_CHARS);
        // Longest first, so that "Bearer k" goes whole before "k" is looked for.
        secrets.sort_by_key(|secret| std::cmp::Reverse(secret.len()));
        Secrets(secrets)
    }

    fn scrub(&self, text: &str) -> String {
        let mut text = text.to_string();
        for secret in &self.0 {
            if text.contains(secret.as_str()) {
                text = text.replace(secret.as_str(), KEY_REMOVED);
            }
        }
        text
    }
}

/// The URL without user info (`user:password@`), query string or fragment: any of them could
/// hold a key someone typed into the base URL.
pub fn endpoint_of(url: &str) -> String {
    let url = url.split(['#', '?']).next().unwrap_or_default();
    let (scheme, rest) = match url.split_once("://") {
        Some((scheme, rest)) => (Some(scheme), rest),
        None => (None, url),
    };
    let (authority, path) = match rest.find('/') {
        Some(slash) => rest.split_at(slash),
        None => (rest, ""),
    };
    let host = authority.rsplit('@').next().unwrap_or_default();
    match scheme {
        Some(scheme) => format!("{scheme}://{host}{path}"),
        None => format!("{host}{path}"),
    }
}
