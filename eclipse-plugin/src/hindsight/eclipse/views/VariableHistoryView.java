package hindsight.eclipse.views;

import hindsight.eclipse.core.HindsightException;
import hindsight.eclipse.core.HistoryEntry;
import hindsight.eclipse.core.TraceSession;
import java.util.List;
import org.eclipse.jface.viewers.ArrayContentProvider;
import org.eclipse.jface.viewers.TableViewer;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.Composite;
import org.eclipse.swt.widgets.Control;

/** Every change of one variable over the run: value, method, timestamp and line. */
public class VariableHistoryView extends SessionView {
    public static final String ID = "hindsight.eclipse.views.history";

    private TableViewer viewer;

    @Override
    protected Control createContent(Composite parent) {
        viewer = new TableViewer(parent, SWT.SINGLE | SWT.FULL_SELECTION);
        viewer.setContentProvider(ArrayContentProvider.getInstance());
        Columns.add(viewer, "Value", 160, HistoryEntry.class, HistoryEntry::value, null, null);
        Columns.add(viewer, "Method", 200, HistoryEntry.class, HistoryEntry::method, null, null);
        Columns.add(viewer, "Timestamp", 90, HistoryEntry.class, h -> Long.toString(h.timestamp()), null, null);
        Columns.add(viewer, "Line", 60, HistoryEntry.class, h -> h.line() > 0 ? Integer.toString(h.line()) : "",
                null, null);
        getSite().setSelectionProvider(viewer);
        // Selecting a change shows the line that made it.
        viewer.addSelectionChangedListener(e -> {
            if (viewer.getStructuredSelection().getFirstElement() instanceof HistoryEntry h) {
                try {
                    SourceLines.open(getSite().getPage(), h.method(), h.line());
                } catch (org.eclipse.ui.PartInitException x) {
                    showError("opening the source of " + h.method(), x);
                }
            }
        });
        return viewer.getControl();
    }

    /** Shows the history of the variable at {@code path}. */
    public void showHistory(String path) {
        TraceSession s = session();
        if (s == null) {
            return;
        }
        try {
            viewer.setInput(s.history(path));
            setContentDescription("History of " + path);
        } catch (HindsightException e) {
            showError("reading the history of " + path, e);
        }
    }

    @Override
    protected void sessionChanged(TraceSession session) {
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
}
