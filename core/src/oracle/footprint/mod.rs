//! Footprints: a call judged by what it touched, not by everything reachable from its arguments
//! (the balanced-ET paper's Definition 1: the context that matters is the attributes the call
//! can affect; a parser's call that reads three characters of its buffer does not depend on the
//! other eight thousand).
//!
//! A call's footprint, from the events of its subtree ([`walk`]):
//! - its **reads**: each location it read before writing it, with the value it found: `this` and
//!   the arguments, then fields, array elements and static fields as read, in order. Locations
//!   are named from the call's roots (`Root`, then `Field`/`Element` steps from an object named
//!   before), never by object id, and an object is named by the first location it was read
//!   from, so the reads of two calls in two runs compare;
//! - its **effect**: every location it changed with its value at exit, the whole content of
//!   JDK collections and arrays that uninstrumented code changed, the calls it made on JDK
//!   objects whose state the trace does not see (a `PrintStream`, a `Writer`: the output), and
//!   its result or exception. Objects the call created are described by value (their class and
//!   content), the others by name.
//!
//! A loop or an iteration has a footprint too, from its frame's events between its entry and
//! exit: its roots are the frame's `this` and locals at entry, and the locals at exit are part of
//! its effect, as a call's result is. It is matched with the reference run's executions of the
//! same loop. An iteration also reads which iteration of its loop it is (`Position`): javac's
//! for-each keeps its array and index in locals the trace does not record, so without it the
//! pass that ends a loop over words matches an earlier pass that started at the same word.
//! (Reads through the hidden array name no object: such a footprint is incomplete and matches
//! nothing.)
//!
//! A call into uninstrumented code reads the whole content of the arrays and JDK collections it
//! is given. One on an object whose content the trace does not know (a `Reader`) cannot be
//! evaluated from an entry state: what it answered is a read of its own (`Answer`: its result
//! and what it wrote into the program's memory itself, such as the buffer `read(buf)` filled),
//! so that two calls that were answered alike compare, and its call is part of the effect. A lambda (an
//! object of a hidden class) is no such object: the call made it, or it is the program's code,
//! and the JDK's answer (`removeIf`'s) follows from what the call handed it.
//!
//! An object that stands for a name (an enum constant, a `Class`, a `Field`, a `Method`:
//! `ObjectInfo::is_named`) is a value: read, written or described, it hashes as its name,
//! whether the call met it first or not, and the JDK's answers about it are no outside input
//! (a `Field` handed over with another object is: `Field.get`). What the JDK answers from the
//! process's environment (`System.getProperty`, `System.getenv`, the clocks) is an outside
//! input too: two runs of one program need not share it.
//!
//! Both parts are hashed as they are found ([`hash::Hash128`]): equal footprints compare in
//! O(1). The reference oracle's rule 1 looks a buggy call's reads up among the reference calls
//! of its method (`index`), or evaluates the reference calls' read locations in the buggy call's
//! entry state.

pub mod hash;
mod index;

use std::collections::HashMap;

use rustc_hash::{FxHashMap, FxHashSet};

use self::hash::{is_plain, Hash128};
use super::recorded::{CallView, Outcome, RecordedRun};
use crate::ids::{FieldId, NodeId, ObjectId, Timestamp};
use crate::omniscient::{compares_by_class, is_default, HeapResult, ObjectInfo};
use crate::trace::wire::{EventKind, Origin, Value};

pub use index::{FootprintIndex, Judgement};

/// What a walk tells an observer after each read: its location and its digest (the location
/// and the value found, objects named as the call named them, see [`Footprint::digests`]).
/// Returning false stops the walk.
pub type Observer<'o> = dyn FnMut(&Location, u128, &Interner) -> bool + 'o;

/// Reads and writes a footprint holds at most; a larger one is cut and proves nothing.
pub const MAX_ENTRIES: usize = 1 << 16;
/// Events a walk visits at most.
pub const MAX_EVENTS: u64 = 1 << 24;
/// The hash of a static field's value that the trace does not record.
const UNKNOWN_STATIC: u8 = 23;
/// Objects created by a call that an effect describes at most.
const MAX_DESCRIBED: usize = 100_000;

/// Interned texts (field and static names), so that read locations stay small.
#[derive(Default)]
pub struct Interner {
    ids: HashMap<String, u32>,
    texts: Vec<String>,
}

impl Interner {
    pub fn id(&mut self, text: &str) -> u32 {
        if let Some(&i) = self.ids.get(text) {
            return i;
        }
        let i = self.texts.len() as u32;
        self.texts.push(text.to_string());
        self.ids.insert(text.to_string(), i);
        i
    }

    pub fn text(&self, id: u32) -> &str {
        &self.texts[id as usize]
    }
}

/// One step of a location's name (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Step {
    /// `this` (0, when the method has one) or an argument (1 + its index).
    Root(u32),
    /// A static field, `pkg.Class.field` (interned).
    Static(u32),
    /// Which iteration of its loop an iteration is: read first, after the roots.
    Position,
    /// A field of the named object, by simple name (interned).
    Field(u32),
    /// An element of the named array, or a slot of the named JDK collection.
    Element(u32),
    /// Every element of the named array or collection, read by uninstrumented code.
    Elements,
    /// What the k-th call into uninstrumented code on an object of unknown content answered.
    Answer(u32),
    /// An object of unknown content of this class (interned) that the call passed to
    /// uninstrumented code without reading it from a location the trace knows (`System.out`:
    /// a static field of the JDK, whose value the trace does not record).
    Jdk(u32),
}

/// A read location: a step from a named object (`parent`) or from the call itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Location {
    pub parent: Option<u32>,
    pub step: Step,
}

impl Location {
    fn hash(&self, h: &mut Hash128, names: &Interner) {
        h.u32(self.parent.unwrap_or(u32::MAX));
        match self.step {
            Step::Root(i) => {
                h.u8(0);
                h.u32(i);
            }
            Step::Static(s) => {
                h.u8(1);
                h.text(names.text(s));
            }
            Step::Field(s) => {
                h.u8(2);
                h.text(names.text(s));
            }
            Step::Element(i) => {
                h.u8(3);
                h.u32(i);
            }
            Step::Elements => h.u8(4),
            Step::Answer(k) => {
                h.u8(5);
                h.u32(k);
            }
            Step::Jdk(c) => {
                h.u8(6);
                h.text(names.text(c));
            }
            Step::Position => h.u8(7),
        }
    }

    /// Whether the location can be read again in another call's entry state.
    fn evaluable(&self) -> bool {
        !matches!(self.step, Step::Answer(_))
    }
}

/// A location of the run's heap, by ids: what a call writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Slot {
    Field(ObjectId, FieldId),
    Element(ObjectId, u32),
    Static(FieldId),
    /// The content of a JDK collection or text.
    Content(ObjectId),
}

/// Objects named so far, both ways.
#[derive(Default)]
pub struct Naming {
    by_object: FxHashMap<ObjectId, u32>,
    objects: Vec<ObjectId>,
}

impl Naming {
    pub fn name(&self, o: ObjectId) -> Option<u32> {
        self.by_object.get(&o).copied()
    }

    fn bind(&mut self, o: ObjectId) -> u32 {
        let n = self.objects.len() as u32;
        self.objects.push(o);
        self.by_object.insert(o, n);
        n
    }

    pub fn object(&self, name: u32) -> Option<ObjectId> {
        self.objects.get(name as usize).copied()
    }
}

/// Hashes the value read at a location, naming an object met for the first time after it.
/// Returns false when the value is not completely known.
fn read_value(
    run: &impl RecordedRun,
    naming: &mut Naming,
    h: &mut Hash128,
    v: &Value,
) -> HeapResult<bool> {
    match *v {
        Value::Str(id) => Ok(match run.string(id)? {
            Some(t) => {
                h.u8(12);
                h.text(&t);
                true
            }
            None => {
                h.u8(13);
                false
            }
        }),
        Value::Object(o) => {
            if let Some(n) = naming.name(o) {
                h.u8(14);
                h.u32(n);
                return Ok(true);
            }
            let info = run.object(o)?;
            if let Some(name) = match &info {
                Some(info) => name_of(run, o, info)?,
                None => None,
            } {
                // A value, not a location: never bound to a name of the call.
                h.u8(24);
                h.text(&name);
                return Ok(true);
            }
            naming.bind(o);
            h.u8(15);
            match info {
                Some(info) => {
                    h.text(stable_class(&info.class_name));
                    h.u32(info.array_length.unwrap_or(u32::MAX));
                    Ok(true)
                }
                None => {
                    h.text("?");
                    Ok(false)
                }
            }
        }
        ref plain => {
            h.primitive(plain);
            Ok(true)
        }
    }
}

/// What an object that stands for a name (`ObjectInfo::is_named`: an enum constant, a class,
/// a field, a method) is, as it compares between runs: its class and its name; `None` for any
/// other object, or one whose name the trace lacks. The name never changes: it is read as
/// last recorded.
fn named(run: &impl RecordedRun, o: ObjectId) -> HeapResult<Option<String>> {
    match run.object(o)? {
        Some(info) => name_of(run, o, &info),
        None => Ok(None),
    }
}

/// [`named`] of an object whose `info` the caller has read.
fn name_of(run: &impl RecordedRun, o: ObjectId, info: &ObjectInfo) -> HeapResult<Option<String>> {
    if !info.is_named() {
        return Ok(None);
    }
    let Some(Some(Value::Str(text))) = run.elements_at(o, Timestamp::MAX, 0..1)?.first().copied()
    else {
        return Ok(None);
    };
    Ok(run.string(text)?.map(|name| {
        // A hidden class's name carries the address the JVM gave it.
        format!("{}:{}", info.class_name, stable_class(&name))
    }))
}

/// The slots of an array or content object at `at`; `None` when unknown.
fn all_elements(
    run: &impl RecordedRun,
    o: ObjectId,
    at: Timestamp,
) -> HeapResult<Option<Vec<Option<Value>>>> {
    let Some(info) = run.object(o)? else {
        return Ok(None);
    };
    let len = match info.content {
        Some(_) => run.content_length_at(o, at)?,
        None => info.array_length,
    };
    let Some(len) = len else { return Ok(None) };
    Ok(Some(run.elements_at(o, at, 0..len)?))
}

/// Hashes a whole element list read at once, naming the objects in it.
fn read_elements(
    run: &impl RecordedRun,
    naming: &mut Naming,
    h: &mut Hash128,
    elements: Option<Vec<Option<Value>>>,
) -> HeapResult<bool> {
    let Some(elements) = elements else {
        h.u8(16);
        return Ok(false);
    };
    h.u8(17);
    h.u32(elements.len() as u32);
    let mut complete = true;
    for e in &elements {
        match e {
            // An object met here for the first time is named after the others met before it,
            // so an evaluation of the same reads names it alike.
            Some(v) => complete &= read_value(run, naming, h, v)?,
            None => {
                h.u8(18);
                complete = false;
            }
        }
    }
    Ok(complete)
}

/// A call's footprint (see the module documentation), in the run's own object ids.
pub struct Footprint {
    /// The hash of the reads: of their digests in order.
    pub reads: u128,
    /// Each read's digest (its location and the value found), in order: two calls read alike
    /// as far as their digests agree, so a walk compared with another call's reads can stop
    /// at the first that differs.
    pub digests: Vec<u128>,
    /// The hash of the read locations alone: calls that read the same locations.
    pub locations: u128,
    /// The read locations in order, when every one can be read in another entry state.
    pub trail: Option<Vec<Location>>,
    /// Whether every value read is known: only then do equal reads prove equal inputs.
    pub reads_complete: bool,
    /// Too large, or its events could not all be seen: it proves nothing.
    pub cut: bool,
    /// The observer stopped the walk: the footprint is a prefix.
    pub stopped: bool,
    naming: Naming,
    /// The objects named by a `Jdk` step, by that step.
    jdk: FxHashMap<Step, ObjectId>,
    /// Objects created (or first met) during the call: described by value.
    fresh: FxHashSet<ObjectId>,
    /// Changed locations with their value at exit.
    writes: FxHashMap<Slot, Value>,
    /// Calls made on objects of unknown content, in order: method and arguments, with the
    /// timestamp the arguments are described at.
    calls: Vec<(String, Vec<Value>, Timestamp)>,
    outcome: Option<Outcome>,
    /// A constructor's new object: described by value as part of the effect.
    constructed: Option<Value>,
    /// A loop's or iteration's frame locals at its exit: part of its effect, as a call's
    /// result is (empty for a call).
    locals: Vec<Value>,
    exit: Timestamp,
}

/// The footprint of `node` (whose view is `call`) in `run`, or `None` when the run does not
/// have its events.
pub fn walk(
    run: &impl RecordedRun,
    node: NodeId,
    call: &CallView,
    names: &mut Interner,
) -> HeapResult<Option<Footprint>> {
    walk_observed(run, node, call, names, None)
}

/// [`walk`], telling `observer` each read as it is found; the walk stops (the footprint is
/// then `stopped`) when the observer returns false.
pub fn walk_observed(
    run: &impl RecordedRun,
    node: NodeId,
    call: &CallView,
    names: &mut Interner,
    observer: Option<&mut Observer<'_>>,
) -> HeapResult<Option<Footprint>> {
    let mut w = Walker {
        run,
        names,
        observer,
        h: Hash128::default(),
        loc_h: Hash128::default(),
        trail: Vec::new(),
        evaluable: true,
        fp: Footprint {
            reads: 0,
            digests: Vec::new(),
            locations: 0,
            trail: None,
            reads_complete: true,
            cut: false,
            stopped: false,
            naming: Naming::default(),
            jdk: FxHashMap::default(),
            fresh: FxHashSet::default(),
            writes: FxHashMap::default(),
            calls: Vec::new(),
            outcome: call.outcome,
            constructed: None,
            locals: call.exit_locals.clone(),
            exit: call.exit.unwrap_or(Timestamp::MAX),
        },
        done: FxHashSet::default(),
        ext: Vec::new(),
        answers: 0,
        entries: 0,
        entry_at: call.entry.saturating_sub(1),
    };
    // A loop in a constructor does not construct: its `this` is a read like any other.
    let constructor = call.method.name == "<init>" && call.fragment.is_none();
    // A call's own event is its entry; a loop's or iteration's is the header's first `BLOCK`,
    // whose reads are its own.
    let first = if call.fragment.is_some() {
        call.entry
    } else {
        call.entry.saturating_add(1)
    };
    let roots: Vec<Value> = call.this.iter().chain(call.args.iter()).copied().collect();
    for (i, v) in roots.iter().enumerate() {
        if constructor && i == 0 && call.this.is_some() {
            // The object under construction is the constructor's result, described by value.
            if let Value::Object(o) = v {
                w.fp.fresh.insert(*o);
            }
            w.fp.constructed = Some(*v);
            continue;
        }
        let slot = if call.this.is_some() { i } else { i + 1 };
        let loc = Location {
            parent: None,
            step: Step::Root(slot as u32),
        };
        w.read(loc, v)?;
    }
    if let Some(p) = call.position {
        let loc = Location {
            parent: None,
            step: Step::Position,
        };
        w.read(loc, &Value::Int(p as i32))?;
    }
    let mut error = None;
    let mut events = 0u64;
    let seen = run.visit_events(node, &mut |e| {
        if w.fp.stopped {
            return false;
        }
        events += 1;
        if events > MAX_EVENTS || w.entries > MAX_ENTRIES {
            w.fp.cut = true;
            return false;
        }
        if e.ts < first {
            return true;
        }
        match w.event(e.ts, &e.kind) {
            Ok(()) => !w.fp.stopped,
            Err(err) => {
                error = Some(err);
                false
            }
        }
    })?;
    if let Some(e) = error {
        return Err(e);
    }
    if !seen {
        return Ok(None);
    }
    w.finish();
    Ok(Some(w.fp))
}

/// A call into uninstrumented code under way.
struct OpenExt {
    /// Its number among the call's calls into uninstrumented code.
    k: u32,
    /// Whether an object of unknown content takes part: what it answers is an input.
    opaque: bool,
    /// What it wrote into the program's memory itself (not through a callback), in order: part
    /// of its answer when it is opaque (a `Reader`'s `read(buf)` answers with `buf`'s content).
    writes: Vec<(Slot, Value)>,
    /// The program's calls it has made and not yet returned from (callbacks).
    callbacks: u32,
}

impl OpenExt {
    /// Follows the callbacks it makes and notes what it writes itself.
    fn note(&mut self, kind: &EventKind) {
        match kind {
            EventKind::Call { .. } => self.callbacks += 1,
            EventKind::Return(_) | EventKind::Unwind(_) => {
                self.callbacks = self.callbacks.saturating_sub(1)
            }
            _ if !self.opaque || self.callbacks > 0 => {}
            EventKind::FieldWrite {
                object,
                field,
                value,
            } => self.writes.push((Slot::Field(*object, *field), *value)),
            EventKind::ArrayWrite {
                array,
                index,
                value,
            } => self.writes.push((Slot::Element(*array, *index), *value)),
            EventKind::StaticWrite { field, value } => {
                self.writes.push((Slot::Static(*field), *value))
            }
            EventKind::NewArray {
                array,
                origin,
                elements,
                ..
            } if *origin != Origin::Created => {
                for (i, v) in elements.iter().enumerate() {
                    self.writes.push((Slot::Element(*array, i as u32), *v));
                }
            }
            _ => {}
        }
    }
}

struct Walker<'r, 'o, R> {
    run: &'r R,
    names: &'r mut Interner,
    observer: Option<&'r mut Observer<'o>>,
    h: Hash128,
    loc_h: Hash128,
    trail: Vec<Location>,
    evaluable: bool,
    fp: Footprint,
    /// Slots read or written so far: only the first touch of a slot is a read.
    done: FxHashSet<Slot>,
    /// Open calls into uninstrumented code, innermost last.
    ext: Vec<OpenExt>,
    answers: u32,
    entries: usize,
    /// Just before the call: where whole contents are read.
    entry_at: Timestamp,
}

impl<R: RecordedRun> Walker<'_, '_, R> {
    fn read(&mut self, loc: Location, v: &Value) -> HeapResult<()> {
        let mut d = self.start_read(loc);
        self.fp.reads_complete &= read_value(self.run, &mut self.fp.naming, &mut d, v)?;
        self.end_read(loc, d);
        Ok(())
    }

    /// A read's digest so far: its location.
    fn start_read(&mut self, loc: Location) -> Hash128 {
        self.entries += 1;
        self.evaluable &= loc.evaluable();
        loc.hash(&mut self.loc_h, self.names);
        let mut d = Hash128::default();
        loc.hash(&mut d, self.names);
        d
    }

    /// Adds a read, its digest `d` complete, and tells the observer.
    fn end_read(&mut self, loc: Location, d: Hash128) {
        let digest = d.finish();
        self.h.u128(digest);
        self.fp.digests.push(digest);
        self.trail.push(loc);
        if let Some(observe) = self.observer.as_deref_mut() {
            if !observe(&loc, digest, self.names) {
                self.fp.stopped = true;
            }
        }
    }

    /// The name of an object the call reads through: its name, or none (then the footprint
    /// cannot say where it read).
    fn name_of(&mut self, o: ObjectId) -> Option<u32> {
        let n = self.fp.naming.name(o);
        if n.is_none() {
            self.fp.reads_complete = false;
        }
        n
    }

    /// Whether `o` is an object of uninstrumented code whose content the trace does not know.
    fn opaque(&self, o: ObjectId) -> HeapResult<bool> {
        Ok(self.run.object(o)?.is_some_and(|i| {
            !i.content_known
                && i.content.is_none()
                && i.array_length.is_none()
                && !compares_by_class(&i.class_name)
                && !is_hidden(&i.class_name)
        }))
    }

    fn first_touch(&mut self, slot: Slot) -> bool {
        self.done.insert(slot)
    }

    fn event(&mut self, ts: Timestamp, kind: &EventKind) -> HeapResult<()> {
        if let Some(open) = self.ext.last_mut() {
            open.note(kind);
        }
        match kind {
            EventKind::NewObject { object, origin, .. } => {
                // An object of uninstrumented code first met here existed before (a
                // `PrintStream`): it is named when the call uses it. Collections and texts
                // first met are described by their content, like new ones.
                let fresh = *origin == Origin::Created
                    || (self.fp.naming.name(*object).is_none() && !self.opaque(*object)?);
                if fresh {
                    self.fp.fresh.insert(*object);
                }
            }
            EventKind::NewArray {
                array,
                origin,
                elements,
                ..
            } => {
                if *origin == Origin::Created || self.fp.naming.name(*array).is_none() {
                    self.fp.fresh.insert(*array);
                } else {
                    // Sent again after uninstrumented code changed it: its elements are written.
                    for (i, v) in elements.iter().enumerate() {
                        self.write(Slot::Element(*array, i as u32), *v);
                    }
                }
            }
            EventKind::FieldRead { object, field } => {
                let slot = Slot::Field(*object, *field);
                if self.fp.fresh.contains(object) || !self.first_touch(slot) {
                    return Ok(());
                }
                let Some(parent) = self.name_of(*object) else {
                    return Ok(());
                };
                let (_, name) = self.run.field_name(*field)?;
                let step = Step::Field(self.names.id(&name));
                let v = self.run.field_value(*object, *field, ts)?;
                self.read_slot(Some(parent), step, v)?;
            }
            EventKind::ArrayRead { array, index } => {
                let slot = Slot::Element(*array, *index);
                if self.fp.fresh.contains(array) || !self.first_touch(slot) {
                    return Ok(());
                }
                let Some(parent) = self.name_of(*array) else {
                    return Ok(());
                };
                let v = self.run.element_value(*array, *index, ts)?;
                self.read_slot(Some(parent), Step::Element(*index), v)?;
            }
            EventKind::StaticRead { field } => {
                let slot = Slot::Static(*field);
                if !self.first_touch(slot) {
                    return Ok(());
                }
                let (class, name) = self.run.field_name(*field)?;
                let step = Step::Static(self.names.id(&format!("{class}.{name}")));
                let v = self.run.static_value(*field, ts)?;
                self.read_slot(None, step, v)?;
            }
            // Writes into the objects the call created are part of their description.
            EventKind::FieldWrite {
                object,
                field,
                value,
            } if !self.fp.fresh.contains(object) => {
                self.write(Slot::Field(*object, *field), *value);
            }
            EventKind::ArrayWrite {
                array,
                index,
                value,
            } if !self.fp.fresh.contains(array) => {
                self.write(Slot::Element(*array, *index), *value);
            }
            EventKind::StaticWrite { field, value } => self.write(Slot::Static(*field), *value),
            EventKind::Content { object, .. }
                if !self.fp.fresh.contains(object) && self.fp.naming.name(*object).is_some() =>
            {
                self.done.insert(Slot::Content(*object));
                self.fp.writes.insert(Slot::Content(*object), Value::Void);
            }
            EventKind::ExtCall { method, args } => self.ext_call(ts, *method, args)?,
            EventKind::ExtReturn(v) | EventKind::ExtUnwind(v) => {
                let Some(open) = self.ext.pop() else {
                    return Ok(());
                };
                let k = open.k;
                if open.opaque && (*v != Value::Void || !open.writes.is_empty()) {
                    // What the outside world answered is an input of the call.
                    self.answer(open, v)?;
                } else if let Value::Object(o) = v {
                    // A named object (`getClass()`, `getDeclaredField("x")`) follows from
                    // what the call was handed; any other object met here is an input.
                    if self.fp.naming.name(*o).is_none()
                        && !self.fp.fresh.contains(o)
                        && named(self.run, *o)?.is_none()
                    {
                        let loc = Location {
                            parent: None,
                            step: Step::Answer(k),
                        };
                        self.read(loc, v)?;
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    fn read_slot(&mut self, parent: Option<u32>, step: Step, v: Option<Value>) -> HeapResult<()> {
        let loc = Location { parent, step };
        match v {
            Some(v) => self.read(loc, &v),
            // A static field of uninstrumented code: the trace does not record it, and both
            // runs' JDKs hold the same (`System.out`).
            None if matches!(step, Step::Static(_)) => {
                let mut d = self.start_read(loc);
                d.u8(UNKNOWN_STATIC);
                self.end_read(loc, d);
                Ok(())
            }
            None => {
                // An unknown value: the location still counts, its value proves nothing.
                let mut d = self.start_read(loc);
                d.u8(19);
                self.fp.reads_complete = false;
                self.end_read(loc, d);
                Ok(())
            }
        }
    }

    fn write(&mut self, slot: Slot, v: Value) {
        self.entries += 1;
        self.done.insert(slot);
        self.fp.writes.insert(slot, v);
    }

    fn ext_call(
        &mut self,
        ts: Timestamp,
        method: crate::ids::MethodId,
        args: &[Value],
    ) -> HeapResult<()> {
        let k = self.answers;
        self.answers += 1;
        let mut opaque = false;
        // A field, method or constructor handed over with another object may read or write
        // that object's fields unseen (`Field.get`, `Field.set`): its answer is an input.
        let (mut member, mut other) = (false, false);
        for v in args {
            let Value::Object(o) = v else { continue };
            let Some(info) = self.run.object(*o)? else {
                continue;
            };
            if info.is_named() {
                // A value: what the JDK answers about it follows from its name.
                member |= info.is_reflective_member();
                continue;
            }
            other |= !is_hidden(&info.class_name);
            if self.fp.fresh.contains(o) {
                continue;
            }
            let whole = info.array_length.is_some() || info.content.is_some();
            if whole {
                let slot = Slot::Content(*o);
                if !self.first_touch(slot) {
                    continue;
                }
                let Some(parent) = self.name_of(*o) else {
                    continue;
                };
                // Uninstrumented code may read every element: all are inputs.
                let loc = Location {
                    parent: Some(parent),
                    step: Step::Elements,
                };
                let mut d = self.start_read(loc);
                // At entry: what the call was given (elements it wrote since are its own).
                let elements = all_elements(self.run, *o, self.entry_at)?;
                if let Some(e) = &elements {
                    self.entries += e.len();
                }
                self.fp.reads_complete &=
                    read_elements(self.run, &mut self.fp.naming, &mut d, elements)?;
                self.end_read(loc, d);
                if self.fp.stopped {
                    break;
                }
            } else if !info.content_known
                && !compares_by_class(&info.class_name)
                && !is_hidden(&info.class_name)
            {
                if self.fp.naming.name(*o).is_none() {
                    let class = Step::Jdk(self.names.id(&info.class_name));
                    self.read(
                        Location {
                            parent: None,
                            step: class,
                        },
                        v,
                    )?;
                    self.fp.jdk.insert(class, *o);
                }
                opaque = true;
            }
        }
        let text = self.run.method_text(method)?;
        opaque |= member && other || reads_environment(&text);
        if opaque {
            self.fp.calls.push((text, args.to_vec(), ts));
        }
        self.ext.push(OpenExt {
            k,
            opaque,
            writes: Vec::new(),
            callbacks: 0,
        });
        Ok(())
    }

    /// The read of what an opaque call into uninstrumented code answered: its result and what
    /// it wrote into the program's memory, objects named as the call named them (or numbered
    /// in the order the answer met them: the ones the call created).
    fn answer(&mut self, open: OpenExt, v: &Value) -> HeapResult<()> {
        let loc = Location {
            parent: None,
            step: Step::Answer(open.k),
        };
        let mut d = self.start_read(loc);
        let mut complete = read_value(self.run, &mut self.fp.naming, &mut d, v)?;
        d.u32(open.writes.len() as u32);
        let mut unnamed: Vec<ObjectId> = Vec::new();
        let mut object = |d: &mut Hash128, naming: &Naming, o: ObjectId| match naming.name(o) {
            Some(n) => {
                d.u8(1);
                d.u32(n);
            }
            None => {
                let i = unnamed.iter().position(|&u| u == o).unwrap_or_else(|| {
                    unnamed.push(o);
                    unnamed.len() - 1
                });
                d.u8(2);
                d.u32(i as u32);
            }
        };
        for (slot, value) in &open.writes {
            match *slot {
                Slot::Field(o, f) => {
                    object(&mut d, &self.fp.naming, o);
                    d.text(&self.run.field_name(f)?.1);
                }
                Slot::Element(o, i) => {
                    object(&mut d, &self.fp.naming, o);
                    d.u32(i);
                }
                Slot::Static(f) => {
                    let (class, name) = self.run.field_name(f)?;
                    d.u8(3);
                    d.text(&format!("{class}.{name}"));
                }
                Slot::Content(_) => {}
            }
            complete &= read_value(self.run, &mut self.fp.naming, &mut d, value)?;
        }
        self.fp.reads_complete &= complete;
        self.end_read(loc, d);
        Ok(())
    }

    /// Closes the hashes. A location written keeps its exit value in the effect even when it
    /// held that value at entry: a call matched by evaluation may have found another value
    /// there (a height a mutant computed wrong, written again unchanged), and what counts is
    /// what the location holds when the call returns.
    fn finish(&mut self) {
        self.fp.reads = self.h.finish();
        self.fp.locations = self.loc_h.finish();
        self.fp.trail = self.evaluable.then(|| std::mem::take(&mut self.trail));
    }
}

/// Whether a JDK method (`pkg.Class.name(descriptor)`) answers from the process's environment
/// rather than from its arguments: system properties (the class path, the working directory),
/// environment variables, clocks, identity hash codes. These differ between two runs of one
/// program, so the answer is an input of the call, not a function of what it was given.
fn reads_environment(method: &str) -> bool {
    // `Object.hashCode` and `Enum.hashCode` answer an identity hash code unless the program's
    // class overrides them (then the override is a callback the oracle judges on its own):
    // which one depends on how many the thread asked for before, in either run.
    const READERS: [&str; 8] = [
        "java.lang.System.getProperty(",
        "java.lang.System.getProperties(",
        "java.lang.System.getenv(",
        "java.lang.System.currentTimeMillis(",
        "java.lang.System.nanoTime(",
        "java.lang.System.identityHashCode(",
        "java.lang.Object.hashCode(",
        "java.lang.Enum.hashCode(",
    ];
    READERS.iter().any(|r| method.starts_with(r))
}

/// Whether `class` is a hidden class the JVM spun at run time: a lambda (`p.C$$Lambda`, as the
/// agent names every lambda class of `p.C`; `p.C$$Lambda$37/0x...` in traces of older agents)
/// or another hidden class (`.../0x...`). Its object is the program's code and what it
/// captured, not a JDK object whose state the trace misses, so handing it to the JDK asks the
/// outside world nothing.
fn is_hidden(class: &str) -> bool {
    class.contains('/') || class.ends_with("$$Lambda")
}

/// A class name as it compares between runs: a hidden class's name ends with the address the
/// JVM gave it (`/0x00007f...`), which differs from run to run.
fn stable_class(class: &str) -> &str {
    class.split_once('/').map_or(class, |(name, _)| name)
}

/// A written location by names: the object's name (or none for a static), the kind of step,
/// the field's name, the element's index.
type WriteKey = (u32, u8, String, u32);

/// Hashes a footprint's effect, naming the objects the call did not create by `name` (`None`:
/// an object the other footprint does not know, so the effects differ). Returns the hash and
/// whether everything described is known, or `None` when an object has no name.
pub fn effect_hash(
    run: &impl RecordedRun,
    fp: &Footprint,
    name: &dyn Fn(ObjectId) -> Option<u32>,
) -> HeapResult<Option<(u128, bool)>> {
    let mut d = Describer {
        run,
        fp,
        name,
        h: Hash128::default(),
        numbers: FxHashMap::default(),
        complete: true,
        unnamed: false,
    };
    // Locations by their names, so that two runs list them in one order.
    let mut writes: Vec<(WriteKey, Value, Slot)> = Vec::new();
    for (slot, v) in &fp.writes {
        let key = match *slot {
            Slot::Field(o, f) => {
                let Some(n) = name(o) else { return Ok(None) };
                (n, 0, run.field_name(f)?.1, 0)
            }
            Slot::Element(o, i) => {
                let Some(n) = name(o) else { return Ok(None) };
                (n, 1, String::new(), i)
            }
            Slot::Static(f) => {
                let (class, field) = run.field_name(f)?;
                (u32::MAX, 2, format!("{class}.{field}"), 0)
            }
            Slot::Content(o) => {
                let Some(n) = name(o) else { return Ok(None) };
                (n, 3, String::new(), 0)
            }
        };
        writes.push((key, *v, *slot));
    }
    writes.sort_by(|a, b| a.0.cmp(&b.0));
    d.h.u32(writes.len() as u32);
    for ((n, kind, text, i), v, slot) in &writes {
        d.h.u32(*n);
        d.h.u8(*kind);
        d.h.text(text);
        d.h.u32(*i);
        match slot {
            Slot::Content(o) => {
                let elements = all_elements(run, *o, fp.exit)?;
                d.elements(elements, fp.exit)?;
            }
            _ => d.value(v, fp.exit)?,
        }
    }
    d.h.u32(fp.calls.len() as u32);
    for (method, args, at) in &fp.calls {
        d.h.text(method);
        for a in args {
            d.value(a, *at)?;
        }
    }
    d.h.u32(fp.locals.len() as u32);
    for v in &fp.locals {
        d.value(v, fp.exit)?;
    }
    match (&fp.constructed, fp.outcome) {
        (Some(this), Some(Outcome::Returned(_))) => {
            d.h.u8(1);
            d.value(this, fp.exit)?;
        }
        (_, Some(Outcome::Returned(v))) => {
            d.h.u8(2);
            d.value(&v, fp.exit)?;
        }
        (_, Some(Outcome::Threw(v))) => {
            d.h.u8(3);
            d.value(&v, fp.exit)?;
        }
        (_, None) => d.h.u8(4),
    }
    if d.unnamed {
        return Ok(None);
    }
    Ok(Some((d.h.finish(), d.complete)))
}

/// Describes values of an effect: named objects by name, created ones by value.
struct Describer<'a, R> {
    run: &'a R,
    fp: &'a Footprint,
    name: &'a dyn Fn(ObjectId) -> Option<u32>,
    h: Hash128,
    /// Created objects numbered in the order met.
    numbers: FxHashMap<ObjectId, u32>,
    complete: bool,
    unnamed: bool,
}

impl<R: RecordedRun> Describer<'_, R> {
    fn value(&mut self, v: &Value, at: Timestamp) -> HeapResult<()> {
        match *v {
            Value::Str(id) => match self.run.string(id)? {
                Some(t) => {
                    self.h.u8(12);
                    self.h.text(&t);
                }
                None => {
                    self.h.u8(13);
                    self.complete = false;
                }
            },
            Value::Object(o) => self.object(o, at)?,
            ref plain => {
                debug_assert!(is_plain(plain));
                self.h.primitive(plain);
            }
        }
        Ok(())
    }

    fn object(&mut self, o: ObjectId, at: Timestamp) -> HeapResult<()> {
        // By its name whether the call met it first or not: in another run it may have.
        if let Some(name) = named(self.run, o)? {
            self.h.u8(24);
            self.h.text(&name);
            return Ok(());
        }
        if let Some(n) = self.numbers.get(&o) {
            self.h.u8(20);
            self.h.u32(*n);
            return Ok(());
        }
        if !self.fp.fresh.contains(&o) {
            match (self.name)(o) {
                Some(n) => {
                    self.h.u8(14);
                    self.h.u32(n);
                }
                None => self.unnamed = true,
            }
            return Ok(());
        }
        if self.numbers.len() >= MAX_DESCRIBED {
            self.h.u8(21);
            self.complete = false;
            return Ok(());
        }
        self.numbers.insert(o, self.numbers.len() as u32);
        self.h.u8(22);
        let Some(info) = self.run.object(o)? else {
            self.h.u8(0);
            self.complete = false;
            return Ok(());
        };
        self.h.text(stable_class(&info.class_name));
        if info.array_length.is_some() || info.content.is_some() {
            let elements = all_elements(self.run, o, at)?;
            return self.elements(elements, at);
        }
        if !info.content_known {
            if !compares_by_class(&info.class_name) {
                self.complete = false;
            }
            return Ok(());
        }
        let mut fields = self.run.fields_at(o, at)?;
        fields.retain(|(_, v)| !is_default(v));
        fields.sort_by(|a, b| a.0.cmp(&b.0));
        self.h.u32(fields.len() as u32);
        for (name, v) in &fields {
            self.h.text(name);
            self.value(v, at)?;
        }
        Ok(())
    }

    fn elements(&mut self, elements: Option<Vec<Option<Value>>>, at: Timestamp) -> HeapResult<()> {
        let Some(elements) = elements else {
            self.h.u8(16);
            self.complete = false;
            return Ok(());
        };
        self.h.u32(elements.len() as u32);
        for e in &elements {
            match e {
                Some(v) => self.value(v, at)?,
                None => {
                    self.h.u8(18);
                    self.complete = false;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
