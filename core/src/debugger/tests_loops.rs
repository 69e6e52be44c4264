//! Questions, states and verdicts on loop and iteration nodes, over the recorded stream of the
//! paper's `sumNumbers` (`trace::recorder::tests_loops`).

use super::*;
use crate::omniscient::{node_state, RenderLimits};
use crate::trace::recorder::tests_loops::{record_stream, sum_numbers};
use crate::tree::NodeKind;

/// Node ids of that stream: 3 sumNumbers, 4 its loop, 5, 7 and 10 its iterations.
const SUM: NodeId = NodeId(3);
const LOOP: NodeId = NodeId(4);
const ITS: [NodeId; 3] = [NodeId(5), NodeId(7), NodeId(10)];

fn open(start: i32, options: DebugOptions) -> (tempfile::TempDir, Debugger) {
    let (dir, _reader, _) = record_stream(&sum_numbers(start));
    let d = Debugger::open(&dir.path().join("run.htrace"), options).unwrap();
    (dir, d)
}

#[test]
fn loops_and_iterations_are_questions_a_person_answers_at_a_glance() {
    let (_dir, mut d) = open(1, DebugOptions::default());
    let q = d.question(LOOP).unwrap();
    assert_eq!(q.kind, NodeKind::Loop);
    assert_eq!(
        q.text,
        "SumNumbers.sumNumbers: loop at SumNumbers.java:12, 3 iterations: sum=0→3, i=1→3, \
         then the loop ends (with array=[1, 2, 3], eo=\"odd\")"
    );
    let q = d.question(ITS[0]).unwrap();
    assert_eq!(q.kind, NodeKind::Iteration);
    assert_eq!(
        q.fragment.as_deref(),
        Some("loop at SumNumbers.java:12, iteration 1 of 3")
    );
    assert!(q.text.contains(": i=1→2 (with "), "{}", q.text);
    assert!(q.text.contains("sum=0"), "{}", q.text);
    let q = d.question(ITS[1]).unwrap();
    assert!(q.text.contains("sum=0→3, i=2→3"), "{}", q.text);
    let q = d.question(ITS[2]).unwrap();
    assert!(
        q.text
            .contains("iteration 3 of 3: nothing changed, then the loop ends"),
        "{}",
        q.text
    );
}

#[test]
fn the_state_of_an_iteration_is_its_frame_between_its_entry_and_exit() {
    let (_dir, mut d) = open(1, DebugOptions::default());
    let s = node_state(
        d.reader().unwrap(),
        ITS[1],
        None,
        &[],
        RenderLimits::default(),
    )
    .unwrap();
    let var = |name: &str| s.variables.iter().find(|v| v.name == name).unwrap();
    assert_eq!(
        s.method.as_deref(),
        Some("sumnumbers.SumNumbers.sumNumbers")
    );
    assert_eq!(s.result, None);
    let (i, sum) = (var("i"), var("sum"));
    assert_eq!(
        (i.entry.as_deref(), i.value.as_deref()),
        (Some("2"), Some("3"))
    );
    assert_eq!(
        (sum.entry.as_deref(), sum.value.as_deref()),
        (Some("0"), Some("3"))
    );
    // Paths name the frame: the same variable as the call's.
    assert_eq!(i.path, "3:i");
}

/// Answers as the paper's user gives them: sumNumbers is wrong, its loop right from where it
/// started, every call right.
fn paper_answers(d: &mut Debugger) -> Verdict {
    loop {
        match d.step().unwrap() {
            Step::Ask(n) => {
                let kind = d.session().tree().kind(n);
                let wrong = kind.is_call() && d.session().tree().is_ancestor_or_self(n, SUM);
                let answer = if wrong {
                    Answer::Invalid
                } else {
                    Answer::Valid
                };
                d.answer(n, answer).unwrap();
            }
            Step::Done(v) => return v,
            Step::Waiting => panic!("a finished trace never waits"),
        }
    }
}

#[test]
fn a_right_loop_leaves_sum_numbers_own_code_outside_it_as_the_buggy_code() {
    for strategy in [StrategyName::TopDown, StrategyName::DivideAndQuery] {
        let (_dir, mut d) = open(
            1,
            DebugOptions {
                strategy,
                ..Default::default()
            },
        );
        let verdict = paper_answers(&mut d);
        assert_eq!(verdict, Verdict::Bug { node: SUM }, "{strategy:?}");
        let report = d.report(&verdict).unwrap();
        let bug = report.buggy_node.unwrap();
        // The initialisations (sum = 0, i = 1 on the `for` line) and the return.
        assert_eq!(bug.lines, vec![11, 12, 18]);
        assert_eq!(bug.kind, NodeKind::Routine);
        if strategy == StrategyName::TopDown {
            assert_eq!(report.traceable, Some(true));
        }
    }
    // Without loops the verdict is the call with every line it ran, the loop's included.
    let (_dir, mut d) = open(
        1,
        DebugOptions {
            loops: false,
            ..Default::default()
        },
    );
    let verdict = paper_answers(&mut d);
    assert_eq!(verdict, Verdict::Bug { node: SUM });
    let bug = d.report(&verdict).unwrap().buggy_node.unwrap();
    assert_eq!(bug.lines, vec![11, 12, 15, 16, 18]);
}

#[test]
fn dont_know_loops_keep_their_lines_in_the_verdict() {
    let (_dir, mut d) = open(1, DebugOptions::default());
    let verdict = loop {
        match d.step().unwrap() {
            Step::Ask(n) => {
                let tree = d.session().tree();
                let answer = if tree.kind(n).is_loop() {
                    Answer::DontKnow
                } else if tree.is_ancestor_or_self(n, SUM) {
                    Answer::Invalid
                } else {
                    Answer::Valid
                };
                d.answer(n, answer).unwrap();
            }
            Step::Done(v) => break v,
            Step::Waiting => unreachable!(),
        }
    };
    assert_eq!(verdict, Verdict::Bug { node: SUM });
    let bug = d.report(&verdict).unwrap().buggy_node.unwrap();
    assert_eq!(bug.lines, vec![11, 12, 15, 16, 18]);
}
