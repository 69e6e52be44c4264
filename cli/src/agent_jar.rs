//! The agent jar, carried inside the `hindsight` binary and written to a cache file on first
//! use, so that `hindsight` works from any directory with no flags.

use std::fs;
use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result};
use sha2::{Digest, Sha256};

/// The directory for files `hindsight` derives and can always re-create.
fn cache_dir() -> PathBuf {
    std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir)
        .join("hindsight")
}

/// The path of the agent jar on disk, writing it there if it is not yet.
///
/// The file name carries a hash of the content, so binaries of different versions never
/// share a jar, and a file that exists is complete (it is written aside and renamed).
pub fn agent_jar_path() -> Result<PathBuf> {
    let bytes = hindsight_agent::AGENT_JAR;
    let hash = Sha256::digest(bytes);
    let name = format!(
        "hindsight-agent-{:x}.jar",
        u64::from_be_bytes(hash[..8].try_into().unwrap())
    );
    let dir = cache_dir();
    let path = dir.join(&name);
    if path.is_file() {
        return Ok(path);
    }
    fs::create_dir_all(&dir)
        .with_context(|| format!("creating the cache directory {}", dir.display()))?;
    let mut tmp = tempfile::NamedTempFile::new_in(&dir)
        .with_context(|| format!("writing the agent jar into {}", dir.display()))?;
    tmp.write_all(bytes).context("writing the agent jar")?;
    tmp.persist(&path)
        .with_context(|| format!("writing the agent jar to {}", path.display()))?;
    Ok(path)
}
