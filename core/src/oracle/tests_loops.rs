//! The reference oracle on loops and iterations, over recorded runs of the paper's
//! `sumNumbers` (`trace::recorder::tests_loops`): rule 1 matches executions of the same loop,
//! rule 2 judges them by their children when the method's code did not change, and a loop of a
//! changed method that rule 1 cannot match is "don't know" (no replay of a loop).

use super::*;
use crate::ids::NodeId;
use crate::session::Answer;
use crate::trace::recorder::tests_loops::{record_stream, sum_numbers_asking, sum_numbers_variant};

/// sumNumbers, its loop, its iterations (3 for a loop from 1, 4 from 0).
const SUM: NodeId = NodeId(3);
const LOOP: NodeId = NodeId(4);

fn runs(
    buggy: (i32, Option<[u8; 16]>, bool),
    fixed: (i32, Option<[u8; 16]>, bool),
) -> (tempfile::TempDir, tempfile::TempDir, TraceRun, TraceRun) {
    let (db, _, _) = record_stream(&sum_numbers_variant(buggy.0, buggy.1, buggy.2));
    let (df, _, _) = record_stream(&sum_numbers_variant(fixed.0, fixed.1, fixed.2));
    let b = TraceRun::open(&db.path().join("run.htrace")).unwrap();
    let f = TraceRun::open(&df.path().join("run.htrace")).unwrap();
    (db, df, b, f)
}

fn iterations(run: &TraceRun) -> Vec<NodeId> {
    run.children(LOOP).unwrap()
}

#[test]
fn a_loop_of_a_changed_method_that_no_reference_loop_matches_is_dont_know() {
    // The paper's bug: the loop starts at 1. The method's code changed, so rule 2 is out.
    let (_a, _b, buggy, fixed) = runs((1, Some([9; 16]), false), (0, None, false));
    let mut o = ReferenceOracle::new(&buggy, &fixed);
    assert_eq!(o.answer(SUM).unwrap(), Answer::Invalid);
    assert_eq!(o.answer(LOOP).unwrap(), Answer::DontKnow);
    for it in iterations(&buggy) {
        assert_eq!(o.answer(it).unwrap(), Answer::DontKnow, "{it}");
    }
    // The calls in the iterations are judged as ever.
    assert_eq!(o.answer(NodeId(6)).unwrap(), Answer::Valid);
}

/// The iteration adding 3 asks for an identity hash code, which differs between the two runs
/// (as it does when a run asked for others before) and ends up in the sum: its states differ
/// from the reference's, which proves nothing about its code. Rule 2 judges it by its children.
#[test]
fn an_iteration_that_asked_for_an_identity_hash_code_is_judged_by_its_children() {
    let record = |h| {
        let (d, _, _) = record_stream(&sum_numbers_asking(0, None, false, Some(h), false));
        let run = TraceRun::open(&d.path().join("run.htrace")).unwrap();
        (d, run)
    };
    let ((_a, buggy), (_b, fixed)) = (record(11), record(22));
    let its = iterations(&buggy);
    assert_eq!(its.len(), 4);
    let mut o = ReferenceOracle::new(&buggy, &fixed);
    let answers: Vec<Answer> = its.iter().map(|&it| o.answer(it).unwrap()).collect();
    assert_eq!(answers, vec![Answer::Valid; 4]);
}

#[test]
fn rule_2_judges_loops_of_unchanged_code_by_their_children() {
    let (_a, _b, buggy, fixed) = runs((1, None, false), (0, None, false));
    let mut o = ReferenceOracle::new(&buggy, &fixed);
    assert_eq!(o.answer(LOOP).unwrap(), Answer::Valid);
    for it in iterations(&buggy) {
        assert_eq!(o.answer(it).unwrap(), Answer::Valid, "{it}");
    }
    // Same code and right children, yet the entry state of sumNumbers matches the fixed run's:
    // rule 1 comes first and says the result is wrong.
    assert_eq!(o.answer(SUM).unwrap(), Answer::Invalid);
}

#[test]
fn rule_1_matches_iterations_of_the_same_loop_by_their_entry_state() {
    // Both loops start at 0; the buggy one forgets the sum when it adds 3.
    let (_a, _b, buggy, fixed) = runs((0, Some([9; 16]), true), (0, None, false));
    let its = iterations(&buggy);
    assert_eq!(its.len(), 4);
    let view = buggy.call(its[2]).unwrap();
    assert_eq!(
        view.fragment.map(|f| f.kind),
        Some(crate::tree::NodeKind::Iteration)
    );
    assert_eq!(
        view.outcome,
        Some(Outcome::Returned(crate::trace::wire::Value::Int(
            ending::NEXT
        )))
    );
    let mut o = ReferenceOracle::new(&buggy, &fixed);
    let answers: Vec<Answer> = its.iter().map(|&it| o.answer(it).unwrap()).collect();
    // i = 0 and 1: same entry, same exit as the fixed run's. i = 2 adds 3 and loses it. The
    // last one (i = 3, sum = 1) starts where the fixed run never was.
    assert_eq!(
        answers,
        vec![
            Answer::Valid,
            Answer::Valid,
            Answer::Invalid,
            Answer::DontKnow
        ]
    );
    assert_eq!(o.answer(LOOP).unwrap(), Answer::Invalid);
}

/// sumNumbers holds a `PrintStream` it never uses: whole states that reach it are not
/// completely known, so they prove nothing. Footprints (what an iteration read and wrote, and
/// which iteration it is) do: the first two match the fixed run's (right, although the method
/// changed), the third loses the 3 it adds (wrong); the last starts where the fixed run never
/// was: "don't know".
#[test]
fn iterations_are_judged_by_their_footprints_when_whole_states_cannot_be() {
    let record = |hash, lose_last| {
        let (d, _, _) = record_stream(&sum_numbers_asking(0, hash, lose_last, None, true));
        let run = TraceRun::open(&d.path().join("run.htrace")).unwrap();
        (d, run)
    };
    let ((_a, buggy), (_b, fixed)) = (record(Some([9; 16]), true), record(None, false));
    let its = iterations(&buggy);
    assert_eq!(its.len(), 4);
    let state = state::entry_state(&buggy, &buggy.call(its[0]).unwrap(), &[]).unwrap();
    assert!(!state.complete, "the stream's content is unknown");
    let mut o = ReferenceOracle::new(&buggy, &fixed);
    let answers: Vec<Answer> = its.iter().map(|&it| o.answer(it).unwrap()).collect();
    use Answer::*;
    assert_eq!(answers, vec![Valid, Valid, Invalid, DontKnow]);
}
