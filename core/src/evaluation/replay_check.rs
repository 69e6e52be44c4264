//! Whether rule 3 of the reference oracle can be trusted on a program: every call of the
//! program's own run is replayed on its own classes, and each replayed exit state must equal the
//! recorded one. A difference means the replay (or the state comparison) is wrong, not the
//! program.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::EvaluationError;

use crate::oracle::replay::{compare, Comparison};
use crate::oracle::{RecordedRun, Replayer, TraceRun};

/// The outcome of replaying every call of a run on its own program.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplayCheck {
    /// Complete calls of instrumented methods.
    pub calls: usize,
    pub equal: usize,
    /// Calls whose replayed exit state differs: `pkg.Class.method`, then the recorded and the
    /// replayed canonical state (cut to a few hundred characters).
    pub different: Vec<(String, String, String)>,
    /// Replayed, but one of the states is not completely known.
    pub unprovable: usize,
    /// The replayer could not run the call.
    pub failed: usize,
    /// Not sent: part of the entry state is not in the trace.
    pub refused: usize,
    /// Why calls were refused or failed (the reason's first words), with how many.
    pub reasons: BTreeMap<String, usize>,
}

/// The first words of a reason without its numbers (`line 12:`, `object 3`), so that reasons
/// about different objects or request lines group together.
fn gist(kind: &str, reason: &str) -> String {
    let words: Vec<&str> = reason
        .split_whitespace()
        .filter(|w| {
            let w = w.trim_end_matches(':');
            w != "line" && !w.chars().all(|c| c.is_ascii_digit())
        })
        .take(8)
        .collect();
    format!("{kind}: {}", words.join(" "))
}

fn cut(text: &str) -> String {
    match text.char_indices().nth(300) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_string(),
    }
}

/// Replays every complete call of instrumented code in the run recorded in `trace`.
pub fn replay_check(
    trace: &Path,
    replayer: &mut dyn Replayer,
) -> Result<ReplayCheck, EvaluationError> {
    let run = TraceRun::open(trace)?;
    let mut check = ReplayCheck::default();
    let mut nodes: Vec<_> = run
        .calls_by_method()
        .flat_map(|(_, n)| n.iter().copied())
        .collect();
    nodes.sort();
    for node in nodes {
        let call = run.call(node)?;
        if call.code_hash.is_none() || call.outcome.is_none() {
            continue;
        }
        check.calls += 1;
        match compare(&run, &call, replayer)? {
            Comparison::Equal => check.equal += 1,
            Comparison::Different { recorded, replayed } => {
                let m = &call.method;
                check.different.push((
                    format!("{}.{}{}", m.class, m.name, m.descriptor),
                    cut(&recorded),
                    cut(&replayed),
                ));
            }
            Comparison::Unprovable => check.unprovable += 1,
            Comparison::Refused(why) => {
                check.refused += 1;
                *check.reasons.entry(gist("refused", &why)).or_default() += 1;
            }
            Comparison::Failed(why) => {
                check.failed += 1;
                *check.reasons.entry(gist("failed", &why)).or_default() += 1;
            }
        }
    }
    Ok(check)
}

#[cfg(test)]
mod tests {
    #[test]
    fn reasons_group_without_their_numbers() {
        assert_eq!(
            super::gist(
                "failed",
                "line 1013: object 2 is a java.util.TreeMap: only lists"
            ),
            "failed: object is a java.util.TreeMap: only lists"
        );
    }
}
