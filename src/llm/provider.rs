//! An [`LlmProvider`] that speaks one wire format over one [`HttpClient`].

use super::http::{HttpClient, HttpResponse, TransportError};
use super::stream::Delta;
use super::wire::{self, EndpointConfig};
use super::{ChatRequest, LlmError, LlmProvider, ModelReply};

/// A provider over HTTP: build the request, post it, parse the answer.
#[derive(Clone, Debug)]
pub struct HttpProvider<H: HttpClient> {
    config: EndpointConfig,
    client: H,
    /// The endpoint is a demo's (askdb-proxy): its failures are said as the endpoint's.
    demo_endpoint: bool,
    /// Ask for replies as streams (`complete_streaming`; `complete` always asks for them whole).
    stream: bool,
}

impl<H: HttpClient> HttpProvider<H> {
    pub fn new(config: EndpointConfig, client: H) -> Self {
        HttpProvider {
            config,
            client,
            demo_endpoint: false,
            stream: false,
        }
    }

    /// The same, asking for each reply as a stream when `stream` (the setting "Stream replies").
    pub fn streaming(self, stream: bool) -> Self {
        HttpProvider { stream, ..self }
    }

    /// The same, for a demo's endpoint (see [`LlmError::through_demo_endpoint`]).
    pub fn through_demo_endpoint(self) -> Self {
        HttpProvider {
            demo_endpoint: true,
            ..self
        }
    }
}

impl<H: HttpClient> HttpProvider<H> {
    /// The reply in what the client brought back, or why there is none.
    fn reply(&self, posted: Result<HttpResponse, TransportError>) -> Result<ModelReply, LlmError> {
        let reply = match posted {
            Ok(response) => wire::parse_response(self.config.kind, &response),
            Err(error) => Err(LlmError::Network {
                message: error.message,
                base_url: self.config.base_url(),
            }),
        };
        if self.demo_endpoint {
            reply.map_err(LlmError::through_demo_endpoint)
        } else {
            reply
        }
    }
}

impl<H: HttpClient> LlmProvider for HttpProvider<H> {
    async fn complete(&self, request: &ChatRequest) -> Result<ModelReply, LlmError> {
        let http_request = wire::build_request(&self.config, request);
        let posted = self.client.post(&http_request).await;
        self.reply(posted)
    }

    async fn complete_streaming(
        &self,
        request: &ChatRequest,
        on_delta: &mut dyn FnMut(Delta),
    ) -> Result<ModelReply, LlmError> {
        if !self.stream {
            return self.complete(request).await;
        }
        let kind = self.config.kind;
        let http_request = wire::stream_request(kind, wire::build_request(&self.config, request));
        let mut stream = wire::reply_stream(kind);
        let mut on_body = |bytes: &[u8]| stream.feed(bytes).into_iter().for_each(&mut *on_delta);
        let posted = self
            .client
            .post_streaming(&http_request, &mut on_body)
            .await;
        // The deltas were for the person; the reply is read from the whole body, as the
        // ledger reads it (a server that did not stream answered JSON, read as before).
        self.reply(posted)
    }
}
