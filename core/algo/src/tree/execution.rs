//! The in-memory skeleton of the execution tree, grown from `NodeHeader`s as the recorder emits
//! them.
//!
//! Struct-of-arrays indexed by node id (ids are dense and a parent is always recorded before its
//! children, so `parent < child`): 25 bytes per node in paged columns ([`super::column`]), plus
//! the per-method list of calls (4 more, also paged), plus coverage (`super::coverage`, paged
//! too: 8 bytes per node and 12 per entity a call covers). With a persistence bound
//! ([`ExecutionTree::set_persistence_bound`]) the columns keep only about that many nodes in
//! memory and spill the rest to the bound's page storage. Children keep call order through
//! first/last child and next-sibling links.
//!
//! Subtree sizes are kept *closed*: a node's stored size counts itself and the subtrees of its
//! complete children only, and a child's subtree joins its parent's when the child completes.
//! An incomplete node's size adds its open (incomplete) children's on reading: a call's
//! children run one after the other on its thread, so only its last child can be open (the
//! root's threads run side by side: all of them may be). Recording a node thus costs O(1), not
//! a walk up its ancestors, and a size is read in O(depth of the open spine below it).

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::column::{Column, NodeColumn, PersistenceBound, FOREST_BASE};
use super::coverage::CoverageStore;
use super::node::{NodeHeader, NodeKind};
use crate::ids::{MethodId, NodeId};

const NONE: u32 = u32::MAX;
const ABSENT: u8 = 0;
/// Flag bits beside the kind code (low four bits).
const KIND_BITS: u8 = 0x0F;
const CHAINED: u8 = 0x10;
/// The forest transformation has run on the node's children (`tree::forest`).
const BALANCED: u8 = 0x20;
/// A call absorbed into a collapsed node: no longer a node of the forest.
const ABSORBED: u8 = 0x40;
const COMPLETE: u8 = 0x80;

/// Which kind of coverage entity a set of entity ids names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CoverageKind {
    /// A CFG edge executed by the call itself.
    Edge,
    /// A def-use chain exercised by the call itself.
    DefUse,
}

impl CoverageKind {
    fn index(self) -> usize {
        match self {
            CoverageKind::Edge => 0,
            CoverageKind::DefUse => 1,
        }
    }
}

/// A header that does not fit the tree built so far.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum TreeError {
    #[error("node {id} was started twice; each node starts once")]
    DuplicateNode { id: NodeId },
    #[error(
        "node {id} names parent {parent}, which has not been recorded; parents must come first"
    )]
    UnknownParent { id: NodeId, parent: NodeId },
    #[error("node {id} has no parent; only the root (node 0, kind root) may lack one")]
    MissingParent { id: NodeId },
    #[error(
        "node {id} has parent {parent} with a larger or equal id; ids must grow in recording order"
    )]
    ParentAfterChild { id: NodeId, parent: NodeId },
    #[error("the completion of node {id} does not match its start ({what} differs)")]
    CompletionMismatch { id: NodeId, what: &'static str },
    #[error("node {id} is not in the tree")]
    UnknownNode { id: NodeId },
    #[error("node {id} is beyond the recorder's id range (ids from 2^31 are the forest's own)")]
    IdTooLarge { id: NodeId },
    #[error(
        "node {id} starts while its earlier sibling {sibling} is still running; calls on one \
         thread nest (only the root's threads run side by side)"
    )]
    SiblingStillOpen { id: NodeId, sibling: NodeId },
    #[error(
        "node {id} completes while its child {child} is still running; calls on one thread nest"
    )]
    ChildStillOpen { id: NodeId, child: NodeId },
    #[error("node {id} already has {kind:?} coverage; coverage is set once per node and kind")]
    CoverageAlreadySet { id: NodeId, kind: CoverageKind },
}

/// How the execution forest is made from the tree (balanced-ET paper, Algorithm 4), bottom-up
/// as each node completes: see `tree::forest`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForestOptions {
    /// Collapse chains of leaf calls of one method and project chains to balance the tree.
    pub balance: bool,
    /// The most calls (children of one node) one collapsed or projected node stands for.
    pub max_chain: u32,
}

impl ForestOptions {
    /// The plain execution tree: nothing collapsed or projected.
    pub const OFF: ForestOptions = ForestOptions {
        balance: false,
        max_chain: u32::MAX,
    };
    /// The forest, chains of any length.
    pub const ON: ForestOptions = ForestOptions {
        balance: true,
        max_chain: u32::MAX,
    };
}

impl Default for ForestOptions {
    fn default() -> Self {
        ForestOptions::OFF
    }
}

/// What a pushed header changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// A new node, not yet complete.
    Started,
    /// A node that became complete (possibly started by the same header).
    Completed,
    /// A completion header for a node already complete: nothing changed.
    Unchanged,
}

/// The execution tree skeleton. See the module documentation.
#[derive(Clone)]
pub struct ExecutionTree {
    flags: NodeColumn<u8>,
    parent: NodeColumn<u32>,
    first_child: NodeColumn<u32>,
    last_child: NodeColumn<u32>,
    next_sibling: NodeColumn<u32>,
    method: NodeColumn<u32>,
    size: NodeColumn<u32>,
    /// Per collapsed node (by the id of its first call): the last call it absorbed. Grown only
    /// as far as the largest collapsed node.
    collapsed_last: Column<u32>,
    /// Projected nodes made so far (ids `FOREST_BASE..FOREST_BASE + projected`).
    projected: u32,
    /// Calls absorbed into collapsed nodes.
    absorbed: usize,
    /// Per method: its first and last call; the calls in between are linked by `next_call`.
    by_method: HashMap<MethodId, (u32, u32)>,
    next_call: Column<u32>,
    coverage: [Option<CoverageStore>; 2],
    count: usize,
    sealed: bool,
    bound: Option<PersistenceBound>,
    forest: ForestOptions,
}

fn kind_code(kind: NodeKind) -> u8 {
    match kind {
        NodeKind::Root => 1,
        NodeKind::Thread => 2,
        NodeKind::Routine => 3,
        NodeKind::External => 4,
        NodeKind::Loop => 5,
        NodeKind::Iteration => 6,
        NodeKind::Collapsed => 7,
        NodeKind::Projected => 8,
    }
}

fn link(links: &NodeColumn<u32>, node: NodeId) -> Option<NodeId> {
    match links.get(node.0 as usize) {
        Some(l) if l != NONE => Some(NodeId(l)),
        _ => None,
    }
}

fn code_kind(code: u8) -> NodeKind {
    match code & KIND_BITS {
        1 => NodeKind::Root,
        2 => NodeKind::Thread,
        3 => NodeKind::Routine,
        5 => NodeKind::Loop,
        6 => NodeKind::Iteration,
        7 => NodeKind::Collapsed,
        8 => NodeKind::Projected,
        _ => NodeKind::External,
    }
}

impl Default for ExecutionTree {
    fn default() -> Self {
        ExecutionTree {
            flags: NodeColumn::new(ABSENT),
            parent: NodeColumn::new(NONE),
            first_child: NodeColumn::new(NONE),
            last_child: NodeColumn::new(NONE),
            next_sibling: NodeColumn::new(NONE),
            method: NodeColumn::new(NONE),
            size: NodeColumn::new(0),
            collapsed_last: Column::new(NONE),
            projected: 0,
            absorbed: 0,
            by_method: HashMap::new(),
            next_call: Column::new(NONE),
            coverage: [None, None],
            count: 0,
            sealed: false,
            bound: None,
            forest: ForestOptions::OFF,
        }
    }
}

impl ExecutionTree {
    pub fn new() -> Self {
        Self::default()
    }

    /// The persistence bound: keep about `bound.nodes` nodes of the skeleton in memory (the
    /// most recently changed pages: the running calls and their neighbours) and spill the others
    /// to `bound.pages`; `None` keeps everything.
    pub fn set_persistence_bound(&mut self, bound: Option<PersistenceBound>) {
        let b = bound.as_ref();
        self.flags.set_bound(b);
        self.parent.set_bound(b);
        self.first_child.set_bound(b);
        self.last_child.set_bound(b);
        self.next_sibling.set_bound(b);
        self.method.set_bound(b);
        self.size.set_bound(b);
        self.collapsed_last.set_bound(b);
        self.next_call.set_bound(b);
        for store in self.coverage.iter_mut().flatten() {
            store.set_bound(b);
        }
        self.bound = bound;
    }

    /// How the session makes the execution forest from this tree (off by default). Set before
    /// the session is made: nodes already balanced stay as they are.
    pub fn set_forest_options(&mut self, options: ForestOptions) {
        self.forest = options;
    }

    pub fn forest_options(&self) -> ForestOptions {
        self.forest
    }

    /// The persistence bound set by [`Self::set_persistence_bound`]; structures indexed by node
    /// (the suspicious set) follow it too.
    pub fn persistence_bound(&self) -> Option<&PersistenceBound> {
        self.bound.as_ref()
    }

    /// The nodes of the persistence bound; `None`: every node stays in memory.
    pub fn resident_nodes(&self) -> Option<usize> {
        self.bound.as_ref().map(|b| b.nodes)
    }

    /// Pages of the skeleton's columns written out to their page stores.
    pub fn spilled_pages(&self) -> usize {
        self.flags.spilled_pages()
            + self.parent.spilled_pages()
            + self.first_child.spilled_pages()
            + self.last_child.spilled_pages()
            + self.next_sibling.spilled_pages()
            + self.method.spilled_pages()
            + self.size.spilled_pages()
            + self.collapsed_last.spilled_pages()
            + self.next_call.spilled_pages()
            + self
                .coverage
                .iter()
                .flatten()
                .map(CoverageStore::spilled_pages)
                .sum::<usize>()
    }

    /// Builds a tree from headers in recording order (convenience for tests and tools).
    pub fn from_headers<'a>(
        headers: impl IntoIterator<Item = &'a NodeHeader>,
    ) -> Result<Self, TreeError> {
        let mut tree = Self::new();
        for h in headers {
            tree.push(h)?;
        }
        Ok(tree)
    }

    /// Adds a node at its start, or completes it. A completion header for a node never started
    /// starts and completes it at once.
    pub fn push(&mut self, h: &NodeHeader) -> Result<Change, TreeError> {
        let id = h.id.0 as usize;
        if h.id.0 >= FOREST_BASE {
            return Err(TreeError::IdTooLarge { id: h.id });
        }
        if self.exists(h.id) {
            if self.recorded_kind(h.id) != h.kind || self.method(h.id) != h.method {
                return Err(TreeError::CompletionMismatch {
                    id: h.id,
                    what: "kind or method",
                });
            }
            // A child of a collapsed chain's call hangs below the collapsed node.
            let moved = self
                .parent(h.id)
                .is_some_and(|p| self.kind(p) == NodeKind::Collapsed && !self.is_absorbed(h.id));
            if !moved && self.recorded_parent(h.id) != h.parent {
                return Err(TreeError::CompletionMismatch {
                    id: h.id,
                    what: "parent",
                });
            }
            if !h.is_complete() {
                return Err(TreeError::DuplicateNode { id: h.id });
            }
            if self.is_complete(h.id) {
                return Ok(Change::Unchanged);
            }
            // Sizes (and the session's aggregates) count an open node's subtree only through
            // its parent's open children: a node that completes has none. The root completes
            // when the recording ends, with the threads still in calls (`System.exit`) open.
            if self.kind(h.id) != NodeKind::Root {
                if let Some(child) = self.open_children(h.id).next() {
                    return Err(TreeError::ChildStillOpen { id: h.id, child });
                }
            }
            self.flags.update(id, |f| *f |= COMPLETE);
            // Its subtree is closed now (its children completed before it): the parent takes it.
            let closed = self.size.at(id);
            self.add_size_above(h.id, i64::from(closed));
            return Ok(Change::Completed);
        }
        let parent = match (h.parent, h.kind) {
            (None, NodeKind::Root) => NONE,
            (None, _) => return Err(TreeError::MissingParent { id: h.id }),
            (Some(p), _) => {
                if p.0 >= h.id.0 {
                    return Err(TreeError::ParentAfterChild {
                        id: h.id,
                        parent: p,
                    });
                }
                if !self.exists(p) {
                    return Err(TreeError::UnknownParent {
                        id: h.id,
                        parent: p,
                    });
                }
                if self.kind(p) != NodeKind::Root {
                    if let Some(sibling) = self.last_child(p).filter(|&c| !self.is_complete(c)) {
                        return Err(TreeError::SiblingStillOpen { id: h.id, sibling });
                    }
                }
                p.0
            }
        };
        if id >= self.flags.len() {
            let n = id + 1;
            self.flags.grow(n);
            self.parent.grow(n);
            self.first_child.grow(n);
            self.last_child.grow(n);
            self.next_sibling.grow(n);
            self.method.grow(n);
            self.size.grow(n);
            self.next_call.grow(n);
        }
        self.flags.set(
            id,
            kind_code(h.kind)
                | if h.is_complete() { COMPLETE } else { 0 }
                | if h.chained { CHAINED } else { 0 },
        );
        self.parent.set(id, parent);
        self.method.set(id, h.method.map_or(NONE, |m| m.0));
        self.size.set(id, 1);
        if let Some(m) = h.method {
            match self.by_method.get_mut(&m) {
                Some((_, last)) => {
                    self.next_call.set(*last as usize, h.id.0);
                    *last = h.id.0;
                }
                None => {
                    self.by_method.insert(m, (h.id.0, h.id.0));
                }
            }
        }
        if parent != NONE {
            let p = parent as usize;
            let last = self.last_child.at(p);
            if last == NONE {
                self.first_child.set(p, h.id.0);
            } else {
                self.next_sibling.set(last as usize, h.id.0);
            }
            self.last_child.set(p, h.id.0);
            if h.is_complete() {
                self.add_size_above(h.id, 1);
            }
        }
        self.count += 1;
        Ok(if h.is_complete() {
            Change::Completed
        } else {
            Change::Started
        })
    }

    /// Records the coverage entities that `node` covers itself (not its callees).
    pub fn set_coverage(
        &mut self,
        node: NodeId,
        kind: CoverageKind,
        entities: &[u32],
    ) -> Result<(), TreeError> {
        if !self.contains(node) {
            return Err(TreeError::UnknownNode { id: node });
        }
        let n = self.flags.len();
        let bound = self.bound.as_ref();
        let store = self.coverage[kind.index()].get_or_insert_with(|| CoverageStore::new(bound));
        if store.has(node) {
            return Err(TreeError::CoverageAlreadySet { id: node, kind });
        }
        let mut sorted = entities.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        store.set(node, n, &sorted);
        Ok(())
    }

    /// Marks the recording as finished: nodes still incomplete will stay so.
    pub fn seal(&mut self) {
        self.sealed = true;
    }

    pub fn is_sealed(&self) -> bool {
        self.sealed
    }

    /// Number of nodes in the tree (the forest's: calls absorbed into a collapsed node do not
    /// count, projected nodes do).
    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// One past the largest id the recorder gave (arrays of that range are this long).
    pub fn id_bound(&self) -> usize {
        self.flags.len()
    }

    /// Projected nodes made so far: the forest's own ids are `FOREST_BASE..` that many more.
    pub fn forest_bound(&self) -> usize {
        self.projected as usize
    }

    /// Whether the tree has nodes of the forest (collapsed or projected), whose ids break
    /// `parent < child` and the preorder id ranges of plain trees.
    pub fn is_forest(&self) -> bool {
        self.projected > 0 || self.absorbed > 0
    }

    /// Whether `node` is a node of the tree (a call absorbed into a collapsed node is not).
    pub fn contains(&self, node: NodeId) -> bool {
        self.flags
            .get(node.0 as usize)
            .is_some_and(|f| f != ABSENT && f & ABSORBED == 0)
    }

    /// Whether the recorder's node `node` was given to the tree (absorbed calls included).
    pub fn exists(&self, node: NodeId) -> bool {
        self.flags.get(node.0 as usize).is_some_and(|f| f != ABSENT)
    }

    /// Whether `node` is a call absorbed into a collapsed node.
    pub fn is_absorbed(&self, node: NodeId) -> bool {
        self.flags
            .get(node.0 as usize)
            .is_some_and(|f| f & ABSORBED != 0)
    }

    /// The node of the tree that stands for the recorder's node `node`: itself, or the collapsed
    /// node that absorbed it. `None` if the tree never had it.
    pub fn image(&self, node: NodeId) -> Option<NodeId> {
        if self.is_absorbed(node) {
            self.parent(node)
        } else {
            self.contains(node).then_some(node)
        }
    }

    /// Whether the recorder marked `node` as starting in the state its previous sibling left.
    pub fn is_chained(&self, node: NodeId) -> bool {
        self.flags
            .get(node.0 as usize)
            .is_some_and(|f| f & CHAINED != 0)
    }

    /// Whether the forest transformation ran on `node`'s children.
    pub fn is_balanced(&self, node: NodeId) -> bool {
        self.flags
            .get(node.0 as usize)
            .is_some_and(|f| f & BALANCED != 0)
    }

    /// The calls a node stands for: a call itself, the first and last call of a collapsed node,
    /// the first and last recorded call below a projected node (its entry and exit state).
    pub fn span(&self, node: NodeId) -> Option<(NodeId, NodeId)> {
        match self.kind(node) {
            NodeKind::Collapsed => Some((node, self.collapsed_last(node))),
            NodeKind::Projected => {
                let mut first = self.first_child(node)?;
                while first.0 >= FOREST_BASE {
                    first = self.first_child(first)?;
                }
                let mut last = self.last_child(node)?;
                while last.0 >= FOREST_BASE {
                    last = self.last_child(last)?;
                }
                Some((self.span(first)?.0, self.span(last)?.1))
            }
            _ => self.contains(node).then_some((node, node)),
        }
    }

    fn collapsed_last(&self, node: NodeId) -> NodeId {
        match self.collapsed_last.get(node.0 as usize) {
            Some(l) if l != NONE => NodeId(l),
            _ => node,
        }
    }

    /// Whether `node` is code of its frame's method rather than a call: a loop, an iteration,
    /// or a projected node over a run of them (a loop's iterations form a chain).
    pub fn is_frame_fragment(&self, node: NodeId) -> bool {
        match self.kind(node) {
            NodeKind::Loop | NodeKind::Iteration => true,
            NodeKind::Projected => self.children(node).all(|c| self.is_frame_fragment(c)),
            _ => false,
        }
    }

    /// The recorder's calls a node stands for, in call order: one for a call, the chain of a
    /// collapsed node; none for other kinds.
    pub fn calls_in(&self, node: NodeId) -> Vec<NodeId> {
        match self.kind(node) {
            NodeKind::Collapsed => {
                let last = self.collapsed_last(node);
                let mut calls = vec![node];
                calls.extend(
                    (node.0 + 1..=last.0)
                        .map(NodeId)
                        .filter(|&c| self.is_absorbed(c) && self.parent(c) == Some(node)),
                );
                calls
            }
            NodeKind::Routine | NodeKind::External if self.contains(node) => vec![node],
            _ => Vec::new(),
        }
    }

    /// The kind the recorder gave (a collapsed node is its first call, a routine).
    fn recorded_kind(&self, node: NodeId) -> NodeKind {
        match self.kind(node) {
            NodeKind::Collapsed => NodeKind::Routine,
            k => k,
        }
    }

    /// The parent the recorder gave: through collapsed and projected nodes.
    pub fn recorded_parent(&self, node: NodeId) -> Option<NodeId> {
        let mut x = if self.is_absorbed(node) {
            self.parent(node)?
        } else {
            node
        };
        loop {
            let p = self.parent(x)?;
            if p.0 < FOREST_BASE {
                return Some(p);
            }
            x = p;
        }
    }

    /// The node's kind. The node must be in the tree (check ids from outside with `contains`);
    /// an absent node reads as `External`, a kind nothing asks or counts.
    pub fn kind(&self, node: NodeId) -> NodeKind {
        self.flags
            .get(node.0 as usize)
            .filter(|&f| f != ABSENT)
            .map_or(NodeKind::External, code_kind)
    }

    // Forest primitives, used by `tree::forest`; each keeps sizes and the node count exact.

    /// Marks the forest transformation as done on `node`'s children.
    pub(crate) fn mark_balanced(&mut self, node: NodeId) {
        self.flags.update(node.0 as usize, |f| *f |= BALANCED);
    }

    /// Collapses `calls` (consecutive siblings, in call order, at least two, whose children are
    /// leaves the session never asks) into the first of them, which becomes a collapsed node;
    /// the others leave the tree and their children hang below the collapsed node, in order.
    pub(crate) fn collapse(&mut self, calls: &[NodeId]) {
        let (Some(&first), Some(&last)) = (calls.first(), calls.last()) else {
            return;
        };
        let below: Vec<NodeId> = calls.iter().flat_map(|&c| self.children(c)).collect();
        if !below.is_empty() {
            self.set_children(first, &below);
            let size: u32 = below.iter().map(|&c| self.subtree_size(c)).sum();
            self.size.set(first.0 as usize, size + 1);
        }
        let parent = self.parent(first);
        let after = self.next_sibling.at(last.0 as usize);
        self.next_sibling.set(first.0 as usize, after);
        if let Some(p) = parent {
            if self.last_child.at(p.0 as usize) == last.0 {
                self.last_child.set(p.0 as usize, first.0);
            }
        }
        self.flags.update(first.0 as usize, |f| {
            *f = (*f & !KIND_BITS) | kind_code(NodeKind::Collapsed)
        });
        for &c in &calls[1..] {
            self.flags.update(c.0 as usize, |f| *f |= ABSORBED);
            self.parent.set(c.0 as usize, first.0);
        }
        if self.collapsed_last.len() <= first.0 as usize {
            self.collapsed_last.grow(first.0 as usize + 1);
        }
        self.collapsed_last.set(first.0 as usize, last.0);
        let gone = (calls.len() - 1) as u32;
        self.absorbed += calls.len() - 1;
        self.count -= calls.len() - 1;
        self.add_size_above(first, -i64::from(gone));
    }

    /// A new projected node, complete, not yet linked anywhere (see [`Self::set_children`]).
    pub(crate) fn new_projected(&mut self, method: Option<MethodId>, chained: bool) -> NodeId {
        let id = FOREST_BASE + self.projected;
        self.projected += 1;
        let n = self.projected as usize;
        for c in [
            &mut self.parent,
            &mut self.first_child,
            &mut self.last_child,
            &mut self.next_sibling,
            &mut self.method,
        ] {
            c.grow_forest(n);
        }
        self.flags.grow_forest(n);
        self.size.grow_forest(n);
        let i = id as usize;
        self.flags.set(
            i,
            kind_code(NodeKind::Projected)
                | COMPLETE
                | BALANCED
                | if chained { CHAINED } else { 0 },
        );
        self.method.set(i, method.map_or(NONE, |m| m.0));
        self.size.set(i, 1);
        self.count += 1;
        NodeId(id)
    }

    /// Makes `children` (nodes of the tree, in call order) the children of `node`, replacing
    /// its list. Sizes are the caller's (see [`Self::set_size`]).
    pub(crate) fn set_children(&mut self, node: NodeId, children: &[NodeId]) {
        let i = node.0 as usize;
        self.first_child
            .set(i, children.first().map_or(NONE, |c| c.0));
        self.last_child
            .set(i, children.last().map_or(NONE, |c| c.0));
        for (k, &c) in children.iter().enumerate() {
            self.parent.set(c.0 as usize, node.0);
            self.next_sibling
                .set(c.0 as usize, children.get(k + 1).map_or(NONE, |n| n.0));
        }
    }

    pub(crate) fn set_size(&mut self, node: NodeId, size: u32) {
        self.size.set(node.0 as usize, size);
    }

    /// Adds `delta` to the closed sizes above `node` that count `node`'s subtree: none if
    /// `node` is open, else its parent's and on up through complete nodes, the first open
    /// ancestor included (an open node's own stored size counts only its complete children).
    pub(crate) fn add_size_above(&mut self, node: NodeId, delta: i64) {
        let mut x = node;
        while self.is_complete(x) {
            let Some(p) = self.parent(x) else {
                return;
            };
            self.size
                .update(p.0 as usize, |s| *s = (i64::from(*s) + delta) as u32);
            x = p;
        }
    }

    pub fn is_complete(&self, node: NodeId) -> bool {
        self.flags
            .get(node.0 as usize)
            .is_some_and(|f| f & COMPLETE != 0)
    }

    pub fn method(&self, node: NodeId) -> Option<MethodId> {
        match self.method.get(node.0 as usize) {
            Some(m) if m != NONE => Some(MethodId(m)),
            _ => None,
        }
    }

    pub fn parent(&self, node: NodeId) -> Option<NodeId> {
        match self.parent.get(node.0 as usize) {
            Some(p) if p != NONE => Some(NodeId(p)),
            _ => None,
        }
    }

    pub fn first_child(&self, node: NodeId) -> Option<NodeId> {
        link(&self.first_child, node)
    }

    pub fn last_child(&self, node: NodeId) -> Option<NodeId> {
        link(&self.last_child, node)
    }

    pub fn next_sibling(&self, node: NodeId) -> Option<NodeId> {
        link(&self.next_sibling, node)
    }

    /// Children in call order.
    pub fn children(&self, node: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        std::iter::successors(self.first_child(node), move |&c| self.next_sibling(c))
    }

    /// The nodes from the root down to `node`, both included, each with its position among
    /// its parent's children (0 for the root): what a lazy UI tree needs to expand the way to a
    /// deep node. Empty when `node` is not in the tree. Costs the depth plus the siblings
    /// before each node on the way.
    pub fn path_from_root(&self, node: NodeId) -> Vec<(NodeId, u32)> {
        if !self.contains(node) {
            return Vec::new();
        }
        let mut path = Vec::new();
        let mut x = node;
        loop {
            match self.parent(x) {
                Some(p) => {
                    let index = self.children(p).take_while(|&c| c != x).count();
                    path.push((x, index as u32));
                    x = p;
                }
                None => {
                    path.push((x, 0));
                    break;
                }
            }
        }
        path.reverse();
        path
    }

    /// Number of nodes in the subtree rooted at `node`, itself included.
    pub fn subtree_size(&self, node: NodeId) -> u32 {
        self.sum_open(node, |x| self.size.get(x.0 as usize).unwrap_or(0))
    }

    /// The sum of a closed aggregate (`closed`) over `node` and the open nodes below it: the
    /// aggregate of its whole subtree. A loop, not a recursion: an open spine is as deep as the
    /// program's stack, 10^4 calls and more when it recurses without end.
    pub fn sum_open<T: std::ops::Add<Output = T>>(
        &self,
        node: NodeId,
        closed: impl Fn(NodeId) -> T,
    ) -> T {
        let mut sum = closed(node);
        for top in self.open_children(node) {
            // Below the root (whose threads run side by side) a node has one open child at
            // most: `push` refuses a sibling started before the last one completed.
            let mut x = Some(top);
            while let Some(n) = x {
                sum = sum + closed(n);
                x = self.open_children(n).next();
            }
        }
        sum
    }

    /// The children of `node` not complete yet, whose subtrees its closed aggregates leave out
    /// (see the module documentation): none under a complete node, the last child under a call,
    /// a loop, an iteration or a thread, and under the root every thread still running.
    pub fn open_children(&self, node: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        // One read of the flags: sizes and weights are read often, spilled pages included.
        let flags = self.flags.get(node.0 as usize).unwrap_or(ABSENT);
        let root = flags != ABSENT && code_kind(flags) == NodeKind::Root;
        // The root completes when the recording ends, even with threads still open.
        let (last, all) = if root {
            (None, Some(self.children(node)))
        } else if flags & COMPLETE != 0 || flags == ABSENT {
            (None, None)
        } else {
            (self.last_child(node), None)
        };
        last.into_iter()
            .chain(all.into_iter().flatten())
            .filter(move |&c| !self.is_complete(c))
    }

    /// Every call of `method` recorded so far, in recording order (calls absorbed into a
    /// collapsed node included; the collapsed node is the chain's first call).
    pub fn calls_of(&self, method: MethodId) -> impl Iterator<Item = NodeId> + '_ {
        let first = self.by_method.get(&method).map(|&(first, _)| NodeId(first));
        std::iter::successors(first, move |&c| match self.next_call.get(c.0 as usize) {
            Some(l) if l != NONE => Some(NodeId(l)),
            _ => None,
        })
    }

    /// Whether coverage of `kind` was given (for some node).
    pub fn has_coverage_of(&self, kind: CoverageKind) -> bool {
        self.coverage_store(kind).is_some()
    }

    fn coverage_store(&self, kind: CoverageKind) -> Option<&CoverageStore> {
        self.coverage[kind.index()].as_ref()
    }

    /// Whether `node` was given a non-empty coverage of `kind`.
    pub fn has_node_coverage(&self, node: NodeId, kind: CoverageKind) -> bool {
        self.coverage_len(node, kind) > 0
    }

    /// Forgets the coverage of `kind`: what it took in memory is freed.
    pub fn clear_coverage(&mut self, kind: CoverageKind) {
        self.coverage[kind.index()] = None;
    }

    /// The entities of `kind` that `node` covers itself (empty if none were set), sorted. A
    /// collapsed node covers what its calls covered (the union).
    pub fn coverage(&self, node: NodeId, kind: CoverageKind) -> Vec<u32> {
        self.coverage_iter(node, kind).collect()
    }

    /// [`Self::coverage`] without collecting it (except for a collapsed node's union).
    pub fn coverage_iter(&self, node: NodeId, kind: CoverageKind) -> CoverageIter<'_> {
        let Some(store) = self.coverage_store(kind) else {
            return CoverageIter::Union(Vec::new().into_iter());
        };
        if self.kind(node) != NodeKind::Collapsed {
            return CoverageIter::Own(store.entities(node));
        }
        let mut all: Vec<u32> = self
            .calls_in(node)
            .into_iter()
            .flat_map(|c| store.entities(c))
            .collect();
        all.sort_unstable();
        all.dedup();
        CoverageIter::Union(all.into_iter())
    }

    /// How many entities of `kind` `node` covers itself.
    pub fn coverage_len(&self, node: NodeId, kind: CoverageKind) -> usize {
        if self.kind(node) == NodeKind::Collapsed {
            return self.coverage_iter(node, kind).count();
        }
        self.coverage_store(kind).map_or(0, |s| s.count(node))
    }

    /// The nodes that cover each of `entities` themselves, as (index in `entities`, node), the
    /// latest to complete first; a collapsed node once per entity for all its calls. The
    /// entities' calls are read together, in one pass backwards through the columns: beyond
    /// the persistence bound, one pass per entity would read most spilled pages each time.
    pub fn nodes_covering(&self, kind: CoverageKind, entities: &[u32]) -> Vec<(usize, NodeId)> {
        let Some(store) = self.coverage_store(kind) else {
            return Vec::new();
        };
        if self.absorbed == 0 {
            return store.covering(entities).collect();
        }
        let mut seen = rustc_hash::FxHashSet::default();
        store
            .covering(entities)
            .filter_map(|(k, b)| Some((k, self.image(b)?)))
            .filter(|&pair| seen.insert(pair))
            .collect()
    }

    /// How many nodes cover `entity` themselves.
    pub fn covering_count(&self, kind: CoverageKind, entity: u32) -> usize {
        self.coverage_store(kind)
            .map_or(0, |s| s.covering_count(entity))
    }

    /// Whether `a` is `b` or one of its ancestors.
    pub fn is_ancestor_or_self(&self, a: NodeId, b: NodeId) -> bool {
        let mut x = b.0;
        while x != NONE {
            if x == a.0 {
                return true;
            }
            // A recorded node's recorded ancestors have smaller ids; the forest's own nodes
            // (ids from FOREST_BASE) may stand anywhere between.
            if x < a.0 && a.0 < FOREST_BASE {
                return false;
            }
            x = self.parent.at(x as usize);
        }
        false
    }

    /// The subtree of `from` in preorder (children in call order).
    pub fn preorder(&self, from: NodeId) -> Preorder<'_> {
        Preorder {
            tree: self,
            start: from,
            next: self.contains(from).then_some(from),
        }
    }

    /// Every node, in preorder from the root.
    pub fn iter(&self) -> Preorder<'_> {
        self.preorder(NodeId::ROOT)
    }

    /// The preorder successor of `x` within the subtree of `start`, skipping x's subtree if
    /// `descend` is false.
    pub fn preorder_next(&self, start: NodeId, x: NodeId, descend: bool) -> Option<NodeId> {
        if descend {
            if let Some(c) = self.first_child(x) {
                return Some(c);
            }
        }
        let mut y = x;
        while y != start {
            if let Some(s) = self.next_sibling(y) {
                return Some(s);
            }
            y = self.parent(y)?;
        }
        None
    }
}

/// The entities a node covers (see [`ExecutionTree::coverage_iter`]).
pub enum CoverageIter<'a> {
    Own(super::coverage::Entities<'a>),
    Union(std::vec::IntoIter<u32>),
}

impl Iterator for CoverageIter<'_> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        match self {
            CoverageIter::Own(i) => i.next(),
            CoverageIter::Union(i) => i.next(),
        }
    }
}

/// Preorder iterator over a subtree; needs no stack (climbs parent links).
pub struct Preorder<'a> {
    tree: &'a ExecutionTree,
    start: NodeId,
    next: Option<NodeId>,
}

impl Iterator for Preorder<'_> {
    type Item = NodeId;

    fn next(&mut self) -> Option<NodeId> {
        let x = self.next?;
        self.next = self.tree.preorder_next(self.start, x, true);
        Some(x)
    }
}
