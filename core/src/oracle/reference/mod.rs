//! The reference oracle of DESIGN.md: a recorded run of the fixed program (same input) serves
//! as the intended meaning, so bugs are found without a person.
//!
//! For a node (entry state b, method m, exit state e), in this order:
//! 1. if the reference run has a call of m entered in a state equal to b: valid if one such call
//!    ended in a state equal to e, invalid if all such calls ended in different states (when the
//!    trace does not know all of the states, for example the content of a JDK collection, and
//!    what it knows is equal, rule 1 cannot decide);
//! 2. else, if m's bytecode is identical in both programs and all the node's children are valid
//!    (by these same rules; calls into uninstrumented code count as trusted when the program's
//!    code they called back is valid), valid;
//! 3. else, when a [`Replayer`] can run the correct program (the benchmark's case), the call is
//!    replayed from its entry state (docs/replay-protocol.md, [`super::replay`]): valid or invalid
//!    when both exit states are completely known;
//! 4. else don't know.
//!
//! Loops and iterations are judged by the same rules on their frame's state (`this`, the
//! method's locals and what they reach, the statics they wrote; at exit also how they ended:
//! a next iteration, the loop's end, an exception): rule 1 compares them with the executions
//! of the same loop (the same header block of the same method) in the reference run, rule 2
//! applies as to calls (the method's code unchanged, the children right). Rule 3 does not:
//! the replayer runs whole methods, not a loop from a state in the middle of one, so a loop
//! the first two rules cannot judge is "don't know".
//!
//! Rule 3 extends DESIGN.md's three rules: without it, every call after a mutant's divergence
//! runs in a state the correct run never reached and is "don't know", which no person answering
//! would say.
//!
//! States compare by structure ([`canonical_state`]): `this`, the arguments, the static fields
//! the call wrote (in its subtree), and the graph reachable from them; at exit also the result
//! (return value or exception) and the call's output: the arguments of the calls to the JDK's
//! output methods (`PrintStream.println`, `Writer.write`, ...) made in its subtree, in order. A
//! `main` whose only effect is what it prints is judged by what it prints, as a person would.
//! A field at its default value counts as never written. Rule 2 needs the children's answers
//! first, so answers are computed bottom-up with an explicit stack (a deep recursion in the
//! debuggee must not overflow ours), only where rule 1 leaves the call undecided, and memoised.

use std::collections::HashMap;

use super::footprint::{FootprintIndex, Judgement};
use super::recorded::{CallView, Fragment, MethodKey, RecordedRun};
use super::replay::{self, ReplayStats, Replayer};
use super::state::{entry_state, exit_state};
use crate::ids::NodeId;
use crate::omniscient::{CanonicalState, HeapResult};
use crate::session::Answer;

/// The reference oracle over a buggy run and a reference run.
pub struct ReferenceOracle<'a, B, R> {
    buggy: &'a B,
    reference: &'a R,
    memory: OracleMemory,
    /// Rule 3, when the correct program can be run.
    replayer: Option<&'a mut dyn Replayer>,
}

/// What the oracle learnt and keeps from one answer to the next: the answers of the buggy run's
/// calls (a complete call's answer never changes, even while the run goes on) and the index of
/// the reference run. A front end that cannot keep the oracle itself (it borrows the runs,
/// and a live buggy run is refreshed between questions) keeps this instead
/// ([`ReferenceOracle::resume`], [`ReferenceOracle::into_memory`]).
#[derive(Default)]
pub struct OracleMemory {
    answers: HashMap<NodeId, Answer>,
    /// Reference calls of a method by their entry state, each with its exit states (runs
    /// without events).
    index: HashMap<MethodKey, HashMap<CanonicalState, Vec<NodeId>>>,
    /// The same for the loops and iterations of a loop.
    fragment_index: HashMap<(MethodKey, Fragment), HashMap<CanonicalState, Vec<NodeId>>>,
    /// The reference calls' footprints.
    footprints: FootprintIndex,
    replay_stats: ReplayStats,
}

/// Where rules 1 and 2 leave a call.
enum Partial {
    Decided(Answer),
    /// Rule 2 may apply: it needs the children's answers.
    NeedsChildren,
    /// Neither rule applies: rule 3 gets the call as rule 1 read it.
    Undecided(Box<CallView>),
}

impl<'a, B: RecordedRun, R: RecordedRun> ReferenceOracle<'a, B, R> {
    pub fn new(buggy: &'a B, reference: &'a R) -> Self {
        Self::resume(buggy, reference, OracleMemory::default())
    }

    /// An oracle that goes on from what an earlier one over the same runs learnt.
    pub fn resume(buggy: &'a B, reference: &'a R, memory: OracleMemory) -> Self {
        ReferenceOracle {
            buggy,
            reference,
            memory,
            replayer: None,
        }
    }

    /// What this oracle learnt, to [`ReferenceOracle::resume`] later.
    pub fn into_memory(self) -> OracleMemory {
        self.memory
    }

    /// Adds rule 3: calls that rules 1 and 2 cannot judge are replayed by `replayer`, which
    /// runs the correct program.
    pub fn with_replayer(mut self, replayer: &'a mut dyn Replayer) -> Self {
        self.replayer = Some(replayer);
        self
    }

    /// What rule 3 did so far.
    pub fn replay_stats(&self) -> &ReplayStats {
        &self.memory.replay_stats
    }

    /// The answer for `node` of the buggy run.
    pub fn answer(&mut self, node: NodeId) -> HeapResult<Answer> {
        // Rule 2 needs the children's answers first: a post-order over the part of the subtree
        // it needs, with an explicit stack, skipping what is already known.
        let mut stack = vec![(node, false)];
        while let Some((n, children_done)) = stack.pop() {
            if self.memory.answers.contains_key(&n) {
                continue;
            }
            let answer = if children_done {
                self.rule_2(n)?
            } else {
                match self.rule_1(n)? {
                    Partial::Decided(a) => a,
                    Partial::Undecided(call) => self.rule_3(&call)?,
                    Partial::NeedsChildren => {
                        stack.push((n, true));
                        for child in self.buggy.children(n)? {
                            if !self.memory.answers.contains_key(&child) {
                                stack.push((child, false));
                            }
                        }
                        continue;
                    }
                }
            };
            self.memory.answers.insert(n, answer);
        }
        Ok(self.memory.answers[&node])
    }

    /// Trusted and incomplete calls, rule 1, and whether rule 2 can apply.
    fn rule_1(&mut self, node: NodeId) -> HeapResult<Partial> {
        let mut call = self.buggy.call(node)?;
        // States list static fields by name, so both runs list them in the same order.
        call.statics.sort();
        let Some(code_hash) = call.code_hash else {
            // Uninstrumented code is trusted, but not the program's code it called back (a
            // lambda run by a stream, a `toString` by `String.valueOf`): rule 2 looks at those.
            return Ok(if self.buggy.children(node)?.is_empty() {
                Partial::Decided(Answer::Trusted)
            } else {
                Partial::NeedsChildren
            });
        };
        if call.outcome.is_none() {
            return Ok(Partial::Decided(Answer::DontKnow));
        }
        // Calls, loops and iterations alike by footprints; by whole states without events, and
        // a loop its footprint leaves open (its whole state is its frame's: small in a program
        // of a few classes, cut early in a library's, `MAX_FRAGMENT_STATE_OBJECTS`).
        let judged = self
            .memory
            .footprints
            .judge(self.buggy, node, &call, self.reference)?;
        let decided = match (call.fragment, judged) {
            (_, Judgement::Valid) => Some(Partial::Decided(Answer::Valid)),
            (_, Judgement::Invalid) => Some(Partial::Decided(Answer::Invalid)),
            (None, Judgement::NoEvents) => self.rule_1_by_states(&call)?,
            (None, Judgement::Cut | Judgement::NoMatch | Judgement::Unprovable) => None,
            // A loop that asked the outside world (an identity hash code) may differ from the
            // reference's for that alone: rule 2 judges it by its children.
            (Some(_), _)
                if self
                    .memory
                    .footprints
                    .asks_environment(self.buggy, node, &call)? =>
            {
                None
            }
            (Some(_), _) => self.rule_1_by_states(&call)?,
        };
        if let Some(decided) = decided {
            return Ok(decided);
        }
        Ok(
            if self.reference.code_hash(&call.method)? == Some(code_hash) {
                Partial::NeedsChildren
            } else if call.fragment.is_some() {
                // A loop cannot be replayed: the replayer runs whole methods.
                Partial::Decided(Answer::DontKnow)
            } else {
                Partial::Undecided(Box::new(call))
            },
        )
    }

    /// Rule 1 over whole states (runs without events, loops and iterations): `Some` when it
    /// decides.
    fn rule_1_by_states(&mut self, call: &CallView) -> HeapResult<Option<Partial>> {
        let entry = entry_state(self.buggy, call, &call.statics)?;
        let candidates = match call.fragment {
            Some(f) => self.reference_fragments(&call.method, f, &call.statics, &entry)?,
            None => self.reference_calls(&call.method, &call.statics, &entry)?,
        };
        if !candidates.is_empty() {
            let exit = exit_state(self.buggy, call, &call.statics)?;
            // Differing canonical texts prove different states; equal texts prove equal states
            // only when both are complete (no unknown content, no cut).
            let mut unprovable = false;
            for candidate in candidates {
                let reference_call = self.reference.call(candidate)?;
                let mut statics = call.statics.clone();
                statics.extend(reference_call.statics.iter().cloned());
                statics.sort();
                statics.dedup();
                let exit = if statics.len() == call.statics.len() {
                    exit.clone()
                } else {
                    exit_state(self.buggy, call, &statics)?
                };
                let reference_exit = exit_state(self.reference, &reference_call, &statics)?;
                if reference_exit.text == exit.text {
                    if exit.complete && reference_exit.complete {
                        return Ok(Some(Partial::Decided(Answer::Valid)));
                    }
                    unprovable = true;
                }
            }
            if !unprovable {
                return Ok(Some(Partial::Decided(Answer::Invalid)));
            }
        }
        Ok(None)
    }

    /// Rule 2, once the children are answered; rule 3 when it does not apply.
    fn rule_2(&mut self, node: NodeId) -> HeapResult<Answer> {
        let children_ok = self.buggy.children(node)?.iter().all(|c| {
            matches!(
                self.memory.answers.get(c),
                Some(Answer::Valid | Answer::Trusted)
            )
        });
        let call = self.buggy.call(node)?;
        if call.code_hash.is_none() {
            // Uninstrumented code with callbacks: trusted when they are right; otherwise it
            // stands for them (the session never asks about it), so its caller is not proved
            // right by rule 2.
            return Ok(if children_ok {
                Answer::Trusted
            } else {
                Answer::DontKnow
            });
        }
        if children_ok {
            return Ok(Answer::Valid);
        }
        if self.replayer.is_none() {
            return Ok(Answer::DontKnow);
        }
        if call.fragment.is_some() {
            return Ok(Answer::DontKnow);
        }
        self.rule_3(&call)
    }

    /// Rule 3 (replay) if there is a replayer, else don't know.
    fn rule_3(&mut self, call: &CallView) -> HeapResult<Answer> {
        let Some(replayer) = self.replayer.as_deref_mut() else {
            return Ok(Answer::DontKnow);
        };
        Ok(
            replay::judge(self.buggy, call, replayer, &mut self.memory.replay_stats)?
                .unwrap_or(Answer::DontKnow),
        )
    }

    /// The executions of loop `fragment` of `method` in the reference run (or its iterations)
    /// whose entry state equals `entry`, as `reference_calls` finds calls.
    fn reference_fragments(
        &mut self,
        method: &MethodKey,
        fragment: Fragment,
        statics: &[String],
        entry: &CanonicalState,
    ) -> HeapResult<Vec<NodeId>> {
        if !entry.complete {
            return Ok(Vec::new());
        }
        if statics.is_empty() {
            let key = (method.clone(), fragment);
            if !self.memory.fragment_index.contains_key(&key) {
                let mut by_entry: HashMap<CanonicalState, Vec<NodeId>> = HashMap::new();
                for r in self.reference.fragments_of(method, fragment)? {
                    let view = self.reference.call_basic(r)?;
                    if view.outcome.is_some() {
                        by_entry
                            .entry(entry_state(self.reference, &view, &[])?)
                            .or_default()
                            .push(r);
                    }
                }
                self.memory.fragment_index.insert(key.clone(), by_entry);
            }
            return Ok(self.memory.fragment_index[&key]
                .get(entry)
                .cloned()
                .unwrap_or_default());
        }
        let mut found = Vec::new();
        for r in self.reference.fragments_of(method, fragment)? {
            let view = self.reference.call_basic(r)?;
            if view.outcome.is_some() && entry_state(self.reference, &view, statics)? == *entry {
                found.push(r);
            }
        }
        Ok(found)
    }

    /// The reference calls of `method` whose entry state equals `entry` (with the static fields
    /// `statics` read in the reference run).
    fn reference_calls(
        &mut self,
        method: &MethodKey,
        statics: &[String],
        entry: &CanonicalState,
    ) -> HeapResult<Vec<NodeId>> {
        if statics.is_empty() {
            if !self.memory.index.contains_key(method) {
                let mut by_entry: HashMap<CanonicalState, Vec<NodeId>> = HashMap::new();
                for r in self.reference.calls_of(method)? {
                    let call = self.reference.call_basic(r)?;
                    if call.outcome.is_some() {
                        by_entry
                            .entry(entry_state(self.reference, &call, &[])?)
                            .or_default()
                            .push(r);
                    }
                }
                self.memory.index.insert(method.clone(), by_entry);
            }
            let found = self.memory.index[method]
                .get(entry)
                .cloned()
                .unwrap_or_default();
            return Ok(if entry.complete { found } else { Vec::new() });
        }
        // Calls that touch static fields are compared one by one: the index keys leave statics out.
        let mut found = Vec::new();
        for r in self.reference.calls_of(method)? {
            let call = self.reference.call_basic(r)?;
            if call.outcome.is_some()
                && entry.complete
                && entry_state(self.reference, &call, statics)? == *entry
            {
                found.push(r);
            }
        }
        Ok(found)
    }
}

#[cfg(test)]
mod tests;
