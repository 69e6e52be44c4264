//! Origins from recorded reads, on a synthetic trace with block tables: `main(y, z)` fills an
//! array and calls `merge(a, la, c, lb)`, whose `c[lb++] = a[la++]` copies the value; each
//! input leads to the previous write.

use std::path::Path;

use super::*;
use crate::ids::{NodeId, Timestamp};
use crate::trace::recorder::{record, NullSink};
use crate::trace::store::{TraceReader, WriterConfig};
use crate::trace::synthetic::{block_def, StreamBuilder};
use crate::trace::wire::{EventKind, Value};

const MAIN: NodeId = NodeId(2);
const MERGE: NodeId = NodeId(3);

struct Fixture {
    _dir: tempfile::TempDir,
    reader: TraceReader,
    /// `x = y + 1` starts (a `LINE` in the middle of a block), its write, the call of merge,
    /// the statement `c[lb++] = a[la++]` (its `BLOCK`), merge's exit.
    line6: Timestamp,
    write_x: Timestamp,
    call: Timestamp,
    copy: Timestamp,
    end: Timestamp,
}

fn fixture(config: WriterConfig) -> Fixture {
    let mut s = StreamBuilder::new();
    let t = s.thread("main");
    let cls = s.class("p.Main", true);
    let ints = s.class("int[]", false);
    let k = s.field(cls, "K", "I", true);
    // main: line 5 `a = new int[z]`, line 6 `x = y + 1` (same block), line 7 `a[1] = x + K`,
    // line 8 `merge(a, 1, new int[3], 2)`.
    let main = s.method_with_blocks(
        cls,
        "main",
        "(II)V",
        true,
        &["y", "z", "a", "x"],
        vec![
            block_def(0, 5, &[(1, 1), (0, 2), (1, 0), (0, 3)]),
            block_def(6, 7, &[(1, 2), (1, 3), (7, k.0), (4, 0)]),
            block_def(12, 8, &[(1, 2)]),
        ],
    );
    // merge: line 11 `while (la < 2)`, line 12 `c[lb++] = a[la++]`, line 13 return.
    let merge = s.method_with_blocks(
        cls,
        "merge",
        "([II[II)V",
        true,
        &["a", "la", "c", "lb"],
        vec![
            block_def(0, 11, &[(1, 1)]),
            block_def(
                3,
                12,
                &[
                    (1, 2),
                    (1, 3),
                    (1, 3),
                    (0, 3),
                    (1, 0),
                    (1, 1),
                    (1, 1),
                    (0, 1),
                    (5, 0),
                    (4, 0),
                ],
            ),
            block_def(15, 13, &[]),
        ],
    );
    s.call(t, main, &[Value::Int(8), Value::Int(2)]);
    s.block(t, 0);
    let a = s.new_array(t, ints, 2, None);
    s.local(t, 2, Value::Object(a));
    let line6 = s.line(t, 6);
    let write_x = s.local(t, 3, Value::Int(9));
    s.block(t, 1);
    s.static_read(t, k);
    s.array_write(t, a, 1, Value::Int(9));
    s.block(t, 2);
    let c = s.new_array(t, ints, 3, None);
    let call = s.call(
        t,
        merge,
        &[
            Value::Object(a),
            Value::Int(1),
            Value::Object(c),
            Value::Int(2),
        ],
    );
    s.block(t, 0);
    let copy = s.block(t, 1);
    s.local(t, 3, Value::Int(3));
    s.local(t, 1, Value::Int(2));
    s.array_read(t, a, 1);
    s.array_write(t, c, 2, Value::Int(9));
    s.block(t, 2);
    let end = s.ret(t, Value::Void);
    s.ret(t, Value::Void);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.htrace");
    record(s.end(0).as_slice(), &path, NullSink, config).unwrap();
    Fixture {
        reader: TraceReader::open(Path::new(&path)).unwrap(),
        _dir: dir,
        line6,
        write_x,
        call,
        copy,
        end,
    }
}

fn origin_of(f: &Fixture, path: &str, at: Timestamp) -> WriteOrigin {
    let no_source = |_: &str, _: &str| None;
    origin(
        &f.reader,
        &VarPath::parse(path).unwrap(),
        at,
        &no_source,
        RenderLimits::default(),
    )
    .unwrap()
    .write
    .unwrap_or_else(|| panic!("{path} at {at} has a write"))
}

fn inputs(w: &WriteOrigin) -> Vec<(&str, Option<&str>)> {
    w.inputs
        .iter()
        .map(|i| (i.path.as_str(), i.value.as_deref()))
        .collect()
}

#[test]
fn inputs_are_the_reads_of_the_statement_and_lead_back_step_by_step() {
    let configs = [
        WriterConfig::default(),
        WriterConfig {
            commit_events: 3,
            page_bytes: 24,
            block_bytes: 32,
            ..WriterConfig::default()
        },
    ];
    for config in configs {
        let f = fixture(config);
        // c[2] at merge's exit: the copy, which read c, lb, a, la (before their increments)
        // and a[1], named through the local `a` it was read by.
        let w = origin_of(&f, "3:c[2]", f.end);
        assert_eq!((w.node, w.line), (MERGE, Some(12)));
        assert_eq!(
            (w.inputs_from, w.statement_ts),
            (InputSource::Reads, f.copy)
        );
        let got = inputs(&w);
        assert_eq!(
            got,
            [
                ("3:c", Some("[0, 0, 0]")),
                ("3:lb", Some("2")),
                ("3:a", Some("[0, 9]")),
                ("3:la", Some("1")),
                ("3:a[1]", Some("9")),
            ]
        );
        // a[1] at its read: main's `a[1] = x + K` (line 7), which read a, x and K.
        let a1 = &w.inputs[4];
        let w = origin_of(&f, &a1.path, a1.at);
        assert_eq!((w.node, w.line), (MAIN, Some(7)));
        assert_eq!(
            inputs(&w),
            [
                ("2:a", Some("[0, 0]")),
                ("2:x", Some("9")),
                ("static:p.Main.K", Some("0"))
            ]
        );
        // x: `x = y + 1` began with a LINE in the middle of the block whose earlier statement
        // read z: only y is this statement's.
        let x = &w.inputs[1];
        let w = origin_of(&f, &x.path, x.at);
        assert_eq!(
            (w.timestamp, w.line, w.statement_ts),
            (f.write_x, Some(6), f.line6)
        );
        assert_eq!(inputs(&w), [("2:y", Some("8"))]);
        // y is main's argument: the thread node called main; nothing to read there.
        let y = &w.inputs[0];
        let w = origin_of(&f, &y.path, y.at);
        assert_eq!((w.callee, w.inputs_from), (Some(MAIN), InputSource::None));
        // la before its increment is merge's argument, written by main's call on line 8,
        // whose arguments were loaded from a.
        let la = origin_of(&f, "3:la", f.copy);
        assert_eq!(
            (la.timestamp, la.node, la.line, la.callee),
            (f.call, MAIN, Some(8), Some(MERGE))
        );
        assert_eq!(inputs(&la), [("2:a", Some("[0, 9]"))]);
    }
}

#[test]
fn methods_without_block_tables_fall_back_to_the_source_line() {
    let mut s = StreamBuilder::new();
    let t = s.thread("main");
    let cls = s.class("p.Main", true);
    let m = s.method(cls, "run", "(I)V", true, &["n", "m"]);
    s.call(t, m, &[Value::Int(4)]);
    s.line(t, 3);
    s.local(t, 1, Value::Int(5));
    s.event(t, EventKind::Return(Value::Void));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.htrace");
    record(
        s.end(0).as_slice(),
        &path,
        NullSink,
        WriterConfig::default(),
    )
    .unwrap();
    let reader = TraceReader::open(&path).unwrap();
    let source = |_: &str, _: &str| Some("\n\n        m = n + 1;\n".to_string());
    let o = origin(
        &reader,
        &VarPath::parse("2:m").unwrap(),
        s_end(&reader),
        &source,
        RenderLimits::default(),
    )
    .unwrap();
    let w = o.write.unwrap();
    assert_eq!(w.inputs_from, InputSource::SourceLine);
    assert_eq!(inputs(&w), [("2:m", None), ("2:n", Some("4"))]);
}

fn s_end(reader: &TraceReader) -> Timestamp {
    reader
        .node(NodeId(2))
        .unwrap()
        .unwrap()
        .header
        .exit
        .unwrap()
}
