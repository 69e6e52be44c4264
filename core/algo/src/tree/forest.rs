//! The execution forest (balanced-ET paper, section 3): chains of sibling calls collapsed and
//! projected so that a strategy can halve the suspects with each question.
//!
//! A *chain* is a run of consecutive siblings each of which the recorder marked as starting in
//! the state its previous sibling left (`NodeHeader::chained`; the rule is in
//! docs/ARCHITECTURE.md, "Execution forest"). [`balance`] runs Algorithm 4 on one node's
//! children when the node completes (all its children are complete and balanced already, so
//! the transformation is bottom-up, as the paper requires for incomplete trees):
//!
//! 1. *shrink* (Algorithms 1 and 3): every maximal chain of leaf routine calls of one method
//!    becomes a collapsed node (the chain's first call, re-kinded; the others are absorbed);
//! 2. *balance* (Algorithm 4's loop, Algorithm 2): while chains are left, the heaviest child is
//!    set aside if it weighs at least half of what is left or no sub-chain comes closer to half;
//!    otherwise the sub-chain whose weight is closest to half is projected under a new node.
//!    Each projected node is then balanced the same way (its children are one chain), which
//!    is what makes a chain of k calls searchable in about log2 k questions.
//!
//! Sub-chains are found in linear time per search (weights are positive: two pointers over the
//! chain), so a node with k children costs O(k) per projection.

use super::execution::{ExecutionTree, ForestOptions};
use super::node::NodeKind;
use crate::ids::{MethodId, NodeId};

/// What [`balance`] changed under one node.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reshape {
    /// Collapsed nodes made (each the first call of its chain).
    pub collapsed: Vec<NodeId>,
    /// Calls absorbed into them.
    pub absorbed: Vec<NodeId>,
    /// Projected nodes made, each after its ancestors among them.
    pub projected: Vec<NodeId>,
}

impl Reshape {
    pub fn is_empty(&self) -> bool {
        self.collapsed.is_empty() && self.projected.is_empty()
    }
}

/// Whether `node` may be balanced now: complete, not done yet, every child complete.
pub fn ready(tree: &ExecutionTree, node: NodeId) -> bool {
    tree.contains(node)
        && tree.is_complete(node)
        && !tree.is_balanced(node)
        && tree.children(node).all(|c| tree.is_complete(c))
}

/// Runs Algorithm 4 on `node`'s children (see the module documentation) with the tree's
/// [`ForestOptions`], and marks the node balanced. The caller checks [`ready`].
pub fn balance(tree: &mut ExecutionTree, node: NodeId) -> Reshape {
    let options = tree.forest_options();
    let mut out = Reshape::default();
    tree.mark_balanced(node);
    if !options.balance {
        return out;
    }
    // Collapsing and projecting both need a chained child after the first: most nodes have
    // none, and leave here without allocating.
    if !tree.children(node).skip(1).any(|c| tree.is_chained(c)) {
        return out;
    }
    let children: Vec<NodeId> = tree.children(node).collect();
    let items = shrink(tree, &children, options, &mut out);
    let mut pending = vec![(node, items)];
    while let Some((parent, items)) = pending.pop() {
        project_level(tree, parent, items, options, &mut out, &mut pending);
    }
    out
}

/// Balances every complete node not balanced yet, bottom-up (for a tree built whole, e.g. from
/// a finished trace, where parents arrived before their children).
pub fn balance_all(tree: &mut ExecutionTree) -> Reshape {
    let mut all = Reshape::default();
    if !tree.forest_options().balance {
        return all;
    }
    // Recorded ids: a parent's is smaller than its children's, so descending is bottom-up.
    for i in (0..tree.id_bound()).rev() {
        let x = NodeId(i as u32);
        if ready(tree, x) {
            let r = balance(tree, x);
            all.collapsed.extend(r.collapsed);
            all.absorbed.extend(r.absorbed);
            all.projected.extend(r.projected);
        }
    }
    all
}

/// A call a chain may collapse: a leaf for the session, i.e. with no children but calls into
/// uninstrumented code that call nothing back (trusted, never asked: Theorem 2 holds as for
/// leaves, since a collapsed node's children are then all trusted).
fn collapsible(tree: &ExecutionTree, x: NodeId) -> bool {
    tree.kind(x) == NodeKind::Routine
        && tree.is_complete(x)
        && tree
            .children(x)
            .all(|c| tree.kind(c) == NodeKind::External && tree.first_child(c).is_none())
}

/// Algorithm 3: collapses the maximal chains of leaf calls of one method (at most
/// `max_chain` calls each); returns the children afterwards.
fn shrink(
    tree: &mut ExecutionTree,
    children: &[NodeId],
    options: ForestOptions,
    out: &mut Reshape,
) -> Vec<NodeId> {
    let max = options.max_chain.max(1) as usize;
    let mut items = Vec::with_capacity(children.len());
    let mut i = 0;
    while i < children.len() {
        let first = children[i];
        let mut j = i;
        if collapsible(tree, first) {
            let m = tree.method(first);
            while j + 1 < children.len()
                && j + 1 - i < max
                && tree.is_chained(children[j + 1])
                && collapsible(tree, children[j + 1])
                && tree.method(children[j + 1]) == m
            {
                j += 1;
            }
        }
        if j > i {
            tree.collapse(&children[i..=j]);
            out.collapsed.push(first);
            out.absorbed.extend_from_slice(&children[i + 1..=j]);
        }
        items.push(first);
        i = j + 1;
    }
    items
}

/// A run of items `start..=end` linked as a chain.
#[derive(Clone, Copy, Debug)]
struct Run {
    start: usize,
    end: usize,
}

/// The links that make chains: an item starts in the state the previous one left. Any node a
/// person judges by its entry and exit state links (calls, collapsed nodes, and whatever kinds
/// the recorder marks, such as a loop's iterations), but not calls into uninstrumented code
/// (unknown effects) nor projected nodes (a chain at one level is projected, not linked again).
fn links(tree: &ExecutionTree, items: &[NodeId]) -> Vec<bool> {
    let askable = |x: NodeId| {
        !matches!(
            tree.kind(x),
            NodeKind::Root | NodeKind::Thread | NodeKind::External | NodeKind::Projected
        )
    };
    (0..items.len())
        .map(|k| k > 0 && askable(items[k]) && askable(items[k - 1]) && tree.is_chained(items[k]))
        .collect()
}

/// The maximal chains (two items or more) among `items`.
fn runs(linked: &[bool]) -> Vec<Run> {
    let mut out = Vec::new();
    let mut start = 0;
    for k in 1..=linked.len() {
        if k == linked.len() || !linked[k] {
            if k - start >= 2 {
                out.push(Run { start, end: k - 1 });
            }
            start = k;
        }
    }
    out
}

/// Algorithm 4's loop over one node's children (`items`, after shrinking): projects sub-chains
/// and queues each projected node, whose children are one chain, to be balanced in turn.
fn project_level(
    tree: &mut ExecutionTree,
    parent: NodeId,
    items: Vec<NodeId>,
    options: ForestOptions,
    out: &mut Reshape,
    pending: &mut Vec<(NodeId, Vec<NodeId>)>,
) {
    let linked = links(tree, &items);
    let mut chains = runs(&linked);
    if chains.is_empty() {
        return;
    }
    let w: Vec<f64> = items
        .iter()
        .map(|&x| f64::from(tree.subtree_size(x)))
        .collect();
    // A projected node stands for fewer items than the level has (else it is the parent
    // again) and at most `max_chain`.
    let max_len = (options.max_chain as usize).min(items.len() - 1);
    if max_len < 2 {
        return;
    }
    let mut heaviest: Vec<usize> = (0..items.len()).collect();
    heaviest.sort_by(|&a, &b| w[b].total_cmp(&w[a]).then(a.cmp(&b)));
    let mut next_heavy = 0;
    let mut removed = vec![false; items.len()];
    let mut root_weight = f64::from(tree.subtree_size(parent));
    let mut half = root_weight / 2.0;
    let mut projections: Vec<Run> = Vec::new();
    while !chains.is_empty() {
        while removed[heaviest[next_heavy]] {
            next_heavy += 1;
        }
        let child = heaviest[next_heavy];
        let distance = (half - w[child]).abs();
        let best = if w[child] >= half {
            None
        } else {
            closest_sub_chain(&chains, &w, half, max_len).filter(|b| (b.3 - half).abs() < distance)
        };
        match best {
            None => {
                removed[child] = true;
                root_weight -= w[child];
                half = root_weight / 2.0;
                if let Some(k) = chains
                    .iter()
                    .position(|r| (r.start..=r.end).contains(&child))
                {
                    let r = chains.swap_remove(k);
                    cut(&mut chains, r, child, child);
                }
            }
            Some((k, i, j, weight)) => {
                let r = chains.swap_remove(k);
                cut(&mut chains, r, i, j);
                projections.push(Run { start: i, end: j });
                for flag in &mut removed[i..=j] {
                    *flag = true;
                }
                root_weight -= weight;
                half = root_weight / 2.0;
            }
        }
    }
    if projections.is_empty() {
        return;
    }
    projections.sort_by_key(|r| r.start);
    let mut new_children = Vec::with_capacity(items.len());
    let mut made = Vec::with_capacity(projections.len());
    let mut k = 0;
    let mut p = projections.iter().peekable();
    while k < items.len() {
        match p.peek() {
            Some(r) if r.start == k => {
                let part = &items[r.start..=r.end];
                let v = tree.new_projected(common_method(tree, part), tree.is_chained(part[0]));
                tree.set_children(v, part);
                let size: u32 = part.iter().map(|&c| tree.subtree_size(c)).sum();
                tree.set_size(v, size + 1);
                new_children.push(v);
                made.push((v, part.to_vec()));
                k = r.end + 1;
                p.next();
            }
            _ => {
                new_children.push(items[k]);
                k += 1;
            }
        }
    }
    tree.set_children(parent, &new_children);
    for (v, part) in made {
        tree.add_size_above(v, 1);
        out.projected.push(v);
        pending.push((v, part));
    }
}

/// The method every item calls, if they all call one (a projected node of one method is
/// trusted with it).
fn common_method(tree: &ExecutionTree, items: &[NodeId]) -> Option<MethodId> {
    let m = tree.method(items[0])?;
    items[1..]
        .iter()
        .all(|&x| tree.method(x) == Some(m))
        .then_some(m)
}

/// `cutChain`: what is left of chain `r` once items `i..=j` leave it, as chains of two items or
/// more.
fn cut(chains: &mut Vec<Run>, r: Run, i: usize, j: usize) {
    if i >= r.start + 2 {
        chains.push(Run {
            start: r.start,
            end: i - 1,
        });
    }
    if r.end >= j + 2 {
        chains.push(Run {
            start: j + 1,
            end: r.end,
        });
    }
}

/// The sub-chain (at least two items, at most `max_len`) whose weight is closest to `target`:
/// (chain index, first item, last item, weight). Ties go to the earliest.
fn closest_sub_chain(
    chains: &[Run],
    w: &[f64],
    target: f64,
    max_len: usize,
) -> Option<(usize, usize, usize, f64)> {
    let mut best: Option<(usize, usize, usize, f64)> = None;
    let mut consider = |k: usize, i: usize, j: usize, sum: f64| {
        let better = match best {
            None => true,
            Some((_, _, _, b)) => (sum - target).abs() < (b - target).abs(),
        };
        if better {
            best = Some((k, i, j, sum));
        }
    };
    for (k, r) in chains.iter().enumerate() {
        // For each first item i, the last item j grows with i (weights are positive): keep the
        // window i..=j as long as its sum stays at most the target, and try one item more.
        let mut j = r.start + 1;
        let mut sum = w[r.start] + w[r.start + 1];
        for i in r.start..r.end {
            if i > r.start {
                sum -= w[i - 1];
                if j < i + 1 {
                    j = i + 1;
                    sum += w[j];
                }
            }
            while j < r.end && j + 1 - i < max_len && sum + w[j + 1] <= target {
                j += 1;
                sum += w[j];
            }
            while j + 1 - i > max_len {
                sum -= w[j];
                j -= 1;
            }
            consider(k, i, j, sum);
            if j < r.end && j + 2 - i <= max_len {
                consider(k, i, j + 1, sum + w[j + 1]);
            }
        }
    }
    best
}

#[cfg(test)]
mod tests;
