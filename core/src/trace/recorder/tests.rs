use std::path::{Path, PathBuf};

use super::*;
use crate::ids::{MethodId, ObjectId};
use crate::trace::store::{NodeResult, Outcome, TraceReader};
use crate::trace::synthetic::StreamBuilder;

fn trace_path(dir: &tempfile::TempDir) -> PathBuf {
    dir.path().join("run.htrace")
}

fn record_bytes(bytes: &[u8], path: &Path) -> (Summary, Vec<NodeHeader>) {
    let mut headers = Vec::new();
    let summary =
        record(bytes, path, &mut headers, WriterConfig::default()).expect("recording succeeds");
    (summary, headers)
}

impl NodeSink for &mut Vec<NodeHeader> {
    fn node(&mut self, header: &NodeHeader) {
        self.push(header.clone());
    }
}

/// main -> {a -> {b}, b}; returns (stream, [main, a, b]).
fn small_program() -> (StreamBuilder, ThreadId, [MethodId; 3]) {
    let mut s = StreamBuilder::new();
    let c = s.class("demo.Main", true);
    let main = s.method(c, "main", "([Ljava/lang/String;)V", true, &["args"]);
    let a = s.method(c, "a", "(I)I", true, &["x"]);
    let b = s.method(c, "b", "(I)I", true, &["y"]);
    let t = s.thread("main");
    s.call(t, main, &[Value::Null]);
    s.line(t, 3);
    s.call(t, a, &[Value::Int(1)]);
    s.line(t, 7);
    s.call(t, b, &[Value::Int(2)]);
    s.ret(t, Value::Int(4));
    s.ret(t, Value::Int(5));
    s.line(t, 4);
    s.call(t, b, &[Value::Int(3)]);
    s.ret(t, Value::Int(6));
    s.ret(t, Value::Void);
    (s, t, [main, a, b])
}

#[test]
fn builds_the_tree_and_sends_headers_at_start_and_completion() {
    let dir = tempfile::tempdir().unwrap();
    let path = trace_path(&dir);
    let (s, t, [main, a, b]) = small_program();
    let (summary, headers) = record_bytes(&s.end(0), &path);
    assert_eq!(summary.ending, Ending::End { exit_status: 0 });
    assert_eq!((summary.nodes, summary.complete_nodes), (6, 6));
    // root, thread, main, a, b, b: started in this order.
    let started: Vec<_> = headers
        .iter()
        .filter(|h| h.exit.is_none())
        .map(|h| (h.id.0, h.kind, h.method))
        .collect();
    assert_eq!(
        started,
        vec![
            (0, NodeKind::Root, None),
            (1, NodeKind::Thread, None),
            (2, NodeKind::Routine, Some(main)),
            (3, NodeKind::Routine, Some(a)),
            (4, NodeKind::Routine, Some(b)),
            (5, NodeKind::Routine, Some(b)),
        ]
    );
    let completed: Vec<u32> = headers
        .iter()
        .filter(|h| h.exit.is_some())
        .map(|h| h.id.0)
        .collect();
    assert_eq!(completed, vec![4, 3, 5, 2, 1, 0]);

    let r = TraceReader::open(&path).unwrap();
    let parents: Vec<_> = r
        .preorder()
        .map(|n| n.unwrap())
        .map(|n| (n.header.id.0, n.header.parent.map(|p| p.0), n.depth))
        .collect();
    assert_eq!(
        parents,
        vec![
            (0, None, 0),
            (1, Some(0), 0),
            (2, Some(1), 1),
            (3, Some(2), 2),
            (4, Some(3), 3),
            (5, Some(2), 2)
        ]
    );
    let kids: Vec<u32> = r
        .children(NodeId(2), 0, 10)
        .unwrap()
        .iter()
        .map(|n| n.header.id.0)
        .collect();
    assert_eq!(kids, vec![3, 5]);
    assert_eq!(
        r.children(NodeId(2), 1, 10).unwrap()[0].header.id,
        NodeId(5)
    );
    assert_eq!(r.child_count(NodeId(2)).unwrap(), 2);
    let root = r.node(NodeId::ROOT).unwrap().unwrap().header;
    assert_eq!(
        (root.entry, root.exit),
        (1, Some(11)),
        "the root spans the run's events"
    );
    let a_node = r.node(NodeId(3)).unwrap().unwrap();
    assert_eq!(
        (
            a_node.header.entry,
            a_node.header.exit,
            a_node.header.thread
        ),
        (3, Some(7), Some(t))
    );
    let d = r.node_detail(NodeId(3)).unwrap().unwrap();
    assert_eq!(
        d.args,
        vec![crate::trace::store::Argument {
            name: "x".into(),
            value: Value::Int(1)
        }]
    );
    assert_eq!(d.result, Some(NodeResult::Returned(Value::Int(5))));
    assert_eq!(r.node_lines(NodeId(2)).unwrap(), vec![3, 4]);
    assert_eq!(r.node_lines(NodeId(3)).unwrap(), vec![7]);
    let info = r.info().unwrap();
    assert_eq!(
        (
            info.status.as_str(),
            info.exit_status,
            info.events,
            info.nodes,
            info.complete_nodes
        ),
        ("complete", Some(0), 11, 6, 6)
    );
}

#[test]
fn exceptions_unwind_several_frames_and_are_caught() {
    let dir = tempfile::tempdir().unwrap();
    let path = trace_path(&dir);
    let mut s = StreamBuilder::new();
    let c = s.class("demo.E", true);
    let exc_class = s.class("java.lang.IllegalStateException", false);
    let f = s.method(c, "f", "()I", true, &[]);
    let g = s.method(c, "g", "()I", true, &[]);
    let h = s.method(c, "h", "()I", true, &[]);
    let t = s.thread("main");
    s.call(t, f, &[]);
    s.call(t, g, &[]);
    s.call(t, h, &[]);
    let exc = s.new_object(t, exc_class);
    s.event(t, EventKind::Throw(Value::Object(exc)));
    s.unwind(t, Value::Object(exc));
    s.unwind(t, Value::Object(exc));
    s.event(t, EventKind::Catch(Value::Object(exc)));
    s.ret(t, Value::Int(-1));
    let (_, headers) = record_bytes(&s.end(0), &path);
    assert!(headers
        .iter()
        .all(|h| h.kind != NodeKind::Routine
            || headers.iter().any(|x| x.id == h.id && x.exit.is_some())));
    let r = TraceReader::open(&path).unwrap();
    let outcome = |id| r.node(NodeId(id)).unwrap().unwrap().outcome;
    assert_eq!(
        (outcome(2), outcome(3), outcome(4)),
        (
            Some(Outcome::Returned),
            Some(Outcome::Threw),
            Some(Outcome::Threw)
        )
    );
    assert_eq!(
        r.node_detail(NodeId(3)).unwrap().unwrap().result,
        Some(NodeResult::Threw(Value::Object(exc)))
    );
    assert_eq!(
        r.class_name_of(&Value::Object(exc)).unwrap().as_deref(),
        Some("java.lang.IllegalStateException")
    );
    // f's own events: its call, the child g's call and unwind markers, its catch and return.
    let evs = r.node_events(NodeId(2), 0, 100).unwrap();
    let names: Vec<(&str, bool)> = evs.iter().map(|e| (e.event.kind.name(), e.own)).collect();
    assert_eq!(
        names,
        vec![
            ("CALL", true),
            ("CALL", false),
            ("UNWIND", false),
            ("CATCH", true),
            ("RETURN", true)
        ]
    );
}

#[test]
fn interleaved_threads_get_their_own_subtrees() {
    let dir = tempfile::tempdir().unwrap();
    let path = trace_path(&dir);
    let mut s = StreamBuilder::new();
    let c = s.class("demo.T", true);
    let run = s.method(c, "run", "()V", false, &["this"]);
    let work = s.method(c, "work", "(I)V", true, &["n"]);
    let t1 = s.thread("main");
    let t2 = s.thread("worker");
    s.call(t1, run, &[Value::Null]);
    s.call(t2, run, &[Value::Null]);
    s.call(t1, work, &[Value::Int(1)]);
    s.flush(t2); // t2's first frame arrives before t1's
    s.call(t2, work, &[Value::Int(2)]);
    s.ret(t1, Value::Void);
    s.flush(t1);
    s.ret(t2, Value::Void);
    s.ret(t2, Value::Void);
    s.flush(t2);
    s.ret(t1, Value::Void);
    let (_, headers) = record_bytes(&s.end(0), &path);
    let r = TraceReader::open(&path).unwrap();
    let threads: Vec<_> = r.children(NodeId::ROOT, 0, 10).unwrap();
    assert_eq!(threads.len(), 2);
    assert_eq!(
        threads[0].header.thread,
        Some(t2),
        "thread nodes are numbered in arrival order"
    );
    for th in &threads {
        let tid = th.header.thread.unwrap();
        let sub: Vec<_> = r
            .preorder()
            .map(|n| n.unwrap())
            .filter(|n| n.header.thread == Some(tid))
            .collect();
        assert_eq!(sub.len(), 3);
        assert_eq!(sub[1].header.parent, Some(th.header.id));
        assert_eq!(sub[2].header.parent, Some(sub[1].header.id));
        let arg = r.node_detail(sub[2].header.id).unwrap().unwrap().args[0].value;
        assert_eq!(arg, Value::Int(if tid == t1 { 1 } else { 2 }));
    }
    let at = r.event_at(4).unwrap().unwrap();
    assert_eq!((at.thread, at.depth), (t2, 2));
    assert!(headers
        .iter()
        .any(|h| h.kind == NodeKind::Thread && h.exit.is_some()));
}

#[test]
fn callbacks_hang_under_their_external_node() {
    let dir = tempfile::tempdir().unwrap();
    let path = trace_path(&dir);
    let mut s = StreamBuilder::new();
    let c = s.class("demo.Sorter", true);
    let jdk = s.class("java.util.Collections", false);
    let main = s.method(c, "main", "()V", true, &[]);
    let cmp = s.method(c, "compare", "(II)I", false, &["this", "x", "y"]);
    let sort = s.external_method(jdk, "sort", "(Ljava/util/List;Ljava/util/Comparator;)V");
    let t = s.thread("main");
    s.call(t, main, &[]);
    s.event(
        t,
        EventKind::ExtCall {
            method: sort,
            args: vec![Value::Object(ObjectId(1)), Value::Object(ObjectId(2))],
        },
    );
    s.call(
        t,
        cmp,
        &[Value::Object(ObjectId(2)), Value::Int(3), Value::Int(1)],
    );
    s.ret(t, Value::Int(1));
    s.call(
        t,
        cmp,
        &[Value::Object(ObjectId(2)), Value::Int(1), Value::Int(2)],
    );
    s.ret(t, Value::Int(-1));
    s.event(t, EventKind::ExtReturn(Value::Void));
    s.ret(t, Value::Void);
    record_bytes(&s.end(0), &path);
    let r = TraceReader::open(&path).unwrap();
    let ext = r.node(NodeId(3)).unwrap().unwrap();
    assert_eq!(
        (ext.header.kind, ext.header.method, ext.outcome),
        (NodeKind::External, Some(sort), Some(Outcome::Returned))
    );
    let ext_detail = r.node_detail(NodeId(3)).unwrap().unwrap();
    assert_eq!(
        ext_detail.this,
        Some(Value::Object(ObjectId(1))),
        "an instance method's receiver"
    );
    assert_eq!(
        ext_detail
            .args
            .iter()
            .map(|a| a.name.as_str())
            .collect::<Vec<_>>(),
        ["arg0"]
    );
    let kids = r.children(NodeId(3), 0, 10).unwrap();
    assert_eq!(
        kids.iter()
            .map(|k| (k.header.kind, k.header.method))
            .collect::<Vec<_>>(),
        vec![(NodeKind::Routine, Some(cmp)); 2]
    );
    let d = r.node_detail(kids[0].header.id).unwrap().unwrap();
    assert_eq!(d.this, Some(Value::Object(ObjectId(2))));
    assert_eq!(
        d.args
            .iter()
            .map(|a| (a.name.as_str(), a.value))
            .collect::<Vec<_>>(),
        vec![("x", Value::Int(3)), ("y", Value::Int(1))]
    );
    assert_eq!(
        r.local_at(kids[0].header.id, 2, kids[0].header.entry)
            .unwrap(),
        Some(Value::Int(1))
    );
}

#[test]
fn a_killed_stream_leaves_open_nodes_incomplete_and_the_rest_intact() {
    let dir = tempfile::tempdir().unwrap();
    let path = trace_path(&dir);
    let (mut s, t, [_, a, _]) = small_program();
    s.call(t, a, &[Value::Int(9)]);
    s.call(t, a, &[Value::Int(10)]);
    s.line(t, 8);
    let (summary, headers) = record_bytes(&s.killed(), &path);
    assert!(
        matches!(summary.ending, Ending::Truncated { .. }),
        "{summary:?}"
    );
    assert_eq!(
        headers.iter().filter(|h| h.id.0 >= 6).count(),
        2,
        "open nodes are sent once"
    );
    let r = TraceReader::open(&path).unwrap();
    assert_eq!(r.info().unwrap().status, "truncated");
    for id in 2..=5 {
        assert!(r.node(NodeId(id)).unwrap().unwrap().header.is_complete());
    }
    for id in [0, 1, 6, 7] {
        assert!(
            !r.node(NodeId(id)).unwrap().unwrap().header.is_complete(),
            "node {id}"
        );
    }
    assert_eq!(
        r.node(NodeId(7)).unwrap().unwrap().header.parent,
        Some(NodeId(6))
    );
    assert_eq!(r.node_lines(NodeId(7)).unwrap(), vec![8]);
    assert!(r
        .warnings()
        .unwrap()
        .iter()
        .any(|w| w.message.contains("2 call(s) still open")));
}

#[test]
fn a_frame_cut_in_the_middle_keeps_what_came_before() {
    let dir = tempfile::tempdir().unwrap();
    let path = trace_path(&dir);
    let (mut s, t, [_, a, _]) = small_program();
    s.flush_all();
    s.call(t, a, &[Value::Int(9)]);
    s.ret(t, Value::Int(0));
    let bytes = s.killed();
    let (summary, _) = record_bytes(&bytes[..bytes.len() - 3], &path);
    assert!(
        matches!(&summary.ending, Ending::Truncated { detail } if detail.contains("cut")),
        "{summary:?}"
    );
    let r = TraceReader::open(&path).unwrap();
    assert!(r.node(NodeId(5)).unwrap().unwrap().header.is_complete());
    assert!(r.node(NodeId(6)).unwrap().is_none());
}

#[test]
fn malformed_input_stops_with_a_warning_and_keeps_the_trace() {
    let dir = tempfile::tempdir().unwrap();
    let path = trace_path(&dir);
    let (s, _, _) = small_program();
    let mut bytes = s.killed();
    bytes.extend_from_slice(&[3, 0, 0, 0, 0x06, 0xff, 0xff]);
    let (summary, _) = record_bytes(&bytes, &path);
    assert!(
        matches!(&summary.ending, Ending::Malformed { detail } if detail.contains("malformed EVENTS frame")),
        "{summary:?}"
    );
    let r = TraceReader::open(&path).unwrap();
    assert_eq!(r.info().unwrap().status, "malformed");
    assert_eq!(r.node(NodeId(2)).unwrap().unwrap().header.exit, Some(11));
}

#[test]
fn a_wrong_version_creates_no_trace() {
    let dir = tempfile::tempdir().unwrap();
    let path = trace_path(&dir);
    let err = record(
        &b"HSWIRE\x07\x00"[..],
        &path,
        NullSink,
        WriterConfig::default(),
    )
    .unwrap_err();
    assert!(
        matches!(
            err,
            RecordError::Wire(WireError::UnsupportedVersion { found: 7, .. })
        ),
        "{err}"
    );
    assert!(!path.exists());
}

#[test]
fn a_stack_mismatch_is_a_stored_warning() {
    let dir = tempfile::tempdir().unwrap();
    let path = trace_path(&dir);
    let mut s = StreamBuilder::new();
    let c = s.class("demo.M", true);
    let m = s.method(c, "m", "()V", true, &[]);
    let t = s.thread("main");
    s.ret(t, Value::Void);
    s.call(t, m, &[]);
    s.event(t, EventKind::ExtReturn(Value::Void));
    s.local(t, 0, Value::Int(1));
    let (summary, _) = record_bytes(&s.end(0), &path);
    assert_eq!(summary.complete_nodes, 3);
    let r = TraceReader::open(&path).unwrap();
    let w: Vec<String> = r
        .warnings()
        .unwrap()
        .into_iter()
        .map(|w| w.message)
        .collect();
    assert!(
        w[0].contains("RETURN at timestamp 1") && w[0].contains("no call open"),
        "{w:?}"
    );
    assert!(
        w[1].contains("EXT_RETURN at timestamp 3") && w[1].contains("closed anyway"),
        "{w:?}"
    );
    assert!(w[2].contains("LOCAL at timestamp 4"), "{w:?}");
    // The reader replays the same stack: m's events are its call and the mismatched exit.
    let evs = r.node_events(NodeId(2), 0, 10).unwrap();
    assert_eq!(
        evs.iter().map(|e| e.event.ts).collect::<Vec<_>>(),
        vec![2, 3]
    );
}

#[test]
fn headers_stream_to_a_channel_while_recording() {
    let dir = tempfile::tempdir().unwrap();
    let path = trace_path(&dir);
    let (tx, rx) = std::sync::mpsc::channel();
    let (s, _, _) = small_program();
    let bytes = s.end(3);
    let handle =
        std::thread::spawn(move || record(&bytes[..], &path, tx, WriterConfig::default()).unwrap());
    let received: Vec<NodeHeader> = rx.iter().collect();
    let summary = handle.join().unwrap();
    assert_eq!(summary.ending, Ending::End { exit_status: 3 });
    assert_eq!(received.len(), 12);
}

#[test]
fn threaded_recording_gives_the_same_trace() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.htrace"), dir.path().join("b.htrace"));
    let (s, _, _) = small_program();
    let bytes = s.killed();
    let one = record(&bytes[..], &a, NullSink, WriterConfig::default()).unwrap();
    let two = record_threaded(
        std::io::Cursor::new(bytes),
        &b,
        NullSink,
        WriterConfig::default(),
    )
    .unwrap();
    assert_eq!(one, two);
    let rows = |p: &Path| {
        TraceReader::open(p)
            .unwrap()
            .preorder()
            .map(|n| n.unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(rows(&a), rows(&b));
    assert_eq!(rows(&a).len(), 6);
}

/// Hands out its bytes a few at a time, then fails like a reset connection.
struct Trickle {
    bytes: Vec<u8>,
    pos: usize,
    fail_at_end: bool,
}

impl std::io::Read for Trickle {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.pos == self.bytes.len() {
            if self.fail_at_end {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::ConnectionReset,
                    "connection reset by peer",
                ));
            }
            return Ok(0);
        }
        let n = buf.len().min(3).min(self.bytes.len() - self.pos);
        buf[..n].copy_from_slice(&self.bytes[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

#[test]
fn short_reads_and_a_reset_connection() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.htrace"), dir.path().join("b.htrace"));
    let (s, _, _) = small_program();
    let bytes = s.end(0);
    let whole = record(
        Trickle {
            bytes: bytes.clone(),
            pos: 0,
            fail_at_end: false,
        },
        &a,
        NullSink,
        WriterConfig::default(),
    )
    .unwrap();
    assert_eq!(whole.ending, Ending::End { exit_status: 0 });
    assert_eq!(whole.complete_nodes, 6);
    // Without END and with a reset at the end: truncated, nothing lost.
    let cut = bytes[..bytes.len() - 6].to_vec();
    let reset = record(
        Trickle {
            bytes: cut,
            pos: 0,
            fail_at_end: true,
        },
        &b,
        NullSink,
        WriterConfig::default(),
    )
    .unwrap();
    assert!(
        matches!(&reset.ending, Ending::Truncated { detail } if detail.contains("reset")),
        "{reset:?}"
    );
    assert_eq!(reset.complete_nodes, 4);
}

#[test]
fn many_nodes_are_stored_in_batches_without_loss() {
    let dir = tempfile::tempdir().unwrap();
    let path = trace_path(&dir);
    let mut s = StreamBuilder::new();
    let c = s.class("demo.Many", true);
    let main = s.method(c, "main", "()V", true, &[]);
    let f = s.method(c, "f", "(I)I", true, &["i"]);
    let t = s.thread("main");
    s.call(t, main, &[]);
    let mut created = Vec::new();
    for i in 0..1000 {
        s.call(t, f, &[Value::Int(i)]);
        if i % 3 == 0 {
            s.call(t, f, &[Value::Int(-i)]);
            s.ret(t, Value::Int(i));
        }
        let o = s.new_object(t, c);
        assert_eq!(o, ObjectId(i as u64 + 1));
        created.push(s.ts());
        s.ret(t, Value::Int(2 * i));
    }
    s.ret(t, Value::Void);
    let (summary, _) = record_bytes(&s.end(0), &path);
    assert_eq!((summary.nodes, summary.complete_nodes), (1337, 1337));
    let r = TraceReader::open(&path).unwrap();
    let rows: Vec<_> = r.preorder().map(|n| n.unwrap()).collect();
    assert_eq!(rows.len(), 1337);
    assert!(rows
        .iter()
        .enumerate()
        .all(|(i, n)| n.header.id.0 as usize == i && n.header.is_complete()));
    assert_eq!(r.child_count(NodeId(2)).unwrap(), 1000);
    for k in [0usize, 127, 128, 500, 999] {
        let o = r.object(ObjectId(k as u64 + 1)).unwrap().unwrap();
        assert_eq!((o.created_ts, o.class.0), (created[k], 1));
    }
    let some = r.nodes(&[NodeId(5), NodeId(1), NodeId(5000)]).unwrap();
    assert_eq!(
        some.iter()
            .map(|n| n.as_ref().map(|n| n.header.id.0))
            .collect::<Vec<_>>(),
        [Some(5), Some(1), None]
    );
    let last = r.children(NodeId(2), 999, 1).unwrap().remove(0);
    assert_eq!(
        r.node_detail(last.header.id).unwrap().unwrap().result,
        Some(NodeResult::Returned(Value::Int(1998)))
    );
}

#[test]
fn huge_ids_from_the_stream_index_nothing() {
    use crate::trace::wire::{ClassDef, Encoder, Hello, MethodDef};
    let dir = tempfile::tempdir().unwrap();
    let path = trace_path(&dir);
    let big = u32::MAX - 1;
    let mut enc = Encoder::new(Vec::new()).unwrap();
    let hello = Hello {
        pid: 1,
        start_ms: 0,
        vm: String::new(),
        command: String::new(),
        agent_version: String::new(),
    };
    enc.hello(&hello).unwrap();
    enc.class(&ClassDef {
        id: crate::ids::ClassId(big),
        name: "X".into(),
        source_file: String::new(),
        flags: 1,
    })
    .unwrap();
    let m = MethodDef {
        id: MethodId(big),
        class: crate::ids::ClassId(big),
        name: "m".into(),
        descriptor: "()V".into(),
        access: 8,
        flags: 1,
        hash: [0; 16],
        first_line: 0,
        last_line: 0,
        blocks: vec![],
        vars: vec![],
    };
    enc.method(&m).unwrap();
    let t = ThreadId(big);
    let ev = |ts, kind| Event { ts, kind };
    enc.events(
        t,
        &[
            ev(
                1,
                EventKind::Call {
                    method: MethodId(big),
                    args: vec![],
                },
            ),
            ev(2, EventKind::Return(Value::Void)),
        ],
    )
    .unwrap();
    enc.end(0).unwrap();
    let (summary, _) = record_bytes(&enc.into_inner(), &path);
    assert_eq!(summary.complete_nodes, 3);
    let r = TraceReader::open(&path).unwrap();
    assert_eq!(r.node(NodeId(2)).unwrap().unwrap().header.thread, Some(t));
}

#[test]
fn deep_recursion_across_many_blocks() {
    let dir = tempfile::tempdir().unwrap();
    let path = trace_path(&dir);
    let mut s = StreamBuilder::new();
    let c = s.class("demo.Rec", true);
    let f = s.method(c, "f", "(I)I", true, &["n"]);
    let t = s.thread("main");
    let depth = 2000;
    for n in 0..depth {
        s.call(t, f, &[Value::Int(n)]);
        s.line(t, 10 + (n as u32 % 5));
    }
    for n in (0..depth).rev() {
        s.line(t, 20);
        s.ret(t, Value::Int(n));
    }
    let config = WriterConfig {
        block_bytes: 256,
        commit_events: 500,
        ..WriterConfig::default()
    };
    record(&s.end(0)[..], &path, NullSink, config).unwrap();
    let r = TraceReader::open(&path).unwrap();
    let deepest = r.node(NodeId(2 + depth as u32 - 1)).unwrap().unwrap();
    assert_eq!(deepest.depth, depth as u32);
    let mid = NodeId(2 + 1000);
    assert_eq!(r.node_lines(mid).unwrap(), vec![10, 20]);
    let evs = r.node_events(mid, 0, 100).unwrap();
    let kinds: Vec<(&str, bool, u32)> = evs
        .iter()
        .map(|e| (e.event.kind.name(), e.own, e.line))
        .collect();
    assert_eq!(
        kinds,
        vec![
            ("CALL", true, 0),
            ("LINE", true, 10),
            ("CALL", false, 10),
            ("RETURN", false, 10),
            ("LINE", true, 20),
            ("RETURN", true, 20)
        ]
    );
    let blocks: i64 = rusqlite::Connection::open(&path)
        .unwrap()
        .query_row("SELECT count(*) FROM blocks", [], |r| r.get(0))
        .unwrap();
    assert!(blocks > 50, "{blocks} blocks");
}

#[test]
fn a_class_defined_again_keeps_its_last_definition() {
    // The agent names a class (a field's type) before it instruments it; when the first
    // definition was already written, it sends the final one later.
    let dir = tempfile::tempdir().unwrap();
    let path = trace_path(&dir);
    let (mut s, t, _) = small_program();
    let node = s.class("demo.Main$Node", false);
    s.flush(t);
    s.redefine_class(node, "demo.Main$Node", true);
    s.new_object(t, node);
    record_bytes(&s.end(0), &path);
    let r = TraceReader::open(&path).unwrap();
    let class = r.class(node).unwrap().unwrap();
    assert!(class.is_instrumented(), "{class:?}");
    assert_eq!(class.source_file, "Main$Node.java");
}

/// The chain rule on the chess example: `t.right()` three times (links), then `k.left()` twice
/// (another receiver: no link to the tower's moves, but a link between the two), a write of the
/// parent between two calls on the same receiver (no link), local writes (links kept), a
/// constructor (no context) and static calls of one class (links).
#[test]
fn chained_marks_calls_that_start_in_the_state_their_previous_sibling_left() {
    let dir = tempfile::tempdir().unwrap();
    let path = trace_path(&dir);
    let mut s = StreamBuilder::new();
    let chess = s.class("Chess", true);
    let pos = s.class("Position", true);
    let x = s.field(pos, "x", "I", false);
    let castling = s.method(
        chess,
        "castling",
        "(LPosition;LPosition;)V",
        false,
        &["this", "t", "k"],
    );
    let right = s.method(pos, "right", "()V", false, &["this"]);
    let left = s.method(pos, "left", "()V", false, &["this"]);
    let init = s.method(pos, "<init>", "()V", false, &["this"]);
    let util = s.method(chess, "log", "(I)V", true, &["i"]);
    let th = s.thread("main");
    let p = s.new_object(th, chess);
    let t = s.new_object(th, pos);
    let k = s.new_object(th, pos);
    s.call(
        th,
        castling,
        &[Value::Object(p), Value::Object(t), Value::Object(k)],
    );
    for i in 0..3 {
        s.local(th, 3, Value::Int(i));
        s.call(th, right, &[Value::Object(t)]);
        s.field_write(th, t, x, Value::Int(9 + i));
        s.ret(th, Value::Void);
    }
    for _ in 0..2 {
        s.call(th, left, &[Value::Object(k)]);
        s.ret(th, Value::Void);
    }
    s.field_write(th, k, x, Value::Int(0));
    s.call(th, left, &[Value::Object(k)]);
    s.ret(th, Value::Void);
    s.call(th, init, &[]);
    s.ret(th, Value::Void);
    s.call(th, init, &[]);
    s.ret(th, Value::Void);
    s.call(th, util, &[Value::Int(1)]);
    s.ret(th, Value::Void);
    s.call(th, util, &[Value::Int(2)]);
    s.ret(th, Value::Void);
    s.ret(th, Value::Void);
    let (_, headers) = record_bytes(&s.end(0), &path);
    let started: Vec<(Option<MethodId>, bool)> = headers
        .iter()
        .filter(|h| h.exit.is_none() && h.kind == NodeKind::Routine)
        .map(|h| (h.method, h.chained))
        .collect();
    assert_eq!(
        started,
        vec![
            (Some(castling), false),
            (Some(right), false),
            (Some(right), true),
            (Some(right), true),
            (Some(left), false),
            (Some(left), true),
            (Some(left), false),
            (Some(init), false),
            (Some(init), false),
            (Some(util), false),
            (Some(util), true),
        ]
    );
    // Completions carry the flag too, and the trace keeps it.
    assert!(
        headers
            .iter()
            .filter(|h| h.exit.is_some())
            .filter(|h| h.chained)
            .count()
            == 4
    );
    let r = TraceReader::open(&path).unwrap();
    let stored: Vec<bool> = headers
        .iter()
        .filter(|h| h.exit.is_none() && h.kind == NodeKind::Routine)
        .map(|h| r.node(h.id).unwrap().unwrap().header.chained)
        .collect();
    assert_eq!(stored, started.iter().map(|s| s.1).collect::<Vec<_>>());
}

/// Wants a commit after every frame and notes how far the stream is committed each time.
struct Committing(std::sync::Arc<std::sync::Mutex<Vec<u64>>>);

impl NodeSink for Committing {
    fn node(&mut self, _: &NodeHeader) {}

    fn commit_wanted(&mut self) -> bool {
        true
    }

    fn committed(&mut self, stream_bytes: u64) {
        self.0.lock().unwrap().push(stream_bytes);
    }
}

#[test]
fn a_commit_asked_for_says_how_far_the_stream_is_committed() {
    let dir = tempfile::tempdir().unwrap();
    let (mut s, t, [_, a, _]) = small_program();
    s.flush_all();
    s.call(t, a, &[Value::Int(9)]);
    s.ret(t, Value::Int(10));
    let bytes = s.end(0);
    let frame_ends = crate::trace::wire::frame_ends(&bytes);
    for threaded in [false, true] {
        let path = dir.path().join(format!("{threaded}.htrace"));
        let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let sink = Committing(std::sync::Arc::clone(&seen));
        let config = WriterConfig::default();
        if threaded {
            record_threaded(std::io::Cursor::new(bytes.clone()), &path, sink, config).unwrap();
        } else {
            record(&bytes[..], &path, sink, config).unwrap();
        }
        let seen = seen.lock().unwrap().clone();
        // After every frame, the END frame included; idle moments may add repeats (and 0s
        // before the first frame is decoded).
        let mut distinct: Vec<u64> = seen.into_iter().filter(|&b| b > 0).collect();
        distinct.dedup();
        assert_eq!(distinct, frame_ends, "threaded: {threaded}");
    }
}
