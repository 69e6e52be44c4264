package hindsight.eclipse.actions;

import hindsight.eclipse.views.GettingStartedView;
import org.eclipse.core.commands.AbstractHandler;
import org.eclipse.core.commands.ExecutionEvent;
import org.eclipse.ui.PartInitException;

/** Shows the Getting Started page. */
public class GettingStartedHandler extends AbstractHandler {
    @Override
    public Object execute(ExecutionEvent event) {
        var page = Views.page(event);
        if (page != null) {
            try {
                page.showView(GettingStartedView.ID);
            } catch (PartInitException e) {
                hindsight.eclipse.Activator.log("opening Getting Started with Hindsight", e);
            }
        }
        return null;
    }
}
