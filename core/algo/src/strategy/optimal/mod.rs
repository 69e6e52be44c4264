//! Strategy `optimal`: the fewest questions in the worst case, on the current suspicious set.
//!
//! The suspects form a tree: the askable nodes, each hanging below its nearest askable
//! ancestor, the region root on top (the nodes that cannot be asked, trusted, don't-know,
//! incomplete, are merged into the askable node above them: no question can separate them from
//! it). Asking a node is a query on the edge above it, so the optimal strategy asks the node
//! whose edge has the largest label in an optimal edge ranking of that tree ([`ranking`]).
//!
//! Many questions are worst-case optimal besides the top label's: any whose two parts can each
//! be searched with one question fewer. Among them the strategy asks, as divide and query does,
//! the one whose subtree weighs closest to half the suspects (trying the candidates of
//! [`half_candidates`], nearest half first, up to [`TRIED`]), so that it asks the fewest
//! questions in the worst case and, within that, few on average; else the top label's.
//!
//! The ranking is in memory, about 50 bytes a suspect; while the region holds more suspects
//! than the tree's persistence bound, the strategy asks as divide and query does, and ranks the
//! region once it fits: worst-case optimal from there on, memory bounded throughout.
//!
//! The ranking is kept between questions: after "invalid" the answered node's subtree keeps its
//! labels (they are that subtree's optimal ranking), after "valid" its subtree leaves and only
//! its ancestors are relabelled. Anything else (don't know, trust, undo, nodes arriving) builds
//! the tree and its ranking again, so the strategy is optimal on the set as it is after trust
//! and don't know too.

pub mod ranking;

use self::ranking::EdgeRanking;
use super::{half_candidates, DivideAndQuery, Measure, Strategy, StrategyName};
use crate::ids::NodeId;
use crate::session::{Answer, SuspiciousSet, Walk};

/// Candidates nearest half tried before the top label's question: each costs a relabelling of
/// its ancestors on copies.
pub const TRIED: usize = 4;

#[derive(Default)]
pub struct Optimal {
    cache: Option<Suspects>,
}

impl Strategy for Optimal {
    fn name(&self) -> StrategyName {
        StrategyName::Optimal
    }

    fn select(&mut self, set: &SuspiciousSet) -> Option<NodeId> {
        if set
            .tree()
            .resident_nodes()
            .is_some_and(|bound| set.total_weight() as usize > bound)
        {
            // The ranking lives in memory (about 50 bytes a suspect): beyond the persistence
            // bound it would hold more than the bound lets the tree hold, so the strategy asks
            // as divide and query does until the region fits.
            self.cache = None;
            return DivideAndQuery.select(set);
        }
        let reusable = self.cache.as_mut().is_some_and(|s| s.follow(set));
        if !reusable {
            self.cache = Some(Suspects::build(set));
        }
        self.cache.as_mut().and_then(|s| s.ask(set))
    }
}

/// The tree of suspects with its ranking, as of a revision of the suspicious set.
struct Suspects {
    revision: u64,
    /// Per vertex, its node (vertex 0: the region root when built).
    node: Vec<NodeId>,
    /// (node, vertex), by node.
    by_node: Vec<(NodeId, u32)>,
    ranking: EdgeRanking,
    /// The vertex the current region hangs from.
    root: u32,
    /// The last question: its vertex and the weight of its subtree then.
    asked: Option<(u32, u32)>,
    total: u32,
}

impl Suspects {
    fn build(set: &SuspiciousSet) -> Self {
        let tree = set.tree();
        let region = set.region_root();
        let mut node = vec![region];
        let mut parent = vec![0u32];
        // The walk is in preorder: a stack of (node, vertex of its nearest askable
        // ancestor-or-self) ends at the parent of the node visited.
        let mut stack: Vec<(NodeId, u32)> = Vec::new();
        set.walk(|x| {
            if x == region {
                stack.push((x, 0));
                return Walk::Descend;
            }
            let p = tree.parent(x);
            while stack.last().is_some_and(|&(y, _)| Some(y) != p) {
                stack.pop();
            }
            let above = stack.last().map_or(0, |&(_, v)| v);
            let own = if set.is_askable(x) {
                node.push(x);
                parent.push(above);
                (node.len() - 1) as u32
            } else {
                above
            };
            stack.push((x, own));
            Walk::Descend
        });
        let mut by_node: Vec<(NodeId, u32)> = node
            .iter()
            .enumerate()
            .map(|(v, &x)| (x, v as u32))
            .collect();
        by_node.sort_unstable();
        Suspects {
            revision: set.revision(),
            node,
            by_node,
            ranking: EdgeRanking::new(parent),
            root: 0,
            asked: None,
            total: set.total_weight(),
        }
    }

    /// Brings the ranking up to date with `set` if the only change since is the answer to the
    /// last question; false when it must be built again.
    fn follow(&mut self, set: &SuspiciousSet) -> bool {
        if set.revision() == self.revision {
            return true;
        }
        let Some((v, weight)) = self.asked else {
            return false;
        };
        if set.revision() != self.revision + 1 {
            return false;
        }
        let x = self.node[v as usize];
        let total = set.total_weight();
        if set.region_root() == x && total == weight {
            self.root = v;
        } else if set.mark(x) == Some(Answer::Valid) && total + weight == self.total {
            self.ranking.remove(v, self.root);
        } else {
            return false;
        }
        self.revision = set.revision();
        self.total = total;
        self.asked = None;
        true
    }

    /// The question to ask: a worst-case-optimal one nearest half the suspects' weight, else
    /// the node whose edge has the largest label below the region's vertex.
    fn ask(&mut self, set: &SuspiciousSet) -> Option<NodeId> {
        let top = self.ranking.worst_case(self.root);
        let total = Measure::Count.total(set);
        let mut candidates = half_candidates(set, total, Measure::Count);
        candidates.sort_by(|&(a, wa), &(b, wb)| {
            let off = |w: f64| (2.0 * w - total).abs();
            off(wa).total_cmp(&off(wb)).then(a.cmp(&b))
        });
        // A candidate whose own subtree needs `top` questions is out at no cost; the others
        // cost a relabelling of their ancestors each, so at most TRIED are tried.
        let balanced = candidates
            .into_iter()
            .filter_map(|(x, _)| self.vertex(x))
            .filter(|&v| v != self.root && self.ranking.worst_case(v) < top)
            .take(TRIED)
            .find(|&v| self.ranking.worst_case_without(v, self.root) < top);
        let v = match balanced {
            Some(v) => v,
            None => self.ranking.first_query(self.root)?,
        };
        let x = self.node[v as usize];
        self.asked = Some((v, set.weight(x)));
        Some(x)
    }

    fn vertex(&self, x: NodeId) -> Option<u32> {
        let i = self.by_node.binary_search_by_key(&x, |&(n, _)| n).ok()?;
        Some(self.by_node[i].1)
    }
}

#[cfg(test)]
mod tests;
