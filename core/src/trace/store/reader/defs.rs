//! Definitions: classes, methods (with their variables and bytecode hash), fields, threads,
//! strings.
//!
//! A definition never changes once stored, so those read again and again (by the reference
//! oracle's state walks and the question renderer: a class or field per object visited) are
//! cached in [`DefCache`]; an id not stored yet is not cached (a live trace may store it later).

use std::collections::HashMap;

use rusqlite::OptionalExtension;

use super::TraceReader;
use crate::ids::{ClassId, FieldId, MethodId, NodeId, ObjectId, StringId, ThreadId};
use crate::trace::store::error::StoreResult;
use crate::trace::wire::{
    read_blocks, ByteReader, ClassDef, FieldDef, MethodDef, ThreadDef, VarDef,
};

/// Entries a cache keeps before it starts again empty (strings are the many ones).
const CACHE_ENTRIES: usize = 1 << 16;

/// Definitions already read (see the module documentation).
#[derive(Default)]
pub(super) struct DefCache {
    classes: HashMap<ClassId, ClassDef>,
    fields: HashMap<FieldId, FieldDef>,
    fields_of: HashMap<ClassId, Vec<FieldDef>>,
    methods: HashMap<MethodId, MethodDef>,
    strings: HashMap<StringId, String>,
    /// Objects, only while the reader is held (a live object may get its content kind later).
    pub(super) objects: HashMap<ObjectId, Option<super::ObjectInfo>>,
}

/// Inserts into a bounded cache: a full one is emptied first.
pub(super) fn keep<K: std::hash::Hash + Eq, V>(map: &mut HashMap<K, V>, key: K, value: V) {
    if map.len() >= CACHE_ENTRIES {
        map.clear();
    }
    map.insert(key, value);
}

impl TraceReader {
    pub fn class(&self, id: ClassId) -> StoreResult<Option<ClassDef>> {
        if let Some(c) = self.defs.borrow().classes.get(&id) {
            return Ok(Some(c.clone()));
        }
        let found = self.read_class(id)?;
        if let Some(c) = &found {
            keep(&mut self.defs.borrow_mut().classes, id, c.clone());
        }
        Ok(found)
    }

    fn read_class(&self, id: ClassId) -> StoreResult<Option<ClassDef>> {
        self.conn
            .prepare_cached("SELECT name, source_file, flags FROM classes WHERE id = ?1")
            .and_then(|mut s| {
                s.query_row([id.0], |r| {
                    Ok(ClassDef {
                        id,
                        name: r.get(0)?,
                        source_file: r.get(1)?,
                        flags: r.get(2)?,
                    })
                })
                .optional()
            })
            .map_err(self.err("reading a class"))
    }

    /// Finds a class by its dotted name.
    pub fn class_named(&self, name: &str) -> StoreResult<Option<ClassDef>> {
        let id: Option<u32> = self
            .conn
            .prepare_cached("SELECT id FROM classes WHERE name = ?1")
            .and_then(|mut s| s.query_row([name], |r| r.get(0)).optional())
            .map_err(self.err("reading a class"))?;
        match id {
            Some(id) => self.class(ClassId(id)),
            None => Ok(None),
        }
    }

    /// A method with its variables.
    pub fn method(&self, id: MethodId) -> StoreResult<Option<MethodDef>> {
        if let Some(m) = self.defs.borrow().methods.get(&id) {
            return Ok(Some(m.clone()));
        }
        let found = self.read_method(id)?;
        if let Some(m) = &found {
            keep(&mut self.defs.borrow_mut().methods, id, m.clone());
        }
        Ok(found)
    }

    fn read_method(&self, id: MethodId) -> StoreResult<Option<MethodDef>> {
        let m = self
            .conn
            .prepare_cached(
                "SELECT class, name, descriptor, access, flags, hash, first_line, last_line, blocks FROM methods WHERE id = ?1",
            )
            .and_then(|mut s| {
                s.query_row([id.0], |r| {
                    let hash: Vec<u8> = r.get(5)?;
                    let mut h = [0u8; 16];
                    if hash.len() == 16 {
                        h.copy_from_slice(&hash);
                    }
                    let blocks: Vec<u8> = r.get(8)?;
                    Ok((MethodDef {
                        id,
                        class: ClassId(r.get(0)?),
                        name: r.get(1)?,
                        descriptor: r.get(2)?,
                        access: r.get(3)?,
                        flags: r.get(4)?,
                        hash: h,
                        first_line: r.get(6)?,
                        last_line: r.get(7)?,
                        vars: Vec::new(),
                        blocks: Vec::new(),
                    }, blocks))
                })
                .optional()
            })
            .map_err(self.err("reading a method"))?;
        let Some((mut m, blocks)) = m else {
            return Ok(None);
        };
        m.blocks = read_blocks(&mut ByteReader::new(&blocks))
            .map_err(|e| self.corrupt(&format!("block table of method {}", id.0), e.problem))?;
        let mut st = self
            .conn
            .prepare_cached(
                "SELECT slot, name, descriptor FROM method_vars WHERE method = ?1 ORDER BY var",
            )
            .map_err(self.err("reading local variables"))?;
        let vars = st
            .query_map([id.0], |r| {
                Ok(VarDef {
                    slot: r.get(0)?,
                    name: r.get(1)?,
                    descriptor: r.get(2)?,
                })
            })
            .map_err(self.err("reading local variables"))?;
        m.vars = vars
            .collect::<Result<_, _>>()
            .map_err(self.err("reading local variables"))?;
        Ok(Some(m))
    }

    /// Methods named `name` in the class named `class` (dotted), all overloads.
    pub fn methods_named(&self, class: &str, name: &str) -> StoreResult<Vec<MethodId>> {
        let mut st = self
            .conn
            .prepare_cached("SELECT m.id FROM methods m JOIN classes c ON c.id = m.class WHERE c.name = ?1 AND m.name = ?2 ORDER BY m.id")
            .map_err(self.err("finding a method"))?;
        let rows = st
            .query_map([class, name], |r| Ok(MethodId(r.get(0)?)))
            .map_err(self.err("finding a method"))?;
        rows.collect::<Result<_, _>>()
            .map_err(self.err("finding a method"))
    }

    pub fn field(&self, id: FieldId) -> StoreResult<Option<FieldDef>> {
        if let Some(f) = self.defs.borrow().fields.get(&id) {
            return Ok(Some(f.clone()));
        }
        let found = self.read_field(id)?;
        if let Some(f) = &found {
            keep(&mut self.defs.borrow_mut().fields, id, f.clone());
        }
        Ok(found)
    }

    fn read_field(&self, id: FieldId) -> StoreResult<Option<FieldDef>> {
        self.conn
            .prepare_cached("SELECT class, name, descriptor, flags FROM fields WHERE id = ?1")
            .and_then(|mut s| {
                s.query_row([id.0], |r| {
                    Ok(FieldDef {
                        id,
                        class: ClassId(r.get(0)?),
                        name: r.get(1)?,
                        descriptor: r.get(2)?,
                        flags: r.get(3)?,
                    })
                })
                .optional()
            })
            .map_err(self.err("reading a field"))
    }

    /// Fields whose owner (as the bytecode names it) is `class`.
    pub fn fields_of(&self, class: ClassId) -> StoreResult<Vec<FieldDef>> {
        if let Some(f) = self.defs.borrow().fields_of.get(&class) {
            return Ok(f.clone());
        }
        let found = self.read_fields_of(class)?;
        // Fields are defined as bytecode names them, so a live trace may add some later.
        if self.held {
            keep(&mut self.defs.borrow_mut().fields_of, class, found.clone());
        }
        Ok(found)
    }

    fn read_fields_of(&self, class: ClassId) -> StoreResult<Vec<FieldDef>> {
        let mut st = self
            .conn
            .prepare_cached(
                "SELECT id, name, descriptor, flags FROM fields WHERE class = ?1 ORDER BY id",
            )
            .map_err(self.err("reading fields"))?;
        let rows = st
            .query_map([class.0], |r| {
                Ok(FieldDef {
                    id: FieldId(r.get(0)?),
                    class,
                    name: r.get(1)?,
                    descriptor: r.get(2)?,
                    flags: r.get(3)?,
                })
            })
            .map_err(self.err("reading fields"))?;
        rows.collect::<Result<_, _>>()
            .map_err(self.err("reading fields"))
    }

    /// The text of a string id; `None` if its `STRING` event was never received.
    pub fn string(&self, id: StringId) -> StoreResult<Option<String>> {
        if let Some(t) = self.defs.borrow().strings.get(&id) {
            return Ok(Some(t.clone()));
        }
        let found: Option<String> = self
            .conn
            .prepare_cached("SELECT text FROM strings WHERE id = ?1")
            .and_then(|mut s| s.query_row([id.0 as i64], |r| r.get(0)).optional())
            .map_err(self.err("reading a string"))?;
        if let Some(t) = &found {
            keep(&mut self.defs.borrow_mut().strings, id, t.clone());
        }
        Ok(found)
    }

    /// Every thread with its thread node (`None` for a thread defined but without events).
    pub fn threads(&self) -> StoreResult<Vec<(ThreadDef, Option<NodeId>)>> {
        let mut st = self
            .conn
            .prepare_cached("SELECT id, java_id, name, node FROM threads ORDER BY id")
            .map_err(self.err("reading threads"))?;
        let rows = st
            .query_map([], |r| {
                Ok((
                    ThreadDef {
                        id: ThreadId(r.get(0)?),
                        java_id: r.get::<_, Option<i64>>(1)?.unwrap_or(0) as u64,
                        name: r.get::<_, Option<String>>(2)?.unwrap_or_default(),
                    },
                    r.get::<_, Option<u32>>(3)?.map(NodeId),
                ))
            })
            .map_err(self.err("reading threads"))?;
        rows.collect::<Result<_, _>>()
            .map_err(self.err("reading threads"))
    }

    /// Every static field the trace defines, in definition order.
    pub fn static_fields(&self) -> StoreResult<Vec<FieldDef>> {
        let mut st = self
            .conn
            .prepare_cached("SELECT id, class, name, descriptor, flags FROM fields WHERE flags & 1 = 1 ORDER BY id")
            .map_err(self.err("reading fields"))?;
        let rows = st
            .query_map([], |r| {
                Ok(FieldDef {
                    id: FieldId(r.get(0)?),
                    class: ClassId(r.get(1)?),
                    name: r.get(2)?,
                    descriptor: r.get(3)?,
                    flags: r.get(4)?,
                })
            })
            .map_err(self.err("reading fields"))?;
        rows.collect::<Result<_, _>>()
            .map_err(self.err("reading fields"))
    }
}
