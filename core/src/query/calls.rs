//! `calls METHOD [--caller M] [--where COND]`: every call of a method with its arguments and
//! result (JavaTA's histories of arguments and return values, and PQL's "all calls of A from
//! B"). A whole-history scan: the trace keeps no index by method (it would cost 2-3 bytes an
//! event while recording), so the calls are found among the events, one pass in time order;
//! `--from/--to` narrow it to a span.

use std::collections::HashSet;

use serde::Serialize;

use super::error::QueryResult;
use super::literal::{Condition, Matcher, Operand};
use super::methods::{has_receiver, methods_matching, Defs};
use super::refs::{CallInfo, Calls};
use super::scan::{scan, ProgressFn, ScanProgress, Span};
use crate::ids::{MethodId, NodeId};
use crate::trace::store::TraceReader;
use crate::trace::wire::{EventKind, Value};

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CallsFound {
    /// The methods the name matched, `pkg.Class.method`, each name once.
    pub methods: Vec<String>,
    /// Calls matching in all.
    pub total: u64,
    /// The first `--limit` of them in time order.
    pub calls: Vec<CallInfo>,
    /// Events decoded.
    pub scanned: ScanProgress,
}

/// Whether every condition holds whose value is given (`None`: not known here, skipped;
/// `Some(None)`: an operand the call does not have, such as arg5 of a method with two, which
/// never matches).
fn check(
    reader: &TraceReader,
    matcher: &mut Matcher,
    conds: &[Condition],
    values: &[Option<Option<Value>>],
) -> QueryResult<bool> {
    for (c, v) in conds.iter().zip(values) {
        let holds = match v {
            Some(Some(v)) => matcher.compare(reader, v, c.op, &c.value)?,
            Some(None) => false,
            None => true,
        };
        if !holds {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The value of an argument operand at the call (`None`: not an argument operand).
fn arg_value(
    defs: &mut Defs,
    reader: &TraceReader,
    method: MethodId,
    args: &[Value],
    operand: &Operand,
) -> QueryResult<Option<Option<Value>>> {
    let def = defs.get(reader, method)?.cloned();
    let receiver = def.as_ref().is_some_and(has_receiver);
    let shift = usize::from(receiver);
    Ok(match operand {
        Operand::Arg(n) => Some(args.get(n + shift).copied()),
        Operand::This => Some(if receiver {
            args.first().copied()
        } else {
            None
        }),
        Operand::Named(name) => {
            let index = def.as_ref().and_then(|m| {
                (0..args.len().saturating_sub(shift)).find(|&i| {
                    m.vars
                        .get(m.arg_var(i + shift) as usize)
                        .is_some_and(|v| &v.name == name)
                })
            });
            Some(index.and_then(|i| args.get(i + shift).copied()))
        }
        Operand::Result => None,
    })
}

pub struct CallsQuery<'a> {
    pub method: &'a str,
    pub caller: Option<&'a str>,
    pub conditions: &'a [Condition],
    pub span: Span,
    pub limit: usize,
}

pub fn calls(
    reader: &TraceReader,
    q: &CallsQuery<'_>,
    progress: Option<ProgressFn<'_>>,
) -> QueryResult<CallsFound> {
    let methods = methods_matching(reader, q.method)?;
    let ids: HashSet<MethodId> = methods.iter().map(|m| m.id).collect();
    let callers: Option<HashSet<MethodId>> = match q.caller {
        Some(c) => Some(methods_matching(reader, c)?.iter().map(|m| m.id).collect()),
        None => None,
    };
    let needs_result = q.conditions.iter().any(|c| c.operand == Operand::Result);
    let mut defs = Defs::default();
    let mut matcher = Matcher::default();
    let mut pending: HashSet<NodeId> = HashSet::new();
    let mut found: Vec<NodeId> = Vec::new();
    let mut total = 0u64;
    let scanned = scan(reader, q.span, progress, |s| {
        match &s.event.event.kind {
            EventKind::Call { method, args } | EventKind::ExtCall { method, args }
                if ids.contains(method) =>
            {
                if let Some(callers) = &callers {
                    let caller = s.stack.len().checked_sub(2).and_then(|i| s.stack[i].method);
                    if !caller.is_some_and(|m| callers.contains(&m)) {
                        return Ok(true);
                    }
                }
                let mut values = Vec::new();
                for c in q.conditions {
                    values.push(arg_value(&mut defs, reader, *method, args, &c.operand)?);
                }
                let ok = check(reader, &mut matcher, q.conditions, &values)?;
                if ok {
                    if needs_result {
                        pending.insert(s.event.node);
                    } else {
                        total += 1;
                        if found.len() < q.limit {
                            found.push(s.event.node);
                        }
                    }
                }
            }
            EventKind::Return(v)
            | EventKind::Unwind(v)
            | EventKind::ExtReturn(v)
            | EventKind::ExtUnwind(v)
                if needs_result && pending.remove(&s.event.node) =>
            {
                let values: Vec<_> = q
                    .conditions
                    .iter()
                    .map(|c| (c.operand == Operand::Result).then_some(Some(*v)))
                    .collect();
                let ok = check(reader, &mut matcher, q.conditions, &values)?;
                if ok {
                    total += 1;
                    if found.len() < q.limit {
                        found.push(s.event.node);
                    }
                }
            }
            _ => {}
        }
        Ok(true)
    })?;
    // Matches are found at their exit when the result is tested: back to call order.
    found.sort();
    let mut builder = Calls::new(reader);
    let mut listed = Vec::new();
    for node in found {
        if let Some(c) = builder.call(node, None)? {
            listed.push(c);
        }
    }
    // Overloads share a name: each name once.
    let mut names: Vec<String> = Vec::new();
    for m in methods {
        if !names.contains(&m.qualified) {
            names.push(m.qualified);
        }
    }
    Ok(CallsFound {
        methods: names,
        total,
        calls: listed,
        scanned,
    })
}
