//! Building an Eclipse bundle from sources with plain `javac`: no PDE, no Tycho, no Maven.

use crate::jar::{collect_files, JarWriter};
use crate::manifest::Manifest;
use crate::process;
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// A bundle's sources: `META-INF/MANIFEST.MF`, `plugin.xml`, `src/` and the resource folders
/// (`icons/`, `help/`) below `dir`.
pub struct BundleSource<'a> {
    pub dir: &'a Path,
    /// Files to carry besides classes: (name in the jar, file on disk).
    pub extra: Vec<(String, PathBuf)>,
}

/// A built bundle.
pub struct Built {
    pub bsn: String,
    pub version: String,
    pub jar: PathBuf,
}

/// Compiles the sources against `classpath` and writes `out_dir/<bsn>_<version>.jar`, with
/// `.qualifier` in the version replaced by `qualifier`. `scratch` receives the classes.
pub fn build(
    src: &BundleSource<'_>,
    classpath: &[PathBuf],
    qualifier: &str,
    scratch: &Path,
    out_dir: &Path,
) -> Result<Built> {
    let mf_path = src.dir.join("META-INF/MANIFEST.MF");
    let bytes =
        std::fs::read(&mf_path).with_context(|| format!("cannot read {}", mf_path.display()))?;
    let mut manifest =
        Manifest::parse(&bytes).with_context(|| format!("bad manifest {}", mf_path.display()))?;
    let bsn = manifest
        .symbolic_name()
        .with_context(|| format!("{} has no Bundle-SymbolicName", mf_path.display()))?
        .to_string();
    let version = manifest
        .get("Bundle-Version")
        .with_context(|| format!("{} has no Bundle-Version", mf_path.display()))?
        .replace("qualifier", qualifier);
    manifest.set("Bundle-Version", &version);

    let classes = scratch.join("classes");
    if classes.exists() {
        std::fs::remove_dir_all(&classes)?;
    }
    std::fs::create_dir_all(&classes)?;
    let mut sources = Vec::new();
    collect_files(&src.dir.join("src"), &mut sources)?;
    sources.retain(|p| p.extension().is_some_and(|e| e == "java"));
    if sources.is_empty() {
        bail!("no Java sources below {}", src.dir.join("src").display());
    }
    let cp = std::env::join_paths(classpath).context("a classpath entry holds ':'")?;
    let mut javac = Command::new("javac");
    javac
        .args([
            "--release",
            "17",
            "-encoding",
            "UTF-8",
            "-Xlint:all,-path,-serial,-processing",
            "-d",
        ])
        .arg(&classes)
        .arg("-cp")
        .arg(cp)
        .args(&sources);
    let log = scratch.join("javac.log");
    let _ = std::fs::remove_file(&log);
    process::run_logged(
        javac,
        &format!("compiling {bsn} (javac)"),
        &log,
        Duration::from_secs(300),
    )?;
    let warnings = std::fs::read_to_string(&log).unwrap_or_default();
    if warnings.contains("warning:") {
        print!("{warnings}");
    }

    let jar = out_dir.join(format!("{bsn}_{version}.jar"));
    let mut w = JarWriter::create(&jar, &manifest)?;
    let plugin_xml = src.dir.join("plugin.xml");
    if plugin_xml.exists() {
        w.add_file("plugin.xml", &plugin_xml)?;
    }
    w.add_dir(&classes, "")?;
    // Resources the bundle's plugin.xml and code name (icons, help pages).
    for dir in RESOURCE_DIRS {
        let d = src.dir.join(dir);
        if d.is_dir() {
            w.add_dir(&d, &format!("{dir}/"))?;
        }
    }
    for (name, file) in &src.extra {
        w.add_file(name, file)?;
    }
    w.finish()?;
    Ok(Built { bsn, version, jar })
}

/// Folders of a bundle's sources copied into its jar as they are.
const RESOURCE_DIRS: &[&str] = &["icons", "help"];

/// The jars of an Eclipse installation's `plugins/` directory.
pub fn plugin_jars(eclipse: &Path) -> Result<Vec<PathBuf>> {
    let dir = eclipse.join("plugins");
    let mut jars: Vec<PathBuf> = std::fs::read_dir(&dir)
        .with_context(|| format!("cannot list {}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jar"))
        .collect();
    jars.sort();
    Ok(jars)
}
