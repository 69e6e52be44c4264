//! Loop and iteration nodes in a session: asked like calls, trusted with their method, left
//! out by `TrustPolicy::without_loops`, and don't-know loops of the buggy node's own frame.

use super::*;
use crate::strategy::eval::{average_questions, run_to_verdict, SimulatedOracle};
use crate::strategy::{self, StrategyName};
use crate::tree::synthetic::{Rng, TreeBuilder};
use crate::tree::NodeKind;

/// The paper's sumNumbers: main(0) -> sum(1) -> loop -> [it1 -> isEven(2), it2 -> [isEven(2),
/// add(3)], it3].
struct Sum {
    tree: ExecutionTree,
    sum: NodeId,
    lp: NodeId,
    its: [NodeId; 3],
    calls: [NodeId; 3],
}

fn sum_numbers() -> Sum {
    let mut b = TreeBuilder::new();
    let main = b.call(b.thread(), 0);
    let sum = b.call(main, 1);
    let lp = b.loop_node(sum);
    let it1 = b.iteration(lp);
    let e1 = b.call(it1, 2);
    let it2 = b.iteration(lp);
    let e2 = b.call(it2, 2);
    let add = b.call(it2, 3);
    let it3 = b.iteration(lp);
    Sum {
        tree: b.build(),
        sum,
        lp,
        its: [it1, it2, it3],
        calls: [e1, e2, add],
    }
}

fn new_session(tree: ExecutionTree, name: StrategyName, trust: TrustPolicy) -> Session {
    Session::new(tree, strategy::create(name, None).unwrap(), trust)
}

const ALL: [StrategyName; 6] = [
    StrategyName::TopDown,
    StrategyName::HeaviestFirst,
    StrategyName::DivideAndQuery,
    StrategyName::Hirunkitti,
    StrategyName::EdgeCoverage,
    StrategyName::DefUseCoverage,
];

#[test]
fn loops_and_iterations_are_asked_and_can_be_the_buggy_node() {
    let s = sum_numbers();
    let mut session = new_session(s.tree.clone(), StrategyName::TopDown, TrustPolicy::none());
    // Top-down: main, sum, the loop, then its iterations in order.
    let mut asked = Vec::new();
    let oracle = SimulatedOracle { buggy: s.its[1] };
    let (verdict, _) = run_to_verdict(&mut session, |t, n| {
        asked.push(n);
        oracle.answer(t, n)
    })
    .unwrap();
    assert_eq!(verdict, Verdict::Bug { node: s.its[1] });
    assert_eq!(&asked[1..4], &[s.sum, s.lp, s.its[0]]);
    // Every node, loops and iterations included, is found by every strategy.
    for name in ALL {
        let e = average_questions(&s.tree, name, None, TrustPolicy::none()).unwrap();
        assert_eq!(e.experiments, 9, "{name:?}");
        assert_eq!(e.found, e.experiments, "{name:?}");
    }
}

/// The paper's case: every iteration computes what it should from where it started, so the
/// loop is right and the buggy code is sumNumbers' own, outside the loop.
#[test]
fn a_right_loop_leaves_the_bug_in_the_enclosing_call() {
    let s = sum_numbers();
    let mut session = new_session(s.tree, StrategyName::DivideAndQuery, TrustPolicy::none());
    let oracle = SimulatedOracle { buggy: s.sum };
    let (verdict, _) = run_to_verdict(&mut session, |t, n| oracle.answer(t, n)).unwrap();
    assert_eq!(verdict, Verdict::Bug { node: s.sum });
    assert!(session.open_loops(s.sum).is_empty());
}

#[test]
fn dont_know_loops_of_the_buggy_call_leave_it_buggy_with_their_code() {
    let s = sum_numbers();
    let mut session = new_session(s.tree.clone(), StrategyName::TopDown, TrustPolicy::none());
    let (verdict, _) = run_to_verdict(&mut session, |t, n| match t.kind(n) {
        NodeKind::Loop | NodeKind::Iteration => Answer::DontKnow,
        _ if t.is_ancestor_or_self(n, s.sum) => Answer::Invalid,
        _ => Answer::Valid,
    })
    .unwrap();
    assert_eq!(verdict, Verdict::Bug { node: s.sum });
    assert_eq!(
        session.open_loops(s.sum),
        vec![s.lp, s.its[0], s.its[1], s.its[2]]
    );
    // A don't-know call below an iteration is another story: it may hold the bug.
    let mut session = new_session(s.tree, StrategyName::TopDown, TrustPolicy::none());
    let add = s.calls[2];
    let (verdict, _) = run_to_verdict(&mut session, |t, n| match t.kind(n) {
        NodeKind::Loop | NodeKind::Iteration => Answer::DontKnow,
        _ if n == add => Answer::DontKnow,
        _ if t.is_ancestor_or_self(n, s.sum) => Answer::Invalid,
        _ => Answer::Valid,
    })
    .unwrap();
    let Verdict::Undecided { candidates } = verdict else {
        panic!("{verdict:?}")
    };
    assert!(candidates.contains(&add) && candidates[0] == s.sum);
}

#[test]
fn trusting_a_method_trusts_its_loops_but_not_the_calls_they_make() {
    let s = sum_numbers();
    let mut session = new_session(s.tree, StrategyName::TopDown, TrustPolicy::none());
    let method = session.tree().method(s.sum).unwrap();
    // Trust answered on an iteration is about its method.
    session.answer(s.its[2], Answer::Trusted).unwrap();
    assert!(session.suspicious().is_trusted(s.sum));
    for x in [s.sum, s.lp, s.its[0], s.its[1], s.its[2]] {
        assert!(!session.suspicious().is_suspicious(x));
    }
    for c in s.calls {
        assert!(session.suspicious().is_suspicious(c));
    }
    assert!(session.is_trusted_by_answer(method));
    session.undo().unwrap();
    assert!(session.suspicious().is_suspicious(s.lp));
}

#[test]
fn without_loops_the_session_is_the_one_of_the_call_tree() {
    let s = sum_numbers();
    for name in ALL {
        let mut session = new_session(s.tree.clone(), name, TrustPolicy::none().without_loops());
        let oracle = SimulatedOracle { buggy: s.its[1] };
        let (verdict, asked) = run_to_verdict(&mut session, |t, n| {
            assert!(!t.kind(n).is_loop(), "{name:?} asked a loop node");
            oracle.answer(t, n)
        })
        .unwrap();
        // The bug in an iteration is the bug of its call.
        assert_eq!(verdict, Verdict::Bug { node: s.sum }, "{name:?}");
        assert!(asked >= 2);
        assert_eq!(
            session.answer(s.lp, Answer::Valid),
            Err(SessionError::NotAskable {
                node: s.lp,
                reason: "loops are left out of this session"
            })
        );
    }
    // The same questions as on a tree without loop nodes.
    let mut b = TreeBuilder::new();
    let main = b.call(b.thread(), 0);
    let sum = b.call(main, 1);
    b.call(sum, 2);
    b.call(sum, 2);
    b.call(sum, 3);
    let flat = b.build();
    for name in ALL {
        let with =
            average_questions(&s.tree, name, None, TrustPolicy::none().without_loops()).unwrap();
        let without = average_questions(&flat, name, None, TrustPolicy::none()).unwrap();
        assert_eq!(with.experiments, without.experiments, "{name:?}");
        assert_eq!(
            with.average_questions, without.average_questions,
            "{name:?}"
        );
    }
}

/// Random trees of calls whose calls sometimes run loops: every node found by every strategy.
#[test]
fn every_node_of_random_trees_with_loops_is_found() {
    let mut rng = Rng::new(7);
    for _ in 0..30 {
        let mut b = TreeBuilder::new();
        let mut open = vec![b.call(b.thread(), 0)];
        for _ in 0..25 {
            let parent = open[rng.below(open.len() as u64) as usize];
            if rng.chance(0.3) && b.build_ref().kind(parent) != NodeKind::Loop {
                let lp = b.loop_node(parent);
                for _ in 0..1 + rng.below(4) {
                    let it = b.iteration(lp);
                    open.push(it);
                }
            } else {
                let c = b.call(parent, rng.below(6) as u32 + 1);
                open.push(c);
            }
        }
        let tree = b.build();
        for name in ALL {
            let e = average_questions(&tree, name, None, TrustPolicy::none()).unwrap();
            assert_eq!(e.found, e.experiments, "{name:?}");
        }
    }
}
