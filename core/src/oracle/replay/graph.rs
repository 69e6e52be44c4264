//! The object graph of a replayer's answer (docs/replay-protocol.md, "Objects") as a [`Heap`],
//! so that its states take the same canonical form as recorded ones.

use std::collections::HashMap;
use std::ops::Range;

use super::token::{self, Token};
use crate::ids::{ObjectId, StringId, Timestamp};
use crate::omniscient::{Heap, HeapResult, ObjectInfo};
use crate::trace::wire::{ContentKind, Value};

#[derive(Clone, Debug, PartialEq)]
enum Body {
    Fields(Vec<(String, Value)>),
    Array(Vec<Value>),
    Content(ContentKind, Vec<Value>),
    Opaque,
}

#[derive(Clone, Debug, PartialEq)]
struct Object {
    class: String,
    body: Body,
}

/// The objects and strings of one message; timestamps mean nothing in it (one moment).
#[derive(Debug, Default)]
pub struct GraphHeap {
    objects: HashMap<u64, Object>,
    strings: Vec<String>,
}

impl GraphHeap {
    /// Reads a value token, keeping its string if it is one.
    pub fn value(&mut self, text: &str) -> Result<Value, String> {
        Ok(match token::parse(text)? {
            Token::Value(v) => v,
            Token::Object(n) => Value::Object(ObjectId(n)),
            Token::Str(s) => {
                self.strings.push(s);
                Value::Str(StringId(self.strings.len() as u64 - 1))
            }
        })
    }

    fn values(&mut self, tokens: &[&str]) -> Result<Vec<Value>, String> {
        tokens.iter().map(|t| self.value(t)).collect()
    }

    /// Reads an object record (`OBJ`, `FIELD`, `ARR`, `SEQ`, `MAP`, `TEXT`, `OPAQUE`);
    /// `Ok(false)` when the line is another kind of record.
    pub fn record(&mut self, fields: &[&str]) -> Result<bool, String> {
        let number = |i: usize| -> Result<u64, String> {
            let t = fields.get(i).ok_or("too few fields")?;
            t.parse()
                .map_err(|_| format!("`{t}` is not an object number"))
        };
        let class = |i: usize| -> Result<String, String> {
            Ok(fields.get(i).ok_or("no class name")?.to_string())
        };
        let counted = |from: usize| -> Result<&[&str], String> {
            let t = fields.get(from).ok_or("no length")?;
            let len: usize = t.parse().map_err(|_| format!("`{t}` is not a length"))?;
            let rest = &fields[from + 1..];
            if rest.len() != len {
                return Err(format!("length {len} but {} values", rest.len()));
            }
            Ok(rest)
        };
        let (n, object) = match fields.first().copied() {
            Some("OBJ") => (
                number(1)?,
                Object {
                    class: class(2)?,
                    body: Body::Fields(Vec::new()),
                },
            ),
            Some("OPAQUE") => (
                number(1)?,
                Object {
                    class: class(2)?,
                    body: Body::Opaque,
                },
            ),
            Some("ARR") => {
                let values = self.values(counted(3)?)?;
                (
                    number(1)?,
                    Object {
                        class: class(2)?,
                        body: Body::Array(values),
                    },
                )
            }
            Some(kind @ ("SEQ" | "MAP")) => {
                let values = self.values(counted(3)?)?;
                let content = if kind == "SEQ" {
                    ContentKind::Sequence
                } else {
                    ContentKind::Map
                };
                (
                    number(1)?,
                    Object {
                        class: class(2)?,
                        body: Body::Content(content, values),
                    },
                )
            }
            Some("TEXT") => {
                let text = self.value(fields.get(3).ok_or("no text")?)?;
                (
                    number(1)?,
                    Object {
                        class: class(2)?,
                        body: Body::Content(ContentKind::Text, vec![text]),
                    },
                )
            }
            Some("FIELD") => {
                let n = number(1)?;
                let name = fields.get(2).ok_or("no field name")?.to_string();
                let value = self.value(fields.get(3).ok_or("no field value")?)?;
                return match self.objects.get_mut(&n).map(|o| &mut o.body) {
                    Some(Body::Fields(f)) => {
                        f.push((name, value));
                        Ok(true)
                    }
                    _ => Err(format!(
                        "FIELD of object {n}, which no OBJ record before declares"
                    )),
                };
            }
            _ => return Ok(false),
        };
        if self.objects.insert(n, object).is_some() {
            return Err(format!("object {n} is declared twice"));
        }
        Ok(true)
    }

    /// An object number a value refers to that no record declares, if any.
    pub fn dangling(&self, values: &[Value]) -> Option<u64> {
        let declared = |v: &Value| match v {
            Value::Object(id) => self.objects.contains_key(&id.0),
            _ => true,
        };
        let inner = self.objects.values().flat_map(|o| match &o.body {
            Body::Fields(f) => f.iter().map(|(_, v)| v).collect::<Vec<_>>(),
            Body::Array(v) | Body::Content(_, v) => v.iter().collect(),
            Body::Opaque => Vec::new(),
        });
        values
            .iter()
            .chain(inner)
            .find(|v| !declared(v))
            .map(|v| match v {
                Value::Object(id) => id.0,
                _ => unreachable!("only objects can dangle"),
            })
    }
}

impl Heap for GraphHeap {
    fn object(&self, id: ObjectId) -> HeapResult<Option<ObjectInfo>> {
        Ok(self.objects.get(&id.0).map(|o| ObjectInfo {
            class_name: o.class.clone(),
            array_length: match &o.body {
                Body::Array(v) => Some(v.len() as u32),
                _ => None,
            },
            content_known: !matches!(o.body, Body::Opaque),
            content: match o.body {
                Body::Content(kind, _) => Some(kind),
                _ => None,
            },
            enum_constant: false,
        }))
    }

    fn fields_at(&self, id: ObjectId, _: Timestamp) -> HeapResult<Vec<(String, Value)>> {
        Ok(match self.objects.get(&id.0).map(|o| &o.body) {
            Some(Body::Fields(f)) => f.clone(),
            _ => Vec::new(),
        })
    }

    fn elements_at(
        &self,
        id: ObjectId,
        _: Timestamp,
        range: Range<u32>,
    ) -> HeapResult<Vec<Option<Value>>> {
        Ok(match self.objects.get(&id.0).map(|o| &o.body) {
            Some(Body::Array(v) | Body::Content(_, v)) => {
                let end = (range.end as usize).min(v.len());
                let start = (range.start as usize).min(end);
                v[start..end].iter().map(|v| Some(*v)).collect()
            }
            _ => Vec::new(),
        })
    }

    fn string(&self, id: StringId) -> HeapResult<Option<String>> {
        Ok(self.strings.get(id.0 as usize).cloned())
    }

    fn content_length_at(&self, id: ObjectId, _: Timestamp) -> HeapResult<Option<u32>> {
        Ok(match self.objects.get(&id.0).map(|o| &o.body) {
            Some(Body::Content(_, v)) => Some(v.len() as u32),
            _ => None,
        })
    }
}
