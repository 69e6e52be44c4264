//! Writes the wire format: used by tests everywhere to build synthetic streams, and by
//! benchmarks. The agent has its own (Java) writer of the same format.

use std::io::{self, Write};

use super::bytes::{put_str, put_svarint, put_varint};
use super::decoder::{MAGIC, VERSION};
use super::event::{put_event, Event, EventKind};
use super::frame::{frame_type, BlockDef, ClassDef, FieldDef, Frame, Hello, MethodDef, ThreadDef};
use crate::ids::ThreadId;

pub struct Encoder<W> {
    out: W,
    buf: Vec<u8>,
}

impl<W: Write> Encoder<W> {
    /// Writes the magic and version.
    pub fn new(mut out: W) -> io::Result<Self> {
        out.write_all(MAGIC)?;
        out.write_all(&VERSION.to_le_bytes())?;
        Ok(Encoder {
            out,
            buf: Vec::new(),
        })
    }

    /// Continues a stream whose header (and maybe some frames) `out` already holds.
    pub fn continuing(out: W) -> Self {
        Encoder {
            out,
            buf: Vec::new(),
        }
    }

    pub fn into_inner(self) -> W {
        self.out
    }

    /// Writes a frame of `ty` around `payload` as it is (tests use it for malformed frames).
    pub fn raw_frame(&mut self, ty: u8, payload: &[u8]) -> io::Result<()> {
        self.out
            .write_all(&(payload.len() as u32 + 1).to_le_bytes())?;
        self.out.write_all(&[ty])?;
        self.out.write_all(payload)
    }

    fn flush_frame(&mut self, ty: u8) -> io::Result<()> {
        let payload = std::mem::take(&mut self.buf);
        let r = self.raw_frame(ty, &payload);
        self.buf = payload;
        self.buf.clear();
        r
    }

    pub fn frame(&mut self, frame: &Frame) -> io::Result<()> {
        match frame {
            Frame::Hello(h) => self.hello(h),
            Frame::Class(c) => self.class(c),
            Frame::Method(m) => self.method(m),
            Frame::Field(f) => self.field(f),
            Frame::Thread(t) => self.thread(t),
            Frame::Events {
                thread,
                base_ts,
                events,
            } => self.events_from(*thread, *base_ts, events),
            Frame::End { exit_status } => self.end(*exit_status),
            Frame::Warning { message } => self.warning(message),
        }
    }

    pub fn hello(&mut self, h: &Hello) -> io::Result<()> {
        let b = &mut self.buf;
        put_varint(b, h.pid);
        put_varint(b, h.start_ms);
        put_str(b, &h.vm);
        put_str(b, &h.command);
        put_str(b, &h.agent_version);
        self.flush_frame(frame_type::HELLO)
    }

    pub fn class(&mut self, c: &ClassDef) -> io::Result<()> {
        let b = &mut self.buf;
        put_varint(b, u64::from(c.id.0));
        put_str(b, &c.name);
        put_str(b, &c.source_file);
        b.push(c.flags);
        self.flush_frame(frame_type::CLASS)
    }

    pub fn method(&mut self, m: &MethodDef) -> io::Result<()> {
        let b = &mut self.buf;
        put_varint(b, u64::from(m.id.0));
        put_varint(b, u64::from(m.class.0));
        put_str(b, &m.name);
        put_str(b, &m.descriptor);
        put_varint(b, u64::from(m.access));
        b.push(m.flags);
        b.extend_from_slice(&m.hash);
        put_varint(b, u64::from(m.first_line));
        put_varint(b, u64::from(m.last_line));
        put_varint(b, m.vars.len() as u64);
        for v in &m.vars {
            put_varint(b, u64::from(v.slot));
            put_str(b, &v.name);
            put_str(b, &v.descriptor);
        }
        put_blocks(b, &m.blocks);
        put_successors(b, &m.blocks);
        self.flush_frame(frame_type::METHOD)
    }

    pub fn field(&mut self, f: &FieldDef) -> io::Result<()> {
        let b = &mut self.buf;
        put_varint(b, u64::from(f.id.0));
        put_varint(b, u64::from(f.class.0));
        put_str(b, &f.name);
        put_str(b, &f.descriptor);
        b.push(f.flags);
        self.flush_frame(frame_type::FIELD)
    }

    pub fn thread(&mut self, t: &ThreadDef) -> io::Result<()> {
        let b = &mut self.buf;
        put_varint(b, u64::from(t.id.0));
        put_varint(b, t.java_id);
        put_str(b, &t.name);
        self.flush_frame(frame_type::THREAD)
    }

    /// One `EVENTS` frame; `base_ts` is the first timed event's timestamp.
    pub fn events(&mut self, thread: ThreadId, events: &[Event]) -> io::Result<()> {
        let base = events
            .iter()
            .find(|e| !matches!(e.kind, EventKind::String { .. }))
            .map_or(0, |e| e.ts);
        self.events_from(thread, base, events)
    }

    /// One `EVENTS` frame with an explicit `base_ts` (at most the first timed event's).
    pub fn events_from(&mut self, thread: ThreadId, base: u64, events: &[Event]) -> io::Result<()> {
        let b = &mut self.buf;
        put_varint(b, u64::from(thread.0));
        put_varint(b, base);
        put_varint(b, events.len() as u64);
        let mut prev = base;
        for e in events {
            put_event(b, e, prev);
            if !matches!(e.kind, EventKind::String { .. }) {
                prev = e.ts;
            }
        }
        self.flush_frame(frame_type::EVENTS)
    }

    pub fn end(&mut self, exit_status: i64) -> io::Result<()> {
        put_svarint(&mut self.buf, exit_status);
        self.flush_frame(frame_type::END)
    }

    pub fn warning(&mut self, message: &str) -> io::Result<()> {
        put_str(&mut self.buf, message);
        self.flush_frame(frame_type::WARNING)
    }

    pub fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// The successor table of a `METHOD` frame, as `read_successors` reads it.
pub fn put_successors(b: &mut Vec<u8>, blocks: &[BlockDef]) {
    for k in blocks {
        put_varint(b, k.succ.len() as u64);
        for &s in &k.succ {
            put_varint(b, u64::from(s));
        }
    }
}

/// A method's block table as `read_blocks` reads it.
pub fn put_blocks(b: &mut Vec<u8>, blocks: &[BlockDef]) {
    put_varint(b, blocks.len() as u64);
    for k in blocks {
        put_varint(b, u64::from(k.start));
        put_varint(b, u64::from(k.line));
        put_varint(b, k.effects.len() as u64);
        for e in &k.effects {
            b.push(e.kind as u8);
            put_varint(b, u64::from(e.target));
        }
    }
}
