package hindsight.eclipse.tests;

import hindsight.eclipse.actions.OpenTraceHandler;
import hindsight.eclipse.core.NativeSession;
import hindsight.eclipse.core.Question;
import hindsight.eclipse.core.Sessions;
import hindsight.eclipse.core.TraceSession;
import hindsight.eclipse.core.TreeNode;
import hindsight.eclipse.launch.JUnitShortcut;
import hindsight.eclipse.launch.LaunchAttributes;
import hindsight.eclipse.launch.TraceStore;
import hindsight.eclipse.views.BugMarkers;
import hindsight.eclipse.views.ComputationTreeView;
import hindsight.eclipse.views.GettingStartedView;
import hindsight.eclipse.views.HindsightPerspective;
import hindsight.eclipse.views.NodeView;
import hindsight.eclipse.views.TracesView;
import hindsight.eclipse.views.VariableHistoryView;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import org.eclipse.core.resources.IFile;
import org.eclipse.core.resources.IFolder;
import org.eclipse.core.resources.IMarker;
import org.eclipse.core.resources.IProject;
import org.eclipse.core.resources.IProjectDescription;
import org.eclipse.core.resources.IResource;
import org.eclipse.core.resources.ResourcesPlugin;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.debug.core.DebugPlugin;
import org.eclipse.debug.core.ILaunch;
import org.eclipse.debug.core.ILaunchConfiguration;
import org.eclipse.debug.core.ILaunchConfigurationWorkingCopy;
import org.eclipse.debug.core.model.IBreakpoint;
import org.eclipse.debug.core.model.IThread;
import org.eclipse.debug.ui.AbstractDebugView;
import org.eclipse.debug.ui.DebugUITools;
import org.eclipse.debug.ui.IDebugUIConstants;
import org.eclipse.jdt.core.IClasspathEntry;
import org.eclipse.jdt.core.IJavaProject;
import org.eclipse.jdt.core.IType;
import org.eclipse.jdt.core.JavaCore;
import org.eclipse.jdt.debug.core.IJavaStackFrame;
import org.eclipse.jdt.debug.core.IJavaVariable;
import org.eclipse.jdt.debug.core.JDIDebugModel;
import org.eclipse.jdt.launching.IJavaLaunchConfigurationConstants;
import org.eclipse.jdt.launching.JavaRuntime;
import org.eclipse.jface.text.ITextSelection;
import org.eclipse.jface.text.source.Annotation;
import org.eclipse.jface.text.source.IAnnotationModel;
import org.eclipse.jface.viewers.ISelection;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.jface.viewers.TreePath;
import org.eclipse.jface.viewers.TreeSelection;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Label;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableItem;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.swt.widgets.TreeColumn;
import org.eclipse.ui.IEditorPart;
import org.eclipse.ui.ISources;
import org.eclipse.ui.IViewPart;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.IWorkbenchPart;
import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.handlers.IHandlerService;
import org.eclipse.ui.texteditor.ITextEditor;

/**
 * Hindsight the way Eclipse users work (issue 15), in the real workbench with the real core: a
 * JUnit launch recorded and debugged to its bug, the bug in the editor and the Problems view,
 * Show in History from JDT's Variables view and the Java editor of a launch suspended at a
 * breakpoint, the traces kept and listed, failures said clearly, the views readable at
 * 1600x1000 in both perspectives, and the longest UI-thread task while HTMLCleaner's workload
 * is recorded live and questions are answered.
 */
public class WorkflowTests {
    private IJavaProject tests;
    private ComputationTreeView tree;

    List<Harness.Step> steps() {
        return List.of(
                new Harness.Step("native library missing: a clear message, no crash", this::nativeLibraryMissing),
                new Harness.Step("junit: hindsight as records the tests and debugs them to the bug", this::junit),
                new Harness.Step("the bug in the editor: annotations, problem marker, removed on close", this::bugInEditor),
                new Harness.Step("show in history from the variables view of a suspended launch", this::variablesView),
                new Harness.Step("show in history from the java editor of a suspended launch", this::javaEditor),
                new Harness.Step("traces are kept in the workspace, listed, reopened and deleted", this::traces),
                new Harness.Step("open trace of a corrupt file: a clear error dialog", this::corruptTrace),
                new Harness.Step("a launch whose jvm fails to start says so, no older trace shown", this::jvmFails),
                new Harness.Step("views readable at 1600x1000 in the debug perspective", this::debugLayout),
                new Harness.Step("hindsight perspective and getting started", this::hindsightPerspective),
                new Harness.Step("htmlcleaner size 3 live: longest ui-thread task", this::htmlcleanerLatency));
    }

    /** The longest UI-thread task while HTMLCleaner was recorded and questions answered, in ms. */
    static long htmlcleanerLatency = -1;

    private static IWorkbenchPage page() {
        return PlatformUI.getWorkbench().getActiveWorkbenchWindow().getActivePage();
    }

    /** A message dialog other than the workbench window (not a Job's progress dialog), or null. */
    static Shell dialog(Harness h) {
        Shell main = PlatformUI.getWorkbench().getActiveWorkbenchWindow().getShell();
        for (Shell s : h.display().getShells()) {
            if (s != main && !s.isDisposed() && s.isVisible() && !s.getText().isEmpty()
                    && !s.getText().startsWith("Progress Information")) {
                return s;
            }
        }
        return null;
    }

    /** Every label's text in a shell (a dialog's message). */
    static String text(Control c) {
        StringBuilder b = new StringBuilder();
        if (c instanceof Label l) {
            b.append(l.getText()).append('\n');
        } else if (c instanceof org.eclipse.swt.widgets.Text t) {
            b.append(t.getText()).append('\n');
        }
        if (c instanceof Composite comp) {
            for (Control child : comp.getChildren()) {
                b.append(text(child));
            }
        }
        return b.toString();
    }

    /**
     * Waits for a dialog, photographs it, returns its text and closes it. A modal dialog runs its
     * own event loop inside whatever opened it, so the looking is done by a timer, which runs in
     * any event loop.
     */
    static String closeDialog(Harness h, String shot, long millis) {
        String[] text = {null};
        boolean[] done = {false};
        long end = System.currentTimeMillis() + millis;
        Runnable[] poll = new Runnable[1];
        poll[0] = () -> {
            Shell d = dialog(h);
            if (d != null) {
                h.settle(500);
                if (!d.isDisposed()) {
                    text[0] = d.getText() + "\n" + text(d);
                    h.screenshot(shot);
                    d.close();
                    done[0] = true;
                    return;
                }
            }
            if (System.currentTimeMillis() > end) {
                done[0] = true;
            } else {
                h.display().timerExec(200, poll[0]);
            }
        };
        h.display().timerExec(200, poll[0]);
        h.waitUntil(() -> done[0], millis + 5000);
        h.settle(200);
        return text[0];
    }

    private void nativeLibraryMissing(Harness h) throws Exception {
        TraceSession before = Sessions.current();
        System.setProperty("hindsight.jni.library", "hindsight_jni_missing");
        try {
            OpenTraceHandler.open(page().getWorkbenchWindow().getShell(), Path.of("/tmp/any.htrace"));
            String text = Check.notNull(closeDialog(h, "native library missing dialog", 20_000),
                    "an error dialog when the native library is missing");
            Check.isTrue(text.contains("libhindsight_jni_missing.so") && text.contains("could not be loaded")
                    && text.contains("reinstall the plugin"), "the dialog says what and what to do: " + text);
            Check.isTrue(Sessions.current() == before, "no session opened");
        } finally {
            System.clearProperty("hindsight.jni.library");
        }
    }

    static IJavaProject javaProject(String name, List<IClasspathEntry> libraries) throws Exception {
        IProject p = ResourcesPlugin.getWorkspace().getRoot().getProject(name);
        if (!p.exists()) {
            p.create(null);
        }
        p.open(null);
        IProjectDescription desc = p.getDescription();
        desc.setNatureIds(new String[] {JavaCore.NATURE_ID});
        p.setDescription(desc, null);
        IFolder src = p.getFolder("src");
        if (!src.exists()) {
            src.create(true, true, null);
        }
        IJavaProject project = JavaCore.create(p);
        List<IClasspathEntry> cp = new ArrayList<>();
        cp.add(JavaCore.newSourceEntry(src.getFullPath()));
        cp.add(JavaRuntime.getDefaultJREContainerEntry());
        cp.addAll(libraries);
        project.setRawClasspath(cp.toArray(new IClasspathEntry[0]), p.getFolder("bin").getFullPath(), null);
        return project;
    }

    private static IFile write(IJavaProject project, String path, String text) throws Exception {
        IFile f = project.getProject().getFile(path);
        ByteArrayInputStream in = new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
        if (f.exists()) {
            f.setContents(in, true, false, null);
        } else {
            f.create(in, true, null);
        }
        return f;
    }

    static final String SORTER = """
            public class Sorter {
                /** The largest element; the bug: the loop starts too late and misses a[1]. */
                public static int max(int[] a) {
                    int best = a[0];
                    for (int i = 2; i < a.length; i++) {
                        if (a[i] > best) {
                            best = a[i];
                        }
                    }
                    return best;
                }

                public static int sum(int[] a) {
                    int s = 0;
                    for (int x : a) {
                        s += x;
                    }
                    return s;
                }
            }
            """;

    static final String SORTER_TEST = """
            import static org.junit.Assert.assertEquals;

            import org.junit.Test;

            public class SorterTest {
                @Test
                public void sumOfFour() {
                    assertEquals(21, Sorter.sum(new int[] {4, 9, 1, 7}));
                }

                @Test
                public void maxOfFour() {
                    assertEquals(9, Sorter.max(new int[] {4, 9, 1, 7}));
                }
            }
            """;

    /**
     * The answers a person gives about the tests' run: max and the test of max are wrong; max's
     * loop and each of its iterations compute what they should from where they start (the loop
     * starts too late: the bug is max's code before the loop, generalized-AD paper, Lemma 1).
     */
    private static String oracle(TreeNode n) {
        String m = String.valueOf(n.method());
        boolean wrong = n.kind().isCall() && (m.equals("Sorter.max") || m.equals("SorterTest.maxOfFour"));
        return wrong ? Commands.INVALID : Commands.VALID;
    }

    private void junit(Harness h) throws Exception {
        tree = (ComputationTreeView) page().showView(ComputationTreeView.ID);
        tests = javaProject("sortertests", List.of(
                JavaCore.newLibraryEntry(new org.eclipse.core.runtime.Path("/usr/share/java/junit4.jar"), null, null),
                JavaCore.newLibraryEntry(new org.eclipse.core.runtime.Path("/usr/share/java/hamcrest.jar"), null, null)));
        write(tests, "src/Sorter.java", SORTER);
        write(tests, "src/SorterTest.java", SORTER_TEST);
        IFile classFile = tests.getProject().getFile("bin/SorterTest.class");
        Check.isTrue(h.waitUntil(classFile::exists, 60_000), "JDT built SorterTest.class");
        IType test = Check.notNull(tests.findType("SorterTest"), "the test class");
        var manager = DebugPlugin.getDefault().getLaunchManager();
        Set<ILaunch> before = Set.of(manager.getLaunches());
        new JUnitShortcut().launch(new StructuredSelection(test), LaunchAttributes.MODE);
        ILaunch launch = Check.notNull(WorkbenchTests.launchAfter(h, before, 90_000), "the JUnit launch ended");
        Check.equal(JUnitShortcut.TYPE, launch.getLaunchConfiguration().getType().getIdentifier(),
                "a configuration of JDT's JUnit type");
        Check.equal(LaunchAttributes.MODE, launch.getLaunchMode(), "in the Hindsight mode");
        TraceSession s = Sessions.current();
        Check.isTrue(s instanceof NativeSession && Sessions.launchOf(s) == launch, "the launch's live session: " + s);
        Check.isTrue(s.tracePath() != null && s.tracePath().startsWith(TraceStore.defaultFolder()),
                "the trace is kept in the workspace's folder: " + s.tracePath());
        Check.isTrue(h.waitUntil(() -> tree.statusText().startsWith("Recording complete"), 30_000),
                "the recording completed: " + tree.statusText());
        // The runner's own calls are not recorded: the thread's calls are the tests'.
        TreeNode thread = s.children(0, 0, 10).nodes().get(0);
        Check.equal("Thread [main]", thread.label(), "the thread node is named by the Java thread's name");
        List<String> calls = new ArrayList<>();
        for (TreeNode n : s.children(thread.id(), 0, 20).nodes()) {
            calls.add(n.method());
        }
        Check.isTrue(calls.contains("SorterTest.maxOfFour") && calls.contains("SorterTest.sumOfFour"),
                "the test methods are the thread's calls: " + calls);
        Check.isTrue(calls.stream().noneMatch(c -> c.startsWith("org.junit")), "no JUnit runner call: " + calls);
        page().activate(tree);
        Question q = null;
        for (int i = 0; i < 20; i++) {
            q = s.nextQuestion();
            if (q.kind() != Question.Kind.ASK) {
                break;
            }
            long asked = q.node().id();
            Check.isTrue(h.waitUntil(() -> tree.viewer().getStructuredSelection().getFirstElement() instanceof TreeNode n
                    && n.id() == asked, 10_000), "the question is selected: " + q.node().label());
            Commands.run(oracle(q.node()));
            Question current = q;
            h.waitUntil(() -> {
                try {
                    Question next = s.nextQuestion();
                    return next.kind() != Question.Kind.ASK || next.node().id() != current.node().id();
                } catch (Exception e) {
                    return true;
                }
            }, 5000);
        }
        Check.equal(Question.Kind.BUGGY, q.kind(), "a verdict");
        Check.equal("Sorter.max", q.node().method(), "the bug is in Sorter.max");
        Check.equal(TreeNode.Kind.ROUTINE, q.node().kind(), "the call of max, its loop being right");
        Check.isTrue(h.waitUntil(() -> tree.getContentDescription().startsWith("Bug found in Sorter.max"), 5000),
                "the tree says so: " + tree.getContentDescription());
    }

    private void bugInEditor(Harness h) throws Exception {
        IFile sorter = tests.getProject().getFile("src/Sorter.java");
        Check.isTrue(h.waitUntil(() -> markers(sorter, BugMarkers.BUG).length == 1, 5000), "one problem marker");
        IMarker problem = markers(sorter, BugMarkers.BUG)[0];
        String message = String.valueOf(problem.getAttribute(IMarker.MESSAGE));
        Check.isTrue(message.startsWith("Hindsight: bug in Sorter.max, lines ") && message.contains("found with"),
                "the Problems view's message: " + message);
        Check.equal(IMarker.SEVERITY_ERROR, problem.getAttribute(IMarker.SEVERITY, -1), "an error");
        List<Integer> lines = new ArrayList<>();
        for (IMarker m : markers(sorter, BugMarkers.LINE)) {
            lines.add(m.getAttribute(IMarker.LINE_NUMBER, -1));
        }
        Check.isTrue(lines.containsAll(List.of(4, 5, 10)), "the lines max ran are marked: " + lines);
        // Its loop was answered right: the loop's body is not max's buggy code (Lemma 1).
        Check.isTrue(!lines.contains(6) && !lines.contains(7), "the loop's body is not marked: " + lines);
        IEditorPart part = Check.notNull(page().getActiveEditor(), "the editor opened on the bug");
        ITextEditor editor = Check.notNull(part.getAdapter(ITextEditor.class), "a text editor");
        Check.equal("Sorter.java", editor.getEditorInput().getName(), "the buggy method's file");
        IAnnotationModel model = editor.getDocumentProvider().getAnnotationModel(editor.getEditorInput());
        int annotations = 0;
        for (Iterator<Annotation> it = model.getAnnotationIterator(); it.hasNext();) {
            if (BugMarkers.LINE.equals(it.next().getType())) {
                annotations++;
            }
        }
        Check.equal(lines.size(), annotations, "one Hindsight annotation per marked line");
        page().showView(IDebugUIConstants.ID_DEBUG_VIEW);
        page().showView("org.eclipse.ui.views.ProblemView");
        h.settle(1500);
        h.screenshot("the bug in the editor and the problems view");
        Sessions.open(null);
        Check.isTrue(h.waitUntil(() -> markers(sorter, BugMarkers.BUG).length == 0
                && markers(sorter, BugMarkers.LINE).length == 0, 5000), "the markers are removed with the session");
    }

    private static IMarker[] markers(IResource r, String type) {
        try {
            return r.findMarkers(type, false, IResource.DEPTH_ZERO);
        } catch (Exception e) {
            return new IMarker[0];
        }
    }

    /** A Hindsight launch of MergeSort suspended at line 12 of merge (c[lb++] = a[la++]). */
    private IJavaStackFrame suspendedMergeSort(Harness h) throws Exception {
        IProject mergesort = ResourcesPlugin.getWorkspace().getRoot().getProject("mergesort");
        IFile file = mergesort.getFile("src/MergeSort.java");
        IBreakpoint bp = JDIDebugModel.createLineBreakpoint(file, "MergeSort", 12, -1, -1, 0, true, null);
        ILaunchConfiguration config = null;
        for (ILaunchConfiguration c : DebugPlugin.getDefault().getLaunchManager().getLaunchConfigurations()) {
            if ("MergeSort".equals(c.getAttribute(IJavaLaunchConfigurationConstants.ATTR_MAIN_TYPE_NAME, ""))) {
                config = c;
            }
        }
        Check.notNull(config, "the MergeSort configuration of the earlier launches");
        DebugUITools.launch(config, LaunchAttributes.MODE);
        IJavaStackFrame[] frame = {null};
        h.waitUntil(() -> {
            for (ILaunch l : DebugPlugin.getDefault().getLaunchManager().getLaunches()) {
                if (l.isTerminated() || l.getDebugTarget() == null) {
                    continue;
                }
                try {
                    for (IThread t : l.getDebugTarget().getThreads()) {
                        if (t.isSuspended() && t.getBreakpoints().length > 0
                                && t.getTopStackFrame() instanceof IJavaStackFrame f) {
                            frame[0] = f;
                            return true;
                        }
                    }
                } catch (Exception e) {
                    return false;
                }
            }
            return false;
        }, 60_000);
        bp.delete();
        Check.notNull(frame[0], "the launch suspended at the breakpoint");
        org.eclipse.jdt.debug.core.IJavaThread thread = (org.eclipse.jdt.debug.core.IJavaThread) frame[0].getThread();
        h.waitUntil(() -> thread.isSuspended() && !thread.isPerformingEvaluation(), 10_000);
        Check.equal("merge", frame[0].getMethodName(), "suspended in merge");
        // The Debug view selects the suspended frame: that is the debug context of the views.
        page().showView(IDebugUIConstants.ID_DEBUG_VIEW);
        h.waitUntil(() -> DebugUITools.getDebugContext() != null
                && DebugUITools.getDebugContext().getAdapter(IJavaStackFrame.class) != null, 10_000);
        return frame[0];
    }

    private static IJavaVariable local(IJavaStackFrame frame, String name) throws Exception {
        for (var v : frame.getVariables()) {
            if (name.equals(v.getName())) {
                return (IJavaVariable) v;
            }
        }
        throw new Check.Failure("no local " + name + " in " + frame.getMethodName());
    }

    /** The values the Variable History shows, once it shows {@code title}. */
    private static List<String> historyValues(Harness h, String title) throws Exception {
        VariableHistoryView view = (VariableHistoryView) page().showView(VariableHistoryView.ID);
        Table t = view.viewer().getTable();
        Check.isTrue(h.waitUntil(() -> view.getContentDescription().equals(title) && t.getItemCount() > 0
                && !t.getItem(t.getItemCount() - 1).getText(0).isEmpty(), 20_000),
                "the Variable History shows " + title + ", not " + view.getContentDescription());
        List<String> values = new ArrayList<>();
        for (TableItem i : t.getItems()) {
            values.add(i.getText(0));
        }
        return values;
    }

    private IJavaStackFrame suspended;

    /**
     * Activates {@code part} and waits until commands see it and a selection of {@code kind}:
     * the workbench updates the handlers' context after the activation, and a command run
     * before then acts on the part that was active.
     */
    private static void activate(Harness h, IWorkbenchPart part, Class<? extends ISelection> kind) throws Exception {
        page().activate(part);
        IHandlerService handlers = PlatformUI.getWorkbench().getActiveWorkbenchWindow().getService(IHandlerService.class);
        Check.isTrue(h.waitUntil(() -> {
            var state = handlers.getCurrentState();
            return state.getVariable(ISources.ACTIVE_PART_NAME) == part
                    && kind.isInstance(state.getVariable(ISources.ACTIVE_CURRENT_SELECTION_NAME));
        }, 10_000), "commands see " + part.getTitle() + " active with its selection");
    }

    private void variablesView(Harness h) throws Exception {
        suspended = suspendedMergeSort(h);
        IJavaVariable la = local(suspended, "la");
        String now = la.getValue().getValueString();
        IViewPart part = page().showView(IDebugUIConstants.ID_VARIABLE_VIEW);
        var viewer = ((AbstractDebugView) part).getViewer();
        Tree vars = (Tree) viewer.getControl();
        // The view fills in the background once the frame is the debug context.
        org.eclipse.swt.widgets.TreeItem[] item = {null};
        Check.isTrue(h.waitUntil(() -> {
            for (org.eclipse.swt.widgets.TreeItem i : vars.getItems()) {
                if ("la".equals(i.getText(0))) {
                    item[0] = i;
                    return true;
                }
            }
            return false;
        }, 20_000), "the Variables view shows la: " + vars.getItemCount() + " rows");
        viewer.setSelection(new TreeSelection(new TreePath(new Object[] {item[0].getData()})), true);
        Check.isTrue(h.waitUntil(() -> !viewer.getSelection().isEmpty(), 5000), "la selected in the Variables view");
        activate(h, part, IStructuredSelection.class);
        Commands.run(Commands.SHOW_IN_HISTORY);
        List<String> values = historyValues(h, "History of la");
        // Up to the suspended moment: the last change is the value the debugger shows now.
        Check.isTrue(!values.isEmpty() && values.get(values.size() - 1).equals(now),
                "the history of la ends with its value now, " + now + ": " + values);
    }

    private void javaEditor(Harness h) throws Exception {
        Check.notNull(suspended, "the suspended launch of the previous step");
        IJavaVariable lb = local(suspended, "lb");
        String now = lb.getValue().getValueString();
        IFile file = ResourcesPlugin.getWorkspace().getRoot().getProject("mergesort").getFile("src/MergeSort.java");
        ITextEditor editor = (ITextEditor) org.eclipse.ui.ide.IDE.openEditor(page(), file);
        String text = editor.getDocumentProvider().getDocument(editor.getEditorInput()).get();
        int at = text.indexOf("c[lb++]") + 2;
        editor.selectAndReveal(at, 2);
        activate(h, editor, ITextSelection.class);
        Commands.run(Commands.SHOW_IN_HISTORY);
        List<String> values = historyValues(h, "History of lb");
        Check.isTrue(!values.isEmpty() && values.get(values.size() - 1).equals(now),
                "the history of lb ends with its value now, " + now + ": " + values);
        h.settle(1000);
        h.screenshot("show in history from the java editor while suspended");
        suspended.getLaunch().terminate();
        h.waitUntil(() -> suspended.getLaunch().isTerminated(), 10_000);
    }

    private void traces(Harness h) throws Exception {
        TracesView view = (TracesView) page().showView(TracesView.ID);
        view.refresh();
        Table t = view.viewer().getTable();
        Check.isTrue(t.getItemCount() >= 3, "the launches' traces are listed: " + t.getItemCount());
        List<Path> files = TraceStore.list(TraceStore.defaultFolder());
        Check.isTrue(files.size() >= 3, "kept in " + TraceStore.defaultFolder() + ": " + files);
        // In the workspace's state, not in a temporary file (the checkout, and so the test
        // workspace, may itself lie below the temporary directory).
        Path folder = TraceStore.defaultFolder();
        Check.isTrue(folder.toString().contains(".metadata/.plugins/hindsight.eclipse")
                        && files.stream().allMatch(p -> p.startsWith(folder)),
                "not in the temporary directory: " + folder + ": " + files);
        h.screenshot("hindsight traces view");
        // Reopen the JUnit launch's trace.
        TracesView.Trace junit = null;
        for (TableItem i : t.getItems()) {
            if (i.getData() instanceof TracesView.Trace tr && tr.name().startsWith("SorterTest")) {
                junit = tr;
            }
        }
        Check.notNull(junit, "the JUnit launch's trace in the list");
        Job job = OpenTraceHandler.open(page().getWorkbenchWindow().getShell(), junit.path());
        job.join();
        TracesView.Trace reopened = junit;
        Check.isTrue(h.waitUntil(() -> Sessions.current() != null && reopened.path().equals(Sessions.current().tracePath()),
                10_000), "the trace reopened");
        // Delete another one.
        TracesView.Trace other = null;
        for (TableItem i : t.getItems()) {
            if (i.getData() instanceof TracesView.Trace tr && !tr.path().equals(junit.path())) {
                other = tr;
            }
        }
        Check.notNull(other, "another trace");
        view.deleteNow(List.of(other));
        Check.isTrue(!Files.exists(other.path()), "deleted: " + other.path());
        Check.isTrue(t.getItemCount() == files.size() - 1, "the list lost it");
    }

    private void corruptTrace(Harness h) throws Exception {
        Path corrupt = Files.createTempFile("corrupt", ".htrace");
        Files.writeString(corrupt, "this is not a trace\n".repeat(100));
        TraceSession before = Sessions.current();
        OpenTraceHandler.open(page().getWorkbenchWindow().getShell(), corrupt);
        String text = Check.notNull(closeDialog(h, "open trace of a corrupt file", 20_000), "an error dialog");
        Check.isTrue(text.contains("Cannot open " + corrupt), "the dialog names the file: " + text);
        Check.isTrue(Sessions.current() == before, "the open session stays");
        Files.delete(corrupt);
    }

    private void jvmFails(Harness h) throws Exception {
        tree = (ComputationTreeView) page().showView(ComputationTreeView.ID);
        var manager = DebugPlugin.getDefault().getLaunchManager();
        ILaunchConfigurationWorkingCopy wc = manager.getLaunchConfigurationType(WorkbenchTests.JAVA_APPLICATION)
                .newInstance(null, "MergeSort with a JVM that cannot start");
        wc.setAttribute(IJavaLaunchConfigurationConstants.ATTR_PROJECT_NAME, "mergesort");
        wc.setAttribute(IJavaLaunchConfigurationConstants.ATTR_MAIN_TYPE_NAME, "MergeSort");
        wc.setAttribute(IJavaLaunchConfigurationConstants.ATTR_VM_ARGUMENTS, "-XX:+NoSuchJvmOption");
        ILaunchConfiguration config = wc.doSave();
        TraceSession older = Sessions.current();
        DebugUITools.launch(config, LaunchAttributes.MODE);
        String text = closeDialog(h, "a jvm that cannot start", 60_000);
        Check.isTrue(h.waitUntil(() -> Sessions.current() != older, 10_000), "the launch replaced the older session");
        Check.isTrue(h.waitUntil(() -> tree.statusText().startsWith("The launch failed")
                || tree.statusText().startsWith("Not recorded"), 30_000),
                "the tree says the program was not recorded: " + tree.statusText() + " (dialog: " + text + ")");
        Check.isTrue(h.waitUntil(() -> tree.verdictText().startsWith("Nothing to debug"), 5000),
                "what to do next: " + tree.verdictText());
        h.screenshot("the tree says the launch was not recorded");
        // The launch framework may show a second dialog about the same failure.
        closeDialog(h, "a second dialog about the jvm", 3000);
        config.delete();
    }

    /** The width of a tree's columns together. */
    private static int columnsWidth(Tree t) {
        int w = 0;
        for (TreeColumn c : t.getColumns()) {
            w += c.getWidth();
        }
        return w;
    }

    /** Opens the MergeSort trace recorded by the command line, for the layout screenshots. */
    private void openMergeSortTrace(Harness h) throws Exception {
        String trace = Check.notNull(System.getProperty("hindsight.uitest.trace"), "-Dhindsight.uitest.trace");
        OpenTraceHandler.open(page().getWorkbenchWindow().getShell(), Path.of(trace)).join();
        tree = (ComputationTreeView) page().showView(ComputationTreeView.ID);
        Check.isTrue(h.waitUntil(() -> tree.getContentDescription().startsWith("Is this "), 10_000),
                "the trace's first question: " + tree.getContentDescription());
    }

    private void checkReadable(Harness h, String where) throws Exception {
        Check.equal(1600, h.display().getBounds().width, "screen width");
        tree = (ComputationTreeView) page().showView(ComputationTreeView.ID);
        NodeView node = (NodeView) page().showView(NodeView.ID);
        h.settle(800);
        Tree t = tree.viewer().getTree();
        Check.isTrue(t.getSize().x >= 500, where + ": the tree is wide enough for its questions: " + t.getSize());
        Check.isTrue(t.getSize().y >= 100, where + ": the tree shows several rows: " + t.getSize());
        Tree vars = node.viewer().getTree();
        Check.isTrue(vars.getClientArea().width >= columnsWidth(vars),
                where + ": the Node view shows its three columns: " + vars.getClientArea().width + " < "
                        + columnsWidth(vars));
    }

    private void debugLayout(Harness h) throws Exception {
        PlatformUI.getWorkbench().showPerspective(WorkbenchTests.DEBUG_PERSPECTIVE,
                PlatformUI.getWorkbench().getActiveWorkbenchWindow());
        page().resetPerspective();
        h.settle(800);
        openMergeSortTrace(h);
        checkReadable(h, "Debug perspective");
        h.screenshot("debug perspective at 1600x1000 with a session");
    }

    private void hindsightPerspective(Harness h) throws Exception {
        PlatformUI.getWorkbench().showPerspective(HindsightPerspective.ID,
                PlatformUI.getWorkbench().getActiveWorkbenchWindow());
        h.settle(800);
        Check.equal(HindsightPerspective.ID, page().getPerspective().getId(), "the Hindsight perspective");
        checkReadable(h, "Hindsight perspective");
        h.screenshot("hindsight perspective at 1600x1000");
        Commands.run("hindsight.eclipse.commands.gettingStarted");
        h.settle(800);
        Check.isTrue(page().findView(GettingStartedView.ID) != null, "Getting Started with Hindsight opened");
        h.screenshot("getting started with hindsight");
        page().hideView(page().findView(GettingStartedView.ID));
    }

    private void htmlcleanerLatency(Harness h) throws Exception {
        String repo = Check.notNull(System.getProperty("hindsight.uitest.repo"), "-Dhindsight.uitest.repo");
        for (String jar : new String[] {"/usr/share/java/htmlcleaner.jar", "/usr/share/java/jdom2.jar"}) {
            Check.isTrue(Files.isRegularFile(Path.of(jar)), jar + " (tests/workloads/packages.txt)");
        }
        IJavaProject project = javaProject("htmlcleaner-workload", List.of(
                JavaCore.newLibraryEntry(new org.eclipse.core.runtime.Path("/usr/share/java/htmlcleaner.jar"), null, null),
                JavaCore.newLibraryEntry(new org.eclipse.core.runtime.Path("/usr/share/java/jdom2.jar"), null, null)));
        IProject p = project.getProject();
        List<IClasspathEntry> cp = new ArrayList<>(List.of(project.getRawClasspath()));
        cp.removeIf(e -> e.getEntryKind() == IClasspathEntry.CPE_SOURCE);
        for (String dir : new String[] {"common", "htmlcleaner"}) {
            IFolder linked = p.getFolder(dir);
            if (!linked.exists()) {
                linked.createLink(new org.eclipse.core.runtime.Path(repo + "/tests/workloads/" + dir), 0, null);
            }
            cp.add(0, JavaCore.newSourceEntry(linked.getFullPath()));
        }
        project.setRawClasspath(cp.toArray(new IClasspathEntry[0]), p.getFolder("bin").getFullPath(), null);
        IFile main = p.getFile("bin/workloads/htmlcleaner/Main.class");
        Check.isTrue(h.waitUntil(main::exists, 120_000), "JDT built the workload");
        ILaunchConfigurationWorkingCopy wc = DebugPlugin.getDefault().getLaunchManager()
                .getLaunchConfigurationType(WorkbenchTests.JAVA_APPLICATION).newInstance(null, "HTMLCleaner size 3");
        wc.setAttribute(IJavaLaunchConfigurationConstants.ATTR_PROJECT_NAME, p.getName());
        wc.setAttribute(IJavaLaunchConfigurationConstants.ATTR_MAIN_TYPE_NAME, "workloads.htmlcleaner.Main");
        wc.setAttribute(IJavaLaunchConfigurationConstants.ATTR_PROGRAM_ARGUMENTS,
                "3 " + repo + "/tests/workloads/inputs/html");
        ILaunchConfiguration config = wc.doSave();
        tree = (ComputationTreeView) page().showView(ComputationTreeView.ID);
        var manager = DebugPlugin.getDefault().getLaunchManager();
        Set<ILaunch> before = Set.of(manager.getLaunches());
        int answered = 0;
        long start = System.currentTimeMillis();
        try (UiLatency latency = new UiLatency(h.display())) {
            DebugUITools.launch(config, LaunchAttributes.MODE);
            // Answer what the tree selects, as a person would, while the program runs and after.
            // A bound, not a measure: the 45 million events took 295 s at load 10-12 and did not
            // all arrive in 420 s at load 18 on this shared 2-core machine.
            long deadline = System.currentTimeMillis() + 720_000;
            while (System.currentTimeMillis() < deadline && (answered < 8 || !recordingEnded(manager, before)
                    || !tree.statusText().startsWith("Recording complete"))) {
                String asked = tree.getContentDescription();
                if (asked.startsWith("Is this ") && answered < 8
                        && tree.viewer().getStructuredSelection().getFirstElement() instanceof TreeNode) {
                    page().activate(tree);
                    Commands.run(Commands.VALID);
                    answered++;
                    h.waitUntil(() -> !asked.equals(tree.getContentDescription()), 10_000);
                } else {
                    h.settle(100);
                }
            }
            htmlcleanerLatency = latency.maxMillis();
            System.out.println("UITEST htmlcleaner size 3 live: " + answered + " answers, "
                    + (System.currentTimeMillis() - start) + " ms, longest UI-thread task " + htmlcleanerLatency
                    + " ms over " + latency.probes() + " probes; status: " + tree.statusText() + "; " + latency.context() + "; longest stall in:"
                    + latency.stall());
            Check.isTrue(latency.probes() > 100, "the probe ran: " + latency.probes());
        }
        h.screenshot("htmlcleaner recorded live and answered");
        Check.isTrue(answered >= 8, "8 questions answered while recording: " + answered);
        Check.isTrue(tree.statusText().startsWith("Recording complete"), "the recording completed: " + tree.statusText());
    }

    private static boolean recordingEnded(org.eclipse.debug.core.ILaunchManager manager, Set<ILaunch> before) {
        for (ILaunch l : manager.getLaunches()) {
            if (!before.contains(l) && l.isTerminated()) {
                return true;
            }
        }
        return false;
    }
}
