package hindsight.eclipse.tests;

import java.util.Objects;

/** Assertions for UI test steps: each failure says what was expected and what was found. */
public final class Check {
    private Check() {
    }

    /** Thrown by a failed check. */
    public static final class Failure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Failure(String message) {
            super(message);
        }
    }

    public static void isTrue(boolean condition, String what) {
        if (!condition) {
            throw new Failure(what);
        }
    }

    public static void equal(Object expected, Object actual, String what) {
        if (!Objects.equals(expected, actual)) {
            throw new Failure(what + ": expected <" + expected + "> but was <" + actual + ">");
        }
    }

    public static <T> T notNull(T value, String what) {
        if (value == null) {
            throw new Failure(what + " is missing");
        }
        return value;
    }
}
