//! A recorded run as the oracle reads it: the [`RecordedRun`] trait (calls, children, code
//! hashes, statics, over the run's heap) and what it says of one call ([`CallView`]). The
//! reference oracle reads two of them, rule 3 one; `super::trace_run` implements the trait over
//! a trace file, the tests in memory.

use crate::ids::{FieldId, MethodId, NodeId, ObjectId, Timestamp};
use crate::omniscient::{Heap, HeapResult};
use crate::trace::wire::{Event, Value};
use crate::tree::NodeKind;

/// A method as both programs name it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MethodKey {
    /// Dotted class name.
    pub class: String,
    pub name: String,
    pub descriptor: String,
}

/// Which loop a loop or iteration node is an execution of: its kind and the header block of
/// the loop in its method (the same in both programs when the fix keeps the method's blocks).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Fragment {
    pub kind: NodeKind,
    pub header: u32,
}

/// How a loop or an iteration ended, the control part of its exit state (its `outcome` is
/// `Returned` of this code as an `int`).
pub mod ending {
    /// An iteration after which the loop goes on.
    pub const NEXT: i32 = 0;
    /// The loop ends (its last iteration, or the loop itself): the method goes on after it.
    pub const END: i32 = 1;
    /// An exception leaves the method from inside the loop.
    pub const THROWN: i32 = 2;
}

/// How a call ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Outcome {
    Returned(Value),
    Threw(Value),
}

/// What the oracle needs to know about one call.
#[derive(Clone, Debug, PartialEq)]
pub struct CallView {
    pub method: MethodKey,
    /// The hash of the method's original bytecode; `None` for uninstrumented code.
    pub code_hash: Option<[u8; 16]>,
    pub entry: Timestamp,
    /// `None` while the call is incomplete.
    pub exit: Option<Timestamp>,
    pub this: Option<Value>,
    pub args: Vec<Value>,
    pub outcome: Option<Outcome>,
    /// Static fields written during the call or its callees, as `pkg.Class.field`.
    pub statics: Vec<String>,
    /// The output the call or its callees produced, in order: each output call's method and
    /// arguments (receiver first) with the timestamp they are read at.
    pub output: Vec<OutputCall>,
    /// For a loop or an iteration (`None` for a call): which loop. Its `method` and
    /// `code_hash` are then its frame's, its `this` the frame's, its `args` the frame's local
    /// variables at entry (by var id, `void` where undefined) and `exit_locals` the same at
    /// exit; its `outcome` says how it ended ([`ending`]).
    pub fragment: Option<Fragment>,
    pub exit_locals: Vec<Value>,
    /// For an iteration, which one of its loop (from 0): an input javac's for-each keeps in a
    /// local the trace does not record (see `footprint`).
    pub position: Option<u32>,
}

/// A call of an output method of the JDK (see the module documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct OutputCall {
    /// `java.io.PrintStream.println(Ljava/lang/String;)V`: the receiver's identity is left out,
    /// its class is in the name.
    pub method: String,
    /// The arguments without the receiver.
    pub args: Vec<Value>,
    pub at: Timestamp,
}

/// A recorded run, as the reference oracle reads it.
pub trait RecordedRun: Heap {
    fn call(&self, node: NodeId) -> HeapResult<CallView>;
    /// The call without `statics` and `output` (left empty): what its footprint needs, which
    /// finds both in the call's events. Cheaper where they cost a look-up each (a trace).
    fn call_basic(&self, node: NodeId) -> HeapResult<CallView> {
        self.call(node)
    }
    /// The call's entry and exit (`None` while incomplete), `None` for no such node: what
    /// tells a small call from a large one without reading its events.
    fn call_span(&self, node: NodeId) -> HeapResult<Option<(Timestamp, Option<Timestamp>)>> {
        Ok(self.call_basic(node).ok().map(|c| (c.entry, c.exit)))
    }
    /// The node's children that are calls, loops or iterations, in order.
    fn children(&self, node: NodeId) -> HeapResult<Vec<NodeId>>;
    /// Every call of `method`, in call order.
    fn calls_of(&self, method: &MethodKey) -> HeapResult<Vec<NodeId>>;
    /// Every execution of the loop `fragment` of `method` (`Loop`), or every iteration of it
    /// (`Iteration`), in order. None by default: a run without loop nodes.
    fn fragments_of(&self, _method: &MethodKey, _fragment: Fragment) -> HeapResult<Vec<NodeId>> {
        Ok(Vec::new())
    }
    /// The hash of a method's original bytecode, if the run loaded its class.
    fn code_hash(&self, method: &MethodKey) -> HeapResult<Option<[u8; 16]>>;
    /// The value of a static field (`pkg.Class.field`) at `at`, if it was ever written by then.
    fn static_at(&self, field: &str, at: Timestamp) -> HeapResult<Option<Value>>;

    /// Visits the events of `node`'s subtree in timestamp order (its thread's events from its
    /// entry to its exit) until `visit` returns false. `Ok(false)` when the run does not have
    /// its events (hand-made runs of tests): the oracle then compares whole states instead of
    /// footprints (`super::footprint`).
    fn visit_events(
        &self,
        node: NodeId,
        visit: &mut dyn FnMut(&Event) -> bool,
    ) -> HeapResult<bool> {
        let _ = (node, visit);
        Ok(false)
    }
    /// The value of an instance field at `at` (its default for an object application code
    /// created and never wrote); `None` when unknown.
    fn field_value(
        &self,
        object: ObjectId,
        field: FieldId,
        at: Timestamp,
    ) -> HeapResult<Option<Value>> {
        let _ = (object, field, at);
        Ok(None)
    }
    /// An array element at `at`; `None` when unknown.
    fn element_value(
        &self,
        array: ObjectId,
        index: u32,
        at: Timestamp,
    ) -> HeapResult<Option<Value>> {
        Ok(self
            .elements_at(array, at, index..index.saturating_add(1))?
            .first()
            .copied()
            .flatten())
    }
    /// A static field by id at `at`; `None` when unknown.
    fn static_value(&self, field: FieldId, at: Timestamp) -> HeapResult<Option<Value>> {
        let _ = (field, at);
        Ok(None)
    }
    /// A field's simple name and, for a static one, its class: `(class, name)`.
    fn field_name(&self, field: FieldId) -> HeapResult<(String, String)> {
        Ok((String::new(), format!("#{field}")))
    }
    /// A method as `pkg.Class.name(descriptor)`.
    fn method_text(&self, method: MethodId) -> HeapResult<String> {
        Ok(format!("#{method}"))
    }
}
