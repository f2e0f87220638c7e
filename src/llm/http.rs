//! The one HTTP call a provider makes, behind a trait so that tests need no network.
