//! Answer rules, the format of `--oracle answers:FILE` (documented in docs/answers-format.md):
//! one rule per line, `PATTERN => ANSWER`; `#` starts a comment; blank lines are ignored.
//! PATTERN is a fully qualified method name `pkg.Class.method` in which `*` matches any run of
//! characters; ANSWER is valid, invalid, trusted or dont-know. The first matching rule wins; a
//! method no rule matches gets dont-know.

use std::borrow::Cow;
use std::path::Path;

use thiserror::Error;

use crate::glob::Glob;
use crate::session::Answer;
use crate::tree::NodeKind;

#[derive(Debug, Error)]
pub enum RulesError {
    #[error("{file}:{line}: {what}")]
    Syntax {
        file: String,
        line: usize,
        what: String,
    },
    #[error("cannot read answer rules from {file}: {source}")]
    Io {
        file: String,
        #[source]
        source: std::io::Error,
    },
}

/// One `PATTERN => ANSWER` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    pub pattern: Glob,
    pub answer: Answer,
    /// 1-based line in the source.
    pub line: usize,
}

/// An ordered list of rules.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AnswerRules {
    rules: Vec<Rule>,
}

impl AnswerRules {
    /// Parses rules; `source` names the file in error messages.
    pub fn parse(text: &str, source: &str) -> Result<Self, RulesError> {
        let mut rules = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let err = |what: String| RulesError::Syntax {
                file: source.to_string(),
                line,
                what,
            };
            let content = raw.split('#').next().unwrap_or("").trim();
            if content.is_empty() {
                continue;
            }
            let Some((pattern, answer)) = content.split_once("=>") else {
                return Err(err(format!(
                    "expected `PATTERN => ANSWER`, found `{content}` (no `=>`)"
                )));
            };
            let (pattern, answer) = (pattern.trim(), answer.trim());
            if pattern.is_empty() {
                return Err(err("the pattern before `=>` is empty".to_string()));
            }
            if pattern.chars().any(char::is_whitespace) {
                return Err(err(format!(
                    "the pattern `{pattern}` contains blanks; write one method name such as pkg.Class.method"
                )));
            }
            let answer = answer.parse::<Answer>().map_err(|e| err(e.to_string()))?;
            rules.push(Rule {
                pattern: Glob::new(pattern),
                answer,
                line,
            });
        }
        Ok(AnswerRules { rules })
    }

    /// Reads and parses a rules file.
    pub fn load(path: &Path) -> Result<Self, RulesError> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| RulesError::Io {
            file: file.clone(),
            source,
        })?;
        Self::parse(&text, &file)
    }

    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    /// What rules match for a node of `kind` of method `method` (`pkg.Class.method`): the
    /// name itself for a call, `pkg.Class.method@loop` or `pkg.Class.method@iteration` for the
    /// loops and iterations of the method. So `pkg.Class.method` answers its calls only (its
    /// loops, which no rule names, are don't-know), `pkg.Class.method@*` its loops and
    /// iterations, and `pkg.*` all of them.
    pub fn subject(method: &str, kind: NodeKind) -> Cow<'_, str> {
        match kind {
            NodeKind::Loop => Cow::Owned(format!("{method}@loop")),
            NodeKind::Iteration => Cow::Owned(format!("{method}@iteration")),
            _ => Cow::Borrowed(method),
        }
    }

    /// The first matching rule's answer for a fully qualified method name, dont-know if none.
    pub fn answer(&self, method: &str) -> Answer {
        self.rules
            .iter()
            .find(|r| r.pattern.matches(method))
            .map_or(Answer::DontKnow, |r| r.answer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loops_and_iterations_are_named_by_their_method_and_kind() {
        let rules = AnswerRules::parse(
            "p.A.f@loop => valid\np.A.f@* => invalid\np.A.f => invalid\np.B.* => valid\n",
            "rules.txt",
        )
        .unwrap();
        let answer = |m, k| rules.answer(&AnswerRules::subject(m, k));
        assert_eq!(answer("p.A.f", NodeKind::Loop), Answer::Valid);
        assert_eq!(answer("p.A.f", NodeKind::Iteration), Answer::Invalid);
        assert_eq!(answer("p.A.f", NodeKind::Routine), Answer::Invalid);
        // A rule naming the method alone does not answer its loops.
        let calls_only = AnswerRules::parse("p.A.f => invalid\n", "r").unwrap();
        assert_eq!(
            calls_only.answer(&AnswerRules::subject("p.A.f", NodeKind::Loop)),
            Answer::DontKnow
        );
        assert_eq!(answer("p.B.g", NodeKind::Iteration), Answer::Valid);
    }

    #[test]
    fn first_match_wins_and_unmatched_is_dont_know() {
        let rules = AnswerRules::parse(
            "# SumNumbers\n\nSumNumbers.isEven => valid  # even is fine\n*.add => trusted\n\
             SumNumbers.* => invalid\n*.isEven => invalid\n",
            "answers.txt",
        )
        .unwrap();
        assert_eq!(rules.rules().len(), 4);
        assert_eq!(rules.answer("SumNumbers.isEven"), Answer::Valid);
        assert_eq!(rules.answer("SumNumbers.add"), Answer::Trusted);
        assert_eq!(rules.answer("SumNumbers.sumNumbers"), Answer::Invalid);
        assert_eq!(rules.answer("Other.isEven"), Answer::Invalid);
        assert_eq!(rules.answer("Other.main"), Answer::DontKnow);
        assert_eq!(rules.rules()[1].line, 4);
    }

    #[test]
    fn every_answer_word_parses() {
        let rules = AnswerRules::parse(
            "a.B.c => valid\na.B.d => invalid\na.B.e => trusted\na.B.f => dont-know\n",
            "f",
        )
        .unwrap();
        assert_eq!(
            rules.rules().iter().map(|r| r.answer).collect::<Vec<_>>(),
            Answer::ALL.to_vec()
        );
    }

    #[test]
    fn errors_name_file_line_and_problem() {
        let e = AnswerRules::parse("a.B.c => valid\n\nMerge.merge valid\n", "rules.txt")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("rules.txt:3:"), "{e}");
        assert!(e.contains("=>"), "{e}");
        let e = AnswerRules::parse("a.B.c => maybe", "r")
            .unwrap_err()
            .to_string();
        assert!(e.contains("r:1") && e.contains("maybe"), "{e}");
        let e = AnswerRules::parse(" => valid", "r")
            .unwrap_err()
            .to_string();
        assert!(e.contains("empty"), "{e}");
        let e = AnswerRules::load(Path::new("/nonexistent/answers.txt"))
            .unwrap_err()
            .to_string();
        assert!(e.contains("/nonexistent/answers.txt"), "{e}");
    }
}
