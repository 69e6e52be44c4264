//! The priority of the threads that store a live recording.
//!
//! The spool keeps the backlog on disk, so the store need not keep pace with the program: on a
//! machine with few cores it should take the CPU the program and its JIT leave, not compete for
//! it (docs/benchmarks.md, "Workloads"). So a live recording's store threads run
//! [`STORE_NICENESS`] nicer than the recorder, but only once nobody waits for them: a live
//! session's first question is rendered from a commit, which a store at nice 19 on a busy
//! machine makes wait for seconds. Linux keeps a nice value per thread, and an unprivileged
//! thread cannot take it back, so each thread lowers itself once, when told; the session says
//! when (`NodeSink::store_may_fall_behind`).

/// How much nicer than the recorder the threads that store a recording are.
pub const STORE_NICENESS: i32 = 19;

/// Makes the calling thread [`STORE_NICENESS`] nicer; the threads it starts inherit it. A
/// failure leaves the priority as it was: it only costs speed.
pub fn behind_the_program() {
    if let Ok(nice) = rustix::process::getpriority_process(None) {
        let _ = rustix::process::setpriority_process(None, (nice + STORE_NICENESS).min(19));
    }
}
