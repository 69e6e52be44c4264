//! The in-memory skeleton of the execution tree, grown from `NodeHeader`s as the recorder emits
//! them.
//!
//! Struct-of-arrays indexed by node id (ids are dense and a parent is always recorded before its
//! children, so `parent < child`): 25 bytes per node in paged columns ([`super::column`]), plus
//! the per-method list of calls (4 more, also paged), plus coverage (`super::coverage`, paged
//! too: 8 bytes per node and 12 per entity a call covers). With a persistence bound
//! ([`ExecutionTree::set_persistence_bound`]) the columns keep only about that many nodes in
//! memory and spill the rest to the bound's page storage. Children keep call order through
//! first/last child and next-sibling links; subtree sizes are kept up to date on every insertion
//! (one walk up the ancestors).

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::column::{Column, PersistenceBound};
use super::coverage::CoverageStore;
use super::node::{NodeHeader, NodeKind};
use crate::ids::{MethodId, NodeId};

const NONE: u32 = u32::MAX;
const ABSENT: u8 = 0;
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
    #[error("node {id} already has {kind:?} coverage; coverage is set once per node and kind")]
    CoverageAlreadySet { id: NodeId, kind: CoverageKind },
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
    flags: Column<u8>,
    parent: Column<u32>,
    first_child: Column<u32>,
    last_child: Column<u32>,
    next_sibling: Column<u32>,
    method: Column<u32>,
    size: Column<u32>,
    /// Per method: its first and last call; the calls in between are linked by `next_call`.
    by_method: HashMap<MethodId, (u32, u32)>,
    next_call: Column<u32>,
    coverage: [Option<CoverageStore>; 2],
    count: usize,
    sealed: bool,
    bound: Option<PersistenceBound>,
}

fn kind_code(kind: NodeKind) -> u8 {
    match kind {
        NodeKind::Root => 1,
        NodeKind::Thread => 2,
        NodeKind::Routine => 3,
        NodeKind::External => 4,
        NodeKind::Loop => 5,
        NodeKind::Iteration => 6,
    }
}

/// The bits of a node's flags that hold its kind code (the others: `COMPLETE`).
const KIND_BITS: u8 = 0x0F;

fn link(links: &Column<u32>, node: NodeId) -> Option<NodeId> {
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
        _ => NodeKind::External,
    }
}

impl Default for ExecutionTree {
    fn default() -> Self {
        ExecutionTree {
            flags: Column::new(ABSENT),
            parent: Column::new(NONE),
            first_child: Column::new(NONE),
            last_child: Column::new(NONE),
            next_sibling: Column::new(NONE),
            method: Column::new(NONE),
            size: Column::new(0),
            by_method: HashMap::new(),
            next_call: Column::new(NONE),
            coverage: [None, None],
            count: 0,
            sealed: false,
            bound: None,
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
        self.next_call.set_bound(b);
        for store in self.coverage.iter_mut().flatten() {
            store.set_bound(b);
        }
        self.bound = bound;
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
        if self.contains(h.id) {
            if self.code_kind(id) != h.kind || self.method(h.id) != h.method {
                return Err(TreeError::CompletionMismatch {
                    id: h.id,
                    what: "kind or method",
                });
            }
            if self.parent(h.id) != h.parent {
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
            self.flags.update(id, |f| *f |= COMPLETE);
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
                if !self.contains(p) {
                    return Err(TreeError::UnknownParent {
                        id: h.id,
                        parent: p,
                    });
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
            kind_code(h.kind) | if h.is_complete() { COMPLETE } else { 0 },
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
            let mut a = parent;
            while a != NONE {
                self.size.update(a as usize, |s| *s += 1);
                a = self.parent.at(a as usize);
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

    /// Number of nodes in the tree.
    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// One past the largest node id (arrays are this long).
    pub fn id_bound(&self) -> usize {
        self.flags.len()
    }

    pub fn contains(&self, node: NodeId) -> bool {
        self.flags.get(node.0 as usize).is_some_and(|f| f != ABSENT)
    }

    fn code_kind(&self, i: usize) -> NodeKind {
        code_kind(self.flags.at(i))
    }

    /// The node's kind. The node must be in the tree (check ids from outside with `contains`);
    /// an absent node reads as `External`, a kind nothing asks or counts.
    pub fn kind(&self, node: NodeId) -> NodeKind {
        self.flags
            .get(node.0 as usize)
            .filter(|&f| f != ABSENT)
            .map_or(NodeKind::External, code_kind)
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
        self.size.get(node.0 as usize).unwrap_or(0)
    }

    /// Every call of `method` recorded so far, in recording order.
    pub fn calls_of(&self, method: MethodId) -> impl Iterator<Item = NodeId> + '_ {
        let first = self.by_method.get(&method).map(|&(first, _)| NodeId(first));
        std::iter::successors(first, move |&c| link(&self.next_call, c))
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

    /// The entities of `kind` that `node` covers itself (empty if none were set), sorted.
    pub fn coverage(&self, node: NodeId, kind: CoverageKind) -> Vec<u32> {
        self.coverage_iter(node, kind).collect()
    }

    /// [`Self::coverage`] without collecting it.
    pub fn coverage_iter(
        &self,
        node: NodeId,
        kind: CoverageKind,
    ) -> impl Iterator<Item = u32> + '_ {
        self.coverage_store(kind)
            .map(|s| s.entities(node))
            .into_iter()
            .flatten()
    }

    /// How many entities of `kind` `node` covers itself.
    pub fn coverage_len(&self, node: NodeId, kind: CoverageKind) -> usize {
        self.coverage_store(kind).map_or(0, |s| s.count(node))
    }

    /// The nodes that cover `entity` themselves, the latest to complete first.
    pub fn nodes_covering(
        &self,
        kind: CoverageKind,
        entity: u32,
    ) -> impl Iterator<Item = NodeId> + '_ {
        self.coverage_store(kind)
            .map(|s| s.covering(entity))
            .into_iter()
            .flatten()
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
            if x < a.0 {
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
