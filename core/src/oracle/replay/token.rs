//! Values as the replay protocol writes them (docs/replay-protocol.md, "Values"): one token
//! without spaces each.

use std::fmt::Write;

use crate::trace::wire::{Primitive, Value};

/// A value of a message: objects by their number in the message, strings by their text.
#[derive(Clone, Debug, PartialEq)]
pub enum Token {
    Value(Value),
    Object(u64),
    Str(String),
}

/// Writes a primitive or a boxed primitive; `None` for objects and strings, which the caller
/// numbers or spells out.
pub fn write_plain(out: &mut String, v: &Value) -> Option<()> {
    match *v {
        Value::Void => out.push('V'),
        Value::Null => out.push('N'),
        Value::Boolean(b) => out.push_str(if b { "Z1" } else { "Z0" }),
        Value::Char(c) => write!(out, "C{c}").ok()?,
        Value::Byte(b) => write!(out, "B{b}").ok()?,
        Value::Short(s) => write!(out, "S{s}").ok()?,
        Value::Int(i) => write!(out, "I{i}").ok()?,
        Value::Long(l) => write!(out, "J{l}").ok()?,
        Value::Float(f) => write!(out, "F{:x}", f.to_bits()).ok()?,
        Value::Double(d) => write!(out, "D{:x}", d.to_bits()).ok()?,
        Value::Boxed(p) => {
            out.push('b');
            write_plain(out, &Value::from(p))?;
        }
        Value::Object(_) | Value::Str(_) => return None,
    }
    Some(())
}

/// Writes a string token: `T` and the text's UTF-8 bytes in hex.
pub fn write_str(out: &mut String, text: &str) {
    out.push('T');
    for b in text.bytes() {
        let _ = write!(out, "{b:02x}");
    }
}

/// Reads one token; the error says what is wrong with it.
pub fn parse(token: &str) -> Result<Token, String> {
    let bad = || format!("`{token}` is not a value");
    let mut chars = token.chars();
    let tag = chars.next().ok_or_else(bad)?;
    let rest = chars.as_str();
    let value = match tag {
        'V' if rest.is_empty() => Value::Void,
        'N' if rest.is_empty() => Value::Null,
        'Z' => match rest {
            "0" => Value::Boolean(false),
            "1" => Value::Boolean(true),
            _ => return Err(bad()),
        },
        'C' => Value::Char(rest.parse().map_err(|_| bad())?),
        'B' => Value::Byte(rest.parse().map_err(|_| bad())?),
        'S' => Value::Short(rest.parse().map_err(|_| bad())?),
        'I' => Value::Int(rest.parse().map_err(|_| bad())?),
        'J' => Value::Long(rest.parse().map_err(|_| bad())?),
        'F' => Value::Float(f32::from_bits(
            u32::from_str_radix(rest, 16).map_err(|_| bad())?,
        )),
        'D' => Value::Double(f64::from_bits(
            u64::from_str_radix(rest, 16).map_err(|_| bad())?,
        )),
        'b' => match parse(rest)? {
            Token::Value(v) => Value::Boxed(primitive(v).ok_or_else(bad)?),
            _ => return Err(bad()),
        },
        '@' => return Ok(Token::Object(rest.parse().map_err(|_| bad())?)),
        'T' => return Ok(Token::Str(hex_text(rest).ok_or_else(bad)?)),
        _ => return Err(bad()),
    };
    Ok(Token::Value(value))
}

fn primitive(v: Value) -> Option<Primitive> {
    Some(match v {
        Value::Boolean(b) => Primitive::Boolean(b),
        Value::Char(c) => Primitive::Char(c),
        Value::Byte(b) => Primitive::Byte(b),
        Value::Short(s) => Primitive::Short(s),
        Value::Int(i) => Primitive::Int(i),
        Value::Long(l) => Primitive::Long(l),
        Value::Float(f) => Primitive::Float(f),
        Value::Double(d) => Primitive::Double(d),
        _ => return None,
    })
}

fn hex_text(hex: &str) -> Option<String> {
    if !hex.len().is_multiple_of(2) {
        return None;
    }
    let bytes = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
        .collect::<Option<Vec<u8>>>()?;
    String::from_utf8(bytes).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(v: Value) {
        let mut s = String::new();
        write_plain(&mut s, &v).unwrap();
        assert!(!s.contains(' '));
        assert_eq!(parse(&s), Ok(Token::Value(v)), "{s}");
    }

    #[test]
    fn primitives_and_boxes_round_trip() {
        for v in [
            Value::Void,
            Value::Null,
            Value::Boolean(true),
            Value::Char(65),
            Value::Byte(-3),
            Value::Short(7),
            Value::Int(i32::MIN),
            Value::Long(-9),
            Value::Float(-0.0),
            Value::Double(1.5e300),
            Value::Boxed(Primitive::Int(42)),
            Value::Boxed(Primitive::Double(f64::NAN)),
        ] {
            if let Value::Boxed(Primitive::Double(_)) = v {
                // NaN != NaN: compare the bits.
                let mut s = String::new();
                write_plain(&mut s, &v).unwrap();
                assert_eq!(s, format!("bD{:x}", f64::NAN.to_bits()));
                continue;
            }
            round_trip(v);
        }
        assert_eq!(parse("F3fc00000"), Ok(Token::Value(Value::Float(1.5))));
    }

    #[test]
    fn strings_are_hex_utf8_and_objects_numbers() {
        let mut s = String::new();
        write_str(&mut s, "é a\n");
        assert_eq!(s, "Tc3a920610a");
        assert_eq!(parse(&s), Ok(Token::Str("é a\n".into())));
        assert_eq!(parse("T"), Ok(Token::Str(String::new())));
        assert_eq!(parse("@12"), Ok(Token::Object(12)));
    }

    #[test]
    fn bad_tokens_are_errors() {
        for t in [
            "", "X1", "Z2", "Iabc", "T4", "Tzz", "b@1", "bT61", "@x", "Vx",
        ] {
            assert!(parse(t).is_err(), "{t}");
        }
    }
}
