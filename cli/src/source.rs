//! Finding a class's source file to show the buggy lines: in the `--source-path` directories,
//! then in the current directory and the usual source roots, under the class's package path.

use std::path::{Path, PathBuf};

/// The text of `file` (`MergeSort.java`) of the class that declares `method`
/// (`pkg.Class.method`), if a directory holds it.
pub fn find(file: &str, method: &str, source_path: Option<&str>) -> Option<String> {
    let class = method.rsplit_once('.')?.0;
    let package = class.rsplit_once('.').map_or("", |(p, _)| p);
    let relative: PathBuf = package
        .split('.')
        .filter(|s| !s.is_empty())
        .collect::<PathBuf>()
        .join(file);
    let mut roots: Vec<PathBuf> = source_path
        .map(|p| std::env::split_paths(p).collect())
        .unwrap_or_default();
    roots.extend([".", "src", "src/main/java"].map(PathBuf::from));
    roots
        .iter()
        .flat_map(|root| [root.join(&relative), root.join(file)])
        .find(|p| p.is_file())
        .and_then(|p: PathBuf| std::fs::read_to_string(Path::new(&p)).ok())
}
