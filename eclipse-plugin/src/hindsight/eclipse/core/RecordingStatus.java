package hindsight.eclipse.core;

/**
 * Where the recording behind a session stands (the core's {@code RecordingStatus}).
 *
 * @param state {@code recording}, then {@code complete}, {@code truncated} (the JVM died or was
 *        killed: what it sent is kept), {@code malformed} or {@code empty}
 * @param detail the recorder's detail about a truncated or malformed ending, or null
 * @param events events recorded so far
 * @param nodes nodes recorded so far (the run, its threads and calls)
 * @param completeNodes nodes whose call returned
 */
public record RecordingStatus(String state, String detail, long events, long nodes, long completeNodes) {
    /** A finished trace read whole (test doubles). */
    public static final RecordingStatus COMPLETE = new RecordingStatus("complete", null, 0, 0, 0);

    public boolean recording() {
        return "recording".equals(state);
    }

    /** {@code recording… 1,234 events, 56 calls} or {@code truncated (why): ...}, for the tree's header. */
    public String describe() {
        String counts = String.format("%,d events, %,d nodes", events, nodes);
        return switch (state) {
            case "recording" -> "Recording\u2026 " + counts;
            case "complete" -> "Recording complete: " + counts;
            case "truncated" -> "Recording truncated (the JVM ended without closing it"
                    + (detail != null ? ": " + detail : "") + "); what it sent is kept: " + counts;
            case "malformed" -> "Recording stopped by a malformed stream" + (detail != null ? " (" + detail + ")" : "")
                    + "; what came before is kept: " + counts;
            case "empty" -> "Nothing recorded: the program sent no event";
            default -> state + ": " + counts;
        };
    }
}
