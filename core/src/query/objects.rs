//! Queries about objects and variables: an object's state at an event (JavaTA's
//! `object_state`), a field's history (`instance_field_history`, `class_field_history`) and the
//! last write of any variable before an event.
//!
//! Cost: the change index only (one page per index segment for a value, the variable's pages
//! for a history); never an event block, never a scan.

use serde::{Deserialize, Serialize};

use super::error::{QueryError, QueryResult};
use super::refs::{Shown, LIMITS};
use super::scan::Span;
use crate::ids::{NodeId, ObjectId, Timestamp};
use crate::omniscient::names::Names;
use crate::omniscient::{default_time, history, resolve, History, OmniError, VarPath, Variable};
use crate::trace::store::TraceReader;
use crate::trace::wire::Origin;

/// Who wrote a value, and when.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Written {
    pub timestamp: Timestamp,
    /// The call whose code wrote it (for an argument, the caller).
    pub node: NodeId,
    pub method: Option<String>,
    pub file: Option<String>,
    pub line: Option<u32>,
}

/// A field of an object at an event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FieldState {
    pub name: String,
    /// The class the bytecode named as the field's owner (a superclass for an inherited field).
    pub class: String,
    #[serde(flatten)]
    pub shown: Shown,
    /// Its last write at or before the event; null for a field still at its default value.
    pub written: Option<Written>,
}

/// An element (or a content slot of a JDK collection) at an event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ElementState {
    pub index: u32,
    /// Null when the trace does not know it.
    pub value: Option<Shown>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ObjectState {
    pub object: u64,
    pub class: String,
    pub at: Timestamp,
    /// When and in which call it was created (or first met, for `origin` `first-seen`).
    pub created: Timestamp,
    pub created_by: NodeId,
    pub origin: Origin,
    pub fields: Vec<FieldState>,
    /// For an array or a JDK collection whose content the agent sent: its length then, and its
    /// first `--limit` elements (a map's slots are key, value, key, value, ...).
    pub length: Option<u32>,
    pub elements: Vec<ElementState>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LastWrite {
    pub path: String,
    pub at: Timestamp,
    pub variable: Variable,
    /// Its value at `at`; null when the trace does not know it.
    pub value: Option<Shown>,
    /// The write that gave it that value; null for a default value or content set by
    /// uninstrumented code.
    pub write: Option<Written>,
}

/// Parses an object as people write it: `42`, `#42`, `Class#42`, `obj:42`.
pub fn parse_object(text: &str) -> Option<ObjectId> {
    let t = text.trim();
    let digits = t
        .strip_prefix("obj:")
        .or_else(|| t.rsplit_once('#').map(|(_, id)| id))
        .unwrap_or(t);
    digits.parse().ok().map(ObjectId)
}

fn object_arg(reader: &TraceReader, text: &str) -> QueryResult<ObjectId> {
    let id = parse_object(text).ok_or_else(|| QueryError::Syntax {
        what: "object",
        text: text.into(),
        problem: "write an object id: 42, #42, Class#42 or obj:42".into(),
    })?;
    if reader.object(id)?.is_none() {
        return Err(QueryError::NoObject(id.0));
    }
    Ok(id)
}

pub(crate) fn written(
    names: &mut Names<'_>,
    ts: Timestamp,
    node: NodeId,
    line: u32,
) -> QueryResult<Written> {
    let (method, file) = names.node_place(node)?;
    Ok(Written {
        timestamp: ts,
        node,
        method,
        file,
        line: (line > 0).then_some(line),
    })
}

/// `object-state OBJECT --at EVENT`: the object's fields (inherited ones included once
/// written) at `at` (default: the end of the run), each with its last write.
pub fn object_state(
    reader: &TraceReader,
    object: &str,
    at: Option<Timestamp>,
    limit: usize,
) -> QueryResult<ObjectState> {
    let id = object_arg(reader, object)?;
    let info = reader.object(id)?.ok_or(QueryError::NoObject(id.0))?;
    let at = match at {
        Some(t) => t,
        None => reader.info()?.last_ts,
    };
    if info.created_ts > at {
        return Err(QueryError::NotFound(format!(
            "object #{id} was created at timestamp {}, after {at}",
            info.created_ts
        )));
    }
    let mut names = Names::new(reader);
    let class = names.class(info.class)?;
    let writes: std::collections::HashMap<_, _> =
        reader.fields_written_at(id, at)?.into_iter().collect();
    let mut fields = Vec::new();
    for (field, value) in reader.object_fields_at(id, at)? {
        let def = reader.field(field)?;
        let (name, owner) = match def {
            Some(f) => (f.name, names.class(f.class)?),
            None => (format!("#{field}"), String::new()),
        };
        let written = match writes.get(&field) {
            Some(w) => Some(self::written(&mut names, w.ts, w.node, w.line)?),
            None => None,
        };
        fields.push(FieldState {
            name,
            class: owner,
            shown: Shown::of(reader, &value, at)?,
            written,
        });
    }
    let length = match info.content {
        Some(_) => reader.content_length_at(id, at)?,
        None => info.length,
    };
    let mut elements = Vec::new();
    if let Some(len) = length {
        let n = (len as usize).min(limit) as u32;
        for (i, v) in reader.array_at(id, at, 0, n)?.into_iter().enumerate() {
            elements.push(ElementState {
                index: i as u32,
                value: match v {
                    Some(v) => Some(Shown::of(reader, &v, at)?),
                    None => None,
                },
            });
        }
    }
    Ok(ObjectState {
        object: id.0,
        class,
        at,
        created: info.created_ts,
        created_by: info.node,
        origin: info.origin,
        fields,
        length,
        elements,
    })
}

/// `field-history OBJECT|CLASS FIELD`: every change of an instance field of one object, or of
/// a static field of a class, within `span`.
pub fn field_history(
    reader: &TraceReader,
    owner: &str,
    field: &str,
    span: Span,
    offset: usize,
    limit: Option<usize>,
) -> QueryResult<History> {
    let path = match parse_object(owner) {
        Some(_) => format!("obj:{}.{field}", object_arg(reader, owner)?),
        None => format!("static:{owner}.{field}"),
    };
    let path = VarPath::parse(&path)?;
    if span.is_all() {
        // Only the listed changes are rendered.
        return Ok(history(reader, &path, None, offset, limit, LIMITS)?);
    }
    let mut h = history(reader, &path, None, 0, None, LIMITS)?;
    h.entries.retain(|e| span.contains(e.timestamp));
    h.total = h.entries.len();
    h.offset = offset;
    h.entries = h
        .entries
        .into_iter()
        .skip(offset)
        .take(limit.unwrap_or(usize::MAX))
        .collect();
    Ok(h)
}

/// `last-write PATH --at EVENT`: the write that gave the variable its value at `at` (default:
/// a local's call exit, else the end of the run).
pub fn last_write(
    reader: &TraceReader,
    path: &str,
    at: Option<Timestamp>,
) -> QueryResult<LastWrite> {
    let path = VarPath::parse(path)?;
    let at = match at {
        Some(t) => t,
        None => default_time(reader, &path)?,
    };
    let resolved = resolve(reader, &path, at)?;
    let mut names = Names::new(reader);
    let write = match reader.last_write(resolved.variable, at)? {
        Some(w) => Some(written(&mut names, w.ts, w.node, w.line)?),
        None => None,
    };
    Ok(LastWrite {
        path: path.to_string(),
        at,
        variable: resolved.variable,
        value: match resolved.value {
            Some(v) => Some(Shown::of(reader, &v, at)?),
            None => None,
        },
        write,
    })
}

impl From<crate::omniscient::PathSyntaxError> for QueryError {
    fn from(e: crate::omniscient::PathSyntaxError) -> Self {
        QueryError::Omni(OmniError::Syntax(e))
    }
}
