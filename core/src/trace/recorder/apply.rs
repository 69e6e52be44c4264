//! How one event changes the recorder's state and the store, by family: calls and their exits
//! (nodes), writes of variables, new objects and arrays, a constructor's `this`, blocks, and
//! the content of JDK objects. Every event but a call and a block is stored as it comes, then
//! its family does the rest.

use super::loops::FrameLoops;
use super::{OpenCall, Recorder, ThreadState};
use crate::coverage::HeapKey;
use crate::ids::{FieldId, MethodId, NodeId, ObjectId, ThreadId, Timestamp};
use crate::trace::store::{NodeRow, Outcome, StackEntry, StoreError, Variable};
use crate::trace::wire::{Event, EventKind, Origin, Value};
use crate::tree::{NodeHeader, NodeKind};

use super::sink::NodeSink;

/// Where an event happens: its thread's top node and what that node is executing.
#[derive(Clone, Copy)]
pub(super) struct Here {
    thread: ThreadId,
    ts: Timestamp,
    /// The thread's previous event.
    prev: Timestamp,
    /// The node whose code runs (the thread node outside any call).
    top: NodeId,
    /// The code making this event's writes: the top node at its current line.
    by: StackEntry,
    /// The stack depth of the top node's events.
    depth: u32,
    /// Whether the top node is an instrumented call (not external code, not the thread).
    in_routine: bool,
}

impl Here {
    fn of(thread: ThreadId, st: &ThreadState, ts: Timestamp, prev: Timestamp) -> Here {
        let top = st.stack.last().map_or(st.header.id, |e| e.node);
        Here {
            thread,
            ts,
            prev,
            top,
            by: st
                .stack
                .last()
                .copied()
                .unwrap_or(StackEntry { node: top, line: 0 }),
            depth: (st.stack.len() - 1) as u32,
            in_routine: st
                .open
                .last()
                .is_some_and(|c| c.row.header.kind == NodeKind::Routine),
        }
    }
}

impl ThreadState {
    /// The chain cursor of the frame on top: the open call's, or the thread node's.
    fn children_of_top(&mut self) -> &mut super::chain::Cursor {
        match self.open.last_mut() {
            Some(call) => &mut call.children,
            None => &mut self.children,
        }
    }
}

impl<S: NodeSink> Recorder<S> {
    pub(super) fn apply(
        &mut self,
        thread: ThreadId,
        st: &mut ThreadState,
        ev: &Event,
        operands: Option<&[u8]>,
    ) -> Result<(), StoreError> {
        let prev = std::mem::replace(&mut st.last_ts, ev.ts);
        let here = Here::of(thread, st, ev.ts, prev);
        if !ev.kind.is_call() && !ev.kind.is_exit() {
            match st.open.last_mut().and_then(|c| c.cov.as_mut()) {
                Some(cov) if here.in_routine => cov.event(&ev.kind, &mut self.coverage),
                _ => self.coverage.unmatched(&ev.kind),
            }
        }
        match &ev.kind {
            EventKind::Call { method, args } | EventKind::ExtCall { method, args } => {
                let routine = matches!(ev.kind, EventKind::Call { .. });
                return self.call(st, here, (ev, operands), (*method, args), routine);
            }
            EventKind::Block { block, .. } => return self.block(st, here, *block, operands),
            EventKind::String { .. } => return Ok(()),
            _ => self
                .store
                .event(thread, &st.stack, here.depth, ev, None, operands)?,
        }
        match &ev.kind {
            EventKind::Return(_)
            | EventKind::Unwind(_)
            | EventKind::ExtReturn(_)
            | EventKind::ExtUnwind(_) => self.exit(st, here, &ev.kind),
            EventKind::Line(l) => {
                if let Some(t) = st.stack.last_mut() {
                    t.line = *l;
                }
                Ok(())
            }
            EventKind::Local { .. }
            | EventKind::FieldWrite { .. }
            | EventKind::StaticWrite { .. }
            | EventKind::ArrayWrite { .. } => self.write(st, here, &ev.kind),
            EventKind::NewObject {
                object,
                class,
                origin,
            } => self
                .store
                .object(*object, *class, None, *origin, here.ts, here.top),
            EventKind::NewArray { .. } => self.new_array(here, &ev.kind),
            EventKind::This(object) => {
                self.this(st, here, *object);
                Ok(())
            }
            EventKind::FieldWriteUninit { field, value } => {
                st.children_of_top().heap_write();
                self.write_uninit(st, here, *field, *value)
            }
            EventKind::Content {
                object,
                kind,
                start,
                values,
            } => self.contents.apply(
                &mut self.store,
                &mut self.coverage,
                *object,
                (*kind, *start),
                values,
                (here.ts, here.by),
            ),
            // Stored above, nothing else to do: exceptions and reads.
            EventKind::Throw(_)
            | EventKind::Catch(_)
            | EventKind::FieldRead { .. }
            | EventKind::ArrayRead { .. }
            | EventKind::StaticRead { .. } => Ok(()),
            EventKind::Call { .. }
            | EventKind::ExtCall { .. }
            | EventKind::Block { .. }
            | EventKind::String { .. } => unreachable!("handled before the event is stored"),
        }
    }

    /// A call starts a node under the top one: its arguments are its first locals (for a
    /// routine), its coverage starts if its method has a block table.
    fn call(
        &mut self,
        st: &mut ThreadState,
        here: Here,
        (ev, operands): (&Event, Option<&[u8]>),
        (method, args): (MethodId, &[Value]),
        routine: bool,
    ) -> Result<(), StoreError> {
        // A call inside a loop hangs below its iteration, which must exist first.
        let mut parent = here.top;
        if here.in_routine {
            self.loops_before_call(st, here.thread)?;
            if let Some(it) = st.open.last().and_then(super::loops::innermost_iteration) {
                parent = it;
            }
        }
        let id = self.new_node();
        self.store.event(
            here.thread,
            &st.stack,
            here.depth + 1,
            ev,
            Some(id),
            operands,
        )?;
        let info = self.methods.get(method).filter(|_| routine);
        let context = info.and_then(|m| m.rule.context(args));
        let shift = info.map_or(0, |m| m.arg_shift);
        let table = info.and_then(|m| m.table.clone());
        let loop_table = info.and_then(|m| m.loops.clone());
        let siblings = st.children_of_top();
        let chained = siblings.links(context, parent);
        let frame_chained = siblings.links_in_frame(context);
        siblings.child_started(parent);
        let header = NodeHeader {
            id,
            parent: Some(parent),
            kind: if routine {
                NodeKind::Routine
            } else {
                NodeKind::External
            },
            method: Some(method),
            thread: Some(here.thread),
            entry: here.ts,
            exit: None,
            chained,
            frame_chained,
        };
        if routine {
            for (k, v) in args.iter().enumerate() {
                let var = Variable::Local {
                    node: id,
                    var: k as u32 + shift,
                };
                self.store.write(var, here.ts, *v, here.by);
            }
        }
        let cov = table.map(|table| {
            let entry_vars = (args.len() as u32).saturating_add(shift);
            self.coverage.frame(method, table, entry_vars)
        });
        let loops = loop_table.map(|table| match self.spare_loops.pop() {
            Some(mut l) => {
                l.reset(table);
                l
            }
            None => Box::new(FrameLoops::new(table)),
        });
        self.sink.node(&header);
        let row = NodeRow {
            header,
            depth: here.depth + 1,
            outcome: None,
        };
        self.store.node_started(row.clone());
        st.stack.push(StackEntry { node: id, line: 0 });
        st.open.push(OpenCall {
            row,
            uninit: Vec::new(),
            cov,
            loops,
            context,
            children: Default::default(),
        });
        Ok(())
    }

    /// A return or an unwind completes the top call: its outcome, its coverage, its header to
    /// the sink and the store.
    fn exit(
        &mut self,
        st: &mut ThreadState,
        here: Here,
        kind: &EventKind,
    ) -> Result<(), StoreError> {
        let (ts, thread) = (here.ts, here.thread);
        let Some(mut call) = st.open.pop() else {
            return self.warn(
                Some(ts),
                &format!(
                    "{} at timestamp {ts} in thread {thread} with no call open; ignored",
                    kind.name()
                ),
            );
        };
        st.stack.pop();
        st.children_of_top().child_ended(call.context);
        let external_exit = matches!(kind, EventKind::ExtReturn(_) | EventKind::ExtUnwind(_));
        if external_exit != (call.row.header.kind == NodeKind::External) {
            let msg = format!(
                "{} at timestamp {ts} in thread {thread} closes node {}, a {:?} call; closed anyway",
                kind.name(),
                call.row.header.id,
                call.row.header.kind
            );
            self.warn(Some(ts), &msg)?;
        }
        let outcome = if matches!(kind, EventKind::Unwind(_) | EventKind::ExtUnwind(_)) {
            Outcome::Threw
        } else {
            Outcome::Returned
        };
        self.loops_end(&mut call, here.prev, outcome)?;
        call.row.header.exit = Some(ts);
        call.row.outcome = Some(outcome);
        if let Some(mut cov) = call.cov.take() {
            let normally = matches!(kind, EventKind::Return(_));
            cov.finish(normally, &mut self.coverage);
            self.store
                .entities(&self.coverage.interner.take_unsaved())?;
            let (edges, def_uses) = cov.covered();
            self.store
                .node_coverage(call.row.header.id, edges, def_uses)?;
            if !edges.is_empty() || !def_uses.is_empty() {
                self.sink.coverage(call.row.header.id, edges, def_uses);
            }
            self.coverage.recycle(cov);
        }
        self.sink.node(&call.row.header);
        self.store.node_completed(&call.row)
    }

    /// A write of a local, a field, a static field or an array element: indexed by variable.
    /// A write of the heap ends the chain of the writing frame's children (`chain`).
    fn write(
        &mut self,
        st: &mut ThreadState,
        here: Here,
        kind: &EventKind,
    ) -> Result<(), StoreError> {
        if !matches!(kind, EventKind::Local { .. }) {
            st.children_of_top().heap_write();
        }
        let (variable, value) = match *kind {
            EventKind::Local { var, value } => {
                if !here.in_routine {
                    return self.warn(
                        Some(here.ts),
                        &format!(
                            "LOCAL at timestamp {} in thread {} outside any instrumented call",
                            here.ts, here.thread
                        ),
                    );
                }
                (
                    Variable::Local {
                        node: here.top,
                        var,
                    },
                    value,
                )
            }
            EventKind::FieldWrite {
                object,
                field,
                value,
            } => (Variable::Field { object, field }, value),
            EventKind::StaticWrite { field, value } => (Variable::Static { field }, value),
            EventKind::ArrayWrite {
                array,
                index,
                value,
            } => (Variable::Element { array, index }, value),
            _ => return Ok(()),
        };
        self.store.write(variable, here.ts, value, here.by);
        Ok(())
    }

    /// A new array; one first seen with its elements (made by uninstrumented code) writes them.
    fn new_array(&mut self, here: Here, kind: &EventKind) -> Result<(), StoreError> {
        let EventKind::NewArray {
            array,
            class,
            length,
            origin,
            elements,
        } = kind
        else {
            return Ok(());
        };
        self.store
            .object(*array, *class, Some(*length), *origin, here.ts, here.top)?;
        if *origin == Origin::FirstSeen {
            for (k, v) in elements.iter().enumerate() {
                let index = k as u32;
                self.coverage
                    .writers
                    .forget(HeapKey::Element(*array, index));
                let element = Variable::Element {
                    array: *array,
                    index,
                };
                self.store.write(element, here.ts, *v, here.by);
            }
        }
        Ok(())
    }

    /// A constructor's `this` becomes known: local 0, and the owner of the field writes made
    /// before it (`FIELD_WRITE_UNINIT`).
    fn this(&mut self, st: &mut ThreadState, here: Here, object: ObjectId) {
        let Some(call) = st.open.last_mut().filter(|_| here.in_routine) else {
            return;
        };
        let this = Variable::Local {
            node: here.top,
            var: 0,
        };
        self.store
            .write(this, here.ts, Value::Object(object), here.by);
        for (field, ts, value, by) in call.uninit.drain(..) {
            self.store
                .write(Variable::Field { object, field }, ts, value, by);
        }
    }

    /// A field write in a constructor before `this` is known (before the super constructor):
    /// kept until `THIS` names the object.
    fn write_uninit(
        &mut self,
        st: &mut ThreadState,
        here: Here,
        field: FieldId,
        value: Value,
    ) -> Result<(), StoreError> {
        match st.open.last_mut().filter(|_| here.in_routine) {
            Some(call) => {
                call.uninit.push((field, here.ts, value, here.by));
                Ok(())
            }
            None => self.warn(
                Some(here.ts),
                &format!(
                    "FIELD_WRITE_UNINIT at timestamp {} in thread {} outside a constructor",
                    here.ts, here.thread
                ),
            ),
        }
    }

    /// A block starts: stored with its line from the method's table (the event does not carry
    /// it), which becomes the top node's current line.
    fn block(
        &mut self,
        st: &mut ThreadState,
        here: Here,
        block: u32,
        operands: Option<&[u8]>,
    ) -> Result<(), StoreError> {
        // The table of a routine with coverage is at hand in its frame; other calls look up
        // their method's.
        let top = st.open.last();
        let table = match top.and_then(|c| c.cov.as_deref()) {
            Some(cov) => Some(cov.table()),
            None => top
                .and_then(|c| c.row.header.method)
                .and_then(|m| self.methods.get(m)?.table.as_deref()),
        };
        let line = table
            .and_then(|t| t.blocks.get(block as usize))
            .map_or(0, |b| b.line);
        let with_line = Event {
            ts: here.ts,
            kind: EventKind::Block { block, line },
        };
        self.store.event(
            here.thread,
            &st.stack,
            here.depth,
            &with_line,
            None,
            operands,
        )?;
        if let (true, Some(t)) = (line != 0, st.stack.last_mut()) {
            t.line = line;
        }
        if here.in_routine {
            self.loop_block(st, here.thread, block, here.ts, here.prev)?;
        }
        Ok(())
    }
}
