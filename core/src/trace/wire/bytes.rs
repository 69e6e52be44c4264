//! Little pieces of the encoding shared by frames, events and the store: LEB128 varints,
//! zigzag, length-prefixed strings, and a bounds-checked reader over a byte slice.

/// Why a piece of a payload could not be read; the caller adds where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// Offset inside the slice being parsed.
    pub at: usize,
    pub problem: String,
}

pub type ParseResult<T> = Result<T, ParseError>;

/// Reads a byte slice front to back; every read is bounds-checked.
pub struct ByteReader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl<'a> ByteReader<'a> {
    pub fn new(buf: &'a [u8]) -> Self {
        ByteReader { buf, pos: 0 }
    }

    pub fn pos(&self) -> usize {
        self.pos
    }

    pub fn remaining(&self) -> usize {
        self.buf.len() - self.pos
    }

    pub fn is_empty(&self) -> bool {
        self.pos >= self.buf.len()
    }

    pub fn error<T>(&self, problem: impl Into<String>) -> ParseResult<T> {
        Err(ParseError {
            at: self.pos,
            problem: problem.into(),
        })
    }

    pub fn u8(&mut self) -> ParseResult<u8> {
        match self.buf.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                Ok(b)
            }
            None => self.error("unexpected end of payload"),
        }
    }

    pub fn bytes(&mut self, n: usize) -> ParseResult<&'a [u8]> {
        if self.remaining() < n {
            return self.error(format!(
                "{n} bytes needed, only {} left in the payload",
                self.remaining()
            ));
        }
        let s = &self.buf[self.pos..self.pos + n];
        self.pos += n;
        Ok(s)
    }

    pub fn array<const N: usize>(&mut self) -> ParseResult<[u8; N]> {
        let s = self.bytes(N)?;
        let mut a = [0u8; N];
        a.copy_from_slice(s);
        Ok(a)
    }

    pub fn varint(&mut self) -> ParseResult<u64> {
        let start = self.pos;
        let mut value: u64 = 0;
        let mut shift = 0u32;
        loop {
            let Some(&b) = self.buf.get(self.pos) else {
                self.pos = start;
                return self.error("varint runs past the end of the payload");
            };
            self.pos += 1;
            if shift == 63 && b > 1 {
                self.pos = start;
                return self.error("varint does not fit in 64 bits");
            }
            value |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(value);
            }
            shift += 7;
        }
    }

    /// A varint that must fit in 32 bits (ids, lines, indices); `what` names it in errors.
    pub fn varint32(&mut self, what: &str) -> ParseResult<u32> {
        let at = self.pos;
        let v = self.varint()?;
        u32::try_from(v).map_err(|_| ParseError {
            at,
            problem: format!("{what} {v} does not fit in 32 bits"),
        })
    }

    pub fn svarint(&mut self) -> ParseResult<i64> {
        Ok(unzigzag(self.varint()?))
    }

    /// A count of items that each take at least `min_item_bytes`: rejected when the rest of the
    /// payload cannot hold them, so a corrupt count never triggers a huge allocation.
    pub fn count(&mut self, what: &str, min_item_bytes: usize) -> ParseResult<usize> {
        let at = self.pos;
        let n = self.varint()?;
        let max = (self.remaining() / min_item_bytes.max(1)) as u64;
        if n > max {
            return Err(ParseError {
                at,
                problem: format!(
                    "{what} {n} is more than the {} bytes left can hold",
                    self.remaining()
                ),
            });
        }
        Ok(n as usize)
    }

    pub fn string(&mut self, what: &str) -> ParseResult<String> {
        let at = self.pos;
        let len = self.varint()?;
        if len > self.remaining() as u64 {
            return Err(ParseError {
                at,
                problem: format!("{what}: length {len} runs past the end of the payload"),
            });
        }
        let bytes = self.bytes(len as usize)?;
        String::from_utf8(bytes.to_vec()).map_err(|e| ParseError {
            at,
            problem: format!("{what} is not UTF-8 ({e})"),
        })
    }
}

pub fn zigzag(n: i64) -> u64 {
    ((n << 1) ^ (n >> 63)) as u64
}

pub fn unzigzag(n: u64) -> i64 {
    ((n >> 1) as i64) ^ -((n & 1) as i64)
}

pub fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

pub fn put_svarint(out: &mut Vec<u8>, v: i64) {
    put_varint(out, zigzag(v));
}

pub fn put_str(out: &mut Vec<u8>, s: &str) {
    put_varint(out, s.len() as u64);
    out.extend_from_slice(s.as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_round_trip_at_the_edges() {
        for v in [
            0u64,
            1,
            127,
            128,
            300,
            u32::MAX as u64,
            u64::MAX - 1,
            u64::MAX,
        ] {
            let mut out = Vec::new();
            put_varint(&mut out, v);
            assert!(out.len() <= 10);
            assert_eq!(ByteReader::new(&out).varint().unwrap(), v);
        }
        for v in [0i64, -1, 1, i64::MIN, i64::MAX, -300] {
            let mut out = Vec::new();
            put_svarint(&mut out, v);
            assert_eq!(ByteReader::new(&out).svarint().unwrap(), v);
        }
    }

    #[test]
    fn overlong_and_cut_varints_are_errors() {
        let too_long = [0xffu8; 11];
        assert!(ByteReader::new(&too_long).varint().is_err());
        assert!(ByteReader::new(&[0x80, 0x80]).varint().is_err());
        let mut r = ByteReader::new(&[0x05, b'a']);
        assert!(r.string("name").is_err());
    }
}
