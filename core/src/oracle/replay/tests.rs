use super::*;
use crate::ids::ObjectId;
use crate::omniscient::{canonical_state, testing::MemHeap};
use crate::oracle::recorded::Outcome;
use crate::trace::wire::Value;

const NODE_ANSWER: &str = "RETURNED @1\n\
OBJ 1 p.Node\n\
FIELD 1 key I7\n\
FIELD 1 next @2\n\
OBJ 2 p.Node\n\
FIELD 2 key I9\n\
FIELD 2 name T6e696e65\n\
THIS @2\n\
ARGS 1 I7\n\
OUT java.io.PrintStream.println(I)V 1 I7\n\
SEQ 3 java.util.ArrayList 2 bI1 N\n\
OUT java.io.PrintStream.println(Ljava/lang/Object;)V 1 @3\n\
END\n";

#[test]
fn an_answer_takes_the_canonical_form_of_the_same_recorded_graph() {
    let Replayed::Ran(ran) = parse_answer(NODE_ANSWER).unwrap() else {
        panic!("not a run")
    };
    assert_eq!(ran.outcome, Outcome::Returned(Value::Object(ObjectId(1))));
    assert_eq!(ran.this, Some(Value::Object(ObjectId(2))));
    assert_eq!(ran.args, [Value::Int(7)]);
    assert_eq!(ran.output.len(), 2);
    assert_eq!(ran.output[0].method, "java.io.PrintStream.println(I)V");

    let roots = [
        Value::Object(ObjectId(2)),
        Value::Int(7),
        Value::Object(ObjectId(1)),
    ];
    let replayed = canonical_state(&ran.heap, &roots, 0, 100).unwrap();
    // The same graph as a recorded run has it, other ids.
    let mut recorded = MemHeap::default();
    recorded
        .obj(20, "p.Node")
        .obj(10, "p.Node")
        .set(10, "key", 0, Value::Int(7))
        .set(10, "next", 0, Value::Object(ObjectId(20)))
        .set(20, "key", 0, Value::Int(9))
        .set(20, "name", 0, Value::Str(crate::ids::StringId(5)))
        .text(5, "nine");
    let roots = [
        Value::Object(ObjectId(20)),
        Value::Int(7),
        Value::Object(ObjectId(10)),
    ];
    let expected = canonical_state(&recorded, &roots, 0, 100).unwrap();
    assert!(replayed.complete && expected.complete);
    assert_eq!(replayed.text, expected.text);

    // The collection an output call printed is content the heap knows.
    let printed = canonical_state(&ran.heap, &ran.output[1].args, 0, 100).unwrap();
    assert!(printed.complete);
    assert_eq!(printed.text, "java.util.ArrayList[2|Boxed(Int(1)),Null]");
}

#[test]
fn a_failure_carries_its_reason() {
    match parse_answer("FAIL cannot rebuild java.util.HashMap\nEND\n").unwrap() {
        Replayed::Failed(reason) => assert_eq!(reason, "cannot rebuild java.util.HashMap"),
        Replayed::Ran(_) => panic!("a failure read as a run"),
    }
}

#[test]
fn opaque_objects_are_incomplete_except_exceptions() {
    let answer = "THREW @0\nOPAQUE 0 java.lang.ArithmeticException\nOPAQUE 1 java.util.Random\n\
                  ARGS 1 @1\nEND\n";
    let Replayed::Ran(ran) = parse_answer(answer).unwrap() else {
        panic!("not a run")
    };
    let exception = canonical_state(&ran.heap, &[Value::Object(ObjectId(0))], 0, 10).unwrap();
    assert!(exception.complete);
    let random = canonical_state(&ran.heap, &ran.args, 0, 10).unwrap();
    assert!(!random.complete);
}

#[test]
fn malformed_answers_name_the_line() {
    for (answer, expected) in [
        ("", "empty"),
        ("RETURNED I1\nARGS 0\n", "no END"),
        ("RETURNED I1\nEND\n", "no ARGS"),
        ("RETURNED @4\nARGS 0\nEND\n", "object 4"),
        (
            "RETURNED I1\nARGS 2 I1\nEND\n",
            "line 2: count 2 but 1 values",
        ),
        (
            "RETURNED I1\nWHAT 1\nARGS 0\nEND\n",
            "line 2: unknown record `WHAT`",
        ),
        (
            "RETURNED I1\nFIELD 3 x I1\nARGS 0\nEND\n",
            "line 2: FIELD of object 3",
        ),
        (
            "RETURNED I1\nOBJ 1 A\nOBJ 1 B\nARGS 0\nEND\n",
            "line 3: object 1 is declared twice",
        ),
        ("RETURNED Q\nARGS 0\nEND\n", "line 1: `Q` is not a value"),
        (
            "RETURNED I1\nARR 1 int[] 3 I1\nARGS 0\nEND\n",
            "line 2: length 3 but 1 values",
        ),
        ("HELLO\n", "line 1"),
    ] {
        let error = parse_answer(answer).unwrap_err();
        assert!(error.contains(expected), "{answer:?}: {error}");
    }
}

fn call(this: Option<Value>, args: &[Value]) -> crate::oracle::recorded::CallView {
    crate::oracle::recorded::CallView {
        method: crate::oracle::recorded::MethodKey {
            class: "p.Tree".into(),
            name: "insert".into(),
            descriptor: "(Lp/Node;Ljava/lang/String;)V".into(),
        },
        code_hash: Some([1; 16]),
        entry: 10,
        exit: Some(20),
        this,
        args: args.to_vec(),
        outcome: Some(Outcome::Returned(Value::Void)),
        statics: Vec::new(),
        output: Vec::new(),
        fragment: None,
        exit_locals: Vec::new(),
        position: None,
    }
}

#[test]
fn a_request_writes_the_entry_state_once_per_object() {
    let mut heap = MemHeap::default();
    heap.obj(5, "p.Tree")
        .set(5, "root", 0, Value::Object(ObjectId(6)))
        .obj(6, "p.Node")
        .set(6, "key", 0, Value::Int(3))
        .set(6, "self", 0, Value::Object(ObjectId(6)))
        // Written after the entry: not part of the request.
        .set(6, "key", 15, Value::Int(4))
        .text(8, "k");
    let request = encode_request(
        &heap,
        &call(
            Some(Value::Object(ObjectId(5))),
            &[
                Value::Object(ObjectId(6)),
                Value::Str(crate::ids::StringId(8)),
            ],
        ),
        100,
    )
    .unwrap()
    .unwrap();
    assert_eq!(
        request,
        "CALL p.Tree insert (Lp/Node;Ljava/lang/String;)V\n\
         OBJ 1 p.Node\nFIELD 1 key I3\nFIELD 1 self @1\n\
         OBJ 0 p.Tree\nFIELD 0 root @1\n\
         THIS @0\nARGS 2 @1 T6b\nEND\n"
    );
}

#[test]
fn a_request_is_refused_for_what_the_trace_does_not_know() {
    let mut heap = MemHeap::default();
    heap.obj(1, "java.util.Random");
    let refused = encode_request(&heap, &call(None, &[Value::Object(ObjectId(1))]), 100)
        .unwrap()
        .unwrap_err();
    assert!(refused.contains("java.util.Random"), "{refused}");
    let unknown_text = encode_request(
        &heap,
        &call(None, &[Value::Str(crate::ids::StringId(3))]),
        100,
    )
    .unwrap()
    .unwrap_err();
    assert!(unknown_text.contains("string"), "{unknown_text}");
    // Too many objects.
    heap.obj(2, "p.Node")
        .obj(3, "p.Node")
        .set(2, "next", 0, Value::Object(ObjectId(3)));
    let big = encode_request(&heap, &call(None, &[Value::Object(ObjectId(2))]), 1)
        .unwrap()
        .unwrap_err();
    assert!(big.contains("more than 1 objects"), "{big}");
}
