use std::collections::HashSet;

use super::*;
use crate::session::{Answer, Session, Step, TrustPolicy, Verdict};
use crate::strategy::{self, StrategyName};
use crate::testutil::BruteForce;
use crate::tree::synthetic::{random_recording, random_tree, Event, Rng, Shape, TreeBuilder};
use crate::tree::{CoverageKind, FOREST_BASE};

fn forest_of(plain: &ExecutionTree, options: ForestOptions) -> ExecutionTree {
    let mut t = plain.clone();
    t.set_forest_options(options);
    balance_all(&mut t);
    t
}

/// The recorder's calls in the order a walk of the forest meets them.
fn calls_in_preorder(t: &ExecutionTree) -> Vec<NodeId> {
    t.iter()
        .flat_map(|x| match t.kind(x) {
            NodeKind::Projected => Vec::new(),
            NodeKind::Collapsed => t.calls_in(x),
            _ => vec![x],
        })
        .collect()
}

/// Everything a forest must keep of its tree: the calls in the same order, recorded parents,
/// exact sizes and count, chains as the recorder marked them, and the length bound.
fn check_forest(plain: &ExecutionTree, forest: &ExecutionTree, max_chain: u32) {
    // Every call once, in call order but for the children of a collapsed chain's calls, which
    // hang below the collapsed node after its calls.
    let moved = |c: NodeId| {
        !forest.is_absorbed(c)
            && forest
                .parent(c)
                .is_some_and(|p| forest.kind(p) == NodeKind::Collapsed)
    };
    let mut got = calls_in_preorder(forest);
    let mut want: Vec<NodeId> = plain.iter().collect();
    let kept = |v: &[NodeId]| -> Vec<NodeId> { v.iter().copied().filter(|&c| !moved(c)).collect() };
    assert_eq!(
        kept(&got),
        kept(&want),
        "the forest keeps the calls in call order"
    );
    got.sort();
    want.sort();
    assert_eq!(got, want, "the forest keeps every call");
    assert_eq!(forest.len(), forest.iter().count());
    for x in forest.iter() {
        assert_eq!(
            forest.subtree_size(x) as usize,
            forest.preorder(x).count(),
            "size of {x}"
        );
        let children: Vec<NodeId> = forest.children(x).collect();
        for &c in &children {
            assert_eq!(forest.parent(c), Some(x));
        }
        match forest.kind(x) {
            NodeKind::Projected => {
                assert!(x.0 >= FOREST_BASE);
                assert!(children.len() >= 2 && children.len() <= max_chain as usize);
                for &c in &children[1..] {
                    assert!(forest.is_chained(c), "projected {x}: {c} is not a link");
                }
            }
            NodeKind::Collapsed => {
                let calls = forest.calls_in(x);
                assert!(calls.len() >= 2 && calls.len() <= max_chain as usize);
                for &c in &calls {
                    assert_eq!(plain.method(c), plain.method(x));
                    assert!(
                        plain
                            .children(c)
                            .all(|e| plain.kind(e) == NodeKind::External
                                && plain.first_child(e).is_none()),
                        "collapsed call {c} has only external leaves below"
                    );
                    assert_eq!(forest.image(c), Some(x));
                }
                for &c in &calls[1..] {
                    assert!(plain.is_chained(c));
                }
                assert_eq!(forest.span(x), Some((calls[0], *calls.last().unwrap())));
            }
            _ => assert!(x.0 < FOREST_BASE),
        }
    }
    for x in plain.iter() {
        if moved(x) {
            let p = plain.parent(x).unwrap();
            assert_eq!(forest.image(p), forest.parent(x), "parent of {x}");
        } else {
            assert_eq!(forest.recorded_parent(x), plain.parent(x), "parent of {x}");
        }
    }
}

fn random_shape(calls: usize, seed: u64) -> Shape {
    Shape {
        calls,
        methods: 6,
        threads: 1 + seed as usize % 2,
        chains: 0.6,
        ..Shape::default()
    }
}

#[test]
fn random_forests_keep_every_call_and_exact_sizes() {
    for seed in 0..30u64 {
        let plain = random_tree(seed, &random_shape(300, seed));
        for max in [u32::MAX, 2, 3, 7] {
            let options = ForestOptions {
                balance: true,
                max_chain: max,
            };
            let forest = forest_of(&plain, options);
            check_forest(&plain, &forest, max);
            if max == u32::MAX {
                assert!(
                    forest.is_forest(),
                    "seed {seed}: nothing was collapsed or projected"
                );
            }
            // Ancestry through the forest's own nodes, checked against walking up.
            let nodes: Vec<NodeId> = forest.iter().collect();
            let mut rng = Rng::new(seed);
            for _ in 0..200 {
                let a = nodes[rng.below(nodes.len() as u64) as usize];
                let b = nodes[rng.below(nodes.len() as u64) as usize];
                let walk = std::iter::successors(Some(b), |&y| forest.parent(y)).any(|y| y == a);
                assert_eq!(forest.is_ancestor_or_self(a, b), walk, "{a} over {b}");
            }
        }
    }
}

#[test]
fn without_balance_the_tree_stays_plain() {
    let plain = random_tree(3, &random_shape(200, 3));
    let t = forest_of(&plain, ForestOptions::OFF);
    assert!(!t.is_forest());
    assert_eq!(
        t.iter().collect::<Vec<_>>(),
        plain.iter().collect::<Vec<_>>()
    );
}

/// Chains break where the recorder says so, at another method, and at a call with children.
#[test]
fn collapse_takes_maximal_leaf_chains_of_one_method() {
    let mut b = TreeBuilder::new();
    let t = b.thread();
    let main = b.call(t, 0);
    let a1 = b.call(main, 1);
    let a2 = b.chained(main, 1);
    let a3 = b.chained(main, 1);
    let ext = b.external(a3, 7); // a call into the JDK that calls nothing back: still a leaf
    let a4 = b.call(main, 1); // not a link: the parent wrote between
    let a5 = b.chained(main, 1);
    let c = b.chained(main, 2); // another method: projected, not collapsed with a5
    let d1 = b.chained(main, 1);
    let d2 = b.chained(main, 1);
    b.call(d2, 3); // d2 is not a leaf
    let plain = b.build();
    let f = forest_of(&plain, ForestOptions::ON);
    check_forest(&plain, &f, u32::MAX);
    assert_eq!(f.kind(a1), NodeKind::Collapsed);
    assert_eq!(f.calls_in(a1), vec![a1, a2, a3]);
    assert_eq!(f.kind(a4), NodeKind::Collapsed);
    assert_eq!(f.calls_in(a4), vec![a4, a5]);
    assert_eq!(f.kind(c), NodeKind::Routine);
    assert_eq!(f.kind(d1), NodeKind::Routine);
    assert_eq!(f.kind(d2), NodeKind::Routine);
    assert!(!f.contains(a2) && f.is_absorbed(a2) && f.image(a2) == Some(a1));
    assert_eq!(f.children(a1).collect::<Vec<_>>(), vec![ext]);
    assert_eq!(f.subtree_size(a1), 2);
    // At most two calls per collapsed node.
    let two = forest_of(
        &plain,
        ForestOptions {
            balance: true,
            max_chain: 2,
        },
    );
    check_forest(&plain, &two, 2);
    assert_eq!(two.calls_in(a1), vec![a1, a2]);
    assert_eq!(two.kind(a3), NodeKind::Routine);
}

/// The paper's Figure 1: castling moves the tower three squares right and the king two
/// left. Each chain of moves collapses, so any buggy node of the castling is found in at most
/// three questions, with every strategy, and the verdict names the buggy call's method.
#[test]
fn chess_castling_finds_any_buggy_move_in_three_questions() {
    let (castling, right, left) = (10, 11, 12);
    let mut b = TreeBuilder::new();
    let t = b.thread();
    let c = b.call(t, castling);
    let mut moves = vec![b.call(c, right)];
    for _ in 0..2 {
        moves.push(b.chained(c, right));
    }
    // k.left() starts from the king's state, not the tower's: no link.
    moves.push(b.call(c, left));
    moves.push(b.chained(c, left));
    let plain = b.build();
    let forest = forest_of(&plain, ForestOptions::ON);
    assert_eq!(forest.children(c).count(), 2);
    for name in StrategyName::ALL {
        for &buggy in moves.iter().chain([&c]) {
            let mut tree = forest.clone();
            tree.seal();
            let mut s = Session::new(
                tree,
                strategy::create(name, None).unwrap(),
                TrustPolicy::none(),
            );
            let image = s.tree().image(buggy).unwrap();
            let (verdict, asked) = strategy::eval::run_to_verdict(&mut s, |t, n| {
                if t.is_ancestor_or_self(n, image) {
                    Answer::Invalid
                } else {
                    Answer::Valid
                }
            })
            .unwrap();
            assert!(asked <= 3, "{name}: {asked} questions for {buggy}");
            assert_eq!(verdict, Verdict::Bug { node: image });
            assert_eq!(s.tree().method(image), plain.method(buggy));
        }
    }
}

/// A chain of calls that are not leaves is projected into a balanced tree: a long chain is
/// searched in about log2 of its length, not its length.
#[test]
fn a_long_chain_is_projected_into_a_balanced_tree() {
    let mut b = TreeBuilder::new();
    let t = b.thread();
    let main = b.call(t, 0);
    let mut links = Vec::new();
    for k in 0..64u32 {
        let x = if k == 0 {
            b.call(main, 1 + k % 3)
        } else {
            b.chained(main, 1 + k % 3)
        };
        b.call(x, 9);
        links.push(x);
    }
    let plain = b.build();
    let forest = forest_of(&plain, ForestOptions::ON);
    check_forest(&plain, &forest, u32::MAX);
    let depth =
        |t: &ExecutionTree, x: NodeId| std::iter::successors(Some(x), |&y| t.parent(y)).count();
    let deepest = links.iter().map(|&x| depth(&forest, x)).max().unwrap();
    assert!(deepest <= depth(&plain, links[0]) + 8, "depth {deepest}");
    for name in [StrategyName::TopDown, StrategyName::DivideAndQuery] {
        let tree =
            strategy::eval::average_questions(&plain, name, None, TrustPolicy::none()).unwrap();
        let balanced =
            strategy::eval::average_questions(&forest, name, None, TrustPolicy::none()).unwrap();
        assert!(
            balanced.average_questions < 0.5 * tree.average_questions,
            "{name}: {} on the forest, {} on the tree",
            balanced.average_questions,
            tree.average_questions
        );
        assert_eq!(
            balanced.found, balanced.experiments,
            "{name} finds every buggy node"
        );
    }
}

/// Theorems 2 and 3 on random trees: random buggy methods' calls are wrong and wrong results
/// propagate up (a correct parent may mask them, by chance); a collapsed or projected node is
/// wrong when one of its calls is. Whenever the run is wrong, the session on the forest ends
/// with a buggy node, and that node's method is a buggy one.
#[test]
fn any_buggy_node_of_the_forest_is_a_call_of_a_buggy_method() {
    for seed in 0..60u64 {
        let plain = random_tree(seed, &random_shape(150, seed));
        let mut rng = Rng::new(seed ^ 0x5EED);
        let buggy: HashSet<NodeId> = plain
            .iter()
            .filter(|&x| plain.kind(x) == NodeKind::Routine && rng.chance(0.05))
            .collect();
        // Wrongness of each recorded call, bottom-up: its own bug, or a wrong child not
        // masked.
        let mut wrong: HashSet<NodeId> = HashSet::new();
        let order: Vec<NodeId> = plain.iter().collect();
        for &x in order.iter().rev() {
            let child_wrong = plain.children(x).any(|c| wrong.contains(&c));
            if buggy.contains(&x) || (child_wrong && !rng.chance(0.1)) {
                wrong.insert(x);
            }
        }
        let forest = forest_of(&plain, ForestOptions::ON);
        // A call is judged by its own result, a collapsed node by its calls', a projected one
        // by its children's (the composition of right steps from chained states is right).
        fn judge(t: &ExecutionTree, wrong: &HashSet<NodeId>, n: NodeId) -> bool {
            match t.kind(n) {
                NodeKind::Projected => t.children(n).any(|c| judge(t, wrong, c)),
                _ => t.calls_in(n).iter().any(|c| wrong.contains(c)),
            }
        }
        for name in StrategyName::ALL {
            let mut tree = forest.clone();
            tree.seal();
            let mut s = Session::new(
                tree,
                strategy::create(name, None).unwrap(),
                TrustPolicy::none(),
            );
            let (verdict, _) = strategy::eval::run_to_verdict(&mut s, |t, n| {
                if judge(t, &wrong, n) {
                    Answer::Invalid
                } else {
                    Answer::Valid
                }
            })
            .unwrap();
            let top_wrong = plain
                .children(plain.children(NodeId::ROOT).next().unwrap())
                .any(|c| wrong.contains(&c));
            match verdict {
                Verdict::Bug { node } => {
                    let m = s.tree().method(node);
                    assert!(
                        buggy.iter().any(|&b| plain.method(b) == m),
                        "seed {seed} {name}: verdict {node} ({:?}) names no buggy method",
                        s.tree().kind(node)
                    );
                }
                Verdict::NoBug => assert!(
                    !top_wrong,
                    "seed {seed} {name}: a wrong run without a buggy node"
                ),
                Verdict::Undecided { .. } => panic!("no don't-know answers were given"),
            }
        }
    }
}

/// Live: headers arrive one by one, the forest grows as nodes complete, answers come in
/// between, and the session's aggregates stay exact; the final forest of an unanswered live
/// session is the one balancing the whole tree gives.
#[test]
fn live_sessions_balance_as_nodes_complete() {
    for seed in 0..10u64 {
        let mut events = Vec::new();
        random_recording(seed, &random_shape(200, seed), |e| events.push(e));
        for answering in [false, true] {
            let mut tree = ExecutionTree::new();
            tree.set_forest_options(ForestOptions::ON);
            let mut s = Session::new(
                tree,
                strategy::create(StrategyName::EdgeCoverage, None).unwrap(),
                TrustPolicy::none(),
            );
            let mut rng = Rng::new(seed);
            let none = HashSet::new();
            for e in &events {
                match e {
                    Event::Header(h) => s.push(h).unwrap(),
                    Event::Coverage(n, k, es) => s.set_coverage(*n, *k, es).unwrap(),
                }
                if answering && rng.chance(0.05) {
                    if let Step::Ask(n) = s.step() {
                        let a = if rng.chance(0.8) {
                            Answer::Valid
                        } else {
                            Answer::DontKnow
                        };
                        s.answer(n, a).unwrap();
                    }
                    BruteForce::new(&s, &none).check(&s, Some((CoverageKind::Edge, 0.5)));
                }
            }
            s.seal();
            BruteForce::new(&s, &none).check(&s, Some((CoverageKind::Edge, 0.5)));
            if !answering {
                let mut plain = ExecutionTree::new();
                for e in &events {
                    match e {
                        Event::Header(h) => {
                            plain.push(h).unwrap();
                        }
                        Event::Coverage(n, k, es) => plain.set_coverage(*n, *k, es).unwrap(),
                    }
                }
                let whole = forest_of(&plain, ForestOptions::ON);
                type Outline = Vec<(NodeKind, Option<(NodeId, NodeId)>, u32)>;
                let shape = |t: &ExecutionTree| -> Outline {
                    t.iter()
                        .map(|x| (t.kind(x), t.span(x), t.subtree_size(x)))
                        .collect()
                };
                assert_eq!(shape(s.tree()), shape(&whole), "seed {seed}");
                check_forest(&plain, s.tree(), u32::MAX);
            }
        }
    }
}

/// Answers, trust, don't know and undo on forests: the incremental aggregates equal the
/// definitions after every step, with count and coverage weights.
#[test]
fn sessions_on_forests_keep_exact_aggregates_under_answers_and_undo() {
    for seed in 0..12u64 {
        let mut plain = random_tree(seed, &random_shape(150, seed));
        plain.set_forest_options(ForestOptions::ON);
        let (name, cov) = match seed % 2 {
            0 => (StrategyName::DivideAndQuery, None),
            _ => (StrategyName::EdgeCoverage, Some((CoverageKind::Edge, 0.5))),
        };
        let policy: HashSet<crate::ids::MethodId> = [crate::ids::MethodId(seed as u32 % 6)].into();
        let p2 = policy.clone();
        let mut s = Session::new(
            plain,
            strategy::create(name, None).unwrap(),
            TrustPolicy::from_fn(move |m| p2.contains(&m)),
        );
        assert!(s.tree().is_forest());
        let mut rng = Rng::new(seed);
        BruteForce::new(&s, &policy).check(&s, cov);
        for _ in 0..40 {
            if rng.chance(0.15) && !s.answers().is_empty() {
                s.undo().unwrap();
            } else {
                let askable = strategy::eval::askable_nodes(&s);
                if askable.is_empty() {
                    break;
                }
                let n = askable[rng.below(askable.len() as u64) as usize];
                let a = match rng.below(10) {
                    0..=3 => Answer::Valid,
                    4..=6 => Answer::Invalid,
                    7 => Answer::Trusted,
                    _ => Answer::DontKnow,
                };
                if a == Answer::Trusted && s.tree().method(n).is_none() {
                    continue;
                }
                s.answer(n, a).unwrap();
            }
            BruteForce::new(&s, &policy).check(&s, cov);
        }
    }
}
