//! Omniscient state: values of a recorded run at any timestamp, as a person reads them
//! (`render`) and as the reference oracle compares them (`canonical`); and the back-in-time
//! queries over a trace: variable paths (`path`, `resolve`), the state of a call at any moment
//! (`state`) and of a chain of calls (`chain`), a call's event list (`events`), a variable's
//! history (`history`) and the origin of a value (`origin`).
//!
//! The value algorithms read the heap through the [`Heap`] trait, which the trace reader
//! implements, and are tested on in-memory heaps; the queries read a `TraceReader` and return
//! plain serde structs, for the command line and the JNI bridge alike.

mod canonical;
mod chain;
mod error;
pub mod events;
mod heap;
pub mod history;
mod inputs;
pub mod names;
mod origin;
pub mod path;
mod render;
mod resolve;
mod site;
pub mod state;
mod trace_heap;

/// A variable of the store: what a path resolves to (the store's `Location`; the store on
/// `lead` names it `Variable`, and this becomes a plain re-export there).
pub use crate::trace::store::Variable;
pub(crate) use canonical::compares_by_class;
pub(crate) use canonical::is_default;
pub use canonical::{canonical_state, CanonicalState};
pub use chain::chain_state;
pub use error::{OmniError, OmniResult};
pub use events::{describe_event, node_events, EventMark, EventPage, EventRow};
pub use heap::{simple_class_name, Heap, HeapError, HeapResult, ObjectInfo};
pub use history::{history, History, HistoryEntry};
pub use inputs::{line_inputs, read_inputs, Input, InputSource};
pub use origin::{origin, SourceLookup, ValueOrigin, WriteOrigin};
pub use path::{PathRoot, PathSyntaxError, Step, VarPath};
pub use render::{render_value, RenderLimits};
pub use resolve::{default_time, resolve, Resolved};
pub use site::{write_site, WriteSite};
pub use state::{children_of, frame_state, node_state, Children, Mark, NodeState, VarState};

#[cfg(test)]
pub(crate) mod testing;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_origin;
