package hindsight.eclipse.core;

/**
 * The cache bounds a new session gets from the preferences: the persistence bound (nodes of the
 * execution tree kept in memory, the others spilled to scratch files; 0 keeps all) and the logic
 * cache (rendered questions kept). A negative value asks for the core's default.
 */
public record Bounds(long residentNodes, int questionCache) {
    /** The core's defaults for both. */
    public static final Bounds CORE_DEFAULTS = new Bounds(-1, -1);
}
