//! `cargo xtask update-site`: the plugin bundle (with the native library and the agent jar), the
//! feature, and a categorised p2 repository in `target/update-site/`.

use crate::bundle::{self, Built, BundleSource};
use crate::p2::{Source, Tool};
use crate::paths::Layout;
use crate::platform;
use crate::timestamp;
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Where the native library goes inside the plugin jar (see `Bundle-NativeCode`). Another
/// platform adds its library under `native/<os>-<arch>/` and a clause to the header.
pub const NATIVE_ENTRY: &str = "native/linux-x86_64/libhindsight_jni.so";
/// Where the agent jar goes inside the plugin jar (`hindsight.eclipse.launch.AgentJar`).
pub const AGENT_ENTRY: &str = "agent/hindsight-agent.jar";
pub const FEATURE: &str = "hindsight.eclipse.feature";

/// The artifacts the plugin carries.
#[derive(Debug)]
pub struct Artifacts {
    pub native_lib: PathBuf,
    pub agent_jar: PathBuf,
}

impl Artifacts {
    /// The given paths, or the release build's outputs; fails naming what is missing.
    pub fn resolve(
        layout: &Layout,
        native_lib: Option<PathBuf>,
        agent_jar: Option<PathBuf>,
    ) -> Result<Self> {
        let native_lib =
            native_lib.unwrap_or_else(|| layout.target.join("release/libhindsight_jni.so"));
        if !native_lib.is_file() {
            bail!(
                "the JNI library {} does not exist: build the jni-bridge crate first \
                 (cargo build --release in jni-bridge/; its cdylib must be named hindsight_jni) \
                 or pass --native-lib PATH",
                native_lib.display()
            );
        }
        let agent_jar = match agent_jar {
            Some(p) => p,
            None => default_agent_jar(layout),
        };
        if !agent_jar.is_file() {
            bail!(
                "the agent jar {} does not exist: build the agent first \
                 (cargo build --release -p hindsight-agent) or pass --agent-jar PATH",
                agent_jar.display()
            );
        }
        Ok(Artifacts {
            native_lib,
            agent_jar,
        })
    }
}

/// `target/release/hindsight-agent.jar`, else the newest jar the agent crate's build script wrote
/// (`target/{release,debug}/build/hindsight-agent-*/out/hindsight-agent.jar`).
fn default_agent_jar(layout: &Layout) -> PathBuf {
    let direct = layout.target.join("release/hindsight-agent.jar");
    if direct.is_file() {
        return direct;
    }
    let newest = ["release", "debug"]
        .iter()
        .filter_map(|profile| std::fs::read_dir(layout.target.join(profile).join("build")).ok())
        .flat_map(|dirs| dirs.filter_map(|e| e.ok().map(|e| e.path())))
        .filter(|d| {
            d.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("hindsight-agent-"))
        })
        .map(|d| d.join("out/hindsight-agent.jar"))
        .filter(|j| j.is_file())
        .max_by_key(|j| j.metadata().and_then(|m| m.modified()).ok());
    newest.unwrap_or(direct)
}

/// The built site.
pub struct Site {
    pub repo: PathBuf,
    pub plugin: Built,
    pub qualifier: String,
}

/// Builds plugin, feature and repository.
pub fn build(layout: &Layout, artifacts: &Artifacts) -> Result<Site> {
    let start = Instant::now();
    let platform = platform::ensure(layout)?;
    let qualifier = timestamp::qualifier_now();
    let work = layout.site_build();
    if work.exists() {
        std::fs::remove_dir_all(&work)
            .with_context(|| format!("cannot remove {}", work.display()))?;
    }
    let source = work.join("source");

    println!(
        "update-site: compiling hindsight.eclipse against {}",
        platform.display()
    );
    let plugin_dir = layout.root.join("eclipse-plugin");
    let plugin = bundle::build(
        &BundleSource {
            dir: &plugin_dir,
            extra: vec![
                (NATIVE_ENTRY.into(), artifacts.native_lib.clone()),
                (AGENT_ENTRY.into(), artifacts.agent_jar.clone()),
            ],
        },
        &bundle::plugin_jars(&platform)?,
        &qualifier,
        &work.join("hindsight.eclipse"),
        &source.join("plugins"),
    )?;
    write_feature(
        &layout.root.join("feature/feature.xml"),
        &source,
        FEATURE,
        &qualifier,
    )?;

    let repo = layout.update_site();
    if repo.exists() {
        std::fs::remove_dir_all(&repo)
            .with_context(|| format!("cannot remove {}", repo.display()))?;
    }
    println!(
        "update-site: publishing {} {} into {}",
        plugin.bsn,
        plugin.version,
        repo.display()
    );
    let tool = Tool {
        dir: layout.tool(),
        log: work.join("p2.log"),
    };
    tool.publish(&repo, Source::Tree(&source))?;
    tool.publish_categories(
        &repo,
        &layout.root.join("update-site/category.xml"),
        "hindsight",
    )?;
    println!(
        "update-site: done in {:.1} s: {}",
        start.elapsed().as_secs_f64(),
        repo.display()
    );
    Ok(Site {
        repo,
        plugin,
        qualifier,
    })
}

/// Copies a `feature.xml` into `source/features/<id>_<version>/` with the qualifier replaced.
pub fn write_feature(
    feature_xml: &Path,
    source: &Path,
    id: &str,
    qualifier: &str,
) -> Result<PathBuf> {
    let text = std::fs::read_to_string(feature_xml)
        .with_context(|| format!("cannot read {}", feature_xml.display()))?;
    let text = text.replace(".qualifier\"", &format!(".{qualifier}\""));
    let element = text
        .find("<feature")
        .with_context(|| format!("{} has no <feature> element", feature_xml.display()))?;
    let version = text[element..]
        .split("version=\"")
        .nth(1)
        .and_then(|v| v.split('"').next())
        .with_context(|| format!("{} has no version", feature_xml.display()))?
        .to_string();
    let dir = source.join(format!("features/{id}_{version}"));
    std::fs::create_dir_all(&dir)?;
    std::fs::write(dir.join("feature.xml"), text)?;
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps_the_feature_and_names_its_directory_by_the_feature_version() {
        let dir = tempfile::tempdir().unwrap();
        let xml = dir.path().join("feature.xml");
        std::fs::write(
            &xml,
            "<?xml version=\"1.0\"?>\n<feature id=\"f\" version=\"0.1.0.qualifier\">\n<plugin id=\"p\" version=\"0.1.0.qualifier\"/></feature>",
        )
        .unwrap();
        let out = write_feature(&xml, dir.path(), "f", "v20261122000000").unwrap();
        assert!(out.ends_with("features/f_0.1.0.v20261122000000"));
        let text = std::fs::read_to_string(out.join("feature.xml")).unwrap();
        assert_eq!(text.matches("0.1.0.v20261122000000").count(), 2);
        assert!(text.contains("<?xml version=\"1.0\"?>"));
    }

    #[test]
    fn missing_artifacts_name_the_file_and_the_fix() {
        let dir = tempfile::tempdir().unwrap();
        let layout = Layout {
            root: dir.path().to_path_buf(),
            target: dir.path().join("target"),
        };
        let err = Artifacts::resolve(&layout, None, None)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("libhindsight_jni.so") && err.contains("--native-lib"),
            "{err}"
        );
        let lib = dir.path().join("lib.so");
        std::fs::write(&lib, b"\x7fELF").unwrap();
        let err = Artifacts::resolve(&layout, Some(lib), None)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("hindsight-agent.jar") && err.contains("--agent-jar"),
            "{err}"
        );
    }
}
