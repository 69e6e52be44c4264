//! `cargo xtask eclipse-test`: installs the feature from the update site (and the UI test bundle)
//! into a copy of the platform with the p2 director, runs the workbench under Xvfb with the test
//! steps of `eclipse-plugin-tests/`, and reports `N passed, M failed`.

use crate::bundle::{self, BundleSource};
use crate::jar::{collect_files, JarWriter};
use crate::manifest::Manifest;
use crate::p2::{self, Source, Tool};
use crate::paths::Layout;
use crate::process;
use crate::site::{self, Artifacts};
use crate::xvfb::Xvfb;
use anyhow::{bail, Context, Result};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

const TEST_FEATURE: &str = "hindsight.eclipse.tests.feature";

/// Runs the UI test; fails if a step fails, the run times out, or no result line appears.
pub fn run(layout: &Layout, artifacts: &Artifacts, limit: Duration) -> Result<()> {
    let site = site::build(layout, artifacts)?;
    let out = layout.eclipse_test();
    if out.exists() {
        std::fs::remove_dir_all(&out)
            .with_context(|| format!("cannot remove {}", out.display()))?;
    }
    let start = Instant::now();
    let platform = layout.platform();

    println!("eclipse-test: building the UI test bundle");
    let tests_dir = layout.root.join("eclipse-plugin-tests");
    let source = out.join("build/source");
    let mut classpath = bundle::plugin_jars(&platform)?;
    classpath.push(site.plugin.jar.clone());
    let tests = bundle::build(
        &BundleSource {
            dir: &tests_dir,
            extra: vec![(
                "resources/MergeSort.java".into(),
                tests_dir.join("resources/MergeSort.java"),
            )],
        },
        &classpath,
        &site.qualifier,
        &out.join("build/hindsight.eclipse.tests"),
        &source.join("plugins"),
    )?;
    let feature_dir = source.join(format!("features/{TEST_FEATURE}_{}", tests.version));
    std::fs::create_dir_all(&feature_dir)?;
    std::fs::write(
        feature_dir.join("feature.xml"),
        format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<feature id=\"{TEST_FEATURE}\" label=\"Hindsight UI tests\" version=\"{v}\">\n\
             <plugin id=\"{bsn}\" download-size=\"0\" install-size=\"0\" version=\"{v}\" unpack=\"false\"/>\n</feature>\n",
            v = tests.version,
            bsn = tests.bsn
        ),
    )?;
    let test_repo = out.join("build/test-repo");
    let tool = Tool {
        dir: layout.tool(),
        log: out.join("p2.log"),
    };
    tool.publish(&test_repo, Source::Tree(&source))?;

    let eclipse = out.join("eclipse");
    println!(
        "eclipse-test: installing {} and the tests into {} with the p2 director",
        site::FEATURE,
        eclipse.display()
    );
    copy_platform(&platform, &eclipse)?;
    let main_iu = format!("{}.feature.group", site::FEATURE);
    let test_iu = format!("{TEST_FEATURE}.feature.group");
    tool.install(&eclipse, &[&site.repo, &test_repo], &[&main_iu, &test_iu])?;
    let installed = std::fs::read_to_string(
        eclipse.join("configuration/org.eclipse.equinox.simpleconfigurator/bundles.info"),
    )?;
    if !installed.contains(&format!("{},{}", site.plugin.bsn, site.plugin.version)) {
        bail!(
            "the director did not add {} {} to bundles.info",
            site.plugin.bsn,
            site.plugin.version
        );
    }

    let trace = record_trace(layout, &tests_dir.join("resources/MergeSort.java"), &out)?;

    let xvfb = Xvfb::start()?;
    println!(
        "eclipse-test: starting the workbench on display {} (limit {} s)",
        xvfb.display,
        limit.as_secs()
    );
    let mut cmd = Command::new("java");
    cmd.env("DISPLAY", &xvfb.display)
        .arg("-Xmx1g")
        // Every safepoint (a pause of all Java threads) with its duration: a long UI-thread
        // wait that the latency probe's own thread also sat through shows here.
        .arg(format!(
            "-Xlog:safepoint=info:file={}:uptime",
            std::path::absolute(out.join("safepoints.log"))?.display()
        ))
        .arg(format!(
            "-Dhindsight.uitest.out={}",
            std::path::absolute(&out)?.display()
        ))
        .arg(format!(
            "-Dhindsight.uitest.trace={}",
            std::path::absolute(&trace)?.display()
        ))
        .arg(format!(
            "-Dhindsight.uitest.repo={}",
            std::path::absolute(&layout.root)?.display()
        ))
        // Only the steps whose names match, for working on one (a regular expression).
        .args(
            std::env::var("HINDSIGHT_UITEST_ONLY")
                .ok()
                .map(|only| format!("-Dhindsight.uitest.only={only}")),
        )
        .arg("-jar")
        .arg(p2::launcher(&eclipse)?)
        .arg("-data")
        .arg(out.join("workspace"))
        .args(["-consoleLog", "-nosplash"]);
    let log = out.join("workbench.log");
    let run = process::run_logged(cmd, "the workbench", &log, limit);
    drop(xvfb);
    let results = std::fs::read_to_string(out.join("results.txt")).unwrap_or_default();
    for line in results.lines() {
        println!("{line}");
    }
    run?;
    let summary = results.lines().last().unwrap_or("");
    let failed = parse_summary(summary).with_context(|| {
        format!(
            "the UI test wrote no `N passed, M failed` line; see {}:\n{}",
            log.display(),
            process::tail(&log, 30)
        )
    })?;
    println!(
        "eclipse-test: {} in {:.1} s; screenshots in {}",
        summary,
        start.elapsed().as_secs_f64(),
        out.display()
    );
    if failed > 0 {
        bail!(
            "{failed} UI test step(s) failed; see the screenshots and {}",
            log.display()
        );
    }
    Ok(())
}

/// Records MergeSort with the `hindsight` command line (`hindsight record`), for the UI test's
/// Open Trace step: `target/{release,debug}/hindsight`, whichever is newer.
fn record_trace(layout: &Layout, source: &Path, out: &Path) -> Result<std::path::PathBuf> {
    let cli = ["release", "debug"]
        .iter()
        .map(|profile| layout.target.join(profile).join("hindsight"))
        .filter(|p| p.is_file())
        .max_by_key(|p| p.metadata().and_then(|m| m.modified()).ok())
        .with_context(|| {
            format!(
                "no hindsight command line in {}/{{release,debug}}: build it first \
                 (cargo build -p hindsight-cli)",
                layout.target.display()
            )
        })?;
    let classes = out.join("build/mergesort-classes");
    let mut javac = Command::new("javac");
    javac.args(["-g", "-d"]).arg(&classes).arg(source);
    process::output(javac, "compiling MergeSort.java for the recorded trace")?;
    let trace = out.join("mergesort.htrace");
    println!(
        "eclipse-test: recording MergeSort into {} with {}",
        trace.display(),
        cli.display()
    );
    let mut record = Command::new(&cli);
    record
        .arg("record")
        .arg("-o")
        .arg(&trace)
        .args(["--", "java", "-cp"])
        .arg(&classes)
        .arg("MergeSort");
    process::output(record, "hindsight record of MergeSort")?;
    if !trace.is_file() {
        bail!("hindsight record wrote no trace at {}", trace.display());
    }
    Ok(trace)
}

/// The failure count of a `N passed, M failed` line.
fn parse_summary(line: &str) -> Option<u32> {
    let (passed, failed) = line.split_once(" passed, ")?;
    passed.parse::<u32>().ok()?;
    failed.strip_suffix(" failed")?.parse().ok()
}

/// Copies an installation; jars are hard-linked (nothing writes into them), the rest is copied
/// because the director rewrites configuration and profile files.
fn copy_platform(src: &Path, dst: &Path) -> Result<()> {
    let mut files = Vec::new();
    collect_files(src, &mut files)?;
    for f in files {
        let rel = f.strip_prefix(src)?;
        let to = dst.join(rel);
        if let Some(dir) = to.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let linked =
            f.extension().is_some_and(|e| e == "jar") && std::fs::hard_link(&f, &to).is_ok();
        if !linked {
            std::fs::copy(&f, &to)
                .with_context(|| format!("copying {} to {}", f.display(), to.display()))?;
        }
    }
    Ok(())
}

/// Builds the stand-ins of `xtask/testdata/` (a real minimal JNI library and Java agent) for
/// packaging tests before the real ones exist.
pub fn probe_artifacts(layout: &Layout) -> Result<Artifacts> {
    let testdata = layout.root.join("xtask/testdata");
    let target = layout.target.join("probe");
    println!("eclipse-test: building the probe JNI library and agent (xtask/testdata)");
    let mut cargo = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    cargo
        .args(["build", "--release", "--quiet", "--manifest-path"])
        .arg(testdata.join("probe-jni/Cargo.toml"))
        .arg("--target-dir")
        .arg(&target);
    process::run_logged(
        cargo,
        "building the probe JNI library",
        &target.join("build.log"),
        Duration::from_secs(300),
    )?;
    let native_lib = target.join("release/libhindsight_jni.so");

    let classes = target.join("agent-classes");
    let mut sources = Vec::new();
    collect_files(&testdata.join("probe-agent/src"), &mut sources)?;
    let mut javac = Command::new("javac");
    javac
        .args(["--release", "17", "-d"])
        .arg(&classes)
        .args(&sources);
    process::output(javac, "compiling the probe agent")?;
    let agent_jar = target.join("hindsight-probe-agent.jar");
    let mut m = Manifest::new();
    m.set("Premain-Class", "hindsight.probe.ProbeAgent");
    let mut w = JarWriter::create(&agent_jar, &m)?;
    w.add_dir(&classes, "")?;
    w.finish()?;
    Ok(Artifacts {
        native_lib,
        agent_jar,
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn reads_the_summary_line() {
        assert_eq!(super::parse_summary("7 passed, 0 failed"), Some(0));
        assert_eq!(super::parse_summary("5 passed, 2 failed"), Some(2));
        assert_eq!(super::parse_summary("FAIL x: 1 passed, 2 failed?"), None);
        assert_eq!(super::parse_summary(""), None);
    }
}
