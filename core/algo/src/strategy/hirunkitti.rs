//! Hirunkitti and Hogger's divide and query ("A Generalised Query Minimisation for Program
//! Debugging", AADEBUG 1993), as public descriptions of it state it (Insa & Silva, "Optimal
//! Divide and Query", 2011, summarising it): Shapiro's algorithm asks the lightest node whose
//! weight is at least half the suspicious set's weight; Hirunkitti's improvement also considers
//! the heaviest node whose weight is at most half, and asks whichever of the two is closer to
//! half.
//!
//! Definition used: W = number of suspicious nodes, w(a) = suspicious nodes in a's subtree;
//! `ge` = the askable node with the smallest w ≥ W/2, `le` = the askable node with the largest
//! w ≤ W/2 (the earliest call among equals); ask `le` if W/2 − w(le) < w(ge) − W/2, else `ge`
//! (Shapiro's choice wins ties); if only one exists, ask it. It differs from
//! `divide-and-query` (closest to half, first in preorder) only in how ties are broken.

use super::{half_candidates, Measure, Strategy, StrategyName};
use crate::ids::NodeId;
use crate::session::SuspiciousSet;

#[derive(Clone, Copy, Debug, Default)]
pub struct Hirunkitti;

impl Strategy for Hirunkitti {
    fn name(&self) -> StrategyName {
        StrategyName::Hirunkitti
    }

    fn select(&mut self, set: &SuspiciousSet) -> Option<NodeId> {
        let total = set.total_weight();
        let candidates = half_candidates(set, f64::from(total), Measure::Count);
        // Counts are whole numbers: the f64 holds them exactly.
        choose(total, candidates.into_iter().map(|(x, w)| (x, w as u32)))
    }
}

/// Hirunkitti's rule over `candidates` with their weights (which must contain both of its
/// candidate nodes).
pub(crate) fn choose(
    total: u32,
    candidates: impl IntoIterator<Item = (NodeId, u32)>,
) -> Option<NodeId> {
    let total = u64::from(total);
    let mut le: Option<(u64, NodeId)> = None;
    let mut ge: Option<(u64, NodeId)> = None;
    for (x, w) in candidates {
        let w2 = 2 * u64::from(w);
        if w2 <= total && le.is_none_or(|(b, n)| w2 > b || w2 == b && x < n) {
            le = Some((w2, x));
        }
        if w2 >= total && ge.is_none_or(|(b, n)| w2 < b || w2 == b && x < n) {
            ge = Some((w2, x));
        }
    }
    match (le, ge) {
        (Some((l, ln)), Some((g, gn))) => Some(if total - l < g - total { ln } else { gn }),
        (Some((_, n)), None) | (None, Some((_, n))) => Some(n),
        (None, None) => None,
    }
}
