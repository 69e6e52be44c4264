//! Questions about loops and iterations: the loop's place in its method, which iteration, and
//! the frame's variables before and after, as a person checks them at a glance:
//! `SumNumbers.sumNumbers: loop at SumNumbers.java:12, iteration 1 of 3: i=1→2 (with
//! array=[1, 2, 3], eo="odd", sum=0)`. Changed variables come first, as `entry→exit`; the
//! others are the inputs it ran with. The last iteration says how the loop ended.

use super::question::{Question, QuestionError, Shown};
use crate::ids::Timestamp;
use crate::omniscient::names::MethodNames;
use crate::omniscient::{render_value, simple_class_name, RenderLimits};
use crate::trace::store::{NodeRow, Outcome, TraceReader, Variable};
use crate::tree::NodeKind;

/// How many static fields a question looks at for changes.
const MAX_STATICS: usize = 500;

/// The question about loop or iteration `row`.
pub(super) fn question(
    reader: &TraceReader,
    names: &mut MethodNames,
    row: &NodeRow,
    limits: RenderLimits,
) -> Result<Question, QuestionError> {
    span_question(reader, names, row, row, limits)
}

/// The question about iterations `first` to `last` of one loop taken as one step (a projected
/// node of the execution forest over a run of iterations): `loop at Sum.java:12, iterations 2
/// to 3 of 3: ...`, the frame's variables from `first`'s entry to `last`'s exit. With
/// `first == last`, the question about that loop or iteration.
pub(super) fn span_question(
    reader: &TraceReader,
    names: &mut MethodNames,
    first: &NodeRow,
    last: &NodeRow,
    limits: RenderLimits,
) -> Result<Question, QuestionError> {
    let row = last;
    let node = first.header.id;
    let frame = reader
        .frame_of(node)?
        .ok_or(QuestionError::NoSuchCall(node))?;
    let method_id = frame.header.method.ok_or(QuestionError::NoSuchCall(node))?;
    let name = names
        .get(reader, method_id)?
        .cloned()
        .ok_or(QuestionError::NoSuchCall(node))?;
    let entry = first.header.entry;
    let exit = row.header.exit.unwrap_or(Timestamp::MAX);
    let render = |v: &crate::trace::wire::Value, at| render_value(reader, v, at, limits);

    // Where: the line the loop's header starts on (or the frame was on), in its file.
    let line = reader
        .node_events_all(node, entry, 1)?
        .first()
        .map_or(0, |e| match e.event.kind {
            crate::trace::wire::EventKind::Block { line: l @ 1.., .. } => l,
            _ => e.line,
        });
    let file = name
        .source_file
        .clone()
        .unwrap_or_else(|| format!("{}.java", simple_class_name(&name.class)));
    let lp = match row.header.kind {
        NodeKind::Iteration => row.header.parent,
        _ => Some(node),
    };
    let count = lp.map(|l| reader.child_count(l)).transpose()?.unwrap_or(0);
    let mut place = format!("loop at {file}:{line}");
    let mut ending = None;
    match row.header.kind {
        NodeKind::Iteration => {
            let parent = lp.ok_or(QuestionError::NoSuchCall(node))?;
            let j = reader.child_index(parent, node)? + 1;
            let k = reader.child_index(parent, last.header.id)? + 1;
            if j == k {
                place.push_str(&format!(", iteration {k} of {count}"));
            } else {
                place.push_str(&format!(", iterations {j} to {k} of {count}"));
            }
            if k == count {
                ending = Some(ending_text(row));
            }
        }
        _ => {
            let s = if count == 1 { "" } else { "s" };
            place.push_str(&format!(", {count} iteration{s}"));
            ending = Some(ending_text(row));
        }
    }

    let mut changed = Vec::new();
    let mut given = Vec::new();
    for (i, var) in name.def.vars.iter().enumerate() {
        let before = reader.local_at(frame.header.id, i as u32, entry)?;
        let after = reader.local_at(frame.header.id, i as u32, exit)?;
        let shown = match (before, after) {
            (None, None) => continue,
            (Some(b), Some(a)) => {
                let (b, a) = (render(&b, entry)?, render(&a, exit)?);
                Shown {
                    name: var.name.clone(),
                    exit: (a != b).then_some(a),
                    entry: b,
                }
            }
            (None, Some(a)) => Shown {
                name: var.name.clone(),
                entry: "?".into(),
                exit: Some(render(&a, exit)?),
            },
            (Some(b), None) => Shown {
                name: var.name.clone(),
                entry: render(&b, entry)?,
                exit: None,
            },
        };
        if shown.exit.is_some() {
            changed.push(shown);
        } else if var.name != "this" {
            // `this` is shown when it changed, as in a call's question.
            given.push(shown);
        }
    }
    let mut statics = Vec::new();
    for field in reader.static_fields()?.into_iter().take(MAX_STATICS) {
        let loc = Variable::Static { field: field.id };
        let Some(write) = reader.last_write(loc, exit)? else {
            continue;
        };
        if write.ts < entry {
            continue;
        }
        let class = reader.class(field.class)?.map_or_else(
            || format!("#{}", field.class),
            |c| simple_class_name(&c.name),
        );
        let before = reader
            .static_at(field.id, entry.saturating_sub(1))?
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

    let mut text = format!("{}: {place}: ", name.short);
    let parts: Vec<String> = changed.iter().chain(&statics).map(shown_text).collect();
    text.push_str(&if parts.is_empty() {
        "nothing changed".to_string()
    } else {
        parts.join(", ")
    });
    if let Some(e) = &ending {
        text.push_str(&format!(", {e}"));
    }
    if !given.is_empty() {
        let g: Vec<String> = given.iter().map(shown_text).collect();
        text.push_str(&format!(" (with {})", g.join(", ")));
    }
    if row.header.exit.is_none() {
        text.push_str(" (still running)");
    }
    let mut args = changed;
    args.extend(given);
    Ok(Question {
        node,
        method: name.qualified.clone(),
        args,
        this: None,
        statics,
        result: None,
        text,
        kind: row.header.kind,
        fragment: Some(place),
    })
}

fn shown_text(s: &Shown) -> String {
    match &s.exit {
        Some(exit) => format!("{}={}→{}", s.name, s.entry, exit),
        None => format!("{}={}", s.name, s.entry),
    }
}

/// How the loop ended, said of its last iteration or of the loop.
fn ending_text(row: &NodeRow) -> String {
    match row.outcome {
        Some(Outcome::Threw) => "then an exception leaves the method".into(),
        Some(Outcome::Returned) => "then the loop ends".into(),
        None => "still running".into(),
    }
}
