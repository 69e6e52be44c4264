//! The errors of the queries: each says what was asked, what is wrong and what to do instead.

use crate::ids::Timestamp;
use crate::omniscient::OmniError;
use crate::trace::store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum QueryError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Omni(#[from] OmniError),
    /// A query name the catalogue does not have.
    #[error("there is no query `{name}`; the queries are: {known}")]
    UnknownQuery { name: String, known: String },
    /// Arguments a query cannot use (missing, too many, malformed).
    #[error("{query}: {problem} (usage: hindsight query TRACE {usage})")]
    Usage {
        query: String,
        problem: String,
        usage: String,
    },
    /// Input that does not parse (a value, a `--where` expression, SQL).
    #[error("{what} `{text}` does not parse: {problem}")]
    Syntax {
        what: &'static str,
        text: String,
        problem: String,
    },
    #[error("there is no event at timestamp {ts}: this trace's events run from 1 to {last}")]
    NoEvent { ts: Timestamp, last: Timestamp },
    #[error("there is no object #{0} in this trace (object ids appear in values as Class#ID)")]
    NoObject(u64),
    #[error("{0}")]
    NotFound(String),
    /// An SQL statement that would change the trace.
    #[error("the trace is read only: `hindsight sql` runs statements that read (SELECT, WITH ... SELECT, EXPLAIN), and `{0}` would change the trace")]
    Writes(String),
    #[error("SQL: {0}")]
    Sql(String),
    /// A statement SQLite refuses before running it (syntax, an unknown table or column).
    #[error("SQL `{text}`: {problem} (docs/trace-schema.md lists the relations and columns)")]
    BadSql { text: String, problem: String },
    #[error("writing the output: {0}")]
    Output(#[from] std::io::Error),
    /// The scan was stopped by its caller.
    #[error("stopped")]
    Stopped,
}

impl QueryError {
    /// Whether the input itself is wrong (an unknown query name, malformed arguments, a value,
    /// expression or statement that does not parse, SQL that writes), as opposed to input
    /// naming something the trace does not have, or a failure.
    pub fn is_usage(&self) -> bool {
        matches!(
            self,
            QueryError::UnknownQuery { .. }
                | QueryError::Usage { .. }
                | QueryError::Syntax { .. }
                | QueryError::Writes(_)
                | QueryError::BadSql { .. }
                | QueryError::Omni(OmniError::Syntax(_))
        )
    }
}

pub type QueryResult<T> = Result<T, QueryError>;

impl From<rusqlite::Error> for QueryError {
    fn from(e: rusqlite::Error) -> Self {
        QueryError::Sql(e.to_string())
    }
}
