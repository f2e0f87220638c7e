//! Durations as a person reads them.

/// "0.4 ms", "35 ms", "2.3 s": about two significant digits, whatever the size.
pub fn elapsed(ms: f64) -> String {
    // The bounds are where the rounded text would reach the next unit ("10.0 ms", "1000 ms").
    if ms < 9.95 {
        format!("{ms:.1} ms")
    } else if ms < 999.5 {
        format!("{ms:.0} ms")
    } else {
        format!("{:.1} s", ms / 1_000.0)
    }
}

#[cfg(test)]
mod tests {
    use super::elapsed;

    #[test]
    fn each_size_has_its_unit() {
        let cases = [
            (0.0, "0.0 ms"),
            (0.42, "0.4 ms"),
            (9.94, "9.9 ms"),
            (9.96, "10 ms"),
            (35.2, "35 ms"),
            (999.4, "999 ms"),
            (999.6, "1.0 s"),
            (2_310.0, "2.3 s"),
            (65_000.0, "65.0 s"),
        ];
        for (ms, text) in cases {
            assert_eq!(elapsed(ms), text, "{ms} ms");
        }
    }
}
