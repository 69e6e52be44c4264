//! Open sessions by handle: Java holds a `long`, never a pointer, so a closed or made-up handle
//! is an error message instead of a crash.

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use crate::session::{BridgeError, BridgeResult, BridgeSession};

type Shared = Arc<Mutex<BridgeSession>>;

fn sessions() -> &'static Mutex<HashMap<i64, Shared>> {
    static SESSIONS: OnceLock<Mutex<HashMap<i64, Shared>>> = OnceLock::new();
    SESSIONS.get_or_init(Mutex::default)
}

static NEXT: AtomicI64 = AtomicI64::new(1);

/// Keeps `session` and returns its handle (never 0).
pub fn insert(session: BridgeSession) -> i64 {
    let handle = NEXT.fetch_add(1, Ordering::Relaxed);
    sessions()
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .insert(handle, Arc::new(Mutex::new(session)));
    handle
}

/// Runs `f` on the session of `handle`; the registry is not locked meanwhile, so a slow query
/// on one session does not hold up the others.
pub fn with<T>(
    handle: i64,
    f: impl FnOnce(&mut BridgeSession) -> BridgeResult<T>,
) -> BridgeResult<T> {
    let shared = sessions()
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .get(&handle)
        .cloned()
        .ok_or(BridgeError::BadHandle(handle))?;
    let mut session = shared.lock().unwrap_or_else(|p| p.into_inner());
    f(&mut session)
}

/// Forgets `handle`; its session ends once no query is using it.
pub fn remove(handle: i64) -> BridgeResult<()> {
    let shared = sessions()
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .remove(&handle)
        .ok_or(BridgeError::BadHandle(handle))?;
    if let Ok(mutex) = Arc::try_unwrap(shared) {
        mutex
            .into_inner()
            .unwrap_or_else(|p| p.into_inner())
            .close();
    }
    Ok(())
}
