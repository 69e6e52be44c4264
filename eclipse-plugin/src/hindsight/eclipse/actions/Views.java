package hindsight.eclipse.actions;

import hindsight.eclipse.views.ComputationTreeView;
import org.eclipse.core.commands.ExecutionEvent;
import org.eclipse.ui.IWorkbenchPage;
import org.eclipse.ui.IWorkbenchWindow;
import org.eclipse.ui.PartInitException;
import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.handlers.HandlerUtil;

/** The Hindsight views a command works on. */
final class Views {
    private Views() {
    }

    static IWorkbenchPage page(ExecutionEvent event) {
        IWorkbenchWindow w = event == null ? null : HandlerUtil.getActiveWorkbenchWindow(event);
        if (w == null) {
            w = PlatformUI.getWorkbench().getActiveWorkbenchWindow();
        }
        return w == null ? null : w.getActivePage();
    }

    /** The Computation Tree of the active page, opened if need be. */
    static ComputationTreeView tree(ExecutionEvent event) {
        IWorkbenchPage page = page(event);
        if (page == null) {
            return null;
        }
        try {
            return (ComputationTreeView) page.showView(ComputationTreeView.ID, null, IWorkbenchPage.VIEW_VISIBLE);
        } catch (PartInitException e) {
            return null;
        }
    }
}
