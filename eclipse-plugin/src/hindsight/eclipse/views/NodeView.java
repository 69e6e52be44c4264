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
import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.jface.action.GroupMarker;
import org.eclipse.jface.action.MenuManager;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.jface.viewers.ITreeContentProvider;
import org.eclipse.jface.viewers.TreeViewer;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.ui.ISelectionListener;
import org.eclipse.ui.IWorkbenchActionConstants;

/**
 * The selected node's variables: the old value at the lower bound (the node's entry), the new
 * value at the upper bound (its exit, or the event selected in the Event List). Changed values are
 * red and marked \u25cf, changed contents yellow and marked \u25d0. A call shows its locals,
 * {@code this} and statics; a loop or an iteration its frame's (the call it runs in) between its
 * entry and exit; a collapsed or projected chain what it works on (the calls' receiver, the objects
 * the first call was given, statics) from its first call's entry to its last call's exit, and the
 * calls' results.
 */
public class NodeView extends SessionView implements org.eclipse.ui.part.IShowInTarget {
    public static final String ID = "hindsight.eclipse.views.node";

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
                show(n.exit(), "at its exit");
            } else if (first instanceof TraceEvent e && node != null) {
                show(e.timestamp(), "at " + e.description() + " (t=" + e.timestamp() + ")");
            }
        }
    };

    @Override
    protected Control createContent(Composite parent) {
        viewer = new TreeViewer(parent, SWT.SINGLE | SWT.FULL_SELECTION);
        viewer.setContentProvider(new VariableContentProvider());
        Control c = viewer.getControl();
        Columns.add(viewer, "Variable", 150, Object.class,
                e -> e instanceof VariableValue v ? v.name() : e instanceof Range r ? r.label() : "", null, null);
        Columns.add(viewer, "Old value (entry)", 190, VariableValue.class, VariableValue::oldValue, null, null);
        // Never colour alone: a changed value is marked in text too.
        Columns.add(viewer, "New value", 230, VariableValue.class,
                v -> switch (v.change()) {
                    case CHANGED -> "\u25cf " + v.newValue();
                    case CONTENTS_CHANGED -> "\u25d0 " + v.newValue();
                    case NONE -> v.newValue();
                },
                v -> v.change() == VariableValue.Change.CHANGED ? Theme.color(Theme.CHANGED, c) : null,
                v -> v.change() == VariableValue.Change.CONTENTS_CHANGED ? Theme.color(Theme.CONTAINS_CHANGE, c) : null);
        viewer.getTree().setToolTipText("\u25cf changed since the call's entry; \u25d0 contents changed");
        getSite().setSelectionProvider(viewer);
        getSite().getPage().addSelectionListener(ComputationTreeView.ID, listener);
        getSite().getPage().addSelectionListener(EventListView.ID, listener);
        contextMenu();
        return viewer.getControl();
    }

    /** Shows node {@code n} at timestamp {@code at} (the Variable History's moment of a write). */
    public void showAt(TreeNode n, long at, String what) {
        node = n;
        show(at, what);
    }

    /** The variable's origin: the write behind its value at the moment shown, selected in the views. */
    public void showOrigin() {
        VariableValue v = selected();
        TraceSession s = session();
        if (v == null || s == null || node == null || state == null) {
            return;
        }
        try {
            Origin o = s.origin(v.path(), state.at());
            String where = o.method() + (o.line() > 0 ? " line " + o.line() : "");
            setContentDescription(v.path() + " came from " + o.description() + " in " + where + " (t="
                    + o.timestamp() + ")");
            if (o.node() >= 0) {
                Navigation.goTo(getSite().getPage(), o.node(), o.timestamp());
            }
        } catch (HindsightException e) {
            showError("finding the origin of " + v.path(), e);
        }
    }

    private void contextMenu() {
        menu = new MenuManager("#PopupMenu");
        menu.add(new GroupMarker(IWorkbenchActionConstants.MB_ADDITIONS));
        viewer.getControl().setMenu(menu.createContextMenu(viewer.getControl()));
        getSite().registerContextMenu(menu, viewer);
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

    private VariableValue selected() {
        Object first = viewer.getStructuredSelection().getFirstElement();
        return first instanceof VariableValue v ? v : null;
    }

    private void show(long at, String when) {
        TraceSession s = session();
        TreeNode n = node;
        if (s == null || n == null) {
            return;
        }
        if (state != null && state.node() == n.id() && state.at() == at && session() == shownFor) {
            return;
        }
        if (!n.kind().isAskable()) {
            // The run and its threads are not calls: they have no variables.
            requests++;
            state = null;
            viewer.setInput(null);
            setContentDescription(n.label() + ": select a call to see its variables");
            return;
        }
        // The header names the node shown (a call's method, a loop's, a chain's) and the
        // moment, not an internal path.
        String call = n.title();
        int mine = ++requests;
        Job job = Job.create("Reading the variables of " + call, monitor -> {
            try {
                NodeState st = s.nodeState(n.id(), at);
                ui(() -> {
                    if (mine == requests && session() == s) {
                        state = st;
                        shownFor = s;
                        viewer.setInput(st);
                        setContentDescription(call + " " + when);
                    }
                });
            } catch (HindsightException | RuntimeException e) {
                ui(() -> showError("reading the state of " + call, e));
            }
            return Status.OK_STATUS;
        });
        job.schedule();
    }

    /** Requests made: only the latest one's state is shown. */
    private int requests;
    /** The session {@link #state} was read from. */
    private TraceSession shownFor;

    private void ui(Runnable r) {
        if (!viewer.getControl().isDisposed()) {
            viewer.getControl().getDisplay().asyncExec(() -> {
                if (!viewer.getControl().isDisposed()) {
                    r.run();
                }
            });
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

    @Override
    public boolean show(org.eclipse.ui.part.ShowInContext context) {
        if (context.getSelection() instanceof IStructuredSelection s && s.getFirstElement() instanceof TreeNode n) {
            node = n;
            show(n.exit(), "at its exit");
            return true;
        }
        return false;
    }
}
