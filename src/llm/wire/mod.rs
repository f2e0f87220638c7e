//! The three wire formats: request building and response parsing, per the official references.
