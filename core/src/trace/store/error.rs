//! Errors of the trace store, always naming the file.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{path}: not a Hindsight trace ({detail})")]
    NotATrace { path: PathBuf, detail: String },
    #[error("{path}: trace format version {found}, this Hindsight reads versions {oldest} to {supported}; {}", version_hint(*found, *supported))]
    WrongVersion {
        path: PathBuf,
        found: i64,
        oldest: i64,
        supported: i64,
    },
    #[error("{path}: the trace file is truncated or corrupt ({detail}); record the run again")]
    Corrupt { path: PathBuf, detail: String },
    #[error("{path}: {action} failed: {source}")]
    Sqlite {
        path: PathBuf,
        action: &'static str,
        #[source]
        source: rusqlite::Error,
    },
    /// The thread storing commits stopped after an error, returned before.
    #[error("{path}: the store stopped after an earlier error")]
    Stopped { path: PathBuf },
    #[error("{path}: {action} failed: {source}")]
    Io {
        path: PathBuf,
        action: &'static str,
        #[source]
        source: std::io::Error,
    },
}

impl StoreError {
    /// Wraps an SQLite error, recognising the ones that mean a damaged file.
    pub(crate) fn sqlite(
        path: &std::path::Path,
        action: &'static str,
        source: rusqlite::Error,
    ) -> StoreError {
        use rusqlite::ErrorCode;
        let path = path.to_path_buf();
        match source.sqlite_error_code() {
            Some(ErrorCode::NotADatabase) => StoreError::NotATrace {
                path,
                detail: "not an SQLite database".into(),
            },
            Some(ErrorCode::DatabaseCorrupt) => StoreError::Corrupt {
                path,
                detail: source.to_string(),
            },
            _ => StoreError::Sqlite {
                path,
                action,
                source,
            },
        }
    }
}

pub type StoreResult<T> = Result<T, StoreError>;

/// What to do about a trace of another format version.
fn version_hint(found: i64, supported: i64) -> &'static str {
    if found < supported {
        "the trace was written by an older Hindsight: record the run again with this one"
    } else {
        "the trace was written by a newer Hindsight: open it with that version"
    }
}
