package hindsight.eclipse.tests;

import hindsight.eclipse.actions.OpenTraceHandler;
import hindsight.eclipse.core.Answer;
import hindsight.eclipse.core.NativeSession;
import hindsight.eclipse.core.Question;
import hindsight.eclipse.core.Sessions;
import hindsight.eclipse.core.TraceSession;
import hindsight.eclipse.core.TreeNode;
import hindsight.eclipse.launch.JavaApplicationShortcut;
import hindsight.eclipse.launch.LaunchAttributes;
import hindsight.eclipse.preferences.HindsightPreferencePage;
import hindsight.eclipse.preferences.PreferenceConstants;
import hindsight.eclipse.views.BugMarkers;
import hindsight.eclipse.views.ComputationTreeView;
import hindsight.eclipse.views.EventListView;
import hindsight.eclipse.views.HindsightPerspective;
import hindsight.eclipse.views.NodeView;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IFolder;
import org.eclipse.core.resources.IMarker;
import org.eclipse.core.resources.IResource;
import org.eclipse.debug.core.DebugPlugin;
import org.eclipse.debug.core.ILaunch;
import org.eclipse.jdt.core.IClasspathEntry;
import org.eclipse.jdt.core.IJavaProject;
import org.eclipse.jdt.core.JavaCore;
import org.eclipse.jface.preference.PreferenceDialog;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.Text;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.swt.widgets.TreeItem;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.dialogs.PreferencesUtil;

/**
 * The execution forest and loop nodes in the Computation Tree (issue 13) with the real core and
 * the preferences' defaults, on the papers' own examples (tests/programs): the generalized-AD
 * paper's sumNumbers, recorded live, asks about its loop and iterations and finds the bug in
 * sumNumbers' code before the loop; the balanced-ET paper's castling projects runs of iterations
 * (a projected node answered from the tree) and, with loops switched off in the preferences and
 * its trace opened again, collapses the chains of moves. Each kind shows its own question and
 * icon, the Node view and the Event List show its state and events.
 */
public class ForestTests {
    private ComputationTreeView tree;
    private NodeView nodeView;
    private EventListView events;
    private TraceSession sumNumbers;
    private Path castlingTrace;

    List<Harness.Step> steps() {
        return List.of(
                new Harness.Step("forest: preferences shape the next session's tree, the cli's defaults",
                        this::preferences),
                new Harness.Step("forest: sumnumbers live with the defaults shows its loop and iterations",
                        this::sumNumbersTree),
                new Harness.Step("forest: node view and event list of an iteration and of a projected chain",
                        this::sumNumbersViews),
                new Harness.Step("forest: answers on loop nodes find the bug before the loop, in the editor",
                        this::sumNumbersVerdict),
                new Harness.Step("forest: mergesort's bug found in a loop iteration, its lines in the editor",
                        this::mergeSortIteration),
                new Harness.Step("forest: castling's iterations projected, a projected node answered, the bug",
                        this::castling),
                new Harness.Step("forest: loops off, open trace collapses castling's moves, answered and trusted",
                        this::castlingCollapsed));
    }

    private static IWorkbenchPage page() {
        return PlatformUI.getWorkbench().getActiveWorkbenchWindow().getActivePage();
    }

    private static org.eclipse.jface.preference.IPreferenceStore store() {
        return PreferenceConstants.store();
    }

    /** Every text of a control's labels, and the controls, in order. */
    private static void controls(Control c, List<Control> out) {
        out.add(c);
        if (c instanceof Composite comp) {
            for (Control child : comp.getChildren()) {
                controls(child, out);
            }
        }
    }

    private void preferences(Harness h) throws Exception {
        // The MergeSort steps asked about the plain tree: back to the defaults.
        for (String key : new String[] {PreferenceConstants.BALANCE, PreferenceConstants.LOOPS,
                PreferenceConstants.MAX_CHAIN}) {
            store().setToDefault(key);
        }
        Check.isTrue(store().getDefaultBoolean(PreferenceConstants.BALANCE), "balanced by default, as the CLI");
        Check.isTrue(store().getDefaultBoolean(PreferenceConstants.LOOPS), "loops asked about by default");
        Check.equal(0, store().getDefaultInt(PreferenceConstants.MAX_CHAIN), "chains of any length by default");
        var shell = page().getWorkbenchWindow().getShell();
        PreferenceDialog d = PreferencesUtil.createPreferenceDialogOn(shell, HindsightPreferencePage.ID, null, null);
        d.setBlockOnOpen(false);
        d.open();
        try {
            h.settle(500);
            HindsightPreferencePage p = (HindsightPreferencePage) d.getSelectedPage();
            List<Control> all = new ArrayList<>();
            controls(p.getControl(), all);
            List<String> labels = new ArrayList<>();
            Text maxChain = null;
            for (int i = 0; i < all.size(); i++) {
                if (all.get(i) instanceof Label l) {
                    labels.add(l.getText());
                    if (l.getText().contains("Maximum chain length") && all.get(i + 1) instanceof Text t) {
                        maxChain = t;
                    }
                }
            }
            String text = String.join("\n", labels);
            Check.isTrue(text.contains("applies to the next session"), "the page says when the shape applies: " + text);
            Check.notNull(maxChain, "the maximum chain length field: " + text);
            Check.equal("0", maxChain.getText(), "no limit by default");
            type(maxChain, "1");
            h.settle(200);
            Check.isTrue(!p.isValid(), "a chain of one call is refused");
            h.screenshot("forest preferences refuse a chain of 1");
            type(maxChain, "2");
            h.settle(200);
            Check.isTrue(p.isValid(), "a chain of two is accepted");
            type(maxChain, "0");
            h.settle(200);
        } finally {
            d.close();
        }
        Check.equal(0, store().getInt(PreferenceConstants.MAX_CHAIN), "cancelled: nothing stored");
    }

    /** Types {@code text} into a field: its text, then the key's release, which field editors validate on. */
    private static void type(Text field, String text) {
        field.setText(text);
        field.notifyListeners(org.eclipse.swt.SWT.KeyUp, new org.eclipse.swt.widgets.Event());
    }

    /** A Java project whose source folder is the program's {@code buggy} folder of tests/programs. */
    private static IJavaProject program(Harness h, String name) throws Exception {
        String repo = Check.notNull(System.getProperty("hindsight.uitest.repo"), "-Dhindsight.uitest.repo");
        IJavaProject project = WorkflowTests.javaProject(name, List.of());
        List<IClasspathEntry> cp = new ArrayList<>(List.of(project.getRawClasspath()));
        cp.removeIf(e -> e.getEntryKind() == IClasspathEntry.CPE_SOURCE);
        IFolder linked = project.getProject().getFolder("buggy");
        if (!linked.exists()) {
            linked.createLink(new org.eclipse.core.runtime.Path(repo + "/tests/programs/" + name + "/buggy"), 0, null);
        }
        cp.add(0, JavaCore.newSourceEntry(linked.getFullPath()));
        project.setRawClasspath(cp.toArray(new IClasspathEntry[0]), project.getProject().getFolder("bin").getFullPath(),
                null);
        return project;
    }

    /** Records {@code main} of {@code project} with Hindsight As, as a user does; its live session. */
    private TraceSession launch(Harness h, IJavaProject project, String main) throws Exception {
        IFile classFile = project.getProject().getFile("bin/" + main.replace('.', '/') + ".class");
        Check.isTrue(h.waitUntil(classFile::exists, 60_000), "JDT built " + classFile);
        tree = (ComputationTreeView) page().showView(ComputationTreeView.ID);
        nodeView = (NodeView) page().showView(NodeView.ID);
        events = (EventListView) page().showView(EventListView.ID);
        page().showView(ComputationTreeView.ID);
        Check.isTrue(indexed(h, project), "JDT indexed " + project.getElementName() + " and its JDK");
        var manager = DebugPlugin.getDefault().getLaunchManager();
        Set<ILaunch> before = Set.of(manager.getLaunches());
        new JavaApplicationShortcut().launch(new StructuredSelection(project.findType(main).getCompilationUnit()),
                LaunchAttributes.MODE);
        Check.notNull(WorkbenchTests.launchAfter(h, before, 60_000), "the launch of " + main + " ended");
        TraceSession s = Sessions.current();
        Check.isTrue(s instanceof NativeSession, "a live session: " + s);
        Check.isTrue(h.waitUntil(() -> tree.statusText().startsWith("Recording complete")
                && tree.getContentDescription().startsWith("Is this "), 30_000),
                "recorded and asking: " + tree.statusText() + " / " + tree.getContentDescription());
        return s;
    }

    /**
     * Waits, the UI running, until JDT can search {@code project}: the shortcut's search for main
     * types waits for the indexer in a modal progress dialog, and on a loaded machine indexing
     * a new project's JDK took over a minute, after which the watchdog closed that dialog.
     */
    private static boolean indexed(Harness h, IJavaProject project) {
        Thread search = new Thread(() -> {
            try {
                new org.eclipse.jdt.core.search.SearchEngine().searchAllTypeNames(null,
                        org.eclipse.jdt.core.search.SearchPattern.R_EXACT_MATCH, null,
                        org.eclipse.jdt.core.search.SearchPattern.R_PREFIX_MATCH,
                        org.eclipse.jdt.core.search.IJavaSearchConstants.CLASS,
                        org.eclipse.jdt.core.search.SearchEngine.createJavaSearchScope(
                                new org.eclipse.jdt.core.IJavaElement[] {project}),
                        new org.eclipse.jdt.core.search.TypeNameRequestor() {
                        }, org.eclipse.jdt.core.search.IJavaSearchConstants.WAIT_UNTIL_READY_TO_SEARCH, null);
            } catch (Exception e) {
                System.out.println("UITEST waiting for the Java indexer: " + e);
            }
        }, "uitest: waiting for the Java indexer");
        search.setDaemon(true);
        search.start();
        return h.waitUntil(() -> !search.isAlive(), 600_000);
    }

    /** Every node of the session's tree, read as the view reads it, in preorder. */
    private static List<TreeNode> nodes(TraceSession s) throws Exception {
        List<TreeNode> out = new ArrayList<>();
        walk(s, s.root(), out);
        return out;
    }

    private static void walk(TraceSession s, TreeNode n, List<TreeNode> out) throws Exception {
        for (TreeNode c : s.children(n.id(), 0, 1000).nodes()) {
            out.add(c);
            walk(s, c, out);
        }
    }

    private static List<TreeNode> ofKind(List<TreeNode> nodes, TreeNode.Kind kind) {
        return nodes.stream().filter(n -> n.kind() == kind).toList();
    }

    private long selectedId() {
        return tree.viewer().getStructuredSelection().getFirstElement() instanceof TreeNode n ? n.id() : -1;
    }

    /** Reveals node {@code id} in the tree as the view does for a question, and its item. */
    private TreeItem reveal(Harness h, long id) {
        tree.reveal(id);
        Check.isTrue(h.waitUntil(() -> selectedId() == id, 10_000), "node " + id + " revealed and selected");
        TreeItem[] sel = tree.viewer().getTree().getSelection();
        Check.isTrue(sel.length == 1, "one item selected");
        return sel[0];
    }

    /** The Node view's rows as {@code name: old | new}, once it shows {@code header...}. */
    private List<String> nodeRows(Harness h, String header) {
        Tree vars = nodeView.viewer().getTree();
        h.waitUntil(() -> nodeView.getContentDescription().startsWith(header) && vars.getItemCount() > 0, 10_000);
        Check.isTrue(nodeView.getContentDescription().startsWith(header),
                "the Node view's header: " + nodeView.getContentDescription());
        List<String> rows = new ArrayList<>();
        for (TreeItem i : vars.getItems()) {
            rows.add(i.getText(0) + ": " + i.getText(1) + " | " + i.getText(2));
        }
        return rows;
    }

    /** The Event List's rows' texts, once it shows {@code header}. */
    private List<String> eventRows(Harness h, String header) throws Exception {
        // In front of the Console a launch brings up, without taking the focus from the tree.
        page().showView(EventListView.ID, null, IWorkbenchPage.VIEW_VISIBLE);
        Table t = events.viewer().getTable();
        h.waitUntil(() -> events.getContentDescription().startsWith(header) && t.getItemCount() > 0
                && !t.getItem(t.getItemCount() - 1).getText(1).isEmpty(), 10_000);
        Check.isTrue(events.getContentDescription().startsWith(header),
                "the Event List's header: " + events.getContentDescription());
        List<String> rows = new ArrayList<>();
        for (var i : t.getItems()) {
            rows.add(i.getText(1));
        }
        return rows;
    }

    private void sumNumbersTree(Harness h) throws Exception {
        // The Hindsight perspective gives the tree, the Node view and the Event List room (the
        // screenshots show them); the last step goes back to the Debug perspective.
        PlatformUI.getWorkbench().showPerspective(HindsightPerspective.ID,
                PlatformUI.getWorkbench().getActiveWorkbenchWindow());
        h.settle(500);
        sumNumbers = launch(h, program(h, "sumnumbers"), "sumnumbers.SumNumbers");
        List<TreeNode> all = nodes(sumNumbers);
        List<TreeNode> loops = ofKind(all, TreeNode.Kind.LOOP);
        List<TreeNode> iterations = ofKind(all, TreeNode.Kind.ITERATION);
        List<TreeNode> projected = ofKind(all, TreeNode.Kind.PROJECTED);
        Check.equal(1, loops.size(), "sumNumbers' loop: " + all);
        Check.equal(3, iterations.size(), "its iterations");
        Check.equal(1, projected.size(), "isEven and add on this, projected");
        Check.isTrue(loops.get(0).label().startsWith("SumNumbers.sumNumbers: loop at SumNumbers.java:12, 3 iterations"),
                "the loop's question: " + loops.get(0).label());
        Check.isTrue(iterations.get(1).label().contains("iteration 2 of 3"), "an iteration's question: "
                + iterations.get(1).label());
        Check.isTrue(projected.get(0).label().startsWith("2 calls"), "the chain's question: " + projected.get(0).label());
        // Each row shows its own label and two icons: its answer's (none yet) and its kind's.
        for (TreeNode n : List.of(loops.get(0), iterations.get(1), projected.get(0))) {
            TreeItem item = reveal(h, n.id());
            Check.equal(n.label(), item.getText(), "the row's label");
            Check.notNull(item.getImage(), "the row of a " + n.kind().noun() + " has its icon");
            Check.equal(34, item.getImage().getBounds().width, "answer and kind icons side by side");
        }
        // The kinds' icons differ.
        TreeItem loopItem = reveal(h, loops.get(0).id());
        TreeItem iterationItem = reveal(h, iterations.get(1).id());
        Check.isTrue(loopItem.getImage() != iterationItem.getImage(), "a loop's icon is not an iteration's");
        h.settle(300);
        h.screenshot("forest sumnumbers loop iterations and a projected chain");
    }

    private void sumNumbersViews(Harness h) throws Exception {
        Check.notNull(sumNumbers, "the sumNumbers session of the previous step");
        List<TreeNode> all = nodes(sumNumbers);
        TreeNode second = ofKind(all, TreeNode.Kind.ITERATION).get(1);
        reveal(h, second.id());
        List<String> vars = nodeRows(h, "sumnumbers.SumNumbers.sumNumbers (loop iteration) at its exit");
        Check.isTrue(vars.contains("i: 2 | \u25cf 3"), "i from 2 to 3 in the second iteration: " + vars);
        Check.isTrue(vars.contains("sum: 0 | \u25cf 3"), "sum from 0 to 3: " + vars);
        List<String> rows = eventRows(h, "Events of sumnumbers.SumNumbers.sumNumbers (loop iteration)");
        Check.isTrue(rows.stream().anyMatch(r -> r.contains("isEven")), "the iteration's events: " + rows);
        h.settle(300);
        h.screenshot("forest node view and event list of an iteration");
        TreeNode chain = ofKind(all, TreeNode.Kind.PROJECTED).get(0);
        reveal(h, chain.id());
        List<String> state = nodeRows(h, "projected chain at its exit");
        Check.isTrue(state.stream().anyMatch(r -> r.startsWith("this: SumNumbers")),
                "the chain's receiver: " + state);
        List<String> calls = eventRows(h, "Events of projected chain");
        Check.equal(2L, calls.stream().filter(r -> r.startsWith("call ")).count(),
                "the chain's two calls: " + calls);
        h.settle(300);
        h.screenshot("forest node view and event list of a projected chain");
    }

    /**
     * The answers a person gives (tests/programs/NAME/answers.txt): the calls of {@code wrong}
     * methods are invalid; loops, iterations and chains of the other calls are right.
     */
    private static String oracle(TreeNode n, Set<String> wrong) {
        return n.kind().isCall() && wrong.contains(n.method()) ? Commands.INVALID : Commands.VALID;
    }

    /** Answers what the view selects until the verdict; the questions' first words. */
    private List<String> answerToTheEnd(Harness h, TraceSession s, Set<String> wrong) throws Exception {
        List<String> asked = new ArrayList<>();
        page().activate(tree);
        for (int i = 0; i < 40; i++) {
            Question q = s.nextQuestion();
            if (q.kind() != Question.Kind.ASK) {
                Check.equal(Question.Kind.BUGGY, q.kind(), "a verdict after " + asked);
                return asked;
            }
            long id = q.node().id();
            if (i == 0 && selectedId() != id) {
                // Revealed when it was first asked; the steps before looked elsewhere since.
                reveal(h, id);
            }
            Check.isTrue(h.waitUntil(() -> selectedId() == id, 10_000), "the question is selected: " + q.node().label());
            String description = tree.getContentDescription();
            asked.add(description.substring(0, description.indexOf('?') + 1) + " " + q.node().kind());
            Commands.run(oracle(q.node(), wrong));
            answered(h, s, id);
        }
        throw new Check.Failure("no verdict after " + asked);
    }

    /** Waits (up to 5 s) until the session has taken the answer about node {@code id}. */
    private static void answered(Harness h, TraceSession s, long id) {
        h.waitUntil(() -> {
            try {
                Question next = s.nextQuestion();
                return next.kind() != Question.Kind.ASK || next.node().id() != id;
            } catch (Exception e) {
                return true;
            }
        }, 5000);
    }

    /** The one Hindsight problem marker on {@code file}, waited for as the verdict places it. */
    private static IMarker bugMarker(Harness h, IFile file) throws Exception {
        Check.isTrue(h.waitUntil(() -> {
            try {
                return file.findMarkers(BugMarkers.BUG, false, IResource.DEPTH_ZERO).length == 1;
            } catch (Exception e) {
                return false;
            }
        }, 5000), "a problem marker on " + file.getName());
        return file.findMarkers(BugMarkers.BUG, false, IResource.DEPTH_ZERO)[0];
    }

    private static List<Integer> lineMarkers(IFile file) throws Exception {
        List<Integer> lines = new ArrayList<>();
        for (IMarker m : file.findMarkers(BugMarkers.LINE, false, IResource.DEPTH_ZERO)) {
            lines.add(m.getAttribute(IMarker.LINE_NUMBER, -1));
        }
        lines.sort(null);
        return lines;
    }

    private void sumNumbersVerdict(Harness h) throws Exception {
        Check.notNull(sumNumbers, "the sumNumbers session");
        Check.isTrue(Sessions.current() == sumNumbers, "still the sumNumbers session");
        List<String> asked = answerToTheEnd(h, sumNumbers,
                Set.of("sumnumbers.SumNumbers.main", "sumnumbers.SumNumbers.sumNumbers"));
        Check.isTrue(asked.stream().anyMatch(a -> a.startsWith("Is this loop right?")
                || a.startsWith("Is this iteration right?")), "a loop or an iteration was asked: " + asked);
        Check.isTrue(h.waitUntil(() -> tree.getContentDescription().startsWith(
                "Bug found in sumnumbers.SumNumbers.sumNumbers:"), 5000), "the verdict: " + tree.getContentDescription());
        // The loop was right: the buggy code is sumNumbers' code outside it (Lemma 1).
        IFile file = ResourcesPlugin().getProject("sumnumbers").getFile("buggy/sumnumbers/SumNumbers.java");
        IMarker problem = bugMarker(h, file);
        String message = String.valueOf(problem.getAttribute(IMarker.MESSAGE));
        Check.isTrue(message.startsWith("Hindsight: bug in sumnumbers.SumNumbers.sumNumbers, lines 11, 12, 18, found with"),
                "the Problems view's message: " + message);
        Check.equal(List.of(11, 12, 18), lineMarkers(file), "the initialisations and the return are marked");
        page().showView("org.eclipse.ui.views.ProblemView");
        page().activate(tree);
        h.settle(1500);
        h.screenshot("forest sumnumbers verdict outside the loop in the editor");
        System.out.println("UITEST forest sumNumbers: " + asked);
    }

    /**
     * The jhyde paper's MergeSort (the CLI's trace) with the defaults: a person sees the program
     * print [1, 4, 9, 7]; every step that produced that array is wrong, main too, the others are
     * right (the reference oracle answers alike, with every strategy). The defect, {@code c[lb++]
     * = a[la++]} in merge's second loop, is found as the one iteration of that loop that ran it.
     */
    private void mergeSortIteration(Harness h) throws Exception {
        String trace = Check.notNull(System.getProperty("hindsight.uitest.trace"), "-Dhindsight.uitest.trace");
        TraceSession before = Sessions.current();
        OpenTraceHandler.open(page().getWorkbenchWindow().getShell(), Path.of(trace)).join();
        Check.isTrue(h.waitUntil(() -> Sessions.current() != before, 10_000), "the trace opened");
        TraceSession s = Sessions.current();
        Check.isTrue(h.waitUntil(() -> tree.getContentDescription().startsWith("Is this "), 10_000),
                "asking: " + tree.getContentDescription());
        List<String> asked = new ArrayList<>();
        page().activate(tree);
        for (int i = 0; i < 30; i++) {
            Question q = s.nextQuestion();
            if (q.kind() != Question.Kind.ASK) {
                break;
            }
            long id = q.node().id();
            if (i == 0 && selectedId() != id) {
                reveal(h, id);
            }
            Check.isTrue(h.waitUntil(() -> selectedId() == id, 10_000), "the question is selected: " + q.node().label());
            boolean wrong = q.node().label().startsWith("MergeSort.main(") || q.node().label().contains("→[1, 4, 9, 7]");
            asked.add(q.node().kind() + (wrong ? " invalid" : " valid"));
            Commands.run(wrong ? Commands.INVALID : Commands.VALID);
            answered(h, s, id);
        }
        Question end = s.nextQuestion();
        Check.equal(Question.Kind.BUGGY, end.kind(), "a verdict after " + asked);
        Check.equal(TreeNode.Kind.ITERATION, end.node().kind(), "the buggy node is an iteration");
        Check.isTrue(end.node().label().startsWith("MergeSort.merge: loop at MergeSort.java:11, iteration 1 of 2"),
                "the iteration that ran c[lb++] = a[la++]: " + end.node().label());
        Check.isTrue(h.waitUntil(() -> tree.getContentDescription().startsWith(
                "Bug found in MergeSort.merge (loop iteration):"), 5000), "the verdict: " + tree.getContentDescription());
        IFile file = ResourcesPlugin().getProject("mergesort").getFile("src/MergeSort.java");
        String message = String.valueOf(bugMarker(h, file).getAttribute(IMarker.MESSAGE));
        Check.isTrue(message.startsWith("Hindsight: bug in MergeSort.merge (loop iteration), lines 11-12, found with "),
                "the Problems view's message: " + message);
        Check.equal(List.of(11, 12), lineMarkers(file), "the iteration's own lines, annotated");
        page().showView("org.eclipse.ui.views.ProblemView");
        page().activate(tree);
        h.settle(1500);
        h.screenshot("forest mergesort bug in a loop iteration in the editor");
        System.out.println("UITEST forest mergesort: " + asked);
    }

    private static org.eclipse.core.resources.IWorkspaceRoot ResourcesPlugin() {
        return org.eclipse.core.resources.ResourcesPlugin.getWorkspace().getRoot();
    }

    private static final Set<String> CASTLING_WRONG = Set.of("castling.Chess.main", "castling.Chess.castling");

    private void castling(Harness h) throws Exception {
        TraceSession s = launch(h, program(h, "castling"), "castling.Chess");
        castlingTrace = Check.notNull(s.tracePath(), "the trace kept");
        List<TreeNode> all = nodes(s);
        List<TreeNode> projected = ofKind(all, TreeNode.Kind.PROJECTED);
        Check.equal(2, projected.size(), "a run of iterations projected in each loop: " + all);
        TreeNode run = projected.get(0);
        Check.isTrue(run.label().startsWith("Chess.castling: loop at Chess.java:18, iterations 1 to 2 of 4"),
                "the projected run's question: " + run.label());
        // The Node view: the frame over the run.
        reveal(h, run.id());
        List<String> vars = nodeRows(h, "castling.Chess.castling (projected chain) at its exit");
        Check.isTrue(vars.contains("i: 1 | \u25cf 3"), "i over the two iterations: " + vars);
        Check.isTrue(vars.stream().anyMatch(v -> v.startsWith("t: Position{x=8, y=1} | \u25d0 Position{x=10, y=1}")),
                "the tower moved twice: " + vars);
        // Answered from the tree, as any node: don't know, taken back, then valid.
        page().activate(tree);
        Commands.run(Commands.DONT_KNOW);
        Check.isTrue(h.waitUntil(() -> answerOf(s, run.id()) == Answer.DONT_KNOW, 10_000),
                "the projected node answered don't know");
        Commands.run(Commands.UNDO);
        Check.isTrue(h.waitUntil(() -> answerOf(s, run.id()) == null, 10_000), "the answer undone");
        reveal(h, run.id());
        page().activate(tree);
        Commands.run(Commands.VALID);
        Check.isTrue(h.waitUntil(() -> answerOf(s, run.id()) == Answer.VALID, 10_000),
                "the projected node answered valid");
        TreeItem item = reveal(h, run.id());
        Check.isTrue(h.waitUntil(() -> item.getData() instanceof TreeNode n && n.answer() == Answer.VALID, 5000),
                "its row shows the answer");
        h.settle(300);
        h.screenshot("forest castling a projected run of iterations answered valid");
        List<String> asked = answerToTheEnd(h, s, CASTLING_WRONG);
        Check.isTrue(h.waitUntil(() -> tree.getContentDescription().startsWith("Bug found in castling.Chess.castling:"),
                5000), "the verdict: " + tree.getContentDescription() + " after " + asked);
        IFile chess = ResourcesPlugin().getProject("castling").getFile("buggy/castling/Chess.java");
        List<Integer> lines = lineMarkers(chess);
        Check.isTrue(lines.contains(14) && !lines.contains(15), "the condition, not the loops' bodies: " + lines);
        System.out.println("UITEST forest castling: " + asked);
    }

    private static Answer answerOf(TraceSession s, long id) {
        try {
            List<hindsight.eclipse.core.PathStep> way = s.pathTo(id);
            long parent = way.get(way.size() - 2).id();
            int index = way.get(way.size() - 1).index();
            return s.children(parent, index, 1).nodes().get(0).answer();
        } catch (Exception e) {
            return null;
        }
    }

    private void castlingCollapsed(Harness h) throws Exception {
        Check.notNull(castlingTrace, "castling's trace from the previous step");
        store().setValue(PreferenceConstants.LOOPS, false);
        try {
            TraceSession before = Sessions.current();
            OpenTraceHandler.open(page().getWorkbenchWindow().getShell(), castlingTrace).join();
            Check.isTrue(h.waitUntil(() -> Sessions.current() != before, 10_000), "the trace opened again");
            TraceSession s = Sessions.current();
            Check.isTrue(h.waitUntil(() -> tree.getContentDescription().startsWith("Is this "), 10_000),
                    "asking: " + tree.getContentDescription());
            List<TreeNode> all = nodes(s);
            Check.isTrue(ofKind(all, TreeNode.Kind.LOOP).isEmpty(), "no loop nodes with loops off: " + all);
            List<TreeNode> collapsed = ofKind(all, TreeNode.Kind.COLLAPSED);
            Check.equal(2, collapsed.size(), "the moves right and left collapsed: " + all);
            TreeNode right = collapsed.get(0);
            Check.isTrue(right.label().startsWith("3 calls Position.right with this=Position{x=8, y=1}\u2192"
                    + "Position{x=11, y=1}"), "the collapsed node's question: " + right.label());
            TreeItem item = reveal(h, right.id());
            Check.equal(34, item.getImage().getBounds().width, "its icons");
            List<String> vars = nodeRows(h, "castling.Position.right (collapsed calls) at its exit");
            Check.isTrue(vars.contains("this: Position{x=8, y=1} | \u25d0 Position{x=11, y=1}"),
                    "the tower from before the first move to after the last: " + vars);
            List<String> rows = eventRows(h, "Events of castling.Position.right (collapsed calls)");
            Check.equal(3L, rows.stream().filter(r -> r.startsWith("call ")).count(), "its three calls: " + rows);
            h.settle(300);
            h.screenshot("forest castling collapsed moves in the node view");
            // Trust from the collapsed moves left: every call of left is trusted, never asked.
            TreeNode left = collapsed.get(1);
            reveal(h, left.id());
            page().activate(tree);
            Commands.run(Commands.TRUSTED);
            Check.isTrue(h.waitUntil(() -> answerOf(s, left.id()) == Answer.TRUSTED, 10_000),
                    "the collapsed calls of left trusted");
            List<String> asked = answerToTheEnd(h, s, CASTLING_WRONG);
            Check.isTrue(asked.contains("Is this chain right? COLLAPSED"), "the moves right asked as one: " + asked);
            Check.isTrue(h.waitUntil(() -> tree.getContentDescription().startsWith(
                    "Bug found in castling.Chess.castling:"), 5000), "the verdict: " + tree.getContentDescription());
            h.settle(500);
            h.screenshot("forest castling without loops the bug in castling");
            System.out.println("UITEST forest castling without loops: " + asked);
        } finally {
            store().setToDefault(PreferenceConstants.LOOPS);
            PlatformUI.getWorkbench().showPerspective(WorkbenchTests.DEBUG_PERSPECTIVE,
                    PlatformUI.getWorkbench().getActiveWorkbenchWindow());
        }
    }
}
