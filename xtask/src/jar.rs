//! Jar files: reading manifests, copying a jar under a new manifest, wrapping plain jars as
//! bundles, and writing jars from directories.

use crate::manifest::Manifest;
use anyhow::{bail, Context, Result};
use std::collections::BTreeSet;
use std::fs::File;
use std::io::{Read, Write};
use std::path::Path;
use zip::write::SimpleFileOptions;
use zip::{ZipArchive, ZipWriter};

const MANIFEST: &str = "META-INF/MANIFEST.MF";

fn open(path: &Path) -> Result<ZipArchive<File>> {
    let file = File::open(path).with_context(|| format!("cannot open jar {}", path.display()))?;
    ZipArchive::new(file).with_context(|| format!("{} is not a valid jar", path.display()))
}

/// The manifest of a jar, `None` if it has none.
pub fn read_manifest(path: &Path) -> Result<Option<Manifest>> {
    let mut zip = open(path)?;
    let mut entry = match zip.by_name(MANIFEST) {
        Ok(e) => e,
        Err(zip::result::ZipError::FileNotFound) => return Ok(None),
        Err(e) => {
            return Err(e).with_context(|| format!("reading {MANIFEST} of {}", path.display()))
        }
    };
    let mut bytes = Vec::new();
    entry.read_to_end(&mut bytes)?;
    Manifest::parse(&bytes)
        .with_context(|| format!("bad manifest in {}", path.display()))
        .map(Some)
}

/// The names of a jar's entries.
pub fn entry_names(path: &Path) -> Result<Vec<String>> {
    Ok(open(path)?.file_names().map(String::from).collect())
}

/// Signature files, which become invalid once the manifest changes.
fn is_signature(name: &str) -> bool {
    name.strip_prefix("META-INF/").is_some_and(|rest| {
        !rest.contains('/')
            && [".SF", ".RSA", ".DSA", ".EC"]
                .iter()
                .any(|ext| rest.to_ascii_uppercase().ends_with(ext))
    })
}

/// Copies `src` to `dst` with `manifest` instead of its own, keeping the entries `keep` accepts
/// (without recompressing them) and dropping signatures.
pub fn copy_with_manifest(
    src: &Path,
    dst: &Path,
    manifest: &Manifest,
    keep: impl Fn(&str) -> bool,
) -> Result<()> {
    let mut zip = open(src)?;
    let mut out = JarWriter::create(dst, manifest)?;
    for i in 0..zip.len() {
        let entry = zip.by_index_raw(i)?;
        let name = entry.name().to_string();
        if name == MANIFEST || is_signature(&name) || !keep(&name) {
            continue;
        }
        out.zip
            .raw_copy_file(entry)
            .with_context(|| format!("copying {name} from {}", src.display()))?;
    }
    out.finish()
}

/// The packages (dotted) that hold at least one class in the jar.
pub fn class_packages(path: &Path) -> Result<BTreeSet<String>> {
    let zip = open(path)?;
    Ok(zip
        .file_names()
        .filter(|n| n.ends_with(".class") && !n.starts_with("META-INF/"))
        .filter_map(|n| n.rsplit_once('/').map(|(dir, _)| dir.replace('/', ".")))
        .collect())
}

/// Makes a bundle of a plain jar: every package with classes exported at `version`, plus
/// `extra` headers.
pub fn wrap_plain_jar(
    src: &Path,
    dst: &Path,
    bsn: &str,
    version: &str,
    extra: &[(&str, &str)],
) -> Result<()> {
    let packages = class_packages(src)?;
    if packages.is_empty() {
        bail!("{} has no classes to wrap as bundle {bsn}", src.display());
    }
    let mut m = Manifest::new();
    m.set("Bundle-ManifestVersion", "2");
    m.set("Bundle-SymbolicName", bsn);
    m.set("Bundle-Version", version);
    m.set(
        "Bundle-Name",
        &format!("{bsn} (wrapped by xtask from {})", src.display()),
    );
    let exports: Vec<String> = packages
        .iter()
        .map(|p| format!("{p};version=\"{version}\""))
        .collect();
    m.set("Export-Package", &exports.join(","));
    for (k, v) in extra {
        m.set(k, v);
    }
    copy_with_manifest(src, dst, &m, |_| true)
}

/// Writes a jar: the manifest first, then files.
pub struct JarWriter {
    zip: ZipWriter<File>,
    path: std::path::PathBuf,
}

impl JarWriter {
    pub fn create(path: &Path, manifest: &Manifest) -> Result<Self> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        let file =
            File::create(path).with_context(|| format!("cannot create {}", path.display()))?;
        let mut w = JarWriter {
            zip: ZipWriter::new(file),
            path: path.to_path_buf(),
        };
        w.add_bytes(MANIFEST, &manifest.to_bytes())?;
        Ok(w)
    }

    pub fn add_bytes(&mut self, name: &str, bytes: &[u8]) -> Result<()> {
        self.zip
            .start_file(name, SimpleFileOptions::default())
            .with_context(|| format!("writing {name} into {}", self.path.display()))?;
        self.zip.write_all(bytes)?;
        Ok(())
    }

    /// Adds a file from disk under `name`.
    pub fn add_file(&mut self, name: &str, file: &Path) -> Result<()> {
        let bytes =
            std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
        self.add_bytes(name, &bytes)
    }

    /// Adds every file below `dir`, named by its path relative to `dir` under `prefix`.
    pub fn add_dir(&mut self, dir: &Path, prefix: &str) -> Result<()> {
        let mut files = Vec::new();
        collect_files(dir, &mut files)?;
        files.sort();
        for f in files {
            let rel = f.strip_prefix(dir)?.to_string_lossy().replace('\\', "/");
            self.add_file(&format!("{prefix}{rel}"), &f)?;
        }
        Ok(())
    }

    pub fn finish(self) -> Result<()> {
        self.zip
            .finish()
            .with_context(|| format!("finishing {}", self.path.display()))?;
        Ok(())
    }
}

/// All regular files below `dir`, recursively.
pub fn collect_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) -> Result<()> {
    for entry in std::fs::read_dir(dir).with_context(|| format!("cannot list {}", dir.display()))? {
        let path = entry?.path();
        if path.is_dir() {
            collect_files(&path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain_jar(path: &Path) {
        let file = File::create(path).unwrap();
        let mut z = ZipWriter::new(file);
        for (name, body) in [
            ("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\r\n\r\n"),
            ("META-INF/SIGNER.SF", "sig"),
            ("org/ex/a/A.class", "a"),
            ("org/ex/a/b/B.class", "b"),
            ("org/ex/res/readme.txt", "r"),
        ] {
            z.start_file(name, SimpleFileOptions::default()).unwrap();
            z.write_all(body.as_bytes()).unwrap();
        }
        z.finish().unwrap();
    }

    #[test]
    fn wraps_a_plain_jar_exporting_its_class_packages() {
        let dir = tempfile::tempdir().unwrap();
        let (src, dst) = (dir.path().join("plain.jar"), dir.path().join("wrapped.jar"));
        plain_jar(&src);
        wrap_plain_jar(&src, &dst, "ex", "1.2.0", &[("Require-Bundle", "other")]).unwrap();
        let m = read_manifest(&dst).unwrap().unwrap();
        assert_eq!(m.symbolic_name(), Some("ex"));
        assert_eq!(
            m.get("Export-Package"),
            Some("org.ex.a;version=\"1.2.0\",org.ex.a.b;version=\"1.2.0\"")
        );
        assert_eq!(m.get("Require-Bundle"), Some("other"));
        let names: Vec<String> = open(&dst).unwrap().file_names().map(String::from).collect();
        assert_eq!(names[0], MANIFEST);
        assert!(!names.iter().any(|n| n.ends_with(".SF")));
        assert!(names.contains(&"org/ex/res/readme.txt".to_string()));
    }

    #[test]
    fn a_jar_without_manifest_reads_as_none_and_garbage_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("x.jar");
        let mut w = ZipWriter::new(File::create(&path).unwrap());
        w.start_file("a.txt", SimpleFileOptions::default()).unwrap();
        w.finish().unwrap();
        assert!(read_manifest(&path).unwrap().is_none());
        std::fs::write(&path, b"not a zip").unwrap();
        let err = read_manifest(&path).unwrap_err().to_string();
        assert!(err.contains("not a valid jar"), "{err}");
    }
}
