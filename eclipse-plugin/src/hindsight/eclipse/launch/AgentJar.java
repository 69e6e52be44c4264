package hindsight.eclipse.launch;

import hindsight.eclipse.Activator;
import java.io.File;
import java.io.IOException;
import java.net.URL;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.core.runtime.FileLocator;
import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.Platform;
import org.eclipse.core.runtime.Status;

/** The recording agent jar the plugin carries ({@code agent/hindsight-agent.jar}), as a file. */
public final class AgentJar {
    /** The agent's path inside the bundle. */
    public static final String ENTRY = "agent/hindsight-agent.jar";

    private AgentJar() {
    }

    /** Extracts the agent jar from the bundle (once; Equinox caches it) and returns its file. */
    public static File file() throws CoreException {
        URL entry = Platform.getBundle(Activator.PLUGIN_ID).getEntry(ENTRY);
        if (entry == null) {
            throw error("the Hindsight plugin carries no " + ENTRY + "; reinstall it from the update site", null);
        }
        try {
            return new File(FileLocator.toFileURL(entry).getPath());
        } catch (IOException e) {
            throw error("cannot extract " + ENTRY + " from the Hindsight plugin: " + e.getMessage(), e);
        }
    }

    static CoreException error(String message, Throwable cause) {
        return new CoreException(new Status(IStatus.ERROR, Activator.PLUGIN_ID, message, cause));
    }
}
