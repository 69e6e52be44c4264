//! Coverage entities of a call (issue 4): what the call itself executed, not its callees.
//!
//! Definitions (also in docs/ARCHITECTURE.md, "Coverage entities"):
//!
//! - A **CFG edge** is `(method, from block, to block)`: two consecutive `BLOCK` events of one
//!   frame. The first block of a call comes from the virtual entry block `ENTRY`. After a
//!   `CATCH` in the frame, the next `BLOCK` (the handler) makes an *exception edge* from the
//!   block where the exception left (the last block the frame started), flagged as such.
//! - A **local def-use chain** is `(method, var, def site, use site)`: the use site is a
//!   local-read effect of an executed block, the def site is the site of the frame's last
//!   write effect of that var before it, or `ENTRY` for an argument not written since entry.
//!   Local reads have no event: the reads of a block before a matched write/read event are
//!   executed, and so are the rest of a block that the frame left normally (next `BLOCK`,
//!   `RETURN`, `THROW`); after a `CATCH` or at an `UNWIND` the rest of the block is skipped,
//!   since where the exception left it is unknown.
//! - A **heap def-use chain** is `(heap variable kind, field, def (method, site), use (method,
//!   site))` for a read event of a field, static field or array element: the def is the last
//!   write event of that same variable (object + field, field, or array + index) by application
//!   code, in any call and any thread before. The last writers are kept in a bounded map
//!   (`LastWriters`): beyond `capacity` variables the least recently written are forgotten,
//!   and a read whose writer is forgotten, was uninstrumented code (`CONTENT`, a re-sent
//!   array) or the default value gives no chain.
//!
//! A *site* is an effect's position among all the effects of its method (see
//! docs/wire-format.md); write and read events get their site by matching the block's effects
//! in order. Entities are interned to dense `u32` ids per trace (`Interner`) and stored with the
//! trace (docs/trace-schema.md). Everything is computed while recording, frame by frame
//! (`FrameCoverage`), so a node's entities are known when it completes. rayon is not used:
//! each frame is a short sequential scan done as its events arrive, there is no batch to split.

mod cursor;
mod frame;
mod writers;

#[cfg(test)]
mod tests;

pub use cursor::{local_reads, BlockCursor, Ran};
pub use frame::{frame_entities, written_key, FrameCoverage, MethodTable, Shared};
pub use writers::{HeapKey, LastWriters};

use rustc_hash::FxHashMap;

use crate::ids::{FieldId, MethodId};

/// The virtual entry block of a call, and the def site of an argument.
pub const ENTRY: u32 = u32::MAX;

/// Which kind of heap variable a heap def-use chain is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeapKind {
    Field,
    Static,
    Array,
}

/// A coverage entity (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Entity {
    Edge {
        method: MethodId,
        from: u32,
        to: u32,
        exception: bool,
    },
    LocalDefUse {
        method: MethodId,
        var: u32,
        def: u32,
        use_site: u32,
    },
    HeapDefUse {
        kind: HeapKind,
        /// The field, `FieldId(0)` for array elements.
        field: FieldId,
        def: (MethodId, u32),
        use_site: (MethodId, u32),
    },
}

impl Entity {
    pub fn is_edge(&self) -> bool {
        matches!(self, Entity::Edge { .. })
    }

    /// The row of `coverage_entities`: `(kind, method, a, b, c, d)`.
    pub fn to_row(&self) -> [i64; 6] {
        match *self {
            Entity::Edge {
                method,
                from,
                to,
                exception,
            } => [
                0,
                method.0.into(),
                from.into(),
                to.into(),
                exception.into(),
                0,
            ],
            Entity::LocalDefUse {
                method,
                var,
                def,
                use_site,
            } => [
                1,
                method.0.into(),
                var.into(),
                def.into(),
                use_site.into(),
                0,
            ],
            Entity::HeapDefUse {
                kind,
                field,
                def,
                use_site,
            } => [
                match kind {
                    HeapKind::Field => 2,
                    HeapKind::Static => 3,
                    HeapKind::Array => 4,
                },
                def.0 .0.into(),
                field.0.into(),
                def.1.into(),
                use_site.0 .0.into(),
                use_site.1.into(),
            ],
        }
    }

    /// The inverse of `to_row`; `None` for a row no version of `to_row` writes.
    pub fn from_row(r: [i64; 6]) -> Option<Entity> {
        let u = |v: i64| u32::try_from(v).ok();
        let method = MethodId(u(r[1])?);
        Some(match r[0] {
            0 => Entity::Edge {
                method,
                from: u(r[2])?,
                to: u(r[3])?,
                exception: r[4] != 0,
            },
            1 => Entity::LocalDefUse {
                method,
                var: u(r[2])?,
                def: u(r[3])?,
                use_site: u(r[4])?,
            },
            2..=4 => Entity::HeapDefUse {
                kind: [HeapKind::Field, HeapKind::Static, HeapKind::Array][(r[0] - 2) as usize],
                field: FieldId(u(r[2])?),
                def: (method, u(r[3])?),
                use_site: (MethodId(u(r[4])?), u(r[5])?),
            },
            _ => return None,
        })
    }
}

/// Gives entities dense ids from 0, in the order first met, and remembers the ones not yet
/// stored.
#[derive(Default)]
pub struct Interner {
    ids: FxHashMap<Entity, u32>,
    unsaved: Vec<(u32, Entity)>,
    /// In front of `ids`: by method (the using one), kind of entity and the block or site it
    /// ends at, a slot of the entities met there, inline. Two dependent loads and a compare of
    /// a few words instead of hashing an entity and probing the map, the recorder's largest
    /// cost before (docs/benchmarks.md, "Where the store's time goes").
    near: Vec<[Vec<NearSlot>; 3]>,
}

/// The entities met at one block or site, each as the key that tells it from the others
/// there (`near_key`); the slot's `tag` is what they all share beyond their method and slot (a
/// heap def-use's kind and field), so that an entity with another tag goes to the map.
#[derive(Clone, Default)]
struct NearSlot {
    tag: u64,
    len: u32,
    ids: [u32; NEAR_WAYS],
    keys: [u64; NEAR_WAYS],
}

/// Methods and blocks or sites the `near` cache holds at most; others go to the map only, as
/// do the entities of a slot beyond its `NEAR_WAYS`.
const NEAR_METHODS: usize = 1 << 20;
const NEAR_SLOTS: usize = 1 << 16;
const NEAR_WAYS: usize = 4;

/// Where an entity is cached in `Interner::near`: its method (the using one), kind, the block
/// or site it ends at, the tag its slot's entities share and its key within the slot.
fn near_key(e: &Entity) -> (usize, usize, usize, u64, u64) {
    match *e {
        Entity::Edge {
            method,
            from,
            to,
            exception,
        } => (
            method.0 as usize,
            0,
            to as usize,
            0,
            u64::from(from) << 1 | u64::from(exception),
        ),
        Entity::LocalDefUse {
            method,
            var,
            def,
            use_site,
        } => (
            method.0 as usize,
            1,
            use_site as usize,
            0,
            u64::from(var) << 32 | u64::from(def),
        ),
        Entity::HeapDefUse {
            kind,
            field,
            def,
            use_site,
        } => (
            use_site.0 .0 as usize,
            2,
            use_site.1 as usize,
            (kind as u64) << 32 | u64::from(field.0),
            u64::from(def.0 .0) << 32 | u64::from(def.1),
        ),
    }
}

impl Interner {
    pub fn id(&mut self, e: Entity) -> u32 {
        let (m, k, slot, tag, key) = near_key(&e);
        if m >= NEAR_METHODS || slot >= NEAR_SLOTS {
            return self.far(e);
        }
        if let Some(s) = self.near.get(m).and_then(|per| per[k].get(slot)) {
            let n = s.len as usize;
            if n > 0 && s.tag == tag {
                if let Some(i) = s.keys[..n].iter().position(|&x| x == key) {
                    return s.ids[i];
                }
            }
        }
        let id = self.far(e);
        if self.near.len() <= m {
            self.near.resize_with(m + 1, Default::default);
        }
        let slots = &mut self.near[m][k];
        if slots.len() <= slot {
            slots.resize_with(slot + 1, NearSlot::default);
        }
        let s = &mut slots[slot];
        if s.len == 0 {
            s.tag = tag;
        }
        let n = s.len as usize;
        if s.tag == tag && n < NEAR_WAYS {
            s.keys[n] = key;
            s.ids[n] = id;
            s.len += 1;
        }
        id
    }

    fn far(&mut self, e: Entity) -> u32 {
        let next = self.ids.len() as u32;
        *self.ids.entry(e).or_insert_with(|| {
            self.unsaved.push((next, e));
            next
        })
    }

    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// The entities interned since the last call.
    pub fn take_unsaved(&mut self) -> Vec<(u32, Entity)> {
        std::mem::take(&mut self.unsaved)
    }
}

/// The entities one call covered, ids sorted and unique.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NodeCoverage {
    pub edges: Vec<u32>,
    pub def_uses: Vec<u32>,
}

impl NodeCoverage {
    /// Whether the call covered nothing of its own (nothing to store or weigh).
    pub fn is_empty(&self) -> bool {
        self.edges.is_empty() && self.def_uses.is_empty()
    }
}
