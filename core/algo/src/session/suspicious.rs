//! The suspicious set and the per-node aggregates the strategies read. All the rules of
//! DESIGN.md live here, nowhere else:
//!
//! - a node is a *member* when it is a complete call (routine or external) that is not trusted
//!   (external nodes and methods the policy or an answer trusted are);
//! - the *region* is the subtree of the last node answered invalid (the root at first: it is
//!   assumed invalid, the run is wrong);
//! - a node is *suspicious* when it is a member, inside the region, and neither it nor an
//!   ancestor was answered valid.
//!
//! Invariants, kept by every update below: for every node `x` inside the region and not under a
//! valid answer, `weight(x)` is the number of suspicious nodes in x's subtree and, when coverage
//! weighting is on, `coverage_weight(x)` is the sum over those nodes b of the sum over the
//! entities e that b covers itself of p^v(e), v(e) being the number of nodes answered valid that
//! cover e, up to the deferred share below. Aggregates of nodes outside the region are not
//! maintained (nothing reads them). Like the tree's subtree sizes, the stored aggregates are
//! *closed*: a node's counts only its complete children, a child joins its parent's when it
//! completes, and the readers add the open children's (`ExecutionTree::open_children`), so a
//! recorded node costs O(1) and an update walks up only to the first open ancestor;
//! `rebuild` recomputes everything from scratch, which is how undo restores a state exactly.
//! Membership of the region is one flag per node (`out`), set for a valid answer's subtree, for
//! the part of the old region an invalid answer leaves, and inherited by arriving nodes.
//!
//! Deferred coverage: a valid answer lowers p^v(e) for each entity e it covers, which changes
//! the weight of every call covering e (on a long run, 10^4-10^6 calls per hot entity). An
//! update whose effect is small is deferred: `own` keeps reflecting the entity's older count
//! until the sum of what was deferred, an upper bound of the error of every `coverage_weight`,
//! would pass `tolerance` times the region's weight. Then all of it is applied at once. As
//! p^v(e) decays geometrically, most valid answers on a long run are deferred, and a session
//! beyond the persistence bound recomputes its region from spilled pages only now and then.
//! With a tolerance of 0 the weights are exact.

use std::sync::Mutex;

use rustc_hash::FxHashMap;

use super::answer::Answer;
use super::children::{ChildView, ChildViews};
use super::paths::{self, Delta};
use super::trust::TrustPolicy;
use crate::ids::{MethodId, NodeId};
use crate::tree::column::NodeColumn;
use crate::tree::forest::{self, Reshape};
use crate::tree::{Change, CoverageKind, ExecutionTree, NodeHeader, NodeKind, TreeError};

const UNMARKED: u8 = 0;
const VALID: u8 = 1;
const INVALID: u8 = 2;
const DONT_KNOW: u8 = 3;

const TRUST_UNKNOWN: u8 = 0;
const TRUST_NO: u8 = 1;
const TRUST_POLICY: u8 = 2;
const TRUST_ANSWER: u8 = 4;

/// Updating touched nodes along their paths (`add_along_all`) costs a sort and a heap operation
/// per node of the paths; recomputing the region costs a few column reads per node of the
/// region. Past `BATCH_LIMIT` touched nodes, an update in memory recomputes the region when
/// `touched * PATH_COST` exceeds the region size (4: measured on `hindsight bench session`,
/// docs/benchmarks.md). Small under test so that both ways are exercised.
#[cfg(not(test))]
const BATCH_LIMIT: usize = 64;
#[cfg(test)]
const BATCH_LIMIT: usize = 8;
const PATH_COST: usize = 4;

/// Which aggregate the strategy needs besides the suspicious-node count.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Weighting {
    /// Only the number of suspicious nodes per subtree.
    Count,
    /// Also the coverage-based weight of DESIGN.md, over entities of `kind`, with factor `p`.
    Coverage { kind: CoverageKind, p: f64 },
}

/// What a walk over the region does after visiting a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Walk {
    Descend,
    Skip,
    Stop,
}

/// The share of the region's coverage weight that the coverage weights may be off by, so that
/// small updates can wait (see the module documentation). 1 %: the divide and query strategies
/// choose among weights at least that far apart in all but near ties.
pub const COVERAGE_TOLERANCE: f64 = 0.01;

struct CoverageWeights {
    kind: CoverageKind,
    p: f64,
    /// v(e): how many nodes answered valid cover e.
    valid_count: FxHashMap<u32, u32>,
    /// For entities whose updates wait: the count `own` still reflects (below `valid_count`).
    applied: FxHashMap<u32, u32>,
    /// Upper bound of how far any weight is off: the sum over waiting entities e of
    /// (p^applied(e) - p^v(e)) times the calls covering e.
    deferred: f64,
    own: NodeColumn<f64>,
    total: NodeColumn<f64>,
}

impl CoverageWeights {
    /// `x`'s own weight computed again from the counts `own` reflects (the sum of p^v(e) over
    /// its entities, older counts for waiting entities), and stored.
    fn own_afresh(&mut self, tree: &ExecutionTree, x: NodeId) -> f64 {
        let own = tree
            .coverage_iter(x, self.kind)
            .map(|e| self.p.powi(self.counted(e) as i32))
            .sum();
        self.own.set(x.0 as usize, own);
        own
    }

    /// The count of `e` that the stored `own` weights reflect.
    fn counted(&self, e: u32) -> u32 {
        match self.applied.get(&e) {
            Some(&v) => v,
            None => self.valid_count.get(&e).copied().unwrap_or(0),
        }
    }
}

/// The suspicious set over a growing execution tree. See the module documentation.
pub struct SuspiciousSet {
    tree: ExecutionTree,
    policy: TrustPolicy,
    marks: NodeColumn<u8>,
    trust: Vec<u8>,
    region: Vec<NodeId>,
    /// Per node: outside the region or under a node answered valid. Kept exact as nodes arrive
    /// (a node is out iff its parent is) and on answers, so `in_region` is one lookup.
    out: NodeColumn<bool>,
    weight: NodeColumn<u32>,
    coverage: Option<CoverageWeights>,
    /// See [`COVERAGE_TOLERANCE`].
    coverage_tolerance: f64,
    /// Counts the changes (answers, arriving nodes, rebuilds): strategies that keep state
    /// between questions tell from it what happened since they last looked.
    revision: u64,
    /// What the searches read of the children of the nodes they look at (`children.rs`).
    /// Behind a lock so that reads (`&self`) can keep what they read.
    children: Mutex<ChildViews>,
}

impl SuspiciousSet {
    /// A set over `tree`; the complete nodes of the tree are balanced into the execution forest
    /// first when the tree's `ForestOptions` ask for it.
    pub fn new(mut tree: ExecutionTree, policy: TrustPolicy, weighting: Weighting) -> Self {
        forest::balance_all(&mut tree);
        let mut set = SuspiciousSet {
            tree,
            policy,
            marks: NodeColumn::new(UNMARKED),
            trust: Vec::new(),
            region: Vec::new(),
            out: NodeColumn::new(false),
            weight: NodeColumn::new(0),
            coverage: None,
            coverage_tolerance: COVERAGE_TOLERANCE,
            revision: 0,
            children: Mutex::default(),
        };
        let bound = set.tree.persistence_bound().cloned();
        set.marks.set_bound(bound.as_ref());
        set.out.set_bound(bound.as_ref());
        set.weight.set_bound(bound.as_ref());
        set.set_weighting(weighting);
        set
    }

    pub fn tree(&self) -> &ExecutionTree {
        &self.tree
    }

    /// The aggregate maintained besides the suspicious-node count.
    pub fn weighting(&self) -> Weighting {
        self.coverage
            .as_ref()
            .map_or(Weighting::Count, |c| Weighting::Coverage {
                kind: c.kind,
                p: c.p,
            })
    }

    /// Maintains another aggregate from now on. Forgets every answer (like [`rebuild`], which it
    /// runs): the caller replays them.
    ///
    /// [`rebuild`]: Self::rebuild
    pub fn set_weighting(&mut self, weighting: Weighting) {
        self.revision += 1;
        self.coverage = match weighting {
            Weighting::Count => None,
            Weighting::Coverage { kind, p } => Some(CoverageWeights {
                kind,
                p,
                valid_count: FxHashMap::default(),
                applied: FxHashMap::default(),
                deferred: 0.0,
                own: NodeColumn::new(0.0),
                total: NodeColumn::new(0.0),
            }),
        };
        let bound = self.tree.persistence_bound().cloned();
        if let Some(c) = &mut self.coverage {
            c.own.set_bound(bound.as_ref());
            c.total.set_bound(bound.as_ref());
        }
        self.rebuild();
    }

    /// The share of the region's coverage weight that the coverage weights may be off by (see
    /// [`COVERAGE_TOLERANCE`]); 0 keeps them exact. What waits is applied if it passes the new
    /// share.
    pub fn set_coverage_tolerance(&mut self, share: f64) {
        self.revision += 1;
        self.coverage_tolerance = share.max(0.0);
        self.settle_coverage();
    }

    pub fn coverage_tolerance(&self) -> f64 {
        self.coverage_tolerance
    }

    /// The bound of what the coverage weights are off by now (0: they are exact).
    pub fn coverage_deferred(&self) -> f64 {
        self.coverage.as_ref().map_or(0.0, |c| c.deferred)
    }

    /// Pages of the per-node columns (tree and suspicious set) written to their page stores.
    pub fn spilled_pages(&self) -> usize {
        self.tree.spilled_pages()
            + self.marks.spilled_pages()
            + self.out.spilled_pages()
            + self.weight.spilled_pages()
            + self
                .coverage
                .as_ref()
                .map_or(0, |c| c.own.spilled_pages() + c.total.spilled_pages())
    }

    /// Forgets every answer and recomputes all aggregates from the tree: O(nodes).
    pub fn rebuild(&mut self) {
        self.revision += 1;
        self.forget_children();
        let n = self.tree.id_bound();
        let f = self.tree.forest_bound();
        self.marks.reset(n, f, UNMARKED);
        self.region.clear();
        self.out.reset(n, f, false);
        for t in &mut self.trust {
            *t &= !TRUST_ANSWER;
        }
        for i in 0..n {
            if let Some(m) = self.tree.method(NodeId(i as u32)) {
                self.classify_method(m);
            }
        }
        self.weight.reset(n, f, 0);
        if let Some(c) = &mut self.coverage {
            c.valid_count.clear();
            c.applied.clear();
            c.deferred = 0.0;
            c.own.reset(n, f, 0.0);
            c.total.reset(n, f, 0.0);
        }
        // In a plain tree children have larger ids than their parents: descending ids is
        // bottom-up. The forest's nodes break that order: reversed preorder is bottom-up too.
        let order: Box<dyn Iterator<Item = NodeId>> = if self.tree.is_forest() {
            let pre: Vec<NodeId> = self.tree.iter().collect();
            Box::new(pre.into_iter().rev())
        } else {
            Box::new((0..n).rev().map(|i| NodeId(i as u32)))
        };
        for x in order {
            let i = x.0 as usize;
            if !self.tree.contains(x) {
                continue;
            }
            let member = self.is_member(x);
            self.weight.update(i, |v| *v += u32::from(member));
            // An open node joins its parent's aggregate when it completes.
            let parent = self.tree.parent(x).filter(|_| self.tree.is_complete(x));
            if let Some(p) = parent {
                let add = self.weight.at(i);
                self.weight.update(p.0 as usize, |v| *v += add);
            }
            if let Some(c) = &mut self.coverage {
                c.own.set(i, self.tree.coverage_len(x, c.kind) as f64);
                if member {
                    let add = c.own.at(i);
                    c.total.update(i, |v| *v += add);
                }
                if let Some(p) = parent {
                    let add = c.total.at(i);
                    c.total.update(p.0 as usize, |v| *v += add);
                }
            }
        }
    }

    fn classify_method(&mut self, m: MethodId) {
        let i = m.0 as usize;
        if i >= self.trust.len() {
            self.trust.resize(i + 1, TRUST_UNKNOWN);
        }
        if self.trust[i] & (TRUST_NO | TRUST_POLICY) == 0 {
            self.trust[i] |= if self.policy.trusts(m) {
                TRUST_POLICY
            } else {
                TRUST_NO
            };
        }
    }

    fn grow(&mut self) {
        let n = self.tree.id_bound();
        if self.marks.len() < n {
            self.marks.grow(n);
            self.out.grow(n);
            self.weight.grow(n);
            if let Some(c) = &mut self.coverage {
                c.own.grow(n);
                c.total.grow(n);
            }
        }
        let f = self.tree.forest_bound();
        if self.marks.forest_len() < f {
            self.marks.grow_forest(f);
            self.out.grow_forest(f);
            self.weight.grow_forest(f);
            if let Some(c) = &mut self.coverage {
                c.own.grow_forest(f);
                c.total.grow_forest(f);
            }
        }
    }

    /// Adds a node or completes one; a completed node inside the region becomes suspicious.
    pub fn push(&mut self, header: &NodeHeader) -> Result<(), TreeError> {
        self.revision += 1;
        // A node arriving changes its parent's children and the open weights of its ancestors.
        self.forget_children();
        let is_new = !self.tree.contains(header.id);
        let change = self.tree.push(header)?;
        self.grow();
        if is_new {
            self.out.set(
                header.id.0 as usize,
                header.parent.is_some_and(|p| self.out.at(p.0 as usize)),
            );
        }
        if let Some(m) = header.method {
            self.classify_method(m);
        }
        if change == Change::Completed {
            self.close(header.id);
            self.balance(header.id);
        }
        if change == Change::Completed && self.is_member(header.id) && self.in_region(header.id) {
            let own = self.own(header.id);
            self.add_along(header.id, 1, own);
        }
        Ok(())
    }

    /// A node that just completed: its closed aggregates, complete now, join its parent's.
    fn close(&mut self, x: NodeId) {
        if x == self.region_root() || !self.in_region(x) {
            return;
        }
        let Some(p) = self.tree.parent(x) else {
            return;
        };
        let i = x.0 as usize;
        let w = self.weight.at(i);
        let c = self.coverage.as_ref().map_or(0.0, |c| c.total.at(i));
        if w != 0 || c != 0.0 {
            self.add_along(p, i64::from(w), c);
        }
    }

    /// Makes the execution forest under a node that just completed (`tree::forest`), and
    /// keeps the aggregates exact. Children already answered (a live session may answer them
    /// before their parent returns) are never reshaped: the node's children stay as they are.
    fn balance(&mut self, node: NodeId) {
        if !self.tree.forest_options().balance || !forest::ready(&self.tree, node) {
            return;
        }
        if self
            .tree
            .children(node)
            .any(|c| self.marks.at(c.0 as usize) != UNMARKED)
        {
            return;
        }
        let reshape = forest::balance(&mut self.tree, node);
        if reshape.is_empty() {
            return;
        }
        self.grow();
        self.reshaped(node, &reshape);
    }

    /// The aggregates under `node` after `reshape`: the collapsed nodes' own weights (the union
    /// of their calls' coverage), the projected nodes' sums, and the difference along the way
    /// up from `node` (which has not been added itself yet).
    fn reshaped(&mut self, node: NodeId, reshape: &Reshape) {
        self.forget_children();
        let out = self.out.at(node.0 as usize);
        for &v in &reshape.projected {
            self.out.set(v.0 as usize, out);
        }
        for &a in &reshape.absorbed {
            self.out.set(a.0 as usize, true);
        }
        if out {
            return;
        }
        for &c in &reshape.collapsed {
            let member = self.is_member(c);
            let i = c.0 as usize;
            self.weight.set(i, u32::from(member));
            if let Some(cw) = &mut self.coverage {
                let own = cw.own_afresh(&self.tree, c);
                cw.total.set(i, if member { own } else { 0.0 });
            }
        }
        for &v in reshape.projected.iter().rev() {
            let (w, c) = self.children_sums(v);
            let member = self.is_member(v);
            self.weight.set(v.0 as usize, w + u32::from(member));
            if let Some(cw) = &mut self.coverage {
                cw.own.set(v.0 as usize, 0.0);
                cw.total.set(v.0 as usize, c);
            }
        }
        let (w, c) = self.children_sums(node);
        let i = node.0 as usize;
        let dw = i64::from(w) - i64::from(self.weight.at(i));
        let dc = c - self.coverage.as_ref().map_or(0.0, |cw| cw.total.at(i));
        self.add_along(node, dw, dc);
    }

    /// The sums of the aggregates of `x`'s children.
    fn children_sums(&self, x: NodeId) -> (u32, f64) {
        let mut w = 0;
        let mut c = 0.0;
        for ch in self.tree.children(x) {
            w += self.weight.at(ch.0 as usize);
            c += self.coverage_weight(ch);
        }
        (w, c)
    }

    /// Records a node's coverage and adds its weight if it is suspicious.
    pub fn set_coverage(
        &mut self,
        node: NodeId,
        kind: CoverageKind,
        entities: &[u32],
    ) -> Result<(), TreeError> {
        self.tree.set_coverage(node, kind, entities)?;
        let Some(c) = &mut self.coverage else {
            return Ok(());
        };
        if c.kind != kind {
            return Ok(());
        }
        // A call absorbed into a collapsed node adds to the collapsed node's union.
        let Some(node) = self.tree.image(node) else {
            return Ok(());
        };
        // Its entities whose updates wait are counted as they were: the bound grows by their lag.
        for &e in entities {
            if let Some(&applied) = c.applied.get(&e) {
                let v = c.valid_count.get(&e).copied().unwrap_or(0);
                c.deferred += c.p.powi(applied as i32) - c.p.powi(v as i32);
            }
        }
        let before = c.own.at(node.0 as usize);
        let own = c.own_afresh(&self.tree, node) - before;
        if self.is_member(node) && self.in_region(node) {
            self.revision += 1;
            self.add_along(node, 0, own);
        }
        if self.marks.at(node.0 as usize) == VALID {
            // Answered valid before its coverage arrived: its entities count as validated now.
            self.count_valid_coverage(node);
        }
        Ok(())
    }

    /// Forgets the tree's coverage of `kind`, unless the weighting uses it.
    pub fn clear_coverage(&mut self, kind: CoverageKind) {
        self.revision += 1;
        self.forget_children();
        if self.coverage.as_ref().is_none_or(|c| c.kind != kind) {
            self.tree.clear_coverage(kind);
        }
    }

    pub fn seal(&mut self) {
        self.revision += 1;
        self.forget_children();
        self.tree.seal();
    }

    fn own(&self, x: NodeId) -> f64 {
        self.coverage
            .as_ref()
            .map_or(0.0, |c| c.own.at(x.0 as usize))
    }

    /// Adds to the closed aggregates of `x` and of the ancestors that count it: up through
    /// complete nodes to the first open one, at most to the region root.
    fn add_along(&mut self, x: NodeId, dw: i64, dc: f64) {
        let root = self.region_root();
        let mut n = x;
        let children = self.children.get_mut().unwrap_or_else(|e| e.into_inner());
        loop {
            let i = n.0 as usize;
            children.touch(n);
            self.weight
                .set(i, (i64::from(self.weight.at(i)) + dw) as u32);
            if let Some(c) = &mut self.coverage {
                c.total.update(i, |v| *v += dc);
            }
            if n == root || !self.tree.is_complete(n) {
                break;
            }
            match self.tree.parent(n) {
                Some(p) => n = p,
                None => break,
            }
        }
        // The open ancestors above count this node through their open children (`sum_open`):
        // their weights changed too.
        if !children.is_empty() {
            while n != root {
                match self.tree.parent(n) {
                    Some(p) => n = p,
                    None => break,
                }
                children.touch(n);
            }
        }
    }

    /// `add_along` for many nodes at once, `deltas` sorted by id: each node on their paths is
    /// written once (see `paths.rs`).
    fn add_along_all(&mut self, deltas: &[Delta]) {
        let root = self.region_root();
        let tree = &self.tree;
        let up = |n| {
            if n == root || !tree.is_complete(n) {
                None
            } else {
                tree.parent(n)
            }
        };
        let paths = if tree.is_forest() {
            paths::along_paths(deltas, up)
        } else {
            paths::along_ordered_paths(deltas, up)
        };
        let children = self.children.get_mut().unwrap_or_else(|e| e.into_inner());
        for d in &paths.sums {
            let i = d.node.0 as usize;
            children.touch(d.node);
            if d.count != 0 {
                self.weight
                    .set(i, (i64::from(self.weight.at(i)) + d.count) as u32);
            }
            if let Some(c) = &mut self.coverage {
                c.total.update(i, |v| *v += d.coverage);
            }
        }
        // The open ancestors above a path's end count it through `sum_open` (see `add_along`).
        if !children.is_empty() {
            let mut seen = rustc_hash::FxHashSet::default();
            for &end in &paths.ends {
                let mut n = end;
                while n != root {
                    match self.tree.parent(n) {
                        Some(p) => n = p,
                        None => break,
                    }
                    if !seen.insert(n) {
                        break;
                    }
                    children.touch(n);
                }
            }
        }
    }

    /// Whether updating `touched` nodes along their ancestor paths would cost more than
    /// recomputing the region. In memory that pass is linear and cheap; beyond the persistence
    /// bound it would read every page of the region again, and the paths cost less.
    fn batch_pays(&self, touched: usize) -> bool {
        let spilling = self
            .tree
            .resident_nodes()
            .is_some_and(|bound| self.tree.id_bound() > bound);
        !spilling
            && touched > BATCH_LIMIT
            && touched.saturating_mul(PATH_COST)
                > self.tree.subtree_size(self.region_root()) as usize
    }

    /// Recomputes the aggregates of the whole region bottom-up. A call's descendants run on its
    /// thread, which records them in preorder, so they normally occupy the ids from the call to
    /// its last descendant (other threads' nodes may be interleaved): a linear pass over that
    /// range avoids pointer chasing. If the range does not hold the whole subtree, a walk does it.
    fn recompute_region(&mut self) {
        self.forget_children();
        let root = self.region_root();
        let end = (self.region_span().1 as usize).saturating_add(1);
        if !self.recompute_linear(root, end) {
            self.recompute_by_walk();
        }
    }

    /// The linear pass over ids `root..end`: ids of a subtree are larger than its root's and
    /// parents come before children, so one forward pass decides which nodes count and one
    /// backward pass sums them up. Returns false if the range missed part of the subtree.
    fn recompute_linear(&mut self, root: NodeId, end: usize) -> bool {
        if self.tree.is_forest() {
            // The forest's nodes break `parent < child`: the walk does it.
            return false;
        }
        let r = root.0 as usize;
        let end = end.min(self.tree.id_bound());
        // 0: not in the subtree, 1: in the subtree under a valid answer, 2: counted.
        let mut state = vec![0u8; end - r];
        state[0] = 2;
        let mut in_subtree = 1u32;
        for i in r..end {
            let x = NodeId(i as u32);
            if i > r {
                let parent_state = self
                    .tree
                    .parent(x)
                    .filter(|p| p.0 as usize >= r && self.tree.contains(x))
                    .map_or(0, |p| state[p.0 as usize - r]);
                state[i - r] = match parent_state {
                    0 => 0,
                    2 if self.marks.at(i) != VALID => 2,
                    _ => 1,
                };
                in_subtree += u32::from(state[i - r] != 0);
            }
            if state[i - r] == 2 {
                let member = self.is_member(x);
                self.weight.set(i, u32::from(member));
                if let Some(c) = &mut self.coverage {
                    let own = if member { c.own.at(i) } else { 0.0 };
                    c.total.set(i, own);
                }
            }
        }
        if in_subtree != self.tree.subtree_size(root) {
            return false;
        }
        for i in (r + 1..end).rev() {
            let x = NodeId(i as u32);
            if state[i - r] != 2 || !self.tree.is_complete(x) {
                continue;
            }
            let Some(p) = self.tree.parent(x) else {
                continue;
            };
            let pi = p.0 as usize;
            let add = self.weight.at(i);
            self.weight.update(pi, |v| *v += add);
            if let Some(c) = &mut self.coverage {
                let add = c.total.at(i);
                c.total.update(pi, |v| *v += add);
            }
        }
        true
    }

    fn recompute_by_walk(&mut self) {
        let mut order = Vec::new();
        self.walk(|x| {
            order.push(x);
            Walk::Descend
        });
        for &x in &order {
            let i = x.0 as usize;
            let member = self.is_member(x);
            self.weight.set(i, u32::from(member));
            if let Some(c) = &mut self.coverage {
                let own = if member { c.own.at(i) } else { 0.0 };
                c.total.set(i, own);
            }
        }
        let root = self.region_root();
        for &x in order.iter().rev() {
            if x == root || !self.tree.is_complete(x) {
                continue;
            }
            let Some(p) = self.tree.parent(x) else {
                continue;
            };
            let (i, pi) = (x.0 as usize, p.0 as usize);
            let add = self.weight.at(i);
            self.weight.update(pi, |v| *v += add);
            if let Some(c) = &mut self.coverage {
                let add = c.total.at(i);
                c.total.update(pi, |v| *v += add);
            }
        }
    }

    /// Applies an answer about `node`. The caller (the session) has checked that the node is
    /// askable.
    pub(crate) fn apply(&mut self, node: NodeId, answer: Answer) {
        self.revision += 1;
        match answer {
            Answer::DontKnow => self.set_mark(node, DONT_KNOW),
            Answer::Invalid => {
                // Everything of the old region outside the node's subtree leaves the region.
                let mut leaving = Vec::new();
                self.walk(|x| {
                    if x == node {
                        Walk::Skip
                    } else {
                        leaving.push(x);
                        Walk::Descend
                    }
                });
                for x in leaving {
                    self.out.set(x.0 as usize, true);
                }
                self.set_mark(node, INVALID);
                self.region.push(node);
                // A smaller region: what waits may now pass its share of the smaller weight.
                self.settle_coverage();
            }
            Answer::Valid => self.apply_valid(node),
            Answer::Trusted => {
                let Some(m) = self.tree.method(node) else {
                    return;
                };
                let calls: Vec<NodeId> = self.tree.calls_of(m).collect();
                // Projected nodes of the method's calls are trusted with it but are no calls of
                // it: the region's recomputation counts them.
                let batch = self.tree.forest_bound() > 0 || self.batch_pays(calls.len());
                let mut leaving: Vec<Delta> = if batch {
                    Vec::new()
                } else {
                    calls
                        .into_iter()
                        .filter(|&b| self.is_member(b) && self.in_region(b))
                        .map(|node| Delta {
                            node,
                            count: -1,
                            coverage: -self.own(node),
                        })
                        .collect()
                };
                leaving.sort_unstable_by_key(|d| d.node);
                self.trust[m.0 as usize] |= TRUST_ANSWER;
                self.forget_children();
                if batch {
                    self.recompute_region();
                } else {
                    self.add_along_all(&leaving);
                }
                self.settle_coverage();
            }
        }
    }

    fn apply_valid(&mut self, a: NodeId) {
        let (w, c) = (self.weight(a), self.coverage_weight(a));
        if let Some(p) = self.tree.parent(a) {
            if a != self.region_root() {
                self.add_along(p, -i64::from(w), -c);
            }
        }
        self.set_mark(a, VALID);
        // The subtree leaves the region, but for the subtrees of nodes answered valid before:
        // they left it then (nothing arrives below a complete node). Divide and query answers
        // an ancestor after its descendants, and those subtrees lie on spilled pages. A node's
        // mark is read only when it is out already (`out` is read and written on one page).
        let mut x = Some(a);
        while let Some(n) = x {
            let i = n.0 as usize;
            let was_out = self.out.at(i);
            self.out.set(i, true);
            let left_before = was_out && n != a && self.marks.at(i) == VALID;
            x = self.tree.preorder_next(a, n, !left_before);
        }
        self.count_valid_coverage(a);
    }

    /// Adds one to v(e) for every entity `a` (answered valid) covers, lowering the weight of
    /// every suspicious node that covers it, now or, when the change is small, later.
    fn count_valid_coverage(&mut self, a: NodeId) {
        let Some(cov) = &self.coverage else {
            return;
        };
        let (kind, p) = (cov.kind, cov.p);
        let entities = self.tree.coverage(a, kind);
        for e in entities {
            let covering = self.tree.covering_count(kind, e) as f64;
            let cov = self.coverage.as_mut().expect("checked above");
            let v = cov.valid_count.entry(e).or_insert(0);
            let before = *v;
            *v += 1;
            cov.applied.entry(e).or_insert(before);
            cov.deferred += (p.powi(before as i32) - p.powi(before as i32 + 1)) * covering;
        }
        self.settle_coverage();
    }

    /// Applies the waiting coverage updates if their bound passes the tolerated share of the
    /// region's weight.
    fn settle_coverage(&mut self) {
        if self.coverage.as_ref().is_none_or(|c| c.applied.is_empty()) {
            return;
        }
        let total = self.coverage_total();
        let Some(cov) = &mut self.coverage else {
            return;
        };
        if cov.deferred <= self.coverage_tolerance * total {
            return;
        }
        let (kind, p) = (cov.kind, cov.p);
        // Each waiting entity moves from the count `own` reflects to its count.
        let waiting: Vec<(u32, f64)> = cov
            .applied
            .drain()
            .map(|(e, applied)| {
                let v = cov.valid_count.get(&e).copied().unwrap_or(0);
                (e, p.powi(applied as i32) - p.powi(v as i32))
            })
            .collect();
        cov.deferred = 0.0;
        // The nodes of the region's span covering waiting entities, each with the sum of its
        // changes, by id: one pass over the columns instead of one per entity (each entity's
        // calls lie all over the tree, on spilled pages too beyond the persistence bound).
        let (lo, hi) = self.region_span();
        let entities: Vec<u32> = waiting.iter().map(|&(e, _)| e).collect();
        let mut changes: Vec<Delta> = self
            .tree
            .nodes_covering(kind, &entities)
            .into_iter()
            .filter(|(_, b)| (lo..=hi).contains(&b.0))
            .map(|(k, node)| Delta {
                node,
                count: 0,
                coverage: -waiting[k].1,
            })
            .collect();
        changes.sort_unstable_by_key(|d| d.node.0);
        changes.dedup_by(|later, kept| {
            let same = later.node == kept.node;
            if same {
                kept.coverage += later.coverage;
            }
            same
        });
        let batch = self.batch_pays(changes.len());
        // Only nodes of the region are ever read again (until `rebuild`), so the others keep a
        // stale `own`.
        if !batch {
            changes.retain(|d| self.in_region(d.node));
        }
        if let Some(c) = &mut self.coverage {
            for d in &changes {
                c.own.update(d.node.0 as usize, |v| *v += d.coverage);
            }
        }
        if batch {
            self.recompute_region();
        } else {
            changes.retain(|d| self.is_member(d.node));
            self.add_along_all(&changes);
        }
    }

    /// Ids between which every node of the region lies: a call's descendants run on its
    /// thread, recorded in preorder, so they end at its last descendant.
    fn region_span(&self) -> (u32, u32) {
        let root = self.region_root();
        if self.tree.is_forest() || !self.tree.contains(root) || !self.tree.kind(root).is_askable()
        {
            return (0, u32::MAX);
        }
        let mut last = root;
        while let Some(c) = self.tree.last_child(last) {
            last = c;
        }
        (root.0, last.0)
    }

    fn set_mark(&mut self, x: NodeId, mark: u8) {
        self.marks.set(x.0 as usize, mark);
        self.children_mut().touch(x);
    }

    fn children_mut(&mut self) -> &mut ChildViews {
        self.children.get_mut().unwrap_or_else(|e| e.into_inner())
    }

    /// Forgets what was kept of the children: after a change wider than an answer's path.
    fn forget_children(&mut self) {
        self.children_mut().clear();
    }

    /// Fills `out` with what the searches read of `x`'s children, in the tree's order. Beyond
    /// the persistence bound a wide node's children lie on pages all over the columns, so the
    /// views are kept between questions and only the children an answer changed are read
    /// again (`children.rs`).
    pub fn children_view(&self, x: NodeId, out: &mut Vec<ChildView>) {
        out.clear();
        let read = |c: NodeId| self.read_child_view(c);
        let mut kept = self.children.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(views) = kept.get(x, read) {
            out.extend_from_slice(views);
            return;
        }
        out.extend(self.tree.children(x).map(read));
        kept.keep(x, out);
    }

    fn read_child_view(&self, c: NodeId) -> ChildView {
        ChildView::new(
            c,
            self.weight(c),
            self.coverage_weight(c),
            self.mark(c),
            self.is_member(c),
        )
    }

    /// Asserts the invariant of `children.rs`: every kept view not marked stale equals what
    /// the set reads now.
    #[cfg(test)]
    pub(crate) fn check_children_views(&self) {
        let kept = self.children.lock().unwrap_or_else(|e| e.into_inner());
        for v in kept.fresh() {
            assert_eq!(*v, self.read_child_view(v.id), "kept view of {}", v.id);
        }
    }

    /// Grows by one or more with every change to the set: each answer adds exactly one.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// The root of the region: the last node answered invalid, or the tree's root.
    pub fn region_root(&self) -> NodeId {
        self.region.last().copied().unwrap_or(NodeId::ROOT)
    }

    /// Nodes answered invalid, oldest first.
    pub fn invalid_chain(&self) -> &[NodeId] {
        &self.region
    }

    /// Whether the node's calls are trusted (external, by policy, or by an answer).
    pub fn is_trusted(&self, x: NodeId) -> bool {
        if self.tree.kind(x) == NodeKind::External {
            return true;
        }
        match self.tree.method(x) {
            Some(m) => self
                .trust
                .get(m.0 as usize)
                .is_some_and(|t| t & (TRUST_POLICY | TRUST_ANSWER) != 0),
            None => false,
        }
    }

    /// Whether the method was trusted by an answer (not by the policy).
    pub fn trusted_by_answer(&self, m: MethodId) -> bool {
        self.trust
            .get(m.0 as usize)
            .is_some_and(|t| t & TRUST_ANSWER != 0)
    }

    /// A complete, untrusted call, loop or iteration: a node the suspicious set may contain.
    /// Loops and iterations are nodes of their method, so trusting it trusts them too; the
    /// policy may leave them out altogether (`TrustPolicy::without_loops`).
    pub fn is_member(&self, x: NodeId) -> bool {
        let kind = self.tree.kind(x);
        self.tree.contains(x)
            && self.tree.is_complete(x)
            && kind.is_askable()
            && !(kind.is_loop() && self.policy.skips_loops())
            && !self.is_trusted(x)
    }

    /// Whether the policy leaves loop and iteration nodes out.
    pub fn skips_loops(&self) -> bool {
        self.policy.skips_loops()
    }

    /// Inside the region and not under (or at) a node answered valid.
    pub fn in_region(&self, x: NodeId) -> bool {
        self.out.get(x.0 as usize) == Some(false)
    }

    /// Whether `x` is in the suspicious set.
    pub fn is_suspicious(&self, x: NodeId) -> bool {
        self.is_member(x) && self.in_region(x)
    }

    /// The answer recorded for `x`, if any (trusted is recorded per method, not here).
    pub fn mark(&self, x: NodeId) -> Option<Answer> {
        match self.marks.get(x.0 as usize) {
            Some(VALID) => Some(Answer::Valid),
            Some(INVALID) => Some(Answer::Invalid),
            Some(DONT_KNOW) => Some(Answer::DontKnow),
            _ => None,
        }
    }

    /// A node a strategy may ask now, assuming it was reached by `walk`: a member, not the
    /// region root, never answered (don't-know nodes excluded).
    pub fn is_askable(&self, x: NodeId) -> bool {
        self.marks.get(x.0 as usize) == Some(UNMARKED)
            && x != self.region_root()
            && self.is_member(x)
    }

    /// Number of suspicious nodes in x's subtree (x inside the region).
    pub fn weight(&self, x: NodeId) -> u32 {
        self.tree
            .sum_open(x, |n| self.weight.get(n.0 as usize).unwrap_or(0))
    }

    /// Number of suspicious nodes.
    pub fn total_weight(&self) -> u32 {
        self.weight(self.region_root())
    }

    /// Coverage-based weight of x's subtree (0 when coverage weighting is off).
    pub fn coverage_weight(&self, x: NodeId) -> f64 {
        let Some(c) = &self.coverage else {
            return 0.0;
        };
        self.tree
            .sum_open(x, |n| c.total.get(n.0 as usize).unwrap_or(0.0))
    }

    /// Coverage-based weight of the whole suspicious set.
    pub fn coverage_total(&self) -> f64 {
        self.coverage_weight(self.region_root())
    }

    /// Visits the region in preorder, from its root, never entering a subtree answered valid.
    pub fn walk(&self, visit: impl FnMut(NodeId) -> Walk) {
        self.walk_from(self.region_root(), visit)
    }

    /// Like `walk`, over the subtree of `start` (a node of the region).
    pub fn walk_from(&self, start: NodeId, mut visit: impl FnMut(NodeId) -> Walk) {
        if !self.tree.contains(start) {
            return;
        }
        let mut x = start;
        loop {
            let descend = if self.marks.at(x.0 as usize) == VALID {
                false
            } else {
                match visit(x) {
                    Walk::Descend => true,
                    Walk::Skip => false,
                    Walk::Stop => return,
                }
            };
            match self.tree.preorder_next(start, x, descend) {
                Some(n) => x = n,
                None => return,
            }
        }
    }
}
