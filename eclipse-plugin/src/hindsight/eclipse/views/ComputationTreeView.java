package hindsight.eclipse.views;

import hindsight.eclipse.core.Answer;
import hindsight.eclipse.core.HindsightException;
import hindsight.eclipse.core.JvmTrace;
import hindsight.eclipse.core.PathStep;
import hindsight.eclipse.core.Question;
import hindsight.eclipse.core.RecordingStatus;
import hindsight.eclipse.core.Sessions;
import hindsight.eclipse.core.Strategies;
import hindsight.eclipse.core.TraceSession;
import hindsight.eclipse.core.TreeNode;
import hindsight.eclipse.preferences.PreferenceConstants;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.debug.core.ILaunch;
import org.eclipse.debug.core.model.IProcess;
import org.eclipse.jface.action.Action;
import org.eclipse.jface.action.GroupMarker;
import org.eclipse.jface.action.IAction;
import org.eclipse.jface.action.IMenuManager;
import org.eclipse.jface.action.MenuManager;
import org.eclipse.jface.layout.GridDataFactory;
import org.eclipse.jface.layout.GridLayoutFactory;
import org.eclipse.jface.resource.JFaceResources;
import org.eclipse.jface.util.IPropertyChangeListener;
import org.eclipse.jface.viewers.IColorProvider;
import org.eclipse.jface.viewers.IFontProvider;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.jface.viewers.LabelProvider;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.jface.viewers.TreeViewer;
import org.eclipse.swt.SWT;
import org.eclipse.swt.custom.CLabel;
import org.eclipse.swt.graphics.Color;
import org.eclipse.swt.graphics.Font;
import org.eclipse.swt.graphics.Image;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Table;
import org.eclipse.swt.widgets.TableItem;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.swt.widgets.TreeColumn;
import org.eclipse.swt.widgets.TreeItem;
import org.eclipse.ui.IWorkbenchActionConstants;
import org.eclipse.ui.contexts.IContextService;

/**
 * The execution tree with the session's state above it: the recording's progress, the question
 * or how the session ended, and what to do next. Answers come from the commands (toolbar,
 * context menu, keys); the session's calls run as Jobs, the view shows their results.
 */
public class ComputationTreeView extends SessionView {
    public static final String ID = "hindsight.eclipse.views.tree";
    /** The key binding context active while the view is. */
    public static final String CONTEXT = "hindsight.eclipse.contexts.tree";

    private TreeViewer viewer;
    private CallTreeContentProvider provider;
    private CLabel status;
    private CLabel verdict;
    private Table candidates;
    private Composite top;
    private final List<IAction> strategyActions = new ArrayList<>();
    /** The JVMs of the launch, as last read by a Job (the UI thread never calls the core). */
    private volatile List<JvmTrace> jvms = List.of();
    /** The buggy node once found, -1 before. */
    private volatile long buggy = -1;
    private volatile boolean stopped;
    private Question last;
    /** The question (or buggy node) last revealed. */
    private long revealed = -1;
    private Question.Kind revealedKind;

    @Override
    protected Control createContent(Composite parent) {
        top = new Composite(parent, SWT.NONE);
        GridLayoutFactory.fillDefaults().spacing(0, 2).applyTo(top);
        status = new CLabel(top, SWT.NONE);
        GridDataFactory.fillDefaults().grab(true, false).applyTo(status);
        verdict = new CLabel(top, SWT.NONE);
        GridDataFactory.fillDefaults().grab(true, false).applyTo(verdict);
        candidates = new Table(top, SWT.SINGLE | SWT.FULL_SELECTION | SWT.BORDER);
        GridDataFactory.fillDefaults().grab(true, false).hint(SWT.DEFAULT, 80).exclude(true).applyTo(candidates);
        candidates.setVisible(false);
        candidates.setToolTipText("Candidates: any of these calls may hold the bug; select one to see it in the tree");
        candidates.addListener(SWT.Selection, e -> {
            if (e.item instanceof TableItem i && i.getData() instanceof TreeNode n) {
                reveal(n.id());
            }
        });
        viewer = new TreeViewer(top, SWT.VIRTUAL | SWT.SINGLE | SWT.FULL_SELECTION);
        GridDataFactory.fillDefaults().grab(true, true).applyTo(viewer.getControl());
        viewer.setUseHashlookup(true);
        viewer.setComparer(CallTreeContentProvider.SAME_CALL);
        oneColumn(viewer.getTree());
        provider = new CallTreeContentProvider(viewer);
        viewer.setContentProvider(provider);
        viewer.setLabelProvider(new CallLabelProvider());
        viewer.addDoubleClickListener(e -> {
            if (e.getSelection() instanceof IStructuredSelection s && s.getFirstElement() instanceof TreeNode n) {
                String why = SourceLines.openMethod(getSite().getPage(), n.method());
                if (why != null) {
                    status.setText(why);
                }
            }
        });
        getSite().setSelectionProvider(viewer);
        MenuManager menu = new MenuManager("#PopupMenu");
        menu.add(new GroupMarker(IWorkbenchActionConstants.MB_ADDITIONS));
        // Show In (Alt+Shift+W): the Node view and the Event List, as IShowInTargetList says.
        MenuManager showIn = new MenuManager("Show In", "hindsight.eclipse.showIn");
        showIn.add(org.eclipse.ui.actions.ContributionItemFactory.VIEWS_SHOW_IN.create(getSite().getWorkbenchWindow()));
        menu.add(showIn);
        viewer.getControl().setMenu(menu.createContextMenu(viewer.getControl()));
        getSite().registerContextMenu(menu, viewer);
        getSite().getService(IContextService.class).activateContext(CONTEXT);
        strategyMenu();
        return top;
    }

    private void strategyMenu() {
        IMenuManager menu = getViewSite().getActionBars().getMenuManager();
        for (String[] s : Strategies.ALL) {
            IAction choose = new Action(s[1], IAction.AS_RADIO_BUTTON) {
                @Override
                public void run() {
                    if (isChecked()) {
                        // Live sessions too: the core keeps the answers and asks the next
                        // question with the new strategy.
                        afterCall("choosing the strategy", t -> t.setStrategy(s[0], PreferenceConstants.p(s[0])));
                    }
                }
            };
            choose.setId(STRATEGY_ACTION + s[0]);
            strategyActions.add(choose);
            menu.add(choose);
        }
        checkStrategy(PreferenceConstants.store().getString(PreferenceConstants.STRATEGY));
        PreferenceConstants.store().addPropertyChangeListener(preferences);
    }

    /** The prefix of the strategy actions' ids; the strategy's name follows. */
    public static final String STRATEGY_ACTION = "hindsight.eclipse.strategy.";

    /** A new strategy in the preferences applies to the open session at once. */
    private final IPropertyChangeListener preferences = event -> {
        if (!PreferenceConstants.STRATEGY.equals(event.getProperty()) || viewer.getControl().isDisposed()) {
            return;
        }
        String strategy = String.valueOf(event.getNewValue());
        viewer.getControl().getDisplay().asyncExec(() -> {
            if (!viewer.getControl().isDisposed()) {
                checkStrategy(strategy);
                afterCall("choosing the strategy", t -> t.setStrategy(strategy, PreferenceConstants.p(strategy)));
            }
        });
    };

    private void checkStrategy(String strategy) {
        for (IAction a : strategyActions) {
            a.setChecked(a.getId().equals(STRATEGY_ACTION + strategy));
        }
    }

    /** The strategy actions of the view menu, for tests. */
    public List<IAction> actions() {
        return List.copyOf(strategyActions);
    }

    interface SessionCall {
        void run(TraceSession s) throws HindsightException;
    }

    /**
     * Runs {@code call} on the session in a Job, then reads the next question and shows it:
     * nodes are values, so the tree's items are read again (their answers changed).
     */
    private void afterCall(String what, SessionCall call) {
        TraceSession s = session();
        if (s == null) {
            return;
        }
        Job job = Job.create(capitalised(what), monitor -> {
            try {
                call.run(s);
                Question q = s.nextQuestion();
                RecordingStatus st = s.status();
                jvms = s.jvms();
                ui(() -> {
                    if (session() == s) {
                        provider.invalidate();
                        viewer.getTree().clearAll(true);
                        // After an answer the question is revealed again, even the same one.
                        revealed = -1;
                        show(q, st, s);
                    }
                });
            } catch (HindsightException | RuntimeException e) {
                ui(() -> showError(what, e));
            }
            return Status.OK_STATUS;
        });
        job.setSystem(false);
        job.schedule();
    }

    private void ui(Runnable r) {
        if (!viewer.getControl().isDisposed()) {
            viewer.getControl().getDisplay().asyncExec(() -> {
                if (!viewer.getControl().isDisposed()) {
                    r.run();
                }
            });
        }
    }

    private static String capitalised(String s) {
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    /** Answers {@code a} about the selected call (the commands call it). */
    public void answerSelected(Answer a) {
        if (stopped) {
            verdict.setText("The session was stopped: reopen its trace (Hindsight Traces) to answer again.");
            return;
        }
        if (((IStructuredSelection) viewer.getSelection()).getFirstElement() instanceof TreeNode node) {
            if (a == Answer.TRUSTED && (node.method() == null || node.method().isEmpty())) {
                // Trust is about a method: a projected chain of calls of several methods has none.
                showError("trusting", new HindsightException("the " + node.kind().noun()
                        + " selected runs several methods: trust one of its calls instead"));
            } else if (a == Answer.TRUSTED) {
                afterCall("trusting " + node.method(), s -> s.trust(node.method()));
            } else {
                afterCall("answering " + a.label(), s -> s.answer(node.id(), a));
            }
        }
    }

    /** Takes back the last answer. */
    public void undo() {
        if (!stopped) {
            buggy = -1;
            BugMarkers.clear();
            afterCall("undoing the last answer", TraceSession::undo);
        }
    }

    /** Ends the session before its verdict: the tree stays readable, answers are refused. */
    public void stop() {
        TraceSession s = session();
        if (s == null || stopped || last != null && last.kind().isEnd()) {
            return;
        }
        stopped = true;
        verdict.setVisible(true);
        ((org.eclipse.swt.layout.GridData) verdict.getLayoutData()).exclude = false;
        verdict.setImage(Theme.icon("stop"));
        verdict.setText("Stopped after " + (last == null ? 0 : last.answers()) + " answers. "
                + (s.tracePath() != null ? "The trace stays in " + s.tracePath()
                        + ": open it again from Hindsight Traces to start over." : ""));
        setContentDescription("Stopped: no verdict");
        top.layout(true, true);
    }

    /** Whether the session was stopped. */
    public boolean isStopped() {
        return stopped;
    }

    private void show(Question q, RecordingStatus st, TraceSession s) {
        last = q;
        showStatus(st, s);
        if (stopped) {
            return;
        }
        // The buggy node is known before its item is read again, so it is drawn apart at once.
        buggy = q.kind() == Question.Kind.BUGGY ? q.node().id() : -1;
        // A question is revealed once: a person looking elsewhere meanwhile keeps the selection.
        if (q.node() != null && (q.node().id() != revealed || q.kind() != revealedKind)) {
            revealed = q.node().id();
            revealedKind = q.kind();
            reveal(q.node().id());
        }
        candidates.setVisible(q.kind() == Question.Kind.UNDECIDED);
        ((org.eclipse.swt.layout.GridData) candidates.getLayoutData()).exclude = !candidates.getVisible();
        if (q.kind() != Question.Kind.BUGGY) {
            BugMarkers.clear();
        }
        switch (q.kind()) {
            case ASK -> {
                setContentDescription(question(q.node().kind()) + " " + q.node().label());
                verdict.setImage(Theme.icon("dontknow"));
                verdict.setText("Answer about the selected node: Valid, Invalid, Trust or Don't know "
                        + "(toolbar, context menu, Ctrl+Shift+1..4); Ctrl+Z takes an answer back.");
                // While it asks, the line is a tooltip: the tree gets the room.
                viewer.getTree().setToolTipText(verdict.getText());
            }
            case BUGGY -> {
                setContentDescription("Bug found in " + q.node().title() + ": " + q.node().label());
                verdict.setImage(Theme.icon("bug"));
                String lines = q.report() != null ? ", " + q.report().linesText() : "";
                verdict.setText("Bug found in " + q.node().title() + lines + " with " + q.answers()
                        + " answers. The editor marks the lines; Undo (Ctrl+Z) to revise an answer.");
                if (q.report() != null) {
                    String why = BugMarkers.show(getSite().getPage(), q.report(), q.answers());
                    if (why != null) {
                        verdict.setText(verdict.getText() + " " + why);
                    }
                }
            }
            case UNDECIDED -> {
                setContentDescription("Undecided: " + q.candidates().size()
                        + " calls may hold the bug (don't-know answers)");
                verdict.setImage(Theme.icon("dontknow"));
                verdict.setText("Undecided after " + q.answers() + " answers: select a candidate below, "
                        + "or Undo (Ctrl+Z) a don't-know answer and answer it.");
                candidates.removeAll();
                for (TreeNode n : q.candidates()) {
                    TableItem i = new TableItem(candidates, SWT.NONE);
                    i.setText(n.label());
                    i.setData(n);
                    i.setImage(Theme.nodeIcon(n.answer() == Answer.DONT_KNOW ? "dontknow" : "invalid", kindIcon(n)));
                }
            }
            case NO_BUG -> {
                setContentDescription("No bug found");
                verdict.setImage(Theme.icon("valid"));
                verdict.setText("No bug found: every call you were asked about was valid after " + q.answers()
                        + " answers. Undo (Ctrl+Z) an answer, or trust fewer packages in the Hindsight tab.");
            }
            case WAITING -> {
                setContentDescription(notRecorded ? "Nothing recorded" : "No question to ask yet");
                verdict.setImage(Theme.icon(notRecorded ? "stop" : "running"));
                verdict.setText(notRecorded
                        ? "Nothing to debug: correct the launch configuration (the Console and the error say why) "
                                + "and launch it again with Hindsight As."
                        : "Waiting for the program: the first complete call will be asked about.");
            }
        }
        boolean asking = q.kind() == Question.Kind.ASK;
        verdict.setVisible(!asking);
        ((org.eclipse.swt.layout.GridData) verdict.getLayoutData()).exclude = asking;
        top.layout(true, true);
        if ((q.kind() == Question.Kind.WAITING || st.recording()) && !notRecorded) {
            refreshWhileRecording(s);
        }
    }

    /**
     * The question's first words, by what is asked about: {@code Is this call right?}, {@code Is
     * this loop right?}, {@code Is this iteration right?}, {@code Is this chain right?} (a
     * collapsed or projected node: one step from its first call's entry to its last's exit).
     */
    public static String question(TreeNode.Kind kind) {
        return switch (kind) {
            case LOOP -> "Is this loop right?";
            case ITERATION -> "Is this iteration right?";
            case COLLAPSED, PROJECTED -> "Is this chain right?";
            default -> "Is this call right?";
        };
    }

    /** The icon of a node's kind (icons/NAME.png), or null for the run and the threads. */
    static String kindIcon(TreeNode n) {
        return switch (n.kind()) {
            case ROUTINE, EXTERNAL -> "routine";
            case LOOP -> "loop";
            case ITERATION -> "iteration";
            case COLLAPSED -> "collapsed";
            case PROJECTED -> "projected";
            case ROOT, THREAD -> null;
        };
    }

    /** Whether the launch behind the session recorded nothing (it failed, or no JVM connected). */
    private boolean notRecorded;

    private void showStatus(RecordingStatus st, TraceSession s) {
        String failure = Sessions.failure(s);
        ILaunch launch = Sessions.launchOf(s);
        List<JvmTrace> jvms = this.jvms;
        String text;
        String icon;
        notRecorded = failure != null || launch != null && launch.isTerminated() && jvms.isEmpty();
        if (failure != null) {
            text = "The launch failed: " + failure + ". Nothing was recorded.";
            icon = "invalid";
        } else if (launch != null && launch.isTerminated() && jvms.isEmpty()) {
            text = "Not recorded: the program ended" + exitCode(launch)
                    + " before the Hindsight agent connected; see the Console.";
            icon = "invalid";
        } else {
            text = st.describe();
            icon = st.recording() ? "running" : "complete".equals(st.state()) ? "valid" : "invalid";
            long more = jvms.stream().filter(j -> j.index() > 0).count();
            if (more > 0) {
                text += "; " + more + " more JVM" + (more > 1 ? "s" : "") + " recorded apart (Hindsight Traces)";
            }
            long failed = jvms.stream().filter(j -> "failed".equals(j.state())).count();
            if (failed > 0) {
                text += "; " + failed + " JVM" + (failed > 1 ? "s" : "") + " not recorded";
            }
        }
        status.setImage(Theme.icon(icon));
        status.setText(text);
        status.setToolTipText(s.tracePath() == null ? null : "Trace: " + s.tracePath());
    }

    private static String exitCode(ILaunch launch) {
        for (IProcess p : launch.getProcesses()) {
            try {
                return " (exit code " + p.getExitValue() + ")";
            } catch (org.eclipse.debug.core.DebugException e) {
                return "";
            }
        }
        return "";
    }

    /** How often the tree is read again while a live recording runs or has nothing to ask. */
    private static final int LIVE_REFRESH_MS = 500;
    private boolean refreshing;

    /**
     * While the session has no question or the recording runs, reads the tree again every
     * {@link #LIVE_REFRESH_MS} ms (in a Job), so that the calls appear while the program runs;
     * stops once the recording ended and there is a question, or the session changed.
     */
    private void refreshWhileRecording(TraceSession s) {
        if (refreshing) {
            return;
        }
        refreshing = true;
        viewer.getControl().getDisplay().timerExec(LIVE_REFRESH_MS, () -> {
            refreshing = false;
            if (viewer.getControl().isDisposed() || session() != s || s == null || stopped) {
                return;
            }
            Job job = Job.create("Reading the recording", monitor -> {
                try {
                    // The question first: asking takes in what the recorder sent, so the root
                    // read after it has every child the question may be about.
                    Question q = s.nextQuestion();
                    RecordingStatus st = s.status();
                    jvms = s.jvms();
                    TreeNode root = s.root();
                    ui(() -> {
                        if (session() == s) {
                            if (viewer.getInput() == null) {
                                viewer.setInput(new CallTreeContentProvider.Input(s, root));
                            } else {
                                provider.refresh(root);
                            }
                            show(q, st, s);
                        }
                    });
                } catch (HindsightException | RuntimeException e) {
                    ui(() -> showError("reading the recording", e));
                }
                return Status.OK_STATUS;
            });
            job.setSystem(true);
            job.schedule();
        });
    }

    /**
     * Expands the way from the root to node {@code id} (or to the node that shows it: a
     * collapsed node for a call it absorbed), then selects and shows it; the other views follow
     * the selection. The core gives each step's position among its siblings: a Job
     * reads the pages on the way (only those), then the UI thread expands it without waiting.
     */
    public void reveal(long id) {
        reveal(id, () -> {
        });
    }

    /**
     * {@link #reveal(long)}, then {@code then} on the UI thread once the selection has been made
     * and the other views told of it (or the call could not be shown): a view that goes to a
     * moment inside the call goes there after the selection that moves it to the call's exit.
     */
    public void reveal(long id, Runnable then) {
        TraceSession s = session();
        if (s == null) {
            then.run();
            return;
        }
        Job job = Job.create("Revealing a call", monitor -> {
            try {
                List<PathStep> path = s.pathTo(id);
                provider.readWay(path);
                ui(() -> {
                    if (session() == s) {
                        expandWay(id, path);
                    }
                    then.run();
                });
            } catch (HindsightException | RuntimeException e) {
                ui(() -> {
                    showError("revealing node " + id, e);
                    then.run();
                });
            }
            return Status.OK_STATUS;
        });
        job.setSystem(true);
        job.schedule();
    }

    private void expandWay(long id, List<PathStep> path) {
        Tree tree = viewer.getTree();
        if (tree.getItemCount() == 0) {
            return;
        }
        TreeItem item = tree.getItem(0);
        for (int k = 1; k < path.size(); k++) {
            if (!(materialized(item) instanceof TreeNode parent)) {
                return;
            }
            // Through the ranges a node with many children shows them in.
            for (int row : CallTreeContentProvider.rowsTo(parent.childCount(), path.get(k).index())) {
                Object data = materialized(item);
                if (data == null) {
                    return;
                }
                viewer.setExpandedState(data, true);
                if (row >= item.getItemCount()) {
                    return;
                }
                item = item.getItem(row);
            }
        }
        // The node that shows id: itself, or the collapsed node that absorbed its call.
        long shown = path.get(path.size() - 1).id();
        if (materialized(item) instanceof TreeNode n && n.id() == shown) {
            // Selected as a click selects it: the item itself (its element may be a page read
            // again meanwhile), then the viewer's listeners and the other views are told.
            tree.setSelection(item);
            tree.showItem(item);
            org.eclipse.swt.widgets.Event e = new org.eclipse.swt.widgets.Event();
            e.item = item;
            tree.notifyListeners(SWT.Selection, e);
        }
    }

    /**
     * The element of a virtual item: reading its text makes SWT ask the content provider for an
     * item not read yet or cleared since (after an answer).
     */
    private static Object materialized(TreeItem item) {
        item.getText();
        return item.getData();
    }

    @Override
    protected void sessionChanged(TraceSession session) {
        jvms = List.of();
        stopped = false;
        revealed = -1;
        buggy = -1;
        last = null;
        longestLabel = 0;
        fitColumn();
        BugMarkers.clear();
        candidates.setVisible(false);
        ((org.eclipse.swt.layout.GridData) candidates.getLayoutData()).exclude = true;
        if (session == null) {
            viewer.setInput(null);
            return;
        }
        // A new session starts with its launch's strategy (the preferences' by default).
        checkStrategy(PreferenceConstants.store().getString(PreferenceConstants.STRATEGY));
        status.setText("Opening " + session.name() + "\u2026");
        status.setImage(Theme.icon("running"));
        Job job = Job.create("Opening " + session.name(), monitor -> {
            try {
                TreeNode root = session.root();
                Question q = session.nextQuestion();
                RecordingStatus st = session.status();
                jvms = session.jvms();
                ui(() -> {
                    if (session() == session) {
                        viewer.setInput(new CallTreeContentProvider.Input(session, root));
                        show(q, st, session);
                    }
                });
            } catch (HindsightException | RuntimeException e) {
                ui(() -> {
                    if (session() == session) {
                        showStatus(new RecordingStatus("empty", null, 0, 0, 0), session);
                        showError("opening the trace", e);
                    }
                });
            }
            return Status.OK_STATUS;
        });
        job.schedule();
    }

    /** The viewer, for tests and for other views that link to this one. */
    public TreeViewer viewer() {
        return viewer;
    }

    @Override
    public <T> T getAdapter(Class<T> adapter) {
        if (adapter == org.eclipse.ui.part.IShowInSource.class) {
            return adapter.cast((org.eclipse.ui.part.IShowInSource)
                    () -> new org.eclipse.ui.part.ShowInContext(null, viewer.getSelection()));
        }
        if (adapter == org.eclipse.ui.part.IShowInTargetList.class) {
            return adapter.cast((org.eclipse.ui.part.IShowInTargetList)
                    () -> new String[] {NodeView.ID, EventListView.ID});
        }
        return super.getAdapter(adapter);
    }

    /** The status line (recording, failure), for tests. */
    public String statusText() {
        return status.getText();
    }

    /** The line under it (what to do next), for tests. */
    public String verdictText() {
        return verdict.getText();
    }

    /** The candidates shown for an undecided end, for tests. */
    public Table candidates() {
        return candidates;
    }

    @Override
    public void dispose() {
        PreferenceConstants.store().removePropertyChangeListener(preferences);
        super.dispose();
    }

    @Override
    public void setFocus() {
        viewer.getControl().setFocus();
    }

    /**
     * A node's label, icons and colours: valid green with a tick, invalid red with a cross, the
     * buggy node in a stronger red, bold, with a bug icon, trusted yellow with a shield (every
     * call of a trusted method: the core reports it on each), don't know with a question mark, a
     * running call with an ellipsis; beside it the icon of the node's kind (a call, a loop, an
     * iteration, collapsed calls, a projected chain). Colours are the theme's.
     */
    /** The one column of the tree; its width follows the view and the longest label shown. */
    private TreeColumn column;
    /** The longest label shown so far, in characters. */
    private int longestLabel;
    private boolean widthQueued;

    /**
     * A tree without columns makes GTK compute its scroll width over every expanded row each
     * time a row's text is set (SWT's Tree.setScrollWidth): with thousands of rows expanded in
     * a live tree, one UI-thread task took 0.9-2 s. With one column of its own width it does not;
     * the column is as wide as the view, or as the longest label read so far.
     */
    private void oneColumn(Tree tree) {
        column = new TreeColumn(tree, SWT.LEFT);
        tree.setHeaderVisible(false);
        tree.addListener(SWT.Resize, e -> fitColumn());
        fitColumn();
    }

    private void fitColumn() {
        widthQueued = false;
        Tree tree = viewer.getTree();
        if (tree.isDisposed()) {
            return;
        }
        org.eclipse.swt.graphics.GC gc = new org.eclipse.swt.graphics.GC(tree);
        double charWidth;
        try {
            charWidth = gc.getFontMetrics().getAverageCharacterWidth();
        } finally {
            gc.dispose();
        }
        // Room for the indentation of deep calls and the icon besides the text.
        int wanted = Math.min(20_000, (int) Math.ceil(longestLabel * charWidth * 1.15) + 400);
        int width = Math.max(tree.getClientArea().width, wanted);
        if (column.getWidth() != width) {
            column.setWidth(width);
        }
    }

    /** Notes a label's length; the column grows (later, once) when it is the longest yet. */
    private void labelShown(String text) {
        if (text.length() > longestLabel) {
            longestLabel = text.length();
            if (!widthQueued && !viewer.getTree().isDisposed()) {
                widthQueued = true;
                viewer.getTree().getDisplay().asyncExec(this::fitColumn);
            }
        }
    }

    final class CallLabelProvider extends LabelProvider implements IColorProvider, IFontProvider {
        @Override
        public String getText(Object element) {
            if (element instanceof TreeNode n) {
                String text = n.id() == buggy ? "BUG: " + n.label() : n.label();
                labelShown(text);
                return text;
            }
            return element instanceof CallTreeContentProvider.Range r ? r.toString() : super.getText(element);
        }

        /**
         * Two icons side by side: the answer (or the bug, or running) and the node's kind
         * (call, loop, iteration, collapsed, projected); none for the run and the threads.
         */
        @Override
        public Image getImage(Object element) {
            if (!(element instanceof TreeNode n) || !n.kind().isAskable()) {
                return null;
            }
            String state;
            if (n.id() == buggy) {
                state = "bug";
            } else if (n.answer() == null) {
                state = n.complete() ? null : "running";
            } else {
                state = switch (n.answer()) {
                    case VALID -> "valid";
                    case INVALID -> "invalid";
                    case TRUSTED -> "trusted";
                    case DONT_KNOW -> "dontknow";
                };
            }
            return Theme.nodeIcon(state, kindIcon(n));
        }

        @Override
        public Color getForeground(Object element) {
            return null;
        }

        @Override
        public Color getBackground(Object element) {
            if (!(element instanceof TreeNode n)) {
                return null;
            }
            Control c = viewer.getControl();
            if (n.id() == buggy) {
                return Theme.color(Theme.BUGGY, c);
            }
            if (n.answer() == null) {
                return null;
            }
            return switch (n.answer()) {
                case VALID -> Theme.color(Theme.VALID, c);
                case INVALID -> Theme.color(Theme.INVALID, c);
                case TRUSTED -> Theme.color(Theme.TRUSTED, c);
                case DONT_KNOW -> null;
            };
        }

        @Override
        public Font getFont(Object element) {
            return element instanceof TreeNode n && n.id() == buggy
                    ? JFaceResources.getFontRegistry().getBold(JFaceResources.DEFAULT_FONT) : null;
        }
    }
}
