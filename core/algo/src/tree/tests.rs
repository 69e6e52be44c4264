use super::synthetic::{header, random_tree, Shape, TreeBuilder};
use super::*;
use crate::ids::{MethodId, NodeId};

fn ids(v: impl IntoIterator<Item = NodeId>) -> Vec<u32> {
    v.into_iter().map(|n| n.0).collect()
}

#[test]
fn children_keep_call_order_and_sizes_grow_incrementally() {
    let mut b = TreeBuilder::new();
    let t = b.thread();
    let main = b.call(t, 0);
    let x = b.call(main, 1);
    let y = b.call(x, 2);
    let z = b.call(main, 3);
    let tree = b.build();
    assert_eq!(ids(tree.children(main)), vec![x.0, z.0]);
    assert_eq!(tree.parent(y), Some(x));
    assert_eq!(tree.subtree_size(NodeId::ROOT), 6);
    assert_eq!(tree.subtree_size(main), 4);
    assert_eq!(tree.subtree_size(x), 2);
    assert_eq!(ids(tree.iter()), vec![0, 1, main.0, x.0, y.0, z.0]);
    assert_eq!(ids(tree.preorder(x)), vec![x.0, y.0]);
    assert!(tree.is_ancestor_or_self(main, y));
    assert!(!tree.is_ancestor_or_self(z, y));
    assert_eq!(ids(tree.calls_of(MethodId(2))), vec![y.0]);
}

#[test]
fn nodes_start_incomplete_and_complete_later() {
    let mut tree = ExecutionTree::new();
    tree.push(&header(0, None, NodeKind::Root, None, false))
        .unwrap();
    tree.push(&header(1, Some(NodeId(0)), NodeKind::Thread, None, false))
        .unwrap();
    assert_eq!(
        tree.push(&header(
            2,
            Some(NodeId(1)),
            NodeKind::Routine,
            Some(7),
            false
        )),
        Ok(Change::Started)
    );
    assert!(!tree.is_complete(NodeId(2)));
    assert_eq!(
        tree.push(&header(
            2,
            Some(NodeId(1)),
            NodeKind::Routine,
            Some(7),
            true
        )),
        Ok(Change::Completed)
    );
    assert!(tree.is_complete(NodeId(2)));
    assert_eq!(
        tree.push(&header(
            2,
            Some(NodeId(1)),
            NodeKind::Routine,
            Some(7),
            true
        )),
        Ok(Change::Unchanged)
    );
    assert_eq!(tree.len(), 3);
    assert_eq!(tree.method(NodeId(2)), Some(MethodId(7)));
    assert_eq!(tree.kind(NodeId(1)), NodeKind::Thread);
}

#[test]
fn malformed_headers_are_rejected_with_the_reason() {
    let mut tree = ExecutionTree::new();
    assert_eq!(
        tree.push(&header(3, None, NodeKind::Routine, Some(1), false)),
        Err(TreeError::MissingParent { id: NodeId(3) })
    );
    tree.push(&header(0, None, NodeKind::Root, None, false))
        .unwrap();
    assert_eq!(
        tree.push(&header(
            4,
            Some(NodeId(2)),
            NodeKind::Routine,
            Some(1),
            false
        )),
        Err(TreeError::UnknownParent {
            id: NodeId(4),
            parent: NodeId(2)
        })
    );
    assert!(matches!(
        tree.push(&header(
            0,
            Some(NodeId(0)),
            NodeKind::Routine,
            Some(1),
            false
        )),
        Err(TreeError::CompletionMismatch { .. })
    ));
    tree.push(&header(1, Some(NodeId(0)), NodeKind::Thread, None, false))
        .unwrap();
    assert_eq!(
        tree.push(&header(1, Some(NodeId(0)), NodeKind::Thread, None, false)),
        Err(TreeError::DuplicateNode { id: NodeId(1) })
    );
    let mut h = header(5, Some(NodeId(1)), NodeKind::Routine, Some(1), false);
    tree.push(&h).unwrap();
    h.method = Some(MethodId(9));
    h.exit = Some(99);
    assert!(matches!(
        tree.push(&h),
        Err(TreeError::CompletionMismatch { .. })
    ));
    assert!(matches!(
        tree.push(&header(
            5,
            Some(NodeId(6)),
            NodeKind::Routine,
            Some(1),
            false
        )),
        Err(TreeError::CompletionMismatch { .. })
    ));
    let e = TreeError::ParentAfterChild {
        id: NodeId(2),
        parent: NodeId(3),
    };
    assert!(e.to_string().contains("ids must grow"));
    assert_eq!(tree.len(), 3);
}

#[test]
fn coverage_is_kept_per_kind_with_an_inverted_index() {
    let mut b = TreeBuilder::new();
    let t = b.thread();
    let a = b.call(t, 0);
    let c = b.call(a, 1);
    b.coverage(a, CoverageKind::Edge, &[5, 3, 5]);
    b.coverage(c, CoverageKind::Edge, &[3]);
    b.coverage(c, CoverageKind::DefUse, &[40, 41]);
    let mut tree = b.build();
    assert_eq!(tree.coverage(a, CoverageKind::Edge), &[3, 5]);
    assert_eq!(tree.coverage(a, CoverageKind::DefUse), &[] as &[u32]);
    assert_eq!(tree.coverage(c, CoverageKind::DefUse), &[40, 41]);
    // The latest given first; several entities at once, each pair once.
    assert_eq!(
        tree.nodes_covering(CoverageKind::Edge, &[3]),
        vec![(0, c), (0, a)]
    );
    assert_eq!(
        tree.nodes_covering(CoverageKind::Edge, &[5, 3, 9]),
        vec![(1, c), (0, a), (1, a)]
    );
    assert_eq!(tree.covering_count(CoverageKind::Edge, 3), 2);
    assert_eq!(tree.nodes_covering(CoverageKind::DefUse, &[3]), vec![]);
    assert_eq!(
        tree.set_coverage(c, CoverageKind::Edge, &[1]),
        Err(TreeError::CoverageAlreadySet {
            id: c,
            kind: CoverageKind::Edge
        })
    );
    assert_eq!(
        tree.set_coverage(NodeId(99), CoverageKind::Edge, &[1]),
        Err(TreeError::UnknownNode { id: NodeId(99) })
    );
}

#[test]
fn random_trees_are_consistent() {
    for seed in 0..5 {
        let tree = random_tree(
            seed,
            &Shape {
                calls: 500,
                ..Shape::default()
            },
        );
        assert_eq!(tree.len(), 502);
        assert_eq!(tree.iter().count(), 502);
        for x in tree.iter() {
            assert!(tree.is_complete(x));
            let children: u32 = tree.children(x).map(|c| tree.subtree_size(c)).sum();
            assert_eq!(tree.subtree_size(x), children + 1);
        }
    }
}

#[test]
fn accessors_on_absent_nodes_do_not_panic() {
    let tree = TreeBuilder::new().build();
    let absent = NodeId(1000);
    assert!(!tree.contains(absent));
    assert_eq!(tree.parent(absent), None);
    assert_eq!(tree.first_child(absent), None);
    assert_eq!(tree.last_child(absent), None);
    assert_eq!(tree.next_sibling(absent), None);
    assert_eq!(tree.subtree_size(absent), 0);
    assert_eq!(tree.method(absent), None);
    assert!(!tree.is_complete(absent));
    assert_eq!(tree.kind(absent), NodeKind::External);
    assert_eq!(tree.children(absent).count(), 0);
    assert_eq!(tree.preorder(absent).count(), 0);
    assert!(tree.coverage(absent, CoverageKind::Edge).is_empty());
}

#[test]
fn the_path_from_the_root_gives_each_nodes_position_among_its_siblings() {
    let mut b = TreeBuilder::new();
    let t = b.thread();
    let main = b.call(t, 0);
    let x = b.call(main, 1);
    let y = b.call(x, 2);
    let z = b.call(main, 3);
    let w = b.call(z, 4);
    let v = b.call(z, 5);
    let tree = b.build();
    let path = tree.path_from_root(v);
    assert_eq!(
        path,
        vec![(NodeId::ROOT, 0), (t, 0), (main, 0), (z, 1), (v, 1)]
    );
    assert_eq!(tree.path_from_root(y).last(), Some(&(y, 0)));
    assert_eq!(tree.path_from_root(w)[3], (z, 1));
    assert_eq!(tree.path_from_root(NodeId::ROOT), vec![(NodeId::ROOT, 0)]);
    assert!(tree.path_from_root(NodeId(99)).is_empty());
    // Every step is a child of the one before, at the position it says.
    for node in tree.iter() {
        let path = tree.path_from_root(node);
        for pair in path.windows(2) {
            let (parent, (child, index)) = (pair[0].0, pair[1]);
            assert_eq!(tree.children(parent).nth(index as usize), Some(child));
        }
        assert_eq!(path.last().map(|p| p.0), Some(node));
    }
}

/// Under a persistence bound that spills most pages, every query answers as on an unbounded
/// tree: children, parents, sizes, completeness and the calls of each method in order.
#[test]
fn a_spilling_tree_answers_like_one_in_memory() {
    use super::column::PAGE;
    let shape = Shape {
        calls: 4 * PAGE,
        methods: 30,
        ..Shape::default()
    };
    let free = random_tree(7, &shape);
    let mut bounded = ExecutionTree::new();
    bounded.set_persistence_bound(Some(PersistenceBound::in_memory(PAGE)));
    super::synthetic::random_recording(7, &shape, |e| {
        if let super::synthetic::Event::Header(h) = e {
            bounded.push(&h).unwrap();
        }
    });
    assert!(bounded.spilled_pages() > 0);
    assert_eq!(free.spilled_pages(), 0);
    assert_eq!(ids(bounded.iter()), ids(free.iter()));
    for i in (0..free.id_bound()).step_by(101) {
        let x = NodeId(i as u32);
        assert_eq!(bounded.parent(x), free.parent(x));
        assert_eq!(bounded.subtree_size(x), free.subtree_size(x));
        assert_eq!(bounded.is_complete(x), free.is_complete(x));
        assert_eq!(ids(bounded.children(x)), ids(free.children(x)));
    }
    for m in 0..30 {
        let calls = ids(free.calls_of(MethodId(m)));
        let brute: Vec<u32> = (0..free.id_bound() as u32)
            .filter(|&i| free.method(NodeId(i)) == Some(MethodId(m)))
            .collect();
        assert_eq!(calls, brute);
        assert_eq!(ids(bounded.calls_of(MethodId(m))), calls);
    }
}

/// Coverage is under the persistence bound too: a tree whose entities fill many pages keeps
/// only a few in memory and still gives every node its own entities and every entity its calls.
#[test]
fn coverage_spills_under_the_persistence_bound_and_reads_back_the_same() {
    use super::column::PAGE;
    let shape = Shape {
        calls: 3 * PAGE,
        methods: 40,
        coverage: true,
        ..Shape::default()
    };
    let build = |bound: Option<usize>, coverage: bool| {
        let mut tree = random_tree(7, &shape);
        if !coverage {
            tree.clear_coverage(CoverageKind::Edge);
            tree.clear_coverage(CoverageKind::DefUse);
        }
        tree.set_persistence_bound(bound.map(PersistenceBound::in_memory));
        tree
    };
    let free = build(None, true);
    let bounded = build(Some(PAGE), true);
    let skeleton_only = build(Some(PAGE), false);
    assert_eq!(free.spilled_pages(), 0);
    assert!(
        bounded.spilled_pages() > skeleton_only.spilled_pages(),
        "coverage pages stayed in memory: {} vs {}",
        bounded.spilled_pages(),
        skeleton_only.spilled_pages()
    );
    let mut entities = std::collections::HashSet::new();
    for x in free.iter() {
        for kind in [CoverageKind::Edge, CoverageKind::DefUse] {
            let own = free.coverage(x, kind);
            assert_eq!(bounded.coverage(x, kind), own, "node {x}");
            assert_eq!(bounded.coverage_len(x, kind), own.len());
            entities.extend(own.into_iter().map(|e| (kind, e)));
        }
    }
    assert!(entities.len() > 10);
    // Every chain read back crosses spilled pages: a sample of them is enough.
    let mut sample: Vec<(CoverageKind, u32)> = entities.into_iter().take(40).collect();
    sample.sort_unstable_by_key(|&(kind, e)| (kind as u8, e));
    let mut each = Vec::new();
    for &(kind, e) in &sample {
        let calls = free.nodes_covering(kind, &[e]);
        assert_eq!(bounded.nodes_covering(kind, &[e]), calls);
        assert_eq!(free.covering_count(kind, e), calls.len());
        for &(k, x) in &calls {
            assert_eq!(k, 0);
            assert!(free.coverage(x, kind).contains(&e));
        }
        each.extend(calls.into_iter().map(|(_, x)| (kind, e, x)));
    }
    // Read together, the chains give the same calls.
    let mut together = Vec::new();
    for kind in [CoverageKind::Edge, CoverageKind::DefUse] {
        let es: Vec<u32> = sample.iter().filter(|s| s.0 == kind).map(|s| s.1).collect();
        let calls = bounded.nodes_covering(kind, &es);
        together.extend(calls.into_iter().map(|(k, x)| (kind, es[k], x)));
    }
    let key = |&(kind, e, x): &(CoverageKind, u32, NodeId)| (kind as u8, e, x.0);
    each.sort_unstable_by_key(key);
    together.sort_unstable_by_key(key);
    assert_eq!(together, each);
}

#[test]
fn mergesort_weights_are_the_papers_subtree_sums_of_own_edges() {
    let (tree, nodes) = crate::testutil::mergesort();
    let w = subtree_weights(&tree, nodes[0], CoverageKind::Edge);
    let got: Vec<(NodeId, u64)> = w;
    let want: Vec<(NodeId, u64)> = nodes
        .iter()
        .copied()
        .zip([46, 45, 7, 8, 8, 7, 10, 0, 0])
        .collect();
    assert_eq!(got, want);
}

/// Sizes are kept closed and the open spine is added on reading: at every moment of a
/// recording of interleaved threads, each node's size is the number of nodes below it.
#[test]
fn subtree_sizes_count_open_nodes_at_every_moment() {
    let shape = Shape {
        calls: 300,
        threads: 3,
        ..Shape::default()
    };
    for seed in 0..4 {
        let mut tree = ExecutionTree::new();
        let mut pushed = 0;
        super::synthetic::random_recording(seed, &shape, |e| {
            if let super::synthetic::Event::Header(h) = e {
                tree.push(&h).unwrap();
                pushed += 1;
                if pushed % 7 == 0 {
                    for x in tree.iter() {
                        let counted = tree.preorder(x).count() as u32;
                        assert_eq!(
                            tree.subtree_size(x),
                            counted,
                            "node {x} after {pushed} headers"
                        );
                    }
                }
            }
        });
        tree.seal();
        for x in tree.iter() {
            assert_eq!(tree.subtree_size(x), tree.preorder(x).count() as u32);
        }
    }
}

/// A program that recurses without end leaves an open spine as deep as its stack: sizes are
/// read along it without recursing (a JNI caller's thread may have a small stack).
#[test]
fn a_deep_open_spine_is_read_without_recursion() {
    let depth = 200_000;
    let mut tree = ExecutionTree::new();
    tree.push(&header(0, None, NodeKind::Root, None, false))
        .unwrap();
    tree.push(&header(1, Some(NodeId(0)), NodeKind::Thread, None, false))
        .unwrap();
    for id in 2..depth {
        tree.push(&header(
            id,
            Some(NodeId(id - 1)),
            NodeKind::Routine,
            Some(0),
            false,
        ))
        .unwrap();
    }
    let reader = std::thread::Builder::new()
        .stack_size(64 * 1024)
        .spawn(move || tree.subtree_size(NodeId::ROOT))
        .unwrap();
    assert_eq!(reader.join().unwrap(), depth);
}

/// A program that calls `System.exit` inside a call ends with that thread's calls open: the
/// root still completes, and sizes count the open calls.
#[test]
fn the_root_completes_with_threads_still_in_calls() {
    let mut tree = ExecutionTree::new();
    tree.push(&header(0, None, NodeKind::Root, None, false))
        .unwrap();
    tree.push(&header(1, Some(NodeId(0)), NodeKind::Thread, None, false))
        .unwrap();
    tree.push(&header(
        2,
        Some(NodeId(1)),
        NodeKind::Routine,
        Some(0),
        false,
    ))
    .unwrap();
    tree.push(&header(
        3,
        Some(NodeId(2)),
        NodeKind::Routine,
        Some(1),
        true,
    ))
    .unwrap();
    assert_eq!(
        tree.push(&header(0, None, NodeKind::Root, None, true)),
        Ok(Change::Completed)
    );
    assert_eq!(tree.subtree_size(NodeId::ROOT), 4);
    assert_eq!(tree.subtree_size(NodeId(2)), 2);
}
