//! Variable paths as people type them: `7:c[2]`, `7:this.next.value`, `static:pkg.Class.count`,
//! `obj:42.next`, `obj:42[3]`. Parsing and printing only; [`super::resolve`] turns a path into a
//! store location at a timestamp.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::ids::{NodeId, ObjectId};

/// Where a path starts.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum PathRoot {
    /// A local variable (or argument, or `this`) of a call.
    Local { node: NodeId, name: String },
    /// A static field, as dotted names: `pkg.Class.field` followed by more fields maybe; which
    /// prefix names the class is decided when the path is resolved.
    Static { names: Vec<String> },
    /// An object or array by id.
    Object { id: ObjectId },
}

/// One step from a value to a part of it.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Step {
    Field(String),
    Index(u32),
}

/// A variable path: a root and steps through fields and array elements.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct VarPath {
    pub root: PathRoot,
    pub steps: Vec<Step>,
}

#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("bad variable path `{path}`: {problem} (write NODE:name, NODE:name[3], NODE:name.field, static:pkg.Class.field, obj:ID.field or obj:ID[3])")]
pub struct PathSyntaxError {
    pub path: String,
    pub problem: String,
}

impl VarPath {
    pub fn local(node: NodeId, name: &str) -> VarPath {
        VarPath {
            root: PathRoot::Local {
                node,
                name: name.into(),
            },
            steps: Vec::new(),
        }
    }

    pub fn object(id: ObjectId) -> VarPath {
        VarPath {
            root: PathRoot::Object { id },
            steps: Vec::new(),
        }
    }

    /// This path followed by one more step.
    pub fn child(&self, step: Step) -> VarPath {
        let mut p = self.clone();
        p.steps.push(step);
        p
    }

    pub fn parse(text: &str) -> Result<VarPath, PathSyntaxError> {
        let err = |problem: &str| PathSyntaxError {
            path: text.into(),
            problem: problem.into(),
        };
        let (head, rest) = text
            .split_once(':')
            .ok_or_else(|| err("no `:` after the node, `static` or `obj`"))?;
        let (first, steps) = split_steps(rest).map_err(|p| err(&p))?;
        let mut steps = steps.into_iter();
        let root = match head {
            "static" => {
                // Every leading field step belongs to the dotted name until the first index.
                let mut names = vec![first];
                let mut after = Vec::new();
                for s in steps.by_ref() {
                    match s {
                        Step::Field(f) if after.is_empty() => names.push(f),
                        other => after.push(other),
                    }
                }
                if names.len() < 2 {
                    return Err(err(
                        "a static field needs its class: static:pkg.Class.field",
                    ));
                }
                return Ok(VarPath {
                    root: PathRoot::Static { names },
                    steps: after,
                });
            }
            "obj" => {
                let id = first
                    .parse::<u64>()
                    .map_err(|_| err("the object id is not a number"))?;
                PathRoot::Object { id: ObjectId(id) }
            }
            node => {
                let node = node
                    .parse::<u32>()
                    .map_err(|_| err("the node is not a number"))?;
                if first.is_empty() {
                    return Err(err("no variable name after the node"));
                }
                PathRoot::Local {
                    node: NodeId(node),
                    name: first,
                }
            }
        };
        Ok(VarPath {
            root,
            steps: steps.collect(),
        })
    }
}

/// `name.f[3].g` -> (`name`, [Field f, Index 3, Field g]).
fn split_steps(text: &str) -> Result<(String, Vec<Step>), String> {
    let mut chars = text.char_indices().peekable();
    let mut first = String::new();
    while let Some(&(_, c)) = chars.peek() {
        if c == '.' || c == '[' {
            break;
        }
        first.push(c);
        chars.next();
    }
    if first.is_empty() {
        return Err("nothing before the first `.` or `[`".into());
    }
    let mut steps = Vec::new();
    while let Some((_, c)) = chars.next() {
        let mut word = String::new();
        if c == '.' {
            while let Some(&(_, c)) = chars.peek() {
                if c == '.' || c == '[' {
                    break;
                }
                word.push(c);
                chars.next();
            }
            if word.is_empty() {
                return Err("an empty field name".into());
            }
            steps.push(Step::Field(word));
        } else {
            // c == '['
            for (_, c) in chars.by_ref() {
                if c == ']' {
                    break;
                }
                word.push(c);
            }
            let index = word
                .trim()
                .parse::<u32>()
                .map_err(|_| format!("`[{word}]` is not an index"))?;
            steps.push(Step::Index(index));
        }
    }
    Ok((first, steps))
}

impl FromStr for VarPath {
    type Err = PathSyntaxError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        VarPath::parse(s)
    }
}

impl fmt::Display for VarPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.root {
            PathRoot::Local { node, name } => write!(f, "{node}:{name}")?,
            PathRoot::Static { names } => write!(f, "static:{}", names.join("."))?,
            PathRoot::Object { id } => write!(f, "obj:{id}")?,
        }
        for s in &self.steps {
            match s {
                Step::Field(n) => write!(f, ".{n}")?,
                Step::Index(i) => write!(f, "[{i}]")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_round_trips() {
        for text in [
            "7:c",
            "7:c[2]",
            "7:this.next.value",
            "static:pkg.Class.field",
            "static:a.B.arr[3]",
            "obj:42.next",
            "obj:42[3]",
            "12:x.f[0][1].g",
        ] {
            let p = VarPath::parse(text).unwrap();
            assert_eq!(p.to_string(), text);
        }
    }

    #[test]
    fn parts_are_what_they_say() {
        let p = VarPath::parse("7:c[2]").unwrap();
        assert_eq!(
            p.root,
            PathRoot::Local {
                node: NodeId(7),
                name: "c".into()
            }
        );
        assert_eq!(p.steps, vec![Step::Index(2)]);
        let p = VarPath::parse("static:pkg.Counter.values[1].x").unwrap();
        assert_eq!(
            p.root,
            PathRoot::Static {
                names: vec!["pkg".into(), "Counter".into(), "values".into()]
            }
        );
        assert_eq!(p.steps, vec![Step::Index(1), Step::Field("x".into())]);
        let p = VarPath::parse("obj:9.next").unwrap();
        assert_eq!(p.root, PathRoot::Object { id: ObjectId(9) });
        assert_eq!(p.steps, vec![Step::Field("next".into())]);
    }

    #[test]
    fn bad_paths_say_what_is_wrong() {
        for (text, problem) in [
            ("c[2]", "no `:`"),
            ("x:c", "node is not a number"),
            ("7:c[x]", "not an index"),
            ("7:c..d", "empty field"),
            ("obj:abc", "not a number"),
            ("static:Counter", "needs its class"),
            ("7:", "nothing before"),
        ] {
            let e = VarPath::parse(text).unwrap_err();
            assert!(e.to_string().contains(problem), "{text}: {e}");
        }
    }
}
