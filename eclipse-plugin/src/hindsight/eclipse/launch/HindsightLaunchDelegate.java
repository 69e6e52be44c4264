package hindsight.eclipse.launch;

import hindsight.eclipse.Activator;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.debug.core.ILaunchConfiguration;
import org.eclipse.jdt.launching.JavaLaunchDelegate;

/**
 * Launches a Java application like Eclipse's own delegate, with the recording agent attached:
 * {@code -javaagent:<agent jar>=socket=<path>}, where the path names a fresh Unix socket in the
 * plugin's state area on which the recorder of the session listens.
 */
public class HindsightLaunchDelegate extends JavaLaunchDelegate {
    public static final String TYPE_ID = "hindsight.eclipse.launch";

    @Override
    public String getVMArguments(ILaunchConfiguration configuration) throws CoreException {
        return agentArgument(AgentJar.file(), newSocketPath()) + " " + super.getVMArguments(configuration);
    }

    /** The agent option, quoted when a path holds spaces (the VM arguments are parsed like a shell's). */
    public static String agentArgument(File agent, Path socket) {
        String arg = "-javaagent:" + agent.getAbsolutePath() + "=socket=" + socket.toAbsolutePath();
        return arg.contains(" ") ? '"' + arg + '"' : arg;
    }

    private static Path newSocketPath() throws CoreException {
        try {
            Path dir = Activator.getDefault().getStateLocation().toFile().toPath().resolve("sessions");
            Files.createDirectories(dir);
            return Files.createTempDirectory(dir, "run").resolve("recorder.sock");
        } catch (IOException e) {
            throw AgentJar.error("cannot create the recorder socket directory: " + e.getMessage(), e);
        }
    }
}
