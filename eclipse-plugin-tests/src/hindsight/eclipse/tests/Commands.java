package hindsight.eclipse.tests;

import org.eclipse.ui.PlatformUI;
import org.eclipse.ui.handlers.IHandlerService;

/** Runs the plugin's commands as a menu item, button or key does. */
final class Commands {
    static final String VALID = "hindsight.eclipse.commands.answerValid";
    static final String INVALID = "hindsight.eclipse.commands.answerInvalid";
    static final String TRUSTED = "hindsight.eclipse.commands.answerTrusted";
    static final String DONT_KNOW = "hindsight.eclipse.commands.answerDontKnow";
    static final String UNDO = "hindsight.eclipse.commands.undo";
    static final String STOP = "hindsight.eclipse.commands.stop";
    static final String SHOW_IN_HISTORY = "hindsight.eclipse.commands.showInHistory";
    static final String SHOW_ORIGIN = "hindsight.eclipse.commands.showOrigin";

    private Commands() {
    }

    static void run(String id) throws Exception {
        IHandlerService handlers = PlatformUI.getWorkbench().getActiveWorkbenchWindow().getService(IHandlerService.class);
        handlers.executeCommand(id, null);
    }
}
