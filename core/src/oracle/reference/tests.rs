use std::collections::HashMap;
use std::ops::Range;

use super::*;
use crate::ids::{ObjectId, StringId, Timestamp};
use crate::omniscient::{testing::MemHeap, Heap, ObjectInfo};
use crate::oracle::recorded::{CallView, MethodKey, Outcome, OutputCall};
use crate::oracle::Replayer;
use crate::trace::wire::Value;

/// A recorded run built by hand: calls, children, code hashes, statics over a [`MemHeap`].
#[derive(Default)]
struct FakeRun {
    heap: MemHeap,
    calls: HashMap<NodeId, CallView>,
    children: HashMap<NodeId, Vec<NodeId>>,
    hashes: HashMap<MethodKey, [u8; 16]>,
    statics: HashMap<String, Vec<(Timestamp, Value)>>,
}

fn key(name: &str) -> MethodKey {
    MethodKey {
        class: "p.Sum".into(),
        name: name.into(),
        descriptor: "()V".into(),
    }
}

impl FakeRun {
    fn code(&mut self, name: &str, hash: u8) -> &mut Self {
        self.hashes.insert(key(name), [hash; 16]);
        self
    }

    fn add(
        &mut self,
        id: u32,
        parent: Option<u32>,
        name: &str,
        span: (Timestamp, Timestamp),
        args: &[Value],
        result: Outcome,
    ) -> &mut Self {
        let view = CallView {
            method: key(name),
            code_hash: self.hashes.get(&key(name)).copied(),
            entry: span.0,
            exit: Some(span.1),
            this: None,
            args: args.to_vec(),
            outcome: Some(result),
            statics: Vec::new(),
            output: Vec::new(),
            fragment: None,
            exit_locals: Vec::new(),
            position: None,
        };
        self.calls.insert(NodeId(id), view);
        if let Some(p) = parent {
            self.children.entry(NodeId(p)).or_default().push(NodeId(id));
        }
        self
    }
}

impl Heap for FakeRun {
    fn object(&self, id: ObjectId) -> HeapResult<Option<ObjectInfo>> {
        self.heap.object(id)
    }
    fn fields_at(&self, id: ObjectId, at: Timestamp) -> HeapResult<Vec<(String, Value)>> {
        self.heap.fields_at(id, at)
    }
    fn elements_at(
        &self,
        id: ObjectId,
        at: Timestamp,
        range: Range<u32>,
    ) -> HeapResult<Vec<Option<Value>>> {
        self.heap.elements_at(id, at, range)
    }
    fn string(&self, id: StringId) -> HeapResult<Option<String>> {
        self.heap.string(id)
    }
}

impl RecordedRun for FakeRun {
    fn call(&self, node: NodeId) -> HeapResult<CallView> {
        Ok(self.calls[&node].clone())
    }
    fn children(&self, node: NodeId) -> HeapResult<Vec<NodeId>> {
        Ok(self.children.get(&node).cloned().unwrap_or_default())
    }
    fn calls_of(&self, method: &MethodKey) -> HeapResult<Vec<NodeId>> {
        let mut nodes: Vec<NodeId> = self
            .calls
            .iter()
            .filter(|(_, c)| c.method == *method)
            .map(|(n, _)| *n)
            .collect();
        nodes.sort();
        Ok(nodes)
    }
    fn code_hash(&self, method: &MethodKey) -> HeapResult<Option<[u8; 16]>> {
        Ok(self.hashes.get(method).copied())
    }
    fn static_at(&self, field: &str, at: Timestamp) -> HeapResult<Option<Value>> {
        Ok(self
            .statics
            .get(field)
            .and_then(|w| w.iter().rev().find(|(t, _)| *t <= at))
            .map(|(_, v)| *v))
    }
}

fn ret(v: i32) -> Outcome {
    Outcome::Returned(Value::Int(v))
}

fn yes(b: bool) -> Outcome {
    Outcome::Returned(Value::Boolean(b))
}

/// The generalized-AD paper's sumNumbers({1,2,3}, "odd"): the loop starts at 1 in the buggy
/// program, so it returns 3 instead of 4.
fn sum_numbers() -> (FakeRun, FakeRun) {
    let arr = Value::Object(ObjectId(1));
    let odd = Value::Str(StringId(1));
    let ints = [1, 2, 3].map(Value::Int);

    let mut buggy = FakeRun::default();
    buggy.heap.arr(1, "int[]", &ints).text(1, "odd");
    buggy.code("sumNumbers", 1).code("isEven", 2).code("add", 3);
    buggy
        .add(1, None, "sumNumbers", (10, 90), &[arr, odd], ret(3))
        .add(2, Some(1), "isEven", (20, 25), &[Value::Int(2)], yes(true))
        .add(3, Some(1), "isEven", (30, 35), &[Value::Int(3)], yes(false))
        .add(
            4,
            Some(1),
            "add",
            (40, 45),
            &[Value::Int(0), Value::Int(3)],
            ret(3),
        );

    let mut reference = FakeRun::default();
    // Other ids and timestamps: states compare by structure.
    reference.heap.arr(7, "int[]", &ints).text(4, "odd");
    reference
        .code("sumNumbers", 9)
        .code("isEven", 2)
        .code("add", 3);
    let (arr, odd) = (Value::Object(ObjectId(7)), Value::Str(StringId(4)));
    reference
        .add(1, None, "sumNumbers", (5, 95), &[arr, odd], ret(4))
        .add(2, Some(1), "isEven", (10, 12), &[Value::Int(1)], yes(false))
        .add(
            3,
            Some(1),
            "add",
            (13, 15),
            &[Value::Int(0), Value::Int(1)],
            ret(1),
        )
        .add(4, Some(1), "isEven", (20, 25), &[Value::Int(2)], yes(true))
        .add(5, Some(1), "isEven", (30, 35), &[Value::Int(3)], yes(false))
        .add(
            6,
            Some(1),
            "add",
            (40, 45),
            &[Value::Int(1), Value::Int(3)],
            ret(4),
        );
    (buggy, reference)
}

#[test]
fn a_call_entered_alike_decides_by_its_exit() {
    let (buggy, reference) = sum_numbers();
    let mut oracle = ReferenceOracle::new(&buggy, &reference);
    assert_eq!(oracle.answer(NodeId(1)).unwrap(), Answer::Invalid);
    assert_eq!(oracle.answer(NodeId(2)).unwrap(), Answer::Valid);
    assert_eq!(oracle.answer(NodeId(3)).unwrap(), Answer::Valid);
}

#[test]
fn unchanged_code_with_valid_children_is_valid() {
    // add(0, 3) never happens in the reference run, but add's code is the same.
    let (buggy, reference) = sum_numbers();
    let mut oracle = ReferenceOracle::new(&buggy, &reference);
    assert_eq!(oracle.answer(NodeId(4)).unwrap(), Answer::Valid);
}

/// `apply(7)` (same code in both runs, never entered alike in the reference) calls
/// uninstrumented code (`forEach`), which calls the program back (`each`); the reference run's
/// `each(1)` returned 3.
fn callback_run(each_result: i32) -> (FakeRun, FakeRun) {
    let mut buggy = FakeRun::default();
    buggy.code("apply", 5).code("each", 6);
    buggy
        .add(1, None, "apply", (10, 90), &[Value::Int(7)], ret(7))
        .add(2, Some(1), "forEach", (20, 80), &[], ret(0))
        .add(
            3,
            Some(2),
            "each",
            (30, 40),
            &[Value::Int(1)],
            ret(each_result),
        );
    let mut reference = FakeRun::default();
    reference.code("apply", 5).code("each", 6);
    reference
        .add(1, None, "apply", (10, 90), &[Value::Int(8)], ret(8))
        .add(2, Some(1), "forEach", (20, 80), &[], ret(0))
        .add(3, Some(2), "each", (30, 40), &[Value::Int(1)], ret(3));
    (buggy, reference)
}

#[test]
fn a_wrong_callback_under_uninstrumented_code_is_not_trusted_with_it() {
    let (buggy, reference) = callback_run(2);
    let mut oracle = ReferenceOracle::new(&buggy, &reference);
    assert_eq!(oracle.answer(NodeId(3)).unwrap(), Answer::Invalid);
    assert_ne!(oracle.answer(NodeId(1)).unwrap(), Answer::Valid);
    // With the callback right, rule 2 proves the caller right through the trusted call.
    let (buggy, reference) = callback_run(3);
    let mut oracle = ReferenceOracle::new(&buggy, &reference);
    assert_eq!(oracle.answer(NodeId(1)).unwrap(), Answer::Valid);
    assert_eq!(oracle.answer(NodeId(2)).unwrap(), Answer::Trusted);
}

#[test]
fn changed_code_without_a_matching_call_is_unknown() {
    let (mut buggy, reference) = sum_numbers();
    buggy.code("add", 4);
    buggy.calls.get_mut(&NodeId(4)).unwrap().code_hash = Some([4; 16]);
    let mut oracle = ReferenceOracle::new(&buggy, &reference);
    assert_eq!(oracle.answer(NodeId(4)).unwrap(), Answer::DontKnow);
}

/// merge(c, 0) on c = [4, 9, 1, 7], leaving `result` in c; merge's code hash is `hash`.
fn merge_run(result: [i32; 4], hash: u8) -> FakeRun {
    let mut run = FakeRun::default();
    run.heap.arr(3, "int[]", &[4, 9, 1, 7].map(Value::Int));
    for (i, v) in result.iter().enumerate() {
        run.heap
            .set(3, &i.to_string(), 50 + i as u64, Value::Int(*v));
    }
    run.code("merge", hash);
    run.add(
        1,
        None,
        "merge",
        (40, 60),
        &[Value::Object(ObjectId(3)), Value::Int(0)],
        Outcome::Returned(Value::Void),
    );
    run
}

#[test]
fn array_arguments_compare_by_content_at_entry_and_exit() {
    // merge(c) writes into c: [4, 9, 1, 7] -> [1, 4, 9, 7] in the buggy run, [1, 4, 7, 9] in the reference.
    let buggy = merge_run([1, 4, 9, 7], 1);
    let reference = merge_run([1, 4, 7, 9], 2);
    assert_eq!(
        ReferenceOracle::new(&buggy, &reference)
            .answer(NodeId(1))
            .unwrap(),
        Answer::Invalid
    );
    let same = merge_run([1, 4, 7, 9], 1);
    assert_eq!(
        ReferenceOracle::new(&same, &reference)
            .answer(NodeId(1))
            .unwrap(),
        Answer::Valid
    );
}

#[test]
fn an_exception_is_not_a_return() {
    let mut buggy = FakeRun::default();
    buggy.heap.obj(5, "java.lang.NullPointerException");
    buggy.code("f", 1).add(
        1,
        None,
        "f",
        (1, 9),
        &[Value::Int(1)],
        Outcome::Threw(Value::Object(ObjectId(5))),
    );
    let mut reference = FakeRun::default();
    reference.code("f", 2).add(
        1,
        None,
        "f",
        (1, 9),
        &[Value::Int(1)],
        Outcome::Returned(Value::Null),
    );
    assert_eq!(
        ReferenceOracle::new(&buggy, &reference)
            .answer(NodeId(1))
            .unwrap(),
        Answer::Invalid
    );
}

#[test]
fn static_fields_the_call_wrote_are_part_of_its_state() {
    // Two statics, listed in either order by a run: states must not depend on it.
    let build = |exit_value: i32, reversed: bool| {
        let mut run = FakeRun::default();
        run.code("bump", 1).add(
            1,
            None,
            "bump",
            (10, 20),
            &[],
            Outcome::Returned(Value::Void),
        );
        let mut names = vec!["p.Sum.count".to_string(), "p.Sum.base".to_string()];
        if reversed {
            names.reverse();
        }
        run.calls.get_mut(&NodeId(1)).unwrap().statics = names;
        run.statics.insert(
            "p.Sum.count".into(),
            vec![(1, Value::Int(0)), (15, Value::Int(exit_value))],
        );
        run.statics.insert(
            "p.Sum.base".into(),
            vec![(1, Value::Int(0)), (16, Value::Int(1000))],
        );
        run
    };
    let (buggy, reference) = (build(2, false), build(1, true));
    assert_eq!(
        ReferenceOracle::new(&buggy, &reference)
            .answer(NodeId(1))
            .unwrap(),
        Answer::Invalid
    );
    let same = build(1, false);
    assert_eq!(
        ReferenceOracle::new(&same, &reference)
            .answer(NodeId(1))
            .unwrap(),
        Answer::Valid
    );
}

#[test]
fn deep_recursion_does_not_overflow_the_stack() {
    let depth = 200_000u32;
    let build = || {
        let mut run = FakeRun::default();
        run.code("down", 1);
        for i in 1..=depth {
            let parent = (i > 1).then(|| i - 1);
            let t = u64::from(i);
            run.add(
                i,
                parent,
                "down",
                (t, 10 * u64::from(depth) - t),
                &[Value::Int(i as i32)],
                ret(0),
            );
        }
        run
    };
    let (buggy, reference) = (build(), build());
    assert_eq!(
        ReferenceOracle::new(&buggy, &reference)
            .answer(NodeId(1))
            .unwrap(),
        Answer::Valid
    );
}

#[test]
fn what_a_call_prints_is_part_of_its_exit_state() {
    let build = |printed: &str| {
        let mut run = FakeRun::default();
        run.heap.text(1, printed);
        run.code("main", 1)
            .add(1, None, "main", (1, 9), &[], Outcome::Returned(Value::Void));
        run.calls.get_mut(&NodeId(1)).unwrap().output = vec![OutputCall {
            method: "java.io.PrintStream.println(Ljava/lang/String;)V".into(),
            args: vec![Value::Str(StringId(1))],
            at: 5,
        }];
        run
    };
    let (buggy, reference) = (build("[1, 4, 9, 7]"), build("[1, 4, 7, 9]"));
    assert_eq!(
        ReferenceOracle::new(&buggy, &reference)
            .answer(NodeId(1))
            .unwrap(),
        Answer::Invalid
    );
    let same = build("[1, 4, 7, 9]");
    assert_eq!(
        ReferenceOracle::new(&same, &reference)
            .answer(NodeId(1))
            .unwrap(),
        Answer::Valid
    );
}

#[test]
fn unknown_content_that_looks_equal_decides_nothing() {
    // f(list) with a JDK list whose content the trace does not know: rule 1 cannot prove the
    // exits equal; f's code changed, so rule 2 cannot help either.
    let build = |hash: u8| {
        let mut run = FakeRun::default();
        run.heap.obj(3, "java.util.ArrayList");
        run.code("f", hash).add(
            1,
            None,
            "f",
            (1, 9),
            &[Value::Object(ObjectId(3))],
            Outcome::Returned(Value::Void),
        );
        run
    };
    let (buggy, reference) = (build(1), build(2));
    assert_eq!(
        ReferenceOracle::new(&buggy, &reference)
            .answer(NodeId(1))
            .unwrap(),
        Answer::DontKnow
    );
    // With the same code and no children, rule 2 makes it valid.
    let same = build(2);
    assert_eq!(
        ReferenceOracle::new(&same, &reference)
            .answer(NodeId(1))
            .unwrap(),
        Answer::Valid
    );
}

/// A replayer that computes `add` (or `add` plus `error`) from the request, as the correct
/// program would, and keeps the requests it got.
struct Adder {
    error: i32,
    requests: Vec<String>,
    fail: bool,
}

impl Adder {
    fn new(error: i32, fail: bool) -> Adder {
        Adder {
            error,
            requests: Vec::new(),
            fail,
        }
    }
}

impl Replayer for Adder {
    fn exchange(&mut self, request: &str) -> Result<String, crate::oracle::ReplayError> {
        self.requests.push(request.to_string());
        if self.fail {
            return Ok("FAIL the class cannot be rebuilt\nEND\n".into());
        }
        let args = request
            .lines()
            .find_map(|l| l.strip_prefix("ARGS 2 "))
            .expect("two arguments");
        let sum: i32 = args
            .split(' ')
            .map(|t| t[1..].parse::<i32>().unwrap())
            .sum();
        Ok(format!(
            "RETURNED I{}\nARGS 2 {args}\nEND\n",
            sum + self.error
        ))
    }
}

fn changed_add() -> (FakeRun, FakeRun) {
    let (mut buggy, reference) = sum_numbers();
    buggy.code("add", 4);
    buggy.calls.get_mut(&NodeId(4)).unwrap().code_hash = Some([4; 16]);
    (buggy, reference)
}

#[test]
fn rule_3_replays_a_call_in_a_state_the_reference_never_reached() {
    let (buggy, reference) = changed_add();
    // add(0, 3) returned 3: the correct add returns 3 too.
    let mut right = Adder::new(0, false);
    let mut oracle = ReferenceOracle::new(&buggy, &reference).with_replayer(&mut right);
    assert_eq!(oracle.answer(NodeId(4)).unwrap(), Answer::Valid);
    assert_eq!(oracle.replay_stats().valid, 1);
    drop(oracle);
    assert_eq!(right.requests, ["CALL p.Sum add ()V\nARGS 2 I0 I3\nEND\n"]);

    // A correct add that would return 4 proves the recorded 3 wrong.
    let mut wrong = Adder::new(1, false);
    let mut oracle = ReferenceOracle::new(&buggy, &reference).with_replayer(&mut wrong);
    assert_eq!(oracle.answer(NodeId(4)).unwrap(), Answer::Invalid);
    assert_eq!(oracle.replay_stats().invalid, 1);
}

#[test]
fn rule_3_that_cannot_replay_leaves_dont_know() {
    let (buggy, reference) = changed_add();
    let mut failing = Adder::new(0, true);
    let mut oracle = ReferenceOracle::new(&buggy, &reference).with_replayer(&mut failing);
    assert_eq!(oracle.answer(NodeId(4)).unwrap(), Answer::DontKnow);
    assert_eq!(oracle.replay_stats().failed, 1);
}

#[test]
fn rule_1_and_2_come_before_replaying() {
    // Node 2 matches a reference call (rule 1), node 4 has unchanged code and no children
    // (rule 2): neither is replayed.
    let (buggy, reference) = sum_numbers();
    let mut replayer = Adder::new(0, false);
    let mut oracle = ReferenceOracle::new(&buggy, &reference).with_replayer(&mut replayer);
    assert_eq!(oracle.answer(NodeId(2)).unwrap(), Answer::Valid);
    assert_eq!(oracle.answer(NodeId(4)).unwrap(), Answer::Valid);
    drop(oracle);
    assert!(replayer.requests.is_empty(), "{:?}", replayer.requests);
}

/// A replayer that sorts the `int[]` of a `merge(int[], int)` request in place.
struct Sorter;

impl Replayer for Sorter {
    fn exchange(&mut self, request: &str) -> Result<String, crate::oracle::ReplayError> {
        let arr = request
            .lines()
            .find(|l| l.starts_with("ARR 0 int[] 4 "))
            .expect("the array's record");
        let mut values: Vec<i32> = arr
            .split(' ')
            .skip(4)
            .map(|t| t[1..].parse().unwrap())
            .collect();
        values.sort();
        let tokens: Vec<String> = values.iter().map(|v| format!("I{v}")).collect();
        Ok(format!(
            "RETURNED V\nARR 5 int[] 4 {}\nARGS 2 @5 I0\nEND\n",
            tokens.join(" ")
        ))
    }
}

#[test]
fn rule_3_compares_what_the_call_did_to_its_arguments() {
    // The reference never called merge: only a replay can judge.
    let reference = FakeRun::default();
    let buggy = merge_run([1, 4, 9, 7], 1);
    let mut sorter = Sorter;
    let mut oracle = ReferenceOracle::new(&buggy, &reference).with_replayer(&mut sorter);
    assert_eq!(oracle.answer(NodeId(1)).unwrap(), Answer::Invalid);
    let sorted = merge_run([1, 4, 7, 9], 1);
    let mut sorter = Sorter;
    let mut oracle = ReferenceOracle::new(&sorted, &reference).with_replayer(&mut sorter);
    assert_eq!(oracle.answer(NodeId(1)).unwrap(), Answer::Valid);
}

#[test]
fn rule_3_refuses_states_the_trace_does_not_know() {
    let (mut buggy, reference) = changed_add();
    // An ArrayList whose content was never recorded.
    buggy.heap.obj(9, "java.util.ArrayList");
    buggy.calls.get_mut(&NodeId(4)).unwrap().args[0] = Value::Object(ObjectId(9));
    let mut replayer = Adder::new(0, false);
    let mut oracle = ReferenceOracle::new(&buggy, &reference).with_replayer(&mut replayer);
    assert_eq!(oracle.answer(NodeId(4)).unwrap(), Answer::DontKnow);
    assert_eq!(oracle.replay_stats().refused, 1);
    drop(oracle);
    assert!(replayer.requests.is_empty());
}
