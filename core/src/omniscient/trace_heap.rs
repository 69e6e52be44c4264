//! The trace reader as a [`Heap`]: the omniscient algorithms read recorded runs through it.

use std::ops::Range;

use super::heap::{Heap, HeapError, HeapResult, ObjectInfo};
use crate::ids::{ObjectId, StringId, Timestamp};
use crate::trace::store::{StoreError, TraceReader};
use crate::trace::wire::{Origin, Value};

fn heap_err(e: StoreError) -> HeapError {
    HeapError(e.to_string())
}

impl Heap for TraceReader {
    fn object(&self, id: ObjectId) -> HeapResult<Option<ObjectInfo>> {
        let Some(info) = TraceReader::object(self, id).map_err(heap_err)? else {
            return Ok(None);
        };
        let class = self.class(info.class).map_err(heap_err)?;
        // A content object's slots are known from its first `CONTENT` on; before it,
        // `content_length_at` says `None` and the content stays unknown.
        let content_known = info.length.is_some()
            || info.content.is_some()
            || class.as_ref().is_some_and(|c| c.is_instrumented());
        let enum_constant = class.as_ref().is_some_and(|c| c.is_enum());
        let class_name = class.map_or_else(|| format!("#{}", info.class), |c| c.name);
        Ok(Some(ObjectInfo {
            class_name,
            array_length: info.length,
            content_known,
            content: info.content,
            enum_constant,
        }))
    }

    fn fields_at(&self, id: ObjectId, at: Timestamp) -> HeapResult<Vec<(String, Value)>> {
        let mut fields = Vec::new();
        let mut written = std::collections::HashSet::new();
        for (field, write) in self.fields_written_at(id, at).map_err(heap_err)? {
            written.insert(field);
            let name = self
                .field(field)
                .map_err(heap_err)?
                .map_or_else(|| format!("#{field}"), |f| f.name);
            fields.push((name, write.value));
        }
        // An object created by application code has its fields' default values until written.
        if let Some(info) = TraceReader::object(self, id).map_err(heap_err)? {
            if info.origin == Origin::Created && info.created_ts <= at && info.length.is_none() {
                for f in self.fields_of(info.class).map_err(heap_err)? {
                    if !f.is_static() && !written.contains(&f.id) {
                        fields.push((f.name.clone(), Value::default_for(&f.descriptor)));
                    }
                }
            }
        }
        fields.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(fields)
    }

    fn elements_at(
        &self,
        id: ObjectId,
        at: Timestamp,
        range: Range<u32>,
    ) -> HeapResult<Vec<Option<Value>>> {
        let limit = range.end.saturating_sub(range.start);
        self.array_at(id, at, range.start, limit).map_err(heap_err)
    }

    fn string(&self, id: StringId) -> HeapResult<Option<String>> {
        TraceReader::string(self, id).map_err(heap_err)
    }

    fn content_length_at(&self, id: ObjectId, at: Timestamp) -> HeapResult<Option<u32>> {
        TraceReader::content_length_at(self, id, at).map_err(heap_err)
    }
}
