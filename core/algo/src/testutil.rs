//! Test helpers: brute-force versions of the suspicious-set definitions, to check the
//! incremental aggregates against, and the papers' example trees.

use std::collections::{HashMap, HashSet};

use crate::ids::{MethodId, NodeId};
use crate::session::{Answer, Session};
use crate::tree::synthetic::TreeBuilder;
use crate::tree::{CoverageKind, ExecutionTree, NodeKind};

/// The suspicious set recomputed from the definitions of DESIGN.md and the answer log alone.
pub struct BruteForce {
    pub region_root: NodeId,
    pub marks: HashMap<NodeId, Answer>,
    pub trusted: HashSet<MethodId>,
}

impl BruteForce {
    pub fn new(session: &Session, policy: &HashSet<MethodId>) -> Self {
        let mut marks = HashMap::new();
        let mut trusted = policy.clone();
        let mut region_root = NodeId::ROOT;
        for &(n, a) in session.answers() {
            match a {
                Answer::Trusted => {
                    trusted.insert(session.tree().method(n).unwrap());
                }
                Answer::Invalid => {
                    region_root = n;
                    marks.insert(n, a);
                }
                _ => {
                    marks.insert(n, a);
                }
            }
        }
        BruteForce {
            region_root,
            marks,
            trusted,
        }
    }

    pub fn suspicious(&self, tree: &ExecutionTree, b: NodeId) -> bool {
        let call = tree.kind(b).is_askable();
        let trusted = tree.kind(b) == NodeKind::External
            || tree.method(b).is_some_and(|m| self.trusted.contains(&m));
        call && tree.is_complete(b)
            && !trusted
            && tree.is_ancestor_or_self(self.region_root, b)
            && !self.under_valid(tree, b)
    }

    pub fn under_valid(&self, tree: &ExecutionTree, b: NodeId) -> bool {
        let mut y = Some(b);
        while let Some(n) = y {
            if self.marks.get(&n) == Some(&Answer::Valid) {
                return true;
            }
            if n == self.region_root {
                return false;
            }
            y = tree.parent(n);
        }
        false
    }

    /// Checks the session's aggregates against the definitions, for every node of the region.
    pub fn check(&self, session: &Session, coverage: Option<(CoverageKind, f64)>) {
        let tree = session.tree();
        let set = session.suspicious();
        assert_eq!(set.region_root(), self.region_root);
        let mut v: HashMap<u32, i32> = HashMap::new();
        if let Some((kind, _)) = coverage {
            for (&n, &a) in &self.marks {
                if a == Answer::Valid {
                    for e in tree.coverage(n, kind) {
                        *v.entry(e).or_default() += 1;
                    }
                }
            }
        }
        for x in tree.iter() {
            assert_eq!(
                set.is_trusted(x),
                tree.kind(x) == NodeKind::External
                    || tree.method(x).is_some_and(|m| self.trusted.contains(&m)),
                "trust of node {x}"
            );
        }
        // Coverage weights may be off by the tolerated share of the region's exact weight.
        let mut slack = None;
        for x in tree.preorder(self.region_root) {
            if self.under_valid(tree, x) {
                continue;
            }
            assert_eq!(set.is_suspicious(x), self.suspicious(tree, x), "node {x}");
            let members: Vec<NodeId> = tree
                .preorder(x)
                .filter(|&b| self.suspicious(tree, b))
                .collect();
            assert_eq!(set.weight(x) as usize, members.len(), "weight of node {x}");
            if let Some((kind, p)) = coverage {
                let cbw: f64 = members
                    .iter()
                    .flat_map(|&b| tree.coverage(b, kind))
                    .map(|e| p.powi(v.get(&e).copied().unwrap_or(0)))
                    .sum();
                let got = set.coverage_weight(x);
                let slack = *slack.get_or_insert(set.coverage_tolerance() * cbw);
                assert!(
                    (got - cbw).abs() <= slack + 1e-9,
                    "cbw of node {x}: {got} != {cbw} (tolerance {slack})"
                );
            }
        }
    }
}

/// The jhyde paper's MergeSort tree (section 4): main -> [sort -> [distribute, merge, merge,
/// distribute, merge], toString, println], with edge coverage giving the subtree weights 46,
/// 45, 7, 8, 8, 7, 10, 0, 0 in preorder. Returns the tree and the nodes in preorder.
pub fn mergesort() -> (ExecutionTree, Vec<NodeId>) {
    const MAIN: u32 = 0;
    const SORT: u32 = 1;
    const DISTRIBUTE: u32 = 2;
    const MERGE: u32 = 3;
    let mut b = TreeBuilder::new();
    let t = b.thread();
    let main = b.call(t, MAIN);
    let sort = b.call(main, SORT);
    let d1 = b.call(sort, DISTRIBUTE);
    let m1 = b.call(sort, MERGE);
    let m2 = b.call(sort, MERGE);
    let d2 = b.call(sort, DISTRIBUTE);
    let m3 = b.call(sort, MERGE);
    let to_string = b.external(main, 10);
    let println = b.external(main, 11);
    // Entities: main 1 edge, sort 5, distribute 7 of its edges, merge 8, 8 and 10 of its edges.
    b.coverage(main, CoverageKind::Edge, &[0]);
    b.coverage(sort, CoverageKind::Edge, &[10, 11, 12, 13, 14]);
    let dist: Vec<u32> = (20..27).collect();
    b.coverage(d1, CoverageKind::Edge, &dist);
    b.coverage(d2, CoverageKind::Edge, &dist);
    let merge8: Vec<u32> = (30..38).collect();
    let merge10: Vec<u32> = (30..40).collect();
    b.coverage(m1, CoverageKind::Edge, &merge8);
    b.coverage(m2, CoverageKind::Edge, &merge8);
    b.coverage(m3, CoverageKind::Edge, &merge10);
    (
        b.build(),
        vec![main, sort, d1, m1, m2, d2, m3, to_string, println],
    )
}
