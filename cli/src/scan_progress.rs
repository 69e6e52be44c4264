//! The progress line of a long scan (whole-history queries, SQL over the event blocks, the JEL
//! export): done / total and the rate, on stderr when it is a terminal and `--json` is off.

use std::time::Duration;

use hindsight_core::query::ScanProgress;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

pub struct ScanBar {
    bar: Option<ProgressBar>,
}

impl ScanBar {
    /// A bar when `enabled` (see `progress::wanted`); shown only once a scan has run a moment.
    pub fn new(enabled: bool) -> ScanBar {
        let bar = enabled.then(|| {
            let bar =
                ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr_with_hz(10));
            bar.set_style(
                ProgressStyle::with_template("{elapsed:>4} scanning {pos}/{len} {msg} ({per_sec})")
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar.enable_steady_tick(Duration::from_millis(200));
            bar
        });
        ScanBar { bar }
    }

    pub fn update(&mut self, p: ScanProgress) {
        if let Some(bar) = &self.bar {
            bar.set_length(p.total.max(p.done));
            bar.set_position(p.done);
            bar.set_message(p.unit);
        }
    }

    pub fn finish(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }
}

impl Drop for ScanBar {
    fn drop(&mut self) {
        self.finish();
    }
}
