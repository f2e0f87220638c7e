//! SQLite's tokens: enough to tell statements, keywords, names, literals and punctuation apart,
//! with comments and quoting handled as SQLite does.
