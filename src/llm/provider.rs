//! An [`LlmProvider`] that speaks one wire format over one [`HttpClient`].

use super::http::HttpClient;
use super::wire::{self, EndpointConfig};
use super::{ChatRequest, LlmError, LlmProvider, ModelReply};

/// A provider over HTTP: build the request, post it, parse the answer.
#[derive(Clone, Debug)]
pub struct HttpProvider<H: HttpClient> {
    config: EndpointConfig,
    client: H,
}

impl<H: HttpClient> HttpProvider<H> {
    pub fn new(config: EndpointConfig, client: H) -> Self {
        HttpProvider { config, client }
    }
}

impl<H: HttpClient> LlmProvider for HttpProvider<H> {
    async fn complete(&self, request: &ChatRequest) -> Result<ModelReply, LlmError> {
        let http_request = wire::build_request(&self.config, request);
        let response =
            self.client
                .post(&http_request)
                .await
                .map_err(|error| LlmError::Network {
                    message: error.message,
                    base_url: self.config.base_url(),
                })?;
        wire::parse_response(self.config.kind, &response)
    }
}
