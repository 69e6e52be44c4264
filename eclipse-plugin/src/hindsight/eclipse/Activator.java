package hindsight.eclipse;

import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.Status;
import org.eclipse.ui.plugin.AbstractUIPlugin;
import org.osgi.framework.BundleContext;

/** The plugin: its preferences and its log. */
public class Activator extends AbstractUIPlugin {
    public static final String PLUGIN_ID = "hindsight.eclipse";
    private static Activator plugin;

    @Override
    public void start(BundleContext context) throws Exception {
        super.start(context);
        plugin = this;
    }

    @Override
    public void stop(BundleContext context) throws Exception {
        plugin = null;
        super.stop(context);
    }

    public static Activator getDefault() {
        return plugin;
    }

    /** Logs an error to the Error Log with its cause. */
    public static void log(String message, Throwable t) {
        Activator p = plugin;
        if (p != null) {
            p.getLog().log(new Status(IStatus.ERROR, PLUGIN_ID, message, t));
        }
    }
}
