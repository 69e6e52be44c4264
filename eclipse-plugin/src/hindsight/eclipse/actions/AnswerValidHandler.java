package hindsight.eclipse.actions;

import hindsight.eclipse.core.Answer;

/** Answers {@link Answer#VALID} about the call selected in the Computation Tree. */
public class AnswerValidHandler extends AnswerHandler {
    public AnswerValidHandler() {
        super(Answer.VALID);
    }
}
