package hindsight.eclipse.core;

/** An error reported by the core (bad trace, closed session, unknown node...), with its message. */
public class HindsightException extends Exception {
    private static final long serialVersionUID = 1L;

    public HindsightException(String message) {
        super(message);
    }

    public HindsightException(String message, Throwable cause) {
        super(message, cause);
    }
}
