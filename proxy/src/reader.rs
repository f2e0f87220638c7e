//! Who a reader is: the connection's address, or the forwarded one when the connection comes
//! from a proxy the author trusts; kept only as a salted hash.

use crate::config::Config;
use axum::http::HeaderMap;
use sha2::{Digest, Sha256};
use std::net::{IpAddr, SocketAddr};

/// A reader, as the salted hash of their address (hex), never the address itself.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Reader(pub String);

impl Reader {
    /// The reader of a request from `peer` with `headers`.
    pub fn of(peer: SocketAddr, headers: &HeaderMap, config: &Config, salt: &[u8]) -> Reader {
        let address = address(peer, headers, config);
        let mut hasher = Sha256::new();
        hasher.update(salt);
        hasher.update(address.to_string().as_bytes());
        Reader(
            hasher
                .finalize()
                .iter()
                .map(|byte| format!("{byte:02x}"))
                .collect(),
        )
    }

    /// The start of the hash, for log lines.
    pub fn short(&self) -> &str {
        &self.0[..self.0.len().min(12)]
    }
}

/// The reader's address. A forwarded address is believed only from a trusted proxy (anyone
/// else could write the header), and only its first entry, the client's own.
fn address(peer: SocketAddr, headers: &HeaderMap, config: &Config) -> IpAddr {
    let peer_ip = peer.ip().to_canonical();
    let (Some(header), true) = (
        &config.forwarded_header,
        config.trusted_proxies.contains(&peer_ip),
    ) else {
        return peer_ip;
    };
    let first = headers
        .get(header.as_str())
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.split(',').next())
        .map(str::trim)
        .unwrap_or_default();
    first
        .parse::<IpAddr>()
        .or_else(|_| first.parse::<SocketAddr>().map(|address| address.ip()))
        .map(|ip| ip.to_canonical())
        .unwrap_or(peer_ip)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn config(trusted: &[&str]) -> Config {
        Config {
            listen: "127.0.0.1:0".parse().unwrap(),
            state: "s".into(),
            max_body_bytes: 1,
            global_tokens_per_day: 1,
            trusted_proxies: trusted.iter().map(|ip| ip.parse().unwrap()).collect(),
            forwarded_header: (!trusted.is_empty()).then(|| "x-forwarded-for".to_string()),
            demos: BTreeMap::new(),
        }
    }

    fn forwarded(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert("x-forwarded-for", value.parse().unwrap());
        headers
    }

    #[test]
    fn a_forwarded_address_counts_only_from_a_trusted_proxy() {
        let front: SocketAddr = "127.0.0.1:5000".parse().unwrap();
        let stranger: SocketAddr = "10.0.0.9:5000".parse().unwrap();
        let trusting = config(&["127.0.0.1"]);
        let headers = forwarded("203.0.113.7, 127.0.0.1");
        assert_eq!(
            address(front, &headers, &trusting),
            "203.0.113.7".parse::<IpAddr>().unwrap()
        );
        assert_eq!(address(stranger, &headers, &trusting), stranger.ip());
        assert_eq!(address(front, &headers, &config(&[])), front.ip());
        assert_eq!(address(front, &forwarded("garbage"), &trusting), front.ip());
    }

    #[test]
    fn the_hash_is_salted_and_hides_the_address() {
        let peer: SocketAddr = "203.0.113.7:1".parse().unwrap();
        let config = config(&[]);
        let one = Reader::of(peer, &HeaderMap::new(), &config, b"salt-1");
        let two = Reader::of(peer, &HeaderMap::new(), &config, b"salt-2");
        assert_ne!(one, two);
        assert_eq!(
            one,
            Reader::of(
                "203.0.113.7:2".parse().unwrap(),
                &HeaderMap::new(),
                &config,
                b"salt-1"
            )
        );
        assert!(!one.0.contains("203.0.113.7"));
    }
}
