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
    /**
     * Balance the execution tree: collapse and project chains of calls and of loop iterations
     * (the execution forest) so that a question halves the suspects. Passed to the core when a
     * session starts ({@code hindsight debug}; off is {@code --no-balance}).
     */
    public static final String BALANCE = "tree.balance";
    /** Ask about loops and their iterations (off is {@code --no-loops}); when a session starts. */
    public static final String LOOPS = "tree.loops";
    /**
     * The most calls or iterations one collapsed or projected node stands for; 0: no limit
     * ({@code --max-chain}). When a session starts.
     */
    public static final String MAX_CHAIN = "tree.maxChain";

    public static final String DEFAULT_STRATEGY = "edge-coverage";
    /** The papers' defaults: 0.5 for edges, 0.6 for def-use chains. */
    public static final double DEFAULT_P_EDGES = 0.5;
    public static final double DEFAULT_P_DEF_USE = 0.6;
    public static final String DEFAULT_TRUSTED_PACKAGES = "java.*, javax.*, jdk.*, sun.*, com.sun.*";
    /** The core's defaults (DebugOptions::resident_nodes, LiveOptions::question_cache). */
    public static final int DEFAULT_PERSISTENCE_BOUND = 3_000_000;
    public static final int DEFAULT_LOGIC_BOUND = 256;
    public static final int DEFAULT_PRESENTATION_DEPTH = 4;
    /** The command line's defaults: balanced, loops asked about, chains of any length. */
    public static final boolean DEFAULT_BALANCE = true;
    public static final boolean DEFAULT_LOOPS = true;
    public static final int DEFAULT_MAX_CHAIN = 0;

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

    /** How the preferences shape the execution tree of a new session. */
    public static hindsight.eclipse.core.TreeOptions treeOptions() {
        return new hindsight.eclipse.core.TreeOptions(store().getBoolean(BALANCE), store().getBoolean(LOOPS),
                store().getInt(MAX_CHAIN));
    }

    /** The plugin's preference store. */
    public static IPreferenceStore store() {
        return Activator.getDefault().getPreferenceStore();
    }
}
