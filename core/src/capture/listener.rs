//! The recorder's end of the agent's socket.
//!
//! The recorder binds a Unix domain socket in a private temporary directory and passes its path
//! to the agent (`socket=PATH`). Every JVM that loads the agent connects once; each connection is
//! one stream of the wire format, handed to a callback on a thread of its own, so a command that
//! starts several JVMs records them side by side.

use std::io;
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// How often the accept loop looks at its stop flag.
const POLL: Duration = Duration::from_millis(10);

/// A bound socket that accepts agent connections until stopped.
pub struct Listener {
    dir: tempfile::TempDir,
    listener: UnixListener,
}

impl Listener {
    /// Binds a fresh socket in a private temporary directory.
    pub fn bind() -> io::Result<Listener> {
        let dir = tempfile::Builder::new().prefix("hindsight-").tempdir()?;
        let listener = UnixListener::bind(dir.path().join("agent.sock"))?;
        listener.set_nonblocking(true)?;
        Ok(Listener { dir, listener })
    }

    /// The path to give the agent.
    pub fn socket_path(&self) -> PathBuf {
        self.dir.path().join("agent.sock")
    }

    /// Accepts connections on a background thread, calling `on_stream(stream, n)` for the n-th
    /// connection (from 0) on a thread of its own, until [`Accepting::finish`].
    pub fn accept<F>(self, on_stream: F) -> Accepting
    where
        F: Fn(UnixStream, usize) + Send + Sync + 'static,
    {
        let stop = Arc::new(AtomicBool::new(false));
        let stop_flag = Arc::clone(&stop);
        let on_stream = Arc::new(on_stream);
        let thread = std::thread::Builder::new()
            .name("hindsight-accept".into())
            .spawn(move || accept_loop(self, &stop_flag, on_stream))
            .expect("spawning the accept thread");
        Accepting { stop, thread }
    }

    pub fn dir(&self) -> &Path {
        self.dir.path()
    }
}

fn accept_loop<F>(listener: Listener, stop: &AtomicBool, on_stream: Arc<F>) -> io::Result<usize>
where
    F: Fn(UnixStream, usize) + Send + Sync + 'static,
{
    let mut workers: Vec<JoinHandle<()>> = Vec::new();
    let mut count = 0;
    loop {
        match listener.listener.accept() {
            Ok((stream, _)) => {
                // The stream is read with blocking reads by its recorder.
                stream.set_nonblocking(false)?;
                let n = count;
                count += 1;
                let on_stream = Arc::clone(&on_stream);
                workers.push(
                    std::thread::Builder::new()
                        .name(format!("hindsight-record-{n}"))
                        .spawn(move || on_stream(stream, n))?,
                );
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                // A stop takes effect only once no connection is pending, so a JVM that
                // connected just before its exit is still recorded.
                if stop.load(Ordering::Acquire) {
                    break;
                }
                std::thread::sleep(POLL);
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    for worker in workers {
        // A recorder thread that panicked has already lost its stream; the others go on.
        let _ = worker.join();
    }
    Ok(count)
}

/// A listener accepting connections in the background.
pub struct Accepting {
    stop: Arc<AtomicBool>,
    thread: JoinHandle<io::Result<usize>>,
}

impl Accepting {
    /// Stops accepting, waits until every accepted stream has been handled, and returns how many
    /// connections there were.
    pub fn finish(self) -> io::Result<usize> {
        self.stop.store(true, Ordering::Release);
        self.thread
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("the accept thread panicked")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};
    use std::sync::Mutex;

    #[test]
    fn every_connection_is_handed_over_with_its_number() {
        let listener = Listener::bind().unwrap();
        let path = listener.socket_path();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&seen);
        let accepting = listener.accept(move |mut stream, n| {
            let mut text = String::new();
            stream.read_to_string(&mut text).unwrap();
            sink.lock().unwrap().push((n, text));
        });
        for word in ["first", "second"] {
            let mut client = UnixStream::connect(&path).unwrap();
            client.write_all(word.as_bytes()).unwrap();
        }
        assert_eq!(accepting.finish().unwrap(), 2);
        let mut seen = seen.lock().unwrap().clone();
        seen.sort();
        assert_eq!(seen, [(0, "first".to_string()), (1, "second".to_string())]);
    }

    #[test]
    fn finish_without_connections_returns_zero() {
        let accepting = Listener::bind().unwrap().accept(|_, _| {});
        assert_eq!(accepting.finish().unwrap(), 0);
    }
}
