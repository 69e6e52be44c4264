//! Questions and verdicts on the execution forest's own nodes: a collapsed node (a chain of
//! calls of one method) or a projected node (a sub-chain of sibling calls) is asked as one
//! step from the first call's entry state to the last call's exit state, e.g.
//! `3 calls Position.right() with this=Position{x=8, y=1}→Position{x=11, y=1}`: is the final
//! state right? The states are the chain's context (`this` of the calls, the static fields
//! written), as the recorder's chain rule defines it (`trace::recorder::chain`).

use super::question::{Question, QuestionError, Shown};
use crate::ids::{NodeId, Timestamp};
use crate::omniscient::names::MethodNames;
use crate::omniscient::{render_value, RenderLimits};
use crate::trace::store::{NodeResult, TraceReader};
use crate::trace::wire::Value;
use crate::tree::{ExecutionTree, NodeKind};

/// Results of a chain's calls listed in a question, at most.
const MAX_RESULTS: usize = 8;

/// The recorder's node whose commit makes `node`'s question readable: a call itself, the
/// last call of a forest node.
pub fn visible_after(tree: &ExecutionTree, node: NodeId) -> NodeId {
    tree.span(node).map_or(node, |(_, last)| last)
}

/// Renders `node` as a question: a call, a loop or an iteration by [`super::question`], a
/// forest node as one step over its calls.
pub fn question_in(
    reader: &TraceReader,
    names: &mut MethodNames,
    tree: &ExecutionTree,
    node: NodeId,
    limits: RenderLimits,
) -> Result<Question, QuestionError> {
    if !matches!(tree.kind(node), NodeKind::Collapsed | NodeKind::Projected) {
        return super::question(reader, names, node, limits);
    }
    // A run of iterations of one loop reads as the loop's question over that run.
    let steps = steps(tree, node);
    if let (Some(&a), Some(&b)) = (steps.first(), steps.last()) {
        if steps.iter().all(|&s| tree.kind(s) == NodeKind::Iteration) {
            let (first, last) = (reader.node(a)?, reader.node(b)?);
            let (Some(first), Some(last)) = (first, last) else {
                return Err(QuestionError::NoSuchCall(node));
            };
            let mut q = super::fragment::span_question(reader, names, &first, &last, limits)?;
            q.node = node;
            q.kind = NodeKind::Projected;
            return Ok(q);
        }
    }
    let (first, last) = tree.span(node).ok_or(QuestionError::NoSuchCall(node))?;
    let first_detail = reader
        .node_detail(first)?
        .ok_or(QuestionError::NoSuchCall(first))?;
    let entry = first_detail.row.header.entry;
    let exit = reader
        .node(last)?
        .and_then(|r| r.header.exit)
        .unwrap_or(Timestamp::MAX);
    let render = |v: &Value, at: Timestamp| render_value(reader, v, at, limits);
    let mut methods: Vec<String> = Vec::new();
    let mut qualified = None;
    for &s in &calls(tree, node) {
        if let Some(m) = tree.method(s) {
            if let Some(n) = names.get(reader, m)? {
                if !methods.contains(&n.short) {
                    methods.push(n.short.clone());
                }
                qualified.get_or_insert_with(|| n.qualified.clone());
            }
        }
    }
    // The objects the first call was given (an array a chain of static calls works on, say):
    // their state before the first call and after the last. Primitive arguments are each
    // call's own input, not the chain's state.
    let mut args = Vec::new();
    for arg in &first_detail.args {
        if let Value::Object(_) = arg.value {
            let (before, after) = (render(&arg.value, entry)?, render(&arg.value, exit)?);
            args.push(Shown {
                name: arg.name.clone(),
                exit: (before != after).then_some(after),
                entry: before,
            });
        }
    }
    let this = match first_detail.this {
        Some(t) => {
            let (before, after) = (render(&t, entry)?, render(&t, exit)?);
            Some(Shown {
                name: "this".into(),
                exit: (before != after).then_some(after),
                entry: before,
            })
        }
        None => None,
    };
    let statics = super::question::changed_statics(reader, entry, exit, limits)?;
    // The calls' results, when they return something: part of what the chain computed.
    let mut results = Vec::new();
    for &c in calls(tree, node).iter().take(MAX_RESULTS + 1) {
        if results.len() == MAX_RESULTS {
            results.push("…".to_string());
            break;
        }
        match reader.node_detail(c)?.and_then(|d| d.result) {
            Some(NodeResult::Returned(Value::Void)) | None => {}
            Some(NodeResult::Returned(v)) => results.push(render(&v, exit)?),
            Some(NodeResult::Threw(_)) => results.push("throws".into()),
        }
    }
    let count = calls(tree, node).len();
    let mut text = format!("{count} calls {}", methods.join(", "));
    for a in &args {
        match &a.exit {
            Some(after) => text.push_str(&format!(" with {}={}→{after}", a.name, a.entry)),
            None => text.push_str(&format!(" with {}={} (unchanged)", a.name, a.entry)),
        }
    }
    if let Some(t) = &this {
        match &t.exit {
            Some(after) => text.push_str(&format!(" with this={}→{after}", t.entry)),
            None => text.push_str(&format!(" with this={} (unchanged)", t.entry)),
        }
    }
    for s in &statics {
        text.push_str(&format!(
            ", {}={}→{}",
            s.name,
            s.entry,
            s.exit.as_deref().unwrap_or("")
        ));
    }
    let result = (!results.is_empty()).then(|| results.join(", "));
    if let Some(r) = &result {
        text.push_str(&format!(" returning {r}"));
    }
    Ok(Question {
        node,
        method: qualified.unwrap_or_default(),
        args,
        this,
        statics,
        result,
        text,
        kind: tree.kind(node),
        fragment: None,
    })
}

/// The recorder's nodes a projected node stands for, in order: its children, those that are
/// projected nodes replaced by theirs.
fn steps(tree: &ExecutionTree, node: NodeId) -> Vec<NodeId> {
    tree.children(node)
        .flat_map(|c| match tree.kind(c) {
            NodeKind::Projected => steps(tree, c),
            _ => vec![c],
        })
        .collect()
}

/// The recorder's calls a forest node stands for, in call order (the top of each step).
pub(super) fn calls(tree: &ExecutionTree, node: NodeId) -> Vec<NodeId> {
    match tree.kind(node) {
        NodeKind::Projected => tree.children(node).flat_map(|c| calls(tree, c)).collect(),
        _ => tree.calls_in(node),
    }
}

/// A verdict's forest node as people read it: (method, source file, lines). A collapsed node
/// names its calls' method (Theorem 2: its bug is in that method) and the lines its calls
/// executed themselves; a projected node names the method its steps share, if one, and the
/// lines of its collapsed and call steps.
pub fn describe_in(
    reader: &TraceReader,
    names: &mut MethodNames,
    tree: &ExecutionTree,
    node: NodeId,
) -> Result<(String, Option<String>, Vec<u32>), QuestionError> {
    let mut lines = std::collections::BTreeSet::new();
    for c in calls(tree, node) {
        lines.extend(reader.node_lines(c)?);
    }
    let (method, file) = match tree.method(node) {
        Some(m) => match names.get(reader, m)? {
            Some(n) => (n.qualified.clone(), n.source_file.clone()),
            None => (format!("#{m}"), None),
        },
        None => (String::new(), None),
    };
    Ok((method, file, lines.into_iter().collect()))
}
