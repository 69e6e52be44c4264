//! The state of a call at any moment (jhyde's Node view): every local defined so far, `this`,
//! the static fields the call touched, each with its value at the call's entry and at the asked
//! timestamp and a mark saying how it changed. Objects and arrays expand lazily by path
//! ([`children_of`]), long arrays a page at a time.

use serde::{Deserialize, Serialize};

use std::collections::HashMap;

use super::error::{OmniError, OmniResult};
use super::heap::Heap;
use super::path::{PathRoot, Step, VarPath};
use super::render::{render_value, RenderLimits};
use super::resolve::resolve;
use super::Variable;
use crate::ids::{NodeId, ObjectId, Timestamp};
use crate::trace::store::{NodeResult, TraceReader};
use crate::trace::wire::Value;
use crate::tree::NodeKind;

/// How a variable's value at `at` compares with its value at the call's entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mark {
    /// The value differs (another primitive, another reference, or newly defined).
    Changed,
    /// Same reference, but something reachable from it changed.
    ContentsChanged,
    Unchanged,
}

/// Objects compared when looking for a change inside a reference, for one state: a bigger graph
/// is compared on its first objects only (a change beyond them goes unseen), and an array on its
/// first elements.
pub const MARK_MAX_OBJECTS: usize = 10_000;

/// Children listed when a variable is expanded without paging.
pub const DEFAULT_PAGE: u32 = 100;

/// A variable, or a field or element of one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VarState {
    pub name: String,
    pub path: String,
    /// Rendered value at the call's entry; `None` when not defined then.
    pub entry: Option<String>,
    /// Rendered value at `at`; `None` when not defined (yet).
    pub value: Option<String>,
    pub mark: Mark,
    /// Fields or elements of the object or array the variable refers to at `at`, when it has
    /// any: what `children_of` pages through.
    pub size: Option<u32>,
    /// The expanded children (empty unless asked for).
    pub children: Vec<VarState>,
}

/// The state of a call at a timestamp.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NodeState {
    pub node: NodeId,
    pub method: Option<String>,
    pub entry_ts: Timestamp,
    pub exit_ts: Option<Timestamp>,
    pub at: Timestamp,
    /// `= value` or `throws Exception` once the call ended by `at`.
    pub result: Option<String>,
    /// The exception the call ended with, if it threw.
    pub exception: Option<String>,
    pub variables: Vec<VarState>,
}

/// Finds whether anything reachable from an object changed between two timestamps: an object
/// changed when one of its own fields or elements differs; the answer is remembered per object,
/// so the variables of one state and their expanded children share the walk.
pub struct Changes<'h, H> {
    heap: &'h H,
    entry: Timestamp,
    at: Timestamp,
    memo: HashMap<ObjectId, bool>,
    /// Objects still allowed to be compared (see [`MARK_MAX_OBJECTS`]).
    budget: usize,
}

impl<'h, H: Heap> Changes<'h, H> {
    pub fn new(heap: &'h H, entry: Timestamp, at: Timestamp) -> Self {
        Changes {
            heap,
            entry,
            at,
            memo: HashMap::new(),
            budget: MARK_MAX_OBJECTS,
        }
    }

    /// How a value at `at` compares with the value at `entry`.
    pub fn mark(&mut self, before: Option<Value>, now: Option<Value>) -> OmniResult<Mark> {
        if before != now && !self.same_text(before, now)? {
            return Ok(Mark::Changed);
        }
        match now {
            Some(Value::Object(id)) if self.entry != self.at && self.reach_changed(id)? => {
                Ok(Mark::ContentsChanged)
            }
            _ => Ok(Mark::Unchanged),
        }
    }

    /// Strings are values: two string ids of one text are the same value (the agent may give a
    /// text a second id when its cache slot was taken, docs/wire-format.md).
    fn same_text(&self, a: Option<Value>, b: Option<Value>) -> OmniResult<bool> {
        let (Some(Value::Str(a)), Some(Value::Str(b))) = (a, b) else {
            return Ok(false);
        };
        Ok(match (self.heap.string(a)?, self.heap.string(b)?) {
            (Some(a), Some(b)) => a == b,
            _ => false,
        })
    }

    fn reach_changed(&mut self, id: ObjectId) -> OmniResult<bool> {
        if let Some(&b) = self.memo.get(&id) {
            return Ok(b);
        }
        // On a cycle the object counts as unchanged until its own walk ends.
        self.memo.insert(id, false);
        if self.budget == 0 {
            return Ok(false);
        }
        self.budget -= 1;
        let Some(info) = self.heap.object(id)? else {
            return Ok(false);
        };
        let (before, now): (Vec<Option<Value>>, Vec<Option<Value>>) = match info.array_length {
            Some(len) => {
                let shown = len.min(MARK_MAX_OBJECTS as u32);
                (
                    self.heap.elements_at(id, self.entry, 0..shown)?,
                    self.heap.elements_at(id, self.at, 0..shown)?,
                )
            }
            None => {
                let before = self.heap.fields_at(id, self.entry)?;
                let now = self.heap.fields_at(id, self.at)?;
                let b = now
                    .iter()
                    .map(|(n, _)| before.iter().find(|(m, _)| m == n).map(|(_, v)| *v))
                    .collect();
                (b, now.into_iter().map(|(_, v)| Some(v)).collect())
            }
        };
        let mut changed = before != now;
        if !changed {
            for v in now.iter().flatten() {
                if let Value::Object(child) = v {
                    if self.reach_changed(*child)? {
                        changed = true;
                        break;
                    }
                }
            }
        }
        self.memo.insert(id, changed);
        Ok(changed)
    }
}

/// Number of children of a value at `at`: an array's length, an object's known fields.
fn size_of(heap: &impl Heap, v: Option<Value>, at: Timestamp) -> OmniResult<Option<u32>> {
    let Some(Value::Object(id)) = v else {
        return Ok(None);
    };
    let Some(info) = heap.object(id)? else {
        return Ok(None);
    };
    if let Some(len) = info.array_length {
        return Ok(Some(len));
    }
    Ok(Some(heap.fields_at(id, at)?.len() as u32))
}

/// Builds one variable's state; `expand` lists paths whose ancestors (and themselves) get their
/// first page of children.
#[allow(clippy::too_many_arguments)]
pub(super) fn var_state<H: Heap>(
    heap: &H,
    changes: &mut Changes<'_, H>,
    name: String,
    path: VarPath,
    before: Option<Value>,
    now: Option<Value>,
    entry: Timestamp,
    at: Timestamp,
    expand: &[VarPath],
    limits: RenderLimits,
) -> OmniResult<VarState> {
    let render = |v: Option<Value>, t| v.map(|v| render_value(heap, &v, t, limits)).transpose();
    let mut state = VarState {
        name,
        path: path.to_string(),
        entry: render(before, entry)?,
        value: render(now, at)?,
        mark: changes.mark(before, now)?,
        size: size_of(heap, now, at)?,
        children: Vec::new(),
    };
    let wanted = expand
        .iter()
        .any(|e| e.root == path.root && e.steps.starts_with(&path.steps));
    if wanted {
        if let Some(Value::Object(id)) = now {
            state.children = object_children(
                heap,
                changes,
                &path,
                id,
                entry,
                at,
                0,
                DEFAULT_PAGE,
                expand,
                limits,
            )?;
        }
    }
    Ok(state)
}

/// Fields (by name) or elements `offset..offset+limit` of object `id`, each compared with the
/// same object's slot at `entry`.
#[allow(clippy::too_many_arguments)]
fn object_children<H: Heap>(
    heap: &H,
    changes: &mut Changes<'_, H>,
    path: &VarPath,
    id: crate::ids::ObjectId,
    entry: Timestamp,
    at: Timestamp,
    offset: u32,
    limit: u32,
    expand: &[VarPath],
    limits: RenderLimits,
) -> OmniResult<Vec<VarState>> {
    let Some(info) = heap.object(id)? else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    if info.array_length.is_some() {
        let range = offset..offset.saturating_add(limit);
        let before = heap.elements_at(id, entry, range.clone())?;
        let now = heap.elements_at(id, at, range)?;
        for (k, v) in now.into_iter().enumerate() {
            let index = offset + k as u32;
            let b = before.get(k).copied().flatten();
            out.push(var_state(
                heap,
                changes,
                format!("[{index}]"),
                path.child(Step::Index(index)),
                b,
                v,
                entry,
                at,
                expand,
                limits,
            )?);
        }
    } else {
        let before = heap.fields_at(id, entry)?;
        for (name, v) in heap
            .fields_at(id, at)?
            .into_iter()
            .skip(offset as usize)
            .take(limit as usize)
        {
            let b = before.iter().find(|(n, _)| *n == name).map(|(_, v)| *v);
            out.push(var_state(
                heap,
                changes,
                name.clone(),
                path.child(Step::Field(name)),
                b,
                Some(v),
                entry,
                at,
                expand,
                limits,
            )?);
        }
    }
    Ok(out)
}

/// The first and last timestamps of nodes `first` to `last` (one node when they are the same;
/// calls, loops or iterations), checking that `at` lies between them (defaulting to the exit,
/// or the entry of an incomplete node). `shown` names the span in errors.
pub(super) fn span_of(
    reader: &TraceReader,
    shown: NodeId,
    first: NodeId,
    last: NodeId,
    at: Option<Timestamp>,
) -> OmniResult<(Timestamp, Option<Timestamp>, Timestamp)> {
    let row = |n: NodeId| -> OmniResult<_> {
        let row = reader.node(n)?.ok_or_else(|| OmniError::missing(n))?;
        if row.header.kind == NodeKind::External {
            return Err(OmniError::External(n));
        }
        if row.header.kind != NodeKind::Routine && !row.header.kind.is_loop() {
            return Err(OmniError::NoCall(n));
        }
        Ok(row)
    };
    let entry = row(first)?.header.entry;
    let exit = if last == first {
        row(first)?.header.exit
    } else {
        row(last)?.header.exit
    };
    let at = at.unwrap_or(exit.unwrap_or(entry));
    let end = exit.unwrap_or(Timestamp::MAX);
    if at < entry || at > end {
        return Err(OmniError::OutsideNode {
            node: shown,
            at,
            entry,
            exit: end,
        });
    }
    Ok((entry, exit, at))
}

/// The state of call `node` at `at` (its exit when `None`), with the children of the paths in
/// `expand` (and of their ancestors) listed. A loop or an iteration shows its frame (the call
/// it runs in) between its own entry and exit: the frame's variables, named by the frame's
/// paths, and no result.
pub fn node_state(
    reader: &TraceReader,
    node: NodeId,
    at: Option<Timestamp>,
    expand: &[VarPath],
    limits: RenderLimits,
) -> OmniResult<NodeState> {
    frame_state(reader, node, node, node, at, expand, limits)
}

/// The state of iterations `first` to `last` of one loop taken as one step (a projected node
/// of the execution forest over them, `shown`): the frame's variables between `first`'s entry
/// and `last`'s exit, as for one iteration. With `first == last == shown`, [`node_state`].
pub fn frame_state(
    reader: &TraceReader,
    shown: NodeId,
    first: NodeId,
    last: NodeId,
    at: Option<Timestamp>,
    expand: &[VarPath],
    limits: RenderLimits,
) -> OmniResult<NodeState> {
    let (entry, exit, at) = span_of(reader, shown, first, last, at)?;
    let node = first;
    let frame = reader.frame_of(node)?.map_or(node, |f| f.header.id);
    let detail = reader
        .node_detail(frame)?
        .ok_or_else(|| OmniError::missing(node))?;
    let mut names = super::names::Names::new(reader);
    let method = detail.method.clone();
    let mut changes = Changes::new(reader, entry, at);
    let mut variables = Vec::new();
    if let Some(m) = &method {
        for (i, var) in m.vars.iter().enumerate() {
            let var_id = i as u32;
            let before = reader.local_at(frame, var_id, entry)?;
            let now = reader.local_at(frame, var_id, at)?;
            if before.is_none() && now.is_none() {
                continue;
            }
            let path = VarPath::local(frame, &var.name);
            variables.push(var_state(
                reader,
                &mut changes,
                var.name.clone(),
                path,
                before,
                now,
                entry,
                at,
                expand,
                limits,
            )?);
        }
    }
    // A constructor's `this` (set by `THIS`) when the method has no variable table.
    if let (Some(this), false) = (detail.this, variables.iter().any(|v| v.name == "this")) {
        let path = VarPath::local(frame, "this");
        variables.insert(
            0,
            var_state(
                reader,
                &mut changes,
                "this".into(),
                path,
                Some(this),
                Some(this),
                entry,
                at,
                expand,
                limits,
            )?,
        );
    }
    variables.extend(statics_state(
        reader,
        &mut changes,
        method.as_ref().map(|m| m.class),
        entry,
        at,
        expand,
        limits,
    )?);
    let (mut result, mut exception) = (None, None);
    if exit.is_some_and(|x| x <= at) && frame == node && first == last {
        match detail.result {
            Some(NodeResult::Returned(Value::Void)) | None => {}
            Some(NodeResult::Returned(v)) => result = Some(render_value(reader, &v, at, limits)?),
            Some(NodeResult::Threw(e)) => {
                let name = exception_name(reader, &e)?;
                result = Some(format!("throws {name}"));
                exception = Some(name);
            }
        }
    }
    let method_name = match detail.row.header.method {
        Some(m) => Some(names.qualified(m)?),
        None => None,
    };
    Ok(NodeState {
        node: shown,
        method: method_name,
        entry_ts: entry,
        exit_ts: exit,
        at,
        result,
        exception,
        variables,
    })
}

/// The static fields a state lists (see [`touched_statics`]), each between `entry` and `at`.
#[allow(clippy::too_many_arguments)]
pub(super) fn statics_state(
    reader: &TraceReader,
    changes: &mut Changes<'_, TraceReader>,
    class: Option<crate::ids::ClassId>,
    entry: Timestamp,
    at: Timestamp,
    expand: &[VarPath],
    limits: RenderLimits,
) -> OmniResult<Vec<VarState>> {
    let mut names = super::names::Names::new(reader);
    let mut variables = Vec::new();
    for field in touched_statics(reader, class, entry, at)? {
        let class = names.class(field.class)?;
        let before = reader.static_at(field.id, entry)?;
        let now = reader.static_at(field.id, at)?;
        if before.is_none() && now.is_none() {
            continue;
        }
        let path = VarPath {
            root: PathRoot::Static {
                names: class
                    .split('.')
                    .map(String::from)
                    .chain([field.name.clone()])
                    .collect(),
            },
            steps: Vec::new(),
        };
        let name = format!("{}.{}", super::simple_class_name(&class), field.name);
        variables.push(var_state(
            reader, changes, name, path, before, now, entry, at, expand, limits,
        )?);
    }
    Ok(variables)
}

/// The simple class name of a thrown value.
pub fn exception_name(reader: &TraceReader, v: &Value) -> OmniResult<String> {
    Ok(reader
        .class_name_of(v)?
        .map_or_else(|| "?".into(), |c| super::simple_class_name(&c)))
}

/// How many static fields a state looks at for writes inside the call.
const MAX_STATICS: usize = 500;

/// Static fields the call touched: those of its method's class, and any static field written
/// between its entry and `at`. A static of another class that the call only read is not listed:
/// the change index answers for writes; reads are only in the call's events.
pub(super) fn touched_statics(
    reader: &TraceReader,
    class: Option<crate::ids::ClassId>,
    entry: Timestamp,
    at: Timestamp,
) -> OmniResult<Vec<crate::trace::wire::FieldDef>> {
    let mut out = Vec::new();
    for f in reader.static_fields()?.into_iter().take(MAX_STATICS) {
        let own = Some(f.class) == class;
        let written = !own
            && reader
                .last_write(Variable::Static { field: f.id }, at)?
                .is_some_and(|w| w.ts >= entry);
        if own || written {
            out.push(f);
        }
    }
    Ok(out)
}

/// The children of `path`: the fields or elements `offset..offset+limit` of the object or
/// array it refers to at `at`, each with its value at `entry` (the same object's slot) and its
/// mark. `size` is the total, for paging.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Children {
    pub path: String,
    pub at: Timestamp,
    pub size: Option<u32>,
    pub offset: u32,
    pub children: Vec<VarState>,
}

pub fn children_of(
    reader: &TraceReader,
    path: &VarPath,
    entry: Timestamp,
    at: Timestamp,
    offset: u32,
    limit: u32,
    limits: RenderLimits,
) -> OmniResult<Children> {
    let resolved = resolve(reader, path, at)?;
    let children = match resolved.value {
        Some(Value::Object(id)) => object_children(
            reader,
            &mut Changes::new(reader, entry, at),
            path,
            id,
            entry,
            at,
            offset,
            limit,
            &[],
            limits,
        )?,
        _ => Vec::new(),
    };
    Ok(Children {
        path: path.to_string(),
        at,
        size: size_of(reader, resolved.value, at)?,
        offset,
        children,
    })
}

/// The entry timestamp a path's changes are compared with: its call's entry for a local, the
/// asked time itself otherwise (nothing to compare with).
pub fn entry_of(reader: &TraceReader, path: &VarPath, at: Timestamp) -> OmniResult<Timestamp> {
    match &path.root {
        PathRoot::Local { node, .. } => Ok(reader
            .node(*node)?
            .ok_or_else(|| OmniError::missing(*node))?
            .header
            .entry),
        _ => Ok(at),
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::MemHeap;
    use super::*;
    use crate::ids::{ObjectId, StringId};

    #[test]
    fn marks_tell_values_references_and_contents_apart() {
        let mut heap = MemHeap::default();
        heap.arr(1, "int[]", &[Value::Int(4), Value::Int(9)])
            .set(1, "1", 10, Value::Int(1));
        let arr = Some(Value::Object(ObjectId(1)));
        assert_eq!(
            Changes::new(&heap, 5, 15).mark(arr, arr).unwrap(),
            Mark::ContentsChanged
        );
        assert_eq!(
            Changes::new(&heap, 5, 8).mark(arr, arr).unwrap(),
            Mark::Unchanged
        );
        assert_eq!(
            Changes::new(&heap, 5, 8)
                .mark(Some(Value::Int(1)), Some(Value::Int(2)))
                .unwrap(),
            Mark::Changed
        );
        assert_eq!(
            Changes::new(&heap, 5, 8)
                .mark(None, Some(Value::Int(2)))
                .unwrap(),
            Mark::Changed
        );
        assert_eq!(
            Changes::new(&heap, 5, 8)
                .mark(Some(Value::Int(2)), Some(Value::Int(2)))
                .unwrap(),
            Mark::Unchanged
        );
        // Two ids of one text are one value; another text, or an unknown one, is a change.
        heap.text(1, "ab").text(2, "ab").text(3, "abc");
        let s = |id| Some(Value::Str(StringId(id)));
        let mark = |a, b| Changes::new(&heap, 5, 8).mark(a, b).unwrap();
        assert_eq!(mark(s(1), s(2)), Mark::Unchanged);
        assert_eq!(mark(s(1), s(3)), Mark::Changed);
        assert_eq!(mark(s(1), s(9)), Mark::Changed);
    }

    #[test]
    fn a_change_deep_in_a_graph_marks_the_root() {
        let mut heap = MemHeap::default();
        for i in 1..=50u64 {
            heap.obj(i, "list.Node")
                .set(i, "value", 0, Value::Int(i as i32));
            if i < 50 {
                heap.set(i, "next", 0, Value::Object(ObjectId(i + 1)));
            }
        }
        heap.set(50, "value", 20, Value::Int(-1));
        // A cycle back to the head ends the walk without a change.
        heap.set(50, "next", 0, Value::Object(ObjectId(1)));
        let head = Some(Value::Object(ObjectId(1)));
        assert_eq!(
            Changes::new(&heap, 10, 30).mark(head, head).unwrap(),
            Mark::ContentsChanged
        );
        assert_eq!(
            Changes::new(&heap, 10, 19).mark(head, head).unwrap(),
            Mark::Unchanged
        );
    }

    #[test]
    fn expansion_lists_children_of_wanted_paths_only() {
        let mut heap = MemHeap::default();
        heap.obj(1, "list.Node")
            .set(1, "value", 0, Value::Int(1))
            .set(1, "next", 0, Value::Object(ObjectId(2)));
        heap.obj(2, "list.Node")
            .set(2, "value", 0, Value::Int(2))
            .set(2, "value", 7, Value::Int(3));
        let path = VarPath::local(NodeId(3), "head");
        let v = Some(Value::Object(ObjectId(1)));
        let plain = var_state(
            &heap,
            &mut Changes::new(&heap, 5, 9),
            "head".into(),
            path.clone(),
            v,
            v,
            5,
            9,
            &[],
            RenderLimits::default(),
        )
        .unwrap();
        assert!(plain.children.is_empty());
        assert_eq!(plain.size, Some(2));
        assert_eq!(plain.mark, Mark::ContentsChanged);
        let deep = VarPath::parse("3:head.next").unwrap();
        let open = var_state(
            &heap,
            &mut Changes::new(&heap, 5, 9),
            "head".into(),
            path,
            v,
            v,
            5,
            9,
            &[deep],
            RenderLimits::default(),
        )
        .unwrap();
        let next = open.children.iter().find(|c| c.name == "next").unwrap();
        assert_eq!(next.path, "3:head.next");
        let value = next.children.iter().find(|c| c.name == "value").unwrap();
        assert_eq!(
            (value.entry.as_deref(), value.value.as_deref(), value.mark),
            (Some("2"), Some("3"), Mark::Changed)
        );
        assert_eq!(value.path, "3:head.next.value");
        let head_value = open.children.iter().find(|c| c.name == "value").unwrap();
        assert!(head_value.children.is_empty());
        assert_eq!(head_value.mark, Mark::Unchanged);
    }
}
