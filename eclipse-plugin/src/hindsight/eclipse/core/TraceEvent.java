package hindsight.eclipse.core;

/**
 * One event of a call, as the Event List shows it.
 *
 * @param timestamp the event's timestamp
 * @param description the event as text, e.g. {@code c[2] = 7} or {@code call merge}
 * @param line the source line, 0 if unknown
 * @param mark whether it changes the selected variable
 */
public record TraceEvent(long timestamp, String description, int line, Mark mark) {
    /** The relation between an event and the selected variable. */
    public enum Mark {
        NONE,
        /** The event changes the variable (red). */
        CHANGES,
        /** The event is a call in which the variable changes (yellow). */
        CONTAINS_CHANGE
    }
}
