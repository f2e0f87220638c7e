//! A filter's value as the model wrote it (JSON), read for the field it applies to: coerced to
//! what the column holds ("12" → 12 for a number, a date into the column's shape) and checked
//! (an enumeration's value must occur). Every refusal says what would be accepted.

use super::fields::FieldKind;
use crate::engine::Value;
use crate::sql::analysis::date_shape;
use crate::sql::quote_literal;
use crate::text::cut_chars;
use serde_json::Value as Json;

/// `in` takes at most this many values.
pub const MAX_IN_VALUES: usize = 100;
/// Values quoted back in a message are cut to this many characters.
const SHOWN_CHARS: usize = 60;

/// `value` as a value of the field `name`, of `kind`.
pub fn one(name: &str, kind: &FieldKind, value: &Json) -> Result<Value, String> {
    match kind {
        FieldKind::Number => number(name, value),
        FieldKind::Text => text(name, value).map(Value::Text),
        FieldKind::Enumeration { values } => enumerated(name, values, value),
        FieldKind::Date { shape, first, .. } => date(name, shape, first, value).map(Value::Text),
    }
}

/// The list `in` takes.
pub fn list(name: &str, kind: &FieldKind, value: &Json) -> Result<Vec<Value>, String> {
    match value {
        Json::Array(items) if !items.is_empty() && items.len() <= MAX_IN_VALUES => {
            items.iter().map(|item| one(name, kind, item)).collect()
        }
        Json::Array(items) if items.len() > MAX_IN_VALUES => Err(format!(
            "`in` takes at most {MAX_IN_VALUES} values, not {}",
            items.len()
        )),
        _ => Err(format!(
            "`in` takes a list of values for `{name}`, e.g. {}",
            example_list(kind)
        )),
    }
}

/// The two bounds `between` takes, inclusive.
pub fn pair(name: &str, kind: &FieldKind, value: &Json) -> Result<(Value, Value), String> {
    match value {
        Json::Array(items) if items.len() == 2 => {
            Ok((one(name, kind, &items[0])?, one(name, kind, &items[1])?))
        }
        _ => Err(format!(
            "`between` takes a list of two values for `{name}`, [from, to] (both included)"
        )),
    }
}

fn shown(value: &Json) -> String {
    match value {
        Json::String(text) => quote_literal(&cut_chars(text, SHOWN_CHARS)),
        other => cut_chars(&other.to_string(), SHOWN_CHARS),
    }
}

fn example_list(kind: &FieldKind) -> String {
    match kind {
        FieldKind::Number => "[1, 2]".into(),
        FieldKind::Enumeration { values } => {
            let two: Vec<String> = values.iter().take(2).map(|v| format!("{v:?}")).collect();
            format!("[{}]", two.join(", "))
        }
        _ => "[\"a\", \"b\"]".into(),
    }
}

fn number(name: &str, value: &Json) -> Result<Value, String> {
    let read = match value {
        Json::Number(n) => n
            .as_i64()
            .map(Value::Integer)
            .or_else(|| n.as_f64().map(Value::Real)),
        Json::String(text) => {
            let text = text.trim();
            text.parse::<i64>().map(Value::Integer).ok().or_else(|| {
                text.parse::<f64>()
                    .ok()
                    .filter(|f| f.is_finite())
                    .map(Value::Real)
            })
        }
        _ => None,
    };
    read.ok_or_else(|| {
        format!(
            "`{name}` holds numbers: {} is not a number; give one such as 3 or 2.5",
            shown(value)
        )
    })
}

fn text(name: &str, value: &Json) -> Result<String, String> {
    match value {
        Json::String(text) => Ok(text.clone()),
        Json::Number(n) => Ok(n.to_string()),
        other => Err(format!(
            "`{name}` holds text: give a text value, not {}",
            shown(other)
        )),
    }
}

fn enumerated(name: &str, values: &[String], value: &Json) -> Result<Value, String> {
    let given = text(name, value)?;
    if values.contains(&given) {
        return Ok(Value::Text(given));
    }
    let listed: Vec<String> = values
        .iter()
        .map(|v| quote_literal(&cut_chars(v, SHOWN_CHARS)))
        .collect();
    let near = values
        .iter()
        .find(|v| v.trim().eq_ignore_ascii_case(given.trim()))
        .map(|v| format!(" (did you mean {}?)", quote_literal(v)))
        .unwrap_or_default();
    Err(format!(
        "{} does not occur in `{name}`{near}; the values that occur are: {}",
        shown(value),
        listed.join(", ")
    ))
}

/// A date for a column of `shape` (year first, padded), as the column writes it. A date in
/// another shape is rewritten ("2024/3/1", "01.03.2024" → "2024-03-01"); a year ("2024") or a
/// month ("2024-03") stays a prefix, which `on`, `before` and `after` compare as such. A date
/// with a time must be in the column's own shape.
fn date(name: &str, shape: &str, example: &str, value: &Json) -> Result<String, String> {
    let refused = || {
        format!(
            "`{name}` holds dates like {} ({shape}): {} is not a date; give a day, a month \
             or a year in that shape, e.g. {}, {} or {}",
            quote_literal(&cut_chars(example, SHOWN_CHARS)),
            shown(value),
            quote_literal(&prefix_of(example, day_length(shape))),
            quote_literal(&prefix_of(example, month_length(shape))),
            quote_literal(&prefix_of(example, 4)),
        )
    };
    let Json::String(given) = value else {
        return Err(refused());
    };
    let given = given.trim();
    if date_shape(given).as_deref() == Some(shape) {
        return Ok(given.to_string());
    }
    let (year, month, day) = parts(given).ok_or_else(refused)?;
    let separator = shape.chars().nth(4).filter(|c| !c.is_ascii_alphabetic());
    let separator = separator.map(String::from).unwrap_or_default();
    let mut written = format!("{year:04}");
    if let Some(month) = month {
        written.push_str(&format!("{separator}{month:02}"));
    }
    if let Some(day) = day {
        if day_length(shape) == month_length(shape) {
            return Err(format!(
                "`{name}` holds months ({shape}): give a month such as {} or a year",
                quote_literal(&prefix_of(example, month_length(shape)))
            ));
        }
        written.push_str(&format!("{separator}{day:02}"));
    }
    Ok(written)
}

/// Year, month and day of a date written without a time, in any shape `date_shape` knows, or
/// of a lone year.
fn parts(text: &str) -> Option<(u32, Option<u32>, Option<u32>)> {
    if text.len() == 4 && text.bytes().all(|b| b.is_ascii_digit()) {
        return Some((text.parse().ok()?, None, None));
    }
    let shape = date_shape(text)?;
    if shape.contains([' ', 'T']) {
        return None;
    }
    if shape == "YYYYMMDD" {
        let number = |range: std::ops::Range<usize>| text[range].parse().ok();
        return Some((number(0..4)?, Some(number(4..6)?), Some(number(6..8)?)));
    }
    let separator = shape.chars().find(|c| !c.is_ascii_alphabetic())?;
    let mut year = None;
    let (mut month, mut day) = (None, None);
    for (letters, number) in shape.split(separator).zip(text.split(separator)) {
        let number: u32 = number.parse().ok()?;
        match letters.chars().next()? {
            'Y' => year = Some(number),
            'M' => month = Some(number),
            _ => day = Some(number),
        }
    }
    Some((year?, month, day))
}

/// How many characters of a value in `shape` make its day, and its month.
fn day_length(shape: &str) -> usize {
    let date_part = shape.split([' ', 'T']).next().unwrap_or(shape);
    date_part.len()
}

fn month_length(shape: &str) -> usize {
    if shape.starts_with("YYYYMM") {
        6
    } else {
        7
    }
}

fn prefix_of(text: &str, chars: usize) -> String {
    text.chars().take(chars).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn date_kind(shape: &str, example: &str) -> FieldKind {
        FieldKind::Date {
            shape: shape.into(),
            first: example.into(),
            last: example.into(),
            whole_table: true,
        }
    }

    #[test]
    fn numbers_are_read_from_text_and_refused_otherwise() {
        let number = |v| one("quantity", &FieldKind::Number, &v);
        assert_eq!(number(json!("12")), Ok(Value::Integer(12)));
        assert_eq!(number(json!(" 2.5 ")), Ok(Value::Real(2.5)));
        assert_eq!(number(json!(7)), Ok(Value::Integer(7)));
        let refused = number(json!("twelve")).unwrap_err();
        assert!(
            refused.starts_with("`quantity` holds numbers: 'twelve' is not a number"),
            "{refused}"
        );
        assert!(number(json!(true)).is_err());
        assert!(number(json!("NaN")).is_err());
    }

    #[test]
    fn an_enumeration_takes_only_the_values_that_occur() {
        let kind = FieldKind::Enumeration {
            values: vec!["Osaka".into(), "Tokyo".into()],
        };
        assert_eq!(
            one("prefecture", &kind, &json!("Tokyo")),
            Ok(Value::Text("Tokyo".into()))
        );
        assert_eq!(
            one("prefecture", &kind, &json!("東京都")).unwrap_err(),
            "'東京都' does not occur in `prefecture`; the values that occur are: 'Osaka', 'Tokyo'"
        );
        assert!(one("prefecture", &kind, &json!("tokyo"))
            .unwrap_err()
            .contains("(did you mean 'Tokyo'?)"));
        assert!(list("prefecture", &kind, &json!(["Tokyo", "Kyoto"])).is_err());
        assert!(list("prefecture", &kind, &json!("Tokyo"))
            .unwrap_err()
            .contains(r#"e.g. ["Osaka", "Tokyo"]"#));
    }

    #[test]
    fn dates_are_written_in_the_columns_shape() {
        let day = date_kind("YYYY-MM-DD", "2024-03-02");
        let date = |kind: &FieldKind, v: &str| one("ordered_at", kind, &json!(v));
        let text = |s: &str| Ok(Value::Text(s.into()));
        assert_eq!(date(&day, "2024-03-05"), text("2024-03-05"));
        assert_eq!(date(&day, "2024/3/5"), text("2024-03-05"));
        assert_eq!(date(&day, "05.03.2024"), text("2024-03-05"));
        assert_eq!(date(&day, "20240305"), text("2024-03-05"));
        assert_eq!(date(&day, "2024-03"), text("2024-03"));
        assert_eq!(date(&day, "2024"), text("2024"));
        let refused = date(&day, "March 5").unwrap_err();
        assert!(
            refused.contains("holds dates like '2024-03-02' (YYYY-MM-DD)"),
            "{refused}"
        );
        assert!(
            refused.contains("'2024-03-02', '2024-03' or '2024'"),
            "{refused}"
        );

        let compact = date_kind("YYYYMMDD", "20240302");
        assert_eq!(date(&compact, "2024-03-05"), text("20240305"));
        assert_eq!(date(&compact, "2024-03"), text("202403"));

        let stamp = date_kind("YYYY-MM-DD HH:MM:SS", "2024-03-02 10:00:00");
        assert_eq!(date(&stamp, "2024-03-05"), text("2024-03-05"));
        assert_eq!(
            date(&stamp, "2024-03-05 12:30:00"),
            text("2024-03-05 12:30:00")
        );
        assert!(date(&stamp, "2024-03-05T12:30").is_err());

        let month = date_kind("YYYY-MM", "2024-03");
        assert!(date(&month, "2024-03-05")
            .unwrap_err()
            .contains("holds months"));
        assert_eq!(date(&month, "2024/04"), text("2024-04"));
    }

    #[test]
    fn between_takes_two_values() {
        assert_eq!(
            pair("quantity", &FieldKind::Number, &json!(["1", 3])),
            Ok((Value::Integer(1), Value::Integer(3)))
        );
        assert!(pair("quantity", &FieldKind::Number, &json!([1]))
            .unwrap_err()
            .contains("[from, to]"));
    }
}
