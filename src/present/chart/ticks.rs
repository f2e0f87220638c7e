//! Round numbers for an axis, written short.

/// Tick values covering `low..=high` in steps of 1, 2 or 5 times a power of ten, about
/// `target` of them. Returns the values and the step. `low < high`, both finite.
pub fn nice_ticks(low: f64, high: f64, target: usize) -> (Vec<f64>, f64) {
    let step = nice_step((high - low) / target.max(1) as f64);
    let first = (low / step).floor() as i64;
    let last = (high / step).ceil() as i64;
    // Counting in whole steps keeps values exact (no 0.30000000000000004).
    let values = (first..=last)
        .map(|k| clean_zero(k as f64 * step))
        .collect();
    (values, step)
}

/// The smallest of 1, 2, 5, 10 times a power of ten that is at least `raw`.
fn nice_step(raw: f64) -> f64 {
    let power = 10f64.powf(raw.log10().floor());
    let fraction = raw / power;
    // A little slack: 0.2 / 0.1 may come out a hair above 2.
    let nice = if fraction <= 1.0 + 1e-9 {
        1.0
    } else if fraction <= 2.0 + 1e-9 {
        2.0
    } else if fraction <= 5.0 + 1e-9 {
        5.0
    } else {
        10.0
    };
    nice * power
}

/// A tick label: `0`, `250`, `1.5k`, `3.4M`, `2B`, `-20k`, `0.05`. `step` is the distance
/// between ticks; it decides the decimals, so labels of one axis read alike.
pub fn format_tick(value: f64, step: f64) -> String {
    let (unit, suffix) = [(1e12, "T"), (1e9, "B"), (1e6, "M"), (1e3, "k")]
        .into_iter()
        .find(|(unit, _)| value.abs() >= *unit)
        .unwrap_or((1.0, ""));
    let decimals = (-(step / unit).log10().floor()).clamp(0.0, 12.0) as usize;
    let mut text = format!("{:.*}", decimals, clean_zero(value / unit));
    if text.contains('.') {
        text.truncate(text.trim_end_matches('0').trim_end_matches('.').len());
    }
    if text == "-0" {
        text = "0".into();
    }
    text + suffix
}

/// Turns `-0.0` into `0.0`, which would print as `-0`.
fn clean_zero(value: f64) -> f64 {
    if value == 0.0 {
        0.0
    } else {
        value
    }
}

#[cfg(test)]
mod tests {
    use super::{format_tick, nice_ticks};

    fn labels(low: f64, high: f64, target: usize) -> Vec<String> {
        let (values, step) = nice_ticks(low, high, target);
        values.iter().map(|v| format_tick(*v, step)).collect()
    }

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        assert_eq!(
            labels(0.0, 252_000.0, 6),
            ["0", "50k", "100k", "150k", "200k", "250k", "300k"]
        );
        assert_eq!(labels(0.0, 1.0, 5), ["0", "0.2", "0.4", "0.6", "0.8", "1"]);
        assert_eq!(labels(0.0, 3.0, 4), ["0", "1", "2", "3"]);
    }

    #[test]
    fn negatives_get_round_ticks_too() {
        assert_eq!(
            labels(-1_200.0, 900.0, 5),
            ["-1.5k", "-1k", "-500", "0", "500", "1k"]
        );
    }

    #[test]
    fn steps_that_need_decimals_keep_them_alike() {
        assert_eq!(
            labels(0.0, 0.3, 6),
            ["0", "0.05", "0.1", "0.15", "0.2", "0.25", "0.3"]
        );
        assert_eq!(
            labels(1_000.0, 2_000.0, 5),
            ["1k", "1.2k", "1.4k", "1.6k", "1.8k", "2k"]
        );
    }

    #[test]
    fn large_units() {
        assert_eq!(format_tick(3_400_000.0, 200_000.0), "3.4M");
        assert_eq!(format_tick(2e9, 1e9), "2B");
        assert_eq!(format_tick(1.5e12, 5e11), "1.5T");
        assert_eq!(format_tick(-20_000.0, 10_000.0), "-20k");
    }
}
