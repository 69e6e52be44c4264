//! From a thread suspended in a Java debugger to the execution tree: which running call is the
//! frame a person looks at, and the moment the recording has reached. A debugger's stack also
//! shows frames of uninstrumented code (the JDK, reflection, a test runner) and may be ahead of
//! the recording by the events still buffered in the JVM, so frames are matched to the thread's
//! running calls by method from the outermost frame in, skipping the frames that match none.

use std::time::{Duration, Instant};

use serde::Serialize;

use super::{DebugError, Debugger, TreeNode};
use crate::ids::NodeId;

/// The call behind a debugger's stack frame, and the last timestamp recorded so far (the
/// suspended moment, as far as the recording knows it).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FrameNode {
    pub node: TreeNode,
    pub at: u64,
}

/// Matches stack frames (innermost first) to running calls (outermost first) by method:
/// returns, for each frame, the index of its call, or `None` for a frame no call matches.
/// Greedy from the outermost frame: a call matches the first frame, going inwards, of its method.
pub fn match_frames(frames: &[&str], calls: &[&str]) -> Vec<Option<usize>> {
    let mut out = vec![None; frames.len()];
    let mut k = 0;
    for j in (0..frames.len()).rev() {
        if k < calls.len() && frames[j] == calls[k] {
            out[j] = Some(k);
            k += 1;
        }
    }
    out
}

impl Debugger {
    /// The running call behind frame `index` of the stack `frames` (innermost first, each
    /// `pkg.Class.method`) of the thread whose Java id (`Thread.getId()`) is `java_thread`;
    /// `None` when that frame is not recorded (uninstrumented code, or not arrived within
    /// [`FRAME_LIMIT`] in a live recording).
    pub fn frame_node(
        &mut self,
        java_thread: u64,
        frames: &[String],
        index: usize,
    ) -> Result<Option<FrameNode>, DebugError> {
        // What the suspended thread sent last may reach the spool after `catch_up` settled on
        // what had arrived (a loaded machine schedules the spool's thread late): a frame not
        // matched is looked for again while the recording goes on.
        let start = Instant::now();
        loop {
            self.catch_up()?;
            let found = self.running_call_of(java_thread, frames, index)?;
            let live = self.recording().is_some() && !self.is_sealed();
            if found.is_some() || !live || start.elapsed() > FRAME_LIMIT {
                return Ok(found);
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// [`Debugger::frame_node`] over the tree as the session has it now.
    fn running_call_of(
        &mut self,
        java_thread: u64,
        frames: &[String],
        index: usize,
    ) -> Result<Option<FrameNode>, DebugError> {
        self.open_reader()?;
        let Some(reader) = &self.reader else {
            return Ok(None);
        };
        let thread = reader
            .threads()?
            .into_iter()
            .find(|(def, _)| def.java_id == java_thread)
            .and_then(|(_, node)| node);
        let Some(thread) = thread else {
            return Ok(None);
        };
        let at = reader.info()?.last_ts;
        let mut running: Vec<NodeId> = Vec::new();
        let tree = self.session.tree();
        let mut x = thread;
        while let Some(c) = tree.last_child(x).filter(|&c| !tree.is_complete(c)) {
            running.push(c);
            x = c;
        }
        // A frame is a call: the loops and iterations running in it are not frames.
        running.retain(|&n| tree.kind(n).is_call());
        let mut methods = Vec::with_capacity(running.len());
        for &n in &running {
            methods.push(self.method_of(n)?.unwrap_or_default());
        }
        let frames: Vec<&str> = frames.iter().map(String::as_str).collect();
        let calls: Vec<&str> = methods.iter().map(String::as_str).collect();
        let Some(Some(k)) = match_frames(&frames, &calls).get(index).copied() else {
            return Ok(None);
        };
        Ok(Some(FrameNode {
            node: self.tree_node(running[k])?,
            at,
        }))
    }
}

/// How long [`Debugger::frame_node`] looks again for a frame it did not find.
const FRAME_LIMIT: Duration = Duration::from_secs(2);

/// How long [`Debugger::catch_up`] waits for the store at most: it has then all of the stream
/// to store that arrived before the catch-up began, at the recorder's priority.
const CATCH_UP_LIMIT: Duration = Duration::from_secs(20);

/// How long [`Debugger::catch_up`] takes what arrives as part of the moment it catches up to:
/// the flushed buffer is in the socket when the debugger asks, and the spool's thread may be
/// scheduled a little later on a loaded machine.
const CATCH_UP_SETTLE: Duration = Duration::from_millis(50);

/// How long [`Debugger::catch_up`] takes in headers at most once the store has caught up.
const CATCH_UP_INTAKE: Duration = Duration::from_secs(1);

impl Debugger {
    /// Waits until the store has committed what the program had sent when the catch-up began
    /// (within [`CATCH_UP_SETTLE`]) and the session has taken it in: after a debugger made a
    /// suspended thread send its buffer, the trace then reaches that moment. A store that runs
    /// behind the program is told that a front end waits, and keeps the recorder's priority
    /// from then on. What other threads of the program send meanwhile is not waited for.
    pub fn catch_up(&mut self) -> Result<(), DebugError> {
        let start = Instant::now();
        let mut target = 0;
        while let Some(feed) = self.recording() {
            if self.is_sealed() {
                break;
            }
            // Before the first connection, the stream is empty.
            let bytes = feed.stream_bytes().unwrap_or_default();
            if start.elapsed() < CATCH_UP_SETTLE {
                target = bytes.arrived;
            } else if bytes.committed >= target {
                break;
            } else if start.elapsed() > CATCH_UP_LIMIT {
                return Err(DebugError::Behind {
                    waited: CATCH_UP_LIMIT,
                    bytes: target - bytes.committed,
                });
            }
            if bytes.committed < bytes.arrived {
                feed.await_store();
            }
            feed.request_commit();
            std::thread::sleep(Duration::from_millis(5));
            self.pump()?;
        }
        // The headers handed over before the commit are taken in; a program that runs on hands
        // over more meanwhile, so the intake is bounded.
        let intake = Instant::now();
        while self.pump()? > 0 && intake.elapsed() < CATCH_UP_INTAKE {}
        self.wait_for_last_node()
    }
}

#[cfg(test)]
mod tests {
    use super::match_frames;

    #[test]
    fn frames_of_uninstrumented_code_match_no_call() {
        // A JUnit stack: reflection and the runner around the test, the JDK inside it.
        let frames = [
            "java.util.Arrays.sort",
            "p.Sorter.merge",
            "p.Sorter.sort",
            "p.SorterTest.sorts",
            "jdk.internal.reflect.NativeMethodAccessorImpl.invoke0",
            "org.junit.runners.ParentRunner.run",
        ];
        let calls = ["p.SorterTest.sorts", "p.Sorter.sort", "p.Sorter.merge"];
        assert_eq!(
            match_frames(&frames, &calls),
            vec![None, Some(2), Some(1), Some(0), None, None]
        );
    }

    #[test]
    fn recursion_matches_each_frame_to_its_own_call() {
        let frames = ["p.F.fib", "p.F.fib", "p.F.fib", "p.Main.main"];
        let calls = ["p.Main.main", "p.F.fib", "p.F.fib", "p.F.fib"];
        assert_eq!(
            match_frames(&frames, &calls),
            vec![Some(3), Some(2), Some(1), Some(0)]
        );
    }

    #[test]
    fn frames_ahead_of_the_recording_are_not_matched() {
        // The innermost call's start is still buffered in the JVM.
        let frames = ["p.A.c", "p.A.b", "p.A.main"];
        let calls = ["p.A.main", "p.A.b"];
        assert_eq!(match_frames(&frames, &calls), vec![None, Some(1), Some(0)]);
    }
}
