//! Omniscient state: values of a recorded run at any timestamp, as a person reads them
//! (`render`) and as the reference oracle compares them (`canonical`).
//!
//! Everything here reads the heap through the [`Heap`] trait, which the trace reader
//! implements; the algorithms do no IO and are tested on in-memory heaps.

mod canonical;
mod heap;
mod render;
mod trace_heap;

pub use canonical::{canonical_state, CanonicalState};
pub use heap::{simple_class_name, Heap, HeapError, HeapResult, ObjectInfo};
pub use render::{render_value, RenderLimits};

#[cfg(test)]
pub(crate) mod testing;
