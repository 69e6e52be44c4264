//! What the session needs of a strategy: the [`Strategy`] trait it asks for the next question,
//! and the names strategies go by. Declared here rather than in `crate::strategy`, which
//! implements them, so that the session never depends on the strategies (they depend on the
//! session's suspicious set).

use std::fmt;

use serde::{Deserialize, Serialize};

use super::suspicious::{SuspiciousSet, Weighting};
use crate::ids::NodeId;
use crate::tree::CoverageKind;

/// Chooses the next question.
pub trait Strategy: Send {
    fn name(&self) -> StrategyName;

    /// The aggregate the session must maintain for this strategy.
    fn weighting(&self) -> Weighting {
        Weighting::Count
    }

    /// The node to ask next, or `None` when no askable node is left.
    fn select(&mut self, set: &SuspiciousSet) -> Option<NodeId>;
}

/// The strategies by their command-line names; `crate::strategy::create` builds each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum StrategyName {
    TopDown,
    HeaviestFirst,
    DivideAndQuery,
    Hirunkitti,
    EdgeCoverage,
    DefUseCoverage,
    Optimal,
}

impl StrategyName {
    pub const ALL: [StrategyName; 7] = [
        StrategyName::TopDown,
        StrategyName::HeaviestFirst,
        StrategyName::DivideAndQuery,
        StrategyName::Hirunkitti,
        StrategyName::EdgeCoverage,
        StrategyName::DefUseCoverage,
        StrategyName::Optimal,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            StrategyName::TopDown => "top-down",
            StrategyName::HeaviestFirst => "heaviest-first",
            StrategyName::DivideAndQuery => "divide-and-query",
            StrategyName::Hirunkitti => "hirunkitti",
            StrategyName::EdgeCoverage => "edge-coverage",
            StrategyName::DefUseCoverage => "def-use-coverage",
            StrategyName::Optimal => "optimal",
        }
    }

    /// The coverage a strategy weighs calls by, if any.
    pub fn coverage_kind(self) -> Option<CoverageKind> {
        match self {
            StrategyName::EdgeCoverage => Some(CoverageKind::Edge),
            StrategyName::DefUseCoverage => Some(CoverageKind::DefUse),
            _ => None,
        }
    }

    /// The default p of the coverage-weighted strategies (the jhyde paper's values).
    pub fn default_p(self) -> Option<f64> {
        match self {
            StrategyName::EdgeCoverage => Some(0.5),
            StrategyName::DefUseCoverage => Some(0.6),
            _ => None,
        }
    }
}

impl fmt::Display for StrategyName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
