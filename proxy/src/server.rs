//! The routes (docs/live-demos.md, "Addresses") and the order of the checks: path, method,
//! origin, size, then the body's checks, then the limits, all before anything goes upstream.

use crate::check::check_body;
use crate::config::{Config, Demo};
use crate::day::Moment;
use crate::forward::{self, Outgoing};
use crate::limits::Limiter;
use crate::reader::Reader;
use crate::refusal::{Refusal, RefusalReason};
use crate::stats;
use askdb::llm::ProviderKind;
use axum::extract::{ConnectInfo, Path, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::any;
use axum::{Extension, Json, Router};
use http_body_util::{BodyExt, LengthLimitError, Limited};
use serde_json::json;
use std::net::SocketAddr;
use std::sync::Arc;

/// Everything a request needs, made once at start.
pub struct App {
    pub config: Config,
    pub limiter: Arc<Limiter>,
    pub client: reqwest::Client,
    pub salt: Vec<u8>,
}

type Shared = Arc<App>;

/// The headers askdb's page sends to a provider, which a preflight must allow (none of them
/// is forwarded but the content type).
const ALLOWED_HEADERS: &str =
    "content-type, accept, anthropic-version, anthropic-dangerous-direct-browser-access";

pub fn router(app: Shared) -> Router {
    Router::new()
        .route("/health", any(health))
        .route("/stats", any(stats_page))
        .route("/demo/{name}", any(card))
        .route("/demo/{name}/chat/completions", any(openai))
        .route("/demo/{name}/v1/messages", any(anthropic))
        .route("/demo/{name}/models/{call}", any(gemini))
        .fallback(|| async { Refusal::Path })
        .layer(middleware::from_fn_with_state(
            app.clone(),
            identify_and_log,
        ))
        .with_state(app)
}

/// Tells the reader (a salted hash) to the handlers, and after them writes the request's one
/// log line and counts a refusal for /stats. The log names no address and no key.
async fn identify_and_log(
    State(app): State<Shared>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    mut request: Request,
    next: Next,
) -> Response {
    let reader = Reader::of(peer, request.headers(), &app.config, &app.salt);
    let method = request.method().clone();
    let path: String = request.uri().path().chars().take(200).collect();
    let demo = path
        .strip_prefix("/demo/")
        .and_then(|rest| rest.split('/').next())
        .filter(|name| app.config.demos.contains_key(*name))
        .unwrap_or("*")
        .to_string();
    request.extensions_mut().insert(reader.clone());
    let response = next.run(request).await;
    let reason = response
        .extensions()
        .get::<RefusalReason>()
        .map(|reason| reason.0);
    if let Some(reason) = reason {
        if let Err(error) = app.limiter.count_refusal(&demo, reason, Moment::now()) {
            eprintln!("askdb-proxy: {error}");
        }
    }
    eprintln!(
        "askdb-proxy: {method} {} demo={demo} status={} reason={} reader={}",
        path.escape_debug(),
        response.status().as_u16(),
        reason.unwrap_or("-"),
        reader.short()
    );
    response
}

async fn health(method: Method) -> Response {
    if method != Method::GET && method != Method::HEAD {
        return Refusal::Method.into_response();
    }
    Json(json!({"status": "ok"})).into_response()
}

async fn stats_page(State(app): State<Shared>, method: Method, headers: HeaderMap) -> Response {
    if method != Method::GET && method != Method::HEAD {
        return Refusal::Method.into_response();
    }
    let demos: Vec<String> = app.config.demos.keys().cloned().collect();
    let snapshot = match app.limiter.snapshot(&demos, Moment::now()) {
        Ok(snapshot) => snapshot,
        Err(error) => return state_failed(error),
    };
    let wants_json = headers
        .get(header::ACCEPT)
        .and_then(|value| value.to_str().ok())
        .is_some_and(|accept| accept.contains("application/json"));
    if wants_json {
        Json(stats::json(&snapshot)).into_response()
    } else {
        Html(stats::html(&snapshot)).into_response()
    }
}

/// The state file could not be written: nothing goes upstream uncounted.
fn state_failed(error: crate::state::StateError) -> Response {
    eprintln!("askdb-proxy: {error}");
    Refusal::State.into_response()
}

/// `GET /demo/{name}`: what the page shows the reader about the demo.
async fn card(
    State(app): State<Shared>,
    Path(name): Path<String>,
    Extension(reader): Extension<Reader>,
    method: Method,
    headers: HeaderMap,
) -> Response {
    let Some(demo) = app.config.demos.get(&name) else {
        return Refusal::Path.into_response();
    };
    let response = match method {
        Method::OPTIONS => preflight(demo, &headers),
        Method::GET | Method::HEAD => match allowed_origin(demo, &headers) {
            Err(refusal) => refusal.into_response(),
            Ok(_) => {
                let now = Moment::now();
                match app.limiter.left_today(demo, &reader, now) {
                    Ok(left_today) => Json(json!({
                        "askdb_proxy": 1,
                        "demo": demo.name,
                        "provider": demo.provider.id(),
                        "model": demo.models[0],
                        "models": demo.models,
                        "max_tokens": demo.max_tokens,
                        "paid_by": demo.paid_by,
                        "left_today": left_today,
                        "resets_at": now.resets_at(),
                    }))
                    .into_response(),
                    Err(error) => state_failed(error),
                }
            }
        },
        _ => Refusal::Method.into_response(),
    };
    with_cors(response, demo, &headers)
}

async fn openai(
    State(app): State<Shared>,
    Path(name): Path<String>,
    Extension(reader): Extension<Reader>,
    request: Request,
) -> Response {
    let call = ProviderCall {
        kind: ProviderKind::OpenAi,
        provider_path: "/chat/completions".into(),
        path_model: None,
    };
    ask(app, &name, call, reader, request).await
}

async fn anthropic(
    State(app): State<Shared>,
    Path(name): Path<String>,
    Extension(reader): Extension<Reader>,
    request: Request,
) -> Response {
    let call = ProviderCall {
        kind: ProviderKind::Anthropic,
        provider_path: "/v1/messages".into(),
        path_model: None,
    };
    ask(app, &name, call, reader, request).await
}

/// `models/{model}:generateContent`, or `:streamGenerateContent` (with `?alt=sse` passed on).
async fn gemini(
    State(app): State<Shared>,
    Path((name, call)): Path<(String, String)>,
    Extension(reader): Extension<Reader>,
    request: Request,
) -> Response {
    let Some((model, action)) = call.rsplit_once(':') else {
        return Refusal::Path.into_response();
    };
    let query = match action {
        "generateContent" => "",
        "streamGenerateContent" => {
            let sse = request
                .uri()
                .query()
                .is_some_and(|query| query.split('&').any(|pair| pair == "alt=sse"));
            if sse {
                "?alt=sse"
            } else {
                ""
            }
        }
        _ => return Refusal::Path.into_response(),
    };
    let call = ProviderCall {
        kind: ProviderKind::Gemini,
        provider_path: format!(
            "/models/{}:{action}{query}",
            askdb::llm::wire::gemini::model_path_segment(model)
        ),
        path_model: Some(model.to_string()),
    };
    ask(app, &name, call, reader, request).await
}

/// The provider's call a path names.
struct ProviderCall {
    kind: ProviderKind,
    /// The path after the demo's `upstream`.
    provider_path: String,
    /// Gemini names the model in the path.
    path_model: Option<String>,
}

async fn ask(
    app: Shared,
    name: &str,
    call: ProviderCall,
    reader: Reader,
    request: Request,
) -> Response {
    // Only the demo's own provider's path exists.
    let Some(demo) = app
        .config
        .demos
        .get(name)
        .filter(|demo| demo.provider == call.kind)
    else {
        return Refusal::Path.into_response();
    };
    let headers = request.headers().clone();
    let response = match *request.method() {
        Method::OPTIONS => preflight(demo, &headers),
        Method::POST => match checked_and_forwarded(&app, demo, call, &reader, request).await {
            Ok(response) => response,
            Err(refusal) => refusal.into_response(),
        },
        _ => Refusal::Method.into_response(),
    };
    with_cors(response, demo, &headers)
}

/// Origin, size, body, limits; then upstream.
async fn checked_and_forwarded(
    app: &App,
    demo: &Demo,
    call: ProviderCall,
    reader: &Reader,
    request: Request,
) -> Result<Response, Refusal> {
    allowed_origin(demo, request.headers())?;
    let accept = request.headers().get(header::ACCEPT).cloned();
    let bytes = read_body(request, app.config.max_body_bytes).await?;
    let checked = check_body(demo, &bytes, call.path_model.as_deref())?;
    let body = if checked.rewritten {
        bytes::Bytes::from(serde_json::to_vec(&checked.body).map_err(|_| Refusal::NotJson)?)
    } else {
        bytes
    };
    let reservation = body.len() as u64 + checked.max_tokens;
    let admission = match app.limiter.admit(demo, reader, reservation, Moment::now()) {
        Ok(admitted) => admitted?,
        Err(error) => return Ok(state_failed(error)),
    };
    let outgoing = Outgoing {
        provider_path: call.provider_path,
        body,
        accept,
    };
    Ok(forward::forward(&app.client, demo, outgoing, app.limiter.clone(), admission).await)
}

/// The body, read up to `limit` bytes: a larger one is refused as soon as it is known to be.
async fn read_body(request: Request, limit: usize) -> Result<bytes::Bytes, Refusal> {
    let too_large = Refusal::BodyTooLarge { limit };
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<u64>().ok());
    if declared.is_some_and(|length| length > limit as u64) {
        return Err(too_large);
    }
    match Limited::new(request.into_body(), limit).collect().await {
        Ok(collected) => Ok(collected.to_bytes()),
        Err(error) if error.is::<LengthLimitError>() => Err(too_large),
        // The reader went away mid-body: whatever is said, nobody reads it.
        Err(_) => Err(Refusal::NotJson),
    }
}

/// The request's `Origin` when the demo allows it. No `Origin` at all is not a browser on
/// another site (a browser always sends one cross-origin), so it passes.
fn allowed_origin(demo: &Demo, headers: &HeaderMap) -> Result<Option<HeaderValue>, Refusal> {
    match headers.get(header::ORIGIN) {
        None => Ok(None),
        Some(origin) if is_allowed(demo, origin) => Ok(Some(origin.clone())),
        Some(_) => Err(Refusal::Origin),
    }
}

fn is_allowed(demo: &Demo, origin: &HeaderValue) -> bool {
    origin
        .to_str()
        .is_ok_and(|origin| demo.origins.iter().any(|allowed| allowed == origin))
}

/// A browser's preflight: allowed only from the demo's origins.
fn preflight(demo: &Demo, headers: &HeaderMap) -> Response {
    match headers.get(header::ORIGIN) {
        Some(origin) if is_allowed(demo, origin) => {
            let mut response = StatusCode::NO_CONTENT.into_response();
            let out = response.headers_mut();
            out.insert(
                header::ACCESS_CONTROL_ALLOW_METHODS,
                HeaderValue::from_static("GET, POST, OPTIONS"),
            );
            out.insert(
                header::ACCESS_CONTROL_ALLOW_HEADERS,
                HeaderValue::from_static(ALLOWED_HEADERS),
            );
            out.insert(
                header::ACCESS_CONTROL_MAX_AGE,
                HeaderValue::from_static("600"),
            );
            response
        }
        _ => Refusal::Origin.into_response(),
    }
}

/// CORS headers for the demo's own origins, on every answer (refusals too: the page reads them).
fn with_cors(mut response: Response, demo: &Demo, headers: &HeaderMap) -> Response {
    if let Some(origin) = headers
        .get(header::ORIGIN)
        .filter(|origin| is_allowed(demo, origin))
    {
        let out = response.headers_mut();
        out.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin.clone());
        out.append(header::VARY, HeaderValue::from_static("Origin"));
        out.insert(
            header::ACCESS_CONTROL_EXPOSE_HEADERS,
            HeaderValue::from_static("Retry-After"),
        );
    }
    response
}
