//! JDK content (element writes of collections), blocks and reads through the recorder, and the
//! coverage entities they give (wire format 2).

use std::collections::BTreeSet;

use super::*;
use crate::coverage::{Entity, ENTRY};
use crate::ids::{NodeId, ObjectId};
use crate::omniscient::{canonical_state, render_value, RenderLimits};
use crate::trace::store::{TraceReader, Variable, LENGTH_SLOT};
use crate::trace::synthetic::{block_def, StreamBuilder};
use crate::trace::wire::ContentKind;
use crate::tree::CoverageKind;

fn record_stream(bytes: &[u8]) -> (tempfile::TempDir, TraceReader) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.htrace");
    record(bytes, &path, NullSink, WriterConfig::default()).expect("recording succeeds");
    let reader = TraceReader::open(&path).unwrap();
    (dir, reader)
}

struct Contents {
    list: ObjectId,
    map: ObjectId,
    text: ObjectId,
    /// Timestamps: before any content, list [] [3] [3,1,2] [3,2] (removed 1) [2,3] (sorted),
    /// map {a=1,b=2} {a=1,b=5}, text "ab" "abc".
    ts: Vec<u64>,
}

fn content_program() -> (Vec<u8>, Contents) {
    let mut s = StreamBuilder::new();
    let c = s.class("demo.Main", true);
    let list_class = s.class("java.util.ArrayList", false);
    let map_class = s.class("java.util.HashMap", false);
    let sb_class = s.class("java.lang.StringBuilder", false);
    let main = s.method(c, "main", "([Ljava/lang/String;)V", true, &["args"]);
    let add = s.external_method(list_class, "add", "(Ljava/lang/Object;)Z");
    let t = s.thread("main");
    let a = s.string(t, "a");
    let b = s.string(t, "b");
    let ab = s.string(t, "ab");
    let abc = s.string(t, "abc");
    s.call(t, main, &[Value::Null]);
    let list = s.new_object(t, list_class);
    let mut ts = vec![s.ts()];
    let seq = |v: &[i32]| v.iter().map(|&i| Value::Int(i)).collect::<Vec<_>>();
    ts.push(s.content(t, list, ContentKind::Sequence, vec![]));
    s.event(
        t,
        EventKind::ExtCall {
            method: add,
            args: vec![Value::Object(list), Value::Int(3)],
        },
    );
    s.event(t, EventKind::ExtReturn(Value::Boolean(true)));
    ts.push(s.content(t, list, ContentKind::Sequence, seq(&[3])));
    ts.push(s.content(t, list, ContentKind::Sequence, seq(&[3, 1, 2])));
    ts.push(s.content(t, list, ContentKind::Sequence, seq(&[3, 2])));
    ts.push(s.content(t, list, ContentKind::Sequence, seq(&[2, 3])));
    let map = s.first_seen_object(t, map_class);
    let kv = |v: i32| vec![Value::Str(a), Value::Int(1), Value::Str(b), Value::Int(v)];
    ts.push(s.content(t, map, ContentKind::Map, kv(2)));
    ts.push(s.content(t, map, ContentKind::Map, kv(5)));
    let text = s.new_object(t, sb_class);
    ts.push(s.content(t, text, ContentKind::Text, vec![Value::Str(ab)]));
    ts.push(s.content(t, text, ContentKind::Text, vec![Value::Str(abc)]));
    s.ret(t, Value::Void);
    (
        s.end(0),
        Contents {
            list,
            map,
            text,
            ts,
        },
    )
}

fn ints(v: Vec<Option<Value>>) -> Vec<i32> {
    v.into_iter()
        .map(|v| match v {
            Some(Value::Int(i)) => i,
            other => panic!("not an int: {other:?}"),
        })
        .collect()
}

#[test]
fn a_sequence_tail_rewrites_only_the_slots_from_its_start() {
    let mut s = StreamBuilder::new();
    let c = s.class("demo.Main", true);
    let list_class = s.class("java.util.ArrayList", false);
    let main = s.method(c, "main", "([Ljava/lang/String;)V", true, &["args"]);
    let t = s.thread("main");
    s.call(t, main, &[Value::Null]);
    let list = s.new_object(t, list_class);
    let seq = |v: &[i32]| v.iter().map(|&i| Value::Int(i)).collect::<Vec<_>>();
    let full = s.content(t, list, ContentKind::Sequence, seq(&[3, 4]));
    let appended = s.content_tail(t, list, 2, seq(&[5]));
    let inserted = s.content_tail(t, list, 1, seq(&[9, 4, 5]));
    s.ret(t, Value::Void);
    let (_dir, r) = record_stream(&s.end(0));
    let at = |t| ints(r.array_at(list, t, 0, 100).unwrap());
    assert_eq!(at(full), vec![3, 4]);
    assert_eq!(at(appended), vec![3, 4, 5]);
    assert_eq!(at(inserted), vec![3, 9, 4, 5]);
    let writes = |index| -> Vec<(u64, Value)> {
        r.history(Variable::Element { array: list, index })
            .unwrap()
            .into_iter()
            .map(|w| (w.ts, w.value))
            .collect()
    };
    assert_eq!(
        writes(0),
        vec![(full, Value::Int(3))],
        "slot 0 is before both tails"
    );
    assert_eq!(
        writes(2),
        vec![(appended, Value::Int(5)), (inserted, Value::Int(4))]
    );
    assert_eq!(
        writes(LENGTH_SLOT),
        vec![
            (full, Value::Int(2)),
            (appended, Value::Int(3)),
            (inserted, Value::Int(4))
        ]
    );
}

#[test]
fn a_list_grows_shrinks_and_is_sorted_as_element_writes() {
    let (bytes, c) = content_program();
    let (_dir, r) = record_stream(&bytes);
    let info = r.object(c.list).unwrap().unwrap();
    assert_eq!(info.content, Some(ContentKind::Sequence));
    let ts = &c.ts;
    assert_eq!(r.content_length_at(c.list, ts[0]).unwrap(), None);
    let at = |t| ints(r.array_at(c.list, t, 0, 100).unwrap());
    assert_eq!(at(ts[1]), Vec::<i32>::new());
    assert_eq!(at(ts[2]), vec![3]);
    assert_eq!(at(ts[3]), vec![3, 1, 2]);
    assert_eq!(at(ts[4]), vec![3, 2]);
    assert_eq!(at(ts[5]), vec![2, 3]);
    // The removed slot is past the length: out of bounds, not its old value.
    assert_eq!(r.element_at(c.list, 2, ts[4]).unwrap(), None);
    assert_eq!(r.element_at(c.list, 2, ts[3]).unwrap(), Some(Value::Int(2)));
    // Only changed slots are written: slot 0 did not change when 1 was removed.
    let h0: Vec<(u64, Value)> = r
        .history(Variable::Element {
            array: c.list,
            index: 0,
        })
        .unwrap()
        .into_iter()
        .map(|w| (w.ts, w.value))
        .collect();
    assert_eq!(h0, vec![(ts[2], Value::Int(3)), (ts[5], Value::Int(2))]);
    let len: Vec<(u64, Value)> = r
        .history(Variable::Element {
            array: c.list,
            index: LENGTH_SLOT,
        })
        .unwrap()
        .into_iter()
        .map(|w| (w.ts, w.value))
        .collect();
    assert_eq!(
        len,
        vec![
            (ts[1], Value::Int(0)),
            (ts[2], Value::Int(1)),
            (ts[3], Value::Int(3)),
            (ts[4], Value::Int(2)),
        ]
    );
}

#[test]
fn content_renders_as_java_shows_it_and_is_unknown_before_it_is_sent() {
    let (bytes, c) = content_program();
    let (_dir, r) = record_stream(&bytes);
    let show =
        |o: ObjectId, t| render_value(&r, &Value::Object(o), t, RenderLimits::default()).unwrap();
    let ts = &c.ts;
    assert_eq!(show(c.list, ts[0]), format!("ArrayList#{}", c.list));
    assert_eq!(show(c.list, ts[1]), "[]");
    assert_eq!(show(c.list, ts[3]), "[3, 1, 2]");
    assert_eq!(show(c.list, ts[5]), "[2, 3]");
    assert_eq!(show(c.map, ts[6]), "{\"a\"=1, \"b\"=2}");
    assert_eq!(show(c.map, ts[7]), "{\"a\"=1, \"b\"=5}");
    assert_eq!(show(c.text, ts[8]), "\"ab\"");
    assert_eq!(show(c.text, ts[9]), "\"abc\"");
    let cut = RenderLimits {
        elements: 1,
        ..RenderLimits::default()
    };
    let short = render_value(&r, &Value::Object(c.list), ts[3], cut).unwrap();
    assert!(
        short.starts_with("[3, ") && short.ends_with(']') && !short.contains('1'),
        "{short}"
    );
}

#[test]
fn content_takes_part_in_canonical_states() {
    let (bytes, c) = content_program();
    let (_dir, r) = record_stream(&bytes);
    let state = |o: ObjectId, t| canonical_state(&r, &[Value::Object(o)], t, 100).unwrap();
    let ts = &c.ts;
    // Before its first content the list proves nothing.
    assert!(!state(c.list, ts[0]).complete);
    let a = state(c.list, ts[3]);
    assert!(a.complete, "{}", a.text);
    assert_ne!(a, state(c.list, ts[4]));
    assert_eq!(state(c.list, ts[2]), state(c.list, ts[2]));
    assert_ne!(state(c.map, ts[6]), state(c.map, ts[7]));
    assert!(state(c.text, ts[9]).text.contains("\"abc\""));
}

/// Enum constants: the agent names each by a text content (the program's enums after their
/// construction, the JDK's when first seen). They read as `Enum.NAME`, a constant with a body
/// (an anonymous subclass) by its enum's name, and two constants never compare equal, although
/// neither has a field the trace knows.
#[test]
fn enum_constants_read_and_compare_by_name() {
    let mut s = StreamBuilder::new();
    let c = s.class("demo.Main", true);
    let kind = s.class_with_flags("demo.Main$Kind", 1 | 4);
    let body = s.class_with_flags("demo.Main$Kind$1", 1 | 4);
    let jdk = s.class_with_flags("java.math.RoundingMode", 4);
    let main = s.method(c, "main", "([Ljava/lang/String;)V", true, &["args"]);
    let t = s.thread("main");
    let names = ["SHORT", "LONG", "HALF_UP", "MEDIUM"].map(|n| s.string(t, n));
    s.call(t, main, &[Value::Null]);
    let short = s.new_object(t, kind);
    s.content(t, short, ContentKind::Text, vec![Value::Str(names[0])]);
    let medium = s.new_object(t, kind);
    s.content(t, medium, ContentKind::Text, vec![Value::Str(names[3])]);
    let long = s.new_object(t, body);
    s.content(t, long, ContentKind::Text, vec![Value::Str(names[1])]);
    let half_up = s.first_seen_object(t, jdk);
    let at = s.content(t, half_up, ContentKind::Text, vec![Value::Str(names[2])]);
    s.ret(t, Value::Void);
    let (_dir, r) = record_stream(&s.end(0));
    let shown = |o: ObjectId| render_value(&r, &Value::Object(o), at, RenderLimits::default());
    assert_eq!(shown(short).unwrap(), "Main.Kind.SHORT");
    assert_eq!(shown(long).unwrap(), "Main.Kind.LONG");
    assert_eq!(shown(half_up).unwrap(), "RoundingMode.HALF_UP");
    let state = |o: ObjectId| canonical_state(&r, &[Value::Object(o)], at, 100).unwrap();
    assert!(state(short).complete && state(half_up).complete);
    assert_ne!(state(short), state(medium));
    assert!(
        state(short).text.contains("\"SHORT\""),
        "{}",
        state(short).text
    );
}

/// A hash map iterates in its keys' hash order, which for enum constants (hashed by identity)
/// differs between runs: two maps with the same entries in another order are the same state,
/// unless the map keeps an order of its own (a `LinkedHashMap`).
#[test]
fn hash_maps_compare_whatever_their_iteration_order() {
    let mut s = StreamBuilder::new();
    let c = s.class("demo.Main", true);
    let kind = s.class_with_flags("demo.Main$Kind", 1 | 4);
    let hash = s.class("java.util.HashMap", false);
    let linked = s.class("java.util.LinkedHashMap", false);
    let main = s.method(c, "main", "([Ljava/lang/String;)V", true, &["args"]);
    let t = s.thread("main");
    let names = ["A", "B"].map(|n| s.string(t, n));
    s.call(t, main, &[Value::Null]);
    let [a, b] = names.map(|n| {
        let o = s.new_object(t, kind);
        s.content(t, o, ContentKind::Text, vec![Value::Str(n)]);
        Value::Object(o)
    });
    let (one, two) = (Value::Int(1), Value::Int(2));
    let mut map = |class, entries: Vec<Value>| {
        let o = s.new_object(t, class);
        s.content(t, o, ContentKind::Map, entries);
        o
    };
    let hash_ab = map(hash, vec![a, one, b, two]);
    let hash_ba = map(hash, vec![b, two, a, one]);
    let hash_other = map(hash, vec![b, one, a, two]);
    let linked_ab = map(linked, vec![a, one, b, two]);
    let linked_ba = map(linked, vec![b, two, a, one]);
    let at = s.ts();
    s.ret(t, Value::Void);
    let (_dir, r) = record_stream(&s.end(0));
    let state = |o: ObjectId| canonical_state(&r, &[Value::Object(o)], at, 100).unwrap();
    assert_eq!(state(hash_ab), state(hash_ba));
    assert!(state(hash_ab).complete);
    assert_ne!(state(hash_ab), state(hash_other));
    assert_ne!(state(linked_ab), state(linked_ba));
}

/// Classes, fields, methods and constructors are named too (reflection:
/// `EnumUtils.getEnumList(Kind.class)`, a reflective `toString`).
#[test]
fn reflective_objects_read_by_name() {
    let mut s = StreamBuilder::new();
    let c = s.class("demo.Main", true);
    let class = s.class("java.lang.Class", false);
    let field = s.class("java.lang.reflect.Field", false);
    let method = s.class("java.lang.reflect.Method", false);
    let constructor = s.class("java.lang.reflect.Constructor", false);
    let main = s.method(c, "main", "([Ljava/lang/String;)V", true, &["args"]);
    let t = s.thread("main");
    let named = [
        (class, "demo.Main$Point"),
        (field, "demo.Main$Point.x"),
        (class, "int[]"),
        (method, "demo.Main$Point.move(int,java.lang.String)"),
        (constructor, "demo.Main$Point.<init>()"),
    ]
    .map(|(k, n)| (k, s.string(t, n)));
    s.call(t, main, &[Value::Null]);
    let objects = named.map(|(k, n)| {
        let o = s.first_seen_object(t, k);
        s.content(t, o, ContentKind::Text, vec![Value::Str(n)]);
        o
    });
    let at = s.ts();
    s.ret(t, Value::Void);
    let (_dir, r) = record_stream(&s.end(0));
    let shown =
        objects.map(|o| render_value(&r, &Value::Object(o), at, RenderLimits::default()).unwrap());
    assert_eq!(
        shown,
        [
            "Main.Point.class",
            "Main.Point.x",
            "int[].class",
            "Main.Point.move(int,String)",
            "Main.Point.<init>()"
        ]
    );
}

/// `static int count(int n)`: blocks i = 0 | i < n | i++ | return i (lines 10..13); main calls
/// it with 2 and 0.
pub(crate) fn loop_program() -> (Vec<u8>, [NodeId; 3]) {
    loop_program_ending(true)
}

/// `loop_program`, without the end of the recording when `end` is false (as a JVM still running).
pub(crate) fn loop_program_ending(end: bool) -> (Vec<u8>, [NodeId; 3]) {
    let mut s = StreamBuilder::new();
    let c = s.class("demo.Main", true);
    let main = s.method(c, "main", "([Ljava/lang/String;)V", true, &["args"]);
    let count = s.method_with_blocks(
        c,
        "count",
        "(I)I",
        true,
        &["n", "i"],
        vec![
            block_def(0, 10, &[(0, 1)]),
            block_def(2, 11, &[(1, 1), (1, 0)]),
            block_def(6, 12, &[(1, 1), (0, 1)]),
            block_def(9, 13, &[(1, 1)]),
        ],
    );
    let t = s.thread("main");
    s.call(t, main, &[Value::Null]);
    s.line(t, 3);
    for n in [2, 0] {
        s.call(t, count, &[Value::Int(n)]);
        s.block(t, 0);
        s.local(t, 1, Value::Int(0));
        for i in 0..n {
            s.block(t, 1);
            s.block(t, 2);
            s.local(t, 1, Value::Int(i + 1));
        }
        s.block(t, 1);
        s.block(t, 3);
        s.ret(t, Value::Int(n));
    }
    s.ret(t, Value::Void);
    // root 0, thread 1, main 2, count 3 and 4.
    let bytes = if end { s.end(0) } else { s.killed() };
    (bytes, [NodeId(2), NodeId(3), NodeId(4)])
}

fn edges_of(r: &TraceReader, node: NodeId) -> BTreeSet<(u32, u32)> {
    r.coverage(node, CoverageKind::Edge)
        .unwrap()
        .into_iter()
        .map(|id| match r.entity(id).unwrap() {
            Some(Entity::Edge { from, to, .. }) => (from, to),
            other => panic!("not an edge: {other:?}"),
        })
        .collect()
}

#[test]
fn recorded_calls_get_their_own_edges_and_chains() {
    let (bytes, [main, twice, never]) = loop_program();
    let (_dir, r) = record_stream(&bytes);
    assert_eq!(
        edges_of(&r, twice),
        [(ENTRY, 0), (0, 1), (1, 2), (2, 1), (1, 3)].into()
    );
    assert_eq!(edges_of(&r, never), [(ENTRY, 0), (0, 1), (1, 3)].into());
    // main has no block table: no coverage of its own.
    assert!(edges_of(&r, main).is_empty());
    // The same edge has one id in both calls.
    let a: BTreeSet<u32> = r
        .coverage(twice, CoverageKind::Edge)
        .unwrap()
        .into_iter()
        .collect();
    let b: BTreeSet<u32> = r
        .coverage(never, CoverageKind::Edge)
        .unwrap()
        .into_iter()
        .collect();
    assert_eq!(a.intersection(&b).count(), 3);
    // i: defined at 0 and 4, used at 1, 3 (from both) and 5 (from 4); n: at entry, used at 2.
    let chains = r.coverage(twice, CoverageKind::DefUse).unwrap();
    assert_eq!(chains.len(), 6);
    assert_eq!(r.coverage(never, CoverageKind::DefUse).unwrap().len(), 3);
    let all = r.all_coverage(CoverageKind::DefUse).unwrap();
    assert_eq!(
        all.iter().map(|(n, _)| *n).collect::<Vec<_>>(),
        vec![twice, never]
    );
}

#[test]
fn blocks_give_lines_and_stay_out_of_the_default_event_list() {
    let (bytes, [main, twice, _]) = loop_program();
    let (_dir, r) = record_stream(&bytes);
    assert_eq!(r.node_lines(twice).unwrap(), vec![10, 11, 12, 13]);
    assert_eq!(r.node_lines(main).unwrap(), vec![3]);
    let shown = r.node_events(twice, 0, 100).unwrap();
    assert!(shown
        .iter()
        .all(|e| !matches!(e.event.kind, EventKind::Block { .. })));
    let all = r.node_events_all(twice, 0, 100).unwrap();
    assert_eq!(all.len(), 5 + 7);
    // A block that starts a line is shown as that LINE (wire format 2 sends no LINE for it).
    let block_lines: Vec<(u64, u32)> = all
        .iter()
        .filter_map(|e| match e.event.kind {
            EventKind::Block { line, .. } if line != 0 => Some((e.event.ts, line)),
            _ => None,
        })
        .collect();
    let shown_lines: Vec<(u64, u32)> = shown
        .iter()
        .filter_map(|e| match e.event.kind {
            EventKind::Line(l) => Some((e.event.ts, l)),
            _ => None,
        })
        .collect();
    assert!(!block_lines.is_empty());
    assert_eq!(shown_lines, block_lines);
    // call, three LOCALs, return, and the lines.
    assert_eq!(shown.len(), 5 + block_lines.len());
    // The stored BLOCK keeps its line, and the events after it are on that line.
    let local_lines: Vec<u32> = shown
        .iter()
        .filter(|e| matches!(e.event.kind, EventKind::Local { .. }))
        .map(|e| e.line)
        .collect();
    assert_eq!(local_lines, vec![10, 12, 12]);
}

#[test]
fn the_debugger_gives_the_session_the_recorded_coverage() {
    let (bytes, [_, twice, never]) = loop_program();
    let (_dir, r) = record_stream(&bytes);
    let expected = r.coverage(twice, CoverageKind::Edge).unwrap();
    let mut union = expected.clone();
    union.extend(r.coverage(never, CoverageKind::Edge).unwrap());
    union.sort_unstable();
    union.dedup();
    // On the execution forest the two calls of `count`, one after the other on the class's
    // statics, are one collapsed node covering what both covered.
    let on_forest = crate::debugger::DebugOptions {
        strategy: crate::strategy::StrategyName::EdgeCoverage,
        ..Default::default()
    };
    let (_dir2, r2) = record_stream(&bytes);
    let d = crate::debugger::Debugger::new(r2, on_forest).unwrap();
    let tree = d.session().tree();
    assert_eq!(tree.kind(twice), crate::tree::NodeKind::Collapsed);
    assert_eq!(tree.image(never), Some(twice));
    assert_eq!(tree.coverage(twice, CoverageKind::Edge), union);
    // The plain tree: each call its own.
    let options = crate::debugger::DebugOptions {
        strategy: crate::strategy::StrategyName::EdgeCoverage,
        forest: crate::tree::ForestOptions::OFF,
        ..Default::default()
    };
    let mut d = crate::debugger::Debugger::new(r, options).unwrap();
    let tree = d.session().tree();
    assert_eq!(
        tree.coverage(twice, CoverageKind::Edge),
        expected.as_slice()
    );
    assert_eq!(tree.coverage(never, CoverageKind::Edge).len(), 3);
    // Only the kind the strategy weighs by is kept in memory...
    assert!(!tree.has_coverage_of(CoverageKind::DefUse));
    // ... and a switch reads the other from the trace and drops the first.
    d.set_strategy(crate::strategy::StrategyName::DefUseCoverage, None)
        .unwrap();
    let tree = d.session().tree();
    assert_eq!(tree.coverage(twice, CoverageKind::DefUse).len(), 6);
    assert!(!tree.has_coverage_of(CoverageKind::Edge));
    d.set_strategy(crate::strategy::StrategyName::TopDown, None)
        .unwrap();
    assert!(!d.session().tree().has_coverage_of(CoverageKind::DefUse));
}

#[test]
fn coverage_of_many_calls_spans_pages_and_each_node_finds_its_own() {
    let mut s = StreamBuilder::new();
    let c = s.class("demo.Main", true);
    let main = s.method(c, "main", "([Ljava/lang/String;)V", true, &["args"]);
    let m = s.method_with_blocks(
        c,
        "m",
        "(I)V",
        true,
        &["n"],
        vec![
            block_def(0, 1, &[]),
            block_def(1, 2, &[]),
            block_def(2, 3, &[]),
        ],
    );
    let t = s.thread("main");
    s.call(t, main, &[Value::Null]);
    // Call k takes block 1 when k is even, block 2 otherwise.
    for k in 0..700 {
        s.call(t, m, &[Value::Int(k)]);
        s.block(t, 0);
        s.block(t, 1 + (k as u32 % 2));
        s.ret(t, Value::Void);
    }
    s.ret(t, Value::Void);
    let (_dir, r) = record_stream(&s.end(0));
    let all = r.all_coverage(CoverageKind::Edge).unwrap();
    assert_eq!(all.len(), 700);
    // Calls are nodes 3, 4, ...: node 3 + k.
    for k in [0u32, 255, 256, 511, 699] {
        let node = NodeId(3 + k);
        let want = [(ENTRY, 0), (0, 1 + k % 2)].into();
        assert_eq!(edges_of(&r, node), want, "call {k}");
        assert_eq!(all[k as usize].0, node);
    }
}

/// A live session weighs by coverage while the program runs: the recorder hands each call's
/// entities to the feed just before the call's completion, the same ids the trace stores.
#[test]
fn each_call_s_coverage_reaches_the_feed_before_its_completion() {
    use crate::capture::{feed, FeedItem};
    let (bytes, [main, twice, never]) = loop_program();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.htrace");
    let (sink, mut feed) = feed(1024);
    record(&bytes[..], &path, sink, WriterConfig::default()).expect("recording succeeds");
    let mut items = Vec::new();
    while feed.take(&mut items, 1024, None) != crate::capture::Taken::Ended {}
    let r = TraceReader::open(&path).unwrap();
    for node in [twice, never] {
        let at = items
            .iter()
            .position(|i| matches!(i, FeedItem::Coverage(n, _) if *n == node))
            .unwrap_or_else(|| panic!("no coverage of {node}"));
        let FeedItem::Coverage(_, c) = &items[at] else {
            unreachable!()
        };
        assert_eq!(c.edges, r.coverage(node, CoverageKind::Edge).unwrap());
        assert_eq!(c.def_uses, r.coverage(node, CoverageKind::DefUse).unwrap());
        assert!(!c.edges.is_empty());
        assert!(
            matches!(&items[at + 1], FeedItem::Node(h) if h.id == node && h.exit.is_some()),
            "the completion of {node} follows its coverage"
        );
    }
    // main has no block table: nothing of its own to weigh.
    assert!(!items
        .iter()
        .any(|i| matches!(i, FeedItem::Coverage(n, _) if *n == main)));
}
