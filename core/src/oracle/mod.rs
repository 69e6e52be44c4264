//! Oracles: who answers the session's questions. This module holds the parts that need no
//! terminal and no trace: the answer rules of `--oracle answers:FILE`.

pub mod rules;

pub use rules::{AnswerRules, RulesError};
