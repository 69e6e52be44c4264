//! Footprints are compared by 128-bit hashes fed as their parts are found, never by text: two
//! equal footprints hash equally, and two different ones collide with probability about 2^-128,
//! so the reference index compares a footprint with any number of others in O(1).

use std::hash::{DefaultHasher, Hasher};

use crate::trace::wire::Value;

/// An incremental 128-bit hash: two SipHash streams, the second one salted.
#[derive(Clone)]
pub struct Hash128 {
    a: DefaultHasher,
    b: DefaultHasher,
}

impl Default for Hash128 {
    fn default() -> Self {
        let mut b = DefaultHasher::new();
        b.write_u64(0x9e37_79b9_7f4a_7c15);
        Hash128 {
            a: DefaultHasher::new(),
            b,
        }
    }
}

impl Hash128 {
    pub fn bytes(&mut self, bytes: &[u8]) {
        self.a.write(bytes);
        self.b.write(bytes);
    }

    pub fn u8(&mut self, v: u8) {
        self.a.write_u8(v);
        self.b.write_u8(v);
    }

    pub fn u32(&mut self, v: u32) {
        self.a.write_u32(v);
        self.b.write_u32(v);
    }

    pub fn u64(&mut self, v: u64) {
        self.a.write_u64(v);
        self.b.write_u64(v);
    }

    pub fn u128(&mut self, v: u128) {
        self.u64((v >> 64) as u64);
        self.u64(v as u64);
    }

    /// A text, with its length first so that two texts never run into each other.
    pub fn text(&mut self, s: &str) {
        self.u32(s.len() as u32);
        self.bytes(s.as_bytes());
    }

    pub fn finish(&self) -> u128 {
        (u128::from(self.a.finish()) << 64) | u128::from(self.b.finish())
    }

    /// A primitive value by type and bits (`-0.0` is not `0.0`, an `int` not a `long`).
    pub fn primitive(&mut self, v: &Value) {
        let (tag, bits) = match *v {
            Value::Void => (0, 0),
            Value::Null => (1, 0),
            Value::Boolean(b) => (2, u64::from(b)),
            Value::Char(c) => (3, u64::from(c)),
            Value::Byte(b) => (4, b as u64),
            Value::Short(s) => (5, s as u64),
            Value::Int(i) => (6, i as u64),
            Value::Long(l) => (7, l as u64),
            Value::Float(f) => (8, u64::from(f.to_bits())),
            Value::Double(d) => (9, d.to_bits()),
            Value::Boxed(p) => {
                self.u8(10);
                return self.primitive(&Value::from(p));
            }
            // Objects and strings are the caller's to describe.
            Value::Object(_) | Value::Str(_) => (11, 0),
        };
        self.u8(tag);
        self.u64(bits);
    }
}

/// Whether `v` is a primitive (boxed or not), `null` or void: a value that is its own
/// description.
pub fn is_plain(v: &Value) -> bool {
    !matches!(v, Value::Object(_) | Value::Str(_))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::wire::Primitive;

    fn of(f: impl Fn(&mut Hash128)) -> u128 {
        let mut h = Hash128::default();
        f(&mut h);
        h.finish()
    }

    #[test]
    fn values_hash_by_type_and_bits() {
        let int = of(|h| h.primitive(&Value::Int(1)));
        assert_eq!(int, of(|h| h.primitive(&Value::Int(1))));
        assert_ne!(int, of(|h| h.primitive(&Value::Long(1))));
        assert_ne!(int, of(|h| h.primitive(&Value::Boxed(Primitive::Int(1)))));
        assert_ne!(
            of(|h| h.primitive(&Value::Double(0.0))),
            of(|h| h.primitive(&Value::Double(-0.0)))
        );
    }

    #[test]
    fn texts_do_not_run_into_each_other() {
        assert_ne!(
            of(|h| {
                h.text("ab");
                h.text("c")
            }),
            of(|h| {
                h.text("a");
                h.text("bc")
            })
        );
    }
}
