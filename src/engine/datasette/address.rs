//! The address of a database on a Datasette server, as a person gives it: the address of the
//! database's page, `https://host/dbname` (or under a prefix, `https://host/data/dbname`, for a
//! server run with `base_url`).

use super::DatasetteProblem;
use std::fmt;

/// Why a text is not the address of a database on a Datasette server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotAnAddress {
    NoScheme,
    NotHttp,
    NoHost,
    /// It carries a user name or password.
    Credentials,
    HostSpace,
    /// One of the server's own pages (`/-/…`).
    ServerPage,
    NoDatabase,
}

impl fmt::Display for NotAnAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NotAnAddress::NoScheme => "no http:// or https://",
            NotAnAddress::NotHttp => "only http and https addresses",
            NotAnAddress::NoHost => "no host",
            NotAnAddress::Credentials => {
                "it carries a user name or password; enter a token apart instead"
            }
            NotAnAddress::HostSpace => "the host has a space or a backslash",
            NotAnAddress::ServerPage => "it is one of the server's own pages, not a database",
            NotAnAddress::NoDatabase => "no database named after the host",
        })
    }
}

/// A database on a Datasette server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatasetteAddress {
    /// `http[s]://host[:port][/prefix]`, without a trailing `/`.
    pub server: String,
    /// The database's route, as it appears in the address (Datasette's own encoding).
    pub database: String,
}

impl DatasetteAddress {
    /// Reads `text`: an http or https address whose last path segment names the database. A
    /// query string, a fragment, a trailing `/` or `.json` are dropped; an address that carries
    /// a user name or password is refused (a token is entered apart, never in an address).
    pub fn parse(text: &str) -> Result<DatasetteAddress, DatasetteProblem> {
        let bad = |why: NotAnAddress| DatasetteProblem::BadAddress { why };
        let text = text.trim();
        let text = text.split(['#', '?']).next().unwrap_or_default();
        let (scheme, rest) = text
            .split_once("://")
            .ok_or_else(|| bad(NotAnAddress::NoScheme))?;
        let scheme = scheme.to_ascii_lowercase();
        if scheme != "http" && scheme != "https" {
            return Err(bad(NotAnAddress::NotHttp));
        }
        let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
        if authority.is_empty() {
            return Err(bad(NotAnAddress::NoHost));
        }
        if authority.contains('@') {
            return Err(bad(NotAnAddress::Credentials));
        }
        if authority.contains(|c: char| c.is_whitespace() || c == '\\') {
            return Err(bad(NotAnAddress::HostSpace));
        }
        let mut segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
        if segments.contains(&"-") {
            return Err(bad(NotAnAddress::ServerPage));
        }
        let last = segments
            .pop()
            .ok_or_else(|| bad(NotAnAddress::NoDatabase))?;
        let database = last.strip_suffix(".json").unwrap_or(last);
        if database.is_empty() || database.starts_with('-') {
            return Err(bad(NotAnAddress::NoDatabase));
        }
        let mut server = format!("{scheme}://{authority}");
        for segment in segments {
            server.push('/');
            server.push_str(segment);
        }
        Ok(DatasetteAddress {
            server,
            database: database.to_string(),
        })
    }

    /// The database's page: `server/database`, as the person gave it (what identifies it).
    pub fn database_url(&self) -> String {
        format!("{}/{}", self.server, self.database)
    }

    /// Where the server lists its databases, with the hash of each immutable file.
    pub fn databases_url(&self) -> String {
        format!("{}/-/databases.json", self.server)
    }

    /// `scheme://host[:port]`: what a redirect must keep to be followed (the token goes nowhere
    /// else).
    pub fn origin(&self) -> &str {
        origin_of(&self.server)
    }
}

/// The `scheme://host[:port]` of an absolute address (all of it when it has no path).
pub fn origin_of(url: &str) -> &str {
    let after_scheme = url.find("://").map_or(0, |i| i + 3);
    match url[after_scheme..].find('/') {
        Some(i) => &url[..after_scheme + i],
        None => url,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(text: &str) -> (String, String) {
        let address = DatasetteAddress::parse(text).unwrap();
        (address.server, address.database)
    }

    #[test]
    fn the_address_of_a_database_page_gives_the_server_and_the_database() {
        let want = ("https://example.org".to_string(), "fixtures".to_string());
        for text in [
            "https://example.org/fixtures",
            "  https://example.org/fixtures/ ",
            "https://example.org/fixtures.json",
            "https://example.org/fixtures?sql=select+1#x",
            "HTTPS://example.org/fixtures",
        ] {
            assert_eq!(parsed(text), want, "{text}");
        }
        assert_eq!(
            parsed("http://127.0.0.1:8001/data/sub/chinook"),
            ("http://127.0.0.1:8001/data/sub".into(), "chinook".into())
        );
        let address = DatasetteAddress::parse("http://127.0.0.1:8001/data/shop").unwrap();
        assert_eq!(address.database_url(), "http://127.0.0.1:8001/data/shop");
        assert_eq!(
            address.databases_url(),
            "http://127.0.0.1:8001/data/-/databases.json"
        );
        assert_eq!(address.origin(), "http://127.0.0.1:8001");
    }

    #[test]
    fn what_is_not_a_database_address_says_why() {
        for (text, why) in [
            ("example.org/fixtures", "no http:// or https://"),
            ("ftp://example.org/fixtures", "only http and https"),
            ("https:///fixtures", "no host"),
            ("https://example.org", "no database"),
            ("https://example.org/", "no database"),
            ("https://example.org/-/databases.json", "server's own pages"),
            ("https://example.org/shop/-/query", "server's own pages"),
            (
                "https://user:secret@example.org/fixtures",
                "user name or password",
            ),
        ] {
            let problem = DatasetteAddress::parse(text).unwrap_err().to_string();
            assert!(problem.contains(why), "{text}: {problem}");
            assert!(problem.contains("https://host/dbname"), "{problem}");
        }
    }
}
