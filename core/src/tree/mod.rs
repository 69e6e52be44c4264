//! Execution trees: the nodes the recorder produces and the in-memory skeleton the strategies
//! walk.

mod node;

pub use node::{NodeHeader, NodeKind};
