//! JDK content as element writes (docs/trace-schema.md, "Content of JDK objects"): a `CONTENT`
//! event becomes writes of `Element { array: object, index }` for the slots that changed since
//! the object's previous content, plus its length in the slot `LENGTH_SLOT` when it changed.
//! Slots: a sequence's elements; a map's key `2i` and value `2i + 1` in iteration order; a
//! text's one string value in slot 0. Slots at or past the length are not part of the content.

use rustc_hash::FxHashMap;

use crate::coverage::{HeapKey, Shared};
use crate::ids::{ObjectId, Timestamp};
use crate::trace::store::{StackEntry, StoreError, TraceWriter, Variable, LENGTH_SLOT};
use crate::trace::wire::{ContentKind, Value};

/// The last content of each object, bounded: past `MAX_VALUES` values in all, the map is
/// cleared, and the next content of a forgotten object is written in full (every slot and the
/// length): larger but just as correct.
#[derive(Default)]
pub struct Contents {
    last: FxHashMap<ObjectId, Vec<Value>>,
    values: usize,
}

const MAX_VALUES: usize = 1 << 20;

impl Contents {
    pub fn apply(
        &mut self,
        store: &mut TraceWriter,
        coverage: &mut Shared,
        object: ObjectId,
        kind: ContentKind,
        values: &[Value],
        (ts, by): (Timestamp, StackEntry),
    ) -> Result<(), StoreError> {
        let slots: &[Value] = match kind {
            ContentKind::Text => &values[..values.len().min(1)],
            _ => values,
        };
        let prev = self.last.remove(&object);
        if prev.is_none() {
            store.content_object(object, kind, ts)?;
        }
        let prev = prev.unwrap_or_default();
        self.values -= prev.len().min(self.values);
        for (i, v) in slots.iter().enumerate() {
            if prev.get(i) != Some(v) {
                let index = i as u32;
                store.write(
                    Variable::Element {
                        array: object,
                        index,
                    },
                    ts,
                    *v,
                    by,
                );
                coverage.writers.forget(HeapKey::Element(object, index));
            }
        }
        if prev.len() != slots.len() || prev.is_empty() {
            store.write(
                Variable::Element {
                    array: object,
                    index: LENGTH_SLOT,
                },
                ts,
                Value::Int(slots.len() as i32),
                by,
            );
        }
        if self.values + slots.len() > MAX_VALUES {
            self.last.clear();
            self.values = 0;
        }
        self.values += slots.len();
        self.last.insert(object, slots.to_vec());
        Ok(())
    }
}
