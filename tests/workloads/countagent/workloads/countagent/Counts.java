package workloads.countagent;

/**
 * The counters that instrumented code increments. Plain static fields, not atomics: the workloads
 * are single-threaded, and the counts are estimates.
 */
public final class Counts {
    /** Entries into methods of classes not of the JDK. */
    public static long calls;
    /** Line-number entries reached in those methods. */
    public static long lines;
    /** Field and array stores in those methods. */
    public static long writes;

    private Counts() {}

    static String report() {
        return "countagent: calls=" + calls + " lines=" + lines + " writes=" + writes
                + " events~" + (2 * calls + lines + writes) + " (2 x calls + lines + writes)";
    }
}
