package hindsight.eclipse.actions;

import hindsight.eclipse.core.HistoryEntry;
import hindsight.eclipse.core.TraceEvent;
import hindsight.eclipse.core.TreeNode;
import hindsight.eclipse.views.EventListView;
import hindsight.eclipse.views.SourceLines;
import org.eclipse.core.commands.AbstractHandler;
import org.eclipse.core.commands.ExecutionEvent;
import org.eclipse.jface.viewers.IStructuredSelection;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.handlers.HandlerUtil;

/** Opens the source of the selected call (its method), event (its line) or change (its line). */
public class ShowSourceHandler extends AbstractHandler {
    @Override
    public Object execute(ExecutionEvent event) {
        IWorkbenchPage page = Views.page(event);
        if (!(HandlerUtil.getCurrentSelection(event) instanceof IStructuredSelection s) || page == null) {
            return null;
        }
        Object o = s.getFirstElement();
        if (o instanceof TreeNode n) {
            SourceLines.openMethod(page, n.method());
        } else if (o instanceof HistoryEntry h) {
            SourceLines.openReporting(page, h.method(), h.line());
        } else if (o instanceof TraceEvent e && page.findView(EventListView.ID) instanceof EventListView v) {
            SourceLines.openReporting(page, v.method(), e.line());
        }
        return null;
    }
}
