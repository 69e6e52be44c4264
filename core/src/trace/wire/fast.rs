//! The decoder's fast path for the events of an `EVENTS` frame: the same rules as
//! `event::read_event` and `value::read_value`, but reads that fail give `None` instead of a
//! message (a `Result` carrying a `String` costs every varint a branch and a copy), and the
//! vectors of calls, arrays and contents come from a pool of spare ones. When it fails, the
//! decoder reads the payload again with the careful path, which says what is wrong and where,
//! so errors read exactly as before (`tests.rs` checks both paths agree on every input).
//!
//! It also notes where each event's operands lie in the payload (`WireEvents`), so that the
//! store copies them into its event blocks instead of encoding the events again.

use super::event::{op, ContentKind, Event, EventKind, Origin};
use super::value::{Primitive, Value};
use crate::ids::{ClassId, FieldId, MethodId, ObjectId, StringId, Timestamp};

/// The payload of an `EVENTS` frame and where each event's operands are in it.
#[derive(Debug, Default)]
pub struct WireEvents {
    payload: Vec<u8>,
    /// Per event, the offsets of its operands' first byte (after the op and `dts`) and of its
    /// end.
    spans: Vec<u32>,
}

impl WireEvents {
    /// The operands of the `i`-th event of the frame (`STRING` events included) as the agent
    /// encoded them: what follows its op byte and `dts`.
    pub fn operands(&self, i: usize) -> Option<&[u8]> {
        let s = *self.spans.get(2 * i)? as usize;
        let e = *self.spans.get(2 * i + 1)? as usize;
        self.payload.get(s..e)
    }

    pub(super) fn clear(&mut self) {
        self.spans.clear();
    }

    pub(super) fn payload_mut(&mut self) -> &mut Vec<u8> {
        &mut self.payload
    }

    pub(super) fn spans_mut(&mut self) -> &mut Vec<u32> {
        &mut self.spans
    }
}

/// Spare vectors for the values of calls, arrays and contents.
#[derive(Default)]
pub(super) struct Spares {
    values: Vec<Vec<Value>>,
}

/// Vectors kept for reuse at most.
const SPARE_VALUES: usize = 1 << 14;

impl Spares {
    fn take(&mut self, n: usize) -> Vec<Value> {
        if n == 0 {
            return Vec::new();
        }
        let mut v = self.values.pop().unwrap_or_default();
        v.reserve(n);
        v
    }

    /// Keeps the vectors `events` holds, and empties it. The vectors are taken in place (not
    /// moved out with their events), so only the events that hold one are written.
    pub(super) fn recycle(&mut self, events: &mut Vec<Event>) {
        for ev in events.iter_mut() {
            let v = match &mut ev.kind {
                EventKind::Call { args, .. } | EventKind::ExtCall { args, .. } => args,
                EventKind::NewArray { elements, .. } => elements,
                EventKind::Content { values, .. } => values,
                _ => continue,
            };
            if v.capacity() > 0 && v.capacity() <= 256 && self.values.len() < SPARE_VALUES {
                let mut v = std::mem::take(v);
                v.clear();
                self.values.push(v);
            }
        }
        events.clear();
    }
}

struct Reader<'a> {
    buf: &'a [u8],
    pos: usize,
}

impl Reader<'_> {
    #[inline]
    fn u8(&mut self) -> Option<u8> {
        let b = *self.buf.get(self.pos)?;
        self.pos += 1;
        Some(b)
    }

    #[inline]
    fn varint(&mut self) -> Option<u64> {
        let b = *self.buf.get(self.pos)?;
        if b < 0x80 {
            self.pos += 1;
            return Some(u64::from(b));
        }
        self.varint_long()
    }

    /// `ByteReader::varint`'s rules: at most 64 bits.
    #[cold]
    fn varint_long(&mut self) -> Option<u64> {
        let mut value: u64 = 0;
        let mut shift = 0u32;
        loop {
            let b = *self.buf.get(self.pos)?;
            self.pos += 1;
            if shift == 63 && b > 1 {
                return None;
            }
            value |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Some(value);
            }
            shift += 7;
        }
    }

    #[inline]
    fn varint32(&mut self) -> Option<u32> {
        u32::try_from(self.varint()?).ok()
    }

    #[inline]
    fn svarint(&mut self) -> Option<i64> {
        let n = self.varint()?;
        Some(((n >> 1) as i64) ^ -((n & 1) as i64))
    }

    /// `ByteReader::count`'s rule: no more items than the rest can hold.
    #[inline]
    fn count(&mut self, min_item_bytes: usize) -> Option<usize> {
        let n = self.varint()?;
        let rest = self.buf.len() - self.pos;
        (n <= (rest / min_item_bytes) as u64).then_some(n as usize)
    }

    fn array<const N: usize>(&mut self) -> Option<[u8; N]> {
        let s = self.buf.get(self.pos..self.pos + N)?;
        self.pos += N;
        s.try_into().ok()
    }

    fn string(&mut self) -> Option<String> {
        let len = self.varint()?;
        let rest = (self.buf.len() - self.pos) as u64;
        if len > rest {
            return None;
        }
        let s = &self.buf[self.pos..self.pos + len as usize];
        self.pos += len as usize;
        std::str::from_utf8(s).ok().map(str::to_owned)
    }

    #[inline]
    fn value(&mut self) -> Option<Value> {
        let tag = self.u8()?;
        Some(match tag {
            0x00 => Value::Void,
            0x01 => Value::Null,
            0x0B => Value::Object(ObjectId(self.varint()?)),
            0x0C => Value::Str(StringId(self.varint()?)),
            0x0D => {
                let inner = self.u8()?;
                Value::Boxed(self.primitive(inner)?)
            }
            _ => self.primitive(tag)?.into(),
        })
    }

    #[inline]
    fn primitive(&mut self, tag: u8) -> Option<Primitive> {
        Some(match tag {
            0x02 => Primitive::Boolean(false),
            0x03 => Primitive::Boolean(true),
            0x04 => Primitive::Int(i32::try_from(self.svarint()?).ok()?),
            0x05 => Primitive::Char(u16::try_from(self.varint()?).ok()?),
            0x06 => Primitive::Byte(i8::try_from(self.svarint()?).ok()?),
            0x07 => Primitive::Short(i16::try_from(self.svarint()?).ok()?),
            0x08 => Primitive::Long(self.svarint()?),
            0x09 => Primitive::Float(f32::from_bits(u32::from_le_bytes(self.array()?))),
            0x0A => Primitive::Double(f64::from_bits(u64::from_le_bytes(self.array()?))),
            _ => return None,
        })
    }

    fn values(&mut self, n: usize, spares: &mut Spares) -> Option<Vec<Value>> {
        let mut v = spares.take(n);
        for _ in 0..n {
            match self.value() {
                Some(x) => v.push(x),
                None => {
                    v.clear();
                    spares.values.push(v);
                    return None;
                }
            }
        }
        Some(v)
    }

    fn origin(&mut self) -> Option<Origin> {
        match self.u8()? {
            0 => Some(Origin::Created),
            1 => Some(Origin::FirstSeen),
            _ => None,
        }
    }
}

/// Reads `count` events from `buf[pos..]` (an `EVENTS` payload after its header) into
/// `events`, their operands' spans into `wire`, which must end exactly at the payload's end.
/// `None` when the payload breaks a rule: the caller then reads it with the careful path.
pub(super) fn read_events(
    buf: &[u8],
    pos: usize,
    base_ts: Timestamp,
    count: usize,
    events: &mut Vec<Event>,
    spans: &mut Vec<u32>,
    spares: &mut Spares,
) -> Option<()> {
    let mut r = Reader { buf, pos };
    let mut ts = base_ts;
    let mut first = true;
    events.reserve(count);
    spans.reserve(2 * count);
    for _ in 0..count {
        let code = r.u8()?;
        if code == op::STRING {
            let at = r.pos;
            let string = StringId(r.varint()?);
            let text = r.string()?;
            spans.extend([at as u32, r.pos as u32]);
            events.push(Event {
                ts,
                kind: EventKind::String { string, text },
            });
            continue;
        }
        if !(1..=op::STATIC_READ).contains(&code) {
            return None;
        }
        let dts = r.varint()?;
        if dts == 0 && !first {
            return None;
        }
        ts = ts.checked_add(dts)?;
        first = false;
        let at = r.pos;
        let kind = read_kind(&mut r, code, spares)?;
        spans.extend([at as u32, r.pos as u32]);
        events.push(Event { ts, kind });
    }
    (r.pos == buf.len()).then_some(())
}

/// `event::read_kind` without the store's form.
#[inline]
fn read_kind(r: &mut Reader<'_>, code: u8, spares: &mut Spares) -> Option<EventKind> {
    Some(match code {
        op::BLOCK => EventKind::Block {
            block: r.varint32()?,
            line: 0,
        },
        op::FIELD_READ => EventKind::FieldRead {
            object: ObjectId(r.varint()?),
            field: FieldId(r.varint32()?),
        },
        op::CALL | op::EXT_CALL => {
            let method = MethodId(r.varint32()?);
            let argc = r.count(1)?;
            let args = r.values(argc, spares)?;
            if code == op::CALL {
                EventKind::Call { method, args }
            } else {
                EventKind::ExtCall { method, args }
            }
        }
        op::RETURN => EventKind::Return(r.value()?),
        op::UNWIND => EventKind::Unwind(r.value()?),
        op::EXT_RETURN => EventKind::ExtReturn(r.value()?),
        op::EXT_UNWIND => EventKind::ExtUnwind(r.value()?),
        op::THROW => EventKind::Throw(r.value()?),
        op::CATCH => EventKind::Catch(r.value()?),
        op::LINE => EventKind::Line(r.varint32()?),
        op::LOCAL => EventKind::Local {
            var: r.varint32()?,
            value: r.value()?,
        },
        op::FIELD_WRITE => EventKind::FieldWrite {
            object: ObjectId(r.varint()?),
            field: FieldId(r.varint32()?),
            value: r.value()?,
        },
        op::STATIC_WRITE => EventKind::StaticWrite {
            field: FieldId(r.varint32()?),
            value: r.value()?,
        },
        op::FIELD_WRITE_UNINIT => EventKind::FieldWriteUninit {
            field: FieldId(r.varint32()?),
            value: r.value()?,
        },
        op::ARRAY_WRITE => EventKind::ArrayWrite {
            array: ObjectId(r.varint()?),
            index: r.varint32()?,
            value: r.value()?,
        },
        op::NEW_OBJECT => EventKind::NewObject {
            object: ObjectId(r.varint()?),
            class: ClassId(r.varint32()?),
            origin: r.origin()?,
        },
        op::NEW_ARRAY => {
            let array = ObjectId(r.varint()?);
            let class = ClassId(r.varint32()?);
            let length = r.varint32()?;
            let origin = r.origin()?;
            let elements = if origin == Origin::FirstSeen {
                if u64::from(length) > (r.buf.len() - r.pos) as u64 {
                    return None;
                }
                r.values(length as usize, spares)?
            } else {
                Vec::new()
            };
            EventKind::NewArray {
                array,
                class,
                length,
                origin,
                elements,
            }
        }
        op::THIS => EventKind::This(ObjectId(r.varint()?)),
        op::CONTENT => {
            let object = ObjectId(r.varint()?);
            let k = r.u8()?;
            let (kind, start) = if k == 3 {
                (ContentKind::Sequence, r.varint32()?)
            } else {
                (ContentKind::from_byte(k)?, 0)
            };
            let per = kind.values_per_item();
            let n = r.count(per)? * per;
            let values = r.values(n, spares)?;
            EventKind::Content {
                object,
                kind,
                start,
                values,
            }
        }
        op::ARRAY_READ => EventKind::ArrayRead {
            array: ObjectId(r.varint()?),
            index: r.varint32()?,
        },
        op::STATIC_READ => EventKind::StaticRead {
            field: FieldId(r.varint32()?),
        },
        _ => return None,
    })
}
