//! What a question shows: a call as a person checks it at a glance, e.g.
//! `MergeSort.merge(a=[4, 9], la=0→2, ra=2, c=[4, 9, 1, 7]→[1, 4, 9, 7], lc=0→3)`:
//! the arguments with entry→exit values where they changed, the fields of `this` and the static
//! fields that changed, and the result (a return value or a thrown exception).

use serde::Serialize;

use crate::ids::{NodeId, Timestamp};
use crate::omniscient::names::MethodNames;
use crate::omniscient::{render_value, simple_class_name, Heap, HeapError, RenderLimits};
use crate::trace::store::{NodeResult, StoreError, TraceReader};
use crate::trace::wire::Value;
use crate::tree::NodeKind;

/// A variable shown in a question.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Shown {
    pub name: String,
    pub entry: String,
    /// `None` when the value did not change during the call.
    pub exit: Option<String>,
}

impl Shown {
    fn text(&self) -> String {
        match &self.exit {
            Some(exit) => format!("{}={}→{}", self.name, self.entry, exit),
            None => format!("{}={}", self.name, self.entry),
        }
    }
}

/// A node, rendered for the oracle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Question {
    pub node: NodeId,
    /// `pkg.Class.method`.
    pub method: String,
    pub args: Vec<Shown>,
    /// `this` of an instance call, when it changed (a constructor's: its new state).
    pub this: Option<Shown>,
    pub statics: Vec<Shown>,
    /// The returned value (absent for `void`), or `throws Class`.
    pub result: Option<String>,
    /// All of the above on one line.
    pub text: String,
    /// The node's kind: a routine or external call, a loop or an iteration.
    pub kind: NodeKind,
    /// For a loop or an iteration: where and which (`loop at Sum.java:12, iteration 2 of
    /// 3`); its `args` are then the frame's variables, the changed ones first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fragment: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum QuestionError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Heap(#[from] HeapError),
    #[error("node {0} is not a call of this trace")]
    NoSuchCall(NodeId),
}

/// How many static fields a question looks at for changes; a program with more shows the
/// changes of these only.
const MAX_STATICS: usize = 500;

/// The static fields whose value changed between `entry` and `exit` (the first
/// `MAX_STATICS` fields looked at), as `Class.field` before and after.
pub(super) fn changed_statics(
    reader: &TraceReader,
    entry: Timestamp,
    exit: Timestamp,
    limits: RenderLimits,
) -> Result<Vec<Shown>, QuestionError> {
    let render = |v: &Value, at: Timestamp| render_value(reader, v, at, limits);
    let mut statics = Vec::new();
    for field in reader.static_fields()?.into_iter().take(MAX_STATICS) {
        let loc = crate::trace::store::Variable::Static { field: field.id };
        let Some(write) = reader.last_write_between(loc, entry, exit)? else {
            continue;
        };
        let class = reader.class(field.class)?.map_or_else(
            || format!("#{}", field.class),
            |c| simple_class_name(&c.name),
        );
        let before = reader
            .static_at(field.id, entry)?
            .map(|v| render(&v, entry))
            .transpose()?
            .unwrap_or_else(|| "?".into());
        let after = render(&write.value, exit)?;
        if before != after {
            statics.push(Shown {
                name: format!("{class}.{}", field.name),
                entry: before,
                exit: Some(after),
            });
        }
    }
    Ok(statics)
}

/// Renders call `node` of `reader` as a question (`super::question` for any node).
pub(super) fn call_question(
    reader: &TraceReader,
    names: &mut MethodNames,
    node: NodeId,
    limits: RenderLimits,
) -> Result<Question, QuestionError> {
    let detail = reader
        .node_detail(node)?
        .ok_or(QuestionError::NoSuchCall(node))?;
    let method_id = detail
        .row
        .header
        .method
        .ok_or(QuestionError::NoSuchCall(node))?;
    let name = names
        .get(reader, method_id)?
        .cloned()
        .ok_or(QuestionError::NoSuchCall(node))?;
    let entry = detail.row.header.entry;
    let exit = detail.row.header.exit.unwrap_or(Timestamp::MAX);
    let render = |v: &Value, at: Timestamp| render_value(reader, v, at, limits);
    let is_static = name.def.is_static();
    let is_constructor = name.def.name == "<init>";

    let mut args = Vec::new();
    for (i, arg) in detail.args.iter().enumerate() {
        let before = render(&arg.value, entry)?;
        // The argument's variable at exit: the callee may have assigned it.
        let var = (i + usize::from(!is_static)) as u32;
        let last = reader.local_at(node, var, exit)?.unwrap_or(arg.value);
        let after = render(&last, exit)?;
        args.push(Shown {
            name: arg.name.clone(),
            exit: (after != before).then_some(after),
            entry: before,
        });
    }

    let this = match detail.this {
        Some(this) if is_constructor => Some(Shown {
            name: "this".into(),
            entry: render(&this, exit)?,
            exit: None,
        }),
        Some(this) => {
            let (before, after) = (render(&this, entry)?, render(&this, exit)?);
            (before != after).then(|| Shown {
                name: "this".into(),
                entry: before,
                exit: Some(after),
            })
        }
        None => None,
    };

    let statics = changed_statics(reader, entry, exit, limits)?;

    let result = match detail.result {
        Some(NodeResult::Returned(Value::Void)) | None => None,
        Some(NodeResult::Returned(v)) if !is_constructor => Some(render(&v, exit)?),
        Some(NodeResult::Returned(_)) => None,
        Some(NodeResult::Threw(e)) => Some(format!("throws {}", exception_name(reader, &e)?)),
    };

    let mut text = format!(
        "{}({})",
        name.short,
        args.iter().map(Shown::text).collect::<Vec<_>>().join(", ")
    );
    if let Some(r) = &result {
        if r.starts_with("throws ") {
            text.push(' ');
        } else {
            text.push_str(" = ");
        }
        text.push_str(r);
    }
    if let Some(t) = &this {
        text.push_str(&format!(" with {}", t.text()));
    }
    for s in &statics {
        text.push_str(&format!(", {}", s.text()));
    }
    if detail.row.header.exit.is_none() {
        text.push_str(" (still running)");
    }
    Ok(Question {
        node,
        method: name.qualified.clone(),
        args,
        this,
        statics,
        result,
        text,
        kind: detail.row.header.kind,
        fragment: None,
    })
}

fn exception_name(heap: &impl Heap, e: &Value) -> Result<String, HeapError> {
    Ok(match e {
        Value::Object(id) => heap
            .object(*id)?
            .map_or_else(|| format!("#{id}"), |o| simple_class_name(&o.class_name)),
        other => format!("{other:?}"),
    })
}
