//! When to try a failed call again, and after how long. Pure: the caller waits.
