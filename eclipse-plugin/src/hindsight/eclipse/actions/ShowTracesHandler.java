package hindsight.eclipse.actions;

import hindsight.eclipse.views.TracesView;
import org.eclipse.core.commands.AbstractHandler;
import org.eclipse.core.commands.ExecutionEvent;
import org.eclipse.ui.PartInitException;

/** Shows the Hindsight Traces view. */
public class ShowTracesHandler extends AbstractHandler {
    @Override
    public Object execute(ExecutionEvent event) {
        var page = Views.page(event);
        if (page != null) {
            try {
                page.showView(TracesView.ID);
            } catch (PartInitException e) {
                hindsight.eclipse.Activator.log("opening the Hindsight Traces view", e);
            }
        }
        return null;
    }
}
