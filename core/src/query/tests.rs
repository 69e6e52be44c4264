//! The queries on a synthetic trace of the JavaTA paper's traveling null pointer (Figure 1,
//! with the null receiver of `result.equals` as the agent records it) plus a second thread that
//! throws and catches an exception and writes a static field.

use std::path::Path;

use super::catalogue::{run, Answer, Request};
use super::literal::{parse_where, Literal, Op, Operand};
use super::scan::{scan, Span};
use super::*;
use crate::ids::{NodeId, ObjectId, Timestamp};
use crate::trace::recorder::{record, NullSink};
use crate::trace::store::{TraceReader, WriterConfig};
use crate::trace::synthetic::StreamBuilder;
use crate::trace::wire::{EventKind, Value};

struct Fixture {
    dir: tempfile::TempDir,
    reader: TraceReader,
    /// The call of m2 (event), the NPE's unwind out of `equals`, the catch in the worker.
    call_m2: Timestamp,
    npe_unwind: Timestamp,
    catch: Timestamp,
    far: ObjectId,
    last: Timestamp,
}

fn fixture_with(result_of_do_something: Value, name: &str) -> Fixture {
    let mut s = StreamBuilder::new();
    let main = s.thread("main");
    let ex = s.class("p.Ex", true);
    let far_class = s.class("p.Far", true);
    let string = s.class("java.lang.String", false);
    let npe_class = s.class("java.lang.NullPointerException", false);
    let ise = s.class("java.lang.IllegalStateException", false);
    let main_m = s.method(ex, "main", "([Ljava/lang/String;)V", true, &["args"]);
    let init = s.method(ex, "<init>", "()V", false, &["this"]);
    let m1 = s.method(ex, "m1", "()V", false, &["this", "o", "result"]);
    // An overload never called: `calls m1` names m1 once.
    s.method(ex, "m1", "(I)V", false, &["this", "n"]);
    let far_init = s.method(far_class, "<init>", "()V", false, &["this"]);
    let do_something = s.method(
        far_class,
        "doSomeThing",
        "()Ljava/lang/String;",
        false,
        &["this"],
    );
    let m2 = s.method(
        ex,
        "m2",
        "(Ljava/lang/String;)V",
        false,
        &["this", "result"],
    );
    let mn = s.method(
        ex,
        "mN",
        "(Ljava/lang/String;)V",
        false,
        &["this", "result"],
    );
    let equals = s.external_method(string, "equals", "(Ljava/lang/Object;)Z");
    let run_m = s.method(ex, "run", "()V", true, &["n"]);
    let count = s.field(ex, "count", "I", true);
    let label = s.field(far_class, "label", "Ljava/lang/String;", false);
    let some = s.string(main, "some result");

    s.call(main, main_m, &[Value::Null]); // node 2
    s.line(main, 20);
    s.call(main, init, &[]); // node 3
    s.line(main, 2);
    let ex_obj = s.new_object(main, ex);
    s.event(main, EventKind::This(ex_obj));
    s.line(main, 3);
    s.call(main, m1, &[Value::Object(ex_obj)]); // node 4
    s.line(main, 6);
    s.call(main, far_init, &[]); // node 5
    let far = s.new_object(main, far_class);
    s.event(main, EventKind::This(far));
    s.field_write(main, far, label, Value::Str(some));
    s.ret(main, Value::Void);
    s.local(main, 1, Value::Object(far));
    s.line(main, 7);
    s.call(main, do_something, &[Value::Object(far)]); // node 6
    s.line(main, 26);
    s.ret(main, result_of_do_something);
    s.local(main, 2, result_of_do_something);
    s.line(main, 8);
    let call_m2 = s.call(main, m2, &[Value::Object(ex_obj), result_of_do_something]); // node 7
    s.line(main, 11);
    s.call(main, mn, &[Value::Object(ex_obj), result_of_do_something]); // node 8
    s.line(main, 14);
    s.event(
        main,
        EventKind::ExtCall {
            method: equals,
            args: vec![result_of_do_something, Value::Str(some)],
        },
    ); // node 9
    let npe = s.first_seen_object(main, npe_class);
    let npe_unwind = s.event(main, EventKind::ExtUnwind(Value::Object(npe)));
    for _ in 0..5 {
        s.unwind(main, Value::Object(npe));
    }
    s.flush(main);

    let worker = s.thread("worker");
    s.call(worker, run_m, &[Value::Int(3)]); // node 11 (10 is the worker's thread node)
    s.line(worker, 40);
    let e = s.first_seen_object(worker, ise);
    s.event(worker, EventKind::Throw(Value::Object(e)));
    s.line(worker, 41);
    let catch = s.event(worker, EventKind::Catch(Value::Object(e)));
    s.line(worker, 42);
    s.static_write(worker, count, Value::Int(3));
    let last = s.ret(worker, Value::Void);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    record(
        s.end(1).as_slice(),
        &path,
        NullSink,
        WriterConfig::default(),
    )
    .unwrap();
    let reader = TraceReader::open(Path::new(&path)).unwrap();
    Fixture {
        dir,
        reader,
        call_m2,
        npe_unwind,
        catch,
        far,
        last,
    }
}

fn fixture() -> Fixture {
    fixture_with(Value::Null, "t.htrace")
}

fn ask(f: &Fixture, name: &str, args: &[&str]) -> Answer {
    let req = Request {
        name: name.into(),
        args: args.iter().map(|a| a.to_string()).collect(),
        ..Request::default()
    };
    run(&f.reader, &req, None).unwrap_or_else(|e| panic!("{name} {args:?}: {e}"))
}

fn json(a: &Answer) -> serde_json::Value {
    serde_json::to_value(a).unwrap()
}

fn methods(calls: &serde_json::Value) -> Vec<String> {
    calls
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["method"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn scan_visits_every_event_once_in_time_order_with_the_stack() {
    let f = fixture();
    let mut seen = Vec::new();
    let mut depth_ok = true;
    let p = scan(&f.reader, Span::ALL, None, |s| {
        seen.push(s.event.event.ts);
        // The stack's top is the event's node (the callee for a call or an exit).
        depth_ok &= s.stack.last().map(|f| f.node) == Some(s.event.node);
        depth_ok &= s.stack.len() as u32 == s.event.depth + 1;
        Ok(true)
    })
    .unwrap();
    let mut sorted = seen.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(seen, sorted, "in time order, each once");
    assert_eq!(seen.len() as u64, f.reader.info().unwrap().events);
    assert_eq!(p.done, p.total);
    assert!(depth_ok);
    // A span is a subset, and the stack before it is replayed.
    let mut inner = Vec::new();
    scan(
        &f.reader,
        Span::new(Some(f.call_m2), Some(f.npe_unwind)),
        None,
        |s| {
            inner.push((s.event.event.ts, s.stack.len()));
            Ok(true)
        },
    )
    .unwrap();
    assert_eq!(inner.first().map(|x| x.0), Some(f.call_m2));
    assert_eq!(inner.last().map(|x| x.0), Some(f.npe_unwind));
    // m2's call: thread, main, <init>, m1, m2.
    assert_eq!(inner[0].1, 5);
}

#[test]
fn the_papers_three_questions() {
    let f = fixture();
    // Q1: where the uncaught exception was thrown: in mN, whose argument is null.
    let a = json(&ask(&f, "where-exception-is-thrown", &[]));
    let ex = &a["exceptions"];
    assert_eq!(ex.as_array().unwrap().len(), 1, "{a:#}");
    let env = &ex[0]["environment"];
    assert_eq!(env["method"], "p.Ex.mN", "{a:#}");
    assert_eq!(env["args"][0]["name"], "result");
    assert_eq!(env["args"][0]["value"], "null");
    assert_eq!(ex[0]["thread"], "main");
    assert_eq!(ex[0]["class"], "java.lang.NullPointerException");
    assert_eq!(ex[0]["thrown"]["line"], 14);
    // Q2: the call chain of the throw: mN, m2, m1, the constructor, main.
    let thrown = ex[0]["thrown"]["timestamp"].as_u64().unwrap().to_string();
    let chain = json(&ask(&f, "call-chain", &[&thrown]));
    assert_eq!(
        methods(&chain["calls"]),
        ["p.Ex.mN", "p.Ex.m2", "p.Ex.m1", "p.Ex.<init>", "p.Ex.main"]
    );
    assert_eq!(methods(&ex[0]["chain"]), methods(&chain["calls"]));
    // Each caller at the line of its call.
    let lines: Vec<u64> = chain["calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [14, 11, 8, 3, 20]);
    // Q3: the calls completed in m1 before the call of m2: the constructor, doSomeThing = null.
    let pre = json(&ask(
        &f,
        "pre-event-called-methods",
        &[&f.call_m2.to_string()],
    ));
    assert_eq!(pre["environment"]["method"], "p.Ex.m1");
    assert_eq!(
        methods(&pre["calls"]),
        ["p.Far.<init>", "p.Far.doSomeThing"]
    );
    assert_eq!(pre["calls"][1]["outcome"], "returned");
    assert_eq!(pre["calls"][1]["result"]["value"], "null");
    assert_eq!(pre["total"], 2);
}

#[test]
fn where_names_the_enclosing_call_and_a_call_event_is_its_callers() {
    let f = fixture();
    let w = json(&ask(&f, "where", &[&f.call_m2.to_string()]));
    assert_eq!(w["event"]["kind"], "call");
    assert_eq!(w["environment"]["method"], "p.Ex.m1");
    let w = json(&ask(&f, "where", &[&(f.call_m2 + 1).to_string()]));
    assert_eq!(w["environment"]["method"], "p.Ex.m2");
}

#[test]
fn calls_filters_by_arguments_result_and_caller() {
    let f = fixture();
    let all = json(&ask(&f, "calls", &["mN"]));
    assert_eq!(all["total"], 1);
    // A pattern may start at the class's simple name, as a plain name may.
    let pattern = json(&ask(&f, "calls", &["Ex.m*"]));
    assert_eq!(
        pattern["methods"],
        json(&ask(&f, "calls", &["p.Ex.m*"]))["methods"]
    );
    assert!(pattern["total"].as_u64().unwrap() >= 3, "{pattern:#}");
    assert_eq!(
        json(&ask(&f, "calls", &["m1"]))["methods"],
        serde_json::json!(["p.Ex.m1"])
    );
    let q = |cond: &str, caller: Option<&str>| {
        let req = Request {
            name: "calls".into(),
            args: vec!["p.Ex.*".into()],
            condition: Some(cond.into()),
            caller: caller.map(String::from),
            ..Request::default()
        };
        json(&run(&f.reader, &req, None).unwrap())
    };
    // main (its args), m2 and mN got a null argument.
    let null_arg = q("arg0 == null", None);
    assert_eq!(
        methods(&null_arg["calls"]),
        ["p.Ex.main", "p.Ex.m2", "p.Ex.mN"]
    );
    // Only calls made by m2 (`result` is the result, not the parameter of that name).
    let by_name = q("arg0 == null", Some("p.Ex.m2"));
    assert_eq!(methods(&by_name["calls"]), ["p.Ex.mN"]);
    // The result: run returned void, the others threw.
    let returned = q("result == null", None);
    assert_eq!(returned["total"], 0, "{returned:#}");
    let none = q("arg0 == 5", None);
    assert_eq!(none["total"], 0);
    let int = q("n >= 3", None);
    assert_eq!(methods(&int["calls"]), ["p.Ex.run"]);
}

#[test]
fn executed_counts_a_line_and_names_its_calls() {
    let f = fixture();
    let x = json(&ask(&f, "executed", &["Ex.java:14"]));
    assert_eq!(x["executed"], true);
    assert_eq!(x["count"], 1);
    assert_eq!(x["calls"][0]["method"], "p.Ex.mN");
    let never = json(&ask(&f, "executed", &["Ex.java:15"]));
    assert_eq!(never["executed"], false);
    let req = Request {
        name: "executed".into(),
        args: vec!["Nope.java:3".into()],
        ..Request::default()
    };
    let err = run(&f.reader, &req, None).unwrap_err();
    assert!(err.to_string().contains("Nope.java"), "{err}");
    assert!(!err.is_usage());
}

#[test]
fn values_finds_every_variable_that_held_a_value() {
    let f = fixture();
    let v = json(&ask(&f, "values", &["null"]));
    let paths: Vec<&str> = v["holders"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["path"].as_str().unwrap())
        .collect();
    // m1's result, m2's and mN's argument (main's args was null too).
    assert!(paths.contains(&"4:result"), "{paths:?}");
    assert!(paths.contains(&"7:result"), "{paths:?}");
    assert!(paths.contains(&"8:result"), "{paths:?}");
    let text = json(&ask(&f, "values", &["\"some result\""]));
    assert_eq!(text["holders"][0]["path"], format!("obj:{}.label", f.far.0));
    let three = json(&ask(&f, "values", &["3"]));
    let paths: Vec<&str> = three["holders"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, ["11:n", "static:p.Ex.count"]);
}

#[test]
fn exceptions_and_threads() {
    let f = fixture();
    let x = json(&ask(&f, "exceptions", &[]));
    assert_eq!(x["total"], 2, "{x:#}");
    let e = x["exceptions"].as_array().unwrap();
    assert_eq!(e[0]["fate"], "uncaught");
    assert_eq!(e[0]["implicit"], true);
    // A call on null never ran: thrown by its caller, mN.
    assert_eq!(e[0]["thrown"]["method"], "p.Ex.mN");
    assert_eq!(e[0]["unwound"], 5);
    assert_eq!(e[1]["fate"], "caught");
    assert_eq!(e[1]["implicit"], false);
    assert_eq!(e[1]["caught"]["timestamp"], f.catch);
    assert_eq!(e[1]["caught"]["line"], 41);
    let t = json(&ask(&f, "threads", &[]));
    let threads = t["threads"].as_array().unwrap();
    assert_eq!(threads[0]["name"], "main");
    assert_eq!(threads[0]["uncaught"], "java.lang.NullPointerException");
    assert_eq!(threads[1]["status"], "ended");
    assert_eq!(threads[1]["end"], f.last);
    assert!(threads[1]["uncaught"].is_null());
}

#[test]
fn object_state_field_history_and_last_write() {
    let f = fixture();
    let o = json(&ask(&f, "object-state", &[&format!("Far#{}", f.far.0)]));
    assert_eq!(o["class"], "p.Far");
    assert_eq!(o["fields"][0]["name"], "label");
    assert_eq!(o["fields"][0]["value"], "\"some result\"");
    assert_eq!(o["fields"][0]["written"]["method"], "p.Far.<init>");
    let h = json(&ask(&f, "field-history", &["p.Ex", "count"]));
    assert_eq!(h["total"], 1);
    assert_eq!(h["entries"][0]["value"], "3");
    let l = json(&ask(&f, "last-write", &["4:result"]));
    assert_eq!(l["value"]["value"], "null");
    assert_eq!(l["write"]["method"], "p.Ex.m1");
}

#[test]
fn call_tree_lists_calls_to_a_depth() {
    let f = fixture();
    let t = json(&ask(&f, "call-tree", &["4"]));
    assert_eq!(t["root"]["method"], "p.Ex.m1");
    assert_eq!(
        methods(&t["root"]["children"]),
        ["p.Far.<init>", "p.Far.doSomeThing", "p.Ex.m2"]
    );
    // Depth 2: m2's child mN, not mN's child equals.
    let m2 = &t["root"]["children"][2];
    assert_eq!(methods(&m2["children"]), ["p.Ex.mN"]);
    assert_eq!(m2["children"][0]["children"].as_array().unwrap().len(), 0);
    assert_eq!(m2["children"][0]["omitted"], 1);
}

#[test]
fn bad_input_gets_clear_errors() {
    let f = fixture();
    let err = |name: &str, args: &[&str]| {
        let req = Request {
            name: name.into(),
            args: args.iter().map(|a| a.to_string()).collect(),
            ..Request::default()
        };
        run(&f.reader, &req, None).unwrap_err()
    };
    let e = err("nope", &[]);
    assert!(e.is_usage() && e.to_string().contains("call-chain"), "{e}");
    let e = err("call-chain", &[]);
    assert!(e.is_usage() && e.to_string().contains("missing"), "{e}");
    let e = err("call-chain", &["x"]);
    assert!(e.is_usage(), "{e}");
    let e = err("call-chain", &["99999"]);
    assert!(
        !e.is_usage() && e.to_string().contains("no event at timestamp 99999"),
        "{e}"
    );
    let e = err("object-state", &["#999"]);
    assert!(e.to_string().contains("no object #999"), "{e}");
    let e = err("calls", &["nothing.like.this"]);
    assert!(e.to_string().contains("no method"), "{e}");
    let e = err("last-write", &["4:nope"]);
    assert!(e.to_string().contains("nope"), "{e}");
    let e = err("values", &["@@"]);
    assert!(e.is_usage(), "{e}");
    let req = Request {
        name: "threads".into(),
        from: Some(3),
        ..Request::default()
    };
    assert!(run(&f.reader, &req, None).unwrap_err().is_usage());
    assert!(parse_where("arg0 = = 1").is_err());
    assert!(parse_where("x").is_err());
}

#[test]
fn literals_and_conditions_parse() {
    assert_eq!(Literal::parse("null").unwrap(), Literal::Null);
    assert_eq!(Literal::parse("-3").unwrap(), Literal::Int(-3));
    assert_eq!(Literal::parse("2.5").unwrap(), Literal::Float(2.5));
    assert_eq!(Literal::parse("'a'").unwrap(), Literal::Int(97));
    assert_eq!(
        Literal::parse("\"a b\"").unwrap(),
        Literal::Text("a b".into())
    );
    assert_eq!(
        Literal::parse("Node#12").unwrap(),
        Literal::Object(ObjectId(12))
    );
    let c = parse_where("arg1 != 0 && result <= 3 and this == #4").unwrap();
    assert_eq!(c.len(), 3);
    assert_eq!((c[0].operand.clone(), c[0].op), (Operand::Arg(1), Op::Ne));
    assert_eq!((c[1].operand.clone(), c[1].op), (Operand::Result, Op::Le));
    assert_eq!(c[2].operand, Operand::This);
}

#[test]
fn sql_reads_the_event_blocks_and_refuses_writes() {
    let f = fixture();
    let path = f.dir.path().join("t.htrace");
    let sql = sql::Sql::open(&path).unwrap();
    let count = sql.collect("SELECT count(*) FROM events", 10).unwrap();
    assert_eq!(
        count.rows[0][0],
        sql::SqlValue::Integer(f.reader.info().unwrap().events as i64)
    );
    let calls = sql
        .collect(
            "SELECT method, args, result, outcome FROM calls WHERE name = 'mN'",
            10,
        )
        .unwrap();
    assert_eq!(calls.columns, ["method", "args", "result", "outcome"]);
    assert_eq!(calls.rows[0][0], sql::SqlValue::Text("p.Ex.mN".into()));
    assert_eq!(calls.rows[0][1], sql::SqlValue::Text("result=null".into()));
    assert_eq!(calls.rows[0][3], sql::SqlValue::Text("threw".into()));
    let writes = sql
        .collect(
            "SELECT path, value FROM writes WHERE kind = 'static-write'",
            10,
        )
        .unwrap();
    assert_eq!(
        writes.rows,
        [vec![
            sql::SqlValue::Text("static:p.Ex.count".into()),
            sql::SqlValue::Text("3".into())
        ]]
    );
    // The node constraint narrows the scan to the node's events and gives the same rows.
    let own = sql
        .collect(
            "SELECT ts, kind FROM events WHERE node = 6 ORDER BY ts",
            100,
        )
        .unwrap();
    let filtered = sql
        .collect(
            "SELECT ts, kind FROM events WHERE node + 0 = 6 ORDER BY ts",
            100,
        )
        .unwrap();
    assert_eq!(own.rows, filtered.rows);
    assert_eq!(own.rows.len(), 3, "{:?}", own.rows);
    let lines = sql
        .collect("SELECT line FROM lines WHERE thread = 'worker'", 10)
        .unwrap();
    assert_eq!(lines.rows.len(), 3);
    let nobody = sql
        .collect("SELECT count(*) FROM lines WHERE thread = 'nobody'", 10)
        .unwrap();
    assert_eq!(nobody.rows[0][0], sql::SqlValue::Integer(0));
    let objects = sql
        .collect("SELECT class FROM objects WHERE id = 1", 10)
        .unwrap();
    assert_eq!(objects.rows[0][0], sql::SqlValue::Text("p.Ex".into()));
    // Between two timestamps: only those events.
    let span = sql
        .collect("SELECT count(*) FROM events WHERE ts > 3 AND ts <= 10", 10)
        .unwrap();
    assert_eq!(span.rows[0][0], sql::SqlValue::Integer(7));
    let span = sql
        .collect(
            "SELECT count(*) FROM events WHERE ts > 3.5 AND ts <= 10.5",
            10,
        )
        .unwrap();
    assert_eq!(span.rows[0][0], sql::SqlValue::Integer(7));
    let none = sql
        .collect(
            "SELECT count(*) FROM events WHERE ts = 3.5 OR node = NULL",
            10,
        )
        .unwrap();
    assert_eq!(none.rows[0][0], sql::SqlValue::Integer(0));
    for bad in [
        "DELETE FROM methods",
        "CREATE TABLE t(x)",
        "UPDATE meta SET value = 1",
    ] {
        let e = sql.collect(bad, 1).unwrap_err();
        assert!(matches!(e, QueryError::Writes(_)), "{bad}: {e}");
        assert!(e.is_usage());
    }
    let e = sql.collect("SELEC 1", 1).unwrap_err();
    assert!(matches!(e, QueryError::BadSql { .. }), "{e}");
    let e = sql.collect("SELECT 1; SELECT 2", 1).unwrap_err();
    assert!(e.to_string().contains("one statement"), "{e}");
    let e = sql.collect("SELECT nope FROM events", 1).unwrap_err();
    assert!(e.to_string().contains("nope"), "{e}");
}

#[test]
fn jel_writes_the_papers_facts() {
    let f = fixture();
    let mut out = Vec::new();
    let stats = jel::export(&f.reader, jel::JelOptions::default(), &mut out, None).unwrap();
    let text = String::from_utf8(out).unwrap();
    let has = |needle: &str| assert!(text.contains(needle), "no {needle} in\n{text}");
    has("threadstart('main')");
    has("methodcall(l('Ex.java',1),c('p.Ex'),'main',[null])");
    // A constructor's call names its new object (known at THIS).
    has("methodcall(l('Ex.java',1),o('p.Ex',1),'<init>',[])");
    has(&format!(
        "event({},'main',methodcall(l('Ex.java',1),o('p.Ex',1),'m2',[null]))",
        f.call_m2
    ));
    has("methodexit(");
    has("'doSomeThing',null)");
    has("setfield(l('Far.java',0),o('p.Far',2),'label',\"some result\")");
    has("step(l('Ex.java',8),[lv('o',o('p.Far',2)),lv('result',null)])");
    // The JVM's exception, just before the event that showed it; the call on null is left out.
    has(&format!(
        "event({}.5,'main',exception(l('Ex.java',14),o('java.lang.NullPointerException',",
        f.npe_unwind - 1
    ));
    assert!(!text.contains("'equals'"), "{text}");
    has("methodunwind(");
    has(
        "exception(l('Ex.java',40),o('java.lang.IllegalStateException',4),unknown,l('Ex.java',41))",
    );
    has("setfield(l('Ex.java',42),c('p.Ex'),'count',3)");
    has("threaddeath('worker')");
    has("memberfields(c('p.Far'),[of('label')])");
    assert!(stats.facts > 20);
    // Every fact is one line ending in `).`
    for line in text.lines().filter(|l| !l.starts_with('%')) {
        assert!(line.starts_with("event(") && line.ends_with(")."), "{line}");
    }
    // One call only.
    let mut part = Vec::new();
    let opts = jel::JelOptions {
        call: Some(NodeId(6)),
        ..Default::default()
    };
    jel::export(&f.reader, opts, &mut part, None).unwrap();
    let part = String::from_utf8(part).unwrap();
    assert!(
        part.contains("'doSomeThing'") && !part.contains("'m2'"),
        "{part}"
    );
}

#[test]
fn diff_lines_calls_up_by_path_and_reports_the_first_differences() {
    let a = fixture();
    let some = {
        // The fixed run: doSomeThing returns a string (id 1: the first string defined).
        fixture_with(Value::Str(crate::ids::StringId(1)), "fixed.htrace")
    };
    let same = diff::diff_runs(&a.reader, &a.reader, 20).unwrap();
    assert!(same.same && same.compared > 5, "{same:?}");
    let d = diff::diff_runs(&a.reader, &some.reader, 50).unwrap();
    assert!(!d.same);
    let first = d
        .differences
        .iter()
        .find(|x| x.path.ends_with("p.Far.doSomeThing#0"))
        .expect("doSomeThing differs");
    assert_eq!(first.kind, "result");
    let m2 = d
        .differences
        .iter()
        .find(|x| x.path.ends_with("p.Ex.m2#0"))
        .expect("m2 differs");
    assert_eq!(m2.kind, "arguments");
    assert!(m2
        .path
        .starts_with("main#0 / p.Ex.main#0 / p.Ex.<init>#0 / p.Ex.m1#0"));
    // A query's answers, without node ids and timestamps.
    let req = Request {
        name: "calls".into(),
        args: vec!["doSomeThing".into()],
        ..Request::default()
    };
    let qa = serde_json::to_value(run(&a.reader, &req, None).unwrap()).unwrap();
    let qb = serde_json::to_value(run(&some.reader, &req, None).unwrap()).unwrap();
    assert!(diff::diff_answers(&qa, &qa).same);
    let dq = diff::diff_answers(&qa, &qb);
    assert_eq!(dq.differences.len(), 1, "{:?}", dq.differences);
    assert_eq!(dq.differences[0].path, "calls[0].result.value");
    assert_eq!(diff::without_ids("Node#12 and #3"), "Node# and #");
}

#[test]
fn tree_walk_stops_at_depth_and_visits_in_preorder() {
    let f = fixture();
    let mut seen = Vec::new();
    let cut = tree::walk_subtree(&f.reader, NodeId(4), Some(1), |row, level| {
        seen.push((row.header.id.0, level));
        Ok(true)
    })
    .unwrap();
    assert!(cut);
    assert_eq!(seen, [(4, 0), (5, 1), (6, 1), (7, 1)]);
    let mut all = Vec::new();
    tree::walk_subtree(&f.reader, NodeId(4), None, |row, _| {
        all.push(row.header.id.0);
        Ok(all.len() < 4)
    })
    .unwrap();
    assert_eq!(all, [4, 5, 6, 7]);
}
