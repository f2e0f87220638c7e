//! UTC days: the day limits count in, and when the next one starts.

use std::time::{SystemTime, UNIX_EPOCH};

const SECONDS_PER_DAY: u64 = 86_400;

/// A moment as whole seconds since 1970 (UTC).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Moment(pub u64);

impl Moment {
    pub fn now() -> Moment {
        let seconds = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|elapsed| elapsed.as_secs())
            .unwrap_or(0);
        Moment(seconds)
    }

    /// The UTC day, as `2026-12-04`: the key the day's counters are kept under.
    pub fn day(self) -> String {
        let (year, month, day) = civil_from_days(self.0 / SECONDS_PER_DAY);
        format!("{year:04}-{month:02}-{day:02}")
    }

    /// The next UTC midnight, in RFC 3339 (`2026-12-05T00:00:00Z`).
    pub fn resets_at(self) -> String {
        let (year, month, day) = civil_from_days(self.0 / SECONDS_PER_DAY + 1);
        format!("{year:04}-{month:02}-{day:02}T00:00:00Z")
    }

    /// The moment itself in RFC 3339 (`2026-12-04T17:03:09Z`).
    pub fn rfc3339(self) -> String {
        let seconds = self.0 % SECONDS_PER_DAY;
        format!(
            "{}T{:02}:{:02}:{:02}Z",
            self.day(),
            seconds / 3600,
            seconds / 60 % 60,
            seconds % 60
        )
    }

    /// Seconds until the next UTC midnight (at least 1).
    pub fn seconds_to_midnight(self) -> u64 {
        SECONDS_PER_DAY - self.0 % SECONDS_PER_DAY
    }
}

/// Year, month and day of the `days`-th day after 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let day_of_era = z - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_and_midnights() {
        assert_eq!(Moment(0).day(), "1970-01-01");
        assert_eq!(Moment(0).resets_at(), "1970-01-02T00:00:00Z");
        // 2024-02-29 12:00:00 UTC, a leap day.
        let leap_noon = Moment(1_709_208_000);
        assert_eq!(leap_noon.day(), "2024-02-29");
        assert_eq!(leap_noon.resets_at(), "2024-03-01T00:00:00Z");
        assert_eq!(leap_noon.seconds_to_midnight(), 43_200);
        assert_eq!(
            Moment(1_709_208_000 + 3_723).rfc3339(),
            "2024-02-29T13:02:03Z"
        );
        // 2026-12-31 23:59:59 UTC.
        let year_end = Moment(1_798_761_599);
        assert_eq!(year_end.day(), "2026-12-31");
        assert_eq!(year_end.resets_at(), "2027-01-01T00:00:00Z");
        assert_eq!(year_end.seconds_to_midnight(), 1);
    }
}
