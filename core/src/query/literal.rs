//! Values as people type them in queries (`values VALUE`, `calls --where 'arg0 == null'`):
//! `null`, `true`, `42`, `-1.5`, `'x'`, `"text"`, `#42` / `Class#42` (an object), and the
//! `--where` conditions over a call's arguments, receiver and result.

use std::collections::HashMap;

use super::error::{QueryError, QueryResult};
use crate::ids::{ObjectId, StringId};
use crate::trace::store::TraceReader;
use crate::trace::wire::{Primitive, Value};

/// A value to look for.
#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    Null,
    Bool(bool),
    /// Any integral value (int, long, short, byte, char, their boxes).
    Int(i64),
    Float(f64),
    Text(String),
    Object(ObjectId),
}

fn syntax(text: &str, problem: &str) -> QueryError {
    QueryError::Syntax {
        what: "value",
        text: text.into(),
        problem: problem.into(),
    }
}

impl Literal {
    pub fn parse(text: &str) -> QueryResult<Literal> {
        let t = text.trim();
        if t.is_empty() {
            return Err(syntax(text, "it is empty"));
        }
        Ok(match t {
            "null" => Literal::Null,
            "true" => Literal::Bool(true),
            "false" => Literal::Bool(false),
            _ if t.len() >= 2
                && ((t.starts_with('"') && t.ends_with('"'))
                    || (t.starts_with('\'') && t.ends_with('\''))) =>
            {
                let inner = &t[1..t.len() - 1];
                if t.starts_with('\'') && inner.chars().count() == 1 {
                    Literal::Int(i64::from(inner.chars().next().map_or(0, |c| c as u32)))
                } else {
                    Literal::Text(inner.replace("\\\"", "\"").replace("\\\\", "\\"))
                }
            }
            _ if t.contains('#') => {
                let id = t.rsplit_once('#').map_or("", |(_, id)| id);
                Literal::Object(ObjectId(
                    id.parse()
                        .map_err(|_| syntax(text, "an object is written #ID or Class#ID"))?,
                ))
            }
            _ => {
                if let Ok(i) = t.parse::<i64>() {
                    Literal::Int(i)
                } else if let Ok(f) = t.parse::<f64>() {
                    Literal::Float(f)
                } else {
                    return Err(syntax(
                        text,
                        "write null, true, false, a number, 'c', \"text\" or an object as #ID",
                    ));
                }
            }
        })
    }
}

/// Compares recorded values with literals, looking string texts up once (the agent may give
/// one text several string ids).
#[derive(Default)]
pub struct Matcher {
    texts: HashMap<StringId, Option<String>>,
}

fn number(v: &Value) -> Option<f64> {
    let p = match *v {
        Value::Boxed(p) => p,
        Value::Int(i) => Primitive::Int(i),
        Value::Long(l) => Primitive::Long(l),
        Value::Short(s) => Primitive::Short(s),
        Value::Byte(b) => Primitive::Byte(b),
        Value::Char(c) => Primitive::Char(c),
        Value::Float(f) => Primitive::Float(f),
        Value::Double(d) => Primitive::Double(d),
        _ => return None,
    };
    Some(match p {
        Primitive::Int(i) => f64::from(i),
        Primitive::Long(l) => l as f64,
        Primitive::Short(s) => f64::from(s),
        Primitive::Byte(b) => f64::from(b),
        Primitive::Char(c) => f64::from(c),
        Primitive::Float(f) => f64::from(f),
        Primitive::Double(d) => d,
        Primitive::Boolean(_) => return None,
    })
}

fn integral(v: &Value) -> Option<i64> {
    Some(match *v {
        Value::Int(i) | Value::Boxed(Primitive::Int(i)) => i64::from(i),
        Value::Long(l) | Value::Boxed(Primitive::Long(l)) => l,
        Value::Short(s) | Value::Boxed(Primitive::Short(s)) => i64::from(s),
        Value::Byte(b) | Value::Boxed(Primitive::Byte(b)) => i64::from(b),
        Value::Char(c) | Value::Boxed(Primitive::Char(c)) => i64::from(c),
        _ => return None,
    })
}

impl Matcher {
    fn text(&mut self, reader: &TraceReader, id: StringId) -> QueryResult<Option<&str>> {
        if !self.texts.contains_key(&id) {
            if self.texts.len() > 1 << 16 {
                self.texts.clear();
            }
            self.texts.insert(id, reader.string(id)?);
        }
        Ok(self.texts[&id].as_deref())
    }

    /// Whether `v` equals `lit`.
    pub fn equals(&mut self, reader: &TraceReader, v: &Value, lit: &Literal) -> QueryResult<bool> {
        Ok(match lit {
            Literal::Null => *v == Value::Null,
            Literal::Bool(b) => {
                matches!(*v, Value::Boolean(x) | Value::Boxed(Primitive::Boolean(x)) if x == *b)
            }
            Literal::Int(i) => match integral(v) {
                Some(x) => x == *i,
                None => number(v) == Some(*i as f64),
            },
            Literal::Float(f) => number(v) == Some(*f),
            Literal::Text(t) => match v {
                Value::Str(id) => self.text(reader, *id)? == Some(t.as_str()),
                _ => false,
            },
            Literal::Object(o) => *v == Value::Object(*o),
        })
    }

    /// `v OP lit`; orderings compare numbers (and texts), anything else is false.
    pub fn compare(
        &mut self,
        reader: &TraceReader,
        v: &Value,
        op: Op,
        lit: &Literal,
    ) -> QueryResult<bool> {
        if op == Op::Eq {
            return self.equals(reader, v, lit);
        }
        if op == Op::Ne {
            return Ok(!self.equals(reader, v, lit)?);
        }
        let ord = match lit {
            Literal::Int(i) => number(v).and_then(|x| x.partial_cmp(&(*i as f64))),
            Literal::Float(f) => number(v).and_then(|x| x.partial_cmp(f)),
            Literal::Text(t) => match v {
                Value::Str(id) => self.text(reader, *id)?.map(|x| x.cmp(t.as_str())),
                _ => None,
            },
            _ => None,
        };
        Ok(match ord {
            Some(o) => match op {
                Op::Lt => o.is_lt(),
                Op::Le => o.is_le(),
                Op::Gt => o.is_gt(),
                Op::Ge => o.is_ge(),
                Op::Eq | Op::Ne => unreachable!("handled above"),
            },
            None => false,
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// What a condition looks at.
#[derive(Clone, Debug, PartialEq)]
pub enum Operand {
    /// The N-th argument (the receiver not counted).
    Arg(usize),
    /// An argument by its parameter name.
    Named(String),
    This,
    Result,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Condition {
    pub operand: Operand,
    pub op: Op,
    pub value: Literal,
}

/// `arg0 == null && result != 0`: conditions joined by `&&` (or `and`).
pub fn parse_where(text: &str) -> QueryResult<Vec<Condition>> {
    let bad = |problem: String| QueryError::Syntax {
        what: "condition",
        text: text.into(),
        problem,
    };
    let mut out = Vec::new();
    let normalized = text.replace(" and ", " && ");
    for part in normalized.split("&&") {
        let part = part.trim();
        let ops = [
            ("==", Op::Eq),
            ("!=", Op::Ne),
            ("<=", Op::Le),
            (">=", Op::Ge),
            ("<", Op::Lt),
            (">", Op::Gt),
            ("=", Op::Eq),
        ];
        let Some((at, sym, op)) = ops
            .iter()
            .filter_map(|(s, op)| part.find(s).map(|i| (i, *s, *op)))
            .min_by_key(|(i, s, _)| (*i, usize::MAX - s.len()))
        else {
            return Err(bad(format!(
                "`{part}` has no comparison (==, !=, <, <=, >, >=)"
            )));
        };
        let (lhs, rhs) = (part[..at].trim(), part[at + sym.len()..].trim());
        let operand = match lhs {
            "this" => Operand::This,
            "result" => Operand::Result,
            _ => match lhs.strip_prefix("arg").and_then(|n| n.parse().ok()) {
                Some(n) => Operand::Arg(n),
                None if !lhs.is_empty()
                    && lhs
                        .chars()
                        .all(|c| c.is_alphanumeric() || c == '_' || c == '$') =>
                {
                    Operand::Named(lhs.into())
                }
                None => {
                    return Err(bad(format!(
                        "`{lhs}` is not argN, a parameter name, this or result"
                    )))
                }
            },
        };
        out.push(Condition {
            operand,
            op,
            value: Literal::parse(rhs)?,
        });
    }
    Ok(out)
}
