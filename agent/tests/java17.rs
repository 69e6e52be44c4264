//! Every Java 17 feature program of `tests/java17/` runs with the agent exactly as without it
//! (`-Xverify:all`, same stdout, stderr and exit status), and the stream it records is well
//! formed: magic, version, definitions before use, increasing timestamps, END with the status.

mod common;

use common::{decode, java, javac, repo_root, Trace, AGENT_JAR};
use std::collections::{HashMap, HashSet};
use std::fs;
use std::process::Command;

/// Compiles and runs `tests/java17/NAME.java` plain and recorded; returns the decoded trace.
fn check_program(name: &str) -> Trace {
    let dir = tempfile::tempdir().expect("temp dir");
    let classes = dir.path().join("classes");
    fs::create_dir(&classes).expect("classes dir");
    javac(
        &[repo_root().join(format!("tests/java17/{name}.java"))],
        None,
        &classes,
    );
    let cp = classes.to_str().expect("utf-8 path");
    let plain = java(cp, name, None);
    let stream = dir.path().join("out.hsw");
    let recorded = java(cp, name, Some(&format!("file={}", stream.display())));
    let stderr = String::from_utf8_lossy(&recorded.stderr);
    assert_eq!(
        String::from_utf8_lossy(&plain.stdout),
        String::from_utf8_lossy(&recorded.stdout),
        "stdout differs; recorded stderr:\n{stderr}"
    );
    assert_eq!(
        plain.status.code(),
        recorded.status.code(),
        "exit status differs; stderr:\n{stderr}"
    );
    assert!(!stderr.contains("hindsight:"), "agent warning:\n{stderr}");
    // Not even the JVM notices the agent (no class-data-sharing warning, same stack traces).
    assert_eq!(
        String::from_utf8_lossy(&plain.stderr),
        stderr,
        "stderr differs"
    );
    let bytes = fs::read(&stream).expect("the stream file exists");
    let trace = decode(&bytes).unwrap_or_else(|e| panic!("{name}: malformed stream: {e}"));
    assert_eq!(
        trace.end,
        Some(i64::from(plain.status.code().expect("exit code"))),
        "END status"
    );
    assert!(trace.warnings.is_empty(), "{:?}", trace.warnings);
    assert!(
        trace.events.iter().any(|e| e.op == 0x01),
        "no CALL recorded"
    );
    assert!(trace.command.starts_with(name));
    if name != "ExitStatus" {
        // Without System.exit every call ends: each thread's CALLs and RETURN/UNWINDs balance.
        for (thread, open) in trace.open_calls() {
            assert_eq!(
                open, 0,
                "{name}: thread {thread} has {open} calls without RETURN or UNWIND"
            );
        }
    }
    trace
}

/// Asserts that `expected` occur in `lines` in this order (not necessarily adjacent).
fn assert_subsequence(lines: &[String], expected: &[&str]) {
    let mut it = lines.iter();
    for want in expected {
        assert!(
            it.any(|l| l.contains(want)),
            "missing (in order) `{want}` in:\n{}",
            lines.join("\n")
        );
    }
}

macro_rules! program_tests {
    ($($test:ident: $name:literal,)*) => {$(
        #[test]
        fn $test() {
            check_program($name);
        }
    )*};
}

program_tests! {
    string_concat: "StringConcat",
    records: "Records",
    switches: "Switches",
    inner_classes: "InnerClasses",
    static_init: "StaticInit",
    interfaces: "Interfaces",
    varargs: "Varargs",
    long_double: "LongDouble",
    synchronized_methods_and_blocks: "Synchronized",
    threads: "Threads",
    exit_status: "ExitStatus",
    uncaught_exception_in_main: "UncaughtMain",
}

/// An enum constant's name is a text CONTENT of the object: after its construction for the
/// program's enums (bodies included), when first seen for the JDK's; a class's, a method's and
/// a constructor's too.
#[test]
fn enum_constants_are_named_by_a_text_content() {
    let trace = check_program("Enums");
    let lines = trace.lines();
    assert_subsequence(
        &lines,
        &[
            "Enums$Op$1 origin 0",
            "text [\"ADD\"]",
            "Enums$Op$2 origin 0",
            "text [\"MUL\"]",
            "RoundingMode origin 1",
            "text [\"HALF_UP\"]",
            "CALL Enums.scale(",
        ],
    );
    // The class object, first seen where Op.valueOf passes it to Enum.valueOf.
    assert_subsequence(
        &lines,
        &[
            "java.lang.Class origin 1",
            "text [\"Enums$Op\"]",
            "EXT_CALL java.lang.Enum.valueOf(",
        ],
    );
    // A method and a constructor, by class, name and parameter types.
    assert_subsequence(
        &lines,
        &[
            "java.lang.reflect.Method origin 1",
            "text [\"Enums.scale(java.math.RoundingMode)\"]",
            "java.lang.reflect.Constructor origin 1",
            "text [\"Enums.<init>()\"]",
        ],
    );
    // Once per constant: the body's constructor and the enum's both finish super(...).
    let named = |name: &str| {
        lines
            .iter()
            .filter(|l| l.contains(&format!("text [\"{name}\"]")))
            .count()
    };
    assert_eq!((named("ADD"), named("MUL"), named("HALF_UP")), (1, 1, 1));
    // Both the enum and its constants' bodies are enum classes (flag bit 2).
    for class in ["Enums$Op", "Enums$Op$1", "java.math.RoundingMode"] {
        let id = trace
            .classes
            .iter()
            .find(|(_, name)| *name == class)
            .unwrap_or_else(|| panic!("no class {class}"))
            .0;
        let flags = trace.class_flags[id];
        assert_ne!(flags & 4, 0, "{class} is not flagged enum");
    }
}

/// Writes the program's code makes through the JDK (a VarHandle on a field and on an array
/// element, an atomic field updater, reflection, Unsafe) are recorded inside the call: the
/// object's fields (the element) as they are after it, so the trace's values keep up.
#[test]
fn fields_written_through_var_handles_updaters_unsafe_and_reflection_are_recorded() {
    let trace = check_program("HiddenWrites");
    let lines = trace.lines();
    assert_subsequence(
        &lines,
        &[
            "EXT_CALL java.lang.invoke.VarHandle.compareAndSet(",
            ".HiddenWrites$Counter.base = 1",
            "EXT_RETURN true",
            "EXT_CALL java.util.concurrent.atomic.AtomicIntegerFieldUpdater.incrementAndGet(",
            ".HiddenWrites$Counter.hits = 1",
            "EXT_RETURN 1",
            "EXT_CALL java.lang.invoke.VarHandle.setVolatile(",
            "[1] = 7",
            "EXT_RETURN void",
            "EXT_CALL java.lang.invoke.VarHandle.compareAndSet(",
            ".HiddenWrites$Counter.base = 3",
            "EXT_CALL java.lang.reflect.Field.set(",
            ".HiddenWrites$Counter.label = \"set by reflection\"",
            "EXT_CALL java.lang.reflect.Field.setInt(",
            "STATIC_WRITE HiddenWrites$Counter.created = 12",
            "EXT_RETURN void",
            "EXT_CALL sun.misc.Unsafe.putInt(",
            ".HiddenWrites$Counter.hits = 40",
            "EXT_RETURN void",
        ],
    );
    // `Field.set` names its field: that one is written, not every field of the object (a
    // history would show the others changed).
    let set = lines
        .iter()
        .position(|l| l.contains("EXT_CALL java.lang.reflect.Field.set("))
        .expect("Field.set");
    let ret = set
        + lines[set..]
            .iter()
            .position(|l| l.contains("EXT_RETURN"))
            .unwrap();
    let writes: Vec<&String> = lines[set..ret]
        .iter()
        .filter(|l| l.contains("FIELD_WRITE"))
        .collect();
    assert_eq!(writes.len(), 1, "{writes:#?}");
}

/// A field reached through a subclass (`sub.row`, `Sub.created`, `Sub.NAMES`) has the id of the
/// class that declares it, so one variable has one history; a field that hides another is a
/// variable of its own; a JDK superclass's field resolves to the JDK class.
#[test]
fn fields_reached_through_a_subclass_are_their_declaring_class_fields() {
    let trace = check_program("InheritedFields");
    let lines = trace.lines();
    let accesses: Vec<&String> = lines
        .iter()
        .filter(|l| l.contains("FIELD_") || l.contains("STATIC_"))
        .collect();
    for l in &accesses {
        assert!(
            !l.contains("InheritedFields$Sub.") && !l.contains("InheritedFields$Counted."),
            "a field named by the type it was reached through: {l}"
        );
    }
    assert_subsequence(
        &lines,
        &[
            "CALL InheritedFields$Sub.next(",
            ".InheritedFields$Base.row",
            ".InheritedFields$Base.row = 11",
            "STATIC_WRITE InheritedFields$Base.created = 101",
            "InheritedFields$Shadow.row = 5",
            "CALL InheritedFields$Counted.touch(",
            "java.util.AbstractList.modCount = 1",
            "STATIC_READ InheritedFields$Named.NAMES",
        ],
    );
}

/// Bytecode that stores 2 into booleans (a mutant, another compiler): the JVM keeps the low
/// bit of a boolean field, static field, array element and return value, and so does the trace.
#[test]
fn booleans_stored_as_other_ints_are_recorded_as_the_jvm_narrows_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    let asm = std::path::Path::new("/usr/share/java/asm.jar");
    javac(
        &[repo_root().join("tests/java17/asm/NarrowedBooleans.java")],
        Some(asm),
        dir.path(),
    );
    let cp = format!("{}:{}", dir.path().display(), asm.display());
    let plain = java(&cp, "NarrowedBooleans", None);
    assert_eq!(
        String::from_utf8_lossy(&plain.stdout),
        "false false false false\n"
    );
    let stream = dir.path().join("t.hsw");
    let recorded = java(
        &cp,
        "NarrowedBooleans",
        Some(&format!("file={}", stream.display())),
    );
    assert_eq!(plain.stdout, recorded.stdout);
    let trace = decode(&fs::read(&stream).expect("stream")).expect("well formed");
    let lines = trace.lines();
    assert_subsequence(
        &lines,
        &[
            "CALL Narrow.store(",
            ".f = false",
            "STATIC_WRITE Narrow.s = false",
            "[0] = false",
            "RETURN false",
        ],
    );
}

/// The successor table (wire format 3) of javac's loops: the block that ends a pass jumps back
/// to the test, a block earlier in the method; methods without loops have no such edge.
#[test]
fn loops_have_a_successor_back_to_their_test() {
    let trace = check_program("Loops");
    let back_edges = |name: &str| {
        let m = trace
            .methods
            .values()
            .find(|m| m.class == "Loops" && m.name == name)
            .unwrap_or_else(|| panic!("no method {name}"));
        assert!(!m.blocks.is_empty());
        // Every block but a return, a throw or a goto-less end has somewhere to go.
        m.blocks
            .iter()
            .enumerate()
            .flat_map(|(i, b)| b.succ.iter().map(move |&s| (i as u64, s)))
            .filter(|&(i, s)| s <= i)
            .count()
    };
    for name in [
        "forLoop",
        "whileLoop",
        "doWhile",
        "breakContinue",
        "returnInside",
        "never",
    ] {
        assert_eq!(back_edges(name), 1, "{name}");
    }
    assert_eq!(back_edges("nested"), 2);
    // The handler inside the loop is a successor of the try range's block.
    assert!(back_edges("catchInside") >= 1);
    assert_eq!(back_edges("twice"), 0);
    assert_eq!(back_edges("check"), 0);
}

#[test]
fn merge_sort_array_writes_name_the_array_index_and_value() {
    let t = check_program("MergeSort");
    let lines = t.lines();
    // main's array {4, 9, 1, 7} is made by application code: NEW_ARRAY origin 0, then four writes.
    let new_a = lines
        .iter()
        .find(|l| l.contains("NEW_ARRAY") && l.contains("int[] length 4 origin 0"))
        .expect("NEW_ARRAY of a");
    let a_id = new_a
        .split('#')
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .to_string();
    assert_subsequence(
        &lines,
        &[
            &format!("ARRAY_WRITE #{a_id}[0] = 4"),
            &format!("ARRAY_WRITE #{a_id}[3] = 7"),
        ],
    );
    // The last merge writes into main's array.
    let merge_calls: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.contains("CALL MergeSort.merge("))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(merge_calls.len(), 3);
    let last = &lines[*merge_calls.last().unwrap()..];
    assert!(
        last[0].ends_with(&format!("#{a_id})")),
        "merge's c is main's array: {}",
        last[0]
    );
    assert_subsequence(
        last,
        &[
            "LOCAL la = 0",
            "LOCAL lc = 0",
            "LOCAL lc = 1",
            "LOCAL lb = 1",
            &format!("ARRAY_WRITE #{a_id}[0] = 1"),
            &format!("ARRAY_WRITE #{a_id}[1] = 4"),
            &format!("ARRAY_WRITE #{a_id}[2] = 7"),
            // the buggy `c[lb++] = a[la++]`: lb (2) indexes c
            "LOCAL lb = 3",
            "LOCAL la = 2",
            &format!("ARRAY_WRITE #{a_id}[2] = 9"),
            "RETURN void",
        ],
    );
    // Arrays.copyOfRange is uninstrumented: an EXT_CALL whose result is first seen (origin 1, with its elements).
    assert_subsequence(
        &lines,
        &[
            "EXT_CALL java.util.Arrays.copyOfRange(",
            "NEW_ARRAY",
            "EXT_RETURN #",
        ],
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("int[] length 2 origin 1 [4, 9]")),
        "first-seen copy with elements"
    );
    // Line 19 starts by a LINE event or by a BLOCK that carries it.
    assert!(lines
        .iter()
        .any(|l| l.ends_with("LINE 19") || l.contains("BLOCK") && l.ends_with(" line 19")));
}

#[test]
fn constructors_get_this_and_unwind_through_super_calls() {
    let t = check_program("Constructors");
    let lines = t.lines();
    assert_subsequence(
        &lines,
        &[
            "CALL Constructors$Derived.<init>(7)",
            "CALL Constructors$Derived.<init>(\"d7\", 7)",
            "CALL Constructors$Base.<init>(\"d7\")",
            "NEW_OBJECT #",
            "THIS #",
            "FIELD_WRITE #",
            "RETURN void",
            "THIS #",
        ],
    );
    // MyList inherits add from ArrayList: the call is an EXT_CALL although its owner is MyList.
    assert_subsequence(
        &lines,
        &[
            "CALL Constructors$MyList.<init>(4)",
            "THIS #",
            "EXT_CALL Constructors$MyList.add(#",
            "EXT_RETURN true",
        ],
    );
    let this_line = lines
        .iter()
        .position(|l| l.contains("] THIS #"))
        .expect("THIS");
    assert!(
        lines[this_line - 1].contains("NEW_OBJECT")
            && lines[this_line - 1].contains("Constructors$Derived origin 0"),
        "{}",
        lines[this_line - 1]
    );
    // new Derived(null, 3): name.isEmpty() throws in the argument of super(...), inside Derived's
    // constructor (EXT_UNWIND, then UNWIND), caught in main.
    assert_subsequence(
        &lines,
        &[
            "CALL Constructors$Derived.<init>(null, 3)",
            "EXT_CALL java.lang.String.isEmpty(null)",
            "EXT_UNWIND #",
            "UNWIND #",
            "CATCH #",
        ],
    );
    // new Base(null) throws in Base; Base's UNWIND, main's CATCH.
    assert_subsequence(
        &lines,
        &[
            "CALL Constructors$Base.<init>(null)",
            "THROW #",
            "UNWIND #",
            "CATCH #",
        ],
    );
}

#[test]
fn records_unwind_in_compact_constructor_reaches_caller_catch() {
    let t = check_program("Records");
    let lines = t.lines();
    assert_subsequence(
        &lines,
        &[
            "CALL Records$Point.<init>(-1, 0)",
            "THROW #",
            "UNWIND #",
            "CATCH #",
        ],
    );
    assert!(lines
        .iter()
        .any(|l| l.contains("FIELD_WRITE #") && l.contains("Records$Point.x = 1")));
}

#[test]
fn lambda_body_is_a_call_inside_the_functional_interface_call() {
    let t = check_program("Lambdas");
    let lines = t.lines();
    assert_subsequence(
        &lines,
        &[
            "EXT_CALL java.util.function.Function.apply(#",
            "CALL Lambdas.lambda$main$0(box 41)",
            "RETURN box 42",
            "EXT_RETURN box 42",
        ],
    );
    assert_subsequence(
        &lines,
        &[
            "EXT_CALL java.util.List.sort(",
            "CALL Lambdas.lambda$main$1(",
            "EXT_RETURN void",
        ],
    );
    assert_subsequence(
        &lines,
        &[
            "EXT_CALL java.util.List.replaceAll(",
            "CALL Lambdas.twice(",
            "RETURN 2",
        ],
    );
    // A lambda's class is named without its number and address, which change from run to run.
    let lambdas: Vec<&String> = lines.iter().filter(|l| l.contains("$$Lambda")).collect();
    assert!(
        !lambdas.is_empty(),
        "no lambda object in:\n{}",
        lines.join("\n")
    );
    for l in lambdas {
        assert!(
            l.contains("Lambdas$$Lambda ") && !l.contains("/0x"),
            "a lambda class named by its number or address: {l}"
        );
    }
}

#[test]
fn exceptions_thrown_by_the_jvm_unwind_the_callee_and_are_caught_by_the_caller() {
    let t = check_program("JvmExceptions");
    let lines = t.lines();
    assert_subsequence(
        &lines,
        &[
            "CALL JvmExceptions.length(null)",
            "EXT_CALL java.lang.String.length(null)",
            "EXT_UNWIND #",
            "UNWIND #",
            "CATCH #",
        ],
    );
    assert_subsequence(
        &lines,
        &[
            "CALL JvmExceptions.at(#",
            "UNWIND #",
            "CATCH #",
            "LOCAL e = #",
        ],
    );
    assert_subsequence(
        &lines,
        &["CALL JvmExceptions.div(1, 0)", "UNWIND #", "CATCH #"],
    );
}

#[test]
fn try_finally_records_catch_and_return_paths() {
    let t = check_program("TryFinally");
    let lines = t.lines();
    assert_subsequence(
        &lines,
        &[
            "CALL TryFinally.f(5)",
            "RETURN 2",
            "CALL TryFinally.f(0)",
            "THROW #",
            "CATCH #",
            "RETURN -1",
        ],
    );
    assert_subsequence(
        &lines,
        &[
            "CALL TryFinally.nested()",
            "THROW #",
            "CATCH #",
            "THROW #",
            "CATCH #",
            "THROW #",
            "UNWIND #",
        ],
    );
    // A handler's CATCH comes right before the BLOCK of the handler's first block.
    let mut catches = 0;
    for (i, l) in lines.iter().enumerate() {
        if l.contains("] CATCH ") {
            catches += 1;
            assert!(
                lines[i + 1].contains("] BLOCK "),
                "CATCH not followed by BLOCK: {}",
                lines[i + 1]
            );
        }
    }
    assert!(catches > 0);
}

#[test]
fn strings_are_values_by_content() {
    let t = check_program("StringConcat");
    let lines = t.lines();
    assert_subsequence(
        &lines,
        &[
            "CALL StringConcat.describe(\"x\", 3, 1.5, '!', #",
            "RETURN \"x:3/1.5![1, 2]null\"",
        ],
    );
}

#[test]
fn bytes_booleans_chars_shorts_longs_and_doubles_keep_their_types() {
    let t = check_program("LongDouble");
    let lines = t.lines();
    assert!(
        lines
            .iter()
            .any(|l| l.ends_with("RETURN 2880067194370816120")),
        "fib(90)"
    );
    assert!(lines
        .iter()
        .any(|l| l.contains("ARRAY_WRITE") && l.ends_with("[1] = true")));
    assert!(lines
        .iter()
        .any(|l| l.contains("ARRAY_WRITE") && l.ends_with("[0] = -56")));
    assert!(lines
        .iter()
        .any(|l| l.contains("ARRAY_WRITE") && l.ends_with("[0] = 'b'")));
    assert!(lines
        .iter()
        .any(|l| l.contains("ARRAY_WRITE") && l.ends_with("[1] = 1.25")));
}

#[test]
fn static_initialisers_are_calls_with_static_writes() {
    let t = check_program("StaticInit");
    let lines = t.lines();
    assert_subsequence(
        &lines,
        &[
            "CALL StaticInit.<clinit>()",
            "STATIC_WRITE StaticInit.TABLE = #",
            "ARRAY_WRITE",
            "STATIC_WRITE StaticInit.GREETING = \"hello 4\"",
            "RETURN void",
        ],
    );
}

#[test]
fn inner_class_constructor_writes_this0_before_this() {
    let t = check_program("InnerClasses");
    let lines = t.lines();
    assert_subsequence(
        &lines,
        &[
            "CALL InnerClasses$Inner.<init>(#",
            "FIELD_WRITE_UNINIT InnerClasses$Inner.this$0 = #",
            "THIS #",
            "FIELD_WRITE #",
        ],
    );
}

#[test]
fn methods_are_hashed_by_code() {
    let t = check_program("MergeSort");
    let hash_of = |name: &str| {
        t.methods
            .values()
            .find(|m| m.name == name && m.instrumented)
            .map(|m| m.hash)
            .expect(name)
    };
    assert_ne!(hash_of("merge"), [0; 16]);
    assert_ne!(hash_of("merge"), hash_of("mergeSort"));
    assert!(t
        .methods
        .values()
        .filter(|m| !m.instrumented)
        .all(|m| m.hash == [0; 16]));
}

#[test]
fn arrays_written_by_jdk_methods_get_array_writes_inside_the_ext_call() {
    let t = check_program("ArrayUtilities");
    let lines = t.lines();
    assert_subsequence(
        &lines,
        &[
            "EXT_CALL java.util.Arrays.sort(#",
            "[0] = 1",
            "[1] = 3",
            "[2] = 5",
            "[3] = 9",
            "EXT_RETURN void",
        ],
    );
    assert_subsequence(
        &lines,
        &[
            "EXT_CALL java.lang.System.arraycopy(",
            "[2] = 3",
            "[3] = 5",
            "[4] = 9",
            "EXT_RETURN void",
        ],
    );
    assert_subsequence(
        &lines,
        &[
            "EXT_CALL java.util.Arrays.sort(#",
            "[0] = \"a\"",
            "[1] = \"b\"",
            "EXT_RETURN void",
        ],
    );
    assert_subsequence(
        &lines,
        &[
            "EXT_CALL java.util.Arrays.fill(",
            "[1] = 2.5",
            "[2] = 2.5",
            "EXT_RETURN void",
        ],
    );
    assert_subsequence(
        &lines,
        &[
            "EXT_CALL java.util.Arrays.setAll(",
            "CALL ArrayUtilities.lambda$main$0(0)",
            "RETURN 0",
            "[2] = 20",
            "EXT_RETURN void",
        ],
    );
}

/// Records `source` (class MergeSort) and returns the hashes of its instrumented methods by name.
fn method_hashes(source: &str) -> std::collections::HashMap<String, [u8; 16]> {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("MergeSort.java");
    fs::write(&file, source).expect("write source");
    let classes = dir.path().join("classes");
    fs::create_dir(&classes).expect("classes dir");
    javac(&[file], None, &classes);
    let stream = dir.path().join("t.hsw");
    let out = java(
        classes.to_str().expect("utf-8"),
        "MergeSort",
        Some(&format!("file={}", stream.display())),
    );
    assert!(out.status.success());
    let t = decode(&fs::read(&stream).expect("stream")).expect("well formed");
    t.methods
        .values()
        .filter(|m| m.instrumented)
        .map(|m| (m.name.clone(), m.hash))
        .collect()
}

#[test]
fn bytecode_hash_ignores_line_moves_and_sees_the_fix() {
    let buggy =
        fs::read_to_string(repo_root().join("tests/java17/MergeSort.java")).expect("source");
    let shifted = buggy.replacen(
        "    static void mergeSort(",
        "\n\n\n    static void mergeSort(",
        1,
    );
    let fixed = buggy.replace("c[lb++] = a[la++];", "c[lc++] = a[la++];");
    assert_ne!(fixed, buggy);
    let (b, s, f) = (
        method_hashes(&buggy),
        method_hashes(&shifted),
        method_hashes(&fixed),
    );
    assert_eq!(b, s, "moving lines changes no hash");
    assert_ne!(b["merge"], f["merge"], "the fix changes merge's hash");
    assert_eq!(b["mergeSort"], f["mergeSort"]);
    assert_eq!(b["main"], f["main"]);
}

#[test]
fn jdk_collections_maps_and_builders_get_their_content_after_calls_that_change_them() {
    let t = check_program("JdkContent");
    let lines = t.lines();
    assert_subsequence(
        &lines,
        &[
            "CONTENT #2 sequence []",
            "EXT_CALL java.util.List.add(#2, box 3)",
            "CONTENT #2 sequence [box 3]",
            // Adds at the end send the new element only.
            "CONTENT #2 sequence from 1 [box 1]",
            "CONTENT #2 sequence from 2 [box 2]",
            "EXT_CALL java.util.Collections.sort(#2)",
            "CONTENT #2 sequence [box 1, box 2, box 3]",
            "CONTENT #3 map [\"a\", box 1, \"b\", box 2]",
            "CONTENT #4 text [\"x6\"]",
        ],
    );
    // A call that throws: EXT_UNWIND, the receiver's content, then the caller's CATCH.
    let ws = lines
        .iter()
        .position(|l| l.contains("EXT_CALL java.util.List.add(") && l.ends_with(", 5, box 8)"))
        .expect("the add that throws");
    // (The exception is first seen there: its NEW_OBJECT may come first.)
    let unwind = ws + 1 + usize::from(lines[ws + 1].contains("NEW_OBJECT"));
    assert!(lines[unwind].contains("EXT_UNWIND #"), "{}", lines[unwind]);
    assert!(
        lines[unwind + 1].contains("CONTENT #") && lines[unwind + 1].ends_with("sequence [box 7]"),
        "{}",
        lines[unwind + 1]
    );
    assert!(
        lines[unwind + 2].contains("CATCH #"),
        "{}",
        lines[unwind + 2]
    );
    // Read-only calls (size, get) send no content again.
    let after_sort = lines
        .iter()
        .position(|l| l.contains("CONTENT #2 sequence [box 1, box 2, box 3]"))
        .expect("content after sort");
    assert!(
        !lines[after_sort + 1..]
            .iter()
            .any(|l| l.contains("CONTENT #2 ")),
        "a read-only call sent the list's content again"
    );
    // The loop's adds are tails past the cut, too; the set sends everything, cut.
    assert!(lines
        .iter()
        .any(|l| l.contains("CONTENT") && l.contains("sequence from 10004 [box 10004]")));
    let cut = lines
        .iter()
        .filter(|l| l.contains("CONTENT") && l.contains("box 9999, \"…[truncated]\"]"))
        .count();
    assert_eq!(cut, 1, "the 10,000-value cut is missing");
    assert!(lines
        .iter()
        .any(|l| l.contains("CONTENT") && l.contains("sequence from 1 [box 9, box 6]")));
    assert!(
        lines
            .iter()
            .any(|l| l.contains("CONTENT") && l.contains("sequence [box 2, box 3, box 4]")),
        "an add after an unseen remove sent a tail"
    );
    assert!(
        lines.iter().any(
            |l| l.contains("CONTENT") && l.contains("[\"apple\", \"fig\", \"kiwi\", \"pear\"]")
        ),
        "Set.of content is not in sorted order"
    );
    assert!(
        !lines
            .iter()
            .any(|l| l.contains("CONTENT") && l.contains("\"q\"")),
        "an application subclass of ArrayList had its content taken"
    );
}

/// Object ids kept in the objects' own fields keep their meaning: every object written once
/// (its tag) has one id of its own, a clone (which copies every field) gets a new one, and two
/// threads reading the objects another thread made see the ids they were made with.
#[test]
fn object_ids_keep_their_meaning_across_threads_and_clones() {
    let trace = check_program("ObjectIds");
    let lines = trace.lines();
    // "[thread] FIELD_WRITE #id.ObjectIds$Box.tag = v": each id once, each tag once.
    let mut tags: HashMap<u64, i64> = HashMap::new();
    for l in &lines {
        let Some(rest) = l.split("] FIELD_WRITE #").nth(1) else {
            continue;
        };
        let Some((id, value)) = rest.split_once(".ObjectIds$Box.tag = ") else {
            continue;
        };
        let id: u64 = id.parse().expect("object id");
        let value: i64 = value.parse().expect("int tag");
        assert!(tags.insert(id, value).is_none(), "#{id} written twice");
    }
    // 600 boxes (tag n), 200 clones (tag -n-1) and one more (tag 1000): 801 objects, 801 ids,
    // 801 distinct tags.
    assert_eq!(tags.len(), 801, "objects with a tag");
    let distinct: HashSet<i64> = tags.values().copied().collect();
    assert_eq!(
        distinct.len(),
        801,
        "two ids share a tag: one object got two ids"
    );
    // Each tagOf(#id) returns the tag written to #id, whichever thread reads it.
    let mut pending: HashMap<String, u64> = HashMap::new();
    let mut checked = 0;
    for l in &lines {
        let (thread, event) = l.split_once("] ").expect("thread prefix");
        if let Some(arg) = event.strip_prefix("CALL ObjectIds.tagOf(#") {
            let id = arg.trim_end_matches(')').parse().expect("object id");
            pending.insert(thread.to_string(), id);
        } else if let Some(value) = event.strip_prefix("RETURN ") {
            if let Some(id) = pending.remove(thread) {
                let want = tags
                    .get(&id)
                    .unwrap_or_else(|| panic!("tagOf(#{id}): no tag written to #{id}"));
                assert_eq!(value, want.to_string(), "tagOf(#{id}) in {thread}");
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 900, "tagOf calls");
}

/// Runs `java -Xverify:all [agent to /dev/null] -Dprop... -cp cp ObjectIds`; returns stdout.
fn object_ids(cp: &str, agent: bool, props: &[String]) -> String {
    let mut cmd = Command::new("java");
    cmd.arg("-Xverify:all");
    if agent {
        cmd.arg(format!("-javaagent:{AGENT_JAR}=file=/dev/null"));
    }
    let out = cmd
        .args(props)
        .args(["-cp", cp, "ObjectIds"])
        .output()
        .expect("java runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() && stderr.is_empty(),
        "stderr:\n{stderr}"
    );
    String::from_utf8(out.stdout).expect("utf-8 stdout")
}

/// Which classes get the id members (a serializable class without a serialVersionUID, a record
/// and an interface do not), and objects serialized by a run without the agent read back the
/// same in a run with it, and the other way round.
#[test]
fn object_id_members_leave_serialization_as_it_was() {
    let dir = tempfile::tempdir().expect("temp dir");
    let classes = dir.path().join("classes");
    fs::create_dir(&classes).expect("classes dir");
    javac(
        &[repo_root().join("tests/java17/ObjectIds.java")],
        None,
        &classes,
    );
    let cp = classes.to_str().expect("utf-8 path");

    let members = object_ids(cp, true, &["-Dids.members".into()]);
    let expected = [
        "ObjectIds$Box own=true identified=true",
        "ObjectIds$SubBox own=true identified=true",
        "ObjectIds$Plain own=false identified=false",
        "ObjectIds$WithUid own=true identified=true",
        "ObjectIds$SubWithUid own=false identified=true",
        "ObjectIds$Base own=true identified=true",
        "ObjectIds$SerialSub own=false identified=true",
        "ObjectIds$Ext own=false identified=false",
        "ObjectIds$ListBox own=false identified=false",
        "ObjectIds$Color own=true identified=true",
        "ObjectIds$Color$1 own=true identified=true",
        "ObjectIds$Point own=false identified=false",
    ];
    assert_eq!(members.lines().collect::<Vec<_>>(), expected);
    // Without the agent nothing has them: the check can fail.
    assert!(object_ids(cp, false, &["-Dids.members".into()])
        .lines()
        .all(|l| l.ends_with("own=false identified=false")));

    for (writer, reader) in [(false, true), (true, false)] {
        let file = dir.path().join(format!("objects-{writer}.ser"));
        let write = format!("-Dids.write={}", file.display());
        object_ids(cp, writer, &[write]);
        let read = format!("-Dids.read={}", file.display());
        let plain = object_ids(cp, false, std::slice::from_ref(&read));
        assert!(
            plain.contains("WithUid(2, Plain(1, plain, 0, [1, 2, 3]))"),
            "{plain}"
        );
        assert_eq!(
            object_ids(cp, reader, &[read]),
            plain,
            "written with agent: {writer}"
        );
    }
}
