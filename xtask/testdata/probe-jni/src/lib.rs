//! The smallest JNI library the JVM accepts: `JNI_OnLoad` reports JNI 1.8 and nothing else is
//! exported. It stands in for `libhindsight_jni.so` in packaging tests only.

use std::ffi::c_void;

/// `JNI_VERSION_1_8`.
const JNI_VERSION_1_8: i32 = 0x0001_0008;

/// Called by the JVM when the library loads; the arguments are not used.
#[no_mangle]
pub extern "C" fn JNI_OnLoad(_vm: *mut c_void, _reserved: *mut c_void) -> i32 {
    JNI_VERSION_1_8
}
