//! What a reader is told of a demo's endpoint (`settings::demo_endpoint`): who answers and
//! pays beside the question box, why the endpoint cannot be used, and, when one of its limits
//! has run out, which one and when it comes back, in the reader's own time, in one sentence.

use crate::llm::ProxyRefusal;
use crate::settings::demo_endpoint::DemoCard;
use crate::tr;

/// "Questions here are answered by gpt-4.1-mini, paid for by the Music docs · 47 model calls
/// left today".
pub fn answered_by(card: &DemoCard) -> String {
    let (model, paid_by) = (card.model.as_str(), card.paid_by.as_str());
    match card.left_today {
        Some(left) => tr!(
            "settings-demo-answered-by-left",
            model = model,
            paid_by = paid_by,
            left = left
        ),
        None => tr!(
            "settings-demo-answered-by",
            model = model,
            paid_by = paid_by
        ),
    }
}

/// Why the endpoint cannot answer, and what the reader can do instead.
pub fn unreachable(why: &str, has_recording: bool) -> String {
    if has_recording {
        tr!("settings-demo-unreachable-recording", why = why)
    } else {
        tr!("settings-demo-unreachable", why = why)
    }
}

/// The line when the reader chose their own model in Settings during the visit.
pub fn readers_own_model() -> String {
    tr!("settings-demo-readers-own")
}

/// The one sentence for a limit that ran out: which, and when it comes back. `now_ms` is the
/// time now (ms since 1970, UTC); `local_offset_min` gives the reader's offset from UTC
/// (minutes, east positive) at a given instant, as their browser knows it.
pub fn limit_sentence(
    refusal: &ProxyRefusal,
    now_ms: f64,
    local_offset_min: impl Fn(f64) -> i32,
) -> String {
    let back_at = refusal
        .resets_at
        .as_deref()
        .and_then(utc_ms)
        .or_else(|| refusal.retry_after_s.map(|s| now_ms + s as f64 * 1000.0));
    let when = match back_at {
        Some(at) => local_time_phrase(at, now_ms, &local_offset_min),
        None => tr!("settings-demo-when-later"),
    };
    match refusal.reason.as_str() {
        "reader_burst" => tr!("settings-demo-limit-burst", when = when),
        "reader_per_day" => tr!("settings-demo-limit-reader-day", when = when),
        "demo_requests_per_day" => tr!("settings-demo-limit-demo-requests", when = when),
        "demo_tokens_per_day" => tr!("settings-demo-limit-demo-tokens", when = when),
        "global_tokens_per_day" => tr!("settings-demo-limit-all-demos", when = when),
        other => tr!("settings-demo-limit-other", reason = other, when = when),
    }
}

/// "at 14:05 (your time)", "tomorrow at 01:00 (your time)", or "on 2026-12-07 at 01:00 (your
/// time)".
fn local_time_phrase(at_ms: f64, now_ms: f64, offset_min: &impl Fn(f64) -> i32) -> String {
    let local = |ms: f64| ms + f64::from(offset_min(ms)) * 60_000.0;
    let (at, now) = (local(at_ms), local(now_ms));
    let day = |ms: f64| (ms / 86_400_000.0).floor() as i64;
    let minute_of_day = (at - day(at) as f64 * 86_400_000.0) / 60_000.0;
    let clock = format!(
        "{:02}:{:02}",
        (minute_of_day / 60.0).floor() as i64,
        (minute_of_day % 60.0).floor() as i64
    );
    match day(at) - day(now) {
        i64::MIN..=0 => tr!("settings-demo-when-today", clock = clock),
        1 => tr!("settings-demo-when-tomorrow", clock = clock),
        _ => {
            let (y, m, d) = civil_from_days(day(at));
            let date = format!("{y:04}-{m:02}-{d:02}");
            tr!("settings-demo-when-on", date = date, clock = clock)
        }
    }
}

/// `2026-12-05T00:00:00Z` (optionally with fractions of a second) in ms since 1970; `None` for
/// anything else (an offset other than `Z`, a date that is not one).
fn utc_ms(text: &str) -> Option<f64> {
    let text = text.trim().strip_suffix('Z')?;
    let (date, time) = text.split_once('T')?;
    let mut date = date.splitn(3, '-').map(|n| n.parse::<i64>().ok());
    let (y, m, d) = (date.next()??, date.next()??, date.next()??);
    let time = time.split('.').next()?;
    let mut time = time.splitn(3, ':').map(|n| n.parse::<i64>().ok());
    let (h, min, s) = (time.next()??, time.next()??, time.next()??);
    let valid = (1..=12).contains(&m) && (1..=31).contains(&d) && h < 24 && min < 60 && s < 61;
    if !valid || h < 0 || min < 0 || s < 0 {
        return None;
    }
    let days = days_from_civil(y, m, d);
    Some(((days * 24 + h) * 60 + min) as f64 * 60_000.0 + s as f64 * 1000.0)
}

/// Days since 1970-01-01 of a date of the proleptic Gregorian calendar (Howard Hinnant's
/// algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a day since 1970-01-01 (the inverse of [`days_from_civil`]).
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::llm::ProviderKind;

    fn limit(reason: &str, resets_at: Option<&str>, retry_after_s: Option<u64>) -> ProxyRefusal {
        ProxyRefusal {
            status: 429,
            reason: reason.into(),
            message: "This reader has asked 30 times today.".into(),
            resets_at: resets_at.map(str::to_string),
            retry_after_s,
        }
    }

    /// 2026-12-04T18:56:10Z.
    const NOW: f64 = 1_796_410_570_000.0;

    #[test]
    fn dates_are_read_as_utc() {
        assert_eq!(utc_ms("1970-01-01T00:00:00Z"), Some(0.0));
        assert_eq!(utc_ms("2026-12-04T18:56:10Z"), Some(NOW));
        assert_eq!(utc_ms("2026-12-04T18:56:10.250Z"), Some(NOW));
        for wrong in [
            "2026-12-04T18:56:10+01:00",
            "2026-13-04T00:00:00Z",
            "soon",
            "",
        ] {
            assert_eq!(utc_ms(wrong), None, "{wrong}");
        }
        for day in [-1, 0, 59, 365, 20_426, 100_000] {
            let (y, m, d) = civil_from_days(day);
            assert_eq!(days_from_civil(y, m, d), day);
        }
    }

    #[test]
    fn a_days_limit_says_which_and_when_in_the_readers_time() {
        let refusal = limit("reader_per_day", Some("2026-12-05T00:00:00Z"), Some(18_230));
        // In UTC: midnight is tomorrow.
        assert_eq!(
            limit_sentence(&refusal, NOW, |_| 0),
            "You have asked all the questions this demo answers for one reader a day: more \
             come tomorrow at 00:00 (your time)."
        );
        // In Tokyo (UTC+9) it is already the 5th, 03:56: the reset is at 09:00 today.
        assert!(limit_sentence(&refusal, NOW, |_| 540).ends_with("come at 09:00 (your time)."));
        // In New York (UTC-5), 19:00 today.
        assert!(limit_sentence(&refusal, NOW, |_| -300).ends_with("come at 19:00 (your time)."));
    }

    #[test]
    fn each_limit_has_its_own_words() {
        let at = Some("2026-12-05T00:00:00Z");
        let said = |reason: &str| limit_sentence(&limit(reason, at, None), NOW, |_| 0);
        assert!(said("demo_requests_per_day").starts_with("This demo has answered all"));
        assert!(said("demo_tokens_per_day").starts_with("This demo has used all the model time"));
        assert!(said("global_tokens_per_day").starts_with("The author's model budget"));
        assert!(said("something_new").contains("its limit (something_new)"));
        for reason in [
            "reader_per_day",
            "demo_requests_per_day",
            "global_tokens_per_day",
        ] {
            let sentence = said(reason);
            assert_eq!(
                sentence.matches(". ").count(),
                0,
                "one sentence: {sentence}"
            );
            assert!(!sentence.to_lowercase().contains("api key"), "{sentence}");
        }
    }

    #[test]
    fn without_a_reset_time_the_wait_counts_and_then_nothing() {
        let burst = limit("reader_burst", None, Some(90));
        assert_eq!(
            limit_sentence(&burst, NOW, |_| 0),
            "You have asked this demo many questions in a short time: it answers again at \
             18:57 (your time)."
        );
        let unknown = limit("reader_burst", Some("whenever"), None);
        assert!(limit_sentence(&unknown, NOW, |_| 0).ends_with("again later."));
        let far = limit("global_tokens_per_day", Some("2026-12-09T00:00:00Z"), None);
        assert!(limit_sentence(&far, NOW, |_| 0).ends_with("on 2026-12-09 at 00:00 (your time)."));
    }

    #[test]
    fn the_line_beside_the_question_box_says_who_pays_and_what_is_left() {
        let mut card = DemoCard {
            demo: "music".into(),
            provider: ProviderKind::OpenAi,
            model: "gpt-4.1-mini".into(),
            paid_by: "the Music docs".into(),
            left_today: Some(47),
        };
        assert_eq!(
            answered_by(&card),
            "Questions here are answered by gpt-4.1-mini, paid for by the Music docs · 47 \
             model calls left today"
        );
        card.left_today = Some(1);
        assert!(answered_by(&card).ends_with("· 1 model call left today"));
        card.left_today = Some(0);
        assert!(answered_by(&card).ends_with("· no model calls left today"));
        card.left_today = None;
        assert!(answered_by(&card).ends_with("the Music docs"));
        let down = unreachable("HTTP 502", true);
        assert_eq!(
            down,
            "This demo's endpoint could not be reached (HTTP 502): watch the recorded \
             conversation, or use your own model (Settings)."
        );
        assert!(!unreachable("offline", false).contains("recorded"));
        assert!(!down.to_lowercase().contains("api key"));
    }

    /// Breaks when the Japanese sentence and its time phrase no longer join (tried: the に
    /// dropped from settings-demo-when-tomorrow, which says "明日の 00:00（現地時間）また").
    #[test]
    fn in_japanese_the_limit_says_when_in_one_sentence_with_its_particle() {
        let japanese =
            crate::i18n::catalogue::Catalogue::parse(include_str!("../../www/i18n/ja.ftl"))
                .unwrap();
        crate::i18n::set_language("ja", japanese);
        let refusal = limit("reader_per_day", Some("2026-12-05T00:00:00Z"), None);
        let tomorrow = limit_sentence(&refusal, NOW, |_| 0);
        let unknown = limit_sentence(&limit("reader_burst", None, None), NOW, |_| 0);
        crate::i18n::set_english();
        assert!(
            tomorrow.ends_with("明日の 00:00（現地時間）にまた質問できます。"),
            "{tomorrow}"
        );
        assert!(unknown.ends_with("後ほどまた答えます。"), "{unknown}");
    }
}
