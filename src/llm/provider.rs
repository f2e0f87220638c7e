//! An [`LlmProvider`] that speaks one wire format over one [`HttpClient`].

use super::http::HttpClient;
use super::wire::{self, EndpointConfig};
use super::{ChatRequest, LlmError, LlmProvider, ModelReply};

/// A provider over HTTP: build the request, post it, parse the answer.
#[derive(Clone, Debug)]
pub struct HttpProvider<H: HttpClient> {
    config: EndpointConfig,
    client: H,
    /// The endpoint is a demo's (askdb-proxy): its failures are said as the endpoint's.
    demo_endpoint: bool,
}

impl<H: HttpClient> HttpProvider<H> {
    pub fn new(config: EndpointConfig, client: H) -> Self {
        HttpProvider {
            config,
            client,
            demo_endpoint: false,
        }
    }

    /// The same, for a demo's endpoint (see [`LlmError::through_demo_endpoint`]).
    pub fn through_demo_endpoint(self) -> Self {
        HttpProvider {
            demo_endpoint: true,
            ..self
        }
    }
}

impl<H: HttpClient> LlmProvider for HttpProvider<H> {
    async fn complete(&self, request: &ChatRequest) -> Result<ModelReply, LlmError> {
        let http_request = wire::build_request(&self.config, request);
        let reply = match self.client.post(&http_request).await {
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
