package hindsight.eclipse.actions;

import hindsight.eclipse.core.Answer;

/** Answers {@link Answer#DONT_KNOW} about the call selected in the Computation Tree. */
public class AnswerDontKnowHandler extends AnswerHandler {
    public AnswerDontKnowHandler() {
        super(Answer.DONT_KNOW);
    }
}
