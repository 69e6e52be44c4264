//! Running Equinox p2 applications (publishers, director) from the tool runtime.

use crate::process::run_logged;
use anyhow::{bail, Context, Result};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// The p2 profile name of the platform installation.
pub const PROFILE: &str = "HindsightPlatform";

/// The equinox launcher jar of an Eclipse installation.
pub fn launcher(eclipse: &Path) -> Result<PathBuf> {
    let plugins = eclipse.join("plugins");
    let found = std::fs::read_dir(&plugins)
        .with_context(|| format!("cannot list {}", plugins.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| {
            p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
                n.starts_with("org.eclipse.equinox.launcher_") && n.ends_with(".jar")
            })
        });
    match found {
        Some(p) => Ok(p),
        None => bail!(
            "no org.eclipse.equinox.launcher_*.jar in {}",
            plugins.display()
        ),
    }
}

/// A `file:` URI of a local path.
pub fn file_uri(path: &Path) -> Result<String> {
    let abs = std::path::absolute(path)?;
    Ok(format!("file:{}", abs.display()))
}

/// The hand-assembled runtime that runs p2 applications.
pub struct Tool {
    pub dir: PathBuf,
    pub log: PathBuf,
}

impl Tool {
    /// Runs `application` with `args`; `what` names the step in messages.
    pub fn run(
        &self,
        what: &str,
        application: &str,
        args: &[OsString],
        limit: Duration,
    ) -> Result<()> {
        let mut cmd = Command::new("java");
        cmd.arg("-jar")
            .arg(launcher(&self.dir)?)
            .args(["-nosplash", "-consoleLog", "-application", application])
            .args(args);
        std::fs::write(&self.log, format!("$ {cmd:?}\n"))?;
        run_logged(cmd, what, &self.log, limit)
    }

    /// Publishes bundles and features found below `source` (`plugins/`, `features/`), or the
    /// bundles of a `plugins` directory, into the repository `repo`.
    pub fn publish(&self, repo: &Path, source: Source<'_>) -> Result<()> {
        let uri = file_uri(repo)?;
        let mut args: Vec<OsString> = vec![
            "-metadataRepository".into(),
            uri.clone().into(),
            "-artifactRepository".into(),
            uri.into(),
        ];
        match source {
            Source::Tree(dir) => args.extend(["-source".into(), dir.as_os_str().to_owned()]),
            Source::Bundles(dir) => args.extend(["-bundles".into(), dir.as_os_str().to_owned()]),
        }
        args.extend(
            [
                "-configs",
                "gtk.linux.x86_64",
                "-publishArtifacts",
                "-compress",
            ]
            .map(OsString::from),
        );
        self.run(
            "p2 publisher (features and bundles)",
            "org.eclipse.equinox.p2.publisher.FeaturesAndBundlesPublisher",
            &args,
            Duration::from_secs(300),
        )
    }

    /// Adds the categories of `category_xml` to the metadata repository `repo`; their ids are
    /// `<qualifier>.<name>` (without a qualifier p2 would use the file's absolute URI).
    pub fn publish_categories(
        &self,
        repo: &Path,
        category_xml: &Path,
        qualifier: &str,
    ) -> Result<()> {
        let args: Vec<OsString> = vec![
            "-metadataRepository".into(),
            file_uri(repo)?.into(),
            "-categoryDefinition".into(),
            file_uri(category_xml)?.into(),
            "-categoryQualifier".into(),
            qualifier.into(),
            "-compress".into(),
        ];
        self.run(
            "p2 category publisher",
            "org.eclipse.equinox.p2.publisher.CategoryPublisher",
            &args,
            Duration::from_secs(120),
        )
    }

    /// Publishes a product definition (with a JRE described by `jre_profile`) into `repo`.
    pub fn publish_product(&self, repo: &Path, product: &Path, jre_profile: &Path) -> Result<()> {
        let uri = file_uri(repo)?;
        let mut args: Vec<OsString> = vec![
            "-metadataRepository".into(),
            uri.clone().into(),
            "-artifactRepository".into(),
            uri.into(),
            "-productFile".into(),
            product.as_os_str().to_owned(),
            "-jreLocation".into(),
            jre_profile.as_os_str().to_owned(),
        ];
        args.extend(
            [
                "-append",
                "-publishArtifacts",
                "-flavor",
                "tooling",
                "-configs",
                "gtk.linux.x86_64",
                "-compress",
            ]
            .map(OsString::from),
        );
        self.run(
            "p2 product publisher",
            "org.eclipse.equinox.p2.publisher.ProductPublisher",
            &args,
            Duration::from_secs(300),
        )
    }

    /// Installs the installable units `ius` from `repos` into the installation `dest`.
    pub fn install(&self, dest: &Path, repos: &[&Path], ius: &[&str]) -> Result<()> {
        let repos: Vec<String> = repos.iter().map(|r| file_uri(r)).collect::<Result<_>>()?;
        let args: Vec<OsString> = [
            "-repository",
            &repos.join(","),
            "-installIU",
            &ius.join(","),
            "-destination",
            &std::path::absolute(dest)?.display().to_string(),
            "-profile",
            PROFILE,
            "-profileProperties",
            "org.eclipse.update.install.features=true",
            "-p2.os",
            "linux",
            "-p2.ws",
            "gtk",
            "-p2.arch",
            "x86_64",
            "-roaming",
        ]
        .map(OsString::from)
        .to_vec();
        self.run(
            &format!("p2 director (installing {})", ius.join(", ")),
            "org.eclipse.equinox.p2.director",
            &args,
            Duration::from_secs(600),
        )
    }
}

/// What a publisher reads.
pub enum Source<'a> {
    /// A directory with `plugins/` and `features/`.
    Tree(&'a Path),
    /// A directory of bundle jars.
    Bundles(&'a Path),
}
