package hindsight.eclipse.tests;

import hindsight.eclipse.actions.OpenTraceHandler;
import hindsight.eclipse.core.TreeNode;
import hindsight.eclipse.core.NativeSession;
import hindsight.eclipse.core.Question;
import hindsight.eclipse.core.QueryTable;
import hindsight.eclipse.core.Sessions;
import hindsight.eclipse.core.TraceSession;
import hindsight.eclipse.launch.JavaApplicationShortcut;
import hindsight.eclipse.launch.LaunchAttributes;
import hindsight.eclipse.views.ComputationTreeView;
import hindsight.eclipse.views.NodeView;
import hindsight.eclipse.views.QueryView;
import hindsight.eclipse.views.VariableHistoryView;
import java.nio.file.Path;
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
import org.eclipse.swt.graphics.RGB;
import org.eclipse.swt.widgets.Event;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableItem;
import org.eclipse.swt.widgets.TreeItem;
import org.eclipse.ui.IEditorPart;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.commands.ICommandService;
import org.eclipse.ui.texteditor.ITextEditor;

/**
 * The jhyde paper's MergeSort session with the real core: the shortcut launches the program into
 * a live recording (JNI bridge, agent), the user answers through the Computation Tree's actions
 * until the bug is found in merge, then follows c[2] to its history and the line that wrote it.
 * The paper's dialogue is about calls: these steps set the preferences to the plain tree of
 * calls (no execution forest, no loop nodes), which also checks that the preferences reach the
 * core; {@link ForestTests} puts the defaults back.
 */
public class RealSessionTests {
    private ComputationTreeView tree;
    private NodeView nodeView;
    private TreeItem buggy;
    private final List<String> dialogue = new ArrayList<>();

    List<Harness.Step> steps() {
        return List.of(
                new Harness.Step("real: shortcut records MergeSort into a live session", this::launch),
                new Harness.Step("real: the strategy changes in the live session, answers kept", this::strategies),
                new Harness.Step("real: answers find the bug in merge, each question revealed", this::answers),
                new Harness.Step("real: c[2] of the buggy merge has four changes 1, 1, 7, 9", this::history),
                new Harness.Step("real: the last change shows c[lb++] = a[la++] in the editor", this::editor),
                new Harness.Step("real: open trace shows the hindsight CLI's MergeSort trace", this::openTrace),
                new Harness.Step("real: trusting distribute trusts and colours both its calls", this::trust),
                new Harness.Step("real: query calls MergeSort.merge, a row selects its call in the tree",
                        this::builtInQuery),
                new Harness.Step("real: SQL lists the merges, a row selects its call; writes are refused",
                        this::sqlQuery));
    }

    private static final RGB INVALID = new RGB(250, 200, 200);
    private static final RGB TRUSTED = new RGB(250, 240, 180);

    /** Chooses a strategy from the view's menu, as a click on its radio item does. */
    private void chooseStrategy(String name) {
        IAction chosen = null;
        for (IAction a : tree.actions()) {
            if (a.getId().startsWith(ComputationTreeView.STRATEGY_ACTION)) {
                boolean it = a.getId().equals(ComputationTreeView.STRATEGY_ACTION + name);
                a.setChecked(it);
                chosen = it ? a : chosen;
            }
        }
        Check.notNull(chosen, "strategy action " + name).run();
    }

    private IAction action(String id) {
        for (IAction a : tree.actions()) {
            if (id.equals(a.getId())) {
                return a;
            }
        }
        throw new Check.Failure("no action " + id + " in the Computation Tree");
    }

    /** The commands of the Computation Tree's toolbar, by their old action names. */
    private static String command(String actionId) {
        return switch (actionId) {
            case "hindsight.eclipse.answer.valid" -> Commands.VALID;
            case "hindsight.eclipse.answer.invalid" -> Commands.INVALID;
            case "hindsight.eclipse.answer.trusted" -> Commands.TRUSTED;
            default -> throw new Check.Failure("no command for " + actionId);
        };
    }

    /** The node selected in the Computation Tree, or -1. */
    private long selectedId() {
        return tree.viewer().getStructuredSelection().getFirstElement() instanceof TreeNode n ? n.id() : -1;
    }

    /** The session's question must be the node the view selected by itself (revealed however deep). */
    private Question askedAndSelected(Harness h, TraceSession s) throws Exception {
        Question q = s.nextQuestion();
        Check.notNull(q.node(), "a question or a verdict: " + q.kind());
        h.waitUntil(() -> selectedId() == q.node().id(), 10_000);
        Check.equal(q.node().id(), selectedId(), "the question " + q.node().label() + " is selected in the tree");
        return q;
    }

    private void strategies(Harness h) throws Exception {
        TraceSession s = Sessions.current();
        Check.isTrue(action(ComputationTreeView.STRATEGY_ACTION + "edge-coverage").isChecked(),
                "the live session started with the preferences' strategy, edge coverage");
        chooseStrategy("top-down");
        h.settle(300);
        Check.isTrue(!tree.getContentDescription().startsWith("choosing"), tree.getContentDescription());
        Question q = askedAndSelected(h, s);
        Check.equal("MergeSort.main", q.node().method(), "top-down asks main first");
        long main = q.node().id();
        run("hindsight.eclipse.answer.invalid");
        dialogue.add("MergeSort.main invalid");
        h.settle(300);
        chooseStrategy("heaviest-first");
        h.settle(300);
        Check.isTrue(tree.getContentDescription().startsWith("Is this call right?"),
                "heaviest first asks in the live session: " + tree.getContentDescription());
        Question heaviest = askedAndSelected(h, s);
        Check.isTrue(heaviest.node().id() != main, "main is answered: not asked again");
        TreeItem mainItem = Check.notNull(find(h, main), "main in the tree");
        Check.equal(INVALID, mainItem.getBackground(0).getRGB(), "main stays red after the switch");
        h.screenshot("real strategy heaviest-first keeps main invalid");
        chooseStrategy("top-down");
        h.settle(300);
        Question back = askedAndSelected(h, s);
        Check.equal("MergeSort.sort", back.node().method(), "top-down again goes on below main, whose answer was kept");
    }

    private static IWorkbenchPage page() {
        return PlatformUI.getWorkbench().getActiveWorkbenchWindow().getActivePage();
    }

    private void launch(Harness h) throws Exception {
        var store = hindsight.eclipse.preferences.PreferenceConstants.store();
        store.setValue(hindsight.eclipse.preferences.PreferenceConstants.BALANCE, false);
        store.setValue(hindsight.eclipse.preferences.PreferenceConstants.LOOPS, false);
        tree = (ComputationTreeView) page().showView(ComputationTreeView.ID);
        nodeView = (NodeView) page().showView(NodeView.ID);
        page().showView(ComputationTreeView.ID);
        IFile file = ResourcesPlugin.getWorkspace().getRoot().getProject("mergesort").getFile("src/MergeSort.java");
        Check.isTrue(file.exists(), "MergeSort.java of the earlier steps");
        var manager = DebugPlugin.getDefault().getLaunchManager();
        // Eclipse removes terminated launches when a new one starts: look for a new one by identity.
        var before = java.util.Set.of(manager.getLaunches());
        new JavaApplicationShortcut().launch(new StructuredSelection(JavaCore.createCompilationUnitFrom(file)),
                LaunchAttributes.MODE);
        Check.isTrue(h.waitUntil(() -> java.util.Arrays.stream(manager.getLaunches())
                .anyMatch(l -> !before.contains(l) && l.isTerminated()), 60_000),
                "the launch terminated within 60 s");
        Check.isTrue(Sessions.current() instanceof NativeSession, "the launch opened a live session: " + Sessions.current());
        Check.isTrue(h.waitUntil(() -> tree.getContentDescription().startsWith("Is this call right?"), 20_000),
                "the tree asks a question once the recording ended: " + tree.getContentDescription());
    }

    /** The answers a person gives about the paper's run: main, sort and the last merge are wrong. */
    private String oracle(TreeNode n, int mergesSeen) {
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
            // After each answer the view selects the next question itself: answer what it selected.
            Question q = askedAndSelected(h, s);
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

    private void run(String actionId) throws Exception {
        page().activate(tree);
        Commands.run(command(actionId));
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
        // A row shows once its page arrived from the core.
        h.waitUntil(() -> {
            item.getText();
            return item.getData() instanceof TreeNode;
        }, 5000);
        if (!(item.getData() instanceof TreeNode)) {
            return null;
        }
        TreeNode n = (TreeNode) item.getData();
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
        page().activate(nodeView);
        Commands.run(Commands.SHOW_IN_HISTORY);
        VariableHistoryView view = (VariableHistoryView) Check.notNull(page().findView(VariableHistoryView.ID),
                "Variable History view");
        List<String> values = new ArrayList<>();
        Table table = view.viewer().getTable();
        h.waitUntil(() -> table.getItemCount() == 4 && !table.getItem(3).getText(0).isEmpty(), 10_000);
        for (TableItem i : table.getItems()) {
            values.add(i.getText(0));
        }
        Check.equal(List.of("1", "1", "7", "9"), values, "history of c[2]");
    }

    private void openTrace(Harness h) throws Exception {
        String trace = Check.notNull(System.getProperty("hindsight.uitest.trace"),
                "-Dhindsight.uitest.trace (recorded by cargo xtask eclipse-test with hindsight record)");
        ICommandService commands = PlatformUI.getWorkbench().getService(ICommandService.class);
        Check.isTrue(commands.getCommand(OpenTraceHandler.COMMAND_ID).isDefined(), "the Open Trace command");
        page().showView(ComputationTreeView.ID);
        TraceSession live = Sessions.current();
        // What the command does once its file dialog returns the path: a Job, then the views.
        OpenTraceHandler.open(page().getWorkbenchWindow().getShell(), Path.of(trace));
        Check.isTrue(h.waitUntil(() -> Sessions.current() != live, 30_000), "Open Trace opened " + trace);
        TraceSession s = Sessions.current();
        Check.isTrue(s instanceof NativeSession && s != live, "a new native session: " + s);
        Check.equal("mergesort.htrace", s.name(), "the session's name");
        Check.isTrue(h.waitUntil(() -> tree.getContentDescription().startsWith("Is this call right?"), 10_000),
                "the trace's first question: " + tree.getContentDescription());
        // The tree: run -> thread -> main -> sort among its calls.
        TreeItem run = tree.viewer().getTree().getItem(0);
        run.getText();
        Check.equal("run", run.getText(), "the root");
        List<String> calls = new ArrayList<>();
        for (TreeNode n : s.children(s.children(s.children(0, 0, 10).nodes().get(0).id(), 0, 10).nodes().get(0).id(),
                0, 10).nodes()) {
            calls.add(n.method());
        }
        Check.isTrue(calls.contains("MergeSort.sort"), "main's calls: " + calls);
        // The first question (edge coverage, the preferences' default) is deep: revealed anyway.
        Question q = askedAndSelected(h, s);
        Check.isTrue(s.pathTo(q.node().id()).size() >= 4, "the question is below run, thread and main");
    }

    private void trust(Harness h) throws Exception {
        TraceSession s = Sessions.current();
        chooseStrategy("top-down");
        h.settle(300);
        Check.equal("MergeSort.main", askedAndSelected(h, s).node().method(), "top-down asks main");
        run("hindsight.eclipse.answer.invalid");
        h.settle(300);
        Question sort = askedAndSelected(h, s);
        Check.equal("MergeSort.sort", sort.node().method(), "then sort");
        run("hindsight.eclipse.answer.invalid");
        h.settle(300);
        Question distribute = askedAndSelected(h, s);
        Check.equal("MergeSort.distribute", distribute.node().method(), "then the first distribute");
        run("hindsight.eclipse.answer.trusted");
        h.settle(500);
        TreeItem sortItem = Check.notNull(find(h, sort.node().id()), "sort in the tree");
        List<String> colours = new ArrayList<>();
        h.waitUntil(() -> {
            colours.clear();
            for (TreeItem c : sortItem.getItems()) {
                c.getText();
                if (c.getData() instanceof TreeNode n) {
                    RGB bg = c.getBackground(0).getRGB();
                    colours.add(n.method() + (TRUSTED.equals(bg) ? " trusted" : ""));
                }
            }
            return colours.stream().filter(x -> x.endsWith(" trusted")).count() >= 2;
        }, 5000);
        Check.equal(List.of("MergeSort.distribute trusted", "MergeSort.merge", "MergeSort.merge",
                "MergeSort.distribute trusted", "MergeSort.merge"), colours, "the calls of sort, trusted in yellow");
        Question next = askedAndSelected(h, s);
        Check.equal("MergeSort.merge", next.node().method(), "distribute is not asked any more");
        h.screenshot("real trusted distribute");
    }

    /** Runs a query in the Queries view and waits for its answer (or its error). */
    private QueryView runQuery(Harness h, String name, String args) throws Exception {
        QueryView view = (QueryView) page().showView(QueryView.ID);
        Check.isTrue(h.waitUntil(() -> view.queryNames().contains("calls"), 10_000),
                "the built-in queries in the combo: " + view.queryNames());
        view.run(name, args);
        Check.isTrue(h.waitUntil(() -> !view.isRunning(), 30_000), name + " " + args + " answered");
        h.settle(200);
        return view;
    }

    /** Selects row {@code index} as a click does; checks the tree then selects the row's call. */
    private QueryTable.Row selectRow(Harness h, QueryView view, int index) {
        QueryTable.Row row = view.result().rows().get(index);
        Check.isTrue(row.node() >= 0, "the row names a call: " + row);
        // Nothing selected first, so that the check below sees the row's doing.
        tree.viewer().setSelection(StructuredSelection.EMPTY);
        h.settle(100);
        view.viewer().getTable().setFocus();
        view.viewer().setSelection(new StructuredSelection(row), true);
        boolean selected = h.waitUntil(() -> tree.viewer().getStructuredSelection().getFirstElement() instanceof TreeNode n
                && n.id() == row.node(), 10_000);
        Object got = tree.viewer().getStructuredSelection().getFirstElement();
        Check.isTrue(selected, "node " + row.node() + " selected in the Computation Tree, not " + got);
        return row;
    }

    private void builtInQuery(Harness h) throws Exception {
        QueryView view = runQuery(h, "calls", "MergeSort.merge");
        QueryTable t = Check.notNull(view.result(), "an answer: " + view.statusText());
        Check.equal(3, t.rows().size(), "calls of merge (" + view.statusText() + ")");
        Check.isTrue(t.columns().contains("args") && t.columns().contains("method"), "columns " + t.columns());
        Check.equal(3, view.viewer().getTable().getItemCount(), "rows in the table");
        Check.isTrue(view.statusText().contains("total: 3"), "the status line: " + view.statusText());
        QueryTable.Row last = selectRow(h, view, 2);
        Check.equal("MergeSort.merge", last.method(), "the row's method");
        // The Node view moved to the row's call.
        h.waitUntil(() -> nodeView.getContentDescription().contains("merge"), 5000);
        Check.isTrue(nodeView.getContentDescription().contains("merge"), "the Node view: "
                + nodeView.getContentDescription());
        // A query the catalogue cannot run is shown in the view.
        runQuery(h, "calls", "");
        Check.isTrue(view.statusText().contains("missing argument"), "the usage error: " + view.statusText());
        runQuery(h, "calls", "MergeSort.merge");
        QueryTable.Row row = selectRow(h, view, 2);
        h.settle(300); // painted, so that the screenshot shows the selections
        h.screenshot("queries calls of merge");
        // Double-click opens the row's line.
        Check.isTrue(row.line() > 0, "the row has a line: " + row);
        view.viewer().getTable().notifyListeners(SWT.DefaultSelection, new Event());
        h.settle(800);
        IEditorPart part = Check.notNull(page().getActiveEditor(), "an editor");
        ITextEditor editor = Check.notNull(part instanceof ITextEditor te ? te : null, "a text editor");
        Check.equal("MergeSort.java", editor.getEditorInput().getName(), "the editor's file");
        int selectedLine = editor.getSelectionProvider().getSelection() instanceof ITextSelection ts
                ? ts.getStartLine() + 1 : -1;
        Check.equal(row.line(), selectedLine, "the line selected in the editor (" + view.statusText() + ")");
    }

    private void sqlQuery(Harness h) throws Exception {
        QueryView view = runQuery(h, QueryView.SQL,
                "SELECT node, method, call_ts, args FROM calls WHERE name = 'merge' ORDER BY call_ts");
        QueryTable t = Check.notNull(view.result(), "an answer: " + view.statusText());
        Check.equal(List.of("node", "method", "call_ts", "args"), t.columns(), "the statement's columns");
        Check.equal(3, t.rows().size(), "merges (" + view.statusText() + ")");
        selectRow(h, view, 0);
        h.settle(300); // painted, so that the screenshot shows the selections
        h.screenshot("queries sql merges");
        runQuery(h, QueryView.SQL, "DELETE FROM meta");
        Check.isTrue(view.statusText().contains("read only"), "SQL that writes is refused: " + view.statusText());
        Check.isTrue(view.result() == null && view.viewer().getTable().getItemCount() == 0, "no rows after the refusal");
    }

    private void editor(Harness h) throws Exception {
        VariableHistoryView view = (VariableHistoryView) Check.notNull(page().findView(VariableHistoryView.ID),
                "Variable History view");
        Table t = view.viewer().getTable();
        Check.isTrue(t.getItemCount() > 0, "history entries");
        TableItem lastChange = t.getItem(t.getItemCount() - 1);
        lastChange.getText();
        // Double-click (not a single click) opens the line.
        view.viewer().setSelection(new StructuredSelection(lastChange.getData()), true);
        t.notifyListeners(SWT.DefaultSelection, new Event());
        h.settle(800);
        IEditorPart part = Check.notNull(page().getActiveEditor(), "an editor");
        ITextEditor editor = Check.notNull(part instanceof ITextEditor te ? te : null, "a text editor");
        String text = editor.getSelectionProvider().getSelection() instanceof ITextSelection ts ? ts.getText() : null;
        Check.isTrue(text != null && text.contains("c[lb++] = a[la++]"), "the selected line: " + text);
    }
}
