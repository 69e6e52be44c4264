//! The replayer (`cli/java/hindsight/replay/`, docs/replay-protocol.md) against a small program
//! (`cli/tests/replayer/`): requests are written as raw protocol text, answers are parsed into
//! records and checked record by record.

mod common;

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};

use common::{javac, repo};

/// A running replayer on the test program's classes.
struct Replayer {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    /// Lines written so far: a malformed request's FAIL names its line in this count.
    lines_sent: usize,
    _classes: tempfile::TempDir,
}

impl Replayer {
    /// Compiles the replayer (warnings are errors) and the test program, and starts the replayer.
    fn start() -> Self {
        let classes = tempfile::tempdir().unwrap();
        let replayer = classes.path().join("replayer");
        let program = classes.path().join("program");
        compile_replayer(&repo().join("cli/java/hindsight/replay"), &replayer);
        javac(&repo().join("cli/tests/replayer"), &program);
        let class_path = std::env::join_paths([&program, &replayer]).unwrap();
        let mut child = Command::new("java")
            .arg("-cp")
            .arg(class_path)
            .arg("hindsight.replay.Replayer")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("running java (install a JDK 17)");
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Replayer {
            child,
            stdin,
            stdout,
            lines_sent: 0,
            _classes: classes,
        }
    }

    /// Sends `request` (raw protocol text) and reads the answer through its END line.
    fn ask(&mut self, request: &str) -> Answer {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(request.as_bytes()).unwrap();
        stdin.flush().unwrap();
        self.lines_sent += request.lines().count();
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            let n = self.stdout.read_line(&mut line).unwrap();
            assert!(
                n > 0,
                "the replayer ended its output before END; got {lines:?}"
            );
            let line = line
                .strip_suffix('\n')
                .expect("an answer line without newline");
            if line == "END" {
                return Answer::parse(lines);
            }
            lines.push(line.to_string());
        }
    }

    /// Closes the replayer's input and waits for it to exit.
    fn finish(&mut self) -> ExitStatus {
        drop(self.stdin.take());
        self.child.wait().unwrap()
    }
}

impl Drop for Replayer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `javac --release 17 -Xlint:all -Werror` on the replayer's sources, as the CLI will compile them.
fn compile_replayer(src: &Path, out: &Path) {
    let mut files: Vec<PathBuf> = std::fs::read_dir(src)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "java"))
        .collect();
    files.sort();
    assert!(
        files.len() > 5,
        "replayer sources missing in {}",
        src.display()
    );
    let status = Command::new("javac")
        .args(["--release", "17", "-Xlint:all", "-Werror", "-d"])
        .arg(out)
        .args(&files)
        .status()
        .expect("running javac (install a JDK 17)");
    assert!(status.success(), "the replayer does not compile cleanly");
}

/// One answer, parsed: its first line, object records by number, THIS, ARGS and OUT lines.
struct Answer {
    head: String,
    /// `@n` -> the record's fields after the number: kind, class, then the rest.
    objects: HashMap<String, Vec<String>>,
    /// `@n` -> its FIELD records, (name, value), in order.
    fields: HashMap<String, Vec<(String, String)>>,
    this: Option<String>,
    args: Vec<String>,
    outs: Vec<(String, Vec<String>)>,
    lines: Vec<String>,
}

impl Answer {
    fn parse(lines: Vec<String>) -> Answer {
        assert!(!lines.is_empty(), "an empty answer");
        let mut answer = Answer {
            head: lines[0].clone(),
            objects: HashMap::new(),
            fields: HashMap::new(),
            this: None,
            args: Vec::new(),
            outs: Vec::new(),
            lines: lines.clone(),
        };
        for line in &lines[1..] {
            let t: Vec<String> = line.split(' ').map(str::to_string).collect();
            match t[0].as_str() {
                "OBJ" | "ARR" | "SEQ" | "MAP" | "TEXT" | "OPAQUE" => {
                    if matches!(t[0].as_str(), "ARR" | "SEQ" | "MAP") {
                        assert_eq!(t[3].parse::<usize>().unwrap(), t.len() - 4, "{line}");
                    }
                    let mut record = vec![t[0].clone()];
                    record.extend_from_slice(&t[2..]);
                    let old = answer.objects.insert(format!("@{}", t[1]), record);
                    assert!(old.is_none(), "object {} declared twice: {lines:?}", t[1]);
                }
                "FIELD" => {
                    assert_eq!(t.len(), 4, "{line}");
                    let entry = answer.fields.entry(format!("@{}", t[1])).or_default();
                    entry.push((t[2].clone(), t[3].clone()));
                }
                "THIS" => {
                    assert!(answer.this.is_none(), "two THIS: {lines:?}");
                    answer.this = Some(t[1].clone());
                }
                "ARGS" => {
                    assert_eq!(t[1].parse::<usize>().unwrap(), t.len() - 2, "{line}");
                    answer.args = t[2..].to_vec();
                }
                "OUT" => {
                    assert_eq!(t[2].parse::<usize>().unwrap(), t.len() - 3, "{line}");
                    answer.outs.push((t[1].clone(), t[3..].to_vec()));
                }
                _ => panic!("unexpected answer line {line:?} in {lines:?}"),
            }
        }
        answer
    }

    /// The value of the `RETURNED` or `THREW` head.
    fn result(&self) -> &str {
        self.head.split(' ').nth(1).unwrap()
    }

    /// A value as a readable tree: objects followed, fields sorted by name, strings decoded.
    fn render(&self, token: &str) -> String {
        self.render_in(token, &mut Vec::new())
    }

    fn render_in(&self, token: &str, path: &mut Vec<String>) -> String {
        if let Some(hex) = token.strip_prefix('T') {
            return format!("{:?}", from_hex(hex));
        }
        if !token.starts_with('@') {
            return token.to_string();
        }
        if path.iter().any(|t| t == token) {
            return format!("<cycle {token}>");
        }
        let record = self
            .objects
            .get(token)
            .unwrap_or_else(|| panic!("{token} is not declared in {:?}", self.lines));
        path.push(token.to_string());
        let (kind, class, rest) = (&record[0], &record[1], &record[2..]);
        let out = match kind.as_str() {
            "OBJ" => {
                let mut fields = self.fields.get(token).cloned().unwrap_or_default();
                fields.sort();
                let shown: Vec<String> = fields
                    .iter()
                    .map(|(name, v)| format!("{name}={}", self.render_in(v, path)))
                    .collect();
                format!("{class}{{{}}}", shown.join(" "))
            }
            "ARR" | "SEQ" => {
                let items: Vec<String> =
                    rest[1..].iter().map(|v| self.render_in(v, path)).collect();
                format!("{class}[{}]", items.join(", "))
            }
            "MAP" => {
                let pairs: Vec<String> = rest[1..]
                    .chunks(2)
                    .map(|kv| {
                        format!(
                            "{}: {}",
                            self.render_in(&kv[0], path),
                            self.render_in(&kv[1], path)
                        )
                    })
                    .collect();
                format!("{class}{{{}}}", pairs.join(", "))
            }
            "TEXT" => format!("{class}({})", self.render_in(&rest[0], path)),
            _ => format!("{class}<opaque>"),
        };
        path.pop();
        out
    }

    /// The reason of a FAIL answer, checking that nothing follows it.
    fn failure(&self) -> &str {
        assert_eq!(
            self.lines.len(),
            1,
            "a FAIL answer with records: {:?}",
            self.lines
        );
        self.head
            .strip_prefix("FAIL ")
            .unwrap_or_else(|| panic!("expected FAIL, got {:?}", self.lines))
    }
}

/// A string token's text.
fn from_hex(hex: &str) -> String {
    let bytes: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect();
    String::from_utf8(bytes).unwrap()
}

/// The token of a string.
fn t(s: &str) -> String {
    let hex: String = s.bytes().map(|b| format!("{b:02x}")).collect();
    format!("T{hex}")
}

#[test]
fn returns_values_and_the_exit_state_after_the_call() {
    let mut r = Replayer::start();

    let a = r.ask(&format!(
        "CALL replaydemo.Node sum ()I
OBJ 1 replaydemo.Node
FIELD 1 value I1
FIELD 1 next @2
OBJ 2 replaydemo.Heavy
FIELD 2 value I2
FIELD 2 factor I10
FIELD 2 label {}
THIS @1
ARGS 0
END
",
        t("n2")
    ));
    assert_eq!(a.head, "RETURNED I3");
    assert_eq!(
        a.render(a.this.as_deref().unwrap()),
        r#"replaydemo.Node{label=N next=replaydemo.Heavy{factor=I10 label="n2" next=N value=I2} value=I1}"#
    );
    assert!(a.args.is_empty());
    assert!(a.outs.is_empty());

    // Fields mutated by the call; the final field `label` was set by the replayer.
    let a = r.ask(&format!(
        "CALL replaydemo.Node increment ()V
THIS @7
OBJ 7 replaydemo.Node
FIELD 7 value I1
FIELD 7 next @3
FIELD 7 label {}
OBJ 3 replaydemo.Node
FIELD 3 value I5
ARGS 0
END
",
        t("n1")
    ));
    assert_eq!(a.head, "RETURNED V");
    assert_eq!(
        a.render(a.this.as_deref().unwrap()),
        r#"replaydemo.Node{label="n1" next=replaydemo.Node{label=N next=N value=I6} value=I2}"#
    );

    // An array, a list and a StringBuilder, changed in place.
    let a = r.ask(
        "CALL replaydemo.Ops fill ([ILjava/util/ArrayList;Ljava/lang/StringBuilder;)I
ARR 1 int[] 3 I1 I2 I3
SEQ 2 java.util.ArrayList 1 bI9
TEXT 3 java.lang.StringBuilder T61
ARGS 3 @1 @2 @3
END
",
    );
    assert_eq!(a.head, "RETURNED I3");
    assert_eq!(a.this, None);
    let args: Vec<String> = a.args.iter().map(|v| a.render(v)).collect();
    assert_eq!(
        args,
        [
            "int[][I2, I4, I6]",
            "java.util.ArrayList[bI9, bI3]",
            r#"java.lang.StringBuilder("ax")"#
        ]
    );

    // Primitive tokens: long, char and float in, the double's raw bits out.
    let a = r.ask(
        "CALL replaydemo.Ops half (JCF)D
ARGS 3 J3 C65 F3f800000
END
",
    );
    assert_eq!(a.head, "RETURNED D4041400000000000");
    assert_eq!(a.args, ["J3", "C65", "F3f800000"]);

    // A nested class; the result is the argument itself (one number for one object).
    let a = r.ask(
        "CALL replaydemo.Ops swap (Lreplaydemo/Ops$Pair;)Lreplaydemo/Ops$Pair;
OBJ 4 replaydemo.Ops$Pair
FIELD 4 left T61
FIELD 4 right @5
OBJ 5 java.lang.Object
ARGS 1 @4
END
",
    );
    assert_eq!(a.args.len(), 1);
    assert_eq!(a.head, format!("RETURNED {}", a.args[0]));
    assert_eq!(
        a.render(&a.args[0]),
        r#"replaydemo.Ops$Pair{left=java.lang.Object{} right="a"}"#
    );

    // A constructor: `new Node(5, next)`; the new object stands for THIS.
    let a = r.ask(
        "CALL replaydemo.Node <init> (ILreplaydemo/Node;)V
OBJ 1 replaydemo.Node
OBJ 2 replaydemo.Node
FIELD 2 value I7
THIS @1
ARGS 2 I5 @2
END
",
    );
    assert_eq!(a.head, "RETURNED V");
    let this = a.this.clone().unwrap();
    assert_eq!(
        a.render(&this),
        r#"replaydemo.Node{label="n5" next=replaydemo.Node{label=N next=N value=I7} value=I5}"#
    );
    let next = &a.fields[&this].iter().find(|(n, _)| n == "next").unwrap().1;
    assert_eq!(a.args, ["I5", next.as_str()]);
    assert_eq!(r.finish().code(), Some(0));
}

#[test]
fn calls_are_non_virtual() {
    let mut r = Replayer::start();
    let heavy = |class: &str, method: &str, descriptor: &str| {
        format!(
            "CALL {class} {method} {descriptor}
OBJ 1 replaydemo.Heavy
FIELD 1 value I3
FIELD 1 factor I10
FIELD 1 label {}
THIS @1
ARGS 0
END
",
            t("h")
        )
    };
    // Node's own weight() runs on a Heavy, though Heavy overrides it.
    assert_eq!(
        r.ask(&heavy("replaydemo.Node", "weight", "()I")).head,
        "RETURNED I3"
    );
    assert_eq!(
        r.ask(&heavy("replaydemo.Heavy", "weight", "()I")).head,
        "RETURNED I30"
    );
    // Calls made by the replayed code stay virtual.
    let a = r.ask(&heavy(
        "replaydemo.Node",
        "describe",
        "()Ljava/lang/String;",
    ));
    assert_eq!(a.head, format!("RETURNED {}", t("h:30")));
    assert_eq!(
        a.render(a.this.as_deref().unwrap()),
        r#"replaydemo.Heavy{factor=I10 label="h" next=N value=I3}"#
    );
}

#[test]
fn output_calls_are_recorded_with_their_arguments_at_the_time() {
    let mut r = Replayer::start();
    let a = r.ask(
        "CALL replaydemo.Ops report (Lreplaydemo/Node;I)V
OBJ 5 replaydemo.Node
FIELD 5 value I4
ARGS 2 @5 I3
END
",
    );
    assert_eq!(a.head, "RETURNED V");
    let methods: Vec<&str> = a.outs.iter().map(|(m, _)| m.as_str()).collect();
    assert_eq!(
        methods,
        [
            "java.io.PrintStream.println(Ljava/lang/String;)V",
            "java.io.PrintStream.printf(Ljava/lang/String;[Ljava/lang/Object;)Ljava/io/PrintStream;",
            "java.io.PrintStream.println(Ljava/lang/Object;)V",
            "java.io.PrintStream.print(C)V",
        ]
    );
    assert_eq!(a.outs[0].1, [t("node 4")]);
    let printf: Vec<String> = a.outs[1].1.iter().map(|v| a.render(v)).collect();
    assert_eq!(printf, [r#""%d items%n""#, "java.lang.Object[][bI3]"]);
    // The node as it was when printed, then as the call left it: two objects, two numbers.
    assert_eq!(
        a.render(&a.outs[2].1[0]),
        "replaydemo.Node{label=N next=N value=I4}"
    );
    assert_eq!(
        a.render(&a.args[0]),
        "replaydemo.Node{label=N next=N value=I99}"
    );
    assert_ne!(a.outs[2].1[0], a.args[0]);
    assert_eq!(a.outs[3].1, ["C99"]);
    assert_eq!(a.args[1], "I3");
}

#[test]
fn exceptions_are_threw_answers() {
    let mut r = Replayer::start();
    let a = r.ask(
        "CALL replaydemo.Ops fail (I)I
ARGS 1 I3
END
",
    );
    assert!(a.head.starts_with("THREW @"), "{:?}", a.lines);
    assert_eq!(
        a.objects[a.result()],
        ["OPAQUE", "java.lang.IllegalStateException"]
    );
    assert_eq!(a.args, ["I3"]);

    // A program exception: its own fields only, none of Throwable's.
    let a = r.ask(
        "CALL replaydemo.Ops failWith (I)V
ARGS 1 I7
END
",
    );
    assert!(a.head.starts_with("THREW @"), "{:?}", a.lines);
    assert_eq!(a.render(a.result()), "replaydemo.AppException{code=I7}");
}

/// Enum constants travel by name (a TEXT record, as the agent records them): the request's is
/// the program's own constant (`==` holds), the answer names the result's, a body's class
/// included; a name the enum does not have fails.
#[test]
fn enum_constants_are_rebuilt_and_described_by_name() {
    let mut r = Replayer::start();
    let other = |class: &str, name: &str| {
        format!(
            "CALL replaydemo.Ops other (Lreplaydemo/Ops$Level;)Lreplaydemo/Ops$Level;
TEXT 1 {class} {}
ARGS 1 @1
END
",
            t(name)
        )
    };
    let a = r.ask(&other("replaydemo.Ops$Level", "LOW"));
    assert!(a.head.starts_with("RETURNED @"), "{:?}", a.lines);
    assert_eq!(a.render(a.result()), "replaydemo.Ops$Level$1(\"HIGH\")");
    assert_eq!(a.render(&a.args[0]), "replaydemo.Ops$Level(\"LOW\")");
    let a = r.ask(&other("replaydemo.Ops$Level$1", "HIGH"));
    assert_eq!(a.render(a.result()), "replaydemo.Ops$Level(\"LOW\")");
    let reason = r
        .ask(&other("replaydemo.Ops$Level", "MEDIUM"))
        .failure()
        .to_string();
    assert!(reason.contains("has no constant MEDIUM"), "{reason}");
    // A class object and a field travel by name the same way.
    let a = r.ask(&format!(
        "CALL replaydemo.Ops named (Ljava/lang/Class;Ljava/lang/reflect/Field;)Ljava/lang/String;
TEXT 1 java.lang.Class {}
TEXT 2 java.lang.reflect.Field {}
ARGS 2 @1 @2
END
",
        t("replaydemo.Ops$Pair"),
        t("replaydemo.Ops$Pair.left")
    ));
    assert_eq!(
        a.head,
        format!("RETURNED {}", t("Pair.left")),
        "{:?}",
        a.lines
    );
    assert_eq!(
        a.render(&a.args[0]),
        "java.lang.Class(\"replaydemo.Ops$Pair\")"
    );
    // A method by class, name and parameter types (a primitive one too), a constructor.
    for (name, result) in [
        ("replaydemo.Ops.other(replaydemo.Ops$Level)", "other/1"),
        ("replaydemo.Ops.fail(int)", "fail/1"),
        ("replaydemo.Ops$Pair.<init>()", "replaydemo.Ops$Pair/0"),
    ] {
        let class = if name.contains("<init>") {
            "Constructor"
        } else {
            "Method"
        };
        let a = r.ask(&format!(
            "CALL replaydemo.Ops executable (Ljava/lang/reflect/Executable;)Ljava/lang/String;
TEXT 1 java.lang.reflect.{class} {}
ARGS 1 @1
END
",
            t(name)
        ));
        assert_eq!(a.head, format!("RETURNED {}", t(result)), "{:?}", a.lines);
        assert_eq!(
            a.render(&a.args[0]),
            format!("java.lang.reflect.{class}({:?})", name)
        );
    }
    assert_eq!(r.finish().code(), Some(0));
}

#[test]
fn requests_that_cannot_be_replayed_fail_and_the_replayer_goes_on() {
    let mut r = Replayer::start();
    let size = |map: &str| {
        format!(
            "CALL replaydemo.Ops size (Ljava/util/Map;)I
MAP 1 {map} 4 T61 bI1 T62 bI2
ARGS 1 @1
END
"
        )
    };
    // The one map class whose order a rebuild keeps is replayed; the others are refused.
    assert_eq!(r.ask(&size("java.util.LinkedHashMap")).head, "RETURNED I2");
    for map in ["java.util.HashMap", "java.util.TreeMap"] {
        let reason = r.ask(&size(map)).failure().to_string();
        assert!(reason.contains(map), "{reason}");
        assert!(reason.contains("cannot be rebuilt"), "{reason}");
    }

    let reason = r
        .ask(
            "CALL replaydemo.Ops nosuch (I)V
ARGS 1 I1
END
",
        )
        .failure()
        .to_string();
    assert!(
        reason.contains("replaydemo.Ops.nosuch(I)V not found"),
        "{reason}"
    );

    // A super(...) call: THIS is a Heavy, the constructor Node's.
    let reason = r
        .ask(
            "CALL replaydemo.Node <init> (ILreplaydemo/Node;)V
OBJ 1 replaydemo.Heavy
THIS @1
ARGS 2 I1 N
END
",
        )
        .failure()
        .to_string();
    assert!(reason.contains("super(...)"), "{reason}");

    let garbage_line = r.lines_sent + 1;
    let reason = r.ask("hello world\nEND\n").failure().to_string();
    assert!(
        reason.starts_with(&format!("line {garbage_line}: expected 'CALL")),
        "{reason}"
    );
    let bad_token_line = r.lines_sent + 2;
    let reason = r
        .ask(
            "CALL replaydemo.Ops fail (I)I
ARGS 1 Ixyz
END
",
        )
        .failure()
        .to_string();
    assert_eq!(
        reason,
        format!("line {bad_token_line}: bad value token 'Ixyz'")
    );

    // Still answering.
    let a = r.ask(
        "CALL replaydemo.Node sum ()I
OBJ 1 replaydemo.Node
FIELD 1 value I41
THIS @1
ARGS 0
END
",
    );
    assert_eq!(a.head, "RETURNED I41");
    assert_eq!(r.finish().code(), Some(0));
}

#[test]
fn a_call_that_runs_too_long_fails_and_the_replayer_exits_with_3() {
    let mut r = Replayer::start();
    let reason = r
        .ask(
            "CALL replaydemo.Ops spin ()V
ARGS 0
END
",
        )
        .failure()
        .to_string();
    assert!(reason.starts_with("timeout: "), "{reason}");
    assert_eq!(r.child.wait().unwrap().code(), Some(3));
}
