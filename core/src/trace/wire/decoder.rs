//! The streaming decoder: one frame at a time from any `Read`, never the whole stream.

use std::io::{ErrorKind, Read};

use super::bytes::{ByteReader, ParseError, ParseResult};
use super::error::WireError;
use super::event::{read_event, Event};
use super::fast::{self, Spares, WireEvents};
use super::frame::{
    frame_name, frame_type, BlockDef, ClassDef, Effect, EffectKind, FieldDef, Frame, Hello,
    MethodDef, ThreadDef, VarDef,
};
use crate::ids::{ClassId, FieldId, MethodId, ThreadId};

pub const MAGIC: &[u8; 6] = b"HSWIRE";
/// The version written (by the agent and `Encoder`); 3 added the successor table of `METHOD`.
pub const VERSION: u16 = 3;
/// The oldest version still read (no successor table: no loops are found).
pub const OLDEST_VERSION: u16 = 2;
/// A frame longer than this is malformed.
pub const MAX_FRAME_LEN: u32 = 64 << 20;

#[derive(PartialEq)]
enum State {
    /// Expecting the `HELLO` frame.
    Start,
    Frames,
    /// After `END` or an error: nothing more is read.
    Done,
}

/// Decodes a stream frame by frame. After `END`, a truncation or an error, `next_frame`
/// returns `Ok(None)`.
pub struct Decoder<R> {
    input: R,
    offset: u64,
    payload: Vec<u8>,
    state: State,
    version: u16,
    /// Vectors of frames given back (`recycle`), for the next frames.
    spares: Spares,
    spare_events: Vec<Vec<Event>>,
    spare_wire: Vec<WireEvents>,
    /// The bytes of the last `EVENTS` frame, until `take_wire` or the next frame.
    wire: Option<WireEvents>,
}

/// Frames' vectors kept for reuse at most.
const SPARE_FRAMES: usize = 64;

impl<R: Read> Decoder<R> {
    /// Reads and checks the magic and version.
    pub fn new(mut input: R) -> Result<Self, WireError> {
        let mut header = [0u8; 8];
        let n = read_full(&mut input, &mut header, 0)?;
        if n < MAGIC.len() || &header[..6] != MAGIC {
            if n < MAGIC.len() && MAGIC.starts_with(&header[..n]) {
                return Err(WireError::Truncated {
                    offset: n as u64,
                    detail: "the stream ends inside its header".into(),
                });
            }
            return Err(WireError::BadMagic {
                found: String::from_utf8_lossy(&header[..n.min(6)]).into_owned(),
            });
        }
        if n < 8 {
            return Err(WireError::Truncated {
                offset: n as u64,
                detail: "the stream ends inside its header".into(),
            });
        }
        let version = u16::from_le_bytes([header[6], header[7]]);
        if !(OLDEST_VERSION..=VERSION).contains(&version) {
            return Err(WireError::UnsupportedVersion {
                found: version,
                supported: VERSION,
            });
        }
        Ok(Decoder {
            input,
            offset: 8,
            payload: Vec::new(),
            state: State::Start,
            version,
            spares: Spares::default(),
            spare_events: Vec::new(),
            spare_wire: Vec::new(),
            wire: None,
        })
    }

    /// The stream's version.
    pub fn version(&self) -> u16 {
        self.version
    }

    /// Bytes consumed so far.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// The next frame; `Ok(None)` once the stream has ended with `END`.
    pub fn next_frame(&mut self) -> Result<Option<Frame>, WireError> {
        if let Some(w) = self.wire.take() {
            self.recycle(Frame::End { exit_status: 0 }, Some(w));
        }
        if self.state == State::Done {
            return Ok(None);
        }
        let result = self.read_frame();
        match &result {
            Ok(Some(Frame::End { .. })) | Ok(None) | Err(_) => self.state = State::Done,
            Ok(Some(_)) => self.state = State::Frames,
        }
        result
    }

    fn read_frame(&mut self) -> Result<Option<Frame>, WireError> {
        let frame_offset = self.offset;
        let mut head = [0u8; 5];
        let n = read_full(&mut self.input, &mut head, frame_offset)?;
        if n == 0 {
            return Err(WireError::Truncated {
                offset: frame_offset,
                detail: "the stream ends without an END frame".into(),
            });
        }
        if n < head.len() {
            self.offset += n as u64;
            return Err(WireError::Truncated {
                offset: frame_offset,
                detail: format!("a frame header is cut after {n} of 5 bytes"),
            });
        }
        let len = u32::from_le_bytes([head[0], head[1], head[2], head[3]]);
        let ty = head[4];
        let name = frame_name(ty)
            .map(str::to_owned)
            .unwrap_or_else(|| format!("type 0x{ty:02x}"));
        let malformed = |offset: u64, problem: String| WireError::Malformed {
            frame_offset,
            offset,
            frame: name.clone(),
            problem,
        };
        if len == 0 {
            return Err(malformed(
                frame_offset,
                "frame length 0 (it counts the type byte, so it is at least 1)".into(),
            ));
        }
        if len > MAX_FRAME_LEN {
            return Err(malformed(
                frame_offset,
                format!("frame length {len} is over the 64 MiB limit"),
            ));
        }
        if frame_name(ty).is_none() {
            return Err(malformed(frame_offset + 4, "unknown frame type".into()));
        }
        if self.state == State::Start && ty != frame_type::HELLO {
            return Err(malformed(
                frame_offset + 4,
                "the first frame must be HELLO".into(),
            ));
        }
        if self.state != State::Start && ty == frame_type::HELLO {
            return Err(malformed(frame_offset + 4, "a second HELLO frame".into()));
        }
        let payload_len = (len - 1) as usize;
        self.payload.clear();
        self.payload.resize(payload_len, 0);
        let got = read_full(&mut self.input, &mut self.payload, frame_offset + 5)?;
        self.offset += 5 + got as u64;
        if got < payload_len {
            return Err(WireError::Truncated {
                offset: frame_offset,
                detail: format!("the {name} frame starting here is cut after {got} of {payload_len} payload bytes (dropped)"),
            });
        }
        let payload_offset = frame_offset + 5;
        if ty == frame_type::EVENTS {
            if let Some(frame) = self.events_fast() {
                return Ok(Some(frame));
            }
        }
        let mut r = ByteReader::new(&self.payload);
        let parsed = parse_payload(ty, &mut r, self.version).and_then(|f| {
            if r.is_empty() {
                Ok(f)
            } else {
                r.error(format!(
                    "{} bytes left over after the payload",
                    r.remaining()
                ))
            }
        });
        parsed
            .map(Some)
            .map_err(|e| malformed(payload_offset + e.at as u64, e.problem))
    }
}

impl<R> Decoder<R> {
    /// The payload and event spans of the `EVENTS` frame `next_frame` returned last, if it
    /// was one: the store copies events from it (`WireEvents::operands`).
    pub fn take_wire(&mut self) -> Option<WireEvents> {
        self.wire.take()
    }

    /// Gives a frame's vectors (and the wire bytes it came with) back for the next frames:
    /// decoding then allocates nothing per event.
    pub fn recycle(&mut self, frame: Frame, wire: Option<WireEvents>) {
        if let Frame::Events { mut events, .. } = frame {
            self.spares.recycle(&mut events);
            if self.spare_events.len() < SPARE_FRAMES {
                self.spare_events.push(events);
            }
        }
        if let Some(mut w) = wire {
            if self.spare_wire.len() < SPARE_FRAMES {
                w.clear();
                self.spare_wire.push(w);
            }
        }
    }

    /// An `EVENTS` payload read by the fast path, its bytes kept as `wire`; `None` when the
    /// payload breaks a rule (the careful path then says which).
    fn events_fast(&mut self) -> Option<Frame> {
        let mut r = ByteReader::new(&self.payload);
        let thread = ThreadId(r.varint32("thread id").ok()?);
        let base_ts = r.varint().ok()?;
        let count = r.count("event count", 2).ok()?;
        let mut events = self.spare_events.pop().unwrap_or_default();
        let mut wire = self.spare_wire.pop().unwrap_or_default();
        let mut spans = std::mem::take(wire.spans_mut());
        let read = fast::read_events(
            &self.payload,
            r.pos(),
            base_ts,
            count,
            &mut events,
            &mut spans,
            &mut self.spares,
        );
        *wire.spans_mut() = spans;
        if read.is_none() {
            self.recycle(
                Frame::Events {
                    thread,
                    base_ts,
                    events,
                },
                Some(wire),
            );
            return None;
        }
        std::mem::swap(wire.payload_mut(), &mut self.payload);
        self.wire = Some(wire);
        Some(Frame::Events {
            thread,
            base_ts,
            events,
        })
    }
}

impl<R: Read> Iterator for Decoder<R> {
    type Item = Result<Frame, WireError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_frame().transpose()
    }
}

fn read_full<R: Read>(input: &mut R, buf: &mut [u8], offset: u64) -> Result<usize, WireError> {
    let mut n = 0;
    while n < buf.len() {
        match input.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(source) => {
                return Err(WireError::Io {
                    offset: offset + n as u64,
                    source,
                })
            }
        }
    }
    Ok(n)
}

pub(super) fn parse_payload(ty: u8, r: &mut ByteReader<'_>, version: u16) -> ParseResult<Frame> {
    Ok(match ty {
        frame_type::HELLO => Frame::Hello(Hello {
            pid: r.varint()?,
            start_ms: r.varint()?,
            vm: r.string("vm")?,
            command: r.string("command")?,
            agent_version: r.string("agent_version")?,
        }),
        frame_type::CLASS => Frame::Class(ClassDef {
            id: ClassId(r.varint32("class id")?),
            name: r.string("class name")?,
            source_file: r.string("source_file")?,
            flags: r.u8()?,
        }),
        frame_type::METHOD => {
            let id = MethodId(r.varint32("method id")?);
            let class = ClassId(r.varint32("class id")?);
            let name = r.string("method name")?;
            let descriptor = r.string("descriptor")?;
            let access = r.varint32("access flags")?;
            let flags = r.u8()?;
            let hash = r.array::<16>()?;
            let first_line = r.varint32("first_line")?;
            let last_line = r.varint32("last_line")?;
            let nvars = r.count("nvars", 3)?;
            let mut vars = Vec::with_capacity(nvars);
            for _ in 0..nvars {
                vars.push(VarDef {
                    slot: r.varint32("var slot")?,
                    name: r.string("var name")?,
                    descriptor: r.string("var descriptor")?,
                });
            }
            let mut blocks = read_blocks(r)?;
            if version >= 3 {
                read_successors(r, &mut blocks)?;
            }
            Frame::Method(MethodDef {
                id,
                class,
                name,
                descriptor,
                access,
                flags,
                hash,
                first_line,
                last_line,
                vars,
                blocks,
            })
        }
        frame_type::FIELD => Frame::Field(FieldDef {
            id: FieldId(r.varint32("field id")?),
            class: ClassId(r.varint32("class id")?),
            name: r.string("field name")?,
            descriptor: r.string("field descriptor")?,
            flags: r.u8()?,
        }),
        frame_type::THREAD => Frame::Thread(ThreadDef {
            id: ThreadId(r.varint32("thread id")?),
            java_id: r.varint()?,
            name: r.string("thread name")?,
        }),
        frame_type::EVENTS => {
            let thread = ThreadId(r.varint32("thread id")?);
            let base_ts = r.varint()?;
            let count = r.count("event count", 2)?;
            let events = read_events(r, base_ts, count)?;
            Frame::Events {
                thread,
                base_ts,
                events,
            }
        }
        frame_type::END => Frame::End {
            exit_status: r.svarint()?,
        },
        frame_type::WARNING => Frame::Warning {
            message: r.string("message")?,
        },
        _ => return r.error(format!("unknown frame type 0x{ty:02x}")),
    })
}

fn read_events(r: &mut ByteReader<'_>, base_ts: u64, count: usize) -> ParseResult<Vec<Event>> {
    let mut events = Vec::with_capacity(count);
    let mut ts = base_ts;
    let mut first = true;
    for i in 0..count {
        let start = r.pos();
        let ev = read_event(r, &mut ts, first).map_err(|e| ParseError {
            at: e.at,
            problem: format!(
                "event {i} of {count} (starting at payload byte {start}): {}",
                e.problem
            ),
        })?;
        first &= matches!(ev.kind, super::event::EventKind::String { .. });
        events.push(ev);
    }
    Ok(events)
}

/// A method's block table: `nblocks:varint block*` (also the trace store's `methods.blocks`).
pub fn read_blocks(r: &mut ByteReader<'_>) -> ParseResult<Vec<BlockDef>> {
    let nblocks = r.count("nblocks", 3)?;
    let mut blocks = Vec::with_capacity(nblocks);
    for _ in 0..nblocks {
        let start = r.varint32("block start")?;
        let line = r.varint32("block line")?;
        let neffects = r.count("neffects", 2)?;
        let mut effects = Vec::with_capacity(neffects);
        for _ in 0..neffects {
            let k = r.u8()?;
            let Some(kind) = EffectKind::from_byte(k) else {
                return r.error(format!("effect kind {k}, expected 0 to 7"));
            };
            effects.push(Effect {
                kind,
                target: r.varint32("effect target")?,
            });
        }
        blocks.push(BlockDef {
            start,
            line,
            effects,
            succ: Vec::new(),
        });
    }
    Ok(blocks)
}

/// The successor table of a `METHOD` frame (version 3): for each block, `nsucc:varint
/// succ:varint*`, block indices of the same table.
pub fn read_successors(r: &mut ByteReader<'_>, blocks: &mut [BlockDef]) -> ParseResult<()> {
    let n = blocks.len();
    for b in blocks.iter_mut() {
        let nsucc = r.count("nsucc", 1)?;
        let mut succ = Vec::with_capacity(nsucc);
        for _ in 0..nsucc {
            let s = r.varint32("successor")?;
            if s as usize >= n {
                return r.error(format!("successor block {s} of a table of {n} blocks"));
            }
            succ.push(s);
        }
        b.succ = succ;
    }
    Ok(())
}
