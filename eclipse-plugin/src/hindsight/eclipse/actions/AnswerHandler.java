package hindsight.eclipse.actions;

import hindsight.eclipse.core.Answer;
import hindsight.eclipse.views.ComputationTreeView;
import org.eclipse.core.commands.AbstractHandler;
import org.eclipse.core.commands.ExecutionEvent;

/** The answer commands: one subclass (and handler) per answer. */
abstract class AnswerHandler extends AbstractHandler {
    private final Answer answer;

    AnswerHandler(Answer answer) {
        this.answer = answer;
    }

    @Override
    public Object execute(ExecutionEvent event) {
        ComputationTreeView tree = Views.tree(event);
        if (tree != null) {
            tree.answerSelected(answer);
        }
        return null;
    }
}
