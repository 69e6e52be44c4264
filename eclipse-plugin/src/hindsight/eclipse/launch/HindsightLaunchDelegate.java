package hindsight.eclipse.launch;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.debug.core.ILaunchConfiguration;
import org.eclipse.jdt.launching.JavaLaunchDelegate;

/**
 * Launches a Java application like Eclipse's own delegate, with the recording agent attached:
 * {@code -javaagent:<agent jar>=socket=<path>}, where the path names a fresh Unix socket on which
 * the recorder of the session listens.
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

    /** Unix socket paths are limited to 107 bytes on Linux (sun_path). */
    public static final int MAX_SOCKET_PATH = 107;

    /**
     * A socket path in a fresh private directory under the temporary directory: the workspace's
     * state area is often too deep for the 107-byte limit of Unix socket paths.
     */
    public static Path newSocketPath() throws CoreException {
        try {
            Path socket = Files.createTempDirectory("hindsight-").resolve("recorder.sock");
            if (socket.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8).length > MAX_SOCKET_PATH) {
                throw AgentJar.error("the recorder socket path " + socket + " is longer than " + MAX_SOCKET_PATH
                        + " bytes; set java.io.tmpdir to a shorter directory", null);
            }
            return socket;
        } catch (IOException e) {
            throw AgentJar.error("cannot create the recorder socket directory: " + e.getMessage(), e);
        }
    }
}
