package hindsight.eclipse.core;

import java.util.List;

/**
 * A debugging session over one recorded (or still recording) run, as the Rust core offers it.
 * The JNI bridge implements it; the views only read through it and send answers to it.
 * Nodes are execution-tree node ids, timestamps the recorder's global event timestamps,
 * variable paths the core's textual variable paths (for example {@code c[2]} or {@code this.size}).
 * Every method may fail with {@link HindsightException} carrying the core's message.
 */
public interface TraceSession extends AutoCloseable {
    /** The run's root node (node 0). */
    TreeNode root() throws HindsightException;

    /** Up to {@code limit} children of {@code node}, starting at child {@code offset}. */
    ChildPage children(long node, int offset, int limit) throws HindsightException;

    /** The variables of {@code node}, old values at its entry and new values at timestamp {@code at}. */
    NodeState nodeState(long node, long at) throws HindsightException;

    /**
     * Up to {@code limit} events of {@code node} from timestamp {@code from}, marked by whether
     * they change {@code variable} (may be null).
     */
    EventPage eventPage(long node, String variable, long from, int limit) throws HindsightException;

    /** Every event of {@code node} (all pages), marked for {@code variable} (may be null). */
    default List<TraceEvent> events(long node, String variable) throws HindsightException {
        List<TraceEvent> all = new java.util.ArrayList<>();
        long from = 0;
        do {
            EventPage page = eventPage(node, variable, from, 10_000);
            all.addAll(page.events());
            from = page.next();
        } while (from >= 0);
        return all;
    }

    /** Changes {@code offset .. offset + limit} of the variable at {@code path} ({@code limit < 0}: all). */
    HistoryPage historyPage(String path, int offset, int limit) throws HindsightException;

    /** Every change of the variable at {@code path} over the run, in timestamp order. */
    default List<HistoryEntry> history(String path) throws HindsightException {
        return historyPage(path, 0, -1).entries();
    }

    /** Where the recording stands (a finished trace: its ending). */
    default RecordingStatus status() throws HindsightException {
        return RecordingStatus.COMPLETE;
    }

    /** Every JVM the launch started, recorded or not (none for a trace opened from a file). */
    default List<JvmTrace> jvms() throws HindsightException {
        return List.of();
    }

    /**
     * The running call behind frame {@code index} of a suspended thread's stack {@code frames}
     * (innermost first, {@code pkg.Class.method} each) on the thread whose Java id is
     * {@code javaThread}; null when that frame is not recorded.
     */
    default FrameNode frameNode(long javaThread, String[] frames, int index) throws HindsightException {
        return null;
    }

    /** The trace file, or null when the session has none (test doubles). */
    default java.nio.file.Path tracePath() {
        return null;
    }

    /** Where the value of the variable at {@code path} seen at {@code at} came from. */
    Origin origin(String path, long at) throws HindsightException;

    /** Answers the question about {@code node}. */
    void answer(long node, Answer answer) throws HindsightException;

    /** Takes back the last answer. */
    void undo() throws HindsightException;

    /** The node to ask about next, the buggy node once found, or nothing to ask yet. */
    Question nextQuestion() throws HindsightException;

    /**
     * Chooses the strategy by its name (see {@link Strategies}), at any time, also while a live
     * recording runs; the answers given so far are kept. {@code p} is the factor of the coverage
     * strategies ({@code Double.NaN}: their default).
     */
    void setStrategy(String name, double p) throws HindsightException;

    /** {@link #setStrategy(String, double)} with the strategy's default p. */
    default void setStrategy(String name) throws HindsightException {
        setStrategy(name, Double.NaN);
    }

    /**
     * Trusts every call of {@code method} (qualified name, e.g. {@code pkg.Sorter.swap}, every
     * overload): the calls recorded so far and, while recording, those still to come.
     */
    void trust(String method) throws HindsightException;

    /** The way from the root (first) to {@code node} (last), to reveal a deep node in a lazy tree. */
    List<PathStep> pathTo(long node) throws HindsightException;

    /**
     * Fields or elements {@code offset .. offset + limit} of the object or array the variable at
     * {@code path} refers to at {@code at}, each compared with the same slot at {@code entry}.
     */
    VariablePage variableChildren(String path, long entry, long at, int offset, int limit)
            throws HindsightException;

    /** The built-in queries (name and usage line) the session answers; none for test doubles. */
    default List<QueryTable.Query> queries() throws HindsightException {
        return List.of();
    }

    /**
     * Runs the built-in query {@code name} with {@code arguments} as typed after the name on the
     * command line ({@code hindsight query TRACE NAME ARGS}, options such as {@code --from},
     * {@code --caller}, {@code --where 'arg0 == null'} included).
     */
    default QueryTable query(String name, String arguments) throws HindsightException {
        throw new HindsightException("this session answers no queries");
    }

    /** Runs a read-only SQL statement over the trace ({@code hindsight sql}); at most {@code limit} rows. */
    default QueryTable sql(String sql, int limit) throws HindsightException {
        throw new HindsightException("this session answers no SQL");
    }

    /** The trace's display name (file or launch). */
    default String name() {
        return "trace";
    }

    @Override
    void close();

}
