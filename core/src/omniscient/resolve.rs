//! Resolving a [`VarPath`] at a timestamp to the store's [`Variable`] by following the
//! references as they were at that time: `7:c[2]` is element 2 of the array that `c` of node 7
//! referred to at `at`, so its history is that element's over the whole run.

use super::error::{OmniError, OmniResult};
use super::path::{PathRoot, Step, VarPath};
use super::Variable;
use crate::ids::{FieldId, NodeId, ObjectId, Timestamp};
use crate::trace::store::TraceReader;
use crate::trace::wire::{Value, VarId};
use crate::tree::NodeKind;

/// A path resolved at a timestamp.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Resolved {
    pub variable: Variable,
    /// The variable's value at that timestamp; `None` when the trace does not know it (a local
    /// not assigned yet, an element of an array first seen later).
    pub value: Option<Value>,
}

/// The timestamp a path means when none is given: a local's node at its exit (its entry
/// while incomplete), anything else at the end of the trace.
pub fn default_time(reader: &TraceReader, path: &VarPath) -> OmniResult<Timestamp> {
    match &path.root {
        PathRoot::Local { node, .. } => {
            let row = reader
                .node(*node)?
                .ok_or_else(|| OmniError::missing(*node))?;
            Ok(row.header.exit.unwrap_or(row.header.entry))
        }
        _ => Ok(reader.info()?.last_ts),
    }
}

/// Resolves `path` at `at`.
pub fn resolve(reader: &TraceReader, path: &VarPath, at: Timestamp) -> OmniResult<Resolved> {
    let fail = |problem: String| OmniError::Path {
        path: path.to_string(),
        at,
        problem,
    };
    let (mut current, steps): (Resolved, &[Step]) = match &path.root {
        PathRoot::Local { node, name } => {
            let var = local_var(reader, *node, name, at)?
                .ok_or_else(|| fail(format!("node {node} has no variable `{name}`")))?;
            let variable = Variable::Local { node: *node, var };
            (
                Resolved {
                    variable,
                    value: reader.local_at(*node, var, at)?,
                },
                &path.steps,
            )
        }
        PathRoot::Static { names } => {
            let (field, used) = static_field(reader, names)?
                .ok_or_else(|| fail("no such static field in the trace".into()))?;
            let value = reader.static_at(field, at)?;
            // Names after the class's field are field steps.
            let extra: Vec<Step> = names[used..]
                .iter()
                .map(|n| Step::Field(n.clone()))
                .chain(path.steps.iter().cloned())
                .collect();
            let first = Resolved {
                variable: Variable::Static { field },
                value,
            };
            return follow(reader, path, at, first, &extra);
        }
        PathRoot::Object { id } => {
            let (first, rest) = path.steps.split_first().ok_or_else(|| fail("an object is not a variable: name a field (obj:ID.field) or an element (obj:ID[3])".into()))?;
            (step(reader, path, at, *id, first)?, rest)
        }
    };
    for s in steps {
        current = step_from(reader, path, at, current, s)?;
    }
    Ok(current)
}

fn follow(
    reader: &TraceReader,
    path: &VarPath,
    at: Timestamp,
    mut current: Resolved,
    steps: &[Step],
) -> OmniResult<Resolved> {
    for s in steps {
        current = step_from(reader, path, at, current, s)?;
    }
    Ok(current)
}

fn step_from(
    reader: &TraceReader,
    path: &VarPath,
    at: Timestamp,
    current: Resolved,
    s: &Step,
) -> OmniResult<Resolved> {
    let fail = |problem: String| OmniError::Path {
        path: path.to_string(),
        at,
        problem,
    };
    match current.value {
        Some(Value::Object(id)) => step(reader, path, at, id, s),
        Some(Value::Null) => Err(fail(format!("null on the way, before `{}`", step_text(s)))),
        Some(other) => Err(fail(format!("{other:?} has no `{}`", step_text(s)))),
        None => Err(fail(format!(
            "the value before `{}` is unknown at this time",
            step_text(s)
        ))),
    }
}

fn step_text(s: &Step) -> String {
    match s {
        Step::Field(f) => format!(".{f}"),
        Step::Index(i) => format!("[{i}]"),
    }
}

fn step(
    reader: &TraceReader,
    path: &VarPath,
    at: Timestamp,
    object: ObjectId,
    s: &Step,
) -> OmniResult<Resolved> {
    let fail = |problem: String| OmniError::Path {
        path: path.to_string(),
        at,
        problem,
    };
    let info = reader
        .object(object)?
        .ok_or_else(|| fail(format!("object {object} is not in the trace")))?;
    match s {
        Step::Index(index) => {
            let len = info
                .length
                .ok_or_else(|| fail(format!("object {object} is not an array")))?;
            if *index >= len {
                return Err(fail(format!(
                    "index {index} out of bounds for length {len}"
                )));
            }
            let variable = Variable::Element {
                array: object,
                index: *index,
            };
            Ok(Resolved {
                variable,
                value: reader.element_at(object, *index, at)?,
            })
        }
        Step::Field(name) => {
            let field = instance_field(reader, object, name)?.ok_or_else(|| {
                fail(format!(
                    "object {object} has no field `{name}` in the trace"
                ))
            })?;
            let variable = Variable::Field { object, field };
            Ok(Resolved {
                variable,
                value: reader.field_at(object, field, at)?,
            })
        }
    }
}

/// The var id of local `name` of call `node`: of several variables of that name (slots reused
/// in other scopes), the one assigned last at or before `at`, else the first.
pub fn local_var(
    reader: &TraceReader,
    node: NodeId,
    name: &str,
    at: Timestamp,
) -> OmniResult<Option<VarId>> {
    let row = reader.node(node)?.ok_or_else(|| OmniError::missing(node))?;
    if row.header.kind != NodeKind::Routine {
        return Err(OmniError::NoCall(node));
    }
    let Some(method) = row
        .header
        .method
        .map(|m| reader.method(m))
        .transpose()?
        .flatten()
    else {
        return Ok(None);
    };
    let mut best: Option<(Option<Timestamp>, VarId)> = None;
    for (i, _) in method
        .vars
        .iter()
        .enumerate()
        .filter(|(_, v)| v.name == name)
    {
        let var = i as VarId;
        let ts = reader
            .last_write(Variable::Local { node, var }, at)?
            .map(|w| w.ts);
        if best.is_none_or(|(b, _)| ts > b) {
            best = Some((ts, var));
        }
    }
    Ok(best.map(|(_, v)| v))
}

/// The static field named by the longest class prefix of `names` that the trace knows, and how
/// many names it used.
fn static_field(reader: &TraceReader, names: &[String]) -> OmniResult<Option<(FieldId, usize)>> {
    for k in (1..names.len()).rev() {
        let class = names[..k].join(".");
        if let Some(c) = reader.class_named(&class)? {
            if let Some(f) = reader
                .fields_of(c.id)?
                .into_iter()
                .find(|f| f.is_static() && f.name == names[k])
            {
                return Ok(Some((f.id, k + 1)));
            }
        }
    }
    Ok(None)
}

/// The field `name` of an object: declared by its class (as the bytecode names it), else any
/// field of that name the trace saw written on the object (an inherited one).
pub fn instance_field(
    reader: &TraceReader,
    object: ObjectId,
    name: &str,
) -> OmniResult<Option<FieldId>> {
    let Some(info) = reader.object(object)? else {
        return Ok(None);
    };
    if let Some(f) = reader
        .fields_of(info.class)?
        .into_iter()
        .find(|f| !f.is_static() && f.name == name)
    {
        return Ok(Some(f.id));
    }
    for (field, _) in reader.fields_written_at(object, Timestamp::MAX)? {
        if reader.field(field)?.is_some_and(|f| f.name == name) {
            return Ok(Some(field));
        }
    }
    Ok(None)
}
