//! Coverage of one frame (one call of an instrumented method), fed its own events as they
//! arrive: the path through the block table gives the edges, the effects matched to write and
//! read events give the sites of def-use chains.

use std::sync::Arc;

use super::cursor::{local_reads, BlockCursor, Ran};
use super::writers::{HeapKey, LastWriters};
use super::{Entity, HeapKind, Interner, NodeCoverage, ENTRY};
use crate::ids::{FieldId, MethodId};
use crate::trace::wire::{BlockDef, EffectKind, EventKind};

/// A method's block table with the site of each block's first effect.
#[derive(Debug)]
pub struct MethodTable {
    pub blocks: Vec<BlockDef>,
    first_site: Vec<u32>,
}

impl MethodTable {
    pub fn new(blocks: Vec<BlockDef>) -> MethodTable {
        let mut first_site = Vec::with_capacity(blocks.len());
        let mut n = 0u32;
        for b in &blocks {
            first_site.push(n);
            n = n.saturating_add(b.effects.len() as u32);
        }
        MethodTable { blocks, first_site }
    }
}

/// What the frames of a recording share: the last heap writers and the entity ids.
#[derive(Default)]
pub struct Shared {
    pub writers: LastWriters,
    pub interner: Interner,
    /// Frames of finished calls, reused by the next ones with their vectors (a call's coverage
    /// would otherwise cost several allocations, and a frame on the recorder's stack a copy of
    /// its whole state at each call and return). Boxed because frames hold them boxed: a
    /// spare moves in and out without a copy.
    #[allow(clippy::vec_box)]
    spare: Vec<Box<FrameCoverage>>,
}

/// Spare frames kept at most.
const SPARE: usize = 256;

impl Shared {
    /// The coverage of a new call of `method` (see `FrameCoverage::new`), in a reused frame.
    pub fn frame(
        &mut self,
        method: MethodId,
        table: Arc<MethodTable>,
        entry_vars: u32,
    ) -> Box<FrameCoverage> {
        match self.spare.pop() {
            Some(mut f) => {
                f.method = method;
                f.table = table;
                f.cursor = BlockCursor::default();
                f.started = false;
                f.defs.extend((0..entry_vars).map(|_| Some(ENTRY)));
                f
            }
            None => Box::new(FrameCoverage::new(method, table, entry_vars)),
        }
    }

    /// Gives a finished call's frame back for reuse.
    pub fn recycle(&mut self, mut f: Box<FrameCoverage>) {
        if self.spare.len() < SPARE {
            f.defs.clear();
            f.uninit.clear();
            f.edges.clear();
            f.def_uses.clear();
            self.spare.push(f);
        }
    }

    /// A heap write that no frame matched to a site (a method without a block table): later
    /// reads must not see the write before it.
    pub fn unmatched(&mut self, kind: &EventKind) {
        if let Some(key) = written_key(kind) {
            self.writers.forget(key);
        }
    }
}

/// The heap variable a write event writes.
pub fn written_key(kind: &EventKind) -> Option<HeapKey> {
    Some(match *kind {
        EventKind::FieldWrite { object, field, .. } => HeapKey::Field(object, field),
        EventKind::StaticWrite { field, .. } => HeapKey::Static(field),
        EventKind::ArrayWrite { array, index, .. } => HeapKey::Element(array, index),
        _ => return None,
    })
}

pub struct FrameCoverage {
    method: MethodId,
    table: Arc<MethodTable>,
    cursor: BlockCursor,
    /// A `BLOCK` came (the next edge does not start at `ENTRY`).
    started: bool,
    /// By var id: the site of the last write, `ENTRY` for an argument.
    defs: Vec<Option<u32>>,
    /// Sites of `FIELD_WRITE_UNINIT`s waiting for `THIS` to name their object.
    uninit: Vec<(FieldId, u32)>,
    edges: Vec<u32>,
    def_uses: Vec<u32>,
}

impl FrameCoverage {
    /// A call of `method` whose var ids below `entry_vars` are set at entry (the arguments,
    /// `this` included).
    pub fn new(method: MethodId, table: Arc<MethodTable>, entry_vars: u32) -> FrameCoverage {
        FrameCoverage {
            method,
            table,
            cursor: BlockCursor::default(),
            started: false,
            defs: (0..entry_vars).map(|_| Some(ENTRY)).collect(),
            uninit: Vec::new(),
            edges: Vec::new(),
            def_uses: Vec::new(),
        }
    }

    /// One event of this frame (not of its callees).
    pub fn event(&mut self, kind: &EventKind, sh: &mut Shared) {
        match *kind {
            EventKind::Block { block, .. } => self.enter_block(block, sh),
            EventKind::Catch(_) => self.cursor.catch(),
            EventKind::Throw(_) => self.flush_rest(sh),
            EventKind::Local { var, .. } => {
                if let Some(site) = self.take(EffectKind::LocalWrite, var, sh) {
                    let i = var as usize;
                    if i < self.table_vars_bound() {
                        if self.defs.len() <= i {
                            self.defs.resize(i + 1, None);
                        }
                        self.defs[i] = Some(site);
                    }
                }
            }
            EventKind::FieldWriteUninit { field, .. } => {
                // The object is known at `THIS`; no read of it can come before.
                if let Some(site) = self.take(EffectKind::FieldWrite, field.0, sh) {
                    self.uninit.push((field, site));
                }
            }
            EventKind::This(object) => {
                for (field, site) in self.uninit.drain(..) {
                    sh.writers
                        .write(HeapKey::Field(object, field), (self.method, site));
                }
            }
            EventKind::FieldWrite { field, .. } => {
                self.write(kind, EffectKind::FieldWrite, field.0, sh)
            }
            EventKind::StaticWrite { field, .. } => {
                self.write(kind, EffectKind::StaticWrite, field.0, sh)
            }
            EventKind::ArrayWrite { .. } => self.write(kind, EffectKind::ArrayWrite, 0, sh),
            EventKind::FieldRead { object, field } => self.read(
                HeapKey::Field(object, field),
                (HeapKind::Field, field),
                EffectKind::FieldRead,
                sh,
            ),
            EventKind::StaticRead { field } => self.read(
                HeapKey::Static(field),
                (HeapKind::Static, field),
                EffectKind::StaticRead,
                sh,
            ),
            EventKind::ArrayRead { array, index } => self.read(
                HeapKey::Element(array, index),
                (HeapKind::Array, FieldId(0)),
                EffectKind::ArrayRead,
                sh,
            ),
            _ => {}
        }
    }

    /// The call ended: `normally` by `RETURN` (the rest of its block ran), else by `UNWIND`.
    /// Its entities, ids sorted and unique (`covered`).
    pub fn finish(&mut self, normally: bool, sh: &mut Shared) {
        if normally {
            self.flush_rest(sh);
        }
        for v in [&mut self.edges, &mut self.def_uses] {
            v.sort_unstable();
            v.dedup();
        }
    }

    /// The block table of the frame's method.
    pub fn table(&self) -> &MethodTable {
        &self.table
    }

    /// What the call covered, once `finish`ed: edges and def-use chains.
    pub fn covered(&self) -> (&[u32], &[u32]) {
        (&self.edges, &self.def_uses)
    }

    /// The entities of a finished call as their own vectors.
    pub fn to_coverage(&self) -> NodeCoverage {
        NodeCoverage {
            edges: self.edges.clone(),
            def_uses: self.def_uses.clone(),
        }
    }

    /// Var ids are bounded by what a method can have (65536 slots), so a bad id from the
    /// stream cannot size `defs`.
    fn table_vars_bound(&self) -> usize {
        1 << 16
    }

    fn enter_block(&mut self, block: u32, sh: &mut Shared) {
        let from = match self.cursor.block() {
            Some(b) if self.started => b as u32,
            _ => ENTRY,
        };
        let exception = self.cursor.exception();
        if let Some(rest) = self.cursor.enter(&self.table.blocks, block) {
            self.uses(rest, sh);
        }
        self.started = true;
        if self.cursor.block().is_some() {
            let e = Entity::Edge {
                method: self.method,
                from,
                to: block,
                exception,
            };
            self.edges.push(sh.interner.id(e));
        }
    }

    fn write(&mut self, kind: &EventKind, effect: EffectKind, target: u32, sh: &mut Shared) {
        let Some(key) = written_key(kind) else { return };
        match self.take(effect, target, sh) {
            Some(site) => sh.writers.write(key, (self.method, site)),
            None => sh.writers.forget(key),
        }
    }

    fn read(
        &mut self,
        key: HeapKey,
        (kind, field): (HeapKind, FieldId),
        effect: EffectKind,
        sh: &mut Shared,
    ) {
        let target = if kind == HeapKind::Array { 0 } else { field.0 };
        let Some(site) = self.take(effect, target, sh) else {
            return;
        };
        if let Some(def) = sh.writers.get(&key) {
            let e = Entity::HeapDefUse {
                kind,
                field,
                def,
                use_site: (self.method, site),
            };
            self.def_uses.push(sh.interner.id(e));
        }
    }

    /// Matches the next effect `(kind, target)` of the current block and returns its site;
    /// the local reads passed over were executed. `None` when the event does not fit the table.
    fn take(&mut self, kind: EffectKind, target: u32, sh: &mut Shared) -> Option<u32> {
        let (passed, found) = self.cursor.take(&self.table.blocks, kind, target)?;
        let b = passed.block;
        self.uses(passed, sh);
        Some(self.table.first_site[b].saturating_add(found as u32))
    }

    /// The rest of the current block ran: its remaining local reads are uses.
    fn flush_rest(&mut self, sh: &mut Shared) {
        if let Some(rest) = self.cursor.rest(&self.table.blocks) {
            self.uses(rest, sh);
        }
    }

    fn uses(&mut self, ran: Ran, sh: &mut Shared) {
        let table = &*self.table;
        let first = table.first_site[ran.block];
        for (i, var) in local_reads(&table.blocks, &ran) {
            if let Some(Some(def)) = self.defs.get(var as usize) {
                let entity = Entity::LocalDefUse {
                    method: self.method,
                    var,
                    def: *def,
                    use_site: first.saturating_add(i as u32),
                };
                self.def_uses.push(sh.interner.id(entity));
            }
        }
    }
}

/// The coverage of one complete frame from its own events (the `CALL` and the exit excluded):
/// the pure form of `FrameCoverage`, for tests and offline passes.
pub fn frame_entities(
    method: MethodId,
    table: Arc<MethodTable>,
    entry_vars: u32,
    events: &[EventKind],
    normally: bool,
    sh: &mut Shared,
) -> NodeCoverage {
    let mut f = FrameCoverage::new(method, table, entry_vars);
    for e in events {
        f.event(e, sh);
    }
    f.finish(normally, sh);
    f.to_coverage()
}
