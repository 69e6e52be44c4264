//! The last application write of each heap variable, bounded: two generations of at most
//! `capacity / 2` variables each; when the young one is full the old one is dropped, so the
//! variables written least recently are forgotten first and memory never grows past `capacity`.

use rustc_hash::FxHashMap;

use crate::ids::{FieldId, MethodId, ObjectId};

/// A heap variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeapKey {
    Field(ObjectId, FieldId),
    Static(FieldId),
    Element(ObjectId, u32),
}

/// The writer of a variable: its method and the site of the write effect.
pub type Writer = (MethodId, u32);

pub struct LastWriters {
    young: FxHashMap<HeapKey, Writer>,
    old: FxHashMap<HeapKey, Writer>,
    half: usize,
}

/// Variables remembered by default (about 40 MB at most).
pub const DEFAULT_CAPACITY: usize = 1 << 20;

impl Default for LastWriters {
    fn default() -> Self {
        Self::new(DEFAULT_CAPACITY)
    }
}

impl LastWriters {
    pub fn new(capacity: usize) -> Self {
        LastWriters {
            young: FxHashMap::default(),
            old: FxHashMap::default(),
            half: (capacity / 2).max(1),
        }
    }

    /// `key`'s writer from now on. A writer the old generation still holds for `key` stays
    /// there, hidden by the young one (`get` looks there first) until the old generation is
    /// dropped: removing it would cost every write a probe of the old map, mostly a miss.
    pub fn write(&mut self, key: HeapKey, writer: Writer) {
        if self.young.len() >= self.half && !self.young.contains_key(&key) {
            self.old = std::mem::take(&mut self.young);
        }
        self.young.insert(key, writer);
    }

    /// Uninstrumented code wrote `key`: no application write reaches a later read.
    pub fn forget(&mut self, key: HeapKey) {
        self.young.remove(&key);
        self.old.remove(&key);
    }

    pub fn get(&self, key: &HeapKey) -> Option<Writer> {
        self.young.get(key).or_else(|| self.old.get(key)).copied()
    }

    /// Writers kept now (a variable rewritten since the young generation started may count
    /// twice, once hidden in the old one).
    pub fn len(&self) -> usize {
        self.young.len() + self.old.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}
