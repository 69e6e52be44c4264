//! The identifiers shared by every part of the core.
//!
//! Ids are small copyable newtypes so that a node id can never be passed where a method id is
//! expected. Numbering is decided by the recorder (`trace::recorder`) and is stable in a trace.

use serde::{Deserialize, Serialize};

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident($inner:ty)) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub $inner);

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.0.fmt(f)
            }
        }
    };
}

id_type!(
    /// An execution node. Node 0 is the run's root; ids grow in the order calls are recorded.
    NodeId(u32)
);
id_type!(
    /// A method, instrumented or not, as defined by a `METHOD` frame of the wire format.
    MethodId(u32)
);
id_type!(
    /// A class (array classes included), as defined by a `CLASS` frame.
    ClassId(u32)
);
id_type!(
    /// A field named by application bytecode, as defined by a `FIELD` frame.
    FieldId(u32)
);
id_type!(
    /// A thread of the debuggee, as defined by a `THREAD` frame.
    ThreadId(u32)
);
id_type!(
    /// An object or array of the debuggee; unique within a trace.
    ObjectId(u64)
);
id_type!(
    /// The content of a string, defined by a `STRING` event.
    StringId(u64)
);

/// A position in the run: one tick per event, global to the JVM, so timestamps totally order
/// every event of a trace.
pub type Timestamp = u64;

impl NodeId {
    /// The run itself: the parent of every thread's subtree.
    pub const ROOT: NodeId = NodeId(0);
}
