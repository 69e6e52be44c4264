//! The state of a chain of sibling calls taken as one step (a collapsed or projected node of the
//! execution forest): what the chain works on, from the first call's entry to the last call's
//! exit. That is the chain's context as the recorder's chain rule defines it
//! (`trace::recorder::chain`): the receiver of the calls, the objects the first call was given
//! (an array a chain of static calls works on), and the static fields; each call's primitive
//! arguments are its own input, not the chain's state. The calls' results are the chain's
//! result.

use super::error::{OmniError, OmniResult};
use super::path::VarPath;
use super::render::{render_value, RenderLimits};
use super::state::{exception_name, span_of, statics_state, var_state, Changes, NodeState};
use crate::ids::{NodeId, Timestamp};
use crate::trace::store::{NodeResult, TraceReader};
use crate::trace::wire::Value;

/// Results of a chain's calls listed, at most.
const MAX_RESULTS: usize = 8;

/// The state of the chain of calls `calls` (in call order, at least one) at `at` (the last
/// call's exit when `None`), shown as node `shown`. Variables are named by the first call's
/// paths (`7:this`, `7:a`), so they expand and have histories as a call's do.
pub fn chain_state(
    reader: &TraceReader,
    shown: NodeId,
    calls: &[NodeId],
    at: Option<Timestamp>,
    expand: &[VarPath],
    limits: RenderLimits,
) -> OmniResult<NodeState> {
    let (&first, &last) = calls
        .first()
        .zip(calls.last())
        .ok_or(OmniError::missing(shown))?;
    let (entry, exit, at) = span_of(reader, shown, first, last, at)?;
    let detail = reader
        .node_detail(first)?
        .ok_or_else(|| OmniError::missing(first))?;
    let mut changes = Changes::new(reader, entry, at);
    let mut variables = Vec::new();
    // The receiver and the objects given to the first call: the same objects throughout the
    // chain, compared between its entry and `at`.
    let objects = detail
        .this
        .map(|t| ("this".to_string(), t))
        .into_iter()
        .chain(detail.args.iter().map(|a| (a.name.clone(), a.value)))
        .filter(|(_, v)| matches!(v, Value::Object(_)));
    for (name, value) in objects {
        let path = VarPath::local(first, &name);
        variables.push(var_state(
            reader,
            &mut changes,
            name,
            path,
            Some(value),
            Some(value),
            entry,
            at,
            expand,
            limits,
        )?);
    }
    variables.extend(statics_state(
        reader,
        &mut changes,
        detail.method.as_ref().map(|m| m.class),
        entry,
        at,
        expand,
        limits,
    )?);
    let (result, exception) = if exit.is_some_and(|x| x <= at) {
        results(reader, calls, at, limits)?
    } else {
        (None, None)
    };
    let method = match detail.row.header.method {
        Some(m) => Some(super::names::Names::new(reader).qualified(m)?),
        None => None,
    };
    Ok(NodeState {
        node: shown,
        method,
        entry_ts: entry,
        exit_ts: exit,
        at,
        result,
        exception,
        variables,
    })
}

/// The results of the chain's first calls in order (`3, 5, …`), of those that return
/// something, and the exception a call ended with, if one threw (as the question shows them).
fn results(
    reader: &TraceReader,
    calls: &[NodeId],
    at: Timestamp,
    limits: RenderLimits,
) -> OmniResult<(Option<String>, Option<String>)> {
    let mut shown = Vec::new();
    let mut exception = None;
    for &c in calls.iter().take(MAX_RESULTS) {
        match reader.node_detail(c)?.and_then(|d| d.result) {
            Some(NodeResult::Returned(Value::Void)) | None => {}
            Some(NodeResult::Returned(v)) => shown.push(render_value(reader, &v, at, limits)?),
            Some(NodeResult::Threw(e)) => {
                let name = exception_name(reader, &e)?;
                shown.push(format!("throws {name}"));
                exception = Some(name);
            }
        }
    }
    if !shown.is_empty() && calls.len() > MAX_RESULTS {
        shown.push("…".into());
    }
    Ok(((!shown.is_empty()).then(|| shown.join(", ")), exception))
}
