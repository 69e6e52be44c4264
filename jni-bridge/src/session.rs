//! One debugging session as the plugin sees it: the core's [`Debugger`], over a finished trace or
//! over a recording in progress, and for a launch the recording itself. Every query returns one
//! of the core's serde values (as `hindsight ... --json` prints them, and the core's `TreeNode`,
//! `ChildPage` and `NextQuestion` for the Computation Tree), which the export turns into a JSON
//! string. Nothing here decides: it converts the plugin's arguments and maps errors.

use std::path::{Path, PathBuf};
use std::str::FromStr;

use hindsight_core::capture::{self, JvmTrace, LiveRecording};
use hindsight_core::debugger::{
    ChildPage, DebugError, DebugOptions, Debugger, FrameNode, NextQuestion, PathStep,
    RecordingStatus,
};
use hindsight_core::glob::GlobSet;
use hindsight_core::ids::NodeId;
use hindsight_core::omniscient::{
    children_of, history, origin, Children, EventPage, History, NodeState, OmniError, RenderLimits,
    ValueOrigin, VarPath,
};
use hindsight_core::query::{self, catalogue, QueryError, Request};
use hindsight_core::session::Answer;
use hindsight_core::strategy::StrategyName;
use hindsight_core::trace::store::{TraceReader, WriterConfig};
use hindsight_core::tree::ForestOptions;

use crate::table::{self, QueryTable};

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
    #[error("{0}")]
    Invalid(String),
    #[error(transparent)]
    Query(#[from] QueryError),
}

pub type BridgeResult<T> = Result<T, BridgeError>;

/// Rows an SQL statement gives the plugin when it asks for no limit.
pub const SQL_ROWS: usize = 1000;

/// A built-in query as the query bar lists it.
#[derive(Clone, Debug, serde::Serialize)]
pub struct QueryName {
    pub name: String,
    pub usage: String,
}

/// Words as a shell splits them: blanks separate, single or double quotes group.
fn words(text: &str) -> BridgeResult<Vec<String>> {
    let mut out = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    for c in text.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, c) if c.is_whitespace() => out.extend(word.take()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    if let Some(q) = quote {
        return Err(BridgeError::Invalid(format!(
            "the arguments `{text}` have an unclosed {q}"
        )));
    }
    out.extend(word);
    Ok(out)
}

/// A built-in query's request from its name and the arguments as typed after it on the command
/// line (`hindsight query TRACE NAME ARGS`): positional arguments and the options `--from`,
/// `--to`, `--at`, `--caller`, `--where`, `--depth`, `--limit` (also as `--option=value`).
pub fn request(name: &str, arguments: &str) -> BridgeResult<Request> {
    let mut req = Request {
        name: name.trim().to_string(),
        ..Request::default()
    };
    let mut it = words(arguments)?.into_iter();
    while let Some(w) = it.next() {
        let Some(option) = w.strip_prefix("--") else {
            req.args.push(w);
            continue;
        };
        let (option, inline) = match option.split_once('=') {
            Some((o, v)) => (o.to_string(), Some(v.to_string())),
            None => (option.to_string(), None),
        };
        let value = match inline.or_else(|| it.next()) {
            Some(v) => v,
            None => {
                return Err(BridgeError::Invalid(format!(
                    "{name}: --{option} needs a value (usage: {})",
                    catalogue::usage(name)
                )))
            }
        };
        let number = |v: &str| {
            v.parse::<u64>().map_err(|_| {
                BridgeError::Invalid(format!("{name}: --{option} takes a number, not `{v}`"))
            })
        };
        match option.as_str() {
            "from" => req.from = Some(number(&value)?),
            "to" => req.to = Some(number(&value)?),
            "at" => req.at = Some(number(&value)?),
            "depth" => req.depth = Some(number(&value)? as u32),
            "limit" => req.limit = Some(number(&value)? as usize),
            "caller" => req.caller = Some(value),
            "where" => req.condition = Some(value),
            _ => {
                return Err(BridgeError::Invalid(format!(
                    "{name}: unknown option --{option} (usage: {})",
                    catalogue::usage(name)
                )))
            }
        }
    }
    Ok(req)
}

/// See the module documentation.
pub struct BridgeSession {
    debugger: Debugger,
    /// A launch's recording, kept so that the socket stays open; finished on close.
    recording: Option<LiveRecording>,
    /// The path the agent connects to, for a launch.
    socket: Option<PathBuf>,
    /// The trace file (SQL opens its own read-only connection to it).
    trace: PathBuf,
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

/// How a front end shapes a new session's execution tree (its preferences), with the command
/// line's defaults (`hindsight debug`: balanced, loops asked about, chains of any length).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeOptions {
    /// Ask about loops and their iterations (`false`: `--no-loops`).
    pub loops: bool,
    /// The execution forest: `balance` false is `--no-balance`, `max_chain` is `--max-chain`.
    pub forest: ForestOptions,
}

impl TreeOptions {
    /// The plain tree of calls (`--no-loops --no-balance`).
    pub const PLAIN: TreeOptions = TreeOptions {
        loops: false,
        forest: ForestOptions::OFF,
    };

    /// The options a front end's settings give: a `max_chain` below 2 (0 in the preferences)
    /// sets no bound, as a `debug` without `--max-chain` (which takes at least 2).
    pub fn new(balance: bool, loops: bool, max_chain: i64) -> TreeOptions {
        TreeOptions {
            loops,
            forest: ForestOptions {
                balance,
                max_chain: u32::try_from(max_chain)
                    .ok()
                    .filter(|&n| n >= 2)
                    .unwrap_or(u32::MAX),
            },
        }
    }
}

impl Default for TreeOptions {
    /// The core's (and the command line's) defaults.
    fn default() -> Self {
        let core = DebugOptions::default();
        TreeOptions {
            loops: core.loops,
            forest: core.forest,
        }
    }
}

impl BridgeSession {
    /// The options of a new session: methods matching `trust` (`java.*, pkg.Class.method`)
    /// are trusted from the start; the cache bounds of `bounds`; the tree shaped by `tree`.
    fn options(trust: &str, bounds: Bounds, tree: TreeOptions) -> DebugOptions {
        let defaults = DebugOptions::default();
        DebugOptions {
            trust: GlobSet::parse(trust),
            resident_nodes: bounds
                .resident_nodes
                .map_or(defaults.resident_nodes, DebugOptions::resident_bound),
            question_cache: bounds
                .question_cache
                .map_or(defaults.question_cache, |n| n.max(1)),
            loops: tree.loops,
            forest: tree.forest,
            ..defaults
        }
    }

    /// A session over a trace written by `hindsight record`, its tree shaped as `hindsight
    /// debug` shapes it; methods matching `trust` are never asked about.
    pub fn open(trace: &Path, trust: &str) -> BridgeResult<BridgeSession> {
        Self::open_with(trace, trust, Bounds::default(), TreeOptions::default())
    }

    /// `open` with the cache bounds and the tree options of the front end.
    pub fn open_with(
        trace: &Path,
        trust: &str,
        bounds: Bounds,
        tree: TreeOptions,
    ) -> BridgeResult<BridgeSession> {
        Ok(BridgeSession {
            debugger: Debugger::open(trace, Self::options(trust, bounds, tree))?,
            recording: None,
            socket: None,
            trace: trace.to_path_buf(),
            limits: RenderLimits::default(),
        })
    }

    /// Starts listening for the agent; the first JVM that connects is recorded into `trace`
    /// and fills the session while it runs, its tree shaped as `hindsight debug` shapes it.
    /// Methods matching `trust` are never asked about.
    pub fn start_live(trace: &Path, trust: &str) -> BridgeResult<BridgeSession> {
        Self::start_live_with(trace, trust, Bounds::default(), TreeOptions::default())
    }

    /// `start_live` with the cache bounds and the tree options of the front end.
    pub fn start_live_with(
        trace: &Path,
        trust: &str,
        bounds: Bounds,
        tree: TreeOptions,
    ) -> BridgeResult<BridgeSession> {
        let (sink, feed) = capture::feed(capture::DEFAULT_FEED_CAPACITY);
        let live = LiveRecording::start(trace, WriterConfig::default(), sink.for_first_jvm())?;
        let socket = live.socket_path().to_path_buf();
        let first = capture::trace_path_for(trace, 0);
        let debugger = Debugger::live(feed, &first, Self::options(trust, bounds, tree))?;
        Ok(BridgeSession {
            debugger,
            recording: Some(live),
            socket: Some(socket),
            trace: first,
            limits: RenderLimits::default(),
        })
    }

    /// The persistence bound the session's tree keeps (`None`: every node in memory).
    pub fn resident_nodes(&self) -> Option<usize> {
        self.debugger.session().tree().resident_nodes()
    }

    /// The path the agent connects to (`-javaagent:JAR=socket=PATH`); none for a finished trace.
    pub fn socket_path(&self) -> Option<&Path> {
        self.socket.as_deref()
    }

    /// The trace, taking in first what the recording sent since the last call.
    fn reader(&mut self) -> BridgeResult<&TraceReader> {
        self.debugger.pump()?;
        Ok(self.debugger.reader()?)
    }

    fn node_id(node: i64) -> BridgeResult<NodeId> {
        u32::try_from(node)
            .map(NodeId)
            .map_err(|_| BridgeError::UnknownNode(node as u64))
    }

    /// Children `offset..offset + limit` of `node`, in call order.
    pub fn children(&mut self, node: i64, offset: i32, limit: i32) -> BridgeResult<ChildPage> {
        let (offset, limit) = (offset.max(0) as usize, limit.max(0) as usize);
        Ok(self
            .debugger
            .children(Self::node_id(node)?, offset, limit)?)
    }

    /// The variables of `node` at `at` (its exit when negative), `expand` paths expanded: a
    /// call's, a loop's or an iteration's frame, a collapsed or projected node's chain
    /// (`Debugger::node_state`).
    pub fn node_state(&mut self, node: i64, at: i64, expand: &[String]) -> BridgeResult<NodeState> {
        let id = Self::node_id(node)?;
        let expand: Vec<VarPath> = expand
            .iter()
            .map(|p| parse_path(p))
            .collect::<Result<_, _>>()?;
        let at = u64::try_from(at).ok();
        Ok(self.debugger.node_state(id, at, &expand)?)
    }

    /// Up to `limit` events of `node` from timestamp `from`, marked for `var` when given; the
    /// page's `next` is the `from` of the next page.
    pub fn events(
        &mut self,
        node: i64,
        var: Option<&str>,
        from: i64,
        limit: i32,
    ) -> BridgeResult<EventPage> {
        let id = Self::node_id(node)?;
        let var = var.map(parse_path).transpose()?;
        let (from, limit) = (from.max(0) as u64, limit.max(0) as usize);
        Ok(self.debugger.node_events(id, from, limit, var.as_ref())?)
    }

    /// Changes `offset..offset + limit` of the variable at `path` (all of them when `limit`
    /// is negative), with the count of all.
    pub fn history(&mut self, path: &str, offset: i32, limit: i32) -> BridgeResult<History> {
        let path = parse_path(path)?;
        let limits = self.limits;
        let limit = usize::try_from(limit).ok();
        let offset = offset.max(0) as usize;
        Ok(history(self.reader()?, &path, None, offset, limit, limits)?)
    }

    /// Where the recording stands: recording with its counts, then the trace's ending.
    pub fn status(&mut self) -> BridgeResult<RecordingStatus> {
        Ok(self.debugger.status()?)
    }

    /// Every JVM the launch's recording took so far (none over a finished trace).
    pub fn jvms(&self) -> Vec<JvmTrace> {
        self.recording
            .as_ref()
            .map(LiveRecording::jvms)
            .unwrap_or_default()
    }

    /// The running call behind frame `index` of a suspended thread's stack (innermost first).
    pub fn frame_node(
        &mut self,
        java_thread: i64,
        frames: &[String],
        index: i32,
    ) -> BridgeResult<Option<FrameNode>> {
        let index = usize::try_from(index)
            .map_err(|_| BridgeError::Invalid(format!("frame index {index} is negative")))?;
        Ok(self
            .debugger
            .frame_node(java_thread.max(0) as u64, frames, index)?)
    }

    /// Where the value of `path` at `at` came from.
    pub fn origin(&mut self, path: &str, at: i64) -> BridgeResult<ValueOrigin> {
        let path = parse_path(path)?;
        let at = u64::try_from(at)
            .map_err(|_| BridgeError::Invalid(format!("timestamp {at} is negative")))?;
        let limits = self.limits;
        let no_source = |_: &str, _: &str| None;
        Ok(origin(self.reader()?, &path, at, &no_source, limits)?)
    }

    /// Answers the question about `node` (`valid`, `invalid`, `trusted`, `don't know`).
    pub fn answer(&mut self, node: i64, answer: &str) -> BridgeResult<()> {
        let id = Self::node_id(node)?;
        let answer = Answer::from_str(answer).map_err(|e| BridgeError::Invalid(e.to_string()))?;
        Ok(self.debugger.answer(id, answer)?)
    }

    /// Takes back the last answer.
    pub fn undo(&mut self) -> BridgeResult<()> {
        self.debugger.undo()?;
        Ok(())
    }

    /// The node to ask about, the buggy node, or nothing (yet).
    pub fn next_question(&mut self) -> BridgeResult<NextQuestion> {
        Ok(self.debugger.next_question()?)
    }

    /// Chooses the strategy, at any time in finished and live sessions alike; the answers
    /// given so far are kept. `p` is the coverage strategies' factor (their default when not a
    /// number).
    pub fn set_strategy(&mut self, name: &str, p: f64) -> BridgeResult<()> {
        let strategy =
            StrategyName::from_str(name).map_err(|e| BridgeError::Invalid(e.to_string()))?;
        let p = (!p.is_nan() && strategy.default_p().is_some()).then_some(p);
        self.debugger.pump()?;
        Ok(self.debugger.set_strategy(strategy, p)?)
    }

    /// Trusts every call of `method` (qualified name, every overload): the calls recorded so far
    /// and, in a live session, those still to come.
    pub fn trust(&mut self, method: &str) -> BridgeResult<()> {
        self.debugger.trust(method)?;
        Ok(())
    }

    /// The way from the root to `node`: each node with its position among its parent's
    /// children, the root first, `node` last.
    pub fn path_to(&mut self, node: i64) -> BridgeResult<Vec<PathStep>> {
        Ok(self.debugger.path_to(Self::node_id(node)?)?)
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

    /// The built-in queries (the core's catalogue) with their usage lines, for the query bar.
    pub fn queries() -> Vec<QueryName> {
        query::NAMES
            .iter()
            .map(|name| QueryName {
                name: (*name).to_string(),
                usage: catalogue::usage(name).to_string(),
            })
            .collect()
    }

    /// The built-in query `name` with `arguments` as typed after the name on the command line
    /// (`MergeSort.merge --caller MergeSort.sort`, quotes group words), as a table.
    pub fn query(&mut self, name: &str, arguments: &str) -> BridgeResult<QueryTable> {
        let request = request(name, arguments)?;
        let limit = request.limit;
        let text = serde_json::to_string(&request)
            .map_err(|e| BridgeError::Invalid(format!("writing the request: {e}")))?;
        let answer = query::run_json(self.reader()?, &text)?;
        Ok(table::from_answer(
            &answer,
            limit.or(Some(catalogue::DEFAULT_LIMIT)),
        ))
    }

    /// A read-only SQL statement over the trace (`hindsight sql`), at most `limit` rows, as a
    /// table. A statement that writes is refused before it runs.
    pub fn sql(&mut self, sql: &str, limit: i32) -> BridgeResult<QueryTable> {
        self.debugger.pump()?;
        let limit = usize::try_from(limit).unwrap_or(SQL_ROWS).max(1);
        let result = query::sql::run_json(&self.trace, sql, limit)?;
        Ok(table::from_sql(&result))
    }

    /// Stops accepting agents; a running program keeps being recorded until it ends.
    pub fn close(mut self) {
        if let Some(live) = self.recording.take() {
            // Waiting for the program would block the UI: finish on a thread of its own.
            let _ = std::thread::Builder::new()
                .name("hindsight-close".into())
                .spawn(move || {
                    let _ = live.finish();
                });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tree_options_take_the_command_line_defaults_and_bound_chains_from_two() {
        let defaults = TreeOptions::default();
        assert!(defaults.loops && defaults.forest.balance, "{defaults:?}");
        assert_eq!(defaults.forest.max_chain, u32::MAX);
        assert_eq!(TreeOptions::new(true, true, 0), defaults);
        for no_bound in [0, 1, -3, i64::from(u32::MAX) + 1] {
            let o = TreeOptions::new(false, false, no_bound);
            assert_eq!(o.forest.max_chain, u32::MAX, "{no_bound}");
        }
        let o = TreeOptions::new(false, true, 2);
        assert_eq!(
            (o.forest.balance, o.loops, o.forest.max_chain),
            (false, true, 2)
        );
        let options = BridgeSession::options("", Bounds::default(), TreeOptions::PLAIN);
        assert!(!options.loops && !options.forest.balance);
    }
}
