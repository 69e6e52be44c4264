//! The reference run's footprints, by method (and by loop), and rule 1 over them: a buggy call
//! is matched with the reference calls of its method whose reads agree with its entry state, a
//! loop or an iteration with the reference executions of the same loop.
//!
//! Two lookups, cheapest first:
//! 1. the buggy call's own reads: a reference call that read the same locations and found the
//!    same values. This is every call that behaved alike;
//! 2. each reference call's list of read locations (a *trail*), evaluated in the buggy call's
//!    entry state: when the values found there hash like the reference call's reads, that call
//!    was given what the buggy call was given, as far as it looked. This finds the reference
//!    calls a mutated method should have behaved like.
//!
//! A matched reference call's effect is compared with the buggy call's, its objects named as
//! the reference call named them (through the evaluation).
//!
//! What it costs is what the answer needs, not the reference run's size:
//! - the reference call with the buggy call's own number (its *twin*: before a mutant's
//!   divergence both runs number their calls alike) is walked first, read by read against the
//!   buggy call's reads, and the walk stops at the first read that differs;
//! - the method's *small* reference calls (at most [`SMALL_SPAN`] events each) are indexed
//!   once: per call the hash of its reads, and each distinct trail up to a budget of
//!   locations; a call's effect is described only when it matches a buggy call;
//! - its *large* calls (a `main`, a parser's `next` with a document below it) are never
//!   walked whole to be indexed: each is walked for one buggy call at a time, read by read
//!   against both lookups at once, and the walk stops as soon as neither can match, which
//!   for calls given something else is after a few reads.

use std::collections::HashMap;
use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::hash::Hash128;
use super::{
    all_elements, effect_hash, read_elements, read_value, walk, walk_observed, Footprint, Interner,
    Location, Naming, Step, UNKNOWN_STATIC,
};
use crate::ids::{NodeId, ObjectId, Timestamp};
use crate::omniscient::{HeapError, HeapResult};
use crate::oracle::recorded::{CallView, Fragment, MethodKey, RecordedRun};
use crate::trace::wire::Value;

/// Locations of trails kept over all methods (about 16 bytes each).
const TRAIL_BUDGET: usize = 1 << 22;
/// Longest trail kept.
const MAX_TRAIL: usize = 4096;
/// Trails evaluated for one buggy call at most.
const MAX_EVALUATIONS: usize = 512;
/// Events (of the run, between its entry and its exit) of a reference call that is indexed;
/// a larger one is walked for each buggy call, only as far as it reads alike.
pub const SMALL_SPAN: u64 = 1024;

/// What rule 1 says of a call, judged by footprints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Judgement {
    /// One of the runs does not have its events: compare whole states instead.
    NoEvents,
    /// The call's footprint is too large to prove anything.
    Cut,
    /// No reference call of the method was given what this call was given.
    NoMatch,
    /// A matching reference call had the same effect.
    Valid,
    /// Every matching reference call had another effect.
    Invalid,
    /// Equal effects, but something in them is not completely known.
    Unprovable,
}

#[derive(Clone, Copy)]
struct Entry {
    effect: u128,
    /// Whether the effect is completely known.
    complete: bool,
}

/// What the index keeps apart: a method's calls, or the executions of one of its loops (or
/// that loop's iterations).
pub(super) type CodeKey = (MethodKey, Option<Fragment>);

fn key(call: &CallView) -> CodeKey {
    (call.method.clone(), call.fragment)
}

#[derive(Default)]
pub(super) struct MethodIndex {
    /// The small calls, by the hash of their reads.
    by_reads: HashMap<u128, Vec<NodeId>>,
    /// Distinct trails of the small calls, by the hash of their locations.
    trails: Vec<(u128, Vec<Location>)>,
    /// The large calls with their views, walked per buggy call.
    large: Arc<Vec<(NodeId, CallView)>>,
    /// The reference run has no events: rule 1 compares whole states.
    no_events: bool,
}

/// The reference run's footprints (see the module documentation).
#[derive(Default)]
pub struct FootprintIndex {
    pub(super) methods: HashMap<CodeKey, MethodIndex>,
    /// The effects of the small calls that matched a buggy call, computed when they first
    /// did: describing an effect (a parser's new buffers, element by element) is what indexing
    /// would spend most on, and only a match needs it.
    effects: HashMap<NodeId, Option<Entry>>,
    names: Interner,
    trail_locations: usize,
}

impl FootprintIndex {
    /// Whether the call or loop fragment at `node` asked the outside world something (the
    /// environment, a clock, an identity hash code: `reads_environment`). Its results then need
    /// not agree with another run's, so states that differ prove nothing about its code.
    pub fn asks_environment(
        &mut self,
        run: &impl RecordedRun,
        node: NodeId,
        call: &CallView,
    ) -> HeapResult<bool> {
        Ok(walk(run, node, call, &mut self.names)?
            .is_some_and(|fp| fp.calls.iter().any(|(m, _, _)| super::reads_environment(m))))
    }

    /// Rule 1 for the call `node` (viewed as `call`) of `buggy`, against `reference`.
    pub fn judge(
        &mut self,
        buggy: &impl RecordedRun,
        node: NodeId,
        call: &CallView,
        reference: &impl RecordedRun,
    ) -> HeapResult<Judgement> {
        let Some(fp) = walk(buggy, node, call, &mut self.names)? else {
            return Ok(Judgement::NoEvents);
        };
        if !fp.cut {
            if let Some(j) = self.twin(buggy, &fp, node, call, reference)? {
                return Ok(j);
            }
        }
        let key = key(call);
        self.index_method(reference, &key)?;
        if self.methods[&key].no_events {
            return Ok(Judgement::NoEvents);
        }
        if fp.cut {
            return Ok(Judgement::Cut);
        }
        // Lookup 1 among the small calls: a valid match decides at once.
        let mut own = Verdicts::default();
        if fp.reads_complete {
            let entries = self.entries(reference, &key, fp.reads)?;
            if !entries.is_empty() {
                let named = |o: ObjectId| fp.naming.name(o);
                own.compare(effect_hash(buggy, &fp, &named)?, &entries);
            }
        }
        if own.valid {
            return Ok(own.judgement());
        }
        // The large calls, both lookups at once.
        let mut evaluated = Verdicts::default();
        let mut read = EntryReads::default();
        let large = Arc::clone(&self.methods[&key].large);
        for (r, view) in large.iter() {
            let found = self.follow(buggy, &fp, call, reference, (*r, view), Some(&mut read))?;
            let Some(found) = found else {
                return Ok(Judgement::NoEvents);
            };
            match found {
                Followed::Diverged => {}
                Followed::Own(entry) => own.compare(
                    effect_hash(buggy, &fp, &|o: ObjectId| fp.naming.name(o))?,
                    &[entry],
                ),
                Followed::Evaluated(entry, naming) => evaluated.compare(
                    effect_hash(buggy, &fp, &|o: ObjectId| naming.name(o))?,
                    &[entry],
                ),
            }
            if own.valid {
                break;
            }
        }
        if own.found() {
            return Ok(own.judgement());
        }
        // Lookup 2 among the small calls.
        let at = call.entry.saturating_sub(1);
        let trails = self.methods[&key].trails.len().min(MAX_EVALUATIONS);
        for t in 0..trails {
            if evaluated.valid {
                break;
            }
            let (locations, trail) = &self.methods[&key].trails[t];
            if *locations == fp.locations {
                // The buggy call's own locations: its own reads, looked up above.
                continue;
            }
            let Some((reads, naming)) =
                evaluate(buggy, call, trail, &self.names, at, &fp, &mut read)?
            else {
                continue;
            };
            let entries = self.entries(reference, &key, reads)?;
            if entries.is_empty() {
                continue;
            }
            let mapped = |o: ObjectId| naming.name(o);
            evaluated.compare(effect_hash(buggy, &fp, &mapped)?, &entries);
        }
        Ok(if evaluated.found() {
            evaluated.judgement()
        } else {
            Judgement::NoMatch
        })
    }

    /// The effects of the small calls of `key` that read `reads`, each described once.
    fn entries(
        &mut self,
        reference: &impl RecordedRun,
        key: &CodeKey,
        reads: u128,
    ) -> HeapResult<Vec<Entry>> {
        let Some(calls) = self.methods[key].by_reads.get(&reads).cloned() else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for r in calls {
            if !self.effects.contains_key(&r) {
                let view = reference.call_basic(r)?;
                let entry = match walk(reference, r, &view, &mut self.names)? {
                    Some(fp) => effect_hash(reference, &fp, &|o: ObjectId| fp.naming.name(o))?
                        .map(|(effect, complete)| Entry { effect, complete }),
                    None => None,
                };
                self.effects.insert(r, entry);
            }
            if let Some(e) = &self.effects[&r] {
                out.push(*e);
            }
        }
        Ok(out)
    }

    /// The reference call with the buggy call's number, when it is a call of the same method
    /// that read the same: before a mutant's divergence both runs number their calls alike, so
    /// this finds the call that behaved alike without looking at the method's other calls (a
    /// method called thousands of times with large subtrees). Its verdict is lookup 1's: every
    /// reference call that read the same values had the same effect.
    fn twin(
        &mut self,
        buggy: &impl RecordedRun,
        fp: &Footprint,
        node: NodeId,
        call: &CallView,
        reference: &impl RecordedRun,
    ) -> HeapResult<Option<Judgement>> {
        if !fp.reads_complete {
            return Ok(None);
        }
        // A number the reference run does not have is no twin.
        let Ok(twin) = reference.call_basic(node) else {
            return Ok(None);
        };
        if key(&twin) != key(call) || twin.outcome.is_none() {
            return Ok(None);
        }
        let Some(Followed::Own(entry)) =
            self.follow(buggy, fp, call, reference, (node, &twin), None)?
        else {
            return Ok(None);
        };
        let own = |o: ObjectId| fp.naming.name(o);
        let mut verdict = Verdicts::default();
        verdict.compare(effect_hash(buggy, fp, &own)?, &[entry]);
        Ok(Some(verdict.judgement()))
    }

    /// Walks the reference call `r` (with its view) against the buggy call (footprint `fp`,
    /// view `call`) read by read, until neither lookup can match: lookup 1 (the same reads)
    /// and, given what was `read` of the buggy call's entry state, lookup 2 (`r`'s read
    /// locations, read in that state, find what `r` found). `None` when the reference run has
    /// no events.
    fn follow<B: RecordedRun, R: RecordedRun>(
        &mut self,
        buggy: &B,
        fp: &Footprint,
        call: &CallView,
        reference: &R,
        (r, view): (NodeId, &CallView),
        read: Option<&mut EntryReads>,
    ) -> HeapResult<Option<Followed>> {
        if view.outcome.is_none() {
            return Ok(Some(Followed::Diverged));
        }
        let at = call.entry.saturating_sub(1);
        let mut own = fp.reads_complete;
        let mut k = 0;
        let mut evaluator = read.map(|read| Evaluator::new(buggy, call, at, fp, read));
        let mut error: Option<HeapError> = None;
        let mut observe = |loc: &Location, digest: u128, names: &Interner| {
            own &= fp.digests.get(k) == Some(&digest);
            k += 1;
            if let Some(e) = evaluator.as_mut() {
                match e.step(loc, names) {
                    Ok(Some(d)) if d == digest => {}
                    Ok(_) => evaluator = None,
                    Err(err) => {
                        error = Some(err);
                        return false;
                    }
                }
            }
            own || evaluator.is_some()
        };
        let walked = walk_observed(reference, r, view, &mut self.names, Some(&mut observe))?;
        if let Some(err) = error {
            return Err(err);
        }
        let Some(theirs) = walked else {
            return Ok(None);
        };
        if theirs.stopped || theirs.cut || !theirs.reads_complete {
            return Ok(Some(Followed::Diverged));
        }
        let named = |o: ObjectId| theirs.naming.name(o);
        let Some((effect, complete)) = effect_hash(reference, &theirs, &named)? else {
            return Ok(Some(Followed::Diverged));
        };
        let entry = Entry { effect, complete };
        if own && k == fp.digests.len() {
            return Ok(Some(Followed::Own(entry)));
        }
        match evaluator {
            Some(e) if theirs.trail.is_some() && theirs.locations != fp.locations => {
                Ok(Some(Followed::Evaluated(entry, e.naming)))
            }
            _ => Ok(Some(Followed::Diverged)),
        }
    }

    /// Walks every small reference call (or loop, or iteration) of `key` once and lists its
    /// large ones.
    fn index_method(&mut self, reference: &impl RecordedRun, key: &CodeKey) -> HeapResult<()> {
        if self.methods.contains_key(key) {
            return Ok(());
        }
        let mut index = MethodIndex::default();
        let mut seen_trails = std::collections::HashSet::new();
        let nodes = match key {
            (method, None) => reference.calls_of(method)?,
            (method, Some(fragment)) => reference.fragments_of(method, *fragment)?,
        };
        let mut large = Vec::new();
        for r in nodes {
            let small = match reference.call_span(r)? {
                Some((entry, Some(exit))) => exit.saturating_sub(entry) <= SMALL_SPAN,
                // Incomplete calls are no reference.
                _ => continue,
            };
            let call = reference.call_basic(r)?;
            if call.outcome.is_none() {
                continue;
            }
            if !small {
                large.push((r, call));
                continue;
            }
            let Some(fp) = walk(reference, r, &call, &mut self.names)? else {
                index.no_events = true;
                break;
            };
            if fp.cut || !fp.reads_complete {
                continue;
            }
            index.by_reads.entry(fp.reads).or_default().push(r);
            keep_trail(&mut index, &mut seen_trails, &mut self.trail_locations, fp);
        }
        index.large = Arc::new(large);
        self.methods.insert(key.clone(), index);
        Ok(())
    }
}

/// What walking a reference call against a buggy call found.
enum Followed {
    /// Neither lookup matches.
    Diverged,
    /// It read what the buggy call read (lookup 1): its effect.
    Own(Entry),
    /// Its reads, evaluated in the buggy call's entry state, agree (lookup 2): its effect, and
    /// the buggy run's objects named as it named them.
    Evaluated(Entry, Naming),
}

fn keep_trail(
    index: &mut MethodIndex,
    seen: &mut std::collections::HashSet<u128>,
    budget_used: &mut usize,
    fp: Footprint,
) {
    let Some(trail) = fp.trail else { return };
    if trail.len() > MAX_TRAIL
        || *budget_used + trail.len() > TRAIL_BUDGET
        || !seen.insert(fp.locations)
    {
        return;
    }
    *budget_used += trail.len();
    index.trails.push((fp.locations, trail));
}

/// What the matching reference calls said.
#[derive(Default)]
struct Verdicts {
    valid: bool,
    unprovable: bool,
    invalid: bool,
}

impl Verdicts {
    fn compare(&mut self, effect: Option<(u128, bool)>, entries: &[Entry]) {
        for e in entries {
            match effect {
                Some((h, complete)) if h == e.effect => {
                    if complete && e.complete {
                        self.valid = true;
                    } else {
                        self.unprovable = true;
                    }
                }
                // An effect on an object the reference call never named differs.
                _ => self.invalid = true,
            }
        }
    }

    fn found(&self) -> bool {
        self.valid || self.unprovable || self.invalid
    }

    fn judgement(&self) -> Judgement {
        if self.valid {
            Judgement::Valid
        } else if self.unprovable {
            Judgement::Unprovable
        } else {
            Judgement::Invalid
        }
    }
}

/// What evaluations read of one call's entry state, kept for the next: the trails of a method
/// start alike (`this`, then its fields), and one buggy call is evaluated against hundreds.
#[derive(Default)]
pub(super) struct EntryReads {
    fields: FxHashMap<ObjectId, Vec<(String, Value)>>,
    lengths: FxHashMap<ObjectId, Option<u32>>,
    elements: FxHashMap<(ObjectId, u32), Option<Value>>,
}

/// Reads read locations one by one in a call's entry state, hashing each value found as a walk
/// hashes a read (see [`Footprint::digests`]) and naming the objects met on the way.
pub(super) struct Evaluator<'a, R> {
    run: &'a R,
    call: &'a CallView,
    at: Timestamp,
    /// The buggy call's own footprint: the objects of unknown content it met.
    own: &'a Footprint,
    naming: Naming,
    /// Values read at `at` so far, by this evaluation and earlier ones of the same call.
    read: &'a mut EntryReads,
    h: Hash128,
}

impl<'a, R: RecordedRun> Evaluator<'a, R> {
    pub(super) fn new(
        run: &'a R,
        call: &'a CallView,
        at: Timestamp,
        own: &'a Footprint,
        read: &'a mut EntryReads,
    ) -> Self {
        Evaluator {
            run,
            call,
            at,
            own,
            naming: Naming::default(),
            read,
            h: Hash128::default(),
        }
    }

    /// The digest of reading `loc`, or `None` when it cannot be read here (a null on the way,
    /// an unknown value, an answer of the outside world).
    pub(super) fn step(&mut self, loc: &Location, names: &Interner) -> HeapResult<Option<u128>> {
        let mut d = Hash128::default();
        loc.hash(&mut d, names);
        let object = match loc.parent {
            Some(p) => match self.naming.object(p) {
                Some(o) => Some(o),
                None => return Ok(None),
            },
            None => None,
        };
        let run = self.run;
        let v = match (loc.step, object) {
            (Step::Root(0), None) => self.call.this,
            (Step::Root(i), None) => self.call.args.get(i as usize - 1).copied(),
            (Step::Position, None) => self.call.position.map(|p| Value::Int(p as i32)),
            (Step::Static(s), None) => match run.static_at(names.text(s), self.at)? {
                Some(v) => Some(v),
                None => {
                    d.u8(UNKNOWN_STATIC);
                    return Ok(Some(self.add(d)));
                }
            },
            // The call's own object of that class, as it met it; if it never met one, one that
            // nothing else can be (the reference call used it, this one not: effects differ).
            (Step::Jdk(c), None) => match self.own.jdk.get(&loc.step) {
                Some(o) if self.naming.name(*o).is_none() => Some(Value::Object(*o)),
                _ => {
                    self.naming.bind(ObjectId(u64::MAX - u64::from(c)));
                    d.u8(15);
                    d.text(names.text(c));
                    d.u32(u32::MAX);
                    return Ok(Some(self.add(d)));
                }
            },
            (Step::Field(s), Some(o)) => {
                if let std::collections::hash_map::Entry::Vacant(e) = self.read.fields.entry(o) {
                    e.insert(run.fields_at(o, self.at)?);
                }
                let name = names.text(s);
                self.read.fields[&o]
                    .iter()
                    .find(|(n, _)| n == name)
                    .map(|(_, v)| *v)
            }
            (Step::Element(i), Some(o)) => {
                let len = match self.read.lengths.get(&o) {
                    Some(len) => *len,
                    None => {
                        let len = all_len(run, o, self.at)?;
                        self.read.lengths.insert(o, len);
                        len
                    }
                };
                if len.is_none_or(|l| i >= l) {
                    return Ok(None);
                }
                match self.read.elements.get(&(o, i)) {
                    Some(v) => *v,
                    None => {
                        let v = run.element_value(o, i, self.at)?;
                        self.read.elements.insert((o, i), v);
                        v
                    }
                }
            }
            (Step::Elements, Some(o)) => {
                let elements = all_elements(run, o, self.at)?;
                if !read_elements(run, &mut self.naming, &mut d, elements)? {
                    return Ok(None);
                }
                return Ok(Some(self.add(d)));
            }
            _ => return Ok(None),
        };
        let Some(v) = v else { return Ok(None) };
        if !read_value(run, &mut self.naming, &mut d, &v)? {
            return Ok(None);
        }
        Ok(Some(self.add(d)))
    }

    fn add(&mut self, d: Hash128) -> u128 {
        let digest = d.finish();
        self.h.u128(digest);
        digest
    }
}

/// Reads `trail` (a reference call's read locations) in `call`'s entry state (at `at`) in
/// `run`: the hash those reads would have and the objects named on the way, or `None` when a
/// location cannot be read there (a null on the way, an unknown value, an answer of the
/// outside world).
pub(super) fn evaluate(
    run: &impl RecordedRun,
    call: &CallView,
    trail: &[Location],
    names: &Interner,
    at: Timestamp,
    own: &Footprint,
    read: &mut EntryReads,
) -> HeapResult<Option<(u128, Naming)>> {
    let mut e = Evaluator::new(run, call, at, own, read);
    for loc in trail {
        if e.step(loc, names)?.is_none() {
            return Ok(None);
        }
    }
    Ok(Some((e.h.finish(), e.naming)))
}

/// The number of elements of an array or content object at `at`.
fn all_len(run: &impl RecordedRun, o: ObjectId, at: Timestamp) -> HeapResult<Option<u32>> {
    let Some(info) = run.object(o)? else {
        return Ok(None);
    };
    Ok(match info.content {
        Some(_) => run.content_length_at(o, at)?,
        None => info.array_length,
    })
}
