//! The corpus's files as data (tests/README.md, `corpus/`): `program.toml`, `mutants.toml`,
//! and a mutant applied to a source text.

use serde::{Deserialize, Serialize};

use super::EvaluationError;

/// `program.toml` of a corpus program.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Program {
    /// The main class, fully qualified.
    pub main: String,
    #[serde(default)]
    pub args: Vec<String>,
    #[serde(default)]
    pub description: String,
}

/// One single-line mutant of `mutants.toml`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mutant {
    pub id: String,
    /// Relative to the program's `src/`.
    pub file: String,
    /// 1-based.
    pub line: usize,
    /// The line's text, trimmed.
    pub from: String,
    /// Its replacement; empty deletes the statement.
    pub to: String,
    /// `pkg.Class.method` of the mutated line (`<init>`, `Outer$Inner`).
    pub method: String,
    #[serde(default)]
    pub error: String,
}

/// `mutants.toml`: a list of `[[mutant]]` tables.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MutantList {
    #[serde(default)]
    pub mutant: Vec<Mutant>,
}

/// `source` (the text of `mutant.file`) with the mutant's line replaced by `mutant.to`, indented
/// like the original line; line endings and the other lines are kept as they are, so that line
/// numbers do not shift.
pub fn apply_mutant(source: &str, mutant: &Mutant) -> Result<String, EvaluationError> {
    let lines: Vec<&str> = source.split_inclusive('\n').collect();
    let index = mutant
        .line
        .checked_sub(1)
        .filter(|&i| i < lines.len())
        .ok_or_else(|| EvaluationError::NoSuchLine {
            id: mutant.id.clone(),
            file: mutant.file.clone(),
            line: mutant.line,
            lines: lines.len(),
        })?;
    let original = lines[index];
    let body = original.trim_end_matches(['\n', '\r']);
    let ending = &original[body.len()..];
    if body.trim() != mutant.from {
        return Err(EvaluationError::LineMismatch {
            id: mutant.id.clone(),
            file: mutant.file.clone(),
            line: mutant.line,
            found: body.trim().to_string(),
            expected: mutant.from.clone(),
        });
    }
    let indent = &body[..body.len() - body.trim_start().len()];
    let mut out = String::with_capacity(source.len() + mutant.to.len());
    for (i, l) in lines.iter().enumerate() {
        if i == index {
            out.push_str(indent);
            out.push_str(&mutant.to);
            out.push_str(ending);
        } else {
            out.push_str(l);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mutant(line: usize, from: &str, to: &str) -> Mutant {
        Mutant {
            id: "m-1".into(),
            file: "p/A.java".into(),
            line,
            from: from.into(),
            to: to.into(),
            method: "p.A.f".into(),
            error: String::new(),
        }
    }

    const SOURCE: &str = "class A {\n    int f(int x) {\n        return x + 1;\n    }\n}\n";

    #[test]
    fn replaces_the_line_keeping_its_indentation_and_the_others() {
        let out = apply_mutant(SOURCE, &mutant(3, "return x + 1;", "return x - 1;")).unwrap();
        assert_eq!(
            out,
            "class A {\n    int f(int x) {\n        return x - 1;\n    }\n}\n"
        );
    }

    #[test]
    fn an_empty_replacement_leaves_an_empty_line_so_numbers_do_not_shift() {
        let out = apply_mutant(SOURCE, &mutant(3, "return x + 1;", "")).unwrap();
        assert_eq!(out.lines().count(), SOURCE.lines().count());
        assert_eq!(out.lines().nth(2), Some("        "));
    }

    #[test]
    fn keeps_crlf_line_endings() {
        let source = "a\r\n  b\r\nc";
        assert_eq!(
            apply_mutant(source, &mutant(2, "b", "d")).unwrap(),
            "a\r\n  d\r\nc"
        );
        assert_eq!(
            apply_mutant(source, &mutant(3, "c", "e")).unwrap(),
            "a\r\n  b\r\ne"
        );
    }

    #[test]
    fn a_line_that_does_not_read_from_is_refused() {
        let err = apply_mutant(SOURCE, &mutant(2, "return x + 1;", "")).unwrap_err();
        assert!(
            matches!(err, EvaluationError::LineMismatch { line: 2, .. }),
            "{err}"
        );
        assert!(err.to_string().contains("int f(int x) {"), "{err}");
    }

    #[test]
    fn lines_out_of_range_are_refused() {
        for line in [0, 6] {
            let err = apply_mutant(SOURCE, &mutant(line, "x", "y")).unwrap_err();
            assert!(
                matches!(err, EvaluationError::NoSuchLine { lines: 5, .. }),
                "{err}"
            );
        }
    }

    #[test]
    fn mutants_toml_parses_into_the_list() {
        let list: MutantList = serde_json::from_value(serde_json::json!({
            "mutant": [{"id": "a-1", "file": "a/A.java", "line": 3, "from": "x;", "to": "y;", "method": "a.A.f", "error": "e"}]
        }))
        .unwrap();
        assert_eq!(list.mutant.len(), 1);
        assert_eq!(list.mutant[0].line, 3);
    }
}
