//! The limits, counted exactly: every admission is decided and counted under one lock, and the
//! count is written to the state file before the request goes upstream (docs/live-demos.md,
//! "Counting").
//!
//! Tokens are charged when a request is admitted, as a reservation (its body's bytes, an upper
//! bound on its prompt's tokens, plus its `max_tokens`), and the charge becomes the provider's
//! reported usage when the answer ends. So concurrent requests can never spend past a budget,
//! and a crash leaves the reservation charged rather than nothing.

use crate::config::{Config, Demo, Limits};
use crate::day::Moment;
use crate::reader::Reader;
use crate::refusal::{Limit, Refusal};
use crate::state::{State, StateError};
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use std::collections::{BTreeMap, HashMap};
use std::num::NonZeroU32;
use std::sync::Mutex;

/// A request let through: what it was charged, to settle when its answer ends.
#[derive(Debug)]
pub struct Admission {
    demo: String,
    day: String,
    reserved: u64,
}

pub struct Limiter {
    books: Mutex<Books>,
    /// Per demo: each reader's burst and per-minute rate (GCRA), keyed by their hash.
    rates: HashMap<String, DefaultKeyedRateLimiter<Reader>>,
    global_tokens_per_day: u64,
}

/// The counters, and the state file they are written to, behind the one lock.
struct Books {
    state: State,
    /// The UTC day `today` counts.
    day: String,
    today: HashMap<String, u64>,
    since_start: HashMap<String, u64>,
}

// The counters' names (also the state file's rows).
fn requests(demo: &str) -> String {
    format!("requests:{demo}")
}
fn tokens(demo: &str) -> String {
    format!("tokens:{demo}")
}
const GLOBAL_TOKENS: &str = "tokens:*";
fn reader_requests(demo: &str, reader: &Reader) -> String {
    format!("reader:{demo}:{}", reader.0)
}
fn refusals(demo: &str, reason: &str) -> String {
    format!("refused:{demo}:{reason}")
}

impl Books {
    /// Moves to `now`'s day when it has changed: a new day starts from zero.
    fn roll(&mut self, now: Moment) -> Result<(), StateError> {
        let day = now.day();
        if day != self.day {
            self.state.forget_before(&day)?;
            self.today = self.state.day(&day)?;
            self.day = day;
        }
        Ok(())
    }

    fn get(&self, name: &str) -> u64 {
        self.today.get(name).copied().unwrap_or(0)
    }

    /// Sets today's counter and writes it, then counts the change since start.
    fn add(&mut self, name: String, amount: i64) -> Result<(), StateError> {
        let value = self.get(&name).saturating_add_signed(amount);
        self.state.set(&self.day, &name, value)?;
        let since_start = self.since_start.entry(name.clone()).or_default();
        *since_start = since_start.saturating_add_signed(amount);
        self.today.insert(name, value);
        Ok(())
    }
}

impl Limiter {
    pub fn new(config: &Config, state: State, now: Moment) -> Result<Limiter, StateError> {
        let day = now.day();
        state.forget_before(&day)?;
        let today = state.day(&day)?;
        let rates = config
            .demos
            .values()
            .map(|demo| (demo.name.clone(), RateLimiter::keyed(quota(&demo.limits))))
            .collect();
        Ok(Limiter {
            books: Mutex::new(Books {
                state,
                day,
                today,
                since_start: HashMap::new(),
            }),
            rates,
            global_tokens_per_day: config.global_tokens_per_day,
        })
    }

    fn books(&self) -> std::sync::MutexGuard<'_, Books> {
        // A panic while counting leaves numbers that are still numbers: go on with them.
        self.books
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Lets one request of `reader` through to `demo`, charging `reservation` tokens, or says
    /// which limit ran out. A day's limit is named before the burst: it is the longer wait.
    pub fn admit(
        &self,
        demo: &Demo,
        reader: &Reader,
        reservation: u64,
        now: Moment,
    ) -> Result<Result<Admission, Refusal>, StateError> {
        let mut books = self.books();
        books.roll(now)?;
        let limits = &demo.limits;
        let until_midnight = |limit: Limit, allowed: u64| Refusal::Limit {
            limit,
            allowed,
            retry_after_s: now.seconds_to_midnight(),
            resets_at: now.resets_at(),
        };
        let day_limit = if books.get(&reader_requests(&demo.name, reader)) >= limits.reader_per_day
        {
            Some(until_midnight(Limit::ReaderPerDay, limits.reader_per_day))
        } else if books.get(&requests(&demo.name)) >= limits.requests_per_day {
            Some(until_midnight(
                Limit::DemoRequestsPerDay,
                limits.requests_per_day,
            ))
        } else if books.get(&tokens(&demo.name)).saturating_add(reservation) > limits.tokens_per_day
        {
            Some(until_midnight(
                Limit::DemoTokensPerDay,
                limits.tokens_per_day,
            ))
        } else if books.get(GLOBAL_TOKENS).saturating_add(reservation) > self.global_tokens_per_day
        {
            Some(until_midnight(
                Limit::GlobalTokensPerDay,
                self.global_tokens_per_day,
            ))
        } else {
            None
        };
        if let Some(refusal) = day_limit {
            return Ok(Err(refusal));
        }
        // Checked last, still under the lock: it takes a cell only from a request let through.
        if let Some(rate) = self.rates.get(&demo.name) {
            if let Err(not_until) = rate.check_key(reader) {
                let wait = not_until.wait_time_from(DefaultClock::default().now());
                let retry_after_s = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
                let retry_after_s = retry_after_s.max(1);
                return Ok(Err(Refusal::Limit {
                    limit: Limit::ReaderBurst,
                    allowed: u64::from(limits.reader_per_minute),
                    retry_after_s,
                    resets_at: Moment(now.0 + retry_after_s).rfc3339(),
                }));
            }
        }
        books.add(reader_requests(&demo.name, reader), 1)?;
        books.add(requests(&demo.name), 1)?;
        let charge = reservation.min(i64::MAX as u64) as i64;
        books.add(tokens(&demo.name), charge)?;
        books.add(GLOBAL_TOKENS.to_string(), charge)?;
        Ok(Ok(Admission {
            demo: demo.name.clone(),
            day: books.day.clone(),
            reserved: reservation,
        }))
    }

    /// The answer ended: its charge becomes the usage the provider reported, or stays the
    /// reservation when it reported none.
    pub fn settle(&self, admission: Admission, used: Option<u64>) -> Result<(), StateError> {
        let Some(used) = used else {
            return Ok(());
        };
        let mut books = self.books();
        // An answer that ends after midnight settles nothing: yesterday's budget is over.
        if books.day != admission.day {
            return Ok(());
        }
        let change =
            used.min(i64::MAX as u64) as i64 - admission.reserved.min(i64::MAX as u64) as i64;
        books.add(tokens(&admission.demo), change)?;
        books.add(GLOBAL_TOKENS.to_string(), change)
    }

    /// Counts a refusal of `reason` for `demo` (`*` when it names no demo), for /stats.
    pub fn count_refusal(&self, demo: &str, reason: &str, now: Moment) -> Result<(), StateError> {
        let mut books = self.books();
        books.roll(now)?;
        books.add(refusals(demo, reason), 1)
    }

    /// How many model calls `reader` may still make today on `demo`: the least of what is left
    /// of their own daily limit and of the demo's.
    pub fn left_today(&self, demo: &Demo, reader: &Reader, now: Moment) -> Result<u64, StateError> {
        let mut books = self.books();
        books.roll(now)?;
        let limits: &Limits = &demo.limits;
        let reader_left = limits
            .reader_per_day
            .saturating_sub(books.get(&reader_requests(&demo.name, reader)));
        let demo_left = limits
            .requests_per_day
            .saturating_sub(books.get(&requests(&demo.name)));
        Ok(reader_left.min(demo_left))
    }

    /// The numbers /stats shows: per demo (and `*` for all), today's and since start.
    pub fn snapshot(&self, demos: &[String], now: Moment) -> Result<Snapshot, StateError> {
        let mut books = self.books();
        books.roll(now)?;
        let mut per_demo = BTreeMap::new();
        for demo in demos.iter().map(String::as_str).chain(["*"]) {
            let reader_prefix = format!("reader:{demo}:");
            let refused_prefix = format!("refused:{demo}:");
            let figures = |counters: &HashMap<String, u64>| {
                let sum_prefixed = |prefix: &str| -> u64 {
                    counters
                        .iter()
                        .filter(|(name, _)| demo == "*" && name.starts_with(prefix))
                        .map(|(_, value)| value)
                        .sum()
                };
                let (requests_made, tokens_used) = if demo == "*" {
                    (
                        sum_prefixed("requests:"),
                        counters.get(GLOBAL_TOKENS).copied().unwrap_or(0),
                    )
                } else {
                    (
                        counters.get(&requests(demo)).copied().unwrap_or(0),
                        counters.get(&tokens(demo)).copied().unwrap_or(0),
                    )
                };
                let mut refused: BTreeMap<String, u64> = BTreeMap::new();
                for (name, value) in counters {
                    let reason = if demo == "*" {
                        name.strip_prefix("refused:")
                            .and_then(|rest| rest.split_once(':'))
                            .map(|(_, reason)| reason)
                    } else {
                        name.strip_prefix(&refused_prefix)
                    };
                    if let Some(reason) = reason {
                        *refused.entry(reason.to_string()).or_default() += value;
                    }
                }
                let readers = counters
                    .keys()
                    .filter(|name| {
                        if demo == "*" {
                            name.starts_with("reader:")
                        } else {
                            name.starts_with(&reader_prefix)
                        }
                    })
                    .count() as u64;
                Figures {
                    requests: requests_made,
                    tokens: tokens_used,
                    refused,
                    readers,
                }
            };
            per_demo.insert(
                demo.to_string(),
                (figures(&books.today), figures(&books.since_start)),
            );
        }
        Ok(Snapshot {
            day: books.day.clone(),
            per_demo,
        })
    }

    /// Forgets rate state of readers who have been quiet long enough to be back to a full
    /// burst: the keyed limiters otherwise grow with every address ever seen.
    pub fn forget_quiet_readers(&self) {
        for rate in self.rates.values() {
            rate.retain_recent();
        }
    }
}

fn quota(limits: &Limits) -> Quota {
    let per_minute = NonZeroU32::new(limits.reader_per_minute).unwrap_or(NonZeroU32::MIN);
    let burst = NonZeroU32::new(limits.reader_burst).unwrap_or(NonZeroU32::MIN);
    Quota::per_minute(per_minute).allow_burst(burst)
}

/// A demo's (or, as `*`, every demo's) numbers over a span.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Figures {
    pub requests: u64,
    pub tokens: u64,
    pub refused: BTreeMap<String, u64>,
    /// Distinct readers (hashes) that were let through.
    pub readers: u64,
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct Snapshot {
    pub day: String,
    /// Per demo name (and `*`): (today, since start).
    pub per_demo: BTreeMap<String, (Figures, Figures)>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Key, Pin};
    use askdb::llm::ProviderKind;
    use std::sync::Arc;

    fn demo(limits: Limits) -> Demo {
        Demo {
            name: "music".into(),
            provider: ProviderKind::OpenAi,
            upstream: "http://127.0.0.1:1".into(),
            key: Key::new("k"),
            models: vec!["m".into()],
            max_tokens: 10,
            origins: vec![],
            paid_by: "the author".into(),
            pins: Vec::<Pin>::new(),
            database: None,
            limits,
        }
    }

    fn limiter(demo: &Demo, global: u64, name: &str) -> Limiter {
        let folder =
            std::env::temp_dir().join(format!("askdb-proxy-limits-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&folder).unwrap();
        let path = folder.join("state.sqlite");
        let _ = std::fs::remove_file(&path);
        let config = Config {
            listen: "127.0.0.1:0".parse().unwrap(),
            state: path.clone(),
            max_body_bytes: 1000,
            global_tokens_per_day: global,
            trusted_proxies: vec![],
            forwarded_header: None,
            demos: [(demo.name.clone(), self::demo(demo.limits))].into(),
        };
        Limiter::new(&config, State::open(&path).unwrap(), Moment(1_800_000_000)).unwrap()
    }

    const NOON: Moment = Moment(1_800_000_000);

    #[test]
    fn concurrent_admissions_stop_exactly_at_the_demos_limit() {
        let demo = Arc::new(demo(Limits {
            reader_burst: 1000,
            reader_per_minute: 1000,
            reader_per_day: 1000,
            requests_per_day: 37,
            tokens_per_day: 1_000_000,
        }));
        let limiter = Arc::new(limiter(&demo, 1_000_000, "exact"));
        let admitted: usize = std::thread::scope(|scope| {
            let threads: Vec<_> = (0..8)
                .map(|thread| {
                    let (demo, limiter) = (demo.clone(), limiter.clone());
                    scope.spawn(move || {
                        (0..25)
                            .filter(|i| {
                                let reader = Reader(format!("r{thread}-{i}"));
                                limiter.admit(&demo, &reader, 1, NOON).unwrap().is_ok()
                            })
                            .count()
                    })
                })
                .collect();
            threads
                .into_iter()
                .map(|thread| thread.join().unwrap())
                .sum()
        });
        assert_eq!(admitted, 37);
    }

    #[test]
    fn a_reservation_holds_the_budget_until_it_is_settled() {
        let demo = demo(Limits {
            reader_burst: 100,
            reader_per_minute: 100,
            reader_per_day: 100,
            requests_per_day: 100,
            tokens_per_day: 1000,
        });
        let limiter = limiter(&demo, 1_000_000, "reserve");
        let reader = Reader("r".into());
        let first = limiter.admit(&demo, &reader, 600, NOON).unwrap().unwrap();
        let refused = limiter
            .admit(&demo, &reader, 600, NOON)
            .unwrap()
            .unwrap_err();
        assert_eq!(refused.reason(), "demo_tokens_per_day");
        limiter.settle(first, Some(50)).unwrap();
        let second = limiter.admit(&demo, &reader, 600, NOON).unwrap().unwrap();
        limiter.settle(second, None).unwrap();
        let today = &limiter.snapshot(&["music".into()], NOON).unwrap().per_demo["music"].0;
        assert_eq!((today.requests, today.tokens), (2, 650));
    }

    #[test]
    fn the_burst_refuses_with_a_wait_and_the_day_with_midnight() {
        let demo = demo(Limits {
            reader_burst: 2,
            reader_per_minute: 1,
            reader_per_day: 3,
            requests_per_day: 100,
            tokens_per_day: 1000,
        });
        let limiter = limiter(&demo, 1_000_000, "burst");
        let reader = Reader("r".into());
        for _ in 0..2 {
            limiter.admit(&demo, &reader, 1, NOON).unwrap().unwrap();
        }
        match limiter.admit(&demo, &reader, 1, NOON).unwrap().unwrap_err() {
            Refusal::Limit {
                limit,
                retry_after_s,
                ..
            } => {
                assert_eq!(limit, Limit::ReaderBurst);
                assert!((1..=60).contains(&retry_after_s), "{retry_after_s}");
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(limiter.left_today(&demo, &reader, NOON).unwrap(), 1);
        // Another reader has their own burst.
        limiter
            .admit(&demo, &Reader("other".into()), 1, NOON)
            .unwrap()
            .unwrap();
    }
}
