//! Queries about one event and the calls around it (JavaTA section 4.1): the call chain
//! (`full_detail_call_chain`), the enclosing environment (`where`), where each uncaught
//! exception was thrown (`where_exception_is_thrown`) and the calls completed before an event in
//! its enclosing call (`pre_event_called_methods`).
//!
//! Cost: one event block decoded to find the event and its stack, then per call listed its
//! call and exit events (one block each, usually the same); never a scan.

use serde::{Deserialize, Serialize};

use super::error::{QueryError, QueryResult};
use super::refs::{never_entered, CallInfo, Calls, Shown};
use super::scan::{stack_at, Frame};
use crate::ids::{NodeId, ThreadId, Timestamp};
use crate::omniscient::describe_event;
use crate::trace::store::{BlockEvent, NodeEvent, NodeResult, TraceReader};
use crate::trace::wire::{EventKind, Value};
use crate::tree::NodeKind;

/// One event, named so that `events NODE --from TIMESTAMP` shows it in its call.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EventInfo {
    pub timestamp: Timestamp,
    pub thread: String,
    /// As `hindsight events` names kinds: `call`, `return`, `line`, `field-write`, ...
    pub kind: String,
    /// The call executing the event (for a call or an exit: the call it opens or closes).
    pub node: NodeId,
    pub file: Option<String>,
    pub line: Option<u32>,
    pub text: String,
}

/// The enclosing calls of an event, innermost first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CallChain {
    pub event: EventInfo,
    /// Innermost first, each with the line it was executing (for a caller, the line of the
    /// call below it).
    pub calls: Vec<CallInfo>,
    /// Enclosing calls in all (`calls` may hold fewer: `--limit`).
    pub depth: usize,
}

/// The enclosing environment of an event: the innermost call around it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Where {
    pub event: EventInfo,
    /// Null for an event outside every call (a thread's first `NEW_ARRAY` of `main`'s args).
    pub environment: Option<CallInfo>,
}

/// An exception that left its thread.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Uncaught {
    pub thread: String,
    pub exception: Shown,
    pub class: Option<String>,
    /// Where it was thrown: its `throw` event, or for an exception the JVM raised (a null
    /// dereference, a division by zero) the event where it left the innermost call.
    pub thrown: EventInfo,
    /// The call it was thrown in, with its arguments (the paper's environment).
    pub environment: CallInfo,
    /// From the environment out to the thread's first call, innermost first.
    pub chain: Vec<CallInfo>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UncaughtExceptions {
    pub exceptions: Vec<Uncaught>,
}

/// The calls completed in an event's enclosing call before the event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PreEventCalls {
    pub event: EventInfo,
    pub environment: Option<CallInfo>,
    /// In call order, the last `--limit` of them.
    pub calls: Vec<CallInfo>,
    pub total: u64,
}

/// The event at `ts` and its stack, or the error that names the trace's range.
pub(crate) fn event_stack(
    reader: &TraceReader,
    ts: Timestamp,
) -> QueryResult<(ThreadId, BlockEvent, Vec<Frame>)> {
    match stack_at(reader, ts)? {
        Some(found) => Ok(found),
        None => Err(QueryError::NoEvent {
            ts,
            last: reader.info()?.last_ts,
        }),
    }
}

/// The frames enclosing the event: its stack without the thread node, and without the call a
/// call or exit event opens or closes (JavaTA: a call encloses the events strictly between its
/// call and its exit). Innermost first.
fn enclosing(e: &BlockEvent, stack: &[Frame]) -> Vec<Frame> {
    let own = e.event.kind.is_call() || e.event.kind.is_exit();
    let end = stack.len() - usize::from(own && stack.len() > 1);
    stack[1.min(end)..end].iter().rev().copied().collect()
}

pub(crate) fn event_info(
    calls: &mut Calls<'_>,
    thread: ThreadId,
    e: &BlockEvent,
    stack: &[Frame],
) -> QueryResult<EventInfo> {
    let own = !(e.event.kind.is_call() || e.event.kind.is_exit());
    let listed = enclosing(e, stack).first().map_or(e.node, |f| f.node);
    let ne = NodeEvent {
        event: e.event.clone(),
        node: e.node,
        line: if own { e.line } else { e.parent_line },
        own,
    };
    let (kind, text) = describe_event(calls.reader, listed, &ne)?;
    let line = if own { e.line } else { e.parent_line };
    Ok(EventInfo {
        timestamp: e.event.ts,
        thread: calls.names.thread(thread)?,
        kind: kind.into(),
        node: e.node,
        file: calls.names.node_place(listed)?.1,
        line: (line > 0).then_some(line),
        text,
    })
}

fn chain_of(calls: &mut Calls<'_>, frames: &[Frame], limit: usize) -> QueryResult<Vec<CallInfo>> {
    let mut out = Vec::new();
    for f in frames.iter().take(limit) {
        if let Some(c) = calls.call(f.node, (f.line > 0).then_some(f.line))? {
            out.push(c);
        }
    }
    Ok(out)
}

/// `call-chain EVENT`: the calls enclosing the event at `ts`, innermost first.
pub fn call_chain(reader: &TraceReader, ts: Timestamp, limit: usize) -> QueryResult<CallChain> {
    let (thread, e, stack) = event_stack(reader, ts)?;
    let mut calls = Calls::new(reader);
    let frames = enclosing(&e, &stack);
    Ok(CallChain {
        event: event_info(&mut calls, thread, &e, &stack)?,
        calls: chain_of(&mut calls, &frames, limit)?,
        depth: frames.len(),
    })
}

/// `where EVENT`: the innermost call around the event at `ts`.
pub fn where_event(reader: &TraceReader, ts: Timestamp) -> QueryResult<Where> {
    let (thread, e, stack) = event_stack(reader, ts)?;
    let mut calls = Calls::new(reader);
    let frames = enclosing(&e, &stack);
    Ok(Where {
        event: event_info(&mut calls, thread, &e, &stack)?,
        environment: chain_of(&mut calls, &frames, 1)?.pop(),
    })
}

/// `pre-event-called-methods EVENT`: the calls that the event's enclosing call made and that
/// ended before the event, the last `limit` of them, with their results.
pub fn pre_event_called_methods(
    reader: &TraceReader,
    ts: Timestamp,
    limit: usize,
) -> QueryResult<PreEventCalls> {
    let (thread, e, stack) = event_stack(reader, ts)?;
    let mut calls = Calls::new(reader);
    let event = event_info(&mut calls, thread, &e, &stack)?;
    let Some(env) = enclosing(&e, &stack).first().copied() else {
        return Ok(PreEventCalls {
            event,
            environment: None,
            calls: Vec::new(),
            total: 0,
        });
    };
    let (ids, total) = reader.children_ended_before(env.node, ts, limit)?;
    let mut listed = Vec::new();
    for id in ids {
        if let Some(c) = calls.call(id, None)? {
            listed.push(c);
        }
    }
    Ok(PreEventCalls {
        event,
        environment: calls.call(env.node, (env.line > 0).then_some(env.line))?,
        calls: listed,
        total,
    })
}

/// The exception a call ended with, if it unwound.
fn thrown_value(reader: &TraceReader, node: NodeId) -> QueryResult<Option<Value>> {
    Ok(match reader.node_detail(node)?.and_then(|d| d.result) {
        Some(NodeResult::Threw(v)) => Some(v),
        _ => None,
    })
}

/// `where-exception-is-thrown [THREAD]`: for each thread (or the one named) that an exception
/// left, where it was thrown, in which call with which arguments, and the call chain.
///
/// From the node rows alone: the thread's last top-level call unwound; the exception is
/// followed down through the last child that unwound with the same exception (not into a call
/// on `null`, which never ran), and the innermost call's `throw` event is looked for among its
/// own last events.
pub fn where_exception_is_thrown(
    reader: &TraceReader,
    thread: Option<&str>,
    limit: usize,
) -> QueryResult<UncaughtExceptions> {
    let threads = reader.threads()?;
    if let Some(name) = thread {
        if !threads.iter().any(|(t, _)| t.name == name) {
            let names: Vec<&str> = threads.iter().map(|(t, _)| t.name.as_str()).collect();
            return Err(QueryError::NotFound(format!(
                "there is no thread `{name}` in this trace; its threads are: {}",
                names.join(", ")
            )));
        }
    }
    let mut calls = Calls::new(reader);
    let mut out = Vec::new();
    for (t, thread_node) in threads {
        if thread.is_some_and(|n| n != t.name) {
            continue;
        }
        let Some(thread_node) = thread_node else {
            continue;
        };
        let Some(top) = reader.last_child(thread_node)? else {
            continue;
        };
        let Some(value) = thrown_value(reader, top)? else {
            continue;
        };
        let mut inner = top;
        let mut on_null = None;
        while let Some(child) = reader.last_child(inner)? {
            if thrown_value(reader, child)? != Some(value) {
                break;
            }
            if never_entered(reader, child)? {
                on_null = Some(child);
                break;
            }
            inner = child;
        }
        let row = reader
            .node(inner)?
            .ok_or(crate::omniscient::OmniError::NoCall(inner))?;
        let exit = row.header.exit.unwrap_or(row.header.entry);
        // The `throw` in the innermost call itself, if the exception was thrown there.
        let mut thrown_at = None;
        if on_null.is_none() {
            reader.walk_back(t.id, exit, row.header.entry, row.depth, |e| {
                if e.node == inner && e.depth == row.depth {
                    match e.event.kind {
                        EventKind::Throw(v) if v == value => {
                            thrown_at = Some(e.event.ts);
                            return false;
                        }
                        EventKind::Catch(_) => return false,
                        _ => {}
                    }
                }
                true
            })?;
        }
        let thrown_ts = match (thrown_at, on_null) {
            (Some(ts), _) => ts,
            (None, Some(child)) => reader
                .node(child)?
                .and_then(|r| r.header.exit)
                .unwrap_or(exit),
            (None, None) => exit,
        };
        let (_, e, stack) = event_stack(reader, thrown_ts)?;
        let mut thrown = event_info(&mut calls, t.id, &e, &stack)?;
        // The line in the innermost call: the `throw`'s, the call on null's, or the line it
        // was executing when it unwound.
        let line = match (thrown_at, on_null) {
            (Some(_), _) => e.line,
            (None, Some(_)) => e.parent_line,
            (None, None) => stack.last().map_or(0, |f| f.line),
        };
        thrown.file = calls.names.node_place(inner)?.1;
        thrown.line = (line > 0).then_some(line);
        // The chain from the innermost call out, each at its current line.
        let mut frames: Vec<Frame> = stack
            .iter()
            .skip(1)
            .copied()
            .filter(|f| f.node.0 <= inner.0)
            .collect();
        frames.reverse();
        if let Some(f) = frames.first_mut() {
            f.line = line;
        }
        let chain = chain_of(&mut calls, &frames, limit)?;
        let Some(environment) = chain.first().cloned() else {
            continue;
        };
        out.push(Uncaught {
            thread: t.name.clone(),
            exception: Shown::of(reader, &value, exit)?,
            class: reader.class_name_of(&value)?,
            thrown,
            environment,
            chain,
        });
    }
    Ok(UncaughtExceptions { exceptions: out })
}

/// Whether a node is a call (not the root or a thread).
pub(crate) fn is_call(kind: NodeKind) -> bool {
    matches!(kind, NodeKind::Routine | NodeKind::External)
}
