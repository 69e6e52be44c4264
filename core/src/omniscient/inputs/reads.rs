//! The inputs of a write from what its statement actually read: the read events
//! (`FIELD_READ`, `ARRAY_READ`, `STATIC_READ`) and the local reads of the writing frame between
//! the statement's start (its `LINE`, or the `BLOCK` that starts its line) and the write.
//!
//! Local reads have no event: they are the local-read effects of the method's block table that
//! the frame executed, placed by coverage's `BlockCursor` (docs/ARCHITECTURE.md, "Coverage
//! entities"): each write or read event matches the next effect of its kind in the current
//! block, and the local reads passed over ran just before that event; a `BLOCK` (or `THROW`)
//! means the previous block ran to its end, a `CATCH` that it did not. The walk starts at the
//! block that holds the statement's start, so the block's cursor is right when the statement
//! begins in the middle of a block.

use std::collections::HashMap;

use super::Input;
use crate::coverage::{local_reads, BlockCursor};
use crate::ids::{NodeId, ObjectId, Timestamp};
use crate::omniscient::error::OmniResult;
use crate::omniscient::path::{Step, VarPath};
use crate::omniscient::render::{render_value, RenderLimits};
use crate::omniscient::site::WriteSite;
use crate::trace::store::{BlockEvent, TraceReader};
use crate::trace::wire::{BlockDef, EffectKind, EventKind, MethodDef, Value, VarId};

/// Events walked back at most looking for the statement's start (a statement's own events are
/// few; the callees' are skipped by block when they fill whole blocks).
const MAX_WALK: usize = 1 << 20;

/// The inputs of the write at `site` and the timestamp its statement began, or `None` when the
/// writing method has no block table (a trace without read events for it).
pub fn read_inputs(
    reader: &TraceReader,
    site: &WriteSite,
    limits: RenderLimits,
) -> OmniResult<Option<(Timestamp, Vec<Input>)>> {
    let Some(row) = reader.node(site.node)? else {
        return Ok(None);
    };
    let Some(method) = row.header.method.map(|m| reader.method(m)).transpose()? else {
        return Ok(None);
    };
    let Some(method) = method.filter(|m| !m.blocks.is_empty()) else {
        return Ok(None);
    };
    let (start, events) = statement_events(reader, site, row.header.entry, row.depth)?;
    let reads = replay(&method.blocks, &events, start, site.ts);
    let mut out = Inputs {
        reader,
        node: site.node,
        method: &method,
        limits,
        known: HashMap::new(),
        inputs: Vec::new(),
    };
    for r in reads {
        out.add(r)?;
    }
    Ok(Some((start, out.inputs)))
}

/// The frame's own events from the block holding the statement's start up to the write (the
/// write's event last, also when it is a `CALL`), in time order, and the statement's start.
///
/// A statement starts at its line's `LINE` or line-starting `BLOCK`, and never before the
/// current pass of a loop: javac gives a loop written on one line (`for (...) d[i] = ...;`)
/// one line entry, so the walk also stops where the frame went back to a block at or before
/// the one it left (a loop's back edge). The statement then starts with the block after that
/// loop header (or at it, when the write is in the header's own block).
fn statement_events(
    reader: &TraceReader,
    site: &WriteSite,
    entry: Timestamp,
    depth: u32,
) -> OmniResult<(Timestamp, Vec<BlockEvent>)> {
    let mut events = Vec::new();
    let mut start = None;
    // The last two `BLOCK`s the walk passed, the later in time first: `(ts, block)`, and for
    // the last one how many events the walk had kept with it.
    let mut after_last: Option<Timestamp> = None;
    let mut last: Option<(Timestamp, u32, usize)> = None;
    let mut keep = None;
    let mut walked = 0;
    reader.walk_back(site.thread, site.ts, entry, depth, |e| {
        walked += 1;
        let own = e.node == site.node
            && e.depth == depth
            && !e.event.kind.is_call()
            && !e.event.kind.is_exit();
        if !(own || e.event.ts == site.ts) {
            return walked < MAX_WALK;
        }
        events.push(e.clone());
        match e.event.kind {
            EventKind::Block { block, line } => {
                if start.is_none() && line > 0 {
                    start = Some(e.event.ts);
                } else if let Some((header_ts, _, kept)) =
                    last.filter(|&(_, header, _)| start.is_none() && header <= block)
                {
                    // From this block the frame went back to `header`: the current pass of
                    // a loop began there.
                    start = Some(after_last.unwrap_or(header_ts));
                    keep = Some(kept);
                }
                after_last = last.map(|(ts, _, _)| ts);
                last = Some((e.event.ts, block, events.len()));
                // The block holding the statement's start: the walk can stop.
                start.is_none()
            }
            EventKind::Line(_) if start.is_none() => {
                start = Some(e.event.ts);
                true
            }
            _ => walked < MAX_WALK,
        }
    })?;
    if let Some(kept) = keep {
        events.truncate(kept);
    }
    events.reverse();
    let start = start.or(events.first().map(|e| e.event.ts));
    Ok((start.unwrap_or(site.ts), events))
}

/// One read of the statement.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Read {
    Local {
        var: VarId,
        at: Timestamp,
    },
    Field {
        object: ObjectId,
        field: crate::ids::FieldId,
        at: Timestamp,
    },
    Element {
        array: ObjectId,
        index: u32,
        at: Timestamp,
    },
    Static {
        field: crate::ids::FieldId,
        at: Timestamp,
    },
}

/// The reads of the statement that began at `start`, in execution order, replaying the
/// frame's `events` (which end with the write at `write`) against its block table.
fn replay(
    blocks: &[BlockDef],
    events: &[BlockEvent],
    start: Timestamp,
    write: Timestamp,
) -> Vec<Read> {
    let mut c = BlockCursor::default();
    let mut out = Vec::new();
    for e in events {
        let ts = e.event.ts;
        let mut take = |kind, target| c.take(blocks, kind, target).map(|(passed, _)| passed);
        let ran = match e.event.kind {
            EventKind::Block { block, .. } => c.enter(blocks, block),
            EventKind::Catch(_) => {
                c.catch();
                None
            }
            EventKind::Throw(_) => c.rest(blocks),
            EventKind::Local { var, .. } => take(EffectKind::LocalWrite, var),
            EventKind::FieldWrite { field, .. } | EventKind::FieldWriteUninit { field, .. } => {
                take(EffectKind::FieldWrite, field.0)
            }
            EventKind::StaticWrite { field, .. } => take(EffectKind::StaticWrite, field.0),
            EventKind::ArrayWrite { .. } => take(EffectKind::ArrayWrite, 0),
            EventKind::FieldRead { field, .. } => take(EffectKind::FieldRead, field.0),
            EventKind::StaticRead { field } => take(EffectKind::StaticRead, field.0),
            EventKind::ArrayRead { .. } => take(EffectKind::ArrayRead, 0),
            ref k if ts == write && k.is_call() => c.pending(blocks),
            _ => None,
        };
        // What ran before the statement's start (the start event itself flushes the block
        // before it) is not the statement's.
        if ts <= start {
            continue;
        }
        if let Some(ran) = ran {
            out.extend(local_reads(blocks, &ran).map(|(_, var)| Read::Local { var, at: ts - 1 }));
        }
        match e.event.kind {
            EventKind::FieldRead { object, field } => out.push(Read::Field {
                object,
                field,
                at: ts,
            }),
            EventKind::ArrayRead { array, index } => out.push(Read::Element {
                array,
                index,
                at: ts,
            }),
            EventKind::StaticRead { field } => out.push(Read::Static { field, at: ts }),
            _ => {}
        }
        if ts >= write {
            break;
        }
    }
    out
}

/// Turns reads into inputs: values at their timestamps and paths through the locals (and
/// earlier inputs) the statement reached objects by.
struct Inputs<'a> {
    reader: &'a TraceReader,
    node: NodeId,
    method: &'a MethodDef,
    limits: RenderLimits,
    /// The path of each object the statement has read a reference to so far (the latest).
    known: HashMap<ObjectId, VarPath>,
    inputs: Vec<Input>,
}

impl Inputs<'_> {
    fn object_path(&self, id: ObjectId) -> VarPath {
        self.known
            .get(&id)
            .cloned()
            .unwrap_or_else(|| VarPath::object(id))
    }

    fn add(&mut self, read: Read) -> OmniResult<()> {
        let r = self.reader;
        let (path, value, at) = match read {
            Read::Local { var, at } => {
                let Some(v) = self.method.vars.get(var as usize) else {
                    return Ok(());
                };
                (
                    VarPath::local(self.node, &v.name),
                    r.local_at(self.node, var, at)?,
                    at,
                )
            }
            Read::Field { object, field, at } => {
                let name = r
                    .field(field)?
                    .map_or_else(|| format!("#{field}"), |f| f.name);
                (
                    self.object_path(object).child(Step::Field(name)),
                    r.field_at(object, field, at)?,
                    at,
                )
            }
            Read::Element { array, index, at } => (
                self.object_path(array).child(Step::Index(index)),
                r.element_at(array, index, at)?,
                at,
            ),
            Read::Static { field, at } => {
                let Some(f) = r.field(field)? else {
                    return Ok(());
                };
                let class = r
                    .class(f.class)?
                    .map_or_else(|| format!("#{}", f.class), |c| c.name);
                let Ok(path) = VarPath::parse(&format!("static:{class}.{}", f.name)) else {
                    return Ok(());
                };
                (path, r.static_at(field, at)?, at)
            }
        };
        if let Some(Value::Object(o)) = value {
            self.known.insert(o, path.clone());
        }
        let input = Input {
            path: path.to_string(),
            value: value
                .map(|v| render_value(r, &v, at, self.limits))
                .transpose()?,
            at,
        };
        if !self
            .inputs
            .iter()
            .any(|i| i.path == input.path && i.value == input.value)
        {
            self.inputs.push(input);
        }
        Ok(())
    }
}
