//! A trace file as the reference oracle reads it ([`RecordedRun`]).
//!
//! It owns its own read connection, so an oracle over the buggy trace does not borrow the
//! debugger's. The calls of each method are indexed by one pass over the nodes when the run
//! is opened, and over the nodes stored since by [`TraceRun::refresh`] (a live trace).

use std::collections::HashMap;
use std::ops::Range;
use std::path::Path;

use super::recorded::{ending, CallView, Fragment, MethodKey, Outcome, OutputCall, RecordedRun};
use crate::ids::{FieldId, MethodId, NodeId, ObjectId, StringId, ThreadId, Timestamp};
use crate::omniscient::names::MethodNames;
use crate::omniscient::{Heap, HeapError, HeapResult, ObjectInfo};
use crate::trace::store::{NodeResult, NodeRow, StoreError, TraceReader, Variable};
use crate::trace::wire::{Event, EventKind, FieldDef, Value};
use crate::tree::NodeKind;

fn heap_err(e: StoreError) -> HeapError {
    HeapError(e.to_string())
}

/// A recorded run read from a trace file.
pub struct TraceRun {
    reader: TraceReader,
    keys: HashMap<MethodId, MethodKey>,
    calls: HashMap<MethodKey, Vec<NodeId>>,
    /// Loop and iteration nodes by method and loop.
    fragments: HashMap<(MethodKey, Fragment), Vec<NodeId>>,
    /// The header block of each loop node (its iterations share it).
    headers: HashMap<NodeId, u32>,
    hashes: HashMap<MethodKey, [u8; 16]>,
    statics: Vec<(String, FieldDef)>,
    /// Calls of the JDK's output methods per thread: (entry, node, `Class.method(descriptor)`),
    /// in entry order, so that those inside a call are a range.
    outputs: HashMap<ThreadId, Vec<(Timestamp, NodeId, String)>>,
    names: MethodNames,
    /// `pkg.Class.name(descriptor)` of the methods footprints met.
    method_texts: std::cell::RefCell<HashMap<MethodId, String>>,
    /// The last node indexed.
    seen: Option<NodeId>,
}

/// Whether a method of uninstrumented code writes program output.
fn is_output(class: &str, method: &str) -> bool {
    let writer = class.starts_with("java.io.")
        && (class.ends_with("PrintStream")
            || class.ends_with("Writer")
            || class.ends_with("OutputStream"));
    writer
        && matches!(
            method,
            "print" | "println" | "printf" | "format" | "write" | "append"
        )
}

impl TraceRun {
    /// A run that nothing will write any more (a reference run, a finished trace): its reader
    /// holds the lock (`TraceReader::open_finished`).
    pub fn open(path: &Path) -> Result<TraceRun, StoreError> {
        Self::with_reader(TraceReader::open_finished(path)?)
    }

    /// A run this process may still write (a live recording, which it annotates when it ends):
    /// read query by query.
    pub fn open_live(path: &Path) -> Result<TraceRun, StoreError> {
        Self::with_reader(TraceReader::open(path)?)
    }

    fn with_reader(reader: TraceReader) -> Result<TraceRun, StoreError> {
        let mut run = TraceRun {
            reader,
            keys: HashMap::new(),
            calls: HashMap::new(),
            fragments: HashMap::new(),
            headers: HashMap::new(),
            hashes: HashMap::new(),
            statics: Vec::new(),
            outputs: HashMap::new(),
            names: MethodNames::default(),
            method_texts: Default::default(),
            seen: None,
        };
        run.refresh()?;
        Ok(run)
    }

    /// Indexes the nodes stored since the last call (all of them the first time), and reads the
    /// static fields again: a live trace grows between two questions.
    pub fn refresh(&mut self) -> Result<(), StoreError> {
        loop {
            let rows = self.reader.nodes_after(self.seen, 4096)?;
            let Some(last) = rows.last() else { break };
            self.seen = Some(last.header.id);
            for row in rows {
                self.index_node(&row.header)?;
            }
        }
        let mut statics = Vec::new();
        for f in self.reader.static_fields()? {
            let class = self
                .reader
                .class(f.class)?
                .map_or_else(|| format!("#{}", f.class), |c| c.name);
            statics.push((format!("{class}.{}", f.name), f));
        }
        self.statics = statics;
        Ok(())
    }

    /// Indexes one node: a call of its method, a call of an output method, or a loop or an
    /// iteration by its method and loop header (nodes come in id order, a loop before its
    /// iterations).
    fn index_node(&mut self, h: &crate::tree::NodeHeader) -> Result<(), StoreError> {
        let Some(m) = h.method else { return Ok(()) };
        if h.kind == NodeKind::External {
            if let (Some(name), Some(thread)) = (self.names.get(&self.reader, m)?, h.thread) {
                if is_output(&name.class, &name.def.name) {
                    let text = format!("{}{}", name.qualified, name.def.descriptor);
                    self.outputs
                        .entry(thread)
                        .or_default()
                        .push((h.entry, h.id, text));
                }
            }
        }
        if let std::collections::hash_map::Entry::Vacant(slot) = self.keys.entry(m) {
            if let Some(name) = self.names.get(&self.reader, m)? {
                let key = MethodKey {
                    class: name.class.clone(),
                    name: name.def.name.clone(),
                    descriptor: name.def.descriptor.clone(),
                };
                if name.def.is_instrumented() {
                    self.hashes.insert(key.clone(), name.def.hash);
                }
                slot.insert(key);
            }
        }
        let Some(key) = self.keys.get(&m) else {
            return Ok(());
        };
        if h.kind.is_call() {
            self.calls.entry(key.clone()).or_default().push(h.id);
            return Ok(());
        }
        let header = match h.kind {
            // The loop's first event is its header's BLOCK.
            NodeKind::Loop => match h.thread {
                Some(t) => match self
                    .reader
                    .thread_event_at(t, h.entry)?
                    .map(|e| e.event.kind)
                {
                    Some(EventKind::Block { block, .. }) => Some(block),
                    _ => None,
                },
                None => None,
            },
            _ => h.parent.and_then(|p| self.headers.get(&p).copied()),
        };
        if let Some(header) = header {
            if h.kind == NodeKind::Loop {
                self.headers.insert(h.id, header);
            }
            let fragment = Fragment {
                kind: h.kind,
                header,
            };
            self.fragments
                .entry((key.clone(), fragment))
                .or_default()
                .push(h.id);
        }
        Ok(())
    }

    /// Every call of the run by method, each method's calls in call order.
    pub fn calls_by_method(&self) -> impl Iterator<Item = (&MethodKey, &[NodeId])> {
        self.calls.iter().map(|(k, v)| (k, v.as_slice()))
    }

    pub fn reader(&self) -> &TraceReader {
        &self.reader
    }

    /// A loop or iteration as the oracle sees it: its frame's `this` and locals at entry and
    /// exit, which loop, and how it ended.
    fn fragment_view(&self, row: &NodeRow, view: &mut CallView) -> Result<(), StoreError> {
        let h = &row.header;
        let header = match h.kind {
            NodeKind::Loop => self.headers.get(&h.id),
            _ => h.parent.and_then(|p| self.headers.get(&p)),
        };
        view.fragment = header.map(|&header| Fragment {
            kind: h.kind,
            header,
        });
        let Some(frame) = self.reader.frame_of(h.id)? else {
            return Ok(());
        };
        let Some(detail) = self.reader.node_detail(frame.header.id)? else {
            return Ok(());
        };
        view.this = detail.this;
        let vars = detail.method.as_ref().map_or(0, |m| m.vars.len()) as u32;
        let exit = h.exit.unwrap_or(Timestamp::MAX);
        let (mut entry_locals, mut exit_locals) = (Vec::new(), Vec::new());
        for var in 0..vars {
            let f = frame.header.id;
            let before = self.reader.local_at(f, var, h.entry)?;
            let after = self.reader.local_at(f, var, exit)?;
            if before.is_none() && after.is_none() {
                continue;
            }
            entry_locals.push(before.unwrap_or(Value::Void));
            exit_locals.push(after.unwrap_or(Value::Void));
        }
        // `this` is among the locals (var 0) of an instance method: one root is enough.
        if detail.method.as_ref().is_some_and(|m| !m.is_static()) && !entry_locals.is_empty() {
            entry_locals.remove(0);
            exit_locals.remove(0);
        }
        view.args = entry_locals;
        view.exit_locals = exit_locals;
        if h.kind == NodeKind::Iteration {
            if let Some(lp) = h.parent {
                view.position = Some(self.reader.child_index(lp, h.id)? as u32);
            }
        }
        let code = match row.outcome {
            None => None,
            Some(crate::trace::store::Outcome::Threw) => Some(ending::THROWN),
            Some(crate::trace::store::Outcome::Returned) => Some(match (h.kind, h.parent) {
                (NodeKind::Iteration, Some(lp))
                    if self.reader.child_index(lp, h.id)? + 1 < self.reader.child_count(lp)? =>
                {
                    ending::NEXT
                }
                _ => ending::END,
            }),
        };
        view.outcome = code.map(|c| Outcome::Returned(Value::Int(c)));
        Ok(())
    }

    fn static_field(&self, name: &str) -> Option<FieldId> {
        self.statics
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, f)| f.id)
    }
}

impl Heap for TraceRun {
    fn object(&self, id: ObjectId) -> HeapResult<Option<ObjectInfo>> {
        Heap::object(&self.reader, id)
    }
    fn fields_at(&self, id: ObjectId, at: Timestamp) -> HeapResult<Vec<(String, Value)>> {
        self.reader.fields_at(id, at)
    }
    fn elements_at(
        &self,
        id: ObjectId,
        at: Timestamp,
        range: Range<u32>,
    ) -> HeapResult<Vec<Option<Value>>> {
        self.reader.elements_at(id, at, range)
    }
    fn string(&self, id: StringId) -> HeapResult<Option<String>> {
        Heap::string(&self.reader, id)
    }
    fn content_length_at(&self, id: ObjectId, at: Timestamp) -> HeapResult<Option<u32>> {
        // Without it every JDK collection would stay unknown content to the reference oracle.
        Heap::content_length_at(&self.reader, id, at)
    }
}

impl RecordedRun for TraceRun {
    fn call(&self, node: NodeId) -> HeapResult<CallView> {
        let mut view = self.call_basic(node)?;
        let (Some(exit), Some(row)) = (view.exit, self.reader.node(node).map_err(heap_err)?) else {
            return Ok(view);
        };
        let h = &row.header;
        for (name, f) in &self.statics {
            let written = self
                .reader
                .last_write_between(Variable::Static { field: f.id }, h.entry, exit)
                .map_err(heap_err)?;
            if written.is_some() {
                view.statics.push(name.clone());
            }
        }
        if let Some(outputs) = h.thread.and_then(|t| self.outputs.get(&t)) {
            let from = outputs.partition_point(|o| o.0 <= h.entry);
            for (_, out, name) in outputs[from..].iter().take_while(|o| o.0 < exit) {
                let Some(d) = self.reader.node_detail(*out).map_err(heap_err)? else {
                    continue;
                };
                view.output.push(OutputCall {
                    method: name.clone(),
                    args: d.args.iter().map(|a| a.value).collect(),
                    at: d.row.header.entry,
                });
            }
        }
        Ok(view)
    }

    fn call_span(&self, node: NodeId) -> HeapResult<Option<(Timestamp, Option<Timestamp>)>> {
        Ok(self
            .reader
            .node(node)
            .map_err(heap_err)?
            .map(|r| (r.header.entry, r.header.exit)))
    }

    fn call_basic(&self, node: NodeId) -> HeapResult<CallView> {
        let detail = self
            .reader
            .node_detail(node)
            .map_err(heap_err)?
            .ok_or_else(|| {
                HeapError(format!(
                    "node {node} is not in {}",
                    self.reader.path().display()
                ))
            })?;
        let h = &detail.row.header;
        let method = h
            .method
            .and_then(|m| self.keys.get(&m))
            .cloned()
            .unwrap_or(MethodKey {
                class: String::new(),
                name: format!("#{node}"),
                descriptor: String::new(),
            });
        let code_hash = (h.kind == NodeKind::Routine || h.kind.is_loop())
            .then(|| self.hashes.get(&method).copied())
            .flatten();
        let exit = h.exit;
        let mut view = CallView {
            method,
            code_hash,
            entry: h.entry,
            exit,
            this: detail.this,
            args: detail.args.iter().map(|a| a.value).collect(),
            outcome: detail.result.map(|r| match r {
                NodeResult::Returned(v) => Outcome::Returned(v),
                NodeResult::Threw(v) => Outcome::Threw(v),
            }),
            statics: Vec::new(),
            output: Vec::new(),
            fragment: None,
            exit_locals: Vec::new(),
            position: None,
        };
        if h.kind.is_loop() {
            self.fragment_view(&detail.row, &mut view)
                .map_err(heap_err)?;
        }
        Ok(view)
    }

    fn fragments_of(&self, method: &MethodKey, fragment: Fragment) -> HeapResult<Vec<NodeId>> {
        Ok(self
            .fragments
            .get(&(method.clone(), fragment))
            .cloned()
            .unwrap_or_default())
    }

    fn children(&self, node: NodeId) -> HeapResult<Vec<NodeId>> {
        let rows = self
            .reader
            .children(node, 0, u64::MAX >> 1)
            .map_err(heap_err)?;
        Ok(rows
            .into_iter()
            .filter(|r| r.header.kind.is_askable())
            .map(|r| r.header.id)
            .collect())
    }

    fn calls_of(&self, method: &MethodKey) -> HeapResult<Vec<NodeId>> {
        Ok(self.calls.get(method).cloned().unwrap_or_default())
    }

    fn code_hash(&self, method: &MethodKey) -> HeapResult<Option<[u8; 16]>> {
        if let Some(h) = self.hashes.get(method) {
            return Ok(Some(*h));
        }
        // A method the run never called: its class's definitions still carry its hash.
        for id in self
            .reader
            .methods_named(&method.class, &method.name)
            .map_err(heap_err)?
        {
            if let Some(def) = self.reader.method(id).map_err(heap_err)? {
                if def.descriptor == method.descriptor && def.is_instrumented() {
                    return Ok(Some(def.hash));
                }
            }
        }
        Ok(None)
    }

    fn static_at(&self, field: &str, at: Timestamp) -> HeapResult<Option<Value>> {
        match self.static_field(field) {
            Some(id) => self.reader.static_at(id, at).map_err(heap_err),
            None => Ok(None),
        }
    }

    fn visit_events(
        &self,
        node: NodeId,
        visit: &mut dyn FnMut(&Event) -> bool,
    ) -> HeapResult<bool> {
        self.reader.visit_subtree(node, visit).map_err(heap_err)?;
        Ok(true)
    }

    fn field_value(
        &self,
        object: ObjectId,
        field: FieldId,
        at: Timestamp,
    ) -> HeapResult<Option<Value>> {
        self.reader.field_at(object, field, at).map_err(heap_err)
    }

    fn element_value(
        &self,
        array: ObjectId,
        index: u32,
        at: Timestamp,
    ) -> HeapResult<Option<Value>> {
        self.reader.element_at(array, index, at).map_err(heap_err)
    }

    fn static_value(&self, field: FieldId, at: Timestamp) -> HeapResult<Option<Value>> {
        self.reader.static_at(field, at).map_err(heap_err)
    }

    fn field_name(&self, field: FieldId) -> HeapResult<(String, String)> {
        let Some(f) = self.reader.field(field).map_err(heap_err)? else {
            return Ok((String::new(), format!("#{field}")));
        };
        let class = self
            .reader
            .class(f.class)
            .map_err(heap_err)?
            .map_or_else(|| format!("#{}", f.class), |c| c.name);
        Ok((class, f.name))
    }

    fn method_text(&self, method: MethodId) -> HeapResult<String> {
        if let Some(t) = self.method_texts.borrow().get(&method) {
            return Ok(t.clone());
        }
        let text = match self.reader.method(method).map_err(heap_err)? {
            Some(m) => {
                let class = self
                    .reader
                    .class(m.class)
                    .map_err(heap_err)?
                    .map_or_else(|| format!("#{}", m.class), |c| c.name);
                format!("{class}.{}{}", m.name, m.descriptor)
            }
            None => format!("#{method}"),
        };
        self.method_texts.borrow_mut().insert(method, text.clone());
        Ok(text)
    }
}
