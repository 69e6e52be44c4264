//! The priority of the threads that store a live recording.
//!
//! The spool keeps the backlog on disk, so the store need not keep pace with the program: on a
//! machine with few cores it should take the CPU the program and its JIT leave, not compete for
//! it (docs/benchmarks.md, "Workloads"). So a live recording's store threads run
//! [`STORE_NICENESS`] nicer than the recorder, but only while somebody may need the CPU more:
//! - not before anybody waits for them: a live session's first question is rendered from a
//!   commit, which a store at nice 19 on a busy machine makes wait for seconds. The session
//!   says when (`NodeSink::store_may_fall_behind`);
//! - not after the program has ended ([`ProgramEnd`]): then the store is all that is left to
//!   wait for, and at nice 19 beside other busy processes it would get almost no CPU at all;
//! - nor once a front end waits for the store to reach the program's present moment (a person
//!   looks at the history of a suspended thread, `NodeSink::store_awaited`): it waits for the
//!   store, not for the program.
//!
//! Linux keeps a nice value per thread, a new thread inherits its creator's, and an unprivileged
//! thread cannot take its priority back. So each store thread lowers itself once, when told,
//! and a [`Successor`], started before at the recorder's priority, carries on its work for the
//! rest of the recording once the program has ended or a front end waits.

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;

/// How much nicer than the recorder the threads that store a recording are.
pub const STORE_NICENESS: i32 = 19;

/// Makes the calling thread [`STORE_NICENESS`] nicer; the threads it starts inherit it. A
/// failure leaves the priority as it was: it only costs speed.
pub fn behind_the_program() {
    if let Ok(nice) = rustix::process::getpriority_process(None) {
        let _ = rustix::process::setpriority_process(None, (nice + STORE_NICENESS).min(19));
    }
}

/// Whether the program a recording stores has ended, set by what sees its stream end (the
/// spool): from then on nothing needs the CPU more than the store.
#[derive(Clone, Debug, Default)]
pub struct ProgramEnd(Arc<AtomicBool>);

impl ProgramEnd {
    pub fn set(&self) {
        self.0.store(true, Ordering::Release);
    }

    pub fn has_ended(&self) -> bool {
        self.0.load(Ordering::Acquire)
    }
}

/// The name of a successor's thread until it carries on some work (15 bytes at most: Linux's
/// limit for a thread's name).
const SPARE: &str = "hindsight-spare";

/// The name a thread takes once a successor carries on its work.
const HANDED_OVER: &str = "hindsight-idle";

type Work = Box<dyn FnOnce() + Send>;

/// A thread started at the caller's priority that waits to carry on the work of a thread that
/// has since lowered its own. Dropped unused, its thread ends.
pub struct Successor {
    work: mpsc::Sender<Work>,
}

impl Successor {
    /// Starts the successor's thread (named `hindsight-spare` until it takes over).
    pub fn start() -> std::io::Result<Successor> {
        let (work, waiting) = mpsc::channel::<Work>();
        std::thread::Builder::new()
            .name(SPARE.into())
            .spawn(move || {
                if let Ok(work) = waiting.recv() {
                    work();
                }
            })?;
        Ok(Successor { work })
    }

    /// Runs `work` on the successor's thread, under the calling thread's name, and returns its
    /// result; the calling thread waits meanwhile (as `hindsight-idle`). A panic in `work` goes
    /// on here.
    pub fn carry_on<T: Send + 'static>(self, work: impl FnOnce() -> T + Send + 'static) -> T {
        let name = std::thread::current().name().map(thread_name);
        let (result, done) = mpsc::sync_channel(1);
        let job: Work = Box::new(move || {
            if let Some(name) = &name {
                let _ = rustix::thread::set_name(name);
            }
            let _ = result.send(catch_unwind(AssertUnwindSafe(work)));
        });
        if let Err(mpsc::SendError(job)) = self.work.send(job) {
            // The successor's thread is gone (it cannot be: it ends only after its work); the
            // work still gets done, here.
            job();
        } else {
            let _ = rustix::thread::set_name(&thread_name(HANDED_OVER));
        }
        match done.recv() {
            Ok(Ok(value)) => value,
            Ok(Err(panic)) => resume_unwind(panic),
            // `job` always sends, unless it was dropped unrun, which neither branch does.
            Err(_) => unreachable!("a successor's work ended without a result"),
        }
    }
}

/// `name` as Linux keeps a thread's name: at most 15 bytes, no NUL.
fn thread_name(name: &str) -> std::ffi::CString {
    let mut bytes: Vec<u8> = name.bytes().filter(|&b| b != 0).collect();
    bytes.truncate(15);
    std::ffi::CString::new(bytes).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nice() -> i32 {
        rustix::process::getpriority_process(None).unwrap()
    }

    #[test]
    fn a_successor_carries_on_at_the_priority_it_started_with_under_the_caller_name() {
        let worker = std::thread::Builder::new()
            .name("hindsight-test".into())
            .spawn(|| {
                let base = nice();
                let successor = Successor::start().unwrap();
                behind_the_program();
                let lowered = nice();
                assert_ne!(base, lowered, "the test already runs at nice 19");
                let (at, name) = successor.carry_on(|| {
                    let name = std::fs::read_to_string("/proc/thread-self/comm").unwrap();
                    (nice(), name.trim().to_string())
                });
                let mine = std::fs::read_to_string("/proc/thread-self/comm").unwrap();
                (base, lowered, at, name, mine.trim().to_string())
            })
            .unwrap();
        let (base, lowered, at, name, mine) = worker.join().unwrap();
        assert_eq!(at, base, "lowered to {lowered}, carried on at {at}");
        assert_eq!(name, "hindsight-test");
        assert_eq!(mine, HANDED_OVER);
    }

    #[test]
    fn a_panic_in_the_successor_goes_on_in_the_caller() {
        let successor = Successor::start().unwrap();
        let caught = catch_unwind(AssertUnwindSafe(|| {
            successor.carry_on(|| -> u32 { panic!("boom") })
        }));
        let message = caught.unwrap_err();
        assert_eq!(message.downcast_ref::<&str>(), Some(&"boom"));
    }

    #[test]
    fn thread_names_are_cut_to_what_linux_keeps() {
        assert_eq!(
            thread_name("hindsight-record-12").as_bytes(),
            b"hindsight-recor"
        );
        assert_eq!(thread_name("a\0b").as_bytes(), b"ab");
    }
}
