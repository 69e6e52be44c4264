//! Hindsight's core library: everything that decides, indexes, stores or searches.
//!
//! See `docs/ARCHITECTURE.md` for the map of modules and the invariants they keep.

pub mod coverage;
pub mod debugger;
pub mod evaluation;
pub mod glob;
pub mod ids;
pub mod omniscient;
pub mod oracle;
pub mod recording;
pub mod session;
pub mod strategy;
pub mod trace;
pub mod tree;

#[cfg(test)]
mod testutil;
