//! The JNI bridge of the Eclipse plugin: the `native` methods of
//! `hindsight.eclipse.core.NativeSession`. Conversion and error mapping only; the work is the
//! core's ([`session`]). Sessions live in a [`registry`] by handle; results cross as JSON
//! strings; every error becomes a `hindsight.eclipse.core.HindsightException` with its message,
//! and every export runs under `catch_unwind`, so a panic never unwinds into the JVM.

pub mod registry;
pub mod session;
pub mod table;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::Path;

use jni::objects::{JClass, JObjectArray, JString};
use jni::sys::{jboolean, jdouble, jint, jlong, jstring};
use jni::JNIEnv;
use serde::Serialize;

use session::{Bounds, BridgeError, BridgeSession, TreeOptions};

const EXCEPTION: &str = "hindsight/eclipse/core/HindsightException";

/// A failure of one call, as the exception's message.
struct Failure(String);

impl From<BridgeError> for Failure {
    fn from(e: BridgeError) -> Self {
        Failure(e.to_string())
    }
}

impl From<jni::errors::Error> for Failure {
    fn from(e: jni::errors::Error) -> Self {
        Failure(format!("JNI: {e}"))
    }
}

impl From<serde_json::Error> for Failure {
    fn from(e: serde_json::Error) -> Self {
        Failure(format!("writing JSON: {e}"))
    }
}

type Res<T> = Result<T, Failure>;

/// Runs one export's body: an error or a panic throws `HindsightException` and returns
/// `fallback` (which Java never sees, the exception being pending).
fn guard<'l, T>(
    env: &mut JNIEnv<'l>,
    fallback: T,
    body: impl FnOnce(&mut JNIEnv<'l>) -> Res<T>,
) -> T {
    let outcome = catch_unwind(AssertUnwindSafe(|| body(env)));
    let message = match outcome {
        Ok(Ok(value)) => return value,
        Ok(Err(Failure(m))) => m,
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            format!("internal error in the Hindsight core (please report it): {what}")
        }
    };
    // A Java exception already pending (e.g. from a failed JNI call) is replaced by ours.
    if env.exception_check().unwrap_or(false) {
        let _ = env.exception_clear();
    }
    let _ = env.throw_new(EXCEPTION, message);
    fallback
}

fn string(env: &mut JNIEnv, s: &JString) -> Res<String> {
    if s.is_null() {
        return Err(Failure("a required string argument is null".into()));
    }
    Ok(env.get_string(s)?.into())
}

fn optional_string(env: &mut JNIEnv, s: &JString) -> Res<Option<String>> {
    if s.is_null() {
        Ok(None)
    } else {
        string(env, s).map(Some)
    }
}

fn json(env: &mut JNIEnv, value: &impl Serialize) -> Res<jstring> {
    let text = serde_json::to_string(value)?;
    Ok(env.new_string(text)?.into_raw())
}

fn query<T: Serialize>(
    env: &mut JNIEnv,
    handle: jlong,
    f: impl FnOnce(&mut BridgeSession) -> session::BridgeResult<T>,
) -> Res<jstring> {
    let value = registry::with(handle, f)?;
    json(env, &value)
}

/// The bounds Java passes: a negative value asks for the core's default.
fn bounds(resident_nodes: jlong, question_cache: jint) -> Bounds {
    Bounds {
        resident_nodes: usize::try_from(resident_nodes).ok(),
        question_cache: usize::try_from(question_cache).ok(),
    }
}

/// The tree options Java passes: a `max_chain` below 2 sets no bound.
fn tree_options(balance: jboolean, loops: jboolean, max_chain: jint) -> TreeOptions {
    TreeOptions::new(balance != 0, loops != 0, max_chain.into())
}

#[no_mangle]
pub extern "system" fn Java_hindsight_eclipse_core_NativeSession_nOpenTrace<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    path: JString<'l>,
    trust: JString<'l>,
    resident_nodes: jlong,
    question_cache: jint,
    balance: jboolean,
    loops: jboolean,
    max_chain: jint,
) -> jlong {
    guard(&mut env, 0, |env| {
        let path = string(env, &path)?;
        let trust = optional_string(env, &trust)?.unwrap_or_default();
        Ok(registry::insert(BridgeSession::open_with(
            Path::new(&path),
            &trust,
            bounds(resident_nodes, question_cache),
            tree_options(balance, loops, max_chain),
        )?))
    })
}

#[no_mangle]
pub extern "system" fn Java_hindsight_eclipse_core_NativeSession_nStartLive<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    trace: JString<'l>,
    trust: JString<'l>,
    resident_nodes: jlong,
    question_cache: jint,
    balance: jboolean,
    loops: jboolean,
    max_chain: jint,
) -> jlong {
    guard(&mut env, 0, |env| {
        let trace = string(env, &trace)?;
        let trust = optional_string(env, &trust)?.unwrap_or_default();
        Ok(registry::insert(BridgeSession::start_live_with(
            Path::new(&trace),
            &trust,
            bounds(resident_nodes, question_cache),
            tree_options(balance, loops, max_chain),
        )?))
    })
}

#[no_mangle]
pub extern "system" fn Java_hindsight_eclipse_core_NativeSession_nSocketPath<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
) -> jstring {
    guard(&mut env, std::ptr::null_mut(), |env| {
        query(env, handle, |s| {
            Ok(s.socket_path().map(|p| p.display().to_string()))
        })
    })
}

#[no_mangle]
pub extern "system" fn Java_hindsight_eclipse_core_NativeSession_nChildren<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    node: jlong,
    offset: jint,
    limit: jint,
) -> jstring {
    guard(&mut env, std::ptr::null_mut(), |env| {
        query(env, handle, |s| s.children(node, offset, limit))
    })
}

#[no_mangle]
pub extern "system" fn Java_hindsight_eclipse_core_NativeSession_nNodeState<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    node: jlong,
    at: jlong,
    expand: JObjectArray<'l>,
) -> jstring {
    guard(&mut env, std::ptr::null_mut(), |env| {
        let paths = strings(env, &expand)?;
        query(env, handle, |s| s.node_state(node, at, &paths))
    })
}

/// The strings of a `String[]` (none for null).
fn strings(env: &mut JNIEnv, array: &JObjectArray) -> Res<Vec<String>> {
    let mut out = Vec::new();
    if !array.is_null() {
        for i in 0..env.get_array_length(array)? {
            let element = JString::from(env.get_object_array_element(array, i)?);
            out.push(string(env, &element)?);
        }
    }
    Ok(out)
}

#[no_mangle]
pub extern "system" fn Java_hindsight_eclipse_core_NativeSession_nEvents<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    node: jlong,
    var: JString<'l>,
    from: jlong,
    limit: jint,
) -> jstring {
    guard(&mut env, std::ptr::null_mut(), |env| {
        let var = optional_string(env, &var)?;
        query(env, handle, |s| s.events(node, var.as_deref(), from, limit))
    })
}

#[no_mangle]
pub extern "system" fn Java_hindsight_eclipse_core_NativeSession_nHistory<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    path: JString<'l>,
    offset: jint,
    limit: jint,
) -> jstring {
    guard(&mut env, std::ptr::null_mut(), |env| {
        let path = string(env, &path)?;
        query(env, handle, |s| s.history(&path, offset, limit))
    })
}

#[no_mangle]
pub extern "system" fn Java_hindsight_eclipse_core_NativeSession_nStatus<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
) -> jstring {
    guard(&mut env, std::ptr::null_mut(), |env| {
        query(env, handle, |s| s.status())
    })
}

#[no_mangle]
pub extern "system" fn Java_hindsight_eclipse_core_NativeSession_nJvms<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
) -> jstring {
    guard(&mut env, std::ptr::null_mut(), |env| {
        query(env, handle, |s| Ok(s.jvms()))
    })
}

#[no_mangle]
pub extern "system" fn Java_hindsight_eclipse_core_NativeSession_nFrameNode<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    java_thread: jlong,
    frames: JObjectArray<'l>,
    index: jint,
) -> jstring {
    guard(&mut env, std::ptr::null_mut(), |env| {
        let frames = strings(env, &frames)?;
        query(env, handle, |s| s.frame_node(java_thread, &frames, index))
    })
}

#[no_mangle]
pub extern "system" fn Java_hindsight_eclipse_core_NativeSession_nOrigin<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    path: JString<'l>,
    at: jlong,
) -> jstring {
    guard(&mut env, std::ptr::null_mut(), |env| {
        let path = string(env, &path)?;
        query(env, handle, |s| s.origin(&path, at))
    })
}

#[no_mangle]
pub extern "system" fn Java_hindsight_eclipse_core_NativeSession_nAnswer<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    node: jlong,
    answer: JString<'l>,
) {
    guard(&mut env, (), |env| {
        let answer = string(env, &answer)?;
        Ok(registry::with(handle, |s| s.answer(node, &answer))?)
    })
}

#[no_mangle]
pub extern "system" fn Java_hindsight_eclipse_core_NativeSession_nUndo<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
) {
    guard(&mut env, (), |_| Ok(registry::with(handle, |s| s.undo())?))
}

#[no_mangle]
pub extern "system" fn Java_hindsight_eclipse_core_NativeSession_nNextQuestion<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
) -> jstring {
    guard(&mut env, std::ptr::null_mut(), |env| {
        query(env, handle, |s| s.next_question())
    })
}

#[no_mangle]
pub extern "system" fn Java_hindsight_eclipse_core_NativeSession_nSetStrategy<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    name: JString<'l>,
    p: jdouble,
) {
    guard(&mut env, (), |env| {
        let name = string(env, &name)?;
        Ok(registry::with(handle, |s| s.set_strategy(&name, p))?)
    })
}

#[no_mangle]
pub extern "system" fn Java_hindsight_eclipse_core_NativeSession_nPathTo<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    node: jlong,
) -> jstring {
    guard(&mut env, std::ptr::null_mut(), |env| {
        query(env, handle, |s| s.path_to(node))
    })
}

#[no_mangle]
pub extern "system" fn Java_hindsight_eclipse_core_NativeSession_nVariableChildren<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    path: JString<'l>,
    entry: jlong,
    at: jlong,
    offset: jint,
    limit: jint,
) -> jstring {
    guard(&mut env, std::ptr::null_mut(), |env| {
        let path = string(env, &path)?;
        query(env, handle, |s| {
            s.variable_children(&path, entry, at, offset, limit)
        })
    })
}

#[no_mangle]
pub extern "system" fn Java_hindsight_eclipse_core_NativeSession_nTrust<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    method: JString<'l>,
) {
    guard(&mut env, (), |env| {
        let method = string(env, &method)?;
        Ok(registry::with(handle, |s| s.trust(&method))?)
    })
}

#[no_mangle]
pub extern "system" fn Java_hindsight_eclipse_core_NativeSession_nQueries<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
) -> jstring {
    guard(&mut env, std::ptr::null_mut(), |env| {
        json(env, &BridgeSession::queries())
    })
}

#[no_mangle]
pub extern "system" fn Java_hindsight_eclipse_core_NativeSession_nQuery<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    name: JString<'l>,
    arguments: JString<'l>,
) -> jstring {
    guard(&mut env, std::ptr::null_mut(), |env| {
        let name = string(env, &name)?;
        let arguments = optional_string(env, &arguments)?.unwrap_or_default();
        query(env, handle, |s| s.query(&name, &arguments))
    })
}

#[no_mangle]
pub extern "system" fn Java_hindsight_eclipse_core_NativeSession_nSql<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
    sql: JString<'l>,
    limit: jint,
) -> jstring {
    guard(&mut env, std::ptr::null_mut(), |env| {
        let sql = string(env, &sql)?;
        query(env, handle, |s| s.sql(&sql, limit))
    })
}

#[no_mangle]
pub extern "system" fn Java_hindsight_eclipse_core_NativeSession_nClose<'l>(
    mut env: JNIEnv<'l>,
    _class: JClass<'l>,
    handle: jlong,
) {
    guard(&mut env, (), |_| Ok(registry::remove(handle)?))
}
