//! A buggy call's entry state written as a replay request (docs/replay-protocol.md, "Request").

use std::collections::HashMap;
use std::fmt::Write;

use super::token;
use crate::ids::{ObjectId, Timestamp};
use crate::omniscient::{compares_by_class, Heap, HeapResult};
use crate::oracle::recorded::CallView;
use crate::trace::wire::{ContentKind, Value};

/// Why a call's entry state cannot be sent: part of it is not in the trace.
pub type Refusal = String;

/// The request that replays `call` from its entry state in `heap`, or why there is none.
pub fn encode_request(
    heap: &impl Heap,
    call: &CallView,
    max_objects: usize,
) -> HeapResult<Result<String, Refusal>> {
    let at = call.entry.saturating_sub(1);
    let mut e = Encoder {
        heap,
        at,
        numbers: HashMap::new(),
        pending: Vec::new(),
        records: String::new(),
        max_objects,
    };
    let m = &call.method;
    let mut tail = String::new();
    if let Some(this) = &call.this {
        tail.push_str("THIS ");
        if let Err(why) = e.token(&mut tail, this)? {
            return Ok(Err(why));
        }
        tail.push('\n');
    }
    let _ = write!(tail, "ARGS {}", call.args.len());
    for a in &call.args {
        tail.push(' ');
        if let Err(why) = e.token(&mut tail, a)? {
            return Ok(Err(why));
        }
    }
    tail.push('\n');
    while let Some((id, n)) = e.pending.pop() {
        if let Err(why) = e.object(id, n)? {
            return Ok(Err(why));
        }
    }
    Ok(Ok(format!(
        "CALL {} {} {}\n{}{tail}END\n",
        m.class, m.name, m.descriptor, e.records
    )))
}

struct Encoder<'h, H> {
    heap: &'h H,
    at: Timestamp,
    numbers: HashMap<ObjectId, u64>,
    /// Objects numbered but not yet written.
    pending: Vec<(ObjectId, u64)>,
    records: String,
    max_objects: usize,
}

impl<H: Heap> Encoder<'_, H> {
    /// Writes `v` to `out`, numbering the object it refers to.
    fn token(&mut self, out: &mut String, v: &Value) -> HeapResult<Result<(), Refusal>> {
        match *v {
            Value::Object(id) => {
                let n = match self.numbers.get(&id) {
                    Some(&n) => n,
                    None => {
                        if self.numbers.len() >= self.max_objects {
                            return Ok(Err(format!(
                                "the state has more than {} objects",
                                self.max_objects
                            )));
                        }
                        let n = self.numbers.len() as u64;
                        self.numbers.insert(id, n);
                        self.pending.push((id, n));
                        n
                    }
                };
                let _ = write!(out, "@{n}");
            }
            Value::Str(id) => match self.heap.string(id)? {
                Some(text) => token::write_str(out, &text),
                None => return Ok(Err(format!("the text of string {id} is not in the trace"))),
            },
            other => {
                token::write_plain(out, &other).expect("plain values have tokens");
            }
        }
        Ok(Ok(()))
    }

    fn tokens(
        &mut self,
        out: &mut String,
        values: &[Option<Value>],
        class: &str,
    ) -> HeapResult<Result<(), Refusal>> {
        for v in values {
            let Some(v) = v else {
                return Ok(Err(format!("an element of a {class} is not in the trace")));
            };
            out.push(' ');
            if let Err(why) = self.token(out, v)? {
                return Ok(Err(why));
            }
        }
        Ok(Ok(()))
    }

    /// Writes the record(s) of object `id`, numbered `n`.
    fn object(&mut self, id: ObjectId, n: u64) -> HeapResult<Result<(), Refusal>> {
        let Some(info) = self.heap.object(id)? else {
            return Ok(Err(format!("object {id} is not in the trace")));
        };
        let class = &info.class_name;
        let mut line = String::new();
        if let Some(kind) = info.content {
            let Some(len) = self.heap.content_length_at(id, self.at)? else {
                return Ok(Err(format!("the content of a {class} is not in the trace")));
            };
            let slots = self.heap.elements_at(id, self.at, 0..len)?;
            let tag = match kind {
                ContentKind::Sequence => "SEQ",
                ContentKind::Map => "MAP",
                ContentKind::Text => "TEXT",
            };
            let _ = write!(line, "{tag} {n} {class}");
            if kind != ContentKind::Text {
                let _ = write!(line, " {len}");
            }
            if let Err(why) = self.tokens(&mut line, &slots, class)? {
                return Ok(Err(why));
            }
        } else if let Some(len) = info.array_length {
            let elements = self.heap.elements_at(id, self.at, 0..len)?;
            let _ = write!(line, "ARR {n} {class} {len}");
            if let Err(why) = self.tokens(&mut line, &elements, class)? {
                return Ok(Err(why));
            }
        } else if info.content_known || compares_by_class(class) {
            let _ = write!(line, "OBJ {n} {class}");
            for (name, v) in self.heap.fields_at(id, self.at)? {
                let _ = write!(line, "\nFIELD {n} {name} ");
                if let Err(why) = self.token(&mut line, &v)? {
                    return Ok(Err(why));
                }
            }
        } else {
            return Ok(Err(format!("the content of a {class} is not in the trace")));
        }
        self.records.push_str(&line);
        self.records.push('\n');
        Ok(Ok(()))
    }
}
