//! States compared by structure, as the reference oracle needs them (DESIGN.md): the values of
//! some roots and the shape of the object graph reachable from them, never object ids.
//!
//! The canonical form numbers objects in the order a depth-first walk from the roots first meets
//! them, so two states are equal exactly when their canonical forms are equal, whatever ids the
//! two runs gave their objects. A graph larger than the limit is cut, and the state says so: a
//! cut state can still differ from another (then they are different) but equality of two cut
//! states proves nothing.

use std::collections::HashMap;
use std::fmt::Write;

use super::heap::{Heap, HeapResult};
use crate::ids::{ObjectId, Timestamp};
use crate::trace::wire::Value;

/// The canonical form of a state.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CanonicalState {
    pub text: String,
    /// Whether the whole reachable graph is in `text`.
    pub complete: bool,
}

/// The canonical form of the graph reachable from `roots` at `at`, visiting at most
/// `max_objects` objects.
pub fn canonical_state(
    heap: &impl Heap,
    roots: &[Value],
    at: Timestamp,
    max_objects: usize,
) -> HeapResult<CanonicalState> {
    let mut walk = Walk {
        heap,
        at,
        numbers: HashMap::new(),
        max_objects,
        complete: true,
        text: String::new(),
    };
    for (i, root) in roots.iter().enumerate() {
        if i > 0 {
            walk.text.push(';');
        }
        walk.value(root)?;
    }
    Ok(CanonicalState {
        text: walk.text,
        complete: walk.complete,
    })
}

struct Walk<'h, H> {
    heap: &'h H,
    at: Timestamp,
    numbers: HashMap<ObjectId, usize>,
    max_objects: usize,
    complete: bool,
    text: String,
}

impl<H: Heap> Walk<'_, H> {
    fn value(&mut self, v: &Value) -> HeapResult<()> {
        match *v {
            Value::Object(id) => self.object(id),
            Value::Str(id) => {
                match self.heap.string(id)? {
                    Some(text) => {
                        let _ = write!(self.text, "{text:?}");
                    }
                    // An unknown text compares equal to nothing.
                    None => {
                        self.complete = false;
                        self.text.push_str("<string?>");
                    }
                }
                Ok(())
            }
            // Primitives, boxed or not, by type and value: Debug shows both.
            other => {
                let _ = write!(self.text, "{other:?}");
                Ok(())
            }
        }
    }

    fn object(&mut self, id: ObjectId) -> HeapResult<()> {
        if let Some(n) = self.numbers.get(&id) {
            let _ = write!(self.text, "@{n}");
            return Ok(());
        }
        if self.numbers.len() >= self.max_objects {
            self.complete = false;
            self.text.push('…');
            return Ok(());
        }
        let n = self.numbers.len();
        self.numbers.insert(id, n);
        let Some(info) = self.heap.object(id)? else {
            self.complete = false;
            self.text.push_str("<object?>");
            return Ok(());
        };
        let _ = write!(self.text, "{}", info.class_name);
        if !info.content_known && !compares_by_class(&info.class_name) {
            // Unknown content proves nothing: two such objects may differ.
            self.complete = false;
            self.text.push_str("{?}");
            return Ok(());
        }
        let len = match info.content {
            Some(_) => match self.heap.content_length_at(id, self.at)? {
                Some(len) => Some(len),
                // Not sent yet at `at`: unknown, proves nothing.
                None => {
                    self.complete = false;
                    self.text.push_str("{?}");
                    return Ok(());
                }
            },
            None => info.array_length,
        };
        // A content object compares by its slots (a map's key, value pairs in iteration order,
        // a text's string), like an array.
        if let (Some(len), Some(kind)) = (len, info.content) {
            if hash_ordered(&info.class_name) {
                return self.unordered(id, len, kind.values_per_item() as u32);
            }
        }
        if let Some(len) = len {
            let elements = self.heap.elements_at(id, self.at, 0..len)?;
            let _ = write!(self.text, "[{len}|");
            self.slots(&elements, ',')?;
            self.text.push(']');
        } else {
            let mut fields = self.heap.fields_at(id, self.at)?;
            // A field at its default value is the same state as a field never written (the
            // trace lists only written fields; a rebuilt object has them all).
            fields.retain(|(_, v)| !is_default(v));
            fields.sort_by(|a, b| a.0.cmp(&b.0));
            self.text.push('{');
            for (i, (name, v)) in fields.iter().enumerate() {
                if i > 0 {
                    self.text.push(',');
                }
                self.text.push_str(name);
                self.text.push('=');
                self.value(v)?;
            }
            self.text.push('}');
        }
        Ok(())
    }
}

impl<H: Heap> Walk<'_, H> {
    /// Writes `slots` separated by `sep`; an unknown slot compares equal to nothing.
    fn slots(&mut self, slots: &[Option<Value>], sep: char) -> HeapResult<()> {
        for (i, slot) in slots.iter().enumerate() {
            if i > 0 {
                self.text.push(sep);
            }
            match slot {
                Some(v) => self.value(v)?,
                None => {
                    self.complete = false;
                    self.text.push('?');
                }
            }
        }
        Ok(())
    }

    /// The content of a hash set or map as a sorted list of its items' forms: its iteration
    /// order follows hash codes, which differ between runs for keys hashed by identity (enum
    /// constants, classes, objects without `hashCode`), so it is no part of the state. Each
    /// item is walked on its own (objects shared between items are not told apart).
    fn unordered(&mut self, id: ObjectId, len: u32, per: u32) -> HeapResult<()> {
        let slots = self.heap.elements_at(id, self.at, 0..len)?;
        let mut items = Vec::new();
        for item in slots.chunks(per.max(1) as usize) {
            let mut walk = Walk {
                heap: self.heap,
                at: self.at,
                numbers: HashMap::new(),
                max_objects: self.max_objects.saturating_sub(self.numbers.len()),
                complete: true,
                text: String::new(),
            };
            walk.slots(item, '=')?;
            self.complete &= walk.complete;
            items.push(walk.text);
        }
        items.sort();
        let _ = write!(self.text, "{{{len}|{}}}", items.join(","));
        Ok(())
    }
}

/// JDK collections whose iteration order follows their elements' hash codes.
fn hash_ordered(class: &str) -> bool {
    matches!(
        class,
        "java.util.HashMap"
            | "java.util.HashSet"
            | "java.util.Hashtable"
            | "java.util.IdentityHashMap"
            | "java.util.WeakHashMap"
            | "java.util.concurrent.ConcurrentHashMap"
            | "java.util.ImmutableCollections$SetN"
            | "java.util.ImmutableCollections$MapN"
    )
}

/// Whether `v` is the value a field has before it is first written.
pub(crate) fn is_default(v: &Value) -> bool {
    match *v {
        Value::Null | Value::Boolean(false) => true,
        Value::Char(x) => x == 0,
        Value::Byte(x) => x == 0,
        Value::Short(x) => x == 0,
        Value::Int(x) => x == 0,
        Value::Long(x) => x == 0,
        // By bits: -0.0 is not the default.
        Value::Float(x) => x.to_bits() == 0,
        Value::Double(x) => x.to_bits() == 0,
        _ => false,
    }
}

/// Objects of uninstrumented classes that compare by their class alone: `Object` has no
/// state, and an exception is judged by its type (as a person reading "throws
/// NullPointerException" does); its message is built by JDK code the trace does not see.
pub(crate) fn compares_by_class(class: &str) -> bool {
    class == "java.lang.Object" || class.ends_with("Exception") || class.ends_with("Error")
}

#[cfg(test)]
mod tests {
    use super::super::testing::MemHeap;
    use super::*;

    fn state(heap: &MemHeap, roots: &[Value], at: Timestamp) -> CanonicalState {
        canonical_state(heap, roots, at, 100).unwrap()
    }

    #[test]
    fn equal_shapes_with_other_ids_are_equal() {
        let mut a = MemHeap::default();
        a.obj(1, "p.Pair").obj(2, "p.Pair");
        a.set(1, "left", 0, Value::Object(ObjectId(2))).set(
            1,
            "right",
            0,
            Value::Object(ObjectId(2)),
        );
        let mut b = MemHeap::default();
        b.obj(70, "p.Pair").obj(5, "p.Pair");
        b.set(70, "right", 0, Value::Object(ObjectId(5))).set(
            70,
            "left",
            0,
            Value::Object(ObjectId(5)),
        );
        let sa = state(&a, &[Value::Object(ObjectId(1)), Value::Int(3)], 1);
        let sb = state(&b, &[Value::Object(ObjectId(70)), Value::Int(3)], 1);
        assert!(sa.complete);
        assert_eq!(sa, sb);
    }

    #[test]
    fn sharing_differs_from_copies() {
        let mut shared = MemHeap::default();
        shared.obj(1, "p.Pair").obj(2, "p.Box");
        shared.set(1, "left", 0, Value::Object(ObjectId(2))).set(
            1,
            "right",
            0,
            Value::Object(ObjectId(2)),
        );
        let mut copies = MemHeap::default();
        copies.obj(1, "p.Pair").obj(2, "p.Box").obj(3, "p.Box");
        copies.set(1, "left", 0, Value::Object(ObjectId(2))).set(
            1,
            "right",
            0,
            Value::Object(ObjectId(3)),
        );
        let root = [Value::Object(ObjectId(1))];
        assert_ne!(state(&shared, &root, 1), state(&copies, &root, 1));
    }

    #[test]
    fn states_differ_over_time_and_by_content() {
        let mut heap = MemHeap::default();
        heap.arr(1, "int[]", &[Value::Int(4), Value::Int(9)])
            .set(1, "1", 10, Value::Int(1));
        let root = [Value::Object(ObjectId(1))];
        assert_ne!(state(&heap, &root, 5), state(&heap, &root, 10));
        assert_eq!(state(&heap, &root, 5).text, "int[][2|Int(4),Int(9)]");
        // An int and a boxed int are different values.
        assert_ne!(
            state(&heap, &[Value::Int(1)], 0),
            state(
                &heap,
                &[Value::Boxed(crate::trace::wire::Primitive::Int(1))],
                0
            )
        );
    }

    #[test]
    fn big_graphs_are_cut_and_marked_incomplete() {
        let mut heap = MemHeap::default();
        for i in 1..=10 {
            heap.obj(i, "p.Node")
                .set(i, "next", 0, Value::Object(ObjectId(i + 1)));
        }
        let cut = canonical_state(&heap, &[Value::Object(ObjectId(1))], 0, 3).unwrap();
        assert!(!cut.complete);
    }

    #[test]
    fn objects_of_unknown_content_prove_nothing() {
        let mut heap = MemHeap::default();
        heap.obj(1, "java.util.ArrayList")
            .obj(2, "java.lang.IllegalStateException");
        assert!(!state(&heap, &[Value::Object(ObjectId(1))], 0).complete);
        assert!(state(&heap, &[Value::Object(ObjectId(2))], 0).complete);
    }

    #[test]
    fn a_field_at_its_default_equals_a_field_never_written() {
        let mut written = MemHeap::default();
        written
            .obj(1, "p.Node")
            .set(1, "left", 0, Value::Null)
            .set(1, "size", 0, Value::Int(0))
            .set(1, "key", 0, Value::Int(7));
        let mut unwritten = MemHeap::default();
        unwritten.obj(1, "p.Node").set(1, "key", 0, Value::Int(7));
        let root = [Value::Object(ObjectId(1))];
        assert_eq!(state(&written, &root, 1), state(&unwritten, &root, 1));
        // Negative zero is not the default, and a written non-default value still counts.
        let mut negative = MemHeap::default();
        negative
            .obj(1, "p.Node")
            .set(1, "key", 0, Value::Int(7))
            .set(1, "weight", 0, Value::Double(-0.0));
        assert_ne!(state(&negative, &root, 1), state(&unwritten, &root, 1));
    }
}
