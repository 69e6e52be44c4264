//! The Debian packages the Eclipse tasks need, and a check that they are installed.

use anyhow::{bail, Result};
use std::process::Command;

const LIST: &str = include_str!("../eclipse-packages.txt");

/// The package names of `xtask/eclipse-packages.txt`.
pub fn list() -> Vec<&'static str> {
    LIST.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .collect()
}

/// Fails naming the packages that `dpkg` does not report as installed.
pub fn check_installed() -> Result<()> {
    let pkgs = list();
    let out = Command::new("dpkg-query")
        .args(["-W", "-f=${Package} ${Status}\n"])
        .args(&pkgs)
        .output();
    let Ok(out) = out else {
        bail!("cannot run dpkg-query: the Eclipse tasks need Debian 12 with the packages of `cargo xtask eclipse-deps`");
    };
    let text = String::from_utf8_lossy(&out.stdout);
    let installed: Vec<&str> = text
        .lines()
        .filter(|l| l.ends_with("install ok installed"))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let missing: Vec<&str> = pkgs
        .into_iter()
        .filter(|p| !installed.contains(p))
        .collect();
    if !missing.is_empty() {
        bail!(
            "missing Debian packages: {}\ninstall them with:\n  apt-get install -y --no-install-recommends {}",
            missing.join(" "),
            missing.join(" ")
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_list_holds_the_key_packages_without_comments() {
        let l = super::list();
        for p in [
            "libswt-cairo-gtk-4-jni",
            "libfelix-scr-java",
            "libequinox-p2-director-app-java",
            "xvfb",
        ] {
            assert!(l.contains(&p), "{p} missing");
        }
        assert!(l.iter().all(|p| !p.contains(' ') && !p.starts_with('#')));
    }
}
