package hindsight.eclipse.actions;

import hindsight.eclipse.core.Answer;

/** Answers {@link Answer#INVALID} about the call selected in the Computation Tree. */
public class AnswerInvalidHandler extends AnswerHandler {
    public AnswerInvalidHandler() {
        super(Answer.INVALID);
    }
}
