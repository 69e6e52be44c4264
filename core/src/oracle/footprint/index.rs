//! The reference run's footprints, by method, and rule 1 over them: a buggy call is matched
//! with the reference calls of its method whose reads agree with its entry state.
//!
//! Two lookups, cheapest first:
//! 1. the buggy call's own reads: a reference call that read the same locations and found the
//!    same values (one hash lookup). This is every call that behaved alike;
//! 2. each distinct list of read locations of the method's reference calls (a *trail*),
//!    evaluated in the buggy call's entry state: when the values found there hash like a
//!    reference call's reads, that call was given what the buggy call was given, as far as it
//!    looked. This finds the reference calls a mutated method should have behaved like.
//!
//! A matched reference call's effect is compared with the buggy call's, its objects named as
//! the reference call named them (through the evaluation). Memory: per reference call two
//! hashes and a node id; trails are kept up to a budget of locations (beyond it, only the
//! first lookup finds matches).

use std::collections::HashMap;

use super::{
    all_elements, effect_hash, read_elements, read_value, walk, Footprint, Interner, Location,
    Naming, Step,
};
use crate::ids::{NodeId, ObjectId, Timestamp};
use crate::omniscient::HeapResult;
use crate::oracle::recorded::{CallView, MethodKey, RecordedRun};
use crate::trace::wire::Value;

/// Locations of trails kept over all methods (about 16 bytes each).
const TRAIL_BUDGET: usize = 1 << 22;
/// Longest trail kept.
const MAX_TRAIL: usize = 4096;
/// Trails evaluated for one buggy call at most.
const MAX_EVALUATIONS: usize = 512;

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

struct Entry {
    effect: u128,
    /// Whether the effect is completely known.
    complete: bool,
}

#[derive(Default)]
pub(super) struct MethodIndex {
    by_reads: HashMap<u128, Vec<Entry>>,
    /// Distinct trails, by the hash of their locations.
    trails: Vec<(u128, Vec<Location>)>,
    /// The reference run has no events: rule 1 compares whole states.
    no_events: bool,
}

/// The reference run's footprints (see the module documentation).
#[derive(Default)]
pub struct FootprintIndex {
    pub(super) methods: HashMap<MethodKey, MethodIndex>,
    names: Interner,
    trail_locations: usize,
}

impl FootprintIndex {
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
        if !fp.cut && !self.methods.contains_key(&call.method) {
            if let Some(j) = self.twin(buggy, &fp, node, call, reference)? {
                return Ok(j);
            }
        }
        self.index_method(reference, &call.method)?;
        let index = &self.methods[&call.method];
        if index.no_events {
            return Ok(Judgement::NoEvents);
        }
        if fp.cut {
            return Ok(Judgement::Cut);
        }
        let mut verdict = Verdicts::default();
        if fp.reads_complete {
            if let Some(entries) = index.by_reads.get(&fp.reads) {
                let own = |o: ObjectId| fp.naming.name(o);
                verdict.compare(effect_hash(buggy, &fp, &own)?, entries);
            }
        }
        if verdict.found() {
            return Ok(verdict.judgement());
        }
        let at = call.entry.saturating_sub(1);
        for (locations, trail) in index.trails.iter().take(MAX_EVALUATIONS) {
            if *locations == fp.locations {
                // The buggy call's own locations: its own reads, looked up above.
                continue;
            }
            let Some((reads, naming)) = evaluate(buggy, call, trail, &self.names, at, &fp)? else {
                continue;
            };
            let Some(entries) = index.by_reads.get(&reads) else {
                continue;
            };
            let mapped = |o: ObjectId| naming.name(o);
            verdict.compare(effect_hash(buggy, &fp, &mapped)?, entries);
            if verdict.valid {
                break;
            }
        }
        Ok(if verdict.found() {
            verdict.judgement()
        } else {
            Judgement::NoMatch
        })
    }

    /// The reference call with the buggy call's number, when it is a call of the same method
    /// that read the same: before a mutant's divergence both runs number their calls alike, so
    /// this finds the call that behaved alike without indexing every call of the method (a
    /// method called thousands of times with large subtrees). Its verdict is the index's: every
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
        if twin.method != call.method || twin.outcome.is_none() {
            return Ok(None);
        }
        let Some(other) = walk(reference, node, &twin, &mut self.names)? else {
            return Ok(None);
        };
        if other.cut || !other.reads_complete || other.reads != fp.reads {
            return Ok(None);
        }
        let own = |o: ObjectId| fp.naming.name(o);
        let theirs = |o: ObjectId| other.naming.name(o);
        let Some((effect, complete)) = effect_hash(reference, &other, &theirs)? else {
            return Ok(None);
        };
        let mut verdict = Verdicts::default();
        verdict.compare(effect_hash(buggy, fp, &own)?, &[Entry { effect, complete }]);
        Ok(Some(verdict.judgement()))
    }

    /// Walks every reference call of `method` once.
    fn index_method(&mut self, reference: &impl RecordedRun, method: &MethodKey) -> HeapResult<()> {
        if self.methods.contains_key(method) {
            return Ok(());
        }
        let mut index = MethodIndex::default();
        let mut seen_trails = std::collections::HashSet::new();
        for r in reference.calls_of(method)? {
            let call = reference.call_basic(r)?;
            if call.outcome.is_none() {
                continue;
            }
            let Some(fp) = walk(reference, r, &call, &mut self.names)? else {
                index.no_events = true;
                break;
            };
            if fp.cut || !fp.reads_complete {
                continue;
            }
            let own = |o: ObjectId| fp.naming.name(o);
            let Some((effect, complete)) = effect_hash(reference, &fp, &own)? else {
                continue;
            };
            index
                .by_reads
                .entry(fp.reads)
                .or_default()
                .push(Entry { effect, complete });
            keep_trail(&mut index, &mut seen_trails, &mut self.trail_locations, fp);
        }
        self.methods.insert(method.clone(), index);
        Ok(())
    }
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
) -> HeapResult<Option<(u128, Naming)>> {
    let mut h = super::hash::Hash128::default();
    let mut naming = Naming::default();
    let mut fields: HashMap<ObjectId, Vec<(String, Value)>> = HashMap::new();
    for loc in trail {
        loc.hash(&mut h, names);
        let object = match loc.parent {
            Some(p) => match naming.object(p) {
                Some(o) => Some(o),
                None => return Ok(None),
            },
            None => None,
        };
        let v = match (loc.step, object) {
            (Step::Root(0), None) => call.this,
            (Step::Root(i), None) => call.args.get(i as usize - 1).copied(),
            (Step::Static(s), None) => match run.static_at(names.text(s), at)? {
                Some(v) => Some(v),
                None => {
                    h.u8(super::UNKNOWN_STATIC);
                    continue;
                }
            },
            // The call's own object of that class, as it met it; if it never met one, one that
            // nothing else can be (the reference call used it, this one not: effects differ).
            (Step::Jdk(c), None) => match own.jdk.get(&loc.step) {
                Some(o) if naming.name(*o).is_none() => Some(Value::Object(*o)),
                _ => {
                    naming.bind(ObjectId(u64::MAX - u64::from(c)));
                    h.u8(15);
                    h.text(names.text(c));
                    h.u32(u32::MAX);
                    continue;
                }
            },
            (Step::Field(s), Some(o)) => {
                if let std::collections::hash_map::Entry::Vacant(e) = fields.entry(o) {
                    e.insert(run.fields_at(o, at)?);
                }
                let name = names.text(s);
                fields[&o].iter().find(|(n, _)| n == name).map(|(_, v)| *v)
            }
            (Step::Element(i), Some(o)) => {
                let len = all_len(run, o, at)?;
                if len.is_none_or(|l| i >= l) {
                    return Ok(None);
                }
                run.element_value(o, i, at)?
            }
            (Step::Elements, Some(o)) => {
                if !read_elements(run, &mut naming, &mut h, all_elements(run, o, at)?)? {
                    return Ok(None);
                }
                continue;
            }
            _ => return Ok(None),
        };
        let Some(v) = v else { return Ok(None) };
        if !read_value(run, &mut naming, &mut h, &v)? {
            return Ok(None);
        }
    }
    Ok(Some((h.finish(), naming)))
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
