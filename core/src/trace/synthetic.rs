//! Builds synthetic wire streams for tests and benchmarks: definitions get the next id,
//! events the next timestamp, and each thread's events go out as one `EVENTS` frame when
//! flushed, so tests control how threads interleave.

use crate::ids::{ClassId, FieldId, MethodId, ObjectId, StringId, ThreadId, Timestamp};
use crate::trace::wire::{
    BlockDef, ClassDef, ContentKind, Effect, EffectKind, Encoder, Event, EventKind, FieldDef,
    Hello, MethodDef, Origin, ThreadDef, Value, VarDef, ACC_STATIC,
};

pub struct StreamBuilder {
    enc: Encoder<Vec<u8>>,
    pending: Vec<(ThreadId, Vec<Event>)>,
    ts: Timestamp,
    classes: u32,
    methods: u32,
    fields: u32,
    threads: u32,
    objects: u64,
    strings: u64,
    /// The bytecode hash of the next method defined, instead of one made of its id.
    next_hash: Option<[u8; 16]>,
}

impl Default for StreamBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl StreamBuilder {
    /// A stream with its header and `HELLO` frame.
    pub fn new() -> Self {
        let mut enc = Encoder::new(Vec::new()).expect("writing to a Vec");
        let hello = Hello {
            pid: 4242,
            start_ms: 1_700_000_000_000,
            vm: "synthetic".into(),
            command: "Synthetic".into(),
            agent_version: "test".into(),
        };
        enc.hello(&hello).expect("writing to a Vec");
        StreamBuilder {
            enc,
            pending: Vec::new(),
            ts: 0,
            classes: 0,
            methods: 0,
            fields: 0,
            threads: 0,
            objects: 0,
            strings: 0,
            next_hash: None,
        }
    }

    /// The timestamp of the last event.
    pub fn ts(&self) -> Timestamp {
        self.ts
    }

    pub fn class(&mut self, name: &str, instrumented: bool) -> ClassId {
        self.class_with_flags(name, u8::from(instrumented))
    }

    /// A class with the wire's class flags (bit 0 instrumented, 1 interface, 2 enum, 3 record).
    pub fn class_with_flags(&mut self, name: &str, flags: u8) -> ClassId {
        self.classes += 1;
        let id = ClassId(self.classes);
        let source_file = format!("{}.java", name.rsplit('.').next().unwrap_or(name));
        self.enc
            .class(&ClassDef {
                id,
                name: name.into(),
                source_file,
                flags,
            })
            .expect("vec");
        id
    }

    /// Sends `class`'s definition again, as the agent does when a class named earlier by bytecode
    /// is instrumented.
    pub fn redefine_class(&mut self, id: ClassId, name: &str, instrumented: bool) {
        let source_file = format!("{}.java", name.rsplit('.').next().unwrap_or(name));
        self.enc
            .class(&ClassDef {
                id,
                name: name.into(),
                source_file,
                flags: u8::from(instrumented),
            })
            .expect("vec");
    }

    /// The next method gets this bytecode hash (a method whose code differs between two
    /// streams that otherwise define the same methods).
    pub fn hash_next_method(&mut self, hash: [u8; 16]) {
        self.next_hash = Some(hash);
    }

    /// An instrumented method; `vars` are its local variables in var id order (arguments
    /// first, `this` included for instance methods).
    pub fn method(
        &mut self,
        class: ClassId,
        name: &str,
        descriptor: &str,
        is_static: bool,
        vars: &[&str],
    ) -> MethodId {
        self.method_with_blocks(class, name, descriptor, is_static, vars, Vec::new())
    }

    /// `method` with a block table (see `block_def`).
    pub fn method_with_blocks(
        &mut self,
        class: ClassId,
        name: &str,
        descriptor: &str,
        is_static: bool,
        vars: &[&str],
        blocks: Vec<BlockDef>,
    ) -> MethodId {
        self.methods += 1;
        let id = MethodId(self.methods);
        let vars = vars
            .iter()
            .enumerate()
            .map(|(i, v)| VarDef {
                slot: i as u32,
                name: (*v).into(),
                descriptor: "I".into(),
            })
            .collect();
        let access = if is_static { ACC_STATIC | 1 } else { 1 };
        let hash = self.next_hash.take().unwrap_or([self.methods as u8; 16]);
        let m = MethodDef {
            id,
            class,
            name: name.into(),
            descriptor: descriptor.into(),
            access,
            flags: 1,
            hash,
            first_line: 1,
            last_line: 99,
            vars,
            blocks,
        };
        self.enc.method(&m).expect("vec");
        id
    }

    /// A method of uninstrumented code.
    pub fn external_method(&mut self, class: ClassId, name: &str, descriptor: &str) -> MethodId {
        self.methods += 1;
        let id = MethodId(self.methods);
        let m = MethodDef {
            id,
            class,
            name: name.into(),
            descriptor: descriptor.into(),
            access: 1,
            flags: 0,
            hash: [0; 16],
            first_line: 0,
            last_line: 0,
            vars: vec![],
            blocks: vec![],
        };
        self.enc.method(&m).expect("vec");
        id
    }

    pub fn field(
        &mut self,
        class: ClassId,
        name: &str,
        descriptor: &str,
        is_static: bool,
    ) -> FieldId {
        self.fields += 1;
        let id = FieldId(self.fields);
        self.enc
            .field(&FieldDef {
                id,
                class,
                name: name.into(),
                descriptor: descriptor.into(),
                flags: u8::from(is_static),
            })
            .expect("vec");
        id
    }

    pub fn thread(&mut self, name: &str) -> ThreadId {
        self.threads += 1;
        let id = ThreadId(self.threads);
        self.enc
            .thread(&ThreadDef {
                id,
                java_id: u64::from(self.threads),
                name: name.into(),
            })
            .expect("vec");
        id
    }

    /// Appends an event at the next timestamp and returns that timestamp.
    pub fn event(&mut self, thread: ThreadId, kind: EventKind) -> Timestamp {
        let timed = !matches!(kind, EventKind::String { .. });
        if timed {
            self.ts += 1;
        }
        let ev = Event { ts: self.ts, kind };
        match self.pending.iter_mut().find(|(t, _)| *t == thread) {
            Some((_, evs)) => evs.push(ev),
            None => self.pending.push((thread, vec![ev])),
        }
        self.ts
    }

    pub fn call(&mut self, t: ThreadId, method: MethodId, args: &[Value]) -> Timestamp {
        self.event(
            t,
            EventKind::Call {
                method,
                args: args.to_vec(),
            },
        )
    }
    pub fn ret(&mut self, t: ThreadId, v: Value) -> Timestamp {
        self.event(t, EventKind::Return(v))
    }
    pub fn unwind(&mut self, t: ThreadId, v: Value) -> Timestamp {
        self.event(t, EventKind::Unwind(v))
    }
    pub fn line(&mut self, t: ThreadId, line: u32) -> Timestamp {
        self.event(t, EventKind::Line(line))
    }
    pub fn local(&mut self, t: ThreadId, var: u32, value: Value) -> Timestamp {
        self.event(t, EventKind::Local { var, value })
    }
    pub fn array_write(
        &mut self,
        t: ThreadId,
        array: ObjectId,
        index: u32,
        value: Value,
    ) -> Timestamp {
        self.event(
            t,
            EventKind::ArrayWrite {
                array,
                index,
                value,
            },
        )
    }
    pub fn field_write(
        &mut self,
        t: ThreadId,
        object: ObjectId,
        field: FieldId,
        value: Value,
    ) -> Timestamp {
        self.event(
            t,
            EventKind::FieldWrite {
                object,
                field,
                value,
            },
        )
    }

    /// A basic block starts (its line comes from the method's table in the recorder).
    pub fn block(&mut self, t: ThreadId, block: u32) -> Timestamp {
        self.event(t, EventKind::Block { block, line: 0 })
    }
    pub fn field_read(&mut self, t: ThreadId, object: ObjectId, field: FieldId) -> Timestamp {
        self.event(t, EventKind::FieldRead { object, field })
    }
    pub fn array_read(&mut self, t: ThreadId, array: ObjectId, index: u32) -> Timestamp {
        self.event(t, EventKind::ArrayRead { array, index })
    }
    pub fn static_read(&mut self, t: ThreadId, field: FieldId) -> Timestamp {
        self.event(t, EventKind::StaticRead { field })
    }
    pub fn static_write(&mut self, t: ThreadId, field: FieldId, value: Value) -> Timestamp {
        self.event(t, EventKind::StaticWrite { field, value })
    }
    /// The content of a JDK object (a map's `values` are key, value, ...).
    pub fn content(
        &mut self,
        t: ThreadId,
        object: ObjectId,
        kind: ContentKind,
        values: Vec<Value>,
    ) -> Timestamp {
        self.event(
            t,
            EventKind::Content {
                object,
                kind,
                start: 0,
                values,
            },
        )
    }
    /// A sequence's elements from `start` on, the earlier ones unchanged (the tail form).
    pub fn content_tail(
        &mut self,
        t: ThreadId,
        object: ObjectId,
        start: u32,
        values: Vec<Value>,
    ) -> Timestamp {
        self.event(
            t,
            EventKind::Content {
                object,
                kind: ContentKind::Sequence,
                start,
                values,
            },
        )
    }
    /// An object of uninstrumented code first seen (`NEW_OBJECT` with origin 1).
    pub fn first_seen_object(&mut self, t: ThreadId, class: ClassId) -> ObjectId {
        self.objects += 1;
        let object = ObjectId(self.objects);
        self.event(
            t,
            EventKind::NewObject {
                object,
                class,
                origin: Origin::FirstSeen,
            },
        );
        object
    }

    /// A new object created by application code.
    pub fn new_object(&mut self, t: ThreadId, class: ClassId) -> ObjectId {
        self.objects += 1;
        let object = ObjectId(self.objects);
        self.event(
            t,
            EventKind::NewObject {
                object,
                class,
                origin: Origin::Created,
            },
        );
        object
    }

    /// A new array: created by application code (all defaults) when `elements` is `None`,
    /// first seen with these elements otherwise.
    pub fn new_array(
        &mut self,
        t: ThreadId,
        class: ClassId,
        length: u32,
        elements: Option<Vec<Value>>,
    ) -> ObjectId {
        self.objects += 1;
        let array = ObjectId(self.objects);
        let (origin, elements) = match elements {
            Some(e) => (Origin::FirstSeen, e),
            None => (Origin::Created, Vec::new()),
        };
        self.event(
            t,
            EventKind::NewArray {
                array,
                class,
                length,
                origin,
                elements,
            },
        );
        array
    }

    /// Defines a string in `t`'s stream (no timestamp).
    pub fn string(&mut self, t: ThreadId, text: &str) -> StringId {
        self.strings += 1;
        let string = StringId(self.strings);
        self.event(
            t,
            EventKind::String {
                string,
                text: text.into(),
            },
        );
        string
    }

    /// Writes `thread`'s pending events as one `EVENTS` frame.
    pub fn flush(&mut self, thread: ThreadId) {
        if let Some(i) = self.pending.iter().position(|(t, _)| *t == thread) {
            let (t, evs) = self.pending.remove(i);
            self.enc.events(t, &evs).expect("vec");
        }
    }

    pub fn flush_all(&mut self) {
        while let Some((t, _)) = self.pending.first() {
            let t = *t;
            self.flush(t);
        }
    }

    pub fn warning(&mut self, message: &str) {
        self.enc.warning(message).expect("vec");
    }

    /// Flushes and ends the stream with `END`.
    pub fn end(mut self, exit_status: i64) -> Vec<u8> {
        self.flush_all();
        self.enc.end(exit_status).expect("vec");
        self.enc.into_inner()
    }

    /// Flushes and stops without `END`, as when the JVM is killed.
    pub fn killed(mut self) -> Vec<u8> {
        self.flush_all();
        self.enc.into_inner()
    }
}

/// The stream of a program whose `p.Main.main` calls `f(i)` (line 3, returning `2 * i`) for `i`
/// in `0..calls`, its thread's events sent as a frame after call `i` whenever `i % flush_every`
/// is 0. `whole` ends the stream after `main` returns; otherwise it stops after the last call, as
/// a killed program's would, so that a shorter stream is a prefix of a longer one.
pub fn calls_stream(calls: u32, flush_every: u32, whole: bool) -> Vec<u8> {
    let mut b = StreamBuilder::new();
    let c = b.class("p.Main", true);
    let main = b.method(c, "main", "([Ljava/lang/String;)V", true, &["args"]);
    let f = b.method(c, "f", "(I)I", true, &["x"]);
    let t = b.thread("main");
    b.call(t, main, &[Value::Null]);
    for i in 0..calls {
        b.call(t, f, &[Value::Int(i as i32)]);
        b.line(t, 3);
        b.ret(t, Value::Int(2 * i as i32));
        if i % flush_every.max(1) == 0 {
            b.flush_all();
        }
    }
    if !whole {
        return b.killed();
    }
    b.ret(t, Value::Void);
    b.end(0)
}

/// A block table entry: `effects` as (kind, target) pairs, kinds numbered as on the wire
/// (0 local write, 1 local read, 2 field write, 3 field read, 4 array write, 5 array read,
/// 6 static write, 7 static read).
pub fn block_def(start: u32, line: u32, effects: &[(u8, u32)]) -> BlockDef {
    BlockDef {
        start,
        line,
        effects: effects
            .iter()
            .map(|&(k, target)| Effect {
                kind: EffectKind::from_byte(k).expect("effect kind 0..=7"),
                target,
            })
            .collect(),
        succ: Vec::new(),
    }
}

/// `blocks` with the successors `succ[b]` of each block (wire format 3), from which the recorder
/// finds loops.
pub fn with_successors(mut blocks: Vec<BlockDef>, succ: &[&[u32]]) -> Vec<BlockDef> {
    for (b, s) in blocks.iter_mut().zip(succ) {
        b.succ = s.to_vec();
    }
    blocks
}
