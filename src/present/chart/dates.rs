//! Labels that are dates, as SQLite writes them (`strftime` and ISO 8601 text).

/// How precise a date label is. A line chart needs all its labels equally precise, so that
/// their positions share one unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Precision {
    Year,
    Month,
    Day,
    Time,
}

/// A date label's precision and its place on a time axis: the year for `YYYY`, months since
/// year 0 for `YYYY-MM`, days since 1970-01-01 for `YYYY-MM-DD`, seconds since then with a
/// time of day (`YYYY-MM-DD HH:MM[:SS[.fff]]`, `T` or space, optional `Z`).
pub fn position(label: &str) -> Option<(Precision, f64)> {
    let (date, time) = match label.split_once([' ', 'T']) {
        Some((date, time)) => (date, Some(time)),
        None => (label, None),
    };
    let mut parts = date.split('-');
    let year = number(parts.next()?, 4, 1000, 2999)?;
    let Some(month) = parts.next() else {
        return time.is_none().then_some((Precision::Year, year as f64));
    };
    let month = number(month, 2, 1, 12)?;
    let Some(day) = parts.next() else {
        return time
            .is_none()
            .then_some((Precision::Month, (year * 12 + month - 1) as f64));
    };
    let day = number(day, 2, 1, days_in_month(year, month))?;
    if parts.next().is_some() {
        return None;
    }
    let days = days_since_epoch(year, month, day) as f64;
    match time {
        None => Some((Precision::Day, days)),
        Some(time) => Some((Precision::Time, days * 86_400.0 + seconds_of_day(time)?)),
    }
}

/// `HH:MM`, `HH:MM:SS` or `HH:MM:SS.fff`, optionally ending in `Z`.
fn seconds_of_day(time: &str) -> Option<f64> {
    let time = time.strip_suffix('Z').unwrap_or(time);
    let (clock, fraction) = match time.split_once('.') {
        Some((clock, fraction)) => (clock, Some(fraction)),
        None => (time, None),
    };
    let mut parts = clock.split(':');
    let hours = number(parts.next()?, 2, 0, 23)?;
    let minutes = number(parts.next()?, 2, 0, 59)?;
    let seconds = match parts.next() {
        Some(seconds) => number(seconds, 2, 0, 59)?,
        None if fraction.is_none() => 0,
        None => return None,
    };
    if parts.next().is_some() {
        return None;
    }
    let fraction = match fraction {
        Some(digits) if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) => {
            format!("0.{digits}").parse::<f64>().ok()?
        }
        Some(_) => return None,
        None => 0.0,
    };
    Some((hours * 3600 + minutes * 60 + seconds) as f64 + fraction)
}

/// Exactly `digits` ASCII digits, within `min..=max`.
fn number(text: &str, digits: usize, min: i64, max: i64) -> Option<i64> {
    if text.len() != digits || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let value = text.parse().ok()?;
    (min..=max).contains(&value).then_some(value)
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days from 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's algorithm).
fn days_since_epoch(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month_from_march = (month + 9) % 12;
    let day_of_year = (153 * month_from_march + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

#[cfg(test)]
mod tests {
    use super::{position, Precision};

    #[test]
    fn each_precision_has_its_unit() {
        assert_eq!(position("2024"), Some((Precision::Year, 2024.0)));
        assert_eq!(position("2024-01"), Some((Precision::Month, 2024.0 * 12.0)));
        assert_eq!(position("1970-01-02"), Some((Precision::Day, 1.0)));
        assert_eq!(position("2000-03-01"), Some((Precision::Day, 11_017.0)));
        assert_eq!(
            position("1970-01-01 01:00"),
            Some((Precision::Time, 3600.0))
        );
        assert_eq!(
            position("1970-01-02T00:00:01.5Z"),
            Some((Precision::Time, 86_401.5))
        );
    }

    #[test]
    fn consecutive_months_and_days_are_one_apart() {
        let month = |s| position(s).unwrap().1;
        assert_eq!(month("2024-01") - month("2023-12"), 1.0);
        assert_eq!(month("2024-03-01") - month("2024-02-29"), 1.0);
        assert_eq!(month("2023-03-01") - month("2023-02-28"), 1.0);
    }

    #[test]
    fn things_that_are_not_dates() {
        for label in [
            "electronics",
            "",
            "24",
            "12345",
            "0999",
            "2024-13",
            "2024-1",
            "2023-02-29",
            "2024-04-31",
            "2024-01-01-01",
            "2024-01-01 25:00",
            "2024-01-01 10",
            "2024 ",
            "2024-01 10:00",
            "2024-01-01 10:00.5",
            "2024-01-01 10:00:00.",
            "２０２４",
        ] {
            assert_eq!(position(label), None, "{label:?}");
        }
    }
}
