//! The columns of SQL's `events` relation for one event: names, source lines, values and
//! texts, computed only when a statement asks for them, with the trace's names looked up once.

use std::collections::HashMap;

use crate::ids::{FieldId, MethodId, ThreadId};
use crate::omniscient::render_value;
use crate::omniscient::{describe_event, Variable};
use crate::query::refs::{Shown, LIMITS};
use crate::query::scan::{Frame, Scanned};
use crate::trace::store::{BlockEvent, NodeEvent, TraceReader};
use crate::trace::wire::{EventKind, Value};

/// The event a cursor is on.
pub struct Row {
    pub thread: ThreadId,
    pub event: BlockEvent,
    /// The call executing the event (for a call or an exit: the call it opens or closes).
    pub top: Frame,
    /// The call below it.
    pub below: Option<Frame>,
}

impl Row {
    pub fn of(s: &Scanned<'_>) -> Row {
        let n = s.stack.len();
        Row {
            thread: s.thread,
            event: s.event.clone(),
            top: s.stack.last().copied().unwrap_or(Frame {
                node: s.event.node,
                method: None,
                line: 0,
            }),
            below: n.checked_sub(2).map(|i| s.stack[i]),
        }
    }

    /// Whether the event opens or closes a call (its source line is the caller's).
    pub fn is_call_or_exit(&self) -> bool {
        self.event.event.kind.is_call() || self.event.event.kind.is_exit()
    }

    /// The call whose source line the event is on.
    pub fn at_frame(&self) -> Option<Frame> {
        if self.is_call_or_exit() {
            self.below
        } else {
            Some(self.top)
        }
    }

    pub fn line(&self) -> u32 {
        if self.is_call_or_exit() {
            self.event.parent_line
        } else {
            self.event.line
        }
    }
}

/// The kind of an event, as `hindsight events` names it.
pub fn kind_name(kind: &EventKind) -> &'static str {
    match kind {
        EventKind::Call { .. } | EventKind::ExtCall { .. } => "call",
        EventKind::Return(_) | EventKind::ExtReturn(_) => "return",
        EventKind::Unwind(_) | EventKind::ExtUnwind(_) => "unwind",
        EventKind::Line(_) => "line",
        EventKind::Local { .. } => "local",
        EventKind::FieldWrite { .. } | EventKind::FieldWriteUninit { .. } => "field-write",
        EventKind::StaticWrite { .. } => "static-write",
        EventKind::ArrayWrite { .. } => "array-write",
        EventKind::NewObject { .. } => "new-object",
        EventKind::NewArray { .. } => "new-array",
        EventKind::This(_) => "this",
        EventKind::Throw(_) => "throw",
        EventKind::Catch(_) => "catch",
        EventKind::String { .. } => "string",
        EventKind::Content { .. } => "content",
        // A block that starts a line is where that line runs (wire format 2 sends no LINE).
        EventKind::Block { line: 1.., .. } => "line",
        EventKind::Block { .. } => "block",
        EventKind::FieldRead { .. } => "field-read",
        EventKind::ArrayRead { .. } => "array-read",
        EventKind::StaticRead { .. } => "static-read",
    }
}

/// The family of an event (what the views `writes`, `reads`, `lines` select).
pub fn family(kind: &EventKind) -> &'static str {
    match kind {
        EventKind::Call { .. } | EventKind::ExtCall { .. } => "call",
        EventKind::Return(_)
        | EventKind::ExtReturn(_)
        | EventKind::Unwind(_)
        | EventKind::ExtUnwind(_) => "exit",
        EventKind::Line(_) | EventKind::Block { line: 1.., .. } => "line",
        EventKind::Local { .. }
        | EventKind::FieldWrite { .. }
        | EventKind::FieldWriteUninit { .. }
        | EventKind::StaticWrite { .. }
        | EventKind::ArrayWrite { .. }
        | EventKind::Content { .. } => "write",
        EventKind::FieldRead { .. }
        | EventKind::ArrayRead { .. }
        | EventKind::StaticRead { .. } => "read",
        EventKind::NewObject { .. } | EventKind::NewArray { .. } | EventKind::This(_) => "new",
        EventKind::Throw(_) | EventKind::Catch(_) => "exception",
        EventKind::Block { .. } | EventKind::String { .. } => "other",
    }
}

struct MethodInfo {
    qualified: String,
    file: Option<String>,
    vars: Vec<String>,
}

/// Names of one trace, looked up once each (owned: the cursor owns its reader).
#[derive(Default)]
pub struct RowNames {
    methods: HashMap<MethodId, Option<MethodInfo>>,
    threads: Option<HashMap<ThreadId, String>>,
    fields: HashMap<FieldId, (String, String)>,
}

type R<T> = Result<T, crate::query::QueryError>;

impl RowNames {
    fn method(&mut self, reader: &TraceReader, id: MethodId) -> R<Option<&MethodInfo>> {
        if let std::collections::hash_map::Entry::Vacant(slot) = self.methods.entry(id) {
            let info = match reader.method(id)? {
                Some(m) => {
                    let class = reader.class(m.class)?;
                    let (cname, file) = match class {
                        Some(c) => (c.name, Some(c.source_file).filter(|f| !f.is_empty())),
                        None => (format!("#{}", m.class), None),
                    };
                    Some(MethodInfo {
                        qualified: format!("{cname}.{}", m.name),
                        file,
                        vars: m.vars.iter().map(|v| v.name.clone()).collect(),
                    })
                }
                None => None,
            };
            slot.insert(info);
        }
        Ok(self.methods[&id].as_ref())
    }

    pub fn method_name(&mut self, reader: &TraceReader, id: Option<MethodId>) -> R<Option<String>> {
        Ok(match id {
            Some(id) => self.method(reader, id)?.map(|m| m.qualified.clone()),
            None => None,
        })
    }

    pub fn file(&mut self, reader: &TraceReader, id: Option<MethodId>) -> R<Option<String>> {
        Ok(match id {
            Some(id) => self.method(reader, id)?.and_then(|m| m.file.clone()),
            None => None,
        })
    }

    pub fn var(&mut self, reader: &TraceReader, id: Option<MethodId>, var: u32) -> R<String> {
        let name = match id {
            Some(id) => self
                .method(reader, id)?
                .and_then(|m| m.vars.get(var as usize).cloned()),
            None => None,
        };
        Ok(name.unwrap_or_else(|| format!("var{var}")))
    }

    pub fn thread(&mut self, reader: &TraceReader, id: ThreadId) -> R<String> {
        if self.threads.is_none() {
            self.threads = Some(
                reader
                    .threads()?
                    .into_iter()
                    .map(|(t, _)| (t.id, t.name))
                    .collect(),
            );
        }
        Ok(self
            .threads
            .as_ref()
            .and_then(|t| t.get(&id).cloned())
            .unwrap_or_else(|| format!("#{id}")))
    }

    /// A field's name and its owner class's.
    pub fn field(&mut self, reader: &TraceReader, id: FieldId) -> R<(String, String)> {
        if let std::collections::hash_map::Entry::Vacant(slot) = self.fields.entry(id) {
            let f = match reader.field(id)? {
                Some(f) => {
                    let class = reader
                        .class(f.class)?
                        .map_or_else(|| format!("#{}", f.class), |c| c.name);
                    (f.name, class)
                }
                None => (format!("#{id}"), String::new()),
            };
            slot.insert(f);
        }
        Ok(self.fields[&id].clone())
    }
}

/// The variable an event writes or reads.
pub fn variable(row: &Row) -> Option<Variable> {
    Some(match row.event.event.kind {
        EventKind::Local { var, .. } => Variable::Local {
            node: row.top.node,
            var,
        },
        EventKind::FieldWrite { object, field, .. } | EventKind::FieldRead { object, field } => {
            Variable::Field { object, field }
        }
        EventKind::StaticWrite { field, .. } | EventKind::StaticRead { field } => {
            Variable::Static { field }
        }
        EventKind::ArrayWrite { array, index, .. } | EventKind::ArrayRead { array, index } => {
            Variable::Element { array, index }
        }
        _ => return None,
    })
}

/// The object an event is about: written or read object or array, the new object, `this`, the
/// exception thrown or caught, the object a content event describes.
pub fn object(row: &Row) -> Option<u64> {
    Some(match &row.event.event.kind {
        EventKind::FieldWrite { object, .. }
        | EventKind::FieldRead { object, .. }
        | EventKind::NewObject { object, .. }
        | EventKind::This(object)
        | EventKind::Content { object, .. } => object.0,
        EventKind::ArrayWrite { array, .. }
        | EventKind::ArrayRead { array, .. }
        | EventKind::NewArray { array, .. } => array.0,
        EventKind::Throw(Value::Object(o))
        | EventKind::Catch(Value::Object(o))
        | EventKind::Unwind(Value::Object(o))
        | EventKind::ExtUnwind(Value::Object(o)) => o.0,
        _ => return None,
    })
}

/// The value an event carries: written, returned, thrown or caught; for a read, the value
/// read (from the change index).
pub fn value(reader: &TraceReader, row: &Row) -> R<Option<Value>> {
    Ok(match &row.event.event.kind {
        EventKind::Local { value, .. }
        | EventKind::FieldWrite { value, .. }
        | EventKind::FieldWriteUninit { value, .. }
        | EventKind::StaticWrite { value, .. }
        | EventKind::ArrayWrite { value, .. } => Some(*value),
        EventKind::Return(v)
        | EventKind::ExtReturn(v)
        | EventKind::Unwind(v)
        | EventKind::ExtUnwind(v)
        | EventKind::Throw(v)
        | EventKind::Catch(v) => Some(*v),
        EventKind::FieldRead { .. }
        | EventKind::ArrayRead { .. }
        | EventKind::StaticRead { .. } => match variable(row) {
            Some(v) => reader.last_write(v, row.event.event.ts)?.map(|w| w.value),
            None => None,
        },
        _ => None,
    })
}

pub fn shown(reader: &TraceReader, v: &Value, at: u64) -> R<String> {
    Ok(Shown::of(reader, v, at)?.value)
}

/// `name=value, ...` of a call event's arguments (the receiver as `this`).
pub fn args(reader: &TraceReader, names: &mut RowNames, row: &Row) -> R<Option<String>> {
    let (EventKind::Call { method, args } | EventKind::ExtCall { method, args }) =
        &row.event.event.kind
    else {
        return Ok(None);
    };
    let def = reader.method(*method)?;
    let receiver = def
        .as_ref()
        .is_some_and(crate::query::methods::has_receiver);
    let routine = matches!(row.event.event.kind, EventKind::Call { .. });
    let at = row.event.event.ts;
    let mut parts = Vec::new();
    for (i, v) in args.iter().enumerate() {
        let name = if receiver && i == 0 {
            "this".to_string()
        } else {
            let k = i - usize::from(receiver);
            match def.as_ref().filter(|_| routine) {
                Some(m) => names.var(reader, Some(*method), m.arg_var(i))?,
                None => format!("arg{k}"),
            }
        };
        parts.push(format!(
            "{name}={}",
            render_value(reader, v, at, LIMITS).map_err(crate::omniscient::OmniError::from)?
        ));
    }
    Ok(Some(parts.join(", ")))
}

/// The text `hindsight events` shows for the event.
pub fn text(reader: &TraceReader, row: &Row) -> R<String> {
    let own = !row.is_call_or_exit();
    let listed = if own {
        row.top.node
    } else {
        row.below.map_or(row.top.node, |f| f.node)
    };
    let mut event = row.event.event.clone();
    // A block that starts a line stands for its `LINE` event, as in `hindsight events`.
    if let EventKind::Block { line: l @ 1.., .. } = event.kind {
        event.kind = EventKind::Line(l);
    }
    let e = NodeEvent {
        event,
        node: row.event.node,
        line: row.line(),
        own,
    };
    Ok(describe_event(reader, listed, &e)?.1)
}

/// The path of the variable an event writes or reads (`7:x`, `obj:3.f`, `obj:4[2]`,
/// `static:pkg.C.f`), for `history` and `origin`.
pub fn path(reader: &TraceReader, names: &mut RowNames, row: &Row) -> R<Option<String>> {
    Ok(match variable(row) {
        Some(Variable::Local { node, var }) => Some(format!(
            "{node}:{}",
            names.var(reader, row.top.method, var)?
        )),
        Some(Variable::Field { object, field }) => {
            Some(format!("obj:{object}.{}", names.field(reader, field)?.0))
        }
        Some(Variable::Element { array, index }) => Some(format!("obj:{array}[{index}]")),
        Some(Variable::Static { field }) => {
            let (f, class) = names.field(reader, field)?;
            Some(format!("static:{class}.{f}"))
        }
        None => None,
    })
}
