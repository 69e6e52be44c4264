package hindsight.eclipse.launch;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import hindsight.eclipse.Activator;
import hindsight.eclipse.core.HindsightException;
import hindsight.eclipse.core.NativeSession;
import hindsight.eclipse.core.Sessions;
import hindsight.eclipse.preferences.PreferenceConstants;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.IStatus;
import org.eclipse.core.runtime.Status;
import org.eclipse.debug.core.ILaunch;
import org.eclipse.debug.core.ILaunchConfiguration;
import org.eclipse.jdt.launching.JavaLaunchDelegate;

/**
 * Launches a Java application like Eclipse's own delegate, with the recording agent attached:
 * {@code -javaagent:<agent jar>=socket=<path>}, where the path names a fresh Unix socket on which
 * the recorder of the session listens.
 */
public class HindsightLaunchDelegate extends JavaLaunchDelegate {
    public static final String TYPE_ID = "hindsight.eclipse.launch";

    /**
     * JVM options that go with the agent, the same as the command line's (agent/src/lib.rs,
     * {@code JIT_OPTIONS}): the JIT keeps the entry points of instrumented code out of line.
     */
    public static final String[] JIT_OPTIONS = {
        "-XX:CompileCommand=quiet",
        "-XX:CompileCommand=dontinline,hindsight.runtime.Buf::*",
    };

    /** The socket of the live session started for the launch in progress on this thread. */
    private static final ThreadLocal<Path> LIVE_SOCKET = new ThreadLocal<>();

    /**
     * Starts the live recording through the JNI bridge before the JVM starts and opens its session
     * in {@link Sessions}, so the Computation Tree fills while the program runs. When the native
     * library cannot start it, the program still runs with the agent on a fresh socket path (it
     * then records nothing) and the error is logged.
     */
    @Override
    public void launch(ILaunchConfiguration configuration, String mode, ILaunch launch, IProgressMonitor monitor)
            throws CoreException {
        try {
            Path trace = Files.createTempDirectory("hindsight-run-").resolve("run.htrace");
            NativeSession session = NativeSession.startLive(trace, configuration.getName(),
                    PreferenceConstants.store().getString(PreferenceConstants.TRUSTED_PACKAGES),
                    PreferenceConstants.bounds());
            LIVE_SOCKET.set(session.socketPath());
            applyStrategy(session);
            Sessions.open(session);
        } catch (HindsightException | IOException e) {
            Activator.getDefault().getLog().log(new Status(IStatus.ERROR, Activator.PLUGIN_ID,
                    "Hindsight could not start the live recording; the program runs unrecorded: " + e.getMessage(), e));
        }
        try {
            super.launch(configuration, mode, launch, monitor);
        } finally {
            LIVE_SOCKET.remove();
        }
    }

    /** The preferences' strategy; a strategy the core refuses leaves its default and is logged. */
    static void applyStrategy(NativeSession session) {
        try {
            PreferenceConstants.applyStrategy(session);
        } catch (HindsightException e) {
            Activator.log("applying the preferences' strategy", e);
        }
    }

    @Override
    public String getVMArguments(ILaunchConfiguration configuration) throws CoreException {
        Path socket = LIVE_SOCKET.get();
        return String.join(" ", JIT_OPTIONS) + " "
                + agentArgument(AgentJar.file(), socket != null ? socket : newSocketPath()) + " "
                + super.getVMArguments(configuration);
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
