//! The layers of the core run one way (docs/ARCHITECTURE.md, "Layers"): every module of
//! `hindsight-algo` (`core/algo/src`) and `hindsight-core` (`core/src`) imports only modules
//! listed above it in [`LAYERS`], and no two modules inside one module import each other.
//!
//! The check reads the sources: `use` declarations and paths starting with `crate::`,
//! `super::`, `self::` or a crate name, resolved to the module they name (test code left out).
//! A new top-level module must be placed in [`LAYERS`] and in ARCHITECTURE.md.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The units of the core, lowest first: each may import only the units above it. `trace` is
/// not a unit but a folder of four (wire, priority, store, recorder) with `coverage` between them.
const LAYERS: &[&str] = &[
    "ids",
    "glob",
    "tree",
    "session",
    "strategy",
    "trace::wire",
    "trace::synthetic",
    "trace::priority",
    "coverage",
    "loops",
    "trace::store",
    "trace::recorder",
    "capture",
    "scratch",
    "omniscient",
    "query",
    "oracle",
    "debugger",
    "evaluation",
];

/// Folders whose children are units of their own.
const FOLDERS: &[&str] = &["trace"];

type Module = Vec<String>;

struct Source {
    module: Module,
    text: String,
}

fn core_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every non-test source file of both crates, as one module tree (hindsight-core re-exports
/// hindsight-algo's modules under their names).
fn sources() -> Vec<Source> {
    let mut out = Vec::new();
    for root in [core_dir().join("algo/src"), core_dir().join("src")] {
        walk(&root, &root, &mut out);
    }
    assert!(out.len() > 50, "found only {} source files", out.len());
    out
}

fn walk(root: &Path, dir: &Path, out: &mut Vec<Source>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            walk(root, &path, out);
            continue;
        }
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let rel = path.strip_prefix(root).unwrap().with_extension("");
        let mut module: Module = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        if matches!(module.last().map(String::as_str), Some("mod" | "lib")) {
            module.pop();
        }
        if module
            .iter()
            .any(|m| m.starts_with("tests") || m == "testutil" || m == "testing")
        {
            continue;
        }
        let text = without_tests(&code_only(&std::fs::read_to_string(&path).unwrap()));
        out.push(Source { module, text });
    }
}

/// The source without comments, string and character literals.
fn code_only(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < b.len() {
        let rest = &src[i..];
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            i += rest.find("*/").map_or(rest.len(), |k| k + 2);
        } else if let Some(len) = raw_string(rest, i == 0 || is_ident(b[i - 1])) {
            out.push_str("\"\"");
            i += len;
        } else if b[i] == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            out.push_str("\"\"");
            i = j + 1;
        } else if let Some(len) = char_literal(rest) {
            out.push_str("' '");
            i += len;
        } else {
            let c = rest.chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The length of a raw string literal `r#"..."#` at the start of `s`.
fn raw_string(s: &str, after_boundary: bool) -> Option<usize> {
    let hashes = s
        .strip_prefix('r')?
        .bytes()
        .take_while(|&c| c == b'#')
        .count();
    if !after_boundary || s.as_bytes().get(1 + hashes) != Some(&b'"') {
        return None;
    }
    let end = format!("\"{}", "#".repeat(hashes));
    let body = 2 + hashes;
    Some(body + s[body..].find(&end)? + end.len())
}

/// The length of a character literal at the start of `s` (not a lifetime).
fn char_literal(s: &str) -> Option<usize> {
    let rest = s.strip_prefix('\'')?;
    let mut chars = rest.char_indices();
    let (_, c) = chars.next()?;
    let close = if c == '\\' {
        // `'\n'`, `'\''`, `'\u{1F600}'`: the quote after the escape.
        let escaped = &rest[1..];
        let len = if escaped.starts_with("u{") {
            escaped.find('}')? + 1
        } else {
            escaped.chars().next()?.len_utf8()
        };
        1 + len
    } else {
        chars.next()?.0
    };
    (rest[close..].starts_with('\'')).then_some(1 + close + 1)
}

/// The code without the items marked `#[cfg(test)]`.
fn without_tests(src: &str) -> String {
    let mut s = src.to_string();
    while let Some(k) = s.find("#[cfg(test)]") {
        let from = k + "#[cfg(test)]".len();
        let semi = s[from..].find(';').map(|x| x + from);
        let brace = s[from..].find('{').map(|x| x + from);
        let end = match (semi, brace) {
            (Some(semi), Some(brace)) if brace < semi => matching_brace(&s, brace),
            (None, Some(brace)) => matching_brace(&s, brace),
            (Some(semi), _) => semi + 1,
            (None, None) => s.len(),
        };
        s.replace_range(k..end, "");
    }
    s
}

fn matching_brace(s: &str, open: usize) -> usize {
    let mut depth = 0;
    for (i, c) in s[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return open + i + 1;
                }
            }
            _ => {}
        }
    }
    s.len()
}

/// The paths of `use a::{b, c::d}` spelled out: `a::b`, `a::c::d`.
fn expand_use(tree: &str) -> Vec<String> {
    // `X as Y` names X: the alias goes, the punctuation after it stays.
    let mut words = tree.split_whitespace();
    let mut kept = String::new();
    while let Some(w) = words.next() {
        if w == "as" {
            let alias = words.next().unwrap_or("");
            kept.extend(alias.chars().filter(|&c| !is_ident(c as u8)));
        } else {
            kept.push_str(w);
        }
    }
    let tree = kept;
    let Some(open) = tree.find('{') else {
        return vec![tree];
    };
    let prefix = &tree[..open];
    let body = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let (mut parts, mut depth, mut start) = (Vec::new(), 0, 0);
    for (i, c) in body.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&body[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&body[start..]);
    parts
        .into_iter()
        .filter(|p| !p.is_empty())
        .flat_map(|p| {
            expand_use(p).into_iter().map(move |e| {
                if e == "self" {
                    prefix.trim_end_matches(':').to_string()
                } else {
                    format!("{prefix}{e}")
                }
            })
        })
        .collect()
}

/// Every path a file names that may lead into the core.
fn paths(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = String::new();
    let mut s = text;
    while let Some(k) = find_word(s, "use") {
        rest.push_str(&s[..k]);
        let end = s[k..].find(';').map_or(s.len(), |e| k + e);
        out.extend(expand_use(&s[k + 3..end]));
        s = &s[(end + 1).min(s.len())..];
    }
    rest.push_str(s);
    for root in ["crate", "super", "self", "hindsight_algo", "hindsight_core"] {
        let mut from = 0;
        while let Some(k) = find_word(&rest[from..], root) {
            let start = from + k;
            let end = rest[start..]
                .find(|c: char| !(is_ident(c as u8) || c == ':'))
                .map_or(rest.len(), |e| start + e);
            let path = rest[start..end].trim_end_matches(':');
            if path.contains("::") {
                out.push(path.to_string());
            }
            from = end;
        }
    }
    out
}

/// The position of `word` in `s` as a whole word.
fn find_word(s: &str, word: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut from = 0;
    while let Some(k) = s[from..].find(word) {
        let at = from + k;
        let before = at == 0 || !is_ident(b[at - 1]);
        let after = b.get(at + word.len()).is_none_or(|&c| !is_ident(c));
        if before && after {
            return Some(at);
        }
        from = at + word.len();
    }
    None
}

/// The module a path in `here` names (the longest known module it starts with).
fn resolve(path: &str, here: &Module, modules: &BTreeSet<Module>) -> Option<Module> {
    let segs: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
    let (mut full, rest): (Module, &[&str]) = match segs.first()? {
        &"crate" | &"hindsight_algo" | &"hindsight_core" => (Vec::new(), &segs[1..]),
        &"super" | &"self" => {
            let mut m = here.clone();
            let mut i = 0;
            while let Some(&s) = segs.get(i).filter(|s| **s == "super" || **s == "self") {
                if s == "super" {
                    m.pop();
                }
                i += 1;
            }
            (m, &segs[i..])
        }
        first => {
            let mut child = here.clone();
            child.push(first.to_string());
            if !modules.contains(&child) {
                return None; // another crate: std, serde, ...
            }
            (here.clone(), &segs[..])
        }
    };
    full.extend(rest.iter().map(|s| s.to_string()));
    (1..=full.len())
        .rev()
        .map(|k| full[..k].to_vec())
        .find(|m| modules.contains(m))
}

/// The unit of [`LAYERS`] a module belongs to.
fn unit(module: &Module) -> String {
    let top = module.first().cloned().unwrap_or_default();
    if FOLDERS.contains(&top.as_str()) && module.len() > 1 {
        format!("{top}::{}", module[1])
    } else {
        top
    }
}

/// Imports between modules of the core: `(from, to)`, neither inside the other.
fn imports() -> BTreeSet<(Module, Module)> {
    let sources = sources();
    let modules: BTreeSet<Module> = sources.iter().map(|s| s.module.clone()).collect();
    let mut out = BTreeSet::new();
    for s in &sources {
        for path in paths(&s.text) {
            let Some(to) = resolve(&path, &s.module, &modules) else {
                continue;
            };
            let nested = to.starts_with(&s.module) || s.module.starts_with(&to);
            if !nested && !to.is_empty() {
                out.insert((s.module.clone(), to));
            }
        }
    }
    out
}

#[test]
fn every_unit_imports_only_units_above_it() {
    let imports = imports();
    let rank = |u: &str| LAYERS.iter().position(|l| *l == u);
    let mut wrong = Vec::new();
    for (from, to) in &imports {
        let (a, b) = (unit(from), unit(to));
        if a == b {
            continue;
        }
        match (rank(&a), rank(&b)) {
            (Some(x), Some(y)) if y < x => {}
            (Some(_), Some(_)) => wrong.push(format!(
                "{} imports {}, which is not above it",
                from.join("::"),
                to.join("::")
            )),
            (x, _) => {
                wrong.push(format!(
                "`{}` is not in LAYERS: place {} in core/tests/layers.rs and docs/ARCHITECTURE.md",
                if x.is_none() { &a } else { &b },
                if x.is_none() { from.join("::") } else { to.join("::") },
            ))
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn no_two_modules_import_each_other() {
    // Between the children of one module (siblings): an import of anything inside a sibling
    // counts as an import of the sibling.
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (from, to) in imports() {
        let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
        edges
            .entry(from[..=common].to_vec())
            .or_default()
            .insert(to[..=common].to_vec());
    }
    let mut circles = Vec::new();
    for (a, targets) in &edges {
        for b in targets {
            if a < b && edges.get(b).is_some_and(|t| t.contains(a)) {
                circles.push(format!("{} <-> {}", a.join("::"), b.join("::")));
            }
        }
    }
    // `trace` is a folder: `coverage` between its wire and its store is expected.
    circles.retain(|c| c != "coverage <-> trace");
    assert!(
        circles.is_empty(),
        "modules importing each other:\n{}",
        circles.join("\n")
    );
}

#[test]
fn the_reader_finds_imports_in_every_form() {
    let src = code_only(
        "use crate::a::{b::C, d as D, e::{self, F}};\nuse crate::k as K;\n// use crate::z::Q;\nfn f() { super::g::h(); let s = \"crate::y::Z\"; let c = '\"'; let q = '\\''; crate::x::Y::new() }",
    );
    let mut got = paths(&src);
    got.sort();
    assert_eq!(
        got,
        [
            "crate::a::b::C",
            "crate::a::d",
            "crate::a::e",
            "crate::a::e::F",
            "crate::k",
            "crate::x::Y::new",
            "super::g::h"
        ]
    );
    let modules: BTreeSet<Module> = [vec!["a".to_string()], vec!["a".into(), "b".into()]]
        .into_iter()
        .collect();
    let here = vec!["a".to_string(), "b".to_string(), "c".to_string()];
    assert_eq!(
        resolve("super::super::b::X", &here, &modules),
        Some(vec!["a".to_string(), "b".to_string()])
    );
    assert_eq!(resolve("std::fs::File", &here, &modules), None);
    assert_eq!(
        without_tests("a\n#[cfg(test)]\nmod tests { fn x() { } }\nb\n#[cfg(test)]\nmod t;\nc"),
        "a\n\nb\n\nc"
    );
}
