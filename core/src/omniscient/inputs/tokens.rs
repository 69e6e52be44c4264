//! The fallback for writes of methods without a block table (no read events to go by): the
//! inputs guessed from the source line, i.e. the writing call's locals named on the line and the
//! `a[i]` / `x.f` reads on its right-hand side, with their values when the statement began.

use super::Input;
use crate::ids::{NodeId, Timestamp};
use crate::omniscient::error::OmniResult;
use crate::omniscient::path::{Step, VarPath};
use crate::omniscient::render::{render_value, RenderLimits};
use crate::omniscient::resolve::{instance_field, local_var};
use crate::trace::store::TraceReader;
use crate::trace::wire::Value;

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Ident(String),
    Num(i64),
    Punct(String),
}

/// Java tokens of one source line, without comments and string or char literals.
fn tokens(line: &str) -> Vec<Tok> {
    let chars: Vec<char> = line.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == '/' && chars.get(i + 1) == Some(&'/') {
            break;
        } else if c == '"' || c == '\'' {
            i += 1;
            while i < chars.len() && chars[i] != c {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
        } else if c.is_alphabetic() || c == '_' || c == '$' {
            let start = i;
            while i < chars.len()
                && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '$')
            {
                i += 1;
            }
            out.push(Tok::Ident(chars[start..i].iter().collect()));
        } else if c.is_ascii_digit() {
            let start = i;
            while i < chars.len()
                && (chars[i].is_ascii_alphanumeric() || chars[i] == '.' || chars[i] == '_')
            {
                i += 1;
            }
            let text: String = chars[start..i].iter().collect();
            out.push(text.parse().map_or(Tok::Punct(text), Tok::Num));
        } else {
            let two: String = chars[i..(i + 2).min(chars.len())].iter().collect();
            if [
                "++", "--", "==", "!=", "<=", ">=", "+=", "-=", "*=", "/=", "&&", "||",
            ]
            .contains(&two.as_str())
            {
                out.push(Tok::Punct(two));
                i += 2;
            } else {
                out.push(Tok::Punct(c.to_string()));
                i += 1;
            }
        }
    }
    out
}

/// Java keywords and literals that look like identifiers.
const KEYWORDS: &[&str] = &[
    "if",
    "else",
    "while",
    "for",
    "do",
    "return",
    "new",
    "throw",
    "try",
    "catch",
    "finally",
    "switch",
    "case",
    "default",
    "break",
    "continue",
    "true",
    "false",
    "null",
    "instanceof",
    "int",
    "long",
    "short",
    "byte",
    "char",
    "boolean",
    "float",
    "double",
    "var",
    "final",
    "super",
    "assert",
    "yield",
];

/// An index expression simple enough to evaluate from locals.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Index {
    Const(i64),
    /// A local, plus what a prefix `++`/`--` adds before the read.
    Var(String, i64),
}

/// What a line reads, as names and patterns, in order of appearance.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Read {
    Local(String),
    Element(String, Index),
    Field(String, String),
}

/// The reads on a line: every identifier (a candidate local), and `a[i]` and `x.f` on the
/// right-hand side of an assignment (on its left they are the written variable).
fn reads(line: &str) -> Vec<Read> {
    let toks = tokens(line);
    let assign = toks.iter().position(
        |t| matches!(t, Tok::Punct(p) if ["=", "+=", "-=", "*=", "/="].contains(&p.as_str())),
    );
    let compound = assign.is_some_and(|k| toks[k] != Tok::Punct("=".into()));
    let mut out: Vec<Read> = Vec::new();
    let push = |r: Read, out: &mut Vec<Read>| {
        if !out.contains(&r) {
            out.push(r);
        }
    };
    for (k, t) in toks.iter().enumerate() {
        let Tok::Ident(name) = t else { continue };
        if KEYWORDS.contains(&name.as_str()) {
            continue;
        }
        // `.f` after something: a field name, not a local.
        if k > 0 && toks[k - 1] == Tok::Punct(".".into()) {
            continue;
        }
        push(Read::Local(name.clone()), &mut out);
        let rhs = assign.is_none_or(|a| k > a) || compound;
        if !rhs {
            continue;
        }
        match (toks.get(k + 1), toks.get(k + 2)) {
            (Some(Tok::Punct(p)), Some(Tok::Ident(f))) if p == "." => {
                push(Read::Field(name.clone(), f.clone()), &mut out)
            }
            (Some(Tok::Punct(p)), _) if p == "[" => {
                if let Some(index) = index_expr(&toks[k + 2..]) {
                    push(Read::Element(name.clone(), index), &mut out);
                }
            }
            _ => {}
        }
    }
    out
}

/// `i]`, `3]`, `i++]`, `++i]`, `i--]`, `--i]`.
fn index_expr(toks: &[Tok]) -> Option<Index> {
    let close = |t: Option<&Tok>| t == Some(&Tok::Punct("]".into()));
    match toks {
        [Tok::Num(n), rest @ ..] if close(rest.first()) => Some(Index::Const(*n)),
        [Tok::Ident(v), rest @ ..] if close(rest.first()) => Some(Index::Var(v.clone(), 0)),
        [Tok::Ident(v), Tok::Punct(p), rest @ ..]
            if (p == "++" || p == "--") && close(rest.first()) =>
        {
            Some(Index::Var(v.clone(), 0))
        }
        [Tok::Punct(p), Tok::Ident(v), rest @ ..]
            if close(rest.first()) && (p == "++" || p == "--") =>
        {
            Some(Index::Var(v.clone(), if p == "++" { 1 } else { -1 }))
        }
        _ => None,
    }
}

fn int_of(v: Option<Value>) -> Option<i64> {
    match v? {
        Value::Int(i) => Some(i64::from(i)),
        Value::Short(i) => Some(i64::from(i)),
        Value::Byte(i) => Some(i64::from(i)),
        Value::Char(i) => Some(i64::from(i)),
        Value::Long(i) => Some(i),
        _ => None,
    }
}

/// The inputs of a statement of `node` on `source_line` that began at `at`: its locals named on
/// the line and the elements and fields it reads, with their values at `at`. Names that are not
/// locals of the node (methods, classes, fields) are skipped.
pub fn line_inputs(
    reader: &TraceReader,
    node: NodeId,
    at: Timestamp,
    source_line: &str,
    limits: RenderLimits,
) -> OmniResult<Vec<Input>> {
    let mut out = Vec::new();
    let local = |name: &str| -> OmniResult<Option<Value>> {
        match local_var(reader, node, name, at)? {
            Some(var) => Ok(reader.local_at(node, var, at)?),
            None => Ok(None),
        }
    };
    let render = |v: Option<Value>| v.map(|v| render_value(reader, &v, at, limits)).transpose();
    for read in reads(source_line) {
        match read {
            Read::Local(name) => {
                if local_var(reader, node, &name, at)?.is_some() {
                    out.push(Input {
                        path: VarPath::local(node, &name).to_string(),
                        value: render(local(&name)?)?,
                        at,
                    });
                }
            }
            Read::Element(name, index) => {
                let Some(Value::Object(array)) = local(&name)? else {
                    continue;
                };
                let i = match index {
                    Index::Const(n) => Some(n),
                    Index::Var(v, add) => int_of(local(&v)?).map(|i| i + add),
                };
                let Some(i) = i.and_then(|i| u32::try_from(i).ok()) else {
                    continue;
                };
                let path = VarPath::local(node, &name).child(Step::Index(i));
                out.push(Input {
                    path: path.to_string(),
                    value: render(reader.element_at(array, i, at)?)?,
                    at,
                });
            }
            Read::Field(name, field) => {
                let Some(Value::Object(object)) = local(&name)? else {
                    continue;
                };
                let Some(f) = instance_field(reader, object, &field)? else {
                    continue;
                };
                let path = VarPath::local(node, &name).child(Step::Field(field));
                out.push(Input {
                    path: path.to_string(),
                    value: render(reader.field_at(object, f, at)?)?,
                    at,
                });
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn local(n: &str) -> Read {
        Read::Local(n.into())
    }

    #[test]
    fn the_buggy_merge_line_reads_its_indexes_and_the_source_element() {
        assert_eq!(
            reads("            c[lb++] = a[la++];"),
            vec![
                local("c"),
                local("lb"),
                local("a"),
                Read::Element("a".into(), Index::Var("la".into(), 0)),
                local("la")
            ]
        );
    }

    #[test]
    fn fields_constants_prefix_increments_and_compound_assignments() {
        assert_eq!(
            reads("total += node.value * w[3] + v[++k]; // w[9]"),
            vec![
                local("total"),
                local("node"),
                Read::Field("node".into(), "value".into()),
                local("w"),
                Read::Element("w".into(), Index::Const(3)),
                local("v"),
                Read::Element("v".into(), Index::Var("k".into(), 1)),
                local("k"),
            ]
        );
    }

    #[test]
    fn literals_and_comparisons_are_not_reads_or_assignments() {
        assert_eq!(
            reads(r#"if (s == "a[i]") x.f = y.g;"#),
            vec![
                local("s"),
                local("x"),
                local("y"),
                Read::Field("y".into(), "g".into())
            ]
        );
        assert_eq!(
            reads("return a[i] <= b[j];")[1],
            Read::Element("a".into(), Index::Var("i".into(), 0))
        );
    }
}
