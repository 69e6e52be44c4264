//! An in-memory [`Heap`] for tests: objects with timestamped writes.

use std::collections::HashMap;
use std::ops::Range;

use super::heap::{Heap, HeapResult, ObjectInfo};
use crate::ids::{ObjectId, StringId, Timestamp};
use crate::trace::wire::{ContentKind, Value};

#[derive(Default)]
pub struct MemHeap {
    objects: HashMap<u64, ObjectInfo>,
    /// (object, slot name or element index as text) -> writes in time order.
    writes: HashMap<(u64, String), Vec<(Timestamp, Value)>>,
    strings: HashMap<u64, String>,
}

impl MemHeap {
    pub fn obj(&mut self, id: u64, class: &str) -> &mut Self {
        self.objects.insert(
            id,
            ObjectInfo {
                class_name: class.into(),
                array_length: None,
                content_known: !class.starts_with("java."),
                content: None,
                enum_constant: false,
            },
        );
        self
    }

    /// An object whose content the trace does not know, whatever its class.
    pub fn opaque(&mut self, id: u64, class: &str) -> &mut Self {
        self.obj(id, class);
        if let Some(info) = self.objects.get_mut(&id) {
            info.content_known = false;
        }
        self
    }

    pub fn arr(&mut self, id: u64, class: &str, elements: &[Value]) -> &mut Self {
        self.objects.insert(
            id,
            ObjectInfo {
                class_name: class.into(),
                array_length: Some(elements.len() as u32),
                content_known: true,
                content: None,
                enum_constant: false,
            },
        );
        for (i, v) in elements.iter().enumerate() {
            self.set(id, &i.to_string(), 0, *v);
        }
        self
    }

    /// An object that stands for a name (a `java.lang.Class`, a `java.lang.reflect.Field`...):
    /// its one text slot holds the string `string`, whose text is `name`.
    pub fn named(&mut self, id: u64, class: &str, string: u64, name: &str) -> &mut Self {
        self.objects.insert(
            id,
            ObjectInfo {
                class_name: class.into(),
                array_length: None,
                content_known: true,
                content: Some(ContentKind::Text),
                enum_constant: false,
            },
        );
        self.text(string, name)
            .set(id, "0", 0, Value::Str(StringId(string)))
    }

    pub fn set(&mut self, id: u64, slot: &str, at: Timestamp, value: Value) -> &mut Self {
        self.writes
            .entry((id, slot.to_string()))
            .or_default()
            .push((at, value));
        self
    }

    pub fn text(&mut self, id: u64, text: &str) -> &mut Self {
        self.strings.insert(id, text.into());
        self
    }

    fn value_at(&self, id: u64, slot: &str, at: Timestamp) -> Option<Value> {
        let writes = self.writes.get(&(id, slot.to_string()))?;
        writes.iter().rev().find(|(t, _)| *t <= at).map(|(_, v)| *v)
    }
}

impl Heap for MemHeap {
    fn object(&self, id: ObjectId) -> HeapResult<Option<ObjectInfo>> {
        Ok(self.objects.get(&id.0).cloned())
    }

    fn fields_at(&self, id: ObjectId, at: Timestamp) -> HeapResult<Vec<(String, Value)>> {
        let mut names: Vec<&String> = self
            .writes
            .keys()
            .filter(|(o, _)| *o == id.0)
            .map(|(_, n)| n)
            .collect();
        names.sort();
        Ok(names
            .into_iter()
            .filter_map(|n| self.value_at(id.0, n, at).map(|v| (n.clone(), v)))
            .collect())
    }

    fn elements_at(
        &self,
        id: ObjectId,
        at: Timestamp,
        range: Range<u32>,
    ) -> HeapResult<Vec<Option<Value>>> {
        let len = self
            .objects
            .get(&id.0)
            .and_then(|o| o.array_length.or(o.content.map(|_| 1)))
            .unwrap_or(0);
        Ok((range.start..range.end.min(len))
            .map(|i| self.value_at(id.0, &i.to_string(), at))
            .collect())
    }

    fn string(&self, id: StringId) -> HeapResult<Option<String>> {
        Ok(self.strings.get(&id.0).cloned())
    }
}
