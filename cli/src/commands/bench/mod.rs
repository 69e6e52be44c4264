//! `hindsight bench`: the strategy benchmark over a mutant corpus, the reference oracle on
//! bytecode mutants of real libraries, and the speed of a session.
//! These modules compile, record and schedule; the sessions and the tables are in
//! `hindsight_core::evaluation`.

mod corpus;
mod forest;
mod library;
mod session;
mod strategies;

use anyhow::Result;
use hindsight_core::strategy::StrategyName;

/// Measure the strategies: questions on a mutant corpus, and time to choose a question.
#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: BenchCommand,
}

#[derive(clap::Subcommand)]
enum BenchCommand {
    Strategies(strategies::StrategiesArgs),
    Session(session::SessionArgs),
    Forest(forest::ForestArgs),
    Library(library::LibraryArgs),
}

fn parse_strategy(s: &str) -> Result<StrategyName, String> {
    s.parse::<StrategyName>().map_err(|e| e.to_string())
}

fn strategies_or_all(given: &[StrategyName]) -> Vec<StrategyName> {
    if given.is_empty() {
        StrategyName::ALL.to_vec()
    } else {
        given.to_vec()
    }
}

pub fn run(args: Args) -> Result<u8> {
    match args.command {
        BenchCommand::Strategies(a) => strategies::run(a),
        BenchCommand::Session(a) => session::run(a),
        BenchCommand::Forest(a) => forest::run(a),
        BenchCommand::Library(a) => library::run(a),
    }
}

/// The directory a benchmark works in: `dir` (created), or a temporary one named `prefix...`,
/// removed when the returned guard drops.
pub(super) fn work_dir(
    dir: Option<&std::path::Path>,
    prefix: &str,
) -> Result<(std::path::PathBuf, Option<tempfile::TempDir>)> {
    use anyhow::Context;
    Ok(match dir {
        Some(d) => {
            std::fs::create_dir_all(d).with_context(|| format!("creating {}", d.display()))?;
            (d.to_path_buf(), None)
        }
        None => {
            let t = tempfile::Builder::new().prefix(prefix).tempdir()?;
            (t.path().to_path_buf(), Some(t))
        }
    })
}
