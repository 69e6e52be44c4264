package hindsight.eclipse.launch;

import hindsight.eclipse.preferences.PreferenceConstants;
import org.eclipse.core.runtime.CoreException;
import org.eclipse.debug.core.ILaunchConfiguration;

/** The launch mode Hindsight adds and the attributes of its launch configuration tab. */
public final class LaunchAttributes {
    /** The launch mode: record the launch and debug it (Hindsight As, the Hindsight history). */
    public static final String MODE = "hindsight";
    /** The launch group of the mode (history, favourites, the launch dialog). */
    public static final String GROUP = "hindsight.eclipse.launchGroup";

    /** Packages and classes to record ({@code pkg.*, pkg.Class}); empty: every application class. */
    public static final String RECORD = "hindsight.record";
    /** Packages and methods never asked about; default: the preferences' trusted packages. */
    public static final String TRUST = "hindsight.trust";
    /** The strategy; default: the preferences'. */
    public static final String STRATEGY = "hindsight.strategy";
    /** The folder traces are kept in; empty: the workspace's (see {@link TraceStore}). */
    public static final String TRACE_DIR = "hindsight.traceDir";

    /** Test runners' packages, never recorded: their calls are not the program's. */
    public static final String RUNNER_EXCLUDES =
            "org.junit.*,junit.*,org.hamcrest.*,org.eclipse.jdt.internal.junit.*,org.eclipse.jdt.internal.junit4.*";

    private LaunchAttributes() {
    }

    public static String record(ILaunchConfiguration c) throws CoreException {
        return c.getAttribute(RECORD, "");
    }

    public static String trust(ILaunchConfiguration c) throws CoreException {
        return c.getAttribute(TRUST, PreferenceConstants.store().getString(PreferenceConstants.TRUSTED_PACKAGES));
    }

    public static String strategy(ILaunchConfiguration c) throws CoreException {
        return c.getAttribute(STRATEGY, PreferenceConstants.store().getString(PreferenceConstants.STRATEGY));
    }

    public static String traceDir(ILaunchConfiguration c) throws CoreException {
        return c.getAttribute(TRACE_DIR, "");
    }

    /** {@code a.*, b.C} as the agent's list {@code a.*,b.C} (spaces dropped). */
    static String patterns(String text) {
        StringBuilder b = new StringBuilder();
        for (String p : text.split("[,\\s]+")) {
            if (!p.isEmpty()) {
                b.append(b.length() == 0 ? "" : ",").append(p);
            }
        }
        return b.toString();
    }
}
