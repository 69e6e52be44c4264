//! The children of the nodes a search looks at, with what it reads of each, kept in memory.
//!
//! Divide and query and its variants look, at every question, at the children of each node on
//! the path of nodes heavier than half the suspicious set (`strategy::half_candidates`). A
//! call's children are numbered in preorder, so those of a wide node lie all over the per-node
//! columns; beyond the persistence bound most of them are on spilled pages, and each read of
//! one child cost a page read per column, at every question. Between two questions only a few
//! of those children change (the answered node and its ancestors), so the views are kept and
//! only what changed is read again.
//!
//! Invariant: a view that is not marked stale holds what the suspicious set would read for
//! that child now. The set marks a child stale when it changes that child's weight or mark
//! ([`ChildViews::touch`]) and forgets everything on any wider change ([`ChildViews::clear`]:
//! nodes arriving, trust, recomputation of the region).

use rustc_hash::FxHashMap;

use super::answer::Answer;
use crate::ids::NodeId;

/// At most this many children are kept (about 24 bytes each, twice that with the index): a
/// node with more children is read from the columns every time.
const CAPACITY: usize = 1 << 18;

/// What a search reads of a child: its weights, its answer and whether it is a member of the
/// suspicious set.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChildView {
    pub id: NodeId,
    /// The number of suspicious nodes in its subtree.
    pub count: u32,
    /// Its coverage-based weight (0 without coverage weighting).
    pub coverage: f64,
    /// The answer recorded for it (trusted is recorded per method, not here).
    pub mark: Option<Answer>,
    /// Whether it is a member of the suspicious set (`SuspiciousSet::is_member`).
    pub member: bool,
    stale: bool,
}

impl ChildView {
    pub(super) fn new(
        id: NodeId,
        count: u32,
        coverage: f64,
        mark: Option<Answer>,
        member: bool,
    ) -> Self {
        ChildView {
            id,
            count,
            coverage,
            mark,
            member,
            stale: false,
        }
    }

    /// `SuspiciousSet::is_askable` of this child, `root` being the region root.
    pub fn is_askable(&self, root: NodeId) -> bool {
        self.mark.is_none() && self.member && self.id != root
    }
}

#[derive(Default)]
pub(super) struct ChildViews {
    by_parent: FxHashMap<NodeId, Vec<ChildView>>,
    /// Where each kept child is: its parent and its place among the parent's children.
    slot: FxHashMap<NodeId, (NodeId, u32)>,
}

impl ChildViews {
    pub(super) fn is_empty(&self) -> bool {
        self.slot.is_empty()
    }

    pub(super) fn clear(&mut self) {
        if !self.is_empty() {
            self.by_parent.clear();
            self.slot.clear();
        }
    }

    /// `x`'s weight or mark changed: its view must be read again.
    pub(super) fn touch(&mut self, x: NodeId) {
        if let Some(&(p, i)) = self.slot.get(&x) {
            if let Some(v) = self
                .by_parent
                .get_mut(&p)
                .and_then(|vs| vs.get_mut(i as usize))
            {
                v.stale = true;
            }
        }
    }

    /// The kept views of `parent`'s children, each stale one read again with `read`; `None`
    /// when they are not kept.
    pub(super) fn get(
        &mut self,
        parent: NodeId,
        read: impl Fn(NodeId) -> ChildView,
    ) -> Option<&[ChildView]> {
        let views = self.by_parent.get_mut(&parent)?;
        for v in views.iter_mut().filter(|v| v.stale) {
            *v = read(v.id);
        }
        Some(views)
    }

    /// The views kept and not marked stale.
    #[cfg(test)]
    pub(super) fn fresh(&self) -> impl Iterator<Item = &ChildView> {
        self.by_parent.values().flatten().filter(|v| !v.stale)
    }

    /// Keeps `views`, the children of `parent`, if there is room (making room by forgetting
    /// the others when needed).
    pub(super) fn keep(&mut self, parent: NodeId, views: &[ChildView]) {
        if views.len() > CAPACITY / 2 {
            return;
        }
        if self.slot.len() + views.len() > CAPACITY {
            self.clear();
        }
        for (i, v) in views.iter().enumerate() {
            self.slot.insert(v.id, (parent, i as u32));
        }
        self.by_parent.insert(parent, views.to_vec());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(id: u32, count: u32) -> ChildView {
        ChildView::new(NodeId(id), count, 0.0, None, true)
    }

    #[test]
    fn a_touched_child_is_read_again_and_the_others_are_not() {
        let mut views = ChildViews::default();
        views.keep(NodeId(1), &[view(2, 5), view(3, 7)]);
        views.touch(NodeId(3));
        let got = views.get(NodeId(1), |id| view(id.0, 100)).unwrap().to_vec();
        assert_eq!(got, vec![view(2, 5), view(3, 100)]);
        // Read again once, then kept as read.
        let again = views.get(NodeId(1), |id| view(id.0, 999)).unwrap().to_vec();
        assert_eq!(again, vec![view(2, 5), view(3, 100)]);
    }

    #[test]
    fn cleared_views_are_not_kept() {
        let mut views = ChildViews::default();
        views.keep(NodeId(1), &[view(2, 5)]);
        views.clear();
        assert!(views.is_empty());
        assert!(views.get(NodeId(1), |id| view(id.0, 0)).is_none());
        views.touch(NodeId(2));
    }

    #[test]
    fn views_beyond_the_capacity_start_over() {
        let mut views = ChildViews::default();
        let big: Vec<_> = (0..CAPACITY as u32 / 2).map(|i| view(10 + i, 1)).collect();
        views.keep(NodeId(1), &big);
        views.keep(NodeId(2), &[view(5, 1)]);
        let third: Vec<_> = (0..CAPACITY as u32 / 2)
            .map(|i| view(u32::MAX / 2 + i, 1))
            .collect();
        views.keep(NodeId(3), &third);
        assert!(views.get(NodeId(1), |id| view(id.0, 0)).is_none());
        assert!(views.get(NodeId(3), |id| view(id.0, 0)).is_some());
        let too_big: Vec<_> = (0..CAPACITY as u32 / 2 + 1).map(|i| view(i, 1)).collect();
        views.keep(NodeId(4), &too_big);
        assert!(views.get(NodeId(4), |id| view(id.0, 0)).is_none());
    }
}
