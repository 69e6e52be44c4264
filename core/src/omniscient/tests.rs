//! The queries over a synthetic trace: a call `run` that creates an array and a child `set`
//! that writes one of its elements and a static field.

use std::path::Path;

use super::Variable;
use super::*;
use crate::ids::{NodeId, ObjectId, Timestamp};
use crate::trace::recorder::{record, NullSink};
use crate::trace::store::{TraceReader, WriterConfig};
use crate::trace::synthetic::StreamBuilder;
use crate::trace::wire::{EventKind, Value};

struct Fixture {
    _dir: tempfile::TempDir,
    reader: TraceReader,
    array: ObjectId,
    /// Timestamps: the write of a[0], the call of set, the write of a[2], the end of run.
    write0: Timestamp,
    call_set: Timestamp,
    write2: Timestamp,
    end: Timestamp,
}

const RUN: NodeId = NodeId(2);
const SET: NodeId = NodeId(3);

fn fixture(config: WriterConfig) -> Fixture {
    let mut s = StreamBuilder::new();
    let t = s.thread("main");
    let main = s.class("p.Main", true);
    let ints = s.class("int[]", false);
    let run = s.method(main, "run", "([I)V", true, &["a", "i"]);
    let set = s.method(main, "set", "([II)V", true, &["x", "k"]);
    let count = s.field(main, "count", "I", true);
    s.call(t, run, &[Value::Null]);
    s.line(t, 10);
    let array = s.new_array(t, ints, 3, None);
    s.local(t, 0, Value::Object(array));
    s.line(t, 11);
    s.local(t, 1, Value::Int(0));
    let write0 = s.array_write(t, array, 0, Value::Int(5));
    s.line(t, 12);
    let call_set = s.call(t, set, &[Value::Object(array), Value::Int(2)]);
    s.line(t, 20);
    let write2 = s.array_write(t, array, 2, Value::Int(9));
    s.event(
        t,
        EventKind::StaticWrite {
            field: count,
            value: Value::Int(1),
        },
    );
    s.ret(t, Value::Void);
    s.line(t, 13);
    s.local(t, 1, Value::Int(1));
    let end = s.ret(t, Value::Void);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.htrace");
    record(s.end(0).as_slice(), &path, NullSink, config).unwrap();
    let reader = TraceReader::open(Path::new(&path)).unwrap();
    Fixture {
        _dir: dir,
        reader,
        array,
        write0,
        call_set,
        write2,
        end,
    }
}

fn path(text: &str) -> VarPath {
    VarPath::parse(text).unwrap()
}

/// Small index pages and frequent commits, so that lookups cross pages and segments.
fn configs() -> [WriterConfig; 2] {
    [
        WriterConfig::default(),
        WriterConfig {
            commit_events: 3,
            page_bytes: 24,
            block_bytes: 32,
            ..WriterConfig::default()
        },
    ]
}

#[test]
fn paths_resolve_through_the_references_of_their_time() {
    for config in configs() {
        let f = fixture(config);
        let r = resolve(&f.reader, &path("2:a[2]"), f.end).unwrap();
        assert_eq!(
            r.variable,
            Variable::Element {
                array: f.array,
                index: 2
            }
        );
        assert_eq!(r.value, Some(Value::Int(9)));
        assert_eq!(
            resolve(&f.reader, &path("2:a[2]"), f.write2 - 1)
                .unwrap()
                .value,
            Some(Value::Int(0))
        );
        assert_eq!(
            resolve(&f.reader, &path(&format!("obj:{}[0]", f.array)), f.end)
                .unwrap()
                .value,
            Some(Value::Int(5))
        );
        assert_eq!(
            resolve(&f.reader, &path("static:p.Main.count"), f.end)
                .unwrap()
                .value,
            Some(Value::Int(1))
        );
        // Before `a` is assigned (it is null at entry) the path leads nowhere.
        let err = resolve(&f.reader, &path("2:a[2]"), f.write0 - 5)
            .unwrap_err()
            .to_string();
        assert!(err.contains("null on the way"), "{err}");
        let err = resolve(&f.reader, &path("9:a"), f.end)
            .unwrap_err()
            .to_string();
        assert!(err.contains("node 9 is not a call"), "{err}");
    }
}

#[test]
fn history_names_the_writer_and_its_line() {
    for config in configs() {
        let f = fixture(config);
        let h = history(
            &f.reader,
            &path("2:a[2]"),
            None,
            0,
            None,
            RenderLimits::default(),
        )
        .unwrap();
        assert_eq!(h.entries.len(), 1);
        let e = &h.entries[0];
        assert_eq!(
            (e.value.as_str(), e.timestamp, e.node, e.line),
            ("9", f.write2, Some(SET), Some(20))
        );
        assert_eq!(
            (e.method.as_deref(), e.file.as_deref(), e.thread.as_deref()),
            (Some("p.Main.set"), Some("Main.java"), Some("main"))
        );
        let h = history(
            &f.reader,
            &path("2:i"),
            None,
            0,
            None,
            RenderLimits::default(),
        )
        .unwrap();
        let values: Vec<&str> = h.entries.iter().map(|e| e.value.as_str()).collect();
        assert_eq!(values, ["0", "1"]);
        assert_eq!(h.entries[1].line, Some(13));
        let page = history(
            &f.reader,
            &path("2:i"),
            None,
            1,
            Some(5),
            RenderLimits::default(),
        )
        .unwrap();
        assert_eq!((page.total, page.offset, page.entries.len()), (2, 1, 1));
        assert_eq!(page.entries[0], h.entries[1]);
    }
}

#[test]
fn events_are_marked_red_and_yellow_for_a_variable() {
    for config in configs() {
        let f = fixture(config);
        let page = node_events(&f.reader, RUN, 0, 100, Some(&path("2:a[2]"))).unwrap();
        let marked: Vec<(Timestamp, Option<EventMark>)> = page
            .events
            .iter()
            .filter(|e| e.mark.is_some())
            .map(|e| (e.timestamp, e.mark))
            .collect();
        assert_eq!(marked, [(f.call_set, Some(EventMark::ContainsChange))]);
        let texts: Vec<&str> = page.events.iter().map(|e| e.text.as_str()).collect();
        assert!(
            texts.contains(&"i = 0")
                && texts.contains(&"line 11")
                && texts.contains(&"new int[3] #1"),
            "{texts:?}"
        );
        assert!(texts.contains(&"call Main.set([5, 0, 0], 2)"), "{texts:?}");
        assert!(texts.contains(&"return from Main.set"), "{texts:?}");
        let call = page
            .events
            .iter()
            .find(|e| e.timestamp == f.call_set)
            .unwrap();
        assert_eq!(
            (call.kind.as_str(), call.node, call.line),
            ("call", SET, Some(12))
        );
        let inner = node_events(&f.reader, SET, 0, 100, Some(&path("2:a[2]"))).unwrap();
        let red: Vec<Timestamp> = inner
            .events
            .iter()
            .filter(|e| e.mark == Some(EventMark::Changed))
            .map(|e| e.timestamp)
            .collect();
        assert_eq!(red, [f.write2]);
        assert!(inner
            .events
            .iter()
            .any(|e| e.kind == "static-write" && e.text == "Main.count = 1"));
        // Pages: the first two events, then the rest from `next`.
        let first = node_events(&f.reader, RUN, 0, 2, None).unwrap();
        let rest = node_events(&f.reader, RUN, first.next.unwrap(), 100, None).unwrap();
        assert_eq!(first.events.len() + rest.events.len(), page.events.len());
        assert_eq!(rest.events[0].timestamp, page.events[2].timestamp);
        assert_eq!(rest.next, None);
    }
}

#[test]
fn node_state_marks_and_statics() {
    for config in configs() {
        let f = fixture(config);
        let state = node_state(
            &f.reader,
            RUN,
            None,
            &[path("2:a")],
            RenderLimits::default(),
        )
        .unwrap();
        assert_eq!(state.at, f.end);
        let a = state.variables.iter().find(|v| v.name == "a").unwrap();
        // `a` (null at entry) was assigned inside the call: changed, with its elements listed.
        assert_eq!(
            (a.mark, a.entry.as_deref(), a.value.as_deref()),
            (Mark::Changed, Some("null"), Some("[5, 0, 9]"))
        );
        assert_eq!(
            a.children
                .iter()
                .map(|c| c.value.as_deref().unwrap())
                .collect::<Vec<_>>(),
            ["5", "0", "9"]
        );
        let count = state
            .variables
            .iter()
            .find(|v| v.name == "Main.count")
            .unwrap();
        assert_eq!(
            (
                count.mark,
                count.entry.as_deref(),
                count.value.as_deref(),
                count.path.as_str()
            ),
            (Mark::Changed, Some("0"), Some("1"), "static:p.Main.count")
        );
        // In set, x is the same array throughout, but its content changed.
        let inner = node_state(&f.reader, SET, None, &[], RenderLimits::default()).unwrap();
        let x = inner.variables.iter().find(|v| v.name == "x").unwrap();
        assert_eq!(x.mark, Mark::ContentsChanged);
        let k = inner.variables.iter().find(|v| v.name == "k").unwrap();
        assert_eq!(k.mark, Mark::Unchanged);
        let early = node_state(
            &f.reader,
            SET,
            Some(f.call_set),
            &[],
            RenderLimits::default(),
        )
        .unwrap();
        assert!(early.variables.iter().all(|v| v.mark == Mark::Unchanged));
        let err =
            node_state(&f.reader, SET, Some(f.end), &[], RenderLimits::default()).unwrap_err();
        assert!(matches!(err, OmniError::OutsideNode { .. }));
        let page = children_of(
            &f.reader,
            &path("2:a"),
            f.call_set,
            f.end,
            1,
            5,
            RenderLimits::default(),
        )
        .unwrap();
        assert_eq!((page.size, page.children.len()), (Some(3), 2));
        assert_eq!(
            (page.children[1].path.as_str(), page.children[1].mark),
            ("2:a[2]", Mark::Changed)
        );
    }
}

#[test]
fn origin_finds_the_write_and_the_statement_inputs() {
    for config in configs() {
        let f = fixture(config);
        let source = |file: &str, method: &str| -> Option<String> {
            assert_eq!((file, method), ("Main.java", "p.Main.set"));
            let mut lines = vec![String::new(); 30];
            lines[19] = "        x[k] = k + 7; // the write".into();
            Some(lines.join("\n"))
        };
        let o = origin(
            &f.reader,
            &path("2:a[2]"),
            f.end,
            &source,
            RenderLimits::default(),
        )
        .unwrap();
        assert_eq!(o.value.as_deref(), Some("9"));
        let w = o.write.unwrap();
        assert_eq!(
            (w.timestamp, w.node, w.line, w.callee),
            (f.write2, SET, Some(20), None)
        );
        assert_eq!(w.source.as_deref(), Some("x[k] = k + 7; // the write"));
        assert_eq!(w.statement_ts, f.write2 - 1);
        let inputs: Vec<(&str, Option<&str>)> = w
            .inputs
            .iter()
            .map(|i| (i.path.as_str(), i.value.as_deref()))
            .collect();
        assert_eq!(inputs, [("3:x", Some("[5, 0, 0]")), ("3:k", Some("2"))]);
        // An argument comes from the caller's call site.
        let no_source = |_: &str, _: &str| None;
        let o = origin(
            &f.reader,
            &path("3:k"),
            f.write2,
            &no_source,
            RenderLimits::default(),
        )
        .unwrap();
        let w = o.write.unwrap();
        assert_eq!(
            (w.timestamp, w.node, w.line, w.callee, w.method.as_deref()),
            (f.call_set, RUN, Some(12), Some(SET), Some("p.Main.run"))
        );
        assert!(w.inputs.is_empty() && w.source.is_none());
        // A default value has no write.
        let o = origin(
            &f.reader,
            &path("2:a[1]"),
            f.end,
            &no_source,
            RenderLimits::default(),
        )
        .unwrap();
        assert_eq!((o.value.as_deref(), o.write), (Some("0"), None));
    }
}
