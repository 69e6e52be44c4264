//! The origin of a value ("where did this value come from"): for a variable at a timestamp,
//! the write that gave it its value, with the source line and the values that statement read,
//! so that a wrong value can be followed back step by step.

use serde::{Deserialize, Serialize};

use super::error::{OmniError, OmniResult};
use super::inputs::{line_inputs, read_inputs, Input, InputSource};
use super::names::Names;
use super::path::VarPath;
use super::render::{render_value, RenderLimits};
use super::resolve::resolve;
use super::site::{statement_start, write_site};
use super::Variable;
use crate::ids::{NodeId, Timestamp};
use crate::trace::store::TraceReader;

/// The write that produced a value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WriteOrigin {
    pub timestamp: Timestamp,
    /// The node whose code wrote (for an argument, the caller).
    pub node: NodeId,
    pub method: Option<String>,
    pub file: Option<String>,
    pub line: Option<u32>,
    /// The text of that source line, when the source was found.
    pub source: Option<String>,
    /// When the writing statement began.
    pub statement_ts: Timestamp,
    /// What the statement read, in the order it read them; `origin(input.path, input.at)` is
    /// the next step back.
    pub inputs: Vec<Input>,
    /// Where `inputs` come from: the recorded reads, or the source line for methods without a
    /// block table.
    pub inputs_from: InputSource,
    /// For an argument, the call that received it.
    pub callee: Option<NodeId>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ValueOrigin {
    pub path: String,
    pub at: Timestamp,
    pub variable: Variable,
    pub value: Option<String>,
    /// `None` when no recorded write produced the value (a default value of a new object or
    /// array, or content created by uninstrumented code).
    pub write: Option<WriteOrigin>,
}

/// Finds a class's source file: `(file, qualified method) -> text`.
pub type SourceLookup<'a> = &'a dyn Fn(&str, &str) -> Option<String>;

/// The origin of the value of `path` at `at`.
pub fn origin(
    reader: &TraceReader,
    path: &VarPath,
    at: Timestamp,
    source: SourceLookup<'_>,
    limits: RenderLimits,
) -> OmniResult<ValueOrigin> {
    // A finished trace ends at its last event; a live one grows.
    let info = reader.info()?;
    if info.status != "recording" && at > info.last_ts {
        return Err(OmniError::AfterTrace {
            at,
            last: info.last_ts,
        });
    }
    let resolved = resolve(reader, path, at)?;
    let value = resolved
        .value
        .map(|v| render_value(reader, &v, at, limits))
        .transpose()?;
    let mut out = ValueOrigin {
        path: path.to_string(),
        at,
        variable: resolved.variable,
        value,
        write: None,
    };
    let Some(w) = reader.last_write(resolved.variable, at)? else {
        return Ok(out);
    };
    let Some(site) = write_site(reader, &w)? else {
        return Ok(out);
    };
    let mut names = Names::new(reader);
    let (method, file) = names.node_place(site.node)?;
    let line = (site.line > 0).then_some(site.line);
    let text = match (&file, &method, line) {
        (Some(f), Some(m), Some(l)) => {
            source(f, m).and_then(|t| t.lines().nth(l as usize - 1).map(str::to_string))
        }
        _ => None,
    };
    let (statement_ts, inputs, inputs_from) = match read_inputs(reader, &site, limits)? {
        Some((start, inputs)) => (start, inputs, InputSource::Reads),
        None => {
            let start = statement_start(reader, &site)?;
            match &text {
                Some(t) => (
                    start,
                    line_inputs(reader, site.node, start, t, limits)?,
                    InputSource::SourceLine,
                ),
                None => (start, Vec::new(), InputSource::None),
            }
        }
    };
    out.write = Some(WriteOrigin {
        timestamp: w.ts,
        node: site.node,
        method,
        file,
        line,
        source: text.map(|t| t.trim().to_string()),
        statement_ts,
        inputs,
        inputs_from,
        callee: site.callee,
    });
    Ok(out)
}
