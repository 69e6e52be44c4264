//! Top-down search (Av-Ron; the balanced-ET paper, section 2): a left-to-right, top-down
//! traversal. After an invalid answer the next question is the node's first askable child;
//! after a valid one, its next askable sibling.
//!
//! Definition used: the first node in preorder of the region that is askable and has no askable
//! ancestor inside the region. Trusted, incomplete and don't-know nodes are looked through: their
//! children are asked in their place (the virtual-execution-tree paper's redefinition for
//! incomplete trees: "the descendants that are completed and that do not have a completed
//! ancestor"). Because the choice is a function of the suspicious set alone, undo needs no
//! extra state.

use super::{frontier, Strategy, StrategyName};
use crate::ids::NodeId;
use crate::session::{SuspiciousSet, Walk};

#[derive(Clone, Copy, Debug, Default)]
pub struct TopDown;

impl Strategy for TopDown {
    fn name(&self) -> StrategyName {
        StrategyName::TopDown
    }

    fn select(&mut self, set: &SuspiciousSet) -> Option<NodeId> {
        let mut found = None;
        frontier(set, |x| {
            found = Some(x);
            Walk::Stop
        });
        found
    }
}
