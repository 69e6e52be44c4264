package hindsight.eclipse.views;

import hindsight.eclipse.core.Answer;
import hindsight.eclipse.core.TreeNode;
import hindsight.eclipse.core.HindsightException;
import hindsight.eclipse.core.PathStep;
import hindsight.eclipse.core.Question;
import hindsight.eclipse.core.Strategies;
import hindsight.eclipse.core.TraceSession;
import hindsight.eclipse.preferences.PreferenceConstants;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jface.action.Action;
import org.eclipse.jface.action.IAction;
import org.eclipse.jface.action.IMenuManager;
import org.eclipse.jface.action.IToolBarManager;
import org.eclipse.jface.util.IPropertyChangeListener;
import org.eclipse.jface.viewers.IColorProvider;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.jface.viewers.LabelProvider;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.jface.viewers.TreeViewer;
import org.eclipse.swt.SWT;
import org.eclipse.swt.graphics.Color;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.swt.widgets.Tree;
import org.eclipse.swt.widgets.TreeItem;

/** The execution tree, with the answer and undo actions and the strategy menu. */
public class ComputationTreeView extends SessionView {
    public static final String ID = "hindsight.eclipse.views.tree";

    private TreeViewer viewer;
    private CallTreeContentProvider provider;
    private final List<IAction> sessionActions = new ArrayList<>();

    @Override
    protected Control createContent(Composite parent) {
        viewer = new TreeViewer(parent, SWT.VIRTUAL | SWT.SINGLE | SWT.FULL_SELECTION);
        viewer.setUseHashlookup(true);
        provider = new CallTreeContentProvider(viewer);
        viewer.setContentProvider(provider);
        viewer.setLabelProvider(new CallLabelProvider());
        getSite().setSelectionProvider(viewer);
        contributeActions();
        return viewer.getControl();
    }

    private void contributeActions() {
        IToolBarManager bar = getViewSite().getActionBars().getToolBarManager();
        for (Answer a : Answer.values()) {
            IAction action = new Action(capitalised(a.label())) {
                @Override
                public void run() {
                    answer(a);
                }
            };
            action.setId("hindsight.eclipse.answer." + a.name().toLowerCase(java.util.Locale.ROOT));
            action.setToolTipText("Answer " + a.label() + " about the selected call");
            sessionActions.add(action);
            bar.add(action);
        }
        IAction undo = new Action("Undo") {
            @Override
            public void run() {
                withSession("undo", TraceSession::undo);
            }
        };
        undo.setId("hindsight.eclipse.undo");
        sessionActions.add(undo);
        bar.add(undo);
        IMenuManager menu = getViewSite().getActionBars().getMenuManager();
        for (String[] s : Strategies.ALL) {
            IAction choose = new Action(s[1], IAction.AS_RADIO_BUTTON) {
                @Override
                public void run() {
                    if (isChecked()) {
                        // Live sessions too: the core keeps the answers and asks the next
                        // question with the new strategy.
                        withSession("choosing the strategy",
                                t -> t.setStrategy(s[0], PreferenceConstants.p(s[0])));
                    }
                }
            };
            choose.setId(STRATEGY_ACTION + s[0]);
            sessionActions.add(choose);
            strategyActions.add(choose);
            menu.add(choose);
        }
        checkStrategy(PreferenceConstants.store().getString(PreferenceConstants.STRATEGY));
        PreferenceConstants.store().addPropertyChangeListener(preferences);
    }

    /** The prefix of the strategy actions' ids; the strategy's name follows. */
    public static final String STRATEGY_ACTION = "hindsight.eclipse.strategy.";

    private final List<IAction> strategyActions = new ArrayList<>();

    /** A new strategy in the preferences applies to the open session at once. */
    private final IPropertyChangeListener preferences = event -> {
        if (!PreferenceConstants.STRATEGY.equals(event.getProperty()) || viewer.getControl().isDisposed()) {
            return;
        }
        String strategy = String.valueOf(event.getNewValue());
        viewer.getControl().getDisplay().asyncExec(() -> {
            if (viewer.getControl().isDisposed()) {
                return;
            }
            checkStrategy(strategy);
            withSession("choosing the strategy", t -> t.setStrategy(strategy, PreferenceConstants.p(strategy)));
        });
    };

    private void checkStrategy(String strategy) {
        for (IAction a : strategyActions) {
            a.setChecked(a.getId().equals(STRATEGY_ACTION + strategy));
        }
    }

    private static String capitalised(String s) {
        return Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    /** The actions of the toolbar and view menu, for tests and key bindings. */
    public List<IAction> actions() {
        return List.copyOf(sessionActions);
    }

    private interface SessionCall {
        void run(TraceSession s) throws HindsightException;
    }

    private void withSession(String what, SessionCall call) {
        TraceSession s = session();
        if (s == null) {
            return;
        }
        try {
            call.run(s);
            // Nodes are values: answered nodes must be fetched again. Clearing the virtual items
            // makes SWT ask for the visible ones anew and keeps the expanded branches.
            provider.invalidate();
            viewer.getTree().clearAll(true);
            showQuestion(s.nextQuestion());
        } catch (HindsightException e) {
            showError(what, e);
        }
    }

    private void answer(Answer a) {
        Object sel = ((IStructuredSelection) viewer.getSelection()).getFirstElement();
        if (sel instanceof TreeNode node) {
            withSession("answering " + a.label(), s -> s.answer(node.id(), a));
        }
    }

    private void showQuestion(Question q) {
        if (q.node() != null) {
            reveal(q.node().id());
        }
        switch (q.kind()) {
            case ASK -> setContentDescription("Is this call right? " + q.node().label());
            case BUGGY -> setContentDescription("Bug found in " + q.node().method() + ": " + q.node().label());
            case NONE -> {
                setContentDescription("No question to ask yet");
                refreshWhileRecording();
            }
        }
    }

    /** How often the tree is read again while a live recording has nothing to ask yet. */
    private static final int LIVE_REFRESH_MS = 500;

    /**
     * While the session has no question (a live recording still running), reads the tree again
     * every {@link #LIVE_REFRESH_MS} ms, so that the calls appear while the program runs; stops
     * once there is a question, or the session changed or the view closed.
     */
    private void refreshWhileRecording() {
        TraceSession s = session();
        viewer.getControl().getDisplay().timerExec(LIVE_REFRESH_MS, () -> {
            if (viewer.getControl().isDisposed() || session() != s || s == null) {
                return;
            }
            try {
                // The question first: asking takes in what the recorder sent, so the root read
                // after it has every child the question may be about.
                Question q = s.nextQuestion();
                viewer.setInput(new CallTreeContentProvider.Input(s, s.root()));
                showQuestion(q);
            } catch (HindsightException e) {
                showError("reading the recording", e);
            }
        });
    }

    /**
     * Expands the way from the root to node {@code id} (the core gives each step's position among
     * its siblings, so only the items on the way are read), then selects and shows it; the other
     * views follow the selection.
     */
    public void reveal(long id) {
        TraceSession s = session();
        Tree tree = viewer.getTree();
        if (s == null || tree.getItemCount() == 0) {
            return;
        }
        try {
            List<PathStep> path = s.pathTo(id);
            TreeItem item = tree.getItem(0);
            for (int k = 1; k < path.size(); k++) {
                Object data = materialized(item);
                if (data == null) {
                    return;
                }
                viewer.setExpandedState(data, true);
                int index = path.get(k).index();
                if (index >= item.getItemCount()) {
                    return;
                }
                item = item.getItem(index);
            }
            if (materialized(item) instanceof TreeNode n && n.id() == id) {
                viewer.setSelection(new StructuredSelection(n), true);
                tree.showItem(item);
            }
        } catch (HindsightException e) {
            showError("revealing node " + id, e);
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
        for (IAction a : sessionActions) {
            a.setEnabled(session != null);
        }
        if (session == null) {
            viewer.setInput(null);
            return;
        }
        // A new session starts with the preferences' strategy (the launch and Open Trace give it).
        checkStrategy(PreferenceConstants.store().getString(PreferenceConstants.STRATEGY));
        try {
            viewer.setInput(new CallTreeContentProvider.Input(session, session.root()));
            showQuestion(session.nextQuestion());
        } catch (HindsightException e) {
            showError("opening the trace", e);
        }
    }

    /** The viewer, for tests and for other views that link to this one. */
    public TreeViewer viewer() {
        return viewer;
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
     * Colours a node by its answer: valid green, invalid red, trusted yellow (every call of a
     * trusted method: the core reports it on each), otherwise white.
     */
    static final class CallLabelProvider extends LabelProvider implements IColorProvider {
        private static final Color VALID = new Color(200, 240, 200);
        private static final Color INVALID = new Color(250, 200, 200);
        private static final Color TRUSTED = new Color(250, 240, 180);

        @Override
        public String getText(Object element) {
            return element instanceof TreeNode n ? n.label() : super.getText(element);
        }

        @Override
        public Color getForeground(Object element) {
            return null;
        }

        @Override
        public Color getBackground(Object element) {
            if (!(element instanceof TreeNode n) || n.answer() == null) {
                return null;
            }
            return switch (n.answer()) {
                case VALID -> VALID;
                case INVALID -> INVALID;
                case TRUSTED -> TRUSTED;
                case DONT_KNOW -> null;
            };
        }
    }
}
