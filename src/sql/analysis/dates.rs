//! The shape of a date written as text, so that a literal can be compared with the data's own
//! format (`'2024-03-01'` against values stored as `03/01/2024`).

/// The shape of a date or date-time written as text, e.g. `YYYY-MM-DD`, `YYYY/MM/DD`,
/// `DD.MM.YYYY`, `MM/DD/YYYY`, `YYYY-MM`, `YYYY-MM-DD HH:MM:SS`, `YYYYMMDD`; `None` for text
/// that is not a date. Unpadded parts show as `M`/`D` (`YYYY-M-D`), since they sort differently.
/// `NN/NN/YYYY` reads as `DD/MM/YYYY` when the first number cannot be a month, else `MM/DD/YYYY`.
pub fn date_shape(text: &str) -> Option<String> {
    let (date, time) = match text.find([' ', 'T']) {
        Some(at) => (&text[..at], Some((&text[at..at + 1], &text[at + 1..]))),
        None => (text, None),
    };
    let date = shape_of_date(date)?;
    match time {
        None => Some(date),
        Some((separator, time)) => Some(format!("{date}{separator}{}", shape_of_time(time)?)),
    }
}

fn shape_of_date(date: &str) -> Option<String> {
    let number = |s: &str| -> Option<u32> {
        (!s.is_empty() && s.len() <= 4 && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse().ok())
            .flatten()
    };
    let month = |s: &str| number(s).filter(|m| s.len() <= 2 && (1..=12).contains(m));
    let day = |s: &str| number(s).filter(|d| s.len() <= 2 && (1..=31).contains(d));
    let year = |s: &str| number(s).filter(|_| s.len() == 4);
    let width = |s: &str, letter: &str| letter.repeat(s.len());
    if date.len() == 8 && date.bytes().all(|b| b.is_ascii_digit()) {
        let plausible = number(&date[..4]).is_some_and(|y| (1800..=2199).contains(&y));
        return (plausible && month(&date[4..6]).is_some() && day(&date[6..]).is_some())
            .then(|| "YYYYMMDD".to_string());
    }
    let separator = date.chars().find(|c| !c.is_ascii_digit())?;
    if !matches!(separator, '-' | '/' | '.') {
        return None;
    }
    let parts: Vec<&str> = date.split(separator).collect();
    let shape: Vec<String> = match parts[..] {
        [y, m, d] if year(y).is_some() => {
            month(m)?;
            day(d)?;
            vec!["YYYY".into(), width(m, "M"), width(d, "D")]
        }
        [a, b, y] if year(y).is_some() => {
            let day_first = separator == '.' || number(a)? > 12;
            let (d, m) = if day_first { (a, b) } else { (b, a) };
            day(d)?;
            month(m)?;
            let (d, m) = (width(d, "D"), width(m, "M"));
            if day_first {
                vec![d, m, "YYYY".into()]
            } else {
                vec![m, d, "YYYY".into()]
            }
        }
        [y, m] if year(y).is_some() => vec!["YYYY".into(), width(month(m).map(|_| m)?, "M")],
        [m, y] if year(y).is_some() => vec![width(month(m).map(|_| m)?, "M"), "YYYY".into()],
        _ => return None,
    };
    Some(shape.join(&separator.to_string()))
}

/// `HH:MM`, `HH:MM:SS`, `HH:MM:SS.SSS`, with an optional `Z` or `±HH:MM` zone.
fn shape_of_time(time: &str) -> Option<String> {
    let (clock, zone) = if let Some(clock) = time.strip_suffix('Z') {
        (clock, "Z")
    } else if time.len() > 6
        && time.is_char_boundary(time.len() - 6)
        && matches!(time.as_bytes()[time.len() - 6], b'+' | b'-')
    {
        let (clock, zone) = time.split_at(time.len() - 6);
        shape_of_clock(&zone[1..], false)?;
        (clock, "±HH:MM")
    } else {
        (time, "")
    };
    Some(format!("{}{zone}", shape_of_clock(clock, true)?))
}

fn shape_of_clock(clock: &str, seconds_allowed: bool) -> Option<String> {
    let (clock, fraction) = match clock.split_once('.') {
        Some((clock, fraction)) if seconds_allowed => (clock, Some(fraction)),
        Some(_) => return None,
        None => (clock, None),
    };
    let parts: Vec<&str> = clock.split(':').collect();
    let limits = [24, 60, 61];
    if parts.len() < 2 || parts.len() > if seconds_allowed { 3 } else { 2 } {
        return None;
    }
    let mut shape = Vec::new();
    for ((part, limit), letters) in parts.iter().zip(limits).zip(["H", "M", "S"]) {
        let valid = (1..=2).contains(&part.len())
            && part.bytes().all(|b| b.is_ascii_digit())
            && part.parse::<u32>().is_ok_and(|n| n < limit);
        if !valid || (letters != "H" && part.len() != 2) {
            return None;
        }
        shape.push(letters.repeat(part.len()));
    }
    let mut shape = shape.join(":");
    if let Some(fraction) = fraction {
        if parts.len() != 3 || fraction.is_empty() || !fraction.bytes().all(|b| b.is_ascii_digit())
        {
            return None;
        }
        shape = format!("{shape}.{}", "S".repeat(fraction.len()));
    }
    Some(shape)
}

#[cfg(test)]
mod tests {
    use super::date_shape;

    #[test]
    fn date_shapes() {
        for (text, shape) in [
            ("2024-03-01", Some("YYYY-MM-DD")),
            ("2024/03/01", Some("YYYY/MM/DD")),
            ("2024-3-1", Some("YYYY-M-D")),
            ("01.03.2024", Some("DD.MM.YYYY")),
            ("03/01/2024", Some("MM/DD/YYYY")),
            ("13/01/2024", Some("DD/MM/YYYY")),
            ("2024-03", Some("YYYY-MM")),
            ("03/2024", Some("MM/YYYY")),
            ("20240301", Some("YYYYMMDD")),
            ("2024-03-01 12:30:00", Some("YYYY-MM-DD HH:MM:SS")),
            ("2024-03-01T12:30", Some("YYYY-MM-DDTHH:MM")),
            ("2024-03-01T12:30:00.123Z", Some("YYYY-MM-DDTHH:MM:SS.SSSZ")),
            (
                "2024-03-01 12:30:00+09:00",
                Some("YYYY-MM-DD HH:MM:SS±HH:MM"),
            ),
            ("2024-13-01", None),
            ("2024-02-32", None),
            ("12345678", None),
            ("2024", None),
            ("1.5", None),
            ("東京都", None),
            ("", None),
            ("2024-03-01 25:00", None),
            ("Tuesday", None),
            ("555-1234", None),
        ] {
            assert_eq!(date_shape(text).as_deref(), shape, "{text}");
        }
    }
}
