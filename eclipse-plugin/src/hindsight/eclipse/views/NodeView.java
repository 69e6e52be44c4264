package hindsight.eclipse.views;

import hindsight.eclipse.core.TreeNode;
import hindsight.eclipse.core.HindsightException;
import hindsight.eclipse.core.NodeState;
import hindsight.eclipse.core.Origin;
import hindsight.eclipse.core.TraceEvent;
import hindsight.eclipse.core.TraceSession;
import hindsight.eclipse.core.VariableValue;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jface.action.Action;
import org.eclipse.jface.action.IAction;
import org.eclipse.jface.action.MenuManager;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.jface.viewers.ITreeContentProvider;
import org.eclipse.jface.viewers.TreeViewer;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.ui.ISelectionListener;
import org.eclipse.ui.PartInitException;

/**
 * The selected call's variables: the old value at the lower bound (the call's entry), the new
 * value at the upper bound (its exit, or the event selected in the Event List). Changed values are
 * red, changed contents yellow.
 */
public class NodeView extends SessionView {
    public static final String ID = "hindsight.eclipse.views.node";

    /** Ids of the context menu's actions. */
    public static final String SHOW_IN_HISTORY = "hindsight.eclipse.showInHistory";
    public static final String SHOW_ORIGIN = "hindsight.eclipse.showOrigin";

    private TreeViewer viewer;
    private MenuManager menu;
    private TreeNode node;
    /** The state shown: its bounds are those of every expansion. */
    private NodeState state;
    private final ISelectionListener listener = (part, selection) -> {
        if (selection instanceof IStructuredSelection s) {
            Object first = s.getFirstElement();
            if (first instanceof TreeNode n) {
                node = n;
                show(n.exit());
            } else if (first instanceof TraceEvent e && node != null) {
                show(e.timestamp());
            }
        }
    };

    @Override
    protected Control createContent(Composite parent) {
        viewer = new TreeViewer(parent, SWT.SINGLE | SWT.FULL_SELECTION);
        viewer.setContentProvider(new VariableContentProvider());
        Columns.add(viewer, "Variable", 160, Object.class,
                e -> e instanceof VariableValue v ? v.name() : e instanceof Range r ? r.label() : "", null, null);
        Columns.add(viewer, "Old value", 200, VariableValue.class, VariableValue::oldValue, null, null);
        Columns.add(viewer, "New value", 200, VariableValue.class, VariableValue::newValue,
                v -> v.change() == VariableValue.Change.CHANGED ? Columns.RED : null,
                v -> v.change() == VariableValue.Change.CONTENTS_CHANGED ? Columns.YELLOW : null);
        getSite().setSelectionProvider(viewer);
        getSite().getPage().addSelectionListener(ComputationTreeView.ID, listener);
        getSite().getPage().addSelectionListener(EventListView.ID, listener);
        contextMenu();
        return viewer.getControl();
    }

    private void contextMenu() {
        IAction history = new Action("Show in History View") {
            @Override
            public void run() {
                VariableValue v = selected();
                if (v == null) {
                    return;
                }
                try {
                    VariableHistoryView h = (VariableHistoryView) getSite().getPage().showView(VariableHistoryView.ID);
                    h.showHistory(v.path());
                } catch (PartInitException e) {
                    showError("opening the Variable History view", e);
                }
            }
        };
        IAction origin = new Action("Show Origin") {
            @Override
            public void run() {
                VariableValue v = selected();
                TraceSession s = session();
                if (v == null || s == null || node == null) {
                    return;
                }
                try {
                    Origin o = s.origin(v.path(), node.exit());
                    setContentDescription(v.path() + " came from " + o.description() + " in " + o.method()
                            + (o.line() > 0 ? " line " + o.line() : ""));
                } catch (HindsightException e) {
                    showError("finding the origin of " + v.path(), e);
                }
            }
        };
        history.setId(SHOW_IN_HISTORY);
        origin.setId(SHOW_ORIGIN);
        menu = new MenuManager();
        menu.add(history);
        menu.add(origin);
        viewer.getControl().setMenu(menu.createContextMenu(viewer.getControl()));
    }

    /** Fields or elements read per request, and the most ranges one level of a long array shows. */
    public static final int PAGE = 100;

    /**
     * Elements {@code from .. to} (exclusive) of the array or collection at {@code path}: a long
     * one expands into ranges of at most {@link #PAGE} elements (ranges of ranges beyond
     * {@code PAGE * PAGE}), so that only the page opened is read.
     */
    public record Range(String path, int from, int to) {
        String label() {
            return "[" + from + ".." + (to - 1) + "]";
        }
    }

    /**
     * Reads the fields and elements of a variable when it is expanded, at any depth, by its path
     * (the core resolves the path at the upper bound and compares each slot with the lower bound).
     */
    private final class VariableContentProvider implements ITreeContentProvider {
        @Override
        public Object[] getElements(Object input) {
            return input instanceof NodeState st ? st.variables().toArray() : new Object[0];
        }

        @Override
        public Object[] getChildren(Object e) {
            if (e instanceof VariableValue v) {
                if (!v.children().isEmpty()) {
                    return v.children().toArray();
                }
                return v.size() > 0 ? range(v.path(), 0, v.size()) : new Object[0];
            }
            return e instanceof Range r ? range(r.path(), r.from(), r.to()) : new Object[0];
        }

        /** The elements from..to themselves when they fit in a page, otherwise ranges of them. */
        private Object[] range(String path, int from, int to) {
            int count = to - from;
            if (count <= PAGE) {
                return page(path, from, count);
            }
            long width = PAGE;
            while ((count + width - 1) / width > PAGE) {
                width *= PAGE;
            }
            List<Range> ranges = new ArrayList<>();
            for (long start = from; start < to; start += width) {
                ranges.add(new Range(path, (int) start, (int) Math.min(to, start + width)));
            }
            return ranges.toArray();
        }

        private Object[] page(String path, int offset, int limit) {
            TraceSession s = session();
            if (s == null || state == null) {
                return new Object[0];
            }
            try {
                return s.variableChildren(path, state.from(), state.at(), offset, limit).children().toArray();
            } catch (HindsightException x) {
                showError("reading the contents of " + path, x);
                return new Object[0];
            }
        }

        @Override
        public Object getParent(Object e) {
            return null;
        }

        @Override
        public boolean hasChildren(Object e) {
            return e instanceof Range || e instanceof VariableValue v && (v.size() > 0 || !v.children().isEmpty());
        }
    }

    /** The context menu's action with {@code id}, or null. */
    public IAction action(String id) {
        var item = menu.find(id);
        return item instanceof org.eclipse.jface.action.ActionContributionItem a ? a.getAction() : null;
    }

    private VariableValue selected() {
        Object first = viewer.getStructuredSelection().getFirstElement();
        return first instanceof VariableValue v ? v : null;
    }

    private void show(long at) {
        TraceSession s = session();
        if (s == null || node == null) {
            return;
        }
        try {
            state = s.nodeState(node.id(), at);
            viewer.setInput(state);
        } catch (HindsightException e) {
            showError("reading the state of node " + node.id(), e);
        }
    }

    @Override
    protected void sessionChanged(TraceSession session) {
        node = null;
        state = null;
        viewer.setInput(null);
    }

    /** The viewer, for tests and for other views that link to this one. */
    public TreeViewer viewer() {
        return viewer;
    }

    @Override
    public void setFocus() {
        viewer.getControl().setFocus();
    }

    @Override
    public void dispose() {
        getSite().getPage().removeSelectionListener(ComputationTreeView.ID, listener);
        getSite().getPage().removeSelectionListener(EventListView.ID, listener);
        super.dispose();
    }
}
