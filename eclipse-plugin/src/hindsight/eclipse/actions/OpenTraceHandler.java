package hindsight.eclipse.actions;

import hindsight.eclipse.core.HindsightException;
import hindsight.eclipse.core.NativeSession;
import hindsight.eclipse.core.Sessions;
import hindsight.eclipse.preferences.PreferenceConstants;
import java.nio.file.Path;
import org.eclipse.core.commands.AbstractHandler;
import org.eclipse.core.commands.ExecutionEvent;
import org.eclipse.jface.dialogs.MessageDialog;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.FileDialog;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.ui.handlers.HandlerUtil;

/** "Open Trace...": opens a trace written by {@code hindsight record} as the session the views show. */
public class OpenTraceHandler extends AbstractHandler {
    public static final String COMMAND_ID = "hindsight.eclipse.commands.openTrace";

    @Override
    public Object execute(ExecutionEvent event) {
        Shell shell = HandlerUtil.getActiveShell(event);
        FileDialog dialog = new FileDialog(shell, SWT.OPEN);
        dialog.setText("Open Hindsight Trace");
        dialog.setFilterExtensions(new String[] {"*.htrace", "*"});
        String file = dialog.open();
        if (file != null) {
            open(shell, Path.of(file));
        }
        return null;
    }

    /** Opens {@code trace}, telling the user in a dialog when it cannot be read. */
    public static boolean open(Shell shell, Path trace) {
        try {
            NativeSession session = NativeSession.open(trace,
                    PreferenceConstants.store().getString(PreferenceConstants.TRUSTED_PACKAGES),
                    PreferenceConstants.bounds());
            try {
                PreferenceConstants.applyStrategy(session);
            } catch (HindsightException e) {
                hindsight.eclipse.Activator.log("applying the preferences' strategy", e);
            }
            Sessions.open(session);
            return true;
        } catch (HindsightException e) {
            MessageDialog.openError(shell, "Hindsight", "Cannot open " + trace + ": " + e.getMessage());
            return false;
        }
    }
}
