//! The databases kept in this browser as the landing lists them ("Recent databases"), and
//! what their storage costs.

use crate::engine::on_demand::remote::host_of;
use crate::kept::{Recent, Reopen};
use crate::text::format_bytes;
use crate::tr;

/// "28.0 KB · 3 tables · a copy kept here · opened 5 minutes ago": what one entry is, where it
/// comes back from, and when it was last opened (`now_ms` and its time on the same clock).
pub fn entry_line(recent: &Recent, now_ms: f64) -> String {
    entry_line_with(recent, now_ms, str::to_string)
}

/// [`entry_line`], with the host it comes back from written as `data` makes it (the page marks
/// it apart: it is never translated).
pub fn entry_line_with(recent: &Recent, now_ms: f64, data: impl Fn(&str) -> String) -> String {
    let mut parts = Vec::new();
    if let Some(size) = recent.size {
        parts.push(format_bytes(size));
    }
    parts.push(tr!("open-recent-tables", count = recent.tables));
    parts.push(match &recent.reopen {
        Reopen::Copy { .. } => tr!("open-recent-copy"),
        Reopen::Handle { .. } => tr!("open-recent-handle"),
        Reopen::Address { url } => tr!(
            "open-recent-address",
            host = data(&host_of(url).unwrap_or_else(|| url.clone()))
        ),
        Reopen::Datasette { address } => tr!(
            "open-recent-datasette",
            host = data(&host_of(address).unwrap_or_else(|| address.clone()))
        ),
    });
    parts.push(match Since::of(now_ms, recent.opened_at_ms) {
        Since::Now => tr!("open-recent-opened-now"),
        Since::Minutes(count) => tr!("open-recent-opened-minutes", count = count),
        Since::Hours(count) => tr!("open-recent-opened-hours", count = count),
        Since::Yesterday => tr!("open-recent-opened-yesterday"),
        Since::Days(count) => tr!("open-recent-opened-days", count = count),
    });
    parts.join(" · ")
}

/// How long ago a time was, in the unit a person would say it in.
enum Since {
    Now,
    Minutes(u64),
    Hours(u64),
    Yesterday,
    Days(u64),
}

impl Since {
    /// A time ahead of now (another clock, a person's edit) is now.
    fn of(now_ms: f64, at_ms: f64) -> Since {
        const MINUTE: f64 = 60_000.0;
        const HOUR: f64 = 60.0 * MINUTE;
        const DAY: f64 = 24.0 * HOUR;
        let since = (now_ms - at_ms).max(0.0);
        let whole = |unit: f64| (since / unit).floor() as u64;
        if since < MINUTE {
            Since::Now
        } else if since < HOUR {
            Since::Minutes(whole(MINUTE))
        } else if since < DAY {
            Since::Hours(whole(HOUR))
        } else if since < 2.0 * DAY {
            Since::Yesterday
        } else {
            Since::Days(whole(DAY))
        }
    }
}

/// "just now", "5 minutes ago", "3 hours ago", "yesterday", "12 days ago": how long ago `at_ms`
/// was at `now_ms`. A time ahead of now (another clock, a person's edit) is "just now".
pub fn ago(now_ms: f64, at_ms: f64) -> String {
    match Since::of(now_ms, at_ms) {
        Since::Now => tr!("open-ago-now"),
        Since::Minutes(count) => tr!("open-ago-minutes", count = count),
        Since::Hours(count) => tr!("open-ago-hours", count = count),
        Since::Yesterday => tr!("open-ago-yesterday"),
        Since::Days(count) => tr!("open-ago-days", count = count),
    }
}

/// What the page says when a file opened by its handle is not as it was when last opened
/// here (`None` when it is): its size and time then and now.
pub fn changed_since(
    name: &str,
    (was_size, was_modified_ms): (u64, u64),
    (size, modified_ms): (u64, u64),
) -> Option<String> {
    match (was_size != size, was_modified_ms != modified_ms) {
        (false, false) => None,
        (true, _) => Some(tr!(
            "open-recent-changed-size",
            name = name,
            was = format_bytes(was_size),
            now = format_bytes(size)
        )),
        (false, true) => Some(tr!("open-recent-changed-saved", name = name)),
    }
}

/// "This site stores 1.2 MB here, of the 10 GB this browser allows it.": what kept copies (and
/// anything else of the site) take, from the browser's estimate.
pub fn storage_line(usage: u64, quota: u64) -> String {
    tr!(
        "open-recent-storage",
        usage = format_bytes(usage),
        quota = format_bytes(quota)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHA: &str = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

    fn recent(reopen: Reopen, size: Option<u64>, tables: usize) -> Recent {
        Recent {
            name: "shop.db".into(),
            size,
            tables,
            opened_at_ms: 1_000.0,
            reopen,
        }
    }

    #[test]
    fn each_way_back_is_said() {
        let copy = recent(Reopen::Copy { sha256: SHA.into() }, Some(28_672), 3);
        assert_eq!(
            entry_line(&copy, 1_000.0 + 5.5 * 60_000.0),
            "29 KB · 3 tables · a copy kept here · opened 5 minutes ago"
        );
        let url = "https://data.example.org/files/a.db".to_string();
        let address = recent(Reopen::Address { url }, None, 1);
        assert_eq!(
            entry_line(&address, 1_000.0),
            "1 table · at data.example.org · opened just now"
        );
        let address = "http://127.0.0.1:8001/fixtures".to_string();
        let served = recent(Reopen::Datasette { address }, None, 16);
        assert_eq!(
            entry_line(&served, 1_000.0 + 30.0 * 3_600_000.0),
            "16 tables · on the Datasette server at 127.0.0.1:8001 · opened yesterday"
        );
    }

    /// Mutation: the host written as it is, not through `data` (the page would then let a
    /// translation touch it).
    #[test]
    fn the_host_is_marked_as_data() {
        let url = "https://data.example.org/files/a.db".to_string();
        let address = recent(Reopen::Address { url }, None, 2);
        assert_eq!(
            entry_line_with(&address, 1_000.0, |host| format!("<{host}>")),
            "2 tables · at <data.example.org> · opened just now"
        );
    }

    #[test]
    fn ago_has_a_unit_for_each_span_and_no_future() {
        let minute = 60_000.0;
        let cases = [
            (0.0, "just now"),
            (59_999.0, "just now"),
            (minute, "1 minute ago"),
            (59.9 * minute, "59 minutes ago"),
            (60.0 * minute, "1 hour ago"),
            (23.9 * 60.0 * minute, "23 hours ago"),
            (24.0 * 60.0 * minute, "yesterday"),
            (48.0 * 60.0 * minute, "2 days ago"),
            (-5.0 * minute, "just now"),
        ];
        for (since, said) in cases {
            assert_eq!(ago(10_000_000.0 + since, 10_000_000.0), said, "{since} ms");
        }
    }

    #[test]
    fn a_changed_file_is_said_by_what_changed() {
        assert_eq!(changed_since("big.db", (600, 5), (600, 5)), None);
        let grown = changed_since("big.db", (600_000_000, 5), (700_000_000, 9)).unwrap();
        assert!(
            grown.starts_with(
                "big.db changed since it was last opened here (it was 600 MB and is 700 MB now)"
            ),
            "{grown}"
        );
        let saved = changed_since("big.db", (600, 5), (600, 9)).unwrap();
        assert!(
            saved.contains("(it was saved again since, at the same size)"),
            "{saved}"
        );
    }

    #[test]
    fn storage_is_said_in_a_persons_units() {
        assert_eq!(
            storage_line(1_234_567, 10_000_000_000),
            "This site stores 1.2 MB here, of the 10 GB this browser allows it."
        );
    }
}
