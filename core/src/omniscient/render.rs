//! Values as a person reads them: `42`, `"text"`, `[1, 4, 9, 7]`, `Position{x=8, y=1}`.
//!
//! Objects and arrays are shown by content to a bounded depth and length, so that a question
//! fits on a line; an object met again on the same path (a cycle) is shown by its id.

use std::fmt::Write;

use super::heap::{simple_class_name, Heap, HeapResult, ObjectInfo};
use crate::ids::{ObjectId, Timestamp};
use crate::trace::wire::{ContentKind, Primitive, Value};

/// How much of an object graph a rendering shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RenderLimits {
    /// Levels of objects shown by content; deeper ones are shown as `Class#id`.
    pub depth: usize,
    /// Elements of an array (or fields of an object) shown; the rest are counted.
    pub elements: usize,
    /// Characters of a string shown.
    pub string_chars: usize,
}

impl Default for RenderLimits {
    fn default() -> Self {
        RenderLimits {
            depth: 2,
            elements: 10,
            string_chars: 60,
        }
    }
}

/// Renders `value` as it was at timestamp `at`.
pub fn render_value(
    heap: &impl Heap,
    value: &Value,
    at: Timestamp,
    limits: RenderLimits,
) -> HeapResult<String> {
    let mut out = String::new();
    let mut path = Vec::new();
    render_into(heap, value, at, limits, 0, &mut path, &mut out)?;
    Ok(out)
}

fn render_into(
    heap: &impl Heap,
    value: &Value,
    at: Timestamp,
    limits: RenderLimits,
    depth: usize,
    path: &mut Vec<ObjectId>,
    out: &mut String,
) -> HeapResult<()> {
    match *value {
        Value::Void => out.push_str("void"),
        Value::Null => out.push_str("null"),
        Value::Str(id) => match heap.string(id)? {
            Some(text) => push_string_literal(out, &text, limits.string_chars),
            None => {
                let _ = write!(out, "<string #{id}>");
            }
        },
        Value::Boxed(p) => push_primitive(out, p),
        Value::Object(id) => render_object(heap, id, at, limits, depth, path, out)?,
        Value::Boolean(b) => push_primitive(out, Primitive::Boolean(b)),
        Value::Char(c) => push_primitive(out, Primitive::Char(c)),
        Value::Byte(b) => push_primitive(out, Primitive::Byte(b)),
        Value::Short(s) => push_primitive(out, Primitive::Short(s)),
        Value::Int(i) => push_primitive(out, Primitive::Int(i)),
        Value::Long(l) => push_primitive(out, Primitive::Long(l)),
        Value::Float(f) => push_primitive(out, Primitive::Float(f)),
        Value::Double(d) => push_primitive(out, Primitive::Double(d)),
    }
    Ok(())
}

fn render_object(
    heap: &impl Heap,
    id: ObjectId,
    at: Timestamp,
    limits: RenderLimits,
    depth: usize,
    path: &mut Vec<ObjectId>,
    out: &mut String,
) -> HeapResult<()> {
    let Some(info) = heap.object(id)? else {
        let _ = write!(out, "#{id}");
        return Ok(());
    };
    let name = simple_class_name(&info.class_name);
    // Beyond the depth, on a cycle, or with content the trace does not know: by identity.
    if depth >= limits.depth || path.contains(&id) || !info.content_known {
        let _ = write!(out, "{name}#{id}");
        return Ok(());
    }
    if let Some(kind) = info.content {
        if kind == ContentKind::Text {
            if let Some(Some(Value::Str(text))) = heap.elements_at(id, at, 0..1)?.first() {
                if let Some(text) = heap.string(*text)? {
                    if let Some(shown) = named(&info, &name, &text) {
                        out.push_str(&shown);
                        return Ok(());
                    }
                }
            }
        }
        let Some(len) = heap.content_length_at(id, at)? else {
            // Not sent yet at `at`: unknown, shown by identity.
            let _ = write!(out, "{name}#{id}");
            return Ok(());
        };
        path.push(id);
        render_content(heap, id, kind, len, at, limits, depth, path, out)?;
        path.pop();
        return Ok(());
    }
    path.push(id);
    if let Some(len) = info.array_length {
        let shown = (limits.elements as u32).min(len);
        let elements = heap.elements_at(id, at, 0..shown)?;
        out.push('[');
        for (i, e) in elements.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            match e {
                Some(e) => render_into(heap, e, at, limits, depth + 1, path, out)?,
                None => out.push('?'),
            }
        }
        push_rest(out, len as usize - elements.len(), !elements.is_empty());
        out.push(']');
    } else {
        let fields = heap.fields_at(id, at)?;
        out.push_str(&name);
        out.push('{');
        for (i, (field, v)) in fields.iter().take(limits.elements).enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str(field);
            out.push('=');
            render_into(heap, v, at, limits, depth + 1, path, out)?;
        }
        push_rest(
            out,
            fields.len().saturating_sub(limits.elements),
            !fields.is_empty(),
        );
        out.push('}');
    }
    path.pop();
    Ok(())
}

/// An object the agent names by a text (an enum constant, a class, a field, a method) as it
/// reads in Java: `Kind.SHORT`, `Point.class`, `Point.x`, `Point.move(int)`; `None` for a
/// string builder's text.
fn named(info: &ObjectInfo, simple: &str, text: &str) -> Option<String> {
    if info.enum_constant {
        return Some(format!("{}.{text}", enum_class_name(simple)));
    }
    match info.class_name.as_str() {
        "java.lang.Class" => Some(format!("{}.class", simple_class_name(text))),
        "java.lang.reflect.Field" => {
            let (class, field) = text.rsplit_once('.')?;
            Some(format!("{}.{field}", simple_class_name(class)))
        }
        "java.lang.reflect.Method" | "java.lang.reflect.Constructor" => {
            let (name, params) = text.split_once('(')?;
            let (class, method) = name.rsplit_once('.')?;
            let params: Vec<String> = params
                .trim_end_matches(')')
                .split(',')
                .filter(|p| !p.is_empty())
                .map(simple_class_name)
                .collect();
            Some(format!(
                "{}.{method}({})",
                simple_class_name(class),
                params.join(",")
            ))
        }
        _ => None,
    }
}

/// The enum a constant belongs to, from its class's simple name: the class of a constant with
/// a body is an anonymous class (`Op.1`) of the enum (`Op`).
fn enum_class_name(simple: &str) -> &str {
    match simple.rsplit_once('.') {
        Some((outer, last)) if last.bytes().all(|b| b.is_ascii_digit()) => outer,
        _ => simple,
    }
}

/// A JDK object by its content: a sequence `[a, b]`, a map `{k=v, k2=v2}`, a text `"abc"`.
#[allow(clippy::too_many_arguments)]
fn render_content(
    heap: &impl Heap,
    id: ObjectId,
    kind: ContentKind,
    len: u32,
    at: Timestamp,
    limits: RenderLimits,
    depth: usize,
    path: &mut Vec<ObjectId>,
    out: &mut String,
) -> HeapResult<()> {
    let per = kind.values_per_item() as u32;
    let items = len / per;
    let shown = (limits.elements as u32).min(items);
    let slots = heap.elements_at(id, at, 0..shown * per)?;
    let item = |out: &mut String, i: usize, path: &mut Vec<ObjectId>| -> HeapResult<()> {
        match slots.get(i).copied().flatten() {
            Some(v) => render_into(heap, &v, at, limits, depth + 1, path, out),
            None => {
                out.push('?');
                Ok(())
            }
        }
    };
    match kind {
        ContentKind::Text => item(out, 0, path)?,
        ContentKind::Sequence | ContentKind::Map => {
            let (open, close) = if kind == ContentKind::Map {
                ('{', '}')
            } else {
                ('[', ']')
            };
            out.push(open);
            for i in 0..shown as usize {
                if i > 0 {
                    out.push_str(", ");
                }
                if kind == ContentKind::Map {
                    item(out, 2 * i, path)?;
                    out.push('=');
                    item(out, 2 * i + 1, path)?;
                } else {
                    item(out, i, path)?;
                }
            }
            push_rest(out, (items - shown) as usize, shown > 0);
            out.push(close);
        }
    }
    Ok(())
}

fn push_rest(out: &mut String, rest: usize, after_items: bool) {
    if rest > 0 {
        if after_items {
            out.push_str(", ");
        }
        let _ = write!(out, "…+{rest}");
    }
}

/// Writes a primitive as Java source would show it.
fn push_primitive(out: &mut String, p: Primitive) {
    let _ = match p {
        Primitive::Boolean(b) => write!(out, "{b}"),
        // As a Java char literal: `'é'`, `'\n'`, `'\u0000'` (Rust's `escape_default` would
        // write `'\u{e9}'`).
        Primitive::Char(c) => match char::from_u32(u32::from(c)) {
            Some('\'') => write!(out, "'\\''"),
            Some('\\') => write!(out, "'\\\\'"),
            Some('\n') => write!(out, "'\\n'"),
            Some('\t') => write!(out, "'\\t'"),
            Some('\r') => write!(out, "'\\r'"),
            Some(ch) if !ch.is_control() => write!(out, "'{ch}'"),
            _ => write!(out, "'\\u{c:04x}'"),
        },
        Primitive::Byte(v) => write!(out, "{v}"),
        Primitive::Short(v) => write!(out, "{v}"),
        Primitive::Int(v) => write!(out, "{v}"),
        Primitive::Long(v) => write!(out, "{v}L"),
        Primitive::Float(v) => write!(out, "{}f", java_number(v)),
        Primitive::Double(v) => write!(out, "{}", java_number(v)),
    };
}

/// A `float` or `double` as Java's `toString` writes it, so that it reads as the program
/// printed it: the shortest digits that give the value back (of a float's own precision, not
/// of its widening to a double: `0.1f`, not `0.10000000149011612f`), `1.0` rather than Rust's
/// `1`, and from 10^7 up or below 10^-3 the computerized scientific notation (`1.0E-11`,
/// `1.2345678E7`).
fn java_number<F: Copy + Into<f64> + std::fmt::Display + std::fmt::LowerExp>(v: F) -> String {
    let x: f64 = v.into();
    if x.is_nan() {
        return "NaN".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    let a = x.abs();
    if a == 0.0 || (1e-3..1e7).contains(&a) {
        let text = format!("{v}");
        return if text.contains('.') {
            text
        } else {
            format!("{text}.0")
        };
    }
    // `{:e}` gives the same shortest digits as `d.ddde-n`.
    let sci = format!("{v:e}");
    let (mantissa, exponent) = sci.split_once('e').unwrap_or((&sci, "0"));
    let dot = if mantissa.contains('.') { "" } else { ".0" };
    format!("{mantissa}{dot}E{exponent}")
}

fn push_string_literal(out: &mut String, text: &str, max_chars: usize) {
    out.push('"');
    for ch in text.chars().take(max_chars) {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    let total = text.chars().count();
    if total > max_chars {
        let _ = write!(out, "…(+{} chars)", total - max_chars);
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::MemHeap;
    use super::*;
    use crate::ids::StringId;

    fn render(heap: &MemHeap, v: Value, at: Timestamp) -> String {
        render_value(heap, &v, at, RenderLimits::default()).unwrap()
    }

    #[test]
    fn primitives_look_like_java_literals() {
        let heap = MemHeap::default();
        assert_eq!(render(&heap, Value::Int(-3), 0), "-3");
        assert_eq!(render(&heap, Value::Long(7), 0), "7L");
        assert_eq!(render(&heap, Value::Double(2.0), 0), "2.0");
        assert_eq!(render(&heap, Value::Double(0.25), 0), "0.25");
        assert_eq!(render(&heap, Value::Float(1.5), 0), "1.5f");
        // As Java's Double.toString and Float.toString write them.
        for (d, java) in [
            (1e-11, "1.0E-11"),
            (-2.5e-4, "-2.5E-4"),
            (0.001, "0.001"),
            (1234567.0, "1234567.0"),
            (1e7, "1.0E7"),
            (12345678.9, "1.23456789E7"),
            (-0.0, "-0.0"),
            (f64::NAN, "NaN"),
            (f64::NEG_INFINITY, "-Infinity"),
        ] {
            assert_eq!(render(&heap, Value::Double(d), 0), java, "{d}");
        }
        assert_eq!(render(&heap, Value::Float(0.1), 0), "0.1f");
        assert_eq!(render(&heap, Value::Float(3.0e10), 0), "3.0E10f");
        assert_eq!(render(&heap, Value::Char(u16::from(b'x')), 0), "'x'");
        for (c, java) in [
            (0xe9, "'é'"),
            (0, "'\\u0000'"),
            (u16::from(b'\n'), "'\\n'"),
            (u16::from(b'\''), "'\\''"),
            (u16::from(b'\\'), "'\\\\'"),
            (0xd800, "'\\ud800'"),
        ] {
            assert_eq!(render(&heap, Value::Char(c), 0), java, "{c}");
        }
        assert_eq!(render(&heap, Value::Boolean(true), 0), "true");
        assert_eq!(render(&heap, Value::Boxed(Primitive::Int(5)), 0), "5");
        assert_eq!(render(&heap, Value::Null, 0), "null");
    }

    #[test]
    fn strings_are_quoted_escaped_and_cut() {
        let mut heap = MemHeap::default();
        heap.text(1, "say \"hi\"\n").text(2, &"x".repeat(70));
        assert_eq!(
            render(&heap, Value::Str(StringId(1)), 0),
            r#""say \"hi\"\n""#
        );
        assert_eq!(
            render(&heap, Value::Str(StringId(2)), 0),
            format!("\"{}\"…(+10 chars)", "x".repeat(60))
        );
        assert_eq!(render(&heap, Value::Str(StringId(9)), 0), "<string #9>");
    }

    #[test]
    fn arrays_show_their_content_at_the_timestamp() {
        let mut heap = MemHeap::default();
        let ints = [4, 9, 1, 7].map(Value::Int);
        heap.arr(1, "int[]", &ints)
            .set(1, "0", 10, Value::Int(1))
            .set(1, "2", 20, Value::Int(9));
        assert_eq!(render(&heap, Value::Object(ObjectId(1)), 5), "[4, 9, 1, 7]");
        assert_eq!(
            render(&heap, Value::Object(ObjectId(1)), 15),
            "[1, 9, 1, 7]"
        );
        assert_eq!(
            render(&heap, Value::Object(ObjectId(1)), 25),
            "[1, 9, 9, 7]"
        );
    }

    #[test]
    fn long_arrays_are_counted_after_the_limit() {
        let mut heap = MemHeap::default();
        let values: Vec<Value> = (0..25).map(Value::Int).collect();
        heap.arr(1, "int[]", &values);
        let text = render(&heap, Value::Object(ObjectId(1)), 0);
        assert_eq!(text, "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, …+15]");
    }

    #[test]
    fn objects_show_fields_to_a_depth_and_cycles_by_id() {
        let mut heap = MemHeap::default();
        heap.obj(1, "list.Node")
            .obj(2, "list.Node")
            .obj(3, "list.Node");
        heap.set(1, "value", 1, Value::Int(10))
            .set(1, "next", 1, Value::Object(ObjectId(2)));
        heap.set(2, "value", 1, Value::Int(20))
            .set(2, "next", 1, Value::Object(ObjectId(1)));
        assert_eq!(
            render(&heap, Value::Object(ObjectId(1)), 5),
            "Node{next=Node{next=Node#1, value=20}, value=10}"
        );
        heap.set(3, "next", 1, Value::Object(ObjectId(1)));
        assert_eq!(
            render(&heap, Value::Object(ObjectId(3)), 5),
            "Node{next=Node{next=Node#2, value=10}}"
        );
    }

    #[test]
    fn objects_of_unknown_content_show_by_identity() {
        let mut heap = MemHeap::default();
        heap.obj(12, "java.util.ArrayList");
        assert_eq!(
            render(&heap, Value::Object(ObjectId(12)), 0),
            "ArrayList#12"
        );
    }
}
