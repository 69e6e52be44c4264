//! Where the tasks read sources and write outputs.

use std::path::PathBuf;

/// The repository root and the directories the tasks use.
pub struct Layout {
    pub root: PathBuf,
    pub target: PathBuf,
}

impl Layout {
    pub fn from_env() -> Self {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("xtask lives in a subdirectory of the workspace")
            .to_path_buf();
        let target = std::env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| root.join("target"));
        Layout { root, target }
    }

    /// `target/eclipse`: the tool runtime, the base repository and the platform.
    pub fn eclipse(&self) -> PathBuf {
        self.target.join("eclipse")
    }

    /// The p2-managed Eclipse 4.26 platform.
    pub fn platform(&self) -> PathBuf {
        self.eclipse().join("platform")
    }

    /// The hand-assembled runtime that runs the p2 publisher and director.
    pub fn tool(&self) -> PathBuf {
        self.eclipse().join("tool")
    }

    pub fn base_repo(&self) -> PathBuf {
        self.eclipse().join("base-repo")
    }

    pub fn update_site(&self) -> PathBuf {
        self.target.join("update-site")
    }

    /// Scratch space of `update-site`: compiled classes, the site's source layout.
    pub fn site_build(&self) -> PathBuf {
        self.target.join("update-site-build")
    }

    pub fn eclipse_test(&self) -> PathBuf {
        self.target.join("eclipse-test")
    }
}
