//! `/stats`: the author's page of the day's and the run's numbers, per demo and in all. Readers
//! appear only as a count of distinct hashes; nothing in it comes from a request but counts.

use crate::limits::{Figures, Snapshot};
use serde_json::{json, Value};

/// The name the snapshot gives every demo together.
const ALL: &str = "*";

pub fn json(snapshot: &Snapshot) -> Value {
    let mut demos = serde_json::Map::new();
    let mut all = Value::Null;
    for (demo, (today, since_start)) in &snapshot.per_demo {
        let figures = json!({"today": today, "since_start": since_start});
        if demo == ALL {
            all = figures;
        } else {
            demos.insert(demo.clone(), figures);
        }
    }
    json!({"day": snapshot.day, "demos": demos, "all": all})
}

pub fn html(snapshot: &Snapshot) -> String {
    let mut rows = String::new();
    for (demo, (today, since_start)) in &snapshot.per_demo {
        let name = if demo == ALL {
            "all demos"
        } else {
            demo.as_str()
        };
        for (span, figures) in [("today", today), ("since start", since_start)] {
            rows.push_str(&format!(
                "<tr><td>{}</td><td>{span}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                escape(name),
                figures.requests,
                figures.tokens,
                figures.readers,
                escape(&refusals(figures)),
            ));
        }
    }
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>askdb-proxy</title>\
         <style>body{{font-family:system-ui,sans-serif;margin:2rem}}table{{border-collapse:collapse}}\
         td,th{{border:1px solid #ccc;padding:.3rem .6rem;text-align:left}}</style></head><body>\n\
         <h1>askdb-proxy</h1>\n<p>UTC day {}. Readers are counted by salted hash only.</p>\n\
         <table><tr><th>demo</th><th>span</th><th>requests</th><th>tokens</th><th>readers</th>\
         <th>refused, by reason</th></tr>\n{rows}</table>\n</body></html>\n",
        escape(&snapshot.day)
    )
}

fn refusals(figures: &Figures) -> String {
    if figures.refused.is_empty() {
        return "none".into();
    }
    let parts: Vec<String> = figures
        .refused
        .iter()
        .map(|(reason, count)| format!("{reason}: {count}"))
        .collect();
    parts.join(", ")
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
