//! Whole-history scans: every event of a span of the run, in timestamp order across threads,
//! each with its thread's stack of open calls, decoded block by block from the trace (nothing
//! of the run is held in memory beyond one block per thread).
//!
//! The queries that must look at every event (`calls`, `executed`, `exceptions`), the JEL
//! export and SQL's `events` relation are built on [`scan`]; [`stack_at`] gives the stack at
//! one event, for the call chain.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap, VecDeque};

use serde::{Deserialize, Serialize};

use super::error::{QueryError, QueryResult};
use crate::ids::{MethodId, NodeId, ThreadId, Timestamp};
use crate::trace::store::{decode_block, decode_stack, BlockEvent, RawBlock, TraceReader};
use crate::trace::wire::EventKind;

/// A span of the run: the events with `from <= timestamp <= to` (JavaTA's history subset).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Span {
    pub from: Timestamp,
    pub to: Timestamp,
}

impl Default for Span {
    fn default() -> Self {
        Span::ALL
    }
}

impl Span {
    pub const ALL: Span = Span {
        from: 0,
        to: Timestamp::MAX,
    };

    pub fn new(from: Option<Timestamp>, to: Option<Timestamp>) -> Span {
        Span {
            from: from.unwrap_or(0),
            to: to.unwrap_or(Timestamp::MAX),
        }
    }

    pub fn contains(&self, ts: Timestamp) -> bool {
        self.from <= ts && ts <= self.to
    }

    pub fn is_all(&self) -> bool {
        *self == Span::ALL
    }
}

/// One open call of a thread at an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    pub node: NodeId,
    /// `None` for the thread node.
    pub method: Option<MethodId>,
    /// The line the call is executing (for a call below the top: the line of the call above).
    pub line: u32,
}

/// An event as a scan visits it.
pub struct Scanned<'a> {
    pub thread: ThreadId,
    pub event: &'a BlockEvent,
    /// The thread's open calls at the event, bottom first (entry 0 is the thread node). For a
    /// call event the callee is on top; for an exit, the call that ends.
    pub stack: &'a [Frame],
}

/// How far a scan has come: units (events, or pages of the change index) done and in all.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ScanProgress {
    pub done: u64,
    pub total: u64,
    pub unit: &'static str,
}

/// Told how far a scan has come after each block (a front end draws its progress line).
pub type ProgressFn<'a> = &'a mut dyn FnMut(ScanProgress);

/// Blocks fetched from SQLite at once, per thread.
const BLOCK_PAGE: usize = 16;

/// Methods of nodes met on a block's start stack, looked up once.
#[derive(Default)]
pub(crate) struct NodeMethods(HashMap<NodeId, Option<MethodId>>);

impl NodeMethods {
    pub(crate) fn get(
        &mut self,
        reader: &TraceReader,
        node: NodeId,
    ) -> QueryResult<Option<MethodId>> {
        if let Some(m) = self.0.get(&node) {
            return Ok(*m);
        }
        let m = reader.node(node)?.and_then(|r| r.header.method);
        if self.0.len() > 1 << 16 {
            self.0.clear();
        }
        self.0.insert(node, m);
        Ok(m)
    }
}

/// The stack a block starts with, as frames.
fn start_frames(
    reader: &TraceReader,
    methods: &mut NodeMethods,
    block: &RawBlock,
) -> QueryResult<Vec<Frame>> {
    let entries =
        decode_stack(&block.start_stack).map_err(|e| corrupt(reader, block.id, e.problem))?;
    entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            Ok(Frame {
                node: e.node,
                method: if i == 0 {
                    None
                } else {
                    methods.get(reader, e.node)?
                },
                line: e.line,
            })
        })
        .collect()
}

fn corrupt(reader: &TraceReader, block: i64, problem: String) -> QueryError {
    QueryError::Store(crate::trace::store::StoreError::Corrupt {
        path: reader.path().into(),
        detail: format!("event block {block}: {problem}"),
    })
}

/// Applies event `e` to `stack` before it is visited: a call pushes the callee, a line moves
/// the top call's line. (An exit pops after the visit: see [`after_event`].)
fn before_event(stack: &mut Vec<Frame>, e: &BlockEvent) {
    match &e.event.kind {
        EventKind::Call { method, .. } | EventKind::ExtCall { method, .. } => stack.push(Frame {
            node: e.node,
            method: Some(*method),
            line: 0,
        }),
        EventKind::Line(l) | EventKind::Block { line: l @ 1.., .. } => {
            if let Some(top) = stack.last_mut() {
                top.line = *l;
            }
        }
        _ => {}
    }
}

fn after_event(stack: &mut Vec<Frame>, e: &BlockEvent) {
    if e.event.kind.is_exit() && stack.len() > 1 {
        stack.pop();
    }
}

/// One thread's events over the span, a block at a time.
struct ThreadCursor {
    thread: ThreadId,
    fetched: VecDeque<RawBlock>,
    after_last: Timestamp,
    exhausted: bool,
    events: Vec<BlockEvent>,
    pos: usize,
    stack: Vec<Frame>,
}

impl ThreadCursor {
    /// Makes `events[pos]` the next event in the span (decoding blocks as needed); `false`
    /// when the thread has none left.
    fn advance(
        &mut self,
        reader: &TraceReader,
        span: Span,
        methods: &mut NodeMethods,
        progress: &mut ScanProgress,
    ) -> QueryResult<bool> {
        loop {
            while self.pos < self.events.len() {
                let ts = self.events[self.pos].event.ts;
                if ts > span.to {
                    return Ok(false);
                }
                if ts >= span.from {
                    return Ok(true);
                }
                // Before the span: only replayed, for the stack.
                let e = &self.events[self.pos];
                before_event(&mut self.stack, e);
                after_event(&mut self.stack, e);
                self.pos += 1;
            }
            if self.fetched.is_empty() && !self.exhausted {
                let page = reader.raw_blocks(self.thread, self.after_last, span.to, BLOCK_PAGE)?;
                if page.len() < BLOCK_PAGE {
                    self.exhausted = true;
                }
                if let Some(last) = page.last() {
                    self.after_last = last.last_ts.saturating_add(1);
                }
                self.fetched.extend(page);
            }
            let Some(block) = self.fetched.pop_front() else {
                return Ok(false);
            };
            self.stack = start_frames(reader, methods, &block)?;
            self.events = decode_block(&block.start_stack, &block.data, block.first_ts)
                .map_err(|e| corrupt(reader, block.id, e.problem))?;
            self.pos = 0;
            progress.done += u64::from(block.count);
        }
    }
}

/// A scan as a pull iterator: [`Scanner::next`] gives the events of a span one at a time in
/// timestamp order (threads merged), each with its thread's stack. It holds no borrow of the
/// reader, which each call is given, so that an owner (SQL's cursor) can keep both.
pub struct Scanner {
    span: Span,
    methods: NodeMethods,
    cursors: Vec<ThreadCursor>,
    heads: BinaryHeap<Reverse<(Timestamp, usize)>>,
    /// The thread whose event was given last, and the next event of any other thread.
    current: Option<usize>,
    limit: Timestamp,
    progress: ScanProgress,
}

impl Scanner {
    /// A scan of `span`, over the threads in `threads` only when given.
    pub fn new(
        reader: &TraceReader,
        span: Span,
        threads: Option<&[ThreadId]>,
    ) -> QueryResult<Scanner> {
        let mut progress = ScanProgress {
            done: 0,
            total: reader.events_between(span.from, span.to)?,
            unit: "events",
        };
        let mut methods = NodeMethods::default();
        let mut cursors: Vec<ThreadCursor> = reader
            .event_threads()?
            .into_iter()
            .filter(|t| threads.is_none_or(|only| only.contains(t)))
            .map(|thread| ThreadCursor {
                thread,
                fetched: VecDeque::new(),
                after_last: span.from,
                exhausted: false,
                events: Vec::new(),
                pos: 0,
                stack: Vec::new(),
            })
            .collect();
        let mut heads = BinaryHeap::new();
        for (i, c) in cursors.iter_mut().enumerate() {
            if c.advance(reader, span, &mut methods, &mut progress)? {
                heads.push(Reverse((c.events[c.pos].event.ts, i)));
            }
        }
        Ok(Scanner {
            span,
            methods,
            cursors,
            heads,
            current: None,
            limit: 0,
            progress,
        })
    }

    /// Events decoded so far (whole blocks) and in all.
    pub fn progress(&self) -> ScanProgress {
        self.progress
    }

    /// The next event, `None` after the last.
    pub fn next(&mut self, reader: &TraceReader) -> QueryResult<Option<Scanned<'_>>> {
        if let Some(i) = self.current.take() {
            let c = &mut self.cursors[i];
            after_event(&mut c.stack, &c.events[c.pos]);
            c.pos += 1;
            if c.advance(reader, self.span, &mut self.methods, &mut self.progress)? {
                let ts = c.events[c.pos].event.ts;
                if ts < self.limit {
                    self.current = Some(i);
                } else {
                    self.heads.push(Reverse((ts, i)));
                }
            }
        }
        if self.current.is_none() {
            let Some(Reverse((_, i))) = self.heads.pop() else {
                return Ok(None);
            };
            self.limit = self
                .heads
                .peek()
                .map_or(Timestamp::MAX, |Reverse((t, _))| *t);
            self.current = Some(i);
        }
        let Some(i) = self.current else {
            return Ok(None);
        };
        let c = &mut self.cursors[i];
        before_event(&mut c.stack, &c.events[c.pos]);
        Ok(Some(Scanned {
            thread: c.thread,
            event: &c.events[c.pos],
            stack: &c.stack,
        }))
    }
}

/// Visits every event of `span` in timestamp order (threads merged), with its thread's stack.
/// `visit` returns `false` to stop. `progress` hears after each decoded block. Returns how far
/// the scan came.
pub fn scan(
    reader: &TraceReader,
    span: Span,
    progress: Option<ProgressFn<'_>>,
    mut visit: impl FnMut(Scanned<'_>) -> QueryResult<bool>,
) -> QueryResult<ScanProgress> {
    let mut progress = progress;
    let mut scanner = Scanner::new(reader, span, None)?;
    let mut reported = 0;
    loop {
        let done = scanner.progress.done;
        if done != reported {
            if let Some(p) = progress.as_mut() {
                p(scanner.progress);
            }
            reported = done;
        }
        let Some(s) = scanner.next(reader)? else {
            break;
        };
        if !visit(s)? {
            break;
        }
    }
    if let Some(p) = progress.as_mut() {
        p(scanner.progress);
    }
    Ok(scanner.progress)
}

/// The event at `ts` with its thread and the stack of open calls at it (as [`Scanned`] has
/// it); `None` when no event has that timestamp.
pub fn stack_at(
    reader: &TraceReader,
    ts: Timestamp,
) -> QueryResult<Option<(ThreadId, BlockEvent, Vec<Frame>)>> {
    let mut methods = NodeMethods::default();
    for thread in reader.event_threads()? {
        let Some(block) = reader.raw_blocks(thread, ts, ts, 1)?.pop() else {
            continue;
        };
        if block.first_ts > ts {
            continue;
        }
        let mut stack = start_frames(reader, &mut methods, &block)?;
        let events = decode_block(&block.start_stack, &block.data, block.first_ts)
            .map_err(|e| corrupt(reader, block.id, e.problem))?;
        for e in events {
            before_event(&mut stack, &e);
            if e.event.ts == ts {
                return Ok(Some((thread, e, stack)));
            }
            after_event(&mut stack, &e);
        }
    }
    Ok(None)
}
