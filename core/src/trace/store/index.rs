//! The per-variable change index (jhyde section 5): for every variable, the timestamps at which
//! it changed and the value it got, so that "the value of x at t" is a lookup, not a replay.
//!
//! Writes are buffered and flushed at each commit as a *segment*: entries sorted by
//! (variable, timestamp), cut into LZ4-compressed pages keyed by their first (variable,
//! timestamp). A lookup reads one page per segment, newest segments first.

use serde::{Deserialize, Serialize};

use crate::ids::{FieldId, NodeId, ObjectId, Timestamp};
use crate::trace::wire::{
    put_value, put_varint, read_value, ByteReader, ParseResult, Value, VarId,
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

/// One change of a variable.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Write {
    pub ts: Timestamp,
    pub value: Value,
}

#[derive(Clone, Copy, Debug)]
pub struct IndexEntry {
    pub key: Key,
    pub ts: Timestamp,
    pub value: Value,
}

/// A page ready for the `index_pages` table.
pub struct Page {
    pub start: Vec<u8>,
    pub data: Vec<u8>,
}

/// Sorts `entries` and cuts them into pages of about `page_bytes` raw bytes.
///
/// Page encoding (before LZ4): `base_ts:varint` (the segment's smallest timestamp) then groups of one key:
/// `kind:u8 a:varint b:varint n:varint` and `n` times `dts:varint value`; `a` is a delta from the
/// previous group's `a` when the kind is the same; the first `dts` of a group is relative to
/// `base_ts`, the next ones to the previous entry.
pub fn build_pages(entries: &mut [IndexEntry], page_bytes: usize) -> Vec<Page> {
    // One u128 comparison instead of three: kind, a and b packed in key order.
    entries.sort_unstable_by_key(|e| (e.key.packed(), e.ts));
    let base_ts = entries.iter().map(|e| e.ts).min().unwrap_or(0);
    let mut pages = Vec::new();
    let mut w = PageWriter::new(base_ts, page_bytes);
    for e in entries.iter() {
        if let Some(p) = w.push(e) {
            pages.push(p);
        }
    }
    pages.extend(w.finish());
    pages
}

/// Cuts a stream of entries, sorted by (key, timestamp), into pages (encoding above).
pub struct PageWriter {
    base_ts: Timestamp,
    page_bytes: usize,
    raw: Vec<u8>,
    start: Option<Vec<u8>>,
    prev: Option<Key>,
    /// The open group: entries of one key not yet written.
    group: Vec<IndexEntry>,
}

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
        for e in &self.group {
            put_varint(raw, e.ts - prev_ts);
            put_value(raw, &e.value);
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
        let n = r.count("group size", 2)?;
        let mut ts = base_ts;
        for _ in 0..n {
            ts = ts.wrapping_add(r.varint()?);
            out.push(IndexEntry {
                key,
                ts,
                value: read_value(&mut r)?,
            });
        }
        prev = Some(key);
    }
    Ok(out)
}
