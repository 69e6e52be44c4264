//! The run as Java Event Log facts (JavaTA, Table 2), for Prolog: `event(Id, Thread, E)` with
//! `E` one of `methodcall(l(File, Line), o(Class, Id) | c(Class), Name, Args)`,
//! `methodexit(CallId, Location, Instance|Class, Name, Value)`, `setfield(Location,
//! Instance|Class, Field, Value)`, `datastructure(Location, Contents)`, `step(Location,
//! [lv(Name, Value)...])`, `exception(Location, Instance, Message, CatchLocation | uncaught)`,
//! `threadstart(Group)`, `threaddeath(Group)`, `memberfields(c(Class), [of(F) | cf(F)...])`;
//! and two extensions the paper's grammar allows for: `methodunwind(CallId, Location,
//! Instance|Class, Name, Exception)` for a call left by an exception (the paper has no exit
//! for it) and `setelement(Location, o(Class, Id), Index, Value)` for array writes.
//!
//! Ids are the trace's timestamps, so that `hindsight query` and `events` take over from an
//! answer. Facts the trace has no event for get ids between the events': `threadstart` at its
//! thread's first event - 0.25, `threaddeath` at its last + 0.25, an exception that the JVM or
//! uninstrumented code raised (no `throw` event) at the event that first shows it - 0.5, and
//! `memberfields` negative ids (-class id). A call on `null` (the JVM throws before entering
//! it) has no facts: the exception is the caller's. Values: numbers, `true`/`false`, `null`,
//! `void`, strings as SWI-Prolog strings, chars as `char(Code)`, objects as `o(Class, Id)`.
//! The exception's message is not recorded (`unknown`).
//!
//! One pass over the history ([`super::scan::Scanner`]), streamed to a writer.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::fmt::Write as _;
use std::io::Write;

use serde::Serialize;

use super::error::{QueryError, QueryResult};
use super::exceptions::{ThrowTracker, Thrown};
use super::methods::has_receiver;
use super::scan::{ProgressFn, ScanProgress, Scanner, Span};
use crate::ids::{ClassId, MethodId, NodeId, ObjectId, StringId, ThreadId, Timestamp};
use crate::trace::store::TraceReader;
use crate::trace::wire::{EventKind, MethodDef, Value};

/// The rule library: the paper's queries written over the facts (`hindsight prolog` consults
/// it after the facts).
pub const RULES: &str = include_str!("javata.pl");

/// What to export.
#[derive(Clone, Copy, Debug, Default)]
pub struct JelOptions {
    pub span: Span,
    /// Only this call's events (its thread between its call and its exit).
    pub call: Option<NodeId>,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct JelStats {
    /// Events read and facts written.
    pub events: u64,
    pub facts: u64,
    pub scanned: ScanProgress,
}

/// A quoted atom.
fn atom(out: &mut String, text: &str) {
    quoted(out, text, '\'');
}

/// A string (SWI-Prolog's string type).
fn string(out: &mut String, text: &str) {
    quoted(out, text, '"');
}

/// `text` between `quote`s, escaped as Prolog reads it.
fn quoted(out: &mut String, text: &str, quote: char) {
    out.push(quote);
    for c in text.chars() {
        match c {
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\x{:x}\\", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push(quote);
}

fn float(out: &mut String, f: f64) {
    if f.is_nan() {
        out.push_str("'NaN'");
    } else if f.is_infinite() {
        out.push_str(if f > 0.0 { "'Infinity'" } else { "'-Infinity'" });
    } else {
        let s = format!("{f:?}");
        out.push_str(&s);
        if !s.contains(['.', 'e', 'E']) {
            out.push_str(".0");
        }
    }
}

/// Appends an integer without the formatting machinery (the export writes millions).
fn push_int(out: &mut String, x: i64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    let mut n = x.unsigned_abs();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    if x < 0 {
        out.push('-');
    }
    out.push_str(std::str::from_utf8(&buf[i..]).unwrap_or("0"));
}

fn int(x: i64) -> String {
    let mut s = String::with_capacity(8);
    push_int(&mut s, x);
    s
}

/// Ids of facts without an event of their own (see the module's doc).
fn id(out: &mut String, ts: Timestamp, offset: f64) {
    if offset == 0.0 {
        push_int(out, ts.min(i64::MAX as u64) as i64);
    } else {
        float(out, ts as f64 + offset);
    }
}

/// One open call of a thread, as the facts need it.
struct JelFrame {
    call_ts: Timestamp,
    method: Option<MethodId>,
    /// The receiver term, or `c(Class)` for a static method; `None` while a constructor has
    /// not initialised `this` yet.
    receiver: Option<String>,
    /// Facts waiting for the receiver (a constructor's call and its writes before `this`).
    deferred: Vec<Deferred>,
    /// Local variables so far, by var id: name and value term.
    locals: Vec<Option<(String, String)>>,
}

enum Deferred {
    Call {
        ts: Timestamp,
        head: String,
        tail: String,
    },
    SetField {
        ts: Timestamp,
        loc: String,
        tail: String,
    },
}

struct Writer<'r, W: Write> {
    reader: &'r TraceReader,
    out: W,
    buf: String,
    facts: u64,
    methods: HashMap<MethodId, Option<MethodDef>>,
    classes: HashMap<ClassId, String>,
    class_files: HashMap<ClassId, String>,
    objects: HashMap<ObjectId, ClassId>,
    strings: HashMap<StringId, Option<String>>,
    threads: HashMap<ThreadId, String>,
    frames: HashMap<NodeId, JelFrame>,
    /// Calls on `null`: no facts.
    skipped: HashSet<NodeId>,
    first_seen: HashMap<ThreadId, (Timestamp, Timestamp, usize)>,
    last_thread: Option<(ThreadId, String)>,
    fields: HashMap<crate::ids::FieldId, (String, Option<ClassId>)>,
}

type R<T> = QueryResult<T>;

impl<W: Write> Writer<'_, W> {
    fn flush_fact(&mut self) -> R<()> {
        self.buf.push_str(".\n");
        self.out.write_all(self.buf.as_bytes())?;
        self.buf.clear();
        self.facts += 1;
        Ok(())
    }

    fn method(&mut self, id: MethodId) -> R<Option<&MethodDef>> {
        if !self.methods.contains_key(&id) {
            self.methods.insert(id, self.reader.method(id)?);
        }
        Ok(self.methods[&id].as_ref())
    }

    fn class(&mut self, id: ClassId) -> R<String> {
        if let Some(c) = self.classes.get(&id) {
            return Ok(c.clone());
        }
        let (name, file) = match self.reader.class(id)? {
            Some(c) => (c.name, c.source_file),
            None => (format!("#{id}"), String::new()),
        };
        let mut a = String::new();
        atom(&mut a, &name);
        self.classes.insert(id, a.clone());
        let mut f = String::new();
        atom(&mut f, &file);
        self.class_files.insert(id, f);
        Ok(a)
    }

    fn object_class(&mut self, o: ObjectId) -> R<Option<ClassId>> {
        if let Some(c) = self.objects.get(&o) {
            return Ok(Some(*c));
        }
        let c = self.reader.object(o)?.map(|i| i.class);
        if let Some(c) = c {
            self.remember(o, c);
        }
        Ok(c)
    }

    fn remember(&mut self, o: ObjectId, c: ClassId) {
        if self.objects.len() >= 1 << 22 {
            self.objects.clear();
        }
        self.objects.insert(o, c);
    }

    fn object(&mut self, out: &mut String, o: ObjectId) -> R<()> {
        out.push_str("o(");
        match self.object_class(o)? {
            Some(c) => {
                if !self.classes.contains_key(&c) {
                    self.class(c)?;
                }
                out.push_str(&self.classes[&c]);
            }
            None => out.push_str("'?'"),
        }
        out.push(',');
        push_int(out, o.0.min(i64::MAX as u64) as i64);
        out.push(')');
        Ok(())
    }

    fn value(&mut self, out: &mut String, v: &Value) -> R<()> {
        match *v {
            Value::Void => out.push_str("void"),
            Value::Null => out.push_str("null"),
            Value::Boolean(b) => out.push_str(if b { "true" } else { "false" }),
            Value::Char(c) => {
                out.push_str("char(");
                push_int(out, i64::from(c));
                out.push(')');
            }
            Value::Byte(x) => push_int(out, i64::from(x)),
            Value::Short(x) => push_int(out, i64::from(x)),
            Value::Int(x) => push_int(out, i64::from(x)),
            Value::Long(x) => push_int(out, x),
            Value::Float(f) => float(out, f64::from(f)),
            Value::Double(f) => float(out, f),
            Value::Boxed(p) => return self.value(out, &Value::from(p)),
            Value::Object(o) => self.object(out, o)?,
            Value::Str(s) => {
                if !self.strings.contains_key(&s) {
                    if self.strings.len() >= 1 << 18 {
                        self.strings.clear();
                    }
                    self.strings.insert(s, self.reader.string(s)?);
                }
                match self.strings[&s].clone() {
                    Some(t) => string(out, &t),
                    None => {
                        let _ = write!(out, "string({s})");
                    }
                }
            }
        }
        Ok(())
    }

    fn values(&mut self, out: &mut String, vs: &[Value]) -> R<()> {
        out.push('[');
        for (i, v) in vs.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            self.value(out, v)?;
        }
        out.push(']');
        Ok(())
    }

    fn thread(&mut self, t: ThreadId) -> R<String> {
        if let Some((last, a)) = &self.last_thread {
            if *last == t {
                return Ok(a.clone());
            }
        }
        let a = self.thread_atom(t)?;
        self.last_thread = Some((t, a.clone()));
        Ok(a)
    }

    fn thread_atom(&mut self, t: ThreadId) -> R<String> {
        if self.threads.is_empty() {
            for (def, _) in self.reader.threads()? {
                let mut a = String::new();
                atom(&mut a, &def.name);
                self.threads.insert(def.id, a);
            }
        }
        Ok(self
            .threads
            .get(&t)
            .cloned()
            .unwrap_or_else(|| format!("'#{t}'")))
    }

    /// `event(Id, Thread, ` into the buffer.
    fn head(&mut self, ts: Timestamp, offset: f64, thread: ThreadId) -> R<()> {
        if self.last_thread.as_ref().is_none_or(|(t, _)| *t != thread) {
            self.thread(thread)?;
        }
        let mut b = std::mem::take(&mut self.buf);
        b.push_str("event(");
        id(&mut b, ts, offset);
        b.push(',');
        if let Some((_, a)) = &self.last_thread {
            b.push_str(a);
        }
        b.push(',');
        self.buf = b;
        Ok(())
    }

    /// A fact whose term is the concatenation of `parts` (no formatting on the hot path).
    fn fact_parts(
        &mut self,
        ts: Timestamp,
        offset: f64,
        thread: ThreadId,
        parts: &[&str],
    ) -> R<()> {
        self.head(ts, offset, thread)?;
        for p in parts {
            self.buf.push_str(p);
        }
        self.buf.push(')');
        self.flush_fact()
    }

    fn fact(&mut self, ts: Timestamp, offset: f64, thread: ThreadId, body: &str) -> R<()> {
        self.head(ts, offset, thread)?;
        self.buf.push_str(body);
        self.buf.push(')');
        self.flush_fact()
    }

    /// `l(File,Line)` of a method's class.
    fn location(&mut self, method: Option<MethodId>, line: u32) -> R<String> {
        let class = match method {
            Some(m) => self.method(m)?.map(|d| d.class),
            None => None,
        };
        let mut out = String::with_capacity(32);
        out.push_str("l(");
        match class {
            Some(c) => {
                if !self.class_files.contains_key(&c) {
                    self.class(c)?;
                }
                out.push_str(self.class_files.get(&c).map_or("''", |f| f.as_str()));
            }
            None => out.push_str("''"),
        }
        out.push(',');
        push_int(&mut out, i64::from(line));
        out.push(')');
        Ok(out)
    }

    fn name(&mut self, method: Option<MethodId>) -> R<String> {
        let mut a = String::new();
        match method {
            Some(m) => match self.method(m)? {
                Some(d) => atom(&mut a, &d.name.clone()),
                None => atom(&mut a, &format!("#{m}")),
            },
            None => a.push_str("'?'"),
        }
        Ok(a)
    }

    fn class_term(&mut self, method: MethodId) -> R<String> {
        let class = self.method(method)?.map(|d| d.class);
        Ok(match class {
            Some(c) => format!("c({})", self.class(c)?),
            None => "c('?')".into(),
        })
    }

    fn frame(&mut self, node: NodeId, method: Option<MethodId>) -> R<&mut JelFrame> {
        if !self.frames.contains_key(&node) {
            // A call opened before the exported span: its receiver from its node.
            let (call_ts, receiver) = match self.reader.node_detail(node)? {
                Some(d) => {
                    let r = match (d.this, method) {
                        (Some(v), _) => {
                            let mut s = String::new();
                            self.value(&mut s, &v)?;
                            Some(s)
                        }
                        (None, Some(m)) => Some(self.class_term(m)?),
                        (None, None) => None,
                    };
                    (d.row.header.entry, r)
                }
                None => (0, None),
            };
            self.frames.insert(
                node,
                JelFrame {
                    call_ts,
                    method,
                    receiver,
                    deferred: Vec::new(),
                    locals: Vec::new(),
                },
            );
        }
        Ok(self.frames.get_mut(&node).expect("inserted above"))
    }

    fn flush_deferred(&mut self, node: NodeId, thread: ThreadId) -> R<()> {
        let Some(f) = self.frames.get_mut(&node) else {
            return Ok(());
        };
        let receiver = f.receiver.clone().unwrap_or_else(|| "'?'".into());
        let deferred = std::mem::take(&mut f.deferred);
        for d in deferred {
            match d {
                Deferred::Call { ts, head, tail } => self.fact(
                    ts,
                    0.0,
                    thread,
                    &format!("methodcall({head},{receiver},{tail})"),
                )?,
                Deferred::SetField { ts, loc, tail } => self.fact(
                    ts,
                    0.0,
                    thread,
                    &format!("setfield({loc},{receiver},{tail})"),
                )?,
            }
        }
        Ok(())
    }

    fn exception(&mut self, t: &Thrown) -> R<()> {
        let (thrown_method, catch) = (
            self.reader
                .node(t.thrown.node)?
                .and_then(|r| r.header.method),
            t.caught,
        );
        let loc = self.location(thrown_method, t.thrown.line)?;
        let mut value = String::new();
        self.value(&mut value, &t.value)?;
        let fate = match catch {
            Some(c) => {
                let m = self.reader.node(c.node)?.and_then(|r| r.header.method);
                self.location(m, c.line)?
            }
            None => "uncaught".into(),
        };
        let offset = if t.implicit { -0.5 } else { 0.0 };
        self.fact(
            t.thrown.ts,
            offset,
            t.thread,
            &format!("exception({loc},{value},unknown,{fate})"),
        )
    }
}

/// Writes the facts of `opts`' span to `out`; `progress` hears after each block.
pub fn export(
    reader: &TraceReader,
    opts: JelOptions,
    out: impl Write,
    mut progress: Option<ProgressFn<'_>>,
) -> QueryResult<JelStats> {
    let mut span = opts.span;
    let mut threads = None;
    if let Some(node) = opts.call {
        let row = reader
            .node(node)?
            .ok_or(crate::omniscient::OmniError::NoCall(node))?;
        let Some(thread) = row
            .header
            .thread
            .filter(|_| super::chain::is_call(row.header.kind))
        else {
            return Err(QueryError::NotFound(format!("node {node} is not a call")));
        };
        span.from = span.from.max(row.header.entry);
        span.to = span.to.min(row.header.exit.unwrap_or(Timestamp::MAX));
        threads = Some(vec![thread]);
    }
    let mut w = Writer {
        reader,
        out: std::io::BufWriter::with_capacity(1 << 16, out),
        buf: String::new(),
        facts: 0,
        methods: HashMap::default(),
        classes: HashMap::default(),
        class_files: HashMap::default(),
        objects: HashMap::default(),
        strings: HashMap::default(),
        threads: HashMap::default(),
        frames: HashMap::default(),
        skipped: HashSet::default(),
        first_seen: HashMap::default(),
        last_thread: None,
        fields: HashMap::default(),
    };
    w.out.write_all(
        format!(
            "% Java Event Log (JavaTA, Table 2) of {}\n% written by hindsight export --jel; rules: hindsight prolog\n",
            reader.path().display()
        )
        .as_bytes(),
    )?;
    // memberfields, one per instrumented class (fields or none) and per class with fields.
    let fields: Vec<(u32, Option<String>, bool)> = reader.rows(
        "SELECT c.id, f.name, coalesce(f.flags & 1, 0) FROM classes c LEFT JOIN fields f ON f.class = c.id
         WHERE c.flags & 1 = 1 OR f.id IS NOT NULL ORDER BY c.id, f.id",
        [],
        |r| Ok((r.get(0)?, r.get(1)?, r.get::<_, i64>(2)? == 1)),
    )?;
    let mut i = 0;
    while i < fields.len() {
        let class = fields[i].0;
        let mut list = Vec::new();
        while i < fields.len() && fields[i].0 == class {
            if let Some(name) = &fields[i].1 {
                let mut a = String::new();
                atom(&mut a, name);
                list.push(format!("{}({a})", if fields[i].2 { "cf" } else { "of" }));
            }
            i += 1;
        }
        let c = w.class(ClassId(class))?;
        let body = format!(
            "event(-{class},'',memberfields(c({c}),[{}]))",
            list.join(",")
        );
        w.buf.push_str(&body);
        w.flush_fact()?;
    }
    let mut tracker = ThrowTracker::default();
    let mut scanner = Scanner::new(reader, span, threads.as_deref())?;
    let mut events = 0u64;
    let mut reported = 0;
    loop {
        let p = scanner.progress();
        if p.done != reported {
            reported = p.done;
            if let Some(f) = progress.as_mut() {
                f(p);
            }
        }
        let Some(s) = scanner.next(reader)? else {
            break;
        };
        events += 1;
        let ts = s.event.event.ts;
        let thread = s.thread;
        // Calls still open after the event (the thread node counts one).
        let depth = s.stack.len() - usize::from(s.event.event.kind.is_exit());
        match w.first_seen.get_mut(&thread) {
            Some(x) => {
                x.1 = ts;
                x.2 = depth;
            }
            None => {
                let t = w.thread(thread)?;
                w.fact(ts, -0.25, thread, &format!("threadstart({t})"))?;
                w.first_seen.insert(thread, (ts, ts, depth));
            }
        }
        for t in tracker.feed(reader, &s)? {
            w.exception(&t)?;
        }
        let top = s.stack.last().copied();
        let node = s.event.node;
        let line = s.event.line;
        match &s.event.event.kind {
            EventKind::Call { method, args } | EventKind::ExtCall { method, args } => {
                let external = matches!(s.event.event.kind, EventKind::ExtCall { .. });
                let def = w.method(*method)?.cloned();
                let receiver = def.as_ref().is_some_and(has_receiver);
                if external && receiver && args.first() == Some(&Value::Null) {
                    w.skipped.insert(node);
                    continue;
                }
                let constructor = def.as_ref().is_some_and(|d| d.is_constructor());
                let first_line = if external {
                    0
                } else {
                    def.as_ref().map_or(0, |d| d.first_line)
                };
                let loc = w.location(if external { None } else { Some(*method) }, first_line)?;
                let name = w.name(Some(*method))?;
                let mut list = String::new();
                w.values(&mut list, if receiver { &args[1..] } else { &args[..] })?;
                let recv = if receiver {
                    let mut r = String::new();
                    w.value(&mut r, &args[0])?;
                    Some(r)
                } else if constructor && !external {
                    None
                } else {
                    Some(w.class_term(*method)?)
                };
                // Arguments are the call's first locals.
                let mut locals = Vec::new();
                if let Some(d) = def.as_ref().filter(|_| !external) {
                    let shift = usize::from(receiver);
                    for (k, v) in args.iter().enumerate().skip(shift) {
                        let var = d.arg_var(k) as usize;
                        if let Some(vd) = d.vars.get(var) {
                            let mut a = String::new();
                            atom(&mut a, &vd.name);
                            let mut val = String::new();
                            w.value(&mut val, v)?;
                            if locals.len() <= var {
                                locals.resize(var + 1, None);
                            }
                            locals[var] = Some((a, val));
                        }
                    }
                }
                let frame = JelFrame {
                    call_ts: ts,
                    method: Some(*method),
                    receiver: recv.clone(),
                    deferred: Vec::new(),
                    locals,
                };
                w.frames.insert(node, frame);
                match recv {
                    Some(r) => w.fact_parts(
                        ts,
                        0.0,
                        thread,
                        &["methodcall(", &loc, ",", &r, ",", &name, ",", &list, ")"],
                    )?,
                    None => {
                        let f = w.frames.get_mut(&node).expect("inserted above");
                        f.deferred.push(Deferred::Call {
                            ts,
                            head: loc,
                            tail: format!("{name},{list}"),
                        });
                    }
                }
            }
            EventKind::Return(v)
            | EventKind::ExtReturn(v)
            | EventKind::Unwind(v)
            | EventKind::ExtUnwind(v) => {
                if w.skipped.remove(&node) {
                    continue;
                }
                let method = top.and_then(|f| f.method);
                w.frame(node, method)?;
                w.flush_deferred(node, thread)?;
                let f = w.frames.remove(&node).expect("made above");
                let external = matches!(
                    s.event.event.kind,
                    EventKind::ExtReturn(_) | EventKind::ExtUnwind(_)
                );
                let loc = w.location(
                    if external { None } else { f.method },
                    if external { 0 } else { line },
                )?;
                let receiver = match f.receiver {
                    Some(r) => r,
                    None => match f.method {
                        Some(m) => w.class_term(m)?,
                        None => "'?'".into(),
                    },
                };
                let name = w.name(f.method)?;
                let mut val = String::new();
                w.value(&mut val, v)?;
                let functor = if s.event.event.kind.is_exit()
                    && matches!(
                        s.event.event.kind,
                        EventKind::Return(_) | EventKind::ExtReturn(_)
                    ) {
                    "methodexit"
                } else {
                    "methodunwind"
                };
                w.fact_parts(
                    ts,
                    0.0,
                    thread,
                    &[
                        functor,
                        "(",
                        &int(f.call_ts.min(i64::MAX as u64) as i64),
                        ",",
                        &loc,
                        ",",
                        &receiver,
                        ",",
                        &name,
                        ",",
                        &val,
                        ")",
                    ],
                )?;
            }
            EventKind::Line(l) | EventKind::Block { line: l @ 1.., .. } => {
                let Some(top) = top.filter(|f| f.method.is_some()) else {
                    continue;
                };
                let mut body = String::with_capacity(64);
                body.push_str("step(");
                body.push_str(&w.location(top.method, *l)?);
                body.push_str(",[");
                let f = w.frame(top.node, top.method)?;
                for (i, (n, v)) in f.locals.iter().flatten().enumerate() {
                    if i > 0 {
                        body.push(',');
                    }
                    body.push_str("lv(");
                    body.push_str(n);
                    body.push(',');
                    body.push_str(v);
                    body.push(')');
                }
                body.push_str("])");
                w.fact(ts, 0.0, thread, &body)?;
            }
            EventKind::Local { var, value } => {
                let Some(top) = top.filter(|f| f.method.is_some()) else {
                    continue;
                };
                let name = match w.method(top.method.expect("filtered"))? {
                    Some(d) => d.vars.get(*var as usize).map(|v| v.name.clone()),
                    None => None,
                };
                let mut a = String::new();
                atom(&mut a, &name.unwrap_or_else(|| format!("var{var}")));
                let mut val = String::new();
                w.value(&mut val, value)?;
                let f = w.frame(top.node, top.method)?;
                let i = *var as usize;
                if f.locals.len() <= i {
                    f.locals.resize(i + 1, None);
                }
                f.locals[i] = Some((a, val));
            }
            EventKind::FieldWrite {
                object,
                field,
                value,
            } => {
                let loc = w.location(top.and_then(|f| f.method), line)?;
                let mut o = String::new();
                w.object(&mut o, *object)?;
                let (fname, _) = w.field(*field)?;
                let mut val = String::new();
                w.value(&mut val, value)?;
                w.fact_parts(
                    ts,
                    0.0,
                    thread,
                    &["setfield(", &loc, ",", &o, ",", &fname, ",", &val, ")"],
                )?;
            }
            EventKind::FieldWriteUninit { field, value } => {
                let loc = w.location(top.and_then(|f| f.method), line)?;
                let (fname, _) = w.field(*field)?;
                let mut val = String::new();
                w.value(&mut val, value)?;
                if let Some(top) = top {
                    let f = w.frame(top.node, top.method)?;
                    f.deferred.push(Deferred::SetField {
                        ts,
                        loc,
                        tail: format!("{fname},{val}"),
                    });
                }
            }
            EventKind::StaticWrite { field, value } => {
                let loc = w.location(top.and_then(|f| f.method), line)?;
                let def = reader.field(*field)?;
                let c = match def.as_ref() {
                    Some(d) => w.class(d.class)?,
                    None => "'?'".into(),
                };
                let (fname, _) = w.field(*field)?;
                let mut val = String::new();
                w.value(&mut val, value)?;
                w.fact(
                    ts,
                    0.0,
                    thread,
                    &format!("setfield({loc},c({c}),{fname},{val})"),
                )?;
            }
            EventKind::ArrayWrite {
                array,
                index,
                value,
            } => {
                let loc = w.location(top.and_then(|f| f.method), line)?;
                let mut o = String::new();
                w.object(&mut o, *array)?;
                let mut val = String::new();
                w.value(&mut val, value)?;
                w.fact_parts(
                    ts,
                    0.0,
                    thread,
                    &[
                        "setelement(",
                        &loc,
                        ",",
                        &o,
                        ",",
                        &int(i64::from(*index)),
                        ",",
                        &val,
                        ")",
                    ],
                )?;
            }
            EventKind::Content {
                object,
                start,
                values,
                ..
            } => {
                let loc = w.location(top.and_then(|f| f.method), line)?;
                let mut o = String::new();
                w.object(&mut o, *object)?;
                let mut list = String::new();
                w.values(&mut list, values)?;
                let contents = if *start == 0 {
                    format!("contents({o},{list})")
                } else {
                    format!("contents({o},{start},{list})")
                };
                w.fact(ts, 0.0, thread, &format!("datastructure({loc},{contents})"))?;
            }
            EventKind::NewObject { object, class, .. }
            | EventKind::NewArray {
                array: object,
                class,
                ..
            } => {
                w.remember(*object, *class);
            }
            EventKind::This(object) => {
                if let Some(top) = top {
                    let mut r = String::new();
                    w.object(&mut r, *object)?;
                    w.frame(top.node, top.method)?.receiver = Some(r);
                    w.flush_deferred(top.node, thread)?;
                }
            }
            _ => {}
        }
    }
    for t in tracker.finish() {
        w.exception(&t)?;
    }
    // A thread whose calls have all ended (only its thread node open) has died.
    let mut ended: Vec<(ThreadId, Timestamp)> = w
        .first_seen
        .iter()
        .filter(|(_, (_, _, depth))| *depth <= 1)
        .map(|(t, (_, last, _))| (*t, *last))
        .collect();
    ended.sort_by_key(|(_, ts)| *ts);
    for (t, last) in ended {
        let name = w.thread(t)?;
        w.fact(last, 0.25, t, &format!("threaddeath({name})"))?;
    }
    w.out.flush()?;
    Ok(JelStats {
        events,
        facts: w.facts,
        scanned: scanner.progress(),
    })
}

impl<W: Write> Writer<'_, W> {
    /// A field's name as an atom, and its owner class.
    fn field(&mut self, field: crate::ids::FieldId) -> QueryResult<(String, Option<ClassId>)> {
        if let Some(f) = self.fields.get(&field) {
            return Ok(f.clone());
        }
        let mut a = String::new();
        let def = self.reader.field(field)?;
        match &def {
            Some(f) => atom(&mut a, &f.name),
            None => atom(&mut a, &format!("#{field}")),
        }
        let f = (a, def.map(|d| d.class));
        self.fields.insert(field, f.clone());
        Ok(f)
    }
}
