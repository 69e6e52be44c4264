package hindsight.eclipse.actions;

import hindsight.eclipse.core.HindsightException;
import hindsight.eclipse.core.NativeSession;
import hindsight.eclipse.core.Sessions;
import hindsight.eclipse.preferences.PreferenceConstants;
import java.nio.file.Path;
import org.eclipse.core.commands.AbstractHandler;
import org.eclipse.core.commands.ExecutionEvent;
import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.Status;
import org.eclipse.core.runtime.jobs.Job;
import org.eclipse.jface.dialogs.MessageDialog;
import org.eclipse.swt.SWT;
import org.eclipse.swt.widgets.FileDialog;
import org.eclipse.swt.widgets.Shell;
import org.eclipse.ui.handlers.HandlerUtil;

/** "Open Hindsight Trace...": opens a recorded trace as the session the views show, in a Job. */
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

    /**
     * Opens {@code trace} in a Job (reading a large trace's tree takes a while; the Progress view
     * shows it and can cancel it), then shows it; tells the user in a dialog when it cannot be
     * read. Returns the Job, scheduled.
     */
    public static Job open(Shell shell, Path trace) {
        Job job = new Job("Opening Hindsight trace " + trace.getFileName()) {
            @Override
            protected IStatus run(org.eclipse.core.runtime.IProgressMonitor monitor) {
                monitor.beginTask(getName(), IProgressMonitor_UNKNOWN);
                try {
                    NativeSession session = NativeSession.open(trace,
                            PreferenceConstants.store().getString(PreferenceConstants.TRUSTED_PACKAGES),
                            PreferenceConstants.bounds(), PreferenceConstants.treeOptions());
                    if (monitor.isCanceled()) {
                        session.close();
                        return Status.CANCEL_STATUS;
                    }
                    try {
                        PreferenceConstants.applyStrategy(session);
                    } catch (HindsightException e) {
                        hindsight.eclipse.Activator.log("applying the preferences' strategy", e);
                    }
                    shell.getDisplay().asyncExec(() -> Sessions.open(session));
                } catch (HindsightException e) {
                    shell.getDisplay().asyncExec(() -> MessageDialog.openError(shell, "Hindsight",
                            "Cannot open " + trace + ":\n" + e.getMessage()));
                } finally {
                    monitor.done();
                }
                return Status.OK_STATUS;
            }
        };
        job.setUser(true);
        job.schedule();
        return job;
    }

    private static final int IProgressMonitor_UNKNOWN = org.eclipse.core.runtime.IProgressMonitor.UNKNOWN;
}
