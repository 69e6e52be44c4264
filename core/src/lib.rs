//! Hindsight's core library: everything that decides, indexes, stores or searches.
//!
//! See `docs/ARCHITECTURE.md` for the map of modules and the invariants they keep.

pub mod debugger;
pub mod ids;
pub mod recording;
pub mod omniscient;
pub mod trace;
pub mod tree;
