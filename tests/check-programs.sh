#!/usr/bin/env bash
# Validates the Java programs that the end-to-end tests and the strategy benchmark debug:
#   tests/programs/<name>/  buggy and fixed compile, terminate, print different outputs, and
#                           bug_line holds code of buggy_method (per the class file's line table);
#                           answers.txt has only well-formed rules;
#   tests/corpus/<name>/    the correct program compiles and terminates; every mutant's `from`
#                           text is on its line, the line belongs to its method, and the mutant
#                           compiles, terminates and prints something else than the correct program.
# Needs javac, java and javap (JDK 17 or later). Prints "N passed, M failed"; exits 1 on failure.
# Usage: tests/check-programs.sh [NAME...]   (only the programs / corpus entries with these names)
# CHECK_VERBOSE=1 shows how each mutant's output differs; CHECK_TIMEOUT=S sets the run time-out.
set -u

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
timeout_s="${CHECK_TIMEOUT:-10}"   # a guard against endless loops, not a speed limit
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

for tool in javac java javap timeout; do
    command -v "$tool" >/dev/null || { echo "check-programs: '$tool' not found on PATH; install a JDK 17" >&2; exit 2; }
done

ok() { passed=$((passed + 1)); echo "ok   $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1: $2"; }

selected() { # selected NAME: true when no names were given or NAME is one of them
    [ "${#only[@]}" -eq 0 ] && return 0
    local n; for n in "${only[@]}"; do [ "$n" = "$1" ] && return 0; done
    return 1
}
only=("$@")

# toml_get FILE KEY: the value of a top-level `KEY = ...` line, strings unquoted and unescaped
# (the files use one-line basic strings with only \" and \\ escapes, integers and string arrays).
toml_get() {
    local line
    line="$(grep -m1 -E "^$2[[:space:]]*=" "$1")" || return 1
    unquote "${line#*=}"
}
unquote() {
    local v="$1"
    v="${v#"${v%%[![:space:]]*}"}"; v="${v%"${v##*[![:space:]]}"}"
    if [[ "$v" == \"*\" ]]; then
        v="${v:1:${#v}-2}"
        v="${v//\\\"/\"}"; v="${v//\\\\/\\}"
    fi
    printf '%s' "$v"
}
# toml_args FILE: the strings of `args = [...]`, one per line (no commas or quotes inside them)
toml_args() {
    toml_get "$1" args | tr -d '[]' | tr ',' '\n' | sed -E 's/^[[:space:]]*"?//; s/"?[[:space:]]*$//' | grep -v '^$'
}

# compile SRC_DIR OUT_DIR: javac every .java below SRC_DIR; messages go to OUT_DIR.log
compile() {
    mkdir -p "$2"
    find "$1" -name '*.java' > "$2.files"
    javac -J-XX:TieredStopAtLevel=1 -J-XX:+UseSerialGC --release 17 -g -encoding UTF-8 -d "$2" @"$2.files" > "$2.log" 2>&1
}

# run CLASSES MAIN ARGS_FILE OUT: runs the program; OUT gets stdout, stderr and the exit status.
# Returns 124 on timeout.
run() {
    local -a args=()
    [ -s "$3" ] && mapfile -t args < "$3"
    timeout "$timeout_s" java -XX:TieredStopAtLevel=1 -XX:+UseSerialGC -cp "$1" "$2" "${args[@]}" > "$4" 2> "$4.err" < /dev/null
    local rc=$?
    [ "$rc" -eq 124 ] && return 124
    { echo "--- stderr"; cat "$4.err"; echo "--- exit $rc"; } >> "$4"
    return 0
}

# method_has_line CLASSES pkg.Class.method LINE: true when LINE is in the line number table of a
# method of that name (any overload); constructors are <init>, static initializers <clinit>.
method_has_line() {
    local classes="$1" qualified="$2" line="$3"
    local class="${qualified%.*}" method="${qualified##*.}"
    local simple="${class##*.}"
    javap -p -l -cp "$classes" "$class" 2>/dev/null | awk -v want="$method" -v line="$line" -v simple="$simple" -v class="$class" '
        /^  [^ ].*\(.*\).*;$/ {
            head = $0; sub(/\(.*/, "", head); n = split(head, w, " "); name = w[n]
            if (name == class || name == simple) name = "<init>"
            current = name; next
        }
        /^  static \{\};$/ { current = "<clinit>"; next }
        /^ *line [0-9]+: [0-9]+$/ {
            split($0, p, /[ :]+/)
            for (i in p) if (p[i] == "line") { l = p[i + 1] }
            if (current == want && l == line) found = 1
        }
        END { exit found ? 0 : 1 }'
}

# check_answers FILE: every non-comment line is `PATTERN => valid|invalid|trusted|dont-know`
check_answers() {
    local bad
    bad="$(grep -v -E '^[[:space:]]*(#.*)?$' "$1" | grep -v -E '^[[:space:]]*[^[:space:]]+[[:space:]]*=>[[:space:]]*(valid|invalid|trusted|dont-know)[[:space:]]*(#.*)?$')"
    [ -z "$bad" ] || { echo "$bad"; return 1; }
}

# methods CLASSES: every method of every class below CLASSES, as pkg.Class.method (<init>, <clinit>)
methods() {
    local classes="$1" f class
    while IFS= read -r f; do
        class="${f#"$classes"/}"; class="${class%.class}"; class="${class//\//.}"
        javap -p -cp "$classes" "$class" 2>/dev/null | awk -v class="$class" '
            /^  static \{\};$/ { print class ".<clinit>"; next }
            /^  [^ ].*\(.*\).*;$/ {
                head = $0; sub(/\(.*/, "", head); n = split(head, w, " "); name = w[n]
                if (name == class) name = "<init>"
                print class "." name
            }'
    done < <(find "$classes" -name '*.class' | sort) | sort -u
}

# unanswered ANSWERS CLASSES: the methods of CLASSES that no rule of ANSWERS matches
unanswered() {
    local regexes
    regexes="$(grep -v -E '^[[:space:]]*(#.*)?$' "$1" | sed -E 's/^[[:space:]]*([^[:space:]]+)[[:space:]]*=>.*/\1/' \
        | sed -E 's/[.$^+?()|{}\[\]]/\\&/g; s/\*/.*/g; s/^/^/; s/$/$/')"
    methods "$2" | grep -v -E -f <(printf '%s\n' "$regexes")
}

check_program() {
    local dir="$1" name; name="$(basename "$1")"
    local toml="$dir/program.toml" out="$work/programs/$name"
    [ -f "$toml" ] || { fail "program $name" "no program.toml"; return; }
    local main method line
    main="$(toml_get "$toml" main)" || { fail "program $name" "program.toml has no main"; return; }
    method="$(toml_get "$toml" buggy_method)" || { fail "program $name" "program.toml has no buggy_method"; return; }
    line="$(toml_get "$toml" bug_line)" || { fail "program $name" "program.toml has no bug_line"; return; }
    toml_get "$toml" description >/dev/null || { fail "program $name" "program.toml has no description"; return; }
    mkdir -p "$out"
    toml_args "$toml" > "$out/args"
    local v
    for v in buggy fixed; do
        compile "$dir/$v" "$out/$v" || { fail "program $name" "$v does not compile: $(head -5 "$out/$v.log")"; return; }
        run "$out/$v" "$main" "$out/args" "$out/$v.out" || { fail "program $name" "$v did not end within ${timeout_s}s"; return; }
    done
    if cmp -s "$out/buggy.out" "$out/fixed.out"; then
        fail "program $name" "buggy and fixed print the same output"; return
    fi
    if ! method_has_line "$out/buggy" "$method" "$line"; then
        fail "program $name" "line $line of the buggy program is no code of $method"; return
    fi
    if ! method_has_line "$out/fixed" "$method" "$line"; then
        fail "program $name" "the fixed program has no method $method with code on line $line"; return
    fi
    if [ ! -f "$dir/answers.txt" ]; then
        fail "program $name" "no answers.txt"; return
    fi
    local bad
    if ! bad="$(check_answers "$dir/answers.txt")"; then
        fail "program $name" "answers.txt has malformed rules: $bad"; return
    fi
    if ! grep -q -E "^[[:space:]]*$(printf '%s' "$method" | sed 's/[.$]/\\&/g')[[:space:]]*=>[[:space:]]*invalid" "$dir/answers.txt"; then
        fail "program $name" "answers.txt does not answer $method invalid"; return
    fi
    local missing
    missing="$(unanswered "$dir/answers.txt" "$out/buggy" | tr '\n' ' ')"
    if [ -n "$missing" ]; then
        fail "program $name" "answers.txt answers no rule for: $missing"; return
    fi
    ok "program $name"
}

# mutant blocks of mutants.toml, one per line, fields separated by the unit separator \037:
# id, file, line, from, to, method, error (strings still quoted)
mutant_rows() {
    awk -v US=$'\037' '
        function flush() { if (have) print id US file US line US from US to US method US error; have = 0 }
        /^\[\[mutant\]\]/ { flush(); have = 1; id = file = line = from = to = method = error = ""; next }
        /^[a-z_]+[ \t]*=/ {
            key = $0; sub(/[ \t]*=.*/, "", key); val = $0; sub(/^[^=]*=[ \t]*/, "", val); sub(/[ \t]+$/, "", val)
            if (key == "id") id = val; else if (key == "file") file = val; else if (key == "line") line = val
            else if (key == "from") from = val; else if (key == "to") to = val
            else if (key == "method") method = val; else if (key == "error") error = val
        }
        END { flush() }' "$1"
}

check_corpus() {
    local dir="$1" name; name="$(basename "$1")"
    local toml="$dir/program.toml" out="$work/corpus/$name"
    [ -f "$toml" ] || { fail "corpus $name" "no program.toml"; return; }
    [ -f "$dir/mutants.toml" ] || { fail "corpus $name" "no mutants.toml"; return; }
    local main; main="$(toml_get "$toml" main)" || { fail "corpus $name" "program.toml has no main"; return; }
    mkdir -p "$out"
    toml_args "$toml" > "$out/args"
    compile "$dir/src" "$out/correct" || { fail "corpus $name" "does not compile: $(head -5 "$out/correct.log")"; return; }
    run "$out/correct" "$main" "$out/args" "$out/correct.out" || { fail "corpus $name" "did not end within ${timeout_s}s"; return; }
    if ! grep -q -- '--- exit 0$' "$out/correct.out" || [ -s "$out/correct.out.err" ]; then
        fail "corpus $name" "the correct program fails: $(head -3 "$out/correct.out.err")"; return
    fi
    run "$out/correct" "$main" "$out/args" "$out/again.out"
    if ! cmp -s "$out/correct.out" "$out/again.out"; then
        fail "corpus $name" "the correct program's output differs between two runs"; return
    fi
    ok "corpus $name"

    local id file line from to method error seen=" "
    while IFS=$'\037' read -r id file line from to method error; do
        id="$(unquote "$id")"; file="$(unquote "$file")"; from="$(unquote "$from")"
        to="$(unquote "$to")"; method="$(unquote "$method")"; error="$(unquote "$error")"
        local what="mutant $name/$id"
        if [ -z "$id" ] || [ -z "$file" ] || [ -z "$line" ] || [ -z "$from" ] || [ -z "$method" ] || [ -z "$error" ]; then
            fail "$what" "a key is missing (id, file, line, from, to, method, error)"; continue
        fi
        case "$seen" in *" $id "*) fail "$what" "duplicate id"; continue ;; esac
        seen="$seen$id "
        local mdir="$out/m-$id"
        rm -rf "$mdir"; mkdir -p "$mdir"
        cp -r "$dir/src" "$mdir/src"
        local target="$mdir/src/$file"
        [ -f "$target" ] || { fail "$what" "no file src/$file"; continue; }
        local actual; actual="$(sed -n "${line}p" "$target")"
        actual="${actual#"${actual%%[![:space:]]*}"}"; actual="${actual%"${actual##*[![:space:]]}"}"
        if [ "$actual" != "$from" ]; then
            fail "$what" "line $line of $file is '$actual', not '$from'"; continue
        fi
        if [ "$from" = "$to" ]; then fail "$what" "from and to are the same"; continue; fi
        if ! method_has_line "$out/correct" "$method" "$line"; then
            fail "$what" "line $line is no code of $method"; continue
        fi
        local indent; indent="$(sed -n "${line}p" "$target" | sed -E 's/^([[:space:]]*).*/\1/')"
        awk -v n="$line" -v text="$indent$to" 'NR == n { print text; next } { print }' "$target" > "$target.new" && mv "$target.new" "$target"
        if ! compile "$mdir/src" "$mdir/classes"; then
            fail "$what" "does not compile: $(head -3 "$mdir/classes.log")"; continue
        fi
        if ! run "$mdir/classes" "$main" "$out/args" "$mdir/out"; then
            fail "$what" "did not end within ${timeout_s}s"; continue
        fi
        if cmp -s "$out/correct.out" "$mdir/out"; then
            fail "$what" "prints the same as the correct program"; continue
        fi
        ok "$what ($error in $method)"
        [ -n "${CHECK_VERBOSE:-}" ] && diff "$out/correct.out" "$mdir/out" | grep '^>' | head -3
        rm -rf "$mdir"
    done < <(mutant_rows "$dir/mutants.toml")
}

for dir in "$here"/programs/*/; do
    [ -d "$dir" ] || continue
    selected "$(basename "$dir")" && check_program "${dir%/}"
done
for dir in "$here"/corpus/*/; do
    [ -d "$dir" ] || continue
    selected "$(basename "$dir")" && check_corpus "${dir%/}"
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
