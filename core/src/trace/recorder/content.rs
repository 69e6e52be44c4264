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
    /// Applies a `CONTENT` event: `values` are the content's slots from `start` on (0 but for
    /// a sequence's tail, whose earlier slots did not change).
    pub fn apply(
        &mut self,
        store: &mut TraceWriter,
        coverage: &mut Shared,
        object: ObjectId,
        (kind, start): (ContentKind, u32),
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
        self.values -= prev.as_ref().map_or(0, Vec::len).min(self.values);
        let start = start as usize;
        // The content before this event's slots, when remembered: a tail after a forgotten
        // content finds its earlier slots in the store, but cannot be remembered itself.
        let known: Option<Vec<Value>> = match prev {
            Some(p) if p.len() >= start => Some(p),
            None if start == 0 => Some(Vec::new()),
            _ => None,
        };
        let prev = known.as_deref().unwrap_or_default();
        for (i, v) in slots.iter().enumerate() {
            let slot = start + i;
            if known.is_none() || prev.get(slot) != Some(v) {
                let index = slot as u32;
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
        let len = start + slots.len();
        if known.is_none() || prev.len() != len || prev.is_empty() {
            store.write(
                Variable::Element {
                    array: object,
                    index: LENGTH_SLOT,
                },
                ts,
                Value::Int(len as i32),
                by,
            );
        }
        let Some(mut content) = known else {
            return Ok(());
        };
        content.truncate(start);
        content.extend_from_slice(slots);
        if self.values + content.len() > MAX_VALUES {
            self.last.clear();
            self.values = 0;
        }
        self.values += content.len();
        self.last.insert(object, content);
        Ok(())
    }
}
