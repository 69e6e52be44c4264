//! Footprints on hand-made runs with events: a tree node `p.Node { key, left, right }` and the
//! calls that read and write it.

use std::collections::HashMap;
use std::ops::Range;

use super::*;
use crate::ids::{MethodId, StringId};
use crate::omniscient::{testing::MemHeap, Heap, ObjectInfo};
use crate::oracle::recorded::{MethodKey, OutputCall};
use crate::trace::wire::Event;

/// A run: a heap, calls and the events of each call's subtree. Field ids are 1 `key`,
/// 2 `left`, 3 `right`, 4 the static `p.Node.count`.
#[derive(Default)]
struct Run {
    heap: MemHeap,
    calls: HashMap<NodeId, CallView>,
    events: HashMap<NodeId, Vec<Event>>,
}

const KEY: FieldId = FieldId(1);
const LEFT: FieldId = FieldId(2);
const RIGHT: FieldId = FieldId(3);
const COUNT: FieldId = FieldId(4);

fn field_text(f: FieldId) -> &'static str {
    match f.0 {
        1 => "key",
        2 => "left",
        3 => "right",
        _ => "count",
    }
}

fn obj(id: u64) -> Value {
    Value::Object(ObjectId(id))
}

fn ev(ts: Timestamp, kind: EventKind) -> Event {
    Event { ts, kind }
}

fn read(ts: Timestamp, o: u64, f: FieldId) -> Event {
    ev(
        ts,
        EventKind::FieldRead {
            object: ObjectId(o),
            field: f,
        },
    )
}

fn write(ts: Timestamp, o: u64, f: FieldId, value: Value) -> Event {
    ev(
        ts,
        EventKind::FieldWrite {
            object: ObjectId(o),
            field: f,
            value,
        },
    )
}

impl Run {
    /// A node object with its fields at timestamp 0.
    fn node(&mut self, id: u64, key: i32, left: Value, right: Value) -> &mut Self {
        self.heap
            .obj(id, "p.Node")
            .set(id, "key", 0, Value::Int(key))
            .set(id, "left", 0, left)
            .set(id, "right", 0, right);
        self
    }

    /// A call of `p.Tree.name` on `this` with `args`, from `entry` to `exit`, and its events;
    /// each write event is applied to the heap too.
    #[allow(clippy::too_many_arguments)]
    fn add(
        &mut self,
        id: u32,
        name: &str,
        this: Value,
        args: &[Value],
        span: (Timestamp, Timestamp),
        result: Value,
        events: Vec<Event>,
    ) -> &mut Self {
        for e in &events {
            if let EventKind::FieldWrite {
                object,
                field,
                value,
            } = &e.kind
            {
                self.heap.set(object.0, field_text(*field), e.ts, *value);
            }
        }
        self.calls.insert(
            NodeId(id),
            CallView {
                method: MethodKey {
                    class: "p.Tree".into(),
                    name: name.into(),
                    descriptor: "(I)I".into(),
                },
                code_hash: Some([1; 16]),
                entry: span.0,
                exit: Some(span.1),
                this: Some(this),
                args: args.to_vec(),
                outcome: Some(Outcome::Returned(result)),
                statics: Vec::new(),
                output: Vec::<OutputCall>::new(),
                fragment: None,
                exit_locals: Vec::new(),
                position: None,
            },
        );
        self.events.insert(NodeId(id), events);
        self
    }

    fn view(&self, id: u32) -> CallView {
        self.calls[&NodeId(id)].clone()
    }
}

impl Heap for Run {
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

impl RecordedRun for Run {
    fn call(&self, node: NodeId) -> HeapResult<CallView> {
        self.calls
            .get(&node)
            .cloned()
            .ok_or_else(|| crate::omniscient::HeapError(format!("no node {node}")))
    }
    fn children(&self, _: NodeId) -> HeapResult<Vec<NodeId>> {
        Ok(Vec::new())
    }
    fn calls_of(&self, method: &MethodKey) -> HeapResult<Vec<NodeId>> {
        let mut ids: Vec<NodeId> = self
            .calls
            .iter()
            .filter(|(_, c)| &c.method == method)
            .map(|(n, _)| *n)
            .collect();
        ids.sort();
        Ok(ids)
    }
    fn code_hash(&self, _: &MethodKey) -> HeapResult<Option<[u8; 16]>> {
        Ok(Some([1; 16]))
    }
    fn static_at(&self, field: &str, at: Timestamp) -> HeapResult<Option<Value>> {
        Ok(self
            .heap
            .fields_at(ObjectId(0), at)?
            .into_iter()
            .find(|(n, _)| format!("p.Node.{n}") == field)
            .map(|(_, v)| v))
    }
    fn visit_events(
        &self,
        node: NodeId,
        visit: &mut dyn FnMut(&Event) -> bool,
    ) -> HeapResult<bool> {
        let Some(events) = self.events.get(&node) else {
            return Ok(false);
        };
        for e in events {
            if !visit(e) {
                break;
            }
        }
        Ok(true)
    }
    fn field_value(
        &self,
        object: ObjectId,
        field: FieldId,
        at: Timestamp,
    ) -> HeapResult<Option<Value>> {
        let name = field_text(field);
        Ok(self
            .heap
            .fields_at(object, at)?
            .into_iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v))
    }
    fn static_value(&self, field: FieldId, at: Timestamp) -> HeapResult<Option<Value>> {
        self.field_value(ObjectId(0), field, at)
    }
    fn field_name(&self, field: FieldId) -> HeapResult<(String, String)> {
        Ok(("p.Node".into(), field_text(field).into()))
    }
    fn method_text(&self, method: MethodId) -> HeapResult<String> {
        Ok(match method.0 {
            7 => "java.lang.System.getProperty(Ljava/lang/String;)Ljava/lang/String;".into(),
            _ => format!("java.io.PrintStream.m{method}"),
        })
    }
}

/// `find(k)` on a node: reads `key`, then `left` or `right` (by `go_left`), returns its key.
fn find_events(from: Timestamp, node: u64, go_left: bool) -> Vec<Event> {
    vec![
        read(from + 1, node, KEY),
        read(from + 2, node, if go_left { LEFT } else { RIGHT }),
    ]
}

fn footprint(run: &Run, id: u32, names: &mut Interner) -> Footprint {
    walk(run, NodeId(id), &run.view(id), names)
        .unwrap()
        .expect("the run has events")
}

fn own_effect(run: &Run, fp: &Footprint) -> (u128, bool) {
    effect_hash(run, fp, &|o| fp.naming.name(o))
        .unwrap()
        .unwrap()
}

#[test]
fn calls_that_read_alike_have_equal_footprints_whatever_the_ids() {
    let mut a = Run::default();
    a.node(1, 5, obj(2), Value::Null)
        .node(2, 3, Value::Null, Value::Null);
    a.add(
        10,
        "find",
        obj(1),
        &[Value::Int(3)],
        (100, 110),
        Value::Int(3),
        find_events(100, 1, true),
    );
    // The same shape with other ids, another timeline, and a right subtree the call never reads.
    let mut b = Run::default();
    b.node(7, 5, obj(9), obj(8))
        .node(9, 3, Value::Null, Value::Null)
        .node(8, 40, Value::Null, Value::Null);
    b.add(
        3,
        "find",
        obj(7),
        &[Value::Int(3)],
        (500, 530),
        Value::Int(3),
        find_events(500, 7, true),
    );
    let mut names = Interner::default();
    let fa = footprint(&a, 10, &mut names);
    let fb = footprint(&b, 3, &mut names);
    assert!(fa.reads_complete && fb.reads_complete && !fa.cut);
    assert_eq!(fa.reads, fb.reads);
    assert_eq!(fa.locations, fb.locations);
    assert_eq!(own_effect(&a, &fa), own_effect(&b, &fb));
    // Another key read, or another result, is another footprint.
    let mut c = Run::default();
    c.node(1, 6, obj(2), Value::Null)
        .node(2, 3, Value::Null, Value::Null);
    c.add(
        10,
        "find",
        obj(1),
        &[Value::Int(3)],
        (100, 110),
        Value::Int(3),
        find_events(100, 1, true),
    );
    let fc = footprint(&c, 10, &mut names);
    assert_ne!(fa.reads, fc.reads);
    assert_eq!(fa.locations, fc.locations);
    let mut d = Run::default();
    d.node(1, 5, obj(2), Value::Null)
        .node(2, 3, Value::Null, Value::Null);
    d.add(
        10,
        "find",
        obj(1),
        &[Value::Int(3)],
        (100, 110),
        Value::Int(4),
        find_events(100, 1, true),
    );
    let fd = footprint(&d, 10, &mut names);
    assert_eq!(fa.reads, fd.reads);
    assert_ne!(own_effect(&a, &fa).0, own_effect(&d, &fd).0);
}

#[test]
fn writes_are_effects_named_from_the_roots_with_their_exit_values() {
    // setKey(k): this.left.key = k.
    let set = |run: &mut Run, id: u32, this: u64, child: u64, k: i32, entry: Timestamp| {
        run.add(
            id,
            "setKey",
            obj(this),
            &[Value::Int(k)],
            (entry, entry + 10),
            Value::Void,
            vec![
                read(entry + 1, this, LEFT),
                write(entry + 2, child, KEY, Value::Int(k)),
            ],
        );
    };
    let mut a = Run::default();
    a.node(1, 5, obj(2), Value::Null)
        .node(2, 3, Value::Null, Value::Null);
    set(&mut a, 10, 1, 2, 4, 100);
    let mut b = Run::default();
    b.node(5, 5, obj(6), Value::Null)
        .node(6, 3, Value::Null, Value::Null);
    set(&mut b, 20, 5, 6, 4, 200);
    let mut same = Run::default();
    same.node(1, 5, obj(2), Value::Null)
        .node(2, 4, Value::Null, Value::Null);
    set(&mut same, 10, 1, 2, 4, 100);
    let mut names = Interner::default();
    let (fa, fb, fs) = (
        footprint(&a, 10, &mut names),
        footprint(&b, 20, &mut names),
        footprint(&same, 10, &mut names),
    );
    assert_eq!(fa.writes.len(), 1);
    assert_eq!(own_effect(&a, &fa), own_effect(&b, &fb));
    // Writing 4 where 4 already was: the location holds 4 at exit all the same.
    assert_eq!(fs.writes.len(), 1);
    assert_eq!(own_effect(&a, &fa).0, own_effect(&same, &fs).0);
    // Another value written is another effect.
    let mut five = Run::default();
    five.node(1, 5, obj(2), Value::Null)
        .node(2, 3, Value::Null, Value::Null);
    set(&mut five, 10, 1, 2, 5, 100);
    let f5 = footprint(&five, 10, &mut names);
    assert_ne!(own_effect(&a, &fa).0, own_effect(&five, &f5).0);
}

#[test]
fn rule_1_matches_a_reference_call_given_what_the_buggy_call_looked_at() {
    // The reference: find(3) in {5: left 3}.
    let mut reference = Run::default();
    reference
        .node(1, 5, obj(2), Value::Null)
        .node(2, 3, Value::Null, Value::Null);
    reference.add(
        10,
        "find",
        obj(1),
        &[Value::Int(3)],
        (100, 110),
        Value::Int(3),
        find_events(100, 1, true),
    );
    // The same call in a state that differs where find never looks: valid by its footprint.
    let mut buggy = Run::default();
    buggy
        .node(1, 5, obj(2), obj(3))
        .node(2, 3, Value::Null, Value::Null)
        .node(3, 99, Value::Null, Value::Null);
    buggy.add(
        4,
        "find",
        obj(1),
        &[Value::Int(3)],
        (300, 310),
        Value::Int(3),
        find_events(300, 1, true),
    );
    let mut index = FootprintIndex::default();
    let view = buggy.view(4);
    assert_eq!(
        index.judge(&buggy, NodeId(4), &view, &reference).unwrap(),
        Judgement::Valid
    );
    // A mutated find that goes right where the reference went left: its own reads match no
    // reference call, but the reference call's reads, evaluated in its entry state, agree; the
    // effects (results) differ: invalid.
    let mut mutated = Run::default();
    mutated
        .node(1, 5, obj(2), obj(3))
        .node(2, 3, Value::Null, Value::Null)
        .node(3, 99, Value::Null, Value::Null);
    mutated.add(
        4,
        "find",
        obj(1),
        &[Value::Int(3)],
        (300, 310),
        Value::Int(99),
        find_events(300, 1, false),
    );
    let view = mutated.view(4);
    assert_eq!(
        index.judge(&mutated, NodeId(4), &view, &reference).unwrap(),
        Judgement::Invalid
    );
    // A call given another key matches nothing.
    let mut other = Run::default();
    other
        .node(1, 8, obj(2), Value::Null)
        .node(2, 3, Value::Null, Value::Null);
    other.add(
        4,
        "find",
        obj(1),
        &[Value::Int(3)],
        (300, 310),
        Value::Int(3),
        find_events(300, 1, true),
    );
    let view = other.view(4);
    assert_eq!(
        index.judge(&other, NodeId(4), &view, &reference).unwrap(),
        Judgement::NoMatch
    );
}

#[test]
fn answers_of_objects_of_unknown_content_are_inputs_and_their_calls_effects() {
    // print(): reads the static `count`, calls a method of an object of unknown content (a
    // PrintStream) held in `this.left`, which answers 7.
    let print = |run: &mut Run, answer: i32, arg: i32| {
        run.heap.obj(50, "java.io.PrintStream");
        run.node(1, 5, obj(50), Value::Null);
        run.heap.set(0, "count", 0, Value::Int(2));
        run.add(
            10,
            "print",
            obj(1),
            &[],
            (100, 110),
            Value::Void,
            vec![
                ev(101, EventKind::StaticRead { field: COUNT }),
                read(102, 1, LEFT),
                ev(
                    103,
                    EventKind::ExtCall {
                        method: MethodId(3),
                        args: vec![obj(50), Value::Int(arg)],
                    },
                ),
                ev(104, EventKind::ExtReturn(Value::Int(answer))),
            ],
        );
    };
    let (mut a, mut b, mut c, mut d) = (
        Run::default(),
        Run::default(),
        Run::default(),
        Run::default(),
    );
    print(&mut a, 7, 1);
    print(&mut b, 7, 1);
    print(&mut c, 8, 1);
    print(&mut d, 7, 2);
    let mut names = Interner::default();
    let fa = footprint(&a, 10, &mut names);
    // An answer cannot be read in another entry state: no trail to evaluate.
    assert!(fa.trail.is_none());
    assert_eq!(fa.calls.len(), 1);
    let fb = footprint(&b, 10, &mut names);
    let fc = footprint(&c, 10, &mut names);
    let fd = footprint(&d, 10, &mut names);
    assert_eq!(fa.reads, fb.reads);
    assert_ne!(fa.reads, fc.reads);
    // What was printed is part of the effect.
    assert_eq!(fa.reads, fd.reads);
    assert_ne!(own_effect(&a, &fa).0, own_effect(&d, &fd).0);
}

#[test]
fn a_lambda_the_call_hands_to_the_jdk_asks_the_outside_world_nothing() {
    // filter(a): makes a lambda (an object of a hidden class, first seen in the call, whose
    // content the trace does not know) and hands it with the array `a` to the JDK, which
    // answers true. The JVM names the lambda's class after an address that differs from run to
    // run; the agent names it without (`p.Tree$$Lambda`, "" here).
    for (addresses, stable) in [
        (["0x00007f9bb801ca08", "0x00007f212801ca08"], false),
        (["", ""], true),
    ] {
        let filter = |run: &mut Run, address: &str, first: i32| {
            run.heap.arr(
                20,
                "java.lang.Object[]",
                &[Value::Int(first), Value::Int(2)],
            );
            let class = if stable {
                "p.Tree$$Lambda".to_string()
            } else {
                format!("p.Tree$$Lambda$37/{address}")
            };
            run.heap.opaque(30, &class);
            run.add(
                10,
                "filter",
                obj(1),
                &[obj(20)],
                (100, 110),
                obj(20),
                vec![
                    ev(
                        101,
                        EventKind::NewObject {
                            object: ObjectId(30),
                            class: crate::ids::ClassId(1),
                            origin: Origin::FirstSeen,
                        },
                    ),
                    ev(
                        102,
                        EventKind::ExtCall {
                            method: MethodId(3),
                            args: vec![obj(20), obj(30)],
                        },
                    ),
                    ev(103, EventKind::ExtReturn(Value::Boolean(true))),
                ],
            );
            run.node(1, 5, Value::Null, Value::Null);
        };
        let (mut a, mut b, mut c) = (Run::default(), Run::default(), Run::default());
        filter(&mut a, addresses[0], 1);
        filter(&mut b, addresses[1], 1);
        filter(&mut c, addresses[1], 3);
        let mut names = Interner::default();
        let fa = footprint(&a, 10, &mut names);
        let fb = footprint(&b, 10, &mut names);
        let fc = footprint(&c, 10, &mut names);
        // The JDK's answer is no input: the reads can be evaluated in another entry state.
        assert!(fa.trail.is_some());
        assert!(fa.calls.is_empty());
        assert!(fa.reads_complete);
        // The lambda's address does not count; what the JDK was given does.
        assert_eq!(fa.reads, fb.reads);
        assert_ne!(fa.reads, fc.reads);
        assert_eq!(own_effect(&a, &fa), own_effect(&b, &fb));
    }
}

#[test]
fn a_constructor_is_judged_by_the_object_it_built() {
    let init = |run: &mut Run, key: i32| {
        run.heap.obj(1, "p.Node");
        run.calls.insert(
            NodeId(10),
            CallView {
                method: MethodKey {
                    class: "p.Node".into(),
                    name: "<init>".into(),
                    descriptor: "(I)V".into(),
                },
                code_hash: Some([1; 16]),
                entry: 100,
                exit: Some(110),
                this: Some(obj(1)),
                args: vec![Value::Int(3)],
                outcome: Some(Outcome::Returned(Value::Void)),
                statics: Vec::new(),
                output: Vec::new(),
                fragment: None,
                exit_locals: Vec::new(),
                position: None,
            },
        );
        run.heap.set(1, "key", 101, Value::Int(key));
        run.events
            .insert(NodeId(10), vec![write(101, 1, KEY, Value::Int(key))]);
    };
    let (mut a, mut b) = (Run::default(), Run::default());
    init(&mut a, 3);
    init(&mut b, 4);
    let mut names = Interner::default();
    let (fa, fb) = (footprint(&a, 10, &mut names), footprint(&b, 10, &mut names));
    assert_eq!(fa.reads, fb.reads);
    // The field of the new object is described by value, not as a write.
    assert!(fa.writes.is_empty());
    assert_ne!(own_effect(&a, &fa).0, own_effect(&b, &fb).0);
}

#[test]
fn a_trail_read_again_in_its_own_entry_state_gives_its_own_reads() {
    // fill(): reads this.left (an int[2] array), writes its element 0, then hands the array to
    // uninstrumented code (which may read all of it): the whole read is of the array as the
    // call was given it, so reading the trail again at entry agrees.
    let mut run = Run::default();
    run.heap
        .arr(20, "int[]", &[Value::Int(1), Value::Int(2)])
        .obj(1, "p.Node")
        .set(1, "left", 0, obj(20))
        .set(1, "key", 0, Value::Int(5))
        .set(20, "0", 103, Value::Int(9));
    run.add(
        10,
        "fill",
        obj(1),
        &[Value::Int(7)],
        (100, 110),
        Value::Void,
        vec![
            read(101, 1, LEFT),
            ev(
                103,
                EventKind::ArrayWrite {
                    array: ObjectId(20),
                    index: 0,
                    value: Value::Int(9),
                },
            ),
            ev(
                104,
                EventKind::ExtCall {
                    method: MethodId(5),
                    args: vec![obj(20)],
                },
            ),
            ev(105, EventKind::ExtReturn(Value::Void)),
            read(106, 1, KEY),
        ],
    );
    let mut names = Interner::default();
    let fp = footprint(&run, 10, &mut names);
    assert!(fp.reads_complete);
    let trail = fp.trail.clone().expect("every location can be read again");
    assert!(trail.iter().any(|l| l.step == Step::Elements));
    let view = run.view(10);
    let (again, _) = index::evaluate(
        &run,
        &view,
        &trail,
        &names,
        99,
        &fp,
        &mut Default::default(),
    )
    .unwrap()
    .expect("readable");
    assert_eq!(again, fp.reads);
    // The same holds for every call of the other tests' shapes.
    let mut a = Run::default();
    a.node(1, 5, obj(2), Value::Null)
        .node(2, 3, Value::Null, Value::Null);
    a.add(
        10,
        "find",
        obj(1),
        &[Value::Int(3)],
        (100, 110),
        Value::Int(3),
        find_events(100, 1, true),
    );
    let fa = footprint(&a, 10, &mut names);
    let (again, _) = index::evaluate(
        &a,
        &a.view(10),
        fa.trail.as_ref().unwrap(),
        &names,
        99,
        &fa,
        &mut Default::default(),
    )
    .unwrap()
    .unwrap();
    assert_eq!(again, fa.reads);
}

#[test]
fn the_reference_call_with_the_same_number_is_tried_before_any_index() {
    // Both runs number the call 10 (no divergence before it): it read the same, so it is
    // judged without indexing the method's calls.
    let make = |result: i32| {
        let mut run = Run::default();
        run.node(1, 5, obj(2), Value::Null)
            .node(2, 3, Value::Null, Value::Null);
        run.add(
            10,
            "find",
            obj(1),
            &[Value::Int(3)],
            (100, 110),
            Value::Int(result),
            find_events(100, 1, true),
        );
        run
    };
    let (reference, same, wrong) = (make(3), make(3), make(4));
    let mut index = FootprintIndex::default();
    let view = same.view(10);
    assert_eq!(
        index.judge(&same, NodeId(10), &view, &reference).unwrap(),
        Judgement::Valid
    );
    let view = wrong.view(10);
    assert_eq!(
        index.judge(&wrong, NodeId(10), &view, &reference).unwrap(),
        Judgement::Invalid
    );
    assert!(
        index.methods.is_empty(),
        "the twin decided without an index"
    );
    // A twin that read something else leaves the call to the index.
    let mut other = Run::default();
    other
        .node(1, 5, obj(2), Value::Null)
        .node(2, 3, Value::Null, Value::Null);
    other.add(
        10,
        "find",
        obj(1),
        &[Value::Int(4)],
        (100, 110),
        Value::Int(3),
        find_events(100, 1, true),
    );
    let view = other.view(10);
    assert_eq!(
        index.judge(&other, NodeId(10), &view, &reference).unwrap(),
        Judgement::NoMatch
    );
    assert_eq!(index.methods.len(), 1);
}

/// `shown(f)` on a `java.lang.reflect.Field` (a JDK object, another copy in every run): calls
/// `f.getModifiers()` (answer 1), then `this.getClass()`, whose `Class` the call may meet first
/// (`met_class_first`) or not, and returns that class.
fn shown(run: &mut Run, field: u64, name: &str, met_class_first: bool) {
    run.node(1, 5, Value::Null, Value::Null);
    run.heap
        .named(field, "java.lang.reflect.Field", field, name);
    run.heap.named(70, "java.lang.Class", 70, "p.Node");
    let mut events = vec![
        ev(
            101,
            EventKind::ExtCall {
                method: MethodId(3),
                args: vec![obj(field)],
            },
        ),
        ev(102, EventKind::ExtReturn(Value::Int(1))),
        ev(
            103,
            EventKind::ExtCall {
                method: MethodId(4),
                args: vec![obj(1)],
            },
        ),
    ];
    if met_class_first {
        events.push(ev(
            104,
            EventKind::NewObject {
                object: ObjectId(70),
                class: crate::ids::ClassId(9),
                origin: Origin::FirstSeen,
            },
        ));
    }
    events.push(ev(105, EventKind::ExtReturn(obj(70))));
    run.add(
        10,
        "shown",
        obj(1),
        &[obj(field)],
        (100, 110),
        obj(70),
        events,
    );
}

#[test]
fn reflective_objects_compare_by_what_they_stand_for() {
    let (mut a, mut b, mut c) = (Run::default(), Run::default(), Run::default());
    shown(&mut a, 60, "p.Point.x", true);
    // Another copy of the same field; the class met before the call.
    shown(&mut b, 61, "p.Point.x", false);
    shown(&mut c, 62, "p.Point.y", true);
    let mut names = Interner::default();
    let fa = footprint(&a, 10, &mut names);
    let fb = footprint(&b, 10, &mut names);
    let fc = footprint(&c, 10, &mut names);
    // What the JDK answers about a field follows from the field: no outside input, so the
    // reads can be evaluated in another call's entry state (how a mutant's call is matched).
    assert!(fa.reads_complete);
    assert_eq!(fa.trail.as_ref().map(Vec::len), Some(2), "this and f");
    assert!(fa.calls.is_empty());
    assert_eq!(fa.reads, fb.reads);
    assert_ne!(fa.reads, fc.reads);
    // The class is described by its name whether the call met it first or not.
    let (ea, complete) = own_effect(&a, &fa);
    assert!(complete);
    assert_eq!(ea, own_effect(&b, &fb).0);
}

#[test]
fn a_field_handed_to_the_jdk_with_an_object_is_an_outside_input() {
    // get(f): f.get(this) reads a field of `this` that no event shows: its answer is an input.
    let get = |run: &mut Run, answer: i32| {
        run.node(1, 5, Value::Null, Value::Null);
        run.heap
            .named(60, "java.lang.reflect.Field", 60, "p.Node.key");
        run.add(
            10,
            "get",
            obj(1),
            &[obj(60)],
            (100, 110),
            Value::Int(answer),
            vec![
                ev(
                    101,
                    EventKind::ExtCall {
                        method: MethodId(5),
                        args: vec![obj(60), obj(1)],
                    },
                ),
                ev(102, EventKind::ExtReturn(Value::Int(answer))),
            ],
        );
    };
    let (mut a, mut b) = (Run::default(), Run::default());
    get(&mut a, 5);
    get(&mut b, 6);
    let mut names = Interner::default();
    let fa = footprint(&a, 10, &mut names);
    let fb = footprint(&b, 10, &mut names);
    assert!(fa.trail.is_none());
    assert_eq!(fa.calls.len(), 1);
    assert_ne!(fa.reads, fb.reads);
}

#[test]
fn a_system_property_is_an_outside_input() {
    // classPath(): System.getProperty("java.class.path"), which differs between two runs.
    let class_path = |run: &mut Run, answer: &str| {
        run.node(1, 5, Value::Null, Value::Null);
        run.heap.text(80, "java.class.path").text(81, answer);
        run.add(
            10,
            "classPath",
            obj(1),
            &[],
            (100, 110),
            Value::Str(StringId(81)),
            vec![
                ev(
                    101,
                    EventKind::ExtCall {
                        method: MethodId(7),
                        args: vec![Value::Str(StringId(80))],
                    },
                ),
                ev(102, EventKind::ExtReturn(Value::Str(StringId(81)))),
            ],
        );
    };
    let (mut a, mut b) = (Run::default(), Run::default());
    class_path(&mut a, "/tmp/m1/classes");
    class_path(&mut b, "/tmp/reference/classes");
    let mut names = Interner::default();
    let fa = footprint(&a, 10, &mut names);
    let fb = footprint(&b, 10, &mut names);
    // Not the same input, so the other result proves nothing wrong.
    assert_ne!(fa.reads, fb.reads);
    assert!(fa.trail.is_none());
}
