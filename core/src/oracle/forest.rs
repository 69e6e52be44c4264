//! The reference oracle on the execution forest's own nodes. A collapsed node (a chain of calls
//! of one method) or a projected node (a sub-chain of sibling calls) goes from its first call's
//! entry state to its last call's exit state through the chain's calls, each starting in the
//! state the previous one left. By the balanced-ET paper's rule Tr the composition of right
//! steps is right: the node is valid when each of its steps is (a call judged by the rules of
//! `reference`, a nested forest node by this rule), invalid when one of them is invalid (a
//! wrong step makes the composite wrong unless a later one cancels it by chance, which no
//! person answering would assume), and "don't know" when a step is unknown.

use crate::ids::NodeId;
use crate::omniscient::HeapResult;
use crate::session::Answer;
use crate::tree::{ExecutionTree, NodeKind};

/// The recorded nodes [`judge`] asks `call` about for `node`: its steps, a projected node's
/// taken apart, a collapsed node's calls; `node` itself for any other kind.
pub fn steps(tree: &ExecutionTree, node: NodeId) -> Vec<NodeId> {
    match tree.kind(node) {
        NodeKind::Projected => tree.children(node).flat_map(|s| steps(tree, s)).collect(),
        NodeKind::Collapsed => tree.calls_in(node),
        _ => vec![node],
    }
}

/// Judges `node` of `tree`, asking `call` about the recorder's calls.
pub fn judge(
    tree: &ExecutionTree,
    node: NodeId,
    call: &mut dyn FnMut(NodeId) -> HeapResult<Answer>,
) -> HeapResult<Answer> {
    let answers: Vec<Answer> = match tree.kind(node) {
        NodeKind::Projected => tree
            .children(node)
            .map(|s| judge(tree, s, call))
            .collect::<HeapResult<_>>()?,
        NodeKind::Collapsed => tree
            .calls_in(node)
            .into_iter()
            .map(&mut *call)
            .collect::<HeapResult<_>>()?,
        _ => return call(node),
    };
    let mut unknown = false;
    for a in answers {
        match a {
            Answer::Invalid => return Ok(Answer::Invalid),
            Answer::DontKnow => unknown = true,
            Answer::Valid | Answer::Trusted => {}
        }
    }
    Ok(if unknown {
        Answer::DontKnow
    } else {
        Answer::Valid
    })
}
