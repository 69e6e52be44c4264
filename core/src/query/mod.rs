//! Asking the whole history (JavaTA, `../shared/papers/javata-logic-debugger.txt`): the
//! built-in query catalogue over a trace (`catalogue`: call chains, where an exception was
//! thrown, object states, field histories, calls of a method, was a line executed, ...), SQL
//! over relations that expose the trace's event blocks (`sql`), the run as Java Event Log facts
//! for Prolog (`jel`), and the comparison of two runs (`diff`).
//!
//! The queries read a `TraceReader` and return serde structs; the command line prints them and
//! the JNI bridge passes them on as JSON ([`catalogue::run_json`], [`sql::run_json`]). Queries
//! that must look at every event go through [`scan`], one pass in time order with a progress
//! callback; the others answer from the node rows, the change index and single event blocks.

pub mod calls;
pub mod catalogue;
pub mod chain;
pub mod diff;
mod error;
pub mod exceptions;
pub mod executed;
pub mod jel;
pub mod literal;
pub mod methods;
pub mod objects;
pub mod refs;
pub mod scan;
pub mod sql;
pub mod tree;
pub mod values;

pub use catalogue::{run, run_json, Answer, Request, NAMES};
pub use error::{QueryError, QueryResult};
pub use scan::{ScanProgress, Span};

#[cfg(test)]
mod tests;
