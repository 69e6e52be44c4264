package hindsight.eclipse.core;

/**
 * How a new session's execution tree is shaped (the preferences; the command line's {@code
 * hindsight debug} switches): {@code balance} collapses and projects chains of calls and of loop
 * iterations into the execution forest ({@code --no-balance} when false), {@code loops} asks about
 * loops and their iterations ({@code --no-loops} when false), {@code maxChain} is the most calls
 * one collapsed or projected node stands for ({@code --max-chain}; 0: no limit). The tree keeps
 * its shape for the session's life: answers are about its nodes.
 */
public record TreeOptions(boolean balance, boolean loops, int maxChain) {
    /** The command line's defaults: balanced, loops asked about, chains of any length. */
    public static final TreeOptions DEFAULTS = new TreeOptions(true, true, 0);
    /** The plain tree of calls: no forest, no loops. */
    public static final TreeOptions PLAIN = new TreeOptions(false, false, 0);
}
