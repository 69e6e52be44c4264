//! Execution trees: the nodes the recorder produces and the in-memory skeleton the strategies
//! walk.

pub(crate) mod column;
mod coverage;
mod execution;
pub mod forest;
mod node;
pub mod synthetic;
mod weights;

#[cfg(test)]
mod tests;

pub use column::{
    MemoryPages, PageStorage, PageStore, PersistenceBound, FOREST_BASE, PAGE as PAGE_ENTRIES,
};
pub use execution::{
    Change, CoverageIter, CoverageKind, ExecutionTree, ForestOptions, Preorder, TreeError,
};
pub use node::{NodeHeader, NodeKind};
pub use weights::subtree_weights;
