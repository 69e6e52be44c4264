//! OSGi bundles found in jar directories, and the closure of a set of root bundles over their
//! mandatory `Require-Bundle`, `Import-Package` and `Fragment-Host` dependencies.

use crate::jar;
use crate::manifest::{clauses, Manifest};
use anyhow::{bail, Result};
use std::collections::{BTreeMap, BTreeSet, HashSet, VecDeque};
use std::path::{Path, PathBuf};

/// A bundle's identity and mandatory dependencies.
#[derive(Debug, Clone)]
pub struct Bundle {
    pub bsn: String,
    pub version: String,
    pub path: PathBuf,
    pub manifest: Manifest,
    host: Option<String>,
    requires: Vec<String>,
    imports: Vec<String>,
    exports: Vec<String>,
}

impl Bundle {
    /// `None` when the manifest does not describe a bundle.
    pub fn from_manifest(path: PathBuf, manifest: Manifest) -> Option<Self> {
        let bsn = manifest.symbolic_name()?.to_string();
        let version = manifest
            .get("Bundle-Version")
            .unwrap_or("0.0.0")
            .trim()
            .to_string();
        let mandatory = |header: &str| -> Vec<String> {
            clauses(manifest.get(header).unwrap_or(""))
                .into_iter()
                .filter(|c| !c.is_optional())
                .flat_map(|c| c.names)
                .collect()
        };
        let host = mandatory("Fragment-Host").into_iter().next();
        let requires = mandatory("Require-Bundle");
        let imports = mandatory("Import-Package");
        let exports = clauses(manifest.get("Export-Package").unwrap_or(""))
            .into_iter()
            .flat_map(|c| c.names)
            .collect();
        Some(Bundle {
            bsn,
            version,
            path,
            manifest,
            host,
            requires,
            imports,
            exports,
        })
    }
}

/// The bundles of some directories; the first directory that holds a symbolic name wins.
#[derive(Default)]
pub struct Index {
    by_name: BTreeMap<String, Bundle>,
    by_package: BTreeMap<String, Vec<String>>,
}

impl Index {
    /// Indexes every `*.jar` of `dirs` (symlinks to the same file count once) after `extra`.
    pub fn scan(extra: Vec<Bundle>, dirs: &[PathBuf]) -> Result<Self> {
        let mut index = Index::default();
        for b in extra {
            index.add(b);
        }
        let mut seen = HashSet::new();
        for dir in dirs {
            let mut jars: Vec<PathBuf> = std::fs::read_dir(dir)
                .map_err(|e| anyhow::anyhow!("cannot list {}: {e}", dir.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "jar"))
                .collect();
            jars.sort();
            for path in jars {
                let Ok(real) = path.canonicalize() else {
                    continue; // dangling symlink
                };
                if !seen.insert(real) {
                    continue;
                }
                // Unreadable jars are not bundles we can use; the closure reports what is missing.
                if let Ok(Some(m)) = jar::read_manifest(&path) {
                    if let Some(b) = Bundle::from_manifest(path, m) {
                        index.add(b);
                    }
                }
            }
        }
        Ok(index)
    }

    fn add(&mut self, b: Bundle) {
        if self.by_name.contains_key(&b.bsn) {
            return;
        }
        for p in &b.exports {
            self.by_package
                .entry(p.clone())
                .or_default()
                .push(b.bsn.clone());
        }
        self.by_name.insert(b.bsn.clone(), b);
    }

    #[cfg(test)]
    fn get(&self, bsn: &str) -> Option<&Bundle> {
        self.by_name.get(bsn)
    }

    /// The bundles `roots` need, sorted by symbolic name. Packages in `system_packages` come from
    /// the JRE. Missing roots are an error; missing dependencies of other bundles are returned as
    /// warnings, since optional code paths of Debian bundles sometimes import them.
    pub fn closure(
        &self,
        roots: &[&str],
        system_packages: &BTreeSet<String>,
    ) -> Result<(Vec<&Bundle>, Vec<String>)> {
        let missing_roots: Vec<&str> = roots
            .iter()
            .copied()
            .filter(|r| !self.by_name.contains_key(*r))
            .collect();
        if !missing_roots.is_empty() {
            bail!(
                "root bundles not found: {} (is every package of `cargo xtask eclipse-deps` installed?)",
                missing_roots.join(", ")
            );
        }
        let mut done = BTreeSet::new();
        let mut warnings = Vec::new();
        let mut todo: VecDeque<String> = roots.iter().map(|r| r.to_string()).collect();
        while let Some(name) = todo.pop_front() {
            if done.contains(&name) {
                continue;
            }
            let Some(b) = self.by_name.get(&name) else {
                warnings.push(format!("bundle {name} is required but not installed"));
                continue;
            };
            done.insert(name.clone());
            todo.extend(b.host.iter().cloned());
            todo.extend(b.requires.iter().filter(|r| *r != "system.bundle").cloned());
            for p in &b.imports {
                if p.starts_with("java.") || system_packages.contains(p) {
                    continue;
                }
                match self.by_package.get(p) {
                    None => warnings.push(format!(
                        "package {p} (imported by {name}) is provided by no bundle"
                    )),
                    Some(providers) => {
                        if !providers
                            .iter()
                            .any(|x| done.contains(x) || todo.contains(x))
                        {
                            todo.push_back(providers[0].clone());
                        }
                    }
                }
            }
        }
        Ok((done.iter().map(|n| &self.by_name[n]).collect(), warnings))
    }
}

/// The bundle a single jar holds; an error if it is not one.
pub fn bundle_of(path: &Path) -> Result<Bundle> {
    let m = jar::read_manifest(path)?
        .ok_or_else(|| anyhow::anyhow!("{} has no manifest", path.display()))?;
    Bundle::from_manifest(path.to_path_buf(), m)
        .ok_or_else(|| anyhow::anyhow!("{} is not an OSGi bundle", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bundle(headers: &str) -> Bundle {
        let m = Manifest::parse(headers.as_bytes()).unwrap();
        Bundle::from_manifest(PathBuf::from("x.jar"), m).unwrap()
    }

    fn index() -> Index {
        let mut i = Index::default();
        i.add(bundle("Bundle-SymbolicName: app;singleton:=true\nRequire-Bundle: ui;bundle-version=\"1\",opt;resolution:=optional\nImport-Package: javax.xml.parsers,org.util;version=\"[1,2)\",org.maybe;resolution:=optional\n"));
        i.add(bundle(
            "Bundle-SymbolicName: ui\nBundle-Version: 1.0.0.qualifier\nImport-Package: org.gone\n",
        ));
        i.add(bundle(
            "Bundle-SymbolicName: util\nExport-Package: org.util;version=\"1.0\",org.util.more\n",
        ));
        i.add(bundle(
            "Bundle-SymbolicName: util.fragment\nFragment-Host: util\n",
        ));
        i.add(bundle("Bundle-SymbolicName: opt\n"));
        i.add(bundle(
            "Bundle-SymbolicName: maybe\nExport-Package: org.maybe\n",
        ));
        i
    }

    #[test]
    fn follows_mandatory_requirements_only() {
        let system: BTreeSet<String> = ["javax.xml.parsers".to_string()].into();
        let i = index();
        let (bundles, warnings) = i.closure(&["app"], &system).unwrap();
        let names: Vec<&str> = bundles.iter().map(|b| b.bsn.as_str()).collect();
        assert_eq!(names, vec!["app", "ui", "util"]);
        assert_eq!(
            warnings,
            vec!["package org.gone (imported by ui) is provided by no bundle"]
        );
        assert_eq!(i.get("ui").unwrap().version, "1.0.0.qualifier");
    }

    #[test]
    fn fragments_pull_their_host_and_missing_roots_fail() {
        let i = index();
        let (bundles, _) = i.closure(&["util.fragment"], &BTreeSet::new()).unwrap();
        assert_eq!(bundles.len(), 2);
        let err = i
            .closure(&["nope"], &BTreeSet::new())
            .unwrap_err()
            .to_string();
        assert!(err.contains("nope"), "{err}");
    }
}
