package hindsight.eclipse.tests;

import hindsight.eclipse.core.Answer;
import hindsight.eclipse.core.TreeNode;
import hindsight.eclipse.core.Sessions;
import hindsight.eclipse.views.CallTreeContentProvider;
import hindsight.eclipse.views.ComputationTreeView;
import hindsight.eclipse.views.EventListView;
import hindsight.eclipse.views.NodeView;
import hindsight.eclipse.views.SessionView;
import hindsight.eclipse.views.VariableHistoryView;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jface.action.IAction;
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
 * tree, answers and colours, node state, events, variable history, and back to the empty state.
 */
public class SessionViewTests {
    private static final RGB RED = new RGB(200, 0, 0);
    private static final RGB INVALID = new RGB(250, 200, 200);

    private final MergeSortSession session = new MergeSortSession();
    private ComputationTreeView tree;
    private NodeView nodeView;
    private EventListView events;

    List<Harness.Step> steps() {
        return List.of(
                new Harness.Step("computation tree reads the session lazily", this::lazyTree),
                new Harness.Step("answer invalid colours the node and finds the bug", this::answer),
                new Harness.Step("node view and event list follow the selection", this::nodeAndEvents),
                new Harness.Step("show in history lists the four changes of c[2]", this::history),
                new Harness.Step("node view pages a long list and expands it to any depth", this::deepVariables),
                new Harness.Step("closing the session empties the views", this::close));
    }

    private static IWorkbenchPage page() {
        return PlatformUI.getWorkbench().getActiveWorkbenchWindow().getActivePage();
    }

    private void lazyTree(Harness h) throws Exception {
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
        TreeItem root = t.getItem(0);
        h.settle(200);
        Check.equal("main([])", root.getText(), "root label");
        root.setExpanded(true);
        tree.viewer().setExpandedState(root.getData(), true);
        h.settle(300);
        Check.equal(4, root.getItemCount(), "children of main");
        TreeItem wide = root.getItem(3);
        h.settle(100);
        Check.equal("repeat(5000)", wide.getText(), "the wide node");
        tree.viewer().setExpandedState(wide.getData(), true);
        h.settle(500);
        Check.equal(MergeSortSession.WIDE_CHILDREN, wide.getItemCount(), "children of the wide node");
        Check.equal("step(0)", wide.getItem(0).getText(), "first child of the wide node");
        Check.equal("step(4321)", wide.getItem(4321).getText(), "a child deep in the wide node");
        // SWT asks row by row; the provider must turn that into one request per page, each once.
        List<String> requests = session.log.stream().filter(l -> l.startsWith("children 4 ")).toList();
        Check.isTrue(!requests.isEmpty() && requests.size() <= MergeSortSession.WIDE_CHILDREN / CallTreeContentProvider.PAGE,
                "children of the wide node read in pages of " + CallTreeContentProvider.PAGE + ": " + requests);
        Check.equal((long) requests.size(), requests.stream().distinct().count(), "no page read twice: " + requests);
        tree.viewer().setExpandedState(wide.getData(), false);
        TreeItem sort = root.getItem(0);
        tree.viewer().setExpandedState(sort.getData(), true);
        h.settle(300);
        Check.equal(5, sort.getItemCount(), "children of sort");
    }

    private TreeItem lastMerge() {
        return materialized(materialized(materialized(tree.viewer().getTree().getItem(0)).getItem(0)).getItem(4));
    }

    /** A virtual tree item gets its data when SWT asks for it, e.g. for its text. */
    private static TreeItem materialized(TreeItem item) {
        item.getText();
        return item;
    }

    private static void select(Item item) {
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
        IAction invalid = null;
        for (IAction a : tree.actions()) {
            if ("hindsight.eclipse.answer.invalid".equals(a.getId())) {
                invalid = a;
            }
        }
        Check.notNull(invalid, "the Invalid action").run();
        h.settle(500);
        Check.isTrue(session.log.contains("answer 14 INVALID"), "the session got the answer: " + session.log);
        // The cleared items are filled again as SWT repaints them.
        h.waitUntil(() -> INVALID.equals(lastMerge().getBackground(0).getRGB()), 5000);
        Check.equal(INVALID, lastMerge().getBackground(0).getRGB(), "background of the invalid node");
        Check.equal(Answer.INVALID, ((TreeNode) lastMerge().getData()).answer(), "answer of the node shown");
        Check.isTrue(tree.getContentDescription().startsWith("Bug found in MergeSort.merge"),
                "the view says where the bug is: " + tree.getContentDescription());
    }

    private void nodeAndEvents(Harness h) throws Exception {
        select(lastMerge());
        h.settle(500);
        Tree vars = nodeView.viewer().getTree();
        Check.equal(5, vars.getItemCount(), "variables of the last merge");
        Check.equal("la", vars.getItem(0).getText(0), "first variable");
        Check.equal(RED, vars.getItem(0).getForeground(2).getRGB(), "changed value in red");
        TreeItem c = vars.getItem(2);
        Check.equal("c", c.getText(0), "array variable");
        Check.isTrue(!c.getBackground(2).getRGB().equals(vars.getBackground().getRGB()), "contents changed: highlighted");
        Table ev = events.viewer().getTable();
        Check.equal(6, ev.getItemCount(), "events of the last merge");
        nodeView.viewer().setExpandedState(c.getData(), true);
        h.settle(200);
        TreeItem c2 = c.getItem(2);
        Check.equal("[2]", c2.getText(0), "element c[2]");
        select(c2);
        h.settle(500);
        Check.isTrue(session.log.contains("events 14 c[2]"), "events asked for c[2]: " + session.log);
        List<String> red = new ArrayList<>();
        for (TableItem i : ev.getItems()) {
            if (RED.equals(i.getForeground(1).getRGB())) {
                red.add(i.getText(1));
            }
        }
        Check.equal(List.of("c[2] = 7", "c[2] = 9"), red, "events marked as changing c[2]");
    }

    private void history(Harness h) throws Exception {
        IAction show = Check.notNull(nodeView.action(NodeView.SHOW_IN_HISTORY), "Show in History View action");
        show.run();
        h.settle(500);
        VariableHistoryView view = (VariableHistoryView) Check.notNull(page().findView(VariableHistoryView.ID),
                "Variable History view");
        List<String> values = new ArrayList<>();
        for (TableItem i : view.viewer().getTable().getItems()) {
            values.add(i.getText(0));
        }
        Check.equal(List.of("1", "1", "7", "9"), values, "history of c[2]");
        Check.equal("History of c[2]", view.getContentDescription(), "history title");
    }

    private void deepVariables(Harness h) throws Exception {
        Tree vars = nodeView.viewer().getTree();
        TreeItem big = vars.getItem(4);
        Check.equal("big", big.getText(0), "the long list");
        Check.isTrue(session.log.stream().noneMatch(l -> l.startsWith("variableChildren")),
                "nothing read before expanding: " + session.log);
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

    private void close(Harness h) throws Exception {
        Sessions.open(null);
        h.settle(500);
        Check.isTrue(session.closed, "the previous session was closed");
        for (String id : WorkbenchTests.VIEWS) {
            SessionView v = (SessionView) Check.notNull(page().findView(id), id);
            Check.isTrue(v.isEmptyStateShowing(), id + " shows '" + SessionView.EMPTY_TEXT + "' again");
        }
    }
}
