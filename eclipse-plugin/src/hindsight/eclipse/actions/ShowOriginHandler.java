package hindsight.eclipse.actions;

import hindsight.eclipse.views.NodeView;
import org.eclipse.core.commands.AbstractHandler;
import org.eclipse.core.commands.ExecutionEvent;

/** Goes to the write behind the value of the variable selected in the Node view. */
public class ShowOriginHandler extends AbstractHandler {
    @Override
    public Object execute(ExecutionEvent event) {
        var page = Views.page(event);
        if (page != null && page.findView(NodeView.ID) instanceof NodeView v) {
            v.showOrigin();
        }
        return null;
    }
}
