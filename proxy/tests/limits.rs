//! The limits under a bounded concurrent load, against the real binary: 200 requests at once
//! from 20 readers (told apart by a forwarded address from a trusted 127.0.0.1), the counts
//! exact; the token budgets held by reservations; the counts kept across a restart.

mod common;

use common::*;
use futures_util::future::join_all;
use serde_json::Value;
use std::sync::atomic::Ordering;
use std::time::Duration;

const READERS: usize = 20;
const EACH: usize = 10;

/// 200 requests at once, `EACH` from each of `READERS` readers; the answers.
async fn load(proxy: &Proxy) -> Vec<Answer> {
    let client = client();
    let body = first_request();
    let requests = (0..READERS * EACH).map(|i| {
        let reader = format!("192.0.2.{}", i % READERS + 1);
        let (client, body) = (&client, &body);
        async move { ask(client, proxy, &reader, body).await }
    });
    join_all(requests).await
}

/// Every refusal is a 429 of `reason` with `Retry-After`; gives how many were let through.
fn admitted(answers: &[Answer], reason: &str) -> usize {
    for answer in answers.iter().filter(|answer| answer.status != 200) {
        assert_eq!(
            (answer.status, answer.reason().as_str()),
            (429, reason),
            "{}",
            answer.text()
        );
        let retry_after: u64 = answer.headers["retry-after"]
            .to_str()
            .unwrap()
            .parse()
            .unwrap();
        assert!(retry_after >= 1);
        assert_eq!(answer.json()["error"]["retry_after_s"], retry_after);
    }
    answers.iter().filter(|answer| answer.status == 200).count()
}

/// Mutations that must make this fail: counting after forwarding instead of under the lock
/// (more than the burst gets through at once), keying the burst by the connection's address
/// rather than the forwarded one (all 20 readers would share 127.0.0.1's burst).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_reader_gets_exactly_their_burst() {
    let upstream = Upstream::start(Script::Answer {
        delay: Duration::from_millis(50),
    })
    .await;
    let folder = Folder::new("burst");
    let limits = Limits {
        reader_burst: 3,
        reader_per_minute: 1,
        ..GENEROUS
    };
    let proxy = Proxy::start(&folder, &config(&folder, &upstream, &limits, 10_000_000));
    let answers = load(&proxy).await;
    assert_eq!(admitted(&answers, "reader_burst"), READERS * 3);
    assert_eq!(upstream.received(), READERS * 3);
    let stats = stats(&client(), &proxy).await;
    let today = &stats["demos"]["music"]["today"];
    assert_eq!(today["readers"], READERS, "{stats}");
    assert_eq!(
        today["refused"]["reader_burst"],
        READERS * (EACH - 3),
        "{stats}"
    );
}

/// Mutations that must make this fail: counting after forwarding instead of under the lock,
/// or checking `>` instead of `>=` against the day's limit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_demo_and_each_reader_stop_exactly_at_their_day_limits() {
    let upstream = Upstream::start(Script::Answer {
        delay: Duration::from_millis(50),
    })
    .await;
    let folder = Folder::new("day");
    // Readers may make 4 calls a day, the demo 67: 20 readers would want 80.
    let limits = Limits {
        reader_per_day: 4,
        requests_per_day: 67,
        ..GENEROUS
    };
    let proxy = Proxy::start(&folder, &config(&folder, &upstream, &limits, 10_000_000));
    let answers = load(&proxy).await;
    let refused: Vec<String> = answers
        .iter()
        .filter(|answer| answer.status != 200)
        .map(Answer::reason)
        .collect();
    assert!(refused
        .iter()
        .all(|reason| reason == "reader_per_day" || reason == "demo_requests_per_day"));
    assert_eq!(
        answers.iter().filter(|answer| answer.status == 200).count(),
        67
    );
    assert_eq!(upstream.received(), 67);
    let stats = stats(&client(), &proxy).await;
    assert_eq!(stats["demos"]["music"]["today"]["requests"], 67, "{stats}");
    assert_eq!(
        stats["demos"]["music"]["today"]["tokens"],
        67 * USAGE,
        "{stats}"
    );
}

/// Mutations that must make this fail: charging tokens only when an answer ends (no
/// reservation: all 200 would be in flight at once), or settling to the reservation instead
/// of the reported usage (the charged tokens would not equal the usage's sum).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn token_budgets_hold_while_answers_are_in_flight() {
    let upstream = Upstream::start(Script::Answer {
        delay: Duration::from_millis(300),
    })
    .await;
    let folder = Folder::new("tokens");
    let reservation = first_request().to_string().len() as u64 + 50;
    // Room for 5 reservations in the demo's budget, 8 in the global one.
    let demo_budget = 5 * reservation + reservation / 2;
    let limits = Limits {
        tokens_per_day: demo_budget,
        ..GENEROUS
    };
    let proxy = Proxy::start(&folder, &config(&folder, &upstream, &limits, 10_000_000));
    let answers = load(&proxy).await;
    let let_through = admitted(&answers, "demo_tokens_per_day");
    assert_eq!(upstream.received(), let_through);
    let most = upstream.seen.most_in_flight.load(Ordering::SeqCst) as u64;
    assert!(
        most * reservation <= demo_budget,
        "{most} in flight at once"
    );
    let demo_stats = stats(&client(), &proxy).await;
    let charged = demo_stats["demos"]["music"]["today"]["tokens"]
        .as_u64()
        .unwrap();
    assert_eq!(charged, let_through as u64 * USAGE, "{demo_stats}");
    assert!(charged <= demo_budget);
    drop(proxy);

    // The global budget, with the demo's own out of the way.
    let upstream = Upstream::start(Script::Answer {
        delay: Duration::from_millis(300),
    })
    .await;
    let folder = Folder::new("global");
    let global_budget = 3 * reservation + reservation / 2;
    let proxy = Proxy::start(
        &folder,
        &config(&folder, &upstream, &GENEROUS, global_budget),
    );
    let answers = load(&proxy).await;
    let let_through = admitted(&answers, "global_tokens_per_day");
    assert_eq!(upstream.received(), let_through);
    let most = upstream.seen.most_in_flight.load(Ordering::SeqCst) as u64;
    assert!(
        most * reservation <= global_budget,
        "{most} in flight at once"
    );
    let all_stats: Value = stats(&client(), &proxy).await;
    let charged = all_stats["all"]["today"]["tokens"].as_u64().unwrap();
    assert_eq!(charged, let_through as u64 * USAGE, "{all_stats}");
}

/// Mutations that must make this fail: keeping the counters in memory only, or making a new
/// salt at each start (the reader would be someone new after the restart).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn counts_survive_a_restart() {
    let upstream = Upstream::start(Script::Answer {
        delay: Duration::ZERO,
    })
    .await;
    let folder = Folder::new("restart");
    let limits = Limits {
        reader_per_day: 3,
        ..GENEROUS
    };
    let config = config(&folder, &upstream, &limits, 10_000_000);
    let client = client();
    let proxy = Proxy::start(&folder, &config);
    for _ in 0..2 {
        assert_eq!(
            ask(&client, &proxy, "192.0.2.77", &first_request())
                .await
                .status,
            200
        );
    }
    // Stopped hard, as a crash would.
    proxy.stop();

    let proxy = Proxy::start(&folder, &config);
    assert_eq!(
        ask(&client, &proxy, "192.0.2.77", &first_request())
            .await
            .status,
        200
    );
    let refused = ask(&client, &proxy, "192.0.2.77", &first_request()).await;
    assert_eq!(
        (refused.status, refused.reason().as_str()),
        (429, "reader_per_day")
    );
    assert!(refused.json()["error"]["resets_at"]
        .as_str()
        .unwrap()
        .ends_with("T00:00:00Z"));
    assert_eq!(upstream.received(), 3);
    let stats = stats(&client, &proxy).await;
    assert_eq!(stats["demos"]["music"]["today"]["requests"], 3, "{stats}");
    assert_eq!(
        stats["demos"]["music"]["today"]["tokens"],
        3 * USAGE,
        "{stats}"
    );
}
