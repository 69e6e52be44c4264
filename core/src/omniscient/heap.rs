use std::ops::Range;

use crate::ids::{ObjectId, StringId, Timestamp};
use crate::trace::wire::{ContentKind, Value};

/// An error from the store behind a [`Heap`], kept as text so that algorithms stay independent
/// of the store's error type.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct HeapError(pub String);

pub type HeapResult<T> = Result<T, HeapError>;

/// What is known of an object or array.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ObjectInfo {
    /// Dotted class name; array classes as `int[]`.
    pub class_name: String,
    /// The length, for an array.
    pub array_length: Option<u32>,
    /// Whether the trace knows the object's content: its fields (an instrumented class, whose
    /// writes are all recorded) or its elements (an array). An object of uninstrumented code
    /// (a `java.util.ArrayList`, say) has content the trace may not know.
    pub content_known: bool,
    /// For an object of uninstrumented code whose content the trace records (wire `CONTENT`):
    /// its kind. Its slots are elements (a map: key `2i`, value `2i + 1`; a text: one string),
    /// and their number at a timestamp is `content_length_at`.
    pub content: Option<ContentKind>,
    /// Whether the object is an enum constant (its class is an enum or an enum constant's
    /// body): the agent sends its name as a text content, shown as `Kind.NAME` (as it names a
    /// class, field, method or constructor, shown as `Point.class`, `Point.x`,
    /// `Point.move(int)`; see [`ObjectInfo::is_named`]).
    pub enum_constant: bool,
}

impl ObjectInfo {
    /// Whether the object stands for a name, which is all the program can observe of it and
    /// the same in every run: an enum constant, or a reflective object (`Class`, `Field`,
    /// `Method`, `Constructor`: `getDeclaredFields()` even returns fresh copies). The agent
    /// sends the name as a text content; such objects compare by it, never by identity.
    pub fn is_named(&self) -> bool {
        self.enum_constant || self.class_name == "java.lang.Class" || self.is_reflective_member()
    }

    /// Whether the object is a `Field`, `Method` or `Constructor`: handed to uninstrumented
    /// code with another object, it lets the JDK read or write that object's fields behind
    /// the trace (`Field.get`, `Field.set`).
    pub fn is_reflective_member(&self) -> bool {
        matches!(
            self.class_name.as_str(),
            "java.lang.reflect.Field"
                | "java.lang.reflect.Method"
                | "java.lang.reflect.Constructor"
        )
    }
}

/// Read access to the heap of a recorded run at any timestamp.
pub trait Heap {
    /// The object's class and length; `None` for an id the trace never defined.
    fn object(&self, id: ObjectId) -> HeapResult<Option<ObjectInfo>>;
    /// The instance fields of an object whose value is known at `at` (every field written at or
    /// before `at`), by field name, in a stable order.
    fn fields_at(&self, id: ObjectId, at: Timestamp) -> HeapResult<Vec<(String, Value)>>;
    /// The elements `range` of an array at `at` (the range is clipped to the length); `None`
    /// for an element whose value the trace does not know (an array first seen later, say).
    fn elements_at(
        &self,
        id: ObjectId,
        at: Timestamp,
        range: Range<u32>,
    ) -> HeapResult<Vec<Option<Value>>>;
    /// The text of a string; `None` when its definition has not arrived (yet).
    fn string(&self, id: StringId) -> HeapResult<Option<String>>;
    /// The number of slots of a content object at `at`; `None` when its content is not known
    /// at `at` (before its first `CONTENT`) or it is no content object.
    fn content_length_at(&self, id: ObjectId, at: Timestamp) -> HeapResult<Option<u32>> {
        let _ = (id, at);
        Ok(None)
    }
}

/// `pkg.Outer$Inner` -> `Outer.Inner`, `java.lang.String[]` -> `String[]`. Only a `$` between
/// two parts of a name stands for nesting: `$Gson$Types` keeps its leading `$` (a class name
/// may start with one) and a lambda's `Main$$Lambda` its `$$`.
pub fn simple_class_name(name: &str) -> String {
    let base = name.rsplit('.').next().unwrap_or(name);
    let chars: Vec<char> = base.chars().collect();
    let nesting = |i: usize| {
        i > 0
            && i + 1 < chars.len()
            && chars[i - 1] != '$'
            && chars[i + 1] != '$'
            && chars[i + 1] != '['
    };
    chars
        .iter()
        .enumerate()
        .map(|(i, &c)| if c == '$' && nesting(i) { '.' } else { c })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple_names_drop_the_package_and_show_nesting_with_dots() {
        assert_eq!(simple_class_name("chess.Position"), "Position");
        assert_eq!(simple_class_name("a.b.Outer$Inner"), "Outer.Inner");
        assert_eq!(simple_class_name("int[]"), "int[]");
        assert_eq!(simple_class_name("java.lang.String[][]"), "String[][]");
        // Gson's `$Gson$Types` starts with a `$`; a lambda class has `$$`.
        assert_eq!(
            simple_class_name("com.google.gson.internal.$Gson$Types$ParameterizedTypeImpl"),
            "$Gson.Types.ParameterizedTypeImpl"
        );
        assert_eq!(simple_class_name("p.Main$$Lambda"), "Main$$Lambda");
        assert_eq!(simple_class_name("p.Weird$"), "Weird$");
    }
}
