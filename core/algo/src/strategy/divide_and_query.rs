//! Divide and query (Shapiro), as DESIGN.md defines it: the weight of a node is the number of
//! suspicious nodes in its subtree, w(a) = |S_a ∩ A|; ask the askable node whose weight is
//! closest to half the suspicious set's weight W = |A| (the region root, known invalid, is
//! counted in W but never asked). Ties go to the earliest call (smallest node id, the first in
//! preorder within a thread).
//!
//! Weights are maintained incrementally by the suspicious set; selection looks only at the
//! path of nodes heavier than W/2 and their children (see `half_candidates`).

use super::{closest_to_half, half_candidates, Measure, Strategy, StrategyName};
use crate::ids::NodeId;
use crate::session::SuspiciousSet;

#[derive(Clone, Copy, Debug, Default)]
pub struct DivideAndQuery;

impl Strategy for DivideAndQuery {
    fn name(&self) -> StrategyName {
        StrategyName::DivideAndQuery
    }

    fn select(&mut self, set: &SuspiciousSet) -> Option<NodeId> {
        let total = Measure::Count.total(set);
        closest_to_half(half_candidates(set, total, Measure::Count), total)
    }
}
