//! Changes to many nodes' aggregates, summed up their paths at once.
//!
//! `SuspiciousSet::add_along` adds a change to a node and to each ancestor that counts it, one
//! node at a time. For 10^5-10^6 nodes (coverage updates settled beyond the persistence bound)
//! that writes every shared ancestor once per node below it, jumping between spilled pages.
//! Here each node of the union of the paths is visited once, its parent asked once, and the sums
//! come out by increasing id, for one pass over the columns. In a plain tree, where parents
//! have smaller ids than their children, the nodes are taken by decreasing id
//! ([`along_ordered_paths`]): a node's sum is final when it is taken, and only the parents still
//! to take are kept, in a heap. The forest's nodes break that order: [`along_paths`] counts
//! each node's children in the union instead and passes a sum up once all have passed theirs.

use std::cmp::Ordering;
use std::collections::binary_heap::PeekMut;
use std::collections::BinaryHeap;

use rustc_hash::FxHashMap;

use crate::ids::NodeId;

/// A change to a node's closed aggregates: its suspicious-node count and coverage weight.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Delta {
    pub node: NodeId,
    pub count: i64,
    pub coverage: f64,
}

/// What [`along_paths`] found.
#[derive(Debug)]
pub(super) struct Paths {
    /// The change of every node on the paths, by increasing id.
    pub sums: Vec<Delta>,
    /// The nodes where a path ended (those `up` gave nothing for).
    pub ends: Vec<NodeId>,
}

/// A node of the union of the paths.
#[derive(Default)]
struct Step {
    /// Whether `up` was asked for it (its path above is in the union).
    known: bool,
    up: Option<NodeId>,
    /// Its children in the union that have not passed their sum up yet.
    waiting: u32,
    count: i64,
    coverage: f64,
}

/// The changes `deltas` bring to every node on their paths: `up(x)` is the node that counts
/// `x`'s aggregate in its own (`None` where the path ends). A node may appear in several deltas.
pub(super) fn along_paths(deltas: &[Delta], mut up: impl FnMut(NodeId) -> Option<NodeId>) -> Paths {
    let mut steps: FxHashMap<NodeId, Step> = FxHashMap::default();
    let mut ends = Vec::new();
    for d in deltas {
        let mut x = d.node;
        loop {
            let step = steps.entry(x).or_default();
            if step.known {
                break;
            }
            step.known = true;
            step.up = up(x);
            let Some(p) = step.up else {
                ends.push(x);
                break;
            };
            steps.entry(p).or_default().waiting += 1;
            x = p;
        }
        let step = steps.entry(d.node).or_default();
        step.count += d.count;
        step.coverage += d.coverage;
    }
    let mut ready: Vec<NodeId> = steps
        .iter()
        .filter(|(_, s)| s.waiting == 0)
        .map(|(&x, _)| x)
        .collect();
    let mut sums = Vec::with_capacity(steps.len());
    while let Some(x) = ready.pop() {
        let Some(step) = steps.get(&x) else { continue };
        let (p, count, coverage) = (step.up, step.count, step.coverage);
        sums.push(Delta {
            node: x,
            count,
            coverage,
        });
        let Some(p) = p else { continue };
        if let Some(parent) = steps.get_mut(&p) {
            parent.count += count;
            parent.coverage += coverage;
            parent.waiting -= 1;
            if parent.waiting == 0 {
                ready.push(p);
            }
        }
    }
    sums.sort_unstable_by_key(|d| d.node.0);
    Paths { sums, ends }
}

/// [`along_paths`] where `up(x)` is always smaller than `x` (a plain tree), with `deltas`
/// sorted by id. Cheaper: no map, and the parents still to take stay few.
pub(super) fn along_ordered_paths(
    deltas: &[Delta],
    mut up: impl FnMut(NodeId) -> Option<NodeId>,
) -> Paths {
    debug_assert!(deltas.windows(2).all(|w| w[0].node <= w[1].node));
    let mut deltas = deltas.iter().rev().peekable();
    let mut parents: BinaryHeap<ById> = BinaryHeap::new();
    let mut sums = Vec::new();
    let mut ends = Vec::new();
    loop {
        let next = match (deltas.peek(), parents.peek()) {
            (None, None) => break,
            (Some(d), Some(p)) => d.node.max(p.0.node),
            (Some(d), None) => d.node,
            (None, Some(p)) => p.0.node,
        };
        let mut sum = Delta {
            node: next,
            count: 0,
            coverage: 0.0,
        };
        while let Some(d) = deltas.next_if(|d| d.node == next) {
            sum.count += d.count;
            sum.coverage += d.coverage;
        }
        while let Some(p) = parents.peek_mut().filter(|p| p.0.node == next) {
            let p = PeekMut::pop(p);
            sum.count += p.0.count;
            sum.coverage += p.0.coverage;
        }
        sums.push(sum);
        match up(next) {
            Some(p) => {
                debug_assert!(p < next, "parent {p} after its child {next}");
                // Siblings come one after the other: their parent is often on top already.
                let on_top = parents.peek().is_some_and(|top| top.0.node == p);
                if on_top {
                    if let Some(mut top) = parents.peek_mut() {
                        top.0.count += sum.count;
                        top.0.coverage += sum.coverage;
                    }
                } else {
                    parents.push(ById(Delta { node: p, ..sum }));
                }
            }
            None => ends.push(next),
        }
    }
    sums.reverse();
    Paths { sums, ends }
}

/// A delta ordered by its node's id only.
struct ById(Delta);

impl PartialEq for ById {
    fn eq(&self, other: &Self) -> bool {
        self.0.node == other.0.node
    }
}

impl Eq for ById {}

impl PartialOrd for ById {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for ById {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.node.cmp(&other.0.node)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn delta(node: u32, count: i64, coverage: f64) -> Delta {
        Delta {
            node: NodeId(node),
            count,
            coverage,
        }
    }

    /// One node at a time, as `add_along` does it.
    fn one_by_one(deltas: &[Delta], up: impl Fn(NodeId) -> Option<NodeId>) -> Vec<Delta> {
        let mut sums: FxHashMap<NodeId, Delta> = FxHashMap::default();
        for d in deltas {
            let mut x = Some(d.node);
            while let Some(n) = x {
                let s = sums.entry(n).or_insert(delta(n.0, 0, 0.0));
                s.count += d.count;
                s.coverage += d.coverage;
                x = up(n);
            }
        }
        let mut sums: Vec<Delta> = sums.into_values().collect();
        sums.sort_unstable_by_key(|d| d.node.0);
        sums
    }

    #[test]
    fn sums_along_random_trees_equal_those_of_one_node_at_a_time() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for round in 0..50 {
            let n = 2 + next(300) as u32;
            // Parents anywhere before or after (a forest's ids break parent < child), no
            // cycle: a random permutation gives each node a parent earlier in it.
            let mut order: Vec<u32> = (0..n).collect();
            for i in (1..order.len()).rev() {
                order.swap(i, next(i as u64 + 1) as usize);
            }
            // Every other round a plain tree: parents before children.
            let ordered = round % 2 == 0;
            if ordered {
                order.sort_unstable();
            }
            let mut parent = vec![None; n as usize];
            for k in 1..order.len() {
                parent[order[k] as usize] = Some(NodeId(order[next(k as u64) as usize]));
            }
            // Some paths end below the top (open nodes, the region root).
            let stops: Vec<bool> = (0..n).map(|_| next(8) == 0).collect();
            let up = |x: NodeId| {
                if stops[x.0 as usize] {
                    None
                } else {
                    parent[x.0 as usize]
                }
            };
            let mut deltas: Vec<Delta> = (0..1 + next(40))
                .map(|_| {
                    delta(
                        next(n as u64) as u32,
                        next(5) as i64 - 2,
                        next(9) as f64 * 0.25,
                    )
                })
                .collect();
            let expected = one_by_one(&deltas, up);
            let paths = along_paths(&deltas, up);
            assert_eq!(paths.sums, expected, "round {round}");
            let mut ends = paths.ends;
            for end in &ends {
                assert_eq!(up(*end), None, "round {round}");
            }
            if ordered {
                deltas.sort_unstable_by_key(|d| d.node);
                let paths = along_ordered_paths(&deltas, up);
                assert_eq!(paths.sums, expected, "round {round}, ordered");
                let mut ordered_ends = paths.ends;
                ordered_ends.sort_unstable();
                ends.sort_unstable();
                assert_eq!(ordered_ends, ends, "round {round}, ordered");
            }
        }
    }

    #[test]
    fn shared_ancestors_are_written_once_with_the_sum_of_their_descendants() {
        // 0 <- 1 <- {2, 3}, 3 <- 4; the path ends at 0.
        let parent = [None, Some(0), Some(1), Some(1), Some(3)];
        let up = |x: NodeId| parent[x.0 as usize].map(NodeId);
        let deltas = [delta(2, -1, 1.0), delta(4, -1, 2.0), delta(4, 0, 0.5)];
        for paths in [along_paths(&deltas, up), along_ordered_paths(&deltas, up)] {
            assert_eq!(
                paths.sums,
                vec![
                    delta(0, -2, 3.5),
                    delta(1, -2, 3.5),
                    delta(2, -1, 1.0),
                    delta(3, -1, 2.5),
                    delta(4, -1, 2.5),
                ]
            );
            assert_eq!(paths.ends, vec![NodeId(0)]);
        }
    }
}
