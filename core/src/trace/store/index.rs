//! The per-variable change index (jhyde section 5): for every variable, the timestamps at which
//! it changed and the value it got, so that "the value of x at t" is a lookup, not a replay.
//!
//! Writes are buffered and flushed at each commit as a *segment*: entries sorted by
//! (variable, timestamp), cut into LZ4-compressed pages keyed by their first (variable,
//! timestamp). A lookup reads one page per segment, newest segments first.

use serde::{Deserialize, Serialize};

use super::block::StackEntry;
use crate::ids::{FieldId, NodeId, ObjectId, Timestamp};
use crate::trace::wire::{
    put_svarint, put_value, put_varint, read_value, ByteReader, ParseResult, Value, VarId,
};

/// A variable: something a write event changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Variable {
    Static {
        field: FieldId,
    },
    Field {
        object: ObjectId,
        field: FieldId,
    },
    Element {
        array: ObjectId,
        index: u32,
    },
    /// A local variable (or argument) of one call.
    Local {
        node: NodeId,
        var: VarId,
    },
}

/// Sort key of a variable: the kind, then two numbers, compared in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Key {
    pub kind: u8,
    pub a: u64,
    pub b: u32,
}

impl Variable {
    pub fn key(&self) -> Key {
        match *self {
            Variable::Static { field } => Key {
                kind: 0,
                a: u64::from(field.0),
                b: 0,
            },
            Variable::Field { object, field } => Key {
                kind: 1,
                a: object.0,
                b: field.0,
            },
            Variable::Element { array, index } => Key {
                kind: 2,
                a: array.0,
                b: index,
            },
            Variable::Local { node, var } => Key {
                kind: 3,
                a: u64::from(node.0),
                b: var,
            },
        }
    }
}

impl Key {
    /// The key as one number with the same order.
    pub fn packed(&self) -> u128 {
        (u128::from(self.kind) << 96) | (u128::from(self.a) << 32) | u128::from(self.b)
    }

    /// The `index_pages.start` form: big-endian so that SQLite's blob order is key order.
    pub fn page_start(&self, ts: Timestamp) -> Vec<u8> {
        let mut v = Vec::with_capacity(21);
        v.push(self.kind);
        v.extend_from_slice(&self.a.to_be_bytes());
        v.extend_from_slice(&self.b.to_be_bytes());
        v.extend_from_slice(&ts.to_be_bytes());
        v
    }
}

/// One change of a variable, with the code that made it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Write {
    pub ts: Timestamp,
    pub value: Value,
    /// The node whose code wrote (for an argument, the caller; for content sent after a call
    /// into uninstrumented code, the calling node).
    pub node: NodeId,
    /// The line that node was executing; 0 when unknown.
    pub line: u32,
}

#[derive(Clone, Copy, Debug)]
pub struct IndexEntry {
    pub key: Key,
    pub ts: Timestamp,
    pub value: Value,
    /// The top of the writing thread's stack: the writing node and its line.
    pub by: StackEntry,
}

impl From<&IndexEntry> for Write {
    fn from(e: &IndexEntry) -> Write {
        Write {
            ts: e.ts,
            value: e.value,
            node: e.by.node,
            line: e.by.line,
        }
    }
}

/// The reference the writer of a group's first entry is a delta from: for a local, its own
/// node (most writes of a local are its call's); otherwise the previous entry's writer.
fn group_node(key: Key, prev: NodeId) -> NodeId {
    if key.kind == 3 {
        NodeId(key.a as u32)
    } else {
        prev
    }
}

/// `zigzag(line - prev line) << 1 | (node != prev node)`, then the node as a delta when it
/// differs: a write by the same node on a nearby line costs one byte.
fn put_by(raw: &mut Vec<u8>, by: StackEntry, prev: &mut StackEntry) {
    let dline = i64::from(by.line) - i64::from(prev.line);
    let zig = ((dline << 1) ^ (dline >> 63)) as u64;
    let other = by.node != prev.node;
    put_varint(raw, (zig << 1) | u64::from(other));
    if other {
        put_svarint(raw, i64::from(by.node.0) - i64::from(prev.node.0));
    }
    *prev = by;
}

fn read_by(r: &mut ByteReader, prev: &mut StackEntry) -> ParseResult<StackEntry> {
    let code = r.varint()?;
    let zig = code >> 1;
    let dline = ((zig >> 1) as i64) ^ -((zig & 1) as i64);
    let node = if code & 1 == 1 {
        let d = r.svarint()?;
        NodeId((i64::from(prev.node.0).wrapping_add(d)) as u32)
    } else {
        prev.node
    };
    let by = StackEntry {
        node,
        line: (i64::from(prev.line).wrapping_add(dline)) as u32,
    };
    *prev = by;
    Ok(by)
}

/// A page ready for the `index_pages` table.
pub struct Page {
    pub start: Vec<u8>,
    pub data: Vec<u8>,
}

/// Cuts a stream of entries, sorted by (key, timestamp), into pages of about `page_bytes` raw
/// bytes (`seal` sorts a segment's entries and cuts them in pieces).
///
/// Page encoding (before LZ4): `base_ts:varint` (the segment's smallest timestamp) then groups of one key:
/// `kind:u8 a:varint b:varint n:varint` and `n` times `dts:varint value by`; `a` is a delta from the
/// previous group's `a` when the kind is the same; the first `dts` of a group is relative to
/// `base_ts`, the next ones to the previous entry. `by` is the writing node and line as deltas
/// (see `put_by` and docs/trace-schema.md).
pub struct PageWriter {
    base_ts: Timestamp,
    page_bytes: usize,
    raw: Vec<u8>,
    start: Option<Vec<u8>>,
    prev: Option<Key>,
    /// The writer of the page's last entry written (node 0, line 0 at a page's start).
    prev_by: StackEntry,
    /// The open group: entries of one key not yet written.
    group: Vec<IndexEntry>,
}

const PAGE_START_BY: StackEntry = StackEntry {
    node: NodeId(0),
    line: 0,
};

/// Entries of one key per group at most, so that `n` stays a one- or two-byte varint.
const MAX_GROUP: usize = 256;

impl PageWriter {
    /// `base_ts` must not exceed any entry's timestamp.
    pub fn new(base_ts: Timestamp, page_bytes: usize) -> Self {
        PageWriter {
            base_ts,
            page_bytes,
            raw: Vec::new(),
            start: None,
            prev: None,
            prev_by: PAGE_START_BY,
            group: Vec::new(),
        }
    }

    /// Adds the next entry; returns a page when one is full.
    pub fn push(&mut self, e: &IndexEntry) -> Option<Page> {
        let mut page = None;
        if self.group.first().is_some_and(|g| g.key != e.key) || self.group.len() >= MAX_GROUP {
            self.close_group();
            if self.raw.len() >= self.page_bytes {
                page = self.take_page();
            }
        }
        if self.start.is_none() {
            self.start = Some(e.key.page_start(e.ts));
            put_varint(&mut self.raw, self.base_ts);
        }
        self.group.push(*e);
        page
    }

    fn close_group(&mut self) {
        let Some(first) = self.group.first() else {
            return;
        };
        let key = first.key;
        let raw = &mut self.raw;
        raw.push(key.kind);
        match self.prev {
            Some(p) if p.kind == key.kind => put_varint(raw, key.a - p.a),
            _ => put_varint(raw, key.a),
        }
        put_varint(raw, u64::from(key.b));
        put_varint(raw, self.group.len() as u64);
        let mut prev_ts = self.base_ts;
        self.prev_by.node = group_node(key, self.prev_by.node);
        for e in &self.group {
            put_varint(raw, e.ts - prev_ts);
            put_value(raw, &e.value);
            put_by(raw, e.by, &mut self.prev_by);
            prev_ts = e.ts;
        }
        self.prev = Some(key);
        self.group.clear();
    }

    fn take_page(&mut self) -> Option<Page> {
        let start = self.start.take()?;
        let page = Page {
            start,
            data: lz4_flex::compress_prepend_size(&self.raw),
        };
        self.raw.clear();
        self.prev = None;
        self.prev_by = PAGE_START_BY;
        Some(page)
    }

    /// The last, partly filled page.
    pub fn finish(mut self) -> Option<Page> {
        self.close_group();
        self.take_page()
    }
}

/// Decodes a page into its entries, in (key, timestamp) order.
pub fn decode_page(data: &[u8]) -> ParseResult<Vec<IndexEntry>> {
    let raw =
        lz4_flex::decompress_size_prepended(data).map_err(|e| crate::trace::wire::ParseError {
            at: 0,
            problem: format!("index page does not decompress: {e}"),
        })?;
    let mut r = ByteReader::new(&raw);
    let base_ts = r.varint()?;
    let mut out = Vec::new();
    let mut prev: Option<Key> = None;
    let mut prev_by = PAGE_START_BY;
    while !r.is_empty() {
        let kind = r.u8()?;
        let a = r.varint()?;
        let a = match prev {
            Some(p) if p.kind == kind => p.a.wrapping_add(a),
            _ => a,
        };
        let key = Key {
            kind,
            a,
            b: r.varint32("index key")?,
        };
        let n = r.count("group size", 3)?;
        let mut ts = base_ts;
        prev_by.node = group_node(key, prev_by.node);
        for _ in 0..n {
            ts = ts.wrapping_add(r.varint()?);
            let value = read_value(&mut r)?;
            let by = read_by(&mut r, &mut prev_by)?;
            out.push(IndexEntry { key, ts, value, by });
        }
        prev = Some(key);
    }
    Ok(out)
}
