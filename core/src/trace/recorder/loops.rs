//! Loop and iteration nodes (loop expansion): a frame whose method has loops follows them with
//! a [`LoopCursor`] as its `BLOCK` events come, and the recorder makes each execution of a loop
//! a node of kind loop under the frame's innermost node, each iteration a node of kind
//! iteration under it, and the calls made in an iteration its children.
//!
//! Nodes start in the order they start, so the tree's invariants hold (`parent < child`, ids
//! in preorder within a thread), but they are made only when needed: a loop becomes nodes when
//! its header is entered for the second time (its body ran: [`MIN_PASSES`]) or at the first
//! call made inside it, whichever comes first; the iterations before then get their recorded
//! entries and exits. A loop whose test failed at once and that called nothing stays the
//! enclosing node's code (two nodes and a question that would say nothing). Once a loop is a
//! node, every iteration of it is. `MIN_PASSES = 2` would also leave out loops whose body ran
//! once without calls: on kxml2 that is a third fewer nodes (docs/benchmarks.md), but a defect
//! in such a pass (the jhyde MergeSort's `c[lb++]`) is then reported with its whole call.
//!
//! A loop or iteration node runs in its frame: its method is the frame's, its depth the
//! frame's (its events are the frame's events between its entry and exit), its entry the
//! timestamp of the header's `BLOCK` event, its exit that of the frame's last event before the
//! next iteration or the loop's exit. Its outcome is `returned` unless an exception left the
//! frame while it ran (`threw`).

use std::sync::Arc;

use super::{OpenCall, Recorder, ThreadState};
use crate::ids::{NodeId, ThreadId, Timestamp};
use crate::loops::{LoopCursor, LoopStep, LoopTable};
use crate::trace::store::{NodeRow, Outcome, StoreError};
use crate::tree::{NodeHeader, NodeKind};

use super::sink::NodeSink;

/// The loops of one frame.
pub(super) struct FrameLoops {
    cursor: LoopCursor,
    /// Parallel to the cursor's active loops, outermost first.
    open: Vec<OpenLoop>,
    steps: Vec<LoopStep>,
}

/// A loop without calls becomes nodes once its body has run this many times.
pub(super) const MIN_PASSES: usize = 1;

struct OpenLoop {
    entry: Timestamp,
    /// The current iteration's entry.
    iteration_entry: Timestamp,
    /// The iterations that ended before the loop became nodes: entry and exit.
    ended: Vec<(Timestamp, Timestamp)>,
    /// The loop's node and its current iteration's, once made.
    nodes: Option<(NodeRow, NodeRow)>,
}

impl FrameLoops {
    pub(super) fn new(table: Arc<LoopTable>) -> FrameLoops {
        FrameLoops {
            cursor: LoopCursor::new(table),
            open: Vec::new(),
            steps: Vec::new(),
        }
    }

    /// The state of a new call of a method with `table`, in a reused one.
    pub(super) fn reset(&mut self, table: Arc<LoopTable>) {
        self.cursor.reset(table);
        self.open.clear();
        self.steps.clear();
    }
}

/// Spare loop states kept at most.
const SPARE_LOOPS: usize = 256;

/// The innermost iteration node of the top frame, the parent of what starts there.
pub(super) fn innermost_iteration(call: &OpenCall) -> Option<NodeId> {
    let loops = call.loops.as_ref()?;
    loops
        .open
        .last()
        .and_then(|l| l.nodes.as_ref())
        .map(|(_, it)| it.header.id)
}

impl<S: NodeSink> Recorder<S> {
    /// The top frame entered `block` at `ts`; `prev` is the thread's previous event.
    pub(super) fn loop_block(
        &mut self,
        st: &mut ThreadState,
        thread: ThreadId,
        block: u32,
        ts: Timestamp,
        prev: Timestamp,
    ) -> Result<(), StoreError> {
        let Some(call) = st.open.last_mut() else {
            return Ok(());
        };
        let Some(mut loops) = call.loops.take() else {
            return Ok(());
        };
        loops.cursor.block(block, &mut loops.steps);
        let mut steps = std::mem::take(&mut loops.steps);
        let mut r = Ok(());
        for step in steps.drain(..) {
            r = match step {
                LoopStep::Exit(_) => self.loop_exit(&mut loops, prev, Outcome::Returned),
                LoopStep::Enter(_) => {
                    loops.open.push(OpenLoop {
                        entry: ts,
                        iteration_entry: ts,
                        ended: Vec::new(),
                        nodes: None,
                    });
                    Ok(())
                }
                LoopStep::Next(_) => self.loop_next(call, &mut loops, thread, ts, prev),
            };
            if r.is_err() {
                break;
            }
        }
        loops.steps = steps;
        call.loops = Some(loops);
        r
    }

    /// The frame ends (`outcome` says how) after its event at `prev`: its loops end there.
    pub(super) fn loops_end(
        &mut self,
        call: &mut OpenCall,
        prev: Timestamp,
        outcome: Outcome,
    ) -> Result<(), StoreError> {
        let Some(mut loops) = call.loops.take() else {
            return Ok(());
        };
        let mut steps = std::mem::take(&mut loops.steps);
        loops.cursor.leave_all(&mut steps);
        for _ in steps.drain(..) {
            self.loop_exit(&mut loops, prev, outcome)?;
        }
        loops.steps = steps;
        if self.spare_loops.len() < SPARE_LOOPS {
            self.spare_loops.push(loops);
        }
        Ok(())
    }

    /// A call is about to start in the top frame: every active loop of it becomes nodes.
    pub(super) fn loops_before_call(
        &mut self,
        st: &mut ThreadState,
        thread: ThreadId,
    ) -> Result<(), StoreError> {
        let Some(call) = st.open.last_mut() else {
            return Ok(());
        };
        let Some(mut loops) = call.loops.take() else {
            return Ok(());
        };
        let n = loops.open.len();
        let r = self.materialize(call, &mut loops, thread, n);
        call.loops = Some(loops);
        r
    }

    /// Makes nodes of the first `upto` active loops that have none, outermost first.
    fn materialize(
        &mut self,
        call: &OpenCall,
        loops: &mut FrameLoops,
        thread: ThreadId,
        upto: usize,
    ) -> Result<(), StoreError> {
        for i in 0..upto {
            if loops.open[i].nodes.is_some() {
                continue;
            }
            let parent = match i {
                0 => call.row.header.id,
                _ => loops.open[i - 1]
                    .nodes
                    .as_ref()
                    .map_or(call.row.header.id, |(_, it)| it.header.id),
            };
            let (entry, iteration_entry) = (loops.open[i].entry, loops.open[i].iteration_entry);
            let lp = self.start_fragment(call, NodeKind::Loop, parent, thread, entry, false);
            let ended = std::mem::take(&mut loops.open[i].ended);
            let first_ended = !ended.is_empty();
            for (k, (from, to)) in ended.into_iter().enumerate() {
                let it = self.start_fragment(
                    call,
                    NodeKind::Iteration,
                    lp.header.id,
                    thread,
                    from,
                    k > 0,
                );
                self.complete_fragment(it, to, Outcome::Returned)?;
            }
            let it = self.start_fragment(
                call,
                NodeKind::Iteration,
                lp.header.id,
                thread,
                iteration_entry,
                first_ended,
            );
            loops.open[i].nodes = Some((lp, it));
        }
        Ok(())
    }

    /// The innermost loop goes on with its next iteration, whose header `BLOCK` is at `ts`.
    fn loop_next(
        &mut self,
        call: &OpenCall,
        loops: &mut FrameLoops,
        thread: ThreadId,
        ts: Timestamp,
        prev: Timestamp,
    ) -> Result<(), StoreError> {
        let n = loops.open.len();
        let open = &mut loops.open[n - 1];
        if open.nodes.is_none() {
            open.ended.push((open.iteration_entry, prev));
            open.iteration_entry = ts;
            if open.ended.len() < MIN_PASSES {
                return Ok(());
            }
            // The body ran often enough: the loop and its iterations so far become nodes.
            return self.materialize(call, loops, thread, n);
        }
        let Some((lp, it)) = open.nodes.take() else {
            return Ok(());
        };
        self.complete_fragment(it, prev, Outcome::Returned)?;
        let next = self.start_fragment(call, NodeKind::Iteration, lp.header.id, thread, ts, true);
        let open = &mut loops.open[n - 1];
        open.iteration_entry = ts;
        open.nodes = Some((lp, next));
        Ok(())
    }

    /// The innermost active loop ends after the frame's event at `prev`.
    fn loop_exit(
        &mut self,
        loops: &mut FrameLoops,
        prev: Timestamp,
        outcome: Outcome,
    ) -> Result<(), StoreError> {
        let Some(open) = loops.open.pop() else {
            return Ok(());
        };
        if let Some((lp, it)) = open.nodes {
            self.complete_fragment(it, prev, outcome)?;
            self.complete_fragment(lp, prev, outcome)?;
        }
        Ok(())
    }

    /// A loop or iteration node starts; `chained` for an iteration after the first (the
    /// iterations of a loop are a chain by construction: each starts in the state the previous
    /// one left, in the same frame, with nothing in between), so the forest balances them.
    fn start_fragment(
        &mut self,
        call: &OpenCall,
        kind: NodeKind,
        parent: NodeId,
        thread: ThreadId,
        entry: Timestamp,
        chained: bool,
    ) -> NodeRow {
        let header = NodeHeader {
            id: self.new_node(),
            parent: Some(parent),
            kind,
            method: call.row.header.method,
            thread: Some(thread),
            entry,
            exit: None,
            chained,
            frame_chained: false,
        };
        self.sink.node(&header);
        let row = NodeRow {
            header,
            depth: call.row.depth,
            outcome: None,
        };
        self.store.node_started(row.clone());
        row
    }

    fn complete_fragment(
        &mut self,
        mut row: NodeRow,
        exit: Timestamp,
        outcome: Outcome,
    ) -> Result<(), StoreError> {
        row.header.exit = Some(exit.max(row.header.entry));
        row.outcome = Some(outcome);
        self.sink.node(&row.header);
        self.store.node_completed(&row)
    }
}
