//! `values VALUE`: which variables ever held a value, and since when (JavaTA's "which variable
//! has a certain value"; ODB's search of the history by value). A scan of the change index,
//! which holds every write of every variable (fields, statics, array elements, locals and
//! arguments, the content of JDK collections) with its writer: one pass over its pages, never
//! over the event blocks.

use std::collections::BinaryHeap;

use serde::Serialize;

use super::error::QueryResult;
use super::literal::{Literal, Matcher};
use super::objects::{written, Written};
use super::scan::{ProgressFn, ScanProgress, Span};
use crate::ids::{NodeId, ObjectId, Timestamp};
use crate::omniscient::names::Names;
use crate::omniscient::Variable;
use crate::trace::store::{decode_index_page, Key, TraceReader, LENGTH_SLOT};

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Holder {
    /// The variable as a path (`7:x`, `obj:12.next`, `obj:4[2]`, `static:pkg.C.f`): `history
    /// PATH` lists its other values.
    pub path: String,
    pub variable: Variable,
    /// The write that gave it the value (it held it until its next write).
    pub write: Written,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ValueHolders {
    pub value: String,
    pub total: u64,
    /// The earliest `--limit` writes of the value, in time order.
    pub holders: Vec<Holder>,
    /// Change-index pages decoded (`done`) of `total`.
    pub scanned: ScanProgress,
}

fn variable(key: Key) -> Option<Variable> {
    Some(match key.kind {
        0 => Variable::Static {
            field: crate::ids::FieldId(key.a as u32),
        },
        1 => Variable::Field {
            object: ObjectId(key.a),
            field: crate::ids::FieldId(key.b),
        },
        2 => Variable::Element {
            array: ObjectId(key.a),
            index: key.b,
        },
        3 => Variable::Local {
            node: NodeId(key.a as u32),
            var: key.b,
        },
        _ => return None,
    })
}

/// The path people type for a variable.
pub(crate) fn path_of(names: &mut Names<'_>, v: Variable) -> QueryResult<String> {
    Ok(match v {
        Variable::Static { field } => {
            let f = names.reader.field(field)?;
            match f {
                Some(f) => format!("static:{}.{}", names.class(f.class)?, f.name),
                None => format!("static:#{field}"),
            }
        }
        Variable::Field { object, field } => format!("obj:{object}.{}", names.field(field)?),
        Variable::Element { array, index } => format!("obj:{array}[{index}]"),
        Variable::Local { node, var } => {
            let name = match names.node_method(node)? {
                Some(m) => names
                    .method(m)?
                    .and_then(|m| m.def.vars.get(var as usize))
                    .map(|v| v.name.clone()),
                None => None,
            };
            format!("{node}:{}", name.unwrap_or_else(|| format!("var{var}")))
        }
    })
}

pub fn values(
    reader: &TraceReader,
    value: &str,
    span: Span,
    limit: usize,
    mut progress: Option<ProgressFn<'_>>,
) -> QueryResult<ValueHolders> {
    let lit = Literal::parse(value)?;
    let mut matcher = Matcher::default();
    let mut scanned = ScanProgress {
        done: 0,
        total: reader.index_pages_between(span.from, span.to)?,
        unit: "index pages",
    };
    // The earliest `limit` hits: a max-heap by timestamp, trimmed as it grows.
    let mut best: BinaryHeap<(Timestamp, u128, NodeId, u32)> = BinaryHeap::new();
    let mut total = 0u64;
    reader.raw_index_pages(span.from, span.to, |page| {
        let entries = decode_index_page(&page.data).map_err(|e| {
            crate::trace::store::StoreError::Corrupt {
                path: reader.path().into(),
                detail: format!("change index page: {}", e.problem),
            }
        })?;
        for e in entries {
            if !span.contains(e.ts) || (e.key.kind == 2 && e.key.b == LENGTH_SLOT) {
                continue;
            }
            let hit = matcher
                .equals(reader, &e.value, &lit)
                .map_err(|err| match err {
                    super::error::QueryError::Store(s) => s,
                    other => crate::trace::store::StoreError::Corrupt {
                        path: reader.path().into(),
                        detail: other.to_string(),
                    },
                })?;
            if hit {
                total += 1;
                best.push((e.ts, e.key.packed(), e.by.node, e.by.line));
                if best.len() > limit {
                    best.pop();
                }
            }
        }
        scanned.done += 1;
        if let Some(p) = progress.as_mut() {
            p(scanned);
        }
        Ok(true)
    })?;
    let mut names = Names::new(reader);
    let mut holders = Vec::new();
    for (ts, packed, node, line) in best.into_sorted_vec() {
        let key = Key {
            kind: (packed >> 96) as u8,
            a: (packed >> 32) as u64,
            b: packed as u32,
        };
        let Some(v) = variable(key) else { continue };
        holders.push(Holder {
            path: path_of(&mut names, v)?,
            variable: v,
            write: written(&mut names, ts, node, line)?,
        });
    }
    Ok(ValueHolders {
        value: value.to_string(),
        total,
        holders,
        scanned,
    })
}
