package hindsight.eclipse.preferences;

import hindsight.eclipse.Activator;
import org.eclipse.jface.preference.IPreferenceStore;

/** Preference keys and their defaults. */
public final class PreferenceConstants {
    /** Strategy name, one of {@link hindsight.eclipse.core.Strategies#ALL}. */
    public static final String STRATEGY = "strategy";
    /** p of divide & query by edge coverage. */
    public static final String P_EDGES = "p.edges";
    /** p of divide & query by def-use coverage. */
    public static final String P_DEF_USE = "p.defUse";
    /** Comma-separated package patterns whose methods are trusted (never asked about). */
    public static final String TRUSTED_PACKAGES = "trustedPackages";
    /**
     * Nodes of the execution tree kept in memory; the others are spilled to scratch files.
     * Passed to the core when a session starts.
     */
    public static final String PERSISTENCE_BOUND = "cache.persistence";
    /** Questions (the nodes asked and likely asked next) kept rendered; passed to the core. */
    public static final String LOGIC_BOUND = "cache.logic";
    /** Depth of the tree the views keep below the node they show. */
    public static final String PRESENTATION_DEPTH = "cache.presentationDepth";

    public static final String DEFAULT_STRATEGY = "edge-coverage";
    /** The papers' defaults: 0.5 for edges, 0.6 for def-use chains. */
    public static final double DEFAULT_P_EDGES = 0.5;
    public static final double DEFAULT_P_DEF_USE = 0.6;
    public static final String DEFAULT_TRUSTED_PACKAGES = "java.*, javax.*, jdk.*, sun.*, com.sun.*";
    /** The core's defaults (DebugOptions::resident_nodes, LiveOptions::question_cache). */
    public static final int DEFAULT_PERSISTENCE_BOUND = 3_000_000;
    public static final int DEFAULT_LOGIC_BOUND = 256;
    public static final int DEFAULT_PRESENTATION_DEPTH = 4;

    private PreferenceConstants() {
    }

    /** The p the preferences give {@code strategy}: NaN (its default) for a strategy without p. */
    public static double p(String strategy) {
        return switch (strategy) {
            case "edge-coverage" -> store().getDouble(P_EDGES);
            case "def-use-coverage" -> store().getDouble(P_DEF_USE);
            default -> Double.NaN;
        };
    }

    /** Gives {@code session} the strategy (and p) of the preferences. */
    public static void applyStrategy(hindsight.eclipse.core.TraceSession session)
            throws hindsight.eclipse.core.HindsightException {
        String strategy = store().getString(STRATEGY);
        session.setStrategy(strategy, p(strategy));
    }

    /** The cache bounds of the preferences, for a new session. */
    public static hindsight.eclipse.core.Bounds bounds() {
        return new hindsight.eclipse.core.Bounds(store().getInt(PERSISTENCE_BOUND), store().getInt(LOGIC_BOUND));
    }

    /** The plugin's preference store. */
    public static IPreferenceStore store() {
        return Activator.getDefault().getPreferenceStore();
    }
}
