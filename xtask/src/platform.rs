//! `cargo xtask eclipse-platform`: an Eclipse 4.26 platform assembled from Debian's installed
//! bundles, installed by the p2 director so that features can later be installed into it.
//!
//! Steps: closure of the root bundles over Debian's jar directories; a hand-made runtime
//! (`target/eclipse/tool`) with the fixed-up bundles that runs the p2 applications; a base p2
//! repository of those bundles plus a product (start levels, JavaSE-17); the director installs the
//! product into `target/eclipse/platform`.

use crate::bundles::{Bundle, Index};
use crate::jar;
use crate::manifest::{raw_clauses, Manifest};
use crate::p2::{Source, Tool};
use crate::packages;
use crate::paths::Layout;
use crate::process;
use anyhow::{Context, Result};
use sha2::{Digest, Sha256};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// Bumped whenever the assembly changes, so that an existing platform is rebuilt.
const FORMAT: &str = "hindsight-eclipse-platform 3";

/// The product id of the platform in the base repository.
pub const PRODUCT: &str = "hindsight.eclipse.platform";

/// The bundles the platform is the closure of: the IDE workbench, JDT (UI, launching, debug UI),
/// the consoles and themes, Declarative Services and the p2 applications and touchpoints.
const ROOTS: &[&str] = &[
    "org.eclipse.ui.ide.application",
    "org.eclipse.ui.ide",
    "org.eclipse.ui.editors",
    "org.eclipse.ui.console",
    "org.eclipse.ui.themes",
    "org.eclipse.ui.navigator.resources",
    "org.eclipse.e4.ui.workbench.addons.swt",
    "org.eclipse.jdt.ui",
    "org.eclipse.jdt.launching",
    "org.eclipse.jdt.debug.ui",
    "org.eclipse.jdt.junit.core",
    "org.eclipse.jdt.junit4.runtime",
    "org.eclipse.debug.ui",
    "org.apache.felix.scr",
    "org.eclipse.equinox.event",
    "org.eclipse.equinox.launcher",
    "org.eclipse.equinox.simpleconfigurator",
    "org.eclipse.equinox.simpleconfigurator.manipulator",
    "org.eclipse.equinox.frameworkadmin.equinox",
    "org.eclipse.equinox.p2.director.app",
    "org.eclipse.equinox.p2.publisher.eclipse",
    "org.eclipse.equinox.p2.updatesite",
    "org.eclipse.equinox.p2.touchpoint.eclipse",
    "org.eclipse.equinox.p2.touchpoint.natives",
    "org.eclipse.equinox.p2.reconciler.dropins",
    "org.eclipse.equinox.p2.repository.tools",
    "org.eclipse.equinox.p2.garbagecollector",
    "org.eclipse.osgi.compatibility.state",
    "org.osgi.service.cm",
];

/// Debian's jar directories, searched in this order.
const DEBIAN_DIRS: &[&str] = &["/usr/lib/eclipse/plugins", "/usr/share/java"];

/// The JUnit 4 of Debian 12's `junit4` package.
const JUNIT_VERSION: &str = "4.13.2";

/// Debian's junit4.jar manifest with its version and its broken import version fixed.
fn junit_manifest(m: &Manifest) -> Manifest {
    let mut m = m.clone();
    m.set("Bundle-Version", JUNIT_VERSION);
    if let Some(fixed) = m
        .get("Import-Package")
        .map(|i| i.replace("\"1. 3\"", "\"1.3\""))
    {
        m.set("Import-Package", &fixed);
    }
    m
}

/// Debian's SWT manifest says 3.114.100 although the code is SWT 4956 (Eclipse 4.26), and
/// org.eclipse.jface.text requires SWT [3.117,4).
const SWT_VERSION: &str = "3.122.0";

/// Packages of Debian's plain `osgi.cmpn.jar` (OSGi R7 compendium) that the workbench needs as
/// bundles: symbolic name, version (the R7 package version), package directories, imports.
const COMPENDIUM: &[(&str, &str, &[&str], &str)] = &[
    (
        "org.osgi.service.event",
        "1.4.0",
        &["org/osgi/service/event"],
        "org.osgi.framework",
    ),
    (
        "org.osgi.service.prefs",
        "1.1.1",
        &["org/osgi/service/prefs"],
        "",
    ),
    (
        "org.osgi.util.function",
        "1.1.0",
        &["org/osgi/util/function"],
        "",
    ),
    (
        "org.osgi.util.promise",
        "1.1.1",
        &["org/osgi/util/promise"],
        "org.osgi.util.function;version=\"[1.1,2)\"",
    ),
    (
        "org.osgi.service.component",
        "1.4.0",
        &[
            "org/osgi/service/component",
            "org/osgi/service/component/runtime",
            "org/osgi/service/component/runtime/dto",
        ],
        "org.osgi.framework,org.osgi.dto,org.osgi.util.promise;version=\"[1.1,2)\"",
    ),
    (
        "org.osgi.service.cm",
        "1.6.0",
        &["org/osgi/service/cm"],
        "org.osgi.framework",
    ),
];

/// Builds the platform unless an identical one exists; returns its directory.
pub fn ensure(layout: &Layout) -> Result<PathBuf> {
    let start = Instant::now();
    packages::check_installed()?;
    let eclipse = layout.eclipse();
    std::fs::create_dir_all(&eclipse)?;

    let profile = eclipse.join("JavaSE.profile");
    let (profile_text, system_packages) = execution_environment(layout, &profile)?;
    let wrappers = make_wrappers(&eclipse.join("wrappers"))?;
    let dirs: Vec<PathBuf> = DEBIAN_DIRS.iter().map(PathBuf::from).collect();
    let index = Index::scan(wrappers, &dirs)?;
    let (bundles, warnings) = index.closure(ROOTS, &system_packages)?;

    let fingerprint = fingerprint(&bundles, &profile_text)?;
    let stamp = layout.platform().join(".xtask-fingerprint");
    if std::fs::read_to_string(&stamp).ok().as_deref() == Some(fingerprint.as_str()) {
        println!(
            "eclipse-platform: {} is up to date ({} bundles)",
            layout.platform().display(),
            bundles.len()
        );
        return Ok(layout.platform());
    }
    // jxpath's servlet imports become optional in assemble_tool; they need no note.
    for w in warnings
        .iter()
        .filter(|w| !w.contains("(imported by org.apache.commons.jxpath)"))
    {
        println!("eclipse-platform: note: {w}");
    }

    println!(
        "eclipse-platform: assembling {} bundles into {}",
        bundles.len(),
        layout.tool().display()
    );
    let entries = assemble_tool(&layout.tool(), &bundles)?;
    let tool = Tool {
        dir: layout.tool(),
        log: eclipse.join("p2.log"),
    };

    let repo = layout.base_repo();
    println!(
        "eclipse-platform: publishing the base p2 repository {}",
        repo.display()
    );
    remove_dir(&repo)?;
    tool.publish(&repo, Source::Bundles(&layout.tool().join("plugins")))?;
    let product = eclipse.join("platform.product");
    std::fs::write(&product, product_xml(&entries))?;
    tool.publish_product(&repo, &product, &profile)?;

    println!(
        "eclipse-platform: installing {PRODUCT} with the p2 director into {}",
        layout.platform().display()
    );
    remove_dir(&layout.platform())?;
    tool.install(&layout.platform(), &[&repo], &[PRODUCT])?;
    std::fs::write(&stamp, &fingerprint)?;
    println!(
        "eclipse-platform: done in {:.1} s: {}",
        start.elapsed().as_secs_f64(),
        layout.platform().display()
    );
    Ok(layout.platform())
}

fn remove_dir(dir: &Path) -> Result<()> {
    match std::fs::remove_dir_all(dir) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(e).with_context(|| format!("cannot remove {}", dir.display()))
        }
        _ => Ok(()),
    }
}

/// Writes the JDK's execution-environment profile; returns its text and the JRE's packages.
fn execution_environment(layout: &Layout, out: &Path) -> Result<(String, BTreeSet<String>)> {
    let mut cmd = Command::new("java");
    cmd.arg(layout.root.join("xtask/java/ExecutionEnvironment.java"));
    let text = process::output(cmd, "describing the JDK (java ExecutionEnvironment.java)")?;
    std::fs::write(out, &text)?;
    let packages = text
        .lines()
        .find_map(|l| l.strip_prefix("org.osgi.framework.system.packages = "))
        .context("the execution-environment profile lists no system packages")?
        .split(',')
        .map(String::from)
        .collect();
    Ok((text, packages))
}

/// Bundles made from Debian's plain jars (OSGi compendium, Bouncy Castle), built once.
fn make_wrappers(dir: &Path) -> Result<Vec<Bundle>> {
    std::fs::create_dir_all(dir)?;
    let cmpn = Path::new("/usr/share/java/osgi.cmpn.jar");
    let mut out = Vec::new();
    for (bsn, version, dirs, imports) in COMPENDIUM {
        let path = dir.join(format!("{bsn}_{version}.jar"));
        if !path.exists() {
            let mut m = Manifest::new();
            m.set("Bundle-ManifestVersion", "2");
            m.set("Bundle-SymbolicName", bsn);
            m.set("Bundle-Version", version);
            m.set(
                "Bundle-Name",
                &format!("{bsn} (wrapped by xtask from {})", cmpn.display()),
            );
            let exports: Vec<String> = dirs
                .iter()
                .map(|d| format!("{};version=\"{version}\"", d.replace('/', ".")))
                .collect();
            m.set("Export-Package", &exports.join(","));
            if !imports.is_empty() {
                m.set("Import-Package", imports);
            }
            jar::copy_with_manifest(cmpn, &path, &m, |name| {
                name.rsplit_once('/')
                    .is_some_and(|(d, f)| dirs.contains(&d) && f.ends_with(".class"))
            })?;
        }
        out.push(crate::bundles::bundle_of(&path)?);
    }
    // p2 imports Bouncy Castle (PGP signatures); Debian's jars carry no OSGi headers.
    for (name, extra) in [
        ("bcprov", None),
        ("bcpg", Some(("Require-Bundle", "bcprov"))),
    ] {
        let src = PathBuf::from(format!("/usr/share/java/{name}.jar"));
        let real = src
            .canonicalize()
            .with_context(|| format!("{} not found (package lib{name}-java)", src.display()))?;
        let version = version_from_file_name(&real, name)?;
        let path = dir.join(format!("{name}_{version}.jar"));
        if !path.exists() {
            jar::wrap_plain_jar(&real, &path, name, &version, extra.as_slice())?;
        }
        out.push(crate::bundles::bundle_of(&path)?);
    }
    Ok(out)
}

/// `bcprov-1.72.jar` -> `1.72.0`.
fn version_from_file_name(path: &Path, name: &str) -> Result<String> {
    let file = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let v = file
        .strip_prefix(&format!("{name}-"))
        .with_context(|| format!("cannot read a version from {}", path.display()))?;
    let mut parts: Vec<&str> = v.split('.').collect();
    while parts.len() < 3 {
        parts.push("0");
    }
    Ok(parts.join("."))
}

/// Identifies the inputs: every bundle file's path, size and modification time, and the JDK.
fn fingerprint(bundles: &[&Bundle], profile: &str) -> Result<String> {
    let mut h = Sha256::new();
    h.update(FORMAT);
    h.update(profile);
    for b in bundles {
        let meta = std::fs::metadata(&b.path)?;
        let mtime = meta
            .modified()?
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        h.update(format!(
            "{}|{}|{}|{mtime}\n",
            b.bsn,
            b.path.display(),
            meta.len()
        ));
    }
    Ok(h.finalize().iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    }))
}

/// A bundle of the runtime as `bundles.info` lists it.
struct Entry {
    bsn: String,
    version: String,
    file: String,
    start_level: i32,
    auto_start: bool,
    fragment: bool,
}

/// Copies the bundles (with their fix-ups) into `dir/plugins` and writes the configuration.
fn assemble_tool(dir: &Path, bundles: &[&Bundle]) -> Result<Vec<Entry>> {
    remove_dir(dir)?;
    let plugins = dir.join("plugins");
    std::fs::create_dir_all(&plugins)?;
    let mut entries = Vec::new();
    for b in bundles {
        let mut version = b.version.clone();
        let fixed = match b.bsn.as_str() {
            "org.eclipse.swt" => {
                version = SWT_VERSION.to_string();
                let mut m = b.manifest.clone();
                m.set("Bundle-Version", SWT_VERSION);
                Some(m)
            }
            // Debian's jxpath imports javax.servlet mandatorily; nothing provides it here.
            "org.apache.commons.jxpath" => Some(optional_imports(&b.manifest, "javax.servlet")),
            // Debian's junit4.jar is JUnit 4.13.2 whose manifest says 4.12 (JDT's JUnit 4
            // container wants [4.13,5)) and wraps a version as `"1.\n  3"`, read `1. 3`.
            "org.junit" => {
                version = JUNIT_VERSION.to_string();
                Some(junit_manifest(&b.manifest))
            }
            _ => flattened_class_path(b)?,
        };
        let file = format!("plugins/{}_{version}.jar", b.bsn);
        let dst = dir.join(&file);
        match fixed {
            Some(m) => jar::copy_with_manifest(&b.path, &dst, &m, |_| true)?,
            None => {
                std::fs::copy(&b.path, &dst).with_context(|| {
                    format!("copying {} to {}", b.path.display(), dst.display())
                })?;
            }
        }
        let (start_level, auto_start) = match b.bsn.as_str() {
            "org.eclipse.equinox.simpleconfigurator" => (1, true),
            "org.apache.felix.scr" | "org.eclipse.equinox.common" | "org.eclipse.equinox.event" => {
                (2, true)
            }
            "org.eclipse.core.runtime" => (4, true),
            "org.eclipse.osgi" => (-1, true),
            _ => (4, false),
        };
        entries.push(Entry {
            bsn: b.bsn.clone(),
            version,
            file,
            start_level,
            auto_start,
            fragment: b.manifest.get("Fragment-Host").is_some(),
        });
    }
    let config = dir.join("configuration");
    let sc = config.join("org.eclipse.equinox.simpleconfigurator");
    std::fs::create_dir_all(&sc)?;
    let mut info = String::from("#version=1\n");
    for e in entries
        .iter()
        .filter(|e| e.bsn != "org.eclipse.equinox.launcher")
    {
        let _ = writeln!(
            info,
            "{},{},{},{},{}",
            e.bsn, e.version, e.file, e.start_level, e.auto_start
        );
    }
    std::fs::write(sc.join("bundles.info"), info)?;
    let file_of = |bsn: &str| -> Result<&str> {
        entries
            .iter()
            .find(|e| e.bsn == bsn)
            .map(|e| e.file.trim_start_matches("plugins/"))
            .with_context(|| format!("{bsn} is not part of the assembled runtime"))
    };
    let ini = format!(
        "osgi.bundles=reference\\:file\\:{sc}@1\\:start\n\
         osgi.bundles.defaultStartLevel=4\n\
         osgi.framework=file\\:plugins/{osgi}\n\
         osgi.framework.extensions=reference\\:file\\:{compat}\n\
         org.eclipse.equinox.simpleconfigurator.configUrl=file\\:org.eclipse.equinox.simpleconfigurator/bundles.info\n\
         eclipse.application=org.eclipse.ui.ide.workbench\n",
        sc = file_of("org.eclipse.equinox.simpleconfigurator")?,
        osgi = file_of("org.eclipse.osgi")?,
        compat = file_of("org.eclipse.osgi.compatibility.state")?,
    );
    std::fs::write(config.join("config.ini"), ini)?;
    Ok(entries)
}

/// Debian flattens some bundles (org.eclipse.jdt.debug: `jdimodel.jar` unpacked into the root)
/// but keeps their `Bundle-ClassPath`, so their classes cannot load: point it at the root.
fn flattened_class_path(b: &Bundle) -> Result<Option<Manifest>> {
    let Some(class_path) = b.manifest.get("Bundle-ClassPath") else {
        return Ok(None);
    };
    let names = jar::entry_names(&b.path)?;
    let present = |entry: &str| {
        let dir = format!("{}/", entry.trim_end_matches('/'));
        names.iter().any(|n| n == entry || n.starts_with(&dir))
    };
    let kept: Vec<String> = raw_clauses(class_path)
        .into_iter()
        .filter(|e| e == "." || present(e))
        .collect();
    if kept.len() == raw_clauses(class_path).len() {
        return Ok(None);
    }
    let mut m = b.manifest.clone();
    let has_root_classes = names
        .iter()
        .any(|n| n.ends_with(".class") && !n.starts_with("META-INF/"));
    let mut entries = kept;
    if has_root_classes && !entries.iter().any(|e| e == ".") {
        entries.insert(0, ".".into());
    }
    m.set("Bundle-ClassPath", &entries.join(","));
    m.set("Eclipse-BundleShape", "jar");
    Ok(Some(m))
}

/// The manifest with every mandatory import of a package starting with `prefix` made optional.
fn optional_imports(m: &Manifest, prefix: &str) -> Manifest {
    let clauses: Vec<String> = raw_clauses(m.get("Import-Package").unwrap_or(""))
        .into_iter()
        .map(|c| {
            if c.starts_with(prefix) && !c.contains("resolution:=optional") {
                format!("{c};resolution:=optional")
            } else {
                c
            }
        })
        .collect();
    let mut m = m.clone();
    m.set("Import-Package", &clauses.join(","));
    m
}

/// The product the director installs: every bundle, with the start levels of the runtime.
fn product_xml(entries: &[Entry]) -> String {
    let mut x = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<?pde version=\"3.5\"?>\n\
         <product name=\"Hindsight test platform (Eclipse 4.26 from Debian)\" uid=\"{PRODUCT}\" \
         application=\"org.eclipse.ui.ide.workbench\" version=\"4.26.0\" useFeatures=\"false\" includeLaunchers=\"false\">\n\
         <configIni use=\"default\"></configIni>\n<launcherArgs><vmArgs>-Xmx1g</vmArgs></launcherArgs>\n<plugins>\n"
    );
    for e in entries {
        let frag = if e.fragment { " fragment=\"true\"" } else { "" };
        let _ = writeln!(x, "  <plugin id=\"{}\"{frag}/>", e.bsn);
    }
    x.push_str("</plugins>\n<configurations>\n");
    for e in entries.iter().filter(|e| e.auto_start && e.start_level > 0) {
        let _ = writeln!(
            x,
            "  <plugin id=\"{}\" autoStart=\"true\" startLevel=\"{}\"/>",
            e.bsn, e.start_level
        );
    }
    let compat = entries
        .iter()
        .find(|e| e.bsn == "org.eclipse.osgi.compatibility.state")
        .map(|e| e.file.trim_start_matches("plugins/"))
        .unwrap_or_default();
    let _ = writeln!(
        x,
        "  <property name=\"osgi.framework.extensions\" value=\"reference:file:{compat}\"/>\n\
         </configurations>\n</product>"
    );
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixes_debian_junit_manifest() {
        let m = Manifest::parse(
            b"Bundle-SymbolicName: org.junit\nBundle-Version: 4.12\nImport-Package: org.hamcrest;version=\"1.3\",org.hamcrest.core;version=\"1.\n  3\"\n",
        )
        .unwrap();
        let fixed = junit_manifest(&m);
        assert_eq!(fixed.get("Bundle-Version"), Some("4.13.2"));
        assert_eq!(
            fixed.get("Import-Package"),
            Some("org.hamcrest;version=\"1.3\",org.hamcrest.core;version=\"1.3\"")
        );
    }

    #[test]
    fn makes_servlet_imports_optional_only() {
        let m = Manifest::parse(b"Import-Package: javax.servlet;version=\"2.4\",javax.servlet.http,javax.xml.parsers,javax.servlet.jsp;resolution:=optional\n").unwrap();
        let fixed = optional_imports(&m, "javax.servlet");
        assert_eq!(
            fixed.get("Import-Package"),
            Some("javax.servlet;version=\"2.4\";resolution:=optional,javax.servlet.http;resolution:=optional,javax.xml.parsers,javax.servlet.jsp;resolution:=optional")
        );
    }

    #[test]
    fn points_a_flattened_class_path_at_the_root() {
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("flat.jar");
        let mut z = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
        let opts = zip::write::SimpleFileOptions::default();
        z.start_file("META-INF/MANIFEST.MF", opts).unwrap();
        z.write_all(b"Bundle-SymbolicName: flat\nBundle-ClassPath: jdimodel.jar, lib/\n")
            .unwrap();
        z.start_file("org/x/A.class", opts).unwrap();
        z.start_file("lib/B.class", opts).unwrap();
        z.finish().unwrap();
        let b = crate::bundles::bundle_of(&path).unwrap();
        let m = flattened_class_path(&b).unwrap().unwrap();
        assert_eq!(m.get("Bundle-ClassPath"), Some(".,lib/"));
        assert_eq!(m.get("Eclipse-BundleShape"), Some("jar"));
    }

    #[test]
    fn leaves_a_correct_class_path_alone() {
        use std::io::Write;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("ok.jar");
        let mut z = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
        let opts = zip::write::SimpleFileOptions::default();
        z.start_file("META-INF/MANIFEST.MF", opts).unwrap();
        z.write_all(b"Bundle-SymbolicName: ok\nBundle-ClassPath: .,inner.jar\n")
            .unwrap();
        z.start_file("inner.jar", opts).unwrap();
        z.finish().unwrap();
        let b = crate::bundles::bundle_of(&path).unwrap();
        assert!(flattened_class_path(&b).unwrap().is_none());
    }

    #[test]
    fn reads_versions_from_debian_jar_names() {
        assert_eq!(
            version_from_file_name(Path::new("/x/bcprov-1.72.jar"), "bcprov").unwrap(),
            "1.72.0"
        );
        assert!(version_from_file_name(Path::new("/x/bcprov.jar"), "bcprov").is_err());
    }

    #[test]
    fn the_product_starts_the_configurator_first() {
        let e = |bsn: &str, sl, auto| Entry {
            bsn: bsn.into(),
            version: "1".into(),
            file: format!("plugins/{bsn}_1.jar"),
            start_level: sl,
            auto_start: auto,
            fragment: bsn.ends_with("state"),
        };
        let x = product_xml(&[
            e("org.eclipse.equinox.simpleconfigurator", 1, true),
            e("org.eclipse.osgi.compatibility.state", 4, false),
            e("org.eclipse.ui", 4, false),
        ]);
        assert!(x.contains("<plugin id=\"org.eclipse.equinox.simpleconfigurator\" autoStart=\"true\" startLevel=\"1\"/>"));
        assert!(
            x.contains("<plugin id=\"org.eclipse.osgi.compatibility.state\" fragment=\"true\"/>")
        );
        assert!(x.contains("value=\"reference:file:org.eclipse.osgi.compatibility.state_1.jar\""));
        assert!(!x.contains("id=\"org.eclipse.ui\" autoStart"));
    }
}
