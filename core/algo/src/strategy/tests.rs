use std::collections::HashSet;

use super::eval::{average_questions, run_to_verdict, SimulatedOracle};
use super::*;
use crate::ids::MethodId;
use crate::session::{Answer, Session, Step, TrustPolicy, Verdict};
use crate::testutil::mergesort;
use crate::tree::synthetic::{random_tree, Event as SyntheticEvent, Rng, Shape, TreeBuilder};
use crate::tree::ExecutionTree;

fn session(tree: ExecutionTree, name: StrategyName) -> Session {
    Session::new(tree, create(name, None).unwrap(), TrustPolicy::none())
}

fn first_question(tree: &ExecutionTree, name: StrategyName) -> NodeId {
    match session(tree.clone(), name).step() {
        Step::Ask(n) => n,
        other => panic!("{name} did not ask: {other:?}"),
    }
}

#[test]
fn names_parse_print_and_serialize() {
    for n in StrategyName::ALL {
        assert_eq!(n.to_string().parse::<StrategyName>(), Ok(n));
        assert_eq!(serde_json::to_string(&n).unwrap(), format!("\"{n}\""));
    }
    assert_eq!(
        "def-use-coverage".parse::<StrategyName>(),
        Ok(StrategyName::DefUseCoverage)
    );
    assert!(matches!(
        "shapiro".parse::<StrategyName>(),
        Err(StrategyError::Unknown(_))
    ));
}

#[test]
fn factory_builds_every_strategy_and_checks_p() {
    for n in StrategyName::ALL {
        assert_eq!(create(n, None).unwrap().name(), n);
    }
    assert_eq!(
        create(StrategyName::EdgeCoverage, Some(0.3))
            .unwrap()
            .weighting(),
        Weighting::Coverage {
            kind: CoverageKind::Edge,
            p: 0.3
        }
    );
    assert_eq!(
        create(StrategyName::DefUseCoverage, None)
            .unwrap()
            .weighting(),
        Weighting::Coverage {
            kind: CoverageKind::DefUse,
            p: 0.6
        }
    );
    assert_eq!(
        create(StrategyName::TopDown, Some(0.5)).err(),
        Some(StrategyError::PNotApplicable(StrategyName::TopDown))
    );
    assert_eq!(
        create(StrategyName::EdgeCoverage, Some(1.5)).err(),
        Some(StrategyError::InvalidP(1.5))
    );
}

#[test]
fn mergesort_first_questions_per_strategy() {
    let (tree, n) = mergesort();
    let (main, sort, last_merge) = (n[0], n[1], n[6]);
    // Edge coverage: weights 46, 45, 7, 8, 8, 7, 10, 0, 0; 10 is closest to 46 / 2.
    let s = session(tree.clone(), StrategyName::EdgeCoverage);
    let weights: Vec<f64> = n
        .iter()
        .map(|&x| s.suspicious().coverage_weight(x))
        .collect();
    assert_eq!(
        weights,
        vec![46.0, 45.0, 7.0, 8.0, 8.0, 7.0, 10.0, 0.0, 0.0]
    );
    assert_eq!(
        first_question(&tree, StrategyName::EdgeCoverage),
        last_merge
    );
    // Counting nodes (toString and println are external, hence trusted): W = 7, main 7,
    // sort 6, leaves 1: sort and the leaves are equally close to 3.5; sort comes first.
    assert_eq!(first_question(&tree, StrategyName::DivideAndQuery), sort);
    assert_eq!(first_question(&tree, StrategyName::Hirunkitti), sort);
    assert_eq!(first_question(&tree, StrategyName::TopDown), main);
    assert_eq!(first_question(&tree, StrategyName::HeaviestFirst), main);
}

#[test]
fn top_down_goes_to_children_on_invalid_and_siblings_on_valid() {
    let (tree, n) = mergesort();
    let mut s = session(tree, StrategyName::TopDown);
    let mut asked = Vec::new();
    let bug = n[4]; // the second merge
    let oracle = SimulatedOracle { buggy: bug };
    let (verdict, _) = run_to_verdict(&mut s, |t, x| {
        asked.push(x);
        oracle.answer(t, x)
    })
    .unwrap();
    assert_eq!(verdict, Verdict::Bug { node: bug });
    // main (invalid) -> sort (invalid) -> distribute (valid) -> merge (valid) -> merge.
    assert_eq!(asked, vec![n[0], n[1], n[2], n[3], n[4]]);
}

#[test]
fn top_down_looks_through_trusted_and_incomplete_nodes() {
    let mut b = TreeBuilder::new();
    let t = b.thread();
    let open = b.incomplete(t, 0);
    let ext = b.external(open, 9);
    let callback = b.call(ext, 1);
    let later = b.call(open, 2);
    let tree = b.build();
    assert_eq!(first_question(&tree, StrategyName::TopDown), callback);
    assert_eq!(first_question(&tree, StrategyName::HeaviestFirst), callback);
    let mut s = session(tree, StrategyName::TopDown);
    s.answer(callback, Answer::Valid).unwrap();
    assert_eq!(s.step(), Step::Ask(later));
}

/// thread -> main -> [a, b -> [b1, b2], c -> [c1]]
fn fan() -> (ExecutionTree, [NodeId; 7]) {
    let mut b = TreeBuilder::new();
    let t = b.thread();
    let main = b.call(t, 0);
    let a = b.call(main, 1);
    let bb = b.call(main, 2);
    let b1 = b.call(bb, 3);
    let b2 = b.call(bb, 3);
    let c = b.call(main, 4);
    let c1 = b.call(c, 5);
    (b.build(), [main, a, bb, b1, b2, c, c1])
}

#[test]
fn heaviest_first_asks_the_biggest_child() {
    let (tree, [main, _a, bb, ..]) = fan();
    let mut s = session(tree, StrategyName::HeaviestFirst);
    assert_eq!(s.step(), Step::Ask(main));
    s.answer(main, Answer::Invalid).unwrap();
    assert_eq!(s.step(), Step::Ask(bb));
    s.answer(bb, Answer::Valid).unwrap();
    // a and c: c weighs 2.
    let c = NodeId(bb.0 + 3);
    assert_eq!(s.step(), Step::Ask(c));
}

#[test]
fn divide_and_query_asks_the_node_closest_to_half() {
    let (tree, [main, a, bb, b1, _b2, c, c1]) = fan();
    // W = 7; weights main 7, a 1, b 3, b1 1, b2 1, c 2, c1 1: b (|6-7| = 1) is closest.
    let mut s = session(tree, StrategyName::DivideAndQuery);
    assert_eq!(s.step(), Step::Ask(bb));
    s.answer(bb, Answer::Valid).unwrap();
    // W = 4: main 4, a 1, c 2, c1 1: c.
    assert_eq!(s.step(), Step::Ask(c));
    s.answer(c, Answer::DontKnow).unwrap();
    // c is not asked again while others exist: a and c1 (1) are closest to 2 after c.
    assert_eq!(s.step(), Step::Ask(a));
    s.answer(a, Answer::Valid).unwrap();
    assert_eq!(s.step(), Step::Ask(c1));
    s.answer(c1, Answer::Valid).unwrap();
    assert_eq!(s.step(), Step::Ask(main));
    s.answer(main, Answer::Invalid).unwrap();
    assert_eq!(
        s.step(),
        Step::Done(Verdict::Undecided {
            candidates: vec![main, c]
        })
    );
    let _ = b1;
}

#[test]
fn hirunkitti_breaks_ties_towards_the_heavier_node() {
    // Top-level calls a (weight 5) and b (weight 7): W = 12 (root and thread are not
    // members), both 1 away from 6. Divide and query takes the first in preorder (a);
    // Hirunkitti keeps Shapiro's choice, the lightest node of weight >= W/2 (b).
    let mut bld = TreeBuilder::new();
    let t = bld.thread();
    let a = bld.call(t, 0);
    for _ in 0..4 {
        bld.call(a, 1);
    }
    let b = bld.call(t, 2);
    for _ in 0..6 {
        bld.call(b, 3);
    }
    let tree = bld.build();
    assert_eq!(first_question(&tree, StrategyName::DivideAndQuery), a);
    assert_eq!(first_question(&tree, StrategyName::Hirunkitti), b);
}

#[test]
fn hirunkitti_takes_the_lighter_node_when_strictly_closer() {
    // Top-level calls a (weight 5), b (7) and c (1).
    let mut bld = TreeBuilder::new();
    let t = bld.thread();
    let a = bld.call(t, 0);
    for _ in 0..4 {
        bld.call(a, 1);
    }
    let b = bld.call(t, 2);
    for _ in 0..6 {
        bld.call(b, 3);
    }
    let c = bld.call(t, 4);
    let tree = bld.build();
    // W = 13, half 6.5: a (5) is 1.5 away, b (7) 0.5 away.
    assert_eq!(first_question(&tree, StrategyName::Hirunkitti), b);
    let mut s = session(tree, StrategyName::Hirunkitti);
    s.answer(b, Answer::Valid).unwrap();
    // W = 6, half 3: a (5) is 2 above, the leaves of a and c (1) are 2 below: tie -> a.
    assert_eq!(s.step(), Step::Ask(a));
    s.answer(c, Answer::Valid).unwrap();
    // W = 5, half 2.5: a (5) 2.5 above, leaves (1) 1.5 below: the lighter wins.
    assert_eq!(s.step(), Step::Ask(NodeId(a.0 + 1)));
}

#[test]
fn coverage_weights_decay_with_valid_answers() {
    let (tree, n) = mergesort();
    let mut s = session(tree, StrategyName::EdgeCoverage);
    // First distribute valid: its 7 edges now count 0.5 in the second distribute.
    s.answer(n[2], Answer::Valid).unwrap();
    let set = s.suspicious();
    assert_eq!(set.coverage_weight(n[5]), 3.5);
    assert_eq!(set.coverage_weight(n[1]), 45.0 - 7.0 - 3.5);
    assert_eq!(set.coverage_total(), 46.0 - 7.0 - 3.5);
    // A valid merge halves the shared merge edges of the other merges.
    s.answer(n[3], Answer::Valid).unwrap();
    assert_eq!(s.suspicious().coverage_weight(n[4]), 4.0);
    assert_eq!(s.suspicious().coverage_weight(n[6]), 4.0 + 2.0);
    // p is configurable: with p = 1 nothing decays.
    let (tree, n) = mergesort();
    let mut s = Session::new(
        tree,
        create(StrategyName::EdgeCoverage, Some(1.0)).unwrap(),
        TrustPolicy::none(),
    );
    s.answer(n[2], Answer::Valid).unwrap();
    assert_eq!(s.suspicious().coverage_weight(n[5]), 7.0);
}

/// Every strategy, on many random trees, with trusted methods (by policy and by answer) and
/// don't-know answers mixed in, ends with the buggy node the simulated oracle knows.
#[test]
fn every_strategy_finds_the_buggy_node_on_random_trees() {
    for seed in 0..40u64 {
        let tree = random_tree(
            seed,
            &Shape {
                calls: 30 + (seed as usize * 7) % 150,
                methods: 3 + seed as u32 % 10,
                ..Shape::default()
            },
        );
        let mut rng = Rng::new(seed.wrapping_mul(7919));
        for name in StrategyName::ALL {
            let probe = session(tree.clone(), name);
            let askable = eval::askable_nodes(&probe);
            let buggy = askable[rng.below(askable.len() as u64) as usize];
            let bug_method = tree.method(buggy).unwrap();
            let methods: Vec<MethodId> =
                (0..12).map(MethodId).filter(|&m| m != bug_method).collect();
            let policy: HashSet<MethodId> = if seed % 2 == 0 {
                [methods[rng.below(methods.len() as u64) as usize]].into()
            } else {
                HashSet::new()
            };
            let answered_trust: HashSet<MethodId> =
                [methods[rng.below(methods.len() as u64) as usize]].into();
            let mut s = Session::new(
                tree.clone(),
                create(name, None).unwrap(),
                TrustPolicy::from_fn(move |m| policy.contains(&m)),
            );
            let oracle = SimulatedOracle { buggy };
            let mut dk_rng = Rng::new(seed ^ 0x55);
            let (verdict, asked) = run_to_verdict(&mut s, |t, x| {
                let m = t.method(x).unwrap();
                if answered_trust.contains(&m) && dk_rng.chance(0.5) {
                    Answer::Trusted
                } else if !t.is_ancestor_or_self(buggy, x) && x != buggy && dk_rng.chance(0.2) {
                    Answer::DontKnow
                } else {
                    oracle.answer(t, x)
                }
            })
            .unwrap();
            assert_eq!(
                verdict,
                Verdict::Bug { node: buggy },
                "seed {seed}, strategy {name}, {asked} questions"
            );
            assert!(asked <= askable.len());
        }
    }
}

#[test]
fn evaluation_averages_questions_over_every_buggy_node() {
    // thread -> a -> [b, c]
    let mut bld = TreeBuilder::new();
    let t = bld.thread();
    let a = bld.call(t, 0);
    bld.call(a, 1);
    bld.call(a, 2);
    let tree = bld.build();
    // Top-down: bug in a: a, b, c (3); in b: a, b (2); in c: a, b, c (3).
    let e = average_questions(&tree, StrategyName::TopDown, None, TrustPolicy::none()).unwrap();
    assert_eq!((e.experiments, e.found), (3, 3));
    assert!((e.average_questions - 8.0 / 3.0).abs() < 1e-12);
    // D&Q: bug in a: b, c, a (3); in b: b (1); in c: b, c (2).
    let e = average_questions(
        &tree,
        StrategyName::DivideAndQuery,
        None,
        TrustPolicy::none(),
    )
    .unwrap();
    assert_eq!(e.average_questions, 2.0);
    // Trusted methods are never the buggy one.
    let e = average_questions(
        &tree,
        StrategyName::DivideAndQuery,
        None,
        TrustPolicy::methods([MethodId(1)]),
    )
    .unwrap();
    assert_eq!(e.experiments, 2);
}

#[test]
fn evaluation_on_random_trees_finds_every_bug() {
    let tree = random_tree(
        3,
        &Shape {
            calls: 80,
            ..Shape::default()
        },
    );
    for name in StrategyName::ALL {
        let e = average_questions(&tree, name, None, TrustPolicy::none()).unwrap();
        assert_eq!(e.found, e.experiments, "{name}");
        assert!(e.average_questions >= 1.0);
    }
}

#[test]
fn latency_benchmark_times_every_choice() {
    let tree = random_tree(1, &Shape::default());
    let s = session(tree.clone(), StrategyName::DivideAndQuery);
    let buggy = eval::askable_nodes(&s)[..3].to_vec();
    let (choose, update) =
        bench::answer_latency(tree, StrategyName::DivideAndQuery, None, &buggy).unwrap();
    assert_eq!(choose.samples, choose.questions + 3);
    assert_eq!(update.samples, choose.questions);
    assert!(choose.median <= choose.p95 && choose.p95 <= choose.max);
}

/// A random tree for the search tests, an execution forest on odd seeds (then true).
fn random_search_tree(seed: u64, calls: usize, coverage: bool) -> (ExecutionTree, bool) {
    let forest = seed % 2 == 1;
    let mut tree = random_tree(
        seed,
        &Shape {
            calls,
            methods: 4 + seed as u32 % 9,
            external: 0.2,
            coverage,
            threads: 1 + seed as usize % 3,
            chains: if forest { 0.5 } else { 0.0 },
        },
    );
    if forest {
        tree.set_forest_options(crate::tree::ForestOptions::ON);
    }
    (tree, forest)
}

/// Answers one of `askable`, chosen at random, with a random answer of any kind (none when
/// the draw is to trust a node without a method).
fn answer_at_random(s: &mut Session, askable: &[NodeId], rng: &mut Rng) {
    let x = askable[rng.below(askable.len() as u64) as usize];
    let answer = [
        Answer::Valid,
        Answer::Valid,
        Answer::Invalid,
        Answer::Trusted,
        Answer::DontKnow,
    ][rng.below(5) as usize];
    if answer == Answer::Trusted && s.tree().method(x).is_none() {
        return;
    }
    s.answer(x, answer).unwrap();
}

/// The node the session asks next, if it asks one.
fn asked(s: &mut Session) -> Option<NodeId> {
    match s.step() {
        Step::Ask(n) => Some(n),
        _ => None,
    }
}

/// What weighted strategy `name` asks when it chooses among all of `askable`.
fn full_scan_choice(set: &SuspiciousSet, name: StrategyName, askable: &[NodeId]) -> Option<NodeId> {
    let all = askable.iter().copied();
    match name {
        StrategyName::Hirunkitti => {
            hirunkitti::choose(set.total_weight(), all.map(|x| (x, set.weight(x))))
        }
        StrategyName::DivideAndQuery => closest_to_half(
            all.map(|x| (x, f64::from(set.weight(x)))),
            f64::from(set.total_weight()),
        ),
        _ => closest_to_half(
            all.map(|x| (x, set.coverage_weight(x))),
            set.coverage_total(),
        ),
    }
}

/// The heavy-path candidate search picks exactly what a scan of the whole region picks, for
/// every weighted strategy, through random answers of every kind; on execution forests (odd
/// seeds) a node as close to half, since ids no longer order ancestors first.
#[test]
fn fast_candidate_search_agrees_with_a_full_scan() {
    for seed in 0..30u64 {
        let (tree, forest) = random_search_tree(seed, 60 + (seed as usize * 13) % 200, true);
        for name in [
            StrategyName::DivideAndQuery,
            StrategyName::Hirunkitti,
            StrategyName::EdgeCoverage,
            StrategyName::DefUseCoverage,
        ] {
            let mut s = session(tree.clone(), name);
            let mut rng = Rng::new(seed * 31 + name as u64);
            loop {
                let set = s.suspicious();
                let all = all_askable(set);
                let expected = full_scan_choice(set, name, &all);
                let got = asked(&mut s);
                let set = s.suspicious();
                if let (true, Some(g), Some(e)) = (forest, got, expected) {
                    let distance = |x: NodeId| match name {
                        StrategyName::DivideAndQuery => {
                            (2.0 * f64::from(set.weight(x)) - f64::from(set.total_weight())).abs()
                        }
                        StrategyName::Hirunkitti => f64::from(set.weight(x)),
                        _ => (2.0 * set.coverage_weight(x) - set.coverage_total()).abs(),
                    };
                    assert!(
                        (distance(g) - distance(e)).abs() < 1e-9,
                        "seed {seed}, {name}: {g} and {e}"
                    );
                } else {
                    assert_eq!(got, expected, "seed {seed}, {name}");
                }
                if all.is_empty() {
                    break;
                }
                answer_at_random(&mut s, &all, &mut rng);
            }
        }
    }
}

/// The same while the recording arrives between questions: what the search keeps of the
/// children between questions (`SuspiciousSet::children_view`) must follow arriving nodes,
/// their coverage and answers given in between.
#[test]
fn fast_candidate_search_agrees_with_a_full_scan_while_nodes_arrive() {
    for seed in 0..12u64 {
        let mut events = Vec::new();
        let shape = Shape {
            calls: 150 + (seed as usize * 17) % 150,
            methods: 5 + seed as u32 % 7,
            external: 0.2,
            coverage: true,
            threads: 1 + seed as usize % 2,
            chains: 0.0,
        };
        crate::tree::synthetic::random_recording(seed, &shape, |e| events.push(e));
        for name in [StrategyName::DivideAndQuery, StrategyName::EdgeCoverage] {
            let mut s = session(ExecutionTree::new(), name);
            // Exact coverage weights on odd seeds: every valid answer's update is applied at
            // once, along the paths of the calls it touches, some of them open.
            if seed % 2 == 1 {
                s.set_coverage_tolerance(0.0);
            }
            let mut rng = Rng::new(seed * 17 + name as u64);
            for chunk in events.chunks(1 + seed as usize % 9) {
                for e in chunk {
                    match e {
                        SyntheticEvent::Header(h) => s.push(h).unwrap(),
                        SyntheticEvent::Coverage(n, kind, entities) => {
                            s.set_coverage(*n, *kind, entities).unwrap()
                        }
                    }
                }
                let set = s.suspicious();
                let all = all_askable(set);
                let expected = full_scan_choice(set, name, &all);
                let got = asked(&mut s);
                assert_eq!(got, expected, "seed {seed}, {name}");
                if let Some(x) = got.filter(|_| rng.below(3) == 0) {
                    let answer = [
                        Answer::Valid,
                        Answer::Valid,
                        Answer::DontKnow,
                        Answer::Invalid,
                    ][rng.below(4) as usize];
                    s.answer(x, answer).unwrap();
                    // Before more nodes arrive (which forgets the views), with open calls.
                    let set = s.suspicious();
                    set.check_children_views();
                    let expected = full_scan_choice(set, name, &all_askable(set));
                    assert_eq!(asked(&mut s), expected, "seed {seed}, {name}, answered");
                }
            }
        }
    }
}

/// Heaviest first, which walks the children's views the set keeps, asks what the top-down
/// frontier's heaviest node is, through random answers of every kind, on trees and forests.
#[test]
fn heaviest_first_agrees_with_the_frontier_through_random_answers() {
    for seed in 0..20u64 {
        let (tree, _) = random_search_tree(seed, 80 + (seed as usize * 29) % 200, false);
        let mut s = session(tree, StrategyName::HeaviestFirst);
        let mut rng = Rng::new(seed * 7 + 1);
        loop {
            let set = s.suspicious();
            let mut expected: Option<(u32, NodeId)> = None;
            frontier(set, |x| {
                let w = set.weight(x);
                if expected.is_none_or(|(bw, _)| w > bw) {
                    expected = Some((w, x));
                }
                Walk::Skip
            });
            let got = asked(&mut s);
            assert_eq!(got, expected.map(|(_, x)| x), "seed {seed}");
            let all = all_askable(s.suspicious());
            if all.is_empty() {
                break;
            }
            answer_at_random(&mut s, &all, &mut rng);
        }
    }
}

/// The one-pass count of top-down's questions equals what sessions ask, on trees and forests.
#[test]
fn top_down_questions_in_one_pass_equal_the_sessions() {
    for seed in 0..16u64 {
        let forest = seed % 2 == 1;
        let mut tree = random_tree(
            seed,
            &Shape {
                calls: 150,
                methods: 6,
                threads: 1 + seed as usize % 2,
                chains: if forest { 0.6 } else { 0.0 },
                ..Shape::default()
            },
        );
        if forest {
            tree.set_forest_options(crate::tree::ForestOptions::ON);
            crate::tree::forest::balance_all(&mut tree);
            assert!(tree.is_forest());
        }
        tree.seal();
        let counts = eval::top_down_questions(&tree);
        let mut s = Session::new(
            tree.clone(),
            create(StrategyName::TopDown, None).unwrap(),
            TrustPolicy::none(),
        );
        assert_eq!(counts.len(), eval::askable_nodes(&s).len());
        for (b, q) in counts {
            s.reset();
            let oracle = SimulatedOracle { buggy: b };
            let (verdict, asked) = run_to_verdict(&mut s, |t, n| oracle.answer(t, n)).unwrap();
            assert_eq!(verdict, Verdict::Bug { node: b });
            assert_eq!(asked as u64, q, "seed {seed}, buggy {b}");
        }
    }
}
