//! Loop and iteration nodes through the recorder, on the generalized-AD paper's `sumNumbers`
//! (Fig. 1) compiled as javac does, and on loops that end by a return, an exception, or never
//! run.

use super::*;
use crate::ids::NodeId;
use crate::trace::store::{Outcome, TraceReader};
use crate::trace::synthetic::{block_def, with_successors, StreamBuilder};
use crate::tree::ExecutionTree;

pub(crate) fn record_stream(bytes: &[u8]) -> (tempfile::TempDir, TraceReader, Vec<NodeHeader>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.htrace");
    let mut headers = Vec::new();
    record(bytes, &path, &mut headers, WriterConfig::default()).expect("recording succeeds");
    let reader = TraceReader::open(&path).unwrap();
    (dir, reader, headers)
}

/// `sumNumbers(int[] array, String eo)` of the paper with `eo = "odd"` and the loop starting at
/// `start` (1 is the bug), on `{1, 2, 3}`; the "even" branch is left out. Lines as in
/// tests/programs/sumnumbers: 11 `sum = 0`, 12 the `for`, 15 the odd test, 16 `sum = add(..)`,
/// 18 `return sum`. Blocks as javac makes them: 0 the initialisations, 1 the test `i <
/// array.length` (no line of its own), 2 the odd test, 3 the add, 4 `i++`, 5 the return.
pub(crate) fn sum_numbers(start: i32) -> Vec<u8> {
    sum_numbers_variant(start, None, false)
}

/// `sum_numbers` with sumNumbers' bytecode hash `hash` (its code differs from another
/// stream's), and, with `lose_last`, an iteration adding 3 that forgets to store the sum.
pub(crate) fn sum_numbers_variant(start: i32, hash: Option<[u8; 16]>, lose_last: bool) -> Vec<u8> {
    sum_numbers_asking(start, hash, lose_last, None, false)
}

/// `sum_numbers_variant`, and with `identity_hash`, the iteration adding 3 also asks the JDK
/// for `this.hashCode()` (an identity hash code, `identity_hash` in this run) and adds it. With
/// `stream`, sumNumbers holds a `java.io.PrintStream` (an object whose content the trace does
/// not know) in a local `out` set before the loop and never used.
pub(crate) fn sum_numbers_asking(
    start: i32,
    hash: Option<[u8; 16]>,
    lose_last: bool,
    identity_hash: Option<i32>,
    stream: bool,
) -> Vec<u8> {
    let mut s = StreamBuilder::new();
    let c = s.class("sumnumbers.SumNumbers", true);
    let main = s.method(
        c,
        "main",
        "([Ljava/lang/String;)V",
        true,
        &["args", "array", "sum"],
    );
    let is_even = s.method(c, "isEven", "(I)Z", false, &["this", "x"]);
    let add = s.method(c, "add", "(II)I", false, &["this", "x", "y"]);
    let blocks = with_successors(
        vec![
            block_def(0, 11, &[(0, 3), (0, 4)]),
            block_def(4, 0, &[(1, 4), (1, 1)]),
            block_def(8, 15, &[(1, 0), (1, 1), (1, 4)]),
            block_def(16, 16, &[(1, 0), (1, 3), (1, 1), (1, 4), (0, 3)]),
            block_def(24, 12, &[(1, 4), (0, 4)]),
            block_def(28, 18, &[(1, 3)]),
        ],
        &[&[1], &[2, 5], &[3, 4], &[4], &[1], &[]],
    );
    if let Some(h) = hash {
        s.hash_next_method(h);
    }
    let vars: &[&str] = if stream {
        &["this", "array", "eo", "sum", "i", "out"]
    } else {
        &["this", "array", "eo", "sum", "i"]
    };
    let sum_numbers = s.method_with_blocks(
        c,
        "sumNumbers",
        "([ILjava/lang/String;)I",
        false,
        vars,
        blocks,
    );
    let print_stream = stream.then(|| s.class("java.io.PrintStream", false));
    let hash_code = identity_hash.map(|h| {
        let object = s.class("java.lang.Object", false);
        (s.external_method(object, "hashCode", "()I"), h)
    });
    let t = s.thread("main");
    s.call(t, main, &[Value::Null]);
    let int_array = s.class("int[]", false);
    let array = s.new_array(
        t,
        int_array,
        3,
        Some(vec![Value::Int(1), Value::Int(2), Value::Int(3)]),
    );
    let this = s.new_object(t, c);
    let odd = s.string(t, "odd");
    s.call(
        t,
        sum_numbers,
        &[Value::Object(this), Value::Object(array), Value::Str(odd)],
    );
    s.block(t, 0);
    if let Some(class) = print_stream {
        let out = s.new_object(t, class);
        s.local(t, 5, Value::Object(out));
    }
    s.local(t, 3, Value::Int(0));
    s.line(t, 12);
    s.local(t, 4, Value::Int(start));
    let values = [1, 2, 3];
    let (mut sum, mut i) = (0, start);
    loop {
        s.block(t, 1);
        if i >= 3 {
            break;
        }
        s.block(t, 2);
        let x = values[i as usize];
        s.call(t, is_even, &[Value::Object(this), Value::Int(x)]);
        s.ret(t, Value::Boolean(x % 2 == 0));
        if x % 2 != 0 {
            s.block(t, 3);
            s.call(
                t,
                add,
                &[Value::Object(this), Value::Int(sum), Value::Int(x)],
            );
            s.ret(t, Value::Int(sum + x));
            if !(lose_last && x == 3) {
                sum += x;
            }
            if let Some((method, h)) = hash_code.filter(|_| x == 3) {
                s.event(
                    t,
                    EventKind::ExtCall {
                        method,
                        args: vec![Value::Object(this)],
                    },
                );
                s.event(t, EventKind::ExtReturn(Value::Int(h)));
                sum += h;
            }
            s.local(t, 3, Value::Int(sum));
        }
        s.block(t, 4);
        i += 1;
        s.local(t, 4, Value::Int(i));
    }
    s.block(t, 5);
    s.ret(t, Value::Int(sum));
    s.local(t, 2, Value::Int(sum));
    s.ret(t, Value::Void);
    s.end(0)
}

fn kinds(reader: &TraceReader) -> Vec<(u32, Option<u32>, NodeKind)> {
    reader
        .preorder()
        .map(|r| {
            let r = r.unwrap();
            (r.header.id.0, r.header.parent.map(|p| p.0), r.header.kind)
        })
        .collect()
}

#[test]
fn each_loop_execution_is_a_node_with_its_iterations_below_and_calls_below_them() {
    let (_dir, reader, headers) = record_stream(&sum_numbers(1));
    use NodeKind::*;
    assert_eq!(
        kinds(&reader),
        vec![
            (0, None, Root),
            (1, Some(0), Thread),
            (2, Some(1), Routine),    // main
            (3, Some(2), Routine),    // sumNumbers
            (4, Some(3), Loop),       // the for loop
            (5, Some(4), Iteration),  // i = 1
            (6, Some(5), Routine),    // isEven(2)
            (7, Some(4), Iteration),  // i = 2
            (8, Some(7), Routine),    // isEven(3)
            (9, Some(7), Routine),    // add(0, 3)
            (10, Some(4), Iteration), // i = 3: the test that ends the loop
        ]
    );
    // The session's tree accepts the headers as they came (parents first, preorder ids).
    let tree = ExecutionTree::from_headers(&headers).unwrap();
    assert_eq!(tree.len(), 11);
    assert!((0..11).all(|i| tree.is_complete(NodeId(i))));
    let row = |i| reader.node(NodeId(i)).unwrap().unwrap();
    let (sum_numbers, lp) = (row(3), row(4));
    let its: Vec<NodeRow> = [5, 7, 10].into_iter().map(row).collect();
    // Loop and iterations run in sumNumbers' frame: its method, its depth.
    for r in its.iter().chain([&lp]) {
        assert_eq!(r.header.method, sum_numbers.header.method);
        assert_eq!(r.depth, sum_numbers.depth);
        assert_eq!(r.outcome, Some(Outcome::Returned));
    }
    // The loop spans its iterations, which follow each other with nothing in between: each
    // starts at the header's BLOCK, the next event after the previous one's exit.
    assert_eq!(lp.header.entry, its[0].header.entry);
    assert_eq!(lp.header.exit, its[2].header.exit);
    for w in its.windows(2) {
        let next_event = reader
            .node_events_all(NodeId(3), w[0].header.exit.unwrap() + 1, 1)
            .unwrap();
        assert_eq!(next_event[0].event.ts, w[1].header.entry);
    }
    assert!(sum_numbers.header.entry < lp.header.entry);
    assert!(lp.header.exit < sum_numbers.header.exit);
    // The last iteration is the header's test alone.
    assert_eq!(its[2].header.entry, its[2].header.exit.unwrap());
}

#[test]
fn lines_of_a_node_leave_out_its_loops_and_an_iteration_keeps_the_line_of_its_test() {
    let (_dir, reader, _) = record_stream(&sum_numbers(1));
    let lines = |i| reader.node_lines(NodeId(i)).unwrap();
    // sumNumbers' own code outside the loop: the initialisations and the return.
    assert_eq!(lines(3), vec![11, 12, 18]);
    assert_eq!(lines(4), Vec::<u32>::new());
    assert_eq!(lines(5), vec![12, 15]);
    assert_eq!(lines(7), vec![12, 15, 16]);
    // The test that ended the loop: on the line the frame was on (the `for`).
    assert_eq!(lines(10), vec![12]);
    // An iteration's events are its frame's, between its entry and exit.
    let events = reader.node_events(NodeId(7), 0, 100).unwrap();
    assert!(events.iter().all(|e| e.node == NodeId(3) || !e.own));
    assert!(events
        .iter()
        .any(|e| e.own && matches!(e.event.kind, EventKind::Local { var: 3, .. })));
    assert!(events.iter().any(|e| !e.own && e.node == NodeId(9)));
}

/// A method whose loop `while (i < n) { if (found) return i; i++; }` is left by a return, by
/// an exception, or never run.
fn early_exits(runs: &[&[u32]], end: &[bool]) -> Vec<u8> {
    let mut s = StreamBuilder::new();
    let c = s.class("demo.Find", true);
    let main = s.method(c, "main", "([Ljava/lang/String;)V", true, &["args"]);
    let f = s.method(c, "f", "()V", true, &[]);
    // 0 init, 1 test, 2 body `if (found)`, 3 `return` (outside the body), 4 `i++`, 5 after.
    let find = s.method_with_blocks(
        c,
        "find",
        "()I",
        true,
        &["i"],
        with_successors(
            vec![
                block_def(0, 3, &[]),
                block_def(2, 4, &[]),
                block_def(4, 5, &[]),
                block_def(6, 6, &[]),
                block_def(8, 7, &[]),
                block_def(10, 9, &[]),
            ],
            &[&[1], &[2, 5], &[3, 4], &[], &[1], &[]],
        ),
    );
    let t = s.thread("main");
    s.call(t, main, &[Value::Null]);
    for (run, &unwinds) in runs.iter().zip(end) {
        s.call(t, find, &[]);
        for &b in *run {
            s.block(t, b);
            if b == 2 {
                s.call(t, f, &[]);
                s.ret(t, Value::Void);
            }
        }
        if unwinds {
            s.unwind(t, Value::Null);
        } else {
            s.ret(t, Value::Int(0));
        }
    }
    s.ret(t, Value::Void);
    s.end(0)
}

#[test]
fn a_loop_left_by_a_return_or_an_exception_ends_with_its_frame_and_one_never_run_is_no_node() {
    let bytes = early_exits(
        &[
            // Never runs its body, calls nothing: no node.
            &[0, 1, 5],
            // Two iterations, the second returns from its body's `return` block.
            &[0, 1, 2, 4, 1, 2, 3],
            // One iteration whose body calls f, then an exception leaves the frame.
            &[0, 1, 2],
        ],
        &[false, false, true],
    );
    let (_dir, reader, _) = record_stream(&bytes);
    use NodeKind::*;
    let k: Vec<NodeKind> = kinds(&reader).into_iter().map(|(_, _, k)| k).collect();
    assert_eq!(
        k,
        vec![
            Root, Thread, Routine, // main
            Routine, // find: no loop node
            Routine, Loop, Iteration, Routine, Iteration,
            Routine, // find: 2 iterations, f each
            Routine, Loop, Iteration, Routine, // find: 1 iteration that unwinds
        ]
    );
    let row = |i| reader.node(NodeId(i)).unwrap().unwrap();
    // The return's block is outside the loop: the loop ended when it started.
    let (find, lp, last) = (row(4), row(5), row(8));
    assert_eq!(lp.header.exit, last.header.exit);
    assert!(lp.header.exit < find.header.exit);
    assert_eq!(lp.outcome, Some(Outcome::Returned));
    let thrown = row(11);
    assert_eq!(thrown.outcome, Some(Outcome::Threw));
    assert_eq!(row(12).outcome, Some(Outcome::Threw));
    assert!(thrown.header.exit < row(10).header.exit);
}

/// A loop that calls nothing becomes nodes once its body ran twice, with the iterations before
/// that at their recorded places; after one pass it stays its frame's code.
#[test]
fn a_loop_without_calls_is_a_node_once_its_body_ran_twice() {
    let mut s = StreamBuilder::new();
    let c = s.class("demo.Count", true);
    let main = s.method(c, "main", "([Ljava/lang/String;)V", true, &["args"]);
    // 0 init, 1 test, 2 body, 3 after.
    let count = s.method_with_blocks(
        c,
        "count",
        "()V",
        true,
        &[],
        with_successors(
            vec![
                block_def(0, 3, &[]),
                block_def(2, 4, &[]),
                block_def(4, 5, &[]),
                block_def(6, 6, &[]),
            ],
            &[&[1], &[2, 3], &[1], &[]],
        ),
    );
    let t = s.thread("main");
    s.call(t, main, &[Value::Null]);
    let mut headers = Vec::new();
    for passes in [0, 2] {
        s.call(t, count, &[]);
        s.block(t, 0);
        let mut h = Vec::new();
        for _ in 0..passes {
            h.push(s.block(t, 1));
            s.block(t, 2);
        }
        h.push(s.block(t, 1));
        s.block(t, 3);
        s.ret(t, Value::Void);
        headers.push(h);
    }
    s.ret(t, Value::Void);
    let (_dir, reader, sink) = record_stream(&s.end(0));
    use NodeKind::*;
    assert_eq!(
        kinds(&reader),
        vec![
            (0, None, Root),
            (1, Some(0), Thread),
            (2, Some(1), Routine),
            (3, Some(2), Routine), // no pass: no loop node
            (4, Some(2), Routine),
            (5, Some(4), Loop),
            (6, Some(5), Iteration),
            (7, Some(5), Iteration),
            (8, Some(5), Iteration),
        ]
    );
    ExecutionTree::from_headers(&sink).unwrap();
    let entries: Vec<u64> = (6..9)
        .map(|i| reader.node(NodeId(i)).unwrap().unwrap().header.entry)
        .collect();
    assert_eq!(entries, headers[1]);
    // Each iteration ends with the event before the next one's header.
    for i in 6..8 {
        let r = reader.node(NodeId(i)).unwrap().unwrap();
        let next = reader.node(NodeId(i + 1)).unwrap().unwrap();
        assert_eq!(r.header.exit, Some(next.header.entry - 1));
    }
}
