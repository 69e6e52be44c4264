//! Values as the agent sends them (the `value` of docs/wire-format.md) and as the store keeps
//! them: the same tag + payload encoding is used on the wire and in the trace file.

use serde::{Deserialize, Serialize};

use super::bytes::{put_svarint, put_varint, ByteReader, ParseError, ParseResult};
use crate::ids::{ObjectId, StringId};

/// A primitive value, also the content of a boxed primitive.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "value", rename_all = "lowercase")]
pub enum Primitive {
    Boolean(bool),
    Char(u16),
    Byte(i8),
    Short(i16),
    Int(i32),
    Long(i64),
    Float(f32),
    Double(f64),
}

/// One recorded value.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", content = "value", rename_all = "lowercase")]
pub enum Value {
    /// No value: the result of a `void` method.
    Void,
    Null,
    Boolean(bool),
    Char(u16),
    Byte(i8),
    Short(i16),
    Int(i32),
    Long(i64),
    Float(f32),
    Double(f64),
    /// An object or array, by id; its class is in the trace (`TraceReader::object`).
    Object(ObjectId),
    /// A `java.lang.String`, by the id of its text.
    Str(StringId),
    /// A boxed primitive (`Integer`, `Boolean`, ...), by content.
    Boxed(Primitive),
}

impl From<Primitive> for Value {
    fn from(p: Primitive) -> Value {
        match p {
            Primitive::Boolean(b) => Value::Boolean(b),
            Primitive::Char(c) => Value::Char(c),
            Primitive::Byte(b) => Value::Byte(b),
            Primitive::Short(s) => Value::Short(s),
            Primitive::Int(i) => Value::Int(i),
            Primitive::Long(l) => Value::Long(l),
            Primitive::Float(f) => Value::Float(f),
            Primitive::Double(d) => Value::Double(d),
        }
    }
}

impl Primitive {
    /// The class of this primitive once boxed.
    pub fn box_class_name(self) -> &'static str {
        match self {
            Primitive::Boolean(_) => "java.lang.Boolean",
            Primitive::Char(_) => "java.lang.Character",
            Primitive::Byte(_) => "java.lang.Byte",
            Primitive::Short(_) => "java.lang.Short",
            Primitive::Int(_) => "java.lang.Integer",
            Primitive::Long(_) => "java.lang.Long",
            Primitive::Float(_) => "java.lang.Float",
            Primitive::Double(_) => "java.lang.Double",
        }
    }
}

impl Value {
    /// The default value of a field or array element of this JVM type descriptor (`I`,
    /// `Ljava/lang/String;`, `[I`) or Java type name (`int`, `java.lang.String`).
    pub fn default_for(type_name: &str) -> Value {
        match type_name {
            "Z" | "boolean" => Value::Boolean(false),
            "C" | "char" => Value::Char(0),
            "B" | "byte" => Value::Byte(0),
            "S" | "short" => Value::Short(0),
            "I" | "int" => Value::Int(0),
            "J" | "long" => Value::Long(0),
            "F" | "float" => Value::Float(0.0),
            "D" | "double" => Value::Double(0.0),
            _ => Value::Null,
        }
    }
}

const VOID: u8 = 0x00;
const NULL: u8 = 0x01;
const FALSE: u8 = 0x02;
const TRUE: u8 = 0x03;
const INT: u8 = 0x04;
const CHAR: u8 = 0x05;
const BYTE: u8 = 0x06;
const SHORT: u8 = 0x07;
const LONG: u8 = 0x08;
const FLOAT: u8 = 0x09;
const DOUBLE: u8 = 0x0A;
const OBJECT: u8 = 0x0B;
const STRING: u8 = 0x0C;
const BOXED: u8 = 0x0D;

pub fn put_value(out: &mut Vec<u8>, v: &Value) {
    match *v {
        Value::Void => out.push(VOID),
        Value::Null => out.push(NULL),
        Value::Object(o) => {
            out.push(OBJECT);
            put_varint(out, o.0);
        }
        Value::Str(s) => {
            out.push(STRING);
            put_varint(out, s.0);
        }
        Value::Boxed(p) => {
            out.push(BOXED);
            put_primitive(out, p);
        }
        Value::Boolean(b) => put_primitive(out, Primitive::Boolean(b)),
        Value::Char(c) => put_primitive(out, Primitive::Char(c)),
        Value::Byte(b) => put_primitive(out, Primitive::Byte(b)),
        Value::Short(s) => put_primitive(out, Primitive::Short(s)),
        Value::Int(i) => put_primitive(out, Primitive::Int(i)),
        Value::Long(l) => put_primitive(out, Primitive::Long(l)),
        Value::Float(f) => put_primitive(out, Primitive::Float(f)),
        Value::Double(d) => put_primitive(out, Primitive::Double(d)),
    }
}

fn put_primitive(out: &mut Vec<u8>, p: Primitive) {
    match p {
        Primitive::Boolean(false) => out.push(FALSE),
        Primitive::Boolean(true) => out.push(TRUE),
        Primitive::Int(i) => {
            out.push(INT);
            put_svarint(out, i64::from(i));
        }
        Primitive::Char(c) => {
            out.push(CHAR);
            put_varint(out, u64::from(c));
        }
        Primitive::Byte(b) => {
            out.push(BYTE);
            put_svarint(out, i64::from(b));
        }
        Primitive::Short(s) => {
            out.push(SHORT);
            put_svarint(out, i64::from(s));
        }
        Primitive::Long(l) => {
            out.push(LONG);
            put_svarint(out, l);
        }
        Primitive::Float(f) => {
            out.push(FLOAT);
            out.extend_from_slice(&f.to_bits().to_le_bytes());
        }
        Primitive::Double(d) => {
            out.push(DOUBLE);
            out.extend_from_slice(&d.to_bits().to_le_bytes());
        }
    }
}

pub fn read_value(r: &mut ByteReader<'_>) -> ParseResult<Value> {
    let tag = r.u8()?;
    Ok(match tag {
        VOID => Value::Void,
        NULL => Value::Null,
        OBJECT => Value::Object(ObjectId(r.varint()?)),
        STRING => Value::Str(StringId(r.varint()?)),
        BOXED => {
            let inner = r.u8()?;
            Value::Boxed(read_primitive(r, inner, true)?)
        }
        _ => read_primitive(r, tag, false)?.into(),
    })
}

fn read_primitive(r: &mut ByteReader<'_>, tag: u8, boxed: bool) -> ParseResult<Primitive> {
    fn narrow<T: TryFrom<i64>>(r: &ByteReader<'_>, v: i64, what: &str) -> ParseResult<T> {
        T::try_from(v).or_else(|_| r.error(format!("{what} value {v} out of range")))
    }
    Ok(match tag {
        FALSE => Primitive::Boolean(false),
        TRUE => Primitive::Boolean(true),
        INT => {
            let v = r.svarint()?;
            Primitive::Int(narrow(r, v, "int")?)
        }
        CHAR => {
            let v = r.varint()?;
            Primitive::Char(
                u16::try_from(v).or_else(|_| r.error(format!("char value {v} out of range")))?,
            )
        }
        BYTE => {
            let v = r.svarint()?;
            Primitive::Byte(narrow(r, v, "byte")?)
        }
        SHORT => {
            let v = r.svarint()?;
            Primitive::Short(narrow(r, v, "short")?)
        }
        LONG => Primitive::Long(r.svarint()?),
        FLOAT => Primitive::Float(f32::from_bits(u32::from_le_bytes(r.array()?))),
        DOUBLE => Primitive::Double(f64::from_bits(u64::from_le_bytes(r.array()?))),
        _ => {
            let problem = if boxed {
                format!("boxed value with tag 0x{tag:02x}, expected a primitive tag 0x02-0x0a")
            } else {
                format!("unknown value tag 0x{tag:02x}")
            };
            // Point at the tag byte, just read.
            return Err(ParseError {
                at: r.pos() - 1,
                problem,
            });
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_of_value_round_trips() {
        let values = [
            Value::Void,
            Value::Null,
            Value::Boolean(true),
            Value::Boolean(false),
            Value::Int(-7),
            Value::Int(i32::MIN),
            Value::Char(0x263a),
            Value::Byte(-128),
            Value::Short(12345),
            Value::Long(i64::MAX),
            Value::Float(1.5),
            Value::Double(-0.25),
            Value::Object(ObjectId(99)),
            Value::Str(StringId(3)),
            Value::Boxed(Primitive::Int(42)),
            Value::Boxed(Primitive::Boolean(true)),
        ];
        let mut out = Vec::new();
        for v in &values {
            put_value(&mut out, v);
        }
        let mut r = ByteReader::new(&out);
        for v in &values {
            assert_eq!(&read_value(&mut r).unwrap(), v);
        }
        assert!(r.is_empty());
    }

    #[test]
    fn bad_tags_and_ranges_are_errors() {
        assert!(read_value(&mut ByteReader::new(&[0x0e])).is_err());
        assert!(read_value(&mut ByteReader::new(&[0x0d, 0x0b, 1])).is_err());
        let mut out = vec![INT];
        put_svarint(&mut out, i64::from(i32::MAX) + 1);
        assert!(read_value(&mut ByteReader::new(&out)).is_err());
    }
}
