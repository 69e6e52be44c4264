//! Events: what happened in one thread at one timestamp (the `EVENTS` frame's content).

use serde::{Deserialize, Serialize};

use super::bytes::{put_str, put_varint, ByteReader, ParseResult};
use super::value::{put_value, read_value, Value};
use crate::ids::{ClassId, FieldId, MethodId, ObjectId, StringId, Timestamp};

/// Index of a local variable in its method's `var` list (the wire format's *var id*).
pub type VarId = u32;

/// Who created an object or array, as the agent saw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Origin {
    /// Created by application code: every field and element starts at its default value.
    Created,
    /// First met after uninstrumented code created it: its earlier content is unknown.
    FirstSeen,
}

/// One event with its timestamp. A `String` event has no timestamp of its own: it carries the
/// timestamp of the event before it in the frame (or the frame's `base_ts`).
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    pub ts: Timestamp,
    pub kind: EventKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum EventKind {
    Call {
        method: MethodId,
        args: Vec<Value>,
    },
    Return(Value),
    Unwind(Value),
    ExtCall {
        method: MethodId,
        args: Vec<Value>,
    },
    ExtReturn(Value),
    ExtUnwind(Value),
    Line(u32),
    Local {
        var: VarId,
        value: Value,
    },
    FieldWrite {
        object: ObjectId,
        field: FieldId,
        value: Value,
    },
    StaticWrite {
        field: FieldId,
        value: Value,
    },
    ArrayWrite {
        array: ObjectId,
        index: u32,
        value: Value,
    },
    NewObject {
        object: ObjectId,
        class: ClassId,
        origin: Origin,
    },
    /// `elements` is empty for `Origin::Created` (all defaults) and holds `length` values for
    /// `Origin::FirstSeen`.
    NewArray {
        array: ObjectId,
        class: ClassId,
        length: u32,
        origin: Origin,
        elements: Vec<Value>,
    },
    This(ObjectId),
    Throw(Value),
    Catch(Value),
    String {
        string: StringId,
        text: String,
    },
    FieldWriteUninit {
        field: FieldId,
        value: Value,
    },
    /// The content of a JDK object; `values` holds `2 * count` values for a map (key, value,
    /// ...), `count` otherwise. For a sequence, `start` > 0 says that `values` are its elements
    /// from that index on, the ones before it unchanged since its previous content (the
    /// agent's *tail* form, docs/wire-format.md); it is 0 for every full content.
    Content {
        object: ObjectId,
        kind: ContentKind,
        start: u32,
        values: Vec<Value>,
    },
    /// A basic block of the current method starts. `line` is not on the wire (the decoder sets
    /// 0): the recorder fills in the block's line from the method's block table, and the trace
    /// store keeps it, so that the store knows the line without the table.
    Block {
        block: u32,
        line: u32,
    },
    FieldRead {
        object: ObjectId,
        field: FieldId,
    },
    ArrayRead {
        array: ObjectId,
        index: u32,
    },
    StaticRead {
        field: FieldId,
    },
}

/// The kind byte of a `CONTENT` event that holds a sequence's elements from an index on.
const TAIL: u8 = 3;

/// The kind of a `CONTENT` event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ContentKind {
    /// A `Collection`: its elements in iteration order.
    Sequence = 0,
    /// A `Map`: key, value, key, value, ... in iteration order.
    Map = 1,
    /// An `AbstractStringBuilder`: one string value.
    Text = 2,
}

impl ContentKind {
    pub fn from_byte(b: u8) -> Option<ContentKind> {
        match b {
            0 => Some(ContentKind::Sequence),
            1 => Some(ContentKind::Map),
            2 => Some(ContentKind::Text),
            _ => None,
        }
    }

    /// Values per counted item.
    pub fn values_per_item(self) -> usize {
        if self == ContentKind::Map {
            2
        } else {
            1
        }
    }
}

pub mod op {
    pub const CALL: u8 = 0x01;
    pub const RETURN: u8 = 0x02;
    pub const UNWIND: u8 = 0x03;
    pub const EXT_CALL: u8 = 0x04;
    pub const EXT_RETURN: u8 = 0x05;
    pub const EXT_UNWIND: u8 = 0x06;
    pub const LINE: u8 = 0x07;
    pub const LOCAL: u8 = 0x08;
    pub const FIELD_WRITE: u8 = 0x09;
    pub const STATIC_WRITE: u8 = 0x0A;
    pub const ARRAY_WRITE: u8 = 0x0B;
    pub const NEW_OBJECT: u8 = 0x0C;
    pub const NEW_ARRAY: u8 = 0x0D;
    pub const THIS: u8 = 0x0E;
    pub const THROW: u8 = 0x0F;
    pub const CATCH: u8 = 0x10;
    pub const STRING: u8 = 0x11;
    pub const FIELD_WRITE_UNINIT: u8 = 0x12;
    pub const CONTENT: u8 = 0x13;
    pub const BLOCK: u8 = 0x14;
    pub const FIELD_READ: u8 = 0x15;
    pub const ARRAY_READ: u8 = 0x16;
    pub const STATIC_READ: u8 = 0x17;
}

impl EventKind {
    pub fn op(&self) -> u8 {
        match self {
            EventKind::Call { .. } => op::CALL,
            EventKind::Return(_) => op::RETURN,
            EventKind::Unwind(_) => op::UNWIND,
            EventKind::ExtCall { .. } => op::EXT_CALL,
            EventKind::ExtReturn(_) => op::EXT_RETURN,
            EventKind::ExtUnwind(_) => op::EXT_UNWIND,
            EventKind::Line(_) => op::LINE,
            EventKind::Local { .. } => op::LOCAL,
            EventKind::FieldWrite { .. } => op::FIELD_WRITE,
            EventKind::StaticWrite { .. } => op::STATIC_WRITE,
            EventKind::ArrayWrite { .. } => op::ARRAY_WRITE,
            EventKind::NewObject { .. } => op::NEW_OBJECT,
            EventKind::NewArray { .. } => op::NEW_ARRAY,
            EventKind::This(_) => op::THIS,
            EventKind::Throw(_) => op::THROW,
            EventKind::Catch(_) => op::CATCH,
            EventKind::String { .. } => op::STRING,
            EventKind::FieldWriteUninit { .. } => op::FIELD_WRITE_UNINIT,
            EventKind::Content { .. } => op::CONTENT,
            EventKind::Block { .. } => op::BLOCK,
            EventKind::FieldRead { .. } => op::FIELD_READ,
            EventKind::ArrayRead { .. } => op::ARRAY_READ,
            EventKind::StaticRead { .. } => op::STATIC_READ,
        }
    }

    /// The name used in docs/wire-format.md.
    pub fn name(&self) -> &'static str {
        op_name(self.op()).unwrap_or("?")
    }

    /// Opens a call node (`CALL`, `EXT_CALL`).
    pub fn is_call(&self) -> bool {
        matches!(self, EventKind::Call { .. } | EventKind::ExtCall { .. })
    }

    /// Closes a call node (returns and unwinds, instrumented or external).
    pub fn is_exit(&self) -> bool {
        matches!(
            self,
            EventKind::Return(_)
                | EventKind::Unwind(_)
                | EventKind::ExtReturn(_)
                | EventKind::ExtUnwind(_)
        )
    }
}

pub fn op_name(op: u8) -> Option<&'static str> {
    const NAMES: [&str; 23] = [
        "CALL",
        "RETURN",
        "UNWIND",
        "EXT_CALL",
        "EXT_RETURN",
        "EXT_UNWIND",
        "LINE",
        "LOCAL",
        "FIELD_WRITE",
        "STATIC_WRITE",
        "ARRAY_WRITE",
        "NEW_OBJECT",
        "NEW_ARRAY",
        "THIS",
        "THROW",
        "CATCH",
        "STRING",
        "FIELD_WRITE_UNINIT",
        "CONTENT",
        "BLOCK",
        "FIELD_READ",
        "ARRAY_READ",
        "STATIC_READ",
    ];
    NAMES.get(usize::from(op).wrapping_sub(1)).copied()
}

/// Encodes `ev` after an event at `prev_ts` (the frame's `base_ts` for the first one).
pub fn put_event(out: &mut Vec<u8>, ev: &Event, prev_ts: Timestamp) {
    put_event_ext(out, ev, prev_ts, false)
}

/// `put_event`; with `store`, in the trace store's form, which adds a `BLOCK`'s line.
pub fn put_event_ext(out: &mut Vec<u8>, ev: &Event, prev_ts: Timestamp, store: bool) {
    out.push(ev.kind.op());
    if !matches!(ev.kind, EventKind::String { .. }) {
        put_varint(out, ev.ts.wrapping_sub(prev_ts));
    }
    put_operands(out, &ev.kind, store);
}

/// What follows an event's op byte and `dts`; with `store`, in the trace store's form.
pub fn put_operands(out: &mut Vec<u8>, kind: &EventKind, store: bool) {
    match kind {
        EventKind::Call { method, args } | EventKind::ExtCall { method, args } => {
            put_varint(out, u64::from(method.0));
            put_varint(out, args.len() as u64);
            for a in args {
                put_value(out, a);
            }
        }
        EventKind::Return(v)
        | EventKind::Unwind(v)
        | EventKind::ExtReturn(v)
        | EventKind::ExtUnwind(v)
        | EventKind::Throw(v)
        | EventKind::Catch(v) => put_value(out, v),
        EventKind::Line(l) => put_varint(out, u64::from(*l)),
        EventKind::Local { var, value } => {
            put_varint(out, u64::from(*var));
            put_value(out, value);
        }
        EventKind::FieldWrite {
            object,
            field,
            value,
        } => {
            put_varint(out, object.0);
            put_varint(out, u64::from(field.0));
            put_value(out, value);
        }
        EventKind::StaticWrite { field, value } | EventKind::FieldWriteUninit { field, value } => {
            put_varint(out, u64::from(field.0));
            put_value(out, value);
        }
        EventKind::ArrayWrite {
            array,
            index,
            value,
        } => {
            put_varint(out, array.0);
            put_varint(out, u64::from(*index));
            put_value(out, value);
        }
        EventKind::NewObject {
            object,
            class,
            origin,
        } => {
            put_varint(out, object.0);
            put_varint(out, u64::from(class.0));
            out.push(origin_byte(*origin));
        }
        EventKind::NewArray { .. } => put_new_array(out, kind),
        EventKind::This(o) => put_varint(out, o.0),
        EventKind::String { string, text } => {
            put_varint(out, string.0);
            put_str(out, text);
        }
        EventKind::Content { .. } => put_content(out, kind),
        EventKind::Block { block, line } => {
            put_varint(out, u64::from(*block));
            if store {
                put_varint(out, u64::from(*line));
            }
        }
        EventKind::FieldRead { object, field } => {
            put_varint(out, object.0);
            put_varint(out, u64::from(field.0));
        }
        EventKind::ArrayRead { array, index } => {
            put_varint(out, array.0);
            put_varint(out, u64::from(*index));
        }
        EventKind::StaticRead { field } => put_varint(out, u64::from(field.0)),
    }
}

/// A `NEW_ARRAY`'s operands: array, class, length, origin, and a first-seen array's elements.
fn put_new_array(out: &mut Vec<u8>, kind: &EventKind) {
    let EventKind::NewArray {
        array,
        class,
        length,
        origin,
        elements,
    } = kind
    else {
        return;
    };
    put_varint(out, array.0);
    put_varint(out, u64::from(class.0));
    put_varint(out, u64::from(*length));
    out.push(origin_byte(*origin));
    if *origin == Origin::FirstSeen {
        for e in elements {
            put_value(out, e);
        }
    }
}

/// A `CONTENT`'s operands: object, kind (or `TAIL` and the start of a sequence's tail), count,
/// values.
fn put_content(out: &mut Vec<u8>, event: &EventKind) {
    let EventKind::Content {
        object,
        kind,
        start,
        values,
    } = event
    else {
        return;
    };
    put_varint(out, object.0);
    if *start > 0 {
        out.push(TAIL);
        put_varint(out, u64::from(*start));
    } else {
        out.push(*kind as u8);
    }
    put_varint(out, (values.len() / kind.values_per_item()) as u64);
    for v in values {
        put_value(out, v);
    }
}

fn origin_byte(o: Origin) -> u8 {
    match o {
        Origin::Created => 0,
        Origin::FirstSeen => 1,
    }
}

/// Decodes one event after an event at `*prev_ts`, and advances `*prev_ts`. `first` is whether
/// no timed event came before in this frame (only the first may have `dts == 0`).
pub fn read_event(
    r: &mut ByteReader<'_>,
    prev_ts: &mut Timestamp,
    first: bool,
) -> ParseResult<Event> {
    read_event_ext(r, prev_ts, first, false)
}

/// Bit set on an op byte by the trace store's block encoding when `dts == 1` and omitted.
pub const DTS_ONE: u8 = 0x80;

/// `read_event`; with `store`, the trace store's form (see `put_event_ext`), which also
/// accepts `DTS_ONE`.
pub fn read_event_ext(
    r: &mut ByteReader<'_>,
    prev_ts: &mut Timestamp,
    first: bool,
    store: bool,
) -> ParseResult<Event> {
    let dts_one_flag = store;
    let mut code = r.u8()?;
    let implicit_one = dts_one_flag && code & DTS_ONE != 0;
    code &= if dts_one_flag { !DTS_ONE } else { 0xff };
    if code == op::STRING {
        let string = StringId(r.varint()?);
        let text = r.string("string text")?;
        return Ok(Event {
            ts: *prev_ts,
            kind: EventKind::String { string, text },
        });
    }
    let Some(name) = op_name(code) else {
        return r.error(format!("unknown event op 0x{code:02x}"));
    };
    let dts = if implicit_one { 1 } else { r.varint()? };
    if dts == 0 && !first {
        return r.error(format!(
            "{name} has dts 0: two events would share timestamp {prev_ts}"
        ));
    }
    let Some(ts) = prev_ts.checked_add(dts) else {
        return r.error(format!("timestamp {prev_ts} + {dts} overflows"));
    };
    *prev_ts = ts;
    let kind = read_kind(r, code, store)?;
    Ok(Event { ts, kind })
}

/// The operands of an event whose op is `code` (known, not `STRING`).
fn read_kind(r: &mut ByteReader<'_>, code: u8, store: bool) -> ParseResult<EventKind> {
    Ok(match code {
        op::CALL | op::EXT_CALL => {
            let method = MethodId(r.varint32("method id")?);
            let argc = r.count("argument count", 1)?;
            let mut args = Vec::with_capacity(argc);
            for _ in 0..argc {
                args.push(read_value(r)?);
            }
            if code == op::CALL {
                EventKind::Call { method, args }
            } else {
                EventKind::ExtCall { method, args }
            }
        }
        op::RETURN => EventKind::Return(read_value(r)?),
        op::UNWIND => EventKind::Unwind(read_value(r)?),
        op::EXT_RETURN => EventKind::ExtReturn(read_value(r)?),
        op::EXT_UNWIND => EventKind::ExtUnwind(read_value(r)?),
        op::THROW => EventKind::Throw(read_value(r)?),
        op::CATCH => EventKind::Catch(read_value(r)?),
        op::LINE => EventKind::Line(r.varint32("line")?),
        op::LOCAL => EventKind::Local {
            var: r.varint32("var id")?,
            value: read_value(r)?,
        },
        op::FIELD_WRITE => EventKind::FieldWrite {
            object: ObjectId(r.varint()?),
            field: FieldId(r.varint32("field id")?),
            value: read_value(r)?,
        },
        op::STATIC_WRITE => EventKind::StaticWrite {
            field: FieldId(r.varint32("field id")?),
            value: read_value(r)?,
        },
        op::FIELD_WRITE_UNINIT => EventKind::FieldWriteUninit {
            field: FieldId(r.varint32("field id")?),
            value: read_value(r)?,
        },
        op::ARRAY_WRITE => EventKind::ArrayWrite {
            array: ObjectId(r.varint()?),
            index: r.varint32("array index")?,
            value: read_value(r)?,
        },
        op::NEW_OBJECT => EventKind::NewObject {
            object: ObjectId(r.varint()?),
            class: ClassId(r.varint32("class id")?),
            origin: read_origin(r)?,
        },
        op::NEW_ARRAY => read_new_array(r)?,
        op::THIS => EventKind::This(ObjectId(r.varint()?)),
        op::CONTENT => read_content(r)?,
        op::BLOCK => EventKind::Block {
            block: r.varint32("block index")?,
            line: if store { r.varint32("block line")? } else { 0 },
        },
        op::FIELD_READ => EventKind::FieldRead {
            object: ObjectId(r.varint()?),
            field: FieldId(r.varint32("field id")?),
        },
        op::ARRAY_READ => EventKind::ArrayRead {
            array: ObjectId(r.varint()?),
            index: r.varint32("array index")?,
        },
        op::STATIC_READ => EventKind::StaticRead {
            field: FieldId(r.varint32("field id")?),
        },
        _ => return r.error(format!("unknown event op 0x{code:02x}")),
    })
}

fn read_new_array(r: &mut ByteReader<'_>) -> ParseResult<EventKind> {
    let array = ObjectId(r.varint()?);
    let class = ClassId(r.varint32("class id")?);
    let length = r.varint32("array length")?;
    let origin = read_origin(r)?;
    let mut elements = Vec::new();
    if origin == Origin::FirstSeen {
        if u64::from(length) > r.remaining() as u64 {
            return r.error(format!(
                "array length {length} is more than the bytes left can hold"
            ));
        }
        elements.reserve(length as usize);
        for _ in 0..length {
            elements.push(read_value(r)?);
        }
    }
    Ok(EventKind::NewArray {
        array,
        class,
        length,
        origin,
        elements,
    })
}

fn read_content(r: &mut ByteReader<'_>) -> ParseResult<EventKind> {
    let object = ObjectId(r.varint()?);
    let k = r.u8()?;
    let (kind, start) = if k == TAIL {
        (ContentKind::Sequence, r.varint32("content start")?)
    } else if let Some(kind) = ContentKind::from_byte(k) {
        (kind, 0)
    } else {
        return r.error(format!("content kind {k}, expected 0 to 3"));
    };
    let count = r.count("content count", kind.values_per_item())?;
    let n = count * kind.values_per_item();
    let mut values = Vec::with_capacity(n);
    for _ in 0..n {
        values.push(read_value(r)?);
    }
    Ok(EventKind::Content {
        object,
        kind,
        start,
        values,
    })
}

fn read_origin(r: &mut ByteReader<'_>) -> ParseResult<Origin> {
    match r.u8()? {
        0 => Ok(Origin::Created),
        1 => Ok(Origin::FirstSeen),
        o => r.error(format!("origin {o}, expected 0 or 1")),
    }
}
