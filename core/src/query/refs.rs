//! What query results are made of: values as people read them (with the object id to go on
//! from), calls (node, call and exit events, method, source lines, receiver, arguments,
//! result) and source lines. Every result names events by timestamp and calls by node, so that
//! `node`, `events`, `history` and `origin` take over from it.

use serde::{Deserialize, Serialize};

use super::error::QueryResult;
use crate::ids::{NodeId, Timestamp};
use crate::omniscient::names::Names;
use crate::omniscient::{render_value, RenderLimits};
use crate::trace::store::{NodeResult, TraceReader};
use crate::trace::wire::Value;
use crate::tree::NodeKind;

/// Values in query results: short, one line.
pub const LIMITS: RenderLimits = RenderLimits {
    depth: 1,
    elements: 8,
    string_chars: 60,
};

/// A value as it was at some moment: rendered, and the object's id when it is one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Shown {
    pub value: String,
    /// The object or array id (`object-state ID`, `obj:ID.field`), when the value is one.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub object: Option<u64>,
}

impl Shown {
    pub fn of(reader: &TraceReader, v: &Value, at: Timestamp) -> QueryResult<Shown> {
        Ok(Shown {
            value: render_value(reader, v, at, LIMITS)
                .map_err(crate::omniscient::OmniError::from)?,
            object: match v {
                Value::Object(o) => Some(o.0),
                _ => None,
            },
        })
    }
}

/// An argument (or any named value).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NamedValue {
    pub name: String,
    #[serde(flatten)]
    pub shown: Shown,
}

/// A source line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceLine {
    pub file: Option<String>,
    pub line: Option<u32>,
}

/// A call: where it is in the run and what it was given and gave back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CallInfo {
    /// The call's node (`node`, `events`, `call-tree`).
    pub node: NodeId,
    /// `routine` (instrumented) or `external` (a call into uninstrumented code).
    pub kind: NodeKind,
    /// `pkg.Class.method`.
    pub method: String,
    pub file: Option<String>,
    /// The line the call is executing at the moment the result speaks of (in a call chain);
    /// otherwise the line it ended on.
    pub line: Option<u32>,
    pub thread: String,
    /// Timestamps of its call event and of its return or unwind (null while it runs).
    pub call_event: Timestamp,
    pub exit_event: Option<Timestamp>,
    /// Where it was called from: the caller's node, file and line.
    pub caller: Option<NodeId>,
    pub site: SourceLine,
    /// `this` at the call (a constructor's new object); null for a static method.
    pub receiver: Option<Shown>,
    pub args: Vec<NamedValue>,
    /// `returned`, `threw`, or null while it runs.
    pub outcome: Option<String>,
    /// The value returned (`void` for none) or the exception thrown.
    pub result: Option<Shown>,
}

/// Builds [`CallInfo`]s, with the names of one trace looked up once.
pub struct Calls<'r> {
    pub reader: &'r TraceReader,
    pub names: Names<'r>,
}

impl<'r> Calls<'r> {
    pub fn new(reader: &'r TraceReader) -> Self {
        Calls {
            reader,
            names: Names::new(reader),
        }
    }

    /// The call `node`, `None` for a node that is no call (root, thread) or not stored.
    /// `line` overrides the line shown (the line executing at some moment).
    pub fn call(&mut self, node: NodeId, line: Option<u32>) -> QueryResult<Option<CallInfo>> {
        let Some(d) = self.reader.node_detail(node)? else {
            return Ok(None);
        };
        let h = &d.row.header;
        if !matches!(h.kind, NodeKind::Routine | NodeKind::External) {
            return Ok(None);
        }
        let method = match h.method {
            Some(m) => self.names.qualified(m)?,
            None => String::new(),
        };
        let (_, file) = self.names.node_place(node)?;
        let thread = self.names.node_thread(node)?.unwrap_or_default();
        let at = h.entry;
        let receiver = match d.this {
            Some(v) => Some(Shown::of(self.reader, &v, h.exit.unwrap_or(at))?),
            None => None,
        };
        let args = d
            .args
            .iter()
            .map(|a| {
                Ok(NamedValue {
                    name: a.name.clone(),
                    shown: Shown::of(self.reader, &a.value, at)?,
                })
            })
            .collect::<QueryResult<Vec<_>>>()?;
        let (outcome, result) = match d.result {
            Some(NodeResult::Returned(v)) => (
                Some("returned".to_string()),
                Some(Shown::of(self.reader, &v, h.exit.unwrap_or(at))?),
            ),
            Some(NodeResult::Threw(v)) => (
                Some("threw".to_string()),
                Some(Shown::of(self.reader, &v, h.exit.unwrap_or(at))?),
            ),
            None => (None, None),
        };
        let caller = h.parent.filter(|_| d.row.depth > 1).filter(|p| p.0 != 0);
        let site = match caller {
            Some(p) => SourceLine {
                file: self.names.node_place(p)?.1,
                line: (d.call_line > 0).then_some(d.call_line),
            },
            None => SourceLine {
                file: None,
                line: None,
            },
        };
        let line = line.or((d.exit_line > 0).then_some(d.exit_line));
        Ok(Some(CallInfo {
            node,
            kind: h.kind,
            method,
            file,
            line,
            thread,
            call_event: h.entry,
            exit_event: h.exit,
            caller,
            site,
            receiver,
            args,
            outcome,
            result,
        }))
    }
}

/// Whether a call never ran its method: an instance call on `null` (the JVM throws a
/// `NullPointerException` at the call site before entering it; the agent still records the
/// call into uninstrumented code it was about to make).
pub fn never_entered(reader: &TraceReader, node: NodeId) -> QueryResult<bool> {
    let Some(d) = reader.node_detail(node)? else {
        return Ok(false);
    };
    let instance = d
        .method
        .as_ref()
        .is_some_and(|m| !m.is_static() && !m.is_constructor());
    Ok(d.row.header.kind == NodeKind::External && instance && d.this == Some(Value::Null))
}
