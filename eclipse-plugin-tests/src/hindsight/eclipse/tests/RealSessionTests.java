package hindsight.eclipse.tests;

import hindsight.eclipse.core.CallNode;
import hindsight.eclipse.core.NativeSession;
import hindsight.eclipse.core.Question;
import hindsight.eclipse.core.Sessions;
import hindsight.eclipse.core.TraceSession;
import hindsight.eclipse.launch.HindsightLaunchShortcut;
import hindsight.eclipse.views.ComputationTreeView;
import hindsight.eclipse.views.NodeView;
import hindsight.eclipse.views.VariableHistoryView;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.ResourcesPlugin;
import org.eclipse.debug.core.DebugPlugin;
import org.eclipse.jdt.core.JavaCore;
import org.eclipse.jface.action.IAction;
import org.eclipse.jface.text.ITextSelection;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Event;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableItem;
import org.eclipse.swt.widgets.TreeItem;
import org.eclipse.ui.IEditorPart;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.texteditor.ITextEditor;

/**
 * The jhyde paper's MergeSort session with the real core: the shortcut launches the program into
 * a live recording (JNI bridge, agent), the user answers through the Computation Tree's actions
 * until the bug is found in merge, then follows c[2] to its history and the line that wrote it.
 */
public class RealSessionTests {
    private ComputationTreeView tree;
    private NodeView nodeView;
    private TreeItem buggy;
    private final List<String> dialogue = new ArrayList<>();

    List<Harness.Step> steps() {
        return List.of(
                new Harness.Step("real: shortcut records MergeSort into a live session", this::launch),
                new Harness.Step("real: answers find the bug in merge", this::answers),
                new Harness.Step("real: c[2] of the buggy merge has four changes 1, 1, 7, 9", this::history),
                new Harness.Step("real: the last change shows c[lb++] = a[la++] in the editor", this::editor));
    }

    private static IWorkbenchPage page() {
        return PlatformUI.getWorkbench().getActiveWorkbenchWindow().getActivePage();
    }

    private void launch(Harness h) throws Exception {
        tree = (ComputationTreeView) page().showView(ComputationTreeView.ID);
        nodeView = (NodeView) page().showView(NodeView.ID);
        page().showView(ComputationTreeView.ID);
        IFile file = ResourcesPlugin.getWorkspace().getRoot().getProject("mergesort").getFile("src/MergeSort.java");
        Check.isTrue(file.exists(), "MergeSort.java of the earlier steps");
        var manager = DebugPlugin.getDefault().getLaunchManager();
        // Eclipse removes terminated launches when a new one starts: look for a new one by identity.
        var before = java.util.Set.of(manager.getLaunches());
        new HindsightLaunchShortcut().launch(new StructuredSelection(JavaCore.createCompilationUnitFrom(file)), "run");
        Check.isTrue(h.waitUntil(() -> java.util.Arrays.stream(manager.getLaunches())
                .anyMatch(l -> !before.contains(l) && l.isTerminated()), 60_000),
                "the launch terminated within 60 s");
        Check.isTrue(Sessions.current() instanceof NativeSession, "the launch opened a live session: " + Sessions.current());
        Check.isTrue(h.waitUntil(() -> tree.getContentDescription().startsWith("Is this call right?"), 20_000),
                "the tree asks a question once the recording ended: " + tree.getContentDescription());
    }

    /** The answers a person gives about the paper's run: main, sort and the last merge are wrong. */
    private String oracle(CallNode n, int mergesSeen) {
        return switch (String.valueOf(n.method())) {
            case "MergeSort.main", "MergeSort.sort" -> "invalid";
            case "MergeSort.merge" -> mergesSeen == 3 ? "invalid" : "valid";
            default -> "valid";
        };
    }

    private void answers(Harness h) throws Exception {
        TraceSession s = Sessions.current();
        int merges = 0;
        for (int i = 0; i < 20; i++) {
            Question q = s.nextQuestion();
            if (q.kind() == Question.Kind.BUGGY) {
                buggy = find(h, q.node().id());
                break;
            }
            Check.equal(Question.Kind.ASK, q.kind(), "the session asks: " + dialogue);
            if ("MergeSort.merge".equals(q.node().method())) {
                merges++;
            }
            String answer = oracle(q.node(), merges);
            dialogue.add(q.node().method() + " " + answer);
            TreeItem item = Check.notNull(find(h, q.node().id()), "the asked node " + q.node().id() + " in the tree");
            select(item);
            h.settle(200);
            run(answer.equals("valid") ? "hindsight.eclipse.answer.valid" : "hindsight.eclipse.answer.invalid");
            h.settle(300);
            h.screenshot("real answer " + dialogue.size() + " " + answer);
        }
        Check.notNull(buggy, "a buggy node after " + dialogue);
        Check.equal(List.of("MergeSort.main invalid", "MergeSort.sort invalid", "MergeSort.distribute valid",
                "MergeSort.merge valid", "MergeSort.merge valid", "MergeSort.distribute valid",
                "MergeSort.merge invalid"), dialogue, "the dialogue");
        Check.isTrue(tree.getContentDescription().startsWith("Bug found in MergeSort.merge"),
                "the view says where the bug is: " + tree.getContentDescription());
    }

    private void run(String actionId) {
        for (IAction a : tree.actions()) {
            if (actionId.equals(a.getId())) {
                a.run();
                return;
            }
        }
        throw new Check.Failure("no action " + actionId + " in the Computation Tree");
    }

    /** The tree item of node {@code id}, expanding the branches on the way as a user would. */
    private TreeItem find(Harness h, long id) {
        for (TreeItem item : tree.viewer().getTree().getItems()) {
            TreeItem found = find(h, item, id);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    private TreeItem find(Harness h, TreeItem item, long id) {
        item.getText();
        if (!(item.getData() instanceof CallNode n)) {
            h.settle(100);
            item.getText();
            if (!(item.getData() instanceof CallNode)) {
                return null;
            }
        }
        CallNode n = (CallNode) item.getData();
        if (n.id() == id) {
            return item;
        }
        if (n.childCount() == 0) {
            return null;
        }
        tree.viewer().setExpandedState(n, true);
        h.settle(100);
        for (TreeItem c : item.getItems()) {
            TreeItem found = find(h, c, id);
            if (found != null) {
                return found;
            }
        }
        return null;
    }

    private static void select(TreeItem item) {
        Event e = new Event();
        e.item = item;
        item.getParent().setSelection(item);
        item.getParent().notifyListeners(SWT.Selection, e);
    }

    private void history(Harness h) throws Exception {
        Check.notNull(buggy, "the buggy merge from the previous step");
        select(buggy);
        h.settle(500);
        TreeItem c = null;
        for (TreeItem v : nodeView.viewer().getTree().getItems()) {
            if ("c".equals(v.getText(0))) {
                c = v;
            }
        }
        Check.notNull(c, "variable c in the Node view");
        nodeView.viewer().setExpandedState(c.getData(), true);
        h.settle(300);
        TreeItem c2 = null;
        for (TreeItem v : c.getItems()) {
            if ("[2]".equals(v.getText(0))) {
                c2 = v;
            }
        }
        Check.notNull(c2, "element [2] of c");
        Event e = new Event();
        e.item = c2;
        c2.getParent().setSelection(c2);
        c2.getParent().notifyListeners(SWT.Selection, e);
        h.settle(300);
        Check.notNull(nodeView.action(NodeView.SHOW_IN_HISTORY), "Show in History View action").run();
        h.settle(500);
        VariableHistoryView view = (VariableHistoryView) Check.notNull(page().findView(VariableHistoryView.ID),
                "Variable History view");
        List<String> values = new ArrayList<>();
        for (TableItem i : view.viewer().getTable().getItems()) {
            values.add(i.getText(0));
        }
        Check.equal(List.of("1", "1", "7", "9"), values, "history of c[2]");
    }

    private void editor(Harness h) throws Exception {
        VariableHistoryView view = (VariableHistoryView) Check.notNull(page().findView(VariableHistoryView.ID),
                "Variable History view");
        Table t = view.viewer().getTable();
        Check.isTrue(t.getItemCount() > 0, "history entries");
        view.viewer().setSelection(new StructuredSelection(t.getItem(t.getItemCount() - 1).getData()), true);
        h.settle(800);
        IEditorPart part = Check.notNull(page().getActiveEditor(), "an editor");
        ITextEditor editor = Check.notNull(part instanceof ITextEditor te ? te : null, "a text editor");
        String text = editor.getSelectionProvider().getSelection() instanceof ITextSelection ts ? ts.getText() : null;
        Check.isTrue(text != null && text.contains("c[lb++] = a[la++]"), "the selected line: " + text);
    }
}
