package hindsight.eclipse.core;

/** The answers a user gives about a node. */
public enum Answer {
    VALID, INVALID, TRUSTED, DONT_KNOW;

    /** The answer as people read it (valid, invalid, trusted, don't know). */
    public String label() {
        return this == DONT_KNOW ? "don't know" : name().toLowerCase(java.util.Locale.ROOT);
    }

    /** The answer's name in the core's vocabulary, which the bridge takes and gives (dont-know). */
    public String coreName() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
