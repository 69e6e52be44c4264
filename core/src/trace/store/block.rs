//! Event blocks: a thread's events in timestamp order, encoded as on the wire (but `dts == 1`
//! folded into the op byte) plus the node id of each call, compressed with LZ4. A block also keeps the thread's call stack at its start, so
//! any block decodes on its own into events with their node, depth and current line.

use crate::ids::{NodeId, ThreadId, Timestamp};
use crate::trace::wire::{
    put_operands, put_varint, read_event_ext, ByteReader, Event, EventKind, ParseError,
    ParseResult, DTS_ONE,
};

/// One open call of a thread's stack: its node and the line it is executing. Entry 0 is the
/// thread node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StackEntry {
    pub node: NodeId,
    pub line: u32,
}

/// An event decoded from a block, with where it happened.
#[derive(Clone, Debug, PartialEq)]
pub struct BlockEvent {
    pub event: Event,
    /// The node executing the event; for a call or an exit, the called node itself.
    pub node: NodeId,
    /// Depth of that node in its thread (thread node 0, a top-level call 1).
    pub depth: u32,
    /// Source line the node is executing (0 before its first `LINE`).
    pub line: u32,
    /// Line its caller is executing: for a call or an exit, the call site.
    pub parent_line: u32,
}

/// A finished block for the `blocks` table (`data` compressed once sealed).
pub struct EncodedBlock {
    pub thread: ThreadId,
    pub first_ts: Timestamp,
    pub last_ts: Timestamp,
    pub count: u32,
    pub min_depth: u32,
    pub start_stack: Vec<u8>,
    pub data: Vec<u8>,
}

/// Accumulates one thread's events until the writer flushes them.
pub struct BlockBuilder {
    thread: ThreadId,
    first_ts: Timestamp,
    last_ts: Timestamp,
    count: u32,
    min_depth: u32,
    prev_node: u32,
    start_stack: Vec<u8>,
    raw: Vec<u8>,
}

impl BlockBuilder {
    pub fn new(thread: ThreadId) -> Self {
        BlockBuilder {
            thread,
            first_ts: 0,
            last_ts: 0,
            count: 0,
            min_depth: u32::MAX,
            prev_node: 0,
            start_stack: Vec::new(),
            raw: Vec::new(),
        }
    }

    pub fn raw_len(&self) -> usize {
        self.raw.len()
    }

    /// Appends `ev`; `stack` is the thread's stack before the event, `depth` the event's depth,
    /// `call_node` the node a call event opens. `operands`, when given, are the event's
    /// operands as the agent encoded them (`WireEvents::operands`): they are copied instead of
    /// encoded again (a `BLOCK`'s line, which the wire lacks, is added after them).
    pub fn push(
        &mut self,
        stack: &[StackEntry],
        depth: u32,
        ev: &Event,
        call_node: Option<NodeId>,
        operands: Option<&[u8]>,
    ) {
        if self.count == 0 {
            self.first_ts = ev.ts;
            self.last_ts = ev.ts;
            self.start_stack.clear();
            encode_stack(&mut self.start_stack, stack);
            self.prev_node = 0;
        }
        let op = ev.kind.op();
        let dts = ev.ts.wrapping_sub(self.last_ts);
        if dts == 1 {
            self.raw.push(op | DTS_ONE);
        } else {
            self.raw.push(op);
            put_varint(&mut self.raw, dts);
        }
        match (operands, &ev.kind) {
            (Some(wire), EventKind::Block { line, .. }) => {
                self.raw.extend_from_slice(wire);
                put_varint(&mut self.raw, u64::from(*line));
            }
            (Some(wire), _) => self.raw.extend_from_slice(wire),
            (None, kind) => put_operands(&mut self.raw, kind, true),
        }
        if let Some(node) = call_node {
            put_varint(
                &mut self.raw,
                u64::from(node.0.wrapping_sub(self.prev_node)),
            );
            self.prev_node = node.0;
        }
        self.last_ts = ev.ts;
        self.count += 1;
        self.min_depth = self.min_depth.min(depth);
    }

    /// The block, its events not compressed yet (`seal` does), and resets the builder; `None`
    /// when empty.
    pub fn take(&mut self) -> Option<EncodedBlock> {
        if self.count == 0 {
            return None;
        }
        // The next block's room is what this one used, not its capacity: one large event (a
        // long string's content) would otherwise make every later block as large, and a
        // commit's blocks waiting to be sealed would hold that much each.
        let capacity = self.raw.len() + self.raw.len() / 4;
        let block = EncodedBlock {
            thread: self.thread,
            first_ts: self.first_ts,
            last_ts: self.last_ts,
            count: self.count,
            min_depth: self.min_depth,
            start_stack: std::mem::take(&mut self.start_stack),
            data: std::mem::replace(&mut self.raw, Vec::with_capacity(capacity)),
        };
        self.count = 0;
        self.min_depth = u32::MAX;
        Some(block)
    }
}

/// `n:varint` then per entry `node:varint line:varint`, each node id as a delta from the entry
/// below (a callee's id is always greater than its caller's), so deep recursion stays small.
pub fn encode_stack(out: &mut Vec<u8>, stack: &[StackEntry]) {
    put_varint(out, stack.len() as u64);
    let mut prev = 0u32;
    for e in stack {
        put_varint(out, u64::from(e.node.0.wrapping_sub(prev)));
        put_varint(out, u64::from(e.line));
        prev = e.node.0;
    }
}

pub fn decode_stack(bytes: &[u8]) -> ParseResult<Vec<StackEntry>> {
    let mut r = ByteReader::new(bytes);
    let n = r.count("stack depth", 2)?;
    let mut stack = Vec::with_capacity(n + 8);
    let mut prev = 0u32;
    for _ in 0..n {
        prev = prev.wrapping_add(r.varint32("node id delta")?);
        stack.push(StackEntry {
            node: NodeId(prev),
            line: r.varint32("line")?,
        });
    }
    Ok(stack)
}

/// Decompresses and decodes a block, replaying its calls and exits from the start stack.
/// An exit with only the thread node open pops nothing (the recorder did the same and warned).
pub fn decode_block(
    start_stack: &[u8],
    data: &[u8],
    first_ts: Timestamp,
) -> ParseResult<Vec<BlockEvent>> {
    let mut stack = decode_stack(start_stack)?;
    if stack.is_empty() {
        return Err(ParseError {
            at: 0,
            problem: "block starts with an empty stack".into(),
        });
    }
    let raw = lz4_flex::decompress_size_prepended(data).map_err(|e| ParseError {
        at: 0,
        problem: format!("block does not decompress: {e}"),
    })?;
    let mut r = ByteReader::new(&raw);
    let mut out = Vec::new();
    let mut ts = first_ts;
    let mut prev_node = 0u32;
    while !r.is_empty() {
        let event = read_event_ext(&mut r, &mut ts, out.is_empty(), true)?;
        let depth = (stack.len() - 1) as u32;
        let top = *stack.last().unwrap_or(&StackEntry {
            node: NodeId::ROOT,
            line: 0,
        });
        let below = stack.len().checked_sub(2).map_or(0, |i| stack[i].line);
        let be = if event.kind.is_call() {
            let delta = r.varint32("node delta")?;
            prev_node = prev_node.wrapping_add(delta);
            stack.push(StackEntry {
                node: NodeId(prev_node),
                line: 0,
            });
            BlockEvent {
                event,
                node: NodeId(prev_node),
                depth: depth + 1,
                line: 0,
                parent_line: top.line,
            }
        } else if event.kind.is_exit() {
            if stack.len() > 1 {
                stack.pop();
            }
            BlockEvent {
                event,
                node: top.node,
                depth,
                line: top.line,
                parent_line: below,
            }
        } else {
            match event.kind {
                EventKind::Line(l) | EventKind::Block { line: l @ 1.., .. } => {
                    if let Some(t) = stack.last_mut() {
                        t.line = l;
                    }
                }
                _ => {}
            }
            let line = stack.last().map_or(0, |t| t.line);
            BlockEvent {
                event,
                node: top.node,
                depth,
                line,
                parent_line: below,
            }
        };
        out.push(be);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::wire::EventKind;

    /// A block of events of `operand_bytes` operands each until it holds `bytes`, taken.
    fn fill(b: &mut BlockBuilder, ts: &mut Timestamp, operand_bytes: usize, bytes: usize) {
        let operands = vec![1u8; operand_bytes];
        while b.raw_len() < bytes {
            *ts += 1;
            let ev = Event {
                ts: *ts,
                kind: EventKind::Line(1),
            };
            b.push(&[], 1, &ev, None, Some(&operands));
        }
        assert!(b.take().is_some());
    }

    #[test]
    fn one_large_event_does_not_make_every_later_block_as_large() {
        const BLOCK: usize = 32 * 1024;
        let mut b = BlockBuilder::new(ThreadId(1));
        let mut ts = 0;
        fill(&mut b, &mut ts, 4, BLOCK);
        fill(&mut b, &mut ts, 1 << 20, BLOCK);
        fill(&mut b, &mut ts, 4, BLOCK);
        // The blocks after the large one are as large as blocks get, give or take a quarter.
        assert!(
            b.raw.capacity() < 2 * BLOCK,
            "capacity {} after a block of {BLOCK} bytes",
            b.raw.capacity()
        );
    }
}
