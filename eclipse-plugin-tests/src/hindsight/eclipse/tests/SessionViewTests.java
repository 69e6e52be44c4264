package hindsight.eclipse.tests;

import hindsight.eclipse.core.Answer;
import hindsight.eclipse.core.Question;
import hindsight.eclipse.core.Sessions;
import hindsight.eclipse.core.TreeNode;
import hindsight.eclipse.views.CallTreeContentProvider;
import hindsight.eclipse.views.ComputationTreeView;
import hindsight.eclipse.views.EventListView;
import hindsight.eclipse.views.NodeView;
import hindsight.eclipse.views.SessionView;
import hindsight.eclipse.views.VariableHistoryView;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.widgets.Event;
import org.eclipse.swt.widgets.Item;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableItem;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.swt.widgets.TreeItem;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.PlatformUI;

/**
 * The four views over a session (a test double of the core's, {@link MergeSortSession}): lazy
 * tree, answers and colours, node state, events, variable history, the views leading to each
 * other, the ends of a session, tables of a million rows, and back to the empty state.
 */
public class SessionViewTests {
    private static final RGB RED = new RGB(200, 0, 0);
    private static final RGB INVALID = new RGB(250, 200, 200);
    private static final RGB BUGGY = new RGB(240, 120, 120);

    private final MergeSortSession session = new MergeSortSession();
    private ComputationTreeView tree;
    private NodeView nodeView;
    private EventListView events;
    /** The longest UI-thread task seen while a million rows were read, in ms. */
    static long millionRowsLatency = -1;

    List<Harness.Step> steps() {
        return List.of(
                new Harness.Step("computation tree reads the session lazily", this::lazyTree),
                new Harness.Step("answer invalid marks the buggy node apart and finds the bug", this::answer),
                new Harness.Step("node view and event list follow the selection", this::nodeAndEvents),
                new Harness.Step("show in history lists the four changes of c[2]", this::history),
                new Harness.Step("show in from the tree reaches the node view and the event list", this::showIn),
                new Harness.Step("a history row leads to its call, its events and its moment", this::historyNavigation),
                new Harness.Step("node view pages a long list and expands it to any depth", this::deepVariables),
                new Harness.Step("undo and don't know reach the session", this::undoAndDontKnow),
                new Harness.Step("undecided end lists the candidates, selectable", this::undecided),
                new Harness.Step("no-bug end says so and what to do next", this::noBug),
                new Harness.Step("event list and history stay responsive with a million rows", this::millionRows),
                new Harness.Step("stopping the session keeps the tree and refuses answers", this::stop),
                new Harness.Step("closing the session empties the views", this::close));
    }

    private static IWorkbenchPage page() {
        return PlatformUI.getWorkbench().getActiveWorkbenchWindow().getActivePage();
    }

    private void lazyTree(Harness h) throws Exception {
        harness = h;
        tree = (ComputationTreeView) page().showView(ComputationTreeView.ID);
        nodeView = (NodeView) page().showView(NodeView.ID);
        events = (EventListView) page().showView(EventListView.ID);
        page().showView(ComputationTreeView.ID);
        // The launch of the earlier steps left its live session open: start from the empty views.
        Sessions.open(null);
        h.waitUntil(tree::isEmptyStateShowing, 5000);
        Sessions.open(session);
        Check.isTrue(h.waitUntil(() -> !tree.isEmptyStateShowing(), 5000), "the tree leaves its empty state");
        Tree t = tree.viewer().getTree();
        Check.isTrue(h.waitUntil(() -> t.getItemCount() > 0, 5000), "the tree shows the root");
        TreeItem root = t.getItem(0);
        h.waitUntil(() -> "main([])".equals(root.getText()), 5000);
        Check.equal("main([])", root.getText(), "root label");
        root.setExpanded(true);
        tree.viewer().setExpandedState(root.getData(), true);
        h.settle(300);
        Check.equal(4, root.getItemCount(), "children of main");
        TreeItem wide = root.getItem(3);
        // Rows are read in the background: each shows once its page arrived.
        Check.isTrue(h.waitUntil(() -> "repeat(5000)".equals(wide.getText()), 5000), "the wide node: " + wide.getText());
        tree.viewer().setExpandedState(wide.getData(), true);
        h.settle(500);
        // 5000 children show as ranges of 1000: a level of the tree never has more rows.
        Check.equal(5, wide.getItemCount(), "ranges of the wide node's children");
        Check.equal("calls [4000..4999]", wide.getItem(4).getText(), "the last range");
        Check.isTrue(session.log.stream().noneMatch(l -> l.startsWith("children 4 ")), "no child read before a range opens");
        tree.viewer().setExpandedState(wide.getItem(0).getData(), true);
        tree.viewer().setExpandedState(wide.getItem(4).getData(), true);
        h.settle(300);
        TreeItem last = wide.getItem(4);
        Check.equal(1000, last.getItemCount(), "children in the last range");
        Check.isTrue(h.waitUntil(() -> "step(0)".equals(wide.getItem(0).getItem(0).getText()), 5000),
                "first child of the wide node: " + wide.getItem(0).getItem(0).getText());
        Check.isTrue(h.waitUntil(() -> "step(4321)".equals(last.getItem(321).getText()), 5000),
                "a child deep in the wide node: " + last.getItem(321).getText());
        // SWT asks row by row; the provider must turn that into one request per page, each once.
        List<String> requests = session.log.stream().filter(l -> l.startsWith("children 4 ")).toList();
        Check.isTrue(!requests.isEmpty() && requests.size() <= MergeSortSession.WIDE_CHILDREN / CallTreeContentProvider.PAGE,
                "children of the wide node read in pages of " + CallTreeContentProvider.PAGE + ": " + requests);
        Check.equal((long) requests.size(), requests.stream().distinct().count(), "no page read twice: " + requests);
        tree.viewer().setExpandedState(last.getData(), false);
        tree.viewer().setExpandedState(wide.getItem(0).getData(), false);
        tree.viewer().setExpandedState(wide.getData(), false);
        TreeItem sort = root.getItem(0);
        h.waitUntil(() -> sort.getData() instanceof TreeNode, 5000);
        tree.viewer().setExpandedState(sort.getData(), true);
        h.settle(300);
        Check.equal(5, sort.getItemCount(), "children of sort");
    }

    private Harness harness;

    private TreeItem lastMerge() {
        return materialized(materialized(materialized(tree.viewer().getTree().getItem(0)).getItem(0)).getItem(4));
    }

    /**
     * A virtual tree item gets its data when SWT asks for it, e.g. for its text, and the page
     * holding it arrives from the core a moment later.
     */
    private TreeItem materialized(TreeItem item) {
        item.getText();
        if (!(item.getData() instanceof TreeNode) && harness != null) {
            harness.waitUntil(() -> {
                item.getText();
                return item.getData() instanceof TreeNode;
            }, 5000);
        }
        return item;
    }

    static void select(Item item) {
        Event e = new Event();
        e.item = item;
        if (item instanceof TreeItem ti) {
            ti.getParent().setSelection(ti);
            ti.getParent().notifyListeners(SWT.Selection, e);
        } else if (item instanceof TableItem ti) {
            ti.getParent().setSelection(ti);
            ti.getParent().notifyListeners(SWT.Selection, e);
        }
    }

    private void answer(Harness h) throws Exception {
        TreeItem merge = lastMerge();
        Check.equal(MergeSortSession.LAST_MERGE, ((TreeNode) merge.getData()).id(), "node of the last merge");
        select(merge);
        h.settle(300);
        page().activate(tree);
        Commands.run(Commands.INVALID);
        Check.isTrue(h.waitUntil(() -> session.log.contains("answer 14 INVALID"), 5000),
                "the session got the answer: " + session.log);
        // The cleared items are filled again as SWT repaints them; the buggy node is marked apart.
        h.waitUntil(() -> BUGGY.equals(lastMerge().getBackground(0).getRGB()), 5000);
        Check.equal(BUGGY, lastMerge().getBackground(0).getRGB(), "background of the buggy node");
        Check.isTrue(lastMerge().getText().startsWith("BUG: "), "the buggy node says so: " + lastMerge().getText());
        Check.notNull(lastMerge().getImage(), "the buggy node has an icon");
        Check.equal(Answer.INVALID, ((TreeNode) lastMerge().getData()).answer(), "answer of the node shown");
        Check.isTrue(tree.getContentDescription().startsWith("Bug found in MergeSort.merge"),
                "the view says where the bug is: " + tree.getContentDescription());
        Check.isTrue(tree.verdictText().contains("lines 9, 10, 12") && tree.verdictText().contains("1 answers"),
                "the verdict line: " + tree.verdictText());
    }

    private void nodeAndEvents(Harness h) throws Exception {
        select(lastMerge());
        h.settle(500);
        Tree vars = nodeView.viewer().getTree();
        Check.isTrue(h.waitUntil(() -> vars.getItemCount() == 5, 5000), "variables of the last merge");
        Check.equal("la", vars.getItem(0).getText(0), "first variable");
        Check.equal(RED, vars.getItem(0).getForeground(2).getRGB(), "changed value in red");
        Check.isTrue(vars.getItem(0).getText(2).startsWith("\u25cf"), "changed value marked in text too");
        Check.isTrue(nodeView.getContentDescription().startsWith("MergeSort.merge at its exit"),
                "the header names the call: " + nodeView.getContentDescription());
        TreeItem c = vars.getItem(2);
        Check.equal("c", c.getText(0), "array variable");
        Check.isTrue(!c.getBackground(2).getRGB().equals(vars.getBackground().getRGB()), "contents changed: highlighted");
        Table ev = events.viewer().getTable();
        Check.isTrue(h.waitUntil(() -> ev.getItemCount() == 6, 5000), "events of the last merge: " + ev.getItemCount());
        nodeView.viewer().setExpandedState(c.getData(), true);
        h.settle(200);
        TreeItem c2 = c.getItem(2);
        Check.equal("[2]", c2.getText(0), "element c[2]");
        select(c2);
        Check.isTrue(h.waitUntil(() -> session.log.contains("events 14 c[2]"), 5000),
                "events asked for c[2]: " + session.log);
        List<String> red = new ArrayList<>();
        h.waitUntil(() -> {
            red.clear();
            for (TableItem i : ev.getItems()) {
                if (i.getForeground(1) != null && RED.equals(i.getForeground(1).getRGB())) {
                    red.add(i.getText(1));
                }
            }
            return red.size() == 2;
        }, 5000);
        Check.equal(List.of("\u25cf c[2] = 7", "\u25cf c[2] = 9"), red, "events marked as changing c[2]");
    }

    private VariableHistoryView historyView() {
        return (VariableHistoryView) Check.notNull(page().findView(VariableHistoryView.ID), "Variable History view");
    }

    private static List<String> column(Table t, int column) {
        List<String> values = new ArrayList<>();
        for (TableItem i : t.getItems()) {
            values.add(i.getText(column));
        }
        return values;
    }

    private void history(Harness h) throws Exception {
        page().activate(nodeView);
        h.settle(200);
        Commands.run(Commands.SHOW_IN_HISTORY);
        VariableHistoryView view = historyView();
        Table t = view.viewer().getTable();
        h.waitUntil(() -> t.getItemCount() == 4 && !t.getItem(3).getText(0).isEmpty(), 5000);
        Check.equal(List.of("1", "1", "7", "9"), column(t, 0), "history of c[2]");
        Check.equal("History of c[2]", view.getContentDescription(), "history title");
    }

    private void showIn(Harness h) throws Exception {
        var targets = Check.notNull(tree.getAdapter(org.eclipse.ui.part.IShowInTargetList.class), "Show In targets");
        Check.equal(List.of(NodeView.ID, EventListView.ID), List.of(targets.getShowInTargetIds()), "the targets");
        select(lastMerge());
        h.settle(300);
        var source = Check.notNull(tree.getAdapter(org.eclipse.ui.part.IShowInSource.class), "Show In source");
        session.log.clear();
        Check.isTrue(events.show(source.getShowInContext()), "the Event List shows the call");
        Check.isTrue(h.waitUntil(() -> session.log.contains("events 14 null"), 5000), "its events read: " + session.log);
    }

    private void historyNavigation(Harness h) throws Exception {
        VariableHistoryView view = historyView();
        Table t = view.viewer().getTable();
        // The write of 1 in the first merge (node 11, t=1101): the tree, the Event List (its event
        // c[0] = 1 selected) and the Node view (at that event) go there.
        view.viewer().setSelection(new StructuredSelection(t.getItem(0).getData()), true);
        Check.isTrue(h.waitUntil(() -> tree.viewer().getStructuredSelection().getFirstElement() instanceof TreeNode n
                && n.id() == 11, 5000), "the tree selects the call that wrote: "
                + tree.viewer().getStructuredSelection().getFirstElement());
        Check.isTrue(h.waitUntil(() -> session.log.contains("events 11 null"), 5000),
                "the Event List loads that call's events: " + session.log);
        Check.isTrue(h.waitUntil(() -> events.viewer().getStructuredSelection().getFirstElement()
                instanceof hindsight.eclipse.core.TraceEvent e && e.timestamp() == 1101, 5000),
                "the Event List selects the write: " + events.viewer().getStructuredSelection().getFirstElement());
        Check.isTrue(h.waitUntil(() -> nodeView.getContentDescription().contains("(t=1101)"), 5000),
                "the Node view moves to the moment of the change: " + nodeView.getContentDescription());
        h.screenshot("history row leads to the call, its events and its moment");
        // Show Origin from the Node view jumps to the write it found.
        Tree vars = nodeView.viewer().getTree();
        Check.isTrue(h.waitUntil(() -> vars.getItemCount() > 0, 5000), "the Node view shows the call's variables");
        nodeView.viewer().setSelection(new StructuredSelection(vars.getItem(0).getData()));
        page().activate(nodeView);
        Commands.run(Commands.SHOW_ORIGIN);
        Check.isTrue(h.waitUntil(() -> tree.viewer().getStructuredSelection().getFirstElement() instanceof TreeNode n
                && n.id() == MergeSortSession.LAST_MERGE, 5000), "Show Origin selects the writing call");
    }

    private void deepVariables(Harness h) throws Exception {
        select(lastMerge());
        Tree vars = nodeView.viewer().getTree();
        h.waitUntil(() -> nodeView.getContentDescription().contains("at its exit") && vars.getItemCount() == 5, 5000);
        TreeItem big = vars.getItem(4);
        Check.equal("big", big.getText(0), "the long list");
        session.log.removeIf(l -> l.startsWith("variableChildren"));
        nodeView.viewer().setExpandedState(big.getData(), true);
        h.settle(200);
        List<String> ranges = new ArrayList<>();
        for (TreeItem r : big.getItems()) {
            ranges.add(r.getText(0));
        }
        Check.equal(List.of("[0..99]", "[100..199]", "[200..249]"), ranges, "pages of big");
        Check.isTrue(session.log.stream().noneMatch(l -> l.startsWith("variableChildren")),
                "no element read before a page is opened: " + session.log);
        TreeItem last = big.getItem(2);
        nodeView.viewer().setExpandedState(last.getData(), true);
        h.settle(200);
        Check.equal(50, last.getItemCount(), "elements of the last page");
        Check.isTrue(session.log.contains("variableChildren big 200 50"), "one read of the page: " + session.log);
        TreeItem item = last.getItem(3);
        Check.equal("[203]", item.getText(0), "an element of the last page");
        // Down the linked list: every level is read when it is opened.
        for (int depth = 1; depth <= 4; depth++) {
            nodeView.viewer().setExpandedState(item.getData(), true);
            h.settle(150);
            Check.equal(1, item.getItemCount(), "one field at depth " + depth);
            item = item.getItem(0);
            Check.equal("next", item.getText(0), "field at depth " + depth);
            Check.equal("Node#" + depth, item.getText(2), "value at depth " + depth);
        }
        Check.isTrue(session.log.contains("variableChildren big[203].next.next.next 0 1"),
                "the fourth level read by its path: " + session.log);
        vars.showItem(item);
        h.settle(200);
    }

    private void undoAndDontKnow(Harness h) throws Exception {
        page().activate(tree);
        Commands.run(Commands.UNDO);
        Check.isTrue(h.waitUntil(() -> session.log.contains("undo"), 5000), "undo reached the session");
        Check.isTrue(h.waitUntil(() -> tree.getContentDescription().startsWith("Is this call right?"), 5000),
                "after undo the merge is asked again: " + tree.getContentDescription());
        Check.isTrue(h.waitUntil(() -> !lastMerge().getText().startsWith("BUG"), 5000), "no buggy node after undo");
        // The view reveals the question again by itself: answer it once it is selected.
        Check.isTrue(h.waitUntil(() -> tree.viewer().getStructuredSelection().getFirstElement() instanceof TreeNode n
                && n.id() == MergeSortSession.LAST_MERGE, 5000), "the merge is selected again: "
                + tree.viewer().getStructuredSelection().getFirstElement());
        h.settle(300);
        Commands.run(Commands.DONT_KNOW);
        Check.isTrue(h.waitUntil(() -> session.log.contains("answer 14 DONT_KNOW"), 5000),
                "don't know reached the session: " + session.log);
        h.waitUntil(() -> lastMerge().getImage() != null, 3000);
        Check.notNull(lastMerge().getImage(), "a don't-know node has its icon");
    }

    private void undecided(Harness h) throws Exception {
        session.ending = Question.Kind.UNDECIDED;
        page().activate(tree);
        Commands.run(Commands.UNDO);
        Check.isTrue(h.waitUntil(() -> tree.getContentDescription().startsWith("Undecided"), 5000),
                "the view says undecided: " + tree.getContentDescription());
        Table candidates = tree.candidates();
        Check.isTrue(candidates.isVisible() && candidates.getItemCount() == 2, "two candidates listed");
        Check.isTrue(tree.verdictText().contains("select a candidate"), "what to do next: " + tree.verdictText());
        h.settle(500);
        h.screenshot("undecided end with its candidates");
        select(candidates.getItem(0));
        Check.isTrue(h.waitUntil(() -> tree.viewer().getStructuredSelection().getFirstElement() instanceof TreeNode n
                && n.id() == 13, 3000), "selecting a candidate selects it in the tree");
    }

    private void noBug(Harness h) throws Exception {
        session.ending = Question.Kind.NO_BUG;
        Commands.run(Commands.UNDO);
        Check.isTrue(h.waitUntil(() -> "No bug found".equals(tree.getContentDescription()), 5000),
                "the view says no bug: " + tree.getContentDescription());
        Check.isTrue(!tree.candidates().isVisible(), "no candidates");
        Check.isTrue(tree.verdictText().startsWith("No bug found") && tree.verdictText().contains("Undo"),
                "what to do next: " + tree.verdictText());
        session.ending = null;
    }

    private void millionRows(Harness h) throws Exception {
        TreeItem wide = materialized(materialized(tree.viewer().getTree().getItem(0)).getItem(3));
        List<String> timings = new ArrayList<>();
        try (UiLatency latency = new UiLatency(h.display())) {
            select(wide);
            Table ev = events.viewer().getTable();
            int pageRows = 1000;
            Check.isTrue(h.waitUntil(() -> ev.getItemCount() == pageRows + 1 && "step(0)".equals(ev.getItem(0).getText(1)),
                    10_000), "the Event List shows its first page and a row announcing more: " + ev.getItemCount());
            h.settle(500);
            Check.equal(pageRows + 1, ev.getItemCount(), "rows without scrolling (no reading ahead)");
            timings.add("first page of a million events: longest UI task " + latency.maxMillis() + " ms");
            page().bringToTop(events);
            long t0 = System.nanoTime();
            for (int k = 1; k <= 3; k++) {
                int rows = k * pageRows + 1;
                // Scrolled to the row that announces more: showing it (SetData) reads the next page.
                int last = ev.getItemCount() - 1;
                ev.setTopIndex(last);
                ev.getItem(last).getText(1);
                Check.isTrue(h.waitUntil(() -> ev.getItemCount() == rows + pageRows
                        && ("step(" + (rows - 1) + ")").equals(ev.getItem(rows - 1).getText(1)), 10_000),
                        "scrolling to the end reads one page more: " + ev.getItemCount());
            }
            timings.add("scrolling to the end 3 times: " + (System.nanoTime() - t0) / 1_000_000 + " ms");
            h.screenshot("event list scrolled to its 3000th row");
            t0 = System.nanoTime();
            select(materialized(tree.viewer().getTree().getItem(0)));
            Check.isTrue(h.waitUntil(() -> ev.getItemCount() < pageRows, 5000),
                    "selecting another call empties the table: " + ev.getItemCount());
            timings.add("switching away from the million-event call: " + (System.nanoTime() - t0) / 1_000_000 + " ms");
            VariableHistoryView view = historyView();
            t0 = System.nanoTime();
            view.showHistory(MergeSortSession.MILLION);
            timings.add("showHistory: " + (System.nanoTime() - t0) / 1_000_000 + " ms");
            Table t = view.viewer().getTable();
            // The table grows in steps, one UI task each: on a loaded machine (load 15-20 on 2
            // cores) a million rows took more than 10 s; the wait is a bound, not a measure.
            Check.isTrue(h.waitUntil(() -> t.getItemCount() == MergeSortSession.MANY, 60_000),
                    "the history counts a million changes: " + t.getItemCount());
            timings.add("after the history's count: longest UI task " + latency.maxMillis() + " ms");
            t0 = System.nanoTime();
            t.setTopIndex(500_000);
            timings.add("scrolling the history to row 500000: " + (System.nanoTime() - t0) / 1_000_000 + " ms");
            Check.isTrue(h.waitUntil(() -> "500000".equals(t.getItem(500_000).getText(0)), 10_000),
                    "row 500000 of the history is shown");
            h.screenshot("variable history at row 500000 of a million");
            millionRowsLatency = latency.maxMillis();
            Check.isTrue(latency.probes() > 10, "the probe ran: " + latency.probes());
            System.out.println("UITEST longest UI-thread task while reading a million rows: " + millionRowsLatency
                    + " ms; " + timings + "; " + latency.context() + "; longest stall in:" + latency.stall());
        }
    }

    private void stop(Harness h) throws Exception {
        page().activate(tree);
        // Asking again (the end of the previous step undone), then stopped.
        Commands.run(Commands.UNDO);
        Check.isTrue(h.waitUntil(() -> tree.getContentDescription().startsWith("Is this call right?"), 5000),
                "asking again: " + tree.getContentDescription());
        Commands.run(Commands.STOP);
        Check.isTrue(h.waitUntil(() -> "Stopped: no verdict".equals(tree.getContentDescription()), 5000),
                "the view says stopped: " + tree.getContentDescription());
        Check.isTrue(tree.isStopped() && tree.verdictText().startsWith("Stopped after"),
                "what happened and what to do: " + tree.verdictText());
        h.screenshot("stopped session");
        int before = session.log.size();
        select(lastMerge());
        Commands.run(Commands.VALID);
        h.settle(500);
        Check.isTrue(session.log.stream().skip(before).noneMatch(l -> l.startsWith("answer")),
                "no answer reaches a stopped session: " + session.log.subList(before, session.log.size()));
    }

    private void close(Harness h) throws Exception {
        Sessions.open(null);
        h.settle(500);
        Check.isTrue(session.closed, "the previous session was closed");
        for (String id : WorkbenchTests.VIEWS) {
            SessionView v = (SessionView) Check.notNull(page().findView(id), id);
            Check.isTrue(h.waitUntil(v::isEmptyStateShowing, 10_000),
                    id + " shows '" + SessionView.EMPTY_TEXT + "' again");
        }
    }
}
