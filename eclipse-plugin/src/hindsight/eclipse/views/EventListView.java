package hindsight.eclipse.views;

import hindsight.eclipse.core.EventPage;
import hindsight.eclipse.core.HindsightException;
import hindsight.eclipse.core.TraceEvent;
import hindsight.eclipse.core.TraceSession;
import hindsight.eclipse.core.TreeNode;
import hindsight.eclipse.core.VariableValue;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.jface.action.GroupMarker;
import org.eclipse.jface.action.MenuManager;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.jface.viewers.StructuredSelection;
import org.eclipse.jface.viewers.TableViewer;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.ui.ISelectionListener;
import org.eclipse.ui.IWorkbenchActionConstants;

/**
 * The events of the selected call in a virtual table read in pages, a page more each time the
 * user scrolls to the end (never the whole call in the background); the events that change the
 * variable selected in the Node view are red and marked, the calls in which it changes yellow
 * and marked. Selecting an event moves the Node view to that moment; double-click opens its line.
 */
public class EventListView extends SessionView implements org.eclipse.ui.part.IShowInTarget {
    public static final String ID = "hindsight.eclipse.views.events";

    private TableViewer viewer;
    private volatile TreeNode node;
    private volatile String variable;
    private Rows rows;
    /** A timestamp to select once its page arrived (Show Origin, the Variable History). */
    private long pendingSelect = -1;
    private final ISelectionListener listener = (part, selection) -> {
        if (selection instanceof IStructuredSelection s) {
            Object first = s.getFirstElement();
            if (first instanceof TreeNode n) {
                if (node == null || node.id() != n.id()) {
                    node = n;
                    variable = null;
                    pendingSelect = -1;
                    reload();
                }
            } else if (first instanceof VariableValue v) {
                variable = v.path();
                pendingSelect = -1;
                reload();
            }
        }
    };

    /** Events as pages from timestamps: the cursor of each page is learnt reading the one before. */
    private final class Rows extends PagedRows<TraceEvent> {
        private final List<Long> cursors = Collections.synchronizedList(new ArrayList<>(List.of(0L)));
        private volatile int total = -1;

        Rows(TableViewer v) {
            super(v, "events");
        }

        @Override
        List<TraceEvent> load(int page, IProgressMonitor monitor) throws HindsightException {
            TraceSession s = session();
            TreeNode n = node;
            String var = variable;
            if (s == null || n == null) {
                return List.of();
            }
            // Walk from the last known cursor to this page.
            for (int p = Math.min(page, cursors.size() - 1); p <= page; p++) {
                long from = cursors.get(p);
                if (from < 0) {
                    return List.of();
                }
                EventPage got = s.eventPage(n.id(), var, from, PAGE);
                synchronized (cursors) {
                    if (cursors.size() == p + 1) {
                        cursors.add(got.next());
                    }
                }
                if (got.next() < 0) {
                    total = p * PAGE + got.events().size();
                }
                if (p == page || monitor.isCanceled()) {
                    return got.events();
                }
            }
            return List.of();
        }

        @Override
        int rowCount() {
            // Until the last page is read, one row more announces the rest.
            return total >= 0 ? total : (cursors.size() - 1) * PAGE + 1;
        }

        @Override
        void loaded(int page) {
            // No reading ahead: the next page is read when the row that announces it is shown
            // (the user scrolled to the end), so the table holds what was shown plus a page and
            // clearing it when another call is selected stays small. Only an event to select
            // (Show Origin) that is not in this page reads on.
            if (!selectPending(page) && pendingSelect >= 0) {
                if (total < 0 && page == cursors.size() - 2) {
                    request(page + 1);
                } else if (total >= 0) {
                    pendingSelect = -1;
                }
            }
        }

        @Override
        void failed(String message) {
            setContentDescription(message);
        }

        void restart() {
            reset();
            cursors.clear();
            cursors.add(0L);
            total = -1;
        }
    }

    @Override
    protected Control createContent(Composite parent) {
        viewer = new TableViewer(parent, SWT.SINGLE | SWT.FULL_SELECTION | SWT.VIRTUAL);
        // No hash lookup: a million rows would be a million map entries, rehashed as they come.
        rows = new Rows(viewer);
        viewer.setContentProvider(rows);
        Control c = viewer.getControl();
        Columns.add(viewer, "Timestamp", 90, TraceEvent.class, e -> Long.toString(e.timestamp()),
                e -> e.mark() == TraceEvent.Mark.CHANGES ? Theme.color(Theme.CHANGED, c) : null,
                e -> e.mark() == TraceEvent.Mark.CONTAINS_CHANGE ? Theme.color(Theme.CONTAINS_CHANGE, c) : null);
        // Never colour alone: the mark is in the text too.
        Columns.add(viewer, "Event", 420, TraceEvent.class, e -> switch (e.mark()) {
            case CHANGES -> "\u25cf " + e.description();
            case CONTAINS_CHANGE -> "\u25d0 " + e.description();
            case NONE -> e.description();
        }, e -> e.mark() == TraceEvent.Mark.CHANGES ? Theme.color(Theme.CHANGED, c) : null,
                e -> e.mark() == TraceEvent.Mark.CONTAINS_CHANGE ? Theme.color(Theme.CONTAINS_CHANGE, c) : null);
        Columns.add(viewer, "Line", 60, TraceEvent.class, e -> e.line() > 0 ? Integer.toString(e.line()) : "",
                null, null);
        viewer.getTable().setToolTipText("\u25cf writes the variable selected in the Node view; "
                + "\u25d0 a call in which it changes. Double-click: open the line");
        viewer.addDoubleClickListener(e -> {
            if (e.getSelection() instanceof IStructuredSelection s && s.getFirstElement() instanceof TraceEvent ev
                    && node != null) {
                String why = SourceLines.openReporting(getSite().getPage(), node.method(), ev.line());
                if (why != null) {
                    setContentDescription(why);
                }
            }
        });
        getSite().setSelectionProvider(viewer);
        getSite().getPage().addSelectionListener(ComputationTreeView.ID, listener);
        getSite().getPage().addSelectionListener(NodeView.ID, listener);
        MenuManager menu = new MenuManager("#PopupMenu");
        menu.add(new GroupMarker(IWorkbenchActionConstants.MB_ADDITIONS));
        viewer.getControl().setMenu(menu.createContextMenu(viewer.getControl()));
        getSite().registerContextMenu(menu, viewer);
        return viewer.getControl();
    }

    /** Shows the events of {@code n} and selects the one at {@code timestamp} once it is read. */
    public void showNode(TreeNode n, long timestamp) {
        node = n;
        variable = null;
        pendingSelect = timestamp;
        reload();
    }

    private void reload() {
        TraceSession s = session();
        TreeNode n = node;
        if (s == null || n == null) {
            return;
        }
        rows.restart();
        // The table holds at most what was scrolled through plus a page: emptied first, in one
        // call, before the viewer refreshes for the new input.
        viewer.setItemCount(0);
        viewer.setInput(n);
        setContentDescription("Events of " + n.title()
                + (variable != null ? ", marked for " + Paths.display(variable) : ""));
        rows.request(0);
    }

    /**
     * Selects the pending event if it is in {@code page}; true when nothing is pending any more
     * (selected, or the events of the call end before it).
     */
    private boolean selectPending(int page) {
        if (pendingSelect < 0) {
            return true;
        }
        int count = viewer.getTable().getItemCount();
        for (int i = page * PagedRows.PAGE; i < Math.min(count, (page + 1) * PagedRows.PAGE); i++) {
            TraceEvent e = rows.row(i);
            if (e == null) {
                return false;
            }
            if (e.timestamp() >= pendingSelect) {
                pendingSelect = -1;
                viewer.setSelection(new StructuredSelection(e), true);
                viewer.getTable().setSelection(i);
                viewer.getTable().showSelection();
                return true;
            }
        }
        return false;
    }

    /** The method of the call shown, or null. */
    public String method() {
        TreeNode n = node;
        return n == null ? null : n.method();
    }

    @Override
    protected void sessionChanged(TraceSession session) {
        node = null;
        variable = null;
        pendingSelect = -1;
        rows.restart();
        viewer.setItemCount(0);
        viewer.setInput(null);
    }

    /** The viewer, for tests and for other views that link to this one. */
    public TableViewer viewer() {
        return viewer;
    }

    /** Row {@code i} if read (null while its page is read), for tests. */
    public TraceEvent row(int i) {
        return rows.row(i);
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

    @Override
    public boolean show(org.eclipse.ui.part.ShowInContext context) {
        if (context.getSelection() instanceof IStructuredSelection s && s.getFirstElement() instanceof TreeNode n) {
            showNode(n, -1);
            return true;
        }
        return false;
    }
}
