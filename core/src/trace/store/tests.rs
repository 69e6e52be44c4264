use std::collections::HashMap;
use std::path::Path;

use super::*;
use crate::ids::{FieldId, MethodId, NodeId, ObjectId, ThreadId, Timestamp};
use crate::trace::recorder::{record, NullSink, Recorder};
use crate::trace::synthetic::StreamBuilder;
use crate::trace::wire::{Decoder, EventKind, Value};

/// The jhyde paper's MergeSort (Listing 1) with its bug on line 12, run on {4, 9, 1, 7}.
struct MergeSort {
    s: StreamBuilder,
    t: ThreadId,
    heap: HashMap<ObjectId, Vec<i32>>,
    merge: MethodId,
    distribute: MethodId,
    /// Timestamps of the writes to a[2] (the last merge's c[2]).
    c2_writes: Vec<(Timestamp, i32)>,
    a: ObjectId,
}

impl MergeSort {
    fn aw(&mut self, arr: ObjectId, i: usize, v: i32) {
        self.heap.get_mut(&arr).unwrap()[i] = v;
        let ts = self.s.array_write(self.t, arr, i as u32, Value::Int(v));
        if arr == self.a && i == 2 {
            self.c2_writes.push((ts, v));
        }
    }

    fn local(&mut self, var: u32, v: i32) {
        self.s.local(self.t, var, Value::Int(v));
    }

    #[allow(clippy::too_many_arguments)]
    fn merge(
        &mut self,
        a: ObjectId,
        mut la: i32,
        ra: i32,
        b: ObjectId,
        mut lb: i32,
        rb: i32,
        c: ObjectId,
        mut lc: i32,
    ) {
        let t = self.t;
        let args = [
            Value::Object(a),
            Value::Int(la),
            Value::Int(ra),
            Value::Object(b),
            Value::Int(lb),
            Value::Int(rb),
            Value::Object(c),
            Value::Int(lc),
        ];
        self.s.call(t, self.merge, &args);
        loop {
            self.s.line(t, 9);
            if !(la < ra && lb < rb) {
                break;
            }
            self.s.line(t, 10);
            let idx = lc;
            lc += 1;
            self.local(7, lc);
            let v = if self.heap[&a][la as usize] < self.heap[&b][lb as usize] {
                la += 1;
                self.local(1, la);
                self.heap[&a][la as usize - 1]
            } else {
                lb += 1;
                self.local(4, lb);
                self.heap[&b][lb as usize - 1]
            };
            self.aw(c, idx as usize, v);
        }
        loop {
            self.s.line(t, 11);
            if la >= ra {
                break;
            }
            self.s.line(t, 12); // the bug: c[lb++] = a[la++]
            let idx = lb;
            lb += 1;
            self.local(4, lb);
            la += 1;
            self.local(1, la);
            let v = self.heap[&a][la as usize - 1];
            self.aw(c, idx as usize, v);
        }
        loop {
            self.s.line(t, 13);
            if lb >= rb {
                break;
            }
            self.s.line(t, 14);
            let idx = lc;
            lc += 1;
            self.local(7, lc);
            lb += 1;
            self.local(4, lb);
            let v = self.heap[&b][lb as usize - 1];
            self.aw(c, idx as usize, v);
        }
        self.s.line(t, 15);
        self.s.ret(t, Value::Void);
    }

    fn distribute(&mut self, a: ObjectId, b: ObjectId, c: ObjectId, l: i32) {
        let t = self.t;
        self.s.call(
            t,
            self.distribute,
            &[
                Value::Object(a),
                Value::Object(b),
                Value::Object(c),
                Value::Int(l),
            ],
        );
        self.s.line(t, 18);
        let mut i = 0;
        self.local(4, i);
        let mut j = 0;
        while j < 4 {
            self.s.line(t, 19);
            for (line, target) in [(21, b), (23, c)] {
                let mut k = j / 2;
                while k < j / 2 + l {
                    self.s.line(t, line);
                    let v = self.heap[&a][i as usize];
                    i += 1;
                    self.local(4, i);
                    self.aw(target, k as usize, v);
                    k += 1;
                }
            }
            j += 2 * l;
            self.local(5, j);
        }
        self.s.line(t, 25);
        self.s.ret(t, Value::Void);
    }

    fn run() -> (Vec<u8>, MergeSort) {
        let mut s = StreamBuilder::new();
        let cls = s.class("MergeSort", true);
        let int_array = s.class("int[]", false);
        let main = s.method(cls, "main", "([Ljava/lang/String;)V", true, &["args", "a"]);
        let sort = s.method(cls, "sort", "([I)V", true, &["a", "b", "c", "size", "i"]);
        let merge = s.method(
            cls,
            "merge",
            "([III[III[II)V",
            true,
            &["a", "la", "ra", "b", "lb", "rb", "c", "lc"],
        );
        let distribute = s.method(
            cls,
            "distribute",
            "([I[I[II)V",
            true,
            &["a", "b", "c", "l", "i", "j", "k"],
        );
        let t = s.thread("main");
        let mut m = MergeSort {
            s,
            t,
            heap: HashMap::new(),
            merge,
            distribute,
            c2_writes: Vec::new(),
            a: ObjectId(0),
        };
        m.s.call(t, main, &[Value::Null]);
        m.s.line(t, 38);
        let a = m.s.new_array(t, int_array, 4, None);
        m.a = a;
        m.heap.insert(a, vec![0; 4]);
        for (i, v) in [4, 9, 1, 7].into_iter().enumerate() {
            m.aw(a, i, v);
        }
        m.s.local(t, 1, Value::Object(a));
        m.s.line(t, 39);
        m.s.call(t, sort, &[Value::Object(a)]);
        m.s.line(t, 28);
        let b = m.s.new_array(t, int_array, 4, None);
        m.s.local(t, 1, Value::Object(b));
        m.s.line(t, 29);
        let c = m.s.new_array(t, int_array, 4, None);
        m.s.local(t, 2, Value::Object(c));
        m.heap.insert(b, vec![0; 4]);
        m.heap.insert(c, vec![0; 4]);
        let mut size = 1;
        while size < 4 {
            m.s.line(t, 30);
            m.local(3, size);
            m.s.line(t, 31);
            m.distribute(a, b, c, size);
            let mut i = 0;
            while i < 2 {
                m.s.line(t, 32);
                m.local(4, i);
                m.s.line(t, 33);
                m.merge(b, i, i + size, c, i, i + size, a, 2 * i);
                i += size;
            }
            size *= 2;
        }
        m.s.line(t, 35);
        m.s.ret(t, Value::Void);
        m.s.line(t, 42);
        m.s.ret(t, Value::Void);
        let s = std::mem::take(&mut m.s);
        (s.end(0), m)
    }
}

fn record_to(bytes: &[u8], path: &Path, config: WriterConfig) {
    record(bytes, path, NullSink, config).unwrap();
}

#[test]
fn merge_sort_values_at_any_timestamp() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mergesort.htrace");
    let (bytes, m) = MergeSort::run();
    // Tiny commits and pages: lookups must cross many index segments and pages.
    let config = WriterConfig {
        commit_events: 7,
        page_bytes: 48,
        block_bytes: 64,
        ..WriterConfig::default()
    };
    record_to(&bytes, &path, config);
    let r = TraceReader::open(&path).unwrap();
    assert!(r.info().unwrap().status == "complete");
    let merges: Vec<NodeRow> = r
        .preorder()
        .map(|n| n.unwrap())
        .filter(|n| n.header.method == Some(m.merge))
        .collect();
    assert_eq!(merges.len(), 3);
    let last = &merges[2];
    let (entry, exit) = (last.header.entry, last.header.exit.unwrap());

    // The paper's history of c[2]: 1, 1, 7, 9, the last one in the last merge.
    let hist = r
        .history(Variable::Element {
            array: m.a,
            index: 2,
        })
        .unwrap();
    assert_eq!(
        hist.iter().map(|w| w.value).collect::<Vec<_>>(),
        [1, 1, 7, 9].map(Value::Int)
    );
    assert_eq!(
        hist.iter()
            .map(|w| (
                w.ts,
                match w.value {
                    Value::Int(i) => i,
                    _ => 0,
                }
            ))
            .collect::<Vec<_>>(),
        m.c2_writes
    );
    let last_write = hist[3];
    assert!(last_write.ts > entry && last_write.ts < exit);
    let at = r.event_at(last_write.ts).unwrap().unwrap();
    assert_eq!((at.node, at.line), (last.header.id, 12));

    // Locals of the last merge at entry and exit: la, lb, lc changed.
    let var = |name: &str| {
        ["a", "la", "ra", "b", "lb", "rb", "c", "lc"]
            .iter()
            .position(|v| *v == name)
            .unwrap() as u32
    };
    let local = |name, t| r.local_at(last.header.id, var(name), t).unwrap();
    assert_eq!(
        (local("la", entry), local("lb", entry), local("lc", entry)),
        (
            Some(Value::Int(0)),
            Some(Value::Int(0)),
            Some(Value::Int(0))
        )
    );
    assert_eq!(
        (local("la", exit), local("lb", exit), local("lc", exit)),
        (
            Some(Value::Int(2)),
            Some(Value::Int(3)),
            Some(Value::Int(3))
        )
    );
    assert_eq!(local("ra", exit), Some(Value::Int(2)));
    assert_eq!(local("c", exit), Some(Value::Object(m.a)));
    // c's content at entry and exit, and c[2] before and after each write of the last merge.
    let ints = |v: Vec<Option<Value>>| {
        v.into_iter()
            .map(|x| match x {
                Some(Value::Int(i)) => i,
                other => panic!("{other:?}"),
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(
        ints(r.array_at(m.a, entry, 0, 100).unwrap()),
        vec![4, 9, 1, 7]
    );
    assert_eq!(
        ints(r.array_at(m.a, exit, 0, 100).unwrap()),
        vec![1, 4, 9, 7]
    );
    assert_eq!(ints(r.array_at(m.a, exit, 1, 2).unwrap()), vec![4, 9]);
    assert_eq!(
        r.element_at(m.a, 2, hist[2].ts - 1).unwrap(),
        Some(Value::Int(1))
    );
    assert_eq!(
        r.element_at(m.a, 2, hist[2].ts).unwrap(),
        Some(Value::Int(7))
    );
    assert_eq!(
        r.element_at(m.a, 2, hist[3].ts - 1).unwrap(),
        Some(Value::Int(7))
    );
    assert_eq!(r.element_at(m.a, 2, u64::MAX).unwrap(), Some(Value::Int(9)));
    assert_eq!(r.element_at(m.a, 4, exit).unwrap(), None, "out of bounds");
    // Before main's initialiser, the new array holds defaults.
    assert_eq!(
        r.element_at(m.a, 2, hist[0].ts - 1).unwrap(),
        Some(Value::Int(0))
    );
    assert_eq!(
        r.class_name_of(&Value::Object(m.a)).unwrap().as_deref(),
        Some("int[]")
    );

    // The dynamic buggy code of the last merge: lines it ran itself; 14 never ran.
    assert_eq!(
        r.node_lines(last.header.id).unwrap(),
        vec![9, 10, 11, 12, 13, 15]
    );
    let d = r.node_detail(last.header.id).unwrap().unwrap();
    assert_eq!(
        d.args.iter().map(|a| a.name.as_str()).collect::<Vec<_>>(),
        ["a", "la", "ra", "b", "lb", "rb", "c", "lc"]
    );
    assert_eq!(d.this, None);
    assert_eq!(d.result, Some(NodeResult::Returned(Value::Void)));

    // Event pages of sort: first page, then the next one from after its last event.
    let sort = r.node(last.header.parent.unwrap()).unwrap().unwrap();
    let all = r.node_events(sort.header.id, 0, usize::MAX).unwrap();
    let first = r.node_events(sort.header.id, 0, 5).unwrap();
    let second = r
        .node_events(sort.header.id, first[4].event.ts + 1, 5)
        .unwrap();
    assert_eq!(first[..], all[..5]);
    assert_eq!(second[..], all[5..10]);
    assert!(all.windows(2).all(|w| w[0].event.ts < w[1].event.ts));
    let last_call = all
        .iter()
        .find(|e| e.node == last.header.id && e.event.kind.is_call())
        .unwrap();
    assert_eq!(
        (last_call.own, last_call.line),
        (false, 33),
        "a child's call shows its call site"
    );
    let children_calls = all
        .iter()
        .filter(|e| !e.own && e.event.kind.is_call())
        .count() as u64;
    assert_eq!(children_calls, r.child_count(sort.header.id).unwrap());
    assert!(all.iter().all(|e| e.own == (e.node == sort.header.id)));
    // The subtree of the last merge is the merge itself; sort's subtree holds every event of
    // its interval, its children's included.
    let merge_all = r.node_events(last.header.id, 0, usize::MAX).unwrap();
    assert_eq!(
        r.subtree_events(last.header.id, 0, usize::MAX).unwrap(),
        merge_all
    );
    let sub = r.subtree_events(sort.header.id, 0, usize::MAX).unwrap();
    assert_eq!(
        sub.len() as u64,
        sort.header.exit.unwrap() - sort.header.entry + 1
    );
    assert!(sub
        .iter()
        .any(|e| e.node == last.header.id && e.event.ts == hist[3].ts));
}

#[test]
fn values_match_a_model_across_many_segments() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = crate::trace::wire::tests_rng(77);
    let mut s = StreamBuilder::new();
    let cls = s.class("demo.Box", true);
    let arr_cls = s.class("long[]", false);
    let f = [s.field(cls, "x", "I", false), s.field(cls, "y", "J", false)];
    let st = s.field(cls, "COUNT", "I", true);
    let m = s.method(cls, "run", "()V", true, &["i"]);
    let set = s.method(cls, "set", "(I)V", true, &["v", "w"]);
    let t = s.thread("main");
    s.call(t, m, &[]);
    let objs: Vec<ObjectId> = (0..5).map(|_| s.new_object(t, cls)).collect();
    let arr = s.new_array(t, arr_cls, 50, Some((0..50).map(Value::Long).collect()));
    let created = s.ts();
    // Per variable: its writes with the node and line that made them.
    let mut model: HashMap<Variable, Vec<(Timestamp, Value, NodeId, u32)>> = HashMap::new();
    for i in 0..50 {
        model
            .entry(Variable::Element {
                array: arr,
                index: i,
            })
            .or_default()
            .push((created, Value::Long(i64::from(i)), NodeId(2), 0));
    }
    let (run, mut next_node, mut line) = (NodeId(2), 3u32, 0u32);
    for step in 0..3000 {
        let v = Value::Int(rng.below(1000) as i32);
        if rng.below(4) == 0 {
            line = 1 + rng.below(500) as u32;
            s.line(t, line);
        }
        // A third of the writes are made by a call of `set`, whose argument the caller wrote.
        let (node, wline) = if rng.below(3) == 0 {
            let child = NodeId(next_node);
            next_node += 1;
            let arg = Value::Int(step);
            let call = s.call(t, set, &[arg]);
            let local = Variable::Local {
                node: child,
                var: 0,
            };
            model.entry(local).or_default().push((call, arg, run, line));
            let l = 1000 + rng.below(3000) as u32;
            s.line(t, l);
            (child, l)
        } else {
            (run, line)
        };
        let (loc, ts) = match rng.below(4) {
            0 => {
                let (o, fi) = (objs[rng.below(5) as usize], f[rng.below(2) as usize]);
                (
                    Variable::Field {
                        object: o,
                        field: fi,
                    },
                    s.field_write(t, o, fi, v),
                )
            }
            1 => {
                let i = rng.below(50) as u32;
                (
                    Variable::Element {
                        array: arr,
                        index: i,
                    },
                    s.array_write(t, arr, i, v),
                )
            }
            2 => (
                Variable::Static { field: st },
                s.event(
                    t,
                    EventKind::StaticWrite {
                        field: st,
                        value: v,
                    },
                ),
            ),
            _ => (
                Variable::Local {
                    node,
                    var: u32::from(node != run),
                },
                s.local(t, u32::from(node != run), v),
            ),
        };
        model.entry(loc).or_default().push((ts, v, node, wline));
        if node != run {
            s.ret(t, Value::Void);
        }
        if step % 100 == 0 {
            s.flush(t);
        }
    }
    s.ret(t, Value::Void);
    let end = s.ts();
    let bytes = s.end(0);
    // Sealed on the writer's thread, and on a pool of three while recording goes on.
    for threads in [1, 3] {
        let path = dir.path().join(format!("model-{threads}.htrace"));
        let config = WriterConfig {
            commit_events: 150,
            page_bytes: 200,
            threads,
            ..WriterConfig::default()
        };
        record_to(&bytes, &path, config);
        check_model(&path, &model, &mut rng, end, (&objs, f, arr));
    }
}

/// Checks `values_match_a_model_across_many_segments`'s trace against its model.
#[allow(clippy::type_complexity)]
fn check_model(
    path: &Path,
    model: &HashMap<Variable, Vec<(Timestamp, Value, NodeId, u32)>>,
    rng: &mut crate::trace::wire::tests::Rng,
    end: Timestamp,
    (objs, f, arr): (&[ObjectId], [FieldId; 2], ObjectId),
) {
    let (segments, max_level): (i64, i64) = rusqlite::Connection::open(path)
        .unwrap()
        .query_row("SELECT count(*), max(level) FROM segments", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap();
    assert!(
        max_level >= 1 && segments < 8 + 8,
        "segments were merged: {segments} left, level {max_level}"
    );
    let r = TraceReader::open(path).unwrap();
    for (loc, writes) in model {
        let hist: Vec<(Timestamp, Value, NodeId, u32)> = r
            .history(*loc)
            .unwrap()
            .into_iter()
            .map(|w| (w.ts, w.value, w.node, w.line))
            .collect();
        assert_eq!(&hist, writes, "{loc:?}");
        for _ in 0..20 {
            let t = rng.below(end + 2);
            let expected = writes.iter().rev().find(|w| w.0 <= t).map(|w| w.1);
            let got = r.last_write(*loc, t).unwrap().map(|w| w.value);
            assert_eq!(got, expected, "{loc:?} at {t}");
            let from = rng.below(t + 1);
            let expected = writes
                .iter()
                .rev()
                .find(|w| w.0 <= t && w.0 >= from)
                .map(|w| w.1);
            let got = r
                .last_write_between(*loc, from, t)
                .unwrap()
                .map(|w| w.value);
            assert_eq!(got, expected, "{loc:?} from {from} to {t}");
        }
    }
    // Fields never written read as their default once the object exists; unknown before.
    let fresh = objs[0];
    let untouched = model.keys().all(|l| {
        *l != Variable::Field {
            object: fresh,
            field: f[1],
        }
    });
    if untouched {
        assert_eq!(r.field_at(fresh, f[1], end).unwrap(), Some(Value::Long(0)));
    }
    assert_eq!(
        r.field_at(fresh, f[0], 1).unwrap(),
        None,
        "before the object exists"
    );
    for &o in objs {
        let t = rng.below(end + 2);
        let got = r.object_fields_at(o, t).unwrap();
        let mut expected = Vec::new();
        for (k, &field) in f.iter().enumerate() {
            let w = model
                .get(&Variable::Field { object: o, field })
                .and_then(|w| w.iter().rev().find(|w| w.0 <= t));
            let created = r.object(o).unwrap().unwrap().created_ts <= t;
            match (w, created) {
                (Some(w), _) => expected.push((field, w.1)),
                (None, true) => expected.push((
                    field,
                    if k == 0 {
                        Value::Int(0)
                    } else {
                        Value::Long(0)
                    },
                )),
                (None, false) => {}
            }
        }
        assert_eq!(got, expected, "{o:?} at {t}");
    }
    let page = r.array_at(arr, end, 45, 10).unwrap();
    assert_eq!(page.len(), 5);
    for (k, v) in page.iter().enumerate() {
        let w = &model[&Variable::Element {
            array: arr,
            index: 45 + k as u32,
        }];
        assert_eq!(*v, w.last().map(|x| x.1));
    }
}

#[test]
fn constructors_strings_and_statics() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("ctor.htrace");
    let mut s = StreamBuilder::new();
    let outer = s.class("demo.Outer", true);
    let inner = s.class("demo.Outer$Inner", true);
    let this0 = s.field(inner, "this$0", "Ldemo/Outer;", false);
    let name = s.field(inner, "name", "Ljava/lang/String;", false);
    let count = s.field(inner, "COUNT", "I", true);
    let ctor = s.method(
        inner,
        "<init>",
        "(Ldemo/Outer;Ljava/lang/String;)V",
        false,
        &["this", "this$0", "name"],
    );
    let t = s.thread("main");
    let o = s.new_object(t, outer);
    let text = s.string(t, "héllo wörld");
    s.call(t, ctor, &[Value::Object(o), Value::Str(text)]);
    let uninit_ts = s.event(
        t,
        EventKind::FieldWriteUninit {
            field: this0,
            value: Value::Object(o),
        },
    );
    let obj = s.new_object(t, inner);
    s.event(t, EventKind::This(obj));
    s.field_write(t, obj, name, Value::Str(text));
    s.event(
        t,
        EventKind::StaticWrite {
            field: count,
            value: Value::Boxed(crate::trace::wire::Primitive::Int(1)),
        },
    );
    s.ret(t, Value::Void);
    record_to(&s.end(0), &path, WriterConfig::default());
    let r = TraceReader::open(&path).unwrap();
    let node = r
        .preorder()
        .map(|n| n.unwrap())
        .find(|n| n.header.method == Some(ctor))
        .unwrap();
    let d = r.node_detail(node.header.id).unwrap().unwrap();
    assert_eq!(d.this, Some(Value::Object(obj)));
    assert_eq!(
        d.args
            .iter()
            .map(|a| (a.name.as_str(), a.value))
            .collect::<Vec<_>>(),
        vec![("this$0", Value::Object(o)), ("name", Value::Str(text))]
    );
    assert_eq!(
        r.history(Variable::Field {
            object: obj,
            field: this0
        })
        .unwrap()[0]
            .ts,
        uninit_ts
    );
    assert_eq!(
        r.field_at(obj, name, u64::MAX).unwrap(),
        Some(Value::Str(text))
    );
    assert_eq!(r.string(text).unwrap().as_deref(), Some("héllo wörld"));
    assert_eq!(
        r.class_name_of(&Value::Str(text)).unwrap().as_deref(),
        Some("java.lang.String")
    );
    assert_eq!(
        r.static_at(count, 1).unwrap(),
        Some(Value::Int(0)),
        "default before the initialiser"
    );
    assert_eq!(
        r.static_at(count, u64::MAX).unwrap(),
        Some(Value::Boxed(crate::trace::wire::Primitive::Int(1)))
    );
    let m = r.method(ctor).unwrap().unwrap();
    assert_eq!(
        (
            m.hash,
            m.vars.len(),
            r.class(m.class).unwrap().unwrap().name.as_str()
        ),
        ([ctor.0 as u8; 16], 3, "demo.Outer$Inner")
    );
    assert_eq!(
        r.methods_named("demo.Outer$Inner", "<init>").unwrap(),
        vec![ctor]
    );
    assert_eq!(r.fields_of(inner).unwrap().len(), 3);
    assert_eq!(r.field(count).unwrap().unwrap().name, "COUNT");
}

#[test]
fn a_trace_is_readable_while_it_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("live.htrace");
    let (bytes, _) = MergeSort::run();
    let frames: Vec<_> = Decoder::new(&bytes[..])
        .unwrap()
        .map(|f| f.unwrap())
        .collect();
    let mut rec = Recorder::create(
        &path,
        NullSink,
        WriterConfig {
            commit_events: 1,
            ..WriterConfig::default()
        },
    )
    .unwrap();
    let (events_frame, _) = frames
        .iter()
        .enumerate()
        .find(|(_, f)| matches!(f, crate::trace::wire::Frame::Events { .. }))
        .unwrap();
    for f in &frames[..events_frame] {
        rec.handle(f, None).unwrap();
    }
    let r = TraceReader::open(&path).unwrap();
    assert_eq!(r.info().unwrap().status, "recording");
    // A trace being written is read query by query, so that each sees the latest commit.
    assert!(!r.is_held());
    assert_eq!(r.node(NodeId(2)).unwrap(), None);
    // Every value of the run is in the trace and its WAL: readable by the owner only.
    for suffix in ["", "-wal"] {
        use std::os::unix::fs::PermissionsExt;
        let file = dir.path().join(format!("live.htrace{suffix}"));
        let mode = std::fs::metadata(&file).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "{} has mode {mode:o}", file.display());
    }
    rec.handle(&frames[events_frame], None).unwrap();
    let main = r
        .node(NodeId(2))
        .unwrap()
        .expect("main is visible after the commit");
    assert!(main.header.is_complete());
    assert_eq!(r.info().unwrap().status, "recording");
    rec.finish(Ending::End { exit_status: 0 }).unwrap();
    assert_eq!(r.info().unwrap().status, "complete");
    drop(r);
    // A finished trace is read in one transaction, which batched reads do not nest in.
    assert!(!TraceReader::open(&path).unwrap().is_held());
    let held = TraceReader::open_finished(&path).unwrap();
    assert!(held.is_held());
    let rows = held.nodes(&[NodeId(2), NodeId(1_000_000)]).unwrap();
    assert_eq!(rows[0].as_ref().map(|n| n.header.id), Some(NodeId(2)));
    assert_eq!(rows[1], None);
    assert_eq!(
        held.nodes_after(Some(NodeId(1)), 1).unwrap()[0].header.id,
        NodeId(2)
    );
    drop(held);
    annotate(&path, "peak_rss_bytes", 123_456_i64).unwrap();
    assert_eq!(
        TraceReader::open(&path)
            .unwrap()
            .info()
            .unwrap()
            .peak_rss_bytes,
        Some(123_456)
    );
    let text = dir.path().join("text.htrace");
    std::fs::write(&text, "not a trace at all, not even SQLite").unwrap();
    assert!(matches!(
        annotate(&text, "k", 1),
        Err(StoreError::NotATrace { .. })
    ));
    assert_eq!(
        TraceReader::open(&path)
            .unwrap()
            .info()
            .unwrap()
            .exit_status,
        Some(0)
    );
}

#[test]
fn opening_what_is_not_a_good_trace_says_why_and_where() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good.htrace");
    let (bytes, _) = MergeSort::run();
    record_to(&bytes, &good, WriterConfig::default());
    let open_err = |p: &Path| TraceReader::open(p).err().expect("an error").to_string();

    let text = dir.path().join("notes.txt");
    std::fs::write(&text, "just some text, long enough to fill a header").unwrap();
    let e = open_err(&text);
    assert!(
        e.contains("notes.txt") && e.contains("not an SQLite database"),
        "{e}"
    );

    let empty = dir.path().join("empty.htrace");
    std::fs::write(&empty, "").unwrap();
    assert!(open_err(&empty).contains("empty"));

    let missing = dir.path().join("missing.htrace");
    assert!(open_err(&missing).contains("missing.htrace"));

    let other = dir.path().join("other.db");
    rusqlite::Connection::open(&other)
        .unwrap()
        .execute_batch("CREATE TABLE t(x); INSERT INTO t VALUES (1);")
        .unwrap();
    let e = open_err(&other);
    assert!(
        e.contains("other.db") && e.contains("not a Hindsight trace"),
        "{e}"
    );

    let old = dir.path().join("old.htrace");
    std::fs::copy(&good, &old).unwrap();
    rusqlite::Connection::open(&old)
        .unwrap()
        .execute(
            "UPDATE meta SET value = 99 WHERE key = 'format_version'",
            [],
        )
        .unwrap();
    let e = open_err(&old);
    assert!(
        e.contains("old.htrace") && e.contains("format version 99") && e.contains("newer"),
        "{e}"
    );
    // Version 4 kept nodes as rows: refused, with what to do.
    rusqlite::Connection::open(&old)
        .unwrap()
        .execute("UPDATE meta SET value = 4 WHERE key = 'format_version'", [])
        .unwrap();
    let e = open_err(&old);
    assert!(
        e.contains("old.htrace")
            && e.contains("format version 4, this Hindsight reads versions 5 to 5")
            && e.contains("record the run again"),
        "{e}"
    );

    let cut = dir.path().join("cut.htrace");
    let full = std::fs::read(&good).unwrap();
    std::fs::write(&cut, &full[..full.len() / 2]).unwrap();
    let e = open_err(&cut);
    assert!(
        e.contains("cut.htrace") && e.contains("truncated or corrupt"),
        "{e}"
    );

    // A corrupt page inside: queries fail with an error, never a panic.
    let bad = dir.path().join("bad.htrace");
    let mut bytes = full.clone();
    for b in bytes[4096..].iter_mut() {
        *b ^= 0x5a;
    }
    std::fs::write(&bad, &bytes).unwrap();
    match TraceReader::open(&bad) {
        Err(e) => assert!(e.to_string().contains("bad.htrace"), "{e}"),
        Ok(r) => {
            let res = r
                .preorder()
                .collect::<Result<Vec<_>, _>>()
                .and_then(|_| r.history(Variable::Static { field: FieldId(1) }));
            assert!(res.is_err());
            assert!(res.unwrap_err().to_string().contains("bad.htrace"));
        }
    }

    // Reopening the good trace works, repeatedly.
    for _ in 0..2 {
        let r = TraceReader::open(&good).unwrap();
        assert_eq!(r.info().unwrap().nodes, r.preorder().count() as u64);
    }
}

/// The recorder process killed with SIGKILL mid-run: the trace opens, every node completed by
/// the last commit is intact, the open ones are incomplete. The test runs itself as the child.
#[test]
fn a_killed_recorder_leaves_an_openable_trace() {
    const CHILD: &str = "HINDSIGHT_TEST_KILLED_RECORDER_TRACE";
    if let Ok(path) = std::env::var(CHILD) {
        let (mut s, t) = {
            let mut s = StreamBuilder::new();
            let c = s.class("demo.Loop", true);
            let m = s.method(c, "step", "(I)I", true, &["i"]);
            let main = s.method(c, "main", "()V", true, &[]);
            let t = s.thread("main");
            s.call(t, main, &[]);
            for i in 0..100 {
                s.call(t, m, &[Value::Int(i)]);
                s.line(t, 5);
                s.ret(t, Value::Int(i * 2));
            }
            (s, t)
        };
        s.line(t, 9);
        let bytes = s.killed();
        let mut rec = Recorder::create(
            Path::new(&path),
            NullSink,
            WriterConfig {
                commit_events: 1,
                ..WriterConfig::default()
            },
        )
        .unwrap();
        for f in Decoder::new(&bytes[..]).unwrap().map_while(Result::ok) {
            rec.handle(&f, None).unwrap();
        }
        // Waits for the kill with everything committed and the connection open.
        loop {
            std::thread::sleep(std::time::Duration::from_secs(1));
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("killed.htrace");
    let mut child = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "trace::store::tests::a_killed_recorder_leaves_an_openable_trace",
            "--nocapture",
        ])
        .env(CHILD, &path)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    let ready = loop {
        let done = TraceReader::open(&path)
            .ok()
            .and_then(|r| r.info().ok())
            .is_some_and(|i| i.complete_nodes >= 100);
        if done || started.elapsed() > std::time::Duration::from_secs(60) {
            break done;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(ready, "the child recorder did not commit its nodes");
    let r = TraceReader::open(&path).unwrap();
    let info = r.info().unwrap();
    assert_eq!(
        (info.status.as_str(), info.complete_nodes),
        ("recording", 100)
    );
    let nodes: Vec<NodeRow> = r.preorder().map(|n| n.unwrap()).collect();
    assert_eq!(nodes.len(), 103);
    assert!(nodes
        .iter()
        .filter(|n| n.depth == 2)
        .all(|n| n.header.is_complete()));
    assert!(nodes
        .iter()
        .filter(|n| n.depth < 2)
        .all(|n| !n.header.is_complete()));
    let step = &nodes[50];
    assert_eq!(
        r.node_detail(step.header.id).unwrap().unwrap().result,
        Some(NodeResult::Returned(Value::Int(2 * 47)))
    );
    assert_eq!(r.node_lines(nodes[2].header.id).unwrap(), vec![9]);
}

#[test]
fn readers_and_recorders_can_move_between_threads() {
    fn send<T: Send>() {}
    send::<TraceReader>();
    send::<TraceWriter>();
    send::<Recorder<std::sync::mpsc::Sender<crate::tree::NodeHeader>>>();
}
