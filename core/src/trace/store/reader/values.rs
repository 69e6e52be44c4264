//! Values of variables at any timestamp, from the change index: one page lookup per index
//! segment, newest first, never a replay from the start.

use std::sync::Arc;

use rusqlite::OptionalExtension;
use serde::{Deserialize, Serialize};

use super::{Segment, TraceReader};
use crate::ids::{ClassId, FieldId, NodeId, ObjectId, Timestamp};
use crate::trace::store::error::StoreResult;
use crate::trace::store::index::{decode_page, IndexEntry, Key, Variable, Write};
use crate::trace::wire::{ContentKind, Origin, Value, VarId};

/// An object or array as created.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ObjectInfo {
    pub id: ObjectId,
    pub class: ClassId,
    /// For arrays.
    pub length: Option<u32>,
    pub origin: Origin,
    pub created_ts: Timestamp,
    /// The node that created (or first met) it.
    pub node: NodeId,
    /// For an object of uninstrumented code whose content a `CONTENT` event sent: its kind.
    /// Its slots are elements (`element_at`, `array_at`), its length `content_length_at`.
    pub content: Option<ContentKind>,
}

/// The element slot holding a content object's length (see `content_length_at`).
pub const LENGTH_SLOT: u32 = u32::MAX;

/// Most elements `array_at` returns at once.
pub const MAX_PAGE: u32 = 1 << 16;

impl TraceReader {
    /// Index segments that may hold writes at or before `t`, newest last write first.
    fn segments_upto(&self, t: Timestamp) -> StoreResult<Vec<Segment>> {
        // A held reader's trace is finished: its segments, once read, never change.
        let known = self.held && self.segments.borrow().0 >= 0;
        let max_id: i64 = if known {
            self.segments.borrow().0
        } else {
            self.conn
                .prepare_cached("SELECT coalesce(max(id), 0) FROM segments")
                .and_then(|mut s| s.query_row([], |r| r.get(0)))
                .map_err(self.err("reading index segments"))?
        };
        let mut cache = self.segments.borrow_mut();
        if cache.0 != max_id {
            let mut st = self
                .conn
                .prepare_cached("SELECT id, first_ts, last_ts FROM segments ORDER BY last_ts DESC")
                .map_err(self.err("reading index segments"))?;
            let rows = st
                .query_map([], |r| {
                    Ok(Segment {
                        id: r.get(0)?,
                        first_ts: r.get::<_, i64>(1)? as u64,
                        last_ts: r.get::<_, i64>(2)? as u64,
                    })
                })
                .map_err(self.err("reading index segments"))?;
            cache.1 = rows
                .collect::<Result<_, _>>()
                .map_err(self.err("reading index segments"))?;
            cache.0 = max_id;
        }
        Ok(cache
            .1
            .iter()
            .filter(|s| s.first_ts <= t)
            .copied()
            .collect())
    }

    /// The page of `segment` that holds the entry at `probe` (a page start key), if any,
    /// decoded. In a finished trace nothing changes, so decoded pages are kept (`page_cache`):
    /// the reference oracle and the question renderer look up values near each other. (A live
    /// trace's merges replace segments, so its pages are decoded each time.)
    fn page_at(&self, segment: i64, probe: &[u8]) -> StoreResult<Option<Arc<Vec<IndexEntry>>>> {
        if let Some(starts) = self.page_starts(segment)? {
            let i = starts.partition_point(|s| s.as_slice() <= probe);
            return match i.checked_sub(1) {
                Some(i) => self.decoded_page(segment, starts[i].clone()).map(Some),
                None => Ok(None),
            };
        }
        let start: Option<Vec<u8>> = self
            .conn
            .prepare_cached(
                "SELECT start FROM index_pages WHERE segment = ?1 AND start <= ?2 ORDER BY start DESC LIMIT 1",
            )
            .and_then(|mut s| s.query_row(rusqlite::params![segment, probe], |r| r.get(0)).optional())
            .map_err(self.err("reading the change index"))?;
        let Some(start) = start else { return Ok(None) };
        self.decoded_page(segment, start).map(Some)
    }

    /// The start keys of `segment`'s pages, sorted, read once when the reader is held (a
    /// finished trace's segments never change): a value's look-up then costs no query when its
    /// page is decoded already. `None` for a trace being written.
    fn page_starts(&self, segment: i64) -> StoreResult<Option<Arc<Vec<Vec<u8>>>>> {
        if !self.held {
            return Ok(None);
        }
        if let Some(starts) = self.index_starts.borrow().get(&segment) {
            return Ok(Some(Arc::clone(starts)));
        }
        let starts: Vec<Vec<u8>> = {
            let mut st = self
                .conn
                .prepare_cached("SELECT start FROM index_pages WHERE segment = ?1 ORDER BY start")
                .map_err(self.err("reading the change index"))?;
            let rows = st
                .query_map([segment], |r| r.get::<_, Vec<u8>>(0))
                .map_err(self.err("reading the change index"))?;
            rows.collect::<Result<_, _>>()
                .map_err(self.err("reading the change index"))?
        };
        let starts = Arc::new(starts);
        self.index_starts
            .borrow_mut()
            .insert(segment, Arc::clone(&starts));
        Ok(Some(starts))
    }

    /// The page of `segment` starting at `start`, decoded, from the cache when it is there.
    fn decoded_page(&self, segment: i64, start: Vec<u8>) -> StoreResult<Arc<Vec<IndexEntry>>> {
        let key = (segment, start);
        if !self.held {
            return self.read_page(&key);
        }
        if let Some(entries) = self.page_cache.borrow_mut().get(&key) {
            return Ok(entries);
        }
        let entries = self.read_page(&key)?;
        self.page_cache.borrow_mut().put(key, entries.clone());
        Ok(entries)
    }

    fn read_page(&self, key: &(i64, Vec<u8>)) -> StoreResult<Arc<Vec<IndexEntry>>> {
        let data: Vec<u8> = self
            .conn
            .prepare_cached("SELECT data FROM index_pages WHERE segment = ?1 AND start = ?2")
            .and_then(|mut s| s.query_row(rusqlite::params![key.0, &key.1], |r| r.get(0)))
            .map_err(self.err("reading the change index"))?;
        Ok(Arc::new(decode_page(&data).map_err(|e| {
            self.corrupt("change index page", e.problem)
        })?))
    }

    /// Calls `f` on each entry of `segment` whose (key, timestamp) is within `[lo, hi]`, in
    /// order. Only that part of each page is visited: a page holds many variables, mostly
    /// other objects' (copying whole pages was most of a reference session's time).
    fn entries_between(
        &self,
        segment: i64,
        lo: (Key, Timestamp),
        hi: (Key, Timestamp),
        mut f: impl FnMut(&IndexEntry),
    ) -> StoreResult<()> {
        let mut visit = |entries: &[IndexEntry]| {
            let from = entries.partition_point(|e| (e.key, e.ts) < lo);
            for e in entries[from..].iter().take_while(|e| (e.key, e.ts) <= hi) {
                f(e);
            }
        };
        let (lo_start, hi_start) = (lo.0.page_start(lo.1), hi.0.page_start(hi.1));
        if let Some(entries) = self.page_at(segment, &lo_start)? {
            visit(&entries);
        }
        let starts: Vec<Vec<u8>> = {
            let mut st = self
                .conn
                .prepare_cached("SELECT start FROM index_pages WHERE segment = ?1 AND start > ?2 AND start <= ?3 ORDER BY start")
                .map_err(self.err("reading the change index"))?;
            let rows = st
                .query_map(rusqlite::params![segment, lo_start, hi_start], |r| {
                    r.get::<_, Vec<u8>>(0)
                })
                .map_err(self.err("reading the change index"))?;
            rows.collect::<Result<_, _>>()
                .map_err(self.err("reading the change index"))?
        };
        for start in starts {
            visit(&self.decoded_page(segment, start)?);
        }
        Ok(())
    }

    /// The last write of `loc` at or before `t`. `since` bounds the search: no write before it
    /// can exist (a call's entry, an object's creation).
    fn last_write_since(
        &self,
        loc: Variable,
        t: Timestamp,
        since: Timestamp,
    ) -> StoreResult<Option<Write>> {
        let key = loc.key();
        let probe = key.page_start(t);
        let mut best: Option<Write> = None;
        for seg in self.segments_upto(t)? {
            if seg.last_ts < since || best.is_some_and(|b| seg.last_ts <= b.ts) {
                break;
            }
            let Some(entries) = self.page_at(seg.id, &probe)? else {
                continue;
            };
            // Entries are sorted by (key, timestamp): the last one up to (key, t).
            let end = entries.partition_point(|e| (e.key, e.ts) <= (key, t));
            let found = end
                .checked_sub(1)
                .map(|i| &entries[i])
                .filter(|e| e.key == key);
            if let Some(e) = found {
                if best.is_none_or(|b| e.ts > b.ts) {
                    best = Some(Write::from(e));
                }
            }
        }
        Ok(best)
    }

    /// The last write of `loc` at or before `t` (the write that gave it its value at `t`).
    pub fn last_write(&self, loc: Variable, t: Timestamp) -> StoreResult<Option<Write>> {
        let since = self.lower_bound(loc)?;
        self.last_write_since(loc, t, since)
    }

    /// The last write of `loc` from `from` to `to`, both included (did a call change it?): reads
    /// only the index segments of that span, where `last_write` of a variable written long
    /// before goes back through every segment to its write.
    pub fn last_write_between(
        &self,
        loc: Variable,
        from: Timestamp,
        to: Timestamp,
    ) -> StoreResult<Option<Write>> {
        let since = self.lower_bound(loc)?.max(from);
        Ok(self
            .last_write_since(loc, to, since)?
            .filter(|w| w.ts >= from))
    }

    fn lower_bound(&self, loc: Variable) -> StoreResult<Timestamp> {
        Ok(match loc {
            Variable::Local { node, .. } => self.node(node)?.map_or(0, |n| n.header.entry),
            Variable::Field { object, .. } | Variable::Element { array: object, .. } => {
                self.object(object)?.map_or(0, |o| o.created_ts)
            }
            Variable::Static { .. } => 0,
        })
    }

    /// Every write of `loc` over the whole run, in time order.
    pub fn history(&self, loc: Variable) -> StoreResult<Vec<Write>> {
        let key = loc.key();
        let since = self.lower_bound(loc)?;
        let mut out = Vec::new();
        for seg in self.segments_upto(u64::MAX)? {
            if seg.last_ts < since {
                continue;
            }
            self.entries_between(seg.id, (key, 0), (key, u64::MAX), |e| {
                out.push(Write::from(e))
            })?;
        }
        out.sort_by_key(|w| w.ts);
        out.dedup_by_key(|w| w.ts);
        Ok(out)
    }

    pub fn object(&self, id: ObjectId) -> StoreResult<Option<ObjectInfo>> {
        if !self.held {
            return self.read_object(id);
        }
        if let Some(o) = self.defs.borrow().objects.get(&id) {
            return Ok(o.clone());
        }
        let found = self.read_object(id)?;
        super::defs::keep(&mut self.defs.borrow_mut().objects, id, found.clone());
        Ok(found)
    }

    fn read_object(&self, id: ObjectId) -> StoreResult<Option<ObjectInfo>> {
        self.conn
            .prepare_cached(
                "SELECT o.class, o.length, o.origin, o.created_ts, o.node, c.kind FROM objects o
                 LEFT JOIN contents c ON c.object = o.id WHERE o.id = ?1",
            )
            .and_then(|mut s| {
                s.query_row([id.0 as i64], |r| {
                    Ok(ObjectInfo {
                        id,
                        class: ClassId(r.get(0)?),
                        length: r.get(1)?,
                        origin: if r.get::<_, i64>(2)? == 0 {
                            Origin::Created
                        } else {
                            Origin::FirstSeen
                        },
                        created_ts: r.get::<_, i64>(3)? as u64,
                        node: NodeId(r.get::<_, Option<u32>>(4)?.unwrap_or(0)),
                        content: r.get::<_, Option<u8>>(5)?.and_then(ContentKind::from_byte),
                    })
                })
                .optional()
            })
            .map_err(self.err("reading an object"))
    }

    /// The name of a value's class: the object's class, `java.lang.String`, the box class of a
    /// boxed primitive, the primitive type's name; `None` for null, void and unknown objects.
    pub fn class_name_of(&self, v: &Value) -> StoreResult<Option<String>> {
        Ok(match v {
            Value::Void | Value::Null => None,
            Value::Object(o) => match self.object(*o)? {
                Some(info) => self.class(info.class)?.map(|c| c.name),
                None => None,
            },
            Value::Str(_) => Some("java.lang.String".into()),
            Value::Boxed(p) => Some(p.box_class_name().into()),
            Value::Boolean(_) => Some("boolean".into()),
            Value::Char(_) => Some("char".into()),
            Value::Byte(_) => Some("byte".into()),
            Value::Short(_) => Some("short".into()),
            Value::Int(_) => Some("int".into()),
            Value::Long(_) => Some("long".into()),
            Value::Float(_) => Some("float".into()),
            Value::Double(_) => Some("double".into()),
        })
    }

    /// A local variable (or argument) of a call at `t`; `None` before its first assignment.
    pub fn local_at(&self, node: NodeId, var: VarId, t: Timestamp) -> StoreResult<Option<Value>> {
        Ok(self
            .last_write(Variable::Local { node, var }, t)?
            .map(|w| w.value))
    }

    /// An instance field at `t`: its last write, else its default value if application code
    /// created the object by then; `None` when unknown.
    pub fn field_at(
        &self,
        object: ObjectId,
        field: FieldId,
        t: Timestamp,
    ) -> StoreResult<Option<Value>> {
        let info = self.object(object)?;
        let since = info.as_ref().map_or(0, |o| o.created_ts);
        if let Some(w) = self.last_write_since(Variable::Field { object, field }, t, since)? {
            return Ok(Some(w.value));
        }
        match info {
            Some(o) if o.origin == Origin::Created && o.created_ts <= t => Ok(self
                .field(field)?
                .map(|f| Value::default_for(&f.descriptor))),
            _ => Ok(None),
        }
    }

    /// A static field at `t`: its last write, else the default value when its class is
    /// instrumented (its initialiser's writes are recorded); `None` when unknown.
    pub fn static_at(&self, field: FieldId, t: Timestamp) -> StoreResult<Option<Value>> {
        if let Some(w) = self.last_write_since(Variable::Static { field }, t, 0)? {
            return Ok(Some(w.value));
        }
        let Some(f) = self.field(field)? else {
            return Ok(None);
        };
        let instrumented = self.class(f.class)?.is_some_and(|c| c.is_instrumented());
        Ok(instrumented.then(|| Value::default_for(&f.descriptor)))
    }

    fn element_default(&self, info: &ObjectInfo, t: Timestamp) -> StoreResult<Option<Value>> {
        if info.origin != Origin::Created || info.created_ts > t {
            return Ok(None);
        }
        let Some(class) = self.class(info.class)? else {
            return Ok(None);
        };
        Ok(Some(Value::default_for(
            class.name.strip_suffix("[]").unwrap_or("?"),
        )))
    }

    /// The length in slots of a content object at `t` (a map has two slots per entry, a text
    /// one); `None` before its first `CONTENT` and for other objects.
    pub fn content_length_at(&self, object: ObjectId, t: Timestamp) -> StoreResult<Option<u32>> {
        let v = self.last_write(
            Variable::Element {
                array: object,
                index: LENGTH_SLOT,
            },
            t,
        )?;
        Ok(match v.map(|w| w.value) {
            Some(Value::Int(n)) => u32::try_from(n).ok(),
            _ => None,
        })
    }

    /// The bound of an array's or content object's elements at `t`: its length, or `Some(0)`
    /// for a content object whose content is not known yet; `None` when there is none.
    fn length_at(&self, info: Option<&ObjectInfo>, t: Timestamp) -> StoreResult<Option<u32>> {
        match info {
            Some(o) if o.content.is_some() => {
                Ok(Some(self.content_length_at(o.id, t)?.unwrap_or(0)))
            }
            Some(o) => Ok(o.length),
            None => Ok(None),
        }
    }

    /// An array element at `t`; `None` when unknown or out of bounds.
    pub fn element_at(
        &self,
        array: ObjectId,
        index: u32,
        t: Timestamp,
    ) -> StoreResult<Option<Value>> {
        let info = self.object(array)?;
        if let Some(len) = self.length_at(info.as_ref(), t)? {
            if index >= len {
                return Ok(None);
            }
        }
        let since = info.as_ref().map_or(0, |o| o.created_ts);
        if let Some(w) = self.last_write_since(Variable::Element { array, index }, t, since)? {
            return Ok(Some(w.value));
        }
        match info {
            Some(o) => self.element_default(&o, t),
            None => Ok(None),
        }
    }

    /// Elements `offset .. offset + limit` of an array at `t` (fewer at the array's end, and at
    /// most `MAX_PAGE` per call); `None` for an element whose value is unknown.
    pub fn array_at(
        &self,
        array: ObjectId,
        t: Timestamp,
        offset: u32,
        limit: u32,
    ) -> StoreResult<Vec<Option<Value>>> {
        let info = self.object(array)?;
        let limit = limit.min(MAX_PAGE);
        let end = match self.length_at(info.as_ref(), t)? {
            Some(len) => len.min(offset.saturating_add(limit)),
            None => offset.saturating_add(limit),
        };
        if end <= offset {
            return Ok(Vec::new());
        }
        let n = (end - offset) as usize;
        let mut best: Vec<Option<Write>> = vec![None; n];
        let since = info.as_ref().map_or(0, |o| o.created_ts);
        let lo = Variable::Element {
            array,
            index: offset,
        }
        .key();
        let hi = Variable::Element {
            array,
            index: end - 1,
        }
        .key();
        for seg in self.segments_upto(t)? {
            if seg.last_ts < since {
                break;
            }
            // Every slot already holds a write newer than anything this segment has.
            if best.iter().all(|b| b.is_some_and(|w| w.ts >= seg.last_ts)) {
                break;
            }
            self.entries_between(seg.id, (lo, 0), (hi, u64::MAX), |e| {
                if e.ts > t {
                    return;
                }
                let slot = &mut best[(e.key.b - offset) as usize];
                if slot.is_none_or(|w| e.ts > w.ts) {
                    *slot = Some(Write::from(e));
                }
            })?;
        }
        let default = match &info {
            Some(o) => self.element_default(o, t)?,
            None => None,
        };
        Ok(best
            .into_iter()
            .map(|w| w.map(|w| w.value).or(default))
            .collect())
    }
}

impl TraceReader {
    /// The instance fields of an object at `t`: every field written by then with its value,
    /// plus, for an object created by application code, the other fields its class declares
    /// (as far as application bytecode named them) at their default value. In field id order.
    pub fn object_fields_at(
        &self,
        object: ObjectId,
        t: Timestamp,
    ) -> StoreResult<Vec<(FieldId, Value)>> {
        let info = self.object(object)?;
        let since = info.as_ref().map_or(0, |o| o.created_ts);
        let lo = Variable::Field {
            object,
            field: FieldId(0),
        }
        .key();
        let hi = Variable::Field {
            object,
            field: FieldId(u32::MAX),
        }
        .key();
        let mut best: std::collections::BTreeMap<u32, Write> = std::collections::BTreeMap::new();
        for seg in self.segments_upto(t)? {
            if seg.last_ts < since {
                break;
            }
            self.entries_between(seg.id, (lo, 0), (hi, u64::MAX), |e| {
                if e.ts > t {
                    return;
                }
                let slot = best.entry(e.key.b).or_insert(Write::from(e));
                if e.ts > slot.ts {
                    *slot = Write::from(e);
                }
            })?;
        }
        let mut out: std::collections::BTreeMap<u32, Value> =
            best.into_iter().map(|(f, w)| (f, w.value)).collect();
        if let Some(o) = info.filter(|o| o.origin == Origin::Created && o.created_ts <= t) {
            for f in self.fields_of(o.class)? {
                if !f.is_static() {
                    out.entry(f.id.0)
                        .or_insert_with(|| Value::default_for(&f.descriptor));
                }
            }
        }
        Ok(out.into_iter().map(|(f, v)| (FieldId(f), v)).collect())
    }

    /// Every instance field of an object written at or before `t`, with its last write, by
    /// field id. (Fields never written are not listed; see [`TraceReader::field_at`] for
    /// defaults.)
    pub fn fields_written_at(
        &self,
        object: ObjectId,
        t: Timestamp,
    ) -> StoreResult<Vec<(FieldId, Write)>> {
        let since = self.object(object)?.map_or(0, |o| o.created_ts);
        let lo = Variable::Field {
            object,
            field: FieldId(0),
        }
        .key();
        let hi = Variable::Field {
            object,
            field: FieldId(u32::MAX),
        }
        .key();
        let mut best: std::collections::BTreeMap<u32, Write> = Default::default();
        for seg in self.segments_upto(t)? {
            if seg.last_ts < since {
                break;
            }
            self.entries_between(seg.id, (lo, 0), (hi, u64::MAX), |e| {
                if e.ts > t {
                    return;
                }
                let slot = best.entry(e.key.b).or_insert(Write::from(e));
                if e.ts > slot.ts {
                    *slot = Write::from(e);
                }
            })?;
        }
        Ok(best.into_iter().map(|(f, w)| (FieldId(f), w)).collect())
    }
}
