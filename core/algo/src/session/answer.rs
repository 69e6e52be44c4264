//! The four answers an oracle can give about a node.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// An oracle's judgement of one node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Answer {
    /// The call's result (return value, exception, side effects) is what was intended.
    Valid,
    /// The call's result is wrong.
    Invalid,
    /// The call's method is correct: every call of it leaves the suspicious set.
    Trusted,
    /// The oracle cannot tell; the strategy asks something else.
    DontKnow,
}

impl Answer {
    pub const ALL: [Answer; 4] = [
        Answer::Valid,
        Answer::Invalid,
        Answer::Trusted,
        Answer::DontKnow,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Answer::Valid => "valid",
            Answer::Invalid => "invalid",
            Answer::Trusted => "trusted",
            Answer::DontKnow => "dont-know",
        }
    }
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[derive(Debug, Error, PartialEq, Eq)]
#[error("`{0}` is not an answer; use one of valid, invalid, trusted, dont-know")]
pub struct UnknownAnswer(pub String);

impl FromStr for Answer {
    type Err = UnknownAnswer;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Answer::ALL
            .into_iter()
            .find(|a| a.as_str() == s)
            .ok_or_else(|| UnknownAnswer(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_in_text_and_json() {
        for a in Answer::ALL {
            assert_eq!(a.as_str().parse::<Answer>(), Ok(a));
            assert_eq!(serde_json::to_string(&a).unwrap(), format!("\"{a}\""));
        }
        assert_eq!(
            serde_json::from_str::<Answer>("\"dont-know\"").unwrap(),
            Answer::DontKnow
        );
        assert!("yes".parse::<Answer>().is_err());
    }
}
