//! Nodes in pages (trace format 5): the nodes started between two commits, in id order, a page
//! of up to `NODES_PER_PAGE` per row of `node_pages`, LZ4-compressed. A node complete when its
//! page is written carries its exit and its children there; a node still open then (the calls on
//! the stacks at a commit: a few per commit) gets its exit in `node_ends` and its children in
//! `node_children` chunks. A row and an index entry per node cost SQLite about 0.7 µs and 53
//! bytes; a node in a page costs a few bytes (docs/trace-schema.md, docs/benchmarks.md).

use super::{NodeRow, Outcome};
use crate::ids::{MethodId, NodeId, ThreadId};
use crate::trace::wire::{put_svarint, put_varint, ByteReader, ParseError, ParseResult};
use crate::tree::{NodeHeader, NodeKind};

/// Nodes per page: a lookup by id decompresses one page (about 2.5 KiB raw) and reads it up to
/// the node; a history reads a node per writing call, scattered over the run.
pub const NODES_PER_PAGE: usize = 256;

/// Child ids per `node_children` chunk; every chunk of a parent but its last is full.
pub const CHILDREN_PER_CHUNK: usize = 1024;

const COMPLETE: u8 = 1 << 2;
const THREW: u8 = 1 << 3;
const HAS_METHOD: u8 = 1 << 4;
const HAS_THREAD: u8 = 1 << 5;
const HAS_PARENT: u8 = 1 << 6;
/// A second flags byte follows (`MORE_*` bits): rare attributes cost a byte only where set.
const MORE: u8 = 1 << 7;
/// Second byte: the node continues a chain of its previous sibling (`NodeHeader::chained`).
const MORE_CHAINED: u8 = 1;

/// Second byte: the call continues its frame's chain looked at through loops
/// (`NodeHeader::frame_chained`).
const MORE_FRAME_CHAINED: u8 = 1 << 3;
/// Second byte, bits 1-2: a kind beyond the first byte's four (1 loop, 2 iteration).
const MORE_KIND_SHIFT: u8 = 1;
const MORE_KIND_MASK: u8 = 3 << MORE_KIND_SHIFT;

/// The kind as the first byte's two bits and the second byte's kind bits.
fn kind_code(kind: NodeKind) -> (u8, u8) {
    match kind {
        NodeKind::Root => (0, 0),
        NodeKind::Thread => (1, 0),
        NodeKind::Routine => (2, 0),
        NodeKind::Loop => (0, 1 << MORE_KIND_SHIFT),
        NodeKind::Iteration => (0, 2 << MORE_KIND_SHIFT),
        // The forest's nodes are the session's, never stored: the recorder makes none.
        NodeKind::External | NodeKind::Collapsed | NodeKind::Projected => (3, 0),
    }
}

fn kind_of(code: u8, more: u8) -> NodeKind {
    match ((more & MORE_KIND_MASK) >> MORE_KIND_SHIFT, code & 3) {
        (1, _) => NodeKind::Loop,
        (2, _) => NodeKind::Iteration,
        (_, 0) => NodeKind::Root,
        (_, 1) => NodeKind::Thread,
        (_, 2) => NodeKind::Routine,
        _ => NodeKind::External,
    }
}

/// Encodes nodes in increasing id order, each with its children when it is complete (`None`
/// for an open node, whose children go to `node_children`). Per node: `id delta:varint
/// flags:u8 [more:u8] [parent delta:varint] [method:varint] [thread:varint] depth:varint entry:svarint`
/// (from the previous node's entry), and when complete `exit - entry:varint n:varint` and `n`
/// child ids as deltas (the first from the node's id).
pub fn encode_page<'a>(
    nodes: impl IntoIterator<Item = (&'a NodeRow, Option<&'a [NodeId]>)>,
) -> Vec<u8> {
    let mut out = Vec::new();
    let (mut prev_id, mut prev_entry) = (0u32, 0u64);
    for (row, children) in nodes {
        let h = &row.header;
        put_varint(&mut out, u64::from(h.id.0.wrapping_sub(prev_id)));
        prev_id = h.id.0;
        let complete = h.exit.is_some() && children.is_some();
        let (mut flags, more_kind) = kind_code(h.kind);
        for (set, bit) in [
            (complete, COMPLETE),
            (complete && row.outcome == Some(Outcome::Threw), THREW),
            (h.method.is_some(), HAS_METHOD),
            (h.thread.is_some(), HAS_THREAD),
            (h.parent.is_some(), HAS_PARENT),
        ] {
            if set {
                flags |= bit;
            }
        }
        let more = more_kind
            | if h.chained { MORE_CHAINED } else { 0 }
            | if h.frame_chained {
                MORE_FRAME_CHAINED
            } else {
                0
            };
        if more != 0 {
            out.push(flags | MORE);
            out.push(more);
        } else {
            out.push(flags);
        }
        if let Some(p) = h.parent {
            put_varint(&mut out, u64::from(h.id.0.wrapping_sub(p.0)));
        }
        if let Some(m) = h.method {
            put_varint(&mut out, u64::from(m.0));
        }
        if let Some(t) = h.thread {
            put_varint(&mut out, u64::from(t.0));
        }
        put_varint(&mut out, u64::from(row.depth));
        put_svarint(&mut out, h.entry.wrapping_sub(prev_entry) as i64);
        prev_entry = h.entry;
        if let (true, Some(exit), Some(children)) = (complete, h.exit, children) {
            put_varint(&mut out, exit.wrapping_sub(h.entry));
            put_children(&mut out, h.id, children);
        }
    }
    out
}

/// `n:varint` then the ids as deltas, the first from `parent`.
pub fn put_children(out: &mut Vec<u8>, parent: NodeId, children: &[NodeId]) {
    put_varint(out, children.len() as u64);
    let mut prev = parent.0;
    for c in children {
        put_varint(out, u64::from(c.0.wrapping_sub(prev)));
        prev = c.0;
    }
}

pub fn read_children(r: &mut ByteReader, parent: NodeId, out: &mut Vec<NodeId>) -> ParseResult<()> {
    let n = r.count("children", 1)?;
    read_ids(r, parent, n, out)
}

/// A decoded page: rows in id order; `children[i]` is `Some` (a range of `child_ids`) for a node
/// complete in the page, `None` for one open when the page was written.
#[derive(Debug, Default)]
pub struct NodePage {
    pub rows: Vec<NodeRow>,
    children: Vec<Option<(u32, u32)>>,
    child_ids: Vec<NodeId>,
}

impl NodePage {
    /// The position of `id` in the page.
    pub fn find(&self, id: NodeId) -> Option<usize> {
        self.rows.binary_search_by_key(&id, |r| r.header.id).ok()
    }

    /// The children of the node at `i` when it was complete in the page.
    pub fn children(&self, i: usize) -> Option<&[NodeId]> {
        let (from, to) = self.children.get(i).copied().flatten()?;
        self.child_ids.get(from as usize..to as usize)
    }

    /// Whether the node at `i` was open when the page was written (its end is in `node_ends`).
    pub fn open(&self, i: usize) -> bool {
        self.children.get(i).is_some_and(Option::is_none)
    }
}

/// Decodes a page compressed by `compress`.
pub fn decode_page(data: &[u8]) -> ParseResult<NodePage> {
    let raw = decompress(data)?;
    let mut page = NodePage::default();
    parse(&raw, |row, children, r| {
        let kids = match children {
            Some(n) => {
                let from = page.child_ids.len() as u32;
                read_ids(r, row.header.id, n, &mut page.child_ids)?;
                Some((from, page.child_ids.len() as u32))
            }
            None => None,
        };
        page.rows.push(row);
        page.children.push(kids);
        Ok(true)
    })?;
    Ok(page)
}

/// The node `id` of a compressed page, and whether it was open when the page was written,
/// read without decoding the rest of the page; `None` when the page does not hold it.
pub fn find_in_page(data: &[u8], id: NodeId) -> ParseResult<Option<(NodeRow, bool)>> {
    let raw = decompress(data)?;
    let mut found = None;
    parse(&raw, |row, children, r| {
        if let Some(n) = children {
            for _ in 0..n {
                r.varint()?;
            }
        }
        if row.header.id == id {
            found = Some((row, children.is_none()));
            return Ok(false);
        }
        Ok(row.header.id < id)
    })?;
    Ok(found)
}

fn decompress(data: &[u8]) -> ParseResult<Vec<u8>> {
    lz4_flex::decompress_size_prepended(data).map_err(|e| ParseError {
        at: 0,
        problem: format!("node page does not decompress: {e}"),
    })
}

fn read_ids(
    r: &mut ByteReader,
    parent: NodeId,
    n: usize,
    out: &mut Vec<NodeId>,
) -> ParseResult<()> {
    let mut prev = parent.0;
    for _ in 0..n {
        prev = prev.wrapping_add(r.varint32("child id delta")?);
        out.push(NodeId(prev));
    }
    Ok(())
}

/// Reads a raw page node by node: `each(row, children, reader)` gets a complete node's number of
/// children (`None` for an open node) and must read their ids from `reader`; it returns whether
/// to go on.
fn parse(
    raw: &[u8],
    mut each: impl FnMut(NodeRow, Option<usize>, &mut ByteReader) -> ParseResult<bool>,
) -> ParseResult<()> {
    let mut r = ByteReader::new(raw);
    let (mut id, mut entry) = (0u32, 0u64);
    while !r.is_empty() {
        id = id.wrapping_add(r.varint32("node id delta")?);
        let flags = r.u8()?;
        let more = if flags & MORE != 0 { r.u8()? } else { 0 };
        let parent = if flags & HAS_PARENT != 0 {
            Some(NodeId(id.wrapping_sub(r.varint32("parent delta")?)))
        } else {
            None
        };
        let method = if flags & HAS_METHOD != 0 {
            Some(MethodId(r.varint32("method")?))
        } else {
            None
        };
        let thread = if flags & HAS_THREAD != 0 {
            Some(ThreadId(r.varint32("thread")?))
        } else {
            None
        };
        let depth = r.varint32("depth")?;
        entry = entry.wrapping_add(r.svarint()? as u64);
        let kind = kind_of(flags, more);
        let (exit, outcome, children) = if flags & COMPLETE != 0 {
            let exit = entry.wrapping_add(r.varint()?);
            // Calls, loops and iterations end by a return or an exception.
            let outcome = match kind {
                NodeKind::Root | NodeKind::Thread => None,
                _ if flags & THREW != 0 => Some(Outcome::Threw),
                _ => Some(Outcome::Returned),
            };
            (Some(exit), outcome, Some(r.count("children", 1)?))
        } else {
            (None, None, None)
        };
        let row = NodeRow {
            header: NodeHeader {
                id: NodeId(id),
                parent,
                kind,
                method,
                thread,
                entry,
                exit,
                chained: more & MORE_CHAINED != 0,
                frame_chained: more & MORE_FRAME_CHAINED != 0,
            },
            depth,
            outcome,
        };
        if !each(row, children, &mut r)? {
            break;
        }
    }
    Ok(())
}

pub fn compress(raw: &[u8]) -> Vec<u8> {
    lz4_flex::compress_prepend_size(raw)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(
        id: u32,
        parent: Option<u32>,
        kind: NodeKind,
        exit: Option<u64>,
        threw: bool,
    ) -> NodeRow {
        let call = matches!(
            kind,
            NodeKind::Routine | NodeKind::External | NodeKind::Loop | NodeKind::Iteration
        );
        NodeRow {
            header: NodeHeader {
                id: NodeId(id),
                parent: parent.map(NodeId),
                kind,
                method: call.then_some(MethodId(7 + id)),
                thread: (kind != NodeKind::Root).then_some(ThreadId(1)),
                entry: 1000 + u64::from(id) * 3,
                exit,
                chained: call && id.is_multiple_of(2),
                frame_chained: call && id.is_multiple_of(3),
            },
            depth: id % 5,
            outcome: (call && exit.is_some()).then_some(if threw {
                Outcome::Threw
            } else {
                Outcome::Returned
            }),
        }
    }

    #[test]
    fn a_page_decodes_to_what_was_encoded() {
        let rows = [
            row(0, None, NodeKind::Root, None, false),
            row(1, Some(0), NodeKind::Thread, None, false),
            row(2, Some(1), NodeKind::Routine, Some(1100), false),
            row(3, Some(2), NodeKind::External, Some(1020), true),
            row(4, Some(2), NodeKind::Routine, Some(1090), true),
            // A gap in the ids (another writer's order) is kept.
            row(9, Some(1), NodeKind::Routine, None, false),
            row(10, Some(9), NodeKind::Loop, Some(1200), false),
            row(11, Some(10), NodeKind::Iteration, Some(1100), true),
        ];
        let kids: [Option<Vec<NodeId>>; 8] = [
            None,
            None,
            Some(vec![NodeId(3), NodeId(4)]),
            Some(vec![]),
            Some(vec![]),
            None,
            Some(vec![NodeId(11)]),
            Some(vec![]),
        ];
        let raw = encode_page(rows.iter().zip(kids.iter().map(|k| k.as_deref())));
        let page = decode_page(&compress(&raw)).unwrap();
        assert_eq!(page.rows, rows);
        for (i, k) in kids.iter().enumerate() {
            assert_eq!(page.children(i), k.as_deref(), "children of {i}");
            assert_eq!(page.open(i), k.is_none());
        }
        assert_eq!(page.find(NodeId(9)), Some(5));
        assert_eq!(page.find(NodeId(5)), None);
        // One node found without decoding the page: the same row, open or not.
        let data = compress(&raw);
        for (i, r) in rows.iter().enumerate() {
            assert_eq!(
                find_in_page(&data, r.header.id).unwrap(),
                Some((r.clone(), kids[i].is_none()))
            );
        }
        assert_eq!(find_in_page(&data, NodeId(5)).unwrap(), None);
        assert_eq!(find_in_page(&data, NodeId(12)).unwrap(), None);
        // A cut page is an error, not a panic.
        let cut = compress(&raw[..raw.len() - 2]);
        assert!(decode_page(&cut).is_err());
        assert!(decode_page(b"junk").is_err());
    }
}
