//! The coverage entities of each call, kept in paged columns like the skeleton, so that they stay
//! within the persistence bound however long the run: each call's entities side by side (its
//! range in `start`/`len`), and for each entity the chain of the calls covering it, linked from
//! the latest back (`prev_same`), which is what the coverage strategies update after a valid
//! answer. Entities are appended in the order calls complete, so a chain runs backwards through
//! the columns and reading one touches each spilled page at most once.

use std::collections::BinaryHeap;

use rustc_hash::FxHashMap;

use super::column::{Column, PersistenceBound};
use crate::ids::NodeId;

const NONE: u32 = u32::MAX;

/// Entity positions kept in memory per resident node: a call covers a few entities of its own.
const POSITIONS_PER_NODE: usize = 1;

#[derive(Clone)]
pub(super) struct CoverageStore {
    /// Per node: its first position and how many entities it covers.
    start: Column<u32>,
    len: Column<u32>,
    /// Per position: the entity, the call covering it, the previous position of that entity.
    entity: Column<u32>,
    owner: Column<u32>,
    prev_same: Column<u32>,
    /// Per entity: its last position and how many calls cover it.
    heads: FxHashMap<u32, (u32, u32)>,
}

impl CoverageStore {
    pub(super) fn new(bound: Option<&PersistenceBound>) -> CoverageStore {
        let mut s = CoverageStore {
            start: Column::new(0),
            len: Column::new(0),
            entity: Column::new(0),
            owner: Column::new(NONE),
            prev_same: Column::new(NONE),
            heads: FxHashMap::default(),
        };
        s.set_bound(bound);
        s
    }

    pub(super) fn set_bound(&mut self, bound: Option<&PersistenceBound>) {
        self.start.set_bound(bound);
        self.len.set_bound(bound);
        let positions = bound.map(|b| {
            PersistenceBound::new(b.nodes.saturating_mul(POSITIONS_PER_NODE), b.pages.clone())
        });
        self.entity.set_bound(positions.as_ref());
        self.owner.set_bound(positions.as_ref());
        self.prev_same.set_bound(positions.as_ref());
    }

    pub(super) fn spilled_pages(&self) -> usize {
        self.start.spilled_pages()
            + self.len.spilled_pages()
            + self.entity.spilled_pages()
            + self.owner.spilled_pages()
            + self.prev_same.spilled_pages()
    }

    /// Whether `node` was given entities (a node given none counts as not given).
    pub(super) fn has(&self, node: NodeId) -> bool {
        self.len.get(node.0 as usize).is_some_and(|l| l > 0)
    }

    /// Appends the entities of `node` (sorted, without repeats).
    pub(super) fn set(&mut self, node: NodeId, nodes: usize, entities: &[u32]) {
        self.start.grow(nodes);
        self.len.grow(nodes);
        let i = node.0 as usize;
        let first = self.entity.len();
        self.start.set(i, first as u32);
        self.len.set(i, entities.len() as u32);
        let end = first + entities.len();
        self.entity.grow(end);
        self.owner.grow(end);
        self.prev_same.grow(end);
        for (k, &e) in entities.iter().enumerate() {
            let pos = (first + k) as u32;
            let head = self.heads.entry(e).or_insert((NONE, 0));
            self.entity.set(pos as usize, e);
            self.owner.set(pos as usize, node.0);
            self.prev_same.set(pos as usize, head.0);
            *head = (pos, head.1 + 1);
        }
    }

    pub(super) fn entities(&self, node: NodeId) -> Entities<'_> {
        let i = node.0 as usize;
        let (start, len) = match (self.start.get(i), self.len.get(i)) {
            (Some(s), Some(l)) => (s, l),
            _ => (0, 0),
        };
        Entities {
            store: self,
            positions: start..start + len,
        }
    }

    pub(super) fn count(&self, node: NodeId) -> usize {
        self.len.get(node.0 as usize).unwrap_or(0) as usize
    }

    /// The calls covering each of `entities`, as (index in `entities`, call), the latest
    /// position first. The chains are walked together, so that reading them touches each
    /// spilled page once, not once per entity.
    pub(super) fn covering(&self, entities: &[u32]) -> Covering<'_> {
        Covering {
            store: self,
            next: entities
                .iter()
                .enumerate()
                .filter_map(|(k, e)| self.heads.get(e).map(|h| (h.0, k)))
                .collect(),
        }
    }

    pub(super) fn covering_count(&self, entity: u32) -> usize {
        self.heads.get(&entity).map_or(0, |h| h.1 as usize)
    }
}

/// The entities one call covers itself (see [`CoverageStore::entities`]): a plain type, since
/// the coverage strategies read it for every node of a region.
pub struct Entities<'a> {
    store: &'a CoverageStore,
    positions: std::ops::Range<u32>,
}

impl Iterator for Entities<'_> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        let p = self.positions.next()?;
        Some(self.store.entity.at(p as usize))
    }
}

/// The calls covering some entities (see [`CoverageStore::covering`]).
pub(super) struct Covering<'a> {
    store: &'a CoverageStore,
    /// Per chain not walked to its end: its next position and the entity's index.
    next: BinaryHeap<(u32, usize)>,
}

impl Iterator for Covering<'_> {
    type Item = (usize, NodeId);

    fn next(&mut self) -> Option<(usize, NodeId)> {
        let (pos, k) = self.next.pop()?;
        let prev = self.store.prev_same.at(pos as usize);
        if prev != NONE {
            self.next.push((prev, k));
        }
        Some((k, NodeId(self.store.owner.at(pos as usize))))
    }
}
