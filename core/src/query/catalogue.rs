//! The built-in queries by name, as the command line and the Eclipse plugin ask them: a name,
//! its positional arguments and options ([`Request`]); the answer as a serde value
//! ([`Answer`]). JavaTA's names for each are in docs/cli.md.

use serde::{Deserialize, Serialize};

use super::calls::{calls, CallsFound, CallsQuery};
use super::chain::{
    call_chain, pre_event_called_methods, where_event, where_exception_is_thrown, CallChain,
    PreEventCalls, UncaughtExceptions, Where,
};
use super::error::{QueryError, QueryResult};
use super::exceptions::{exceptions, threads, Exceptions, Threads};
use super::executed::{executed, Executed};
use super::literal::parse_where;
use super::objects::{field_history, last_write, object_state, LastWrite, ObjectState};
use super::scan::{ProgressFn, Span};
use super::tree::{call_tree, CallTree};
use super::values::{values, ValueHolders};
use crate::ids::{NodeId, Timestamp};
use crate::omniscient::History;
use crate::trace::store::TraceReader;

/// The names of the built-in queries.
pub const NAMES: &[&str] = &[
    "call-chain",
    "where",
    "where-exception-is-thrown",
    "object-state",
    "field-history",
    "pre-event-called-methods",
    "call-tree",
    "executed",
    "calls",
    "last-write",
    "values",
    "exceptions",
    "threads",
];

/// Whether a query reads the whole history (or the `--from/--to` span): those report their
/// progress; the others answer from indexes.
pub fn scans(name: &str) -> bool {
    matches!(name, "executed" | "calls" | "values" | "exceptions")
}

/// A query as asked: its name, positional arguments and options.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Request {
    pub name: String,
    pub args: Vec<String>,
    /// The history subset (section 4.2 of the paper), inclusive.
    pub from: Option<Timestamp>,
    pub to: Option<Timestamp>,
    /// The event a state is asked at (`object-state`, `last-write`).
    pub at: Option<Timestamp>,
    /// `calls`: only calls made by this method.
    pub caller: Option<String>,
    /// `calls`: conditions over the arguments, `this` and the result.
    #[serde(rename = "where")]
    pub condition: Option<String>,
    /// `call-tree`: levels below the call (default 2).
    pub depth: Option<u32>,
    /// Most items listed (default 100); counts cover all of them.
    pub limit: Option<usize>,
}

/// The answer of a built-in query.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Answer {
    CallChain(CallChain),
    Where(Where),
    Uncaught(UncaughtExceptions),
    ObjectState(ObjectState),
    History(History),
    PreEvent(PreEventCalls),
    CallTree(CallTree),
    Executed(Executed),
    Calls(CallsFound),
    LastWrite(LastWrite),
    Values(ValueHolders),
    Exceptions(Exceptions),
    Threads(Threads),
}

/// The usage line of each query.
pub fn usage(name: &str) -> &'static str {
    match name {
        "call-chain" => "call-chain EVENT",
        "where" => "where EVENT",
        "where-exception-is-thrown" => "where-exception-is-thrown [THREAD]",
        "object-state" => "object-state OBJECT [--at EVENT]",
        "field-history" => "field-history OBJECT|CLASS FIELD [--from EVENT --to EVENT]",
        "pre-event-called-methods" => "pre-event-called-methods EVENT",
        "call-tree" => "call-tree CALL [--depth N]",
        "executed" => "executed FILE:LINE [--from EVENT --to EVENT]",
        "calls" => "calls METHOD [--caller METHOD] [--where 'arg0 == null'] [--from --to]",
        "last-write" => "last-write PATH [--at EVENT]",
        "values" => "values VALUE [--from EVENT --to EVENT]",
        "exceptions" => "exceptions [--from EVENT --to EVENT]",
        "threads" => "threads",
        _ => "NAME ARGS",
    }
}

pub const DEFAULT_LIMIT: usize = 100;

fn usage_error(name: &str, problem: impl Into<String>) -> QueryError {
    QueryError::Usage {
        query: name.into(),
        problem: problem.into(),
        usage: usage(name).into(),
    }
}

impl Request {
    fn arity(&self, min: usize, max: usize) -> QueryResult<()> {
        let n = self.args.len();
        if n < min {
            return Err(usage_error(&self.name, "missing argument"));
        }
        if n > max {
            return Err(usage_error(
                &self.name,
                format!("unexpected argument `{}`", self.args[max]),
            ));
        }
        Ok(())
    }

    fn number<T: std::str::FromStr>(&self, i: usize, what: &str) -> QueryResult<T> {
        let text = &self.args[i];
        text.trim().parse().map_err(|_| {
            usage_error(
                &self.name,
                format!("`{text}` is not {what} (a number: `hindsight events` and the queries show them)"),
            )
        })
    }

    fn span(&self) -> Span {
        Span::new(self.from, self.to)
    }

    /// Refuses options the query does not use, so that none is silently ignored.
    fn only(&self, allowed: &[&str]) -> QueryResult<()> {
        let given = [
            ("--from", self.from.is_some()),
            ("--to", self.to.is_some()),
            ("--at", self.at.is_some()),
            ("--caller", self.caller.is_some()),
            ("--where", self.condition.is_some()),
            ("--depth", self.depth.is_some()),
        ];
        for (option, set) in given {
            if set && !allowed.contains(&option) {
                return Err(usage_error(
                    &self.name,
                    format!("{option} does not apply to this query"),
                ));
            }
        }
        Ok(())
    }
}

/// Runs a built-in query. `progress` hears how far a scan has come (the queries that
/// [`scans`]).
pub fn run(
    reader: &TraceReader,
    req: &Request,
    progress: Option<ProgressFn<'_>>,
) -> QueryResult<Answer> {
    let limit = req.limit.unwrap_or(DEFAULT_LIMIT);
    let name = req.name.as_str();
    Ok(match name {
        "call-chain" => {
            req.arity(1, 1)?;
            req.only(&[])?;
            Answer::CallChain(call_chain(reader, req.number(0, "an event")?, limit)?)
        }
        "where" => {
            req.arity(1, 1)?;
            req.only(&[])?;
            Answer::Where(where_event(reader, req.number(0, "an event")?)?)
        }
        "where-exception-is-thrown" => {
            req.arity(0, 1)?;
            req.only(&[])?;
            Answer::Uncaught(where_exception_is_thrown(
                reader,
                req.args.first().map(String::as_str),
                limit,
            )?)
        }
        "object-state" => {
            req.arity(1, 1)?;
            req.only(&["--at"])?;
            Answer::ObjectState(object_state(reader, &req.args[0], req.at, limit)?)
        }
        "field-history" => {
            req.arity(2, 2)?;
            req.only(&["--from", "--to"])?;
            Answer::History(field_history(
                reader,
                &req.args[0],
                &req.args[1],
                req.span(),
                0,
                Some(limit),
            )?)
        }
        "pre-event-called-methods" => {
            req.arity(1, 1)?;
            req.only(&[])?;
            Answer::PreEvent(pre_event_called_methods(
                reader,
                req.number(0, "an event")?,
                limit,
            )?)
        }
        "call-tree" => {
            req.arity(1, 1)?;
            req.only(&["--depth"])?;
            let node = NodeId(req.number(0, "a call (node)")?);
            Answer::CallTree(call_tree(reader, node, req.depth.unwrap_or(2), limit)?)
        }
        "executed" => {
            req.arity(1, 1)?;
            req.only(&["--from", "--to"])?;
            Answer::Executed(executed(reader, &req.args[0], req.span(), limit, progress)?)
        }
        "calls" => {
            req.arity(1, 1)?;
            req.only(&["--from", "--to", "--caller", "--where"])?;
            let conditions = match &req.condition {
                Some(c) => parse_where(c)?,
                None => Vec::new(),
            };
            Answer::Calls(calls(
                reader,
                &CallsQuery {
                    method: &req.args[0],
                    caller: req.caller.as_deref(),
                    conditions: &conditions,
                    span: req.span(),
                    limit,
                },
                progress,
            )?)
        }
        "last-write" => {
            req.arity(1, 1)?;
            req.only(&["--at"])?;
            Answer::LastWrite(last_write(reader, &req.args[0], req.at)?)
        }
        "values" => {
            req.arity(1, 1)?;
            req.only(&["--from", "--to"])?;
            Answer::Values(values(reader, &req.args[0], req.span(), limit, progress)?)
        }
        "exceptions" => {
            req.arity(0, 0)?;
            req.only(&["--from", "--to"])?;
            Answer::Exceptions(exceptions(reader, req.span(), limit, progress)?)
        }
        "threads" => {
            req.arity(0, 0)?;
            req.only(&[])?;
            Answer::Threads(threads(reader)?)
        }
        _ => {
            return Err(QueryError::UnknownQuery {
                name: req.name.clone(),
                known: NAMES.join(", "),
            })
        }
    })
}

/// The entry point for front ends that speak JSON (the JNI bridge): a [`Request`] as JSON in,
/// the answer as a JSON value out.
pub fn run_json(reader: &TraceReader, request: &str) -> QueryResult<serde_json::Value> {
    let req: Request = serde_json::from_str(request).map_err(|e| QueryError::Syntax {
        what: "query request",
        text: request.into(),
        problem: e.to_string(),
    })?;
    let answer = run(reader, &req, None)?;
    serde_json::to_value(answer).map_err(|e| QueryError::Sql(e.to_string()))
}
