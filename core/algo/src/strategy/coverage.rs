//! Coverage-based divide and query (the jhyde paper, section 2.4; DESIGN.md):
//! cbw(a) = Σ over suspicious nodes b in a's subtree of Σ over entities e covered by b itself of
//! p^v(e), where v(e) is the number of nodes answered valid that cover e (only nodes answered
//! valid, not their descendants, which are valid by implication). Ask the askable node whose
//! cbw is closest to half the set's total CBW; ties go to the earliest call (smallest id).
//!
//! `edge-coverage` uses CFG edges with p = 0.5, `def-use-coverage` def-use chains with p = 0.6;
//! p is configurable. The suspicious set maintains cbw incrementally (a valid answer lowers the
//! contribution of its entities in every suspicious node that covers them).

use super::{closest_to_half, half_candidates, Measure, Strategy, StrategyName};
use crate::ids::NodeId;
use crate::session::{SuspiciousSet, Weighting};
use crate::tree::CoverageKind;

#[derive(Clone, Copy, Debug)]
pub struct CoverageDivideAndQuery {
    kind: CoverageKind,
    p: f64,
}

impl CoverageDivideAndQuery {
    pub fn new(kind: CoverageKind, p: f64) -> Self {
        CoverageDivideAndQuery { kind, p }
    }

    pub fn p(&self) -> f64 {
        self.p
    }
}

impl Strategy for CoverageDivideAndQuery {
    fn name(&self) -> StrategyName {
        match self.kind {
            CoverageKind::Edge => StrategyName::EdgeCoverage,
            CoverageKind::DefUse => StrategyName::DefUseCoverage,
        }
    }

    fn weighting(&self) -> Weighting {
        Weighting::Coverage {
            kind: self.kind,
            p: self.p,
        }
    }

    fn select(&mut self, set: &SuspiciousSet) -> Option<NodeId> {
        let total = Measure::Coverage.total(set);
        closest_to_half(half_candidates(set, total, Measure::Coverage), total)
    }
}
