package hindsight.eclipse.core;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The real {@link TraceSession}: the Rust core through the JNI bridge ({@code libhindsight_jni.so},
 * crate {@code jni-bridge}). The session lives on the Rust side, in a registry keyed by the
 * {@code long} handle this object holds; a closed or unknown handle is a
 * {@link HindsightException}, never a crash. Results cross as JSON strings in the shapes of the
 * command line's {@code --json} (docs/cli.md), read by {@link Json}.
 *
 * <p>The {@code native} methods below are the bridge's whole interface: a test of the bridge
 * generates their header with {@code javac -h} and checks the library exports exactly these
 * symbols.
 */
public final class NativeSession implements TraceSession {
    private static volatile Throwable loadError;
    private static volatile boolean loaded;

    private final String name;
    private final Path trace;
    private volatile long handle;

    private NativeSession(long handle, String name, Path trace) {
        this.handle = handle;
        this.name = name;
        this.trace = trace;
    }

    /** The library's name; {@code -Dhindsight.jni.library=NAME} loads another build of the bridge. */
    static final String LIBRARY = "hindsight_jni";

    /** Loads {@code libhindsight_jni.so} (once); the bundle's {@code Bundle-NativeCode} provides it. */
    public static synchronized void load() throws HindsightException {
        String library = System.getProperty("hindsight.jni.library", LIBRARY);
        if (loaded && library.equals(LIBRARY)) {
            return;
        }
        if (loadError != null && library.equals(LIBRARY)) {
            throw new HindsightException("the Hindsight native library could not be loaded: " + loadError.getMessage(),
                    loadError);
        }
        try {
            System.loadLibrary(library);
            loaded = library.equals(LIBRARY);
        } catch (UnsatisfiedLinkError | SecurityException e) {
            if (library.equals(LIBRARY)) {
                loadError = e;
            }
            throw new HindsightException("the Hindsight native library (lib" + library + ".so) could not be loaded: "
                    + e.getMessage() + ". Hindsight cannot record or open traces without it; reinstall the plugin "
                    + "from the update site (its jar carries native/linux-x86_64/libhindsight_jni.so)", e);
        }
    }

    /** Opens a trace written by {@code hindsight record}. */
    public static NativeSession open(Path trace) throws HindsightException {
        return open(trace, "");
    }

    /**
     * Opens a trace written by {@code hindsight record}; methods matching {@code trust}
     * ({@code java.*, pkg.Class.method}) are never asked about.
     */
    public static NativeSession open(Path trace, String trust) throws HindsightException {
        return open(trace, trust, Bounds.CORE_DEFAULTS);
    }

    /** {@link #open(Path, String)} with the cache bounds of the preferences. */
    public static NativeSession open(Path trace, String trust, Bounds bounds) throws HindsightException {
        return open(trace, trust, bounds, TreeOptions.DEFAULTS);
    }

    /** {@link #open(Path, String)} with the cache bounds and the tree's shape of the preferences. */
    public static NativeSession open(Path trace, String trust, Bounds bounds, TreeOptions tree)
            throws HindsightException {
        load();
        try {
            return new NativeSession(nOpenTrace(trace.toAbsolutePath().toString(), trust,
                    bounds.residentNodes(), bounds.questionCache(), tree.balance(), tree.loops(), tree.maxChain()),
                    trace.getFileName().toString(), trace);
        } catch (UnsatisfiedLinkError e) {
            throw new HindsightException("the loaded libhindsight_jni.so is not the Hindsight bridge: " + e.getMessage(), e);
        }
    }

    /**
     * Starts listening for the agent; the first JVM that connects is recorded into {@code trace}
     * (the file may be given a {@code -N} suffix for further JVMs) and fills the session while it runs.
     */
    public static NativeSession startLive(Path trace, String name) throws HindsightException {
        return startLive(trace, name, "");
    }

    /** {@link #startLive(Path, String)} with the methods matching {@code trust} never asked about. */
    public static NativeSession startLive(Path trace, String name, String trust) throws HindsightException {
        return startLive(trace, name, trust, Bounds.CORE_DEFAULTS);
    }

    /** {@link #startLive(Path, String, String)} with the cache bounds of the preferences. */
    public static NativeSession startLive(Path trace, String name, String trust, Bounds bounds)
            throws HindsightException {
        return startLive(trace, name, trust, bounds, TreeOptions.DEFAULTS);
    }

    /** {@link #startLive(Path, String, String)} with the cache bounds and the tree's shape of the preferences. */
    public static NativeSession startLive(Path trace, String name, String trust, Bounds bounds, TreeOptions tree)
            throws HindsightException {
        load();
        try {
            return new NativeSession(nStartLive(trace.toAbsolutePath().toString(), trust,
                    bounds.residentNodes(), bounds.questionCache(), tree.balance(), tree.loops(), tree.maxChain()),
                    name, trace);
        } catch (UnsatisfiedLinkError e) {
            throw new HindsightException("the loaded libhindsight_jni.so is not the Hindsight bridge: " + e.getMessage(), e);
        }
    }

    /** The socket the agent connects to ({@code socket=PATH}); null for a finished trace. */
    public Path socketPath() throws HindsightException {
        Object p = Json.parse(nSocketPath(handle));
        return p == null ? null : Path.of(p.toString());
    }

    private static Object parse(String json) throws HindsightException {
        try {
            return Json.parse(json);
        } catch (IllegalArgumentException e) {
            throw new HindsightException("the native bridge returned " + e.getMessage(), e);
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Path tracePath() {
        return trace;
    }

    @Override
    public TreeNode root() throws HindsightException {
        // The root's own row: node 0 is the parent of everything, so read it as its own child page's owner.
        ChildPage page = children(0, 0, 0);
        return new TreeNode(0, TreeNode.Kind.ROOT, "run", null, page.total(), false, null, 0, 0);
    }

    @Override
    public ChildPage children(long node, int offset, int limit) throws HindsightException {
        Map<String, Object> m = Json.obj(parse(nChildren(handle, node, offset, limit)));
        List<TreeNode> nodes = new ArrayList<>();
        for (Object o : Json.list(m, "nodes")) {
            nodes.add(treeNode(Json.obj(o)));
        }
        return new ChildPage((int) Json.num(m, "offset", offset), nodes, (int) Json.num(m, "total", 0));
    }

    static TreeNode treeNode(Map<String, Object> m) {
        return new TreeNode(Json.num(m, "id", -1), TreeNode.Kind.of(Json.str(m, "kind")), Json.str(m, "label"),
                Json.str(m, "method"),
                (int) Json.num(m, "child_count", 0), Json.bool(m, "complete"), answer(Json.str(m, "answer")),
                Json.num(m, "entry", 0), Json.num(m, "exit", 0));
    }

    static Answer answer(String label) {
        if (label == null) {
            return null;
        }
        for (Answer a : Answer.values()) {
            if (a.coreName().equals(label)) {
                return a;
            }
        }
        return null;
    }

    @Override
    public NodeState nodeState(long node, long at) throws HindsightException {
        // The variables only: the Node view reads their fields and elements when expanded.
        Map<String, Object> m = Json.obj(parse(nNodeState(handle, node, at, new String[0])));
        List<VariableValue> vars = new ArrayList<>();
        for (Object o : Json.list(m, "variables")) {
            vars.add(variable(Json.obj(o)));
        }
        return new NodeState(Json.num(m, "node", node), Json.num(m, "entry_ts", 0), Json.num(m, "at", at), vars);
    }

    @Override
    public VariablePage variableChildren(String path, long entry, long at, int offset, int limit)
            throws HindsightException {
        Map<String, Object> m = Json.obj(parse(nVariableChildren(handle, path, entry, at, offset, limit)));
        List<VariableValue> children = new ArrayList<>();
        for (Object o : Json.list(m, "children")) {
            children.add(variable(Json.obj(o)));
        }
        return new VariablePage((int) Json.num(m, "size", -1), (int) Json.num(m, "offset", offset), children);
    }

    @Override
    public List<PathStep> pathTo(long node) throws HindsightException {
        List<PathStep> path = new ArrayList<>();
        for (Object o : Json.array(parse(nPathTo(handle, node)))) {
            Map<String, Object> step = Json.obj(o);
            path.add(new PathStep(Json.num(step, "id", -1), (int) Json.num(step, "index", 0)));
        }
        return path;
    }

    static VariableValue variable(Map<String, Object> m) {
        List<VariableValue> children = new ArrayList<>();
        for (Object o : Json.list(m, "children")) {
            children.add(variable(Json.obj(o)));
        }
        String mark = Json.str(m, "mark");
        VariableValue.Change change = "changed".equals(mark) ? VariableValue.Change.CHANGED
                : "contents-changed".equals(mark) ? VariableValue.Change.CONTENTS_CHANGED : VariableValue.Change.NONE;
        return new VariableValue(Json.str(m, "path"), Json.str(m, "name"), orUndefined(Json.str(m, "entry")),
                orUndefined(Json.str(m, "value")), change, (int) Json.num(m, "size", 0), children);
    }

    private static String orUndefined(String s) {
        return s == null ? "(undefined)" : s;
    }

    @Override
    public EventPage eventPage(long node, String variable, long from, int limit) throws HindsightException {
        Map<String, Object> m = Json.obj(parse(nEvents(handle, node, variable, from, limit)));
        List<TraceEvent> out = new ArrayList<>();
        for (Object o : Json.list(m, "events")) {
            Map<String, Object> e = Json.obj(o);
            String mark = Json.str(e, "mark");
            TraceEvent.Mark k = "changed".equals(mark) ? TraceEvent.Mark.CHANGES
                    : "contains-change".equals(mark) ? TraceEvent.Mark.CONTAINS_CHANGE : TraceEvent.Mark.NONE;
            out.add(new TraceEvent(Json.num(e, "timestamp", 0), Json.str(e, "text"), (int) Json.num(e, "line", 0), k));
        }
        return new EventPage(out, m.get("next") == null ? -1 : Json.num(m, "next", -1));
    }

    @Override
    public HistoryPage historyPage(String path, int offset, int limit) throws HindsightException {
        Map<String, Object> m = Json.obj(parse(nHistory(handle, path, offset, limit)));
        List<HistoryEntry> out = new ArrayList<>();
        for (Object o : Json.list(m, "entries")) {
            Map<String, Object> e = Json.obj(o);
            out.add(new HistoryEntry(Json.num(e, "timestamp", 0), Json.str(e, "value"), Json.num(e, "node", -1),
                    Json.str(e, "method"), (int) Json.num(e, "line", 0)));
        }
        return new HistoryPage((int) Json.num(m, "total", out.size()), (int) Json.num(m, "offset", offset), out);
    }

    @Override
    public RecordingStatus status() throws HindsightException {
        Map<String, Object> m = Json.obj(parse(nStatus(handle)));
        return new RecordingStatus(Json.str(m, "state"), Json.str(m, "detail"), Json.num(m, "events", 0),
                Json.num(m, "nodes", 0), Json.num(m, "complete_nodes", 0));
    }

    @Override
    public List<JvmTrace> jvms() throws HindsightException {
        List<JvmTrace> out = new ArrayList<>();
        for (Object o : Json.array(parse(nJvms(handle)))) {
            Map<String, Object> j = Json.obj(o);
            out.add(new JvmTrace((int) Json.num(j, "index", 0), Json.str(j, "path"), Json.str(j, "state"),
                    Json.str(j, "detail"), Json.num(j, "events", 0), Json.num(j, "nodes", 0)));
        }
        return out;
    }

    @Override
    public FrameNode frameNode(long javaThread, String[] frames, int index) throws HindsightException {
        Object o = parse(nFrameNode(handle, javaThread, frames, index));
        if (o == null) {
            return null;
        }
        Map<String, Object> m = Json.obj(o);
        return new FrameNode(treeNode(Json.obj(m.get("node"))), Json.num(m, "at", 0));
    }

    @Override
    public Origin origin(String path, long at) throws HindsightException {
        Map<String, Object> m = Json.obj(parse(nOrigin(handle, path, at)));
        Object w = m.get("write");
        if (w == null) {
            return new Origin(at, -1, null, 0, "no recorded write (a default value)", null);
        }
        Map<String, Object> write = Json.obj(w);
        String source = Json.str(write, "source");
        String sourcePath = null;
        for (Object o : Json.list(write, "inputs")) {
            sourcePath = Json.str(Json.obj(o), "path");
            break;
        }
        return new Origin(Json.num(write, "timestamp", 0), Json.num(write, "node", -1), Json.str(write, "method"),
                (int) Json.num(write, "line", 0), source != null ? source.strip() : Json.str(m, "value"), sourcePath);
    }

    @Override
    public void answer(long node, Answer answer) throws HindsightException {
        nAnswer(handle, node, answer.coreName());
    }

    @Override
    public void undo() throws HindsightException {
        nUndo(handle);
    }

    @Override
    public Question nextQuestion() throws HindsightException {
        Map<String, Object> m = Json.obj(parse(nNextQuestion(handle)));
        Question.Kind kind = Question.Kind.of(Json.str(m, "kind"));
        Object node = m.get("node");
        List<TreeNode> candidates = new ArrayList<>();
        for (Object o : Json.list(m, "candidates")) {
            candidates.add(treeNode(Json.obj(o)));
        }
        BugReport report = null;
        if (m.get("report") != null) {
            Object buggy = Json.obj(m.get("report")).get("buggy_node");
            if (buggy != null) {
                Map<String, Object> b = Json.obj(buggy);
                List<Integer> lines = new ArrayList<>();
                for (Object l : Json.list(b, "lines")) {
                    lines.add(((Number) l).intValue());
                }
                report = new BugReport(Json.num(b, "id", -1), TreeNode.Kind.of(Json.str(b, "kind")),
                        Json.str(b, "method"), Json.str(b, "file"), lines);
            }
        }
        return new Question(kind, node == null ? null : treeNode(Json.obj(node)), candidates,
                (int) Json.num(m, "answers", 0), report);
    }

    @Override
    public void setStrategy(String strategy, double p) throws HindsightException {
        nSetStrategy(handle, strategy, p);
    }

    @Override
    public void trust(String method) throws HindsightException {
        nTrust(handle, method);
    }

    @Override
    public List<QueryTable.Query> queries() throws HindsightException {
        load();
        List<QueryTable.Query> out = new ArrayList<>();
        for (Object o : Json.array(parse(nQueries()))) {
            Map<String, Object> q = Json.obj(o);
            out.add(new QueryTable.Query(Json.str(q, "name"), Json.str(q, "usage")));
        }
        return out;
    }

    @Override
    public QueryTable query(String queryName, String arguments) throws HindsightException {
        return table(parse(nQuery(handle, queryName, arguments)));
    }

    @Override
    public QueryTable sql(String sql, int limit) throws HindsightException {
        return table(parse(nSql(handle, sql, limit)));
    }

    static QueryTable table(Object json) {
        Map<String, Object> m = Json.obj(json);
        List<String> columns = new ArrayList<>();
        for (Object c : Json.list(m, "columns")) {
            columns.add(String.valueOf(c));
        }
        List<Object> targets = Json.list(m, "targets");
        List<QueryTable.Row> rows = new ArrayList<>();
        List<Object> cells = Json.list(m, "rows");
        for (int i = 0; i < cells.size(); i++) {
            List<String> row = new ArrayList<>();
            for (Object c : Json.array(cells.get(i))) {
                row.add(c == null ? "" : String.valueOf(c));
            }
            Map<String, Object> t = i < targets.size() ? Json.obj(targets.get(i)) : Map.of();
            rows.add(new QueryTable.Row(row, Json.num(t, "node", -1), Json.num(t, "event", -1), Json.str(t, "method"),
                    Json.str(t, "file"), (int) Json.num(t, "line", 0)));
        }
        return new QueryTable(columns, rows, Json.str(m, "summary"), Json.bool(m, "truncated"));
    }

    @Override
    public synchronized void close() {
        long h = handle;
        handle = 0;
        if (h != 0) {
            try {
                nClose(h);
            } catch (HindsightException e) {
                // Already closed on the Rust side: nothing left to free.
            }
        }
    }

    // The bridge. Names start with n so that they never overload the interface's methods
    // (javac -h would then mangle the argument types into the symbol names).

    private static native long nOpenTrace(String path, String trust, long residentNodes, int questionCache,
            boolean balance, boolean loops, int maxChain) throws HindsightException;

    private static native long nStartLive(String trace, String trust, long residentNodes, int questionCache,
            boolean balance, boolean loops, int maxChain) throws HindsightException;

    private static native String nSocketPath(long handle) throws HindsightException;

    private static native String nChildren(long handle, long node, int offset, int limit) throws HindsightException;

    private static native String nNodeState(long handle, long node, long at, String[] expand)
            throws HindsightException;

    private static native String nEvents(long handle, long node, String variable, long from, int limit)
            throws HindsightException;

    private static native String nHistory(long handle, String path, int offset, int limit) throws HindsightException;

    private static native String nStatus(long handle) throws HindsightException;

    private static native String nJvms(long handle) throws HindsightException;

    private static native String nFrameNode(long handle, long javaThread, String[] frames, int index)
            throws HindsightException;

    private static native String nOrigin(long handle, String path, long at) throws HindsightException;

    private static native void nAnswer(long handle, long node, String answer) throws HindsightException;

    private static native void nUndo(long handle) throws HindsightException;

    private static native String nNextQuestion(long handle) throws HindsightException;

    private static native void nSetStrategy(long handle, String name, double p) throws HindsightException;

    private static native void nTrust(long handle, String method) throws HindsightException;

    private static native String nPathTo(long handle, long node) throws HindsightException;

    private static native String nVariableChildren(long handle, String path, long entry, long at, int offset,
            int limit) throws HindsightException;

    private static native String nQueries() throws HindsightException;

    private static native String nQuery(long handle, String name, String arguments) throws HindsightException;

    private static native String nSql(long handle, String sql, int limit) throws HindsightException;

    private static native void nClose(long handle) throws HindsightException;
}
