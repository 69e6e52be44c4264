//! A recorded run as the oracle reads it: the [`RecordedRun`] trait (calls, children, code
//! hashes, statics, over the run's heap) and what it says of one call ([`CallView`]). The
//! reference oracle reads two of them, rule 3 one; `super::trace_run` implements the trait over
//! a trace file, the tests in memory.

use crate::ids::{NodeId, Timestamp};
use crate::omniscient::{Heap, HeapResult};
use crate::trace::wire::Value;

/// A method as both programs name it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MethodKey {
    /// Dotted class name.
    pub class: String,
    pub name: String,
    pub descriptor: String,
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
    /// The node's children that are calls, in call order.
    fn children(&self, node: NodeId) -> HeapResult<Vec<NodeId>>;
    /// Every call of `method`, in call order.
    fn calls_of(&self, method: &MethodKey) -> HeapResult<Vec<NodeId>>;
    /// The hash of a method's original bytecode, if the run loaded its class.
    fn code_hash(&self, method: &MethodKey) -> HeapResult<Option<[u8; 16]>>;
    /// The value of a static field (`pkg.Class.field`) at `at`, if it was ever written by then.
    fn static_at(&self, field: &str, at: Timestamp) -> HeapResult<Option<Value>>;
}
