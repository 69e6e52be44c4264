//! A replayer's answer (docs/replay-protocol.md, "Answer") read into a state.

use super::graph::GraphHeap;
use crate::oracle::recorded::{Outcome, OutputCall};
use crate::trace::wire::Value;

/// What the correct program did from the buggy call's entry state.
#[derive(Debug)]
pub enum Replayed {
    /// It could not be replayed; the replayer's reason.
    Failed(String),
    Ran(Ran),
}

/// A replayed call's exit state.
#[derive(Debug)]
pub struct Ran {
    pub heap: GraphHeap,
    pub this: Option<Value>,
    pub args: Vec<Value>,
    pub outcome: Outcome,
    /// Timestamps are all 0: the answer is one moment.
    pub output: Vec<OutputCall>,
}

/// Reads an answer; the error names the line and what is wrong with it.
pub fn parse_answer(text: &str) -> Result<Replayed, String> {
    let mut lines = text.lines().enumerate();
    let (_, first) = lines.next().ok_or("the answer is empty")?;
    let mut heap = GraphHeap::default();
    let outcome = match first.split_once(' ') {
        Some(("FAIL", reason)) => return Ok(Replayed::Failed(reason.to_string())),
        Some(("RETURNED", v)) => Outcome::Returned(at(1, heap.value(v))?),
        Some(("THREW", v)) => Outcome::Threw(at(1, heap.value(v))?),
        _ if first == "FAIL" => return Ok(Replayed::Failed(String::new())),
        _ => return Err(format!("line 1: `{first}` is not RETURNED, THREW or FAIL")),
    };
    let (mut this, mut args, mut output) = (None, None, Vec::new());
    let mut ended = false;
    for (i, line) in lines {
        let n = i + 1;
        let fields: Vec<&str> = line.split(' ').collect();
        match fields[0] {
            "END" => {
                ended = true;
                break;
            }
            "THIS" => this = Some(at(n, heap.value(fields.get(1).unwrap_or(&"")))?),
            "ARGS" => args = Some(at(n, counted(&mut heap, &fields[1..]))?),
            "OUT" => {
                let method = fields
                    .get(1)
                    .ok_or(format!("line {n}: OUT without a method"))?;
                output.push(OutputCall {
                    method: method.to_string(),
                    args: at(n, counted(&mut heap, &fields[2..]))?,
                    at: 0,
                });
            }
            _ => {
                if !at(n, heap.record(&fields))? {
                    return Err(format!("line {n}: unknown record `{}`", fields[0]));
                }
            }
        }
    }
    if !ended {
        return Err("the answer has no END".into());
    }
    let args = args.ok_or("the answer has no ARGS")?;
    let result = match outcome {
        Outcome::Returned(v) | Outcome::Threw(v) => v,
    };
    let roots: Vec<Value> = this
        .iter()
        .chain(&args)
        .copied()
        .chain([result])
        .chain(output.iter().flat_map(|o| o.args.iter().copied()))
        .collect();
    if let Some(n) = heap.dangling(&roots) {
        return Err(format!("object {n} is referred to but never declared"));
    }
    Ok(Replayed::Ran(Ran {
        heap,
        this,
        args,
        outcome,
        output,
    }))
}

/// `COUNT V1 V2 ...`.
fn counted(heap: &mut GraphHeap, fields: &[&str]) -> Result<Vec<Value>, String> {
    let (count, values) = fields.split_first().ok_or("no count")?;
    let count: usize = count
        .parse()
        .map_err(|_| format!("`{count}` is not a count"))?;
    if values.len() != count {
        return Err(format!("count {count} but {} values", values.len()));
    }
    values.iter().map(|v| heap.value(v)).collect()
}

fn at<T>(line: usize, r: Result<T, String>) -> Result<T, String> {
    r.map_err(|e| format!("line {line}: {e}"))
}
