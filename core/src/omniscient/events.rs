//! A call's event list (jhyde's Event List view): every event inside the node in time order
//! (its own events and its children's calls and exits), with thread, kind, `file:line` and a
//! readable text, by pages; for a chosen variable, the events that changed it (`changed`, red
//! in the paper) and the calls whose subtree changed it (`contains-change`, yellow).

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::error::{OmniError, OmniResult};
use super::names::Names;
use super::path::VarPath;
use super::render::{render_value, RenderLimits};
use super::resolve::{default_time, resolve};
use super::state::exception_name;
use super::Variable;
use crate::ids::{NodeId, ObjectId, Timestamp};
use crate::trace::store::{NodeEvent, TraceReader};
use crate::trace::wire::{EventKind, Origin, Value};

/// How an event relates to the chosen variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EventMark {
    /// The event wrote the variable.
    Changed,
    /// A call whose subtree wrote the variable.
    ContainsChange,
}

/// One event of a call's event list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EventRow {
    pub timestamp: Timestamp,
    pub thread: String,
    /// `call`, `return`, `unwind`, `line`, `local`, `field-write`, `static-write`,
    /// `array-write`, `new-object`, `new-array`, `this`, `throw`, `catch`.
    pub kind: String,
    /// The node that executed the event: the listed node, or the child a call or exit opens
    /// or closes.
    pub node: NodeId,
    pub file: Option<String>,
    pub line: Option<u32>,
    pub text: String,
    pub mark: Option<EventMark>,
}

/// A page of a call's event list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EventPage {
    pub node: NodeId,
    /// The chosen variable's path and the variable it resolved to.
    pub var: Option<String>,
    pub variable: Option<Variable>,
    pub events: Vec<EventRow>,
    /// The `from` of the next page, `None` after the last.
    pub next: Option<Timestamp>,
}

/// Static array fields looked at to name an array.
const MAX_STATICS: usize = 500;

/// Values in event texts are short.
const TEXT_LIMITS: RenderLimits = RenderLimits {
    depth: 1,
    elements: 6,
    string_chars: 40,
};

/// Up to `limit` events of `node` from timestamp `from`, marked for `var` (resolved at the
/// node's exit: `7:c[2]` follows the array `c` referred to then).
pub fn node_events(
    reader: &TraceReader,
    node: NodeId,
    from: Timestamp,
    limit: usize,
    var: Option<&VarPath>,
) -> OmniResult<EventPage> {
    let row = reader.node(node)?.ok_or_else(|| OmniError::missing(node))?;
    let variable = match var {
        Some(p) => Some(resolve(reader, p, default_time(reader, p)?)?.variable),
        None => None,
    };
    let raw = reader.node_events(node, from, limit.saturating_add(1))?;
    let more = raw.len() > limit;
    let mut names = Names::new(reader);
    let thread = match row.header.thread {
        Some(t) => names.thread(t)?,
        None => String::new(),
    };
    let (_, file) = names.node_place(node)?;
    let mut texts = Texts {
        reader,
        names,
        node,
        array_names: HashMap::new(),
    };
    let mut events = Vec::new();
    // A child's call and exit happen on the listed node's current line.
    let mut current_line = None;
    for e in raw.iter().take(limit) {
        let line = if e.own {
            current_line = (e.line > 0).then_some(e.line).or(current_line);
            (e.line > 0).then_some(e.line)
        } else {
            current_line
        };
        if matches!(e.event.kind, EventKind::String { .. }) {
            continue;
        }
        let mark = match variable {
            Some(loc) => event_mark(reader, e, loc)?,
            None => None,
        };
        let (kind, text) = texts.describe(e)?;
        events.push(EventRow {
            timestamp: e.event.ts,
            thread: thread.clone(),
            kind: kind.into(),
            node: e.node,
            file: file.clone(),
            line,
            text,
            mark,
        });
    }
    let next = if more {
        raw.get(limit).map(|e| e.event.ts)
    } else {
        None
    };
    Ok(EventPage {
        node,
        var: var.map(|p| p.to_string()),
        variable,
        events,
        next,
    })
}

/// The kind (as in [`EventRow::kind`]) and the readable text of one event of `node`'s event
/// list (`e.own` false for a child's call or exit), as `node_events` shows it.
pub fn describe_event(
    reader: &TraceReader,
    node: NodeId,
    e: &NodeEvent,
) -> OmniResult<(&'static str, String)> {
    let mut texts = Texts {
        reader,
        names: Names::new(reader),
        node,
        array_names: HashMap::new(),
    };
    texts.describe(e)
}

/// Whether event `e` wrote `loc`, or is a child's call whose subtree did.
fn event_mark(reader: &TraceReader, e: &NodeEvent, loc: Variable) -> OmniResult<Option<EventMark>> {
    let ts = e.event.ts;
    let direct = match (&e.event.kind, loc) {
        (EventKind::Local { var, .. }, Variable::Local { node, var: v }) => {
            e.own && *var == v && e.node == node
        }
        (EventKind::This(_), Variable::Local { node, var: 0 }) => e.own && e.node == node,
        (EventKind::Call { .. }, Variable::Local { node, .. }) => e.node == node,
        (
            EventKind::FieldWrite { object, field, .. },
            Variable::Field {
                object: o,
                field: f,
            },
        ) => *object == o && *field == f,
        (EventKind::StaticWrite { field, .. }, Variable::Static { field: f }) => *field == f,
        (EventKind::ArrayWrite { array, index, .. }, Variable::Element { array: a, index: i }) => {
            *array == a && *index == i
        }
        // An array first met with its elements writes them; a new array has defaults, no writes.
        (
            EventKind::NewArray {
                array,
                origin: Origin::FirstSeen,
                ..
            },
            Variable::Element { array: a, .. },
        ) => *array == a,
        _ => false,
    };
    if direct && e.own {
        return Ok(Some(EventMark::Changed));
    }
    if !e.own && e.event.kind.is_call() {
        // A write of the variable inside the child's span, found in the change index.
        let exit = reader
            .node(e.node)?
            .and_then(|r| r.header.exit)
            .unwrap_or(Timestamp::MAX);
        if reader.last_write_between(loc, ts, exit)?.is_some() {
            return Ok(Some(EventMark::ContainsChange));
        }
    }
    Ok(None)
}

/// Readable texts of events, with the names of the listed node's variables.
struct Texts<'r> {
    reader: &'r TraceReader,
    names: Names<'r>,
    node: NodeId,
    /// Arrays named by the local that referred to them (`c[2] = 9`).
    array_names: HashMap<ObjectId, Option<String>>,
}

impl Texts<'_> {
    fn value(&self, v: &Value, at: Timestamp) -> OmniResult<String> {
        Ok(render_value(self.reader, v, at, TEXT_LIMITS)?)
    }

    fn values(&self, vs: &[Value], at: Timestamp) -> OmniResult<String> {
        let parts: Vec<String> = vs
            .iter()
            .map(|v| self.value(v, at))
            .collect::<Result<_, _>>()?;
        Ok(parts.join(", "))
    }

    fn var_name(&mut self, var: u32) -> OmniResult<String> {
        let Some(m) = self.names.node_method(self.node)? else {
            return Ok(format!("var{var}"));
        };
        Ok(self
            .names
            .method(m)?
            .and_then(|m| m.def.vars.get(var as usize))
            .map_or_else(|| format!("var{var}"), |v| v.name.clone()))
    }

    /// A local of the listed node that refers to `array` at `at`, for `c[2] = 9`.
    fn array_name(&mut self, array: ObjectId, at: Timestamp) -> OmniResult<String> {
        if let Some(n) = self.array_names.get(&array) {
            return Ok(n.clone().unwrap_or_else(|| format!("#{array}")));
        }
        let mut found = None;
        if let Some(m) = self.names.node_method(self.node)? {
            let vars = self
                .names
                .method(m)?
                .map(|m| m.def.vars.clone())
                .unwrap_or_default();
            for (i, v) in vars
                .iter()
                .enumerate()
                .filter(|(_, v)| v.descriptor.starts_with('['))
            {
                if self.reader.local_at(self.node, i as u32, at)? == Some(Value::Object(array)) {
                    found = Some(v.name.clone());
                    break;
                }
            }
            // Else a static array field (`Threads.slots[1] = 1`).
            if found.is_none() {
                for f in self
                    .reader
                    .static_fields()?
                    .iter()
                    .filter(|f| f.descriptor.starts_with('['))
                    .take(MAX_STATICS)
                {
                    if self.reader.static_at(f.id, at)? == Some(Value::Object(array)) {
                        found = Some(self.names.static_field(f.id)?);
                        break;
                    }
                }
            }
        }
        self.array_names.insert(array, found.clone());
        Ok(found.unwrap_or_else(|| format!("#{array}")))
    }

    fn object_name(&mut self, object: ObjectId, at: Timestamp) -> OmniResult<String> {
        if let Some(m) = self.names.node_method(self.node)? {
            let is_instance = self.names.method(m)?.is_some_and(|m| !m.def.is_static());
            if is_instance && self.reader.local_at(self.node, 0, at)? == Some(Value::Object(object))
            {
                return Ok("this".into());
            }
        }
        let class = match self.reader.object(object)? {
            Some(o) => super::simple_class_name(&self.names.class(o.class)?),
            None => String::new(),
        };
        Ok(format!("{class}#{object}"))
    }

    fn describe(&mut self, e: &NodeEvent) -> OmniResult<(&'static str, String)> {
        let ts = e.event.ts;
        match &e.event.kind {
            EventKind::Call { .. }
            | EventKind::ExtCall { .. }
            | EventKind::Return(_)
            | EventKind::ExtReturn(_)
            | EventKind::Unwind(_)
            | EventKind::ExtUnwind(_)
            | EventKind::Throw(_)
            | EventKind::Catch(_)
            | EventKind::Line(_)
            | EventKind::Block { .. } => self.describe_control(e),
            EventKind::FieldRead { .. }
            | EventKind::ArrayRead { .. }
            | EventKind::StaticRead { .. } => self.describe_read(&e.event.kind, ts),
            EventKind::NewObject { .. }
            | EventKind::NewArray { .. }
            | EventKind::This(_)
            | EventKind::String { .. } => self.describe_object(&e.event.kind, ts),
            EventKind::Local { .. }
            | EventKind::FieldWrite { .. }
            | EventKind::FieldWriteUninit { .. }
            | EventKind::StaticWrite { .. }
            | EventKind::ArrayWrite { .. }
            | EventKind::Content { .. } => self.describe_write(&e.event.kind, ts),
        }
    }

    /// Calls, exits, exceptions, lines and blocks.
    fn describe_control(&mut self, e: &NodeEvent) -> OmniResult<(&'static str, String)> {
        let ts = e.event.ts;
        Ok(match &e.event.kind {
            EventKind::Call { method, args } | EventKind::ExtCall { method, args } => (
                "call",
                format!(
                    "call {}({})",
                    self.names.short(*method)?,
                    self.values(args, ts)?
                ),
            ),
            EventKind::Return(v) | EventKind::ExtReturn(v) => {
                let who = self.exit_of(e)?;
                match v {
                    Value::Void => ("return", format!("return{who}")),
                    v => ("return", format!("return{who} {}", self.value(v, ts)?)),
                }
            }
            EventKind::Unwind(v) | EventKind::ExtUnwind(v) => {
                let who = self.exit_of(e)?;
                (
                    "unwind",
                    format!("unwind{who} by {}", exception_name(self.reader, v)?),
                )
            }
            EventKind::Throw(v) => (
                "throw",
                format!("throw {}", exception_name(self.reader, v)?),
            ),
            EventKind::Catch(v) => (
                "catch",
                format!("catch {}", exception_name(self.reader, v)?),
            ),
            EventKind::Line(l) => ("line", format!("line {l}")),
            EventKind::Block { block, line } => ("block", format!("block {block} (line {line})")),
            other => unreachable!("describe sends only control events here, not {other:?}"),
        })
    }

    /// Writes of variables, and the content of a JDK object.
    fn describe_write(&mut self, kind: &EventKind, ts: u64) -> OmniResult<(&'static str, String)> {
        Ok(match kind {
            EventKind::Local { var, value } => (
                "local",
                format!("{} = {}", self.var_name(*var)?, self.value(value, ts)?),
            ),
            EventKind::FieldWrite {
                object,
                field,
                value,
            } => {
                let owner = self.object_name(*object, ts)?;
                (
                    "field-write",
                    format!(
                        "{owner}.{} = {}",
                        self.names.field(*field)?,
                        self.value(value, ts)?
                    ),
                )
            }
            EventKind::FieldWriteUninit { field, value } => (
                "field-write",
                format!(
                    "this.{} = {} (before the super constructor)",
                    self.names.field(*field)?,
                    self.value(value, ts)?
                ),
            ),
            EventKind::StaticWrite { field, value } => (
                "static-write",
                format!(
                    "{} = {}",
                    self.names.static_field(*field)?,
                    self.value(value, ts)?
                ),
            ),
            EventKind::ArrayWrite {
                array,
                index,
                value,
            } => (
                "array-write",
                format!(
                    "{}[{index}] = {}",
                    self.array_name(*array, ts)?,
                    self.value(value, ts)?
                ),
            ),
            EventKind::Content {
                object,
                start,
                values,
                ..
            } => {
                let owner = self.object_name(*object, ts)?;
                let text = match start {
                    0 => format!("{owner} now holds {} values", values.len()),
                    _ => format!(
                        "{owner} now holds {} values ({} from index {start} on)",
                        *start as usize + values.len(),
                        values.len()
                    ),
                };
                ("content", text)
            }
            other => unreachable!("describe sends only writes here, not {other:?}"),
        })
    }

    /// Reads of fields, elements and static fields.
    fn describe_read(&mut self, kind: &EventKind, ts: u64) -> OmniResult<(&'static str, String)> {
        Ok(match kind {
            EventKind::FieldRead { object, field } => (
                "field-read",
                format!(
                    "read {}.{}",
                    self.object_name(*object, ts)?,
                    self.names.field(*field)?
                ),
            ),
            EventKind::ArrayRead { array, index } => (
                "array-read",
                format!("read {}[{index}]", self.object_name(*array, ts)?),
            ),
            EventKind::StaticRead { field } => (
                "static-read",
                format!("read {}", self.names.static_field(*field)?),
            ),
            other => unreachable!("describe sends only reads here, not {other:?}"),
        })
    }

    /// New objects and arrays, `this`, strings.
    fn describe_object(&mut self, kind: &EventKind, ts: u64) -> OmniResult<(&'static str, String)> {
        Ok(match kind {
            EventKind::NewObject { object, class, .. } => (
                "new-object",
                format!(
                    "new {} #{object}",
                    super::simple_class_name(&self.names.class(*class)?)
                ),
            ),
            EventKind::NewArray {
                array,
                class,
                length,
                ..
            } => {
                let class = super::simple_class_name(&self.names.class(*class)?);
                let element = class.strip_suffix("[]").unwrap_or(&class);
                ("new-array", format!("new {element}[{length}] #{array}"))
            }
            EventKind::This(object) => {
                ("this", format!("this = {}", self.object_name(*object, ts)?))
            }
            EventKind::String { text, .. } => ("string", format!("{text:?}")),
            other => unreachable!("describe sends only objects here, not {other:?}"),
        })
    }

    /// ` from Class.method` for a child's exit shown in its parent's list.
    fn exit_of(&mut self, e: &NodeEvent) -> OmniResult<String> {
        if e.own {
            return Ok(String::new());
        }
        match self.names.node_method(e.node)? {
            Some(m) => Ok(format!(" from {}", self.names.short(m)?)),
            None => Ok(String::new()),
        }
    }
}
