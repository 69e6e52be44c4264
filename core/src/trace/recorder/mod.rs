//! The recorder: turns decoded frames into execution nodes as they arrive (per-thread call
//! stacks), sends node headers to a `NodeSink`, and writes everything to the trace store.

mod apply;
mod chain;
mod content;
mod loops;
mod sink;
mod stream;

#[cfg(test)]
mod tests;
#[cfg(test)]
pub(crate) mod tests_content_coverage;
#[cfg(test)]
pub(crate) mod tests_loops;

use rustc_hash::FxHashMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

pub use sink::{FnSink, NodeSink, NullSink};
pub use stream::{record, record_threaded};

use std::collections::BTreeMap;

use crate::coverage::{FrameCoverage, MethodTable, Shared};
use crate::ids::{FieldId, MethodId, NodeId, ThreadId, Timestamp};
use crate::loops::LoopTable;
use crate::trace::store::{
    Ending, NodeRow, StackEntry, StoreError, TraceWriter, WriteCounts, WriterConfig,
};
use crate::trace::wire::{Event, EventKind, Frame, Value, WireError, WireEvents};
use crate::tree::{NodeHeader, NodeKind};
use content::Contents;
use std::sync::Arc;

#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    #[error(transparent)]
    Wire(#[from] WireError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("cannot spool the program's stream into {dir}: {source}; the trace's directory must be writable")]
    Spool {
        dir: std::path::PathBuf,
        source: std::io::Error,
    },
}

/// What a finished recording produced.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Summary {
    pub ending: Ending,
    pub events: u64,
    pub nodes: u64,
    pub complete_nodes: u64,
    pub warnings: u64,
}

/// Recorder warnings stored one by one before they are only counted.
const MAX_STORED_WARNINGS: u64 = 1000;

struct OpenCall {
    row: NodeRow,
    /// `FIELD_WRITE_UNINIT`s waiting for `THIS` to know their object.
    uninit: Vec<(FieldId, Timestamp, Value, StackEntry)>,
    /// Coverage of a call of a method with a block table (boxed, and the boxes reused: the
    /// frame's state is large and would be copied at each call and return).
    cov: Option<Box<FrameCoverage>>,
    /// The loops of a call of a method that has some (boxed and reused likewise).
    loops: Option<Box<loops::FrameLoops>>,
    /// The call's context, which its next sibling may share (`chain`).
    context: Option<chain::Context>,
    /// What the call's last child left.
    children: chain::Cursor,
}

struct ThreadState {
    header: NodeHeader,
    /// Entry 0 is the thread node; entry i + 1 is `open[i]`.
    stack: Vec<StackEntry>,
    open: Vec<OpenCall>,
    /// What the thread node's last top-level call left.
    children: chain::Cursor,
    last_ts: Timestamp,
}

/// What the recorder knows of a method from its `METHOD` frame.
struct MethodInfo {
    /// How many var ids the `CALL` values are shifted by (1 for a constructor, whose `this`
    /// comes with `THIS`).
    arg_shift: u32,
    /// What a call's context is (`chain`).
    rule: chain::Rule,
    /// Its block table, if it has one.
    table: Option<Arc<MethodTable>>,
    /// Its loops, if it has some.
    loops: Option<Arc<LoopTable>>,
}

/// Methods by id: a vector for the agent's dense ids, a map beyond.
#[derive(Default)]
struct Methods {
    dense: Vec<Option<MethodInfo>>,
    sparse: FxHashMap<MethodId, MethodInfo>,
}

/// Method ids below this are looked up in `Methods::dense`.
const DENSE_METHODS: u32 = 1 << 20;

impl Methods {
    fn insert(&mut self, id: MethodId, info: MethodInfo) {
        if id.0 < DENSE_METHODS {
            let i = id.0 as usize;
            if self.dense.len() <= i {
                self.dense.resize_with(i + 1, || None);
            }
            self.dense[i] = Some(info);
        } else {
            self.sparse.insert(id, info);
        }
    }

    fn get(&self, id: MethodId) -> Option<&MethodInfo> {
        if id.0 < DENSE_METHODS {
            self.dense.get(id.0 as usize)?.as_ref()
        } else {
            self.sparse.get(&id)
        }
    }
}

pub struct Recorder<S: NodeSink> {
    store: TraceWriter,
    sink: S,
    /// What the recorder knows of each method defined so far.
    methods: Methods,
    /// Loop states of finished calls, reused (boxed as frames hold them: moved, not copied).
    #[allow(clippy::vec_box)]
    spare_loops: Vec<Box<loops::FrameLoops>>,
    coverage: Shared,
    contents: Contents,
    /// Ordered so that `finish` completes threads in a stable order.
    threads: BTreeMap<ThreadId, ThreadState>,
    next_node: u32,
    root: NodeHeader,
    /// The root is started at the first event, whose timestamp is its entry.
    root_started: bool,
    last_ts: Timestamp,
    recorder_warnings: u64,
}

impl<S: NodeSink> Recorder<S> {
    /// Creates the trace file; the root node starts with the first event.
    pub fn create(trace: &Path, sink: S, config: WriterConfig) -> Result<Self, StoreError> {
        let store = TraceWriter::create(trace, config)?;
        let root = NodeHeader {
            id: NodeId::ROOT,
            parent: None,
            kind: NodeKind::Root,
            method: None,
            thread: None,
            entry: 0,
            exit: None,
            chained: false,
            frame_chained: false,
        };
        let r = Recorder {
            store,
            sink,
            methods: Methods::default(),
            spare_loops: Vec::new(),
            coverage: Shared::default(),
            contents: Contents::default(),
            threads: BTreeMap::new(),
            next_node: 1,
            root,
            root_started: false,
            last_ts: 0,
            recorder_warnings: 0,
        };
        Ok(r)
    }

    fn start_root(&mut self, entry: Timestamp) {
        if !self.root_started {
            self.root_started = true;
            self.root.entry = entry;
            self.sink.node(&self.root);
            self.store.node_started(NodeRow {
                header: self.root.clone(),
                depth: 0,
                outcome: None,
            });
        }
    }

    pub fn counts(&self) -> &WriteCounts {
        self.store.counts()
    }

    pub fn sink(&mut self) -> &mut S {
        &mut self.sink
    }

    /// Commits everything so far, so that readers see it.
    pub fn commit(&mut self) -> Result<(), StoreError> {
        self.store.commit()
    }

    /// Lets periodic commits be sealed on the store's threads while recording goes on; the
    /// caller then calls `poll` between frames and when idle (see `TraceWriter::pipeline`).
    pub fn pipeline(&mut self) {
        self.store.pipeline();
    }

    /// Moves the store's threads behind the program (`trace::priority`); the caller's thread
    /// lowers itself.
    pub fn run_behind_the_program(&mut self) {
        self.store.run_behind_the_program();
    }

    /// Moves the store's threads back to the priority they started with, once the program has
    /// ended (`trace::priority`); call it on the thread that carries on the recorder's work.
    pub fn lift(&mut self) {
        self.store.lift();
    }

    /// Stores a commit sealed on the store's threads, if it is ready.
    pub fn poll(&mut self) -> Result<bool, StoreError> {
        self.store.poll()
    }

    /// Commits if the writer's interval has passed (an idle stream still gets its last
    /// events committed).
    pub fn maybe_commit(&mut self) -> Result<bool, StoreError> {
        self.store.maybe_commit()
    }

    /// Stores a warning of the recorder (bad nesting, a stream error).
    pub fn warn(&mut self, ts: Option<Timestamp>, message: &str) -> Result<(), StoreError> {
        self.recorder_warnings += 1;
        if self.recorder_warnings <= MAX_STORED_WARNINGS {
            self.store.warning(ts, "recorder", message)?;
        }
        Ok(())
    }

    /// Handles one frame (an `END` frame is the caller's cue to call `finish`). `wire`: the
    /// bytes an `EVENTS` frame was decoded from (`Decoder::take_wire`), which the store copies
    /// instead of encoding the events again.
    pub fn handle(&mut self, frame: &Frame, wire: Option<&WireEvents>) -> Result<(), StoreError> {
        match frame {
            Frame::Hello(h) => self.store.hello(h)?,
            Frame::Class(c) => self.store.class(c)?,
            Frame::Method(m) => {
                self.store.method(m)?;
                let succ: Vec<&[u32]> = m.blocks.iter().map(|b| b.succ.as_slice()).collect();
                let loops = LoopTable::new(&succ);
                let info = MethodInfo {
                    arg_shift: m.arg_var(0),
                    rule: chain::Rule::of(m),
                    table: (!m.blocks.is_empty())
                        .then(|| Arc::new(MethodTable::new(m.blocks.clone()))),
                    loops: (!loops.is_empty()).then(|| Arc::new(loops)),
                };
                self.methods.insert(m.id, info);
            }
            Frame::Field(f) => self.store.field(f)?,
            Frame::Thread(t) => self.store.thread(t)?,
            Frame::Warning { message } => {
                let ts = Some(self.last_ts).filter(|&t| t > 0);
                self.store.warning(ts, "agent", message)?;
            }
            Frame::Events { thread, events, .. } => {
                let thread = *thread;
                // Taken out for the frame so that the store, the sink and the state can be
                // borrowed together.
                let mut st = self.threads.remove(&thread);
                let r = self.events(thread, &mut st, events, wire);
                if let Some(st) = st {
                    self.threads.insert(thread, st);
                }
                r?;
                self.store.maybe_commit()?;
            }
            Frame::End { .. } => {}
        }
        Ok(())
    }

    fn new_node(&mut self) -> NodeId {
        let id = NodeId(self.next_node);
        self.next_node += 1;
        id
    }

    fn new_thread(&mut self, thread: ThreadId, ts: Timestamp) -> Result<ThreadState, StoreError> {
        let id = self.new_node();
        let header = NodeHeader {
            id,
            parent: Some(NodeId::ROOT),
            kind: NodeKind::Thread,
            method: None,
            thread: Some(thread),
            entry: ts,
            exit: None,
            chained: false,
            frame_chained: false,
        };
        self.sink.node(&header);
        self.store.node_started(NodeRow {
            header: header.clone(),
            depth: 0,
            outcome: None,
        });
        self.store.thread_node(thread, id)?;
        Ok(ThreadState {
            header,
            stack: vec![StackEntry { node: id, line: 0 }],
            open: Vec::new(),
            children: chain::Cursor::default(),
            last_ts: ts,
        })
    }

    fn events(
        &mut self,
        thread: ThreadId,
        st: &mut Option<ThreadState>,
        events: &[Event],
        wire: Option<&WireEvents>,
    ) -> Result<(), StoreError> {
        for (i, ev) in events.iter().enumerate() {
            if let EventKind::String { string, text } = &ev.kind {
                self.store.string(*string, text)?;
                continue;
            }
            self.start_root(ev.ts);
            self.last_ts = self.last_ts.max(ev.ts);
            let state = match st {
                Some(state) => state,
                None => st.insert(self.new_thread(thread, ev.ts)?),
            };
            let operands = wire.and_then(|w| w.operands(i));
            self.apply(thread, state, ev, operands)?;
        }
        Ok(())
    }

    /// Closes the recording. With `END`, thread nodes whose calls all returned and the root
    /// complete; calls still open stay incomplete (and are reported as a warning).
    pub fn finish(mut self, ending: Ending) -> Result<Summary, StoreError> {
        self.start_root(0);
        let ended = matches!(ending, Ending::End { .. });
        let threads = std::mem::take(&mut self.threads);
        for st in threads.into_values() {
            if !st.open.is_empty() {
                let msg = format!(
                    "thread {} ended with {} call(s) still open (nodes {}..); they stay incomplete",
                    st.header.thread.map_or(0, |t| t.0),
                    st.open.len(),
                    st.open[0].row.header.id
                );
                self.warn(Some(st.last_ts), &msg)?;
            } else if ended {
                let mut header = st.header.clone();
                header.exit = Some(st.last_ts);
                self.sink.node(&header);
                self.store.node_completed(&NodeRow {
                    header,
                    depth: 0,
                    outcome: None,
                })?;
            }
        }
        if ended {
            let mut root = self.root.clone();
            root.exit = Some(self.last_ts);
            self.sink.node(&root);
            self.store.node_completed(&NodeRow {
                header: root,
                depth: 0,
                outcome: None,
            })?;
        }
        if self.recorder_warnings > MAX_STORED_WARNINGS {
            let msg = format!(
                "{} more recorder warnings were not stored",
                self.recorder_warnings - MAX_STORED_WARNINGS
            );
            self.store.warning(None, "recorder", &msg)?;
        }
        let counts = self.store.finish(&ending)?;
        Ok(Summary {
            ending,
            events: counts.events,
            nodes: counts.nodes,
            complete_nodes: counts.complete_nodes,
            warnings: counts.warnings,
        })
    }
}
