//! One debugging session as the plugin sees it: over a finished trace ([`Debugger`]) or over a
//! recording in progress ([`LiveDebugger`]). Every query returns a serde value that the export
//! turns into a JSON string; the shapes are the core's (as `hindsight ... --json` prints them)
//! plus [`CallNode`] and [`NextQuestion`] for the Computation Tree.

use std::path::{Path, PathBuf};
use std::str::FromStr;

use hindsight_core::capture::{self, LiveRecording};
use hindsight_core::debugger::{DebugError, DebugOptions, Debugger, LiveDebugger, LiveOptions};
use hindsight_core::glob::GlobSet;
use hindsight_core::ids::NodeId;
use hindsight_core::omniscient::{
    children_of, history, node_events, node_state, origin, Children, EventPage, History, NodeState,
    OmniError, RenderLimits, ValueOrigin, VarPath,
};
use hindsight_core::session::{Answer, Session, Step, Verdict};
use hindsight_core::strategy::StrategyName;
use hindsight_core::trace::store::{TraceReader, WriterConfig};
use hindsight_core::tree::NodeKind;
use serde::Serialize;

/// What went wrong, as the Java exception's message says it.
#[derive(Debug, thiserror::Error)]
pub enum BridgeError {
    #[error(transparent)]
    Debug(#[from] DebugError),
    #[error(transparent)]
    Omni(#[from] OmniError),
    #[error("bad variable path: {0}")]
    Path(String),
    #[error("starting the recording: {0}")]
    Io(#[from] std::io::Error),
    #[error("no session with handle {0}: it was closed or never opened")]
    BadHandle(i64),
    #[error("node {0} is not in the execution tree (yet)")]
    UnknownNode(u64),
    #[error("the trace cannot be read yet: the program has not sent any event")]
    NotReadable,
    #[error("{0}")]
    Invalid(String),
}

pub type BridgeResult<T> = Result<T, BridgeError>;

/// A node of the Computation Tree (`hindsight.eclipse.core.CallNode`).
#[derive(Debug, Serialize)]
pub struct CallNode {
    pub id: u32,
    pub label: String,
    pub method: Option<String>,
    pub child_count: u32,
    pub complete: bool,
    /// `valid`, `invalid`, `trusted`, `don't know`, or absent.
    pub answer: Option<String>,
    pub entry: u64,
    pub exit: u64,
}

/// A page of a node's children (`ChildPage`).
#[derive(Debug, Serialize)]
pub struct ChildPage {
    pub offset: u32,
    pub total: u32,
    pub nodes: Vec<CallNode>,
}

/// One step of the way from the root to a node (`TraceSession.pathTo`): the node and its
/// position among its parent's children.
#[derive(Debug, Serialize)]
pub struct PathStep {
    pub id: u32,
    pub index: u32,
}

/// What to ask next (`Question`): `kind` is `ask`, `buggy` or `none`.
#[derive(Debug, Serialize)]
pub struct NextQuestion {
    pub kind: &'static str,
    pub node: Option<CallNode>,
}

enum Kind {
    Trace {
        debugger: Box<Debugger>,
    },
    Live {
        debugger: Box<LiveDebugger>,
        /// Kept so that the socket stays open; finished on close.
        recording: Option<LiveRecording>,
        socket: PathBuf,
    },
}

/// See the module documentation.
pub struct BridgeSession {
    kind: Kind,
    limits: RenderLimits,
}

fn parse_path(text: &str) -> BridgeResult<VarPath> {
    VarPath::parse(text).map_err(|e| BridgeError::Path(e.to_string()))
}

/// The cache bounds a front end gives a new session (its preferences); `None`: the core's default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bounds {
    /// The persistence bound: nodes of the tree kept in memory (`Some(0)` keeps all).
    pub resident_nodes: Option<usize>,
    /// The logic cache: rendered questions kept (live sessions).
    pub question_cache: Option<usize>,
}

impl BridgeSession {
    /// The options of a new session: methods matching `trust` (`java.*, pkg.Class.method`)
    /// are trusted from the start; the persistence bound of `bounds`.
    fn options(trust: &str, bounds: Bounds) -> DebugOptions {
        let defaults = DebugOptions::default();
        DebugOptions {
            trust: GlobSet::parse(trust),
            resident_nodes: bounds
                .resident_nodes
                .map_or(defaults.resident_nodes, DebugOptions::resident_bound),
            // The Computation Tree has no label, icon or preference for loops and iterations
            // yet: the plugin's sessions look through them (as `debug --no-loops`).
            loops: false,
            ..defaults
        }
    }

    /// A session over a trace written by `hindsight record`; methods matching `trust` are
    /// never asked about.
    pub fn open(trace: &Path, trust: &str) -> BridgeResult<BridgeSession> {
        Self::open_bounded(trace, trust, Bounds::default())
    }

    /// `open` with the cache bounds of the front end.
    pub fn open_bounded(trace: &Path, trust: &str, bounds: Bounds) -> BridgeResult<BridgeSession> {
        let debugger = Debugger::open(trace, Self::options(trust, bounds))?;
        Ok(BridgeSession {
            kind: Kind::Trace {
                debugger: Box::new(debugger),
            },
            limits: RenderLimits::default(),
        })
    }

    /// Starts listening for the agent; the first JVM that connects is recorded into `trace`
    /// and fills the session while it runs. Methods matching `trust` are never asked about.
    pub fn start_live(trace: &Path, trust: &str) -> BridgeResult<BridgeSession> {
        Self::start_live_bounded(trace, trust, Bounds::default())
    }

    /// `start_live` with the cache bounds of the front end.
    pub fn start_live_bounded(
        trace: &Path,
        trust: &str,
        bounds: Bounds,
    ) -> BridgeResult<BridgeSession> {
        let mut live_options = LiveOptions::default();
        if let Some(n) = bounds.question_cache {
            live_options.question_cache = n.max(1);
        }
        let (sink, feed) = capture::feed(capture::DEFAULT_FEED_CAPACITY);
        let live = LiveRecording::start(trace, WriterConfig::default(), sink.for_first_jvm())?;
        let socket = live.socket_path().to_path_buf();
        let debugger = LiveDebugger::new(
            feed,
            &capture::trace_path_for(trace, 0),
            Self::options(trust, bounds),
            live_options,
        )?;
        Ok(BridgeSession {
            kind: Kind::Live {
                debugger: Box::new(debugger),
                recording: Some(live),
                socket,
            },
            limits: RenderLimits::default(),
        })
    }

    /// The persistence bound the session's tree keeps (`None`: every node in memory).
    pub fn resident_nodes(&self) -> Option<usize> {
        match &self.kind {
            Kind::Trace { debugger } => debugger.session().tree().resident_nodes(),
            Kind::Live { debugger, .. } => debugger.session().tree().resident_nodes(),
        }
    }

    /// The path the agent connects to (`-javaagent:JAR=socket=PATH`); none for a finished trace.
    pub fn socket_path(&self) -> Option<&Path> {
        match &self.kind {
            Kind::Live { socket, .. } => Some(socket),
            Kind::Trace { .. } => None,
        }
    }

    /// Takes in what the recording sent since the last call (live sessions only).
    fn pump(&mut self) -> BridgeResult<()> {
        if let Kind::Live { debugger, .. } = &mut self.kind {
            debugger.pump()?;
        }
        Ok(())
    }

    fn session(&self) -> &Session {
        match &self.kind {
            Kind::Trace { debugger, .. } => debugger.session(),
            Kind::Live { debugger, .. } => debugger.session(),
        }
    }

    fn reader(&mut self) -> BridgeResult<&TraceReader> {
        match &mut self.kind {
            Kind::Trace { debugger, .. } => Ok(debugger.reader()),
            Kind::Live { debugger, .. } => debugger.reader()?.ok_or(BridgeError::NotReadable),
        }
    }

    fn node_id(&self, node: i64) -> BridgeResult<NodeId> {
        let id = u32::try_from(node).map_err(|_| BridgeError::UnknownNode(node as u64))?;
        if !self.session().tree().contains(NodeId(id)) {
            return Err(BridgeError::UnknownNode(id as u64));
        }
        Ok(NodeId(id))
    }

    fn call_node(&mut self, id: NodeId) -> BridgeResult<CallNode> {
        let tree = self.session().tree();
        let kind = tree.kind(id);
        let complete = tree.is_complete(id);
        let child_count = tree.children(id).count() as u32;
        // Trust is about the method: every call of a method trusted by an answer shows it.
        let trusted = tree
            .method(id)
            .is_some_and(|m| self.session().is_trusted_by_answer(m));
        let answer = if trusted {
            Some(Answer::Trusted.to_string())
        } else {
            self.session()
                .answers()
                .iter()
                .rev()
                .find(|(n, a)| *n == id && *a != Answer::Trusted)
                .map(|(_, a)| a.to_string())
        };
        let (entry, exit) = match self.reader().ok().map(|r| r.node(id)) {
            Some(Ok(Some(row))) => (
                row.header.entry,
                row.header.exit.unwrap_or(row.header.entry),
            ),
            _ => (0, 0),
        };
        let method = match kind {
            NodeKind::Root | NodeKind::Thread => None,
            _ => self.method_of(id)?,
        };
        let label = match kind {
            NodeKind::Root => "run".to_string(),
            NodeKind::Thread => format!("thread #{id}"),
            _ if complete => match self.question_text(id) {
                Ok(text) => text,
                Err(_) => method.clone().unwrap_or_else(|| format!("#{id}")),
            },
            _ => format!("{} (running)", method.as_deref().unwrap_or("?")),
        };
        Ok(CallNode {
            id: id.0,
            label,
            method,
            child_count,
            complete,
            answer,
            entry,
            exit,
        })
    }

    fn method_of(&mut self, id: NodeId) -> BridgeResult<Option<String>> {
        Ok(match &mut self.kind {
            Kind::Trace { debugger, .. } => debugger.method_of(id)?,
            Kind::Live { debugger, .. } => debugger.method_of(id)?,
        })
    }

    fn question_text(&mut self, id: NodeId) -> BridgeResult<String> {
        Ok(match &mut self.kind {
            Kind::Trace { debugger, .. } => debugger.question(id)?.text,
            Kind::Live { debugger, .. } => debugger.question(id)?.text,
        })
    }

    /// Children `offset..offset + limit` of `node`, in call order.
    pub fn children(&mut self, node: i64, offset: i32, limit: i32) -> BridgeResult<ChildPage> {
        self.pump()?;
        if node == 0 && self.session().tree().is_empty() {
            // A live recording before its first event: the root has no children yet.
            return Ok(ChildPage {
                offset: offset.max(0) as u32,
                total: 0,
                nodes: Vec::new(),
            });
        }
        let id = self.node_id(node)?;
        let (offset, limit) = (offset.max(0) as usize, limit.max(0) as usize);
        let all: Vec<NodeId> = self.session().tree().children(id).collect();
        let mut nodes = Vec::new();
        for &c in all.iter().skip(offset).take(limit) {
            nodes.push(self.call_node(c)?);
        }
        Ok(ChildPage {
            offset: offset as u32,
            total: all.len() as u32,
            nodes,
        })
    }

    /// The variables of `node` at `at` (its exit when negative), `expand` paths expanded.
    pub fn node_state(&mut self, node: i64, at: i64, expand: &[String]) -> BridgeResult<NodeState> {
        self.pump()?;
        let id = self.node_id(node)?;
        let expand: Vec<VarPath> = expand
            .iter()
            .map(|p| parse_path(p))
            .collect::<Result<_, _>>()?;
        let at = u64::try_from(at).ok();
        let limits = self.limits;
        Ok(node_state(self.reader()?, id, at, &expand, limits)?)
    }

    /// Every event of `node`, marked for `var` when given.
    pub fn events(&mut self, node: i64, var: Option<&str>) -> BridgeResult<EventPage> {
        self.pump()?;
        let id = self.node_id(node)?;
        let var = var.map(parse_path).transpose()?;
        let reader = self.reader()?;
        let mut page = node_events(reader, id, 0, usize::MAX, var.as_ref())?;
        page.next = None;
        Ok(page)
    }

    /// Every change of the variable at `path`.
    pub fn history(&mut self, path: &str) -> BridgeResult<History> {
        self.pump()?;
        let path = parse_path(path)?;
        let limits = self.limits;
        Ok(history(self.reader()?, &path, None, 0, None, limits)?)
    }

    /// Where the value of `path` at `at` came from.
    pub fn origin(&mut self, path: &str, at: i64) -> BridgeResult<ValueOrigin> {
        self.pump()?;
        let path = parse_path(path)?;
        let at = u64::try_from(at)
            .map_err(|_| BridgeError::Invalid(format!("timestamp {at} is negative")))?;
        let limits = self.limits;
        let no_source = |_: &str, _: &str| None;
        Ok(origin(self.reader()?, &path, at, &no_source, limits)?)
    }

    /// Answers the question about `node` (`valid`, `invalid`, `trusted`, `don't know`).
    pub fn answer(&mut self, node: i64, answer: &str) -> BridgeResult<()> {
        self.pump()?;
        let id = self.node_id(node)?;
        let answer = Answer::from_str(answer).map_err(|e| BridgeError::Invalid(e.to_string()))?;
        match &mut self.kind {
            Kind::Trace { debugger, .. } => debugger.answer(id, answer)?,
            Kind::Live { debugger, .. } => debugger.answer(id, answer)?,
        }
        Ok(())
    }

    /// Takes back the last answer.
    pub fn undo(&mut self) -> BridgeResult<()> {
        match &mut self.kind {
            Kind::Trace { debugger, .. } => debugger.undo()?,
            Kind::Live { debugger, .. } => debugger.undo()?,
        };
        Ok(())
    }

    /// The node to ask about, the buggy node, or nothing (yet).
    pub fn next_question(&mut self) -> BridgeResult<NextQuestion> {
        self.pump()?;
        let step = match &mut self.kind {
            Kind::Trace { debugger, .. } => debugger.step(),
            Kind::Live { debugger, .. } => debugger.step()?,
        };
        let (kind, node) = match step {
            Step::Ask(n) => ("ask", Some(n)),
            Step::Done(Verdict::Bug { node }) => ("buggy", Some(node)),
            Step::Done(_) | Step::Waiting => ("none", None),
        };
        let node = node.map(|n| self.call_node(n)).transpose()?;
        Ok(NextQuestion { kind, node })
    }

    /// Chooses the strategy, at any time in finished and live sessions alike; the answers
    /// given so far are kept. `p` is the coverage strategies' factor (their default when not a
    /// number).
    pub fn set_strategy(&mut self, name: &str, p: f64) -> BridgeResult<()> {
        let strategy =
            StrategyName::from_str(name).map_err(|e| BridgeError::Invalid(e.to_string()))?;
        let p = (!p.is_nan() && strategy.default_p().is_some()).then_some(p);
        self.pump()?;
        match &mut self.kind {
            Kind::Trace { debugger, .. } => debugger.set_strategy(strategy, p)?,
            Kind::Live { debugger, .. } => debugger.set_strategy(strategy, p)?,
        }
        Ok(())
    }

    /// Trusts every call of `method` (qualified name, every overload): the calls recorded so far
    /// and, in a live session, those still to come.
    pub fn trust(&mut self, method: &str) -> BridgeResult<()> {
        self.pump()?;
        match &mut self.kind {
            Kind::Trace { debugger, .. } => debugger.trust(method)?,
            Kind::Live { debugger, .. } => debugger.trust(method)?,
        };
        Ok(())
    }

    /// The way from the root to `node`: each node with its position among its parent's
    /// children, the root first, `node` last.
    pub fn path_to(&mut self, node: i64) -> BridgeResult<Vec<PathStep>> {
        self.pump()?;
        let id = self.node_id(node)?;
        Ok(self
            .session()
            .tree()
            .path_from_root(id)
            .into_iter()
            .map(|(n, index)| PathStep { id: n.0, index })
            .collect())
    }

    /// Fields or elements `offset..offset + limit` of the object or array `path` refers to at
    /// `at`, each compared with the same slot at `entry` (the Node view's lower bound).
    pub fn variable_children(
        &mut self,
        path: &str,
        entry: i64,
        at: i64,
        offset: i32,
        limit: i32,
    ) -> BridgeResult<Children> {
        self.pump()?;
        let path = parse_path(path)?;
        let ts = |t: i64, what: &str| {
            u64::try_from(t)
                .map_err(|_| BridgeError::Invalid(format!("{what} timestamp {t} is negative")))
        };
        let (entry, at) = (ts(entry, "entry")?, ts(at, "upper bound")?);
        let (offset, limit) = (offset.max(0) as u32, limit.max(0) as u32);
        let limits = self.limits;
        Ok(children_of(
            self.reader()?,
            &path,
            entry,
            at,
            offset,
            limit,
            limits,
        )?)
    }

    /// Stops accepting agents; a running program keeps being recorded until it ends.
    pub fn close(mut self) {
        if let Kind::Live { recording, .. } = &mut self.kind {
            if let Some(live) = recording.take() {
                // Waiting for the program would block the UI: finish on a thread of its own.
                let _ = std::thread::Builder::new()
                    .name("hindsight-close".into())
                    .spawn(move || {
                        let _ = live.finish();
                    });
            }
        }
    }
}
