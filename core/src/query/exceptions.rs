//! Exceptions and threads over the history: every exception with where it was thrown and where
//! it was caught or that it left its thread (JavaTA's `exception` events and "was a specific
//! exception caught"), and every thread with its start and end ("is a given thread still
//! running", "has it exited").
//!
//! [`ThrowTracker`] follows exceptions through a scan (shared with the JEL export): a `THROW`
//! starts one; an exception first seen at an unwind or a catch was raised by the JVM (a null
//! dereference, a division by zero) or by uninstrumented code; a call on `null` never ran, so
//! its exception is thrown by the caller; a `CATCH` ends it, and so does leaving the thread's
//! first call.

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use super::chain::is_call;
use super::error::QueryResult;
use super::methods::{has_receiver, Defs};
use super::objects::{written, Written};
use super::refs::Shown;
use super::scan::{scan, ProgressFn, ScanProgress, Scanned, Span};
use crate::ids::{NodeId, ThreadId, Timestamp};
use crate::omniscient::names::Names;
use crate::trace::store::{NodeResult, TraceReader};
use crate::trace::wire::{EventKind, Value};

/// Where an exception was thrown or caught.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    pub ts: Timestamp,
    pub node: NodeId,
    pub line: u32,
}

/// One exception from its throw to its catch or to leaving its thread.
#[derive(Clone, Debug, PartialEq)]
pub struct Thrown {
    pub thread: ThreadId,
    pub value: Value,
    pub thrown: Place,
    /// No `THROW` event: raised by the JVM or by uninstrumented code; `thrown.ts` is then the
    /// first event that showed it.
    pub implicit: bool,
    pub caught: Option<Place>,
    /// Calls it ended (unwound).
    pub unwound: u32,
}

struct Flight {
    thrown: Thrown,
}

/// Follows exceptions through the events of a scan.
#[derive(Default)]
pub struct ThrowTracker {
    flights: HashMap<ThreadId, Flight>,
    /// Calls on `null` in progress (the JVM throws before entering them).
    on_null: HashSet<NodeId>,
    defs: Defs,
}

impl ThrowTracker {
    /// Whether `node` is a call on `null` seen by this tracker (its call never ran).
    pub fn is_on_null(&self, node: NodeId) -> bool {
        self.on_null.contains(&node)
    }

    /// Feeds one event (in time order per thread); returns the exceptions it settled: caught,
    /// left the thread, or replaced by another one thrown while it was in flight.
    pub fn feed(&mut self, reader: &TraceReader, s: &Scanned<'_>) -> QueryResult<Vec<Thrown>> {
        let mut out = Vec::new();
        let e = s.event;
        let ts = e.event.ts;
        let top = s.stack.last().copied();
        match &e.event.kind {
            EventKind::ExtCall { method, args } => {
                let receiver = self.defs.get(reader, *method)?.is_some_and(has_receiver);
                if receiver && args.first() == Some(&Value::Null) {
                    self.on_null.insert(e.node);
                }
            }
            EventKind::Throw(v) => {
                if let Some(old) = self.flights.remove(&s.thread) {
                    if old.thrown.value != *v {
                        out.push(old.thrown);
                    }
                }
                let f = top.unwrap_or(super::scan::Frame {
                    node: e.node,
                    method: None,
                    line: e.line,
                });
                self.flights.insert(
                    s.thread,
                    Flight {
                        thrown: Thrown {
                            thread: s.thread,
                            value: *v,
                            thrown: Place {
                                ts,
                                node: f.node,
                                line: f.line,
                            },
                            implicit: false,
                            caught: None,
                            unwound: 0,
                        },
                    },
                );
            }
            EventKind::Unwind(v) | EventKind::ExtUnwind(v) => {
                let on_null = self.on_null.remove(&e.node);
                let known = self
                    .flights
                    .get(&s.thread)
                    .is_some_and(|f| f.thrown.value == *v);
                if !known {
                    if let Some(old) = self.flights.remove(&s.thread) {
                        out.push(old.thrown);
                    }
                    // Thrown where this call was: in it, or by its caller for a call on null.
                    let n = s.stack.len();
                    let at = if on_null && n >= 2 {
                        s.stack[n - 2]
                    } else {
                        s.stack[n - 1]
                    };
                    let line = if on_null { e.parent_line } else { at.line };
                    self.flights.insert(
                        s.thread,
                        Flight {
                            thrown: Thrown {
                                thread: s.thread,
                                value: *v,
                                thrown: Place {
                                    ts,
                                    node: at.node,
                                    line,
                                },
                                implicit: true,
                                caught: None,
                                unwound: 0,
                            },
                        },
                    );
                }
                if let Some(f) = self.flights.get_mut(&s.thread) {
                    if !on_null {
                        f.thrown.unwound += 1;
                    }
                }
                // The thread's first call ended by it: the exception left the thread.
                if s.stack.len() <= 2 {
                    if let Some(f) = self.flights.remove(&s.thread) {
                        out.push(f.thrown);
                    }
                }
            }
            EventKind::Catch(v) => {
                let f = top.map_or((e.node, e.line), |f| (f.node, f.line));
                let place = Place {
                    ts,
                    node: f.0,
                    line: f.1,
                };
                let mut thrown = match self.flights.remove(&s.thread) {
                    Some(fl) if fl.thrown.value == *v => fl.thrown,
                    other => {
                        if let Some(o) = other {
                            out.push(o.thrown);
                        }
                        // Raised and caught in the same call: first seen here.
                        Thrown {
                            thread: s.thread,
                            value: *v,
                            thrown: place,
                            implicit: true,
                            caught: None,
                            unwound: 0,
                        }
                    }
                };
                thrown.caught = Some(place);
                out.push(thrown);
            }
            _ => {}
        }
        Ok(out)
    }

    /// Exceptions still in flight when the scan ended (the recording stopped first).
    pub fn finish(self) -> Vec<Thrown> {
        let mut v: Vec<Thrown> = self.flights.into_values().map(|f| f.thrown).collect();
        v.sort_by_key(|t| t.thrown.ts);
        v
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ExceptionInfo {
    pub exception: Shown,
    pub class: Option<String>,
    pub thread: String,
    /// Where it was thrown (for an implicit one: where it was first seen).
    pub thrown: Written,
    pub implicit: bool,
    /// Where it was caught; null when it left its thread or the recording ended first.
    pub caught: Option<Written>,
    /// `caught`, `uncaught` (left its thread), `replaced` (another exception was thrown while
    /// it was in flight, from a `finally` say) or `in-flight` (the recording ended).
    pub fate: String,
    pub unwound: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Exceptions {
    pub total: u64,
    /// The first `--limit` in time order of their throw.
    pub exceptions: Vec<ExceptionInfo>,
    pub scanned: ScanProgress,
}

fn info(
    reader: &TraceReader,
    names: &mut Names<'_>,
    t: &Thrown,
    fate: &str,
) -> QueryResult<ExceptionInfo> {
    let at = t.caught.map_or(t.thrown.ts, |c| c.ts);
    Ok(ExceptionInfo {
        exception: Shown::of(reader, &t.value, at)?,
        class: reader.class_name_of(&t.value)?,
        thread: names.thread(t.thread)?,
        thrown: written(names, t.thrown.ts, t.thrown.node, t.thrown.line)?,
        implicit: t.implicit,
        caught: match t.caught {
            Some(c) => Some(written(names, c.ts, c.node, c.line)?),
            None => None,
        },
        fate: fate.into(),
        unwound: t.unwound,
    })
}

/// `exceptions`: every exception thrown in `span`, with its fate.
pub fn exceptions(
    reader: &TraceReader,
    span: Span,
    limit: usize,
    progress: Option<ProgressFn<'_>>,
) -> QueryResult<Exceptions> {
    let mut tracker = ThrowTracker::default();
    let mut settled: Vec<(Thrown, &'static str)> = Vec::new();
    let mut total = 0u64;
    let scanned = scan(reader, span, progress, |s| {
        let left = s.stack.len() <= 2 && s.event.event.kind.is_exit();
        for t in tracker.feed(reader, &s)? {
            total += 1;
            let fate = if t.caught.is_some() {
                "caught"
            } else if left {
                "uncaught"
            } else {
                "replaced"
            };
            settled.push((t, fate));
        }
        // Keep the earliest `limit` throws.
        if settled.len() > limit.saturating_mul(2).max(64) {
            settled.sort_by_key(|(t, _)| t.thrown.ts);
            settled.truncate(limit);
        }
        Ok(true)
    })?;
    for t in tracker.finish() {
        total += 1;
        settled.push((t, "in-flight"));
    }
    settled.sort_by_key(|(t, _)| t.thrown.ts);
    settled.truncate(limit);
    let mut names = Names::new(reader);
    let exceptions = settled
        .iter()
        .map(|(t, fate)| info(reader, &mut names, t, fate))
        .collect::<QueryResult<_>>()?;
    Ok(Exceptions {
        total,
        exceptions,
        scanned,
    })
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ThreadInfo {
    pub name: String,
    pub java_id: u64,
    /// Its thread node (`tree --from NODE`, `events NODE`).
    pub node: Option<NodeId>,
    /// Timestamps of its first and last event.
    pub start: Option<Timestamp>,
    pub end: Option<Timestamp>,
    /// `ended` (every call returned or unwound), `running` (calls still open when the
    /// recording stopped), or `no-events`.
    pub status: String,
    pub calls: u64,
    /// The class of the exception that left it, if one did.
    pub uncaught: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Threads {
    pub threads: Vec<ThreadInfo>,
}

/// `threads`: each thread with its start, end and whether an exception ended it. From the
/// thread and node rows (the thread node's top-level calls), without a scan.
pub fn threads(reader: &TraceReader) -> QueryResult<Threads> {
    let mut out = Vec::new();
    for (t, node) in reader.threads()? {
        let mut info = ThreadInfo {
            name: t.name.clone(),
            java_id: t.java_id,
            node,
            start: None,
            end: None,
            status: "no-events".into(),
            calls: 0,
            uncaught: None,
        };
        if let Some(n) = node {
            // Top-level calls run one after another: the last one is the only one that can
            // be open, and ended last.
            let count = reader.child_count(n)?;
            let last = match reader.last_child(n)? {
                Some(id) => reader.node(id)?,
                None => None,
            };
            let open = last.as_ref().is_some_and(|l| l.header.exit.is_none());
            let last_exit = last.as_ref().and_then(|l| l.header.exit);
            let row = reader.node(n)?;
            info.start = row.as_ref().map(|r| r.header.entry);
            info.calls = count;
            info.end = row.as_ref().and_then(|r| r.header.exit).or(last_exit);
            info.status = if open { "running" } else { "ended" }.into();
            if let Some(last) = last {
                let d = reader.node_detail(last.header.id)?;
                if let Some(NodeResult::Threw(v)) = d.as_ref().and_then(|d| d.result) {
                    if d.is_some_and(|d| is_call(d.row.header.kind)) {
                        info.uncaught = reader.class_name_of(&v)?;
                    }
                }
            }
        }
        out.push(info);
    }
    Ok(Threads { threads: out })
}
