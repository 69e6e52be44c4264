package hindsight.eclipse.tests;

import hindsight.eclipse.core.Answer;
import hindsight.eclipse.core.TreeNode;
import hindsight.eclipse.core.BugReport;
import hindsight.eclipse.core.ChildPage;
import hindsight.eclipse.core.EventPage;
import hindsight.eclipse.core.HistoryPage;
import hindsight.eclipse.core.HindsightException;
import hindsight.eclipse.core.HistoryEntry;
import hindsight.eclipse.core.NodeState;
import hindsight.eclipse.core.Origin;
import hindsight.eclipse.core.PathStep;
import hindsight.eclipse.core.Question;
import hindsight.eclipse.core.TraceEvent;
import hindsight.eclipse.core.TraceSession;
import hindsight.eclipse.core.VariablePage;
import hindsight.eclipse.core.VariableValue;
import hindsight.eclipse.core.VariableValue.Change;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A test double of the core's session: a hand-written execution tree of the jhyde paper's
 * MergeSort run, plus a node with 5000 children to check that the tree view reads lazily. It
 * records what the views ask so the tests can check it. The real session is the JNI bridge's.
 */
final class MergeSortSession implements TraceSession {
    static final long ROOT = 0;
    static final long SORT = 1;
    static final long LAST_MERGE = 14;
    static final long WIDE = 4;
    static final int WIDE_CHILDREN = 5000;

    private final Map<Long, List<Long>> children = new HashMap<>();
    private final Map<Long, String[]> calls = new HashMap<>();
    private final Map<Long, Answer> answers = new HashMap<>();
    private final Deque<Long> answerOrder = new ArrayDeque<>();
    /** Children handed out by {@link #children}, summed over all requests. */
    int childrenServed;
    final List<String> log = new java.util.concurrent.CopyOnWriteArrayList<>();
    /** The rows of the wide node's events and of the variable {@link #MILLION}'s history. */
    static final int MANY = 1_000_000;
    static final String MILLION = "million";
    /** When set, the session's end: {@code UNDECIDED} or {@code NO_BUG}. */
    volatile Question.Kind ending;
    boolean closed;

    MergeSortSession() {
        call(ROOT, "MergeSort.main", "main([])", SORT, 2L, 3L, WIDE);
        call(SORT, "MergeSort.sort", "sort([4, 9, 1, 7]) -> a = [1, 4, 9, 7]", 10L, 11L, 12L, 13L, LAST_MERGE);
        call(2L, "java.util.Arrays.toString", "toString([1, 4, 9, 7]) = \"[1, 4, 9, 7]\"");
        call(3L, "java.io.PrintStream.println", "println(\"[1, 4, 9, 7]\")");
        call(10L, "MergeSort.distribute", "distribute([4, 9, 1, 7], l=1) -> b = [4, 1], c = [9, 7]");
        call(11L, "MergeSort.merge", "merge(b=[4, 1], 0..1, c=[9, 7], 0..1) -> a = [4, 9, 1, 7]");
        call(12L, "MergeSort.merge", "merge(b=[4, 1], 1..2, c=[9, 7], 1..2) -> a = [4, 9, 1, 7]");
        call(13L, "MergeSort.distribute", "distribute([4, 9, 1, 7], l=2) -> b = [4, 9], c = [1, 7]");
        call(LAST_MERGE, "MergeSort.merge", "merge(b=[4, 9], 0..2, c=[1, 7], 0..2) -> a = [1, 4, 9, 7]");
        List<Long> wide = new ArrayList<>();
        for (long i = 0; i < WIDE_CHILDREN; i++) {
            wide.add(1000 + i);
            calls.put(1000 + i, new String[] {"Work.step", "step(" + i + ")"});
        }
        calls.put(WIDE, new String[] {"Work.repeat", "repeat(" + WIDE_CHILDREN + ")"});
        children.put(WIDE, wide);
    }

    private void call(long id, String method, String label, Long... kids) {
        calls.put(id, new String[] {method, label});
        children.put(id, List.of(kids));
    }

    private TreeNode node(long id) throws HindsightException {
        String[] c = calls.get(id);
        if (c == null) {
            throw new HindsightException("no node " + id);
        }
        // Every node of the double is a call, its root main's.
        return new TreeNode(id, TreeNode.Kind.ROUTINE, c[1], c[0], children.getOrDefault(id, List.of()).size(), true,
                answers.get(id), id * 100, id * 100 + 99);
    }

    private void open() throws HindsightException {
        if (closed) {
            throw new HindsightException("session closed");
        }
    }

    @Override
    public TreeNode root() throws HindsightException {
        open();
        return node(ROOT);
    }

    @Override
    public ChildPage children(long id, int offset, int limit) throws HindsightException {
        open();
        log.add("children " + id + " " + offset + " " + limit);
        List<Long> all = children.getOrDefault(id, List.of());
        List<TreeNode> page = new ArrayList<>();
        for (int i = offset; i < Math.min(all.size(), offset + limit); i++) {
            page.add(node(all.get(i)));
        }
        childrenServed += page.size();
        return new ChildPage(offset, page, all.size());
    }

    @Override
    public NodeState nodeState(long id, long at) throws HindsightException {
        open();
        log.add("nodeState " + id + " " + at);
        if (id != LAST_MERGE) {
            return new NodeState(id, id * 100, at,
                    List.of(new VariableValue("x", "x", "0", "1", Change.CHANGED, List.of())));
        }
        List<VariableValue> elements = List.of(
                new VariableValue("c[0]", "[0]", "1", "1", Change.NONE, List.of()),
                new VariableValue("c[1]", "[1]", "7", "7", Change.NONE, List.of()),
                new VariableValue("c[2]", "[2]", "7", "9", Change.CHANGED, List.of()),
                new VariableValue("c[3]", "[3]", "7", "7", Change.NONE, List.of()));
        return new NodeState(id, id * 100, at, List.of(
                new VariableValue("la", "la", "0", "2", Change.CHANGED, List.of()),
                new VariableValue("lb", "lb", "0", "2", Change.CHANGED, List.of()),
                new VariableValue("c", "c", "int[4]", "int[4]", Change.CONTENTS_CHANGED, elements),
                new VariableValue("lc", "lc", "0", "2", Change.CHANGED, List.of()),
                new VariableValue("big", "big", "List#7", "List#7", Change.NONE, BIG, List.of())));
    }

    /** Elements of the long list {@code big}, read only on expansion, in pages. */
    static final int BIG = 250;

    /**
     * The contents of {@code big}: element i is a node of a linked list whose {@code next} fields
     * go on forever, so expansion can be checked at any depth.
     */
    @Override
    public VariablePage variableChildren(String path, long entry, long at, int offset, int limit)
            throws HindsightException {
        open();
        log.add("variableChildren " + path + " " + offset + " " + limit);
        List<VariableValue> page = new ArrayList<>();
        if (path.equals("big")) {
            for (int i = offset; i < Math.min(BIG, offset + limit); i++) {
                page.add(new VariableValue("big[" + i + "]", "[" + i + "]", "Node#" + i, "Node#" + i, Change.NONE, 1,
                        List.of()));
            }
            return new VariablePage(BIG, offset, page);
        }
        if (path.startsWith("big[") && offset == 0 && limit > 0) {
            int depth = path.split("\\.next", -1).length;
            page.add(new VariableValue(path + ".next", "next", "Node#" + depth, "Node#" + depth, Change.NONE, 1,
                    List.of()));
            return new VariablePage(1, 0, page);
        }
        throw new HindsightException("no variable " + path + " with children " + offset + ".." + (offset + limit));
    }

    @Override
    public List<PathStep> pathTo(long id) throws HindsightException {
        open();
        node(id);
        List<PathStep> path = new ArrayList<>();
        long x = id;
        while (x != ROOT) {
            long child = x;
            Map.Entry<Long, List<Long>> parent = children.entrySet().stream()
                    .filter(e -> e.getValue().contains(child)).findFirst()
                    .orElseThrow(() -> new HindsightException("node " + child + " has no parent"));
            path.add(0, new PathStep(child, parent.getValue().indexOf(child)));
            x = parent.getKey();
        }
        path.add(0, new PathStep(ROOT, 0));
        return path;
    }

    @Override
    public EventPage eventPage(long id, String variable, long from, int limit) throws HindsightException {
        open();
        if (from == 0) {
            log.add("events " + id + " " + variable);
        }
        if (id == WIDE) {
            // A call with a million events: the cursor is the row's index.
            List<TraceEvent> out = new ArrayList<>();
            for (long i = from; i < Math.min(MANY, from + limit); i++) {
                out.add(new TraceEvent(i, "step(" + i + ")", 7, TraceEvent.Mark.NONE));
            }
            return new EventPage(out, from + limit < MANY ? from + limit : -1);
        }
        String[][] events = {{"la = 0", "9"}, {"c[0] = 1", "10"}, {"c[1] = 4", "10"}, {"c[2] = 7", "12"},
            {"c[2] = 9", "12"}, {"return", "15"}};
        List<TraceEvent> out = new ArrayList<>();
        for (int i = (int) from; i < Math.min(events.length, from + limit); i++) {
            boolean changes = variable != null && events[i][0].startsWith(variable + " =");
            out.add(new TraceEvent(id * 100 + i, events[i][0], Integer.parseInt(events[i][1]),
                    changes ? TraceEvent.Mark.CHANGES : TraceEvent.Mark.NONE));
        }
        return new EventPage(out, from + limit < events.length ? from + limit : -1);
    }

    @Override
    public HistoryPage historyPage(String path, int offset, int limit) throws HindsightException {
        open();
        log.add("history " + path + " " + offset);
        List<HistoryEntry> all = new ArrayList<>();
        if (MILLION.equals(path)) {
            int to = limit < 0 ? MANY : Math.min(MANY, offset + limit);
            for (int i = offset; i < to; i++) {
                all.add(new HistoryEntry(i, Integer.toString(i), 1000 + i % WIDE_CHILDREN, "Work.step", 7));
            }
            return new HistoryPage(MANY, offset, all);
        }
        List<HistoryEntry> c2 = List.of(new HistoryEntry(1101, "1", 11, "MergeSort.merge", 10),
                new HistoryEntry(1201, "1", 12, "MergeSort.merge", 10),
                new HistoryEntry(1403, "7", LAST_MERGE, "MergeSort.merge", 12),
                new HistoryEntry(1404, "9", LAST_MERGE, "MergeSort.merge", 12));
        int to = limit < 0 ? c2.size() : Math.min(c2.size(), offset + limit);
        return new HistoryPage(c2.size(), offset, offset < to ? c2.subList(offset, to) : List.of());
    }

    @Override
    public Origin origin(String path, long at) throws HindsightException {
        open();
        return new Origin(1404, LAST_MERGE, "MergeSort.merge", 12, "c[lb++] = a[la++]", "a[1]");
    }

    @Override
    public void answer(long id, Answer answer) throws HindsightException {
        open();
        node(id);
        log.add("answer " + id + " " + answer);
        answers.put(id, answer);
        answerOrder.push(id);
    }

    @Override
    public void undo() throws HindsightException {
        open();
        log.add("undo");
        if (!answerOrder.isEmpty()) {
            answers.remove(answerOrder.pop());
        }
    }

    @Override
    public Question nextQuestion() throws HindsightException {
        open();
        if (ending == Question.Kind.UNDECIDED) {
            return new Question(ending, null, List.of(node(13L), node(LAST_MERGE)), answers.size(), null);
        }
        if (ending == Question.Kind.NO_BUG) {
            return new Question(ending, null, List.of(), answers.size(), null);
        }
        if (answers.get(LAST_MERGE) == Answer.INVALID) {
            return new Question(Question.Kind.BUGGY, node(LAST_MERGE), List.of(), answers.size(),
                    new BugReport(LAST_MERGE, TreeNode.Kind.ROUTINE, "MergeSort.merge", "MergeSort.java",
                            List.of(9, 10, 12)));
        }
        return new Question(Question.Kind.ASK, node(LAST_MERGE));
    }

    @Override
    public void setStrategy(String name, double p) throws HindsightException {
        open();
        log.add("strategy " + name);
    }

    @Override
    public void trust(String method) throws HindsightException {
        open();
        log.add("trust " + method);
    }

    @Override
    public String name() {
        return "MergeSort (test session)";
    }

    @Override
    public void close() {
        closed = true;
    }
}
