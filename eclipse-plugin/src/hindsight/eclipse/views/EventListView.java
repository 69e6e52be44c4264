package hindsight.eclipse.views;

import hindsight.eclipse.core.TreeNode;
import hindsight.eclipse.core.HindsightException;
import hindsight.eclipse.core.TraceEvent;
import hindsight.eclipse.core.TraceSession;
import hindsight.eclipse.core.VariableValue;
import java.util.List;
import org.eclipse.jface.viewers.ArrayContentProvider;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.jface.viewers.TableViewer;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.ui.ISelectionListener;

/**
 * The events of the selected call; the events that change the variable selected in the Node view
 * are red, the calls in which it changes yellow.
 */
public class EventListView extends SessionView {
    public static final String ID = "hindsight.eclipse.views.events";

    private TableViewer viewer;
    private TreeNode node;
    private String variable;
    private final ISelectionListener listener = (part, selection) -> {
        if (selection instanceof IStructuredSelection s) {
            Object first = s.getFirstElement();
            if (first instanceof TreeNode n) {
                node = n;
                variable = null;
                reload();
            } else if (first instanceof VariableValue v) {
                variable = v.path();
                reload();
            }
        }
    };

    @Override
    protected Control createContent(Composite parent) {
        viewer = new TableViewer(parent, SWT.SINGLE | SWT.FULL_SELECTION);
        viewer.setContentProvider(ArrayContentProvider.getInstance());
        Columns.add(viewer, "Timestamp", 90, TraceEvent.class, e -> Long.toString(e.timestamp()),
                e -> e.mark() == TraceEvent.Mark.CHANGES ? Columns.RED : null,
                e -> e.mark() == TraceEvent.Mark.CONTAINS_CHANGE ? Columns.YELLOW : null);
        Columns.add(viewer, "Event", 300, TraceEvent.class, TraceEvent::description,
                e -> e.mark() == TraceEvent.Mark.CHANGES ? Columns.RED : null,
                e -> e.mark() == TraceEvent.Mark.CONTAINS_CHANGE ? Columns.YELLOW : null);
        Columns.add(viewer, "Line", 60, TraceEvent.class, e -> e.line() > 0 ? Integer.toString(e.line()) : "",
                null, null);
        getSite().setSelectionProvider(viewer);
        getSite().getPage().addSelectionListener(ComputationTreeView.ID, listener);
        getSite().getPage().addSelectionListener(NodeView.ID, listener);
        return viewer.getControl();
    }

    private void reload() {
        TraceSession s = session();
        if (s == null || node == null) {
            return;
        }
        try {
            List<TraceEvent> events = s.events(node.id(), variable);
            viewer.setInput(events);
        } catch (HindsightException e) {
            showError("reading the events of node " + node.id(), e);
        }
    }

    @Override
    protected void sessionChanged(TraceSession session) {
        node = null;
        variable = null;
        viewer.setInput(List.of());
    }

    /** The viewer, for tests and for other views that link to this one. */
    public TableViewer viewer() {
        return viewer;
    }

    @Override
    public void setFocus() {
        viewer.getControl().setFocus();
    }

    @Override
    public void dispose() {
        getSite().getPage().removeSelectionListener(ComputationTreeView.ID, listener);
        getSite().getPage().removeSelectionListener(NodeView.ID, listener);
        super.dispose();
    }
}
