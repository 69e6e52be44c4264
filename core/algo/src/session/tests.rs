use std::collections::HashSet;

use super::*;
use crate::ids::MethodId;
use crate::strategy::{self, StrategyName};
use crate::testutil::{mergesort, BruteForce};
use crate::tree::synthetic::{
    header, random_recording, random_tree, Event, Rng, Shape, TreeBuilder,
};
use crate::tree::{CoverageKind, NodeKind, PersistenceBound};

/// Hands a recorded event to a live session, as the feed does.
fn take_in(s: &mut Session, e: Event) {
    match e {
        Event::Header(h) => s.push(&h).unwrap(),
        Event::Coverage(n, k, es) => s.set_coverage(n, k, &es).unwrap(),
    }
}

fn session(tree: ExecutionTree, name: StrategyName) -> Session {
    Session::new(
        tree,
        strategy::create(name, None).unwrap(),
        TrustPolicy::none(),
    )
}

/// main(0) -> [a(1) -> [a1(2), a2(3)], b(2) -> [b1(4)], log(5) -> [cb(6)]], with method ids in
/// parentheses; log is a routine whose method may be trusted.
fn small() -> (ExecutionTree, [NodeId; 8]) {
    let mut b = TreeBuilder::new();
    let t = b.thread();
    let main = b.call(t, 0);
    let a = b.call(main, 1);
    let a1 = b.call(a, 2);
    let a2 = b.call(a, 3);
    let bb = b.call(main, 2);
    let b1 = b.call(bb, 4);
    let log = b.call(main, 5);
    let cb = b.call(log, 6);
    (b.build(), [main, a, a1, a2, bb, b1, log, cb])
}

#[test]
fn valid_removes_the_subtree_invalid_keeps_only_it() {
    let (tree, [main, a, a1, _a2, bb, b1, _log, _cb]) = small();
    let mut s = session(tree, StrategyName::DivideAndQuery);
    assert_eq!(s.suspicious().total_weight(), 8);
    s.answer(a, Answer::Valid).unwrap();
    assert_eq!(s.suspicious().total_weight(), 5);
    assert!(!s.suspicious().is_suspicious(a1));
    assert_eq!(s.suspicious().weight(main), 5);
    s.answer(bb, Answer::Invalid).unwrap();
    assert_eq!(s.suspicious().region_root(), bb);
    assert_eq!(s.suspicious().total_weight(), 2);
    assert!(!s.suspicious().is_suspicious(main));
    assert!(s.suspicious().is_suspicious(b1));
    assert_eq!(
        s.answer(main, Answer::Valid),
        Err(SessionError::NotAskable {
            node: main,
            reason: "it is outside the suspicious set"
        })
    );
    assert_eq!(s.step(), Step::Ask(b1));
    s.answer(b1, Answer::Valid).unwrap();
    assert_eq!(s.step(), Step::Done(Verdict::Bug { node: bb }));
}

#[test]
fn a_node_answered_valid_after_a_descendant_takes_its_whole_subtree_out() {
    let (tree, [main, a, a1, a2, bb, ..]) = small();
    let mut s = session(tree, StrategyName::DivideAndQuery);
    s.answer(a1, Answer::Valid).unwrap();
    assert_eq!(s.suspicious().total_weight(), 7);
    s.answer(a, Answer::Valid).unwrap();
    let set = s.suspicious();
    assert_eq!(set.total_weight(), 5);
    assert_eq!(set.weight(main), 5);
    for x in [a, a1, a2] {
        assert!(!set.in_region(x), "{x} left the region");
    }
    assert!(set.in_region(main) && set.in_region(bb));
}

#[test]
fn trusting_removes_every_call_of_the_method_but_keeps_children() {
    let (tree, [main, a, a1, _a2, bb, _b1, log, cb]) = small();
    let mut s = session(tree, StrategyName::TopDown);
    // a1 and bb are both calls of method 2.
    s.answer(a1, Answer::Trusted).unwrap();
    let set = s.suspicious();
    assert!(set.is_trusted(a1) && set.is_trusted(bb));
    assert!(!set.is_suspicious(bb));
    assert_eq!(set.weight(a), 2);
    assert_eq!(set.weight(main), 6);
    assert!(set.trusted_by_answer(MethodId(2)));
    assert_eq!(
        s.answer(bb, Answer::Valid),
        Err(SessionError::NotAskable {
            node: bb,
            reason: "its method is trusted"
        })
    );
    s.answer(log, Answer::Trusted).unwrap();
    assert!(
        s.suspicious().is_suspicious(cb),
        "children of trusted calls stay"
    );
}

#[test]
fn dont_know_changes_nothing_and_is_not_asked_again() {
    let (tree, [main, ..]) = small();
    let mut s = session(tree, StrategyName::TopDown);
    assert_eq!(s.step(), Step::Ask(main));
    s.answer(main, Answer::DontKnow).unwrap();
    assert_eq!(s.suspicious().total_weight(), 8);
    assert_ne!(s.step(), Step::Ask(main));
}

#[test]
fn root_thread_incomplete_and_external_nodes_are_never_asked() {
    let mut b = TreeBuilder::new();
    let t = b.thread();
    let main = b.call(t, 0);
    let ext = b.external(main, 9);
    let cb = b.call(ext, 1);
    let open = b.incomplete(main, 2);
    let mut s = session(b.build(), StrategyName::DivideAndQuery);
    for (node, reason) in [
        (NodeId::ROOT, "root and thread nodes are never asked"),
        (t, "root and thread nodes are never asked"),
        (ext, "its method is trusted"),
        (open, "it has not returned yet"),
        (NodeId(99), "it is not in the tree"),
    ] {
        assert_eq!(
            s.answer(node, Answer::Invalid),
            Err(SessionError::NotAskable { node, reason })
        );
    }
    assert!(
        s.suspicious().is_suspicious(cb),
        "callbacks of external code stay"
    );
    assert_eq!(s.suspicious().total_weight(), 2);
}

#[test]
fn trust_policy_starts_methods_trusted() {
    let (tree, [main, a, ..]) = small();
    let mut s = Session::new(
        tree,
        strategy::create(StrategyName::TopDown, None).unwrap(),
        TrustPolicy::methods([MethodId(1)]),
    );
    assert!(s.suspicious().is_trusted(a));
    assert_eq!(s.suspicious().weight(main), 7);
    // Undo of other answers keeps the policy.
    s.answer(main, Answer::DontKnow).unwrap();
    s.undo().unwrap();
    assert!(s.suspicious().is_trusted(a));
}

#[test]
fn verdicts_bug_no_bug_and_undecided() {
    // All top-level calls valid: no bug.
    let (tree, [main, ..]) = small();
    let mut s = session(tree, StrategyName::TopDown);
    s.seal();
    s.answer(main, Answer::Valid).unwrap();
    assert_eq!(s.step(), Step::Done(Verdict::NoBug));

    // Don't-know leaves candidates.
    let (tree, [main, a, a1, a2, bb, b1, log, cb]) = small();
    let mut s = session(tree, StrategyName::TopDown);
    s.answer(main, Answer::Invalid).unwrap();
    for n in [a, bb, log] {
        s.answer(n, Answer::Valid).unwrap();
    }
    assert_eq!(s.step(), Step::Done(Verdict::Bug { node: main }));
    s.undo().unwrap();
    s.answer(log, Answer::DontKnow).unwrap();
    assert_eq!(s.step(), Step::Ask(cb));
    s.answer(cb, Answer::Valid).unwrap();
    assert_eq!(
        s.step(),
        Step::Done(Verdict::Undecided {
            candidates: vec![main, log]
        })
    );
    let _ = (a1, a2, b1);
}

#[test]
fn undo_restores_every_step_exactly() {
    let (tree, [main, a, a1, _a2, bb, b1, log, _cb]) = small();
    let mut s = session(tree, StrategyName::DivideAndQuery);
    let snapshot = |s: &Session| {
        let set = s.suspicious();
        let nodes: Vec<_> = s
            .tree()
            .iter()
            .map(|x| {
                (
                    set.weight(x),
                    set.is_suspicious(x),
                    set.is_trusted(x),
                    set.mark(x),
                )
            })
            .collect();
        (set.region_root(), nodes, s.answers().to_vec())
    };
    let mut history = vec![snapshot(&s)];
    for (n, ans) in [
        (log, Answer::Trusted),
        (a, Answer::DontKnow),
        (main, Answer::Invalid),
        (a1, Answer::Valid),
        (a, Answer::Invalid),
    ] {
        s.answer(n, ans).unwrap();
        history.push(snapshot(&s));
    }
    assert!(s.answer(bb, Answer::Valid).is_err());
    while let Some(expected) = history.pop() {
        assert_eq!(snapshot(&s), expected.clone());
        if history.is_empty() {
            break;
        }
        s.undo().unwrap();
    }
    assert_eq!(s.undo(), Err(SessionError::NothingToUndo));
    let _ = b1;
}

fn random_answer(rng: &mut Rng) -> Answer {
    match rng.below(10) {
        0..=3 => Answer::Valid,
        4..=6 => Answer::Invalid,
        7 => Answer::Trusted,
        _ => Answer::DontKnow,
    }
}

/// Random answers and undos on random trees: after every step, the incremental aggregates
/// equal the brute-force definitions, for both count and coverage weighting: exactly with a
/// coverage tolerance of 0, within the tolerated share with the default one.
#[test]
fn aggregates_match_the_definitions_under_random_answers_and_undo() {
    for (seed, tolerance) in (0..24u64).map(|s| (s / 2, [0.0, COVERAGE_TOLERANCE][s as usize % 2]))
    {
        let mut rng = Rng::new(seed);
        let tree = random_tree(
            seed,
            &Shape {
                calls: 120,
                methods: 8,
                threads: 1 + seed as usize % 3,
                ..Shape::default()
            },
        );
        let (name, cov) = match seed % 3 {
            0 => (StrategyName::DivideAndQuery, None),
            1 => (StrategyName::EdgeCoverage, Some((CoverageKind::Edge, 0.5))),
            _ => (
                StrategyName::DefUseCoverage,
                Some((CoverageKind::DefUse, 0.6)),
            ),
        };
        let policy: HashSet<MethodId> = [MethodId(seed as u32 % 8)].into();
        let p2 = policy.clone();
        let mut s = Session::new(
            tree,
            strategy::create(name, None).unwrap(),
            TrustPolicy::from_fn(move |m| p2.contains(&m)),
        );
        s.set_coverage_tolerance(tolerance);
        BruteForce::new(&s, &policy).check(&s, cov);
        for _ in 0..40 {
            if rng.chance(0.15) && !s.answers().is_empty() {
                s.undo().unwrap();
            } else {
                let askable = crate::strategy::eval::askable_nodes(&s);
                if askable.is_empty() {
                    break;
                }
                let n = askable[rng.below(askable.len() as u64) as usize];
                s.answer(n, random_answer(&mut rng)).unwrap();
            }
            BruteForce::new(&s, &policy).check(&s, cov);
        }
    }
}

/// The live case: headers arrive while questions are answered. Nodes completing inside the
/// region join the set; only complete nodes are asked; the session waits until sealed.
#[test]
fn sessions_work_while_the_tree_grows() {
    for seed in 0..8u64 {
        let mut events = Vec::new();
        random_recording(
            seed,
            &Shape {
                calls: 150,
                methods: 9,
                threads: 1 + seed as usize % 2,
                ..Shape::default()
            },
            |e| events.push(e),
        );
        let cov = Some((CoverageKind::Edge, 0.5));
        let mut s = session(ExecutionTree::new(), StrategyName::EdgeCoverage);
        let mut rng = Rng::new(seed ^ 0xABCD);
        let none = HashSet::new();
        let mut asked = 0;
        for e in events {
            take_in(&mut s, e);
            if rng.chance(0.1) {
                match s.step() {
                    Step::Ask(n) => {
                        assert!(s.tree().is_complete(n), "asked incomplete node {n}");
                        assert!(s.tree().kind(n).is_call());
                        let answer = if rng.chance(0.7) {
                            Answer::Valid
                        } else {
                            Answer::Invalid
                        };
                        s.answer(n, answer).unwrap();
                        asked += 1;
                    }
                    Step::Waiting => {}
                    Step::Done(v) => {
                        // Only possible once the region root is an answered call.
                        assert!(
                            s.tree().kind(s.suspicious().region_root()).is_call(),
                            "{v:?}"
                        );
                    }
                }
                BruteForce::new(&s, &none).check(&s, cov);
            }
        }
        BruteForce::new(&s, &none).check(&s, cov);
        assert!(asked > 0, "seed {seed}: the live session asked nothing");
        if s.tree().kind(s.suspicious().region_root()) == NodeKind::Root {
            loop {
                match s.step() {
                    Step::Waiting => break,
                    Step::Ask(n) => s.answer(n, Answer::Valid).unwrap(),
                    Step::Done(v) => panic!("done before sealing: {v:?}"),
                }
            }
            s.seal();
            assert!(matches!(s.step(), Step::Done(_)));
        }
    }
}

#[test]
fn a_node_arriving_outside_the_region_is_not_suspicious() {
    let mut s = session(ExecutionTree::new(), StrategyName::TopDown);
    let push = |s: &mut Session, id, parent: Option<u32>, kind, method, complete| {
        s.push(&header(id, parent.map(NodeId), kind, method, complete))
            .unwrap()
    };
    push(&mut s, 0, None, NodeKind::Root, None, false);
    push(&mut s, 1, Some(0), NodeKind::Thread, None, false);
    assert_eq!(s.step(), Step::Waiting);
    push(&mut s, 2, Some(1), NodeKind::Routine, Some(0), false);
    assert_eq!(s.step(), Step::Waiting, "incomplete nodes are not asked");
    push(&mut s, 3, Some(2), NodeKind::Routine, Some(1), true);
    assert_eq!(s.step(), Step::Ask(NodeId(3)));
    // A second thread, running beside the first.
    push(&mut s, 4, Some(0), NodeKind::Thread, None, false);
    push(&mut s, 5, Some(4), NodeKind::Routine, Some(2), true);
    assert_eq!(s.suspicious().total_weight(), 2);
    s.answer(NodeId(5), Answer::Invalid).unwrap();
    // A later sibling of the invalid node lies outside the region.
    push(&mut s, 6, Some(4), NodeKind::Routine, Some(3), true);
    assert!(!s.suspicious().is_suspicious(NodeId(6)));
    assert_eq!(s.step(), Step::Done(Verdict::Bug { node: NodeId(5) }));
    // Completing node 2 (outside the region) changes nothing.
    push(&mut s, 2, Some(1), NodeKind::Routine, Some(0), true);
    assert_eq!(s.suspicious().total_weight(), 1);
}

#[test]
fn mergesort_session_with_edge_coverage_finds_merge_in_one_question() {
    let (tree, nodes) = mergesort();
    let mut s = session(tree, StrategyName::EdgeCoverage);
    assert_eq!(s.suspicious().coverage_total(), 46.0);
    let last_merge = nodes[6];
    assert_eq!(s.step(), Step::Ask(last_merge));
    s.answer(last_merge, Answer::Invalid).unwrap();
    assert_eq!(s.step(), Step::Done(Verdict::Bug { node: last_merge }));
    assert_eq!(s.answers().len(), 1);
}

#[test]
fn verdicts_serialize_with_the_cli_result_names() {
    let json = |v: &Verdict| serde_json::to_string(v).unwrap();
    assert_eq!(
        json(&Verdict::Bug { node: NodeId(3) }),
        r#"{"result":"bug","node":3}"#
    );
    assert_eq!(json(&Verdict::NoBug), r#"{"result":"no-bug"}"#);
    assert_eq!(
        json(&Verdict::Undecided {
            candidates: vec![NodeId(2), NodeId(5)]
        }),
        r#"{"result":"undecided","candidates":[2,5]}"#
    );
}

/// The persistence bound changes where the per-node arrays live, never what a session does: on
/// a tree of about 5 pages, a session that keeps 2 pages in memory asks the same questions and
/// reaches the same verdict as one that keeps everything, for count and coverage weighting.
#[test]
fn a_session_under_the_persistence_bound_asks_what_an_unbounded_one_asks() {
    use crate::tree::column::PAGE;
    for (seed, name) in [
        (1u64, StrategyName::DivideAndQuery),
        (2, StrategyName::EdgeCoverage),
        (3, StrategyName::TopDown),
    ] {
        let shape = Shape {
            calls: 5 * PAGE,
            methods: 50,
            coverage: true,
            ..Shape::default()
        };
        let run = |bound: Option<usize>| {
            let mut tree = ExecutionTree::new();
            tree.set_persistence_bound(bound.map(PersistenceBound::in_memory));
            random_recording(seed, &shape, |e| match e {
                Event::Header(h) => {
                    tree.push(&h).unwrap();
                }
                Event::Coverage(n, k, es) => tree.set_coverage(n, k, &es).unwrap(),
            });
            tree.seal();
            let mut s = session(tree, name);
            // The buggy node: a deep call recorded early (its pages spill first).
            let buggy = NodeId((PAGE / 2) as u32);
            let mut dialogue = Vec::new();
            let verdict = loop {
                match s.step() {
                    Step::Ask(n) => {
                        let a = if s.tree().is_ancestor_or_self(n, buggy) {
                            Answer::Invalid
                        } else {
                            Answer::Valid
                        };
                        dialogue.push((n, a));
                        s.answer(n, a).unwrap();
                    }
                    Step::Done(v) => break v,
                    Step::Waiting => panic!("a sealed session never waits"),
                }
            };
            (dialogue, verdict, s.suspicious().spilled_pages())
        };
        let (free, free_verdict, free_spilled) = run(None);
        let (bounded, bounded_verdict, bounded_spilled) = run(Some(2 * PAGE));
        assert_eq!(free_spilled, 0);
        assert!(bounded_spilled > 0, "{name}: nothing was spilled");
        assert!(!free.is_empty());
        assert_eq!(bounded, free, "{name}");
        assert_eq!(bounded_verdict, free_verdict, "{name}");
    }
}

#[test]
fn the_strategy_changes_mid_session_and_keeps_the_answers() {
    let (tree, nodes) = mergesort();
    let (main, sort, last_merge) = (nodes[0], nodes[1], nodes[6]);
    let mut s = session(tree, StrategyName::TopDown);
    assert_eq!(s.step(), Step::Ask(main));
    s.answer(main, Answer::Invalid).unwrap();
    assert_eq!(s.step(), Step::Ask(sort), "top-down goes on with sort");
    // Edge coverage needs another aggregate: the set is rebuilt and main's answer replayed.
    s.set_strategy(strategy::create(StrategyName::EdgeCoverage, None).unwrap());
    assert_eq!(s.strategy().name(), StrategyName::EdgeCoverage);
    assert_eq!(s.answers(), &[(main, Answer::Invalid)]);
    assert_eq!(s.suspicious().region_root(), main);
    // The region, main's subtree: main 1 + sort 5 + distribute 7 + 7 + merge 8 + 8 + 10 edges.
    assert_eq!(s.suspicious().coverage_total(), 46.0);
    BruteForce::new(&s, &HashSet::new()).check(&s, Some((CoverageKind::Edge, 0.5)));
    assert_eq!(s.step(), Step::Ask(last_merge));
    s.answer(last_merge, Answer::Invalid).unwrap();
    // Back to a count strategy: still the same two answers, so the verdict stands.
    s.set_strategy(strategy::create(StrategyName::DivideAndQuery, None).unwrap());
    assert_eq!(s.answers().len(), 2);
    assert_eq!(s.step(), Step::Done(Verdict::Bug { node: last_merge }));
    s.undo().unwrap();
    assert_eq!(s.suspicious().region_root(), main, "undo after a switch");
}

#[test]
fn switching_strategies_while_the_tree_grows_keeps_the_aggregates_exact() {
    let names = [
        StrategyName::TopDown,
        StrategyName::EdgeCoverage,
        StrategyName::HeaviestFirst,
        StrategyName::DefUseCoverage,
        StrategyName::DivideAndQuery,
    ];
    for seed in 0..6u64 {
        let mut events = Vec::new();
        random_recording(
            seed,
            &Shape {
                calls: 120,
                methods: 7,
                ..Shape::default()
            },
            |e| events.push(e),
        );
        let mut s = session(ExecutionTree::new(), StrategyName::TopDown);
        let mut rng = Rng::new(seed ^ 0x5EED);
        let none = HashSet::new();
        let mut switches = 0;
        for e in events {
            take_in(&mut s, e);
            if rng.chance(0.05) {
                let before = s.answers().to_vec();
                let name = names[switches % names.len()];
                s.set_strategy(strategy::create(name, None).unwrap());
                switches += 1;
                assert_eq!(s.answers(), &before[..], "seed {seed}: answers kept");
                assert_eq!(s.strategy().name(), name);
            }
            if rng.chance(0.1) {
                if let Step::Ask(n) = s.step() {
                    let answer = if rng.chance(0.7) {
                        Answer::Valid
                    } else {
                        Answer::Invalid
                    };
                    s.answer(n, answer).unwrap();
                }
            }
            let cov = match s.suspicious().weighting() {
                Weighting::Count => None,
                Weighting::Coverage { kind, p } => Some((kind, p)),
            };
            BruteForce::new(&s, &none).check(&s, cov);
        }
        assert!(switches > 0, "seed {seed}: never switched");
    }
}

#[test]
fn trusting_a_method_trusts_its_answered_running_and_future_calls() {
    // root, thread, main (running) -> [a1 (method 2, done), b (method 2, running), later c
    // (method 2) and d (method 1)]: method 2 is trusted through a1, already answered valid.
    let routine = |id, method, complete| {
        header(
            id,
            Some(NodeId(2)),
            NodeKind::Routine,
            Some(method),
            complete,
        )
    };
    let mut s = session(ExecutionTree::new(), StrategyName::TopDown);
    s.push(&header(0, None, NodeKind::Root, None, false))
        .unwrap();
    s.push(&header(1, Some(NodeId(0)), NodeKind::Thread, None, false))
        .unwrap();
    s.push(&header(
        2,
        Some(NodeId(1)),
        NodeKind::Routine,
        Some(0),
        false,
    ))
    .unwrap();
    let (a1, b, c, d) = (NodeId(3), NodeId(4), NodeId(5), NodeId(6));
    s.push(&routine(3, 2, true)).unwrap();
    s.push(&routine(4, 2, false)).unwrap();
    s.answer(a1, Answer::Valid).unwrap();
    // An answered call stands for its method as well as any other.
    assert_eq!(s.trust(MethodId(2)), Ok(a1));
    assert!(s.is_trusted_by_answer(MethodId(2)));
    assert!(s.suspicious().is_trusted(b), "the running call");
    assert_eq!(
        s.trust(MethodId(2)),
        Err(SessionError::NotAskable {
            node: a1,
            reason: "its method is trusted already"
        })
    );
    assert_eq!(
        s.trust(MethodId(9)),
        Err(SessionError::NoCallOf(MethodId(9)))
    );
    // The running call completes and more calls arrive: only d, of another method, is asked.
    s.push(&routine(4, 2, true)).unwrap();
    s.push(&routine(5, 2, true)).unwrap();
    s.push(&routine(6, 1, true)).unwrap();
    for x in [a1, b, c] {
        assert!(
            !s.suspicious().is_suspicious(x),
            "call {x} of the trusted method"
        );
    }
    assert_eq!(s.step(), Step::Ask(d));
    let none = HashSet::new();
    BruteForce::new(&s, &none).check(&s, None);
    // Undo takes the trust back from every call.
    s.undo().unwrap();
    assert!(!s.is_trusted_by_answer(MethodId(2)));
    assert!(s.suspicious().is_suspicious(b) && s.suspicious().is_suspicious(c));
    BruteForce::new(&s, &none).check(&s, None);
}

/// Small coverage updates wait: on many calls of few methods, valid answers soon change the
/// weights by less than the tolerated share, and the weights then lag the definitions (within
/// the share, which `check` asserts) until the waiting updates are applied at once.
#[test]
fn small_coverage_updates_wait_within_the_tolerated_share() {
    let tree = random_tree(
        5,
        &Shape {
            calls: 3000,
            methods: 6,
            coverage: true,
            ..Shape::default()
        },
    );
    let cov = Some((CoverageKind::Edge, 0.5));
    let mut s = session(tree, StrategyName::EdgeCoverage);
    s.set_coverage_tolerance(0.05);
    let none = HashSet::new();
    let (mut waited, mut applied) = (0, 0);
    let mut rng = Rng::new(9);
    for _ in 0..60 {
        let askable = crate::strategy::eval::askable_nodes(&s);
        let Some(&n) = askable.get(rng.below(askable.len().max(1) as u64) as usize) else {
            break;
        };
        s.answer(n, Answer::Valid).unwrap();
        if s.suspicious().coverage_deferred() > 0.0 {
            waited += 1;
        } else {
            applied += 1;
        }
        BruteForce::new(&s, &none).check(&s, cov);
    }
    assert!(waited > 0, "no update waited");
    assert!(applied > 0, "no waiting update was ever applied");
    // Lowering the tolerance to 0 applies what waits: the weights are exact again.
    s.set_coverage_tolerance(0.0);
    assert_eq!(s.suspicious().coverage_deferred(), 0.0);
    BruteForce::new(&s, &none).check(&s, cov);
}
