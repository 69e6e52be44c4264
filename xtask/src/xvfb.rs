//! A private X server (Xvfb) on a free display, stopped when dropped.

use anyhow::{bail, Context, Result};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct Xvfb {
    child: Child,
    pub display: String,
}

impl Xvfb {
    /// Starts Xvfb on the first display from :90 without a lock file and waits for its socket.
    pub fn start() -> Result<Self> {
        let n = (90..400)
            .find(|&n| display_is_free(n))
            .context("no free X display between :90 and :399")?;
        let display = format!(":{n}");
        let child = Command::new("Xvfb")
            .args([
                display.as_str(),
                "-screen",
                "0",
                "1600x1000x24",
                "-nolisten",
                "tcp",
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .context("cannot start Xvfb (package xvfb: apt-get install -y xvfb)")?;
        let mut x = Xvfb { child, display };
        let socket = format!("/tmp/.X11-unix/X{n}");
        let start = Instant::now();
        while !Path::new(&socket).exists() {
            if let Some(status) = x.child.try_wait()? {
                bail!("Xvfb {} exited at once ({status})", x.display);
            }
            if start.elapsed() > Duration::from_secs(20) {
                bail!("Xvfb {} did not create {socket} within 20 s", x.display);
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        Ok(x)
    }
}

/// Free: no lock file, or a lock file left by a server that is gone (Xvfb then replaces it).
fn display_is_free(n: u32) -> bool {
    match std::fs::read_to_string(format!("/tmp/.X{n}-lock")) {
        Err(_) => !Path::new(&format!("/tmp/.X11-unix/X{n}")).exists(),
        Ok(pid) => {
            let pid = pid.trim();
            !pid.is_empty() && !Path::new(&format!("/proc/{pid}")).exists()
        }
    }
}

impl Drop for Xvfb {
    fn drop(&mut self) {
        // SIGTERM lets Xvfb remove its lock file and socket; SIGKILL is the fallback. Already
        // gone is fine: the goal is that no server outlives the task.
        let terminated = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status()
            .is_ok_and(|s| s.success());
        if terminated {
            let start = Instant::now();
            while start.elapsed() < Duration::from_secs(5) {
                if let Ok(Some(_)) = self.child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
