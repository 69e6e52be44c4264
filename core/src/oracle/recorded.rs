//! A recorded run as the oracle reads it: the [`RecordedRun`] trait (calls, children, code
//! hashes, statics, over the run's heap) and what it says of one call ([`CallView`]). The
//! reference oracle reads two of them, rule 3 one; `super::trace_run` implements the trait over
//! a trace file, the tests in memory.

use crate::ids::{NodeId, Timestamp};
use crate::omniscient::{Heap, HeapResult};
use crate::trace::wire::Value;
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
}
