//! Test-only helpers: run Java programs with and without the agent, and a minimal reader of the
//! wire format (docs/wire-format.md) that turns a stream into one text line per event. The real
//! decoder is `core::trace::wire`; this one exists so the agent can be tested on its own.

#![allow(dead_code)]

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub const AGENT_JAR: &str = env!("HINDSIGHT_AGENT_JAR_PATH");

/// The repository's root (the workspace).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("agent/ has a parent")
        .to_path_buf()
}

/// Compiles Java sources (with debug info) into `out`; panics with javac's output on failure.
pub fn javac(sources: &[PathBuf], classpath: Option<&Path>, out: &Path) {
    let mut cmd = Command::new("javac");
    cmd.args(["--release", "17", "-g", "-d"]).arg(out);
    if let Some(cp) = classpath {
        cmd.arg("-cp").arg(cp);
    }
    let o = cmd.args(sources).output().expect("javac runs");
    assert!(
        o.status.success(),
        "javac failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Runs `java -Xverify:all [agent] -cp cp main`.
pub fn java(cp: &str, main: &str, agent_options: Option<&str>) -> Output {
    let mut cmd = Command::new("java");
    cmd.arg("-Xverify:all");
    if let Some(opts) = agent_options {
        cmd.arg(format!("-javaagent:{AGENT_JAR}={opts}"));
    }
    cmd.args(["-cp", cp, main]).output().expect("java runs")
}

#[derive(Debug, Default)]
pub struct Method {
    pub blocks: Vec<Block>,
    pub class: String,
    pub name: String,
    pub vars: Vec<String>,
    pub instrumented: bool,
    pub hash: [u8; 16],
}

/// One entry of a METHOD frame's block table.
#[derive(Debug, Default, Clone)]
pub struct Block {
    pub start: u64,
    pub line: u64,
    /// (kind, target) pairs in instruction order.
    pub effects: Vec<(u8, u64)>,
    /// Its successors in the control flow graph, block indices (wire format 3).
    pub succ: Vec<u64>,
}

#[derive(Debug, Clone)]
pub enum Value {
    Void,
    Null,
    Bool(bool),
    Int(i64),
    Char(u64),
    Float(f64),
    Object(u64),
    Str(u64),
    Boxed(Box<Value>),
}

#[derive(Debug, Clone)]
pub struct Event {
    pub thread: u64,
    /// 0 for STRING, which has no timestamp.
    pub ts: u64,
    pub op: u8,
    pub ints: Vec<u64>,
    pub values: Vec<Value>,
}

/// A decoded stream.
#[derive(Debug, Default)]
pub struct Trace {
    pub classes: HashMap<u64, String>,
    /// The flags of each class's last definition.
    pub class_flags: HashMap<u64, u8>,
    pub methods: HashMap<u64, Method>,
    pub fields: HashMap<u64, String>,
    pub threads: HashMap<u64, String>,
    pub strings: HashMap<u64, String>,
    pub events: Vec<Event>,
    pub warnings: Vec<String>,
    pub end: Option<i64>,
    pub command: String,
}

struct Reader<'a> {
    b: &'a [u8],
    p: usize,
}

impl Reader<'_> {
    fn u8(&mut self) -> Result<u8, String> {
        let v = *self.b.get(self.p).ok_or("unexpected end")?;
        self.p += 1;
        Ok(v)
    }
    fn bytes(&mut self, n: usize) -> Result<&[u8], String> {
        let s = self.b.get(self.p..self.p + n).ok_or("unexpected end")?;
        self.p += n;
        Ok(s)
    }
    fn varint(&mut self) -> Result<u64, String> {
        let mut v = 0u64;
        for shift in (0..70).step_by(7) {
            let x = self.u8()?;
            v |= u64::from(x & 0x7f) << shift;
            if x & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err("varint too long".into())
    }
    fn svarint(&mut self) -> Result<i64, String> {
        let u = self.varint()?;
        Ok((u >> 1) as i64 ^ -((u & 1) as i64))
    }
    fn str(&mut self) -> Result<String, String> {
        let n = self.varint()? as usize;
        String::from_utf8(self.bytes(n)?.to_vec()).map_err(|e| e.to_string())
    }
    fn value(&mut self) -> Result<Value, String> {
        Ok(match self.u8()? {
            0x00 => Value::Void,
            0x01 => Value::Null,
            0x02 => Value::Bool(false),
            0x03 => Value::Bool(true),
            0x04 | 0x06 | 0x07 | 0x08 => Value::Int(self.svarint()?),
            0x05 => Value::Char(self.varint()?),
            0x09 => Value::Float(f64::from(f32::from_le_bytes(
                self.bytes(4)?.try_into().unwrap(),
            ))),
            0x0A => Value::Float(f64::from_le_bytes(self.bytes(8)?.try_into().unwrap())),
            0x0B => Value::Object(self.varint()?),
            0x0C => Value::Str(self.varint()?),
            0x0D => Value::Boxed(Box::new(self.value()?)),
            t => return Err(format!("bad value tag {t:#x} at {}", self.p - 1)),
        })
    }
}

/// Decodes a whole stream; errors name the problem.
pub fn decode(bytes: &[u8]) -> Result<Trace, String> {
    if bytes.len() < 8 || &bytes[..6] != b"HSWIRE" || bytes[6..8] != [3, 0] {
        return Err("missing magic or version 3".into());
    }
    let mut t = Trace::default();
    let mut r = Reader { b: bytes, p: 8 };
    let mut last_ts: HashMap<u64, u64> = HashMap::new();
    let mut seen_ts = std::collections::HashSet::new();
    while r.p < bytes.len() {
        let len = u32::from_le_bytes(r.bytes(4)?.try_into().unwrap()) as usize;
        let frame = r.bytes(len)?;
        let mut f = Reader { b: frame, p: 0 };
        match f.u8()? {
            0x01 => {
                f.varint()?;
                f.varint()?;
                f.str()?;
                t.command = f.str()?;
                f.str()?;
            }
            0x02 => {
                let id = f.varint()?;
                t.classes.insert(id, f.str()?);
                f.str()?;
                t.class_flags.insert(id, f.bytes(1)?[0]);
            }
            0x03 => {
                let id = f.varint()?;
                let class = t
                    .classes
                    .get(&f.varint()?)
                    .cloned()
                    .ok_or("METHOD before its CLASS")?;
                let name = f.str()?;
                f.str()?;
                f.varint()?;
                let instrumented = f.u8()? & 1 == 1;
                let hash = f.bytes(16)?.try_into().unwrap();
                f.varint()?;
                f.varint()?;
                let mut vars = Vec::new();
                for _ in 0..f.varint()? {
                    f.varint()?;
                    vars.push(f.str()?);
                    f.str()?;
                }
                let mut blocks = Vec::new();
                for _ in 0..f.varint()? {
                    let start = f.varint()?;
                    let line = f.varint()?;
                    let mut effects = Vec::new();
                    for _ in 0..f.varint()? {
                        effects.push((f.u8()?, f.varint()?));
                    }
                    blocks.push(Block {
                        start,
                        line,
                        effects,
                        succ: Vec::new(),
                    });
                }
                let n = blocks.len() as u64;
                for b in &mut blocks {
                    for _ in 0..f.varint()? {
                        let s = f.varint()?;
                        if s >= n {
                            return Err(format!("successor {s} of a table of {n} blocks"));
                        }
                        b.succ.push(s);
                    }
                }
                t.methods.insert(
                    id,
                    Method {
                        class,
                        name,
                        vars,
                        instrumented,
                        hash,
                        blocks,
                    },
                );
            }
            0x04 => {
                let id = f.varint()?;
                let class = t
                    .classes
                    .get(&f.varint()?)
                    .cloned()
                    .ok_or("FIELD before its CLASS")?;
                t.fields.insert(id, format!("{class}.{}", f.str()?));
            }
            0x05 => {
                let id = f.varint()?;
                f.varint()?;
                t.threads.insert(id, f.str()?);
            }
            0x06 => {
                let thread = f.varint()?;
                if !t.threads.contains_key(&thread) {
                    return Err(format!("EVENTS of undefined thread {thread}"));
                }
                let mut ts = f.varint()?;
                let count = f.varint()?;
                let mut first = true;
                for _ in 0..count {
                    let op = f.u8()?;
                    let mut e = Event {
                        thread,
                        ts: 0,
                        op,
                        ints: vec![],
                        values: vec![],
                    };
                    if op == 0x11 {
                        let id = f.varint()?;
                        t.strings.insert(id, f.str()?);
                        t.events.push(e);
                        continue;
                    }
                    let dts = f.varint()?;
                    if !first && dts == 0 {
                        return Err("two events share a timestamp".into());
                    }
                    first = false;
                    ts += dts;
                    if last_ts.get(&thread).is_some_and(|&l| ts <= l) {
                        return Err(format!("timestamp {ts} of thread {thread} not increasing"));
                    }
                    if !seen_ts.insert(ts) {
                        return Err(format!("timestamp {ts} used twice"));
                    }
                    last_ts.insert(thread, ts);
                    e.ts = ts;
                    let (ints, vals): (usize, usize) = match op {
                        0x01 | 0x04 => {
                            e.ints.push(f.varint()?);
                            let argc = f.varint()? as usize;
                            (0, argc)
                        }
                        0x02 | 0x03 | 0x05 | 0x06 | 0x0F | 0x10 => (0, 1),
                        0x07 => (1, 0),
                        0x08 => (1, 1),
                        0x09 => (2, 1),
                        0x0A | 0x12 => (1, 1),
                        0x0B => (2, 1),
                        0x0C => {
                            e.ints
                                .extend([f.varint()?, f.varint()?, u64::from(f.u8()?)]);
                            (0, 0)
                        }
                        0x0D => {
                            e.ints.extend([f.varint()?, f.varint()?, f.varint()?]);
                            let origin = f.u8()?;
                            e.ints.push(u64::from(origin));
                            (0, if origin == 1 { e.ints[2] as usize } else { 0 })
                        }
                        0x0E | 0x14 | 0x17 => (1, 0),
                        0x15 | 0x16 => (2, 0),
                        0x13 => {
                            e.ints.push(f.varint()?);
                            let kind = f.u8()?;
                            // Kind 3: a sequence's elements from `start` on.
                            let start = if kind == 3 { f.varint()? } else { 0 };
                            let count = f.varint()? as usize;
                            e.ints.extend([u64::from(kind), count as u64, start]);
                            (0, if kind == 1 { 2 * count } else { count })
                        }
                        o => return Err(format!("bad op {o:#x}")),
                    };
                    for _ in 0..ints {
                        e.ints.push(f.varint()?);
                    }
                    for _ in 0..vals {
                        e.values.push(f.value()?);
                    }
                    t.events.push(e);
                }
                if f.p != frame.len() {
                    return Err("EVENTS frame has trailing bytes".into());
                }
            }
            0x07 => t.end = Some(f.svarint()?),
            0x08 => t.warnings.push(f.str()?),
            x => return Err(format!("bad frame type {x:#x}")),
        }
    }
    Ok(t)
}

impl Trace {
    pub fn value(&self, v: &Value) -> String {
        match v {
            Value::Void => "void".into(),
            Value::Null => "null".into(),
            Value::Bool(b) => b.to_string(),
            Value::Int(i) => i.to_string(),
            Value::Char(c) => format!("'{}'", char::from_u32(*c as u32).unwrap_or('?')),
            Value::Float(x) => format!("{x:?}"),
            Value::Object(id) => format!("#{id}"),
            Value::Str(id) => format!(
                "{:?}",
                self.strings
                    .get(id)
                    .map(String::as_str)
                    .unwrap_or("<undefined string>")
            ),
            Value::Boxed(v) => format!("box {}", self.value(v)),
        }
    }

    fn method_name(&self, id: u64) -> String {
        self.methods
            .get(&id)
            .map(|m| format!("{}.{}", m.class, m.name))
            .unwrap_or_else(|| format!("<method {id}>"))
    }

    /// One line per event (STRING definitions left out), in timestamp order, for one thread or
    /// all; LOCAL names its variable from the method of the innermost open CALL.
    pub fn lines(&self) -> Vec<String> {
        let mut events: Vec<&Event> = self.events.iter().filter(|e| e.op != 0x11).collect();
        events.sort_by_key(|e| e.ts);
        let mut stacks: HashMap<u64, Vec<u64>> = HashMap::new();
        let mut out = Vec::new();
        for e in events {
            let stack = stacks.entry(e.thread).or_default();
            let vals: Vec<String> = e.values.iter().map(|v| self.value(v)).collect();
            let line = match e.op {
                0x01 => {
                    stack.push(e.ints[0]);
                    format!("CALL {}({})", self.method_name(e.ints[0]), vals.join(", "))
                }
                0x02 => {
                    stack.pop();
                    format!("RETURN {}", vals[0])
                }
                0x03 => {
                    stack.pop();
                    format!("UNWIND {}", vals[0])
                }
                0x04 => format!(
                    "EXT_CALL {}({})",
                    self.method_name(e.ints[0]),
                    vals.join(", ")
                ),
                0x05 => format!("EXT_RETURN {}", vals[0]),
                0x06 => format!("EXT_UNWIND {}", vals[0]),
                0x07 => format!("LINE {}", e.ints[0]),
                0x08 => {
                    let name = stack
                        .last()
                        .and_then(|m| self.methods.get(m))
                        .and_then(|m| m.vars.get(e.ints[0] as usize).cloned())
                        .unwrap_or_else(|| format!("<var {}>", e.ints[0]));
                    format!("LOCAL {name} = {}", vals[0])
                }
                0x09 => format!(
                    "FIELD_WRITE #{}.{} = {}",
                    e.ints[0],
                    self.field(e.ints[1]),
                    vals[0]
                ),
                0x0A => format!("STATIC_WRITE {} = {}", self.field(e.ints[0]), vals[0]),
                0x0B => format!("ARRAY_WRITE #{}[{}] = {}", e.ints[0], e.ints[1], vals[0]),
                0x0C => format!(
                    "NEW_OBJECT #{} {} origin {}",
                    e.ints[0],
                    self.class(e.ints[1]),
                    e.ints[2]
                ),
                0x0D => format!(
                    "NEW_ARRAY #{} {} length {} origin {}{}",
                    e.ints[0],
                    self.class(e.ints[1]),
                    e.ints[2],
                    e.ints[3],
                    if vals.is_empty() {
                        String::new()
                    } else {
                        format!(" [{}]", vals.join(", "))
                    }
                ),
                0x0E => format!("THIS #{}", e.ints[0]),
                0x0F => format!("THROW {}", vals[0]),
                0x10 => format!("CATCH {}", vals[0]),
                0x12 => format!("FIELD_WRITE_UNINIT {} = {}", self.field(e.ints[0]), vals[0]),
                0x13 => format!(
                    "CONTENT #{} {} [{}]",
                    e.ints[0],
                    match e.ints[1] {
                        0 => "sequence".to_string(),
                        1 => "map".to_string(),
                        2 => "text".to_string(),
                        3 => format!("sequence from {}", e.ints[3]),
                        _ => "?".to_string(),
                    },
                    vals.join(", ")
                ),
                0x14 => {
                    let line = stack
                        .last()
                        .and_then(|m| self.methods.get(m))
                        .and_then(|m| m.blocks.get(e.ints[0] as usize))
                        .map_or(0, |b| b.line);
                    format!("BLOCK {} line {line}", e.ints[0])
                }
                0x15 => format!("FIELD_READ #{}.{}", e.ints[0], self.field(e.ints[1])),
                0x16 => format!("ARRAY_READ #{}[{}]", e.ints[0], e.ints[1]),
                0x17 => format!("STATIC_READ {}", self.field(e.ints[0])),
                op => format!("<op {op}>"),
            };
            out.push(format!(
                "[{}] {line}",
                self.threads
                    .get(&e.thread)
                    .map(String::as_str)
                    .unwrap_or("?")
            ));
        }
        out
    }

    /// For each thread, the number of CALLs minus the number of RETURNs and UNWINDs.
    pub fn open_calls(&self) -> HashMap<u64, i64> {
        let mut open = HashMap::new();
        for e in &self.events {
            let d = match e.op {
                0x01 => 1,
                0x02 | 0x03 => -1,
                _ => 0,
            };
            *open.entry(e.thread).or_insert(0) += d;
        }
        open
    }

    fn field(&self, id: u64) -> String {
        self.fields
            .get(&id)
            .cloned()
            .unwrap_or_else(|| format!("<field {id}>"))
    }

    fn class(&self, id: u64) -> String {
        self.classes
            .get(&id)
            .cloned()
            .unwrap_or_else(|| format!("<class {id}>"))
    }
}
