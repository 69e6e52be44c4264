//! The agent's side of the wire format's tables, read from its Java sources, against this
//! decoder's: event ops, value tags, frame types, the version, content kinds and effect kinds.
//! Either side changing a code alone fails here.

use std::collections::BTreeMap;

use super::event::{op, op_name, put_event, ContentKind, Event, EventKind};
use super::frame::{frame_name, frame_type, EffectKind};
use super::value::{put_value, Primitive, Value};
use super::VERSION;
use crate::ids::{ObjectId, StringId};

const ENCODER: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../agent/src/main/java/hindsight/runtime/Encoder.java"
));
const OUT: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../agent/src/main/java/hindsight/runtime/Out.java"
));
const CONTENTS: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../agent/src/main/java/hindsight/runtime/Contents.java"
));
const BLOCK_TABLE: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../agent/src/main/java/hindsight/instrument/BlockTable.java"
));

/// Each `static final int A = 1, B = 0x02;` declaration of a Java source as its constants.
fn int_groups(java: &str) -> Vec<BTreeMap<String, u32>> {
    let mut groups = Vec::new();
    let mut rest = java;
    while let Some(at) = rest.find("static final int ") {
        rest = &rest[at + "static final int ".len()..];
        let end = rest.find(';').expect("a declaration ends with ;");
        let mut group = BTreeMap::new();
        for item in rest[..end].split(',') {
            let (name, value) = item.split_once('=').expect("NAME = VALUE");
            let value = value.trim().replace('_', "");
            let parsed = match value.strip_prefix("0x").or(value.strip_prefix("0X")) {
                Some(hex) => u32::from_str_radix(hex, 16),
                None => value.parse(),
            };
            if let Ok(v) = parsed {
                group.insert(name.trim().to_string(), v);
            }
        }
        groups.push(group);
        rest = &rest[end..];
    }
    groups
}

/// The declaration that holds `member`.
fn group_with(java: &str, member: &str) -> BTreeMap<String, u32> {
    int_groups(java)
        .into_iter()
        .find(|g| g.contains_key(member))
        .unwrap_or_else(|| panic!("no static final int {member} in the Java source"))
}

/// Both tables hold the same names with the same codes.
fn assert_same(what: &str, java: &BTreeMap<String, u32>, rust: &BTreeMap<String, u32>) {
    assert_eq!(
        java, rust,
        "{what}: the agent's Java constants (left) and core::trace::wire (right) differ"
    );
}

#[test]
fn the_parser_reads_decimal_hex_and_multi_line_groups() {
    let groups = int_groups(
        "static final int A = 1, B = 0x0A,\n    C = 10_000; private static final int D = 7;",
    );
    assert_eq!(groups.len(), 2);
    assert_eq!(groups[0]["B"], 10);
    assert_eq!(groups[0]["C"], 10_000);
    assert_eq!(groups[1]["D"], 7);
}

#[test]
fn event_ops_agree() {
    let java = group_with(ENCODER, "CALL");
    let rust: BTreeMap<String, u32> = (0..=u8::MAX)
        .filter_map(|c| op_name(c).map(|n| (n.to_string(), u32::from(c))))
        .collect();
    assert_same("event ops", &java, &rust);
    // The decoder's constants are the ones its names stand for.
    for (name, code) in [
        ("CALL", op::CALL),
        ("RETURN", op::RETURN),
        ("UNWIND", op::UNWIND),
        ("EXT_CALL", op::EXT_CALL),
        ("EXT_RETURN", op::EXT_RETURN),
        ("EXT_UNWIND", op::EXT_UNWIND),
        ("LINE", op::LINE),
        ("LOCAL", op::LOCAL),
        ("FIELD_WRITE", op::FIELD_WRITE),
        ("STATIC_WRITE", op::STATIC_WRITE),
        ("ARRAY_WRITE", op::ARRAY_WRITE),
        ("NEW_OBJECT", op::NEW_OBJECT),
        ("NEW_ARRAY", op::NEW_ARRAY),
        ("THIS", op::THIS),
        ("THROW", op::THROW),
        ("CATCH", op::CATCH),
        ("STRING", op::STRING),
        ("FIELD_WRITE_UNINIT", op::FIELD_WRITE_UNINIT),
        ("CONTENT", op::CONTENT),
        ("BLOCK", op::BLOCK),
        ("FIELD_READ", op::FIELD_READ),
        ("ARRAY_READ", op::ARRAY_READ),
        ("STATIC_READ", op::STATIC_READ),
    ] {
        assert_eq!(op_name(code), Some(name), "op::{name}");
    }
}

#[test]
fn value_tags_agree() {
    let java = group_with(ENCODER, "TAG_INT");
    let values = [
        ("TAG_VOID", Value::Void),
        ("TAG_NULL", Value::Null),
        ("TAG_FALSE", Value::Boolean(false)),
        ("TAG_TRUE", Value::Boolean(true)),
        ("TAG_INT", Value::Int(0)),
        ("TAG_CHAR", Value::Char(0)),
        ("TAG_BYTE", Value::Byte(0)),
        ("TAG_SHORT", Value::Short(0)),
        ("TAG_LONG", Value::Long(0)),
        ("TAG_FLOAT", Value::Float(0.0)),
        ("TAG_DOUBLE", Value::Double(0.0)),
        ("TAG_OBJECT", Value::Object(ObjectId(1))),
        ("TAG_STRING", Value::Str(StringId(1))),
        ("TAG_BOXED", Value::Boxed(Primitive::Int(0))),
    ];
    let rust: BTreeMap<String, u32> = values
        .iter()
        .map(|(name, v)| {
            let mut out = Vec::new();
            put_value(&mut out, v);
            (name.to_string(), u32::from(out[0]))
        })
        .collect();
    assert_same("value tags", &java, &rust);
}

#[test]
fn frame_types_and_version_agree() {
    let mut java = group_with(OUT, "HELLO");
    let rust: BTreeMap<String, u32> = (0..=u8::MAX)
        .filter_map(|t| frame_name(t).map(|n| (n.to_string(), u32::from(t))))
        .collect();
    assert_same("frame types", &java, &rust);
    assert_eq!(frame_name(frame_type::EVENTS), Some("EVENTS"));
    java = group_with(OUT, "VERSION");
    assert_eq!(java["VERSION"], u32::from(VERSION), "wire format version");
}

#[test]
fn content_kinds_agree() {
    let java = group_with(CONTENTS, "TAIL");
    let mut rust: BTreeMap<String, u32> = [
        ("SEQUENCE", ContentKind::Sequence),
        ("MAP", ContentKind::Map),
        ("TEXT", ContentKind::Text),
    ]
    .into_iter()
    .map(|(name, k)| {
        assert_eq!(ContentKind::from_byte(k as u8), Some(k));
        (name.to_string(), k as u32)
    })
    .collect();
    // The tail's kind byte as the encoder writes it: op, dts, object id, kind.
    let tail = Event {
        ts: 1,
        kind: EventKind::Content {
            object: ObjectId(1),
            kind: ContentKind::Sequence,
            start: 1,
            values: vec![Value::Null],
        },
    };
    let mut out = Vec::new();
    put_event(&mut out, &tail, 0);
    rust.insert("TAIL".into(), u32::from(out[3]));
    assert_same("content kinds", &java, &rust);
}

#[test]
fn effect_kinds_agree() {
    let java = group_with(BLOCK_TABLE, "LOCAL_WRITE");
    let rust: BTreeMap<String, u32> = (0..=u8::MAX)
        .filter_map(|b| EffectKind::from_byte(b).map(|k| (upper_snake(&format!("{k:?}")), b)))
        .map(|(name, b)| (name, u32::from(b)))
        .collect();
    assert_same("effect kinds", &java, &rust);
}

/// `LocalWrite` -> `LOCAL_WRITE`.
fn upper_snake(camel: &str) -> String {
    let mut out = String::new();
    for (i, c) in camel.chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_uppercase());
    }
    out
}
