package hindsight.eclipse.launch;

import hindsight.eclipse.Activator;
import org.eclipse.core.runtime.Platform;
import org.eclipse.core.runtime.preferences.DefaultScope;
import org.osgi.framework.Bundle;

/**
 * A fix-up for Debian's JDT: its org.eclipse.jdt.launching jar lacks
 * {@code lib/javaagent-shaded.jar}, the agent of JDT's "advanced source lookup", which every
 * debug-mode Java launch adds by default, so such a launch fails with a NullPointerException.
 * Hindsight launches run in debug mode: where the jar is missing, the feature's default is
 * turned off (in memory, for this session of the workbench only; a user's own setting wins).
 */
final class AdvancedSourceLookup {
    private static volatile boolean checked;

    private AdvancedSourceLookup() {
    }

    static void disableWhereBroken() {
        if (checked) {
            return;
        }
        checked = true;
        Bundle launching = Platform.getBundle("org.eclipse.jdt.launching");
        if (launching == null || launching.getEntry("lib/javaagent-shaded.jar") != null) {
            return;
        }
        try {
            Bundle debug = Platform.getBundle("org.eclipse.jdt.debug");
            Object key = debug.loadClass("org.eclipse.jdt.internal.debug.core.JDIDebugPlugin")
                    .getField("PREF_ENABLE_ADVANCED_SOURCELOOKUP").get(null);
            DefaultScope.INSTANCE.getNode(debug.getSymbolicName()).putBoolean(String.valueOf(key), false);
        } catch (ReflectiveOperationException | RuntimeException e) {
            Activator.log("JDT's advanced source lookup agent is missing and could not be turned off; "
                    + "debug-mode launches may fail", e);
        }
    }
}
