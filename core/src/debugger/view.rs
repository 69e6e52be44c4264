//! The execution tree as a UI shows it: each node with its label, whether it is complete and
//! which answer it carries; pages of children; the way from the root to a node; what to ask
//! next. These are the decisions a front end must not make itself (the Eclipse plugin renders
//! them as they come, through the JNI bridge).

use serde::Serialize;

use super::{DebugError, Debugger, Report};
use crate::ids::NodeId;
use crate::session::{Answer, Step, Verdict};
use crate::tree::NodeKind;

/// A node of the tree as a UI shows it (the plugin's `TreeNode`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TreeNode {
    pub id: u32,
    /// `root`, `thread`, `routine`, `external`, `loop`, `iteration`, `collapsed` or
    /// `projected`: what the node stands for, for the UI's icon.
    pub kind: NodeKind,
    /// The question for a complete call, `pkg.Class.method (running)` for a running one, `run`
    /// for the root, `Thread [name]` for a thread (the Java thread's name; `thread #id` when the
    /// trace does not know it).
    pub label: String,
    pub method: Option<String>,
    pub child_count: u32,
    pub complete: bool,
    /// `valid`, `invalid`, `trusted`, `don't know`, or absent. Every call of a method trusted by
    /// an answer shows `trusted`.
    pub answer: Option<String>,
    /// The first timestamp of the node: a collapsed or projected node's first call's entry.
    pub entry: u64,
    /// Its last: a collapsed or projected node's last call's exit; the entry timestamp while
    /// the node runs.
    pub exit: u64,
}

/// A page of a node's children, in call order (the plugin's `ChildPage`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChildPage {
    pub offset: u32,
    pub total: u32,
    pub nodes: Vec<TreeNode>,
}

/// One step of the way from the root to a node: the node and its position among its parent's
/// children.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PathStep {
    pub id: u32,
    pub index: u32,
}

/// What to ask next, or how the session ended. `kind` is `ask` (about `node`), `buggy` (`node`
/// is the buggy node), `undecided` (don't-know answers left `candidates`, any of which may be
/// buggy), `no-bug` (every suspicious call was answered valid: the run holds no bug the
/// answers can show), or `waiting` (nothing to ask yet: the recording goes on).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NextQuestion {
    pub kind: &'static str,
    pub node: Option<TreeNode>,
    /// For `undecided`: the calls that may hold the bug, the region's root first.
    pub candidates: Vec<TreeNode>,
    /// Answers given so far (trust included).
    pub answers: usize,
    /// For an end (`buggy`, `undecided`, `no-bug`): the verdict with the buggy code's file and
    /// lines, as `hindsight debug --json` reports it.
    pub report: Option<Report>,
}

impl Debugger {
    /// `node` as a UI shows it.
    pub fn tree_node(&mut self, id: NodeId) -> Result<TreeNode, DebugError> {
        let tree = self.session.tree();
        if !tree.contains(id) {
            return Err(DebugError::UnknownNode(id));
        }
        let kind = tree.kind(id);
        let complete = tree.is_complete(id);
        let child_count = tree.children(id).count() as u32;
        let answer = self.shown_answer(id).map(|a| a.to_string());
        // A live trace not created yet shows no timestamps. A forest node runs from its first
        // call's entry to its last call's exit.
        let (first, last) = tree.span(id).unwrap_or((id, id));
        let _ = self.open_reader();
        let row = |n: NodeId| match self.reader.as_ref().map(|r| r.node(n)) {
            Some(Ok(Some(row))) => Some(row.header),
            _ => None,
        };
        let (entry, exit) = match (row(first), row(last)) {
            (Some(f), Some(l)) => (f.entry, l.exit.unwrap_or(f.entry)),
            (Some(f), None) => (f.entry, f.entry),
            _ => (0, 0),
        };
        let method = match kind {
            NodeKind::Root | NodeKind::Thread => None,
            _ => self.method_of(id)?,
        };
        let label = match kind {
            NodeKind::Root => "run".to_string(),
            NodeKind::Thread => self.thread_label(id),
            _ if complete => match self.question(id) {
                Ok(q) => q.text,
                Err(_) => method.clone().unwrap_or_else(|| format!("#{id}")),
            },
            _ => format!("{} (running)", method.as_deref().unwrap_or("?")),
        };
        Ok(TreeNode {
            id: id.0,
            kind,
            label,
            method,
            child_count,
            complete,
            answer,
            entry,
            exit,
        })
    }

    /// The answer a node shows: `trusted` for every call of a method trusted by an answer (trust
    /// is about the method), else the last answer given about this node.
    fn shown_answer(&self, id: NodeId) -> Option<Answer> {
        let session = &self.session;
        let trusted = session
            .tree()
            .method(id)
            .is_some_and(|m| session.is_trusted_by_answer(m));
        if trusted {
            return Some(Answer::Trusted);
        }
        session
            .answers()
            .iter()
            .rev()
            .find(|(n, a)| *n == id && *a != Answer::Trusted)
            .map(|&(_, a)| a)
    }

    /// Children `offset..offset + limit` of `node`, in call order. The root of a live recording
    /// before its first event has no children yet.
    pub fn children(
        &mut self,
        node: NodeId,
        offset: usize,
        limit: usize,
    ) -> Result<ChildPage, DebugError> {
        self.pump()?;
        if node == NodeId::ROOT && self.session.tree().is_empty() {
            return Ok(ChildPage {
                offset: offset as u32,
                total: 0,
                nodes: Vec::new(),
            });
        }
        if !self.session.tree().contains(node) {
            return Err(DebugError::UnknownNode(node));
        }
        let all: Vec<NodeId> = self.session.tree().children(node).collect();
        let mut nodes = Vec::new();
        for &c in all.iter().skip(offset).take(limit) {
            nodes.push(self.tree_node(c)?);
        }
        Ok(ChildPage {
            offset: offset as u32,
            total: all.len() as u32,
            nodes,
        })
    }

    /// The way from the root to `node`: each node with its position among its parent's
    /// children, the root first, the node that shows `node` last (see [`Self::shown_node`]).
    pub fn path_to(&mut self, node: NodeId) -> Result<Vec<PathStep>, DebugError> {
        self.pump()?;
        let shown = self.shown_node(node)?;
        Ok(self
            .session
            .tree()
            .path_from_root(shown)
            .into_iter()
            .map(|(n, index)| PathStep { id: n.0, index })
            .collect())
    }

    /// The node of the session's tree that shows the recorder's node `node` (a history's writer,
    /// a query's row): itself; the collapsed node that absorbed it; in a session without loops,
    /// the call a loop or an iteration runs in.
    pub fn shown_node(&mut self, node: NodeId) -> Result<NodeId, DebugError> {
        if let Some(shown) = self.session.tree().image(node) {
            return Ok(shown);
        }
        self.open_reader()?;
        let frame = match &self.reader {
            Some(r) if r.node(node)?.is_some_and(|row| row.header.kind.is_loop()) => r
                .frame_of(node)?
                .map(|f| f.header.id)
                .filter(|&f| self.session.tree().contains(f)),
            _ => None,
        };
        frame.ok_or(DebugError::UnknownNode(node))
    }

    /// `Thread [name]` for a thread node, by the Java thread's name the trace keeps.
    fn thread_label(&mut self, id: NodeId) -> String {
        let name = self
            .reader
            .as_ref()
            .and_then(|r| r.threads().ok())
            .and_then(|threads| {
                threads
                    .into_iter()
                    .find(|(_, node)| *node == Some(id))
                    .map(|(def, _)| def.name)
            })
            .filter(|n| !n.is_empty());
        match name {
            Some(n) => format!("Thread [{n}]"),
            None => format!("thread #{id}"),
        }
    }

    /// The node to ask about, the buggy node, how the session ended, or nothing (yet), without
    /// waiting.
    pub fn next_question(&mut self) -> Result<NextQuestion, DebugError> {
        let step = self.step()?;
        let (kind, node, candidates, verdict) = match step {
            Step::Ask(n) => ("ask", Some(n), Vec::new(), None),
            Step::Waiting => ("waiting", None, Vec::new(), None),
            Step::Done(v) => match &v {
                Verdict::Bug { node } => ("buggy", Some(*node), Vec::new(), Some(v.clone())),
                Verdict::NoBug => ("no-bug", None, Vec::new(), Some(v.clone())),
                Verdict::Undecided { candidates } => {
                    ("undecided", None, candidates.clone(), Some(v.clone()))
                }
            },
        };
        let node = node.map(|n| self.tree_node(n)).transpose()?;
        let candidates = candidates
            .into_iter()
            .map(|n| self.tree_node(n))
            .collect::<Result<Vec<_>, _>>()?;
        let report = verdict.map(|v| self.report(&v)).transpose()?;
        Ok(NextQuestion {
            kind,
            node,
            candidates,
            answers: self.session.answers().len(),
            report,
        })
    }
}
