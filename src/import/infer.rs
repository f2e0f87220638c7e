//! Column types from the values: each value is classified ([`Kind`]), each column folds its
//! values' kinds ([`ColumnFold`]) and ends as INTEGER, REAL or TEXT ([`SqlType`]); then each
//! value is converted for its column ([`convert_text`]).
//!
//! The rules, as a person expects them: a column is INTEGER when every non-empty value is a
//! whole number written plainly (`-12`, never `00501`: leading zeros keep a zip code TEXT) or a
//! boolean (`true`/`false`, stored 1/0); REAL when numbers with a decimal point or an exponent
//! are among them; TEXT otherwise (ISO dates stay text). Empty fields are NULL in a numeric
//! column and `''` in a text one.

use crate::engine::Value;
use serde::{Deserialize, Serialize};

/// A column's type in the table made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SqlType {
    Integer,
    Real,
    Text,
}

impl SqlType {
    pub fn sql(self) -> &'static str {
        match self {
            SqlType::Integer => "INTEGER",
            SqlType::Real => "REAL",
            SqlType::Text => "TEXT",
        }
    }
}

/// What one value looks like.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Empty,
    Integer,
    Real,
    Boolean,
    /// Digits with a leading zero (`00501`): a code, kept as text.
    ZeroPadded,
    Text,
}

/// A text value's kind (CSV fields; strings are never trimmed: ` 12` is text).
pub fn classify(s: &str) -> Kind {
    if s.is_empty() {
        return Kind::Empty;
    }
    if s.eq_ignore_ascii_case("true") || s.eq_ignore_ascii_case("false") {
        return Kind::Boolean;
    }
    let b = s.as_bytes();
    let digits_from = usize::from(b[0] == b'-');
    let int_part_end = b[digits_from..]
        .iter()
        .position(|c| !c.is_ascii_digit())
        .map_or(b.len(), |p| p + digits_from);
    let int_digits = &b[digits_from..int_part_end];
    if int_digits.is_empty() {
        return Kind::Text;
    }
    let padded = int_digits.len() > 1 && int_digits[0] == b'0';
    if int_part_end == b.len() {
        if padded {
            return Kind::ZeroPadded;
        }
        // Beyond i64 a whole number would lose digits as REAL: it stays text.
        return if s.parse::<i64>().is_ok() {
            Kind::Integer
        } else {
            Kind::Text
        };
    }
    if padded || !is_decimal_tail(&b[int_part_end..]) {
        return Kind::Text;
    }
    match s.parse::<f64>() {
        Ok(f) if f.is_finite() => Kind::Real,
        _ => Kind::Text,
    }
}

/// `.5`, `.25e-3`, `e10` after the whole part: what may follow it in a REAL.
fn is_decimal_tail(tail: &[u8]) -> bool {
    let mut rest = tail;
    if let [b'.', more @ ..] = rest {
        let n = more.iter().take_while(|c| c.is_ascii_digit()).count();
        if n == 0 {
            return false;
        }
        rest = &more[n..];
    }
    if let [b'e' | b'E', more @ ..] = rest {
        let more = match more {
            [b'+' | b'-', m @ ..] => m,
            m => m,
        };
        return !more.is_empty() && more.iter().all(|c| c.is_ascii_digit());
    }
    rest.is_empty() && tail.len() > 1
}

/// The kinds a column's values had, counted.
#[derive(Clone, Debug, Default)]
pub struct ColumnFold {
    pub empty: u64,
    pub integer: u64,
    pub real: u64,
    pub boolean: u64,
    pub zero_padded: u64,
    pub text: u64,
    /// The first zero-padded value, for the report ("values such as 00501").
    pub padded_example: Option<String>,
}

impl ColumnFold {
    pub fn add(&mut self, kind: Kind, value: &str) {
        match kind {
            Kind::Empty => self.empty += 1,
            Kind::Integer => self.integer += 1,
            Kind::Real => self.real += 1,
            Kind::Boolean => self.boolean += 1,
            Kind::ZeroPadded => {
                self.zero_padded += 1;
                if self.padded_example.is_none() {
                    self.padded_example = Some(value.chars().take(40).collect());
                }
            }
            Kind::Text => self.text += 1,
        }
    }

    /// The column's type: text wins over everything, then REAL over INTEGER. A column with no
    /// value at all is TEXT.
    pub fn sql_type(&self) -> SqlType {
        if self.text > 0 || self.zero_padded > 0 {
            SqlType::Text
        } else if self.boolean > 0 && (self.integer > 0 || self.real > 0) {
            // `true` among numbers is no number: keep what was written.
            SqlType::Text
        } else if self.real > 0 {
            SqlType::Real
        } else if self.integer > 0 || self.boolean > 0 {
            SqlType::Integer
        } else {
            SqlType::Text
        }
    }

    /// True when it holds booleans stored as 0/1.
    pub fn is_boolean(&self) -> bool {
        self.boolean > 0 && self.sql_type() == SqlType::Integer
    }
}

/// A CSV field as the value its column stores; None when it does not fit the column's type,
/// which pass 1 ruled out, so the file changed between the passes.
pub fn convert_text(s: &str, ty: SqlType) -> Option<Value> {
    match ty {
        SqlType::Text => Some(Value::Text(s.to_string())),
        _ if s.is_empty() => Some(Value::Null),
        _ if s.eq_ignore_ascii_case("true") => Some(Value::Integer(1)),
        _ if s.eq_ignore_ascii_case("false") => Some(Value::Integer(0)),
        SqlType::Integer => s.parse().ok().map(Value::Integer),
        SqlType::Real => s.parse().ok().map(Value::Real),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn type_of(values: &[&str]) -> SqlType {
        let mut fold = ColumnFold::default();
        for v in values {
            fold.add(classify(v), v);
        }
        fold.sql_type()
    }

    #[test]
    fn plain_whole_numbers_are_integers_and_decimals_reals() {
        assert_eq!(type_of(&["1", "-20", "0", ""]), SqlType::Integer);
        assert_eq!(type_of(&["1", "2.5", "-1e3", "0.25"]), SqlType::Real);
    }

    #[test]
    fn leading_zeros_keep_a_zip_code_text() {
        assert_eq!(classify("00501"), Kind::ZeroPadded);
        assert_eq!(type_of(&["10001", "00501"]), SqlType::Text);
        assert_eq!(classify("0"), Kind::Integer);
        assert_eq!(classify("0.5"), Kind::Real);
        assert_eq!(classify("00.5"), Kind::Text);
    }

    #[test]
    fn dates_spaces_signs_and_separators_stay_text() {
        for v in [
            "2024-01-31",
            " 12",
            "12 ",
            "+5",
            "1,234",
            "1.",
            ".5",
            "1e",
            "inf",
            "NaN",
            "0x1F",
        ] {
            assert_eq!(classify(v), Kind::Text, "{v}");
        }
    }

    #[test]
    fn a_number_too_large_for_i64_stays_text_rather_than_losing_digits() {
        assert_eq!(classify("12345678901234567890"), Kind::Text);
        assert_eq!(classify("9223372036854775807"), Kind::Integer);
    }

    #[test]
    fn booleans_become_one_and_zero_but_not_among_numbers() {
        assert_eq!(type_of(&["true", "FALSE", ""]), SqlType::Integer);
        assert_eq!(
            convert_text("True", SqlType::Integer),
            Some(Value::Integer(1))
        );
        assert_eq!(type_of(&["true", "3"]), SqlType::Text);
    }

    #[test]
    fn empty_is_null_in_numbers_and_empty_text_in_text() {
        assert_eq!(convert_text("", SqlType::Integer), Some(Value::Null));
        assert_eq!(convert_text("", SqlType::Real), Some(Value::Null));
        assert_eq!(
            convert_text("", SqlType::Text),
            Some(Value::Text(String::new()))
        );
        assert_eq!(type_of(&["", ""]), SqlType::Text);
    }

    #[test]
    fn a_value_that_no_longer_fits_its_column_is_caught() {
        assert_eq!(convert_text("abc", SqlType::Integer), None);
    }
}
