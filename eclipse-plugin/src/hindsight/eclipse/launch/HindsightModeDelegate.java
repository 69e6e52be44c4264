package hindsight.eclipse.launch;

import hindsight.eclipse.Activator;
import hindsight.eclipse.core.HindsightException;
import hindsight.eclipse.core.NativeSession;
import hindsight.eclipse.core.Sessions;
import hindsight.eclipse.preferences.PreferenceConstants;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.core.runtime.IProgressMonitor;
import org.eclipse.core.runtime.SubMonitor;
import org.eclipse.debug.core.ILaunch;
import org.eclipse.debug.core.ILaunchConfiguration;
import org.eclipse.debug.core.ILaunchConfigurationWorkingCopy;
import org.eclipse.debug.core.ILaunchDelegate;
import org.eclipse.debug.core.ILaunchManager;
import org.eclipse.debug.core.model.ILaunchConfigurationDelegate;
import org.eclipse.debug.core.model.ILaunchConfigurationDelegate2;
import org.eclipse.jdt.launching.IJavaLaunchConfigurationConstants;

/**
 * The Hindsight launch mode for any Java launch type (Java Application, JUnit): starts the
 * recording, then hands the configuration, with the agent added to its VM arguments, to the
 * type's own delegate in debug mode, so breakpoints work while the run is recorded. The user's
 * configuration itself is never changed (a working copy carries the arguments).
 */
public class HindsightModeDelegate implements ILaunchConfigurationDelegate2 {
    /**
     * JVM options that go with the agent, the same as the command line's (agent/src/lib.rs,
     * {@code JIT_OPTIONS}): the JIT keeps the entry points of instrumented code out of line.
     */
    public static final String[] JIT_OPTIONS = {
        "-XX:CompileCommand=quiet",
        "-XX:CompileCommand=dontinline,hindsight.runtime.Buf::*",
    };

    /** The mode the type's own delegate runs in. */
    static final String WRAPPED_MODE = ILaunchManager.DEBUG_MODE;

    /** The type's own delegate for debug mode. */
    static ILaunchConfigurationDelegate wrapped(ILaunchConfiguration config) throws CoreException {
        AdvancedSourceLookup.disableWhereBroken();
        ILaunchDelegate[] delegates = config.getType().getDelegates(Set.of(WRAPPED_MODE));
        if (delegates.length == 0) {
            throw AgentJar.error("the launch type " + config.getType().getName()
                    + " cannot be debugged, so Hindsight cannot record it", null);
        }
        return delegates[0].getDelegate();
    }

    @Override
    public ILaunch getLaunch(ILaunchConfiguration configuration, String mode) throws CoreException {
        // Loading the type's delegate now starts its plugin before the launch is registered:
        // JDT's JUnit plugin must see the launch added to follow the test run.
        wrapped(configuration);
        return null;
    }

    @Override
    public boolean buildForLaunch(ILaunchConfiguration c, String mode, IProgressMonitor monitor) throws CoreException {
        return !(wrapped(c) instanceof ILaunchConfigurationDelegate2 d) || d.buildForLaunch(c, WRAPPED_MODE, monitor);
    }

    @Override
    public boolean finalLaunchCheck(ILaunchConfiguration c, String mode, IProgressMonitor monitor)
            throws CoreException {
        return !(wrapped(c) instanceof ILaunchConfigurationDelegate2 d) || d.finalLaunchCheck(c, WRAPPED_MODE, monitor);
    }

    @Override
    public boolean preLaunchCheck(ILaunchConfiguration c, String mode, IProgressMonitor monitor) throws CoreException {
        return !(wrapped(c) instanceof ILaunchConfigurationDelegate2 d) || d.preLaunchCheck(c, WRAPPED_MODE, monitor);
    }

    @Override
    public void launch(ILaunchConfiguration config, String mode, ILaunch launch, IProgressMonitor monitor)
            throws CoreException {
        SubMonitor progress = SubMonitor.convert(monitor, "Recording " + config.getName() + " with Hindsight", 10);
        ILaunchConfigurationDelegate delegate = wrapped(config);
        NativeSession session = startRecording(config);
        progress.worked(1);
        try {
            ILaunchConfigurationWorkingCopy wc = config.getWorkingCopy();
            String vmArgs = config.getAttribute(IJavaLaunchConfigurationConstants.ATTR_VM_ARGUMENTS, "");
            wc.setAttribute(IJavaLaunchConfigurationConstants.ATTR_VM_ARGUMENTS,
                    agentOptions(session.socketPath(), LaunchAttributes.record(config)) + " " + vmArgs);
            Sessions.open(session, launch);
            delegate.launch(wc, WRAPPED_MODE, launch, progress.split(9));
        } catch (CoreException | HindsightException | RuntimeException e) {
            // The JVM did not start: the session says so and the launch dialog shows the error.
            Sessions.failed(session, e.getMessage());
            if (e instanceof CoreException ce) {
                throw ce;
            }
            throw AgentJar.error("Hindsight could not launch " + config.getName() + ": " + e.getMessage(), e);
        }
    }

    /** Starts the live recording into a new trace of the configuration's folder. */
    private static NativeSession startRecording(ILaunchConfiguration config) throws CoreException {
        Path trace;
        try {
            trace = TraceStore.newTrace(TraceStore.folder(LaunchAttributes.traceDir(config)), config.getName());
        } catch (IOException e) {
            throw AgentJar.error("Hindsight cannot create the trace folder " + LaunchAttributes.traceDir(config)
                    + ": " + e.getMessage() + "; choose another folder in the Hindsight tab", e);
        }
        NativeSession session;
        try {
            session = NativeSession.startLive(trace, config.getName(), LaunchAttributes.trust(config),
                    PreferenceConstants.bounds(), PreferenceConstants.treeOptions());
        } catch (HindsightException e) {
            throw AgentJar.error("Hindsight could not start the recording, so the program was not launched: "
                    + e.getMessage(), e);
        }
        String strategy = LaunchAttributes.strategy(config);
        try {
            session.setStrategy(strategy, PreferenceConstants.p(strategy));
        } catch (HindsightException e) {
            Activator.log("applying the strategy " + strategy, e);
        }
        return session;
    }

    /** The JIT options and the agent option, for the front of the VM arguments. */
    public static String agentOptions(Path socket, String record) throws CoreException {
        StringBuilder options = new StringBuilder("socket=").append(socket.toAbsolutePath());
        String include = LaunchAttributes.patterns(record);
        if (!include.isEmpty()) {
            options.append(",include=").append(include);
        }
        options.append(",exclude=").append(LaunchAttributes.RUNNER_EXCLUDES);
        String arg = "-javaagent:" + AgentJar.file().getAbsolutePath() + "=" + options;
        return String.join(" ", JIT_OPTIONS) + " " + (arg.contains(" ") ? '"' + arg + '"' : arg);
    }
}
