package hindsight.eclipse.actions;

import hindsight.eclipse.core.Answer;

/** Answers {@link Answer#TRUSTED} about the call selected in the Computation Tree. */
public class AnswerTrustedHandler extends AnswerHandler {
    public AnswerTrustedHandler() {
        super(Answer.TRUSTED);
    }
}
