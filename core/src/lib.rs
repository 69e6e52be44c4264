//! Hindsight's core library: everything that decides, indexes, stores or searches.
//!
//! The pure algorithmic-debugging layer (execution tree, session, strategies) is the crate
//! `hindsight-algo`, re-exported here under the same module names so that front ends need only
//! this crate. See `docs/ARCHITECTURE.md` for the map of modules, their layers and the
//! invariants they keep.

pub use hindsight_algo::{glob, ids, session, strategy, tree};

pub mod capture;
pub mod coverage;
pub mod debugger;
pub mod evaluation;
pub mod loops;
pub mod omniscient;
pub mod oracle;
pub mod query;
pub mod scratch;
pub mod trace;
