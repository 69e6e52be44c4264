//! Strategies: which suspicious node to ask next.
//!
//! A strategy is a selection function over the [`SuspiciousSet`], which keeps every invariant
//! (membership, region, trust, don't-know marks, incremental weights); the strategy only reads
//! it. All strategies ask only askable nodes (complete, untrusted, unanswered calls inside the
//! region), never re-ask a don't-know node, and return `None` only when no askable node is
//! left, so the session then decides the verdict.
//!
//! The session declares what it needs of a strategy (the [`Strategy`] trait, [`StrategyName`],
//! [`Weighting`]), so that it does not depend on this module; this module implements the trait
//! and is the catalogue: [`create`] builds every [`StrategyName`], names parsed with their errors.

mod coverage;
mod divide_and_query;
mod heaviest_first;
mod hirunkitti;
pub mod optimal;
mod top_down;

pub mod bench;
pub mod eval;

pub use coverage::CoverageDivideAndQuery;
pub use divide_and_query::DivideAndQuery;
pub use heaviest_first::HeaviestFirst;
pub use hirunkitti::Hirunkitti;
pub use optimal::Optimal;
pub use top_down::TopDown;

use std::str::FromStr;

use thiserror::Error;

pub use crate::session::{Strategy, StrategyName, Weighting};

use crate::ids::NodeId;
use crate::session::{Answer, ChildView, SuspiciousSet, Walk};
use crate::tree::CoverageKind;

#[derive(Debug, Error, PartialEq)]
pub enum StrategyError {
    #[error("`{0}` is not a strategy; use one of top-down, heaviest-first, divide-and-query, hirunkitti, edge-coverage, def-use-coverage, optimal")]
    Unknown(String),
    #[error("p applies only to edge-coverage and def-use-coverage, not to {0}")]
    PNotApplicable(StrategyName),
    #[error("p must be a number between 0 and 1, got {0}")]
    InvalidP(f64),
}

impl FromStr for StrategyName {
    type Err = StrategyError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        StrategyName::ALL
            .into_iter()
            .find(|n| n.as_str() == s)
            .ok_or_else(|| StrategyError::Unknown(s.to_string()))
    }
}

/// Builds a strategy; `p` overrides the coverage strategies' default factor.
pub fn create(name: StrategyName, p: Option<f64>) -> Result<Box<dyn Strategy>, StrategyError> {
    if let Some(p) = p {
        if name.default_p().is_none() {
            return Err(StrategyError::PNotApplicable(name));
        }
        if !(0.0..=1.0).contains(&p) {
            return Err(StrategyError::InvalidP(p));
        }
    }
    Ok(match name {
        StrategyName::TopDown => Box::new(TopDown),
        StrategyName::HeaviestFirst => Box::new(HeaviestFirst),
        StrategyName::DivideAndQuery => Box::new(DivideAndQuery),
        StrategyName::Hirunkitti => Box::new(Hirunkitti),
        StrategyName::EdgeCoverage => Box::new(CoverageDivideAndQuery::new(
            CoverageKind::Edge,
            p.unwrap_or(0.5),
        )),
        StrategyName::DefUseCoverage => Box::new(CoverageDivideAndQuery::new(
            CoverageKind::DefUse,
            p.unwrap_or(0.6),
        )),
        StrategyName::Optimal => Box::new(Optimal::default()),
    })
}

/// The askable nodes reachable from the region root without passing another askable node:
/// the nodes top-down search chooses among. Non-askable nodes on the way (trusted, incomplete,
/// thread, don't-know) are looked through, their children taking their place.
pub(crate) fn frontier(set: &SuspiciousSet, mut visit: impl FnMut(NodeId) -> Walk) {
    let root = set.region_root();
    set.walk(|x| {
        if x == root {
            Walk::Descend
        } else if set.is_askable(x) {
            match visit(x) {
                Walk::Stop => Walk::Stop,
                _ => Walk::Skip,
            }
        } else {
            Walk::Descend
        }
    });
}

/// What the divide and query strategies weigh a node by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Measure {
    /// The number of suspicious nodes in its subtree.
    Count,
    /// Its coverage-based weight.
    Coverage,
}

impl Measure {
    /// The weight of the whole suspicious set.
    pub(crate) fn total(self, set: &SuspiciousSet) -> f64 {
        match self {
            Measure::Count => f64::from(set.total_weight()),
            Measure::Coverage => set.coverage_total(),
        }
    }

    pub(crate) fn of(self, set: &SuspiciousSet, x: NodeId) -> f64 {
        match self {
            Measure::Count => f64::from(set.weight(x)),
            Measure::Coverage => set.coverage_weight(x),
        }
    }

    fn of_child(self, c: &ChildView) -> f64 {
        match self {
            Measure::Count => f64::from(c.count),
            Measure::Coverage => c.coverage,
        }
    }
}

/// The askable nodes, each with its weight by `measure`, among which the node closest to half
/// of `total` (and Hirunkitti's two candidates) must lie, found without visiting the whole
/// region.
///
/// The nodes heavier than half form a path H from the region root (two of them cannot be
/// disjoint). Any node y lighter than half has an ancestor-or-self z that is a child of a node
/// of H; w(z) >= w(y), so z is at least as close to half as y, and earlier (a smaller id). So the
/// answer is an askable node of H or of the children of H, or, when such a child is not
/// askable itself (trusted, incomplete, don't-know), an askable node of its subtree: those
/// subtrees are visited down to their topmost askable nodes, which weigh at least as much as
/// any node below them. Weights must be non-negative and never larger than a parent's. The
/// children of H are read through [`SuspiciousSet::children_view`], which keeps them between
/// questions.
pub(crate) fn half_candidates(
    set: &SuspiciousSet,
    total: f64,
    measure: Measure,
) -> Vec<(NodeId, f64)> {
    let mut out = Vec::new();
    // The topmost askable nodes below `x`: a node below an askable one weighs no more than it
    // and comes later, so it is never closer to half (and loses ties).
    let push_askable = |out: &mut Vec<(NodeId, f64)>, x: NodeId| {
        set.walk_from(x, |y| {
            if set.is_askable(y) {
                out.push((y, measure.of(set, y)));
                Walk::Skip
            } else {
                Walk::Descend
            }
        })
    };
    let root = set.region_root();
    if total <= 0.0 {
        push_askable(&mut out, root);
        return out;
    }
    let mut x = root;
    let mut children = Vec::new();
    loop {
        if set.is_askable(x) {
            out.push((x, measure.of(set, x)));
        }
        set.children_view(x, &mut children);
        let mut heavy = None;
        for c in &children {
            if c.mark == Some(Answer::Valid) || c.count == 0 {
                continue;
            }
            let w = measure.of_child(c);
            if 2.0 * w > total {
                heavy = Some(c.id);
            } else if c.is_askable(root) {
                out.push((c.id, w));
            } else {
                push_askable(&mut out, c.id);
            }
        }
        match heavy {
            Some(h) => x = h,
            None => return out,
        }
    }
}

/// The candidate whose weight is closest to half of `total`; the earliest (smallest id) on ties.
pub(crate) fn closest_to_half(
    candidates: impl IntoIterator<Item = (NodeId, f64)>,
    total: f64,
) -> Option<NodeId> {
    candidates
        .into_iter()
        .map(|(x, w)| ((2.0 * w - total).abs(), x))
        .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
        .map(|(_, x)| x)
}

/// Every askable node of the region (the reference the fast candidate search is tested
/// against).
#[cfg(test)]
pub(crate) fn all_askable(set: &SuspiciousSet) -> Vec<NodeId> {
    let mut out = Vec::new();
    set.walk(|y| {
        if set.is_askable(y) {
            out.push(y);
        }
        Walk::Descend
    });
    out
}

#[cfg(test)]
mod tests;
