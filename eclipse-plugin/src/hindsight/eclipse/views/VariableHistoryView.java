package hindsight.eclipse.views;

import hindsight.eclipse.core.HindsightException;
import hindsight.eclipse.core.HistoryEntry;
import hindsight.eclipse.core.HistoryPage;
import hindsight.eclipse.core.TraceSession;
import java.util.List;
import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.jface.action.GroupMarker;
import org.eclipse.jface.action.MenuManager;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.jface.viewers.TableViewer;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;
import org.eclipse.ui.IWorkbenchActionConstants;

/**
 * Every change of one variable over the run (value, method, timestamp, line) in a virtual table
 * read in pages. Selecting a change selects the call that made it in the Computation Tree, loads
 * its events into the Event List and moves the Node view to that moment; double-click opens
 * the line.
 */
public class VariableHistoryView extends SessionView {
    public static final String ID = "hindsight.eclipse.views.history";

    private TableViewer viewer;
    private volatile String path;
    private Rows rows;

    private final class Rows extends PagedRows<HistoryEntry> {
        private volatile int total;

        Rows(TableViewer v) {
            super(v, "the history");
        }

        @Override
        List<HistoryEntry> load(int page, IProgressMonitor monitor) throws HindsightException {
            TraceSession s = session();
            String p = path;
            if (s == null || p == null) {
                return List.of();
            }
            HistoryPage got = s.historyPage(p, page * PAGE, PAGE);
            total = got.total();
            return got.entries();
        }

        @Override
        int rowCount() {
            return total;
        }

        @Override
        void failed(String message) {
            setContentDescription(message);
        }
    }

    @Override
    protected Control createContent(Composite parent) {
        viewer = new TableViewer(parent, SWT.SINGLE | SWT.FULL_SELECTION | SWT.VIRTUAL);
        // No hash lookup: a million rows would be a million map entries, rehashed as they come.
        rows = new Rows(viewer);
        viewer.setContentProvider(rows);
        Columns.add(viewer, "Value", 160, HistoryEntry.class, HistoryEntry::value, null, null);
        Columns.add(viewer, "Method", 220, HistoryEntry.class, HistoryEntry::method, null, null);
        Columns.add(viewer, "Timestamp", 90, HistoryEntry.class, h -> Long.toString(h.timestamp()), null, null);
        Columns.add(viewer, "Line", 60, HistoryEntry.class, h -> h.line() > 0 ? Integer.toString(h.line()) : "",
                null, null);
        viewer.getTable().setToolTipText("Select: show the call and the moment of the change; double-click: "
                + "open its line");
        getSite().setSelectionProvider(viewer);
        viewer.addSelectionChangedListener(e -> {
            if (e.getSelection() instanceof IStructuredSelection s && s.getFirstElement() instanceof HistoryEntry h
                    && h.node() >= 0) {
                Navigation.goTo(getSite().getPage(), h.node(), h.timestamp());
            }
        });
        viewer.addDoubleClickListener(e -> {
            if (e.getSelection() instanceof IStructuredSelection s && s.getFirstElement() instanceof HistoryEntry h) {
                String why = SourceLines.openReporting(getSite().getPage(), h.method(), h.line());
                if (why != null) {
                    setContentDescription(why);
                }
            }
        });
        MenuManager menu = new MenuManager("#PopupMenu");
        menu.add(new GroupMarker(IWorkbenchActionConstants.MB_ADDITIONS));
        viewer.getControl().setMenu(menu.createContextMenu(viewer.getControl()));
        getSite().registerContextMenu(menu, viewer);
        return viewer.getControl();
    }

    /** Shows the history of the variable at {@code path}. */
    public void showHistory(String path) {
        showHistory(path, null);
    }

    /** Shows the history of the variable at {@code path}, named {@code display} in the header. */
    public void showHistory(String path, String display) {
        if (session() == null) {
            return;
        }
        this.path = path;
        rows.reset();
        rows.total = 0;
        viewer.setInput(path);
        viewer.setItemCount(0);
        setContentDescription("History of " + (display != null ? display : path));
        rows.request(0);
    }

    /** The path shown, or null. */
    public String path() {
        return path;
    }

    @Override
    protected void sessionChanged(TraceSession session) {
        path = null;
        rows.reset();
        viewer.setInput(null);
        viewer.setItemCount(0);
    }

    /** The viewer, for tests and for other views that link to this one. */
    public TableViewer viewer() {
        return viewer;
    }

    /** Row {@code i} if read (null while its page is read), for tests. */
    public HistoryEntry row(int i) {
        return rows.row(i);
    }

    @Override
    public void setFocus() {
        viewer.getControl().setFocus();
    }
}
