//! Heaviest first (Binks): top-down search that, among the candidates top-down would choose
//! from, asks the one with the biggest subtree.
//!
//! Definition used: among the askable nodes with no askable ancestor inside the region (the
//! top-down frontier, trusted/incomplete/don't-know nodes looked through), the one with the
//! largest weight w(a) = number of suspicious nodes in a's subtree; the first in call order on
//! ties.

use super::{frontier, Strategy, StrategyName};
use crate::ids::NodeId;
use crate::session::{SuspiciousSet, Walk};

#[derive(Clone, Copy, Debug, Default)]
pub struct HeaviestFirst;

impl Strategy for HeaviestFirst {
    fn name(&self) -> StrategyName {
        StrategyName::HeaviestFirst
    }

    fn select(&mut self, set: &SuspiciousSet) -> Option<NodeId> {
        let mut best: Option<(u32, NodeId)> = None;
        frontier(set, |x| {
            let w = set.weight(x);
            if best.is_none_or(|(bw, _)| w > bw) {
                best = Some((w, x));
            }
            Walk::Skip
        });
        best.map(|(_, x)| x)
    }
}
