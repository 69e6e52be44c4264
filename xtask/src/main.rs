//! `cargo xtask`: build tasks around the Eclipse plugin (see xtask/README.md).

mod bundle;
mod bundles;
mod eclipse_test;
mod jar;
mod manifest;
mod p2;
mod packages;
mod paths;
mod platform;
mod process;
mod site;
mod timestamp;
mod xvfb;

use anyhow::Result;
use clap::{Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser)]
#[command(
    name = "cargo xtask",
    about = "Build tasks for Hindsight's Eclipse plugin"
)]
struct Cli {
    #[command(subcommand)]
    task: Task,
}

#[derive(Subcommand)]
enum Task {
    /// Print the Debian packages the Eclipse tasks need, one per line
    EclipseDeps,
    /// Assemble an Eclipse 4.26 platform from Debian's packages into target/eclipse/platform
    EclipsePlatform,
    /// Build the plugin, the feature and the p2 repository target/update-site
    UpdateSite(ArtifactArgs),
    /// Install the feature into a copy of the platform and run the UI test under Xvfb
    EclipseTest {
        #[command(flatten)]
        artifacts: ArtifactArgs,
        /// Use the stand-in JNI library and agent of xtask/testdata (packaging tests only)
        #[arg(long, conflicts_with_all = ["native_lib", "agent_jar"])]
        probe_artifacts: bool,
        /// Kill the workbench after this many seconds
        #[arg(long, default_value_t = 1800)]
        timeout: u64,
    },
}

#[derive(clap::Args)]
struct ArtifactArgs {
    /// The JNI library to carry [default: target/release/libhindsight_jni.so]
    #[arg(long)]
    native_lib: Option<PathBuf>,
    /// The agent jar to carry [default: target/release/hindsight-agent.jar or the agent crate's OUT_DIR]
    #[arg(long)]
    agent_jar: Option<PathBuf>,
}

fn main() {
    let cli = Cli::parse();
    if let Err(e) = run(cli) {
        eprintln!("error: {e:#}");
        std::process::exit(1);
    }
}

fn run(cli: Cli) -> Result<()> {
    let layout = paths::Layout::from_env();
    match cli.task {
        Task::EclipseDeps => {
            for p in packages::list() {
                println!("{p}");
            }
        }
        Task::EclipsePlatform => {
            platform::ensure(&layout)?;
        }
        Task::UpdateSite(a) => {
            let artifacts = site::Artifacts::resolve(&layout, a.native_lib, a.agent_jar)?;
            site::build(&layout, &artifacts)?;
        }
        Task::EclipseTest {
            artifacts,
            probe_artifacts,
            timeout,
        } => {
            let artifacts = if probe_artifacts {
                eclipse_test::probe_artifacts(&layout)?
            } else {
                site::Artifacts::resolve(&layout, artifacts.native_lib, artifacts.agent_jar)?
            };
            eclipse_test::run(&layout, &artifacts, std::time::Duration::from_secs(timeout))?;
        }
    }
    Ok(())
}
